//! Static Execute After (SEA) and Static Execute Before (SEB) between functions, after
//! Jász, *Static Execute After algorithms as alternatives for impact analysis* (004),
//! section 3.
//!
//! `(f, g) ∈ SEA` iff some execution may run part of `g` after part of `f`: some
//! interprocedurally realizable path visits an entry of `f` before an exit of `g`.
//! SEA = CALL ∪ SEQ ∪ RET, optionally ∪ ID (004 section 3):
//! - CALL: `f` (transitively) calls `g`;
//! - SEQ: `f` (transitively) returns into some `h` that afterwards (transitively) calls
//!   `g`;
//! - RET: `f` (transitively) returns into `g` (`g` transitively calls `f`);
//! - ID: `g = f`. Without ID, `f ∈ SEA(f)` only through the three others: recursion
//!   (CALL and RET), or a call of `f` that runs again after it returned (a loop, kind d of
//!   004 section 3.1, or two calls in sequence: SEQ).
//!
//! SEB is the dual: `g ∈ SEB(f)` iff `f ∈ SEA(g)`; its relation labels are those of the
//! pair `(g, f)`: CALL when `g` calls `f`, RET when `f` calls `g`, SEQ when `g` runs and
//! returns before `f` is called.
//!
//! Two algorithms over the ICCFG ([`ripple_graph::Iccfg`], 004 section 3.1), giving
//! identical relations (a property test checks it, and checks both against a brute-force
//! oracle over realizable paths):
//! - [`per_function`] (004 Fig. 4): for one function, a backward traversal over call edges
//!   collects the transitive callers (RET) and greys the components that run after each
//!   call returns (their successors, and the component itself when it is in a loop);
//!   a forward traversal from those components collects SEQ, one from the function's own
//!   components collects CALL. For SEB the same traversals go to predecessors instead.
//!   Cost linear in the ICCFG per query.
//! - [`AllFunctions`] (004 Fig. 5 with Lemma 1): on the strongly connected components of
//!   the call graph (all members of one are in the same relations), CALL by one pass in
//!   reverse topological order, RET as its inverse, and SEQ by walking each function's
//!   components in topological order with the set `prev` of what ran before, adding
//!   `prev[c] × CALL[c]` (a component in a loop counts as before itself). Relations are
//!   bit matrices over call-graph components.
//!
//! [`sea_sets`] chooses: Fig. 4 for a few queries, Fig. 5 when many functions are asked
//! (004 section 3.3 measured Fig. 4 for every function at five times the cost of Fig. 5).
//!
//! Known limits (over-approximations, as in the paper): every call is assumed to return
//! and every reachable CFG node to reach its exit, so functions after a call that never
//! returns (`exit`, an infinite loop) are still in SEA. Calls go where the call graph
//! says: the commands build it with function pointers resolved by points-to and with
//! the callbacks of library functions (`qsort`'s comparator) as callees of the library
//! call (`ripple_dataflow::calls`); other functions without a body are leaves.

use ripple_graph::{BitMatrix, BitSet, Iccfg, Sccs};
use ripple_ir::FuncId;

/// SEA or its dual SEB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Static Execute After.
    After,
    /// Static Execute Before.
    Before,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::After => "SEA",
            Direction::Before => "SEB",
        }
    }
}

/// Which algorithm computes the sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Fig. 4 when few functions are asked, Fig. 5 otherwise.
    #[default]
    Auto,
    /// 004 Fig. 4, once per asked function.
    PerFunction,
    /// 004 Fig. 5, all functions at once.
    AllFunctions,
}

/// Options of an SEA/SEB computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeaConfig {
    pub direction: Direction,
    /// Whether `f ∈ SEA(f)` always (the optional ID relation).
    pub with_identity: bool,
    pub algorithm: Algorithm,
}

impl Default for SeaConfig {
    fn default() -> Self {
        SeaConfig {
            direction: Direction::After,
            with_identity: false,
            algorithm: Algorithm::Auto,
        }
    }
}

/// The relations that put a function into a set (bit flags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Relations(u8);

