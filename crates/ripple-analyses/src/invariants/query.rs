//! Demand-driven, path-sensitive backward propagation of a query on the MVICFG (003
//! section III-C, PropagateQuery): from a program point, the values of the queried
//! variables are carried backwards along every path, as terms; each edge intersects the
//! query's versions with its own; an assignment substitutes its value for its variable
//! (a store becomes an if-then-else on addresses); a branch adds its condition; copies
//! that meet at a node merge when their states agree (versions joined) or when only
//! their path conditions differ (conditions joined). A path ends at the entry of the
//! queried function, where what remains is over the inputs.
//!
//! Calls to defined functions are entered (the query goes to the callee's exit with the
//! result as the callee's return variable, and back to the call site at the callee's
//! entry with the parameters replaced by the arguments), up to a depth and never into a
//! function already on the stack; other calls make their result and, unless the library
//! function is known not to write the program's memory, every memory read unknown.
//!
//! A branch whose condition the path already has, negated, ends the copy (a conflict:
//! the path cannot run; only the copy's versions end, other copies go on).
//!
//! Loops are abstracted soundly: a query that reaches a loop (a cyclic component of the
//! function's graph, all versions' edges together) from one of its exits havocs every
//! variable the loop may write (and the memory, if it stores or calls), keeps the exit's
//! branch condition, and continues from the loop's entries. What is then proved holds
//! after any number of iterations. Or, asked for ([`QueryLimits::unroll`]), loops are
//! unrolled: the query follows their bodies backwards, each back edge (an edge to a node
//! no later in reverse postorder) at most K times per path and loop; a path that would
//! take one more ends there, and the loop is recorded as cut, so that what is proved is
//! reported as holding on the executions within the bound only (when no path is cut,
//! every execution was followed and nothing is qualified). Every statement that changed
//! the query is recorded as a cause, per variable (and for the path condition).

use std::collections::{BTreeSet, BinaryHeap};
use std::sync::Arc;

use ripple_graph::{strongly_connected_components, Sccs};
use ripple_symex::order;
use ripple_symex::term::{Cond, Repr, Term};
use rustc_hash::FxHashMap;

use super::mvicfg::{Dst, MvEdge, MvFunction, Mvicfg, Stmt, Target, Versions};

/// Subterms a queried value may have before it is made unknown.
const MAX_TERM: usize = 400;
/// Subterms a path condition may have before it is dropped.
const MAX_COND: usize = 4_000;
/// Subterms of a path's values and condition that weigh one propagation step.
const SUBTERMS_PER_STEP: usize = 200;
/// Paths met at a node that weigh one propagation step.
const MEETINGS_PER_STEP: usize = 16;

/// The steps a statement applied to a path of `subterms` subterms weighs, where it
/// meets `met` other paths at its node: the work of carrying and comparing them.
fn work_of(subterms: usize, met: usize) -> usize {
    subterms / SUBTERMS_PER_STEP + met / MEETINGS_PER_STEP
}

/// A node of the graph: (function, node).
pub type Cause = (usize, usize);

/// Limits of one query.
#[derive(Clone, Copy, Debug)]
pub struct QueryLimits {
    /// Propagation steps before the query gives up: a node visit is one, and each
    /// statement applied weighs also by the size of the path it carries and by the
    /// paths it is compared with where paths meet (see [`work_of`]), so the limit
    /// bounds the work, not only the visits.
    pub steps: usize,
    /// How deep calls are entered.
    pub depth: usize,
    /// Loops unrolled, each back edge taken at most this many times per path, instead
    /// of havocked.
    pub unroll: Option<u32>,
}

impl Default for QueryLimits {
    fn default() -> Self {
        QueryLimits {
            steps: 20_000,
            depth: 4,
            unroll: None,
        }
    }
}

/// A path of the query from the point back to the entry.
#[derive(Clone, Debug)]
pub struct PathEnd {
    pub versions: Versions,
    pub cond: Cond,
    pub values: Vec<Term>,
    /// Per variable: the statements that changed its value.
    pub causes: Vec<BTreeSet<Cause>>,
    /// The statements that changed the path condition.
    pub cond_causes: BTreeSet<Cause>,
}

