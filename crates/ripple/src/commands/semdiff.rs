//! `ripple semdiff OLD NEW`: semantic difference of the affected function pairs
//! (Trostanetski et al., 001): verdict, difference summary and replayed witnesses.
//! Exit codes: 0 all equivalent, 1 some difference, 2 error, 3 unknown remains.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use ripple_analyses::semdiff::native::{NativeRunner, NativeSource, NativeUnit};
use ripple_analyses::semdiff::{
    semdiff, RunDir, SemdiffConfig, CUTOFF_FACTOR, DEFAULT_QUERY_BUDGET, DEFAULT_RUN_BUDGET,
};

use crate::cli::FrontendArgs;
use crate::load::{report_diagnostics, VersionSpec};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Confirm {
    Compiled,
    Interpreter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Assume {
    Wrap,
    NoUb,
}

#[derive(Debug, Args)]
pub struct SemdiffArgs {
    /// The old version: a C file, a directory or a git revision.
    pub old: String,
    /// The new version.
    pub new: String,
    /// List every affected function in the text (by default the callers of the changed
    /// functions whose verdict is unknown are counted, not listed; JSON lists all).
    #[arg(long)]
    pub all: bool,
    /// Refine spurious differences on demand (MODDIFFREF; the default).
    #[arg(long, overrides_with = "no_refine")]
    pub refine: bool,
    /// No refinement (MODDIFF): differences through unexplored callee paths stay unknown.
    #[arg(long)]
    pub no_refine: bool,
    /// Loop unwinding bound of the summaries.
    #[arg(long, default_value_t = 5)]
    pub unwind: u32,
    /// Budget of the whole analysis in seconds (concrete search, exploration, difference
    /// queries, witness search; reading the sources is not part of it), counted as
    /// deterministic work (solver resource units and interpreter steps) so that the same
    /// input gives the same answer on any machine; four times as many seconds of
    /// wall-clock time are the outer cut-off. What is not decided within it is "unknown".
    #[arg(long, default_value_t = DEFAULT_RUN_BUDGET.as_secs_f64())]
    pub budget: f64,
    /// Wall-clock cut-off in seconds (default: four times the budget). Past it the run stops and says
    /// so, and its result may then depend on the machine's load; a larger cut-off keeps
    /// results reproducible on a busy machine.
    #[arg(long)]
    pub cutoff: Option<f64>,
    /// Compute the full difference summary even where a confirmed witness has already
    /// settled the verdict (by default the analysis of such a function stops there).
    #[arg(long)]
    pub full_summary: bool,
    /// What confirms a witness: `compiled` runs both versions built by the C compiler
    /// (`--cc`; the default, and the interpreter decides when no compiler runs or a
    /// driver cannot be built), `interpreter` runs them in ripple's IR interpreter only.
    #[arg(long, value_enum, default_value_t = Confirm::Compiled)]
    pub confirm: Confirm,
    /// Answer modulo undefined behaviour: what holds only through signed overflow,
    /// division by zero or an out-of-range shift or conversion is not a difference
    /// (`no-ub`; the default, `wrap`, is the semantics of code built with `-fwrapv`).
    #[arg(long, value_enum, default_value_t = Assume::Wrap)]
    pub assume: Assume,
    /// Report only this function: its name, or `file.c:name` for one of several static
    /// functions of that name (a header's `static inline` function has a copy per unit).
    #[arg(long)]
    pub function: Option<String>,
    #[arg(long, value_enum, default_value_t = SemdiffFormat::Text)]
    pub format: SemdiffFormat,
    #[command(flatten)]
    pub cache: crate::cli::CacheArgs,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

/// How the verdicts are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SemdiffFormat {
    Text,
    Json,
    /// A pull-request comment: a table of the changed functions' verdicts and evidence.
    Markdown,
    /// SARIF 2.1.0: RPL002 for a function proved equivalent, RPL003 with the witness for
    /// one that behaves differently, at the function's first changed line.
    Sarif,
}

pub fn run(args: &SemdiffArgs) -> Result<u8> {
    let old_spec = VersionSpec::parse(&args.old)?;
    let new_spec = VersionSpec::parse(&args.new)?;
    let config = super::load_config(&args.frontend, true)?;
    let timer = super::StageTimer::new(args.frontend.verbose);
    let prepared = super::prepare_both(&old_spec, &new_spec, &config)?;
    // SARIF places each verdict at the function's changed lines, which need both
    // versions lowered: it is not read back.
    let cache = (args.format != SemdiffFormat::Sarif)
        .then(|| args.cache.open(&config, args.frontend.verbose))
        .flatten();
    let key = cache
        .as_ref()
        .map(|_| semdiff_key([&prepared[0], &prepared[1]], args, &config));
    // A report read back needs no lowering: the diagnostics are stored with it.
    let stored = cache.as_ref().zip(key).and_then(|(cache, key)| {
        let diagnostics = cache.diagnostics(&prepared, &config)?;
        let bytes = cache.get(&key)?;
        let (&code, view) = bytes.split_first()?;
        let view: ripple_report::semdiff::SemdiffView = ripple_report::stored::from_bytes(view)?;
        Some((view, code, diagnostics))
    });
    if let Some((view, code, [old_said, new_said])) = stored {
        let [old, new] = prepared.map(crate::load::PreparedProgram::into_sources);
        let verbose = args.frontend.verbose;
        let errors = crate::load::report_diagnostics_of(&old.label, &old_said, verbose)
            + crate::load::report_diagnostics_of(&new.label, &new_said, verbose);
        timer.done("report from the cache");
        say_if_unaffected(args, &view);
        print_text_json_or_markdown(args, &view);
        return Ok(ending_code(errors, code));
    }
    let [old, new] = prepared;
    let (old_version, new_version) = rayon::join(|| old.lower(&config), || new.lower(&config));
    timer.done("load and lower both versions");
    let errors = report_diagnostics(&old_version, args.frontend.verbose)
        + report_diagnostics(&new_version, args.frontend.verbose);
    let matching = ripple_versions::match_programs(
        old_version.program(),
        new_version.program(),
        &ripple_versions::MatchConfig::default(),
    );
    timer.done("match versions");
    let (mut view, code, _) = semantic_view(
        &config,
        [&old_version, &new_version],
        &matching,
        args,
        cache.as_ref(),
        super::Ending::Exit,
    );
    timer.done("semantic difference");
    // A change the build analysed does not compile has no verdict: not "equivalent".
    view.not_analysed = crate::load::not_analysed(&old_version, &new_version);
    let code = if code == 0 && !view.not_analysed.is_empty() {
        3
    } else {
        code
    };
    say_if_unaffected(args, &view);
    if let (Some(cache), Some(key)) = (&cache, key) {
        // Only what another run would give again: not a run the wall clock stopped, and
        // without the time it took.
        if !view.machine_dependent() {
            let elapsed = view.settings.elapsed_ms.take();
            let mut bytes = vec![code];
            bytes.extend(ripple_report::stored::to_bytes(&view));
            cache.put(&key, &bytes);
            cache.put_diagnostics(&old_version, &config);
            cache.put_diagnostics(&new_version, &config);
            view.settings.elapsed_ms = elapsed;
        }
    }
    match args.format {
        SemdiffFormat::Sarif => {
            let changes = ripple_report::diff::diff_view(
                (&old_version.sources.label, &new_version.sources.label),
                old_version.program(),
                new_version.program(),
                &matching,
                false,
            );
            println!(
                "{}",
                crate::sarif_place::place_in_new_version(
                    ripple_report::sarif::render_verdicts(
                        &view,
                        &changes,
                        env!("CARGO_PKG_VERSION")
                    ),
                    [&old_version.sources, &new_version.sources]
                )
            );
        }
        _ => print_text_json_or_markdown(args, &view),
    }
    Ok(ending_code(errors, code))
}

/// The key of a stored report: both versions as read, and the options that shape it.
fn semdiff_key(
    versions: [&crate::load::PreparedProgram; 2],
    args: &SemdiffArgs,
    config: &crate::load::LoadConfig,
) -> crate::cache::Key {
    crate::cache::KeyBuilder::new("semdiff report and its exit code")
        .versions(versions.map(|v| v.key_parts()), config)
        .text(&format!(
            "{} {} {} {} {:?} {:?} {:?} {:?}",
            args.all,
            args.no_refine,
            args.unwind,
            args.full_summary,
            args.confirm,
            args.assume,
            args.function,
            args.cutoff
        ))
        .number(args.budget.to_bits())
        .number(u64::from(args.cache.reuses_proofs(config)))
        .finish()
}

/// Says when the function `--function` asks for is not among the verdicts.
fn say_if_unaffected(args: &SemdiffArgs, view: &ripple_report::semdiff::SemdiffView) {
    if let Some(name) = &args.function {
        if view.functions.is_empty() {
            eprintln!("ripple: {name} is not affected by the change (or does not exist)");
        }
    }
}

/// Prints the verdicts in the text, JSON or Markdown format (SARIF needs the changes:
/// `run` renders it).
fn print_text_json_or_markdown(args: &SemdiffArgs, view: &ripple_report::semdiff::SemdiffView) {
    match args.format {
        SemdiffFormat::Text if args.all || args.function.is_some() => {
            crate::style::print_text(&ripple_report::semdiff::render_text(view))
        }
        SemdiffFormat::Text => {
            crate::style::print_text(&ripple_report::semdiff::render_text_compact(view))
        }
        SemdiffFormat::Json => println!("{}", ripple_report::semdiff::render_json(view)),
        SemdiffFormat::Markdown => print!("{}", ripple_report::semdiff::render_markdown(view)),
        SemdiffFormat::Sarif => unreachable!("SARIF is rendered with the changes"),
    }
}

/// The exit code: 2 when the sources had errors (said on stderr), else the verdicts'.
fn ending_code(errors: usize, code: u8) -> u8 {
    if errors > 0 {
        eprintln!(
            "ripple: {errors} error(s) while reading the sources; the functions that run code \
             that could not be read have no verdict"
        );
        return 2;
    }
    code
}

/// The runner building both versions with the C compiler (and the directory holding its
/// builds), when the compiler runs.
fn native_runner(
    config: &crate::load::LoadConfig,
    old: &crate::load::LoadedVersion,
    new: &crate::load::LoadedVersion,
    run_dirs: [RunDir; 2],
) -> Option<(Arc<NativeRunner>, tempfile::TempDir)> {
    let cc = if config.preprocess.cc.is_empty() {
        "cc"
    } else {
        config.preprocess.cc.as_str()
    };
    // Each unit as it was preprocessed: its database flags, the command line's, and
    // the version's root as an include directory (`native::build` adds it).
    let source = |version: &crate::load::LoadedVersion| NativeSource::Files {
        units: version
            .program_files
            .iter()
            .zip(&version.program_units)
            .map(|(f, unit)| NativeUnit {
                name: f.to_string_lossy().replace('\\', "/"),
                path: f.clone(),
                flags: unit.flags.clone(),
                reads: unit.reads.clone(),
            })
            .collect(),
        flags: config.preprocess.flags.clone(),
        root: version.sources.root.clone(),
    };
    let work = tempfile::tempdir().ok()?;
    // A replay that ends within the interpreter's step limit takes well under a
    // millisecond natively: the timeout only ends runs that do not terminate.
    let runner =
        NativeRunner::new(cc, source(old), source(new), work.path(), 250).with_run_dirs(run_dirs);
    Some((Arc::new(runner), work))
}

/// The semantic difference of two loaded versions (as written) under `args`' settings
/// (its versions and format aside), with the command's exit code and the changed
/// functions proved equivalent as a whole (for the impact). The budget and the
/// wall-clock cut-off count from here: reading the versions is not part of them.
pub fn semantic_view(
    config: &crate::load::LoadConfig,
    [old_version, new_version]: [&crate::load::LoadedVersion; 2],
    matching: &ripple_versions::VersionMatch,
    args: &SemdiffArgs,
    cache: Option<&crate::cache::Cache>,
    ending: super::Ending,
) -> (
    ripple_report::semdiff::SemdiffView,
    u8,
    ripple_analyses::sem_equiv::FunctionEquivalences,
) {
    // A git revision's runs start in its own tree: the files they open by a relative
    // path are the revision's, not the working tree's. It is written on the first run.
    let run_dirs = [old_version, new_version].map(|v| v.sources.run_dir());
    let native = if args.confirm == Confirm::Compiled
        && config.preprocess.mode == crate::load::PreprocessMode::Auto
    {
        native_runner(config, old_version, new_version, run_dirs.clone())
    } else {
        None
    };
    let total = Duration::try_from_secs_f64(args.budget.max(0.1)).unwrap_or(DEFAULT_RUN_BUDGET);
    let semdiff_config = SemdiffConfig {
        refine: !args.no_refine,
        unwind: args.unwind,
        total_budget: total,
        query_budget: total.min(DEFAULT_QUERY_BUDGET),
        wall_clock_cutoff: Some({
            let outer = args
                .cutoff
                .and_then(|c| Duration::try_from_secs_f64(c.max(0.1)).ok())
                .unwrap_or(total * CUTOFF_FACTOR);
            // Less a reserve for the report.
            outer.mul_f64(0.97).max(Duration::from_millis(10))
        }),
        function: args.function.clone(),
        full_summary: args.full_summary,
        native: native.as_ref().map(|(runner, _)| runner.clone()),
        run_dirs,
        assume_no_ub: args.assume == Assume::NoUb,
        abandon_solver_memory: ending == super::Ending::Exit,
        ..SemdiffConfig::default()
    };
    // The changed pairs an earlier run proved equivalent (the summary cache).
    let (old, new) = (old_version.program(), new_version.program());
    let proofs = cache
        .map(|cache| crate::proved::ProvedPairs::new(cache, old, new, args.assume == Assume::NoUb));
    let known_equivalent: rustc_hash::FxHashSet<_> = proofs
        .as_ref()
        .map(|proofs| {
            matching
                .changed()
                .filter(|m| !m.same_code())
                .filter_map(|m| Some((m.old?, m.new?)))
                .filter(|&(o, n)| {
                    old.functions[o].is_defined()
                        && new.functions[n].is_defined()
                        && proofs.known(o, n)
                })
                .collect()
        })
        .unwrap_or_default();
    let semdiff_config = SemdiffConfig {
        known_equivalent,
        ..semdiff_config
    };
    let report = semdiff(old, new, matching, &semdiff_config);
    if let Some(proofs) = &proofs {
        for f in report.functions.iter().filter(|f| f.modified) {
            if let (Some(o), Some(n)) = (f.old, f.new) {
                if f.verdict == ripple_analyses::semdiff::Verdict::Equivalent
                    && !semdiff_config.known_equivalent.contains(&(o, n))
                {
                    proofs.store(o, n);
                }
            }
        }
    }
    let mut view = ripple_report::semdiff::semdiff_view(&report);
    if args.frontend.verbose {
        view.settings.elapsed_ms =
            Some(u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX));
    }
    let code = ripple_report::semdiff::exit_code(&report);
    (view, code, report.proved_equivalent())
}
