//! Static state requirements of chains (PROP, 002 section 5.2; COMPUTEREQS of Fig. 14 with
//! the partial symbolic execution of Definition 23, limited to paths of `l` statements).
//!
//! For a chain ending at statement `t` of its version, every path from the entry of its
//! function of at most `l` statements that covers the chain (its dependences
//! exercised in order, as [`super::monitor`] sees them at run time) and ends at the k-th
//! execution of `t` gives a path condition `pc'` and the values of the registers live
//! after `t` (and, for a branch `t`, its decision), all over the function's inputs. The
//! other version's paths to the k-th execution of `t`'s counterpart give `pc` and their
//! values. The state requirement is
//!
//! `OR over pc'  [ pc'  AND  AND over pc ( NOT pc  OR  a live value differs ) ]`
//!
//! for the one path of the other version an input follows: either its state at `t`
//! differs (infection), or it does not reach `t` there (control diverges). The solver
//! says whether an input satisfies it (with a witness) or none does (the requirement is
//! infeasible). Sound over-approximations: values of calls and memory after a call that
//! may write it (anything but the pure library and defined functions that store
//! nothing) are fresh (unconstrained) symbols; the memory of two paths is compared by
//! the stores they make (address, width and value over the inputs, in order): it may
//! differ when the stores differ in number or width, when a pair of them may differ in
//! address or value, or when either path writes memory in a way not modelled (a
//! bit-field, a call that may write memory, a havoc); what a call of the C library
//! prints is part of the state, compared by its arguments (a pointer argument other
//! than a string literal prints memory not followed: the state may differ); a global
//! whose initial value differs between the versions is two objects; a path of the
//! other version longer than `l` is not there to exclude an input. A chain through several functions is followed on paths from the
//! entry of the one that calls the others, with the calls it goes through inlined
//! ([`super::inline`]: a realizable path enters a callee and returns to its call site);
//! a chain through functions none of which calls the others, or a version whose paths
//! exceed the limits, is reported as not computed. "Infeasible" is said only when every
//! path of the chain's version fits within `l`.

use std::sync::Arc;
use std::time::Duration;

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::reaching::register_defined;
use ripple_dataflow::ControlDependence;
use ripple_ir::{BinOp, FuncId, Function, NodeId, NodeKind, Program, VarId};
use ripple_symex::invariant::Encoder;
use ripple_symex::smt::{model_bits, Answer, Budget, Smt};
use ripple_symex::term::{int_text, Cond, Repr, Term};
use ripple_symex::z3::ast::Ast;

use super::chains::{Chain, DepKind};
use super::changes::NodeRef;
use super::inline::{chain_root, inline, ChainRoot, Inlined};
use crate::invariants::mvicfg::{Converter, Dst, Stmt, Target};
use crate::invariants::query::PURE_LIBRARY;

/// The library functions among [`PURE_LIBRARY`] that print their arguments.
const PRINTS: &[&str] = &[
    "printf", "puts", "putchar", "fputs", "fputc", "putc", "fprintf",
];

/// Limits of the partial symbolic execution.
#[derive(Clone, Copy, Debug)]
pub struct StateLimits {
    /// `l`: the longest path, in statements.
    pub path_length: usize,
    /// Paths to the chain's end kept per version and requirement (the exploration
    /// visits at most `max_paths * path_length * 4` prefixes); past it the requirement is
    /// not computed.
    pub max_paths: usize,
    /// Solver budget per requirement (deterministic work).
    pub budget: Duration,
}

impl Default for StateLimits {
    fn default() -> Self {
        StateLimits {
            path_length: 40,
            max_paths: 64,
            budget: Duration::from_secs(2),
        }
    }
}

/// The state requirement of one chain.
#[derive(Clone, Debug)]
pub enum StateRequirement {
    /// Some input satisfies it: the condition, and one such input (the integer
    /// parameters, small values preferred; memory and pointers as the condition allows).
    Feasible {
        condition: Cond,
        witness: Vec<(String, String)>,
    },
    /// No input satisfies it.
    Infeasible,
    /// Not decided, and why.
    Unknown(String),
}

