//! Observation of a run: one event per executed node, with the values it read and wrote.
//!
//! Dynamic checks of the analyses are built on this: replaying a witness input on two
//! versions of a function, or recording which values each node reads to check a
//! change-impact claim. The interpreter is generic over the [`Observer`]; with
//! [`NoObserver`] (`ENABLED = false`) no value is recorded and the hook compiles away.

use ripple_ir::{FuncId, NodeId, VarId};

use crate::Value;

/// Where a value was read from or written to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A register local of the executing function.
    Local(VarId),
    /// Memory, at an interpreter address (`block << 32 | offset`).
    Memory(u64),
}

/// One value a node read (a register or a memory load), in evaluation order.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedRead {
    pub location: Location,
    pub value: Value,
    /// The bytes read from memory (0 for a register).
    pub size: u64,
}

/// The value a node wrote (assignment target or call result).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedWrite {
    pub location: Location,
    pub value: Value,
    /// The bytes written to memory (0 for a register; for a bit-field, its unit).
    pub size: u64,
}

/// A range of memory that a call of the C library model or a memory intrinsic
/// (`memcpy`, `memset`, ...) read or wrote, in the order of access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryAccess {
    pub address: u64,
    pub size: u64,
    pub write: bool,
    /// What was read (as it was then), or what the write left once the call returned
    /// (empty when the block is gone by then).
    pub bytes: Vec<u8>,
}

/// One executed node. A call node to a defined function is reported when the call
/// returns (after the callee's nodes), with its argument reads and the result it stored.
#[derive(Clone, Debug)]
pub struct NodeEvent<'a> {
    pub function: FuncId,
    pub node: NodeId,
    /// The call depth: 0 for the function the run started with.
    pub depth: usize,
    pub reads: &'a [ObservedRead],
    pub write: Option<&'a ObservedWrite>,
    /// For a call of the C library or of a memory intrinsic, the memory it read and
    /// wrote (with what a callback it called read and wrote); empty for other nodes.
    pub library: &'a [LibraryAccess],
    /// For a branch node, whether the condition held (the true successor was taken).
    pub branch: Option<bool>,
    /// What the node wrote to the standard output and error streams, and to files (per
    /// write: its length, 8 bytes little endian, then the bytes): a call
    /// of the C library; empty for every other node, and for a call of a defined
    /// function.
    pub output: [&'a [u8]; 3],
    /// By block id (the high 32 bits of an address): where each block was allocated,
    /// so that observers can name memory independently of allocation order.
    pub origins: &'a [crate::memory::BlockOrigin],
}

/// Receives node events.
pub trait Observer {
    /// Whether reads and writes are recorded at all; `false` makes observation free.
    const ENABLED: bool = true;

    fn on_node(&mut self, event: &NodeEvent<'_>) {
        let _ = event;
    }

    /// A call of a defined function, before the callee's first node: the event carries
    /// the reads of the call's arguments (the call node itself is reported by
    /// [`Observer::on_node`] when the call returns).
    fn on_call(&mut self, event: &NodeEvent<'_>) {
        let _ = event;
    }

    /// Whether [`Observer::on_exit`] is wanted for the functions that return at call
    /// depth `depth` (reading every local costs a little at each return).
    fn wants_locals(&self, depth: usize) -> bool {
        let _ = depth;
        false
    }

    /// A function returns (at its exit node, before its frame goes): the value of each
    /// of its locals, registers and memory alike, by [`VarId`] (`None` for a register
    /// never set). Reported only when [`Observer::wants_locals`] says so.
    fn on_exit(&mut self, function: FuncId, depth: usize, locals: &[Option<Value>]) {
        let _ = (function, depth, locals);
    }
}

/// The observer of an unobserved run.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ENABLED: bool = false;
}
