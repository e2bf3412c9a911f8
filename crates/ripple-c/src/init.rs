//! Initializers: brace lists with brace elision, designators (members, indices, GNU
//! ranges) and string initializers of character arrays, flattened into leaf stores.
//! Locals: zero the object (`Memset` intrinsic), then store each given member. Globals:
//! constant [`InitItem`]s; anything not constant is recorded as a
//! `NonConstantInitializer` approximation. String literals become read-only globals.

use ripple_ir::{
    ApproximationKind, Callee, Expr, ExprKind, Global, GlobalId, GlobalInit, InitItem, Intrinsic,
    Linkage, Type, TypeId,
};
use tree_sitter::Node as TsNode;

use crate::consteval::{fold, Base, Const};
use crate::expr::LVal;
use crate::literals::{decode_escapes, split_literal, CharWidth};
use crate::lower::Lowerer;
use crate::Severity;

/// One store an initializer makes, at a byte offset of the object.
#[derive(Clone, Debug)]
pub(crate) enum Leaf<'a> {
    Scalar {
        offset: u64,
        ty: TypeId,
        bits: Option<(u32, u32)>,
        value: TsNode<'a>,
    },
    /// A string literal initializing a character array of type `ty`.
    String {
        offset: u64,
        ty: TypeId,
        value: TsNode<'a>,
    },
    /// A record initialized from an expression of its type.
    Record {
        offset: u64,
        ty: TypeId,
        value: TsNode<'a>,
    },
}

/// A sub-object of an aggregate: byte offset, type, bit-field position and width.
type SubObject = (u64, TypeId, Option<(u32, u32)>);

fn is_string(node: TsNode<'_>) -> bool {
    matches!(node.kind(), "string_literal" | "concatenated_string")
}

