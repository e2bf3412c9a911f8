//! `ripple effects OLD NEW --tests SUITE`: what a test suite exercises of a change (002
//! chapters 5-6): per change its dependence chains to distance `d` (CHAIN
//! requirements), which tests cover them and which propagate a difference along them
//! (PROP), the STMT, BR and DU baselines, the tests that reveal a difference and those
//! that add nothing. `--static` lists the requirements without running anything.
//!
//! `ripple tests OLD NEW --tests SUITE --select`: regression test selection, the tests
//! that run a changed statement in either version, each with its reason.
//!
//! Exit codes: `effects` 0 when every change is run and every chain covered, 1 when
//! something is untested; `tests` 0 when no test is selected, 1 otherwise; 2 on error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use ripple_analyses::dcia::Side;
use ripple_analyses::effects::{
    adequacy, assess_satisfied, monitor_configs, old_state, requirements, satisfied,
    state_requirement, ChainLimits, ChainTrie, ChangeSet, FilePair, MonitorConfig, Requirements,
    StateLimits, StateRequirement, States, TestRun,
};
use ripple_dataflow::{Sdg, SdgConfig};
use ripple_report::effects::{SelectedTest, SelectionView, TestView};
use rustc_hash::FxHashSet;

use crate::cli::{Format, FrontendArgs};
use crate::generate::Generator;
use crate::load::{report_diagnostics, LoadedVersion, VersionSpec};
use crate::suite::{build, run_suite, Build, Suite, SuiteRun, TestResult};

