//! Lowering of C text for the dataflow tests.

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;

/// Lowers `text` as the file `path` (`preprocessed`: `cc -E` output with line markers).
pub fn lower_file(path: &str, text: &str, preprocessed: bool) -> Program {
    let unit = if preprocessed {
        TranslationUnit::preprocessed(path.to_string(), text, str::to_string)
    } else {
        TranslationUnit {
            path: path.to_string(),
            text: text.to_string(),
            line_map: None,
        }
    };
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: false,
        },
    );
    lowered.program
}
