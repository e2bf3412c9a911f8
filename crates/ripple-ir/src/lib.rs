//! The analysis language shared by every ripple technique.
//!
//! A [`Program`] is a set of procedures, each a control-flow graph of single-effect
//! nodes (assign, branch, call, havoc, skip, with one entry and one exit), over typed,
//! side-effect-free expressions. This is the small imperative language the papers
//! formalise over (Gyori et al., ISSTA 2017, section 2; Trostanetski et al., SAS 2017,
//! section 2), extended with the memory model C needs:
//!
//! - Locals whose address is never taken and whose type is scalar are *registers*
//!   ([`ExprKind::Local`]); every other object (address-taken locals, aggregates,
//!   globals, string literals, heap) lives in *memory* and is read with
//!   [`ExprKind::Load`] and written through [`Place::Mem`] at an explicit address.
//! - Addresses are computed explicitly: field offsets and `index * size` are visible in
//!   the expression tree ([`BinOp::PtrAdd`]), so the interpreter can run the IR on real
//!   bytes and each analysis can choose its own abstraction of memory (a byte array,
//!   regions per points-to class or per field) without the IR changing.
//!
//! Architecture invariant: this crate knows nothing about C syntax or tree-sitter. The
//! only link back to source code is the [`Span`] on every node and the per-function
//! [`SyntaxTree`] that the version matcher works on.

pub mod bits;
mod display;
mod expr;
mod ids;
mod node;
mod program;
mod span;
mod syntax;
mod types;
mod validate;

pub use display::{dump_function, dump_globals, dump_program};
pub use expr::{BinOp, Expr, ExprKind, UnOp};
pub use ids::{FileId, FuncId, GlobalId, IndexVec, NodeId, SynId, TypeId, VarId};
pub use node::{Callee, Intrinsic, Node, NodeKind, Place};
pub use program::{
    Approximation, ApproximationKind, Function, Global, GlobalInit, InitItem, Linkage, Local,
    LocalKind, Program, ReadError, SourceFile, Storage,
};
pub use span::Span;
pub use syntax::{SynNode, SyntaxTree};
pub use types::{Field, FloatKind, IntKind, Record, Type, TypeTable};
pub use validate::{validate_function, validate_program, ValidationError};
