//! `ripple impact OLD NEW`: what a change may impact.
//!
//! `--level statement` (the default): the lines DCIA (000, section 3.3) finds impacted
//! outside the changed lines, in both versions, each with its chain of dependences;
//! changed statements and call arguments the solver proves equivalent to the old ones
//! are no source of impact (000 section 4; `--dcia-only` turns this off).
//! `--level function`: the functions a change may impact, by Static Execute After
//! (Jász, 004), with the relation and the changed functions behind each, next to the
//! call-graph impact. OLD and NEW as for `ripple diff` (with NEW omitted, OLD is a
//! revision compared with the working tree). Exit codes as for `ripple diff`: 0 no
//! change, 1 changes, 2 error.

use anyhow::Result;
use clap::Args;
use ripple_analyses::dcia::{dcia_on_graphs, DciaConfig, DependenceGraphs, Equivalences};
use ripple_analyses::function_impact::{
    function_impact, ChangedGlobal, ImpactConfig, VersionGraphs,
};
use ripple_graph::Iccfg;
use ripple_report::impact::VersionNames;
use ripple_report::sea::{ExternalFunctions, FunctionNames};

use std::io::IsTerminal;

use crate::cli::FrontendArgs;
use crate::load::{report_diagnostics, report_diagnostics_of, VersionSpec};

#[derive(Debug, Args)]
pub struct ImpactArgs {
    pub old: String,
    pub new: Option<String>,
    /// `statement`: impacted lines by DCIA, with explanations (and the statement
    /// equivalences of SEM-DCIA); `function`: impacted functions by Static Execute After;
    /// a number K: statement level with functions proved equivalent as a whole up to call
    /// distance K of the change (SEM-DCIA's anytime levels, 000 Alg. 1; implies
    /// `--semantic`).
    /// (Default: `0` with a budget of 1 s of work, or `ripple.toml`'s `impact.level`;
    /// `statement` with `--dcia-only`.)
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// `sarif` (SARIF 2.1.0, for code scanning), `markdown` (a pull-request comment) and
    /// `html` (one self-contained page: both versions side by side, click a line to see
    /// why it is impacted) are for the statement level.
    #[arg(long, value_enum, default_value_t = ImpactFormat::Text)]
    pub format: ImpactFormat,
    /// Also list library functions (without a body, or from system headers) that the
    /// program does not call through pointers.
    #[arg(long)]
    pub externals: bool,
    /// Statement level: report only the lines within this dependence distance of a
    /// changed statement (a prefix of the full impact, said so in the report).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Statement level, text: every impacted line of every function (by default the
    /// nearest few of each).
    #[arg(long)]
    pub all: bool,
    /// Statement level: plain DCIA (000 section 3), every changed statement a source of
    /// impact. By default the changed statements and call arguments proved by the solver
    /// to do what the old ones did are not (SEM-DCIA's statement equivalences).
    #[arg(long, conflicts_with = "semantic")]
    pub dcia_only: bool,
    /// Statement level: what counts as changed. `statement` (the default): the
    /// statements that differ. `function`: every statement of a function whose body
    /// differs, as the prototype of 000 took it (its section 4); coarser, for comparing
    /// with it (`--dcia-only --sources function` is 000's DCIA).
    #[arg(long, value_enum, default_value_t = Sources::Statement)]
    pub sources: Sources,
    /// Statement level: also prove functions equivalent as a whole (the semantic
    /// difference engine, loops by induction; SEM-DCIA's SUMMARYEQUIV, 000 Def. 4.2),
    /// the changed ones and their callers (`--level 1`, unless another level is given):
    /// what such a function returns and leaves in memory impacts nothing outside it.
    #[arg(long)]
    pub semantic: bool,
    /// With `--semantic` or `--level K`: the budget of the whole-function proofs of each
    /// level in seconds, counted as deterministic work (solver resource units) and shared
    /// among the level's functions; four times as many seconds of wall-clock time are the
    /// outer cut-off, reported when it stops the proofs.
    /// (Default: 3.5, or `ripple.toml`'s `impact.budget`; 1 for the level 0 run when no
    /// level is given.)
    #[arg(long)]
    pub budget: Option<f64>,
    /// Statement level: how memory is abstracted. `inclusion`: Andersen's
    /// inclusion-based points-to, field-sensitive (precise; on sqlite3.c about 5 s per
    /// version); `unification`: Steensgaard's (fast; objects that may alias one pointer
    /// share a region); `auto`: inclusion up to 40,000 IR nodes and within its work
    /// budget, else unification, said so in the report.
    #[arg(long, value_enum, default_value_t = PointsToChoice::Auto)]
    pub points_to: PointsToChoice,
    /// Exit 0 when the versions differ too (errors still exit 2): for hooks and CI
    /// steps that report and must not fail.
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub cache: crate::cli::CacheArgs,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ImpactFormat {
    Text,
    Json,
    Sarif,
    Markdown,
    Html,
}

/// The points-to analysis asked for (`--points-to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PointsToChoice {
    Auto,
    Inclusion,
    Unification,
}

