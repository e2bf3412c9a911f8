//! Allocation wrappers and heap cloning: functions that return memory they (or the
//! wrappers they call) allocate in the same activation - `xmalloc`, `sqlite3Malloc`,
//! `luaM_malloc_`, `luaC_newobj` - have their allocations named per call site, so
//! structures allocated through one wrapper stay apart (heap cloning one level per
//! wrapper, as in the allocation-site abstraction of Nystrom, Kim and Hwu, "Importance
//! of Heap Specialization in Pointer Analysis", PASTE 2004).
//!
//! A function is a wrapper when its result, followed through registers only (never
//! memory), comes from allocation calls of the activation (`malloc`, `realloc`, a call
//! of a wrapper, a call through a pointer whose every type-fitting target returning a
//! pointer is a wrapper), from its parameters (a `realloc`-like wrapper may return the
//! block it was given), or is a null or integer constant. Wrappers are the greatest
//! fixpoint of that rule, so mutually recursive wrappers qualify.
//!
//! The block a wrapper returns at a call site `c` of a non-wrapper caller is the object
//! `Heap(caller, c)`; a call inside a wrapper whose result it returns is named by that
//! wrapper's own call sites, transitively. Inside the wrapper, the allocation points to
//! the objects of every call site of the wrapper (plus one object for calls the
//! analysis cannot see: through pointers it did not pre-resolve, or from outside), so
//! whatever the wrapper writes into the block, or stores the block into, reaches every
//! clone: sound, since the block of any one activation is one of them. What reaches a
//! caller is only its own clone and the blocks of the parameters it passed.
//!
//! The contents a `realloc` copies from the old block are copied at the outermost call
//! site where the old block is known (the wrapper's caller passing it), not inside the
//! wrapper, where it would flow into every clone.

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_graph::{CallGraph, CallTarget};
use ripple_ir::{
    BinOp, Callee, Expr, ExprKind, FuncId, NodeId, NodeKind, Place, Program, Storage, TypeTable,
    UnOp, VarId,
};

use super::Object;
use crate::libc::{external_model, Returns};

/// Where in an allocated block a pointer points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Offset {
    /// No block yet.
    #[default]
    None,
    /// This many bytes from its start.
    Exact(i64),
    /// As many bytes as the function's parameter (by position) says.
    Param(usize),
    Unknown,
}

impl Offset {
    fn join(self, other: Offset) -> Offset {
        match (self, other) {
            (Offset::None, x) | (x, Offset::None) => x,
            (a, b) if a == b => a,
            _ => Offset::Unknown,
        }
    }

    fn add(self, by: Offset) -> Offset {
        match (self, by) {
            (Offset::None, _) => Offset::None,
            (Offset::Exact(a), Offset::Exact(b)) => Offset::Exact(a.wrapping_add(b)),
            (Offset::Exact(0), Offset::Param(k)) => Offset::Param(k),
            (Offset::Param(k), Offset::Exact(0)) => Offset::Param(k),
            _ => Offset::Unknown,
        }
    }

    /// The offset at a call, where parameter `k` is the call's argument `k`.
    fn at_call(
        self,
        args: &[Expr],
        types: &TypeTable,
        param_of: impl Fn(&Expr) -> Option<usize>,
    ) -> Offset {
        match self {
            Offset::Param(k) => args.get(k).map_or(Offset::Unknown, |a| {
                if let Some(c) = constant(a, types) {
                    Offset::Exact(c)
                } else if let Some(j) = param_of(a) {
                    Offset::Param(j)
                } else {
                    Offset::Unknown
                }
            }),
            other => other,
        }
    }

    /// The byte offset of a cell, when known and inside a block.
    pub fn cell(self) -> Option<u64> {
        match self {
            Offset::Exact(c) if c >= 0 => Some(c as u64),
            _ => None,
        }
    }
}

/// An integer constant (sign-extended from its type's width), through casts.
fn constant(e: &Expr, types: &TypeTable) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(bits) => {
            let width = types.bits(e.ty);
            if width == 0 || width > 64 {
                return None;
            }
            let shift = 64 - width;
            Some(((*bits as u64) << shift) as i64 >> shift)
        }
        ExprKind::Cast(inner) => constant(inner, types),
        _ => None,
    }
}

/// What the origins of a function's expressions are read with.
struct Frame<'a> {
    types: &'a TypeTable,
    /// By register: the parameter (by position) it holds throughout, for parameters
    /// never assigned.
    params: Vec<Option<usize>>,
}