/// What a query found.
#[derive(Clone, Debug, Default)]
pub struct QueryResult {
    pub paths: Vec<PathEnd>,
    /// Versions whose paths were not all followed (step limit): nothing is proved for them.
    pub incomplete: Versions,
    pub steps: usize,
    /// Loops havocked (function, a node of the loop), calls not entered, as causes of
    /// imprecision.
    pub loops: BTreeSet<Cause>,
    /// The versions on whose paths a value or condition grew too large and was made
    /// unknown (dropped): what such a version's paths fail to show may be the unknown's.
    pub truncated: Versions,
    /// Loops (function, the target of the back edge) where an unrolled path was cut at
    /// the bound: what the paths prove holds within the bound only.
    pub cut: BTreeSet<Cause>,
}

#[derive(Clone, Debug)]
struct Item {
    func: usize,
    node: usize,
    stack: usize,
    versions: Versions,
    values: Vec<Term>,
    cond: Cond,
    causes: Vec<BTreeSet<Cause>>,
    cond_causes: BTreeSet<Cause>,
    /// Back edges taken (unrolling): (stack, function, the edge's target) and how often.
    back_edges: Vec<((usize, usize, usize), u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Frame {
    func: usize,
    call: usize,
}

/// Library functions that write none of the program's memory (output, math, reads of
/// strings), and those whose result is computed exactly.
pub(crate) const PURE_LIBRARY: &[&str] = &[
    "printf", "puts", "putchar", "fputs", "fputc", "putc", "fprintf", "fflush", "strlen", "strcmp",
    "strncmp", "memcmp", "sqrt", "sqrtf", "pow", "powf", "sin", "cos", "tan", "atan", "atan2",
    "exp", "log", "log10", "floor", "ceil", "round", "fmod", "hypot", "isalpha", "isdigit",
    "isspace", "isalnum", "isupper", "islower", "toupper", "tolower", "atoi", "atol", "atof",
    "abs", "labs", "llabs", "fabs", "fabsf", "assert", "va_end",
];

struct Propagation<'g> {
    graph: &'g Mvicfg,
    limits: QueryLimits,
    sccs: Vec<Sccs>,
    /// Per function, each node's rank in reverse postorder (for back edges).
    ranks: Vec<Vec<u32>>,
    stacks: Vec<Vec<Frame>>,
    stack_ids: FxHashMap<Vec<Frame>, usize>,
    buckets: FxHashMap<(usize, usize, usize), Vec<Item>>,
    heap: BinaryHeap<(usize, u32, usize, usize, usize)>,
    fresh: usize,
    result: QueryResult,
}

/// Propagates a query for `vars` (terms over the point's names) from the state before
/// `node` of function `func`, for `versions`.
pub fn propagate(
    graph: &Mvicfg,
    func: usize,
    node: usize,
    versions: Versions,
    vars: &[Term],
    limits: QueryLimits,
) -> QueryResult {
    let sccs = graph.functions.iter().map(components).collect();
    let ranks = if limits.unroll.is_some() {
        graph.functions.iter().map(rpo_ranks).collect()
    } else {
        Vec::new()
    };
    let mut p = Propagation {
        graph,
        limits,
        sccs,
        ranks,
        stacks: vec![Vec::new()],
        stack_ids: FxHashMap::default(),
        buckets: FxHashMap::default(),
        heap: BinaryHeap::new(),
        fresh: 0,
        result: QueryResult::default(),
    };
    p.stack_ids.insert(Vec::new(), 0);
    let start = Item {
        func,
        node,
        stack: 0,
        versions: versions & graph.functions[func].nodes[node].versions,
        values: vars.to_vec(),
        cond: Cond::True,
        causes: vec![BTreeSet::new(); vars.len()],
        cond_causes: BTreeSet::new(),
        back_edges: Vec::new(),
    };
    let comp = p.sccs[func].component_of[node];
    if comp != Sccs::UNREACHED && p.sccs[func].cyclic[comp as usize] && limits.unroll.is_none() {
        // A point inside a loop: any iteration may be the one observed.
        p.result.loops.insert((func, node));
        let st = p.havoc_loop(start, comp);
        p.leave_loop_backwards(st, comp);
    } else {
        p.push(start);
    }
    p.run();
    p.result
}

/// Successors of every node, from the predecessor lists.
fn successors(f: &MvFunction) -> Vec<Vec<usize>> {
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); f.nodes.len()];
    for (to, preds) in f.preds.iter().enumerate() {
        for e in preds {
            succs[e.from].push(to);
        }
    }
    succs
}

