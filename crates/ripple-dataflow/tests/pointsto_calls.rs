//! What reaches functions from calls the program does not spell out: variadic
//! arguments (each variadic function's own `va_list` area, not one pool shared with
//! external memory) and callbacks (a comparator passed to `qsort` gets pointers into
//! the array `qsort` was given).

mod common;

use std::collections::BTreeSet;

use ripple_dataflow::pointsto::{object_name, AccessKind};
use ripple_dataflow::{PointsTo, PointsToConfig, PointsToMode};
use ripple_ir::Program;

/// The names of the objects read by the nodes on `line`, under Andersen.
fn reads(program: &Program, line: u32) -> BTreeSet<String> {
    let config = PointsToConfig {
        mode: Some(PointsToMode::Andersen),
        ..PointsToConfig::default()
    };
    let pts = PointsTo::analyze(program, &config);
    accessed(program, &pts, line, AccessKind::Read)
}

/// The names of the objects the nodes on `line` access in the way `kind`.
fn accessed(program: &Program, pts: &PointsTo, line: u32, kind: AccessKind) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            if node.span.start_line != line {
                continue;
            }
            for access in pts.accesses(f, n) {
                if access.kind == kind {
                    for &object in &pts.part_objects[access.part.index()] {
                        names.insert(object_name(program, object));
                    }
                }
            }
        }
    }
    names
}

const PROGRAM: &str = "typedef __builtin_va_list va_list;\n\
void qsort(void *, unsigned long, unsigned long, int (*)(const void *, const void *));\n\
int g1, g2, g3;\n\
int first_a(int n, ...) { va_list ap; __builtin_va_start(ap, n); int *p = __builtin_va_arg(ap, int *); __builtin_va_end(ap); return *p; }\n\
int first_b(int n, ...) { va_list ap; __builtin_va_start(ap, n); int *p = __builtin_va_arg(ap, int *); __builtin_va_end(ap); return *p; }\n\
static int cmp(const void *a, const void *b) { return **(int *const *)a - **(int *const *)b; }\n\
int main(void) {\n\
    int *arr[2] = { &g3, &g3 };\n\
    qsort(arr, 2, sizeof arr[0], cmp);\n\
    return first_a(1, &g1) + first_b(1, &g2);\n\
}\n";

#[test]
fn each_variadic_function_reads_only_the_arguments_passed_to_it() {
    // first_a is only given &g1 and first_b only &g2: `*p` in each reads its own.
    let program = common::lower_file("a.c", PROGRAM, false);
    let a = reads(&program, 4);
    let b = reads(&program, 5);
    assert!(a.contains("g1") && !a.contains("g2"), "{a:?}");
    assert!(b.contains("g2") && !b.contains("g1"), "{b:?}");
}

#[test]
fn a_callback_gets_pointers_into_what_the_external_was_given() {
    // qsort calls cmp with pointers to elements of `arr`, which hold &g3: cmp's double
    // dereference reads `arr` and g3.
    let program = common::lower_file("a.c", PROGRAM, false);
    let read = reads(&program, 6);
    assert!(read.contains("g3"), "{read:?}");
    assert!(read.iter().any(|r| r.starts_with("arr")), "{read:?}");
}

#[test]
fn unknown_code_calls_the_functions_stored_in_what_it_is_given() {
    // `install` is unknown to the analysis (as `sigaction` is: the handler travels in a
    // struct): it may call `handler`, whose read of `seen` is then that of a function
    // the program runs, and whose callers include the call of `install`.
    let text = "struct action { void (*handler)(int); int flags; };\n\
                int install(int sig, const struct action *act);\n\
                int seen;\n\
                static void handler(int sig) { seen = seen + sig; }\n\
                int main(void) {\n\
                    struct action a = { handler, 0 };\n\
                    install(10, &a);\n\
                    return seen;\n\
                }\n";
    let program = common::lower_file("a.c", text, false);
    let main = program.function_by_name("main").expect("main");
    let handler = program.function_by_name("handler").expect("handler");
    let call = program.functions[main]
        .nodes
        .iter_enumerated()
        .find(|(_, node)| node.span.start_line == 7 && node.direct_callee().is_some())
        .map(|(n, _)| n)
        .expect("the call of install");
    // Unification (the mode of the largest programs) too: there only what may hold a
    // function pointer passes callbacks, and a struct with one as a member may.
    for mode in [PointsToMode::Andersen, PointsToMode::Unification] {
        let config = PointsToConfig {
            mode: Some(mode),
            ..PointsToConfig::default()
        };
        let pts = PointsTo::analyze(&program, &config);
        assert_eq!(pts.callbacks(main, call), &[handler], "{mode:?}");
    }
}

/// `program` analysed by Andersen's analysis and by unification.
fn both_analyses(program: &Program) -> Vec<(PointsToMode, PointsTo)> {
    [PointsToMode::Andersen, PointsToMode::Unification]
        .into_iter()
        .map(|mode| {
            let config = PointsToConfig {
                mode: Some(mode),
                ..PointsToConfig::default()
            };
            (mode, PointsTo::analyze(program, &config))
        })
        .collect()
}

