//! DCIA: dataflow-based change-impact analysis at statement level (Gyori, Lahiri and
//! Partush, ISSTA 2017, "000": section 3.3, Fig. 2 and Fig. 3).
//!
//! What it computes: for two versions and the MAPPED relation of version matching, an
//! over-approximation of the impacted nodes of 000 Definition 3.1 (nodes whose sequence of
//! read values may differ between the versions on some input), of the impacted variables
//! (formals) and of the impacted summaries (outputs whose input-output relation may have
//! changed), each impacted node with the chain of dependences that explains it.
//!
//! Algorithm. The rules of Fig. 2 and Fig. 3 are evaluated as reachability over the
//! system dependence graph of each version ([`ripple_dataflow::sdg`]), where the
//! variables of the paper are SDG vertices (registers through reaching definitions,
//! memory through points-to regions, globals and heap as extra formals as in section
//! 2.2):
//! - SYNT-CHANGED: every node not in MAPPED is a source (and, beyond the paper, the memory
//!   inputs of root functions for globals whose initial value differs between versions);
//! - NODE-2-VAR / VAR-2-NODE / DEPENDS-*: data and control dependence edges (a node
//!   control dependent on an impacted branch is impacted: the paper's CONTROL-DEPENDS);
//! - IMPACT-SUMMARY and IMPACT-SUMMARY-PROP: a formal-out reached from a source without
//!   descending into a call (phase 1 of the forward two-phase traversal), then
//!   RETURN-IMPACT along parameter-out edges to every call site;
//! - CALL-IMPACT: parameter-in edges (phase 2 only, never ascending back);
//! - SUMMARY-IMPACT: summary edges, so an input impacted at one call site impacts the
//!   result at that call site only: context-sensitive as the paper requires.
//!
//! This is exactly the forward slice of Horwitz, Reps and Binkley from the unmapped
//! nodes, with SEM-DCIA's antecedents as edge filters: PREEQUIV(x, f) blocks the
//! parameter-in edges into formal x of f; SUMMARYEQUIV(y, f) blocks the parameter-out
//! edges out of y; a summary edge is blocked when both PREEQUIV of its input and
//! SUMMARYEQUIV of its output hold. [`Equivalences`] are empty for plain DCIA. The
//! algorithm runs on both versions, each with its side of MAPPED, and the results are
//! united (000 section 3.3, steps 1-3).
//!
//! Beyond the paper, for soundness with respect to Definition 3.1 (checked by the
//! dynamic harness in tests): an impacted call node impacts the callee's entry (its
//! activations may differ in number), and nodes after a call that may stop the program
//! (`exit`, `abort`) or after an integer division by a value that may be 0 are control
//! dependent on whether it stops (for a division: on its divisor; a changed division is
//! a source of that too).
//!
//! Known limits: otherwise termination-insensitive (a change that makes a loop run
//! forever, or makes a memory access fault or a signed division overflow, is not an
//! impact on the nodes after it), as 000 is; the over-approximations of the SDG apply
//! (see its module documentation).

pub use ripple_dataflow::unmodelled_library_functions;
use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::slice::{traverse_forward_with, Traversal};
use ripple_dataflow::{EdgeKind, IfaceVar, PartId, Sdg, SdgConfig, VertexId, VertexKind};
use ripple_ir::{FuncId, NodeId, NodeKind, Program, Span};
use ripple_versions::VersionMatch;

/// Which version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Old,
    New,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Old => Side::New,
            Side::New => Side::Old,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }
}

/// The equivalences SEM-DCIA feeds in (000 Definitions 4.1 and 4.2); empty for DCIA.
#[derive(Clone, Debug, Default)]
pub struct Equivalences {
    /// PREEQUIV(x, f): the input x of f has equal sequences of values in both versions.
    pub pre_equiv: FxHashSet<(Side, FuncId, IfaceVar)>,
    /// SUMMARYEQUIV(y, f): the output y of f is a function of the same inputs.
    pub summary_equiv: FxHashSet<(Side, FuncId, IfaceVar)>,
    /// Functions proved equivalent as a whole (SUMMARYEQUIV of every output): what they
    /// write is seen outside them only as they leave it, so a write into memory kept
    /// flow-insensitive reaches only the reads of the same run after it.
    pub functions: FxHashSet<(Side, FuncId)>,
    /// Changed statements proved to do what the statements they replace did
    /// ([`crate::sem_equiv`]): no source of impact.
    pub statements: FxHashSet<(Side, FuncId, NodeId)>,
    /// Of those, the nodes of changed regions proved equivalent as a whole: they also
    /// leave the same way, so no statement runs a different number of times for them.
    pub regions: FxHashSet<(Side, FuncId, NodeId)>,
    /// Changed arguments (call node, index from 0) proved to have the old values.
    pub arguments: FxHashSet<(Side, FuncId, NodeId, u32)>,
    /// Per version (old, new): changed calls found to run exactly when their partners
    /// do, beyond those [`crate::change_control::paired_calls`] finds.
    pub paired_calls: [Vec<crate::change_control::PairedCall>; 2],
    /// Nodes reading a region (holding one global) whose value there is the same known
    /// value in every run of both versions: no impact reaches them through it.
    pub known_reads: FxHashSet<(Side, FuncId, NodeId, PartId)>,
}

