//! Type resolution: declaration specifiers, declarators (pointers, arrays, functions),
//! struct/union/enum specifiers with their layout, and the C conversions (integer
//! promotions, usual arithmetic conversions, conversion by assignment; C11 6.3.1).

use std::num::NonZeroU16;

use ripple_ir::{ApproximationKind, Expr, ExprKind, FloatKind, IntKind, Type, TypeId, VarId};
use tree_sitter::Node as TsNode;

use crate::lower::{Lowerer, Sym};
use crate::Severity;

/// Field ids of the grammar, looked up once.
#[derive(Clone, Copy)]
pub(crate) struct FieldIds {
    pub type_: NonZeroU16,
    pub declarator: NonZeroU16,
    pub value: NonZeroU16,
    pub name: NonZeroU16,
    pub body: NonZeroU16,
    pub size: NonZeroU16,
    pub parameters: NonZeroU16,
    pub left: NonZeroU16,
    pub right: NonZeroU16,
    pub operator: NonZeroU16,
    pub argument: NonZeroU16,
    pub condition: NonZeroU16,
    pub consequence: NonZeroU16,
    pub alternative: NonZeroU16,
    pub function: NonZeroU16,
    pub arguments: NonZeroU16,
    pub field: NonZeroU16,
    pub index: NonZeroU16,
    pub initializer: NonZeroU16,
    pub update: NonZeroU16,
    pub label: NonZeroU16,
    pub designator: NonZeroU16,
    pub member: NonZeroU16,
    pub start: NonZeroU16,
    pub end: NonZeroU16,
}