impl PointsToChoice {
    fn mode(self) -> Option<ripple_dataflow::PointsToMode> {
        match self {
            PointsToChoice::Auto => None,
            PointsToChoice::Inclusion => Some(ripple_dataflow::PointsToMode::Andersen),
            PointsToChoice::Unification => Some(ripple_dataflow::PointsToMode::Unification),
        }
    }
}

/// What the statement level takes as the sources of impact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Sources {
    /// The statements that differ between the versions.
    Statement,
    /// Every statement of a changed function.
    Function,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Function,
    Statement,
    /// Statement level with whole-function equivalences up to this call distance.
    Semantic(usize),
}

/// The call distance `--semantic` alone goes to.
const DEFAULT_SEMANTIC_LEVEL: usize = 1;

fn parse_level(text: &str) -> std::result::Result<Level, String> {
    match text {
        "function" => Ok(Level::Function),
        "statement" => Ok(Level::Statement),
        _ => text.parse::<usize>().map(Level::Semantic).map_err(|_| {
            format!("`{text}` is not a level: use `function`, `statement` or a call distance (0, 1, 2, ...)")
        }),
    }
}

/// The budget of the whole-function proofs per level, in seconds of work.
const DEFAULT_BUDGET: f64 = 3.5;

/// The budget of the whole-function proofs of the changed functions that run by
/// default (no level asked for), in seconds of work.
const DEFAULT_LEVEL_0_BUDGET: f64 = 1.0;

/// The settings of a run: the flags, else `ripple.toml`, else the defaults.
struct Settings {
    level: Level,
    budget: f64,
    /// The anytime level of the whole-function proofs, if any are asked for.
    semantic_level: Option<usize>,
}

impl Settings {
    fn of(args: &ImpactArgs) -> Result<Settings> {
        let file = crate::config::ConfigFile::find(
            args.frontend.config.as_deref(),
            args.frontend.no_config,
        )?;
        let from_file = match file.as_ref().and_then(|f| f.impact.level.as_ref().map(|l| (f, l))) {
            None => None,
            Some((f, toml::Value::Integer(k))) => Some(
                usize::try_from(*k)
                    .map(Level::Semantic)
                    .map_err(|_| anyhow::anyhow!("{}: impact.level: {k} is not a call distance", f.path.display()))?,
            ),
            Some((f, toml::Value::String(s))) => Some(
                parse_level(s).map_err(|e| anyhow::anyhow!("{}: impact.level: {e}", f.path.display()))?,
            ),
            Some((f, other)) => anyhow::bail!(
                "{}: impact.level: {other} is not a level: use \"function\", \"statement\" or a call distance",
                f.path.display()
            ),
        };
        let chosen = args.level.or(from_file);
        // By default the changed functions are tried as a whole too (level 0), on a
        // smaller budget than asked-for levels get: plain DCIA and `--semantic` decide
        // otherwise.
        let default_proofs = chosen.is_none() && !args.dcia_only && !args.semantic;
        let level = chosen.unwrap_or(if default_proofs {
            Level::Semantic(0)
        } else {
            Level::Statement
        });
        let budget = args
            .budget
            .or_else(|| file.as_ref().and_then(|f| f.impact.budget))
            .unwrap_or(if default_proofs {
                DEFAULT_LEVEL_0_BUDGET
            } else {
                DEFAULT_BUDGET
            });
        let semantic_level = match level {
            Level::Semantic(k) => Some(k),
            _ if args.semantic => Some(DEFAULT_SEMANTIC_LEVEL),
            _ => None,
        };
        Ok(Settings {
            level,
            budget,
            semantic_level,
        })
    }
}

