//! The Interprocedural Component Control Flow Graph (ICCFG) of Jász, *Static Execute
//! After algorithms as alternatives for impact analysis* (004), section 3.1.
//!
//! Per defined function, the component control-flow graph (CCFG): the strongly
//! connected components of the function's CFG (only the part reachable from the entry)
//! that contain at least one call site are the component nodes; components without call
//! sites are dropped and their predecessors joined to their successors (004 section
//! 3.1, footnote 6: two call sites mutually reachable are one node). Components are
//! numbered in topological order (004 footnote 7, needed by Fig. 5). The CCFGs are
//! joined by call edges: a component has a call edge to every function one of its call
//! sites may call (direct callee, or the targets the [`CallGraph`] resolved for a call
//! through a pointer).
//!
//! A component is *in a loop* when its CFG part has a cycle. The four kinds of 004
//! section 3.1 follow from the loop flag and the number of targets ([`ComponentKind`]);
//! SEA treats them as the paper does: the targets of a component in a loop are in SEQ
//! with each other and with themselves (kinds c and d), the targets of a component not
//! in a loop are not (kinds a and b).
//!
//! Known limits: a call through a pointer with no compatible address-taken function has
//! no target and is not a call site here (counted in [`IccfgStats::unresolved_calls`]);
//! intrinsics (`memcpy`, `va_arg`, ...) are not calls. Functions without a body have no
//! components (they are leaves). Every call is assumed to return and every reachable
//! node to reach the exit, as in the paper, so SEA over-approximates around functions
//! that never return.

use ripple_ir::{Callee, FuncId, NodeId, NodeKind, Program};

use crate::scc::{strongly_connected_components, Sccs};
use crate::CallGraph;

/// The ICCFG of a program.
#[derive(Clone, Debug, Default)]
pub struct Iccfg {
    /// Per function (indexed by [`FuncId`]): its component graph; no components for a
    /// function without a body.
    pub functions: Vec<Ccfg>,
    /// Per function: the components that may call it, as (caller, component), sorted.
    pub callers: Vec<Vec<(FuncId, u32)>>,
    pub stats: IccfgStats,
}

/// The component control-flow graph of one function.
#[derive(Clone, Debug, Default)]
pub struct Ccfg {
    pub defined: bool,
    /// The components reached first from the entry (sorted).
    pub entry_succs: Vec<u32>,
    /// Components in topological order: every flow edge goes from a lower to a higher
    /// index.
    pub components: Vec<Component>,
}

/// A strongly connected part of a CFG holding call sites, contracted to one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Component {
    /// The call nodes in it (sorted).
    pub call_nodes: Vec<NodeId>,
    /// Every function its call sites may call (sorted).
    pub callees: Vec<FuncId>,
    /// Components reached next, through call-free parts of the CFG (sorted, never the
    /// component itself).
    pub succs: Vec<u32>,
    pub preds: Vec<u32>,
    /// Whether the component has a cycle, so its calls may run again after returning.
    pub in_loop: bool,
}

/// The kinds of components of 004 section 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ComponentKind {
    /// a: one call with one target, not in a loop.
    SingleTarget,
    /// b: one call with several targets (a call through a pointer), not in a loop.
    SeveralTargets,
    /// c: calls in a loop with several targets in all.
    LoopSeveralTargets,
    /// d: calls in a loop with one target in all.
    LoopSingleTarget,
}

impl ComponentKind {
    /// The paper's letter.
    pub fn letter(self) -> char {
        match self {
            ComponentKind::SingleTarget => 'a',
            ComponentKind::SeveralTargets => 'b',
            ComponentKind::LoopSeveralTargets => 'c',
            ComponentKind::LoopSingleTarget => 'd',
        }
    }
}

