//! `ripple diff OLD NEW`: one report of what the change does. The changes, function by
//! function; the functions that may run after them (SEA, as `ripple impact --level
//! function`); the statements they may affect (statement-level SEM-DCIA, as `ripple
//! impact`); and the semantic verdicts of the changed functions (equivalent, or
//! different with a witness, as `ripple semdiff`) within a budget; and the invariant
//! churns at the exits of the changed functions (003, as `ripple invariants`). `--only`
//! and `--skip`
//! choose the sections. A git range can be analysed commit by commit (`--each-commit`),
//! each commit against its first parent.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};

use crate::cache::{Cache, KeyBuilder};
use crate::cli::{CacheArgs, FrontendArgs};
use crate::load::{report_diagnostics, report_diagnostics_of, LoadConfig, VersionSpec};
use crate::progress::Progress;
use ripple_report::report::Report;

#[derive(Debug, Args)]
pub struct DiffArgs {
    pub old: String,
    pub new: Option<String>,
    /// List everything: unchanged functions too, every impacted function (the nearest 40
    /// otherwise) and every semantic verdict (otherwise the undecided callers of the
    /// changed functions are counted).
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// With a git range A..B: one report per commit of the range (each against its
    /// first parent, oldest first) instead of one for the whole range. The commits are
    /// those of B's first-parent line: a merged branch comes as its merge commit.
    #[arg(long)]
    pub each_commit: bool,
    /// Only these sections (comma-separated): changes, functions, impact, semantic,
    /// invariants.
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "skip")]
    pub only: Vec<Section>,
    /// Leave these sections out (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub skip: Vec<Section>,
    /// The budget of the semantic verdicts in seconds, counted as deterministic work;
    /// four times as many seconds of wall-clock time are the outer cut-off. The invariant churns
    /// have a budget as large of their own (solver work, and propagation steps at 10,000 a
    /// second).
    #[arg(long, default_value_t = 5.0)]
    pub budget: f64,
    /// Wall-clock cut-off of the semantic verdicts in seconds (default: four times the budget). Past
    /// it the verdicts left are "unknown" and the report says so; a larger cut-off keeps
    /// the report reproducible on a busy machine.
    #[arg(long)]
    pub cutoff: Option<f64>,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Exit 0 when the versions differ too (errors still exit 2): for hooks and CI
    /// steps that report and must not fail.
    #[arg(long)]
    pub exit_zero: bool,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

/// How the report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    /// A pull-request comment: verdicts, changed functions, impact.
    Markdown,
    /// A self-contained page of the impact, both versions side by side (one pair only).
    Html,
    /// SARIF 2.1.0 of the impact, for code scanning (one pair only).
    Sarif,
}

/// A section of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Section {
    /// Functions changed, added, removed or renamed, with their changed lines.
    Changes,
    /// The functions that may run after a changed one (Static Execute After, as
    /// `ripple impact --level function`), next to what the call graph alone gives.
    Functions,
    /// The statements the change may affect (statement-level SEM-DCIA).
    Impact,
    /// Changed functions proved equivalent, or different with a witness input.
    Semantic,
    /// Invariant churns at the exits of the changed functions: the properties (of the
    /// return value, parameters and globals) that hold in one version and not the other,
    /// with the lines that cause each.
    Invariants,
}

/// Changed functions whose exits get invariant diffs in `ripple diff`; the others are
/// counted (`ripple invariants --at` reaches any of them).
const INVARIANT_FUNCTIONS: usize = 12;
/// Propagation steps of the invariant churns per second of budget, shared by their points
/// (about what md4c's large functions take in a second on this machine kind).
const INVARIANT_STEPS_PER_SECOND: f64 = 10_000.0;
/// Steps a point gets at least, whatever the budget.
const INVARIANT_MIN_STEPS: usize = 1_000;

