//! The MAPPED relation between the IR nodes of two matched functions, the changed
//! statements and the changed source lines.
//!
//! Gyori, Lahiri, Partush: "Refining Interprocedural Change-Impact Analysis using
//! Equivalence Relations", ISSTA 2017, section 3.1. A diff is *sound* when it yields a
//! partial bijection π from old to new nodes such that (1) `StmtAt(n) = StmtAt(π(n))`,
//! (2) entry maps to entry and exit to exit, and (3, 4) a trace that executes only mapped
//! nodes in one version corresponds to an identical trace in the other.
//!
//! How this module satisfies the criteria:
//!
//! - A *statement unit* is a syntax node marked `is_statement`, or the function's root (the
//!   signature). Its *header* is made of its *pure* children: those that are not
//!   statements and contain no statement (the condition of an `if`, the three clauses of
//!   a `for`, a whole expression statement). Statement children (bodies) are units of
//!   their own, so a change inside a body never changes the construct around it.
//! - A unit is *changed* when GumTree left it unmatched, when its header is not isomorphic
//!   to its partner's (kinds and labels, layout ignored), or when it *moved*: its parent
//!   maps elsewhere, or it left the longest common subsequence of its mapped siblings.
//! - IR nodes are grouped by the unit their `syn` lies in, in node order. Two unchanged
//!   matched units pair their IR nodes in order, and only when both lowered to the same
//!   number of nodes with the same [`NodeKind`] discriminants and each pair points at the
//!   same position in its unit, and each pair holds the same IR statement modulo the
//!   renumbering of ids ([`crate::irdiff`]; criterion 1). Entry maps to entry and exit to
//!   exit (criterion 2). Nodes without syntax are not mapped.
//! - Code written differently but lowered to the same IR (a `while` as a `for`): from
//!   the mapped pairs, unmapped successors at the same position with the same IR are
//!   mapped too, transitively; kept only when every node of both functions ends up
//!   mapped (criterion 1 holds by the IR comparison), and the changed lines still show
//!   the rewrite.
//! - **Control-flow consistency** (criteria 3 and 4): for every mapped pair and successor
//!   index, the two successors must be mapped to each other or both be unmapped; otherwise
//!   the pair is removed (for the entry, which must stay mapped, the successor pairs are
//!   removed instead). Removing a pair never breaks another pair, so one pass suffices.
//!   By induction over a trace, mapped nodes then take corresponding steps. The price is
//!   that the node before an inserted statement (or after a deleted one) is unmapped too,
//!   although its text did not change; it is listed in `changed_*` but adds no changed
//!   line, and in `continuation` with its partner: it computes what its partner computes,
//!   so only where control goes after it is a change (DCIA seeds no data from it).
//!
//! Changed lines: all lines of an inserted, deleted or moved statement, and of a simple
//! statement whose text changed; for a construct with a body (`if`, loops, `switch`, the
//! function itself) only the lines of the changed header tokens; and the lines of nodes
//! whose text is unchanged but whose IR differs (a struct layout or a type changed
//! elsewhere).
//!
//! Known limits: a change of a global's initial value or of a declaration that does not
//! reach the IR of a statement is not a change of any node here.

use ripple_ir::{FuncId, Function, NodeId, Program, SynId};
use rustc_hash::FxHashMap;

use crate::gumtree::{isomorphic_renamed, lcs, match_trees, GumTreeConfig, SynMapping, TreeView};
use crate::irdiff::IrComparer;

/// The node-level comparison of two matched functions.
#[derive(Clone, Debug, Default)]
pub(crate) struct FunctionDiff {
    pub(crate) node_map: Vec<(NodeId, NodeId)>,
    /// Pairs of nodes that hold the same statement but left MAPPED for control-flow
    /// consistency (see the module docs), sorted.
    pub(crate) continuation: Vec<(NodeId, NodeId)>,
    pub(crate) changed_old: Vec<NodeId>,
    pub(crate) changed_new: Vec<NodeId>,
    pub(crate) old_lines: Vec<(String, u32)>,
    pub(crate) new_lines: Vec<(String, u32)>,
}

impl FunctionDiff {
    /// Whether anything (a node or a line) differs.
    pub(crate) fn has_changes(&self) -> bool {
        !(self.changed_old.is_empty()
            && self.changed_new.is_empty()
            && self.old_lines.is_empty()
            && self.new_lines.is_empty())
    }
}

