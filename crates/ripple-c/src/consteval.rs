//! Constant evaluation: folds lowered (typed, side-effect-free) expressions into
//! integers, floats or addresses plus offsets, with the exact C semantics of the IR's
//! operators (widths, signedness, conversions). Integer constant expressions (array
//! sizes, enumerators, case labels, bit-field widths) and static initializers use it.

use ripple_ir::{BinOp, Expr, ExprKind, FuncId, GlobalId, Type, TypeTable, UnOp};
use tree_sitter::Node as TsNode;

use crate::lower::Lowerer;

/// What a constant address points at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Base {
    Global(GlobalId),
    Func(FuncId),
}

/// A folded constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Const {
    /// Bits of an integer (or pointer) value, truncated to the type's width.
    Int(u128),
    Float(f64),
    Addr(Base, i64),
}

pub(crate) use ripple_ir::bits::{sign_extend, truncate};

/// The value of integer bits of type `ty` as a mathematical integer.
pub(crate) fn int_value(types: &TypeTable, value: u128, ty: ripple_ir::TypeId) -> i128 {
    let bits = types.bits(ty);
    if types.is_signed(ty) {
        sign_extend(value, bits)
    } else {
        truncate(value, bits) as i128
    }
}

/// Folds an expression; `None` when it is not constant.
pub(crate) fn fold(types: &TypeTable, e: &Expr) -> Option<Const> {
    let bits = types.bits(e.ty);
    match &e.kind {
        ExprKind::Int(v) => Some(Const::Int(truncate(*v, bits))),
        ExprKind::Float(f) => Some(Const::Float(*f)),
        ExprKind::AddrOfGlobal(g) => Some(Const::Addr(Base::Global(*g), 0)),
        ExprKind::AddrOfFunc(f) => Some(Const::Addr(Base::Func(*f), 0)),
        ExprKind::Cast(inner) => {
            let c = fold(types, inner)?;
            cast(types, c, inner.ty, e.ty)
        }
        ExprKind::Unary(op, inner) => {
            let c = fold(types, inner)?;
            match (op, c) {
                (UnOp::Neg, Const::Int(v)) => Some(Const::Int(truncate(v.wrapping_neg(), bits))),
                (UnOp::Neg, Const::Float(f)) => Some(Const::Float(-f)),
                (UnOp::BitNot, Const::Int(v)) => Some(Const::Int(truncate(!v, bits))),
                (UnOp::LogicalNot, Const::Int(v)) => Some(Const::Int(u128::from(v == 0))),
                (UnOp::LogicalNot, Const::Float(f)) => Some(Const::Int(u128::from(f == 0.0))),
                (UnOp::LogicalNot, Const::Addr(..)) => Some(Const::Int(0)),
                _ => None,
            }
        }
        ExprKind::Binary(op, lhs, rhs) => {
            let a = fold(types, lhs)?;
            let b = fold(types, rhs)?;
            binary(types, *op, a, b, lhs.ty, rhs.ty, e.ty)
        }
        _ => None,
    }
}

fn cast(
    types: &TypeTable,
    c: Const,
    from: ripple_ir::TypeId,
    to: ripple_ir::TypeId,
) -> Option<Const> {
    let to_bits = types.bits(to);
    match (c, types.get(to)) {
        (Const::Int(v), Type::Int(ripple_ir::IntKind::Bool)) => {
            Some(Const::Int(u128::from(v != 0)))
        }
        (Const::Float(f), Type::Int(ripple_ir::IntKind::Bool)) => {
            Some(Const::Int(u128::from(f != 0.0)))
        }
        (Const::Int(v), Type::Int(_) | Type::Pointer(_)) => {
            let value = int_value(types, v, from);
            Some(Const::Int(truncate(value as u128, to_bits)))
        }
        (Const::Int(v), Type::Float(kind)) => {
            let value = int_value(types, v, from);
            let f = value as f64;
            Some(Const::Float(if *kind == ripple_ir::FloatKind::Float {
                f64::from(value as f32)
            } else {
                f
            }))
        }
        (Const::Float(f), Type::Float(kind)) => {
            Some(Const::Float(if *kind == ripple_ir::FloatKind::Float {
                f64::from(f as f32)
            } else {
                f
            }))
        }
        (Const::Float(f), Type::Int(_)) => {
            let v = if types.is_signed(to) {
                (f as i128) as u128
            } else {
                f as u128
            };
            Some(Const::Int(truncate(v, to_bits)))
        }
        (Const::Addr(b, o), Type::Int(_) | Type::Pointer(_)) if to_bits == 64 => {
            Some(Const::Addr(b, o))
        }
        _ => None,
    }
}

