//! C types with their LP64 layout (x86-64 System V), interned in a [`TypeTable`].

use rustc_hash::FxHashMap;

use crate::{IndexVec, TypeId};

/// The integer types of C, with their LP64 widths. `char` is signed, as on x86-64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
}

impl IntKind {
    pub fn bits(self) -> u32 {
        match self {
            IntKind::Bool | IntKind::Char | IntKind::SChar | IntKind::UChar => 8,
            IntKind::Short | IntKind::UShort => 16,
            IntKind::Int | IntKind::UInt => 32,
            IntKind::Long | IntKind::ULong | IntKind::LongLong | IntKind::ULongLong => 64,
            IntKind::Int128 | IntKind::UInt128 => 128,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntKind::Char
                | IntKind::SChar
                | IntKind::Short
                | IntKind::Int
                | IntKind::Long
                | IntKind::LongLong
                | IntKind::Int128
        )
    }

    /// The integer conversion rank of C11 6.3.1.1 (higher converts wider).
    pub fn rank(self) -> u32 {
        match self {
            IntKind::Bool => 0,
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LongLong | IntKind::ULongLong => 5,
            IntKind::Int128 | IntKind::UInt128 => 6,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar => IntKind::UChar,
            IntKind::Short => IntKind::UShort,
            IntKind::Int => IntKind::UInt,
            IntKind::Long => IntKind::ULong,
            IntKind::LongLong => IntKind::ULongLong,
            IntKind::Int128 => IntKind::UInt128,
            other => other,
        }
    }

    pub fn c_name(self) -> &'static str {
        match self {
            IntKind::Bool => "_Bool",
            IntKind::Char => "char",
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::ULongLong => "unsigned long long",
            IntKind::Int128 => "__int128",
            IntKind::UInt128 => "unsigned __int128",
        }
    }
}

/// Floating types. `long double` is the x87 80-bit type in memory (16 bytes); analyses and
/// the interpreter compute it as `double` and record that approximation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

impl FloatKind {
    pub fn c_name(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
        }
    }
}

/// A type. Records (struct and union) are nominal: [`Type::Record`] names an entry of
/// [`TypeTable::records`]; every other type is structural and interned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Pointer(TypeId),
    /// `len` is `None` for an incomplete array (`int a[]`, a flexible member).
    Array {
        elem: TypeId,
        len: Option<u64>,
    },
    Record(u32),
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        varargs: bool,
        /// False for an old-style declaration `int f()` with unknown parameters.
        prototyped: bool,
    },
}

/// A struct or union member with its byte offset; bit-fields also have a bit offset and
/// width inside the storage unit of type `ty` starting at `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Empty for an anonymous member (its fields are reachable through it).
    pub name: String,
    pub ty: TypeId,
    pub offset: u64,
    pub bit_field: Option<(u32, u32)>,
}

/// A struct or union.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tag, if any.
    pub tag: Option<String>,
    /// For a record without a tag, the first typedef naming it (`typedef struct {...}
    /// name;`): how C code names it, and a name that does not depend on how many records
    /// the program declares before it.
    pub typedef: Option<String>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// False while only a forward declaration has been seen.
    pub complete: bool,
}

impl Record {
    /// How C code names the record: `struct tag` (`union tag`), else the typedef name of
    /// an anonymous one (`typedef struct {...} name;`). The same in both versions of a
    /// program whatever records are declared before it.
    pub fn c_name(&self) -> Option<String> {
        let keyword = if self.is_union { "union" } else { "struct" };
        match (&self.tag, &self.typedef) {
            (Some(tag), _) => Some(format!("{keyword} {tag}")),
            (None, Some(name)) => Some(name.clone()),
            (None, None) => None,
        }
    }
}

/// All types of a program.
#[derive(Clone, Debug)]
pub struct TypeTable {
    types: IndexVec<TypeId, Type>,
    interned: FxHashMap<Type, TypeId>,
    pub records: Vec<Record>,
}

