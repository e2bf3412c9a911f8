//! Function-level impact of a change between two versions, by Static Execute After
//! (Jász, 004, sections 3 and 4).
//!
//! The changed functions are those the version matching ([`ripple_versions`]) reports as
//! modified, added, removed, or renamed with a changed body. The impacted functions are
//! the changed functions themselves (relation ID) and the SEA set of each changed
//! function in the new version; for code that existed in the old version (modified and
//! removed functions) also its SEA set in the old version, since what ran after the
//! removed code may now behave differently. Old functions are reported under their new
//! counterpart when they have one. Each impacted function carries the relations (CALL,
//! SEQ, RET, ID) and the changed functions that put it there.
//!
//! For comparison, as 004 section 4 does (Fig. 7), the plain call-graph impact: the
//! transitive callees and the transitive callers of the changed functions, on the full
//! call graph of each version.
//!
//! Globals are inputs (000 section 2.2): a global whose type or initial value changed
//! (a table in a header, say) makes every function that reads it directly a function with
//! a changed input, reported among the changed functions with the globals it reads, and
//! the source of SEA like a changed body.
//!
//! Known limits: those of [`crate::sea`] (every call assumed to return) and of the call
//! graph it is given (the commands resolve function pointers by points-to and add the
//! callbacks of library functions, `ripple_dataflow::calls`); a renamed function whose
//! body did not change is not a change itself (its callers, whose call text changed,
//! are).

use std::collections::BTreeMap;

use ripple_graph::{BitSet, CallGraph, Iccfg};
use ripple_ir::{FuncId, Program};
use ripple_versions::{FunctionStatus, VersionMatch};

use crate::sea::{sea_sets, Algorithm, Direction, Relations, SeaConfig};

/// Options of the impact computation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImpactConfig {
    pub algorithm: Algorithm,
}

/// A function of either version, identified across versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunctionRef {
    pub old: Option<FuncId>,
    pub new: Option<FuncId>,
}

/// A changed function: its body changed, or it reads a changed global.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedFunction {
    pub function: FunctionRef,
    /// `Unchanged` for a function whose only change is a global it reads.
    pub status: FunctionStatus,
    /// The changed globals it reads directly, sorted.
    pub reads: Vec<String>,
    /// Every changed statement of it, in both versions, is one no execution reaches
    /// (after a call that never returns, `ripple_dataflow::noreturn`): it impacts
    /// nothing.
    pub unreachable_only: bool,
}

/// A global whose type or initial value changed (or that exists in one version only),
/// with the functions of each version that read it directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedGlobal {
    pub name: String,
    pub readers_old: Vec<FuncId>,
    pub readers_new: Vec<FuncId>,
}

/// A function the change may impact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpactedFunction {
    pub function: FunctionRef,
    pub relations: Relations,
    /// Indices into [`FunctionImpact::changed`], sorted.
    pub because_of: Vec<usize>,
}

/// The call-graph-only impact of the change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallGraphImpact {
    /// Functions the changed functions (transitively) call, sorted.
    pub callees: Vec<FunctionRef>,
    /// Functions that (transitively) call a changed function, sorted.
    pub callers: Vec<FunctionRef>,
}

/// The function-level impact of a change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionImpact {
    /// In the order of the version matching (by key).
    pub changed: Vec<ChangedFunction>,
    /// Sorted by function (new id first, then old-only functions by old id).
    pub impacted: Vec<ImpactedFunction>,
    pub callgraph: CallGraphImpact,
}

/// The graphs of one version that the impact needs.
pub struct VersionGraphs<'a> {
    pub program: &'a Program,
    pub callgraph: &'a CallGraph,
    pub iccfg: &'a Iccfg,
}

impl<'a> VersionGraphs<'a> {
    pub fn new(program: &'a Program, callgraph: &'a CallGraph, iccfg: &'a Iccfg) -> Self {
        VersionGraphs {
            program,
            callgraph,
            iccfg,
        }
    }
}

/// Whether every node of `nodes` is unreachable in `function` (none: true).
fn only_unreachable(
    program: &Program,
    function: Option<FuncId>,
    nodes: &[ripple_ir::NodeId],
) -> bool {
    let Some(f) = function else {
        return nodes.is_empty();
    };
    if nodes.is_empty() {
        return true;
    }
    let reachable = ripple_dataflow::noreturn::reachable_nodes(&program.functions[f]);
    nodes.iter().all(|n| !reachable[n.index()])
}

