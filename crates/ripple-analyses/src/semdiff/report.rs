//! The report of one pair: the verdict from the difference summary, its conditions as
//! C-like text over the pair's inputs, the witnesses and the notes on what was not
//! decided.

use super::*;
pub(super) fn report_pair(
    engine: &mut Engine,
    state: &PairState,
    index: usize,
    config: &SemdiffConfig,
    out_of_budget: bool,
) -> PairReport {
    // The caller has set this report's share of the time left as the phase deadline.
    let name = engine.programs[0].functions[state.old].name.clone();
    let names = names_for(engine, state.old);
    let paired = engine.pair_index(Side::Old, state.old) == Some(index);
    let inputs = engine.inputs(Side::Old, state.old);
    // With no solver time left, or for a pair never analysed (whose formulas are
    // constants), no query reads the assumptions (and fewer assumptions only weaken
    // what is proved): they are not built.
    let assumed = paired && state.analysed > 0 && !engine.smt.out_of_time();
    let mut assumptions = if assumed {
        input_assumptions(engine, Side::Old, state.old)
    } else {
        Vec::new()
    };
    if assumed {
        assumptions.extend(input_assumptions(engine, Side::New, state.new));
    }
    let assume = and_all(&assumptions);
    engine.smt.push();
    engine.smt.assert(&assume);
    // A query the solver could not decide in time counts as "maybe": it blocks an
    // "equivalent" verdict, but only a satisfiable difference (or a confirmed witness)
    // makes one "different".
    // Answers found while computing the formulas are not asked again.
    let answer = |engine: &mut Engine, known: Option<Answer>, f: &Bool| {
        known.unwrap_or_else(|| engine.smt.check(std::slice::from_ref(f)))
    };
    let diff_answer = answer(engine, state.known.differs, &state.differs);
    let possible_answer = answer(engine, state.known.possible, &state.possible);
    let termination_answer = answer(engine, state.known.termination, &state.termination);
    engine.smt.pop();
    let has_diff = diff_answer != Answer::Unsat;
    // Inputs that satisfy no assumption would make every difference query hold
    // vacuously: an "equivalent" resting on them needs some input that satisfies them
    // all (one the solver could not find in its budget proves nothing either).
    let vacuous = assumed
        && !has_diff
        && possible_answer == Answer::Unsat
        && termination_answer == Answer::Unsat
        && engine.smt.check(std::slice::from_ref(&assume)) != Answer::Sat;
    let has_possible = possible_answer != Answer::Unsat || vacuous;
    let has_termination = termination_answer != Answer::Unsat;
    // Whether a difference the solver found (in the outputs, or in whether the versions
    // end) has the property `rests_on`.
    let through = |rests_on: &mut dyn FnMut(&Bool) -> bool| {
        (diff_answer == Answer::Sat && rests_on(&state.differs))
            || (termination_answer == Answer::Sat && rests_on(&state.termination))
    };
    // A difference through a call by pointer that may reach a function that differs
    // between the versions (each version's own unknown function there) is possible, not
    // proved: those two functions may well agree where this one calls them. Only a run
    // confirms it.
    let through_differing = through(&mut |f| {
        ripple_symex::smt::mentions_function(f, &["ext.(indirect).old.", "ext.(indirect).new."])
    });
    // Likewise a difference through a construct the analysis does not model (inline
    // assembly, code that could not be read: a havoc): each version's havoc is an
    // unknown of its own, though the construct may compute the same in both.
    let through_unmodelled = through(&mut |f| ripple_symex::smt::mentions_function(f, &["havoc!"]));
    // Likewise a difference that rests on a library function the analysis leaves
    // uninterpreted (`printf`, `memset`, ...) applied to arguments that differ between
    // the versions: any function may be the one the library has, and the real one may
    // give the same results for both (`%d` and `%i` print alike).
    let through_uninterpreted = through(&mut |f| rests_on_uninterpreted(engine, &assume, f));
    let proved_diff = !through_differing
        && !through_unmodelled
        && !through_uninterpreted
        && (diff_answer == Answer::Sat || termination_answer == Answer::Sat);
    // Witnesses: the concrete search's (confirmed), then models of the difference
    // conditions; a concrete output difference makes the solver's output witnesses
    // unnecessary.
    let mut witnesses = Vec::new();
    let provable_equivalent = paired
        && state.covered
        && !has_diff
        && !has_possible
        && !has_termination
        && state.concrete.is_none()
        && !out_of_budget_for(state);
    if !provable_equivalent {
        witnesses.extend(state.concrete.clone());
    }
    let concrete_found = !witnesses.is_empty();
    let mut conditions: Vec<(Bool, &'static str)> = state.witnesses_models.clone();
    if has_possible {
        conditions.push((state.possible.clone(), "output"));
    }
    if concrete_found {
        conditions.retain(|(_, kind)| *kind != "output");
    }
    for (condition, kind) in conditions.iter().take(config.max_witnesses) {
        if let Some(w) = witness(engine, state, condition, &assume, kind, config) {
            witnesses.push(w);
        }
    }
    // Confirmed witnesses free of undefined behaviour first (zlib's `strm->state`: a
    // real state before a made-up address in the null page), else in the order found.
    witnesses.sort_by_key(|w| {
        (
            !w.confirmed,
            w.labels.iter().any(|l| l != "NaN or signed zero"),
        )
    });
    let confirmed = witnesses.iter().any(|w| w.confirmed);
    // Modulo undefined behaviour, a difference the solver proves under wrapping
    // semantics may be one only through it: a witness free of it must show it.
    let verdict = if provable_equivalent {
        Verdict::Equivalent
    } else if confirmed || (proved_diff && !config.assume_no_ub) {
        Verdict::Different
    } else {
        Verdict::Unknown
    };
    let mut notes = state.notes.clone();
    if vacuous {
        notes.push(
            "no input was found that satisfies every assumption on the inputs (they may \
             contradict each other): nothing is proved"
                .into(),
        );
    }
    if through_differing && !confirmed {
        notes.push(
            "the difference found goes through calls by pointer that may reach functions \
             that differ between the versions, and no run confirmed it"
                .into(),
        );
    }
    if through_unmodelled && !confirmed {
        notes.push(
            "the difference found goes through constructs the analysis does not model \
             (inline assembly, code that could not be read), whose results are unknowns of \
             each version's own, and no run confirmed it"
                .into(),
        );
    }
    if through_uninterpreted && !through_differing && !through_unmodelled && !confirmed {
        notes.push(
            "possible difference: it rests on library functions the analysis does not \
             interpret (each version calls them with other arguments, on which they may \
             well agree), and no run confirmed it"
                .into(),
        );
    }
    if config.assume_no_ub && proved_diff && !confirmed {
        notes.push(
            "the versions differ where the analysis gives undefined behaviour a meaning \
             (signed arithmetic wraps; a division by zero or a reached \
             `__builtin_unreachable` traps), but no witness free of undefined behaviour was \
             found (--assume no-ub)"
                .into(),
        );
    }
    if verdict == Verdict::Equivalent {
        notes.extend(super::undefined::overflow_note(
            engine, state, &assume, config,
        ));
    }
    let undefined = |w: &&Witness| w.labels.iter().any(|l| l != "NaN or signed zero");
    // The witnesses that show the difference: the confirmed ones, else those whose runs
    // do not agree (the reports fold the others away).
    let shown: Vec<&Witness> = if confirmed {
        witnesses.iter().filter(|w| w.confirmed).collect()
    } else {
        witnesses
            .iter()
            .filter(|w| {
                !matches!(
                    w.unconfirmed,
                    Some(Unconfirmed::SameOutcome | Unconfirmed::CompiledAgree)
                )
            })
            .collect()
    };
    if verdict == Verdict::Different
        && !config.assume_no_ub
        && !shown.is_empty()
        && shown.iter().all(undefined)
    {
        notes.push(
            "the difference shown goes through undefined behaviour (see the witnesses' \
             labels); --assume no-ub answers modulo it"
                .into(),
        );
    }
    if verdict == Verdict::Different && termination_answer == Answer::Unknown {
        notes.push(
            "whether both versions end on the same inputs was not decided within the budget".into(),
        );
    }
    if verdict == Verdict::Unknown {
        if !state.covered {
            notes.push(format!(
                "summaries do not cover every input (unwinding bound {} or budget)",
                config.unwind
            ));
        }
        if has_possible {
            notes.push(if config.refine {
                "possible differences through paths the summaries leave abstract (of callees \
                 or loops) remain after refinement"
                    .into()
            } else {
                "possible differences through paths the summaries leave abstract (of callees \
                 or loops; no refinement)"
                    .into()
            });
        }
        if diff_answer == Answer::Unknown || termination_answer == Answer::Unknown {
            notes.push(
                "the solver could not decide whether the versions differ within the budget".into(),
            );
        }
        if out_of_budget {
            notes.push("budget exhausted".into());
        }
    }
    // Inputs on which the runs agree show nothing (the text report folds them).
    let showing = witnesses.iter().any(|w| {
        !matches!(
            w.unconfirmed,
            Some(Unconfirmed::SameOutcome | Unconfirmed::CompiledAgree)
        )
    });
    let too_large = if !showing {
        "(a condition too large to print)"
    } else {
        "(a condition too large to print; see the witnesses)"
    };
    let text = |f: &Bool| -> Option<String> {
        let too_big = ripple_symex::smt::tree_size_exceeds(f, 4000);
        if too_big {
            Some(too_large.to_string())
        } else {
            // Memories compared whole (`store(...) == store(...)`) read as the bytes
            // they differ in, which the simplifier can then often decide.
            let simplified = ripple_symex::smt::expand_memory_equalities(&f.simplify()).simplify();
            match simplified.as_bool() {
                Some(false) => None,
                _ => Some(render(&simplified.to_string(), &names)),
            }
        }
    };
    // Conditions that pin one input to a single value read best as that equation. Only
    // the text depends on it, so it gets a third of the report's time left.
    let report_end = engine.smt.phase_end();
    engine.smt.set_phase_work(engine.smt.phase_work_left() / 3);
    let views = input_views(engine, state.old);
    let program = engine.programs[0];
    let whole = whole_objects(engine, state.old);
    let mut pinned_values: Vec<(String, String, BV, BV)> = Vec::new();
    engine.smt.push();
    engine.smt.assert(&assume);
    let pinned = |engine: &mut Engine,
                  f: &Bool,
                  out: &mut Vec<(String, String, BV, BV)>|
     -> Option<String> {
        let (answer, model) = engine.smt.check_model(std::slice::from_ref(f));
        let model = model.filter(|_| answer == Answer::Sat)?;
        for (name, term, ty) in &views {
            let value = model.eval(term, true)?;
            // `name == value` is the condition only when it is both implied by `f`
            // and enough for it (`c == 48` is implied by `c == 48 && n > 57`), where
            // the pointer parameters point to whole objects (`*x == 4` says so).
            if engine.smt.check(&[f.clone(), term.eq(&value).not()]) == Answer::Unsat
                && engine.smt.check(&[term.eq(&value), f.not(), whole.clone()]) == Answer::Unsat
            {
                let bits = model_bits(&model, &value)?;
                let shown = value_text(program, *ty, bits);
                out.push((name.clone(), shown.clone(), term.clone(), value));
                return Some(format!("{name} == {shown}"));
            }
        }
        None
    };
    let differs_pinned = if has_diff {
        pinned(engine, &state.differs, &mut pinned_values)
    } else {
        None
    };
    let termination_pinned = if has_termination {
        pinned(engine, &state.termination, &mut pinned_values)
    } else {
        None
    };
    let equal_pinned = if pinned_values.is_empty() || !state.covered || has_possible {
        None
    } else {
        let name = &pinned_values[0].0;
        let same_view = pinned_values.iter().all(|p| &p.0 == name);
        let outside: Vec<Bool> = pinned_values.iter().map(|p| p.2.eq(&p.3).not()).collect();
        let outside = and_all(&outside);
        let shown = pinned_values
            .iter()
            .map(|p| format!("{} != {}", p.0, p.1))
            .collect::<Vec<_>>()
            .join(" && ");
        // Null pointer parameters make both versions trap alike: equal there too.
        let (null_names, null_terms) = null_parameters(engine, state.old);
        let null = Bool::or(&null_terms.iter().collect::<Vec<_>>());
        let mut exact = |condition: &Bool| {
            engine.smt.check(&[condition.clone(), state.equal.not()]) == Answer::Unsat
                && engine.smt.check(&[state.equal.clone(), condition.not()]) == Answer::Unsat
        };
        if !same_view {
            None
        } else if exact(&outside) {
            Some(shown)
        } else if !null_terms.is_empty() && exact(&Bool::or(&[null, outside])) {
            Some(format!("{} || {shown}", null_names.join(" || ")))
        } else {
            None
        }
    };
    engine.smt.pop();
    engine.smt.set_phase_end(report_end);
    PairReport {
        name,
        old: Some(state.old),
        new: Some(state.new),
        modified: state.status != FunctionStatus::Unchanged,
        verdict,
        differs_when: if has_diff {
            differs_pinned.or_else(|| text(&state.differs))
        } else {
            None
        },
        // Proved equivalent, the condition holds of every input within the assumptions:
        // the formula the summary built (often long) says no more than `true`.
        equal_when: if verdict == Verdict::Equivalent {
            Some("true".into())
        } else {
            equal_pinned.or_else(|| text(&state.equal))
        },
        // An undecided termination query is a claim only where the verdict says "may".
        non_termination_differs_when: if has_termination
            && (termination_answer == Answer::Sat || verdict == Verdict::Unknown)
        {
            termination_pinned.or_else(|| text(&state.termination))
        } else {
            None
        },
        full: state.covered && !has_possible,
        witnesses,
        notes,
        unread: None,
        paths: state.paths,
        lines_only: false,
        unmodelled: through_unmodelled,
        formulas: Some(PairFormulas {
            differs: state.differs.clone(),
            equal: state.equal.clone(),
            termination_differs: state.termination.clone(),
            assumptions: assume.clone(),
            params: inputs.params,
            mem: inputs.mem,
        }),
    }
}

/// Whether the satisfiable difference condition `f` holds only for some
/// interpretations of the uninterpreted functions it applies (library functions,
/// without a model of their own): on the inputs of a model of `f`, the solver finds
/// an interpretation under which the versions agree. A difference that holds on those
/// inputs whatever the functions compute is proved.
fn rests_on_uninterpreted(engine: &mut Engine, assume: &Bool, f: &Bool) -> bool {
    if !ripple_symex::smt::mentions_function(f, &["ext.", "libm.", "libc."]) {
        return false;
    }
    engine.smt.push();
    engine.smt.assert(assume);
    let (answer, model) = engine.smt.check_model(std::slice::from_ref(f));
    let robust = match model.filter(|_| answer == Answer::Sat) {
        Some(model) => {
            let mut query: Vec<Bool> = ripple_symex::smt::input_values(f)
                .iter()
                .filter_map(|input| Some(input.eq(model.eval(input, true)?)))
                .collect();
            query.push(f.not());
            engine.smt.check(&query) == Answer::Unsat
        }
        None => false,
    };
    engine.smt.pop();
    !robust
}

/// The pointer parameters of `func` (as `p == NULL`) and their being null.
fn null_parameters(engine: &Engine, func: FuncId) -> (Vec<String>, Vec<Bool>) {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    function
        .params
        .iter()
        .enumerate()
        .filter(|(_, var)| {
            matches!(
                program.types.get(function.locals[**var].ty),
                Type::Pointer(_)
            )
        })
        .map(|(i, var)| {
            (
                format!("{} == NULL", function.locals[*var].name),
                inputs.params[i].eq(BV::from_u64(0, 64)),
            )
        })
        .unzip()
}

/// That each pointer parameter of `func` points to a whole object of its pointee type.
fn whole_objects(engine: &Engine, func: FuncId) -> Bool {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let sizes: Vec<Bool> = function
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, var)| {
            let pointee = program.types.pointee(function.locals[*var].ty)?;
            let size = program.types.size_of(pointee);
            Some(Bool::and(&[
                inputs.params[i].eq(BV::from_u64(0, 64)).not(),
                engine
                    .object_size(Side::Old, func, i)
                    .bvuge(BV::from_u64(size, 64)),
            ]))
        })
        .collect();
    Bool::and(&sizes.iter().collect::<Vec<_>>())
}

