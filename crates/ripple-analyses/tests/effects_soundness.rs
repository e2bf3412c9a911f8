//! The soundness harness of static state requirements (PROP, 002 section 5.2): a chain
//! whose state requirement is said to be infeasible is propagated by no run.
//!
//! Pairs: operator, constant and statement mutants of the conformance corpus
//! (`tests/corpus/*.c`), run on the corpus RUN lines. For each change, its chains to
//! distance 3, the state requirements of the nearest few in the chain's version (and,
//! for a chain both versions have, in the old one too), and the runs of both versions
//! monitored. A state requirement proved infeasible says that no input covering the
//! chain makes the state after its last statement differ; a run that propagates a
//! difference along a longer chain through that statement (the affecting state of
//! every dependence differs, that statement's own included) contradicts it. So every
//! extension of an infeasible chain must have no run of that version propagating it.
//! (The chain itself may be propagated: propagation looks at the states its
//! dependences start from, and its last statement may mask the difference.) Runs that do
//! not end normally in both versions are left out. Zero violations allowed.

mod mutants;

use rayon::prelude::*;

use ripple_analyses::dcia::Side;
use ripple_analyses::effects::{
    assess, monitor_configs, old_state, requirements, state_requirement, ChainLimits, ChangeSet,
    FilePair, Monitor, StateLimits, StateRequirement, TestRun,
};
use ripple_dataflow::{Sdg, SdgConfig};
use ripple_interp::{run_program_observed, RunConfig, Termination};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

use mutants::{lower, mutants, preprocess_text};

/// Programs left out unless named by `RIPPLE_HARNESS_ONLY`: the larger programs' runs
/// are long (with them the harness passes too: release build, 30 more pairs).
const SLOW: &[&str] = &["larger/"];

/// Chains per change whose state requirements are computed (the nearest first).
const STATES_PER_CHANGE: usize = 4;

/// The path of the program's file whose name ends with `name`.
fn main_file(program: &Program, name: &str) -> Option<String> {
    program
        .files
        .iter()
        .map(|f| f.path.clone())
        .find(|p| p.ends_with(name))
}

/// Checks one pair; returns (requirements proved infeasible, compared runs, violations).
fn check_pair(
    label: &str,
    (old, old_text, old_name): (&Program, &str, &str),
    (new, new_text): (&Program, &str),
    inputs: &[(Vec<String>, Vec<u8>)],
) -> (usize, usize, Vec<String>) {
    let matching = match_programs(old, new, &MatchConfig::default());
    let (Some(old_path), Some(new_path)) = (main_file(old, old_name), main_file(new, "prog.c"))
    else {
        return (0, 0, Vec::new());
    };
    let files = vec![FilePair {
        old_path: Some(old_path),
        new_path: Some(new_path),
        old_text: old_text.to_string(),
        new_text: new_text.to_string(),
    }];
    let set = ChangeSet::build(old, new, &matching, files);
    let (old_sdg, new_sdg) = (
        Sdg::build(old, &SdgConfig::default()),
        Sdg::build(new, &SdgConfig::default()),
    );
    let limits = ChainLimits {
        distance: 3,
        ..ChainLimits::default()
    };
    let t = std::time::Instant::now();
    let reqs = requirements(old, new, &old_sdg, &new_sdg, &set, limits);
    let verbose = std::env::var_os("RIPPLE_HARNESS_VERBOSE").is_some();
    if verbose {
        eprintln!("{label}: requirements {:.1?}", t.elapsed());
    }
    let t = std::time::Instant::now();
    // The state requirements said to be infeasible: (change, requirement, in the old
    // version's runs).
    // A small solver budget: an undecided requirement is "unknown", never "infeasible".
    let state_limits = StateLimits {
        budget: std::time::Duration::from_millis(200),
        ..StateLimits::default()
    };
    let mut infeasible: Vec<(usize, usize, bool)> = Vec::new();
    for (c, change) in reqs.changes.iter().enumerate() {
        for (i, r) in change.chains.iter().take(STATES_PER_CHANGE).enumerate() {
            let own = match r.side {
                Some(Side::Old) => {
                    state_requirement(old, new, &r.chain, &set.old_to_new, state_limits)
                }
                _ => state_requirement(new, old, &r.chain, &set.new_to_old, state_limits),
            };
            if matches!(own, StateRequirement::Infeasible) {
                infeasible.push((c, i, r.side == Some(Side::Old)));
            }
            if let Some(StateRequirement::Infeasible) = old_state(old, new, r, &set, state_limits) {
                infeasible.push((c, i, true));
            }
        }
    }
    if verbose {
        eprintln!("{label}: states {:.1?}", t.elapsed());
    }
    if infeasible.is_empty() {
        return (0, 0, Vec::new());
    }
    let (old_cfg, new_cfg) = monitor_configs(&reqs, &set, 100_000);
    let mut runs = Vec::new();
    for (args, stdin) in inputs {
        let config = RunConfig {
            args: args.clone(),
            stdin: stdin.clone(),
            max_steps: 200_000,
            ..RunConfig::default()
        };
        let mut old_m = Monitor::new(old, &old_cfg);
        let old_out = run_program_observed(old, &config, &mut old_m);
        let mut new_m = Monitor::new(new, &new_cfg);
        let new_out = run_program_observed(new, &config, &mut new_m);
        let normal = |t: &Termination| matches!(t, Termination::Exit(_) | Termination::Abort);
        if !normal(&old_out.termination) || !normal(&new_out.termination) {
            continue;
        }
        runs.push(TestRun {
            differs: old_out.stdout != new_out.stdout || old_out.exit_code() != new_out.exit_code(),
            old: old_m.trace,
            new: new_m.trace,
        });
    }
    let assessment = assess(&reqs, &set, &runs);
    let mut violations = Vec::new();
    for &(c, i, in_old) in &infeasible {
        let chains = &reqs.changes[c].chains;
        let r = &chains[i];
        // The chains that extend this one by more dependences: a run propagating one
        // of them has the state after this chain's last statement differ (what that
        // statement assigned or decided, and the next one reads).
        for (j, e) in chains.iter().enumerate() {
            if e.side != r.side
                || e.chain.deps.len() <= r.chain.deps.len()
                || e.chain.deps[..r.chain.deps.len()] != r.chain.deps[..]
            {
                continue;
            }
            let result = &assessment.changes[c].requirements[j];
            // The lists are the chain's own version's, and the old version's for a
            // chain both versions have.
            let propagated = match (in_old, r.side) {
                (true, None) => &result.old_propagated_by,
                _ => &result.propagated_by,
            };
            if !propagated.is_empty() {
                violations.push(format!(
                    "{label}: change {c} chain {i} ({} version) infeasible, but its extension {j} is propagated by runs {propagated:?}",
                    if in_old { "old" } else { "new" }
                ));
            }
        }
    }
    (infeasible.len(), runs.len(), violations)
}

