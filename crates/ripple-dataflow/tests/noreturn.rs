//! Which functions never return, and the control flow cut after their calls.

mod common;

use ripple_dataflow::noreturn::{cut_after_calls, never_returning, reachable_nodes};

const PROGRAM: &str = r#"
void exit(int);
void (*handler)(void);
/* Every path ends in exit: never returns. */
static void fail(int code) { if (code) exit(code); else exit(1); }
/* One path returns. */
static void warn(int code) { if (code) exit(code); }
/* Loops forever. */
static void spin(void) { for (;;) {} }
/* Mutual recursion without a way out: never returns. */
static void ping(int n);
static void pong(int n) { ping(n + 1); }
static void ping(int n) { pong(n - 1); }
/* Through a pointer: assumed to return. */
static void via_pointer(void) { handler(); exit(2); }
/* Calls a never-returning function on one path only. */
static int check(int x) { if (x < 0) fail(3); return x; }
int main(void) { via_pointer(); return check(1); }
"#;

#[test]
fn inferred_from_every_path() {
    let program = common::lower_file("t.c", PROGRAM, false);
    let never = never_returning(&program);
    let of = |name: &str| {
        let (id, _) = program
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == name)
            .unwrap();
        never[id.index()]
    };
    // exit is a library function that does not return; fail ends in it on both paths,
    // spin loops, ping and pong only call each other, via_pointer ends in exit (the
    // call through the pointer may return, exit then runs), and main calls via_pointer
    // first.
    for name in [
        "exit",
        "fail",
        "spin",
        "ping",
        "pong",
        "via_pointer",
        "main",
    ] {
        assert!(of(name), "{name} never returns");
    }
    // warn returns when code is 0; check returns for x >= 0.
    for name in ["warn", "check"] {
        assert!(!of(name), "{name} may return");
    }
}

#[test]
fn the_statements_after_a_cut_call_are_unreachable() {
    let mut program = common::lower_file("t.c", PROGRAM, false);
    let cut = cut_after_calls(&mut program);
    assert!(!cut.is_empty());
    assert!(ripple_ir::validate_program(&program).is_empty());
    // main calls via_pointer, which never returns: `return check(1)` is unreachable.
    let (main_id, main) = program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "main")
        .unwrap();
    assert!(cut.iter().any(|(f, _)| *f == main_id));
    let reachable = reachable_nodes(main);
    let check_call = main
        .nodes
        .iter_enumerated()
        .find(|(_, n)| {
            n.direct_callee()
                .is_some_and(|g| program.functions[g].name == "check")
        })
        .map(|(id, _)| id)
        .expect("the call of check");
    assert!(!reachable[check_call.index()]);
}
