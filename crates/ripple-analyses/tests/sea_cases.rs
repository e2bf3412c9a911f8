//! SEA/SEB on hand-built programs whose sets are derived by hand, following 004 section
//! 3: Figure 1, loops with several call targets (kind c), calls through pointers (kind b),
//! recursion (call-graph components, Lemma 1), and the shape of the ICCFG (section 3.1).
//! Every set is computed by Fig. 4, Fig. 5 and the automatic choice, which must agree
//! (`Graphs::set`).

mod support;

use ripple_analyses::sea::{per_function, Direction, Relations};
use ripple_graph::ComponentKind;
use support::{defined, external, graphs, names, FunctionSpec, Op::*};

/// 004 Figure 1 (examples/sea-fig1/old.c) as IR: the call structure of each procedure,
/// with the library calls as functions without a body. Indices: 0 main, 1 init,
/// 2 readInputs, 3 checkInputs, 4 deleteFunctions, 5 deleteName, 6 sin, 7 cos, 8 malloc,
/// 9 strdup, 10 free, 11 printf, 12 scanf, 13 exit, 14 strtod, 15 strcmp.
fn figure1() -> Vec<FunctionSpec> {
    let mut specs = vec![
        // main: init(); while (!isAnyInput) { readInputs(); checkInputs(); }
        //       printf(..., selectedFunc->func(input)); deleteFunctions();
        defined(
            "main",
            vec![
                Entry(1),
                Call(1, 2),
                Branch(3, 5),
                Call(2, 4),
                Call(3, 2),
                CallPtr(1, 6),
                Call(11, 7),
                Call(4, 8),
                Exit,
            ],
        ),
        // init: two list cells, storing sin and cos.
        defined(
            "init",
            vec![
                Entry(1),
                Call(8, 2),
                Call(9, 3),
                TakeAddress(6, 4),
                Call(8, 5),
                Call(9, 6),
                TakeAddress(7, 7),
                Exit,
            ],
        ),
        // readInputs: printf, scanf (exit at end of input), printf, scanf, strtod.
        defined(
            "readInputs",
            vec![
                Entry(1),
                Call(11, 2),
                Call(12, 3),
                Branch(4, 5),
                Call(13, 5),
                Call(14, 6),
                Exit,
            ],
        ),
        // checkInputs: while (tmp) { if (strcmp(...) == 0) break; tmp = tmp->next; }
        defined(
            "checkInputs",
            vec![Entry(1), Branch(2, 4), Call(15, 3), Branch(4, 1), Exit],
        ),
        // deleteFunctions: while (tmp) { deleteName(tmp); free(tmp); }
        defined(
            "deleteFunctions",
            vec![Entry(1), Branch(2, 4), Call(5, 3), Call(10, 1), Exit],
        ),
        // deleteName: if (elem->name) free(elem->name);
        defined(
            "deleteName",
            vec![Entry(1), Branch(2, 3), Call(10, 3), Exit],
        ),
    ];
    for (name, signature) in [("sin", 1), ("cos", 1)] {
        specs.push(FunctionSpec {
            name: name.into(),
            signature,
            body: None,
        });
    }
    for name in [
        "malloc", "strdup", "free", "printf", "scanf", "exit", "strtod", "strcmp",
    ] {
        specs.push(external(name));
    }
    specs
}

const PROCEDURES: [&str; 8] = [
    "main",
    "init",
    "readInputs",
    "checkInputs",
    "deleteFunctions",
    "deleteName",
    "sin",
    "cos",
];

/// The set restricted to the procedures of examples/sea-fig1/README.md (the program's
/// functions and the two pointer targets; library calls are not procedures there).
fn procedures(set: Vec<String>) -> Vec<String> {
    set.into_iter()
        .filter(|n| PROCEDURES.contains(&n.as_str()))
        .collect()
}