pub fn run(args: &DiffArgs) -> Result<u8> {
    let config = super::load_config(&args.frontend, true)?;
    if args.each_commit {
        return run_each_commit(args, &config);
    }
    let (old_spec, new_spec) = VersionSpec::pair(&args.old, args.new.as_deref(), "diff")?;
    let progress = Progress::spinner();
    let cache = args.cache.open(&config, args.frontend.verbose);
    let (report, errors, sources) = report_pair(
        &old_spec,
        &new_spec,
        &config,
        args,
        cache.as_ref(),
        &progress,
    )?;
    drop(progress);
    match args.format {
        DiffFormat::Text => crate::style::print_text(&ripple_report::report::render_text(&report)),
        DiffFormat::Json => println!("{}", ripple_report::report::render_json(&report)),
        DiffFormat::Markdown => print!("{}", ripple_report::report::render_markdown(&report)),
        // Nothing of the program analysed changed: the log has the other results.
        DiffFormat::Sarif if report.impact.is_some() || impact_chosen(args) => {
            println!(
                "{}",
                crate::sarif_place::place_in_new_version(
                    ripple_report::sarif::render_report(
                        report.impact.as_ref(),
                        &report,
                        env!("CARGO_PKG_VERSION")
                    ),
                    [&sources.0, &sources.1]
                )
            );
        }
        DiffFormat::Html | DiffFormat::Sarif => {
            let Some(impact) = &report.impact else {
                bail!("--format html and sarif show the impact: leave the impact section in");
            };
            {
                print!(
                    "{}",
                    super::impact::html_page(impact, [&sources.0, &sources.1])
                );
            }
        }
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        return Ok(2);
    }
    Ok(u8::from(
        !args.exit_zero && report.changes.summary.any_change(),
    ))
}

/// Whether `--only` and `--skip` leave the impact section in.
fn impact_chosen(args: &DiffArgs) -> bool {
    if args.only.is_empty() {
        !args.skip.contains(&Section::Impact)
    } else {
        args.only.contains(&Section::Impact)
    }
}

/// `--each-commit`: every commit of the range against its first parent.
fn run_each_commit(args: &DiffArgs, config: &LoadConfig) -> Result<u8> {
    if args.new.is_some() || !args.old.contains("..") {
        bail!("--each-commit takes one git range, A..B");
    }
    if matches!(args.format, DiffFormat::Html | DiffFormat::Sarif) {
        bail!("--each-commit writes text, JSON or Markdown (HTML and SARIF are one pair each)");
    }
    let (base, tip) = VersionSpec::pair(&args.old, None, "diff")?;
    let (VersionSpec::Revision(base), VersionSpec::Revision(tip)) = (base, tip) else {
        bail!("--each-commit takes one git range, A..B");
    };
    let mut code = 0;
    let cache = args.cache.open(config, args.frontend.verbose);
    let list = crate::load::commits_between(&base, &tip)?;
    if list.is_empty() {
        // A reversed range (B..A) holds no commit: saying "no change" would pass a CI
        // job whose base and head were swapped.
        bail!(
            "the range {} holds no commit ({tip} is {base}, or not a descendant of it: are the two ends swapped?)",
            args.old
        );
    }
    let progress = Progress::bar(list.len() as u64);
    let mut first = true;
    // JSON is one document, written commit by commit like the other formats: no report
    // is kept past its commit.
    if args.format == DiffFormat::Json {
        print!("{}", ripple_report::report::history_json_start(&args.old));
    }
    for (commit, subject) in list {
        progress.stage(&format!("{} {subject}", &commit[..commit.len().min(12)]));
        let parent = VersionSpec::Revision(format!("{commit}^"));
        let this = VersionSpec::Revision(commit.clone());
        let (report, errors, _) =
            report_pair(&parent, &this, config, args, cache.as_ref(), &progress)?;
        progress.inc();
        if errors > 0 {
            progress.suspend(|| eprintln!("ripple: {commit}: {errors} error(s) while reading the sources; its report covers what could be read"));
            code = 2;
        } else if report.changes.summary.any_change() && code == 0 && !args.exit_zero {
            code = 1;
        }
        let commit = ripple_report::report::CommitReport {
            commit,
            subject,
            report,
        };
        // Each commit is printed as soon as it is analysed, so a long range shows what
        // is done (and keeps it if stopped), and memory does not grow with the range.
        match args.format {
            DiffFormat::Json => progress.suspend(|| {
                print!(
                    "{}",
                    ripple_report::report::history_json_commit(first, &commit)
                );
            }),
            DiffFormat::Markdown => progress
                .suspend(|| print!("{}", ripple_report::report::render_commit_markdown(&commit))),
            _ => progress.suspend(|| {
                crate::style::print_text(&ripple_report::report::render_commit_text(first, &commit))
            }),
        }
        first = false;
        drop(commit);
        // The solver's rewrites of this commit's terms serve no other commit.
        rayon::broadcast(|_| ripple_symex::smt::forget_rewrites());
        ripple_symex::smt::forget_rewrites();
    }
    drop(progress);
    if args.format == DiffFormat::Json {
        println!("{}", ripple_report::report::history_json_end(first));
    }
    Ok(code)
}