#[derive(Debug, Args)]
pub struct EffectsArgs {
    /// The old version: a C file, a directory or a git revision.
    pub old: String,
    /// The new version.
    pub new: String,
    /// The test suite: one test per line, arguments and an optional `< input-file`.
    #[arg(long, value_name = "SUITE", required_unless_present = "static_only")]
    pub tests: Option<PathBuf>,
    /// Longest dependence chain, in dependences.
    #[arg(long, default_value_t = 3)]
    pub distance: usize,
    /// Only the requirements of each change, without running tests.
    #[arg(long = "static")]
    pub static_only: bool,
    /// `l`: the longest path, in statements, of the partial symbolic execution that
    /// computes each chain's state requirement (0: none computed).
    #[arg(long, default_value_t = StateLimits::default().path_length)]
    pub path_length: usize,
    /// State requirements computed per change, nearest chains first.
    #[arg(long, default_value_t = 50)]
    pub max_states: usize,
    /// Solver budget of the state requirements, in seconds of deterministic work (solver
    /// resource units: the same input gives the same answer on any machine), shared
    /// equally by the requirements computed (at most 2 s each); what it does not decide
    /// is reported as unknown.
    #[arg(long, default_value_t = 20.0)]
    pub budget: f64,
    #[command(flatten)]
    pub run: RunArgs,
    /// Also measure how often random suites drawn from SUITE that are adequate for each
    /// criterion (STMT, BR, DU, CHAIN, PROP) reveal a difference: N suites per change
    /// and criterion (002 Table 7).
    #[arg(long, value_name = "N")]
    pub adequacy: Option<usize>,
    /// SATISFYREQSDEMAND's generator: while CHAIN or PROP requirements are unsatisfied,
    /// draw up to N new tests (mutations of the suite's tests: numbers moved to
    /// neighbouring, boundary or scaled values, other arguments swapped, dropped or
    /// repeated) and keep each one that satisfies a requirement no test satisfied. It
    /// stops early when only PROP requirements with an infeasible state are left.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub generate: usize,
    /// Seed of the generator (the same seed draws the same tests).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Writes the generated tests kept to FILE, one suite line each.
    #[arg(long, value_name = "FILE", requires = "generate")]
    pub write_generated: Option<PathBuf>,
    /// List every requirement (by default the nearest ten of each kind per change).
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

#[derive(Debug, Args)]
pub struct TestsArgs {
    pub old: String,
    pub new: String,
    #[arg(long, value_name = "SUITE")]
    pub tests: PathBuf,
    /// List the tests that can see the change (regression test selection).
    #[arg(long, required = true)]
    pub select: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Builds a version: a shell command run in the version's source directory that
    /// writes the executable to `$OUT` (default: the C compiler on the version's C files).
    #[arg(long, value_name = "COMMAND")]
    pub build: Option<String>,
    /// Compare the interpreter's outputs instead of building the versions.
    #[arg(long)]
    pub no_build: bool,
    /// Seconds each test may run natively.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Interpreter steps (executed IR statements) each monitored run may take; a run
    /// that reaches the limit is monitored up to there, and the report says how many did.
    #[arg(long, default_value_t = 10_000_000)]
    pub steps: u64,
    /// With --verbose, also run every test in the interpreter unmonitored and report
    /// what monitoring costs.
    #[arg(long)]
    pub measure_overhead: bool,
}

/// Both versions loaded and matched, with their changes.
pub(crate) struct Versions {
    pub(crate) old: LoadedVersion,
    pub(crate) new: LoadedVersion,
    pub(crate) set: ChangeSet,
    pub(crate) changed_globals: Vec<String>,
    /// The statements of each version that may read a changed initial value (`None`:
    /// any may, through a pointer).
    global_readers: [Option<FxHashSet<ripple_analyses::effects::NodeRef>>; 2],
    flags: Vec<String>,
    cc: String,
}

pub(crate) fn load(old: &str, new: &str, frontend: &FrontendArgs) -> Result<Option<Versions>> {
    let (old_spec, new_spec) = (VersionSpec::parse(old)?, VersionSpec::parse(new)?);
    // The tests run a program: a driver, never the library alone.
    let config = crate::load::LoadConfig {
        library_by_default: false,
        ..super::load_config(frontend, true)?
    };
    let (old, new) = super::load_both(&old_spec, &new_spec, &config)?;
    let errors =
        report_diagnostics(&old, frontend.verbose) + report_diagnostics(&new, frontend.verbose);
    if errors > 0 {
        eprintln!(
            "ripple: {errors} error(s) while reading the sources; the effects of a change are \
             observed on runs of the whole program, which would run code that could not be \
             read (give the build's flags: --compile-commands, -I, -D)"
        );
        return Ok(None);
    }
    let matching = ripple_versions::match_programs(
        old.program(),
        new.program(),
        &ripple_versions::MatchConfig::default(),
    );
    let files = file_pairs(&old, &new);
    let set = ChangeSet::build(old.program(), new.program(), &matching, files);
    // Every global, static locals included (whose initial values are theirs too).
    let modified: Vec<ripple_versions::GlobalMatch> =
        ripple_versions::match_all_globals(old.program(), new.program())
            .into_iter()
            .filter(|g| g.status == ripple_versions::GlobalStatus::Modified)
            .collect();
    let changed_globals = modified
        .iter()
        .filter_map(|g| g.new.map(|id| new.program().globals[id].name.clone()))
        .collect();
    let ids = |of: fn(&ripple_versions::GlobalMatch) -> Option<ripple_ir::GlobalId>| {
        modified.iter().filter_map(of).collect::<Vec<_>>()
    };
    let global_readers = if modified.is_empty() {
        [Some(FxHashSet::default()), Some(FxHashSet::default())]
    } else {
        [
            ripple_analyses::effects::global_readers(old.program(), &ids(|g| g.old)),
            ripple_analyses::effects::global_readers(new.program(), &ids(|g| g.new)),
        ]
    };
    Ok(Some(Versions {
        old,
        new,
        set,
        changed_globals,
        global_readers,
        flags: config.preprocess.flags.clone(),
        cc: config.preprocess.cc.clone(),
    }))
}

/// The files of both versions, paired by path (two single files pair with each other).
fn file_pairs(old: &LoadedVersion, new: &LoadedVersion) -> Vec<FilePair> {
    let read = |v: &LoadedVersion, f: &Path| {
        std::fs::read_to_string(v.sources.root.join(f)).unwrap_or_default()
    };
    let name = |f: &Path| f.to_string_lossy().replace('\\', "/");
    let (of, nf) = (&old.sources.files, &new.sources.files);
    if of.len() == 1 && nf.len() == 1 {
        return vec![FilePair {
            old_path: Some(name(&of[0])),
            new_path: Some(name(&nf[0])),
            old_text: read(old, &of[0]),
            new_text: read(new, &nf[0]),
        }];
    }
    let mut out = Vec::new();
    for f in of {
        let in_new = nf.contains(f);
        out.push(FilePair {
            old_path: Some(name(f)),
            new_path: in_new.then(|| name(f)),
            old_text: read(old, f),
            new_text: if in_new { read(new, f) } else { String::new() },
        });
    }
    for f in nf.iter().filter(|f| !of.contains(f)) {
        out.push(FilePair {
            old_path: None,
            new_path: Some(name(f)),
            old_text: String::new(),
            new_text: read(new, f),
        });
    }
    out
}

/// Builds both versions into `work` unless told not to; `None` (with a note) when the
/// interpreter's outputs must be compared instead.
fn build_both(
    v: &Versions,
    run: &RunArgs,
    work: &Path,
    notes: &mut Vec<String>,
) -> Option<[PathBuf; 2]> {
    if run.no_build {
        notes.push("outputs compared in ripple's interpreter (--no-build)".into());
        return None;
    }
    let mut exes = Vec::new();
    for (label, version) in [("old", &v.old), ("new", &v.new)] {
        let exe = work.join(format!("{label}.exe"));
        // One compiler run builds every file: with the flags the compilation database
        // gives its files (include directories, macros; each once), then the command
        // line's.
        let mut flags: Vec<String> = Vec::new();
        for unit in &version.program_units {
            let mut args = unit.flags.iter();
            while let Some(a) = args.next() {
                let pair = matches!(a.as_str(), "-I" | "-D" | "-U" | "-include" | "-isystem");
                let item = match (pair, args.clone().next()) {
                    (true, Some(value)) => {
                        args.next();
                        vec![a.clone(), value.clone()]
                    }
                    _ if ["-I", "-D", "-U", "-isystem", "-std="]
                        .iter()
                        .any(|p| a.starts_with(p)) =>
                    {
                        vec![a.clone()]
                    }
                    _ => continue,
                };
                if !flags.windows(item.len()).any(|w| w == item.as_slice()) {
                    flags.extend(item);
                }
            }
        }
        flags.extend(version.sources.own_flags(&v.flags));
        // The tree's root last, as the analysis' preprocessor has it.
        flags.push("-I.".into());
        let b = Build {
            root: version.sources.root.clone(),
            units: version.program_files.clone(),
            flags,
            cc: v.cc.clone(),
            command: run.build.clone(),
        };
        if let Err(e) = build(&b, &exe) {
            eprintln!(
                "ripple: warning: the {label} version: {e}; comparing the interpreter's outputs"
            );
            notes.push(format!(
                "the {label} version could not be built ({e}); outputs compared in ripple's interpreter"
            ));
            return None;
        }
        exes.push(exe);
    }
    let [a, b]: [PathBuf; 2] = exes.try_into().ok()?;
    Some([a, b])
}

/// Generated tests run together (in parallel) before the generator draws again.
const GENERATED_BATCH: usize = 16;

/// The requirements a test satisfies, as (change, requirement, what) over all changes:
/// what is 0 for CHAIN and 1 for PROP, 2 and 3 for the same of a chain both versions
/// have in the old version's runs (002's requirements are each program's).
fn requirement_keys(
    sat: &[ripple_analyses::effects::Satisfied],
) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
    sat.iter().enumerate().flat_map(|(c, s)| {
        [&s.chains, &s.props, &s.old_chains, &s.old_props]
            .into_iter()
            .zip(0u8..)
            .flat_map(move |(list, what)| list.iter().map(move |&r| (c, r, what)))
    })
}

