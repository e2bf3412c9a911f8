//! The `ripple sea` report: SEA (or SEB) sets of the functions of one program (Jász,
//! 004, section 3), optionally compared with the call-graph impact (004 section 4.1,
//! recall and precision), and the sizes of the CFGs and of the ICCFG (004 Table 5).
//!
//! Which functions are listed: functions with a body in the program's own files, plus
//! library functions (no body, or defined in a system header) whose address is taken,
//! since the program calls them through pointers (as `sin` and `cos` in 004 Figure 1);
//! every library function with [`ExternalFunctions::All`]. The sets are computed over all
//! functions; the filter only affects what is shown.

use std::collections::BTreeMap;
use std::fmt::Write;

use ripple_analyses::sea::{Direction, SeaSet};
use ripple_graph::{BitSet, CallGraph, IccfgStats};
use ripple_ir::{FuncId, Program};
use serde::Serialize;

/// Which library functions appear in reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExternalFunctions {
    /// Only those whose address the program takes.
    #[default]
    AddressTaken,
    All,
}

/// Names and files of the functions of one program, and which are shown.
pub struct FunctionNames<'a> {
    program: &'a Program,
    shown: BitSet,
    ambiguous: rustc_hash::FxHashSet<&'a str>,
}

impl<'a> FunctionNames<'a> {
    pub fn new(
        program: &'a Program,
        callgraph: &CallGraph,
        externals: ExternalFunctions,
    ) -> FunctionNames<'a> {
        let mut shown = BitSet::new(program.functions.len());
        let mut address_taken = BitSet::new(program.functions.len());
        for f in &callgraph.address_taken {
            address_taken.insert(f.index());
        }
        let mut seen = rustc_hash::FxHashSet::default();
        let mut ambiguous = rustc_hash::FxHashSet::default();
        for (id, function) in program.functions.iter_enumerated() {
            let library = is_library(program, id);
            if !library || externals == ExternalFunctions::All || address_taken.contains(id.index())
            {
                shown.insert(id.index());
                if !seen.insert(function.name.as_str()) {
                    ambiguous.insert(function.name.as_str());
                }
            }
        }
        FunctionNames {
            program,
            shown,
            ambiguous,
        }
    }

    pub fn is_shown(&self, function: FuncId) -> bool {
        self.shown.contains(function.index())
    }

    /// The name, or the unique key (`file:name`) when several shown functions share it.
    pub fn name(&self, function: FuncId) -> String {
        let f = &self.program.functions[function];
        if self.ambiguous.contains(f.name.as_str()) {
            f.key.clone()
        } else {
            f.name.clone()
        }
    }

    /// Where a function of the program's own files is defined (file and line); None
    /// for library functions.
    pub fn definition(&self, function: FuncId) -> Option<(String, u32)> {
        let f = &self.program.functions[function];
        (!is_library(self.program, function)).then(|| (self.file(function), f.span.start_line))
    }

    /// The file the function is defined (or declared) in.
    pub fn file(&self, function: FuncId) -> String {
        let f = &self.program.functions[function];
        self.program.file_path(f.span.file).to_string()
    }
}

/// A function without a body, or defined in a system header.
pub fn is_library(program: &Program, function: FuncId) -> bool {
    let f = &program.functions[function];
    if !f.is_defined() {
        return true;
    }
    let file = program.file_path(f.span.file);
    file.starts_with('/') || file.starts_with('<')
}

