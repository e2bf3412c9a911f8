//! Loop equivalence beyond the unwinding bound: synchronised loops proved equal by
//! induction, then abstracted by one uninterpreted function shared by both versions.
//!
//! 001 (Trostanetski et al., section 7) treats loops as tail-recursive functions, whose
//! equivalence is proved like that of recursive procedures: assuming the recursive calls
//! (the remaining iterations) equal, one unfolding (one iteration) is shown equal. Here
//! the k-th natural loop of each version is checked from an arbitrary state at the loop
//! head in which the registers of the same name hold the same values (the relational
//! invariant) and every other register an arbitrary value of its version: every pair
//! of one-iteration paths that both versions may take must either both leave the loop
//! or both come back to the head, with equal named registers, memory and I/O. Then, by
//! induction on the iterations, from equal entry values both loops leave together with
//! equal values, or both run forever; so each loop may be replaced by the same function
//! of its named registers, memory and I/O at entry. The registers only one version has
//! are arbitrary after the loop. Paths through such an abstraction are marked abstracted:
//! a difference through one is possible, never proved, and an agreement is sound.
//!
//! Not handled (the loop is then unrolled as before): loops with calls, trap paths,
//! nested loops cut by the bound, exits to more than one place, and loops whose number
//! differs between the versions.

use ripple_ir::{ExprKind, FuncId, Function, NodeId, NodeKind, Place, Storage, VarId};
use rustc_hash::FxHashMap;
use z3::ast::{Array, Ast, Bool, BV};
use z3::{FuncDecl, Sort};

use super::{Engine, Exploration, PathState, Side};

const SIDES: [Side; 2] = [Side::Old, Side::New];

/// The share of the query budget an exact induction step may spend (a failed attempt
/// must leave the bounded analysis its budget).
const LOOP_PROOF_SHARE: f64 = 0.25;
use crate::encode::Repr;
use crate::smt::{and_all, or_all, Answer};

/// A natural loop of a function's CFG.
#[derive(Clone, Debug)]
pub(super) struct NaturalLoop {
    header: NodeId,
    /// Per node of the function: whether it is in the loop.
    body: Vec<bool>,
    /// The one node outside the loop that its edges lead to.
    exit: NodeId,
    /// Register locals read or written in the loop.
    used: Vec<VarId>,
    /// Register locals written in the loop.
    written: Vec<VarId>,
}

/// What the exploration of one iteration needs to know.
#[derive(Clone, Debug)]
pub(super) struct IterationMode {
    pub(super) header: NodeId,
    pub(super) body: Vec<bool>,
    pub(super) exit: NodeId,
}

/// One path through one iteration: its condition and the state where it ends.
#[derive(Clone)]
pub(super) struct Iteration {
    conds: Vec<Bool>,
    regs: Vec<Option<BV>>,
    mem: Array,
    io: BV,
    leaves: bool,
}

/// The replacement of a proved loop: where its effect is applied and what it changes.
#[derive(Clone, Debug)]
pub(super) struct LoopAbstraction {
    key: String,
    /// The named registers the loop's function takes (the same names in both versions).
    args: Vec<VarId>,
    /// The named registers it changes, with their names.
    outputs: Vec<(VarId, String)>,
    /// Registers of this version only that the loop writes: arbitrary afterwards.
    own_written: Vec<VarId>,
    pub(super) exit: NodeId,
}

