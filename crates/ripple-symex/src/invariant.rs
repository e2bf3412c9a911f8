//! Resolution of invariant candidates (003 section III, ResolveQuery): given the paths a
//! backward query found to a program point, each a path condition and the values of the
//! queried variables there as [`Term`]s over the inputs, which candidates of the
//! templates hold on every path, with their `?` parameters solved over the disjunction
//! of all paths.
//!
//! Templates: a constant (`v == ?`), an expression of the inputs (`v == e`, where `e` is
//! one path's value and the solver proves it equal on all), bounds (`v <= ?`, `v >= ?`,
//! the tightest, by search over models; reported only when tighter than the type), and
//! between two variables of one representation equality, order (`v <= w`, `v < w`) and
//! a linear relation (`v == ? * w + ?`, the parameters solved from two models and then
//! proved). Everything is bit-precise (C on LP64 with wrapping arithmetic, IEEE floats),
//! so a candidate holds exactly when no input makes a path reach the point with the
//! variable violating it. Queries that run out of budget leave their candidate out:
//! what is reported has been proved.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use z3::ast::{Array, Ast, Bool, BV};
use z3::{Model, Sort};

use crate::encode::{self, bv_const, resize, Repr};
use crate::interval;
use crate::order;
use crate::smt::{or_all, Answer, Smt};
use crate::term::{Cond, Term};
use ripple_ir::BinOp;

/// One path to the point: its condition over the inputs and the values of the queried
/// variables there (in the order of the variable list).
#[derive(Clone, Debug)]
pub struct PathFact {
    pub cond: Cond,
    pub values: Vec<Term>,
}

/// Which templates to instantiate.
#[derive(Clone, Copy, Debug)]
pub struct Templates {
    pub constant: bool,
    pub expression: bool,
    pub bounds: bool,
    pub relations: bool,
    pub linear: bool,
}

impl Default for Templates {
    fn default() -> Self {
        Templates {
            constant: true,
            expression: true,
            bounds: true,
            relations: true,
            linear: true,
        }
    }
}

/// A relation between two variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    Eq,
    Lt,
    Le,
}

/// A proved invariant; variables are indices into the query's variable list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Invariant {
    /// No path reaches the point.
    Unreachable,
    /// `v == c`.
    Constant { var: usize, value: Term },
    /// `v == e` with `e` over the inputs.
    Equals { var: usize, expr: Term },
    /// `v <= c`.
    AtMost { var: usize, value: Term },
    /// `v >= c`.
    AtLeast { var: usize, value: Term },
    /// `a op b`.
    Relation { a: usize, op: Relation, b: usize },
    /// `v == k * w + c`.
    Linear {
        var: usize,
        k: Term,
        other: usize,
        c: Term,
    },
}

impl Invariant {
    /// The invariant as C, with the variables' names.
    pub fn render(&self, names: &[String]) -> String {
        match self {
            Invariant::Unreachable => "unreachable".to_string(),
            Invariant::Constant { var, value } => format!("{} == {value}", names[*var]),
            Invariant::Equals { var, expr } => {
                let expr = expr.equal_bits_without_sign_cast();
                if expr.needs_brackets_after_equality() {
                    format!("{} == ({expr})", names[*var])
                } else {
                    format!("{} == {expr}", names[*var])
                }
            }
            Invariant::AtMost { var, value } => format!("{} <= {value}", names[*var]),
            Invariant::AtLeast { var, value } => format!("{} >= {value}", names[*var]),
            Invariant::Relation { a, op, b } => {
                let op = match op {
                    Relation::Eq => "==",
                    Relation::Lt => "<",
                    Relation::Le => "<=",
                };
                format!("{} {op} {}", names[*a], names[*b])
            }
            Invariant::Linear { var, k, other, c } => {
                let (k, c) = (k.to_string(), c.to_string());
                let product = match k.as_str() {
                    "1" => names[*other].clone(),
                    "-1" => format!("-{}", names[*other]),
                    k => format!("{k} * {}", names[*other]),
                };
                match c.strip_prefix('-') {
                    _ if c == "0" => format!("{} == {product}", names[*var]),
                    Some(minus) => format!("{} == {product} - {minus}", names[*var]),
                    None => format!("{} == {product} + {c}", names[*var]),
                }
            }
        }
    }

    /// Whether the invariant holds in one concrete state: `values` are the variables'
    /// values (constants; `None` when not observed) and `inputs` the input symbols'.
    /// `None` when the state does not say (a value missing, or memory read).
    pub fn holds(
        &self,
        values: &[Option<Term>],
        inputs: &FxHashMap<Arc<str>, Term>,
    ) -> Option<bool> {
        if let Invariant::Equals { expr, .. } = self {
            let expr = expr.substitute(inputs);
            let mut names = Vec::new();
            expr.vars(&mut names);
            if expr.reads_memory() || !names.is_empty() {
                return None;
            }
        }
        let mut enc = Encoder::default();
        self.formula(&mut enc, values, inputs)?.simplify().as_bool()
    }

