//! Demand-driven monitoring of one run (002 chapter 6, section 6.2): an [`Observer`] of
//! the IR interpreter that records the dependence occurrences rooted at occurrences of
//! changed statements, each with its affecting state (the decision of a branch, the
//! value a statement assigned), up to the chain distance `d`; the states of the
//! statements whose occurrences the other version's run is compared against; and the
//! statements, branch outcomes and def-use pairs covered after a change first ran (the
//! STMT, BR and DU baselines of 002 section 5.3).
//!
//! Dynamic dependences: a read depends on the last write of the same register of the
//! same activation, or of the same memory address; a statement is control dependent on
//! the latest occurrence, in its activation, of a branch it is statically control
//! dependent on, or else on the call that started the activation. A callee's parameter
//! depends on what the call's arguments read (all of them: the interpreter reports the
//! reads of a call, not of each argument), and the result of a call on what the callee
//! returned, so calls of defined functions are passed through as in the SDG.
//!
//! Memory is tracked byte by byte: a read depends on the last write of each byte it
//! reads, so a read that overlaps a wider or shifted write sees it. A call of the C
//! library model (`memcpy`, `scanf`, `fread`, `strlen` ...) or of a memory intrinsic
//! depends on the last writes of the bytes it read, and is the last write of the bytes
//! it wrote; its affecting state is its result together with those bytes.

use rustc_hash::{FxHashMap, FxHashSet};

use ripple_dataflow::ControlDependence;
use ripple_interp::{LibraryAccess, Location, NodeEvent, Observer, Value};
use ripple_ir::{FuncId, NodeId, NodeKind, Program, VarId};

use super::chains::DepKind;
use super::changes::NodeRef;

/// The affecting state of an occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    Branch(bool),
    /// The value assigned, as a 64-bit digest of its bits (two different values share a
    /// digest with probability 2^-64).
    Value(u64),
    /// The statement assigned nothing (a call without a result).
    Ran,
}

impl State {
    pub fn of_value(value: &Value) -> State {
        State::of_call(value, &[])
    }

    /// The state of a call: its result and the bytes it wrote to memory.
    pub fn of_call(value: &Value, library: &[LibraryAccess]) -> State {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        match value {
            Value::Int(v) => (0u8, v).hash(&mut h),
            Value::F32(f) => (1u8, f.to_bits()).hash(&mut h),
            Value::F64(f) => (2u8, f.to_bits()).hash(&mut h),
            Value::Bytes(b) => (3u8, b).hash(&mut h),
        }
        for access in library.iter().filter(|a| a.write) {
            access.bytes.hash(&mut h);
        }
        State::Value(h.finish())
    }
}

/// One recorded occurrence: a statement execution within distance `d` of a change.
#[derive(Clone, Debug)]
pub struct Occurrence {
    pub node: NodeRef,
    /// Which execution of the statement in the run (0 for the first).
    pub index: u32,
    pub state: State,
    /// The recorded occurrences it depends on.
    pub sources: Vec<(u32, DepKind)>,
    /// Dependences from the nearest change occurrence.
    pub distance: u32,
    /// The change this is an occurrence of, if any.
    pub change: Option<usize>,
    /// Whether another change had already run when this change occurrence ran (002
    /// section 7.1: its state requirements are then not monitored).
    pub after_other_change: bool,
}

/// What one run recorded.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub occurrences: Vec<Occurrence>,
    /// The states of the statements of interest, by (statement, execution index).
    pub states: FxHashMap<(NodeRef, u32), State>,
    /// Every statement the run executed.
    pub executed: FxHashSet<NodeRef>,
    /// The changes that ran, in the order they first ran.
    pub changes_run: Vec<usize>,
    /// After the first change occurrence: statements executed, branch outcomes taken and
    /// def-use pairs exercised.
    pub stmts_after: FxHashSet<NodeRef>,
    pub branches_after: FxHashSet<(NodeRef, bool)>,
    pub du_after: FxHashSet<(NodeRef, NodeRef)>,
    /// Occurrences (and states) not recorded because of the per-run caps.
    pub dropped: u64,
}

/// What to monitor.
#[derive(Clone, Debug, Default)]
pub struct MonitorConfig {
    /// The statements of each change (by id).
    pub roots: FxHashMap<NodeRef, usize>,
    /// Statements whose every state is recorded (for the comparison with the other
    /// version's run).
    pub interest: FxHashSet<NodeRef>,
    /// The statements chains go through (`None`: every statement): occurrences of other
    /// statements cannot be part of a chain and are not recorded.
    pub chain_nodes: Option<FxHashSet<NodeRef>>,
    pub distance: u32,
    /// At most this many recorded occurrences per run.
    pub max_occurrences: usize,
}

/// The last write of a location.
#[derive(Clone, Copy, Debug)]
struct Def {
    node: NodeRef,
    occ: Option<u32>,
}

