//! Integer builtins lowered to IR expressions, exact for every analysis: bit counts
//! (`__builtin_clz`, `ctz`, `popcount`, `parity`, `ffs`, `clrsb` with their `l`, `ll`
//! and type-generic `g` forms), byte swaps (`__builtin_bswap16/32/64/128`), the
//! overflow-checking arithmetic (`__builtin_add/sub/mul_overflow`, the `_p` forms and
//! the typed `__builtin_sadd_overflow` family) and the atomic and `__sync` builtins
//! (plain loads and stores: the IR has one thread).
//!
//! Bit counts are built from one population count (shifts, masks and a multiplication
//! on the value in a temporary): `clz` is the width minus the population count of the
//! value with every bit below its highest set bit set, `ctz` the population count of
//! `~x & (x - 1)`. At zero, where GCC leaves `clz` and `ctz` undefined, they give the
//! width of the type (as `lzcnt`/`tzcnt` do).
//!
//! The overflow builtins compute the infinitely precise result in a 128-bit type (signed,
//! or unsigned for a product of two unsigned operands, whose magnitude needs all 128
//! bits), store it wrapped to the destination type, and report whether it lies outside
//! the destination's range. Operands of 128 bits stay approximated.

use ripple_ir::{ApproximationKind, BinOp, Expr, ExprKind, NodeKind, Place, TypeId, UnOp};
use tree_sitter::Node as TsNode;

use crate::builtins::BuiltinCall;
use crate::expr::Val;
use crate::lower::Lowerer;

/// The bit-count builtins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BitOp {
    Clz,
    Ctz,
    Popcount,
    Parity,
    Ffs,
    Clrsb,
}

/// The arithmetic of the overflow builtins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OvOp {
    Add,
    Sub,
    Mul,
}

/// Read-modify-write operations of the atomic builtins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RmwOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Nand,
}

impl RmwOp {
    fn parse(text: &str) -> Option<RmwOp> {
        Some(match text {
            "add" => RmwOp::Add,
            "sub" => RmwOp::Sub,
            "and" => RmwOp::And,
            "or" => RmwOp::Or,
            "xor" => RmwOp::Xor,
            "nand" => RmwOp::Nand,
            _ => return None,
        })
    }
}

