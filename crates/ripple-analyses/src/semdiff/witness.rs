//! Witnesses of a difference (001 section 5: every difference found comes with an input
//! on which the versions differ): a model of the difference condition read as inputs,
//! replayed on both versions in the interpreter and, when a compiler is there, on the
//! compiled versions (`native`), confirmed only by an observed difference and labelled
//! by the undefined behaviour it goes through.

use super::pointees::{self, Pointees};
use super::*;
/// What one version did on a witness input. Two runs are equal when they behave alike
/// (result, output, final state), whatever undefined behaviour they went through.
#[derive(Clone, Debug)]
pub struct Observed {
    /// "returned 4", "returned", "exit 3", "trap: ...", "no termination within N steps".
    pub result: String,
    pub stdout: String,
    /// Final values of pointed-to objects and globals, by C name.
    pub state: Vec<(String, String)>,
    /// The globals of `state` the run left as it was given them.
    pub untouched: Vec<String>,
    /// The run stopped at a limit (steps) or could not be carried out: what it shows
    /// proves nothing, so it never confirms a difference.
    pub limited: bool,
    /// The run trapped on undefined behaviour that compiled code need not show (an
    /// out-of-bounds access, a use after free, an invalid pointer, a division by zero):
    /// the interpreter alone cannot confirm a difference through it (the compiled
    /// versions can).
    pub undefined: Option<String>,
    /// Undefined behaviour the run went through and gave a value to, as code built with
    /// `-fwrapv` on x86-64 does (signed overflow, an out-of-range shift or conversion),
    /// or trapped on (division by zero): a difference through it is real for this build
    /// but not one the C standard promises.
    pub through: Vec<&'static str>,
    /// Interpreter steps the run took.
    pub steps: u64,
}

impl PartialEq for Observed {
    fn eq(&self, other: &Self) -> bool {
        self.result == other.result
            && self.stdout == other.stdout
            && same_state(&self.state, &other.state)
            && self.limited == other.limited
            && self.undefined == other.undefined
    }
}

/// Whether two final states are the same: entry for entry, except that an object left
/// with the same bytes in both (its `name[..]` entry) is the same whatever each version's
/// type shows of it (a struct become a union of the same layout reads otherwise).
pub(super) fn same_state(a: &[(String, String)], b: &[(String, String)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let same_bytes: Vec<&str> = a
        .iter()
        .filter_map(|(key, text)| {
            let name = key.strip_suffix("[..]")?;
            b.iter().any(|(k, t)| k == key && t == text).then_some(name)
        })
        .collect();
    let typed_view_of_same_bytes = |key: &str| {
        same_bytes.iter().any(|name| {
            key.strip_prefix('*') == Some(*name)
                || key
                    .strip_prefix(*name)
                    .is_some_and(|rest| rest.starts_with('[') || rest.starts_with("->"))
        })
    };
    a.iter()
        .zip(b)
        .all(|((ka, ta), (kb, tb))| ka == kb && (ta == tb || typed_view_of_same_bytes(ka)))
}

impl Observed {
    /// Whether a difference from this run is an observed difference of the program: the
    /// run ended on its own and did not go through undefined behaviour that compiled
    /// code need not show.
    pub fn confirms(&self) -> bool {
        !self.limited && self.undefined.is_none()
    }
}

/// A concrete input on which the versions differ, replayed on both.
#[derive(Clone, Debug)]
pub struct Witness {
    /// Parameter and global values, by C name.
    pub inputs: Vec<(String, String)>,
    pub old: Observed,
    pub new: Observed,
    /// True only if an observed difference: the compiled versions' runs differ (when a
    /// compiler is there), else the interpreter's, and both runs ended on their own (a
    /// step limit, a timeout or a run that could not be carried out proves nothing).
    pub confirmed: bool,
    /// Why the witness is not confirmed (None when it is).
    pub unconfirmed: Option<Unconfirmed>,
    /// What ran the versions to decide: "compiled code" or "interpreter".
    pub checked_by: &'static str,
    /// The compiled versions' outcomes (driver text), when they ran.
    pub native: Option<[String; 2]>,
    /// Why the compiled versions could not run, when a compiler was there.
    pub native_error: Option<String>,
    /// What the difference goes through besides ordinary values: undefined behaviour of
    /// either run ("signed overflow (new)", "division by zero (old)", "out-of-bounds
    /// access (new)", ...) or "NaN or signed zero" when the results differ only there.
    pub labels: Vec<String>,
    /// "output" or "termination".
    pub kind: &'static str,
    /// The raw input the replays ran on, to re-run it elsewhere.
    pub replay: ReplayInput,
}

/// Why a witness is not confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A replay stopped at its step limit or could not run.
    Limit,
    /// A replay trapped on undefined behaviour that compiled code need not show.
    UndefinedBehaviour,
    /// Both replays agree.
    SameOutcome,
    /// The replays differ only in the address a pointer result holds: each version's
    /// memory is laid out differently (other globals, other blocks before), so two
    /// addresses compare nothing the program can tell apart by itself.
    AddressesOnly,
    /// The interpreter's replays ran to their end through defined behaviour and differ
    /// only in addresses, and the compiled versions differ: through addresses too, which
    /// C leaves open, not through the program.
    CompiledOnly,
    /// The compiled versions agree on the input (the interpreter's difference is not one
    /// of the program as built).
    CompiledAgree,
    /// A compiled run did not end within its timeout.
    CompiledTimeout,
    /// A compiled run crashed where the interpreter's replay of that version ran out of
    /// steps: deep recursion past the machine's stack limit looks like this, and says
    /// nothing about the versions' results.
    CompiledCrashPastLimit,
    /// The difference goes through undefined behaviour, excluded by `--assume no-ub`.
    ExcludedUndefined,
    /// A record the runs read is laid out differently in the versions: the same input
    /// bytes are other members in each, so the outcomes compare nothing.
    LayoutChanged,
    /// The compiled runs could not be given every input of the witness (a pointer or
    /// function pointer global): they ran another input and confirm nothing.
    InputsNotApplied,
}

impl Unconfirmed {
    pub fn name(self) -> &'static str {
        match self {
            Unconfirmed::Limit => "limit",
            Unconfirmed::UndefinedBehaviour => "undefined behaviour",
            Unconfirmed::SameOutcome => "same outcome",
            Unconfirmed::AddressesOnly => "only addresses differ",
            Unconfirmed::CompiledOnly => "only the compiled runs differ",
            Unconfirmed::CompiledAgree => "compiled versions agree",
            Unconfirmed::CompiledTimeout => "compiled run timed out",
            Unconfirmed::CompiledCrashPastLimit => "compiled run crashed past the step limit",
            Unconfirmed::ExcludedUndefined => "undefined behaviour excluded",
            Unconfirmed::LayoutChanged => "a record's layout changed",
            Unconfirmed::InputsNotApplied => "inputs not applied to the compiled runs",
        }
    }
}

impl Witness {
    /// A witness checked by the interpreter's replays `old` and `new`.
    pub(super) fn replayed(
        inputs: Vec<(String, String)>,
        old: Observed,
        new: Observed,
        kind: &'static str,
        replay: ReplayInput,
    ) -> Witness {
        let (old, new) = without_untouched_globals(old, new);
        // Two runs that trap alike (the same undefined behaviour at the same place, the
        // same state) show no difference: the same outcome, not one through undefined
        // behaviour.
        let unconfirmed = if old.limited || new.limited {
            Some(Unconfirmed::Limit)
        } else if old == new {
            Some(Unconfirmed::SameOutcome)
        } else if old.undefined.is_some() || new.undefined.is_some() {
            Some(Unconfirmed::UndefinedBehaviour)
        } else if only_addresses_differ(&old, &new) {
            Some(Unconfirmed::AddressesOnly)
        } else {
            None
        };
        let mut labels: Vec<String> = Vec::new();
        for (side, observed) in [("old", &old), ("new", &new)] {
            labels.extend(observed.through.iter().map(|u| format!("{u} ({side})")));
            let trapped = observed.undefined.as_deref().unwrap_or_default();
            for (key, label) in [
                ("out-of-bounds", "out-of-bounds access"),
                ("freed or out-of-scope", "use after free"),
                ("invalid pointer", "invalid pointer"),
            ] {
                if trapped.contains(key) {
                    labels.push(format!("{label} ({side})"));
                }
            }
        }
        if nan_or_signed_zero(&old.result, &new.result) {
            labels.push("NaN or signed zero".into());
        }
        Witness {
            labels,
            inputs,
            old,
            new,
            confirmed: unconfirmed.is_none(),
            unconfirmed,
            checked_by: "interpreter",
            native: None,
            native_error: None,
            kind,
            replay,
        }
    }

    /// Decides the witness on the compiled versions when the configuration has a native
    /// runner: their outcomes, not the interpreter's, confirm it or not.
    pub(super) fn decide(
        &mut self,
        programs: [&Program; 2],
        funcs: [FuncId; 2],
        config: &SemdiffConfig,
    ) {
        self.check_natively(programs, funcs, config);
        let undefined = self.labels.iter().any(|l| l != "NaN or signed zero");
        if config.assume_no_ub && self.confirmed && undefined {
            self.confirmed = false;
            self.unconfirmed = Some(Unconfirmed::ExcludedUndefined);
        }
    }

