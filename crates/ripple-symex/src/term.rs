//! Symbolic terms shared by program versions, for demand-driven backward analyses
//! (invariant diffs, 003 section III): the value of a variable at a program point as an
//! expression over named symbols, with the path condition that leads there.
//!
//! Unlike the IR, whose types live in one program's type table, a term carries its
//! [`Repr`] (width, signedness, float or pointer), so that the statements of several
//! versions compare equal when they compute the same thing, and states built on one
//! version's statements can be carried into another's. Names are chosen by the builder:
//! program variables while a query travels, and what remains of them at a function's
//! entry are its inputs (parameter values, uninitialised locals, fresh symbols of
//! havocked state). Memory reads read the memory of the entry; a store crossed
//! backwards becomes an if-then-else on the addresses ([`Term::store_over`]).

use std::fmt;
use std::sync::Arc;

use ripple_ir::{BinOp, UnOp};
use rustc_hash::FxHashMap;

pub use crate::encode::Repr;

/// A symbolic value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// An integer or pointer constant (bits of the value, truncated to the width).
    Int(u128, Repr),
    /// A floating constant, as its IEEE bits.
    Float(u64, Repr),
    /// A named value: a program variable (substituted as the query travels) or, once no
    /// statement defines it any more, an input symbol.
    Var(Arc<str>, Repr),
    /// The address of a named object (a global, a memory local, a function).
    Addr(Arc<str>),
    /// The value of the given representation in the memory of the entry at an address.
    Load(Arc<Term>, Repr),
    /// A bit-field of the memory of the entry: `width` bits at `bit_offset` of the unit
    /// (of representation `unit`) at the address, of representation `repr`.
    LoadBits {
        addr: Arc<Term>,
        unit: Repr,
        bit_offset: u32,
        width: u32,
        repr: Repr,
    },
    /// The result has representation `.2`.
    Unary(UnOp, Arc<Term>, Repr),
    Binary(BinOp, Arc<Term>, Arc<Term>, Repr),
    /// A conversion to `.1`; `.2` when the target is `_Bool`.
    Cast(Arc<Term>, Repr, bool),
    /// `if .0 then .1 else .2`, both of representation `.3` (same width).
    Ite(Arc<Cond>, Arc<Term>, Arc<Term>, Repr),
}

