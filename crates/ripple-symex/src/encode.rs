//! C semantics on LP64 as bit-vector and floating-point terms.
//!
//! Values are bit-vectors of their C width (pointers 64 bits, `float` and `double` as
//! their IEEE bits, records as their bytes). Integer arithmetic wraps (GCC `-fwrapv`);
//! shift counts are masked as x86 does (the interpreter does the same); floating-point
//! operations round to nearest even; comparisons follow IEEE (NaN is unordered).

use ripple_ir::{BinOp, FloatKind, Type, TypeId, TypeTable, UnOp};
use z3::ast::RoundingMode;
use z3::ast::{Array, Bool, Float, BV};

use crate::smt::{fp_convert, fp_from_bits, fp_from_int, fp_to_bits, fp_to_int};

/// How values of a type are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    Int {
        bits: u32,
        signed: bool,
    },
    Float {
        bits: u32,
    },
    Pointer,
    /// Records and arrays: `bytes` bytes.
    Bytes {
        bytes: u32,
    },
    Void,
}

impl Repr {
    pub fn of(types: &TypeTable, ty: TypeId) -> Repr {
        match types.get(ty) {
            Type::Int(kind) => Repr::Int {
                bits: kind.bits(),
                signed: kind.is_signed(),
            },
            Type::Float(FloatKind::Float) => Repr::Float { bits: 32 },
            Type::Float(_) => Repr::Float { bits: 64 },
            Type::Pointer(_) | Type::Function { .. } => Repr::Pointer,
            Type::Void => Repr::Void,
            Type::Array { .. } | Type::Record(_) => Repr::Bytes {
                bytes: u32::try_from(types.size_of(ty).max(1)).unwrap_or(u32::MAX),
            },
        }
    }

    /// Width in bits of a value.
    pub fn bits(self) -> u32 {
        match self {
            Repr::Int { bits, .. } | Repr::Float { bits } => bits,
            Repr::Pointer => 64,
            Repr::Bytes { bytes } => bytes.saturating_mul(8).min(1 << 20),
            Repr::Void => 8,
        }
    }

    /// Bytes a value occupies in memory.
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    fn signed(self) -> bool {
        matches!(self, Repr::Int { signed: true, .. })
    }
}

pub fn rne() -> RoundingMode {
    RoundingMode::round_nearest_ties_to_even()
}

pub fn bv_const(value: u128, bits: u32) -> BV {
    if bits <= 64 {
        BV::from_u64(value as u64, bits)
    } else {
        let low = BV::from_u64(value as u64, 64);
        let high = BV::from_u64((value >> 64) as u64, bits - 64);
        high.concat(&low)
    }
}

/// Resizes an integer to `bits`, extending by `signed`.
pub fn resize(value: &BV, bits: u32, signed: bool) -> BV {
    let size = value.get_size();
    if size == bits {
        value.clone()
    } else if size > bits {
        value.extract(bits - 1, 0)
    } else if signed {
        value.sign_ext(bits - size)
    } else {
        value.zero_ext(bits - size)
    }
}

/// C truth value of a scalar: non-zero (floats: not ±0).
pub fn truth(value: &BV, repr: Repr) -> Bool {
    match repr {
        Repr::Float { .. } => fp_from_bits(value).is_zero().not(),
        _ => value.eq(BV::from_u64(0, value.get_size())).not(),
    }
}

/// An `int` 0/1 from a condition.
pub fn bool_to_int(cond: &Bool) -> BV {
    cond.ite(&BV::from_u64(1, 32), &BV::from_u64(0, 32))
}

pub fn unary(op: UnOp, operand: &BV, repr: Repr, result_bits: u32) -> BV {
    match op {
        UnOp::Neg => match repr {
            Repr::Float { .. } => fp_to_bits(&fp_from_bits(operand).unary_neg()),
            _ => operand.bvneg(),
        },
        UnOp::BitNot => operand.bvnot(),
        UnOp::LogicalNot => resize(
            &bool_to_int(&truth(operand, repr).not()),
            result_bits,
            false,
        ),
    }
}

/// A binary operation; `lrepr` is the left operand's representation (the operands have the
/// same type except for shifts and pointer arithmetic). Division and remainder by zero are
/// left to the caller's trap check.
pub fn binary(op: BinOp, lhs: &BV, rhs: &BV, lrepr: Repr, rrepr: Repr, result: Repr) -> BV {
    let result_bits = result.bits();
    if let Repr::Float { bits } = lrepr {
        if !matches!(op, BinOp::PtrAdd | BinOp::PtrDiff) {
            return float_binary(op, lhs, &resize_float(rhs, rrepr, bits), result_bits);
        }
    }
    let bits = lhs.get_size();
    let rhs_same = || resize(rhs, bits, rrepr.signed());
    let signed = lrepr.signed();
    let cmp = |c: Bool| resize(&bool_to_int(&c), result_bits, false);
    match op {
        BinOp::Add => lhs.bvadd(rhs_same()),
        BinOp::Sub => lhs.bvsub(rhs_same()),
        BinOp::Mul => lhs.bvmul(rhs_same()),
        BinOp::Div => {
            if signed {
                lhs.bvsdiv(rhs_same())
            } else {
                lhs.bvudiv(rhs_same())
            }
        }
        BinOp::Rem => {
            if signed {
                lhs.bvsrem(rhs_same())
            } else {
                lhs.bvurem(rhs_same())
            }
        }
        BinOp::Shl | BinOp::Shr => {
            let mask = if bits <= 32 { 31 } else { 63 };
            let count = resize(rhs, bits, rrepr.signed()).bvand(BV::from_u64(mask, bits));
            if op == BinOp::Shl {
                lhs.bvshl(count)
            } else if signed {
                lhs.bvashr(count)
            } else {
                lhs.bvlshr(count)
            }
        }
        BinOp::BitAnd => lhs.bvand(rhs_same()),
        BinOp::BitOr => lhs.bvor(rhs_same()),
        BinOp::BitXor => lhs.bvxor(rhs_same()),
        BinOp::Eq => cmp(lhs.eq(rhs_same())),
        BinOp::Ne => cmp(lhs.eq(rhs_same()).not()),
        BinOp::Lt => cmp(if signed {
            lhs.bvslt(rhs_same())
        } else {
            lhs.bvult(rhs_same())
        }),
        BinOp::Le => cmp(if signed {
            lhs.bvsle(rhs_same())
        } else {
            lhs.bvule(rhs_same())
        }),
        BinOp::Gt => cmp(if signed {
            lhs.bvsgt(rhs_same())
        } else {
            lhs.bvugt(rhs_same())
        }),
        BinOp::Ge => cmp(if signed {
            lhs.bvsge(rhs_same())
        } else {
            lhs.bvuge(rhs_same())
        }),
        BinOp::PtrAdd => resize(lhs, 64, false).bvadd(resize(
            rhs,
            64,
            rrepr.signed() || !matches!(rrepr, Repr::Int { .. }),
        )),
        BinOp::PtrDiff => resize(
            &resize(lhs, 64, false).bvsub(resize(rhs, 64, false)),
            result_bits,
            true,
        ),
    }
}