    /// The invariant as a formula over the given values of its variables (inputs
    /// substituted as given).
    /// The invariant as a condition over one path's values, when it is a comparison of
    /// integers or pointers (for [`order`]'s refutation; the same meaning as
    /// [`Invariant::formula`]).
    fn as_cond(&self, values: &[Term]) -> Option<Cond> {
        let comparable = |t: &Term| matches!(t.repr(), Repr::Int { .. } | Repr::Pointer);
        let value = |v: usize| values.get(v).filter(|t| comparable(t)).cloned();
        Some(match self {
            Invariant::Constant { var, value: c } => Cond::Eq(value(*var)?, c.clone()),
            Invariant::Equals { var, expr } => {
                let x = value(*var)?;
                (x.repr() == expr.repr()).then(|| Cond::Eq(x, expr.clone()))?
            }
            Invariant::AtMost { var, value: c } => less(c.clone(), value(*var)?).negate(),
            Invariant::AtLeast { var, value: c } => less(value(*var)?, c.clone()).negate(),
            Invariant::Relation { a, op, b } => {
                let (x, y) = (value(*a)?, value(*b)?);
                match op {
                    Relation::Eq => Cond::Eq(x, y),
                    Relation::Lt => less(x, y),
                    Relation::Le => less(y, x).negate(),
                }
            }
            Invariant::Unreachable | Invariant::Linear { .. } => return None,
        })
    }

    /// Whether a bound (or a constant) holds on a path by the interval of its value
    /// there (compared in the constant's representation, as [`Invariant::formula`] does).
    fn within_intervals(&self, values: &[Term], cond: &Cond) -> bool {
        let (var, c, upper) = match self {
            Invariant::AtMost { var, value } => (*var, value, Some(true)),
            Invariant::AtLeast { var, value } => (*var, value, Some(false)),
            Invariant::Constant { var, value } => (*var, value, None),
            _ => return false,
        };
        let (Some(x), Term::Int(bits, r)) = (values.get(var), c) else {
            return false;
        };
        if x.repr() != *r {
            return false;
        }
        let Some(i) = interval::range_of(x, &interval::ranges(cond)) else {
            return false;
        };
        let c = interval::int_value(*bits, r.bits(), r.signed());
        match upper {
            Some(true) => i.hi <= c,
            Some(false) => i.lo >= c,
            None => i.lo == c && i.hi == c,
        }
    }

    fn formula(
        &self,
        enc: &mut Encoder,
        values: &[Option<Term>],
        inputs: &FxHashMap<Arc<str>, Term>,
    ) -> Option<Bool> {
        let value = |v: usize| values.get(v).cloned().flatten();
        Some(match self {
            Invariant::Unreachable => Bool::from_bool(false),
            Invariant::Constant { var, value: c } => enc.cond(&Cond::Eq(value(*var)?, c.clone())),
            Invariant::Equals { var, expr } => {
                enc.cond(&Cond::Eq(value(*var)?, expr.substitute(inputs)))
            }
            Invariant::AtMost { var, value: c } | Invariant::AtLeast { var, value: c } => {
                let x = enc.term(&value(*var)?);
                let y = enc.term(c);
                let signed = c.repr().signed();
                match (matches!(self, Invariant::AtMost { .. }), signed) {
                    (true, true) => x.bvsle(&y),
                    (true, false) => x.bvule(&y),
                    (false, true) => x.bvsge(&y),
                    (false, false) => x.bvuge(&y),
                }
            }
            Invariant::Relation { a, op, b } => {
                let ta = value(*a)?;
                let signed = ta.repr().signed();
                let x = enc.term(&ta);
                let y = enc.term(&value(*b)?);
                if x.get_size() != y.get_size() {
                    return None;
                }
                match (op, signed) {
                    (Relation::Eq, _) => x.eq(&y),
                    (Relation::Lt, true) => x.bvslt(&y),
                    (Relation::Lt, false) => x.bvult(&y),
                    (Relation::Le, true) => x.bvsle(&y),
                    (Relation::Le, false) => x.bvule(&y),
                }
            }
            Invariant::Linear { var, k, other, c } => {
                let x = enc.term(&value(*var)?);
                let w = enc.term(&value(*other)?);
                if x.get_size() != w.get_size() {
                    return None;
                }
                let rhs = w.bvmul(enc.term(k)).bvadd(enc.term(c));
                x.eq(&rhs)
            }
        })
    }

    /// The variables the invariant is about.
    pub fn vars(&self) -> Vec<usize> {
        match self {
            Invariant::Unreachable => vec![],
            Invariant::Constant { var, .. }
            | Invariant::Equals { var, .. }
            | Invariant::AtMost { var, .. }
            | Invariant::AtLeast { var, .. } => vec![*var],
            Invariant::Relation { a, b, .. } => vec![*a, *b],
            Invariant::Linear { var, other, .. } => vec![*var, *other],
        }
    }
}

/// Whether a name is a fresh symbol (havocked state), not an input of the program.
pub fn is_fresh(name: &str) -> bool {
    name.starts_with('?')
}

/// Encodes terms over shared symbols: variables by name, addresses by name, one memory.
#[derive(Default)]
pub struct Encoder {
    vars: FxHashMap<(Arc<str>, u32), BV>,
    addrs: FxHashMap<Arc<str>, BV>,
    mem: Option<Array>,
}

impl Encoder {
    fn mem(&mut self) -> Array {
        self.mem
            .get_or_insert_with(|| {
                Array::new_const("inv.mem", &Sort::bitvector(64), &Sort::bitvector(8))
            })
            .clone()
    }

