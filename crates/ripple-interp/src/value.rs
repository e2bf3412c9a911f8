//! Runtime values and the bit-level helpers of integer arithmetic.
//!
//! Integers are kept as their bits, zero-extended into a `u128` and truncated to the
//! width of their type; the type (known from the expression) says how to read them.
//! Pointers are 64-bit integers that encode their provenance: the block id in the high
//! 32 bits and the byte offset in the low 32 bits (see [`crate::memory`]). Because a
//! pointer is just an integer, pointer/integer casts round-trip and pointers stored in
//! memory keep their provenance without a side table.

use ripple_ir::{FloatKind, IntKind, Type, TypeId, TypeTable};

/// A value computed by the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer or a pointer, as its bits truncated to the width of its type.
    Int(u128),
    F32(f32),
    /// A `double` (also `long double`, which the interpreter computes as `double`).
    F64(f64),
    /// The bytes of a record or array (struct assignment, passing and returning).
    Bytes(Box<[u8]>),
}

impl Value {
    /// A pointer to `offset` bytes into block `block`.
    pub fn pointer(block: u32, offset: u32) -> Value {
        Value::Int((u128::from(block) << 32) | u128::from(offset))
    }

    /// The low 64 bits of an integer or pointer; floats convert by truncation.
    pub fn as_u64(&self) -> u64 {
        match self {
            Value::Int(bits) => *bits as u64,
            Value::F32(f) => *f as i64 as u64,
            Value::F64(f) => *f as i64 as u64,
            Value::Bytes(bytes) => {
                let mut buf = [0u8; 8];
                let n = bytes.len().min(8);
                buf[..n].copy_from_slice(&bytes[..n]);
                u64::from_le_bytes(buf)
            }
        }
    }

    /// The value as a double (integers are read as signed 64-bit values).
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Int(bits) => *bits as u64 as i64 as f64,
            Value::F32(f) => f64::from(*f),
            Value::F64(f) => *f,
            Value::Bytes(_) => 0.0,
        }
    }

    /// Whether the value is non-zero (the truth value of a condition).
    pub fn is_true(&self) -> bool {
        match self {
            Value::Int(bits) => *bits != 0,
            Value::F32(f) => *f != 0.0,
            Value::F64(f) => *f != 0.0,
            Value::Bytes(bytes) => bytes.iter().any(|b| *b != 0),
        }
    }
}

/// How values of one type are represented: precomputed per [`TypeId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Repr {
    Int {
        bits: u32,
        signed: bool,
        is_bool: bool,
    },
    F32,
    F64,
    /// `long double`: computed as a double, 16 bytes in memory.
    LongDouble,
    Pointer,
    /// Records and arrays: `size` bytes.
    Aggregate {
        size: u64,
    },
    Void,
    Function,
}

impl Repr {
    pub(crate) fn of(types: &TypeTable, ty: TypeId) -> Repr {
        match types.get(ty) {
            Type::Void => Repr::Void,
            Type::Int(kind) => Repr::Int {
                bits: kind.bits(),
                signed: kind.is_signed(),
                is_bool: *kind == IntKind::Bool,
            },
            Type::Float(FloatKind::Float) => Repr::F32,
            Type::Float(FloatKind::Double) => Repr::F64,
            Type::Float(FloatKind::LongDouble) => Repr::LongDouble,
            Type::Pointer(_) => Repr::Pointer,
            Type::Array { .. } | Type::Record(_) => Repr::Aggregate {
                size: types.size_of(ty),
            },
            Type::Function { .. } => Repr::Function,
        }
    }

    /// The width in bits of an integer-like representation (pointers: 64).
    pub(crate) fn int_bits(self) -> Option<(u32, bool)> {
        match self {
            Repr::Int { bits, signed, .. } => Some((bits, signed)),
            Repr::Pointer => Some((64, false)),
            _ => None,
        }
    }
}

pub(crate) use ripple_ir::bits::{sign_extend, truncate};

/// The low `bits` bits of `value` as a 128-bit integer, by the signedness.
pub(crate) fn extend(value: u128, bits: u32, signed: bool) -> u128 {
    if signed {
        sign_extend(value, bits) as u128
    } else {
        truncate(value, bits)
    }
}

/// Converts a double to an integer as x86-64 code compiled by GCC does: in-range values
/// truncate toward zero; out-of-range values give what `cvttsd2si` gives (the "integer
/// indefinite" value) through the same instruction sequences GCC emits.
pub(crate) fn float_to_int(x: f64, bits: u32, signed: bool) -> u128 {
    fn cvt32(x: f64) -> i32 {
        if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
            x as i32
        } else {
            i32::MIN
        }
    }
    fn cvt64(x: f64) -> i64 {
        if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x) {
            x as i64
        } else {
            i64::MIN
        }
    }
    let raw: u128 = match (bits, signed) {
        (128, true) => x as i128 as u128,
        (128, false) => x as u128,
        (64, true) => cvt64(x) as u64 as u128,
        (64, false) => {
            const TWO_63: f64 = 9_223_372_036_854_775_808.0;
            if x >= TWO_63 {
                (cvt64(x - TWO_63) as u64 ^ (1u64 << 63)) as u128
            } else {
                cvt64(x) as u64 as u128
            }
        }
        (32, false) => cvt64(x) as u64 as u128,
        _ => cvt32(x) as u32 as u128,
    };
    truncate(raw, bits)
}

/// Converts integer bits (of the given width and signedness) to a double.
pub(crate) fn int_to_f64(value: u128, bits: u32, signed: bool) -> f64 {
    if signed {
        sign_extend(value, bits) as f64
    } else {
        truncate(value, bits) as f64
    }
}

/// Converts integer bits (of the given width and signedness) to a float, rounding once.
pub(crate) fn int_to_f32(value: u128, bits: u32, signed: bool) -> f32 {
    if signed {
        sign_extend(value, bits) as f32
    } else {
        truncate(value, bits) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_and_truncation() {
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(truncate(0x1_0000_0001, 32), 1);
        assert_eq!(extend(0x80, 8, true), (-128i128) as u128);
    }

    #[test]
    fn float_to_int_matches_x86() {
        assert_eq!(float_to_int(3.9, 32, true), 3);
        assert_eq!(float_to_int(-3.9, 32, true), truncate((-3i128) as u128, 32));
        assert_eq!(float_to_int(1e10, 32, true), 0x8000_0000);
        assert_eq!(float_to_int(f64::NAN, 64, true), 1 << 63);
        assert_eq!(float_to_int(1e19, 64, false), 10_000_000_000_000_000_000);
        assert_eq!(float_to_int(-1.0, 64, false), u128::from(u64::MAX));
        assert_eq!(float_to_int(4e9, 32, false), 4_000_000_000);
        assert_eq!(float_to_int(300.0, 8, true), 44);
    }
}
