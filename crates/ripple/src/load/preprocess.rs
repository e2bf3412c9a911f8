//! Runs the C preprocessor (`cc -E`) on a translation unit and keeps its line markers,
//! so that every node maps back to its original file and line. Falls back to the raw
//! source, with a warning, when preprocessing is off or fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use ripple_c::{Diagnostic, Severity, TranslationUnit};

use super::CompileCommands;

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
    pub compile_commands: Option<CompileCommands>,
}

/// The unit for `root/file`: preprocessed if possible, else raw.
pub fn translation_unit(
    root: &Path,
    file: &Path,
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
    match run_preprocessor(root, file, config) {
        Ok((text, cwd)) => {
            let root_abs = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            let unit = TranslationUnit::preprocessed(display, &text, |name| {
                relative_name(&root_abs, &cwd, name)
            });
            Ok((unit, Vec::new()))
        }
        Err(reason) => {
            let warning = Diagnostic {
                severity: Severity::Warning,
                file: display.clone(),
                line: reason.line,
                col: 1,
                message: format!(
                    "preprocessing failed ({}); parsing the file as written",
                    reason.message
                ),
            };
            Ok((raw_unit(raw), vec![warning]))
        }
    }
}

struct Failure {
    line: u32,
    message: String,
}

/// Runs `cc -E` on `root/file`; returns the output and the directory it ran in.
///
/// Without a compilation database it runs in the version root on the relative path, so
/// that `__FILE__` and the line markers name the file as the user knows it, whatever
/// directory the version was extracted to (two git revisions must not differ by that).
fn run_preprocessor(
    root: &Path,
    file: &Path,
    config: &PreprocessConfig,
) -> Result<(String, PathBuf), Failure> {
    let full = root.join(file);
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
    let cwd = match config
        .compile_commands
        .as_ref()
        .and_then(|cc| cc.flags_for(&full))
    {
        Some((dir, flags)) => {
            cmd.args(flags).args(&config.flags);
            cmd.arg(format!("-I{}", root.display()));
            cmd.arg(full.canonicalize().unwrap_or_else(|_| full.clone()));
            dir.clone()
        }
        None => {
            cmd.args(&config.flags).arg("-I.").arg(file);
            root.to_path_buf()
        }
    };
    cmd.current_dir(&cwd);
    let out = cmd.output().map_err(|e| Failure {
        line: 1,
        message: format!("cannot run `{cc}`: {e}"),
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
        return Err(Failure {
            line,
            message: first.trim().to_string(),
        });
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), cwd))
}

/// Line-marker file names relative to the version root; files outside it keep their
/// absolute path, and `<built-in>`-style names stay as they are. Relative marker names
/// are relative to `cwd`, where the preprocessor ran.
fn relative_name(root: &Path, cwd: &Path, name: &str) -> String {
    if name.starts_with('<') {
        return name.to_string();
    }
    let path = PathBuf::from(name);
    let abs = if path.is_absolute() {
        path
    } else {
        cwd.join(path)
    };
    let abs = abs.canonicalize().unwrap_or(abs);
    match abs.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
        Err(_) => abs.to_string_lossy().into_owned(),
    }
}
