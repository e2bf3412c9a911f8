//! Git revisions as versions, read with the `git` command.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

fn git() -> Command {
    let mut cmd = Command::new("git");
    cmd.stdin(Stdio::null());
    cmd
}

/// Whether `rev` names a commit of the repository around the current directory.
pub fn is_revision(rev: &str) -> bool {
    if rev.starts_with('-') {
        return false;
    }
    git()
        .args([
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The best common ancestor of two revisions (`git merge-base`).
pub fn merge_base(a: &str, b: &str) -> Result<String> {
    let out = git()
        .args(["merge-base", a, b])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        bail!("{a} and {b} have no common ancestor");
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

pub fn top_level() -> Result<PathBuf> {
    let out = git()
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        bail!("not inside a git repository");
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn is_c_path(path: &str) -> bool {
    path.ends_with(".c") || path.ends_with(".h")
}

/// Writes the `.c` and `.h` files of `rev` into a scratch directory (so that the
/// preprocessor finds the revision's own headers) and lists them.
pub fn extract_revision(rev: &str) -> Result<(tempfile::TempDir, Vec<PathBuf>)> {
    // Entries: "<mode> blob <oid>\t<path>".
    let (top, entries) = c_entries(
        &["ls-tree", "-r", "-z", "--full-tree", rev],
        &format!("{rev}: bad revision"),
    )?;
    let blobs: Vec<(String, String)> = entries
        .into_iter()
        .filter_map(|(meta, path)| match meta.as_slice() {
            [_, kind, oid] if kind == "blob" => Some((oid.clone(), path)),
            _ => None,
        })
        .collect();
    if blobs.is_empty() {
        bail!("{rev}: the revision has no .c or .h files");
    }
    write_blobs(&top, rev, &blobs)
}

/// Most bytes of a revision's files written for the runs of its code.
const RUN_TREE_BYTES: u64 = 64 << 20;

/// Writes every file of `rev` into a scratch directory, for runs of its code that open
/// files by a relative path (a test reading its data), with the directory in it that
/// stands for the current one; None when the revision's files take more than
/// [`RUN_TREE_BYTES`] or git fails.
pub fn extract_run_tree(rev: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let top = top_level().ok()?;
    let listing = git()
        .current_dir(&top)
        .args(["ls-tree", "-r", "-z", "-l", "--full-tree", rev])
        .output()
        .ok()?;
    if !listing.status.success() {
        return None;
    }
    let mut blobs = Vec::new();
    let mut total = 0u64;
    for entry in listing.stdout.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let (meta, path) = entry.split_once('\t')?;
        // "<mode> blob <oid> <size>"; symbolic links and submodules are left out.
        let fields: Vec<&str> = meta.split_whitespace().collect();
        if let [mode, "blob", oid, size] = fields[..] {
            if mode != "120000" {
                total += size.parse::<u64>().ok()?;
                blobs.push((oid.to_string(), path.to_string()));
            }
        }
    }
    if total > RUN_TREE_BYTES {
        return None;
    }
    let (scratch, _) = write_blobs(&top, rev, &blobs).ok()?;
    let cwd = std::env::current_dir().ok()?.canonicalize().ok()?;
    let inside = cwd
        .strip_prefix(top.canonicalize().ok()?)
        .ok()?
        .to_path_buf();
    let dir = scratch.path().join(inside);
    std::fs::create_dir_all(&dir).ok()?;
    Some((scratch, dir))
}

/// Writes the `.c` and `.h` files staged in the index (what `git commit` would record)
/// into a scratch directory and lists them.
pub fn extract_index() -> Result<(tempfile::TempDir, Vec<PathBuf>)> {
    // Entries: "<mode> <oid> <stage>\t<path>"; a path in conflict has stages 1-3: the
    // index holds no single version of it, and it is an error.
    let (top, entries) = c_entries(&["ls-files", "--stage", "-z"], "the index")?;
    let mut blobs = Vec::new();
    for (meta, path) in entries {
        let [_, oid, stage] = meta.as_slice() else {
            continue;
        };
        if stage != "0" {
            bail!("{path}: unmerged in the index (resolve the conflict first)");
        }
        blobs.push((oid.clone(), path));
    }
    if blobs.is_empty() {
        bail!("the index has no .c or .h files");
    }
    write_blobs(&top, "the index", &blobs)
}

/// Runs a git listing (`-z`, "<fields>\t<path>" per entry) at the repository's top and
/// keeps the entries of `.c` and `.h` files: their space-separated fields and path.
#[allow(clippy::type_complexity)]
fn c_entries(args: &[&str], what: &str) -> Result<(PathBuf, Vec<(Vec<String>, String)>)> {
    let top = top_level()?;
    let listing = git()
        .current_dir(&top)
        .args(args)
        .output()
        .with_context(|| format!("cannot run git {}", args[0]))?;
    if !listing.status.success() {
        bail!(
            "{what}: {}",
            String::from_utf8_lossy(&listing.stderr).trim()
        );
    }
    let entries = listing
        .stdout
        .split(|&b| b == 0)
        .filter(|e| !e.is_empty())
        .filter_map(|entry| {
            let entry = String::from_utf8_lossy(entry);
            let (meta, path) = entry.split_once('\t')?;
            is_c_path(path).then(|| {
                (
                    meta.split(' ').map(String::from).collect(),
                    path.to_string(),
                )
            })
        })
        .collect();
    Ok((top, entries))
}

/// Writes blobs `(oid, path)` of the repository at `top` under a scratch directory.
fn write_blobs(
    top: &std::path::Path,
    rev: &str,
    blobs: &[(String, String)],
) -> Result<(tempfile::TempDir, Vec<PathBuf>)> {
    let scratch = tempfile::Builder::new()
        .prefix("ripple-rev-")
        .tempdir()
        .context("cannot create a scratch directory")?;
    let mut child = git()
        .current_dir(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot run git cat-file")?;
    let mut stdin = child.stdin.take().context("git cat-file stdin")?;
    let requests: String = blobs.iter().map(|(oid, _)| format!("{oid}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let mut reader = BufReader::new(child.stdout.take().context("git cat-file stdout")?);
    let mut files = Vec::with_capacity(blobs.len());
    for (_, path) in blobs {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        // "<oid> blob <size>"
        let size: usize = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .with_context(|| format!("{rev}:{path}: unreadable object"))?;
        let mut content = vec![0; size + 1]; // the content and its trailing newline
        reader.read_exact(&mut content)?;
        content.pop();
        let dest = scratch.path().join(path);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&dest, content)?;
        files.push(PathBuf::from(path));
    }
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("git cat-file writer failed"))??;
    child.wait()?;
    files.sort();
    Ok((scratch, files))
}

/// The `.c` and `.h` files of the working tree (tracked or untracked, not ignored).
pub fn work_tree_files() -> Result<(PathBuf, Vec<PathBuf>)> {
    let top = top_level()?;
    let out = git()
        .current_dir(&top)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .context("cannot run git ls-files")?;
    if !out.status.success() {
        bail!(
            "git ls-files failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let mut files: Vec<PathBuf> = out
        .stdout
        .split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .filter(|p| is_c_path(p) && top.join(p).is_file())
        .map(PathBuf::from)
        .collect();
    files.sort();
    files.dedup();
    if files.is_empty() {
        bail!("the working tree has no .c or .h files");
    }
    Ok((top, files))
}

/// The commits of `base..tip` along the first parents, oldest first, with their subjects.
pub fn commits_between(base: &str, tip: &str) -> Result<Vec<(String, String)>> {
    let out = git()
        .args([
            "log",
            "--first-parent",
            "--reverse",
            "--format=%H %s",
            &format!("{base}..{tip}"),
        ])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        bail!(
            "{base}..{tip}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (sha, subject) = l.split_once(' ').unwrap_or((l, ""));
            (!sha.is_empty()).then(|| (sha.to_string(), subject.to_string()))
        })
        .collect())
}

/// For each line of `path` at `rev` (in order), the commit that last changed it (`git
/// blame`); with `reverse` (`rev` is then `A..B`), for each line of `path` at `A`, the
/// last commit of the range in which it still existed (`git blame --reverse`).
pub fn blame(rev: &str, path: &str, reverse: bool) -> Result<Vec<String>> {
    let mut cmd = git();
    cmd.current_dir(top_level()?)
        .arg("blame")
        .arg("--porcelain");
    if reverse {
        cmd.arg("--reverse");
    }
    let out = cmd
        .args([rev, "--", path])
        .output()
        .context("cannot run git")?;
    if !out.status.success() {
        bail!(
            "git blame {rev} -- {path}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    // Each line's header: "<sha> <original line> <final line> [<group size>]".
    let mut lines: Vec<(usize, String)> = Vec::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let mut words = l.split(' ');
        let (Some(sha), Some(_), Some(fin)) = (words.next(), words.next(), words.next()) else {
            continue;
        };
        if sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            if let Ok(n) = fin.parse::<usize>() {
                lines.push((n, sha.to_string()));
            }
        }
    }
    lines.sort();
    Ok(lines.into_iter().map(|(_, sha)| sha).collect())
}