/// A library function called through a pointer (a table of system calls, as sqlite3's
/// `aSyscall`) does to its arguments what a direct call does: `read` through `myread`
/// writes `buf`, under both analyses. Without it, a backward slice from `buf[0]` missed
/// the call that fills the buffer.
#[test]
fn a_library_function_called_through_a_pointer_writes_what_it_is_given() {
    let program = common::lower_file(
        "a.c",
        "long read(int, void *, unsigned long);\n\
         typedef long (*rd_t)(int, void *, unsigned long);\n\
         static rd_t myread = read;\n\
         int f(int fd) {\n\
             char buf[8];\n\
             myread(fd, buf, sizeof buf);\n\
             return buf[0];\n\
         }\n",
        false,
    );
    for (mode, pts) in both_analyses(&program) {
        let written = accessed(&program, &pts, 6, AccessKind::Write);
        assert!(
            written.iter().any(|o| o.contains("buf")),
            "{mode:?}: {written:?}"
        );
    }
}

/// A library function that never returns, called through a pointer (`exit` stored as a
/// handler), may stop the program: `f` may not return, so what follows the call depends
/// on whether it does.
#[test]
fn a_library_exit_called_through_a_pointer_may_stop_the_program() {
    let program = common::lower_file(
        "a.c",
        "void exit(int);\n\
         typedef void (*handler_t)(int);\n\
         static handler_t handler = exit;\n\
         int g;\n\
         void f(int x) { if (x) handler(1); g = 2; }\n\
         void h(int x) { g = x; }\n",
        false,
    );
    for (mode, pts) in both_analyses(&program) {
        let modref = ripple_dataflow::ModRef::compute(&program, &pts);
        let index = |name: &str| {
            program
                .functions
                .iter()
                .position(|f| f.name == name)
                .expect("the function is lowered")
        };
        assert!(modref.may_stop[index("f")], "{mode:?}");
        assert!(!modref.may_stop[index("h")], "{mode:?}");
    }
}

/// A table of handlers of two shapes, called through casts to each shape. The call
/// `as_io(fd, buf)` passes an integer first: calling `open_db(struct db *, char *)`
/// with it is undefined behaviour (C11 6.5.2.2p9), so `open_db`'s `name` never holds
/// `buf`, and `last[0]` (line 10) reads only what `as_db` passes, never `buf`;
/// `read_io`'s `dst` does get `buf` (line 5 writes it). Under both analyses (unification
/// merges what it merges: only Andersen is held to the first).
#[test]
fn a_call_through_a_pointer_binds_only_functions_its_arguments_fit() {
    let program = common::lower_file(
        "a.c",
        "typedef void (*any_fn)(void);\n\
         struct db { char *name; };\n\
         struct db the_db;\n\
         char *last;\n\
         static void read_io(int fd, char *dst) { dst[0] = (char)fd; }\n\
         static void open_db(struct db *d, char *name) { d->name = name; last = name; }\n\
         any_fn table[2] = { (any_fn)read_io, (any_fn)open_db };\n\
         void as_io(int i, int fd) { char buf[4]; ((void (*)(int, char *))table[i])(fd, buf); }\n\
         void as_db(int i, char *n) { ((void (*)(struct db *, char *))table[i])(&the_db, n); }\n\
         char h(void) { return last[0]; }\n",
        false,
    );
    for (mode, pts) in both_analyses(&program) {
        let io = accessed(&program, &pts, 5, AccessKind::Write);
        assert!(io.iter().any(|o| o.starts_with("buf")), "{mode:?}: {io:?}");
        if mode == PointsToMode::Andersen {
            let read = accessed(&program, &pts, 10, AccessKind::Read);
            assert!(
                !read.iter().any(|o| o.starts_with("buf")),
                "{mode:?}: {read:?}"
            );
        }
    }
}

/// When no function a pointer may hold fits a call's arguments, the call is taken at
/// its word and every target is bound: `keep_pair` takes two arguments and is called
/// with one, yet its `a` holds `buf`, and `kept[0]` (line 6) reads it.
#[test]
fn a_call_no_target_fits_binds_every_target() {
    let program = common::lower_file(
        "a.c",
        "typedef void (*any_fn)(void);\n\
         char *kept;\n\
         static void keep_pair(char *a, char *b) { kept = a; (void)b; }\n\
         any_fn only = (any_fn)keep_pair;\n\
         void f(void) { char buf[4]; ((void (*)(char *))only)(buf); }\n\
         char g(void) { return kept[0]; }\n",
        false,
    );
    for (mode, pts) in both_analyses(&program) {
        let read = accessed(&program, &pts, 6, AccessKind::Read);
        assert!(
            read.iter().any(|o| o.starts_with("buf")),
            "{mode:?}: {read:?}"
        );
    }
}

/// `read` fills the buffer it is given and keeps no pointer to it (unlike an unknown
/// function, which may store its arguments where any later external result reads them
/// back): the string `getenv` returns is the library's, never `buf` (line 4).
/// `unknown(buf)` in `g` does let `buf` escape, and `getenv`'s result may then be it.
#[test]
fn a_buffer_given_to_read_does_not_escape() {
    let text = "long read(int, void *, unsigned long);\n\
                char *getenv(const char *);\n\
                void unknown(char *);\n\
                int f(int fd) { char buf[8]; read(fd, buf, 8); char *e = getenv(\"X\"); return e[0]; }\n\
                int g(void) { char mine[8]; unknown(mine); char *e = getenv(\"Y\"); return e[0]; }\n";
    let program = common::lower_file("a.c", text, false);
    let f = reads(&program, 4);
    assert!(!f.iter().any(|o| o.starts_with("buf")), "{f:?}");
    let g = reads(&program, 5);
    assert!(g.iter().any(|o| o.starts_with("mine")), "{g:?}");
}
