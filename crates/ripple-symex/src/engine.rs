//! Path exploration, procedure summaries and modular calls (section 2.1, 3 and 6.1 of
//! Trostanetski et al., SAS 2017).

use std::time::Instant;

mod loops;

use ripple_ir::{
    Callee, Expr, ExprKind, FuncId, Function, GlobalId, InitItem, Intrinsic, NodeId, NodeKind,
    Place, Program, Storage, Type, TypeId, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};
use z3::ast::{Array, Ast, Bool, Dynamic, BV};
use z3::{FuncDecl, Sort};

use crate::encode::{self, bv_const, load, resize, store, truth, Repr};
use crate::layout::Layout;

/// Work charged per IR node executed symbolically (about what Z3 spends on a small
/// query; see [`crate::smt::WORK_PER_SECOND`]).
const STEP_WORK: u64 = 200;
use crate::smt::{and_all, fp_from_bits, fp_round, fp_to_bits, or_all, Answer, Budget, Smt};

/// Which version a function belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Old,
    New,
}

impl Side {
    pub fn index(self) -> usize {
        match self {
            Side::Old => 0,
            Side::New => 1,
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Side::Old => "o",
            Side::New => "n",
        }
    }
}

/// How a path ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Returned = 0,
    Exit = 1,
    Trap = 2,
    Abort = 3,
}

/// The addresses below this one are the null page: an access there traps.
pub const NULL_PAGE: u64 = 4096;

/// The size taken for an object the analysis does not know (no access traps in it).
const UNBOUNDED_OBJECT: u64 = 1 << 40;

/// Visits of one branch node on one path, at most, whatever its condition.
const CONCRETE_VISITS: u32 = 256;

/// Exploration settings.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// A path may execute each loop (each branch node) at most this many times plus the
    /// final test.
    pub unwind: u32,
    /// The bound used when refining under a precondition.
    pub refine_unwind: u32,
    /// Maximal number of paths per exploration.
    pub max_paths: usize,
    pub budget: Budget,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            unwind: 5,
            refine_unwind: 64,
            max_paths: 2000,
            budget: Budget::default(),
        }
    }
}

/// The visible input state of a function: its parameters, the memory and the I/O token.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub params: Vec<BV>,
    pub mem: Array,
    pub io: BV,
}

/// The visible final state of a path.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// [`Status`] as an 8-bit value (symbolic after calls).
    pub status: BV,
    /// The exit code (meaningful when status is exit).
    pub code: BV,
    pub ret: Option<BV>,
    pub mem: Array,
    pub io: BV,
}

/// A call on a path, for refinement: the callee's inputs at the call and whether the
/// call may have taken an unexplored (abstracted) path of the callee.
#[derive(Clone, Debug)]
pub struct CallSite {
    pub side: Side,
    pub callee: FuncId,
    pub args: Vec<BV>,
    pub mem: Array,
    pub io: BV,
    pub unexplored: Bool,
}

/// A path summary `(R, T)` (Definition 5) with the abstraction it used.
#[derive(Clone, Debug)]
pub struct PathSummary {
    pub reach: Bool,
    pub out: Outcome,
    /// True for inputs on which the path went through an abstracted callee path.
    pub abstracted: Bool,
    pub calls: Vec<CallSite>,
    /// True for inputs on which the path's own code (not its callees') overflows a
    /// signed integer, which C leaves undefined and the summary wraps.
    pub undefined: Bool,
    signature: Vec<u32>,
}

/// A procedure summary (Definition 6) with proved non-termination.
#[derive(Clone, Debug)]
pub struct ProcSummary {
    pub inputs: Inputs,
    pub paths: Vec<PathSummary>,
    /// Input conditions under which the function does not terminate (proved, or assumed
    /// by the abstraction of a callee).
    pub diverge: Vec<Bool>,
    /// Input conditions under which the function may not terminate because an
    /// abstracted callee path may not terminate.
    pub diverge_abstract: Vec<Bool>,
    /// Whether some path was cut by the unwinding bound or the budget.
    pub cut: bool,
    /// Whether the budget ran out during an exploration.
    pub out_of_budget: bool,
    signatures: FxHashSet<Vec<u32>>,
}

impl ProcSummary {
    /// The covered part: inputs on which a summarised path or proved divergence applies.
    pub fn covered(&self) -> Bool {
        let mut all: Vec<Bool> = self.paths.iter().map(|p| p.reach.clone()).collect();
        all.extend(self.diverge.iter().cloned());
        all.extend(self.diverge_abstract.iter().cloned());
        or_all(&all)
    }
}

/// Symbolic execution of two program versions with a shared solver.
pub struct Engine<'p> {
    pub programs: [&'p Program; 2],
    pub smt: Smt,
    pub config: Config,
    pub layout: Layout,
    /// The matched pair of each function, and its input naming key.
    pair_of: [FxHashMap<FuncId, usize>; 2],
    /// The current "equal when" condition U of each matched pair, over the pair's inputs.
    equal_when: FxHashMap<usize, Bool>,
    summaries: FxHashMap<(Side, FuncId), ProcSummary>,
    fresh: u64,
    started: Instant,
    /// Loops proved equal by induction (`loops`), by version, function and head.
    loop_abs: FxHashMap<(Side, FuncId, NodeId), loops::LoopAbstraction>,
    /// The number of loop pairs proved per function pair.
    loop_proofs: FxHashMap<usize, usize>,
    /// Whether explorations replace proved loops by their abstraction.
    pub use_loop_abstractions: bool,
    /// Branch feasibility with costly operators uninterpreted only (a path kept that
    /// is infeasible adds an unsatisfiable condition, nothing else).
    cheap_feasibility: bool,
    /// `constant_memory`'s facts per version: a template memory and, per constant
    /// global read so far, its bytes over the template (`None`: not known).
    constant_facts: [std::cell::OnceCell<ConstantFacts>; 2],
    /// Per version and indirect call site, the addresses of the functions it may call
    /// whose behaviour may differ from the other version's
    /// ([`Engine::set_differing_targets`]): a call to one of them is that version's own
    /// unknown function.
    differing_targets: [FxHashMap<(FuncId, NodeId), Vec<u64>>; 2],
    /// Per version and function, the branches whose false successor leaves a loop the
    /// true one stays in ([`Engine::exit_first`]).
    exits_on_false: FxHashMap<(Side, FuncId), Vec<bool>>,
}

/// The facts of [`Engine::constant_memory`] for one version.
struct ConstantFacts {
    template: Array,
    /// Per global: whether it is constant with a known initializer, and its facts
    /// (built when first used).
    facts: std::cell::RefCell<FxHashMap<GlobalId, Option<Bool>>>,
    /// Per function: the globals whose address it takes and its direct callees.
    refs: Vec<(Vec<GlobalId>, Vec<FuncId>)>,
    /// Globals named by some roots whose contents were left out of the facts (not
    /// constant, not known byte for byte, or past the size budget).
    without_facts: std::cell::RefCell<FxHashSet<GlobalId>>,
}

/// One path being explored.
#[derive(Clone)]
struct PathState {
    regs: Vec<Option<BV>>,
    mem: Array,
    io: BV,
    conds: Vec<Bool>,
    visits: FxHashMap<NodeId, u32>,
    /// Visits of each branch whose condition was symbolic (the unwinding bound's count).
    symbolic_visits: FxHashMap<NodeId, u32>,
    snapshots: FxHashMap<NodeId, (Vec<Option<BV>>, Array, BV)>,
    abstracted: Vec<Bool>,
    calls: Vec<CallSite>,
    signature: Vec<u32>,
    /// Trap conditions raised while evaluating the current node.
    traps: Vec<Bool>,
    /// When the path's own code overflowed a signed integer so far (`None`: never).
    undefined: Option<Bool>,
    /// Exploring one loop iteration: whether the path has left the loop head.
    left_header: bool,
}

/// What an exploration found.
struct Exploration {
    side: Side,
    func: FuncId,
    inputs: Inputs,
    paths: Vec<PathSummary>,
    diverge: Vec<Bool>,
    diverge_abstract: Vec<Bool>,
    cut: bool,
    out_of_budget: bool,
    unwind: u32,
    known: FxHashSet<Vec<u32>>,
    /// Exploring under a precondition: a branch direction it forces is not implied by
    /// the path's own conditions, so it must be recorded in them.
    preconditioned: bool,
    /// Exploring one iteration of a loop (`loops`) rather than a function.
    iteration: Option<loops::IterationMode>,
    iterations: Vec<loops::Iteration>,
    iteration_failed: bool,
}

impl Exploration {
    fn new(side: Side, func: FuncId, inputs: Inputs, unwind: u32) -> Exploration {
        Exploration {
            side,
            func,
            inputs,
            paths: Vec::new(),
            diverge: Vec::new(),
            diverge_abstract: Vec::new(),
            cut: false,
            out_of_budget: false,
            unwind,
            known: FxHashSet::default(),
            preconditioned: false,
            iteration: None,
            iterations: Vec::new(),
            iteration_failed: false,
        }
    }
}

impl PathState {
    /// Adds a condition under which the path's own code overflows a signed integer.
    fn note_overflow(&mut self, overflow: Option<Bool>) {
        if let Some(overflow) = overflow {
            self.undefined = Some(match self.undefined.take() {
                Some(before) => or_all(&[before, overflow]),
                None => overflow,
            });
        }
    }