/// The key of a report: what it is computed from (the analysed program of each version,
/// the sections and the options that shape them).
fn report_key(
    versions: [&crate::load::PreparedProgram; 2],
    config: &LoadConfig,
    args: &DiffArgs,
    sections: &[bool],
) -> crate::cache::Key {
    KeyBuilder::new("diff report")
        .versions(versions.map(|v| v.key_parts()), config)
        .text(&format!("{sections:?}"))
        .number(u64::from(args.all))
        .number(args.budget.to_bits())
        .number(args.cutoff.map_or(u64::MAX, f64::to_bits))
        .number(u64::from(args.cache.reuses_proofs(config)))
        .finish()
}

/// The report of one pair of versions, the number of errors met reading them, and their
/// sources (kept for the HTML page). With a cache, a report stored from the same inputs
/// is read back instead of analysing again, and a new one stored.
fn report_pair(
    old_spec: &VersionSpec,
    new_spec: &VersionSpec,
    config: &LoadConfig,
    args: &DiffArgs,
    cache: Option<&Cache>,
    progress: &Progress,
) -> Result<(
    Report,
    usize,
    (crate::load::SourceSet, crate::load::SourceSet),
)> {
    // HTML shows the impact, SARIF the impact and the verdicts: the other sections are
    // not computed for them. (The verdicts are computed for HTML too: their proofs make
    // the impact what the other formats show.)
    let shown = |s: Section| match args.format {
        DiffFormat::Html | DiffFormat::Sarif => matches!(s, Section::Impact | Section::Semantic),
        _ => true,
    };
    let chosen = |s: Section| {
        if args.only.is_empty() {
            !args.skip.contains(&s)
        } else {
            args.only.contains(&s)
        }
    };
    let wanted = |s: Section| shown(s) && chosen(s);
    let each = args.each_commit;
    // With `--verbose`, each stage's time is printed as the next one starts.
    let timer = super::StageTimer::new(args.frontend.verbose);
    let current = std::cell::RefCell::new(String::new());
    let say = |stage: &str| {
        let previous = current.replace(stage.to_owned());
        if !previous.is_empty() {
            progress.suspend(|| timer.done(&previous));
        }
        if !each {
            progress.stage(stage);
        }
    };
    say("reading both versions");
    let prepared = progress.suspend(|| super::prepare_both(old_spec, new_spec, config))?;
    let sections = SECTIONS.map(wanted);
    let key = cache.map(|_| report_key([&prepared[0], &prepared[1]], config, args, &sections));
    // HTML and SARIF show part of the report: the whole one, stored by a run in another
    // format, serves them too when it has the same semantic section (whose proofs the
    // impact uses; the other sections are independent).
    let whole = SECTIONS.map(chosen);
    let semantic = SECTIONS
        .iter()
        .position(|&s| s == Section::Semantic)
        .expect("a section");
    let keys = key.iter().copied().chain(
        (cache.is_some() && whole != sections && whole[semantic] == sections[semantic])
            .then(|| report_key([&prepared[0], &prepared[1]], config, args, &whole)),
    );
    // A stored report is read back with the diagnostics of the versions it was made
    // from, so that neither needs lowering.
    let stored = cache.and_then(|cache| {
        let diagnostics = cache.diagnostics(&prepared, config)?;
        Some((stored_report(cache, keys, &wanted)?, diagnostics))
    });
    let (mut report, errors, sources) = match stored {
        Some((report, [old_diagnostics, new_diagnostics])) => {
            let [old, new] = prepared;
            let (old, new) = (old.into_sources(), new.into_sources());
            let errors = progress.suspend(|| {
                let verbose = args.frontend.verbose;
                report_diagnostics_of(&old.label, &old_diagnostics, verbose)
                    + report_diagnostics_of(&new.label, &new_diagnostics, verbose)
            });
            say("report from the cache");
            if args.frontend.verbose {
                progress.suspend(|| {
                    eprintln!(
                        "ripple: {} -> {}: the report computed before from the same inputs, read from {}",
                        old.label,
                        new.label,
                        cache.map_or(std::path::Path::new(""), Cache::path).display()
                    );
                });
            }
            let report = Report {
                show_changes: wanted(Section::Changes),
                all: args.all,
                ..report
            };
            (report, errors, (old, new))
        }
        None => {
            say("lowering both versions");
            let [old, new] = prepared;
            let (mut old_version, mut new_version) =
                rayon::join(|| old.lower(config), || new.lower(config));
            let errors = progress.suspend(|| {
                report_diagnostics(&old_version, args.frontend.verbose)
                    + report_diagnostics(&new_version, args.frontend.verbose)
            });
            let mut report = analyse_pair(
                [&mut old_version, &mut new_version],
                config,
                args,
                cache,
                &wanted,
                &say,
            );
            if let (Some(cache), Some(key)) = (cache, key) {
                store_report(cache, &key, &mut report);
                for version in [&old_version, &new_version] {
                    cache.put_diagnostics(version, config);
                }
            }
            (report, errors, (old_version.sources, new_version.sources))
        }
    };
    say("");
    if args.format == DiffFormat::Text {
        if let Some(view) = &mut report.impact {
            super::impact::attach_snippets(view, [&sources.0, &sources.1]);
        }
    }
    Ok((report, errors, sources))
}

