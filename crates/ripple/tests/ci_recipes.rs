//! The CI and review recipes of docs/ci.md, run as written: every `ripple` command line
//! of the GitHub Actions workflow (with the pull request's base and head commits put in
//! for the `${{ ... }}` expressions) and the pre-commit hook's entry, in a scratch git
//! repository holding the `tests/impact/known-global` change as two commits.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact/known-global")
        .join(version)
        .join("prog.c")
}

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(repo)
        .args([
            "-c",
            "user.name=ripple",
            "-c",
            "user.email=ripple@localhost",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The YAML blocks of docs/ci.md.
fn yaml_blocks() -> Vec<String> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ci.md"))
            .expect("docs/ci.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```yaml") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

/// Runs a shell command line in `repo` with the ripple under test first on the PATH.
fn shell(repo: &Path, line: &str) -> std::process::Output {
    let ripple = assert_cmd::cargo::cargo_bin("ripple");
    let dir = ripple.parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .current_dir(repo)
        .env("PATH", path)
        .args(["-c", line])
        .output()
        .expect("sh runs")
}

/// A scratch repository: `main` holds the old version, `change` (checked out) the new.
fn repository() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    std::fs::copy(fixture("old"), repo.join("prog.c")).expect("copy");
    git(repo, &["add", "prog.c"]);
    git(repo, &["commit", "-q", "-m", "old"]);
    let base = git(repo, &["rev-parse", "HEAD"]);
    git(repo, &["checkout", "-q", "-b", "change"]);
    std::fs::copy(fixture("new"), repo.join("prog.c")).expect("copy");
    git(repo, &["commit", "-q", "-am", "new"]);
    let head = git(repo, &["rev-parse", "HEAD"]);
    (dir, base, head)
}

#[test]
fn the_github_workflow_commands_write_sarif_and_markdown() {
    let (dir, base, head) = repository();
    let workflow = &yaml_blocks()[0];
    let lines: Vec<String> = workflow
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("ripple "))
        .map(|l| {
            l.replace("${{ github.event.pull_request.base.sha }}", &base)
                .replace("${{ github.event.pull_request.head.sha }}", &head)
        })
        .collect();
    assert_eq!(lines.len(), 2, "the workflow's ripple lines: {workflow}");
    for line in &lines {
        assert!(!line.contains("${{"), "an expression left: {line}");
        let out = shell(dir.path(), line);
        assert_eq!(out.status.code(), Some(0), "{line}: {out:?}");
    }
    let sarif: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("ripple.sarif")).expect("ripple.sarif"),
    )
    .expect("SARIF is JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    // cap(limit) on line 13 impacts cap; show(mode) on line 10 is proved equivalent.
    assert!(results.iter().any(|r| r["ruleId"] == "RPL001"
        && r["locations"][0]["physicalLocation"]["region"]["startLine"] == 13));
    assert!(results.iter().any(|r| r["ruleId"] == "RPL002"));
    let markdown = std::fs::read_to_string(dir.path().join("ripple.md")).expect("ripple.md");
    assert!(
        markdown
            .contains("2 impacted line(s) (1 of the old version, 1 of the new) in 1 function(s)"),
        "{markdown}"
    );
    // run prints "limit 5" where it printed "limit 3" (argc > 1): the verdict's evidence
    // shows the output that differs.
    assert!(
        markdown
            .contains("| `run` | different | on `argc = 2`: old `printed \"mode 1\\nlimit 3\\n\"`"),
        "{markdown}"
    );
    // The first line stored the report in the work tree's cache; the second read it.
    assert!(dir.path().join(".ripple/cache.redb").is_file());
}

#[test]
fn the_pre_commit_hook_reports_the_staged_change_without_failing() {
    let (dir, base, _) = repository();
    let hooks = &yaml_blocks()[1];
    let entry = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("entry: "))
        .expect("the hook's entry");
    // The change about to be committed: the new version staged on top of the old one.
    git(dir.path(), &["checkout", "-q", &base]);
    std::fs::copy(fixture("new"), dir.path().join("prog.c")).expect("copy");
    git(dir.path(), &["add", "prog.c"]);
    let out = shell(dir.path(), entry);
    assert_eq!(out.status.code(), Some(0), "{entry}: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| `cap` | 2 |"), "{text}");
    // Without a change, it says so.
    git(dir.path(), &["stash", "-q"]);
    let out = shell(dir.path(), entry);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("No changed statement"));
}
