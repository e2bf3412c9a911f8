//! Interactions among changes: SCHID, semantic change-interaction detection (002
//! chapter 7, section 7.2, algorithm FINDINTERACTIONS of Fig. 21).
//!
//! Two change sets `Ci` and `Cj` interact on an input when the effect of `Ci` on `P'`
//! differs from its effect on `P'\Cj`, or the other way round (Definition 27), where the
//! effect of a change on a program is the difference between the augmented execution
//! histories of the program with and without it (Definition 18). The variants `P'`,
//! `P'\Ci`, `P'\Cj` and `P'\{Ci,Cj}` are built from source ([`ChangeSet::variant_files`])
//! and lowered by the caller; their statements are named by shared keys ([`keys`]);
//! each test runs on each variant it needs once, observed by [`history::Tracer`].
//!
//! The three checks of FINDINTERACTIONS come first, in order:
//! 1. the static forward slices (over each variant's dependence graph) of a change of
//!    `Ci` and a change of `Cj` meet in none of the four variants: the pair is pruned for
//!    every input, and its pair-only variant is never run;
//! 2. no run of the four variants runs a change of `Ci`, or none runs one of `Cj` (a set
//!    that runs in no variant has no effect there; a change with no statement in a
//!    variant counts as run when its function is);
//! 3. the dynamic forward slices of the two sets meet in none of the four runs.
//!
//! Check 3 is not sound on its own: a dynamic slice misses what a change does by *not*
//! writing (a branch it turns away from an assignment), which the histories show. Since
//! the histories of the four runs exist by then, they are always compared: a pair the
//! dynamic slices would have pruned but whose effects differ is reported as interacting
//! (and counted as missed by dynamic slicing). Interactions are of Type I when both sets
//! have an effect on `P'`, of Type II otherwise (one set keeps the other from having
//! one, 002 section 7.2.5); the baselines of the study (change-pair coverage and
//! dynamic-slice intersection on `P'`) are reported beside them.

pub mod groups;
pub mod history;
pub mod keys;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use ripple_dataflow::slice::{traverse, SliceDirection};
use ripple_dataflow::{Sdg, SdgConfig};
use ripple_interp::{run_program_observed, RunConfig, Termination};
use ripple_ir::Program;

use crate::effects::changes::VariantFile;
use crate::effects::ChangeSet;

pub use groups::{group, Group, Grouping, LineRange};
pub use history::{Entry, History, Tracer};
pub use keys::{KeyTable, StmtKey, VariantNodes};

/// At most this many change sets: each is a bit of a 64-bit set.
pub const MAX_SETS: usize = 64;

/// A variant: which sets are left out of `P'`.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Indices of the sets left out (none for `P'`).
    pub left_out: Vec<usize>,
    /// The change ids applied.
    pub applied: Vec<usize>,
    pub files: Vec<VariantFile>,
    pub program: Program,
    pub nodes: VariantNodes,
    /// Per set: the sets whose static forward slices meet its own here (built when
    /// check 1 first needs it: a pair's own variant only when its slices met in none of
    /// the others).
    pub static_meets: Vec<u64>,
}

/// The static meets of `v`, built on first use.
fn meets_of(v: &mut Variant, sets: usize) -> &[u64] {
    if v.static_meets.is_empty() {
        v.static_meets = static_meets(&v.program, &v.nodes, sets);
    }
    &v.static_meets
}

/// Limits of one analysis.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Entries of one run's history; a longer run leaves its tests undecided.
    pub max_history: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_history: 4_000_000,
        }
    }
}

/// What one test says of one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TestVerdict {
    /// A run could not be compared (it reached a limit, or ran something the
    /// interpreter cannot).
    Undecided(String),
    /// Check 2: one of the sets runs in none of the four variants.
    NotRun,
    /// Check 3: the dynamic slices do not meet, and the effects agree.
    SlicesApart,
    /// The slices meet, and each set has the same effect with and without the other.
    NoInteraction,
    Interacts(Interaction),
}