/// One side of the comparison.
pub(crate) struct Side<'a> {
    pub(crate) program: &'a Program,
    pub(crate) function: &'a Function,
}

/// The identity comparison of two functions with the same text and the same IR: `None`
/// when any node differs.
pub(crate) fn identity(
    old: &Side<'_>,
    new: &Side<'_>,
    functions: &FxHashMap<FuncId, FuncId>,
) -> Option<FunctionDiff> {
    let (f, g) = (old.function, new.function);
    if f.nodes.len() != g.nodes.len() || f.entry != g.entry || f.exit != g.exit {
        return None;
    }
    let same_shape = f.nodes.iter().zip(g.nodes.iter()).all(|(n, m)| {
        std::mem::discriminant(&n.kind) == std::mem::discriminant(&m.kind) && n.succs == m.succs
    });
    if !same_shape {
        return None;
    }
    let mut comparer = IrComparer::new(old, new, functions);
    if !f
        .nodes
        .iter()
        .zip(g.nodes.iter())
        .all(|(n, m)| comparer.same_node(n, m))
    {
        return None;
    }
    Some(FunctionDiff {
        node_map: f.nodes.ids().map(|id| (id, id)).collect(),
        ..FunctionDiff::default()
    })
}

/// Everything unmapped: all nodes changed, all lines of both functions changed.
pub(crate) fn everything_changed(old: Option<&Side<'_>>, new: Option<&Side<'_>>) -> FunctionDiff {
    let mut diff = FunctionDiff::default();
    if let Some(old) = old {
        diff.changed_old = old.function.nodes.ids().collect();
        diff.old_lines = span_lines(old.program, old.function.span);
    }
    if let Some(new) = new {
        diff.changed_new = new.function.nodes.ids().collect();
        diff.new_lines = span_lines(new.program, new.function.span);
    }
    diff
}

