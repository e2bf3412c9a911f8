//! Operators the solver cannot be interrupted in, abstracted for it.
//!
//! libz3 4.8.12 turns division and remainder of bit-vectors (`bvudiv`, `bvurem`,
//! `bvsdiv`, `bvsrem`, `bvsmod`) and floating-point arithmetic (`fp.add`, `fp.mul`,
//! `fp.div`, ...) into circuits without checking its resource limit or timeout: on a
//! query holding 81 remainders of 64-bit hashes by a table size read from memory, a
//! check given 0.2 s ran for 150 s (16 of them tripled the time of a 2 s budget), and
//! a few double-precision products and quotients ran for 20 s. So a query with more than
//! [`EXACT_LIMIT`] distinct such terms (a division by a numeral is cheap and not
//! counted) is not given to the solver as it is. Each term `f(a, b)` becomes a fresh
//! constant `r` (an over-approximation: every model of the query extends to one of the
//! abstraction; equal terms are one term, so they stay equal), with the facts SMT-LIB
//! gives for a zero divisor and the bounds of an unsigned quotient and remainder. Unsat
//! is then the query's answer. A model is checked term by term: when every constant
//! equals its term's value (operands abstracted too, so nested terms check bottom-up),
//! the model is one of the query; otherwise the terms it got wrong are made exact
//! (`r == f(a, b)`) and the query asked again, up to [`EXACT_LIMIT`] exact terms in all
//! (counterexample-guided refinement), and past that the answer is unknown.
//!
//! A solver set to keep floating-point terms abstract ([`crate::smt::Smt::abstract_floats`])
//! abstracts them from the first one and never makes them exact: a wrong value is
//! refined by the term's value at the model's point, for at most [`POINT_ROUNDS`] rounds.
//!
//! The encoder notes when it makes such a term on a thread ([`note_costly`]); queries
//! built on a thread that made none are not searched.

use std::cell::Cell;
use std::ffi::CStr;

use rustc_hash::FxHashSet;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Context, Model};

/// Most costly terms a query may hold exactly.
pub const EXACT_LIMIT: usize = 4;

/// Most rounds of point facts (see [`Abstraction::refine`]) a query with its
/// floating-point terms kept abstract gets before its answer is unknown.
pub const POINT_ROUNDS: usize = 8;

thread_local! {
    static MADE: Cell<bool> = const { Cell::new(false) };
}

/// Called by the encoder when it makes a costly term (a division by a non-numeral, or
/// any floating-point value).
pub(crate) fn note_costly() {
    MADE.with(|m| m.set(true));
}

/// Whether this thread made a costly term (else no fact can hold one).
pub(crate) fn made_any() -> bool {
    MADE.with(Cell::get)
}

/// Whether `term` is a numeral.
pub(crate) fn is_numeral(term: &BV) -> bool {
    let ctx = Context::thread_local();
    // SAFETY: a live term of this thread's context.
    unsafe { z3_sys::Z3_is_numeral_ast(ctx.get_z3_context(), term.get_z3_ast()) }
}

/// An operator with a large circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// A product: its circuit is built under the solver's limits, so it is not
    /// abstracted here (only by [`crate::smt::abstract_costly`]).
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    /// Floating-point arithmetic: whether its first argument is a rounding mode, and
    /// whether the two operands after it commute.
    Float {
        rounding: bool,
        commutes: bool,
    },
}

impl Op {
    pub(crate) fn is_division(self) -> bool {
        matches!(self, Op::Udiv | Op::Urem | Op::Sdiv | Op::Srem | Op::Smod)
    }
}

/// The operator with a large circuit that `term` applies, if any.
pub(crate) fn operator(term: &impl Ast) -> Option<Op> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    // SAFETY: a live term of this thread's context.
    unsafe {
        let app = z3_sys::Z3_to_app(c, term.get_z3_ast())
            .filter(|_| z3_sys::Z3_is_app(c, term.get_z3_ast()))?;
        costly_op(c, app)
    }
}

/// One costly term of a query.
#[derive(Clone, Debug)]
pub(crate) struct Costly {
    op: Op,
    term: Dynamic,
    args: Vec<Dynamic>,
    id: u32,
}

