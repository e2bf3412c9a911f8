//! SDG and slicing checks on small C programs.

mod common;

use ripple_dataflow::slice::{slice, SliceDirection};
use ripple_dataflow::{Sdg, SdgConfig, VertexKind};
use ripple_ir::Program;

fn lower(text: &str) -> Program {
    common::lower_file("a.c", text, false)
}

/// The source lines of the node vertices in a slice from the first node on `line`.
fn slice_lines(program: &Program, line: u32, direction: SliceDirection) -> Vec<u32> {
    let sdg = Sdg::build(program, &SdgConfig::default());
    let criteria: Vec<_> = (0..sdg.vertex_count())
        .map(|v| ripple_dataflow::VertexId(v as u32))
        .filter(|&v| {
            matches!(sdg.kinds[v.index()], VertexKind::Node(_))
                && sdg.span(program, v).start_line == line
        })
        .collect();
    let result = slice(&sdg, &criteria, direction);
    let mut lines: Vec<u32> = result
        .vertices()
        .into_iter()
        .filter(|v| matches!(sdg.kinds[v.index()], VertexKind::Node(_)))
        .map(|v| sdg.span(program, v).start_line)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

const CONTEXT: &str = "int id(int x) {\n\
    return x;\n\
}\n\
int g;\n\
int main(void) {\n\
    int a = 1;\n\
    int b = 2;\n\
    int p = id(a);\n\
    int q = id(b);\n\
    g = q;\n\
    if (p > 0)\n\
        g = 3;\n\
    return g;\n\
}\n";

#[test]
fn forward_slice_is_context_sensitive() {
    let program = lower(CONTEXT);
    let lines = slice_lines(&program, 6, SliceDirection::Forward);
    // a flows into p (through id) and controls line 12, but not into q (line 9, 10).
    assert!(lines.contains(&8), "{lines:?}");
    assert!(lines.contains(&2), "{lines:?}");
    assert!(lines.contains(&11), "{lines:?}");
    assert!(lines.contains(&12), "{lines:?}");
    assert!(!lines.contains(&9), "{lines:?}");
    assert!(!lines.contains(&10), "{lines:?}");
}

#[test]
fn backward_slice_is_context_sensitive() {
    let program = lower(CONTEXT);
    let lines = slice_lines(&program, 10, SliceDirection::Backward);
    assert!(lines.contains(&7), "{lines:?}");
    assert!(lines.contains(&9), "{lines:?}");
    assert!(lines.contains(&2), "{lines:?}");
    assert!(!lines.contains(&6), "{lines:?}");
}

const ORDER: &str = "int g;\n\
int get(void) {\n\
    return g;\n\
}\n\
void set(int *p) {\n\
    int before = *p;\n\
    *p = before + 1;\n\
}\n\
int main(void) {\n\
    int x = 1;\n\
    int a = x;\n\
    set(&x);\n\
    int b = x;\n\
    g = 5;\n\
    int c = get();\n\
    g = 6;\n\
    return a + b + c;\n\
}\n";

#[test]
fn memory_dependences_follow_the_order_of_execution() {
    let program = lower(ORDER);
    // The store on line 7 reaches the load after the call (13) and the final sum (17),
    // not the load before it (6), nor the load before the call (11).
    let lines = slice_lines(&program, 7, SliceDirection::Forward);
    assert!(lines.contains(&13) && lines.contains(&17), "{lines:?}");
    assert!(!lines.contains(&6), "{lines:?}");
    assert!(!lines.contains(&11), "{lines:?}");
    // The read of g in get (line 3) sees the store before the call (14), not the one
    // after it (16).
    let lines = slice_lines(&program, 3, SliceDirection::Backward);
    assert!(lines.contains(&14), "{lines:?}");
    assert!(!lines.contains(&16), "{lines:?}");
    // Backward from the load before the call: only the initialisation.
    let lines = slice_lines(&program, 11, SliceDirection::Backward);
    assert!(lines.contains(&10), "{lines:?}");
    assert!(!lines.contains(&7) && !lines.contains(&12), "{lines:?}");
}

#[test]
fn memory_dependences_cross_loop_back_edges() {
    let program = lower(
        "int sum(int *p, int n) {\n\
             int s = 0;\n\
             for (int i = 0; i < n; i++) {\n\
                 s += *p;\n\
                 *p = i;\n\
             }\n\
             return s;\n\
         }\n",
    );
    // The store on line 5 reaches the load on line 4 in the next iteration.
    let lines = slice_lines(&program, 4, SliceDirection::Backward);
    assert!(lines.contains(&5), "{lines:?}");
}

#[test]
fn callbacks_that_run_later_see_every_write() {
    // The handler registered on line 6 runs at exit and reads g as written on line 7,
    // after the registration: the region stays flow-insensitive.
    let program = lower(
        "int atexit(void (*f)(void));\n\
         int printf(const char *, ...);\n\
         int g;\n\
         void report(void) { printf(\"%d\\n\", g); }\n\
         int main(void) {\n\
             atexit(report);\n\
             g = 3;\n\
             return 0;\n\
         }\n",
    );
    let lines = slice_lines(&program, 7, SliceDirection::Forward);
    assert!(lines.contains(&4), "{lines:?}");
}

/// `h` is defined like a function but its definition cannot be read: the frontend keeps
/// it with a havoc body (it may read and write anything and return anything). Its
/// result must then depend on its argument, and its writes may reach any global read
/// after the call.
#[test]
fn an_unreadable_body_passes_its_arguments_to_its_result() {
    let text = "int h(int x);\n\
        int g;\n\
        int caller(int a) {\n\
            int b = a * 2;\n\
            int r = h(b);\n\
            int s = g;\n\
            int t = 5;\n\
            return r + s + t;\n\
        }\n\
        int h { return x; }\n";
    let program = lower(text);
    let h = program.function_by_name("h").expect("h is kept");
    assert!(program.functions[h].is_defined());
    let lines = slice_lines(&program, 4, SliceDirection::Forward);
    // b flows into h's havoc, whose result r is returned on line 8; the havoc may also
    // write g, read on line 6. Line 7 (a constant) is not reached.
    for line in [5, 6, 8, 10] {
        assert!(lines.contains(&line), "{lines:?}");
    }
    assert!(!lines.contains(&7), "{lines:?}");
}
