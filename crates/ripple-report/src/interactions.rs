//! The `ripple interactions` report (SCHID, 002 section 7.2): per pair of change sets,
//! the verdict (interacts, of Type I or II, on which tests and where the effects meet;
//! no interaction observed; pruned, and by which check), and the baselines of the
//! thesis's study (change-pair coverage and dynamic-slice intersection on `P'`). Text
//! leads with the interactions.

use std::fmt::Write;

use ripple_analyses::effects::ChangeSet;
use ripple_analyses::interactions::{Interactions, PairResult, PairVerdict, StmtKey, TestVerdict};
use ripple_ir::Program;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct InteractionsView {
    pub schema: u32,
    pub sets: Vec<SetView>,
    pub pairs: Vec<PairView>,
    /// The suite's tests, by suite line.
    pub tests: Vec<SuiteTest>,
    /// Variant runs made (variant, test).
    pub runs: usize,
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct SuiteTest {
    pub line: usize,
    pub command: String,
}

#[derive(Debug, Serialize)]
pub struct SetView {
    pub name: String,
    pub changes: Vec<SetChange>,
}

#[derive(Debug, Serialize)]
pub struct SetChange {
    pub id: usize,
    pub function: String,
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Serialize)]
pub struct PairView {
    pub sets: [String; 2],
    /// `interacts`, `no-interaction`, `pruned-static` (check 1), `never-run-together`
    /// (check 2 on every test), `pruned-dynamic` (checks 2-3), `undecided`,
    /// `not-separable`.
    pub verdict: &'static str,
    /// Suite lines of the tests showing an interaction of Type I (both sets have an
    /// effect on the new version), and of Type II.
    pub type_one: Vec<usize>,
    pub type_two: Vec<usize>,
    /// Where the effects first differ, on the first interacting test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
    /// On that test: whether the effect of the first set changes without the second,
    /// and whether the effect of the second changes without the first.
    pub altered: [bool; 2],
    /// Of the interacting tests, those on which the dynamic slices did not meet (which
    /// dynamic-slice intersection misses).
    pub missed_by_slices: Vec<usize>,
    /// Baselines on the new version: the tests covering both sets, and those on which
    /// the dynamic slices of the two sets meet (suite lines).
    pub covered_together: Vec<usize>,
    pub slices_meet: Vec<usize>,
    /// Tests by reason of no interaction: check 2, check 3, effects unchanged.
    pub not_run: usize,
    pub slices_apart: usize,
    pub no_interaction: usize,
    /// Tests that could not be compared, with the first reason.
    pub undecided: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided_reason: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Place {
    pub file: String,
    pub line: u32,
    /// `new`, `old` (a statement only the old version has) or `outside`.
    pub version: &'static str,
    pub text: String,
}

fn verdict_name(v: PairVerdict) -> &'static str {
    match v {
        PairVerdict::NotSeparable => "not-separable",
        PairVerdict::StaticSlicesApart => "pruned-static",
        PairVerdict::Interacts => "interacts",
        PairVerdict::NeverRun => "never-run-together",
        PairVerdict::DynamicSlicesApart => "pruned-dynamic",
        PairVerdict::NoInteraction => "no-interaction",
        PairVerdict::Undecided => "undecided",
    }
}

fn place(
    result: &Interactions,
    set: &ChangeSet,
    programs: [&Program; 2],
    key: u32,
) -> Option<Place> {
    let (program, node, old_side) = match result.keys.keys.get(key as usize)? {
        StmtKey::New(n) => (programs[1], *n, false),
        StmtKey::Old(o) => (programs[0], *o, true),
        StmtKey::Outside(k) => {
            return Some(Place {
                file: result.keys.paths.get(k[0] as usize)?.clone(),
                line: k[1],
                version: "outside",
                text: String::new(),
            })
        }
        StmtKey::End => {
            return Some(Place {
                file: String::new(),
                line: 0,
                version: "new",
                text: "the end of the run (exit status)".into(),
            })
        }
        StmtKey::Variant(..) => return None,
    };
    let span = program.functions[node.0].nodes[node.1].span;
    let file = program.file_path(span.file).to_string();
    let text = set
        .files
        .iter()
        .find(|f| {
            let p = if old_side { &f.old_path } else { &f.new_path };
            p.as_deref() == Some(file.as_str())
        })
        .and_then(|f| {
            let t = if old_side { &f.old_text } else { &f.new_text };
            t.lines().nth(span.start_line.saturating_sub(1) as usize)
        })
        .unwrap_or("")
        .trim()
        .to_string();
    Some(Place {
        file,
        line: span.start_line,
        version: if old_side { "old" } else { "new" },
        text,
    })
}

