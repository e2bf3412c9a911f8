//! Dependence chains from a change (002 Definition 22, section 3.2; COMPUTEREQS of Fig. 14
//! without the state conditions): every sequence of control and data dependences of
//! length at most `d` that starts at a node of the change, over the system dependence
//! graph of one version, realizable paths only.
//!
//! A chain links statements (IR nodes other than entries and exits); what the SDG puts
//! between two statements (actual and formal parameters, memory join points, a callee's
//! entry) is passed through, so `x = 1; f(x)` gives one data dependence from `x = 1` to
//! the statement of `f` that reads its parameter. Realizable: a chain that enters a
//! callee through a call site returns only to that call site (a chain that starts in a
//! callee may return to any caller). Dependences on whether a call stops the program
//! (`exit` in a callee) are not followed: a chain is a flow of values and decisions.
//! Enumeration stops at `max_chains` per change and says so.

use rustc_hash::FxHashSet;

use ripple_dataflow::{EdgeKind, IfaceVar, Sdg, VertexId, VertexKind};
use ripple_ir::{FuncId, NodeId, NodeKind, Place, Program};

use super::changes::NodeRef;

/// The kind of a dependence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepKind {
    Data,
    Control,
}

/// One dependence of a chain: `to` depends on `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dep {
    pub from: NodeRef,
    pub to: NodeRef,
    pub kind: DepKind,
}

/// A dependence chain `<n, (dep, ...)>` of one version.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chain {
    /// The change (by id) the chain starts from.
    pub change: usize,
    pub root: NodeRef,
    pub deps: Vec<Dep>,
}

impl Chain {
    pub fn len(&self) -> usize {
        self.deps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.deps.is_empty()
    }

    /// The statement the chain ends at.
    pub fn end(&self) -> NodeRef {
        self.deps.last().map_or(self.root, |d| d.to)
    }
}

/// Limits of the enumeration.
#[derive(Clone, Copy, Debug)]
pub struct ChainLimits {
    /// The longest chain, in dependences (002's distance `d`).
    pub distance: usize,
    /// Chains kept per change; past it the enumeration stops and says so.
    pub max_chains: usize,
}

impl Default for ChainLimits {
    fn default() -> Self {
        ChainLimits {
            distance: 3,
            max_chains: 20_000,
        }
    }
}

/// The chains of one change in one version.
#[derive(Clone, Debug, Default)]
pub struct ChangeChains {
    /// Sorted by length, then by nodes.
    pub chains: Vec<Chain>,
    /// Whether `max_chains` stopped the enumeration.
    pub truncated: bool,
}

/// Whether a node is a statement of a chain (entries and exits are not).
pub fn is_statement(program: &Program, (f, n): NodeRef) -> bool {
    let function = &program.functions[f];
    n != function.entry && n != function.exit
}

/// The chains from the nodes `roots` of change `change`, up to `limits.distance`.
pub fn chains_from(
    program: &Program,
    sdg: &Sdg,
    change: usize,
    roots: &[NodeRef],
    limits: ChainLimits,
) -> ChangeChains {
    let mut out = ChangeChains::default();
    let mut seen: FxHashSet<Vec<Dep>> = FxHashSet::default();
    // Iterative deepening: all chains of one length before any longer one, so that the
    // limit cuts the farthest.
    'lengths: for target in 1..=limits.distance {
        for &root in roots {
            if !is_statement(program, root) {
                continue;
            }
            let Some(v) = sdg.node_vertex(root.0, root.1) else {
                continue;
            };
            let mut walk = Walk {
                program,
                sdg,
                target,
                max_chains: limits.max_chains,
                change,
                root,
                deps: Vec::new(),
                seen: &mut seen,
                out: &mut out,
            };
            walk.extend_from(v, root, &mut Vec::new());
            if out.truncated {
                break 'lengths;
            }
        }
    }
    // Nearest first; at one distance, the chains that stay in the changed function first.
    let leaves = |c: &Chain| c.deps.iter().any(|d| d.to.0 != c.root.0);
    out.chains
        .sort_by(|a, b| (a.len(), leaves(a), &a.deps).cmp(&(b.len(), leaves(b), &b.deps)));
    out
}

struct Walk<'a> {
    program: &'a Program,
    sdg: &'a Sdg,
    /// The length of the chains this walk emits.
    target: usize,
    max_chains: usize,
    change: usize,
    root: NodeRef,
    deps: Vec<Dep>,
    seen: &'a mut FxHashSet<Vec<Dep>>,
    out: &'a mut ChangeChains,
}

/// Call sites entered and not yet returned from.
type Stack = Vec<(FuncId, NodeId)>;

const MAX_STACK: usize = 8;

