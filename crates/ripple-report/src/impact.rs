//! The `ripple impact --level function` report: the functions a change may impact by
//! Static Execute After (Jász, 004), each with its relations to the change (CALL, SEQ,
//! RET, ID) and the changed functions that put it there, next to the plain call-graph
//! impact (transitive callees and callers) for comparison (004 section 4).
//!
//! Functions are named by their new version when they have one. Library functions are
//! listed under the rules of [`crate::sea::FunctionNames`]; changed functions defined in
//! system headers are left out, as in the diff report.

use std::fmt::Write;

use ripple_analyses::function_impact::{FunctionImpact, FunctionRef};
use serde::{Deserialize, Serialize};

use crate::sea::FunctionNames;

/// The impact report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ImpactView {
    pub schema: u32,
    pub old: String,
    pub new: String,
    #[serde(deserialize_with = "crate::interned::one")]
    pub level: crate::interned::Word,
    pub changed_functions: Vec<ChangedView>,
    pub impacted_functions: Vec<ImpactedView>,
    pub callgraph_impact: CallGraphImpactView,
    pub summary: ImpactSummary,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct ChangedView {
    pub name: String,
    pub file: String,
    /// The function's own change (`modified`, `added`, ...), or `reads` when its only
    /// change is a changed global it reads.
    #[serde(deserialize_with = "crate::interned::one")]
    pub status: crate::interned::Word,
    /// The changed globals it reads directly, sorted.
    pub reads: Vec<String>,
    /// Only statements no execution reaches changed (after calls that never return):
    /// no impact starts here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreachable_only: bool,
    /// What kind of change it is when its code is the same up to line numbers, record
    /// layouts or text ([`crate::diff::only_label`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct ImpactedView {
    pub name: String,
    pub file: String,
    /// Among `CALL`, `SEQ`, `RET`, `ID`.
    #[serde(deserialize_with = "crate::interned::list")]
    pub relations: Vec<crate::interned::Word>,
    /// Names of the changed functions it is impacted by, sorted.
    pub because_of: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CallGraphImpactView {
    /// Functions the changed functions transitively call.
    pub callees: Vec<String>,
    /// Functions that transitively call a changed function.
    pub callers: Vec<String>,
    /// The changed functions, their callees and their callers.
    pub total: usize,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ImpactSummary {
    pub changed: usize,
    pub impacted: usize,
    pub callgraph_impacted: usize,
    /// Impacted by SEA but not by the call graph (SEQ only), sorted.
    pub beyond_callgraph: Vec<String>,
}

/// Names across the two versions.
pub struct VersionNames<'a> {
    pub old: FunctionNames<'a>,
    pub new: FunctionNames<'a>,
}

impl VersionNames<'_> {
    fn shown(&self, f: FunctionRef) -> bool {
        match (f.new, f.old) {
            (Some(n), _) => self.new.is_shown(n),
            (None, Some(o)) => self.old.is_shown(o),
            (None, None) => false,
        }
    }

    fn name(&self, f: FunctionRef) -> String {
        match (f.new, f.old) {
            (Some(n), _) => self.new.name(n),
            (None, Some(o)) => self.old.name(o),
            (None, None) => String::new(),
        }
    }

    fn file(&self, f: FunctionRef) -> String {
        match (f.new, f.old) {
            (Some(n), _) => self.new.file(n),
            (None, Some(o)) => self.old.file(o),
            (None, None) => String::new(),
        }
    }
}

