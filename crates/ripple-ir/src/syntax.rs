//! A language-neutral syntax tree per function, for statement matching.
//!
//! The frontend builds it from the parse tree with comments dropped and layout ignored;
//! the version matcher (GumTree-style, Gyori et al. section 3.1) pairs its nodes across
//! versions, and IR nodes link to it through [`crate::Node::syn`].

use crate::{IndexVec, Span, SynId};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SyntaxTree {
    pub nodes: IndexVec<SynId, SynNode>,
    pub root: SynId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SynNode {
    /// The grammar kind (`if_statement`, `binary_expression`, `identifier`, ...).
    pub kind: &'static str,
    /// The token text of a leaf (identifier, literal, operator); empty for inner nodes.
    pub label: String,
    pub children: Vec<SynId>,
    pub parent: Option<SynId>,
    pub span: Span,
    /// Whether this is a statement (or a declaration inside a body): the unit the text
    /// output reports as changed.
    pub is_statement: bool,
}

impl SyntaxTree {
    /// Adds a node as the last child of `parent`.
    pub fn add(&mut self, parent: Option<SynId>, node: SynNode) -> SynId {
        let id = self.nodes.push(SynNode { parent, ..node });
        if let Some(parent) = parent {
            self.nodes[parent].children.push(id);
        }
        id
    }

    /// Nodes of the subtree at `root` in post-order (children before parents).
    pub fn post_order(&self, root: SynId) -> Vec<SynId> {
        let mut out = Vec::new();
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if expanded {
                out.push(id);
            } else {
                stack.push((id, true));
                for &child in self.nodes[id].children.iter().rev() {
                    stack.push((child, false));
                }
            }
        }
        out
    }

    /// The nearest statement at or above `id`.
    pub fn enclosing_statement(&self, mut id: SynId) -> Option<SynId> {
        loop {
            if self.nodes[id].is_statement {
                return Some(id);
            }
            id = self.nodes[id].parent?;
        }
    }
}
