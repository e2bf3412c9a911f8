//! One module per command.

mod diff;
mod dump;
pub mod impact;
pub mod sea;
pub mod semdiff;
pub mod slice;
mod stats;

use anyhow::Result;

use crate::cli::{Cli, Command, FrontendArgs};
use crate::load::{CompileCommands, LoadConfig, PreprocessConfig};

/// Runs a command; the result is the process exit code.
pub fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Diff {
            old,
            new,
            all,
            format,
            frontend,
        } => diff::run(&old, new.as_deref(), all, format, &frontend),
        Command::Dump {
            what,
            version,
            functions,
            dot,
            frontend,
        } => dump::run(what, &version, &functions, dot, &frontend),
        Command::Stats {
            version,
            each_file,
            format,
            frontend,
        } => stats::run(&version, each_file, format, &frontend),
        Command::Sea(args) => sea::run(&args),
        Command::Impact(args) => impact::run(&args),
        Command::Semdiff(args) => semdiff::run(&args),
        Command::Slice(args) => slice::run(&args),
    }
}

/// Loads the given paths (files, directories, revisions) as one program and prints its
/// diagnostics; returns the program and the number of errors.
pub fn load_program(
    paths: &[String],
    args: &FrontendArgs,
    build_syntax: bool,
) -> Result<(crate::load::LoadedVersion, usize)> {
    let specs = paths
        .iter()
        .map(|p| crate::load::VersionSpec::parse(p))
        .collect::<Result<Vec<_>>>()?;
    let config = load_config(args, build_syntax)?;
    let version = crate::load::load_paths(&specs, &config)?;
    let errors = crate::load::report_diagnostics(&version, args.verbose);
    Ok((version, errors))
}

/// Frontend options from the command line. Without a working preprocessor, sources are
/// parsed raw, and a warning says so.
pub fn load_config(args: &FrontendArgs, build_syntax: bool) -> Result<LoadConfig> {
    let mut flags = Vec::new();
    for dir in &args.include {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        flags.push(format!("-I{}", dir.display()));
    }
    flags.extend(args.define.iter().map(|d| format!("-D{d}")));
    flags.extend(args.undefine.iter().map(|u| format!("-U{u}")));
    let compile_commands = match &args.compile_commands {
        Some(path) => Some(CompileCommands::read(path)?),
        None => None,
    };
    let mut mode = if args.raw {
        crate::load::PreprocessMode::Raw
    } else {
        crate::load::PreprocessMode::Auto
    };
    if mode == crate::load::PreprocessMode::Auto && !preprocessor_runs(&args.cc) {
        eprintln!(
            "ripple: warning: no C preprocessor (`{}`) found; parsing sources as written",
            args.cc
        );
        mode = crate::load::PreprocessMode::Raw;
    }
    Ok(LoadConfig {
        preprocess: PreprocessConfig {
            mode,
            cc: args.cc.clone(),
            flags,
            compile_commands,
        },
        frontend: ripple_c::FrontendConfig {
            build_syntax,
            // `RIPPLE_CHUNK_BYTES` overrides the parse chunk size (to check that the
            // output does not depend on it).
            chunk_bytes: std::env::var("RIPPLE_CHUNK_BYTES")
                .ok()
                .and_then(|v| v.parse().ok()),
        },
    })
}

fn preprocessor_runs(cc: &str) -> bool {
    std::process::Command::new(cc)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// With `--verbose`, prints the time each stage of a command took to stderr.
pub struct StageTimer {
    enabled: bool,
    last: std::cell::Cell<std::time::Instant>,
}

impl StageTimer {
    pub fn new(enabled: bool) -> Self {
        StageTimer {
            enabled,
            last: std::cell::Cell::new(std::time::Instant::now()),
        }
    }

    /// Reports the time since the previous stage ended.
    pub fn done(&self, stage: &str) {
        let now = std::time::Instant::now();
        if self.enabled {
            eprintln!(
                "ripple: {stage}: {:.2} s",
                (now - self.last.get()).as_secs_f64()
            );
        }
        self.last.set(now);
    }
}
