//! The call graph: direct calls, and calls through function pointers resolved to every
//! address-taken function whose type fits the call (a sound over-approximation), or,
//! after [`CallGraph::refine_indirect`], to the targets a points-to analysis finds
//! (`ripple_dataflow::calls`), which also adds the functions library calls may call back
//! ([`CallGraph::add_callbacks`]). Calls to functions without a body are edges to
//! external nodes, marked as such.

use rustc_hash::FxHashSet;

use ripple_ir::{
    Callee, ExprKind, FuncId, InitItem, NodeId, NodeKind, Program, Type, TypeId, TypeTable,
};

/// One call site and what it may call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: FuncId,
    pub node: NodeId,
    pub target: CallTarget,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// A direct call.
    Direct(FuncId),
    /// An indirect call and its possible targets (sorted).
    Indirect(Vec<FuncId>),
    /// A direct call of a function without a body that may call functions of the
    /// program back (`qsort` and its comparator): the callee first, then the callbacks.
    WithCallbacks(Vec<FuncId>),
}

impl CallTarget {
    pub fn callees(&self) -> &[FuncId] {
        match self {
            CallTarget::Direct(f) => std::slice::from_ref(f),
            CallTarget::Indirect(targets) | CallTarget::WithCallbacks(targets) => targets,
        }
    }
}

/// Callees and callers of every function, indexed by `FuncId`.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    pub sites: Vec<CallSite>,
    /// Sorted, deduplicated callees per function.
    pub callees: Vec<Vec<FuncId>>,
    /// Sorted, deduplicated callers per function.
    pub callers: Vec<Vec<FuncId>>,
    /// Functions whose address is taken somewhere in the program.
    pub address_taken: Vec<FuncId>,
}

impl CallGraph {
    pub fn build(program: &Program) -> CallGraph {
        let address_taken = address_taken_functions(program);
        let count = program.functions.len();
        let mut graph = CallGraph {
            sites: Vec::new(),
            callees: vec![Vec::new(); count],
            callers: vec![Vec::new(); count],
            address_taken,
        };
        for (caller, function) in program.functions.iter_enumerated() {
            for (node_id, node) in function.nodes.iter_enumerated() {
                let NodeKind::Call { callee, args, .. } = &node.kind else {
                    continue;
                };
                let target = match callee {
                    Callee::Direct(f) => CallTarget::Direct(*f),
                    Callee::Indirect(expr) => {
                        CallTarget::Indirect(graph.indirect_targets(program, expr.ty, args.len()))
                    }
                    Callee::Intrinsic(_) => continue,
                };
                graph.sites.push(CallSite {
                    caller,
                    node: node_id,
                    target,
                });
            }
        }
        graph.index_sites();
        graph
    }

    /// Narrows the targets of calls through pointers to those `resolve(caller, node)`
    /// also gives: the defined functions a points-to analysis finds. Address-taken functions without a
    /// body stay targets where the types fit (an analysis of the program does not
    /// track pointers through code it does not have), and a call `resolve` has no
    /// answer for (`None`, or no target at all) keeps every type-fitting target.
    pub fn refine_indirect(
        &mut self,
        program: &Program,
        resolve: impl Fn(FuncId, NodeId) -> Option<Vec<FuncId>>,
    ) {
        for site in &mut self.sites {
            let CallTarget::Indirect(targets) = &mut site.target else {
                continue;
            };
            let Some(mut resolved) = resolve(site.caller, site.node).filter(|r| !r.is_empty())
            else {
                continue;
            };
            // Both are sound, so their intersection is; if it is empty, one of them
            // missed something (a call through a cast pointer type): keep the union.
            if resolved.iter().any(|g| targets.contains(g)) {
                resolved.retain(|g| targets.contains(g));
            }
            resolved.extend(
                targets
                    .iter()
                    .copied()
                    .filter(|&g| !program.functions[g].is_defined()),
            );
            resolved.sort_unstable();
            resolved.dedup();
            *targets = resolved;
        }
        self.index_sites();
    }