impl Equivalences {
    /// No function-level equivalence (PREEQUIV, SUMMARYEQUIV).
    pub fn is_empty(&self) -> bool {
        self.pre_equiv.is_empty() && self.summary_equiv.is_empty()
    }

    /// Nothing at all: DCIA with these is plain DCIA.
    pub fn is_unused(&self) -> bool {
        self.is_empty()
            && self.statements.is_empty()
            && self.arguments.is_empty()
            && self.paired_calls.iter().all(Vec::is_empty)
            && self.known_reads.is_empty()
    }
}

pub use ripple_dataflow::pointsto::Fallback as PointsToFallback;

#[derive(Clone, Debug, Default)]
pub struct DciaConfig {
    pub sdg: SdgConfig,
}

/// One step of an explanation: a vertex and how the impact reached it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStep {
    pub text: String,
    pub span: Span,
    /// The rule that carried the impact into this step (`None` for the changed source).
    pub rule: Option<&'static str>,
}

/// An impacted node, with the chain of dependences from a changed statement (the node
/// first, the changed statement last).
#[derive(Clone, Debug)]
pub struct ImpactedNode {
    pub side: Side,
    pub function: FuncId,
    pub node: NodeId,
    pub chain: Vec<ChainStep>,
}

/// The result on one version.
#[derive(Clone, Debug, Default)]
pub struct VersionImpact {
    /// Nodes not in MAPPED (SYNT-CHANGED), sorted.
    pub changed: Vec<(FuncId, NodeId)>,
    /// The changed source lines of the version matching (file, line), sorted: the text
    /// that differs, which is finer than the unmapped nodes (the node next to a deleted
    /// statement is unmapped, but its line did not change; a deleted `goto` has a line
    /// but no node).
    pub changed_lines: Vec<(String, u32)>,
    /// Globals whose type or initial value changed (or that exist in this version only):
    /// changes outside any function, whose reads are impacted, sorted.
    pub changed_globals: Vec<ripple_ir::GlobalId>,
    /// IMPACTEDNODE: every impacted node, changed ones included, sorted.
    pub impacted: Vec<ImpactedNode>,
    /// IMPACTEDVAR restricted to formals: impacted inputs, sorted.
    pub impacted_inputs: Vec<(FuncId, IfaceVar)>,
    /// IMPACTEDSUMM: outputs whose summary may have changed, sorted.
    pub impacted_summaries: Vec<(FuncId, IfaceVar)>,
    pub sdg_vertices: usize,
    pub sdg_edges: usize,
    /// How many memory regions the dependence graph keeps context-insensitive to stay
    /// within its size budget (0: none): the impact is still sound, but coarser.
    pub global_regions: usize,
    /// Why memory was abstracted by unification, when it was: objects that may alias
    /// share one region, so impact through memory is coarser.
    pub points_to_fallback: Option<PointsToFallback>,
    /// The objects whose further fields share one cell in the points-to analysis
    /// ([`ripple_dataflow::PointsTo::fields_merged`]), by name.
    pub fields_merged: Vec<String>,
    /// Where the impact spreads: the regions and "whether f returns" most impacted
    /// lines are reached only through, largest first (`crate::hubs`).
    pub hubs: Vec<crate::hubs::Hub>,
}

impl VersionImpact {
    /// Whether a parameter (a formal-in of the C signature) of `function` is impacted.
    pub fn is_parameter_impacted(&self, function: FuncId) -> bool {
        self.impacted_inputs
            .iter()
            .any(|&(f, var)| f == function && matches!(var, IfaceVar::Param(_)))
    }

    pub fn is_impacted(&self, function: FuncId, node: NodeId) -> bool {
        self.impacted
            .binary_search_by(|n| (n.function, n.node).cmp(&(function, node)))
            .is_ok()
    }
}

#[derive(Clone, Debug, Default)]
pub struct DciaResult {
    pub old: VersionImpact,
    pub new: VersionImpact,
}

/// The system dependence graphs of both versions.
pub struct DependenceGraphs {
    pub old: Sdg,
    pub new: Sdg,
}

impl DependenceGraphs {
    /// Builds both graphs (in parallel).
    pub fn build(old: &Program, new: &Program, config: &DciaConfig) -> DependenceGraphs {
        let (old, new) = rayon::join(
            || Sdg::build(old, &config.sdg),
            || Sdg::build(new, &config.sdg),
        );
        DependenceGraphs { old, new }
    }
}

/// Runs DCIA (or SEM-DCIA, given equivalences) on both versions.
pub fn dcia(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    equivalences: &Equivalences,
    config: &DciaConfig,
) -> DciaResult {
    let graphs = DependenceGraphs::build(old, new, config);
    dcia_on_graphs(old, new, &graphs, matching, equivalences)
}

/// DCIA over dependence graphs built beforehand ([`DependenceGraphs::build`]).
pub fn dcia_on_graphs(
    old: &Program,
    new: &Program,
    graphs: &DependenceGraphs,
    matching: &VersionMatch,
    equivalences: &Equivalences,
) -> DciaResult {
    dcia_with(old, new, graphs, matching, equivalences, Explain::Chains)
}

/// [`dcia_on_graphs`] without explanations: the impacted nodes only (every chain empty,
/// no hubs), for when only what is impacted counts.
pub fn dcia_nodes_on_graphs(
    old: &Program,
    new: &Program,
    graphs: &DependenceGraphs,
    matching: &VersionMatch,
    equivalences: &Equivalences,
) -> DciaResult {
    dcia_with(old, new, graphs, matching, equivalences, Explain::Nothing)
}