impl<'a> Lowerer<'a, '_> {
    /// The integer builtins of this module; `None` for any other name.
    pub fn int_builtin(&mut self, call: BuiltinCall<'a, '_>) -> Option<Val> {
        if let Some(short) = call.name.strip_prefix("__builtin_") {
            if let Some(v) = self.bit_builtin(short, call.args) {
                return Some(Val::R(v));
            }
            if let Some(v) = self.bswap_builtin(short, call.args) {
                return Some(Val::R(v));
            }
            return self.overflow_builtin(short, call.node, call.args);
        }
        self.atomic_builtin(call)
    }

    // ----- small expression helpers -----

    /// `value` as an expression that may be used several times: constants (folded)
    /// and registers as they are, anything else through a temporary.
    fn reusable(&mut self, value: Expr) -> Expr {
        match value.kind {
            ExprKind::Int(_)
            | ExprKind::Local(_)
            | ExprKind::AddrOfLocal(_)
            | ExprKind::AddrOfGlobal(_)
            | ExprKind::AddrOfFunc(_) => value,
            _ => match crate::consteval::fold(&self.linker.program.types, &value) {
                Some(crate::consteval::Const::Int(v)) => Expr::int(v, value.ty),
                _ => self.spill(value),
            },
        }
    }

    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_comparison() {
            self.types.int
        } else {
            a.ty
        };
        Expr::binary(op, a, b, ty)
    }

    fn ucst(&self, value: u128, ty: TypeId) -> Expr {
        let bits = self.linker.program.types.bits(ty);
        Expr::int(crate::consteval::truncate(value, bits), ty)
    }

    /// `value` repeated in every byte of a type of `bits` bits.
    fn byte_pattern(byte: u8, bits: u32) -> u128 {
        (0..bits / 8).fold(0u128, |acc, _| (acc << 8) | u128::from(byte))
    }

    /// The unsigned integer type of `bits` bits, at least `unsigned int`.
    fn unsigned_of_bits(&self, bits: u32) -> TypeId {
        match bits {
            0..=32 => self.types.uint,
            33..=64 => self.types.ulong,
            _ => self.types.u128,
        }
    }

    /// The population count (an `int`) of an unsigned value of 32, 64 or 128 bits.
    fn popcount_expr(&mut self, x: Expr) -> Expr {
        let ty = x.ty;
        let bits = self.linker.program.types.bits(ty);
        let x = self.reusable(x);
        let c = |this: &Self, byte: u8| this.ucst(Self::byte_pattern(byte, bits), ty);
        let k = |this: &Self, v: u128| this.ucst(v, ty);
        // x - ((x >> 1) & 0x55..)
        let half = self.bin(BinOp::Shr, x.clone(), k(self, 1));
        let half = self.bin(BinOp::BitAnd, half, c(self, 0x55));
        let x1 = self.bin(BinOp::Sub, x, half);
        let x1 = self.reusable(x1);
        // (x1 & 0x33..) + ((x1 >> 2) & 0x33..)
        let lo = self.bin(BinOp::BitAnd, x1.clone(), c(self, 0x33));
        let hi = self.bin(BinOp::Shr, x1, k(self, 2));
        let hi = self.bin(BinOp::BitAnd, hi, c(self, 0x33));
        let x2 = self.bin(BinOp::Add, lo, hi);
        let x2 = self.reusable(x2);
        // (x2 + (x2 >> 4)) & 0x0f..
        let hi = self.bin(BinOp::Shr, x2.clone(), k(self, 4));
        let x3 = self.bin(BinOp::Add, x2, hi);
        let x3 = self.bin(BinOp::BitAnd, x3, c(self, 0x0f));
        // (x3 * 0x01..) >> (bits - 8): the sum of the byte counts in the top byte.
        let sum = self.bin(BinOp::Mul, x3, c(self, 0x01));
        let sum = self.bin(BinOp::Shr, sum, k(self, u128::from(bits - 8)));
        let int = self.types.int;
        self.convert(sum, int)
    }

    /// `x` with every bit below its highest set bit set (unsigned, 32 bits or more).
    fn smear_right(&mut self, x: Expr) -> Expr {
        let ty = x.ty;
        let bits = self.linker.program.types.bits(ty);
        let mut x = self.reusable(x);
        let mut shift = 1;
        while shift < bits {
            let s = self.ucst(u128::from(shift), ty);
            let shifted = self.bin(BinOp::Shr, x.clone(), s);
            let or = self.bin(BinOp::BitOr, x, shifted);
            x = self.reusable(or);
            shift *= 2;
        }
        x
    }

    /// An `int` constant.
    fn int_of(&self, value: i128) -> Expr {
        self.int_const(value, self.types.int)
    }

    // ----- bit counts -----

    fn bit_builtin(&mut self, short: &str, args: &[TsNode<'a>]) -> Option<Expr> {
        let t = self.types;
        let (op, rest) = [
            ("clrsb", BitOp::Clrsb),
            ("clz", BitOp::Clz),
            ("ctz", BitOp::Ctz),
            ("popcount", BitOp::Popcount),
            ("parity", BitOp::Parity),
            ("ffs", BitOp::Ffs),
        ]
        .iter()
        .find_map(|&(p, op)| short.strip_prefix(p).map(|rest| (op, rest)))?;
        let signed_arg = matches!(op, BitOp::Ffs | BitOp::Clrsb);
        let fixed = match (rest, signed_arg) {
            ("", false) => Some(t.uint),
            ("l", false) => Some(t.ulong),
            ("ll", false) => Some(t.ullong),
            ("", true) => Some(t.int),
            ("l", true) => Some(t.long),
            ("ll", true) => Some(t.llong),
            ("g", _) => None,
            _ => return None,
        };
        let x = match args.first() {
            Some(&a) => self.rvalue(a),
            None => self.int_of(0),
        };
        let x = match fixed {
            Some(ty) => self.convert(x, ty),
            // The type-generic forms take the operand's own type (no promotion).
            None if self.is_int(x.ty) && x.ty != t.bool_ => x,
            None => {
                let ty = if signed_arg { t.int } else { t.uint };
                self.convert(x, ty)
            }
        };
        // `__builtin_clzg(x, v)`, `__builtin_ctzg(x, v)`: `v` (an int) when `x` is zero.
        let fallback = match args.get(1) {
            Some(&a) if fixed.is_none() => {
                let v = self.rvalue(a);
                Some(self.convert(v, t.int))
            }
            _ => None,
        };
        for &a in args.iter().skip(if fixed.is_none() { 2 } else { 1 }) {
            self.expr_effects(a);
        }
        let width = self.linker.program.types.bits(x.ty);
        let wide = self.unsigned_of_bits(width);
        let wide_bits = self.linker.program.types.bits(wide);
        let int = t.int;
        if op == BitOp::Clrsb {
            // The redundant sign bits: the width minus the significant bits of
            // `x ^ (x >> (width - 1))`, minus one (computed sign-extended).
            let s = self.signed_of_bits(width);
            let xs = self.convert(x, s);
            let xs = self.reusable(xs);
            let sh = self.ucst(u128::from(wide_bits - 1), s);
            let sign = self.bin(BinOp::Shr, xs.clone(), sh);
            let y = self.bin(BinOp::BitXor, xs, sign);
            let y = self.convert(y, wide);
            let smeared = self.smear_right(y);
            let count = self.popcount_expr(smeared);
            return Some(self.bin(BinOp::Sub, self.int_of(i128::from(width) - 1), count));
        }
        // The operand zero-extended to at least 32 bits.
        let same_width = self.unsigned_of_width(width);
        let u = self.convert(x, same_width);
        let u = self.convert(u, wide);
        let u = self.reusable(u);
        let result = match op {
            BitOp::Popcount => self.popcount_expr(u.clone()),
            BitOp::Parity => {
                let count = self.popcount_expr(u.clone());
                self.bin(BinOp::BitAnd, count, self.int_of(1))
            }
            BitOp::Clz => {
                let smeared = self.smear_right(u.clone());
                let count = self.popcount_expr(smeared);
                self.bin(BinOp::Sub, self.int_of(i128::from(width)), count)
            }
            BitOp::Ctz => {
                // popcount(~x & (x - 1)); a narrow operand gets a sentinel bit just
                // above it, so that zero counts its own width.
                let v = if width < wide_bits {
                    let bit = self.ucst(1u128 << width, wide);
                    let or = self.bin(BinOp::BitOr, u.clone(), bit);
                    self.reusable(or)
                } else {
                    u.clone()
                };
                let below = self.bin(BinOp::Sub, v.clone(), self.ucst(1, wide));
                let not = Expr::unary(UnOp::BitNot, v, wide);
                let mask = self.bin(BinOp::BitAnd, not, below);
                self.popcount_expr(mask)
            }
            _ => {
                // ffs: popcount(x ^ (x - 1)) & -(x != 0), 0 for zero, else ctz + 1.
                let nonzero = self.bin(BinOp::Ne, u.clone(), self.ucst(0, wide));
                let mask = Expr::unary(UnOp::Neg, nonzero, int);
                let below = self.bin(BinOp::Sub, u.clone(), self.ucst(1, wide));
                let low = self.bin(BinOp::BitXor, u.clone(), below);
                let count = self.popcount_expr(low);
                self.bin(BinOp::BitAnd, count, mask)
            }
        };
        match fallback {
            Some(fallback) if matches!(op, BitOp::Clz | BitOp::Ctz) => {
                // x == 0 ? fallback : result, as result ^ ((result ^ fallback) & -(x == 0)).
                let result = self.reusable(result);
                let zero = self.bin(BinOp::Eq, u, self.ucst(0, wide));
                let mask = Expr::unary(UnOp::Neg, zero, int);
                let diff = self.bin(BinOp::BitXor, result.clone(), fallback);
                let pick = self.bin(BinOp::BitAnd, diff, mask);
                Some(self.bin(BinOp::BitXor, result, pick))
            }
            _ => Some(result),
        }
    }

    /// The unsigned integer type of exactly `bits` bits.
    fn unsigned_of_width(&self, bits: u32) -> TypeId {
        let t = self.types;
        match bits {
            8 => t.uchar,
            16 => t.ushort,
            32 => t.uint,
            64 => t.ulong,
            _ => t.u128,
        }
    }

    /// The signed integer type of `bits` bits, at least `int`.
    fn signed_of_bits(&self, bits: u32) -> TypeId {
        match bits {
            0..=32 => self.types.int,
            33..=64 => self.types.long,
            _ => self.types.i128,
        }
    }
}

