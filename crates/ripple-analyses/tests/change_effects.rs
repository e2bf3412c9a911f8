//! Change effects (002): the change model, dependence chains and their monitoring, on the
//! worked examples of the thesis (examples/change-effects-fig13 and -fig4).

use std::path::{Path, PathBuf};

use ripple_analyses::effects::{
    adequacy, assess, monitor_configs, requirements, satisfied, state::holds_at, state_requirement,
    ChainLimits, ChainTrie, ChangeSet, Criterion, DepKind, FilePair, Monitor, NodeRef,
    Requirements, StateLimits, StateRequirement, TestRun,
};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_dataflow::{Sdg, SdgConfig};
use ripple_interp::{run_program_observed, RunConfig};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

fn example(dir: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir)
        .join(file)
}

fn lower(path: &Path) -> (Program, String) {
    let text = std::fs::read_to_string(path).expect("example");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let unit = TranslationUnit::preprocessed(name, &text, str::to_string);
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    );
    (lowered.program, text)
}

struct Pair {
    old: Program,
    new: Program,
    set: ChangeSet,
    reqs: Requirements,
}

fn pair(dir: &str, old: &str, new: &str, distance: usize) -> Pair {
    let (old_p, old_text) = lower(&example(dir, old));
    let (new_p, new_text) = lower(&example(dir, new));
    let matching = match_programs(&old_p, &new_p, &MatchConfig::default());
    let files = vec![FilePair {
        old_path: Some(old.to_string()),
        new_path: Some(new.to_string()),
        old_text,
        new_text,
    }];
    let set = ChangeSet::build(&old_p, &new_p, &matching, files);
    let (old_sdg, new_sdg) = (
        Sdg::build(&old_p, &SdgConfig::default()),
        Sdg::build(&new_p, &SdgConfig::default()),
    );
    let limits = ChainLimits {
        distance,
        ..ChainLimits::default()
    };
    let reqs = requirements(&old_p, &new_p, &old_sdg, &new_sdg, &set, limits);
    Pair {
        old: old_p,
        new: new_p,
        set,
        reqs,
    }
}

/// The state requirement of a chain of the new version, at the default limits.
fn new_state(p: &Pair, chain: &ripple_analyses::effects::Chain) -> StateRequirement {
    state_requirement(
        &p.new,
        &p.old,
        chain,
        &p.set.new_to_old,
        StateLimits::default(),
    )
}

fn line(program: &Program, (f, n): NodeRef) -> u32 {
    program.functions[f].nodes[n].span.start_line
}

/// A chain as `(from line, to line, 'd' or 'c')` steps of the new version.
fn shape(program: &Program, deps: &[ripple_analyses::effects::Dep]) -> Vec<(u32, u32, char)> {
    deps.iter()
        .map(|d| {
            let k = if d.kind == DepKind::Data { 'd' } else { 'c' };
            (line(program, d.from), line(program, d.to), k)
        })
        .collect()
}

fn run_both(p: &Pair, args: &[String]) -> TestRun {
    let (old_cfg, new_cfg) = monitor_configs(&p.reqs, &p.set, 100_000);
    let config = RunConfig {
        args: args.to_vec(),
        ..RunConfig::default()
    };
    let mut old_m = Monitor::new(&p.old, &old_cfg);
    let old_out = run_program_observed(&p.old, &config, &mut old_m);
    let mut new_m = Monitor::new(&p.new, &new_cfg);
    let new_out = run_program_observed(&p.new, &config, &mut new_m);
    assert!(old_out.exit_code().is_some() && new_out.exit_code().is_some());
    TestRun {
        differs: old_out.stdout != new_out.stdout || old_out.exit_code() != new_out.exit_code(),
        old: old_m.trace,
        new: new_m.trace,
    }
}

