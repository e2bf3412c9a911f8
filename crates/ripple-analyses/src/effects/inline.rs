//! One function with the calls a chain goes through inlined, so that the partial symbolic
//! execution of [`super::state`] (002 section 5.2, Definition 23) follows a chain that
//! crosses functions along interprocedural paths: a path of the inlined function is a
//! realizable path of the program from the root function's entry, each call entering the
//! callee's body and returning to the statement after the call.
//!
//! A call `d = h(a, b)` of an inlined function `h` becomes a skip, one assignment per
//! parameter (`h::x = a`, a store for a parameter whose address is taken), a copy of
//! `h`'s body (its locals renamed `h::name`, its entry and exit skips), and `d = h::return`.
//! Each node keeps the statement it comes from ([`Inlined::origin`]); the skip is the
//! call, on which the body's statements outside the callee's own branches are control
//! dependent (as through the callee's entry in the dependence graph); the parameter
//! assignments come from none: the chains pass through them, as they pass through the
//! actual and formal parameters of the dependence graph. The result
//! assignment comes from the call, which a chain may reach from the callee's `return`
//! or pass through to what reads the result. Recursive calls are not inlined (a path
//! then treats the call as unknown).

use rustc_hash::FxHashSet;

use ripple_ir::{
    Callee, Expr, ExprKind, FuncId, Function, Local, Node, NodeId, NodeKind, Place, Program,
    Storage, VarId,
};

use super::changes::NodeRef;

/// Calls inlined into one another, at most.
pub const MAX_DEPTH: usize = 4;
/// Nodes an inlined function may have, at most.
const MAX_NODES: usize = 20_000;

/// A function with calls inlined.
pub struct Inlined {
    pub function: Function,
    /// The statement of the program each node comes from; `None` for the nodes a chain
    /// passes through (a call's skip, its parameter assignments).
    pub origin: Vec<Option<NodeRef>>,
    /// The nodes that assign a call's result: a chain may stop at them (the call's
    /// statement) or pass through them (from the callee's `return` to what reads the
    /// result, as through the dependence graph's actual-out).
    pub results: FxHashSet<NodeId>,
    /// The inlined call each node belongs to: 0 for the root's own nodes, `k` for the
    /// body of the k-th call inlined, whose call (now a skip) is `calls[k]`.
    pub frame: Vec<usize>,
    pub calls: Vec<NodeId>,
}

impl Inlined {
    /// Whether node `n` comes from statement `at`.
    pub fn is(&self, n: NodeId, at: NodeRef) -> bool {
        self.origin[n.index()] == Some(at)
    }
}

