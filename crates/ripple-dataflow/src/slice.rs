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
//! [`traverse`] also records, for every reached vertex, the edge it was first reached by,
//! so clients (DCIA) can explain a result as a chain of dependences; and it takes a filter
//! to block edges (SEM-DCIA's equivalences).

use std::collections::VecDeque;

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
    let mut reached_by: Vec<Option<(VertexId, EdgeKind)>> = vec![None; sdg.vertex_count()];
    let mut queue: VecDeque<VertexId> = VecDeque::new();
    for &c in criteria {
        if reached_by[c.index()].is_none() {
            reached_by[c.index()] = Some((c, EdgeKind::Data));
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
    let mut phase1 = Vec::new();
    for phase in 0..2 {
        if phase == 1 {
            queue.extend(phase1.iter().copied());
        }
        while let Some(v) = queue.pop_front() {
            if phase == 0 {
                phase1.push(v);
            }
            let edges = match direction {
                SliceDirection::Forward => sdg.succs(v),
                SliceDirection::Backward => sdg.preds(v),
            };
            for &(w, kind) in edges {
                let skip = if phase == 0 {
                    phase1_skip(kind)
                } else {
                    phase2_skip(kind)
                };
                if skip || reached_by[w.index()].is_some() {
                    continue;
                }
                let (from, to) = match direction {
                    SliceDirection::Forward => (v, w),
                    SliceDirection::Backward => (w, v),
                };
                if !allow(from, to, kind) {
                    continue;
                }
                reached_by[w.index()] = Some((v, kind));
                queue.push_back(w);
            }
        }
    }
    let mut in_phase1 = vec![false; sdg.vertex_count()];
    for v in phase1 {
        in_phase1[v.index()] = true;
    }
    Traversal {
        reached_by,
        in_phase1,
    }
}