/// 002 Fig. 13 and Table 8: program E and E1 (ch1: `if (x <= 2)` becomes `if (x > 2)`),
/// x, y in [1, 10]. Thesis statement k is on file line k + 7.
#[test]
fn figure_13_chains_coverage_and_propagation() {
    let p = pair("change-effects-fig13", "old.c", "new.c", 3);
    // One change: statement 1 (line 8). The first line's comment differs too but changes
    // no statement.
    assert_eq!(p.set.changes.len(), 1, "{:?}", p.set.changes);
    let ch1 = &p.set.changes[0];
    assert_eq!(ch1.line(&p.set).1, 8);
    assert_eq!(ch1.function, "E");
    let reqs = &p.reqs.changes[0];
    // Table 8: q1,1 q1,2, q2,1 q2,2, q3,1 .. q3,4; every chain exists in both versions
    // (the old condition's chains map onto the new one's).
    let shapes: Vec<Vec<(u32, u32, char)>> = reqs
        .chains
        .iter()
        .map(|r| shape(&p.new, &r.chain.deps))
        .collect();
    let q = |steps: &[(u32, u32, char)]| steps.to_vec();
    let q11 = q(&[(8, 9, 'c')]);
    let q12 = q(&[(8, 11, 'c')]);
    let q21 = q(&[(8, 9, 'c'), (9, 13, 'd')]);
    let q22 = q(&[(8, 11, 'c'), (11, 13, 'd')]);
    let q31 = q(&[(8, 9, 'c'), (9, 13, 'd'), (13, 14, 'c')]);
    let q32 = q(&[(8, 9, 'c'), (9, 13, 'd'), (13, 16, 'c')]);
    let q33 = q(&[(8, 11, 'c'), (11, 13, 'd'), (13, 14, 'c')]);
    let q34 = q(&[(8, 11, 'c'), (11, 13, 'd'), (13, 16, 'c')]);
    let expected = [&q11, &q12, &q21, &q22, &q31, &q32, &q33, &q34];
    assert_eq!(shapes.len(), 8, "{shapes:?}");
    for e in expected {
        assert!(shapes.contains(e), "missing {e:?} in {shapes:?}");
    }
    assert!(reqs.chains.iter().all(|r| r.side.is_none()));

    // All 100 inputs as one suite.
    let mut runs = Vec::new();
    for x in 1..=10 {
        for y in 1..=10 {
            runs.push(run_both(&p, &[x.to_string(), y.to_string()]));
        }
    }
    let a = assess(&p.reqs, &p.set, &runs);
    // ch1 changes the output iff y in [2, 3] (E adds 1 where E1 subtracts 1 and back).
    assert_eq!(a.revealing.len(), 20);
    let result = &a.changes[0];
    assert_eq!(result.run_by.len(), 100);
    let count = |shape: &Vec<(u32, u32, char)>| {
        let i = shapes.iter().position(|s| s == shape).unwrap();
        let r = &result.requirements[i];
        let revealing = |tests: &[usize]| tests.iter().filter(|t| runs[**t].differs).count();
        (
            r.covered_by.len(),
            revealing(&r.covered_by),
            r.propagated_by.len(),
            revealing(&r.propagated_by),
        )
    };
    // Table 8 (covering inputs, difference-revealing ones); PROP (propagated, revealing).
    // q1,1: x > 2 (80 inputs), revealing when y in [2, 3] (16); the decision of
    // statement 1 always differs from E's, so all 80 propagate to distance 1.
    assert_eq!(count(&q11), (80, 16, 80, 16));
    assert_eq!(count(&q12), (20, 4, 20, 4));
    assert_eq!(count(&q21), (80, 16, 80, 16));
    assert_eq!(count(&q22), (20, 4, 20, 4));
    // q3,1: x > 2 and y + 1 > 2 (72 inputs); E decides `y - 1 > 2` at statement 6, which
    // differs exactly when y in [2, 3]: PROP's state requirement admits those 16, all
    // revealing (002 section 5.2).
    assert_eq!(count(&q31), (72, 16, 16, 16));
    // q3,2: x > 2, y = 1: both versions print 0, no state differs at statement 6.
    assert_eq!(count(&q32), (8, 0, 0, 0));
    // q3,3: x <= 2, y >= 4: both print 1.
    assert_eq!(count(&q33), (14, 0, 0, 0));
    // q3,4: x <= 2, y <= 3: 6 inputs, 4 revealing (y in [2, 3]); PROP admits those 4.
    assert_eq!(count(&q34), (6, 4, 4, 4));
    // Each requirement is satisfied first by some test; the suite order is x-major, so
    // the kept tests are few.
    assert!(!a.kept.is_empty() && a.kept.len() <= 16, "{:?}", a.kept);

    // 002 section 5.2: random suites covering all chains to length 3 reveal the change
    // with probability 74.1%: one test per length-3 chain, and only q3,1 (16 of 72) and
    // q3,4 (4 of 6) can reveal: 1 - (56/72)(2/6) = 0.7407. STMT: any one test, 20%.
    // PROP: its suites must propagate along q3,1, and every such test reveals.
    let tries = ChainTrie::of(&p.reqs);
    let per_test: Vec<_> = runs
        .iter()
        .map(|r| satisfied(&p.reqs, &tries, &p.set, r))
        .collect();
    let revealing: Vec<bool> = runs.iter().map(|r| r.differs).collect();
    let rows = adequacy(&per_test, &revealing, 1, 4000, 7);
    let pct = |c: Criterion| {
        rows[0]
            .iter()
            .find(|a| a.criterion == c)
            .and_then(|a| a.detection)
            .unwrap()
    };
    assert!((pct(Criterion::Chain) - 74.07).abs() < 2.5, "{rows:?}");
    assert!((pct(Criterion::Stmt) - 20.0).abs() < 2.5, "{rows:?}");
    assert_eq!(pct(Criterion::Prop), 100.0);
}

