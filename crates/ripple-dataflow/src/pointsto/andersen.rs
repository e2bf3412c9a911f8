//! The inclusion-based (Andersen) solver of the points-to analysis: offline variable
//! substitution, then a worklist over the constraint graph in topological waves, with
//! difference propagation and cycle collapsing.
//!
//! Copy constraints are the edges of a graph over pointer variables (pvars); loads,
//! stores, pointer shifts and block copies are *complex* constraints attached to the
//! pvar whose points-to set drives them, and add copy edges as cells reach that set.
//! Points-to sets are bit sets over densely numbered cells. Only the cells newly added
//! to a pvar's set (its *delta*) flow along its edges and into its complex constraints.
//!
//! **Offline variable substitution.** Before solving, pvars that have the same set in
//! every solution are merged ([`Andersen::substitute`]): hash-based value numbering
//! (HVN) of Hardekopf and Lin, "Exploiting Pointer and Location Equivalence to Optimize
//! Pointer Analysis" (SAS 2007), section 3, on the graph of copy, load and shift
//! inputs. A load is numbered by the number of its pointer and a shift by that and its
//! offset (equal pointers read and shift to the same cells), so the temporaries of
//! repeated expressions such as `p->next` become one pvar. Pvars that may get inputs
//! the constraints do not show yet (cells, the parameters of functions whose address
//! is taken, the results of calls through pointers) or that lie on a cycle of inputs
//! are numbered apart. On sqlite3.c this substitutes 59,621 pvars (Lua 5.4.9: 16,070).
//!
//! **Waves.** The worklist is ordered by a topological rank of the copy graph (Pereira
//! and Berlin, "Wave Propagation and Deep Propagation for Pointer Analysis", CGO 2009):
//! a pvar is processed after the pvars that flow into it, so it propagates what they
//! gave it at once instead of piece by piece. A pvar that gains cells from one ranked
//! after it waits for the next wave. The ranks come from a sweep (one Tarjan search
//! over all pvars, which also collapses every cycle) at the start of each round of
//! solving (a round follows each binding of new targets of calls through pointers),
//! and again between waves if no search has run for a sixteenth of the graph's size
//! in steps; pvars created since rank last. On Lua 5.4.9 the waves take 35% less
//! time than a FIFO worklist; on sqlite3.c about the same.
//!
//! **Cycles.** Following Hardekopf and Lin, "The Ant and the Grasshopper: Fast and
//! Accurate Pointer Analysis for Millions of Lines of Code" (PLDI 2007), section 4.1
//! (*lazy cycle detection*), propagating along an edge `v -> w` that finds
//! `pts(v) == pts(w)` (checked once per edge) suggests a cycle through it. The
//! suggestions are gathered, and at most once per sixteenth of the graph's size in
//! worklist steps and edge propagations one Tarjan search from all of them together
//! collapses the cycles through them (periodic searches as in Pearce, Kelly and
//! Hankin, "Online Cycle Detection and Difference Propagation for Pointer Analysis",
//! SCAM 2003). Every component is collapsed into one representative pvar (union-find;
//! the smallest pvar, so the result does not depend on hash order). The representative
//! takes the union of the sets, edges and complex constraints of its members; before
//! that, each member catches up, pushing the cells of the union it has not propagated
//! along its own edges and constraints, so no constraint sees a cell twice.
//!
//! **Linear numbers of edges.** A read of every cell of an object (a load at an
//! unknown offset, a record copy) goes through one *contents* pvar per object that
//! every cell of the object flows into; a block copy (`memcpy`) gathers its source
//! objects in one fresh pvar that flows into each destination object; and a load goes
//! through one *reader* pvar per set of cells it reads from (a delta of eight cells or
//! more), which gathers what those cells hold and has an edge to the destination of
//! every load that reads the same set (deltas flow unchanged to many pvars: on
//! sqlite3.c this makes 1.7 million copy edges instead of 17.7 million). None of these
//! changes a set.
//!
//! The rest makes each step cheaper: a delta flows as the list of its nonzero words,
//! is emptied in place (each pvar keeps its buffer) and has its lowest and highest
//! words kept, so a step scans only those between; the size of every set is kept, so
//! the equal-set check of an edge that has just propagated compares two numbers; a
//! delta flows unchanged to many pvars that shift or load it alike, so the targets of
//! each set of cells shifted by an offset are remembered, as are its objects and the
//! representatives of its cells (until the next merge), and the gathered sources of
//! its small loads, as long as none of them has propagated new cells since (a version
//! per pvar); a pvar skips a delta equal to the last one it received; and in a merge,
//! a successor that has caught up with one member has the whole union, so the other
//! members skip it.
//!
//! Field sensitivity is kept: only copy edges, which move a set unchanged, are
//! searched. Pointer shifts (`p + 8`, a field access) are complex constraints, not
//! edges, so a cycle through a shift (a positive-weight cycle in the sense of Pearce,
//! Kelly and Hankin, "Efficient Field-Sensitive Pointer Analysis of C", TOPLAS 2007) is
//! never merged into a plain copy.
//!
//! **What the result depends on.** Substitution and collapsing merge only pvars whose
//! sets are equal at the fixpoint (edges are never removed, so a cycle found stays a
//! cycle), and any order of the steps reaches a fixpoint of all constraints, so the
//! result satisfies every constraint whatever the order. The one order dependence is
//! the bounded field sensitivity of objects with many cells (`Generator::shifted`):
//! past 32 cells at offsets where its type has no member, an object sends further such
//! offsets to its unknown-offset cell, so which of them get cells of their own depends
//! on when they are first reached (the offsets of its type's members always do). The order is
//! fixed by the input (ranks from Tarjan searches over pvars in increasing order, ties
//! broken by pvar number, no hash order), so the same input gives the same result.
//! [`Andersen::violations`] checks a result against every constraint (the tests do,
//! on the conformance corpus and generated programs; `sdg_bench` with
//! `POINTSTO_VERIFY`: none violated on Lua 5.4.9 and sqlite3.c).

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Constraint, Generator, PVar};

/// Counters of one run of the Andersen solver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AndersenStats {
    /// Whether the solver reached its fixpoint within the work limit.
    pub converged: bool,
    /// Worklist steps, words of bit sets unioned, and cells applied to complex
    /// constraints: roughly proportional to the time taken.
    pub work: u64,
    /// Pvars merged into another one (members of collapsed cycles, less one each).
    pub collapsed: u64,
    /// Searches for cycles (lazy cycle detection triggers).
    pub cycle_searches: u64,
    /// Pvars merged into another one before solving (offline variable substitution).
    pub substituted: u64,
    /// The constraints the result does not satisfy, when checked
    /// ([`super::PointsToConfig::verify_fixpoint`]): zero for a fixpoint.
    pub violations: Option<u64>,
}

/// Grows a word vector to hold bit `bit`.
fn set_bit(words: &mut Vec<u64>, bit: u32) -> bool {
    let (w, b) = ((bit / 64) as usize, bit % 64);
    if words.len() <= w {
        words.resize(w + 1, 0);
    }
    let old = words[w];
    words[w] |= 1 << b;
    old != words[w]
}

fn bits(words: &[u64]) -> impl Iterator<Item = u32> + '_ {
    words.iter().enumerate().flat_map(|(i, &word)| {
        let mut w = word;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros();
            w &= w - 1;
            Some(i as u32 * 64 + b)
        })
    })
}

/// The bits of a bit set given by its nonzero words, in increasing order.
fn sparse_bit_list(words: &[(u32, u64)]) -> Vec<u32> {
    let mut out = Vec::with_capacity(words.iter().map(|(_, w)| w.count_ones() as usize).sum());
    for &(i, word) in words {
        let mut w = word;
        while w != 0 {
            out.push(i * 64 + w.trailing_zeros());
            w &= w - 1;
        }
    }
    out
}

/// The complex constraints driven by one pvar's set.
#[derive(Clone, Default)]
struct Watch {
    /// Pointer shifts `d = v + by`, sorted (by offset, then destination).
    shifts: Vec<(Option<i64>, PVar)>,
    /// Loads `d = *v`: the destinations.
    loads: Vec<PVar>,
    /// Stores `*v = s`: the sources.
    stores: Vec<PVar>,
    /// Block copies from what `v` points to: the pvars reading every cell of each
    /// object `v` points to (one per block copy, gathering the copied contents).
    block_src: Vec<PVar>,
    /// Block copies into what `v` points to: the pvars whose contents flow into the
    /// unknown-offset cell of each object `v` points to.
    block_dst: Vec<PVar>,
}

impl Watch {
    fn is_empty(&self) -> bool {
        self.shifts.is_empty()
            && self.loads.is_empty()
            && self.stores.is_empty()
            && self.block_src.is_empty()
            && self.block_dst.is_empty()
    }