impl Relations {
    pub const CALL: Relations = Relations(1);
    pub const SEQ: Relations = Relations(2);
    pub const RET: Relations = Relations(4);
    pub const ID: Relations = Relations(8);
    const ALL: [(Relations, &'static str); 4] = [
        (Relations::CALL, "CALL"),
        (Relations::SEQ, "SEQ"),
        (Relations::RET, "RET"),
        (Relations::ID, "ID"),
    ];

    pub fn empty() -> Relations {
        Relations(0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, other: Relations) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn insert(&mut self, other: Relations) {
        self.0 |= other.0;
    }

    pub fn union(self, other: Relations) -> Relations {
        Relations(self.0 | other.0)
    }

    /// The names of the relations held, in the order CALL, SEQ, RET, ID.
    pub fn names(self) -> Vec<&'static str> {
        Relations::ALL
            .iter()
            .filter(|(r, _)| self.contains(*r))
            .map(|(_, name)| *name)
            .collect()
    }
}

/// The SEA (or SEB) set of one function, by relation, over all functions of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Membership {
    pub call: BitSet,
    pub seq: BitSet,
    pub ret: BitSet,
}

impl Membership {
    /// Members with their relations, sorted by id; `identity` adds `function` with ID.
    pub fn members(&self, function: FuncId, identity: bool) -> Vec<(FuncId, Relations)> {
        let mut all = self.call.clone();
        all.union_with(&self.seq);
        all.union_with(&self.ret);
        if identity {
            all.insert(function.index());
        }
        all.iter()
            .map(|g| {
                let mut relations = Relations::empty();
                for (set, relation) in [
                    (&self.call, Relations::CALL),
                    (&self.seq, Relations::SEQ),
                    (&self.ret, Relations::RET),
                ] {
                    if set.contains(g) {
                        relations.insert(relation);
                    }
                }
                if identity && g == function.index() {
                    relations.insert(Relations::ID);
                }
                (FuncId::from(g), relations)
            })
            .collect()
    }

    /// The union of the three relations, as a set of functions.
    pub fn union(&self) -> BitSet {
        let mut all = self.call.clone();
        all.union_with(&self.seq);
        all.union_with(&self.ret);
        all
    }
}

/// The SEA (or SEB) set of one function with the relations of each member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeaSet {
    pub function: FuncId,
    /// Sorted by id.
    pub members: Vec<(FuncId, Relations)>,
}

/// SEA (or SEB) sets of `functions` (in the order given), by the configured algorithm.
pub fn sea_sets(iccfg: &Iccfg, functions: &[FuncId], config: &SeaConfig) -> Vec<SeaSet> {
    let algorithm = match config.algorithm {
        Algorithm::Auto => chosen_algorithm(iccfg.functions.len(), functions.len()),
        chosen => chosen,
    };
    match algorithm {
        Algorithm::AllFunctions | Algorithm::Auto => {
            let all = AllFunctions::compute(iccfg);
            let transposed_seq =
                (config.direction == Direction::Before).then(|| all.seq.transpose());
            functions
                .iter()
                .map(|&f| SeaSet {
                    function: f,
                    members: all
                        .membership_with(f, config.direction, transposed_seq.as_ref())
                        .members(f, config.with_identity),
                })
                .collect()
        }
        Algorithm::PerFunction => functions
            .iter()
            .map(|&f| SeaSet {
                function: f,
                members: per_function(iccfg, f, config.direction).members(f, config.with_identity),
            })
            .collect(),
    }
}

/// The automatic choice: Fig. 4 while the queries are at most an eighth of the
/// functions (and Fig. 4's repeated traversals stay cheaper than Fig. 5's products).
pub fn chosen_algorithm(function_count: usize, query_count: usize) -> Algorithm {
    if query_count.saturating_mul(8) <= function_count {
        Algorithm::PerFunction
    } else {
        Algorithm::AllFunctions
    }
}