/// The natural loops of a function (one per header, back edges merged), in the order of
/// their headers, keeping only those with a single exit target.
pub(super) fn natural_loops(function: &Function) -> Vec<NaturalLoop> {
    let n = function.nodes.len();
    let succ = |node: usize, i: usize| {
        function.nodes[NodeId::from(node)]
            .succs
            .get(i)
            .map(|s| s.index())
    };
    let dom = ripple_graph::dominators::dominators(n, function.entry.index(), succ);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (id, node) in function.nodes.iter_enumerated() {
        for s in &node.succs {
            preds[s.index()].push(id.index());
        }
    }
    let mut latches: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (id, node) in function.nodes.iter_enumerated() {
        for s in &node.succs {
            if dom.dominates(s.index(), id.index()) {
                latches.entry(s.index()).or_default().push(id.index());
            }
        }
    }
    let mut headers: Vec<usize> = latches.keys().copied().collect();
    headers.sort_unstable();
    let mut out = Vec::new();
    for header in headers {
        let mut body = vec![false; n];
        body[header] = true;
        let mut stack = latches[&header].clone();
        while let Some(node) = stack.pop() {
            if !body[node] {
                body[node] = true;
                stack.extend(preds[node].iter().copied());
            }
        }
        let mut exits: Vec<usize> = Vec::new();
        let mut used = Vec::new();
        let mut written = Vec::new();
        for (id, node) in function.nodes.iter_enumerated() {
            if !body[id.index()] {
                continue;
            }
            for s in &node.succs {
                if !body[s.index()] && !exits.contains(&s.index()) {
                    exits.push(s.index());
                }
            }
            for e in node.exprs() {
                e.walk(&mut |e| {
                    if let ExprKind::Local(v) = e.kind {
                        used.push(v);
                    }
                });
            }
            let dst = match &node.kind {
                NodeKind::Assign { dst, .. } => Some(dst),
                NodeKind::Call { dst, .. } | NodeKind::Havoc { dst, .. } => dst.as_ref(),
                _ => None,
            };
            if let Some(Place::Local(v)) = dst {
                written.push(*v);
                used.push(*v);
            }
        }
        if exits.len() != 1 {
            continue;
        }
        used.sort_unstable();
        used.dedup();
        written.sort_unstable();
        written.dedup();
        out.push(NaturalLoop {
            header: NodeId::from(header),
            body,
            exit: NodeId::from(exits[0]),
            used,
            written,
        });
    }
    out
}

/// The register locals of a function by name, for names used once.
fn registers_by_name(function: &Function) -> FxHashMap<&str, VarId> {
    let mut count: FxHashMap<&str, u32> = FxHashMap::default();
    for local in function.locals.iter() {
        *count.entry(local.name.as_str()).or_default() += 1;
    }
    function
        .locals
        .iter_enumerated()
        .filter(|(_, l)| l.storage == Storage::Register && count[l.name.as_str()] == 1)
        .map(|(v, l)| (l.name.as_str(), v))
        .collect()
}