impl<'a> Lowerer<'a, '_> {
    // ----- byte swaps -----

    fn bswap_builtin(&mut self, short: &str, args: &[TsNode<'a>]) -> Option<Expr> {
        let t = self.types;
        let ty = match short {
            "bswap16" => t.ushort,
            "bswap32" => t.uint,
            "bswap64" => t.ulong,
            "bswap128" => t.u128,
            _ => return None,
        };
        let x = match args.first() {
            Some(&a) => self.rvalue(a),
            None => self.int_of(0),
        };
        for &a in args.iter().skip(1) {
            self.expr_effects(a);
        }
        let x = self.convert(x, ty);
        let bytes = self.linker.program.types.bits(ty) / 8;
        let wide = self.unsigned_of_bits(bytes * 8);
        let x = self.convert(x, wide);
        let x = self.reusable(x);
        // Byte i moves to byte (bytes - 1 - i): ((x >> 8i) & 0xff) << 8(bytes - 1 - i).
        let mut out: Option<Expr> = None;
        for i in 0..bytes {
            let from = 8 * i;
            let to = 8 * (bytes - 1 - i);
            let mut term = x.clone();
            if from > 0 {
                term = self.bin(BinOp::Shr, term, self.ucst(u128::from(from), wide));
            }
            if i + 1 < bytes {
                term = self.bin(BinOp::BitAnd, term, self.ucst(0xff, wide));
            }
            if to > 0 {
                term = self.bin(BinOp::Shl, term, self.ucst(u128::from(to), wide));
            }
            out = Some(match out {
                None => term,
                Some(acc) => self.bin(BinOp::BitOr, acc, term),
            });
        }
        let out = out.unwrap_or_else(|| self.ucst(0, wide));
        Some(self.convert(out, ty))
    }

    // ----- overflow-checking arithmetic -----

    /// `__builtin_add_overflow(a, b, &r)` and relatives: `r` gets the result wrapped to
    /// its type; the value is whether the exact result does not fit that type.
    fn overflow_builtin(
        &mut self,
        short: &str,
        node: TsNode<'a>,
        args: &[TsNode<'a>],
    ) -> Option<Val> {
        let t = self.types;
        let (body, predicate) = match short.strip_suffix("_overflow_p") {
            Some(body) => (body, true),
            None => (short.strip_suffix("_overflow")?, false),
        };
        let op_of = |s: &str| match s {
            "add" => Some(OvOp::Add),
            "sub" => Some(OvOp::Sub),
            "mul" => Some(OvOp::Mul),
            _ => None,
        };
        // The typed forms `__builtin_[su](add|sub|mul)[l|ll]_overflow(T, T, T *)`.
        let (op, typed) = match op_of(body) {
            Some(op) => (op, None),
            None if !predicate => {
                let (signed, rest) = match body.split_at_checked(1)? {
                    ("s", rest) => (true, rest),
                    ("u", rest) => (false, rest),
                    _ => return None,
                };
                let (op, suffix) = rest.split_at_checked(3)?;
                let op = op_of(op)?;
                let ty = match (suffix, signed) {
                    ("", true) => t.int,
                    ("l", true) => t.long,
                    ("ll", true) => t.llong,
                    ("", false) => t.uint,
                    ("l", false) => t.ulong,
                    ("ll", false) => t.ullong,
                    _ => return None,
                };
                (op, Some(ty))
            }
            None => return None,
        };
        let mut operands = Vec::new();
        for i in 0..2 {
            let v = match args.get(i) {
                Some(&a) => self.rvalue(a),
                None => self.int_of(0),
            };
            operands.push(match typed {
                Some(ty) => self.convert(v, ty),
                None => v,
            });
        }
        let b = operands.pop().expect("two operands");
        let a = operands.pop().expect("two operands");
        // The destination: a pointer (its pointee type), or for `_p` an expression whose
        // type (a bit-field's own width) is the result type.
        let (dest, rty, rsigned, rbits) = match args.get(2) {
            Some(&arg) if predicate => {
                let v = self.lower_expr(arg);
                let width = match &v {
                    crate::expr::Val::L(crate::expr::LVal::Bits { width, .. }) => Some(*width),
                    _ => None,
                };
                let e = self.rvalue_of(v);
                let types = &self.linker.program.types;
                let bits = width.unwrap_or_else(|| types.bits(e.ty));
                (None, e.ty, types.is_signed(e.ty), bits)
            }
            Some(&arg) => {
                let p = self.rvalue(arg);
                let pointee = self.linker.program.types.pointee(p.ty).unwrap_or(t.void);
                let types = &self.linker.program.types;
                (
                    Some(p),
                    pointee,
                    types.is_signed(pointee),
                    types.bits(pointee),
                )
            }
            None => (None, t.void, false, 0),
        };
        for &arg in args.iter().skip(3) {
            self.expr_effects(arg);
        }
        let types = &self.linker.program.types;
        let int_operand = |ty: TypeId| types.is_integer(ty) && types.bits(ty) <= 64;
        let modelled = int_operand(a.ty) && int_operand(b.ty) && types.is_integer(rty);
        let signed_work = op != OvOp::Mul || types.is_signed(a.ty) || types.is_signed(b.ty);
        if !modelled || rty == t.bool_ {
            let detail = format!(
                "__builtin_{short}: operands of more than 64 bits or not integers are not modelled"
            );
            self.spill_for_havoc(vec![a.clone(), b.clone()]);
            if let Some(p) = dest {
                let pointee = self
                    .linker
                    .program
                    .types
                    .pointee(p.ty)
                    .filter(|&ty| self.linker.program.types.is_scalar(ty));
                if let Some(ty) = pointee {
                    self.havoc(
                        Some(Place::Mem { addr: p, ty }),
                        ApproximationKind::UnknownBuiltin,
                        node,
                        &detail,
                    );
                } else {
                    self.havoc(None, ApproximationKind::UnknownBuiltin, node, &detail);
                }
            }
            let flag = self.havoc_value(t.bool_, ApproximationKind::UnknownBuiltin, node, &detail);
            return Some(Val::R(flag));
        }
        // The exact result in 128 bits: unsigned for a product of unsigned operands
        // (up to (2^64 - 1)^2), signed otherwise (magnitudes below 2^127).
        let work = if signed_work { t.i128 } else { t.u128 };
        let a = self.convert(a, work);
        let b = self.convert(b, work);
        let binop = match op {
            OvOp::Add => BinOp::Add,
            OvOp::Sub => BinOp::Sub,
            OvOp::Mul => BinOp::Mul,
        };
        let exact = self.bin(binop, a, b);
        let exact = self.reusable(exact);
        if let Some(p) = dest {
            let wrapped = self.convert(exact.clone(), rty);
            self.emit(NodeKind::Assign {
                dst: Place::Mem { addr: p, ty: rty },
                value: wrapped,
            });
        }
        // The destination's range [lo, hi] as 128-bit mathematical integers.
        let (lo, hi): (i128, u128) = if rsigned {
            let half = 1u128 << (rbits - 1);
            ((half as i128).wrapping_neg(), half - 1)
        } else if rbits >= 128 {
            (0, u128::MAX)
        } else {
            (0, (1u128 << rbits) - 1)
        };
        let mut checks = Vec::new();
        if signed_work {
            if lo > i128::MIN {
                checks.push(self.bin(BinOp::Lt, exact.clone(), self.ucst(lo as u128, work)));
            }
            if hi < i128::MAX as u128 {
                checks.push(self.bin(BinOp::Gt, exact.clone(), self.ucst(hi, work)));
            }
        } else if hi < u128::MAX {
            checks.push(self.bin(BinOp::Gt, exact.clone(), self.ucst(hi, work)));
        }
        let overflow = checks
            .into_iter()
            .reduce(|x, y| self.bin(BinOp::BitOr, x, y))
            .unwrap_or_else(|| self.int_of(0));
        let bool_ = t.bool_;
        Some(Val::R(self.convert(overflow, bool_)))
    }
}

/// The atomic and `__sync` builtins this module lowers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atomic {
    /// `__atomic_load_n(p, order)`.
    LoadN,
    /// `__atomic_load(p, ret, order)`.
    Load,
    /// `__atomic_store_n(p, v, order)`.
    StoreN,
    /// `__atomic_store(p, vp, order)`.
    Store,
    /// `__atomic_exchange_n(p, v, order)`, `__sync_lock_test_and_set(p, v)`.
    ExchangeN,
    /// `__atomic_exchange(p, vp, ret, order)`.
    Exchange,
    /// `__atomic_compare_exchange_n(p, expected, desired, weak, ok, fail)`, or with a
    /// pointer to the desired value (`__atomic_compare_exchange`).
    CompareExchange { desired_by_pointer: bool },
    /// `__sync_bool_compare_and_swap(p, old, new)`; with `value`,
    /// `__sync_val_compare_and_swap`.
    CompareAndSwap { value: bool },
    /// `__atomic_fetch_OP`/`__sync_fetch_and_OP` (the old value), or
    /// `__atomic_OP_fetch`/`__sync_OP_and_fetch` (the new one).
    Rmw { op: RmwOp, new: bool },
    /// `__sync_lock_release(p)`.
    Release,
    /// `__atomic_test_and_set(p, order)`.
    TestAndSet,
    /// `__atomic_clear(p, order)`.
    Clear,
    /// `__sync_synchronize()`, `__atomic_thread_fence(o)`, `__atomic_signal_fence(o)`.
    Fence,
    /// `__atomic_always_lock_free(size, p)`.
    AlwaysLockFree,
}