/// An observed interaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    /// Type I: both sets have an effect on `P'`.
    pub type_one: bool,
    /// Whether the effect of the first set, of the second, changes without the other.
    pub altered: [bool; 2],
    /// The statement (key) of the earliest occurrence where the effects differ.
    pub at: u32,
    /// Whether the dynamic slices met (check 3 would have kept the pair).
    pub slices_met: bool,
}

/// One test of one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairTest {
    pub verdict: TestVerdict,
    /// The baselines on `P'`: the run covers both sets; their dynamic slices meet.
    pub covered_together: bool,
    pub slices_meet: bool,
}

/// The result for one pair of sets.
#[derive(Clone, Debug)]
pub struct PairResult {
    pub sets: (usize, usize),
    /// Check 1 passed: the static slices meet in at least one of the four variants.
    pub static_meet: bool,
    /// Both sets can be left out of a variant (else nothing is run).
    pub separable: bool,
    /// Per test (empty when pruned by check 1 or not separable).
    pub tests: Vec<PairTest>,
}

/// The overall verdict for a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairVerdict {
    NotSeparable,
    /// Check 1: pruned for every input.
    StaticSlicesApart,
    Interacts,
    /// Check 2 on every test.
    NeverRun,
    /// Checks 2-3 on every test, with check 3 on at least one.
    DynamicSlicesApart,
    /// Every decided test shows no interaction.
    NoInteraction,
    /// No test decided.
    Undecided,
}

impl PairResult {
    pub fn verdict(&self) -> PairVerdict {
        if !self.separable {
            return PairVerdict::NotSeparable;
        }
        if !self.static_meet {
            return PairVerdict::StaticSlicesApart;
        }
        let count =
            |f: &dyn Fn(&TestVerdict) -> bool| self.tests.iter().filter(|t| f(&t.verdict)).count();
        let decided = self.tests.len() - count(&|v| matches!(v, TestVerdict::Undecided(_)));
        if count(&|v| matches!(v, TestVerdict::Interacts(_))) > 0 {
            PairVerdict::Interacts
        } else if decided == 0 {
            PairVerdict::Undecided
        } else if count(&|v| matches!(v, TestVerdict::NotRun)) == decided {
            PairVerdict::NeverRun
        } else if count(&|v| matches!(v, TestVerdict::NotRun | TestVerdict::SlicesApart)) == decided
        {
            PairVerdict::DynamicSlicesApart
        } else {
            PairVerdict::NoInteraction
        }
    }

    /// Tests (indices) with an interaction of Type I, and of Type II.
    pub fn interacting(&self) -> (Vec<usize>, Vec<usize>) {
        let mut out = (Vec::new(), Vec::new());
        for (t, pt) in self.tests.iter().enumerate() {
            if let TestVerdict::Interacts(i) = &pt.verdict {
                if i.type_one {
                    out.0.push(t);
                } else {
                    out.1.push(t);
                }
            }
        }
        out
    }
}

/// The whole analysis.
#[derive(Clone, Debug)]
pub struct Interactions {
    pub groups: Vec<Group>,
    pub keys: KeyTable,
    pub variants: Vec<Variant>,
    pub pairs: Vec<PairResult>,
    /// Runs made (variant, test).
    pub runs: usize,
}

/// Lowers the source files of a variant to a program (the caller knows the
/// preprocessor and frontend settings); an error names what could not be read.
pub type Lower<'a> = dyn Fn(&[VariantFile]) -> Result<Program, String> + Sync + 'a;

/// Builds a variant leaving out the sets `left_out`.
#[allow(clippy::too_many_arguments)]
fn build_variant(
    old: &Program,
    new: &Program,
    set: &ChangeSet,
    groups: &[Group],
    group_of: &FxHashMap<usize, usize>,
    left_out: Vec<usize>,
    lower: &Lower<'_>,
    table: &mut KeyTable,
    id: u32,
) -> Result<Variant, String> {
    let applied: Vec<usize> = set
        .changes
        .iter()
        .map(|c| c.id)
        .filter(|c| !left_out.iter().any(|&g| groups[g].changes.contains(c)))
        .collect();
    let files = set.variant_files(&applied);
    let program = lower(&files)?;
    let nodes = keys::variant_nodes(
        old,
        new,
        set,
        &program,
        &files,
        id,
        &applied,
        &|c| group_of.get(&c).copied(),
        table,
    );
    Ok(Variant {
        left_out,
        applied,
        files,
        program,
        nodes,
        static_meets: Vec::new(),
    })
}

