//! Equality of IR statements across two programs: `StmtAt(n) = StmtAt(π(n))`.
//!
//! Criterion 1 of a sound diff (Gyori et al., ISSTA 2017, section 3.1) asks that mapped
//! nodes hold the *same statement*. Equal source text is not enough in C: a changed
//! struct layout moves field offsets, a changed typedef or global type changes the width
//! of an operation, and a function that stopped being defined becomes an unknown
//! external, all without a token of the function changing. This module compares the
//! lowered statements themselves, modulo the renumbering of ids between the two programs:
//!
//! - types structurally (records by tag, layout and field types, coinductively for
//!   recursive records), but a pointer to a tagged record by the tag alone, since what a
//!   statement does with a pointer does not depend on the layout it points to;
//! - locals by name, kind, storage and type (temporaries by kind and type only, as their
//!   names are generated; a renamed register local by its partner's name,
//!   [`Function::renamed_locals`]), and consistently: one old local never stands for two
//!   new ones, so statements equal under the binding are equal up to renaming;
//! - globals by key (string literals by contents and type; file-scoped statics of the
//!   functions' own units by name, so a renamed file keeps its statics);
//! - functions by the procedure matching (so calls to a renamed function are equal), or
//!   by key for declared externals.
//!
//! The MAPPED construction unmaps a syntactically matched pair whose IR differs, and
//! reports the lines of such nodes as changed.

use ripple_ir::{
    Callee, Expr, ExprKind, FileId, FuncId, Function, GlobalId, Linkage, Node, NodeKind, Place,
    Program, SynId, Type, TypeId, VarId,
};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::mapped::Side;

/// The key of a file-scoped static without its `unit:` prefix.
fn unit_local_key<'k>(program: &Program, key: &'k str, unit: FileId) -> Option<&'k str> {
    key.strip_prefix(program.file_path(unit))?.strip_prefix(':')
}

/// The offset, in the new version's record `new_record`, of the member of the old
/// version's record `old_record` at `offset` whose type is `member`: the same path of
/// member names (and array indices) in both. None when no member, or several (a union),
/// is there, or the new record lacks the path.
fn member_offset(
    old: &Program,
    old_record: TypeId,
    offset: u64,
    member: TypeId,
    new: &Program,
    new_record: TypeId,
) -> Option<u64> {
    let (ot, nt) = (&old.types, &new.types);
    let (Some(o), Some(n)) = (ot.record(old_record), nt.record(new_record)) else {
        return None;
    };
    let mut found: Option<u64> = None;
    for f in &o.fields {
        let size = ot.size_of(f.ty);
        if f.name.is_empty() || f.bit_field.is_some() || offset < f.offset {
            continue;
        }
        if offset >= f.offset + size.max(1) {
            continue;
        }
        let g = n.fields.iter().find(|g| g.name == f.name)?;
        let within = offset - f.offset;
        let here = if within == 0 && ot.display(f.ty) == ot.display(member) {
            (nt.display(g.ty) == ot.display(f.ty)).then_some(g.offset)
        } else {
            match (ot.get(f.ty).clone(), nt.get(g.ty).clone()) {
                (Type::Record(_), Type::Record(_)) => {
                    member_offset(old, f.ty, within, member, new, g.ty).map(|k| g.offset + k)
                }
                (
                    Type::Array {
                        elem: oe,
                        len: Some(ol),
                    },
                    Type::Array {
                        elem: ne,
                        len: Some(nl),
                    },
                ) if ol == nl => {
                    let (os, ns) = (ot.size_of(oe).max(1), nt.size_of(ne));
                    let (index, rest) = (within / os, within % os);
                    let inner = if rest == 0 && ot.display(oe) == ot.display(member) {
                        (nt.display(ne) == ot.display(oe)).then_some(0)
                    } else if ot.record(oe).is_some() && nt.record(ne).is_some() {
                        member_offset(old, oe, rest, member, new, ne)
                    } else {
                        None
                    };
                    inner.map(|k| g.offset + index * ns + k)
                }
                _ => None,
            }
        };
        match (here, found) {
            (Some(k), None) => found = Some(k),
            (Some(k), Some(j)) if k == j => {}
            // A union's members overlap: the offset names several.
            _ => return None,
        }
    }
    found
}

