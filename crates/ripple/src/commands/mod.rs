//! One module per command.

pub mod diff;
mod dump;
pub mod effects;
pub mod impact;
pub mod interactions;
pub mod invariants;
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
        Command::Diff(args) => diff::run(&args),
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
        Command::Effects(args) => effects::run_effects(&args),
        Command::Interactions(args) => interactions::run(&args),
        Command::Tests(args) => effects::run_tests_command(&args),
        Command::Impact(args) => impact::run(&args),
        Command::Invariants(args) => invariants::run(&args),
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

/// Loads and lowers two versions in parallel (the same program of each).
pub fn load_both(
    old: &crate::load::VersionSpec,
    new: &crate::load::VersionSpec,
    config: &LoadConfig,
) -> Result<(crate::load::LoadedVersion, crate::load::LoadedVersion)> {
    let mut both = crate::load::load_versions(&[old, new], config)?;
    let new = both.pop().expect("two versions");
    let old = both.pop().expect("two versions");
    Ok((old, new))
}

/// Reads and preprocesses two versions in parallel (the same program of each), without
/// lowering them.
pub fn prepare_both(
    old: &crate::load::VersionSpec,
    new: &crate::load::VersionSpec,
    config: &LoadConfig,
) -> Result<[crate::load::PreparedProgram; 2]> {
    let both = crate::load::prepare_versions(&[old, new], config)?;
    Ok(both.try_into().ok().expect("two versions"))
}

/// What follows an analysis in the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The process exits soon: large structures (solvers, dependence graphs) are left
    /// to the exit, since freeing them takes a noticeable part of a run.
    Exit,
    /// More analyses follow (a range, commit by commit): their memory is freed.
    MoreToCome,
}

/// The stack of a thread that runs an analysis: the main thread's.
const ANALYSIS_STACK: usize = 8 << 20;

/// Runs `analysis` on a thread of its own, and so with a solver context of its own (the
/// context is the thread's): what an analysis run before leaves in a context (terms,
/// caches) steers the solver's search, and one section of a report, or one commit of a
/// range, would then depend on what ran before it.
pub fn isolated<R: Send>(analysis: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .stack_size(ANALYSIS_STACK)
            .spawn_scoped(scope, analysis)
            .expect("a thread for the analysis starts");
        match thread.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Frontend options from the command line. Without a working preprocessor, sources are
/// parsed raw, and a warning says so.
pub fn load_config(args: &FrontendArgs, build_syntax: bool) -> Result<LoadConfig> {
    let file = crate::config::ConfigFile::find(args.config.as_deref(), args.no_config)?;
    let sources = file.as_ref().map(|f| &f.sources);
    let mut flags = Vec::new();
    // The file's lists first (its paths relative to it), then the flags'.
    let includes = file
        .iter()
        .flat_map(|f| f.sources.include.iter().map(|d| f.resolve(d)))
        .chain(args.include.iter().cloned());
    for dir in includes {
        let dir = dir.canonicalize().unwrap_or(dir);
        flags.push(format!("-I{}", dir.display()));
    }
    let defines = sources
        .into_iter()
        .flat_map(|s| &s.define)
        .chain(&args.define);
    flags.extend(defines.map(|d| format!("-D{d}")));
    let undefines = sources
        .into_iter()
        .flat_map(|s| &s.undefine)
        .chain(&args.undefine);
    flags.extend(undefines.map(|u| format!("-U{u}")));
    let database = args.compile_commands.clone().or_else(|| {
        let f = file.as_ref()?;
        f.sources.compile_commands.as_ref().map(|p| f.resolve(p))
    });
    let compile_commands = match &database {
        Some(path) => Some(CompileCommands::read(path)?),
        None => None,
    };
    let cc = args
        .cc
        .clone()
        .or_else(|| sources.and_then(|s| s.cc.clone()))
        .unwrap_or_else(|| "cc".to_string());
    let raw = args.raw || sources.is_some_and(|s| s.raw);
    let mut mode = if raw {
        crate::load::PreprocessMode::Raw
    } else {
        crate::load::PreprocessMode::Auto
    };
    if mode == crate::load::PreprocessMode::Auto && !preprocessor_found(&cc) {
        eprintln!("ripple: warning: no C preprocessor (`{cc}`) found; parsing sources as written");
        mode = crate::load::PreprocessMode::Raw;
    }
    Ok(LoadConfig {
        preprocess: PreprocessConfig {
            mode,
            cc,
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
            // As many as `--jobs` gives the thread pool.
            threads: Some(rayon::current_num_threads()),
        },
        exclude: sources.map(|s| s.exclude.clone()).unwrap_or_default(),
        program: args
            .program
            .clone()
            .or_else(|| sources.and_then(|s| s.program.clone())),
        library_by_default: true,
        cache: file
            .as_ref()
            .map(|f| crate::config::CacheSettings {
                path: f.cache.path.as_ref().map(|p| f.resolve(p)),
                enabled: f.cache.enabled,
                reuse_proofs: f.cache.reuse_proofs,
            })
            .unwrap_or_default(),
    })
}

/// Whether `cc` names an executable file: a path, or a name found on `PATH`. Looked
/// up rather than run, since starting a compiler costs about 10 ms; one that is found
/// but fails says so when it preprocesses.
fn preprocessor_found(cc: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if cc.contains('/') {
        return executable(std::path::Path::new(cc));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| executable(&dir.join(cc))))
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
                "ripple: {stage}: {:.3} s",
                (now - self.last.get()).as_secs_f64()
            );
        }
        self.last.set(now);
    }
}