/// A condition over terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cond {
    True,
    False,
    /// The C truth value of a scalar (non-zero).
    Truth(Term),
    /// Bit-equality of two terms of the same width.
    Eq(Term, Term),
    /// The byte ranges `[.0, .0 + .1)` and `[.2, .2 + .3)` overlap.
    Overlap(Term, u32, Term, u32),
    Not(Arc<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

impl Term {
    pub fn repr(&self) -> Repr {
        match self {
            Term::Int(_, r)
            | Term::Float(_, r)
            | Term::Var(_, r)
            | Term::Load(_, r)
            | Term::LoadBits { repr: r, .. }
            | Term::Unary(_, _, r)
            | Term::Binary(_, _, _, r)
            | Term::Cast(_, r, _)
            | Term::Ite(_, _, _, r) => *r,
            Term::Addr(_) => Repr::Pointer,
        }
    }

    pub fn var(name: &str, repr: Repr) -> Term {
        Term::Var(Arc::from(name), repr)
    }

    /// Calls `visit` on every subterm (parents first), conditions included.
    pub fn walk(&self, visit: &mut impl FnMut(&Term)) {
        visit(self);
        match self {
            Term::Int(..) | Term::Float(..) | Term::Var(..) | Term::Addr(_) => {}
            Term::Load(a, _) | Term::Unary(_, a, _) | Term::Cast(a, _, _) => a.walk(visit),
            Term::LoadBits { addr, .. } => addr.walk(visit),
            Term::Binary(_, a, b, _) => {
                a.walk(visit);
                b.walk(visit);
            }
            Term::Ite(c, a, b, _) => {
                c.walk(visit);
                a.walk(visit);
                b.walk(visit);
            }
        }
    }

    /// Rebuilds the term bottom-up, replacing each subterm for which `f` answers.
    /// Subterms nothing replaced are shared with `self`, not copied.
    pub fn map(&self, f: &mut impl FnMut(&Term) -> Option<Term>) -> Term {
        self.map_changed(f).unwrap_or_else(|| self.clone())
    }

    /// [`Term::map`], or `None` when nothing was replaced.
    fn map_changed(&self, f: &mut impl FnMut(&Term) -> Option<Term>) -> Option<Term> {
        if let Some(t) = f(self) {
            return Some(t);
        }
        // A child mapped: the new one, or the same shared child.
        fn sub<T: Clone>(a: &Arc<T>, changed: Option<T>) -> (Arc<T>, bool) {
            match changed {
                Some(t) => (Arc::new(t), true),
                None => (a.clone(), false),
            }
        }
        match self {
            Term::Int(..) | Term::Float(..) | Term::Var(..) | Term::Addr(_) => None,
            Term::Load(a, r) => a.map_changed(f).map(|a| Term::Load(Arc::new(a), *r)),
            Term::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
                repr,
            } => addr.map_changed(f).map(|a| Term::LoadBits {
                addr: Arc::new(a),
                unit: *unit,
                bit_offset: *bit_offset,
                width: *width,
                repr: *repr,
            }),
            Term::Unary(op, a, r) => a.map_changed(f).map(|a| Term::Unary(*op, Arc::new(a), *r)),
            Term::Cast(a, r, b) => a.map_changed(f).map(|a| Term::Cast(Arc::new(a), *r, *b)),
            Term::Binary(op, a, b, r) => {
                let (a, ca) = sub(a, a.map_changed(f));
                let (b, cb) = sub(b, b.map_changed(f));
                (ca || cb).then_some(Term::Binary(*op, a, b, *r))
            }
            Term::Ite(c, a, b, r) => {
                let (c, cc) = sub(c, c.map_changed(f));
                let (a, ca) = sub(a, a.map_changed(f));
                let (b, cb) = sub(b, b.map_changed(f));
                (cc || ca || cb).then_some(Term::Ite(c, a, b, *r))
            }
        }
    }

    /// Replaces the variables `subst` names.
    pub fn substitute(&self, subst: &FxHashMap<Arc<str>, Term>) -> Term {
        if subst.is_empty() {
            return self.clone();
        }
        self.map(&mut |t| match t {
            Term::Var(name, _) => subst.get(name).cloned(),
            _ => None,
        })
    }

    /// The number of subterms (conditions' included).
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_| n += 1);
        n
    }

    /// Whether the term reads the memory.
    pub fn reads_memory(&self) -> bool {
        let mut reads = false;
        self.walk(&mut |t| reads |= matches!(t, Term::Load(..) | Term::LoadBits { .. }));
        reads
    }

    /// The variable names the term mentions.
    pub fn vars(&self, out: &mut Vec<Arc<str>>) {
        self.walk(&mut |t| {
            if let Term::Var(name, _) = t {
                out.push(name.clone());
            }
        });
    }

    /// The term as it was before a store of `value` (of `bytes` bytes) at `addr`: every
    /// memory read that may see the store becomes an if-then-else on the addresses; a
    /// read the store may only partly overlap becomes `fresh()` where they overlap.
    /// Reads from distinct named objects, or from disjoint constant offsets of one, are
    /// left alone.
    pub fn store_over(
        &self,
        addr: &Term,
        value: &Term,
        bytes: u32,
        fresh: &mut impl FnMut(Repr) -> Term,
    ) -> Term {
        self.map(&mut |t| match t {
            Term::Load(at, repr) => {
                let at_before = at.store_over(addr, value, bytes, fresh);
                let loaded = Term::Load(Arc::new(at_before.clone()), *repr);
                Some(over_store(
                    &at_before,
                    repr.bytes(),
                    loaded,
                    addr,
                    value,
                    bytes,
                    *repr,
                    fresh,
                ))
            }
            Term::LoadBits {
                addr: at,
                unit,
                bit_offset,
                width,
                repr,
            } => {
                let at_before = at.store_over(addr, value, bytes, fresh);
                let loaded = Term::LoadBits {
                    addr: Arc::new(at_before.clone()),
                    unit: *unit,
                    bit_offset: *bit_offset,
                    width: *width,
                    repr: *repr,
                };
                // A bit-field never equals a whole store: overlap makes it unknown.
                Some(match disjoint(&at_before, unit.bytes(), addr, bytes) {
                    Some(true) => loaded,
                    _ => {
                        let overlap =
                            Cond::Overlap(at_before.clone(), unit.bytes(), addr.clone(), bytes);
                        Term::Ite(
                            Arc::new(overlap),
                            Arc::new(fresh(*repr)),
                            Arc::new(loaded),
                            *repr,
                        )
                    }
                })
            }
            _ => None,
        })
    }

    /// The term with every memory read replaced by `fresh()` (memory havocked).
    pub fn forget_memory(&self, fresh: &mut impl FnMut(Repr) -> Term) -> Term {
        self.map(&mut |t| match t {
            Term::Load(_, r) | Term::LoadBits { repr: r, .. } => Some(fresh(*r)),
            _ => None,
        })
    }

    /// Splits an address into a named base and a constant byte offset, when it is one.
    fn base_offset(&self) -> Option<(&str, i128)> {
        match self {
            Term::Addr(name) => Some((name, 0)),
            Term::Binary(BinOp::PtrAdd, base, off, _) => {
                let (name, k) = base.base_offset()?;
                let Term::Int(v, r) = off.as_ref() else {
                    return None;
                };
                let bits = r.bits();
                let v = if bits < 128 && (v >> (bits - 1)) & 1 == 1 {
                    *v as i128 - (1i128 << bits)
                } else {
                    *v as i128
                };
                Some((name, k + v))
            }
            _ => None,
        }
    }
}

