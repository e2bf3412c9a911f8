//! One report of several analyses of a change (`ripple diff`): the changes, then the
//! function-level impact, then the statement-level impact, then the semantic verdicts, then the invariant churns at the
//! changed functions' exits, each section present when its analysis ran, and what was
//! not run with the reason. The JSON is the changes document (`ripple diff --format
//! json`) with `function_impact` (as `ripple impact --level function`), `impact` (as `ripple
//! impact`), `semantic` (as `ripple semdiff`),
//! `invariants` (as `ripple invariants`) and `not_run` added.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::diff::DiffView;
use crate::impact::ImpactView;
use crate::impact_lines::ImpactLinesView;
use crate::invariants::InvariantsView;
use crate::semdiff::SemdiffView;

#[derive(Serialize, Deserialize)]
pub struct Report {
    #[serde(flatten)]
    pub changes: DiffView,
    /// Whether the text shows the changes (`--only` may leave them out).
    #[serde(skip)]
    pub show_changes: bool,
    /// Whether the text lists everything (`--all`): every impacted function, every
    /// verdict; else the nearest functions and the decided verdicts, the rest counted.
    #[serde(skip)]
    pub all: bool,
    /// `function_impact` in JSON (`functions` are the changes document's).
    #[serde(
        rename = "function_impact",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub functions: Option<ImpactView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<ImpactLinesView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantic: Option<SemdiffView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invariants: Option<InvariantsView>,
    /// Sections asked for and not run, with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<NotRun>,
}

#[derive(Serialize, Deserialize)]
pub struct NotRun {
    #[serde(deserialize_with = "crate::interned::one")]
    pub section: crate::interned::Word,
    pub reason: String,
}

impl Report {
    /// Whether a wall-clock cut-off, not a work budget, stopped some analysis of the
    /// report: another run (on another machine, or under another load) may then give
    /// another report.
    pub fn machine_dependent(&self) -> bool {
        self.semantic
            .as_ref()
            .is_some_and(crate::semdiff::SemdiffView::machine_dependent)
            || self
                .invariants
                .as_ref()
                .is_some_and(|i| i.graph.stopped_by.is_some())
            || self
                .impact
                .as_ref()
                .is_some_and(ImpactLinesView::machine_dependent)
    }
}

/// Impacted functions the text of `ripple diff` lists (the nearest) without `--all`.
const DIFF_FUNCTIONS: usize = 40;

pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    if report.show_changes {
        out.push_str(&crate::diff::render_text(&report.changes, report.all));
    } else {
        // A change no section analyses is said whatever the sections shown.
        for f in &report.changes.files_not_analysed {
            let _ = writeln!(out, "{}", crate::diff::not_analysed_text(f));
        }
    }
    if let Some(functions) = &report.functions {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "functions: those that may run after a changed one (static execute after; `ripple impact --level function`)"
        );
        // Which of their statements the change can reach is the next section's: the
        // functions are then counted, not listed.
        let limit = match (&report.impact, report.all) {
            (_, true) => None,
            (Some(_), false) => Some(0),
            (None, false) => Some(DIFF_FUNCTIONS),
        };
        out.push_str(&crate::impact::render_compact(functions, limit));
    }
    if let Some(impact) = &report.impact {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "impact: the statements the change may affect (`ripple impact` for every line)"
        );
        out.push_str(&crate::impact_lines::render_text_with(
            impact,
            &crate::impact_lines::TextOptions {
                all: false,
                whole_chains: report.all,
                max_functions: (!report.all).then_some(DIFF_FUNCTIONS),
            },
        ));
    }
    if let Some(semantic) = &report.semantic {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "semantic verdicts: which changed functions are equivalent, and inputs on which they differ"
        );
        if report.all {
            out.push_str(&crate::semdiff::render_text(semantic));
        } else {
            out.push_str(&crate::semdiff::render_text_compact(semantic));
        }
    }
    if let Some(invariants) = &report.invariants {
        if !out.is_empty() {
            out.push('\n');
        }
        if invariants.points.iter().all(|p| p.is_quiet()) && !report.all {
            let _ = writeln!(
                out,
                "invariant churns: none at the exits of the {} changed function(s) (--all lists their invariants)",
                invariants.points.len()
            );
        } else {
            let _ = writeln!(
                out,
                "invariant churns: properties at the changed functions' exits that hold in one version only"
            );
            out.push_str(&crate::invariants::render_text(invariants, report.all));
        }
    }
    for n in &report.not_run {
        let _ = writeln!(out, "{}: not run: {}", n.section, n.reason);
    }
    out
}

