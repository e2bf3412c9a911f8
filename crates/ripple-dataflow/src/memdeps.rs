//! Flow-sensitive memory dependences inside one function, for the SDG ([`crate::sdg`]).
//!
//! A read of a region at a node depends on the writes of the region that may reach the
//! node along a path of the CFG, and on the region's value at entry. Updates are weak (a
//! write never kills), so the writes reaching a node are all the writes on some path to
//! it, and the entry value reaches every node.
//!
//! The dependences are built as memory SSA with weak updates (Cytron et al., TOPLAS 1991,
//! phi placement at the iterated dominance frontiers of the writes; dominators by
//! Cooper, Harvey and Kennedy, 2001): the state of a region at a point is a short list of
//! vertices (the entry value or a join vertex, then the writes since), a read gets an
//! edge from each, and a join point of the CFG where different states meet gets one
//! state vertex per region (a phi; the caller makes it a [`crate::VertexKind::Memory`]
//! vertex) fed by the state at the end of each predecessor. A state that grows past
//! [`MAX_STATE`] vertices is folded into a new state vertex. Reachability through these
//! vertices is exactly "the write reaches the read", and the graph stays linear in the
//! size of the function times the regions it writes, where direct edges from writes to
//! reads could be quadratic.
//!
//! Within one node, reads happen before writes (a store reads its operands, then
//! writes; a call reads its arguments and memory inputs, then the callee writes), except
//! at the nodes marked `repeats` (an external call that may call back into the program
//! several times: each write of the node also reaches each of its reads).
//!
//! The CFG is the augmented one of [`crate::control::PostDominators`]: nodes after which
//! execution may stop (`exit`, `longjmp`, calls that may do so) and nodes that cannot
//! reach the exit get an edge to the exit, so that what is written before the program
//! leaves a function that way still reaches the function's memory outputs. Reads at
//! nodes the entry cannot reach (dead code) depend on the entry value only.

use rustc_hash::FxHashMap;

use ripple_graph::dominators::{Dominators, UNREACHED};

use ripple_ir::NodeId;

use crate::pointsto::PartId;
use crate::sdg::VertexId;

/// States longer than this are folded into a new state vertex.
pub(crate) const MAX_STATE: usize = 4;

/// The memory accesses of one function, by node, for the regions handled here.
pub(crate) struct MemoryAccesses {
    /// Per node: (region, vertex that reads it).
    pub reads: Vec<Vec<(PartId, VertexId)>>,
    /// Per node: (region, vertex that writes it).
    pub writes: Vec<Vec<(PartId, VertexId)>>,
    /// The vertices holding each region's value at entry.
    pub entry: Vec<(PartId, VertexId)>,
    /// Nodes whose writes also reach their own reads.
    pub repeats: Vec<bool>,
}

impl MemoryAccesses {
    pub fn new(nodes: usize) -> Self {
        MemoryAccesses {
            reads: vec![Vec::new(); nodes],
            writes: vec![Vec::new(); nodes],
            entry: Vec::new(),
            repeats: vec![false; nodes],
        }
    }

    fn is_empty(&self) -> bool {
        self.reads.iter().all(Vec::is_empty)
    }
}

/// The dependences: new state vertices (their region; vertex ids from `first_new` on, in
/// order) and data edges.
pub(crate) struct MemoryDeps {
    pub states: Vec<PartId>,
    pub edges: Vec<(VertexId, VertexId)>,
}

/// The memory dependences of a function whose (augmented) CFG has successors `succs`,
/// entry `entry`; new vertices are numbered from `first_new`.
pub(crate) fn memory_deps(
    succs: &[&[NodeId]],
    entry: NodeId,
    accesses: &mut MemoryAccesses,
    first_new: u32,
) -> MemoryDeps {
    let mut out = MemoryDeps {
        states: Vec::new(),
        edges: Vec::new(),
    };
    if accesses.is_empty() {
        return out;
    }
    for list in accesses.reads.iter_mut().chain(accesses.writes.iter_mut()) {
        list.sort_unstable();
        list.dedup();
    }
    let regions = Regions::of(accesses);
    let doms = ripple_graph::dominators::dominators(succs.len(), entry.index(), |v, i| {
        succs[v].get(i).map(|s| s.index())
    });
    let frontier = dominance_frontiers(&doms, entry);
    let mut builder = Builder {
        out: &mut out,
        first_new,
    };
    let phis = builder.place_phis(&regions, accesses, &doms, &frontier, entry);
    builder.rename(&regions, accesses, succs, &doms, &phis, entry);
    // Dead code reads the entry value.
    for (n, list) in accesses.reads.iter().enumerate() {
        if doms.rpo.rank[n] != UNREACHED {
            continue;
        }
        for &(p, r) in list {
            for &s in &regions.initial[regions.dense[&p]] {
                out.edges.push((s, r));
            }
        }
    }
    out
}