/// Whether impacted nodes get their chains (and the impact its hubs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Explain {
    Chains,
    Nothing,
}

fn dcia_with(
    old: &Program,
    new: &Program,
    graphs: &DependenceGraphs,
    matching: &VersionMatch,
    equivalences: &Equivalences,
    explain_as: Explain,
) -> DciaResult {
    let changed_globals = changed_globals(old, new);
    let facts = ChangeFacts::of(old, new, matching, equivalences);
    let [mapped_old, mapped_new] = &facts.mapped;
    let [continuation_old, continuation_new] = &facts.continuation;
    let [moved_old, moved_new] = &facts.moved;
    let [paired_old, paired_new] = &facts.paired;
    let [same_traps_old, same_traps_new] = &facts.same_traps;
    let (mut old_impact, mut new_impact) = rayon::join(
        || {
            one_version(
                old,
                &graphs.old,
                Side::Old,
                [mapped_old, continuation_old],
                &changed_globals.0,
                moved_old,
                paired_old,
                same_traps_old,
                equivalences,
                explain_as,
            )
        },
        || {
            one_version(
                new,
                &graphs.new,
                Side::New,
                [mapped_new, continuation_new],
                &changed_globals.1,
                moved_new,
                paired_new,
                same_traps_new,
                equivalences,
                explain_as,
            )
        },
    );
    pair_impacts(old, new, matching, &mut old_impact, &mut new_impact);
    for m in &matching.functions {
        old_impact.changed_lines.extend(m.old_lines.iter().cloned());
        new_impact.changed_lines.extend(m.new_lines.iter().cloned());
    }
    for impact in [&mut old_impact, &mut new_impact] {
        impact.changed_lines.sort();
        impact.changed_lines.dedup();
    }
    DciaResult {
        old: old_impact,
        new: new_impact,
    }
}

/// What DCIA's sources are chosen from, per version (old, new): the mapped nodes, the
/// unmapped nodes that compute what their partner computes, the nodes whose execution
/// count may change, the changed calls paired with a partner, and the changed nodes that
/// trap on the same divisors as their partners.
struct ChangeFacts {
    mapped: [NodeSet; 2],
    continuation: [NodeSet; 2],
    moved: [Vec<(FuncId, NodeId, NodeId)>; 2],
    paired: [Vec<crate::change_control::PairedCall>; 2],
    same_traps: [NodeSet; 2],
}

impl ChangeFacts {
    fn of(
        old: &Program,
        new: &Program,
        matching: &VersionMatch,
        equivalences: &Equivalences,
    ) -> ChangeFacts {
        let mut mapped_old: FxHashSet<(FuncId, NodeId)> = FxHashSet::default();
        let mut mapped_new: FxHashSet<(FuncId, NodeId)> = FxHashSet::default();
        // Unmapped nodes that compute what their partner computes (the node before an
        // inserted statement): what they write is no change, only where control goes next
        // (`change_control` makes that a source).
        let mut continuation_old: FxHashSet<(FuncId, NodeId)> = FxHashSet::default();
        let mut continuation_new: FxHashSet<(FuncId, NodeId)> = FxHashSet::default();
        for m in &matching.functions {
            if let (Some(o), Some(n)) = (m.old, m.new) {
                for &(a, b) in &m.node_map {
                    mapped_old.insert((o, a));
                    mapped_new.insert((n, b));
                }
                for &(a, b) in &m.continuation {
                    continuation_old.insert((o, a));
                    continuation_new.insert((n, b));
                }
            }
        }
        let [moved_old, moved_new] = crate::change_control::execution_count_changes(
            old,
            new,
            matching,
            &equivalences.regions,
        );
        let [mut paired_old, mut paired_new] =
            crate::change_control::paired_calls(old, new, matching);
        for (list, extra) in [&mut paired_old, &mut paired_new]
            .into_iter()
            .zip(&equivalences.paired_calls)
        {
            for call in extra {
                if !list
                    .iter()
                    .any(|c| (c.function, c.node) == (call.function, call.node))
                {
                    list.push(call.clone());
                }
            }
            list.sort_unstable();
        }
        let (same_traps_old, same_traps_new) = same_traps(old, new, matching);
        ChangeFacts {
            mapped: [mapped_old, mapped_new],
            continuation: [continuation_old, continuation_new],
            moved: [moved_old, moved_new],
            paired: [paired_old, paired_new],
            same_traps: [same_traps_old, same_traps_new],
        }
    }
}

