//! The semantic difference suite: the version pairs of `tests/semdiff`, each labelled in
//! its `pair.desc` with a function, the expected verdict (`equivalent` or `different`)
//! and the reason (`scripts/check-semdiff-suite.sh` checks the labels with gcc).
//!
//! Properties checked on every pair, with the default configuration:
//! - no wrong verdict: an expected-different pair is never reported `equivalent`, and an
//!   expected-equivalent pair is never reported `different` (`unknown` is allowed for
//!   equivalent pairs, counted and printed);
//! - an expected-different pair is reported `different` or `unknown`;
//! - `unknown` only where the pair says why it is expected (its `analysis:` line), and
//!   never because the wall-clock cut-off stopped the run (the budget counts work, so the
//!   table is the same on every run and machine);
//! - every witness marked confirmed really distinguishes the versions: the test re-runs
//!   it in the interpreter on both versions itself and compares the outcomes.

mod semdiff_common;

use ripple_analyses::semdiff::{
    ObjectRef, PairReport, ReplayArg, ReplayInput, SemdiffConfig, SemdiffReport, Verdict,
};
use ripple_interp::{CallResult, Interpreter, NoObserver, RunConfig, Value};
use ripple_ir::{FloatKind, FuncId, Program, Type};
use ripple_symex::Side;
use semdiff_common::{labelled_pairs, load, LabelledPair};

type Pair = LabelledPair;

fn suite() -> Vec<Pair> {
    labelled_pairs("semdiff")
}

/// What one run of a function did, in a form that compares bit for bit.
#[derive(Debug, PartialEq)]
struct Run {
    result: String,
    stdout: Vec<u8>,
    /// Final bytes of each pointer argument's object and of each global given.
    memory: Vec<Vec<u8>>,
}

fn value_bits(value: &Value) -> String {
    match value {
        Value::Int(bits) => format!("int {bits:#x}"),
        Value::F32(f) => format!("f32 {:#x}", f.to_bits()),
        Value::F64(f) => format!("f64 {:#x}", f.to_bits()),
        Value::Bytes(b) => format!("bytes {b:?}"),
    }
}