/// 002 section 5.2, static: the state requirement of each chain of Fig. 13 by partial
/// symbolic execution, checked on the thesis's domain x, y in [1, 10]: it admits exactly
/// the inputs the monitored runs propagate (q3,1: x > 2 and y in [2, 3], "72 -> 16").
#[test]
fn figure_13_static_state_requirements() {
    let p = pair("change-effects-fig13", "old.c", "new.c", 3);
    let reqs = &p.reqs.changes[0];
    let shapes: Vec<Vec<(u32, u32, char)>> = reqs
        .chains
        .iter()
        .map(|r| shape(&p.new, &r.chain.deps))
        .collect();
    let admitted = |i: usize| -> (usize, bool, Vec<(String, String)>) {
        let r = new_state(&p, &reqs.chains[i].chain);
        let StateRequirement::Feasible { condition, witness } = r else {
            return (0, false, Vec::new());
        };
        let mut n = 0;
        for x in 1..=10u128 {
            for y in 1..=10u128 {
                let int = ripple_symex::term::Repr::Int {
                    bits: 32,
                    signed: true,
                };
                let inputs = rustc_hash::FxHashMap::from_iter([
                    (
                        std::sync::Arc::from("x"),
                        ripple_symex::term::Term::Int(x, int),
                    ),
                    (
                        std::sync::Arc::from("y"),
                        ripple_symex::term::Term::Int(y, int),
                    ),
                ]);
                if holds_at(&condition, &inputs).expect("decided") {
                    n += 1;
                }
            }
        }
        (n, true, witness)
    };
    let find = |steps: &[(u32, u32, char)]| shapes.iter().position(|s| s == steps).unwrap();
    // q3,1: E1 reaches 7 with x > 2 and y + 1 > 2; E's decision at 6 is y - 1 > 2.
    let (n, feasible, witness) = admitted(find(&[(8, 9, 'c'), (9, 13, 'd'), (13, 14, 'c')]));
    assert!(feasible);
    assert_eq!(n, 16);
    assert_eq!(witness.len(), 2, "{witness:?}");
    // q3,4: x <= 2, y in [2, 3].
    assert_eq!(
        admitted(find(&[(8, 11, 'c'), (11, 13, 'd'), (13, 16, 'c')])).0,
        4
    );
    // q3,2 and q3,3: no input of the domain (outside it, y + 1 wraps at INT_MAX, which
    // the bit-precise requirement does admit).
    assert_eq!(
        admitted(find(&[(8, 9, 'c'), (9, 13, 'd'), (13, 16, 'c')])).0,
        0
    );
    assert_eq!(
        admitted(find(&[(8, 11, 'c'), (11, 13, 'd'), (13, 14, 'c')])).0,
        0
    );
    // q1,1: E1 runs `++y` for x > 2, E runs it for x <= 2: control diverges on all 80.
    assert_eq!(admitted(find(&[(8, 9, 'c')])).0, 80);
    // q2,1: the decision at 6 differs: y + 1 > 2 against y - 1 > 2.
    assert_eq!(admitted(find(&[(8, 9, 'c'), (9, 13, 'd')])).0, 16);
}