/// Compares two matched functions statement by statement.
pub(crate) fn diff_functions(
    old: &Side<'_>,
    new: &Side<'_>,
    functions: &FxHashMap<FuncId, FuncId>,
    config: GumTreeConfig,
) -> FunctionDiff {
    let (Some(old_tree), Some(new_tree)) = (&old.function.syntax, &new.function.syntax) else {
        // Without syntax trees only the fingerprint can vouch for equality.
        if old.function.fingerprint == new.function.fingerprint {
            if let Some(diff) = identity(old, new, functions) {
                return diff;
            }
        }
        return everything_changed(Some(old), Some(new));
    };
    let a = TreeView::new(old_tree, &old.function.name);
    let b = TreeView::new(new_tree, &new.function.name);
    if a.is_empty() || b.is_empty() {
        return everything_changed(Some(old), Some(new));
    }
    let mapping = match_trees(&a, &b, config);
    let units_a = Units::new(&a);
    let units_b = Units::new(&b);
    let moved = moved_nodes(&a, &b, &mapping);
    // Register locals renamed between the versions: a header naming one is compared up
    // to the renaming here, and its IR under the same pairing ([`IrComparer`]).
    let renamed: Vec<(&str, &str)> = old
        .function
        .renamed_locals(new.function)
        .into_iter()
        .map(|(x, y)| {
            (
                old.function.locals[x].name.as_str(),
                new.function.locals[y].name.as_str(),
            )
        })
        .collect();

    // Unit pairs that are unchanged.
    let mut unchanged_old = vec![false; old_tree.nodes.len()];
    let mut unchanged_new = vec![false; new_tree.nodes.len()];
    for (x, y) in mapping.pairs() {
        if units_a.is_unit(x)
            && units_b.is_unit(y)
            && !moved.0[x.index()]
            && !moved.1[y.index()]
            && same_header(&a, &units_a, x, &b, &units_b, y, &renamed)
        {
            unchanged_old[x.index()] = true;
            unchanged_new[y.index()] = true;
        }
    }

    // IR nodes grouped by unit, in node order.
    let groups_a = group_nodes(old.function, &a, &units_a);
    let groups_b = group_nodes(new.function, &b, &units_b);
    let mut comparer = IrComparer::new(old, new, functions);
    // Pairs with the same text but another lowering (a type or layout changed elsewhere).
    let mut ir_changed: Vec<(NodeId, NodeId)> = Vec::new();
    let mut pi: FxHashMap<NodeId, NodeId> = FxHashMap::default();
    let mut pi_inverse: FxHashMap<NodeId, NodeId> = FxHashMap::default();
    let mut link = |n: NodeId, m: NodeId| {
        pi.insert(n, m);
        pi_inverse.insert(m, n);
    };
    link(old.function.entry, new.function.entry);
    link(old.function.exit, new.function.exit);
    // In node order, so the local-variable correspondence is built deterministically.
    let mut ordered_a: Vec<(&SynId, &Vec<NodeId>)> = groups_a.iter().collect();
    ordered_a.sort_unstable_by_key(|(_, nodes)| nodes[0]);
    for (&unit_a, nodes_a) in ordered_a {
        if !unchanged_old[unit_a.index()] {
            continue;
        }
        let Some(unit_b) = mapping.new_of(unit_a) else {
            continue;
        };
        let Some(nodes_b) = groups_b.get(&unit_b) else {
            continue;
        };
        if nodes_a.len() != nodes_b.len() {
            continue;
        }
        let compatible = nodes_a.iter().zip(nodes_b).all(|(&n, &m)| {
            let (node_n, node_m) = (&old.function.nodes[n], &new.function.nodes[m]);
            std::mem::discriminant(&node_n.kind) == std::mem::discriminant(&node_m.kind)
                && node_n.succs.len() == node_m.succs.len()
                && match (node_n.syn, node_m.syn) {
                    (Some(s), Some(t)) => a.path_from(unit_a, s) == b.path_from(unit_b, t),
                    _ => false,
                }
        });
        if compatible {
            for (&n, &m) in nodes_a.iter().zip(nodes_b) {
                if comparer.same_node(&old.function.nodes[n], &new.function.nodes[m]) {
                    link(n, m);
                } else {
                    ir_changed.push((n, m));
                }
            }
        }
    }
    // Statements written differently but lowered to the same IR (a `while` written as a
    // `for`): an unmapped successor of a mapped node, at the same position as an
    // unmapped successor of its partner, with the same IR and as many successors, is
    // mapped to it, and so on from there. Kept only when that maps every node: in a
    // function whose IR changed, pieces mapped so would cut its changed code into
    // regions the statement proofs can no longer compare as a whole.
    let mut added: Vec<(NodeId, NodeId)> = Vec::new();
    let mut work: Vec<(NodeId, NodeId)> = pi.iter().map(|(&n, &m)| (n, m)).collect();
    work.sort_unstable_by(|x, y| y.cmp(x));
    while let Some((n, m)) = work.pop() {
        let (succs_n, succs_m) = (&old.function.nodes[n].succs, &new.function.nodes[m].succs);
        if succs_n.len() != succs_m.len() {
            continue;
        }
        for (&s, &t) in succs_n.iter().zip(succs_m) {
            if pi.contains_key(&s) || pi_inverse.contains_key(&t) {
                continue;
            }
            let (node_s, node_t) = (&old.function.nodes[s], &new.function.nodes[t]);
            if node_s.succs.len() == node_t.succs.len() && comparer.same_node(node_s, node_t) {
                pi.insert(s, t);
                pi_inverse.insert(t, s);
                added.push((s, t));
                work.push((s, t));
            }
        }
    }
    let everything = pi.len() == old.function.nodes.len() && pi.len() == new.function.nodes.len();
    if !everything {
        for (s, t) in added {
            pi.remove(&s);
            pi_inverse.remove(&t);
        }
    }
    let mut continuation =
        make_control_flow_consistent(old.function, new.function, &mut pi, &mut pi_inverse);
    continuation.sort_unstable();

    let mut node_map: Vec<(NodeId, NodeId)> = pi.into_iter().collect();
    node_map.sort_unstable();
    let changed_old = old
        .function
        .nodes
        .ids()
        .filter(|n| !is_mapped_old(&node_map, *n))
        .collect();
    let changed_new = new
        .function
        .nodes
        .ids()
        .filter(|m| !pi_inverse.contains_key(m))
        .collect();

    let mut old_lines = changed_lines(
        old.program,
        &a,
        &units_a,
        &unchanged_old,
        |x| mapping.new_of(x).is_some(),
        &moved.0,
        |leaf| {
            leaf_changed(
                &a,
                leaf,
                &b,
                mapping.new_of(leaf),
                &units_a,
                &units_b,
                &mapping,
                true,
            )
        },
    );
    let mut new_lines = changed_lines(
        new.program,
        &b,
        &units_b,
        &unchanged_new,
        |y| mapping.old_of(y).is_some(),
        &moved.1,
        |leaf| {
            leaf_changed(
                &b,
                leaf,
                &a,
                mapping.old_of(leaf),
                &units_b,
                &units_a,
                &mapping,
                false,
            )
        },
    );
    // Same text, another lowering: the node's first line (a `case` label whose test
    // reads a changed `switch` condition spans the whole case, but only its label
    // line compares).
    let first_line = |span: ripple_ir::Span| ripple_ir::Span {
        end_line: span.start_line,
        ..span
    };
    for &(n, m) in &ir_changed {
        old_lines.extend(span_lines(
            old.program,
            first_line(old.function.nodes[n].span),
        ));
        new_lines.extend(span_lines(
            new.program,
            first_line(new.function.nodes[m].span),
        ));
    }
    for lines in [&mut old_lines, &mut new_lines] {
        lines.sort_unstable();
        lines.dedup();
    }
    FunctionDiff {
        node_map,
        continuation,
        changed_old,
        changed_new,
        old_lines,
        new_lines,
    }
}

