//! Report views and renderers. Analyses produce core types; this crate turns them into
//! serialisable views (the only place that knows serde) and renders them as text,
//! JSON, and for the statement-level impact SARIF, Markdown and HTML. Each JSON document carries `"schema"`, bumped on any incompatible change
//! (docs/json-schema.md).

pub mod diff;
pub mod effects;
pub mod html;
pub mod impact;
pub mod impact_lines;
pub mod interactions;
pub mod interned;
pub mod invariants;
pub mod markdown;
pub mod report;
pub mod sarif;
pub mod sea;
pub mod semdiff;
pub mod slice;
pub mod stats;
pub mod stored;

/// The version of the JSON documents ripple writes, except those below.
pub const SCHEMA_VERSION: u32 = 1;

/// The version of the statement-level impact document (`ripple impact`) and of the
/// documents of `ripple diff`, which hold it: 2 since the impacted lines' chains are
/// shared (`via` into `chain_steps`) instead of written out per line.
pub const IMPACT_SCHEMA_VERSION: u32 = 2;