/// 002 section 5.2: covering all chains of length 1 reveals ch1 with probability 36%:
/// one test with x > 2 (16 of 80 reveal) and one with x <= 2 (4 of 20):
/// 1 - (64/80)(16/20) = 0.36.
#[test]
fn figure_13_length_one_chains() {
    let p = pair("change-effects-fig13", "old.c", "new.c", 1);
    assert_eq!(p.reqs.changes[0].chains.len(), 2);
    let mut runs = Vec::new();
    for x in 1..=10 {
        for y in 1..=10 {
            runs.push(run_both(&p, &[x.to_string(), y.to_string()]));
        }
    }
    let tries = ChainTrie::of(&p.reqs);
    let per_test: Vec<_> = runs
        .iter()
        .map(|r| satisfied(&p.reqs, &tries, &p.set, r))
        .collect();
    let revealing: Vec<bool> = runs.iter().map(|r| r.differs).collect();
    let rows = adequacy(&per_test, &revealing, 1, 4000, 11);
    let chain = rows[0][3].clone();
    assert_eq!(chain.criterion, Criterion::Chain);
    assert!((chain.detection.unwrap() - 36.0).abs() < 2.5, "{chain:?}");
    assert!((chain.mean_size - 2.0).abs() < 1e-9);
}

/// 002 Fig. 4, section 3.1: the four changes, and the chains from ch2 (statement 4, line
/// 13) to statement 7 (line 18): through `r += a` (line 16) once to four times.
#[test]
fn figure_4_changes_and_chains() {
    let p = pair("change-effects-fig4", "old.c", "new.c", 5);
    let lines: Vec<u32> = p.set.changes.iter().map(|c| c.line(&p.set).1).collect();
    assert_eq!(lines, vec![10, 13, 18, 19]);
    // ch4 (print a) is an insertion: no old statement.
    assert!(p.set.changes[3].old_nodes.is_empty());
    let ch2 = &p.reqs.changes[1];
    let to_7: Vec<Vec<(u32, u32, char)>> = ch2
        .chains
        .iter()
        .filter(|r| line(&p.new, r.chain.end()) == 18)
        .map(|r| shape(&p.new, &r.chain.deps))
        .collect();
    let mut expected = Vec::new();
    for loops in 0..4 {
        let mut s = vec![(13, 16, 'd')];
        s.extend(std::iter::repeat_n((16, 16, 'd'), loops));
        s.push((16, 18, 'd'));
        expected.push(s);
    }
    assert_eq!(to_7, expected);
    // ch2 also reaches ch4's `print a` directly.
    assert!(ch2
        .chains
        .iter()
        .any(|r| shape(&p.new, &r.chain.deps) == vec![(13, 19, 'd')]));

    // The variants: P'\{ch4} is the old program with ch1-ch3 applied.
    let variant = p.set.variant(&[1, 2, 3]);
    assert_eq!(variant.len(), 1);
    let text = &variant[0].1;
    assert!(text.contains("r = n - 1;") && text.contains("a = 5;") && text.contains("r > -10"));
    assert!(text.contains("/* nothing */") && !text.contains("printf(\"%d\\n\", a)"));
    // With every change the variant is the new program.
    let all = p.set.variant(&[1, 2, 3, 4]);
    let new_text = std::fs::read_to_string(example("change-effects-fig4", "new.c")).unwrap();
    assert_eq!(all[0].1, new_text);
    // Every one of the 16 variants compiles (when a C compiler is installed).
    let dir = tempfile::tempdir().unwrap();
    for subset in 0u32..16 {
        let applied: Vec<usize> = (1..=4).filter(|c| subset & (1 << (c - 1)) != 0).collect();
        let file = dir.path().join(format!("v{subset}.c"));
        std::fs::write(&file, &p.set.variant(&applied)[0].1).unwrap();
        match std::process::Command::new("gcc")
            .args(["-fsyntax-only", "-Wall", "-Werror"])
            .arg(&file)
            .status()
        {
            Ok(status) => assert!(status.success(), "variant {applied:?} does not compile"),
            Err(_) => return,
        }
    }
}

