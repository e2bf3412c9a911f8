//! Interval guesses of a term's range on a path: where the bound search of invariant
//! candidates ([`crate::invariant`], 003's `v <= ?` and `v >= ?`) looks first. The inputs'
//! ranges come from the comparisons with constants in the path condition, and
//! arithmetic that may wrap gives its type's whole range. A guess is never trusted: the
//! solver proves the bound it suggests, and a wrong guess costs one query.

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

/// The ranges of the named inputs that a path condition implies.
pub type Ranges = FxHashMap<std::sync::Arc<str>, Interval>;

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
            match (&**a, &**b) {
                (Term::Var(x, r), Term::Int(c, cr)) => limit(env, x, *r, op, value(*c, *cr)),
                (Term::Int(c, cr), Term::Var(x, r)) => {
                    limit(env, x, *r, op.mirrored(), value(*c, *cr))
                }
                _ => {}
            }
        }
        Cond::Eq(Term::Var(x, r), Term::Int(c, cr))
        | Cond::Eq(Term::Int(c, cr), Term::Var(x, r))
            if positive =>
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
    let now = env.get(x).copied().unwrap_or(full);
    if let Some(narrowed) = now.meet(range) {
        env.insert(x.clone(), narrowed);
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

/// A guess of the range of `term` given the inputs' ranges: `None` when it is not an
/// integer of at most 64 bits.
pub fn guess(term: &Term, env: &Ranges) -> Option<Interval> {
    let full = Interval::of(term.repr())?;
    // What may wrap (or is not followed) is anywhere in its type.
    let fit = |i: Option<Interval>| i.filter(|i| i.within(full)).unwrap_or(full);
    let operand = |t: &Term| -> Interval {
        let inner = guess(t, env).unwrap_or(full);
        if inner.within(full) {
            inner
        } else {
            full
        }
    };
    Some(match term {
        Term::Int(bits, r) => Interval::point(value(*bits, *r)),
        Term::Var(name, _) => env.get(name).copied().unwrap_or(full),
        Term::Cast(_, _, true) => Interval { lo: 0, hi: 1 },
        Term::Cast(inner, _, false) => fit(guess(inner, env)),
        Term::Ite(_, a, b, _) => operand(a).join(operand(b)),
        Term::Unary(op, a, _) => match op {
            UnOp::LogicalNot => Interval { lo: 0, hi: 1 },
            UnOp::Neg => fit(Some(Interval {
                lo: -operand(a).hi,
                hi: -operand(a).lo,
            })),
            UnOp::BitNot => fit(Some(Interval {
                lo: -operand(a).hi - 1,
                hi: -operand(a).lo - 1,
            })),
        },
        Term::Binary(op, ..) if op.is_comparison() => Interval { lo: 0, hi: 1 },
        Term::Binary(op, a, b, _) => {
            let (x, y) = (operand(a), operand(b));
            fit(match op {
                BinOp::Add => Interval::corners(x, y, i128::checked_add),
                BinOp::Sub => Interval::corners(x, y, i128::checked_sub),
                BinOp::Mul => Interval::corners(x, y, i128::checked_mul),
                // Truncating division is monotone in each operand on a divisor range
                // without zero.
                BinOp::Div if y.lo > 0 || y.hi < 0 => Interval::corners(x, y, i128::checked_div),
                BinOp::Rem if y.lo > 0 || y.hi < 0 => {
                    let d = y.lo.abs().max(y.hi.abs()) - 1;
                    Some(Interval {
                        lo: if x.lo < 0 { (-d).max(x.lo) } else { 0 },
                        hi: if x.hi > 0 { d.min(x.hi) } else { 0 },
                    })
                }
                BinOp::Shl if y.lo >= 0 && y.hi < 64 => {
                    Interval::corners(x, y, |v, s| v.checked_mul(1i128 << s))
                }
                BinOp::Shr if y.lo >= 0 && y.hi < 64 => {
                    Interval::corners(x, y, |v, s| Some(v >> s))
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
        assert_eq!(env[&Arc::from("n")], Interval { lo: 0, hi: 1000 });
        let s = bin(
            BinOp::Div,
            bin(BinOp::Mul, var("n"), bin(BinOp::Add, var("n"), int(1))),
            int(2),
        );
        assert_eq!(guess(&s, &env), Some(Interval { lo: 0, hi: 500500 }));
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
            guess(&c, &env),
            Some(Interval {
                lo: i32_min / 9,
                hi: i32_max / 9
            })
        );
        // A division by a range holding zero is not followed.
        let d = bin(BinOp::Div, var("a"), var("b"));
        assert_eq!(
            guess(&d, &env),
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
        assert_eq!(env[&Arc::from("x")], Interval { lo: 3, hi: 19 });
        assert!(!env.contains_key(&Arc::from("y")));
    }
}