/// What a register may hold, as far as allocation is concerned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Origins {
    /// Call nodes of the function allocating (or returning from a wrapper) the block.
    sites: BTreeSet<NodeId>,
    /// Where in those blocks.
    offset: Offset,
    /// Parameters (by position) whose value may be held.
    params: BTreeSet<usize>,
    /// Whether pointer arithmetic may have moved the parameters' values.
    params_shifted: bool,
    /// Anything else: a load, an address, an unknown call.
    other: bool,
}

impl Origins {
    fn join(&mut self, other: &Origins) -> bool {
        let before = self.clone();
        self.sites.extend(other.sites.iter().copied());
        self.offset = self.offset.join(other.offset);
        self.params.extend(other.params.iter().copied());
        self.params_shifted |= other.params_shifted;
        self.other |= other.other;
        *self != before
    }

    /// After arithmetic by `by` (an offset in bytes, or unknown).
    fn shifted(mut self, by: Offset) -> Origins {
        self.offset = self.offset.add(by);
        if !self.params.is_empty() && by != Offset::Exact(0) {
            self.params_shifted = true;
        }
        self
    }

    fn other() -> Origins {
        Origins {
            other: true,
            ..Origins::default()
        }
    }
}

/// One allocation wrapper.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Wrapper {
    /// Calls of the wrapper whose result it may return.
    pub returned_sites: BTreeSet<NodeId>,
    /// Parameters whose block it may return (`realloc`-like).
    pub params: BTreeSet<usize>,
    /// Where in the block its result points.
    pub offset: Offset,
    /// Whether its result may point elsewhere in a parameter's block than the
    /// parameter.
    pub params_shifted: bool,
}

/// How a call returns an allocation: the wrappers it reaches, and the arguments whose
/// blocks it may return.
#[derive(Clone, Debug)]
pub(super) struct WrapperCall {
    /// The wrappers the call may reach (one for a direct call; the pre-resolved
    /// targets of a call through a pointer).
    pub targets: Vec<FuncId>,
    pub params: BTreeSet<usize>,
    /// Where in its clone the result points (`None`: unknown).
    pub offset: Option<u64>,
    pub params_shifted: bool,
}

/// The allocation wrappers of a program and the objects their blocks are named by.
#[derive(Debug, Default)]
pub(super) struct Wrappers {
    pub wrappers: FxHashMap<FuncId, Wrapper>,
    /// Calls through pointers all of whose pointer-returning targets are wrappers.
    indirect: FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
    /// The objects a wrapper's allocations may be, sorted.
    objects: FxHashMap<FuncId, Vec<Object>>,
    /// Returned `realloc`-like calls inside wrappers whose old block is one of the
    /// wrapper's parameters: the contents are copied at the wrapper's callers.
    deferred: FxHashSet<(FuncId, NodeId)>,
}