impl Component {
    pub fn kind(&self) -> ComponentKind {
        match (self.in_loop, self.callees.len() > 1) {
            (false, false) => ComponentKind::SingleTarget,
            (false, true) => ComponentKind::SeveralTargets,
            (true, true) => ComponentKind::LoopSeveralTargets,
            (true, false) => ComponentKind::LoopSingleTarget,
        }
    }
}

/// Sizes of the CFGs and of the ICCFG (the comparison of 004 Table 5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IccfgStats {
    pub functions: usize,
    pub defined_functions: usize,
    /// CFG nodes and intraprocedural edges of the defined functions.
    pub cfg_nodes: usize,
    pub cfg_edges: usize,
    /// CFG nodes reachable from their function's entry.
    pub cfg_reachable_nodes: usize,
    /// Call sites with at least one target, and their (site, target) call edges.
    pub call_sites: usize,
    pub cfg_call_edges: usize,
    /// Calls through pointers for which no address-taken function fits.
    pub unresolved_calls: usize,
    /// ICCFG vertices: one entry per function plus the components.
    pub iccfg_nodes: usize,
    pub components: usize,
    /// Flow edges (entry to component, component to component).
    pub iccfg_flow_edges: usize,
    /// Call edges (component to callee entry).
    pub iccfg_call_edges: usize,
    /// Components of kinds a, b, c, d.
    pub kinds: [usize; 4],
}