/// What each monitored test satisfies, with its view, in the order the tests ran.
#[derive(Default)]
struct Collected {
    tests: Vec<TestView>,
    /// Indexes into `tests` of the monitored ones; the lists below follow them.
    monitored: Vec<usize>,
    per_test: Vec<Vec<ripple_analyses::effects::Satisfied>>,
    revealing: Vec<bool>,
    /// Dependence occurrences past the per-run limit.
    dropped: u64,
}

impl Collected {
    fn add(
        &mut self,
        test: usize,
        sat: Vec<ripple_analyses::effects::Satisfied>,
        differs: bool,
        lost: u64,
    ) {
        self.monitored.push(test);
        self.per_test.push(sat);
        self.revealing.push(differs);
        self.dropped += lost;
    }
}

/// What a monitored run satisfies, and how many dependence occurrences it dropped.
type Digest<'a> =
    dyn Fn(&mut TestResult) -> Option<(Vec<ripple_analyses::effects::Satisfied>, u64)> + Sync + 'a;

/// How a batch of tests runs: both versions built, monitored, each run digested into
/// what it satisfies and how many occurrences it dropped.
struct Monitored<'a> {
    v: &'a Versions,
    built: &'a Built,
    configs: [&'a MonitorConfig; 2],
    digest: &'a Digest<'a>,
}

