//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "ripple",
    version,
    about = "Tells C developers what a change really does",
    after_help = "Exit codes, like diff(1): 0 no change, 1 changes (a change proved equivalent is still a \
                  change of the text; 0 with --exit-zero), 2 error. semdiff: 0 every verdict \
                  equivalent, 1 some function differs, 3 some verdict unknown (or a changed line the build \
                  does not compile), 2 error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Threads to use (default: one per core). The output is the same whatever N.
    #[arg(long, global = true, value_name = "N")]
    pub jobs: Option<usize>,
    /// Colour the text reports: on a terminal without NO_COLOR (auto), always or never.
    #[arg(long, global = true, value_enum, default_value_t = crate::style::ColorChoice::Auto)]
    pub color: crate::style::ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// What a change does, in one report: the functions changed, added, removed or
    /// renamed, with their changed lines; the statements the change may affect; and
    /// which changed functions are equivalent or differ (with a witness). OLD and NEW are
    /// C files, directories or git revisions (or one range A..B); with NEW omitted, OLD
    /// is a revision compared with the working tree.
    Diff(crate::commands::diff::DiffArgs),
    /// Prints an intermediate form of one version.
    Dump {
        #[arg(value_enum)]
        what: DumpKind,
        /// A C file, a directory or a git revision.
        version: String,
        /// Only this function (all functions when omitted).
        #[arg(long = "function")]
        functions: Vec<String>,
        /// Graphviz output (cfg and callgraph).
        #[arg(long)]
        dot: bool,
        #[command(flatten)]
        frontend: FrontendArgs,
    },
    /// Frontend statistics of one version: functions, nodes, approximations by kind,
    /// diagnostics. With --each-file, every C file is loaded on its own (robustness runs).
    Stats {
        version: String,
        #[arg(long)]
        each_file: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        frontend: FrontendArgs,
    },
    /// Static Execute After (or Before, --before) sets of the functions of one program:
    /// which functions may run after (before) each function.
    Sea(crate::commands::sea::SeaArgs),
    /// What a change between OLD and NEW may impact: the impacted lines with their
    /// explanations (DCIA, the default), or the impacted functions (--level function: by
    /// Static Execute After, with the call-graph impact for comparison).
    Impact(crate::commands::impact::ImpactArgs),
    /// Invariant diffs of two or more versions: the invariants all of them keep at their
    /// common points (version invariants) and those that change between consecutive
    /// ones (invariant churns), with the lines that cause each change. A range A..B
    /// stands for every commit of it.
    Invariants(crate::commands::invariants::InvariantsArgs),
    /// What a test suite exercises of a change: per change its dependence chains (CHAIN
    /// requirements), the tests covering them and those propagating a difference along
    /// them (PROP), the STMT/BR/DU baselines, the tests revealing a difference and those
    /// adding nothing. --static lists the requirements only.
    Effects(crate::commands::effects::EffectsArgs),
    /// Regression test selection (--select): the tests of a suite that run a changed
    /// statement in either version, each with its reason.
    Tests(crate::commands::effects::TestsArgs),
    /// Whether changes interfere with each other (SCHID): per pair of change sets, the
    /// tests on which one set alters the effect of the other (Type I: both have an
    /// effect; Type II: one keeps the other from having one), where the effects meet,
    /// or which check rules the interaction out.
    Interactions(crate::commands::interactions::InteractionsArgs),
    /// Semantic difference of OLD and NEW: per affected function, equivalent / different
    /// / unknown, the inputs on which they differ and agree, and replayed witnesses.
    Semdiff(crate::commands::semdiff::SemdiffArgs),
    /// The forward (or backward, --backward) interprocedural slice of the statements on
    /// one line of a program: what they may affect (what may affect them).
    Slice(crate::commands::slice::SliceArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The formats of the commands on one program (`slice`, `sea`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    /// For a pull-request comment.
    Markdown,
    /// SARIF 2.1.0, for code-scanning and review tools.
    Sarif,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DumpKind {
    /// The syntax tree the matcher works on.
    Ast,
    /// The IR, as text.
    Ir,
    /// Control-flow graphs (text, or --dot).
    Cfg,
    /// The call graph (text, or --dot).
    Callgraph,
}

/// The report cache (see `crate::cache`), for the commands that use it.
#[derive(Clone, Debug, Default, Args)]
pub struct CacheArgs {
    /// The report cache: a redb file (default: `.ripple/cache.redb` at the root of the
    /// git work tree; `ripple.toml`'s `[cache] path`). A report computed before from the
    /// same sources and options is printed again instead of analysing again.
    #[arg(long, value_name = "FILE", conflicts_with = "no_cache")]
    pub cache: Option<PathBuf>,
    /// Neither read nor write the report cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Take the function pairs an earlier run proved equivalent, with the same code and
    /// everything they depend on (the summary cache), instead of proving them again:
    /// faster on the next push of a branch compared with the same base. The budget a
    /// proof taken leaves goes to the other verdicts, which may then be decided further
    /// than without it (`ripple.toml`'s `[cache] reuse_proofs`).
    #[arg(long, conflicts_with = "no_cache")]
    pub reuse_proofs: bool,
}

impl CacheArgs {
    /// The cache these flags and `ripple.toml` choose, if any.
    pub fn open(
        &self,
        config: &crate::load::LoadConfig,
        verbose: bool,
    ) -> Option<crate::cache::Cache> {
        let explicit = self.cache.clone().or_else(|| config.cache.path.clone());
        let disabled = self.no_cache || config.cache.enabled == Some(false);
        crate::cache::Cache::locate(explicit.as_deref(), disabled, verbose)
            .map(|cache| cache.reusing_proofs(self.reuses_proofs(config)))
    }

    /// Whether proofs stored by earlier runs are taken: a report made so is stored
    /// apart from one made without (its key says which).
    pub fn reuses_proofs(&self, config: &crate::load::LoadConfig) -> bool {
        self.reuse_proofs || config.cache.reuse_proofs == Some(true)
    }
}

/// Options of the C frontend, shared by every command.
#[derive(Clone, Debug, Default, Args)]
pub struct FrontendArgs {
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Undefine a preprocessor macro.
    #[arg(short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
    /// Take each file's preprocessor flags from this compilation database.
    #[arg(long, value_name = "FILE")]
    pub compile_commands: Option<PathBuf>,
    /// Parse sources as written, without running the preprocessor.
    #[arg(long)]
    pub raw: bool,
    /// In a tree of several programs (files defining `main`, unity builds including
    /// other C files), the one to analyse: its main or unity file (`lua.c`), or
    /// `library` (the files without `main`). By default, the one holding the most
    /// changed files; which one is said on stderr.
    #[arg(long, value_name = "FILE")]
    pub program: Option<String>,
    /// The C compiler driver used for preprocessing (default: `cc`).
    #[arg(long, value_name = "CC")]
    pub cc: Option<String>,
    /// Read the settings from this file instead of the `ripple.toml` found in the
    /// current directory or above it (up to the repository's root).
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore `ripple.toml`.
    #[arg(long)]
    pub no_config: bool,
    /// Print warnings too, and the time each stage of the command takes.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}