/// Appends to `out` the costly terms of `fact` not already in `seen` (Z3 term
/// identifiers of visited terms).
pub(crate) fn collect(fact: &Bool, seen: &mut FxHashSet<u32>, out: &mut Vec<Costly>) {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let mut stack = vec![fact.get_z3_ast()];
    // SAFETY: every term handled is a live term of this thread's context, reachable
    // from `fact`, which holds a reference to it for the whole walk.
    unsafe {
        while let Some(ast) = stack.pop() {
            if !seen.insert(z3_sys::Z3_get_ast_id(c, ast)) || !z3_sys::Z3_is_app(c, ast) {
                continue;
            }
            let Some(app) = z3_sys::Z3_to_app(c, ast) else {
                continue;
            };
            let n = z3_sys::Z3_get_app_num_args(c, app);
            let args: Vec<_> = (0..n)
                .filter_map(|i| z3_sys::Z3_get_app_arg(c, app, i))
                .collect();
            if let Some(op) = costly_op(c, app).filter(|&op| op != Op::Mul) {
                // Numeral operands fold; a division by a numeral is a cheap circuit.
                let skip = match op {
                    Op::Float { rounding, .. } => usize::from(rounding),
                    _ => 1,
                };
                let operands = &args[skip.min(args.len())..];
                if operands.iter().any(|&a| !z3_sys::Z3_is_numeral_ast(c, a)) {
                    let term = Dynamic::wrap(&ctx, ast);
                    out.push(Costly {
                        op,
                        args: args.iter().map(|&a| Dynamic::wrap(&ctx, a)).collect(),
                        term,
                        id: z3_sys::Z3_get_ast_id(c, ast),
                    });
                }
            }
            stack.extend(args);
        }
    }
}

/// The costly operator an application applies, if any (by the declaration's name: its
/// kind number differs between Z3 versions).
///
/// # Safety
/// `app` is a live application of the context `c`.
unsafe fn costly_op(c: z3_sys::Z3_context, app: z3_sys::Z3_app) -> Option<Op> {
    // SAFETY: the caller's; the symbol's text is read before the next call into Z3.
    let text = unsafe {
        let decl = z3_sys::Z3_get_app_decl(c, app)?;
        let name = z3_sys::Z3_get_decl_name(c, decl)?;
        CStr::from_ptr(z3_sys::Z3_get_symbol_string(c, name))
    };
    Some(match text.to_bytes() {
        b"bvmul" => Op::Mul,
        b"bvudiv" | b"bvudiv_i" => Op::Udiv,
        b"bvurem" | b"bvurem_i" => Op::Urem,
        b"bvsdiv" | b"bvsdiv_i" => Op::Sdiv,
        b"bvsrem" | b"bvsrem_i" => Op::Srem,
        b"bvsmod" | b"bvsmod_i" => Op::Smod,
        b"fp.add" | b"fp.mul" => Op::Float {
            rounding: true,
            commutes: true,
        },
        b"fp.sub" | b"fp.div" | b"fp.fma" | b"fp.sqrt" => Op::Float {
            rounding: true,
            commutes: false,
        },
        b"fp.rem" => Op::Float {
            rounding: false,
            commutes: false,
        },
        _ => return None,
    })
}

/// A query's facts with its costly terms abstracted.
pub(crate) struct Abstraction {
    terms: Vec<Costly>,
    /// The constant standing for each term.
    fresh: Vec<Dynamic>,
    /// Each term's arguments with the costly terms in them abstracted.
    args: Vec<Vec<Dynamic>>,
    /// The terms made exact so far.
    exact: Vec<bool>,
    /// Whether floating-point terms stay abstract: refined by the values they take at
    /// the points models gave (`args == m(args) -> r == m(f(args))`), never by their
    /// circuit.
    floats_abstract: bool,
    /// The point facts so far, and the rounds that added them.
    points: Vec<Bool>,
    point_rounds: usize,
}

impl Abstraction {
    pub(crate) fn new(terms: Vec<Costly>, floats_abstract: bool) -> Abstraction {
        let fresh: Vec<Dynamic> = terms
            .iter()
            .map(|t| Dynamic::fresh_const("costly", &t.term.get_sort()))
            .collect();
        let mut abstraction = Abstraction {
            exact: vec![false; terms.len()],
            args: Vec::new(),
            floats_abstract,
            points: Vec::new(),
            point_rounds: 0,
            terms,
            fresh,
        };
        abstraction.args = abstraction
            .terms
            .iter()
            .map(|t| t.args.iter().map(|a| abstraction.abstracted(a)).collect())
            .collect();
        abstraction
    }

    fn pairs(&self) -> Vec<(&Dynamic, &Dynamic)> {
        self.terms
            .iter()
            .map(|t| &t.term)
            .zip(&self.fresh)
            .collect()
    }

    fn abstracted(&self, term: &Dynamic) -> Dynamic {
        term.substitute(&self.pairs())
    }

    /// `fact` with every costly term replaced by its constant.
    pub(crate) fn fact(&self, fact: &Bool) -> Bool {
        fact.substitute(&self.pairs())
    }

    /// Term `i` applied to its abstracted arguments.
    fn exact_value(&self, i: usize) -> Dynamic {
        let args: Vec<&dyn Ast> = self.args[i].iter().map(|a| a as &dyn Ast).collect();
        self.terms[i].term.decl().apply(&args)
    }

