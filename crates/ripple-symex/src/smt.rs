//! The one place ripple talks to Z3.
//!
//! Every solver call of the crate goes through [`Smt`]: one `z3::Solver` kept for the
//! whole run and used incrementally, with push/pop for the facts of an exploration and
//! a guard literal per query (a new solver costs about 10 ms with libz3 4.8.12, a small
//! incremental check about 0.2 ms).
//!
//! Budgets count work, so that the same input gives the same answer on any machine load:
//! a query may spend Z3's resource units (its `rlimit`, deterministic for the same
//! sequence of calls) up to the query budget or what is left of the run's, and the
//! exploration charges a fixed amount per step ([`Smt::charge`]). A caller may set an
//! earlier *phase* limit (the end of the exploration, one report's share); it never
//! extends past the run's. The budgets are given in seconds and converted at
//! [`WORK_PER_SECOND`]; the same number of seconds of wall-clock time is the outer
//! cut-off, reported when it is what stopped the run ([`Smt::stopped_by_clock`]).
//! Exhaustion is reported as [`Answer::Unknown`], never guessed. Z3 does not check its
//! limits while it builds the circuits of divisions and floating-point arithmetic, so a
//! query holding many of them is decided on an abstraction of them instead
//! ([`crate::costly`]).
//!
//! The `z3` crate 0.22 is written for Z3 >= 4.13 while the system library is 4.8.12:
//! `FuncDecl::kind()` on an uninterpreted symbol crashes (operator codes were renumbered)
//! and `Real::from_rational` and the Char API do not link. This module and the rest of
//! the crate avoid them; the floating-point conversions the high-level API lacks are
//! made here from `z3-sys`.

use std::cell::Cell;
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;
use z3::ast::{Array, Ast, Bool, Dynamic, Float, BV};
use z3::{Context, Model, SatResult, Solver, Sort};

use crate::costly::{self, Abstraction, Costly, Op, Refinement};

/// Work units (Z3 resource units, and the engine's charges) a second of budget buys.
/// libz3 4.8.12 spends about 7 million units a second on this project's queries on the
/// machines it is measured on; buying 2 million a second leaves the rest of a run
/// (exploration, replays) well inside the wall-clock cut-off of the same length.
pub const WORK_PER_SECOND: f64 = 2_000_000.0;
/// Work units charged per query on top of the solver's own count.
pub const QUERY_OVERHEAD: u64 = 1_000;

/// The answer to a satisfiability query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    /// Budget exhaustion (work or the wall-clock cut-off), or an incomplete theory answer.
    Unknown,
}

/// Limits of one analysis run, in seconds of budget (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Limit of a single solver query.
    pub query: Duration,
    /// Limit of the whole run (exploration, difference queries, witnesses, refinement);
    /// past it every query answers [`Answer::Unknown`].
    pub total: Duration,
    /// The wall-clock cut-off (by default `total`): only a safety net, reported when it
    /// stops a run.
    pub cutoff: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            query: Duration::from_secs(2),
            total: Duration::from_secs(30),
            cutoff: None,
        }
    }
}

/// The solver's version: budgets count its resource units, so its answers within them
/// may change from one version to another.
pub fn solver_version() -> &'static str {
    z3::full_version()
}

/// Work units of a budget in seconds.
pub fn work_of(budget: Duration) -> u64 {
    (budget.as_secs_f64() * WORK_PER_SECOND) as u64
}

/// The incremental solver of a run.
pub struct Smt {
    solver: Solver,
    /// Work units the run may spend, and has spent.
    total_work: u64,
    used: u64,
    /// The end (in work units spent) of the current phase, if any.
    phase_end: Option<u64>,
    query_work: u64,
    started: Instant,
    /// The wall-clock cut-off, counted from `started`.
    cutoff: Duration,
    /// Set when the cut-off denied work the budget still allowed.
    clock_stopped: Cell<bool>,
    /// Number of queries asked.
    pub queries: u64,
    /// Number of queries answered unknown (budget exhaustion included).
    pub unknowns: u64,
    /// The facts asserted at each level of the push stack (the first: below any push),
    /// to rebuild the solver.
    levels: Vec<Vec<Bool>>,
    /// Set after a query was cut (resource limit or cut-off): libz3 4.8.12 may crash in
    /// a later `pop` of a solver whose check was interrupted, so such a solver is
    /// replaced by a fresh one holding the same stack before its next use.
    stale: bool,
    /// Solvers replaced by [`Smt::renew`], freed with this.
    retired: Vec<Solver>,
    /// The guard of the last query: a query's facts are asserted under a fresh literal
    /// that it assumes and the next query asserts false, so the solver can drop them.
    /// Given as assumptions, libz3 4.8.12 keeps them live in every later check, and
    /// push and pop around each query cost more still: on the invariant pairs of
    /// `scripts/bench-invariants.sh` this halved the total time, with the same answers.
    spent_guard: Option<Bool>,
    /// The costly terms in each level's facts (see [`crate::costly`]).
    level_costly: Vec<Vec<Costly>>,
    /// Whether a query holding floating-point arithmetic is decided with it abstracted
    /// (see [`Smt::abstract_floats`]).
    floats_abstract: bool,
}

impl Smt {
    pub fn new(budget: Budget) -> Smt {
        Smt {
            solver: Solver::new(),
            total_work: work_of(budget.total),
            used: 0,
            phase_end: None,
            query_work: work_of(budget.query).max(1),
            started: Instant::now(),
            cutoff: budget.cutoff.unwrap_or(budget.total),
            clock_stopped: Cell::new(false),
            queries: 0,
            unknowns: 0,
            levels: vec![Vec::new()],
            stale: false,
            retired: Vec::new(),
            spent_guard: None,
            level_costly: vec![Vec::new()],
            floats_abstract: false,
        }
    }