    /// The state at the start of a path: these registers, memory and I/O, no condition.
    fn start(regs: Vec<Option<BV>>, mem: Array, io: BV) -> PathState {
        PathState {
            regs,
            mem,
            io,
            conds: Vec::new(),
            visits: FxHashMap::default(),
            symbolic_visits: FxHashMap::default(),
            snapshots: FxHashMap::default(),
            abstracted: Vec::new(),
            calls: Vec::new(),
            signature: Vec::new(),
            traps: Vec::new(),
            undefined: None,
            left_header: false,
        }
    }
}

const PURE_MATH: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2",
    "expm1", "log", "log2", "log10", "log1p", "pow", "fmod", "hypot", "cbrt", "round", "trunc",
    "lround", "erf", "erfc", "tgamma", "lgamma", "fmin", "fmax", "sinf", "cosf", "tanf", "expf",
    "logf", "powf", "fmodf", "atan2f", "roundf", "truncf", "hypotf", "abs", "labs", "llabs",
    "toupper", "tolower", "isdigit", "isalpha", "isspace", "isalnum", "isupper", "islower",
    "isxdigit", "ispunct", "isprint",
];

/// The functions of [`PURE_MATH`] (and the exact ones) that never set `errno`.
const WITHOUT_ERRNO: &[&str] = &[
    "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf",
    "fmin", "fmax", "cbrt", "atan", "tanh", "abs", "labs", "llabs", "toupper", "tolower",
    "isdigit", "isalpha", "isspace", "isalnum", "isupper", "islower", "isxdigit", "ispunct",
    "isprint",
];

