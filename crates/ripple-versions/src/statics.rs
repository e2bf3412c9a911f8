//! The static locals of a function are part of its code: a changed initializer
//! (`static const int table[] = {...}` with one entry changed, `static int n = 0` made
//! `= 5`) changes what the function computes although every IR node still names the same
//! object. [`changed_static_locals`] pairs them across versions; [`mark_functions`]
//! makes each node of a function naming a changed one a changed node, so no analysis
//! takes the function for the same code.

use ripple_ir::{ExprKind, Function, GlobalId, Linkage, Program};
use rustc_hash::FxHashSet;

use crate::globals::{match_all_globals, GlobalMatch, GlobalStatus};
use crate::mapped::span_lines;
use crate::FunctionMatch;

/// Whether `id` is a static local of a function (keyed `path:function:name`).
pub(crate) fn is_static_local(program: &Program, id: GlobalId) -> bool {
    let global = &program.globals[id];
    let Linkage::Internal(unit) = global.linkage else {
        return false;
    };
    global
        .key
        .strip_prefix(program.file_path(unit))
        .and_then(|rest| rest.strip_prefix(':'))
        .is_some_and(|rest| rest.contains(':'))
}

/// The static locals of functions that are added, removed or whose type or initial
/// contents changed, paired by key (as [`match_all_globals`] pairs them).
pub fn changed_static_locals(old: &Program, new: &Program) -> Vec<GlobalMatch> {
    match_all_globals(old, new)
        .into_iter()
        .filter(|g| g.status != GlobalStatus::Unchanged)
        .filter(|g| {
            g.old.is_some_and(|o| is_static_local(old, o))
                || g.new.is_some_and(|n| is_static_local(new, n))
        })
        .collect()
}

/// The nodes of `function` whose expressions name one of `globals`.
fn nodes_naming(function: &Function, globals: &FxHashSet<GlobalId>) -> Vec<ripple_ir::NodeId> {
    function
        .nodes
        .iter_enumerated()
        .filter(|(_, node)| {
            node.exprs().into_iter().any(|e| {
                let mut named = false;
                e.walk(&mut |x| {
                    if let ExprKind::AddrOfGlobal(g) = x.kind {
                        named |= globals.contains(&g);
                    }
                });
                named
            })
        })
        .map(|(id, _)| id)
        .collect()
}

/// Makes the nodes naming a changed static local changed nodes of their function, with
/// their lines and the static's declaration among the changed lines.
pub(crate) fn mark_functions(old: &Program, new: &Program, functions: &mut [FunctionMatch]) {
    let changed = changed_static_locals(old, new);
    if changed.is_empty() {
        return;
    }
    let olds: FxHashSet<GlobalId> = changed.iter().filter_map(|g| g.old).collect();
    let news: FxHashSet<GlobalId> = changed.iter().filter_map(|g| g.new).collect();
    for m in functions.iter_mut() {
        let (Some(o), Some(n)) = (m.old, m.new) else {
            continue;
        };
        let (fo, fnew) = (&old.functions[o], &new.functions[n]);
        let old_nodes = nodes_naming(fo, &olds);
        let new_nodes = nodes_naming(fnew, &news);
        if old_nodes.is_empty() && new_nodes.is_empty() {
            continue;
        }
        let old_set: FxHashSet<_> = old_nodes.iter().copied().collect();
        let new_set: FxHashSet<_> = new_nodes.iter().copied().collect();
        // A pair of nodes stays mapped only when neither names a changed static.
        let (kept, cut): (Vec<_>, Vec<_>) = m
            .node_map
            .iter()
            .partition(|(a, b)| !old_set.contains(a) && !new_set.contains(b));
        m.node_map = kept;
        m.continuation
            .retain(|(a, b)| !old_set.contains(a) && !new_set.contains(b));
        m.changed_old.extend(cut.iter().map(|(a, _)| *a));
        m.changed_new.extend(cut.iter().map(|(_, b)| *b));
        m.changed_old.extend(old_nodes);
        m.changed_new.extend(new_nodes);
        for list in [&mut m.changed_old, &mut m.changed_new] {
            list.sort();
            list.dedup();
        }
        let lines = |program: &Program,
                     f: &Function,
                     nodes: &[ripple_ir::NodeId],
                     statics: &FxHashSet<GlobalId>| {
            let mut lines: Vec<(String, u32)> = nodes
                .iter()
                .flat_map(|id| span_lines(program, f.nodes[*id].span))
                .collect();
            // The declaration of the static, where its initializer is written.
            lines.extend(
                statics
                    .iter()
                    .filter(|g| program.globals[**g].key.contains(&format!(":{}:", f.name)))
                    .flat_map(|g| span_lines(program, program.globals[*g].span)),
            );
            lines
        };
        let old_lines = lines(old, fo, &m.changed_old, &olds);
        let new_lines = lines(new, fnew, &m.changed_new, &news);
        m.old_lines.extend(old_lines);
        m.new_lines.extend(new_lines);
        for list in [&mut m.old_lines, &mut m.new_lines] {
            list.sort();
            list.dedup();
        }
        m.body_changed = true;
        if m.status == crate::FunctionStatus::Unchanged {
            m.status = crate::FunctionStatus::Modified;
        }
    }
}
