//! Prints the tree-sitter syntax tree of a C file (optionally only the nodes that start
//! on lines `FROM..=TO`, 1-based, of the file as given), to see how the grammar read it.
//!
//! Usage: `cargo run -p ripple-c --example tree -- FILE [FROM [TO]]`

fn print(node: tree_sitter::Node<'_>, text: &str, field: Option<&str>, depth: usize) {
    let indent = "  ".repeat(depth);
    let label = field.map(|f| format!("{f}: ")).unwrap_or_default();
    let missing = if node.is_missing() { " MISSING" } else { "" };
    if node.child_count() == 0 {
        let leaf = &text[node.byte_range()];
        println!("{indent}{label}{}{missing} {leaf:?}", node.kind());
        return;
    }
    println!("{indent}{label}{}{missing}", node.kind());
    let mut cursor = node.walk();
    for (i, child) in node.children(&mut cursor).enumerate() {
        let name = node.field_name_for_child(i as u32);
        print(child, text, name, depth + 1);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let from: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let to: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut parser = tree_sitter::Parser::new();
    let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    if parser.set_language(&language).is_err() {
        return;
    }
    let Some(tree) = parser.parse(&text, None) else {
        return;
    };
    // The outermost nodes that start within the line range.
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let line = node.start_position().row + 1;
        let end = node.end_position().row + 1;
        if line >= from && end <= to {
            print(node, &text, None, 0);
            continue;
        }
        if end < from || line > to {
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}