/// 004 Fig. 4: the SEA (or SEB) set of one function by graph reachability on the ICCFG.
pub fn per_function(iccfg: &Iccfg, function: FuncId, direction: Direction) -> Membership {
    let count = iccfg.functions.len();
    let walker = Walker::new(iccfg);
    // Lines 4-7: backward over call edges from the entry of `function`. A component
    // reached through a call edge (from an entry) has its successors greyed: they run
    // after the call returns. Reached entries are the transitive callers.
    let mut callers = BitSet::new(count);
    let mut processed = BitSet::new(count);
    processed.insert(function.index());
    let mut work = vec![function];
    let mut after_return: Vec<(FuncId, u32)> = Vec::new();
    while let Some(callee) = work.pop() {
        for &(caller, component) in &iccfg.callers[callee.index()] {
            let c = &iccfg.functions[caller.index()].components[component as usize];
            let next = match direction {
                Direction::After => &c.succs,
                Direction::Before => &c.preds,
            };
            after_return.extend(next.iter().map(|&s| (caller, s)));
            if c.in_loop {
                after_return.push((caller, component));
            }
            callers.insert(caller.index());
            if processed.insert(caller.index()) {
                work.push(caller);
            }
        }
    }
    // Lines 8-14, from the greyed components: what runs after a return (SEQ).
    let seq = walker.closure(after_return, direction);
    // Lines 3 and 8-14, from the function's own components: what it calls (CALL).
    let own = (0..iccfg.functions[function.index()].components.len() as u32).map(|c| (function, c));
    let callees = walker.closure(own, direction);
    match direction {
        Direction::After => Membership {
            call: callees,
            seq,
            ret: callers,
        },
        Direction::Before => Membership {
            call: callers,
            seq,
            ret: callees,
        },
    }
}

/// Global component numbering for the traversals of Fig. 4.
struct Walker<'a> {
    iccfg: &'a Iccfg,
    offsets: Vec<usize>,
    total: usize,
}

impl<'a> Walker<'a> {
    fn new(iccfg: &'a Iccfg) -> Walker<'a> {
        let mut offsets = Vec::with_capacity(iccfg.functions.len());
        let mut total = 0;
        for ccfg in &iccfg.functions {
            offsets.push(total);
            total += ccfg.components.len();
        }
        Walker {
            iccfg,
            offsets,
            total,
        }
    }

    /// Greys the seeds, then repeatedly: a grey component greys its successors (or
    /// predecessors, for SEB); every function it calls joins the result and all of that
    /// function's components are greyed. Returns the functions collected.
    fn closure(
        &self,
        seeds: impl IntoIterator<Item = (FuncId, u32)>,
        direction: Direction,
    ) -> BitSet {
        let mut result = BitSet::new(self.iccfg.functions.len());
        let mut entered = BitSet::new(self.iccfg.functions.len());
        let mut grey = BitSet::new(self.total);
        let mut stack: Vec<(FuncId, u32)> = Vec::new();
        for (f, c) in seeds {
            if grey.insert(self.offsets[f.index()] + c as usize) {
                stack.push((f, c));
            }
        }
        while let Some((f, c)) = stack.pop() {
            let component = &self.iccfg.functions[f.index()].components[c as usize];
            let next = match direction {
                Direction::After => &component.succs,
                Direction::Before => &component.preds,
            };
            for &s in next {
                if grey.insert(self.offsets[f.index()] + s as usize) {
                    stack.push((f, s));
                }
            }
            for &g in &component.callees {
                result.insert(g.index());
                if entered.insert(g.index()) {
                    for i in 0..self.iccfg.functions[g.index()].components.len() {
                        if grey.insert(self.offsets[g.index()] + i) {
                            stack.push((g, i as u32));
                        }
                    }
                }
            }
        }
        result
    }
}

/// 004 Fig. 5: SEA of all functions at once, over the strongly connected components of
/// the call graph (Lemma 1).
#[derive(Clone, Debug)]
pub struct AllFunctions {
    /// Call-graph components, in topological order (callers first).
    pub sccs: Sccs,
    /// CALL between call-graph components (row: caller component).
    pub call: BitMatrix,
    /// RET, the inverse of CALL.
    pub ret: BitMatrix,
    /// SEQ between call-graph components.
    pub seq: BitMatrix,
}

impl AllFunctions {
    pub fn compute(iccfg: &Iccfg) -> AllFunctions {
        // Line 1: the components of the call graph.
        let sccs = iccfg.call_graph_sccs();
        let k = sccs.len();
        let scc_of = |f: FuncId| sccs.component_of[f.index()] as usize;
        // Lines 2-4: CALL, from the last component to the first.
        let mut call = BitMatrix::new(k, k);
        for scc in (0..k).rev() {
            if sccs.cyclic[scc] {
                call.insert(scc, scc);
            }
            for &f in &sccs.members[scc] {
                for component in &iccfg.functions[f as usize].components {
                    for &g in &component.callees {
                        let target = scc_of(g);
                        if target != scc {
                            call.insert(scc, target);
                            call.union_rows(scc, target);
                        }
                    }
                }
            }
        }
        // Line 5.
        let ret = call.transpose();
        // Lines 6-14: SEQ from the components of every function, in topological order.
        let mut seq = BitMatrix::new(k, k);
        let mut prev: Vec<BitSet> = Vec::new();
        for ccfg in &iccfg.functions {
            prev.clear();
            for component in &ccfg.components {
                // CALL[c]: the targets and what they call.
                let mut called = BitSet::new(k);
                for &g in &component.callees {
                    let target = scc_of(g);
                    called.insert(target);
                    called.union_with_words(call.row(target));
                }
                let mut before = BitSet::new(k);
                for &p in &component.preds {
                    before.union_with(&prev[p as usize]);
                }
                if component.in_loop {
                    before.union_with(&called);
                }
                for f in before.iter() {
                    seq.union_row_with(f, &called);
                }
                if !component.in_loop {
                    before.union_with(&called);
                }
                prev.push(before);
            }
        }
        AllFunctions {
            sccs,
            call,
            ret,
            seq,
        }
    }

