//! Graphs over the IR that every technique shares.

mod bitset;
mod callgraph;
pub mod dominators;
mod iccfg;
mod scc;

pub use bitset::{BitMatrix, BitSet};
pub use callgraph::{address_taken_functions, may_target, CallGraph, CallSite, CallTarget};
pub use iccfg::{Ccfg, Component, ComponentKind, Iccfg, IccfgStats};
pub use scc::{strongly_connected_components, Sccs};
