//! Where impact spreads: the memory regions and the "whether it returns" of functions
//! through which most of an impact passes, with how many impacted lines are reached
//! *only* through each.
//!
//! The impacted part of the SDG is given a root joined to every source of the impact; a
//! line is reached only through a hub when, with every vertex of the hub removed, the
//! root no longer reaches the line's vertex. The hubs measured are those with the most
//! impacted vertices. The graph holds every SDG edge between impacted vertices, more
//! paths than the traversal took (it respects calling contexts and the equivalences of
//! SEM-DCIA), so fewer lines are cut off: every count is a lower bound, and each claim
//! holds. A hub is a memory region (its interface vertices and its memory vertices) or
//! whether a function returns (its stop outputs and those of the calls of it).

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::sdg::{IfaceVar, Sdg, VertexId, VertexKind};
use ripple_dataflow::slice::Traversal;
use ripple_ir::{FuncId, NodeId, Program};

/// A hub of one version's impact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hub {
    /// What the impact goes through: `memory <region>`, `whether <f> returns`, or (for
    /// `chain_lines` only) `the <N> objects <file:line> may write`, a store through a
    /// pointer that may address many objects.
    pub name: String,
    /// Impacted source lines reached only through it.
    pub lines: usize,
    /// Functions with such a line.
    pub functions: usize,
    /// Impacted source lines whose explanation (shortest chain) passes through it: where
    /// an impact has several ways around every hub (no line is reached only through
    /// one), this still names the way most of it went.
    pub chain_lines: usize,
}

/// The lines (file, line) and functions reached only through one hub.
type Reached = (FxHashSet<(u32, u32)>, FxHashSet<FuncId>);

/// At most this many hubs, largest first.
const MAX_HUBS: usize = 5;

/// How many hubs (those with the most impacted vertices) are measured.
const CANDIDATES: usize = 8;

/// The hubs of an impact: `sources` its sources, `impacted` each impacted node with the
/// vertex that explains it.
pub(crate) fn hubs(
    program: &Program,
    sdg: &Sdg,
    traversal: &Traversal,
    sources: &[VertexId],
    impacted: &[(VertexId, FuncId, NodeId)],
) -> Vec<Hub> {
    if impacted.is_empty() {
        return Vec::new();
    }
    let reached = traversal.vertices();
    let mut local = vec![u32::MAX; sdg.vertex_count()];
    for (i, v) in reached.iter().enumerate() {
        local[v.index()] = i as u32;
    }
    let root = reached.len();
    let mut succs: Vec<Vec<u32>> = reached
        .iter()
        .map(|v| {
            sdg.succs(*v)
                .iter()
                .map(|(w, _)| local[w.index()])
                .filter(|&w| w != u32::MAX)
                .collect()
        })
        .collect();
    succs.push(
        sources
            .iter()
            .map(|v| local[v.index()])
            .filter(|&w| w != u32::MAX)
            .collect(),
    );
    // Candidates: the hubs with the most impacted vertices.
    let mut names: Vec<Option<String>> =
        reached.iter().map(|&v| hub_name(program, sdg, v)).collect();
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    for name in names.iter().flatten() {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    let mut candidates: Vec<(&str, usize)> = counts.into_iter().collect();
    candidates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    candidates.truncate(CANDIDATES);
    let candidates: Vec<String> = candidates.into_iter().map(|(n, _)| n.to_string()).collect();
    // Per candidate: what the sources still reach without its vertices; the impacted
    // lines left out are reached only through it.
    let mut per_hub: FxHashMap<String, Reached> = FxHashMap::default();
    for candidate in candidates {
        let blocked: Vec<bool> = names
            .iter()
            .map(|n| n.as_deref() == Some(candidate.as_str()))
            .collect();
        let mut seen = vec![false; root + 1];
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(x) = stack.pop() {
            for &y in &succs[x] {
                let y = y as usize;
                if !seen[y] && !blocked[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        let entry = per_hub.entry(candidate).or_default();
        for &(v, f, n) in impacted {
            let i = local[v.index()];
            if i == u32::MAX || seen[i as usize] {
                continue;
            }
            let span = program.functions[f].nodes[n].span;
            entry.0.insert((span.file.0, span.start_line));
            entry.1.insert(f);
        }
    }
    // Per hub: the impacted lines whose chain passes through it.
    let mut through: FxHashMap<String, FxHashSet<(u32, u32)>> = FxHashMap::default();
    for &(v, f, n) in impacted {
        let span = program.functions[f].nodes[n].span;
        let chain = traversal.chain(v);
        let mut on_chain: FxHashSet<String> = FxHashSet::default();
        for (k, &(w, _)) in chain.iter().enumerate() {
            // Memory a store through an imprecise pointer may write: the store is the
            // way, not whichever of its objects the chain happened to pass.
            let writer = chain.get(k + 1).map(|&(u, _)| u);
            if let Some((objects, at, _)) =
                writer.and_then(|u| crate::dcia::wide_write(program, sdg, u, w))
            {
                on_chain.insert(format!("the {objects} objects {at} may write"));
                continue;
            }
            let i = local[w.index()];
            if let Some(Some(name)) = (i != u32::MAX).then(|| names[i as usize].as_ref()) {
                on_chain.insert(name.clone());
            }
        }
        for name in on_chain {
            through
                .entry(name)
                .or_default()
                .insert((span.file.0, span.start_line));
        }
    }
    names.clear();
    for name in through.keys() {
        per_hub.entry(name.clone()).or_default();
    }
    let mut out: Vec<Hub> = per_hub
        .into_iter()
        .map(|(name, (lines, functions))| Hub {
            chain_lines: through.get(&name).map_or(0, FxHashSet::len),
            name,
            lines: lines.len(),
            functions: functions.len(),
        })
        .filter(|h| h.lines > 0 || h.chain_lines > 0)
        .collect();
    out.sort_by(|a, b| {
        (b.lines, b.chain_lines)
            .cmp(&(a.lines, a.chain_lines))
            .then_with(|| a.name.cmp(&b.name))
    });
    out.truncate(MAX_HUBS);
    out
}

/// The hub a vertex belongs to, if any.
fn hub_name(program: &Program, sdg: &Sdg, v: VertexId) -> Option<String> {
    let function = sdg.function_of[v.index()];
    match sdg.kinds[v.index()] {
        VertexKind::FormalIn(IfaceVar::Mem(p))
        | VertexKind::FormalOut(IfaceVar::Mem(p))
        | VertexKind::ActualIn {
            var: IfaceVar::Mem(p),
            ..
        }
        | VertexKind::ActualOut {
            var: IfaceVar::Mem(p),
            ..
        }
        | VertexKind::Memory(p)
        | VertexKind::Region(p) => Some(format!(
            "memory {}",
            sdg.var_name(program, function, IfaceVar::Mem(p))
        )),
        VertexKind::FormalOut(IfaceVar::Stop) => Some(format!(
            "whether {} returns",
            program.functions[function].name
        )),
        VertexKind::ActualOut {
            call,
            var: IfaceVar::Stop,
        } => Some(format!(
            "whether {} returns",
            sdg.callee_names(program, function, call)
        )),
        _ => None,
    }
}