fn pair_view(
    result: &Interactions,
    set: &ChangeSet,
    programs: [&Program; 2],
    pair: &PairResult,
    lines: &[usize],
) -> PairView {
    let name = |g: usize| result.groups[g].name.clone();
    let (one, two) = pair.interacting();
    let count =
        |f: &dyn Fn(&TestVerdict) -> bool| pair.tests.iter().filter(|t| f(&t.verdict)).count();
    let first = pair.tests.iter().find_map(|t| match &t.verdict {
        TestVerdict::Interacts(i) => Some((i.at, i.altered)),
        _ => None,
    });
    let undecided_reason = pair.tests.iter().find_map(|t| match &t.verdict {
        TestVerdict::Undecided(why) => Some(why.clone()),
        _ => None,
    });
    PairView {
        sets: [name(pair.sets.0), name(pair.sets.1)],
        verdict: verdict_name(pair.verdict()),
        type_one: one.iter().map(|&t| lines[t]).collect(),
        type_two: two.iter().map(|&t| lines[t]).collect(),
        at: first.and_then(|(k, _)| place(result, set, programs, k)),
        altered: first.map_or([false; 2], |(_, a)| a),
        missed_by_slices: pair
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(&t.verdict, TestVerdict::Interacts(i) if !i.slices_met))
            .map(|(k, _)| lines[k])
            .collect(),
        covered_together: pair
            .tests
            .iter()
            .zip(lines)
            .filter(|(t, _)| t.covered_together)
            .map(|(_, &l)| l)
            .collect(),
        slices_meet: pair
            .tests
            .iter()
            .zip(lines)
            .filter(|(t, _)| t.slices_meet)
            .map(|(_, &l)| l)
            .collect(),
        not_run: count(&|v| *v == TestVerdict::NotRun),
        slices_apart: count(&|v| *v == TestVerdict::SlicesApart),
        no_interaction: count(&|v| *v == TestVerdict::NoInteraction),
        undecided: count(&|v| matches!(v, TestVerdict::Undecided(_))),
        undecided_reason,
    }
}

/// The view of a SCHID run. `tests` are the suite's (line, command) in run order.
pub fn interactions_view(
    result: &Interactions,
    set: &ChangeSet,
    programs: [&Program; 2],
    tests: &[(usize, String)],
    notes: Vec<String>,
) -> InteractionsView {
    let lines: Vec<usize> = tests.iter().map(|t| t.0).collect();
    let sets = result
        .groups
        .iter()
        .map(|g| SetView {
            name: g.name.clone(),
            changes: g
                .changes
                .iter()
                .filter_map(|&id| set.changes.iter().find(|c| c.id == id))
                .map(|c| {
                    let (file, line) = c.line(set);
                    SetChange {
                        id: c.id,
                        function: c.function.clone(),
                        file,
                        line,
                    }
                })
                .collect(),
        })
        .collect();
    InteractionsView {
        schema: 1,
        sets,
        pairs: result
            .pairs
            .iter()
            .map(|p| pair_view(result, set, programs, p, &lines))
            .collect(),
        tests: tests
            .iter()
            .map(|(line, command)| SuiteTest {
                line: *line,
                command: command.clone(),
            })
            .collect(),
        runs: result.runs,
        notes,
    }
}

pub fn render_json(view: &InteractionsView) -> String {
    serde_json::to_string_pretty(view).expect("a view serialises")
}