impl<'p> Engine<'p> {
    /// An engine over two versions whose functions `pairs` correspond; the globals of
    /// `apart` (constants whose contents differ) get an address per version, and those
    /// of `same` (old, new: statics of units named otherwise) one address.
    pub fn new(
        programs: [&'p Program; 2],
        pairs: &[(FuncId, FuncId)],
        apart: [&[GlobalId]; 2],
        same: &[(GlobalId, GlobalId)],
        config: Config,
    ) -> Self {
        let mut pair_of = [FxHashMap::default(), FxHashMap::default()];
        for (index, (old, new)) in pairs.iter().enumerate() {
            let fo = &programs[0].functions[*old];
            let fnew = &programs[1].functions[*new];
            let reprs = |p: &Program, f: &Function| -> Vec<Repr> {
                f.params
                    .iter()
                    .map(|v| Repr::of(&p.types, f.locals[*v].ty))
                    .collect()
            };
            if reprs(programs[0], fo) == reprs(programs[1], fnew) {
                pair_of[0].insert(*old, index);
                pair_of[1].insert(*new, index);
            }
        }
        Engine {
            programs,
            smt: Smt::new(config.budget),
            config,
            layout: Layout::new(programs, apart, same),
            pair_of,
            equal_when: FxHashMap::default(),
            summaries: FxHashMap::default(),
            fresh: 0,
            started: Instant::now(),
            loop_abs: FxHashMap::default(),
            loop_proofs: FxHashMap::default(),
            use_loop_abstractions: false,
            cheap_feasibility: false,
            constant_facts: Default::default(),
            differing_targets: Default::default(),
            exits_on_false: FxHashMap::default(),
        }
    }

    /// Whether the exploration takes the false successor of `branch` first: the one that
    /// leaves a loop (cannot come back to the branch) when the true one stays in it. The
    /// depth-first search then finishes the paths that leave each loop after fewer
    /// iterations before those that iterate more, so a budget that runs out mid-way
    /// has covered the short paths (jsmn's `jsmn_parse`: the empty input, where the
    /// versions differ, is the path that never enters the main loop). The same paths
    /// are explored either way when the budget suffices.
    fn exit_first(&mut self, side: Side, func: FuncId, branch: NodeId) -> bool {
        let function = &self.programs[side.index()].functions[func];
        let flags = self.exits_on_false.entry((side, func)).or_insert_with(|| {
            let n = function.nodes.len();
            let sccs = ripple_graph::strongly_connected_components(n, [0], |node, i| {
                function.nodes[NodeId::from(node)]
                    .succs
                    .get(i)
                    .map(|s| s.index())
            });
            function
                .nodes
                .iter()
                .enumerate()
                .map(|(b, node)| match (&node.kind, node.succs.as_slice()) {
                    (NodeKind::Branch { .. }, [t, f]) => {
                        let within = |x: NodeId| {
                            sccs.is_reached(b)
                                && sccs.component_of[x.index()] == sccs.component_of[b]
                        };
                        within(*t) && !within(*f)
                    }
                    _ => false,
                })
                .collect()
        });
        flags.get(branch.index()).copied().unwrap_or(false)
    }

    /// The indirect call site `(function, node)` of `side` may call `functions`, which
    /// may behave differently from their counterparts (changed, without a counterpart,
    /// or calling such a function). An indirect call is an unknown function of its
    /// target, the same in both versions, which is sound only where the target does the
    /// same in both: a call whose target is one of these functions' addresses is instead
    /// an unknown function of its own version.
    pub fn set_differing_targets(
        &mut self,
        side: Side,
        site: (FuncId, NodeId),
        functions: &[FuncId],
    ) {
        let mut addresses: Vec<u64> = functions
            .iter()
            .map(|f| self.layout.function(side.index(), *f))
            .collect();
        addresses.sort_unstable();
        addresses.dedup();
        self.differing_targets[side.index()].insert(site, addresses);
    }

    pub fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// The pair index of a function, when it is matched with compatible parameters.
    pub fn pair_index(&self, side: Side, func: FuncId) -> Option<usize> {
        self.pair_of[side.index()].get(&func).copied()
    }

    fn input_key(&self, side: Side, func: FuncId) -> String {
        match self.pair_index(side, func) {
            Some(index) => format!("P{index}"),
            None => format!("{}{}", side.tag(), func.index()),
        }
    }

    /// Ends the engine without freeing its terms and solvers (for a process that exits
    /// right after: freeing a solver that bit-blasted large queries can take seconds).
    pub fn abandon(self) {
        std::mem::forget(self);
    }

    /// The size of the object pointer parameter `index` of `func` points into, from
    /// that pointer on: an input like the parameter itself (shared by both versions of
    /// a matched pair), so that an access through the parameter beyond it is a trap
    /// in both versions alike.
    pub fn object_size(&self, side: Side, func: FuncId, index: usize) -> BV {
        BV::new_const(format!("{}.objsize{index}", self.input_key(side, func)), 64)
    }

    /// The input symbols of a function (shared by both versions of a matched pair).
    pub fn inputs(&self, side: Side, func: FuncId) -> Inputs {
        let program = self.programs[side.index()];
        let function = &program.functions[func];
        let key = self.input_key(side, func);
        let params = function
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let bits = Repr::of(&program.types, function.locals[*v].ty).bits();
                BV::new_const(format!("{key}.a{i}"), bits)
            })
            .collect();
        Inputs {
            params,
            mem: crate::smt::memory_const(&format!("{key}.mem")),
            io: BV::new_const(format!("{key}.io"), 64),
        }
    }

    /// Sets the condition U under which the pair behaves identically (over its inputs).
    pub fn set_equal_when(&mut self, pair: usize, condition: Bool) {
        self.equal_when.insert(pair, condition);
    }

    pub fn summary(&self, side: Side, func: FuncId) -> Option<&ProcSummary> {
        self.summaries.get(&(side, func))
    }

    /// Takes a summary out (to put it back with [`Engine::put_summary`] if a later
    /// exploration is not kept).
    pub fn take_summary(&mut self, side: Side, func: FuncId) -> Option<ProcSummary> {
        self.summaries.remove(&(side, func))
    }

    pub fn put_summary(&mut self, side: Side, func: FuncId, summary: Option<ProcSummary>) {
        match summary {
            Some(s) => {
                self.summaries.insert((side, func), s);
            }
            None => {
                self.summaries.remove(&(side, func));
            }
        }
    }

    /// Forgets a summary (before re-analysis with new callee information).
    pub fn reset_summary(&mut self, side: Side, func: FuncId) {
        self.summaries.remove(&(side, func));
    }

    /// Explores `func` up to the configured bound and stores its summary; with a
    /// `precondition` (over any symbols, linked to the function's inputs by the caller),
    /// only paths compatible with it are explored and the new ones are added to the
    /// existing summary. Returns the number of new paths.
    pub fn explore(&mut self, side: Side, func: FuncId, precondition: Option<&Bool>) -> usize {
        let unwind = if precondition.is_some() {
            self.config.refine_unwind
        } else {
            self.config.unwind
        };
        self.explore_bounded(side, func, precondition, unwind)
    }

    /// [`Engine::explore`] with an explicit unwinding bound.
    pub fn explore_bounded(
        &mut self,
        side: Side,
        func: FuncId,
        precondition: Option<&Bool>,
        unwind: u32,
    ) -> usize {
        self.explore_into(side, func, precondition, unwind, false)
    }

    /// Explores `func` anew (no precondition) and replaces its summary. The calls on the
    /// explored paths use the summaries as they were before, a recursive function's calls
    /// of itself included: each re-exploration of a recursive function sees one more
    /// level of its own recursion (section 3: re-analysis with the callee's new summary),
    /// where forgetting the summary first would abstract every recursive call again.
    pub fn explore_fresh(&mut self, side: Side, func: FuncId, unwind: u32) -> usize {
        self.explore_into(side, func, None, unwind, true)
    }

    fn explore_into(
        &mut self,
        side: Side,
        func: FuncId,
        precondition: Option<&Bool>,
        unwind: u32,
        replace: bool,
    ) -> usize {
        let program = self.programs[side.index()];
        let inputs = self.inputs(side, func);
        let known = if replace {
            FxHashSet::default()
        } else {
            self.summaries
                .get(&(side, func))
                .map(|s| s.signatures.clone())
                .unwrap_or_default()
        };
        let mut run = Exploration::new(side, func, inputs.clone(), unwind);
        run.known = known;
        run.preconditioned = precondition.is_some();
        let function = &program.functions[func];
        if !function.is_defined() {
            return 0;
        }
        let mut regs: Vec<Option<BV>> = vec![None; function.locals.len()];
        for (i, var) in function.params.iter().enumerate() {
            regs[var.index()] = Some(inputs.params[i].clone());
        }
        let mut state = PathState::start(regs, inputs.mem.clone(), inputs.io.clone());
        // Parameters that live in memory (address-taken scalars, records and unions by
        // value) start in their frame slots, as the call stores them there.
        for (i, var) in function.params.iter().enumerate() {
            if function.locals[*var].storage == Storage::Memory {
                let addr = BV::from_u64(self.layout.local(side.index(), func, *var), 64);
                state.mem = store(&state.mem, &addr, &inputs.params[i]);
            }
        }
        self.smt.push();
        if let Some(pre) = precondition {
            self.smt.assert(pre);
        }
        self.run(&mut run, function.entry, state);
        self.smt.pop();
        let added = run.paths.len();
        if replace {
            self.summaries.remove(&(side, func));
        }
        let entry = self
            .summaries
            .entry((side, func))
            .or_insert_with(|| ProcSummary {
                inputs,
                paths: Vec::new(),
                diverge: Vec::new(),
                diverge_abstract: Vec::new(),
                cut: false,
                out_of_budget: false,
                signatures: FxHashSet::default(),
            });
        for path in run.paths {
            entry.signatures.insert(path.signature.clone());
            entry.paths.push(path);
        }
        entry.diverge.extend(run.diverge);
        entry.diverge_abstract.extend(run.diverge_abstract);
        if precondition.is_none() {
            entry.cut = run.cut;
        } else {
            entry.cut |= run.cut;
        }
        entry.out_of_budget |= run.out_of_budget;
        added
    }

    /// Makes sure a (possibly empty) summary exists.
    pub fn ensure_summary(&mut self, side: Side, func: FuncId) {
        if !self.summaries.contains_key(&(side, func)) {
            let inputs = self.inputs(side, func);
            self.summaries.insert(
                (side, func),
                ProcSummary {
                    inputs,
                    paths: Vec::new(),
                    diverge: Vec::new(),
                    diverge_abstract: Vec::new(),
                    cut: true,
                    out_of_budget: false,
                    signatures: FxHashSet::default(),
                },
            );
        }
    }

    fn fresh_name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}!{}", self.fresh)
    }

    /// Adds a path condition to the solver's stack (with costly operators uninterpreted
    /// when feasibility is checked that way, so that the stack stays cheap).
    fn assume_on_path(&mut self, condition: &Bool) {
        match self
            .cheap_feasibility
            .then(|| crate::smt::abstract_costly(condition))
            .flatten()
        {
            Some(cheap) => self.smt.assert(&cheap),
            None => self.smt.assert(condition),
        }
    }

    fn feasible(&mut self, extra: &Bool) -> bool {
        // Unknown counts as feasible: exploring an infeasible path only adds a summary
        // with an unsatisfiable condition.
        if self.cheap_feasibility {
            if let Some(cheap) = crate::smt::abstract_costly(extra) {
                return self.smt.check(&[cheap]) != Answer::Unsat;
            }
        }
        self.smt.check(std::slice::from_ref(extra)) != Answer::Unsat
    }

    fn run(&mut self, run: &mut Exploration, start: NodeId, mut st: PathState) {
        let side = run.side;
        let program = self.programs[side.index()];
        let function = &program.functions[run.func];
        let mut node_id = start;
        loop {
            self.smt.charge(STEP_WORK);
            if run.paths.len() >= self.config.max_paths || self.smt.out_of_time() {
                run.cut = true;
                run.out_of_budget |= self.smt.out_of_time();
                return;
            }
            if let Some(mode) = &run.iteration {
                if st.left_header && node_id == mode.header {
                    self.finish_iteration(run, st, false);
                    return;
                }
                if !mode.body[node_id.index()] {
                    if node_id == mode.exit {
                        self.finish_iteration(run, st, true);
                    } else {
                        run.iteration_failed = true;
                    }
                    return;
                }
                st.left_header = true;
            } else if let Some(abs) = self.loop_abstraction(side, run.func, node_id) {
                self.apply_loop_abstraction(side, run.func, &mut st, &abs);
                node_id = abs.exit;
                continue;
            }
            let node = &function.nodes[node_id];
            match &node.kind {
                NodeKind::Entry | NodeKind::Skip => {}
                NodeKind::Exit => {
                    self.finish_path(run, st, Status::Returned, None);
                    return;
                }
                NodeKind::Assign { dst, value } => {
                    let v = self.eval(side, run.func, &mut st, value);
                    let ok = self.write(side, run.func, &mut st, dst, &v);
                    if !self.check_traps(run, &mut st) || !ok {
                        return;
                    }
                }
                NodeKind::Havoc { dst, .. } => {
                    let name = self.fresh_name("havoc");
                    st.mem = crate::smt::memory_const(&format!("{name}.mem"));
                    if let Some(dst) = dst {
                        let bits = self.place_repr(side, run.func, dst).bits();
                        let v = BV::new_const(name, bits);
                        self.write(side, run.func, &mut st, dst, &v);
                    }
                }
                NodeKind::Branch { cond } => {
                    let count = st.visits.entry(node_id).or_insert(0);
                    *count += 1;
                    let count = *count;
                    // The unwinding bound counts the visits whose condition is symbolic;
                    // a loop whose condition is concrete on the path (a fixed trip
                    // count) runs to its end, up to a hard cap.
                    if count > CONCRETE_VISITS {
                        run.cut = true;
                        return;
                    }
                    if count >= 2 && self.state_repeats(&st, node_id) {
                        run.diverge.push(and_all(&st.conds));
                        return;
                    }
                    st.snapshots
                        .insert(node_id, (st.regs.clone(), st.mem.clone(), st.io.clone()));
                    let value = self.eval(side, run.func, &mut st, cond);
                    if !self.check_traps(run, &mut st) {
                        return;
                    }
                    let repr = Repr::of(&program.types, cond.ty);
                    let c = truth(&value, repr).simplify();
                    if c.as_bool().is_none() {
                        let symbolic = st.symbolic_visits.entry(node_id).or_insert(0);
                        *symbolic += 1;
                        if *symbolic > run.unwind + 1 {
                            run.cut = true;
                            return;
                        }
                    }
                    let taken = self.feasible(&c);
                    let not_taken = if taken { self.feasible(&c.not()) } else { true };
                    if taken && not_taken {
                        let mut ways = [(c.clone(), 1, node.succs[0]), (c.not(), 0, node.succs[1])];
                        if self.exit_first(side, run.func, node_id) {
                            ways.swap(0, 1);
                        }
                        let states = [st.clone(), st];
                        for ((cond, bit, succ), mut state) in ways.into_iter().zip(states) {
                            state.conds.push(cond.clone());
                            state.signature.push(node_id.index() as u32 * 2 + bit);
                            self.smt.push();
                            self.assume_on_path(&cond);
                            self.run(run, succ, state);
                            self.smt.pop();
                        }
                        return;
                    }
                    if run.preconditioned && c.as_bool().is_none() {
                        // Only one direction is feasible under the precondition; the
                        // path summary must still hold for every input, so it keeps
                        // the direction's condition.
                        st.conds.push(if taken { c.clone() } else { c.not() });
                        st.signature
                            .push(node_id.index() as u32 * 2 + u32::from(taken));
                    }
                    node_id = if taken { node.succs[0] } else { node.succs[1] };
                    continue;
                }
                NodeKind::Call { dst, callee, args } => {
                    if !self.call(run, &mut st, node_id, dst.as_ref(), callee, args) {
                        return;
                    }
                }
            }
            node_id = node.succs[0];
        }
    }

    /// Whether the state at a loop head equals the state at its previous visit for every
    /// input on the path (then the path loops forever: the program is deterministic).
    fn state_repeats(&mut self, st: &PathState, node: NodeId) -> bool {
        let Some((regs, mem, io)) = st.snapshots.get(&node) else {
            return false;
        };
        let mut differs = Vec::new();
        for (now, before) in st.regs.iter().zip(regs) {
            match (now, before) {
                (Some(a), Some(b)) => {
                    if !a.ast_eq(b) {
                        differs.push(a.eq(b).not());
                    }
                }
                (None, None) => {}
                _ => return false,
            }
        }
        if !st.mem.ast_eq(mem) {
            differs.push(st.mem.eq(mem).not());
        }
        if !st.io.ast_eq(io) {
            differs.push(st.io.eq(io).not());
        }
        if differs.is_empty() {
            return true;
        }
        self.smt.check(&[or_all(&differs)]) == Answer::Unsat
    }

    fn finish_path(
        &mut self,
        run: &mut Exploration,
        st: PathState,
        status: Status,
        code: Option<BV>,
    ) {
        if run.known.contains(&st.signature) {
            return;
        }
        let side = run.side;
        let program = self.programs[side.index()];
        let function = &program.functions[run.func];
        let ret = if status == Status::Returned {
            function.ret_var.map(|v| {
                let repr = Repr::of(&program.types, function.locals[v].ty);
                let bits = repr.bits();
                if function.locals[v].storage == Storage::Memory {
                    // A record returned by value is built in its frame slot.
                    let addr = BV::from_u64(self.layout.local(side.index(), run.func, v), 64);
                    return load(&st.mem, &addr, repr.bytes());
                }
                st.regs[v.index()].clone().unwrap_or_else(|| {
                    BV::new_const(
                        format!("{}.undef_ret", self.input_key(side, run.func)),
                        bits,
                    )
                })
            })
        } else {
            None
        };
        // Dead frames are restored to their entry contents.
        let mut mem = st.mem.clone();
        for (address, size) in self.layout.frame(side.index(), run.func, program) {
            for i in 0..size.min(4096) {
                let at = BV::from_u64(address + i, 64);
                mem = mem.store(&at, &run.inputs.mem.select(&at));
            }
        }
        let out = Outcome {
            status: BV::from_u64(status as u64, 8),
            code: code.unwrap_or_else(|| BV::from_u64(0, 32)),
            ret,
            mem,
            io: st.io.clone(),
        };
        self.record(run, st, out);
    }

    fn record(&mut self, run: &mut Exploration, st: PathState, out: Outcome) {
        run.known.insert(st.signature.clone());
        run.paths.push(PathSummary {
            reach: and_all(&st.conds),
            out,
            abstracted: or_all(&st.abstracted),
            calls: st.calls,
            undefined: st.undefined.unwrap_or_else(|| Bool::from_bool(false)),
            signature: st.signature,
        });
    }

    /// Ends the path `trapped` in a trap.
    fn record_trap(&mut self, run: &mut Exploration, mut trapped: PathState) {
        trapped.signature.push(u32::MAX - 1);
        let out = Outcome {
            status: BV::from_u64(Status::Trap as u64, 8),
            code: BV::from_u64(0, 32),
            ret: None,
            mem: trapped.mem.clone(),
            io: trapped.io.clone(),
        };
        self.record(run, trapped, out);
    }

    /// Splits off the trap paths raised while evaluating a node; false when the normal
    /// continuation is infeasible.
    fn check_traps(&mut self, run: &mut Exploration, st: &mut PathState) -> bool {
        if st.traps.is_empty() {
            return true;
        }
        let trap = or_all(&std::mem::take(&mut st.traps)).simplify();
        if self.feasible(&trap) {
            let mut trapped = st.clone();
            trapped.conds.push(trap.clone());
            self.record_trap(run, trapped);
        }
        let ok = trap.not();
        if !self.feasible(&ok) {
            return false;
        }
        st.conds.push(ok.clone());
        st.signature.push(u32::MAX - 2);
        self.assume_on_path(&ok);
        true
    }

    /// The object an address expression points into when it is built (plus offsets)
    /// from the address of a local or global object: its address and size.
    fn object_of(&self, side: Side, func: FuncId, addr: &Expr) -> Option<(BV, BV)> {
        let program = self.programs[side.index()];
        let function = &program.functions[func];
        let fixed = |base: u64, size: u64| {
            (size > 0).then(|| (BV::from_u64(base, 64), BV::from_u64(size, 64)))
        };
        match &addr.kind {
            ExprKind::Cast(inner) => self.object_of(side, func, inner),
            ExprKind::Binary(ripple_ir::BinOp::PtrAdd, base, _) => self.object_of(side, func, base),
            ExprKind::AddrOfLocal(v) => fixed(
                self.layout.local(side.index(), func, *v),
                program.types.size_of(function.locals[*v].ty),
            ),
            ExprKind::AddrOfGlobal(g) => fixed(
                self.layout.global(side.index(), *g),
                program.types.size_of(program.globals[*g].ty),
            ),
            _ => None,
        }
    }

    /// The pointer parameter an address value is built from: the parameter's input
    /// itself or a sum with it (`p + 8 * i`, `p` after `p++`), so that both versions of
    /// a pair check their accesses through it alike however they step the pointer.
    fn parameter_object(&self, side: Side, func: FuncId, a: &BV) -> Option<(BV, BV)> {
        let program = self.programs[side.index()];
        let function = &program.functions[func];
        let pointers: Vec<usize> = (0..function.params.len())
            .filter(|&i| {
                matches!(
                    program.types.get(function.locals[function.params[i]].ty),
                    Type::Pointer(_)
                )
            })
            .collect();
        if pointers.is_empty() {
            return None;
        }
        let inputs = self.inputs(side, func);
        let value = a.simplify();
        let mut terms = vec![Dynamic::from_ast(&value)];
        if value.is_app() && value.decl().kind() == z3::DeclKind::Badd {
            terms = value.children();
        }
        for &i in &pointers {
            let input = Dynamic::from_ast(&inputs.params[i]);
            if terms.iter().any(|t| t == &input) {
                return Some((inputs.params[i].clone(), self.object_size(side, func, i)));
            }
        }
        None
    }

    /// The bytes from the address `a` (a pointer of `func`) to the end of its object:
    /// of the pointer parameter it is built from, or of the local or global object it
    /// is a constant address in; else unbounded (an object the analysis does not know).
    fn object_left(&self, side: Side, func: FuncId, a: &BV) -> BV {
        if let Some((base, size)) = self.parameter_object(side, func, a) {
            return size.bvsub(a.bvsub(&base));
        }
        if let Some(address) = a.simplify().as_u64() {
            if let Some((start, size)) = self.known_object_at(side, func, address) {
                return BV::from_u64(start + size - address, 64);
            }
        }
        BV::from_u64(UNBOUNDED_OBJECT, 64)
    }

    /// The local (of `func`) or global object holding `address`: its start and size.
    fn known_object_at(&self, side: Side, func: FuncId, address: u64) -> Option<(u64, u64)> {
        let program = self.programs[side.index()];
        let globals = program.globals.iter_enumerated().map(|(g, global)| {
            (
                self.layout.global(side.index(), g),
                program.types.size_of(global.ty),
            )
        });
        self.layout
            .frame(side.index(), func, program)
            .into_iter()
            .chain(globals)
            .find(|&(start, size)| address >= start && address < start + size)
    }

    /// The local or global object an address value is built from: a constant address
    /// in it plus a variable offset (`&a[0] + 4 * i` held in a temporary).
    fn constant_object(&self, side: Side, func: FuncId, a: &BV) -> Option<(BV, BV)> {
        let value = a.simplify();
        let constant = if let Some(address) = value.as_u64() {
            address
        } else if value.is_app() && value.decl().kind() == z3::DeclKind::Badd {
            value.children().iter().find_map(|c| c.as_bv()?.as_u64())?
        } else {
            return None;
        };
        let (start, size) = self.known_object_at(side, func, constant)?;
        Some((BV::from_u64(start, 64), BV::from_u64(size, 64)))
    }

    /// An access of `bytes` bytes at `a` (from the expression `addr`) outside the local
    /// or global object `addr` is built from is undefined: a trap path, as the
    /// interpreter's trap, so that a version reading out of bounds where the other does
    /// not is never taken for equivalent.
    fn check_bounds(
        &self,
        side: Side,
        func: FuncId,
        st: &mut PathState,
        addr: &Expr,
        a: &BV,
        bytes: u32,
    ) {
        // An incomplete type (size 0) is not checked: its size is not known.
        // A null pointer parameter points to an object of size 0
        // (`semdiff::procdiff::input_assumptions`).
        let mut from_parameter = false;
        let object = self
            .object_of(side, func, addr)
            .or_else(|| {
                let object = self.parameter_object(side, func, a);
                from_parameter = object.is_some();
                object
            })
            .or_else(|| self.constant_object(side, func, a));
        let (base, size) = match object {
            Some(object) => object,
            None => {
                // A pointer into an object the analysis does not know may still be
                // null: an access in the first page (`*p`, or `p->field` of a null
                // `p`) traps, as it does on the machine.
                let null = a.bvult(BV::from_u64(NULL_PAGE, 64)).simplify();
                if null.as_bool() != Some(false) {
                    st.traps.push(null);
                }
                return;
            }
        };
        let width = BV::from_u64(u64::from(bytes), 64);
        let offset = a.bvsub(&base);
        let mut outside = Bool::or(&[size.bvult(&width), offset.bvugt(size.bvsub(&width))]);
        // A pointer argument may point into its object anywhere (`get(buf + 1)`, sds'
        // strings after their header): what lies before it is input memory like what
        // follows, not a trap in every run. Its size is what follows.
        if from_parameter {
            outside = Bool::and(&[a.bvuge(&base), outside]);
        }
        let outside = outside.simplify();
        if outside.as_bool() != Some(false) {
            st.traps.push(outside);
        }
    }

    fn place_repr(&self, side: Side, func: FuncId, place: &Place) -> Repr {
        let program = self.programs[side.index()];
        match place {
            Place::Local(v) => Repr::of(&program.types, program.functions[func].locals[*v].ty),
            Place::Mem { ty, .. } => Repr::of(&program.types, *ty),
            Place::Bits { unit, .. } => Repr::of(&program.types, *unit),
        }
    }

    fn write(
        &mut self,
        side: Side,
        func: FuncId,
        st: &mut PathState,
        place: &Place,
        value: &BV,
    ) -> bool {
        match place {
            Place::Local(v) => {
                let repr = self.place_repr(side, func, place);
                st.regs[v.index()] = Some(resize(value, repr.bits(), false));
            }
            Place::Mem { addr, ty } => {
                let a = self.eval(side, func, st, addr);
                let repr = Repr::of(&self.programs[side.index()].types, *ty);
                self.check_bounds(side, func, st, addr, &a, repr.bytes());
                let v = resize(value, repr.bits(), false);
                st.mem = store(&st.mem, &a, &v);
            }
            Place::Bits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(side, func, st, addr);
                let repr = Repr::of(&self.programs[side.index()].types, *unit);
                st.mem = encode::store_bits(&st.mem, &a, repr.bytes(), *bit_offset, *width, value);
            }
        }
        true
    }

    fn eval(&mut self, side: Side, func: FuncId, st: &mut PathState, expr: &Expr) -> BV {
        let program = self.programs[side.index()];
        let types = &program.types;
        let repr = Repr::of(types, expr.ty);
        match &expr.kind {
            ExprKind::Int(v) => bv_const(*v, repr.bits()),
            ExprKind::Float(f) => match repr {
                Repr::Float { bits: 32 } => BV::from_u64(u64::from((*f as f32).to_bits()), 32),
                _ => BV::from_u64(f.to_bits(), 64),
            },
            ExprKind::Local(v) => match &st.regs[v.index()] {
                Some(value) => resize(value, repr.bits(), false),
                None => {
                    // An uninitialised register: an arbitrary value of its own.
                    let name = self.fresh_name(&format!(
                        "{}.undef{}",
                        self.input_key(side, func),
                        v.index()
                    ));
                    let value = BV::new_const(name, repr.bits());
                    st.regs[v.index()] = Some(value.clone());
                    value
                }
            },
            ExprKind::AddrOfLocal(v) => BV::from_u64(self.layout.local(side.index(), func, *v), 64),
            ExprKind::AddrOfGlobal(g) => BV::from_u64(self.layout.global(side.index(), *g), 64),
            ExprKind::AddrOfFunc(f) => BV::from_u64(self.layout.function(side.index(), *f), 64),
            ExprKind::Load(addr) => {
                let a = self.eval(side, func, st, addr);
                self.check_bounds(side, func, st, addr, &a, repr.bytes());
                load(&st.mem, &a, repr.bytes())
            }
            ExprKind::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(side, func, st, addr);
                let unit_repr = Repr::of(types, *unit);
                self.check_bounds(side, func, st, addr, &a, unit_repr.bytes());
                encode::load_bits(
                    &st.mem,
                    &a,
                    unit_repr.bytes(),
                    *bit_offset,
                    *width,
                    repr.bits(),
                    types.is_signed(expr.ty),
                )
            }
            ExprKind::Unary(op, operand) => {
                let v = self.eval(side, func, st, operand);
                let orepr = Repr::of(types, operand.ty);
                if *op == ripple_ir::UnOp::Neg {
                    st.note_overflow(encode::signed_overflow(None, &v, None, orepr));
                }
                encode::unary(*op, &v, orepr, repr.bits())
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let a = self.eval(side, func, st, lhs);
                let b = self.eval(side, func, st, rhs);
                if types.is_long_double(lhs.ty) && op.is_arithmetic() {
                    // Computed as `double`, the result could be wrong: a value of its
                    // own, as unmodelled code gives (differences through it are only
                    // possible, and nothing through it is proved equal).
                    return BV::new_const(self.fresh_name("havoc"), repr.bits());
                }
                let lrepr = Repr::of(types, lhs.ty);
                let rrepr = Repr::of(types, rhs.ty);
                if let Some(trap) = encode::division_trap(*op, &a, &b, lrepr) {
                    st.traps.push(trap);
                }
                st.note_overflow(encode::signed_overflow(Some(*op), &a, Some(&b), lrepr));
                encode::binary(*op, &a, &b, lrepr, rrepr, repr)
            }
            ExprKind::Cast(operand) => {
                let v = self.eval(side, func, st, operand);
                encode::convert(types, &v, Repr::of(types, operand.ty), expr.ty)
            }
        }
    }

    /// A call node; false when the path ends here.
    fn call(
        &mut self,
        run: &mut Exploration,
        st: &mut PathState,
        node: NodeId,
        dst: Option<&Place>,
        callee: &Callee,
        args: &[Expr],
    ) -> bool {
        let side = run.side;
        let program = self.programs[side.index()];
        let mut values = Vec::with_capacity(args.len());
        let mut reprs = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(side, run.func, st, arg));
            reprs.push(Repr::of(&program.types, arg.ty));
        }
        if !self.check_traps(run, st) {
            return false;
        }
        let dst_repr = dst.map(|d| self.place_repr(side, run.func, d));
        match callee {
            Callee::Direct(target) if program.functions[*target].is_defined() => {
                self.call_summary(run, st, *target, &values, dst, dst_repr)
            }
            Callee::Direct(target) => {
                let name = program.functions[*target].name.clone();
                let ret_ty = program.functions[*target].return_type(&program.types);
                let ret_repr = Repr::of(&program.types, ret_ty);
                self.call_external(run, st, &name, &values, &reprs, ret_repr, dst, dst_repr)
            }
            Callee::Indirect(target) => {
                let t = self.eval(side, run.func, st, target);
                let mut all = vec![t.clone()];
                all.extend(values);
                let ret_repr = dst_repr.unwrap_or(Repr::Void);
                let ret_bits = (ret_repr != Repr::Void).then(|| ret_repr.bits());
                let (mut ret, mut mem, mut io) =
                    self.uf_outputs("ext", "(indirect)", &all, &st.mem, &st.io, ret_bits);
                let differing = self.differing_targets[side.index()]
                    .get(&(run.func, node))
                    .map_or(&[][..], Vec::as_slice);
                if !differing.is_empty() {
                    let own = if side == Side::Old {
                        "(indirect).old"
                    } else {
                        "(indirect).new"
                    };
                    let (ret_v, mem_v, io_v) =
                        self.uf_outputs("ext", own, &all, &st.mem, &st.io, ret_bits);
                    let hits: Vec<Bool> = differing
                        .iter()
                        .map(|a| t.eq(BV::from_u64(*a, t.get_size())))
                        .collect();
                    let hit = or_all(&hits);
                    ret = match (ret, ret_v) {
                        (Some(r), Some(v)) => Some(hit.ite(&v, &r)),
                        (r, _) => r,
                    };
                    mem = hit.ite(&mem_v, &mem);
                    io = hit.ite(&io_v, &io);
                }
                st.mem = mem;
                st.io = io;
                self.write_result(run, st, dst, dst_repr, ret, ret_repr);
                true
            }
            Callee::Intrinsic(intrinsic) => {
                self.call_intrinsic(run, st, *intrinsic, &values, dst, dst_repr)
            }
        }
    }

    fn call_intrinsic(
        &mut self,
        run: &mut Exploration,
        st: &mut PathState,
        intrinsic: Intrinsic,
        values: &[BV],
        dst: Option<&Place>,
        dst_repr: Option<Repr>,
    ) -> bool {
        let side = run.side;
        match intrinsic {
            Intrinsic::Memcpy | Intrinsic::Memset => {
                let size = values.get(2).map(|s| s.simplify()).and_then(|s| s.as_u64());
                match size {
                    Some(n) if n <= 4096 => {
                        for i in 0..n {
                            let off = BV::from_u64(i, 64);
                            let to = values[0].bvadd(&off);
                            let byte = if intrinsic == Intrinsic::Memcpy {
                                st.mem.select(&values[1].bvadd(&off)).as_bv().expect("byte")
                            } else {
                                resize(&values[1], 8, false)
                            };
                            st.mem = st.mem.store(&to, &byte);
                        }
                    }
                    _ => {
                        let out = self.uf_outputs(
                            "intrinsic",
                            intrinsic.name(),
                            values,
                            &st.mem,
                            &st.io,
                            None,
                        );
                        st.mem = out.1;
                    }
                }
                if let (Some(d), Some(_)) = (dst, dst_repr) {
                    let v = values[0].clone();
                    self.write(side, run.func, st, d, &v);
                }
            }
            _ => {
                // va_* and alloca: unknown effects, the same in both versions for the
                // same inputs.
                let ret = dst_repr.map(|r| r.bits());
                let out =
                    self.uf_outputs("intrinsic", intrinsic.name(), values, &st.mem, &st.io, ret);
                st.mem = out.1;
                if let (Some(d), Some(v)) = (dst, out.0) {
                    self.write(side, run.func, st, d, &v);
                }
            }
        }
        true
    }

    /// Uninterpreted outputs (return value, memory) of an operation over its inputs.
    fn uf_outputs(
        &self,
        family: &str,
        name: &str,
        values: &[BV],
        mem: &Array,
        io: &BV,
        ret_bits: Option<u32>,
    ) -> (Option<BV>, Array, BV) {
        let mut domain: Vec<Sort> = values
            .iter()
            .map(|v| Sort::bitvector(v.get_size()))
            .collect();
        domain.push(crate::smt::memory_sort());
        domain.push(Sort::bitvector(64));
        let domain_refs: Vec<&Sort> = domain.iter().collect();
        let sig: String = values
            .iter()
            .map(|v| v.get_size().to_string())
            .collect::<Vec<_>>()
            .join("_");
        let mut args: Vec<&dyn Ast> = values.iter().map(|v| v as &dyn Ast).collect();
        args.push(mem);
        args.push(io);
        let ret = ret_bits.map(|bits| {
            let f = FuncDecl::new(
                format!("{family}.{name}.ret.{sig}.{bits}"),
                &domain_refs,
                &Sort::bitvector(bits),
            );
            f.apply(&args).as_bv().expect("bv")
        });
        let fm = FuncDecl::new(
            format!("{family}.{name}.mem.{sig}"),
            &domain_refs,
            &crate::smt::memory_sort(),
        );
        let fio = FuncDecl::new(
            format!("{family}.{name}.io.{sig}"),
            &domain_refs,
            &Sort::bitvector(64),
        );
        (
            ret,
            fm.apply(&args).as_array().expect("array"),
            fio.apply(&args).as_bv().expect("bv"),
        )
    }

    #[allow(clippy::too_many_arguments)] // One call node's parts, taken apart by the caller.
    fn call_external(
        &mut self,
        run: &mut Exploration,
        st: &mut PathState,
        name: &str,
        values: &[BV],
        reprs: &[Repr],
        ret_repr: Repr,
        dst: Option<&Place>,
        dst_repr: Option<Repr>,
    ) -> bool {
        let base = name.trim_start_matches("__builtin_");
        let ret_bits = (ret_repr != Repr::Void).then(|| ret_repr.bits());
        match base {
            "exit" | "_exit" | "_Exit" | "abort" => {
                let mut ended = st.clone();
                let (status, code) = if base == "abort" {
                    (Status::Abort, BV::from_u64(0, 32))
                } else {
                    (
                        Status::Exit,
                        resize(values.first().unwrap_or(&BV::from_u64(0, 32)), 32, true),
                    )
                };
                ended.signature.push(u32::MAX - 3);
                // `_exit`, `_Exit` and `abort` end the process without flushing stdio:
                // the output still buffered (how much depends on where it goes) is
                // lost, so what is seen is a function of all the output so far.
                let io = if base == "exit" {
                    ended.io.clone()
                } else {
                    let bits = Sort::bitvector(64);
                    FuncDecl::new("libc.unflushed", &[&bits], &bits)
                        .apply(&[&ended.io])
                        .as_bv()
                        .expect("bv")
                };
                let out = Outcome {
                    status: BV::from_u64(status as u64, 8),
                    code,
                    ret: None,
                    mem: ended.mem.clone(),
                    io,
                };
                self.record(run, ended, out);
                return false;
            }
            // Undefined behaviour where it is reached: a trap, as the interpreter's.
            "unreachable" if name == "__builtin_unreachable" => {
                self.record_trap(run, st.clone());
                return false;
            }
            _ => {}
        }
        let float_arg = |i: usize| matches!(reprs.get(i), Some(Repr::Float { .. }));
        let exact = match base {
            "sqrt" | "sqrtf" if float_arg(0) => Some(fp_to_bits(&fp_from_bits(&values[0]).sqrt())),
            "fabs" | "fabsf" if float_arg(0) => {
                Some(fp_to_bits(&fp_from_bits(&values[0]).unary_abs()))
            }
            "floor" | "floorf" if float_arg(0) => {
                Some(fp_to_bits(&fp_round(&fp_from_bits(&values[0]), false)))
            }
            "ceil" | "ceilf" if float_arg(0) => {
                Some(fp_to_bits(&fp_round(&fp_from_bits(&values[0]), true)))
            }
            _ => None,
        };
        // glibc's mathematical functions set `errno` on domain and range errors: memory
        // after the call is a function of the arguments and memory before it.
        if (exact.is_some() || PURE_MATH.contains(&base)) && !WITHOUT_ERRNO.contains(&base) {
            let (_, mem, _) = self.uf_outputs("libm", base, values, &st.mem, &st.io, None);
            st.mem = mem;
        }
        let value = if let Some(v) = exact {
            Some(v)
        } else if PURE_MATH.contains(&base) {
            // A pure function: equal arguments give equal results.
            ret_bits.map(|bits| {
                let domain: Vec<Sort> = values
                    .iter()
                    .map(|v| Sort::bitvector(v.get_size()))
                    .collect();
                let refs: Vec<&Sort> = domain.iter().collect();
                let args: Vec<&dyn Ast> = values.iter().map(|v| v as &dyn Ast).collect();
                FuncDecl::new(format!("libm.{base}.{bits}"), &refs, &Sort::bitvector(bits))
                    .apply(&args)
                    .as_bv()
                    .expect("bv")
            })
        } else {
            let (name, values) = self.library_call_key(run.side, base, values);
            let (ret, mem, io) = self.uf_outputs("ext", &name, &values, &st.mem, &st.io, ret_bits);
            st.mem = mem;
            st.io = io;
            ret
        };
        self.write_result(run, st, dst, dst_repr, value, ret_repr);
        true
    }

    /// The name and arguments a library call is an uninterpreted function of, with
    /// what the function ignores taken out, so that calls that behave alike are one
    /// application: `memset` uses its value converted to `unsigned char` (C11
    /// 7.24.6.1), and a `printf`-family function whose format is a string literal is a
    /// function of the literal's text (named in the function, the pointer dropped),
    /// `%i` written as `%d` (the same conversion in output, C11 7.21.6.1).
    fn library_call_key(&self, side: Side, base: &str, values: &[BV]) -> (String, Vec<BV>) {
        let mut values = values.to_vec();
        if base == "memset" && values.len() == 3 {
            let c = &values[1];
            let bits = c.get_size();
            if bits > 8 {
                values[1] = c.extract(7, 0).zero_ext(bits - 8);
            }
            return (base.to_string(), values);
        }
        let format_at = match base {
            "printf" | "vprintf" => 0,
            "fprintf" | "sprintf" | "dprintf" | "vfprintf" | "vsprintf" => 1,
            "snprintf" | "vsnprintf" => 2,
            _ => return (base.to_string(), values),
        };
        let Some(text) = values
            .get(format_at)
            .and_then(|v| v.simplify().as_u64())
            .and_then(|address| self.literal_text(side, address))
        else {
            return (base.to_string(), values);
        };
        values.remove(format_at);
        let hex: String = canonical_format(&text)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        (format!("{base}[{hex}]"), values)
    }

    /// The bytes of the string literal of version `side` at `address`, up to its
    /// terminating zero.
    fn literal_text(&self, side: Side, address: u64) -> Option<Vec<u8>> {
        let program = self.programs[side.index()];
        let global = &program.globals[self.layout.literal_at(side.index(), address)?];
        let init = global.init.as_ref()?;
        let size = program.types.size_of(global.ty) as usize;
        let mut bytes = vec![0u8; size];
        for item in &init.items {
            match item {
                InitItem::Bytes { offset, bytes: b } => {
                    for (i, byte) in b.iter().enumerate() {
                        *bytes.get_mut(*offset as usize + i)? = *byte;
                    }
                }
                _ => return None,
            }
        }
        let end = bytes.iter().position(|b| *b == 0)?;
        bytes.truncate(end);
        Some(bytes)
    }

    /// Writes a call's result (of representation `ret_repr`) to its destination.
    fn write_result(
        &mut self,
        run: &Exploration,
        st: &mut PathState,
        dst: Option<&Place>,
        dst_repr: Option<Repr>,
        value: Option<BV>,
        ret_repr: Repr,
    ) {
        if let (Some(d), Some(r), Some(v)) = (dst, dst_repr, value) {
            let v = encode::cast(&v, ret_repr, r);
            self.write(run.side, run.func, st, d, &v);
        }
    }

    /// A call of a defined function through its summary (section 3, equations 1-2, with
    /// the abstraction of section 6.1).
    fn call_summary(
        &mut self,
        run: &mut Exploration,
        st: &mut PathState,
        target: FuncId,
        values: &[BV],
        dst: Option<&Place>,
        dst_repr: Option<Repr>,
    ) -> bool {
        let side = run.side;
        let program = self.programs[side.index()];
        self.ensure_summary(side, target);
        let summary = self.summaries[&(side, target)].clone();
        let callee = &program.functions[target];
        // Arguments converted to the parameter widths.
        let args: Vec<BV> = summary
            .inputs
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let v = values
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| BV::from_u64(0, p.get_size()));
                resize(&v, p.get_size(), false)
            })
            .collect();
        let mut from: Vec<Dynamic> = Vec::new();
        let mut to: Vec<Dynamic> = Vec::new();
        for (p, a) in summary.inputs.params.iter().zip(&args) {
            from.push(Dynamic::from_ast(p));
            to.push(Dynamic::from_ast(a));
        }
        from.push(Dynamic::from_ast(&summary.inputs.mem));
        to.push(Dynamic::from_ast(&st.mem));
        from.push(Dynamic::from_ast(&summary.inputs.io));
        to.push(Dynamic::from_ast(&st.io));
        // The objects the callee's pointer parameters point into are the caller's.
        for (i, arg) in args.iter().enumerate() {
            let param = callee.params[i];
            if matches!(program.types.get(callee.locals[param].ty), Type::Pointer(_)) {
                from.push(Dynamic::from_ast(&self.object_size(side, target, i)));
                to.push(Dynamic::from_ast(&self.object_left(side, run.func, arg)));
            }
        }
        let pairs: Vec<(&Dynamic, &Dynamic)> = from.iter().zip(&to).collect();
        let subst_bool = |b: &Bool| -> Bool {
            b.substitute(&pairs.iter().map(|(f, t)| (*f, *t)).collect::<Vec<_>>())
        };
        let subst_dyn = |d: Dynamic| -> Dynamic {
            d.substitute(&pairs.iter().map(|(f, t)| (*f, *t)).collect::<Vec<_>>())
        };
        let subst_bv = |b: &BV| subst_dyn(Dynamic::from_ast(b)).as_bv().expect("bv");
        let subst_arr = |a: &Array| subst_dyn(Dynamic::from_ast(a)).as_array().expect("array");

        // The abstraction of unexplored paths.
        let ret_bits = callee
            .ret_var
            .map(|v| Repr::of(&program.types, callee.locals[v].ty).bits());
        let pair = self.pair_index(side, target);
        let (shared_key, own_key) = (
            pair.map(|p| format!("uf.P{p}")),
            format!("uf.{}{}", side.tag(), target.index()),
        );
        let equal = pair
            .and_then(|p| self.equal_when.get(&p))
            .map(&subst_bool)
            .unwrap_or_else(|| Bool::from_bool(false));
        let equal = equal.simplify();
        let uf = |key: &str| -> (Option<BV>, Array, BV, BV, BV, Bool) {
            let mut domain: Vec<Sort> =
                args.iter().map(|v| Sort::bitvector(v.get_size())).collect();
            domain.push(crate::smt::memory_sort());
            domain.push(Sort::bitvector(64));
            let refs: Vec<&Sort> = domain.iter().collect();
            let mut app: Vec<&dyn Ast> = args.iter().map(|v| v as &dyn Ast).collect();
            app.push(&st.mem);
            app.push(&st.io);
            let ret = ret_bits.map(|bits| {
                FuncDecl::new(format!("{key}.ret"), &refs, &Sort::bitvector(bits))
                    .apply(&app)
                    .as_bv()
                    .expect("bv")
            });
            let mem = FuncDecl::new(format!("{key}.mem"), &refs, &crate::smt::memory_sort())
                .apply(&app)
                .as_array()
                .expect("array");
            let io = FuncDecl::new(format!("{key}.io"), &refs, &Sort::bitvector(64))
                .apply(&app)
                .as_bv()
                .expect("bv");
            let status = FuncDecl::new(format!("{key}.status"), &refs, &Sort::bitvector(8))
                .apply(&app)
                .as_bv()
                .expect("bv");
            let code = FuncDecl::new(format!("{key}.code"), &refs, &Sort::bitvector(32))
                .apply(&app)
                .as_bv()
                .expect("bv");
            let term = FuncDecl::new(format!("{key}.term"), &refs, &Sort::bool())
                .apply(&app)
                .as_bool()
                .expect("bool");
            (ret, mem, io, status, code, term)
        };
        let own = uf(&own_key);
        let abstract_out = match &shared_key {
            Some(key) if equal.as_bool() != Some(false) => {
                let shared = uf(key);
                (
                    match (&shared.0, &own.0) {
                        (Some(a), Some(b)) => Some(equal.ite(a, b)),
                        _ => None,
                    },
                    equal.ite(&shared.1, &own.1),
                    equal.ite(&shared.2, &own.2),
                    equal.ite(&shared.3, &own.3),
                    equal.ite(&shared.4, &own.4),
                    equal.ite(&shared.5, &own.5),
                )
            }
            _ => own,
        };
        let (mut ret, mut mem, mut io, mut status, mut code, term) = abstract_out;
        let mut covered = Vec::new();
        let mut abs_parts = Vec::new();
        for path in summary.paths.iter().rev() {
            let r = subst_bool(&path.reach);
            covered.push(r.clone());
            abs_parts.push(Bool::and(&[r.clone(), subst_bool(&path.abstracted)]));
            ret = match (&path.out.ret, ret) {
                (Some(pr), Some(cur)) => Some(r.ite(&subst_bv(pr), &cur)),
                (None, Some(cur)) => Some(cur),
                (_, None) => None,
            };
            mem = r.ite(&subst_arr(&path.out.mem), &mem);
            io = r.ite(&subst_bv(&path.out.io), &io);
            status = r.ite(&subst_bv(&path.out.status), &status);
            code = r.ite(&subst_bv(&path.out.code), &code);
        }
        let diverge_known = or_all(&summary.diverge.iter().map(&subst_bool).collect::<Vec<_>>());
        let diverge_inner = or_all(
            &summary
                .diverge_abstract
                .iter()
                .map(&subst_bool)
                .collect::<Vec<_>>(),
        );
        let unexplored = Bool::and(&[
            or_all(&covered).not(),
            diverge_known.not(),
            diverge_inner.not(),
        ])
        .simplify();
        let diverges_abstract =
            Bool::or(&[diverge_inner, Bool::and(&[unexplored.clone(), term.not()])]).simplify();
        let diverges = Bool::or(&[diverge_known.clone(), diverges_abstract.clone()]).simplify();
        st.calls.push(CallSite {
            side,
            callee: target,
            args: args.clone(),
            mem: st.mem.clone(),
            io: st.io.clone(),
            unexplored: unexplored.clone(),
        });
        abs_parts.push(unexplored.clone());
        st.abstracted.push(or_all(&abs_parts).simplify());
        st.signature.push(u32::MAX - 10 - target.index() as u32);
        // Non-termination inside the callee ends this path as divergent.
        for (condition, proved) in [(diverge_known, true), (diverges_abstract, false)] {
            let condition = condition.simplify();
            if condition.as_bool() != Some(false) && self.feasible(&condition) {
                let mut conds = st.conds.clone();
                conds.push(condition);
                if proved {
                    run.diverge.push(and_all(&conds));
                } else {
                    run.diverge_abstract.push(and_all(&conds));
                }
            }
        }
        let goes_on = diverges.not();
        if !self.feasible(&goes_on) {
            return false;
        }
        st.conds.push(goes_on.clone());
        self.assume_on_path(&goes_on);
        // The callee may end the program (exit, trap, abort).
        let returned = status
            .eq(BV::from_u64(Status::Returned as u64, 8))
            .simplify();
        if returned.as_bool() != Some(true) {
            let stopped = returned.not();
            if self.feasible(&stopped) {
                let mut ended = st.clone();
                ended.conds.push(stopped);
                ended.signature.push(u32::MAX - 4);
                let out = Outcome {
                    status: status.clone(),
                    code: code.clone(),
                    ret: None,
                    mem: mem.clone(),
                    io: io.clone(),
                };
                self.record(run, ended, out);
            }
            if !self.feasible(&returned) {
                return false;
            }
            st.conds.push(returned.clone());
            self.assume_on_path(&returned);
        }
        st.mem = mem;
        st.io = io;
        if let (Some(d), Some(r), Some(v)) = (dst, dst_repr, ret) {
            let v = resize(&v, r.bits(), false);
            self.write(side, run.func, st, d, &v);
        }
        true
    }

    /// Facts that hold of every input memory of `roots`: the contents of the `const`
    /// globals with a constant initializer (string literals, constant tables) that a
    /// function of the roots' direct-call closure names, over `mem`, up to 8 KiB. The
    /// engine explores only those functions (an indirect call is an external), so the
    /// other constants could matter only through pointers in the inputs, which may point
    /// anywhere; leaving their facts out only widens the inputs. A large program has
    /// thousands of such facts, and each one makes every model of a query larger.
    pub fn constant_memory(&self, side: Side, roots: &[FuncId], mem: &Array) -> Bool {
        let program = self.programs[side.index()];
        let constants = self.constants(side);
        let mut named = self.named_globals(side, roots);
        // And what their initializers point to, transitively (`static const char *NAME =
        // "warning"`: the literal's bytes are as constant as the pointer).
        let mut pointed: FxHashSet<GlobalId> = named.iter().copied().collect();
        let mut queue = named.clone();
        while let Some(global) = queue.pop() {
            let global = &program.globals[global];
            if !global.is_const {
                continue;
            }
            for item in global.init.iter().flat_map(|init| &init.items) {
                if let InitItem::Value { value, .. } = item {
                    value.walk(&mut |e| {
                        if let ExprKind::AddrOfGlobal(g) = e.kind {
                            let target = &program.globals[g];
                            let fixed = target.is_const || target.key.starts_with(".str");
                            if fixed && pointed.insert(g) {
                                named.push(g);
                                queue.push(g);
                            }
                        }
                    });
                }
            }
        }
        named.sort_unstable();
        named.dedup();
        let mut budget = 8192u64;
        let mut facts = Vec::new();
        let mut cache = constants.facts.borrow_mut();
        let mut without = constants.without_facts.borrow_mut();
        for global in named {
            let size = program.types.size_of(program.globals[global].ty);
            if size > budget {
                without.insert(global);
                continue;
            }
            let fact = cache.entry(global).or_insert_with(|| {
                self.constant_global_facts(side, global, &constants.template)
                    .map(|bytes| and_all(&bytes))
            });
            if let Some(fact) = fact {
                budget -= size;
                facts.push(fact.clone());
            } else {
                without.insert(global);
            }
        }
        and_all(&facts).substitute(&[(&constants.template, mem)])
    }

    /// Of the `const` globals the functions of `roots`' direct-call closure name, those
    /// [`Engine::constant_memory`] left without facts (too large, or not known byte for
    /// byte): their contents are arbitrary in the summaries.
    pub fn constants_without_facts(&self, side: Side, roots: &[FuncId]) -> Vec<GlobalId> {
        let Some(constants) = self.constant_facts[side.index()].get() else {
            return Vec::new();
        };
        let without = constants.without_facts.borrow();
        let mut out = self.named_globals(side, roots);
        out.retain(|g| without.contains(g) && self.programs[side.index()].globals[*g].is_const);
        out
    }

    /// The constant facts of version `side` built so far.
    fn constants(&self, side: Side) -> &ConstantFacts {
        self.constant_facts[side.index()].get_or_init(|| ConstantFacts {
            template: crate::smt::memory_const(&format!("const.template.{}", side.index())),
            facts: Default::default(),
            without_facts: Default::default(),
            refs: self.programs[side.index()]
                .functions
                .iter()
                .map(function_refs)
                .collect(),
        })
    }

    /// The globals the functions of `roots`' direct-call closure name, sorted.
    fn named_globals(&self, side: Side, roots: &[FuncId]) -> Vec<GlobalId> {
        let refs = &self.constants(side).refs;
        let mut seen: FxHashSet<FuncId> = roots.iter().copied().collect();
        let mut stack: Vec<FuncId> = roots.to_vec();
        let mut named: Vec<GlobalId> = Vec::new();
        while let Some(func) = stack.pop() {
            let (globals, callees) = &refs[func.index()];
            named.extend(globals);
            for callee in callees {
                if seen.insert(*callee) {
                    stack.push(*callee);
                }
            }
        }
        named.sort_unstable();
        named.dedup();
        named
    }

    /// The globals of version `side` that [`Engine::constant_memory`] named and left
    /// without facts so far: their contents are inputs like any memory.
    pub fn globals_without_facts(&self, side: Side) -> Vec<GlobalId> {
        let mut out: Vec<GlobalId> = self.constant_facts[side.index()]
            .get()
            .map(|c| c.without_facts.borrow().iter().copied().collect())
            .unwrap_or_default();
        out.sort_unstable();
        out
    }

    /// The bytes of a constant global as facts over `mem`; `None` when it is not
    /// constant or its initializer is not known byte for byte.
    fn constant_global_facts(&self, side: Side, id: GlobalId, mem: &Array) -> Option<Vec<Bool>> {
        let global = &self.programs[side.index()].globals[id];
        if !global.is_const && !global.key.starts_with(".str") {
            return None;
        }
        self.initializer_facts(side, id, mem)
    }

    /// The writable globals the functions of `roots`' direct-call closure name, holding
    /// their initial contents in `mem`, one fact per global (those known byte for byte,
    /// up to 8 KiB in all). Not facts of every input, as earlier code may have changed
    /// them, but the state a program starts from, which a witness is more telling from.
    pub fn initial_contents(&self, side: Side, roots: &[FuncId], mem: &Array) -> Vec<Bool> {
        let program = self.programs[side.index()];
        let mut budget = 8192u64;
        let mut facts = Vec::new();
        for global in self.named_globals(side, roots) {
            let size = program.types.size_of(program.globals[global].ty);
            if program.globals[global].is_const || size > budget {
                continue;
            }
            if let Some(bytes) = self.initializer_facts(side, global, mem) {
                budget -= size;
                facts.push(and_all(&bytes));
            }
        }
        facts
    }

    /// That global `id` holds its initial contents in `mem`; `None` when it has no
    /// initializer or it is not known byte for byte.
    pub fn initial_fact(&self, side: Side, id: GlobalId, mem: &Array) -> Option<Bool> {
        self.initializer_facts(side, id, mem)
            .map(|bytes| and_all(&bytes))
    }

    /// The bytes of a global's initializer as facts over `mem`; `None` when it has none
    /// or it is not known byte for byte.
    fn initializer_facts(&self, side: Side, id: GlobalId, mem: &Array) -> Option<Vec<Bool>> {
        let program = self.programs[side.index()];
        let global = &program.globals[id];
        let init = global.init.as_ref()?;
        let base = self.layout.global(side.index(), id);
        let size = program.types.size_of(global.ty);
        let mut bytes = vec![0u8; size as usize];
        for item in &init.items {
            match item {
                InitItem::Bytes { offset, bytes: b } => {
                    for (i, byte) in b.iter().enumerate() {
                        if let Some(slot) = bytes.get_mut(*offset as usize + i) {
                            *slot = *byte;
                        }
                    }
                }
                InitItem::Value { offset, value } => match value.kind {
                    ExprKind::Float(f) => {
                        let raw: Vec<u8> = if program.types.size_of(value.ty) == 4 {
                            (f as f32).to_le_bytes().to_vec()
                        } else {
                            f.to_le_bytes().to_vec()
                        };
                        for (i, b) in raw.iter().enumerate() {
                            if let Some(slot) = bytes.get_mut(*offset as usize + i) {
                                *slot = *b;
                            }
                        }
                    }
                    // Numbers, and the addresses of globals and functions (`"Short"`,
                    // `&table[2]`, `handler`) at their fixed places in the layout.
                    _ => {
                        let v = self.initial_word(side, value)?;
                        let n = program.types.size_of(value.ty) as usize;
                        for i in 0..n {
                            if let Some(slot) = bytes.get_mut(*offset as usize + i) {
                                *slot = (v >> (8 * i)) as u8;
                            }
                        }
                    }
                },
                InitItem::Bits { .. } => return None,
            }
        }
        let facts = bytes.iter().enumerate().map(|(i, byte)| {
            let at = BV::from_u64(base + i as u64, 64);
            mem.select(&at)
                .as_bv()
                .expect("byte")
                .eq(BV::from_u64(u64::from(*byte), 8))
        });
        Some(facts.collect())
    }

    /// The value of a constant initializer item: a number, or an address in the layout
    /// (of a global or a function, cast, plus or minus a constant).
    fn initial_word(&self, side: Side, e: &ripple_ir::Expr) -> Option<u128> {
        Some(match &e.kind {
            ExprKind::Int(v) => *v,
            ExprKind::AddrOfGlobal(g) => u128::from(self.layout.global(side.index(), *g)),
            ExprKind::AddrOfFunc(f) => u128::from(self.layout.function(side.index(), *f)),
            ExprKind::Cast(inner) => self.initial_word(side, inner)?,
            ExprKind::Binary(ripple_ir::BinOp::PtrAdd | ripple_ir::BinOp::Add, a, b) => self
                .initial_word(side, a)?
                .wrapping_add(self.initial_word(side, b)?),
            ExprKind::Binary(ripple_ir::BinOp::Sub, a, b) => self
                .initial_word(side, a)?
                .wrapping_sub(self.initial_word(side, b)?),
            _ => return None,
        })
    }

    /// The bytes of a global at the start, in a model of `mem`.
    pub fn global_bytes(
        &self,
        side: Side,
        global: GlobalId,
        model: &z3::Model,
        mem: &Array,
    ) -> Option<Vec<u8>> {
        let program = self.programs[side.index()];
        let size = program.types.size_of(program.globals[global].ty).min(4096);
        let base = self.layout.global(side.index(), global);
        self.memory_bytes(model, mem, base, size)
    }

    /// `len` bytes at a concrete address in a model of `mem`.
    pub fn memory_bytes(
        &self,
        model: &z3::Model,
        mem: &Array,
        base: u64,
        len: u64,
    ) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(len as usize);
        for i in 0..len {
            let byte = mem
                .select(&BV::from_u64(base.wrapping_add(i), 64))
                .as_bv()?;
            out.push(crate::smt::model_bits(model, &byte)? as u8);
        }
        Some(out)
    }

    /// The frame address of a memory local (for tests and witnesses).
    pub fn local_address(&self, side: Side, func: FuncId, var: VarId) -> u64 {
        self.layout.local(side.index(), func, var)
    }

    /// Whether a local lives in memory.
    pub fn is_memory_local(&self, side: Side, func: FuncId, var: VarId) -> bool {
        self.programs[side.index()].functions[func].locals[var].storage == Storage::Memory
    }

    /// The representation of a type (re-exported for the analyses).
    pub fn type_bits(&self, side: Side, ty: TypeId) -> u32 {
        Repr::of(&self.programs[side.index()].types, ty).bits()
    }
}