    pub fn term(&mut self, t: &Term) -> BV {
        match t {
            Term::Int(v, r) => bv_const(*v, r.bits()),
            Term::Float(bits, r) => BV::from_u64(*bits, r.bits()),
            Term::Var(name, r) => self
                .vars
                .entry((name.clone(), r.bits()))
                .or_insert_with(|| BV::new_const(format!("inv.{name}.{}", r.bits()), r.bits()))
                .clone(),
            Term::Addr(name) => self
                .addrs
                .entry(name.clone())
                .or_insert_with(|| BV::new_const(format!("inv.&{name}"), 64))
                .clone(),
            Term::Load(a, r) => {
                let a = self.term(a);
                let mem = self.mem();
                resize(&encode::load(&mem, &a, r.bytes()), r.bits(), false)
            }
            Term::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
                repr,
            } => {
                let a = self.term(addr);
                let mem = self.mem();
                encode::load_bits(
                    &mem,
                    &a,
                    unit.bytes(),
                    *bit_offset,
                    *width,
                    repr.bits(),
                    repr.signed(),
                )
            }
            Term::Unary(op, a, r) => {
                let v = self.term(a);
                encode::unary(*op, &v, a.repr(), r.bits())
            }
            Term::Binary(op, a, b, r) => {
                let x = self.term(a);
                let y = self.term(b);
                encode::binary(*op, &x, &y, a.repr(), b.repr(), *r)
            }
            Term::Cast(a, r, to_bool) => {
                let v = self.term(a);
                if *to_bool {
                    encode::to_bool(&v, a.repr())
                } else {
                    encode::cast(&v, a.repr(), *r)
                }
            }
            Term::Ite(c, a, b, r) => {
                let c = self.cond(c);
                let x = resize(&self.term(a), r.bits(), false);
                let y = resize(&self.term(b), r.bits(), false);
                c.ite(&x, &y)
            }
        }
    }

    pub fn cond(&mut self, c: &Cond) -> Bool {
        match c {
            Cond::True => Bool::from_bool(true),
            Cond::False => Bool::from_bool(false),
            Cond::Truth(t) => {
                let v = self.term(t);
                encode::truth(&v, t.repr())
            }
            Cond::Eq(a, b) => {
                let x = self.term(a);
                let y = resize(&self.term(b), x.get_size(), false);
                x.eq(&y)
            }
            Cond::Overlap(a, x, b, y) => {
                let a = resize(&self.term(a), 64, false);
                let b = resize(&self.term(b), 64, false);
                let a_end = a.bvadd(BV::from_u64(u64::from(*x), 64));
                let b_end = b.bvadd(BV::from_u64(u64::from(*y), 64));
                Bool::and(&[a.bvult(&b_end), b.bvult(&a_end)])
            }
            Cond::Not(c) => self.cond(c).not(),
            Cond::And(cs) => {
                let parts: Vec<Bool> = cs.iter().map(|c| self.cond(c)).collect();
                Bool::and(&parts)
            }
            Cond::Or(cs) => {
                let parts: Vec<Bool> = cs.iter().map(|c| self.cond(c)).collect();
                Bool::or(&parts)
            }
        }
    }
}

