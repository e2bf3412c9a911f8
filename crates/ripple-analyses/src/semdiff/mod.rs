//! Semantic difference summaries between two program versions (Trostanetski, Grumberg,
//! Kroening, "Modular Demand-Driven Analysis of Semantic Difference for Program
//! Versions", SAS 2017).
//!
//! What it computes: for each matched function pair that a change may affect, the
//! *difference summary* `(C, U)` of section 4 (Definition 10): `C`, inputs on which both
//! versions terminate with different final states, and `U`, inputs on which they terminate
//! with the same final state (or both diverge), both under-approximations; inputs on which
//! exactly one version terminates (`termin_ch`, proved non-termination only); and when the
//! summaries cover every input within the bounds, the *full* summary `(ch, unch,
//! termin_ch)` of Definition 9. Each pair gets a verdict: `equivalent` (proved for every
//! input), `different` (a difference that does not depend on abstraction) or `unknown`,
//! and every difference found comes with a witness replayed in the interpreter on both
//! versions, "confirmed" only if the observed outcomes really differ.
//!
//! Algorithm: DIFFSUMMARIZE (Algorithm 1, section 5.1) over the matched call graphs: the
//! work set starts with the syntactically modified pairs and their transitive callers;
//! pairs outside it get `U = true`; a pair is re-analysed when the difference summary of
//! a callee changes. Each pair is summarised by modular symbolic execution (section 3,
//! `ripple_symex`) and compared by CONSTPROCDIFFSUM (Algorithm 2, section 5.2), pairing
//! every path of the old version with every path of the new one. Unexplored callee paths
//! are uninterpreted functions, shared by both versions under `U` of the callee pair
//! (section 6.1). With refinement (MODDIFFREF, section 6.2), a difference whose model
//! goes through an unexplored callee path is checked for spuriousness by exploring that
//! callee under the precondition of the call, then the pair is recomputed; without it
//! (MODDIFF) such differences stay "possible" and the verdict `unknown`.
//!
//! Time: one deadline bounds the whole run (exploration, refinement, the final
//! difference queries and the witness search); every solver query gets the query budget or
//! the time left, whichever is less. The exploration and refinement of all pairs end at
//! [`EXPLORATION_SHARE`] of the run budget; the rest is shared among the reported pairs,
//! each getting an equal part of the time left when its turn comes. A query cut by the
//! deadline answers unknown, so a verdict reached after it is `unknown` unless it was
//! proved (or a witness confirmed) before. Before any solver work, both versions of each
//! reported pair run in the interpreter on boundary and random inputs ([`concrete`],
//! at most [`CONCRETE_SHARE`] of the budget): a difference seen there is a confirmed
//! witness at once, whatever the solver manages later.
//!
//! Soundness: `equivalent` requires, for every interpretation of the uninterpreted
//! functions, no difference between any two paths, the same proved divergence, and both
//! summaries covering every input (their uncovered parts unsatisfiable). Budget or bound
//! exhaustion leaves the uncovered part satisfiable, hence `unknown`.
//!
//! Undefined behaviour: an access outside the local or global object its address is
//! built from, or beyond the object a pointer parameter points into (whose size is an
//! input of the pair, linked to the caller's object at calls), is a trap path, so a
//! version that reads out of bounds where the other does not is never `equivalent`.
//!
//! Known limits: the assumption that pointer arguments do not point into the frames of
//! the analysed functions (they cannot, in a real call) and point to at least one
//! element; pointers of unknown provenance are not bounds-checked; non-termination is only proved
//! for loops whose state repeats after one iteration; a function pair whose parameter
//! types differ is reported `unknown`; see `ripple_symex` for the encoding's limits.

mod concrete;
pub mod native;

use std::time::Duration;

use ripple_graph::CallGraph;
use ripple_interp::{CallResult, Interpreter, RunConfig, Value};
use ripple_ir::{FuncId, Program, Type};
use ripple_symex::layout::{ARGUMENT_BASE, ARGUMENT_SPAN, FRAME_BASE};
use ripple_symex::render::{render, Names};
use ripple_symex::smt::{and_all, model_bits, model_bool, or_all};
use ripple_symex::z3::ast::{Ast, Bool, BV};
use ripple_symex::{Answer, Budget, Config, Engine, Outcome, Side};
use ripple_versions::{FunctionStatus, VersionMatch};
use rustc_hash::FxHashMap;

/// The default limit of one solver query.
pub const DEFAULT_QUERY_BUDGET: Duration = Duration::from_millis(1000);
/// The default limit of a whole run: with the process start, preprocessing and the
/// last query's overrun, a run stays well under 5 s on a loaded 2-core machine.
pub const DEFAULT_RUN_BUDGET: Duration = Duration::from_millis(3500);
/// The part of the run budget for exploring and refining the summaries; the rest is for
/// the reports (difference queries, witnesses, readable conditions).
pub const EXPLORATION_SHARE: f64 = 0.6;
/// The part of the run budget for the concrete search before the analysis (it usually
/// takes a few milliseconds).
pub const CONCRETE_SHARE: f64 = 0.1;

/// Settings of a semantic difference run.
#[derive(Clone, Debug)]
pub struct SemdiffConfig {
    /// Refine spurious differences on demand (MODDIFFREF); otherwise MODDIFF.
    pub refine: bool,
    /// Loop unwinding bound of the summaries.
    pub unwind: u32,
    /// Budget of one solver query (seconds, counted as work: `ripple_symex::smt`).
    pub query_budget: Duration,
    /// Budget of the whole run (seconds, counted as work).
    pub total_budget: Duration,
    /// The wall-clock cut-off; `None`: the total budget.
    pub wall_clock_cutoff: Option<Duration>,
    /// Report only this function (by name); the analysis still covers its callees.
    pub function: Option<String>,
    /// Maximal refinement rounds per pair.
    pub max_refinements: u32,
    /// Witnesses replayed per pair.
    pub max_witnesses: usize,
    /// Interpreter step limit of a replay (a replay reaching it confirms nothing).
    pub replay_steps: u64,
    /// Compute the difference summary of a pair even when a confirmed witness has
    /// already settled its verdict (by default the search stops there).
    pub full_summary: bool,
    /// Runs witnesses on the versions built by the machine's C compiler; None: the
    /// interpreter decides.
    pub native: Option<std::sync::Arc<native::NativeRunner>>,
    /// Answer modulo undefined behaviour: a witness that goes through it (signed
    /// overflow, division by zero, ...) confirms nothing.
    pub assume_no_ub: bool,
    /// Do not free the solvers' memory at the end (a process that exits right after).
    pub abandon_solver_memory: bool,
}

impl Default for SemdiffConfig {
    fn default() -> Self {
        SemdiffConfig {
            refine: true,
            unwind: 5,
            query_budget: DEFAULT_QUERY_BUDGET,
            total_budget: DEFAULT_RUN_BUDGET,
            wall_clock_cutoff: None,
            function: None,
            max_refinements: 16,
            max_witnesses: 3,
            replay_steps: 200_000,
            full_summary: false,
            native: None,
            assume_no_ub: false,
            abandon_solver_memory: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Equivalent,
    Different,
    Unknown,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Different => "different",
            Verdict::Unknown => "unknown",
        }
    }
}

/// What one version did on a witness input. Two runs are equal when they behave alike
/// (result, output, final state), whatever undefined behaviour they went through.
#[derive(Clone, Debug)]
pub struct Observed {
    /// "returned 4", "returned", "exit 3", "trap: ...", "no termination within N steps".
    pub result: String,
    pub stdout: String,
    /// Final values of pointed-to objects and globals, by C name.
    pub state: Vec<(String, String)>,
    /// The run stopped at a limit (steps) or could not be carried out: what it shows
    /// proves nothing, so it never confirms a difference.
    pub limited: bool,
    /// The run trapped on undefined behaviour that compiled code need not show (an
    /// out-of-bounds access, a use after free, an invalid pointer, a division by zero):
    /// the interpreter alone cannot confirm a difference through it (the compiled
    /// versions can).
    pub undefined: Option<String>,
    /// Undefined behaviour the run went through and gave a value to, as code built with
    /// `-fwrapv` on x86-64 does (signed overflow, an out-of-range shift or conversion),
    /// or trapped on (division by zero): a difference through it is real for this build
    /// but not one the C standard promises.
    pub through: Vec<&'static str>,
    /// Interpreter steps the run took.
    pub steps: u64,
}