/// A read of `read_bytes` at `at` (whose value before the store is `loaded`) seen through
/// a store of `value` (`bytes` bytes) at `addr`.
#[allow(clippy::too_many_arguments)]
fn over_store(
    at: &Term,
    read_bytes: u32,
    loaded: Term,
    addr: &Term,
    value: &Term,
    bytes: u32,
    repr: Repr,
    fresh: &mut impl FnMut(Repr) -> Term,
) -> Term {
    if at == addr && read_bytes == bytes {
        return value.clone();
    }
    match disjoint(at, read_bytes, addr, bytes) {
        Some(true) => loaded,
        Some(false) if read_bytes != bytes => fresh(repr),
        _ if read_bytes == bytes => Term::Ite(
            Arc::new(Cond::Eq(at.clone(), addr.clone())),
            Arc::new(value.clone()),
            Arc::new(Term::Ite(
                Arc::new(Cond::Overlap(at.clone(), read_bytes, addr.clone(), bytes)),
                Arc::new(fresh(repr)),
                Arc::new(loaded),
                repr,
            )),
            repr,
        ),
        _ => Term::Ite(
            Arc::new(Cond::Overlap(at.clone(), read_bytes, addr.clone(), bytes)),
            Arc::new(fresh(repr)),
            Arc::new(loaded),
            repr,
        ),
    }
}

/// Whether two byte ranges are disjoint, when the addresses say so syntactically:
/// distinct named objects never overlap (C objects), one object's constant offsets
/// compare. `None` when unknown.
fn disjoint(a: &Term, a_bytes: u32, b: &Term, b_bytes: u32) -> Option<bool> {
    let (na, ka) = a.base_offset()?;
    let (nb, kb) = b.base_offset()?;
    if na != nb {
        return Some(true);
    }
    Some(ka + i128::from(a_bytes) <= kb || kb + i128::from(b_bytes) <= ka)
}

impl Cond {
    /// The number of subterms.
    pub fn size(&self) -> usize {
        let mut n = 1;
        self.walk(&mut |_| n += 1);
        n
    }

    pub fn walk(&self, visit: &mut impl FnMut(&Term)) {
        match self {
            Cond::True | Cond::False => {}
            Cond::Truth(t) => t.walk(visit),
            Cond::Eq(a, b) | Cond::Overlap(a, _, b, _) => {
                a.walk(visit);
                b.walk(visit);
            }
            Cond::Not(c) => c.walk(visit),
            Cond::And(cs) | Cond::Or(cs) => cs.iter().for_each(|c| c.walk(visit)),
        }
    }

    pub fn map(&self, f: &mut impl FnMut(&Term) -> Option<Term>) -> Cond {
        self.map_changed(f).unwrap_or_else(|| self.clone())
    }

