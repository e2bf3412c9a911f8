//! Records laid out differently in the two versions (a member added, removed, moved or
//! retyped). The analysis runs both versions from the same input memory, byte for byte;
//! where a record's layout changed, the same bytes are other members in each version,
//! and a difference (or an equality) of what the versions compute from them says
//! nothing of the program, whose callers set and read the members by name. So a pair
//! whose code (or a callee's) uses such a record gets no verdict from the solver:
//! "unknown", with the records named, unless it is the same code but for the member
//! offsets, matched by name (`ripple_versions::only_record_layouts_differ`), which does
//! what it did with each member matched to the member of its name.
//!
//! Known limit: code that reads such a record as raw bytes (through a cast, at an
//! offset written in the source) is the same statement in both versions and counts as
//! unchanged; it reads other members in each.

use std::collections::BTreeSet;

use ripple_ir::{Program, Type, TypeId};
use rustc_hash::FxHashMap;

/// The C names (`struct tag`, or a typedef name) of the complete records whose layout differs between the versions: size,
/// alignment, or a member's name, offset, bit-field or type (by its C text).
pub(crate) fn changed_records(old: &Program, new: &Program) -> BTreeSet<String> {
    let layouts = |program: &Program| -> FxHashMap<String, String> {
        let types = &program.types;
        let mut out: FxHashMap<String, String> = FxHashMap::default();
        for record in types.records.iter().filter(|r| r.complete) {
            let Some(tag) = record.c_name() else { continue };
            let mut text = format!("{} {} {}", record.is_union, record.size, record.align);
            for f in &record.fields {
                text.push_str(&format!(
                    "; {} {} {:?} {}",
                    f.name,
                    f.offset,
                    f.bit_field,
                    type_text(types, f.ty)
                ));
            }
            // Two complete records of one tag in one program (in units of their own):
            // either differing from the other version's is a change.
            out.entry(tag.clone())
                .and_modify(|t| {
                    if *t != text {
                        t.push_str(" | ");
                        t.push_str(&text);
                    }
                })
                .or_insert(text);
        }
        out
    };
    let (o, n) = (layouts(old), layouts(new));
    o.iter()
        .filter(|(tag, text)| n.get(*tag).is_some_and(|t| t != *text))
        .map(|(tag, _)| tag.clone())
        .collect()
}

/// A member's type as C writes it, an anonymous record by its members (its number in
/// the type table differs between versions whose headers differ).
fn type_text(types: &ripple_ir::TypeTable, ty: TypeId) -> String {
    match types.get(ty) {
        Type::Pointer(pointee) => format!("{}*", type_text(types, *pointee)),
        Type::Array { elem, len } => format!("{}[{len:?}]", type_text(types, *elem)),
        Type::Record(index) => {
            let record = &types.records[*index as usize];
            if record.tag.is_some() || record.typedef.is_some() {
                return types.display(ty);
            }
            let members: Vec<String> = record
                .fields
                .iter()
                .map(|f| {
                    format!(
                        "{} {} {:?} {}",
                        f.name,
                        f.offset,
                        f.bit_field,
                        type_text(types, f.ty)
                    )
                })
                .collect();
            format!(
                "{} {{ {} }}",
                if record.is_union { "union" } else { "struct" },
                members.join("; ")
            )
        }
        _ => types.display(ty),
    }
}

/// Per function of `program`, the changed records (of `changed`) its code names: in
/// the types of its parameters, locals and expressions, through pointers, arrays,
/// members and function types.
pub(crate) fn records_used(program: &Program, changed: &BTreeSet<String>) -> Vec<BTreeSet<String>> {
    let mut memo: FxHashMap<TypeId, BTreeSet<String>> = FxHashMap::default();
    // A record declared but not completed in one unit is completed in another.
    let mut complete: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    for (index, record) in program.types.records.iter().enumerate() {
        if let (Some(name), true) = (record.c_name(), record.complete) {
            complete.entry(name).or_default().push(index);
        }
    }
    program
        .functions
        .iter()
        .map(|function| {
            let mut used = BTreeSet::new();
            if changed.is_empty() || !function.is_defined() {
                return used;
            }
            let mut types: Vec<TypeId> = function.locals.iter().map(|l| l.ty).collect();
            for node in function.nodes.iter() {
                for expr in node.exprs() {
                    expr.walk(&mut |e| types.push(e.ty));
                }
            }
            types.sort_unstable();
            types.dedup();
            for ty in types {
                used.extend(
                    records_of(program, &complete, ty, changed, &mut memo)
                        .iter()
                        .cloned(),
                );
            }
            used
        })
        .collect()
}

/// The changed records a type reaches (each type's answer computed once, by a search
/// of its own, so that a cycle of records never cuts one short).
fn records_of<'m>(
    program: &Program,
    complete: &FxHashMap<String, Vec<usize>>,
    ty: TypeId,
    changed: &BTreeSet<String>,
    memo: &'m mut FxHashMap<TypeId, BTreeSet<String>>,
) -> &'m BTreeSet<String> {
    memo.entry(ty).or_insert_with(|| {
        let mut out = BTreeSet::new();
        let mut seen: rustc_hash::FxHashSet<TypeId> = Default::default();
        let mut stack = vec![ty];
        while let Some(ty) = stack.pop() {
            if !seen.insert(ty) {
                continue;
            }
            match program.types.get(ty) {
                Type::Pointer(p) => stack.push(*p),
                Type::Array { elem, .. } => stack.push(*elem),
                Type::Function { ret, params, .. } => {
                    stack.push(*ret);
                    stack.extend(params.iter().copied());
                }
                Type::Record(index) => {
                    let record = &program.types.records[*index as usize];
                    let name = record.c_name();
                    if let Some(name) = &name {
                        if changed.contains(name) {
                            out.insert(name.clone());
                        }
                    }
                    stack.extend(record.fields.iter().map(|f| f.ty));
                    let same_tag = name.as_ref().and_then(|t| complete.get(t));
                    for &other in same_tag.into_iter().flatten() {
                        let fields = &program.types.records[other].fields;
                        stack.extend(fields.iter().map(|f| f.ty));
                    }
                }
                _ => {}
            }
        }
        out
    })
}

/// Whether `function` turns a value that is not a pointer to the same record into a
/// pointer to one of the `changed` records (`(const struct hdr *)buf`, a `void *`
/// context): the bytes it reads through it are the members of the version that wrote
/// them only when that version laid them out, which a buffer of bytes was not. Matching
/// the members by name then proves nothing.
pub(crate) fn reinterprets_record(
    program: &Program,
    function: &ripple_ir::Function,
    changed: &BTreeSet<String>,
) -> bool {
    if changed.is_empty() {
        return false;
    }
    let types = &program.types;
    let record_pointed = |ty: TypeId| match types.get(ty) {
        Type::Pointer(p) => types.record(*p).and_then(|r| r.c_name()),
        _ => None,
    };
    let mut found = false;
    for node in function.nodes.iter() {
        for expr in node.exprs() {
            expr.walk(&mut |e| {
                if let ripple_ir::ExprKind::Cast(inner) = &e.kind {
                    if let Some(name) = record_pointed(e.ty) {
                        found |= changed.contains(&name)
                            && record_pointed(inner.ty).as_ref() != Some(&name);
                    }
                }
            });
        }
    }
    found
}