impl Wrappers {
    pub fn find(program: &Program, graph: &CallGraph) -> Wrappers {
        let types = &program.types;
        let fitting: FxHashMap<(FuncId, NodeId), Vec<FuncId>> = graph
            .sites
            .iter()
            .filter_map(|site| match &site.target {
                CallTarget::Indirect(targets) => Some((
                    (site.caller, site.node),
                    targets
                        .iter()
                        .copied()
                        .filter(|&g| {
                            let ret = program.functions[g]
                                .ret_var
                                .map(|r| program.functions[g].locals[r].ty);
                            ret.is_some_and(|t| types.is_pointer(t))
                        })
                        .collect::<Vec<_>>(),
                )),
                _ => None,
            })
            .filter(|(_, targets)| !targets.is_empty())
            .collect();
        // Greatest fixpoint: start from every defined function returning a register.
        let mut candidates: FxHashMap<FuncId, Wrapper> = program
            .functions
            .iter_enumerated()
            .filter(|(_, f)| {
                f.is_defined()
                    && f.ret_var
                        .is_some_and(|r| f.locals[r].storage == Storage::Register)
            })
            .map(|(g, _)| (g, Wrapper::default()))
            .collect();
        let mut origins_of: FxHashMap<FuncId, Vec<Origins>> = FxHashMap::default();
        let indirect = loop {
            let indirect: FxHashMap<(FuncId, NodeId), Vec<FuncId>> = fitting
                .iter()
                .filter(|(_, targets)| targets.iter().all(|g| candidates.contains_key(g)))
                .map(|(&site, targets)| (site, targets.clone()))
                .collect();
            let mut next: FxHashMap<FuncId, Wrapper> = FxHashMap::default();
            origins_of.clear();
            let mut ids: Vec<FuncId> = candidates.keys().copied().collect();
            ids.sort_unstable();
            for g in ids {
                let origins = register_origins(program, g, &candidates, &indirect);
                let function = &program.functions[g];
                let ret = &origins[function.ret_var.expect("a candidate returns").index()];
                if !ret.other && !ret.sites.is_empty() {
                    next.insert(
                        g,
                        Wrapper {
                            returned_sites: ret.sites.clone(),
                            params: ret.params.clone(),
                            offset: ret.offset,
                            params_shifted: ret.params_shifted,
                        },
                    );
                    origins_of.insert(g, origins);
                }
            }
            if next == candidates {
                break indirect;
            }
            candidates = next;
        };
        let mut wrappers = Wrappers {
            wrappers: candidates,
            indirect,
            ..Wrappers::default()
        };
        wrappers.name_objects(program, graph);
        // Deferred copies: a returned realloc-like call whose old blocks are parameters.
        let mut deferred = FxHashSet::default();
        for (&g, wrapper) in &wrappers.wrappers {
            let function = &program.functions[g];
            let origins = &origins_of[&g];
            for &n in &wrapper.returned_sites {
                let NodeKind::Call { args, .. } = &function.nodes[n].kind else {
                    continue;
                };
                let Some(old) = wrappers.copied_args(program, g, n) else {
                    continue;
                };
                let frame = Frame::of(program, function);
                let only_params = old.iter().all(|&j| {
                    args.get(j).is_none_or(|a| {
                        let o = expr_origins(a, origins, &frame);
                        !o.other && o.sites.is_empty()
                    })
                });
                if only_params {
                    deferred.insert((g, n));
                }
            }
        }
        wrappers.deferred = deferred;
        wrappers
    }

    /// The objects of every wrapper: the clones of its call sites, transitively through
    /// wrappers returning its result, plus its own object when it may be called from
    /// where the analysis does not see (address taken, or no caller).
    fn name_objects(&mut self, program: &Program, graph: &CallGraph) {
        let mut sites: FxHashMap<FuncId, Vec<(FuncId, NodeId)>> = FxHashMap::default();
        for (f, function) in program.functions.iter_enumerated() {
            for (n, node) in function.nodes.iter_enumerated() {
                if let Some(g) = node.direct_callee() {
                    if self.wrappers.contains_key(&g) {
                        sites.entry(g).or_default().push((f, n));
                    }
                }
            }
        }
        for (&site, targets) in &self.indirect {
            for g in targets {
                sites.entry(*g).or_default().push(site);
            }
        }
        let mut objects: FxHashMap<FuncId, BTreeSet<Object>> = FxHashMap::default();
        for (&g, wrapper) in &self.wrappers {
            let mut own = BTreeSet::new();
            if graph.address_taken.contains(&g) || !sites.contains_key(&g) {
                own.extend(wrapper.returned_sites.iter().map(|&n| Object::Heap(g, n)));
            }
            objects.insert(g, own);
        }
        let mut ids: Vec<FuncId> = self.wrappers.keys().copied().collect();
        ids.sort_unstable();
        loop {
            let mut changed = false;
            for &g in &ids {
                let mut add = BTreeSet::new();
                for &(f, n) in sites.get(&g).into_iter().flatten() {
                    if self.is_returned(f, n) {
                        add.extend(objects[&f].iter().copied());
                    } else {
                        add.insert(Object::Heap(f, n));
                    }
                }
                let set = objects.get_mut(&g).expect("every wrapper has objects");
                let before = set.len();
                set.extend(add);
                changed |= set.len() != before;
            }
            if !changed {
                break;
            }
        }
        self.objects = objects
            .into_iter()
            .map(|(g, set)| (g, set.into_iter().collect()))
            .collect();
    }

    fn is_returned(&self, f: FuncId, n: NodeId) -> bool {
        self.wrappers
            .get(&f)
            .is_some_and(|w| w.returned_sites.contains(&n))
    }

    /// The objects the block allocated (or returned by a wrapper) at call `n` of `f`
    /// may be.
    pub fn site_objects(&self, f: FuncId, n: NodeId) -> Vec<Object> {
        if self.is_returned(f, n) {
            self.objects[&f].clone()
        } else {
            vec![Object::Heap(f, n)]
        }
    }

