//! Expression evaluation: integer arithmetic with wrapping and x86-64 shift and
//! division behaviour, IEEE floats, pointer arithmetic on encoded pointers, casts.

use ripple_ir::{BinOp, Expr, ExprKind, UnOp};

use crate::exec::{Exec, Stop};
use crate::memory::make_ptr;
use crate::observe::{Location, ObservedRead};
use crate::value::{extend, float_to_int, int_to_f32, int_to_f64, sign_extend, truncate, Repr};
use crate::{Interpreter, Value};

impl Interpreter<'_> {
    /// Evaluates an expression in the current frame.
    pub(crate) fn eval(&mut self, e: &Expr) -> Exec<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(match self.repr(e.ty) {
                Repr::F32 => Value::F32(*v as i128 as f32),
                Repr::F64 | Repr::LongDouble => Value::F64(*v as i128 as f64),
                repr => Value::Int(truncate(*v, repr.int_bits().map_or(128, |(b, _)| b))),
            }),
            ExprKind::Float(f) => Ok(match self.repr(e.ty) {
                Repr::F32 => Value::F32(*f as f32),
                Repr::Int { bits, signed, .. } => Value::Int(float_to_int(*f, bits, signed)),
                _ => Value::F64(*f),
            }),
            ExprKind::Local(var) => {
                let value = self.read_var(*var)?;
                if self.record_reads {
                    self.reads.push(ObservedRead {
                        location: Location::Local(*var),
                        value: value.clone(),
                        size: 0,
                    });
                }
                Ok(value)
            }
            ExprKind::AddrOfLocal(var) => {
                let block = self
                    .frames
                    .last()
                    .and_then(|f| f.mem_blocks.get(var.index()).copied())
                    .unwrap_or(0);
                if block == 0 {
                    return Err(Stop::Unsupported(format!(
                        "address of register or missing local {var}"
                    )));
                }
                Ok(Value::pointer(block, 0))
            }
            ExprKind::AddrOfGlobal(global) => match self.global_blocks.get(global.index()) {
                Some(block) => Ok(Value::pointer(*block, 0)),
                None => Err(Stop::Unsupported(format!("no global {global}"))),
            },
            ExprKind::AddrOfFunc(func) => {
                if func.index() >= self.program.functions.len() {
                    return Err(Stop::Unsupported(format!("no function {func}")));
                }
                Ok(Value::pointer(self.func_base + func.0, 0))
            }
            ExprKind::Load(addr) => {
                let address = self.eval(addr)?.as_u64();
                let value = self.read_typed(address, e.ty)?;
                if self.record_reads {
                    self.reads.push(ObservedRead {
                        location: Location::Memory(address),
                        value: value.clone(),
                        size: self.access_size(e.ty),
                    });
                }
                Ok(value)
            }
            ExprKind::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let address = self.eval(addr)?.as_u64();
                let value = self.read_bits(address, *unit, *bit_offset, *width, e.ty)?;
                if self.record_reads {
                    self.reads.push(ObservedRead {
                        location: Location::Memory(address),
                        value: value.clone(),
                        size: self.access_size(*unit),
                    });
                }
                Ok(value)
            }
            ExprKind::Unary(op, operand) => {
                let v = self.eval(operand)?;
                let repr = self.repr(operand.ty);
                if let (UnOp::Neg, Value::Int(x), Some((bits, true))) = (op, &v, repr.int_bits()) {
                    if bits >= 32 && truncate(*x, bits) == 1u128 << (bits - 1) {
                        self.note_undefined(Undefined::SignedOverflow);
                    }
                }
                self.unary(*op, v, repr, self.repr(e.ty))
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                let lrepr = self.repr(lhs.ty);
                let rrepr = self.repr(rhs.ty);
                if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
                    if let Some(kind) = undefined_int_op(*op, *x, *y, lrepr, rrepr) {
                        self.note_undefined(kind);
                    }
                }
                binary(*op, a, b, lrepr, rrepr, self.repr(e.ty))
            }
            ExprKind::Cast(operand) => {
                if let (
                    ExprKind::Float(f),
                    Repr::Int {
                        bits,
                        signed,
                        is_bool: false,
                    },
                ) = (&operand.kind, self.repr(e.ty))
                {
                    // GCC folds a conversion of a constant at compile time, saturating
                    // out-of-range values instead of producing `cvttsd2si`'s result.
                    return Ok(Value::Int(saturating_float_to_int(*f, bits, signed)));
                }
                let v = self.eval(operand)?;
                if let (
                    Value::F64(f),
                    Repr::Int {
                        bits,
                        signed,
                        is_bool: false,
                    },
                ) = (&v, self.repr(e.ty))
                {
                    if !float_fits(*f, bits, signed) {
                        self.note_undefined(Undefined::FloatToIntRange);
                    }
                } else if let (
                    Value::F32(f),
                    Repr::Int {
                        bits,
                        signed,
                        is_bool: false,
                    },
                ) = (&v, self.repr(e.ty))
                {
                    if !float_fits(f64::from(*f), bits, signed) {
                        self.note_undefined(Undefined::FloatToIntRange);
                    }
                }
                Ok(cast(v, self.repr(operand.ty), self.repr(e.ty)))
            }
        }
    }

    fn unary(&self, op: UnOp, v: Value, repr: Repr, result: Repr) -> Exec<Value> {
        let result_bits = result.int_bits().map_or(32, |(b, _)| b);
        Ok(match (op, v) {
            (UnOp::LogicalNot, v) => Value::Int(u128::from(!v.is_true())),
            (UnOp::Neg, Value::F32(f)) => Value::F32(-f),
            (UnOp::Neg, Value::F64(f)) => Value::F64(-f),
            (UnOp::Neg, Value::Int(v)) => Value::Int(truncate(v.wrapping_neg(), result_bits)),
            (UnOp::BitNot, Value::Int(v)) => Value::Int(truncate(!v, result_bits)),
            (op, v) => {
                return Err(Stop::Unsupported(format!(
                    "operator {} on {v:?} ({repr:?})",
                    op.symbol()
                )))
            }
        })
    }

    /// The address of a memory local of the current frame (for tests and libc).
    #[allow(dead_code)] // Used by tests.
    pub(crate) fn local_address(&self, var: ripple_ir::VarId) -> Option<u64> {
        let block = *self.frames.last()?.mem_blocks.get(var.index())?;
        (block != 0).then(|| make_ptr(block, 0))
    }
}

