//! Cycle collapsing in the Andersen solver (lazy cycle detection, Hardekopf and Lin,
//! PLDI 2007): collapsing a cycle of copy edges must give exactly the points-to result
//! of the solver without collapsing, and a cycle through a field offset (a pointer
//! shift) must not be collapsed into a plain copy. Offline variable substitution
//! (merging pvars with equal sets before solving) is on and off with collapsing, and
//! both results must satisfy every constraint.

use ripple_conformance::Rng;
use std::path::Path;

mod common;

use ripple_dataflow::pointsto::{AccessKind, Object};
use ripple_dataflow::{PointsTo, PointsToConfig, PointsToMode};
use ripple_ir::Program;

fn lower(path: &str, text: &str, preprocessed: bool) -> Program {
    common::lower_file(path, text, preprocessed)
}

fn andersen(program: &Program, collapse: bool) -> PointsTo {
    let config = PointsToConfig {
        mode: Some(PointsToMode::Andersen),
        collapse_cycles: collapse,
        verify_fixpoint: true,
        ..PointsToConfig::default()
    };
    PointsTo::analyze(program, &config)
}

/// Asserts that two results agree on every region, access, call target and callback;
/// returns how many pvars the first one collapsed.
fn assert_same(name: &str, program: &Program, a: &PointsTo, b: &PointsTo) -> u64 {
    assert_eq!(a.mode, PointsToMode::Andersen, "{name}");
    assert_eq!(b.mode, PointsToMode::Andersen, "{name}");
    assert_eq!(a.part_objects, b.part_objects, "{name}: regions");
    let mut accesses = 0;
    for (f, function) in program.functions.iter_enumerated() {
        for n in function.nodes.ids() {
            assert_eq!(
                a.accesses(f, n),
                b.accesses(f, n),
                "{name}: accesses of {} node {}",
                function.name,
                n.index()
            );
            accesses += a.accesses(f, n).len();
            assert_eq!(
                a.call_targets(f, n),
                b.call_targets(f, n),
                "{name}: call targets in {}",
                function.name
            );
            assert_eq!(
                a.callbacks(f, n),
                b.callbacks(f, n),
                "{name}: callbacks in {}",
                function.name
            );
        }
    }
    let stats = a.andersen.expect("Andersen ran");
    assert!(stats.converged, "{name}");
    let plain = b.andersen.expect("Andersen ran");
    assert_eq!(
        stats.violations,
        Some(0),
        "{name}: a constraint is not satisfied"
    );
    assert_eq!(
        plain.violations,
        Some(0),
        "{name}: a constraint is not satisfied"
    );
    assert_eq!(plain.collapsed, 0, "{name}: collapsing was off");
    assert!(accesses > 0 || program.functions.is_empty(), "{name}");
    stats.collapsed
}

#[test]
fn collapsing_keeps_the_results_on_the_conformance_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() > 20, "the corpus has programs");
    let mut collapsed = 0;
    let mut checked = 0;
    for path in &files {
        // gcc is required: without it the test fails rather than compare nothing.
        let text = ripple_conformance::preprocess(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.display().to_string();
        let program = lower(&name, &text, true);
        let with = andersen(&program, true);
        let without = andersen(&program, false);
        collapsed += assert_same(&name, &program, &with, &without);
        checked += 1;
    }
    assert_eq!(checked, files.len());
    // The corpus has copy cycles (through library state, loops over lists): some
    // were collapsed, so the comparison is not vacuous.
    assert!(collapsed > 0, "no cycle was collapsed in the corpus");
}

