//! A test-only builder of syntax trees and programs from s-expressions.
//!
//! Grammar: `node := '(' head node* ')' | leaf`, `head := kind ['!'] ['@' line]`,
//! `leaf := kind ':' label ['@' line]`, also written in parentheses. `!` marks a statement; a node without a line takes
//! its parent's. A leaf's label may not contain spaces or parentheses.
//!
//! [`lower`] invents an IR for a tree: one node per statement in pre-order (a branch for
//! `if_statement`/`while_statement`, whose `syn` is the condition, nothing for
//! `compound_statement`, an opaque statement otherwise; each carries a hash of its
//! syntax), chained in order between entry and exit.

use ripple_ir::{
    Expr, FileId, Function, IndexVec, Linkage, Node, NodeKind, Program, SourceFile, Span, SynId,
    SynNode, SyntaxTree, TypeId,
};

/// Parses an s-expression into a syntax tree.
pub(crate) fn tree(text: &str) -> SyntaxTree {
    let tokens = tokenize(text);
    let mut tree = SyntaxTree::default();
    let mut position = 0;
    let root = parse(&tokens, &mut position, &mut tree, None, 1);
    assert_eq!(position, tokens.len(), "trailing tokens in {text}");
    tree.root = root;
    tree
}

fn tokenize(text: &str) -> Vec<String> {
    text.replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

fn parse(
    tokens: &[String],
    position: &mut usize,
    tree: &mut SyntaxTree,
    parent: Option<SynId>,
    line: u32,
) -> SynId {
    let token = &tokens[*position];
    *position += 1;
    if token == "(" {
        let head = &tokens[*position];
        *position += 1;
        if head.contains(':') {
            // `(kind:label)`: a leaf in parentheses.
            let (leaf, line) = split_line(head, line);
            let (kind, label) = leaf.split_once(':').expect("a leaf is kind:label");
            assert_eq!(tokens[*position], ")", "a leaf has no children");
            *position += 1;
            return tree.add(parent, node(kind, label, line, false));
        }
        let (head, line) = split_line(head, line);
        let (kind, is_statement) = match head.strip_suffix('!') {
            Some(kind) => (kind, true),
            None => (head, false),
        };
        let id = tree.add(parent, node(kind, "", line, is_statement));
        while tokens[*position] != ")" {
            let child = parse(tokens, position, tree, Some(id), line);
            let end = tree.nodes[child].span.end_line;
            let span = &mut tree.nodes[id].span;
            span.end_line = span.end_line.max(end);
        }
        *position += 1;
        id
    } else {
        let (leaf, line) = split_line(token, line);
        let (kind, label) = leaf.split_once(':').expect("a leaf is kind:label");
        tree.add(parent, node(kind, label, line, false))
    }
}

fn split_line(token: &str, inherited: u32) -> (&str, u32) {
    match token.rsplit_once('@') {
        Some((rest, line)) => (rest, line.parse().expect("a line number")),
        None => (token, inherited),
    }
}

fn node(kind: &str, label: &str, line: u32, is_statement: bool) -> SynNode {
    SynNode {
        kind: Box::leak(kind.to_owned().into_boxed_str()),
        label: label.to_owned(),
        children: Vec::new(),
        parent: None,
        span: Span::new(FileId(0), line, 1, line, 1),
        is_statement,
    }
}

/// A defined function with the invented IR of [`lower`].
pub(crate) fn function(name: &str, key: &str, text: &str) -> Function {
    let syntax = tree(text);
    let nodes = lower(&syntax, name);
    let span = syntax.nodes[syntax.root].span;
    let exit = nodes.next_id_minus_one();
    Function {
        name: name.to_owned(),
        key: key.to_owned(),
        linkage: if key.contains(':') {
            Linkage::Internal(FileId(0))
        } else {
            Linkage::External
        },
        ty: TypeId(0),
        params: Vec::new(),
        ret_var: None,
        locals: IndexVec::new(),
        nodes,
        entry: ripple_ir::NodeId(0),
        exit,
        span,
        fingerprint: fingerprint(&syntax, name),
        noreturn: false,
        syntax: Some(syntax),
    }
}

trait LastId {
    fn next_id_minus_one(&self) -> ripple_ir::NodeId;
}

impl LastId for IndexVec<ripple_ir::NodeId, Node> {
    fn next_id_minus_one(&self) -> ripple_ir::NodeId {
        ripple_ir::NodeId::from(self.len() - 1)
    }
}

/// A hash of kinds and labels in pre-order (a stand-in for the frontend's fingerprint).
fn fingerprint(tree: &SyntaxTree, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    name.hash(&mut hasher);
    for id in tree.post_order(tree.root) {
        tree.nodes[id].kind.hash(&mut hasher);
        tree.nodes[id].label.hash(&mut hasher);
        tree.nodes[id].children.len().hash(&mut hasher);
    }
    hasher.finish()
}

/// A hash of the kinds and labels of a subtree; the function's own name counts as one
/// name whatever it is (a recursive call calls the function, renamed or not).
fn subtree_hash(tree: &SyntaxTree, root: SynId, own: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = &tree.nodes[id];
        node.kind.hash(&mut hasher);
        if node.label == own {
            "<self>".hash(&mut hasher);
        } else {
            node.label.hash(&mut hasher);
        }
        node.children.len().hash(&mut hasher);
        stack.extend(node.children.iter().rev());
    }
    hasher.finish()
}

/// One IR node per statement, chained in pre-order.
pub(crate) fn lower(tree: &SyntaxTree, name: &str) -> IndexVec<ripple_ir::NodeId, Node> {
    let root_span = tree.nodes[tree.root].span;
    let mut nodes: IndexVec<ripple_ir::NodeId, Node> = IndexVec::new();
    nodes.push(Node::new(NodeKind::Entry, root_span));
    let mut stack = vec![tree.root];
    while let Some(id) = stack.pop() {
        let syn = &tree.nodes[id];
        stack.extend(syn.children.iter().rev());
        if !syn.is_statement || syn.kind == "compound_statement" {
            continue;
        }
        // The IR says what the syntax says (its kinds and labels, not its lines), so
        // that statements written differently are different IR.
        let (kind, syn_id) = if matches!(syn.kind, "if_statement" | "while_statement") {
            let cond = syn.children[0];
            (
                NodeKind::Branch {
                    cond: Expr::int(u128::from(subtree_hash(tree, cond, name)), TypeId(0)),
                },
                cond,
            )
        } else {
            (
                NodeKind::Havoc {
                    dst: None,
                    reason: format!("{:x}", subtree_hash(tree, id, name)),
                },
                id,
            )
        };
        let mut node = Node::new(kind, syn.span);
        node.syn = Some(syn_id);
        nodes.push(node);
    }
    nodes.push(Node::new(NodeKind::Exit, root_span));
    for (index, node) in nodes.iter_mut().enumerate() {
        node.succs = match node.kind {
            NodeKind::Exit => Vec::new(),
            NodeKind::Branch { .. } => vec![ripple_ir::NodeId::from(index + 1); 2],
            _ => vec![ripple_ir::NodeId::from(index + 1)],
        };
    }
    nodes
}

/// A program of one file `a.c` holding the given functions.
pub(crate) fn program(functions: Vec<Function>) -> Program {
    let mut program = Program::default();
    program.files.push(SourceFile {
        path: "a.c".to_owned(),
    });
    for function in functions {
        program.add_function(function);
    }
    program
}