/// Per set: the sets whose static forward slices meet its own in `program`.
fn static_meets(program: &Program, nodes: &VariantNodes, sets: usize) -> Vec<u64> {
    let sdg = Sdg::build(program, &SdgConfig::default());
    let mut reached: FxHashMap<(u32, u32), u64> = FxHashMap::default();
    for g in 0..sets {
        let bit = 1u64 << g;
        let mut criteria = Vec::new();
        for (f, groups) in nodes.groups.iter().enumerate() {
            for (n, &mask) in groups.iter().enumerate() {
                if mask & bit != 0 {
                    let id = (ripple_ir::FuncId::from(f), ripple_ir::NodeId::from(n));
                    criteria.extend(sdg.node_vertex(id.0, id.1));
                }
            }
        }
        if criteria.is_empty() {
            continue;
        }
        let slice = traverse(&sdg, &criteria, SliceDirection::Forward, &|_, _, _| true);
        for v in slice.vertices() {
            let f = sdg.function_of[v.index()];
            if let Some(n) = sdg.node_of(program, v) {
                *reached
                    .entry((f.index() as u32, n.index() as u32))
                    .or_insert(0) |= bit;
            }
        }
    }
    let mut meets = vec![0u64; sets];
    for &mask in reached.values() {
        if mask.count_ones() > 1 {
            for (g, m) in meets.iter_mut().enumerate() {
                if mask & (1 << g) != 0 {
                    *m |= mask & !(1 << g);
                }
            }
        }
    }
    meets
}