/// A chain that crosses functions gets its state requirement over paths through the
/// calls (examples/change-effects-calls), checked on x in [-100, 100]. Memory is compared
/// by the stores each path makes.
/// ch1: `if (x > 3) note(x)` becomes `x >= 3`; `note` branches on `v % 2` and counts odd
/// values. Its branch runs in the new version only for x = 3 (for x > 3 both run it on
/// the same value, and what is live after it, `x`, is the same). Its increment of
/// `odd_seen` runs in the old version too for the odd x > 3, storing the same value at
/// the same address: only x = 3 (where the old version does not run it) is admitted.
/// ch2: `a = x + 1` becomes `x + 2`, `r = scale(a)` doubles it, then `if (r > 10)`.
/// `scale`'s result differs for every x (2x + 4 against 2x + 2). The decision differs
/// only for x = 4 (2x + 4 = 12 > 10, 2x + 2 = 10 is not), and memory really differs only
/// for x = 3, where the new version alone counts 3 as odd (running both versions: x = 3
/// prints `0 0` against `0 1`, x = 4 `0 0` against `1 0`, x = 5 `1 1` in both). But this
/// chain does not go through `note`, so a call of it is not followed and may write any
/// memory: every x >= 3, where the new version calls it, is admitted (x = 3 and x = 4
/// among them; nothing below 3, where neither version calls it and `scale`, which stores
/// nothing, leaves memory alone).
#[test]
fn state_requirements_of_chains_through_calls() {
    let p = pair("change-effects-calls", "old.c", "new.c", 3);
    let admitted = |change: usize, steps: &[(u32, u32, char)]| -> Vec<i128> {
        let reqs = &p.reqs.changes[change];
        let i = reqs
            .chains
            .iter()
            .position(|r| shape(&p.new, &r.chain.deps) == steps)
            .unwrap_or_else(|| panic!("no chain {steps:?}"));
        let r = new_state(&p, &reqs.chains[i].chain);
        let StateRequirement::Feasible { condition, .. } = r else {
            panic!("{steps:?}: {r:?}");
        };
        let int = ripple_symex::term::Repr::Int {
            bits: 32,
            signed: true,
        };
        (-100i128..=100)
            .filter(|&x| {
                let inputs = rustc_hash::FxHashMap::from_iter([(
                    std::sync::Arc::from("x"),
                    ripple_symex::term::Term::Int((x as u128) & 0xffff_ffff, int),
                )]);
                holds_at(&condition, &inputs).unwrap_or_else(|| panic!("{steps:?}: {condition:?}"))
            })
            .collect()
    };
    assert_eq!(admitted(0, &[(18, 19, 'c'), (19, 13, 'c')]), vec![3]);
    assert_eq!(
        admitted(0, &[(18, 19, 'c'), (19, 13, 'c'), (13, 14, 'c')]),
        vec![3]
    );
    assert_eq!(admitted(1, &[(20, 8, 'd')]).len(), 201);
    assert_eq!(admitted(1, &[(20, 8, 'd'), (8, 21, 'd')]).len(), 201);
    assert_eq!(
        admitted(1, &[(20, 8, 'd'), (8, 21, 'd'), (21, 22, 'd')]),
        (3..=100).collect::<Vec<_>>()
    );
}