fn parse_atomic(name: &str) -> Option<Atomic> {
    if let Some(rest) = name.strip_prefix("__atomic_") {
        return Some(match rest {
            "load_n" => Atomic::LoadN,
            "load" => Atomic::Load,
            "store_n" => Atomic::StoreN,
            "store" => Atomic::Store,
            "exchange_n" => Atomic::ExchangeN,
            "exchange" => Atomic::Exchange,
            "compare_exchange_n" => Atomic::CompareExchange {
                desired_by_pointer: false,
            },
            "compare_exchange" => Atomic::CompareExchange {
                desired_by_pointer: true,
            },
            "test_and_set" => Atomic::TestAndSet,
            "clear" => Atomic::Clear,
            "thread_fence" | "signal_fence" => Atomic::Fence,
            "always_lock_free" => Atomic::AlwaysLockFree,
            _ => parse_rmw(rest, "fetch_", "_fetch")?,
        });
    }
    let rest = name.strip_prefix("__sync_")?;
    Some(match rest {
        "synchronize" => Atomic::Fence,
        "lock_test_and_set" => Atomic::ExchangeN,
        "lock_release" => Atomic::Release,
        "bool_compare_and_swap" => Atomic::CompareAndSwap { value: false },
        "val_compare_and_swap" => Atomic::CompareAndSwap { value: true },
        _ => parse_rmw(rest, "fetch_and_", "_and_fetch")?,
    })
}