impl PartialEq for Observed {
    fn eq(&self, other: &Self) -> bool {
        self.result == other.result
            && self.stdout == other.stdout
            && self.state == other.state
            && self.limited == other.limited
            && self.undefined == other.undefined
    }
}

impl Observed {
    /// Whether a difference from this run is an observed difference of the program: the
    /// run ended on its own and did not go through undefined behaviour that compiled
    /// code need not show.
    pub fn confirms(&self) -> bool {
        !self.limited && self.undefined.is_none()
    }
}

/// A concrete input on which the versions differ, replayed on both.
#[derive(Clone, Debug)]
pub struct Witness {
    /// Parameter and global values, by C name.
    pub inputs: Vec<(String, String)>,
    pub old: Observed,
    pub new: Observed,
    /// True only if an observed difference: the compiled versions' runs differ (when a
    /// compiler is there), else the interpreter's, and both runs ended on their own (a
    /// step limit, a timeout or a run that could not be carried out proves nothing).
    pub confirmed: bool,
    /// Why the witness is not confirmed (None when it is).
    pub unconfirmed: Option<Unconfirmed>,
    /// What ran the versions to decide: "compiled code" or "interpreter".
    pub checked_by: &'static str,
    /// The compiled versions' outcomes (driver text), when they ran.
    pub native: Option<[String; 2]>,
    /// Why the compiled versions could not run, when a compiler was there.
    pub native_error: Option<String>,
    /// What the difference goes through besides ordinary values: undefined behaviour of
    /// either run ("signed overflow (new)", "division by zero (old)", "out-of-bounds
    /// access (new)", ...) or "NaN or signed zero" when the results differ only there.
    pub labels: Vec<String>,
    /// "output" or "termination".
    pub kind: &'static str,
    /// The raw input the replays ran on, to re-run it elsewhere.
    pub replay: ReplayInput,
}

/// Why a witness is not confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A replay stopped at its step limit or could not run.
    Limit,
    /// A replay trapped on undefined behaviour that compiled code need not show.
    UndefinedBehaviour,
    /// Both replays agree.
    SameOutcome,
    /// The compiled versions agree on the input (the interpreter's difference is not one
    /// of the program as built).
    CompiledAgree,
    /// A compiled run did not end within its timeout.
    CompiledTimeout,
    /// The difference goes through undefined behaviour, excluded by `--assume no-ub`.
    ExcludedUndefined,
}

impl Unconfirmed {
    pub fn name(self) -> &'static str {
        match self {
            Unconfirmed::Limit => "limit",
            Unconfirmed::UndefinedBehaviour => "undefined behaviour",
            Unconfirmed::SameOutcome => "same outcome",
            Unconfirmed::CompiledAgree => "compiled versions agree",
            Unconfirmed::CompiledTimeout => "compiled run timed out",
            Unconfirmed::ExcludedUndefined => "undefined behaviour excluded",
        }
    }
}

impl Witness {
    /// A witness checked by the interpreter's replays `old` and `new`.
    fn replayed(
        inputs: Vec<(String, String)>,
        old: Observed,
        new: Observed,
        kind: &'static str,
        replay: ReplayInput,
    ) -> Witness {
        let unconfirmed = if old.limited || new.limited {
            Some(Unconfirmed::Limit)
        } else if old.undefined.is_some() || new.undefined.is_some() {
            Some(Unconfirmed::UndefinedBehaviour)
        } else if old == new {
            Some(Unconfirmed::SameOutcome)
        } else {
            None
        };
        let mut labels: Vec<String> = Vec::new();
        for (side, observed) in [("old", &old), ("new", &new)] {
            labels.extend(observed.through.iter().map(|u| format!("{u} ({side})")));
            let trapped = observed.undefined.as_deref().unwrap_or_default();
            for (key, label) in [
                ("out-of-bounds", "out-of-bounds access"),
                ("freed or out-of-scope", "use after free"),
                ("invalid pointer", "invalid pointer"),
            ] {
                if trapped.contains(key) {
                    labels.push(format!("{label} ({side})"));
                }
            }
        }
        if nan_or_signed_zero(&old.result, &new.result) {
            labels.push("NaN or signed zero".into());
        }
        Witness {
            labels,
            inputs,
            old,
            new,
            confirmed: unconfirmed.is_none(),
            unconfirmed,
            checked_by: "interpreter",
            native: None,
            native_error: None,
            kind,
            replay,
        }
    }

    /// Decides the witness on the compiled versions when the configuration has a native
    /// runner: their outcomes, not the interpreter's, confirm it or not.
    fn decide(&mut self, programs: [&Program; 2], funcs: [FuncId; 2], config: &SemdiffConfig) {
        self.check_natively(programs, funcs, config);
        let undefined = self.labels.iter().any(|l| l != "NaN or signed zero");
        if config.assume_no_ub && self.confirmed && undefined {
            self.confirmed = false;
            self.unconfirmed = Some(Unconfirmed::ExcludedUndefined);
        }
    }

    fn check_natively(
        &mut self,
        programs: [&Program; 2],
        funcs: [FuncId; 2],
        config: &SemdiffConfig,
    ) {
        let Some(runner) = &config.native else {
            return;
        };
        let old_globals = native::data_globals(programs[0]);
        let new_globals = native::data_globals(programs[1]);
        let globals: Vec<String> = old_globals
            .into_iter()
            .filter(|g| new_globals.contains(g))
            .collect();
        let outcome = |side: Side, i: usize| -> Result<String, String> {
            let input = native::witness_input(programs[i], &self.replay);
            runner
                .outcomes(side, programs[i], funcs[i], &globals, &[input])?
                .pop()
                .ok_or_else(|| "the compiled run printed nothing".to_string())
        };
        match (outcome(Side::Old, 0), outcome(Side::New, 1)) {
            (Ok(a), Ok(b)) => {
                self.unconfirmed = if native::timed_out(&a) || native::timed_out(&b) {
                    Some(Unconfirmed::CompiledTimeout)
                } else if a == b {
                    Some(Unconfirmed::CompiledAgree)
                } else {
                    None
                };
                self.confirmed = self.unconfirmed.is_none();
                self.checked_by = "compiled code";
                self.native = Some([a, b]);
            }
            (Err(e), _) | (_, Err(e)) => self.native_error = Some(e),
        }
    }
}

/// A witness input as the interpreter takes it: the arguments of the function, in
/// order, and the initial bytes of the globals (by key).
#[derive(Clone, Debug)]
pub struct ReplayInput {
    pub args: Vec<ReplayArg>,
    pub globals: Vec<(String, Vec<u8>)>,
}

/// The result for one matched function pair.
#[derive(Clone, Debug)]
pub struct PairReport {
    pub name: String,
    pub old: Option<FuncId>,
    pub new: Option<FuncId>,
    pub modified: bool,
    pub verdict: Verdict,
    /// `C`, as C-like text (None when empty).
    pub differs_when: Option<String>,
    /// `U`, as C-like text.
    pub equal_when: Option<String>,
    pub non_termination_differs_when: Option<String>,
    /// Whether (C, U, termin) is the full difference summary within the bounds.
    pub full: bool,
    pub witnesses: Vec<Witness>,
    pub notes: Vec<String>,
    /// Paths summarised (old, new).
    pub paths: (usize, usize),
    /// Raw formulas (over the pair's input symbols), for tests and further queries.
    pub formulas: Option<PairFormulas>,
}

/// The difference summary as solver formulas.
#[derive(Clone)]
pub struct PairFormulas {
    pub differs: Bool,
    pub equal: Bool,
    pub termination_differs: Bool,
    /// What the summary assumes of the inputs (pointer arguments outside the frames,
    /// into objects of at least one element, ...): the three conditions hold under it.
    pub assumptions: Bool,
    pub params: Vec<BV>,
    pub mem: ripple_symex::z3::ast::Array,
}

