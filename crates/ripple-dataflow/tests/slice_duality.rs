//! Forward and backward slices are duals (004 section 5): on random programs, for every
//! pair of SDG vertices (a, b), b is in the forward slice of a exactly when a is in the
//! backward slice of b. Also: a slice contains its criterion, and slicing (SDG
//! construction included) is deterministic.
//!
//! The programs come from a small seeded generator of C (no external crate): functions
//! with parameters, globals, locals, pointers to locals and globals, branches, bounded
//! loops, direct and recursive calls, and calls through a function pointer.

mod common;

use ripple_conformance::Rng;
use ripple_dataflow::slice::{slice, SliceDirection};
use ripple_dataflow::{BitSet, Sdg, SdgConfig, VertexId};
use ripple_ir::Program;

const GLOBALS: [&str; 3] = ["g0", "g1", "g2"];

struct Generator {
    rng: Rng,
    functions: usize,
    params: Vec<usize>,
}

impl Generator {
    fn program(seed: u64) -> String {
        let mut rng = Rng(seed);
        let functions = 2 + rng.index(4);
        let params = (0..functions).map(|_| rng.index(3)).collect();
        let mut generator = Generator {
            rng,
            functions,
            params,
        };
        let mut out = String::new();
        for g in GLOBALS {
            out.push_str(&format!("int {g};\n"));
        }
        out.push_str("int *gp;\n");
        for f in 0..functions {
            out.push_str(&format!("int f{f}({});\n", generator.param_list(f)));
        }
        out.push_str("int (*fp)(int, int);\n");
        out.push_str("int h0(int a, int b) { return a + b; }\n");
        out.push_str("int h1(int a, int b) { g1 = a; return b; }\n");
        for f in 0..functions {
            generator.function(f, &mut out);
        }
        out.push_str("int main(void) {\n    fp = h0;\n    gp = &g2;\n");
        for f in 0..functions {
            let args: Vec<String> = (0..generator.params[f])
                .map(|_| generator.rng.index(9).to_string())
                .collect();
            out.push_str(&format!("    g0 = g0 + f{f}({});\n", args.join(", ")));
        }
        out.push_str("    return g0;\n}\n");
        out
    }