#[test]
fn figure1_sea_sets_equal_the_hand_derived_table() {
    let g = graphs(&figure1());
    let everything_but_main = [
        "init",
        "readInputs",
        "checkInputs",
        "sin",
        "cos",
        "deleteFunctions",
        "deleteName",
    ];
    // main calls every procedure (CALL), and nothing calls main.
    assert_eq!(procedures(g.sea("main")), names(&everything_but_main));
    // init runs first: everything but itself runs after it (main by RET, the rest by
    // SEQ through main's later components).
    assert_eq!(
        procedures(g.sea("init")),
        names(&[
            "main",
            "readInputs",
            "checkInputs",
            "sin",
            "cos",
            "deleteFunctions",
            "deleteName"
        ])
    );
    // readInputs and checkInputs share main's loop component (kind c): each is after
    // the other and after itself.
    let loop_set = names(&[
        "main",
        "readInputs",
        "checkInputs",
        "sin",
        "cos",
        "deleteFunctions",
        "deleteName",
    ]);
    assert_eq!(procedures(g.sea("readInputs")), loop_set);
    assert_eq!(procedures(g.sea("checkInputs")), loop_set);
    // sin and cos: targets of one call not in a loop (kind b), so not after each other.
    for f in ["sin", "cos"] {
        assert_eq!(
            procedures(g.sea(f)),
            names(&["main", "deleteFunctions", "deleteName"])
        );
    }
    assert_eq!(
        procedures(g.sea("deleteFunctions")),
        names(&["main", "deleteName"])
    );
    // deleteName is called in deleteFunctions' loop (kind d): after itself.
    assert_eq!(
        procedures(g.sea("deleteName")),
        names(&["main", "deleteFunctions", "deleteName"])
    );
}

#[test]
fn figure1_seb_sets_equal_the_hand_derived_table() {
    let g = graphs(&figure1());
    assert_eq!(procedures(g.seb("init")), names(&["main"]));
    let loop_set = names(&["main", "init", "readInputs", "checkInputs"]);
    assert_eq!(procedures(g.seb("readInputs")), loop_set);
    assert_eq!(procedures(g.seb("checkInputs")), loop_set);
    // deleteName is here too: deleteFunctions ∈ SEA(deleteName) (RET, in the README's
    // SEA table), so by duality deleteName ∈ SEB(deleteFunctions). The README's SEB line
    // for deleteFunctions leaves it out, contradicting its own SEA table.
    assert_eq!(
        procedures(g.seb("deleteFunctions")),
        names(&[
            "main",
            "init",
            "readInputs",
            "checkInputs",
            "sin",
            "cos",
            "deleteName"
        ])
    );
    assert_eq!(
        procedures(g.seb("deleteName")),
        names(&[
            "main",
            "init",
            "readInputs",
            "checkInputs",
            "sin",
            "cos",
            "deleteFunctions",
            "deleteName"
        ])
    );
}

#[test]
fn figure1_iccfg_components_of_main() {
    let g = graphs(&figure1());
    let main = &g.iccfg.functions[g.id("main").index()];
    // Figure 2: init, the loop {readInputs, checkInputs}, the pointer call, printf,
    // deleteFunctions, in topological order, joined in a chain.
    let kinds: Vec<ComponentKind> = main.components.iter().map(|c| c.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            ComponentKind::SingleTarget,
            ComponentKind::LoopSeveralTargets,
            ComponentKind::SeveralTargets,
            ComponentKind::SingleTarget,
            ComponentKind::SingleTarget,
        ]
    );
    assert_eq!(main.entry_succs, vec![0]);
    let succs: Vec<Vec<u32>> = main.components.iter().map(|c| c.succs.clone()).collect();
    assert_eq!(succs, vec![vec![1], vec![2], vec![3], vec![4], vec![]]);
    assert_eq!(main.components[2].callees, vec![g.id("sin"), g.id("cos")]);
}