/// The regions read in a function, numbered densely, with their entry states.
struct Regions {
    dense: FxHashMap<PartId, usize>,
    parts: Vec<PartId>,
    /// Per dense region: whether some node reads it (only those need phis).
    read: Vec<bool>,
    /// Per dense region: the vertices of its value at entry.
    initial: Vec<Vec<VertexId>>,
}

impl Regions {
    fn of(accesses: &MemoryAccesses) -> Regions {
        let mut dense: FxHashMap<PartId, usize> = FxHashMap::default();
        let mut parts: Vec<PartId> = Vec::new();
        let mut read: Vec<bool> = Vec::new();
        for list in &accesses.reads {
            for &(p, _) in list {
                let k = *dense.entry(p).or_insert_with(|| {
                    parts.push(p);
                    parts.len() - 1
                });
                if k >= read.len() {
                    read.resize(k + 1, false);
                }
                read[k] = true;
            }
        }
        let mut initial: Vec<Vec<VertexId>> = vec![Vec::new(); parts.len()];
        for &(p, v) in &accesses.entry {
            if let Some(&k) = dense.get(&p) {
                initial[k].push(v);
            }
        }
        for list in &mut initial {
            list.sort_unstable();
            list.dedup();
        }
        Regions {
            dense,
            parts,
            read,
            initial,
        }
    }
}

/// Dominance frontiers (Cooper, Harvey and Kennedy's runner formulation); the entry, if
/// it has predecessors, also has the edge from outside the function.
fn dominance_frontiers(doms: &Dominators, entry: NodeId) -> Vec<Vec<u32>> {
    let idom = &doms.idom;
    let mut frontier: Vec<Vec<u32>> = vec![Vec::new(); idom.len()];
    for &node in &doms.rpo.order {
        let ps = &doms.preds[node as usize];
        let joins = ps.len() + usize::from(node == entry.0);
        if joins < 2 {
            continue;
        }
        for &p in ps {
            let mut runner = p;
            loop {
                if runner == idom[node as usize] && node != entry.0 {
                    break;
                }
                if !frontier[runner as usize].contains(&node) {
                    frontier[runner as usize].push(node);
                }
                if runner == entry.0 {
                    break;
                }
                runner = idom[runner as usize];
            }
        }
    }
    frontier
}

/// Allocates state vertices and collects edges.
struct Builder<'a> {
    out: &'a mut MemoryDeps,
    first_new: u32,
}