impl Walk<'_> {
    /// Extends the current chain, which ends at statement `at` (vertex `v`).
    fn extend_from(&mut self, v: VertexId, at: NodeRef, stack: &mut Stack) {
        if self.deps.len() >= self.target || self.out.truncated {
            return;
        }
        let mut next: Vec<(VertexId, NodeRef, DepKind, Stack)> = Vec::new();
        let mut visited: FxHashSet<(VertexId, usize)> = FxHashSet::default();
        let mut work: Vec<(VertexId, Stack)> = vec![(v, stack.clone())];
        while let Some((u, st)) = work.pop() {
            for &(w, kind) in self.sdg.succs(u) {
                if kind == EdgeKind::Summary || self.is_stop(w) || self.is_port_of_call(u, w, kind)
                {
                    continue;
                }
                let mut st = st.clone();
                if !self.step_stack(u, w, kind, &mut st) {
                    continue;
                }
                // A callee's entry only passes control to its statements; an exit passes
                // nothing (returned values flow from the statements that set them).
                let from_boundary =
                    u != v && matches!(self.sdg.kinds[u.index()], VertexKind::Node(_));
                if from_boundary && self.statement(w).is_none() {
                    continue;
                }
                if let Some(node) = self.statement(w) {
                    let dep_kind = match kind {
                        EdgeKind::Control | EdgeKind::Call => DepKind::Control,
                        _ => DepKind::Data,
                    };
                    next.push((w, node, dep_kind, st));
                } else if visited.insert((w, st.len())) {
                    work.push((w, st));
                }
            }
        }
        next.sort_by_key(|&(w, node, kind, _)| (node, kind, w));
        next.dedup_by_key(|(_, node, kind, st)| (*node, *kind, st.clone()));
        for (w, node, kind, mut st) in next {
            self.deps.push(Dep {
                from: at,
                to: node,
                kind,
            });
            if self.deps.len() < self.target {
                self.extend_from(w, node, &mut st);
            } else if self.seen.insert(self.deps.clone()) {
                if self.out.chains.len() >= self.max_chains {
                    self.out.truncated = true;
                    self.deps.pop();
                    return;
                }
                self.out.chains.push(Chain {
                    change: self.change,
                    root: self.root,
                    deps: self.deps.clone(),
                });
            }
            self.deps.pop();
        }
    }

    /// The statement a vertex stands for, if it is one.
    fn statement(&self, v: VertexId) -> Option<NodeRef> {
        let VertexKind::Node(n) = self.sdg.kinds[v.index()] else {
            return None;
        };
        let node = (self.sdg.function_of[v.index()], n);
        is_statement(self.program, node).then_some(node)
    }

    /// The control edge from a call to one of its actual parameters: it only says the
    /// parameter exists when the call runs; values flow through the parameters'
    /// own edges, and the callee's statements depend on the call through its entry.
    fn is_port_of_call(&self, u: VertexId, w: VertexId, kind: EdgeKind) -> bool {
        kind == EdgeKind::Control
            && matches!(self.sdg.kinds[u.index()], VertexKind::Node(_))
            && matches!(
                self.sdg.kinds[w.index()],
                VertexKind::ActualIn { .. } | VertexKind::ActualOut { .. }
            )
    }

    fn is_stop(&self, v: VertexId) -> bool {
        matches!(
            self.sdg.kinds[v.index()],
            VertexKind::FormalIn(IfaceVar::Stop)
                | VertexKind::FormalOut(IfaceVar::Stop)
                | VertexKind::ActualIn {
                    var: IfaceVar::Stop,
                    ..
                }
                | VertexKind::ActualOut {
                    var: IfaceVar::Stop,
                    ..
                }
        )
    }

    /// Enters or leaves a call along edge `u -> w`; false when the edge returns to a
    /// call site other than the one the chain entered from.
    fn step_stack(&self, u: VertexId, w: VertexId, kind: EdgeKind, stack: &mut Stack) -> bool {
        let caller = self.sdg.function_of[u.index()];
        match (kind, self.sdg.kinds[u.index()], self.sdg.kinds[w.index()]) {
            (EdgeKind::Call, VertexKind::Node(call), _)
            | (EdgeKind::ParamIn, VertexKind::ActualIn { call, .. }, _) => {
                if stack.len() < MAX_STACK {
                    stack.push((caller, call));
                }
                true
            }
            (EdgeKind::ParamOut, _, VertexKind::ActualOut { call, .. }) => {
                let site = (self.sdg.function_of[w.index()], call);
                match stack.last() {
                    None => true,
                    Some(&top) if top == site => {
                        stack.pop();
                        true
                    }
                    Some(_) => false,
                }
            }
            _ => true,
        }
    }
}

/// What a data dependence from `node` carries: the name of the register it defines, or
/// `*` for memory.
pub fn defined_name(program: &Program, (f, n): NodeRef) -> String {
    let function = &program.functions[f];
    let place = match &function.nodes[n].kind {
        NodeKind::Assign { dst, .. } => Some(dst),
        NodeKind::Call { dst, .. } => dst.as_ref(),
        _ => None,
    };
    match place {
        Some(Place::Local(v))
            if matches!(function.locals[*v].kind, ripple_ir::LocalKind::Return) =>
        {
            "return".to_string()
        }
        Some(Place::Local(v)) if function.locals[*v].name.is_empty() => "tmp".to_string(),
        Some(Place::Local(v)) => function.locals[*v].name.clone(),
        // Memory, or what a call without a result writes.
        Some(_) | None => "*".to_string(),
    }
}