/// One path to the end of a chain: its condition and the values at the end.
struct PathState {
    pc: Cond,
    values: FxHashMap<Arc<str>, Term>,
    /// The decision of `t` when it is a branch.
    decision: Option<Cond>,
    /// What the path leaves in memory or prints, last first: its stores (address, value,
    /// width in bytes) and the arguments of its calls that print (`call:NAME`, argument,
    /// width).
    stores: Vec<(Term, Term, u32)>,
    /// Whether the path may write memory, or print, in a way these do not capture.
    opaque: bool,
}

/// The state requirement of `chain` of `version` against `other` (the other version),
/// where `map` takes `version`'s statements to `other`'s.
pub fn state_requirement(
    version: &Program,
    other: &Program,
    chain: &Chain,
    map: &FxHashMap<NodeRef, NodeRef>,
    limits: StateLimits,
) -> StateRequirement {
    // The functions the chain goes through, inlined into the one that calls the others.
    let mut functions: FxHashSet<FuncId> = FxHashSet::from_iter([chain.root.0]);
    for d in &chain.deps {
        functions.extend([d.from.0, d.to.0]);
    }
    let Some(ChainRoot {
        root,
        targets,
        in_chain,
    }) = chain_root(version, &functions)
    else {
        return StateRequirement::Unknown(
            "the chain crosses functions that no function reaches within a few calls".into(),
        );
    };
    // From a caller of the chain's functions, the paths from its entry are not all the
    // ways the chain may run (another caller may call them, and a chain through memory
    // may run through other frames): only a witness is an answer.
    // Nor are they when the chain goes through memory: a global, a static or a caller's
    // frame may have been written by another activation (an earlier call, a recursive
    // one), which the paths of one activation do not follow.
    // A function of the chain that may call itself has activations within the path's:
    // the same holds.
    let through_memory = chain
        .deps
        .iter()
        .any(|d| d.kind == DepKind::Data && memory_dependence(version, d.from, d.to))
        || functions.iter().any(|&f| may_recur(version, f));
    let verdict = |found: StateRequirement| {
        if !matches!(found, StateRequirement::Infeasible) {
            return found;
        }
        if !in_chain {
            let name = &version.functions[root].name;
            return StateRequirement::Unknown(format!(
                "no input on the paths from {name}, which calls the chain's functions (other callers not explored)"
            ));
        }
        if through_memory {
            return StateRequirement::Unknown(
                "no input on the paths of one activation, and other activations (through memory, or recursion) may run the chain".into(),
            );
        }
        found
    };
    let Some(inlined) = inline(version, root, &targets) else {
        return StateRequirement::Unknown("the functions of the chain are too large".into());
    };
    let function = &inlined.function;
    let end = chain.end();
    // This version's paths that cover the chain, by the execution count of `t`.
    let mut covering: Vec<(Vec<NodeId>, u32)> = Vec::new();
    let cd = ControlDependence::compute(function, &[]);
    let explored = explore(function, limits, &mut |path| {
        if !inlined.is(*path.last().unwrap_or(&function.entry), end) {
            return;
        }
        if covering.len() <= limits.max_paths && covers(&inlined, &cd, path, chain) {
            let k = path.iter().filter(|&&n| inlined.is(n, end)).count() as u32 - 1;
            covering.push((path.to_vec(), k));
        }
    });
    if covering.len() > limits.max_paths {
        return StateRequirement::Unknown(format!(
            "more than {} paths cover the chain",
            limits.max_paths
        ));
    }
    let Some(cut) = explored else {
        return StateRequirement::Unknown(format!(
            "more than {} paths of at most {} statements",
            limits.max_paths, limits.path_length
        ));
    };
    if covering.is_empty() {
        // Across functions, a chain no path covers may be one that this reading of
        // dependences on inlined paths does not recognise: not said to be infeasible.
        if functions.len() > 1 {
            return StateRequirement::Unknown(format!(
                "no path of at most {} statements through the calls covers the chain",
                limits.path_length
            ));
        }
        return if cut {
            StateRequirement::Unknown(format!(
                "no path of at most {} statements covers the chain",
                limits.path_length
            ))
        } else {
            verdict(StateRequirement::Infeasible)
        };
    }
    let conv = Converter::new(version, function);
    let (pure, pure2) = (writes_nothing(version), writes_nothing(other));
    let mut fresh = 0usize;
    let mine: Vec<(PathState, u32)> = covering
        .iter()
        .map(|(p, k)| {
            (
                state_at_end(&conv, function, p, &pure, &mut fresh, true),
                *k,
            )
        })
        .collect();
    // The other version's paths to the same execution of the counterpart of `t`, from
    // the counterpart of the root, through the counterparts of the other functions.
    let counterpart_of = |f: FuncId| {
        let mut found: Vec<FuncId> = map
            .iter()
            .filter(|(from, _)| from.0 == f)
            .map(|(_, to)| to.0)
            .collect();
        found.sort_unstable();
        found.first().copied()
    };
    let counterpart = map.get(&end).copied();
    let mut theirs: Vec<(PathState, u32)> = Vec::new();
    if let Some(end2) = counterpart {
        let Some(root2) = counterpart_of(root) else {
            return StateRequirement::Unknown(
                "the function the chain starts from has no counterpart".into(),
            );
        };
        let targets2: FxHashSet<FuncId> =
            targets.iter().filter_map(|&f| counterpart_of(f)).collect();
        let Some(inlined2) = inline(other, root2, &targets2) else {
            return StateRequirement::Unknown("the functions of the chain are too large".into());
        };
        let function2 = &inlined2.function;
        let conv2 = Converter::new(other, function2);
        let mut paths: Vec<(Vec<NodeId>, u32)> = Vec::new();
        let ok = explore(function2, limits, &mut |path| {
            if inlined2.is(*path.last().unwrap_or(&function2.entry), end2)
                && paths.len() <= limits.max_paths
            {
                let k = path.iter().filter(|&&n| inlined2.is(n, end2)).count() as u32 - 1;
                paths.push((path.to_vec(), k));
            }
        });
        if ok.is_none() || paths.len() > limits.max_paths {
            return StateRequirement::Unknown(format!(
                "more than {} paths in the other version",
                limits.max_paths
            ));
        }
        let renames = address_renames(version, other);
        theirs = paths
            .iter()
            .map(|(p, k)| {
                let state = state_at_end(&conv2, function2, p, &pure2, &mut fresh, false);
                (state.renamed(&renames), *k)
            })
            .collect();
    }
    let mut disjuncts = Vec::new();
    for (s, k) in &mine {
        let mut conj = s.pc.clone();
        for (o, k2) in &theirs {
            if k2 != k {
                continue;
            }
            let differs = state_differs(s, o);
            conj = conj.and(o.pc.clone().negate().or(differs));
        }
        disjuncts.push(conj);
    }
    let condition = disjuncts.into_iter().fold(Cond::False, Cond::or);
    if condition.size() > 200_000 {
        return StateRequirement::Unknown("the condition is too large".into());
    }
    let mut smt = Smt::new(Budget {
        query: limits.budget,
        total: limits.budget,
        cutoff: None,
    });
    let mut enc = Encoder::default();
    let formula = enc.cond(&condition);
    // Integer inputs: a witness of small values first, when there is one.
    let ints: Vec<(Arc<str>, Repr)> = function
        .params
        .iter()
        .map(|&p| (conv.name(p), conv.repr(function.locals[p].ty)))
        .filter(|(_, r)| matches!(r, Repr::Int { .. }))
        .collect();
    let small = enc.cond(&Cond::And(
        ints.iter()
            .flat_map(|(name, repr)| {
                let x = Term::Var(name.clone(), *repr);
                let low = if repr.signed() { (-100i128) as u128 } else { 0 };
                let int = Repr::Int {
                    bits: 32,
                    signed: true,
                };
                let mask = |v: u128| v & (u128::MAX >> (128 - repr.bits()));
                [
                    (BinOp::Ge, Term::Int(mask(low), *repr)),
                    (BinOp::Le, Term::Int(100, *repr)),
                ]
                .map(|(op, c)| Cond::truth(Term::Binary(op, Arc::new(x.clone()), Arc::new(c), int)))
            })
            .collect(),
    ));
    let mut answer = smt.check_model(&[formula.clone(), small]);
    if answer.0 != Answer::Sat {
        answer = smt.check_model(&[formula]);
    }
    match answer {
        (Answer::Sat, model) => {
            let mut witness = Vec::new();
            for (name, repr) in &ints {
                let bv = enc.term(&Term::Var(name.clone(), *repr));
                if let Some(v) = model.as_ref().and_then(|m| model_bits(m, &bv)) {
                    witness.push((name.to_string(), int_text(v, *repr)));
                }
            }
            StateRequirement::Feasible { condition, witness }
        }
        (Answer::Unsat, _) if !cut => verdict(StateRequirement::Infeasible),
        (Answer::Unsat, _) => StateRequirement::Unknown(format!(
            "no input within paths of {} statements",
            limits.path_length
        )),
        (Answer::Unknown, _) => StateRequirement::Unknown("solver budget spent".into()),
    }
}

