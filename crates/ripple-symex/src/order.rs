//! Contradictions among comparisons: a cheap and sound refutation of a conjunction of
//! order and equality atoms (`x < y`, `x <= y`, `x == y`, `x != y`, over the same terms
//! and constants), by closing the order graph. Bit-blasted, such a conjunction costs the
//! solver thousands of conflicts (`a < b`, `b < c`, `c < a` over 32-bit comparators takes
//! libz3 4.8.12 about 20 ms), while the candidates of invariant resolution and their
//! path conditions are mostly of this kind ([`crate::invariant`]). A disjunction (a path
//! condition where the backward propagation merged copies) is refuted case by case, up to
//! a fixed number of cases. Atoms of any other kind are left out, which only makes a
//! contradiction harder to find.

use rustc_hash::FxHashMap;

use crate::encode::Repr;
use crate::interval::int_value;
use crate::term::{Cond, Term};
use ripple_ir::BinOp;

/// Most terms compared in one conjunction before the check gives up.
const MAX_TERMS: usize = 48;

/// Most cases of disjunctions tried before the check gives up.
const MAX_CASES: usize = 32;

/// Whether the conjunction of `conds` is unsatisfiable because of its comparisons alone.
/// `false` means only that no contradiction was found.
pub fn contradicts(conds: &[&Cond]) -> bool {
    let mut cases = MAX_CASES;
    refuted(conds, &mut Choices::default(), &mut cases)
}

/// The branch taken in each disjunction split so far (by its node's address).
type Choices = FxHashMap<*const Cond, usize>;

/// [`contradicts`] with the disjunctions of `choices` replaced by their chosen branch:
/// refuted when the atoms alone contradict, or when every branch of the first other
/// disjunction does.
fn refuted(conds: &[&Cond], choices: &mut Choices, cases: &mut usize) -> bool {
    let mut atoms = Atoms::default();
    for c in conds {
        atoms.collect(c, true, choices);
        if atoms.terms.len() > MAX_TERMS {
            return false;
        }
    }
    if atoms.contradictory() {
        return true;
    }
    let Some((split, branches)) = atoms.split else {
        return false;
    };
    for branch in 0..branches {
        if *cases == 0 {
            return false;
        }
        *cases -= 1;
        choices.insert(split, branch);
        let refuted = refuted(conds, choices, cases);
        choices.remove(&split);
        if !refuted {
            return false;
        }
    }
    true
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rel {
    Lt,
    Le,
    Eq,
    Ne,
}

/// `(x, rel, y, order)`: the order is the width and signedness of the comparison
/// (`None` for equalities, the same in every order).
type Fact = (usize, Rel, usize, Option<(u32, bool)>);

#[derive(Default)]
struct Atoms<'a> {
    terms: Vec<&'a Term>,
    ids: FxHashMap<&'a Term, usize>,
    facts: Vec<Fact>,
    /// The first disjunction met that has no chosen branch, and its number of branches.
    split: Option<(*const Cond, usize)>,
}

impl<'a> Atoms<'a> {
    fn id(&mut self, t: &'a Term) -> usize {
        if let Some(&i) = self.ids.get(t) {
            return i;
        }
        self.terms.push(t);
        self.ids.insert(t, self.terms.len() - 1);
        self.terms.len() - 1
    }

    fn collect(&mut self, cond: &'a Cond, positive: bool, choices: &Choices) {
        match cond {
            Cond::Not(c) => self.collect(c, !positive, choices),
            Cond::And(list) if positive => list.iter().for_each(|c| self.collect(c, true, choices)),
            Cond::Or(list) if !positive => {
                list.iter().for_each(|c| self.collect(c, false, choices))
            }
            // A disjunction (an `Or`, or a negated `And`): its chosen branch, else noted
            // for a split.
            Cond::And(list) | Cond::Or(list) => {
                let key = cond as *const Cond;
                match choices.get(&key) {
                    Some(&branch) => self.collect(&list[branch], positive, choices),
                    None if self.split.is_none() && !list.is_empty() => {
                        self.split = Some((key, list.len()))
                    }
                    None => {}
                }
            }
            // Operands of one width only: a comparison of a narrower and a wider term
            // compares the wider one cut or extended, not the term itself.
            Cond::Eq(x, y) if x.repr().bits() != y.repr().bits() => {}
            Cond::Truth(Term::Binary(_, x, y, _)) if x.repr().bits() != y.repr().bits() => {}
            Cond::Eq(x, y) => {
                let rel = if positive { Rel::Eq } else { Rel::Ne };
                let (x, y) = (self.id(x), self.id(y));
                self.facts.push((x, rel, y, None));
            }
            Cond::Truth(Term::Binary(op, x, y, _)) if op.is_comparison() => {
                let Some(order) = order_of(x.repr()) else {
                    return;
                };
                let op = if positive { *op } else { op.negated() };
                let (x, y) = (self.id(x), self.id(y));
                let fact = match op {
                    BinOp::Lt => (x, Rel::Lt, y, Some(order)),
                    BinOp::Le => (x, Rel::Le, y, Some(order)),
                    BinOp::Gt => (y, Rel::Lt, x, Some(order)),
                    BinOp::Ge => (y, Rel::Le, x, Some(order)),
                    BinOp::Eq => (x, Rel::Eq, y, None),
                    BinOp::Ne => (x, Rel::Ne, y, None),
                    _ => return,
                };
                self.facts.push(fact);
            }
            _ => {}
        }
    }