impl<'a> Lowerer<'a, '_> {
    fn is_char_array(&self, ty: TypeId) -> bool {
        match self.linker.program.types.get(ty) {
            Type::Array { elem, .. } => {
                matches!(self.linker.program.types.get(*elem), Type::Int(k) if k.bits() <= 32)
            }
            _ => false,
        }
    }

    fn list_items(&self, list: TsNode<'a>) -> Vec<TsNode<'a>> {
        let mut cursor = list.walk();
        list.named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect()
    }

    /// The sub-objects of an aggregate in initialization order: (offset, type, bits).
    fn members_of(&self, ty: TypeId) -> Vec<SubObject> {
        match self.linker.program.types.get(ty) {
            Type::Record(_) => {
                let Some(rec) = self.linker.program.types.record(ty) else {
                    return Vec::new();
                };
                let mut out: Vec<SubObject> = rec
                    .fields
                    .iter()
                    .filter(|f| !(f.name.is_empty() && f.bit_field.is_some()))
                    .map(|f| (f.offset, f.ty, f.bit_field))
                    .collect();
                if rec.is_union {
                    out.truncate(1);
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// Flattens the initializer of an object of type `ty`; returns the element count
    /// of a top-level array (for incomplete arrays).
    pub fn flatten_init(&mut self, ty: TypeId, value: TsNode<'a>, out: &mut Vec<Leaf<'a>>) -> u64 {
        if value.kind() == "initializer_list" {
            return self.walk_braced(ty, 0, value, out);
        }
        if is_string(value) && self.is_char_array(ty) {
            out.push(Leaf::String {
                offset: 0,
                ty,
                value,
            });
            return self.string_len(value);
        }
        if self.is_record(ty) {
            out.push(Leaf::Record {
                offset: 0,
                ty,
                value,
            });
        } else {
            out.push(Leaf::Scalar {
                offset: 0,
                ty,
                bits: None,
                value,
            });
        }
        1
    }

    /// Number of code units in a string literal, including the terminating NUL.
    fn string_len(&mut self, node: TsNode<'a>) -> u64 {
        let (units, _) = self.string_units(node);
        units.len() as u64 + 1
    }

    /// A brace-enclosed list for the object at `offset` of type `ty`.
    fn walk_braced(
        &mut self,
        ty: TypeId,
        offset: u64,
        list: TsNode<'a>,
        out: &mut Vec<Leaf<'a>>,
    ) -> u64 {
        let items = self.list_items(list);
        if self.linker.program.types.is_scalar(ty) {
            if let Some(&first) = items.first() {
                if first.kind() == "initializer_list" {
                    return self.walk_braced(ty, offset, first, out);
                }
                let value = if first.kind() == "initializer_pair" {
                    self.child_field(first, self.fields.value).unwrap_or(first)
                } else {
                    first
                };
                out.push(Leaf::Scalar {
                    offset,
                    ty,
                    bits: None,
                    value,
                });
            }
            return 1;
        }
        let array = match self.linker.program.types.get(ty) {
            Type::Array { elem, len } => Some((*elem, *len)),
            _ => None,
        };
        // A char array initialized by a braced string: `char s[] = {"ab"}`.
        if array.is_some() && items.len() == 1 && is_string(items[0]) && self.is_char_array(ty) {
            out.push(Leaf::String {
                offset,
                ty,
                value: items[0],
            });
            return self.string_len(items[0]);
        }
        let members = self.members_of(ty);
        let mut pos = 0;
        let mut current: u64 = 0;
        let mut count: u64 = 0;
        while pos < items.len() {
            let item = items[pos];
            if item.kind() == "initializer_pair" {
                let value = self.child_field(item, self.fields.value);
                let mut cursor = item.walk();
                let designators: Vec<TsNode<'a>> = item
                    .children_by_field_id(self.fields.designator, &mut cursor)
                    .collect();
                pos += 1;
                let Some(value) = value else { continue };
                let mut targets: Vec<SubObject> = vec![(offset, ty, None)];
                for (di, d) in designators.iter().enumerate() {
                    let mut next = Vec::new();
                    for &(toff, tty, _) in &targets {
                        match self.designate(tty, *d) {
                            Some((list, index)) => {
                                if di == 0 {
                                    if let Some(&last) = index.last() {
                                        current = last + 1;
                                        count = count.max(current);
                                    }
                                }
                                for (o, t, b) in list {
                                    next.push((toff + o, t, b));
                                }
                            }
                            None => self.diag(Severity::Error, *d, "invalid designator".into()),
                        }
                    }
                    targets = next;
                }
                for (toff, tty, bits) in targets {
                    self.init_subobject(tty, toff, bits, value, out);
                }
                continue;
            }
            let (sub_off, sub_ty, bits) = match array {
                Some((elem, len)) => {
                    if len.is_some_and(|l| current >= l) {
                        self.diag(
                            Severity::Warning,
                            item,
                            "excess elements in initializer".into(),
                        );
                        break;
                    }
                    (offset + current * self.size_of(elem), elem, None)
                }
                None => match members.get(current as usize) {
                    Some(&(o, t, b)) => (offset + o, t, b),
                    None => {
                        self.diag(
                            Severity::Warning,
                            item,
                            "excess elements in initializer".into(),
                        );
                        break;
                    }
                },
            };
            if item.kind() == "initializer_list" {
                self.walk_braced(sub_ty, sub_off, item, out);
                pos += 1;
            } else if self.linker.program.types.is_aggregate(sub_ty) {
                if is_string(item) && self.is_char_array(sub_ty) {
                    out.push(Leaf::String {
                        offset: sub_off,
                        ty: sub_ty,
                        value: item,
                    });
                    pos += 1;
                } else if self.is_record(sub_ty) && self.expr_has_type(item, sub_ty) {
                    out.push(Leaf::Record {
                        offset: sub_off,
                        ty: sub_ty,
                        value: item,
                    });
                    pos += 1;
                } else {
                    let before = pos;
                    self.fill(sub_ty, sub_off, &items, &mut pos, out);
                    if pos == before {
                        // An empty or incomplete sub-object takes nothing: skip the item.
                        self.diag(
                            Severity::Error,
                            item,
                            "initializer for an incomplete object".into(),
                        );
                        pos += 1;
                    }
                }
            } else {
                out.push(Leaf::Scalar {
                    offset: sub_off,
                    ty: sub_ty,
                    bits,
                    value: item,
                });
                pos += 1;
            }
            current += 1;
            count = count.max(current);
        }
        count
    }

    /// Whether an initializer expression has record type `ty` (struct copy), judged
    /// without keeping effects.
    fn expr_has_type(&mut self, item: TsNode<'a>, ty: TypeId) -> bool {
        if matches!(
            item.kind(),
            "number_literal" | "char_literal" | "string_literal" | "initializer_list"
        ) {
            return false;
        }
        self.speculate(|this| this.lower_expr(item).ty() == ty)
    }

    /// Brace elision: initializes the aggregate at `offset` from `items[*pos..]`.
    fn fill(
        &mut self,
        ty: TypeId,
        offset: u64,
        items: &[TsNode<'a>],
        pos: &mut usize,
        out: &mut Vec<Leaf<'a>>,
    ) {
        let subs: Vec<SubObject> = match self.linker.program.types.get(ty).clone() {
            Type::Array { elem, len } => {
                if let Some(&item) = items.get(*pos) {
                    if is_string(item) && self.is_char_array(ty) {
                        out.push(Leaf::String {
                            offset,
                            ty,
                            value: item,
                        });
                        *pos += 1;
                        return;
                    }
                }
                let size = self.size_of(elem);
                (0..len.unwrap_or(0).min(1 << 20))
                    .map(|i| (i * size, elem, None))
                    .collect()
            }
            Type::Record(_) => self.members_of(ty),
            _ => vec![(0, ty, None)],
        };
        for (o, sub_ty, bits) in subs {
            let Some(&item) = items.get(*pos) else { return };
            if item.kind() == "initializer_pair" {
                return;
            }
            if item.kind() == "initializer_list" {
                self.walk_braced(sub_ty, offset + o, item, out);
                *pos += 1;
            } else if self.linker.program.types.is_aggregate(sub_ty) {
                if self.is_record(sub_ty) && self.expr_has_type(item, sub_ty) {
                    out.push(Leaf::Record {
                        offset: offset + o,
                        ty: sub_ty,
                        value: item,
                    });
                    *pos += 1;
                } else {
                    self.fill(sub_ty, offset + o, items, pos, out);
                }
            } else {
                out.push(Leaf::Scalar {
                    offset: offset + o,
                    ty: sub_ty,
                    bits,
                    value: item,
                });
                *pos += 1;
            }
        }
    }

    fn init_subobject(
        &mut self,
        ty: TypeId,
        offset: u64,
        bits: Option<(u32, u32)>,
        value: TsNode<'a>,
        out: &mut Vec<Leaf<'a>>,
    ) {
        if value.kind() == "initializer_list" {
            self.walk_braced(ty, offset, value, out);
        } else if is_string(value) && self.is_char_array(ty) {
            out.push(Leaf::String { offset, ty, value });
        } else if self.linker.program.types.is_aggregate(ty) {
            if self.is_record(ty) && self.expr_has_type(value, ty) {
                out.push(Leaf::Record { offset, ty, value });
            } else {
                let items = [value];
                let mut pos = 0;
                self.fill(ty, offset, &items, &mut pos, out);
            }
        } else {
            out.push(Leaf::Scalar {
                offset,
                ty,
                bits,
                value,
            });
        }
    }

    /// Resolves one designator within `ty`: the designated sub-objects (several for a
    /// range) and the top-level indices they occupy.
    fn designate(&mut self, ty: TypeId, d: TsNode<'a>) -> Option<(Vec<SubObject>, Vec<u64>)> {
        match d.kind() {
            "field_designator" | "field_identifier" => {
                let name_node = if d.kind() == "field_identifier" {
                    d
                } else {
                    d.named_child(0)?
                };
                let name = self.text(name_node);
                let (off, field) = self.find_field(ty, name)?;
                let rec = self.linker.program.types.record(ty)?;
                let index = rec
                    .fields
                    .iter()
                    .filter(|f| !(f.name.is_empty() && f.bit_field.is_some()))
                    .position(|f| {
                        f.name == name
                            || (f.name.is_empty() && self.find_field(f.ty, name).is_some())
                    })
                    .unwrap_or(0) as u64;
                Some((vec![(off, field.ty, field.bit_field)], vec![index]))
            }
            "subscript_designator" => {
                let Type::Array { elem, .. } = self.linker.program.types.get(ty).clone() else {
                    return None;
                };
                let index = self.const_int_expr(d.named_child(0)?)?;
                let index = u64::try_from(index).ok()?;
                Some((vec![(index * self.size_of(elem), elem, None)], vec![index]))
            }
            "subscript_range_designator" => {
                let Type::Array { elem, .. } = self.linker.program.types.get(ty).clone() else {
                    return None;
                };
                let lo =
                    u64::try_from(self.const_int_expr(self.child_field(d, self.fields.start)?)?)
                        .ok()?;
                let hi = u64::try_from(self.const_int_expr(self.child_field(d, self.fields.end)?)?)
                    .ok()?;
                let size = self.size_of(elem);
                let list = (lo..=hi.min(lo + (1 << 20)))
                    .map(|i| (i * size, elem, None))
                    .collect();
                Some((list, vec![hi]))
            }
            _ => None,
        }
    }

    /// The array type of an incompletely sized object, completed from its initializer.
    pub fn complete_array_type(&mut self, ty: TypeId, value: TsNode<'a>) -> TypeId {
        let Type::Array { elem, len: None } = self.linker.program.types.get(ty).clone() else {
            return ty;
        };
        let mut leaves = Vec::new();
        let count = self.speculate(|this| this.flatten_init(ty, value, &mut leaves));
        self.linker.program.types.array_of(elem, Some(count))
    }

    /// Initializes a local object (already declared) from its initializer.
    pub fn init_local(&mut self, lv: LVal, value: TsNode<'a>) {
        let ty = lv.ty();
        if self.linker.program.types.is_scalar(ty) {
            let v = if value.kind() == "initializer_list" {
                match self.list_items(value).first() {
                    Some(&first) => self.rvalue(first),
                    None => self.int_const(0, self.types.int),
                }
            } else {
                self.rvalue(value)
            };
            let v = self.assign_convert(v, ty);
            self.store(&lv, v);
            return;
        }
        let LVal::Mem(base, _) = lv else { return };
        if self.is_record(ty) && value.kind() != "initializer_list" {
            let v = self.rvalue(value);
            let v = self.assign_convert(v, ty);
            self.store(&LVal::Mem(base, ty), v);
            return;
        }
        let mut leaves = Vec::new();
        self.flatten_init(ty, value, &mut leaves);
        let size = self.size_of(ty);
        let t = self.types;
        let vp = self.types.void_ptr;
        let dst = self.convert(base.clone(), vp);
        self.call_with(
            Callee::Intrinsic(Intrinsic::Memset),
            vec![
                dst,
                Expr::int(0, t.int),
                Expr::int(u128::from(size), t.ulong),
            ],
            t.void,
            false,
        );
        for leaf in leaves {
            match leaf {
                Leaf::Scalar {
                    offset,
                    ty,
                    bits,
                    value,
                } => {
                    let v = self.rvalue(value);
                    let v = self.assign_convert(v, ty);
                    let addr = self.offset_addr(base.clone(), offset as i64, ty);
                    let lv = match bits {
                        Some((bit_offset, width)) => LVal::Bits {
                            addr,
                            bit_offset,
                            width,
                            ty,
                        },
                        None => LVal::Mem(addr, ty),
                    };
                    self.store(&lv, v);
                }
                Leaf::Record { offset, ty, value } => {
                    let v = self.rvalue(value);
                    let addr = self.offset_addr(base.clone(), offset as i64, ty);
                    self.store(&LVal::Mem(addr, ty), v);
                }
                Leaf::String { offset, ty, value } => {
                    let (g, sty) = self.string_global(value);
                    let n = self.size_of(sty).min(match self.size_of(ty) {
                        0 => u64::MAX,
                        s => s,
                    });
                    let vp = self.types.void_ptr;
                    let addr = self.offset_addr(base.clone(), offset as i64, t.char_);
                    let dst = self.convert(addr, vp);
                    let src = Expr::new(ExprKind::AddrOfGlobal(g), vp);
                    self.call_with(
                        Callee::Intrinsic(Intrinsic::Memcpy),
                        vec![dst, src, Expr::int(u128::from(n), t.ulong)],
                        t.void,
                        false,
                    );
                }
            }
        }
    }

    /// The constant initializer of a global (or static local) of type `ty`.
    pub fn global_init(&mut self, ty: TypeId, value: TsNode<'a>) -> GlobalInit {
        let mut leaves = Vec::new();
        let was_in_function = self.in_function;
        self.flatten_init(ty, value, &mut leaves);
        let mut items = Vec::new();
        for leaf in leaves {
            match leaf {
                Leaf::Scalar {
                    offset,
                    ty,
                    bits,
                    value,
                } => {
                    let Some(e) = self.const_value(ty, value) else {
                        self.non_constant(value);
                        continue;
                    };
                    match bits {
                        Some((bit_offset, width)) => items.push(InitItem::Bits {
                            offset,
                            unit: ty,
                            bit_offset,
                            width,
                            value: e,
                        }),
                        None => items.push(InitItem::Value { offset, value: e }),
                    }
                }
                Leaf::String { offset, ty, value } => {
                    let (units, width) = self.string_units(value);
                    let mut bytes = self.units_to_bytes(&units, width);
                    let unit = unit_size(width);
                    bytes.extend(std::iter::repeat_n(0u8, unit));
                    let size = self.size_of(ty);
                    if size > 0 && bytes.len() as u64 > size {
                        bytes.truncate(size as usize);
                    }
                    items.push(InitItem::Bytes { offset, bytes });
                }
                Leaf::Record { offset, ty, value } => {
                    // A compound literal or a constant record: fold its members.
                    let inner = crate::expr::strip_parens(value);
                    if inner.kind() == "compound_literal_expression" {
                        if let Some(list) = self.child_field(inner, self.fields.value) {
                            let sub = self.global_init(ty, list);
                            for item in sub.items {
                                items.push(shift_item(item, offset));
                            }
                            continue;
                        }
                    }
                    self.non_constant(value);
                }
            }
        }
        self.in_function = was_in_function;
        GlobalInit { items }
    }

    fn non_constant(&mut self, value: TsNode<'a>) {
        let saved = self.in_function;
        self.in_function = false;
        self.approx(
            ApproximationKind::NonConstantInitializer,
            value,
            format!(
                "initializer `{}` is not a constant",
                truncate_text(self.text(value))
            ),
        );
        self.in_function = saved;
    }

    /// Evaluates a constant initializer value of type `ty` (no effects allowed).
    fn const_value(&mut self, ty: TypeId, value: TsNode<'a>) -> Option<Expr> {
        let snap_effects = self.func.effects;
        let e = self.speculate(|this| {
            let v = this.rvalue(value);
            let v = this.assign_convert(v, ty);
            if this.func.effects != snap_effects {
                None
            } else {
                Some(v)
            }
        })?;
        let c = fold(&self.linker.program.types, &e)?;
        Some(match c {
            Const::Int(v) => Expr::int(v, ty),
            Const::Float(f) => Expr::new(ExprKind::Float(f), ty),
            Const::Addr(base, off) => {
                let vp = self.types.void_ptr;
                let a = match base {
                    Base::Global(g) => Expr::new(ExprKind::AddrOfGlobal(g), vp),
                    Base::Func(f) => Expr::new(ExprKind::AddrOfFunc(f), vp),
                };
                if off == 0 {
                    self.retype(a, ty)
                } else {
                    let long = self.types.long;
                    let sum = Expr::binary(
                        ripple_ir::BinOp::PtrAdd,
                        a,
                        self.int_const(i128::from(off), long),
                        vp,
                    );
                    if ty == vp {
                        sum
                    } else {
                        Expr::cast(sum, ty)
                    }
                }
            }
        })
    }

    /// Decodes a string literal (or concatenation) into code units and its width.
    pub fn string_units(&mut self, node: TsNode<'a>) -> (Vec<u32>, CharWidth) {
        let mut units = Vec::new();
        let mut width = CharWidth::Narrow;
        let mut parts = Vec::new();
        if node.kind() == "concatenated_string" {
            let mut cursor = node.walk();
            parts.extend(node.named_children(&mut cursor));
        } else {
            parts.push(node);
        }
        for part in parts {
            if part.kind() != "string_literal" {
                if part.kind() == "identifier" {
                    self.diag(
                        Severity::Warning,
                        part,
                        format!(
                            "macro `{}` in a string concatenation is ignored",
                            self.text(part)
                        ),
                    );
                }
                continue;
            }
            let (w, body) = split_literal(self.text(part), '"');
            if w != CharWidth::Narrow {
                width = w;
            }
            decode_escapes(body, w != CharWidth::Narrow, &mut units);
        }
        (units, width)
    }

    fn units_to_bytes(&self, units: &[u32], width: CharWidth) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(units.len() * unit_size(width));
        for &u in units {
            match width {
                CharWidth::Narrow => bytes.push(u as u8),
                CharWidth::Utf16 => bytes.extend_from_slice(&(u as u16).to_le_bytes()),
                CharWidth::Wide | CharWidth::Utf32 => bytes.extend_from_slice(&u.to_le_bytes()),
            }
        }
        bytes
    }

    /// The read-only global holding a string literal (`.str.N`).
    pub fn string_global(&mut self, node: TsNode<'a>) -> (GlobalId, TypeId) {
        let (units, width) = self.string_units(node);
        let bytes = self.units_to_bytes(&units, width);
        let elem = match width {
            CharWidth::Narrow => self.types.char_,
            CharWidth::Wide => self.types.int,
            CharWidth::Utf16 => self.types.ushort,
            CharWidth::Utf32 => self.types.uint,
        };
        self.bytes_global(bytes, elem, node)
    }

    /// A read-only global array of `elem` holding `bytes` plus a terminating zero unit.
    pub fn bytes_global(
        &mut self,
        mut bytes: Vec<u8>,
        elem: TypeId,
        node: TsNode<'a>,
    ) -> (GlobalId, TypeId) {
        let unit = self.size_of(elem).max(1) as usize;
        bytes.extend(std::iter::repeat_n(0u8, unit));
        let len = (bytes.len() / unit) as u64;
        let ty = self.linker.program.types.array_of(elem, Some(len));
        // Keyed by content, so that adding a literal elsewhere leaves the keys of the
        // others alone; identical literals share one global (C11 6.4.5p7 allows it).
        let hash = fnv1a(&bytes, unit as u8);
        let mut key = format!(".str.{hash:016x}");
        let mut n = 0;
        while let Some(&g) = self.linker.global_keys.get(&key) {
            let existing = &self.linker.program.globals[g];
            let same = existing.ty == ty
                && existing.init.as_ref().is_some_and(|init| {
                    matches!(&init.items[..], [InitItem::Bytes { offset: 0, bytes: b }] if *b == bytes)
                });
            if same {
                return (g, ty);
            }
            n += 1;
            key = format!(".str.{hash:016x}.{n}");
        }
        let span = self.span_of(node);
        let g = self.linker.program.globals.push(Global {
            name: key.clone(),
            key: key.clone(),
            linkage: Linkage::Internal(self.unit_file),
            ty,
            init: Some(GlobalInit {
                items: vec![InitItem::Bytes { offset: 0, bytes }],
            }),
            is_const: true,
            span,
        });
        self.linker.global_keys.insert(key, g);
        (g, ty)
    }
}

/// FNV-1a (64 bits) of the bytes of a literal and its unit size: stable across runs
/// and versions.
fn fnv1a(bytes: &[u8], unit: u8) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in std::iter::once(&unit).chain(bytes) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn unit_size(width: CharWidth) -> usize {
    match width {
        CharWidth::Narrow => 1,
        CharWidth::Utf16 => 2,
        CharWidth::Wide | CharWidth::Utf32 => 4,
    }
}

fn shift_item(item: InitItem, by: u64) -> InitItem {
    match item {
        InitItem::Value { offset, value } => InitItem::Value {
            offset: offset + by,
            value,
        },
        InitItem::Bytes { offset, bytes } => InitItem::Bytes {
            offset: offset + by,
            bytes,
        },
        InitItem::Bits {
            offset,
            unit,
            bit_offset,
            width,
            value,
        } => InitItem::Bits {
            offset: offset + by,
            unit,
            bit_offset,
            width,
            value,
        },
    }
}

fn truncate_text(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}