    /// What holds of each constant: its definition when exact, else SMT-LIB's values
    /// for a zero divisor and the unsigned bounds.
    pub(crate) fn facts(&self) -> Vec<Bool> {
        let mut facts = self.points.clone();
        for (i, t) in self.terms.iter().enumerate() {
            let r = &self.fresh[i];
            if self.exact[i] {
                facts.push(r.eq(self.exact_value(i)));
                continue;
            }
            let (Some(r), Some(a), Some(b)) = (
                r.as_bv(),
                self.args[i].first().and_then(Dynamic::as_bv),
                self.args[i].get(1).and_then(Dynamic::as_bv),
            ) else {
                continue;
            };
            let bits = r.get_size();
            let zero = b.eq(BV::from_u64(0, bits));
            match t.op {
                Op::Udiv => {
                    facts.push(zero.implies(r.eq(BV::from_i64(-1, bits))));
                    facts.push(zero.not().implies(r.bvule(&a)));
                }
                Op::Urem => {
                    facts.push(zero.implies(r.eq(&a)));
                    facts.push(zero.not().implies(r.bvult(&b)));
                    facts.push(r.bvule(&a));
                }
                Op::Srem | Op::Smod => facts.push(zero.implies(r.eq(&a))),
                Op::Sdiv | Op::Mul | Op::Float { .. } => {}
            }
        }
        facts
    }

    /// Checks a model of the abstraction: makes exact the terms whose constant it gives
    /// a value other than the term's, or, for floating-point terms kept abstract, states
    /// the term's value at the model's arguments (the model's evaluator computes it on
    /// numerals, without the circuit).
    pub(crate) fn refine(&mut self, model: &Model) -> Refinement {
        let wrong: Vec<usize> = (0..self.terms.len())
            .filter(|&i| !self.exact[i])
            .filter(|&i| {
                let agrees = self.fresh[i].eq(self.exact_value(i));
                model.eval(&agrees, true).and_then(|v| v.as_bool()) != Some(true)
            })
            .collect();
        if wrong.is_empty() {
            return Refinement::Genuine;
        }
        let (points, circuits): (Vec<usize>, Vec<usize>) = wrong
            .into_iter()
            .partition(|&i| self.floats_abstract && matches!(self.terms[i].op, Op::Float { .. }));
        let exact = self.exact.iter().filter(|&&e| e).count();
        if exact + circuits.len() > EXACT_LIMIT
            || (!points.is_empty() && self.point_rounds >= POINT_ROUNDS)
        {
            return Refinement::Exhausted;
        }
        for i in circuits {
            self.exact[i] = true;
        }
        if !points.is_empty() {
            self.point_rounds += 1;
        }
        for i in points {
            let Some(fact) = self.point(i, model) else {
                return Refinement::Exhausted;
            };
            self.points.push(fact);
        }
        Refinement::Refined
    }

    /// `args == m(args) -> r == m(f(args))` for term `i` under `model`.
    fn point(&self, i: usize, model: &Model) -> Option<Bool> {
        let mut same = Vec::new();
        for a in &self.args[i] {
            let v = model.eval(a, true)?;
            same.push(a.eq(&v));
        }
        let value = model.eval(&self.exact_value(i), true)?;
        Some(Bool::and(&same).implies(self.fresh[i].eq(&value)))
    }
}

/// What checking a model of the abstraction found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refinement {
    /// Every constant has its term's value: the model is one of the query.
    Genuine,
    /// Some did not; they are exact now.
    Refined,
    /// Some did not, and making them exact would pass [`EXACT_LIMIT`].
    Exhausted,
}

