//! Equivalence of acyclic code of two versions, for change-semantics-aware impact
//! (Gyori, Lahiri and Partush, 000 section 4): changed statements that provably do what
//! the old ones did are no source of impact.
//!
//! A *region* is the changed code at one place of a version: unmapped nodes entered from
//! one mapped node, acyclic, left towards mapped nodes (its *exits*, paired with the
//! other version's). Two regions are equivalent when, started from any common state,
//! they leave by the same exit under the same condition, in the same state there: every
//! register either writes (registers matched by name and width) holds the same value, and
//! the memory is the same array; they make the same calls with the same arguments and
//! memory; and they stop the program on the same states. A register that only one
//! version has, or a temporary of the lowering, must be read nowhere else in its
//! function. Paths are merged as they join (if-then-else terms), so the size of the
//! query is linear in the region's.
//!
//! When regions differ, two finer answers remain: the calls that run exactly when their
//! partners do, with which arguments are equal ([`Comparison::paired_calls`]), and the
//! statements whose writes are the same after the change
//! ([`Comparison::unchanged_nodes`]). Both regions are executed once ([`Comparison`]).
//!
//! "Stop on the same states": a division traps when its divisor is zero (or on
//! `INT_MIN / -1`), so the disjunctions of both regions' trap conditions (each under the
//! condition of the path it is on) must be equivalent; a load faults at an address the
//! solver knows nothing of, so every load of one region must have, whenever it runs, a
//! load of the same size at an equal address that runs in the other. With those, a region
//! that faults or traps does so in both versions. Stores are matched the same way (a
//! store may fault where a load at the same address does not: read-only memory), except
//! stores into a local or a writable global at a constant offset.
//!
//! Calls must run on every path through the region (so that they are ordered the same
//! way on all paths); they split the regions into segments: the k-th call of one must
//! call the same function (by key; through a pointer, the same address) as the k-th call
//! of the other, with equal arguments and equal memory, and the segments before it must
//! stop on the same states (a trap before a call that prints is not a trap after it).
//! After the k-th call, the memory and the result are fresh symbols shared by both
//! versions: the callee did the same thing in both.
//!
//! When the calls of the two regions do not pair up that way (a helper extracted from
//! the old code, or inlined into the new), both regions are executed again with each
//! call of a small defined function inlined: a function without calls or loops whose
//! locals are all registers ([`MAX_INLINED`] nodes at most) runs in the caller's state,
//! its parameters bound to the arguments, its loads, stores and traps those of the
//! region; its result is its return variable at its exit.
//!
//! The common state is universally quantified (restricted, when the caller knows it, to
//! globals holding given values: [`Comparison::assume`]): registers, the memory array and the
//! addresses of locals, globals (by key) and functions (by key) are free symbols shared
//! by both versions. Distinct objects may then have equal addresses, which only adds
//! states: a proof over all of them holds for the real ones. Encoding as in the rest of
//! the crate (`encode`): C on LP64 with `-fwrapv`, IEEE floats.

use rustc_hash::{FxHashMap, FxHashSet};
use z3::ast::{Array, Bool, BV};

use ripple_ir::{Expr, ExprKind, FuncId, Function, NodeId, NodeKind, Place, Program, VarId};

use crate::encode::{self, bv_const, load, resize, store, Repr};
use crate::smt::{and_all, or_all, Answer, Budget, Smt};

/// Regions larger than this (in nodes, per version) are not compared.
const MAX_REGION: usize = 64;

/// Functions larger than this (in nodes) are not inlined.
const MAX_INLINED: usize = 64;

/// Loads and stores of more bytes than this (a record copy) are not compared: each byte
/// is a term of its own, and a copy of a 64 KiB record (zlib's `zip64_internal`) took
/// gigabytes before the solver's limits applied. Such a region stays a source.
const MAX_VALUE_BYTES: u32 = 1024;

/// The changed code at one place of one version: acyclic `nodes` entered at `start`
/// (a region node, or, for an empty region, the exit it goes to), left towards `exits`,
/// which are paired by position with the other version's.
#[derive(Clone, Copy)]
pub struct Region<'a> {
    pub program: &'a Program,
    pub function: &'a Function,
    pub nodes: &'a [NodeId],
    pub start: NodeId,
    pub exits: &'a [NodeId],
    /// Registers that stand for the same value in both versions, with a name shared by
    /// the two versions: temporaries of the lowering set by one statement each, a mapped
    /// pair, and renamed locals ([`renamed_registers`]); every other temporary is this
    /// version's own.
    pub shared_temps: &'a [(VarId, String)],
    /// Names of functions and globals shared by both versions (partners by the
    /// version matching have the same name).
    pub names: Names<'a>,
}

/// Names of functions and globals that partners share across versions.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub function: &'a dyn Fn(ripple_ir::FuncId) -> String,
    pub global: &'a dyn Fn(ripple_ir::GlobalId) -> String,
}

/// Locals renamed between two versions of a function ([`Function::renamed_locals`]),
/// when every pair has the same width; none otherwise.
pub fn renamed_registers(
    old: (&Program, &Function),
    new: (&Program, &Function),
) -> Vec<(VarId, VarId)> {
    let pairs = old.1.renamed_locals(new.1);
    let width = |(program, function): (&Program, &Function), v: VarId| {
        Repr::of(&program.types, function.locals[v].ty).bits()
    };
    if pairs.iter().any(|&(x, y)| width(old, x) != width(new, y)) {
        return Vec::new();
    }
    pairs
}