/// Compares IR statements of two matched functions.
pub(crate) struct IrComparer<'a> {
    old: &'a Program,
    new: &'a Program,
    old_function: &'a Function,
    new_function: &'a Function,
    functions: &'a FxHashMap<FuncId, FuncId>,
    locals: FxHashMap<VarId, VarId>,
    locals_inverse: FxHashMap<VarId, VarId>,
    /// Locals bound by the node being compared, undone when the nodes differ.
    trail: Vec<VarId>,
    /// Locals renamed between the versions ([`Function::renamed_locals`]), which may be
    /// bound to each other despite their names.
    renamed: FxHashSet<(VarId, VarId)>,
    /// Record pairs assumed equal while comparing them (coinduction).
    records: FxHashSet<(u32, u32)>,
    /// While comparing two nodes up to the line numbers they report: the first and last
    /// lines of each; integer constants at the same line of each statement match.
    lines: Option<((u128, u128), (u128, u128))>,
    /// While comparing two nodes up to the layout of records: a member's offset in the
    /// old version matching the offset of the member of the same name (the same path
    /// of names, through nested records and arrays) in the new version.
    layouts: bool,
}

impl<'a> IrComparer<'a> {
    pub(crate) fn new(
        old: &Side<'a>,
        new: &Side<'a>,
        functions: &'a FxHashMap<FuncId, FuncId>,
    ) -> Self {
        let mut comparer = IrComparer {
            old: old.program,
            new: new.program,
            old_function: old.function,
            new_function: new.function,
            functions,
            locals: FxHashMap::default(),
            locals_inverse: FxHashMap::default(),
            trail: Vec::new(),
            renamed: old
                .function
                .renamed_locals(new.function)
                .into_iter()
                .collect(),
            records: FxHashSet::default(),
            lines: None,
            layouts: false,
        };
        // Parameters correspond by position: a parameter renamed, or two swapped, is
        // the value passed at its place. (With different counts none is bound ahead.)
        // A parameter whose type or storage changed is bound all the same: every
        // expression naming it has its type, so its uses differ.
        let (a, b) = (&old.function.params, &new.function.params);
        if a.len() == b.len() {
            for (&x, &y) in a.iter().zip(b) {
                comparer.locals.insert(x, y);
                comparer.locals_inverse.insert(y, x);
            }
        }
        comparer
    }

    /// Whether two nodes hold the same statement (successors are not compared). Locals
    /// first met here are bound to each other only when the nodes are the same.
    pub(crate) fn same_node(&mut self, old: &Node, new: &Node) -> bool {
        self.trail.clear();
        let same = self.same_node_kind(old, new);
        if !same {
            for old_local in std::mem::take(&mut self.trail) {
                if let Some(new_local) = self.locals.remove(&old_local) {
                    self.locals_inverse.remove(&new_local);
                }
            }
        }
        same
    }

    /// Whether two nodes hold the same statement but for the line numbers it reports
    /// (`__LINE__`: an integer constant equal to a line of each node's statement, the
    /// same line of it in both, as when a statement spanning lines moved).
    pub(crate) fn same_node_up_to_lines(&mut self, old: &Node, new: &Node) -> bool {
        let lines = |span: &ripple_ir::Span| {
            (
                u128::from(span.start_line),
                u128::from(span.end_line.max(span.start_line)),
            )
        };
        self.lines = Some((lines(&old.span), lines(&new.span)));
        let same = self.same_node(old, new);
        self.lines = None;
        same
    }

    /// Whether two nodes hold the same statement but for the offsets of the record
    /// members they access, each of which is the offset of the member of the same name
    /// in its version's layout of the record.
    pub(crate) fn same_node_up_to_layouts(&mut self, old: &Node, new: &Node) -> bool {
        self.layouts = true;
        let same = self.same_node(old, new);
        self.layouts = false;
        same
    }

