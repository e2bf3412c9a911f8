//! Unit tests on hand-built syntax trees and programs (see [`crate::testing`]).

use ripple_ir::{NodeId, NodeKind, Program, SynId};

use crate::gumtree::{match_trees, GumTreeConfig, SynMapping, TreeView};
use crate::testing::{function, program, tree};
use crate::{match_programs, FunctionMatch, FunctionStatus, MatchConfig};

const GUMTREE: GumTreeConfig = GumTreeConfig {
    min_height: 2,
    min_dice: 0.5,
};

/// `int NAME(void) { a(); if (x > 0) { b(); } return x; }` over lines 1 to 6, with the
/// condition operator, the statements between `a();` and the `if`, and the body given.
fn body(name: &str, op: &str, between: &str, inside: &str) -> String {
    format!(
        "(function_definition@1 (primitive_type:int) (function_declarator (identifier:{name}) (parameter_list))
           (compound_statement!
             (expression_statement!@2 (call_expression (identifier:a) (argument_list)))
             {between}
             (if_statement!@3 (parenthesized_expression (binary_expression (identifier:x) (op:{op}) (number_literal:0)))
               (compound_statement!@3 {inside}))
             (return_statement!@6 (identifier:x))))"
    )
}

const B_CALL: &str = "(expression_statement!@4 (call_expression (identifier:b) (argument_list)))";

fn one(old: Program, new: Program) -> FunctionMatch {
    let result = match_programs(&old, &new, &MatchConfig::default());
    assert_eq!(result.functions.len(), 1, "{result:#?}");
    result.functions.into_iter().next().unwrap()
}

fn lines(lines: &[u32]) -> Vec<(String, u32)> {
    lines.iter().map(|&l| ("a.c".to_owned(), l)).collect()
}

/// The IR node lowered from the statement (or condition) on `line` whose kind is `kind`.
fn node_at(program: &Program, line: u32, branch: bool) -> NodeId {
    let f = &program.functions[ripple_ir::FuncId(0)];
    f.nodes
        .iter_enumerated()
        .find(|(_, n)| {
            n.span.start_line == line
                && matches!(n.kind, NodeKind::Branch { .. }) == branch
                && n.syn.is_some()
        })
        .map(|(id, _)| id)
        .expect("a node on that line")
}

fn check_bijection(m: &FunctionMatch) {
    let mut olds: Vec<NodeId> = m.node_map.iter().map(|p| p.0).collect();
    let mut news: Vec<NodeId> = m.node_map.iter().map(|p| p.1).collect();
    olds.dedup();
    news.sort_unstable();
    news.dedup();
    assert_eq!(olds.len(), m.node_map.len(), "old side is injective");
    assert_eq!(news.len(), m.node_map.len(), "new side is injective");
    for n in &m.changed_old {
        assert!(!olds.contains(n));
    }
    for n in &m.changed_new {
        assert!(!news.contains(n));
    }
}

/// Every mapped pair has corresponding successors (criteria 3 and 4 of the paper).
fn check_control_flow(old: &Program, new: &Program, m: &FunctionMatch) {
    let f = &old.functions[m.old.unwrap()];
    let g = &new.functions[m.new.unwrap()];
    let forward: std::collections::HashMap<NodeId, NodeId> = m.node_map.iter().copied().collect();
    let backward: std::collections::HashMap<NodeId, NodeId> =
        m.node_map.iter().map(|&(a, b)| (b, a)).collect();
    assert_eq!(forward.get(&f.entry), Some(&g.entry));
    assert_eq!(forward.get(&f.exit), Some(&g.exit));
    for (&n, &k) in &forward {
        for (s, t) in f.nodes[n].succs.iter().zip(&g.nodes[k].succs) {
            match forward.get(s) {
                Some(image) => assert_eq!(image, t, "{n} -> {k}"),
                None => assert!(!backward.contains_key(t), "{n} -> {k}"),
            }
        }
    }
}

#[test]
fn same_program_is_unchanged_with_identity_map() {
    let text = body("f", ">", "", B_CALL);
    let p = program(vec![function("f", "f", &text)]);
    let m = one(p.clone(), p.clone());
    assert_eq!(m.status, FunctionStatus::Unchanged);
    assert!(!m.body_changed);
    assert_eq!(m.similarity, 1.0);
    let count = p.functions[ripple_ir::FuncId(0)].nodes.len();
    assert_eq!(
        m.node_map,
        (0..count)
            .map(|i| (NodeId::from(i), NodeId::from(i)))
            .collect::<Vec<_>>()
    );
    assert!(m.changed_old.is_empty() && m.changed_new.is_empty());
    assert!(m.old_lines.is_empty() && m.new_lines.is_empty());
}

