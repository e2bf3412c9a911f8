//! Loading C version pairs for the semantic difference tests.

#![allow(dead_code)] // Each test binary uses a part of these helpers.

use std::path::Path;

use ripple_analyses::semdiff::{semdiff, SemdiffConfig, SemdiffReport};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

/// Preprocesses and lowers one C file.
pub fn load(path: &Path) -> Program {
    ripple_conformance::lower_file(path, &path.display().to_string())
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

/// One labelled version pair of a suite (`tests/semdiff/NAME`, `tests/semdiff-numeric/NAME`):
/// its `pair.desc` gives the function, the expected verdict, the reason, a gcc check and,
/// for a pair expected to stay unknown, why (`analysis`).
#[derive(Clone, Debug)]
pub struct LabelledPair {
    pub name: String,
    pub dir: std::path::PathBuf,
    pub function: String,
    pub expect: ripple_analyses::semdiff::Verdict,
    pub reason: String,
    pub check: String,
    pub analysis_note: Option<String>,
}

/// The pairs of `tests/SUITE`, sorted by name.
pub fn labelled_pairs(suite: &str) -> Vec<LabelledPair> {
    use ripple_analyses::semdiff::Verdict;
    let root = workspace().join("tests").join(suite);
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("pair.desc").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("pair.desc")).unwrap();
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let field = |key: &str| -> Option<String> {
                text.lines()
                    .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
                    .map(str::to_string)
            };
            let required = |key: &str| field(key).unwrap_or_else(|| panic!("{name}: no {key}"));
            let expect = match required("expect").as_str() {
                "equivalent" => Verdict::Equivalent,
                "different" => Verdict::Different,
                other => panic!("{name}: expect must be equivalent or different, not {other}"),
            };
            LabelledPair {
                function: required("function"),
                reason: required("reason"),
                check: required("check"),
                analysis_note: field("analysis"),
                expect,
                dir,
                name,
            }
        })
        .collect()
}