    /// From now on, floating-point arithmetic is never given to the solver as a circuit:
    /// libz3 builds the circuit of one double division without checking its limits (a
    /// query holding `(int)(a / 3.0)` ran 17 s whatever the budget). Its terms are
    /// abstracted, and a model that gives one a wrong value adds the term's value at
    /// that point (see [`crate::costly`]): unsat stays sound, a model is returned only
    /// when genuine, and past a few rounds the answer is unknown. For searches that
    /// may give up on a query (invariant inference), not for proofs that need the
    /// arithmetic itself.
    pub fn abstract_floats(&mut self) {
        self.floats_abstract = true;
    }

    /// Makes the solver ready for its first query: libz3 sets up a solver's kernel at
    /// its first check (several milliseconds), which a caller can so do while it waits
    /// on other work. Not a query: nothing is asserted, counted or charged.
    pub fn warm_up(&mut self) {
        self.solver.check();
    }

    /// Whether the wall-clock cut-off has passed (work that does not go through the
    /// solver, such as replays, checks this to stay within it).
    pub fn clock_passed(&self) -> bool {
        let passed = self.started.elapsed() >= self.cutoff;
        if passed {
            self.clock_stopped.set(true);
        }
        passed
    }

    /// Whether the current limit (the phase's, else the run's) is reached.
    pub fn out_of_time(&self) -> bool {
        self.used >= self.current_end() || self.clock_passed()
    }

    /// Whether the run's own limit is reached (whatever the phase).
    pub fn run_out_of_time(&self) -> bool {
        self.used >= self.total_work || self.clock_passed()
    }

    /// Whether the wall-clock cut-off stopped work that the work budget still allowed
    /// (then the result may depend on the machine's speed and load).
    pub fn stopped_by_clock(&self) -> bool {
        self.clock_stopped.get() && self.used < self.total_work
    }

    /// Work spent so far, in units.
    pub fn work_used(&self) -> u64 {
        self.used
    }

    /// The run's work budget, in units.
    pub fn work_budget(&self) -> u64 {
        self.total_work
    }

    /// Work left before the run's limit.
    pub fn work_left(&self) -> u64 {
        self.total_work.saturating_sub(self.used)
    }

    /// Work left before the current limit (the phase's, else the run's).
    pub fn phase_work_left(&self) -> u64 {
        self.current_end().saturating_sub(self.used)
    }

    /// The end of the current phase (in units spent), if one is set.
    pub fn phase_end(&self) -> Option<u64> {
        self.phase_end
    }

    /// Sets (or with `None` clears) the end of the current phase, in units spent; it is
    /// capped at the run's limit, which never moves.
    pub fn set_phase_end(&mut self, end: Option<u64>) {
        self.phase_end = end.map(|e| e.min(self.total_work));
    }

    /// Starts a phase that may spend `units` from now on.
    pub fn set_phase_work(&mut self, units: u64) {
        self.set_phase_end(Some(self.used.saturating_add(units)));
    }

    /// Charges work done outside the solver (exploration steps, replays).
    pub fn charge(&mut self, units: u64) {
        self.used = self.used.saturating_add(units);
    }

    fn current_end(&self) -> u64 {
        self.phase_end.unwrap_or(self.total_work)
    }

    pub fn push(&mut self) {
        self.renew();
        self.solver.push();
        self.levels.push(Vec::new());
        self.level_costly.push(Vec::new());
    }

    pub fn pop(&mut self) {
        debug_assert!(self.levels.len() > 1, "pop without push");
        if self.levels.len() <= 1 {
            return;
        }
        self.levels.pop();
        self.level_costly.pop();
        if self.stale {
            self.renew();
        } else {
            self.solver.pop(1);
        }
    }

    pub fn assert(&mut self, fact: &Bool) {
        self.renew();
        self.solver.assert(fact);
        if let Some(level) = self.levels.last_mut() {
            level.push(fact.clone());
        }
        if costly::made_any() {
            if let Some(terms) = self.level_costly.last_mut() {
                costly::collect(fact, &mut FxHashSet::default(), terms);
            }
        }
    }

    /// The query's distinct costly terms when there are more than the solver is given
    /// exactly ([`costly::EXACT_LIMIT`]).
    fn too_costly(&self, extra: &[Bool]) -> Option<Vec<Costly>> {
        if !costly::made_any() {
            return None;
        }
        let mut own = Vec::new();
        let mut seen = FxHashSet::default();
        for fact in extra {
            costly::collect(fact, &mut seen, &mut own);
        }
        let mut lists: Vec<&[Costly]> = self.level_costly.iter().map(Vec::as_slice).collect();
        lists.push(&own);
        costly::more_than_exact(&lists, self.floats_abstract)
    }

    /// A query with too many costly terms, decided on their abstraction (see
    /// [`crate::costly`]), each round on a fresh solver.
    fn decide_abstracted(&mut self, extra: &[Bool], terms: Vec<Costly>) -> (Answer, Option<Model>) {
        let mut abstraction = Abstraction::new(terms, self.floats_abstract);
        let facts: Vec<Bool> = self
            .levels
            .iter()
            .flatten()
            .chain(extra)
            .map(|f| abstraction.fact(f))
            .collect();
        loop {
            if self.out_of_time() {
                self.unknowns += 1;
                return (Answer::Unknown, None);
            }
            let (answer, model) = self.check_fresh(facts.iter().chain(&abstraction.facts()));
            let Some(model) = model else {
                return (answer, None);
            };
            match abstraction.refine(&model) {
                Refinement::Genuine => return (Answer::Sat, Some(model)),
                Refinement::Refined => {}
                Refinement::Exhausted => {
                    self.unknowns += 1;
                    return (Answer::Unknown, None);
                }
            }
        }
    }

