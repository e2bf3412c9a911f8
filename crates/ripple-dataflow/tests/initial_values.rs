//! Globals that still hold their initial value at a point: no write of them may run
//! before it in any run from `main`.

mod common;

use ripple_dataflow::{InitialValues, PointsTo, PointsToConfig};
use ripple_ir::{NodeId, Program};

/// The initial value of the 4-byte global `g` where the first node on `line` runs, if
/// known there.
fn known_at(text: &str, global: &str, line: u32) -> Option<u128> {
    let program: Program = common::lower_file("a.c", text, false);
    let pts = PointsTo::analyze(&program, &PointsToConfig::default());
    let mut values = InitialValues::new(&program, &pts)?;
    let (g, _) = program
        .globals
        .iter_enumerated()
        .find(|(_, x)| x.name == global)
        .expect("the global");
    let (f, n) = program
        .functions
        .iter_enumerated()
        .flat_map(|(f, function)| {
            function
                .nodes
                .iter_enumerated()
                .filter(|(_, node)| node.span.start_line == line)
                .map(move |(n, _)| (f, n))
        })
        .min_by_key(|&(_, n): &(_, NodeId)| n)
        .expect("a node on the line");
    values.value_at(g, 0, 4, (f, n))
}

/// `show` reads g on line 3, then writes it on line 4.
const SHOW: &str = "int g = 7;\n\
                    int show(void) {\n\
                    int r = g;\n\
                    g = 0;\n\
                    return r;\n\
                    }\n";

#[test]
fn a_read_before_every_write_sees_the_initial_value() {
    // show runs once: g is 7 on line 3.
    let text = format!("{SHOW}int main(void) {{ return show(); }}\n");
    assert_eq!(known_at(&text, "g", 3), Some(7));
    // After the write, nothing is known.
    assert_eq!(known_at(&text, "g", 5), None);
}

#[test]
fn a_second_call_sees_what_the_first_wrote() {
    // show is called twice: the second run of line 3 reads the 0 written by the first.
    let text = format!("{SHOW}int main(void) {{ return show() + show(); }}\n");
    assert_eq!(known_at(&text, "g", 3), None);
}

#[test]
fn a_write_in_a_callee_that_ran_before_counts() {
    // reset runs before line 4 (called on line 3), through a pointer too.
    let text = "int g = 7;\n\
                void reset(void) { g = 0; }\n\
                int main(void) { void (*f)(void) = reset; f();\n\
                return g;\n\
                }\n";
    assert_eq!(known_at(text, "g", 4), None);
}

#[test]
fn a_write_through_a_pointer_counts() {
    let text = "int g = 7;\n\
                void set(int *p) { *p = 0; }\n\
                int main(void) { set(&g);\n\
                return g;\n\
                }\n";
    assert_eq!(known_at(text, "g", 4), None);
}

#[test]
fn handlers_that_may_run_at_any_time_spoil_what_they_write() {
    // The atexit handler could run after any point (here: it runs after main returns,
    // but any library function keeping a callback may call it at any time).
    let text = "int atexit(void (*)(void));\n\
                int g = 7;\n\
                void bye(void) { g = 0; }\n\
                int main(void) { atexit(bye);\n\
                return g;\n\
                }\n";
    assert_eq!(known_at(text, "g", 5), None);
}

#[test]
fn zero_initialised_and_uninitialised_globals() {
    // A global without initialiser in a defined program is zero; line 3 reads it first.
    let text = "int g;\n\
                int main(void) {\n\
                return g;\n\
                }\n";
    assert_eq!(known_at(text, "g", 3), Some(0));
}

#[test]
fn without_main_nothing_is_known() {
    // A library's functions may be called in any order.
    let text = "int g = 7;\n\
                int get(void) {\n\
                return g;\n\
                }\n\
                void set(void) { g = 0; }\n";
    assert_eq!(known_at(text, "g", 3), None);
}
