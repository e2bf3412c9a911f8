//! The nodes whose number of executions a change may alter, in each version: what a
//! deleted (or inserted) statement does to the control flow around it.
//!
//! Gyori, Lahiri and Partush (000), Definition 3.1: a mapped node is impacted when the
//! sequence of values it reads may differ between the versions on some input; a node that
//! runs a different number of times reads a different sequence. SYNT-CHANGED seeds the
//! unmapped nodes, and control dependence carries a changed *condition* to what it
//! governs. A deleted `goto ret1;`, `return;` or `break;` changes no condition: it is a
//! jump that exists in one version only, so the statements it skipped now run (or the
//! reverse), and no branch of either CFG governs them.
//!
//! Construction, over the MAPPED relation π of version matching (000 section 3.1). In a
//! version V with unmapped nodes U, each u in U *may also continue where the other
//! version W continues at the same place*: from u, walk back through unmapped nodes to the
//! nearest mapped nodes p; from π(p) walk forward in W through W's unmapped nodes to the
//! first mapped nodes q'; add the edge u -> π⁻¹(q'). In this augmented CFG each u is a
//! branch between V's continuation and W's, and a node is control dependent on some u
//! exactly when one of the two continuations avoids it: its execution count may differ.
//! Those nodes (closed under control dependence, for nested constructs) are impacted in
//! V. Example: old `a; goto out; b; out: c;` against new `a; b; out: c;`: in the old
//! version the goto gets the extra edge to `b`, so `b` is control dependent on it; in the
//! new version `a` (unmapped, as the node before a deletion always is) gets the extra
//! edge to `c`, so `b` is control dependent on `a`. Either way `b` is impacted in both
//! versions. A deleted assignment adds no edge (both continuations are the same node),
//! so it changes no execution count: its effect is on values, which the forward slice
//! of the old version finds and the pairing of impacts across MAPPED carries to the new
//! version (an impacted mapped node is impacted as a pair: 000 Definition 3.1 compares
//! the two nodes of a pair).

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::{ControlDependence, PostDominators};
use ripple_ir::{FuncId, Function, NodeId, Program};
use ripple_versions::VersionMatch;

use crate::dcia::Side;

/// Per version (old, new): the nodes whose execution count the change may alter, with
/// the unmapped node they depend on, sorted. Unmapped nodes in `settled` (those of
/// changed regions proved to leave the same way as their partners) alter none.
pub fn execution_count_changes(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    settled: &FxHashSet<(Side, FuncId, NodeId)>,
) -> [Vec<(FuncId, NodeId, NodeId)>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for ChangedPair {
        o,
        n,
        to_new,
        to_old,
    } in changed_pairs(old, new, matching)
    {
        let (fo, fn_) = (&old.functions[o], &new.functions[n]);
        let settled_in = |side: Side, f: FuncId| move |u: NodeId| settled.contains(&(side, f, u));
        for (node, cause) in in_version(fo, fn_, &to_new, &to_old, settled_in(Side::Old, o)) {
            out[0].push((o, node, cause));
        }
        for (node, cause) in in_version(fn_, fo, &to_old, &to_new, settled_in(Side::New, n)) {
            out[1].push((n, node, cause));
        }
    }
    for list in &mut out {
        list.sort_unstable();
        list.dedup_by_key(|(f, n, _)| (*f, *n));
    }
    out
}

/// The nodes of `v` control dependent, in the augmented CFG, on an unmapped node of `v`
/// (`pi`: V's mapped nodes to W's; `pi_inv`: the reverse), each with that node.
fn in_version(
    v: &Function,
    w: &Function,
    pi: &FxHashMap<NodeId, NodeId>,
    pi_inv: &FxHashMap<NodeId, NodeId>,
    settled: impl Fn(NodeId) -> bool,
) -> Vec<(NodeId, NodeId)> {
    let unmapped: Vec<NodeId> = v.nodes.ids().filter(|n| !pi.contains_key(n)).collect();
    if unmapped.is_empty() {
        return Vec::new();
    }
    let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); v.nodes.len()];
    for (a, node) in v.nodes.iter_enumerated() {
        for &b in &node.succs {
            preds[b.index()].push(a);
        }
    }
    let mut extra: Vec<(NodeId, NodeId)> = Vec::new();
    for &u in &unmapped {
        for p in nearest_mapped(u, |x| &preds[x.index()], pi) {
            let p_w = pi[&p];
            // The other version continues at the same place: after the same successor of
            // p (p is the same statement in both, so its k-th successor means the same),
            // the one on which u lies.
            for (k, &s) in w.nodes[p_w].succs.iter().enumerate() {
                let Some(&entry) = v.nodes[p].succs.get(k) else {
                    continue;
                };
                if !reaches_through_unmapped(v, entry, u, pi) {
                    continue;
                }
                for q_w in nearest_mapped(s, |x| &w.nodes[x].succs, pi_inv) {
                    let q = pi_inv[&q_w];
                    if !v.nodes[u].succs.contains(&q) {
                        extra.push((u, q));
                    }
                }
            }
        }
    }
    extra.sort_unstable();
    extra.dedup();
    let pdom = PostDominators::compute_with(v, &[], &extra);
    let cd = ControlDependence::from_postdominators(v, &pdom);
    let mut governs: Vec<Vec<NodeId>> = vec![Vec::new(); v.nodes.len()];
    for node in v.nodes.ids() {
        for &on in cd.of(node) {
            governs[on.index()].push(node);
        }
    }
    // Closed under control dependence: what a moved node governs moves too.
    let mut out = Vec::new();
    let mut seen: FxHashSet<NodeId> = FxHashSet::default();
    for &u in unmapped.iter().filter(|&&u| !settled(u)) {
        let mut stack = vec![u];
        while let Some(x) = stack.pop() {
            for &y in &governs[x.index()] {
                if seen.insert(y) {
                    if pi.contains_key(&y) {
                        out.push((y, u));
                    }
                    stack.push(y);
                }
            }
        }
    }
    out
}