/// Computes the impact of the change from `old` to `new`, whose changed globals are
/// `globals`.
pub fn function_impact(
    old: &VersionGraphs<'_>,
    new: &VersionGraphs<'_>,
    matching: &VersionMatch,
    globals: &[ChangedGlobal],
    config: &ImpactConfig,
) -> FunctionImpact {
    let correspondence = Correspondence::new(old.program, new.program, matching);
    let mut changed: Vec<ChangedFunction> = matching
        .functions
        .iter()
        .filter(|m| match m.status {
            FunctionStatus::Unchanged => false,
            FunctionStatus::Renamed => m.body_changed,
            _ => true,
        })
        .map(|m| ChangedFunction {
            function: FunctionRef {
                old: m.old,
                new: m.new,
            },
            status: m.status,
            reads: Vec::new(),
            unreachable_only: m.status == FunctionStatus::Modified
                && only_unreachable(old.program, m.old, &m.changed_old)
                && only_unreachable(new.program, m.new, &m.changed_new),
        })
        .collect();
    for global in globals {
        let readers = global
            .readers_old
            .iter()
            .map(|&f| correspondence.reference(Side::Old, f))
            .chain(
                global
                    .readers_new
                    .iter()
                    .map(|&f| correspondence.reference(Side::New, f)),
            );
        for reader in readers {
            let existing = changed.iter_mut().find(|c| {
                (c.function.old.is_some() && c.function.old == reader.old)
                    || (c.function.new.is_some() && c.function.new == reader.new)
            });
            match existing {
                Some(c) => {
                    if !c.reads.contains(&global.name) {
                        c.reads.push(global.name.clone());
                        c.reads.sort();
                    }
                }
                None => changed.push(ChangedFunction {
                    function: reader,
                    status: FunctionStatus::Unchanged,
                    reads: vec![global.name.clone()],
                    unreachable_only: false,
                }),
            }
        }
    }
    let sea_config = SeaConfig {
        direction: Direction::After,
        with_identity: true,
        algorithm: config.algorithm,
    };
    let mut impacted: BTreeMap<FunctionRef, (Relations, Vec<usize>)> = BTreeMap::new();
    let mut record = |function: FunctionRef, relations: Relations, cause: usize| {
        let entry = impacted
            .entry(function)
            .or_insert_with(|| (Relations::empty(), Vec::new()));
        entry.0.insert(relations);
        if !entry.1.contains(&cause) {
            entry.1.push(cause);
        }
    };
    for side in [Side::New, Side::Old] {
        let graphs = match side {
            Side::New => new,
            Side::Old => old,
        };
        let queries: Vec<(usize, FuncId)> = changed
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.unreachable_only || !c.reads.is_empty())
            .filter_map(|(i, c)| match side {
                Side::New => c.function.new.map(|f| (i, f)),
                // Removed code: removed functions, and the old side of modified ones.
                Side::Old => c.function.old.map(|f| (i, f)),
            })
            .collect();
        let functions: Vec<FuncId> = queries.iter().map(|&(_, f)| f).collect();
        let sets = sea_sets(graphs.iccfg, &functions, &sea_config);
        for ((cause, _), set) in queries.iter().zip(&sets) {
            for &(g, relations) in &set.members {
                record(correspondence.reference(side, g), relations, *cause);
            }
        }
    }
    let impacted = impacted
        .into_iter()
        .map(|(function, (relations, mut because_of))| {
            because_of.sort_unstable();
            ImpactedFunction {
                function,
                relations,
                because_of,
            }
        })
        .collect();
    let callgraph = callgraph_impact(old, new, &changed, &correspondence);
    FunctionImpact {
        changed,
        impacted,
        callgraph,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Old,
    New,
}

/// Which old function is which new function: the matching for defined functions, the
/// key for functions without a body.
struct Correspondence {
    old_to_new: Vec<Option<FuncId>>,
    new_to_old: Vec<Option<FuncId>>,
}

impl Correspondence {
    fn new(old: &Program, new: &Program, matching: &VersionMatch) -> Correspondence {
        let mut old_to_new = vec![None; old.functions.len()];
        let mut new_to_old = vec![None; new.functions.len()];
        for m in &matching.functions {
            if let (Some(o), Some(n)) = (m.old, m.new) {
                old_to_new[o.index()] = Some(n);
                new_to_old[n.index()] = Some(o);
            }
        }
        for (o, function) in old.functions.iter_enumerated() {
            if function.is_defined() || old_to_new[o.index()].is_some() {
                continue;
            }
            if let Some(n) = new.function_by_key(&function.key) {
                if !new.functions[n].is_defined() && new_to_old[n.index()].is_none() {
                    old_to_new[o.index()] = Some(n);
                    new_to_old[n.index()] = Some(o);
                }
            }
        }
        Correspondence {
            old_to_new,
            new_to_old,
        }
    }

    fn reference(&self, side: Side, function: FuncId) -> FunctionRef {
        match side {
            Side::Old => FunctionRef {
                old: Some(function),
                new: self.old_to_new[function.index()],
            },
            Side::New => FunctionRef {
                old: self.new_to_old[function.index()],
                new: Some(function),
            },
        }
    }
}

fn callgraph_impact(
    old: &VersionGraphs<'_>,
    new: &VersionGraphs<'_>,
    changed: &[ChangedFunction],
    correspondence: &Correspondence,
) -> CallGraphImpact {
    let mut callees: Vec<FunctionRef> = Vec::new();
    let mut callers: Vec<FunctionRef> = Vec::new();
    for (side, graphs) in [(Side::New, new), (Side::Old, old)] {
        let starts: Vec<FuncId> = changed
            .iter()
            .filter_map(|c| match side {
                Side::New => c.function.new,
                Side::Old => c.function.old,
            })
            .collect();
        let down = reachable(&graphs.callgraph.callees, &starts);
        let up = reachable(&graphs.callgraph.callers, &starts);
        callees.extend(
            down.iter()
                .map(|f| correspondence.reference(side, FuncId::from(f))),
        );
        callers.extend(
            up.iter()
                .map(|f| correspondence.reference(side, FuncId::from(f))),
        );
    }
    for list in [&mut callees, &mut callers] {
        list.sort_unstable();
        list.dedup();
    }
    CallGraphImpact { callees, callers }
}

/// Functions reachable from `starts` in at least one step.
fn reachable(edges: &[Vec<FuncId>], starts: &[FuncId]) -> BitSet {
    let mut seen = BitSet::new(edges.len());
    let mut stack: Vec<FuncId> = starts.to_vec();
    while let Some(f) = stack.pop() {
        for &g in &edges[f.index()] {
            if seen.insert(g.index()) {
                stack.push(g);
            }
        }
    }
    seen
}
