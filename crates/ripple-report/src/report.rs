//! One report of several analyses of a change (`ripple diff`): the changes, then the
//! statement-level impact, then the semantic verdicts, each section present when its
//! analysis ran, and what was not run with the reason. The JSON is the changes document
//! (`ripple diff --format json`) with `impact` (as `ripple impact`), `semantic` (as
//! `ripple semdiff`) and `not_run` added.

use std::fmt::Write;

use serde::Serialize;

use crate::diff::DiffView;
use crate::impact_lines::ImpactLinesView;
use crate::semdiff::SemdiffView;

#[derive(Serialize)]
pub struct Report<'a> {
    #[serde(flatten)]
    pub changes: &'a DiffView,
    /// Whether the text shows the changes (`--only` may leave them out).
    #[serde(skip)]
    pub show_changes: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impact: Option<&'a ImpactLinesView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<&'a SemdiffView>,
    /// Sections asked for and not run, with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<NotRun>,
}

#[derive(Serialize)]
pub struct NotRun {
    pub section: &'static str,
    pub reason: String,
}

pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    if report.show_changes {
        out.push_str(&crate::diff::render_text(report.changes));
    }
    if let Some(impact) = report.impact {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "impact: the statements the change may affect (`ripple impact` for every line)"
        );
        out.push_str(&crate::impact_lines::render_text(impact, false));
    }
    if let Some(semantic) = report.semantic {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "semantic verdicts: which changed functions are equivalent, and inputs on which they differ"
        );
        out.push_str(&crate::semdiff::render_text(semantic));
    }
    for n in &report.not_run {
        let _ = writeln!(out, "{}: not run: {}", n.section, n.reason);
    }
    out
}

pub fn render_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
