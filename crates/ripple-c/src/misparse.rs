//! Re-reading what the parser misread because it cannot know which names are types:
//! `(f(x))*g(y)` read as a cast of `*g(y)` to the "type" `f(x)`, `(a)-b` or `(T)(x)`
//! chains read as casts, `sizeof (a)[0]` read as a subscript of `sizeof(type a)`. With
//! the names in scope known, the text of the misread part is parsed again as an
//! expression (at its own offsets) and lowered by C precedence.

use ripple_ir::{Expr, TypeId, UnOp};
use tree_sitter::Node as TsNode;

use crate::expr::{operator_of, LVal, Val};
use crate::lower::{Lowerer, Sym};

/// The precedence of a binary operator (higher binds tighter).
pub(crate) fn binary_precedence(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | "<=" | ">" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        _ => 1,
    }
}

/// An operand of an expression re-read from a misparsed cast: a node still to lower,
/// or a value already computed.
pub(crate) enum Operand<'a> {
    Node(TsNode<'a>),
    Value(Expr),
}

/// An expression re-read by C precedence (see `misparsed_cast_reread`).
pub(crate) enum Reread<'a> {
    Leaf(Operand<'a>),
    Bin(&'a str, Box<Reread<'a>>, Box<Reread<'a>>),
}

/// Precedence climbing over `lhs (op operand)*`.
pub(crate) fn climb<'a, I: Iterator<Item = (&'a str, Operand<'a>)>>(
    mut lhs: Reread<'a>,
    ops: &mut std::iter::Peekable<I>,
    min_prec: u8,
) -> Reread<'a> {
    while let Some(&(op, _)) = ops.peek() {
        let prec = binary_precedence(op);
        if prec < min_prec {
            break;
        }
        let Some((_, operand)) = ops.next() else {
            break;
        };
        let mut rhs = Reread::Leaf(operand);
        while let Some(&(next, _)) = ops.peek() {
            if binary_precedence(next) <= prec {
                break;
            }
            rhs = climb(rhs, ops, prec + 1);
        }
        lhs = Reread::Bin(op, Box::new(lhs), Box::new(rhs));
    }
    lhs
}