/// Per version (old, new), the functions with a statement DCIA may take as a source of
/// impact under `equivalences`, as [`dcia`] chooses them but without a dependence graph:
/// a node whose execution count may change, and a changed node (reachable, not the
/// continuation of its partner, not a library call that stops as before) that is not
/// proved to do what its partner did, or is a paired call with a changed argument not
/// proved or another destination, or may trap on other divisors than its partner.
/// Changed initial values are not counted. A changed pair with no such function among
/// those it may call (and itself) computes what it did (SEM-DCIA's empty impact).
/// `stops_observed`: a library call that never returns but is passed other arguments
/// (an `assert`'s line number) is a source too, as what it prints is an output.
pub fn functions_with_sources(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    equivalences: &Equivalences,
    stops_observed: bool,
) -> [FxHashSet<FuncId>; 2] {
    let facts = ChangeFacts::of(old, new, matching, equivalences);
    let mut out = [FxHashSet::default(), FxHashSet::default()];
    for (s, (program, side)) in [(old, Side::Old), (new, Side::New)].into_iter().enumerate() {
        let paired: FxHashMap<(FuncId, NodeId), &crate::change_control::PairedCall> = facts.paired
            [s]
            .iter()
            .map(|c| ((c.function, c.node), c))
            .collect();
        let mut reachable: FxHashMap<FuncId, Vec<bool>> = FxHashMap::default();
        let mut reached = |f: FuncId, n: NodeId| {
            reachable.entry(f).or_insert_with(|| {
                ripple_dataflow::noreturn::reachable_nodes(&program.functions[f])
            })[n.index()]
        };
        for &(f, n, _) in &facts.moved[s] {
            if reached(f, n) {
                out[s].insert(f);
            }
        }
        for (f, function) in program.functions.iter_enumerated() {
            if !function.is_defined() || out[s].contains(&f) {
                continue;
            }
            let source = function.nodes.ids().any(|n| {
                if facts.mapped[s].contains(&(f, n))
                    || !reached(f, n)
                    || facts.continuation[s].contains(&(f, n))
                    || (!stops_observed && paired.get(&(f, n)).is_some_and(|c| c.never_returns))
                    || equivalences.statements.contains(&(side, f, n))
                {
                    return false;
                }
                let traps = !facts.same_traps[s].contains(&(f, n))
                    && ripple_dataflow::noreturn::trap_reads(program, &function.nodes[n]).is_some();
                let parts = match paired
                    .get(&(f, n))
                    .and_then(|c| Some((c, c.changed_args.as_ref()?)))
                {
                    Some((call, args)) => {
                        call.changed_dst
                            || args.iter().enumerate().any(|(i, &changed)| {
                                changed && !equivalences.arguments.contains(&(side, f, n, i as u32))
                            })
                    }
                    None => true,
                };
                traps || parts
            });
            if source {
                out[s].insert(f);
            }
        }
    }
    out
}

/// 000 Definition 3.1 compares the two nodes of a mapped pair: a pair impacted in one
/// version is impacted in both. Each version gets the partners of the other's impacted
/// mapped nodes (the uses of a variable whose deleted assignment the old version's slice
/// found, say), explained by the other version's chain.
fn pair_impacts(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    old_impact: &mut VersionImpact,
    new_impact: &mut VersionImpact,
) {
    let mut to_new: FxHashMap<(FuncId, NodeId), (FuncId, NodeId)> = FxHashMap::default();
    for m in &matching.functions {
        if let (Some(o), Some(n)) = (m.old, m.new) {
            for &(a, b) in &m.node_map {
                to_new.insert((o, a), (n, b));
            }
        }
    }
    let to_old: FxHashMap<(FuncId, NodeId), (FuncId, NodeId)> =
        to_new.iter().map(|(&a, &b)| (b, a)).collect();
    let carried = |from: &VersionImpact,
                   into: &VersionImpact,
                   map: &FxHashMap<(FuncId, NodeId), (FuncId, NodeId)>,
                   from_program: &Program,
                   side: Side|
     -> Vec<ImpactedNode> {
        from.impacted
            .iter()
            .filter_map(|node| {
                let &(f, n) = map.get(&(node.function, node.node))?;
                if into.is_impacted(f, n) {
                    return None;
                }
                let span = from_program.functions[node.function].nodes[node.node].span;
                let mut chain = vec![ChainStep {
                    text: format!(
                        "paired with {} line {}, impacted there",
                        side.other().name(),
                        span.start_line
                    ),
                    span,
                    rule: Some("MAPPED"),
                }];
                chain.extend(node.chain.iter().cloned());
                Some(ImpactedNode {
                    side,
                    function: f,
                    node: n,
                    chain,
                })
            })
            .collect()
    };
    let into_new = carried(old_impact, new_impact, &to_new, old, Side::New);
    let into_old = carried(new_impact, old_impact, &to_old, new, Side::Old);
    for (impact, extra) in [(new_impact, into_new), (old_impact, into_old)] {
        impact.impacted.extend(extra);
        impact.impacted.sort_by_key(|n| (n.function, n.node));
        impact.impacted.dedup_by_key(|n| (n.function, n.node));
    }
}

/// Globals whose type, constness or initial value differs, or that exist in one version
/// only (statics paired within their unit even when the file was renamed, addresses in
/// initializers compared by what they name): (old ids, new ids). Not string literals:
/// only the code and the initializers naming one reach it, and those compare it by its
/// contents (a literal added is a change of the statement that names it).
pub(crate) fn changed_globals(
    old: &Program,
    new: &Program,
) -> (Vec<ripple_ir::GlobalId>, Vec<ripple_ir::GlobalId>) {
    let mut out_old = Vec::new();
    let mut out_new = Vec::new();
    let literal = |p: &Program, g: Option<ripple_ir::GlobalId>| {
        g.is_some_and(|g| p.globals[g].key.starts_with(".str"))
    };
    for m in ripple_versions::match_all_globals(old, new) {
        if literal(old, m.old) || literal(new, m.new) {
            continue;
        }
        if m.status != ripple_versions::GlobalStatus::Unchanged {
            out_old.extend(m.old);
            out_new.extend(m.new);
        }
    }
    (out_old, out_new)
}

