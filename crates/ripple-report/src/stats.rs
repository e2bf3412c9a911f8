//! The `ripple stats` report: what the frontend made of the sources (files, functions, IR
//! nodes, call edges, diagnostics, approximations by kind), summed over the units loaded.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

/// Totals over the loaded units. Field names are the JSON keys (docs/json-schema.md).
#[derive(Clone, Debug, Default, Serialize)]
pub struct StatsView {
    pub schema: u32,
    pub files: usize,
    pub functions: usize,
    pub defined_functions: usize,
    pub ir_nodes: usize,
    pub call_edges: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Approximated constructs by kind, sorted by kind.
    pub approximations: BTreeMap<String, usize>,
    /// Files that could not be loaded at all (with `--each-file`).
    pub failed_files: Vec<String>,
}

impl StatsView {
    pub fn new() -> StatsView {
        StatsView {
            schema: crate::SCHEMA_VERSION,
            ..StatsView::default()
        }
    }
}

pub fn render_text(view: &StatsView) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "files {}  functions {} ({} defined)  IR nodes {}  call edges {}",
        view.files, view.functions, view.defined_functions, view.ir_nodes, view.call_edges
    );
    let _ = writeln!(
        out,
        "diagnostics: {} error(s), {} warning(s)",
        view.errors, view.warnings
    );
    let approximated: usize = view.approximations.values().sum();
    let _ = writeln!(out, "approximated constructs: {approximated}");
    for (kind, count) in &view.approximations {
        let _ = writeln!(out, "  {kind}: {count}");
    }
    out
}

pub fn render_json(view: &StatsView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