pub fn run(args: &ImpactArgs) -> Result<u8> {
    let settings = Settings::of(args)?;
    if settings.level == Level::Function
        && matches!(
            args.format,
            ImpactFormat::Sarif | ImpactFormat::Markdown | ImpactFormat::Html
        )
    {
        anyhow::bail!(
            "--format sarif, markdown and html are for the statement level, not --level function"
        );
    }
    if args.dcia_only && settings.semantic_level.is_some() {
        anyhow::bail!("--dcia-only excludes the whole-function proofs of --semantic and --level K");
    }
    let (old_spec, new_spec) = VersionSpec::pair(&args.old, args.new.as_deref(), "impact")?;
    let config = super::load_config(&args.frontend, true)?;
    let timer = super::StageTimer::new(args.frontend.verbose);
    let prepared = super::prepare_both(&old_spec, &new_spec, &config)?;
    let lower = |[old, new]: [crate::load::PreparedProgram; 2]| {
        let (mut old, mut new) = rayon::join(|| old.lower(&config), || new.lower(&config));
        old.cut_after_noreturn_calls();
        new.cut_after_noreturn_calls();
        let errors = report_diagnostics(&old, args.frontend.verbose)
            + report_diagnostics(&new, args.frontend.verbose);
        timer.done("load and lower both versions");
        (old, new, errors)
    };
    if settings.level != Level::Function {
        let options = StatementOptions {
            dcia_only: args.dcia_only,
            whole_function_sources: args.sources == Sources::Function,
            semantic_level: settings.semantic_level,
            budget: settings.budget,
            depth: args.depth,
            reduction: !args.dcia_only,
            points_to: args.points_to.mode(),
            proved_functions: None,
            ending: super::Ending::Exit,
        };
        let cache = args.cache.open(&config, args.frontend.verbose);
        let key = cache.as_ref().map(|cache| {
            impact_key(
                [&prepared[0], &prepared[1]],
                &options,
                &config,
                cache.reuses_proofs(),
            )
        });
        // A report read back needs no lowering: the diagnostics are stored with it.
        let stored = cache.as_ref().zip(key).and_then(|(cache, key)| {
            let diagnostics = cache.diagnostics(&prepared, &config)?;
            let (view, any_change) = stored_impact(cache, &key)?;
            Some((view, any_change, diagnostics))
        });
        if let Some((view, any_change, [old_said, new_said])) = stored {
            let [old, new] = prepared.map(crate::load::PreparedProgram::into_sources);
            let errors = report_diagnostics_of(&old.label, &old_said, args.frontend.verbose)
                + report_diagnostics_of(&new.label, &new_said, args.frontend.verbose);
            timer.done("report from the cache");
            return Ok(statement_report(
                args,
                view,
                [&old, &new],
                errors,
                any_change,
            ));
        }
        let (old_version, new_version, errors) = lower(prepared);
        let (view, matching) =
            statement_impact(&old_version, &new_version, &options, cache.as_ref(), &timer);
        let any_change = ripple_report::diff::diff_view(
            ("", ""),
            old_version.program(),
            new_version.program(),
            &matching,
            false,
        )
        .summary
        .any_change()
            || !crate::load::not_analysed(&old_version, &new_version).is_empty();
        if let (Some(cache), Some(key)) = (&cache, key) {
            if !view.machine_dependent() {
                let mut bytes = vec![u8::from(any_change)];
                bytes.extend(ripple_report::stored::to_bytes(&view));
                cache.put(&key, &bytes);
                cache.put_diagnostics(&old_version, &config);
                cache.put_diagnostics(&new_version, &config);
            }
        }
        let sources = [&old_version.sources, &new_version.sources];
        let code = statement_report(args, view, sources, errors, any_change);
        // Freeing the versions of a large program takes a noticeable part of the run,
        // and the process ends next.
        std::mem::forget((matching, old_version, new_version));
        return Ok(code);
    }
    let (old_version, new_version, errors) = lower(prepared);
    let matching = ripple_versions::match_programs(
        old_version.program(),
        new_version.program(),
        &ripple_versions::MatchConfig::default(),
    );
    let externals = if args.externals {
        ExternalFunctions::All
    } else {
        ExternalFunctions::AddressTaken
    };
    let view = function_level(&old_version, &new_version, &matching, externals);
    match args.format {
        ImpactFormat::Text => crate::style::print_text(&ripple_report::impact::render_text(&view)),
        ImpactFormat::Json => println!("{}", ripple_report::impact::render_json(&view)),
        ImpactFormat::Sarif | ImpactFormat::Markdown | ImpactFormat::Html => {
            unreachable!("refused before the analysis")
        }
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        return Ok(2);
    }
    Ok(u8::from(
        !args.exit_zero && !view.changed_functions.is_empty(),
    ))
}