    fn contradictory(&self) -> bool {
        let n = self.terms.len();
        // Equal terms are one node.
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(x, rel, y, _) in &self.facts {
            if rel == Rel::Eq {
                let (a, b) = (find(&mut parent, x), find(&mut parent, y));
                parent[a] = b;
            }
        }
        let rep: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
        // Two different constants of one width made equal.
        let mut constant_of: FxHashMap<usize, (u128, u32)> = FxHashMap::default();
        for (i, t) in self.terms.iter().enumerate() {
            if let Term::Int(bits, r) = t {
                let value = (int_value(*bits, r.bits(), false) as u128, r.bits());
                match constant_of.insert(rep[i], value) {
                    Some(other) if other.1 == value.1 && other.0 != value.0 => return true,
                    _ => {}
                }
            }
        }
        let differ = |x: usize, y: usize| {
            self.facts
                .iter()
                .any(|&(a, rel, b, _)| rel == Rel::Ne && (rep[a], rep[b]) == (x, y))
        };
        if self
            .facts
            .iter()
            .any(|&(x, rel, y, _)| rel == Rel::Ne && rep[x] == rep[y])
        {
            return true;
        }
        // Each order on its own: the closure of its edges (0 none, 1 `<=`, 2 `<`); a
        // strict cycle, or `x <= y <= x` with `x != y`, is a contradiction.
        let mut orders: Vec<(u32, bool)> = self.facts.iter().filter_map(|f| f.3).collect();
        orders.sort_unstable();
        orders.dedup();
        for order in orders {
            let mut edge = vec![vec![0u8; n]; n];
            for &(x, rel, y, o) in &self.facts {
                if o == Some(order) {
                    let strict = if rel == Rel::Lt { 2 } else { 1 };
                    let e = &mut edge[rep[x]][rep[y]];
                    *e = (*e).max(strict);
                }
            }
            // The constants of this width, in the order's sense.
            let mut constants: Vec<(i128, usize)> = self
                .terms
                .iter()
                .enumerate()
                .filter_map(|(i, t)| match t {
                    Term::Int(bits, r) if r.bits() == order.0 => {
                        Some((int_value(*bits, order.0, order.1), rep[i]))
                    }
                    _ => None,
                })
                .collect();
            constants.sort_unstable();
            constants.dedup();
            for w in constants.windows(2) {
                if w[0].0 < w[1].0 {
                    edge[w[0].1][w[1].1] = 2;
                }
            }
            for k in 0..n {
                let from_k = edge[k].clone();
                for row in edge.iter_mut() {
                    let to_k = row[k];
                    if to_k == 0 {
                        continue;
                    }
                    for (cell, &kj) in row.iter_mut().zip(&from_k) {
                        if kj != 0 {
                            *cell = (*cell).max(to_k.max(kj));
                        }
                    }
                }
            }
            for (i, row) in edge.iter().enumerate() {
                if row[i] == 2 {
                    return true;
                }
                for (j, &ij) in row.iter().enumerate() {
                    if i != j && ij != 0 && edge[j][i] != 0 && differ(i, j) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The order of an integer or pointer comparison: width and signedness.
fn order_of(repr: Repr) -> Option<(u32, bool)> {
    match repr {
        Repr::Int { bits, signed } if bits <= 64 => Some((bits, signed)),
        Repr::Pointer => Some((64, false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const INT: Repr = Repr::Int {
        bits: 32,
        signed: true,
    };
    const UINT: Repr = Repr::Int {
        bits: 32,
        signed: false,
    };

    fn var(n: &str) -> Term {
        Term::Var(Arc::from(n), INT)
    }

    fn int(v: i64, r: Repr) -> Term {
        Term::Int((v as i128 as u128) & 0xffff_ffff, r)
    }

    fn cmp(op: BinOp, a: Term, b: Term) -> Cond {
        Cond::Truth(Term::Binary(op, Arc::new(a), Arc::new(b), INT))
    }

    #[test]
    fn a_strict_cycle_is_a_contradiction() {
        // c > b, !(a >= b) (so a < b), c < a: a < b < c < a.
        let path =
            cmp(BinOp::Gt, var("c"), var("b")).and(cmp(BinOp::Ge, var("a"), var("b")).negate());
        let bad = cmp(BinOp::Lt, var("c"), var("a"));
        assert!(contradicts(&[&path, &bad]));
        // Without the strict step it is satisfiable (a == b == c is one model of
        // a <= b <= c <= a).
        let weak = cmp(BinOp::Le, var("a"), var("b"))
            .and(cmp(BinOp::Le, var("b"), var("c")))
            .and(cmp(BinOp::Le, var("c"), var("a")));
        assert!(!contradicts(&[&weak]));
        // ... unless two of them must differ.
        let differ = Cond::Eq(var("a"), var("c")).negate();
        assert!(contradicts(&[&weak, &differ]));
    }

    #[test]
    fn constants_are_ordered_within_their_order() {
        // x <= 255 and x > 255; x == 3 and x == 4.
        let le = cmp(BinOp::Le, var("x"), int(255, INT));
        let gt = cmp(BinOp::Gt, var("x"), int(255, INT));
        assert!(contradicts(&[&le, &gt]));
        let three = Cond::Eq(var("x"), int(3, INT));
        let four = Cond::Eq(var("x"), int(4, INT));
        assert!(contradicts(&[&three, &four]));
        // Signed -1 < 0, but unsigned 0xffffffff > 0: x < -1 (signed) and x > 0
        // (unsigned) has a model (x = -2).
        let below = cmp(BinOp::Lt, var("x"), int(-1, INT));
        let above = Cond::Truth(Term::Binary(
            BinOp::Gt,
            Arc::new(Term::Var(Arc::from("x"), UINT)),
            Arc::new(int(0, UINT)),
            INT,
        ));
        assert!(!contradicts(&[&below, &above]));
    }

    #[test]
    fn comparisons_of_terms_of_two_widths_are_left_out() {
        // x == y (y a long, compared cut to x's 32 bits) and x == w does not make y and
        // w equal: y = 1 and w = 2^32 + 1 agree on their low 32 bits.
        let long = Repr::Int {
            bits: 64,
            signed: true,
        };
        let (y, w) = (
            Term::Var(Arc::from("y"), long),
            Term::Var(Arc::from("w"), long),
        );
        let xy = cmp(BinOp::Eq, var("x"), y.clone());
        let xw = cmp(BinOp::Eq, var("x"), w.clone());
        let differ = Cond::Eq(y, w).negate();
        assert!(!contradicts(&[&xy, &xw, &differ]));
    }

    #[test]
    fn disjunctions_are_refuted_case_by_case() {
        // (a < b or b < a) and a == b: each case contradicts a == b.
        let either = Cond::Or(vec![
            cmp(BinOp::Lt, var("a"), var("b")),
            cmp(BinOp::Lt, var("b"), var("a")),
        ]);
        let same = Cond::Eq(var("a"), var("b"));
        assert!(contradicts(&[&either, &same]));
        // (a < b or a == b) and b < a: both cases contradict. With a <= c as the second
        // case instead, b < a <= c is a model.
        let le = Cond::Or(vec![
            cmp(BinOp::Lt, var("a"), var("b")),
            Cond::Eq(var("a"), var("b")),
        ]);
        let below = cmp(BinOp::Lt, var("b"), var("a"));
        assert!(contradicts(&[&le, &below]));
        let open = Cond::Or(vec![
            cmp(BinOp::Lt, var("a"), var("b")),
            cmp(BinOp::Le, var("a"), var("c")),
        ]);
        assert!(!contradicts(&[&open, &below]));
        // min3's merged path (c < a and b >= a, or c < b and b < a) with a < c: the
        // first case has c < a < c, the second c < b < a < c.
        let merged = Cond::Or(vec![
            cmp(BinOp::Lt, var("c"), var("a")).and(cmp(BinOp::Lt, var("b"), var("a")).negate()),
            cmp(BinOp::Lt, var("c"), var("b")).and(cmp(BinOp::Lt, var("b"), var("a"))),
        ]);
        assert!(contradicts(&[&merged, &cmp(BinOp::Lt, var("a"), var("c"))]));
        assert!(!contradicts(&[
            &merged,
            &cmp(BinOp::Lt, var("c"), var("a"))
        ]));
    }

    #[test]
    fn a_negated_disjunction_is_a_conjunction_and_other_atoms_are_left_out() {
        // !(a >= b or b >= a) is a < b < a.
        let neither = Cond::Or(vec![
            cmp(BinOp::Ge, var("a"), var("b")),
            cmp(BinOp::Ge, var("b"), var("a")),
        ])
        .negate();
        assert!(contradicts(&[&neither]));
        // x & 1 (not a comparison) and x == 2 is unsatisfiable, but only the
        // comparisons are read.
        let odd = Cond::Truth(Term::Binary(
            BinOp::BitAnd,
            Arc::new(var("x")),
            Arc::new(int(1, INT)),
            INT,
        ));
        assert!(!contradicts(&[&odd, &Cond::Eq(var("x"), int(2, INT))]));
    }
}
