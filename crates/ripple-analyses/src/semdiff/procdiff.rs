//! CONSTPROCDIFFSUM (001 Algorithm 2, section 5.2): the difference summary of one pair
//! from its two procedure summaries, pairing every path of the old version with every
//! path of the new one, with the refinement requests of section 6.2 for differences that
//! go through unexplored callee paths.

use super::*;
pub(super) fn same_formula(engine: &mut Engine, a: &Bool, b: &Bool) -> bool {
    if a.ast_eq(b) {
        return true;
    }
    engine.smt.check(&[a.eq(b).not()]) == Answer::Unsat
}

/// Final states equal: status, exit code, return value, memory and I/O. Parts that are
/// the same term in both versions are left out, so that equal computations need no
/// solver work at all (the formula is then `true`). Return values of integer types of
/// two widths or signedness (`bool` in one version, `int` in the other) are equal when
/// they are the same number: each is extended by its own signedness (`signed`: old,
/// new; `None` for a return type that is not an integer, whose values of two widths
/// always differ).
pub(super) fn outcomes_equal(a: &Outcome, b: &Outcome, signed: [Option<bool>; 2]) -> Bool {
    let same = |x: &dyn Fn() -> Bool, equal: bool| -> Option<Bool> { (!equal).then(x) };
    let returned = a.status.eq(BV::from_u64(0, 8));
    let exited = a.status.eq(BV::from_u64(1, 8));
    let mut parts: Vec<Bool> = Vec::new();
    parts.extend(same(&|| a.status.eq(&b.status), a.status.ast_eq(&b.status)));
    parts.extend(same(&|| a.io.eq(&b.io), a.io.ast_eq(&b.io)));
    if let Some(code) = same(&|| a.code.eq(&b.code), a.code.ast_eq(&b.code)) {
        parts.push(exited.implies(code));
    }
    let mut on_return: Vec<Bool> = Vec::new();
    on_return.extend(same(&|| a.mem.eq(&b.mem), a.mem.ast_eq(&b.mem)));
    match (&a.ret, &b.ret) {
        // Of one width and one signedness (or neither an integer): the same bits.
        (Some(x), Some(y)) if x.get_size() == y.get_size() && signed[0] == signed[1] => {
            on_return.extend(same(&|| x.eq(y), x.ast_eq(y)));
        }
        // Integers of two widths or signedness (`unsigned` to `int`: the same bits are
        // 4294967295 and -1 to the callers), one bit wider than either. An integer and
        // another type (`double`, a pointer) are other values whatever their bits.
        (Some(x), Some(y)) => match signed {
            [Some(sx), Some(sy)] => {
                let width = x.get_size().max(y.get_size()) + u32::from(sx != sy);
                let extend = |v: &BV, signed: bool| {
                    let more = width - v.get_size();
                    if signed {
                        v.sign_ext(more)
                    } else {
                        v.zero_ext(more)
                    }
                };
                on_return.push(extend(x, sx).eq(extend(y, sy)));
            }
            _ => on_return.push(Bool::from_bool(false)),
        },
        _ => {}
    }
    if !on_return.is_empty() {
        parts.push(returned.implies(and_all(&on_return)));
    }
    and_all(&parts)
}

/// Assumptions on the inputs of a pair: pointer parameters are null (pointing to an
/// object of size 0, so that every access through them traps) or point outside the
/// frames, into objects that hold at least one element and end before the frames;
/// constant globals hold their initial values.
pub(super) fn input_assumptions(engine: &Engine, side: Side, func: FuncId) -> Vec<Bool> {
    let program = engine.programs[side.index()];
    let function = &program.functions[func];
    let inputs = engine.inputs(side, func);
    let mut facts = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        if let Type::Pointer(pointee) = program.types.get(function.locals[*var].ty) {
            let frames = BV::from_u64(FRAME_BASE, 64);
            facts.push(inputs.params[i].bvult(&frames));
            let size = engine.object_size(side, func, i);
            facts.push(size.bvule(frames.bvsub(&inputs.params[i])));
            let element = program.types.size_of(*pointee);
            let zero = BV::from_u64(0, 64);
            let null = inputs.params[i].eq(&zero);
            facts.push(Bool::or(&[
                Bool::and(&[null.clone(), size.eq(&zero)]),
                Bool::and(&[null.not(), size.bvuge(BV::from_u64(element, 64))]),
            ]));
        }
    }
    facts.push(engine.constant_memory(side, &[func], &inputs.mem));
    facts
}