/// Scalar views of a pair's inputs: parameters and the scalar a pointer parameter
/// points to, with their C names and types (to show a model's bits as C values).
pub(super) fn input_views(engine: &Engine, func: FuncId) -> Vec<(String, BV, ripple_ir::TypeId)> {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let mut views = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        let local = &function.locals[*var];
        match program.types.get(local.ty) {
            Type::Pointer(pointee) if program.types.is_scalar(*pointee) => {
                let size = program.types.size_of(*pointee) as u32;
                let term = ripple_symex_load(&inputs.mem, &inputs.params[i], size);
                views.push((format!("*{}", local.name), term, *pointee));
            }
            Type::Int(_) | Type::Float(_) => {
                views.push((local.name.clone(), inputs.params[i].clone(), local.ty));
            }
            _ => {}
        }
    }
    views
}

pub(super) fn ripple_symex_load(mem: &ripple_symex::z3::ast::Array, addr: &BV, bytes: u32) -> BV {
    (0..u64::from(bytes.max(1)))
        .map(|i| {
            mem.select(&addr.bvadd(BV::from_u64(i, 64)))
                .as_bv()
                .expect("byte")
        })
        .reduce(|low, high| high.concat(&low))
        .expect("one byte")
}

pub(super) fn out_of_budget_for(state: &PairState) -> bool {
    state
        .notes
        .iter()
        .any(|n| n.contains("budget") || n.contains("limit"))
}