    fn check_natively(
        &mut self,
        programs: [&Program; 2],
        funcs: [FuncId; 2],
        config: &SemdiffConfig,
    ) {
        let Some(runner) = &config.native else {
            return;
        };
        let old_globals = native::data_globals(programs[0], funcs[0]);
        let new_globals = native::data_globals(programs[1], funcs[1]);
        let globals: Vec<String> = old_globals
            .into_iter()
            .filter(|g| new_globals.contains(g))
            .collect();
        let outcome = |side: Side, i: usize| -> Result<String, String> {
            let input =
                native::witness_input(programs[i], funcs[i], programs[0], side, &self.replay);
            runner
                .outcomes(side, programs[i], funcs[i], &globals, &[input])?
                .pop()
                .ok_or_else(|| "the compiled run printed nothing".to_string())
        };
        // A witness global the driver cannot set (a function pointer set to null) makes
        // the compiled runs runs of another input: they confirm nothing.
        let unapplied = [Side::Old, Side::New].iter().enumerate().any(|(i, &side)| {
            !native::unapplied_globals(programs[i], self.replay.globals_of(side), &globals)
                .is_empty()
        });
        match (outcome(Side::Old, 0), outcome(Side::New, 1)) {
            (Ok(a), Ok(b)) => {
                self.unconfirmed = if unapplied {
                    Some(Unconfirmed::InputsNotApplied)
                } else {
                    compiled_verdict([&a, &b], [&self.old, &self.new])
                };
                self.confirmed = self.unconfirmed.is_none();
                self.checked_by = "compiled code";
                self.native = Some([a, b]);
            }
            (Err(e), _) | (_, Err(e)) => self.native_error = Some(e),
        }
    }
}

/// Why the compiled versions' outcomes do not confirm a difference (None when they do),
/// given what the interpreter's replays of the same versions did.
fn compiled_verdict(outcomes: [&str; 2], replays: [&Observed; 2]) -> Option<Unconfirmed> {
    let past_limit = |k: usize| replays[k].limited && native::crashed(outcomes[k]);
    // Both versions stop on the same undefined behaviour here: what the compiled
    // versions then do differently is what the undefined behaviour gave each.
    let same_undefined = replays[0].undefined.is_some()
        && replays[0].undefined == replays[1].undefined
        && replays[0].result == replays[1].result;
    // The interpreter ran both versions to their end, through defined behaviour, and
    // saw them differ only in where their objects lie: what the compiled runs then do
    // differently comes from addresses too, which C leaves open, not from the program
    // (json-c 9782370: a pointer converted to an integer decides whether it crashes).
    // Runs the interpreter saw alike may still differ compiled (buffered output lost
    // by `_Exit`, which it does not model): those confirm.
    let interpreter_agrees = replays.iter().all(|r| r.confirms() && r.through.is_empty())
        && only_addresses_differ(replays[0], replays[1]);
    if outcomes.iter().any(|o| native::timed_out(o)) {
        Some(Unconfirmed::CompiledTimeout)
    } else if interpreter_agrees && outcomes[0] != outcomes[1] {
        Some(Unconfirmed::CompiledOnly)
    } else if outcomes[0] == outcomes[1] && replays[0] == replays[1] {
        // Both versions did the same, compiled and interpreted (the same trap at the
        // same place): no difference to show, through undefined behaviour or not.
        Some(Unconfirmed::CompiledAgree)
    } else if same_undefined {
        Some(Unconfirmed::UndefinedBehaviour)
    } else if past_limit(0) || past_limit(1) {
        Some(Unconfirmed::CompiledCrashPastLimit)
    } else if outcomes[0] == outcomes[1] {
        Some(Unconfirmed::CompiledAgree)
    } else {
        None
    }
}

/// A witness input as the interpreter takes it: the arguments of the function, in
/// order, and the initial bytes of the globals (by key) of each version (old, new): a
/// global whose type or key changed holds in each version the bytes its own object has
/// in the model; globals not listed keep their initial values.
#[derive(Clone, Debug)]
pub struct ReplayInput {
    pub args: Vec<ReplayArg>,
    pub globals: [Vec<(String, Vec<u8>)>; 2],
    /// The objects pointer members of the arguments' objects point to.
    pub pointees: Pointees,
}

impl ReplayInput {
    /// The globals of version `side`.
    pub fn globals_of(&self, side: Side) -> &[(String, Vec<u8>)] {
        &self.globals[side.index()]
    }
}

/// Extra constraints that make witnesses replayable and readable, from the most telling:
/// pointer arguments to separate objects at known addresses with zeros before them;
/// without the zeros; or, for a difference that needs aliasing, each pointer at the
/// start of one of those objects (equal pointers, no partial overlap). Apart, the facts
/// that each global the function names holds its initial contents, which the search
/// adds to the first tier where it can.
pub(super) fn witness_niceness(engine: &Engine, func: FuncId) -> ([Vec<Bool>; 3], Vec<Bool>) {
    let program = engine.programs[0];
    let function = &program.functions[func];
    let inputs = engine.inputs(Side::Old, func);
    let pointers: Vec<usize> = (0..function.params.len())
        .filter(|&i| {
            let ty = function.locals[function.params[i]].ty;
            matches!(program.types.get(ty), Type::Pointer(_)) && !is_function_pointer(program, ty)
        })
        .collect();
    // A function pointer is the address of a function it may call.
    let callees: Vec<Bool> = (0..function.params.len())
        .filter_map(|i| {
            let ty = function.locals[function.params[i]].ty;
            let targets = pointer_targets(program, ty)?;
            let choices: Vec<Bool> = targets
                .iter()
                .map(|&g| inputs.params[i].eq(BV::from_u64(engine.layout.function(0, g), 64)))
                .collect();
            (!choices.is_empty()).then(|| Bool::or(&choices.iter().collect::<Vec<_>>()))
        })
        .collect();
    let slot = |i: usize| BV::from_u64(ARGUMENT_BASE + ARGUMENT_SPAN * i as u64, 64);
    // Objects of the size the replay gives them.
    let sized: Vec<Bool> = pointers
        .iter()
        .map(|&i| {
            engine
                .object_size(Side::Old, func, i)
                .eq(BV::from_u64(replay_object_len(program, function, i), 64))
        })
        .collect();
    let separate: Vec<Bool> = pointers
        .iter()
        .map(|&i| inputs.params[i].eq(slot(i)))
        .chain(sized.iter().cloned())
        .chain(callees.iter().cloned())
        .collect();
    // What lies before each object zero, unless the difference needs it (sds' headers).
    let mut quiet = separate.clone();
    for &i in &pointers {
        for k in 1..=pointees::BEFORE as u64 {
            let at = slot(i).bvsub(BV::from_u64(k, 64));
            if let Some(byte) = inputs.mem.select(&at).as_bv() {
                quiet.push(byte.eq(BV::from_u64(0, 8)));
            }
        }
    }
    // Each pointer at the start of one of the pointer arguments' slots.
    let aliased = pointers
        .iter()
        .map(|&i| {
            let choices: Vec<Bool> = pointers
                .iter()
                .map(|&j| inputs.params[i].eq(slot(j)))
                .collect();
            Bool::or(&choices.iter().collect::<Vec<_>>())
        })
        .chain(sized)
        .chain(callees)
        .collect();
    // The globals as the program starts (parson's `parson_malloc` set to `malloc`, not
    // to a null the compiled driver cannot give), one fact per global.
    let initial = engine.initial_contents(Side::Old, &[func], &inputs.mem);
    ([quiet, separate, aliased], initial)
}

/// Globals a witness search keeps at their initial contents one by one, at most, when
/// it cannot keep them all (each one a query).
const INITIAL_ONE_BY_ONE: usize = 8;

/// Whether `ty` is a pointer to a function.
pub(super) fn is_function_pointer(program: &Program, ty: ripple_ir::TypeId) -> bool {
    matches!(program.types.get(ty), Type::Pointer(p) if matches!(program.types.get(*p), Type::Function { .. }))
}

/// For a function pointer type, the functions of the program a call through it may
/// reach (address-taken, of a fitting type; defined ones first, as a witness is more
/// telling when it runs code); `None` for other types.
pub(super) fn pointer_targets(program: &Program, ty: ripple_ir::TypeId) -> Option<Vec<FuncId>> {
    if !is_function_pointer(program, ty) {
        return None;
    }
    let mut targets: Vec<FuncId> = ripple_graph::address_taken_functions(program)
        .into_iter()
        .filter(|&g| ripple_graph::may_target(&program.types, ty, program.functions[g].ty))
        .collect();
    targets.sort_by_key(|&g| (!program.functions[g].is_defined(), g));
    Some(targets)
}