fn rule_name(kind: EdgeKind, to: VertexKind) -> &'static str {
    match kind {
        EdgeKind::Data => match to {
            VertexKind::FormalOut(_) => "IMPACT-SUMMARY",
            _ => "data",
        },
        EdgeKind::Control => "control",
        EdgeKind::Call => "call",
        EdgeKind::ParamIn => "CALL-IMPACT",
        EdgeKind::ParamOut => "RETURN-IMPACT",
        EdgeKind::Summary => "SUMMARY-IMPACT",
    }
}

type NodeSet = FxHashSet<(FuncId, NodeId)>;

/// Per version (old, new): the changed nodes that may trap only by divisors that the
/// other version's function also divides by. Whether such a node traps is decided by
/// what its divisors read, which a changed definition reaching them carries, and by what
/// governs it, which a changed branch carries: the node itself is no source of it (a
/// changed dividend does not change whether a division traps).
fn same_traps(old: &Program, new: &Program, matching: &VersionMatch) -> (NodeSet, NodeSet) {
    use ripple_dataflow::noreturn::divisor_texts;
    let mut out = (NodeSet::default(), NodeSet::default());
    let divisors = |program: &Program, f: FuncId, nodes: &[NodeId]| -> Vec<(NodeId, Vec<String>)> {
        let function = &program.functions[f];
        nodes
            .iter()
            .map(|&n| (n, divisor_texts(program, function, &function.nodes[n])))
            .filter(|(_, d)| !d.is_empty())
            .collect()
    };
    for m in &matching.functions {
        let (Some(o), Some(n)) = (m.old, m.new) else {
            continue;
        };
        if m.changed_old.is_empty() && m.changed_new.is_empty() {
            continue;
        }
        let old_all: Vec<NodeId> = old.functions[o].nodes.ids().collect();
        let new_all: Vec<NodeId> = new.functions[n].nodes.ids().collect();
        let all_of = |list: Vec<(NodeId, Vec<String>)>| -> FxHashSet<String> {
            list.into_iter().flat_map(|(_, d)| d).collect()
        };
        let in_old = all_of(divisors(old, o, &old_all));
        let in_new = all_of(divisors(new, n, &new_all));
        for (node, d) in divisors(old, o, &m.changed_old) {
            if d.iter().all(|t| in_new.contains(t)) {
                out.0.insert((o, node));
            }
        }
        for (node, d) in divisors(new, n, &m.changed_new) {
            if d.iter().all(|t| in_old.contains(t)) {
                out.1.insert((n, node));
            }
        }
    }
    out
}

/// Dependence edges a traversal does not follow (from, to).
type BlockedEdges = FxHashSet<(VertexId, VertexId)>;
/// Dependences a traversal follows besides the graph's, per vertex.
type ExtraEdges = FxHashMap<VertexId, Vec<VertexId>>;

/// The writes of functions proved equivalent as a whole into memory kept
/// flow-insensitive in the function (its vertex of a region, "any write to any read"),
/// and what replaces them: edges (blocked) and, per writing vertex, the reads of that
/// vertex in the same function that may run after it in the same run. Such a function
/// leaves every output as the old one did (SUMMARYEQUIV), so its writes are seen
/// elsewhere only through its outputs, and an impact of its inputs crosses its calls by
/// summary edges; inside it, a read before the write (a function's first `strm->state`
/// after its last `state->x = ...`) sees what the run began with. Not for functions with
/// a havoc (a `setjmp` may return again after later writes), nor for regions kept
/// context-insensitive: their one vertex for the whole program has no summary edges, so
/// an impact of the function's inputs written there would be lost.
fn proved_writes(
    program: &Program,
    sdg: &Sdg,
    side: Side,
    equivalences: &Equivalences,
) -> (BlockedEdges, ExtraEdges) {
    let mut blocked = FxHashSet::default();
    let mut extra: FxHashMap<VertexId, Vec<VertexId>> = FxHashMap::default();
    let proved: FxHashSet<FuncId> = equivalences
        .functions
        .iter()
        .filter(|&&(s, f)| {
            s == side
                && !program.functions[f]
                    .nodes
                    .iter()
                    .any(|n| matches!(n.kind, NodeKind::Havoc { .. }))
        })
        .map(|&(_, f)| f)
        .collect();
    if proved.is_empty() {
        return (blocked, extra);
    }
    for index in 0..sdg.vertex_count() {
        let v = VertexId(index as u32);
        let f = sdg.function_of[index];
        if !proved.contains(&f)
            || !matches!(
                sdg.kinds[index],
                VertexKind::Node(_) | VertexKind::ActualOut { .. }
            )
        {
            continue;
        }
        let Some(writer) = sdg.node_of(program, v) else {
            continue;
        };
        let mut later: Option<Vec<bool>> = None;
        for &(m, kind) in sdg.succs(v) {
            if kind != EdgeKind::Data || !sdg.is_unordered_memory(m) {
                continue;
            }
            let later = later.get_or_insert_with(|| runs_after(&program.functions[f], writer));
            let readers: Vec<VertexId> = sdg
                .succs(m)
                .iter()
                .filter(|&&(r, _)| {
                    sdg.function_of[r.index()] == f
                        && sdg.node_of(program, r).is_none_or(|n| later[n.index()])
                })
                .map(|&(r, _)| r)
                .collect();
            blocked.insert((v, m));
            extra.entry(v).or_default().extend(readers);
        }
    }
    for readers in extra.values_mut() {
        readers.sort_unstable();
        readers.dedup();
    }
    (blocked, extra)
}

