//! Equivalences inside changed functions for SEM-DCIA (Gyori, Lahiri and Partush, 000
//! section 4): changed statements that provably do what the statements they replace did,
//! so that they are no source of impact.
//!
//! Two kinds, both proved by the solver over a common state of the two versions
//! (`ripple_symex::straightline`), never assumed:
//! - *Statements*: the changed acyclic code at the same place of both versions
//!   ([`crate::change_control::PairedRegion`]: entered from the same mapped statement,
//!   left towards partner statements) that leaves the same way, makes the same calls
//!   with the same arguments, ends in the same registers and memory, and stops the
//!   program on the same states: an identity such as `x ^ 0`, a reassociation, an
//!   extracted temporary, a dead store, `a < b` as `b > a`, `c ? 1 : 0` as `!!c`, an
//!   if-else restructured, a helper extracted (a small call-free function is inlined
//!   in the proof when the calls do not pair up; a function of one version that only
//!   such proofs run is then no source either: what it does was compared).
//! - *Calls*: in changed code that is not equivalent as a whole, a call that runs exactly
//!   when its partner runs (the same function, in the same order, on every path, after
//!   code that stops the program on the same states) is a [`PairedCall`]: only its
//!   arguments that may differ, and its result if stored elsewhere, are sources. An
//!   argument written differently but proved to have the old value is reported.
//!
//! Globals the changed code reads are known to the solver where they still hold their
//! initial value in every run, the same in both versions (`ripple_dataflow::
//! initial_values`): `print_header(line_delim)` then passes what `print_header('\n')`
//! did (000 Fig. 1, PREEQUIV of the argument), and those reads are not impacted through
//! the global ([`StatementEquivalences::known_reads`]).
//!
//! Soundness: a run's nodes are no source, but they stay in the dependence graph, so an
//! impact that reaches their inputs from elsewhere still flows through them; and from
//! equal inputs they produce equal outputs, so the mapped nodes after them read what
//! they read before.

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::{InitialValues, PartId, PointsTo};
use ripple_ir::{BinOp, ExprKind, FuncId, GlobalId, NodeId, NodeKind, Program, Span, VarId};
use ripple_symex::straightline::{Comparison, KnownGlobal, Names, Proof, Region};
use ripple_symex::Budget;
use ripple_versions::VersionMatch;

use crate::change_control::PairedCall;
use crate::dcia::{Equivalences, Side};

/// A change proved to do what the code it replaces did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvedEquivalence {
    /// The old and the new function.
    pub functions: (FuncId, FuncId),
    /// The statements (or, for an argument, the call) of each version.
    pub old: Vec<NodeId>,
    pub new: Vec<NodeId>,
    /// For an argument of a call: its index (from 0).
    pub argument: Option<usize>,
    /// The source spans of the old and new statements, in order.
    pub old_spans: Vec<Span>,
    pub new_spans: Vec<Span>,
}

/// What the inference found: the equivalences proved, and how many changes were checked
/// without a proof (different, or undecided within the budget).
#[derive(Clone, Debug, Default)]
pub struct StatementEquivalences {
    pub proved: Vec<ProvedEquivalence>,
    pub not_proved: usize,
    /// Changed regions past [`MAX_REGIONS`], left as sources of impact.
    pub not_compared: usize,
    /// Per version (old, new): changed calls inside changed code that run exactly when
    /// their partners do, with which arguments differ ([`PairedCall`]).
    pub paired_calls: [Vec<PairedCall>; 2],
    /// Per version: statements of changed code that is not equivalent as a whole which
    /// are no source of impact all the same (`straightline::unchanged_nodes`: what they
    /// write is the same after the change).
    pub unchanged: [Vec<(FuncId, NodeId)>; 2],
    /// Per version: nodes of changed code that read a global (its region) where it
    /// holds its initial value, the same in both versions, in every run
    /// (`ripple_dataflow::initial_values`): what they read of it is not impacted.
    pub known_reads: [Vec<(FuncId, NodeId, PartId)>; 2],
}

