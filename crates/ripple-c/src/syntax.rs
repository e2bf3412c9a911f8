//! The per-function syntax tree (tree-sitter kinds, leaf token text as labels, comments
//! dropped, statements marked), the layout-independent fingerprint of a function's
//! tokens, the address-taken pre-pass, and diagnostics for parse errors.

use std::hash::Hasher;

use ripple_ir::{SynNode, SyntaxTree};
use rustc_hash::FxHasher;
use tree_sitter::Node as TsNode;

use crate::expr::strip_parens;
use crate::lower::Lowerer;
use crate::Severity;

fn is_statement_kind(kind: &str) -> bool {
    kind.ends_with("_statement") || kind == "declaration" || kind == "type_definition"
}

impl<'a> Lowerer<'a, '_> {
    /// Reports every ERROR and MISSING node (once per error region).
    /// The missing operand of a "cast" that is really a call in parentheses,
    /// `((offsetof(T, m)))`: the lowering re-reads it (`descriptor_as_call`).
    pub fn missing_cast_operand(&self, node: TsNode<'a>) -> bool {
        let Some(cast) = node.parent().filter(|p| p.kind() == "cast_expression") else {
            return false;
        };
        let Some(desc) = self.child_field(cast, self.fields.type_) else {
            return false;
        };
        let name = self
            .child_field(desc, self.fields.type_)
            .filter(|t| t.kind() == "type_identifier")
            .map(|t| self.text(t));
        let call_like = self
            .child_field(desc, self.fields.declarator)
            .is_some_and(|d| d.kind() == "abstract_function_declarator");
        call_like
            && name.is_some_and(|n| {
                n.starts_with("__builtin_")
                    || n == "offsetof"
                    || matches!(self.lookup(n), Some(crate::lower::Sym::Func(..)))
            })
    }

    pub fn report_parse_errors(&mut self, root: TsNode<'a>) {
        if !root.has_error() {
            return;
        }
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.is_missing() {
                // An unnamed bit-field (`int :32;`, padding): the grammar wants a name;
                // the lowering lays it out unnamed.
                if node.kind() == "field_identifier"
                    && node
                        .next_sibling()
                        .is_some_and(|s| s.kind() == "bitfield_clause")
                {
                    continue;
                }
                if self.missing_cast_operand(node) {
                    continue;
                }
                self.diag(
                    Severity::Error,
                    node,
                    format!("syntax error: missing `{}`", node.kind()),
                );
                continue;
            }
            if node.is_error() {
                // GNU case ranges (`case 1 ... 5:`) are not in the grammar; the lowering
                // reads them.
                if self.is_case_range_error(node) {
                    continue;
                }
                // Type arguments of builtins, and attribute statements, are read by the
                // lowering from their text.
                if self.text(node).trim_start().starts_with("__attribute__")
                    || inside_type_builtin(self, node)
                {
                    continue;
                }
                // `switch (x) stmt` without braces: the grammar requires a compound
                // statement as the body. In a block, the lowering reads it.
                if is_braceless_switch(node)
                    && node
                        .parent()
                        .is_some_and(|p| p.kind() == "compound_statement")
                    && next_item(node).is_some()
                {
                    continue;
                }
                if is_braceless_switch(node) {
                    self.diag(
                        Severity::Error,
                        node,
                        "syntax error: a `switch` body without braces is not supported by the \
                         C grammar; write `switch (...) { ... }`"
                            .into(),
                    );
                    continue;
                }
                let at = error_anchor(node);
                if at.is_missing() {
                    self.diag(
                        Severity::Error,
                        at,
                        format!("syntax error: missing `{}`", at.kind()),
                    );
                    continue;
                }
                let rest = self
                    .src
                    .get(at.start_byte()..node.end_byte().max(at.end_byte()))
                    .unwrap_or("");
                let text: String = rest.chars().take(40).collect();
                let text = text.split('\n').next().unwrap_or("").trim_end().to_string();
                self.diag(Severity::Error, at, format!("syntax error near `{text}`"));
                continue;
            }
            let mut cursor = node.walk();
            let children: Vec<TsNode<'a>> = node
                .children(&mut cursor)
                .filter(|c| c.has_error())
                .collect();
            stack.extend(children.into_iter().rev());
        }
    }

    /// Walks a function definition once: builds its syntax tree (when configured),
    /// computes its fingerprint, maps tree-sitter nodes to syntax nodes and collects
    /// the names whose address is taken.
    pub fn scan_function(&mut self, def: TsNode<'a>) -> (Option<SyntaxTree>, u64) {
        let build = self.linker.build_syntax;
        let mut tree = SyntaxTree::default();
        let mut hasher = FxHasher::default();
        let mut cursor = def.walk();
        // Stack of the syntax parent per depth.
        let mut parents: Vec<Option<ripple_ir::SynId>> = Vec::new();
        let mut parent: Option<ripple_ir::SynId> = None;
        loop {
            let node = cursor.node();
            let kind = node.kind();
            let mut descend = true;
            if kind == "comment" {
                descend = false;
            } else {
                let leaf = node.child_count() == 0;
                if leaf {
                    let text = self.text(node);
                    hasher.write_u16(node.kind_id());
                    hasher.write(text.as_bytes());
                    hasher.write_u8(0xff);
                } else {
                    hasher.write_u16(node.kind_id());
                    hasher.write_u8(0xfe);
                }
                if kind == "function_definition" && node.id() != def.id() {
                    // A GNU nested function reads and writes the enclosing function's
                    // variables it names whenever it is called (through pointers too),
                    // which the havoc it is lowered to can only do through memory.
                    let mut stack = vec![node];
                    while let Some(n) = stack.pop() {
                        if n.kind() == "identifier" {
                            self.func.addr_taken.insert(self.text(n));
                        }
                        let mut c = n.walk();
                        stack.extend(n.children(&mut c));
                    }
                }
                if kind == "declaration" {
                    // A variable with a `cleanup` attribute is passed by address.
                    let cleanups = self.cleanup_attributes_of(node);
                    for ((d, _), c) in self.declarators(node).into_iter().zip(cleanups) {
                        if c.is_some() {
                            if let Some(name) = crate::symbols::declared_name(d) {
                                self.func.addr_taken.insert(self.text(name));
                            }
                        }
                    }
                }
                if kind == "pointer_expression" && node.child(0).is_some_and(|c| c.kind() == "&") {
                    if let Some(arg) = node.child_by_field_id(self.fields.argument.get()) {
                        let arg = strip_parens(arg);
                        if arg.kind() == "identifier" {
                            self.func.addr_taken.insert(self.text(arg));
                        }
                        if let Some(label) = crate::expr::label_address(self, node) {
                            if !self.func.label_addrs.contains(&label) {
                                self.func.label_addrs.push(label);
                            }
                        }
                    }
                }
                if build {
                    let id = tree.add(
                        parent,
                        SynNode {
                            kind: self
                                .linker
                                .kind_names
                                .get(usize::from(node.kind_id()))
                                .copied()
                                .unwrap_or("unknown"),
                            label: if leaf {
                                self.text(node).to_string()
                            } else {
                                String::new()
                            },
                            children: Vec::new(),
                            parent,
                            span: self.span_of(node),
                            is_statement: is_statement_kind(kind),
                        },
                    );
                    if parent.is_none() {
                        tree.root = id;
                    }
                    if node.is_named() {
                        self.func.syn_map.insert(node.id(), id);
                    }
                    if !leaf {
                        parents.push(parent);
                        parent = Some(id);
                    }
                } else if !leaf {
                    parents.push(parent);
                }
                if leaf {
                    descend = false;
                }
            }
            if descend && cursor.goto_first_child() {
                continue;
            }
            // Move to the next sibling, climbing up as needed.
            loop {
                if cursor.node() == def {
                    let fingerprint = hasher.finish();
                    return (if build { Some(tree) } else { None }, fingerprint);
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    let fingerprint = hasher.finish();
                    return (if build { Some(tree) } else { None }, fingerprint);
                }
                // Leaving an inner node: restore its parent.
                parent = parents.pop().flatten();
                if !build {
                    parent = None;
                }
            }
        }
    }
}