    fn absorb(&mut self, other: Watch) {
        self.shifts.extend(other.shifts);
        self.loads.extend(other.loads);
        self.stores.extend(other.stores);
        self.block_src.extend(other.block_src);
        self.block_dst.extend(other.block_dst);
    }
}

/// What a set of cells gives the complex constraints: its objects (see
/// [`Andersen::objects_of`]), and, as of the `merges`-th merge, the sources of a load
/// through it and the representatives of its cells (the targets of a store).
#[derive(Default)]
struct Derived {
    merges: u32,
    objects: Option<Vec<(u32, bool)>>,
    sources: Option<Vec<PVar>>,
    targets: Option<Vec<PVar>>,
}

/// The sources of the loads of one set of cells, their versions when gathered, the
/// span of each one's propagated cells, and the nonzero words of their union.
struct LoadSources {
    sources: Vec<PVar>,
    versions: Vec<u32>,
    spans: Vec<u64>,
    words: Vec<(u32, u64)>,
}

/// The state of the Andersen worklist solver. Every per-pvar table is meaningful at
/// representatives only (`parent[v] == v`); lists may name merged pvars, which are
/// resolved with [`Andersen::find`] when used.
#[derive(Default)]
pub(super) struct Andersen {
    /// Cell pvar -> dense cell index (`u32::MAX` for pvars that are not cells).
    cell_index: Vec<u32>,
    cell_pvar: Vec<PVar>,
    /// By cell index: the object, and the offset in it.
    cell_object: Vec<u32>,
    cell_offset: Vec<Option<u64>>,
    /// By object: the index of its unknown-offset cell (`u32::MAX` before it exists).
    any_cell: Vec<u32>,
    /// Offsets of pointer shifts, numbered densely.
    offset_ids: FxHashMap<i64, usize>,
    /// By offset number and cell index: the index of the shifted cell (`u32::MAX`
    /// before it is computed).
    shift_memo: Vec<Vec<u32>>,
    /// Sets of cells shifted (as nonzero words), numbered, and the targets of each
    /// one shifted by an offset: (span of the targets' words, nonzero words).
    cell_sets: FxHashMap<Vec<(u32, u64)>, u32>,
    shift_sets: FxHashMap<(u32, Option<i64>), (u64, SharedWords)>,
    /// By set of cells: its objects, and the sources of loads and the targets of
    /// stores through it.
    derived: FxHashMap<u32, Derived>,
    /// By set of cells: the pvar gathering what its cells hold, from which every load
    /// through it reads.
    load_readers: FxHashMap<u32, PVar>,
    /// By set of cells: what loads of it last gathered from its sources.
    load_sets: FxHashMap<u32, LoadSources>,
    /// By pvar: the number of the last set of cells propagated into it (`u32::MAX`
    /// before any), which it therefore holds.
    received: Vec<u32>,
    /// By pvar: a number that changes whenever its propagated cells do.
    version: Vec<u32>,
    /// Union-find over pvars: collapsed cycles.
    parent: Vec<PVar>,
    pts: Vec<Vec<u64>>,
    /// The number of cells in each set: a set that includes another is equal to it
    /// when their sizes are.
    size: Vec<u32>,
    /// The index of the lowest nonzero word of each set, or less (`u32::MAX` if empty).
    low: Vec<u32>,
    /// The same for each delta.
    delta_low: Vec<u32>,
    /// One past the index of the highest nonzero word of each delta, or more (0 if
    /// empty).
    delta_high: Vec<u32>,
    /// Cells added to a pvar's set and not yet propagated.
    delta: Vec<Vec<u64>>,
    queued: Vec<bool>,
    /// The pvars to process in this wave, by rank (then number).
    queue: std::collections::BinaryHeap<std::cmp::Reverse<(u32, PVar)>>,
    /// The pvars to process in the next wave (their rank is not past the current one).
    later: Vec<PVar>,
    /// By pvar: its place in a topological order of the copy graph as of the last
    /// sweep (the order of its component; pvars created since come last).
    rank: Vec<u32>,
    /// The rank of the pvar being processed (`None` outside a wave).
    current_rank: Option<u32>,
    /// The sources of the edges that have suggested a cycle since the last sweep.
    trigger_roots: Vec<PVar>,
    /// Copy edges: `succ[s]` holds every `d` with `pts(s) ⊆ pts(d)`.
    succ: Vec<Vec<PVar>>,
    /// By pvar `d`: every `s` with a copy edge `s -> d` (as added, not resolved),
    /// and how many edges that makes. Kept by target, so the edges a load adds into one
    /// destination are looked up in one table.
    sources_of: Vec<FxHashSet<PVar>>,
    edge_count: usize,
    watch: Vec<Watch>,
    /// By object: a pvar gathering the sets of all its cells (`u32::MAX` before a
    /// pvar reads the whole object), the source of every read of the whole object.
    contents: Vec<PVar>,
    /// Pvars below this have been checked for being new cells.
    cells_checked: u32,
    /// Whether cycles are collapsed.
    collapse: bool,
    /// Edges whose equal sets have triggered a cycle search already.
    triggered: FxHashSet<(PVar, PVar)>,
    /// Whether propagation met an edge with equal sets since the last sweep.
    cycle_suspected: bool,
    /// Worklist steps and propagations along copy edges since the last sweep.
    since_sweep: u64,
    tarjan: Tarjan,
    /// By object: the epoch it was last seen in [`Andersen::complex`] and its place
    /// in the list of objects built there.
    object_slot: Vec<(u32, u32)>,
    epoch: u32,
    /// By pvar: the number of the last merge it caught up with (see [`Andersen::merge`]).
    caught_up: Vec<u32>,
    merges: u32,
    /// The pvar whose delta is being propagated (`u32::MAX` outside [`Andersen::run`]).
    processing: PVar,
    /// A zeroed bit set to build shift targets in.
    scratch: Vec<u64>,
    pub(super) stats: AndersenStats,
}

/// A sweep may follow once the worklist steps and edge propagations since the last one
/// reach the graph's size (pvars and edges) divided by this (16 was fastest on Lua
/// among 1, 4, 16, 64, 256 and 1024).
const SWEEP_SHARE: u64 = 16;

/// Scratch state of the cycle search, reused across searches (stamped per search).
#[derive(Default)]
struct Tarjan {
    stamp: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    epoch: u32,
}

/// The nonzero words of `words` with their indices, the first being `at`.
fn nonzero_words(words: &[u64], at: usize) -> Vec<(u32, u64)> {
    let mut out = Vec::with_capacity(words.iter().filter(|&&w| w != 0).count());
    for (i, &w) in words.iter().enumerate() {
        if w != 0 {
            out.push(((at + i) as u32, w));
        }
    }
    out
}

/// Adds the bits of `pts` not in `pending` from word `start` on to `into` (if given),
/// in blocks the compiler can vectorise; returns the span of the words holding them.
fn gather(
    mut into: Option<&mut [u64]>,
    pts: &[u64],
    pending: &[u64],
    start: usize,
) -> Option<(usize, usize)> {
    const BLOCK: usize = 8;
    let (mut lo, mut hi) = (usize::MAX, 0);
    let mut at = start;
    while at < pts.len() {
        let end = (at + BLOCK).min(pts.len());
        let mut block = [0u64; BLOCK];
        for (k, i) in (at..end).enumerate() {
            block[k] = pts[i] & !pending.get(i).copied().unwrap_or(0);
        }
        if block.iter().any(|&w| w != 0) {
            let first = block.iter().position(|&w| w != 0).unwrap_or(0);
            let last = block.iter().rposition(|&w| w != 0).unwrap_or(0);
            lo = lo.min(at + first);
            hi = at + last + 1;
            if let Some(into) = into.as_deref_mut() {
                for (k, i) in (at..end).enumerate() {
                    into[i] |= block[k];
                }
            }
        }
        at = end;
    }
    (lo < hi).then_some((lo, hi))
}

/// A bit set as its nonzero words (index, bits), in increasing order.
type SparseWords = Vec<(u32, u64)>;

/// [`SparseWords`] shared by the memo of shift targets and its users.
type SharedWords = std::rc::Rc<[(u32, u64)]>;

/// Sets of fewer cells are shifted cell by cell without remembering the targets.
const SHIFT_MEMO_CELLS: usize = 8;

/// The words of `all` holding bits that are not in `done`.
fn difference(all: &[u64], done: &[u64]) -> Vec<u64> {
    all.iter()
        .enumerate()
        .map(|(i, &w)| w & !done.get(i).copied().unwrap_or(0))
        .collect()
}

impl Andersen {
    pub(super) fn new(collapse: bool) -> Self {
        Andersen {
            collapse,
            processing: u32::MAX,
            ..Andersen::default()
        }
    }