/// `root` with every direct call of a function of `targets` inlined (transitively, up to
/// [`MAX_DEPTH`], recursion excluded); `None` past [`MAX_NODES`].
pub fn inline(program: &Program, root: FuncId, targets: &FxHashSet<FuncId>) -> Option<Inlined> {
    let base = &program.functions[root];
    let mut out = Inlined {
        function: base.clone(),
        origin: base.nodes.ids().map(|n| Some((root, n))).collect(),
        results: FxHashSet::default(),
        frame: vec![0; base.nodes.len()],
        calls: vec![base.entry],
    };
    out.function.syntax = None;
    // Calls to expand: (node, the functions inlined around it).
    let mut work: Vec<(NodeId, Vec<FuncId>)> = base.nodes.ids().map(|n| (n, vec![root])).collect();
    while let Some((c, stack)) = work.pop() {
        let NodeKind::Call {
            dst,
            callee: Callee::Direct(h),
            args,
        } = out.function.nodes[c].kind.clone()
        else {
            continue;
        };
        let callee = &program.functions[h];
        if !targets.contains(&h)
            || !callee.is_defined()
            || stack.contains(&h)
            || stack.len() > MAX_DEPTH
        {
            continue;
        }
        if out.function.nodes.len() + callee.nodes.len() + callee.params.len() + 2 > MAX_NODES {
            return None;
        }
        let span = out.function.nodes[c].span;
        let after = out.function.nodes[c].succs.clone();
        let call_origin = out.origin[c.index()];
        let caller_frame = out.frame[c.index()];
        let frame = out.calls.len();
        out.calls.push(c);
        // The callee's locals, renamed.
        let vars: Vec<VarId> = callee
            .locals
            .iter()
            .map(|l| {
                out.function.locals.push(Local {
                    name: if l.name.is_empty() {
                        String::new()
                    } else {
                        format!("{}::{}", callee.name, l.name)
                    },
                    ..l.clone()
                })
            })
            .collect();
        let var = |v: VarId| vars[v.index()];
        // The callee's nodes, after the ones there are.
        let offset = out.function.nodes.len();
        let node = |n: NodeId| NodeId::from(offset + n.index());
        let mut stack = stack.clone();
        stack.push(h);
        for (n, original) in callee.nodes.iter_enumerated() {
            let kind = match &original.kind {
                NodeKind::Entry | NodeKind::Exit => NodeKind::Skip,
                other => rename_kind(other, &var),
            };
            let succs = if n == callee.exit {
                Vec::new() // set below
            } else {
                original.succs.iter().map(|&s| node(s)).collect()
            };
            let id = out.function.nodes.push(Node {
                kind,
                succs,
                span: original.span,
                syn: None,
            });
            out.origin.push(Some((h, n)));
            out.frame.push(frame);
            work.push((id, stack.clone()));
        }
        // The result, then what followed the call.
        let exit = node(callee.exit);
        let resume = match (dst, callee.ret_var) {
            (Some(dst), Some(ret)) => {
                let ty = callee.locals[ret].ty;
                let id = out.function.nodes.push(Node {
                    kind: NodeKind::Assign {
                        dst,
                        value: Expr::local(var(ret), ty),
                    },
                    succs: after,
                    span,
                    syn: None,
                });
                out.origin.push(call_origin);
                out.frame.push(caller_frame);
                out.results.insert(id);
                vec![id]
            }
            _ => after,
        };
        out.function.nodes[exit].succs = resume;
        // The parameters, then the body; the call itself becomes a skip.
        let mut next = node(callee.entry);
        for (&p, arg) in callee.params.iter().zip(&args).rev() {
            let local = &callee.locals[p];
            let dst = match local.storage {
                Storage::Memory => Place::Mem {
                    addr: Expr::new(ExprKind::AddrOfLocal(var(p)), local.ty),
                    ty: local.ty,
                },
                _ => Place::Local(var(p)),
            };
            next = out.function.nodes.push(Node {
                kind: NodeKind::Assign {
                    dst,
                    value: arg.clone(),
                },
                succs: vec![next],
                span,
                syn: None,
            });
            out.origin.push(None);
            out.frame.push(frame);
        }
        // The call stays the statement it was (what its callee's statements are control
        // dependent on).
        out.function.nodes[c] = Node {
            kind: NodeKind::Skip,
            succs: vec![next],
            span,
            syn: None,
        };
    }
    Some(out)
}

fn rename_kind(kind: &NodeKind, var: &dyn Fn(VarId) -> VarId) -> NodeKind {
    let expr = |e: &Expr| rename(e, var);
    let place = |p: &Place| match p {
        Place::Local(v) => Place::Local(var(*v)),
        Place::Mem { addr, ty } => Place::Mem {
            addr: expr(addr),
            ty: *ty,
        },
        Place::Bits {
            addr,
            unit,
            bit_offset,
            width,
        } => Place::Bits {
            addr: expr(addr),
            unit: *unit,
            bit_offset: *bit_offset,
            width: *width,
        },
    };
    match kind {
        NodeKind::Entry => NodeKind::Entry,
        NodeKind::Exit => NodeKind::Exit,
        NodeKind::Skip => NodeKind::Skip,
        NodeKind::Assign { dst, value } => NodeKind::Assign {
            dst: place(dst),
            value: expr(value),
        },
        NodeKind::Branch { cond } => NodeKind::Branch { cond: expr(cond) },
        NodeKind::Call { dst, callee, args } => NodeKind::Call {
            dst: dst.as_ref().map(place),
            callee: match callee {
                Callee::Indirect(e) => Callee::Indirect(expr(e)),
                other => other.clone(),
            },
            args: args.iter().map(expr).collect(),
        },
        NodeKind::Havoc { dst, reason } => NodeKind::Havoc {
            dst: dst.as_ref().map(place),
            reason: reason.clone(),
        },
    }
}

