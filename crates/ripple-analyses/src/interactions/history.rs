//! One run of one variant, observed for SCHID (002 section 7.2.3): its augmented
//! execution history (Definition 16: every statement occurrence with the state it
//! modified and, for a branch, where control went), which changes it ran, and where
//! the dynamic forward slices of the change sets met.
//!
//! An occurrence's modified state is the value it assigned (and, in memory, where), a
//! branch's decision, a call's result, and what a call of the C library printed or wrote
//! to a file; it is
//! kept as a 64-bit digest (two different states share one with probability 2^-64).
//! Addresses, and integers that are addresses of allocated blocks, are named by where
//! their block was allocated (the statement's key and the how-many-th block it
//! allocated), not by the interpreter's block numbers, which a variant that allocates
//! one block more or less would shift for every later block. What a call writes to a
//! file is part of its state, as printed output is. The end of a run
//! is one more occurrence: how it ended, and which files it left written or removed. Occurrences are named by statement key ([`super::keys`]) and
//! execution index, so that histories of different variants line up.
//!
//! Dynamic slices are followed as in the change-effects monitor
//! ([`crate::effects::monitor`]): data dependence on the last write of a register of the
//! same activation or of a memory address, control dependence on the latest occurrence
//! of a branch the statement is statically control dependent on (else on the call that
//! started the activation), parameters on what the call's arguments read, a call's
//! result on what the callee returned; memory byte by byte, and a call of the C library
//! model on the bytes it read, its writes being part of its state. Each location
//! carries the set of change sets (bits) whose slices it is in; an occurrence in two
//! sets' slices is where they meet.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use ripple_dataflow::ControlDependence;
use ripple_interp::{BlockOrigin, Location, NodeEvent, ObservedWrite, Observer, Value};
use ripple_ir::{FuncId, NodeId, NodeKind, Program, VarId};

use super::keys::VariantNodes;
use crate::effects::monitor::latest_control;

/// One occurrence: statement key, execution index, digest of the state it modified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    pub key: u32,
    pub occ: u32,
    pub digest: u64,
    /// Its place in the run (for "first" in reports).
    pub step: u32,
}

/// What one run recorded.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Sorted by (key, occurrence) once the run is over ([`History::finish`]).
    pub entries: Vec<Entry>,
    /// Whether the history was cut at its length limit.
    pub truncated: bool,
    /// The change sets (bits) whose changes ran.
    pub covered: u64,
    /// Per change set: the sets whose dynamic slices met its own.
    pub meets: Vec<u64>,
}

impl History {
    /// Adds the end of the run (`how` says how it ended and what files it left) and
    /// sorts the entries.
    pub fn finish(&mut self, how: &[u8]) {
        let mut h = FxHasher::default();
        how.hash(&mut h);
        let step = self.entries.len() as u32;
        self.entries.push(Entry {
            key: super::keys::END_KEY,
            occ: 0,
            digest: h.finish(),
            step,
        });
        self.entries.sort_unstable_by_key(|e| (e.key, e.occ));
    }
}

#[derive(Default)]
struct Frame {
    regs: FxHashMap<VarId, u64>,
    /// Latest occurrence of each branch: (sequence number, slices).
    branches: FxHashMap<NodeId, (u64, u64)>,
    /// The slices of the call that started the activation, and of its arguments.
    call: u64,
    params: u64,
    /// A call of a defined function waiting for its callee to return.
    pending_call: Option<NodeId>,
}

/// The observer.
pub struct Tracer<'a> {
    program: &'a Program,
    nodes: &'a VariantNodes,
    max_entries: usize,
    control: FxHashMap<FuncId, ControlDependence>,
    frames: Vec<Frame>,
    memory: FxHashMap<u64, u64>,
    counts: FxHashMap<u32, u32>,
    seq: u64,
    entering: Option<(u64, u64)>,
    returned: u64,
    pub history: History,
}