/// A float-to-integer conversion as GCC's constant folding does it: saturating, NaN 0.
fn saturating_float_to_int(f: f64, bits: u32, signed: bool) -> u128 {
    let v = match (bits, signed) {
        (8, true) => f as i8 as u128,
        (16, true) => f as i16 as u128,
        (32, true) => f as i32 as u128,
        (64, true) => f as i64 as u128,
        (8, false) => u128::from(f as u8),
        (16, false) => u128::from(f as u16),
        (32, false) => u128::from(f as u32),
        (64, false) => u128::from(f as u64),
        (_, true) => f as i128 as u128,
        (_, false) => f as u128,
    };
    truncate(v, bits)
}

/// Operations the C standard leaves undefined that the interpreter (like code built with
/// `-fwrapv` on x86-64) gives a value: a difference through one of them may not show in
/// the program built otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Undefined {
    /// `+ - * << -x` on signed operands whose exact result does not fit.
    SignedOverflow,
    /// A shift by a negative count or by at least the operand's width.
    ShiftCount,
    /// A conversion of a floating value outside the range of the integer type.
    FloatToIntRange,
    /// A read of a register local before any value was given to it (the interpreter
    /// reads 0; a compiled program, whatever the register or stack slot holds).
    UninitialisedRead,
}

impl Undefined {
    pub fn name(self) -> &'static str {
        match self {
            Undefined::SignedOverflow => "signed overflow",
            Undefined::ShiftCount => "shift count out of range",
            Undefined::FloatToIntRange => "float-to-integer conversion out of range",
            Undefined::UninitialisedRead => "uninitialised read",
        }
    }
}

