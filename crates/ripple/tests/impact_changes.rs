//! End-to-end impact tests of changes that are not edits of a function body: a changed
//! table (a global initializer in a header). Fixtures in `tests/impact/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixture(name: &str, version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact")
        .join(name)
        .join(version)
}

/// Runs `ripple impact` on a fixture; returns (exit code, JSON).
fn impact(name: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(fixture(name, "old"))
        .arg(fixture(name, "new"))
        .args(["--format", "json"])
        .args(extra)
        .output()
        .expect("ripple runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

fn names(list: &serde_json::Value) -> BTreeSet<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|f| f["name"].as_str().expect("a name").to_string())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Only `next[]` changes (gcc: the old walk prints 3 steps, the new one 2). `follow` is
/// the only function that reads the table, so it is the one function with a changed
/// input (000 section 2.2: globals are inputs); SEA from it reaches `walk` and `main`
/// (RET: they run after `follow` returns) and `twice` (SEQ: main calls it after walk).
/// Before globals counted as changes, this printed "no changed function".
#[test]
fn a_changed_table_makes_its_readers_changed_at_function_level() {
    let (code, json) = impact("table-change", &["--level", "function"]);
    assert_eq!(code, 1, "a change is exit code 1: {json:#}");
    let changed = &json["changed_functions"];
    assert_eq!(names(changed), set(&["follow"]), "{json:#}");
    assert_eq!(changed[0]["status"], "reads");
    assert_eq!(changed[0]["reads"][0], "next");
    assert_eq!(
        names(&json["impacted_functions"]),
        set(&["follow", "walk", "main", "twice"]),
        "{json:#}"
    );
}

/// At statement level the table's line is the changed line (tab.h line 2, both
/// versions), and its reads are impacted: `return next[i]` (prog.c 9), the loop that
/// uses what follow returns (16-17, and the loop condition 15, whose number of
/// iterations changes), `return n` (19) and main's use of the count (23, 25). twice's
/// body (5) and `int doubled = twice(3)` (24) depend on nothing the table feeds.
#[test]
fn a_changed_table_is_a_changed_line_whose_reads_are_impacted() {
    let (code, json) = impact("table-change", &[]);
    assert_eq!(code, 1);
    let changed: BTreeSet<(String, String, u64)> = json["changed_lines"]
        .as_array()
        .expect("changed_lines")
        .iter()
        .map(|l| {
            (
                l["version"].as_str().unwrap().to_string(),
                l["file"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        changed.contains(&("old".into(), "tab.h".into(), 2)),
        "{changed:?}"
    );
    assert!(
        changed.contains(&("new".into(), "tab.h".into(), 2)),
        "{changed:?}"
    );
    let impacted: BTreeSet<u64> = json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == "new" && l["file"] == "prog.c")
        .map(|l| l["line"].as_u64().unwrap())
        .collect();
    for line in [9, 15, 16, 19, 23, 25] {
        assert!(impacted.contains(&line), "line {line} not in {impacted:?}");
    }
    for line in [5, 24] {
        assert!(
            !impacted.contains(&line),
            "line {line} wrongly in {impacted:?}"
        );
    }
}