/// What the solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Same exits, final states, calls and stops from every common initial state.
    Equivalent,
    /// A common state on which they differ exists.
    Different,
    /// Not decided: the budget ran out, or the code is outside what is compared (the
    /// reason).
    Unknown(&'static str),
}

/// Two regions executed symbolically from one common state, once, for the questions
/// below.
pub struct Comparison<'a> {
    sides: [Side<'a>; 2],
    /// Both regions again with their calls of small functions inlined, when the calls
    /// do not pair up and both could be.
    inlined: Option<[Side<'a>; 2]>,
    /// What is known of the common initial state ([`Comparison::assume`]).
    assumed: Bool,
}

/// A global that holds a known value where both regions start, in every run that
/// reaches them: `bytes` bytes at `offset` in the global named `global` (its name shared
/// by both versions, [`Names::global`]) hold `value` (little-endian).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownGlobal {
    pub global: String,
    pub offset: u64,
    pub bytes: u32,
    pub value: u128,
}

impl<'a> Comparison<'a> {
    /// Executes both regions; the reason when one holds what is not compared.
    pub fn new(old: Region<'a>, new: Region<'a>) -> Result<Self, &'static str> {
        let run = |inline: bool| -> Result<[Side<'a>; 2], &'static str> {
            let mut sides = [Side::new(old, "old"), Side::new(new, "new")];
            for side in &mut sides {
                side.inline = inline;
                side.execute()?;
            }
            Ok(sides)
        };
        let plain = run(false);
        let paired = plain.as_ref().is_ok_and(|[a, b]| {
            a.calls.len() == b.calls.len()
                && a.calls
                    .iter()
                    .zip(&b.calls)
                    .all(|(x, y)| x.callee == y.callee)
        });
        let inlined = if paired { None } else { run(true).ok() };
        let (sides, inlined) = match (plain, inlined) {
            (Ok(sides), inlined) => (sides, inlined),
            (Err(_), Some(sides)) => (sides, None),
            (Err(reason), None) => return Err(reason),
        };
        Ok(Comparison {
            sides,
            inlined,
            assumed: Bool::from_bool(true),
        })
    }

    /// Restricts the common initial state to the one where these globals hold these
    /// values; sound when they do in every run reaching both regions (for a global of
    /// both versions, in both).
    pub fn assume(&mut self, known: &[KnownGlobal]) {
        let mem = State::initial().mem;
        let mut facts = vec![self.assumed.clone()];
        for k in known {
            let base = address(&format!("global.{}", k.global));
            let at = base.bvadd(BV::from_u64(k.offset, 64));
            facts.push(load(&mem, &at, k.bytes).eq(bv_const(k.value, k.bytes * 8)));
        }
        self.assumed = and_all(&facts);
    }