/// What follows one report's analyses: more of them in a range, else the exit.
fn ending(args: &DiffArgs) -> super::Ending {
    if args.each_commit {
        super::Ending::MoreToCome
    } else {
        super::Ending::Exit
    }
}

/// The sections of a report.
const SECTIONS: [Section; 5] = [
    Section::Changes,
    Section::Functions,
    Section::Impact,
    Section::Semantic,
    Section::Invariants,
];

/// The first report stored under one of `keys`, with the sections not `wanted` left out.
fn stored_report(
    cache: &Cache,
    keys: impl IntoIterator<Item = crate::cache::Key>,
    wanted: &dyn Fn(Section) -> bool,
) -> Option<Report> {
    let bytes = keys.into_iter().find_map(|key| cache.get(&key))?;
    let mut report = ripple_report::stored::from_bytes::<Report>(&bytes)?;
    if !wanted(Section::Functions) {
        report.functions = None;
    }
    if !wanted(Section::Impact) {
        report.impact = None;
    }
    if !wanted(Section::Semantic) {
        report.semantic = None;
    }
    if !wanted(Section::Invariants) {
        report.invariants = None;
    }
    report.not_run.retain(|n| {
        SECTIONS.iter().any(|&s| {
            wanted(s)
                && s.to_possible_value()
                    .is_some_and(|v| v.get_name() == n.section)
        })
    });
    Some(report)
}

/// Stores `report` under `key` when another run would give it again (no wall-clock
/// cut-off stopped it), without the time it took (`--verbose`), which a report read back
/// does not take.
fn store_report(cache: &Cache, key: &crate::cache::Key, report: &mut Report) {
    if report.machine_dependent() {
        return;
    }
    let elapsed = report
        .semantic
        .as_mut()
        .and_then(|s| s.settings.elapsed_ms.take());
    cache.put(key, &ripple_report::stored::to_bytes(report));
    if let Some(semantic) = &mut report.semantic {
        semantic.settings.elapsed_ms = elapsed;
    }
}