/// C names for the input symbols of a pair.
pub(super) fn names_for(engine: &Engine, func: FuncId) -> Names {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let mut names = Names::default();
    for (i, var) in function.params.iter().enumerate() {
        let name = &function.locals[*var].name;
        names
            .symbols
            .insert(inputs.params[i].to_string(), name.clone());
        if super::witness::is_function_pointer(program, function.locals[*var].ty) {
            names.function_pointers.push(inputs.params[i].to_string());
        }
        // The bytes of the object a pointer parameter points into, from it on.
        names.symbols.insert(
            engine.object_size(Side::Old, func, i).to_string(),
            format!("objsize({name})"),
        );
    }
    for (id, f) in program.functions.iter_enumerated() {
        names
            .functions
            .push((engine.layout.function(0, id), f.name.clone()));
        if let Some(pair) = engine.pair_index(Side::Old, id) {
            names.procedures.insert(format!("P{pair}"), f.name.clone());
        }
        names
            .procedures
            .insert(format!("o{}", id.index()), format!("{} (old)", f.name));
    }
    for (id, f) in engine.programs[1].functions.iter_enumerated() {
        names
            .procedures
            .insert(format!("n{}", id.index()), format!("{} (new)", f.name));
    }
    names.symbols.insert(inputs.mem.to_string(), "mem".into());
    names.symbols.insert(inputs.io.to_string(), "io".into());
    // Globals by name; a global of the new version at an address of its own (its key or
    // its constant contents changed) as `name (new)`, the old one then `name (old)`.
    let new_program = engine.programs[1];
    let own: Vec<(u64, u64, String)> = new_program
        .globals
        .iter_enumerated()
        .filter(|(_, g)| !g.key.starts_with(".str"))
        .map(|(id, g)| {
            (
                engine.layout.global(1, id),
                new_program.types.size_of(g.ty).max(1),
                g.name.clone(),
            )
        })
        .filter(|(base, _, _)| {
            program
                .globals
                .iter_enumerated()
                .all(|(id, _)| engine.layout.global(0, id) != *base)
        })
        .collect();
    for (id, global) in program.globals.iter_enumerated() {
        if global.key.starts_with(".str") {
            continue;
        }
        let base = engine.layout.global(0, id);
        let moved = own.iter().any(|(_, _, name)| name == &global.name);
        // The object of both versions at this address covers the larger one's bytes.
        let size = new_program
            .globals
            .iter_enumerated()
            .filter(|(id, _)| engine.layout.global(1, *id) == base)
            .map(|(_, g)| new_program.types.size_of(g.ty))
            .fold(program.types.size_of(global.ty).max(1), u64::max);
        names.addresses.push((
            base,
            size,
            if moved {
                format!("{} (old)", global.name)
            } else {
                global.name.clone()
            },
        ));
    }
    for (base, size, name) in own {
        names.addresses.push((base, size, format!("{name} (new)")));
    }
    names
}