    /// Whether the two regions leave by the same exits in the same states, from every
    /// common state; with the calls (node, callee) of each region whose callees the
    /// proof inlined (none unless it did).
    pub fn equivalent(&self, budget: Budget) -> (Proof, [Vec<(NodeId, FuncId)>; 2]) {
        let proof = regions_equivalent(&self.sides, &self.assumed, budget);
        let inlined = |sides: &[Side<'_>; 2]| [sides[0].inlined.clone(), sides[1].inlined.clone()];
        match &self.inlined {
            Some(again) if proof != Proof::Equivalent => {
                match regions_equivalent(again, &self.assumed, budget) {
                    Proof::Equivalent => (Proof::Equivalent, inlined(again)),
                    _ => (proof, Default::default()),
                }
            }
            _ if proof == Proof::Equivalent => (proof, inlined(&self.sides)),
            _ => (proof, Default::default()),
        }
    }

    /// The nodes of the regions that are no source of impact although the regions differ
    /// (`unchanged_nodes` below).
    pub fn unchanged_nodes(&self, budget: Budget) -> Option<[Vec<NodeId>; 2]> {
        let sides = self.inlined.as_ref().unwrap_or(&self.sides);
        unchanged_nodes(sides, &self.assumed, budget)
    }

    /// The calls that run exactly when their partners do (`paired_calls` below).
    pub fn paired_calls(&self, budget: Budget) -> Vec<CallPair> {
        paired_calls(&self.sides, &self.assumed, budget)
    }
}

fn regions_equivalent(sides: &[Side<'_>; 2], assumed: &Bool, budget: Budget) -> Proof {
    let [a, b] = sides;
    if a.region.exits.len() != b.region.exits.len() {
        return Proof::Unknown("the regions have different exits");
    }
    if a.calls.len() != b.calls.len() {
        return Proof::Unknown("the regions make different numbers of calls");
    }
    let mut goal = Vec::new();
    for (x, y) in a.calls.iter().zip(&b.calls) {
        if x.callee != y.callee || x.args.len() != y.args.len() {
            return Proof::Different;
        }
        if let (Some(u), Some(v)) = (&x.target, &y.target) {
            goal.push(u.eq(v));
        }
        for (u, v) in x.args.iter().zip(&y.args) {
            if u.get_size() != v.get_size() {
                return Proof::Unknown("call arguments of different widths");
            }
            goal.push(u.eq(v));
        }
        goal.push(x.mem.eq(&y.mem));
    }
    // Registers written by either region, by name and width.
    let mut names: Vec<(String, u32)> = a.written.iter().chain(&b.written).cloned().collect();
    names.sort();
    names.dedup();
    let mut compared = Vec::new();
    for key in names {
        let (in_a, in_b) = (a.var_of(&key), b.var_of(&key));
        if in_a.is_none() || in_b.is_none() {
            // A register of one version only (a temporary of the lowering, or a local of
            // one version) must be dead after its region.
            let dead = match (in_a, in_b) {
                (Some(v), None) => !a.read_outside(v),
                (None, Some(v)) => !b.read_outside(v),
                _ => false,
            };
            if dead {
                continue;
            }
            return Proof::Unknown("a register of one version is used after the change");
        }
        compared.push(key);
    }
    for (x, y) in a.exits.iter().zip(&b.exits) {
        let mut same = vec![x.mem.eq(&y.mem)];
        for key in &compared {
            same.push(x.value_of(key).eq(y.value_of(key)));
        }
        goal.push(x.pc.eq(&y.pc));
        goal.push(x.pc.implies(and_all(&same)));
    }
    for (x, y) in a.segments.iter().zip(&b.segments) {
        goal.extend(same_stops(x, y));
    }
    decide(assumed, &and_all(&goal), budget)
}

/// The nodes of two regions that are no source of impact although the regions differ:
/// assignments to a register that has the same value in both versions whichever way the
/// regions are left (or that is dead after them), assignments to memory when the memory
/// is the same there and at every call, branches when the regions are left the same way,
/// and skips; `None` unless both regions stop the program on the same states. Calls are
/// left to [`Comparison::paired_calls`].
fn unchanged_nodes(
    sides: &[Side<'_>; 2],
    assumed: &Bool,
    budget: Budget,
) -> Option<[Vec<NodeId>; 2]> {
    let [a, b] = sides;
    if a.segments.len() != b.segments.len() || a.region.exits.len() != b.region.exits.len() {
        return None;
    }
    let stops: Vec<Bool> = a
        .segments
        .iter()
        .zip(&b.segments)
        .flat_map(|(x, y)| same_stops(x, y))
        .collect();
    if decide(assumed, &and_all(&stops), budget) != Proof::Equivalent {
        return None;
    }
    // The value whichever exit is taken.
    let left = |side: &Side<'_>, value: &dyn Fn(&State) -> BV| -> Option<BV> {
        let mut out: Option<BV> = None;
        for st in side.exits.iter().rev() {
            let v = value(st);
            out = Some(match out {
                None => v,
                Some(rest) => st.pc.ite(&v, &rest),
            });
        }
        out
    };
    let mut equal_keys: FxHashSet<(String, u32)> = FxHashSet::default();
    let mut keys: Vec<(String, u32)> = a.written.iter().chain(&b.written).cloned().collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let equal = match (a.var_of(&key), b.var_of(&key)) {
            (Some(_), Some(_)) => match (
                left(a, &|st| st.value_of(&key)),
                left(b, &|st| st.value_of(&key)),
            ) {
                (Some(x), Some(y)) => decide(assumed, &x.eq(&y), budget) == Proof::Equivalent,
                _ => false,
            },
            (Some(v), None) => !a.read_outside(v),
            (None, Some(v)) => !b.read_outside(v),
            (None, None) => false,
        };
        if equal {
            equal_keys.insert(key);
        }
    }
    let memory_equal = a.calls.len() == b.calls.len() && {
        let mut same: Vec<Bool> = a
            .calls
            .iter()
            .zip(&b.calls)
            .map(|(x, y)| x.mem.eq(&y.mem))
            .collect();
        // The memory whichever exit is taken.
        let left_mem = |side: &Side<'_>| -> Option<Array> {
            let mut out: Option<Array> = None;
            for st in side.exits.iter().rev() {
                out = Some(match out {
                    None => st.mem.clone(),
                    Some(rest) => st.pc.ite(&st.mem, &rest),
                });
            }
            out
        };
        match (left_mem(a), left_mem(b)) {
            (Some(x), Some(y)) => same.push(x.eq(&y)),
            _ => same.push(Bool::from_bool(false)),
        }
        decide(assumed, &and_all(&same), budget) == Proof::Equivalent
    };
    let same_way = {
        let pcs: Vec<Bool> = a
            .exits
            .iter()
            .zip(&b.exits)
            .map(|(x, y)| x.pc.eq(&y.pc))
            .collect();
        decide(assumed, &and_all(&pcs), budget) == Proof::Equivalent
    };
    let unchanged = |side: &Side<'_>| -> Vec<NodeId> {
        let region = side.region;
        let mut out: Vec<NodeId> = Vec::new();
        for &n in region.nodes {
            let keep = match &region.function.nodes[n].kind {
                NodeKind::Skip => true,
                NodeKind::Branch { .. } => same_way,
                NodeKind::Assign { .. } => side.writers.iter().any(|(w, target)| {
                    *w == n
                        && match target {
                            Some(key) => equal_keys.contains(key),
                            None => memory_equal,
                        }
                }),
                _ => false,
            };
            if keep {
                out.push(n);
            }
        }
        out
    };
    Some([unchanged(a), unchanged(b)])
}

/// A call of one region paired with the call at the same position of the other: their
/// nodes, and per argument whether it provably has the same value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallPair {
    pub old: NodeId,
    pub new: NodeId,
    pub equal_args: Vec<bool>,
}

