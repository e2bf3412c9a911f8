//! Equivalence of straight-line code of two versions, for change-semantics-aware impact
//! (Gyori, Lahiri and Partush, 000 section 4): a statement whose new form provably does
//! what the old one did is no source of impact.
//!
//! Two *runs* (sequences of assignments at the same place of both versions: between the
//! same mapped statements) are equivalent when, started from any common state, they end
//! in the same state: every register either writes (registers are matched by name and
//! width) holds the same value, the memory is the same array, and the two runs stop the
//! program on the same states. A register that only one run writes and that the other
//! function does not have (a temporary of the new version) must be read nowhere else in
//! its function. Two expressions (the arguments of a call) are equivalent when they have
//! the same value and stop the program on the same states.
//!
//! "Stop on the same states": a division traps when its divisor is zero (or on
//! `INT_MIN / -1`), so the disjunctions of both runs' trap conditions must be equivalent;
//! a load faults at an address the solver knows nothing of, so every load of one run must
//! have a load of the same size at a provably equal address in the other. With those, a
//! run that faults or traps does so in both versions.
//!
//! A run may end with a branch (a changed condition): both runs must then end with one,
//! and take the same way from every common state.
//!
//! Calls split the runs into segments: the k-th call of one run must call the same
//! function (by key; through a pointer, the same address) as the k-th call of the other,
//! with equal arguments and equal memory, and the segments before it must stop on the
//! same states (a trap before a call that prints is not a trap after it). After the k-th
//! call, the memory and the result are fresh symbols shared by both runs: the callee did
//! the same thing to both.
//!
//! The common state is universally quantified: registers, the memory array and the
//! addresses of locals, globals (by key) and functions (by key) are free symbols shared
//! by both versions. Distinct objects may then have equal addresses, which only adds
//! states: a proof over all of them holds for the real ones. Encoding as in the rest of
//! the crate (`encode`): C on LP64 with `-fwrapv`, IEEE floats.

use rustc_hash::{FxHashMap, FxHashSet};
use z3::ast::{Array, Bool, BV};

use ripple_ir::{Expr, ExprKind, Function, IntKind, NodeId, NodeKind, Place, Program, Type, VarId};

use crate::encode::{self, bv_const, load, resize, store, Repr};
use crate::smt::{and_all, or_all, Answer, Budget, Smt};

/// Straight-line code of one version: `nodes` of `function`, in execution order.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub program: &'a Program,
    pub function: &'a Function,
    pub nodes: &'a [NodeId],
}

/// What the solver found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Same final state from every common initial state.
    Equivalent,
    /// A common state on which they differ exists.
    Different,
    /// Not decided: the budget ran out, or the code is outside what is compared (the
    /// reason).
    Unknown(&'static str),
}

/// Whether the two runs end in the same state from every common state. Runs that end
/// with a branch must also take the same way.
pub fn runs_equivalent(old: Run<'_>, new: Run<'_>, budget: Budget) -> Proof {
    let mut sides = [Side::new(old, "old"), Side::new(new, "new")];
    for side in &mut sides {
        if let Err(reason) = side.execute() {
            return Proof::Unknown(reason);
        }
    }
    let [a, b] = &sides;
    if a.calls.len() != b.calls.len() {
        return Proof::Unknown("the runs make different numbers of calls");
    }
    let mut goal = Vec::new();
    match (&a.branch, &b.branch) {
        (None, None) => {}
        (Some(x), Some(y)) => goal.push(x.eq(y)),
        _ => return Proof::Unknown("one run ends with a branch, the other not"),
    }
    for (x, y) in a.calls.iter().zip(&b.calls) {
        if x.callee != y.callee || x.args.len() != y.args.len() {
            return Proof::Different;
        }
        for (u, v) in x.args.iter().zip(&y.args) {
            if u.get_size() != v.get_size() {
                return Proof::Unknown("call arguments of different widths");
            }
            goal.push(u.eq(v));
        }
        goal.push(x.mem.eq(&y.mem));
    }
    // Registers written by either run, by name and width.
    let mut names: Vec<(String, u32)> = a.written.iter().chain(&b.written).cloned().collect();
    names.sort();
    names.dedup();
    for key in &names {
        let (in_a, in_b) = (a.var_of(key), b.var_of(key));
        if in_a.is_none() || in_b.is_none() {
            // A register of one version only (a temporary of the lowering, or a local of
            // one version) must be dead after its run.
            let dead = match (in_a, in_b) {
                (Some(v), None) => !a.read_outside(v),
                (None, Some(v)) => !b.read_outside(v),
                _ => false,
            };
            if dead {
                continue;
            }
            return Proof::Unknown("a register of one version is used after the change");
        }
        goal.push(a.value_of(key).eq(b.value_of(key)));
    }
    goal.push(a.mem.eq(&b.mem));
    for (x, y) in a.segments.iter().zip(&b.segments) {
        match same_stops(x, y) {
            Some(facts) => goal.extend(facts),
            None => return Proof::Different,
        }
    }
    decide(&and_all(&goal), budget)
}