fn is_mapped_old(node_map: &[(NodeId, NodeId)], n: NodeId) -> bool {
    node_map.binary_search_by(|&(o, _)| o.cmp(&n)).is_ok()
}

/// Statement units and the shape of each tree around them.
struct Units {
    /// Whether the node is a unit (a statement, or the root).
    is_unit: Vec<bool>,
    /// Whether the subtree below the node (itself excluded) contains a statement.
    contains_statement: Vec<bool>,
}

impl Units {
    fn new(view: &TreeView<'_>) -> Units {
        let count = view.tree.nodes.len();
        let mut is_unit = vec![false; count];
        let mut contains_statement = vec![false; count];
        for &id in &view.post {
            is_unit[id.index()] = view.tree.nodes[id].is_statement || id == view.root();
            contains_statement[id.index()] = view
                .children(id)
                .iter()
                .any(|&c| view.tree.nodes[c].is_statement || contains_statement[c.index()]);
        }
        Units {
            is_unit,
            contains_statement,
        }
    }

    fn is_unit(&self, id: SynId) -> bool {
        self.is_unit[id.index()]
    }

    /// A child that belongs to its unit's header: not a statement, no statement inside.
    fn is_pure(&self, view: &TreeView<'_>, id: SynId) -> bool {
        !view.tree.nodes[id].is_statement && !self.contains_statement[id.index()]
    }

    /// The unit a node lies in: the nearest unit at or above it.
    fn unit_of(&self, view: &TreeView<'_>, mut id: SynId) -> SynId {
        loop {
            if self.is_unit(id) {
                return id;
            }
            match view.parent(id) {
                Some(parent) => id = parent,
                None => return view.root(),
            }
        }
    }

    /// The leaves of the header of `unit`, in order.
    fn header_leaves(&self, view: &TreeView<'_>, unit: SynId) -> Vec<SynId> {
        let mut out = Vec::new();
        for &child in view.children(unit) {
            if self.is_pure(view, child) {
                out.extend(
                    view.subtree(child)
                        .iter()
                        .copied()
                        .filter(|&d| view.children(d).is_empty()),
                );
            }
        }
        out
    }
}

impl TreeView<'_> {
    /// The child indices leading from `ancestor` down to `node` (`None` if not below it).
    fn path_from(&self, ancestor: SynId, node: SynId) -> Option<Vec<usize>> {
        let mut path = Vec::new();
        let mut current = node;
        while current != ancestor {
            let parent = self.parent(current)?;
            path.push(self.children(parent).iter().position(|&c| c == current)?);
            current = parent;
        }
        path.reverse();
        Some(path)
    }
}

/// Whether two units have the same kind, label and isomorphic headers (pure children in
/// order); statement children and the glue around them are compared by their own units.
fn same_header(
    a: &TreeView<'_>,
    units_a: &Units,
    x: SynId,
    b: &TreeView<'_>,
    units_b: &Units,
    y: SynId,
    renamed: &[(&str, &str)],
) -> bool {
    if a.kind(x) != b.kind(y) || a.label(x) != b.label(y) {
        return false;
    }
    if !units_a.contains_statement[x.index()] && !units_b.contains_statement[y.index()] {
        return isomorphic_renamed(a, x, b, y, renamed);
    }
    let pure_a: Vec<SynId> = a
        .children(x)
        .iter()
        .copied()
        .filter(|&c| units_a.is_pure(a, c))
        .collect();
    let pure_b: Vec<SynId> = b
        .children(y)
        .iter()
        .copied()
        .filter(|&c| units_b.is_pure(b, c))
        .collect();
    pure_a.len() == pure_b.len()
        && pure_a
            .iter()
            .zip(&pure_b)
            .all(|(&p, &q)| isomorphic_renamed(a, p, b, q, renamed))
}