pub(super) struct DiffResult {
    pub(super) equal: Bool,
    pub(super) differs: Bool,
    pub(super) possible: Bool,
    pub(super) termination: Bool,
    pub(super) covered: bool,
    pub(super) witness_conditions: Vec<(Bool, &'static str)>,
    pub(super) known: KnownAnswers,
}

/// Algorithm 2 over the current summaries. Also returns the refinement requests
/// (callee, version, precondition) for differences whose models use abstraction.
pub(super) fn const_proc_diff_sum(
    engine: &mut Engine,
    state: &PairState,
    assume: &Bool,
) -> (DiffResult, Vec<(Side, FuncId, Bool)>) {
    let s1 = engine
        .summary(Side::Old, state.old)
        .cloned()
        .expect("explored");
    let s2 = engine
        .summary(Side::New, state.new)
        .cloned()
        .expect("explored");
    let signed = [(Side::Old, state.old), (Side::New, state.new)].map(|(side, func)| {
        let program = engine.programs[side.index()];
        let ty = program.functions[func].return_type(&program.types);
        program
            .types
            .is_integer(ty)
            .then(|| program.types.is_signed(ty))
    });
    let mut equal = Vec::new();
    let mut differs = Vec::new();
    let mut possible = Vec::new();
    let mut witness_conditions = Vec::new();
    let mut refine = Vec::new();
    // A part of `possible` whose query was satisfiable (not merely undecided).
    let mut possible_sat = false;
    engine.smt.push();
    engine.smt.assert(assume);
    for p1 in &s1.paths {
        for p2 in &s2.paths {
            let both = Bool::and(&[p1.reach.clone(), p2.reach.clone()]);
            // With costly operators as uninterpreted functions first: unsatisfiable
            // there is unsatisfiable (ripple_symex::smt::abstract_costly).
            let cheap = |engine: &Engine, f: &Bool| {
                if engine.smt.out_of_time() {
                    None
                } else {
                    ripple_symex::smt::abstract_costly(f)
                }
            };
            let cheap_both = cheap(engine, &both);
            if engine
                .smt
                .check(std::slice::from_ref(cheap_both.as_ref().unwrap_or(&both)))
                == Answer::Unsat
            {
                continue;
            }
            let same = outcomes_equal(&p1.out, &p2.out, signed);
            let diff = Bool::and(&[both.clone(), same.not()]);
            let cheap_unsat = cheap(engine, &diff)
                .is_some_and(|cheap| engine.smt.check(&[cheap]) == Answer::Unsat);
            let (answer, model) = if cheap_unsat {
                (Answer::Unsat, None)
            } else {
                engine.smt.check_model(std::slice::from_ref(&diff))
            };
            if answer != Answer::Unsat {
                let abstracted = Bool::or(&[p1.abstracted.clone(), p2.abstracted.clone()]);
                let uses_abstraction = match &model {
                    Some(m) => model_bool(m, &abstracted).unwrap_or(true),
                    None => true,
                };
                if uses_abstraction {
                    possible_sat |= answer == Answer::Sat;
                    possible.push(diff.clone());
                    if let Some(m) = &model {
                        for call in p1.calls.iter().chain(&p2.calls) {
                            if model_bool(m, &call.unexplored).unwrap_or(false) {
                                let inputs = engine.inputs(call.side, call.callee);
                                let mut pre = vec![
                                    diff.clone(),
                                    call.unexplored.clone(),
                                    inputs.mem.eq(&call.mem),
                                    inputs.io.eq(&call.io),
                                ];
                                for (p, a) in inputs.params.iter().zip(&call.args) {
                                    pre.push(p.eq(a));
                                }
                                refine.push((call.side, call.callee, and_all(&pre)));
                            }
                        }
                    }
                } else {
                    let exact = Bool::and(&[diff.clone(), abstracted.not()]);
                    differs.push(exact.clone());
                    witness_conditions.push((exact, "output"));
                }
            }
            let eq = Bool::and(&[both, same]);
            // A path pair that cannot differ is equal wherever it is reached. The check
            // only keeps `equal` small: after an undecided difference query it would be as
            // hard, so the part is kept unchecked (an unsatisfiable part adds nothing).
            if cheap_unsat
                || answer == Answer::Unknown
                || engine.smt.check(std::slice::from_ref(&eq)) != Answer::Unsat
            {
                equal.push(eq);
            }
        }
    }
    // Termination: one version proved divergent, the other terminating.
    let d1 = or_all(&s1.diverge);
    let d2 = or_all(&s2.diverge);
    let da1 = or_all(&s1.diverge_abstract);
    let da2 = or_all(&s2.diverge_abstract);
    let r1 = or_all(&s1.paths.iter().map(|p| p.reach.clone()).collect::<Vec<_>>());
    let r2 = or_all(&s2.paths.iter().map(|p| p.reach.clone()).collect::<Vec<_>>());
    let exact = |r: &Vec<ripple_symex::PathSummary>| {
        or_all(
            &r.iter()
                .map(|p| Bool::and(&[p.reach.clone(), p.abstracted.not()]))
                .collect::<Vec<_>>(),
        )
    };
    let (e1, e2) = (exact(&s1.paths), exact(&s2.paths));
    let termination = or_all(&[and_all(&[d1.clone(), e2]), and_all(&[d2.clone(), e1])]);
    let mut termination_parts = Vec::new();
    let termination_answer = engine.smt.check(std::slice::from_ref(&termination));
    if termination_answer != Answer::Unsat {
        termination_parts.push(termination.clone());
        witness_conditions.push((termination.clone(), "termination"));
    }
    let any_d1 = or_all(&[d1.clone(), da1.clone()]);
    let any_d2 = or_all(&[d2.clone(), da2.clone()]);
    let maybe_termination = and_all(&[
        or_all(&[
            and_all(&[any_d1.clone(), any_d2.not()]),
            and_all(&[any_d2.clone(), any_d1.not()]),
        ]),
        termination.not(),
    ]);
    let maybe_answer = engine.smt.check(std::slice::from_ref(&maybe_termination));
    if maybe_answer != Answer::Unsat {
        possible_sat |= maybe_answer == Answer::Sat;
        possible.push(maybe_termination);
    }
    let both_diverge = and_all(&[any_d1.clone(), any_d2.clone()]);
    if engine.smt.check(std::slice::from_ref(&both_diverge)) != Answer::Unsat {
        equal.push(both_diverge);
    }
    // Coverage: the uncovered parts are empty.
    let uncovered1 = or_all(&[r1, any_d1]).not();
    let uncovered2 = or_all(&[r2, any_d2]).not();
    let covered = !s1.cut && !s2.cut
        || (engine.smt.check(&[uncovered1]) == Answer::Unsat
            && engine.smt.check(&[uncovered2]) == Answer::Unsat);
    engine.smt.pop();
    // Every part of `differs` had a model (and so has their disjunction); an empty
    // disjunction is false.
    let answer_of = |parts: usize, sat: bool| match (parts, sat) {
        (0, _) => Answer::Unsat,
        (_, true) => Answer::Sat,
        _ => Answer::Unknown,
    };
    let known = KnownAnswers {
        differs: Some(answer_of(differs.len(), true)),
        possible: Some(answer_of(possible.len(), possible_sat)),
        termination: Some(answer_of(
            termination_parts.len(),
            termination_answer == Answer::Sat,
        )),
    };
    let result = DiffResult {
        known,
        equal: or_all(&equal),
        differs: or_all(&differs),
        possible: or_all(&possible),
        termination: or_all(&termination_parts),
        covered,
        witness_conditions,
    };
    (result, refine)
}