/// The report of a pair that runs code that could not be read: no verdict (see
/// [`crate::unread`]).
pub(super) fn unread_pair(old: &Program, state: &PairState, place: &str) -> PairReport {
    PairReport {
        name: old.functions[state.old].name.clone(),
        old: Some(state.old),
        new: Some(state.new),
        modified: state.status != FunctionStatus::Unchanged,
        verdict: Verdict::Unknown,
        differs_when: None,
        equal_when: None,
        non_termination_differs_when: None,
        full: false,
        witnesses: Vec::new(),
        notes: vec![format!(
            "runs code that could not be read ({place}): no verdict on a guessed reading"
        )],
        unread: Some(place.to_string()),
        paths: (0, 0),
        lines_only: false,
        unmodelled: false,
        formulas: None,
    }
}

/// What a pair's verdict owes to globals whose initial contents changed: `read`, the
/// one its function names (and whether it is `const`), and whether it or its callees
/// name any (`reaches`).
pub(super) fn initial_contents(
    report: &mut PairReport,
    read: Option<&(String, bool)>,
    reaches: bool,
    engine: &Engine,
    matching: &VersionMatch,
) {
    if let Some((read, false)) = read {
        report.notes.push(format!(
            "reads {read}: the summary compares the versions on the same memory, a run \
             starts from each version's initializers"
        ));
    }
    // A constant whose contents the solver was not given is arbitrary in the summaries
    // (changed or not), where every run has its initializer's: a difference only they
    // show is no proof.
    if report.verdict == Verdict::Different && !report.witnesses.iter().any(|w| w.confirmed) {
        let read = [(Side::Old, report.old), (Side::New, report.new)]
            .into_iter()
            .find_map(|(side, f)| {
                let g = *engine.constants_without_facts(side, &[f?]).first()?;
                Some(engine.programs[side.index()].globals[g].name.clone())
            });
        if let Some(name) = read {
            report.verdict = Verdict::Unknown;
            report.notes.push(format!(
                "the difference may come from the contents of `{name}`, a constant the \
                 solver was not given (too large, or not known byte for byte): any contents \
                 there, not its own; no run confirmed it"
            ));
        }
    }
    // `main` starts from the initializers, which its difference condition does not
    // model: only a run from them shows a difference.
    if report.verdict == Verdict::Different
        && report.name == "main"
        && !report.witnesses.iter().any(|w| w.confirmed)
    {
        report.verdict = Verdict::Unknown;
        report.notes.push(
            "the difference condition is over any contents of the globals, but main starts \
             from their initial contents, and no run from them showed a difference"
                .into(),
        );
    }
    // A changed constant whose contents the solver was not given is the same arbitrary
    // memory in both versions' summaries, where each version's runs read their own
    // initializer's: an equivalence over it is no proof (md4c 3420ce7: a Unicode table
    // of 10 KB changed, "equivalent"; the compiled versions differ at U+1B4E).
    if report.verdict == Verdict::Equivalent {
        let changed = changed_constant_without_facts(engine, matching)
            .or_else(|| unmatched_constant_without_facts(engine, report.old, report.new));
        if let Some(name) = changed {
            report.verdict = Verdict::Unknown;
            report.notes.push(format!(
                "equal on the same contents of `{name}`, but that constant changed and the \
                 solver was not given its contents (too large, or not known byte for byte): \
                 each version reads its own"
            ));
        }
    }
    if !reaches {
        return;
    }
    // A changed constant whose contents the solver was not given is arbitrary in each
    // version: a difference only it shows is no proof.
    if report.verdict == Verdict::Different && !report.witnesses.iter().any(|w| w.confirmed) {
        if let Some(name) = changed_constant_without_facts(engine, matching) {
            report.verdict = Verdict::Unknown;
            report.notes.push(format!(
                "the difference may come from the contents of `{name}`, a changed constant \
                 the solver was not given (too large, or not known byte for byte); no run \
                 confirmed it"
            ));
        }
    }
    // A global whose type changed is one object of each version's size in the summary's
    // memory: bytes one version's object has and the other's has not differ there
    // without any object of the program differing. Only a run shows a difference.
    if report.verdict == Verdict::Different && !report.witnesses.iter().any(|w| w.confirmed) {
        if let Some(name) = global_with_changed_type(engine, matching) {
            report.verdict = Verdict::Unknown;
            report.notes.push(format!(
                "the difference may come from the bytes of `{name}`, whose type changed (each \
                 version's object covers other bytes of the memory the summary compares); \
                 no run confirmed it"
            ));
        }
    }
    // `main` starts from the initializers, which its summary does not model.
    if report.verdict == Verdict::Equivalent && report.name == "main" {
        report.verdict = Verdict::Unknown;
        report.notes.push(
            "equal on the same memory, but main starts from the globals' initial contents, \
             and some it may read changed"
                .into(),
        );
    }
}