    fn grow(&mut self, len: usize) {
        if self.pts.len() < len {
            let old = self.parent.len() as u32;
            self.parent.extend(old..len as u32);
            self.cell_index.resize(len, u32::MAX);
            self.pts.resize(len, Vec::new());
            self.size.resize(len, 0);
            self.low.resize(len, u32::MAX);
            self.delta_low.resize(len, u32::MAX);
            self.delta_high.resize(len, 0);
            self.version.resize(len, 0);
            self.received.resize(len, u32::MAX);
            self.caught_up.resize(len, 0);
            self.delta.resize(len, Vec::new());
            self.queued.resize(len, false);
            self.rank.resize(len, u32::MAX);
            self.succ.resize(len, Vec::new());
            self.sources_of.resize(len, FxHashSet::default());
            self.watch.resize(len, Watch::default());
        }
    }

    /// The representative of a pvar (with path halving).
    fn find(&mut self, mut x: PVar) -> PVar {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// The representative of a pvar, without compressing paths.
    fn find_shared(&self, mut x: PVar) -> PVar {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// The pvar standing for a pvar's collapsed cycle (itself when not collapsed).
    pub(super) fn representative(&self, pv: PVar) -> PVar {
        if pv as usize >= self.parent.len() {
            return pv;
        }
        self.find_shared(pv)
    }

    /// The (object, offset) of each cell a pvar may point to, unsorted.
    pub(super) fn targets(&self, pv: PVar) -> Vec<(u32, Option<u64>)> {
        if pv as usize >= self.pts.len() {
            return Vec::new();
        }
        bits(&self.pts[self.find_shared(pv) as usize])
            .map(|i| (self.cell_object[i as usize], self.cell_offset[i as usize]))
            .collect()
    }

    /// The cells a pvar may point to, sorted.
    pub(super) fn cells_of(&self, pv: PVar) -> Vec<PVar> {
        if pv as usize >= self.pts.len() {
            return Vec::new();
        }
        let words = &self.pts[self.find_shared(pv) as usize];
        let mut cells: Vec<PVar> = bits(words).map(|i| self.cell_pvar[i as usize]).collect();
        cells.sort_unstable();
        cells
    }

    /// For each pvar below `len`, a number shared by exactly the pvars with the same
    /// set (numbered in order of first pvar).
    pub(super) fn set_classes(&self, len: usize) -> Vec<u32> {
        let mut ids: FxHashMap<&[u64], u32> = FxHashMap::default();
        let mut of_rep: FxHashMap<PVar, u32> = FxHashMap::default();
        (0..len as PVar)
            .map(|pv| {
                let rep = self.representative(pv);
                *of_rep.entry(rep).or_insert_with(|| {
                    let words = self.pts.get(rep as usize).map_or(&[][..], Vec::as_slice);
                    let used = words.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
                    let next = ids.len() as u32;
                    *ids.entry(&words[..used]).or_insert(next)
                })
            })
            .collect()
    }

    /// The cell indices of the set of a representative that have been propagated.
    fn propagated(&self, v: PVar) -> SparseWords {
        let vi = v as usize;
        nonzero_words(&difference(&self.pts[vi], &self.delta[vi]), 0)
    }

    fn enqueue(&mut self, d: PVar) {
        if !self.queued[d as usize] {
            self.queued[d as usize] = true;
            let rank = self.rank[d as usize];
            match self.current_rank {
                Some(current) if rank <= current => self.later.push(d),
                _ => self.queue.push(std::cmp::Reverse((rank, d))),
            }
        }
    }

    fn insert(&mut self, d: PVar, index: u32) {
        let d = self.find(d);
        if set_bit(&mut self.pts[d as usize], index) {
            self.size[d as usize] += 1;
            self.low[d as usize] = self.low[d as usize].min(index / 64);
            self.delta_low[d as usize] = self.delta_low[d as usize].min(index / 64);
            self.delta_high[d as usize] = self.delta_high[d as usize].max(index / 64 + 1);
            set_bit(&mut self.delta[d as usize], index);
            self.enqueue(d);
        }
    }

    /// Adds the cells of `words`, the bit set's words from index `at` on, to the
    /// representative `d`.
    fn union_at(&mut self, d: PVar, at: usize, words: &[u64]) {
        self.stats.work += words.len() as u64;
        let di = d as usize;
        // Most unions add nothing: look for the first new word without writing.
        let pts = &self.pts[di];
        let Some(first) = words
            .iter()
            .enumerate()
            .position(|(i, &w)| w & !pts.get(at + i).copied().unwrap_or(0) != 0)
        else {
            return;
        };
        let end = at + words.len();
        let (pts, delta) = (&mut self.pts[di], &mut self.delta[di]);
        grow(pts, delta, end);
        let mut added = 0;
        for i in at + first..end {
            let new = words[i - at] & !pts[i];
            pts[i] |= new;
            delta[i] |= new;
            added += new.count_ones();
        }
        self.size[di] += added;
        self.low[di] = self.low[di].min((at + first) as u32);
        self.delta_low[di] = self.delta_low[di].min((at + first) as u32);
        self.delta_high[di] = self.delta_high[di].max(end as u32);
        self.enqueue(d);
    }

    /// Whether `v`, whose set has just been propagated to `w`, has the same set as `w`.
    fn same_set(&self, v: PVar, w: PVar) -> bool {
        let (vi, wi) = (v as usize, w as usize);
        if self.size[vi] != self.size[wi] {
            return false;
        }
        // Without cells pending at `v`, `pts(v)` is included in `pts(w)`.
        let same = self.delta_high[vi] == 0 || {
            let (a, b) = (&self.pts[vi], &self.pts[wi]);
            let n = a.len().min(b.len());
            a[..n] == b[..n] && a[n..].iter().all(|&x| x == 0) && b[n..].iter().all(|&x| x == 0)
        };
        same
    }

    /// The number of a set of cells given by its nonzero words.
    fn set_id(&mut self, words: &[(u32, u64)]) -> u32 {
        let next = self.cell_sets.len() as u32;
        match self.cell_sets.get(words) {
            Some(&id) => id,
            None => {
                self.cell_sets.insert(words.to_vec(), next);
                next
            }
        }
    }

    /// Records the copy edge `s -> d`; false if it was there.
    fn new_edge(&mut self, s: PVar, d: PVar) -> bool {
        let new = self.sources_of[d as usize].insert(s);
        self.edge_count += usize::from(new);
        new
    }

    /// Adds the copy edge `s -> d` and propagates what `s` has propagated already
    /// (its pending cells follow when `s` is next processed).
    fn add_edge(&mut self, s: PVar, d: PVar) {
        let (s, d) = (self.find(s), self.find(d));
        if s == d || !self.new_edge(s, d) {
            return;
        }
        self.succ[s as usize].push(d);
        // One pass over the cells `s` has propagated, counted as the span they lie in.
        let (si, di) = (s as usize, d as usize);
        let (src, pending) = (
            std::mem::take(&mut self.pts[si]),
            std::mem::take(&mut self.delta[si]),
        );
        let (pts, delta) = (&mut self.pts[di], &mut self.delta[di]);
        let (mut lo, mut hi, mut added) = (usize::MAX, 0, 0);
        let (mut first_new, start) = (u32::MAX, (self.low[si] as usize).min(src.len()));
        let mut last_new = 0;
        for (i, &word) in src.iter().enumerate().skip(start) {
            let bits = word & !pending.get(i).copied().unwrap_or(0);
            if bits == 0 {
                continue;
            }
            lo = lo.min(i);
            hi = i + 1;
            let new = bits & !pts.get(i).copied().unwrap_or(0);
            if new != 0 {
                grow(pts, delta, src.len());
                pts[i] |= new;
                delta[i] |= new;
                added += new.count_ones();
                first_new = first_new.min(i as u32);
                last_new = i as u32 + 1;
            }
        }
        self.pts[si] = src;
        self.delta[si] = pending;
        if lo < hi {
            self.stats.work += (hi - lo) as u64;
        }
        if added > 0 {
            self.size[di] += added;
            self.low[di] = self.low[di].min(first_new);
            self.delta_low[di] = self.delta_low[di].min(first_new);
            self.delta_high[di] = self.delta_high[di].max(last_new);
            self.enqueue(d);
        }
    }

    /// [`Andersen::union_at`] of a set given by its nonzero words (index, bits),
    /// counted as `span` words of work.
    fn union_sparse(&mut self, d: PVar, span: u64, words: &[(u32, u64)]) {
        self.stats.work += span;
        let di = d as usize;
        let pts = &self.pts[di];
        let Some(first) = words
            .iter()
            .position(|&(i, w)| w & !pts.get(i as usize).copied().unwrap_or(0) != 0)
        else {
            return;
        };
        let end = words.last().map_or(0, |&(i, _)| i as usize + 1);
        let (pts, delta) = (&mut self.pts[di], &mut self.delta[di]);
        grow(pts, delta, end);
        let mut added = 0;
        for &(i, w) in &words[first..] {
            let i = i as usize;
            let new = w & !pts[i];
            pts[i] |= new;
            delta[i] |= new;
            added += new.count_ones();
        }
        self.size[di] += added;
        self.low[di] = self.low[di].min(words[first].0);
        self.delta_low[di] = self.delta_low[di].min(words[first].0);
        self.delta_high[di] = self.delta_high[di].max(end as u32);
        self.enqueue(d);
    }

    /// Subscribes `reader` to every cell of `object`, present and future, through the
    /// object's contents pvar.
    fn add_whole_reader(&mut self, gen: &mut Generator, object: u32, reader: PVar) {
        let mut contents = self.contents[object as usize];
        if contents == u32::MAX {
            contents = gen.temp();
            self.new_cells(gen);
            self.contents[object as usize] = contents;
            for k in 0..gen.cells_of_object[object as usize].len() {
                self.add_edge(gen.cells_of_object[object as usize][k], contents);
            }
        }
        self.add_edge(contents, reader);
    }

    /// Numbers the cells created since the last call and connects them to the
    /// readers of their objects.
    pub(super) fn new_cells(&mut self, gen: &Generator) {
        self.grow(gen.next as usize);
        if self.any_cell.len() < gen.objects.len() {
            self.any_cell.resize(gen.objects.len(), u32::MAX);
            self.contents.resize(gen.objects.len(), u32::MAX);
            self.object_slot.resize(gen.objects.len(), (0, 0));
        }
        while self.cells_checked < gen.next {
            let pv = self.cells_checked;
            self.cells_checked += 1;
            let Some(&(object, offset)) = gen.cell_info.get(&pv) else {
                continue;
            };
            let index = self.cell_pvar.len() as u32;
            self.cell_index[pv as usize] = index;
            self.cell_pvar.push(pv);
            self.cell_object.push(object);
            self.cell_offset.push(offset);
            if offset.is_none() {
                self.any_cell[object as usize] = index;
            }
            let contents = self.contents[object as usize];
            if contents != u32::MAX {
                self.add_edge(pv, contents);
            }
        }
    }

    /// The index of the unknown-offset cell of an object, created if need be.
    fn any_index(&mut self, gen: &mut Generator, object: u32) -> u32 {
        let index = self.any_cell[object as usize];
        if index != u32::MAX {
            return index;
        }
        gen.cell(object, None);
        self.new_cells(gen);
        self.any_cell[object as usize]
    }

    /// The number of an offset, for [`Andersen::shifted`].
    fn offset_id(&mut self, by: Option<i64>) -> usize {
        let Some(k) = by else { return usize::MAX };
        let next = self.offset_ids.len();
        let id = *self.offset_ids.entry(k).or_insert(next);
        if id == self.shift_memo.len() {
            self.shift_memo.push(Vec::new());
        }
        id
    }

    /// The index of the cell `by` bytes from cell `index`; `offset` is the number of
    /// `by` ([`Andersen::offset_id`]).
    fn shifted(&mut self, gen: &mut Generator, index: u32, by: Option<i64>, offset: usize) -> u32 {
        if by.is_none() {
            return self.any_index(gen, self.cell_object[index as usize]);
        }
        let memo = &self.shift_memo[offset];
        if let Some(&target) = memo.get(index as usize) {
            if target != u32::MAX {
                return target;
            }
        }
        let pv = gen.shifted(self.cell_pvar[index as usize], by);
        self.new_cells(gen);
        let target = self.cell_index[pv as usize];
        let memo = &mut self.shift_memo[offset];
        if memo.len() <= index as usize {
            memo.resize(index as usize + 1, u32::MAX);
        }
        memo[index as usize] = target;
        target
    }

    pub(super) fn install(&mut self, gen: &mut Generator, c: Constraint) {
        self.new_cells(gen);
        // A new complex constraint sees the cells its pvar has propagated; the pending
        // ones reach it when the pvar is next processed.
        let (v, watch) = match c {
            Constraint::Base(d, cell) => {
                let index = self.cell_index[cell as usize];
                debug_assert!(index != u32::MAX);
                self.insert(d, index);
                return;
            }
            Constraint::Copy(d, s) => {
                self.add_edge(s, d);
                return;
            }
            Constraint::Shift(d, s, by) => (
                s,
                Watch {
                    shifts: vec![(by, d)],
                    ..Watch::default()
                },
            ),
            Constraint::Load(d, a) => (
                a,
                Watch {
                    loads: vec![d],
                    ..Watch::default()
                },
            ),
            Constraint::Store(a, s) => (
                a,
                Watch {
                    stores: vec![s],
                    ..Watch::default()
                },
            ),
            Constraint::CopyBlock(d, s) => {
                // Through one fresh pvar holding the contents of every source object:
                // linear in the objects on either side, not their product.
                let contents = gen.temp();
                self.new_cells(gen);
                let watch = Watch {
                    block_src: vec![contents],
                    ..Watch::default()
                };
                let s = self.find(s);
                let words = self.propagated(s);
                self.complex(gen, &watch, &words, None);
                self.watch[s as usize].absorb(watch);
                (
                    d,
                    Watch {
                        block_dst: vec![contents],
                        ..Watch::default()
                    },
                )
            }
        };
        let v = self.find(v);
        let words = self.propagated(v);
        self.complex(gen, &watch, &words, None);
        let w = &mut self.watch[v as usize];
        for shift in watch.shifts {
            if let Err(at) = w.shifts.binary_search(&shift) {
                w.shifts.insert(at, shift);
            }
        }
        w.loads.extend(watch.loads);
        w.stores.extend(watch.stores);
        w.block_src.extend(watch.block_src);
        w.block_dst.extend(watch.block_dst);
    }

    /// Applies complex constraints to cells (by index).
    fn complex(
        &mut self,
        gen: &mut Generator,
        watch: &Watch,
        set_words: &[(u32, u64)],
        known_set: Option<u32>,
    ) {
        let count: usize = set_words.iter().map(|(_, w)| w.count_ones() as usize).sum();
        if count == 0 || watch.is_empty() {
            return;
        }
        let constraints = watch.shifts.len()
            + watch.loads.len()
            + watch.stores.len()
            + watch.block_src.len()
            + watch.block_dst.len();
        self.stats.work += (count * constraints) as u64;
        // The cells one by one, listed when needed.
        let mut listed: Option<Vec<u32>> = None;
        let cells = |listed: &mut Option<Vec<u32>>| -> Vec<u32> {
            listed.take().unwrap_or_else(|| sparse_bit_list(set_words))
        };
        // Shifts: the targets are computed once per offset, and once per offset and
        // set of cells (a delta flows unchanged to many pvars that shift it alike).
        let set = (count >= SHIFT_MEMO_CELLS)
            .then(|| known_set.unwrap_or_else(|| self.set_id(set_words)));
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut k = 0;
        while k < watch.shifts.len() {
            let by = watch.shifts[k].0;
            let end = k + watch.shifts[k..]
                .iter()
                .take_while(|(b, _)| *b == by)
                .count();
            let offset = self.offset_id(by);
            if let Some(known) = set.and_then(|set| self.shift_sets.get(&(set, by))) {
                // Every cell of the set has been shifted by `by` already: the same
                // targets, and no new cell.
                let (span, words) = (known.0, known.1.clone());
                for &(_, d) in &watch.shifts[k..end] {
                    let d = self.find(d);
                    self.union_sparse(d, span, &words);
                }
                k = end;
                continue;
            }
            let list = cells(&mut listed);
            for &c in &list {
                let target = self.shifted(gen, c, by, offset);
                set_bit(&mut scratch, target);
            }
            listed = Some(list);
            let lo = scratch.iter().position(|&w| w != 0).unwrap_or(0);
            let hi = scratch.iter().rposition(|&w| w != 0).map_or(lo, |i| i + 1);
            for &(_, d) in &watch.shifts[k..end] {
                let d = self.find(d);
                self.union_at(d, lo, &scratch[lo..hi]);
            }
            if let Some(set) = set {
                let words = nonzero_words(&scratch[lo..hi], lo);
                self.shift_sets
                    .insert((set, by), ((hi - lo) as u64, words.into()));
            }
            scratch[lo..hi].iter_mut().for_each(|w| *w = 0);
            k = end;
        }
        self.scratch = scratch;
        // Loads, stores and block copies touch each object's unknown-offset cell or
        // every cell of it: once per object.
        if watch.loads.is_empty()
            && watch.stores.is_empty()
            && watch.block_src.is_empty()
            && watch.block_dst.is_empty()
        {
            return;
        }
        // What the set of cells gives, remembered (the representatives while no merge
        // intervenes).
        let mut known = set
            .and_then(|set| self.derived.remove(&set))
            .unwrap_or_default();
        if known.merges != self.merges {
            known.sources = None;
            known.targets = None;
        }
        known.merges = self.merges;
        let objects = match known.objects.take() {
            Some(objects) => objects,
            None => {
                let list = cells(&mut listed);
                let objects = self.objects_of(&list);
                listed = Some(list);
                objects
            }
        };
        if let (false, Some(set)) = (watch.loads.is_empty(), set) {
            // Through the reader of the set: one pvar per set of cells loaded from,
            // gathering what its cells hold, with an edge to each destination.
            let reader = match self.load_readers.get(&set) {
                Some(&reader) => self.find(reader),
                None => {
                    let list = cells(&mut listed);
                    let sources = self.load_sources(gen, &list, &objects);
                    listed = Some(list);
                    let reader = gen.temp();
                    self.new_cells(gen);
                    for &c in &sources {
                        self.add_edge(c, reader);
                    }
                    for &(object, unknown) in &objects {
                        if unknown {
                            self.add_whole_reader(gen, object, reader);
                        }
                    }
                    self.load_readers.insert(set, reader);
                    self.find(reader)
                }
            };
            for &d in &watch.loads {
                self.add_edge(reader, d);
            }
        } else if !watch.loads.is_empty() {
            let sources = match known.sources.take() {
                Some(sources) => sources,
                None => {
                    let list = cells(&mut listed);
                    let sources = self.load_sources(gen, &list, &objects);
                    listed = Some(list);
                    sources
                }
            };
            // The cells the sources have propagated, gathered once for all loads. They
            // stay put while edges are added (added cells are pending), and an edge
            // that exists has brought them already, except from the pvar being
            // processed (whose delta counts as propagated but has not flowed yet).
            let (spans, words) = self.gather_sources(set, &sources);
            for &d in &watch.loads {
                let d = self.find(d);
                let mut fresh = false;
                for (k, &c) in sources.iter().enumerate() {
                    if c == self.processing {
                        self.add_edge(c, d);
                    } else if c != d && self.new_edge(c, d) {
                        self.succ[c as usize].push(d);
                        self.stats.work += spans[k];
                        fresh = true;
                    }
                }
                if fresh {
                    self.union_sparse(d, 0, &words);
                }
                for &(object, unknown) in &objects {
                    if unknown {
                        self.add_whole_reader(gen, object, d);
                    }
                }
            }
            known.sources = Some(sources);
        }
        if !watch.stores.is_empty() {
            let targets = match known.targets.take() {
                Some(targets) => targets,
                None => {
                    let mut targets: Vec<PVar> = cells(&mut listed)
                        .iter()
                        .map(|&c| self.find(self.cell_pvar[c as usize]))
                        .collect();
                    targets.sort_unstable();
                    targets.dedup();
                    targets
                }
            };
            for &s in &watch.stores {
                let s = self.find(s);
                // The cells `s` has propagated, found once for all the targets (edges
                // into `s` itself add nothing to it).
                let words = difference(&self.pts[s as usize], &self.delta[s as usize]);
                let lo = words.iter().position(|&w| w != 0).unwrap_or(0);
                let hi = words.iter().rposition(|&w| w != 0).map_or(lo, |i| i + 1);
                for &c in &targets {
                    let c = self.find(c);
                    if s != c && self.new_edge(s, c) {
                        self.succ[s as usize].push(c);
                        if hi > lo {
                            self.union_at(c, lo, &words[lo..hi]);
                        }
                    }
                }
            }
            known.targets = Some(targets);
        }
        for &contents in &watch.block_dst {
            for &(object, _) in &objects {
                let any = self.any_index(gen, object);
                self.add_edge(contents, self.cell_pvar[any as usize]);
            }
        }
        for &contents in &watch.block_src {
            for &(object, _) in &objects {
                self.add_whole_reader(gen, object, contents);
            }
        }
        if let Some(set) = set {
            known.objects = Some(objects);
            self.derived.insert(set, known);
        }
    }

    /// (object, whether the unknown-offset cell is among the cells), one per object of
    /// the cells, in increasing order.
    fn objects_of(&mut self, cells: &[u32]) -> Vec<(u32, bool)> {
        let mut objects: Vec<(u32, bool)> = Vec::new();
        if self.epoch == u32::MAX {
            self.object_slot.iter_mut().for_each(|slot| *slot = (0, 0));
            self.epoch = 0;
        }
        self.epoch += 1;
        for &c in cells {
            let (object, unknown) = (
                self.cell_object[c as usize],
                self.cell_offset[c as usize].is_none(),
            );
            let slot = &mut self.object_slot[object as usize];
            if slot.0 != self.epoch {
                *slot = (self.epoch, objects.len() as u32);
                objects.push((object, unknown));
            } else if unknown {
                objects[slot.1 as usize].1 = true;
            }
        }
        objects.sort_unstable();
        objects
    }

    /// The representatives of the cells a load reads: those at known offsets, and the
    /// unknown-offset cell of their objects (a load at the unknown offset reads every
    /// cell of the object: a subscription), sorted.
    fn load_sources(
        &mut self,
        gen: &mut Generator,
        cells: &[u32],
        objects: &[(u32, bool)],
    ) -> Vec<PVar> {
        let mut sources: Vec<PVar> = Vec::new();
        for &c in cells {
            if self.cell_offset[c as usize].is_some() {
                sources.push(self.find(self.cell_pvar[c as usize]));
            }
        }
        for &(object, unknown) in objects {
            if !unknown {
                let any = self.any_index(gen, object);
                sources.push(self.find(self.cell_pvar[any as usize]));
            }
        }
        sources.sort_unstable();
        sources.dedup();
        sources
    }

    /// The span of the propagated cells of each source (as words), and the nonzero
    /// words of their union (without the pvar being processed). Remembered per set of
    /// cells read: the sources' propagated cells change only when they are processed
    /// or merged, which bumps their version.
    fn gather_sources(
        &mut self,
        set: Option<u32>,
        sources: &[PVar],
    ) -> (Vec<u64>, Vec<(u32, u64)>) {
        let memo = set.filter(|_| !sources.contains(&self.processing));
        if let Some(known) = memo.and_then(|set| self.load_sets.get(&set)) {
            if known.sources == sources
                && sources
                    .iter()
                    .zip(&known.versions)
                    .all(|(&c, &v)| self.version[c as usize] == v)
            {
                return (known.spans.clone(), known.words.clone());
            }
        }
        let mut gathered = std::mem::take(&mut self.scratch);
        let mut spans: Vec<u64> = Vec::with_capacity(sources.len());
        for &c in sources {
            let (pts, pending) = (&self.pts[c as usize], &self.delta[c as usize]);
            let start = (self.low[c as usize] as usize).min(pts.len());
            if gathered.len() < pts.len() {
                gathered.resize(pts.len(), 0);
            }
            let into = if c == self.processing {
                None
            } else {
                Some(&mut gathered[..])
            };
            let span = gather(into, pts, pending, start);
            spans.push(span.map_or(0, |(lo, hi)| (hi - lo) as u64));
        }
        let lo = gathered.iter().position(|&w| w != 0).unwrap_or(0);
        let hi = gathered.iter().rposition(|&w| w != 0).map_or(lo, |i| i + 1);
        let words = nonzero_words(&gathered[lo..hi], lo);
        gathered[lo..hi].iter_mut().for_each(|w| *w = 0);
        self.scratch = gathered;
        if let Some(set) = memo {
            let versions = sources.iter().map(|&c| self.version[c as usize]).collect();
            self.load_sets.insert(
                set,
                LoadSources {
                    sources: sources.to_vec(),
                    versions,
                    spans: spans.clone(),
                    words: words.clone(),
                },
            );
        }
        (spans, words)
    }

    /// Solves to a fixpoint; false when `limit` units of work did not suffice.
    pub(super) fn run(&mut self, gen: &mut Generator, limit: u64) -> bool {
        self.sweep(gen, None);
        let converged = loop {
            let Some(std::cmp::Reverse((_, popped))) = self.queue.pop() else {
                if self.later.is_empty() {
                    break true;
                }
                // The next wave, in a new order if the graph has grown enough.
                self.current_rank = None;
                if self.since_sweep >= self.sweep_period() {
                    self.sweep(gen, None);
                } else {
                    self.requeue();
                }
                continue;
            };
            if !self.step(gen, popped, limit) {
                break false;
            }
        };
        self.current_rank = None;
        converged
    }

    /// The worklist steps and edge propagations after which a sweep may follow: a
    /// sweep costs about as much as the graph is large, so one at most per sixteenth
    /// of that.
    fn sweep_period(&self) -> u64 {
        (self.parent.len() + self.edge_count) as u64 / SWEEP_SHARE
    }

    /// Puts the pending pvars of this wave and the next into one, by rank.
    fn requeue(&mut self) {
        let mut pending: Vec<PVar> = self
            .queue
            .drain()
            .map(|std::cmp::Reverse((_, v))| v)
            .collect();
        pending.append(&mut self.later);
        for v in pending {
            self.queue
                .push(std::cmp::Reverse((self.rank[v as usize], v)));
        }
    }

    /// Collapses the cycles through the pvars of `roots`, or (given none) the cycles
    /// of the whole graph, ranking every pvar in topological order and starting the
    /// wave again in that order.
    fn sweep(&mut self, gen: &mut Generator, roots: Option<Vec<PVar>>) {
        self.cycle_suspected = false;
        self.since_sweep = 0;
        match roots {
            Some(roots) => self.collapse_cycles(gen, &roots, false),
            None => {
                self.trigger_roots.clear();
                let roots: Vec<PVar> = (0..self.parent.len() as u32).collect();
                self.collapse_cycles(gen, &roots, true);
                self.requeue();
            }
        }
    }

    /// Processes one pvar: its pending cells flow into its complex constraints and
    /// along its edges. False when the work limit is reached.
    fn step(&mut self, gen: &mut Generator, popped: PVar, limit: u64) -> bool {
        self.current_rank = Some(self.rank[popped as usize]);
        self.stats.work += 1;
        self.since_sweep += 1;
        if self.stats.work > limit {
            return false;
        }
        self.queued[popped as usize] = false;
        let v = self.find(popped);
        let vi = v as usize;
        self.version[vi] = self.version[vi].wrapping_add(1);
        // The delta is emptied in place (it keeps its buffer): cells that reach `v`
        // while it is processed are pending again.
        let delta = &mut self.delta[vi];
        let end = (self.delta_high[vi] as usize).min(delta.len());
        let start = (self.delta_low[vi] as usize).min(end);
        self.delta_low[vi] = u32::MAX;
        self.delta_high[vi] = 0;
        let words = nonzero_words(&delta[start..end], start);
        for &(i, _) in &words {
            delta[i as usize] = 0;
        }
        let (Some(&(first, _)), Some(&(last, _))) = (words.first(), words.last()) else {
            return true;
        };
        let set = self.set_id(&words);
        if !self.watch[vi].is_empty() {
            // Complex constraints change only at installation and merges.
            let watch = std::mem::take(&mut self.watch[vi]);
            self.processing = v;
            self.complex(gen, &watch, &words, Some(set));
            self.processing = u32::MAX;
            self.watch[vi] = watch;
        }
        // Only the words holding new cells (counted as the span they lie in). A
        // successor that has had the same cells from elsewhere holds them already.
        let (lo, hi) = (first as usize, last as usize + 1);
        self.stats.work += self.succ[vi].len() as u64;
        self.since_sweep += self.succ[vi].len() as u64;
        let mut i = 0;
        while i < self.succ[vi].len() {
            let w = self.find(self.succ[vi][i]);
            i += 1;
            if w == v {
                continue;
            }
            if self.received[w as usize] == set {
                self.stats.work += (hi - lo) as u64;
            } else {
                self.union_sparse(w, (hi - lo) as u64, &words);
                self.received[w as usize] = set;
            }
            if self.collapse && self.same_set(v, w) && self.triggered.insert((v, w)) {
                self.cycle_suspected = true;
                if self.trigger_roots.last() != Some(&v) {
                    self.trigger_roots.push(v);
                }
            }
        }
        // Cycles through the edges that suggested one, found together.
        if self.cycle_suspected && self.since_sweep >= self.sweep_period() {
            let mut roots = std::mem::take(&mut self.trigger_roots);
            roots.sort_unstable();
            roots.dedup();
            self.sweep(gen, Some(roots));
        }
        true
    }

    /// Finds the strongly connected components of copy edges reachable from `start`
    /// (Tarjan, iteratively) and collapses each one with more than one pvar.
    fn collapse_cycles(&mut self, gen: &mut Generator, roots: &[PVar], rank: bool) {
        self.stats.cycle_searches += 1;
        let n = self.parent.len();
        let t = &mut self.tarjan;
        if t.stamp.len() < n {
            t.stamp.resize(n, 0);
            t.index.resize(n, 0);
            t.low.resize(n, 0);
            t.on_stack.resize(n, false);
        }
        t.epoch += 1;
        let epoch = t.epoch;
        let mut counter = 0u32;
        let mut emitted = 0u32;
        let mut components: Vec<Vec<PVar>> = Vec::new();
        let mut stack: Vec<PVar> = Vec::new();
        // (pvar, next successor to look at)
        let mut calls: Vec<(PVar, usize)> = Vec::new();
        let visit = |t: &mut Tarjan, v: PVar, counter: &mut u32, stack: &mut Vec<PVar>| {
            let vi = v as usize;
            t.stamp[vi] = epoch;
            t.index[vi] = *counter;
            t.low[vi] = *counter;
            *counter += 1;
            t.on_stack[vi] = true;
            stack.push(v);
        };
        for &root in roots {
            let start = self.find(root);
            if self.succ[start as usize].is_empty() || self.tarjan.stamp[start as usize] == epoch {
                continue;
            }
            visit(&mut self.tarjan, start, &mut counter, &mut stack);
            calls.push((start, 0));
            while let Some(&(v, i)) = calls.last() {
                let vi = v as usize;
                if i < self.succ[vi].len() {
                    calls.last_mut().expect("a frame").1 += 1;
                    let w = self.find_shared(self.succ[vi][i]);
                    let wi = w as usize;
                    if w == v {
                        continue;
                    }
                    let t = &mut self.tarjan;
                    if t.stamp[wi] != epoch {
                        visit(t, w, &mut counter, &mut stack);
                        calls.push((w, 0));
                    } else if t.on_stack[wi] {
                        t.low[vi] = t.low[vi].min(t.index[wi]);
                    }
                    continue;
                }
                calls.pop();
                let t = &mut self.tarjan;
                if let Some(&(parent, _)) = calls.last() {
                    let pi = parent as usize;
                    t.low[pi] = t.low[pi].min(t.low[vi]);
                }
                if t.low[vi] == t.index[vi] {
                    let mut component = Vec::new();
                    emitted += 1;
                    loop {
                        let x = stack.pop().expect("v is on the stack");
                        t.on_stack[x as usize] = false;
                        if rank {
                            self.rank[x as usize] = u32::MAX - 1 - emitted;
                        }
                        component.push(x);
                        if x == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        components.push(component);
                    }
                }
            }
        }
        if !self.collapse {
            return;
        }
        for component in components {
            self.merge(gen, component);
        }
    }

    /// Collapses the representatives of a cycle into the smallest one. Each member
    /// first catches up: its edges and complex constraints get the cells of the union
    /// it has not propagated yet, so no constraint sees a cell twice.
    fn merge(&mut self, gen: &mut Generator, mut members: Vec<PVar>) {
        members.sort_unstable();
        let rep = members[0];
        let ri = rep as usize;
        self.stats.collapsed += members.len() as u64 - 1;
        let width = members
            .iter()
            .map(|&m| self.pts[m as usize].len())
            .max()
            .unwrap_or(0);
        let mut all = vec![0u64; width];
        for &m in &members {
            for (a, p) in all.iter_mut().zip(&self.pts[m as usize]) {
                *a |= p;
            }
        }
        let mut detached = Vec::with_capacity(members.len());
        for &m in &members {
            let mi = m as usize;
            let done = difference(&self.pts[mi], &self.delta[mi]);
            let missing = difference(&all, &done);
            let succ = std::mem::take(&mut self.succ[mi]);
            let watch = std::mem::take(&mut self.watch[mi]);
            self.parent[mi] = rep;
            self.pts[mi] = Vec::new();
            self.size[mi] = 0;
            self.version[mi] = self.version[mi].wrapping_add(1);
            self.low[mi] = u32::MAX;
            self.delta_low[mi] = u32::MAX;
            self.delta_high[mi] = 0;
            self.delta[mi] = Vec::new();
            detached.push((missing, succ, watch));
        }
        self.parent[ri] = rep;
        self.size[ri] = all.iter().map(|w| w.count_ones()).sum();
        self.low[ri] = all
            .iter()
            .position(|&w| w != 0)
            .map_or(u32::MAX, |i| i as u32);
        self.pts[ri] = all;
        // Catching up below may add cells to the representative: they are pending.
        // A successor of a member has the cells that member propagated, so once it
        // has caught up with one member, it holds the whole union.
        self.merges += 1;
        for (missing, succ, watch) in &detached {
            let lo = missing.iter().position(|&w| w != 0);
            let Some(lo) = lo else { continue };
            let words = nonzero_words(&missing[lo..], lo);
            for &w in succ {
                let w = self.find(w);
                if w == rep {
                    continue;
                }
                if self.caught_up[w as usize] == self.merges {
                    self.stats.work += (missing.len() - lo) as u64;
                } else {
                    self.caught_up[w as usize] = self.merges;
                    self.union_sparse(w, (missing.len() - lo) as u64, &words);
                }
            }
            self.complex(gen, watch, &words, None);
        }
        let mut succ = std::mem::take(&mut self.succ[ri]);
        let mut watch = std::mem::take(&mut self.watch[ri]);
        for (_, s, w) in detached {
            succ.extend(s);
            watch.absorb(w);
        }
        for s in &mut succ {
            *s = self.find(*s);
        }
        succ.retain(|&s| s != rep);
        succ.sort_unstable();
        succ.dedup();
        for &s in &succ {
            self.new_edge(rep, s);
        }
        self.succ[ri] = succ;
        // Constraints of several members may now coincide.
        self.normalize(&mut watch);
        self.watch[ri] = watch;
    }

    /// Resolves the pvars of complex constraints to their representatives and drops
    /// the constraints that have become the same.
    fn normalize(&mut self, watch: &mut Watch) {
        for (_, d) in &mut watch.shifts {
            *d = self.find(*d);
        }
        watch.shifts.sort_unstable();
        watch.shifts.dedup();
        for list in [
            &mut watch.loads,
            &mut watch.stores,
            &mut watch.block_src,
            &mut watch.block_dst,
        ] {
            for x in list.iter_mut() {
                *x = self.find(*x);
            }
            list.sort_unstable();
            list.dedup();
        }
    }

    /// [`Andersen::normalize`] for every pvar (after substitution has merged the
    /// pvars of constraints installed since).
    pub(super) fn normalize_all(&mut self) {
        for v in 0..self.watch.len() {
            if self.parent[v] == v as PVar && !self.watch[v].is_empty() {
                let mut watch = std::mem::take(&mut self.watch[v]);
                self.normalize(&mut watch);
                self.watch[v] = watch;
            }
        }
    }
}

/// Grows a points-to set and its delta to `len` words.
fn grow(pts: &mut Vec<u64>, delta: &mut Vec<u64>, len: usize) {
    if pts.len() < len {
        pts.resize(len, 0);
    }
    if delta.len() < len {
        delta.resize(len, 0);
    }
}

/// What a pvar's set is made of, for offline variable substitution: the label of an
/// address, of what a load through a pointer class reads, of a pointer class shifted
/// by an offset, or of a union of several labels.
#[derive(Clone, PartialEq, Eq, Hash)]
enum LabelKey {
    Addr(PVar),
    Load(u32),
    Shift(u32, Option<i64>),
    Union(Vec<u32>),
}

/// An input of a pvar in the offline constraint graph.
#[derive(Clone, Copy)]
enum Input {
    Copy(PVar),
    Base(PVar),
    Load(PVar),
    Shift(PVar, Option<i64>),
}

impl Andersen {
    /// Offline variable substitution (hash-based value numbering, HVN, after Hardekopf
    /// and Lin, "Exploiting Pointer and Location Equivalence to Optimize Pointer
    /// Analysis", SAS 2007, section 3, extended to loads and field shifts): before
    /// solving, every pvar gets a label such that pvars with the same label have the
    /// same set in every solution of the constraints, and each class of equal labels
    /// becomes one pvar (the smallest). Labels are computed in topological order of the
    /// graph of inputs: an address is labelled by its cell; a load by the label of its
    /// pointer, a shift by the label of its pointer and the offset (equal pointers point
    /// to the same cells, so they read and shift to the same cells); a pvar with one
    /// input label has it, one with several gets the label of that set, one with none
    /// is empty in every solution (label 0). Pvars that may get inputs the offline graph
    /// does not show, or on a cycle of inputs, get a label of their own: cells (stores
    /// and block copies write them), the parameters of functions whose address is taken
    /// (bound at calls through pointers found while solving, or from outside once the
    /// address escapes) and the results of calls through pointers. Returns the number
    /// of pvars substituted.
    pub(super) fn substitute(&mut self, gen: &Generator) -> u64 {
        let n = gen.next as usize;
        self.grow(n);
        let mut own = vec![false; n];
        for &cell in gen.cell_info.keys() {
            own[cell as usize] = true;
        }
        for (f, function) in gen.program.functions.iter_enumerated() {
            // Only a function whose address is taken may be bound while solving.
            if !gen.object_ids.contains_key(&super::Object::Function(f)) {
                continue;
            }
            for &p in &function.params {
                if function.locals[p].storage == ripple_ir::Storage::Register {
                    own[gen.reg(f, p) as usize] = true;
                }
            }
        }
        for call in &gen.indirect {
            if let Some(super::ResultTarget::Reg(r)) = call.result {
                own[r as usize] = true;
            }
        }
        let mut inputs: Vec<Vec<Input>> = vec![Vec::new(); n];
        for c in &gen.constraints {
            match *c {
                Constraint::Base(d, cell) => inputs[d as usize].push(Input::Base(cell)),
                Constraint::Copy(d, s) if d != s => inputs[d as usize].push(Input::Copy(s)),
                Constraint::Copy(..) => {}
                Constraint::Shift(d, s, by) => inputs[d as usize].push(Input::Shift(s, by)),
                Constraint::Load(d, a) => inputs[d as usize].push(Input::Load(a)),
                Constraint::Store(..) | Constraint::CopyBlock(..) => {}
            }
        }
        let from = |i: &Input| match *i {
            Input::Copy(s) | Input::Load(s) | Input::Shift(s, _) => Some(s),
            Input::Base(_) => None,
        };
        // Tarjan over the inputs: a component is finished after those it reads from.
        let mut index = vec![u32::MAX; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<PVar> = Vec::new();
        let mut calls: Vec<(PVar, usize)> = Vec::new();
        let mut counter = 0u32;
        let mut label = vec![0u32; n];
        let mut labels: FxHashMap<LabelKey, u32> = FxHashMap::default();
        let mut next_label = 1u32;
        let mut intern = |key: LabelKey, next_label: &mut u32| -> u32 {
            *labels.entry(key).or_insert_with(|| {
                *next_label += 1;
                *next_label - 1
            })
        };
        for root in 0..n as PVar {
            if index[root as usize] != u32::MAX {
                continue;
            }
            index[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            on_stack[root as usize] = true;
            stack.push(root);
            calls.push((root, 0));
            while let Some(&(v, i)) = calls.last() {
                let vi = v as usize;
                if i < inputs[vi].len() {
                    calls.last_mut().expect("a frame").1 += 1;
                    let Some(w) = from(&inputs[vi][i]) else {
                        continue;
                    };
                    let wi = w as usize;
                    if index[wi] == u32::MAX {
                        index[wi] = counter;
                        low[wi] = counter;
                        counter += 1;
                        on_stack[wi] = true;
                        stack.push(w);
                        calls.push((w, 0));
                    } else if on_stack[wi] {
                        low[vi] = low[vi].min(index[wi]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent as usize] = low[parent as usize].min(low[vi]);
                }
                if low[vi] != index[vi] {
                    continue;
                }
                let top = stack
                    .iter()
                    .rposition(|&x| x == v)
                    .expect("v is on the stack");
                let component: Vec<PVar> = stack.drain(top..).collect();
                for &x in &component {
                    on_stack[x as usize] = false;
                }
                let cyclic = component.len() > 1 || inputs[vi].iter().any(|i| from(i) == Some(v));
                if cyclic || own[vi] {
                    for &x in &component {
                        label[x as usize] = next_label;
                        next_label += 1;
                    }
                    continue;
                }
                let mut parts: Vec<u32> = Vec::with_capacity(inputs[vi].len());
                for input in &inputs[vi] {
                    let part = match *input {
                        Input::Copy(s) => label[s as usize],
                        Input::Base(cell) => intern(LabelKey::Addr(cell), &mut next_label),
                        Input::Load(a) if label[a as usize] != 0 => {
                            intern(LabelKey::Load(label[a as usize]), &mut next_label)
                        }
                        Input::Shift(s, by) if label[s as usize] != 0 => {
                            intern(LabelKey::Shift(label[s as usize], by), &mut next_label)
                        }
                        Input::Load(_) | Input::Shift(..) => 0,
                    };
                    if part != 0 {
                        parts.push(part);
                    }
                }
                parts.sort_unstable();
                parts.dedup();
                label[vi] = match parts.len() {
                    0 => 0,
                    1 => parts[0],
                    _ => intern(LabelKey::Union(parts), &mut next_label),
                };
            }
        }
        // Each class becomes its smallest pvar.
        let mut first: FxHashMap<u32, PVar> = FxHashMap::default();
        let mut substituted = 0;
        for v in 0..n as PVar {
            let rep = *first.entry(label[v as usize]).or_insert(v);
            if rep != v {
                self.parent[v as usize] = rep;
                substituted += 1;
            }
        }
        substituted
    }
}

/// Whether cell index `bit` is in a set's words.
fn has(words: &[u64], bit: u32) -> bool {
    words
        .get((bit / 64) as usize)
        .is_some_and(|w| w & (1 << (bit % 64)) != 0)
}

impl Andersen {
    /// The words of a pvar's solved set (its representative's).
    fn solved_set(&self, pv: PVar) -> &[u64] {
        self.pts
            .get(self.representative(pv) as usize)
            .map_or(&[][..], Vec::as_slice)
    }

    /// A shortest derivation of `object` in the set of `from`: the pvars through which
    /// the solved sets let a cell of the object reach `from`, from the constraint that
    /// takes its address, each with the kind of step into the next. A diagnostic of
    /// where precision is lost ([`super::PointsToConfig::explain`]).
    pub(super) fn derivation(
        &self,
        gen: &Generator,
        from: PVar,
        object: u32,
    ) -> Vec<(PVar, &'static str)> {
        let set = |pv: PVar| self.solved_set(pv);
        let wanted: Vec<u32> = (0..self.cell_object.len() as u32)
            .filter(|&c| self.cell_object[c as usize] == object)
            .collect();
        let holding: Vec<bool> = (0..gen.next)
            .map(|pv| wanted.iter().any(|&c| has(set(pv), c)))
            .collect();
        let holds = |pv: PVar| holding.get(pv as usize).copied().unwrap_or(false);
        let cell_bit = |pv: PVar| -> Option<u32> {
            self.cell_index
                .get(pv as usize)
                .copied()
                .filter(|&i| i != u32::MAX)
        };
        // The cells whose own set holds it, which is what a load can read it from.
        let holding_cells: Vec<u32> = (0..self.cell_pvar.len() as u32)
            .filter(|&c| holds(self.cell_pvar[c as usize]))
            .collect();
        // Constraints by destination; stores whose source holds it, by the set of
        // cells they may write (sets repeat: a large program has thousands of stores
        // through a few distinct sets); block copies by the objects they may write.
        let mut into: FxHashMap<PVar, Vec<&Constraint>> = FxHashMap::default();
        let mut stores: FxHashMap<&[u64], Vec<PVar>> = FxHashMap::default();
        let mut blocks: FxHashMap<u32, Vec<PVar>> = FxHashMap::default();
        for c in &gen.constraints {
            match *c {
                Constraint::Base(d, _)
                | Constraint::Copy(d, _)
                | Constraint::Shift(d, _, _)
                | Constraint::Load(d, _) => into.entry(d).or_default().push(c),
                Constraint::Store(a, s) if holds(s) => {
                    stores.entry(set(a)).or_default().push(s);
                }
                Constraint::CopyBlock(d, s) => {
                    let mut objects: Vec<u32> =
                        bits(set(d)).map(|c| self.cell_object[c as usize]).collect();
                    objects.sort_unstable();
                    objects.dedup();
                    for o in objects {
                        blocks.entry(o).or_default().push(s);
                    }
                }
                Constraint::Store(..) => {}
            }
        }
        // Per set of cells loaded from, those of its cells that hold the object.
        let mut loads_from: FxHashMap<&[u64], Vec<u32>> = FxHashMap::default();
        let mut previous: FxHashMap<PVar, (PVar, &'static str)> = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([from]);
        previous.insert(from, (from, "start"));
        let mut origin = None;
        while let Some(v) = queue.pop_front() {
            let mut next: Vec<(PVar, &'static str)> = Vec::new();
            for c in into.get(&v).map_or(&[][..], Vec::as_slice) {
                match **c {
                    Constraint::Base(_, cell)
                        if cell_bit(cell).is_some_and(|b| wanted.contains(&b)) =>
                    {
                        origin = Some(v);
                    }
                    Constraint::Copy(_, s) if holds(s) => next.push((s, "copy")),
                    Constraint::Shift(_, s, _) if holds(s) => next.push((s, "shift")),
                    Constraint::Load(_, a) => {
                        let read = set(a);
                        let from = loads_from.entry(read).or_insert_with(|| {
                            holding_cells
                                .iter()
                                .copied()
                                .filter(|&c| has(read, c))
                                .collect()
                        });
                        for &c in from.iter() {
                            next.push((self.cell_pvar[c as usize], "load"));
                        }
                    }
                    _ => {}
                }
            }
            if origin.is_some() {
                break;
            }
            if let Some(bit) = cell_bit(v) {
                for (_, sources) in stores.iter().filter(|(written, _)| has(written, bit)) {
                    next.extend(sources.iter().map(|&s| (s, "store")));
                }
                let target = self.cell_object[bit as usize];
                for &s in blocks.get(&target).map_or(&[][..], Vec::as_slice) {
                    for c in bits(set(s)) {
                        let cell = self.cell_pvar[c as usize];
                        if holds(cell) {
                            next.push((cell, "block copy"));
                        }
                    }
                }
            }
            for (w, how) in next {
                if let std::collections::hash_map::Entry::Vacant(e) = previous.entry(w) {
                    e.insert((v, how));
                    queue.push_back(w);
                }
            }
        }
        let Some(mut at) = origin else {
            return Vec::new();
        };
        let mut path = vec![(at, "address")];
        while at != from {
            let (back, _) = previous[&at];
            let how = previous[&at].1;
            path.push((back, how));
            at = back;
        }
        path
    }

    /// How many of the constraints of `gen` the solution does not satisfy: a check
    /// that it is a fixpoint, for tests. Loads, stores and block copies are checked
    /// once per distinct set of their pointer.
    pub(super) fn violations(&self, gen: &Generator) -> u64 {
        let set = |pv: PVar| self.solved_set(pv);
        let includes = |big: &[u64], small: &[u64]| {
            small
                .iter()
                .enumerate()
                .all(|(i, &w)| w & !big.get(i).copied().unwrap_or(0) == 0)
        };
        let or = |into: &mut Vec<u64>, words: &[u64]| {
            if into.len() < words.len() {
                into.resize(words.len(), 0);
            }
            for (a, b) in into.iter_mut().zip(words) {
                *a |= b;
            }
        };
        // By object: the union of the sets of its cells, and its unknown-offset cell's.
        let objects = self.any_cell.len();
        let mut whole: Vec<Vec<u64>> = vec![Vec::new(); objects];
        for (c, &object) in self.cell_object.iter().enumerate() {
            or(&mut whole[object as usize], set(self.cell_pvar[c]));
        }
        let any_set = |object: u32| -> Option<&[u64]> {
            let any = self.any_cell[object as usize];
            (any != u32::MAX).then(|| set(self.cell_pvar[any as usize]))
        };
        // By pointer set: what a load reads (None if a cell it reads has none), the
        // intersection of what a store writes into (None if empty), and the objects.
        let mut reads: FxHashMap<&[u64], Option<Vec<u64>>> = FxHashMap::default();
        let mut written: FxHashMap<&[u64], Option<Vec<u64>>> = FxHashMap::default();
        let mut bad = 0;
        for c in &gen.constraints {
            let ok = match *c {
                Constraint::Base(d, cell) => has(set(d), self.cell_index[cell as usize]),
                Constraint::Copy(d, s) => includes(set(d), set(s)),
                Constraint::Shift(d, s, by) => bits(set(s)).all(|c| {
                    let target = match by {
                        None => self.any_cell[self.cell_object[c as usize] as usize],
                        Some(k) => self
                            .offset_ids
                            .get(&k)
                            .and_then(|&o| self.shift_memo[o].get(c as usize).copied())
                            .unwrap_or(u32::MAX),
                    };
                    target != u32::MAX && has(set(d), target)
                }),
                Constraint::Load(d, a) => {
                    let read = reads.entry(set(a)).or_insert_with_key(|&pts| {
                        let mut read = Vec::new();
                        for c in bits(pts) {
                            let object = self.cell_object[c as usize];
                            if self.cell_offset[c as usize].is_some() {
                                or(&mut read, set(self.cell_pvar[c as usize]));
                                or(&mut read, any_set(object)?);
                            } else {
                                or(&mut read, &whole[object as usize]);
                            }
                        }
                        Some(read)
                    });
                    read.as_ref().is_some_and(|read| includes(set(d), read))
                }
                Constraint::Store(a, s) => {
                    let into = written.entry(set(a)).or_insert_with_key(|&pts| {
                        let mut cells = bits(pts);
                        let first = cells.next()?;
                        let mut common = set(self.cell_pvar[first as usize]).to_vec();
                        for c in cells {
                            let words = set(self.cell_pvar[c as usize]);
                            for (i, w) in common.iter_mut().enumerate() {
                                *w &= words.get(i).copied().unwrap_or(0);
                            }
                        }
                        Some(common)
                    });
                    into.as_ref()
                        .map_or(set(a).iter().all(|&w| w == 0), |into| {
                            includes(into, set(s))
                        })
                }
                Constraint::CopyBlock(d, s) => {
                    let mut copied = Vec::new();
                    let mut seen = FxHashSet::default();
                    for c in bits(set(s)) {
                        let object = self.cell_object[c as usize];
                        if seen.insert(object) {
                            or(&mut copied, &whole[object as usize]);
                        }
                    }
                    let mut targets = FxHashSet::default();
                    bits(set(d)).all(|c| {
                        let object = self.cell_object[c as usize];
                        !targets.insert(object)
                            || any_set(object).is_some_and(|any| includes(any, &copied))
                    })
                }
            };
            if !ok {
                bad += 1;
            }
        }
        bad
    }
}
