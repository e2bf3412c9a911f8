//! End-to-end tests of `ripple slice` on 000 Figure 1 (examples/dcia-fig1/new.c; paper
//! line N is file line N + 20).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fig1() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dcia-fig1/new.c")
}

fn slice(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("slice")
        .arg(fig1())
        .args(args)
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The slice's lines in `function`.
fn lines(args: &[&str], function: &str) -> BTreeSet<u64> {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = slice(&all);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    json["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter(|l| l["function"] == function)
        .map(|l| l["line"].as_u64().expect("a line"))
        .collect()
}

#[test]
fn forward_slice_of_the_changed_call_reaches_line_41() {
    // Paper line 14, `prin=print_minor_vers(locale,line_delim);`: through delim its
    // effect reaches paper line 41 (file 61), and through prin the return (paper 16).
    let minor = lines(&["--line", "new.c:34"], "print_minor_vers");
    assert!(minor.contains(&61), "{minor:?}");
    let caller = lines(&["--line", "new.c:34"], "print_product_info");
    assert!(caller.contains(&34) && caller.contains(&36), "{caller:?}");
    // Nothing flows from it into print_name or print_header.
    assert!(lines(&["--line", "new.c:34"], "print_name").is_empty());
    assert!(lines(&["--line", "new.c:34"], "print_header").is_empty());
}

#[test]
fn backward_slice_of_line_41_reaches_the_assignment_of_line_delim() {
    // The path given as on the command line also names the file.
    let criterion = format!("{}:61", fig1().display());
    let caller = lines(&["--line", &criterion, "--backward"], "print_product_info");
    // Paper 13 (`line_delim='\0'`), 14 (the call), 10 (the branch it depends on).
    for line in [33, 34, 30] {
        assert!(caller.contains(&line), "{caller:?} lacks {line}");
    }
    // print_header neither writes line_delim nor decides whether line 41 runs.
    assert!(lines(&["--line", &criterion, "--backward"], "print_header").is_empty());
}

#[test]
fn slices_are_deterministic_and_contain_their_criterion() {
    let (_, first, _) = slice(&["--line", "new.c:39", "--format", "json"]);
    let (_, second, _) = slice(&["--line", "new.c:39", "--format", "json"]);
    assert_eq!(first, second);
    assert!(lines(&["--line", "new.c:39"], "print_header").contains(&39));
    assert!(lines(&["--line", "new.c:39", "--backward"], "print_header").contains(&39));
}

#[test]
fn errors_exit_2() {
    let (code, _, stderr) = slice(&["--line", "new.c:2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("holds no statement"), "{stderr}");
    let (code, _, stderr) = slice(&["--line", "other.c:10"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a file of the program"), "{stderr}");
    let (code, _, stderr) = slice(&["--line", "new.c"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("FILE:LINE"), "{stderr}");
}
