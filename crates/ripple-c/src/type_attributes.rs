//! GNU type attributes that make new types or layouts: vectors (`__attribute__((vector_size
//! (N)))`, vector modes such as `mode (V4SI)`), integers and floats of a given machine
//! mode (`mode (DI)`, `mode (TI)`), and the `aligned` alignment of structure members and
//! records, as GCC defines them ("Using Vector Instructions through Built-in Functions",
//! "Specifying Attributes of Types", "Specifying Attributes of Variables"). An `aligned`
//! type defined by a typedef keeps its type's alignment (not modelled).
//!
//! A vector is a record of one member, the array of its lanes: a value that is copied,
//! passed and returned whole, of size and alignment N as GCC lays it out. A subscript
//! indexes the lanes; arithmetic, bitwise, shift and comparison operators apply lane by
//! lane (a scalar operand is converted to the lane type and used in every lane; a
//! comparison gives -1 for true and 0 for false in lanes of a signed integer type of the
//! same width). A cast between vectors, or between a vector and a scalar, of the same
//! size reinterprets the bytes. Any other operator on a vector is an approximation.

use ripple_ir::{
    ApproximationKind, Expr, ExprKind, FloatKind, IntKind, NodeKind, Place, Type, TypeId, UnOp,
};
use tree_sitter::Node as TsNode;

use crate::expr::{LVal, Val};
use crate::lower::Lowerer;
use crate::Severity;

/// The name of the member holding a vector's lanes.
const LANES: &str = "__lanes";

