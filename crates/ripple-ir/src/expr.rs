//! Typed, side-effect-free expressions.

use crate::{FuncId, GlobalId, TypeId, VarId};

/// An expression with its type. Lowering makes every C conversion explicit with
/// [`ExprKind::Cast`], so the operands of an arithmetic or comparison operator always
/// have the same type (shifts excepted: the result has the left operand's type).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer constant, as the bits of a value of `ty` (truncated to its width).
    Int(u128),
    /// A floating constant (rounded to `float` when `ty` is float).
    Float(f64),
    /// The value of a register local.
    Local(VarId),
    /// The address of a memory local (its storage in the current frame).
    AddrOfLocal(VarId),
    /// The address of a global object.
    AddrOfGlobal(GlobalId),
    /// The address of a function.
    AddrOfFunc(FuncId),
    /// The value of type `ty` stored at an address. `ty` may be a record type: the value
    /// is then the record's bytes (struct assignment, passing and returning).
    Load(Box<Expr>),
    /// A bit-field read: `width` bits at bit `bit_offset` of the storage unit at the
    /// address, of the unit's integer type, sign-extended when `ty` is signed.
    LoadBits {
        addr: Box<Expr>,
        unit: TypeId,
        bit_offset: u32,
        width: u32,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty`: integer truncation and extension (by the
    /// source's signedness), integer/float, float/float, pointer/integer, pointer/pointer,
    /// and to `_Bool` (non-zero becomes 1).
    Cast(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnOp {
    Neg,
    BitNot,
    /// `!e`: 1 when the operand is zero, else 0; the result is `int`.
    LogicalNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Division, truncating toward zero; signedness from the operand type.
    Div,
    Rem,
    Shl,
    /// Arithmetic shift for signed left operands, logical otherwise.
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Comparisons give `int` 0 or 1; signedness (or pointer order) from the operands.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Pointer plus a signed byte offset (a `long`): array indexing and pointer
    /// arithmetic after scaling by the element size.
    PtrAdd,
    /// The byte distance between two pointers (a `long`); lowering divides by the element
    /// size for C pointer subtraction.
    PtrDiff,
}

impl BinOp {
    /// `+`, `-`, `*`, `/`, `%`: the operators that compute a new number.
    pub fn is_arithmetic(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
        )
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// The comparison that holds exactly when this one does not (of integers: `<` and
    /// `>=`); other operators are returned as they are.
    pub fn negated(self) -> BinOp {
        match self {
            BinOp::Lt => BinOp::Ge,
            BinOp::Le => BinOp::Gt,
            BinOp::Gt => BinOp::Le,
            BinOp::Ge => BinOp::Lt,
            BinOp::Eq => BinOp::Ne,
            BinOp::Ne => BinOp::Eq,
            other => other,
        }
    }

    /// The comparison with its operands swapped: `a < b` as `b > a`.
    pub fn mirrored(self) -> BinOp {
        match self {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            other => other,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::PtrAdd => "+p",
            BinOp::PtrDiff => "-p",
        }
    }
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::BitNot => "~",
            UnOp::LogicalNot => "!",
        }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, ty: TypeId) -> Self {
        Expr { kind, ty }
    }

    pub fn int(value: u128, ty: TypeId) -> Self {
        Expr::new(ExprKind::Int(value), ty)
    }

    pub fn local(var: VarId, ty: TypeId) -> Self {
        Expr::new(ExprKind::Local(var), ty)
    }

    pub fn load(addr: Expr, ty: TypeId) -> Self {
        Expr::new(ExprKind::Load(Box::new(addr)), ty)
    }

    pub fn unary(op: UnOp, operand: Expr, ty: TypeId) -> Self {
        Expr::new(ExprKind::Unary(op, Box::new(operand)), ty)
    }

    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr, ty: TypeId) -> Self {
        Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), ty)
    }

    pub fn cast(operand: Expr, ty: TypeId) -> Self {
        Expr::new(ExprKind::Cast(Box::new(operand)), ty)
    }

    /// Calls `visit` on this expression and every subexpression, parents first.
    pub fn walk(&self, visit: &mut impl FnMut(&Expr)) {
        visit(self);
        match &self.kind {
            ExprKind::Load(inner) | ExprKind::Unary(_, inner) | ExprKind::Cast(inner) => {
                inner.walk(visit);
            }
            ExprKind::LoadBits { addr, .. } => addr.walk(visit),
            ExprKind::Binary(_, lhs, rhs) => {
                lhs.walk(visit);
                rhs.walk(visit);
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Local(_)
            | ExprKind::AddrOfLocal(_)
            | ExprKind::AddrOfGlobal(_)
            | ExprKind::AddrOfFunc(_) => {}
        }
    }

    /// The globals this expression, evaluated as a value, reaches through their address:
    /// `at` hears of each at the base of a load's address (offset by integers: read
    /// there), `value` of each whose address it uses as a value (kept, compared, passed,
    /// stored).
    pub fn global_uses(&self, at: &mut dyn FnMut(GlobalId), value: &mut dyn FnMut(GlobalId)) {
        match &self.kind {
            ExprKind::Load(addr) | ExprKind::LoadBits { addr, .. } => {
                addr.address_global_uses(at, value);
            }
            ExprKind::AddrOfGlobal(g) => value(*g),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => a.global_uses(at, value),
            ExprKind::Binary(_, a, b) => {
                a.global_uses(at, value);
                b.global_uses(at, value);
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Local(_)
            | ExprKind::AddrOfLocal(_)
            | ExprKind::AddrOfFunc(_) => {}
        }
    }

    /// [`Expr::global_uses`] of this expression as the address of an access: a global at
    /// its base (offset by integers) is where the access is (`at`); any other operand is
    /// a value.
    pub fn address_global_uses(
        &self,
        at: &mut dyn FnMut(GlobalId),
        value: &mut dyn FnMut(GlobalId),
    ) {
        match &self.kind {
            ExprKind::AddrOfGlobal(g) => at(*g),
            ExprKind::Cast(a) => a.address_global_uses(at, value),
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::PtrAdd, a, b) => {
                a.address_global_uses(at, value);
                b.global_uses(at, value);
            }
            _ => self.global_uses(at, value),
        }
    }

    /// The register locals this expression reads.
    pub fn locals_read(&self, out: &mut Vec<VarId>) {
        self.walk(&mut |e| {
            if let ExprKind::Local(v) = e.kind {
                out.push(v);
            }
        });
    }

    /// Whether the expression reads memory.
    pub fn reads_memory(&self) -> bool {
        let mut reads = false;
        self.walk(&mut |e| {
            if matches!(e.kind, ExprKind::Load(_) | ExprKind::LoadBits { .. }) {
                reads = true;
            }
        });
        reads
    }
}
