//! Interval bounds of a term's values on a path: where the bound search of invariant
//! candidates ([`crate::invariant`], 003's `v <= ?` and `v >= ?`) looks first, and a
//! proof without the solver that a path cannot take a value beyond a bound. The inputs'
//! ranges come from the comparisons with constants in the path condition, and
//! arithmetic is followed only where the bits the solver sees are the mathematical
//! value (no wrapping, operands of the result's representation, shift counts the
//! solver does not mask): anything else takes its type's whole range. So every value
//! the term takes on an input satisfying the condition lies within the interval.

use rustc_hash::FxHashMap;

use crate::encode::Repr;
use crate::term::{Cond, Term};
use ripple_ir::{BinOp, UnOp};

/// `[lo, hi]` over the mathematical integers, in the signedness of its term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    fn point(v: i128) -> Interval {
        Interval { lo: v, hi: v }
    }

    /// The values of an integer representation of at most 64 bits.
    pub fn of(repr: Repr) -> Option<Interval> {
        let Repr::Int { bits, signed } = repr else {
            return None;
        };
        if bits == 0 || bits > 64 {
            return None;
        }
        Some(if signed {
            Interval {
                lo: -(1i128 << (bits - 1)),
                hi: (1i128 << (bits - 1)) - 1,
            }
        } else {
            Interval {
                lo: 0,
                hi: (1i128 << bits) - 1,
            }
        })
    }

    pub fn join(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    fn meet(self, other: Interval) -> Option<Interval> {
        let out = Interval {
            lo: self.lo.max(other.lo),
            hi: self.hi.min(other.hi),
        };
        (out.lo <= out.hi).then_some(out)
    }

    fn within(self, outer: Interval) -> bool {
        outer.lo <= self.lo && self.hi <= outer.hi
    }

    /// The interval of every combination of the ends (monotone operations), when all
    /// are defined.
    fn corners(a: Interval, b: Interval, f: impl Fn(i128, i128) -> Option<i128>) -> Option<Self> {
        let values = [
            f(a.lo, b.lo)?,
            f(a.lo, b.hi)?,
            f(a.hi, b.lo)?,
            f(a.hi, b.hi)?,
        ];
        Some(Interval {
            lo: *values.iter().min()?,
            hi: *values.iter().max()?,
        })
    }
}

/// The ranges of the inputs that a path condition implies, per name and representation
/// (one name read as another type is another solver symbol, or the same bits read in
/// another signedness).
pub type Ranges = FxHashMap<(std::sync::Arc<str>, Repr), Interval>;

/// The input ranges `cond` implies: comparisons of an input with a constant, under
/// conjunctions, negations and (joined) disjunctions.
pub fn ranges(cond: &Cond) -> Ranges {
    let mut out = Ranges::default();
    constrain(cond, true, &mut out);
    out
}

fn constrain(cond: &Cond, positive: bool, env: &mut Ranges) {
    match cond {
        Cond::Not(c) => constrain(c, !positive, env),
        Cond::And(list) if positive => list.iter().for_each(|c| constrain(c, true, env)),
        Cond::Or(list) if !positive => list.iter().for_each(|c| constrain(c, false, env)),
        Cond::And(list) | Cond::Or(list) => {
            // A disjunction: what every branch implies, joined.
            let mut joined: Option<Ranges> = None;
            for c in list {
                let mut branch = env.clone();
                // Either a positive disjunction or a negated conjunction: each branch
                // keeps the polarity.
                constrain(c, positive, &mut branch);
                joined = Some(match joined {
                    None => branch,
                    Some(j) => j
                        .into_iter()
                        .filter_map(|(k, a)| branch.get(&k).map(|b| (k, a.join(*b))))
                        .collect(),
                });
            }
            if let Some(j) = joined {
                *env = j;
            }
        }
        Cond::Truth(Term::Binary(op, a, b, _)) if op.is_comparison() => {
            let op = if positive { *op } else { op.negated() };
            // Compared in one representation only (the solver compares in the left
            // operand's signedness, the right one resized to it).
            match (&**a, &**b) {
                (Term::Var(x, r), Term::Int(c, cr)) if r == cr => {
                    limit(env, x, *r, op, value(*c, *cr))
                }
                (Term::Int(c, cr), Term::Var(x, r)) if r == cr => {
                    limit(env, x, *r, op.mirrored(), value(*c, *cr))
                }
                _ => {}
            }
        }
        Cond::Eq(Term::Var(x, r), Term::Int(c, cr))
        | Cond::Eq(Term::Int(c, cr), Term::Var(x, r))
            if positive && r == cr =>
        {
            limit(env, x, *r, BinOp::Eq, value(*c, *cr))
        }
        _ => {}
    }
}

