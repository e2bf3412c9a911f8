//! The dataflow engines every statement-level technique of ripple shares.
//!
//! - [`framework`]: one monotone dataflow framework (domain: bottom, entry, transfer,
//!   join) with a deterministic worklist; [`reaching`] (reaching definitions of
//!   registers) is an instance.
//! - [`control`]: post-dominators and control dependence (Ferrante, Ottenstein and
//!   Warren, TOPLAS 1987; the CONTROLDEPENDENT predicate of 000, Table 1).
//! - [`pointsto`]: an inclusion-based (Andersen) field-sensitive points-to analysis, with
//!   a unification-based (Steensgaard) fallback for very large programs; both partition
//!   memory into the regions the other engines use.
//! - [`calls`]: the call graph with calls through pointers resolved by points-to.
//! - [`modref`]: the memory regions each function may read and write (globals, heap,
//!   out-parameters), transitively over calls: the extra inputs and outputs of 000
//!   section 2.2.
//! - [`sdg`]: program dependence graphs and the system dependence graph with parameter
//!   and summary edges (Horwitz, Reps and Binkley, TOPLAS 1990; summary edges by Reps,
//!   Horwitz, Sagiv and Rosay, FSE 1994).
//! - [`slice`]: two-phase context-sensitive forward and backward slicing over the SDG;
//!   the two directions are duals (004 section 5).
//!
//! Architecture invariant: this crate reads the IR only, does no I/O and knows nothing of
//! versions, C syntax or reports. Every result is built from sorted data, so it does not
//! depend on hash order.

pub mod bitset;
pub mod calls;
pub mod control;
pub mod framework;
pub mod initial_values;
mod libc;
mod memdeps;
pub mod modref;
pub mod noreturn;
pub mod pointsto;
pub mod reaching;
pub mod sdg;
pub mod slice;

pub use bitset::BitSet;
pub use calls::{call_graph_with, resolved_call_graph};
pub use control::{ControlDependence, PostDominators};
pub use framework::{solve, Analysis, Direction, Solution};
pub use initial_values::InitialValues;
pub use libc::{count_stores, unmodelled_library_functions, CountStores};
pub use modref::ModRef;
pub use pointsto::{Access, PartId, PointsTo, PointsToConfig, PointsToMode};
pub use sdg::{Bound, EdgeKind, IfaceVar, Port, Sdg, SdgConfig, VertexId, VertexKind};
pub use slice::{slice, SliceDirection};