fn binary(
    types: &TypeTable,
    op: BinOp,
    a: Const,
    b: Const,
    lty: ripple_ir::TypeId,
    rty: ripple_ir::TypeId,
    ty: ripple_ir::TypeId,
) -> Option<Const> {
    let bits = types.bits(ty);
    let cmp = |o: std::cmp::Ordering| -> bool {
        use std::cmp::Ordering::*;
        match op {
            BinOp::Eq => o == Equal,
            BinOp::Ne => o != Equal,
            BinOp::Lt => o == Less,
            BinOp::Le => o != Greater,
            BinOp::Gt => o == Greater,
            BinOp::Ge => o != Less,
            _ => false,
        }
    };
    match (a, b) {
        (Const::Int(x), Const::Int(y)) => {
            let signed = types.is_signed(lty);
            let obits = types.bits(lty);
            let xs = int_value(types, x, lty);
            let ys = int_value(types, y, rty);
            if op.is_comparison() {
                let o = if signed {
                    xs.cmp(&ys)
                } else {
                    truncate(x, obits).cmp(&truncate(y, obits))
                };
                return Some(Const::Int(u128::from(cmp(o))));
            }
            let r: u128 = match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div | BinOp::Rem => {
                    if y == 0 {
                        return None;
                    }
                    if signed {
                        let q = if op == BinOp::Div {
                            xs.checked_div(ys)?
                        } else {
                            xs.checked_rem(ys)?
                        };
                        q as u128
                    } else if op == BinOp::Div {
                        truncate(x, obits) / truncate(y, obits)
                    } else {
                        truncate(x, obits) % truncate(y, obits)
                    }
                }
                BinOp::Shl => {
                    let s = u32::try_from(ys).ok()?;
                    if s >= 128 {
                        0
                    } else {
                        x << s
                    }
                }
                BinOp::Shr => {
                    let s = u32::try_from(ys).ok()?;
                    if s >= bits {
                        if signed && xs < 0 {
                            u128::MAX
                        } else {
                            0
                        }
                    } else if signed {
                        (xs >> s) as u128
                    } else {
                        truncate(x, bits) >> s
                    }
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::PtrAdd => x.wrapping_add(ys as u128),
                BinOp::PtrDiff => x.wrapping_sub(y),
                _ => return None,
            };
            Some(Const::Int(truncate(r, bits)))
        }
        (Const::Float(x), Const::Float(y)) => {
            if op.is_comparison() {
                let o = x.partial_cmp(&y)?;
                return Some(Const::Int(u128::from(cmp(o))));
            }
            let single = types.bits(ty) == 32;
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => return None,
            };
            Some(Const::Float(if single { f64::from(r as f32) } else { r }))
        }
        (Const::Addr(base, o), Const::Int(y)) => {
            let ys = int_value(types, y, rty) as i64;
            match op {
                BinOp::PtrAdd | BinOp::Add => Some(Const::Addr(base, o.wrapping_add(ys))),
                BinOp::Sub => Some(Const::Addr(base, o.wrapping_sub(ys))),
                BinOp::Ne if ys == 0 => Some(Const::Int(1)),
                BinOp::Eq if ys == 0 => Some(Const::Int(0)),
                _ => None,
            }
        }
        (Const::Addr(b1, o1), Const::Addr(b2, o2)) if b1 == b2 => match op {
            BinOp::PtrDiff | BinOp::Sub => {
                Some(Const::Int(truncate(o1.wrapping_sub(o2) as u128, bits)))
            }
            _ if op.is_comparison() => Some(Const::Int(u128::from(cmp(o1.cmp(&o2))))),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Lowerer<'a, '_> {
    /// Lowers `node` without keeping any of its effects and returns the expression.
    pub fn speculate<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let snap = self.snapshot();
        self.speculating += 1;
        let result = f(self);
        self.speculating -= 1;
        self.restore(snap);
        result
    }

    /// The value of an integer constant expression, or `None`.
    pub fn const_int_expr(&mut self, node: TsNode<'a>) -> Option<i128> {
        self.speculate(|this| {
            let effects = this.func.effects;
            let e = this.rvalue(node);
            if this.func.effects != effects {
                return None;
            }
            match fold(&this.linker.program.types, &e)? {
                Const::Int(v) => {
                    if this.linker.program.types.is_float(e.ty) {
                        return None;
                    }
                    Some(int_value(&this.linker.program.types, v, e.ty))
                }
                _ => None,
            }
        })
    }

    /// Folds an already lowered expression to an integer, if constant.
    pub fn fold_int(&self, e: &Expr) -> Option<i128> {
        match fold(&self.linker.program.types, e)? {
            Const::Int(v) if !self.linker.program.types.is_float(e.ty) => {
                Some(int_value(&self.linker.program.types, v, e.ty))
            }
            _ => None,
        }
    }
}