#[test]
fn self_match_through_gumtree_is_identity() {
    // Different fingerprints force the statement matcher even though the trees agree.
    for text in [
        body("f", ">", "", B_CALL),
        body("f", "<", "(expression_statement!@3 (identifier:y))", ""),
        "(function_definition (identifier:g) (compound_statement!))".to_owned(),
    ] {
        let old = program(vec![function("f", "f", &text)]);
        let mut new = old.clone();
        new.functions[ripple_ir::FuncId(0)].fingerprint ^= 1;
        let m = one(old.clone(), new.clone());
        assert_eq!(m.status, FunctionStatus::Unchanged, "{text}");
        let count = old.functions[ripple_ir::FuncId(0)].nodes.len();
        assert_eq!(
            m.node_map,
            (0..count)
                .map(|i| (NodeId::from(i), NodeId::from(i)))
                .collect::<Vec<_>>()
        );
        check_control_flow(&old, &new, &m);
    }
}

#[test]
fn layout_change_is_no_change() {
    // The same tokens on other lines (a reformatted function further down the file).
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let shifted = body("f", ">", "", B_CALL)
        .replace("@1", "@11")
        .replace("@2", "@12")
        .replace("@3", "@14")
        .replace("@4", "@15")
        .replace("@6", "@17");
    let mut new = program(vec![function("f", "f", &shifted)]);
    new.functions[ripple_ir::FuncId(0)].fingerprint ^= 1;
    let m = one(old, new);
    assert_eq!(m.status, FunctionStatus::Unchanged);
    assert!(m.changed_old.is_empty() && m.changed_new.is_empty());
    assert!(m.old_lines.is_empty() && m.new_lines.is_empty());
}