/// Nodes that moved: mapped, but under a parent that maps elsewhere, or out of the order
/// of their mapped siblings (GumTree's move actions).
fn moved_nodes(a: &TreeView<'_>, b: &TreeView<'_>, mapping: &SynMapping) -> (Vec<bool>, Vec<bool>) {
    let mut moved_a = vec![false; a.tree.nodes.len()];
    let mut moved_b = vec![false; b.tree.nodes.len()];
    // The nearest ancestor that GumTree matched.
    let matched_ancestor = |view: &TreeView<'_>, node: SynId, matched: &dyn Fn(SynId) -> bool| {
        let mut up = view.parent(node);
        while let Some(p) = up {
            if matched(p) {
                return Some(p);
            }
            up = view.parent(p);
        }
        None
    };
    for (x, y) in mapping.pairs() {
        let (Some(px), Some(py)) = (a.parent(x), b.parent(y)) else {
            continue;
        };
        if mapping.new_of(px) != Some(py) {
            // A wrapper deleted or inserted around a statement (`if (c) { s; }` becoming
            // `s;`) changes the wrapper only, when the statement stays under the same
            // enclosing construct: then it has not moved.
            let unwrapped = (mapping.new_of(px).is_none() || mapping.old_of(py).is_none())
                && matched_ancestor(a, x, &|p| mapping.new_of(p).is_some())
                    .and_then(|p| mapping.new_of(p))
                    == matched_ancestor(b, y, &|p| mapping.old_of(p).is_some());
            if !unwrapped {
                moved_a[x.index()] = true;
                moved_b[y.index()] = true;
            }
        }
    }
    for (px, py) in mapping.pairs() {
        let xs: Vec<SynId> = a
            .children(px)
            .iter()
            .copied()
            .filter(|&c| mapping.new_of(c).is_some_and(|m| b.parent(m) == Some(py)))
            .collect();
        let ys: Vec<SynId> = b
            .children(py)
            .iter()
            .copied()
            .filter(|&c| mapping.old_of(c).is_some_and(|m| a.parent(m) == Some(px)))
            .collect();
        let kept = lcs(&xs, &ys, |x, y| mapping.new_of(x) == Some(y));
        for &x in &xs {
            if !kept.iter().any(|&(k, _)| k == x) {
                moved_a[x.index()] = true;
                if let Some(y) = mapping.new_of(x) {
                    moved_b[y.index()] = true;
                }
            }
        }
    }
    (moved_a, moved_b)
}

/// The IR nodes of each unit, in node order.
fn group_nodes(
    function: &Function,
    view: &TreeView<'_>,
    units: &Units,
) -> FxHashMap<SynId, Vec<NodeId>> {
    let mut groups: FxHashMap<SynId, Vec<NodeId>> = FxHashMap::default();
    for (id, node) in function.nodes.iter_enumerated() {
        if id == function.entry || id == function.exit {
            continue;
        }
        let Some(syn) = node.syn else {
            continue;
        };
        if syn.index() >= view.tree.nodes.len() {
            continue;
        }
        groups.entry(units.unit_of(view, syn)).or_default().push(id);
    }
    groups
}