/// The bytes of the object a replay gives pointer parameter `i` (at least 64).
pub(super) fn replay_object_len(
    program: &Program,
    function: &ripple_ir::Function,
    i: usize,
) -> u64 {
    match program.types.get(function.locals[function.params[i]].ty) {
        Type::Pointer(pointee) => 64u64.max(program.types.size_of(*pointee)),
        _ => 0,
    }
}

/// Finds a model of `condition`, reads the inputs, and replays them on both versions.
pub(super) fn witness(
    engine: &mut Engine,
    state: &PairState,
    condition: &Bool,
    assume: &Bool,
    kind: &'static str,
    config: &SemdiffConfig,
) -> Option<Witness> {
    // Readable inputs first (see `witness_niceness`), else any model.
    let ([quiet, separate, aliased], initial) = witness_niceness(engine, state.old);
    let mut model = None;
    let ask = |engine: &mut Engine, nice: &[Bool]| {
        let mut query = vec![assume.clone(), condition.clone()];
        query.extend_from_slice(nice);
        engine.smt.check_model(&query)
    };
    // The globals at their initial contents: all of them, else as many as the
    // difference allows, taken one by one when they are few.
    if !initial.is_empty() {
        let all: Vec<Bool> = quiet.iter().chain(&initial).cloned().collect();
        let (answer, found) = ask(engine, &all);
        if answer == Answer::Sat {
            model = found;
        } else if answer == Answer::Unsat && (2..=INITIAL_ONE_BY_ONE).contains(&initial.len()) {
            let mut kept = quiet.clone();
            for global in &initial {
                kept.push(global.clone());
                let (answer, found) = ask(engine, &kept);
                if answer == Answer::Sat {
                    model = found;
                } else {
                    kept.pop();
                }
            }
        }
    }
    // The first two tiers are nested: one as long as the tier before it is that tier.
    let tiers = [quiet, separate, aliased, Vec::new()];
    for (k, nice) in tiers.iter().enumerate() {
        if model.is_some() {
            break;
        }
        if k == 1 && nice.len() == tiers[0].len() {
            continue;
        }
        let (answer, found) = ask(engine, nice);
        if answer == Answer::Sat || nice.is_empty() {
            model = found;
            break;
        }
    }
    let model = model?;
    let old_program = engine.programs[0];
    let new_program = engine.programs[1];
    let function = &old_program.functions[state.old];
    let inputs = engine.inputs(Side::Old, state.old);
    // Inputs: parameters, pointed-to bytes, globals. Pointers whose objects overlap in
    // the model (a difference that needs aliasing) share one object in the replay.
    let bits_of: Vec<u128> = (0..function.params.len())
        .map(|i| model_bits(&model, &inputs.params[i]).unwrap_or(0))
        .collect();
    // The object's size in the model when it is one a replay can give (a difference
    // that needs a small object shows in the replay too), else the usual length.
    let pointer_len = |i: usize| -> Option<u64> {
        let usual = replay_object_len(old_program, function, i);
        if usual == 0 {
            return None;
        }
        let size = engine.object_size(Side::Old, state.old, i);
        Some(match model_bits(&model, &size) {
            Some(n) if (1..=4096).contains(&n) => n as u64,
            _ => usual,
        })
    };
    // A null pointer points to no object: it is passed as it is.
    let objects = alias_groups(
        &(0..function.params.len())
            .filter(|&i| bits_of[i] != 0)
            .filter_map(|i| Some((i, bits_of[i] as u64, pointer_len(i)?)))
            .collect::<Vec<_>>(),
    );
    let mut shown = Vec::new();
    let mut args: Vec<ReplayArg> = Vec::new();
    for (i, var) in function.params.iter().enumerate() {
        let local = &function.locals[*var];
        let bits = bits_of[i];
        if is_function_pointer(old_program, local.ty) {
            let target = old_program
                .functions
                .iter_enumerated()
                .find(|(g, _)| u128::from(engine.layout.function(0, *g)) == bits);
            match target {
                Some((_, g)) => {
                    shown.push((local.name.clone(), format!("&{}", g.name)));
                    args.push(ReplayArg::Function { key: g.key.clone() });
                }
                None => {
                    shown.push((local.name.clone(), format!("{bits:#x} (no function)")));
                    args.push(ReplayArg::Scalar { bits, ty: local.ty });
                }
            }
            continue;
        }
        match old_program.types.get(local.ty) {
            Type::Pointer(_) if bits == 0 => {
                shown.push((local.name.clone(), "NULL".to_string()));
                args.push(ReplayArg::Scalar { bits, ty: local.ty });
            }
            Type::Pointer(pointee) => {
                let (owner, base, len) = objects
                    .iter()
                    .find(|o| o.members.contains(&i))
                    .map_or((i, bits as u64, 64), |o| (o.members[0], o.base, o.len));
                if owner != i {
                    let offset = (bits as u64).wrapping_sub(base);
                    let owner_name = &function.locals[function.params[owner]].name;
                    shown.push((
                        local.name.clone(),
                        if offset == 0 {
                            owner_name.clone()
                        } else {
                            format!("{owner_name} + {offset}")
                        },
                    ));
                    args.push(ReplayArg::Alias {
                        of: owner,
                        offset,
                        pointee: *pointee,
                    });
                    continue;
                }
                let bytes = engine
                    .memory_bytes(&model, &inputs.mem, base, len)
                    .unwrap_or_else(|| vec![0; len as usize]);
                shown.extend(pointee_entries(
                    old_program,
                    &local.name,
                    *pointee,
                    &bytes,
                    false,
                ));
                let before = engine
                    .memory_bytes(
                        &model,
                        &inputs.mem,
                        base.wrapping_sub(pointees::BEFORE as u64),
                        pointees::BEFORE as u64,
                    )
                    .unwrap_or_else(|| vec![0; pointees::BEFORE]);
                shown.extend(before_entries(&local.name, &before));
                args.push(ReplayArg::Pointer {
                    bytes,
                    pointee: *pointee,
                    before,
                });
            }
            Type::Record(_) | Type::Array { .. } => {
                let bytes = ripple_symex::smt::model_bytes(&model, &inputs.params[i])
                    .unwrap_or_else(|| vec![0; old_program.types.size_of(local.ty) as usize]);
                shown.push((
                    local.name.clone(),
                    aggregate_text(old_program, local.ty, &bytes),
                ));
                args.push(ReplayArg::Aggregate {
                    bytes,
                    ty: local.ty,
                });
            }
            _ => {
                shown.push((local.name.clone(), value_text(old_program, local.ty, bits)));
                args.push(ReplayArg::Scalar { bits, ty: local.ty });
            }
        }
    }
    // Each version's globals hold the bytes of its own object in the model: the same
    // bytes where the versions share the object, each its own where a type changed (a
    // `short` becoming an `int`). A program's `main` starts from the initializers, so
    // its witnesses set none: a difference that needs other values is no run of it.
    let mut globals: [Vec<(String, Vec<u8>)>; 2] = Default::default();
    let mut values: Vec<(String, [Option<String>; 2])> = Vec::new();
    let runs_from_start = old_program.defined_main() == Some(state.old)
        && new_program.defined_main() == Some(state.new);
    for (side, program) in [(Side::Old, old_program), (Side::New, new_program)] {
        if runs_from_start {
            break;
        }
        let func = if side == Side::Old {
            state.old
        } else {
            state.new
        };
        let mem = engine.inputs(side, func).mem;
        for (id, global) in program.globals.iter_enumerated() {
            if global.is_const || global.key.starts_with(".str") || global.init.is_none() {
                continue;
            }
            let size = program.types.size_of(global.ty);
            let list = &mut globals[side.index()];
            if size == 0 || size > 256 || list.len() >= 32 {
                continue;
            }
            // One the model leaves at its initial contents is not an input of the run
            // (its bytes hold addresses of the solver's layout, not of the run's).
            let initial = engine.initial_fact(side, id, &mem);
            if initial.is_some_and(|f| ripple_symex::smt::model_bool(&model, &f) == Some(true)) {
                continue;
            }
            if let Some(bytes) = engine.global_bytes(side, id, &model, &mem) {
                if program.types.is_scalar(global.ty) {
                    let text = scalar_text(program, global.ty, &bytes);
                    match values.iter_mut().find(|(name, _)| name == &global.name) {
                        Some((_, texts)) => texts[side.index()] = Some(text),
                        None => {
                            let mut texts = [None, None];
                            texts[side.index()] = Some(text);
                            values.push((global.name.clone(), texts));
                        }
                    }
                }
                list.push((global.key.clone(), bytes));
            }
        }
    }
    shown.extend(
        values
            .into_iter()
            .map(|(name, texts)| (name, versions_text(&texts))),
    );
    // Globals the replays leave at their initial values, where those differ.
    for (name, text) in changed_initial_values([old_program, new_program], &globals) {
        if !shown.iter().any(|(n, _)| n == &name) {
            shown.push((name, text));
        }
    }
    // What pointer members of the arguments' objects point to in the model.
    let placed: Vec<pointees::Placed> = args
        .iter()
        .enumerate()
        .filter_map(|(i, arg)| match arg {
            ReplayArg::Pointer {
                bytes,
                pointee,
                before,
            } => Some(pointees::Placed {
                object: pointees::ObjectRef::Arg(i),
                name: function.locals[function.params[i]].name.clone(),
                pointee: *pointee,
                address: bits_of[i] as u64,
                before: before.len(),
                bytes,
            }),
            _ => None,
        })
        .collect();
    let reached = pointees::pointees(engine, &model, &inputs.mem, placed);
    for object in &reached.objects {
        shown.extend(object_entries(
            old_program,
            &object.name,
            Some(object.pointee),
            &object.bytes,
            false,
        ));
    }
    let old = replay(
        old_program,
        Side::Old,
        state.old,
        &args,
        &reached,
        &globals[0],
        config,
    );
    let new = replay(
        new_program,
        Side::New,
        state.new,
        &args,
        &reached,
        &globals[1],
        config,
    );
    let input = ReplayInput {
        args,
        globals,
        pointees: reached,
    };
    let mut witness = Witness::replayed(shown, old, new, kind, input);
    witness.decide([old_program, new_program], [state.old, state.new], config);
    Some(witness)
}