    /// The objects a wrapper's own object stands for calls the analysis does not see
    /// (empty when every call is a cloned site), with its parameters returned.
    pub fn unseen_objects(&self, g: FuncId) -> Vec<Object> {
        let Some(wrapper) = self.wrappers.get(&g) else {
            return Vec::new();
        };
        self.objects[&g]
            .iter()
            .copied()
            .filter(|o| matches!(o, Object::Heap(h, n) if *h == g && wrapper.returned_sites.contains(n)))
            .collect()
    }

    /// Whether the contents copy of the `realloc`-like call `n` of `f` is made at the
    /// callers of `f` instead.
    pub fn is_deferred(&self, f: FuncId, n: NodeId) -> bool {
        self.deferred.contains(&(f, n))
    }

    /// How call `n` of `f` reaches allocation wrappers, if it is a cloned site.
    pub fn call(&self, program: &Program, f: FuncId, n: NodeId) -> Option<WrapperCall> {
        let function = &program.functions[f];
        let NodeKind::Call { callee, args, .. } = &function.nodes[n].kind else {
            return None;
        };
        let targets = match callee {
            Callee::Direct(g) if self.wrappers.contains_key(g) => vec![*g],
            Callee::Indirect(_) => self.indirect.get(&(f, n))?.clone(),
            _ => return None,
        };
        let mut call = WrapperCall {
            targets,
            params: BTreeSet::new(),
            offset: None,
            params_shifted: false,
        };
        let mut offset = Offset::None;
        for g in &call.targets {
            let w = &self.wrappers[g];
            call.params.extend(w.params.iter().copied());
            call.params_shifted |= w.params_shifted;
            // Inside a wrapper, an offset given by its own parameter is not one cell.
            offset = offset.join(w.offset.at_call(args, &program.types, |_| None));
        }
        call.offset = offset.cell();
        Some(call)
    }

    /// The arguments of call `n` of `f` whose blocks its result may be (`realloc`'s
    /// first, a wrapper's returned parameters); `None` when it allocates no block.
    fn copied_args(&self, program: &Program, f: FuncId, n: NodeId) -> Option<Vec<usize>> {
        let NodeKind::Call { callee, .. } = &program.functions[f].nodes[n].kind else {
            return None;
        };
        if let Callee::Direct(g) = callee {
            if !program.functions[*g].is_defined() {
                return match external_model(&program.functions[*g].name).returns {
                    Returns::Realloc => Some(vec![0]),
                    Returns::Fresh => Some(Vec::new()),
                    _ => None,
                };
            }
        }
        self.call(program, f, n)
            .map(|c| c.params.into_iter().collect())
    }
}

/// What each register of `g` may hold (flow-insensitive), with `wrappers` taken as
/// the wrappers.
fn register_origins(
    program: &Program,
    g: FuncId,
    wrappers: &FxHashMap<FuncId, Wrapper>,
    indirect: &FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
) -> Vec<Origins> {
    let function = &program.functions[g];
    let frame = Frame::of(program, function);
    let mut origins = vec![Origins::default(); function.locals.len()];
    for (k, &p) in function.params.iter().enumerate() {
        origins[p.index()].params.insert(k);
    }
    let set = |origins: &mut Vec<Origins>, v: VarId, o: &Origins| origins[v.index()].join(o);
    loop {
        let mut changed = false;
        for (n, node) in function.nodes.iter_enumerated() {
            match &node.kind {
                NodeKind::Assign {
                    dst: Place::Local(v),
                    value,
                } => {
                    let o = expr_origins(value, &origins, &frame);
                    changed |= set(&mut origins, *v, &o);
                }
                NodeKind::Havoc {
                    dst: Some(Place::Local(v)),
                    ..
                } => changed |= set(&mut origins, *v, &Origins::other()),
                NodeKind::Call {
                    dst: Some(Place::Local(v)),
                    callee,
                    args,
                } => {
                    let call = Call {
                        g,
                        n,
                        callee,
                        args,
                        frame: &frame,
                    };
                    let o = call_origins(program, &call, &origins, wrappers, indirect);
                    changed |= set(&mut origins, *v, &o);
                }
                _ => {}
            }
        }
        if !changed {
            return origins;
        }
    }
}

/// A call node of the function `g` whose origins are wanted.
struct Call<'a> {
    g: FuncId,
    n: NodeId,
    callee: &'a Callee,
    args: &'a [Expr],
    frame: &'a Frame<'a>,
}