/// A read-modify-write builtin named `{old_prefix}OP` (giving the old value) or
/// `OP{new_suffix}` (the new one).
fn parse_rmw(rest: &str, old_prefix: &str, new_suffix: &str) -> Option<Atomic> {
    Some(match rest.strip_prefix(old_prefix) {
        Some(op) => Atomic::Rmw {
            op: RmwOp::parse(op)?,
            new: false,
        },
        None => Atomic::Rmw {
            op: RmwOp::parse(rest.strip_suffix(new_suffix)?)?,
            new: true,
        },
    })
}

impl<'a> Lowerer<'a, '_> {
    // ----- atomics -----

    /// The atomic builtins as the loads and stores they perform (the IR models one
    /// thread; memory orders are evaluated for their effects and otherwise ignored).
    fn atomic_builtin(&mut self, call: BuiltinCall<'a, '_>) -> Option<Val> {
        let BuiltinCall { name, args, .. } = call;
        let kind = parse_atomic(name)?;
        let t = self.types;
        let void = Val::R(Expr::int(0, t.void));
        let arity = match kind {
            Atomic::Fence => 0,
            Atomic::LoadN | Atomic::Release | Atomic::TestAndSet | Atomic::Clear => 1,
            Atomic::AlwaysLockFree
            | Atomic::Load
            | Atomic::StoreN
            | Atomic::Store
            | Atomic::ExchangeN
            | Atomic::Rmw { .. } => 2,
            Atomic::Exchange | Atomic::CompareExchange { .. } | Atomic::CompareAndSwap { .. } => 3,
        };
        let mut values = Vec::new();
        for i in 0..arity {
            let v = match args.get(i) {
                Some(&a) => self.rvalue(a),
                None => self.int_const(0, t.void_ptr),
            };
            values.push(v);
        }
        for &a in args.iter().skip(arity) {
            self.expr_effects(a);
        }
        if kind == Atomic::Fence {
            return Some(void);
        }
        if kind == Atomic::AlwaysLockFree {
            // Lock-free on x86-64 for objects of 1, 2, 4 and 8 bytes.
            let ulong = t.ulong;
            let size = self.convert(values.remove(0), ulong);
            let size = self.reusable(size);
            let fits = [1, 2, 4, 8]
                .into_iter()
                .map(|n| self.bin(BinOp::Eq, size.clone(), self.ucst(n, ulong)))
                .reduce(|x, y| self.bin(BinOp::BitOr, x, y))
                .expect("four sizes");
            let bool_ = t.bool_;
            return Some(Val::R(self.convert(fits, bool_)));
        }
        let p = values.remove(0);
        let p = self.reusable(p);
        let pointee = self.linker.program.types.pointee(p.ty).unwrap_or(t.void);
        let ty = match kind {
            Atomic::TestAndSet | Atomic::Clear => t.uchar,
            _ => pointee,
        };
        let types = &self.linker.program.types;
        let scalar = types.is_scalar(ty) && !types.is_float(ty);
        let needs_scalar = matches!(
            kind,
            Atomic::Rmw { .. } | Atomic::CompareExchange { .. } | Atomic::CompareAndSwap { .. }
        );
        if !types.is_pointer(p.ty) || ty == t.void || (needs_scalar && !scalar) {
            let detail = format!("{name} on a value of this type is not modelled");
            let approx = ApproximationKind::UnknownBuiltin;
            let given = std::iter::once(p.clone()).chain(values).collect();
            self.spill_for_havoc(given);
            return Some(self.havoc_call(call, t.long, approx, &detail, void));
        }
        let p = self.typed_pointer(p, ty);
        let at = |p: &Expr| Place::Mem {
            addr: p.clone(),
            ty,
        };
        let bool_ = t.bool_;
        Some(match kind {
            Atomic::LoadN => Val::R(Expr::load(p, ty)),
            Atomic::Load => {
                let ret = self.typed_pointer(values.remove(0), ty);
                let old = Expr::load(p, ty);
                self.emit(NodeKind::Assign {
                    dst: Place::Mem { addr: ret, ty },
                    value: old,
                });
                void
            }
            Atomic::StoreN | Atomic::Store | Atomic::Release | Atomic::Clear => {
                let value = match kind {
                    Atomic::StoreN => {
                        let v = values.remove(0);
                        self.assign_convert(v, ty)
                    }
                    Atomic::Store => {
                        let vp = self.typed_pointer(values.remove(0), ty);
                        Expr::load(vp, ty)
                    }
                    _ => {
                        let zero = self.int_of(0);
                        self.convert(zero, ty)
                    }
                };
                self.emit(NodeKind::Assign { dst: at(&p), value });
                void
            }
            Atomic::ExchangeN | Atomic::TestAndSet => {
                let value = match kind {
                    Atomic::ExchangeN => {
                        let v = values.remove(0);
                        self.assign_convert(v, ty)
                    }
                    _ => self.ucst(1, ty),
                };
                let value = self.reusable(value);
                let old = self.spill(Expr::load(p.clone(), ty));
                self.emit(NodeKind::Assign { dst: at(&p), value });
                if kind == Atomic::TestAndSet {
                    Val::R(self.convert(old, bool_))
                } else {
                    Val::R(old)
                }
            }
            Atomic::Exchange => {
                let vp = self.typed_pointer(values.remove(0), ty);
                let ret = self.typed_pointer(values.remove(0), ty);
                let vp = self.reusable(vp);
                let ret = self.reusable(ret);
                let old = self.spill(Expr::load(p.clone(), ty));
                let value = Expr::load(vp, ty);
                self.emit(NodeKind::Assign { dst: at(&p), value });
                self.emit(NodeKind::Assign {
                    dst: Place::Mem { addr: ret, ty },
                    value: old,
                });
                void
            }
            Atomic::Rmw { op, new } => {
                let v = values.remove(0);
                // Pointers are added to as integers (no scaling); narrow types compute
                // promoted and wrap back.
                let calc = if self.is_ptr(ty) {
                    t.ulong
                } else {
                    self.promoted_type(ty)
                };
                let v = self.convert(v, calc);
                let v = self.reusable(v);
                let old = self.spill(Expr::load(p.clone(), ty));
                let a = self.convert(old.clone(), calc);
                let result = match op {
                    RmwOp::Add => self.bin(BinOp::Add, a, v),
                    RmwOp::Sub => self.bin(BinOp::Sub, a, v),
                    RmwOp::And => self.bin(BinOp::BitAnd, a, v),
                    RmwOp::Or => self.bin(BinOp::BitOr, a, v),
                    RmwOp::Xor => self.bin(BinOp::BitXor, a, v),
                    RmwOp::Nand => {
                        let and = self.bin(BinOp::BitAnd, a, v);
                        Expr::unary(UnOp::BitNot, and, calc)
                    }
                };
                let result = self.convert(result, ty);
                let result = self.spill(result);
                self.emit(NodeKind::Assign {
                    dst: at(&p),
                    value: result.clone(),
                });
                Val::R(if new { result } else { old })
            }
            Atomic::CompareExchange { desired_by_pointer } => {
                let expected = self.typed_pointer(values.remove(0), ty);
                let expected = self.reusable(expected);
                let desired = values.remove(0);
                let desired = if desired_by_pointer {
                    let dp = self.typed_pointer(desired, ty);
                    Expr::load(dp, ty)
                } else {
                    self.assign_convert(desired, ty)
                };
                let desired = self.reusable(desired);
                let want_old = Expr::load(expected.clone(), ty);
                let (_, equal) = self.compare_and_store(&p, ty, want_old, desired, Some(expected));
                Val::R(self.convert(equal, bool_))
            }
            Atomic::CompareAndSwap { value } => {
                let expected = values.remove(0);
                let expected = self.assign_convert(expected, ty);
                let expected = self.reusable(expected);
                let desired = values.remove(0);
                let desired = self.assign_convert(desired, ty);
                let desired = self.reusable(desired);
                let (old, equal) = self.compare_and_store(&p, ty, expected, desired, None);
                Val::R(if value {
                    old
                } else {
                    self.convert(equal, bool_)
                })
            }
            Atomic::Fence | Atomic::AlwaysLockFree => void,
        })
    }

    /// Compares `*p` (of type `ty`) with `expected` and stores `desired` there when they
    /// are equal; else stores the value found at `on_failure`, if given. The value found
    /// and the comparison, both in temporaries.
    fn compare_and_store(
        &mut self,
        p: &Expr,
        ty: TypeId,
        expected: Expr,
        desired: Expr,
        on_failure: Option<Expr>,
    ) -> (Expr, Expr) {
        let old = self.spill(Expr::load(p.clone(), ty));
        let equal = self.bin(BinOp::Eq, old.clone(), expected);
        let equal = self.spill(equal);
        let then = self.new_label();
        let otherwise = on_failure.map(|addr| (self.new_label(), addr));
        let end = self.new_label();
        self.branch(equal.clone(), then, otherwise.as_ref().map_or(end, |o| o.0));
        self.place(then);
        self.emit(NodeKind::Assign {
            dst: Place::Mem {
                addr: p.clone(),
                ty,
            },
            value: desired,
        });
        if let Some((otherwise, addr)) = otherwise {
            self.goto(end);
            self.place(otherwise);
            self.emit(NodeKind::Assign {
                dst: Place::Mem { addr, ty },
                value: old.clone(),
            });
        }
        self.place(end);
        (old, equal)
    }

    /// A pointer argument retyped to point to `ty`.
    fn typed_pointer(&mut self, p: Expr, ty: TypeId) -> Expr {
        let pt = self.pointer_to(ty);
        self.convert(p, pt)
    }
}
