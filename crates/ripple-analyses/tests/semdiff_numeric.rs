//! The numerical pair suite (`tests/semdiff-numeric`): small numerical programs (series,
//! special functions, geometry, hashing, ray tracing) in version pairs labelled like
//! `tests/semdiff` (`pair.desc`: function, expect, reason, check).
//!
//! `numeric_labels_hold_natively` checks the labels with gcc: the `check` statement prints
//! different outputs for a `different` pair and equal ones for an `equivalent` pair, and
//! every `equivalent` pair also agrees on several hundred random and boundary inputs
//! (outcome: return value, objects passed by pointer, globals, exit).
//!
//! `numeric_semdiff_no_wrong_verdict` runs the analysis at the default configuration and
//! fails on any wrong verdict: `equivalent` on a different pair, `different` on an
//! equivalent pair, or a witness marked confirmed on which the versions compiled with gcc
//! agree. `unknown` is allowed for now (the goal, at least 90% decided, is not
//! reached yet; BENCHMARKS.md has the numbers) and the counts are printed.
//! Both tests fail, not skip, without gcc.

mod semdiff_common;
mod semdiff_native;

use std::path::Path;
use std::process::Command;

use rayon::prelude::*;
use ripple_analyses::semdiff::{SemdiffConfig, Verdict};
use ripple_symex::Side;
use semdiff_common::{labelled_pairs, load, LabelledPair};
use semdiff_native::{random_inputs, require_gcc, run, timed_out, witness_input};

/// Random and boundary inputs per equivalent pair.
const RANDOM_INPUTS: usize = 300;

type Pair = LabelledPair;

fn pairs() -> Vec<Pair> {
    labelled_pairs("semdiff-numeric")
}

/// Output of the pair's `check` statement against one version.
fn run_check(pair: &Pair, version: &str, work: &Path) -> String {
    let source = std::fs::read_to_string(pair.dir.join(format!("{version}.c"))).unwrap();
    let c = work.join(format!("{}-{version}-check.c", pair.name));
    let exe = work.join(format!("{}-{version}-check", pair.name));
    std::fs::write(
        &c,
        format!(
            "#include <stdio.h>\n#include <limits.h>\n#include <math.h>\n{source}\n\
             int main(void) {{\n    {}\n    return 0;\n}}\n",
            pair.check
        ),
    )
    .unwrap();
    let status = Command::new("gcc")
        .args(["-std=gnu11", "-fwrapv", "-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .status()
        .expect("gcc runs");
    assert!(
        status.success(),
        "{}: the check does not compile",
        pair.name
    );
    let out = Command::new(&exe).output().expect("check runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The label problems of one pair, checked with gcc.
fn label_problems(pair: &Pair, work: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let old_out = run_check(pair, "old", work);
    let new_out = run_check(pair, "new", work);
    match pair.expect {
        Verdict::Different if old_out == new_out => problems.push(format!(
            "labelled different, the check prints {old_out:?} for both"
        )),
        Verdict::Equivalent if old_out != new_out => problems.push(format!(
            "labelled equivalent, the check prints {old_out:?} and {new_out:?}"
        )),
        _ => {}
    }
    if pair.expect == Verdict::Equivalent {
        let old = load(&pair.dir.join("old.c"));
        let new = load(&pair.dir.join("new.c"));
        let find = |p: &ripple_ir::Program| {
            p.functions
                .iter_enumerated()
                .find(|(_, f)| f.name == pair.function && f.is_defined())
                .map(|(id, _)| id)
                .expect("the pair's function")
        };
        let (old_func, new_func) = (find(&old), find(&new));
        let inputs = random_inputs(&old, old_func, RANDOM_INPUTS, seed_of(&pair.name))
            .expect("the function can be called natively");
        let read = |v: &str| std::fs::read_to_string(pair.dir.join(format!("{v}.c"))).unwrap();
        let a = run(
            &read("old"),
            &old,
            old_func,
            &inputs,
            500,
            work,
            &format!("{}-old", pair.name),
        );
        let b = run(
            &read("new"),
            &new,
            new_func,
            &inputs,
            500,
            work,
            &format!("{}-new", pair.name),
        );
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.len(), inputs.len(), "{}: outcomes", pair.name);
                for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                    if x != y && !(timed_out(x) && timed_out(y)) {
                        problems.push(format!(
                            "labelled equivalent, input {:?} gives {x:?} and {y:?}",
                            inputs[i]
                        ));
                        break;
                    }
                }
            }
            (a, b) => problems.push(format!("native run failed: {:?} {:?}", a.err(), b.err())),
        }
    }
    problems
}