/// Whether `target` is `start` or follows it through unmapped nodes only.
fn reaches_through_unmapped(
    f: &Function,
    start: NodeId,
    target: NodeId,
    mapped: &FxHashMap<NodeId, NodeId>,
) -> bool {
    let mut seen: FxHashSet<NodeId> = FxHashSet::default();
    let mut stack = vec![start];
    while let Some(x) = stack.pop() {
        if x == target {
            return true;
        }
        if mapped.contains_key(&x) || !seen.insert(x) {
            continue;
        }
        stack.extend(f.nodes[x].succs.iter().copied());
    }
    false
}

/// The mapped nodes nearest to `start` along `next` (`start` itself if mapped), walking
/// through unmapped nodes.
fn nearest_mapped<'a>(
    start: NodeId,
    next: impl Fn(NodeId) -> &'a Vec<NodeId>,
    mapped: &FxHashMap<NodeId, NodeId>,
) -> Vec<NodeId> {
    let mut found = Vec::new();
    let mut seen: FxHashSet<NodeId> = FxHashSet::default();
    let mut stack = vec![start];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if mapped.contains_key(&x) {
            found.push(x);
            continue;
        }
        stack.extend(next(x).iter().copied());
    }
    found.sort_unstable();
    found
}

/// A changed call with a partner at the same place ([`paired_calls`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PairedCall {
    pub function: FuncId,
    pub node: NodeId,
    /// Per argument, whether it differs from the partner's; `None`: not known (the
    /// argument counts differ), every argument is a change.
    pub changed_args: Option<Vec<bool>>,
    /// Whether the destination of the result differs.
    pub changed_dst: bool,
    /// Whether the callee is a library function that never returns (`__assert_fail`,
    /// `exit`): what its arguments change (a message, an exit status) no statement of
    /// the program observes, and it stops in both versions.
    pub never_returns: bool,
}

pub fn paired_calls(old: &Program, new: &Program, matching: &VersionMatch) -> [Vec<PairedCall>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let partner: FxHashMap<FuncId, FuncId> = matching
        .functions
        .iter()
        .filter_map(|m| Some((m.old?, m.new?)))
        .collect();
    for run in paired_runs(old, new, matching) {
        let (o, n) = run.functions;
        let (fo, fn_) = (&old.functions[o], &new.functions[n]);
        let (a, b) = (&run.old, &run.new);
        if a.is_empty() || a.len() != b.len() {
            continue;
        }
        // Node by node, the same kind of statement; calls to partner functions.
        let calls: Option<Vec<(NodeId, NodeId)>> = a
            .iter()
            .zip(b)
            .filter_map(|(&x, &y)| {
                let (cx, cy) = (fo.nodes[x].direct_callee(), fn_.nodes[y].direct_callee());
                match (cx, cy) {
                    (None, None) => None,
                    (Some(g), Some(h))
                        if (partner.get(&g) == Some(&h)
                            || new.functions[h].key == old.functions[g].key)
                            && (old.functions[g].is_defined() || never_returns(old, g)) =>
                    {
                        Some(Some((x, y)))
                    }
                    _ => Some(None),
                }
            })
            .collect();
        for (x, y) in calls.unwrap_or_default() {
            let differences = ripple_versions::call_differences(old, new, matching, (o, n), (x, y));
            let (changed_args, changed_dst) = match differences {
                Some((args, dst)) => (Some(args), dst),
                None => (None, true),
            };
            let never_returns = fo.nodes[x]
                .direct_callee()
                .is_some_and(|g| never_returns(old, g));
            for (side, (function, node)) in [(o, x), (n, y)].into_iter().enumerate() {
                out[side].push(PairedCall {
                    function,
                    node,
                    changed_args: changed_args.clone(),
                    changed_dst,
                    never_returns,
                });
            }
        }
    }
    for list in &mut out {
        list.sort_unstable();
    }
    out
}

