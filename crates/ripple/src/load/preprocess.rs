//! Runs the C preprocessor (`cc -E`) on a translation unit and keeps its line markers,
//! so that every node maps back to its original file and line. Falls back to the raw
//! source, with a warning, when preprocessing is off or fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use ripple_c::{Diagnostic, Severity, TranslationUnit};

use super::{CompileCommands, UnitFlags};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreprocessMode {
    /// Preprocess when a preprocessor runs, else parse raw (with a warning).
    #[default]
    Auto,
    /// Parse the source as written.
    Raw,
}

#[derive(Clone, Debug, Default)]
pub struct PreprocessConfig {
    pub mode: PreprocessMode,
    /// The compiler driver; `cc` when empty.
    pub cc: String,
    /// `-I`, `-D`, `-U` flags from the command line, in order.
    pub flags: Vec<String>,
    /// The database given for every version (else each version's own is looked for).
    pub compile_commands: Option<CompileCommands>,
}

/// The unit for `root/file`: preprocessed if possible (with `unit_flags`, its flags from
/// a compilation database, if any), else raw.
pub fn translation_unit(
    root: &Path,
    file: &Path,
    unit_flags: Option<&UnitFlags>,
    config: &PreprocessConfig,
) -> Result<(TranslationUnit, Vec<Diagnostic>)> {
    let full = root.join(file);
    let display = file.to_string_lossy().replace('\\', "/");
    let bytes = std::fs::read(&full).with_context(|| format!("{display}: cannot read"))?;
    let raw = String::from_utf8_lossy(&bytes).into_owned();
    let raw_unit = |raw: String| TranslationUnit {
        path: display.clone(),
        text: raw,
        line_map: None,
    };
    if config.mode == PreprocessMode::Raw {
        return Ok((raw_unit(raw), Vec::new()));
    }
    // A header the machine lacks (a dependency's -dev package, a generated header) gets
    // an empty stand-in, so the rest of the unit is still preprocessed; each one is
    // reported, and what it would have declared is unknown to the analysis.
    let mut stubs: Option<tempfile::TempDir> = None;
    let mut notes = Vec::new();
    if let Some(neighbour) = unit_flags.and_then(|f| f.neighbour.as_deref()) {
        notes.push(Diagnostic {
            severity: Severity::Warning,
            file: display.clone(),
            line: 1,
            col: 1,
            message: format!(
                "not in the compilation database; preprocessed with the flags of its nearest neighbour there, {neighbour}"
            ),
        });
    }
    loop {
        let stub_dir = stubs.as_ref().map(tempfile::TempDir::path);
        let reason = match run_preprocessor(root, file, unit_flags, config, stub_dir) {
            Ok((text, cwd)) => {
                let root_abs = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
                let unit_dir = full
                    .parent()
                    .map(|d| d.canonicalize().unwrap_or_else(|_| d.to_path_buf()))
                    .unwrap_or_else(|| root_abs.clone());
                let unit = TranslationUnit::preprocessed(display, &text, |name| {
                    relative_name(&root_abs, &cwd, &unit_dir, name)
                });
                return Ok((unit, notes));
            }
            Err(reason) => reason,
        };
        if let Some(header) = reason.missing_header.as_deref() {
            if notes.len() < MAX_STAND_INS {
                if stubs.is_none() {
                    stubs = tempfile::Builder::new()
                        .prefix("ripple-stubs-")
                        .tempdir()
                        .ok();
                }
                if let Some(dir) = &stubs {
                    let stub = dir.path().join(header);
                    let created = stub
                        .parent()
                        .is_some_and(|p| std::fs::create_dir_all(p).is_ok())
                        && std::fs::write(&stub, "").is_ok();
                    if created {
                        notes.push(Diagnostic {
                            severity: Severity::Warning,
                            file: display.clone(),
                            line: reason.line,
                            col: 1,
                            message: format!(
                                "header `{header}` not found; preprocessed with an empty stand-in (its declarations are unknown)"
                            ),
                        });
                        continue;
                    }
                }
            }
        }
        notes.push(Diagnostic {
            severity: Severity::Warning,
            file: display.clone(),
            line: reason.line,
            col: 1,
            message: format!(
                "preprocessing failed ({}); parsing the file as written",
                reason.message
            ),
        });
        return Ok((raw_unit(raw), notes));
    }
}

/// How many missing headers one unit may replace by empty stand-ins.
const MAX_STAND_INS: usize = 16;