impl PathState {
    /// The state with the addresses of `renames` replaced.
    fn renamed(self, renames: &FxHashMap<Arc<str>, Term>) -> PathState {
        if renames.is_empty() {
            return self;
        }
        let mut rename = |t: &Term| match t {
            Term::Addr(name) => renames.get(name).cloned(),
            _ => None,
        };
        PathState {
            pc: self.pc.map(&mut rename),
            values: self
                .values
                .into_iter()
                .map(|(n, t)| (n, t.map(&mut rename)))
                .collect(),
            decision: self.decision.map(|d| d.map(&mut rename)),
            stores: self
                .stores
                .into_iter()
                .map(|(a, v, w)| (a.map(&mut rename), v.map(&mut rename), w))
                .collect(),
            opaque: self.opaque,
        }
    }
}

/// The addresses of `other`'s objects and functions under `version`'s names where they
/// start out alike in both runs of one input: a global paired with one of `version`
/// (by key, or a file-scoped one by its name in its unit when the files are named
/// differently) whose type and initial value are the same, and a function whose name
/// is that of exactly one function in each. A global whose initial value (or type)
/// differs, or that `version` does not have, is renamed apart: its contents are not
/// `version`'s.
fn address_renames(version: &Program, other: &Program) -> FxHashMap<Arc<str>, Term> {
    let mut out = FxHashMap::default();
    for m in ripple_versions::match_all_globals(other, version) {
        let Some(theirs) = m.old else { continue };
        let key = other.globals[theirs].key.as_str();
        let to = match (m.new, m.status) {
            (Some(mine), ripple_versions::GlobalStatus::Unchanged) => {
                version.globals[mine].key.clone()
            }
            _ => format!("{key} (other version)"),
        };
        if to != key {
            out.insert(Arc::from(key), Term::Addr(Arc::from(to)));
        }
    }
    let mut by_name: FxHashMap<&str, [Option<Option<&str>>; 2]> = FxHashMap::default();
    for (side, program) in [version, other].into_iter().enumerate() {
        for f in program.functions.iter() {
            let slot = &mut by_name.entry(f.name.as_str()).or_default()[side];
            *slot = match slot {
                None => Some(Some(f.key.as_str())),
                Some(_) => Some(None),
            };
        }
    }
    for [mine, theirs] in by_name.into_values() {
        if let (Some(Some(to)), Some(Some(key))) = (mine, theirs) {
            if to != key {
                out.insert(
                    Arc::from(format!("fn:{key}")),
                    Term::Addr(Arc::from(format!("fn:{to}"))),
                );
            }
        }
    }
    out
}

