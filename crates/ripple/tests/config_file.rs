//! `ripple.toml`: preprocessor settings, excluded paths and impact settings read from
//! the project's file, flags winning over it, and clear errors for a bad file.

use std::path::Path;
use std::process::Command;

/// A scratch project (a git repository, so the search for `ripple.toml` stops there)
/// with versions `old/` and `new/`: `work` differs only where FEATURE is defined, and
/// `tests/check.c` differs too.
fn project(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let root = dir.path();
    assert!(Command::new("git")
        .args(["init", "-q"])
        .current_dir(root)
        .status()
        .expect("git runs")
        .success());
    for (version, value) in [("old", "1"), ("new", "2")] {
        let tests = root.join(version).join("tests");
        std::fs::create_dir_all(&tests).expect("mkdir");
        std::fs::write(
            root.join(version).join("prog.c"),
            format!(
                "#include <stdio.h>\nint work(int x) {{\n#ifdef FEATURE\n    x = x + {value};\n#endif\n    return x;\n}}\nint main(void) {{ printf(\"%d\\n\", work(1)); return 0; }}\n"
            ),
        )
        .expect("write");
        std::fs::write(
            tests.join("check.c"),
            format!("int check(void) {{ return {value}; }}\n"),
        )
        .expect("write");
    }
    if let Some(text) = config {
        std::fs::write(root.join("ripple.toml"), text).expect("write");
    }
    dir
}

/// `ripple impact old new --format json` in `root`, with `extra` flags.
fn impact(root: &Path, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(root)
        .args(["impact", "old", "new", "--format", "json"])
        .args(extra)
        .output()
        .expect("ripple runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn changed_files(json: &serde_json::Value) -> Vec<String> {
    let mut files: Vec<String> = json["changed_lines"]
        .as_array()
        .expect("changed_lines")
        .iter()
        .map(|l| l["file"].as_str().unwrap_or("").to_string())
        .collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn defines_and_excluded_paths_come_from_the_file() {
    let config = "[sources]\ndefine = [\"FEATURE\"]\nexclude = [\"tests\"]\n";
    let dir = project(Some(config));
    // With the file: FEATURE is defined, so `x + 1` against `x + 2` is a change; the
    // tests directory is not read.
    let (code, json, err) = impact(dir.path(), &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(changed_files(&json), ["prog.c"], "{json:#}");
    // Without it: FEATURE is off, only tests/check.c changes.
    let (_, json, _) = impact(dir.path(), &["--no-config"]);
    assert_eq!(changed_files(&json), ["tests/check.c"], "{json:#}");
    // A flag adds to the file's lists.
    let (_, json, _) = impact(dir.path(), &["--no-config", "-D", "FEATURE"]);
    assert_eq!(
        changed_files(&json),
        ["prog.c", "tests/check.c"],
        "{json:#}"
    );
}

#[test]
fn impact_settings_come_from_the_file_and_flags_win() {
    let config = "[sources]\ndefine = [\"FEATURE\"]\n[impact]\nlevel = 1\nbudget = 2.0\n";
    let dir = project(Some(config));
    let (_, json, err) = impact(dir.path(), &[]);
    assert_eq!(json["semantic"]["level"], 1, "{err}");
    let (_, json, _) = impact(dir.path(), &["--level", "statement"]);
    assert!(json["semantic"].is_null(), "{json:#}");
    // `--config` names another file.
    let other = dir.path().join("other.toml");
    std::fs::write(&other, "[impact]\nlevel = 0\n").expect("write");
    let (_, json, _) = impact(dir.path(), &["--config", other.to_str().unwrap()]);
    assert_eq!(json["semantic"]["level"], 0, "{json:#}");
}

#[test]
fn a_bad_file_is_an_error_naming_it_and_the_line() {
    let dir = project(Some("[sources]\ndefine = [\"A\"]\nincludes = [\"x\"]\n"));
    let (code, _, err) = impact(dir.path(), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ripple.toml"), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("includes"), "{err}");
    let dir = project(Some("[impact]\nlevel = \"deep\"\n"));
    let (code, _, err) = impact(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("impact.level") && err.contains("deep"),
        "{err}"
    );
    let (code, _, err) = impact(dir.path(), &["--config", "missing.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.toml"), "{err}");
}