#[test]
fn infeasible_state_requirements_are_propagated_by_no_run() {
    let corpus = ripple_conformance::load_corpus().expect("corpus");
    let results: Vec<(usize, usize, usize, Vec<String>)> = corpus
        .par_iter()
        .map(|program| {
            let mut out = (0, 0, 0, Vec::new());
            if let Ok(only) = std::env::var("RIPPLE_HARNESS_ONLY") {
                if !program.name.contains(&only) {
                    return out;
                }
            } else if SLOW.iter().any(|s| program.name.starts_with(s)) {
                return out;
            }
            let source = std::fs::read_to_string(&program.path).unwrap();
            let Ok(old_pp) = ripple_conformance::preprocess(&program.path) else {
                return out;
            };
            let Some(old) = lower(&old_pp, "prog.c") else {
                return out;
            };
            let name = program
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            let inputs: Vec<(Vec<String>, Vec<u8>)> = program
                .runs
                .iter()
                .map(|r| (r.args.clone(), r.stdin.clone()))
                .collect();
            for (label, mutant) in mutants(&source, 2) {
                let kind = label.split('@').next().unwrap_or("");
                if !matches!(kind, "operator" | "constant" | "statement") {
                    continue;
                }
                let Some(new_pp) = preprocess_text(&mutant, &program.path) else {
                    continue;
                };
                let Some(new) = lower(&new_pp, "prog.c") else {
                    continue;
                };
                let started = std::time::Instant::now();
                let (infeasible, runs, violations) = check_pair(
                    &format!("{} {label}", program.name),
                    (&old, &source, &name),
                    (&new, &mutant),
                    &inputs,
                );
                if std::env::var_os("RIPPLE_HARNESS_VERBOSE").is_some() {
                    eprintln!("{} {label}: {:.1?}", program.name, started.elapsed());
                }
                out.0 += 1;
                out.1 += infeasible;
                out.2 += runs;
                out.3.extend(violations);
            }
            out
        })
        .collect();
    let pairs: usize = results.iter().map(|r| r.0).sum();
    let infeasible: usize = results.iter().map(|r| r.1).sum();
    let runs: usize = results.iter().map(|r| r.2).sum();
    let violations: Vec<&String> = results.iter().flat_map(|r| &r.3).collect();
    eprintln!(
        "{pairs} mutant pairs; {infeasible} state requirements proved infeasible, checked on {runs} runs"
    );
    // The harness must check something: infeasible requirements exist among these pairs.
    assert!(infeasible > 0, "no state requirement was proved infeasible");
    assert!(
        violations.is_empty(),
        "{} violation(s):\n{violations:#?}",
        violations.len()
    );
}
