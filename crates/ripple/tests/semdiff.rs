//! End-to-end tests of `ripple semdiff OLD NEW`: verdicts, the JSON shape of issue 5,
//! replayed witnesses, and the exit codes (0 all equivalent, 1 some difference, 2 error,
//! 3 unknown remains).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `ripple semdiff` with `args`; returns (exit code, stdout, stderr).
fn semdiff(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(root())
        .arg("semdiff")
        .args(args)
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn figure_2_differs_with_a_confirmed_witness() {
    // 001 Fig. 2: p differs exactly when *x == 4 (old returns, new decrements it).
    let (code, stdout, stderr) = semdiff(&[
        "examples/moddiff-fig2/old.c",
        "examples/moddiff-fig2/new.c",
        "--function",
        "p",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "a difference is exit code 1: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json["schema"], 1);
    let p = &json["functions"][0];
    assert_eq!(p["name"], "p");
    assert_eq!(p["verdict"], "different");
    let differs = p["differs_when"].as_str().expect("a condition");
    assert!(differs.contains('4'), "{differs}");
    let witness = &p["witnesses"][0];
    assert_eq!(witness["confirmed"], true, "{witness}");
    assert_eq!(witness["inputs"]["*x"], "4", "{witness}");
    assert_ne!(witness["old"], witness["new"], "{witness}");
    for key in ["equal_when", "non_termination_differs_when", "notes"] {
        assert!(p.get(key).is_some(), "{key} missing");
    }
    assert!(json["settings"]["elapsed_ms"].is_u64());
}

#[test]
fn an_equivalent_pair_is_exit_code_0() {
    // x - y and x + (-y) agree on every input (wrapping arithmetic).
    let (code, stdout, stderr) = semdiff(&[
        "tests/semdiff/sub_as_add_neg/old.c",
        "tests/semdiff/sub_as_add_neg/new.c",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let verdicts: Vec<&str> = json["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| f["verdict"].as_str().unwrap_or_default())
        .collect();
    assert!(!verdicts.is_empty());
    assert!(verdicts.iter().all(|v| *v == "equivalent"), "{verdicts:?}");
}

#[test]
fn an_unbounded_loop_within_a_short_budget_is_unknown() {
    // Euclid's algorithm recursive against iterative: equal, but the number of steps is
    // unbounded, so no proof fits the bounds: unknown, exit code 3.
    let (code, stdout, _) = semdiff(&[
        "tests/semdiff/gcd_recursive_iterative/old.c",
        "tests/semdiff/gcd_recursive_iterative/new.c",
        "--function",
        "gcd",
        "--budget",
        "1",
    ]);
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("unknown"), "{stdout}");
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let (code, _, stderr) = semdiff(&["no/such/old.c", "examples/moddiff-fig2/new.c"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no/such/old.c"), "{stderr}");
}