impl Engine<'_> {
    /// Tries to prove the loops of a function pair equal by induction (module doc) and
    /// records the abstraction of each proved pair; returns how many were proved. The
    /// abstractions apply while [`Engine::use_loop_abstractions`] is set.
    pub fn prove_loops(&mut self, old: FuncId, new: FuncId, pair: usize) -> usize {
        if let Some(done) = self.loop_proofs.get(&pair) {
            return *done;
        }
        let functions = [
            &self.programs[0].functions[old],
            &self.programs[1].functions[new],
        ];
        let loops = [natural_loops(functions[0]), natural_loops(functions[1])];
        let mut proved = 0;
        if loops[0].len() == loops[1].len() {
            for (k, (lo, ln)) in loops[0].iter().zip(&loops[1]).enumerate() {
                if self.smt.out_of_time() {
                    break;
                }
                let key = format!("P{pair}.loop{k}");
                if let Some([ao, an]) = self.prove_loop_pair(&key, [old, new], [lo, ln]) {
                    self.loop_abs.insert((Side::Old, old, lo.header), ao);
                    self.loop_abs.insert((Side::New, new, ln.header), an);
                    proved += 1;
                }
            }
        }
        self.loop_proofs.insert(pair, proved);
        proved
    }

    /// How many loop pairs of a function pair [`Engine::prove_loops`] proved.
    pub fn loops_proved(&self, pair: usize) -> Option<usize> {
        self.loop_proofs.get(&pair).copied()
    }

    fn prove_loop_pair(
        &mut self,
        key: &str,
        funcs: [FuncId; 2],
        loops: [&NaturalLoop; 2],
    ) -> Option<[LoopAbstraction; 2]> {
        let programs = self.programs;
        let functions = [
            &programs[0].functions[funcs[0]],
            &programs[1].functions[funcs[1]],
        ];
        let names = [
            registers_by_name(functions[0]),
            registers_by_name(functions[1]),
        ];
        let bits = |side: usize, v: VarId| {
            Repr::of(&programs[side].types, functions[side].locals[v].ty).bits()
        };
        // The named registers: used in either loop, present once in both versions with
        // the same width.
        let mut shared: Vec<(String, [VarId; 2])> = Vec::new();
        for side in 0..2 {
            for v in &loops[side].used {
                let name = functions[side].locals[*v].name.as_str();
                let (Some(vo), Some(vn)) = (names[0].get(name), names[1].get(name)) else {
                    continue;
                };
                if bits(0, *vo) == bits(1, *vn) && !shared.iter().any(|(n, _)| n == name) {
                    shared.push((name.to_string(), [*vo, *vn]));
                }
            }
        }
        // Renamed locals pair by declaration order: a hypothesis of the induction
        // like the others, so a wrong pairing only fails the proof.
        let renamed = crate::straightline::renamed_registers(
            (programs[0], functions[0]),
            (programs[1], functions[1]),
        );
        for (vo, vn) in renamed {
            let used = loops[0].used.contains(&vo) || loops[1].used.contains(&vn);
            if used {
                shared.push((format!("~{}", functions[0].locals[vo].name), [vo, vn]));
            }
        }
        shared.sort_by(|a, b| a.0.cmp(&b.0));
        let mem = crate::smt::memory_const(&format!("{key}.mem"));
        let io = BV::new_const(format!("{key}.io"), 64);
        let mut iterations: [Vec<Iteration>; 2] = [Vec::new(), Vec::new()];
        for side in 0..2 {
            let mut regs: Vec<Option<BV>> = vec![None; functions[side].locals.len()];
            for v in &loops[side].used {
                regs[v.index()] = Some(BV::new_const(
                    format!("{key}.{}.own{}", SIDES[side].tag(), v.index()),
                    bits(side, *v),
                ));
            }
            for (name, vars) in &shared {
                regs[vars[side].index()] = Some(BV::new_const(
                    format!("{key}.{name}"),
                    bits(side, vars[side]),
                ));
            }
            iterations[side] =
                self.explore_iteration(SIDES[side], funcs[side], loops[side], regs, &mem, &io)?;
        }
        // Every pair of iterations both versions may take ends alike.
        let mut bad = Vec::new();
        for io_ in &iterations[0] {
            for in_ in &iterations[1] {
                let reach = and_all(&[and_all(&io_.conds), and_all(&in_.conds)]);
                if io_.leaves != in_.leaves {
                    bad.push(reach);
                    continue;
                }
                let mut same = vec![io_.mem.eq(&in_.mem), io_.io.eq(&in_.io)];
                for (_, vars) in &shared {
                    match (&io_.regs[vars[0].index()], &in_.regs[vars[1].index()]) {
                        (Some(a), Some(b)) => same.push(a.eq(b)),
                        _ => return None,
                    }
                }
                bad.push(Bool::and(&[reach, and_all(&same).not()]));
            }
        }
        // With costly operators uninterpreted first (unsatisfiable there is unsatisfiable).
        let bad = or_all(&bad);
        let cheap = crate::smt::abstract_costly(&bad)
            .is_some_and(|cheap| self.smt.check(&[cheap]) == Answer::Unsat);
        if !cheap && self.smt.check_model_within(&[bad], LOOP_PROOF_SHARE).0 != Answer::Unsat {
            return None;
        }
        let written = |side: usize| -> Vec<(VarId, String)> {
            shared
                .iter()
                .filter(|(_, vars)| {
                    loops[0].written.contains(&vars[0]) || loops[1].written.contains(&vars[1])
                })
                .map(|(name, vars)| (vars[side], name.clone()))
                .collect()
        };
        let abstraction = |side: usize| LoopAbstraction {
            key: key.to_string(),
            args: shared.iter().map(|(_, vars)| vars[side]).collect(),
            outputs: written(side),
            own_written: loops[side]
                .written
                .iter()
                .copied()
                .filter(|v| !shared.iter().any(|(_, vars)| vars[side] == *v))
                .collect(),
            exit: loops[side].exit,
        };
        Some([abstraction(0), abstraction(1)])
    }

    /// The paths of one iteration of a loop from the given state; `None` when one of
    /// them calls, traps, is cut or leaves the loop elsewhere than its exit.
    fn explore_iteration(
        &mut self,
        side: Side,
        func: FuncId,
        lp: &NaturalLoop,
        regs: Vec<Option<BV>>,
        mem: &Array,
        io: &BV,
    ) -> Option<Vec<Iteration>> {
        let inputs = self.inputs(side, func);
        let mut run = Exploration::new(side, func, inputs, self.config.unwind);
        run.iteration = Some(IterationMode {
            header: lp.header,
            body: lp.body.clone(),
            exit: lp.exit,
        });
        let state = PathState::start(regs, mem.clone(), io.clone());
        self.smt.push();
        self.cheap_feasibility = true;
        self.run(&mut run, lp.header, state);
        self.cheap_feasibility = false;
        self.smt.pop();
        let failed = run.iteration_failed
            || run.cut
            || !run.paths.is_empty()
            || !run.diverge.is_empty()
            || !run.diverge_abstract.is_empty();
        (!failed).then_some(run.iterations)
    }

    /// Ends an iteration path (at the head again, or at the loop's exit).
    pub(super) fn finish_iteration(&mut self, run: &mut Exploration, st: PathState, leaves: bool) {
        if !st.calls.is_empty() || !st.abstracted.is_empty() {
            run.iteration_failed = true;
            return;
        }
        run.iterations.push(Iteration {
            conds: st.conds,
            regs: st.regs,
            mem: st.mem,
            io: st.io,
            leaves,
        });
    }

    /// The abstraction of a proved loop at its head, if one applies.
    pub(super) fn loop_abstraction(
        &self,
        side: Side,
        func: FuncId,
        node: NodeId,
    ) -> Option<LoopAbstraction> {
        if !self.use_loop_abstractions {
            return None;
        }
        self.loop_abs.get(&(side, func, node)).cloned()
    }

    /// Replaces the loop by its function: the named registers it writes, the memory and
    /// the I/O become that function of the named registers, memory and I/O at entry.
    pub(super) fn apply_loop_abstraction(
        &mut self,
        side: Side,
        func: FuncId,
        st: &mut PathState,
        abs: &LoopAbstraction,
    ) {
        let program = self.programs[side.index()];
        let function = &program.functions[func];
        let bits = |v: VarId| Repr::of(&program.types, function.locals[v].ty).bits();
        let mut args: Vec<BV> = Vec::new();
        for v in &abs.args {
            let value = match &st.regs[v.index()] {
                Some(value) => value.clone(),
                None => {
                    let name = self.fresh_name(&format!("{}.undef", abs.key));
                    BV::new_const(name, bits(*v))
                }
            };
            args.push(value);
        }
        let mut domain: Vec<Sort> = args.iter().map(|a| Sort::bitvector(a.get_size())).collect();
        domain.push(Sort::array(&Sort::bitvector(64), &Sort::bitvector(8)));
        domain.push(Sort::bitvector(64));
        let domain_refs: Vec<&Sort> = domain.iter().collect();
        let mut actuals: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        actuals.push(&st.mem);
        actuals.push(&st.io);
        let apply =
            |name: String, range: &Sort| FuncDecl::new(name, &domain_refs, range).apply(&actuals);
        let mut new_regs = Vec::new();
        for (v, name) in &abs.outputs {
            let value = apply(
                format!("{}.out.{name}", abs.key),
                &Sort::bitvector(bits(*v)),
            );
            new_regs.push((*v, value.as_bv().expect("bit-vector range")));
        }
        let mem = apply(
            format!("{}.out.mem", abs.key),
            &Sort::array(&Sort::bitvector(64), &Sort::bitvector(8)),
        )
        .as_array()
        .expect("array range");
        let io = apply(format!("{}.out.io", abs.key), &Sort::bitvector(64))
            .as_bv()
            .expect("bit-vector range");
        for (v, value) in new_regs {
            st.regs[v.index()] = Some(value);
        }
        for v in &abs.own_written {
            let name = self.fresh_name(&format!("{}.after", abs.key));
            st.regs[v.index()] = Some(BV::new_const(name, bits(*v)));
        }
        st.mem = mem;
        st.io = io;
        // The function's value on inputs where the loops run forever is not a real
        // outcome: a difference through it is only possible.
        st.abstracted.push(Bool::from_bool(true));
        st.signature.push(u32::MAX - 3);
    }
}