impl Builder<'_> {
    fn new_state(&mut self, part: PartId) -> VertexId {
        let v = VertexId(self.first_new + self.out.states.len() as u32);
        self.out.states.push(part);
        v
    }

    /// Phis at the iterated dominance frontier of each read region's writes: per node,
    /// (dense region, state vertex).
    fn place_phis(
        &mut self,
        regions: &Regions,
        accesses: &MemoryAccesses,
        doms: &Dominators,
        frontier: &[Vec<u32>],
        entry: NodeId,
    ) -> Vec<Vec<(usize, VertexId)>> {
        let count = frontier.len();
        let region_count = regions.parts.len();
        let mut defs: Vec<Vec<u32>> = vec![Vec::new(); region_count];
        for &node in &doms.rpo.order {
            let mut last = usize::MAX;
            for &(p, _) in &accesses.writes[node as usize] {
                let Some(&k) = regions.dense.get(&p) else {
                    continue;
                };
                if k != last {
                    defs[k].push(node);
                    last = k;
                }
            }
        }
        let mut phis: Vec<Vec<(usize, VertexId)>> = vec![Vec::new(); count];
        let mut placed = vec![UNREACHED; count];
        let mut queued = vec![UNREACHED; count];
        for (k, region_defs) in defs.iter().enumerate() {
            if !regions.read[k] || region_defs.is_empty() {
                continue;
            }
            let mut work: Vec<u32> = region_defs.clone();
            for &d in &work {
                queued[d as usize] = k as u32;
            }
            while let Some(d) = work.pop() {
                for &y in &frontier[d as usize] {
                    if placed[y as usize] == k as u32 {
                        continue;
                    }
                    placed[y as usize] = k as u32;
                    let v = self.new_state(regions.parts[k]);
                    phis[y as usize].push((k, v));
                    if y == entry.0 {
                        for &s in &regions.initial[k] {
                            self.out.edges.push((s, v));
                        }
                    }
                    if queued[y as usize] != k as u32 {
                        queued[y as usize] = k as u32;
                        work.push(y);
                    }
                }
            }
        }
        phis
    }

    /// Renaming: a walk of the dominator tree with the current state of each region;
    /// each read gets an edge from every vertex of its region's state.
    fn rename(
        &mut self,
        regions: &Regions,
        accesses: &MemoryAccesses,
        succs: &[&[NodeId]],
        doms: &Dominators,
        phis: &[Vec<(usize, VertexId)>],
        entry: NodeId,
    ) {
        let count = succs.len();
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); count];
        for &node in doms.rpo.order.iter().skip(1) {
            children[doms.idom[node as usize] as usize].push(node);
        }
        let mut state: Vec<Vec<VertexId>> = regions.initial.clone();
        let mut undo: Vec<(usize, Vec<VertexId>)> = Vec::new();
        // (node, undo log length on entry, whether it was visited)
        let mut stack: Vec<(u32, usize, bool)> = vec![(entry.0, 0, false)];
        while let Some(&(node, mark, visited)) = stack.last() {
            if visited {
                stack.pop();
                while undo.len() > mark {
                    let (k, old) = undo.pop().expect("logged");
                    state[k] = old;
                }
                continue;
            }
            let top = stack.len() - 1;
            stack[top] = (node, undo.len(), true);
            let n = node as usize;
            for &(k, v) in &phis[n] {
                undo.push((k, std::mem::replace(&mut state[k], vec![v])));
            }
            for &(p, r) in &accesses.reads[n] {
                let k = regions.dense[&p];
                for &s in &state[k] {
                    if s != r {
                        self.out.edges.push((s, r));
                    }
                }
            }
            if accesses.repeats[n] {
                for &(p, w) in &accesses.writes[n] {
                    for &(q, r) in &accesses.reads[n] {
                        if p == q && w != r {
                            self.out.edges.push((w, r));
                        }
                    }
                }
            }
            for &(p, w) in &accesses.writes[n] {
                let Some(&k) = regions.dense.get(&p) else {
                    continue;
                };
                if state[k].contains(&w) {
                    continue;
                }
                let mut next = state[k].clone();
                next.push(w);
                if next.len() > MAX_STATE {
                    let v = self.new_state(p);
                    for &s in &next {
                        self.out.edges.push((s, v));
                    }
                    next = vec![v];
                }
                undo.push((k, std::mem::replace(&mut state[k], next)));
            }
            for &s in succs[n] {
                for &(k, v) in &phis[s.index()] {
                    for &x in &state[k] {
                        self.out.edges.push((x, v));
                    }
                }
            }
            for &c in children[n].iter().rev() {
                stack.push((c, 0, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: PartId = PartId(0);
    const Q: PartId = PartId(1);
    const ENTRY_VALUE: VertexId = VertexId(50);

    /// A CFG from successor lists (node 0 is the entry, node 1 the exit).
    fn solve(succs: &[Vec<u32>], setup: impl FnOnce(&mut MemoryAccesses)) -> MemoryDeps {
        let succs: Vec<Vec<NodeId>> = succs
            .iter()
            .map(|l| l.iter().map(|&s| NodeId(s)).collect())
            .collect();
        let slices: Vec<&[NodeId]> = succs.iter().map(Vec::as_slice).collect();
        let mut accesses = MemoryAccesses::new(succs.len());
        accesses.entry.push((P, ENTRY_VALUE));
        accesses.entry.push((Q, VertexId(51)));
        setup(&mut accesses);
        memory_deps(&slices, NodeId(0), &mut accesses, 1000)
    }

    fn reaches(deps: &MemoryDeps, from: u32, to: u32) -> bool {
        let mut seen = vec![from];
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            if v == to {
                return true;
            }
            for &(a, b) in &deps.edges {
                if a.0 == v && !seen.contains(&b.0) {
                    seen.push(b.0);
                    stack.push(b.0);
                }
            }
        }
        false
    }

    #[test]
    fn a_read_depends_on_earlier_writes_only() {
        // entry -> 2 (read) -> 3 (write) -> 4 (read) -> exit (read: the output).
        let deps = solve(&[vec![2], vec![], vec![3], vec![4], vec![1]], |a| {
            a.reads[2].push((P, VertexId(100)));
            a.writes[3].push((P, VertexId(101)));
            a.reads[4].push((P, VertexId(102)));
            a.reads[1].push((P, VertexId(103)));
        });
        assert!(reaches(&deps, 50, 100));
        assert!(!reaches(&deps, 101, 100));
        assert!(reaches(&deps, 101, 102) && reaches(&deps, 50, 102));
        assert!(reaches(&deps, 101, 103) && reaches(&deps, 50, 103));
        assert!(deps.states.is_empty(), "no join, no state vertex");
    }

    #[test]
    fn writes_of_other_regions_are_independent() {
        let deps = solve(&[vec![2], vec![], vec![3], vec![1]], |a| {
            a.writes[2].push((Q, VertexId(100)));
            a.reads[3].push((P, VertexId(101)));
            a.reads[3].push((Q, VertexId(102)));
        });
        assert!(!reaches(&deps, 100, 101));
        assert!(reaches(&deps, 100, 102));
        assert!(reaches(&deps, 50, 101) && !reaches(&deps, 51, 101));
    }

    #[test]
    fn a_write_later_in_a_loop_reaches_a_read_earlier_in_it() {
        // entry -> 2 (read) -> 3 (write) -> 2; 2 -> 4 -> exit; 4 reads.
        let deps = solve(&[vec![2], vec![], vec![3, 4], vec![2], vec![1]], |a| {
            a.reads[2].push((P, VertexId(100)));
            a.writes[3].push((P, VertexId(101)));
            a.reads[4].push((P, VertexId(102)));
        });
        assert!(reaches(&deps, 101, 100), "through the back edge");
        assert!(reaches(&deps, 50, 100));
        assert!(reaches(&deps, 101, 102));
        assert_eq!(deps.states, vec![P], "one join vertex, at the loop head");
    }

    #[test]
    fn branches_join() {
        // entry -> 2 -> {3 (write a), 4 (write b)} -> 5 (read); 2 also reads.
        let deps = solve(
            &[vec![2], vec![], vec![3, 4], vec![5], vec![5], vec![1]],
            |a| {
                a.reads[2].push((P, VertexId(99)));
                a.writes[3].push((P, VertexId(100)));
                a.writes[4].push((P, VertexId(101)));
                a.reads[5].push((P, VertexId(102)));
            },
        );
        for w in [50, 100, 101] {
            assert!(reaches(&deps, w, 102), "{w}");
        }
        assert!(!reaches(&deps, 100, 99) && !reaches(&deps, 101, 99));
        assert!(!reaches(&deps, 100, 101) && !reaches(&deps, 101, 100));
    }

    #[test]
    fn long_states_are_folded_and_stay_exact() {
        // entry -> 2 -> ... -> 41 -> exit: even nodes write, odd nodes read.
        let mut succs: Vec<Vec<u32>> = vec![vec![2], vec![]];
        for n in 2..42 {
            succs.push(vec![if n == 41 { 1 } else { n + 1 }]);
        }
        let deps = solve(&succs, |a| {
            for n in 2..42 {
                if n % 2 == 0 {
                    a.writes[n].push((P, VertexId(100 + n as u32)));
                } else {
                    a.reads[n].push((P, VertexId(100 + n as u32)));
                }
            }
        });
        for r in (3..42).step_by(2) {
            let incoming = deps.edges.iter().filter(|e| e.1 .0 == 100 + r).count();
            assert!(incoming <= MAX_STATE, "{r}: {incoming}");
            for w in (2..42).step_by(2) {
                assert_eq!(reaches(&deps, 100 + w, 100 + r), w < r, "{w} -> {r}");
            }
        }
        assert!(deps.edges.len() < 200, "{}", deps.edges.len());
    }

    #[test]
    fn repeated_nodes_read_their_own_writes() {
        let deps = solve(&[vec![2], vec![], vec![1]], |a| {
            a.reads[2].push((P, VertexId(100)));
            a.writes[2].push((P, VertexId(101)));
            a.repeats[2] = true;
        });
        assert!(reaches(&deps, 101, 100));
    }

    #[test]
    fn dead_code_reads_the_entry_value() {
        let deps = solve(&[vec![1], vec![], vec![1]], |a| {
            a.reads[2].push((P, VertexId(100)));
        });
        assert!(reaches(&deps, 50, 100));
    }
}