/// The calls two regions make in the same order to the same functions (through a
/// pointer: to a provably equal address), each reached on the same states (the code
/// before it stops the program on the same states), with which arguments provably have
/// the same values; empty when the regions cannot be compared or differ in their calls.
/// Such a call runs in one version exactly when its partner runs in the other.
fn paired_calls(sides: &[Side<'_>; 2], assumed: &Bool, budget: Budget) -> Vec<CallPair> {
    let [a, b] = sides;
    if a.calls.len() != b.calls.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stops = Vec::new();
    for (k, (x, y)) in a.calls.iter().zip(&b.calls).enumerate() {
        stops.extend(same_stops(&a.segments[k], &b.segments[k]));
        if x.callee != y.callee || x.args.len() != y.args.len() {
            break;
        }
        let mut reached = stops.clone();
        if let (Some(u), Some(v)) = (&x.target, &y.target) {
            reached.push(u.eq(v));
        }
        if decide(assumed, &and_all(&reached), budget) != Proof::Equivalent {
            break;
        }
        let equal_args = x
            .args
            .iter()
            .zip(&y.args)
            .map(|(u, v)| {
                u.get_size() == v.get_size()
                    && decide(assumed, &u.eq(v), budget) == Proof::Equivalent
            })
            .collect();
        out.push(CallPair {
            old: x.node,
            new: y.node,
            equal_args,
        });
    }
    out
}

/// Facts saying both sides stop the program on the same states: equal trap conditions,
/// and every load that runs in one has a load of its size at an equal address that runs
/// in the other.
fn same_stops(a: &Segment, b: &Segment) -> Vec<Bool> {
    let mut facts = vec![or_all(&a.traps).eq(or_all(&b.traps))];
    for (x, y) in [(a, b), (b, a)] {
        for (mine, theirs) in [(&x.loads, &y.loads), (&x.stores, &y.stores)] {
            for (pc, addr, bytes) in mine {
                let partners: Vec<Bool> = theirs
                    .iter()
                    .filter(|(_, _, n)| n == bytes)
                    .map(|(other_pc, other, _)| Bool::and(&[other_pc.clone(), addr.eq(other)]))
                    .collect();
                facts.push(pc.implies(or_all(&partners)));
            }
        }
    }
    facts
}

thread_local! {
    /// Work units the comparisons of this thread have spent (see [`work_spent`]).
    static SPENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Work units every comparison of this thread has spent so far: callers comparing many
/// regions bound the whole by it (deterministic, unlike the time it takes).
pub fn work_spent() -> u64 {
    SPENT.with(std::cell::Cell::get)
}

/// Valid where `assumed` holds (its negation unsatisfiable there), within the budget?
fn decide(assumed: &Bool, goal: &Bool, budget: Budget) -> Proof {
    let mut smt = Smt::new(budget);
    let answer = smt.check(&[assumed.clone(), goal.not()]);
    SPENT.with(|s| s.set(s.get().saturating_add(smt.work_used())));
    match answer {
        Answer::Unsat => Proof::Equivalent,
        Answer::Sat => Proof::Different,
        Answer::Unknown => Proof::Unknown("the solver's budget ran out"),
    }
}

/// What may stop the program between two calls: loads (path condition, address, bytes)
/// and trap conditions (each under its path's condition).
#[derive(Default)]
struct Segment {
    loads: Vec<(Bool, BV, u32)>,
    /// Stores that may fault (not into a local or a writable global).
    stores: Vec<(Bool, BV, u32)>,
    traps: Vec<Bool>,
}

/// A call of a region: the callee, the argument values, and the memory it starts from.
struct CallEvent {
    node: NodeId,
    callee: String,
    /// The target's address first for a call through a pointer.
    target: Option<BV>,
    args: Vec<BV>,
    mem: Array,
}

/// Registers (by key) and memory at a point of a region, with the condition of reaching
/// it.
#[derive(Clone)]
struct State {
    pc: Bool,
    regs: FxHashMap<(String, u32), BV>,
    mem: Array,
}

impl State {
    fn initial() -> State {
        State {
            pc: Bool::from_bool(true),
            regs: FxHashMap::default(),
            mem: crate::smt::memory_const("straightline.mem"),
        }
    }

    /// The state where paths join: each value chosen by the condition of its path.
    fn join(states: Vec<State>) -> State {
        let mut iter = states.into_iter();
        let first = iter.next().expect("a state to join");
        iter.fold(first, |acc, st| {
            let mut keys: Vec<(String, u32)> =
                acc.regs.keys().chain(st.regs.keys()).cloned().collect();
            keys.sort();
            keys.dedup();
            let regs = keys
                .into_iter()
                .map(|k| {
                    let v = st.pc.ite(&st.value_of(&k), &acc.value_of(&k));
                    (k, v)
                })
                .collect();
            State {
                pc: Bool::or(&[acc.pc.clone(), st.pc.clone()]),
                regs,
                mem: st.pc.ite(&st.mem, &acc.mem),
            }
        })
    }

    fn value_of(&self, key: &(String, u32)) -> BV {
        self.regs.get(key).cloned().unwrap_or_else(|| initial(key))
    }
}

/// One version's region, executed symbolically.
struct Side<'a> {
    region: Region<'a>,
    /// `old` or `new`: names the temporaries of this side.
    tag: &'static str,
    written: FxHashSet<(String, u32)>,
    /// The register each assignment writes (`None`: memory).
    writers: Vec<(NodeId, Option<(String, u32)>)>,
    /// One more segment than calls.
    segments: Vec<Segment>,
    calls: Vec<CallEvent>,
    /// The state at each exit, in the order of `region.exits` (condition false if never
    /// reached).
    exits: Vec<State>,
    /// Whether calls of small defined functions are inlined.
    inline: bool,
    /// Calls inlined so far (each names its function's registers apart).
    inlined_calls: usize,
    /// The calls of the region inlined (node, callee).
    inlined: Vec<(NodeId, FuncId)>,
    /// Put before the keys of this side's registers: an inlined function's are its own.
    prefix: String,
}

impl<'a> Side<'a> {
    fn new(region: Region<'a>, tag: &'static str) -> Self {
        Side {
            region,
            tag,
            written: FxHashSet::default(),
            writers: Vec::new(),
            segments: vec![Segment::default()],
            calls: Vec::new(),
            exits: Vec::new(),
            inline: false,
            inlined_calls: 0,
            inlined: Vec::new(),
            prefix: String::new(),
        }
    }

    fn segment(&mut self) -> &mut Segment {
        self.segments.last_mut().expect("a region has a segment")
    }

    fn repr(&self, ty: ripple_ir::TypeId) -> Repr {
        Repr::of(&self.region.program.types, ty)
    }

    /// The register locals of this name and width, in declaration order.
    fn registers(&self, name: &str, bits: u32) -> Vec<VarId> {
        self.region
            .function
            .locals
            .iter_enumerated()
            .filter(|(v, local)| {
                local.name == name
                    && local.storage == ripple_ir::Storage::Register
                    && self.repr(local.ty).bits() == bits
                    && self.param_index(*v).is_none()
            })
            .map(|(v, _)| v)
            .collect()
    }

    /// The key of a register: its name and width; a temporary of the lowering is this
    /// side's own. A name declared several times in the function (a loop counter of
    /// two loops, say) gets its rank among them and their number: the k-th of n
    /// registers of a name stands for the k-th of the other version's n, and for none
    /// of them when the other version declares that name a different number of times
    /// (then it is taken as one version's own, which is never assumed equal).
    fn key(&self, v: VarId) -> (String, u32) {
        let (name, bits) = self.own_key(v);
        if self.prefix.is_empty() {
            (name, bits)
        } else {
            (format!("{}{name}", self.prefix), bits)
        }
    }

    /// [`Side::key`] without the prefix.
    fn own_key(&self, v: VarId) -> (String, u32) {
        let local = &self.region.function.locals[v];
        let bits = self.repr(local.ty).bits();
        if let Some((_, name)) = self.region.shared_temps.iter().find(|(t, _)| *t == v) {
            return (format!("#shared.{name}"), bits);
        }
        // Parameters correspond by position, as the matching binds them: `f(int a, int
        // b)` and `f(int b, int a)` read their arguments in other names.
        if let Some(i) = self.param_index(v) {
            return (format!("#param.{i}"), bits);
        }
        if local.kind == ripple_ir::LocalKind::Temp || local.name.is_empty() {
            return (format!("#{}.{}", self.tag, v.index()), bits);
        }
        let same = self.registers(&local.name, bits);
        if same.len() == 1 {
            return (local.name.clone(), bits);
        }
        let rank = same.iter().position(|&r| r == v).expect("v is one of them");
        (format!("{}@{rank}/{}", local.name, same.len()), bits)
    }

    /// The position of a parameter.
    fn param_index(&self, v: VarId) -> Option<usize> {
        self.region.function.params.iter().position(|&p| p == v)
    }

    /// The register of this side a key stands for, if any.
    fn var_of(&self, key: &(String, u32)) -> Option<VarId> {
        if let Some(i) = key.0.strip_prefix("#param.") {
            let v = *self.region.function.params.get(i.parse::<usize>().ok()?)?;
            return (self.key(v) == *key).then_some(v);
        }
        if let Some(name) = key.0.strip_prefix("#shared.") {
            return self
                .region
                .shared_temps
                .iter()
                .find(|(_, n)| n == name)
                .map(|(v, _)| *v);
        }
        match key.0.strip_prefix('#') {
            Some(rest) => {
                let (tag, index) = rest.split_once('.')?;
                if tag != self.tag {
                    return None;
                }
                Some(VarId(index.parse().ok()?))
            }
            None => {
                let (name, rank) = match key.0.split_once('@') {
                    Some((name, at)) => {
                        let (rank, count) = at.split_once('/')?;
                        let (rank, count): (usize, usize) =
                            (rank.parse().ok()?, count.parse().ok()?);
                        (name, Some((rank, count)))
                    }
                    None => (key.0.as_str(), None),
                };
                let same = self.registers(name, key.1);
                match rank {
                    None if same.len() == 1 => Some(same[0]),
                    Some((rank, count)) if same.len() == count => same.get(rank).copied(),
                    _ => None,
                }
            }
        }
    }

    /// Records a store that may fault.
    fn note_store(&mut self, st: &State, addr: &Expr, a: &BV, bytes: u32) {
        if !self.inside_an_object(addr, bytes, true) {
            let pc = st.pc.clone();
            self.segment().stores.push((pc, a.clone(), bytes));
        }
    }

    /// Whether `bytes` bytes at `addr` lie inside a local or a global (its address plus
    /// a constant offset; for a store, a global that is not `const`): such an access
    /// cannot fault.
    fn inside_an_object(&self, addr: &Expr, bytes: u32, store: bool) -> bool {
        let program = self.region.program;
        let (base, offset) = match &addr.kind {
            ExprKind::Binary(ripple_ir::BinOp::PtrAdd, base, off) => match off.kind {
                ExprKind::Int(k) => (&**base, k as u64),
                _ => return false,
            },
            _ => (addr, 0),
        };
        let size = match base.kind {
            ExprKind::AddrOfGlobal(g) if !(store && program.globals[g].is_const) => {
                program.types.size_of(program.globals[g].ty)
            }
            ExprKind::AddrOfLocal(v) => program.types.size_of(self.region.function.locals[v].ty),
            _ => return false,
        };
        offset
            .checked_add(u64::from(bytes))
            .is_some_and(|end| end <= size)
    }

    /// Whether a node outside the region reads register `v` (the exit reads the return
    /// variable).
    fn read_outside(&self, v: VarId) -> bool {
        let function = self.region.function;
        if function.ret_var == Some(v) {
            return true;
        }
        let mut regs = Vec::new();
        for (n, node) in function.nodes.iter_enumerated() {
            if self.region.nodes.contains(&n) {
                continue;
            }
            let mut exprs: Vec<&Expr> = Vec::new();
            let place_addr = |p: &'a Place| match p {
                Place::Local(_) => None,
                Place::Mem { addr, .. } | Place::Bits { addr, .. } => Some(addr),
            };
            match &node.kind {
                NodeKind::Assign { dst, value } => {
                    exprs.push(value);
                    exprs.extend(place_addr(dst));
                }
                NodeKind::Branch { cond } => exprs.push(cond),
                NodeKind::Call { dst, callee, args } => {
                    exprs.extend(args);
                    exprs.extend(dst.as_ref().and_then(place_addr));
                    if let ripple_ir::Callee::Indirect(target) = callee {
                        exprs.push(target);
                    }
                }
                NodeKind::Havoc { dst, .. } => exprs.extend(dst.as_ref().and_then(place_addr)),
                NodeKind::Entry | NodeKind::Exit | NodeKind::Skip => {}
            }
            for e in exprs {
                e.locals_read(&mut regs);
            }
        }
        regs.contains(&v)
    }

    /// Runs the region over every path, joining states where paths meet, and records
    /// the state at each exit.
    fn execute(&mut self) -> Result<(), &'static str> {
        self.execute_from(State::initial())
    }

    /// [`Side::execute`] from a given state.
    fn execute_from(&mut self, initial: State) -> Result<(), &'static str> {
        let region = self.region;
        let function = region.function;
        let inside: FxHashSet<NodeId> = region.nodes.iter().copied().collect();
        if region.nodes.len() > MAX_REGION {
            return Err("the change is too large to compare");
        }
        // Topological order (Kahn); a cycle is outside what is compared.
        let mut indegree: FxHashMap<NodeId, usize> = region.nodes.iter().map(|&n| (n, 0)).collect();
        for &n in region.nodes {
            for s in &function.nodes[n].succs {
                if let Some(d) = indegree.get_mut(s) {
                    *d += 1;
                }
            }
        }
        let mut ready: Vec<NodeId> = region
            .nodes
            .iter()
            .copied()
            .filter(|n| indegree[n] == 0)
            .collect();
        if !region.nodes.is_empty() && ready != [region.start] {
            return Err("the change is entered at more than one place");
        }
        let mut order = Vec::with_capacity(region.nodes.len());
        while let Some(n) = ready.pop() {
            order.push(n);
            for s in &function.nodes[n].succs {
                if let Some(d) = indegree.get_mut(s) {
                    *d -= 1;
                    if *d == 0 {
                        ready.push(*s);
                    }
                }
            }
        }
        if order.len() != region.nodes.len() {
            return Err("the change holds a loop");
        }
        // Paths from the start to each node and from each node to an exit: a node is on
        // every path when the product of the two is the number of paths.
        let mut from: FxHashMap<NodeId, u128> = FxHashMap::default();
        let mut to: FxHashMap<NodeId, u128> = FxHashMap::default();
        from.insert(region.start, 1);
        for &n in &order {
            let here = from.get(&n).copied().unwrap_or(0);
            for s in &function.nodes[n].succs {
                if inside.contains(s) {
                    let e = from.entry(*s).or_insert(0);
                    *e = e.saturating_add(here);
                }
            }
        }
        for &n in order.iter().rev() {
            let count = function.nodes[n]
                .succs
                .iter()
                .map(|s| if inside.contains(s) { to[s] } else { 1 })
                .fold(0u128, u128::saturating_add);
            to.insert(n, count);
        }
        let total = to.get(&region.start).copied().unwrap_or(1);
        let on_every_path =
            |n: NodeId| total < u128::MAX && from[&n].saturating_mul(to[&n]) == total;
        let mut incoming: FxHashMap<NodeId, Vec<State>> = FxHashMap::default();
        incoming.insert(region.start, vec![initial.clone()]);
        let mut at_exit: FxHashMap<NodeId, Vec<State>> = FxHashMap::default();
        for &n in &order {
            let Some(states) = incoming.remove(&n) else {
                continue;
            };
            let mut st = State::join(states);
            let node = &function.nodes[n];
            let mut outs: Vec<State> = Vec::new();
            match &node.kind {
                NodeKind::Skip => outs.push(st),
                NodeKind::Assign { dst, value } => {
                    let v = self.eval(&mut st, value)?;
                    self.write(&mut st, dst, &v)?;
                    let target = match dst {
                        Place::Local(v) => Some(self.key(*v)),
                        _ => None,
                    };
                    self.writers.push((n, target));
                    outs.push(st);
                }
                NodeKind::Branch { cond } => {
                    let v = self.eval(&mut st, cond)?;
                    let t = encode::truth(&v, self.repr(cond.ty));
                    let mut yes = st.clone();
                    yes.pc = Bool::and(&[st.pc.clone(), t.clone()]);
                    let mut no = st;
                    no.pc = Bool::and(&[no.pc.clone(), t.not()]);
                    outs.push(yes);
                    outs.push(no);
                }
                NodeKind::Call { dst, callee, args } => {
                    if let Some((g, function)) = self.inlinable(callee) {
                        self.inline_call(&mut st, dst.as_ref(), function, args)?;
                        self.inlined.push((n, g));
                        outs.push(st);
                    } else {
                        if !on_every_path(n) {
                            return Err("the change makes a call on some paths only");
                        }
                        self.call(n, &mut st, dst.as_ref(), callee, args)?;
                        outs.push(st);
                    }
                }
                _ => return Err("the change holds a statement that is not compared"),
            }
            for (k, out) in outs.into_iter().enumerate() {
                let succ = node.succs[k.min(node.succs.len() - 1)];
                let target = if inside.contains(&succ) {
                    &mut incoming
                } else {
                    &mut at_exit
                };
                target.entry(succ).or_default().push(out);
            }
        }
        if region.nodes.is_empty() {
            at_exit.insert(region.start, vec![initial]);
        }
        for exit in region.exits {
            self.exits.push(match at_exit.remove(exit) {
                Some(states) => State::join(states),
                None => State {
                    pc: Bool::from_bool(false),
                    ..State::initial()
                },
            });
        }
        if !at_exit.is_empty() {
            return Err("the change leaves towards a statement without a partner");
        }
        Ok(())
    }

    /// A call on every path: the k-th call of the region.
    fn call(
        &mut self,
        node: NodeId,
        st: &mut State,
        dst: Option<&Place>,
        callee: &ripple_ir::Callee,
        args: &[Expr],
    ) -> Result<(), &'static str> {
        let region = self.region;
        let mut values = Vec::with_capacity(args.len());
        let (name, target) = match callee {
            ripple_ir::Callee::Direct(g) => ((region.names.function)(*g), None),
            ripple_ir::Callee::Indirect(target) => (
                "(through a pointer)".to_string(),
                Some(self.eval(st, target)?),
            ),
            ripple_ir::Callee::Intrinsic(_) => return Err("the change calls an intrinsic"),
        };
        for arg in args {
            values.push(self.eval(st, arg)?);
        }
        let k = self.calls.len();
        self.calls.push(CallEvent {
            node,
            callee: name,
            target,
            args: values,
            mem: st.mem.clone(),
        });
        self.segments.push(Segment::default());
        st.mem = crate::smt::memory_const(&format!("straightline.mem.call{k}"));
        if let Some(place) = dst {
            let bits = self.place_bits(place);
            let result = BV::new_const(format!("straightline.ret.call{k}"), bits);
            self.write(st, place, &result)?;
        }
        Ok(())
    }

    /// The defined function a call runs, when this side inlines it: no calls, no
    /// loops (checked when it runs), every local a register, not variadic.
    fn inlinable(&self, callee: &ripple_ir::Callee) -> Option<(FuncId, &'a Function)> {
        let ripple_ir::Callee::Direct(g) = callee else {
            return None;
        };
        let program = self.region.program;
        let function = &program.functions[*g];
        let fits = self.inline
            && function.is_defined()
            && function.nodes.len() <= MAX_INLINED
            && !function.is_variadic(&program.types)
            && function
                .locals
                .iter()
                .all(|l| l.storage == ripple_ir::Storage::Register)
            && function.nodes.iter().all(|n| {
                matches!(
                    n.kind,
                    NodeKind::Entry
                        | NodeKind::Exit
                        | NodeKind::Skip
                        | NodeKind::Assign { .. }
                        | NodeKind::Branch { .. }
                )
            });
        fits.then_some((*g, function))
    }

    /// Runs `function`'s body in the state of the call, its parameters bound to the
    /// arguments; its loads, stores and traps are this segment's.
    fn inline_call(
        &mut self,
        st: &mut State,
        dst: Option<&Place>,
        function: &'a Function,
        args: &[Expr],
    ) -> Result<(), &'static str> {
        let region = self.region;
        if args.len() != function.params.len() {
            return Err("a call passes another number of arguments than its callee takes");
        }
        // The lowering converts arguments to their parameters' types (a prototype); one
        // of another width (an unprototyped callee) is not modelled.
        let callee_repr = |v: VarId| Repr::of(&region.program.types, function.locals[v].ty);
        if args
            .iter()
            .zip(&function.params)
            .any(|(a, &p)| self.repr(a.ty).bits() != callee_repr(p).bits())
        {
            return Err("an argument of another width than its parameter");
        }
        let values = args
            .iter()
            .map(|a| self.eval(st, a))
            .collect::<Result<Vec<_>, _>>()?;
        let body: Vec<NodeId> = function
            .nodes
            .iter_enumerated()
            .map(|(n, _)| n)
            .filter(|&n| n != function.entry && n != function.exit)
            .collect();
        let start = match function.nodes[function.entry].succs.as_slice() {
            [s] => *s,
            _ => return Err("an inlined function is entered at more than one place"),
        };
        let exits = [function.exit];
        self.inlined_calls += 1;
        let mut inner = Side::new(
            Region {
                function,
                nodes: &body,
                start,
                exits: &exits,
                shared_temps: &[],
                ..region
            },
            self.tag,
        );
        inner.prefix = format!(
            "{}#inlined{}.{}.",
            self.prefix, self.inlined_calls, self.tag
        );
        let mut entry = State {
            pc: st.pc.clone(),
            regs: FxHashMap::default(),
            mem: st.mem.clone(),
        };
        for (&param, value) in function.params.iter().zip(&values) {
            let key = inner.key(param);
            entry.regs.insert(key.clone(), resize(value, key.1, false));
        }
        inner.execute_from(entry)?;
        let at_exit = inner.exits.pop().expect("one exit");
        let segment = inner.segments.pop().expect("a segment");
        let mine = self.segment();
        mine.loads.extend(segment.loads);
        mine.stores.extend(segment.stores);
        mine.traps.extend(segment.traps);
        st.mem = at_exit.mem.clone();
        if let Some(place) = dst {
            let Some(ret) = function.ret_var else {
                return Err("the result of a void function is used");
            };
            let key = inner.key(ret);
            if self.place_bits(place) != key.1 {
                return Err("a result stored at another width than its function returns");
            }
            let value = at_exit.value_of(&key);
            self.write(st, place, &value)?;
        }
        Ok(())
    }

    /// The width of what a place holds.
    fn place_bits(&self, place: &Place) -> u32 {
        match place {
            Place::Local(v) => self.repr(self.region.function.locals[*v].ty).bits(),
            Place::Mem { ty, .. } => self.repr(*ty).bits(),
            Place::Bits { width, .. } => *width,
        }
    }

    fn write(&mut self, st: &mut State, place: &Place, value: &BV) -> Result<(), &'static str> {
        match place {
            Place::Local(v) => {
                let local = &self.region.function.locals[*v];
                if local.storage != ripple_ir::Storage::Register {
                    return Err("a local in memory is written as a register");
                }
                let key = self.key(*v);
                let value = resize(value, key.1, false);
                self.written.insert(key.clone());
                st.regs.insert(key, value);
            }
            Place::Mem { addr, ty } => {
                if self.repr(*ty).bytes() > MAX_VALUE_BYTES {
                    return Err("the change copies a record too large to compare");
                }
                let a = self.eval(st, addr)?;
                let bits = self.repr(*ty).bits();
                self.note_store(st, addr, &a, self.repr(*ty).bytes());
                st.mem = store(&st.mem, &a, &resize(value, bits, false));
            }
            Place::Bits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(st, addr)?;
                let bytes = self.repr(*unit).bytes();
                // A bit-field store reads its unit first.
                let pc = st.pc.clone();
                self.segment().loads.push((pc, a.clone(), bytes));
                self.note_store(st, addr, &a, bytes);
                st.mem = encode::store_bits(&st.mem, &a, bytes, *bit_offset, *width, value);
            }
        }
        Ok(())
    }

    fn eval(&mut self, st: &mut State, expr: &Expr) -> Result<BV, &'static str> {
        let program = self.region.program;
        let types = &program.types;
        let repr = Repr::of(types, expr.ty);
        Ok(match &expr.kind {
            ExprKind::Int(v) => bv_const(*v, repr.bits()),
            ExprKind::Float(f) => match repr {
                Repr::Float { bits: 32 } => BV::from_u64(u64::from((*f as f32).to_bits()), 32),
                _ => BV::from_u64(f.to_bits(), 64),
            },
            ExprKind::Local(v) => {
                if self.region.function.locals[*v].storage != ripple_ir::Storage::Register {
                    return Err("a local in memory is read as a register");
                }
                let key = self.key(*v);
                let value = st.value_of(&key);
                resize(&value, repr.bits(), false)
            }
            ExprKind::AddrOfLocal(v) => {
                // Shared by name only when the name is the function's only local of it:
                // two objects given one address would be assumed to alias.
                let function = self.region.function;
                let name = &function.locals[*v].name;
                let unique = !name.is_empty()
                    && function.locals.iter().filter(|l| &l.name == name).count() == 1;
                if let Some(i) = self.param_index(*v) {
                    // A parameter's object, by position (see `own_key`).
                    address(&format!("local.#param{i}.{}", self.prefix))
                } else if unique {
                    address(&format!("local.{name}"))
                } else {
                    address(&format!("local.{}.{}", self.tag, v.index()))
                }
            }
            ExprKind::AddrOfGlobal(g) => {
                address(&format!("global.{}", (self.region.names.global)(*g)))
            }
            ExprKind::AddrOfFunc(f) => address(&format!("fn.{}", (self.region.names.function)(*f))),
            ExprKind::Load(addr) => {
                if repr.bytes() > MAX_VALUE_BYTES {
                    return Err("the change copies a record too large to compare");
                }
                let a = self.eval(st, addr)?;
                if !self.inside_an_object(addr, repr.bytes(), false) {
                    let pc = st.pc.clone();
                    self.segment().loads.push((pc, a.clone(), repr.bytes()));
                }
                load(&st.mem, &a, repr.bytes())
            }
            ExprKind::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(st, addr)?;
                let unit_repr = Repr::of(types, *unit);
                let pc = st.pc.clone();
                self.segment()
                    .loads
                    .push((pc, a.clone(), unit_repr.bytes()));
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
                let v = self.eval(st, operand)?;
                encode::unary(*op, &v, Repr::of(types, operand.ty), repr.bits())
            }
            ExprKind::Binary(op, lhs, rhs)
                if types.is_long_double(lhs.ty) && op.is_arithmetic() =>
            {
                return Err("the change computes with long double, which is not modelled exactly")
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let a = self.eval(st, lhs)?;
                let b = self.eval(st, rhs)?;
                let lrepr = Repr::of(types, lhs.ty);
                let rrepr = Repr::of(types, rhs.ty);
                if let Some(trap) = encode::division_trap(*op, &a, &b, lrepr) {
                    let trap = Bool::and(&[st.pc.clone(), trap]);
                    self.segment().traps.push(trap);
                }
                encode::binary(*op, &a, &b, lrepr, rrepr, repr)
            }
            ExprKind::Cast(operand) => {
                let v = self.eval(st, operand)?;
                encode::convert(types, &v, Repr::of(types, operand.ty), expr.ty)
            }
        })
    }
}

/// The initial value of a register, shared by both versions.
fn initial(key: &(String, u32)) -> BV {
    BV::new_const(format!("straightline.reg.{}.{}", key.0, key.1), key.1)
}

/// The address of a named object, shared by both versions.
fn address(name: &str) -> BV {
    BV::new_const(format!("straightline.addr.{name}"), 64)
}