/// The globals whose address a function takes and its direct callees, each once.
fn function_refs(function: &ripple_ir::Function) -> (Vec<GlobalId>, Vec<FuncId>) {
    let mut globals = Vec::new();
    let mut callees = Vec::new();
    for node in function.nodes.iter() {
        if let NodeKind::Call {
            callee: Callee::Direct(target),
            ..
        } = &node.kind
        {
            callees.push(*target);
        }
        for expr in node.exprs() {
            expr.walk(&mut |e| {
                if let ExprKind::AddrOfGlobal(g) = e.kind {
                    globals.push(g);
                }
            });
        }
    }
    globals.sort_unstable();
    globals.dedup();
    callees.sort_unstable();
    callees.dedup();
    (globals, callees)
}

/// A `printf` format with each `%i` conversion written as `%d` (flags, width, precision
/// and length modifiers kept): the two are one conversion in output.
fn canonical_format(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        out.push(text[i]);
        if text[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        // Flags, width, precision and length modifiers, then the conversion.
        while i < text.len() && b"-+ #0'123456789.*hlLqjzt$".contains(&text[i]) {
            out.push(text[i]);
            i += 1;
        }
        if let Some(&conversion) = text.get(i) {
            out.push(if conversion == b'i' { b'd' } else { conversion });
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::canonical_format;

    /// `%i` and `%d` are one output conversion, whatever their flags and length
    /// modifiers; `%%` and the other conversions are kept.
    #[test]
    fn a_format_is_canonical_up_to_i_and_d() {
        let canonical = |s: &str| String::from_utf8(canonical_format(s.as_bytes())).unwrap();
        assert_eq!(canonical("%i\n"), "%d\n");
        assert_eq!(canonical("%-5li %%i %x %.3hhi"), "%-5ld %%i %x %.3hhd");
        assert_eq!(canonical("100%"), "100%");
    }
}