#[derive(Default)]
struct Frame {
    func: Option<FuncId>,
    regs: FxHashMap<VarId, Def>,
    /// Latest occurrence of each branch: (sequence number, definition).
    branches: FxHashMap<NodeId, (u64, Def)>,
    /// The call occurrence that started the activation.
    call: Option<Def>,
    /// What the call's arguments read.
    params: Vec<Def>,
    /// A call of a defined function waiting for its callee to return.
    pending_call: Option<NodeId>,
}

/// The latest occurrence, among `branches` (per branch: sequence number and what it
/// carries), of a branch statement `n` of `f` is statically control dependent on; `None`
/// when it depends on no branch (then on the call that started the activation).
pub(crate) fn latest_control<T: Copy>(
    control: &mut FxHashMap<FuncId, ControlDependence>,
    program: &Program,
    f: FuncId,
    n: NodeId,
    branches: &FxHashMap<NodeId, (u64, T)>,
) -> Option<Option<T>> {
    let cd = control
        .entry(f)
        .or_insert_with(|| ControlDependence::compute(&program.functions[f], &[]));
    if cd.of(n).is_empty() {
        return None;
    }
    Some(
        cd.of(n)
            .iter()
            .filter_map(|b| branches.get(b))
            .max_by_key(|(seq, _)| *seq)
            .map(|&(_, d)| d),
    )
}

/// The observer.
pub struct Monitor<'a> {
    program: &'a Program,
    config: &'a MonitorConfig,
    control: FxHashMap<FuncId, ControlDependence>,
    frames: Vec<Frame>,
    /// The last write of each byte of memory.
    memory: FxHashMap<u64, Def>,
    counts: FxHashMap<NodeRef, u32>,
    seq: u64,
    /// Set by on_call for the next entry.
    entering: Option<(Option<Def>, Vec<Def>)>,
    /// What the last exit returned.
    returned: Option<Def>,
    pub trace: Trace,
}

impl<'a> Monitor<'a> {
    pub fn new(program: &'a Program, config: &'a MonitorConfig) -> Monitor<'a> {
        Monitor {
            program,
            config,
            control: FxHashMap::default(),
            frames: Vec::new(),
            memory: FxHashMap::default(),
            counts: FxHashMap::default(),
            seq: 0,
            entering: None,
            returned: None,
            trace: Trace::default(),
        }
    }

    fn frame_at(&mut self, depth: usize, func: FuncId) -> &mut Frame {
        self.frames.truncate(depth + 1);
        while self.frames.len() <= depth {
            self.frames.push(Frame::default());
        }
        let frame = &mut self.frames[depth];
        if frame.func.is_none() {
            frame.func = Some(func);
        }
        frame
    }

    /// The control source of statement `n` of the activation at `depth`.
    fn control_source(&mut self, depth: usize, f: FuncId, n: NodeId) -> Option<Def> {
        let frame = &self.frames[depth];
        latest_control(&mut self.control, self.program, f, n, &frame.branches).unwrap_or(frame.call)
    }

    fn data_sources(&self, depth: usize, event: &NodeEvent<'_>) -> Vec<Def> {
        let frame = &self.frames[depth];
        let function = &self.program.functions[event.function];
        let mut out = Vec::new();
        for read in event.reads {
            match read.location {
                Location::Local(v) => match frame.regs.get(&v) {
                    Some(&d) => out.push(d),
                    None if function.params.contains(&v) => out.extend(&frame.params),
                    None => {}
                },
                Location::Memory(a) => {
                    out.extend((a..a + read.size.max(1)).filter_map(|b| self.memory.get(&b)))
                }
            }
        }
        for access in event.library.iter().filter(|a| !a.write) {
            out.extend(
                (access.address..access.address + access.size).filter_map(|b| self.memory.get(&b)),
            );
        }
        // One entry per definition (a callee reading several parameters would otherwise
        // repeat its call's sources, and recursion would multiply them).
        out.sort_unstable_by_key(|d| (d.node, d.occ));
        out.dedup_by_key(|d| (d.node, d.occ));
        out
    }

    /// Records an occurrence of `node` if it is a change or depends on a recorded
    /// occurrence within the distance.
    fn record(&mut self, node: NodeRef, state: State, sources: &[(Def, DepKind)]) -> Option<u32> {
        let index = {
            let c = self.counts.entry(node).or_insert(0);
            *c += 1;
            *c - 1
        };
        if self.config.interest.contains(&node) {
            if self.trace.states.len() < self.config.max_occurrences.saturating_mul(4) {
                self.trace.states.insert((node, index), state);
            } else {
                self.trace.dropped += 1;
            }
        }
        let change = self.config.roots.get(&node).copied();
        let mut kept: Vec<(u32, DepKind)> = Vec::new();
        let mut distance = u32::MAX;
        for &(def, kind) in sources {
            let Some(occ) = def.occ else { continue };
            let d = self.trace.occurrences[occ as usize].distance;
            if d < self.config.distance {
                kept.push((occ, kind));
                distance = distance.min(d + 1);
            }
        }
        kept.sort_unstable();
        kept.dedup();
        if let Some(c) = change {
            distance = 0;
            if !self.trace.changes_run.contains(&c) {
                self.trace.changes_run.push(c);
            }
        }
        if change.is_none()
            && (kept.is_empty()
                || self
                    .config
                    .chain_nodes
                    .as_ref()
                    .is_some_and(|c| !c.contains(&node)))
        {
            return None;
        }
        if self.trace.occurrences.len() >= self.config.max_occurrences {
            self.trace.dropped += 1;
            return None;
        }
        let after_other_change =
            change.is_some_and(|c| self.trace.changes_run.iter().any(|&o| o != c));
        self.trace.occurrences.push(Occurrence {
            node,
            index,
            state,
            sources: kept,
            distance,
            change,
            after_other_change,
        });
        Some(self.trace.occurrences.len() as u32 - 1)
    }

    fn baselines(&mut self, node: NodeRef, branch: Option<bool>, data: &[Def]) {
        self.trace.executed.insert(node);
        if self.trace.changes_run.is_empty() {
            return;
        }
        self.trace.stmts_after.insert(node);
        if let Some(b) = branch {
            self.trace.branches_after.insert((node, b));
        }
        for d in data {
            self.trace.du_after.insert((d.node, node));
        }
    }
}