#[test]
fn changed_condition_marks_the_condition_line_only() {
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let new = program(vec![function("f", "f", &body("f", ">=", "", B_CALL))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert!(m.body_changed);
    assert_eq!(m.old_lines, lines(&[3]));
    assert_eq!(m.new_lines, lines(&[3]));
    assert_eq!(m.changed_old, vec![node_at(&old, 3, true)]);
    assert_eq!(m.changed_new, vec![node_at(&new, 3, true)]);
    assert!(m
        .node_map
        .contains(&(node_at(&old, 4, false), node_at(&new, 4, false))));
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn change_inside_a_body_does_not_mark_the_construct() {
    let c_call = "(expression_statement!@4 (call_expression (identifier:c) (argument_list)))";
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let new = program(vec![function("f", "f", &body("f", ">", "", c_call))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.old_lines, lines(&[4]));
    assert_eq!(m.new_lines, lines(&[4]));
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn inserted_statement_marks_its_line_in_new_only() {
    let inserted = "(expression_statement!@3 (call_expression (identifier:c) (argument_list)))";
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let new = program(vec![function("f", "f", &body("f", ">", inserted, B_CALL))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert!(m.old_lines.is_empty());
    assert_eq!(m.new_lines, lines(&[3]));
    let c = new.functions[ripple_ir::FuncId(0)]
        .nodes
        .iter_enumerated()
        .find(|(_, n)| n.span.start_line == 3 && matches!(n.kind, NodeKind::Havoc { .. }))
        .unwrap()
        .0;
    assert!(m.changed_new.contains(&c));
    // `a();` precedes the insertion: its successor changed, so it is unmapped too.
    assert_eq!(m.changed_old, vec![node_at(&old, 2, false)]);
    assert!(m.changed_new.contains(&node_at(&new, 2, false)));
    // The statements after the insertion stay mapped.
    assert!(m
        .node_map
        .contains(&(node_at(&old, 4, false), node_at(&new, 4, false))));
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn deleted_statement_marks_its_line_in_old_only() {
    let deleted = "(expression_statement!@3 (call_expression (identifier:c) (argument_list)))";
    let old = program(vec![function("f", "f", &body("f", ">", deleted, B_CALL))]);
    let new = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.old_lines, lines(&[3]));
    assert!(m.new_lines.is_empty());
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn adding_an_else_does_not_mark_the_condition() {
    let plain = "(function_definition@1 (identifier:f) (compound_statement!
        (if_statement!@2 (parenthesized_expression (binary_expression (identifier:x) (op:>) (number_literal:0)))
          (expression_statement!@3 (call_expression (identifier:a) (argument_list))) ELSE)))";
    let old = program(vec![function("f", "f", &plain.replace("ELSE", ""))]);
    let new = program(vec![function(
        "f",
        "f",
        &plain.replace("ELSE", "(else_clause@4 (expression_statement!@5 (call_expression (identifier:b) (argument_list))))"),
    )]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert!(m.old_lines.is_empty(), "{:?}", m.old_lines);
    assert_eq!(m.new_lines, lines(&[5]));
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn changed_multi_line_statement_marks_all_its_lines() {
    let call = |arg: &str| {
        format!(
            "(function_definition@1 (identifier:f) (compound_statement!
               (expression_statement!@2 (call_expression (identifier:g) (argument_list (identifier:x@2) (identifier:{arg}@4))))
               (return_statement!@5 (number_literal:0))))"
        )
    };
    let old = program(vec![function("f", "f", &call("y"))]);
    let new = program(vec![function("f", "f", &call("z"))]);
    let m = one(old, new);
    assert_eq!(m.old_lines, lines(&[2, 3, 4]));
    assert_eq!(m.new_lines, lines(&[2, 3, 4]));
}

#[test]
fn swapped_statements_are_one_move() {
    let two = |first: &str, second: &str| {
        format!(
            "(function_definition@1 (identifier:f) (compound_statement!
               (expression_statement!@2 (call_expression (identifier:{first}) (argument_list (identifier:x))))
               (expression_statement!@3 (call_expression (identifier:{second}) (argument_list (identifier:x))))
               (return_statement!@4 (number_literal:0))))"
        )
    };
    let old = program(vec![function("f", "f", &two("a", "b"))]);
    let new = program(vec![function("f", "f", &two("b", "a"))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.old_lines.len(), 1, "{:?}", m.old_lines);
    assert_eq!(m.new_lines.len(), 1, "{:?}", m.new_lines);
    assert_ne!(
        m.old_lines, m.new_lines,
        "the moved statement is on another line"
    );
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}

#[test]
fn signature_change_marks_the_signature_tokens() {
    let with_type = |ty: &str| {
        format!(
            "(function_definition@1 (primitive_type:{ty}) (function_declarator (identifier:f) (parameter_list))
               (compound_statement!@1 (return_statement!@2 (number_literal:0))))"
        )
    };
    let old = program(vec![function("f", "f", &with_type("int"))]);
    let new = program(vec![function("f", "f", &with_type("long"))]);
    let m = one(old, new);
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.old_lines, lines(&[1]));
    assert_eq!(m.new_lines, lines(&[1]));
}

#[test]
fn renamed_function_is_detected() {
    let recursive = |name: &str| {
        format!(
            "(function_definition@1 (primitive_type:int) (function_declarator (identifier:{name}) (parameter_list (identifier:n)))
               (compound_statement!
                 (if_statement!@2 (parenthesized_expression (binary_expression (identifier:n) (op:<) (number_literal:2)))
                   (return_statement!@2 (identifier:n)))
                 (return_statement!@3 (binary_expression (call_expression (identifier:{name}) (argument_list (binary_expression (identifier:n) (op:-) (number_literal:1)))) (op:+) (call_expression (identifier:{name}) (argument_list (binary_expression (identifier:n) (op:-) (number_literal:2))))))))"
        )
    };
    let old = program(vec![function("fib", "fib", &recursive("fib"))]);
    let new = program(vec![function(
        "fibonacci",
        "fibonacci",
        &recursive("fibonacci"),
    )]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Renamed);
    assert!(!m.body_changed, "{m:#?}");
    assert_eq!(m.similarity, 1.0);
    assert!(m.old_lines.is_empty() && m.new_lines.is_empty());
    assert_eq!(
        m.node_map.len(),
        old.functions[ripple_ir::FuncId(0)].nodes.len()
    );

    // Renamed and changed.
    let changed =
        recursive("fibonacci").replace("(number_literal:2))))))", "(number_literal:3))))))");
    let new = program(vec![function("fibonacci", "fibonacci", &changed)]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Renamed);
    assert!(m.body_changed);
    assert_eq!(m.old_lines, lines(&[3]));
    assert_eq!(m.new_lines, lines(&[3]));
    check_control_flow(&old, &new, &m);
}

#[test]
fn dissimilar_functions_are_removed_and_added() {
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let new = program(vec![function(
        "g",
        "g",
        "(function_definition@1 (identifier:g) (compound_statement! (return_statement!@2 (string_literal:hello))))",
    )]);
    let result = match_programs(&old, &new, &MatchConfig::default());
    let statuses: Vec<_> = result
        .functions
        .iter()
        .map(|m| (m.status, m.old, m.new))
        .collect();
    assert_eq!(
        statuses,
        vec![
            (FunctionStatus::Removed, Some(ripple_ir::FuncId(0)), None),
            (FunctionStatus::Added, None, Some(ripple_ir::FuncId(0))),
        ]
    );
    let removed = &result.functions[0];
    assert!(removed.body_changed && removed.node_map.is_empty());
    assert_eq!(
        removed.changed_old.len(),
        old.functions[ripple_ir::FuncId(0)].nodes.len()
    );
    assert_eq!(removed.old_lines, lines(&[1, 2, 3, 4, 5, 6]));
    assert_eq!(result.functions[1].new_lines, lines(&[1, 2]));
}

#[test]
fn rename_pairs_are_greedy_and_deterministic() {
    // Two identical removed functions and two identical added ones: paired by key order.
    let text = |name: &str| body(name, ">", "", B_CALL);
    let old = program(vec![
        function("p2", "p2", &text("p2")),
        function("p1", "p1", &text("p1")),
    ]);
    let new = program(vec![
        function("q2", "q2", &text("q2")),
        function("q1", "q1", &text("q1")),
    ]);
    let result = match_programs(&old, &new, &MatchConfig::default());
    let pairs: Vec<_> = result
        .functions
        .iter()
        .map(|m| {
            (
                m.status,
                old.functions[m.old.unwrap()].key.clone(),
                new.functions[m.new.unwrap()].key.clone(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        vec![
            (FunctionStatus::Renamed, "p1".to_owned(), "q1".to_owned()),
            (FunctionStatus::Renamed, "p2".to_owned(), "q2".to_owned()),
        ]
    );
    // The same inputs give the same output.
    let again = match_programs(&old, &new, &MatchConfig::default());
    assert_eq!(again.functions, result.functions);
}

#[test]
fn statics_match_by_key_and_by_unique_name() {
    let text = |name: &str| body(name, ">", "", B_CALL);
    let other = |name: &str| body(name, "<", "", B_CALL);
    // Two statics with the same name in two files stay distinct.
    let old = program(vec![
        function("helper", "a.c:helper", &text("helper")),
        function("helper", "b.c:helper", &other("helper")),
    ]);
    let new = program(vec![
        function("helper", "b.c:helper", &other("helper")),
        function("helper", "a.c:helper", &text("helper")),
    ]);
    let result = match_programs(&old, &new, &MatchConfig::default());
    assert_eq!(result.functions.len(), 2);
    for m in &result.functions {
        assert_eq!(m.status, FunctionStatus::Unchanged);
        assert_eq!(
            old.functions[m.old.unwrap()].key,
            new.functions[m.new.unwrap()].key
        );
    }
    // A renamed file: the static still matches by its unique name.
    let moved = program(vec![
        function("helper", "c.c:helper", &text("helper")),
        function("helper", "b.c:helper", &other("helper")),
    ]);
    let result = match_programs(&old, &moved, &MatchConfig::default());
    let statuses: Vec<_> = result
        .functions
        .iter()
        .map(|m| (m.status, m.old, m.new))
        .collect();
    assert_eq!(
        statuses,
        vec![
            (
                FunctionStatus::Unchanged,
                Some(ripple_ir::FuncId(0)),
                Some(ripple_ir::FuncId(0))
            ),
            (
                FunctionStatus::Unchanged,
                Some(ripple_ir::FuncId(1)),
                Some(ripple_ir::FuncId(1))
            ),
        ]
    );
}

#[test]
fn declarations_are_not_compared_but_definitions_appearing_are_added() {
    let mut declared = function("f", "f", &body("f", ">", "", B_CALL));
    declared.nodes = ripple_ir::IndexVec::new();
    declared.syntax = None;
    let old = program(vec![declared]);
    let new = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Added);
    let result = match_programs(&old, &old, &MatchConfig::default());
    assert!(result.functions.is_empty());
}

// GumTree phases on bare trees.

fn mapped_pairs(a: &TreeView<'_>, b: &TreeView<'_>, mapping: &SynMapping) -> Vec<(String, String)> {
    let describe = |v: &TreeView<'_>, id: SynId| {
        let label = v.label(id);
        if label.is_empty() {
            format!("{}@{}", v.kind(id), v.tree.nodes[id].span.start_line)
        } else {
            format!(
                "{}:{}@{}",
                v.kind(id),
                label,
                v.tree.nodes[id].span.start_line
            )
        }
    };
    mapping
        .pairs()
        .map(|(x, y)| (describe(a, x), describe(b, y)))
        .collect()
}

#[test]
fn top_down_matches_unique_isomorphic_subtrees() {
    let old = tree("(block@1 (call@1 (id:a) (id:x)) (call@2 (id:b) (id:y)))");
    let new = tree("(block@1 (call@5 (id:b) (id:y)) (other@6 (id:z)) (call@7 (id:a) (id:x)))");
    let (a, b) = (TreeView::new(&old, ""), TreeView::new(&new, ""));
    let mut mapping = SynMapping::new(old.nodes.len(), new.nodes.len());
    crate::gumtree::top_down(&a, &b, &mut mapping, 2);
    let pairs = mapped_pairs(&a, &b, &mapping);
    assert!(
        pairs.contains(&("call@1".into(), "call@7".into())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("call@2".into(), "call@5".into())),
        "{pairs:?}"
    );
    assert!(pairs.contains(&("id:a@1".into(), "id:a@7".into())));
    // The roots are not isomorphic and not matched top-down.
    assert_eq!(mapping.new_of(old.root), None);
}

#[test]
fn top_down_resolves_ambiguity_by_parent_similarity() {
    // `(ret (id:r))` occurs twice on each side; the parents decide which goes where.
    let old = tree(
        "(root@1 (fa@1 (k:one) (k:two) (ret@2 (id:r))) (fb@3 (k:three) (k:four) (ret@4 (id:r))))",
    );
    let new = tree(
        "(root@1 (fb@5 (k:three) (k:four) (ret@6 (id:r))) (fa@7 (k:one) (k:two) (ret@8 (id:r))))",
    );
    let (a, b) = (TreeView::new(&old, ""), TreeView::new(&new, ""));
    let mapping = match_trees(&a, &b, GUMTREE);
    let pairs = mapped_pairs(&a, &b, &mapping);
    assert!(
        pairs.contains(&("ret@2".into(), "ret@8".into())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("ret@4".into(), "ret@6".into())),
        "{pairs:?}"
    );
    assert!(pairs.contains(&("fa@1".into(), "fa@7".into())), "{pairs:?}");
}

#[test]
fn bottom_up_matches_containers_and_recovers_updated_leaves() {
    let old = tree("(root@1 (stmt@2 (call@2 (id:f) (args (id:x) (id:y))) (id:old_name)))");
    let new = tree("(root@1 (stmt@3 (call@3 (id:f) (args (id:x) (id:y))) (id:new_name)))");
    let (a, b) = (TreeView::new(&old, ""), TreeView::new(&new, ""));
    let mapping = match_trees(&a, &b, GUMTREE);
    let pairs = mapped_pairs(&a, &b, &mapping);
    assert!(
        pairs.contains(&("stmt@2".into(), "stmt@3".into())),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&("id:old_name@2".into(), "id:new_name@3".into())),
        "{pairs:?}"
    );
    assert_eq!(
        pairs.len(),
        old.nodes.len(),
        "every node is matched: {pairs:?}"
    );
}

#[test]
fn lcs_keeps_order() {
    let pairs = crate::gumtree::lcs(&[1, 2, 3, 4], &[2, 4, 3], |x, y| x == y);
    assert_eq!(pairs, vec![(2, 2), (4, 4)]);
    let pairs = crate::gumtree::lcs(&[5, 1, 2, 6, 3], &[1, 7, 2, 3, 5], |x, y| x == y);
    assert_eq!(pairs, vec![(1, 1), (2, 2), (3, 3)]);
    assert!(crate::gumtree::lcs(&[1], &[], |x: i32, y| x == y).is_empty());
}

#[test]
fn same_text_with_another_lowering_is_a_change() {
    // The condition reads a field whose offset moved (a struct changed elsewhere): the
    // text is identical, the IR is not.
    let old = program(vec![function("f", "f", &body("f", ">", "", B_CALL))]);
    let mut new = old.clone();
    let branch = node_at(&new, 3, true);
    new.functions[ripple_ir::FuncId(0)].nodes[branch].kind = NodeKind::Branch {
        cond: ripple_ir::Expr::int(8, ripple_ir::TypeId(0)),
    };
    let m = one(old.clone(), new.clone());
    assert_eq!(m.status, FunctionStatus::Modified);
    assert!(m.body_changed);
    assert_eq!(m.changed_old, vec![node_at(&old, 3, true)]);
    assert_eq!(m.changed_new, vec![branch]);
    assert!(m.old_lines.contains(&("a.c".to_owned(), 3)));
    check_bijection(&m);
    check_control_flow(&old, &new, &m);
}
