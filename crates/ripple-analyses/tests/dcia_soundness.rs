//! The soundness harness of DCIA: 000 Definition 3.1 checked dynamically.
//!
//! For version pairs (the hand-written example pairs of `examples/`, and operator,
//! constant and statement mutants of the conformance corpus `tests/corpus/*.c`), both
//! versions run in the IR interpreter on the same inputs (the corpus RUN lines; a few
//! argument and stdin choices for the examples). At every mapped node the sequence of
//! values it reads is recorded; a mapped node whose sequences differ between the
//! versions must be in IMPACTEDNODE (of either version). Zero violations allowed.
//!
//! Comparison model: pointer values are compared by their offset in their block only
//! (block numbers depend on allocation order, which a change may shift without any
//! change in meaning); runs that do not end normally in both versions (trap, step
//! limit, unsupported construct) are skipped, because DCIA is termination-insensitive
//! as 000 is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ripple_analyses::dcia::{dcia, DciaConfig, DciaResult, Equivalences};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
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
        let values = event.reads.iter().map(|r| normalize(&r.value)).collect();
        self.reads
            .entry((event.function, event.node))
            .or_default()
            .push(values);
    }
}

fn lower(text: &str, name: &str) -> Option<Program> {
    let unit = TranslationUnit::preprocessed(name.to_string(), text, str::to_string);
    let lowered = lower_units(&[unit], &FrontendConfig { build_syntax: true });
    Some(lowered.program)
}

fn preprocess_text(source: &str) -> Option<String> {
    let dir = tempfile::tempdir().ok()?;
    let path = dir.path().join("prog.c");
    std::fs::write(&path, source).ok()?;
    ripple_conformance::preprocess(&path).ok()
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
        _ => None,
    }
}

/// Checks one pair on some inputs; returns (compared runs, violations).
fn check_pair(
    label: &str,
    old: &Program,
    new: &Program,
    inputs: &[(Vec<String>, Vec<u8>)],
) -> (usize, Vec<String>) {
    if std::env::var_os("RIPPLE_HARNESS_VERBOSE").is_some() {
        eprintln!("pair {label}");
    }
    let matching: VersionMatch = match_programs(old, new, &MatchConfig::default());
    let result: DciaResult = dcia(
        old,
        new,
        &matching,
        &Equivalences::default(),
        &DciaConfig::default(),
    );
    let mut violations = Vec::new();
    let mut compared = 0;
    for (args, stdin) in inputs {
        let (Some(a), Some(b)) = (run(old, args, stdin), run(new, args, stdin)) else {
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
    (compared, violations)
}

/// Mutants of a source: operator, constant and statement mutations, at most `per_kind`
/// sites of each kind, chosen deterministically.
fn mutants(source: &str, per_kind: usize) -> Vec<(String, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let in_body = |i: usize| -> bool {
        let l = lines[i].trim_start();
        !l.starts_with('#')
            && !l.starts_with("//")
            && !lines[i].contains('"')
            && lines[i].starts_with(' ')
    };
    let mut operator_sites = Vec::new();
    let mut constant_sites = Vec::new();
    let mut statement_sites = Vec::new();
    const OPS: [(&str, &str); 9] = [
        (" + ", " - "),
        (" - ", " + "),
        (" <= ", " < "),
        (" < ", " <= "),
        (" >= ", " > "),
        (" > ", " >= "),
        (" == ", " != "),
        (" != ", " == "),
        (" * ", " + "),
    ];
    for (i, &line) in lines.iter().enumerate() {
        if !in_body(i) {
            continue;
        }
        for (from, to) in OPS {
            if let Some(pos) = line.find(from) {
                operator_sites.push((i, pos, from.len(), to.to_string()));
                break;
            }
        }
        let bytes = line.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            if bytes[j].is_ascii_digit()
                && (j == 0
                    || !(bytes[j - 1].is_ascii_alphanumeric()
                        || bytes[j - 1] == b'_'
                        || bytes[j - 1] == b'.'))
            {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let next = bytes.get(j).copied().unwrap_or(b' ');
                if !(next.is_ascii_alphanumeric() || next == b'.' || next == b'_') {
                    if let Ok(n) = line[start..j].parse::<u64>() {
                        constant_sites.push((i, start, j - start, (n + 1).to_string()));
                    }
                }
                break;
            }
            j += 1;
        }
        let t = line.trim();
        if t.ends_with(';')
            && !t.starts_with("return")
            && !t.contains('{')
            && !t.contains('}')
            && (t.contains('=') || t.contains("++") || t.contains("--") || t.contains('('))
            && !t.starts_with("int ")
            && !t.starts_with("char ")
            && !t.starts_with("long ")
            && !t.starts_with("double ")
            && !t.starts_with("unsigned ")
            && !t.starts_with("const ")
            && !t.starts_with("static ")
            && !t.starts_with("struct ")
        {
            statement_sites.push((i, 0, line.len(), String::new()));
        }
    }
    let mut out = Vec::new();
    for (kind, sites) in [
        ("operator", &operator_sites),
        ("constant", &constant_sites),
        ("statement", &statement_sites),
    ] {
        let count = sites.len().min(per_kind);
        for k in 0..count {
            let (line, start, len, ref replacement) =
                sites[(k * 2 + 1) * sites.len() / (count * 2)];
            let mut new_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let original = &lines[line];
            new_lines[line] = format!(
                "{}{}{}",
                &original[..start],
                replacement,
                &original[start + len..]
            );
            out.push((format!("{kind}@{}", line + 1), new_lines.join("\n") + "\n"));
        }
    }
    out
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
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(examples_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("old.c").exists() && p.join("new.c").exists())
        .collect();
    dirs.sort();
    let mut violations = Vec::new();
    let mut compared = 0;
    for dir in &dirs {
        let (Ok(old_pp), Ok(new_pp)) = (
            ripple_conformance::preprocess(&dir.join("old.c")),
            ripple_conformance::preprocess(&dir.join("new.c")),
        ) else {
            continue;
        };
        let (Some(old), Some(new)) = (lower(&old_pp, "old.c"), lower(&new_pp, "new.c")) else {
            continue;
        };
        let label = dir.file_name().unwrap().to_string_lossy().into_owned();
        let (c, v) = check_pair(&label, &old, &new, &inputs);
        compared += c;
        violations.extend(v);
    }
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
    let corpus = ripple_conformance::load_corpus().expect("corpus");
    let mut violations = Vec::new();
    let mut compared = 0;
    let mut pairs = 0;
    for program in &corpus {
        let source = std::fs::read_to_string(&program.path).unwrap();
        let Ok(old_pp) = ripple_conformance::preprocess(&program.path) else {
            continue;
        };
        let Some(old) = lower(&old_pp, "prog.c") else {
            continue;
        };
        let inputs: Vec<(Vec<String>, Vec<u8>)> = program
            .runs
            .iter()
            .map(|r| (r.args.clone(), r.stdin.clone()))
            .collect();
        for (label, mutant) in mutants(&source, 2) {
            let Some(new_pp) = preprocess_text(&mutant) else {
                continue;
            };
            let Some(new) = lower(&new_pp, "prog.c") else {
                continue;
            };
            pairs += 1;
            let (c, v) = check_pair(&format!("{} {label}", program.name), &old, &new, &inputs);
            compared += c;
            violations.extend(v);
        }
    }
    eprintln!("{pairs} mutant pairs, {compared} compared runs");
    assert!(compared > 100, "too few comparable runs: {compared}");
    assert!(
        violations.is_empty(),
        "{} violations:\n{}",
        violations.len(),
        violations.join("\n")
    );
}