/// The globals (by name) whose initial values differ between the versions (globals
/// holding numbers only: a pointer's value is where the version's memory put its
/// target), or that only one version has, or whose type changed, with each version's
/// initial value (`versions_text`); except
/// those `set` (per version, by key) gives other bytes. Constants and string literals
/// are left out (a constant's contents are facts of the analysis, not inputs).
pub(super) fn changed_initial_values(
    programs: [&Program; 2],
    set: &[Vec<(String, Vec<u8>)>; 2],
) -> Vec<(String, String)> {
    const MOST: usize = 16;
    // Per name: each version's value and type, and whether it holds numbers only
    // (addresses differ between the versions' memory layouts: the standard streams, a
    // table of pointers are no difference of the program's data).
    type Seen = (String, [Option<String>; 2], [Option<String>; 2], bool);
    let mut values: Vec<Seen> = Vec::new();
    for (side, program) in programs.into_iter().enumerate() {
        let Ok(interpreter) = Interpreter::new(program, &RunConfig::default()) else {
            continue;
        };
        for (id, global) in program.globals.iter_enumerated() {
            let size = program.types.size_of(global.ty);
            if global.is_const
                || global.key.starts_with('.')
                || size == 0
                || size > 256
                || set[side].iter().any(|(key, _)| key == &global.key)
            {
                continue;
            }
            let Some(bytes) = interpreter.read_global(id) else {
                continue;
            };
            let text = scalar_text(program, global.ty, &bytes);
            let ty = program.types.display(global.ty);
            let numbers = native::scalar_data(program, global.ty);
            match values.iter_mut().find(|(name, ..)| name == &global.name) {
                Some((_, texts, types, all_numbers)) => {
                    texts[side] = Some(text);
                    types[side] = Some(ty);
                    *all_numbers &= numbers;
                }
                None => {
                    let (mut texts, mut types) = ([None, None], [None, None]);
                    texts[side] = Some(text);
                    types[side] = Some(ty);
                    values.push((global.name.clone(), texts, types, numbers));
                }
            }
        }
    }
    values
        .into_iter()
        .filter(|(_, texts, types, numbers)| {
            types[0] != types[1] || (texts[0] != texts[1] && *numbers)
        })
        .take(MOST)
        .map(|(name, texts, types, _)| {
            // The same value of another type reads as the type change it is.
            let texts = if texts[0] == texts[1] {
                [0, 1].map(|i| {
                    Some(format!(
                        "({}) {}",
                        types[i].as_deref()?,
                        texts[i].as_deref()?
                    ))
                })
            } else {
                texts
            };
            (name, versions_text(&texts))
        })
        .collect()
}