#[test]
fn relations_are_labelled() {
    let g = graphs(&figure1());
    let members = per_function(&g.iccfg, g.id("readInputs"), Direction::After)
        .members(g.id("readInputs"), true);
    let relation_of = |name: &str| {
        members
            .iter()
            .find(|(f, _)| *f == g.id(name))
            .map(|(_, r)| r.names())
    };
    // readInputs calls printf (CALL) and runs again in the loop (SEQ); main is a caller
    // (RET); checkInputs follows in the loop (SEQ); ID is the option.
    assert_eq!(relation_of("printf"), Some(vec!["CALL", "SEQ"]));
    assert_eq!(relation_of("main"), Some(vec!["RET"]));
    assert_eq!(relation_of("checkInputs"), Some(vec!["SEQ"]));
    assert_eq!(relation_of("readInputs"), Some(vec!["SEQ", "ID"]));
    assert_eq!(relation_of("init"), None);
    let seb = per_function(&g.iccfg, g.id("deleteName"), Direction::Before)
        .members(g.id("deleteName"), false);
    let seb_of = |name: &str| seb.iter().find(|(f, _)| *f == g.id(name)).map(|(_, r)| *r);
    // In SEB the labels are those of the pair (g, deleteName): deleteFunctions calls it.
    assert_eq!(seb_of("deleteFunctions"), Some(Relations::CALL));
    assert_eq!(seb_of("free"), Some(Relations::RET.union(Relations::SEQ)));
}

#[test]
fn calls_in_a_loop_with_several_targets_are_after_each_other() {
    // Kind c: main loops over { a(); b(); }; kind a: seq calls c() then d() once.
    let g = graphs(&[
        defined(
            "main",
            vec![
                Entry(1),
                Branch(2, 4),
                Call(2, 3),
                Call(3, 1),
                Call(1, 5),
                Exit,
            ],
        ),
        defined("seq", vec![Entry(1), Call(4, 2), Call(5, 3), Exit]),
        defined("a", vec![Entry(1), Exit]),
        defined("b", vec![Entry(1), Exit]),
        defined("c", vec![Entry(1), Exit]),
        defined("d", vec![Entry(1), Exit]),
    ]);
    let main = &g.iccfg.functions[g.id("main").index()];
    assert_eq!(main.components[0].kind(), ComponentKind::LoopSeveralTargets);
    // a and b: each after the other and after itself; seq (called after the loop)
    // and what it calls come after both; main by RET.
    assert_eq!(g.sea("a"), names(&["a", "b", "c", "d", "main", "seq"]));
    assert_eq!(g.sea("b"), names(&["a", "b", "c", "d", "main", "seq"]));
    // c then d in sequence outside any loop: d after c, not c after d, neither after
    // itself.
    assert_eq!(g.sea("c"), names(&["d", "main", "seq"]));
    assert_eq!(g.sea("d"), names(&["main", "seq"]));
    assert_eq!(g.seb("c"), names(&["a", "b", "main", "seq"]));
}

#[test]
fn pointer_call_targets_are_after_each_other_only_in_a_loop() {
    // once: one call through a pointer (targets p, q; kind b). looped: the same call in
    // a loop (kind c). The two callers are otherwise unrelated roots.
    let specs = vec![
        defined(
            "setup",
            vec![Entry(1), TakeAddress(2, 2), TakeAddress(3, 3), Exit],
        ),
        defined("once", vec![Entry(1), CallPtr(0, 2), Exit]),
        defined("p", vec![Entry(1), Exit]),
        defined("q", vec![Entry(1), Exit]),
    ];
    let g = graphs(&specs);
    assert_eq!(
        g.iccfg.functions[g.id("once").index()].components[0].kind(),
        ComponentKind::SeveralTargets
    );
    assert_eq!(g.sea("p"), names(&["once"]));
    assert_eq!(g.sea("q"), names(&["once"]));
    let mut looped = specs.clone();
    looped[1] = defined("once", vec![Entry(1), Branch(2, 3), CallPtr(0, 1), Exit]);
    let g = graphs(&looped);
    assert_eq!(
        g.iccfg.functions[g.id("once").index()].components[0].kind(),
        ComponentKind::LoopSeveralTargets
    );
    assert_eq!(g.sea("p"), names(&["once", "p", "q"]));
    // The address-taking function calls nothing: nothing runs after it.
    assert_eq!(g.sea("setup"), Vec::<String>::new());
}