#[test]
fn numeric_labels_hold_natively() {
    require_gcc();
    let pairs = pairs();
    assert!(pairs.len() >= 60, "{} pairs", pairs.len());
    let equivalent = pairs
        .iter()
        .filter(|p| p.expect == Verdict::Equivalent)
        .count();
    assert!(
        equivalent >= 30 && pairs.len() - equivalent >= 30,
        "half and half"
    );
    let work = tempfile::tempdir().unwrap();
    let problems: Vec<String> = pairs
        .par_iter()
        .flat_map(|p| {
            label_problems(p, work.path())
                .into_iter()
                .map(|m| format!("{}: {m}", p.name))
                .collect::<Vec<_>>()
        })
        .collect();
    for p in &problems {
        println!("{p}");
    }
    assert!(problems.is_empty(), "{} mislabelled pairs", problems.len());
}

#[test]
fn numeric_semdiff_no_wrong_verdict() {
    require_gcc();
    let pairs = pairs();
    let work = tempfile::tempdir().unwrap();
    let config = SemdiffConfig::default();
    let checked = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(String, Verdict, f64, Vec<String>)> = pairs
        .par_iter()
        .map(|pair| {
            let started = std::time::Instant::now();
            let old = load(&pair.dir.join("old.c"));
            let new = load(&pair.dir.join("new.c"));
            let matching = ripple_versions::match_programs(
                &old,
                &new,
                &ripple_versions::MatchConfig::default(),
            );
            let config = SemdiffConfig {
                function: Some(pair.function.clone()),
                ..config.clone()
            };
            let report = ripple_analyses::semdiff::semdiff(&old, &new, &matching, &config);
            let elapsed = started.elapsed().as_secs_f64();
            let mut problems = Vec::new();
            let Some(f) = report.functions.iter().find(|f| f.name == pair.function) else {
                return (
                    pair.name.clone(),
                    Verdict::Unknown,
                    elapsed,
                    vec!["not reported".into()],
                );
            };
            match (pair.expect, f.verdict) {
                (Verdict::Different, Verdict::Equivalent) => {
                    problems.push("WRONG: equivalent on a different pair".to_string())
                }
                (Verdict::Equivalent, Verdict::Different) => problems.push(format!(
                    "WRONG: different on an equivalent pair; witnesses {:?}",
                    f.witnesses
                        .iter()
                        .map(|w| (&w.inputs, w.confirmed))
                        .collect::<Vec<_>>()
                )),
                _ => {}
            }
            if let (Some(of), Some(nf)) = (f.old, f.new) {
                let read =
                    |v: &str| std::fs::read_to_string(pair.dir.join(format!("{v}.c"))).unwrap();
                for (i, w) in f.witnesses.iter().filter(|w| w.confirmed).enumerate() {
                    let oi = witness_input(&old, of, &old, Side::Old, &w.replay);
                    let ni = witness_input(&new, nf, &old, Side::New, &w.replay);
                    let tag = format!("{}-w{i}", pair.name);
                    let a = run(
                        &read("old"),
                        &old,
                        of,
                        &[oi],
                        5000,
                        work.path(),
                        &format!("{tag}-old"),
                    );
                    let b = run(
                        &read("new"),
                        &new,
                        nf,
                        &[ni],
                        5000,
                        work.path(),
                        &format!("{tag}-new"),
                    );
                    checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    match (a, b) {
                        (Ok(a), Ok(b)) if a == b => problems.push(format!(
                            "WRONG: witness {:?} confirmed, natively both give {a:?}",
                            w.inputs
                        )),
                        (Ok(_), Ok(_)) => {}
                        (a, b) => problems.push(format!(
                            "witness not run natively: {:?} {:?}",
                            a.err(),
                            b.err()
                        )),
                    }
                }
            }
            (pair.name.clone(), f.verdict, elapsed, problems)
        })
        .collect();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut wrong = 0;
    for (name, verdict, elapsed, problems) in &results {
        println!(
            "{name:<32} {:<10} {:>7.0} ms",
            verdict.name(),
            elapsed * 1000.0
        );
        for p in problems {
            println!("    {p}");
        }
        wrong += usize::from(!problems.is_empty());
    }
    let count = |v: Verdict| results.iter().filter(|r| r.1 == v).count();
    println!(
        "numeric suite: {} pairs, {} equivalent, {} different, {} unknown, {wrong} wrong, \
         {} confirmed witnesses run natively",
        results.len(),
        count(Verdict::Equivalent),
        count(Verdict::Different),
        count(Verdict::Unknown),
        checked.into_inner()
    );
    assert_eq!(wrong, 0, "wrong verdicts or witnesses (see above)");
}
