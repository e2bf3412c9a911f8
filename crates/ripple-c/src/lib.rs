//! The C frontend: parses translation units with tree-sitter-c, resolves names and
//! types (LP64), and lowers every function to the IR of `ripple-ir`.

mod source;

pub use source::{LineMap, Segment, TranslationUnit};
