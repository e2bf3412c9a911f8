//! Post-dominators and control dependence.
//!
//! [`PostDominators`] are the dominators of the reversed CFG, computed with the iterative
//! algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001):
//! simpler than Lengauer-Tarjan and as fast on CFGs of real functions.
//! [`ControlDependence`] follows Ferrante, Ottenstein and Warren (TOPLAS 1987): for each
//! CFG edge `a -> b` where `b` does not post-dominate `a`, every node on the post-dominator
//! tree path from `b` up to (excluding) the immediate post-dominator of `a` is control
//! dependent on `a`. This is the CONTROLDEPENDENT predicate of 000 (Table 1).
//!
//! The CFG is augmented before the computation, which keeps the result sound when
//! execution can stop or loop forever:
//! - callers pass the nodes after which execution may not continue (calls of `exit`,
//!   `abort`, `longjmp`, or of functions that may call them): each gets an extra edge to
//!   the exit node, so the nodes after it are control dependent on it;
//! - nodes from which the exit cannot be reached (infinite loops) get an extra edge to the
//!   exit, so post-dominance is defined everywhere (an over-approximation of their
//!   control dependences).
//!
//! Limits: non-termination of a loop that can exit is not a control dependence (the
//! analyses that use this are termination-insensitive, as 000 section 3 is).

use ripple_ir::{Function, IndexVec, NodeId};

/// Immediate post-dominators of one function's (augmented) CFG.
#[derive(Clone, Debug)]
pub struct PostDominators {
    /// `None` for the exit node.
    ipdom: Vec<Option<NodeId>>,
    /// Successors in the augmented CFG.
    succs: Vec<Vec<NodeId>>,
}

impl PostDominators {
    /// `may_stop` lists the nodes after which execution may end (see the module doc).
    pub fn compute(function: &Function, may_stop: &[NodeId]) -> PostDominators {
        Self::compute_with(function, may_stop, &[])
    }

    /// [`PostDominators::compute`] on the CFG with the `extra` edges added (a node that
    /// may continue elsewhere: see `ripple_analyses::change_control`).
    pub fn compute_with(
        function: &Function,
        may_stop: &[NodeId],
        extra: &[(NodeId, NodeId)],
    ) -> PostDominators {
        let count = function.nodes.len();
        let exit = function.exit;
        let mut succs: Vec<Vec<NodeId>> = function.nodes.iter().map(|n| n.succs.clone()).collect();
        for &(a, b) in extra {
            if !succs[a.index()].contains(&b) {
                succs[a.index()].push(b);
            }
        }
        for &node in may_stop {
            if node != exit && !succs[node.index()].contains(&exit) {
                succs[node.index()].push(exit);
            }
        }
        // Nodes that cannot reach the exit get an edge to it.
        let reaches = reaches_exit(count, exit, &succs);
        for node in 0..count {
            if !reaches[node] && node != exit.index() {
                succs[node].push(exit);
            }
        }
        let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); count];
        for (node, list) in succs.iter().enumerate() {
            for &s in list {
                preds[s.index()].push(NodeId::from(node));
            }
        }
        // Dominators of the reversed graph: its successors are the CFG predecessors.
        let doms = ripple_graph::dominators::dominators(count, exit.index(), |v, i| {
            preds[v].get(i).map(|p| p.index())
        });
        let ipdom = (0..count)
            .map(|node| doms.immediate(node).map(NodeId::from))
            .collect();
        PostDominators { ipdom, succs }
    }

    /// The immediate post-dominator (`None` for the exit).
    pub fn ipdom(&self, node: NodeId) -> Option<NodeId> {
        self.ipdom[node.index()]
    }

    /// Whether `a` post-dominates `b` (reflexive).
    pub fn postdominates(&self, a: NodeId, b: NodeId) -> bool {
        let mut runner = Some(b);
        while let Some(node) = runner {
            if node == a {
                return true;
            }
            runner = self.ipdom(node);
        }
        false
    }

    /// Successors in the augmented CFG.
    pub fn augmented_succs(&self, node: NodeId) -> &[NodeId] {
        &self.succs[node.index()]
    }
}

fn reaches_exit(count: usize, exit: NodeId, succs: &[Vec<NodeId>]) -> Vec<bool> {
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (node, list) in succs.iter().enumerate() {
        for s in list {
            preds[s.index()].push(node);
        }
    }
    let mut seen = vec![false; count];
    let mut stack = vec![exit.index()];
    if exit.index() < count {
        seen[exit.index()] = true;
    }
    while let Some(node) = stack.pop() {
        for &p in &preds[node] {
            if !seen[p] {
                seen[p] = true;
                stack.push(p);
            }
        }
    }
    seen
}

/// The control dependences of one function: for each node, the branching nodes (and
/// may-stop nodes) it is control dependent on, sorted.
#[derive(Clone, Debug)]
pub struct ControlDependence {
    on: IndexVec<NodeId, Vec<NodeId>>,
}

impl ControlDependence {
    pub fn compute(function: &Function, may_stop: &[NodeId]) -> ControlDependence {
        let pdom = PostDominators::compute(function, may_stop);
        Self::from_postdominators(function, &pdom)
    }

    pub fn from_postdominators(function: &Function, pdom: &PostDominators) -> ControlDependence {
        let count = function.nodes.len();
        let mut on: Vec<Vec<NodeId>> = vec![Vec::new(); count];
        for a in 0..count {
            let a_id = NodeId::from(a);
            let succs = pdom.augmented_succs(a_id);
            if succs.len() < 2 {
                continue;
            }
            let stop = pdom.ipdom(a_id);
            for &b in succs {
                let mut runner = Some(b);
                while let Some(node) = runner {
                    if Some(node) == stop {
                        break;
                    }
                    on[node.index()].push(a_id);
                    runner = pdom.ipdom(node);
                }
            }
        }
        for list in &mut on {
            list.sort_unstable();
            list.dedup();
        }
        ControlDependence { on: on.into() }
    }

    /// The nodes `node` is control dependent on (empty: only on the function's entry).
    pub fn of(&self, node: NodeId) -> &[NodeId] {
        &self.on[node]
    }
}