    /// Replaces a stale solver by a fresh one with the same assertion stack.
    fn renew(&mut self) {
        if !self.stale {
            return;
        }
        let solver = Solver::new();
        for (i, level) in self.levels.iter().enumerate() {
            if i > 0 {
                solver.push();
            }
            for fact in level {
                solver.assert(fact);
            }
        }
        // Freeing a solver that bit-blasted a large query takes seconds the work budget
        // does not see: it is kept until the whole run ends.
        let old = std::mem::replace(&mut self.solver, solver);
        self.retired.push(old);
        self.stale = false;
        self.spent_guard = None;
    }

    /// Starts a fresh solver holding the facts asserted below any push (none may be
    /// open), and frees the solvers retired so far: between independent parts of a run
    /// (the points of an invariant diff), so that neither the clauses the solver learnt
    /// nor the retired solvers grow with the number of parts (bc's 600 functions took
    /// 8.5 GB). The budget and the counts go on.
    pub fn restart(&mut self) {
        if self.levels.len() != 1 {
            return;
        }
        let solver = Solver::new();
        for fact in &self.levels[0] {
            solver.assert(fact);
        }
        self.solver = solver;
        self.retired.clear();
        self.stale = false;
        self.spent_guard = None;
        forget_rewrites();
    }

    /// Satisfiability of the asserted facts plus `extra`, which is not kept.
    pub fn check(&mut self, extra: &[Bool]) -> Answer {
        self.decide(extra, false).0
    }

    /// [`Smt::check`], with a model when satisfiable (none when the answer needed no
    /// solver).
    pub fn check_sample(&mut self, extra: &[Bool]) -> (Answer, Option<Model>) {
        self.decide(extra, true)
    }

    /// One query of the incremental solver, with the model when asked for and
    /// satisfiable (none when the answer needs no solver).
    fn decide(&mut self, extra: &[Bool], want_model: bool) -> (Answer, Option<Model>) {
        if let Some(answer) = trivial(extra) {
            return (answer, None);
        }
        if self.out_of_time() {
            self.unknowns += 1;
            return (Answer::Unknown, None);
        }
        if let Some(terms) = self.too_costly(extra) {
            let (answer, model) = self.decide_abstracted(extra, terms);
            return (answer, model.filter(|_| want_model));
        }
        self.renew();
        self.queries += 1;
        self.set_limits();
        let before = resource_count(&self.solver);
        // The previous query's guard is turned off for good (after its model was read).
        if let Some(guard) = self.spent_guard.take() {
            self.solver.assert(guard.not());
        }
        let result = if extra.is_empty() {
            self.solver.check()
        } else {
            let guard = Bool::fresh_const("query");
            self.solver.assert(guard.implies(Bool::and(extra)));
            let result = self.solver.check_assumptions(std::slice::from_ref(&guard));
            self.spent_guard = Some(guard);
            result
        };
        self.clear_limits();
        let model = if want_model && result == SatResult::Sat {
            self.solver.get_model()
        } else {
            None
        };
        // The count is a 32-bit counter of the context: it may wrap between the two reads.
        let spent = u64::from(resource_count(&self.solver).wrapping_sub(before));
        // Every query also costs what setting it up takes (about half a millisecond of
        // terms, parameters and calls the resource count does not see), so that a run
        // of many small queries ends on its work budget, not on the wall clock.
        self.charge(spent + QUERY_OVERHEAD);
        let answer = match result {
            SatResult::Sat => Answer::Sat,
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => {
                self.unknowns += 1;
                self.stale = true;
                Answer::Unknown
            }
        };
        (answer, model)
    }

    /// [`Smt::check_model`] with at most `share` of the query budget: for a query that
    /// only may help (its unknown costs nothing but the work).
    pub fn check_model_within(&mut self, extra: &[Bool], share: f64) -> (Answer, Option<Model>) {
        let full = self.query_work;
        self.query_work = ((full as f64 * share) as u64).clamp(1, full);
        let result = self.check_model(extra);
        self.query_work = full;
        result
    }

    /// Satisfiability of `extra` (kept only for the query), with a model when satisfiable.
    pub fn check_model(&mut self, extra: &[Bool]) -> (Answer, Option<Model>) {
        // Asserting large facts costs time the resource limit does not count.
        if self.out_of_time() {
            self.unknowns += 1;
            return (Answer::Unknown, None);
        }
        if let Some(answer) = trivial(extra) {
            if answer == Answer::Unsat {
                return (answer, None);
            }
        }
        if let Some(terms) = self.too_costly(extra) {
            return self.decide_abstracted(extra, terms);
        }
        // The incremental solver first, with an eighth of the query's budget (enough for
        // most queries, cheaply); what it cannot decide goes to a fresh solver.
        let full = self.query_work;
        self.query_work = (full / 8).max(1);
        let facts = if trivial(extra).is_some() { &[] } else { extra };
        let (answer, model) = self.decide(facts, true);
        self.query_work = full;
        if answer != Answer::Unknown || self.out_of_time() {
            return (answer, model);
        }
        self.unknowns -= 1;
        // A fresh solver without push or assumptions runs Z3's non-incremental tactics
        // (preprocessing, then bit-blasting to SAT), far stronger on one hard
        // bit-vector or float query than the incremental core; the terms are shared, so
        // restating the stack is cheap.
        let facts: Vec<Bool> = self.levels.iter().flatten().chain(extra).cloned().collect();
        self.check_fresh(facts.iter())
    }