    /// [`Cond::map`], or `None` when no term was replaced.
    fn map_changed(&self, f: &mut impl FnMut(&Term) -> Option<Term>) -> Option<Cond> {
        let pair = |a: &Term, b: &Term, f: &mut dyn FnMut(&Term) -> Option<Term>| {
            let mut f = f;
            let (ma, mb) = (a.map_changed(&mut f), b.map_changed(&mut f));
            (ma.is_some() || mb.is_some()).then(|| {
                (
                    ma.unwrap_or_else(|| a.clone()),
                    mb.unwrap_or_else(|| b.clone()),
                )
            })
        };
        let list = |cs: &[Cond], f: &mut dyn FnMut(&Term) -> Option<Term>| {
            let mut f = f;
            let mapped: Vec<Option<Cond>> = cs.iter().map(|c| c.map_changed(&mut f)).collect();
            mapped.iter().any(Option::is_some).then(|| {
                mapped
                    .into_iter()
                    .zip(cs)
                    .map(|(m, c)| m.unwrap_or_else(|| c.clone()))
                    .collect::<Vec<_>>()
            })
        };
        match self {
            Cond::True | Cond::False => None,
            Cond::Truth(t) => t.map_changed(f).map(Cond::Truth),
            Cond::Eq(a, b) => pair(a, b, f).map(|(a, b)| Cond::Eq(a, b)),
            Cond::Overlap(a, x, b, y) => pair(a, b, f).map(|(a, b)| Cond::Overlap(a, *x, b, *y)),
            Cond::Not(c) => c.map_changed(f).map(|c| Cond::Not(Arc::new(c))),
            Cond::And(cs) => list(cs, f).map(Cond::And),
            Cond::Or(cs) => list(cs, f).map(Cond::Or),
        }
    }

    pub fn substitute(&self, subst: &FxHashMap<Arc<str>, Term>) -> Cond {
        if subst.is_empty() {
            return self.clone();
        }
        self.map(&mut |t| match t {
            Term::Var(name, _) => subst.get(name).cloned(),
            _ => None,
        })
    }

    /// The condition as it was before a store (see [`Term::store_over`]).
    pub fn store_over(
        &self,
        addr: &Term,
        value: &Term,
        bytes: u32,
        fresh: &mut impl FnMut(Repr) -> Term,
    ) -> Cond {
        self.map(&mut |t| match t {
            Term::Load(..) | Term::LoadBits { .. } => Some(t.store_over(addr, value, bytes, fresh)),
            _ => None,
        })
    }

    /// `a and b`, flattened, with constants folded.
    pub fn and(self, other: Cond) -> Cond {
        match (self, other) {
            (Cond::True, c) | (c, Cond::True) => c,
            (Cond::False, _) | (_, Cond::False) => Cond::False,
            (Cond::And(mut a), Cond::And(b)) => {
                a.extend(b);
                Cond::And(a)
            }
            (Cond::And(mut a), c) => {
                a.push(c);
                Cond::And(a)
            }
            (c, Cond::And(mut a)) => {
                a.insert(0, c);
                Cond::And(a)
            }
            (a, b) => Cond::And(vec![a, b]),
        }
    }

    /// `a or b`, flattened, with constants folded.
    pub fn or(self, other: Cond) -> Cond {
        match (self, other) {
            (Cond::False, c) | (c, Cond::False) => c,
            (Cond::True, _) | (_, Cond::True) => Cond::True,
            (a, b) if a == b => a,
            (Cond::Or(mut a), Cond::Or(b)) => {
                a.extend(b);
                Cond::Or(a)
            }
            (Cond::Or(mut a), c) => {
                a.push(c);
                Cond::Or(a)
            }
            (a, b) => Cond::Or(vec![a, b]),
        }
    }

    /// The truth of a term, folding constants.
    pub fn truth(term: Term) -> Cond {
        match term {
            Term::Int(v, r) => {
                let mask = if r.bits() >= 128 {
                    u128::MAX
                } else {
                    (1u128 << r.bits()) - 1
                };
                if v & mask == 0 {
                    Cond::False
                } else {
                    Cond::True
                }
            }
            t => Cond::Truth(t),
        }
    }

    pub fn negate(self) -> Cond {
        match self {
            Cond::True => Cond::False,
            Cond::False => Cond::True,
            Cond::Not(c) => Arc::unwrap_or_clone(c),
            c => Cond::Not(Arc::new(c)),
        }
    }
}

