//! Snapshots of the rendered text output of every command on the bundled examples: what a
//! user reads. A change of output shows up as a snapshot diff to review
//! (`cargo insta review`, or `INSTA_UPDATE=always cargo test` to accept all).
//!
//! Every command is deterministic (budgets count work, not time), so the snapshots hold
//! on any machine and load.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `ripple ARGS` run from the workspace root; stdout, then the exit code.
fn run(args: &[&str]) -> String {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(root())
        .args(args)
        .output()
        .expect("ripple runs");
    format!(
        "{}[exit code {}]\n",
        String::from_utf8_lossy(&out.stdout),
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn diff_text() {
    insta::assert_snapshot!(run(&[
        "diff",
        "examples/dcia-fig1/old.c",
        "examples/dcia-fig1/new.c",
        "--cutoff",
        "300"
    ]));
    insta::assert_snapshot!(
        "diff_renamed",
        run(&[
            "diff",
            "examples/renamed-function/old.c",
            "examples/renamed-function/new.c",
            "--cutoff",
            "300"
        ])
    );
}

#[test]
fn impact_text() {
    insta::assert_snapshot!(
        "impact_statement",
        run(&[
            "impact",
            "examples/dcia-fig1/old.c",
            "examples/dcia-fig1/new.c"
        ])
    );
    insta::assert_snapshot!(
        "impact_function",
        run(&[
            "impact",
            "--level",
            "function",
            "examples/sea-fig1/old.c",
            "examples/sea-fig1/new.c"
        ])
    );
    insta::assert_snapshot!(
        "impact_table_change",
        run(&[
            "impact",
            "tests/impact/table-change/old",
            "tests/impact/table-change/new"
        ])
    );
}

#[test]
fn semdiff_text() {
    insta::assert_snapshot!(run(&[
        "semdiff",
        "examples/moddiff-fig2/old.c",
        "examples/moddiff-fig2/new.c",
        "--function",
        "p",
        "--full-summary",
        "--cutoff",
        "300"
    ]));
}

#[test]
fn sea_and_slice_text() {
    insta::assert_snapshot!(
        "sea",
        run(&[
            "sea",
            "examples/sea-fig1/new.c",
            "--function",
            "checkInputs"
        ])
    );
    insta::assert_snapshot!(
        "slice",
        run(&["slice", "examples/sea-fig1/old.c", "--line", "old.c:51"])
    );
}

#[test]
fn dump_and_stats_text() {
    insta::assert_snapshot!(
        "dump_ir",
        run(&[
            "dump",
            "ir",
            "examples/moddiff-fig2/new.c",
            "--function",
            "p"
        ])
    );
    insta::assert_snapshot!(
        "dump_callgraph",
        run(&["dump", "callgraph", "examples/sea-fig1/new.c"])
    );
    insta::assert_snapshot!("stats", run(&["stats", "examples/sea-fig1/new.c"]));
}