impl Observer for Monitor<'_> {
    fn on_call(&mut self, event: &NodeEvent<'_>) {
        let (f, n) = (event.function, event.node);
        self.frame_at(event.depth, f);
        let control = self.control_source(event.depth, f, n);
        let params = self.data_sources(event.depth, event);
        self.seq += 1;
        let sources: Vec<(Def, DepKind)> =
            control.map(|d| (d, DepKind::Control)).into_iter().collect();
        let occ = self.record((f, n), State::Ran, &sources);
        self.baselines((f, n), None, &params);
        self.frames[event.depth].pending_call = Some(n);
        self.entering = Some((Some(Def { node: (f, n), occ }), params));
    }

    fn on_node(&mut self, event: &NodeEvent<'_>) {
        let (f, n) = (event.function, event.node);
        let function = &self.program.functions[f];
        let depth = event.depth;
        if n == function.entry {
            self.frames.truncate(depth);
            let (call, params) = self.entering.take().unwrap_or((None, Vec::new()));
            self.frames.push(Frame {
                func: Some(f),
                call,
                params,
                ..Frame::default()
            });
            return;
        }
        self.frame_at(depth, f);
        if n == function.exit {
            self.returned = function
                .ret_var
                .and_then(|v| self.frames[depth].regs.get(&v).copied());
            self.frames.truncate(depth);
            return;
        }
        self.seq += 1;
        let seq = self.seq;
        if self.frames[depth].pending_call == Some(n) {
            // A call of a defined function returned: its result is what the callee
            // returned (the call itself was recorded when it was made).
            self.frames[depth].pending_call = None;
            if let (Some(write), Some(def)) = (event.write, self.returned.take()) {
                self.write(depth, &write.location, write.size, def);
            }
            return;
        }
        let data = self.data_sources(depth, event);
        let control = self.control_source(depth, f, n);
        let mut sources: Vec<(Def, DepKind)> = data.iter().map(|&d| (d, DepKind::Data)).collect();
        sources.extend(control.map(|d| (d, DepKind::Control)));
        let state = match (event.branch, event.write) {
            (Some(b), _) => State::Branch(b),
            (None, Some(w)) => State::of_call(&w.value, event.library),
            (None, None) if event.library.iter().any(|a| a.write) => {
                State::of_call(&Value::Int(0), event.library)
            }
            (None, None) => State::Ran,
        };
        let occ = self.record((f, n), state, &sources);
        self.baselines((f, n), event.branch, &data);
        let def = Def { node: (f, n), occ };
        for access in event.library.iter().filter(|a| a.write) {
            for b in access.address..access.address + access.size {
                self.memory.insert(b, def);
            }
        }
        if let Some(write) = event.write {
            self.write(depth, &write.location, write.size, def);
        }
        if matches!(function.nodes[n].kind, NodeKind::Branch { .. }) {
            self.frames[depth].branches.insert(n, (seq, def));
        }
    }
}

impl Monitor<'_> {
    fn write(&mut self, depth: usize, location: &Location, size: u64, def: Def) {
        match *location {
            Location::Local(v) => {
                self.frames[depth].regs.insert(v, def);
            }
            Location::Memory(a) => {
                for b in a..a + size.max(1) {
                    self.memory.insert(b, def);
                }
            }
        }
    }
}