/// The nodes of `function` that may run after `n` in the same run (`n` itself only in a
/// loop).
fn runs_after(function: &ripple_ir::Function, n: NodeId) -> Vec<bool> {
    let mut seen = vec![false; function.nodes.len()];
    let mut stack: Vec<NodeId> = function.nodes[n].succs.to_vec();
    while let Some(m) = stack.pop() {
        if !std::mem::replace(&mut seen[m.index()], true) {
            stack.extend(function.nodes[m].succs.iter().copied());
        }
    }
    seen
}

#[allow(clippy::too_many_arguments)] // One version's inputs, each its own kind of seed.
fn one_version(
    program: &Program,
    sdg: &Sdg,
    side: Side,
    [mapped, continuation]: [&FxHashSet<(FuncId, NodeId)>; 2],
    changed_globals: &[ripple_ir::GlobalId],
    moved: &[(FuncId, NodeId, NodeId)],
    paired_calls: &[crate::change_control::PairedCall],
    same_traps: &NodeSet,
    equivalences: &Equivalences,
    explain_as: Explain,
) -> VersionImpact {
    // Changed calls with a partner at the same place (crate::change_control): the callee
    // runs as often as before and reads and writes memory as before; only the arguments
    // that differ and the destination, if it does, are changes: their vertices are the
    // sources, not the call's.
    let paired: FxHashMap<(FuncId, NodeId), &crate::change_control::PairedCall> = paired_calls
        .iter()
        .map(|c| ((c.function, c.node), c))
        .collect();
    let paired_sources = |f: FuncId, n: NodeId| -> Option<Vec<VertexId>> {
        let call = paired.get(&(f, n))?;
        let args = call.changed_args.as_ref()?;
        let node_v = sdg.node_vertex(f, n)?;
        let mut out = Vec::new();
        for (i, &changed) in args.iter().enumerate() {
            if !changed || equivalences.arguments.contains(&(side, f, n, i as u32)) {
                continue;
            }
            let var = IfaceVar::Param(u32::try_from(i).ok()?);
            let actual = sdg.succs(node_v).iter().find_map(|&(v, _)| {
                matches!(sdg.kinds[v.index()], VertexKind::ActualIn { call, var: x } if call == n && x == var)
                    .then_some(v)
            })?;
            out.push(actual);
        }
        if call.changed_dst {
            let ret = sdg.succs(node_v).iter().find_map(|&(v, _)| {
                matches!(
                    sdg.kinds[v.index()],
                    VertexKind::ActualOut { call, var: IfaceVar::Return } if call == n
                )
                .then_some(v)
            })?;
            out.push(ret);
        }
        Some(out)
    };
    let mut sources = Vec::new();
    // Nodes whose execution count may change (crate::change_control), by vertex: the
    // line of the unmapped node they depend on.
    let mut moved_cause: FxHashMap<VertexId, (u32, bool)> = FxHashMap::default();
    // A node no execution reaches (after a call that never returns) is no source of
    // impact, whatever changed in it.
    let mut reachable: FxHashMap<FuncId, Vec<bool>> = FxHashMap::default();
    let mut reached = |f: FuncId, n: NodeId| {
        reachable
            .entry(f)
            .or_insert_with(|| ripple_dataflow::noreturn::reachable_nodes(&program.functions[f]))
            [n.index()]
    };
    for &(f, n, cause) in moved {
        if !reached(f, n) {
            continue;
        }
        let at = (
            program.functions[f].nodes[cause].span.start_line,
            continuation.contains(&(f, cause)),
        );
        if let Some(v) = sdg.node_vertex(f, n) {
            sources.push(v);
            moved_cause.insert(v, at);
        }
        if let Some(v) = sdg.trap_vertex(f, n) {
            sources.push(v);
            moved_cause.insert(v, at);
        }
    }
    let mut changed = Vec::new();
    for (f, function) in program.functions.iter_enumerated() {
        if !function.is_defined() {
            continue;
        }
        for n in function.nodes.ids() {
            if !mapped.contains(&(f, n)) {
                changed.push((f, n));
                // A library call that never returns, as before but for its arguments,
                // changes nothing the program runs afterwards.
                let stops_alike = paired.get(&(f, n)).is_some_and(|c| c.never_returns);
                if reached(f, n)
                    && !stops_alike
                    && !continuation.contains(&(f, n))
                    && !equivalences.statements.contains(&(side, f, n))
                {
                    match paired_sources(f, n) {
                        Some(parts) => sources.extend(parts),
                        None => sources.extend(sdg.node_vertex(f, n)),
                    }
                    // Whether it traps may differ too, unless the other version divides
                    // by the same divisors.
                    if !same_traps.contains(&(f, n)) {
                        sources.extend(sdg.trap_vertex(f, n));
                    }
                }
            }
        }
    }
    // Changed initial values enter through the memory inputs of root functions.
    for &g in changed_globals {
        let Some(part) = sdg
            .points_to
            .part_of(ripple_dataflow::pointsto::Object::Global(g))
        else {
            continue;
        };
        if sdg.global_regions.contains(part.index()) {
            // A context-insensitive region's initial value is its program-wide vertex's.
            sources.extend(sdg.region_vertex(part));
            continue;
        }
        for (f, function) in program.functions.iter_enumerated() {
            if function.is_defined() && !sdg.called[f.index()] {
                sources.extend(sdg.formal_in(f, IfaceVar::Mem(part)));
            }
        }
    }
    sources.sort_unstable();
    sources.dedup();
    let var_of = |v: VertexId| match sdg.kinds[v.index()] {
        VertexKind::FormalIn(x)
        | VertexKind::FormalOut(x)
        | VertexKind::ActualIn { var: x, .. }
        | VertexKind::ActualOut { var: x, .. } => Some(x),
        _ => None,
    };
    let callees_of = |v: VertexId| match sdg.kinds[v.index()] {
        VertexKind::ActualIn { call, .. } => sdg.call_targets(sdg.function_of[v.index()], call),
        _ => Vec::new(),
    };
    let (blocked, extra) = proved_writes(program, sdg, side, equivalences);
    let allow = |from: VertexId, to: VertexId, kind: EdgeKind| -> bool {
        if blocked.contains(&(from, to)) {
            return false;
        }
        match kind {
            // CALL-IMPACT needs not PREEQUIV(x, f).
            EdgeKind::ParamIn => var_of(to).is_none_or(|x| {
                !equivalences
                    .pre_equiv
                    .contains(&(side, sdg.function_of[to.index()], x))
            }),
            // IMPACT-SUMMARY / RETURN-IMPACT need not SUMMARYEQUIV(y, f).
            EdgeKind::ParamOut => var_of(from).is_none_or(|y| {
                !equivalences
                    .summary_equiv
                    .contains(&(side, sdg.function_of[from.index()], y))
            }),
            // The contents of a region read where its value is known in every run.
            EdgeKind::Data if !equivalences.known_reads.is_empty() => {
                let part = match sdg.kinds[from.index()] {
                    VertexKind::FormalIn(IfaceVar::Mem(p))
                    | VertexKind::ActualOut {
                        var: IfaceVar::Mem(p),
                        ..
                    }
                    | VertexKind::Memory(p)
                    | VertexKind::Region(p) => Some(p),
                    _ => None,
                };
                let node = match sdg.kinds[to.index()] {
                    VertexKind::Node(n) | VertexKind::ActualIn { call: n, .. } => Some(n),
                    _ => None,
                };
                match (part, node) {
                    (Some(p), Some(n)) => !equivalences.known_reads.contains(&(
                        side,
                        sdg.function_of[to.index()],
                        n,
                        p,
                    )),
                    _ => true,
                }
            }
            // SUMMARY-IMPACT needs not (PREEQUIV(x, f) and SUMMARYEQUIV(y, f)), for
            // some target f of the call.
            EdgeKind::Summary => match (var_of(from), var_of(to)) {
                (Some(x), Some(y)) if !equivalences.is_empty() => {
                    let targets = callees_of(from);
                    targets.is_empty()
                        || !targets.iter().all(|&g| {
                            equivalences.pre_equiv.contains(&(side, g, x))
                                && equivalences.summary_equiv.contains(&(side, g, y))
                        })
                }
                _ => true,
            },
            _ => true,
        }
    };
    let traversal = traverse_forward_with(sdg, &sources, &allow, &extra);
    let mut impacted = Vec::new();
    let mut done: FxHashMap<(FuncId, NodeId), (usize, usize)> = FxHashMap::default();
    let mut explained_by: FxHashMap<(FuncId, NodeId), VertexId> = FxHashMap::default();
    let mut inputs = Vec::new();
    let mut summaries = Vec::new();
    for v in traversal.vertices() {
        let f = sdg.function_of[v.index()];
        let node = match sdg.kinds[v.index()] {
            VertexKind::Node(n) => Some(n),
            // A call reads its arguments.
            VertexKind::ActualIn {
                call,
                var: IfaceVar::Param(_),
                ..
            } => Some(call),
            // A call completes only if its callee returns: when that may differ, so may
            // what the call reads and writes (in the interpreter, a call that never
            // returns is never observed).
            VertexKind::ActualOut {
                call,
                var: IfaceVar::Stop,
            } => Some(call),
            VertexKind::FormalIn(x) => {
                inputs.push((f, x));
                // The entry binds the parameters: an impacted parameter is read there.
                matches!(x, IfaceVar::Param(_)).then_some(program.functions[f].entry)
            }
            VertexKind::FormalOut(y) => {
                if traversal.in_phase1[v.index()] {
                    summaries.push((f, y));
                }
                None
            }
            _ => None,
        };
        let Some(node) = node else { continue };
        if matches!(program.functions[f].nodes[node].kind, NodeKind::Entry)
            && !matches!(
                sdg.kinds[v.index()],
                VertexKind::Node(_) | VertexKind::FormalIn(IfaceVar::Param(_))
            )
        {
            continue;
        }
        // A node reached through several of its vertices is explained by the shortest
        // chain (its distance).
        let depth = match explain_as {
            Explain::Chains => traversal.chain(v).len(),
            Explain::Nothing => 0,
        };
        match done.get(&(f, node)) {
            Some(&(_, best)) if best <= depth => {}
            _ => {
                let chain = match explain_as {
                    Explain::Chains => explain(program, sdg, &traversal, v, &moved_cause),
                    Explain::Nothing => Vec::new(),
                };
                let entry = ImpactedNode {
                    side,
                    function: f,
                    node,
                    chain,
                };
                match done.get(&(f, node)) {
                    Some(&(at, _)) => impacted[at] = entry,
                    None => impacted.push(entry),
                }
                let at = done
                    .get(&(f, node))
                    .map_or(impacted.len() - 1, |&(at, _)| at);
                done.insert((f, node), (at, depth));
                explained_by.insert((f, node), v);
            }
        }
    }
    impacted.sort_by_key(|n| (n.function, n.node));
    let explained: Vec<(VertexId, FuncId, NodeId)> = impacted
        .iter()
        .map(|n| (explained_by[&(n.function, n.node)], n.function, n.node))
        .collect();
    let hubs = match explain_as {
        Explain::Chains => crate::hubs::hubs(program, sdg, &traversal, &sources, &explained),
        Explain::Nothing => Vec::new(),
    };
    changed.sort_unstable();
    inputs.sort_unstable();
    inputs.dedup();
    summaries.sort_unstable();
    summaries.dedup();
    let mut changed_globals = changed_globals.to_vec();
    changed_globals.sort_unstable();
    VersionImpact {
        changed,
        changed_lines: Vec::new(),
        changed_globals,
        impacted,
        impacted_inputs: inputs,
        impacted_summaries: summaries,
        sdg_vertices: sdg.vertex_count(),
        sdg_edges: sdg.edge_count(),
        global_regions: sdg.global_regions.count(),
        points_to_fallback: sdg.points_to.fallback,
        fields_merged: sdg
            .points_to
            .fields_merged
            .iter()
            .map(|&o| ripple_dataflow::pointsto::object_name(program, o))
            .collect(),
        hubs,
    }
}