/// Removes mapped pairs whose successors do not correspond (see the module docs), and
/// returns them.
fn make_control_flow_consistent(
    old: &Function,
    new: &Function,
    pi: &mut FxHashMap<NodeId, NodeId>,
    pi_inverse: &mut FxHashMap<NodeId, NodeId>,
) -> Vec<(NodeId, NodeId)> {
    let mut pairs: Vec<(NodeId, NodeId)> = pi.iter().map(|(&n, &m)| (n, m)).collect();
    pairs.sort_unstable();
    let mut removed = Vec::new();
    let mut remove = |n: NodeId,
                      pi: &mut FxHashMap<NodeId, NodeId>,
                      pi_inverse: &mut FxHashMap<NodeId, NodeId>| {
        if let Some(m) = pi.remove(&n) {
            pi_inverse.remove(&m);
            removed.push((n, m));
        }
    };
    for (n, m) in pairs {
        if pi.get(&n) != Some(&m) {
            continue;
        }
        let (succs_n, succs_m) = (&old.nodes[n].succs, &new.nodes[m].succs);
        let consistent = |pi: &FxHashMap<NodeId, NodeId>,
                          pi_inverse: &FxHashMap<NodeId, NodeId>| {
            succs_n.len() == succs_m.len()
                && succs_n.iter().zip(succs_m).all(|(s, t)| match pi.get(s) {
                    Some(image) => image == t,
                    None => !pi_inverse.contains_key(t),
                })
        };
        if consistent(pi, pi_inverse) {
            continue;
        }
        if n == old.entry && m == new.entry && succs_n.len() == succs_m.len() {
            for (s, t) in succs_n.iter().zip(succs_m) {
                if pi.get(s) != Some(t) {
                    remove(*s, pi, pi_inverse);
                    if let Some(&source) = pi_inverse.get(t) {
                        remove(source, pi, pi_inverse);
                    }
                }
            }
        } else if n != old.exit {
            remove(n, pi, pi_inverse);
        }
    }
    removed
}

/// Whether a header leaf changed: unmatched, relabelled, or matched into another unit.
#[allow(clippy::too_many_arguments)] // Both views, both unit tables and the mapping.
fn leaf_changed(
    view: &TreeView<'_>,
    leaf: SynId,
    other: &TreeView<'_>,
    image: Option<SynId>,
    units: &Units,
    other_units: &Units,
    mapping: &SynMapping,
    old_side: bool,
) -> bool {
    let Some(image) = image else {
        return true;
    };
    if view.label(leaf) != other.label(image) || view.kind(leaf) != other.kind(image) {
        return true;
    }
    let unit = units.unit_of(view, leaf);
    let other_unit = other_units.unit_of(other, image);
    let partner = if old_side {
        mapping.new_of(unit)
    } else {
        mapping.old_of(unit)
    };
    partner != Some(other_unit)
}

/// The source lines of the changed units of one side.
fn changed_lines(
    program: &Program,
    view: &TreeView<'_>,
    units: &Units,
    unchanged: &[bool],
    is_mapped: impl Fn(SynId) -> bool,
    moved: &[bool],
    leaf_changed: impl Fn(SynId) -> bool,
) -> Vec<(String, u32)> {
    let mut lines: Vec<(String, u32)> = Vec::new();
    for &id in &view.post {
        if !units.is_unit(id) || unchanged[id.index()] {
            continue;
        }
        let node = &view.tree.nodes[id];
        let whole = !is_mapped(id) || moved[id.index()] || !units.contains_statement[id.index()];
        if whole && id != view.root() {
            // An inserted or deleted construct around statements that stayed (a wrapper
            // `if`, say): its own lines, not those of the statements it held.
            let mut kept: Vec<(String, u32)> = Vec::new();
            let mut stack: Vec<SynId> = view.children(id).to_vec();
            while let Some(d) = stack.pop() {
                if units.is_unit(d) && is_mapped(d) && !moved[d.index()] && unchanged[d.index()] {
                    kept.extend(span_lines(program, view.tree.nodes[d].span));
                } else {
                    stack.extend(view.children(d).iter().copied());
                }
            }
            let first = node.span.start_line;
            lines.extend(
                span_lines(program, node.span)
                    .into_iter()
                    .filter(|l| l.1 == first || !kept.contains(l)),
            );
            continue;
        }
        // A construct with a body whose header changed: the changed header tokens only.
        let leaves = units.header_leaves(view, id);
        let mut changed: Vec<SynId> = leaves
            .iter()
            .copied()
            .filter(|&l| leaf_changed(l))
            .collect();
        if changed.is_empty() {
            changed = leaves;
        }
        if changed.is_empty() {
            let start = ripple_ir::Span {
                end_line: node.span.start_line,
                ..node.span
            };
            lines.extend(span_lines(program, start));
        }
        for leaf in changed {
            lines.extend(span_lines(program, view.tree.nodes[leaf].span));
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The (file, line) pairs a span covers; none for a synthetic span.
pub(crate) fn span_lines(program: &Program, span: ripple_ir::Span) -> Vec<(String, u32)> {
    if span.is_synthetic() {
        return Vec::new();
    }
    let path = program.file_path(span.file);
    span.lines().map(|line| (path.to_owned(), line)).collect()
}