impl std::fmt::Debug for PairFormulas {
    /// Formulas can be large; their text is in the report's readable fields.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PairFormulas { .. }")
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct SemdiffReport {
    pub functions: Vec<PairReport>,
    /// Index in `functions` of `main`, when analysed.
    pub main: Option<usize>,
    pub refine: bool,
    pub unwind: u32,
    /// Whether differences through undefined behaviour were excluded (`--assume no-ub`).
    pub assume_no_ub: bool,
    pub queries: u64,
    /// Wall-clock time of the analysis (not part of any verdict).
    pub elapsed: Duration,
    /// Work spent and the run's work budget, in units (deterministic: see
    /// `ripple_symex::smt`).
    pub work: u64,
    pub work_budget: u64,
    /// True when the wall-clock cut-off, not the work budget, stopped the run: then the
    /// result may depend on the machine's speed and load.
    pub stopped_by_clock: bool,
    /// True when the run's budget ran out.
    pub out_of_budget: bool,
}

/// The in-progress state of one pair (the paper's Diff and FoundDiff).
#[derive(Clone)]
struct PairState {
    old: FuncId,
    new: FuncId,
    status: FunctionStatus,
    equal: Bool,
    differs: Bool,
    possible: Bool,
    termination: Bool,
    covered: bool,
    analysed: u32,
    witnesses_models: Vec<(Bool, &'static str)>,
    /// Answers already known for `differs`, `possible` and `termination` (under the
    /// input assumptions), so that the report need not ask again.
    known: KnownAnswers,
    /// A difference seen by running both versions (a confirmed witness).
    concrete: Option<Witness>,
    paths: (usize, usize),
    notes: Vec<String>,
}

/// Satisfiability of a pair's difference formulas as found while computing them.
#[derive(Clone, Copy, Default)]
struct KnownAnswers {
    differs: Option<Answer>,
    possible: Option<Answer>,
    termination: Option<Answer>,
}

/// Runs DIFFSUMMARIZE on two versions.
pub fn semdiff(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    config: &SemdiffConfig,
) -> SemdiffReport {
    let pairs: Vec<(FuncId, FuncId, FunctionStatus)> = matching
        .functions
        .iter()
        .filter_map(|m| match (m.old, m.new) {
            (Some(o), Some(n))
                if old.functions[o].is_defined() && new.functions[n].is_defined() =>
            {
                Some((o, n, m.status))
            }
            _ => None,
        })
        .collect();
    let plain: Vec<(FuncId, FuncId)> = pairs.iter().map(|(o, n, _)| (*o, *n)).collect();
    let symex_config = Config {
        unwind: config.unwind,
        refine_unwind: config.unwind.max(64),
        max_paths: 4000,
        budget: Budget {
            query: config.query_budget,
            total: config.total_budget,
            cutoff: config.wall_clock_cutoff,
        },
    };
    let mut engine = Engine::new([old, new], &plain, symex_config);
    let exploration = engine.smt.work_budget() as f64 * EXPLORATION_SHARE;
    engine.smt.set_phase_work(exploration as u64);
    let graphs = [CallGraph::build(old), CallGraph::build(new)];
    let index_of_old: FxHashMap<FuncId, usize> =
        pairs.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
    let index_of_new: FxHashMap<FuncId, usize> =
        pairs.iter().enumerate().map(|(i, p)| (p.1, i)).collect();
    // The pairs whose old or new function is a neighbour (by `edges`: callers or callees)
    // of pair i's old or new function.
    let neighbours = |i: usize, edges: fn(&CallGraph) -> &Vec<Vec<FuncId>>| -> Vec<usize> {
        let (o, n, _) = pairs[i];
        let mut out: Vec<usize> = edges(&graphs[0])[o.index()]
            .iter()
            .filter_map(|c| index_of_old.get(c).copied())
            .chain(
                edges(&graphs[1])[n.index()]
                    .iter()
                    .filter_map(|c| index_of_new.get(c).copied()),
            )
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let callers_of = |i: usize| neighbours(i, |g| &g.callers);
    let callees_of = |i: usize| neighbours(i, |g| &g.callees);
    // Algorithm 1, lines 3-8: modified pairs and their transitive callers.
    let mut in_work: Vec<bool> = pairs
        .iter()
        .map(|(_, _, s)| *s != FunctionStatus::Unchanged)
        .collect();
    let mut stack: Vec<usize> = (0..pairs.len()).filter(|i| in_work[*i]).collect();
    while let Some(i) = stack.pop() {
        for c in callers_of(i) {
            if !in_work[c] {
                in_work[c] = true;
                stack.push(c);
            }
        }
    }
    // Lines 9-16.
    let mut states: Vec<PairState> = pairs
        .iter()
        .enumerate()
        .map(|(i, (o, n, s))| PairState {
            old: *o,
            new: *n,
            status: *s,
            equal: Bool::from_bool(!in_work[i]),
            differs: Bool::from_bool(false),
            possible: Bool::from_bool(false),
            termination: Bool::from_bool(false),
            covered: !in_work[i],
            analysed: 0,
            witnesses_models: Vec::new(),
            known: KnownAnswers::default(),
            concrete: None,
            paths: (0, 0),
            notes: Vec::new(),
        })
        .collect();
    for (i, state) in states.iter().enumerate() {
        if engine.pair_index(Side::Old, state.old) == Some(i) {
            engine.set_equal_when(i, state.equal.clone());
        }
    }
    // The pairs to report. Before any solver work, a concrete search on each (at most
    // CONCRETE_SHARE of the budget in all): its witnesses stand whatever the solver
    // manages later.
    let reported: Vec<usize> = (0..states.len())
        .filter(|i| in_work[*i])
        .filter(|i| {
            config
                .function
                .as_ref()
                .is_none_or(|only| &old.functions[states[*i].old].name == only)
        })
        .collect();
    for (k, i) in reported.iter().copied().enumerate() {
        if engine.pair_index(Side::Old, states[i].old) != Some(i) {
            continue;
        }
        let _ = k;
        states[i].concrete =
            concrete::search(old, new, states[i].old, states[i].new, config, &engine.smt);
    }
    // Lines 17-31, callees first (post-order over the old call graph).
    let order = post_order(&pairs, &callees_of);
    let rank: FxHashMap<usize, usize> = order.iter().enumerate().map(|(r, i)| (*i, r)).collect();
    let mut work: std::collections::BTreeSet<(usize, usize)> = (0..pairs.len())
        .filter(|i| in_work[*i])
        .map(|i| (rank[&i], i))
        .collect();
    let mut out_of_budget = false;
    while let Some((r, i)) = work.iter().next().copied() {
        work.remove(&(r, i));
        if engine.smt.out_of_time() {
            out_of_budget = true;
            // Pairs still waiting (for a first analysis or a re-analysis after a callee
            // changed) cannot be proved equivalent.
            for (_, pending) in std::iter::once((r, i)).chain(work.iter().copied()) {
                states[pending]
                    .notes
                    .push("budget exhausted before the analysis finished".into());
            }
            break;
        }
        // A confirmed witness settles a pair that no caller waits on: its difference
        // summary would only cost budget (unless asked for).
        if !config.full_summary
            && states[i].concrete.is_some()
            && callers_of(i).iter().all(|c| !in_work[*c])
        {
            states[i].notes.push(
                "settled by a confirmed witness; the difference summary was not computed \
                 (--full-summary computes it)"
                    .into(),
            );
            continue;
        }
        let unchanged = states[i].status == FunctionStatus::Unchanged;
        let callees_equal = callees_of(i)
            .iter()
            .all(|c| states[*c].equal.as_bool() == Some(true));
        let before = (states[i].equal.clone(), states[i].differs.clone());
        if unchanged && callees_equal {
            states[i].equal = Bool::from_bool(true);
            states[i].covered = true;
        } else if states[i].analysed >= 4 {
            states[i]
                .notes
                .push("re-analysis limit reached (recursion)".into());
            continue;
        } else {
            let state = states[i].clone();
            let is_root = callers_of(i).is_empty();
            states[i] = analyse_pair(&mut engine, state, i, config, is_root);
        }
        // Only callers depend on whether the summary changed: a root needs no query, and
        // a first analysis changed the initial (constant) summary unless it is the same
        // term.
        let first = states[i].analysed <= 1 && !unchanged;
        let changed = if callers_of(i).is_empty() {
            false
        } else if first {
            !before.0.ast_eq(&states[i].equal) || !before.1.ast_eq(&states[i].differs)
        } else {
            !same_formula(&mut engine, &before.0, &states[i].equal)
                || !same_formula(&mut engine, &before.1, &states[i].differs)
        };
        if changed {
            if engine.pair_index(Side::Old, states[i].old) == Some(i) {
                engine.set_equal_when(i, states[i].equal.clone());
            }
            for c in callers_of(i) {
                if in_work[c] {
                    work.insert((rank[&c], c));
                }
            }
        }
    }
    // Reports: each gets an equal share of the time left when its turn comes.
    let mut functions = Vec::new();
    let mut main = None;
    for (k, i) in reported.iter().copied().enumerate() {
        let state = &states[i];
        if old.functions[state.old].name == "main" {
            main = Some(functions.len());
        }
        let share = engine.smt.work_left() / u64::try_from(reported.len() - k).unwrap_or(1);
        engine.smt.set_phase_work(share);
        functions.push(report_pair(&mut engine, state, i, config, out_of_budget));
    }
    engine.smt.set_phase_end(None);
    let report = SemdiffReport {
        functions,
        main,
        refine: config.refine,
        assume_no_ub: config.assume_no_ub,
        unwind: config.unwind,
        queries: engine.smt.queries,
        elapsed: engine.elapsed(),
        work: engine.smt.work_used(),
        work_budget: engine.smt.work_budget(),
        stopped_by_clock: engine.smt.stopped_by_clock(),
        out_of_budget: out_of_budget || engine.smt.run_out_of_time(),
    };
    if config.abandon_solver_memory {
        engine.abandon();
    }
    report
}

fn post_order(
    pairs: &[(FuncId, FuncId, FunctionStatus)],
    callees_of: &dyn Fn(usize) -> Vec<usize>,
) -> Vec<usize> {
    let mut seen = vec![false; pairs.len()];
    let mut order = Vec::new();
    for root in 0..pairs.len() {
        if seen[root] {
            continue;
        }
        let mut stack = vec![(root, false)];
        while let Some((node, done)) = stack.pop() {
            if done {
                order.push(node);
                continue;
            }
            if seen[node] {
                continue;
            }
            seen[node] = true;
            stack.push((node, true));
            for c in callees_of(node).into_iter().rev() {
                if !seen[c] {
                    stack.push((c, false));
                }
            }
        }
    }
    order
}

fn same_formula(engine: &mut Engine, a: &Bool, b: &Bool) -> bool {
    if a.ast_eq(b) {
        return true;
    }
    engine.smt.check(&[a.eq(b).not()]) == Answer::Unsat
}

/// Final states equal: status, exit code, return value, memory and I/O. Parts that are
/// the same term in both versions are left out, so that equal computations need no
/// solver work at all (the formula is then `true`).
fn outcomes_equal(a: &Outcome, b: &Outcome) -> Bool {
    let same = |x: &dyn Fn() -> Bool, equal: bool| -> Option<Bool> { (!equal).then(x) };
    let returned = a.status.eq(BV::from_u64(0, 8));
    let exited = a.status.eq(BV::from_u64(1, 8));
    let mut parts: Vec<Bool> = Vec::new();
    parts.extend(same(&|| a.status.eq(&b.status), a.status.ast_eq(&b.status)));
    parts.extend(same(&|| a.io.eq(&b.io), a.io.ast_eq(&b.io)));
    if let Some(code) = same(&|| a.code.eq(&b.code), a.code.ast_eq(&b.code)) {
        parts.push(exited.implies(code));
    }
    let mut on_return: Vec<Bool> = Vec::new();
    on_return.extend(same(&|| a.mem.eq(&b.mem), a.mem.ast_eq(&b.mem)));
    match (&a.ret, &b.ret) {
        (Some(x), Some(y)) if x.get_size() == y.get_size() => {
            on_return.extend(same(&|| x.eq(y), x.ast_eq(y)));
        }
        (Some(_), Some(_)) => on_return.push(Bool::from_bool(false)),
        _ => {}
    }
    if !on_return.is_empty() {
        parts.push(returned.implies(and_all(&on_return)));
    }
    and_all(&parts)
}

/// Assumptions on the inputs of a pair: pointer parameters point outside the frames,
/// into objects that hold at least one element and end before the frames, constant
/// globals hold their initial values.
fn input_assumptions(engine: &Engine, side: Side, func: FuncId) -> Vec<Bool> {
    let program = engine.programs[side.index()];
    let function = &program.functions[func];
    let inputs = engine.inputs(side, func);
    let mut facts = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        if let Type::Pointer(pointee) = program.types.get(function.locals[*var].ty) {
            let frames = BV::from_u64(FRAME_BASE, 64);
            facts.push(inputs.params[i].bvult(&frames));
            let size = engine.object_size(side, func, i);
            facts.push(size.bvule(frames.bvsub(&inputs.params[i])));
            let element = program.types.size_of(*pointee);
            facts.push(size.bvuge(BV::from_u64(element, 64)));
        }
    }
    facts.extend(engine.constant_memory(side, &inputs.mem));
    facts
}

/// Extra constraints that make witnesses replayable and readable: pointer arguments
/// point to separate objects at known addresses; or, for a difference that needs
/// aliasing, each points to the start of one of those objects (equal pointers, no
/// partial overlap).
fn witness_niceness(engine: &Engine, func: FuncId) -> (Vec<Bool>, Vec<Bool>) {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let pointers: Vec<usize> = (0..function.params.len())
        .filter(|&i| {
            matches!(
                program.types.get(function.locals[function.params[i]].ty),
                Type::Pointer(_)
            )
        })
        .collect();
    let slot = |i: usize| BV::from_u64(ARGUMENT_BASE + ARGUMENT_SPAN * i as u64, 64);
    // Objects of the size the replay gives them.
    let sized: Vec<Bool> = pointers
        .iter()
        .map(|&i| {
            engine
                .object_size(Side::Old, func, i)
                .eq(BV::from_u64(replay_object_len(program, function, i), 64))
        })
        .collect();
    let separate = pointers
        .iter()
        .map(|&i| inputs.params[i].eq(slot(i)))
        .chain(sized.iter().cloned())
        .collect();
    // Each pointer at the start of one of the pointer arguments' slots.
    let aliased = pointers
        .iter()
        .map(|&i| {
            let choices: Vec<Bool> = pointers
                .iter()
                .map(|&j| inputs.params[i].eq(slot(j)))
                .collect();
            Bool::or(&choices.iter().collect::<Vec<_>>())
        })
        .chain(sized)
        .collect();
    (separate, aliased)
}

/// The bytes of the object a replay gives pointer parameter `i` (at least 64).
fn replay_object_len(program: &Program, function: &ripple_ir::Function, i: usize) -> u64 {
    match program.types.get(function.locals[function.params[i]].ty) {
        Type::Pointer(pointee) => 64u64.max(program.types.size_of(*pointee)),
        _ => 0,
    }
}

/// Summarises both functions of a pair and runs CONSTPROCDIFFSUM, refining on demand.
/// A pair without callers (`main`) also refines its own uncovered part with a deeper
/// unwinding bound; other pairs are refined on demand of their callers.
fn analyse_pair(
    engine: &mut Engine,
    mut state: PairState,
    index: usize,
    config: &SemdiffConfig,
    is_root: bool,
) -> PairState {
    state.analysed += 1;
    if engine.pair_index(Side::Old, state.old) != Some(index) {
        state
            .notes
            .push("parameter types differ between the versions".into());
        state.equal = Bool::from_bool(false);
        state.covered = false;
        return state;
    }
    let mut unwind = config.unwind;
    engine.explore_fresh(Side::Old, state.old, unwind);
    engine.explore_fresh(Side::New, state.new, unwind);
    let mut assumptions = input_assumptions(engine, Side::Old, state.old);
    assumptions.extend(input_assumptions(engine, Side::New, state.new));
    let assume = and_all(&assumptions);
    let mut rounds = 0;
    loop {
        let (result, refine_sites) = const_proc_diff_sum(engine, &state, &assume);
        if config.refine
            && !refine_sites.is_empty()
            && rounds < config.max_refinements
            && !engine.smt.out_of_time()
        {
            rounds += 1;
            let mut progress = false;
            for (side, callee, pre) in refine_sites {
                if engine.explore(side, callee, Some(&pre)) > 0 {
                    progress = true;
                }
            }
            if progress {
                // Re-run modular symbolic execution with the refined callee summaries.
                engine.explore_fresh(Side::Old, state.old, unwind);
                engine.explore_fresh(Side::New, state.new, unwind);
                continue;
            }
        }
        if config.refine
            && is_root
            && !result.covered
            && unwind < config.unwind.max(64)
            && !engine.smt.out_of_time()
        {
            // Refinement of the pair itself: its own uncovered paths, with a deeper bound.
            unwind = config.unwind.max(64);
            engine.explore_fresh(Side::Old, state.old, unwind);
            engine.explore_fresh(Side::New, state.new, unwind);
            continue;
        }
        let s1 = engine.summary(Side::Old, state.old).cloned();
        let s2 = engine.summary(Side::New, state.new).cloned();
        state.paths = (
            s1.as_ref().map_or(0, |s| s.paths.len()),
            s2.as_ref().map_or(0, |s| s.paths.len()),
        );
        state.equal = result.equal;
        state.differs = result.differs;
        state.possible = result.possible;
        state.termination = result.termination;
        state.covered = result.covered;
        state.witnesses_models = result.witness_conditions;
        state.known = result.known;
        if s1.is_some_and(|s| s.out_of_budget) || s2.is_some_and(|s| s.out_of_budget) {
            state
                .notes
                .push("budget exhausted during exploration".into());
        }
        return state;
    }
}

struct DiffResult {
    equal: Bool,
    differs: Bool,
    possible: Bool,
    termination: Bool,
    covered: bool,
    witness_conditions: Vec<(Bool, &'static str)>,
    known: KnownAnswers,
}

/// Algorithm 2 over the current summaries. Also returns the refinement requests
/// (callee, version, precondition) for differences whose models use abstraction.
fn const_proc_diff_sum(
    engine: &mut Engine,
    state: &PairState,
    assume: &Bool,
) -> (DiffResult, Vec<(Side, FuncId, Bool)>) {
    let s1 = engine
        .summary(Side::Old, state.old)
        .cloned()
        .expect("explored");
    let s2 = engine
        .summary(Side::New, state.new)
        .cloned()
        .expect("explored");
    let mut equal = Vec::new();
    let mut differs = Vec::new();
    let mut possible = Vec::new();
    let mut witness_conditions = Vec::new();
    let mut refine = Vec::new();
    // A part of `possible` whose query was satisfiable (not merely undecided).
    let mut possible_sat = false;
    engine.smt.push();
    engine.smt.assert(assume);
    for p1 in &s1.paths {
        for p2 in &s2.paths {
            let both = Bool::and(&[p1.reach.clone(), p2.reach.clone()]);
            // With costly operators as uninterpreted functions first: unsatisfiable
            // there is unsatisfiable (ripple_symex::smt::abstract_costly).
            let cheap = |engine: &Engine, f: &Bool| {
                if engine.smt.out_of_time() {
                    None
                } else {
                    ripple_symex::smt::abstract_costly(f)
                }
            };
            let cheap_both = cheap(engine, &both);
            if engine
                .smt
                .check(std::slice::from_ref(cheap_both.as_ref().unwrap_or(&both)))
                == Answer::Unsat
            {
                continue;
            }
            let same = outcomes_equal(&p1.out, &p2.out);
            let diff = Bool::and(&[both.clone(), same.not()]);
            let cheap_unsat = cheap(engine, &diff)
                .is_some_and(|cheap| engine.smt.check(&[cheap]) == Answer::Unsat);
            let (answer, model) = if cheap_unsat {
                (Answer::Unsat, None)
            } else {
                engine.smt.check_model(std::slice::from_ref(&diff))
            };
            if answer != Answer::Unsat {
                let abstracted = Bool::or(&[p1.abstracted.clone(), p2.abstracted.clone()]);
                let uses_abstraction = match &model {
                    Some(m) => model_bool(m, &abstracted).unwrap_or(true),
                    None => true,
                };
                if uses_abstraction {
                    possible_sat |= answer == Answer::Sat;
                    possible.push(diff.clone());
                    if let Some(m) = &model {
                        for call in p1.calls.iter().chain(&p2.calls) {
                            if model_bool(m, &call.unexplored).unwrap_or(false) {
                                let inputs = engine.inputs(call.side, call.callee);
                                let mut pre = vec![
                                    diff.clone(),
                                    call.unexplored.clone(),
                                    inputs.mem.eq(&call.mem),
                                    inputs.io.eq(&call.io),
                                ];
                                for (p, a) in inputs.params.iter().zip(&call.args) {
                                    pre.push(p.eq(a));
                                }
                                refine.push((call.side, call.callee, and_all(&pre)));
                            }
                        }
                    }
                } else {
                    let exact = Bool::and(&[diff.clone(), abstracted.not()]);
                    differs.push(exact.clone());
                    witness_conditions.push((exact, "output"));
                }
            }
            let eq = Bool::and(&[both, same]);
            // A path pair that cannot differ is equal wherever it is reached.
            if cheap_unsat || engine.smt.check(std::slice::from_ref(&eq)) != Answer::Unsat {
                equal.push(eq);
            }
        }
    }
    // Termination: one version proved divergent, the other terminating.
    let d1 = or_all(&s1.diverge);
    let d2 = or_all(&s2.diverge);
    let da1 = or_all(&s1.diverge_abstract);
    let da2 = or_all(&s2.diverge_abstract);
    let r1 = or_all(&s1.paths.iter().map(|p| p.reach.clone()).collect::<Vec<_>>());
    let r2 = or_all(&s2.paths.iter().map(|p| p.reach.clone()).collect::<Vec<_>>());
    let exact = |r: &Vec<ripple_symex::PathSummary>| {
        or_all(
            &r.iter()
                .map(|p| Bool::and(&[p.reach.clone(), p.abstracted.not()]))
                .collect::<Vec<_>>(),
        )
    };
    let (e1, e2) = (exact(&s1.paths), exact(&s2.paths));
    let termination = Bool::or(&[Bool::and(&[d1.clone(), e2]), Bool::and(&[d2.clone(), e1])]);
    let mut termination_parts = Vec::new();
    let termination_answer = engine.smt.check(std::slice::from_ref(&termination));
    if termination_answer != Answer::Unsat {
        termination_parts.push(termination.clone());
        witness_conditions.push((termination.clone(), "termination"));
    }
    let any_d1 = Bool::or(&[d1.clone(), da1.clone()]);
    let any_d2 = Bool::or(&[d2.clone(), da2.clone()]);
    let maybe_termination = Bool::and(&[
        Bool::or(&[
            Bool::and(&[any_d1.clone(), any_d2.not()]),
            Bool::and(&[any_d2.clone(), any_d1.not()]),
        ]),
        termination.not(),
    ]);
    let maybe_answer = engine.smt.check(std::slice::from_ref(&maybe_termination));
    if maybe_answer != Answer::Unsat {
        possible_sat |= maybe_answer == Answer::Sat;
        possible.push(maybe_termination);
    }
    let both_diverge = Bool::and(&[any_d1.clone(), any_d2.clone()]);
    if engine.smt.check(std::slice::from_ref(&both_diverge)) != Answer::Unsat {
        equal.push(both_diverge);
    }
    // Coverage: the uncovered parts are empty.
    let uncovered1 = Bool::or(&[r1, any_d1]).not();
    let uncovered2 = Bool::or(&[r2, any_d2]).not();
    let covered = !s1.cut && !s2.cut
        || (engine.smt.check(&[uncovered1]) == Answer::Unsat
            && engine.smt.check(&[uncovered2]) == Answer::Unsat);
    engine.smt.pop();
    // Every part of `differs` had a model (and so has their disjunction); an empty
    // disjunction is false.
    let answer_of = |parts: usize, sat: bool| match (parts, sat) {
        (0, _) => Answer::Unsat,
        (_, true) => Answer::Sat,
        _ => Answer::Unknown,
    };
    let known = KnownAnswers {
        differs: Some(answer_of(differs.len(), true)),
        possible: Some(answer_of(possible.len(), possible_sat)),
        termination: Some(answer_of(
            termination_parts.len(),
            termination_answer == Answer::Sat,
        )),
    };
    let result = DiffResult {
        known,
        equal: or_all(&equal),
        differs: or_all(&differs),
        possible: or_all(&possible),
        termination: or_all(&termination_parts),
        covered,
        witness_conditions,
    };
    (result, refine)
}

fn report_pair(
    engine: &mut Engine,
    state: &PairState,
    index: usize,
    config: &SemdiffConfig,
    out_of_budget: bool,
) -> PairReport {
    // The caller has set this report's share of the time left as the phase deadline.
    let name = engine.programs[0].functions[state.old].name.clone();
    let names = names_for(engine, state.old);
    let paired = engine.pair_index(Side::Old, state.old) == Some(index);
    let inputs = engine.inputs(Side::Old, state.old);
    let mut assumptions = if paired {
        input_assumptions(engine, Side::Old, state.old)
    } else {
        Vec::new()
    };
    if paired {
        assumptions.extend(input_assumptions(engine, Side::New, state.new));
    }
    let assume = and_all(&assumptions);
    engine.smt.push();
    engine.smt.assert(&assume);
    // A query the solver could not decide in time counts as "maybe": it blocks an
    // "equivalent" verdict, but only a satisfiable difference (or a confirmed witness)
    // makes one "different".
    // Answers found while computing the formulas are not asked again.
    let answer = |engine: &mut Engine, known: Option<Answer>, f: &Bool| {
        known.unwrap_or_else(|| engine.smt.check(std::slice::from_ref(f)))
    };
    let diff_answer = answer(engine, state.known.differs, &state.differs);
    let possible_answer = answer(engine, state.known.possible, &state.possible);
    let termination_answer = answer(engine, state.known.termination, &state.termination);
    engine.smt.pop();
    let has_diff = diff_answer != Answer::Unsat;
    let has_possible = possible_answer != Answer::Unsat;
    let has_termination = termination_answer != Answer::Unsat;
    let proved_diff = diff_answer == Answer::Sat || termination_answer == Answer::Sat;
    // Witnesses: the concrete search's (confirmed), then models of the difference
    // conditions; a concrete output difference makes the solver's output witnesses
    // unnecessary.
    let mut witnesses = Vec::new();
    let provable_equivalent = paired
        && state.covered
        && !has_diff
        && !has_possible
        && !has_termination
        && state.concrete.is_none()
        && !out_of_budget_for(state);
    if !provable_equivalent {
        witnesses.extend(state.concrete.clone());
    }
    let concrete_found = !witnesses.is_empty();
    let mut conditions: Vec<(Bool, &'static str)> = state.witnesses_models.clone();
    if has_possible {
        conditions.push((state.possible.clone(), "output"));
    }
    if concrete_found {
        conditions.retain(|(_, kind)| *kind != "output");
    }
    for (condition, kind) in conditions.iter().take(config.max_witnesses) {
        if let Some(w) = witness(engine, state, condition, &assume, kind, config) {
            witnesses.push(w);
        }
    }
    let confirmed = witnesses.iter().any(|w| w.confirmed);
    // Modulo undefined behaviour, a difference the solver proves under wrapping
    // semantics may be one only through it: a witness free of it must show it.
    let verdict = if provable_equivalent {
        Verdict::Equivalent
    } else if confirmed || (proved_diff && !config.assume_no_ub) {
        Verdict::Different
    } else {
        Verdict::Unknown
    };
    let mut notes = state.notes.clone();
    if config.assume_no_ub && proved_diff && !confirmed {
        notes.push(
            "the versions differ under wrapping semantics, but no witness free of undefined \
             behaviour was found (--assume no-ub)"
                .into(),
        );
    }
    let undefined = |w: &&Witness| w.labels.iter().any(|l| l != "NaN or signed zero");
    // The witnesses that show the difference: the confirmed ones, else all.
    let shown: Vec<&Witness> = if confirmed {
        witnesses.iter().filter(|w| w.confirmed).collect()
    } else {
        witnesses.iter().collect()
    };
    if verdict == Verdict::Different
        && !config.assume_no_ub
        && !shown.is_empty()
        && shown.iter().all(undefined)
    {
        notes.push(
            "the difference shown goes through undefined behaviour (see the witnesses' \
             labels); --assume no-ub answers modulo it"
                .into(),
        );
    }
    if verdict == Verdict::Unknown {
        if !state.covered {
            notes.push(format!(
                "summaries do not cover every input (unwinding bound {} or budget)",
                config.unwind
            ));
        }
        if has_possible {
            notes.push(if config.refine {
                "possible differences through unexplored callee paths remain after refinement"
                    .into()
            } else {
                "possible differences through unexplored callee paths (no refinement)".into()
            });
        }
        if diff_answer == Answer::Unknown || termination_answer == Answer::Unknown {
            notes.push(
                "the solver could not decide whether the versions differ within the budget".into(),
            );
        }
        if out_of_budget {
            notes.push("budget exhausted".into());
        }
    }
    let text = |f: &Bool| -> Option<String> {
        let too_big = ripple_symex::smt::tree_size_exceeds(f, 4000);
        if too_big {
            Some("(a condition too large to print; see the witnesses)".to_string())
        } else {
            let simplified = f.simplify();
            match simplified.as_bool() {
                Some(false) => None,
                _ => Some(render(&simplified.to_string(), &names)),
            }
        }
    };
    // Conditions that pin one input to a single value read best as that equation. Only
    // the text depends on it, so it gets a third of the report's time left.
    let report_end = engine.smt.phase_end();
    engine.smt.set_phase_work(engine.smt.phase_work_left() / 3);
    let views = input_views(engine, state.old);
    let mut pinned_values: Vec<(String, String, BV, BV)> = Vec::new();
    engine.smt.push();
    engine.smt.assert(&assume);
    let pinned = |engine: &mut Engine,
                  f: &Bool,
                  out: &mut Vec<(String, String, BV, BV)>|
     -> Option<String> {
        let (answer, model) = engine.smt.check_model(std::slice::from_ref(f));
        let model = model.filter(|_| answer == Answer::Sat)?;
        for (name, term, ty_text) in &views {
            let value = model.eval(term, true)?;
            if engine.smt.check(&[f.clone(), term.eq(&value).not()]) == Answer::Unsat {
                let bits = model_bits(&model, &value)?;
                let shown = ty_text(bits);
                out.push((name.clone(), shown.clone(), term.clone(), value));
                return Some(format!("{name} == {shown}"));
            }
        }
        None
    };
    let differs_pinned = if has_diff {
        pinned(engine, &state.differs, &mut pinned_values)
    } else {
        None
    };
    let termination_pinned = if has_termination {
        pinned(engine, &state.termination, &mut pinned_values)
    } else {
        None
    };
    let equal_pinned = if pinned_values.is_empty() || !state.covered || has_possible {
        None
    } else {
        let name = &pinned_values[0].0;
        let same_view = pinned_values.iter().all(|p| &p.0 == name);
        let outside: Vec<Bool> = pinned_values.iter().map(|p| p.2.eq(&p.3).not()).collect();
        let outside = and_all(&outside);
        let exact = same_view
            && engine.smt.check(&[outside.clone(), state.equal.not()]) == Answer::Unsat
            && engine.smt.check(&[state.equal.clone(), outside.not()]) == Answer::Unsat;
        exact.then(|| {
            pinned_values
                .iter()
                .map(|p| format!("{} != {}", p.0, p.1))
                .collect::<Vec<_>>()
                .join(" && ")
        })
    };
    engine.smt.pop();
    engine.smt.set_phase_end(report_end);
    PairReport {
        name,
        old: Some(state.old),
        new: Some(state.new),
        modified: state.status != FunctionStatus::Unchanged,
        verdict,
        differs_when: if has_diff {
            differs_pinned.or_else(|| text(&state.differs))
        } else {
            None
        },
        equal_when: equal_pinned.or_else(|| text(&state.equal)),
        non_termination_differs_when: if has_termination {
            termination_pinned.or_else(|| text(&state.termination))
        } else {
            None
        },
        full: state.covered && !has_possible,
        witnesses,
        notes,
        paths: state.paths,
        formulas: Some(PairFormulas {
            differs: state.differs.clone(),
            equal: state.equal.clone(),
            termination_differs: state.termination.clone(),
            assumptions: assume.clone(),
            params: inputs.params,
            mem: inputs.mem,
        }),
    }
}

type ValueText = Box<dyn Fn(u128) -> String>;

/// Scalar views of a pair's inputs: parameters and the scalar a pointer parameter
/// points to, with their C names.
fn input_views(engine: &Engine, func: FuncId) -> Vec<(String, BV, ValueText)> {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let mut views: Vec<(String, BV, ValueText)> = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        let local = &function.locals[*var];
        match program.types.get(local.ty) {
            Type::Pointer(pointee) if program.types.is_scalar(*pointee) => {
                let size = program.types.size_of(*pointee) as u32;
                let term = ripple_symex_load(&inputs.mem, &inputs.params[i], size);
                let ty = *pointee;
                let types = program.types.clone();
                let probe = Program {
                    types,
                    ..Program::default()
                };
                views.push((
                    format!("*{}", local.name),
                    term,
                    Box::new(move |bits| value_text(&probe, ty, bits)),
                ));
            }
            Type::Int(_) | Type::Float(_) => {
                let ty = local.ty;
                let types = program.types.clone();
                let probe = Program {
                    types,
                    ..Program::default()
                };
                views.push((
                    local.name.clone(),
                    inputs.params[i].clone(),
                    Box::new(move |bits| value_text(&probe, ty, bits)),
                ));
            }
            _ => {}
        }
    }
    views
}

fn ripple_symex_load(mem: &ripple_symex::z3::ast::Array, addr: &BV, bytes: u32) -> BV {
    (0..u64::from(bytes.max(1)))
        .map(|i| {
            mem.select(&addr.bvadd(BV::from_u64(i, 64)))
                .as_bv()
                .expect("byte")
        })
        .reduce(|low, high| high.concat(&low))
        .expect("one byte")
}

fn out_of_budget_for(state: &PairState) -> bool {
    state
        .notes
        .iter()
        .any(|n| n.contains("budget") || n.contains("limit"))
}

/// C names for the input symbols of a pair.
fn names_for(engine: &Engine, func: FuncId) -> Names {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let mut names = Names::default();
    for (i, var) in function.params.iter().enumerate() {
        let name = &function.locals[*var].name;
        names
            .symbols
            .insert(inputs.params[i].to_string(), name.clone());
        // The bytes of the object a pointer parameter points into, from it on.
        names.symbols.insert(
            engine.object_size(Side::Old, func, i).to_string(),
            format!("objsize({name})"),
        );
    }
    names.symbols.insert(inputs.mem.to_string(), "mem".into());
    names.symbols.insert(inputs.io.to_string(), "io".into());
    for (id, global) in program.globals.iter_enumerated() {
        if global.key.starts_with(".str") {
            continue;
        }
        let base = engine.layout.global(0, id);
        names.addresses.push((
            base,
            program.types.size_of(global.ty).max(1),
            global.name.clone(),
        ));
    }
    names
}

/// Finds a model of `condition`, reads the inputs, and replays them on both versions.
fn witness(
    engine: &mut Engine,
    state: &PairState,
    condition: &Bool,
    assume: &Bool,
    kind: &'static str,
    config: &SemdiffConfig,
) -> Option<Witness> {
    // Readable inputs first: pointers to separate objects; else pointers that may be
    // equal (aliasing) but not overlap partly; else any model.
    let (separate, aliased) = witness_niceness(engine, state.old);
    let mut model = None;
    for nice in [separate, aliased, Vec::new()] {
        let mut query = vec![assume.clone(), condition.clone()];
        let plain = nice.is_empty();
        query.extend(nice);
        let (answer, found) = engine.smt.check_model(&query);
        if answer == Answer::Sat || plain {
            model = found;
            break;
        }
    }
    let model = model?;
    let old_program = engine.programs[0];
    let new_program = engine.programs[1];
    let function = &old_program.functions[state.old];
    let inputs = engine.inputs(Side::Old, state.old);
    // Inputs: parameters, pointed-to bytes, globals. Pointers whose objects overlap in
    // the model (a difference that needs aliasing) share one object in the replay.
    let bits_of: Vec<u128> = (0..function.params.len())
        .map(|i| model_bits(&model, &inputs.params[i]).unwrap_or(0))
        .collect();
    // The object's size in the model when it is one a replay can give (a difference
    // that needs a small object shows in the replay too), else the usual length.
    let pointer_len = |i: usize| -> Option<u64> {
        let usual = replay_object_len(old_program, function, i);
        if usual == 0 {
            return None;
        }
        let size = engine.object_size(Side::Old, state.old, i);
        Some(match model_bits(&model, &size) {
            Some(n) if (1..=4096).contains(&n) => n as u64,
            _ => usual,
        })
    };
    let objects = alias_groups(
        &(0..function.params.len())
            .filter_map(|i| Some((i, bits_of[i] as u64, pointer_len(i)?)))
            .collect::<Vec<_>>(),
    );
    let mut shown = Vec::new();
    let mut args: Vec<ReplayArg> = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        let local = &function.locals[*var];
        let bits = bits_of[i];
        match old_program.types.get(local.ty) {
            Type::Pointer(pointee) => {
                let (owner, base, len) = objects
                    .iter()
                    .find(|o| o.members.contains(&i))
                    .map_or((i, bits as u64, 64), |o| (o.members[0], o.base, o.len));
                if owner != i {
                    let offset = (bits as u64).wrapping_sub(base);
                    let owner_name = &function.locals[function.params[owner]].name;
                    shown.push((
                        local.name.clone(),
                        if offset == 0 {
                            owner_name.clone()
                        } else {
                            format!("{owner_name} + {offset}")
                        },
                    ));
                    args.push(ReplayArg::Alias {
                        of: owner,
                        offset,
                        pointee: *pointee,
                    });
                    continue;
                }
                let bytes = engine
                    .memory_bytes(&model, &inputs.mem, base, len)
                    .unwrap_or_else(|| vec![0; len as usize]);
                shown.push((
                    format!("*{}", local.name),
                    scalar_text(old_program, *pointee, &bytes),
                ));
                args.push(ReplayArg::Pointer {
                    bytes,
                    pointee: *pointee,
                });
            }
            Type::Record(_) | Type::Array { .. } => {
                let bytes = ripple_symex::smt::model_bytes(&model, &inputs.params[i])
                    .unwrap_or_else(|| vec![0; old_program.types.size_of(local.ty) as usize]);
                shown.push((
                    local.name.clone(),
                    aggregate_text(old_program, local.ty, &bytes),
                ));
                args.push(ReplayArg::Aggregate {
                    bytes,
                    ty: local.ty,
                });
            }
            _ => {
                shown.push((local.name.clone(), value_text(old_program, local.ty, bits)));
                args.push(ReplayArg::Scalar { bits, ty: local.ty });
            }
        }
    }
    let mut globals = Vec::new();
    for (id, global) in old_program.globals.iter_enumerated() {
        if global.is_const || global.key.starts_with(".str") || global.init.is_none() {
            continue;
        }
        let size = old_program.types.size_of(global.ty);
        if size == 0 || size > 256 || globals.len() >= 32 {
            continue;
        }
        if let Some(bytes) = engine.global_bytes(Side::Old, id, &model, &inputs.mem) {
            if old_program.types.is_scalar(global.ty) {
                shown.push((
                    global.name.clone(),
                    scalar_text(old_program, global.ty, &bytes),
                ));
            }
            globals.push((global.key.clone(), bytes));
        }
    }
    let old = replay(old_program, state.old, &args, &globals, config);
    let new_name = &new_program.functions[state.new];
    let new = replay(new_program, state.new, &args, &globals, config);
    let _ = new_name;
    let mut witness = Witness::replayed(shown, old, new, kind, ReplayInput { args, globals });
    witness.decide([old_program, new_program], [state.old, state.new], config);
    Some(witness)
}

/// Whether two results ("returned X") differ only by NaN or the sign of zero.
fn nan_or_signed_zero(old: &str, new: &str) -> bool {
    let value = |r: &str| r.strip_prefix("returned ")?.parse::<f64>().ok();
    match (value(old), value(new)) {
        (Some(a), Some(b)) => (a.is_nan() || b.is_nan()) || (a == b && a.to_bits() != b.to_bits()),
        _ => false,
    }
}

/// An object shared by pointer arguments whose ranges overlap: the arguments (the one at
/// the lowest address first), the lowest address and the length.
struct AliasGroup {
    members: Vec<usize>,
    base: u64,
    len: u64,
}

/// Groups pointer arguments `(index, address, length)` whose ranges overlap.
fn alias_groups(pointers: &[(usize, u64, u64)]) -> Vec<AliasGroup> {
    let mut sorted = pointers.to_vec();
    sorted.sort_by_key(|&(i, addr, _)| (addr, i));
    let mut groups: Vec<AliasGroup> = Vec::new();
    for (i, addr, len) in sorted {
        match groups.last_mut() {
            Some(g) if addr < g.base.saturating_add(g.len) => {
                g.members.push(i);
                g.len = g.len.max(addr - g.base + len);
            }
            _ => groups.push(AliasGroup {
                members: vec![i],
                base: addr,
                len,
            }),
        }
    }
    // A shared object holds at most a few KiB; farther apart is not aliasing.
    groups.retain(|g| g.len <= 4096);
    groups
}

/// One argument of a witness: a scalar (its bits, of the parameter's type), a pointer
/// to a fresh object holding `bytes`, or a pointer into the object of an earlier
/// argument (aliasing).
#[derive(Clone, Debug)]
pub enum ReplayArg {
    Scalar {
        bits: u128,
        ty: ripple_ir::TypeId,
    },
    Pointer {
        bytes: Vec<u8>,
        pointee: ripple_ir::TypeId,
    },
    /// A record or array passed by value: its bytes.
    Aggregate {
        bytes: Vec<u8>,
        ty: ripple_ir::TypeId,
    },
    /// A pointer `offset` bytes into the object of argument `of` (a `Pointer`).
    Alias {
        of: usize,
        offset: u64,
        pointee: ripple_ir::TypeId,
    },
}

fn value_text(program: &Program, ty: ripple_ir::TypeId, bits: u128) -> String {
    match program.types.get(ty) {
        Type::Int(kind) => {
            let width = kind.bits();
            if kind.is_signed() && width < 128 && bits >> (width - 1) & 1 == 1 {
                format!("{}", (bits as i128) - (1i128 << width))
            } else {
                bits.to_string()
            }
        }
        Type::Float(ripple_ir::FloatKind::Float) => format!("{:?}", f32::from_bits(bits as u32)),
        Type::Float(_) => format!("{:?}", f64::from_bits(bits as u64)),
        _ => format!("{bits:#x}"),
    }
}

/// A record or array value as C initialiser text, `{.x = 1, .z = -2}` (fields by name,
/// recursively; bit-fields and padding skipped).
fn aggregate_text(program: &Program, ty: ripple_ir::TypeId, bytes: &[u8]) -> String {
    match program.types.get(ty) {
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            let fields: Vec<String> = record
                .fields
                .iter()
                .filter(|f| f.bit_field.is_none())
                .filter_map(|f| {
                    let start = f.offset as usize;
                    let end = start + program.types.size_of(f.ty) as usize;
                    let part = bytes.get(start..end)?;
                    Some(format!(
                        ".{} = {}",
                        f.name,
                        aggregate_text(program, f.ty, part)
                    ))
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Type::Array { elem, len: Some(n) } => {
            let size = program.types.size_of(*elem) as usize;
            let items: Vec<String> = (0..*n as usize)
                .filter_map(|i| bytes.get(i * size..(i + 1) * size))
                .map(|part| aggregate_text(program, *elem, part))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        _ => scalar_text(program, ty, bytes),
    }
}

fn scalar_text(program: &Program, ty: ripple_ir::TypeId, bytes: &[u8]) -> String {
    if program.types.is_scalar(ty) {
        let size = program.types.size_of(ty) as usize;
        let mut bits = 0u128;
        for (i, b) in bytes.iter().take(size.min(16)).enumerate() {
            bits |= u128::from(*b) << (8 * i);
        }
        value_text(program, ty, bits)
    } else {
        format!("{:?}", &bytes[..bytes.len().min(16)])
    }
}

fn replay(
    program: &Program,
    func: FuncId,
    args: &[ReplayArg],
    globals: &[(String, Vec<u8>)],
    config: &SemdiffConfig,
) -> Observed {
    let run = RunConfig {
        max_steps: config.replay_steps,
        ..RunConfig::default()
    };
    let mut interpreter = match Interpreter::new(program, &run) {
        Ok(i) => i,
        Err(t) => {
            return Observed {
                result: format!("not run: {t:?}"),
                stdout: String::new(),
                state: Vec::new(),
                limited: true,
                undefined: None,
                through: Vec::new(),
                steps: 0,
            }
        }
    };
    for (key, bytes) in globals {
        if let Some((id, _)) = program
            .globals
            .iter_enumerated()
            .find(|(_, g)| &g.key == key)
        {
            let _ = interpreter.write_global(id, bytes);
        }
    }
    let function = &program.functions[func];
    let mut values = Vec::new();
    let mut pointers = Vec::new();
    // Objects first, so that an alias may name a later argument's object.
    let objects: Vec<Option<Value>> = args
        .iter()
        .map(|arg| match arg {
            ReplayArg::Pointer { bytes, .. } => {
                Some(interpreter.alloc_bytes(bytes).unwrap_or(Value::Int(0)))
            }
            _ => None,
        })
        .collect();
    for (i, arg) in args.iter().enumerate() {
        let ty = function.params.get(i).map(|v| function.locals[*v].ty);
        match arg {
            ReplayArg::Scalar { bits, ty: arg_ty } => {
                let ty = ty.unwrap_or(*arg_ty);
                values.push(match program.types.get(ty) {
                    Type::Float(ripple_ir::FloatKind::Float) => {
                        Value::F32(f32::from_bits(*bits as u32))
                    }
                    Type::Float(_) => Value::F64(f64::from_bits(*bits as u64)),
                    _ => Value::Int(*bits),
                });
            }
            ReplayArg::Aggregate { bytes, .. } => {
                values.push(Value::Bytes(bytes.clone().into_boxed_slice()));
            }
            ReplayArg::Pointer { bytes, pointee } => {
                let pointer = objects[i].clone().unwrap_or(Value::Int(0));
                pointers.push((i, pointer.clone(), bytes.len() as u64, *pointee));
                values.push(pointer);
            }
            ReplayArg::Alias {
                of,
                offset,
                pointee,
            } => {
                let (Some(Some(Value::Int(base))), Some(ReplayArg::Pointer { bytes, .. })) =
                    (objects.get(*of), args.get(*of))
                else {
                    values.push(Value::Int(0));
                    continue;
                };
                let pointer = Value::Int(base + u128::from(*offset));
                let len = (bytes.len() as u64).saturating_sub(*offset);
                pointers.push((i, pointer.clone(), len, *pointee));
                values.push(pointer);
            }
        }
    }
    let outcome = interpreter.call(func, &values, &mut ripple_interp::NoObserver);
    let result = match &outcome.result {
        CallResult::Returned(None) => "returned".to_string(),
        CallResult::Returned(Some(v)) => {
            let ty = function.return_type(&program.types);
            match v {
                Value::Int(bits) => format!("returned {}", value_text(program, ty, *bits)),
                Value::F32(f) => format!("returned {f:?}"),
                Value::F64(f) => format!("returned {f:?}"),
                Value::Bytes(b) => format!("returned {b:?}"),
            }
        }
        CallResult::Stopped(ripple_interp::Termination::StepLimit) => {
            format!("no termination within {} steps", config.replay_steps)
        }
        CallResult::Stopped(ripple_interp::Termination::Exit(code)) => format!("exit {code}"),
        CallResult::Stopped(ripple_interp::Termination::Trap { message, .. }) => {
            format!("trap: {message}")
        }
        CallResult::Stopped(other) => format!("stopped: {other:?}"),
    };
    let mut state = Vec::new();
    if matches!(outcome.result, CallResult::Returned(_)) {
        for (i, pointer, len, pointee) in &pointers {
            if let Some(bytes) = interpreter.read_memory(pointer, *len) {
                let name = function
                    .params
                    .get(*i)
                    .map_or("?".into(), |v| function.locals[*v].name.clone());
                state.push((format!("*{name}"), scalar_text(program, *pointee, &bytes)));
                state.push((format!("{name}[..]"), format!("{bytes:?}")));
            }
        }
        for (key, _) in globals {
            if let Some((id, g)) = program
                .globals
                .iter_enumerated()
                .find(|(_, g)| &g.key == key)
            {
                if let Some(bytes) = interpreter.read_global(id) {
                    state.push((g.name.clone(), scalar_text(program, g.ty, &bytes)));
                }
            }
        }
    }
    // Exits and traps are behaviours of the program; a step limit or an unsupported
    // construct is a limit of the replay.
    let limited = matches!(
        outcome.result,
        CallResult::Stopped(
            ripple_interp::Termination::StepLimit | ripple_interp::Termination::Unsupported { .. }
        )
    );
    let undefined = match &outcome.result {
        CallResult::Stopped(ripple_interp::Termination::Trap { message, .. })
            if [
                "out-of-bounds",
                "freed or out-of-scope",
                "invalid pointer",
                // Compiled code may fold a division it knows traps, or drop a dead one.
                "division by zero",
                "signed division overflow",
            ]
            .iter()
            .any(|k| message.contains(k)) =>
        {
            Some(message.clone())
        }
        _ => None,
    };
    // gcc folds a shift by a constant count out of range (to 0) even at -O0, where the
    // interpreter, like the machine, masks the count: only compiled code can tell.
    let undefined = undefined.or_else(|| {
        interpreter
            .undefined()
            .contains(&ripple_interp::Undefined::ShiftCount)
            .then(|| ripple_interp::Undefined::ShiftCount.name().to_string())
    });
    let mut through: Vec<&'static str> = interpreter.undefined().iter().map(|u| u.name()).collect();
    if let CallResult::Stopped(ripple_interp::Termination::Trap { message, .. }) = &outcome.result {
        for kind in ["division by zero", "signed division overflow"] {
            if message.contains(kind) {
                through.push(kind);
            }
        }
    }
    Observed {
        result,
        stdout: String::from_utf8_lossy(&outcome.stdout).into_owned(),
        state,
        limited,
        undefined,
        through,
        steps: interpreter.steps(),
    }
}