    /// Adds to direct calls of functions without a body the functions of the program
    /// `callbacks(caller, node)` says they may call back (a callback runs during the
    /// call, so it follows the caller as a callee does).
    pub fn add_callbacks(
        &mut self,
        program: &Program,
        callbacks: impl Fn(FuncId, NodeId) -> Vec<FuncId>,
    ) {
        for site in &mut self.sites {
            let CallTarget::Direct(g) = site.target else {
                continue;
            };
            if program.functions[g].is_defined() {
                continue;
            }
            let mut extra = callbacks(site.caller, site.node);
            extra.retain(|&h| h != g);
            if extra.is_empty() {
                continue;
            }
            extra.sort_unstable();
            extra.dedup();
            extra.insert(0, g);
            site.target = CallTarget::WithCallbacks(extra);
        }
        self.index_sites();
    }

    /// Callees and callers from the call sites.
    fn index_sites(&mut self) {
        for list in self.callees.iter_mut().chain(self.callers.iter_mut()) {
            list.clear();
        }
        for site in &self.sites {
            for &callee in site.target.callees() {
                self.callees[site.caller.index()].push(callee);
                self.callers[callee.index()].push(site.caller);
            }
        }
        for list in self.callees.iter_mut().chain(self.callers.iter_mut()) {
            list.sort_unstable();
            list.dedup();
        }
    }

    /// Address-taken functions a call through a pointer of type `pointer_ty` with
    /// `arg_count` arguments may reach: same return type class and compatible arity.
    fn indirect_targets(
        &self,
        program: &Program,
        pointer_ty: TypeId,
        arg_count: usize,
    ) -> Vec<FuncId> {
        let types = &program.types;
        let wanted = types.pointee(pointer_ty).unwrap_or(pointer_ty);
        self.address_taken
            .iter()
            .copied()
            .filter(|&f| compatible(types, wanted, program.functions[f].ty, arg_count))
            .collect()
    }

    /// Whether the function has no body in the program (an external).
    pub fn is_external(program: &Program, function: FuncId) -> bool {
        !program.functions[function].is_defined()
    }
}

/// Whether a call through a pointer of type `pointer_ty` may call a function of type
/// `candidate` (the test the call graph resolves such calls with).
pub fn may_target(types: &TypeTable, pointer_ty: TypeId, candidate: TypeId) -> bool {
    let wanted = types.pointee(pointer_ty).unwrap_or(pointer_ty);
    let arity = match types.get(wanted) {
        Type::Function { params, .. } => params.len(),
        _ => 0,
    };
    compatible(types, wanted, candidate, arity)
}

/// A loose compatibility test: equal arity (or a variadic/unprototyped side) and return
/// types of the same size class. Loose on purpose: a miss would be unsound.
fn compatible(types: &TypeTable, pointer_fn: TypeId, candidate: TypeId, arg_count: usize) -> bool {
    let Type::Function {
        params,
        varargs,
        prototyped,
        ..
    } = types.get(candidate)
    else {
        return false;
    };
    if let Type::Function {
        params: want_params,
        varargs: want_varargs,
        prototyped: want_prototyped,
        ..
    } = types.get(pointer_fn)
    {
        if *want_prototyped && *prototyped && !*want_varargs && !*varargs {
            return want_params.len() == params.len();
        }
    }
    *varargs || !*prototyped || params.len() == arg_count
}

/// The functions whose address the program takes (in code or in initialisers), ascending.
pub fn address_taken_functions(program: &Program) -> Vec<FuncId> {
    let mut taken = FxHashSet::default();
    let mut visit = |e: &ripple_ir::Expr| {
        if let ExprKind::AddrOfFunc(f) = e.kind {
            taken.insert(f);
        }
    };
    for function in &program.functions {
        for node in &function.nodes {
            let direct = node.direct_callee();
            for expr in node.exprs() {
                expr.walk(&mut |e| {
                    // The callee of a direct call is not address-taken by being called.
                    if !matches!(e.kind, ExprKind::AddrOfFunc(f) if Some(f) == direct) {
                        visit(e);
                    }
                });
            }
        }
    }
    for global in &program.globals {
        for item in global.init.iter().flat_map(|i| &i.items) {
            match item {
                InitItem::Value { value, .. } | InitItem::Bits { value, .. } => {
                    value.walk(&mut visit)
                }
                InitItem::Bytes { .. } => {}
            }
        }
    }
    let mut taken: Vec<FuncId> = taken.into_iter().collect();
    taken.sort_unstable();
    taken
}