/// Whether some live value (or the decision) of `a` differs from `b`'s.
fn state_differs(a: &PathState, b: &PathState) -> Cond {
    // From the same memory (the same input), the same stores in the same order leave
    // the same memory; otherwise it is taken to differ.
    if a.opaque
        || b.opaque
        || a.stores.len() != b.stores.len()
        || a.stores.iter().zip(&b.stores).any(|(x, y)| x.2 != y.2)
    {
        return Cond::True;
    }
    let mut parts = Vec::new();
    for ((addr, value, _), (addr2, value2, _)) in a.stores.iter().zip(&b.stores) {
        for (x, y) in [(addr, addr2), (value, value2)] {
            if x.repr().bits() != y.repr().bits() {
                return Cond::True;
            }
            if x != y {
                parts.push(Cond::Eq(x.clone(), y.clone()).negate());
            }
        }
    }
    let mut names: Vec<&Arc<str>> = a.values.keys().chain(b.values.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        match (a.values.get(name), b.values.get(name)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) if x.repr().bits() == y.repr().bits() => {
                parts.push(Cond::Eq(x.clone(), y.clone()).negate());
            }
            _ => return Cond::True,
        }
    }
    match (&a.decision, &b.decision) {
        (Some(x), Some(y)) if x == y => {}
        (Some(x), Some(y)) => {
            parts.push(x.clone().and(y.clone().negate()));
            parts.push(x.clone().negate().and(y.clone()));
        }
        (None, None) => {}
        _ => return Cond::True,
    }
    parts.into_iter().fold(Cond::False, Cond::or)
}