    /// Satisfiability of `facts` on a fresh solver, with a model when satisfiable; its
    /// work is counted like any query's.
    fn check_fresh<'a>(
        &mut self,
        facts: impl Iterator<Item = &'a Bool>,
    ) -> (Answer, Option<Model>) {
        let solver = Solver::new();
        for fact in facts {
            solver.assert(fact);
        }
        self.queries += 1;
        self.set_limits();
        let before = resource_count(&solver);
        let result = solver.check();
        self.clear_limits();
        let spent = u64::from(resource_count(&solver).wrapping_sub(before));
        self.charge(spent + QUERY_OVERHEAD);
        let answer = match result {
            SatResult::Sat => Answer::Sat,
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => {
                self.unknowns += 1;
                Answer::Unknown
            }
        };
        let model = if answer == Answer::Sat {
            solver.get_model()
        } else {
            None
        };
        // A solver that did much work is slow to free: kept to the end of the run, like
        // the ones `renew` replaces; a cheap one goes now.
        if spent > QUERY_OVERHEAD * 100 {
            self.retired.push(solver);
        }
        (answer, model)
    }

    /// The query's resource limit (what is left of the query and phase budgets) and,
    /// as the outer cut-off only, Z3's timeout. Both are given to the context, whose
    /// values every solver without parameters of its own reads at each check (the
    /// resource limit relative to the count at the check's start): `set_params` on a
    /// solver validates its parameters against every module's descriptions, which
    /// costs more than most queries. [`Smt::clear_limits`] lifts them after the check,
    /// since simplification reads them too.
    fn set_limits(&mut self) {
        let work = self.query_work.min(self.phase_work_left()).max(1);
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let left = self.cutoff.saturating_sub(self.started.elapsed());
        let left_ms = u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1);
        context_limits(work, left_ms);
    }

    /// No limits (Z3's defaults): what `simplify` and the rest of the context run under.
    fn clear_limits(&mut self) {
        context_limits(0, u32::MAX);
    }
}

/// Sets the context's resource limit (0: none) and timeout in milliseconds.
fn context_limits(rlimit: u32, timeout_ms: u32) {
    let ctx = Context::thread_local();
    for (name, value) in [(c"rlimit", rlimit), (c"timeout", timeout_ms)] {
        let value = std::ffi::CString::new(value.to_string()).expect("digits");
        // SAFETY: a live context and two NUL-terminated strings.
        unsafe {
            z3_sys::Z3_update_param_value(ctx.get_z3_context(), name.as_ptr(), value.as_ptr())
        };
    }
}

/// Z3's count of resource units spent so far in this thread's context.
fn resource_count(solver: &Solver) -> u32 {
    match solver.get_statistics().value("rlimit count") {
        Some(z3::StatisticsValue::UInt(n)) => n,
        Some(z3::StatisticsValue::Double(d)) => d as u32,
        None => 0,
    }
}

/// Answers a query made of constant facts without the solver.
fn trivial(extra: &[Bool]) -> Option<Answer> {
    let mut all_true = true;
    for fact in extra {
        match fact.as_bool() {
            Some(false) => return Some(Answer::Unsat),
            Some(true) => {}
            None => all_true = false,
        }
    }
    (all_true && !extra.is_empty()).then_some(Answer::Sat)
}

/// The conjunction of `facts` (true when empty).
pub fn and_all(facts: &[Bool]) -> Bool {
    folded(facts, false, Bool::and)
}

/// The disjunction of `facts` (false when empty).
pub fn or_all(facts: &[Bool]) -> Bool {
    folded(facts, true, Bool::or)
}

/// `facts` joined by `join` with literal constants folded: `absorbing` (false for a
/// conjunction) makes the whole that constant, the other is dropped. So a conjunction
/// with `false` is `false` for every check that follows (an undecided solver would
/// leave it "unknown").
fn folded(facts: &[Bool], absorbing: bool, join: fn(&[Bool]) -> Bool) -> Bool {
    if facts.iter().any(|f| f.as_bool() == Some(absorbing)) {
        return Bool::from_bool(absorbing);
    }
    let kept: Vec<Bool> = facts
        .iter()
        .filter(|f| f.as_bool() != Some(!absorbing))
        .cloned()
        .collect();
    match kept.len() {
        0 => Bool::from_bool(!absorbing),
        1 => kept[0].clone(),
        _ => join(&kept),
    }
}

/// Z3's identifier of a term in the context: equal terms (hash-consed) have equal
/// identifiers, and the numbering follows creation order, so it is deterministic.
pub fn ast_id<T: Ast>(term: &T) -> u32 {
    let ctx = ctx();
    unsafe { z3_sys::Z3_get_ast_id(ctx.get_z3_context(), term.get_z3_ast()) }
}

/// The floating-point sort of a width (32 or 64 bits).
pub fn float_sort(bits: u32) -> Sort {
    if bits == 32 {
        Sort::float32()
    } else {
        Sort::double()
    }
}

fn ctx() -> Context {
    Context::thread_local()
}