impl Iccfg {
    /// Builds the ICCFG from the program's CFGs and the call-site targets of `callgraph`.
    pub fn build(program: &Program, callgraph: &CallGraph) -> Iccfg {
        let count = program.functions.len();
        // Targets of every call site, grouped by caller (the call graph lists sites in
        // function order, then node order).
        let mut site_targets: Vec<Vec<(NodeId, &[FuncId])>> = vec![Vec::new(); count];
        for site in &callgraph.sites {
            site_targets[site.caller.index()].push((site.node, site.target.callees()));
        }
        let mut stats = IccfgStats {
            functions: count,
            ..IccfgStats::default()
        };
        let mut functions = Vec::with_capacity(count);
        for (id, function) in program.functions.iter_enumerated() {
            let sites = &mut site_targets[id.index()];
            sites.sort_unstable_by_key(|(node, _)| *node);
            for (node_id, node) in function.nodes.iter_enumerated() {
                if let NodeKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                } = node.kind
                {
                    let targets = sites
                        .binary_search_by_key(&node_id, |(n, _)| *n)
                        .map_or(0, |i| sites[i].1.len());
                    if targets == 0 {
                        stats.unresolved_calls += 1;
                    }
                }
            }
            functions.push(build_ccfg(function, sites, &mut stats));
        }
        let mut callers: Vec<Vec<(FuncId, u32)>> = vec![Vec::new(); count];
        for (caller, ccfg) in functions.iter().enumerate() {
            for (index, component) in ccfg.components.iter().enumerate() {
                for &callee in &component.callees {
                    callers[callee.index()].push((FuncId::from(caller), index as u32));
                }
            }
        }
        stats.iccfg_nodes = count + stats.components;
        Iccfg {
            functions,
            callers,
            stats,
        }
    }

    /// Functions called by some component of `function` (sorted).
    pub fn callees(&self, function: FuncId) -> Vec<FuncId> {
        let mut out: Vec<FuncId> = self.functions[function.index()]
            .components
            .iter()
            .flat_map(|c| c.callees.iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The strongly connected components of the call graph formed by the ICCFG's call
    /// edges (only call sites reachable in their function), over all functions.
    pub fn call_graph_sccs(&self) -> Sccs {
        let callees: Vec<Vec<FuncId>> = (0..self.functions.len())
            .map(|f| self.callees(FuncId::from(f)))
            .collect();
        strongly_connected_components(callees.len(), 0..callees.len(), |f, i| {
            callees[f].get(i).map(|g| g.index())
        })
    }
}

fn build_ccfg(
    function: &ripple_ir::Function,
    sites: &[(NodeId, &[FuncId])],
    stats: &mut IccfgStats,
) -> Ccfg {
    if !function.is_defined() {
        return Ccfg::default();
    }
    stats.defined_functions += 1;
    stats.cfg_nodes += function.nodes.len();
    stats.cfg_edges += function.nodes.iter().map(|n| n.succs.len()).sum::<usize>();
    let nodes = &function.nodes;
    let sccs = strongly_connected_components(nodes.len(), [function.entry.index()], |node, i| {
        nodes[NodeId::from(node)].succs.get(i).map(|s| s.index())
    });
    let targets_of = |node: u32| -> &[FuncId] {
        sites
            .binary_search_by_key(&NodeId(node), |(n, _)| *n)
            .map_or(&[][..], |i| sites[i].1)
    };
    let scc_count = sccs.len();
    let mut call_nodes: Vec<Vec<NodeId>> = vec![Vec::new(); scc_count];
    let mut callees: Vec<Vec<FuncId>> = vec![Vec::new(); scc_count];
    for (scc, members) in sccs.members.iter().enumerate() {
        stats.cfg_reachable_nodes += members.len();
        for &node in members {
            let targets = targets_of(node);
            if !targets.is_empty() {
                stats.call_sites += 1;
                stats.cfg_call_edges += targets.len();
                call_nodes[scc].push(NodeId(node));
                callees[scc].extend_from_slice(targets);
            }
        }
        callees[scc].sort_unstable();
        callees[scc].dedup();
    }
    let call_scc: Vec<bool> = call_nodes.iter().map(|c| !c.is_empty()).collect();
    let is_call = |scc: usize| call_scc[scc];
    // Component ids of the call SCCs, in topological order.
    let mut component_id = vec![u32::MAX; scc_count];
    let mut next = 0u32;
    for (id, &call) in component_id.iter_mut().zip(&call_scc) {
        if call {
            *id = next;
            next += 1;
        }
    }
    // In reverse topological order: the call components first reached from each SCC's
    // successors (its "frontier"); for a call-free SCC this is also what a predecessor
    // reaches through it.
    let mut frontier: Vec<Vec<u32>> = vec![Vec::new(); scc_count];
    for scc in (0..scc_count).rev() {
        let mut reached: Vec<u32> = Vec::new();
        for &node in &sccs.members[scc] {
            for succ in &nodes[NodeId(node)].succs {
                let target = sccs.component_of[succ.index()] as usize;
                if target == scc {
                    continue;
                }
                if is_call(target) {
                    reached.push(component_id[target]);
                } else {
                    reached.extend_from_slice(&frontier[target]);
                }
            }
        }
        reached.sort_unstable();
        reached.dedup();
        frontier[scc] = reached;
    }
    let mut components: Vec<Component> = Vec::with_capacity(next as usize);
    for scc in 0..scc_count {
        if !is_call(scc) {
            continue;
        }
        components.push(Component {
            call_nodes: std::mem::take(&mut call_nodes[scc]),
            callees: std::mem::take(&mut callees[scc]),
            succs: frontier[scc].clone(),
            preds: Vec::new(),
            in_loop: sccs.cyclic[scc],
        });
    }
    for index in 0..components.len() {
        for succ in components[index].succs.clone() {
            components[succ as usize].preds.push(index as u32);
        }
    }
    let entry_scc = sccs.component_of[function.entry.index()] as usize;
    let entry_succs = if is_call(entry_scc) {
        vec![component_id[entry_scc]]
    } else {
        frontier[entry_scc].clone()
    };
    stats.components += components.len();
    stats.iccfg_flow_edges +=
        entry_succs.len() + components.iter().map(|c| c.succs.len()).sum::<usize>();
    for component in &components {
        stats.iccfg_call_edges += component.callees.len();
        let kind = component.kind() as usize;
        stats.kinds[kind] += 1;
    }
    Ccfg {
        defined: true,
        entry_succs,
        components,
    }
}