/// Runs `func` on a witness input, independently of the analysis' own replay.
fn rerun(program: &Program, side: Side, func: FuncId, input: &ReplayInput, steps: u64) -> Run {
    let config = RunConfig {
        max_steps: steps,
        ..RunConfig::default()
    };
    let mut interpreter = Interpreter::new(program, &config).expect("interpreter starts");
    let mut globals = Vec::new();
    for (key, bytes) in input.globals_of(side) {
        if let Some((id, _)) = program
            .globals
            .iter_enumerated()
            .find(|(_, g)| &g.key == key)
        {
            interpreter.write_global(id, bytes).expect("global written");
            globals.push(id);
        }
    }
    let function = &program.functions[func];
    let mut values = Vec::new();
    let mut objects = Vec::new();
    for (i, arg) in input.args.iter().enumerate() {
        match arg {
            ReplayArg::Scalar { bits, .. } => {
                let ty = function.locals[function.params[i]].ty;
                values.push(match program.types.get(ty) {
                    Type::Float(FloatKind::Float) => Value::F32(f32::from_bits(*bits as u32)),
                    Type::Float(_) => Value::F64(f64::from_bits(*bits as u64)),
                    _ => Value::Int(*bits),
                });
            }
            ReplayArg::Aggregate { bytes, .. } => {
                values.push(Value::Bytes(bytes.clone().into_boxed_slice()));
            }
            // The bytes before the pointer are the object's too.
            ReplayArg::Pointer { bytes, before, .. } => {
                let whole = [&before[..], &bytes[..]].concat();
                let Value::Int(base) = interpreter.alloc_bytes(&whole).expect("object allocated")
                else {
                    panic!("a pointer");
                };
                let pointer = Value::Int(base + before.len() as u128);
                objects.push((pointer.clone(), bytes.len() as u64));
                values.push(pointer);
            }
            // Filled in below, once every object exists.
            ReplayArg::Alias { .. } => values.push(Value::Int(0)),
            ReplayArg::Function { key } => {
                let (g, _) = program
                    .functions
                    .iter_enumerated()
                    .find(|(_, g)| &g.key == key)
                    .expect("the witness's function is in the program");
                values.push(interpreter.function_address(g));
            }
        }
    }
    for (i, arg) in input.args.iter().enumerate() {
        if let ReplayArg::Alias { of, offset, .. } = arg {
            // A pointer into the object of another pointer argument.
            let Value::Int(base) = values[*of] else {
                panic!("an alias of a non-pointer argument");
            };
            values[i] = Value::Int(base + u128::from(*offset));
        }
    }
    // The objects pointer members point to, and the members themselves.
    let mut inner = Vec::new();
    for object in &input.pointees.objects {
        let pointer = interpreter
            .alloc_bytes(&object.bytes)
            .expect("object allocated");
        objects.push((pointer.clone(), object.bytes.len() as u64));
        inner.push(pointer);
    }
    let address = |object: ObjectRef| match object {
        ObjectRef::Arg(i) => values[i].clone(),
        ObjectRef::Inner(i) => inner[i].clone(),
    };
    for link in &input.pointees.links {
        let (Value::Int(from), Value::Int(to)) = (address(link.from), address(link.to)) else {
            panic!("links join objects");
        };
        let target = (to as i128 + i128::from(link.offset)) as u64;
        let at = Value::Int(from + u128::from(link.at));
        assert!(interpreter.write_memory(&at, &target.to_le_bytes()));
    }
    let outcome = interpreter.call(func, &values, &mut NoObserver);
    let result = match &outcome.result {
        CallResult::Returned(None) => "returned".to_string(),
        CallResult::Returned(Some(v)) => format!("returned {}", value_bits(v)),
        CallResult::Stopped(t) => format!("stopped {t:?}"),
    };
    let mut memory = Vec::new();
    if matches!(outcome.result, CallResult::Returned(_)) {
        for (pointer, len) in &objects {
            memory.push(interpreter.read_memory(pointer, *len).unwrap_or_default());
        }
        for id in globals {
            memory.push(interpreter.read_global(id).unwrap_or_default());
        }
    }
    Run {
        result,
        stdout: outcome.stdout,
        memory,
    }
}

/// The outcome of one pair.
struct Checked {
    pair: Pair,
    verdict: Option<Verdict>,
    elapsed: std::time::Duration,
    problems: Vec<String>,
}

fn check_pair(pair: &Pair, config: &SemdiffConfig) -> Checked {
    let started = std::time::Instant::now();
    let old = load(&pair.dir.join("old.c"));
    let new = load(&pair.dir.join("new.c"));
    let matching =
        ripple_versions::match_programs(&old, &new, &ripple_versions::MatchConfig::default());
    let report: SemdiffReport = ripple_analyses::semdiff::semdiff(&old, &new, &matching, config);
    let elapsed = started.elapsed();
    let mut problems = Vec::new();
    let Some(function) = report.functions.iter().find(|f| f.name == pair.function) else {
        problems.push(format!("{} not in the report", pair.function));
        return Checked {
            pair: pair.clone(),
            verdict: None,
            elapsed,
            problems,
        };
    };
    if report.stopped_by_clock {
        problems.push("stopped by the wall-clock cut-off: not reproducible".into());
    }
    if function.verdict == Verdict::Unknown && pair.analysis_note.is_none() {
        problems.push("unknown, but the pair is not labelled as expected to stay unknown".into());
    }
    match (pair.expect, function.verdict) {
        (Verdict::Different, Verdict::Equivalent) => {
            problems.push(format!("WRONG: reported equivalent ({})", pair.reason))
        }
        (Verdict::Equivalent, Verdict::Different) => problems.push(format!(
            "WRONG: reported different ({}); witnesses: {:?}",
            pair.reason, function.witnesses
        )),
        _ => {}
    }
    problems.extend(check_witnesses(&old, &new, function, config));
    Checked {
        pair: pair.clone(),
        verdict: Some(function.verdict),
        elapsed,
        problems,
    }
}