impl<'a> Lowerer<'a, '_> {
    /// The attributes among the children of `node` from byte `from` on: each item of
    /// each `__attribute__((...))` list (a name, or a call such as `aligned (8)`), with
    /// its name stripped of underscores (`__aligned__` is `aligned`).
    fn attributes(&self, node: TsNode<'a>, from: usize) -> Vec<(&'a str, TsNode<'a>)> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let specifiers = node
            .children(&mut cursor)
            .filter(|c| c.kind() == "attribute_specifier" && c.start_byte() >= from);
        for specifier in specifiers {
            let mut cursor = specifier.walk();
            let lists = specifier
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "argument_list");
            for list in lists {
                let mut cursor = list.walk();
                for item in list.named_children(&mut cursor) {
                    let name = match item.kind() {
                        "identifier" => Some(item),
                        "call_expression" => self.child_field(item, self.fields.function),
                        _ => None,
                    };
                    if let Some(name) = name {
                        out.push((self.text(name).trim_matches('_'), item));
                    }
                }
            }
        }
        out
    }

    /// The first argument of the attribute `item` (`16` of `aligned (16)`).
    fn attribute_argument(&self, item: TsNode<'a>) -> Option<TsNode<'a>> {
        self.child_field(item, self.fields.arguments)?
            .named_child(0)
    }

    /// `ty` with the type-making attributes among the children of `decl` applied in
    /// order (`vector_size`, `mode`); other attributes leave it as it is.
    pub(crate) fn with_type_attributes(&mut self, decl: TsNode<'a>, mut ty: TypeId) -> TypeId {
        // Before a function definition's type, the grammar's recovery puts an attribute
        // it could not place after the declarator of the declaration before.
        let from = match (decl.kind(), self.child_field(decl, self.fields.type_)) {
            ("function_definition", Some(spec)) => spec.start_byte(),
            _ => 0,
        };
        for (name, item) in self.attributes(decl, from) {
            let Some(arg) = self.attribute_argument(item) else {
                continue;
            };
            match name {
                "vector_size" => match self.const_int_expr(arg) {
                    Some(bytes) => ty = self.vector_of(ty, bytes, item),
                    None => self.diag(
                        Severity::Error,
                        item,
                        "vector size is not an integer constant".into(),
                    ),
                },
                "mode" => {
                    let mode = self.text(arg).trim_matches('_').to_string();
                    ty = self.with_mode(ty, &mode, item);
                }
                _ => {}
            }
        }
        ty
    }

    /// The alignment an `aligned` attribute among the children of `node` from byte
    /// `from` on asks for (the largest, if several; `aligned` alone is 16, the largest
    /// alignment on x86-64).
    pub(crate) fn aligned_attribute(&mut self, node: TsNode<'a>, from: usize) -> Option<u64> {
        let mut found: Option<u64> = None;
        for (name, item) in self.attributes(node, from) {
            if name != "aligned" {
                continue;
            }
            let align = match self.attribute_argument(item) {
                None => Some(16),
                Some(arg) => self
                    .const_int_expr(arg)
                    .and_then(|n| u64::try_from(n).ok())
                    .filter(|n| n.is_power_of_two()),
            };
            if let Some(align) = align {
                found = Some(found.map_or(align, |f| f.max(align)));
            }
        }
        found
    }

    /// The vector of `bytes` bytes whose lanes have the type of `elem` (or of its lanes,
    /// if it is a vector itself).
    fn vector_of(&mut self, elem: TypeId, bytes: i128, node: TsNode<'a>) -> TypeId {
        let elem = self.vector_shape(elem).map_or(elem, |(e, _)| e);
        let types = &self.linker.program.types;
        let size = types.size_of(elem) as i128;
        let scalar = types.is_integer(elem) || types.is_float(elem);
        if !scalar
            || size == 0
            || bytes <= 0
            || bytes % size != 0
            || !((bytes / size) as u128).is_power_of_two()
        {
            self.diag(
                Severity::Error,
                node,
                format!(
                    "invalid vector type: {bytes} bytes of `{}`",
                    self.linker.program.types.display(elem)
                ),
            );
            return elem;
        }
        self.vector_type(elem, (bytes / size) as u64)
    }

    /// The vector of `lanes` lanes of type `elem`, one record type per shape.
    pub(crate) fn vector_type(&mut self, elem: TypeId, lanes: u64) -> TypeId {
        if let Some(&ty) = self.linker.vector_types.get(&(elem, lanes)) {
            return ty;
        }
        let types = &mut self.linker.program.types;
        let tag = format!("<vector of {lanes} {}>", types.display(elem));
        let record = types.declare_record(Some(tag), false);
        let array = types.array_of(elem, Some(lanes));
        // GCC aligns a vector to its size.
        let bytes = types.size_of(array);
        types.complete_aligned_record(
            record,
            vec![(LANES.to_string(), array, None)],
            false,
            &[None],
            Some(bytes.max(1)),
        );
        self.linker.vector_types.insert((elem, lanes), record);
        self.linker.vector_shapes.insert(record, (elem, lanes));
        record
    }

    /// The lane type and the number of lanes of `ty`, if it is a vector.
    pub(crate) fn vector_shape(&self, ty: TypeId) -> Option<(TypeId, u64)> {
        self.linker.vector_shapes.get(&ty).copied()
    }

    /// `ty` in machine mode `mode`: an integer or float of that width (keeping the
    /// signedness of `ty`), or a vector of them (`V4SI`).
    fn with_mode(&mut self, ty: TypeId, mode: &str, node: TsNode<'a>) -> TypeId {
        let (lanes, scalar) = match mode.strip_prefix('V') {
            Some(rest) => {
                let digits = rest.chars().take_while(char::is_ascii_digit).count();
                match rest[..digits].parse::<u64>() {
                    Ok(n) if n > 0 => (Some(n), &rest[digits..]),
                    _ => (None, mode),
                }
            }
            None => (None, mode),
        };
        let t = self.types;
        let signed = self.linker.program.types.is_signed(ty);
        let int = |s: IntKind, u: IntKind| Type::Int(if signed { s } else { u });
        let new = match scalar {
            "QI" | "byte" => int(IntKind::SChar, IntKind::UChar),
            "HI" => int(IntKind::Short, IntKind::UShort),
            "SI" => int(IntKind::Int, IntKind::UInt),
            "DI" | "word" | "pointer" | "unwind_word" => int(IntKind::Long, IntKind::ULong),
            "TI" => int(IntKind::Int128, IntKind::UInt128),
            "SF" => Type::Float(FloatKind::Float),
            "DF" => Type::Float(FloatKind::Double),
            "XF" | "TF" => return self.moded(t.ldouble, lanes),
            _ => {
                self.diag(
                    Severity::Warning,
                    node,
                    format!("machine mode `{mode}` is not modelled: the type is read as declared"),
                );
                return ty;
            }
        };
        let new = self.linker.program.types.intern(new);
        self.moded(new, lanes)
    }

    fn moded(&mut self, scalar: TypeId, lanes: Option<u64>) -> TypeId {
        match lanes {
            Some(n) if n.is_power_of_two() => self.vector_type(scalar, n),
            _ => scalar,
        }
    }

    /// The address of the record value `e`: where it is loaded from, or a temporary
    /// holding it.
    pub(crate) fn record_address(&mut self, e: Expr) -> Expr {
        let ty = e.ty;
        let ptr = self.pointer_to(ty);
        if let ExprKind::Load(addr) = e.kind {
            return self.retype(*addr, ptr);
        }
        let var = self.temp(ty);
        let addr = self.addr_of_local(var);
        self.emit(NodeKind::Assign {
            dst: Place::Mem {
                addr: addr.clone(),
                ty,
            },
            value: e,
        });
        addr
    }

    /// The lanes of the vector value `base`, as an array lvalue (for a subscript).
    pub(crate) fn vector_lanes(&mut self, base: Val) -> Val {
        let ty = match &base {
            Val::L(lv) => lv.ty(),
            Val::R(e) => e.ty,
        };
        let Some((elem, lanes)) = self.vector_shape(ty) else {
            return base;
        };
        let addr = match base {
            Val::L(LVal::Mem(addr, _)) => addr,
            other => {
                let e = self.rvalue_of(other);
                self.record_address(e)
            }
        };
        let array = self.linker.program.types.array_of(elem, Some(lanes));
        let addr = self.offset_addr(addr, 0, array);
        Val::L(LVal::Mem(addr, array))
    }

    /// Lane `i` of the vector at `addr` whose lanes have type `elem`.
    fn lane(&mut self, addr: &Expr, i: u64, elem: TypeId) -> Expr {
        let size = self.linker.program.types.size_of(elem);
        let at = self.offset_addr(addr.clone(), (i * size) as i64, elem);
        Expr::load(at, elem)
    }

    /// A fresh vector of type `ty` whose lane `i` is `lane(self, i)`, as a value.
    fn vector_from_lanes(
        &mut self,
        ty: TypeId,
        mut lane: impl FnMut(&mut Self, u64) -> Expr,
    ) -> Expr {
        let (elem, lanes) = self.vector_shape(ty).expect("a vector type");
        let size = self.linker.program.types.size_of(elem);
        let var = self.temp(ty);
        for i in 0..lanes {
            let value = lane(self, i);
            let value = self.convert(value, elem);
            let base = self.addr_of_local(var);
            let addr = self.offset_addr(base, (i * size) as i64, elem);
            self.emit(NodeKind::Assign {
                dst: Place::Mem { addr, ty: elem },
                value,
            });
        }
        let addr = self.addr_of_local(var);
        Expr::load(addr, ty)
    }

    /// A vector of type `ty` written by an unmodelled operation.
    fn havoc_vector(&mut self, ty: TypeId, node: TsNode<'_>, reason: &str) -> Expr {
        let var = self.temp(ty);
        let addr = self.addr_of_local(var);
        self.havoc(
            Some(Place::Mem {
                addr: addr.clone(),
                ty,
            }),
            ApproximationKind::Unsupported,
            node,
            reason,
        );
        Expr::load(addr, ty)
    }

    /// The binary operator `op` on `a` and `b`, at least one of them a vector.
    pub(crate) fn vector_arith(&mut self, op: &str, a: Expr, b: Expr, node: TsNode<'a>) -> Expr {
        let (sa, sb) = (self.vector_shape(a.ty), self.vector_shape(b.ty));
        let (vty, (elem, lanes)) = match (sa, sb) {
            (Some(s), _) => (a.ty, s),
            (None, Some(s)) => (b.ty, s),
            (None, None) => unreachable!("vector_arith of two scalars"),
        };
        let comparison = matches!(op, "==" | "!=" | "<" | "<=" | ">" | ">=");
        let result = if comparison {
            let bits = self.linker.program.types.size_of(elem) * 8;
            let kind = match bits {
                8 => IntKind::SChar,
                16 => IntKind::Short,
                32 => IntKind::Int,
                64 => IntKind::Long,
                _ => IntKind::Int128,
            };
            let int = self.linker.program.types.int(kind);
            self.vector_type(int, lanes)
        } else {
            vty
        };
        let supported = comparison
            || matches!(
                op,
                "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "&" | "|" | "^"
            );
        if !supported {
            return self.havoc_vector(result, node, &format!("vector operator {op}"));
        }
        if let (Some(x), Some(y)) = (sa, sb) {
            if x != y {
                self.diag(
                    Severity::Error,
                    node,
                    format!("operands of `{op}` are vectors of different types"),
                );
                return self.havoc_vector(result, node, "vectors of different types");
            }
        }
        // Each operand once: a vector by its address, a scalar converted to the lane type.
        let operand = |this: &mut Self, e: Expr, vector: bool| {
            if vector {
                (Some(this.record_address(e)), None)
            } else {
                let e = this.convert(e, elem);
                (None, Some(this.spill(e)))
            }
        };
        let a = operand(self, a, sa.is_some());
        let b = operand(self, b, sb.is_some());
        let int = self.types.int;
        self.vector_from_lanes(result, |this, i| {
            let mut value = |(addr, scalar): &(Option<Expr>, Option<Expr>)| match addr {
                Some(addr) => this.lane(addr, i, elem),
                None => scalar.clone().expect("a scalar operand"),
            };
            let (x, y) = (value(&a), value(&b));
            let r = this.arith(op, x, y, node);
            if comparison {
                // True is all bits set.
                Expr::unary(UnOp::Neg, r, int)
            } else {
                r
            }
        })
    }

    /// The unary operator `op` on the vector `e`.
    pub(crate) fn vector_unary(&mut self, op: &str, e: Expr, node: TsNode<'a>) -> Expr {
        let (elem, _) = self.vector_shape(e.ty).expect("a vector");
        let ty = e.ty;
        let un = match op {
            "+" => return e,
            "-" => UnOp::Neg,
            "~" => UnOp::BitNot,
            _ => return self.havoc_vector(ty, node, &format!("vector operator {op}")),
        };
        let addr = self.record_address(e);
        self.vector_from_lanes(ty, |this, i| {
            let x = this.lane(&addr, i, elem);
            let x = this.promote(x);
            let t = x.ty;
            Expr::unary(un, x, t)
        })
    }
}