pub fn render_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Changed functions listed in the Markdown report; the count of the others follows.
const MAX_MARKDOWN_FUNCTIONS: usize = 30;

/// The report as Markdown, for a pull-request comment: the semantic verdicts first
/// (what a reviewer can rely on), then the changed functions, then the impact.
pub fn render_markdown(report: &Report) -> String {
    use crate::markdown::code;
    let mut out = String::new();
    let s = &report.changes.summary;
    let _ = writeln!(out, "### ripple: what the change does\n");
    let _ = writeln!(
        out,
        "**{} function(s) changed**: {} modified, {} added, {} removed, {} renamed; {} global(s) changed.\n",
        s.modified + s.added + s.removed + s.renamed,
        s.modified,
        s.added,
        s.removed,
        s.renamed,
        s.globals_changed
    );
    if !report.changes.read_errors.is_empty() {
        let _ = writeln!(
            out,
            "**Read errors:** {}.\n",
            report.changes.read_errors.text()
        );
    }
    for f in &report.changes.files_not_analysed {
        if f.lines_only() {
            let _ = writeln!(
                out,
                "**Not compiled:** {} changed in a branch of `#if` this build does not take (lines {}); not analysed.\n",
                code(&f.file),
                f.lines_text()
            );
            continue;
        }
        let functions = if f.functions.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = f.functions.iter().map(|n| code(n)).collect();
            format!("; changed function(s): {}", names.join(", "))
        };
        let _ = writeln!(
            out,
            "**Not analysed:** {} changed, outside the program analysed{functions}.\n",
            code(&f.file)
        );
    }
    for d in &report.changes.declarations_changed {
        let _ = writeln!(
            out,
            "**Declarations changed, not the code:** {} (lines {}).\n",
            code(&d.file),
            d.lines_text()
        );
    }
    if let Some(semantic) = &report.semantic {
        out.push_str(&crate::semdiff::render_markdown_table(semantic));
    }
    if report.show_changes {
        let changed: Vec<_> = report
            .changes
            .functions
            .iter()
            .filter(|f| f.status != "unchanged")
            .collect();
        if !changed.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>Changed functions ({})</summary>\n",
                changed.len()
            );
            let _ = writeln!(out, "| function | file | change | new lines |");
            let _ = writeln!(out, "|---|---|---|---|");
            for f in changed.iter().take(MAX_MARKDOWN_FUNCTIONS) {
                let lines: Vec<String> = f.new_lines.iter().map(u32::to_string).collect();
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    code(&f.name),
                    code(&f.file),
                    f.status,
                    lines.join(", ")
                );
            }
            if changed.len() > MAX_MARKDOWN_FUNCTIONS {
                let _ = writeln!(
                    out,
                    "\n{} more; every function is in the JSON report.",
                    changed.len() - MAX_MARKDOWN_FUNCTIONS
                );
            }
            let _ = writeln!(out, "\n</details>\n");
        }
    }
    if let Some(functions) = &report.functions {
        let s = &functions.summary;
        let names: Vec<String> = functions
            .impacted_functions
            .iter()
            .take(MAX_MARKDOWN_FUNCTIONS)
            .map(|f| code(&f.name))
            .collect();
        let more = functions
            .impacted_functions
            .len()
            .saturating_sub(MAX_MARKDOWN_FUNCTIONS);
        let _ = writeln!(
            out,
            "**{} function(s) may run after the change** (static execute after; the call graph alone gives {}){}{}{}\n",
            s.impacted,
            s.callgraph_impacted,
            if names.is_empty() { "" } else { ": " },
            names.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        );
    }
    if let Some(impact) = &report.impact {
        let _ = writeln!(out, "#### Impact\n");
        out.push_str(&crate::markdown::render_section(impact));
    }
    if let Some(invariants) = &report.invariants {
        out.push_str(&crate::invariants::render_markdown(invariants));
    }
    for n in &report.not_run {
        let _ = writeln!(out, "_{}: not run: {}_\n", n.section, n.reason);
    }
    out
}

/// One commit of a range analysed commit by commit (against its first parent).
#[derive(Serialize, Deserialize)]
pub struct CommitReport {
    pub commit: String,
    pub subject: String,
    pub report: Report,
}