/// The IEEE value whose bits are `bits` (a 32- or 64-bit vector).
pub fn fp_from_bits(bits: &BV) -> Float {
    crate::costly::note_costly();
    let ctx = ctx();
    let sort = float_sort(bits.get_size());
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), sort.get_z3_sort())
                .expect("Z3_mk_fpa_to_fp_bv");
        Float::wrap(&ctx, raw)
    }
}

/// The bits of an IEEE value (NaN has one canonical encoding in Z3).
pub fn fp_to_bits(value: &Float) -> BV {
    value.to_ieee_bv()
}

fn rne() -> Dynamic {
    let ctx = ctx();
    unsafe {
        Dynamic::wrap(
            &ctx,
            z3_sys::Z3_mk_fpa_rne(ctx.get_z3_context()).expect("Z3_mk_fpa_rne"),
        )
    }
}

/// An integer converted to floating point (round to nearest even).
pub fn fp_from_int(value: &BV, signed: bool, bits: u32) -> Float {
    let ctx = ctx();
    let sort = float_sort(bits);
    let rm = rne();
    unsafe {
        let raw = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(
                ctx.get_z3_context(),
                rm.get_z3_ast(),
                value.get_z3_ast(),
                sort.get_z3_sort(),
            )
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(
                ctx.get_z3_context(),
                rm.get_z3_ast(),
                value.get_z3_ast(),
                sort.get_z3_sort(),
            )
        };
        Float::wrap(&ctx, raw.expect("Z3_mk_fpa_to_fp_(un)signed"))
    }
}

/// A float converted to another float width (round to nearest even).
pub fn fp_convert(value: &Float, bits: u32) -> Float {
    value.to_fp_with_rounding_mode(
        &z3::ast::RoundingMode::round_nearest_ties_to_even(),
        &float_sort(bits),
    )
}

/// A float converted to an integer of `bits`, truncating toward zero.
pub fn fp_to_int(value: &Float, signed: bool, bits: u32) -> BV {
    let rtz = z3::ast::RoundingMode::round_towards_zero();
    if signed {
        value.to_sbv_with_rounding_mode(&rtz, bits)
    } else {
        value.to_ubv_with_rounding_mode(&rtz, bits)
    }
}

/// Rounds a float to an integral value toward negative (floor) or positive (ceil) infinity.
pub fn fp_round(value: &Float, up: bool) -> Float {
    let rm = if up {
        z3::ast::RoundingMode::round_towards_positive()
    } else {
        z3::ast::RoundingMode::round_towards_negative()
    };
    value.round_to_integral_with_rounding_mode(&rm)
}

/// A byte-addressed memory: 64-bit addresses to bytes.
pub fn memory_sort() -> Sort {
    Sort::array(&Sort::bitvector(64), &Sort::bitvector(8))
}

/// A fresh constant memory named `name`.
pub fn memory_const(name: &str) -> Array {
    Array::new_const(name, &Sort::bitvector(64), &Sort::bitvector(8))
}

/// The value of a bit-vector in a model, as its bits (at most 128).
/// The bytes of a value in a model, least significant first (the memory order).
pub fn model_bytes(model: &Model, value: &BV) -> Option<Vec<u8>> {
    let evaluated = model.eval(value, true)?;
    let size = evaluated.get_size();
    (0..size / 8)
        .map(|k| {
            let byte = evaluated.extract(8 * k + 7, 8 * k).simplify().as_u64()?;
            Some(byte as u8)
        })
        .collect()
}

pub fn model_bits(model: &Model, value: &BV) -> Option<u128> {
    let evaluated = model.eval(value, true)?;
    let size = evaluated.get_size();
    if size <= 64 {
        return evaluated.as_u64().map(u128::from);
    }
    let mut bits = 0u128;
    for chunk in 0..size.div_ceil(64).min(2) {
        let low = chunk * 64;
        let high = (low + 63).min(size - 1);
        let part = evaluated.extract(high, low).simplify().as_u64()?;
        bits |= u128::from(part) << low;
    }
    Some(bits)
}

/// The truth value of a formula in a model.
pub fn model_bool(model: &Model, value: &Bool) -> Option<bool> {
    model.eval(value, true)?.as_bool()
}

/// Rewrites `formula` with its costly operators as uninterpreted functions: products of
/// two non-constant bit-vectors, divisions and remainders (except by a power of two),
/// and floating-point arithmetic. Each operator and signature gets one function, shared
/// by every occurrence (arguments of commutative operators in a canonical order), so two
/// versions that compute the same costly terms from the same values still agree.
///
/// Any interpretation of the functions includes the real operators, so a formula that is
/// unsatisfiable after the rewrite is unsatisfiable: a difference query proved
/// unsatisfiable this way needs no bit-blasting of multipliers, dividers or
/// floating-point units (the classic uninterpreted-function abstraction of equivalence
/// checking). A satisfiable rewrite says nothing. None when nothing is costly.
pub fn abstract_costly(formula: &Bool) -> Option<Bool> {
    REWRITTEN.with(|done| {
        let mut done = done.borrow_mut();
        if done.len() > 1_000_000 {
            done.clear();
        }
        abstract_with(formula, &mut done)
    })
}

