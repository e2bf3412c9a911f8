//! Procedure matching: which function of the old version is which of the new.
//!
//! Gyori et al., ISSTA 2017, section 3.1 assumes the two versions *normalised* so that
//! every procedure has a counterpart; this module computes that correspondence:
//!
//! 1. **By key.** A function's key is its name, or `path:name` for a `static` function,
//!    so externals match by name and statics by file and name.
//! 2. **By name.** Functions still unmatched are paired when their name is unique among
//!    the unmatched functions of each side: a static function whose file was renamed, or
//!    a function that became static (or stopped being static).
//! 3. **By body (renames).** The remaining pairs whose token-bag similarity
//!    ([`crate::similarity`]) reaches the threshold are paired greedily, best first, ties
//!    broken by keys; such a pair is reported as renamed. This is the usual
//!    best-match-first assignment of rename detectors (e.g. Kim, Pan, Whitehead, "When
//!    functions change their names", WCRE 2005).
//!
//! Only defined functions take part: declarations of externals are not compared, and a
//! function that becomes defined (or undefined) is added (or removed).

use ripple_ir::{FuncId, Program};
use rustc_hash::FxHashMap;

use crate::similarity::TokenBag;

/// How a pair was formed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PairKind {
    Key,
    Name,
    Renamed { similarity: f64 },
    Added,
    Removed,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ProcedurePair {
    pub(crate) old: Option<FuncId>,
    pub(crate) new: Option<FuncId>,
    pub(crate) kind: PairKind,
}

/// Pairs the defined functions of two programs.
pub(crate) fn match_procedures(
    old: &Program,
    new: &Program,
    rename_threshold: f64,
) -> Vec<ProcedurePair> {
    let defined = |program: &Program| -> Vec<FuncId> {
        let mut ids: Vec<FuncId> = program
            .functions
            .iter_enumerated()
            .filter(|(_, f)| f.is_defined())
            .map(|(id, _)| id)
            .collect();
        ids.sort_by(|&x, &y| {
            program.functions[x]
                .key
                .cmp(&program.functions[y].key)
                .then(x.cmp(&y))
        });
        ids
    };
    let old_defined = defined(old);
    let new_defined = defined(new);
    let mut pairs = Vec::new();
    let mut old_taken = vec![false; old.functions.len()];
    let mut new_taken = vec![false; new.functions.len()];

    // 1. By key.
    let new_by_key: FxHashMap<&str, FuncId> = new_defined
        .iter()
        .map(|&id| (new.functions[id].key.as_str(), id))
        .collect();
    for &o in &old_defined {
        if let Some(&n) = new_by_key.get(old.functions[o].key.as_str()) {
            if !new_taken[n.index()] {
                old_taken[o.index()] = true;
                new_taken[n.index()] = true;
                pairs.push(ProcedurePair {
                    old: Some(o),
                    new: Some(n),
                    kind: PairKind::Key,
                });
            }
        }
    }

    // 2. By name, when unique among the unmatched functions of both sides.
    let unmatched_by_name = |program: &Program, ids: &[FuncId], taken: &[bool]| {
        let mut by_name: FxHashMap<String, Vec<FuncId>> = FxHashMap::default();
        for &id in ids {
            if !taken[id.index()] {
                by_name
                    .entry(program.functions[id].name.clone())
                    .or_default()
                    .push(id);
            }
        }
        by_name
    };
    let old_by_name = unmatched_by_name(old, &old_defined, &old_taken);
    let new_by_name = unmatched_by_name(new, &new_defined, &new_taken);
    for &o in &old_defined {
        if old_taken[o.index()] {
            continue;
        }
        let name = &old.functions[o].name;
        if let (Some([_]), Some(&[n])) = (
            old_by_name.get(name).map(Vec::as_slice),
            new_by_name.get(name).map(Vec::as_slice),
        ) {
            old_taken[o.index()] = true;
            new_taken[n.index()] = true;
            pairs.push(ProcedurePair {
                old: Some(o),
                new: Some(n),
                kind: PairKind::Name,
            });
        }
    }

    // 3. Renames, by body similarity, best first.
    let old_rest: Vec<(FuncId, TokenBag)> = old_defined
        .iter()
        .filter(|id| !old_taken[id.index()])
        .filter_map(|&id| TokenBag::of_function(&old.functions[id]).map(|bag| (id, bag)))
        .collect();
    let new_rest: Vec<(FuncId, TokenBag)> = new_defined
        .iter()
        .filter(|id| !new_taken[id.index()])
        .filter_map(|&id| TokenBag::of_function(&new.functions[id]).map(|bag| (id, bag)))
        .collect();
    let mut candidates: Vec<(f64, FuncId, FuncId)> = Vec::new();
    for (o, old_bag) in &old_rest {
        for (n, new_bag) in &new_rest {
            // A rename keeps what a call passes: as many parameters, of the same kinds
            // (a `char *, const char *` helper removed is no `double, char *` one added).
            if signature(old, *o) != signature(new, *n) {
                continue;
            }
            let similarity = old_bag.dice(new_bag);
            if similarity >= rename_threshold {
                candidates.push((similarity, *o, *n));
            }
        }
    }
    candidates.sort_by(|x, y| {
        y.0.total_cmp(&x.0)
            .then_with(|| old.functions[x.1].key.cmp(&old.functions[y.1].key))
            .then_with(|| new.functions[x.2].key.cmp(&new.functions[y.2].key))
            .then(x.1.cmp(&y.1))
            .then(x.2.cmp(&y.2))
    });
    for (similarity, o, n) in candidates {
        if old_taken[o.index()] || new_taken[n.index()] {
            continue;
        }
        old_taken[o.index()] = true;
        new_taken[n.index()] = true;
        pairs.push(ProcedurePair {
            old: Some(o),
            new: Some(n),
            kind: PairKind::Renamed { similarity },
        });
    }

    // 4. The rest was removed or added.
    for &o in &old_defined {
        if !old_taken[o.index()] {
            pairs.push(ProcedurePair {
                old: Some(o),
                new: None,
                kind: PairKind::Removed,
            });
        }
    }
    for &n in &new_defined {
        if !new_taken[n.index()] {
            pairs.push(ProcedurePair {
                old: None,
                new: Some(n),
                kind: PairKind::Added,
            });
        }
    }
    pairs
}

/// What a call passes a function, by kind: per parameter pointer, integer, floating or
/// aggregate.
fn signature(program: &Program, f: FuncId) -> Vec<u8> {
    let function = &program.functions[f];
    function
        .params
        .iter()
        .map(|&p| match program.types.get(function.locals[p].ty) {
            ripple_ir::Type::Pointer(_) | ripple_ir::Type::Function { .. } => 0,
            ripple_ir::Type::Int(_) => 1,
            ripple_ir::Type::Float(_) => 2,
            _ => 3,
        })
        .collect()
}