/// Whether truncating `f` toward zero fits the integer type.
fn float_fits(f: f64, bits: u32, signed: bool) -> bool {
    if f.is_nan() {
        return false;
    }
    let t = f.trunc();
    let bits = bits.min(127) as i32;
    if signed {
        let limit = 2f64.powi(bits - 1);
        t >= -limit && t < limit
    } else {
        t > -1.0 && t < 2f64.powi(bits)
    }
}

/// The undefined behaviour of an integer operation on evaluated operands, if any.
fn undefined_int_op(op: BinOp, a: u128, b: u128, lrepr: Repr, rrepr: Repr) -> Option<Undefined> {
    let (bits, signed) = lrepr.int_bits()?;
    if matches!(lrepr, Repr::Pointer) {
        return None;
    }
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul if signed && (32..=64).contains(&bits) => {
            let (x, y) = (sign_extend(a, bits), sign_extend(b, bits));
            let exact = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                _ => x * y,
            };
            let limit = 1i128 << (bits - 1);
            (exact < -limit || exact >= limit).then_some(Undefined::SignedOverflow)
        }
        BinOp::Shl | BinOp::Shr => {
            let (rbits, rsigned) = rrepr.int_bits().unwrap_or((64, false));
            let count = if rsigned {
                sign_extend(b, rbits)
            } else {
                truncate(b, rbits) as i128
            };
            if count < 0 || count >= i128::from(bits) {
                return Some(Undefined::ShiftCount);
            }
            if op == BinOp::Shl && signed && (32..=64).contains(&bits) {
                let x = sign_extend(a, bits);
                let shifted = x.checked_shl(count as u32)?;
                let limit = 1i128 << (bits - 1);
                if x < 0 || shifted >= limit {
                    return Some(Undefined::SignedOverflow);
                }
            }
            None
        }
        _ => None,
    }
}

/// A binary operator on evaluated operands.
fn binary(op: BinOp, a: Value, b: Value, lrepr: Repr, rrepr: Repr, result: Repr) -> Exec<Value> {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => {
            let (bits, signed) = lrepr.int_bits().unwrap_or((64, false));
            int_binary(op, a, b, bits, signed, rrepr, result)
        }
        (Value::F64(a), Value::F64(b)) => float_binary(op, a, b).map(|r| match r {
            FloatResult::Value(v) => Value::F64(v),
            FloatResult::Bool(v) => Value::Int(u128::from(v)),
        }),
        (Value::F32(a), Value::F32(b)) => {
            float_binary(op, f64::from(a), f64::from(b)).map(|r| match r {
                // Single-precision + - * / of two floats computed in double and rounded
                // once give the correctly rounded single result (double has > 2*24+2 bits).
                FloatResult::Value(v) => Value::F32(v as f32),
                FloatResult::Bool(v) => Value::Int(u128::from(v)),
            })
        }
        (a, b) => {
            // Mixed operands (malformed IR or an unconverted operand): compute in double
            // when either side is a float.
            let af = a.as_f64();
            let bf = b.as_f64();
            match float_binary(op, af, bf)? {
                FloatResult::Value(v) => Ok(cast(Value::F64(v), Repr::F64, result)),
                FloatResult::Bool(v) => Ok(Value::Int(u128::from(v))),
            }
        }
    }
}

enum FloatResult {
    Value(f64),
    Bool(bool),
}

fn float_binary(op: BinOp, a: f64, b: f64) -> Exec<FloatResult> {
    Ok(match op {
        BinOp::Add => FloatResult::Value(a + b),
        BinOp::Sub => FloatResult::Value(a - b),
        BinOp::Mul => FloatResult::Value(a * b),
        BinOp::Div => FloatResult::Value(a / b),
        BinOp::Eq => FloatResult::Bool(a == b),
        BinOp::Ne => FloatResult::Bool(a != b),
        BinOp::Lt => FloatResult::Bool(a < b),
        BinOp::Le => FloatResult::Bool(a <= b),
        BinOp::Gt => FloatResult::Bool(a > b),
        BinOp::Ge => FloatResult::Bool(a >= b),
        op => {
            return Err(Stop::Unsupported(format!(
                "operator {} on floating operands",
                op.symbol()
            )))
        }
    })
}