/// Each node's rank in a reverse postorder from the entry.
fn rpo_ranks(f: &MvFunction) -> Vec<u32> {
    let succs = successors(f);
    ripple_graph::dominators::reverse_postorder(f.nodes.len(), f.entry, |n, i| {
        succs[n].get(i).copied()
    })
    .rank
}

fn components(f: &MvFunction) -> Sccs {
    let succs = successors(f);
    strongly_connected_components(f.nodes.len(), [f.entry], |n, i| succs[n].get(i).copied())
}

impl<'g> Propagation<'g> {
    fn qualify(&self, t: &Term, depth: usize) -> Term {
        if depth == 0 {
            return t.clone();
        }
        t.map(&mut |s| match s {
            Term::Var(name, r) => Some(Term::Var(Arc::from(format!("{depth}:{name}")), *r)),
            Term::Addr(name) if name.starts_with("local:") => {
                Some(Term::Addr(Arc::from(format!("{depth}:{name}"))))
            }
            _ => None,
        })
    }

    fn qualified_name(name: &str, depth: usize) -> Arc<str> {
        if depth == 0 {
            Arc::from(name)
        } else {
            Arc::from(format!("{depth}:{name}"))
        }
    }

    fn fresh(&mut self, repr: Repr) -> Term {
        fresh_symbol(&mut self.fresh, repr)
    }

    fn stack_id(&mut self, frames: Vec<Frame>) -> usize {
        if let Some(&id) = self.stack_ids.get(&frames) {
            return id;
        }
        self.stacks.push(frames.clone());
        let id = self.stacks.len() - 1;
        self.stack_ids.insert(frames, id);
        id
    }

    fn push(&mut self, item: Item) {
        if item.versions == 0 || item.cond == Cond::False {
            return;
        }
        let key = (item.func, item.node, item.stack);
        let bucket = self.buckets.entry(key).or_default();
        self.result.steps += work_of(0, bucket.len());
        for other in bucket.iter_mut() {
            let same_values = other.values == item.values;
            if same_values && other.cond == item.cond {
                other.versions |= item.versions;
                merge_causes(other, &item);
                return;
            }
            if same_values && other.versions == item.versions {
                other.cond = std::mem::replace(&mut other.cond, Cond::True).or(item.cond.clone());
                merge_causes(other, &item);
                return;
            }
        }
        let first = bucket.is_empty();
        bucket.push(item);
        if first {
            let depth = self.stacks[key.2].len();
            let rank = self.sccs[key.0].component_of[key.1];
            self.heap.push((depth, rank, key.0, key.1, key.2));
        }
    }

    fn run(&mut self) {
        while let Some((_, _, func, node, stack)) = self.heap.pop() {
            let Some(items) = self.buckets.remove(&(func, node, stack)) else {
                continue;
            };
            for item in items {
                self.result.steps += 1;
                if self.result.steps > self.limits.steps {
                    self.result.incomplete |= item.versions;
                    continue;
                }
                self.visit(item);
            }
        }
    }

    fn visit(&mut self, item: Item) {
        let f = &self.graph.functions[item.func];
        if item.node == f.entry {
            self.at_entry(item);
            return;
        }
        let comp = self.sccs[item.func].component_of[item.node];
        for edge in f.preds[item.node].clone() {
            self.step(&item, edge, comp);
        }
    }

    /// The query before `edge.from`, coming from the current node (in component `comp`).
    fn step(&mut self, item: &Item, edge: MvEdge, comp: u32) {
        // One visit may apply many statements (the edges into a loop left backwards).
        if self.result.steps > self.limits.steps {
            self.result.incomplete |= item.versions;
            return;
        }
        let f = &self.graph.functions[item.func];
        let q = edge.from;
        let versions = item.versions & edge.versions & f.nodes[q].versions;
        if versions == 0 {
            return;
        }
        let mut st = item.clone();
        st.versions = versions;
        st.node = q;
        let qcomp = self.sccs[item.func].component_of[q];
        if qcomp == Sccs::UNREACHED {
            return;
        }
        if let Some(taken) = edge.taken {
            self.add_branch(&mut st, q, taken);
        }
        if let Some(bound) = self.limits.unroll {
            let ranks = &self.ranks[item.func];
            if ranks[q] >= ranks[item.node] && !self.back_edge(&mut st, item.node, bound) {
                return;
            }
            self.transfer(st);
            return;
        }
        if qcomp != comp && self.sccs[item.func].cyclic[qcomp as usize] {
            self.result.loops.insert((item.func, q));
            let st = self.havoc_loop(st, qcomp);
            self.leave_loop_backwards(st, qcomp);
            return;
        }
        self.transfer(st);
    }

