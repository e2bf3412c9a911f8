//! Lowering of C text for the dataflow tests.
// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use ripple_c::{lower_units, FrontendConfig, Lowered, TranslationUnit};
use ripple_ir::Program;

/// Lowers `text` as the file `path` (`preprocessed`: `cc -E` output with line markers).
pub fn lower_file(path: &str, text: &str, preprocessed: bool) -> Program {
    lowered(path, text, preprocessed).program
}

/// The program and the diagnostics of `text` lowered as the file `path`.
pub fn lowered(path: &str, text: &str, preprocessed: bool) -> Lowered {
    let unit = if preprocessed {
        TranslationUnit::preprocessed(path.to_string(), text, str::to_string)
    } else {
        TranslationUnit {
            path: path.to_string(),
            text: text.to_string(),
            line_map: None,
        }
    };
    lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: false,
            ..FrontendConfig::default()
        },
    )
}