impl StatementEquivalences {
    /// Adds the proved equivalences to the inputs of SEM-DCIA.
    pub fn add_to(&self, equivalences: &mut Equivalences) {
        for (side, list) in self.paired_calls.iter().enumerate() {
            equivalences.paired_calls[side].extend(list.iter().cloned());
        }
        for (side, list) in [Side::Old, Side::New].into_iter().zip(&self.unchanged) {
            for &(f, n) in list {
                equivalences.statements.insert((side, f, n));
            }
        }
        for (side, list) in [Side::Old, Side::New].into_iter().zip(&self.known_reads) {
            for &(f, n, part) in list {
                equivalences.known_reads.insert((side, f, n, part));
            }
        }
        for p in &self.proved {
            match p.argument {
                None => {
                    let old = p.old.iter().map(|&n| (Side::Old, p.functions.0, n));
                    let new = p.new.iter().map(|&n| (Side::New, p.functions.1, n));
                    for node in old.chain(new) {
                        equivalences.statements.insert(node);
                        equivalences.regions.insert(node);
                    }
                }
                Some(i) => {
                    for &n in &p.old {
                        equivalences
                            .arguments
                            .insert((Side::Old, p.functions.0, n, i as u32));
                    }
                    for &n in &p.new {
                        equivalences
                            .arguments
                            .insert((Side::New, p.functions.1, n, i as u32));
                    }
                }
            }
        }
    }
}

/// At most this many changed regions are compared in one run (in the order of the
/// version matching); the others stay sources of impact, and the report says how many.
pub const MAX_REGIONS: usize = 2_000;

/// The solver work all region comparisons of one pair of versions may spend (that of
/// 5 seconds of budget: ten comparisons that run out of theirs); the regions past it
/// are left as sources of impact.
pub const STAGE_WORK: std::time::Duration = std::time::Duration::from_secs(5);

/// The solver's budget for one comparison.
pub fn default_budget() -> Budget {
    Budget {
        query: std::time::Duration::from_millis(500),
        total: std::time::Duration::from_millis(500),
        // The work budget decides; the clock only guards against a runaway query.
        cutoff: Some(std::time::Duration::from_secs(20)),
    }
}

