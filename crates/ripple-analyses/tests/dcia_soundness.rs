//! The soundness harness of DCIA: 000 Definition 3.1 checked dynamically.
//!
//! For version pairs (the hand-written example pairs of `examples/`, and operator,
//! constant and statement mutants of the conformance corpus `tests/corpus/*.c`), both
//! versions run in the IR interpreter on the same inputs (the corpus RUN lines; a few
//! argument and stdin choices for the examples). At every mapped node the sequence of
//! values it reads (with the memory a call of the C library reads) is recorded; a
//! mapped node whose sequences differ between the versions must be in IMPACTEDNODE (of
//! either version). Zero violations allowed.
//!
//! Mutation kinds: operators, constants, statement deletion (assignments and calls), jump
//! deletion (`goto`, `return`, `break`, `continue`: the statements they skipped now run)
//! global-initializer edits (a table or an initialized global changes, no code does) and
//! old-style rewrites (a definition in K&R form with implicit int, the same program).
//! A node that runs a different number of times reads a sequence of a different length,
//! so the comparison also checks that every statement whose execution count differs is
//! impacted.
//!
//! Comparison model: pointer values are compared by their offset in their block only
//! (block numbers depend on allocation order, which a change may shift without any
//! change in meaning); runs that do not end normally in both versions (a trap other than
//! a division by zero, step limit, unsupported construct) are skipped, because DCIA is
//! otherwise termination-insensitive as 000 is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod mutants;
use mutants::{lower, mutants, old_style, preprocess_text, syntax_ok};

use ripple_analyses::dcia::{
    dcia_on_graphs, functions_with_sources, DciaConfig, DciaResult, DependenceGraphs, Equivalences,
};
use ripple_analyses::sem_equiv::{default_budget, function_equivalences, statement_equivalences};
use ripple_interp::{run_program_observed, NodeEvent, Observer, RunConfig, Termination, Value};
use ripple_ir::{FuncId, NodeId, Program};
use ripple_versions::{match_programs, MatchConfig, VersionMatch};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Norm {
    Int(u128),
    Pointer(u32),
    Float(u64),
    Bytes(Vec<u8>),
}

fn normalize(value: &Value) -> Norm {
    match value {
        Value::Int(bits) => {
            let block = (*bits >> 32) as u64;
            if (1..=0xffff).contains(&block) && *bits < (1u128 << 48) {
                Norm::Pointer(*bits as u32)
            } else {
                Norm::Int(*bits)
            }
        }
        Value::F32(f) => Norm::Float(u64::from(f.to_bits())),
        Value::F64(f) => Norm::Float(f.to_bits()),
        Value::Bytes(b) => Norm::Bytes(b.to_vec()),
    }
}

#[derive(Default)]
struct Recorder {
    reads: HashMap<(FuncId, NodeId), Vec<Vec<Norm>>>,
}

impl Observer for Recorder {
    fn on_node(&mut self, event: &NodeEvent<'_>) {
        // A call of the C library also reads the memory it was given (`strlen(s)`
        // reads the string).
        let values = event
            .reads
            .iter()
            .map(|r| normalize(&r.value))
            .chain(
                event
                    .library
                    .iter()
                    .filter(|a| !a.write)
                    .map(|a| Norm::Bytes(a.bytes.clone())),
            )
            .collect();
        self.reads
            .entry((event.function, event.node))
            .or_default()
            .push(values);
    }
}

fn run(program: &Program, args: &[String], stdin: &[u8]) -> Option<Recorder> {
    let config = RunConfig {
        args: args.to_vec(),
        stdin: stdin.to_vec(),
        max_steps: 200_000,
        ..RunConfig::default()
    };
    let mut recorder = Recorder::default();
    let outcome = run_program_observed(program, &config, &mut recorder);
    match outcome.termination {
        Termination::Exit(_) | Termination::Abort => Some(recorder),
        // A division by zero ends the program as `abort` does, and DCIA follows it.
        Termination::Trap { message, .. } if message == "division by zero" => Some(recorder),
        _ => None,
    }
}

