//! One monotone dataflow framework for every intraprocedural analysis of ripple.
//!
//! An [`Analysis`] gives a lattice (bottom, a boundary value for the entry, or the exit
//! for backward problems, and a join that reports whether it grew) and a transfer
//! function per CFG node; [`solve`] computes the least fixpoint (Kildall, POPL 1973)
//! with a worklist ordered by reverse postorder (of the reversed CFG for backward
//! problems), so each node is revisited only when one of its inputs grew and the result,
//! like the order of work, is deterministic. This is CBMC's `ai_baset` pattern: analyses
//! only describe their domain, the engine is shared.
//!
//! Limits: the framework is intraprocedural; interprocedural problems in ripple are
//! solved over the system dependence graph ([`crate::sdg`]) instead.

use std::collections::BTreeSet;

use ripple_ir::{Function, IndexVec, NodeId};

/// Which way facts flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

/// A dataflow problem over one function.
pub trait Analysis {
    type Domain: Clone + PartialEq;
    const DIRECTION: Direction;

    /// The least element: no information yet.
    fn bottom(&self, function: &Function) -> Self::Domain;

    /// The value flowing into the entry node (forward) or out of the exit (backward).
    fn boundary(&self, function: &Function) -> Self::Domain;

    /// The value after `node` (before it, for backward problems) given the value before it.
    fn transfer(&self, function: &Function, node: NodeId, input: &Self::Domain) -> Self::Domain;

    /// Joins `other` into `into`; returns whether `into` changed.
    fn join(&self, into: &mut Self::Domain, other: &Self::Domain) -> bool;
}

/// The fixpoint: the value flowing into each node (`input`) and out of it (`output`), in
/// the direction of the analysis.
#[derive(Clone, Debug)]
pub struct Solution<D> {
    pub input: IndexVec<NodeId, D>,
    pub output: IndexVec<NodeId, D>,
}

/// Solves `analysis` over `function`.
pub fn solve<A: Analysis>(analysis: &A, function: &Function) -> Solution<A::Domain> {
    let count = function.nodes.len();
    let preds = function.predecessors();
    let (start, flow_preds, flow_succs): (NodeId, Vec<Vec<NodeId>>, Vec<Vec<NodeId>>) =
        match A::DIRECTION {
            Direction::Forward => (
                function.entry,
                preds.iter().cloned().collect(),
                function.nodes.iter().map(|n| n.succs.clone()).collect(),
            ),
            Direction::Backward => (
                function.exit,
                function.nodes.iter().map(|n| n.succs.clone()).collect(),
                preds.iter().cloned().collect(),
            ),
        };
    let order = reverse_postorder(count, start, &flow_succs);
    let bottom = analysis.bottom(function);
    let mut input: Vec<A::Domain> = vec![bottom.clone(); count];
    let mut output: Vec<A::Domain> = vec![bottom; count];
    let mut worklist: BTreeSet<usize> = BTreeSet::new();
    worklist.extend(order.iter().copied());
    let mut by_rank = vec![0usize; count];
    for node in 0..count {
        by_rank[order[node]] = node;
    }
    let boundary = analysis.boundary(function);
    while let Some(rank) = worklist.pop_first() {
        let node = by_rank[rank];
        let mut value = if node == start.index() {
            boundary.clone()
        } else {
            analysis.bottom(function)
        };
        for pred in &flow_preds[node] {
            analysis.join(&mut value, &output[pred.index()]);
        }
        let out = analysis.transfer(function, NodeId::from(node), &value);
        input[node] = value;
        if out != output[node] {
            output[node] = out;
            for succ in &flow_succs[node] {
                worklist.insert(order[succ.index()]);
            }
        }
    }
    Solution {
        input: input.into(),
        output: output.into(),
    }
}

/// The rank of each node in a reverse postorder from `start`; unreachable nodes come
/// last, in index order.
fn reverse_postorder(count: usize, start: NodeId, succs: &[Vec<NodeId>]) -> Vec<usize> {
    let rpo = ripple_graph::dominators::reverse_postorder(count, start.index(), |v, i| {
        succs[v].get(i).map(|s| s.index())
    });
    let mut next = rpo.order.len();
    rpo.rank
        .iter()
        .map(|&r| {
            if r == ripple_graph::dominators::UNREACHED {
                next += 1;
                next - 1
            } else {
                r as usize
            }
        })
        .collect()
}