/// The sections `wanted` of the report of two loaded versions. Where the sources have
/// errors, the semantic sections say nothing of the functions that run code that could
/// not be read (`ripple_analyses::unread`).
fn analyse_pair(
    [old_version, new_version]: [&mut crate::load::LoadedVersion; 2],
    config: &LoadConfig,
    args: &DiffArgs,
    cache: Option<&Cache>,
    wanted: &dyn Fn(Section) -> bool,
    say: &dyn Fn(&str),
) -> Report {
    say("matching the versions");
    let matching = ripple_versions::match_programs(
        old_version.program(),
        new_version.program(),
        &ripple_versions::MatchConfig::default(),
    );
    let mut changes = ripple_report::diff::diff_view(
        (&old_version.sources.label, &new_version.sources.label),
        old_version.program(),
        new_version.program(),
        &matching,
        args.all,
    );
    let any_change = changes.summary.any_change();
    changes.set_files_not_analysed(crate::load::not_analysed(old_version, new_version));
    let reported: Vec<String> = changes.globals.iter().map(|g| g.name.clone()).collect();
    changes.set_declarations_changed(crate::load::declarations_changed(
        old_version,
        new_version,
        &reported,
    ));
    let mut not_run = Vec::new();
    // The semantic verdicts read the programs as written.
    let semantic = if !wanted(Section::Semantic) || !any_change {
        None
    } else {
        let semdiff_args = super::semdiff::SemdiffArgs {
            old: args.old.clone(),
            new: args.new.clone().unwrap_or_default(),
            all: args.all,
            refine: true,
            no_refine: false,
            unwind: 5,
            budget: args.budget,
            cutoff: args.cutoff,
            full_summary: false,
            confirm: super::semdiff::Confirm::Compiled,
            assume: super::semdiff::Assume::Wrap,
            function: None,
            format: super::semdiff::SemdiffFormat::Text,
            cache: Default::default(),
            frontend: args.frontend.clone(),
        };
        say("semantic verdicts");
        let versions = [&*old_version, &*new_version];
        let (view, _, proved) = super::isolated(|| {
            super::semdiff::semantic_view(
                config,
                versions,
                &matching,
                &semdiff_args,
                cache,
                ending(args),
            )
        });
        Some((view, proved))
    };
    let (semantic, proved_functions) = match semantic {
        Some((view, proved)) => (Some(view), Some(proved)),
        None => (None, None),
    };
    let invariants = if !wanted(Section::Invariants) || !any_change {
        None
    } else {
        say("invariant churns");
        let versions = [&*old_version, &*new_version];
        super::isolated(|| invariant_churns(versions, &matching, args, &mut not_run))
    };
    // The impacts, on the programs with the statements after calls that never return cut.
    if any_change && (wanted(Section::Impact) || wanted(Section::Functions)) {
        old_version.cut_after_noreturn_calls();
        new_version.cut_after_noreturn_calls();
    }
    let functions = (wanted(Section::Functions) && any_change).then(|| {
        say("function-level impact");
        // What the semantic section proved equivalent as a whole is no change here
        // either: what runs after it runs as before.
        let mut matching = matching.clone();
        if let Some(proved) = &proved_functions {
            for m in &mut matching.functions {
                if let (Some(o), Some(n)) = (m.old, m.new) {
                    if proved.proved.contains(&(o, n)) {
                        m.status = ripple_versions::FunctionStatus::Unchanged;
                    }
                }
            }
        }
        super::impact::function_level(
            old_version,
            new_version,
            &matching,
            ripple_report::sea::ExternalFunctions::AddressTaken,
        )
    });
    let impact = if wanted(Section::Impact) && any_change {
        say("impact");
        let options = super::impact::StatementOptions {
            dcia_only: false,
            whole_function_sources: false,
            semantic_level: None,
            budget: 0.0,
            depth: None,
            reduction: false,
            points_to: None,
            // What the semantic section proved equivalent impacts nothing outside it.
            proved_functions,
            ending: ending(args),
        };
        let versions = [&*old_version, &*new_version];
        let (view, _) = super::isolated(|| {
            let timer = super::StageTimer::new(args.frontend.verbose);
            super::impact::statement_impact(versions[0], versions[1], &options, cache, &timer)
        });
        Some(view)
    } else {
        None
    };
    // The impact section proved every changed statement to do what the old one did (the
    // changed regions leave alike, make the same calls and end in the same state): the
    // changed functions are equivalent, whatever the semantic budget decided.
    let mut semantic = semantic;
    if let (Some(view), Some(impact)) = (&mut semantic, &impact) {
        if impact.proved_equivalent {
            for f in view.functions.iter_mut().filter(|f| f.modified) {
                // Not through code the semantic analysis gives unknowns of each version's
                // own (inline assembly) or reads as plain memory (volatile objects): the
                // statement proof takes their results as equal.
                if f.verdict == "unknown" && f.unread.is_none() && !f.unmodelled {
                    f.verdict = "equivalent";
                    f.equal_when = Some("true".into());
                    f.differs_when = None;
                    f.non_termination_differs_when = None;
                    f.witnesses.clear();
                    f.notes = vec![
                        "every changed statement proved to do what the old one did (the impact section's proof)"
                            .into(),
                    ];
                }
            }
        }
    }
    Report {
        changes,
        show_changes: wanted(Section::Changes),
        all: args.all,
        functions,
        impact,
        semantic,
        invariants,
        not_run,
    }
}

