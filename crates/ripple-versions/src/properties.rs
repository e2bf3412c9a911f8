//! Property checks on random functions and random edits: whatever the edit, the node
//! map is a partial bijection that maps entry to entry and exit to exit, is closed under
//! control flow, pairs only nodes of textually equal statements, and a function matched
//! with itself maps every node to itself.

use ripple_conformance::Rng;
use ripple_ir::{NodeId, Program, SynId, SyntaxTree};

use crate::testing::{function, program};
use crate::{match_programs, FunctionStatus, MatchConfig};

/// A statement as a tree of strings, rendered to the s-expression syntax.
#[derive(Clone, Debug)]
enum Stmt {
    Call(String, String),
    If(String, Vec<Stmt>),
    While(String, Vec<Stmt>),
}

const NAMES: [&str; 5] = ["a", "b", "c", "d", "e"];

fn random_block(rng: &mut Rng, depth: u32) -> Vec<Stmt> {
    let len = 1 + rng.below(4);
    (0..len).map(|_| random_stmt(rng, depth)).collect()
}

fn random_stmt(rng: &mut Rng, depth: u32) -> Stmt {
    let name = |rng: &mut Rng| NAMES[rng.below(NAMES.len() as u64) as usize].to_owned();
    match (depth, rng.below(4)) {
        (0, _) | (_, 0 | 1) => Stmt::Call(name(rng), name(rng)),
        (_, 2) => Stmt::If(name(rng), random_block(rng, depth - 1)),
        _ => Stmt::While(name(rng), random_block(rng, depth - 1)),
    }
}

/// Applies one random edit somewhere in the block.
fn mutate(rng: &mut Rng, block: &mut Vec<Stmt>) {
    let index = rng.below(block.len() as u64) as usize;
    let choice = rng.below(6);
    let len = block.len();
    match (&mut block[index], choice) {
        (Stmt::If(_, body) | Stmt::While(_, body), 0 | 1) => mutate(rng, body),
        (Stmt::Call(_, arg) | Stmt::If(arg, _) | Stmt::While(arg, _), 2) => {
            *arg = format!("{arg}x")
        }
        (_, 3) if len > 1 => {
            block.remove(index);
        }
        (_, 4) => {
            let other = rng.below(len as u64) as usize;
            block.swap(index, other);
        }
        _ => block.insert(index, random_stmt(rng, 1)),
    }
}

fn render(block: &[Stmt], line: &mut u32, out: &mut String) {
    for stmt in block {
        *line += 1;
        match stmt {
            Stmt::Call(callee, arg) => out.push_str(&format!(
                "(expression_statement!@{line} (call_expression (identifier:{callee}) (argument_list (identifier:{arg}))))"
            )),
            Stmt::If(cond, body) | Stmt::While(cond, body) => {
                let kind = if matches!(stmt, Stmt::If(..)) {
                    "if_statement"
                } else {
                    "while_statement"
                };
                out.push_str(&format!(
                    "({kind}!@{line} (parenthesized_expression (identifier:{cond})) (compound_statement!@{line} "
                ));
                render(body, line, out);
                out.push_str("))");
            }
        }
    }
}

fn to_program(block: &[Stmt]) -> Program {
    let mut text = "(function_definition@1 (identifier:f) (compound_statement!@1 ".to_owned();
    let mut line = 1;
    render(block, &mut line, &mut text);
    text.push_str("))");
    program(vec![function("f", "f", &text)])
}

/// The kinds and labels of a subtree, for comparing statements across versions.
fn text_of(tree: &SyntaxTree, id: SynId, out: &mut String) {
    let node = &tree.nodes[id];
    if node.is_statement && !out.is_empty() {
        out.push_str("<stmt>");
        return;
    }
    out.push('(');
    out.push_str(node.kind);
    out.push_str(&node.label);
    for &child in &node.children {
        text_of(tree, child, out);
    }
    out.push(')');
}

fn check(old: &Program, new: &Program) {
    let result = match_programs(old, new, &MatchConfig::default());
    assert_eq!(result.functions.len(), 1);
    let m = &result.functions[0];
    let f = &old.functions[m.old.unwrap()];
    let g = &new.functions[m.new.unwrap()];
    let forward: std::collections::HashMap<NodeId, NodeId> = m.node_map.iter().copied().collect();
    let backward: std::collections::HashMap<NodeId, NodeId> =
        m.node_map.iter().map(|&(x, y)| (y, x)).collect();
    assert_eq!(forward.len(), m.node_map.len());
    assert_eq!(backward.len(), m.node_map.len());
    assert_eq!(forward.get(&f.entry), Some(&g.entry));
    assert_eq!(forward.get(&f.exit), Some(&g.exit));
    assert_eq!(m.changed_old.len() + m.node_map.len(), f.nodes.len());
    assert_eq!(m.changed_new.len() + m.node_map.len(), g.nodes.len());
    let (old_tree, new_tree) = (f.syntax.as_ref().unwrap(), g.syntax.as_ref().unwrap());
    for (&n, &k) in &forward {
        for (s, t) in f.nodes[n].succs.iter().zip(&g.nodes[k].succs) {
            match forward.get(s) {
                Some(image) => assert_eq!(image, t),
                None => assert!(!backward.contains_key(t)),
            }
        }
        if let (Some(x), Some(y)) = (f.nodes[n].syn, g.nodes[k].syn) {
            let unit = |tree: &SyntaxTree, id| tree.enclosing_statement(id).unwrap_or(tree.root);
            let (mut p, mut q) = (String::new(), String::new());
            text_of(old_tree, unit(old_tree, x), &mut p);
            text_of(new_tree, unit(new_tree, y), &mut q);
            assert_eq!(p, q, "mapped nodes of different statements");
        }
    }
    if m.status == FunctionStatus::Unchanged {
        assert!(m.old_lines.is_empty() && m.new_lines.is_empty());
    }
    // Deterministic.
    assert_eq!(
        match_programs(old, new, &MatchConfig::default()).functions,
        result.functions
    );
}

#[test]
fn self_match_is_identity_on_random_functions() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let block = random_block(&mut rng, 3);
        let old = to_program(&block);
        let mut new = old.clone();
        // Force the statement matcher.
        new.functions[ripple_ir::FuncId(0)].fingerprint ^= 1;
        let result = match_programs(&old, &new, &MatchConfig::default());
        let m = &result.functions[0];
        assert_eq!(m.status, FunctionStatus::Unchanged, "{block:?}");
        let count = old.functions[ripple_ir::FuncId(0)].nodes.len();
        assert_eq!(
            m.node_map,
            (0..count)
                .map(|i| (NodeId::from(i), NodeId::from(i)))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn random_edits_give_sound_node_maps() {
    let mut rng = Rng(42);
    for _ in 0..300 {
        let block = random_block(&mut rng, 3);
        let mut edited = block.clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut rng, &mut edited);
        }
        let (old, new) = (to_program(&block), to_program(&edited));
        check(&old, &new);
        check(&new, &old);
    }
}
