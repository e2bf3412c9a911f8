//! Matching of global variables (definitions at file scope, external or `static`) across
//! two versions: added, removed, or modified (type or initial contents changed).
//!
//! Globals are paired by key; file-scoped statics (keyed `unit:name`) that are left over
//! are paired by their name within the unit when that name is unique on both sides, so
//! a renamed file keeps its statics. String literals and the static locals of functions
//! are not listed: a change to them is a change of the function that holds them.
//! Contents are compared on a canonical rendering of the initializer in which addresses
//! name their targets by key (string literals by contents), so renumbered ids between
//! the two programs do not count as changes.

use std::fmt::Write;

use ripple_ir::{Expr, ExprKind, Global, GlobalId, InitItem, Linkage, Program};
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GlobalStatus {
    Unchanged,
    Modified,
    Added,
    Removed,
}

/// One global of either version and its counterpart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalMatch {
    pub old: Option<GlobalId>,
    pub new: Option<GlobalId>,
    pub status: GlobalStatus,
}

/// Pairs the defined globals of two programs, sorted by key.
pub fn match_globals(old: &Program, new: &Program) -> Vec<GlobalMatch> {
    pair_globals(old, new, &definitions(old), &definitions(new))
}

/// Pairs every global of two programs, string literals and static locals of functions
/// included (for analyses that follow values through memory): by key, then statics by
/// their name within the unit when unique on both sides.
pub fn match_all_globals(old: &Program, new: &Program) -> Vec<GlobalMatch> {
    let all = |p: &Program| -> Vec<GlobalId> { p.globals.ids().collect() };
    pair_globals(old, new, &all(old), &all(new))
}

fn pair_globals(
    old: &Program,
    new: &Program,
    old_defs: &[GlobalId],
    new_defs: &[GlobalId],
) -> Vec<GlobalMatch> {
    let mut new_by_key: FxHashMap<&str, GlobalId> = new_defs
        .iter()
        .map(|&g| (new.globals[g].key.as_str(), g))
        .collect();
    let mut unmatched_old = Vec::new();
    let mut pairs = Vec::new();
    for &g in old_defs {
        match new_by_key.remove(old.globals[g].key.as_str()) {
            Some(n) => pairs.push((Some(g), Some(n))),
            None => unmatched_old.push(g),
        }
    }
    // Leftover statics: by name within their unit, when unique on both sides.
    let by_local_name = |program: &Program, ids: &mut dyn Iterator<Item = GlobalId>| {
        let mut map: FxHashMap<String, Vec<GlobalId>> = FxHashMap::default();
        for g in ids {
            if let Some(name) = unit_local_name(program, &program.globals[g]) {
                map.entry(name.to_string()).or_default().push(g);
            }
        }
        map
    };
    let old_statics = by_local_name(old, &mut unmatched_old.iter().copied());
    let new_statics = by_local_name(new, &mut new_by_key.values().copied());
    for &g in &unmatched_old {
        let paired = unit_local_name(old, &old.globals[g])
            .and_then(|name| Some((old_statics.get(name)?, new_statics.get(name)?)))
            .filter(|(o, n)| o.len() == 1 && n.len() == 1)
            .map(|(_, n)| n[0]);
        match paired {
            Some(n) => {
                new_by_key.remove(new.globals[n].key.as_str());
                pairs.push((Some(g), Some(n)));
            }
            None => pairs.push((Some(g), None)),
        }
    }
    pairs.extend(new_by_key.into_values().map(|n| (None, Some(n))));
    let mut matches: Vec<GlobalMatch> = pairs
        .into_iter()
        .map(|(o, n)| {
            let status = match (o, n) {
                (Some(o), Some(n)) => {
                    let (x, y) = (&old.globals[o], &new.globals[n]);
                    // Errors in a definition leave it read in part: it is the same
                    // only where the unread text is too.
                    if canonical(old, x) == canonical(new, y)
                        && old.unread_texts_within(&x.span) == new.unread_texts_within(&y.span)
                    {
                        GlobalStatus::Unchanged
                    } else {
                        GlobalStatus::Modified
                    }
                }
                (Some(_), None) => GlobalStatus::Removed,
                _ => GlobalStatus::Added,
            };
            GlobalMatch {
                old: o,
                new: n,
                status,
            }
        })
        .collect();
    let key = |m: &GlobalMatch| match (m.old, m.new) {
        (Some(o), _) => old.globals[o].key.clone(),
        (None, Some(n)) => new.globals[n].key.clone(),
        (None, None) => String::new(),
    };
    matches.sort_by_cached_key(|m| (key(m), m.old, m.new));
    matches
}

/// Defined globals that are neither string literals nor static locals of functions.
fn definitions(program: &Program) -> Vec<GlobalId> {
    program
        .globals
        .iter_enumerated()
        .filter(|(_, g)| g.init.is_some() && !g.key.starts_with(".str"))
        .filter(|(_, g)| match g.linkage {
            Linkage::External => true,
            Linkage::Internal(_) => !is_static_local(program, g),
        })
        .map(|(id, _)| id)
        .collect()
}

/// Whether `global` is a static local of a function (keyed `path:function:name`): part
/// of its function's code, so a changed initializer is a change of the function
/// ([`crate::irdiff`] compares its contents), not a global change of its own.
pub(crate) fn is_static_local(program: &Program, global: &Global) -> bool {
    unit_local_name(program, global).is_some_and(|n| n.contains(':'))
}