/// How terms print: names as given, C operators, casts as `(type)`.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Int(v, r) => write!(f, "{}", int_text(*v, *r)),
            Term::Float(bits, r) => f.write_str(&float_text(*bits, *r)),
            Term::Var(name, _) => f.write_str(name),
            Term::Addr(name) => write!(f, "&{name}"),
            Term::Load(a, r) => match a.as_ref() {
                Term::Addr(name) => f.write_str(name),
                // A byte offset: the type read is stated.
                a @ Term::Binary(BinOp::PtrAdd, ..) => write!(f, "*({} *)({a})", repr_name(*r)),
                a => write!(f, "*({a})"),
            },
            Term::LoadBits { addr, .. } => write!(f, "bits*({addr})"),
            Term::Unary(op, a, _) => write!(f, "{}{}", op.symbol(), Paren(a)),
            Term::Binary(op, a, b, _) => {
                let symbol = match op {
                    BinOp::PtrAdd => "+",
                    BinOp::PtrDiff => "-",
                    op => op.symbol(),
                };
                if *op == BinOp::PtrAdd {
                    // Offsets are in bytes, as C counts them for `char *`.
                    return write!(f, "(char *){} + {}", Paren(a), Paren(b));
                }
                match a.as_ref() {
                    // The left operand's widening shown when the text would compute at
                    // another type (`(long)a * b` is not `a * b` for int a and b).
                    Term::Cast(inner, r, false) if !computes_as_written(*op, a, b) => {
                        write!(
                            f,
                            "({}){} {symbol} {}",
                            repr_name(*r),
                            Paren(inner),
                            Paren(b)
                        )
                    }
                    _ => write!(f, "{} {symbol} {}", Paren(a), Paren(b)),
                }
            }
            // Widening casts of integers are how C computes: they are not shown.
            Term::Cast(a, r, to_bool) => {
                if *to_bool {
                    write!(f, "(_Bool){}", Paren(a))
                } else if is_silent_cast(a.repr(), *r) {
                    write!(f, "{a}")
                } else {
                    write!(f, "({}){}", repr_name(*r), Paren(a))
                }
            }
            Term::Ite(c, a, b, _) => write!(f, "({c} ? {a} : {b})"),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::True => f.write_str("true"),
            Cond::False => f.write_str("false"),
            Cond::Truth(t) => write!(f, "{t}"),
            Cond::Eq(a, b) => write!(f, "{a} == {b}"),
            Cond::Overlap(a, x, b, y) => write!(f, "overlap({a}, {x}, {b}, {y})"),
            Cond::Not(c) => write!(f, "!({c})"),
            Cond::And(cs) | Cond::Or(cs) => {
                let sep = if matches!(self, Cond::And(_)) {
                    " && "
                } else {
                    " || "
                };
                for (i, c) in cs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(sep)?;
                    }
                    write!(f, "({c})")?;
                }
                Ok(())
            }
        }
    }
}

impl Term {
    /// The term without a conversion to another signedness at the same width: `==`
    /// compares the same bits either way (`x == (a & 255)` for `unsigned x`).
    pub fn equal_bits_without_sign_cast(&self) -> &Term {
        match self {
            Term::Cast(a, r, false) => match (a.repr(), *r) {
                (Repr::Int { bits: x, .. }, Repr::Int { bits: y, .. }) if x == y => {
                    a.equal_bits_without_sign_cast()
                }
                _ => self,
            },
            t => t,
        }
    }

    /// Whether the C text of the term, on the right of `==`, needs brackets: its
    /// operator (seen through the casts the text leaves out) is `&`, `^`, `|`, `==` or
    /// `!=`, which `==` binds tighter than or associates with.
    pub fn needs_brackets_after_equality(&self) -> bool {
        match self {
            Term::Binary(op, ..) => matches!(
                op,
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Eq | BinOp::Ne
            ),
            Term::Cast(a, r, false) if is_silent_cast(a.repr(), *r) => {
                a.needs_brackets_after_equality()
            }
            _ => false,
        }
    }
}

struct Paren<'a>(&'a Term);

impl fmt::Display for Paren<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Term::Binary(..) | Term::Ite(..) => write!(f, "({})", self.0),
            Term::Cast(a, r, false) if is_silent_cast(a.repr(), *r) => write!(f, "{}", Paren(a)),
            t => write!(f, "{t}"),
        }
    }
}

/// The type the C text of `t` has: its own, or, for a conversion the text leaves out,
/// its operand's.
fn printed_type(t: &Term) -> Repr {
    match t {
        Term::Cast(a, r, false) if is_silent_cast(a.repr(), *r) => printed_type(a),
        t => t.repr(),
    }
}