/// A program of pointer copies, loads, stores, field accesses and calls (direct and
/// through pointers) among a few variables: copy cycles arise through variables,
/// through memory (stores and loads of the same cell) and through parameters.
fn generated_program(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut text = String::from(
        "struct S { int *a; int *b; struct S *next; };\n\
         int x0, x1, x2, x3;\n\
         int *p0, *p1, *p2, *p3, *p4, *p5;\n\
         int **q0, **q1, **q2;\n\
         struct S s0, s1, *t0, *t1;\n\
         int *(*fp)(int *, int **);\n",
    );
    let p = |rng: &mut Rng| format!("p{}", rng.index(6));
    let q = |rng: &mut Rng| format!("q{}", rng.index(3));
    let t = |rng: &mut Rng| format!("t{}", rng.index(2));
    let field = |rng: &mut Rng| ["a", "b"][rng.index(2)].to_string();
    for f in 0..3 {
        text.push_str(&format!("int *f{f}(int *a, int **b) {{\n"));
        for _ in 0..3 {
            let stmt = match rng.index(4) {
                0 => "    *b = a;\n".to_string(),
                1 => "    a = *b;\n".to_string(),
                2 => format!("    {} = a;\n", p(&mut rng)),
                _ => format!("    b = &{};\n", p(&mut rng)),
            };
            text.push_str(&stmt);
        }
        text.push_str("    return a;\n}\n");
    }
    text.push_str("int main(int argc, char **argv) {\n    int *l0 = &x0, *l1 = p1;\n");
    let statements = 15 + rng.index(25);
    for _ in 0..statements {
        let stmt = match rng.index(14) {
            0 => format!("    {} = &x{};\n", p(&mut rng), rng.index(4)),
            1 | 2 => format!("    {} = {};\n", p(&mut rng), p(&mut rng)),
            3 => format!("    {} = &{};\n", q(&mut rng), p(&mut rng)),
            4 => format!("    *{} = {};\n", q(&mut rng), p(&mut rng)),
            5 => format!("    {} = *{};\n", p(&mut rng), q(&mut rng)),
            6 => format!("    {} = {};\n", q(&mut rng), q(&mut rng)),
            7 => format!("    {} = &s{};\n", t(&mut rng), rng.index(2)),
            8 => format!(
                "    {}->{} = {};\n",
                t(&mut rng),
                field(&mut rng),
                p(&mut rng)
            ),
            9 => format!(
                "    {} = {}->{};\n",
                p(&mut rng),
                t(&mut rng),
                field(&mut rng)
            ),
            10 => format!("    {} = {}->next;\n", t(&mut rng), t(&mut rng)),
            11 => format!("    {}->next = {};\n", t(&mut rng), t(&mut rng)),
            12 => format!("    fp = f{};\n", rng.index(3)),
            _ => {
                let call = if rng.index(2) == 0 {
                    "fp".to_string()
                } else {
                    format!("f{}", rng.index(3))
                };
                format!(
                    "    {} = {call}({}, &{});\n",
                    p(&mut rng),
                    p(&mut rng),
                    p(&mut rng)
                )
            }
        };
        text.push_str(&stmt);
        if rng.index(4) == 0 {
            // Locals in cycles with globals.
            text.push_str(&format!(
                "    l0 = {}; l1 = l0; {} = l1;\n",
                p(&mut rng),
                p(&mut rng)
            ));
        }
    }
    text.push_str("    return argc + (l0 == l1) + (argv != 0);\n}\n");
    text
}

#[test]
fn collapsing_keeps_the_results_on_generated_programs() {
    let mut collapsed = 0;
    for seed in 1..=60 {
        let text = generated_program(seed);
        let program = lower("gen.c", &text, false);
        assert!(
            program
                .functions
                .iter()
                .any(|f| f.name == "main" && f.is_defined()),
            "seed {seed} lowers:\n{text}"
        );
        let with = andersen(&program, true);
        let without = andersen(&program, false);
        collapsed += assert_same(&format!("seed {seed}"), &program, &with, &without);
    }
    assert!(collapsed > 0, "no generated program had a collapsed cycle");
}

/// `t = q + 1; r = t; q = r - 1;` is a cycle of two shifts by one field (8 bytes) and a
/// copy: `q` holds `&s.a`, `t` and `r` hold `&s.b`. Collapsing the cycle as if it were
/// plain copies would give all three `{&s.a, &s.b}`, so `*r = w` would store `&x` into
/// `s.a` too. The copy cycle `u -> v -> w -> u` next to it is collapsed.
const FIELD_CYCLE: &str = "struct S { int *a; int *b; int *c; };\n\
struct S s;\n\
int x, y;\n\
int main(int n) {\n\
    int **q = &s.a;\n\
    int **t = q + 1;\n\
    int **r = t;\n\
    int *u = &x, *v = 0, *w = 0;\n\
    s.a = &y;\n\
    while (n-- > 0) {\n\
        t = q + 1;\n\
        r = t;\n\
        q = r - 1;\n\
        v = u;\n\
        w = v;\n\
        u = w;\n\
    }\n\
    *r = w;\n\
    int *pa = s.a;\n\
    *pa = 1;\n\
    int *pb = s.b;\n\
    *pb = 2;\n\
    return 0;\n\
}\n";

/// The globals written on a line of `main`.
fn globals_written(program: &Program, pts: &PointsTo, line: u32) -> Vec<String> {
    let (f, main) = program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "main")
        .expect("main");
    let mut names: Vec<String> = main
        .nodes
        .iter_enumerated()
        .filter(|(_, node)| node.span.start_line == line)
        .flat_map(|(n, _)| pts.accesses(f, n).to_vec())
        .filter(|a| a.kind == AccessKind::Write)
        .flat_map(|a| pts.part_objects[a.part.index()].clone())
        .filter_map(|o| match o {
            Object::Global(g) => Some(program.globals[g].name.clone()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[test]
fn a_cycle_through_a_field_offset_is_not_a_copy() {
    let program = lower("field.c", FIELD_CYCLE, false);
    let with = andersen(&program, true);
    let without = andersen(&program, false);
    let collapsed = assert_same("field cycle", &program, &with, &without);
    assert!(collapsed >= 2, "the copy cycle u, v, w is collapsed");
    // `*pa = 1` (line 20): `s.a` holds `&y` only.
    assert_eq!(globals_written(&program, &with, 20), vec!["y"]);
    // `*pb = 2` (line 22): `s.b` holds `&x`, stored by `*r = w`.
    assert_eq!(globals_written(&program, &with, 22), vec!["x"]);
}
