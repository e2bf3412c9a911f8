//! Graphs over the IR that every technique shares.

mod callgraph;

pub use callgraph::{CallGraph, CallSite, CallTarget};