/// The view of a function-level impact; `only` tells what kind of change a changed
/// function's is when its code is the same up to line numbers or layouts.
pub fn impact_view(
    labels: (&str, &str),
    names: &VersionNames<'_>,
    impact: &FunctionImpact,
    only: &dyn Fn(FunctionRef) -> Option<&'static str>,
) -> ImpactView {
    let shown_changed: Vec<bool> = impact
        .changed
        .iter()
        .map(|c| names.shown(c.function))
        .collect();
    let mut changed: Vec<ChangedView> = impact
        .changed
        .iter()
        .zip(&shown_changed)
        .filter(|(_, &shown)| shown)
        .map(|(c, _)| ChangedView {
            name: names.name(c.function),
            file: names.file(c.function),
            status: if c.status == ripple_versions::FunctionStatus::Unchanged {
                "reads"
            } else {
                c.status.name()
            },
            reads: c.reads.clone(),
            unreachable_only: c.unreachable_only,
            only: only(c.function).map(str::to_string),
        })
        .collect();
    changed.sort();
    let mut impacted: Vec<ImpactedView> = impact
        .impacted
        .iter()
        .filter(|i| names.shown(i.function))
        .filter_map(|i| {
            let mut because_of: Vec<String> = i
                .because_of
                .iter()
                .filter(|&&c| shown_changed[c])
                .map(|&c| names.name(impact.changed[c].function))
                .collect();
            because_of.sort();
            because_of.dedup();
            (!because_of.is_empty()).then(|| ImpactedView {
                name: names.name(i.function),
                file: names.file(i.function),
                relations: i.relations.names(),
                because_of,
            })
        })
        .collect();
    impacted.sort_by(|a, b| (&a.file, &a.name).cmp(&(&b.file, &b.name)));
    let list = |functions: &[FunctionRef]| -> Vec<String> {
        let mut out: Vec<String> = functions
            .iter()
            .filter(|f| names.shown(**f))
            .map(|f| names.name(*f))
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let callees = list(&impact.callgraph.callees);
    let callers = list(&impact.callgraph.callers);
    let mut callgraph_all: Vec<String> = callees
        .iter()
        .chain(&callers)
        .cloned()
        .chain(changed.iter().map(|c| c.name.clone()))
        .collect();
    callgraph_all.sort();
    callgraph_all.dedup();
    let beyond_callgraph: Vec<String> = impacted
        .iter()
        .filter(|i| callgraph_all.binary_search(&i.name).is_err())
        .map(|i| i.name.clone())
        .collect();
    ImpactView {
        schema: crate::SCHEMA_VERSION,
        old: labels.0.to_string(),
        new: labels.1.to_string(),
        level: "function",
        summary: ImpactSummary {
            changed: changed.len(),
            impacted: impacted.len(),
            callgraph_impacted: callgraph_all.len(),
            beyond_callgraph,
        },
        changed_functions: changed,
        impacted_functions: impacted,
        callgraph_impact: CallGraphImpactView {
            total: callgraph_all.len(),
            callees,
            callers,
        },
    }
}

/// The human-readable report.
pub fn render_text(view: &ImpactView) -> String {
    let mut out = String::new();
    if view.changed_functions.is_empty() {
        let _ = writeln!(out, "no changed function: nothing impacted");
        return out;
    }
    let _ = writeln!(out, "changed functions:");
    for c in &view.changed_functions {
        let reads = if c.reads.is_empty() {
            String::new()
        } else {
            format!("  reads changed global {}", c.reads.join(", "))
        };
        let dead = if c.unreachable_only {
            "  only statements no execution reaches changed (after calls that never return): no impact"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {:<9} {}  ({}){reads}{dead}",
            c.status, c.name, c.file
        );
    }
    let _ = writeln!(out, "impacted functions (static execute after the change):");
    for i in &view.impacted_functions {
        let _ = writeln!(
            out,
            "  {:<32} {:<16} by {}  ({})",
            i.name,
            i.relations.join(","),
            i.because_of.join(", "),
            i.file
        );
    }
    let s = &view.summary;
    let _ = writeln!(
        out,
        "{} changed, {} impacted; the call graph alone (callees and callers) gives {}",
        s.changed, s.impacted, s.callgraph_impacted
    );
    beyond_callgraph(&mut out, s, true);
    out
}

/// The impacted functions for `ripple diff` (the changed ones are in its changes
/// section): the counts, then the names, at most `limit` of them with the rest counted.
pub fn render_compact(view: &ImpactView, limit: Option<usize>) -> String {
    let mut out = String::new();
    let s = &view.summary;
    if s.changed == 0 {
        let _ = writeln!(
            out,
            "no function impacted: every changed function runs as before (the same code, or proved equivalent)"
        );
        return out;
    }
    // Functions that only read a changed global (a string literal a changed call
    // passes) are changes too, which the changes section does not count.
    let readers = view
        .changed_functions
        .iter()
        .filter(|c| c.status == "reads")
        .count();
    let changed = match readers {
        0 => format!("{} changed", s.changed),
        _ => format!(
            "{} changed ({} in their own text, {readers} reading a changed global)",
            s.changed,
            s.changed.saturating_sub(readers)
        ),
    };
    let _ = writeln!(
        out,
        "{} function(s) impacted by {changed}; the call graph alone (callees and callers) gives {}",
        s.impacted, s.callgraph_impacted
    );
    // Functions changed only in the line numbers they report, in record layouts or in
    // their text impact what they reach all the same (a line number may be printed), but
    // a reviewer first wants what the changes of code reach.
    let code_changes: Vec<&str> = view
        .changed_functions
        .iter()
        .filter(|c| c.only.is_none())
        .map(|c| c.name.as_str())
        .collect();
    let all = limit.is_none();
    let shown_below = !all && limit != Some(0);
    let by_code = |i: &&ImpactedView| {
        i.because_of
            .iter()
            .any(|b| code_changes.contains(&b.as_str()))
    };
    let some_only = code_changes.len() < view.changed_functions.len();
    // `--all` lists every one; otherwise those the changes of code reach.
    let listed: Vec<&ImpactedView> = view
        .impacted_functions
        .iter()
        .filter(|i| all || !some_only || by_code(i))
        .collect();
    if some_only {
        let _ = writeln!(
            out,
            "  by the {} changed in their code (not only in line numbers, record layouts or text): {} function(s){}",
            code_changes.len(),
            view.impacted_functions.iter().filter(by_code).count(),
            if shown_below { ", listed below" } else { "" }
        );
    }
    let limit = limit.unwrap_or(usize::MAX);
    for i in listed.iter().take(limit) {
        // The changes of code first.
        let mut by = i.because_of.clone();
        by.sort_by_key(|b| !code_changes.contains(&b.as_str()));
        let _ = writeln!(
            out,
            "  {:<32} {:<16} by {}",
            i.name,
            i.relations.join(","),
            changed_names(&by, all)
        );
    }
    if limit == 0 && !listed.is_empty() {
        out.push_str("  (--all lists them)\n");
    } else if listed.len() > limit {
        let _ = writeln!(
            out,
            "  ... and {} more (--all lists them)",
            listed.len() - limit
        );
    }
    beyond_callgraph(&mut out, s, limit == usize::MAX);
    out
}

/// The changed functions an impacted one is impacted by: at most [`BY_NAMED`] of them
/// unless `all`, the rest counted.
fn changed_names(names: &[String], all: bool) -> String {
    if all || names.len() <= BY_NAMED {
        return names.join(", ");
    }
    format!(
        "{} and {} more",
        names[..BY_NAMED].join(", "),
        names.len() - BY_NAMED
    )
}

/// How many of the changed functions an impacted one is impacted by the compact
/// report names.
const BY_NAMED: usize = 4;

/// The functions SEA finds and the call graph does not (SEQ only), if any: at most
/// [`BEYOND_NAMED`] of them unless `all`, the rest counted.
fn beyond_callgraph(out: &mut String, s: &ImpactSummary, all: bool) {
    let names = &s.beyond_callgraph;
    if names.is_empty() {
        return;
    }
    let shown = if all {
        names.len()
    } else {
        names.len().min(BEYOND_NAMED)
    };
    let mut text = names[..shown].join(", ");
    if shown < names.len() {
        let _ = write!(
            text,
            ", and {} more (--all lists them)",
            names.len() - shown
        );
    }
    let _ = writeln!(out, "impacted beyond the call graph: {text}");
}

/// How many functions found beyond the call graph the compact report names.
const BEYOND_NAMED: usize = 8;

pub fn render_json(view: &ImpactView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::{beyond_callgraph, ImpactSummary, BEYOND_NAMED};

    /// The compact report names the first functions found beyond the call graph and
    /// counts the rest; `--all` (no limit) names every one.
    #[test]
    fn functions_beyond_the_call_graph_are_named_up_to_a_limit() {
        let summary = ImpactSummary {
            changed: 1,
            impacted: 20,
            callgraph_impacted: 8,
            beyond_callgraph: (0..12).map(|i| format!("f{i}")).collect(),
        };
        let mut compact = String::new();
        beyond_callgraph(&mut compact, &summary, false);
        assert!(
            compact.contains("f7, and 4 more (--all lists them)"),
            "{compact}"
        );
        assert!(!compact.contains("f8"), "{compact}");
        assert_eq!(BEYOND_NAMED, 8);
        let mut all = String::new();
        beyond_callgraph(&mut all, &summary, true);
        assert!(all.trim_end().ends_with("f10, f11"), "{all}");
    }
}