#[test]
fn recursion_puts_a_call_graph_component_in_relation_with_itself() {
    // main: r1(); after();  r1: r2();  r2: if (..) { leaf(); r1(); }  (r1, r2 mutually
    // recursive)  self: if (..) self();
    let g = graphs(&[
        defined("main", vec![Entry(1), Call(1, 2), Call(4, 3), Exit]),
        defined("r1", vec![Entry(1), Call(2, 2), Exit]),
        defined(
            "r2",
            vec![Entry(1), Branch(2, 4), Call(3, 3), Call(1, 4), Exit],
        ),
        defined("leaf", vec![Entry(1), Exit]),
        defined("after", vec![Entry(1), Exit]),
        defined("self", vec![Entry(1), Branch(2, 3), Call(5, 3), Exit]),
    ]);
    // Lemma 1: r1 and r2 are one call-graph component, so they have one set, which holds
    // both (each calls the other) and leaf; after runs once they return.
    assert_eq!(g.sea("r1"), names(&["after", "leaf", "main", "r1", "r2"]));
    assert_eq!(g.sea("r2"), g.sea("r1"));
    // leaf returns into r2, which calls r1, which calls leaf again.
    assert_eq!(g.sea("leaf"), names(&["after", "leaf", "main", "r1", "r2"]));
    assert_eq!(g.sea("after"), names(&["main"]));
    assert_eq!(g.seb("after"), names(&["leaf", "main", "r1", "r2"]));
    // A function calling itself is in its own set (CALL and RET) without ID.
    let members =
        per_function(&g.iccfg, g.id("self"), Direction::After).members(g.id("self"), false);
    assert_eq!(members.len(), 1);
    assert_eq!(members[0].1.names(), vec!["CALL", "RET"]);
}

#[test]
fn iccfg_drops_call_free_components_and_unreachable_calls() {
    // entry -> skip -> branch -> {a() | skip} -> skip loop (call-free) -> b() -> exit;
    // node 8 calls c() but is unreachable.
    let g = graphs(&[
        defined(
            "f",
            vec![
                Entry(1),
                Skip(2),
                Branch(3, 4),
                Call(1, 5),
                Skip(5),
                Branch(5, 6),
                Call(2, 7),
                Exit,
                Call(3, 7),
            ],
        ),
        defined("a", vec![Entry(1), Exit]),
        defined("b", vec![Entry(1), Exit]),
        defined("c", vec![Entry(1), Exit]),
    ]);
    let f = &g.iccfg.functions[g.id("f").index()];
    assert_eq!(f.components.len(), 2, "a() and b(); c() is unreachable");
    assert_eq!(f.components[0].callees, vec![g.id("a")]);
    assert_eq!(f.components[1].callees, vec![g.id("b")]);
    // The entry reaches a() and, through the call-free branch and loop, b() directly.
    assert_eq!(f.entry_succs, vec![0, 1]);
    assert_eq!(f.components[0].succs, vec![1]);
    assert!(!f.components[1].in_loop);
    let stats = &g.iccfg.stats;
    assert_eq!((stats.cfg_nodes, stats.cfg_reachable_nodes), (9 + 6, 8 + 6));
    assert_eq!(
        (
            stats.components,
            stats.iccfg_flow_edges,
            stats.iccfg_call_edges
        ),
        (2, 3, 2)
    );
    assert_eq!(g.sea("c"), Vec::<String>::new());
}

#[test]
fn set_sizes_of_all_functions_match_the_sets() {
    use ripple_analyses::sea::AllFunctions;
    let g = graphs(&figure1());
    let all = AllFunctions::compute(&g.iccfg);
    for direction in [Direction::After, Direction::Before] {
        let sizes = all.set_sizes(direction);
        for (f, size) in sizes.iter().enumerate() {
            let f = ripple_ir::FuncId::from(f);
            assert_eq!(*size, per_function(&g.iccfg, f, direction).union().count());
        }
    }
}
