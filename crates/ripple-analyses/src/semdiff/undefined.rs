//! Undefined behaviour that a change adds or removes on a pair proved equivalent.
//!
//! The summaries compute signed arithmetic as it wraps (what `gcc -fwrapv` builds do),
//! so a fix of a signed overflow (`-val` with `val == INT64_MIN` replaced by
//! `0 - (uint64_t)val`) is equivalent under them. C leaves that overflow undefined
//! (C11 6.5p5), and an optimising compiler may assume it never happens: the old
//! version's result there is not the wrapped one in every build. Each path summary says
//! on which inputs its own code overflows ([`ripple_symex::PathSummary::undefined`]);
//! an input on which one version overflows and the other does not is replayed on both,
//! and the report says what the replays show.

use super::*;

/// A note for an equivalent pair when one version's own code overflows a signed
/// integer on inputs where the other's does not: the input, and which version, as the
/// replays show it; `None` when the summaries show no such input (callees' arithmetic
/// and proved loops are not looked into).
pub(super) fn overflow_note(
    engine: &mut Engine,
    state: &PairState,
    assume: &Bool,
    config: &SemdiffConfig,
) -> Option<String> {
    let overflows = |engine: &Engine, side: Side, func: FuncId| -> Bool {
        let paths: Vec<Bool> = engine.summary(side, func).map_or(Vec::new(), |s| {
            s.paths
                .iter()
                .filter(|p| p.undefined.as_bool() != Some(false))
                .map(|p| Bool::and(&[&p.reach, &p.undefined]))
                .collect()
        });
        or_all(&paths)
    };
    let old = overflows(engine, Side::Old, state.old);
    let new = overflows(engine, Side::New, state.new);
    for (side, only) in [
        (Side::Old, Bool::and(&[&old, &new.not()])),
        (Side::New, Bool::and(&[&new, &old.not()])),
    ] {
        if only.simplify().as_bool() == Some(false) {
            continue;
        }
        if engine.smt.check(&[assume.clone(), only.clone()]) != Answer::Sat {
            continue;
        }
        let (version, other) = match side {
            Side::Old => ("old", "new"),
            Side::New => ("new", "old"),
        };
        let replayed = witness(engine, state, &only, assume, "output", config);
        let overflowed = |o: &Observed| o.through.contains(&"signed overflow");
        let shown = replayed.filter(|w| {
            let (this, that) = match side {
                Side::Old => (&w.old, &w.new),
                Side::New => (&w.new, &w.old),
            };
            overflowed(this) && !overflowed(that)
        });
        let consequence = match side {
            Side::Old => "the change removes undefined behaviour",
            Side::New => "the change adds undefined behaviour",
        };
        return Some(match shown {
            Some(w) => format!(
                "equivalent where signed arithmetic wraps (-fwrapv), as the analysis \
                 assumes: the {version} version overflows a signed integer where the \
                 {other} does not, e.g. on {} (replayed), which C leaves undefined; \
                 {consequence}",
                w.inputs
                    .iter()
                    .map(|(name, value)| format!("{name} = {value}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!(
                "equivalent where signed arithmetic wraps (-fwrapv), as the analysis \
                 assumes: the {version} version may overflow a signed integer where the \
                 {other} does not (the solver finds such inputs, with what the callees \
                 return left open; no replay showed one), which C leaves undefined"
            ),
        });
    }
    None
}