/// The equivalences of the changed straight-line code and call arguments of two versions.
/// With the points-to results of both (`points_to`), globals the changed code reads that
/// still hold their initial value there in every run are known to the solver
/// (`ripple_dataflow::initial_values`).
pub fn statement_equivalences(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    points_to: Option<[&PointsTo; 2]>,
    budget: Budget,
) -> StatementEquivalences {
    let mut out = StatementEquivalences::default();
    let spans = |program: &Program, f: FuncId, nodes: &[NodeId]| -> Vec<Span> {
        nodes
            .iter()
            .map(|&n| program.functions[f].nodes[n].span)
            .collect()
    };
    // Partners share names: the old version's keys.
    let function_partner: FxHashMap<FuncId, FuncId> = matching
        .functions
        .iter()
        .filter_map(|m| Some((m.new?, m.old?)))
        .collect();
    let global_partner: FxHashMap<ripple_ir::GlobalId, ripple_ir::GlobalId> =
        ripple_versions::match_all_globals(old, new)
            .into_iter()
            .filter_map(|m| Some((m.new?, m.old?)))
            .collect();
    let old_function = |f: FuncId| old.functions[f].key.clone();
    let old_global = |g: ripple_ir::GlobalId| old.globals[g].key.clone();
    // Unpaired names (declarations of library functions and objects) are the same
    // thing in both versions when their keys are.
    // (Only keys of old ones without a partner: a partner takes the name.)
    let paired_old: rustc_hash::FxHashSet<FuncId> = function_partner.values().copied().collect();
    let old_function_keys: rustc_hash::FxHashSet<&str> = old
        .functions
        .iter_enumerated()
        .filter(|(f, _)| !paired_old.contains(f))
        .map(|(_, f)| f.key.as_str())
        .collect();
    let paired_old_globals: rustc_hash::FxHashSet<ripple_ir::GlobalId> =
        global_partner.values().copied().collect();
    let old_global_keys: rustc_hash::FxHashSet<&str> = old
        .globals
        .iter_enumerated()
        .filter(|(g, _)| !paired_old_globals.contains(g))
        .map(|(_, g)| g.key.as_str())
        .collect();
    let new_function = |f: FuncId| match function_partner.get(&f) {
        Some(&o) => old.functions[o].key.clone(),
        None if old_function_keys.contains(new.functions[f].key.as_str()) => {
            new.functions[f].key.clone()
        }
        None => format!("new:{}", new.functions[f].key),
    };
    let new_global = |g: ripple_ir::GlobalId| match global_partner.get(&g) {
        Some(&o) => old.globals[o].key.clone(),
        None if old_global_keys.contains(new.globals[g].key.as_str()) => new.globals[g].key.clone(),
        None => format!("new:{}", new.globals[g].key),
    };
    let old_names = Names {
        function: &old_function,
        global: &old_global,
    };
    let new_names = Names {
        function: &new_function,
        global: &new_global,
    };
    let mut shared: FxHashMap<(FuncId, FuncId), SharedTemps> = FxHashMap::default();
    let mut initial =
        points_to.map(|[a, b]| [InitialValues::new(old, a), InitialValues::new(new, b)]);
    let old_partner: FxHashMap<ripple_ir::GlobalId, ripple_ir::GlobalId> =
        global_partner.iter().map(|(&n, &o)| (o, n)).collect();
    let regions = crate::change_control::paired_regions(old, new, matching);
    // Calls (caller, node, callee) that proofs of equivalent regions inlined.
    let mut inlined_sites: [Vec<(FuncId, NodeId, FuncId)>; 2] = Default::default();
    out.not_compared = regions.len().saturating_sub(MAX_REGIONS);
    // Both versions run from the same bytes: where a record's layout changed, equal
    // bytes are other members in each, and an equality proved of them says nothing of
    // the program (a region reading the member now at the old one's offset would be
    // "equivalent"). Functions naming such a record get no statement proof.
    let changed_records = crate::semdiff::layouts::changed_records(old, new);
    let records_used = [
        crate::semdiff::layouts::records_used(old, &changed_records),
        crate::semdiff::layouts::records_used(new, &changed_records),
    ];
    let start = ripple_symex::straightline::work_spent();
    let stage_work = ripple_symex::smt::work_of(STAGE_WORK);
    let compared = regions.len().min(MAX_REGIONS);
    for (k, region) in regions.into_iter().take(MAX_REGIONS).enumerate() {
        if ripple_symex::straightline::work_spent() - start > stage_work {
            out.not_compared += compared - k;
            break;
        }
        let (o, n) = region.functions;
        if !records_used[0][o.index()].is_empty() || !records_used[1][n.index()].is_empty() {
            continue;
        }
        // Volatile objects are ordinary memory to the comparison, where every access
        // is observable (a dropped store of a device register leaves the same state):
        // the regions of functions that may access one stay sources.
        if old.volatile.binary_search(&o).is_ok() || new.volatile.binary_search(&n).is_ok() {
            continue;
        }
        let [shared_old, shared_new] = shared
            .entry((o, n))
            .or_insert_with(|| shared_temps(old, new, matching, (o, n)));
        let old_region = Region {
            program: old,
            function: &old.functions[o],
            nodes: &region.old,
            start: region.old_start,
            exits: &region.old_exits,
            shared_temps: shared_old,
            names: old_names,
        };
        let new_region = Region {
            program: new,
            function: &new.functions[n],
            nodes: &region.new,
            start: region.new_start,
            exits: &region.new_exits,
            shared_temps: shared_new,
            names: new_names,
        };
        // Both regions are executed once; a region holding what is not compared (a
        // loop, an intrinsic, ...) is a source of impact as it stands.
        let mut comparison = Comparison::new(old_region, new_region);
        if let (Ok(c), Some([Some(iv_old), Some(iv_new)])) = (&mut comparison, &mut initial) {
            let reads = [
                global_reads(old, o, &region.old),
                global_reads(new, n, &region.new),
            ];
            let starts = [(o, region.old_start), (n, region.new_start)];
            let mut known = Vec::new();
            for (side, list) in reads.iter().enumerate() {
                for &(g, offset, bytes) in list {
                    // The same global in the other version, which the common state
                    // shares, must hold the same value where its region starts.
                    let (mine, theirs) = if side == 0 {
                        (
                            (&mut *iv_old, g),
                            old_partner.get(&g).map(|&h| (&mut *iv_new, h)),
                        )
                    } else {
                        (
                            (&mut *iv_new, g),
                            global_partner.get(&g).map(|&h| (&mut *iv_old, h)),
                        )
                    };
                    let Some(value) = mine.0.value_at(mine.1, offset, bytes, starts[side]) else {
                        continue;
                    };
                    if let Some((other, h)) = theirs {
                        if other.value_at(h, offset, bytes, starts[1 - side]) != Some(value) {
                            continue;
                        }
                    }
                    let name = if side == 0 {
                        old_global(g)
                    } else {
                        new_global(g)
                    };
                    known.push(KnownGlobal {
                        global: name,
                        offset,
                        bytes,
                        value,
                    });
                    let (program, f, nodes, pts) = if side == 0 {
                        (old, o, &region.old, points_to.map(|p| p[0]))
                    } else {
                        (new, n, &region.new, points_to.map(|p| p[1]))
                    };
                    if let Some(pts) = pts {
                        out.known_reads[side].extend(
                            initial_readers(program, pts, f, nodes, g)
                                .into_iter()
                                .map(|(m, part)| (f, m, part)),
                        );
                    }
                }
            }
            c.assume(&known);
        }
        let (proof, inlined) = match &comparison {
            Ok(c) => c.equivalent(budget),
            Err(reason) => (Proof::Unknown(reason), Default::default()),
        };
        if let (Ok(comparison), false) = (&comparison, proof == Proof::Equivalent) {
            if let Some([a, b]) = comparison.unchanged_nodes(budget) {
                out.unchanged[0].extend(a.into_iter().map(|x| (o, x)));
                out.unchanged[1].extend(b.into_iter().map(|y| (n, y)));
            }
            // The calls that still run as their partners do: only their arguments that
            // differ, and their results if stored elsewhere, are sources.
            for pair in comparison.paired_calls(budget) {
                let differences = ripple_versions::call_differences(
                    old,
                    new,
                    matching,
                    (o, n),
                    (pair.old, pair.new),
                );
                let (syntactic, changed_dst) = match differences {
                    Some((args, dst)) => (args, dst),
                    None => (vec![true; pair.equal_args.len()], true),
                };
                let changed_args: Vec<bool> = pair.equal_args.iter().map(|&e| !e).collect();
                for (i, (&differs, &equal)) in syntactic.iter().zip(&pair.equal_args).enumerate() {
                    if differs && equal {
                        out.proved.push(ProvedEquivalence {
                            functions: (o, n),
                            old: vec![pair.old],
                            new: vec![pair.new],
                            argument: Some(i),
                            old_spans: spans(old, o, &[pair.old]),
                            new_spans: spans(new, n, &[pair.new]),
                        });
                    }
                }
                for (side, (function, node)) in
                    [(o, pair.old), (n, pair.new)].into_iter().enumerate()
                {
                    out.paired_calls[side].push(PairedCall {
                        function,
                        node,
                        changed_args: Some(changed_args.clone()),
                        changed_dst,
                        never_returns: old.functions[o].nodes[pair.old]
                            .direct_callee()
                            .is_some_and(|g| crate::change_control::never_returns(old, g)),
                    });
                }
            }
        }
        if proof == Proof::Equivalent {
            for (side, (f, calls)) in [(o, &inlined[0]), (n, &inlined[1])].into_iter().enumerate() {
                inlined_sites[side].extend(calls.iter().map(|&(call, g)| (f, call, g)));
            }
            out.proved.push(ProvedEquivalence {
                functions: (o, n),
                old_spans: spans(old, o, &region.old),
                new_spans: spans(new, n, &region.new),
                old: region.old,
                new: region.new,
                argument: None,
            });
        } else {
            out.not_proved += 1;
        }
    }
    let partnered = [
        function_partner
            .values()
            .copied()
            .collect::<FxHashSet<FuncId>>(),
        function_partner.keys().copied().collect(),
    ];
    for (side, program) in [old, new].into_iter().enumerate() {
        for f in accounted_for(program, &inlined_sites[side], &partnered[side]) {
            let function = &program.functions[f];
            out.unchanged[side].extend(function.nodes.ids().map(|x| (f, x)));
        }
    }
    out
}

