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
//! Modules: this one runs DIFFSUMMARIZE and the refinement loop; `procdiff` is
//! CONSTPROCDIFFSUM; `report` turns a pair's summary into its verdict and texts;
//! `witness` finds, replays and labels witnesses (`native` runs them compiled);
//! `concrete` searches for differences on boundary and random inputs first.
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
//! Loops: before bounded unwinding, the k-th loops of the two versions are checked for
//! equality by induction on their iterations (001 section 7 treats loops as
//! tail-recursive functions; `ripple_symex` engine, `loops`); when every loop pair so
//! proved makes the pair equivalent, that is its verdict, with a note; otherwise the
//! bounded summaries decide as before.
//!
//! Time: one deadline bounds the whole run (exploration, refinement, the final
//! difference queries and the witness search); every solver query gets the query budget or
//! the time left, whichever is less. The exploration and refinement of all pairs end at
//! [`EXPLORATION_SHARE`] of the run budget, each of several modified pairs getting an
//! equal part of what is left among those waiting; the rest is shared among the reported pairs,
//! each getting an equal part of the time left when its turn comes. A query cut by the
//! deadline answers unknown, so a verdict reached after it is `unknown` unless it was
//! proved (or a witness confirmed) before. Before any solver work, both versions of each
//! reported pair run in the interpreter on boundary and random inputs (`concrete`,
//! at most [`CONCRETE_SHARE`] of the budget): a difference seen there is a confirmed
//! witness at once, whatever the solver manages later (each modified pair at most
//! [`OWN_SEARCH_SHARE`] of the budget shared among them, their callers [`CONCRETE_SHARE`]);
//! past the budget, pairs that are the same code with equal callees are still settled.
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
pub(crate) mod layouts;
pub mod native;
mod pointees;
mod procdiff;
mod report;
pub mod run_dir;
mod undefined;
mod witness;

pub use pointees::{ObjectRef, Pointees, ReplayLink, ReplayObject};
use procdiff::*;
use report::*;
pub use run_dir::RunDir;
use witness::*;
pub use witness::{Observed, ReplayArg, ReplayInput, Unconfirmed, Witness};

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
use rustc_hash::{FxHashMap, FxHashSet};

use crate::unread::UnreadCode;

/// The note of a pair proved equivalent by an earlier run (the summary cache).
pub const KNOWN_EQUIVALENT_NOTE: &str = "proved equivalent by an earlier run of the same code, \
     with the same functions it may call, globals and types (the summary cache)";

/// The note of a pair taken as equivalent by the statement proofs.
pub const STATEMENT_PROOF_NOTE: &str = "every changed statement proved to do what the old one \
     did, none changing how often a statement runs, and what it calls equivalent (the \
     statement proofs of `ripple impact`)";

/// The default limit of one solver query.
pub const DEFAULT_QUERY_BUDGET: Duration = Duration::from_millis(1000);
/// The default limit of a whole run, in seconds of work (about as many seconds of time
/// on the 2-core machine the work units are calibrated on).
pub const DEFAULT_RUN_BUDGET: Duration = Duration::from_millis(3500);
/// The default wall-clock cut-off, as a multiple of the work budget: the budget's
/// seconds of work are calibrated on one machine and take up to twice as long on
/// another, so a cut-off at the budget itself would stop most long runs by the clock
/// (a result that depends on the machine) rather than by their work.
pub const CUTOFF_FACTOR: u32 = 4;
/// The part of the run budget for exploring and refining the summaries; the rest is for
/// the reports (difference queries, witnesses, readable conditions).
pub const EXPLORATION_SHARE: f64 = 0.6;
/// The part of the run budget for the concrete search before the analysis (it usually
/// takes a few milliseconds).
pub const CONCRETE_SHARE: f64 = 0.1;
/// The part of the run budget the modified pairs' own concrete searches share.
pub const OWN_SEARCH_SHARE: f64 = 0.4;

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
    /// Report only this function (by name, or by key, `unit.c:name`, for one static
    /// copy of several); the analysis still covers its callees.
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
    /// The directory each version's runs (old, new) start in, where the files they open
    /// by a relative path are: a git revision's own tree, not the working tree's.
    /// The default: the current directory.
    pub run_dirs: [RunDir; 2],
    /// Answer modulo undefined behaviour: a witness that goes through it (signed
    /// overflow, division by zero, ...) confirms nothing.
    pub assume_no_ub: bool,
    /// Do not free the solvers' memory at the end (a process that exits right after).
    pub abandon_solver_memory: bool,
    /// Changed pairs proved equivalent by an earlier run with the same code in both
    /// versions (`crate::fingerprint`: the same functions they may call, globals and
    /// types; the summary cache): they run as before, as pairs of the same code do.
    pub known_equivalent: FxHashSet<(FuncId, FuncId)>,
    /// Settle as equivalent the changed pairs left unknown that the statement proofs
    /// alone show to compute what they did (`crate::sem_equiv::statement_proved_pairs`),
    /// when what they call is equivalent too.
    pub statement_proofs: bool,
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
            run_dirs: Default::default(),
            assume_no_ub: false,
            abandon_solver_memory: false,
            known_equivalent: FxHashSet::default(),
            statement_proofs: true,
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
    /// Where the code that could not be read, which the pair runs, is (`file:line`):
    /// then no verdict is given (see [`crate::unread`]).
    pub unread: Option<String>,
    /// Paths summarised (old, new).
    pub paths: (usize, usize),
    /// The pair differs only in the line numbers it reports (`__LINE__`, as an assert
    /// that moved): explored after the other pairs.
    pub lines_only: bool,
    /// Whether the verdict rests on constructs the analysis does not model (inline
    /// assembly, code that could not be read, volatile objects): no other proof about
    /// the pair (the impact's statement equivalences) settles it either.
    pub unmodelled: bool,
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