/// The distinct terms of the lists when there are more than [`EXACT_LIMIT`] (counted
/// first, so that the common case copies nothing), or when one is floating-point
/// arithmetic and `floats_abstract`.
pub(crate) fn more_than_exact(lists: &[&[Costly]], floats_abstract: bool) -> Option<Vec<Costly>> {
    let mut ids = FxHashSet::default();
    let terms = || lists.iter().flat_map(|l| l.iter());
    let count = terms().filter(|t| ids.insert(t.id)).count();
    let float = floats_abstract && terms().any(|t| matches!(t.op, Op::Float { .. }));
    if count <= EXACT_LIMIT && !float {
        return None;
    }
    ids.clear();
    Some(terms().filter(|t| ids.insert(t.id)).cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{Answer, Budget, Smt};
    use z3::ast::BV;

    /// Five pairs `(x_i, d_i)` of 32-bit inputs: one more division than is kept exact.
    fn inputs() -> Vec<(BV, BV)> {
        note_costly();
        (0..EXACT_LIMIT + 1)
            .map(|i| {
                (
                    BV::new_const(format!("x{i}"), 32),
                    BV::new_const(format!("d{i}"), 32),
                )
            })
            .collect()
    }

    fn k(v: u64) -> BV {
        BV::from_u64(v, 32)
    }

    #[test]
    fn a_remainder_not_below_its_nonzero_divisor_is_unsat_on_the_abstraction() {
        let mut smt = Smt::new(Budget::default());
        for (x, d) in inputs() {
            smt.assert(&d.eq(k(0)).not());
            smt.assert(&x.bvurem(&d).bvuge(&d));
        }
        assert_eq!(smt.check(&[]), Answer::Unsat);
        assert_eq!(smt.check_model(&[]).0, Answer::Unsat);
    }

    #[test]
    fn a_model_whose_constants_have_their_divisions_values_is_returned() {
        // x / d == x with d == 1: the abstraction's first model already agrees.
        let mut smt = Smt::new(Budget::default());
        let pairs = inputs();
        let facts: Vec<Bool> = pairs
            .iter()
            .flat_map(|(x, d)| [d.eq(k(1)), x.bvudiv(d).eq(x), x.bvugt(k(100))])
            .collect();
        let (answer, model) = smt.check_model(&facts);
        assert_eq!(answer, Answer::Sat);
        let model = model.expect("a model");
        for (x, d) in &pairs {
            let v = model.eval(&x.bvudiv(d), true).and_then(|v| v.as_u64());
            assert!(v.is_some_and(|v| v > 100), "{v:?}");
        }
    }

    #[test]
    fn wrong_constants_are_made_exact_up_to_the_limit() {
        // x0 / d0 == 5 with d0 == 3 and x0 < 15 has no solution (x0 / 3 <= 4), but the
        // abstraction only knows the quotient is at most x0: its model is wrong, x0 / d0
        // is made exact, and the query is unsat. The other divisions (d_i == 1) agree.
        let mut smt = Smt::new(Budget::default());
        let pairs = inputs();
        let mut facts = vec![
            pairs[0].1.eq(k(3)),
            pairs[0].0.bvudiv(&pairs[0].1).eq(k(5)),
            pairs[0].0.bvult(k(15)),
        ];
        for (x, d) in &pairs[1..] {
            facts.extend([d.eq(k(1)), x.bvudiv(d).eq(x)]);
        }
        assert_eq!(smt.check_model(&facts).0, Answer::Unsat);
        // The same for all five: making them all exact passes the limit, so unknown.
        let facts: Vec<Bool> = pairs
            .iter()
            .flat_map(|(x, d)| [d.eq(k(3)), x.bvudiv(d).eq(k(5)), x.bvult(k(15))])
            .collect();
        assert_eq!(smt.check_model(&facts).0, Answer::Unknown);
        assert_eq!(smt.check(&facts), Answer::Unknown);
    }

    #[test]
    fn floats_kept_abstract_are_refined_by_their_values_at_points() {
        use crate::smt::{fp_from_int, fp_to_int};
        use z3::ast::{Float, RoundingMode};
        // q = (double)a / 3.0, never given to the solver as a circuit.
        note_costly();
        let a = BV::new_const("a", 32);
        let q = fp_from_int(&a, true, 64).div_with_rounding_mode(
            Float::from_f64(3.0),
            &RoundingMode::round_nearest_ties_to_even(),
        );
        let six = a.eq(BV::from_i64(6, 32));
        let as_int = |v: i64| fp_to_int(&q, true, 32).eq(BV::from_i64(v, 32));
        let mut smt = Smt::new(Budget::default());
        smt.abstract_floats();
        // 6 / 3.0 is 2.0: a model giving q another value is refined by that point.
        assert_eq!(smt.check_model(&[six.clone(), as_int(3)]).0, Answer::Unsat);
        let (answer, model) = smt.check_model(&[six.clone(), fp_to_int(&q, true, 32).bvsgt(k(1))]);
        assert_eq!(answer, Answer::Sat);
        let value = model.and_then(|m| m.eval(&fp_to_int(&q, true, 32), true)?.as_i64());
        assert_eq!(value, Some(2));
        // The same term on both sides is one constant: unsat without any point.
        assert_eq!(
            smt.check(&[q.eq_fpa(&q).not() & q.is_nan().not()]),
            Answer::Unsat
        );
        // a / 3.0 > 1000 needs a > 3000: unsat, which the points do not show (each
        // excludes one value of a); unknown after the rounds, never a model.
        let far = fp_to_int(&q, true, 32).bvsgt(k(1000)) & a.bvslt(k(3001));
        assert_eq!(smt.check_model(&[far]).0, Answer::Unknown);
    }

    #[test]
    fn divisions_by_numerals_are_not_abstracted() {
        note_costly();
        let x = BV::new_const("x", 32);
        let mut found = Vec::new();
        let fact = x.bvurem(k(7)).eq(k(1)) & x.bvudiv(&x).eq(k(1));
        collect(&fact, &mut FxHashSet::default(), &mut found);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].op, Op::Udiv);
    }
}
