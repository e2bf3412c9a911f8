//! `ripple interactions` through the command line: change sets given by line ranges and
//! by the commits of a git range, and bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn example(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir)
}

fn ripple(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(dir: &Path, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = ripple(dir, &all);
    let value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, value)
}

fn pair<'a>(v: &'a Value, a: &str, b: &str) -> &'a Value {
    v["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .find(|p| p["sets"][0] == a && p["sets"][1] == b)
        .unwrap_or_else(|| panic!("no pair {a} x {b}: {v}"))
}

fn set_names(v: &Value) -> Vec<&str> {
    v["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|s| s["name"].as_str().expect("a name"))
        .collect()
}

fn lines(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a line"))
        .collect()
}

/// 002 Fig. 4 with ch1 and ch2 (lines 10 and 13) as one set: that set and ch4 interact
/// on the tests where the last positive m[i] is the last element (ch2's `a = 5` is what
/// statement 8 prints: suite lines 2, 7, 8); ch3 and ch4 are pruned statically (Table
/// 22: slices {7} and {8}).
#[test]
fn sets_by_line_ranges() {
    let dir = example("change-effects-fig4");
    let (code, v) = json(
        &dir,
        &[
            "interactions",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--group",
            "10-13",
        ],
    );
    assert_eq!(code, Some(1), "{v}");
    let names = set_names(&v);
    assert_eq!(names, ["10-13", "ch3", "ch4"]);
    assert_eq!(v["sets"][0]["changes"].as_array().unwrap().len(), 2);
    let p = pair(&v, "10-13", "ch4");
    assert_eq!(p["verdict"], "interacts");
    assert_eq!(lines(&p["type_one"]), [2, 7, 8]);
    assert_eq!(p["at"]["line"], 19);
    assert_eq!(pair(&v, "ch3", "ch4")["verdict"], "pruned-static");
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// One set per commit: the first commit changes `x * 3` to `x * 4`, the second deletes
/// `y = 2;` (found by `git blame --reverse`). Both feed the printed `x + y`: on input 5,
/// the first commit's effect is 21 against 16 with the deletion, 22 against 17 without
/// it, so the commits interact (Type I: each alone changes the output); on input 0 the
/// first commit changes nothing (0 * 4 = 0 * 3), so nothing interacts.
#[test]
fn sets_by_commit() {
    let repo = tempfile::tempdir().expect("a scratch directory");
    let p = repo.path();
    let write = |text: &str| std::fs::write(p.join("prog.c"), text).expect("write");
    let program = |y: &str, x: &str| {
        format!(
            "#include <stdio.h>\n#include <stdlib.h>\n\nint main(int argc, char **argv) {{\n    int x = argc > 1 ? atoi(argv[1]) : 0;\n    int y = 1;\n{y}\n    printf(\"start\\n\");\n    x = x * {x};\n    printf(\"%d\\n\", x + y);\n    return 0;\n}}\n"
        )
    };
    git(p, &["init", "-q"]);
    write(&program("    y = 2;", "3"));
    std::fs::write(p.join("suite.txt"), "5\n0\n").expect("write");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-q", "-m", "base"]);
    write(&program("    y = 2;", "4"));
    git(p, &["commit", "-q", "-am", "scale by four"]);
    let first = git(p, &["rev-parse", "--short=10", "HEAD"]);
    write(&program("", "4"));
    git(p, &["commit", "-q", "-am", "keep y"]);
    let second = git(p, &["rev-parse", "--short=10", "HEAD"]);
    let (code, v) = json(
        p,
        &[
            "interactions",
            "HEAD~2",
            "HEAD",
            "--tests",
            "suite.txt",
            "--group",
            "commit",
        ],
    );
    assert_eq!(code, Some(1), "{v}");
    let names = set_names(&v);
    // Sets in the order of their first change in the new version: the deleted line
    // (7) comes before the changed one.
    assert_eq!(names, [second.as_str(), first.as_str()]);
    let pr = pair(&v, &second, &first);
    assert_eq!(pr["verdict"], "interacts");
    assert_eq!(lines(&pr["type_one"]), [1]);
    assert_eq!(pr["no_interaction"], 1);
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("scale by four") && notes.contains("keep y"),
        "{notes}"
    );
}

#[test]
fn bad_input() {
    let dir = example("change-effects-fig4");
    let run = |extra: &[&str]| {
        let mut args = vec!["interactions", "old.c", "new.c", "--tests", "suite.txt"];
        args.extend(extra);
        ripple(&dir, &args)
    };
    let (code, _, err) = run(&["--group", "0-3"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("lines count from 1"), "{err}");
    let (code, _, err) = run(&["--group", "commit"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs two git revisions"), "{err}");
    let (code, _, err) = ripple(
        &dir,
        &["interactions", "old.c", "new.c", "--tests", "missing.txt"],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("missing.txt"), "{err}");
}
