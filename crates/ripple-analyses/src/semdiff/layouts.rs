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
/// alignment, or a member's name, offset, bit-field or type (by its C text). Members of
/// anonymous records count as the record's own (C reaches them so), and naming such a
/// member (`union { ... };` to `union { ... } u;`) keeps the layout: the same bytes are
/// the same members, now spelled `x.u.ch` for `x.ch`.
pub(crate) fn changed_records(old: &Program, new: &Program) -> BTreeSet<String> {
    let layouts = |program: &Program| -> FxHashMap<String, Vec<Layout>> {
        let types = &program.types;
        let mut out: FxHashMap<String, Vec<Layout>> = FxHashMap::default();
        for record in types.records.iter().filter(|r| r.complete) {
            let Some(tag) = record.c_name() else { continue };
            let mut layout = Layout {
                head: format!("{} {} {}", record.is_union, record.size, record.align),
                members: Vec::new(),
            };
            flatten(types, record, 0, &mut Vec::new(), &mut layout.members);
            // Two complete records of one tag in one program (in units of their own):
            // either differing from the other version's is a change.
            let all = out.entry(tag).or_default();
            if !all.contains(&layout) {
                all.push(layout);
            }
        }
        out
    };
    let (o, n) = (layouts(old), layouts(new));
    o.iter()
        .filter(|(tag, old)| {
            n.get(*tag).is_some_and(|new| {
                old.len() != new.len() || old.iter().zip(new).any(|(a, b)| !a.same(b))
            })
        })
        .map(|(tag, _)| tag.clone())
        .collect()
}

/// A record's layout: its kind, size and alignment, and its members with those of its
/// anonymous records flattened in.
#[derive(PartialEq, Eq)]
struct Layout {
    head: String,
    members: Vec<Member>,
}

/// One member: its path of names (`None` for an anonymous record on the way), offset
/// in the outermost record, bit-field and type.
#[derive(PartialEq, Eq)]
struct Member {
    path: Vec<Option<String>>,
    offset: u64,
    bit_field: Option<(u32, u32)>,
    ty: String,
}

impl Layout {
    /// The same layout, a name on a path matching an anonymous member of the other (C
    /// forbids two members of a record to share a name, so a leaf's remaining names
    /// still tell which it is).
    fn same(&self, other: &Layout) -> bool {
        self.head == other.head
            && self.members.len() == other.members.len()
            && self.members.iter().zip(&other.members).all(|(a, b)| {
                a.offset == b.offset
                    && a.bit_field == b.bit_field
                    && a.ty == b.ty
                    && a.path.len() == b.path.len()
                    && a.path
                        .iter()
                        .zip(&b.path)
                        .all(|(x, y)| x == y || x.is_none() || y.is_none())
            })
    }
}

/// Whether a member's type is a record C gives no name (its members are the
/// enclosing record's to compare).
fn anonymous_record(types: &ripple_ir::TypeTable, ty: TypeId) -> Option<&ripple_ir::Record> {
    types
        .record(ty)
        .filter(|r| r.tag.is_none() && r.typedef.is_none() && r.complete)
}

fn flatten(
    types: &ripple_ir::TypeTable,
    record: &ripple_ir::Record,
    base: u64,
    path: &mut Vec<Option<String>>,
    out: &mut Vec<Member>,
) {
    for f in &record.fields {
        let name = (!f.name.is_empty()).then(|| f.name.clone());
        path.push(name);
        match anonymous_record(types, f.ty) {
            Some(inner) if f.bit_field.is_none() => {
                out.push(Member {
                    path: path.clone(),
                    offset: base + f.offset,
                    bit_field: None,
                    ty: format!(
                        "{} {} {}",
                        if inner.is_union { "union" } else { "struct" },
                        inner.size,
                        inner.align
                    ),
                });
                flatten(types, inner, base + f.offset, path, out);
            }
            _ => out.push(Member {
                path: path.clone(),
                offset: base + f.offset,
                bit_field: f.bit_field,
                ty: type_text(types, f.ty),
            }),
        }
        path.pop();
    }
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