/// SATISFYREQSDEMAND's generator (`--generate N`): while requirements are left that some
/// test could satisfy, draws batches of tests from the suite's mutations, runs them, and
/// adds each one that satisfies a requirement no test had to `runs`, numbered after the
/// suite's last line.
fn generate_tests(
    args: &EffectsArgs,
    suite: &Suite,
    reqs: &Requirements,
    states: &[Vec<Option<States>>],
    how: &Monitored,
    runs: &mut Collected,
    notes: &mut Vec<String>,
) -> Result<ripple_report::effects::GeneratedView> {
    let total: usize = reqs
        .changes
        .iter()
        .flat_map(|c| &c.chains)
        .map(|r| if r.side.is_none() { 4 } else { 2 })
        .sum();
    let mut done: FxHashSet<(usize, usize, u8)> = runs
        .per_test
        .iter()
        .flat_map(|sat| requirement_keys(sat))
        .collect();
    // PROP of a chain whose static state requirement is infeasible cannot be satisfied
    // (in the version it is infeasible in): drawing stops once only such requirements
    // are left.
    let is_infeasible =
        |s: Option<&StateRequirement>| matches!(s, Some(StateRequirement::Infeasible));
    let infeasible: usize = states
        .iter()
        .enumerate()
        .flat_map(|(c, list)| list.iter().enumerate().map(move |(r, s)| (c, r, s)))
        .filter_map(|(c, r, s)| Some((c, r, s.as_ref()?)))
        .map(|(c, r, s)| {
            usize::from(is_infeasible(Some(&s.own)) && !done.contains(&(c, r, 1)))
                + usize::from(is_infeasible(s.old.as_ref()) && !done.contains(&(c, r, 3)))
        })
        .sum();
    let mut generator = Generator::new(&suite.tests, args.seed);
    let last = suite.tests.iter().map(|t| t.line).max().unwrap_or(0);
    let (mut drawn, mut kept) = (0, Vec::new());
    let mut batch_notes = Vec::new();
    while drawn < args.generate && done.len() + infeasible < total {
        let want = GENERATED_BATCH.min(args.generate - drawn);
        let batch: Vec<_> = (0..want).map_while(|_| generator.draw()).collect();
        if batch.is_empty() {
            break;
        }
        drawn += batch.len();
        let batch = Suite {
            tests: batch,
            dir: suite.dir.clone(),
        };
        let results = run_tests(
            how.v,
            how.built,
            &batch,
            &args.run,
            how.configs,
            &mut batch_notes,
            false,
            how.digest,
        )?;
        let views = test_views(&batch, &results);
        for ((mut test, mut view), (r, d)) in batch.tests.into_iter().zip(views).zip(results) {
            let Some((sat, lost)) = d else { continue };
            let new: Vec<_> = requirement_keys(&sat)
                .filter(|k| !done.contains(k))
                .collect();
            if new.is_empty() {
                continue;
            }
            done.extend(new);
            test.line = last + kept.len() + 1;
            view.line = test.line;
            runs.tests.push(view);
            runs.add(runs.tests.len() - 1, sat, r.differs(), lost);
            kept.push(test);
        }
    }
    batch_notes.sort();
    batch_notes.dedup();
    notes.extend(
        batch_notes
            .into_iter()
            .map(|n| format!("generated tests: {n}")),
    );
    let written_to = match &args.write_generated {
        Some(path) => {
            let text: String = kept.iter().map(|t| format!("{}\n", t.text)).collect();
            std::fs::write(path, text).map_err(|e| {
                anyhow::anyhow!("{}: cannot write the generated tests: {e}", path.display())
            })?;
            Some(path.display().to_string())
        }
        None => None,
    };
    Ok(ripple_report::effects::GeneratedView {
        budget: args.generate,
        seed: args.seed,
        drawn,
        kept: kept.iter().map(|t| t.line).collect(),
        unsatisfied: total - done.len(),
        written_to,
    })
}