    /// Counts a back edge to `target` taken by the path; false (the path cut, the loop
    /// recorded) past `bound`.
    fn back_edge(&mut self, st: &mut Item, target: usize, bound: u32) -> bool {
        let key = (st.stack, st.func, target);
        match st.back_edges.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) if *n >= bound => {
                self.result.cut.insert((st.func, target));
                false
            }
            Some((_, n)) => {
                *n += 1;
                true
            }
            None if bound == 0 => {
                self.result.cut.insert((st.func, target));
                false
            }
            None => {
                st.back_edges.push((key, 1));
                true
            }
        }
    }

    fn add_branch(&mut self, st: &mut Item, q: usize, taken: bool) {
        let depth = self.stacks[st.stack].len();
        let Stmt::Branch(c) = &self.graph.functions[st.func].nodes[q].stmt else {
            return;
        };
        let c = Cond::truth(self.qualify(c, depth));
        let c = if taken { c } else { c.negate() };
        if c != Cond::True {
            st.cond_causes.insert((st.func, q));
        }
        match known(&st.cond, &c) {
            Some(true) => {}
            // A conflict: the path cannot run, and this copy (only its versions) ends.
            Some(false) => st.cond = Cond::False,
            None => st.cond = std::mem::replace(&mut st.cond, Cond::True).and(c),
        }
    }

    /// Forgets what the loop (component `comp` of the item's function) may write.
    fn havoc_loop(&mut self, mut st: Item, comp: u32) -> Item {
        let func = st.func;
        let depth = self.stacks[st.stack].len();
        let members = self.sccs[func].members[comp as usize].clone();
        let mut subst: FxHashMap<Arc<str>, Term> = FxHashMap::default();
        let mut memory = false;
        let mut writers: Vec<(Arc<str>, usize)> = Vec::new();
        for &m in &members {
            let node = &self.graph.functions[func].nodes[m as usize];
            if node.versions & st.versions == 0 {
                continue;
            }
            let dst = match &node.stmt {
                Stmt::Assign { dst, .. } => Some(dst),
                Stmt::Call { dst, callee, .. } => {
                    if !matches!(callee, Target::External(n) if PURE_LIBRARY.contains(&n.as_str()))
                    {
                        memory = true;
                    }
                    dst.as_ref()
                }
                Stmt::Havoc { dst } => {
                    memory = true;
                    dst.as_ref()
                }
                _ => None,
            };
            match dst {
                Some(Dst::Var(name, repr)) => {
                    let q = Self::qualified_name(name, depth);
                    writers.push((q.clone(), m as usize));
                    subst.entry(q).or_insert_with(|| self.fresh(*repr));
                }
                Some(_) => memory = true,
                None => {}
            }
        }
        for (i, value) in st.values.iter_mut().enumerate() {
            let mut names = Vec::new();
            value.vars(&mut names);
            for (w, m) in &writers {
                if names.contains(w) {
                    st.causes[i].insert((func, *m));
                }
            }
            *value = value.substitute(&subst);
        }
        st.cond = st.cond.substitute(&subst);
        if memory {
            // The loop's own writers are the causes, recorded above.
            self.forget_loads(&mut st, None);
        }
        st
    }

    /// Continues a havocked query from the edges entering the loop.
    fn leave_loop_backwards(&mut self, st: Item, comp: u32) {
        let func = st.func;
        let f = &self.graph.functions[func];
        let mut entries = Vec::new();
        for &m in &self.sccs[func].members[comp as usize] {
            for e in &f.preds[m as usize] {
                if self.sccs[func].component_of[e.from] != comp {
                    entries.push(*e);
                }
            }
        }
        for e in entries {
            self.step(&st, e, comp);
        }
    }

    /// Applies the statement at `st.node` backwards and queues the result.
    fn transfer(&mut self, mut st: Item) {
        let func = st.func;
        let q = st.node;
        let depth = self.stacks[st.stack].len();
        let stmt = self.graph.functions[func].nodes[q].stmt.clone();
        match stmt {
            Stmt::Entry | Stmt::Exit | Stmt::Skip | Stmt::Branch(_) => {}
            Stmt::Assign { dst, value } => {
                let value = self.qualify(&value, depth);
                self.write(&mut st, &dst, value, depth);
            }
            Stmt::Havoc { dst } => {
                if let Some(dst) = &dst {
                    let value = self.fresh(dst_repr(dst));
                    self.write(&mut st, dst, value, depth);
                }
                self.forget_memory(&mut st);
            }
            Stmt::Call { dst, callee, args } => {
                if let Target::Defined(key) = &callee {
                    if self.enter(&st, dst.as_ref(), key) {
                        return;
                    }
                }
                let result = match (&callee, &dst, args.first()) {
                    (Target::External(n), Some(Dst::Var(_, r)), Some(a))
                        if matches!(n.as_str(), "abs" | "labs" | "llabs") =>
                    {
                        let a = self.qualify(a, depth);
                        Some(absolute(a, *r))
                    }
                    _ => None,
                };
                if let Some(dst) = &dst {
                    let value = match result {
                        Some(v) => v,
                        None => self.fresh(dst_repr(dst)),
                    };
                    self.write(&mut st, dst, value, depth);
                }
                let pure =
                    matches!(&callee, Target::External(n) if PURE_LIBRARY.contains(&n.as_str()));
                if !pure {
                    self.forget_memory(&mut st);
                }
            }
        }
        self.bound_size(&mut st);
        self.push(st);
    }

    /// Keeps terms small: a value past [`MAX_TERM`] subterms becomes unknown, a path
    /// condition past [`MAX_COND`] is dropped (more paths: an over-approximation).
    /// Counts the path's size as work.
    fn bound_size(&mut self, st: &mut Item) {
        let mut subterms = 0;
        for i in 0..st.values.len() {
            let size = st.values[i].size();
            subterms += size;
            if size > MAX_TERM {
                let repr = st.values[i].repr();
                st.values[i] = self.fresh(repr);
                self.result.truncated |= st.versions;
            }
        }
        let size = st.cond.size();
        subterms += size;
        if size > MAX_COND {
            st.cond = Cond::True;
            self.result.truncated |= st.versions;
        }
        self.result.steps += work_of(subterms, 0);
    }

    fn write(&mut self, st: &mut Item, dst: &Dst, value: Term, depth: usize) {
        let cause = (st.func, st.node);
        match dst {
            Dst::Var(name, _) => {
                let name = Self::qualified_name(name, depth);
                let mut subst = FxHashMap::default();
                subst.insert(name, value);
                for (i, v) in st.values.iter_mut().enumerate() {
                    let new = v.substitute(&subst);
                    if new != *v {
                        st.causes[i].insert(cause);
                        *v = new;
                    }
                }
                let new = st.cond.substitute(&subst);
                if new != st.cond {
                    st.cond_causes.insert(cause);
                    st.cond = new;
                }
            }
            Dst::Mem { addr, repr } => {
                let addr = self.qualify(addr, depth);
                let bytes = repr.bytes();
                self.store(st, &addr, &value, bytes);
            }
            Dst::Bits { addr, bytes } => {
                let addr = self.qualify(addr, depth);
                let unknown = self.fresh(Repr::Int {
                    bits: bytes * 8,
                    signed: false,
                });
                self.store(st, &addr, &unknown, *bytes);
            }
        }
    }

    fn store(&mut self, st: &mut Item, addr: &Term, value: &Term, bytes: u32) {
        let cause = (st.func, st.node);
        let mut fresh = self.fresh;
        let mut mk = |r: Repr| fresh_symbol(&mut fresh, r);
        for (i, v) in st.values.iter_mut().enumerate() {
            if !v.reads_memory() {
                continue;
            }
            let new = v.store_over(addr, value, bytes, &mut mk);
            if new != *v {
                st.causes[i].insert(cause);
                *v = new;
            }
        }
        let new = st.cond.store_over(addr, value, bytes, &mut mk);
        if new != st.cond {
            st.cond_causes.insert(cause);
            st.cond = new;
        }
        self.fresh = fresh;
    }

    fn forget_memory(&mut self, st: &mut Item) {
        let cause = (st.func, st.node);
        self.forget_loads(st, Some(cause));
    }

    /// Replaces every load in the item's values and condition by a fresh symbol (memory
    /// may have been written), noting `cause` where something was forgotten.
    fn forget_loads(&mut self, st: &mut Item, cause: Option<(usize, usize)>) {
        let mut fresh = self.fresh;
        let mut mk = |r: Repr| fresh_symbol(&mut fresh, r);
        for (i, v) in st.values.iter_mut().enumerate() {
            if v.reads_memory() {
                *v = v.forget_memory(&mut mk);
                st.causes[i].extend(cause);
            }
        }
        let mut changed = false;
        st.cond = st.cond.map(&mut |t| match t {
            Term::Load(_, r) | Term::LoadBits { repr: r, .. } => {
                changed = true;
                Some(mk(*r))
            }
            _ => None,
        });
        if changed {
            st.cond_causes.extend(cause);
        }
        self.fresh = fresh;
    }

    /// Enters a defined callee at its exit, per group of versions that call the same
    /// function; false when the call is not entered (depth, recursion, missing).
    fn enter(&mut self, st: &Item, dst: Option<&Dst>, key: &str) -> bool {
        let depth = self.stacks[st.stack].len();
        if depth >= self.limits.depth {
            return false;
        }
        let frames = &self.stacks[st.stack];
        let mut groups: Vec<(usize, Versions)> = Vec::new();
        for v in 0..self.graph.versions {
            if st.versions & (1 << v) == 0 {
                continue;
            }
            let Some(&g) = self.graph.by_key[v].get(key) else {
                return false;
            };
            if g == st.func || frames.iter().any(|fr| fr.func == g) {
                return false;
            }
            match groups.iter_mut().find(|(h, _)| *h == g) {
                Some((_, vs)) => *vs |= 1 << v,
                None => groups.push((g, 1 << v)),
            }
        }
        let mut frames = frames.clone();
        frames.push(Frame {
            func: st.func,
            call: st.node,
        });
        let stack = self.stack_id(frames);
        for (g, versions) in groups {
            let callee = &self.graph.functions[g];
            let mut inner = st.clone();
            inner.versions = versions;
            if let Some(dst) = dst {
                // The call's result is written at the call, then the path continues
                // from the callee's exit.
                let value = match &callee.ret {
                    Some((name, repr)) => Term::Var(Self::qualified_name(name, depth + 1), *repr),
                    None => self.fresh(dst_repr(dst)),
                };
                self.write(&mut inner, dst, value, depth);
            }
            let callee = &self.graph.functions[g];
            inner.func = g;
            inner.node = callee.exit;
            inner.stack = stack;
            self.bound_size(&mut inner);
            self.push(inner);
        }
        true
    }

    /// A path reached a function's entry: done at the queried function, else back to the
    /// call site with the parameters replaced by the arguments.
    fn at_entry(&mut self, item: Item) {
        let frames = self.stacks[item.stack].clone();
        let Some(frame) = frames.last().copied() else {
            self.result.paths.push(PathEnd {
                versions: item.versions,
                cond: item.cond,
                values: item.values,
                causes: item.causes,
                cond_causes: item.cond_causes,
            });
            return;
        };
        let depth = frames.len();
        let callee = &self.graph.functions[item.func];
        let Stmt::Call { args, .. } = &self.graph.functions[frame.func].nodes[frame.call].stmt
        else {
            return;
        };
        let args = args.clone();
        // Versions may name the parameters differently.
        let mut groups: Vec<(Vec<Arc<str>>, Versions)> = Vec::new();
        for v in 0..self.graph.versions {
            if item.versions & (1 << v) == 0 {
                continue;
            }
            let params = callee.params[v].clone();
            match groups.iter_mut().find(|(p, _)| *p == params) {
                Some((_, vs)) => *vs |= 1 << v,
                None => groups.push((params, 1 << v)),
            }
        }
        let stack = self.stack_id(frames[..frames.len() - 1].to_vec());
        let prefix = format!("{depth}:");
        for (params, versions) in groups {
            let mut subst: FxHashMap<Arc<str>, Term> = FxHashMap::default();
            for (p, a) in params.iter().zip(&args) {
                subst.insert(Self::qualified_name(p, depth), self.qualify(a, depth - 1));
            }
            let mut st = item.clone();
            st.versions = versions;
            // The callee's other locals are uninitialised at its entry: unknown.
            let mut reprs: FxHashMap<Arc<str>, Repr> = FxHashMap::default();
            let mut collect = |t: &Term| {
                if let Term::Var(n, r) = t {
                    if n.starts_with(&prefix) {
                        reprs.insert(n.clone(), *r);
                    }
                }
            };
            st.values.iter().for_each(|v| v.walk(&mut collect));
            st.cond.walk(&mut collect);
            let mut names: Vec<_> = reprs.into_iter().collect();
            names.sort();
            for (n, r) in names {
                subst.entry(n).or_insert_with(|| self.fresh(r));
            }
            for v in st.values.iter_mut() {
                *v = v.substitute(&subst);
            }
            st.cond = st.cond.substitute(&subst);
            st.func = frame.func;
            st.node = frame.call;
            st.stack = stack;
            self.bound_size(&mut st);
            // Mark the call site as changing what its callee changed.
            for (i, c) in item.causes.iter().enumerate() {
                if c.iter().any(|(f, _)| *f == item.func) {
                    st.causes[i].insert((frame.func, frame.call));
                }
            }
            self.push(st);
        }
    }
}

