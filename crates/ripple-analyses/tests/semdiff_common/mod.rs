//! Loading C version pairs for the semantic difference tests.

#![allow(dead_code)] // Each test binary uses a part of these helpers.

use std::path::Path;
use std::process::Command;

use ripple_analyses::semdiff::{semdiff, SemdiffConfig, SemdiffReport};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

/// Preprocesses and lowers one C file.
pub fn load(path: &Path) -> Program {
    let output = Command::new("gcc")
        .args(["-E", "-std=gnu11"])
        .arg(path)
        .output()
        .expect("gcc -E runs");
    assert!(
        output.status.success(),
        "gcc -E {}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let unit = TranslationUnit::preprocessed(path.display().to_string(), &text, str::to_string);
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    );
    lowered.program
}

/// Runs the analysis on `dir/old.c` and `dir/new.c`.
pub fn run(dir: &Path, config: &SemdiffConfig) -> SemdiffReport {
    let old = load(&dir.join("old.c"));
    let new = load(&dir.join("new.c"));
    let matching = match_programs(&old, &new, &MatchConfig::default());
    semdiff(&old, &new, &matching, config)
}

pub fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .parent()
        .unwrap()
}