    fn param_list(&self, f: usize) -> String {
        if self.params[f] == 0 {
            return "void".to_string();
        }
        (0..self.params[f])
            .map(|i| format!("int p{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn function(&mut self, f: usize, out: &mut String) {
        out.push_str(&format!("int f{f}({}) {{\n", self.param_list(f)));
        out.push_str("    int l0 = 0, l1 = 1, l2 = 2;\n    int *q = &l0;\n");
        let mut vars: Vec<String> = ["l0", "l1", "l2"].iter().map(|s| s.to_string()).collect();
        vars.extend((0..self.params[f]).map(|i| format!("p{i}")));
        vars.extend(GLOBALS.iter().map(|s| s.to_string()));
        let statements = 3 + self.rng.index(6);
        for _ in 0..statements {
            self.statement(f, &vars, 1, out);
        }
        let v = self.rng.pick(&vars).to_string();
        out.push_str(&format!("    return {v} + *q;\n}}\n"));
    }

    fn expr(&mut self, vars: &[String]) -> String {
        let a = self.rng.pick(vars).to_string();
        match self.rng.index(4) {
            0 => a,
            1 => format!("{a} + {}", self.rng.index(5)),
            2 => format!("{a} * {}", self.rng.pick(vars)),
            _ => format!("{a} - {}", self.rng.pick(vars)),
        }
    }

    fn statement(&mut self, f: usize, vars: &[String], depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        let target = self.rng.pick(vars).to_string();
        match self.rng.index(if depth < 3 { 9 } else { 6 }) {
            0 | 1 => {
                let e = self.expr(vars);
                out.push_str(&format!("{indent}{target} = {e};\n"));
            }
            2 => {
                // A call to any function: direct recursion included (with a guard).
                let callee = self.rng.index(self.functions);
                let args: Vec<String> = (0..self.params[callee]).map(|_| self.expr(vars)).collect();
                let guard = if callee <= f { "l2 > 100 && " } else { "" };
                out.push_str(&format!(
                    "{indent}if ({guard}1) {target} = f{callee}({});\n",
                    args.join(", ")
                ));
            }
            3 => {
                let v = self.rng.pick(vars).to_string();
                out.push_str(&format!("{indent}q = &{v};\n"));
            }
            4 => {
                let e = self.expr(vars);
                out.push_str(&format!("{indent}*q = {e};\n"));
            }
            5 => {
                let (a, b) = (self.expr(vars), self.expr(vars));
                if self.rng.index(2) == 0 {
                    out.push_str(&format!("{indent}{target} = fp({a}, {b});\n"));
                } else {
                    out.push_str(&format!("{indent}*gp = {a}; fp = h1; {target} = {b};\n"));
                }
            }
            6 | 7 => {
                let c = self.expr(vars);
                out.push_str(&format!("{indent}if ({c} > 0) {{\n"));
                self.statement(f, vars, depth + 1, out);
                if self.rng.index(2) == 0 {
                    out.push_str(&format!("{indent}}} else {{\n"));
                    self.statement(f, vars, depth + 1, out);
                }
                out.push_str(&format!("{indent}}}\n"));
            }
            _ => {
                out.push_str(&format!(
                    "{indent}for (int i{depth} = 0; i{depth} < {target}; i{depth}++) {{\n"
                ));
                self.statement(f, vars, depth + 1, out);
                out.push_str(&format!("{indent}}}\n"));
            }
        }
    }
}

fn lower(text: &str) -> Program {
    let lowered = common::lowered("random.c", text, false);
    assert!(
        lowered.diagnostics.is_empty(),
        "{:?}\n{text}",
        lowered.diagnostics
    );
    lowered.program
}

fn slices(sdg: &Sdg, direction: SliceDirection) -> Vec<BitSet> {
    (0..sdg.vertex_count())
        .map(|v| {
            let traversal = slice(sdg, &[VertexId(v as u32)], direction);
            let mut set = BitSet::new(sdg.vertex_count());
            for w in traversal.vertices() {
                set.insert(w.index());
            }
            set
        })
        .collect()
}

#[test]
fn forward_and_backward_slices_are_duals_on_random_programs() {
    duality(&SdgConfig::default());
}

/// The same with every call through the function pointer bound to a dispatch.
#[test]
fn slices_through_dispatches_are_duals() {
    duality(&SdgConfig {
        dispatch_min_targets: 2,
        ..SdgConfig::default()
    });
}

/// The statements of the program a slice reaches, sorted.
/// Regions kept context-insensitive restart phase 1 where a traversal reaches them, in
/// both directions alike, so duality holds for them too.
#[test]
fn slices_through_context_insensitive_regions_are_duals() {
    duality(&SdgConfig {
        max_summary_estimate: 1,
        ..SdgConfig::default()
    });
}

fn slice_nodes(
    program: &ripple_ir::Program,
    sdg: &Sdg,
    criteria: &[VertexId],
    direction: SliceDirection,
) -> Vec<(ripple_ir::FuncId, ripple_ir::NodeId)> {
    let mut out: Vec<_> = slice(sdg, criteria, direction)
        .vertices()
        .into_iter()
        .filter(|v| matches!(sdg.kinds[v.index()], ripple_dataflow::VertexKind::Node(_)))
        .filter_map(|v| Some((sdg.function_of[v.index()], sdg.node_of(program, v)?)))
        .collect();
    out.sort_unstable();
    out
}

/// Binding a call site to a dispatch instead of to each target only splits parameter
/// edges, so slices reach the same statements; keeping memory regions context-
/// insensitive (to stay within the summary budget) is an over-approximation, so slices
/// only grow.
#[test]
fn dispatches_keep_slices_and_context_insensitive_regions_only_grow_them() {
    let mut compared = 0usize;
    let mut grew = 0usize;
    let mut dispatches = 0usize;
    for seed in 0..12u64 {
        let program = lower(&Generator::program(seed));
        let direct = Sdg::build(&program, &SdgConfig::default());
        let dispatched = Sdg::build(
            &program,
            &SdgConfig {
                dispatch_min_targets: 2,
                ..SdgConfig::default()
            },
        );
        dispatches += dispatched.dispatches.len();
        let merged = Sdg::build(
            &program,
            &SdgConfig {
                max_summary_estimate: 1,
                ..SdgConfig::default()
            },
        );
        assert!(
            merged.global_regions.count() > 0 && direct.global_regions.count() == 0,
            "seed {seed}"
        );
        for (f, function) in program.functions.iter_enumerated() {
            for n in function.nodes.ids() {
                let Some(v) = direct.node_vertex(f, n) else {
                    continue;
                };
                let other = dispatched.node_vertex(f, n).expect("same nodes");
                let coarse = merged.node_vertex(f, n).expect("same nodes");
                for direction in [SliceDirection::Forward, SliceDirection::Backward] {
                    let precise = slice_nodes(&program, &direct, &[v], direction);
                    assert_eq!(
                        precise,
                        slice_nodes(&program, &dispatched, &[other], direction),
                        "seed {seed}: {} node {n:?} {direction:?}",
                        function.name
                    );
                    let coarser = slice_nodes(&program, &merged, &[coarse], direction);
                    assert!(
                        precise.iter().all(|x| coarser.binary_search(x).is_ok()),
                        "seed {seed}: context-insensitive regions lost part of a slice"
                    );
                    grew += usize::from(coarser.len() > precise.len());
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(dispatches > 0, "no call site used a dispatch");
    // Merging must make a difference somewhere, or the comparison tests nothing.
    assert!(grew > 0);
}

/// Regions merged by access give the same slices: a write reaches a read through one of
/// them exactly when it reaches it through all (`pointsto/by_access.rs`).
#[test]
fn regions_merged_by_access_keep_every_slice() {
    let mut compared = 0usize;
    let mut merged_regions = 0usize;
    for seed in 0..12u64 {
        let program = lower(&Generator::program(seed));
        let apart = Sdg::build(
            &program,
            &SdgConfig {
                merge_regions_by_access: false,
                ..SdgConfig::default()
            },
        );
        let merged = Sdg::build(&program, &SdgConfig::default());
        merged_regions += apart.points_to.part_count() - merged.points_to.part_count();
        for (f, function) in program.functions.iter_enumerated() {
            for n in function.nodes.ids() {
                let Some(v) = apart.node_vertex(f, n) else {
                    continue;
                };
                let w = merged.node_vertex(f, n).expect("same nodes");
                for direction in [SliceDirection::Forward, SliceDirection::Backward] {
                    assert_eq!(
                        slice_nodes(&program, &apart, &[v], direction),
                        slice_nodes(&program, &merged, &[w], direction),
                        "seed {seed}: {} node {n:?} {direction:?}",
                        function.name
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    // Some regions must merge, or the comparison tests nothing.
    assert!(merged_regions > 0);
}

fn duality(config: &SdgConfig) {
    let mut pairs = 0usize;
    for seed in 0..12u64 {
        let text = Generator::program(seed);
        let program = lower(&text);
        let sdg = Sdg::build(&program, config);
        let forward = slices(&sdg, SliceDirection::Forward);
        let backward = slices(&sdg, SliceDirection::Backward);
        let n = sdg.vertex_count();
        for a in 0..n {
            assert!(
                forward[a].contains(a),
                "seed {seed}: {a} not in its forward slice"
            );
            assert!(
                backward[a].contains(a),
                "seed {seed}: {a} not in its backward slice"
            );
            for (b, backward_of_b) in backward.iter().enumerate() {
                assert_eq!(
                    forward[a].contains(b),
                    backward_of_b.contains(a),
                    "seed {seed}: vertices {a} ({:?}) and {b} ({:?}) break the duality\n{text}",
                    sdg.kinds[a],
                    sdg.kinds[b],
                );
            }
        }
        pairs += n * n;
        // Determinism: an SDG built again gives the same slices.
        let again = Sdg::build(&program, config);
        assert_eq!(again.vertex_count(), n, "seed {seed}");
        assert_eq!(again.edge_count(), sdg.edge_count(), "seed {seed}");
        for v in (0..n).step_by(7) {
            let v = VertexId(v as u32);
            for direction in [SliceDirection::Forward, SliceDirection::Backward] {
                assert_eq!(
                    slice(&sdg, &[v], direction).vertices(),
                    slice(&again, &[v], direction).vertices(),
                    "seed {seed}"
                );
            }
        }
    }
    assert!(
        pairs > 10_000,
        "the programs are too small to test much: {pairs}"
    );
}
