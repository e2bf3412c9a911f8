//! End-to-end tests of `ripple sea` and `ripple impact --level function` on 004 Figure 1
//! (examples/sea-fig1), through the C frontend: the computed sets must equal the
//! hand-derived table of examples/sea-fig1/README.md.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fig1(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/sea-fig1")
        .join(file)
}

fn ripple() -> Command {
    Command::cargo_bin("ripple").expect("the ripple binary builds")
}

/// Runs ripple, returns (exit code, JSON on stdout, stderr).
fn run_json(args: &[&str], paths: &[PathBuf]) -> (i32, serde_json::Value, String) {
    let out = ripple()
        .args(args)
        .args(paths)
        .output()
        .expect("ripple runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {stderr}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (out.status.code().unwrap_or(-1), json, stderr)
}

fn sets(json: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    json["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|s| {
            let members = s["sea"]
                .as_array()
                .expect("members")
                .iter()
                .map(|m| m.as_str().expect("a name").to_string())
                .collect();
            (s["function"].as_str().expect("a name").to_string(), members)
        })
        .collect()
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| (*s).to_string()).collect();
    out.sort();
    out
}

#[test]
fn sea_of_figure1_equals_the_readme_table() {
    let (code, json, stderr) = run_json(&["sea", "--format", "json"], &[fig1("old.c")]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(json["schema"], 1);
    assert_eq!(json["relation"], "SEA");
    // The README's table (SEA without ID). Library functions (printf, malloc, ...) are
    // not listed; sin and cos are, as targets of the call through selectedFunc->func.
    let loop_set = sorted(&[
        "main",
        "readInputs",
        "checkInputs",
        "sin",
        "cos",
        "deleteFunctions",
        "deleteName",
    ]);
    let expected = vec![
        ("checkInputs".to_string(), loop_set.clone()),
        (
            "cos".to_string(),
            sorted(&["main", "deleteFunctions", "deleteName"]),
        ),
        (
            "deleteFunctions".to_string(),
            sorted(&["main", "deleteName"]),
        ),
        (
            "deleteName".to_string(),
            sorted(&["main", "deleteFunctions", "deleteName"]),
        ),
        (
            "init".to_string(),
            sorted(&[
                "main",
                "readInputs",
                "checkInputs",
                "sin",
                "cos",
                "deleteFunctions",
                "deleteName",
            ]),
        ),
        (
            "main".to_string(),
            sorted(&[
                "init",
                "readInputs",
                "checkInputs",
                "sin",
                "cos",
                "deleteFunctions",
                "deleteName",
            ]),
        ),
        ("readInputs".to_string(), loop_set),
        (
            "sin".to_string(),
            sorted(&["main", "deleteFunctions", "deleteName"]),
        ),
    ];
    assert_eq!(sets(&json), expected);
}

#[test]
fn seb_with_identity_for_chosen_functions() {
    let (code, json, stderr) = run_json(
        &[
            "sea",
            "--before",
            "--with-id",
            "--function",
            "init",
            "--function",
            "readInputs",
            "--format",
            "json",
        ],
        &[fig1("old.c")],
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(json["relation"], "SEB");
    assert_eq!(
        sets(&json),
        vec![
            ("init".to_string(), sorted(&["init", "main"])),
            (
                "readInputs".to_string(),
                sorted(&["main", "init", "readInputs", "checkInputs"])
            ),
        ]
    );
}

#[test]
fn sea_is_compared_with_forward_slices() {
    let out = ripple()
        .args([
            "sea",
            "--compare-slices",
            "--function",
            "readInputs",
            "--format",
            "json",
        ])
        .arg(fig1("old.c"))
        .output()
        .expect("ripple runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["comparison"]["reference"], "forward-slice");
    let row = &json["comparison"]["functions"][0];
    // readInputs may call exit(), so everything that runs after it is control dependent
    // on it: its forward slice touches {main, checkInputs, deleteFunctions, deleteName}.
    // SEA(readInputs) adds readInputs itself (called in a loop) and the library targets
    // sin and cos (no statements to slice): 7 members, recall 100%, precision 4/7.
    assert_eq!(row["function"], "readInputs");
    assert_eq!(row["set_size"], 7);
    assert_eq!(row["reference_size"], 4);
    assert_eq!(row["recall"], 100.0);
    assert!((row["precision"].as_f64().expect("a number") - 400.0 / 7.0).abs() < 1e-9);
}

#[test]
fn impact_of_the_figure1_change() {
    let (code, json, stderr) = run_json(
        &["impact", "--level", "function", "--format", "json"],
        &[fig1("old.c"), fig1("new.c")],
    );
    assert_eq!(code, 1, "stderr: {stderr}");
    assert_eq!(json["changed_functions"][0]["name"], "checkInputs");
    // README: {checkInputs} ∪ SEA(checkInputs): everything but init.
    let impacted: Vec<(String, Vec<String>)> = json["impacted_functions"]
        .as_array()
        .expect("impacted")
        .iter()
        .map(|i| {
            assert_eq!(i["because_of"], serde_json::json!(["checkInputs"]));
            let relations = i["relations"]
                .as_array()
                .expect("relations")
                .iter()
                .map(|r| r.as_str().expect("a relation").to_string())
                .collect();
            (i["name"].as_str().expect("a name").to_string(), relations)
        })
        .collect();
    let mut names: Vec<&str> = impacted.iter().map(|(n, _)| n.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "checkInputs",
            "cos",
            "deleteFunctions",
            "deleteName",
            "main",
            "readInputs",
            "sin"
        ]
    );
    let relations_of = |name: &str| {
        impacted
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.clone())
    };
    assert_eq!(relations_of("main"), Some(vec!["RET".to_string()]));
    assert_eq!(
        relations_of("checkInputs"),
        Some(vec!["SEQ".to_string(), "ID".to_string()])
    );
    // The call graph alone finds checkInputs and its caller main (strcasecmp is a library
    // function, not listed).
    assert_eq!(
        json["callgraph_impact"]["callers"],
        serde_json::json!(["main"])
    );
    assert_eq!(json["summary"]["callgraph_impacted"], 2);
}

#[test]
fn impact_without_change_exits_0_and_statement_level_is_the_default() {
    let (code, json, stderr) = run_json(
        &["impact", "--level", "function", "--format", "json"],
        &[fig1("old.c"), fig1("old.c")],
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(json["impacted_functions"], serde_json::json!([]));
    let out = ripple()
        .args(["impact"])
        .arg(fig1("old.c"))
        .arg(fig1("new.c"))
        .output()
        .expect("ripple runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("impacted line(s)"));
}

#[test]
fn seb_is_compared_with_backward_slices() {
    // 004 section 4.1. checkInputs depends on the list built by init (through main's
    // functionList), on the name read by readInputs, and on main's loop that calls it:
    // its backward slice touches {init, main, readInputs}. SEB(checkInputs) = {main,
    // init, readInputs, checkInputs} (checkInputs runs again in the loop), so recall is
    // 100% and precision 3/4.
    let (code, json, stderr) = run_json(
        &[
            "sea",
            "--before",
            "--compare-slices",
            "--format",
            "json",
            "--function",
            "checkInputs",
        ],
        &[fig1("new.c")],
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let comparison = &json["comparison"];
    assert_eq!(comparison["reference"], "backward-slice");
    let row = &comparison["functions"][0];
    assert_eq!(row["function"], "checkInputs");
    assert_eq!(row["set_size"], 4);
    assert_eq!(row["reference_size"], 3);
    assert_eq!(row["recall"], 100.0);
    assert_eq!(row["precision"], 75.0);
}