/// The report of `ripple sea`.
#[derive(Clone, Debug, Serialize)]
pub struct SeaView {
    pub schema: u32,
    /// `SEA` or `SEB`.
    pub relation: &'static str,
    pub with_identity: bool,
    pub sets: Vec<SetView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<ComparisonView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatsView>,
    /// Where each listed function of the program's own files is defined (by the name
    /// the sets use), for the SARIF log.
    #[serde(skip)]
    pub locations: BTreeMap<String, (String, u32)>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct SetView {
    pub function: String,
    /// The members (the key stays `sea` for SEB), sorted.
    pub sea: Vec<String>,
}

/// Recall and precision of the SEA/SEB sets against a reference per function (004
/// section 4.1): TP in both, FN only in the reference, FP only in the set.
#[derive(Clone, Debug, Serialize)]
pub struct ComparisonView {
    /// What the sets are compared with (`call-graph` until slicing exists).
    pub reference: &'static str,
    pub functions: Vec<ComparisonRow>,
    /// Averages over the functions (percent).
    pub average_recall: f64,
    pub average_precision: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ComparisonRow {
    pub function: String,
    pub set_size: usize,
    pub reference_size: usize,
    pub recall: f64,
    pub precision: f64,
}

/// 004 Table 5 for this program, plus timings.
#[derive(Clone, Debug, Serialize)]
pub struct StatsView {
    pub functions: usize,
    pub defined_functions: usize,
    pub cfg_nodes: usize,
    pub cfg_edges: usize,
    pub cfg_reachable_nodes: usize,
    pub call_sites: usize,
    pub cfg_call_edges: usize,
    pub unresolved_pointer_calls: usize,
    pub iccfg_nodes: usize,
    pub iccfg_components: usize,
    pub iccfg_flow_edges: usize,
    pub iccfg_call_edges: usize,
    /// Components of kinds a, b, c, d (004 section 3.1).
    pub component_kinds: BTreeMap<char, usize>,
    pub call_graph_components: usize,
    pub largest_call_graph_component: usize,
    /// Average SEA/SEB size (without ID) over all functions.
    pub average_set_size: f64,
    /// Milliseconds: call graph, ICCFG, the relation of all functions.
    pub timings_ms: BTreeMap<&'static str, f64>,
    /// Peak resident memory of the process (MiB) before and after the relation.
    pub memory_mib: BTreeMap<&'static str, f64>,
}

impl StatsView {
    pub fn new(stats: &IccfgStats) -> StatsView {
        StatsView {
            functions: stats.functions,
            defined_functions: stats.defined_functions,
            cfg_nodes: stats.cfg_nodes,
            cfg_edges: stats.cfg_edges,
            cfg_reachable_nodes: stats.cfg_reachable_nodes,
            call_sites: stats.call_sites,
            cfg_call_edges: stats.cfg_call_edges,
            unresolved_pointer_calls: stats.unresolved_calls,
            iccfg_nodes: stats.iccfg_nodes,
            iccfg_components: stats.components,
            iccfg_flow_edges: stats.iccfg_flow_edges,
            iccfg_call_edges: stats.iccfg_call_edges,
            component_kinds: ['a', 'b', 'c', 'd'].into_iter().zip(stats.kinds).collect(),
            call_graph_components: 0,
            largest_call_graph_component: 0,
            average_set_size: 0.0,
            timings_ms: BTreeMap::new(),
            memory_mib: BTreeMap::new(),
        }
    }
}

/// Builds the view of the sets; functions not shown are left out of sets and members.
pub fn sea_view(
    names: &FunctionNames<'_>,
    direction: Direction,
    with_identity: bool,
    sets: &[SeaSet],
) -> SeaView {
    let mut locations = BTreeMap::new();
    let mut place = |f: FuncId| {
        let name = names.name(f);
        if let Some(at) = names.definition(f) {
            locations.entry(name.clone()).or_insert(at);
        }
        name
    };
    let mut views: Vec<SetView> = sets
        .iter()
        .filter(|s| names.is_shown(s.function))
        .map(|s| {
            let mut members: Vec<String> = s
                .members
                .iter()
                .filter(|(g, _)| names.is_shown(*g))
                .map(|(g, _)| place(*g))
                .collect();
            members.sort();
            SetView {
                function: place(s.function),
                sea: members,
            }
        })
        .collect();
    views.sort();
    SeaView {
        schema: crate::SCHEMA_VERSION,
        relation: direction.name(),
        with_identity,
        sets: views,
        comparison: None,
        stats: None,
        locations,
    }
}

/// Compares each set with a reference set of the same function (both over all
/// functions; only shown functions count).
pub fn comparison_view(
    names: &FunctionNames<'_>,
    reference_name: &'static str,
    sets: &[SeaSet],
    reference: impl Fn(FuncId) -> BitSet,
) -> ComparisonView {
    let mut rows = Vec::new();
    for set in sets.iter().filter(|s| names.is_shown(s.function)) {
        let reference = reference(set.function);
        let predicted: Vec<FuncId> = set
            .members
            .iter()
            .map(|(g, _)| *g)
            .filter(|g| names.is_shown(*g))
            .collect();
        let reference_size = reference
            .iter()
            .filter(|&g| names.is_shown(FuncId::from(g)))
            .count();
        let true_positives = predicted
            .iter()
            .filter(|g| reference.contains(g.index()))
            .count();
        rows.push(ComparisonRow {
            function: names.name(set.function),
            set_size: predicted.len(),
            reference_size,
            recall: percent(true_positives, reference_size),
            precision: percent(true_positives, predicted.len()),
        });
    }
    rows.sort_by(|a, b| a.function.cmp(&b.function));
    let average = |values: Vec<f64>| {
        if values.is_empty() {
            100.0
        } else {
            values.iter().sum::<f64>() / values.len() as f64
        }
    };
    ComparisonView {
        reference: reference_name,
        average_recall: average(rows.iter().map(|r| r.recall).collect()),
        average_precision: average(rows.iter().map(|r| r.precision).collect()),
        functions: rows,
    }
}

/// `part / whole` in percent; 100 when both are empty.
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The human-readable report.
pub fn render_text(view: &SeaView) -> String {
    let mut out = String::new();
    for set in &view.sets {
        let _ = writeln!(
            out,
            "{}({}) = {{{}}}  ({})",
            view.relation,
            set.function,
            set.sea.join(", "),
            set.sea.len()
        );
    }
    if let Some(comparison) = &view.comparison {
        let _ = writeln!(
            out,
            "\n{} against the {} impact (reference): recall and precision per function",
            view.relation, comparison.reference
        );
        for row in &comparison.functions {
            let _ = writeln!(
                out,
                "  {:<32} {:>5} {:>5}  recall {:6.2}%  precision {:6.2}%",
                row.function, row.set_size, row.reference_size, row.recall, row.precision
            );
        }
        let _ = writeln!(
            out,
            "average over {} function(s): recall {:.2}%, precision {:.2}%",
            comparison.functions.len(),
            comparison.average_recall,
            comparison.average_precision
        );
    }
    if let Some(stats) = &view.stats {
        let _ = writeln!(
            out,
            "\nfunctions {} ({} defined)\nCFG    nodes {} (reachable {})  edges {}  call sites {}  call edges {}  unresolved pointer calls {}",
            stats.functions,
            stats.defined_functions,
            stats.cfg_nodes,
            stats.cfg_reachable_nodes,
            stats.cfg_edges,
            stats.call_sites,
            stats.cfg_call_edges,
            stats.unresolved_pointer_calls
        );
        let kinds: Vec<String> = stats
            .component_kinds
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(
            out,
            "ICCFG  nodes {} ({} components; kinds {})  flow edges {}  call edges {}",
            stats.iccfg_nodes,
            stats.iccfg_components,
            kinds.join(", "),
            stats.iccfg_flow_edges,
            stats.iccfg_call_edges
        );
        let _ = writeln!(
            out,
            "call graph components {} (largest {})  average {} size {:.1}",
            stats.call_graph_components,
            stats.largest_call_graph_component,
            view.relation,
            stats.average_set_size
        );
        let timings: Vec<String> = stats
            .timings_ms
            .iter()
            .map(|(k, v)| format!("{k} {v:.1} ms"))
            .collect();
        let _ = writeln!(out, "time: {}", timings.join(", "));
        if !stats.memory_mib.is_empty() {
            let memory: Vec<String> = stats
                .memory_mib
                .iter()
                .map(|(k, v)| format!("{k} {v:.1} MiB"))
                .collect();
            let _ = writeln!(out, "memory: {}", memory.join(", "));
        }
    }
    out
}

/// Members listed per set in Markdown; the count of the others follows.
const MAX_MEMBERS: usize = 12;

/// The report as Markdown: per function, the size of its set and its first members,
/// then the comparison's averages and the sizes, when asked for.
pub fn render_markdown(view: &SeaView) -> String {
    use crate::markdown::code;
    let mut out = format!(
        "### ripple: {} sets of {} function(s)\n\n",
        view.relation,
        view.sets.len()
    );
    if !view.sets.is_empty() {
        let _ = writeln!(
            out,
            "| function | size | {} |\n|---|---:|---|",
            view.relation
        );
        for set in &view.sets {
            let mut members: Vec<String> =
                set.sea.iter().take(MAX_MEMBERS).map(|m| code(m)).collect();
            if set.sea.len() > MAX_MEMBERS {
                members.push(format!("and {} more", set.sea.len() - MAX_MEMBERS));
            }
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                code(&set.function),
                set.sea.len(),
                members.join(", ")
            );
        }
        out.push('\n');
    }
    if let Some(c) = &view.comparison {
        let _ = writeln!(
            out,
            "Against the {} impact over {} function(s): recall {:.2}%, precision {:.2}%.\n",
            c.reference,
            c.functions.len(),
            c.average_recall,
            c.average_precision
        );
    }
    if let Some(stats) = &view.stats {
        let _ = writeln!(
            out,
            "{} function(s) ({} defined); CFG nodes {}, ICCFG nodes {}; average {} size {:.1}.\n",
            stats.functions,
            stats.defined_functions,
            stats.cfg_nodes,
            stats.iccfg_nodes,
            view.relation,
            stats.average_set_size
        );
    }
    out
}

pub fn render_json(view: &SeaView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