/// Every confirmed witness must give different runs when the test re-runs it.
fn check_witnesses(
    old: &Program,
    new: &Program,
    function: &PairReport,
    config: &SemdiffConfig,
) -> Vec<String> {
    let mut problems = Vec::new();
    let (Some(old_func), Some(new_func)) = (function.old, function.new) else {
        return problems;
    };
    for witness in function.witnesses.iter().filter(|w| w.confirmed) {
        let a = rerun(
            old,
            Side::Old,
            old_func,
            &witness.replay,
            config.replay_steps,
        );
        let b = rerun(
            new,
            Side::New,
            new_func,
            &witness.replay,
            config.replay_steps,
        );
        if a == b {
            problems.push(format!(
                "WRONG: witness {:?} marked confirmed but both versions give {a:?}",
                witness.inputs
            ));
        }
    }
    problems
}

#[test]
fn semdiff_suite() {
    let pairs = suite();
    assert!(pairs.len() >= 40, "the suite has {} pairs", pairs.len());
    // The default budget, with a generous wall-clock cut-off: the budget counts work, so
    // verdicts do not depend on the machine's load; the cut-off must never be what stops
    // a pair here (checked below), or the table would not be reproducible.
    let config = SemdiffConfig {
        wall_clock_cutoff: Some(std::time::Duration::from_secs(300)),
        ..SemdiffConfig::default()
    };
    let results: Vec<Checked> = {
        use rayon::prelude::*;
        pairs.par_iter().map(|p| check_pair(p, &config)).collect()
    };
    let mut results = results;
    results.sort_by(|a, b| a.pair.name.cmp(&b.pair.name));
    let count = |v: Verdict| results.iter().filter(|r| r.verdict == Some(v)).count();
    let wrong = results.iter().filter(|r| !r.problems.is_empty()).count();
    for r in &results {
        let verdict = r.verdict.map_or("missing", Verdict::name);
        let mark = if r.verdict == Some(Verdict::Unknown) {
            match &r.pair.analysis_note {
                Some(note) => format!("  (expected: {note})"),
                None => "  (unknown)".to_string(),
            }
        } else {
            String::new()
        };
        println!(
            "{:<28} expect {:<10} got {:<10} {:>7.0} ms{mark}",
            r.pair.name,
            r.pair.expect.name(),
            verdict,
            r.elapsed.as_secs_f64() * 1000.0
        );
        for problem in &r.problems {
            println!("    {problem}");
        }
    }
    println!(
        "semdiff suite: {} pairs, {} equivalent, {} different, {} unknown, {wrong} wrong",
        results.len(),
        count(Verdict::Equivalent),
        count(Verdict::Different),
        count(Verdict::Unknown),
    );
    assert_eq!(wrong, 0, "wrong verdicts or witnesses (see above)");
}

/// Differences that need two pointer arguments to alias (`*p = 1; *q = 2` reordered; the
/// xor swap, which zeroes an object swapped with itself) come with a witness whose
/// pointers share one object, and replay confirms it (the test re-runs it itself).
#[test]
fn aliasing_differences_have_confirmed_witnesses() {
    for name in ["reorder_aliasing", "xor_swap_aliasing"] {
        let pair = suite()
            .into_iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{name} in the suite"));
        let config = SemdiffConfig {
            total_budget: std::time::Duration::from_secs(20),
            ..SemdiffConfig::default()
        };
        let old = load(&pair.dir.join("old.c"));
        let new = load(&pair.dir.join("new.c"));
        let matching =
            ripple_versions::match_programs(&old, &new, &ripple_versions::MatchConfig::default());
        let report = ripple_analyses::semdiff::semdiff(&old, &new, &matching, &config);
        let function = report
            .functions
            .iter()
            .find(|f| f.name == pair.function)
            .expect("the pair's function is reported");
        assert_eq!(function.verdict, Verdict::Different, "{name}");
        let aliased = function.witnesses.iter().find(|w| {
            w.confirmed
                && w.replay
                    .args
                    .iter()
                    .any(|a| matches!(a, ReplayArg::Alias { offset: 0, .. }))
        });
        assert!(aliased.is_some(), "{name}: {:?}", function.witnesses);
        assert!(
            check_witnesses(&old, &new, function, &config).is_empty(),
            "{name}"
        );
    }
}
