//! The `ripple slice` report: the lines of an interprocedural slice (Horwitz, Reps and
//! Binkley two-phase slicing over the SDG), grouped by function.
//!
//! A line is in the slice when some IR node on it is; lines of system headers and nodes
//! without source text are left out. Lines are sorted by file and line.

use std::collections::BTreeMap;
use std::fmt::Write;

use ripple_ir::{FuncId, NodeId, Program};
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
pub struct SliceView {
    pub schema: u32,
    pub program: String,
    /// `forward` or `backward`.
    pub direction: &'static str,
    pub criterion: CriterionView,
    /// The lines of the slice (the criterion's included), sorted by file and line.
    pub lines: Vec<SliceLineView>,
    pub summary: SliceSummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct CriterionView {
    pub file: String,
    pub line: u32,
    /// The functions with a statement on the criterion's line, sorted.
    pub functions: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct SliceLineView {
    pub file: String,
    pub line: u32,
    pub function: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct SliceSummary {
    pub lines: usize,
    /// Functions with a line in the slice, sorted.
    pub functions: Vec<String>,
}

/// Builds the report from the nodes in the slice.
pub fn slice_view(
    label: &str,
    program: &Program,
    backward: bool,
    criterion: (&str, u32),
    criterion_functions: &[FuncId],
    nodes: &[(FuncId, NodeId)],
) -> SliceView {
    let mut lines: Vec<SliceLineView> = nodes
        .iter()
        .filter_map(|&(f, n)| {
            let function = &program.functions[f];
            let span = function.nodes[n].span;
            (span.start_line > 0 && !program.is_system_file(span.file)).then(|| SliceLineView {
                file: program.file_path(span.file).to_string(),
                line: span.start_line,
                function: function.name.clone(),
            })
        })
        .collect();
    lines.sort();
    lines.dedup();
    let mut functions: Vec<String> = lines.iter().map(|l| l.function.clone()).collect();
    functions.sort();
    functions.dedup();
    let mut criterion_names: Vec<String> = criterion_functions
        .iter()
        .map(|&f| program.functions[f].name.clone())
        .collect();
    criterion_names.sort();
    criterion_names.dedup();
    SliceView {
        schema: crate::SCHEMA_VERSION,
        program: label.to_string(),
        direction: if backward { "backward" } else { "forward" },
        criterion: CriterionView {
            file: criterion.0.to_string(),
            line: criterion.1,
            functions: criterion_names,
        },
        summary: SliceSummary {
            lines: lines.len(),
            functions,
        },
        lines,
    }
}

/// The human-readable report: per function (in name order), its lines by file.
pub fn render_text(view: &SliceView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} slice of {}:{} ({})",
        view.direction,
        view.criterion.file,
        view.criterion.line,
        view.criterion.functions.join(", ")
    );
    let mut groups: BTreeMap<&str, BTreeMap<&str, Vec<String>>> = BTreeMap::new();
    for l in &view.lines {
        groups
            .entry(&l.function)
            .or_default()
            .entry(&l.file)
            .or_default()
            .push(l.line.to_string());
    }
    for (function, files) in groups {
        for (file, lines) in files {
            let _ = writeln!(out, "  {function} ({file}): {}", lines.join(", "));
        }
    }
    let _ = writeln!(
        out,
        "{} line(s) in {} function(s)",
        view.summary.lines,
        view.summary.functions.len()
    );
    out
}

/// The report as Markdown: the criterion and the counts, then per function its lines.
pub fn render_markdown(view: &SliceView) -> String {
    let c = &view.criterion;
    let mut out = format!(
        "### ripple: {} slice of `{}:{}`\n\n**{} line(s) in {} function(s)**\n\n",
        view.direction,
        c.file,
        c.line,
        view.summary.lines,
        view.summary.functions.len()
    );
    if view.lines.is_empty() {
        return out;
    }
    let _ = writeln!(out, "| function | file | lines |\n|---|---|---|");
    let mut groups: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for l in &view.lines {
        groups
            .entry((&l.function, &l.file))
            .or_default()
            .push(l.line.to_string());
    }
    for ((function, file), lines) in groups {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            crate::markdown::code(function),
            crate::markdown::code(file),
            lines.join(", ")
        );
    }
    out
}

pub fn render_json(view: &SliceView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
