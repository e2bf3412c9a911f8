//! ARCHITECTURE.md's claims about the workspace, checked on the sources:
//! - library crates do no I/O of their own: no environment variables, no printing
//!   (configuration is passed in, results are returned);
//! - only `ripple-report` knows serde (plus the binary's reader of
//!   `compile_commands.json`), only `ripple-c` reads tree-sitter nodes, only
//!   `ripple-symex` names the solver;
//! - every declared dependency is used, by the crate that declares it (a dev-dependency
//!   by its tests, benches or examples), and every workspace dependency by some crate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crate directories, sorted.
fn crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "found only {dirs:?}");
    dirs
}

fn crate_name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// The binary does I/O; the conformance crate is test support that runs gcc.
fn is_library(dir: &Path) -> bool {
    !matches!(crate_name(dir).as_str(), "ripple" | "ripple-conformance")
}

/// Every `.rs` file below `dir`, with its text.
fn rust_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source is UTF-8");
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}

/// Lines of `text` outside `#[cfg(test)]` modules (which sit at the end of a file by
/// this workspace's convention) and outside comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l))
}

/// Places in library sources whose lines contain one of `needles`, as `path:line`.
fn find_in_libraries(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    for dir in crates().iter().filter(|d| is_library(d)) {
        for (path, text) in rust_files(&dir.join("src")) {
            let rel = path
                .strip_prefix(workspace())
                .unwrap_or(&path)
                .to_path_buf();
            let rel = rel.to_string_lossy().replace("../", "");
            for (n, line) in code_lines(&text) {
                if needles.iter().any(|needle| line.contains(needle))
                    && !allowed.iter().any(|a| rel.contains(a))
                {
                    hits.push(format!("{rel}:{n}: {}", line.trim()));
                }
            }
        }
    }
    hits
}

#[test]
fn library_crates_read_no_environment_and_print_nothing() {
    let hits = find_in_libraries(
        &[
            "std::env",
            "env::var",
            "println!",
            "eprintln!",
            "print!(",
            "eprint!(",
        ],
        &[],
    );
    assert!(
        hits.is_empty(),
        "I/O in library crates:\n{}",
        hits.join("\n")
    );
}

/// Analyses do no I/O; the one exception the map names is the compiled confirmation of
/// semdiff's witnesses (and the conformance crate, which is the tests' gcc side).
#[test]
fn only_native_confirmation_runs_processes() {
    let hits = find_in_libraries(
        &["Command::new", "std::process", "std::fs::write"],
        &[
            "ripple-analyses/src/semdiff/native.rs",
            "ripple-conformance/src/",
        ],
    );
    assert!(
        hits.is_empty(),
        "processes or files in library crates:\n{}",
        hits.join("\n")
    );
}

#[test]
fn serde_only_in_the_report_crate() {
    let hits = find_in_libraries(&["serde"], &["ripple-report/src/"]);
    assert!(
        hits.is_empty(),
        "serde outside ripple-report:\n{}",
        hits.join("\n")
    );
    // In the binary, only the readers of the input files parse them with serde:
    // compile_commands.json and ripple.toml.
    let bin = workspace().join("crates/ripple/src");
    let mut bin_hits = Vec::new();
    for (path, text) in rust_files(&bin) {
        if path.ends_with("load/compile_commands.rs") || path.ends_with("src/config.rs") {
            continue;
        }
        for (n, line) in code_lines(&text) {
            if line.contains("serde") {
                bin_hits.push(format!("{}:{n}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(
        bin_hits.is_empty(),
        "serde in the binary:\n{}",
        bin_hits.join("\n")
    );
}

#[test]
fn tree_sitter_only_in_the_frontend() {
    let hits = find_in_libraries(&["tree_sitter"], &["ripple-c/src/"]);
    assert!(
        hits.is_empty(),
        "tree-sitter outside ripple-c:\n{}",
        hits.join("\n")
    );
}

/// `[dependencies]` or `[dev-dependencies]` names of a manifest.
fn dependencies(manifest: &str, section: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == section;
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("").trim();
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
    }
    out
}

fn uses(files: &[(PathBuf, String)], dependency: &str) -> bool {
    let ident = dependency.replace('-', "_");
    files.iter().any(|(_, text)| text.contains(&ident))
}

#[test]
fn every_declared_dependency_is_used() {
    let mut unused = Vec::new();
    let mut used_anywhere = BTreeSet::new();
    for dir in crates() {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let src = rust_files(&dir.join("src"));
        let mut all = src.clone();
        for extra in ["tests", "benches", "examples"] {
            all.extend(rust_files(&dir.join(extra)));
        }
        for dep in dependencies(&manifest, "[dependencies]") {
            used_anywhere.insert(dep.clone());
            // A -sys crate may be linked only for its native library.
            if !uses(&src, &dep) && !dep.ends_with("-sys") {
                unused.push(format!("{}: {dep}", crate_name(&dir)));
            }
        }
        for dep in dependencies(&manifest, "[dev-dependencies]") {
            used_anywhere.insert(dep.clone());
            if !uses(&all, &dep) {
                unused.push(format!("{} (dev): {dep}", crate_name(&dir)));
            }
        }
    }
    let root = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    for dep in dependencies(&root, "[workspace.dependencies]") {
        if !used_anywhere.contains(&dep) {
            unused.push(format!("workspace: {dep}"));
        }
    }
    assert!(
        unused.is_empty(),
        "unused dependencies:\n{}",
        unused.join("\n")
    );
}
