//! The C frontend: parses translation units with tree-sitter-c, resolves names and
//! types (LP64), and lowers every function to the IR of `ripple-ir`.
//!
//! Entry point: [`lower_units`]. Lowering never fails: broken code becomes
//! [`Diagnostic`]s plus explicit over-approximations (havoc nodes listed in
//! [`ripple_ir::Program::approximations`]), never a silent drop.
//!
//! Code map: `lower.rs` holds the lowering context (scopes, CFG construction),
//! `types.rs` type specifiers, declarators, records and the C conversions,
//! `consteval.rs` constant folding, `literals.rs` numbers, characters and strings,
//! `expr.rs` expressions, `builtins.rs` compiler builtins (`intbuiltins.rs` the integer
//! ones: bit counts, byte swaps, overflow checks, atomics), `stmt.rs` statements,
//! `init.rs` initializers, `decls.rs` declarations, definitions and linking, `entry.rs`
//! whether a unit defines a function (a scan of its text, before parsing),
//! `include.rs` the headers read in place of the compiler's (`<stdatomic.h>`),
//! `oldstyle.rs` the C89 forms rewritten before parsing (implicit int, K&R parameter
//! lists; also `goto *`), `recover.rs` definitions the parser's error recovery
//! swallowed, and `syntax.rs` the per-function syntax tree, fingerprint and parse-error
//! diagnostics.

mod builtins;
mod chunks;
mod consteval;
mod declarator_attributes;
mod decls;
mod entry;
mod expr;
mod include;
mod init;
mod intbuiltins;
mod literals;
mod lower;
mod misparse;
mod oldstyle;
mod readonly;
mod recover;
mod runtime;
mod source;
mod stmt;
mod symbols;
mod syntax;
mod type_attributes;
mod types;
mod unmodelled;
mod volatile;

pub use entry::defines_function;
pub use include::HEADERS as INCLUDE_HEADERS;
pub use source::{LineMap, Segment, TranslationUnit};
pub use symbols::{link_symbols, LinkSymbols};

/// Options of the frontend.
#[derive(Clone, Debug)]
pub struct FrontendConfig {
    /// Build [`ripple_ir::Function::syntax`] for every defined function (needed by the
    /// version matcher; costs time and memory on large inputs).
    pub build_syntax: bool,
    /// Size of the chunks a large unit is parsed in (in parallel); `None`: the default.
    /// The output does not depend on it (a test of the chunking may set it).
    pub chunk_bytes: Option<usize>,
    /// Threads parsing the chunks of a large unit (`None`: one per core, at most 8).
    pub threads: Option<usize>,
}

impl Default for FrontendConfig {
    fn default() -> Self {
        FrontendConfig {
            build_syntax: true,
            chunk_bytes: None,
            threads: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A message about the input, located in the original file and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// The result of lowering: the program and what was said about the input.
#[derive(Debug)]
pub struct Lowered {
    pub program: ripple_ir::Program,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lowers all units into one program, linking external names across units.
pub fn lower_units(units: &[TranslationUnit], config: &FrontendConfig) -> Lowered {
    // Deeply nested expressions and statement chains recurse deeply; run the lowering on
    // a thread with a large (lazily committed) stack.
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("ripple-c-lower".into())
            .stack_size(1 << 30)
            .spawn_scoped(scope, || lower::lower_all(units, config))
            .ok()
            .map(|handle| handle.join())
    });
    match result {
        Some(Ok(lowered)) => lowered,
        // The lowering panicked (a bug): report it rather than propagating the panic.
        Some(Err(_)) => Lowered {
            program: ripple_ir::Program {
                read_errors: vec![ripple_ir::ReadError {
                    span: ripple_ir::Span::SYNTHETIC,
                    function: None,
                    record: None,
                    text: 0,
                }],
                ..ripple_ir::Program::default()
            },
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                file: units.first().map(|u| u.path.clone()).unwrap_or_default(),
                line: 0,
                col: 0,
                message: "internal error in the C frontend".into(),
            }],
        },
        // No thread could be started: lower on this one.
        None => lower::lower_all(units, config),
    }
}