/// The texts of the files a report names, per version (`old`, `new`), read from the
/// versions' roots; unreadable files are left out (the page lists them without lines).
/// The impact as a self-contained HTML page showing the files it names.
pub fn html_page(
    view: &ripple_report::impact_lines::ImpactLinesView,
    roots: [&crate::load::SourceSet; 2],
) -> String {
    let texts = source_texts(view, roots);
    let sources: Vec<ripple_report::html::SourceText> = texts
        .iter()
        .map(|(version, file, text)| ripple_report::html::SourceText {
            version,
            file,
            text,
        })
        .collect();
    ripple_report::html::render(view, &sources)
}

/// Gives the impacted lines their source text, for the text report (each file read
/// once; a file that cannot be read leaves its lines without text).
pub(super) fn attach_snippets(
    view: &mut ripple_report::impact_lines::ImpactLinesView,
    roots: [&crate::load::SourceSet; 2],
) {
    let texts = source_texts(view, roots);
    let lines: rustc_hash::FxHashMap<(&str, &str), Vec<&str>> = texts
        .iter()
        .map(|(version, file, text)| ((*version, file.as_str()), text.lines().collect()))
        .collect();
    for l in &mut view.impacted_lines {
        l.text = lines
            .get(&(l.version, l.file.as_str()))
            .and_then(|file| file.get((l.line as usize).wrapping_sub(1)))
            .map(|t| t.to_string());
    }
}