impl Default for TypeTable {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeTable {
    pub fn new() -> Self {
        TypeTable {
            types: IndexVec::new(),
            interned: FxHashMap::default(),
            records: Vec::new(),
        }
    }

    /// The id of `ty`, adding it if new.
    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.interned.get(&ty) {
            return id;
        }
        let id = self.types.push(ty.clone());
        self.interned.insert(ty, id);
        id
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id]
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }

    pub fn int(&mut self, kind: IntKind) -> TypeId {
        self.intern(Type::Int(kind))
    }

    pub fn float(&mut self, kind: FloatKind) -> TypeId {
        self.intern(Type::Float(kind))
    }

    pub fn pointer_to(&mut self, pointee: TypeId) -> TypeId {
        self.intern(Type::Pointer(pointee))
    }

    pub fn array_of(&mut self, elem: TypeId, len: Option<u64>) -> TypeId {
        self.intern(Type::Array { elem, len })
    }

    /// Names the record `ty` by `name` when it has neither a tag nor a typedef name yet
    /// (`typedef struct {...} name;`).
    pub fn name_anonymous_record(&mut self, ty: TypeId, name: &str) {
        if let &Type::Record(index) = self.get(ty) {
            let rec = &mut self.records[index as usize];
            if rec.tag.is_none() && rec.typedef.is_none() {
                rec.typedef = Some(name.to_string());
            }
        }
    }

    /// A new, incomplete record; complete it with [`TypeTable::complete_record`].
    pub fn declare_record(&mut self, tag: Option<String>, is_union: bool) -> TypeId {
        let index = u32::try_from(self.records.len()).expect("record count fits in u32");
        self.records.push(Record {
            tag,
            typedef: None,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        });
        self.intern(Type::Record(index))
    }

    /// Lays out `members` (name, type, bit-field width) by the System V x86-64 rules
    /// (GCC's, including bit-field packing into storage units of their declared type)
    /// and completes the record `record`. `packed` sets every alignment to 1. A member
    /// whose type contains the record itself (possible only in erroneous input, which the
    /// frontend reports) is left out, so that record types stay well-founded.
    pub fn complete_record(
        &mut self,
        record: TypeId,
        members: Vec<(String, TypeId, Option<u32>)>,
        packed: bool,
    ) {
        let none = vec![None; members.len()];
        self.complete_aligned_record(record, members, packed, &none, None);
    }

    /// [`Self::complete_record`] with GNU `aligned` attributes: `aligned[i]` raises the
    /// alignment of member `i` (not a bit-field's), `record_aligned` the record's; an
    /// alignment is only ever raised, also in a packed record.
    pub fn complete_aligned_record(
        &mut self,
        record: TypeId,
        members: Vec<(String, TypeId, Option<u32>)>,
        packed: bool,
        aligned: &[Option<u64>],
        record_aligned: Option<u64>,
    ) {
        let Type::Record(index) = *self.get(record) else {
            panic!("complete_record on a non-record type");
        };
        let is_union = self.records[index as usize].is_union;
        let members: Vec<_> = members
            .into_iter()
            .zip(aligned.iter().copied().chain(std::iter::repeat(None)))
            .filter(|((_, ty, _), _)| !self.contains_record(*ty, index))
            .collect();
        let mut fields = Vec::with_capacity(members.len());
        let mut size: u64 = 0; // bytes used so far (struct) or max size (union)
        let mut bit_pos: u64 = 0; // bit position within the struct, for bit-fields
        let mut align: u64 = 1;
        for ((name, ty, width), raised) in members {
            let field_size = self.size_of(ty);
            let natural = if packed { 1 } else { self.align_of(ty) };
            let field_align = match (width, raised) {
                (None, Some(raised)) => natural.max(raised),
                _ => natural,
            };
            match width {
                Some(width) => {
                    // A bit-field of a type without size (an error the frontend reports)
                    // is laid out in a byte, so that the layout stays defined.
                    let unit_bits = (field_size * 8).max(8);
                    if is_union {
                        fields.push(Field {
                            name,
                            ty,
                            offset: 0,
                            bit_field: Some((0, width)),
                        });
                        size = size.max(field_size);
                    } else if width == 0 {
                        // A zero-width bit-field pads to the next unit of its type.
                        let unit = field_align * 8;
                        bit_pos = bit_pos.div_ceil(unit) * unit;
                        continue;
                    } else {
                        // Start a new unit when the field would straddle its unit boundary.
                        let unit_start = bit_pos / unit_bits * unit_bits;
                        if bit_pos + u64::from(width) > unit_start + unit_bits {
                            bit_pos = bit_pos.div_ceil(unit_bits) * unit_bits;
                        }
                        let unit_start = bit_pos / (field_align * 8) * (field_align * 8);
                        let offset = unit_start / 8;
                        let bit_offset = u32::try_from(bit_pos - unit_start).unwrap_or(0);
                        fields.push(Field {
                            name,
                            ty,
                            offset,
                            bit_field: Some((bit_offset, width)),
                        });
                        bit_pos += u64::from(width);
                        size = bit_pos.div_ceil(8);
                    }
                    // Unnamed bit-fields do not affect the record's alignment (SysV ABI).
                    if !fields.last().is_some_and(|f: &Field| f.name.is_empty()) {
                        align = align.max(field_align);
                    }
                }
                None => {
                    if is_union {
                        fields.push(Field {
                            name,
                            ty,
                            offset: 0,
                            bit_field: None,
                        });
                        size = size.max(field_size);
                    } else {
                        let offset = bit_pos
                            .div_ceil(8)
                            .div_ceil(field_align)
                            .saturating_mul(field_align);
                        fields.push(Field {
                            name,
                            ty,
                            offset,
                            bit_field: None,
                        });
                        bit_pos = offset.saturating_add(field_size).saturating_mul(8);
                        size = offset.saturating_add(field_size);
                    }
                    align = align.max(field_align);
                }
            }
        }
        let align = align.max(record_aligned.unwrap_or(1));
        let size = size.div_ceil(align).saturating_mul(align);
        let rec = &mut self.records[index as usize];
        rec.fields = fields;
        rec.size = size;
        rec.align = align;
        rec.complete = true;
    }

    /// The record behind a record type.
    pub fn record(&self, ty: TypeId) -> Option<&Record> {
        match self.get(ty) {
            Type::Record(index) => Some(&self.records[*index as usize]),
            _ => None,
        }
    }

    /// Whether a value of type `ty` contains a value of the record `index` (through
    /// arrays and members; not through pointers).
    fn contains_record(&self, ty: TypeId, index: u32) -> bool {
        match self.get(ty) {
            Type::Array { elem, .. } => self.contains_record(*elem, index),
            Type::Record(i) => {
                *i == index
                    || self.records[*i as usize]
                        .fields
                        .iter()
                        .any(|f| self.contains_record(f.ty, index))
            }
            _ => false,
        }
    }

    /// Per type, whether it mentions one of `records`: is one, or is made of one
    /// through arrays, members, pointers or function signatures.
    pub fn mentioning(&self, records: &[TypeId]) -> Vec<bool> {
        let mut marks = vec![false; self.len()];
        for &r in records {
            marks[r.index()] = true;
        }
        loop {
            let mut grew = false;
            for (id, ty) in self.types.iter_enumerated() {
                if marks[id.index()] {
                    continue;
                }
                let hit = match ty {
                    Type::Pointer(t) | Type::Array { elem: t, .. } => marks[t.index()],
                    Type::Record(i) => self.records[*i as usize]
                        .fields
                        .iter()
                        .any(|f| marks[f.ty.index()]),
                    Type::Function { ret, params, .. } => {
                        marks[ret.index()] || params.iter().any(|p| marks[p.index()])
                    }
                    Type::Void | Type::Int(_) | Type::Float(_) => false,
                };
                if hit {
                    marks[id.index()] = true;
                    grew = true;
                }
            }
            if !grew {
                return marks;
            }
        }
    }

    /// `sizeof`, with GNU's 1 for `void` and functions; 0 for incomplete types.
    pub fn size_of(&self, ty: TypeId) -> u64 {
        match self.get(ty) {
            Type::Void | Type::Function { .. } => 1,
            Type::Int(kind) => u64::from(kind.bits() / 8),
            Type::Float(FloatKind::Float) => 4,
            Type::Float(FloatKind::Double) => 8,
            Type::Float(FloatKind::LongDouble) => 16,
            Type::Pointer(_) => 8,
            Type::Array { elem, len } => len.unwrap_or(0).saturating_mul(self.size_of(*elem)),
            Type::Record(index) => self.records[*index as usize].size,
        }
    }

    pub fn align_of(&self, ty: TypeId) -> u64 {
        match self.get(ty) {
            Type::Void | Type::Function { .. } => 1,
            Type::Array { elem, .. } => self.align_of(*elem),
            Type::Record(index) => self.records[*index as usize].align,
            _ => self.size_of(ty).max(1),
        }
    }

    pub fn is_integer(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Int(_))
    }

    pub fn is_float(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Float(_))
    }

    pub fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Pointer(_))
    }

    /// Integers, floats and pointers: the types a register can hold.
    pub fn is_scalar(&self, ty: TypeId) -> bool {
        matches!(
            self.get(ty),
            Type::Int(_) | Type::Float(_) | Type::Pointer(_)
        )
    }

    pub fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Record(_) | Type::Array { .. })
    }

    pub fn int_kind(&self, ty: TypeId) -> Option<IntKind> {
        match self.get(ty) {
            Type::Int(kind) => Some(*kind),
            _ => None,
        }
    }

    pub fn pointee(&self, ty: TypeId) -> Option<TypeId> {
        match self.get(ty) {
            Type::Pointer(pointee) => Some(*pointee),
            _ => None,
        }
    }

    /// Whether values of this type are signed (pointers are not).
    /// Whether `ty` is `long double`, which the solver computes as `double`.
    pub fn is_long_double(&self, ty: TypeId) -> bool {
        matches!(self.get(ty), Type::Float(FloatKind::LongDouble))
    }

    pub fn is_signed(&self, ty: TypeId) -> bool {
        match self.get(ty) {
            Type::Int(kind) => kind.is_signed(),
            Type::Float(_) => true,
            _ => false,
        }
    }

    /// The width in bits of a scalar type (pointers: 64).
    pub fn bits(&self, ty: TypeId) -> u32 {
        match self.get(ty) {
            Type::Int(kind) => kind.bits(),
            Type::Float(FloatKind::Float) => 32,
            Type::Float(_) => 64,
            _ => 64,
        }
    }

    /// A C-like rendering of a type, for dumps and messages.
    pub fn display(&self, ty: TypeId) -> String {
        match self.get(ty) {
            Type::Void => "void".into(),
            Type::Int(kind) => kind.c_name().into(),
            Type::Float(kind) => kind.c_name().into(),
            Type::Pointer(pointee) => format!("{}*", self.display(*pointee)),
            Type::Array { elem, len } => match len {
                Some(len) => format!("{}[{len}]", self.display(*elem)),
                None => format!("{}[]", self.display(*elem)),
            },
            Type::Record(index) => {
                let rec = &self.records[*index as usize];
                let keyword = if rec.is_union { "union" } else { "struct" };
                match (&rec.tag, &rec.typedef) {
                    (Some(tag), _) => format!("{keyword} {tag}"),
                    (None, Some(name)) => name.clone(),
                    (None, None) => format!("{keyword} <anon#{index}>"),
                }
            }
            Type::Function {
                ret,
                params,
                varargs,
                ..
            } => {
                let mut parts: Vec<String> = params.iter().map(|p| self.display(*p)).collect();
                if *varargs {
                    parts.push("...".into());
                }
                format!("{}({})", self.display(*ret), parts.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected layouts are those GCC gives on x86-64 (checked with offsetof/sizeof).
    #[test]
    fn struct_layout_follows_sysv() {
        let mut t = TypeTable::new();
        let ch = t.int(IntKind::Char);
        let int = t.int(IntKind::Int);
        let dbl = t.float(FloatKind::Double);
        let s = t.declare_record(Some("s".into()), false);
        // struct s { char c; int i; char d; double x; } -> offsets 0, 4, 8, 16; size 24.
        t.complete_record(
            s,
            vec![
                ("c".into(), ch, None),
                ("i".into(), int, None),
                ("d".into(), ch, None),
                ("x".into(), dbl, None),
            ],
            false,
        );
        let rec = t.record(s).unwrap();
        let offsets: Vec<u64> = rec.fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, vec![0, 4, 8, 16]);
        assert_eq!(t.size_of(s), 24);
        assert_eq!(t.align_of(s), 8);
    }

    #[test]
    fn bit_fields_pack_into_units() {
        let mut t = TypeTable::new();
        let uint = t.int(IntKind::UInt);
        let ch = t.int(IntKind::Char);
        let s = t.declare_record(None, false);
        // struct { unsigned a:3, b:30; char c; }: b does not fit after a in the first
        // 32-bit unit, so it starts the second (offset 4); c follows at 8; size 12.
        t.complete_record(
            s,
            vec![
                ("a".into(), uint, Some(3)),
                ("b".into(), uint, Some(30)),
                ("c".into(), ch, None),
            ],
            false,
        );
        let rec = t.record(s).unwrap();
        assert_eq!(rec.fields[0].offset, 0);
        assert_eq!(rec.fields[0].bit_field, Some((0, 3)));
        assert_eq!(rec.fields[1].offset, 4);
        assert_eq!(rec.fields[1].bit_field, Some((0, 30)));
        assert_eq!(rec.fields[2].offset, 8);
        assert_eq!(t.size_of(s), 12);
    }

    #[test]
    fn bit_field_of_a_sizeless_type_has_a_layout() {
        // `struct { void v : 3; int i; }` is an error in C, but lowering broken input must
        // still lay the record out (the fuzzer found a division by zero here).
        let mut t = TypeTable::new();
        let void = t.void();
        let int = t.int(IntKind::Int);
        let s = t.declare_record(None, false);
        t.complete_record(
            s,
            vec![("v".into(), void, Some(3)), ("i".into(), int, None)],
            false,
        );
        let rec = t.record(s).unwrap();
        assert_eq!(rec.fields[1].offset, 4);
        assert_eq!(t.size_of(s), 8);
    }

    #[test]
    fn a_record_never_contains_itself() {
        // Erroneous input can name a record as its own member (after a nested
        // redefinition of its tag); the member is left out and layouts stay finite.
        let mut t = TypeTable::new();
        let int = t.int(IntKind::Int);
        let s = t.declare_record(Some("s".into()), false);
        t.complete_record(s, vec![("x".into(), int, None)], false);
        let arr = t.array_of(s, Some(2));
        t.complete_record(
            s,
            vec![("a".into(), int, None), ("self_arr".into(), arr, None)],
            false,
        );
        let rec = t.record(s).unwrap();
        assert_eq!(rec.fields.len(), 1);
        assert_eq!(t.size_of(s), 4);
    }

    #[test]
    fn union_size_is_max_member() {
        let mut t = TypeTable::new();
        let ch = t.int(IntKind::Char);
        let arr = t.array_of(ch, Some(5));
        let long = t.int(IntKind::Long);
        let u = t.declare_record(Some("u".into()), true);
        t.complete_record(
            u,
            vec![("a".into(), arr, None), ("l".into(), long, None)],
            false,
        );
        assert_eq!(t.size_of(u), 8);
    }
}