thread_local! {
    /// Queries of one run share most of their terms: one rewrite per term and thread
    /// (the context is the thread's), dropped when it grows large or by
    /// [`forget_rewrites`].
    static REWRITTEN: std::cell::RefCell<rustc_hash::FxHashMap<Dynamic, Dynamic>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// Drops the calling thread's rewrites of [`abstract_costly`], and with them the terms
/// they keep alive: a caller analysing one change after another (the commits of a range)
/// calls it on each of its threads between two, so that memory does not grow with the
/// number of changes.
pub fn forget_rewrites() {
    REWRITTEN.with(|done| {
        let mut done = done.borrow_mut();
        done.clear();
        done.shrink_to_fit();
    });
}

/// Rebuilds `root` bottom-up into `done` (term -> rebuilt term, shared across calls):
/// each application whose subterms are rebuilt is given to `rebuild` with its
/// original and its rebuilt subterms; leaves stay as they are. Without recursion.
fn rebuild_post_order(
    root: &Dynamic,
    done: &mut rustc_hash::FxHashMap<Dynamic, Dynamic>,
    mut rebuild: impl FnMut(&Dynamic, &[Dynamic], Vec<Dynamic>) -> Dynamic,
) {
    // (node, children pushed).
    let mut stack = vec![(root.clone(), false)];
    while let Some((node, expanded)) = stack.pop() {
        if done.contains_key(&node) {
            continue;
        }
        if !node.is_app() || node.num_children() == 0 {
            done.insert(node.clone(), node);
            continue;
        }
        let children = node.children();
        if !expanded {
            stack.push((node, true));
            stack.extend(children.into_iter().map(|c| (c, false)));
            continue;
        }
        let args: Vec<Dynamic> = children.iter().map(|c| done[c].clone()).collect();
        let rebuilt = rebuild(&node, &children, args);
        done.insert(node, rebuilt);
    }
}

/// `node` itself when `args` are its children, else its operator applied to `args`.
fn same_or_applied(node: &Dynamic, children: &[Dynamic], args: &[Dynamic]) -> Dynamic {
    if args == children {
        node.clone()
    } else {
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        node.decl().apply(&refs)
    }
}

fn abstract_with(
    formula: &Bool,
    done: &mut rustc_hash::FxHashMap<Dynamic, Dynamic>,
) -> Option<Bool> {
    let root = Dynamic::from_ast(formula);
    rebuild_post_order(&root, done, |node, children, mut args| {
        let decl = node.decl();
        let op = costly::operator(node);
        let is_numeral = |d: &Dynamic| d.kind() == z3::AstKind::Numeral;
        let power_of_two = |d: &Dynamic| {
            is_numeral(d)
                && d.as_bv()
                    .and_then(|b| b.as_u64())
                    .is_some_and(u64::is_power_of_two)
        };
        let costly = match op {
            Some(Op::Mul) => args.len() == 2 && !args.iter().any(is_numeral),
            Some(op) if op.is_division() => args.len() == 2 && !power_of_two(&args[1]),
            Some(_) => true,
            None => false,
        };
        if costly {
            // Equal arguments built differently (a load through a copy, say) become one
            // term, so that the occurrences meet.
            for arg in &mut args {
                *arg = arg.simplify();
            }
            let commutes = matches!(op, Some(Op::Float { commutes: true, .. })) && args.len() == 3;
            if op == Some(Op::Mul) || commutes {
                let first = args.len() - 2;
                let (a, b) = (args[first].clone(), args[first + 1].clone());
                if hash_of(&a) > hash_of(&b) {
                    args[first] = b;
                    args[first + 1] = a;
                }
            }
            let sorts: Vec<Sort> = args.iter().map(Dynamic::get_sort).collect();
            let domain: Vec<&Sort> = sorts.iter().collect();
            let range = node.get_sort();
            let name = format!(
                "costly.{}.{}",
                decl.name(),
                sorts
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(".")
            );
            let function = z3::FuncDecl::new(name, &domain, &range);
            let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
            function.apply(&refs)
        } else {
            same_or_applied(node, children, &args)
        }
    });
    let rewritten = done.get(&root)?;
    if rewritten == &root {
        return None;
    }
    rewritten.as_bool()
}

fn hash_of(term: &Dynamic) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    term.hash(&mut hasher);
    hasher.finish()
}

/// Visits `term` and its subterms, depth first, until `visit` returns true (then returns
/// true); each shared subterm once when `once`, else as often as it occurs (as a tree).
fn any_subterm<T: Ast>(
    term: &T,
    once: bool,
    visit: &mut dyn FnMut(z3_sys::Z3_context, z3_sys::Z3_ast) -> bool,
) -> bool {
    let ctx = ctx();
    let raw_ctx = ctx.get_z3_context();
    let mut stack = vec![term.get_z3_ast()];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(ast) = stack.pop() {
        // SAFETY: `ast` is a live term of this thread's context (the term or one of its
        // subterms).
        unsafe {
            if once && !seen.insert(z3_sys::Z3_get_ast_id(raw_ctx, ast)) {
                continue;
            }
            if visit(raw_ctx, ast) {
                return true;
            }
            if z3_sys::Z3_get_ast_kind(raw_ctx, ast) != z3_sys::AstKind::App {
                continue;
            }
            let Some(app) = z3_sys::Z3_to_app(raw_ctx, ast) else {
                continue;
            };
            for i in 0..z3_sys::Z3_get_app_num_args(raw_ctx, app) {
                if let Some(arg) = z3_sys::Z3_get_app_arg(raw_ctx, app, i) {
                    stack.push(arg);
                }
            }
        }
    }
    false
}

/// Whether a term, counted as a tree (shared subterms counted each time, as printing
/// would), has more than `limit` nodes. Stops counting at the limit.
/// Addresses a memory equality is expanded over at most (past them it is kept whole).
const MAX_EXPANDED_ADDRESSES: usize = 256;