/// Checks one pair on some inputs; returns (compared runs, violations, changes proved
/// equivalent). The analysis is SEM-DCIA with the statement equivalences the solver
/// proves (`sem_equiv`); when it proves some, it must also be a subset of plain DCIA.
fn check_pair(
    label: &str,
    old: &Program,
    new: &Program,
    inputs: &[(Vec<String>, Vec<u8>)],
    config: &DciaConfig,
    semantic: bool,
) -> Checked {
    if std::env::var_os("RIPPLE_HARNESS_VERBOSE").is_some() {
        eprintln!("pair {label}");
    }
    // The analysis sees the programs as `ripple impact` does, with calls of functions
    // that never return cut (ripple_dataflow::noreturn); the runs are of the programs
    // as written, so a wrong inference shows as a missed impact.
    let (mut cut_old, mut cut_new) = (old.clone(), new.clone());
    ripple_dataflow::noreturn::cut_after_calls(&mut cut_old);
    ripple_dataflow::noreturn::cut_after_calls(&mut cut_new);
    let (written_old, written_new) = (old, new);
    let (old, new) = (&cut_old, &cut_new);
    let matching: VersionMatch = match_programs(old, new, &MatchConfig::default());
    let graphs = DependenceGraphs::build(old, new, config);
    let points_to = Some([&graphs.old.points_to, &graphs.new.points_to]);
    let proved = statement_equivalences(old, new, &matching, points_to, default_budget());
    let mut equivalences = Equivalences::default();
    proved.add_to(&mut equivalences);
    let mut functions = 0;
    if semantic {
        // Whole functions proved equivalent (SUMMARYEQUIV), as `ripple impact --semantic`.
        let found = function_equivalences(
            old,
            new,
            &matching,
            &equivalences,
            std::time::Duration::from_secs(2),
            1,
            &mut |_, _| false,
            &mut |_| {},
        );
        found.add_to(&mut equivalences, &graphs.old, &graphs.new);
        functions = found.proved.len();
    }
    let result: DciaResult = dcia_on_graphs(old, new, &graphs, &matching, &equivalences);
    let mut violations = Vec::new();
    // The sources by function (what the semantic verdicts take as settled) miss none:
    // with no function holding one and no changed initial value, nothing is impacted.
    let [old_sources, new_sources] =
        functions_with_sources(old, new, &matching, &equivalences, false);
    if old_sources.is_empty()
        && new_sources.is_empty()
        && result.old.changed_globals.is_empty()
        && result.new.changed_globals.is_empty()
        && (!result.old.impacted.is_empty() || !result.new.impacted.is_empty())
    {
        violations.push(format!(
            "{label}: no function holds a source, yet {} node(s) are impacted",
            result.old.impacted.len() + result.new.impacted.len()
        ));
    }
    let plain = (!proved.proved.is_empty() || functions > 0)
        .then(|| dcia_on_graphs(old, new, &graphs, &matching, &Equivalences::default()));
    if let Some(plain) = &plain {
        for (sem, full, side) in [
            (&result.old, &plain.old, "old"),
            (&result.new, &plain.new, "new"),
        ] {
            for n in &sem.impacted {
                if !full.is_impacted(n.function, n.node) {
                    violations.push(format!(
                        "{label}: SEM-DCIA impacts {side} node {:?} of {} that DCIA does not",
                        n.node, old.functions[n.function].name
                    ));
                }
            }
        }
    }
    let mut compared = 0;
    let mut observed: rustc_hash::FxHashSet<(ripple_ir::FuncId, ripple_ir::NodeId)> =
        Default::default();
    for (args, stdin) in inputs {
        let (Some(a), Some(b)) = (run(written_old, args, stdin), run(written_new, args, stdin))
        else {
            continue;
        };
        compared += 1;
        for m in &matching.functions {
            let (Some(fo), Some(fnew)) = (m.old, m.new) else {
                continue;
            };
            for &(o, n) in &m.node_map {
                let empty = Vec::new();
                let seq_old = a.reads.get(&(fo, o)).unwrap_or(&empty);
                let seq_new = b.reads.get(&(fnew, n)).unwrap_or(&empty);
                if seq_old != seq_new {
                    observed.insert((fo, o));
                }
                if seq_old != seq_new
                    && !result.old.is_impacted(fo, o)
                    && !result.new.is_impacted(fnew, n)
                {
                    let span = old.functions[fo].nodes[o].span;
                    violations.push(format!(
                        "{label}: {}:{} ({}) args={args:?}: old reads {:?}, new reads {:?}",
                        old.functions[fo].name,
                        span.start_line,
                        ripple_ir::dump_function(old, &old.functions[fo])
                            .lines()
                            .find(|l| l.trim_start().starts_with(&format!("{o}:"))
                                || l.contains(&format!("{o} ")))
                            .unwrap_or("")
                            .trim(),
                        seq_old.iter().take(3).collect::<Vec<_>>(),
                        seq_new.iter().take(3).collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    // Mapped pairs impacted statically, by SEM-DCIA and by plain DCIA.
    let impacted_pairs = |r: &DciaResult| -> usize {
        matching
            .functions
            .iter()
            .filter_map(|m| Some((m.old?, m.new?, m)))
            .map(|(fo, fnew, m)| {
                m.node_map
                    .iter()
                    .filter(|&&(o, n)| r.old.is_impacted(fo, o) || r.new.is_impacted(fnew, n))
                    .count()
            })
            .sum()
    };
    let static_sem = impacted_pairs(&result);
    Checked {
        compared,
        violations,
        proofs: proved.proved.len(),
        functions,
        observed: if compared > 0 { observed.len() } else { 0 },
        static_sem: if compared > 0 { static_sem } else { 0 },
        static_dcia: if compared > 0 {
            plain.as_ref().map_or(static_sem, impacted_pairs)
        } else {
            0
        },
    }
}

/// What checking one pair found.
struct Checked {
    /// Runs compared.
    compared: usize,
    violations: Vec<String>,
    /// Changes proved equivalent, and whole functions proved equivalent.
    proofs: usize,
    functions: usize,
    /// Mapped statement pairs whose read sequences differed in some run (0 when no run
    /// was compared), and those impacted by SEM-DCIA and by plain DCIA.
    observed: usize,
    static_sem: usize,
    static_dcia: usize,
}

/// A configuration that keeps every memory region context-insensitive.
fn context_insensitive() -> DciaConfig {
    let mut config = DciaConfig::default();
    config.sdg.max_summary_estimate = 1;
    config
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

#[test]
fn dcia_is_sound_on_example_pairs() {
    let inputs: Vec<(Vec<String>, Vec<u8>)> = vec![
        (vec![], b"".to_vec()),
        (vec!["1".into()], b"5\n".to_vec()),
        (vec!["a".into(), "b".into(), "c".into()], b"3 4\n".to_vec()),
        (
            vec!["-7".into(), "nolocale".into()],
            b"hello world\n".to_vec(),
        ),
        (vec!["100".into()], b"0\n".to_vec()),
    ];
    // The worked examples and the impact fixtures (tests/impact).
    let fixtures = examples_dir().join("../tests/impact");
    // (old, new) sources: `old.c` and `new.c`, or `old/prog.c` and `new/prog.c`.
    let mut dirs: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(examples_dir())
        .unwrap()
        .chain(std::fs::read_dir(fixtures).unwrap())
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            [("old.c", "new.c"), ("old/prog.c", "new/prog.c")]
                .into_iter()
                .map(|(a, b)| (p.join(a), p.join(b)))
                .find(|(a, b)| a.exists() && b.exists())
        })
        .collect();
    dirs.sort();
    let mut violations = Vec::new();
    let mut compared = 0;
    let mut proofs = 0;
    for (old_path, new_path) in &dirs {
        let (Ok(old_pp), Ok(new_pp)) = (
            ripple_conformance::preprocess(old_path),
            ripple_conformance::preprocess(new_path),
        ) else {
            continue;
        };
        let (Some(old), Some(new)) = (lower(&old_pp, "old.c"), lower(&new_pp, "new.c")) else {
            continue;
        };
        let label = old_path.display().to_string();
        for config in [DciaConfig::default(), context_insensitive()] {
            let checked = check_pair(&label, &old, &new, &inputs, &config, false);
            compared += checked.compared;
            violations.extend(checked.violations);
        }
        // With whole functions proved equivalent (SUMMARYEQUIV).
        let checked = check_pair(&label, &old, &new, &inputs, &DciaConfig::default(), true);
        proofs += checked.functions;
        violations.extend(checked.violations);
    }
    eprintln!(
        "{} example pairs; {proofs} functions proved equivalent as a whole",
        dirs.len()
    );
    assert!(proofs > 0, "no function proved equivalent on the examples");
    assert!(compared > 10, "too few comparable runs: {compared}");
    assert!(
        violations.is_empty(),
        "{} violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

#[test]
fn dcia_is_sound_on_corpus_mutants() {
    use rayon::prelude::*;
    let corpus = ripple_conformance::load_corpus().expect("corpus");
    // (pairs, compared runs, violations, mutants per kind, kinds of the mutants with a
    // proved equivalence, [observed, SEM-DCIA, DCIA] impacted statement pairs, the
    // program's name) per program, in parallel.
    type Outcome = (
        usize,
        usize,
        Vec<String>,
        Vec<String>,
        Vec<String>,
        [usize; 3],
        String,
    );
    let results: Vec<Outcome> = corpus
        .par_iter()
        .map(|program| {
            let mut out: Outcome = (
                0,
                0,
                Vec::new(),
                Vec::new(),
                Vec::new(),
                [0; 3],
                program.name.clone(),
            );
            let source = std::fs::read_to_string(&program.path).unwrap();
            let Ok(old_pp) = ripple_conformance::preprocess(&program.path) else {
                return out;
            };
            let Some(old) = lower(&old_pp, "prog.c") else {
                return out;
            };
            let inputs: Vec<(Vec<String>, Vec<u8>)> = program
                .runs
                .iter()
                .map(|r| (r.args.clone(), r.stdin.clone()))
                .collect();
            for (label, mutant) in mutants(&source, 4) {
                let Some(new_pp) = preprocess_text(&mutant, &program.path) else {
                    continue;
                };
                if label.starts_with("identity") && !syntax_ok(&new_pp) {
                    continue;
                }
                let Some(new) = lower(&new_pp, "prog.c") else {
                    continue;
                };
                out.0 += 1;
                out.3
                    .push(label.split('@').next().unwrap_or("").to_string());
                let checked = check_pair(
                    &format!("{} {label}", program.name),
                    &old,
                    &new,
                    &inputs,
                    &DciaConfig::default(),
                    false,
                );
                out.1 += checked.compared;
                out.2.extend(checked.violations);
                out.5[0] += checked.observed;
                out.5[1] += checked.static_sem;
                out.5[2] += checked.static_dcia;
                if checked.proofs > 0 {
                    out.4
                        .push(label.split('@').next().unwrap_or("").to_string());
                }
                // Every third pair again with every memory region context-insensitive
                // (what large programs get past the summary budget).
                if out.0.is_multiple_of(3) {
                    let checked = check_pair(
                        &format!("{} {label} (context-insensitive regions)", program.name),
                        &old,
                        &new,
                        &inputs,
                        &context_insensitive(),
                        false,
                    );
                    out.2.extend(checked.violations);
                }
            }
            out
        })
        .collect();
    let pairs: usize = results.iter().map(|r| r.0).sum();
    let compared: usize = results.iter().map(|r| r.1).sum();
    let violations: Vec<String> = results.iter().flat_map(|r| r.2.clone()).collect();
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for kind in results.iter().flat_map(|r| r.3.iter()) {
        *kinds.entry(kind.clone()).or_default() += 1;
    }
    let mut proved: std::collections::BTreeMap<String, usize> = Default::default();
    for kind in results.iter().flat_map(|r| r.4.iter()) {
        *proved.entry(kind.clone()).or_default() += 1;
    }
    // Precision against what the runs observe: statement pairs whose read sequences
    // differed in some run, over those the analyses impact (pairs with a compared run).
    let [observed, static_sem, static_dcia] = results.iter().fold([0; 3], |acc, r| {
        [acc[0] + r.5[0], acc[1] + r.5[1], acc[2] + r.5[2]]
    });
    eprintln!(
        "{pairs} mutant pairs ({kinds:?}), {compared} compared runs; pairs with a proved equivalence: {proved:?}; \
         statement pairs observed impacted {observed}, impacted by SEM-DCIA {static_sem}, by DCIA {static_dcia}"
    );
    // The larger programs (500 lines and more, with input sets of their own) one by one.
    for r in results.iter().filter(|r| r.6.starts_with("larger/")) {
        let [observed, sem, dcia] = r.5;
        let ratio = |n: usize| observed as f64 / n.max(1) as f64;
        eprintln!(
            "{}: {} mutant pairs, {} compared runs; observed {observed}, SEM-DCIA {sem} ({:.3}), DCIA {dcia} ({:.3})",
            r.6,
            r.0,
            r.1,
            ratio(sem),
            ratio(dcia)
        );
    }
    assert!(observed <= static_sem && static_sem <= static_dcia);
    assert!(
        violations.is_empty(),
        "{} violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
    assert!(pairs >= 1000, "only {pairs} mutant pairs");
    for kind in ["jump", "global", "statement", "oldstyle", "identity"] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) >= 30,
            "few {kind} mutants: {kinds:?}"
        );
    }
    assert!(compared > 1000, "too few comparable runs: {compared}");
    // Most identities are proved (some are not: `x + 0` of a double is not `x` for -0.0,
    // and a self-assignment through memory adds a load), and no other mutation is.
    let identities = kinds.get("identity").copied().unwrap_or(0);
    let proved_identities = proved.get("identity").copied().unwrap_or(0);
    assert!(
        proved_identities * 2 >= identities,
        "few identities proved: {proved_identities} of {identities}"
    );
    for (kind, &count) in &proved {
        assert!(
            kind == "identity" || kind == "oldstyle" || count * 4 <= kinds[kind],
            "{count} {kind} mutants proved equivalent: {proved:?}"
        );
    }
}

#[test]
fn old_style_rewrites_are_k_and_r_definitions() {
    assert_eq!(
        old_style("static int add(int a, char *b) {").as_deref(),
        Some("static add(a, b) int a; char *b; {")
    );
    assert_eq!(
        old_style("int main(int argc, char **argv) {").as_deref(),
        Some("main(argc, argv) int argc; char **argv; {")
    );
    assert_eq!(
        old_style("double mean(const double v[], int n) {").as_deref(),
        Some("double mean(v, n) const double v[]; int n; {")
    );
    assert_eq!(old_style("int f(void) {"), None);
    assert_eq!(old_style("int f(int (*g)(int), int x) {"), None);
    assert_eq!(old_style("    int x = g(a, b);"), None);
}