    /// Per argument of two calls, whether the expressions differ, and whether the
    /// destinations differ; `None` when the argument counts differ.
    pub(crate) fn call_differences(&mut self, old: &Node, new: &Node) -> Option<(Vec<bool>, bool)> {
        let (
            NodeKind::Call {
                dst: d1, args: a1, ..
            },
            NodeKind::Call {
                dst: d2, args: a2, ..
            },
        ) = (&old.kind, &new.kind)
        else {
            return None;
        };
        if a1.len() != a2.len() {
            return None;
        }
        let args = a1
            .iter()
            .zip(a2)
            .map(|(x, y)| !self.same_expr(x, y))
            .collect();
        let dst = match (d1, d2) {
            (None, None) => false,
            (Some(p1), Some(p2)) => !self.same_place(p1, p2),
            _ => true,
        };
        Some((args, dst))
    }

    fn same_node_kind(&mut self, old: &Node, new: &Node) -> bool {
        match (&old.kind, &new.kind) {
            (NodeKind::Entry, NodeKind::Entry)
            | (NodeKind::Exit, NodeKind::Exit)
            | (NodeKind::Skip, NodeKind::Skip) => true,
            (NodeKind::Assign { dst: d1, value: v1 }, NodeKind::Assign { dst: d2, value: v2 }) => {
                self.same_place(d1, d2) && self.same_expr(v1, v2)
            }
            (NodeKind::Branch { cond: c1 }, NodeKind::Branch { cond: c2 }) => {
                self.same_expr(c1, c2)
            }
            (
                NodeKind::Call {
                    dst: d1,
                    callee: f1,
                    args: a1,
                },
                NodeKind::Call {
                    dst: d2,
                    callee: f2,
                    args: a2,
                },
            ) => {
                let same_dst = match (d1, d2) {
                    (None, None) => true,
                    (Some(p1), Some(p2)) => self.same_place(p1, p2),
                    _ => false,
                };
                let same_callee = match (f1, f2) {
                    (Callee::Direct(g1), Callee::Direct(g2)) => self.same_function(*g1, *g2),
                    (Callee::Indirect(e1), Callee::Indirect(e2)) => self.same_expr(e1, e2),
                    (Callee::Intrinsic(i1), Callee::Intrinsic(i2)) => i1 == i2,
                    _ => false,
                };
                same_dst
                    && same_callee
                    && a1.len() == a2.len()
                    && a1.iter().zip(a2).all(|(x, y)| self.same_expr(x, y))
            }
            (
                NodeKind::Havoc {
                    dst: d1,
                    reason: r1,
                },
                NodeKind::Havoc {
                    dst: d2,
                    reason: r2,
                },
            ) => {
                r1 == r2
                    && self.same_code(old.syn, new.syn)
                    && match (d1, d2) {
                        (None, None) => true,
                        (Some(p1), Some(p2)) => self.same_place(p1, p2),
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// Whether the code two havocs stand for is written the same: a havoc is "whatever
    /// this code does" (a region that could not be read, an unsupported construct), so
    /// two are the same statement only when their syntax is (kinds, tokens and shape;
    /// layout and comments are not in the tree). Without syntax trees, only havocs
    /// without syntax nodes are compared by their reasons alone.
    fn same_code(&self, old: Option<SynId>, new: Option<SynId>) -> bool {
        let (Some(x), Some(y)) = (old, new) else {
            return old.is_none() && new.is_none();
        };
        let (Some(a), Some(b)) = (&self.old_function.syntax, &self.new_function.syntax) else {
            return false;
        };
        let mut stack = vec![(x, y)];
        while let Some((p, q)) = stack.pop() {
            let (m, n) = (&a.nodes[p], &b.nodes[q]);
            if m.kind != n.kind
                || m.children.len() != n.children.len()
                || (m.label != n.label && !self.renamed_names(m.kind, &m.label, &n.label))
            {
                return false;
            }
            stack.extend(m.children.iter().copied().zip(n.children.iter().copied()));
        }
        true
    }

    /// Whether two identifiers name a renamed pair: matched functions, or register
    /// locals the matching binds to each other ([`Function::renamed_locals`]).
    fn renamed_names(&self, kind: &str, old: &str, new: &str) -> bool {
        if kind != "identifier" {
            return false;
        }
        let functions = self
            .old
            .function_by_name(old)
            .zip(self.new.function_by_name(new));
        functions.is_some_and(|(f, g)| self.functions.get(&f) == Some(&g))
            || self.renamed.iter().any(|&(x, y)| {
                self.old_function.locals[x].name == old && self.new_function.locals[y].name == new
            })
    }

    fn same_place(&mut self, old: &Place, new: &Place) -> bool {
        match (old, new) {
            (Place::Local(v1), Place::Local(v2)) => self.same_local(*v1, *v2),
            (Place::Mem { addr: a1, ty: t1 }, Place::Mem { addr: a2, ty: t2 }) => {
                self.same_type(*t1, *t2) && self.same_expr(a1, a2)
            }
            (
                Place::Bits {
                    addr: a1,
                    unit: u1,
                    bit_offset: o1,
                    width: w1,
                },
                Place::Bits {
                    addr: a2,
                    unit: u2,
                    bit_offset: o2,
                    width: w2,
                },
            ) => o1 == o2 && w1 == w2 && self.same_type(*u1, *u2) && self.same_expr(a1, a2),
            _ => false,
        }
    }

    fn same_expr(&mut self, old: &Expr, new: &Expr) -> bool {
        if !self.same_type(old.ty, new.ty) {
            return false;
        }
        match (&old.kind, &new.kind) {
            (ExprKind::Int(x), ExprKind::Int(y)) => {
                x == y
                    || self.lines.is_some_and(|((a, a_end), (b, b_end))| {
                        (a..=a_end).contains(x) && (b..=b_end).contains(y) && x - a == y - b
                    })
            }
            (ExprKind::Float(x), ExprKind::Float(y)) => x.to_bits() == y.to_bits(),
            (ExprKind::Local(v1), ExprKind::Local(v2))
            | (ExprKind::AddrOfLocal(v1), ExprKind::AddrOfLocal(v2)) => self.same_local(*v1, *v2),
            (ExprKind::AddrOfGlobal(g1), ExprKind::AddrOfGlobal(g2)) => self.same_global(*g1, *g2),
            (ExprKind::AddrOfFunc(f1), ExprKind::AddrOfFunc(f2)) => self.same_function(*f1, *f2),
            (ExprKind::Load(x), ExprKind::Load(y)) | (ExprKind::Cast(x), ExprKind::Cast(y)) => {
                self.same_expr(x, y)
            }
            (
                ExprKind::LoadBits {
                    addr: a1,
                    unit: u1,
                    bit_offset: o1,
                    width: w1,
                },
                ExprKind::LoadBits {
                    addr: a2,
                    unit: u2,
                    bit_offset: o2,
                    width: w2,
                },
            ) => o1 == o2 && w1 == w2 && self.same_type(*u1, *u2) && self.same_expr(a1, a2),
            (ExprKind::Unary(o1, x), ExprKind::Unary(o2, y)) => o1 == o2 && self.same_expr(x, y),
            (
                ExprKind::Binary(ripple_ir::BinOp::PtrAdd, x1, y1),
                ExprKind::Binary(ripple_ir::BinOp::PtrAdd, x2, y2),
            ) if self.layouts && y1 != y2 => {
                self.same_expr(x1, x2) && self.same_member(x1.ty, y1, old.ty, y2)
            }
            (ExprKind::Binary(o1, x1, y1), ExprKind::Binary(o2, x2, y2)) => {
                o1 == o2 && self.same_expr(x1, x2) && self.same_expr(y1, y2)
            }
            _ => false,
        }
    }

    /// Whether the constant offsets `old_offset` and `new_offset` from a pointer of
    /// type `base` (the old version's) to a member of type `*member` address the member
    /// of the same name in the two versions' layouts of the record `base` points to.
    fn same_member(
        &mut self,
        base: TypeId,
        old_offset: &Expr,
        member: TypeId,
        new_offset: &Expr,
    ) -> bool {
        let (ExprKind::Int(k1), ExprKind::Int(k2)) = (&old_offset.kind, &new_offset.kind) else {
            return false;
        };
        let types = &self.old.types;
        let (Type::Pointer(record), Type::Pointer(member)) =
            (types.get(base).clone(), types.get(member).clone())
        else {
            return false;
        };
        let Some(tag) = types.record(record).and_then(|r| r.c_name()) else {
            return false;
        };
        let Some(new_record) = self.new_record_tagged(&tag) else {
            return false;
        };
        let (Ok(k1), Ok(k2)) = (u64::try_from(*k1), u64::try_from(*k2)) else {
            return false;
        };
        member_offset(self.old, record, k1, member, self.new, new_record) == Some(k2)
    }

    /// The new version's complete record named `tag` ([`ripple_ir::Record::c_name`]),
    /// when it has one only.
    fn new_record_tagged(&self, tag: &str) -> Option<TypeId> {
        let types = &self.new.types;
        let mut found = None;
        for index in 0..types.len() {
            let ty = TypeId::from(index);
            if let Some(r) = types.record(ty) {
                if r.complete && r.c_name().as_deref() == Some(tag) {
                    if found.is_some_and(|f| types.record(f) != Some(r)) {
                        return None;
                    }
                    found.get_or_insert(ty);
                }
            }
        }
        found
    }

    fn same_local(&mut self, old: VarId, new: VarId) -> bool {
        if let Some(&known) = self.locals.get(&old) {
            return known == new;
        }
        if self.locals_inverse.contains_key(&new) {
            return false;
        }
        let (Some(x), Some(y)) = (
            self.old_function.locals.get(old),
            self.new_function.locals.get(new),
        ) else {
            return false;
        };
        let same = x.kind == y.kind
            && x.storage == y.storage
            && (x.kind == ripple_ir::LocalKind::Temp
                || x.name == y.name
                || self.renamed.contains(&(old, new)))
            && self.same_type(x.ty, y.ty);
        if same {
            self.locals.insert(old, new);
            self.locals_inverse.insert(new, old);
            self.trail.push(old);
        }
        same
    }

    fn same_global(&mut self, old: GlobalId, new: GlobalId) -> bool {
        let (Some(x), Some(y)) = (self.old.globals.get(old), self.new.globals.get(new)) else {
            return false;
        };
        if !self.same_type(x.ty, y.ty) || x.is_const != y.is_const {
            return false;
        }
        if x.key.starts_with(".str") && y.key.starts_with(".str") {
            // String literals: compared by contents.
            return x.init == y.init;
        }
        // File-scoped statics are keyed `unit:name`; the statics of the units that hold
        // the two matched functions correspond by name even when the unit was renamed
        // (`ripple diff old.c new.c`).
        let corresponding = x.key == y.key
            || match (x.linkage, y.linkage) {
                (Linkage::Internal(old_unit), Linkage::Internal(new_unit)) => {
                    old_unit == self.old_function.span.file
                        && new_unit == self.new_function.span.file
                        && unit_local_key(self.old, &x.key, old_unit)
                            == unit_local_key(self.new, &y.key, new_unit)
                }
                _ => false,
            };
        // A function's static local is part of its code: the same only with the same
        // initial contents (a changed one is no global change of its own).
        corresponding
            && (!crate::globals::is_static_local(self.old, x)
                || crate::globals::canonical(self.old, x) == crate::globals::canonical(self.new, y))
    }

    fn same_function(&self, old: FuncId, new: FuncId) -> bool {
        if let Some(&image) = self.functions.get(&old) {
            return image == new;
        }
        let (Some(x), Some(y)) = (self.old.functions.get(old), self.new.functions.get(new)) else {
            return false;
        };
        // Declared externals (not in the procedure matching) are the same by key.
        !x.is_defined() && !y.is_defined() && x.key == y.key
    }

    /// Structural type equality across the two type tables.
    fn same_type(&mut self, old: TypeId, new: TypeId) -> bool {
        let (old_types, new_types) = (&self.old.types, &self.new.types);
        if old.index() >= old_types.len() || new.index() >= new_types.len() {
            return old_types.is_empty() && new_types.is_empty() && old == new;
        }
        match (old_types.get(old).clone(), new_types.get(new).clone()) {
            (Type::Void, Type::Void) => true,
            (Type::Int(x), Type::Int(y)) => x == y,
            (Type::Float(x), Type::Float(y)) => x == y,
            (Type::Pointer(x), Type::Pointer(y)) => self.same_pointee(x, y),
            (Type::Array { elem: x, len: m }, Type::Array { elem: y, len: n }) => {
                m == n && self.same_type(x, y)
            }
            (
                Type::Function {
                    ret: r1,
                    params: p1,
                    varargs: v1,
                    prototyped: q1,
                },
                Type::Function {
                    ret: r2,
                    params: p2,
                    varargs: v2,
                    prototyped: q2,
                },
            ) => {
                v1 == v2
                    && q1 == q2
                    && p1.len() == p2.len()
                    && self.same_type(r1, r2)
                    && p1.iter().zip(&p2).all(|(x, y)| self.same_type(*x, *y))
            }
            (Type::Record(x), Type::Record(y)) => self.same_record(x, y),
            _ => false,
        }
    }

    /// The types two pointers point to. A pointer's value and what a statement does
    /// with it do not depend on the layout of a record it points to: every access
    /// through it carries its own type and offset, and pointer arithmetic its scale, and
    /// those are compared where they occur. So pointers to records of one tag are the
    /// same type whatever members the records gained (a member added at the end changes
    /// only the code that copies the record, takes its size or steps over it). Records
    /// of other tags (or one without a tag) are compared member by member.
    fn same_pointee(&mut self, old: TypeId, new: TypeId) -> bool {
        let tagged = |types: &ripple_ir::TypeTable, ty: TypeId| {
            if ty.index() >= types.len() {
                return None;
            }
            let record = types.record(ty)?;
            Some((record.tag.clone()?, record.is_union))
        };
        match (tagged(&self.old.types, old), tagged(&self.new.types, new)) {
            (Some(x), Some(y)) if x == y => true,
            _ => self.same_type(old, new),
        }
    }

    fn same_record(&mut self, old: u32, new: u32) -> bool {
        if !self.records.insert((old, new)) {
            return true;
        }
        let (Some(x), Some(y)) = (
            self.old.types.records.get(old as usize).cloned(),
            self.new.types.records.get(new as usize).cloned(),
        ) else {
            return false;
        };
        // The tag is a name only: `typedef struct { .. } t;` given a tag, or a tag
        // renamed, lays out and reads the same bytes.
        let same = x.is_union == y.is_union
            && x.size == y.size
            && x.align == y.align
            && x.complete == y.complete
            && x.fields.len() == y.fields.len()
            && x.fields.iter().zip(&y.fields).all(|(f, g)| {
                // Naming an anonymous record member (`union { .. };` to `union { .. }
                // u;`) keeps the bytes' members: theirs are compared below, by name.
                let anonymous = |name: &str, types: &ripple_ir::TypeTable, ty| {
                    name.is_empty() && types.record(ty).is_some_and(|r| r.tag.is_none())
                };
                (f.name == g.name
                    || anonymous(&f.name, &self.old.types, f.ty)
                    || anonymous(&g.name, &self.new.types, g.ty))
                    && f.offset == g.offset
                    && f.bit_field == g.bit_field
                    && self.same_type(f.ty, g.ty)
            })
            && self.old.unread_texts_of_record(old) == self.new.unread_texts_of_record(new);
        if !same {
            self.records.remove(&(old, new));
        }
        same
    }
}