/// `formula` made readable without changing its meaning: an equality of two memories
/// that are stores over one memory becomes the equality of their bytes at the addresses
/// stored to (they agree everywhere else), and a read through a store is resolved where
/// the store's address is the read's, or differs from it by a nonzero constant. What
/// cannot be resolved is kept as it was. For printing conditions; simplify the result.
pub fn expand_memory_equalities(formula: &Bool) -> Bool {
    let root = Dynamic::from_ast(formula);
    let mut done: rustc_hash::FxHashMap<Dynamic, Dynamic> = Default::default();
    rebuild_post_order(&root, &mut done, |node, children, args| {
        let rebuilt = match (node.decl().kind(), args.as_slice()) {
            (z3::DeclKind::Select, [array, index]) => read_through(array, index),
            (z3::DeclKind::Eq, [a, b]) => memory_equality(a, b).map(|e| Dynamic::from_ast(&e)),
            _ => None,
        };
        rebuilt.unwrap_or_else(|| same_or_applied(node, children, &args))
    });
    done.get(&root)
        .and_then(Dynamic::as_bool)
        .unwrap_or_else(|| formula.clone())
}

/// The store under `array`, if it is one: (the memory it stores into, address, value).
fn store_parts(array: &Dynamic) -> Option<(Dynamic, Dynamic, Dynamic)> {
    if !array.is_app() || array.decl().kind() != z3::DeclKind::Store {
        return None;
    }
    match array.children().as_slice() {
        [inner, index, value] => Some((inner.clone(), index.clone(), value.clone())),
        _ => None,
    }
}

/// Whether two addresses differ by a nonzero constant (`p + 1` and `p + 3`, two
/// numerals): a store to one leaves the other's byte as it was.
fn differ_by_constant(a: &Dynamic, b: &Dynamic) -> bool {
    let (Some(a), Some(b)) = (a.as_bv(), b.as_bv()) else {
        return false;
    };
    if a.get_size() != b.get_size() {
        return false;
    }
    a.bvsub(&b).simplify().as_u64().is_some_and(|d| d != 0)
}

/// `array[index]` read through the stores it can be read through; `None` when none
/// can (the read stays as it is).
fn read_through(array: &Dynamic, index: &Dynamic) -> Option<Dynamic> {
    let mut at = array.clone();
    let mut passed = false;
    while let Some((inner, address, value)) = store_parts(&at) {
        if address == *index {
            return Some(value);
        }
        if !differ_by_constant(&address, index) {
            break;
        }
        at = inner;
        passed = true;
    }
    passed.then(|| at.as_array().map(|m| m.select(index)))?
}

/// `a == b` for two memories stored over one: the equality of their bytes at every
/// address either stores to. `None` when they are not such memories.
fn memory_equality(a: &Dynamic, b: &Dynamic) -> Option<Bool> {
    a.as_array()?;
    let peel = |mut m: Dynamic| {
        let mut addresses = Vec::new();
        while let Some((inner, address, _)) = store_parts(&m) {
            addresses.push(address);
            m = inner;
        }
        (m, addresses)
    };
    let (base_a, stored_a) = peel(a.clone());
    let (base_b, stored_b) = peel(b.clone());
    let stores = stored_a.len() + stored_b.len();
    if base_a != base_b || stores == 0 || stores > 4 * MAX_EXPANDED_ADDRESSES {
        return None;
    }
    let mut addresses: Vec<Dynamic> = Vec::new();
    for address in stored_a.into_iter().chain(stored_b) {
        if !addresses.contains(&address) {
            addresses.push(address);
        }
    }
    if addresses.len() > MAX_EXPANDED_ADDRESSES {
        return None;
    }
    let read = |m: &Dynamic, i: &Dynamic| {
        read_through(m, i)
            .unwrap_or_else(|| m.as_array().map_or_else(|| i.clone(), |m| m.select(i)))
    };
    let bytes: Vec<Bool> = addresses
        .iter()
        .map(|i| read(a, i).eq(read(b, i)))
        .collect();
    Some(Bool::and(&bytes.iter().collect::<Vec<_>>()))
}

pub fn tree_size_exceeds<T: Ast>(term: &T, limit: usize) -> bool {
    let mut count = 0usize;
    any_subterm(term, false, &mut |_, _| {
        count += 1;
        count > limit
    })
}

/// Whether `term` applies a function whose name starts with one of `prefixes`.
pub fn mentions_function<T: Ast>(term: &T, prefixes: &[&str]) -> bool {
    any_subterm(term, true, &mut |raw_ctx, ast| {
        // SAFETY: a live term of the context; the symbol's string is read before any
        // other call.
        unsafe {
            if z3_sys::Z3_get_ast_kind(raw_ctx, ast) != z3_sys::AstKind::App {
                return false;
            }
            let name = z3_sys::Z3_to_app(raw_ctx, ast)
                .and_then(|app| z3_sys::Z3_get_app_decl(raw_ctx, app))
                .and_then(|decl| z3_sys::Z3_get_decl_name(raw_ctx, decl))
                .filter(|&symbol| {
                    z3_sys::Z3_get_symbol_kind(raw_ctx, symbol) == z3_sys::SymbolKind::String
                })
                .map(|symbol| z3_sys::Z3_get_symbol_string(raw_ctx, symbol))
                .filter(|name| !name.is_null());
            name.is_some_and(|name| {
                let name = std::ffi::CStr::from_ptr(name).to_bytes();
                prefixes.iter().any(|p| name.starts_with(p.as_bytes()))
            })
        }
    })
}

