//! Times the tree-sitter parse of a file alone (baseline for the lowering's cost).

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut parser = tree_sitter::Parser::new();
    let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    if parser.set_language(&language).is_err() {
        return;
    }
    let start = std::time::Instant::now();
    let tree = parser.parse(&text, None);
    let parsed = start.elapsed();
    drop(tree);
    eprintln!("parse {parsed:?}, with drop {:?}", start.elapsed());
}
