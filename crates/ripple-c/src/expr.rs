//! Expression lowering: lvalues and rvalues, with every side effect (calls,
//! assignments, `++`/`--`) split into its own node, left to right; short-circuit
//! operators and `?:` become branches; conversions, promotions, decay and address
//! arithmetic (field offsets, `index * size`) are explicit. A GNU label address
//! `&&label` is the k-th address-taken label's number k as a pointer (distinct, non-null;
//! `goto *` compares with them, `stmt.rs`). Casts that are really calls or binary
//! expressions (the grammar does not know which names are types) are re-read by
//! `misparse`.

use ripple_ir::{
    ApproximationKind, BinOp, Callee, Expr, ExprKind, FuncId, LocalKind, NodeKind, Place, Type,
    TypeId, UnOp, VarId,
};
use tree_sitter::Node as TsNode;

use crate::builtins::BuiltinCall;
use crate::literals::{self, CharWidth, Number};
use crate::lower::{Lowerer, Sym};
use crate::misparse::{Operand, Reread};
use crate::Severity;

/// A place an expression designates.
#[derive(Clone, Debug)]
pub(crate) enum LVal {
    Reg(VarId, TypeId),
    /// Memory at an address (a pointer expression) holding an object of the type.
    Mem(Expr, TypeId),
    Bits {
        addr: Expr,
        bit_offset: u32,
        width: u32,
        ty: TypeId,
    },
}

/// The result of lowering an expression: a value or a designated object.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    R(Expr),
    L(LVal),
}

impl LVal {
    pub fn ty(&self) -> TypeId {
        match self {
            LVal::Reg(_, ty) | LVal::Mem(_, ty) | LVal::Bits { ty, .. } => *ty,
        }
    }
}

impl Val {
    pub fn ty(&self) -> TypeId {
        match self {
            Val::R(e) => e.ty,
            Val::L(lv) => lv.ty(),
        }
    }
}

/// Strips parentheses around an expression node.
pub(crate) fn strip_parens(mut node: TsNode<'_>) -> TsNode<'_> {
    while node.kind() == "parenthesized_expression" && node.named_child_count() == 1 {
        match node.named_child(0) {
            Some(inner) if inner.kind() != "compound_statement" => node = inner,
            _ => break,
        }
    }
    node
}

/// The operator token of a binary/unary/assignment/update/pointer/field expression.
pub(crate) fn operator_of<'t>(this: &Lowerer<'t, '_>, node: TsNode<'t>) -> &'t str {
    match node.child_by_field_id(this.fields.operator.get()) {
        Some(op) => op.kind(),
        None => "",
    }
}

