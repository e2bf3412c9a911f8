//! C semantics on LP64 as bit-vector and floating-point terms.
//!
//! Values are bit-vectors of their C width (pointers 64 bits, `float` and `double` as
//! their IEEE bits, records as their bytes). Integer arithmetic wraps (GCC `-fwrapv`);
//! shift counts are masked as x86 does (the interpreter does the same); floating-point
//! operations round to nearest even; comparisons follow IEEE (NaN is unordered).

use ripple_ir::{BinOp, FloatKind, Type, TypeId, TypeTable, UnOp};
use z3::ast::RoundingMode;
use z3::ast::{Array, Ast, Bool, Float, BV};

use crate::smt::{fp_convert, fp_from_bits, fp_from_int, fp_to_bits, fp_to_int};

/// How values of a type are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

    pub fn signed(self) -> bool {
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
    if matches!(op, BinOp::Div | BinOp::Rem) && !crate::costly::is_numeral(rhs) {
        crate::costly::note_costly();
    }
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
            // The count modulo the width, as x86 takes it (beyond the width the shift is
            // undefined); 128-bit values by theirs.
            let mask = if bits <= 32 {
                31
            } else if bits <= 64 {
                63
            } else {
                127
            };
            let count = resize(rhs, bits, rrepr.signed()).bvand(BV::from_u64(mask, bits));
            if op == BinOp::Shl {
                // A constant left shift is a product by a power of two: the solver's
                // normal form of sums of products then sees `x << 5` as `32 * x`
                // (a multiplier circuit against a shift is hard to prove equal).
                match count.simplify().as_u64() {
                    Some(k) if k < u64::from(bits).min(64) => {
                        lhs.bvmul(BV::from_u64(1u64 << k, bits))
                    }
                    _ => lhs.bvshl(count),
                }
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
    let (op, lhs, rhs) = canonical_float(op, lhs, rhs);
    let (lhs, rhs) = (&lhs, &rhs);
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

/// One normal form for floating-point operations that IEEE 754 makes equal for every
/// operand (NaN included, as Z3 has one NaN), so that equal computations written
/// differently in two versions become the same term and compare without bit-blasting:
/// `x / c` with `c` a power of two is `x * (1/c)` (both are the correctly rounded
/// `x * 2^-k`, and `1/c` is exact); `x + x` is `x * 2` (both the correctly rounded `2x`);
/// the operands of `+` and `*` (commutative in IEEE 754) are ordered by term identifier.
fn canonical_float(op: BinOp, lhs: &BV, rhs: &BV) -> (BinOp, BV, BV) {
    let bits = lhs.get_size();
    let (mut op, mut lhs, mut rhs) = (op, lhs.clone(), rhs.clone());
    if op == BinOp::Div {
        if let Some(inverse) = rhs.simplify().as_u64().and_then(|c| exact_inverse(c, bits)) {
            op = BinOp::Mul;
            rhs = BV::from_u64(inverse, bits);
        }
    }
    if op == BinOp::Add && lhs.ast_eq(&rhs) {
        op = BinOp::Mul;
        rhs = BV::from_u64(
            if bits == 32 {
                2f32.to_bits().into()
            } else {
                2f64.to_bits()
            },
            bits,
        );
    }
    if matches!(op, BinOp::Add | BinOp::Mul) && crate::smt::ast_id(&rhs) < crate::smt::ast_id(&lhs)
    {
        std::mem::swap(&mut lhs, &mut rhs);
    }
    (op, lhs, rhs)
}

/// The bits of `1/c` when the float `c` (bits of a 32- or 64-bit IEEE value) is a
/// normal power of two, so that `1/c` is exact.
fn exact_inverse(c: u64, bits: u32) -> Option<u64> {
    let (mantissa, exponent_mask, exponent) = if bits == 32 {
        (c & 0x7f_ffff, 0xffu64, (c >> 23) & 0xff)
    } else {
        (c & 0xf_ffff_ffff_ffff, 0x7ffu64, (c >> 52) & 0x7ff)
    };
    if mantissa != 0 || exponent == 0 || exponent == exponent_mask {
        return None;
    }
    if bits == 32 {
        let value = f32::from_bits(c as u32);
        let inverse = 1.0 / value;
        (inverse.is_finite() && inverse != 0.0 && inverse * value == 1.0)
            .then(|| u64::from(inverse.to_bits()))
    } else {
        let value = f64::from_bits(c);
        let inverse = 1.0 / value;
        (inverse.is_finite() && inverse != 0.0 && inverse * value == 1.0).then(|| inverse.to_bits())
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

/// When `op` overflows on signed operands of 32 bits or more (narrower ones are
/// promoted first): `+ - *` and negation (`rhs` `None`) whose exact result does not fit,
/// which C leaves undefined (C11 6.5p5) and [`binary`] and [`unary`] wrap, as `-fwrapv`
/// builds do. `None` for other operations and representations.
pub fn signed_overflow(op: Option<BinOp>, lhs: &BV, rhs: Option<&BV>, repr: Repr) -> Option<Bool> {
    let Repr::Int { bits, signed: true } = repr else {
        return None;
    };
    if bits < 32 || lhs.get_size() != bits {
        return None;
    }
    let fits = match (op, rhs) {
        (None, _) => lhs.bvneg_no_overflow(),
        (Some(op), Some(rhs)) => {
            let rhs = resize(rhs, bits, true);
            match op {
                BinOp::Add => Bool::and(&[
                    lhs.bvadd_no_overflow(&rhs, true),
                    lhs.bvadd_no_underflow(&rhs),
                ]),
                BinOp::Sub => Bool::and(&[
                    lhs.bvsub_no_overflow(&rhs),
                    lhs.bvsub_no_underflow(&rhs, true),
                ]),
                BinOp::Mul => Bool::and(&[
                    lhs.bvmul_no_overflow(&rhs, true),
                    lhs.bvmul_no_underflow(&rhs),
                ]),
                _ => return None,
            }
        }
        (Some(_), None) => return None,
    };
    let overflow = fits.not().simplify();
    (overflow.as_bool() != Some(false)).then_some(overflow)
}

/// When an integer division or remainder `a op b` traps: a zero divisor, or `MIN / -1`
/// for signed operands of 32 bits or more (narrower ones are promoted first). `None`
/// for other operators and for floats.
pub fn division_trap(op: BinOp, a: &BV, b: &BV, lrepr: Repr) -> Option<Bool> {
    if !matches!(op, BinOp::Div | BinOp::Rem) || !matches!(lrepr, Repr::Int { .. }) {
        return None;
    }
    let bits = a.get_size();
    let divisor = resize(b, bits, false);
    let mut trap = divisor.eq(BV::from_u64(0, bits));
    if let Repr::Int {
        signed: true,
        bits: w,
    } = lrepr
    {
        if w >= 32 {
            let min = bv_const(1u128 << (w - 1), w);
            let minus_one = bv_const(u128::MAX, w);
            trap = Bool::or(&[trap, Bool::and(&[a.eq(&min), divisor.eq(&minus_one)])]);
        }
    }
    Some(trap)
}

/// The conversion of `value` (of representation `from`) to type `to`: to `_Bool` when
/// `to` is `_Bool`, else [`cast`].
pub fn convert(types: &TypeTable, value: &BV, from: Repr, to: TypeId) -> BV {
    if matches!(types.get(to), Type::Int(ripple_ir::IntKind::Bool)) {
        to_bool(value, from)
    } else {
        cast(value, from, Repr::of(types, to))
    }
}

/// Stores the low `width` bits of `value` at bit `bit_offset` of the `bytes`-byte unit
/// at `addr`, keeping the unit's other bits (a bit-field assignment).
pub fn store_bits(
    mem: &Array,
    addr: &BV,
    bytes: u32,
    bit_offset: u32,
    width: u32,
    value: &BV,
) -> Array {
    let old = load(mem, addr, bytes);
    let bits = old.get_size();
    let field = resize(value, width, false);
    let mask = ((1u128 << width) - 1) << bit_offset;
    let cleared = old.bvand(bv_const(!mask, bits));
    let shifted = resize(&field, bits, false).bvshl(BV::from_u64(u64::from(bit_offset), bits));
    store(mem, addr, &cleared.bvor(shifted))
}

/// The `width` bits at bit `bit_offset` of the `bytes`-byte unit at `addr`, extended to
/// `result_bits` (sign-extended when `signed`): a bit-field read.
pub fn load_bits(
    mem: &Array,
    addr: &BV,
    bytes: u32,
    bit_offset: u32,
    width: u32,
    result_bits: u32,
    signed: bool,
) -> BV {
    let raw = load(mem, addr, bytes);
    let field = raw.extract(bit_offset + width - 1, bit_offset);
    resize(&field, result_bits, signed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOUBLE: Repr = Repr::Float { bits: 64 };

    fn double(v: f64) -> BV {
        BV::from_u64(v.to_bits(), 64)
    }

    #[test]
    fn equal_float_computations_become_one_term() {
        let x = BV::new_const("x", 64);
        let y = BV::new_const("y", 64);
        let op = |op, a: &BV, b: &BV| binary(op, a, b, DOUBLE, DOUBLE, DOUBLE);
        // x / 2.0 and x * 0.5; x / 0.25 and 4.0 * x.
        assert!(op(BinOp::Div, &x, &double(2.0)).ast_eq(op(BinOp::Mul, &x, &double(0.5))));
        assert!(op(BinOp::Div, &x, &double(0.25)).ast_eq(op(BinOp::Mul, &double(4.0), &x)));
        // x + x and x * 2.0; commuted sums and products.
        assert!(op(BinOp::Add, &x, &x).ast_eq(op(BinOp::Mul, &double(2.0), &x)));
        assert!(op(BinOp::Add, &x, &y).ast_eq(op(BinOp::Add, &y, &x)));
        assert!(op(BinOp::Mul, &x, &y).ast_eq(op(BinOp::Mul, &y, &x)));
        // Not rewritten: division by 3 (1/3 is inexact), subtraction, division of a constant.
        assert!(!op(BinOp::Div, &x, &double(3.0)).ast_eq(op(BinOp::Mul, &x, &double(1.0 / 3.0))));
        assert!(!op(BinOp::Sub, &x, &y).ast_eq(op(BinOp::Sub, &y, &x)));
        assert!(!op(BinOp::Div, &double(2.0), &x).ast_eq(op(BinOp::Mul, &x, &double(0.5))));
    }

    #[test]
    fn exact_inverses_are_those_of_normal_powers_of_two() {
        assert_eq!(exact_inverse(2f64.to_bits(), 64), Some(0.5f64.to_bits()));
        assert_eq!(
            exact_inverse((-8f64).to_bits(), 64),
            Some((-0.125f64).to_bits())
        );
        let big = f64::from_bits(0x7fe0_0000_0000_0000); // 2^1023: its inverse is subnormal
        assert_eq!(
            exact_inverse(big.to_bits(), 64),
            Some((1.0 / big).to_bits())
        );
        assert_eq!(exact_inverse(3f64.to_bits(), 64), None);
        assert_eq!(exact_inverse(0f64.to_bits(), 64), None);
        assert_eq!(exact_inverse(f64::INFINITY.to_bits(), 64), None);
        assert_eq!(exact_inverse(5e-324f64.to_bits(), 64), None);
        assert_eq!(
            exact_inverse(u64::from(4f32.to_bits()), 32),
            Some(u64::from(0.25f32.to_bits()))
        );
        // The rewrite is an identity of IEEE 754, subnormal and infinite results included.
        for x in [
            1.0,
            -3.7,
            1e-310,
            5e-324,
            f64::MAX,
            f64::INFINITY,
            -0.0,
            1e300,
        ] {
            for c in [2.0, 0.5, 1024.0, big] {
                let inverse = f64::from_bits(exact_inverse(c.to_bits(), 64).unwrap());
                assert_eq!((x / c).to_bits(), (x * inverse).to_bits(), "{x} / {c}");
            }
        }
    }
}
