//! The call graph with points-to resolution (`ripple_dataflow::calls`) against real
//! runs: every call that the conformance corpus programs make when interpreted (on their
//! RUN inputs), through a function pointer or back from a library function (`qsort`'s
//! comparator), must be an edge of the resolved call graph at its call site; and on a
//! program with two tables of functions of one type, resolution keeps only each table's
//! functions where the type-based graph has all four.

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_graph::{CallGraph, CallTarget};
use ripple_interp::{run_program_observed, NodeEvent, Observer, RunConfig};
use ripple_ir::{Callee, FuncId, NodeId, NodeKind, Program};

/// Records (caller, call node, callee) of every executed call through a pointer, and of
/// every function a library function called back. A call node's event comes after the
/// callee's nodes, one level deeper: the last function seen at depth d + 1 when a call
/// node at depth d is reported is its callee, or what a library callee called back
/// (cleared after each event so an external callee, which has no nodes, is not mistaken
/// for the last defined one).
struct Calls<'p> {
    program: &'p Program,
    last_at_depth: Vec<Option<FuncId>>,
    indirect: Vec<(FuncId, NodeId, FuncId)>,
    callbacks: Vec<(FuncId, NodeId, FuncId)>,
}

impl Observer for Calls<'_> {
    fn on_node(&mut self, event: &NodeEvent<'_>) {
        let d = event.depth;
        if self.last_at_depth.len() < d + 2 {
            self.last_at_depth.resize(d + 2, None);
        }
        let callee = self.last_at_depth[d + 1].take();
        let node = &self.program.functions[event.function].nodes[event.node];
        match (&node.kind, callee) {
            (
                NodeKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                },
                Some(g),
            ) => self.indirect.push((event.function, event.node, g)),
            (
                NodeKind::Call {
                    callee: Callee::Direct(h),
                    ..
                },
                Some(g),
            ) if !self.program.functions[*h].is_defined() => {
                self.callbacks.push((event.function, event.node, g))
            }
            _ => {}
        }
        self.last_at_depth[d] = Some(event.function);
    }
}

fn lower_file(path: &std::path::Path) -> Program {
    let text = ripple_conformance::preprocess(path).expect("gcc -E");
    let unit = TranslationUnit::preprocessed(path.display().to_string(), &text, str::to_string);
    lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: false,
            ..FrontendConfig::default()
        },
    )
    .program
}

fn targets(graph: &CallGraph, caller: FuncId, node: NodeId) -> Vec<FuncId> {
    graph
        .sites
        .iter()
        .find(|s| s.caller == caller && s.node == node)
        .map(|s| s.target.callees().to_vec())
        .unwrap_or_default()
}

#[test]
fn every_observed_indirect_call_is_in_the_resolved_call_graph() {
    let corpus = ripple_conformance::load_corpus().expect("corpus");
    let mut observed = 0usize;
    let mut called_back = 0usize;
    let mut narrowed = 0usize;
    for entry in &corpus {
        let program = lower_file(&entry.path);
        let resolved = ripple_dataflow::resolved_call_graph(&program);
        let typed = CallGraph::build(&program);
        for run in &entry.runs {
            let config = RunConfig {
                args: run.args.clone(),
                stdin: run.stdin.clone(),
                max_steps: 2_000_000,
                ..RunConfig::default()
            };
            let mut calls = Calls {
                program: &program,
                last_at_depth: Vec::new(),
                indirect: Vec::new(),
                callbacks: Vec::new(),
            };
            run_program_observed(&program, &config, &mut calls);
            called_back += calls.callbacks.len();
            for (caller, node, callee) in calls.indirect.into_iter().chain(calls.callbacks) {
                observed += 1;
                assert!(
                    targets(&resolved, caller, node).contains(&callee),
                    "{}: the call at node {node:?} of {} reached {}, which the resolved call graph lacks",
                    entry.name,
                    program.functions[caller].name,
                    program.functions[callee].name
                );
            }
        }
        for (site, typed_site) in resolved.sites.iter().zip(&typed.sites) {
            if let (CallTarget::Indirect(a), CallTarget::Indirect(b)) =
                (&site.target, &typed_site.target)
            {
                assert!(a
                    .iter()
                    .all(|g| b.contains(g) || program.functions[*g].is_defined()));
                narrowed += usize::from(a.len() < b.len());
            }
        }
    }
    // The corpus has programs calling through pointers (tables, qsort comparators).
    assert!(observed >= 10, "only {observed} indirect calls observed");
    assert!(called_back >= 1, "no callback observed");
    eprintln!("{observed} calls observed ({called_back} callbacks); {narrowed} call sites narrowed by points-to");
}

#[test]
fn resolution_keeps_only_the_functions_a_pointer_may_hold() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("tables.c");
    // Four functions of one type in two tables; `apply` calls through the first table
    // only, `apply_other` through the second; `release` is called through a pointer
    // that holds the external `free` (which has no body, so it stays a target).
    std::fs::write(
        &path,
        "#include <stdlib.h>\n\
         static int add(int a, int b) { return a + b; }\n\
         static int sub(int a, int b) { return a - b; }\n\
         static int mul(int a, int b) { return a * b; }\n\
         static int dvd(int a, int b) { return b ? a / b : 0; }\n\
         static int (*arith[2])(int, int) = { add, sub };\n\
         static int (*other[2])(int, int) = { mul, dvd };\n\
         int apply(int i, int a, int b) { return arith[i & 1](a, b); }\n\
         int apply_other(int i, int a, int b) { return other[i & 1](a, b); }\n\
         void release(void *p) { void (*f)(void *) = free; f(p); }\n\
         int main(void) { release(malloc(4)); return apply(0, 6, 3) + apply_other(1, 6, 3); }\n",
    )
    .unwrap();
    let program = lower_file(&path);
    let by_name = |name: &str| {
        program
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
            .unwrap_or_else(|| panic!("{name}"))
    };
    let names = |graph: &CallGraph, f: &str| -> Vec<String> {
        let mut out: Vec<String> = graph.callees[by_name(f).index()]
            .iter()
            .map(|&g| program.functions[g].name.clone())
            .collect();
        out.sort();
        out
    };
    let typed = CallGraph::build(&program);
    let resolved = ripple_dataflow::resolved_call_graph(&program);
    assert_eq!(names(&typed, "apply"), ["add", "dvd", "mul", "sub"]);
    assert_eq!(names(&resolved, "apply"), ["add", "sub"]);
    assert_eq!(names(&resolved, "apply_other"), ["dvd", "mul"]);
    assert!(names(&resolved, "release").contains(&"free".to_string()));
    // Callers follow the narrowed edges.
    let callers: Vec<FuncId> = resolved.callers[by_name("mul").index()].clone();
    assert_eq!(callers, vec![by_name("apply_other")]);
}