/// Whether a node kind is a complete construct that an error region may contain
/// before the tokens the parser could not place.
fn is_complete_item(kind: &str) -> bool {
    kind.ends_with("_statement")
        || kind.starts_with("preproc_")
        || matches!(
            kind,
            "function_definition"
                | "declaration"
                | "type_definition"
                | "comment"
                | "linkage_specification"
        )
}

/// Where the parser really failed inside an ERROR node: the first MISSING node or
/// nested error, or the first token after the complete constructs the region starts
/// with (an error region often begins at an earlier, well-formed definition).
fn error_anchor(err: TsNode<'_>) -> TsNode<'_> {
    let mut cursor = err.walk();
    for child in err.children(&mut cursor) {
        if child.is_missing() {
            return child;
        }
        if child.is_error() {
            return error_anchor(child);
        }
        if child.has_error() {
            return first_error(child).unwrap_or(child);
        }
        if child.is_named() && is_complete_item(child.kind()) {
            continue;
        }
        return child;
    }
    err
}

/// An error region holding just `switch (x)`: a switch whose body is not a compound
/// statement (the body follows as the next item).
pub(crate) fn is_braceless_switch(node: TsNode<'_>) -> bool {
    node.is_error()
        && node.child_count() == 2
        && node.child(0).is_some_and(|c| c.kind() == "switch")
        && node
            .child(1)
            .is_some_and(|c| c.kind() == "parenthesized_expression")
}

/// The next named sibling that is not a comment.
fn next_item(node: TsNode<'_>) -> Option<TsNode<'_>> {
    let mut next = node.next_named_sibling();
    while let Some(n) = next {
        if n.kind() != "comment" {
            return Some(n);
        }
        next = n.next_named_sibling();
    }
    None
}

/// The first ERROR or MISSING node under `node` in document order, anchored.
fn first_error(node: TsNode<'_>) -> Option<TsNode<'_>> {
    if node.is_missing() {
        return Some(node);
    }
    if node.is_error() {
        return Some(error_anchor(node));
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    let children: Vec<TsNode<'_>> = node.children(&mut cursor).collect();
    children.into_iter().find_map(first_error)
}

/// Whether an error node lies in the arguments of a builtin taking a type.
pub(crate) fn inside_type_builtin<'a>(this: &Lowerer<'a, '_>, node: TsNode<'a>) -> bool {
    let mut cur = node.parent();
    for _ in 0..3 {
        let Some(n) = cur else { return false };
        if n.kind() == "call_expression" {
            let callee = n
                .child_by_field_id(this.fields.function.get())
                .map(|f| this.text(f));
            return matches!(
                callee,
                Some(
                    "__builtin_va_arg"
                        | "__builtin_offsetof"
                        | "offsetof"
                        | "__builtin_types_compatible_p"
                )
            );
        }
        cur = n.parent();
    }
    false
}

/// A hash of the tokens of the top-level declaration or definition holding `node`
/// (layout and comments left out), for [`ripple_ir::ReadError::text`].
pub(crate) fn top_level_text(lowerer: &Lowerer<'_, '_>, node: TsNode<'_>) -> u64 {
    let mut top = node;
    while let Some(parent) = top.parent() {
        if parent.parent().is_none() {
            break;
        }
        top = parent;
    }
    let mut hasher = FxHasher::default();
    let mut stack = vec![top];
    while let Some(n) = stack.pop() {
        if n.kind() == "comment" {
            continue;
        }
        if n.child_count() == 0 {
            hasher.write_u16(n.kind_id());
            hasher.write(lowerer.text(n).as_bytes());
            hasher.write_u8(0xff);
        }
        let mut cursor = n.walk();
        let children: Vec<TsNode<'_>> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    hasher.finish()
}