impl<'a> Lowerer<'a, '_> {
    pub fn int_const(&self, value: i128, ty: TypeId) -> Expr {
        let bits = self.linker.program.types.bits(ty);
        Expr::int(crate::consteval::truncate(value as u128, bits), ty)
    }

    /// A havocked `int` for the expression `node` the parser left unreadable or
    /// incomplete (`reason`).
    fn unreadable(&mut self, node: TsNode<'a>, reason: &str) -> Expr {
        self.havoc_unreadable(node, true, reason);
        self.havoc_value(self.types.int, ApproximationKind::ParseError, node, reason)
    }

    /// A havocked `int` for the invalid expression `node`, reported as the error
    /// `message` (`reason` is the havoc's).
    pub(crate) fn reject(&mut self, node: TsNode<'a>, message: String, reason: &str) -> Expr {
        self.diag(Severity::Error, node, message);
        self.havoc_value(self.types.int, ApproximationKind::Unsupported, node, reason)
    }

    pub fn retype(&self, mut e: Expr, ty: TypeId) -> Expr {
        e.ty = ty;
        e
    }

    /// `addr + offset` bytes, typed as a pointer to `to`.
    pub fn offset_addr(&mut self, addr: Expr, offset: i64, to: TypeId) -> Expr {
        let ptr = self.pointer_to(to);
        if offset == 0 {
            return self.retype(addr, ptr);
        }
        let long = self.types.long;
        let addr = if self.is_ptr(addr.ty) {
            addr
        } else {
            let vp = self.types.void_ptr;
            self.convert(addr, vp)
        };
        // Fold nested constant offsets.
        if let ExprKind::Binary(BinOp::PtrAdd, base, off) = &addr.kind {
            if let ExprKind::Int(o) = off.kind {
                let total = (o as i64).wrapping_add(offset);
                return Expr::binary(
                    BinOp::PtrAdd,
                    (**base).clone(),
                    self.int_const(i128::from(total), long),
                    ptr,
                );
            }
        }
        Expr::binary(
            BinOp::PtrAdd,
            addr,
            self.int_const(i128::from(offset), long),
            ptr,
        )
    }

    /// The size used to scale pointer arithmetic on `ptr_ty` (GNU: 1 for void and
    /// functions).
    fn elem_size(&self, ptr_ty: TypeId) -> u64 {
        match self.linker.program.types.pointee(ptr_ty) {
            Some(p) => self.size_of(p).max(1),
            None => 1,
        }
    }

    /// The size register of the pointee of `ptr_ty` when it is a variable-length
    /// array type (or an array of them).
    fn vla_pointee_size(&mut self, ptr_ty: TypeId) -> Option<VarId> {
        if self.func.vla_types.is_empty() || !self.in_function {
            return None;
        }
        let pointee = self.linker.program.types.pointee(ptr_ty)?;
        if let Some(var) = self.vla_size_var(pointee) {
            return Some(var);
        }
        let size = self.runtime_size(pointee);
        if matches!(size.kind, ExprKind::Int(_)) {
            return None;
        }
        let ulong = self.types.ulong;
        let var = self.temp(ulong);
        self.emit(NodeKind::Assign {
            dst: Place::Local(var),
            value: size,
        });
        Some(var)
    }

    /// `ptr + idx` for a C pointer and an integer index (scaled by the element size).
    pub fn ptr_index(&mut self, ptr: Expr, idx: Expr, negate: bool) -> Expr {
        let long = self.types.long;
        let size = self.elem_size(ptr.ty);
        let idx = self.promote(idx);
        let idx = self.convert(idx, long);
        if let Some(var) = self.vla_pointee_size(ptr.ty) {
            // A pointer to a variable-length array: scale by its run-time size.
            let idx = if negate {
                Expr::unary(UnOp::Neg, idx, long)
            } else {
                idx
            };
            let ulong = self.types.ulong;
            let size = Expr::cast(Expr::local(var, ulong), long);
            let off = Expr::binary(BinOp::Mul, idx, size, long);
            let ty = ptr.ty;
            return Expr::binary(BinOp::PtrAdd, ptr, off, ty);
        }
        if let Some(c) = self.fold_int(&idx) {
            let off = if negate { -c } else { c }.wrapping_mul(i128::from(size));
            if off == 0 {
                return ptr;
            }
            let ty = ptr.ty;
            return Expr::binary(BinOp::PtrAdd, ptr, self.int_const(off, long), ty);
        }
        let idx = if negate {
            Expr::unary(UnOp::Neg, idx, long)
        } else {
            idx
        };
        let off = if size == 1 {
            idx
        } else {
            Expr::binary(
                BinOp::Mul,
                idx,
                self.int_const(i128::from(size), long),
                long,
            )
        };
        let ty = ptr.ty;
        Expr::binary(BinOp::PtrAdd, ptr, off, ty)
    }

    /// Inline assembly: a havoc (it may read and write any memory) that reads its input
    /// operands (and the value of each in-out output) and writes its output operands
    /// (see `unmodelled.rs`): every output may depend on every input, and nothing is
    /// assumed of the instructions. `asm goto` may jump to each of its labels: an
    /// unknown branch to each.
    pub(crate) fn inline_asm(&mut self, node: TsNode<'a>) {
        let mut inputs: Vec<Expr> = Vec::new();
        let mut outputs: Vec<LVal> = Vec::new();
        let mut labels: Vec<TsNode<'a>> = Vec::new();
        let mut cursor = node.walk();
        let lists: Vec<TsNode<'a>> = node.named_children(&mut cursor).collect();
        for list in lists {
            let output = match list.kind() {
                "gnu_asm_output_operand_list" => true,
                "gnu_asm_input_operand_list" => false,
                "gnu_asm_goto_list" => {
                    let mut cursor = list.walk();
                    labels.extend(list.named_children(&mut cursor));
                    continue;
                }
                _ => continue,
            };
            let mut cursor = list.walk();
            let operands: Vec<TsNode<'a>> = list.named_children(&mut cursor).collect();
            for operand in operands {
                let Some(value) = operand.child_by_field_name("value") else {
                    continue;
                };
                if !output {
                    inputs.push(self.rvalue(value));
                    continue;
                }
                let lv = self.lvalue(value);
                let in_out = operand
                    .child_by_field_name("constraint")
                    .is_some_and(|c| self.text(c).contains('+'));
                if in_out {
                    inputs.push(self.rvalue_of(Val::L(lv.clone())));
                }
                outputs.push(lv);
            }
        }
        self.spill_for_havoc(inputs);
        self.havoc(None, ApproximationKind::InlineAsm, node, "inline assembly");
        self.havoc_places(outputs, "inline assembly");
        for label in labels {
            let jumps = self.unknown(self.types.int, "inline assembly");
            let target = self.label_node(self.text(label));
            self.func
                .label_uses
                .entry(self.text(label))
                .or_insert(label);
            let next = self.new_label();
            self.branch(jumps, target, next);
            self.place(next);
        }
    }

    // ----- values and places -----

    /// Lowers an expression and converts it to an rvalue (loads, decay).
    pub fn rvalue(&mut self, node: TsNode<'a>) -> Expr {
        let v = self.lower_expr(node);
        self.rvalue_of(v)
    }

    pub fn rvalue_of(&mut self, v: Val) -> Expr {
        match v {
            Val::R(e) => e,
            Val::L(LVal::Reg(var, ty)) => Expr::local(var, ty),
            Val::L(LVal::Mem(addr, ty)) => match self.linker.program.types.get(ty).clone() {
                Type::Array { elem, .. } => {
                    let p = self.pointer_to(elem);
                    self.retype(addr, p)
                }
                Type::Function { .. } => {
                    let p = self.pointer_to(ty);
                    self.retype(addr, p)
                }
                _ => Expr::load(addr, ty),
            },
            Val::L(LVal::Bits {
                addr,
                bit_offset,
                width,
                ty,
            }) => Expr::new(
                ExprKind::LoadBits {
                    addr: Box::new(addr),
                    unit: ty,
                    bit_offset,
                    width,
                },
                ty,
            ),
        }
    }

    /// Lowers an expression that must designate an object.
    pub fn lvalue(&mut self, node: TsNode<'a>) -> LVal {
        match self.lower_expr(node) {
            Val::L(lv) => lv,
            Val::R(e) => {
                if let ExprKind::Load(addr) = e.kind {
                    return LVal::Mem(*addr, e.ty);
                }
                self.diag(Severity::Error, node, "expression is not assignable".into());
                let var = self.temp(e.ty);
                if self.is_register(var) {
                    LVal::Reg(var, e.ty)
                } else {
                    LVal::Mem(self.addr_of_local(var), e.ty)
                }
            }
        }
    }

    /// The address of an object.
    pub fn addr_of(&mut self, lv: LVal, node: TsNode<'a>) -> Expr {
        match lv {
            LVal::Mem(addr, ty) => {
                let p = self.pointer_to(ty);
                self.retype(addr, p)
            }
            LVal::Reg(_, ty) | LVal::Bits { ty, .. } => {
                let p = self.pointer_to(ty);
                self.havoc_value(
                    p,
                    ApproximationKind::Unsupported,
                    node,
                    "address of a register or bit-field",
                )
            }
        }
    }

    /// Writes `value` (already of the place's type) to a place.
    pub fn store(&mut self, lv: &LVal, value: Expr) {
        let dst = match lv {
            LVal::Reg(v, _) => Place::Local(*v),
            LVal::Mem(addr, ty) => Place::Mem {
                addr: addr.clone(),
                ty: *ty,
            },
            LVal::Bits {
                addr,
                bit_offset,
                width,
                ty,
            } => Place::Bits {
                addr: addr.clone(),
                unit: *ty,
                bit_offset: *bit_offset,
                width: *width,
            },
        };
        self.emit(NodeKind::Assign { dst, value });
    }

    /// Freezes an lvalue's address into a temporary when computing it reads memory that
    /// later effects could change (so `*p++`-style places are evaluated once).
    fn stable_lval(&mut self, lv: LVal) -> LVal {
        match lv {
            LVal::Mem(addr, ty) if addr.reads_memory() => {
                let addr = self.spill(addr);
                LVal::Mem(addr, ty)
            }
            other => other,
        }
    }

    // ----- the expression dispatcher -----

    pub fn lower_expr(&mut self, node: TsNode<'a>) -> Val {
        if let Some(size) = self.sizeof_of_postfix(node) {
            return Val::R(size);
        }
        match node.kind() {
            "parenthesized_expression" => {
                let Some(inner) = node.named_child(0) else {
                    return Val::R(self.unreadable(node, "empty parentheses"));
                };
                if inner.kind() == "compound_statement" {
                    return self.statement_expression(inner);
                }
                self.lower_expr(inner)
            }
            "identifier" => self.identifier(node),
            "number_literal" => Val::R(self.number(node)),
            "char_literal" => {
                let (v, width) = literals::char_value(self.text(node));
                let ty = match width {
                    CharWidth::Narrow | CharWidth::Wide => self.types.int,
                    CharWidth::Utf16 => self.types.ushort,
                    CharWidth::Utf32 => self.types.uint,
                };
                Val::R(self.int_const(i128::from(v), ty))
            }
            "string_literal" | "concatenated_string" => {
                let (g, ty) = self.string_global(node);
                let p = self.pointer_to(ty);
                Val::L(LVal::Mem(Expr::new(ExprKind::AddrOfGlobal(g), p), ty))
            }
            "true" => Val::R(self.int_const(1, self.types.int)),
            "false" => Val::R(self.int_const(0, self.types.int)),
            "null" => Val::R(Expr::int(0, self.types.void_ptr)),
            "binary_expression" => Val::R(self.binary_expression(node)),
            "unary_expression" => Val::R(self.unary_expression(node)),
            "pointer_expression" => self.pointer_expression(node),
            "update_expression" => Val::R(
                self.update(node, true)
                    .unwrap_or_else(|| self.int_const(0, self.types.int)),
            ),
            "assignment_expression" => match self.assignment(node, true) {
                Some(v) => v,
                None => Val::R(self.int_const(0, self.types.int)),
            },
            "conditional_expression" => self.conditional(node, true),
            "comma_expression" => {
                if let Some(left) = self.child_field(node, self.fields.left) {
                    self.expr_effects(left);
                }
                match self.child_field(node, self.fields.right) {
                    Some(right) => self.lower_expr(right),
                    None => Val::R(self.int_const(0, self.types.int)),
                }
            }
            "call_expression" => self.call(node, true),
            "field_expression" => {
                self.postfix(node, "incomplete member access", Self::field_access)
            }
            "subscript_expression" => {
                self.postfix(node, "incomplete subscript", Self::subscript_of)
            }
            "cast_expression" => self.cast_expression(node),
            "sizeof_expression" => Val::R(self.sizeof_expression(node)),
            "alignof_expression" => {
                let ty = match self.child_field(node, self.fields.type_) {
                    Some(d) => self.type_descriptor(d),
                    None => self.types.int,
                };
                self.layout_read(ty, node);
                let align = self.linker.program.types.align_of(ty);
                Val::R(self.int_const(i128::from(align), self.types.ulong))
            }
            "offsetof_expression" => Val::R(self.offsetof(node)),
            "compound_literal_expression" => self.compound_literal(node),
            "extension_expression" => match node.named_child(0) {
                Some(inner) => self.lower_expr(inner),
                None => Val::R(self.int_const(0, self.types.int)),
            },
            "generic_expression" => self.generic(node),
            "gnu_asm_expression" => {
                self.inline_asm(node);
                // An assembly statement has no value (a use of one does not compile).
                Val::R(self.int_const(0, self.types.int))
            }
            "initializer_list" => {
                // A brace list where an expression is expected (scalar `{x}`).
                match node.named_child(0) {
                    Some(inner) => self.lower_expr(inner),
                    None => Val::R(self.int_const(0, self.types.int)),
                }
            }
            "ERROR" => {
                self.diag(Severity::Error, node, "syntax error in expression".into());
                Val::R(self.unreadable(node, "unreadable expression"))
            }
            kind => {
                if node.is_missing() {
                    return Val::R(self.unreadable(node, "missing expression"));
                }
                Val::R(self.reject(
                    node,
                    format!("unsupported expression `{kind}`"),
                    &format!("unsupported expression {kind}"),
                ))
            }
        }
    }

    /// Lowers an expression for its side effects only (statement context).
    pub fn expr_effects(&mut self, node: TsNode<'a>) {
        let node = strip_parens(node);
        match node.kind() {
            "assignment_expression" => {
                self.assignment(node, false);
            }
            "update_expression" => {
                self.update(node, false);
            }
            "call_expression" => {
                self.call(node, false);
            }
            "comma_expression" => {
                if let Some(left) = self.child_field(node, self.fields.left) {
                    self.expr_effects(left);
                }
                if let Some(right) = self.child_field(node, self.fields.right) {
                    self.expr_effects(right);
                }
            }
            "conditional_expression" => {
                self.conditional(node, false);
            }
            "cast_expression" => {
                if let Some(v) = self.child_field(node, self.fields.value) {
                    self.expr_effects(v);
                }
            }
            "binary_expression" if matches!(operator_of(self, node), "&&" | "||") => {
                let end = self.new_label();
                let mid = self.new_label();
                let (Some(l), Some(r)) = (
                    self.child_field(node, self.fields.left),
                    self.child_field(node, self.fields.right),
                ) else {
                    return;
                };
                if operator_of(self, node) == "&&" {
                    self.cond(l, mid, end);
                } else {
                    self.cond(l, end, mid);
                }
                self.place(mid);
                self.expr_effects(r);
                self.place(end);
            }
            _ => {
                let v = self.lower_expr(node);
                // Reading a volatile or faulting location is not modelled; drop the value.
                if let Val::R(_) = v {}
            }
        }
    }

    fn identifier(&mut self, node: TsNode<'a>) -> Val {
        let name = self.text(node);
        let sym = self.lookup(name);
        if let Some(v) = sym.and_then(|sym| self.symbol_val(sym)) {
            return v;
        }
        match sym {
            // Every other symbol has a value: this is a type name.
            Some(_) => {
                self.diag(
                    Severity::Error,
                    node,
                    format!("type name `{name}` used as a value"),
                );
                Val::R(self.havoc_value(
                    self.types.int,
                    ApproximationKind::UnresolvedName,
                    node,
                    name,
                ))
            }
            None => {
                if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") {
                    let fname = self.func.name.as_bytes().to_vec();
                    let (g, ty) = self.bytes_global(fname, self.types.char_, node);
                    let p = self.pointer_to(ty);
                    return Val::L(LVal::Mem(Expr::new(ExprKind::AddrOfGlobal(g), p), ty));
                }
                if name == "NULL" {
                    return Val::R(Expr::int(0, self.types.void_ptr));
                }
                self.diag(
                    Severity::Error,
                    node,
                    format!("undeclared identifier `{name}`"),
                );
                if !self.in_function {
                    // Not a constant (an array size naming a parameter, for one).
                    self.func.effects += 1;
                    return Val::R(self.int_const(0, self.types.int));
                }
                Val::R(self.havoc_value(
                    self.types.int,
                    ApproximationKind::UnresolvedName,
                    node,
                    &format!("undeclared identifier {name}"),
                ))
            }
        }
    }

    fn number(&mut self, node: TsNode<'a>) -> Expr {
        let text = self.text(node);
        self.number_text(text, node)
    }

    /// The value of a number literal's text (`node` locates diagnostics).
    pub(crate) fn number_text(&mut self, text: &str, node: TsNode<'a>) -> Expr {
        match literals::parse_number(text) {
            Some(Number::Int(v, kind)) => {
                let ty = self.linker.program.types.int(kind);
                Expr::int(v, ty)
            }
            Some(Number::Float(f, suffix)) => {
                let ty = match suffix {
                    literals::FloatSuffix::None => self.types.double,
                    literals::FloatSuffix::F => self.types.float,
                    literals::FloatSuffix::L => self.types.ldouble,
                };
                Expr::new(ExprKind::Float(f), ty)
            }
            None => {
                self.diag(Severity::Error, node, format!("malformed number `{text}`"));
                self.int_const(0, self.types.int)
            }
        }
    }

    fn binary_expression(&mut self, node: TsNode<'a>) -> Expr {
        let op = operator_of(self, node);
        let (Some(l), Some(r)) = (
            self.child_field(node, self.fields.left),
            self.child_field(node, self.fields.right),
        ) else {
            return self.unreadable(node, "incomplete binary expression");
        };
        if op == "&&" || op == "||" {
            return self.logical_value(node);
        }
        if let Some(r) = self.misparsed_cast_reread(node) {
            return self.reread_value(r, node);
        }
        if matches!(op, "-" | "+" | "*" | "&") {
            if let Some(types) = self.cast_prefix(l) {
                return self.misparsed_cast_binary(&types, op, r);
            }
        }
        let a = self.rvalue(l);
        let b = self.rvalue(r);
        self.arith(op, a, b, node)
    }

    /// `(T)` where `T` names a type: the parser read a cast as a parenthesized name.
    pub fn paren_type_name(&mut self, node: TsNode<'a>) -> Option<TypeId> {
        if node.kind() != "parenthesized_expression" || node.named_child_count() != 1 {
            return None;
        }
        let inner = node.named_child(0)?;
        if inner.kind() != "identifier" {
            return None;
        }
        self.type_name(self.text(inner))
    }

    /// The type a name denotes in the current scope, if it names one.
    fn type_name(&mut self, name: &str) -> Option<TypeId> {
        let t = self.types;
        match self.lookup(name) {
            Some(Sym::Typedef(ty)) => Some(ty),
            // A one-word primitive type, as in `(T)(int)(x)` read as calls.
            None => match name {
                "int" | "signed" => Some(t.int),
                "unsigned" => Some(t.uint),
                "char" => Some(t.char_),
                "short" => Some(t.short),
                "long" => Some(t.long),
                "float" => Some(t.float),
                "double" => Some(t.double),
                "void" => Some(t.void),
                "_Bool" => Some(t.bool_),
                _ => self.builtin_type_name(name),
            },
            _ => None,
        }
    }

    /// A callee that is really a chain of casts: `(T)` (a parenthesized type name), or
    /// `(T)(U)` read as a call of `(T)` with the type name `U` (from `(T)(U)(x)`). The
    /// types, outermost first.
    pub fn cast_chain(&mut self, func: TsNode<'a>) -> Option<Vec<TypeId>> {
        if let Some(ty) = self.paren_type_name(func) {
            return Some(vec![ty]);
        }
        if func.kind() != "call_expression" {
            return None;
        }
        let list = self.child_field(func, self.fields.arguments)?;
        if list.named_child_count() != 1 {
            return None;
        }
        let arg = strip_parens(list.named_child(0)?);
        if arg.kind() != "identifier" {
            return None;
        }
        let ty = self.type_name(self.text(arg))?;
        let inner = self.child_field(func, self.fields.function)?;
        let mut chain = self.cast_chain(inner)?;
        chain.push(ty);
        Some(chain)
    }

    /// Converts `e` by a chain of casts, innermost (last) first.
    pub(crate) fn apply_casts(&mut self, mut e: Expr, types: &[TypeId]) -> Expr {
        for &ty in types.iter().rev() {
            if ty == self.types.void {
                return Expr::int(0, ty);
            }
            e = self.convert(e, ty);
        }
        e
    }

    /// A left operand that is really a prefix of casts: `(T)` (a parenthesized type
    /// name), or casts of it, `(unsigned char)(T)` from `(unsigned char)(T)*p`. The
    /// types, outermost first.
    fn cast_prefix(&mut self, node: TsNode<'a>) -> Option<Vec<TypeId>> {
        if let Some(ty) = self.paren_type_name(node) {
            return Some(vec![ty]);
        }
        if node.kind() != "cast_expression" {
            return None;
        }
        let desc = self.child_field(node, self.fields.type_)?;
        let value = self.child_field(node, self.fields.value)?;
        if self.descriptor_as_expression(desc).is_some() {
            return None;
        }
        let mut inner = self.cast_prefix(value)?;
        let ty = self.type_descriptor(desc);
        inner.insert(0, ty);
        Some(inner)
    }

    /// A binary arithmetic, bitwise, shift or comparison operator on rvalues.
    pub fn arith(&mut self, op: &str, a: Expr, b: Expr, node: TsNode<'a>) -> Expr {
        if self.vector_shape(a.ty).is_some() || self.vector_shape(b.ty).is_some() {
            return self.vector_arith(op, a, b, node);
        }
        let int = self.types.int;
        let long = self.types.long;
        let bop = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            "&" => BinOp::BitAnd,
            "|" => BinOp::BitOr,
            "^" => BinOp::BitXor,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            _ => {
                return self.havoc_value(
                    int,
                    ApproximationKind::Unsupported,
                    node,
                    &format!("operator {op}"),
                );
            }
        };
        let ap = self.is_ptr(a.ty);
        let bp = self.is_ptr(b.ty);
        match bop {
            BinOp::Add if ap && !bp => return self.ptr_index(a, b, false),
            BinOp::Add if bp && !ap => return self.ptr_index(b, a, false),
            BinOp::Sub if ap && !bp => return self.ptr_index(a, b, true),
            BinOp::Sub if ap && bp => {
                if let Some(var) = self.vla_pointee_size(a.ty) {
                    let b = self.convert(b, a.ty);
                    let diff = Expr::binary(BinOp::PtrDiff, a, b, long);
                    let ulong = self.types.ulong;
                    let size = Expr::cast(Expr::local(var, ulong), long);
                    return Expr::binary(BinOp::Div, diff, size, long);
                }
                let size = self.elem_size(a.ty);
                let b = self.convert(b, a.ty);
                let diff = Expr::binary(BinOp::PtrDiff, a, b, long);
                if size == 1 {
                    return diff;
                }
                return Expr::binary(
                    BinOp::Div,
                    diff,
                    self.int_const(i128::from(size), long),
                    long,
                );
            }
            _ => {}
        }
        if bop.is_comparison() {
            if ap || bp {
                // Pointer comparison: bring both sides to one pointer type.
                let ty = if ap { a.ty } else { b.ty };
                let a = self.convert(a, ty);
                let b = self.convert(b, ty);
                return Expr::binary(bop, a, b, int);
            }
            if !self.is_arith(a.ty) || !self.is_arith(b.ty) {
                return self.havoc_value(
                    int,
                    ApproximationKind::Unsupported,
                    node,
                    "comparison of non-scalars",
                );
            }
            let (a, b, ty) = self.usual_arith(a, b);
            self.note_long_double(ty, node);
            return Expr::binary(bop, a, b, int);
        }
        if !self.is_arith(a.ty) || !self.is_arith(b.ty) {
            self.diag(Severity::Error, node, format!("invalid operands to `{op}`"));
            return self.havoc_value(
                int,
                ApproximationKind::Unsupported,
                node,
                "invalid operands",
            );
        }
        if matches!(bop, BinOp::Shl | BinOp::Shr) {
            let a = self.promote(a);
            let b = self.promote(b);
            let ty = a.ty;
            return Expr::binary(bop, a, b, ty);
        }
        let (a, b, ty) = self.usual_arith(a, b);
        self.note_long_double(ty, node);
        Expr::binary(bop, a, b, ty)
    }

    fn unary_expression(&mut self, node: TsNode<'a>) -> Expr {
        let op = operator_of(self, node);
        let Some(arg) = self.child_field(node, self.fields.argument) else {
            return self.unreadable(node, "incomplete unary expression");
        };
        let e = self.rvalue(arg);
        self.unary_value(op, e, node)
    }

    /// The unary operator `op` (`!`, `-`, `~`, `+`) applied to the value `e` of `node`.
    fn unary_value(&mut self, op: &str, e: Expr, node: TsNode<'a>) -> Expr {
        if self.vector_shape(e.ty).is_some() {
            return self.vector_unary(op, e, node);
        }
        if op == "!" {
            return Expr::unary(UnOp::LogicalNot, e, self.types.int);
        }
        if !self.is_arith(e.ty) {
            self.diag(
                Severity::Error,
                node,
                format!("invalid operand to unary `{op}`"),
            );
            return e;
        }
        let e = self.promote(e);
        let ty = e.ty;
        match op {
            "-" => {
                self.note_long_double(ty, node);
                Expr::unary(UnOp::Neg, e, ty)
            }
            "~" => Expr::unary(UnOp::BitNot, e, ty),
            _ => e,
        }
    }

    fn pointer_expression(&mut self, node: TsNode<'a>) -> Val {
        let op = operator_of(self, node);
        let Some(arg) = self.child_field(node, self.fields.argument) else {
            return Val::R(self.unreadable(node, "incomplete expression"));
        };
        if let Some(label) = label_address(self, node) {
            // GNU labels as values: the address of a label is a distinct non-null
            // pointer; `goto *p` compares `p` with each of them (stmt.rs).
            let k = match self.func.label_addrs.iter().position(|&l| l == label) {
                Some(i) => i + 1,
                None => {
                    self.func.label_addrs.push(label);
                    self.func.label_addrs.len()
                }
            };
            let value = self.int_const(k as i128, self.types.long);
            return Val::R(Expr::cast(value, self.types.void_ptr));
        }
        if op == "&" {
            let v = self.lower_expr(arg);
            return match v {
                Val::L(lv) => Val::R(self.addr_of(lv, node)),
                Val::R(e) => {
                    if let ExprKind::Load(addr) = e.kind {
                        let p = self.pointer_to(e.ty);
                        return Val::R(self.retype(*addr, p));
                    }
                    self.diag(
                        Severity::Error,
                        node,
                        "cannot take the address of an rvalue".into(),
                    );
                    Val::R(e)
                }
            };
        }
        let p = self.rvalue(arg);
        match self.linker.program.types.pointee(p.ty) {
            Some(pointee) => Val::L(LVal::Mem(p, pointee)),
            None => {
                self.diag(Severity::Error, node, "dereference of a non-pointer".into());
                let int = self.types.int;
                let ip = self.pointer_to(int);
                let p = self.convert(p, ip);
                Val::L(LVal::Mem(p, int))
            }
        }
    }

    /// `++`/`--`; returns the value when wanted.
    fn update(&mut self, node: TsNode<'a>, want: bool) -> Option<Expr> {
        let arg = self.child_field(node, self.fields.argument)?;
        let op = operator_of(self, node);
        let prefix = node
            .child(0)
            .is_some_and(|c| c.kind() == "++" || c.kind() == "--");
        self.update_of(arg, op, prefix, node, want)
    }

    /// `arg++` (or `--`, `++arg` with `prefix`) for the update expression `node`.
    fn update_of(
        &mut self,
        arg: TsNode<'a>,
        op: &str,
        prefix: bool,
        node: TsNode<'a>,
        want: bool,
    ) -> Option<Expr> {
        // The parser gives postfix `++`/`--` the precedence of the unary operators, so
        // `!size--` comes as `(!size)--`; in C the postfix operator binds tighter:
        // `!(size--)` (c-ares' `inet_net_pton.c`).
        if !prefix && arg.kind() == "unary_expression" {
            let unary_op = operator_of(self, arg);
            let inner = self.child_field(arg, self.fields.argument)?;
            let value = self.update_of(inner, op, prefix, node, true)?;
            return want.then(|| self.unary_value(unary_op, value, arg));
        }
        let lv = self.lvalue(arg);
        let lv = self.stable_lval(lv);
        let old = self.rvalue_of(Val::L(lv.clone()));
        let ty = lv.ty();
        let old = if want && !prefix {
            self.spill(old)
        } else {
            old
        };
        let new = if self.is_ptr(ty) {
            let one = self.int_const(1, self.types.long);
            self.ptr_index(old.clone(), one, op == "--")
        } else {
            let one = if self.is_float(ty) {
                Expr::new(ExprKind::Float(1.0), self.types.double)
            } else {
                self.int_const(1, self.types.int)
            };
            let sym = if op == "--" { "-" } else { "+" };
            let r = self.arith(sym, old.clone(), one, node);
            self.convert(r, ty)
        };
        self.store(&lv, new);
        if !want {
            return None;
        }
        if prefix {
            Some(self.rvalue_of(Val::L(lv)))
        } else {
            Some(old)
        }
    }

    /// Converts a value for assignment to an object of type `to`.
    pub fn assign_convert(&mut self, e: Expr, to: TypeId) -> Expr {
        self.convert(e, to)
    }

    fn assignment(&mut self, node: TsNode<'a>, want: bool) -> Option<Val> {
        let (Some(l), Some(r)) = (
            self.child_field(node, self.fields.left),
            self.child_field(node, self.fields.right),
        ) else {
            self.diag(Severity::Error, node, "incomplete assignment".into());
            return None;
        };
        let op = operator_of(self, node);
        let lv = self.lvalue(l);
        let ty = lv.ty();
        if op == "=" {
            let lv = if r.kind() == "call_expression" || r.kind() == "assignment_expression" {
                self.stable_lval(lv)
            } else {
                lv
            };
            let v = self.rvalue(r);
            let v = self.assign_convert(v, ty);
            self.store(&lv, v);
            if want {
                return Some(Val::R(self.rvalue_of(Val::L(lv))));
            }
            None
        } else {
            let lv = self.stable_lval(lv);
            let b = self.rvalue(r);
            let a = self.rvalue_of(Val::L(lv.clone()));
            let bin = &op[..op.len() - 1];
            let v = self.arith(bin, a, b, node);
            let v = self.assign_convert(v, ty);
            self.store(&lv, v);
            if want {
                return Some(Val::R(self.rvalue_of(Val::L(lv))));
            }
            None
        }
    }

    /// `a && b` / `a || b` as a value: 0 or 1 through a temporary.
    fn logical_value(&mut self, node: TsNode<'a>) -> Expr {
        let int = self.types.int;
        if let Some(v) = self.fold_logical(node) {
            return self.int_const(i128::from(v), int);
        }
        self.truth_value(|this, t, f| this.cond(node, t, f))
    }

    /// A condition as a value, 0 or 1 through a temporary: `branch(t, f)` lowers the
    /// condition, jumping to `t` when it holds, else to `f`.
    fn truth_value(
        &mut self,
        branch: impl FnOnce(&mut Self, ripple_ir::NodeId, ripple_ir::NodeId),
    ) -> Expr {
        let int = self.types.int;
        let var = self.temp(int);
        let t = self.new_label();
        let f = self.new_label();
        let end = self.new_label();
        branch(self, t, f);
        self.place(t);
        self.emit(NodeKind::Assign {
            dst: Place::Local(var),
            value: self.int_const(1, int),
        });
        self.goto(end);
        self.place(f);
        self.emit(NodeKind::Assign {
            dst: Place::Local(var),
            value: self.int_const(0, int),
        });
        self.place(end);
        Expr::local(var, int)
    }

    /// The value of a constant `a && b` / `a || b` (the right operand need not be
    /// constant when the left one decides).
    fn fold_logical(&mut self, node: TsNode<'a>) -> Option<bool> {
        let and = operator_of(self, node) == "&&";
        let l = self.child_field(node, self.fields.left)?;
        let r = self.child_field(node, self.fields.right)?;
        let lv = self.const_truth(l)?;
        if lv != and {
            // `0 && x` is 0, `1 || x` is 1: `x` is never evaluated.
            return Some(lv);
        }
        self.const_truth(r)
    }

    /// Whether a side-effect-free constant scalar expression is non-zero.
    pub fn const_truth(&mut self, node: TsNode<'a>) -> Option<bool> {
        self.speculate(|this| {
            let effects = this.func.effects;
            let e = this.rvalue(node);
            if this.func.effects != effects {
                return None;
            }
            match crate::consteval::fold(&this.linker.program.types, &e)? {
                crate::consteval::Const::Int(v) => Some(v != 0),
                crate::consteval::Const::Float(f) => Some(f != 0.0),
                crate::consteval::Const::Addr(..) => None,
            }
        })
    }

    /// Lowers a condition, jumping to `t` when it is non-zero and to `f` otherwise.
    pub fn cond(&mut self, node: TsNode<'a>, t: ripple_ir::NodeId, f: ripple_ir::NodeId) {
        let node = strip_parens(node);
        match node.kind() {
            "binary_expression" => {
                let op = operator_of(self, node);
                if op == "&&" || op == "||" {
                    let (Some(l), Some(r)) = (
                        self.child_field(node, self.fields.left),
                        self.child_field(node, self.fields.right),
                    ) else {
                        return self.cond_value(node, t, f);
                    };
                    let mid = self.new_label();
                    if op == "&&" {
                        self.cond(l, mid, f);
                    } else {
                        self.cond(l, t, mid);
                    }
                    self.place(mid);
                    self.cond(r, t, f);
                    return;
                }
                match self.misparsed_cast_reread(node) {
                    Some(r) => self.reread_cond(r, t, f, node),
                    None => self.cond_value(node, t, f),
                }
            }
            "unary_expression" if operator_of(self, node) == "!" => {
                match self.child_field(node, self.fields.argument) {
                    Some(arg) => self.cond(arg, f, t),
                    None => self.cond_value(node, t, f),
                }
            }
            "cast_expression" => match self.misparsed_cast_reread(node) {
                Some(r) => self.reread_cond(r, t, f, node),
                None => self.cond_value(node, t, f),
            },
            _ => self.cond_value(node, t, f),
        }
    }

    fn cond_value(&mut self, node: TsNode<'a>, t: ripple_ir::NodeId, f: ripple_ir::NodeId) {
        let e = self.rvalue(node);
        let e = if self.linker.program.types.is_scalar(e.ty) {
            e
        } else {
            self.diag(Severity::Error, node, "condition is not a scalar".into());
            self.int_const(1, self.types.int)
        };
        let saved = self.func.syn;
        if let Some(&s) = self.func.syn_map.get(&node.id()) {
            self.func.syn = Some(s);
        }
        self.branch(e, t, f);
        self.func.syn = saved;
    }

    /// `c ? a : b` (and GNU `c ?: b`).
    fn conditional(&mut self, node: TsNode<'a>, want: bool) -> Val {
        let int = self.types.int;
        let (Some(c), Some(alt)) = (
            self.child_field(node, self.fields.condition),
            self.child_field(node, self.fields.alternative),
        ) else {
            return Val::R(self.unreadable(node, "incomplete conditional"));
        };
        let cons = self.child_field(node, self.fields.consequence);
        if !want {
            let t = self.new_label();
            let f = self.new_label();
            let end = self.new_label();
            match cons {
                Some(cons) => {
                    self.cond(c, t, f);
                    self.place(t);
                    self.expr_effects(cons);
                }
                None => {
                    let v = self.rvalue(c);
                    self.branch(v, t, f);
                    self.place(t);
                }
            }
            self.goto(end);
            self.place(f);
            self.expr_effects(alt);
            self.place(end);
            return Val::R(self.int_const(0, int));
        }
        // Determine the result type without keeping effects; note whether the
        // condition and both arms are constants (an integer constant expression).
        let (ta, tb, folded) = self.speculate(|this| {
            let effects = this.func.effects;
            let cv = this.rvalue(c);
            let cc = if this.func.effects == effects {
                crate::consteval::fold(&this.linker.program.types, &cv)
            } else {
                None
            };
            let effects = this.func.effects;
            let a = match cons {
                Some(cons) => this.rvalue(cons),
                None => cv,
            };
            let b = this.rvalue(alt);
            let pure = this.func.effects == effects;
            let folded = match cc {
                Some(cc) if pure => {
                    let types = &this.linker.program.types;
                    let taken = match cc {
                        crate::consteval::Const::Int(v) => Some(v != 0),
                        crate::consteval::Const::Float(f) => Some(f != 0.0),
                        crate::consteval::Const::Addr(..) => None,
                    };
                    match taken {
                        Some(taken)
                            if crate::consteval::fold(types, &a).is_some()
                                && crate::consteval::fold(types, &b).is_some() =>
                        {
                            Some(taken)
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            (a.ty, b.ty, folded)
        });
        let result_ty = if self.is_arith(ta) && self.is_arith(tb) {
            let pa = self.promoted_type(ta);
            let pb = self.promoted_type(tb);
            self.common_type(pa, pb)
        } else if self.is_ptr(ta) {
            // Prefer the non-void pointer when the other is a null constant or void*.
            if self.is_ptr(tb) && self.linker.program.types.pointee(ta) == Some(self.types.void) {
                tb
            } else {
                ta
            }
        } else if self.is_ptr(tb) {
            tb
        } else {
            ta
        };
        let is_void = result_ty == self.types.void;
        if let Some(taken) = folded {
            if !is_void {
                // A constant condition choosing between constants: fold.
                let v = if taken {
                    match cons {
                        Some(cons) => self.rvalue(cons),
                        None => self.rvalue(c),
                    }
                } else {
                    self.rvalue(alt)
                };
                let v = self.convert(v, result_ty);
                return Val::R(
                    match crate::consteval::fold(&self.linker.program.types, &v) {
                        Some(crate::consteval::Const::Int(k)) => Expr::int(k, result_ty),
                        Some(crate::consteval::Const::Float(k)) => {
                            Expr::new(ExprKind::Float(k), result_ty)
                        }
                        _ => v,
                    },
                );
            }
        }
        let var = if is_void {
            None
        } else {
            Some(self.new_local("", result_ty, LocalKind::Temp, false))
        };
        let t = self.new_label();
        let f = self.new_label();
        let end = self.new_label();
        let store_to = |this: &mut Self, v: Expr| {
            if let Some(var) = var {
                let v = this.convert(v, result_ty);
                if this.is_register(var) {
                    this.emit(NodeKind::Assign {
                        dst: Place::Local(var),
                        value: v,
                    });
                } else {
                    let addr = this.addr_of_local(var);
                    this.emit(NodeKind::Assign {
                        dst: Place::Mem {
                            addr,
                            ty: result_ty,
                        },
                        value: v,
                    });
                }
            }
        };
        match cons {
            Some(cons) => {
                self.cond(c, t, f);
                self.place(t);
                let v = self.rvalue(cons);
                store_to(self, v);
            }
            None => {
                let v = self.rvalue(c);
                let v = self.spill(v);
                self.branch(v.clone(), t, f);
                self.place(t);
                store_to(self, v);
            }
        }
        self.goto(end);
        self.place(f);
        if is_void {
            self.expr_effects(alt);
        } else {
            let v = self.rvalue(alt);
            store_to(self, v);
        }
        self.place(end);
        match var {
            None => Val::R(Expr::int(0, self.types.void)),
            Some(var) => {
                if self.is_register(var) {
                    Val::R(Expr::local(var, result_ty))
                } else {
                    Val::L(LVal::Mem(self.addr_of_local(var), result_ty))
                }
            }
        }
    }

    /// Finds a member by name, looking through anonymous members; returns the byte
    /// offset of the member and the member.
    pub fn find_field(&self, rec: TypeId, name: &str) -> Option<(u64, ripple_ir::Field)> {
        let record = self.linker.program.types.record(rec)?;
        for field in &record.fields {
            if field.name == name {
                return Some((field.offset, field.clone()));
            }
        }
        for field in &record.fields {
            if field.name.is_empty() && field.bit_field.is_none() {
                if let Some((off, f)) = self.find_field(field.ty, name) {
                    return Some((field.offset + off, f));
                }
            }
        }
        None
    }

    /// The member `name` of the record object at `addr`.
    pub fn member(&mut self, addr: Expr, rec: TypeId, name: &str, node: TsNode<'a>) -> LVal {
        match self.find_field(rec, name) {
            Some((offset, field)) => {
                let a = self.offset_addr(addr, offset as i64, field.ty);
                match field.bit_field {
                    Some((bit_offset, width)) => LVal::Bits {
                        addr: a,
                        bit_offset,
                        width,
                        ty: field.ty,
                    },
                    None => LVal::Mem(a, field.ty),
                }
            }
            None => {
                let rec_name = self.linker.program.types.display(rec);
                self.diag(
                    Severity::Error,
                    node,
                    format!("no member `{name}` in {rec_name}"),
                );
                let int = self.types.int;
                let a = self.offset_addr(addr, 0, int);
                LVal::Mem(a, int)
            }
        }
    }

    /// A member access or subscript `node`: its `argument` lowered, then `apply`'d with
    /// `node` (`incomplete` is the havoc's reason when the argument is missing).
    fn postfix(
        &mut self,
        node: TsNode<'a>,
        incomplete: &str,
        apply: fn(&mut Self, TsNode<'a>, Val) -> Val,
    ) -> Val {
        if let Some(v) = self.misparsed_cast_postfix(node) {
            return v;
        }
        let Some(arg) = self.child_field(node, self.fields.argument) else {
            return Val::R(self.unreadable(node, incomplete));
        };
        let base = self.lower_expr(arg);
        apply(self, node, base)
    }

    /// The member access `node` applied to the (already lowered) value `base`.
    pub(crate) fn field_access(&mut self, node: TsNode<'a>, base: Val) -> Val {
        let Some(field) = self.child_field(node, self.fields.field) else {
            return Val::R(self.unreadable(node, "incomplete member access"));
        };
        let name = self.text(field);
        let arrow = operator_of(self, node) == "->";
        let (addr, rec) = if arrow {
            let p = self.rvalue_of(base);
            match self.linker.program.types.pointee(p.ty) {
                Some(rec) => (p, rec),
                None => {
                    return Val::R(self.reject(
                        node,
                        "`->` on a non-pointer".into(),
                        "bad member access",
                    ));
                }
            }
        } else {
            match base {
                Val::L(LVal::Mem(addr, ty)) => (addr, ty),
                Val::R(Expr {
                    kind: ExprKind::Load(addr),
                    ty,
                }) => (*addr, ty),
                Val::R(e) if self.is_record(e.ty) => {
                    let ty = e.ty;
                    (self.record_address(e), ty)
                }
                _ => {
                    return Val::R(self.reject(
                        node,
                        "`.` on a non-record".into(),
                        "bad member access",
                    ));
                }
            }
        };
        if self.linker.program.types.record(rec).is_none() {
            return Val::R(self.reject(
                node,
                format!("member `{name}` of a non-record"),
                "bad member access",
            ));
        }
        Val::L(self.member(addr, rec, name, node))
    }

    /// The subscript `node` applied to the (already lowered) value `base`.
    pub(crate) fn subscript_of(&mut self, node: TsNode<'a>, base: Val) -> Val {
        let Some(index) = self.child_field(node, self.fields.index) else {
            return Val::R(self.unreadable(node, "incomplete subscript"));
        };
        let base = self.vector_lanes(base);
        let a = self.rvalue_of(base);
        let i = self.rvalue(index);
        let (p, i) = if self.is_ptr(a.ty) { (a, i) } else { (i, a) };
        let Some(elem) = self.linker.program.types.pointee(p.ty) else {
            return Val::R(self.reject(node, "subscript of a non-pointer".into(), "bad subscript"));
        };
        if !self.is_int(i.ty) {
            self.diag(
                Severity::Error,
                node,
                "array index is not an integer".into(),
            );
        }
        let addr = self.ptr_index(p, i, false);
        Val::L(LVal::Mem(addr, elem))
    }

    fn cast_expression(&mut self, node: TsNode<'a>) -> Val {
        let (Some(desc), Some(value)) = (
            self.child_field(node, self.fields.type_),
            self.child_field(node, self.fields.value),
        ) else {
            return Val::R(self.unreadable(node, "incomplete cast"));
        };
        // `(x) - 1` with `x` a variable is parsed as a cast of `-1` to type `x`.
        if let Some(r) = self.misparsed_cast_reread(node) {
            return Val::R(self.reread_value(r, node));
        }
        // `(offsetof(T, m))` followed by `)`: the parser read a cast with a missing operand.
        if value.is_missing() {
            if let Some(call) = self.descriptor_as_call(desc) {
                return self.lower_expr(call);
            }
        }
        let ty = self.type_descriptor(desc);
        if ty == self.types.void {
            self.expr_effects(value);
            return Val::R(Expr::int(0, self.types.void));
        }
        if value.kind() == "initializer_list" {
            return self.compound_literal(node);
        }
        let e = self.rvalue(value);
        if self.is_record(ty) {
            // GNU cast to union, or a no-op cast of a record.
            if self.is_record(e.ty) {
                return Val::R(self.retype(e, ty));
            }
            let var = self.temp(ty);
            let a = self.addr_of_local(var);
            // A scalar cast to a vector of its size: its bytes.
            let first_ty = match self
                .linker
                .program
                .types
                .record(ty)
                .and_then(|r| r.fields.first())
            {
                Some(f) if self.vector_shape(ty).is_none() => f.ty,
                _ => e.ty,
            };
            let v = self.convert(e, first_ty);
            let fp = self.pointer_to(first_ty);
            let fa = self.retype(a.clone(), fp);
            self.emit(NodeKind::Assign {
                dst: Place::Mem {
                    addr: fa,
                    ty: first_ty,
                },
                value: v,
            });
            return Val::L(LVal::Mem(a, ty));
        }
        if self.float_kind(e.ty) == Some(ripple_ir::FloatKind::LongDouble)
            || ty == self.types.ldouble
        {
            self.note_long_double(self.types.ldouble, node);
        }
        Val::R(self.convert(e, ty))
    }

    /// A cast's type descriptor that is really an expression: a name that denotes no type
    /// (an object, function or constant), with the sizes of abstract array declarators
    /// as subscripts, outermost first (`(a[i][j])` read as the "type" `a [i][j]`).
    pub(crate) fn descriptor_as_expression(
        &mut self,
        desc: TsNode<'a>,
    ) -> Option<(&'a str, Vec<TsNode<'a>>)> {
        let spec = self.child_field(desc, self.fields.type_)?;
        if spec.kind() != "type_identifier" {
            return None;
        }
        let mut cursor = desc.walk();
        if desc.named_children(&mut cursor).count() > 2 {
            return None;
        }
        let mut subscripts = Vec::new();
        let mut decl = self.child_field(desc, self.fields.declarator);
        while let Some(d) = decl {
            if d.kind() != "abstract_array_declarator" {
                return None;
            }
            subscripts.push(self.child_field(d, self.fields.size)?);
            decl = self.child_field(d, self.fields.declarator);
        }
        // The innermost declarator is the first subscript.
        subscripts.reverse();
        let name = self.text(spec);
        match self.lookup(name)? {
            Sym::Typedef(_) | Sym::Vla { .. } => None,
            _ => Some((name, subscripts)),
        }
    }

    /// The value of a name that denotes an object, function or constant (not a type, nor
    /// a variable-length array).
    pub(crate) fn symbol_value(&mut self, name: &str) -> Option<Expr> {
        let v = match self.lookup(name)? {
            Sym::Vla { .. } => return None,
            sym => self.symbol_val(sym)?,
        };
        Some(self.rvalue_of(v))
    }

    /// The lvalue (or, for enum constants, rvalue) a symbol denotes; `None` for a type.
    fn symbol_val(&mut self, sym: Sym) -> Option<Val> {
        Some(match sym {
            Sym::Local(var, ty) => {
                if self.is_register(var) {
                    Val::L(LVal::Reg(var, ty))
                } else {
                    Val::L(LVal::Mem(self.addr_of_local(var), ty))
                }
            }
            Sym::Vla { ptr, ty, .. } => {
                let p = self.pointer_to(ty);
                let vp = self.func.locals[ptr.index()].ty;
                Val::L(LVal::Mem(self.retype(Expr::local(ptr, vp), p), ty))
            }
            Sym::Global(g, ty) => {
                let p = self.pointer_to(ty);
                Val::L(LVal::Mem(Expr::new(ExprKind::AddrOfGlobal(g), p), ty))
            }
            Sym::Func(f, ty) => {
                let p = self.pointer_to(ty);
                Val::L(LVal::Mem(Expr::new(ExprKind::AddrOfFunc(f), p), ty))
            }
            Sym::EnumConst(v, ty) => Val::R(self.int_const(v, ty)),
            Sym::Typedef(_) => return None,
        })
    }

    /// The value of a re-read expression; operands are lowered left to right, `&&` and
    /// `||` short-circuit.
    fn reread_value(&mut self, r: Reread<'a>, node: TsNode<'a>) -> Expr {
        match r {
            Reread::Leaf(Operand::Node(n)) => self.rvalue(n),
            Reread::Leaf(Operand::Value(e)) => e,
            Reread::Bin("&&" | "||", ..) => {
                self.truth_value(|this, t, f| this.reread_cond(r, t, f, node))
            }
            Reread::Bin(op, a, b) => {
                let a = self.reread_value(*a, node);
                let b = self.reread_value(*b, node);
                self.arith(op, a, b, node)
            }
        }
    }

    /// A re-read expression as a condition: jumps to `t` when non-zero, else to `f`.
    fn reread_cond(
        &mut self,
        r: Reread<'a>,
        t: ripple_ir::NodeId,
        f: ripple_ir::NodeId,
        node: TsNode<'a>,
    ) {
        match r {
            Reread::Leaf(Operand::Node(n)) => self.cond(n, t, f),
            Reread::Bin(op, a, b) if matches!(op, "&&" | "||") => {
                let mid = self.new_label();
                if op == "&&" {
                    self.reread_cond(*a, mid, f, node);
                } else {
                    self.reread_cond(*a, t, mid, node);
                }
                self.place(mid);
                self.reread_cond(*b, t, f, node);
            }
            r => {
                let e = self.reread_value(r, node);
                let e = if self.linker.program.types.is_scalar(e.ty) {
                    e
                } else {
                    self.diag(Severity::Error, node, "condition is not a scalar".into());
                    self.int_const(1, self.types.int)
                };
                self.branch(e, t, f);
            }
        }
    }

    fn sizeof_expression(&mut self, node: TsNode<'a>) -> Expr {
        let ulong = self.types.ulong;
        if let Some(desc) = self.child_field(node, self.fields.type_) {
            // `sizeof (f(x))` with `f` a function or an object: the parser reads the
            // type "`f` returning a function"; C reads the size of the call's result
            // (which is not evaluated).
            let ty = match self.descriptor_as_call(desc) {
                Some(call) => self.speculate(|this| this.lower_expr(call).ty()),
                None => self.type_descriptor(desc),
            };
            self.layout_read(ty, node);
            return self.runtime_size(ty);
        }
        let Some(value) = self.child_field(node, self.fields.value) else {
            return self.int_const(0, ulong);
        };
        let inner = strip_parens(value);
        // `sizeof (typeof (e))` reads as a call of `typeof`: the size of e's type.
        if inner.kind() == "call_expression" {
            let callee = self.child_field(inner, self.fields.function);
            let args = self.child_field(inner, self.fields.arguments);
            if let (Some(callee), Some(args)) = (callee, args) {
                if matches!(self.text(callee), "typeof" | "__typeof__" | "__typeof")
                    && args.named_child_count() == 1
                {
                    if let Some(arg) = args.named_child(0) {
                        let ty = self.speculate(|this| this.lower_expr(arg).ty());
                        self.layout_read(ty, node);
                        return self.runtime_size(ty);
                    }
                }
            }
        }
        if inner.kind() == "identifier" {
            let name = self.text(inner);
            match self.lookup(name) {
                Some(Sym::Typedef(ty)) => {
                    self.layout_read(ty, node);
                    return self.int_const(i128::from(self.size_of(ty)), ulong);
                }
                Some(Sym::Vla { size, .. }) => {
                    let st = self.func.locals[size.index()].ty;
                    return Expr::local(size, st);
                }
                None => {
                    if let Some(ty) = self.builtin_type_name(name) {
                        return self.int_const(i128::from(self.size_of(ty)), ulong);
                    }
                }
                _ => {}
            }
        }
        let ty = self.speculate(|this| this.lower_expr(value).ty());
        self.layout_read(ty, node);
        self.runtime_size(ty)
    }

    fn offsetof(&mut self, node: TsNode<'a>) -> Expr {
        let ulong = self.types.ulong;
        let ty = match self.child_field(node, self.fields.type_) {
            Some(d) => self.type_descriptor(d),
            None => return self.int_const(0, ulong),
        };
        let Some(member) = self.child_field(node, self.fields.member) else {
            return self.int_const(0, ulong);
        };
        self.layout_read(ty, node);
        let name = self.text(member);
        match self.find_field(ty, name) {
            Some((off, _)) => self.int_const(i128::from(off), ulong),
            None => {
                self.diag(
                    Severity::Error,
                    node,
                    format!("no member `{name}` for offsetof"),
                );
                self.int_const(0, ulong)
            }
        }
    }

    fn generic(&mut self, node: TsNode<'a>) -> Val {
        let mut cursor = node.walk();
        let children: Vec<TsNode<'a>> = node.children(&mut cursor).collect();
        let mut control_ty = None;
        let mut pending_type: Option<TypeId> = None;
        let mut pending_default = false;
        let mut chosen = None;
        let mut default = None;
        for child in children {
            match child.kind() {
                "type_descriptor" if self.text(child) == crate::lower::GENERIC_DEFAULT => {
                    pending_default = true
                }
                "type_descriptor" => pending_type = Some(self.type_descriptor(child)),
                _ if child.is_named() => {
                    if control_ty.is_none() {
                        let ty = self.speculate(|this| this.rvalue(child).ty);
                        control_ty = Some(ty);
                    } else if pending_default {
                        default = Some(child);
                        pending_default = false;
                    } else if let Some(t) = pending_type.take() {
                        if Some(t) == control_ty && chosen.is_none() {
                            chosen = Some(child);
                        }
                    }
                }
                _ => {}
            }
        }
        match chosen.or(default) {
            Some(e) => self.lower_expr(e),
            None => {
                self.diag(
                    Severity::Error,
                    node,
                    "no _Generic association matches".into(),
                );
                Val::R(self.int_const(0, self.types.int))
            }
        }
    }

    /// A GNU statement expression `({ ...; e; })`: the value of its last expression.
    fn statement_expression(&mut self, block: TsNode<'a>) -> Val {
        self.push_scope();
        let mut cursor = block.walk();
        let items: Vec<TsNode<'a>> = block
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect();
        let mut result = Val::R(Expr::int(0, self.types.void));
        for (i, item) in items.iter().enumerate() {
            if i + 1 == items.len() && item.kind() == "expression_statement" {
                if let Some(e) = item.named_child(0) {
                    let v = self.lower_expr(e);
                    // Keep the value stable across the scope's end.
                    result = match v {
                        Val::L(LVal::Reg(var, ty)) => Val::R(self.spill(Expr::local(var, ty))),
                        other => other,
                    };
                }
            } else {
                self.statement(*item);
            }
        }
        if self.scopes.last().is_some_and(|s| !s.cleanups.is_empty()) {
            // The value is taken before the cleanups run.
            let value = self.rvalue_of(result);
            result = if value.ty == self.types.void {
                Val::R(value)
            } else {
                Val::R(self.spill(value))
            };
            self.run_cleanups(self.scopes.len() - 1, |_| true);
        }
        self.pop_scope();
        result
    }

    /// A call; returns its value (a temporary) when wanted.
    pub fn call(&mut self, node: TsNode<'a>, want: bool) -> Val {
        let Some(func) = self.child_field(node, self.fields.function) else {
            return Val::R(self.unreadable(node, "incomplete call"));
        };
        let args_node = self.child_field(node, self.fields.arguments);
        let mut args: Vec<TsNode<'a>> = Vec::new();
        if let Some(list) = args_node {
            let mut cursor = list.walk();
            args.extend(
                list.named_children(&mut cursor)
                    .filter(|c| c.kind() != "comment"),
            );
        }
        self.call_of(node, func, &args, want)
    }

    /// A call of `func` with `args` (`node` is the whole call, for its place).
    pub(crate) fn call_of(
        &mut self,
        node: TsNode<'a>,
        func: TsNode<'a>,
        args: &[TsNode<'a>],
        want: bool,
    ) -> Val {
        if let Some(types) = self.cast_chain(func) {
            // `(T)(x)`, `(T)(U)(x)`: casts the parser read as calls.
            let mut last = None;
            for (i, &a) in args.iter().enumerate() {
                if i + 1 == args.len() {
                    last = Some(self.rvalue(a));
                } else {
                    self.expr_effects(a);
                }
            }
            let Some(e) = last else {
                return Val::R(self.int_const(0, self.types.int));
            };
            return Val::R(self.apply_casts(e, &types));
        }
        if let Some(v) = self.misparsed_cast_of_call(node, func, args, want) {
            return v;
        }
        let callee_node = strip_parens(func);
        let mut callee = None;
        let mut fn_ty = None;
        if callee_node.kind() == "identifier" {
            let name = self.text(callee_node);
            match self.lookup(name) {
                Some(Sym::Func(f, ty)) => {
                    if let Some(v) = self.library_builtin(BuiltinCall {
                        name,
                        node,
                        args,
                        want,
                    }) {
                        return v;
                    }
                    callee = Some(Callee::Direct(f));
                    fn_ty = Some(ty);
                }
                None => {
                    if let Some(v) = self.builtin_call(BuiltinCall {
                        name,
                        node,
                        args,
                        want,
                    }) {
                        return v;
                    }
                    let f = self.implicit_function(name, callee_node);
                    callee = Some(Callee::Direct(f));
                    fn_ty = Some(self.types.implicit_fn);
                }
                _ => {}
            }
        }
        let (callee, fn_ty) = match (callee, fn_ty) {
            (Some(c), Some(t)) => (c, t),
            _ => {
                let target = self.rvalue(func);
                let fty =
                    self.linker.program.types.pointee(target.ty).filter(|p| {
                        matches!(self.linker.program.types.get(*p), Type::Function { .. })
                    });
                match fty {
                    Some(fty) => (Callee::Indirect(target), fty),
                    None => {
                        self.diag(
                            Severity::Error,
                            node,
                            "called object is not a function".into(),
                        );
                        let it = self.types.implicit_fn;
                        let p = self.pointer_to(it);
                        let target = self.convert(target, p);
                        (Callee::Indirect(target), it)
                    }
                }
            }
        };
        let (ret, params, varargs, prototyped) = match self.linker.program.types.get(fn_ty).clone()
        {
            Type::Function {
                ret,
                params,
                varargs,
                prototyped,
            } => (ret, params, varargs, prototyped),
            _ => (self.types.int, Vec::new(), false, false),
        };
        // C leaves the order of the arguments' evaluation unspecified; they are
        // evaluated last to first, as gcc does on x86-64 (`f(next(), next())` passes the
        // second value first), so that answers hold of the code gcc builds.
        let mut values = Vec::with_capacity(args.len());
        // A value read before arguments to its left run their side effects is kept in
        // a register first (`f(g(), x)`: `x` is read before `g` may change it).
        let effects: Vec<bool> = args.iter().map(|a| has_side_effects(*a)).collect();
        for (i, arg) in args.iter().enumerate().rev() {
            let v = self.rvalue(*arg);
            let mut v = if prototyped && i < params.len() {
                self.assign_convert(v, params[i])
            } else {
                self.default_promote(v)
            };
            let constant = matches!(
                v.kind,
                ExprKind::Int(_)
                    | ExprKind::Float(_)
                    | ExprKind::AddrOfLocal(_)
                    | ExprKind::AddrOfGlobal(_)
                    | ExprKind::AddrOfFunc(_)
            );
            if effects[..i].iter().any(|&e| e)
                && !constant
                && self.linker.program.types.is_scalar(v.ty)
            {
                let var = self.temp(v.ty);
                let ty = v.ty;
                self.emit(NodeKind::Assign {
                    dst: Place::Local(var),
                    value: v,
                });
                v = Expr::local(var, ty);
            }
            values.push(v);
        }
        values.reverse();
        if prototyped && values.len() < params.len() {
            self.diag(Severity::Error, node, "too few arguments in call".into());
            for &p in &params[values.len()..] {
                let z = if self.linker.program.types.is_scalar(p) {
                    self.int_const(0, self.types.int)
                } else {
                    continue;
                };
                let z = self.convert(z, p);
                values.push(z);
            }
        }
        let _ = varargs;
        self.call_with(callee, values, ret, want)
    }

    /// Emits a call node; returns the result when wanted (records in a memory temp).
    pub fn call_with(&mut self, callee: Callee, args: Vec<Expr>, ret: TypeId, want: bool) -> Val {
        if ret == self.types.void || !want {
            self.emit(NodeKind::Call {
                dst: None,
                callee,
                args,
            });
            return Val::R(Expr::int(
                0,
                if ret == self.types.void {
                    self.types.void
                } else {
                    ret
                },
            ));
        }
        let var = self.temp(ret);
        if self.is_register(var) {
            self.emit(NodeKind::Call {
                dst: Some(Place::Local(var)),
                callee,
                args,
            });
            Val::R(Expr::local(var, ret))
        } else {
            let addr = self.addr_of_local(var);
            self.emit(NodeKind::Call {
                dst: Some(Place::Mem {
                    addr: addr.clone(),
                    ty: ret,
                }),
                callee,
                args,
            });
            Val::L(LVal::Mem(addr, ret))
        }
    }

    /// The default argument promotions (variadic and unprototyped calls).
    pub fn default_promote(&mut self, v: Expr) -> Expr {
        if self.float_kind(v.ty) == Some(ripple_ir::FloatKind::Float) {
            let d = self.types.double;
            return self.convert(v, d);
        }
        if self.is_int(v.ty) {
            return self.promote(v);
        }
        v
    }

    /// Declares `int name()` for a call to an undeclared function.
    pub fn implicit_function(&mut self, name: &'a str, node: TsNode<'a>) -> FuncId {
        self.diag(
            Severity::Warning,
            node,
            format!("implicit declaration of function `{name}`"),
        );
        let ty = self.types.implicit_fn;
        let span = self.span_of(node);
        let f = self.declare_function(name, ty, false, span);
        if self.speculating == 0 {
            self.bind_file_scope(name, Sym::Func(f, ty));
        }
        f
    }
}

/// The label of `&&label` (which the grammar reads as `&(&label)`).
pub(crate) fn label_address<'a>(lw: &Lowerer<'a, '_>, node: TsNode<'a>) -> Option<&'a str> {
    if node.kind() != "pointer_expression" || operator_of(lw, node) != "&" {
        return None;
    }
    let inner = lw.child_field(node, lw.fields.argument)?;
    if inner.kind() != "pointer_expression"
        || operator_of(lw, inner) != "&"
        || inner.start_byte() != node.start_byte() + 1
    {
        return None;
    }
    let label = lw.child_field(inner, lw.fields.argument)?;
    (label.kind() == "identifier").then(|| lw.text(label))
}

/// Whether an expression may have side effects: it holds a call, an assignment or an
/// increment (read from its syntax).
fn has_side_effects(node: TsNode<'_>) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "call_expression"
                | "assignment_expression"
                | "update_expression"
                | "compound_statement"
        ) {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    false
}