/// `x op c` narrows the range of input `x`.
fn limit(env: &mut Ranges, x: &std::sync::Arc<str>, repr: Repr, op: BinOp, c: i128) {
    let Some(full) = Interval::of(repr) else {
        return;
    };
    let range = match op {
        BinOp::Lt => Interval {
            lo: full.lo,
            hi: c - 1,
        },
        BinOp::Le => Interval { lo: full.lo, hi: c },
        BinOp::Gt => Interval {
            lo: c + 1,
            hi: full.hi,
        },
        BinOp::Ge => Interval { lo: c, hi: full.hi },
        BinOp::Eq => Interval::point(c),
        _ => return,
    };
    let key = (x.clone(), repr);
    let now = env.get(&key).copied().unwrap_or(full);
    if let Some(narrowed) = now.meet(range) {
        env.insert(key, narrowed);
    }
}

/// The value of a constant's bits in its representation's signedness.
fn value(bits: u128, repr: Repr) -> i128 {
    int_value(bits, repr.bits(), repr.signed())
}

/// The value of the low `width` bits of `bits`, signed or not.
pub(crate) fn int_value(bits: u128, width: u32, signed: bool) -> i128 {
    let width = width.min(128);
    let bits = if width >= 128 {
        bits
    } else {
        bits & ((1u128 << width) - 1)
    };
    if signed && width < 128 && (bits >> (width - 1)) & 1 == 1 {
        bits as i128 - (1i128 << width)
    } else {
        bits as i128
    }
}

