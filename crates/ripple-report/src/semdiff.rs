//! Views and renderers of `ripple semdiff`: per affected function pair a verdict, the
//! difference summary as readable conditions over C names, and replayed witnesses.
//!
//! JSON schema 1: `{"schema":1,"functions":[{"name","verdict","differs_when",
//! "equal_when","non_termination_differs_when","full","witnesses":[{"kind","inputs":{},
//! "old":{},"new":{},"confirmed","unconfirmed_reason"}],"notes"}],"main":{...}|null,"settings":{...}}`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ripple_analyses::semdiff::{Observed, SemdiffReport, Unconfirmed, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
pub struct SemdiffView {
    pub schema: u32,
    /// Changed files the program analysed does not read, and changed lines in a branch
    /// of `#if` its build does not take: no verdict covers them (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_analysed: Vec<crate::diff::FileNotAnalysedView>,
    pub functions: Vec<FunctionView>,
    pub main: Option<FunctionView>,
    pub settings: SettingsView,
}

impl SemdiffView {
    /// Unchanged functions that behave differently, when no changed function is shown
    /// to: where the change shows (a changed function left unknown).
    pub fn differing_callers(&self) -> Vec<&FunctionView> {
        let shown = self
            .functions
            .iter()
            .any(|f| f.modified && f.verdict == "different");
        let differs = |f: &&FunctionView| !f.modified && f.verdict == "different";
        match shown {
            true => Vec::new(),
            false => self.functions.iter().filter(differs).collect(),
        }
    }

