//! Statement lowering to CFG nodes: blocks, `if`, all loop forms, `switch` (a chain of
//! branches comparing the promoted controlling value with each case, GNU case ranges
//! included, with fallthrough and `default`), `goto` and labels, GNU computed `goto
//! *EXPR` (a chain of branches comparing the target with the address of each label whose
//! address the function takes, in order, the last taken unconditionally: every
//! possible target is a successor, and the interpreter follows the exact one),
//! `break`/`continue`, `return` (assigns the return variable, then jumps to the exit).

use ripple_ir::{ApproximationKind, BinOp, Expr, NodeKind, Place};
use tree_sitter::Node as TsNode;

use crate::lower::{Lowerer, SwitchCase, SwitchCtx};
use crate::Severity;

impl<'a> Lowerer<'a, '_> {
    /// Sets the span and syntax link of the nodes lowered from `node`; returns the
    /// previous ones.
    pub fn enter(&mut self, node: TsNode<'a>) -> (ripple_ir::Span, Option<ripple_ir::SynId>) {
        let saved = (self.func.span, self.func.syn);
        self.func.span = self.span_of(node);
        if let Some(&s) = self.func.syn_map.get(&node.id()) {
            self.func.syn = Some(s);
        }
        saved
    }

    pub fn leave(&mut self, saved: (ripple_ir::Span, Option<ripple_ir::SynId>)) {
        self.func.span = saved.0;
        self.func.syn = saved.1;
    }

    /// Lowers a condition with the condition's own span and syntax link.
    fn condition(&mut self, node: TsNode<'a>, t: ripple_ir::NodeId, f: ripple_ir::NodeId) {
        let saved = self.enter(node);
        self.cond(node, t, f);
        self.leave(saved);
    }

    pub fn statement(&mut self, node: TsNode<'a>) {
        match node.kind() {
            "compound_statement" => {
                self.push_scope();
                self.block_items(node);
                if self.scopes.last().is_some_and(|s| !s.cleanups.is_empty()) {
                    // At the closing brace.
                    let saved = self.func.span;
                    if let Some(close) = node.child(node.child_count().saturating_sub(1)) {
                        self.func.span = self.span_of(close);
                    }
                    self.run_cleanups(self.scopes.len() - 1, |_| true);
                    self.func.span = saved;
                }
                self.pop_scope();
            }
            "comment" | ";" => {}
            _ => {
                let saved = self.enter(node);
                // The statement may read and write the registers it names, whatever
                // part of it was read: their values before it are stored for the havoc
                // to read, and they are unknown after it. Control may enter a labelled
                // statement after its label, so there the values at its end are stored.
                let broken = node.has_error() && self.error_is_local(node);
                let entered = !matches!(node.kind(), "labeled_statement" | "case_statement");
                let registers = if broken {
                    self.registers_named(node)
                } else {
                    Vec::new()
                };
                if broken && entered && self.func.cur.is_some() {
                    self.spill_registers(&registers);
                }
                self.statement_inner(node);
                if broken {
                    self.ensure_cur();
                    if !entered {
                        self.spill_registers(&registers);
                    }
                    let reason = "statement with a syntax error";
                    self.havoc(None, ApproximationKind::ParseError, node, reason);
                    // Named again: a declaration names the variables it declares only
                    // once they are.
                    let written = self.registers_named(node);
                    self.havoc_registers(&written, reason);
                }
                self.leave(saved);
            }
        }
    }

    /// Whether a statement's syntax error lies in the statement itself rather than in a
    /// nested statement (which reports its own).
    fn error_is_local(&self, node: TsNode<'a>) -> bool {
        if node.kind() == "ERROR" {
            return false; // Handled by the ERROR arm.
        }
        let mut cursor = node.walk();
        let local = node.children(&mut cursor).any(|c| {
            !(c.kind().ends_with("_statement")
                || c.kind() == "else_clause"
                || c.kind() == "declaration")
                && self.has_real_error(c)
        });
        local
    }

    /// An error node of a GNU case range, which the grammar lacks and the lowering reads
    /// (`case_label`): `... b` after the value, or `a ...` before it.
    pub(crate) fn is_case_range_error(&self, node: TsNode<'a>) -> bool {
        let Some(case) = node.parent().filter(|p| p.kind() == "case_statement") else {
            return false;
        };
        let text = self.text(node).trim();
        text.starts_with("...")
            || (text.ends_with("...")
                && self
                    .child_field(case, self.fields.value)
                    .is_some_and(|v| node.end_byte() <= v.start_byte()))
    }

    /// Whether a subtree holds a syntax error the lowering could not read (GNU case
    /// ranges, attribute statements and builtin type arguments are read from text).
    fn has_real_error(&self, node: TsNode<'a>) -> bool {
        if node.is_missing() {
            return !self.missing_cast_operand(node);
        }
        if node.is_error() {
            let text = self.text(node).trim();
            return !(self.is_case_range_error(node)
                || text.starts_with("__attribute__")
                || crate::syntax::inside_type_builtin(self, node));
        }
        if !node.has_error() {
            return false;
        }
        let mut cursor = node.walk();
        let found = node.children(&mut cursor).any(|c| self.has_real_error(c));
        found
    }

    /// The items of a block (or of a preprocessor conditional inside one).
    pub fn block_items(&mut self, node: TsNode<'a>) {
        let mut cursor = node.walk();
        let items: Vec<TsNode<'a>> = node
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment" && !self.func.skip_items.contains(&c.id()))
            .collect();
        let mut i = 0;
        while i < items.len() {
            if crate::syntax::is_braceless_switch(items[i]) && i + 1 < items.len() {
                i += self.braceless_switch(&items[i..]);
                continue;
            }
            self.statement(items[i]);
            i += 1;
        }
    }

    /// `switch (x) stmt` without braces, which the grammar reads as an error (`switch
    /// (x)`) followed by the statement; a labelled body `case 1: case 2: s;` is read as
    /// case statements that also swallow the statements after `s`. Lowers the switch with
    /// its real body (the labels and `s`), then the swallowed statements; returns the
    /// number of items consumed.
    fn braceless_switch(&mut self, items: &[TsNode<'a>]) -> usize {
        let head = items[0];
        let Some(cond) = head
            .named_child(0)
            .filter(|c| c.kind() == "parenthesized_expression")
        else {
            return 1;
        };
        // The labels (case statements without statements of their own) and the last
        // case statement, whose first statement ends the body.
        let mut used = 1;
        let mut labels = Vec::new();
        let mut rest = Vec::new();
        let mut body = None;
        for &item in &items[1..] {
            used += 1;
            if item.kind() != "case_statement" {
                body = Some(item);
                break;
            }
            labels.push(item);
            let stmts = self.case_items(item);
            if let Some((&first, after)) = stmts.split_first() {
                body = Some(first);
                rest = after.to_vec();
                break;
            }
        }
        let saved = self.enter(head);
        self.switch_with(cond, |this| {
            for &label in &labels {
                this.case_label(label);
            }
            if let Some(b) = body {
                this.statement(b);
            }
        });
        self.leave(saved);
        for s in rest {
            self.statement(s);
        }
        used
    }

    fn statement_inner(&mut self, node: TsNode<'a>) {
        match node.kind() {
            "declaration" => self.local_declaration(node),
            "type_definition" => self.type_definition(node),
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                self.type_specifier(node);
            }
            "expression_statement" => {
                if let Some(target) = self.computed_goto_target(node) {
                    self.computed_goto(target);
                } else if let Some(e) = node.named_child(0) {
                    self.ensure_cur();
                    self.expr_effects(e);
                }
            }
            "if_statement" => self.if_statement(node),
            "while_statement" => self.while_statement(node),
            "do_statement" => self.do_statement(node),
            "for_statement" => self.for_statement(node),
            "return_statement" => self.return_statement(node),
            "break_statement" => match self.func.breaks.last().copied() {
                Some((target, depth)) => {
                    self.run_cleanups(depth, |_| true);
                    self.goto(target);
                }
                None => self.diag(
                    Severity::Error,
                    node,
                    "`break` outside a loop or switch".into(),
                ),
            },
            "continue_statement" => match self.func.continues.last().copied() {
                Some((target, depth)) => {
                    self.run_cleanups(depth, |_| true);
                    self.goto(target);
                }
                None => self.diag(Severity::Error, node, "`continue` outside a loop".into()),
            },
            "switch_statement" => self.switch_statement(node),
            "case_statement" => self.case_statement(node),
            "goto_statement" => {
                if let Some(label) = self.child_field(node, self.fields.label) {
                    let name = self.text(label);
                    let target = self.label_node(name);
                    self.func.label_uses.entry(name).or_insert(label);
                    if self.scopes.iter().any(|s| !s.cleanups.is_empty()) {
                        // The cleanups of the scopes that do not hold the label run.
                        let at = label_offset(node, name, |n| self.text(n));
                        self.run_cleanups(0, |c| !at.is_some_and(|at| c.scope.contains(&at)));
                    }
                    self.goto(target);
                }
            }
            "labeled_statement" => {
                if let Some(label) = self.child_field(node, self.fields.label) {
                    let name = self.text(label);
                    let target = self.label_node(name);
                    self.place(target);
                }
                let mut cursor = node.walk();
                let rest: Vec<TsNode<'a>> = node
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() != "statement_identifier")
                    .collect();
                for s in rest {
                    self.statement(s);
                }
            }
            "attributed_statement" => {
                let mut cursor = node.walk();
                let rest: Vec<TsNode<'a>> = node
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() != "attribute_declaration")
                    .collect();
                for s in rest {
                    self.statement(s);
                }
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                for item in self.preproc_branch(node) {
                    self.statement(item);
                }
            }
            "preproc_def"
            | "preproc_function_def"
            | "preproc_call"
            | "preproc_include"
            | "linkage_specification" => {}
            "function_definition" => {
                self.diag(
                    Severity::Warning,
                    node,
                    "nested functions are not supported".into(),
                );
                self.ensure_cur();
                self.havoc(
                    None,
                    ApproximationKind::Unsupported,
                    node,
                    "nested function definition",
                );
            }
            "gnu_asm_expression" => {
                self.ensure_cur();
                self.inline_asm(node);
            }
            "ERROR" => {
                self.ensure_cur();
                let text = self.text(node);
                if text.trim_start().starts_with("__attribute__") {
                    // `__attribute__((fallthrough));` and friends: no effect.
                    return;
                }
                if text.trim_start().starts_with("goto") {
                    self.havoc(None, ApproximationKind::Unsupported, node, "computed goto");
                    return;
                }
                // Lower what can be read inside the unreadable region; the rest may read
                // the registers the region names (stored before it) and write them
                // (unknown after it, from what was stored before and after).
                let mut cursor = node.walk();
                let inner: Vec<TsNode<'a>> = node.named_children(&mut cursor).collect();
                let reason = "unreadable code (syntax error)";
                self.havoc_unreadable(node, false, reason);
                self.havoc(None, ApproximationKind::ParseError, node, reason);
                for c in inner {
                    if c.kind().ends_with("_statement") && c.kind() != "expression_statement"
                        || c.kind() == "declaration"
                    {
                        self.statement(c);
                    }
                }
                self.ensure_cur();
                self.havoc_unreadable(node, true, reason);
            }
            kind => {
                if kind.ends_with("_expression") || kind == "identifier" {
                    self.ensure_cur();
                    self.expr_effects(node);
                    return;
                }
                self.ensure_cur();
                self.diag(
                    Severity::Warning,
                    node,
                    format!("unsupported statement `{kind}`"),
                );
                // It may read and write the registers it names.
                let reason = format!("unsupported statement {kind}");
                self.havoc_unreadable(node, true, &reason);
                self.havoc(None, ApproximationKind::Unsupported, node, &reason);
            }
        }
    }

    /// The items of the branch of a preprocessor conditional that raw-mode lowering keeps:
    /// the first branch, unless its condition is literally `0`.
    pub fn preproc_branch(&self, node: TsNode<'a>) -> Vec<TsNode<'a>> {
        let alt = self.child_field(node, self.fields.alternative);
        let cond = self.child_field(node, self.fields.condition);
        let name = self.child_field(node, self.fields.name);
        let skip_first = cond.is_some_and(|c| self.text(c).trim() == "0");
        if skip_first {
            return match alt {
                Some(alt) => self.preproc_branch(alt),
                None => Vec::new(),
            };
        }
        let mut cursor = node.walk();
        node.named_children(&mut cursor)
            .filter(|c| {
                Some(*c) != alt && Some(*c) != cond && Some(*c) != name && c.kind() != "comment"
            })
            .collect()
    }

    /// The `EXPR` of `goto *EXPR;`, which reaches the parser as `0 , *EXPR;`.
    fn computed_goto_target(&self, node: TsNode<'a>) -> Option<TsNode<'a>> {
        let e = node.named_child(0)?;
        if e.kind() != "comma_expression" {
            return None;
        }
        let left = self.child_field(e, self.fields.left)?;
        if !self.computed_gotos.contains(&left.start_byte()) {
            return None;
        }
        let right = self.child_field(e, self.fields.right)?;
        if right.kind() != "pointer_expression" {
            return None;
        }
        self.child_field(right, self.fields.argument)
    }

    /// `goto *EXPR`: a branch to every label of the function whose address is taken,
    /// by comparing the target with each label's address (the last is taken when no
    /// other matched: jumping elsewhere is undefined).
    fn computed_goto(&mut self, target: TsNode<'a>) {
        self.ensure_cur();
        let labels = self.func.label_addrs.clone();
        if labels.is_empty() {
            self.diag(
                Severity::Error,
                target,
                "computed goto in a function that takes no label's address".into(),
            );
            self.havoc(
                None,
                ApproximationKind::Unsupported,
                target,
                "computed goto without a target",
            );
            self.func.cur = None;
            return;
        }
        let value = self.rvalue(target);
        let vp = self.types.void_ptr;
        let value = self.convert(value, vp);
        let var = self.temp(vp);
        self.emit(NodeKind::Assign {
            dst: Place::Local(var),
            value,
        });
        let last = labels.len() - 1;
        for (i, label) in labels.into_iter().enumerate() {
            let target_node = self.label_node(label);
            if i == last {
                self.goto(target_node);
                break;
            }
            let address = Expr::cast(self.int_const((i + 1) as i128, self.types.long), vp);
            let cond = Expr::binary(BinOp::Eq, Expr::local(var, vp), address, self.types.int);
            let next = self.new_label();
            self.branch(cond, target_node, next);
            self.func.cur = Some(next);
        }
    }

    pub(crate) fn label_node(&mut self, name: &'a str) -> ripple_ir::NodeId {
        if let Some(&l) = self.func.labels.get(name) {
            return l;
        }
        let l = self.new_label();
        self.func.labels.insert(name, l);
        l
    }

    fn if_statement(&mut self, node: TsNode<'a>) {
        let Some(c) = self.child_field(node, self.fields.condition) else {
            return;
        };
        let t = self.new_label();
        let f = self.new_label();
        self.ensure_cur();
        self.condition(c, t, f);
        self.place(t);
        if let Some(body) = self.child_field(node, self.fields.consequence) {
            self.statement(body);
        }
        match self.child_field(node, self.fields.alternative) {
            Some(alt) => {
                let end = self.new_label();
                self.goto(end);
                self.place(f);
                let mut cursor = alt.walk();
                let items: Vec<TsNode<'a>> = alt.named_children(&mut cursor).collect();
                for s in items {
                    self.statement(s);
                }
                self.place(end);
            }
            None => self.place(f),
        }
    }

    fn loop_body(
        &mut self,
        body: Option<TsNode<'a>>,
        brk: ripple_ir::NodeId,
        cont: ripple_ir::NodeId,
    ) {
        let depth = self.scopes.len();
        self.func.breaks.push((brk, depth));
        self.func.continues.push((cont, depth));
        if let Some(body) = body {
            self.statement(body);
        }
        self.func.breaks.pop();
        self.func.continues.pop();
    }

    fn while_statement(&mut self, node: TsNode<'a>) {
        let head = self.new_label();
        let body = self.new_label();
        let end = self.new_label();
        self.ensure_cur();
        self.place(head);
        match self.child_field(node, self.fields.condition) {
            Some(c) => self.condition(c, body, end),
            None => self.goto(body),
        }
        self.place(body);
        let b = self.child_field(node, self.fields.body);
        self.loop_body(b, end, head);
        self.goto(head);
        self.place(end);
    }

    fn do_statement(&mut self, node: TsNode<'a>) {
        let body = self.new_label();
        let cond = self.new_label();
        let end = self.new_label();
        self.ensure_cur();
        self.place(body);
        let b = self.child_field(node, self.fields.body);
        self.loop_body(b, end, cond);
        self.place(cond);
        match self.child_field(node, self.fields.condition) {
            Some(c) => self.condition(c, body, end),
            None => self.goto(body),
        }
        self.place(end);
    }

    fn for_statement(&mut self, node: TsNode<'a>) {
        self.push_scope();
        self.ensure_cur();
        if let Some(init) = self.child_field(node, self.fields.initializer) {
            let saved = self.enter(init);
            if init.kind() == "declaration" {
                self.local_declaration(init);
            } else {
                self.expr_effects(init);
            }
            self.leave(saved);
        }
        let head = self.new_label();
        let body = self.new_label();
        let step = self.new_label();
        let end = self.new_label();
        self.place(head);
        match self.child_field(node, self.fields.condition) {
            Some(c) => self.condition(c, body, end),
            None => self.goto(body),
        }
        self.place(body);
        let b = self.child_field(node, self.fields.body);
        self.loop_body(b, end, step);
        self.place(step);
        if let Some(update) = self.child_field(node, self.fields.update) {
            let saved = self.enter(update);
            self.expr_effects(update);
            self.leave(saved);
        }
        self.goto(head);
        self.place(end);
        self.run_cleanups(self.scopes.len() - 1, |_| true);
        self.pop_scope();
    }

    fn return_statement(&mut self, node: TsNode<'a>) {
        self.ensure_cur();
        if let Some(e) = node.named_child(0) {
            match self.func.ret_var {
                Some(var) => {
                    let ty = self.func.ret_ty;
                    let v = self.rvalue(e);
                    let v = self.assign_convert(v, ty);
                    if self.is_register(var) {
                        self.emit(NodeKind::Assign {
                            dst: Place::Local(var),
                            value: v,
                        });
                    } else {
                        let addr = self.addr_of_local(var);
                        self.emit(NodeKind::Assign {
                            dst: Place::Mem { addr, ty },
                            value: v,
                        });
                    }
                }
                None => self.expr_effects(e),
            }
        }
        // The value is computed before the cleanups run.
        self.run_cleanups(0, |_| true);
        let exit = self.func.exit;
        self.goto(exit);
    }

    fn switch_statement(&mut self, node: TsNode<'a>) {
        let Some(c) = self.child_field(node, self.fields.condition) else {
            return;
        };
        let body = self.child_field(node, self.fields.body);
        self.switch_with(c, |this| {
            if let Some(body) = body {
                this.statement(body);
            }
        });
    }

    /// A switch on the value of `c` whose body `body` lowers.
    fn switch_with(&mut self, c: TsNode<'a>, body: impl FnOnce(&mut Self)) {
        self.ensure_cur();
        let saved = self.enter(c);
        let v = self.rvalue(c);
        let v = if self.is_int(v.ty) {
            self.promote(v)
        } else {
            v
        };
        let v = match v.kind {
            ripple_ir::ExprKind::Local(_) | ripple_ir::ExprKind::Int(_) => v,
            _ => self.spill(v),
        };
        self.leave(saved);
        let dispatch = self.func.cur.take();
        let end = self.new_label();
        self.func.switches.push(SwitchCtx {
            cases: Vec::new(),
            default: None,
        });
        self.func.breaks.push((end, self.scopes.len()));
        self.func.switch_types.push(v.ty);
        body(self);
        self.func.switch_types.pop();
        self.func.breaks.pop();
        self.goto(end);
        let ctx = self.func.switches.pop().unwrap_or(SwitchCtx {
            cases: Vec::new(),
            default: None,
        });
        // The dispatch chain, one branch per case in source order.
        self.func.cur = dispatch;
        let saved = (self.func.span, self.func.syn);
        let int = self.types.int;
        for case in ctx.cases {
            self.func.span = case.span;
            self.func.syn = case.syn;
            let next = self.new_label();
            let low = Expr::int(case.low, v.ty);
            let cond = match case.high {
                None => Expr::binary(BinOp::Eq, v.clone(), low, int),
                Some(high) => {
                    let high = Expr::int(high, v.ty);
                    let a = Expr::binary(BinOp::Ge, v.clone(), low, int);
                    let b = Expr::binary(BinOp::Le, v.clone(), high, int);
                    Expr::binary(BinOp::BitAnd, a, b, int)
                }
            };
            self.branch(cond, case.target, next);
            self.place(next);
        }
        self.func.span = saved.0;
        self.func.syn = saved.1;
        match ctx.default {
            Some(d) => self.goto(d),
            None => self.goto(end),
        }
        self.place(end);
    }

    fn case_statement(&mut self, node: TsNode<'a>) {
        self.case_label(node);
        for s in self.case_items(node) {
            self.statement(s);
        }
    }

    /// The statements a case statement holds after its label.
    fn case_items(&self, node: TsNode<'a>) -> Vec<TsNode<'a>> {
        let value = self.child_field(node, self.fields.value);
        let mut cursor = node.walk();
        let items = node
            .named_children(&mut cursor)
            .filter(|c| Some(*c) != value && !matches!(c.kind(), "ERROR" | "comment"))
            .collect();
        items
    }

    /// Places the label of a case statement and records it in the innermost switch.
    fn case_label(&mut self, node: TsNode<'a>) {
        let target = self.new_label();
        self.place(target);
        let value = self.child_field(node, self.fields.value);
        let span = self.func.span;
        let syn = self.func.syn;
        match value {
            Some(value) => {
                let ty = self.func.switches.last().map(|_| ());
                let mut low = self.const_int_expr(value);
                // A GNU range `case a ... b:`: the parser leaves `... b` as an error
                // after the value, or `a ...` as one before it (then the value is `b`).
                let mut high = None;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if child.kind() != "ERROR" {
                        continue;
                    }
                    let text = self.text(child).trim();
                    let Some(e) = child.named_child(0) else {
                        continue;
                    };
                    if text.starts_with("...") {
                        high = self.const_int_expr(e);
                    } else if text.ends_with("...") && child.end_byte() <= value.start_byte() {
                        high = low;
                        low = self.const_int_expr(e);
                    }
                }
                if ty.is_none() {
                    self.diag(Severity::Error, node, "`case` outside a switch".into());
                } else if let Some(low) = low {
                    let vty = self.switch_type();
                    let bits = self.linker.program.types.bits(vty);
                    let low_bits = crate::consteval::truncate(low as u128, bits);
                    let high_bits = high.map(|h| crate::consteval::truncate(h as u128, bits));
                    if let Some(ctx) = self.func.switches.last_mut() {
                        ctx.cases.push(SwitchCase {
                            low: low_bits,
                            high: high_bits,
                            target,
                            span,
                            syn,
                        });
                    }
                } else {
                    self.diag(
                        Severity::Error,
                        value,
                        "case label is not an integer constant".into(),
                    );
                }
            }
            None => {
                if let Some(ctx) = self.func.switches.last_mut() {
                    ctx.default = Some(target);
                } else {
                    self.diag(Severity::Error, node, "`default` outside a switch".into());
                }
            }
        }
    }

    /// The (promoted) type of the innermost switch's controlling value; case values are
    /// converted to it. Recorded when the switch starts through its first compare.
    fn switch_type(&self) -> ripple_ir::TypeId {
        self.func
            .switch_types
            .last()
            .copied()
            .unwrap_or(self.types.int)
    }
}

/// The byte offset of the label `name` in the function holding `from`, if it is there.
fn label_offset<'t>(
    from: TsNode<'t>,
    name: &str,
    text: impl Fn(TsNode<'t>) -> &'t str,
) -> Option<usize> {
    let mut root = from;
    while root.kind() != "function_definition" {
        root = root.parent()?;
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "labeled_statement" {
            let mut cursor = n.walk();
            let label = n
                .named_children(&mut cursor)
                .find(|c| c.kind() == "statement_identifier");
            if label.is_some_and(|l| text(l) == name) {
                return Some(n.start_byte());
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    None
}