/// A chain through functions none of which calls the others
/// (examples/change-effects-siblings): `pick`'s `i > n` becomes `i >= n`, and `run` passes
/// what `pick` returns to `walk` and `report`. The paths start at `run`, the function that
/// calls them all.
/// Into `walk`'s loop: the versions pick `n` (old) and `n - 1` (new) when
/// `n * ratio / 1000 == n`, and the loop then reads another `i` (whether or not it runs):
/// the requirement admits exactly those inputs.
/// Into `report`'s `return -1`: `run` calls `report` only for 0 < ratio < 1000 and
/// 0 < n < 1000, where `n * ratio / 1000 < n`: no input of `run` makes a difference there,
/// but `report` may have other callers, so the requirement is unknown, not infeasible.
#[test]
fn state_requirements_of_chains_through_functions_that_do_not_call_one_another() {
    let p = pair("change-effects-siblings", "old.c", "new.c", 4);
    let reqs = &p.reqs.changes[0];
    let state = |steps: &[(u32, u32, char)]| {
        let r = reqs
            .chains
            .iter()
            .find(|r| shape(&p.new, &r.chain.deps) == steps)
            .unwrap_or_else(|| panic!("no chain {steps:?}"));
        new_state(&p, &r.chain)
    };
    let into_walk = state(&[(7, 8, 'c'), (8, 9, 'd'), (9, 15, 'd')]);
    let StateRequirement::Feasible { condition, witness } = into_walk else {
        panic!("{into_walk:?}");
    };
    assert!(witness.iter().any(|(name, _)| name == "n"), "{witness:?}");
    let int = ripple_symex::term::Repr::Int {
        bits: 32,
        signed: true,
    };
    let value = |v: i32| ripple_symex::term::Term::Int(u128::from(v as u32), int);
    for n in -4..=4 {
        for ratio in [-1000, -1, 0, 1, 500, 999, 1000, 1001, 1999, 2000, 3000] {
            let inputs = rustc_hash::FxHashMap::from_iter([
                (std::sync::Arc::from("n"), value(n)),
                (std::sync::Arc::from("ratio"), value(ratio)),
            ]);
            let admitted = holds_at(&condition, &inputs).expect("decided on the inputs");
            assert_eq!(admitted, n * ratio / 1000 == n, "n = {n}, ratio = {ratio}");
        }
    }
    match state(&[(7, 8, 'c'), (8, 9, 'd'), (9, 24, 'd'), (24, 25, 'c')]) {
        StateRequirement::Unknown(why) => assert!(why.contains("other callers"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A chain both versions have, whose effect is the old version's own
/// (examples/change-effects-siblings read backwards: `i >= n` becomes `i > n`). For
/// `n * ratio / 1000 == n` the old version runs `i = n - 1` and the new one does not;
/// where the new one runs it (`i > n`), so does the old, in the same state. So along
/// `7 => 8` nothing propagates in the new version's runs and its state requirement there
/// is infeasible, while in the old version's runs exactly the inputs with
/// `n * ratio / 1000 == n` propagate, and its state requirement there is feasible.
#[test]
fn a_chain_both_versions_have_is_followed_in_the_old_version_too() {
    let p = pair("change-effects-siblings", "new.c", "old.c", 3);
    let reqs = &p.reqs.changes[0];
    let r = reqs
        .chains
        .iter()
        .position(|r| shape(&p.new, &r.chain.deps) == [(7, 8, 'c')] && r.side.is_none())
        .expect("the chain 7 => 8 in both versions");
    let req = &reqs.chains[r];
    assert!(matches!(
        new_state(&p, &req.chain),
        StateRequirement::Infeasible
    ));
    let old =
        ripple_analyses::effects::old_state(&p.old, &p.new, req, &p.set, StateLimits::default());
    assert!(
        matches!(old, Some(StateRequirement::Feasible { .. })),
        "{old:?}"
    );
    let mut inputs = Vec::new();
    let mut runs = Vec::new();
    for n in -2..=3 {
        for ratio in [0, 500, 999, 1000, 1500, 2000] {
            inputs.push((n, ratio));
            runs.push(run_both(&p, &[n.to_string(), ratio.to_string()]));
        }
    }
    let a = assess(&p.reqs, &p.set, &runs);
    let result = &a.changes[0].requirements[r];
    let tests = |f: &dyn Fn(i32, i32) -> bool| -> Vec<usize> {
        (0..inputs.len())
            .filter(|&t| f(inputs[t].0, inputs[t].1))
            .collect()
    };
    assert_eq!(result.covered_by, tests(&|n, r| n * r / 1000 > n));
    assert!(result.propagated_by.is_empty());
    assert_eq!(result.old_covered_by, tests(&|n, r| n * r / 1000 >= n));
    assert_eq!(result.old_propagated_by, tests(&|n, r| n * r / 1000 == n));
}