fn source_texts(
    view: &ripple_report::impact_lines::ImpactLinesView,
    roots: [&crate::load::SourceSet; 2],
) -> Vec<(&'static str, String, String)> {
    let mut files: Vec<(&'static str, String)> = view
        .changed_lines
        .iter()
        .map(|l| (l.version, l.file.clone()))
        .chain(
            view.impacted_lines
                .iter()
                .map(|l| (l.version, l.file.clone())),
        )
        .collect();
    files.sort();
    files.dedup();
    files
        .into_iter()
        .filter_map(|(version, file)| {
            let root = if version == "old" { roots[0] } else { roots[1] };
            let bytes = std::fs::read(root.root.join(&file)).ok()?;
            Some((version, file, String::from_utf8_lossy(&bytes).into_owned()))
        })
        .collect()
}

/// What the statement-level analysis is asked for.
pub struct StatementOptions {
    /// Plain DCIA: no statement equivalences.
    pub dcia_only: bool,
    /// Every statement of a changed function a source (`--sources function`).
    pub whole_function_sources: bool,
    /// The anytime level of the whole-function proofs, if any.
    pub semantic_level: Option<usize>,
    /// Their budget per level, in seconds of work.
    pub budget: f64,
    pub depth: Option<u32>,
    /// Also run plain DCIA, for the reduction (`summary.dcia_impacted_lines`).
    pub reduction: bool,
    /// The points-to analysis, when one is asked for (`--points-to`).
    pub points_to: Option<ripple_dataflow::PointsToMode>,
    /// Functions already proved equivalent as a whole (by `ripple diff`'s semantic
    /// verdicts), used as the whole-function proofs when no level is asked for.
    pub proved_functions: Option<ripple_analyses::sem_equiv::FunctionEquivalences>,
    /// Whether the dependence graphs may be left unfreed (the process exits next).
    pub ending: super::Ending,
}

/// The key of a statement-level report: both versions as read, and the options.
fn impact_key(
    versions: [&crate::load::PreparedProgram; 2],
    options: &StatementOptions,
    config: &crate::load::LoadConfig,
    reuse_proofs: bool,
) -> crate::cache::Key {
    crate::cache::KeyBuilder::new("impact report and whether anything changed")
        .versions(versions.map(|v| v.key_parts()), config)
        .number(u64::from(options.dcia_only))
        .number(u64::from(options.whole_function_sources))
        .number(u64::from(options.reduction))
        .text(&format!(
            "{:?} {:?} {:?}",
            options.semantic_level, options.depth, options.points_to
        ))
        .number(options.budget.to_bits())
        .number(u64::from(reuse_proofs))
        .finish()
}

/// A statement-level report stored under `key`, and whether the versions differ at all
/// (the exit code's business).
fn stored_impact(
    cache: &crate::cache::Cache,
    key: &crate::cache::Key,
) -> Option<(ripple_report::impact_lines::ImpactLinesView, bool)> {
    let bytes = cache.get(key)?;
    let (&flag, view) = bytes.split_first()?;
    Some((ripple_report::stored::from_bytes(view)?, flag == 1))
}

/// Prints a statement-level report in the format asked for, and returns the exit code:
/// 2 when the sources had errors, else 1 when anything changed (unless `--exit-zero`).
fn statement_report(
    args: &ImpactArgs,
    mut view: ripple_report::impact_lines::ImpactLinesView,
    sources: [&crate::load::SourceSet; 2],
    errors: usize,
    any_change: bool,
) -> u8 {
    if args.format == ImpactFormat::Text {
        attach_snippets(&mut view, sources);
    }
    match args.format {
        ImpactFormat::Sarif => println!(
            "{}",
            crate::sarif_place::place_in_new_version(
                ripple_report::sarif::render(&view, env!("CARGO_PKG_VERSION")),
                sources
            )
        ),
        ImpactFormat::Markdown => print!("{}", ripple_report::markdown::render(&view)),
        ImpactFormat::Html => print!("{}", html_page(&view, sources)),
        ImpactFormat::Text => {
            crate::style::print_text(&ripple_report::impact_lines::render_text(&view, args.all))
        }
        ImpactFormat::Json => println!("{}", ripple_report::impact_lines::render_json(&view)),
    }
    let code = if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        2
    } else {
        u8::from(!args.exit_zero && (any_change || !view.changed_lines.is_empty()))
    };
    // Freeing the report of a large program takes a noticeable part of the run, and the
    // process ends next.
    std::mem::forget(view);
    code
}