/// An integer (or pointer) operator on operands of `bits` bits.
pub(crate) fn int_binary(
    op: BinOp,
    a: u128,
    b: u128,
    bits: u32,
    signed: bool,
    rrepr: Repr,
    result: Repr,
) -> Exec<Value> {
    let result_bits = result.int_bits().map_or(bits, |(b, _)| b);
    let wrap = |v: u128| Ok(Value::Int(truncate(v, result_bits)));
    let sa = sign_extend(a, bits);
    let sb = sign_extend(b, bits);
    let ua = truncate(a, bits);
    let ub = truncate(b, bits);
    let cmp = |v: bool| Ok(Value::Int(u128::from(v)));
    match op {
        BinOp::Add => wrap(a.wrapping_add(b)),
        BinOp::Sub => wrap(a.wrapping_sub(b)),
        BinOp::Mul => wrap(a.wrapping_mul(b)),
        BinOp::Div | BinOp::Rem => {
            if ub == 0 {
                return Err(Stop::Trap("division by zero".into()));
            }
            if signed {
                let min = if bits >= 128 {
                    i128::MIN
                } else {
                    -(1i128 << (bits - 1))
                };
                if sb == -1 && sa == min && bits >= 32 {
                    return Err(Stop::Trap("signed division overflow".into()));
                }
                let r = if op == BinOp::Div {
                    sa.wrapping_div(sb)
                } else {
                    sa.wrapping_rem(sb)
                };
                wrap(r as u128)
            } else if op == BinOp::Div {
                wrap(ua / ub)
            } else {
                wrap(ua % ub)
            }
        }
        BinOp::Shl | BinOp::Shr => {
            let (rbits, rsigned) = rrepr.int_bits().unwrap_or((64, false));
            let count = extend(b, rbits, rsigned);
            // x86 masks the count to the operand width (5 bits up to 32-bit operands).
            let mask: u128 = match bits {
                0..=32 => 31,
                33..=64 => 63,
                _ => 127,
            };
            let count = (count & mask) as u32;
            if op == BinOp::Shl {
                wrap(ua.checked_shl(count).unwrap_or(0))
            } else if signed {
                wrap((sa >> count.min(127)) as u128)
            } else {
                wrap(ua.checked_shr(count).unwrap_or(0))
            }
        }
        BinOp::BitAnd => wrap(a & b),
        BinOp::BitOr => wrap(a | b),
        BinOp::BitXor => wrap(a ^ b),
        BinOp::Eq => cmp(ua == ub),
        BinOp::Ne => cmp(ua != ub),
        BinOp::Lt => cmp(if signed { sa < sb } else { ua < ub }),
        BinOp::Le => cmp(if signed { sa <= sb } else { ua <= ub }),
        BinOp::Gt => cmp(if signed { sa > sb } else { ua > ub }),
        BinOp::Ge => cmp(if signed { sa >= sb } else { ua >= ub }),
        BinOp::PtrAdd => {
            let (rbits, rsigned) = rrepr.int_bits().unwrap_or((64, true));
            let offset = extend(b, rbits, rsigned);
            Ok(Value::Int(truncate(a.wrapping_add(offset), 64)))
        }
        BinOp::PtrDiff => {
            let diff = (a as u64 as i64).wrapping_sub(b as u64 as i64);
            wrap(diff as i128 as u128)
        }
    }
}