/// Whether two expressions (of a call's arguments, say) have the same value and stop the
/// program on the same states, over a common state.
pub fn exprs_equivalent(
    old: (&Program, &Function, &Expr),
    new: (&Program, &Function, &Expr),
    budget: Budget,
) -> Proof {
    let mut a = Side::new(
        Run {
            program: old.0,
            function: old.1,
            nodes: &[],
        },
        "old",
    );
    let mut b = Side::new(
        Run {
            program: new.0,
            function: new.1,
            nodes: &[],
        },
        "new",
    );
    let (va, vb) = match (a.eval(old.2), b.eval(new.2)) {
        (Ok(va), Ok(vb)) => (va, vb),
        (Err(reason), _) | (_, Err(reason)) => return Proof::Unknown(reason),
    };
    if va.get_size() != vb.get_size() {
        return Proof::Unknown("the values differ in width");
    }
    let mut goal = vec![va.eq(&vb)];
    match same_stops(&a.segments[0], &b.segments[0]) {
        Some(facts) => goal.extend(facts),
        None => return Proof::Different,
    }
    decide(&and_all(&goal), budget)
}

/// Facts saying both sides stop the program on the same states (equal trap conditions,
/// matching loads); `None` when a load of one side has no load of its size in the other.
fn same_stops(a: &Segment, b: &Segment) -> Option<Vec<Bool>> {
    let mut facts = vec![or_all(&a.traps).eq(or_all(&b.traps))];
    for (x, y) in [(a, b), (b, a)] {
        for (addr, bytes) in &x.loads {
            let partners: Vec<Bool> = y
                .loads
                .iter()
                .filter(|(_, n)| n == bytes)
                .map(|(other, _)| addr.eq(other))
                .collect();
            if partners.is_empty() {
                return None;
            }
            facts.push(or_all(&partners));
        }
    }
    Some(facts)
}

/// Valid (its negation unsatisfiable) within the budget?
fn decide(goal: &Bool, budget: Budget) -> Proof {
    let mut smt = Smt::new(budget);
    match smt.check(&[goal.not()]) {
        Answer::Unsat => Proof::Equivalent,
        Answer::Sat => Proof::Different,
        Answer::Unknown => Proof::Unknown("the solver's budget ran out"),
    }
}

/// What may stop the program between two calls of a run: loads (address, bytes) and
/// trap conditions.
#[derive(Default)]
struct Segment {
    loads: Vec<(BV, u32)>,
    traps: Vec<Bool>,
}

/// A call of a run: the callee, the argument values, and the memory it starts from.
struct CallEvent {
    callee: String,
    args: Vec<BV>,
    mem: Array,
}

/// One version's run, executed symbolically.
struct Side<'a> {
    run: Run<'a>,
    /// `old` or `new`: names the temporaries of this side.
    tag: &'static str,
    regs: FxHashMap<(String, u32), BV>,
    mem: Array,
    written: FxHashSet<(String, u32)>,
    /// One more segment than calls.
    segments: Vec<Segment>,
    calls: Vec<CallEvent>,
    /// The condition of the branch that ends the run, if one does.
    branch: Option<Bool>,
}

impl<'a> Side<'a> {
    fn new(run: Run<'a>, tag: &'static str) -> Self {
        Side {
            run,
            tag,
            regs: FxHashMap::default(),
            mem: crate::smt::memory_const("straightline.mem"),
            written: FxHashSet::default(),
            segments: vec![Segment::default()],
            calls: Vec::new(),
            branch: None,
        }
    }

    fn segment(&mut self) -> &mut Segment {
        self.segments.last_mut().expect("a run has a segment")
    }

    fn repr(&self, ty: ripple_ir::TypeId) -> Repr {
        Repr::of(&self.run.program.types, ty)
    }

    /// The register local of this name and width, if exactly one.
    fn register(&self, name: &str, bits: u32) -> Option<VarId> {
        let mut found = None;
        for (v, local) in self.run.function.locals.iter_enumerated() {
            if local.name == name
                && local.storage == ripple_ir::Storage::Register
                && self.repr(local.ty).bits() == bits
            {
                if found.is_some() {
                    return None;
                }
                found = Some(v);
            }
        }
        found
    }

