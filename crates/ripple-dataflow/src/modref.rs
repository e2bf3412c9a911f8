//! Mod/ref: the memory regions each function may write (MOD) and read (REF), directly or
//! through the functions it calls, and whether it may stop the program (`exit`, `abort`,
//! `longjmp`) instead of returning.
//!
//! The regions are those of [`crate::pointsto`]: globals, heap allocation sites,
//! external memory, and memory locals of other functions reached through pointers (out-
//! parameters). They are the extra inputs (REF and MOD: updates are weak, so a written
//! region's old value may flow through) and outputs (MOD) of each function in the SDG,
//! as 000 section 2.2 desugars globals and the heap into extra formals. A function's own
//! memory locals are left out of its interface unless it is recursive (a new activation
//! has new locals).
//!
//! Algorithm: a fixpoint over the call graph (callees before callers, repeated until
//! stable), with bit sets of regions. Havoc nodes read every region and write every one
//! that is not read-only.

use ripple_ir::{FuncId, NodeKind, Program};

use crate::bitset::BitSet;
use crate::pointsto::{AccessKind, Object, PointsTo};

/// MOD/REF per function, indexed by `FuncId`.
#[derive(Clone, Debug)]
pub struct ModRef {
    pub mods: Vec<BitSet>,
    pub refs: Vec<BitSet>,
    /// Functions that may stop the program instead of returning.
    pub may_stop: Vec<bool>,
    /// Functions that may call, themselves or through callees, a library function
    /// that may jump back to a `setjmp` ([`PointsTo::may_jump_back`]).
    pub may_jump: Vec<bool>,
    /// Functions in a call-graph cycle.
    pub recursive: Vec<bool>,
}

impl ModRef {
    pub fn compute(program: &Program, pts: &PointsTo) -> ModRef {
        let count = program.functions.len();
        let parts = pts.part_count();
        let mut mods = vec![BitSet::new(parts); count];
        let mut refs = vec![BitSet::new(parts); count];
        let mut may_stop = vec![false; count];
        let mut may_jump = vec![false; count];
        let mut callees: Vec<Vec<FuncId>> = vec![Vec::new(); count];
        for (f, function) in program.functions.iter_enumerated() {
            for (n, node) in function.nodes.iter_enumerated() {
                for access in pts.accesses(f, n) {
                    match access.kind {
                        AccessKind::Read => refs[f.index()].insert(access.part.index()),
                        AccessKind::Write => mods[f.index()].insert(access.part.index()),
                    };
                }
                if pts.is_havoc(f, n) {
                    for p in 0..parts {
                        refs[f.index()].insert(p);
                        if !pts.is_read_only(crate::pointsto::PartId(p as u32)) {
                            mods[f.index()].insert(p);
                        }
                    }
                }
                if crate::noreturn::trap_reads(program, node).is_some() {
                    may_stop[f.index()] = true;
                }
                if matches!(node.kind, NodeKind::Call { .. }) {
                    if pts.may_not_return_from_library(program, f, n) {
                        may_stop[f.index()] = true;
                    }
                    if pts.may_jump_back(program, f, n) {
                        may_jump[f.index()] = true;
                    }
                    callees[f.index()].extend_from_slice(pts.call_targets(f, n));
                    callees[f.index()].extend_from_slice(pts.callbacks(f, n));
                }
            }
            callees[f.index()].sort_unstable();
            callees[f.index()].dedup();
        }
        let (order, recursive) = postorder_and_recursion(&callees);
        // Own locals, per function (left out of the interface of non-recursive ones).
        let mut own: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (p, objects) in pts.part_objects.iter().enumerate() {
            if let Some(Object::Local(f, _)) = objects.first() {
                if objects
                    .iter()
                    .all(|o| matches!(o, Object::Local(g, _) if g == f))
                {
                    own[f.index()].push(p);
                }
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &f in &order {
                let before = (mods[f].clone(), refs[f].clone(), may_stop[f], may_jump[f]);
                for &g in &callees[f] {
                    if g.index() == f {
                        continue;
                    }
                    let (m, r, s) = (
                        mods[g.index()].clone(),
                        refs[g.index()].clone(),
                        may_stop[g.index()],
                    );
                    mods[f].union_with(&m);
                    refs[f].union_with(&r);
                    may_stop[f] |= s;
                    may_jump[f] |= may_jump[g.index()];
                }
                if !recursive[f] {
                    for &p in &own[f] {
                        mods[f].remove(p);
                        refs[f].remove(p);
                    }
                }
                if (mods[f].clone(), refs[f].clone(), may_stop[f], may_jump[f]) != before {
                    changed = true;
                }
            }
        }
        ModRef {
            mods,
            refs,
            may_stop,
            may_jump,
            recursive,
        }
    }
}

/// The functions that may read each global directly (indexed by `GlobalId`, sorted): a
/// node of theirs reads a region holding the global, or havocs (reads everything).
/// Readers through callees are not listed: the callee is.
pub fn direct_readers_of_globals(program: &Program, pts: &PointsTo) -> Vec<Vec<FuncId>> {
    let mut globals_of_part: Vec<Vec<usize>> = vec![Vec::new(); pts.part_count()];
    for (p, objects) in pts.part_objects.iter().enumerate() {
        for o in objects {
            if let Object::Global(g) = o {
                globals_of_part[p].push(g.index());
            }
        }
    }
    let mut readers: Vec<Vec<FuncId>> = vec![Vec::new(); program.globals.len()];
    for (f, function) in program.functions.iter_enumerated() {
        let mut read = vec![false; program.globals.len()];
        for (n, _) in function.nodes.iter_enumerated() {
            if pts.is_havoc(f, n) {
                read.iter_mut().for_each(|r| *r = true);
                break;
            }
            for access in pts.accesses(f, n) {
                if access.kind == AccessKind::Read {
                    for &g in &globals_of_part[access.part.index()] {
                        read[g] = true;
                    }
                }
            }
        }
        for (g, &r) in read.iter().enumerate() {
            if r {
                readers[g].push(f);
            }
        }
    }
    readers
}

/// An order of the call graph with callees before callers (components in reverse
/// topological order), and which functions lie on a cycle, self-loops included.
fn postorder_and_recursion(callees: &[Vec<FuncId>]) -> (Vec<usize>, Vec<bool>) {
    let n = callees.len();
    let sccs = ripple_graph::strongly_connected_components(n, 0..n, |v, i| {
        callees[v].get(i).map(|g| g.index())
    });
    let order = sccs
        .members
        .iter()
        .rev()
        .flatten()
        .map(|&v| v as usize)
        .collect();
    let recursive = (0..n)
        .map(|v| sccs.cyclic[sccs.component_of[v] as usize])
        .collect();
    (order, recursive)
}