/// The statement-level impact (SEM-DCIA, or DCIA) of two loaded versions whose calls
/// that never return are cut, with the version matching it used.
pub fn statement_impact(
    old_version: &crate::load::LoadedVersion,
    new_version: &crate::load::LoadedVersion,
    options: &StatementOptions,
    cache: Option<&crate::cache::Cache>,
    timer: &super::StageTimer,
) -> (
    ripple_report::impact_lines::ImpactLinesView,
    ripple_versions::VersionMatch,
) {
    let (old, new) = (old_version.program(), new_version.program());
    let match_versions =
        || ripple_versions::match_programs(old, new, &ripple_versions::MatchConfig::default());
    let mut config = DciaConfig::default();
    config.sdg.points_to.mode = options.points_to;
    let (matching, graphs) = rayon::join(match_versions, || {
        DependenceGraphs::build(old, new, &config)
    });
    let matching = if options.whole_function_sources {
        matching.with_changed_functions_unmapped()
    } else {
        matching
    };
    timer.done("match versions, and build the dependence graphs of both");
    let proved = if options.dcia_only {
        ripple_analyses::sem_equiv::StatementEquivalences::default()
    } else {
        ripple_analyses::sem_equiv::statement_equivalences(
            old,
            new,
            &matching,
            Some([&graphs.old.points_to, &graphs.new.points_to]),
            ripple_analyses::sem_equiv::default_budget(),
        )
    };
    let mut equivalences = Equivalences::default();
    proved.add_to(&mut equivalences);
    timer.done("equivalences of the changed statements");
    let functions = if let Some(max_level) = options.semantic_level {
        let budget = std::time::Duration::from_secs_f64(options.budget.max(0.01));
        // Progress on a terminal: one line per level.
        let show = std::io::stderr().is_terminal();
        let started = std::time::Instant::now();
        let mut progress = |outcome: &ripple_analyses::sem_equiv::LevelOutcome| {
            if show {
                eprintln!(
                    "ripple: level {}: {} of {} function(s) proved equivalent ({:.1?})",
                    outcome.level,
                    outcome.proved,
                    outcome.tried,
                    started.elapsed()
                );
            }
        };
        // Pairs an earlier run proved are taken from the summary cache, and what this
        // run proves is stored there.
        let proofs = cache.map(|cache| crate::proved::ProvedPairs::new(cache, old, new, false));
        let mut known = rustc_hash::FxHashSet::default();
        let found = ripple_analyses::sem_equiv::function_equivalences(
            old,
            new,
            &matching,
            &equivalences,
            budget,
            max_level,
            &mut |o, n| {
                let proved = proofs.as_ref().is_some_and(|p| p.known(o, n));
                if proved {
                    known.insert((o, n));
                }
                proved
            },
            &mut progress,
        );
        if let Some(proofs) = &proofs {
            for &(o, n) in found.proved.iter().filter(|p| !known.contains(p)) {
                proofs.store(o, n);
            }
        }
        found.add_to(&mut equivalences, &graphs.old, &graphs.new);
        timer.done("whole-function equivalences");
        Some(found)
    } else if let Some(found) = options
        .proved_functions
        .as_ref()
        .filter(|_| !options.dcia_only)
    {
        found.add_to(&mut equivalences, &graphs.old, &graphs.new);
        Some(found.clone())
    } else {
        None
    };
    let result = dcia_on_graphs(old, new, &graphs, &matching, &equivalences);
    timer.done("DCIA on both versions");
    let mut view = ripple_report::impact_lines::impact_lines_view(
        (&old_version.sources.label, &new_version.sources.label),
        old,
        new,
        &result,
        &proved,
        options.depth,
    );
    if let Some(found) = &functions {
        ripple_report::impact_lines::add_function_equivalences(&mut view, old, new, found);
    }
    // What plain DCIA reports, for the reduction (the same when nothing was proved).
    if options.reduction && !equivalences.is_unused() {
        // Only how many lines: no explanations, unless the distances of `--depth` need them.
        let plain = match options.depth {
            Some(_) => dcia_on_graphs(old, new, &graphs, &matching, &Equivalences::default()),
            None => ripple_analyses::dcia::dcia_nodes_on_graphs(
                old,
                new,
                &graphs,
                &matching,
                &Equivalences::default(),
            ),
        };
        let none = ripple_analyses::sem_equiv::StatementEquivalences::default();
        let plain_view = ripple_report::impact_lines::impact_lines_view(
            ("", ""),
            old,
            new,
            &plain,
            &none,
            options.depth,
        );
        view.summary.dcia_impacted_lines = plain_view.summary.impacted_lines;
        timer.done("plain DCIA, for the reduction");
    }
    // Changed files of the tree that the program analysed does not read: their impact
    // is not in the report, which says so first.
    let not_analysed = crate::load::not_analysed(old_version, new_version);
    if !not_analysed.is_empty() {
        let (lines_only, whole): (Vec<_>, Vec<_>) =
            not_analysed.iter().partition(|f| f.lines_only());
        let mut parts = Vec::new();
        if !whole.is_empty() {
            let files: Vec<&str> = whole.iter().map(|f| f.file.as_str()).collect();
            parts.push(format!(
                "changed file(s) of another program of this tree are not analysed: {} (--program FILE analyses it)",
                files.join(", ")
            ));
        }
        for f in lines_only {
            parts.push(ripple_report::diff::not_analysed_text(f));
        }
        let said = format!("incomplete: {}", parts.join("; "));
        view.incomplete = Some(match view.incomplete.take() {
            Some(other) => format!(
                "{said}; {}",
                other.strip_prefix("incomplete: ").unwrap_or(&other)
            ),
            None => said,
        });
    }
    // Freeing the graphs of a large program takes a noticeable part of the run.
    if options.ending == super::Ending::Exit {
        std::mem::forget((graphs, result));
    }
    (view, matching)
}

