//! Fuzz target: any text through the C frontend (tree-sitter parse, name and type
//! resolution, lowering). Lowering must never panic, and what it produces must satisfy
//! the IR invariants (`validate_program`), whatever the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let unit = TranslationUnit {
        path: "fuzz.c".into(),
        text,
        line_map: None,
    };
    let lowered = lower_units(&[unit], &FrontendConfig::default());
    let errors = ripple_ir::validate_program(&lowered.program);
    assert!(errors.is_empty(), "invalid IR: {errors:?}");
});