/// Both versions built once (unless `--no-build` or a build fails), for the suite and
/// the generated tests.
struct Built {
    _work: tempfile::TempDir,
    exes: Option<[PathBuf; 2]>,
}

impl Built {
    fn new(v: &Versions, run: &RunArgs, notes: &mut Vec<String>) -> Result<Built> {
        let work = tempfile::tempdir()?;
        let exes = build_both(v, run, work.path(), notes);
        Ok(Built { _work: work, exes })
    }
}

#[allow(clippy::too_many_arguments)]
fn run_tests<D: Send>(
    v: &Versions,
    built: &Built,
    suite: &Suite,
    run: &RunArgs,
    configs: [&MonitorConfig; 2],
    notes: &mut Vec<String>,
    verbose: bool,
    digest: &(dyn Fn(&mut TestResult) -> D + Sync),
) -> Result<Vec<(TestResult, D)>> {
    let exes_ref = built.exes.as_ref().map(|[a, b]| [a.as_path(), b.as_path()]);
    let progress = crate::progress::Progress::bar(suite.tests.len() as u64);
    progress.stage("tests run on both versions");
    let how = SuiteRun {
        programs: [v.old.program(), v.new.program()],
        configs,
        exes: exes_ref,
        timeout: Duration::from_secs_f64(run.timeout.max(0.001)),
        max_steps: run.steps,
        time_plain: run.measure_overhead,
    };
    let results = run_suite(suite, &how, &|| progress.inc(), digest);
    drop(progress);
    if verbose {
        let sum = |f: &dyn Fn(&crate::suite::Times) -> Option<Duration>| -> Option<f64> {
            let mut total = 0.0;
            for (r, _) in &results {
                for t in [&r.old.times, &r.new.times] {
                    total += f(t)?.as_secs_f64();
                }
            }
            Some(total)
        };
        let n = (2 * results.len()).max(1) as f64;
        let native = sum(&|t| Some(t.native)).unwrap_or(0.0);
        let monitored = sum(&|t| Some(t.monitored)).unwrap_or(0.0);
        eprintln!(
            "ripple: {} runs: built {:.3} ms each, interpreted and monitored {:.3} ms each",
            2 * results.len(),
            1000.0 * native / n,
            1000.0 * monitored / n
        );
        if let Some(plain) = sum(&|t| t.plain) {
            eprintln!(
                "ripple: interpreted without monitoring {:.3} ms each: monitoring costs {:.0}%",
                1000.0 * plain / n,
                100.0 * (monitored - plain) / plain.max(1e-9)
            );
        }
    }
    let disagree = results
        .iter()
        .filter(|(r, _)| r.old.interp_disagrees() || r.new.interp_disagrees())
        .count();
    let cut = results
        .iter()
        .filter(|(r, _)| r.old.interp.end == "timeout" || r.new.interp.end == "timeout")
        .count();
    if cut > 0 {
        notes.push(format!(
            "{cut} test(s) reached the interpreter's step limit (--steps {}); their monitoring covers the run up to there",
            run.steps
        ));
    }
    if disagree > 0 {
        notes.push(format!(
            "{disagree} test(s) ended otherwise in ripple's interpreter than in the built program (other output, or a trap where the built program ran on); their monitoring may not reflect the real run"
        ));
    }
    Ok(results)
}

fn test_views<D>(suite: &Suite, results: &[(TestResult, D)]) -> Vec<TestView> {
    suite
        .tests
        .iter()
        .zip(results)
        .map(|(t, (r, _))| {
            let not_monitored = [&r.old, &r.new]
                .iter()
                .find(|v| !v.monitored)
                .map(|v| v.interp.end.clone());
            TestView {
                line: t.line,
                command: t.text.clone(),
                old: r.old.outcome().end.clone(),
                new: r.new.outcome().end.clone(),
                differs: r.differs(),
                not_monitored,
            }
        })
        .collect()
}