fn list(lines: &[usize], most: usize) -> String {
    let mut s: Vec<String> = lines.iter().take(most).map(|l| l.to_string()).collect();
    if lines.len() > most {
        s.push(format!("and {} more", lines.len() - most));
    }
    s.join(", ")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn render_text(view: &InteractionsView, all: bool) -> String {
    let mut out = String::new();
    let most = if all { usize::MAX } else { 8 };
    let _ = writeln!(
        out,
        "{}, {}, {} ({} runs of the variants)",
        plural(view.sets.len(), "change set", "change sets"),
        plural(view.pairs.len(), "pair", "pairs"),
        plural(view.tests.len(), "test", "tests"),
        view.runs
    );
    for s in &view.sets {
        let places: Vec<String> = s
            .changes
            .iter()
            .map(|c| format!("{}:{} in {}", c.file, c.line, c.function))
            .collect();
        let _ = writeln!(out, "  {:<10} {}", s.name, places.join("; "));
    }
    let interacting: Vec<&PairView> = view
        .pairs
        .iter()
        .filter(|p| p.verdict == "interacts")
        .collect();
    let undecided = view
        .pairs
        .iter()
        .filter(|p| matches!(p.verdict, "undecided" | "not-separable"))
        .count();
    let _ = writeln!(out);
    if !interacting.is_empty() {
        let _ = writeln!(out, "Interactions:");
    } else if undecided > 0 {
        let _ = writeln!(
            out,
            "No interaction observed, but {} could not be decided (below).",
            plural(undecided, "pair", "pairs")
        );
    } else {
        let _ = writeln!(out, "No interaction observed.");
    }
    for p in &interacting {
        let mut kinds = Vec::new();
        if !p.type_one.is_empty() {
            kinds.push(format!(
                "Type I on {} (suite line {})",
                plural(p.type_one.len(), "test", "tests"),
                list(&p.type_one, most)
            ));
        }
        if !p.type_two.is_empty() {
            kinds.push(format!(
                "Type II on {} (suite line {})",
                plural(p.type_two.len(), "test", "tests"),
                list(&p.type_two, most)
            ));
        }
        let _ = writeln!(out, "  {} x {}: {}", p.sets[0], p.sets[1], kinds.join("; "));
        if let Some(at) = &p.at {
            let text = if at.text.is_empty() {
                String::new()
            } else {
                format!("  `{}`", at.text)
            };
            let side = if at.version == "old" {
                " (old version)"
            } else {
                ""
            };
            let [a, b] = &p.sets;
            let how = match p.altered {
                [true, true] => "each changes the other's effect".to_string(),
                [true, false] => format!("{b} changes the effect of {a}"),
                [false, true] => format!("{a} changes the effect of {b}"),
                [false, false] => String::new(),
            };
            let first = p.type_one.iter().chain(&p.type_two).min().copied();
            let _ = writeln!(
                out,
                "      on suite line {}: {how}; the effects first differ at {}:{}{side}{text}",
                first.unwrap_or(0),
                at.file,
                at.line
            );
        }
        if !p.missed_by_slices.is_empty() {
            let _ = writeln!(
                out,
                "      on {} the dynamic slices do not meet (slice intersection misses it)",
                list(&p.missed_by_slices, most)
            );
        }
    }
    let quiet: Vec<&PairView> = view
        .pairs
        .iter()
        .filter(|p| p.verdict != "interacts")
        .collect();
    if !quiet.is_empty() {
        let _ = writeln!(out, "\nNo interaction:");
    }
    for p in quiet {
        let why = match p.verdict {
            "pruned-static" => {
                "static forward slices do not meet in any variant (check 1)".to_string()
            }
            "never-run-together" => "no test runs both (check 2)".to_string(),
            "pruned-dynamic" => format!(
                "dynamic slices never meet (check 3; {} of the tests run both)",
                p.slices_apart
            ),
            "no-interaction" => format!(
                "slices meet on {}, effects unchanged by each other",
                plural(p.no_interaction, "test", "tests")
            ),
            "not-separable" => {
                "a set changed through a macro or declaration cannot be left out".to_string()
            }
            _ => format!(
                "undecided: {}",
                p.undecided_reason
                    .as_deref()
                    .unwrap_or("no test could be compared")
            ),
        };
        let _ = writeln!(out, "  {} x {}: {why}", p.sets[0], p.sets[1]);
        if p.undecided > 0 && p.verdict != "undecided" {
            let _ = writeln!(
                out,
                "      {} undecided: {}",
                plural(p.undecided, "test", "tests"),
                p.undecided_reason.as_deref().unwrap_or("")
            );
        }
    }
    let run: Vec<&PairView> = view
        .pairs
        .iter()
        .filter(|p| !matches!(p.verdict, "pruned-static" | "not-separable"))
        .collect();
    if !run.is_empty() {
        let _ = writeln!(
            out,
            "\nAgainst the baselines on the new version (002 section 7.2.5), tests per pair:"
        );
        let _ = writeln!(
            out,
            "  {:<24} {:>9} {:>12} {:>7} {:>8}",
            "pair", "run both", "slices meet", "Type I", "Type II"
        );
        for p in run {
            let _ = writeln!(
                out,
                "  {:<24} {:>9} {:>12} {:>7} {:>8}",
                format!("{} x {}", p.sets[0], p.sets[1]),
                p.covered_together.len(),
                p.slices_meet.len(),
                p.type_one.len(),
                p.type_two.len()
            );
        }
    }
    for n in &view.notes {
        let _ = writeln!(out, "\nnote: {n}");
    }
    out
}