fn resize_float(value: &BV, repr: Repr, bits: u32) -> BV {
    match repr {
        Repr::Float { bits: from } if from != bits => {
            fp_to_bits(&fp_convert(&fp_from_bits(value), bits))
        }
        _ => value.clone(),
    }
}

fn float_binary(op: BinOp, lhs: &BV, rhs: &BV, result_bits: u32) -> BV {
    let a = fp_from_bits(lhs);
    let b = fp_from_bits(rhs);
    let rm = rne();
    let cmp = |c: Bool| resize(&bool_to_int(&c), result_bits, false);
    let arith = |f: Float| fp_to_bits(&f);
    match op {
        BinOp::Add => arith(a.add_with_rounding_mode(&b, &rm)),
        BinOp::Sub => arith(a.sub_with_rounding_mode(&b, &rm)),
        BinOp::Mul => arith(a.mul_with_rounding_mode(&b, &rm)),
        BinOp::Div => arith(a.div_with_rounding_mode(&b, &rm)),
        BinOp::Eq => cmp(a.eq_fpa(&b)),
        BinOp::Ne => cmp(a.eq_fpa(&b).not()),
        BinOp::Lt => cmp(a.lt(&b)),
        BinOp::Le => cmp(a.le(&b)),
        BinOp::Gt => cmp(a.gt(&b)),
        BinOp::Ge => cmp(a.ge(&b)),
        // Not C operators on floats; keep the bits well-typed.
        _ => lhs.clone(),
    }
}

/// The conversion of a value from one representation to another (C casts).
pub fn cast(value: &BV, from: Repr, to: Repr) -> BV {
    match (from, to) {
        (_, Repr::Void) => BV::from_u64(0, 8),
        (Repr::Float { bits: fb }, Repr::Float { bits: tb }) => {
            if fb == tb {
                value.clone()
            } else {
                fp_to_bits(&fp_convert(&fp_from_bits(value), tb))
            }
        }
        (Repr::Float { .. }, Repr::Int { bits: 8, .. }) if is_bool_target(to) => value.clone(),
        (Repr::Float { .. }, Repr::Int { bits, signed }) => {
            fp_to_int(&fp_from_bits(value), signed, bits)
        }
        (Repr::Float { .. }, Repr::Pointer) => fp_to_int(&fp_from_bits(value), false, 64),
        (Repr::Int { signed, .. }, Repr::Float { bits }) => {
            fp_to_bits(&fp_from_int(value, signed, bits))
        }
        (Repr::Pointer, Repr::Float { bits }) => fp_to_bits(&fp_from_int(value, false, bits)),
        (_, Repr::Int { bits, .. } | Repr::Float { bits }) => resize(value, bits, from.signed()),
        (_, Repr::Pointer) => resize(value, 64, from.signed()),
        (_, Repr::Bytes { bytes }) => resize(value, bytes.saturating_mul(8).max(8), false),
    }
}

fn is_bool_target(_to: Repr) -> bool {
    false
}

/// Conversion to `_Bool`: 1 when non-zero.
pub fn to_bool(value: &BV, from: Repr) -> BV {
    truth(value, from).ite(&BV::from_u64(1, 8), &BV::from_u64(0, 8))
}

/// `bytes` bytes at `addr`, little-endian.
pub fn load(mem: &Array, addr: &BV, bytes: u32) -> BV {
    let mut value: Option<BV> = None;
    for i in 0..bytes.max(1) {
        let at = if i == 0 {
            addr.clone()
        } else {
            addr.bvadd(BV::from_u64(u64::from(i), 64))
        };
        let byte = mem.select(&at).as_bv().expect("memory holds bytes");
        value = Some(match value {
            None => byte,
            Some(low) => byte.concat(&low),
        });
    }
    value.expect("at least one byte")
}

/// Stores the bytes of `value` at `addr`, little-endian.
pub fn store(mem: &Array, addr: &BV, value: &BV) -> Array {
    let bits = value.get_size();
    let bytes = bits.div_ceil(8);
    let value = resize(value, bytes * 8, false);
    let mut mem = mem.clone();
    for i in 0..bytes {
        let at = if i == 0 {
            addr.clone()
        } else {
            addr.bvadd(BV::from_u64(u64::from(i), 64))
        };
        mem = mem.store(&at, &value.extract(i * 8 + 7, i * 8));
    }
    mem
}
