//! The change-impact techniques of ripple, one module per technique, each named after it
//! and citing the paper and section it implements.
//!
//! - [`dcia`]: statement-level change impact by dataflow, DCIA (Gyori et al., 000,
//!   section 3.3), with the SEM-DCIA equivalences as inputs (000 section 4).
//! - [`change_control`]: the nodes whose execution count a deleted or inserted statement
//!   may alter (000 Definition 3.1 over MAPPED), seeds of DCIA.
//! - [`sea`]: Static Execute After / Before between functions (Jász, 004, section 3).
//! - [`semdiff`]: semantic difference summaries by modular symbolic execution
//!   (Trostanetski et al., 001, sections 3-6).
//! - [`sem_equiv`]: the equivalences of changed statements and call arguments that
//!   SEM-DCIA uses (000 section 4), proved by the solver.
//! - [`effects`]: change effects and test-suite assessment: the change model, CHAIN and
//!   PROP requirements, demand-driven monitoring of runs on both versions (Santelices,
//!   002, chapters 3, 5 and 6).
//! - [`fingerprint`]: content hashes of a function and what it depends on, the keys of
//!   the summary cache.
//! - [`unread`]: the functions whose answers depend on code that could not be read.
//! - [`function_impact`]: the functions a change between two versions may impact, by SEA,
//!   next to the plain call-graph impact (004 section 4).
//!
//! Architecture invariant: analyses do no I/O and know nothing of serde or of the command
//! line; they take IR programs, graphs and version matchings, and return core types.

pub mod change_control;
pub mod dcia;
pub mod effects;
pub mod fingerprint;
pub mod function_impact;
pub mod hubs;
pub mod interactions;
pub mod invariants;
pub mod sea;
pub mod sem_equiv;
pub mod semdiff;
pub mod unread;