/// C's integer promotion.
fn promoted(r: Repr) -> Repr {
    match r {
        Repr::Int { bits, .. } if bits < 32 => Repr::Int {
            bits: 32,
            signed: true,
        },
        r => r,
    }
}

/// Whether C computes `a op b`, as printed, at the type of `a` (the type the term
/// computes at): the usual arithmetic conversions of the printed operands' types (for
/// a shift, the promoted left operand's).
fn computes_as_written(op: BinOp, a: &Term, b: &Term) -> bool {
    let (want, x, y) = (a.repr(), printed_type(a), printed_type(b));
    let (Repr::Int { bits, .. }, Repr::Int { .. }, Repr::Int { .. }) = (want, x, y) else {
        return true;
    };
    if bits < 32 || op == BinOp::PtrDiff {
        return true;
    }
    let (x, y) = (promoted(x), promoted(y));
    let computed = if matches!(op, BinOp::Shl | BinOp::Shr) {
        x
    } else {
        usual_conversion(x, y)
    };
    computed == want
}

/// C's usual arithmetic conversion of two promoted integer types.
fn usual_conversion(x: Repr, y: Repr) -> Repr {
    let (
        Repr::Int {
            bits: xb,
            signed: xs,
        },
        Repr::Int {
            bits: yb,
            signed: ys,
        },
    ) = (x, y)
    else {
        return x;
    };
    if xs == ys {
        return if xb >= yb { x } else { y };
    }
    let (unsigned, signed) = if xs { (y, x) } else { (x, y) };
    if unsigned.bits() >= signed.bits() {
        unsigned
    } else {
        signed
    }
}

/// Whether a conversion keeps every value and C's implicit conversions of the printed
/// operand make it anyway, so the text leaves it out: a widening from a signed type to
/// a signed one, or from an unsigned one (to an unsigned one only from `unsigned`
/// up: `unsigned short` operands are promoted to `int`, not `unsigned`). A change of
/// signedness at one width, or a signed value widened to an unsigned type, is shown
/// (`(unsigned)a >> 1` is not `a >> 1`).
fn is_silent_cast(from: Repr, to: Repr) -> bool {
    match (from, to) {
        (
            Repr::Int {
                bits: a,
                signed: from_signed,
            },
            Repr::Int {
                bits: b,
                signed: to_signed,
            },
        ) => a < b && (to_signed || (!from_signed && a >= 32)),
        _ => false,
    }
}

/// A floating constant as a C literal: with a decimal point or an exponent, `f` for a
/// `float`, and the names of <math.h> for infinities and NaN.
fn float_text(bits: u64, r: Repr) -> String {
    let (text, suffix) = if r.bits() == 32 {
        let v = f32::from_bits(bits as u32);
        (format!("{v:?}"), "f")
    } else {
        (format!("{:?}", f64::from_bits(bits)), "")
    };
    match text.as_str() {
        "inf" => "INFINITY".into(),
        "-inf" => "-INFINITY".into(),
        "NaN" => "NAN".into(),
        _ => format!("{text}{suffix}"),
    }
}

/// An integer constant as C would print it in its representation.
pub fn int_text(v: u128, r: Repr) -> String {
    match r {
        Repr::Int { bits, signed: true } if bits < 128 && (v >> (bits - 1)) & 1 == 1 => {
            format!("{}", v as i128 - (1i128 << bits))
        }
        Repr::Pointer if v == 0 => "NULL".to_string(),
        Repr::Pointer => format!("{v:#x}"),
        _ => format!("{v}"),
    }
}

fn repr_name(r: Repr) -> String {
    match r {
        Repr::Int {
            bits: 8,
            signed: true,
        } => "signed char".into(),
        Repr::Int { bits: 8, .. } => "unsigned char".into(),
        Repr::Int { bits: 16, signed } => if signed { "short" } else { "unsigned short" }.into(),
        Repr::Int { bits: 32, signed } => if signed { "int" } else { "unsigned" }.into(),
        Repr::Int { bits: 64, signed } => if signed { "long" } else { "unsigned long" }.into(),
        Repr::Int { bits, signed } => format!("{}int{bits}", if signed { "" } else { "u" }),
        Repr::Float { bits: 32 } => "float".into(),
        Repr::Float { .. } => "double".into(),
        Repr::Pointer => "void *".into(),
        Repr::Bytes { bytes } => format!("bytes[{bytes}]"),
        Repr::Void => "void".into(),
    }
}