impl<'a> Lowerer<'a, '_> {
    /// `(T)(e)[i]`, `(T)(e).f`, `(T)(e)->f` with `T` a type: the parser applied the
    /// postfix operators to the cast, read as a call `(T)(e)`; C applies them to `(e)`
    /// and casts the result.
    pub(crate) fn misparsed_cast_postfix(&mut self, node: TsNode<'a>) -> Option<Val> {
        let mut spine = Vec::new();
        let mut cur = node;
        let types = loop {
            match cur.kind() {
                "field_expression" | "subscript_expression" => {
                    spine.push(cur);
                    cur = self.child_field(cur, self.fields.argument)?;
                }
                "call_expression" => {
                    let func = self.child_field(cur, self.fields.function)?;
                    break self.cast_chain(func)?;
                }
                _ => return None,
            }
        };
        let list = self.child_field(cur, self.fields.arguments)?;
        if list.named_child_count() != 1 {
            return None;
        }
        let mut v = self.lower_expr(list.named_child(0)?);
        for &p in spine.iter().rev() {
            v = if p.kind() == "field_expression" {
                self.field_access(p, v)
            } else {
                self.subscript_of(p, v)
            };
        }
        let e = self.rvalue_of(v);
        Some(Val::R(self.apply_casts(e, &types)))
    }

    /// `(T)(e)(args)` with `T` a type: the parser read the cast `(T)(e)` as a call and
    /// called what it returns; C calls `(e)` and casts the result.
    pub(crate) fn misparsed_cast_of_call(
        &mut self,
        node: TsNode<'a>,
        func: TsNode<'a>,
        args: &[TsNode<'a>],
        want: bool,
    ) -> Option<Val> {
        if func.kind() != "call_expression" {
            return None;
        }
        let list = self.child_field(func, self.fields.arguments)?;
        if list.named_child_count() != 1 {
            return None;
        }
        let types = self.cast_chain(self.child_field(func, self.fields.function)?)?;
        let callee = list.named_child(0)?;
        let v = self.call_of(node, callee, args, want);
        if !want {
            return Some(v);
        }
        let e = self.rvalue_of(v);
        Some(Val::R(self.apply_casts(e, &types)))
    }

    /// `(T) op right` re-read as `((T)(op x)) ...` where `x` is the leftmost operand of
    /// `right` (the cast binds tighter than any binary operator); `types` are the casts,
    /// outermost first.
    pub(crate) fn misparsed_cast_binary(
        &mut self,
        types: &[TypeId],
        op: &str,
        right: TsNode<'a>,
    ) -> Expr {
        if right.kind() == "binary_expression" {
            let rop = operator_of(self, right);
            if let (Some(rl), Some(rr)) = (
                self.child_field(right, self.fields.left),
                self.child_field(right, self.fields.right),
            ) {
                if rop != "&&" && rop != "||" {
                    let inner = self.misparsed_cast_binary(types, op, rl);
                    let b = self.rvalue(rr);
                    return self.arith(rop, inner, b, right);
                }
            }
        }
        let operand = match op {
            "-" => {
                let e = self.rvalue(right);
                let e = self.promote(e);
                let t = e.ty;
                Expr::unary(UnOp::Neg, e, t)
            }
            "+" => {
                let e = self.rvalue(right);
                self.promote(e)
            }
            "*" => {
                let p = self.rvalue(right);
                match self.linker.program.types.pointee(p.ty) {
                    Some(pointee) => self.rvalue_of(Val::L(LVal::Mem(p, pointee))),
                    None => p,
                }
            }
            _ => {
                let v = self.lower_expr(right);
                match v {
                    Val::L(lv) => self.addr_of(lv, right),
                    Val::R(e) => e,
                }
            }
        };
        self.apply_casts(operand, types)
    }

    /// The parts of a cast whose "type" is really an expression (a variable, possibly
    /// subscripted: `(x)`, `(a[i])`) and whose operand starts with a unary `-`, `+`, `*`
    /// or `&`, a `&&` (read as two `&`), or a signed number: (the expression's value, the
    /// binary operator, its right operand).
    pub(crate) fn misparsed_cast_parts(
        &mut self,
        cast: TsNode<'a>,
    ) -> Option<(Expr, &'a str, Operand<'a>)> {
        if cast.kind() != "cast_expression" {
            return None;
        }
        let desc = self.child_field(cast, self.fields.type_)?;
        let value = self.child_field(cast, self.fields.value)?;
        let parts = self.descriptor_as_expression(desc);
        let call = if parts.is_none() {
            Some(self.descriptor_as_call(desc)?)
        } else {
            None
        };
        let (op, right) = match value.kind() {
            "unary_expression" | "pointer_expression" => {
                let op = operator_of(self, value);
                let arg = self.child_field(value, self.fields.argument)?;
                match op {
                    "&" if arg.kind() == "pointer_expression"
                        && operator_of(self, arg) == "&"
                        && arg.start_byte() == value.start_byte() + 1 =>
                    {
                        (
                            "&&",
                            Operand::Node(self.child_field(arg, self.fields.argument)?),
                        )
                    }
                    "-" | "+" | "*" | "&" => (op, Operand::Node(arg)),
                    _ => return None,
                }
            }
            "number_literal" => {
                let text = self.text(value);
                let op = text.get(..1).filter(|op| matches!(*op, "-" | "+"))?;
                (op, Operand::Value(self.number_text(&text[1..], value)))
            }
            _ => return None,
        };
        let (name, subscripts) = match (parts, call) {
            (Some(parts), _) => parts,
            (None, Some(call)) => return Some((self.rvalue(call), op, right)),
            (None, None) => return None,
        };
        let mut left = self.symbol_value(name)?;
        for index in subscripts {
            let i = self.rvalue(index);
            let (p, i) = if self.is_ptr(left.ty) {
                (left, i)
            } else {
                (i, left)
            };
            left = match self.linker.program.types.pointee(p.ty) {
                Some(elem) => {
                    let addr = self.ptr_index(p, i, false);
                    self.rvalue_of(Val::L(LVal::Mem(addr, elem)))
                }
                None => self.reject(index, "subscript of a non-pointer".into(), "bad subscript"),
            };
        }
        Some((left, op, right))
    }

    /// A cast's type descriptor that is really a call: `(f(x))` where `f` names a
    /// function or an object (`(SQR(s*ak))*rd(...)` read as a cast of `*rd(...)`), or a
    /// builtin (`(__builtin_offsetof(T, m))`). The descriptor's text is parsed again as
    /// an expression, at its own offsets; the call node is returned.
    pub(crate) fn descriptor_as_call(&mut self, desc: TsNode<'a>) -> Option<TsNode<'a>> {
        let spec = self.child_field(desc, self.fields.type_)?;
        if spec.kind() != "type_identifier" {
            return None;
        }
        let decl = self.child_field(desc, self.fields.declarator)?;
        if decl.kind() != "abstract_function_declarator" {
            return None;
        }
        let name = self.text(spec);
        match self.lookup(name) {
            Some(Sym::Func(..) | Sym::Global(..) | Sym::Local(..)) => {}
            None if name.starts_with("__builtin_") || name == "offsetof" => {}
            _ => return None,
        }
        let (from, to) = (desc.start_byte(), desc.end_byte());
        let tree = self.reparse(desc)?;
        // translation_unit > expression_statement > `x=CALL` > the call.
        let assign = tree.root_node().named_child(0)?.named_child(0)?;
        let node = self.child_field(assign, self.fields.right)?;
        let builtin = self.lookup(name).is_none();
        (node.start_byte() == from && node.end_byte() == to && (builtin || !node.has_error()))
            .then_some(node)
    }

    /// `sizeof (a)[i]`, `sizeof (p)->f`, `sizeof (s).f`, `sizeof (f)(x)` where the
    /// parenthesised name is an object: the parser reads a `sizeof` of the type `a`
    /// with a postfix operator applied to it, while C reads the size of the whole
    /// postfix expression. The operand's text is parsed again as an expression.
    pub(crate) fn sizeof_of_postfix(&mut self, node: TsNode<'a>) -> Option<Expr> {
        if !matches!(
            node.kind(),
            "subscript_expression" | "field_expression" | "call_expression"
        ) {
            return None;
        }
        // The innermost operand of the postfix chain.
        let mut inner = node;
        while matches!(
            inner.kind(),
            "subscript_expression" | "field_expression" | "call_expression"
        ) {
            inner = inner.named_child(0)?;
        }
        if inner.kind() != "sizeof_expression" {
            return None;
        }
        let desc = self.child_field(inner, self.fields.type_)?;
        let spec = self.child_field(desc, self.fields.type_)?;
        if spec.kind() != "type_identifier"
            || self.child_field(desc, self.fields.declarator).is_some()
        {
            return None;
        }
        match self.lookup(self.text(spec))? {
            Sym::Typedef(_) | Sym::Vla { .. } => return None,
            _ => {}
        }
        // From the `(` after `sizeof` to the end of the postfix chain.
        let open = inner.child(1)?;
        let tree = self.reparse_range(
            open.start_byte(),
            node.end_byte(),
            open.start_position(),
            node.end_position(),
        )?;
        let assign = tree.root_node().named_child(0)?.named_child(0)?;
        let operand = self.child_field(assign, self.fields.right)?;
        if operand.has_error() || operand.end_byte() != node.end_byte() {
            return None;
        }
        let ty = self.speculate(|this| this.lower_expr(operand).ty());
        self.layout_read(ty, node);
        Some(self.runtime_size(ty))
    }

    /// Parses the text of `node` alone as the expression statement `x=TEXT;`, keeping
    /// its offsets (the parser reads only that range, `x=` and `;` are supplied). The
    /// tree lives as long as the unit's other trees.
    pub(crate) fn reparse(&self, node: TsNode<'a>) -> Option<&'a tree_sitter::Tree> {
        self.reparse_range(
            node.start_byte(),
            node.end_byte(),
            node.start_position(),
            node.end_position(),
        )
    }

    /// [`Self::reparse`] of the text from `from` to `to`.
    pub(crate) fn reparse_range(
        &self,
        from: usize,
        to: usize,
        start: tree_sitter::Point,
        end: tree_sitter::Point,
    ) -> Option<&'a tree_sitter::Tree> {
        const PREFIX: &[u8] = b"x=";
        let (node_start, node_end) = (start, end);
        let start = from.checked_sub(PREFIX.len())?;
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(crate::lower::c_language()).ok()?;
        let mut start_point = node_start;
        start_point.column = start_point.column.saturating_sub(PREFIX.len());
        let mut end_point = node_end;
        end_point.column += 1;
        parser
            .set_included_ranges(&[tree_sitter::Range {
                start_byte: start,
                end_byte: to + 1,
                start_point,
                end_point,
            }])
            .ok()?;
        let src = self.src.as_bytes();
        let mut read = |offset: usize, _: tree_sitter::Point| -> &[u8] {
            if offset >= start && offset < from {
                &PREFIX[offset - start..]
            } else if offset >= from && offset < to {
                &src[offset..to]
            } else if offset == to {
                b";"
            } else {
                b""
            }
        };
        let tree = parser.parse_with_options(&mut read, None, None)?;
        // Rare (a misparsed cast); the tree is small and must outlive this call like
        // the unit's trees do.
        Some(Box::leak(Box::new(tree)))
    }

    /// A cast whose "type" is really a variable, re-read as the binary expression it is:
    /// `(x) - 1` (a cast of `-1` to `x`), `(x) && y` (of `&&y`), `(a[i]) * b`; or the
    /// binary `node` with such a cast among the operands of its binary operators: `(x) -
    /// a * b` (the parser read `((x)(-a)) * b`), `0 < (x) && (x) < 10` (read as `(0 <
    /// (x)(&&(x))) < 10`, the cast taking the `&&`), `a * (x) - b`. The operators are
    /// re-read by C precedence, in the order of the text.
    pub(crate) fn misparsed_cast_reread(&mut self, node: TsNode<'a>) -> Option<Reread<'a>> {
        if !matches!(node.kind(), "binary_expression" | "cast_expression") {
            return None;
        }
        let mut items: Vec<(Option<&'a str>, Operand<'a>)> = Vec::new();
        if !self.flatten_operators(node, None, &mut items) {
            return None;
        }
        let mut items = items.into_iter();
        let (_, first) = items.next()?;
        let mut ops = items
            .map(|(op, operand)| (op.unwrap_or(","), operand))
            .peekable();
        Some(climb(Reread::Leaf(first), &mut ops, 0))
    }

    /// Appends the operands of `node`'s binary operators to `items` in the order of the
    /// text, each with the operator before it (`op` for the first), a misread cast as
    /// its expression, its operator and its operand; whether there was such a cast.
    fn flatten_operators(
        &mut self,
        node: TsNode<'a>,
        op: Option<&'a str>,
        items: &mut Vec<(Option<&'a str>, Operand<'a>)>,
    ) -> bool {
        match node.kind() {
            "binary_expression" => {
                let (Some(l), Some(r)) = (
                    self.child_field(node, self.fields.left),
                    self.child_field(node, self.fields.right),
                ) else {
                    items.push((op, Operand::Node(node)));
                    return false;
                };
                let inner = operator_of(self, node);
                let left = self.flatten_operators(l, op, items);
                let right = self.flatten_operators(r, Some(inner), items);
                left || right
            }
            "cast_expression" => match self.misparsed_cast_parts(node) {
                Some((left, cast_op, operand)) => {
                    items.push((op, Operand::Value(left)));
                    match operand {
                        Operand::Node(n) => {
                            self.flatten_operators(n, Some(cast_op), items);
                        }
                        value => items.push((Some(cast_op), value)),
                    }
                    true
                }
                None => {
                    items.push((op, Operand::Node(node)));
                    false
                }
            },
            _ => {
                items.push((op, Operand::Node(node)));
                false
            }
        }
    }
}