/// The key of a file-scoped static without its `unit:` prefix.
fn unit_local_name<'g>(program: &Program, global: &'g Global) -> Option<&'g str> {
    let Linkage::Internal(unit) = global.linkage else {
        return None;
    };
    global
        .key
        .strip_prefix(program.file_path(unit))?
        .strip_prefix(':')
}

/// Type, constness and initial contents, with ids replaced by what they name.
pub(crate) fn canonical(program: &Program, global: &Global) -> String {
    let mut out = format!(
        "{} size {} const {}",
        program.types.display(global.ty),
        program.types.size_of(global.ty),
        global.is_const
    );
    for item in global.init.iter().flat_map(|init| &init.items) {
        match item {
            InitItem::Value { offset, value } => {
                let _ = write!(out, "|{offset}:{}", render(program, value));
            }
            InitItem::Bytes { offset, bytes } => {
                let _ = write!(out, "|{offset}:{bytes:?}");
            }
            InitItem::Bits {
                offset,
                bit_offset,
                width,
                value,
                ..
            } => {
                let _ = write!(
                    out,
                    "|{offset}.{bit_offset}:{width}:{}",
                    render(program, value)
                );
            }
        }
    }
    out
}

/// How an address in an initializer names its object: by key, except a `static` whose
/// name no other object of its kind has (its key names its file, which may be named
/// differently in the other version).
fn symbol(key: &str, name: &str, linkage: Linkage, same_name: usize) -> String {
    if matches!(linkage, Linkage::Internal(_)) && same_name == 1 {
        format!("&static {name}")
    } else {
        format!("&{key}")
    }
}

fn render(program: &Program, expr: &Expr) -> String {
    let ty = program.types.display(expr.ty);
    match &expr.kind {
        ExprKind::AddrOfGlobal(g) => {
            let target = &program.globals[*g];
            if target.key.starts_with(".str") {
                let bytes: Vec<&InitItem> = target.init.iter().flat_map(|i| &i.items).collect();
                format!("&str{bytes:?}")
            } else {
                let same_name = program.globals.iter().filter(|g| g.name == target.name);
                symbol(&target.key, &target.name, target.linkage, same_name.count())
            }
        }
        ExprKind::AddrOfFunc(f) => {
            let target = &program.functions[*f];
            let same_name = program.functions.iter().filter(|g| g.name == target.name);
            symbol(&target.key, &target.name, target.linkage, same_name.count())
        }
        ExprKind::Int(v) => format!("{v}:{ty}"),
        ExprKind::Float(v) => format!("{v:?}:{ty}"),
        ExprKind::Cast(inner) => format!("({ty}){}", render(program, inner)),
        ExprKind::Unary(op, inner) => format!("{}({})", op.symbol(), render(program, inner)),
        ExprKind::Binary(op, lhs, rhs) => format!(
            "({} {} {})",
            render(program, lhs),
            op.symbol(),
            render(program, rhs)
        ),
        other => format!("{other:?}:{ty}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ripple_ir::{GlobalInit, IntKind, Span};

    fn program(unit: &str, globals: &[(&str, bool, Option<u128>)]) -> Program {
        let mut p = Program::default();
        let file = p.files.push(ripple_ir::SourceFile { path: unit.into() });
        let int = p.types.int(IntKind::Int);
        for &(name, is_static, value) in globals {
            let (key, linkage) = if is_static {
                (format!("{unit}:{name}"), Linkage::Internal(file))
            } else {
                (name.to_string(), Linkage::External)
            };
            p.globals.push(Global {
                name: name.into(),
                key,
                linkage,
                ty: int,
                init: Some(GlobalInit {
                    items: value
                        .map(|v| InitItem::Value {
                            offset: 0,
                            value: Expr::int(v, int),
                        })
                        .into_iter()
                        .collect(),
                }),
                is_const: false,
                span: Span::SYNTHETIC,
            });
        }
        p
    }

    fn statuses(old: &Program, new: &Program) -> Vec<(String, GlobalStatus)> {
        match_globals(old, new)
            .into_iter()
            .map(|m| {
                let g = m
                    .new
                    .map_or_else(|| &old.globals[m.old.unwrap()], |n| &new.globals[n]);
                (g.name.clone(), m.status)
            })
            .collect()
    }

    #[test]
    fn added_removed_modified_and_unchanged() {
        // a: same value; b: 1 -> 2; c only old; d only new.
        let old = program(
            "a.c",
            &[
                ("a", false, Some(1)),
                ("b", false, Some(1)),
                ("c", false, None),
            ],
        );
        let new = program(
            "a.c",
            &[
                ("a", false, Some(1)),
                ("b", false, Some(2)),
                ("d", false, None),
            ],
        );
        assert_eq!(
            statuses(&old, &new),
            vec![
                ("a".into(), GlobalStatus::Unchanged),
                ("b".into(), GlobalStatus::Modified),
                ("c".into(), GlobalStatus::Removed),
                ("d".into(), GlobalStatus::Added),
            ]
        );
    }

    #[test]
    fn statics_of_a_renamed_unit_match_by_name() {
        // old.c:count and new.c:count are the same static of the one file being compared.
        let old = program("old.c", &[("count", true, Some(0))]);
        let new = program("new.c", &[("count", true, Some(0))]);
        assert_eq!(
            statuses(&old, &new),
            vec![("count".into(), GlobalStatus::Unchanged)]
        );
    }
}