pub fn run_effects(args: &EffectsArgs) -> Result<u8> {
    if args.distance == 0 {
        bail!("--distance must be at least 1");
    }
    let suite = match (&args.tests, args.static_only) {
        (Some(path), false) => Some(Suite::read(path)?),
        _ => None,
    };
    let Some(v) = load(&args.old, &args.new, &args.frontend)? else {
        return Ok(2);
    };
    let (old_sdg, new_sdg) = rayon::join(
        || Sdg::build(v.old.program(), &SdgConfig::default()),
        || Sdg::build(v.new.program(), &SdgConfig::default()),
    );
    let limits = ChainLimits {
        distance: args.distance,
        ..ChainLimits::default()
    };
    let reqs = requirements(
        v.old.program(),
        v.new.program(),
        &old_sdg,
        &new_sdg,
        &v.set,
        limits,
    );
    let states = static_states(&v, &reqs, args);
    let mut notes = Vec::new();
    if !v.changed_globals.is_empty() {
        notes.push(format!(
            "changed initial values ({}) have no chains of their own; their readers are not requirements",
            v.changed_globals.join(", ")
        ));
    }
    let programs = [v.old.program(), v.new.program()];
    let (view, code) = match &suite {
        None => {
            notes.push(
                "whether tests satisfy the requirements is measured on runs: pass --tests SUITE"
                    .into(),
            );
            let view =
                ripple_report::effects::effects_view(programs, &v.set, &reqs, None, &states, notes);
            (view, 0)
        }
        Some(suite) => {
            let (old_cfg, new_cfg) = monitor_configs(&reqs, &v.set, 1_000_000);
            let tries = ChainTrie::of(&reqs);
            // Each test's traces are reduced to what it satisfies as soon as it has run.
            let digest = |r: &mut TestResult| {
                let differs = r.differs();
                let (old, new) = (r.old.trace.take()?, r.new.trace.take()?);
                let dropped = old.dropped + new.dropped;
                let run = TestRun { old, new, differs };
                Some((satisfied(&reqs, &tries, &v.set, &run), dropped))
            };
            let built = Built::new(&v, &args.run, &mut notes)?;
            let results = run_tests(
                &v,
                &built,
                suite,
                &args.run,
                [&old_cfg, &new_cfg],
                &mut notes,
                args.frontend.verbose,
                &digest,
            )?;
            let mut runs = Collected {
                tests: test_views(suite, &results),
                ..Collected::default()
            };
            for (i, (r, d)) in results.into_iter().enumerate() {
                if let Some((sat, lost)) = d {
                    runs.add(i, sat, r.differs(), lost);
                }
            }
            let generated = if args.generate > 0 {
                let how = Monitored {
                    v: &v,
                    built: &built,
                    configs: [&old_cfg, &new_cfg],
                    digest: &digest,
                };
                Some(generate_tests(
                    args, suite, &reqs, &states, &how, &mut runs, &mut notes,
                )?)
            } else {
                None
            };
            let Collected {
                tests,
                monitored,
                per_test,
                revealing,
                dropped,
            } = runs;
            if dropped > 0 {
                notes.push(format!(
                    "{dropped} dependence occurrences past the per-run limit were not recorded"
                ));
            }
            let assessment = assess_satisfied(&reqs, &per_test, &revealing);
            let mut view = ripple_report::effects::effects_view(
                programs,
                &v.set,
                &reqs,
                Some((&assessment, &monitored, &tests)),
                &states,
                notes,
            );
            if let Some(suite) = &mut view.suite {
                suite.generated = generated;
            }
            if let Some(n) = args.adequacy {
                let rows = adequacy(&per_test, &revealing, reqs.changes.len(), n, 1);
                view.adequacy = Some(ripple_report::effects::adequacy_view(&rows, &v.set, n));
            }
            let untested = view.changes.iter().any(|c| {
                c.coverage.as_ref().is_some_and(|cov| {
                    cov.run_by.is_empty() || cov.chain.satisfied < cov.chain.total
                })
            });
            (view, u8::from(untested))
        }
    };
    match args.format {
        Format::Json => print!("{}", ripple_report::effects::render_json(&view)),
        _ => crate::style::print_text(&ripple_report::effects::render_text(&view, args.all)),
    }
    Ok(code)
}