impl<'a> Tracer<'a> {
    pub fn new(
        program: &'a Program,
        nodes: &'a VariantNodes,
        sets: usize,
        max_entries: usize,
    ) -> Tracer<'a> {
        Tracer {
            program,
            nodes,
            max_entries,
            control: FxHashMap::default(),
            frames: Vec::new(),
            memory: FxHashMap::default(),
            counts: FxHashMap::default(),
            seq: 0,
            entering: None,
            returned: 0,
            history: History {
                meets: vec![0; sets],
                ..History::default()
            },
        }
    }

    fn frame(&mut self, depth: usize) -> &mut Frame {
        while self.frames.len() <= depth {
            self.frames.push(Frame::default());
        }
        &mut self.frames[depth]
    }

    /// The slices the control of statement `n` of the activation at `depth` is in.
    fn control(&mut self, depth: usize, f: FuncId, n: NodeId) -> u64 {
        let frame = &self.frames[depth];
        match latest_control(&mut self.control, self.program, f, n, &frame.branches) {
            None => frame.call,
            Some(latest) => latest.unwrap_or(0),
        }
    }

    fn data(&self, depth: usize, event: &NodeEvent<'_>) -> u64 {
        let frame = &self.frames[depth];
        let function = &self.program.functions[event.function];
        let mut slices = 0;
        for read in event.reads {
            slices |= match read.location {
                Location::Local(v) => match frame.regs.get(&v) {
                    Some(&s) => s,
                    None if function.params.contains(&v) => frame.params,
                    None => 0,
                },
                Location::Memory(a) => self.bytes(a, read.size),
            };
        }
        for access in event.library.iter().filter(|a| !a.write) {
            slices |= self.bytes(access.address, access.size);
        }
        slices
    }

    /// The slices the bytes `[a, a + size)` are in.
    fn bytes(&self, a: u64, size: u64) -> u64 {
        (a..a + size.max(1)).fold(0, |s, b| s | self.memory.get(&b).copied().unwrap_or(0))
    }

    /// Notes the sets an occurrence is in, and where they meet.
    fn slices_of(&mut self, f: FuncId, n: NodeId, from: u64) -> u64 {
        let own = self.nodes.groups[f.index()][n.index()];
        self.history.covered |= own;
        let all = from | own;
        if all.count_ones() > 1 {
            let mut bits = all;
            while bits != 0 {
                let g = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(m) = self.history.meets.get_mut(g) {
                    *m |= all & !(1 << g);
                }
            }
        }
        all
    }

    fn record(&mut self, f: FuncId, n: NodeId, digest: u64) {
        if self.history.entries.len() >= self.max_entries {
            self.history.truncated = true;
            return;
        }
        let key = self.nodes.key[f.index()][n.index()];
        let c = self.counts.entry(key).or_insert(0);
        let occ = *c;
        *c += 1;
        let step = self.history.entries.len() as u32;
        self.history.entries.push(Entry {
            key,
            occ,
            digest,
            step,
        });
    }

    fn write(&mut self, depth: usize, location: &Location, size: u64, slices: u64) {
        match *location {
            Location::Local(v) => {
                self.frames[depth].regs.insert(v, slices);
            }
            Location::Memory(a) => {
                for b in a..a + size.max(1) {
                    if slices == 0 {
                        self.memory.remove(&b);
                    } else {
                        self.memory.insert(b, slices);
                    }
                }
            }
        }
    }
}