/// Depth-first enumeration of the paths from the entry of at most `l` statements; calls
/// `visit` on every prefix. `None` past `max_paths`; else whether some path was cut at
/// the length limit.
fn explore(
    function: &Function,
    limits: StateLimits,
    visit: &mut dyn FnMut(&[NodeId]),
) -> Option<bool> {
    let mut path = vec![function.entry];
    let mut cut = false;
    let mut prefixes = 0usize;
    fn go(
        function: &Function,
        limits: StateLimits,
        path: &mut Vec<NodeId>,
        cut: &mut bool,
        prefixes: &mut usize,
        visit: &mut dyn FnMut(&[NodeId]),
    ) -> bool {
        *prefixes += 1;
        if *prefixes > limits.max_paths * limits.path_length * 4 {
            return false;
        }
        visit(path);
        let last = *path.last().unwrap_or(&function.entry);
        let succs = &function.nodes[last].succs;
        if succs.is_empty() {
            return true;
        }
        if path.len() >= limits.path_length {
            *cut = true;
            return true;
        }
        for &s in succs {
            path.push(s);
            let ok = go(function, limits, path, cut, prefixes, visit);
            path.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    go(function, limits, &mut path, &mut cut, &mut prefixes, visit).then_some(cut)
}

/// Whether the path, which ends at the chain's last statement, exercises the chain's
/// dependences in order ending there (dynamic dependences along the path as the monitor
/// defines them; a load depends on every earlier write of memory). A node no statement
/// comes from (an inlined call's parameter assignment) is passed through: what reads
/// its value depends on what it read; so, as well, is an inlined call's result.
fn covers(inlined: &Inlined, cd: &ControlDependence, path: &[NodeId], chain: &Chain) -> bool {
    let function = &inlined.function;
    let through = |n: NodeId| inlined.origin[n.index()].is_none();
    let result = |n: NodeId| inlined.results.contains(&n);
    // Sources of each position: (position, kind).
    let mut last_def: FxHashMap<VarId, usize> = FxHashMap::default();
    let mut writes: Vec<usize> = Vec::new();
    let mut last_at: FxHashMap<NodeId, usize> = FxHashMap::default();
    let mut sources: Vec<Vec<(usize, DepKind)>> = Vec::with_capacity(path.len());
    for (i, &n) in path.iter().enumerate() {
        let node = &function.nodes[n];
        let mut src = Vec::new();
        let mut regs = Vec::new();
        for e in node.exprs() {
            e.locals_read(&mut regs);
        }
        let loads = may_read_memory(node);
        let data = |p: usize, src: &mut Vec<(usize, DepKind)>| {
            if through(path[p]) || result(path[p]) {
                let forwarded: Vec<(usize, DepKind)> = sources[p]
                    .iter()
                    .filter(|(_, kind)| *kind == DepKind::Data)
                    .copied()
                    .collect();
                src.extend(forwarded);
            }
            if !through(path[p]) {
                src.push((p, DepKind::Data));
            }
        };
        for r in regs {
            if let Some(&p) = last_def.get(&r) {
                data(p, &mut src);
            }
        }
        if loads {
            for &p in &writes {
                data(p, &mut src);
            }
        }
        // The control source: the last branch of the same inlined body that `n` depends
        // on, else the call of that body.
        let frame = inlined.frame[n.index()];
        let branch = cd
            .of(n)
            .iter()
            .filter(|b| inlined.frame[b.index()] == frame)
            .filter_map(|b| last_at.get(b))
            .max()
            .copied();
        let call = (frame > 0)
            .then(|| last_at.get(&inlined.calls[frame]).copied())
            .flatten();
        if let Some(p) = branch.or(call) {
            src.push((p, DepKind::Control));
        }
        sources.push(src);
        if let Some(v) = register_defined(function, n) {
            last_def.insert(v, i);
        }
        if may_write_memory(node) {
            writes.push(i);
        }
        last_at.insert(n, i);
    }
    // Backwards from the last position along the chain's dependences.
    let mut at: FxHashSet<usize> = FxHashSet::from_iter([path.len() - 1]);
    for dep in chain.deps.iter().rev() {
        let mut prev = FxHashSet::default();
        for &p in &at {
            for &(q, kind) in &sources[p] {
                if kind == dep.kind && inlined.is(path[q], dep.from) {
                    prev.insert(q);
                }
            }
        }
        if prev.is_empty() {
            return false;
        }
        at = prev;
    }
    at.iter().any(|&p| inlined.is(path[p], chain.root))
}

/// The registers read after `node` before being written again (by some path).
fn live_after(function: &Function, node: NodeId) -> Vec<VarId> {
    let n = function.nodes.len();
    let mut live_in: Vec<FxHashSet<VarId>> = vec![FxHashSet::default(); n];
    let uses: Vec<Vec<VarId>> = function
        .nodes
        .iter()
        .map(|nd| {
            let mut r = Vec::new();
            for e in nd.exprs() {
                e.locals_read(&mut r);
            }
            if matches!(nd.kind, NodeKind::Exit) {
                r.extend(function.ret_var);
            }
            r
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (id, nd) in function.nodes.iter_enumerated().rev() {
            let mut set: FxHashSet<VarId> = FxHashSet::default();
            for &s in &nd.succs {
                set.extend(&live_in[s.index()]);
            }
            if let Some(d) = register_defined(function, id) {
                set.remove(&d);
            }
            set.extend(&uses[id.index()]);
            if set.len() != live_in[id.index()].len() {
                live_in[id.index()] = set;
                changed = true;
            }
        }
    }
    let mut out: FxHashSet<VarId> = FxHashSet::default();
    for &s in &function.nodes[node].succs {
        out.extend(&live_in[s.index()]);
    }
    let mut out: Vec<VarId> = out.into_iter().collect();
    out.sort_unstable();
    out
}

/// The path condition and the values of the registers live after the end of `path`.
fn state_at_end(
    conv: &Converter<'_>,
    function: &Function,
    path: &[NodeId],
    pure: &FxHashSet<String>,
    fresh: &mut usize,
    own: bool,
) -> PathState {
    let live = live_after(function, path[path.len() - 1]);
    path_state(conv, function, path, &live, pure, fresh, own)
}

/// Values larger than this (in subterms) become unknown, so that terms stay small as
/// they travel back through stores (an if-then-else per store that may alias).
const VALUE_LIMIT: usize = 400;

/// A path condition larger than this is given up (see [`path_state`]).
const CONDITION_LIMIT: usize = 4_000;

/// The keys of the defined functions that write no memory: no store, no havoc, and calls
/// only of such functions or of the pure library (the greatest such set). A call of one
/// gives an unknown result but leaves memory as it was.
fn writes_nothing(program: &Program) -> FxHashSet<String> {
    let mut pure: FxHashSet<FuncId> = program
        .functions
        .iter_enumerated()
        .filter(|(_, f)| f.is_defined())
        .map(|(id, _)| id)
        .collect();
    loop {
        let before = pure.len();
        let snapshot = pure.clone();
        pure.retain(|&f| {
            program.functions[f].nodes.iter().all(|n| match &n.kind {
                NodeKind::Assign { dst, .. } => matches!(dst, ripple_ir::Place::Local(_)),
                NodeKind::Havoc { .. } => false,
                NodeKind::Call { dst, callee, .. } => {
                    let to_register = dst
                        .as_ref()
                        .is_none_or(|d| matches!(d, ripple_ir::Place::Local(_)));
                    to_register
                        && match callee {
                            ripple_ir::Callee::Direct(g) => {
                                snapshot.contains(g)
                                    || (!program.functions[*g].is_defined()
                                        && PURE_LIBRARY
                                            .contains(&program.functions[*g].name.as_str()))
                            }
                            _ => false,
                        }
                }
                _ => true,
            })
        });
        if pure.len() == before {
            break;
        }
    }
    pure.into_iter()
        .map(|f| program.functions[f].key.clone())
        .collect()
}

/// The path condition and the values of `live` at the end of `path`, over the inputs,
/// by substitution backwards along the path. Past the size limits, what grows is
/// over-approximated: a value (or a store's address or value, or the decision) becomes
/// unknown, and a path condition is given up: `true` on a path of the chain's own
/// version (`own`: more inputs admitted), `false` on the other version's (a path no
/// input is known to take excludes none).
fn path_state(
    conv: &Converter<'_>,
    function: &Function,
    path: &[NodeId],
    live: &[VarId],
    pure: &FxHashSet<String>,
    fresh: &mut usize,
    own: bool,
) -> PathState {
    let counter = std::cell::Cell::new(*fresh);
    let symbol = |repr: Repr| {
        counter.set(counter.get() + 1);
        Term::Var(Arc::from(format!("?{}", counter.get())), repr)
    };
    let mut values: Vec<(Arc<str>, Term)> = live
        .iter()
        .map(|&v| {
            let name = conv.name(v);
            (
                name.clone(),
                Term::Var(name, conv.repr(function.locals[v].ty)),
            )
        })
        .collect();
    let last = path[path.len() - 1];
    let mut decision = match &function.nodes[last].kind {
        NodeKind::Branch { cond } => Some(Cond::truth(conv.term(cond))),
        _ => None,
    };
    let mut pc = Cond::True;
    let mut stores: Vec<(Term, Term, u32)> = Vec::new();
    let mut opaque = false;
    for i in (0..path.len()).rev() {
        let node = &function.nodes[path[i]];
        let mut printed: Vec<(Term, Term, u32)> = Vec::new();
        if i + 1 < path.len() {
            if let NodeKind::Branch { cond } = &node.kind {
                let c = Cond::truth(conv.term(cond));
                let taken = node.succs.first() == Some(&path[i + 1]);
                pc = pc.and(if taken { c } else { c.negate() });
            }
        }
        let (dst, value, forget) = match conv.stmt(&node.kind) {
            Stmt::Assign { dst, value } => (Some(dst), Some(value), false),
            Stmt::Call { dst, callee, args } => {
                let pure = match &callee {
                    Target::External(n) => PURE_LIBRARY.contains(&n.as_str()),
                    Target::Defined(key) => pure.contains(key),
                    Target::Unknown => false,
                };
                // What a call prints is state too: its arguments, compared as the
                // stores are; a pointer to memory other than a string literal (a `%s`
                // argument) prints contents this does not follow.
                if let Target::External(n) = &callee {
                    if PRINTS.contains(&n.as_str()) {
                        for a in args {
                            let literal = matches!(&a, Term::Addr(k) if k.starts_with(".str"));
                            if matches!(a.repr(), Repr::Pointer) && !literal {
                                opaque = true;
                            }
                            let width = a.repr().bytes();
                            printed.push((Term::Addr(Arc::from(format!("call:{n}"))), a, width));
                        }
                    }
                }
                (dst, None, !pure)
            }
            Stmt::Havoc { dst } => (dst, None, true),
            _ => (None, None, false),
        };
        // Rewriting copies the terms: only when they mention what the statement writes.
        let reads = values.iter().any(|(_, t)| t.reads_memory())
            || stores
                .iter()
                .any(|(a, v, _)| a.reads_memory() || v.reads_memory())
            || cond_reads_memory(&pc)
            || decision.as_ref().is_some_and(cond_reads_memory);
        let mentioned = match &dst {
            Some(Dst::Var(name, _)) => {
                let mut found = false;
                let mut look = |t: &Term| {
                    if let Term::Var(n, _) = t {
                        found |= n == name;
                    }
                };
                for (_, t) in &values {
                    t.walk(&mut look);
                }
                for (a, v, _) in &stores {
                    a.walk(&mut look);
                    v.walk(&mut look);
                }
                pc.walk(&mut look);
                if let Some(d) = &decision {
                    d.walk(&mut look);
                }
                found
            }
            _ => true,
        };
        let mut stored = None;
        let mut rewrite = |f: &dyn Fn(&Term) -> Term| {
            for (_, t) in values.iter_mut() {
                *t = f(t);
            }
            for (a, v, _) in stores.iter_mut() {
                *a = f(a);
                *v = f(v);
            }
            pc = pc.map(&mut |t| Some(f(t)));
            if let Some(d) = decision.as_mut() {
                *d = d.map(&mut |t| Some(f(t)));
            }
        };
        match dst {
            Some(Dst::Var(name, repr)) => {
                if !mentioned {
                    stores.append(&mut printed);
                    continue;
                }
                let v = value.unwrap_or_else(|| symbol(repr));
                let subst: FxHashMap<Arc<str>, Term> = FxHashMap::from_iter([(name, v)]);
                rewrite(&|t| t.substitute(&subst));
            }
            Some(Dst::Mem { addr, repr }) => {
                let v = value.unwrap_or_else(|| symbol(repr));
                if reads {
                    rewrite(&|t| t.store_over(&addr, &v, repr.bytes(), &mut |r| symbol(r)));
                }
                // Recorded after rewriting: the store's own terms are over the memory
                // before it.
                stored = Some((addr, v, repr.bytes()));
            }
            Some(Dst::Bits { .. }) => {
                opaque = true;
                rewrite(&|t| t.forget_memory(&mut |r| symbol(r)));
            }
            None => {}
        }
        if forget {
            opaque = true;
            if reads {
                rewrite(&|t| t.forget_memory(&mut |r| symbol(r)));
            }
        }
        stores.extend(stored);
        stores.append(&mut printed);
        let limit = |t: &mut Term| {
            if t.size() > VALUE_LIMIT {
                *t = symbol(t.repr());
            }
        };
        for (_, t) in values.iter_mut() {
            limit(t);
        }
        for (a, v, _) in stores.iter_mut() {
            limit(a);
            limit(v);
        }
        if decision
            .as_ref()
            .is_some_and(|d| d.size() > CONDITION_LIMIT)
        {
            let int = Repr::Int {
                bits: 32,
                signed: true,
            };
            decision = Some(Cond::truth(symbol(int)));
        }
        if pc.size() > CONDITION_LIMIT {
            pc = if own { Cond::True } else { Cond::False };
        }
    }
    *fresh = counter.get();
    PathState {
        pc,
        values: values.into_iter().collect(),
        decision,
        stores,
        opaque,
    }
}

/// Whether `f` may call itself: through direct calls, or through a call by pointer
/// anywhere on the way (which may reach any function).
fn may_recur(program: &Program, f: FuncId) -> bool {
    let mut seen: FxHashSet<FuncId> = FxHashSet::default();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        for node in program.functions[g].nodes.iter() {
            let NodeKind::Call { callee, .. } = &node.kind else {
                continue;
            };
            match callee {
                ripple_ir::Callee::Direct(h) => {
                    if *h == f {
                        return true;
                    }
                    if seen.insert(*h) {
                        stack.push(*h);
                    }
                }
                ripple_ir::Callee::Indirect(_) => return true,
                ripple_ir::Callee::Intrinsic(_) => {}
            }
        }
    }
    false
}

/// Whether a data dependence may go through memory: its source may write memory and its
/// target may read it.
fn memory_dependence(program: &Program, from: NodeRef, to: NodeRef) -> bool {
    let node = |(f, n): NodeRef| &program.functions[f].nodes[n];
    may_write_memory(node(from)) && may_read_memory(node(to))
}

/// Whether a node may write memory: a store, a call, a havoc.
fn may_write_memory(node: &ripple_ir::Node) -> bool {
    match &node.kind {
        NodeKind::Assign { dst, .. } => !matches!(dst, ripple_ir::Place::Local(_)),
        NodeKind::Call { .. } | NodeKind::Havoc { .. } => true,
        _ => false,
    }
}

/// Whether a node may read memory: a load, or a call left as a call (the C library, a
/// function not inlined) or a havoc, which may read any.
fn may_read_memory(node: &ripple_ir::Node) -> bool {
    matches!(node.kind, NodeKind::Call { .. } | NodeKind::Havoc { .. })
        || node.exprs().iter().any(|e| e.reads_memory())
}

fn cond_reads_memory(c: &Cond) -> bool {
    let mut reads = false;
    c.walk(&mut |t| reads |= t.reads_memory());
    reads
}

/// Whether `cond` holds when the named inputs take the given values; `None` when it
/// still depends on something else (memory, an unknown value).
pub fn holds_at(cond: &Cond, inputs: &FxHashMap<Arc<str>, Term>) -> Option<bool> {
    let c = cond.substitute(inputs);
    let mut enc = Encoder::default();
    enc.cond(&c).simplify().as_bool()
}