impl FieldIds {
    pub fn new(language: &tree_sitter::Language) -> Self {
        let id = |name: &str| language.field_id_for_name(name).unwrap_or(NonZeroU16::MAX);
        FieldIds {
            type_: id("type"),
            declarator: id("declarator"),
            value: id("value"),
            name: id("name"),
            body: id("body"),
            size: id("size"),
            parameters: id("parameters"),
            left: id("left"),
            right: id("right"),
            operator: id("operator"),
            argument: id("argument"),
            condition: id("condition"),
            consequence: id("consequence"),
            alternative: id("alternative"),
            function: id("function"),
            arguments: id("arguments"),
            field: id("field"),
            index: id("index"),
            initializer: id("initializer"),
            update: id("update"),
            label: id("label"),
            designator: id("designator"),
            member: id("member"),
            start: id("start"),
            end: id("end"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum StorageClass {
    #[default]
    None,
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

/// The specifiers of a declaration, resolved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Specs {
    pub ty: TypeId,
    pub storage: StorageClass,
    pub is_const: bool,
}

/// A parameter of a function declarator.
#[derive(Clone, Debug)]
pub(crate) struct Param<'a> {
    pub name: Option<&'a str>,
    pub ty: TypeId,
    /// The parameter declaration (absent in an identifier list).
    pub decl: Option<TsNode<'a>>,
    /// The declarator of an identifier-list parameter in the K&R declarations (where
    /// its type is written).
    pub knr_declarator: Option<TsNode<'a>>,
}

/// The result of walking a declarator.
#[derive(Clone, Debug)]
pub(crate) struct Declared<'a> {
    pub name: Option<&'a str>,
    pub name_node: Option<TsNode<'a>>,
    pub ty: TypeId,
    /// The parameters of the function declarator applied directly to the name.
    pub params: Option<Vec<Param<'a>>>,
    /// A variable-length array dimension (outermost) whose size is not constant.
    pub vla_size: Option<TsNode<'a>>,
    /// Whether the declared object itself is const-qualified when the declarator
    /// decides it (a pointer or function derivation applied last); `None`: the
    /// qualifiers of the specifiers decide (the object is of the base type or an array
    /// of it).
    pub own_const: Option<bool>,
    /// A function declarator the parser made of a type keyword and a parenthesized
    /// name (see [`Lowerer::keyword_read_as_declarator`]), with that name.
    read_as_name: Option<(usize, TsNode<'a>)>,
}

impl Declared<'_> {
    /// Whether the declared object is const (not merely points to const).
    pub fn is_const(&self, specs_const: bool) -> bool {
        self.own_const.unwrap_or(specs_const)
    }
}

impl<'a> Lowerer<'a, '_> {
    pub fn child_field(&self, node: TsNode<'a>, field: NonZeroU16) -> Option<TsNode<'a>> {
        node.child_by_field_id(field.get())
    }

    /// Resolves the specifiers of a declaration-like node (declaration, field
    /// declaration, parameter declaration, type descriptor, function definition).
    pub fn specs(&mut self, decl: TsNode<'a>) -> Specs {
        let mut storage = StorageClass::None;
        let mut is_const = false;
        let mut cursor = decl.walk();
        for child in decl.children(&mut cursor) {
            match child.kind() {
                "storage_class_specifier" => match self.text(child) {
                    "typedef" => storage = StorageClass::Typedef,
                    "extern" => storage = StorageClass::Extern,
                    "static" => storage = StorageClass::Static,
                    "auto" => storage = StorageClass::Auto,
                    "register" => storage = StorageClass::Register,
                    _ => {}
                },
                "type_qualifier" if self.text(child) == "const" => is_const = true,
                _ => {}
            }
        }
        // `typedef` appears as a plain keyword child in type definitions.
        if decl.kind() == "type_definition" {
            storage = StorageClass::Typedef;
        }
        let ty = match self.child_field(decl, self.fields.type_) {
            Some(spec) => self.type_specifier(spec),
            None => self.types.int,
        };
        let ty = self.with_type_attributes(decl, ty);
        Specs {
            ty,
            storage,
            is_const,
        }
    }

    /// The type a type specifier names.
    pub fn type_specifier(&mut self, spec: TsNode<'a>) -> TypeId {
        match spec.kind() {
            "primitive_type" => self.primitive_type(spec, self.text(spec)),
            "type_identifier" => {
                let name = self.text(spec);
                match self.lookup(name) {
                    Some(Sym::Typedef(ty)) => ty,
                    _ => {
                        if let Some(ty) = self.builtin_type_name(name) {
                            return ty;
                        }
                        if name == "__auto_type" {
                            // Each declarator's type is its initializer's
                            // (`Lowerer::declared_base`).
                            return self.types.int;
                        }
                        self.diag(Severity::Error, spec, format!("unknown type name `{name}`"));
                        self.types.int
                    }
                }
            }
            "sized_type_specifier" => self.sized_type(spec),
            "struct_specifier" => match self.typeof_operand(spec) {
                Some(ty) => ty,
                None => self.record_specifier(spec, false),
            },
            "union_specifier" => self.record_specifier(spec, true),
            "enum_specifier" => self.enum_specifier(spec),
            "macro_type_specifier" => {
                // `typeof (x)` of a variable in scope: tree-sitter reads `x` as a type
                // name (GNU's `typeof (x) _x = (x);` in statement-expression macros).
                let macro_name = self
                    .child_field(spec, self.fields.name)
                    .map(|n| self.text(n));
                let desc = self.child_field(spec, self.fields.type_);
                if let (Some("typeof" | "__typeof__" | "__typeof"), Some(desc)) = (macro_name, desc)
                {
                    let words: Vec<&str> = self.text(desc).split_whitespace().collect();
                    if let [word] = words.as_slice() {
                        match self.lookup(word) {
                            Some(
                                crate::lower::Sym::Local(_, ty)
                                | crate::lower::Sym::Global(_, ty)
                                | crate::lower::Sym::Func(_, ty)
                                | crate::lower::Sym::EnumConst(_, ty),
                            ) => return ty,
                            Some(crate::lower::Sym::Vla { ty, .. }) => return ty,
                            _ => {}
                        }
                    }
                }
                match desc {
                    Some(desc) => self.type_descriptor(desc),
                    None => self.types.int,
                }
            }
            _ => {
                self.diag(
                    Severity::Error,
                    spec,
                    format!("unsupported type specifier `{}`", spec.kind()),
                );
                self.types.int
            }
        }
    }

    /// The type of EXPR in `typeof (EXPR)`, respelled `struct{void
    /// __ripple_typeof[EXPR];}` (an array of `void`, which no type name is), not
    /// evaluated, or of T in `typeof (T)`, respelled as a member of type T named
    /// `__ripple_typeof` (module comment of `oldstyle`); `None` for any other structure. A lone name in EXPR may still name a
    /// type (a typedef of a block scope).
    pub(crate) fn typeof_operand(&mut self, spec: TsNode<'a>) -> Option<TypeId> {
        if spec.kind() != "struct_specifier" || self.child_field(spec, self.fields.name).is_some() {
            return None;
        }
        let body = self.child_field(spec, self.fields.body)?;
        let field = body.named_child(0).filter(|_| {
            body.named_child_count() == 1
                && body
                    .named_child(0)
                    .is_some_and(|f| f.kind() == "field_declaration")
        })?;
        let declarator = self.child_field(field, self.fields.declarator)?;
        let name = crate::symbols::declared_name(declarator)?;
        if self.text(name) != crate::oldstyle::TYPEOF_MEMBER {
            return None;
        }
        let base = self.child_field(field, self.fields.type_)?;
        let of_expression = declarator.kind() == "array_declarator"
            && self.child_field(declarator, self.fields.declarator) == Some(name)
            && base.kind() == "primitive_type"
            && self.text(base) == "void";
        if !of_expression {
            // `typeof (T)`: the member's type.
            let specs = self.specs(field);
            return Some(self.declarator(declarator, specs.ty).ty);
        }
        let expr = self.child_field(declarator, self.fields.size)?;
        if expr.kind() == "identifier" {
            let name = self.text(expr);
            match self.lookup(name) {
                Some(Sym::Typedef(ty)) => return Some(ty),
                None => {
                    if let Some(ty) = self.builtin_type_name(name) {
                        return Some(ty);
                    }
                }
                _ => {}
            }
        }
        Some(self.speculate(|this| this.lower_expr(expr).ty()))
    }

    /// Names GCC predefines or that tree-sitter parses as primitive types.
    pub fn builtin_type_name(&mut self, name: &str) -> Option<TypeId> {
        let t = self.types;
        Some(match name {
            "__builtin_va_list" | "va_list" | "__gnuc_va_list" => t.va_list,
            "_Float128" | "__float128" | "_Float64x" | "__ieee128" => t.ldouble,
            "_Float64" | "_Float32x" => t.double,
            "_Float32" | "_Float16" => t.float,
            "__int128" | "__int128_t" => t.i128,
            "__uint128_t" => t.u128,
            "size_t" | "uintptr_t" | "uint64_t" | "__SIZE_TYPE__" | "uintmax_t" => t.ulong,
            "ssize_t" | "ptrdiff_t" | "intptr_t" | "int64_t" | "intmax_t" | "off_t" => t.long,
            "int8_t" => t.schar,
            "uint8_t" | "char8_t" => t.uchar,
            "int16_t" => t.short,
            "uint16_t" | "char16_t" => t.ushort,
            "int32_t" | "wchar_t" => t.int,
            "uint32_t" | "char32_t" => t.uint,
            "bool" | "_Bool" => t.bool_,
            "max_align_t" => t.ldouble,
            "nullptr_t" => t.void_ptr,
            _ => return None,
        })
    }

    fn primitive_type(&mut self, node: TsNode<'a>, name: &str) -> TypeId {
        let t = self.types;
        match name {
            "void" => t.void,
            "char" => t.char_,
            "int" | "signed" => t.int,
            "unsigned" => t.uint,
            "short" => t.short,
            "long" => t.long,
            "float" => t.float,
            "double" => t.double,
            "_Bool" => t.bool_,
            "__int128" => t.i128,
            _ => match self.lookup(name) {
                Some(Sym::Typedef(ty)) => ty,
                _ => match self.builtin_type_name(name) {
                    Some(ty) => ty,
                    None => {
                        self.diag(Severity::Error, node, format!("unknown type `{name}`"));
                        t.int
                    }
                },
            },
        }
    }

    /// `unsigned long long int` and friends.
    fn sized_type(&mut self, spec: TsNode<'a>) -> TypeId {
        let mut unsigned = false;
        let mut longs = 0;
        let mut short = false;
        let mut base: Option<&str> = None;
        let mut cursor = spec.walk();
        for child in spec.children(&mut cursor) {
            match self.text(child) {
                "unsigned" => unsigned = true,
                "signed" | "__signed__" | "__signed" => {}
                "long" => longs += 1,
                "short" => short = true,
                other if child.kind() == "primitive_type" || child.kind() == "type_identifier" => {
                    base = Some(other);
                }
                _ => {}
            }
        }
        let t = self.types;
        let signed_char = spec
            .children(&mut spec.walk())
            .any(|c| matches!(self.text(c), "signed" | "__signed__" | "__signed"));
        match base {
            Some("char") => {
                if unsigned {
                    t.uchar
                } else if signed_char {
                    t.schar
                } else {
                    t.char_
                }
            }
            Some("double") => {
                if longs > 0 {
                    t.ldouble
                } else {
                    t.double
                }
            }
            Some("__int128") => {
                if unsigned {
                    t.u128
                } else {
                    t.i128
                }
            }
            Some("float") => t.float,
            Some("_Bool") => t.bool_,
            _ => {
                let kind = if short {
                    IntKind::Short
                } else if longs >= 2 {
                    IntKind::LongLong
                } else if longs == 1 {
                    IntKind::Long
                } else {
                    IntKind::Int
                };
                let kind = if unsigned { kind.to_unsigned() } else { kind };
                self.linker.program.types.int(kind)
            }
        }
    }

    /// The type of a type descriptor (`type_name` in the C grammar).
    pub fn type_descriptor(&mut self, desc: TsNode<'a>) -> TypeId {
        let specs = self.specs(desc);
        match self.child_field(desc, self.fields.declarator) {
            Some(d) => self.declarator(d, specs.ty).ty,
            None => specs.ty,
        }
    }

    /// Applies a declarator to the base type.
    pub fn declarator(&mut self, node: TsNode<'a>, base: TypeId) -> Declared<'a> {
        let mut out = Declared {
            name: None,
            name_node: None,
            ty: base,
            params: None,
            vla_size: None,
            own_const: None,
            read_as_name: None,
        };
        let mut base = base;
        if let Some((misread, keyword, name)) = self.keyword_read_as_declarator(node) {
            if let Some(whole) = self.with_keyword(base, keyword) {
                base = whole;
                out.ty = whole;
                out.read_as_name = Some((misread.id(), name));
            }
        }
        self.apply_declarator(node, base, &mut out);
        out
    }

    /// `unsigned long(name)(...)`: the parser reads the last keyword of the type as the
    /// name of a function declarator whose parameter list is `(name)` (a parameter of
    /// the "type" `name`), since it cannot know that `name` is no type. Returns that
    /// function declarator, the keyword, and the name, when the innermost declarator
    /// of `node` is such a keyword.
    fn keyword_read_as_declarator(
        &self,
        node: TsNode<'a>,
    ) -> Option<(TsNode<'a>, &'a str, TsNode<'a>)> {
        let mut at = node;
        loop {
            let inner = match at.kind() {
                "parenthesized_declarator" | "attributed_declarator" => at.named_child(0)?,
                _ => self.child_field(at, self.fields.declarator)?,
            };
            if at.kind() == "function_declarator" && inner.kind() == "primitive_type" {
                let list = self.child_field(at, self.fields.parameters)?;
                let mut cursor = list.walk();
                let params: Vec<TsNode<'a>> = list.named_children(&mut cursor).collect();
                let [param] = params[..] else {
                    return None;
                };
                let mut cursor = param.walk();
                let parts: Vec<TsNode<'a>> = param.named_children(&mut cursor).collect();
                return match parts[..] {
                    [name]
                        if param.kind() == "parameter_declaration"
                            && name.kind() == "type_identifier" =>
                    {
                        Some((at, self.text(inner), name))
                    }
                    _ => None,
                };
            }
            at = inner;
        }
    }

    /// The type the specifiers give with one more type keyword after them (`unsigned`
    /// and `long`: `unsigned long`), if that is a type.
    fn with_keyword(&mut self, base: TypeId, keyword: &str) -> Option<TypeId> {
        use ripple_ir::FloatKind;
        let types = &mut self.linker.program.types;
        let kind = match types.get(base) {
            Type::Int(kind) => *kind,
            Type::Float(FloatKind::Double) if keyword == "long" => {
                return Some(types.float(FloatKind::LongDouble));
            }
            _ => return None,
        };
        let (signed, unsigned) = match kind {
            IntKind::UChar => (IntKind::SChar, true),
            IntKind::UShort => (IntKind::Short, true),
            IntKind::UInt => (IntKind::Int, true),
            IntKind::ULong => (IntKind::Long, true),
            IntKind::ULongLong => (IntKind::LongLong, true),
            other => (other, false),
        };
        let kind = match (keyword, signed) {
            ("int", k) if k != IntKind::Char && k != IntKind::SChar => k,
            ("long", IntKind::Int) => IntKind::Long,
            ("long", IntKind::Long) => IntKind::LongLong,
            ("short", IntKind::Int) => IntKind::Short,
            ("char", IntKind::Int) if unsigned => return Some(types.int(IntKind::UChar)),
            ("char", IntKind::Int) => IntKind::SChar,
            ("double", IntKind::Long) => return Some(types.float(FloatKind::LongDouble)),
            _ => return None,
        };
        Some(types.int(if unsigned { kind.to_unsigned() } else { kind }))
    }

    fn apply_declarator(&mut self, node: TsNode<'a>, base: TypeId, out: &mut Declared<'a>) {
        match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "primitive_type" => {
                out.name = Some(self.text(node));
                out.name_node = Some(node);
                out.ty = base;
            }
            "pointer_declarator" | "abstract_pointer_declarator" => {
                let ptr = self.linker.program.types.pointer_to(base);
                let mut cursor = node.walk();
                let qualified = node
                    .children(&mut cursor)
                    .any(|c| c.kind() == "type_qualifier" && self.text(c) == "const");
                out.own_const = Some(qualified);
                match self.child_field(node, self.fields.declarator) {
                    Some(inner) => self.apply_declarator(inner, ptr, out),
                    None => out.ty = ptr,
                }
            }
            "array_declarator" | "abstract_array_declarator" => {
                let len = match self.child_field(node, self.fields.size) {
                    Some(size) if size.kind() != "*" => match self.const_int_expr(size) {
                        Some(n) => Some(u64::try_from(n).unwrap_or(0)),
                        None => {
                            if self.in_params > 0 {
                                // Evaluated at the entry of the function defined.
                            } else if self.in_function {
                                out.vla_size = Some(size);
                                self.vla_dimension(size, base);
                            } else {
                                self.diag(
                                    Severity::Error,
                                    size,
                                    "array size is not an integer constant".into(),
                                );
                            }
                            None
                        }
                    },
                    _ => None,
                };
                let arr = self.linker.program.types.array_of(base, len);
                match self.child_field(node, self.fields.declarator) {
                    Some(inner) => self.apply_declarator(inner, arr, out),
                    None => out.ty = arr,
                }
            }
            "function_declarator" if out.read_as_name.is_some_and(|(id, _)| id == node.id()) => {
                let name = out.read_as_name.map(|(_, name)| name);
                out.name = name.map(|n| self.text(n));
                out.name_node = name;
                out.ty = base;
            }
            "function_declarator" | "abstract_function_declarator" => {
                out.own_const = Some(false);
                let (params, varargs, prototyped) =
                    match self.child_field(node, self.fields.parameters) {
                        Some(list) => self.parameter_list(list),
                        None => (Vec::new(), false, false),
                    };
                let fn_ty = self.linker.program.types.intern(Type::Function {
                    ret: base,
                    params: params.iter().map(|p| p.ty).collect(),
                    varargs,
                    prototyped,
                });
                let inner = self.child_field(node, self.fields.declarator);
                let direct = inner.is_some_and(|i| {
                    let mut i = i;
                    while matches!(
                        i.kind(),
                        "parenthesized_declarator" | "attributed_declarator"
                    ) {
                        match i.named_child(0) {
                            Some(c) => i = c,
                            None => break,
                        }
                    }
                    matches!(
                        i.kind(),
                        "identifier" | "field_identifier" | "type_identifier"
                    )
                });
                if direct || out.params.is_none() {
                    out.params = Some(params);
                }
                match inner {
                    Some(inner) => self.apply_declarator(inner, fn_ty, out),
                    None => out.ty = fn_ty,
                }
            }
            "parenthesized_declarator"
            | "attributed_declarator"
            | "abstract_parenthesized_declarator" => {
                let mut cursor = node.walk();
                let inner = node.named_children(&mut cursor).find(|c| {
                    !matches!(
                        c.kind(),
                        "attribute_declaration" | "ms_call_modifier" | "attribute_specifier"
                    )
                });
                match inner {
                    Some(inner) => self.apply_declarator(inner, base, out),
                    None => out.ty = base,
                }
            }
            "init_declarator" => {
                if let Some(inner) = self.child_field(node, self.fields.declarator) {
                    self.apply_declarator(inner, base, out);
                }
            }
            _ => out.ty = base,
        }
    }

    /// A variable-length array dimension of `size` elements of `elem`: evaluates its
    /// size in bytes into a register (at the declaration, as C requires) and records it
    /// for the type `elem[]`.
    fn vla_dimension(&mut self, size: TsNode<'a>, elem: TypeId) {
        let ulong = self.types.ulong;
        self.ensure_cur();
        let n = self.rvalue(size);
        let n = self.convert(n, ulong);
        let esize = self.runtime_size(elem);
        let bytes = Expr::binary(ripple_ir::BinOp::Mul, n, esize, ulong);
        let var = self.new_local("", ulong, ripple_ir::LocalKind::Temp, false);
        self.emit(ripple_ir::NodeKind::Assign {
            dst: ripple_ir::Place::Local(var),
            value: bytes,
        });
        let ty = self.linker.program.types.array_of(elem, None);
        self.func.vla_types.push((ty, var));
    }

    /// The register holding the size of a variable-length array type, if `ty` is one.
    pub fn vla_size_var(&self, ty: TypeId) -> Option<VarId> {
        if !self.in_function || self.func.vla_types.is_empty() {
            return None;
        }
        self.func
            .vla_types
            .iter()
            .rev()
            .find(|(t, _)| *t == ty)
            .map(|(_, v)| *v)
    }

    /// `sizeof` of a type as an `unsigned long` expression: a constant, or computed from
    /// the run-time lengths of variable-length array dimensions.
    pub fn runtime_size(&mut self, ty: TypeId) -> Expr {
        let ulong = self.types.ulong;
        if let Some(var) = self.vla_size_var(ty) {
            return Expr::local(var, ulong);
        }
        if !self.func.vla_types.is_empty() {
            if let Type::Array { elem, len: Some(n) } = *self.linker.program.types.get(ty) {
                let e = self.runtime_size(elem);
                if !matches!(e.kind, ExprKind::Int(_)) {
                    return Expr::binary(
                        ripple_ir::BinOp::Mul,
                        Expr::int(u128::from(n), ulong),
                        e,
                        ulong,
                    );
                }
            }
        }
        Expr::int(u128::from(self.size_of(ty)), ulong)
    }

    /// Evaluates the variable-length array dimensions of the parameters of the function
    /// being defined, at its entry (after the parameters are bound).
    pub fn param_vla_dimensions(&mut self, params: &[Param<'a>]) {
        for p in params {
            let Some(decl) = p.decl else { continue };
            let has_incomplete = {
                let types = &self.linker.program.types;
                let mut ty = p.ty;
                let mut found = false;
                for _ in 0..64 {
                    match types.get(ty) {
                        Type::Pointer(t) => ty = *t,
                        Type::Array { elem, len } => {
                            found |= len.is_none();
                            ty = *elem;
                        }
                        _ => break,
                    }
                }
                found
            };
            if !has_incomplete {
                continue;
            }
            let specs = self.specs(decl);
            if let Some(d) = self.child_field(decl, self.fields.declarator) {
                self.declarator(d, specs.ty);
            }
        }
    }

    /// The parameters of a function declarator: (params, varargs, prototyped).
    fn parameter_list(&mut self, list: TsNode<'a>) -> (Vec<Param<'a>>, bool, bool) {
        self.in_params += 1;
        let result = self.parameter_list_inner(list);
        self.in_params -= 1;
        result
    }

    fn parameter_list_inner(&mut self, list: TsNode<'a>) -> (Vec<Param<'a>>, bool, bool) {
        let mut params = Vec::new();
        let mut varargs = false;
        let mut saw_any = false;
        let mut old_style = false;
        let mut cursor = list.walk();
        let children: Vec<TsNode<'a>> = list
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect();
        // Only a definition may have an identifier list (C11 6.7.6.3p3): in a
        // declaration `f(size_t)`, `size_t` is a type whose declaration is missing.
        let identifier_list = !children.is_empty()
            && in_definition(list)
            && children.iter().all(|&c| {
                c.kind() == "identifier"
                    || (c.kind() == "parameter_declaration" && self.knr_identifier(c).is_some())
            });
        for child in children {
            match child.kind() {
                "parameter_declaration" if identifier_list => {
                    // `f(n)` where `n` names no type: an identifier list read as a
                    // type-only parameter.
                    old_style = true;
                    params.push(Param {
                        name: self.knr_identifier(child),
                        ty: self.types.int,
                        decl: None,
                        knr_declarator: None,
                    });
                }
                "parameter_declaration" => {
                    saw_any = true;
                    let specs = self.specs(child);
                    let (name, ty) = match self.child_field(child, self.fields.declarator) {
                        Some(d) => {
                            let dec = self.declarator(d, specs.ty);
                            (dec.name, dec.ty)
                        }
                        None => (None, specs.ty),
                    };
                    let ty = self.adjust_param_type(ty);
                    params.push(Param {
                        name,
                        ty,
                        decl: Some(child),
                        knr_declarator: None,
                    });
                }
                "variadic_parameter" => varargs = true,
                "identifier" => {
                    // An old-style identifier list: types come from the declarations
                    // before the body (default `int`).
                    old_style = true;
                    params.push(Param {
                        name: Some(self.text(child)),
                        ty: self.types.int,
                        decl: None,
                        knr_declarator: None,
                    });
                }
                _ => {}
            }
        }
        // `(void)` means no parameters.
        if params.len() == 1 && params[0].name.is_none() && params[0].ty == self.types.void {
            params.clear();
            return (params, false, true);
        }
        let prototyped = saw_any && !old_style;
        (params, varargs, prototyped)
    }

    /// The name of a parameter declaration that is only a name which is no type (an
    /// identifier of an old-style list, as the grammar reads `Ele *f(n)`).
    fn knr_identifier(&self, decl: TsNode<'a>) -> Option<&'a str> {
        if self.child_field(decl, self.fields.declarator).is_some() {
            return None;
        }
        let ty = self.child_field(decl, self.fields.type_)?;
        if ty.kind() != "type_identifier" || decl.named_child_count() != 1 {
            return None;
        }
        let name = self.text(ty);
        match self.lookup(name) {
            Some(crate::lower::Sym::Typedef(_)) => None,
            _ => Some(name),
        }
    }

    /// Parameter type adjustment: arrays become pointers, functions function pointers.
    pub fn adjust_param_type(&mut self, ty: TypeId) -> TypeId {
        match self.linker.program.types.get(ty).clone() {
            Type::Array { elem, .. } => self.linker.program.types.pointer_to(elem),
            Type::Function { .. } => self.linker.program.types.pointer_to(ty),
            _ => ty,
        }
    }

    fn has_packed_attribute(&self, node: TsNode<'a>) -> bool {
        let mut cursor = node.walk();
        let found = node.children(&mut cursor).any(|c| {
            matches!(c.kind(), "attribute_specifier" | "attribute_declaration")
                && self.text(c).contains("packed")
        });
        found
    }

    /// A struct or union specifier: declares, completes or refers to a record.
    fn record_specifier(&mut self, spec: TsNode<'a>, is_union: bool) -> TypeId {
        let name = self
            .child_field(spec, self.fields.name)
            .map(|n| self.text(n));
        let body = self.child_field(spec, self.fields.body);
        let Some(body) = body else {
            // A reference (or a forward declaration).
            if let Some(name) = name {
                if let Some(ty) = self.lookup_tag(name) {
                    return ty;
                }
                let ty = self
                    .linker
                    .program
                    .types
                    .declare_record(Some(name.to_string()), is_union);
                if let Some(scope) = self.scopes.last_mut() {
                    scope.tags.insert(name, ty);
                }
                return ty;
            }
            return self.linker.program.types.declare_record(None, is_union);
        };
        let ty = match name {
            Some(name) => {
                let existing = self.scopes.last().and_then(|s| s.tags.get(name).copied());
                match existing {
                    Some(ty)
                        if self
                            .linker
                            .program
                            .types
                            .record(ty)
                            .is_some_and(|r| !r.complete) =>
                    {
                        ty
                    }
                    _ => {
                        let ty = self
                            .linker
                            .program
                            .types
                            .declare_record(Some(name.to_string()), is_union);
                        if let Some(scope) = self.scopes.last_mut() {
                            scope.tags.insert(name, ty);
                        }
                        ty
                    }
                }
            }
            None => self.linker.program.types.declare_record(None, is_union),
        };
        let mut packed = self.has_packed_attribute(spec);
        if !packed {
            // `struct {...} __attribute__((packed)) x;`: the attribute follows the body
            // as a sibling in the enclosing declaration.
            if let Some(parent) = spec.parent() {
                if matches!(
                    parent.kind(),
                    "declaration" | "type_definition" | "field_declaration"
                ) {
                    packed = self.has_packed_attribute(parent);
                }
            }
        }
        // `aligned` on the record: before its body, or after it (a sibling in the
        // enclosing declaration; one before the `struct` keyword is the variables').
        let mut record_aligned = self.aligned_attribute(spec, 0);
        if let Some(parent) = spec.parent() {
            if matches!(parent.kind(), "declaration" | "type_definition") {
                let outer = self.aligned_attribute(parent, spec.end_byte());
                record_aligned = record_aligned.max(outer);
            }
        }
        let errors_before = self.linker.program.read_errors.len();
        let mut members = Vec::new();
        let mut aligned = Vec::new();
        let mut cursor = body.walk();
        for field in body.named_children(&mut cursor) {
            if field.kind() != "field_declaration" {
                continue;
            }
            let specs = self.specs(field);
            let field_aligned = self.aligned_attribute(field, 0);
            let mut width = None;
            let mut declarators = Vec::new();
            let mut fc = field.walk();
            for child in field.children(&mut fc) {
                if child.kind() == "bitfield_clause" {
                    width = child
                        .named_child(0)
                        .and_then(|e| self.const_int_expr(e))
                        .map(|w| u32::try_from(w).unwrap_or(0));
                }
            }
            let mut fc = field.walk();
            for d in field.children_by_field_id(self.fields.declarator, &mut fc) {
                declarators.push(d);
            }
            if declarators.is_empty() {
                // An anonymous struct/union member, or an unnamed bit-field.
                if self.is_incomplete_record(specs.ty) {
                    // `struct s;` inside a body declares a tag, not a member.
                    continue;
                }
                members.push((String::new(), specs.ty, width));
                aligned.push(field_aligned);
                continue;
            }
            for d in declarators {
                let dec = self.declarator(d, specs.ty);
                if self.is_incomplete_record(dec.ty) || self.element_type_is(dec.ty, ty) {
                    // A member of incomplete type, or of the record's own type (after a
                    // nested redefinition of its tag), has no layout.
                    self.diag(
                        crate::Severity::Error,
                        d,
                        "field has incomplete type".into(),
                    );
                    continue;
                }
                members.push((dec.name.unwrap_or("").to_string(), dec.ty, width));
                aligned.push(field_aligned);
            }
        }
        // Errors in the body outside functions concern the code using this record (an
        // error in a nested record's body, that record, which this one contains).
        // So do the syntax errors in the body, reported before the unit was lowered.
        let mut broken = false;
        let body_span = self.span_of(body);
        let in_body = |e: &ripple_ir::ReadError| {
            e.span.file == body_span.file
                && (body_span.start_line, body_span.start_col)
                    <= (e.span.start_line, e.span.start_col)
                && (e.span.end_line, e.span.end_col) <= (body_span.end_line, body_span.end_col)
        };
        for (i, error) in self.linker.program.read_errors.iter_mut().enumerate() {
            if error.function.is_none() && (i >= errors_before || in_body(error)) {
                error.record.get_or_insert(ty);
                broken = true;
            }
        }
        if broken {
            self.linker.broken_records.push(ty);
        }
        // Records nested in records are visible at the enclosing scope (C has no
        // struct scopes), which is where they were declared above.
        if let Type::Record(_) = self.linker.program.types.get(ty) {
            self.linker.program.types.complete_aligned_record(
                ty,
                members,
                packed,
                &aligned,
                record_aligned,
            );
        }
        ty
    }

    /// Whether `ty`, or the element type of the arrays it is made of, is `record`.
    fn element_type_is(&self, mut ty: TypeId, record: TypeId) -> bool {
        loop {
            if ty == record {
                return true;
            }
            match self.linker.program.types.get(ty) {
                Type::Array { elem, .. } => ty = *elem,
                _ => return false,
            }
        }
    }

    fn is_incomplete_record(&self, ty: TypeId) -> bool {
        self.linker
            .program
            .types
            .record(ty)
            .is_some_and(|r| !r.complete)
    }

    /// An enum specifier: binds its constants and returns its integer type.
    fn enum_specifier(&mut self, spec: TsNode<'a>) -> TypeId {
        let name = self
            .child_field(spec, self.fields.name)
            .map(|n| self.text(n));
        let Some(body) = self.child_field(spec, self.fields.body) else {
            if let Some(name) = name {
                if let Some(ty) = self.lookup_tag(name) {
                    return ty;
                }
            }
            return self.types.uint;
        };
        let mut next: i128 = 0;
        let mut values: Vec<(&'a str, i128)> = Vec::new();
        let mut cursor = body.walk();
        for e in body.named_children(&mut cursor) {
            if e.kind() != "enumerator" {
                continue;
            }
            let Some(name_node) = self.child_field(e, self.fields.name) else {
                continue;
            };
            let ename = self.text(name_node);
            if let Some(v) = self.child_field(e, self.fields.value) {
                match self.const_int_expr(v) {
                    Some(val) => next = val,
                    None => self.diag(
                        Severity::Error,
                        v,
                        format!("enumerator `{ename}` is not an integer constant"),
                    ),
                }
            }
            // Constants are visible in the following enumerators' values.
            let int = self.types.int;
            let cty = if i32::try_from(next).is_ok() {
                int
            } else {
                self.types.long
            };
            self.bind(ename, Sym::EnumConst(next, cty));
            values.push((ename, next));
            next += 1;
        }
        let min = values.iter().map(|v| v.1).min().unwrap_or(0);
        let max = values.iter().map(|v| v.1).max().unwrap_or(0);
        let t = self.types;
        let ty = if min >= 0 {
            if max <= i128::from(u32::MAX) {
                t.uint
            } else {
                t.ulong
            }
        } else if min >= i128::from(i32::MIN) && max <= i128::from(i32::MAX) {
            t.int
        } else {
            t.long
        };
        // Constants outside `int` take the enum's type.
        for (ename, v) in values {
            if i32::try_from(v).is_err() {
                self.bind(ename, Sym::EnumConst(v, ty));
            }
        }
        if let Some(name) = name {
            if let Some(scope) = self.scopes.last_mut() {
                scope.tags.insert(name, ty);
            }
        }
        ty
    }

    // ----- conversions -----

    pub fn is_int(&self, ty: TypeId) -> bool {
        self.linker.program.types.is_integer(ty)
    }

    pub fn is_float(&self, ty: TypeId) -> bool {
        self.linker.program.types.is_float(ty)
    }

    pub fn is_ptr(&self, ty: TypeId) -> bool {
        self.linker.program.types.is_pointer(ty)
    }

    pub fn is_arith(&self, ty: TypeId) -> bool {
        matches!(
            self.linker.program.types.get(ty),
            Type::Int(_) | Type::Float(_)
        )
    }

    pub fn is_record(&self, ty: TypeId) -> bool {
        matches!(self.linker.program.types.get(ty), Type::Record(_))
    }

    pub fn size_of(&self, ty: TypeId) -> u64 {
        self.linker.program.types.size_of(ty)
    }

    pub fn pointer_to(&mut self, ty: TypeId) -> TypeId {
        self.linker.program.types.pointer_to(ty)
    }

    /// Converts `e` to `to` (no-op when the types are equal).
    pub fn convert(&mut self, e: Expr, to: TypeId) -> Expr {
        if e.ty == to {
            return e;
        }
        let types = &self.linker.program.types;
        match (types.get(e.ty), types.get(to)) {
            // Retyping a pointer constant or pointer needs no conversion node when both
            // are pointers; keep a cast anyway so the type is explicit.
            (_, Type::Void) => e,
            (Type::Record(_), _)
            | (_, Type::Record(_))
            | (Type::Array { .. }, _)
            | (_, Type::Array { .. }) => Expr { ty: to, ..e },
            _ => Expr::cast(e, to),
        }
    }

    /// The integer promotion of a type (bit-fields handled by [`Self::promote`]).
    pub fn promoted_type(&self, ty: TypeId) -> TypeId {
        match self.linker.program.types.get(ty) {
            Type::Int(kind) if kind.rank() < IntKind::Int.rank() => self.types.int,
            _ => ty,
        }
    }

    /// The type of an argument of that type after the default argument promotions
    /// (C11 6.5.2.2p6).
    pub fn default_promoted_type(&self, ty: TypeId) -> TypeId {
        if matches!(
            self.linker.program.types.get(ty),
            Type::Float(ripple_ir::FloatKind::Float)
        ) {
            return self.types.double;
        }
        self.promoted_type(ty)
    }

    /// Integer promotions of a value (C11 6.3.1.1), including bit-fields narrower than
    /// `int`, which promote to `int`.
    pub fn promote(&mut self, e: Expr) -> Expr {
        if let ExprKind::LoadBits { width, .. } = e.kind {
            if let Some(kind) = self.linker.program.types.int_kind(e.ty) {
                let to = if width < 32 || (width == 32 && kind.is_signed()) {
                    self.types.int
                } else if width == 32 {
                    self.types.uint
                } else {
                    self.promoted_type(e.ty)
                };
                return self.convert(e, to);
            }
        }
        let to = self.promoted_type(e.ty);
        self.convert(e, to)
    }

    /// The common type of the usual arithmetic conversions (after promotion).
    pub fn common_type(&mut self, a: TypeId, b: TypeId) -> TypeId {
        let types = &self.linker.program.types;
        match (types.get(a).clone(), types.get(b).clone()) {
            (Type::Float(x), Type::Float(y)) => {
                if x >= y {
                    a
                } else {
                    b
                }
            }
            (Type::Float(_), _) => a,
            (_, Type::Float(_)) => b,
            (Type::Int(x), Type::Int(y)) => {
                let x = if x.rank() < IntKind::Int.rank() {
                    IntKind::Int
                } else {
                    x
                };
                let y = if y.rank() < IntKind::Int.rank() {
                    IntKind::Int
                } else {
                    y
                };
                let kind = if x == y {
                    x
                } else if x.is_signed() == y.is_signed() {
                    if x.rank() >= y.rank() {
                        x
                    } else {
                        y
                    }
                } else {
                    let (s, u) = if x.is_signed() { (x, y) } else { (y, x) };
                    if u.rank() >= s.rank() {
                        u
                    } else if s.bits() > u.bits() {
                        s
                    } else {
                        s.to_unsigned()
                    }
                };
                self.linker.program.types.int(kind)
            }
            _ => a,
        }
    }

    /// Applies the usual arithmetic conversions to two operands.
    pub fn usual_arith(&mut self, a: Expr, b: Expr) -> (Expr, Expr, TypeId) {
        let a = self.promote(a);
        let b = self.promote(b);
        let ty = self.common_type(a.ty, b.ty);
        let a = self.convert(a, ty);
        let b = self.convert(b, ty);
        (a, b, ty)
    }

    /// Notes `long double` arithmetic (computed as `double` by the analyses).
    pub fn note_long_double(&mut self, ty: TypeId, node: TsNode<'_>) {
        if ty == self.types.ldouble && self.in_function && self.speculating == 0 {
            self.approx(
                ApproximationKind::LongDouble,
                node,
                "long double arithmetic computed as double".into(),
            );
        }
    }

    pub fn float_kind(&self, ty: TypeId) -> Option<FloatKind> {
        match self.linker.program.types.get(ty) {
            Type::Float(k) => Some(*k),
            _ => None,
        }
    }
}

/// Whether a parameter list belongs to the declarator of a function definition.
fn in_definition(list: TsNode<'_>) -> bool {
    let mut node = list;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "function_declarator"
            | "pointer_declarator"
            | "parenthesized_declarator"
            | "array_declarator"
            | "attributed_declarator" => node = parent,
            "function_definition" => return true,
            _ => return false,
        }
    }
    false
}
