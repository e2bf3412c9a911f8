//! CFG nodes: one side effect each.

use crate::{Expr, FuncId, NodeId, Span, SynId, TypeId, VarId};

/// A node of a function's control-flow graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Successors. A [`NodeKind::Branch`] has two (taken when the condition is non-zero,
    /// then when it is zero); [`NodeKind::Exit`] has none; every other node has one.
    pub succs: Vec<NodeId>,
    pub span: Span,
    /// The syntax node this node was lowered from (statement, or loop/branch condition).
    pub syn: Option<SynId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// The unique entry of the function.
    Entry,
    /// The unique exit: the function returns the value of its return variable, if any.
    Exit,
    Skip,
    Assign {
        dst: Place,
        value: Expr,
    },
    /// A two-way branch; `switch`, `&&`, `||` and `?:` become chains of branches.
    Branch {
        cond: Expr,
    },
    Call {
        dst: Option<Place>,
        callee: Callee,
        args: Vec<Expr>,
    },
    /// A construct the IR does not model (inline assembly, `setjmp`, an unknown builtin):
    /// it may write `dst` (when given) and any memory reachable by the program. Every
    /// havoc is also listed in [`crate::Program::approximations`].
    Havoc {
        dst: Option<Place>,
        reason: String,
    },
}

/// Where an assignment or call result goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// A register local.
    Local(VarId),
    /// Memory at `addr`, holding a value of type `ty` (a scalar or a record).
    Mem { addr: Expr, ty: TypeId },
    /// A bit-field: `width` bits at `bit_offset` within the integer unit at `addr`.
    Bits {
        addr: Expr,
        unit: TypeId,
        bit_offset: u32,
        width: u32,
    },
}

/// What a call node calls.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A known function: defined in the program, or declared only (external; the
    /// interpreter's libc model and the analyses' summaries of externals apply).
    Direct(FuncId),
    /// A call through a function pointer. Call-graph construction resolves the targets.
    Indirect(Expr),
    /// A compiler builtin with fixed semantics.
    Intrinsic(Intrinsic),
}

/// Builtins that have no C body. Arguments are listed per variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `va_start(ap)`: args `[address of the va_list]`.
    VaStart,
    /// `va_arg(ap, T)`: args `[address of the va_list]`; the result type is the type of
    /// the destination.
    VaArg,
    /// `va_end(ap)`: args `[address of the va_list]`.
    VaEnd,
    /// `va_copy(dst, src)`: args `[address of dst, address of src]`.
    VaCopy,
    /// Copy `size` bytes: args `[dst, src, size]`.
    Memcpy,
    /// Fill `size` bytes: args `[dst, byte, size]`.
    Memset,
    /// Stack allocation (`alloca`, variable-length arrays): args `[size]`, returns the address.
    Alloca,
}

impl Intrinsic {
    pub fn name(self) -> &'static str {
        match self {
            Intrinsic::VaStart => "va_start",
            Intrinsic::VaArg => "va_arg",
            Intrinsic::VaEnd => "va_end",
            Intrinsic::VaCopy => "va_copy",
            Intrinsic::Memcpy => "memcpy",
            Intrinsic::Memset => "memset",
            Intrinsic::Alloca => "alloca",
        }
    }
}

impl Node {
    pub fn new(kind: NodeKind, span: Span) -> Self {
        Node {
            kind,
            succs: Vec::new(),
            span,
            syn: None,
        }
    }

    /// Whether the node is a havoc standing for a call of `setjmp` (the frontend lowers
    /// it so, with a reason starting with the function's name): it returns 0, then
    /// again when a later call jumps back to it.
    pub fn is_setjmp(&self) -> bool {
        match &self.kind {
            NodeKind::Havoc { reason, .. } => {
                let name = reason.split(':').next().unwrap_or_default();
                matches!(name, "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp")
                    && reason.contains("non-local control flow")
            }
            _ => false,
        }
    }

    /// The function a direct call calls.
    pub fn direct_callee(&self) -> Option<FuncId> {
        match &self.kind {
            NodeKind::Call {
                callee: Callee::Direct(f),
                ..
            } => Some(*f),
            _ => None,
        }
    }

    /// Every expression the node evaluates (operands, addresses, call arguments).
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        match &self.kind {
            NodeKind::Entry | NodeKind::Exit | NodeKind::Skip => {}
            NodeKind::Assign { dst, value } => {
                push_place(dst, &mut out);
                out.push(value);
            }
            NodeKind::Branch { cond } => out.push(cond),
            NodeKind::Call { dst, callee, args } => {
                if let Some(dst) = dst {
                    push_place(dst, &mut out);
                }
                if let Callee::Indirect(target) = callee {
                    out.push(target);
                }
                out.extend(args.iter());
            }
            NodeKind::Havoc { dst, .. } => {
                if let Some(dst) = dst {
                    push_place(dst, &mut out);
                }
            }
        }
        out
    }
}

fn push_place<'a>(place: &'a Place, out: &mut Vec<&'a Expr>) {
    match place {
        Place::Local(_) => {}
        Place::Mem { addr, .. } | Place::Bits { addr, .. } => out.push(addr),
    }
}