    /// The key of a register: its name and width, if its name is unique in the function;
    /// a temporary of the lowering is this side's own.
    fn key(&self, v: VarId) -> Result<(String, u32), &'static str> {
        let local = &self.run.function.locals[v];
        let bits = self.repr(local.ty).bits();
        if local.kind == ripple_ir::LocalKind::Temp || local.name.is_empty() {
            return Ok((format!("#{}.{}", self.tag, v.index()), bits));
        }
        match self.register(&local.name, bits) {
            Some(_) => Ok((local.name.clone(), bits)),
            None => Err("two registers of one function have the same name"),
        }
    }

    /// The register of this side a key stands for, if any.
    fn var_of(&self, key: &(String, u32)) -> Option<VarId> {
        match key.0.strip_prefix('#') {
            Some(rest) => {
                let (tag, index) = rest.split_once('.')?;
                if tag != self.tag {
                    return None;
                }
                Some(VarId(index.parse().ok()?))
            }
            None => self.register(&key.0, key.1),
        }
    }

    fn value_of(&self, key: &(String, u32)) -> BV {
        self.regs.get(key).cloned().unwrap_or_else(|| initial(key))
    }

    /// Whether a node outside the run reads register `v` (the exit reads the return
    /// variable).
    fn read_outside(&self, v: VarId) -> bool {
        let function = self.run.function;
        if function.ret_var == Some(v) {
            return true;
        }
        let mut regs = Vec::new();
        for (n, node) in function.nodes.iter_enumerated() {
            if self.run.nodes.contains(&n) {
                continue;
            }
            let mut exprs: Vec<&Expr> = Vec::new();
            let place_addr = |p: &'a Place| match p {
                Place::Local(_) => None,
                Place::Mem { addr, .. } | Place::Bits { addr, .. } => Some(addr),
            };
            match &node.kind {
                NodeKind::Assign { dst, value } => {
                    exprs.push(value);
                    exprs.extend(place_addr(dst));
                }
                NodeKind::Branch { cond } => exprs.push(cond),
                NodeKind::Call { dst, callee, args } => {
                    exprs.extend(args);
                    exprs.extend(dst.as_ref().and_then(place_addr));
                    if let ripple_ir::Callee::Indirect(target) = callee {
                        exprs.push(target);
                    }
                }
                NodeKind::Havoc { dst, .. } => exprs.extend(dst.as_ref().and_then(place_addr)),
                NodeKind::Entry | NodeKind::Exit | NodeKind::Skip => {}
            }
            for e in exprs {
                e.locals_read(&mut regs);
            }
        }
        regs.contains(&v)
    }

    fn execute(&mut self) -> Result<(), &'static str> {
        let run = self.run;
        for (i, &n) in run.nodes.iter().enumerate() {
            match &run.function.nodes[n].kind {
                NodeKind::Skip => {}
                NodeKind::Branch { cond } if i + 1 == run.nodes.len() => {
                    let v = self.eval(cond)?;
                    self.branch = Some(encode::truth(&v, self.repr(cond.ty)));
                }
                NodeKind::Assign { dst, value } => {
                    let v = self.eval(value)?;
                    self.write(dst, &v)?;
                }
                NodeKind::Call { dst, callee, args } => {
                    let mut values = Vec::with_capacity(args.len() + 1);
                    let name = match callee {
                        ripple_ir::Callee::Direct(g) => run.program.functions[*g].key.clone(),
                        ripple_ir::Callee::Indirect(target) => {
                            values.push(self.eval(target)?);
                            "(through a pointer)".to_string()
                        }
                        ripple_ir::Callee::Intrinsic(_) => {
                            return Err("the change calls an intrinsic");
                        }
                    };
                    for arg in args {
                        values.push(self.eval(arg)?);
                    }
                    let k = self.calls.len();
                    self.calls.push(CallEvent {
                        callee: name,
                        args: values,
                        mem: self.mem.clone(),
                    });
                    self.segments.push(Segment::default());
                    self.mem = crate::smt::memory_const(&format!("straightline.mem.call{k}"));
                    if let Some(place) = dst {
                        let bits = match place {
                            Place::Local(v) => self.repr(run.function.locals[*v].ty).bits(),
                            Place::Mem { ty, .. } => self.repr(*ty).bits(),
                            Place::Bits { width, .. } => *width,
                        };
                        let result = BV::new_const(format!("straightline.ret.call{k}"), bits);
                        self.write(place, &result)?;
                    }
                }
                _ => {
                    return Err("the change holds more than assignments, calls and a final branch")
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, place: &Place, value: &BV) -> Result<(), &'static str> {
        match place {
            Place::Local(v) => {
                let local = &self.run.function.locals[*v];
                if local.storage != ripple_ir::Storage::Register {
                    return Err("a local in memory is written as a register");
                }
                let key = self.key(*v)?;
                let value = resize(value, key.1, false);
                self.written.insert(key.clone());
                self.regs.insert(key, value);
            }
            Place::Mem { addr, ty } => {
                let a = self.eval(addr)?;
                let bits = self.repr(*ty).bits();
                self.mem = store(&self.mem, &a, &resize(value, bits, false));
            }
            Place::Bits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(addr)?;
                let bytes = self.repr(*unit).bytes();
                // A bit-field store reads its unit first.
                self.segment().loads.push((a.clone(), bytes));
                let old = load(&self.mem, &a, bytes);
                let bits = old.get_size();
                let field = resize(value, *width, false);
                let mask = ((1u128 << width) - 1) << bit_offset;
                let cleared = old.bvand(bv_const(!mask, bits));
                let shifted =
                    resize(&field, bits, false).bvshl(BV::from_u64(u64::from(*bit_offset), bits));
                self.mem = store(&self.mem, &a, &cleared.bvor(shifted));
            }
        }
        Ok(())
    }

    fn eval(&mut self, expr: &Expr) -> Result<BV, &'static str> {
        let program = self.run.program;
        let types = &program.types;
        let repr = Repr::of(types, expr.ty);
        Ok(match &expr.kind {
            ExprKind::Int(v) => bv_const(*v, repr.bits()),
            ExprKind::Float(f) => match repr {
                Repr::Float { bits: 32 } => BV::from_u64(u64::from((*f as f32).to_bits()), 32),
                _ => BV::from_u64(f.to_bits(), 64),
            },
            ExprKind::Local(v) => {
                if self.run.function.locals[*v].storage != ripple_ir::Storage::Register {
                    return Err("a local in memory is read as a register");
                }
                let key = self.key(*v)?;
                let value = self.value_of(&key);
                resize(&value, repr.bits(), false)
            }
            ExprKind::AddrOfLocal(v) => {
                let local = &self.run.function.locals[*v];
                address(&format!("local.{}", local.name))
            }
            ExprKind::AddrOfGlobal(g) => address(&format!("global.{}", program.globals[*g].key)),
            ExprKind::AddrOfFunc(f) => address(&format!("fn.{}", program.functions[*f].key)),
            ExprKind::Load(addr) => {
                let a = self.eval(addr)?;
                self.segment().loads.push((a.clone(), repr.bytes()));
                load(&self.mem, &a, repr.bytes())
            }
            ExprKind::LoadBits {
                addr,
                unit,
                bit_offset,
                width,
            } => {
                let a = self.eval(addr)?;
                let unit_repr = Repr::of(types, *unit);
                self.segment().loads.push((a.clone(), unit_repr.bytes()));
                let raw = load(&self.mem, &a, unit_repr.bytes());
                let field = raw.extract(bit_offset + width - 1, *bit_offset);
                resize(&field, repr.bits(), types.is_signed(expr.ty))
            }
            ExprKind::Unary(op, operand) => {
                let v = self.eval(operand)?;
                encode::unary(*op, &v, Repr::of(types, operand.ty), repr.bits())
            }
            ExprKind::Binary(op, lhs, rhs) => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                let lrepr = Repr::of(types, lhs.ty);
                let rrepr = Repr::of(types, rhs.ty);
                if matches!(op, ripple_ir::BinOp::Div | ripple_ir::BinOp::Rem)
                    && matches!(lrepr, Repr::Int { .. })
                {
                    let bits = a.get_size();
                    let divisor = resize(&b, bits, false);
                    let mut trap = divisor.eq(BV::from_u64(0, bits));
                    if let Repr::Int {
                        signed: true,
                        bits: w,
                    } = lrepr
                    {
                        if w >= 32 {
                            let min = bv_const(1u128 << (w - 1), w);
                            let minus_one = bv_const(u128::MAX, w);
                            trap =
                                Bool::or(&[trap, Bool::and(&[a.eq(&min), divisor.eq(&minus_one)])]);
                        }
                    }
                    self.segment().traps.push(trap);
                }
                encode::binary(*op, &a, &b, lrepr, rrepr, repr)
            }
            ExprKind::Cast(operand) => {
                let v = self.eval(operand)?;
                let from = Repr::of(types, operand.ty);
                if matches!(types.get(expr.ty), Type::Int(IntKind::Bool)) {
                    encode::to_bool(&v, from)
                } else {
                    encode::cast(&v, from, repr)
                }
            }
        })
    }
}

/// The initial value of a register, shared by both versions.
fn initial(key: &(String, u32)) -> BV {
    BV::new_const(format!("straightline.reg.{}.{}", key.0, key.1), key.1)
}

/// The address of a named object, shared by both versions.
fn address(name: &str) -> BV {
    BV::new_const(format!("straightline.addr.{name}"), 64)
}