impl SemdiffReport {
    /// The pairs proved equivalent as a whole, as SEM-DCIA's SUMMARYEQUIV for every
    /// output of each: the modified functions at level 0, their callers (the run's
    /// other pairs) at level 1.
    pub fn proved_equivalent(&self) -> crate::sem_equiv::FunctionEquivalences {
        let mut found = crate::sem_equiv::FunctionEquivalences::default();
        for level in 0..2 {
            let mut outcome = crate::sem_equiv::LevelOutcome {
                level,
                ..Default::default()
            };
            for pair in &self.functions {
                let (Some(o), Some(n)) = (pair.old, pair.new) else {
                    continue;
                };
                if pair.modified != (level == 0) {
                    continue;
                }
                outcome.tried += 1;
                if pair.verdict == Verdict::Equivalent {
                    found.proved.push((o, n));
                    outcome.proved += 1;
                } else {
                    found.not_proved += 1;
                }
            }
            if outcome.tried > 0 {
                found.levels.push(outcome);
            }
        }
        found.proved.sort_unstable();
        found.stopped_by_clock = self.stopped_by_clock;
        found
    }
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
    // Pairs whose text changed but whose code did not: they behave as unchanged ones,
    // equal when what they call and read is.
    let same_code: FxHashSet<(FuncId, FuncId)> = matching
        .functions
        .iter()
        .filter(|m| m.status != FunctionStatus::Unchanged && m.same_code())
        .filter_map(|m| Some((m.old?, m.new?)))
        .collect();
    // Pairs whose code is the same but for the offsets of record members, matched by
    // name: with the members matched by name, they run as before too (`layouts`).
    let layout_only: FxHashSet<(FuncId, FuncId)> = matching
        .functions
        .iter()
        .filter(|m| ripple_versions::only_record_layouts_differ(old, new, matching, m))
        .filter_map(|m| Some((m.old?, m.new?)))
        .collect();
    // The records laid out differently in the versions that each pair's code names.
    let changed_records = layouts::changed_records(old, new);
    // Pairs that read bytes as such a record: matched by name, its members are not
    // what either version reads there (`layouts::reinterprets_record`).
    let reinterpreting: FxHashSet<(FuncId, FuncId)> = pairs
        .iter()
        .filter(|(o, n, _)| {
            layouts::reinterprets_record(old, &old.functions[*o], &changed_records)
                || layouts::reinterprets_record(new, &new.functions[*n], &changed_records)
        })
        .map(|(o, n, _)| (*o, *n))
        .collect();
    let layout_only: FxHashSet<(FuncId, FuncId)> =
        layout_only.difference(&reinterpreting).copied().collect();
    let records_used = [
        layouts::records_used(old, &changed_records),
        layouts::records_used(new, &changed_records),
    ];
    // Pairs every changed statement of which is proved to do what its partner did (and
    // none of which changes how often a statement runs): the same computation, when
    // their callees' are (settled after the summaries, below). Not through records laid
    // out otherwise (the proofs compare bytes at offsets).
    let statement_proved: FxHashSet<(FuncId, FuncId)> = if config.statement_proofs {
        crate::sem_equiv::statement_proved_pairs(old, new, matching)
            .into_iter()
            .filter(|&(o, n)| {
                !same_code.contains(&(o, n))
                    && records_used[0][o.index()].is_empty()
                    && records_used[1][n.index()].is_empty()
            })
            .collect()
    } else {
        FxHashSet::default()
    };
    let same_code: FxHashSet<(FuncId, FuncId)> = same_code
        .union(&layout_only)
        .chain(&config.known_equivalent)
        .copied()
        .collect();
    let runs_as_before = |o: FuncId, n: FuncId, status: FunctionStatus| {
        !reinterpreting.contains(&(o, n))
            && (status == FunctionStatus::Unchanged || same_code.contains(&(o, n)))
    };
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
    // Constants whose contents changed are two objects: each version's facts are about
    // its own bytes. The static locals of functions count too (md4c 3420ce7: a Unicode
    // table local to its function gained entries; on one address the two versions'
    // facts contradicted each other, and "equivalent" held vacuously).
    let all_globals = ripple_versions::match_all_globals(old, new);
    let mut apart: [Vec<ripple_ir::GlobalId>; 2] = Default::default();
    for g in all_globals.iter().chain(&matching.globals) {
        if let (ripple_versions::GlobalStatus::Modified, Some(o), Some(n)) =
            (g.status, g.old, g.new)
        {
            // String literals already have an address per contents.
            let literal = old.globals[o].key.starts_with(".str");
            if (old.globals[o].is_const || new.globals[n].is_const) && !literal {
                apart[0].push(o);
                apart[1].push(n);
            }
        }
    }
    for side in &mut apart {
        side.sort_unstable();
        side.dedup();
    }
    // Statics the versions' units name differently (`old.c` and `new.c`), matched by
    // name: one object, as in one program run twice.
    let same: Vec<(ripple_ir::GlobalId, ripple_ir::GlobalId)> = all_globals
        .into_iter()
        .filter_map(|g| Some((g.old?, g.new?)))
        .filter(|&(o, n)| old.globals[o].key != new.globals[n].key)
        .collect();
    let mut engine = Engine::new(
        [old, new],
        &plain,
        [&apart[0], &apart[1]],
        &same,
        symex_config,
    );
    let graphs = [CallGraph::build(old), CallGraph::build(new)];
    // An indirect call is one unknown function of its target in both versions, which
    // holds only where the target behaves the same in both: the functions that may not
    // (changed, without an unchanged counterpart, or calling such a function, through
    // pointers too), among those the call graph says a site may call, are the targets
    // that site treats as its own version's.
    for (side, program, graph) in [(Side::Old, old, &graphs[0]), (Side::New, new, &graphs[1])] {
        let unchanged: FxHashSet<FuncId> = pairs
            .iter()
            .filter(|p| runs_as_before(p.0, p.1, p.2))
            .map(|p| if side == Side::Old { p.0 } else { p.1 })
            .collect();
        let mut differs = vec![false; program.functions.len()];
        let mut stack: Vec<FuncId> = Vec::new();
        for (f, function) in program.functions.iter_enumerated() {
            if function.is_defined() && !unchanged.contains(&f) {
                differs[f.index()] = true;
                stack.push(f);
            }
        }
        while let Some(f) = stack.pop() {
            for &c in &graph.callers[f.index()] {
                if !differs[c.index()] {
                    differs[c.index()] = true;
                    stack.push(c);
                }
            }
        }
        for site in &graph.sites {
            if let ripple_graph::CallTarget::Indirect(targets) = &site.target {
                let targets: Vec<FuncId> = targets
                    .iter()
                    .copied()
                    .filter(|f| differs[f.index()])
                    .collect();
                if !targets.is_empty() {
                    engine.set_differing_targets(side, (site.caller, site.node), &targets);
                }
            }
        }
    }
    // Pairs that run code that could not be read get no verdict (see `crate::unread`);
    // their callers run it too, so no other pair waits on them.
    let unread = [UnreadCode::of(old), UnreadCode::of(new)];
    let unread_at: Vec<Option<String>> = pairs
        .iter()
        .map(|(o, n, _)| {
            let at = unread[0].function(*o).or(unread[1].function(*n))?;
            Some(at.to_string())
        })
        .collect();
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
    // A pair that reads a global whose initial contents changed (directly or through
    // another global's initializer) is not equal for being unchanged: a `const` table's
    // contents are facts of its input memory, and `main` starts from the initializers.
    let changed_globals = changed_globals_read(old, new, matching, &pairs);
    // The marked pairs and those reached from them along `edges` (callers or callees).
    let reach = |mut marked: Vec<bool>, edges: &dyn Fn(usize) -> Vec<usize>| {
        let mut stack: Vec<usize> = (0..marked.len()).filter(|i| marked[*i]).collect();
        while let Some(i) = stack.pop() {
            for c in edges(i) {
                if !marked[c] {
                    marked[c] = true;
                    stack.push(c);
                }
            }
        }
        marked
    };
    // Algorithm 1, lines 3-8: modified pairs and their transitive callers.
    let mut in_work = reach(
        pairs
            .iter()
            .zip(&changed_globals)
            .map(|((_, _, s), read)| *s != FunctionStatus::Unchanged || read.is_some())
            .collect(),
        &callers_of,
    );
    // Reporting one function needs its summary and its callees', not its callers'.
    if let Some(only) = &config.function {
        let reported = pairs
            .iter()
            .map(|(o, _, _)| selects(&old.functions[*o], only))
            .collect();
        let needed = reach(reported, &callees_of);
        for (work, needed) in in_work.iter_mut().zip(&needed) {
            *work &= *needed;
        }
    }
    // The changed records each pair's code, or a callee's, names: the solver's answer on
    // such a pair compares bytes, not members (see `layouts`).
    let uses_changed_record: Vec<Vec<String>> = {
        let own: Vec<std::collections::BTreeSet<String>> = pairs
            .iter()
            .map(|(o, n, _)| {
                let mut used = records_used[0][o.index()].clone();
                used.extend(records_used[1][n.index()].iter().cloned());
                used
            })
            .collect();
        let marked = reach(own.iter().map(|u| !u.is_empty()).collect(), &callers_of);
        // Named for the note: the pair's own, else those of what it calls.
        let all: Vec<String> = changed_records.iter().cloned().collect();
        (0..pairs.len())
            .map(|i| match (marked[i], own[i].is_empty()) {
                (false, _) => Vec::new(),
                (true, false) => own[i].iter().cloned().collect(),
                (true, true) => all.clone(),
            })
            .collect()
    };
    // Pairs equal as the same code (but for member offsets) with equal callees.
    let mut by_code = vec![false; pairs.len()];
    // The pairs that may read what `changed_globals` names, through their callees too.
    let reaches_changed_globals = reach(
        changed_globals.iter().map(Option::is_some).collect(),
        &callers_of,
    );
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
                .is_none_or(|only| selects(&old.functions[states[*i].old], only))
        })
        .collect();
    // Pairs whose only change is the line numbers they report (an assert that moved)
    // differ only where an assert fails: they come after the other pairs (searching with
    // the callers' share), so that the budget goes to the real changes first (libyaml
    // 96a49a1: 38 such pairs beside one).
    let moved_lines: FxHashSet<(FuncId, FuncId)> = matching
        .functions
        .iter()
        .filter(|m| {
            m.status != FunctionStatus::Unchanged
                && ripple_versions::only_line_numbers_differ(old, new, matching, m)
        })
        .filter_map(|m| Some((m.old?, m.new?)))
        .collect();
    let lines_only: Vec<bool> = pairs
        .iter()
        .map(|&(o, n, _)| moved_lines.contains(&(o, n)))
        .collect();
    // Each modified pair searches on its own, at most PAIR_SEARCH_STEPS and an equal
    // part of what OWN_SEARCH_SHARE of the budget buys (a commit changing a hundred
    // functions would otherwise search past the whole budget); their callers (hundreds
    // in a large program) share what CONCRETE_SHARE of the budget buys, modified pairs
    // first.
    let steps_of = |share: f64| {
        (engine.smt.work_budget() as f64 * share * concrete::STEPS_PER_WORK_UNIT) as u64
    };
    let callers_share = steps_of(CONCRETE_SHARE);
    let mut callers_steps = callers_share;
    let mut own_pool = steps_of(OWN_SEARCH_SHARE);
    let mut own_used = 0;
    // Each version is laid out once for every pair's search, which costs like steps.
    let mut layouts = None;
    let mut search_order = reported.clone();
    let shares: Vec<bool> = (0..states.len())
        .map(|i| states[i].status == FunctionStatus::Unchanged || lines_only[i])
        .collect();
    search_order.sort_by_key(|&i| (shares[i], states[i].status == FunctionStatus::Unchanged));
    let searched_alone = |i: usize| {
        engine.pair_index(Side::Old, states[i].old) == Some(i)
            && unread_at[i].is_none()
            && !shares[i]
            && !same_code.contains(&(states[i].old, states[i].new))
    };
    let mut alone_left = search_order.iter().filter(|&&i| searched_alone(i)).count();
    for i in search_order {
        if engine.pair_index(Side::Old, states[i].old) != Some(i) || unread_at[i].is_some() {
            continue;
        }
        if states[i].status != FunctionStatus::Unchanged
            && same_code.contains(&(states[i].old, states[i].new))
        {
            continue; // nothing of its own to search for
        }
        let own_share = concrete::PAIR_SEARCH_STEPS.min(own_pool / alone_left.max(1) as u64);
        let mut own_steps = own_share;
        let steps = if shares[i] {
            &mut callers_steps
        } else {
            &mut own_steps
        };
        let laid = layouts.get_or_insert_with(|| concrete::layouts(old, new, config));
        own_used += std::mem::take(&mut laid.cost);
        states[i].concrete = concrete::search(
            laid,
            states[i].old,
            states[i].new,
            config,
            &engine.smt,
            steps,
        );
        if !shares[i] {
            own_used += own_share - own_steps;
            own_pool -= own_share - own_steps;
            alone_left = alone_left.saturating_sub(1);
        }
    }
    // The versions laid out are not needed past the search.
    drop(layouts);
    // The search is work like the solver's: it comes out of the same budget, so that the
    // budget, not the wall clock, ends a run that searched long.
    let searched = own_used + (callers_share - callers_steps);
    engine
        .smt
        .charge((searched as f64 / concrete::STEPS_PER_WORK_UNIT) as u64);
    let exploration = engine.smt.work_budget() as f64 * EXPLORATION_SHARE;
    engine.smt.set_phase_work(exploration as u64);
    // Lines 17-31, callees first (post-order over the old call graph). The modified
    // pairs, and what they call that is to be analysed, come before the callers that
    // only wait on them: in a large program the callers' summaries would otherwise take
    // the budget of a changed function that comes late in the order (lz4 642f6b8f:
    // `LZ4F_readLE32` "budget exhausted", proved alone with 1% of it).
    let needed = reach(
        (0..pairs.len())
            .map(|i| in_work[i] && pairs[i].2 != FunctionStatus::Unchanged)
            .collect(),
        &callees_of,
    );
    let order = post_order(&pairs, &callees_of);
    let rank: FxHashMap<usize, (bool, bool, usize)> = order
        .iter()
        .enumerate()
        .map(|(r, i)| (*i, (lines_only[*i], !needed[*i], r)))
        .collect();
    let mut work: std::collections::BTreeSet<((bool, bool, usize), usize)> = (0..pairs.len())
        .filter(|i| in_work[*i])
        .map(|i| (rank[&i], i))
        .collect();
    let mut out_of_budget = false;
    while let Some((r, i)) = work.iter().next().copied() {
        work.remove(&(r, i));
        if unread_at[i].is_some() {
            continue;
        }
        // Past the budget, the pairs still waiting (for a first analysis or a
        // re-analysis after a callee changed) are settled only where that needs no
        // solver: the same code with equal callees (a commit that respells every
        // definition); the others cannot be proved equivalent.
        let out_of_time = engine.smt.out_of_time();
        out_of_budget |= out_of_time;
        // A confirmed witness settles a pair that no caller waits on: its difference
        // summary would only cost budget (unless asked for).
        if !config.full_summary
            && states[i].concrete.is_some()
            && callers_of(i).iter().all(|c| !in_work[*c])
        {
            // Once, though a callee's new summary may bring the pair back.
            let note = "settled by a confirmed witness; the difference summary was not \
                        computed (--full-summary computes it)";
            if !states[i].notes.iter().any(|n| n == note) {
                states[i].notes.push(note.into());
            }
            continue;
        }
        let unchanged = runs_as_before(states[i].old, states[i].new, states[i].status);
        // The same code calling itself is equivalent when everything else it calls is
        // (by induction on the depth of the recursion).
        let callees_equal = callees_of(i).iter().all(|c| {
            (*c == i && unchanged)
                || states[*c].equal.as_bool() == Some(true)
                    && (uses_changed_record[*c].is_empty() || by_code[*c])
        });
        let before = (states[i].equal.clone(), states[i].differs.clone());
        by_code[i] = unchanged && callees_equal && changed_globals[i].is_none();
        if by_code[i] {
            states[i].equal = Bool::from_bool(true);
            states[i].covered = true;
            let note = if config
                .known_equivalent
                .contains(&(states[i].old, states[i].new))
            {
                KNOWN_EQUIVALENT_NOTE
            } else if layout_only.contains(&(states[i].old, states[i].new)) {
                "the same code but for the offsets of the record members it accesses: \
                 equivalent with the members matched by name"
            } else {
                "the same code after preprocessing and lowering: only its text changed"
            };
            if states[i].status != FunctionStatus::Unchanged
                && !states[i].notes.iter().any(|n| n == note)
            {
                states[i].notes.push(note.into());
            }
        } else if out_of_time {
            let note = "budget exhausted before the analysis finished";
            if !states[i].notes.iter().any(|n| n == note) {
                states[i].notes.push(note.into());
            }
            continue;
        } else if states[i].analysed >= 4 {
            states[i]
                .notes
                .push("re-analysis limit reached (recursion)".into());
            continue;
        } else {
            // Of several modified pairs, each gets an equal part of the exploration left
            // among those still waiting, so that one hard pair does not leave its
            // siblings nothing (mujs: `a * 2` to `a << 1` proved alone, "budget
            // exhausted" beside a loop); what they call and their callers share what is
            // left, as a single modified pair has it all.
            let phase_end = engine.smt.phase_end();
            let modified = |k: usize| states[k].status != FunctionStatus::Unchanged;
            if modified(i) {
                let waiting = 1 + work.iter().filter(|(_, k)| modified(*k)).count();
                if waiting > 1 {
                    let share = engine.smt.phase_work_left() / waiting as u64;
                    engine.smt.set_phase_work(share);
                }
            }
            let state = states[i].clone();
            let is_root = callers_of(i).is_empty();
            states[i] = analyse_pair(&mut engine, state, i, config, is_root);
            engine.smt.set_phase_end(phase_end);
        }
        // Only callers depend on whether the summary changed: a root needs no query, and
        // a first analysis changed the initial (constant) summary unless it is the same
        // term.
        let first = states[i].analysed <= 1 && !unchanged;
        let changed = if callers_of(i).is_empty() {
            false
        } else if first || out_of_time {
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
    // Reports: each gets an equal share of the time left when its turn comes, those
    // whose only change is line numbers last; they are listed in the order of pairs.
    let mut turns: Vec<usize> = (0..reported.len()).collect();
    turns.sort_by_key(|&k| lines_only[reported[k]]);
    let mut made: Vec<(usize, PairReport)> = Vec::with_capacity(reported.len());
    for (turn, k) in turns.into_iter().enumerate() {
        let i = reported[k];
        let state = &states[i];
        let share = engine.smt.work_left() / u64::try_from(reported.len() - turn).unwrap_or(1);
        engine.smt.set_phase_work(share);
        made.push((
            k,
            match &unread_at[i] {
                Some(place) => unread_pair(old, state, place),
                None => {
                    let mut report = report_pair(&mut engine, state, i, config, out_of_budget);
                    let changed = changed_globals[i].as_ref();
                    initial_contents(
                        &mut report,
                        changed,
                        reaches_changed_globals[i],
                        &engine,
                        matching,
                    );
                    report
                }
            },
        ));
    }
    made.sort_by_key(|(k, _)| *k);
    for (k, report) in &mut made {
        let i = reported[*k];
        report.lines_only = lines_only[i];
        if !uses_changed_record[i].is_empty() && !by_code[i] {
            layout_verdict(report, &uses_changed_record[i]);
        }
    }
    // Pairs the statement proofs settle, where the summaries left them undecided: in
    // post-order, so that a pair whose callees are settled so is too.
    let position: FxHashMap<usize, usize> = made
        .iter()
        .enumerate()
        .map(|(pos, (k, _))| (reported[*k], pos))
        .collect();
    let mut settled = vec![false; pairs.len()];
    for &i in &order {
        let Some(&pos) = position.get(&i) else {
            continue;
        };
        let report = &mut made[pos].1;
        if report.verdict == Verdict::Equivalent {
            settled[i] = true;
            continue;
        }
        let callees_equal = callees_of(i)
            .iter()
            .all(|&c| c == i || settled[c] || states[c].equal.as_bool() == Some(true));
        if report.verdict == Verdict::Unknown
            && statement_proved.contains(&(states[i].old, states[i].new))
            && callees_equal
            && changed_globals[i].is_none()
            && unread_at[i].is_none()
            && !report.unmodelled
        {
            report.verdict = Verdict::Equivalent;
            report.equal_when = Some("true".into());
            report.differs_when = None;
            report.non_termination_differs_when = None;
            report.full = false;
            report.witnesses.clear();
            report.notes = vec![STATEMENT_PROOF_NOTE.into()];
            settled[i] = true;
        }
    }
    // Volatile objects are ordinary memory to the summaries, where each access is
    // observable and two reads may differ: no pair that may access one is equivalent,
    // unless it runs its code as before (the same tokens, callees equal).
    let reaches_volatile = |program: &Program, graph: &CallGraph, f: FuncId| {
        if program.volatile.is_empty() {
            return false;
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![f];
        while let Some(g) = stack.pop() {
            if program.volatile.binary_search(&g).is_ok() {
                return true;
            }
            for &c in &graph.callees[g.index()] {
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
        false
    };
    for (k, report) in &mut made {
        let i = reported[*k];
        let (o, n) = (states[i].old, states[i].new);
        let same_tokens = states[i].status == FunctionStatus::Unchanged
            || old.functions[o].fingerprint == new.functions[n].fingerprint;
        if report.verdict == Verdict::Equivalent
            && !(by_code[i] && same_tokens)
            && (reaches_volatile(old, &graphs[0], o) || reaches_volatile(new, &graphs[1], n))
        {
            report.verdict = Verdict::Unknown;
            report.unmodelled = true;
            report.notes.push(
                "it may read or write volatile objects (by its text, or a callee's), whose \
                 accesses are observable and whose reads may differ each time; the analysis \
                 reads them as ordinary memory, so it proves nothing here"
                    .into(),
            );
        }
    }
    let main = made
        .iter()
        .position(|(k, _)| old.functions[states[reported[*k]].old].name == "main");
    let mut functions: Vec<PairReport> = made.into_iter().map(|(_, r)| r).collect();
    engine.smt.set_phase_end(None);
    qualify_static_copies(old, &mut functions);
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

/// A verdict of the solver on a pair whose code uses records laid out differently in
/// the versions: it compares what each version does with the same bytes, which are
/// other members in each, so neither "equivalent" nor "different" (nor a run on those
/// bytes) says anything of the program, whose callers set the members by name.
fn layout_verdict(report: &mut PairReport, records: &[String]) {
    if report.verdict == Verdict::Unknown && report.witnesses.iter().all(|w| !w.confirmed) {
        return;
    }
    report.verdict = Verdict::Unknown;
    for w in &mut report.witnesses {
        if w.confirmed {
            w.confirmed = false;
            w.unconfirmed = Some(Unconfirmed::LayoutChanged);
        }
    }
    // No witness settles it now.
    report
        .notes
        .retain(|n| !n.starts_with("settled by a confirmed witness"));
    let names: Vec<String> = records.to_vec();
    report.notes.push(format!(
        "{} laid out differently in the two versions: the analysis and its runs give both \
         versions the same bytes, which are other members in each, so they decide nothing \
         (no verdict)",
        names.join(", ")
    ));
}

/// Static functions of one name in several units (a `static inline` function of a
/// header each unit including it has its own copy of) are named with their unit, so
/// that the report tells them apart: `hi_malloc (net.c)`.
fn qualify_static_copies(old: &Program, functions: &mut [PairReport]) {
    let mut counts: FxHashMap<String, usize> = FxHashMap::default();
    for f in functions.iter() {
        *counts.entry(f.name.clone()).or_default() += 1;
    }
    for f in functions.iter_mut() {
        if counts[&f.name] < 2 {
            continue;
        }
        let Some(func) = f.old.map(|o| &old.functions[o]) else {
            continue;
        };
        if let ripple_ir::Linkage::Internal(unit) = func.linkage {
            f.name = format!("{} ({})", f.name, old.file_path(unit));
        }
    }
}

/// Whether `name` (a function's name, or its key: `unit.c:name` for a static one)
/// selects `func`.
fn selects(func: &ripple_ir::Function, name: &str) -> bool {
    func.name == name || func.key == name
}

/// Per pair, a global with changed initial contents (its name and change, and whether
/// it is `const`, when the engine's input memory holds each version's contents) that either
/// version of its function names, directly or through a global whose initializer points
/// into one.
fn changed_globals_read(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    pairs: &[(FuncId, FuncId, FunctionStatus)],
) -> Vec<Option<(String, bool)>> {
    let mut marks: [Vec<Option<(String, bool)>>; 2] =
        [vec![None; old.globals.len()], vec![None; new.globals.len()]];
    for g in &matching.globals {
        if g.status == ripple_versions::GlobalStatus::Unchanged {
            continue;
        }
        for (side, id, program) in [(0, g.old, old), (1, g.new, new)] {
            if let Some(id) = id {
                let global = &program.globals[id];
                let what = match g.status {
                    ripple_versions::GlobalStatus::Added => "which only the new version has",
                    ripple_versions::GlobalStatus::Removed => "which only the old version has",
                    _ => "whose initial contents changed",
                };
                marks[side][id.index()] =
                    Some((format!("`{}`, {what}", global.name), global.is_const));
            }
        }
    }
    crate::unread::spread_through_initializers(old, &mut marks[0]);
    crate::unread::spread_through_initializers(new, &mut marks[1]);
    pairs
        .iter()
        .map(|(o, n, _)| {
            crate::unread::first_named(&old.functions[*o], &marks[0])
                .or_else(|| crate::unread::first_named(&new.functions[*n], &marks[1]))
        })
        .collect()
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

/// Of the phase's work left, the most the old version's exploration of a pair may
/// spend, and the new one's of what is left then: the comparison of the summaries keeps
/// the rest (a fifth at least). An exploration that took it all left the paths it had
/// found uncompared: jsmn's `jsmn_parse`, whose versions differ on the empty input
/// (the first path explored), was "unknown" with no difference found.
const OLD_EXPLORATION_SHARE: f64 = 0.4;
const NEW_EXPLORATION_SHARE: f64 = 2.0 / 3.0;

/// Summarises both versions of a pair at the unwinding bound `unwind`, each within its
/// share of the phase (see [`OLD_EXPLORATION_SHARE`]).
fn explore_both(engine: &mut Engine, old: FuncId, new: FuncId, unwind: u32) {
    let phase_end = engine.smt.phase_end();
    for (side, func, share) in [
        (Side::Old, old, OLD_EXPLORATION_SHARE),
        (Side::New, new, NEW_EXPLORATION_SHARE),
    ] {
        let left = engine.smt.phase_work_left();
        engine.smt.set_phase_work((left as f64 * share) as u64);
        engine.explore_fresh(side, func, unwind);
        engine.smt.set_phase_end(phase_end);
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
    let mut assumptions = input_assumptions(engine, Side::Old, state.old);
    assumptions.extend(input_assumptions(engine, Side::New, state.new));
    let assume = and_all(&assumptions);
    // Loops proved equal by induction first: when that makes the pair equivalent, no
    // bounded unwinding is needed.
    let mut by_induction = loop_induction(engine, &state, index, unwind, &assume);
    if let Some(proved) = engine
        .loops_proved(index)
        .filter(|_| by_induction.is_some())
    {
        state.notes.push(format!(
            "{proved} loop pair(s) proved equal by induction on the iterations; each is one \
             function shared by both versions in the summaries"
        ));
    } else {
        explore_both(engine, state.old, state.new, unwind);
    }
    let mut rounds = 0;
    loop {
        let (result, refine_sites) = match by_induction.take() {
            Some(result) => (result, Vec::new()),
            None => const_proc_diff_sum(engine, &state, &assume),
        };
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
                explore_both(engine, state.old, state.new, unwind);
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
            explore_both(engine, state.old, state.new, unwind);
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
            state.notes.push(format!(
                "the exploration's share of the budget ({:.0}%) ran out",
                EXPLORATION_SHARE * 100.0
            ));
        }
        return state;
    }
}

/// A pair whose summaries the unwinding bound cut: its loops proved equal by induction
/// (`ripple_symex` engine, `loops`) and summarised again with each proved loop as one
/// function shared by both versions. The new result is kept only when it proves the
/// pair equivalent (covered, no difference, not even a possible one); otherwise the
/// bounded summaries are put back.
fn loop_induction(
    engine: &mut Engine,
    state: &PairState,
    index: usize,
    unwind: u32,
    assume: &Bool,
) -> Option<procdiff::DiffResult> {
    if engine.prove_loops(state.old, state.new, index) == 0 {
        return None;
    }
    let saved = [
        engine.take_summary(Side::Old, state.old),
        engine.take_summary(Side::New, state.new),
    ];
    engine.use_loop_abstractions = true;
    explore_both(engine, state.old, state.new, unwind);
    engine.use_loop_abstractions = false;
    let (result, _) = const_proc_diff_sum(engine, state, assume);
    let none = |a: Option<Answer>| a == Some(Answer::Unsat);
    if result.covered
        && none(result.known.differs)
        && none(result.known.possible)
        && none(result.known.termination)
    {
        return Some(result);
    }
    let [old, new] = saved;
    engine.put_summary(Side::Old, state.old, old);
    engine.put_summary(Side::New, state.new, new);
    None
}