/// `e` with its locals renamed.
fn rename(e: &Expr, var: &dyn Fn(VarId) -> VarId) -> Expr {
    let boxed = |inner: &Expr| Box::new(rename(inner, var));
    let kind = match &e.kind {
        ExprKind::Local(v) => ExprKind::Local(var(*v)),
        ExprKind::AddrOfLocal(v) => ExprKind::AddrOfLocal(var(*v)),
        ExprKind::Load(a) => ExprKind::Load(boxed(a)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, boxed(a)),
        ExprKind::Cast(a) => ExprKind::Cast(boxed(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, boxed(a), boxed(b)),
        ExprKind::LoadBits {
            addr,
            unit,
            bit_offset,
            width,
        } => ExprKind::LoadBits {
            addr: boxed(addr),
            unit: *unit,
            bit_offset: *bit_offset,
            width: *width,
        },
        other => other.clone(),
    };
    Expr::new(kind, e.ty)
}

/// Where the paths of a chain start: the root function, and the functions to inline
/// into it (every function of the chain but the root, and those the root reaches them
/// through).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRoot {
    pub root: FuncId,
    pub targets: FxHashSet<FuncId>,
    /// Whether the root is one of the chain's functions; else it is a caller of theirs
    /// (the chain crosses functions none of which calls the others).
    pub in_chain: bool,
}

/// The function of a chain's statements from which every other one is reached by direct
/// calls among them (the first by id when several are); else the function that reaches
/// all of them by direct calls within [`MAX_DEPTH`] through the fewest functions (the
/// first by id among equals), if there is one.
pub fn chain_root(program: &Program, functions: &FxHashSet<FuncId>) -> Option<ChainRoot> {
    let mut sorted: Vec<FuncId> = functions.iter().copied().collect();
    sorted.sort_unstable();
    let within = |r: FuncId, allowed: &dyn Fn(FuncId) -> bool| -> FxHashSet<FuncId> {
        let mut seen: FxHashSet<FuncId> = FxHashSet::from_iter([r]);
        let mut stack = vec![r];
        while let Some(f) = stack.pop() {
            for node in &program.functions[f].nodes {
                if let Some(g) = node.direct_callee() {
                    if allowed(g) && seen.insert(g) {
                        stack.push(g);
                    }
                }
            }
        }
        seen
    };
    if let Some(&root) = sorted
        .iter()
        .find(|&&r| within(r, &|g| functions.contains(&g)).len() == functions.len())
    {
        let mut targets = functions.clone();
        targets.remove(&root);
        return Some(ChainRoot {
            root,
            targets,
            in_chain: true,
        });
    }
    // Callers of each function, and the depth (in calls) at which each function reaches
    // a function of the chain.
    let mut callers: Vec<Vec<FuncId>> = vec![Vec::new(); program.functions.len()];
    for (f, function) in program.functions.iter_enumerated() {
        for node in &function.nodes {
            if let Some(g) = node.direct_callee() {
                if !callers[g.index()].contains(&f) {
                    callers[g.index()].push(f);
                }
            }
        }
    }
    // Per function of the chain, the functions that reach it within the depth.
    let reaching: Vec<rustc_hash::FxHashMap<FuncId, usize>> = sorted
        .iter()
        .map(|&target| {
            let mut depth = rustc_hash::FxHashMap::from_iter([(target, 0usize)]);
            let mut frontier = vec![target];
            for d in 1..=MAX_DEPTH {
                let mut next = Vec::new();
                for f in frontier {
                    for &c in &callers[f.index()] {
                        if let std::collections::hash_map::Entry::Vacant(e) = depth.entry(c) {
                            e.insert(d);
                            next.push(c);
                        }
                    }
                }
                frontier = next;
            }
            depth
        })
        .collect();
    let mut candidates: Vec<FuncId> = reaching[0]
        .keys()
        .copied()
        .filter(|r| reaching.iter().all(|m| m.contains_key(r)))
        .collect();
    candidates.sort_unstable();
    candidates
        .into_iter()
        .map(|root| {
            // The functions on the way from the root to the chain's: those the root
            // reaches that reach a function of the chain.
            let on_the_way = |g: FuncId| reaching.iter().any(|m| m.contains_key(&g));
            let mut targets = within(root, &on_the_way);
            targets.remove(&root);
            ChainRoot {
                root,
                targets,
                in_chain: false,
            }
        })
        .filter(|c| functions.iter().all(|f| c.targets.contains(f)))
        .min_by_key(|c| c.targets.len())
}