/// A global of both versions whose type changed (by its size or its C text), if any.
fn global_with_changed_type(engine: &Engine, matching: &VersionMatch) -> Option<String> {
    let [old, new] = engine.programs;
    matching.globals.iter().find_map(|g| {
        let (o, n) = (&old.globals[g.old?], &new.globals[g.new?]);
        let changed = old.types.size_of(o.ty) != new.types.size_of(n.ty)
            || old.types.display(o.ty) != new.types.display(n.ty);
        changed.then(|| o.name.clone())
    })
}

/// A `const` global the functions `old` and `new` (with their callees) name that the
/// engine left without the facts of its contents in one version and that the other
/// version has not with the same initializer (a static local table whose entries
/// changed: the matching of globals does not cover those), if any.
fn unmatched_constant_without_facts(
    engine: &Engine,
    old: Option<ripple_ir::FuncId>,
    new: Option<ripple_ir::FuncId>,
) -> Option<String> {
    let named = |side: Side, f: Option<ripple_ir::FuncId>| -> Vec<ripple_ir::GlobalId> {
        f.map(|f| engine.constants_without_facts(side, &[f]))
            .unwrap_or_default()
    };
    let sides = [(Side::Old, old, Side::New), (Side::New, new, Side::Old)];
    sides.into_iter().find_map(|(side, f, other)| {
        let program = engine.programs[side.index()];
        let other_program = engine.programs[other.index()];
        named(side, f).into_iter().find_map(|g| {
            let global = &program.globals[g];
            let same = other_program
                .globals
                .iter()
                .any(|o| o.name == global.name && o.is_const && o.init == global.init);
            (!same).then(|| global.name.clone())
        })
    })
}

/// A changed `const` global that the engine's input memory of either version left
/// without the facts of its contents, if any.
fn changed_constant_without_facts(engine: &Engine, matching: &VersionMatch) -> Option<String> {
    let without = [
        engine.globals_without_facts(Side::Old),
        engine.globals_without_facts(Side::New),
    ];
    matching
        .globals
        .iter()
        .filter(|g| g.status != ripple_versions::GlobalStatus::Unchanged)
        .find_map(|g| {
            [(0, g.old), (1, g.new)].into_iter().find_map(|(side, id)| {
                let id = id?;
                let global = &engine.programs[side].globals[id];
                (global.is_const && without[side].binary_search(&id).is_ok())
                    .then(|| global.name.clone())
            })
        })
}