impl Tracer<'_> {
    /// Hashes an address as the block's origin (the key of the statement that allocated
    /// it and the how-many-th block it allocated) and the offset, so that a variant that
    /// allocates one block more elsewhere does not rename every later block.
    fn digest_address(&self, h: &mut FxHasher, origins: &[BlockOrigin], address: u64) {
        match origins.get((address >> 32) as usize).copied().flatten() {
            Some((f, n, serial)) => {
                let key = self.nodes.key[f.index()][n.index()];
                (1u8, key, serial, address as u32).hash(h);
            }
            None => (0u8, address).hash(h),
        }
    }

    /// Hashes a value; an integer that is the address of an allocated block (pointers
    /// are integers here) is hashed as that address.
    fn digest_value(&self, h: &mut FxHasher, origins: &[BlockOrigin], value: &Value) {
        match value {
            Value::Int(v)
                if *v >> 32 != 0
                    && *v <= u128::from(u64::MAX)
                    && origins
                        .get((*v >> 32) as usize)
                        .copied()
                        .flatten()
                        .is_some() =>
            {
                4u8.hash(h);
                self.digest_address(h, origins, *v as u64);
            }
            Value::Int(v) => (0u8, v).hash(h),
            Value::F32(f) => (1u8, f.to_bits()).hash(h),
            Value::F64(f) => (2u8, f.to_bits()).hash(h),
            Value::Bytes(b) => (3u8, b).hash(h),
        }
    }

    /// The state a write leaves: the value, and for memory where (a register is named
    /// by the statement, whose key is the entry's).
    fn digest_write(&self, h: &mut FxHasher, origins: &[BlockOrigin], write: &ObservedWrite) {
        if let Location::Memory(a) = write.location {
            self.digest_address(h, origins, a);
        }
        self.digest_value(h, origins, &write.value);
    }
}

impl Observer for Tracer<'_> {
    fn on_call(&mut self, event: &NodeEvent<'_>) {
        let (f, n, depth) = (event.function, event.node, event.depth);
        self.frame(depth);
        let control = self.control(depth, f, n);
        let params = self.data(depth, event);
        let call = self.slices_of(f, n, control);
        self.frames[depth].pending_call = Some(n);
        self.entering = Some((call, params | call));
    }

    fn on_node(&mut self, event: &NodeEvent<'_>) {
        let (f, n, depth) = (event.function, event.node, event.depth);
        let function = &self.program.functions[f];
        if n == function.entry {
            self.frames.truncate(depth);
            let (call, params) = self.entering.take().unwrap_or((0, 0));
            let entered = self.nodes.entered[f.index()];
            self.history.covered |= entered;
            self.frames.push(Frame {
                call,
                params,
                ..Frame::default()
            });
            return;
        }
        self.frame(depth);
        if n == function.exit {
            self.returned = function
                .ret_var
                .and_then(|v| self.frames[depth].regs.get(&v).copied())
                .unwrap_or(0);
            self.frames.truncate(depth);
            return;
        }
        self.seq += 1;
        let seq = self.seq;
        let mut h = FxHasher::default();
        if let Some(write) = event.write {
            self.digest_write(&mut h, event.origins, write);
        }
        if self.frames[depth].pending_call == Some(n) {
            // A call of a defined function returned: its result is what the callee
            // returned.
            self.frames[depth].pending_call = None;
            let slices = std::mem::take(&mut self.returned);
            if let Some(write) = event.write {
                self.write(depth, &write.location, write.size, slices);
            }
            self.record(f, n, h.finish());
            return;
        }
        event.branch.hash(&mut h);
        event.output.hash(&mut h);
        for access in event.library.iter().filter(|a| a.write) {
            self.digest_address(&mut h, event.origins, access.address);
            // Eight bytes may be a pointer (`strtol`'s end): named by its block's origin.
            match <[u8; 8]>::try_from(access.bytes.as_slice()) {
                Ok(word) => {
                    let value = Value::Int(u128::from(u64::from_le_bytes(word)));
                    self.digest_value(&mut h, event.origins, &value);
                }
                Err(_) => access.bytes.hash(&mut h),
            }
        }
        let from = self.data(depth, event) | self.control(depth, f, n);
        let slices = self.slices_of(f, n, from);
        self.record(f, n, h.finish());
        for access in event.library.iter().filter(|a| a.write) {
            let at = Location::Memory(access.address);
            self.write(depth, &at, access.size, slices);
        }
        if let Some(write) = event.write {
            self.write(depth, &write.location, write.size, slices);
        }
        if matches!(function.nodes[n].kind, NodeKind::Branch { .. }) {
            self.frames[depth].branches.insert(n, (seq, slices));
        }
    }
}