/// The static state requirements of the nearest `max_states` chains of each change.
fn static_states(
    v: &Versions,
    reqs: &Requirements,
    args: &EffectsArgs,
) -> Vec<Vec<Option<States>>> {
    use rayon::prelude::*;
    let count: usize = reqs
        .changes
        .iter()
        .map(|c| c.chains.len().min(args.max_states))
        .sum();
    let share = (args.budget.max(0.0) / count.max(1) as f64).clamp(0.01, 2.0);
    let limits = StateLimits {
        path_length: args.path_length,
        budget: Duration::from_secs_f64(share),
        ..StateLimits::default()
    };
    let (old, new) = (v.old.program(), v.new.program());
    reqs.changes
        .iter()
        .map(|cr| {
            cr.chains
                .par_iter()
                .enumerate()
                .map(|(i, r)| {
                    if args.path_length == 0 || i >= args.max_states {
                        return None;
                    }
                    // Each requirement with a solver context of its own: which worker
                    // solves it, and what that worker solved before, changes nothing.
                    Some(super::isolated(|| {
                        let own = match r.side {
                            Some(Side::Old) => {
                                state_requirement(old, new, &r.chain, &v.set.old_to_new, limits)
                            }
                            _ => state_requirement(new, old, &r.chain, &v.set.new_to_old, limits),
                        };
                        States {
                            own,
                            old: old_state(old, new, r, &v.set, limits),
                        }
                    }))
                })
                .collect()
        })
        .collect()
}