/// Writes through a pointer that may address this many objects or more are named as
/// such in explanations: the points-to analysis cannot tell which one is written.
const WIDE_WRITE: usize = 8;

/// For a memory step reached from the node that writes it, when that node may write at
/// least [`WIDE_WRITE`] objects: how many, where the node is (`file:line`), and how
/// many objects the step's region holds, so that a reader sees the chain goes through
/// an imprecise pointer.
pub(crate) fn wide_write(
    program: &Program,
    sdg: &Sdg,
    writer: VertexId,
    memory: VertexId,
) -> Option<(usize, String, usize)> {
    let part = match sdg.kinds[memory.index()] {
        VertexKind::Memory(p)
        | VertexKind::Region(p)
        | VertexKind::FormalIn(IfaceVar::Mem(p))
        | VertexKind::FormalOut(IfaceVar::Mem(p))
        | VertexKind::ActualIn {
            var: IfaceVar::Mem(p),
            ..
        }
        | VertexKind::ActualOut {
            var: IfaceVar::Mem(p),
            ..
        } => p,
        _ => return None,
    };
    let VertexKind::Node(n) = sdg.kinds[writer.index()] else {
        return None;
    };
    let f = sdg.function_of[writer.index()];
    let pts = &sdg.points_to;
    let mut parts: Vec<_> = pts
        .accesses(f, n)
        .iter()
        .filter(|a| a.kind == ripple_dataflow::pointsto::AccessKind::Write)
        .map(|a| a.part)
        .collect();
    parts.dedup();
    let objects: usize = parts
        .iter()
        .map(|p| pts.part_objects[p.index()].len())
        .sum();
    (objects >= WIDE_WRITE).then(|| {
        let span = sdg.span(program, writer);
        (
            objects,
            format!("{}:{}", program.file_path(span.file), span.start_line),
            pts.part_objects[part.index()].len(),
        )
    })
}