struct Failure {
    line: u32,
    message: String,
    /// The header named by "fatal error: NAME: No such file or directory".
    missing_header: Option<String>,
}

/// Runs `cc -E` on `root/file`; returns the output and the directory it ran in.
///
/// It runs in the version root on the relative path, so that `__FILE__` and the line
/// markers name the file as the user knows it, whatever directory the version was
/// extracted to (two git revisions must not differ by that); a compilation database's
/// flags have absolute paths for that reason.
fn run_preprocessor(
    root: &Path,
    file: &Path,
    unit_flags: Option<&UnitFlags>,
    config: &PreprocessConfig,
    stub_dir: Option<&Path>,
) -> Result<(String, PathBuf), Failure> {
    let cc = if config.cc.is_empty() {
        "cc"
    } else {
        &config.cc
    };
    let mut cmd = Command::new(cc);
    cmd.arg("-E")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(UnitFlags { flags, .. }) = unit_flags {
        cmd.args(flags);
    }
    cmd.args(&config.flags).arg("-I.");
    if let Some(dir) = include_dir() {
        cmd.arg("-isystem").arg(dir);
    }
    cmd.arg(file);
    let cwd = root.to_path_buf();
    if let Some(dir) = stub_dir {
        cmd.arg("-idirafter").arg(dir);
    }
    cmd.current_dir(&cwd);
    let out = cmd.output().map_err(|e| Failure {
        line: 1,
        message: format!("cannot run `{cc}`: {e}"),
        missing_header: None,
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or_else(|| stderr.lines().next().unwrap_or("no message"));
        // "path:LINE:COL: fatal error: ..." -> LINE.
        let line = first
            .split(':')
            .nth(1)
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(1);
        let missing_header = first
            .split_once("fatal error: ")
            .and_then(|(_, rest)| rest.strip_suffix(": No such file or directory"))
            .map(str::trim)
            .filter(|h| !h.is_empty() && !h.starts_with('/') && !h.contains(".."))
            .map(str::to_string);
        return Err(Failure {
            line,
            message: first.trim().to_string(),
            missing_header,
        });
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), cwd))
}

/// Line-marker file names relative to the version root; files outside it keep their
/// absolute path, and `<built-in>`-style names stay as they are. Relative marker names
/// are relative to `cwd`, where the preprocessor ran. A `#line` name that names no file
/// from there (a generator's output, such as a parser made by bison in another
/// directory: `"../../bc/bc.y"`) is looked for beside the unit and then, without its
/// leading `..`, under the root.
fn relative_name(root: &Path, cwd: &Path, unit_dir: &Path, name: &str) -> String {
    if name.starts_with('<') {
        return name.to_string();
    }
    let path = PathBuf::from(name);
    let abs = if path.is_absolute() {
        path.clone()
    } else {
        let candidates = [cwd.join(&path), unit_dir.join(&path)];
        let stripped: PathBuf = path
            .components()
            .skip_while(|c| matches!(c, std::path::Component::ParentDir))
            .collect();
        let under_root = root.join(&stripped);
        candidates
            .iter()
            .find(|p| p.exists())
            .cloned()
            .or_else(|| (stripped != path && under_root.exists()).then_some(under_root))
            .unwrap_or_else(|| cwd.join(&path))
    };
    let abs = abs.canonicalize().unwrap_or(abs);
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => abs.to_string_lossy().into_owned(),
    }
}

/// The directory of the frontend's own headers ([`ripple_c::INCLUDE_HEADERS`]), written
/// once per content under the temporary directory, so that its path, which line markers
/// name, is the same in every run (the report cache is keyed by the preprocessed text);
/// `None` if it cannot be written.
fn include_dir() -> Option<&'static Path> {
    use std::hash::Hasher;
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let mut hasher = rustc_hash::FxHasher::default();
        for (name, text) in ripple_c::INCLUDE_HEADERS {
            hasher.write(name.as_bytes());
            hasher.write(text.as_bytes());
        }
        let dir = std::env::temp_dir().join(format!("ripple-include-{:016x}", hasher.finish()));
        std::fs::create_dir_all(&dir).ok()?;
        for (name, text) in ripple_c::INCLUDE_HEADERS {
            let path = dir.join(name);
            if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
                continue;
            }
            // Written aside and renamed, so that a concurrent run never reads half of it.
            let aside = dir.join(format!("{name}.{}", std::process::id()));
            std::fs::write(&aside, text).ok()?;
            std::fs::rename(&aside, &path).ok()?;
        }
        Some(dir)
    })
    .as_deref()
}