pub fn run_tests_command(args: &TestsArgs) -> Result<u8> {
    let suite = Suite::read(&args.tests)?;
    let Some(v) = load(&args.old, &args.new, &args.frontend)? else {
        return Ok(2);
    };
    let mut notes = Vec::new();
    // Coverage only: the changed statements are the roots, nothing is followed.
    let mut configs = [MonitorConfig::default(), MonitorConfig::default()];
    for c in &v.set.changes {
        configs[0]
            .roots
            .extend(c.old_nodes.iter().map(|&n| (n, c.id)));
        configs[1]
            .roots
            .extend(c.new_nodes.iter().map(|&n| (n, c.id)));
    }
    for c in &mut configs {
        c.max_occurrences = 1;
    }
    let built = Built::new(&v, &args.run, &mut notes)?;
    let results = run_tests(
        &v,
        &built,
        &suite,
        &args.run,
        [&configs[0], &configs[1]],
        &mut notes,
        args.frontend.verbose,
        &|_| (),
    )?;
    let changed_functions: [FxHashSet<ripple_ir::FuncId>; 2] = [
        v.set
            .changes
            .iter()
            .flat_map(|c| c.old_nodes.iter().map(|n| n.0))
            .collect(),
        v.set
            .changes
            .iter()
            .flat_map(|c| c.new_nodes.iter().map(|n| n.0))
            .collect(),
    ];
    let changed_lines = changed_lines(&v);
    // Whether a run of each version may execute a change at all (a changed statement, or
    // a statement reading a changed initial value, in a function a run may reach): a run
    // the interpreter could not follow to its end is selected to be safe only then.
    let can_run_change: [bool; 2] = std::array::from_fn(|s| {
        let program = if s == 0 {
            v.old.program()
        } else {
            v.new.program()
        };
        let Some(runs) = ripple_analyses::effects::may_run(program) else {
            return true;
        };
        // A change with no statement in either version (a declaration only) is taken as
        // reachable.
        v.set
            .changes
            .iter()
            .any(|c| c.old_nodes.is_empty() && c.new_nodes.is_empty())
            || v.set
                .changes
                .iter()
                .flat_map(|c| if s == 0 { &c.old_nodes } else { &c.new_nodes })
                .any(|&(f, _)| runs[f.index()])
            || (!v.changed_globals.is_empty()
                && v.global_readers[s]
                    .as_ref()
                    .is_none_or(|readers| readers.iter().any(|(f, _)| runs[f.index()])))
    });
    let mut selected = Vec::new();
    let (mut by_function, mut by_line) = (0, 0);
    for (t, (r, ())) in suite.tests.iter().zip(&results) {
        let mut reasons = Vec::new();
        let mut function_hit = false;
        let mut line_hit = false;
        let mut reads_changed_global = false;
        for (side, run, program) in [
            ("old", &r.old, v.old.program()),
            ("new", &r.new, v.new.program()),
        ] {
            let s = usize::from(side == "new");
            match &run.trace {
                Some(trace) => {
                    reads_changed_global |= v.global_readers[s]
                        .as_ref()
                        .is_none_or(|readers| trace.executed.iter().any(|n| readers.contains(n)));
                    for &c in &trace.changes_run {
                        let change = &v.set.changes[c - 1];
                        let (file, line) = change.place(&v.set, [v.old.program(), v.new.program()]);
                        let reason = format!("runs ch{c} ({}, {file}:{line})", change.function);
                        if !reasons.contains(&reason) {
                            reasons.push(reason);
                        }
                    }
                    if trace.changes_run.is_empty()
                        && run.interp.end == "timeout"
                        && can_run_change[s]
                    {
                        // Monitored up to the step limit only: a change may run later.
                        reasons.push(format!(
                            "monitored up to the step limit only in the {side} version: selected to be safe"
                        ));
                        function_hit = true;
                        line_hit = true;
                    }
                    if trace.changes_run.is_empty() && run.interp_disagrees() && can_run_change[s] {
                        // The monitored run is not the real one: it may miss a change.
                        reasons.push(format!(
                            "the {side} version's interpreted run ended otherwise than the built program (other output, or a trap where it ran on): selected to be safe"
                        ));
                        function_hit = true;
                        line_hit = true;
                    }
                    function_hit |= trace
                        .executed
                        .iter()
                        .any(|n| changed_functions[s].contains(&n.0));
                    line_hit |= trace.executed.iter().any(|&(f, n)| {
                        let span = program.functions[f].nodes[n].span;
                        let file = program.files.get(span.file).map(|f| f.path.as_str());
                        file.is_some_and(|file| {
                            span.lines()
                                .any(|l| changed_lines[s].contains(&(file.to_string(), l)))
                        })
                    });
                }
                None if can_run_change[s] => {
                    reasons.push(format!(
                        "not monitored in the {side} version ({}): selected to be safe",
                        run.interp.end
                    ));
                    function_hit = true;
                    line_hit = true;
                }
                // No run of this version reaches a change: nothing to miss.
                None => {}
            }
        }
        // A run that executes no statement reading a changed initial value (by name,
        // when no address of it is kept) does not observe it.
        if !v.changed_globals.is_empty() && reads_changed_global {
            reasons.push(format!(
                "changed initial value of {}",
                v.changed_globals.join(", ")
            ));
            function_hit = true;
            line_hit = true;
        }
        by_function += usize::from(function_hit);
        by_line += usize::from(line_hit);
        if !reasons.is_empty() {
            selected.push(SelectedTest {
                line: t.line,
                command: t.text.clone(),
                reasons,
            });
        }
    }
    let revealing = suite
        .tests
        .iter()
        .zip(&results)
        .filter(|(_, (r, _))| r.differs())
        .map(|(t, _)| t.line)
        .collect();
    let view = SelectionView {
        schema: ripple_report::SCHEMA_VERSION,
        tests: suite.tests.len(),
        selected,
        revealing,
        by_function,
        by_line,
        notes,
    };
    match args.format {
        Format::Json => print!("{}", ripple_report::effects::render_selection_json(&view)),
        _ => crate::style::print_text(&ripple_report::effects::render_selection_text(&view)),
    }
    Ok(u8::from(!view.selected.is_empty()))
}

/// The changed lines of each version, (file, 1-based line).
fn changed_lines(v: &Versions) -> [FxHashSet<(String, u32)>; 2] {
    let mut out = [FxHashSet::default(), FxHashSet::default()];
    for c in &v.set.changes {
        for h in &c.hunks {
            let f = &v.set.files[h.file];
            if let Some(p) = &f.old_path {
                out[0].extend(h.old.clone().map(|l| (p.clone(), l as u32 + 1)));
            }
            if let Some(p) = &f.new_path {
                out[1].extend(h.new.clone().map(|l| (p.clone(), l as u32 + 1)));
            }
        }
    }
    out
}