/// The chain of dependences from `v` back to its source, one step per distinct text.
fn explain(
    program: &Program,
    sdg: &Sdg,
    traversal: &Traversal,
    v: VertexId,
    moved_cause: &FxHashMap<VertexId, (u32, bool)>,
) -> Vec<ChainStep> {
    let raw = traversal.chain(v);
    let mut steps: Vec<ChainStep> = Vec::new();
    for (i, &(vertex, kind)) in raw.iter().enumerate() {
        let is_source = i + 1 == raw.len();
        let mut text = sdg.describe(program, vertex);
        if let Some(&(writer, _)) = raw.get(i + 1) {
            // (A region that holds them all already says how many it holds.)
            if let Some((objects, at, held)) = wide_write(program, sdg, writer, vertex) {
                if objects > held {
                    text.push_str(&format!(", one of {objects} objects {at} may write"));
                }
            }
        }
        if is_source {
            match moved_cause.get(&vertex) {
                Some((line, false)) => text.push_str(&format!(
                    " may run a different number of times (line {line} exists in one version only)"
                )),
                Some((line, true)) => text.push_str(&format!(
                    " may run a different number of times (what runs after line {line} differs \
                     between the versions)"
                )),
                None => text.push_str(" changed"),
            }
        }
        let rule = if is_source {
            None
        } else {
            Some(rule_name(kind, sdg.kinds[vertex.index()]))
        };
        let span = sdg.span(program, vertex);
        // Dispatch ports are an artefact of the graph.
        if matches!(sdg.kinds[vertex.index()], VertexKind::Dispatch { .. }) && !is_source {
            continue;
        }
        if let Some(last) = steps.last_mut() {
            if last.text == text {
                continue;
            }
            // A node and its own call argument on the same line read as one step.
            if is_source && last.span.file == span.file && last.span.start_line == span.start_line {
                last.text = text;
                last.rule = None;
                continue;
            }
        }
        steps.push(ChainStep { text, span, rule });
    }
    steps
}