fn call_origins(
    program: &Program,
    call: &Call,
    origins: &[Origins],
    wrappers: &FxHashMap<FuncId, Wrapper>,
    indirect: &FxHashMap<(FuncId, NodeId), Vec<FuncId>>,
) -> Origins {
    let fresh = |targets: &[&Wrapper]| {
        let mut o = Origins::default();
        o.sites.insert(call.n);
        o.offset = Offset::Exact(0);
        if !targets.is_empty() {
            o.offset = Offset::None;
        }
        for w in targets {
            let offset = w.offset.at_call(call.args, call.frame.types, |a| {
                param_value(a, &call.frame.params)
            });
            o.offset = o.offset.join(offset);
            for &k in &w.params {
                if let Some(a) = call.args.get(k) {
                    o.join(&expr_origins(a, origins, call.frame));
                }
            }
            o.params_shifted |= w.params_shifted;
        }
        o
    };
    match call.callee {
        Callee::Direct(h) if program.functions[*h].is_defined() => match wrappers.get(h) {
            Some(w) => fresh(&[w]),
            None => Origins::other(),
        },
        Callee::Direct(h) => match external_model(&program.functions[*h].name).returns {
            Returns::Fresh => fresh(&[]),
            Returns::Realloc => {
                let mut o = fresh(&[]);
                if let Some(a) = call.args.first() {
                    o.join(&expr_origins(a, origins, call.frame));
                }
                o
            }
            Returns::NoPointer => Origins::default(),
            Returns::ArgsOrExternal => Origins::other(),
        },
        Callee::Indirect(_) => match indirect.get(&(call.g, call.n)) {
            Some(targets) => {
                let targets: Vec<&Wrapper> = targets.iter().map(|t| &wrappers[t]).collect();
                fresh(&targets)
            }
            None => Origins::other(),
        },
        // Only `alloca` and `va_arg` return pointers: stack memory or anything.
        Callee::Intrinsic(_) => Origins::other(),
    }
}

impl<'a> Frame<'a> {
    fn of(program: &'a Program, function: &ripple_ir::Function) -> Frame<'a> {
        Frame {
            types: &program.types,
            params: param_values(function),
        }
    }
}

fn param_values(function: &ripple_ir::Function) -> Vec<Option<usize>> {
    let mut values = vec![None; function.locals.len()];
    for (k, &p) in function.params.iter().enumerate() {
        if function.locals[p].storage == Storage::Register {
            values[p.index()] = Some(k);
        }
    }
    for node in &function.nodes {
        if let NodeKind::Assign {
            dst: Place::Local(v),
            ..
        }
        | NodeKind::Call {
            dst: Some(Place::Local(v)),
            ..
        }
        | NodeKind::Havoc {
            dst: Some(Place::Local(v)),
            ..
        } = &node.kind
        {
            values[v.index()] = None;
        }
    }
    values
}

/// The parameter an expression always equals, through casts.
fn param_value(e: &Expr, params: &[Option<usize>]) -> Option<usize> {
    match &e.kind {
        ExprKind::Local(v) => params[v.index()],
        ExprKind::Cast(inner) => param_value(inner, params),
        _ => None,
    }
}

/// What an expression may hold, mirroring the constraints the points-to analysis
/// generates for it (arithmetic keeps its operands' targets at an unknown offset).
fn expr_origins(e: &Expr, origins: &[Origins], frame: &Frame) -> Origins {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::LoadBits { .. } => Origins::default(),
        ExprKind::Local(v) => origins[v.index()].clone(),
        ExprKind::AddrOfLocal(_)
        | ExprKind::AddrOfGlobal(_)
        | ExprKind::AddrOfFunc(_)
        | ExprKind::Load(_) => Origins::other(),
        ExprKind::Unary(UnOp::LogicalNot, _) => Origins::default(),
        ExprKind::Unary(_, inner) => expr_origins(inner, origins, frame).shifted(Offset::Unknown),
        ExprKind::Cast(inner) => expr_origins(inner, origins, frame),
        ExprKind::Binary(op, l, r) => {
            if op.is_comparison() || *op == BinOp::PtrDiff {
                return Origins::default();
            }
            if *op == BinOp::PtrAdd {
                let by = if let Some(c) = constant(r, frame.types) {
                    Offset::Exact(c)
                } else if let Some(k) = param_value(r, &frame.params) {
                    Offset::Param(k)
                } else {
                    Offset::Unknown
                };
                let mut o = expr_origins(l, origins, frame).shifted(by);
                o.join(&expr_origins(r, origins, frame).shifted(Offset::Unknown));
                return o;
            }
            let mut o = expr_origins(l, origins, frame).shifted(Offset::Unknown);
            o.join(&expr_origins(r, origins, frame).shifted(Offset::Unknown));
            o
        }
    }
}