/// The functions of one version only whose every run is a call that a proof of an
/// equivalent region inlined (`sites`: caller, call, callee): what they do is part of
/// what the proof compared, so their statements are no source of impact. Not one whose
/// address is taken, nor one code outside the program may call (external linkage in a
/// program without `main`).
fn accounted_for(
    program: &Program,
    sites: &[(FuncId, NodeId, FuncId)],
    partnered: &FxHashSet<FuncId>,
) -> Vec<FuncId> {
    if sites.is_empty() {
        return Vec::new();
    }
    let inlined: FxHashSet<(FuncId, NodeId)> = sites.iter().map(|&(f, n, _)| (f, n)).collect();
    let has_main = program.defined_main().is_some();
    let taken: FxHashSet<FuncId> = ripple_graph::address_taken_functions(program)
        .into_iter()
        .collect();
    let mut out: Vec<FuncId> = sites
        .iter()
        .map(|&(_, _, g)| g)
        .filter(|g| !partnered.contains(g) && !taken.contains(g))
        .filter(|&g| {
            has_main
                || matches!(
                    program.functions[g].linkage,
                    ripple_ir::Linkage::Internal(_)
                )
        })
        .filter(|&g| program.functions[g].name != "main")
        .filter(|&g| {
            program.functions.iter_enumerated().all(|(f, function)| {
                function
                    .nodes
                    .iter_enumerated()
                    .all(|(n, node)| node.direct_callee() != Some(g) || inlined.contains(&(f, n)))
            })
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The nodes of a region that read global `g` as it was where the region starts, with
/// its region: those no call and no write of it in the region may run before. Only a
/// region holding `g` alone qualifies (under unification a region holds other objects,
/// whose values are not known).
fn initial_readers(
    program: &Program,
    pts: &PointsTo,
    f: FuncId,
    nodes: &[NodeId],
    g: GlobalId,
) -> Vec<(NodeId, PartId)> {
    let Some(part) = pts.part_of(ripple_dataflow::pointsto::Object::Global(g)) else {
        return Vec::new();
    };
    if pts.part_objects[part.index()].len() != 1 {
        return Vec::new();
    }
    let function = &program.functions[f];
    let in_region: rustc_hash::FxHashSet<NodeId> = nodes.iter().copied().collect();
    let reads = |n: NodeId| {
        pts.accesses(f, n)
            .iter()
            .any(|a| a.part == part && a.kind == ripple_dataflow::pointsto::AccessKind::Read)
    };
    let spoils = |n: NodeId| {
        matches!(
            function.nodes[n].kind,
            NodeKind::Call { .. } | NodeKind::Havoc { .. }
        ) || pts
            .accesses(f, n)
            .iter()
            .any(|a| a.part == part && a.kind == ripple_dataflow::pointsto::AccessKind::Write)
    };
    // Nodes after a spoiling node of the region, within the region.
    let mut after: rustc_hash::FxHashSet<NodeId> = Default::default();
    let mut stack: Vec<NodeId> = nodes
        .iter()
        .filter(|&&n| spoils(n))
        .flat_map(|&n| function.nodes[n].succs.iter().copied())
        .collect();
    while let Some(n) = stack.pop() {
        if in_region.contains(&n) && after.insert(n) {
            stack.extend(function.nodes[n].succs.iter().copied());
        }
    }
    nodes
        .iter()
        .filter(|&&n| reads(n) && !after.contains(&n))
        .map(|&n| (n, part))
        .collect()
}

/// The globals a region's nodes load at a constant offset: (global, offset, bytes).
fn global_reads(program: &Program, f: FuncId, nodes: &[NodeId]) -> Vec<(GlobalId, u64, u32)> {
    let mut out = Vec::new();
    for &n in nodes {
        for expr in program.functions[f].nodes[n].exprs() {
            expr.walk(&mut |e| {
                let ExprKind::Load(addr) = &e.kind else {
                    return;
                };
                let place = match &addr.kind {
                    ExprKind::AddrOfGlobal(g) => Some((*g, 0)),
                    ExprKind::Binary(BinOp::PtrAdd, base, by) => match (&base.kind, &by.kind) {
                        (ExprKind::AddrOfGlobal(g), ExprKind::Int(c)) => {
                            u64::try_from(*c).ok().map(|c| (*g, c))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                if let Some((g, offset)) = place {
                    let bytes = program.types.size_of(e.ty);
                    if let Ok(bytes) = u32::try_from(bytes) {
                        out.push((g, offset, bytes));
                    }
                }
            });
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Per version (old, new), the registers both versions share, with their shared name.
type SharedTemps = [Vec<(VarId, String)>; 2];

/// The temporaries of the lowering set by one node each, a mapped pair of nodes (the
/// result of a mapped call, say), with the name both versions share (the old node); and
/// the renamed locals ([`ripple_symex::straightline::renamed_registers`]).
fn shared_temps(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    (o, n): (FuncId, FuncId),
) -> SharedTemps {
    let Some(m) = matching.of_old(o) else {
        return [Vec::new(), Vec::new()];
    };
    let to_new: FxHashMap<NodeId, NodeId> = m.node_map.iter().copied().collect();
    // Per function, each temporary's single definition (None when several).
    let single_defs = |f: &ripple_ir::Function| {
        let mut defs: FxHashMap<VarId, Option<NodeId>> = FxHashMap::default();
        for (id, node) in f.nodes.iter_enumerated() {
            let dst = match &node.kind {
                NodeKind::Assign { dst, .. } => Some(dst),
                NodeKind::Call { dst, .. } | NodeKind::Havoc { dst, .. } => dst.as_ref(),
                _ => None,
            };
            if let Some(ripple_ir::Place::Local(v)) = dst {
                if f.locals[*v].kind == ripple_ir::LocalKind::Temp {
                    defs.entry(*v).and_modify(|d| *d = None).or_insert(Some(id));
                }
            }
        }
        defs
    };
    let defs_old = single_defs(&old.functions[o]);
    let defs_new: FxHashMap<NodeId, VarId> = single_defs(&new.functions[n])
        .into_iter()
        .filter_map(|(v, d)| Some((d?, v)))
        .collect();
    let mut out = [Vec::new(), Vec::new()];
    let mut pairs: Vec<(VarId, NodeId)> = defs_old
        .into_iter()
        .filter_map(|(v, d)| Some((v, d?)))
        .collect();
    pairs.sort_unstable();
    for (v_old, d_old) in pairs {
        let Some(d_new) = to_new.get(&d_old) else {
            continue;
        };
        let Some(&v_new) = defs_new.get(d_new) else {
            continue;
        };
        let name = format!("n{}", d_old.index());
        out[0].push((v_old, name.clone()));
        out[1].push((v_new, name));
    }
    let renamed = ripple_symex::straightline::renamed_registers(
        (old, &old.functions[o]),
        (new, &new.functions[n]),
    );
    for (v_old, v_new) in renamed {
        let name = format!("r{}", v_old.index());
        out[0].push((v_old, name.clone()));
        out[1].push((v_new, name));
    }
    out
}

/// Functions proved equivalent as a whole by the semantic difference engine
/// (`crate::semdiff`: modular symbolic execution, loops by induction): from the same
/// inputs (parameters, memory, I/O) both versions return the same value, leave the same
/// memory and I/O and end the same way, their callees' changes included. Every output y
/// of such a function f is then SUMMARYEQUIV(y, f) (000 Def. 4.2).
///
/// By levels, as 000 Alg. 1 (SEM-DCIA-ANYTIME): level 0 tries the changed functions;
/// level k the callers of the functions of level k - 1 that were not proved (procedures
/// within call distance k of the change), where a caller may mask what its changed
/// callee does differently. Each level has the whole budget, shared among its
/// functions, so a level proves what it proves whatever follows it: the impact at level
/// k is contained in the impact at level k - 1, and stopping after any level gives a
/// sound result.
#[derive(Clone, Debug, Default)]
pub struct FunctionEquivalences {
    /// (old, new) of each function proved equivalent.
    pub proved: Vec<(FuncId, FuncId)>,
    /// Functions tried and not proved (different or undecided), or left untried past
    /// [`MAX_FUNCTIONS`] in a level.
    pub not_proved: usize,
    /// Whether the wall-clock cut-off, not the work budget, ended the proofs.
    pub stopped_by_clock: bool,
    /// What each level did, in order.
    pub levels: Vec<LevelOutcome>,
}

/// One level of the anytime search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelOutcome {
    pub level: usize,
    /// Functions tried as a whole at this level.
    pub tried: usize,
    pub proved: usize,
    /// Functions of this level left untried (past [`MAX_FUNCTIONS`]).
    pub skipped: usize,
}

impl FunctionEquivalences {
    /// Adds SUMMARYEQUIV for every output of each proved function, in both versions.
    pub fn add_to(
        &self,
        equivalences: &mut Equivalences,
        old: &ripple_dataflow::Sdg,
        new: &ripple_dataflow::Sdg,
    ) {
        use ripple_dataflow::sdg::IfaceVar;
        for &(o, n) in &self.proved {
            for (side, f, sdg) in [(Side::Old, o, old), (Side::New, n, new)] {
                equivalences.functions.insert((side, f));
                let mut outputs = vec![IfaceVar::Return, IfaceVar::Stop];
                outputs.extend(
                    (0..sdg.points_to.part_count())
                        .map(|p| IfaceVar::Mem(ripple_dataflow::pointsto::PartId(p as u32))),
                );
                for y in outputs {
                    if sdg.formal_out(f, y).is_some() {
                        equivalences.summary_equiv.insert((side, f, y));
                    }
                }
            }
        }
    }
}

/// At most this many functions are tried as a whole per level.
pub const MAX_FUNCTIONS: usize = 8;

/// Tries to prove equivalent, within `budget` per level (work, an equal share per
/// function of the level; [`crate::semdiff::CUTOFF_FACTOR`] times as much wall-clock time
/// is the cut-off), the changed
/// functions whose changes the statement equivalences do not all cover (level 0), then
/// level by level up to `max_level` the callers of those not proved (at most
/// [`MAX_FUNCTIONS`] per level, in a deterministic order; the others count as not
/// proved). A pair `known` says an earlier run proved is proved without a search (the
/// summary cache). `progress` hears of each level as it ends.
#[allow(clippy::too_many_arguments)]
pub fn function_equivalences(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    statements: &Equivalences,
    budget: std::time::Duration,
    max_level: usize,
    known: &mut dyn FnMut(FuncId, FuncId) -> bool,
    progress: &mut dyn FnMut(&LevelOutcome),
) -> FunctionEquivalences {
    let mut out = FunctionEquivalences::default();
    let open: Vec<(FuncId, FuncId)> = matching
        .changed()
        .filter_map(|m| {
            let (o, n) = (m.old?, m.new?);
            let uncovered = |side: Side,
                             f: &ripple_ir::Function,
                             fid: FuncId,
                             mapped: &dyn Fn(NodeId) -> bool| {
                f.nodes
                    .ids()
                    .any(|x| !mapped(x) && !statements.statements.contains(&(side, fid, x)))
            };
            let to_new: rustc_hash::FxHashSet<NodeId> = m.node_map.iter().map(|p| p.0).collect();
            let to_old: rustc_hash::FxHashSet<NodeId> = m.node_map.iter().map(|p| p.1).collect();
            let (fo, fn_) = (&old.functions[o], &new.functions[n]);
            (fo.is_defined()
                && fn_.is_defined()
                && (uncovered(Side::Old, fo, o, &|x| to_new.contains(&x))
                    || uncovered(Side::New, fn_, n, &|x| to_old.contains(&x))))
            .then_some((o, n))
        })
        .collect();
    if open.is_empty() {
        return out;
    }
    // Callers in the new version, with their partners.
    let callers = ripple_graph::CallGraph::build(new).callers;
    let partner_of_new: FxHashMap<FuncId, FuncId> = matching
        .functions
        .iter()
        .filter_map(|m| Some((m.new?, m.old?)))
        .collect();
    let mut seen: rustc_hash::FxHashSet<(FuncId, FuncId)> = open.iter().copied().collect();
    let mut level_pairs = open;
    for level in 0..=max_level {
        if level_pairs.is_empty() {
            break;
        }
        // One run per function (a run reports one function, so it does not search every
        // caller of the change), the level's budget shared among at most MAX_FUNCTIONS.
        let tried = level_pairs.len().min(MAX_FUNCTIONS);
        let mut outcome = LevelOutcome {
            level,
            tried,
            proved: 0,
            skipped: level_pairs.len() - tried,
        };
        out.not_proved += outcome.skipped;
        let share = budget / tried as u32;
        let mut unproved = Vec::new();
        for &(o, n) in &level_pairs[..tried] {
            if known(o, n) {
                out.proved.push((o, n));
                outcome.proved += 1;
                continue;
            }
            let config = crate::semdiff::SemdiffConfig {
                total_budget: share,
                query_budget: share.min(crate::semdiff::DEFAULT_QUERY_BUDGET),
                wall_clock_cutoff: Some(share * crate::semdiff::CUTOFF_FACTOR),
                max_witnesses: 0,
                function: Some(old.functions[o].name.clone()),
                ..crate::semdiff::SemdiffConfig::default()
            };
            let report = crate::semdiff::semdiff(old, new, matching, &config);
            out.stopped_by_clock |= report.stopped_by_clock;
            let equivalent = report.functions.iter().any(|pair| {
                (pair.old, pair.new) == (Some(o), Some(n))
                    && pair.verdict == crate::semdiff::Verdict::Equivalent
            });
            if equivalent {
                out.proved.push((o, n));
                outcome.proved += 1;
            } else {
                out.not_proved += 1;
                unproved.push((o, n));
            }
        }
        // Untried functions of this level spread impact as unproved ones do.
        unproved.extend(level_pairs[tried..].iter().copied());
        progress(&outcome);
        out.levels.push(outcome);
        // The next level: the callers of what this level did not prove.
        let mut next: Vec<(FuncId, FuncId)> = Vec::new();
        for &(_, n) in &unproved {
            for &c in &callers[n.index()] {
                let Some(&o) = partner_of_new.get(&c) else {
                    continue;
                };
                let pair = (o, c);
                if old.functions[o].is_defined()
                    && new.functions[c].is_defined()
                    && seen.insert(pair)
                {
                    next.push(pair);
                }
            }
        }
        next.sort_unstable();
        level_pairs = next;
    }
    out.proved.sort_unstable();
    out
}

/// The changed pairs (both defined, not the same code) that the statement proofs alone
/// show to compute what they did, given that what they call does: no statement of
/// either is a source of impact (`crate::dcia::functions_with_sources`) once every
/// changed statement proved to do (and leave) as its partner did is taken, without
/// points-to facts. The semantic verdicts take such a pair as they take one of the same
/// code (`crate::semdiff`): equivalent when its callees are and no changed initial
/// value reaches it.
pub fn statement_proved_pairs(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
) -> FxHashSet<(FuncId, FuncId)> {
    let candidates: Vec<(FuncId, FuncId)> = matching
        .changed()
        .filter(|m| !m.same_code())
        .filter_map(|m| Some((m.old?, m.new?)))
        .filter(|&(o, n)| old.functions[o].is_defined() && new.functions[n].is_defined())
        .collect();
    if candidates.is_empty() {
        return FxHashSet::default();
    }
    let proved = statement_equivalences(old, new, matching, None, default_budget());
    let mut equivalences = Equivalences::default();
    proved.add_to(&mut equivalences);
    let [old_sources, new_sources] =
        crate::dcia::functions_with_sources(old, new, matching, &equivalences, true);
    // Globals whose initial contents changed (static locals too) that a pair names,
    // directly or through an initializer: not a change of its statements.
    let (changed_old, changed_new) = crate::dcia::changed_globals(old, new);
    let marks = |program: &Program, changed: &[GlobalId]| {
        let mut marks: Vec<Option<()>> = vec![None; program.globals.len()];
        for g in changed {
            marks[g.index()] = Some(());
        }
        crate::unread::spread_through_initializers(program, &mut marks);
        marks
    };
    let (marks_old, marks_new) = (marks(old, &changed_old), marks(new, &changed_new));
    candidates
        .into_iter()
        .filter(|(o, n)| {
            !old_sources.contains(o)
                && !new_sources.contains(n)
                && crate::unread::first_named(&old.functions[*o], &marks_old).is_none()
                && crate::unread::first_named(&new.functions[*n], &marks_new).is_none()
        })
        .collect()
}