/// Invariant diffs (003) at the exits of the functions changed in both versions, the
/// first [`INVARIANT_FUNCTIONS`] of them in the order of the new version; `None` when
/// no such function exists.
fn invariant_churns(
    [old, new]: [&crate::load::LoadedVersion; 2],
    matching: &ripple_versions::VersionMatch,
    args: &DiffArgs,
    not_run: &mut Vec<ripple_report::report::NotRun>,
) -> Option<ripple_report::invariants::InvariantsView> {
    use ripple_analyses::invariants::{
        invariant_diffs, At, Budget, InvariantConfig, Mvicfg, QueryLimits, Templates,
    };
    let programs = [old.program(), new.program()];
    let mut changed: Vec<(ripple_ir::FuncId, String)> = matching
        .changed()
        .filter(|m| m.body_changed)
        .filter_map(|m| Some((m.new?, programs[0].functions[m.old?].key.clone())))
        .collect();
    changed.sort();
    if changed.is_empty() {
        return None;
    }
    if changed.len() > INVARIANT_FUNCTIONS {
        not_run.push(ripple_report::report::NotRun {
            section: "invariants",
            reason: format!(
                "{} more changed function(s) past the first {INVARIANT_FUNCTIONS} were not tried (`ripple invariants OLD NEW --at FUNCTION` reaches them)",
                changed.len() - INVARIANT_FUNCTIONS
            ),
        });
        changed.truncate(INVARIANT_FUNCTIONS);
    }
    let graph = Mvicfg::build(&programs, &[matching]);
    let budget = std::time::Duration::from_secs_f64(args.budget.max(0.0));
    let cutoff = std::time::Duration::from_secs_f64(
        args.cutoff
            .unwrap_or(args.budget * f64::from(ripple_analyses::semdiff::CUTOFF_FACTOR))
            .max(0.0),
    );
    let config = InvariantConfig {
        versions: vec![0, 1],
        points: changed
            .iter()
            .map(|(_, key)| (key.clone(), At::Exit))
            .collect(),
        templates: Templates::default(),
        limits: QueryLimits {
            steps: ((INVARIANT_STEPS_PER_SECOND * args.budget.max(0.0) / changed.len() as f64)
                as usize)
                .clamp(INVARIANT_MIN_STEPS, QueryLimits::default().steps),
            ..QueryLimits::default()
        },
        budget: Budget {
            query: std::time::Duration::from_secs(2).min(budget),
            total: budget,
            cutoff: Some(cutoff),
        },
        // Each version of each point its share of the whole.
        per_point: budget / (2 * changed.len() as u32),
    };
    match invariant_diffs(&programs, &graph, &config) {
        Ok(diff) => {
            let names = [old.sources.label.clone(), new.sources.label.clone()];
            Some(ripple_report::invariants::invariants_view(
                &diff,
                &names,
                &[0, 1],
                None,
            ))
        }
        Err(message) => {
            not_run.push(ripple_report::report::NotRun {
                section: "invariants",
                reason: message,
            });
            None
        }
    }
}
