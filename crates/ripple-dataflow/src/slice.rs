//! Two-phase interprocedural slicing over the SDG (Horwitz, Reps and Binkley, TOPLAS
//! 1990, section 4.2), forward and backward.
//!
//! Backward: phase 1 walks dependence edges backwards from the criterion without
//! descending into callees (no parameter-out edges), crossing calls by summary edges and
//! ascending into callers; phase 2 walks on from everything phase 1 reached without
//! ascending (no parameter-in or call edges). Forward is the exact mirror: phase 1
//! ascends to callers (parameter-out) but does not descend; phase 2 descends (parameter-
//! in, call) but does not ascend. Both therefore characterise the same realizable paths
//! (a prefix of returns, then a suffix of calls, matched calls replaced by summary
//! edges), so `b` is in the forward slice of `a` exactly when `a` is in the backward slice
//! of `b`: the duality that 004 (section 5) found broken in practice when the two
//! directions use different graphs (augmented control edges on one side only). Here both
//! directions traverse one graph, and a test checks the duality on random programs.
//!
//! Memory regions kept context-insensitive (one vertex for the whole program,
//! [`crate::sdg::VertexKind::Region`]) carry no summary edges: a path through one is
//! not tied to the call it started in. A traversal that reaches one in phase 2 therefore
//! starts phase 1 again from it (it may ascend to any caller), which keeps the slice
//! sound, and the two directions dual.
//!
//! [`traverse`] also records, for every reached vertex, the edge it was first reached by,
//! so clients (DCIA) can explain a result as a chain of dependences; and it takes a filter
//! to block edges (SEM-DCIA's equivalences).

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::sdg::{EdgeKind, Sdg, VertexId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceDirection {
    Forward,
    Backward,
}

/// How each vertex was reached: `None` if it was not; for a criterion, itself.
#[derive(Clone, Debug)]
pub struct Traversal {
    pub reached_by: Vec<Option<(VertexId, EdgeKind)>>,
    /// Vertices reached in phase 1 (forward: context-independently, by ascending).
    pub in_phase1: Vec<bool>,
}

impl Traversal {
    pub fn contains(&self, v: VertexId) -> bool {
        self.reached_by[v.index()].is_some()
    }

    /// The reached vertices, sorted.
    pub fn vertices(&self) -> Vec<VertexId> {
        self.reached_by
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(v, _)| VertexId(v as u32))
            .collect()
    }

    /// The chain from `v` back to the criterion it was reached from: `v` first.
    pub fn chain(&self, v: VertexId) -> Vec<(VertexId, EdgeKind)> {
        let mut out = Vec::new();
        let mut current = v;
        while let Some((from, kind)) = self.reached_by[current.index()] {
            out.push((current, kind));
            if from == current || out.len() > self.reached_by.len() {
                break;
            }
            current = from;
        }
        out
    }
}

/// The slice of `criteria` in `direction`.
pub fn slice(sdg: &Sdg, criteria: &[VertexId], direction: SliceDirection) -> Traversal {
    traverse(sdg, criteria, direction, &|_, _, _| true)
}

/// Two-phase traversal; `allow(from, to, kind)` may block edges (in the direction of the
/// dependence: `from` is the source of the dependence edge).
pub fn traverse(
    sdg: &Sdg,
    criteria: &[VertexId],
    direction: SliceDirection,
    allow: &dyn Fn(VertexId, VertexId, EdgeKind) -> bool,
) -> Traversal {
    traverse_with(sdg, criteria, direction, allow, &FxHashMap::default())
}

/// [`traverse`] forward with `extra` data dependences beside the graph's (from a vertex
/// to those listed for it), which `allow` filters like the others.
pub fn traverse_forward_with(
    sdg: &Sdg,
    criteria: &[VertexId],
    allow: &dyn Fn(VertexId, VertexId, EdgeKind) -> bool,
    extra: &FxHashMap<VertexId, Vec<VertexId>>,
) -> Traversal {
    traverse_with(sdg, criteria, SliceDirection::Forward, allow, extra)
}

fn traverse_with(
    sdg: &Sdg,
    criteria: &[VertexId],
    direction: SliceDirection,
    allow: &dyn Fn(VertexId, VertexId, EdgeKind) -> bool,
    extra: &FxHashMap<VertexId, Vec<VertexId>>,
) -> Traversal {
    let count = sdg.vertex_count();
    let mut reached_by: Vec<Option<(VertexId, EdgeKind)>> = vec![None; count];
    let mut in_phase1 = vec![false; count];
    let mut in_phase2 = vec![false; count];
    let mut queue: VecDeque<VertexId> = VecDeque::new();
    for &c in criteria {
        if reached_by[c.index()].is_none() {
            reached_by[c.index()] = Some((c, EdgeKind::Data));
            in_phase1[c.index()] = true;
            queue.push_back(c);
        }
    }
    // Phase 1 skips the edges that descend into callees (forward: parameter-in and call;
    // backward: parameter-out); phase 2 skips those that ascend to callers.
    let phase1_skip = |kind: EdgeKind| match direction {
        SliceDirection::Forward => matches!(kind, EdgeKind::ParamIn | EdgeKind::Call),
        SliceDirection::Backward => kind == EdgeKind::ParamOut,
    };
    let phase2_skip = |kind: EdgeKind| match direction {
        SliceDirection::Forward => kind == EdgeKind::ParamOut,
        SliceDirection::Backward => matches!(kind, EdgeKind::ParamIn | EdgeKind::Call),
    };
    let extra_of = |v: VertexId| extra.get(&v).map_or(&[][..], Vec::as_slice);
    let edges = |v: VertexId| {
        let graph = match direction {
            SliceDirection::Forward => sdg.succs(v),
            SliceDirection::Backward => sdg.preds(v),
        };
        graph
            .iter()
            .copied()
            .chain(extra_of(v).iter().map(|&w| (w, EdgeKind::Data)))
    };
    let allowed = |v: VertexId, w: VertexId, kind: EdgeKind| match direction {
        SliceDirection::Forward => allow(v, w, kind),
        SliceDirection::Backward => allow(w, v, kind),
    };
    // Rounds: phase 1 from the criteria, phase 2 from what it reached; a vertex of
    // memory of the whole program reached in phase 2 belongs to no calling context, so
    // it starts phase 1 of another round (and so on until none is left).
    while !queue.is_empty() {
        let mut round = Vec::new();
        while let Some(v) = queue.pop_front() {
            round.push(v);
            for (w, kind) in edges(v) {
                if phase1_skip(kind) || in_phase1[w.index()] || !allowed(v, w, kind) {
                    continue;
                }
                if reached_by[w.index()].is_none() {
                    reached_by[w.index()] = Some((v, kind));
                }
                in_phase1[w.index()] = true;
                queue.push_back(w);
            }
        }
        let mut second: VecDeque<VertexId> = VecDeque::new();
        for v in round {
            if !in_phase2[v.index()] {
                in_phase2[v.index()] = true;
                second.push_back(v);
            }
        }
        while let Some(v) = second.pop_front() {
            for (w, kind) in edges(v) {
                if phase2_skip(kind)
                    || in_phase1[w.index()]
                    || in_phase2[w.index()]
                    || !allowed(v, w, kind)
                {
                    continue;
                }
                if reached_by[w.index()].is_none() {
                    reached_by[w.index()] = Some((v, kind));
                }
                if sdg.is_context_free(w) {
                    in_phase1[w.index()] = true;
                    queue.push_back(w);
                } else {
                    in_phase2[w.index()] = true;
                    second.push_back(w);
                }
            }
        }
    }
    Traversal {
        reached_by,
        in_phase1,
    }
}