/// Converts a value from one representation to another.
pub(crate) fn cast(v: Value, from: Repr, to: Repr) -> Value {
    match (v, to) {
        (Value::Bytes(b), _) => Value::Bytes(b),
        (v, Repr::Int { is_bool: true, .. }) => Value::Int(u128::from(v.is_true())),
        (Value::Int(v), Repr::Int { bits, .. }) => {
            let (fbits, fsigned) = from.int_bits().unwrap_or((64, false));
            Value::Int(truncate(extend(v, fbits, fsigned), bits))
        }
        (Value::Int(v), Repr::Pointer) => {
            let (fbits, fsigned) = from.int_bits().unwrap_or((64, false));
            Value::Int(truncate(extend(v, fbits, fsigned), 64))
        }
        (Value::Int(v), Repr::F64 | Repr::LongDouble) => {
            let (fbits, fsigned) = from.int_bits().unwrap_or((64, false));
            Value::F64(int_to_f64(v, fbits, fsigned))
        }
        (Value::Int(v), Repr::F32) => {
            let (fbits, fsigned) = from.int_bits().unwrap_or((64, false));
            Value::F32(int_to_f32(v, fbits, fsigned))
        }
        (Value::F64(f), Repr::Int { bits, signed, .. }) => {
            Value::Int(float_to_int(f, bits, signed))
        }
        (Value::F32(f), Repr::Int { bits, signed, .. }) => {
            Value::Int(float_to_int(f64::from(f), bits, signed))
        }
        (Value::F64(f), Repr::Pointer) => Value::Int(float_to_int(f, 64, false)),
        (Value::F32(f), Repr::Pointer) => Value::Int(float_to_int(f64::from(f), 64, false)),
        (Value::F64(f), Repr::F32) => Value::F32(f as f32),
        (Value::F32(f), Repr::F64 | Repr::LongDouble) => Value::F64(f64::from(f)),
        (v, _) => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INT: Repr = Repr::Int {
        bits: 32,
        signed: true,
        is_bool: false,
    };
    const UINT: Repr = Repr::Int {
        bits: 32,
        signed: false,
        is_bool: false,
    };
    const CHAR: Repr = Repr::Int {
        bits: 8,
        signed: true,
        is_bool: false,
    };

    fn int(v: i64) -> u128 {
        truncate(v as i128 as u128, 32)
    }

    #[test]
    fn integer_arithmetic_wraps_and_traps() {
        let add = int_binary(BinOp::Add, int(i32::MAX.into()), 1, 32, true, INT, INT).unwrap();
        assert_eq!(add, Value::Int(0x8000_0000));
        let div = int_binary(BinOp::Div, int(-7), int(2), 32, true, INT, INT).unwrap();
        assert_eq!(div, Value::Int(int(-3)));
        let rem = int_binary(BinOp::Rem, int(-7), int(2), 32, true, INT, INT).unwrap();
        assert_eq!(rem, Value::Int(int(-1)));
        assert!(int_binary(BinOp::Div, 1, 0, 32, true, INT, INT).is_err());
        assert!(int_binary(
            BinOp::Div,
            int(i32::MIN.into()),
            int(-1),
            32,
            true,
            INT,
            INT
        )
        .is_err());
        let lt = int_binary(BinOp::Lt, int(-1), 1, 32, true, INT, INT).unwrap();
        assert_eq!(lt, Value::Int(1));
        let ult = int_binary(BinOp::Lt, int(-1), 1, 32, false, UINT, INT).unwrap();
        assert_eq!(ult, Value::Int(0));
        let shr = int_binary(BinOp::Shr, int(-8), 1, 32, true, INT, INT).unwrap();
        assert_eq!(shr, Value::Int(int(-4)));
        let shl = int_binary(BinOp::Shl, 1, 33, 32, true, INT, INT).unwrap();
        assert_eq!(shl, Value::Int(2));
    }

    #[test]
    fn casts_extend_by_source_signedness() {
        assert_eq!(cast(Value::Int(0xff), CHAR, INT), Value::Int(0xffff_ffff));
        assert_eq!(cast(Value::Int(0x1ff), INT, CHAR), Value::Int(0xff));
        assert_eq!(cast(Value::Int(int(-1)), INT, Repr::F64), Value::F64(-1.0));
        assert_eq!(
            cast(Value::Int(int(-1)), UINT, Repr::F64),
            Value::F64(4_294_967_295.0)
        );
        assert_eq!(cast(Value::F64(-2.7), Repr::F64, INT), Value::Int(int(-2)));
        let boolean = Repr::Int {
            bits: 8,
            signed: false,
            is_bool: true,
        };
        assert_eq!(cast(Value::F64(0.5), Repr::F64, boolean), Value::Int(1));
    }
}
