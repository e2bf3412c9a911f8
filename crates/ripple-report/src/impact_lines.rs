//! The `ripple impact` report at statement level (the default level): the lines DCIA
//! (000, section 3.3) finds impacted outside the changed lines, in both versions, each
//! with the chain of dependences that explains it, and the changed lines themselves.
//!
//! A line is impacted when some IR node on it is in IMPACTEDNODE; when several nodes of
//! one line are, the explanation shown is the shortest chain (then the first node), so
//! the report does not depend on hash order. Lines of system headers and nodes without
//! source text (synthetic spans) are left out. Lines are sorted by version (old first),
//! file and line; the text rendering groups them by function.

use std::collections::BTreeMap;
use std::fmt::Write;

use ripple_analyses::dcia::{DciaResult, VersionImpact};
use ripple_ir::Program;
use serde::Serialize;

/// The statement-level impact report.
#[derive(Clone, Debug, Serialize)]
pub struct ImpactLinesView {
    pub schema: u32,
    pub old: String,
    pub new: String,
    pub level: &'static str,
    /// Impacted lines that hold no changed statement, sorted by version, file, line.
    pub impacted_lines: Vec<ImpactedLineView>,
    /// Lines holding a statement not in MAPPED (SYNT-CHANGED), sorted.
    pub changed_lines: Vec<LineView>,
    pub summary: ImpactLinesSummary,
    /// Where the analysis over-approximated: constructs the frontend could not model and
    /// memory merged into one region; each makes the impact larger, never smaller.
    /// Set when code could not be read: the report's first line, saying why the result
    /// is over-approximated.
    pub incomplete: Option<String>,
    pub approximations: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineView {
    /// `old` or `new`.
    pub version: &'static str,
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ImpactedLineView {
    pub version: &'static str,
    pub file: String,
    pub line: u32,
    pub function: String,
    /// The line first, the changed statement last, e.g. `["a.c:41", "delim (param of
    /// print_minor_vers)", "a.c:14 call argument", "a.c:13 changed"]`.
    pub chain: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ImpactLinesSummary {
    pub changed_lines: usize,
    pub impacted_lines: usize,
    /// Functions with at least one impacted line (by name, both versions), sorted.
    pub impacted_functions: Vec<String>,
}

/// Builds the report from the DCIA result on both versions.
pub fn impact_lines_view(
    labels: (&str, &str),
    old: &Program,
    new: &Program,
    result: &DciaResult,
) -> ImpactLinesView {
    let mut changed_lines = Vec::new();
    let mut impacted_lines = Vec::new();
    for (version, program, impact) in [("old", old, &result.old), ("new", new, &result.new)] {
        let changed = changed_of(version, program, impact);
        impacted_lines.extend(impacted_of(version, program, impact, &changed));
        changed_lines.extend(changed);
    }
    changed_lines.sort();
    changed_lines.dedup();
    impacted_lines.sort_by(|a, b| {
        (a.version == "new", &a.file, a.line).cmp(&(b.version == "new", &b.file, b.line))
    });
    let mut impacted_functions: Vec<String> =
        impacted_lines.iter().map(|l| l.function.clone()).collect();
    impacted_functions.sort();
    impacted_functions.dedup();
    let mut approximations = Vec::new();
    let mut incomplete = None;
    for (version, program, impact) in [("old", old, &result.old), ("new", new, &result.new)] {
        let unread = program
            .approximations
            .iter()
            .filter(|a| a.kind == ripple_ir::ApproximationKind::ParseError)
            .count();
        if unread > 0 && incomplete.is_none() {
            incomplete = Some(format!(
                "incomplete: {unread} region(s) of the {version} version could not be read; each is a havoc (it may read and write everything reachable), so impact through it is over-reported"
            ));
        }
        if !program.approximations.is_empty() {
            approximations.push(format!(
                "{version}: {} construct(s) the IR does not model are havocs (see ripple stats)",
                program.approximations.len()
            ));
        }
        if impact.merged_regions > 0 {
            approximations.push(format!(
                "{version}: the {} memory regions most functions use were merged into one to bound the dependence graph; accesses to any of them depend on each other",
                impact.merged_regions
            ));
        }
    }
    ImpactLinesView {
        schema: crate::SCHEMA_VERSION,
        incomplete,
        approximations,
        old: labels.0.to_string(),
        new: labels.1.to_string(),
        level: "statement",
        summary: ImpactLinesSummary {
            changed_lines: changed_lines.len(),
            impacted_lines: impacted_lines.len(),
            impacted_functions,
        },
        impacted_lines,
        changed_lines,
    }
}

fn changed_of(version: &'static str, program: &Program, impact: &VersionImpact) -> Vec<LineView> {
    let mut out: Vec<LineView> = impact
        .changed_lines
        .iter()
        .filter(|(file, _)| !file.starts_with('/'))
        .map(|(file, line)| LineView {
            version,
            file: file.clone(),
            line: *line,
        })
        .collect();
    // A changed table or initializer is changed on every line of its declaration.
    for &g in &impact.changed_globals {
        let span = program.globals[g].span;
        if span.start_line == 0 || program.is_system_file(span.file) {
            continue;
        }
        for line in span.start_line..=span.end_line.max(span.start_line) {
            out.push(LineView {
                version,
                file: program.file_path(span.file).to_string(),
                line,
            });
        }
    }
    out.sort();
    out.dedup();
    out
}

fn impacted_of(
    version: &'static str,
    program: &Program,
    impact: &VersionImpact,
    changed: &[LineView],
) -> Vec<ImpactedLineView> {
    // (file, line) -> the line, with the shortest explanation.
    let mut lines: BTreeMap<(String, u32), ImpactedLineView> = BTreeMap::new();
    for node in &impact.impacted {
        let function = &program.functions[node.function];
        // The header line (entry and exit nodes) counts only when a parameter is
        // impacted; otherwise the body's lines say what is.
        let header = node.node == function.entry || node.node == function.exit;
        if header && !impact.is_parameter_impacted(node.function) {
            continue;
        }
        let span = function.nodes[node.node].span;
        if span.start_line == 0 || program.is_system_file(span.file) {
            continue;
        }
        let file = program.file_path(span.file).to_string();
        let key = LineView {
            version,
            file: file.clone(),
            line: span.start_line,
        };
        if changed.binary_search(&key).is_ok() {
            continue;
        }
        let mut chain: Vec<String> = node.chain.iter().map(|s| s.text.clone()).collect();
        // The chain starts at the node; name it by its line.
        let at = format!("{file}:{}", span.start_line);
        if chain.first() != Some(&at) {
            chain.insert(0, at);
        }
        let candidate = ImpactedLineView {
            version,
            file: file.clone(),
            line: span.start_line,
            function: function.name.clone(),
            chain,
        };
        match lines.get_mut(&(file.clone(), span.start_line)) {
            Some(existing) if existing.chain.len() <= candidate.chain.len() => {}
            Some(existing) => *existing = candidate,
            None => {
                lines.insert((file, span.start_line), candidate);
            }
        }
    }
    lines.into_values().collect()
}

/// The human-readable report: impacted lines grouped by function, each with its chain.
pub fn render_text(view: &ImpactLinesView) -> String {
    let mut out = String::new();
    if let Some(incomplete) = &view.incomplete {
        let _ = writeln!(out, "{incomplete}");
    }
    if view.changed_lines.is_empty() && view.impacted_lines.is_empty() {
        let _ = writeln!(out, "no changed statement: nothing impacted");
        return out;
    }
    let _ = writeln!(out, "changed lines:");
    for version in ["old", "new"] {
        let mut by_file: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for l in view.changed_lines.iter().filter(|l| l.version == version) {
            by_file.entry(&l.file).or_default().push(l.line.to_string());
        }
        for (file, lines) in by_file {
            let _ = writeln!(out, "  {version} {file}: {}", lines.join(", "));
        }
    }
    // Functions in name order; in each, old lines first, then new, by file and line.
    let mut groups: BTreeMap<&str, Vec<&ImpactedLineView>> = BTreeMap::new();
    for l in &view.impacted_lines {
        groups.entry(&l.function).or_default().push(l);
    }
    if !groups.is_empty() {
        let _ = writeln!(out, "impacted lines (outside the changed lines):");
    }
    for (function, lines) in groups {
        let _ = writeln!(out, "  {function}:");
        for l in lines {
            let _ = writeln!(out, "    {} {}", l.version, l.chain.join(" <- "));
        }
    }
    for note in &view.approximations {
        let _ = writeln!(out, "approximation: {note}");
    }
    let s = &view.summary;
    let _ = writeln!(
        out,
        "{} changed line(s); {} impacted line(s) in {} function(s)",
        s.changed_lines,
        s.impacted_lines,
        s.impacted_functions.len()
    );
    out
}

pub fn render_json(view: &ImpactLinesView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
