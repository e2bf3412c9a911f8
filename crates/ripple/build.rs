//! Gives the binary an id of the sources it is built from (the `src` of every crate of
//! the workspace, their manifests and the lock file), so that the report cache never
//! serves a report that another build of ripple made (`crate::cache`).

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    let root = Path::new(&manifest).join("../..");
    let mut files = vec![root.join("Cargo.lock"), root.join("Cargo.toml")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    crates.sort();
    for dir in &crates {
        files.push(dir.join("Cargo.toml"));
        collect(&dir.join("src"), &mut files);
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("Cargo.toml").display()
        );
    }
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.lock").display()
    );
    files.sort();
    let mut hash = DefaultHasher::new();
    for file in &files {
        let name = file.strip_prefix(&root).unwrap_or(file);
        hash.write(name.to_string_lossy().as_bytes());
        hash.write(&std::fs::read(file).unwrap_or_default());
    }
    println!("cargo:rustc-env=RIPPLE_SOURCE_ID={:016x}", hash.finish());
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