/// The values a term reads from its inputs: its uninterpreted constants (of any sort
/// but arrays) and the bytes it selects from an uninterpreted array constant (the input
/// memory). Fixing each to a value leaves only the uninterpreted functions the term
/// applies free.
pub fn input_values<T: Ast>(term: &T) -> Vec<Dynamic> {
    let ctx = ctx();
    let mut out = Vec::new();
    // SAFETY: every term handled is a live term of this thread's context, reachable
    // from `term`, which holds a reference to it for the whole walk.
    unsafe {
        let raw = ctx.get_z3_context();
        let constant = |ast: z3_sys::Z3_ast| -> Option<bool> {
            let app = z3_sys::Z3_to_app(raw, ast)?;
            let decl = z3_sys::Z3_get_app_decl(raw, app)?;
            let uninterpreted = z3_sys::Z3_get_decl_kind(raw, decl)
                == z3_sys::DeclKind::Uninterpreted
                && z3_sys::Z3_get_arity(raw, decl) == 0;
            let sort = z3_sys::Z3_get_sort(raw, ast)?;
            let array = z3_sys::Z3_get_sort_kind(raw, sort) == z3_sys::SortKind::Array;
            uninterpreted.then_some(array)
        };
        any_subterm(term, true, &mut |raw, ast| {
            if z3_sys::Z3_get_ast_kind(raw, ast) != z3_sys::AstKind::App {
                return false;
            }
            match constant(ast) {
                Some(false) => out.push(Dynamic::wrap(&ctx, ast)),
                Some(true) => {}
                None => {
                    let select = z3_sys::Z3_to_app(raw, ast).and_then(|app| {
                        let decl = z3_sys::Z3_get_app_decl(raw, app)?;
                        (z3_sys::Z3_get_decl_kind(raw, decl) == z3_sys::DeclKind::Select
                            && z3_sys::Z3_get_app_num_args(raw, app) == 2)
                            .then(|| z3_sys::Z3_get_app_arg(raw, app, 0))
                            .flatten()
                    });
                    if select.is_some_and(|array| constant(array) == Some(true)) {
                        out.push(Dynamic::wrap(&ctx, ast));
                    }
                }
            }
            false
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_query_leaves_the_assertion_stack_intact() {
        let mut smt = Smt::new(Budget {
            query: Duration::from_millis(1),
            total: Duration::from_secs(60),
            cutoff: None,
        });
        let x = BV::new_const("x", 32);
        smt.assert(&x.bvugt(BV::from_u64(10, 32)));
        smt.push();
        let y = BV::new_const("y", 32);
        smt.assert(&y.eq(BV::from_u64(3, 32)));
        // Factoring a 49-bit semiprime does not finish in a millisecond.
        let (a, b) = (BV::new_const("a", 64), BV::new_const("b", 64));
        let limit = BV::from_u64(1 << 32, 64);
        let one = BV::from_u64(1, 64);
        let hard = Bool::and(&[
            a.bvugt(&one),
            b.bvugt(&one),
            a.bvult(&limit),
            b.bvult(&limit),
            a.bvmul(&b).eq(BV::from_u64(65_521 * 4_294_967_291, 64)),
        ]);
        assert_eq!(smt.check(&[hard]), Answer::Unknown);
        assert!(smt.stale, "a cut query marks the solver stale");
        assert_eq!(smt.check(&[y.eq(BV::from_u64(4, 32))]), Answer::Unsat);
        assert!(!smt.stale, "the solver was rebuilt");
        smt.pop();
        assert_eq!(smt.check(&[y.eq(BV::from_u64(4, 32))]), Answer::Sat);
        assert_eq!(smt.check(&[x.eq(BV::from_u64(5, 32))]), Answer::Unsat);
    }

    #[test]
    fn push_pop_and_floats_work_with_the_system_library() {
        let mut smt = Smt::new(Budget::default());
        let x = BV::new_const("x", 32);
        smt.push();
        smt.assert(&x.bvsgt(BV::from_i64(5, 32)));
        assert_eq!(smt.check(&[x.eq(BV::from_i64(3, 32))]), Answer::Unsat);
        assert_eq!(smt.check(&[x.eq(BV::from_i64(7, 32))]), Answer::Sat);
        smt.pop();
        assert_eq!(smt.check(&[x.eq(BV::from_i64(3, 32))]), Answer::Sat);
        // 0.1f + 0.2f == 0.3f holds in float but not in double.
        let f = |v: f64, bits: u32| fp_to_bits(&fp_convert(&Float::from_f64(v), bits));
        let sum32 = fp_from_bits(&f(0.1, 32)).add_with_rounding_mode(
            fp_from_bits(&f(0.2, 32)),
            &z3::ast::RoundingMode::round_nearest_ties_to_even(),
        );
        assert_eq!(
            smt.check(&[sum32.eq_fpa(fp_from_bits(&f(0.3, 32))).not()]),
            Answer::Unsat
        );
        let sum64 = Float::from_f64(0.1).add_with_rounding_mode(
            Float::from_f64(0.2),
            &z3::ast::RoundingMode::round_nearest_ties_to_even(),
        );
        assert_eq!(
            smt.check(&[sum64.eq_fpa(Float::from_f64(0.3))]),
            Answer::Unsat
        );
        let i = fp_from_int(&BV::from_i64(-3, 32), true, 64);
        assert_eq!(
            smt.check(&[fp_to_int(&i, true, 32).eq(BV::from_i64(-3, 32)).not()]),
            Answer::Unsat
        );
        let (answer, model) = smt.check_model(&[x.eq(BV::from_i64(-2, 32))]);
        assert_eq!(answer, Answer::Sat);
        assert_eq!(model_bits(&model.unwrap(), &x), Some(0xffff_fffe));
    }
}
