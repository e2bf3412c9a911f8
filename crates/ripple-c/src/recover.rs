//! Function definitions the parser's error recovery swallowed are read again.
//!
//! A syntax error inside one function can make tree-sitter's recovery absorb the
//! definitions after it into an error region, and the functions would vanish from the
//! program. The token scan of `oldstyle.rs` delimits every file-scope definition by its
//! braces; a definition whose name is not that of a lowered `function_definition` is parsed
//! again alone (same offsets) and lowered. One that still cannot be read keeps its
//! name as a function whose body is a havoc, recorded as an approximation (the rule
//! that code that cannot be read is never dropped).

use tree_sitter::{Parser, Point, Range, Tree};

use crate::lower::{Lowerer, Sym};
use crate::oldstyle::Definition;
use crate::Severity;

impl<'a> Lowerer<'a, '_> {
    pub(crate) fn recover_definitions(
        &mut self,
        definitions: &[Definition],
        slots: &'a [std::sync::OnceLock<Tree>],
        parser: &mut Parser,
    ) {
        for (def, slot) in definitions.iter().zip(slots) {
            let lowered = |this: &Self| this.lowered_definitions.contains(&def.name_at);
            if lowered(self) || def.end > self.src.len() || def.start >= def.end {
                continue;
            }
            let Some(tree) = parse_alone(parser, self.src, def.start, def.end) else {
                continue;
            };
            let _ = slot.set(tree);
            let Some(tree) = slot.get() else { continue };
            let root = tree.root_node();
            let mut cursor = root.walk();
            let items: Vec<_> = root
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "function_definition")
                .filter(|&c| {
                    self.definition_name_at(c)
                        .is_some_and(|at| !self.lowered_definitions.contains(&at))
                })
                .collect();
            for item in items {
                self.function_definition(item);
            }
            if lowered(self) {
                continue;
            }
            let name: &'a str = self
                .src
                .get(def.name_at..def.name_at + def.name.len())
                .unwrap_or("");
            if name.is_empty() {
                continue;
            }
            let f = match self.scopes.first().and_then(|s| s.names.get(name).copied()) {
                Some(Sym::Func(f, _)) => f,
                _ => {
                    let span = self.span_of(root);
                    let ty = self.types.implicit_fn;
                    self.declare_function(name, ty, false, span)
                }
            };
            if self.linker.program.functions[f].is_defined() {
                continue;
            }
            let ty = self.linker.program.functions[f].ty;
            self.bind_file_scope(name, Sym::Func(f, ty));
            self.diag(
                Severity::Error,
                root,
                format!("the definition of `{name}` could not be read; it is analysed as a function that may read and write anything reachable and return anything"),
            );
            self.havoc_body(
                f,
                root,
                &format!("the definition of `{name}` could not be read"),
            );
        }
    }
}

impl<'a> Lowerer<'a, '_> {
    /// The offset of the name a function definition declares.
    fn definition_name_at(&self, def: tree_sitter::Node<'a>) -> Option<usize> {
        let mut node = self.child_field(def, self.fields.declarator)?;
        while let Some(inner) = self.child_field(node, self.fields.declarator) {
            node = inner;
            if node.kind() == "parenthesized_declarator" {
                node = node.named_child(0)?;
            }
        }
        (node.kind() == "identifier").then(|| node.start_byte())
    }
}

/// Parses `text[start..end]` alone, keeping byte offsets and positions.
fn parse_alone(parser: &mut Parser, text: &str, start: usize, end: usize) -> Option<Tree> {
    let point = |at: usize| {
        let before = &text.as_bytes()[..at];
        let row = before.iter().filter(|&&b| b == b'\n').count();
        let column = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
        Point::new(row, column)
    };
    parser
        .set_included_ranges(&[Range {
            start_byte: start,
            end_byte: end,
            start_point: point(start),
            end_point: point(end),
        }])
        .ok()?;
    let tree = parser.parse(text, None);
    parser.set_included_ranges(&[]).ok()?;
    tree
}