/// The invariants of the templates that hold on every path of `facts` (an empty list of
/// paths: the point is unreachable). `own_inputs[i]` names the input a variable
/// would trivially equal (a parameter never assigned), not worth reporting.
pub fn resolve(
    smt: &mut Smt,
    facts: &[PathFact],
    vars: usize,
    own_inputs: &[Option<Arc<str>>],
    templates: Templates,
) -> Resolved {
    let mut enc = Encoder::default();
    let conds: Vec<Bool> = facts.iter().map(|f| enc.cond(&f.cond)).collect();
    let reach = or_all(&conds);
    let unreachable = Resolved {
        invariants: vec![Invariant::Unreachable],
        samples: Vec::new(),
    };
    if facts.is_empty() {
        return unreachable;
    }
    let values: Vec<Vec<BV>> = facts
        .iter()
        .map(|f| f.values.iter().map(|t| enc.term(t)).collect())
        .collect();
    let mut samples = Samples::new(facts, &conds, &values);
    for model in seeds(facts, &mut enc) {
        samples.add(Some(model));
    }
    // A seed that takes a path shows the point reachable.
    if samples.models.is_empty() {
        let (answer, model) = smt.check_sample(std::slice::from_ref(&reach));
        if answer == Answer::Unsat {
            return unreachable;
        }
        samples.add(model);
    }
    // Somewhere some path makes `bad(path, values)` true. `term_bad(p)`, the same as a
    // condition over terms when it is one, lets the paths where it contradicts the path
    // condition's comparisons go without asking.
    let violated = |smt: &mut Smt,
                    samples: &mut Samples,
                    bad: &dyn Fn(usize) -> Bool,
                    term_bad: &dyn Fn(usize) -> Option<Cond>|
     -> Answer {
        if samples.violate(bad) {
            return Answer::Sat;
        }
        let live = samples.live(term_bad);
        if live.is_empty() {
            return Answer::Unsat;
        }
        let cases: Vec<Bool> = live
            .into_iter()
            .map(|p| Bool::and(&[conds[p].clone(), bad(p)]))
            .collect();
        let (answer, model) = smt.check_sample(&[or_all(&cases)]);
        samples.add(model);
        answer
    };
    // Per variable, the integer inputs its value mentions on each path.
    let inputs_of: Vec<Vec<(usize, BV)>> = (0..vars)
        .map(|v| {
            let mut out = Vec::new();
            for (p, f) in facts.iter().enumerate() {
                let mut mentioned: Vec<Term> = Vec::new();
                f.values[v].walk(&mut |t| {
                    if matches!(t, Term::Var(_, Repr::Int { bits, .. }) if *bits <= 64)
                        && !mentioned.contains(t)
                    {
                        mentioned.push(t.clone());
                    }
                });
                out.extend(mentioned.iter().map(|t| (p, enc.term(t))));
            }
            out
        })
        .collect();
    // Each variable's range on each path (an over-approximation from the path's
    // condition and value), for the bound search.
    let envs: Vec<interval::Ranges> = facts.iter().map(|f| interval::ranges(&f.cond)).collect();
    let spans: Vec<Vec<Option<interval::Interval>>> = (0..vars)
        .map(|v| {
            facts
                .iter()
                .zip(&envs)
                .map(|(f, env)| interval::range_of(&f.values[v], env))
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    let mut constant = vec![false; vars];
    let mut equals = vec![false; vars];
    for v in 0..vars {
        let repr = facts[0].values[v].repr();
        if matches!(repr, Repr::Bytes { .. } | Repr::Void) {
            continue;
        }
        if templates.constant {
            if let Some(c) = candidate_value(smt, &reach, &mut samples, v) {
                let cterm = bv_const(c, repr.bits());
                let value = match repr {
                    Repr::Float { bits } => Term::Float(c as u64, Repr::Float { bits }),
                    r => Term::Int(c, r),
                };
                let differs =
                    |p: usize| Some(Cond::Eq(facts[p].values[v].clone(), value.clone()).negate());
                if violated(
                    smt,
                    &mut samples,
                    &|p| values[p][v].eq(&cterm).not(),
                    &differs,
                ) == Answer::Unsat
                {
                    out.push(Invariant::Constant { var: v, value });
                    constant[v] = true;
                    continue;
                }
            }
        }
        if templates.expression {
            // One path's value, free of havocked state; proved equal on every path.
            let pick = facts.iter().position(|f| {
                let mut names = Vec::new();
                f.values[v].vars(&mut names);
                names.iter().all(|n| !is_fresh(n))
            });
            if let Some(p0) = pick {
                // The inputs the value mentions first (`(a + a) - a` is `a`), then the
                // value itself.
                let expr = &facts[p0].values[v];
                let mut candidates: Vec<Term> = Vec::new();
                expr.walk(&mut |t| {
                    if let Term::Var(_, r) = t {
                        if *r == repr && !candidates.contains(t) {
                            candidates.push(t.clone());
                        }
                    }
                });
                candidates.sort();
                if !candidates.contains(expr) {
                    candidates.push(expr.clone());
                }
                let own = own_inputs.get(v).and_then(|n| n.as_ref());
                for candidate in candidates {
                    if matches!((&candidate, own), (Term::Var(name, _), Some(own)) if name == own) {
                        continue;
                    }
                    let c = resize(&enc.term(&candidate), repr.bits(), false);
                    let differs = |p: usize| {
                        (candidate.repr() == repr).then(|| {
                            Cond::Eq(facts[p].values[v].clone(), candidate.clone()).negate()
                        })
                    };
                    if violated(smt, &mut samples, &|p| values[p][v].eq(&c).not(), &differs)
                        == Answer::Unsat
                    {
                        out.push(Invariant::Equals {
                            var: v,
                            expr: candidate,
                        });
                        equals[v] = true;
                        break;
                    }
                }
            }
        }
        if templates.bounds {
            if let Repr::Int { bits, signed } = repr {
                for upper in [true, false] {
                    let hints = constants_of(facts, v);
                    let kind = BoundKind {
                        width: bits,
                        signed,
                        upper,
                    };
                    if let Some(c) =
                        bound(smt, &mut samples, v, kind, &hints, &spans[v], &inputs_of[v])
                    {
                        let value = Term::Int(c, repr);
                        out.push(if upper {
                            Invariant::AtMost { var: v, value }
                        } else {
                            Invariant::AtLeast { var: v, value }
                        });
                    }
                }
            }
        }
    }
    if templates.relations || templates.linear {
        for a in 0..vars {
            for b in a + 1..vars {
                let ra = facts[0].values[a].repr();
                if ra != facts[0].values[b].repr()
                    || !matches!(ra, Repr::Int { .. } | Repr::Pointer)
                    || constant[a]
                    || constant[b]
                    || equals[a]
                    || equals[b]
                {
                    continue;
                }
                let signed = ra.signed();
                let lt = |x: &BV, y: &BV| if signed { x.bvslt(y) } else { x.bvult(y) };
                let term = |p: usize, v: usize| facts[p].values[v].clone();
                if templates.relations
                    && violated(
                        smt,
                        &mut samples,
                        &|p| values[p][a].eq(&values[p][b]).not(),
                        &|p| Some(Cond::Eq(term(p, a), term(p, b)).negate()),
                    ) == Answer::Unsat
                {
                    out.push(Invariant::Relation {
                        a,
                        op: Relation::Eq,
                        b,
                    });
                    continue;
                }
                // An exact linear relation says more than an order.
                if templates.linear && matches!(ra, Repr::Int { .. }) {
                    if let Some(inv) = linear(smt, &reach, &mut samples, a, b, ra)
                        .or_else(|| linear(smt, &reach, &mut samples, b, a, ra))
                    {
                        out.push(inv);
                        continue;
                    }
                }
                if templates.relations {
                    for (x, y) in [(a, b), (b, a)] {
                        // x < y, else x <= y: violated by y <= x, resp. y < x.
                        if violated(
                            smt,
                            &mut samples,
                            &|p| lt(&values[p][x], &values[p][y]).not(),
                            &|p| Some(less(term(p, x), term(p, y)).negate()),
                        ) == Answer::Unsat
                        {
                            out.push(Invariant::Relation {
                                a: x,
                                op: Relation::Lt,
                                b: y,
                            });
                            break;
                        }
                        if violated(
                            smt,
                            &mut samples,
                            &|p| lt(&values[p][y], &values[p][x]),
                            &|p| Some(less(term(p, y), term(p, x))),
                        ) == Answer::Unsat
                        {
                            out.push(Invariant::Relation {
                                a: x,
                                op: Relation::Le,
                                b: y,
                            });
                            break;
                        }
                    }
                }
            }
        }
    }
    Resolved {
        invariants: out,
        samples: samples.models.into_iter().map(|(m, _)| m).collect(),
    }
}

/// What [`resolve`] proved, and the inputs the solver showed on the way (models, to
/// refute other candidates with: see [`verify`]).
pub struct Resolved {
    pub invariants: Vec<Invariant>,
    pub samples: Vec<Model>,
}

/// Inputs the solver has shown to reach the point (the models of its satisfiable
/// queries), with the paths each takes. A candidate one of them violates is refuted
/// without a query, and a bound search starts from the extreme value they show. The
/// evaluation is exact (the model's values, completed as the solver completes them), so
/// the samples change which queries are asked, not what is proved.
struct Samples<'a> {
    facts: &'a [PathFact],
    conds: &'a [Bool],
    values: &'a [Vec<BV>],
    /// Each model, and the paths whose condition it satisfies.
    models: Vec<(Model, Vec<usize>)>,
}

/// Models kept per point: enough to refute most candidates, few enough that trying
/// them all costs less than a query.
const SAMPLES: usize = 32;

impl<'a> Samples<'a> {
    fn new(facts: &'a [PathFact], conds: &'a [Bool], values: &'a [Vec<BV>]) -> Self {
        Samples {
            facts,
            conds,
            values,
            models: Vec::new(),
        }
    }

    fn add(&mut self, model: Option<Model>) {
        let Some(model) = model else { return };
        if self.models.len() >= SAMPLES {
            return;
        }
        let paths: Vec<usize> = (0..self.conds.len())
            .filter(|&p| model_true(&model, &self.conds[p]))
            .collect();
        if !paths.is_empty() {
            self.models.push((model, paths));
        }
    }

    /// The paths on which `bad(path)` (as a condition over terms, when it is one) may
    /// hold: those where it does not contradict the path condition's comparisons.
    fn live(&self, bad: &dyn Fn(usize) -> Option<Cond>) -> Vec<usize> {
        (0..self.conds.len())
            .filter(|&p| bad(p).is_none_or(|b| !order::contradicts(&[&self.facts[p].cond, &b])))
            .collect()
    }

    /// Whether one of the first samples, with one of `inputs` (a path and an input its
    /// value mentions) set to an extreme of its type (0, all ones, the signed maximum or
    /// minimum), makes `case(path)` true. The evaluation is exact and the input
    /// concrete, so this is a witness as good as the solver's.
    fn with_extreme_input(&self, inputs: &[(usize, BV)], case: &dyn Fn(usize) -> Bool) -> bool {
        for (m, _) in self.models.iter().take(2) {
            for (p, x) in inputs {
                let width = x.get_size();
                let top = 1u128 << (width - 1);
                let extremes = [0, as_bits(-1, width), top - 1, top].map(|e| bv_const(e, width));
                let c = case(*p);
                if extremes
                    .iter()
                    .any(|e| model_true(m, &c.substitute(&[(x, e)])))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether some sample makes `bad(path)` true on a path it takes.
    fn violate(&self, bad: &dyn Fn(usize) -> Bool) -> bool {
        self.models
            .iter()
            .any(|(m, paths)| paths.iter().any(|&p| model_true(m, &bad(p))))
    }

    /// The values of variable `v` the samples from the `from`-th on show (on every path
    /// each takes).
    fn seen(&self, from: usize, v: usize, width: u32, signed: bool) -> Vec<i128> {
        let mut out = Vec::new();
        for (m, paths) in &self.models[from.min(self.models.len())..] {
            for &p in paths {
                if let Some(bits) = m.eval(&self.values[p][v], true).and_then(|x| bits_of(&x)) {
                    out.push(interval::int_value(bits, width, signed));
                }
            }
        }
        out
    }
}

/// Inputs chosen before any query, as models: every input 0, 1 or -1, the inputs
/// ascending, descending or rotated (1, 2, 3; 3, 2, 1; 2, 3, 1), at their type's
/// maximum or minimum, at values from a fixed pseudo-random sequence (small and over
/// the whole type), and every input at one of the program's constants or one off it
/// (guards and clamps make the extremes there). Most candidates that do not hold are
/// refuted by one of them, and most bounds are shown reached, each a query saved; they
/// are evaluated exactly, like the solver's models, so they change which queries are
/// asked, not what is proved.
fn seeds(facts: &[PathFact], enc: &mut Encoder) -> Vec<Model> {
    let mut inputs: Vec<(Arc<str>, Repr)> = Vec::new();
    let mut constants: Vec<i128> = Vec::new();
    let mut note = |t: &Term| match t {
        Term::Var(name, r @ (Repr::Int { .. } | Repr::Float { .. }))
            if (1..=64).contains(&r.bits()) && !inputs.contains(&(name.clone(), *r)) =>
        {
            inputs.push((name.clone(), *r))
        }
        Term::Int(bits, r @ Repr::Int { bits: w, .. }) if (1..=64).contains(w) => {
            let c = interval::int_value(*bits, *w, r.signed());
            for near in [c - 1, c, c + 1] {
                if !(-1..=1).contains(&near) && !constants.contains(&near) {
                    constants.push(near);
                }
            }
        }
        _ => {}
    };
    for f in facts {
        f.cond.walk(&mut note);
        f.values.iter().for_each(|v| v.walk(&mut note));
    }
    if inputs.is_empty() {
        return Vec::new();
    }
    inputs.sort();
    constants.truncate(CONSTANT_SEEDS);
    let n = inputs.len() as i128;
    // Pseudo-random, fixed: a linear congruential sequence.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 11
    };
    const KINDS: usize = 12;
    (0..KINDS + constants.len())
        .map(|kind| {
            let model = Model::new();
            for (i, (name, repr)) in inputs.iter().enumerate() {
                let i = i as i128;
                let width = repr.bits();
                let r = next();
                let constant = kind.checked_sub(KINDS).map(|k| constants[k]);
                let value: u128 = match repr {
                    Repr::Float { bits } => {
                        let x: f64 = match (kind, constant) {
                            (_, Some(c)) => c as f64,
                            (0, _) => 0.0,
                            (1, _) => 1.0,
                            (2, _) => -1.0,
                            (3, _) => (i + 1) as f64,
                            (4, _) => (n - i) as f64,
                            (5, _) => ((i + 1) % n + 1) as f64,
                            (6, _) => 1e6,
                            (7, _) => -1e6,
                            (8 | 9, _) => (r % 41) as f64 - 20.0,
                            _ => (r % 2001) as f64 / 8.0 - 125.0,
                        };
                        if *bits == 32 {
                            u128::from((x as f32).to_bits())
                        } else {
                            u128::from(x.to_bits())
                        }
                    }
                    _ => {
                        let top = 1i128 << (width - 1);
                        let signed = repr.signed();
                        as_bits(
                            match (kind, constant) {
                                (_, Some(c)) => c,
                                (0, _) => 0,
                                (1, _) => 1,
                                (2, _) => -1,
                                (3, _) => i + 1,
                                (4, _) => n - i,
                                (5, _) => (i + 1) % n + 1,
                                (6, _) if signed => top - 1,
                                (6, _) => -1,
                                (7, _) if signed => -top,
                                (7, _) => 0,
                                (8 | 9, _) => (r % 41) as i128 - 20,
                                _ => r as i128,
                            },
                            width,
                        )
                    }
                };
                let symbol = enc.term(&Term::Var(name.clone(), *repr));
                model.add_const_interp(&symbol.decl(), &bv_const(value, width));
            }
            model
        })
        .collect()
}

/// Most constants (and their neighbours) the seeds set every input to.
const CONSTANT_SEEDS: usize = 12;

/// `a < b` as a condition (in the order of their representation).
fn less(a: Term, b: Term) -> Cond {
    let int = Repr::Int {
        bits: 32,
        signed: true,
    };
    Cond::Truth(Term::Binary(BinOp::Lt, Arc::new(a), Arc::new(b), int))
}

fn model_true(model: &Model, fact: &Bool) -> bool {
    model
        .eval(fact, true)
        .and_then(|b| b.as_bool())
        .unwrap_or(false)
}

/// A value the variable takes on some path (from a sample, else a model), as bits.
fn candidate_value(smt: &mut Smt, reach: &Bool, samples: &mut Samples, v: usize) -> Option<u128> {
    if samples.models.is_empty() {
        let (answer, model) = smt.check_model(std::slice::from_ref(reach));
        if answer != Answer::Sat {
            return None;
        }
        samples.add(model);
    }
    let (model, paths) = samples.models.first()?;
    bits_of(&model.eval(&samples.values[paths[0]][v], true)?)
}

fn bits_of(v: &BV) -> Option<u128> {
    if v.get_size() <= 64 {
        v.as_u64().map(u128::from)
    } else {
        None
    }
}

fn as_bits(value: i128, width: u32) -> u128 {
    if width >= 128 {
        value as u128
    } else {
        (value as u128) & ((1u128 << width) - 1)
    }
}

/// Which bound of an integer variable is searched.
#[derive(Clone, Copy)]
struct BoundKind {
    width: u32,
    signed: bool,
    upper: bool,
}

/// The tightest upper (or lower) bound of a variable over all paths, when tighter than
/// its type's. The search keeps the bound between a value some input reaches (`lo`)
/// and one no path goes beyond (`hi`), in the direction of the bound; it asks, in
/// order, about the interval guess and one short of it (the guess is usually exact),
/// the type's extreme (most variables are unbounded) and one short of it, the most
/// extreme value a sample shows, the program's constants, and then bisects. Paths
/// whose comparisons or interval (`spans`, the value's range on each path) keep the
/// value within the one asked about are not part of the query.
fn bound(
    smt: &mut Smt,
    samples: &mut Samples,
    v: usize,
    kind: BoundKind,
    hints: &[i128],
    spans: &[Option<interval::Interval>],
    inputs: &[(usize, BV)],
) -> Option<u128> {
    let BoundKind {
        width,
        signed,
        upper,
    } = kind;
    if width > 64 {
        return None;
    }
    let (min, max) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    // Oriented: the least `u` with `dir * value <= u` on every path is searched.
    let dir: i128 = if upper { 1 } else { -1 };
    let (umin, umax) = if upper { (min, max) } else { (-max, -min) };
    // The most extreme value the samples show (a value some input reaches), kept up to
    // date by looking only at the samples added since the last look.
    let scanned = std::cell::Cell::new((0usize, None::<i128>));
    let extreme = |samples: &Samples| {
        let (from, best) = scanned.get();
        let seen = samples
            .seen(from, v, width, signed)
            .into_iter()
            .map(|x| dir * x);
        let best = seen.chain(best).max();
        scanned.set((samples.models.len(), best));
        best
    };
    let mut lo = extreme(samples).unwrap_or(umin);
    let mut hi = umax;
    // Path `p` reaches the point with the value beyond `u`.
    let case = |samples: &Samples, p: usize, u: i128| {
        let cb = bv_const(as_bits(dir * u, width), width);
        let x = &samples.values[p][v];
        let out = match (upper, signed) {
            (true, true) => x.bvsgt(&cb),
            (true, false) => x.bvugt(&cb),
            (false, true) => x.bvslt(&cb),
            (false, false) => x.bvult(&cb),
        };
        Bool::and(&[samples.conds[p].clone(), out])
    };
    // The guess: the end of the range over all paths (when every path has one).
    let guess = spans
        .iter()
        .try_fold(None, |acc: Option<interval::Interval>, s| {
            let s = (*s)?;
            Some(Some(acc.map_or(s, |a| a.join(s))))
        })
        .flatten()
        .map(|g| if upper { g.hi } else { g.lo });
    // Whether some path has the value beyond `u`: narrows [lo, hi]; false when the
    // solver cannot tell.
    let ask = |smt: &mut Smt, samples: &mut Samples, lo: &mut i128, hi: &mut i128, u: i128| {
        let repr = Repr::Int {
            bits: width,
            signed,
        };
        let beyond = |p: usize| {
            let (x, c) = (
                samples.facts[p].values[v].clone(),
                Term::Int(as_bits(dir * u, width), repr),
            );
            Some(if upper { less(c, x) } else { less(x, c) })
        };
        let mut live = samples.live(&beyond);
        // A path whose interval stays within `u` cannot go beyond it.
        live.retain(|&p| spans[p].is_none_or(|i| if upper { i.hi } else { -i.lo } > u));
        if live.is_empty() {
            *hi = (*hi).min(u);
            return true;
        }
        let cases: Vec<(usize, Bool)> =
            live.into_iter().map(|p| (p, case(samples, p, u))).collect();
        let goal: Vec<Bool> = cases.iter().map(|c| c.1.clone()).collect();
        let (answer, model) = smt.check_model(&[or_all(&goal)]);
        // The value beyond `u` the model shows.
        let seen = model.as_ref().and_then(|m| {
            cases
                .iter()
                .filter(|(_, case)| model_true(m, case))
                .filter_map(|&(p, _)| bits_of(&m.eval(&samples.values[p][v], true)?))
                .map(|b| dir * interval::int_value(b, width, signed))
                .next()
        });
        samples.add(model);
        match answer {
            Answer::Unsat => *hi = (*hi).min(u),
            Answer::Sat => *lo = (*lo).max(seen.unwrap_or(u + 1)).max(u + 1),
            Answer::Unknown => return false,
        }
        true
    };
    if let Some(g) = guess.map(|g| dir * g).filter(|&g| lo <= g && g < hi) {
        if !ask(smt, samples, &mut lo, &mut hi, g) {
            return None;
        }
        if hi == g && lo < g && !ask(smt, samples, &mut lo, &mut hi, g - 1) {
            return None;
        }
    }
    // The type's extreme, first by the samples with one input set to an extreme of its
    // own (most values that reach their type's extreme are copies of an input).
    if hi == umax && lo < hi && samples.with_extreme_input(inputs, &|p| case(samples, p, umax - 1))
    {
        lo = umax;
    }
    if hi == umax && lo < hi && !ask(smt, samples, &mut lo, &mut hi, umax - 1) {
        return None;
    }
    // Not the type's extreme: often one short of it (`2 * x` wrapping).
    if hi == umax - 1 && lo < hi && !ask(smt, samples, &mut lo, &mut hi, umax - 2) {
        return None;
    }
    let reached = lo;
    if lo < hi && !ask(smt, samples, &mut lo, &mut hi, reached) {
        return None;
    }
    // The program's constants (guards and clamps bound values by them): the first
    // that bounds the value.
    let mut oriented: Vec<i128> = hints.iter().map(|&c| dir * c).collect();
    oriented.sort_unstable();
    for c in oriented {
        if lo >= hi || c >= hi {
            break;
        }
        if c < lo {
            continue;
        }
        if !ask(smt, samples, &mut lo, &mut hi, c) {
            return None;
        }
    }
    // Then the largest value a model showed (few values end there), then bisection.
    let mut climbs = 0;
    while lo < hi {
        let mid = if climbs < 4 {
            climbs += 1;
            lo
        } else {
            lo + (hi - lo) / 2
        };
        if !ask(smt, samples, &mut lo, &mut hi, mid) {
            return None;
        }
    }
    (hi < umax).then(|| as_bits(dir * hi, width))
}

/// The integer constants of the paths' values of `v` and of their conditions, and their
/// neighbours, ascending: candidate bounds.
fn constants_of(facts: &[PathFact], v: usize) -> Vec<i128> {
    let mut out = vec![0i128];
    let mut add = |t: &Term| {
        if let Term::Int(bits, r @ Repr::Int { bits: w, .. }) = t {
            if *w <= 64 {
                let c = interval::int_value(*bits, *w, r.signed());
                out.extend([c - 1, c, c + 1]);
            }
        }
    };
    for f in facts {
        f.values[v].walk(&mut add);
        f.cond.walk(&mut add);
    }
    out.sort_unstable();
    out.dedup();
    out.truncate(64);
    out
}

/// `a == k * b + c`: `k` and `c` from two samples (else models) with different values of
/// `b`, then proved on every path (wrapping arithmetic of the type).
fn linear(
    smt: &mut Smt,
    reach: &Bool,
    samples: &mut Samples,
    a: usize,
    b: usize,
    repr: Repr,
) -> Option<Invariant> {
    let Repr::Int { bits, signed } = repr else {
        return None;
    };
    if bits > 64 {
        return None;
    }
    let (conds, values) = (samples.conds, samples.values);
    let pair = |m: &Model, p: usize| -> Option<(i128, i128)> {
        let x = interval::int_value(bits_of(&m.eval(&values[p][a], true)?)?, bits, signed);
        let y = interval::int_value(bits_of(&m.eval(&values[p][b], true)?)?, bits, signed);
        Some((x, y))
    };
    let point = |smt: &mut Smt, samples: &mut Samples, extra: Option<&Bool>| {
        let mut facts = vec![reach.clone()];
        facts.extend(extra.cloned());
        let (answer, model) = smt.check_model(&facts);
        if answer != Answer::Sat {
            return None;
        }
        let m = model?;
        let p = (0..conds.len()).find(|&p| model_true(&m, &conds[p]))?;
        let found = pair(&m, p);
        samples.add(Some(m));
        found
    };
    // The first sample's point, and one with another value of `b` among the samples.
    let points: Vec<(i128, i128)> = samples
        .models
        .iter()
        .flat_map(|(m, paths)| paths.iter().filter_map(|&p| pair(m, p)))
        .collect();
    let (a0, b0) = match points.first() {
        Some(&first) => first,
        None => point(smt, samples, None)?,
    };
    let (a1, b1) = match points.iter().find(|(_, y)| *y != b0) {
        Some(&other) => other,
        None => {
            let b0_bv = bv_const(as_bits(b0, bits), bits);
            let differs: Vec<Bool> = (0..conds.len())
                .map(|p| Bool::and(&[conds[p].clone(), values[p][b].eq(&b0_bv).not()]))
                .collect();
            point(smt, samples, Some(&or_all(&differs)))?
        }
    };
    let (da, db) = (a1 - a0, b1 - b0);
    if db == 0 || da % db != 0 {
        return None;
    }
    let k = da / db;
    let c = a0 - k * b0;
    // `a == b` and `a == c` are other templates' business.
    if k == 0 || (k == 1 && c == 0) {
        return None;
    }
    let kb = bv_const(as_bits(k, bits), bits);
    let cb = bv_const(as_bits(c, bits), bits);
    let bad = |p: usize| values[p][a].eq(values[p][b].bvmul(&kb).bvadd(&cb)).not();
    if samples.violate(&bad) {
        return None;
    }
    let cases: Vec<Bool> = (0..conds.len())
        .map(|p| Bool::and(&[conds[p].clone(), bad(p)]))
        .collect();
    let (answer, model) = smt.check_sample(&[or_all(&cases)]);
    samples.add(model);
    (answer == Answer::Unsat).then(|| Invariant::Linear {
        var: a,
        k: Term::Int(as_bits(k, bits), repr),
        other: b,
        c: Term::Int(as_bits(c, bits), repr),
    })
}

/// Whether `inv` holds on every path of `facts`: `Unsat` when it does (no path violates
/// it), `Sat` when some input makes a path violate it, `Unknown` past the budget.
/// `samples` are inputs to try first (models over the same input names, such as those
/// [`resolve`] returns for any version): one that violates `inv` answers without a query.
pub fn verify(smt: &mut Smt, facts: &[PathFact], inv: &Invariant, samples: &[Model]) -> Answer {
    let mut enc = Encoder::default();
    let mut cases = Vec::new();
    for f in facts {
        let values: Vec<Option<Term>> = f.values.iter().cloned().map(Some).collect();
        let Some(holds) = inv.formula(&mut enc, &values, &FxHashMap::default()) else {
            return Answer::Unknown;
        };
        // A path whose comparisons or intervals imply the invariant cannot violate it.
        let implied = inv
            .as_cond(&f.values)
            .is_some_and(|c| order::contradicts(&[&f.cond, &c.negate()]))
            || inv.within_intervals(&f.values, &f.cond);
        if !implied {
            cases.push(Bool::and(&[enc.cond(&f.cond), holds.not()]));
        }
    }
    if cases.is_empty() {
        return Answer::Unsat;
    }
    if samples
        .iter()
        .any(|m| cases.iter().any(|case| model_true(m, case)))
    {
        return Answer::Sat;
    }
    smt.check(&[or_all(&cases)])
}

/// Whether two terms are equal for every input (both over the same input names); a
/// sample (as for [`verify`]) that tells them apart answers without a query.
pub fn same_value(smt: &mut Smt, a: &Term, b: &Term, samples: &[Model]) -> bool {
    if a == b {
        return true;
    }
    if a.repr().bits() != b.repr().bits() {
        return false;
    }
    let mut enc = Encoder::default();
    let differ = enc.term(a).eq(enc.term(b)).not();
    if samples.iter().any(|m| model_true(m, &differ)) {
        return false;
    }
    smt.check(&[differ]) == Answer::Unsat
}