/// The values `term` may take given the inputs' ranges (an over-approximation): `None`
/// when it is not an integer of at most 64 bits.
pub fn range_of(term: &Term, env: &Ranges) -> Option<Interval> {
    let repr = term.repr();
    let full = Interval::of(repr)?;
    // Within the type, the bits are the value; beyond it, they may have wrapped.
    let fit = |i: Option<Interval>| i.filter(|i| i.within(full)).unwrap_or(full);
    // An operand of the result's representation, else unknown.
    let operand = |t: &Term| (t.repr() == repr).then(|| range_of(t, env)).flatten();
    Some(match term {
        Term::Int(bits, r) => Interval::point(value(*bits, *r)),
        Term::Var(name, r) => env.get(&(name.clone(), *r)).copied().unwrap_or(full),
        Term::Cast(_, _, true) => Interval { lo: 0, hi: 1 },
        // An integer cast keeps a value its new type holds.
        Term::Cast(inner, _, false) => fit(range_of(inner, env)),
        Term::Ite(_, a, b, _) => match (operand(a), operand(b)) {
            (Some(x), Some(y)) => x.join(y),
            _ => full,
        },
        Term::Unary(op, a, _) => match op {
            UnOp::LogicalNot => Interval { lo: 0, hi: 1 },
            UnOp::Neg => fit(operand(a).map(|x| Interval {
                lo: -x.hi,
                hi: -x.lo,
            })),
            UnOp::BitNot => fit(operand(a).map(|x| Interval {
                lo: -x.hi - 1,
                hi: -x.lo - 1,
            })),
        },
        Term::Binary(op, ..) if op.is_comparison() => Interval { lo: 0, hi: 1 },
        Term::Binary(op @ (BinOp::Shl | BinOp::Shr), a, b, _) => {
            // The count is masked to the width's 31 or 63: followed below that only.
            let mask = if repr.bits() <= 32 { 31 } else { 63 };
            let count = range_of(b, env).filter(|c| c.lo >= 0 && c.hi <= mask);
            fit(operand(a).zip(count).and_then(|(x, c)| {
                if *op == BinOp::Shl {
                    Interval::corners(x, c, |v, s| v.checked_mul(1i128 << s))
                } else {
                    Interval::corners(x, c, |v, s| Some(v >> s))
                }
            }))
        }
        Term::Binary(op, a, b, _) => {
            let (Some(x), Some(y)) = (operand(a), operand(b)) else {
                return Some(full);
            };
            fit(match op {
                BinOp::Add => Interval::corners(x, y, i128::checked_add),
                BinOp::Sub => Interval::corners(x, y, i128::checked_sub),
                BinOp::Mul => Interval::corners(x, y, i128::checked_mul),
                // Truncating division is monotone in each operand on a divisor range
                // without zero.
                BinOp::Div if y.lo > 0 || y.hi < 0 => Interval::corners(x, y, i128::checked_div),
                // The remainder has the dividend's sign, and is smaller than both the
                // dividend and the divisor in magnitude.
                BinOp::Rem if y.lo > 0 || y.hi < 0 => {
                    let d = y.lo.abs().max(y.hi.abs()) - 1;
                    Some(Interval {
                        lo: if x.lo < 0 { (-d).max(x.lo) } else { 0 },
                        hi: if x.hi > 0 { d.min(x.hi) } else { 0 },
                    })
                }
                BinOp::BitAnd if x.lo >= 0 || y.lo >= 0 => {
                    // Non-negative whenever one side is, and no larger than it.
                    let cap = [x, y].iter().filter(|i| i.lo >= 0).map(|i| i.hi).min();
                    cap.map(|hi| Interval { lo: 0, hi })
                }
                _ => None,
            })
        }
        _ => full,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const INT: Repr = Repr::Int {
        bits: 32,
        signed: true,
    };

    fn var(n: &str) -> Term {
        Term::Var(Arc::from(n), INT)
    }

    fn int(v: i64) -> Term {
        Term::Int((v as i128 as u128) & 0xffff_ffff, INT)
    }

    fn bin(op: BinOp, a: Term, b: Term) -> Term {
        Term::Binary(op, Arc::new(a), Arc::new(b), INT)
    }

    #[test]
    fn guards_bound_the_inputs_and_arithmetic_follows() {
        // !(n < 0) && !(n > 1000): n in [0, 1000], so n * (n + 1) / 2 is in [0, 500500].
        let cond = Cond::Truth(bin(BinOp::Lt, var("n"), int(0)))
            .negate()
            .and(Cond::Truth(bin(BinOp::Gt, var("n"), int(1000))).negate());
        let env = ranges(&cond);
        assert_eq!(env[&(Arc::from("n"), INT)], Interval { lo: 0, hi: 1000 });
        let s = bin(
            BinOp::Div,
            bin(BinOp::Mul, var("n"), bin(BinOp::Add, var("n"), int(1))),
            int(2),
        );
        assert_eq!(range_of(&s, &env), Some(Interval { lo: 0, hi: 500500 }));
    }

    #[test]
    fn arithmetic_that_may_wrap_takes_the_whole_type() {
        // f - 32 may wrap for an unconstrained f; (f - 32) * 5 / 9 is then within the
        // int range divided by 9.
        let env = Ranges::default();
        let c = bin(
            BinOp::Div,
            bin(BinOp::Mul, bin(BinOp::Sub, var("f"), int(32)), int(5)),
            int(9),
        );
        let i32_min = i32::MIN as i128;
        let i32_max = i32::MAX as i128;
        assert_eq!(
            range_of(&c, &env),
            Some(Interval {
                lo: i32_min / 9,
                hi: i32_max / 9
            })
        );
        // A division by a range holding zero is not followed.
        let d = bin(BinOp::Div, var("a"), var("b"));
        assert_eq!(
            range_of(&d, &env),
            Some(Interval {
                lo: i32_min,
                hi: i32_max
            })
        );
    }

    #[test]
    fn a_disjunction_joins_its_branches() {
        // (x == 3) || (x > 10 && x < 20): x in [3, 19]; y is constrained by one branch
        // only, so not at all.
        let cond = Cond::Or(vec![
            Cond::Eq(var("x"), int(3)),
            Cond::Truth(bin(BinOp::Gt, var("x"), int(10)))
                .and(Cond::Truth(bin(BinOp::Lt, var("x"), int(20))))
                .and(Cond::Truth(bin(BinOp::Lt, var("y"), int(0)))),
        ]);
        let env = ranges(&cond);
        assert_eq!(env[&(Arc::from("x"), INT)], Interval { lo: 3, hi: 19 });
        assert!(!env.contains_key(&(Arc::from("y"), INT)));
    }

    #[test]
    fn only_what_the_solver_computes_exactly_is_followed() {
        let uint = Repr::Int {
            bits: 32,
            signed: false,
        };
        // -5 <= x <= 5 (signed) says nothing of x read unsigned (4294967291 is -5).
        let cond = Cond::Truth(bin(BinOp::Lt, var("x"), int(-5)))
            .negate()
            .and(Cond::Truth(bin(BinOp::Gt, var("x"), int(5))).negate());
        let env = ranges(&cond);
        assert_eq!(env[&(Arc::from("x"), INT)], Interval { lo: -5, hi: 5 });
        let unsigned_x = Term::Var(Arc::from("x"), uint);
        assert_eq!(range_of(&unsigned_x, &env), Interval::of(uint));
        // An operand of another representation is not followed: x + y with y read
        // unsigned is anywhere in the type.
        let mixed = Term::Binary(BinOp::Add, Arc::new(var("x")), Arc::new(unsigned_x), INT);
        assert_eq!(range_of(&mixed, &env), Interval::of(INT));
        // A shift count the solver masks (x >> 33 is x >> 1) is not followed; one
        // below the width is.
        assert_eq!(
            range_of(&bin(BinOp::Shr, var("x"), int(33)), &env),
            Interval::of(INT)
        );
        assert_eq!(
            range_of(&bin(BinOp::Shr, var("x"), int(1)), &env),
            Some(Interval { lo: -3, hi: 2 })
        );
        // h % 12 for any h is within [-11, 11], and within [0, 11] for h >= 0.
        let rem = bin(BinOp::Rem, var("h"), int(12));
        assert_eq!(
            range_of(&rem, &Ranges::default()),
            Some(Interval { lo: -11, hi: 11 })
        );
        let nonneg = ranges(&Cond::Truth(bin(BinOp::Lt, var("h"), int(0))).negate());
        assert_eq!(range_of(&rem, &nonneg), Some(Interval { lo: 0, hi: 11 }));
    }

    /// A small deterministic generator of terms and conditions over `x` and `y`, read
    /// in several representations (the same bits read signed and unsigned, or cut).
    struct Gen(u64);

    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }

        fn repr(&mut self) -> Repr {
            let (bits, signed) = [(32, true), (32, false), (8, true), (16, false), (64, true)]
                [self.next(5) as usize];
            Repr::Int { bits, signed }
        }

        fn constant(&mut self, r: Repr) -> Term {
            let v: i128 = [
                0,
                1,
                -1,
                2,
                3,
                5,
                7,
                12,
                100,
                -100,
                255,
                1 << 20,
                i32::MAX as i128,
            ][self.next(13) as usize];
            Term::Int((v as u128) & ((1u128 << r.bits()) - 1), r)
        }

        fn term(&mut self, depth: u32, r: Repr) -> Term {
            if depth == 0 || self.next(4) == 0 {
                return if self.next(3) == 0 {
                    self.constant(r)
                } else {
                    Term::Var(Arc::from(["x", "y"][self.next(2) as usize]), r)
                };
            }
            let sub = |g: &mut Gen| {
                // Mostly of the result's representation, sometimes of another.
                let rr = if g.next(4) == 0 { g.repr() } else { r };
                g.term(depth - 1, rr)
            };
            match self.next(6) {
                0 => {
                    // Computed at the operand's width, which is the result's.
                    let op = [UnOp::Neg, UnOp::BitNot][self.next(2) as usize];
                    let a = self.term(depth - 1, r);
                    Term::Unary(op, Arc::new(a), r)
                }
                1 => {
                    let from = self.repr();
                    Term::Cast(Arc::new(self.term(depth - 1, from)), r, false)
                }
                2 => {
                    let c = self.cond(1);
                    let (a, b) = (sub(self), sub(self));
                    Term::Ite(Arc::new(c), Arc::new(a), Arc::new(b), r)
                }
                _ => {
                    let ops = [
                        BinOp::Add,
                        BinOp::Sub,
                        BinOp::Mul,
                        BinOp::Div,
                        BinOp::Rem,
                        BinOp::Shl,
                        BinOp::Shr,
                        BinOp::BitAnd,
                    ];
                    let op = ops[self.next(ops.len() as u64) as usize];
                    // The solver computes at the left operand's width.
                    let a = self.term(depth - 1, r);
                    let b = sub(self);
                    Term::Binary(op, Arc::new(a), Arc::new(b), r)
                }
            }
        }

        fn cond(&mut self, depth: u32) -> Cond {
            if depth > 0 && self.next(3) == 0 {
                let (a, b) = (self.cond(depth - 1), self.cond(depth - 1));
                return if self.next(2) == 0 { a.and(b) } else { a.or(b) };
            }
            let r = self.repr();
            let x = Term::Var(Arc::from(["x", "y"][self.next(2) as usize]), r);
            let c = if self.next(4) == 0 {
                let other = self.repr();
                self.constant(other)
            } else {
                self.constant(r)
            };
            let op = [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Eq][self.next(5) as usize];
            let (a, b) = if self.next(2) == 0 { (x, c) } else { (c, x) };
            let atom = Cond::Truth(Term::Binary(op, Arc::new(a), Arc::new(b), INT));
            if self.next(3) == 0 {
                atom.negate()
            } else {
                atom
            }
        }
    }

    /// The solver proves, for random terms and path conditions, that no input
    /// satisfying the condition gives the term a value outside its interval: the
    /// interval is an over-approximation, as the bound search relies on.
    #[test]
    fn intervals_contain_every_value_the_solver_finds() {
        use crate::invariant::Encoder;
        let mut g = Gen(7);
        let (mut narrow, mut checked) = (0, 0);
        for _ in 0..1000 {
            let r = g.repr();
            let term = g.term(3, r);
            let cond = g.cond(2);
            let env = ranges(&cond);
            let Some(i) = range_of(&term, &env) else {
                continue;
            };
            if Some(i) == Interval::of(r) {
                continue;
            }
            narrow += 1;
            let mut enc = Encoder::default();
            let value = enc.term(&term);
            let bits = value.get_size();
            let (lo, hi) = (
                crate::encode::bv_const(i.lo as u128 & ((1u128 << bits) - 1), bits),
                crate::encode::bv_const(i.hi as u128 & ((1u128 << bits) - 1), bits),
            );
            let outside = if r.signed() {
                z3::ast::Bool::or(&[value.bvslt(&lo), value.bvsgt(&hi)])
            } else {
                z3::ast::Bool::or(&[value.bvult(&lo), value.bvugt(&hi)])
            };
            let solver = z3::Solver::new();
            solver.assert(enc.cond(&cond));
            solver.assert(&outside);
            match solver.check() {
                z3::SatResult::Unsat => checked += 1,
                z3::SatResult::Sat => panic!(
                    "{term:?} under {cond:?} is outside {i:?}: {:?} value {:?}",
                    solver.get_model(),
                    solver.get_model().unwrap().eval(&value, true)
                ),
                z3::SatResult::Unknown => {}
            }
        }
        // Most terms get an interval narrower than their type, and each is proved.
        assert!(
            narrow > 150 && checked == narrow,
            "{narrow} narrowed, {checked} proved"
        );
    }
}