/// The function-level impact (Static Execute After, 004): the functions that may run
/// after a changed one, with one points-to analysis per version to resolve calls
/// through pointers and find the readers of changed globals.
pub(super) fn function_level(
    old_version: &crate::load::LoadedVersion,
    new_version: &crate::load::LoadedVersion,
    matching: &ripple_versions::VersionMatch,
    externals: ExternalFunctions,
) -> ripple_report::impact::ImpactView {
    let (old, new) = (old_version.program(), new_version.program());
    // One points-to analysis per version: it resolves calls through pointers and tells
    // which functions read a changed global.
    let graph_and_readers = |program: &ripple_ir::Program| {
        let pts = ripple_dataflow::PointsTo::analyze(
            program,
            &ripple_dataflow::PointsToConfig::default(),
        );
        (
            ripple_dataflow::call_graph_with(program, &pts),
            ripple_dataflow::modref::direct_readers_of_globals(program, &pts),
        )
    };
    let ((old_callgraph, old_readers), (new_callgraph, new_readers)) =
        rayon::join(|| graph_and_readers(old), || graph_and_readers(new));
    let changed_globals: Vec<ChangedGlobal> = ripple_versions::match_all_globals(old, new)
        .into_iter()
        .filter(|m| m.status != ripple_versions::GlobalStatus::Unchanged)
        .map(|m| ChangedGlobal {
            // A string literal by its text and place, not its internal key.
            name: m
                .new
                .map(|g| (new, g))
                .or_else(|| m.old.map(|g| (old, g)))
                .map(|(program, g)| {
                    ripple_dataflow::pointsto::object_name(
                        program,
                        ripple_dataflow::pointsto::Object::Global(g),
                    )
                })
                .unwrap_or_default(),
            readers_old: m
                .old
                .map(|g| old_readers[g.index()].clone())
                .unwrap_or_default(),
            readers_new: m
                .new
                .map(|g| new_readers[g.index()].clone())
                .unwrap_or_default(),
        })
        .collect();
    let (old_iccfg, new_iccfg) = (
        Iccfg::build(old, &old_callgraph),
        Iccfg::build(new, &new_callgraph),
    );
    let impact = function_impact(
        &VersionGraphs::new(old, &old_callgraph, &old_iccfg),
        &VersionGraphs::new(new, &new_callgraph, &new_iccfg),
        matching,
        &changed_globals,
        &ImpactConfig::default(),
    );
    let names = VersionNames {
        old: FunctionNames::new(old, &old_callgraph, externals),
        new: FunctionNames::new(new, &new_callgraph, externals),
    };
    let only = |f: ripple_analyses::function_impact::FunctionRef| {
        let m = (f.new.and_then(|n| matching.of_new(n)))
            .or_else(|| f.old.and_then(|o| matching.of_old(o)))?;
        ripple_report::diff::only_label(old, new, matching, m)
    };
    ripple_report::impact::impact_view(
        (&old_version.sources.label, &new_version.sources.label),
        &names,
        &impact,
        &only,
    )
}