    /// The set of one function (Lemma 1: that of its call-graph component).
    pub fn membership(&self, function: FuncId, direction: Direction) -> Membership {
        let transposed = (direction == Direction::Before).then(|| self.seq.transpose());
        self.membership_with(function, direction, transposed.as_ref())
    }

    fn membership_with(
        &self,
        function: FuncId,
        direction: Direction,
        seq_transposed: Option<&BitMatrix>,
    ) -> Membership {
        let scc = self.sccs.component_of[function.index()] as usize;
        let (call, ret, seq) = match direction {
            Direction::After => (&self.call, &self.ret, &self.seq),
            // g ∈ SEB(f) by CALL when g calls f: the RET row of f, and so on.
            Direction::Before => (
                &self.ret,
                &self.call,
                seq_transposed.expect("SEB needs the transposed SEQ"),
            ),
        };
        Membership {
            call: self.expand(call, scc),
            seq: self.expand(seq, scc),
            ret: self.expand(ret, scc),
        }
    }

    /// A row over call-graph components as a set of functions.
    fn expand(&self, matrix: &BitMatrix, row: usize) -> BitSet {
        let mut out = BitSet::new(self.sccs.component_of.len());
        for scc in matrix.iter_row(row) {
            for &f in &self.sccs.members[scc] {
                out.insert(f as usize);
            }
        }
        out
    }

    /// The size of SEA(f) (or SEB(f)), without ID, for every function, by id.
    pub fn set_sizes(&self, direction: Direction) -> Vec<usize> {
        let k = self.sccs.len();
        let weights: Vec<usize> = self.sccs.members.iter().map(Vec::len).collect();
        let mut union = BitMatrix::new(k, k);
        for scc in 0..k {
            let mut row = BitSet::new(k);
            for matrix in [&self.call, &self.ret, &self.seq] {
                row.union_with_words(matrix.row(scc));
            }
            union.union_row_with(scc, &row);
        }
        if direction == Direction::Before {
            union = union.transpose();
        }
        let per_scc: Vec<usize> = (0..k)
            .map(|scc| union.iter_row(scc).map(|s| weights[s]).sum())
            .collect();
        self.sccs
            .component_of
            .iter()
            .map(|&scc| per_scc[scc as usize])
            .collect()
    }
}