/// Whether `g` is a library function that never returns.
/// Whether `g` is a library function that never returns and whose arguments decide
/// nothing the program runs afterwards (`exit`, `abort`; not `longjmp`, whose value its
/// `setjmp` returns).
pub(crate) fn never_returns(program: &Program, g: FuncId) -> bool {
    let function = &program.functions[g];
    ripple_dataflow::noreturn::library_never_returns(function)
        && !ripple_dataflow::noreturn::jumps_back(function)
}

/// The changed straight-line code at the same place of both versions: the
/// [`PairedRegion`]s each side of which is a chain of at most 17 nodes, each with one
/// predecessor and one successor (one side may be empty), in execution order.
fn paired_runs(old: &Program, new: &Program, matching: &VersionMatch) -> Vec<PairedRegion> {
    let mut preds: FxHashMap<(FuncId, FuncId), [Vec<Vec<NodeId>>; 2]> = FxHashMap::default();
    paired_regions(old, new, matching)
        .into_iter()
        .filter(|r| {
            let (o, n) = r.functions;
            let (fo, fn_) = (&old.functions[o], &new.functions[n]);
            let [preds_old, preds_new] = preds
                .entry((o, n))
                .or_insert_with(|| [predecessors(fo), predecessors(fn_)]);
            let chain = |f: &Function, preds: &[Vec<NodeId>], nodes: &[NodeId]| {
                nodes.len() <= 17
                    && nodes
                        .iter()
                        .all(|&x| f.nodes[x].succs.len() == 1 && preds[x.index()].len() == 1)
            };
            chain(fo, preds_old, &r.old) && chain(fn_, preds_new, &r.new)
        })
        .collect()
}

/// The changed code at one place of both versions: the unmapped nodes reached from the
/// same successor of a mapped node (and of its partner) without passing a mapped node,
/// entered only at their first node, from partner mapped nodes in both versions, at most
/// [`MAX_REGION`] nodes; left towards mapped nodes that are partners (`old_exits[i]` is
/// the partner of `new_exits[i]`). An empty side is code inserted or deleted there,
/// going straight to its exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedRegion {
    /// The old and the new function.
    pub functions: (FuncId, FuncId),
    pub old: Vec<NodeId>,
    pub new: Vec<NodeId>,
    /// The first node of each side (its exit when the side is empty).
    pub old_start: NodeId,
    pub new_start: NodeId,
    pub old_exits: Vec<NodeId>,
    pub new_exits: Vec<NodeId>,
}

/// Regions larger than this (per version) are not paired.
pub const MAX_REGION: usize = 64;

/// The [`PairedRegion`]s of every changed function, in a deterministic order.
pub fn paired_regions(old: &Program, new: &Program, matching: &VersionMatch) -> Vec<PairedRegion> {
    let mut out = Vec::new();
    for ChangedPair {
        o,
        n,
        to_new,
        to_old,
    } in changed_pairs(old, new, matching)
    {
        let (fo, fn_) = (&old.functions[o], &new.functions[n]);
        let preds_old = predecessors(fo);
        let preds_new = predecessors(fn_);
        let mut starts: rustc_hash::FxHashSet<(NodeId, NodeId)> = Default::default();
        for (p, node) in fo.nodes.iter_enumerated() {
            let Some(&p_new) = to_new.get(&p) else {
                continue;
            };
            for k in 0..node.succs.len() {
                let (Some(&s_old), Some(&s_new)) =
                    (node.succs.get(k), fn_.nodes[p_new].succs.get(k))
                else {
                    continue;
                };
                if to_new.contains_key(&s_old) && to_old.contains_key(&s_new) {
                    continue;
                }
                if !starts.insert((s_old, s_new)) {
                    continue;
                }
                // Both entered from the same mapped nodes (a join after an if-else has
                // several).
                let entered: Option<Vec<NodeId>> = preds_old[s_old.index()]
                    .iter()
                    .map(|x| to_new.get(x).copied())
                    .collect();
                let (mut from_old, mut from_new) = (
                    entered.unwrap_or_default(),
                    preds_new[s_new.index()].clone(),
                );
                from_old.sort_unstable();
                from_new.sort_unstable();
                let empty = to_new.contains_key(&s_old) || to_old.contains_key(&s_new);
                let single = |preds: &[NodeId], q: NodeId| preds == [q];
                let same_entries = if empty {
                    // Code inserted or deleted here: entered only from p.
                    single(&preds_old[s_old.index()], p) || to_new.contains_key(&s_old)
                } else {
                    // Every edge into the old region has its partner edge (the same
                    // successor of the partner node) into the new one.
                    !from_old.is_empty()
                        && from_old == from_new
                        && preds_old[s_old.index()].iter().all(|&x| {
                            let x_new = to_new[&x];
                            fo.nodes[x].succs.iter().enumerate().all(|(i, &t)| {
                                t != s_old || fn_.nodes[x_new].succs.get(i) == Some(&s_new)
                            })
                        })
                };
                let same_entries = same_entries
                    && (!empty
                        || single(&preds_new[s_new.index()], p_new)
                        || to_old.contains_key(&s_new));
                if !same_entries {
                    continue;
                }
                let (Some((a, exits_a)), Some((b, exits_b))) = (
                    region(fo, &preds_old, &to_new, p, s_old),
                    region(fn_, &preds_new, &to_old, p_new, s_new),
                ) else {
                    continue;
                };
                // The exits pair up through MAPPED.
                let paired: Option<Vec<NodeId>> =
                    exits_a.iter().map(|x| to_new.get(x).copied()).collect();
                let Some(paired) = paired else {
                    continue;
                };
                let (mut x, mut y) = (paired.clone(), exits_b.clone());
                x.sort_unstable();
                y.sort_unstable();
                if x != y {
                    continue;
                }
                out.push(PairedRegion {
                    functions: (o, n),
                    old: a,
                    new: b,
                    old_start: s_old,
                    new_start: s_new,
                    old_exits: exits_a,
                    new_exits: paired,
                });
            }
        }
    }
    out
}