/// FINDINTERACTIONS over every pair of `groups`, on every test.
pub fn find_interactions(
    old: &Program,
    new: &Program,
    set: &ChangeSet,
    groups: Vec<Group>,
    lower: &Lower<'_>,
    tests: &[RunConfig],
    limits: &Limits,
) -> Result<Interactions, String> {
    if groups.len() > MAX_SETS {
        return Err(format!(
            "{} change sets; at most {MAX_SETS} can be compared (group them)",
            groups.len()
        ));
    }
    let group_of: FxHashMap<usize, usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, grp)| grp.changes.iter().map(move |&c| (c, g)))
        .collect();
    let separable: Vec<bool> = groups
        .iter()
        .map(|g| {
            g.changes
                .iter()
                .all(|&c| set.changes.iter().any(|ch| ch.id == c && ch.separable()))
        })
        .collect();
    let mut table = KeyTable::new();
    let mut variants: Vec<Variant> = Vec::new();
    let mut index: FxHashMap<Vec<usize>, usize> = FxHashMap::default();
    let mut need = |left_out: Vec<usize>,
                    variants: &mut Vec<Variant>,
                    table: &mut KeyTable|
     -> Result<usize, String> {
        if let Some(&i) = index.get(&left_out) {
            return Ok(i);
        }
        let id = variants.len() as u32;
        let v = build_variant(
            old,
            new,
            set,
            &groups,
            &group_of,
            left_out.clone(),
            lower,
            table,
            id,
        )?;
        variants.push(v);
        index.insert(left_out, variants.len() - 1);
        Ok(variants.len() - 1)
    };
    let n = groups.len();
    let full = need(Vec::new(), &mut variants, &mut table)?;
    let mut singles = vec![usize::MAX; n];
    for g in 0..n {
        if separable[g] {
            singles[g] = need(vec![g], &mut variants, &mut table)?;
        }
    }
    // Check 1, then the variant of each pair that passes it.
    let mut pairs = Vec::new();
    let mut pair_variant: Vec<Option<usize>> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let ok = separable[i] && separable[j];
            let meet_in = |v: &mut Variant| meets_of(v, n)[i] & (1 << j) != 0;
            let mut meets = ok
                && [full, singles[i], singles[j]]
                    .into_iter()
                    .any(|k| meet_in(&mut variants[k]));
            let mut both = None;
            if ok {
                let b = need(vec![i, j], &mut variants, &mut table)?;
                meets = meets || meet_in(&mut variants[b]);
                both = meets.then_some(b);
            }
            pairs.push(PairResult {
                sets: (i, j),
                static_meet: meets,
                separable: ok,
                tests: Vec::new(),
            });
            pair_variant.push(both);
        }
    }
    // The runs each test needs: P', the singles of sets in a kept pair, the pairs' own.
    let mut to_run = vec![false; variants.len()];
    for (p, both) in pairs.iter().zip(&pair_variant) {
        if let Some(b) = both {
            to_run[full] = true;
            to_run[singles[p.sets.0]] = true;
            to_run[singles[p.sets.1]] = true;
            to_run[*b] = true;
        }
    }
    let run_list: Vec<usize> = (0..variants.len()).filter(|&v| to_run[v]).collect();
    // Per test: the runs of P' and of each P'\Ci first; each pair's own variant runs
    // when the pair is compared, and its history is dropped then, so that at most n + 2
    // histories are held per test.
    let shared: Vec<usize> = run_list
        .iter()
        .copied()
        .filter(|v| variants[*v].left_out.len() < 2)
        .collect();
    let per_test: Vec<Vec<PairTest>> = tests
        .par_iter()
        .map(|config| {
            let histories: FxHashMap<usize, Result<History, String>> = shared
                .iter()
                .map(|&v| (v, run_variant(&variants[v], config, n, limits)))
                .collect();
            pairs
                .iter()
                .zip(&pair_variant)
                .filter_map(|(p, both)| {
                    let both = (*both)?;
                    let (i, j) = p.sets;
                    let own = run_variant(&variants[both], config, n, limits);
                    let runs = [
                        &histories[&full],
                        &histories[&singles[i]],
                        &histories[&singles[j]],
                        &own,
                    ];
                    Some(pair_test(i, j, runs))
                })
                .collect()
        })
        .collect();
    let mut k = 0;
    for (p, both) in pairs.iter_mut().zip(&pair_variant) {
        if both.is_some() {
            p.tests = per_test.iter().map(|t| t[k].clone()).collect();
            k += 1;
        }
    }
    Ok(Interactions {
        groups,
        keys: table,
        runs: run_list.len() * tests.len(),
        variants,
        pairs,
    })
}

fn run_variant(
    variant: &Variant,
    config: &RunConfig,
    sets: usize,
    limits: &Limits,
) -> Result<History, String> {
    let mut tracer = Tracer::new(&variant.program, &variant.nodes, sets, limits.max_history);
    let outcome = run_program_observed(&variant.program, config, &mut tracer);
    let how = match &outcome.termination {
        Termination::Exit(code) => format!("exit {code}"),
        Termination::Abort => "abort".to_string(),
        Termination::Trap { message, .. } => format!("trap: {message}"),
        Termination::StepLimit => return Err("a run reached the step limit".into()),
        Termination::Unsupported { what } => {
            return Err(format!("the interpreter cannot run it ({what})"));
        }
    };
    if tracer.history.truncated {
        return Err("a run's history is longer than the limit".into());
    }
    // The end of the run is how it ended and which files it left written or removed
    // (what was written is in the history, at the statements that wrote it).
    let mut end = how.into_bytes();
    for (path, _) in &outcome.written {
        end.extend(path.to_string_lossy().as_bytes());
        end.push(0);
    }
    for path in &outcome.removed {
        end.extend(b"removed ");
        end.extend(path.to_string_lossy().as_bytes());
        end.push(0);
    }
    let mut history = tracer.history;
    history.finish(&end);
    Ok(history)
}

/// One element of an effect: an occurrence whose state differs, with both states (or
/// none where one run lacks it), and where it happened.
type Diff = (u32, u32, Option<u64>, Option<u64>, u32);