/// A range analysed commit by commit (`ripple diff A..B --each-commit`), oldest first.
#[derive(Serialize, Deserialize)]
pub struct HistoryReport {
    pub schema: u32,
    pub range: String,
    pub commits: Vec<CommitReport>,
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

pub fn render_history_text(history: &HistoryReport) -> String {
    history
        .commits
        .iter()
        .enumerate()
        .map(|(i, c)| render_commit_text(i == 0, c))
        .collect()
}

/// One commit of a history as text (`first`: no blank line before it), printed as soon
/// as the commit is analysed.
pub fn render_commit_text(first: bool, c: &CommitReport) -> String {
    let mut out = String::new();
    if !first {
        out.push('\n');
    }
    let _ = writeln!(out, "━━ commit {} {}", short(&c.commit), c.subject);
    if c.report.changes.summary.any_change() {
        out.push_str(&render_text(&c.report));
    } else {
        let _ = writeln!(out, "{NO_CHANGE}");
    }
    out
}

/// What a commit that changes nothing the analysed program is made of says: its C files
/// may still differ in comments, layout or code the preprocessor leaves out.
const NO_CHANGE: &str = "no change to the analysed program after preprocessing";

pub fn render_history_json(history: &HistoryReport) -> String {
    serde_json::to_string_pretty(history).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The JSON of a history written commit by commit: this start, then
/// [`history_json_commit`] for each commit, then [`history_json_end`] make the text of
/// [`render_history_json`] without holding every report at once.
pub fn history_json_start(range: &str) -> String {
    let range = serde_json::to_string(range).unwrap_or_default();
    format!(
        "{{\n  \"schema\": {},\n  \"range\": {range},\n  \"commits\": [",
        crate::IMPACT_SCHEMA_VERSION
    )
}

/// One commit of a history written commit by commit (`first`: the first of the list).
pub fn history_json_commit(first: bool, commit: &CommitReport) -> String {
    let text =
        serde_json::to_string_pretty(commit).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    // Pretty JSON has no newline inside a string: each line is indented as a list item.
    let mut out = String::from(if first { "\n" } else { ",\n" });
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        out.push_str(line);
    }
    out
}

/// The end of a history written commit by commit (`empty`: no commit was written).
pub fn history_json_end(empty: bool) -> String {
    if empty {
        "]\n}".to_string()
    } else {
        "\n  ]\n}".to_string()
    }
}

pub fn render_history_markdown(history: &HistoryReport) -> String {
    history.commits.iter().map(render_commit_markdown).collect()
}

/// One commit of a history as Markdown, printed as soon as the commit is analysed.
pub fn render_commit_markdown(c: &CommitReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## {} {}\n", short(&c.commit), c.subject);
    if !c.report.changes.summary.any_change() {
        let mut sentence = NO_CHANGE.to_string();
        sentence[..1].make_ascii_uppercase();
        let _ = writeln!(out, "{sentence}.\n");
        return out;
    }
    out.push_str(&render_markdown(&c.report).replacen(
        "### ripple: what the change does\n\n",
        "",
        1,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(name: &str) -> CommitReport {
        let report = format!(
            r#"{{"schema":2,"old":"{name}^","new":"{name}","functions":[],"globals":[],
            "summary":{{"modified":0,"added":0,"removed":0,"renamed":0,"unchanged":1,"globals_changed":0}},
            "approximations":{{"old":0,"new":0}},"not_run":[{{"section":"impact","reason":"a \"quoted\"\nreason"}}]}}"#
        );
        CommitReport {
            commit: name.to_string(),
            subject: format!("subject of {name}"),
            report: serde_json::from_str(&report).expect("a report"),
        }
    }

    /// A history written commit by commit is the document written at once, byte for
    /// byte, with no commit, one, or several.
    #[test]
    fn a_history_written_commit_by_commit_is_the_whole_document() {
        for count in [0, 1, 3] {
            let commits: Vec<CommitReport> = (0..count).map(|i| commit(&format!("c{i}"))).collect();
            let mut streamed = history_json_start("A..B");
            for (i, c) in commits.iter().enumerate() {
                streamed.push_str(&history_json_commit(i == 0, c));
            }
            streamed.push_str(&history_json_end(commits.is_empty()));
            let whole = render_history_json(&HistoryReport {
                schema: crate::IMPACT_SCHEMA_VERSION,
                range: "A..B".to_string(),
                commits,
            });
            assert_eq!(streamed, whole);
        }
    }
}