/// The unmapped nodes reached from `start` (the successor of mapped `p`) before any
/// mapped node, and the mapped nodes they lead to (in the order first met); `None` when
/// some node is entered from elsewhere, or there are too many.
fn region(
    f: &Function,
    preds: &[Vec<NodeId>],
    mapped: &FxHashMap<NodeId, NodeId>,
    p: NodeId,
    start: NodeId,
) -> Option<(Vec<NodeId>, Vec<NodeId>)> {
    if mapped.contains_key(&start) {
        return Some((Vec::new(), vec![start]));
    }
    // Entered from mapped nodes only (`p` among them).
    if !preds[start.index()].contains(&p)
        || !preds[start.index()].iter().all(|x| mapped.contains_key(x))
    {
        return None;
    }
    let mut nodes = vec![start];
    let mut seen: rustc_hash::FxHashSet<NodeId> = [start].into_iter().collect();
    let mut exits = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let n = nodes[i];
        i += 1;
        for &s in &f.nodes[n].succs {
            if mapped.contains_key(&s) {
                if !exits.contains(&s) {
                    exits.push(s);
                }
            } else if seen.insert(s) {
                if nodes.len() >= MAX_REGION {
                    return None;
                }
                nodes.push(s);
            }
        }
    }
    // Entered only at the start.
    let inside = |x: &NodeId| seen.contains(x);
    if nodes[1..]
        .iter()
        .any(|n| !preds[n.index()].iter().all(inside))
    {
        return None;
    }
    Some((nodes, exits))
}

/// A changed function defined in both versions, with MAPPED both ways.
struct ChangedPair {
    o: FuncId,
    n: FuncId,
    to_new: FxHashMap<NodeId, NodeId>,
    to_old: FxHashMap<NodeId, NodeId>,
}

/// The functions of both versions with some node not in MAPPED, in matching order.
fn changed_pairs<'a>(
    old: &'a Program,
    new: &'a Program,
    matching: &'a VersionMatch,
) -> impl Iterator<Item = ChangedPair> + 'a {
    matching.functions.iter().filter_map(|m| {
        let (o, n) = (m.old?, m.new?);
        let (fo, fn_) = (&old.functions[o], &new.functions[n]);
        if !fo.is_defined() || !fn_.is_defined() {
            return None;
        }
        let to_new: FxHashMap<NodeId, NodeId> = m.node_map.iter().copied().collect();
        let to_old: FxHashMap<NodeId, NodeId> = m.node_map.iter().map(|&(a, b)| (b, a)).collect();
        if to_new.len() == fo.nodes.len() && to_old.len() == fn_.nodes.len() {
            return None;
        }
        Some(ChangedPair {
            o,
            n,
            to_new,
            to_old,
        })
    })
}

fn predecessors(function: &Function) -> Vec<Vec<NodeId>> {
    let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); function.nodes.len()];
    for (a, node) in function.nodes.iter_enumerated() {
        for &b in &node.succs {
            if !preds[b.index()].contains(&a) {
                preds[b.index()].push(a);
            }
        }
    }
    preds
}