/// A value of each version (old, new) as one text: the value when both have it, else
/// each with its version, `1 (old), 2 (new)`.
pub(super) fn versions_text(texts: &[Option<String>; 2]) -> String {
    match texts {
        [Some(a), Some(b)] if a == b => a.clone(),
        [a, b] => {
            let part = |t: &Option<String>, side: &str| t.as_ref().map(|t| format!("{t} ({side})"));
            [part(a, "old"), part(b, "new")]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// Whether two replays differ only in the addresses pointers hold (a pointer result,
/// a pointer stored in an object), shown in hex: the same output, and the same result
/// and final state once each run's addresses are renamed in the order they first
/// appear. The objects of the two runs are numbered apart (one version allocates once
/// more, say): where the other run holds the same address at the same places, no
/// reader of the state can tell the runs apart by it.
pub(super) fn only_addresses_differ(old: &Observed, new: &Observed) -> bool {
    let renamed = |o: &Observed| {
        let mut names: Vec<String> = Vec::new();
        let mut rename = |text: &str| addresses_renamed(text, &mut names);
        let result = rename(&o.result);
        let state: Vec<(String, String)> = o
            .state
            .iter()
            .map(|(k, v)| (k.clone(), rename(v)))
            .collect();
        (result, state)
    };
    old.stdout == new.stdout
        && (old.result != new.result || old.state != new.state)
        && renamed(old) == renamed(new)
}

/// `text` with each address (a hex number past 32 bits, as the interpreter's objects
/// are numbered) replaced by its index in `names`, where it is added when new. In the
/// bytes of an object (`[4, 1, 0, ...]`), each aligned 8-byte word past 32 bits is such
/// an address.
fn addresses_renamed(text: &str, names: &mut Vec<String>) -> String {
    let mut index = |hex: String| match names.iter().position(|n| *n == hex) {
        Some(i) => i,
        None => {
            names.push(hex);
            names.len() - 1
        }
    };
    let bytes: Option<Vec<u8>> = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|t| t.split(", ").map(|b| b.parse::<u8>().ok()).collect());
    if let Some(bytes) = bytes {
        let words: Vec<String> = bytes
            .chunks(8)
            .map(|w| {
                let word = w
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
                if w.len() == 8 && word > u64::from(u32::MAX) {
                    format!("<address {}>", index(format!("{word:x}")))
                } else {
                    format!("{w:?}")
                }
            })
            .collect();
        return words.join(" ");
    }
    each_address(text, |bits| {
        format!("<address {}>", index(format!("{bits:x}")))
    })
}

/// `text` with each address in it (a hex number past 32 bits, as the interpreter's
/// objects are numbered) replaced by what `rewrite` makes of its value.
fn each_address(text: &str, mut rewrite: impl FnMut(u128) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let digits = rest[at + 2..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len() - at - 2);
        match u128::from_str_radix(&rest[at + 2..at + 2 + digits], 16) {
            Ok(bits) if bits > u128::from(u32::MAX) => out.push_str(&rewrite(bits)),
            _ => out.push_str(&rest[at..at + 2 + digits]),
        }
        rest = &rest[at + 2 + digits..];
    }
    out.push_str(rest);
    out
}

/// Whether two results ("returned X") differ only by NaN or the sign of zero.
pub(super) fn nan_or_signed_zero(old: &str, new: &str) -> bool {
    let value = |r: &str| r.strip_prefix("returned ")?.parse::<f64>().ok();
    match (value(old), value(new)) {
        (Some(a), Some(b)) => (a.is_nan() || b.is_nan()) || (a == b && a.to_bits() != b.to_bits()),
        _ => false,
    }
}

/// An object shared by pointer arguments whose ranges overlap: the arguments (the one at
/// the lowest address first), the lowest address and the length.
pub(super) struct AliasGroup {
    members: Vec<usize>,
    base: u64,
    len: u64,
}

/// Groups pointer arguments `(index, address, length)` whose ranges overlap.
pub(super) fn alias_groups(pointers: &[(usize, u64, u64)]) -> Vec<AliasGroup> {
    let mut sorted = pointers.to_vec();
    sorted.sort_by_key(|&(i, addr, _)| (addr, i));
    let mut groups: Vec<AliasGroup> = Vec::new();
    for (i, addr, len) in sorted {
        match groups.last_mut() {
            Some(g) if addr < g.base.saturating_add(g.len) => {
                g.members.push(i);
                g.len = g.len.max(addr - g.base + len);
            }
            _ => groups.push(AliasGroup {
                members: vec![i],
                base: addr,
                len,
            }),
        }
    }
    // A shared object holds at most a few KiB; farther apart is not aliasing.
    groups.retain(|g| g.len <= 4096);
    groups
}

/// What an object a pointer member points to holds, as witness entries: by its type
/// ([`pointee_entries`]), or, for a type that says nothing of its bytes (`void`,
/// incomplete: zlib's `struct internal_state`) or none, the bytes that are not zero.
fn object_entries(
    program: &Program,
    name: &str,
    ty: Option<ripple_ir::TypeId>,
    bytes: &[u8],
    whole: bool,
) -> Vec<(String, String)> {
    match ty {
        Some(ty)
            if program.types.size_of(ty) > 0 && !matches!(program.types.get(ty), Type::Void) =>
        {
            pointee_entries(program, name, ty, bytes, whole)
        }
        _ => {
            let set: Vec<String> = (0..bytes.len())
                .filter(|&i| bytes[i] != 0)
                .take(ELEMENTS_SHOWN)
                .map(|i| format!("[{i}] = {:#x}", bytes[i]))
                .collect();
            vec![(format!("*{name}"), format!("{{{}}}", set.join(", ")))]
        }
    }
}

/// The bytes before a pointer argument that are not zero, as witness entries
/// (`s[-1] = 0x7`): sds keeps a string's header there.
fn before_entries(name: &str, before: &[u8]) -> Vec<(String, String)> {
    let nonzero: Vec<usize> = (0..before.len()).filter(|&i| before[i] != 0).collect();
    match nonzero[..] {
        [] => Vec::new(),
        [i] => vec![(
            format!("{name}[-{}]", before.len() - i),
            format!("{:#x}", before[i]),
        )],
        [first, ..] => vec![(
            format!("{name}[-{}..0]", before.len() - first),
            format!("{:x?}", &before[first..]),
        )],
    }
}

/// One argument of a witness: a scalar (its bits, of the parameter's type), a pointer
/// to a fresh object holding `bytes`, or a pointer into the object of an earlier
/// argument (aliasing).
#[derive(Clone, Debug)]
pub enum ReplayArg {
    Scalar {
        bits: u128,
        ty: ripple_ir::TypeId,
    },
    /// `bytes` from the pointer on, `before` the bytes before it (input memory too:
    /// [`pointees::BEFORE`] of them, or none).
    Pointer {
        bytes: Vec<u8>,
        pointee: ripple_ir::TypeId,
        before: Vec<u8>,
    },
    /// A record or array passed by value: its bytes.
    Aggregate {
        bytes: Vec<u8>,
        ty: ripple_ir::TypeId,
    },
    /// A pointer `offset` bytes into the object of argument `of` (a `Pointer`).
    Alias {
        of: usize,
        offset: u64,
        pointee: ripple_ir::TypeId,
    },
    /// The address of a function (by key, the same function in both versions).
    Function {
        key: String,
    },
}

pub(super) fn value_text(program: &Program, ty: ripple_ir::TypeId, bits: u128) -> String {
    match program.types.get(ty) {
        Type::Int(kind) => {
            let width = kind.bits();
            if kind.is_signed() && width < 128 && bits >> (width - 1) & 1 == 1 {
                format!("{}", (bits as i128) - (1i128 << width))
            } else {
                bits.to_string()
            }
        }
        Type::Float(ripple_ir::FloatKind::Float) => format!("{:?}", f32::from_bits(bits as u32)),
        Type::Float(_) => format!("{:?}", f64::from_bits(bits as u64)),
        _ => format!("{bits:#x}"),
    }
}

/// A pointer as one of `bases` (the objects of pointer arguments, by parameter name) and
/// an offset when it is less than [`NEAR`] bytes from one (in it, or off it by pointer
/// arithmetic, as `p - (i - j)` with unsigned `i < j`). The interpreter keeps every
/// other object farther away ([`ripple_interp::Interpreter::alloc_isolated`]), and the
/// compiled drivers print such pointers alike (see `native.rs`). These compare between
/// the versions as they are; other addresses are renamed (see [`only_addresses_differ`]).
pub(super) fn pointer_text(bits: u128, bases: &[(String, u128)]) -> String {
    let distance = |base: u128| (bits as i128 - base as i128).unsigned_abs();
    let nearest = bases
        .iter()
        .filter(|(_, base)| *base != 0 && distance(*base) < NEAR)
        .min_by_key(|(_, base)| distance(*base));
    match nearest {
        Some((name, base)) if *base != 0 && bits != 0 => {
            let offset = bits as i128 - *base as i128;
            match offset {
                0 => name.clone(),
                o if o < 0 => format!("{name} - {}", -o),
                o => format!("{name} + {o}"),
            }
        }
        _ if bits == 0 => "NULL".to_string(),
        _ => format!("{bits:#x}"),
    }
}

/// How near an argument's object a pointer is told as it and an offset: 16 GiB, half the
/// span kept free around it (4 GiB per interpreter block).
pub(super) const NEAR: u128 = (ripple_interp::ISOLATION as u128) << 31;

/// `text` with each address (a hex number past 32 bits) in or near one of `bases` written
/// as [`pointer_text`] writes it.
fn relative_addresses(text: &str, bases: &[(String, u128)]) -> String {
    each_address(text, |bits| pointer_text(bits, bases))
}

/// A record or array value as C initialiser text, `{.x = 1, .z = -2}` (fields by name,
/// recursively, bit-fields by their bits; padding skipped).
pub(super) fn aggregate_text(program: &Program, ty: ripple_ir::TypeId, bytes: &[u8]) -> String {
    match program.types.get(ty) {
        // What `setjmp` saved is the implementation's (see `native::is_jump_buffer`).
        Type::Record(_) if native::is_jump_buffer(program, ty) => "<jmp_buf>".to_string(),
        Type::Record(index) => {
            let record = &program.types.records[*index as usize];
            let fields: Vec<String> = record
                .fields
                .iter()
                .filter(|f| !f.name.is_empty() || f.bit_field.is_none())
                .filter_map(|f| {
                    let start = f.offset as usize;
                    let end = start + program.types.size_of(f.ty) as usize;
                    let part = bytes.get(start..end)?;
                    let text = match f.bit_field {
                        Some((bit, width)) => bit_field_text(program, f.ty, part, bit, width),
                        None => aggregate_text(program, f.ty, part),
                    };
                    Some(format!(".{} = {text}", f.name))
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Type::Array { elem, len: Some(n) } => {
            let size = program.types.size_of(*elem) as usize;
            let items: Vec<String> = (0..*n as usize)
                .filter_map(|i| bytes.get(i * size..(i + 1) * size))
                .map(|part| aggregate_text(program, *elem, part))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        _ => scalar_text(program, ty, bytes),
    }
}

/// The value of a bit-field `width` bits wide at bit `bit` of its storage unit (of
/// type `unit`, little-endian `bytes`), signed as the unit is.
fn bit_field_text(
    program: &Program,
    unit: ripple_ir::TypeId,
    bytes: &[u8],
    bit: u32,
    width: u32,
) -> String {
    let mut word = [0u8; 16];
    let n = bytes.len().min(16);
    word[..n].copy_from_slice(&bytes[..n]);
    let all = u128::from_le_bytes(word);
    let width = width.clamp(1, 127);
    let value = (all >> bit.min(127)) & ((1u128 << width) - 1);
    if program.types.is_signed(unit) && value >> (width - 1) & 1 == 1 {
        format!("{}", value as i128 - (1i128 << width))
    } else {
        format!("{value}")
    }
}

/// Elements of an object shown at most; more are elided, saying how many.
const ELEMENTS_SHOWN: usize = 64;

/// What a returned pointer points to, as the caller can read it: the string of a
/// character pointer (to its terminating NUL, at most [`RETURNED_BYTES`]), else the
/// object of the pointee type. Two versions that return different strings from one
/// address differ; two that return the same string from two addresses differ only in
/// the address. Nothing when the pointer cannot be read (null, dangling, `void *`).
fn returned_object(
    interpreter: &Interpreter,
    program: &Program,
    pointer: &Value,
    pointee: ripple_ir::TypeId,
) -> Vec<(String, String)> {
    let character = program.types.size_of(pointee) == 1 && program.types.is_integer(pointee);
    if character {
        let mut bytes = Vec::new();
        while bytes.len() < RETURNED_BYTES {
            let at = Value::Int(pointer.as_u64() as u128 + bytes.len() as u128);
            match interpreter.read_memory(&at, 1) {
                Some(b) if b[0] != 0 => bytes.push(b[0]),
                Some(_) => break,
                None if bytes.is_empty() => return Vec::new(),
                None => break,
            }
        }
        return vec![(
            "*<return>".into(),
            format!("{:?}", String::from_utf8_lossy(&bytes)),
        )];
    }
    let size = program.types.size_of(pointee);
    if size == 0 || size > RETURNED_BYTES as u64 {
        return Vec::new();
    }
    match interpreter.read_memory(pointer, size) {
        Some(bytes) => vec![("*<return>".into(), scalar_text(program, pointee, &bytes))],
        None => Vec::new(),
    }
}

/// The most bytes of a returned object compared.
const RETURNED_BYTES: usize = 4096;

/// What a pointer parameter `name` points to, as witness entries: `*name` (the pointee,
/// a record or array whole by [`scalar_text`]) and, when the object holds more elements
/// of a scalar pointee (an array through a pointer), the others as `name[1..n]`, each
/// by [`scalar_text`], past [`ELEMENTS_SHOWN`] elided explicitly: always when `whole`
/// (the state after a run, so that both runs show the same entries), else only when
/// some of them is not zero (an input, whose zeros go without saying).
pub(super) fn pointee_entries(
    program: &Program,
    name: &str,
    pointee: ripple_ir::TypeId,
    bytes: &[u8],
    whole: bool,
) -> Vec<(String, String)> {
    // Characters read as the text they are (`buf = ":"`, not `*buf = 58`).
    if is_character(program, pointee) && !bytes.is_empty() {
        return vec![(name.to_string(), character_text(bytes))];
    }
    let mut entries = vec![(format!("*{name}"), scalar_text(program, pointee, bytes))];
    let size = program.types.size_of(pointee) as usize;
    let count = bytes.len() / size.max(1);
    if !program.types.is_scalar(pointee) || size == 0 || count < 2 {
        return entries;
    }
    let rest = &bytes[size..count * size];
    if !whole && rest.iter().all(|b| *b == 0) {
        return entries;
    }
    let mut items: Vec<String> = rest
        .chunks(size)
        .take(ELEMENTS_SHOWN)
        .map(|element| scalar_text(program, pointee, element))
        .collect();
    if count - 1 > ELEMENTS_SHOWN {
        items.push(format!("... ({} more)", count - 1 - ELEMENTS_SHOWN));
    }
    entries.push((
        format!("{name}[1..{count}]"),
        format!("{{{}}}", items.join(", ")),
    ));
    entries
}

/// Whether `ty` is a character type (`char`, `signed char`, `unsigned char`).
fn is_character(program: &Program, ty: ripple_ir::TypeId) -> bool {
    matches!(
        program.types.get(ty),
        Type::Int(ripple_ir::IntKind::Char | ripple_ir::IntKind::SChar | ripple_ir::IntKind::UChar)
    )
}

/// A character buffer as a C string literal: up to its first NUL when the rest is zero,
/// else up to its last nonzero byte with the count (a function reading the buffer as
/// bytes sees what follows a NUL); a buffer without a NUL says so (what a function
/// reading past it sees is not in the literal).
fn character_text(bytes: &[u8]) -> String {
    let nul = bytes.iter().position(|b| *b == 0);
    let last = bytes.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
    let (shown, note) = match nul {
        Some(k) if bytes[k..].iter().all(|b| *b == 0) => (&bytes[..k], String::new()),
        Some(_) if last < bytes.len() => (
            &bytes[..last],
            format!(" ({} bytes, the rest zero)", bytes.len()),
        ),
        Some(_) => (bytes, format!(" ({} bytes)", bytes.len())),
        None => (
            bytes,
            format!(" ({} bytes, no terminating NUL)", bytes.len()),
        ),
    };
    const SHOWN: usize = 64;
    let mut text = String::from("\"");
    for &b in shown.iter().take(SHOWN) {
        match b {
            b'"' => text.push_str("\\\""),
            b'\\' => text.push_str("\\\\"),
            b'\n' => text.push_str("\\n"),
            b'\t' => text.push_str("\\t"),
            0 => text.push_str("\\0"),
            0x20..=0x7e => text.push(b as char),
            _ => text.push_str(&format!("\\x{b:02x}")),
        }
    }
    text.push('"');
    if shown.len() > SHOWN {
        text.push_str(&format!(" ... ({} more)", shown.len() - SHOWN));
    }
    text + &note
}

pub(super) fn scalar_text(program: &Program, ty: ripple_ir::TypeId, bytes: &[u8]) -> String {
    if program.types.is_scalar(ty) {
        let size = program.types.size_of(ty) as usize;
        let mut bits = 0u128;
        for (i, b) in bytes.iter().take(size.min(16)).enumerate() {
            bits |= u128::from(*b) << (8 * i);
        }
        value_text(program, ty, bits)
    } else {
        // A record or an array by its fields or elements; other bytes (an object of
        // void or incomplete type) as bytes, saying when there are more than shown.
        let size = program.types.size_of(ty) as usize;
        let aggregate = matches!(
            program.types.get(ty),
            Type::Record(_) | Type::Array { len: Some(_), .. }
        );
        if aggregate && size > 0 && bytes.len() >= size {
            return aggregate_text(program, ty, &bytes[..size]);
        }
        const SHOWN: usize = 64;
        let more = if bytes.len() > SHOWN { " ..." } else { "" };
        format!("{:?}{more}", &bytes[..bytes.len().min(SHOWN)])
    }
}

/// The two runs without the globals neither changed: those both leave alike (or that
/// one leaves as given while the other stopped without a final state). Every input
/// global is in the final state, so a function touching one of a large program's
/// globals would otherwise show them all. The runs compare as before: what is dropped
/// is equal in both, or beside a result that differs.
fn without_untouched_globals(mut old: Observed, mut new: Observed) -> (Observed, Observed) {
    let value = |o: &Observed, name: &str| {
        o.state
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let stopped = |o: &Observed| o.state.is_empty() && !o.result.starts_with("returned");
    let drop: Vec<String> = old
        .untouched
        .iter()
        .chain(&new.untouched)
        .filter(|name| {
            let (a, b) = (value(&old, name), value(&new, name));
            let left = |o: &Observed| o.untouched.contains(name);
            match (a, b) {
                (Some(a), Some(b)) => a == b && left(&old) && left(&new),
                (Some(_), None) => left(&old) && stopped(&new),
                (None, Some(_)) => left(&new) && stopped(&old),
                (None, None) => false,
            }
        })
        .cloned()
        .collect();
    for o in [&mut old, &mut new] {
        o.state.retain(|(name, _)| !drop.contains(name));
    }
    (old, new)
}

/// The program laid out for a run (globals initialised) with the step limit of
/// `config`'s replays; the reason when it cannot be.
/// The traps of undefined behaviour a run goes through, which compiled code need not
/// share: it may fold a division it knows traps or drop a dead one, and takes
/// `__builtin_unreachable` as a promise.
const UNDEFINED_TRAPS: [&str; 3] = [
    "division by zero",
    "signed division overflow",
    "__builtin_unreachable reached",
];

pub(super) fn laid_out<'p>(
    program: &'p Program,
    side: Side,
    config: &SemdiffConfig,
) -> Result<Interpreter<'p>, String> {
    let mut run = RunConfig {
        max_steps: config.replay_steps,
        ..RunConfig::default()
    };
    if let Some(dir) = config.run_dirs[side.index()].path() {
        run.working_dir = dir.to_path_buf();
    }
    Interpreter::new(program, &run).map_err(|t| format!("not run: {t:?}"))
}

pub(super) fn replay(
    program: &Program,
    side: Side,
    func: FuncId,
    args: &[ReplayArg],
    pointees: &Pointees,
    globals: &[(String, Vec<u8>)],
    config: &SemdiffConfig,
) -> Observed {
    replay_from(
        laid_out(program, side, config),
        program,
        func,
        args,
        pointees,
        globals,
        config,
    )
}

/// [`replay`] from a laid-out program (a clone of one serves every input of a search).
pub(super) fn replay_from(
    start: Result<Interpreter<'_>, String>,
    program: &Program,
    func: FuncId,
    args: &[ReplayArg],
    pointees: &Pointees,
    globals: &[(String, Vec<u8>)],
    config: &SemdiffConfig,
) -> Observed {
    let mut interpreter = match start {
        Ok(i) => i,
        Err(reason) => {
            return Observed {
                result: reason,
                stdout: String::new(),
                state: Vec::new(),
                untouched: Vec::new(),
                limited: true,
                undefined: None,
                through: Vec::new(),
                steps: 0,
            }
        }
    };
    interpreter.set_step_limit(config.replay_steps);
    for (key, bytes) in globals {
        if let Some((id, _)) = program
            .globals
            .iter_enumerated()
            .find(|(_, g)| &g.key == key)
        {
            let _ = interpreter.write_global(id, bytes);
        }
    }
    let function = &program.functions[func];
    let mut values = Vec::new();
    let mut pointers = Vec::new();
    // Objects first, so that an alias may name a later argument's object.
    // Each holds its bytes before the pointer first; an object's value is its pointer.
    let objects: Vec<Option<Value>> = args
        .iter()
        .map(|arg| match arg {
            ReplayArg::Pointer { bytes, before, .. } => {
                let whole = [&before[..], &bytes[..]].concat();
                Some(match interpreter.alloc_isolated(&whole) {
                    Some(Value::Int(base)) => Value::Int(base + before.len() as u128),
                    _ => Value::Int(0),
                })
            }
            _ => None,
        })
        .collect();
    let inner = pointees::place(&mut interpreter, pointees, &objects);
    // The arguments were made for the old version: a pointee is shown by this
    // version's own type of the parameter (a type id means another type in a program
    // with other headers: json-c's `struct printbuf` shown as `imaxdiv_t`).
    let own_pointee = |ty: Option<ripple_ir::TypeId>| ty.and_then(|t| program.types.pointee(t));
    let param_name = |i: usize| {
        function
            .params
            .get(i)
            .map_or("?".into(), |v| function.locals[*v].name.clone())
    };
    let mut befores: Vec<(String, Value, u64)> = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let ty = function.params.get(i).map(|v| function.locals[*v].ty);
        match arg {
            ReplayArg::Scalar { bits, ty: arg_ty } => {
                let ty = ty.unwrap_or(*arg_ty);
                values.push(match program.types.get(ty) {
                    Type::Float(ripple_ir::FloatKind::Float) => {
                        Value::F32(f32::from_bits(*bits as u32))
                    }
                    Type::Float(_) => Value::F64(f64::from_bits(*bits as u64)),
                    _ => Value::Int(*bits),
                });
            }
            ReplayArg::Aggregate { bytes, .. } => {
                values.push(Value::Bytes(bytes.clone().into_boxed_slice()));
            }
            ReplayArg::Function { key } => {
                let target = program
                    .functions
                    .iter_enumerated()
                    .find(|(_, g)| &g.key == key);
                values.push(target.map_or(Value::Int(0), |(g, _)| interpreter.function_address(g)));
            }
            ReplayArg::Pointer {
                bytes,
                pointee,
                before,
            } => {
                let pointer = objects[i].clone().unwrap_or(Value::Int(0));
                let pointee = own_pointee(ty).unwrap_or(*pointee);
                let name = param_name(i);
                if !before.is_empty() {
                    if let Value::Int(at) = pointer {
                        let start = Value::Int(at - before.len() as u128);
                        befores.push((name.clone(), start, before.len() as u64));
                    }
                }
                pointers.push((name, pointer.clone(), bytes.len() as u64, pointee));
                values.push(pointer);
            }
            ReplayArg::Alias {
                of,
                offset,
                pointee,
            } => {
                let (Some(Some(Value::Int(base))), Some(ReplayArg::Pointer { bytes, .. })) =
                    (objects.get(*of), args.get(*of))
                else {
                    values.push(Value::Int(0));
                    continue;
                };
                let pointer = Value::Int(base + u128::from(*offset));
                let len = (bytes.len() as u64).saturating_sub(*offset);
                let pointee = own_pointee(ty).unwrap_or(*pointee);
                pointers.push((param_name(i), pointer.clone(), len, pointee));
                values.push(pointer);
            }
        }
    }
    // The objects of pointer arguments, by parameter name: addresses in or near them are
    // shown, and compared, relative to them.
    let mut bases: Vec<(String, u128)> = args
        .iter()
        .zip(&objects)
        .enumerate()
        .filter_map(|(i, (arg, object))| match (arg, object) {
            (ReplayArg::Pointer { .. }, Some(Value::Int(base))) => {
                let v = function.params.get(i)?;
                Some((function.locals[*v].name.clone(), *base))
            }
            _ => None,
        })
        .collect();
    // The objects pointer members reach are named as C names them (`strm->state`),
    // each shown by this version's type of it (the witness was made with the old
    // version's types).
    let mut reached = Vec::new();
    let types = pointees::object_types(program, func, pointees);
    for ((object, pointer), ty) in pointees.objects.iter().zip(&inner).zip(types) {
        if let Some(Value::Int(base)) = pointer {
            bases.push((object.name.clone(), *base));
            reached.push((
                object.name.clone(),
                Value::Int(*base),
                object.bytes.len() as u64,
                ty,
            ));
        }
    }
    let outcome = interpreter.call(func, &values, &mut ripple_interp::NoObserver);
    let result = match &outcome.result {
        CallResult::Returned(None) => "returned".to_string(),
        CallResult::Returned(Some(v)) => {
            let ty = function.return_type(&program.types);
            match v {
                Value::Int(bits) if program.types.pointee(ty).is_some() => {
                    format!("returned {}", pointer_text(*bits, &bases))
                }
                Value::Int(bits) => format!("returned {}", value_text(program, ty, *bits)),
                Value::F32(f) => format!("returned {f:?}"),
                Value::F64(f) => format!("returned {f:?}"),
                Value::Bytes(b) => format!("returned {b:?}"),
            }
        }
        CallResult::Stopped(ripple_interp::Termination::StepLimit) => {
            format!("no termination within {} steps", config.replay_steps)
        }
        CallResult::Stopped(ripple_interp::Termination::Exit(code)) => format!("exit {code}"),
        CallResult::Stopped(ripple_interp::Termination::Trap { message, .. }) => {
            format!("trap: {message}")
        }
        CallResult::Stopped(other) => format!("stopped: {other:?}"),
    };
    let mut state = Vec::new();
    let mut untouched = Vec::new();
    if let CallResult::Returned(Some(pointer @ Value::Int(_))) = &outcome.result {
        let ty = function.return_type(&program.types);
        if let Some(pointee) = program.types.pointee(ty) {
            state.extend(returned_object(&interpreter, program, pointer, pointee));
        }
    }
    if matches!(outcome.result, CallResult::Returned(_)) {
        for (name, start, len) in &befores {
            if let Some(bytes) = interpreter.read_memory(start, *len) {
                state.extend(before_entries(name, &bytes));
            }
        }
        for (name, pointer, len, ty) in &reached {
            if let Some(bytes) = interpreter.read_memory(pointer, *len) {
                state.extend(object_entries(program, name, *ty, &bytes, true));
                state.push((format!("{name}[..]"), format!("{bytes:?}")));
            }
        }
        for (name, pointer, len, pointee) in &pointers {
            if let Some(bytes) = interpreter.read_memory(pointer, *len) {
                state.extend(pointee_entries(program, name, *pointee, &bytes, true));
                // The raw bytes compare the runs; not those of a jump buffer.
                if !native::holds_jump_buffer(program, *pointee) {
                    state.push((format!("{name}[..]"), format!("{bytes:?}")));
                }
            }
        }
        for (key, given) in globals {
            if let Some((id, g)) = program
                .globals
                .iter_enumerated()
                .find(|(_, g)| &g.key == key)
            {
                if let Some(bytes) = interpreter.read_global(id) {
                    if bytes == *given {
                        untouched.push(g.name.clone());
                    }
                    state.push((g.name.clone(), scalar_text(program, g.ty, &bytes)));
                }
            }
        }
    }
    // Exits and traps are behaviours of the program; a step limit or an unsupported
    // construct is a limit of the replay.
    let limited = matches!(
        outcome.result,
        CallResult::Stopped(
            ripple_interp::Termination::StepLimit | ripple_interp::Termination::Unsupported { .. }
        )
    );
    let undefined = match &outcome.result {
        CallResult::Stopped(ripple_interp::Termination::Trap { message, .. })
            if [
                "out-of-bounds",
                "freed or out-of-scope",
                "invalid pointer",
                // Compiled code reads whatever the registers or the stack hold.
                "va_arg past the last variadic argument",
            ]
            .iter()
            .chain(&UNDEFINED_TRAPS)
            .any(|k| message.contains(k)) =>
        {
            Some(message.clone())
        }
        _ => None,
    };
    // gcc folds a shift by a constant count out of range (to 0) even at -O0, where the
    // interpreter, like the machine, masks the count: only compiled code can tell.
    let undefined = undefined.or_else(|| {
        interpreter
            .undefined()
            .contains(&ripple_interp::Undefined::ShiftCount)
            .then(|| ripple_interp::Undefined::ShiftCount.name().to_string())
    });
    let mut through: Vec<&'static str> = interpreter.undefined().iter().map(|u| u.name()).collect();
    if let CallResult::Stopped(ripple_interp::Termination::Trap { message, .. }) = &outcome.result {
        for kind in UNDEFINED_TRAPS {
            if message.contains(kind) {
                through.push(kind);
            }
        }
    }
    // Pointer members holding addresses in or near the arguments' objects (a cursor
    // advanced through a buffer) name them; the raw bytes keep the addresses.
    for (key, text) in &mut state {
        if !key.ends_with("[..]") {
            *text = relative_addresses(text, &bases);
        }
    }
    // What the run wrote to stderr is output like stdout: one more part of the final
    // state (the compiled drivers send it into their output too).
    if !outcome.stderr.is_empty() {
        state.push((
            "stderr".to_string(),
            format!("{:?}", String::from_utf8_lossy(&outcome.stderr)),
        ));
    }
    Observed {
        result,
        stdout: String::from_utf8_lossy(&outcome.stdout).into_owned(),
        state,
        untouched,
        limited,
        undefined,
        through,
        steps: interpreter.steps(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(limited: bool) -> Observed {
        Observed {
            result: if limited {
                "no termination within 200000 steps".into()
            } else {
                "returned 1".into()
            },
            stdout: String::new(),
            state: Vec::new(),
            untouched: Vec::new(),
            limited,
            undefined: None,
            through: Vec::new(),
            steps: 0,
        }
    }

    /// The pointee of a parameter: `int *a` points to an array of 16 ints in a
    /// replay; its state shows all of them (the one that differs, a[2], included), its
    /// input only the elements that are not zero; past 64 elements the rest is elided,
    /// saying how many.
    #[test]
    fn a_pointed_to_array_is_shown_whole() {
        let unit = ripple_c::TranslationUnit {
            path: "t.c".into(),
            text: "void f(int *a, char *c) { a[2] = 1; c[0] = 0; }\n".into(),
            line_map: None,
        };
        let program = ripple_c::lower_units(&[unit], &ripple_c::FrontendConfig::default()).program;
        let function = program.functions.iter().find(|f| f.name == "f").unwrap();
        let pointee = |i: usize| match program.types.get(function.locals[function.params[i]].ty) {
            Type::Pointer(p) => *p,
            _ => panic!("a pointer parameter"),
        };
        let mut bytes = vec![0u8; 64];
        bytes[8] = 1;
        let state = pointee_entries(&program, "a", pointee(0), &bytes, true);
        assert_eq!(
            state,
            vec![
                ("*a".to_string(), "0".to_string()),
                (
                    "a[1..16]".to_string(),
                    "{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}".to_string()
                ),
            ]
        );
        assert_eq!(
            pointee_entries(&program, "a", pointee(0), &bytes, false),
            state
        );
        let zeros = vec![0u8; 64];
        assert_eq!(
            pointee_entries(&program, "a", pointee(0), &zeros, false).len(),
            1,
            "an input's zeros go without saying"
        );
        // Characters as a C string literal, the one entry of their buffer: `c = ":"`,
        // not `*c = 58` beside it.
        let chars = vec![7u8; 100];
        let shown = pointee_entries(&program, "c", pointee(1), &chars, true);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].0, "c");
        assert!(
            shown[0]
                .1
                .ends_with("\\x07\" ... (36 more) (100 bytes, no terminating NUL)"),
            "{}",
            shown[0].1
        );
        let text = b"4:\"a\\\n\0\0\0";
        let shown = pointee_entries(&program, "c", pointee(1), text, true);
        assert_eq!(shown[0].1, "\"4:\\\"a\\\\\\n\"");
        let shown = pointee_entries(&program, "c", pointee(1), b"ab\0c", true);
        assert_eq!(shown[0].1, "\"ab\\0c\" (4 bytes)");
        let mut colon = vec![0u8; 64];
        colon[0] = b':';
        assert_eq!(
            pointee_entries(&program, "c", pointee(1), &colon, false),
            vec![("c".to_string(), "\":\"".to_string())]
        );
    }

    /// Two runs whose only difference is where each allocated a block (json-c 9782370:
    /// a declaration moved into a block, so the other version numbers its objects
    /// apart) agree up to addresses; a run that stores another address where the other
    /// stores the same one twice does not. The compiled versions of such runs, which
    /// differ (one crashes: the code turns the address of a buffer into an offset),
    /// confirm nothing.
    #[test]
    fn runs_that_differ_only_in_addresses_confirm_nothing() {
        let run = |state: &[(&str, &str)]| Observed {
            state: state
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..replay(false)
        };
        let old = run(&[("*p", "{.buf = 0x10400000000, .bpos = 2, .size = 11}")]);
        let new = run(&[("*p", "{.buf = 0x10600000000, .bpos = 2, .size = 11}")]);
        assert!(only_addresses_differ(&old, &new));
        let old_twice = run(&[("*p", "{.a = 0x10400000000, .b = 0x10400000000}")]);
        let new_apart = run(&[("*p", "{.a = 0x10600000000, .b = 0x10700000000}")]);
        assert!(!only_addresses_differ(&old_twice, &new_apart));
        // The object's bytes hold the address too, little-endian.
        let bytes = |a: u8| format!("[0, 0, 0, 0, {a}, 1, 0, 0, 2, 0, 0, 0, 11, 0, 0, 0]");
        let (old_bytes, new_bytes) = (bytes(4), bytes(6));
        let old = run(&[
            ("*p", "{.buf = 0x10400000000, .bpos = 2, .size = 11}"),
            ("p[..]", &old_bytes),
        ]);
        let new = run(&[
            ("*p", "{.buf = 0x10600000000, .bpos = 2, .size = 11}"),
            ("p[..]", &new_bytes),
        ]);
        assert!(only_addresses_differ(&old, &new));
        let other_size = run(&[("*p", "{.buf = 0x10600000000, .bpos = 2, .size = 12}")]);
        assert!(!only_addresses_differ(&old, &other_size));
        assert_eq!(
            compiled_verdict(["| 1 |exit 0", " |signal 11"], [&old, &new]),
            Some(Unconfirmed::CompiledOnly)
        );
        assert_eq!(
            compiled_verdict(["| 1 |exit 0", " |signal 11"], [&old, &other_size]),
            None
        );
    }

    /// A recursive version dies of a stack overflow on an input the interpreter cannot
    /// finish (factorial of 12 million), while a loop returns: no confirmation. The same
    /// crash on a run the interpreter finished (a null dereference) confirms.
    #[test]
    fn a_crash_confirms_only_where_the_interpreter_finished() {
        let crashed = "|signal 11";
        let returned = "r 00000000 |exit 0";
        assert_eq!(
            compiled_verdict([crashed, returned], [&replay(true), &replay(true)]),
            Some(Unconfirmed::CompiledCrashPastLimit)
        );
        assert_eq!(
            compiled_verdict([crashed, returned], [&replay(false), &replay(true)]),
            None
        );
        assert_eq!(
            compiled_verdict([returned, returned], [&replay(false), &replay(false)]),
            Some(Unconfirmed::CompiledAgree)
        );
        assert_eq!(
            compiled_verdict(["|signal 14", returned], [&replay(false), &replay(false)]),
            Some(Unconfirmed::CompiledTimeout)
        );
    }

    /// A global neither run changed is not shown; one that either run changed, or that
    /// ends differently, is, and the runs compare as before.
    #[test]
    fn globals_no_run_changed_are_not_shown() {
        let run = |result: &str, state: &[(&str, &str)], untouched: &[&str]| Observed {
            result: result.into(),
            state: state
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            untouched: untouched.iter().map(|n| n.to_string()).collect(),
            ..replay(false)
        };
        let old = run(
            "returned 1",
            &[("hooks", "0"), ("count", "2"), ("*p", "3")],
            &["hooks"],
        );
        let new = run(
            "returned 1",
            &[("hooks", "0"), ("count", "2"), ("*p", "4")],
            &["hooks", "count"],
        );
        let (a, b) = without_untouched_globals(old.clone(), new.clone());
        assert_eq!(a.state.len(), 2, "{:?}", a.state);
        assert_eq!(b.state.len(), 2, "{:?}", b.state);
        assert!(a.state.iter().all(|(n, _)| n != "hooks"));
        assert_eq!(a != b, old != new);
        // The other version trapped, without a final state: the untouched globals go.
        let trapped = run("trap: out-of-bounds access", &[], &[]);
        let (_, b) = without_untouched_globals(trapped, new);
        assert_eq!(b.state, vec![("*p".to_string(), "4".to_string())]);
        // Untouched in both but ending differently (each version's own initial value):
        // kept.
        let old = run("returned 1", &[("limit", "10")], &["limit"]);
        let new = run("returned 1", &[("limit", "20")], &["limit"]);
        let (a, b) = without_untouched_globals(old, new);
        assert_eq!((a.state.len(), b.state.len()), (1, 1));
    }

    /// Both replays trap alike (the same out-of-bounds read, the same state): no
    /// difference was seen, so the input ran the same (libyaml's sdstrim showed such an
    /// input as a witness "through undefined behaviour"). One trapping alone still goes
    /// through undefined behaviour.
    #[test]
    fn replays_that_trap_alike_ran_the_same() {
        let trapped = || Observed {
            result: "trap: out-of-bounds access of 1 bytes at offset 4294967295".into(),
            undefined: Some("out-of-bounds access".into()),
            ..replay(false)
        };
        let input = || ReplayInput {
            args: Vec::new(),
            globals: Default::default(),
            pointees: Pointees::default(),
        };
        let alike = Witness::replayed(Vec::new(), trapped(), trapped(), "output", input());
        assert_eq!(alike.unconfirmed, Some(Unconfirmed::SameOutcome));
        let one = Witness::replayed(Vec::new(), trapped(), replay(false), "output", input());
        assert_eq!(one.unconfirmed, Some(Unconfirmed::UndefinedBehaviour));
    }

    /// Both versions read a variadic argument never passed: the compiled versions
    /// return what the registers held, which differs by chance, not by the change. One
    /// version alone stopping on it is a difference the compiled runs may confirm.
    #[test]
    fn the_same_undefined_behaviour_in_both_confirms_nothing() {
        let trapped = || Observed {
            result: "trap: va_arg past the last variadic argument".into(),
            undefined: Some("va_arg past the last variadic argument".into()),
            ..replay(false)
        };
        let (a, b) = ("r 00000005 |exit 0", "r 00000007 |exit 0");
        assert_eq!(
            compiled_verdict([a, b], [&trapped(), &trapped()]),
            Some(Unconfirmed::UndefinedBehaviour)
        );
        assert_eq!(compiled_verdict([a, b], [&trapped(), &replay(false)]), None);
        // The same trap compiled too (an invented pointer in an input, libexif): the
        // versions agree there, which is no witness through undefined behaviour.
        let crash = " |signal 11";
        assert_eq!(
            compiled_verdict([crash, crash], [&trapped(), &trapped()]),
            Some(Unconfirmed::CompiledAgree)
        );
    }
}