/// A fresh symbol (havocked state): `?N`, never a program variable.
fn fresh_symbol(counter: &mut usize, repr: Repr) -> Term {
    *counter += 1;
    Term::Var(Arc::from(format!("?{counter}")), repr)
}

/// What a path condition already says of a branch condition `c`: true when `c` is one
/// of its conjuncts or follows from its comparisons, false when `c`'s negation is one
/// (the same branch taken both ways with nothing between them changing its operands) or
/// `c` contradicts its comparisons (`a < b` on a path that has `b < c` and `c < a`):
/// 003's conflict, found without the solver. None otherwise.
fn known(cond: &Cond, c: &Cond) -> Option<bool> {
    let not_c = c.clone().negate();
    let conjuncts = match cond {
        Cond::And(list) => list.as_slice(),
        other => std::slice::from_ref(other),
    };
    if conjuncts.contains(c) {
        Some(true)
    } else if conjuncts.contains(&not_c) || order::contradicts(&[cond, c]) {
        Some(false)
    } else if order::contradicts(&[cond, &not_c]) {
        Some(true)
    } else {
        None
    }
}

fn merge_causes(into: &mut Item, from: &Item) {
    for (a, b) in into.causes.iter_mut().zip(&from.causes) {
        a.extend(b.iter().copied());
    }
    into.cond_causes.extend(from.cond_causes.iter().copied());
    // Merged copies go on with the fewer back edges of the two, so that every path
    // within the unrolling bound is still followed (more paths is only weaker).
    into.back_edges.retain_mut(
        |(key, n)| match from.back_edges.iter().find(|(k, _)| k == key) {
            Some((_, m)) => {
                *n = (*n).min(*m);
                true
            }
            None => false,
        },
    );
}

fn dst_repr(dst: &Dst) -> Repr {
    match dst {
        Dst::Var(_, r) | Dst::Mem { repr: r, .. } => *r,
        Dst::Bits { bytes, .. } => Repr::Int {
            bits: bytes * 8,
            signed: false,
        },
    }
}

/// `abs(a)` as C computes it (wrapping at the minimum).
fn absolute(a: Term, r: Repr) -> Term {
    let a = if a.repr() == r {
        a
    } else {
        Term::Cast(Arc::new(a), r, false)
    };
    let negative = Cond::Truth(Term::Binary(
        ripple_ir::BinOp::Lt,
        Arc::new(a.clone()),
        Arc::new(Term::Int(0, r)),
        Repr::Int {
            bits: 32,
            signed: true,
        },
    ));
    Term::Ite(
        Arc::new(negative),
        Arc::new(Term::Unary(ripple_ir::UnOp::Neg, Arc::new(a.clone()), r)),
        Arc::new(a),
        r,
    )
}