    /// Whether the wall-clock cut-off, not the work budget, stopped the run: another
    /// run may then decide more.
    pub fn machine_dependent(&self) -> bool {
        self.settings.stopped_by == Some("wall-clock cut-off")
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct SettingsView {
    pub refine: bool,
    pub unwind: u32,
    /// `wrap` (the semantics of code built with `-fwrapv`) or `no-ub` (differences
    /// through undefined behaviour excluded).
    #[serde(deserialize_with = "crate::interned::one")]
    pub assume: crate::interned::Word,
    pub solver_queries: u64,
    /// Work spent and the run's work budget, in units (deterministic).
    pub work: u64,
    pub work_budget: u64,
    /// Wall-clock time, only when asked for (`--verbose`): it varies between runs, and
    /// the rest of the document does not.
    pub elapsed_ms: Option<u64>,
    pub out_of_budget: bool,
    /// What stopped the run early: `work budget`, `wall-clock cut-off` (then the result
    /// may depend on the machine's load), or null.
    #[serde(deserialize_with = "crate::interned::optional")]
    pub stopped_by: Option<crate::interned::Word>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FunctionView {
    pub name: String,
    pub modified: bool,
    #[serde(deserialize_with = "crate::interned::one")]
    pub verdict: crate::interned::Word,
    pub differs_when: Option<String>,
    pub equal_when: Option<String>,
    pub non_termination_differs_when: Option<String>,
    /// Whether the three conditions form the full difference summary within the bounds.
    pub full: bool,
    pub witnesses: Vec<WitnessView>,
    pub notes: Vec<String>,
    /// Where the code that could not be read, which the function runs, is (`file:line`):
    /// then the verdict is `unknown` whatever the versions do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
    /// `true` when the pair differs only in the line numbers it reports (`__LINE__`,
    /// as an assert that moved); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lines_only: bool,
    /// `true` when the verdict rests on constructs the analysis does not model (inline
    /// assembly, code that could not be read, volatile objects); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unmodelled: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WitnessView {
    #[serde(deserialize_with = "crate::interned::one")]
    pub kind: crate::interned::Word,
    pub inputs: BTreeMap<String, String>,
    pub old: OutcomeView,
    pub new: OutcomeView,
    pub confirmed: bool,
    /// Why a witness is not confirmed: `limit` when a replay stopped at its step limit
    /// or could not run (which proves nothing), `undefined behaviour` when a replay
    /// trapped on an out-of-bounds access or a use after free (compiled code need not
    /// show it), `same outcome` when both replays agree, `compiled versions agree` when
    /// the interpreter saw a difference the compiled program does not show, `compiled
    /// run timed out`.
    #[serde(deserialize_with = "crate::interned::optional")]
    pub unconfirmed_reason: Option<crate::interned::Word>,
    /// What decided: `compiled code` (both versions built by the machine's C compiler)
    /// or `interpreter`.
    #[serde(deserialize_with = "crate::interned::one")]
    pub checked_by: crate::interned::Word,
    /// Why the compiled versions could not be run, when a compiler was there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_error: Option<String>,
    /// What the compiled versions did (old, new), as the driver records it: the
    /// program's output, then `|` before the result, each pointed-to object and the
    /// exit status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiled: Option<[String; 2]>,
    /// What the difference goes through besides ordinary values: undefined behaviour of
    /// a run (`signed overflow (new)`, `division by zero (old)`, ...) or `NaN or signed
    /// zero`.
    pub labels: Vec<String>,
}

impl WitnessView {
    /// `; through: ...` when the difference goes through undefined behaviour or NaNs
    /// (a difference only builds that define it, `-fwrapv`, show), else nothing.
    pub fn through_text(&self) -> String {
        if self.labels.is_empty() {
            String::new()
        } else {
            format!("; through: {}", self.labels.join(", "))
        }
    }

    /// Whether the runs show no difference on it (both replays, or the compiled
    /// versions, agree): an input the solver proposed, not a witness.
    pub fn refuted(&self) -> bool {
        matches!(
            self.unconfirmed_reason,
            Some("compiled versions agree") | Some("same outcome")
        )
    }

    /// The inputs in the order the reports list them: by name, those with long values
    /// (whole arrays) last, so that a cut list keeps the short ones that usually decide
    /// (`pointer = "2:"` before 192 elements of `index`).
    pub fn ordered_inputs(&self) -> Vec<(&String, &String)> {
        let mut inputs: Vec<(&String, &String)> = self.inputs.iter().collect();
        inputs.sort_by_key(|(k, v)| (v.len() > 60, *k));
        inputs
    }

    /// A run's result as the reports show it: the interpreter's, and where it trapped
    /// but the compiled version did not (an out-of-bounds read, which C leaves
    /// undefined: the machine reads on), what the compiled version did.
    pub fn result_text(&self, old: bool) -> String {
        let (outcome, side) = if old { (&self.old, 0) } else { (&self.new, 1) };
        let compiled_end = self
            .compiled
            .as_ref()
            .and_then(|c| c[side].rsplit('|').next())
            .map(str::trim)
            .filter(|end| end.starts_with("exit"));
        match compiled_end {
            Some(end) if outcome.result.starts_with("trap") => format!(
                "{} (the compiled version does not trap there: {end})",
                outcome.result
            ),
            _ => outcome.result.clone(),
        }
    }

    /// What the two runs show differently, first of: the result, the output, the state
    /// after (the result when they show nothing different).
    pub fn first_difference(&self) -> (String, String) {
        let (old, new) = (&self.old, &self.new);
        if old.result == new.result && old.stdout != new.stdout {
            return (
                format!("printed {:?}", old.stdout),
                format!("printed {:?}", new.stdout),
            );
        }
        if old.result == new.result {
            let keys = old.state.keys().chain(new.state.keys());
            for key in keys {
                let (a, b) = (old.state.get(key), new.state.get(key));
                if a != b {
                    let show = |v: Option<&String>| {
                        v.map_or_else(|| format!("{key} not set"), |v| format!("{key} = {v}"))
                    };
                    return (show(a), show(b));
                }
            }
        }
        (self.result_text(true), self.result_text(false))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OutcomeView {
    pub result: String,
    pub stdout: String,
    pub state: BTreeMap<String, String>,
}

fn outcome(observed: &Observed) -> OutcomeView {
    OutcomeView {
        result: observed.result.clone(),
        stdout: observed.stdout.clone(),
        state: observed
            .state
            .iter()
            .filter(|(k, _)| !k.ends_with("[..]"))
            .cloned()
            .collect(),
    }
}

pub fn semdiff_view(report: &SemdiffReport) -> SemdiffView {
    let functions: Vec<FunctionView> = report
        .functions
        .iter()
        .map(|f| FunctionView {
            name: f.name.clone(),
            modified: f.modified,
            verdict: f.verdict.name(),
            differs_when: f.differs_when.clone(),
            equal_when: f.equal_when.clone(),
            non_termination_differs_when: f.non_termination_differs_when.clone(),
            full: f.full,
            unread: f.unread.clone(),
            lines_only: f.lines_only,
            unmodelled: f.unmodelled,
            witnesses: f
                .witnesses
                .iter()
                .map(|w| WitnessView {
                    kind: w.kind,
                    inputs: w.inputs.iter().cloned().collect(),
                    old: outcome(&w.old),
                    new: outcome(&w.new),
                    confirmed: w.confirmed,
                    unconfirmed_reason: w.unconfirmed.map(Unconfirmed::name),
                    checked_by: w.checked_by,
                    native_error: w.native_error.clone(),
                    compiled: w.native.clone(),
                    labels: w.labels.clone(),
                })
                .collect(),
            notes: f.notes.clone(),
        })
        .collect();
    let main = report.main.map(|i| functions[i].clone());
    SemdiffView {
        schema: 1,
        not_analysed: Vec::new(),
        functions,
        main,
        settings: SettingsView {
            refine: report.refine,
            unwind: report.unwind,
            assume: if report.assume_no_ub { "no-ub" } else { "wrap" },
            solver_queries: report.queries,
            work: report.work,
            work_budget: report.work_budget,
            elapsed_ms: None,
            out_of_budget: report.out_of_budget,
            stopped_by: if report.stopped_by_clock {
                Some("wall-clock cut-off")
            } else if report.out_of_budget {
                Some("work budget")
            } else {
                None
            },
        },
    }
}

/// The exit code: 0 all equivalent, 1 some difference, 3 unknown remains.
pub fn exit_code(report: &SemdiffReport) -> u8 {
    if report
        .functions
        .iter()
        .any(|f| f.verdict == Verdict::Different)
    {
        1
    } else if report
        .functions
        .iter()
        .any(|f| f.verdict == Verdict::Unknown)
        || report.out_of_budget
    {
        3
    } else {
        0
    }
}

pub fn render_json(view: &SemdiffView) -> String {
    serde_json::to_string_pretty(view).expect("views serialize")
}

pub fn render_text(view: &SemdiffView) -> String {
    render(view, false)
}

/// The verdicts for a report that has other sections (`ripple diff`): the changed
/// functions in full; of their callers, only those decided, the undecided ones counted.
pub fn render_text_compact(view: &SemdiffView) -> String {
    render(view, true)
}

fn render(view: &SemdiffView, compact: bool) -> String {
    let mut out = String::new();
    // First: a change no verdict covers.
    for f in &view.not_analysed {
        let _ = writeln!(out, "{}", crate::diff::not_analysed_text(f));
    }
    match (view.functions.is_empty(), view.not_analysed.is_empty()) {
        (true, true) => out.push_str("no function is affected by the change\n"),
        (true, false) => out.push_str(
            "no function of the code analysed is affected by the change; the changes above have no verdict\n",
        ),
        _ => {}
    }
    let undecided = |f: &FunctionView| !f.modified && f.verdict == "unknown";
    // Changed only in the line numbers they report and undecided: one line in all.
    let moved = |f: &FunctionView| f.lines_only && f.verdict == "unknown";
    // The changes of code first; each group keeps the report's order.
    let mut listed: Vec<&FunctionView> = view.functions.iter().collect();
    listed.sort_by_key(|f| f.lines_only);
    for f in listed {
        if compact && (undecided(f) || moved(f)) {
            continue;
        }
        render_function(&mut out, f);
    }
    let moved: Vec<&str> = view
        .functions
        .iter()
        .filter(|f| moved(f))
        .map(|f| f.name.as_str())
        .collect();
    if compact && !moved.is_empty() {
        let more = if moved.len() > 4 {
            format!(" and {} more", moved.len() - 4)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} function(s) changed only in the line numbers they report ({}{more}): unknown within the budget, explored after the others (--all lists each)",
            moved.len(),
            moved[..moved.len().min(4)].join(", ")
        );
    }
    let (unread, skipped): (Vec<&FunctionView>, Vec<&FunctionView>) = view
        .functions
        .iter()
        .filter(|f| undecided(f))
        .partition(|f| f.unread.is_some());
    if compact && !skipped.is_empty() {
        let _ = writeln!(
            out,
            "{} other function(s) the change reaches (callers of changed functions, readers of changed globals): unknown within the budget (--all lists each)",
            skipped.len()
        );
    }
    if compact && !unread.is_empty() {
        let mut places: Vec<&str> = unread.iter().filter_map(|f| f.unread.as_deref()).collect();
        places.sort_unstable();
        places.dedup();
        let more = if places.len() > 3 {
            format!(" and {} more", places.len() - 3)
        } else {
            String::new()
        };
        places.truncate(3);
        let _ = writeln!(
            out,
            "{} other function(s) the change reaches: no verdict, they run code that could not be read ({}{more}; --all lists each)",
            unread.len(),
            places.join(", ")
        );
    }
    render_settings(&mut out, view);
    out
}

/// A condition as the text shows it: as computed, unless it still compares or reads
/// whole memories written by stores (`store(mem, p, 64) == ...`), which no reader can
/// follow; that is said instead, and the JSON keeps the term.
/// Conditions longer than this are not printed in text: no reader follows them.
const MAX_CONDITION_CHARS: usize = 400;

fn condition_text(condition: &str) -> String {
    if condition.contains("store(") {
        "(a condition on memory the text cannot show readably; the JSON has it)".into()
    } else if condition.chars().count() > MAX_CONDITION_CHARS {
        format!(
            "(a condition of {} characters; the JSON has it)",
            condition.chars().count()
        )
    } else {
        condition.to_string()
    }
}

fn render_function(out: &mut String, f: &FunctionView) {
    {
        let _ = writeln!(
            out,
            "{}: {}{}",
            f.name,
            f.verdict,
            if f.modified { " (modified)" } else { "" }
        );
        // Undecided, the conditions are where the versions may differ, not where they
        // were shown to.
        let undecided = f.verdict == "unknown";
        if let Some(c) = &f.differs_when {
            let label = if undecided {
                "may differ when:      "
            } else {
                "differs when:         "
            };
            let _ = writeln!(out, "  {label} {}", condition_text(c));
        }
        if let Some(t) = &f.non_termination_differs_when {
            let label = if undecided {
                "termination may differ:"
            } else {
                "termination differs:  "
            };
            let _ = writeln!(out, "  {label} {}", condition_text(t));
        }
        if let Some(u) = &f.equal_when {
            let _ = writeln!(out, "  equal when:            {}", condition_text(u));
        }
        if f.full {
            out.push_str("  (full difference summary within the bounds)\n");
        }
        // Inputs on which the runs show no difference are no witnesses: one line says
        // how many the solver proposed (the JSON lists them).
        let refuted_count = f.witnesses.iter().filter(|w| w.refuted()).count();
        if refuted_count > 0 {
            let _ = writeln!(
                out,
                "  {refuted_count} input(s) the solver proposed ran the same in both versions: no witness (the JSON lists them)"
            );
        }
        for w in f.witnesses.iter().filter(|w| !w.refuted()) {
            let inputs: Vec<String> = w
                .ordered_inputs()
                .into_iter()
                .map(|(k, v)| format!("{k} = {}", clipped(v)))
                .collect();
            let _ = writeln!(
                out,
                "  witness ({}, {}): {}",
                w.kind,
                match w.unconfirmed_reason {
                    None if w.checked_by == "compiled code" => "confirmed on the compiled versions",
                    None => "confirmed by the interpreter",
                    Some("limit") =>
                        "unconfirmed (limit): a replay hit its step limit or could not run",
                    Some("undefined behaviour") => {
                        "unconfirmed: the difference goes through undefined behaviour"
                    }
                    Some("compiled versions agree") => {
                        "NOT confirmed: the compiled versions agree on it"
                    }
                    Some("only addresses differ") => {
                        "unconfirmed: only addresses differ (returned or stored), and each \
                         version lays its memory out differently"
                    }
                    Some("only the compiled runs differ") => {
                        "NOT confirmed: the interpreter's runs differ only in addresses, and \
                         the compiled runs differ where addresses decide, which C leaves open"
                    }
                    Some("compiled run timed out") => {
                        "unconfirmed (limit): a compiled run timed out"
                    }
                    Some("compiled run crashed past the step limit") => {
                        "unconfirmed (limit): a compiled run crashed where the \
                         interpreter ran out of steps (the stack limit?)"
                    }
                    Some("undefined behaviour excluded") => {
                        "not counted: it goes through undefined behaviour (--assume no-ub)"
                    }
                    Some("inputs not applied to the compiled runs") => {
                        "unconfirmed: the compiled runs could not be given every input (a \
                         pointer global), so they ran another one; the replays show it"
                    }
                    Some("a record's layout changed") => {
                        "NOT confirmed: a record it reads is laid out differently in the \
                         versions, so the same input bytes are other members in each"
                    }
                    Some(_) => "NOT confirmed: both replays agree",
                },
                if inputs.is_empty() {
                    "no inputs (the globals at their initial values)".to_string()
                } else {
                    inputs.join(", ")
                }
            );
            for (label, o, result) in [
                ("old", &w.old, w.result_text(true)),
                ("new", &w.new, w.result_text(false)),
            ] {
                let state: Vec<String> = o
                    .state
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", clipped(v)))
                    .collect();
                let _ = writeln!(
                    out,
                    "    {label}: {}{}{}",
                    result,
                    if state.is_empty() {
                        String::new()
                    } else {
                        format!("; {}", state.join(", "))
                    },
                    if o.stdout.is_empty() {
                        String::new()
                    } else {
                        format!("; stdout {:?}", o.stdout)
                    }
                );
            }
            if !w.labels.is_empty() {
                let _ = writeln!(out, "    through: {}", w.labels.join(", "));
            }
            // Confirmed by the compiled runs where the interpreter's replays agree
            // (buffered output lost by `_Exit`, a crash): show what the compiled did.
            let replays_agree = w.old.result == w.new.result
                && w.old.stdout == w.new.stdout
                && w.old.state == w.new.state;
            // And where a compiled run crashed, which the replays above do not show.
            let crashed = w
                .compiled
                .as_ref()
                .is_some_and(|c| c.iter().any(|o| o.contains("|signal")));
            if let (true, true, Some([a, b])) = (w.confirmed, replays_agree || crashed, &w.compiled)
            {
                let _ = writeln!(out, "    compiled old: {a:?}");
                let _ = writeln!(out, "    compiled new: {b:?}");
            }
            if let Some(e) = &w.native_error {
                let _ = writeln!(out, "    (not run compiled: {e}; the interpreter decided)");
            }
        }
        for note in &f.notes {
            let _ = writeln!(out, "  note: {note}");
        }
    }
}

fn render_settings(out: &mut String, view: &SemdiffView) {
    let millions = |units: u64| format!("{:.1}", units as f64 / 1e6);
    let (work, budget) = (view.settings.work, view.settings.work_budget);
    // The query or replay under way when the budget runs out finishes: a run may end a
    // little past it.
    let spent = if work > budget {
        format!(
            "{} M work units, past the budget of {} M by what was under way when it ran out",
            millions(work),
            millions(budget)
        )
    } else {
        format!("{} of {} M work units", millions(work), millions(budget))
    };
    let stopped = match view.settings.stopped_by {
        Some("wall-clock cut-off") => {
            ", stopped by the wall-clock cut-off: the result may differ on another machine".into()
        }
        // The exploration stops at its share; the verdicts and witnesses get the rest.
        Some(_) if (work as f64) < budget as f64 * 0.9 => format!(
            ", the exploration's share of the budget ({:.0}%) ran out",
            ripple_analyses::semdiff::EXPLORATION_SHARE * 100.0
        ),
        Some(_) => ", budget exhausted".into(),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "({} mode, unwinding bound {}, {} solver queries, {spent}{}{}{})",
        if view.settings.refine {
            "refinement"
        } else {
            "no-refinement"
        },
        view.settings.unwind,
        view.settings.solver_queries,
        if view.settings.assume == "no-ub" {
            ", assuming no undefined behaviour"
        } else {
            ""
        },
        view.settings
            .elapsed_ms
            .map(|ms| format!(", {ms} ms"))
            .unwrap_or_default(),
        stopped
    );
}

/// Characters of one value of a witness (an input, or a value a run left) the text
/// shows; the JSON has every value whole.
const VALUE_CHARS: usize = 120;

/// `value` cut to [`VALUE_CHARS`] characters, saying so.
fn clipped(value: &str) -> std::borrow::Cow<'_, str> {
    match head(value, VALUE_CHARS) {
        Some(head) => format!("{head} … (cut; the JSON has it whole)").into(),
        None => value.into(),
    }
}

/// The first `chars` characters of `value`, when it has more.
fn head(value: &str, chars: usize) -> Option<&str> {
    value
        .char_indices()
        .nth(chars)
        .map(|(cut, _)| &value[..cut])
}

/// Characters of a witness's inputs a Markdown table cell shows.
const MARKDOWN_INPUTS: usize = 160;

/// Characters of one input the folded list under the table shows (a buffer of 4,096
/// bytes is the JSON's to hold).
const MARKDOWN_INPUT_WHOLE: usize = 600;

/// The verdicts of the changed functions as a Markdown table (a pull-request comment):
/// each with its evidence, a confirmed witness first; nothing when no changed function
/// was analysed.
pub fn render_markdown_table(semantic: &SemdiffView) -> String {
    use crate::markdown::code;
    let mut out = String::new();
    let mut decided: Vec<_> = semantic.functions.iter().filter(|f| f.modified).collect();
    // Those changed only in their line numbers and undecided: one row after the others.
    let moved = decided
        .iter()
        .filter(|f| f.lines_only && f.verdict == "unknown")
        .count();
    decided.retain(|f| !(f.lines_only && f.verdict == "unknown"));
    decided.sort_by_key(|f| f.lines_only);
    decided.extend(semantic.differing_callers());
    if !decided.is_empty() || moved > 0 {
        let _ = writeln!(out, "#### Semantic verdicts\n");
        let _ = writeln!(out, "| function | verdict | evidence |");
        let _ = writeln!(out, "|---|---|---|");
        // Inputs too long for their cell, whole after the table: (function, inputs).
        let whole: std::cell::RefCell<Vec<(String, Vec<String>)>> = Default::default();
        for f in decided {
            // A table cell holds the first MARKDOWN_INPUTS characters of the inputs.
            let inputs_of = |w: &crate::semdiff::WitnessView| {
                let inputs: Vec<String> = w
                    .ordered_inputs()
                    .into_iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                let all = inputs.join(", ");
                if all.is_empty() {
                    return "no inputs (the globals at their initial values)".to_string();
                }
                match head(&all, MARKDOWN_INPUTS) {
                    Some(shown) => {
                        let mut whole = whole.borrow_mut();
                        if !whole.iter().any(|(name, _)| *name == f.name) {
                            whole.push((f.name.clone(), inputs));
                        }
                        format!("{} … (whole below)", code(shown))
                    }
                    None => code(&all),
                }
            };
            let evidence = match (
                f.witnesses.iter().find(|w| w.confirmed),
                f.witnesses.iter().find(|w| !w.refuted()),
            ) {
                (Some(w), _) => {
                    let (old, new) = w.first_difference();
                    format!(
                        "on {}: old {}, new {} ({}{})",
                        inputs_of(w),
                        code(&old),
                        code(&new),
                        w.checked_by,
                        w.through_text()
                    )
                }
                (None, Some(w)) if f.verdict == "different" => format!(
                    "the solver proves a difference; the witness on {} is not confirmed ({})",
                    inputs_of(w),
                    w.unconfirmed_reason.unwrap_or("its runs agree")
                ),
                (None, _) if f.verdict == "different" => {
                    "the solver proves an input on which they differ".to_string()
                }
                // Unknown with a difference found but not confirmed: a possible
                // difference, not a proved one.
                (None, Some(w)) => format!(
                    "a possible difference; the witness on {} is not confirmed ({}){}",
                    inputs_of(w),
                    w.unconfirmed_reason.unwrap_or("its runs agree"),
                    f.notes
                        .iter()
                        .find(|n| n.starts_with("possible difference"))
                        .map(|n| format!(": {n}"))
                        .unwrap_or_default()
                ),
                _ => f.notes.first().cloned().unwrap_or_default(),
            };
            let name = if f.modified {
                code(&f.name)
            } else {
                format!("{} (unchanged, calls a changed one)", code(&f.name))
            };
            let _ = writeln!(
                out,
                "| {name} | {} | {} |",
                f.verdict,
                evidence.replace('|', "\\|")
            );
        }
        if moved > 0 {
            let _ = writeln!(
                out,
                "| {moved} function(s) changed only in the line numbers they report | unknown | explored after the changes of code |"
            );
        }
        out.push('\n');
        // A cut input may be the one that decides (picohttpparser's decoder `_state`,
        // its last member): each witness cut in the table is whole here, folded.
        for (name, inputs) in whole.into_inner() {
            let _ = writeln!(
                out,
                "<details><summary>Inputs of the witness of {}</summary>\n\n```\n{}\n```\n\n</details>\n",
                code(&name),
                inputs
                    .iter()
                    .map(|input| match head(input, MARKDOWN_INPUT_WHOLE) {
                        Some(shown) => format!("{shown} … (the JSON has it whole)"),
                        None => input.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
                    .replace("```", "'''")
            );
        }
    }
    out
}

/// `ripple semdiff --format markdown`: a heading, then the table of verdicts.
pub fn render_markdown(view: &SemdiffView) -> String {
    let mut out = String::from("### ripple: semantic verdicts of the changed functions\n\n");
    for f in &view.not_analysed {
        let _ = writeln!(
            out,
            "> **Warning:** {} (no verdict covers it)\n",
            crate::diff::not_analysed_text(f)
        );
    }
    let table = render_markdown_table(view);
    if table.is_empty() {
        out.push_str("No changed function was analysed.\n");
    } else {
        out.push_str(&table.replacen("#### Semantic verdicts\n\n", "", 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_too_long_to_read_is_counted_not_printed() {
        let mut f = function("f", true, "unknown");
        let long = vec!["x == 1"; 100].join(" || ");
        f.differs_when = Some(long.clone());
        f.equal_when = Some("x != 1".into());
        let mut out = String::new();
        render_function(&mut out, &f);
        assert!(!out.contains(&long), "{out}");
        assert!(
            out.contains(&format!(
                "(a condition of {} characters; the JSON has it)",
                long.len()
            )),
            "{out}"
        );
        assert!(out.contains("equal when:            x != 1"), "{out}");
    }

    fn function(name: &str, modified: bool, verdict: &'static str) -> FunctionView {
        FunctionView {
            name: name.into(),
            modified,
            verdict,
            differs_when: None,
            equal_when: None,
            non_termination_differs_when: None,
            full: false,
            witnesses: Vec::new(),
            notes: vec!["budget exhausted".into()],
            unread: None,
            lines_only: false,
            unmodelled: false,
        }
    }

    /// A view of `functions` with settings of `work` units of `budget`, stopped by
    /// `stopped` (if anything stopped the run).
    fn view(
        functions: Vec<FunctionView>,
        work: u64,
        budget: u64,
        stopped: Option<&'static str>,
    ) -> SemdiffView {
        SemdiffView {
            schema: 1,
            not_analysed: Vec::new(),
            functions,
            main: None,
            settings: SettingsView {
                refine: true,
                unwind: 5,
                assume: "wrap",
                solver_queries: 3,
                work,
                work_budget: budget,
                elapsed_ms: None,
                out_of_budget: stopped.is_some(),
                stopped_by: stopped,
            },
        }
    }

    /// A confirmed witness without inputs whose runs ended as `old` and `new`.
    fn witness(old: OutcomeView, new: OutcomeView) -> WitnessView {
        WitnessView {
            kind: "output",
            inputs: BTreeMap::new(),
            old,
            new,
            confirmed: true,
            unconfirmed_reason: None,
            checked_by: "interpreter",
            native_error: None,
            compiled: None,
            labels: Vec::new(),
        }
    }

    /// cJSON 74e1ff4: the interpreter traps on the old version's read past a 2-byte
    /// object, the compiled old version reads on and exits 0 (`| 1 | 50 58 | 30 |exit
    /// 0`): the report says both, not only the trap, beside "confirmed on the compiled
    /// versions". The decisive short input comes before the long array in every list.
    #[test]
    fn a_trap_the_compiled_version_does_not_show_is_said_so_and_short_inputs_lead() {
        let outcome = |result: &str| OutcomeView {
            result: result.into(),
            stdout: String::new(),
            state: BTreeMap::new(),
        };
        let mut w = witness(
            outcome("trap: out-of-bounds access of 1 bytes at offset 2 of a 2-byte object"),
            outcome("returned 0"),
        );
        w.checked_by = "compiled code";
        w.compiled = Some([
            "| 1 | 50 58 | 30 |exit 0".into(),
            "| 0 | 50 58 | 777 |exit 0".into(),
        ]);
        w.inputs.insert(
            "index[1..192]".into(),
            format!("{{{}}}", vec!["36170086"; 40].join(", ")),
        );
        w.inputs.insert(
            "pointer".into(),
            "\"2:\" (2 bytes, no terminating NUL)".into(),
        );
        assert_eq!(
            w.result_text(true),
            "trap: out-of-bounds access of 1 bytes at offset 2 of a 2-byte object (the compiled version does not trap there: exit 0)"
        );
        assert_eq!(w.result_text(false), "returned 0");
        let keys: Vec<&str> = w.ordered_inputs().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["pointer", "index[1..192]"]);
        // A trap the compiled version shows too (a signal) is the trap alone.
        w.compiled = Some(["| signal 11".into(), "| 0 |exit 0".into()]);
        assert_eq!(
            w.result_text(true),
            "trap: out-of-bounds access of 1 bytes at offset 2 of a 2-byte object"
        );
    }

    /// Pairs changed only in the line numbers they report and left undecided are one
    /// line (one row of the table) after the changes of code; decided ones are listed.
    #[test]
    fn changed_line_numbers_undecided_are_one_line_after_the_changes_of_code() {
        let moved = |name: &str, verdict: &'static str| FunctionView {
            lines_only: true,
            ..function(name, true, verdict)
        };
        let view = view(
            vec![
                moved("a_moved", "unknown"),
                moved("b_moved", "equivalent"),
                function("real", true, "unknown"),
                moved("c_moved", "unknown"),
            ],
            0,
            1,
            None,
        );
        let compact = render_text_compact(&view);
        // The change of code first, the decided line-number pair listed, the two others
        // folded.
        let real = compact
            .find("real: unknown (modified)")
            .expect("real listed");
        let decided = compact.find("b_moved: equivalent").expect("decided listed");
        assert!(real < decided, "{compact}");
        assert!(
            compact.contains("2 function(s) changed only in the line numbers they report (a_moved, c_moved): unknown"),
            "{compact}"
        );
        assert!(!compact.contains("a_moved: unknown"), "{compact}");
        let full = render_text(&view);
        assert!(full.contains("a_moved: unknown") && full.contains("c_moved: unknown"));
        let table = render_markdown_table(&view);
        assert!(
            table.contains(
                "| 2 function(s) changed only in the line numbers they report | unknown |"
            ) && !table.contains("`a_moved`"),
            "{table}"
        );
    }

    /// picohttpparser d236094: the decoder's members fill the table cell before its
    /// last one, `_state`, which decides; inputs cut in the table are whole below it,
    /// folded, each cut only past what a comment holds.
    #[test]
    fn inputs_cut_in_the_markdown_table_are_whole_below_it() {
        let outcome = |result: &str| OutcomeView {
            result: result.into(),
            stdout: String::new(),
            state: BTreeMap::new(),
        };
        let mut w = witness(outcome("returned -2"), outcome("returned -1"));
        let decoder = "{.bytes_left_in_chunk = 0, .consume_trailer = 0, ._hex_count = 0,                        ._total_read = 0, ._total_overhead = 0, ._state = 0}";
        w.inputs.insert("*decoder".into(), decoder.into());
        w.inputs
            .insert("buf".into(), format!("\"{}\"", "a".repeat(2000)));
        let mut f = function("phr_decode_chunked", true, "different");
        f.witnesses.push(w);
        let table = render_markdown_table(&view(vec![f], 0, 1, None));
        assert!(table.contains("… (whole below)"), "{table}");
        let folded = table
            .split("<details><summary>Inputs of the witness of `phr_decode_chunked`</summary>")
            .nth(1)
            .expect("the inputs under the table");
        assert!(folded.contains(&format!("*decoder = {decoder}")), "{table}");
        assert!(folded.contains("… (the JSON has it whole)"), "{table}");
        assert!(folded.len() < 1000, "{table}");
    }

    /// The compact text lists the changed functions whatever their verdict and the
    /// callers that were decided; the undecided callers are counted in one line.
    #[test]
    fn compact_text_counts_the_undecided_callers() {
        let view = view(
            vec![
                function("changed", true, "unknown"),
                function("caller_a", false, "unknown"),
                function("caller_b", false, "different"),
                function("caller_c", false, "unknown"),
            ],
            0,
            1,
            None,
        );
        let compact = render_text_compact(&view);
        assert!(compact.contains("changed: unknown (modified)"), "{compact}");
        assert!(compact.contains("caller_b: different"), "{compact}");
        assert!(
            !compact.contains("caller_a") && !compact.contains("caller_c"),
            "{compact}"
        );
        assert!(
            compact.contains("2 other function(s) the change reaches (callers of changed functions, readers of changed globals): unknown"),
            "{compact}"
        );
        let full = render_text(&view);
        assert!(full.contains("caller_a: unknown") && full.contains("caller_c: unknown"));
        assert!(
            !full.contains("other function(s) the change reaches"),
            "{full}"
        );
    }

    /// The settings line says what ended the run: a work total past the budget is the
    /// query under way finishing, and a stop well under the budget is the exploration's
    /// share running out (the rest went to the verdicts), not the budget.
    #[test]
    fn the_budget_line_says_what_ran_out() {
        let line = |work: u64, budget: u64, stopped: Option<&'static str>| {
            let mut out = String::new();
            render_settings(&mut out, &view(Vec::new(), work, budget, stopped));
            out
        };
        let over = line(11_500_000, 7_000_000, Some("work budget"));
        assert!(
            over.contains("11.5 M work units, past the budget of 7.0 M"),
            "{over}"
        );
        assert!(over.contains("budget exhausted"), "{over}");
        let share = line(24_600_000, 40_000_000, Some("work budget"));
        assert!(share.contains("24.6 of 40.0 M work units"), "{share}");
        assert!(
            share.contains("the exploration's share of the budget (60%) ran out"),
            "{share}"
        );
        let done = line(2_000_000, 7_000_000, None);
        assert!(done.ends_with("2.0 of 7.0 M work units)\n"), "{done}");
    }

    /// A long value (a table of 256 entries) is cut in the text, which says so; the JSON
    /// keeps it whole.
    #[test]
    fn a_long_witness_value_is_cut_in_the_text_only() {
        let table = format!(
            "{{{}}}",
            (0..256)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let outcome = |result: &str| OutcomeView {
            result: result.into(),
            stdout: String::new(),
            state: [("table".to_string(), table.clone())].into_iter().collect(),
        };
        let mut f = function("lookup", true, "different");
        let mut w = witness(outcome("returned 1"), outcome("returned 2"));
        w.inputs = [("table".to_string(), table.clone())].into_iter().collect();
        f.witnesses.push(w);
        let view = view(vec![f], 0, 1, None);
        let text = render_text(&view);
        assert!(text.contains("… (cut; the JSON has it whole)"), "{text}");
        assert!(!text.contains("255}"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() < 300), "{text}");
        assert!(render_json(&view).contains("254, 255}"));
    }

    /// The evidence names what the runs show differently: the result first, then the
    /// output, then the state after.
    #[test]
    fn a_witness_shows_the_first_thing_its_runs_do_differently() {
        let outcome = |result: &str, stdout: &str, state: &[(&str, &str)]| OutcomeView {
            result: result.into(),
            stdout: stdout.into(),
            state: state
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let w = witness(
            outcome("returned 1", "a", &[]),
            outcome("returned 2", "b", &[]),
        );
        assert_eq!(
            w.first_difference(),
            ("returned 1".into(), "returned 2".into())
        );
        let w = witness(
            outcome("returned 0", "3\n", &[]),
            outcome("returned 0", "5\n", &[]),
        );
        assert_eq!(
            w.first_difference(),
            ("printed \"3\\n\"".into(), "printed \"5\\n\"".into())
        );
        let w = witness(
            outcome("returned 0", "", &[("g", "1"), ("h", "7")]),
            outcome("returned 0", "", &[("g", "1"), ("h", "8")]),
        );
        assert_eq!(w.first_difference(), ("h = 7".into(), "h = 8".into()));
    }
}