/// The effect of a change: the occurrences where `with` and `without` differ
/// (Definition 18).
fn effect(with: &History, without: &History) -> Vec<Diff> {
    let (a, b) = (&with.entries, &without.entries);
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() || j < b.len() {
        let ka = a.get(i).map(|e| (e.key, e.occ));
        let kb = b.get(j).map(|e| (e.key, e.occ));
        match (ka, kb) {
            (Some(x), Some(y)) if x == y => {
                if a[i].digest != b[j].digest {
                    out.push((x.0, x.1, Some(a[i].digest), Some(b[j].digest), a[i].step));
                }
                i += 1;
                j += 1;
            }
            (Some(x), y) if y.is_none_or(|y| x < y) => {
                out.push((x.0, x.1, Some(a[i].digest), None, a[i].step));
                i += 1;
            }
            (_, Some(y)) => {
                out.push((y.0, y.1, None, Some(b[j].digest), b[j].step));
                j += 1;
            }
            _ => break,
        }
    }
    out
}

/// The earliest occurrence (by step) in one effect and not the other; `None` when they
/// are the same effect.
fn first_difference(x: &[Diff], y: &[Diff]) -> Option<(u32, u32)> {
    let same = |d: &Diff, e: &Diff| (d.0, d.1, d.2, d.3) == (e.0, e.1, e.2, e.3);
    if x.len() == y.len() && x.iter().zip(y).all(|(d, e)| same(d, e)) {
        return None;
    }
    let mut best: Option<(u32, u32)> = None;
    let mut consider = |d: &Diff, other: &[Diff]| {
        let found = other
            .binary_search_by_key(&(d.0, d.1), |e| (e.0, e.1))
            .is_ok_and(|k| same(d, &other[k]));
        if !found && best.is_none_or(|(s, _)| d.4 < s) {
            best = Some((d.4, d.0));
        }
    };
    for d in x {
        consider(d, y);
    }
    for d in y {
        consider(d, x);
    }
    best
}

/// Checks 2 and 3 and the comparison of effects for sets `i`, `j` on the runs of `P'`,
/// `P'\Ci`, `P'\Cj`, `P'\{Ci,Cj}`.
fn pair_test(i: usize, j: usize, runs: [&Result<History, String>; 4]) -> PairTest {
    let (bi, bj) = (1u64 << i, 1u64 << j);
    let p_new = runs[0].as_ref().ok();
    let covered_together = p_new.is_some_and(|h| h.covered & bi != 0 && h.covered & bj != 0);
    let slices_meet = p_new.is_some_and(|h| h.meets[i] & bj != 0);
    let verdict = match runs {
        [Ok(h0), Ok(hi), Ok(hj), Ok(hij)] => {
            let all = [h0, hi, hj, hij];
            let covered = all.iter().fold(0, |m, h| m | h.covered);
            let met = all.iter().any(|h| h.meets[i] & bj != 0);
            let (ei_new, ei_without_j) = (effect(h0, hi), effect(hj, hij));
            let (ej_new, ej_without_i) = (effect(h0, hj), effect(hi, hij));
            let di = first_difference(&ei_new, &ei_without_j);
            let dj = first_difference(&ej_new, &ej_without_i);
            // The histories decide; checks 2 and 3 only say why there is nothing.
            match (di, dj) {
                (None, None) if covered & bi == 0 || covered & bj == 0 => TestVerdict::NotRun,
                (None, None) if met => TestVerdict::NoInteraction,
                (None, None) => TestVerdict::SlicesApart,
                _ => {
                    let at = [di, dj].into_iter().flatten().min().map_or(0, |(_, k)| k);
                    TestVerdict::Interacts(Interaction {
                        type_one: !ei_new.is_empty() && !ej_new.is_empty(),
                        altered: [di.is_some(), dj.is_some()],
                        at,
                        slices_met: met,
                    })
                }
            }
        }
        _ => TestVerdict::Undecided(
            runs.iter()
                .find_map(|r| r.as_ref().err().cloned())
                .unwrap_or_default(),
        ),
    };
    PairTest {
        verdict,
        covered_together,
        slices_meet,
    }
}
