//! Per-construct lowering tests: each snippet is lowered, validated, and checked for
//! the structure the lowering must produce.

use ripple_c::{lower_units, FrontendConfig, Lowered, Severity, TranslationUnit};
use ripple_ir::{
    validate_program, ApproximationKind, Callee, Function, InitItem, IntKind, Intrinsic, NodeKind,
    Place, Program, Storage, Type,
};

fn lower(src: &str) -> Lowered {
    lower_many(&[("t.c", src)])
}

fn lower_many(units: &[(&str, &str)]) -> Lowered {
    let units: Vec<TranslationUnit> = units
        .iter()
        .map(|(path, text)| TranslationUnit {
            path: (*path).to_string(),
            text: (*text).to_string(),
            line_map: None,
        })
        .collect();
    let lowered = lower_units(&units, &FrontendConfig::default());
    let errors = validate_program(&lowered.program);
    assert!(errors.is_empty(), "invalid IR: {errors:?}");
    lowered
}

fn func<'p>(program: &'p Program, name: &str) -> &'p Function {
    let id = program.function_by_name(name).expect("function exists");
    &program.functions[id]
}

fn count(f: &Function, pred: impl Fn(&NodeKind) -> bool) -> usize {
    f.nodes.iter().filter(|n| pred(&n.kind)).count()
}

fn branches(f: &Function) -> usize {
    count(f, |k| matches!(k, NodeKind::Branch { .. }))
}

fn errors(l: &Lowered) -> Vec<String> {
    l.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect()
}

#[test]
fn simple_function_has_entry_exit_and_return() {
    let l = lower("int add(int a, int b) { return a + b; }");
    assert!(errors(&l).is_empty());
    let f = func(&l.program, "add");
    assert!(matches!(f.nodes[f.entry].kind, NodeKind::Entry));
    assert_eq!(f.entry.index(), 0);
    assert!(matches!(f.nodes[f.exit].kind, NodeKind::Exit));
    assert_eq!(f.params.len(), 2);
    assert!(f.ret_var.is_some());
    assert_eq!(count(f, |k| matches!(k, NodeKind::Assign { .. })), 1);
}

#[test]
fn main_falling_off_returns_zero() {
    let l = lower("int main(void) { int x = 1; x++; }");
    let f = func(&l.program, "main");
    let ret = f.ret_var.unwrap();
    let assigns_ret = f.nodes.iter().any(|n| {
        matches!(&n.kind, NodeKind::Assign { dst: ripple_ir::Place::Local(v), value } if *v == ret && value.kind == ripple_ir::ExprKind::Int(0))
    });
    assert!(assigns_ret);
}

#[test]
fn logical_and_makes_branches() {
    let l = lower("int f(int a, int b) { if (a && b) return 1; return 0; }");
    assert_eq!(branches(func(&l.program, "f")), 2);
    let l = lower("int f(int a, int b) { int c = a || b; return c; }");
    assert_eq!(branches(func(&l.program, "f")), 2);
}

#[test]
fn switch_is_a_chain_of_branches() {
    let l = lower(
        "int f(int x) { switch (x) { case 1: x = 5; case 2: x++; break; case 3 ... 6: x--; default: x = 0; } return x; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert_eq!(branches(func(&l.program, "f")), 3);
}

#[test]
fn loops_and_goto() {
    let l = lower(
        "int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i == 3) continue; s += i; }
           while (n > 0) n--; do { s++; } while (s < 10);
           again: if (s < 20) { s++; goto again; } return s; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert_eq!(branches(func(&l.program, "f")), 5);
}

#[test]
fn address_taken_locals_live_in_memory() {
    let l = lower("void g(int *p); int f(void) { int a = 1, b = 2; int arr[3]; g(&a); return a + b + arr[0]; }");
    let f = func(&l.program, "f");
    let storage = |name: &str| f.locals.iter().find(|v| v.name == name).unwrap().storage;
    assert_eq!(storage("a"), Storage::Memory);
    assert_eq!(storage("b"), Storage::Register);
    assert_eq!(storage("arr"), Storage::Memory);
}

#[test]
fn struct_fields_have_offsets_and_bit_fields() {
    let l = lower(
        "struct s { char c; int i; struct { short x; } ; unsigned b : 3; } g;
         int f(struct s *p) { p->b = 5; return p->i + p->x + g.c; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let t = &l.program.types;
    let rec = t
        .records
        .iter()
        .find(|r| r.tag.as_deref() == Some("s"))
        .unwrap();
    assert_eq!(rec.fields[1].offset, 4);
    assert_eq!(rec.fields[2].offset, 8);
    let f = func(&l.program, "f");
    assert!(f.nodes.iter().any(|n| matches!(
        &n.kind,
        NodeKind::Assign {
            dst: ripple_ir::Place::Bits { width: 3, .. },
            ..
        }
    )));
}

#[test]
fn string_literals_become_globals() {
    let l = lower(
        "int printf(const char *, ...); int main(void) { printf(\"hi %d\\n\", 3); return 0; }",
    );
    let g = l
        .program
        .globals
        .iter()
        .find(|g| g.key.starts_with(".str."))
        .expect("string global");
    assert!(g.is_const);
    let Some(init) = &g.init else {
        panic!("no init")
    };
    assert_eq!(
        init.items,
        vec![InitItem::Bytes {
            offset: 0,
            bytes: b"hi %d\n\0".to_vec()
        }]
    );
    let f = func(&l.program, "main");
    assert_eq!(
        count(f, |k| matches!(
            k,
            NodeKind::Call {
                callee: Callee::Direct(_),
                ..
            }
        )),
        1
    );
}

#[test]
fn statics_are_keyed_per_unit_and_function() {
    let l = lower_many(&[
        ("a.c", "static int s = 1; int shared; static int helper(void) { return s; } int fa(void) { static int n; return ++n + helper(); }"),
        ("b.c", "static int s = 2; extern int shared; static int helper(void) { return s; } int fa(void); int fb(void) { return fa() + helper() + shared; }"),
    ]);
    let keys: Vec<&str> = l.program.globals.iter().map(|g| g.key.as_str()).collect();
    assert!(keys.contains(&"a.c:s"));
    assert!(keys.contains(&"b.c:s"));
    assert!(keys.contains(&"a.c:fa:n"));
    assert_eq!(keys.iter().filter(|k| **k == "shared").count(), 1);
    assert!(l.program.function_by_key("a.c:helper").is_some());
    assert!(l.program.function_by_key("b.c:helper").is_some());
    // fa is one function, defined in a.c, called from b.c.
    let fa = l.program.function_by_key("fa").unwrap();
    assert!(l.program.functions[fa].is_defined());
    let fb = func(&l.program, "fb");
    assert!(fb.nodes.iter().any(|n| n.direct_callee() == Some(fa)));
}

#[test]
fn asm_setjmp_and_unknown_builtins_are_approximated() {
    let l = lower(
        "typedef long jmp_buf[8]; int setjmp(jmp_buf); jmp_buf jb;
         int f(int x) { __asm__(\"nop\"); if (setjmp(jb)) return 1; return __builtin_frobnicate(x); }",
    );
    let kinds: Vec<ApproximationKind> = l.program.approximations.iter().map(|a| a.kind).collect();
    assert!(kinds.contains(&ApproximationKind::InlineAsm));
    assert!(kinds.contains(&ApproximationKind::Setjmp));
    assert!(kinds.contains(&ApproximationKind::UnknownBuiltin));
    let f = func(&l.program, "f");
    assert_eq!(count(f, |k| matches!(k, NodeKind::Havoc { .. })), 3);
}

/// An assembly statement's operands: each input (and an in-out output's value) is
/// stored in a memory temporary before the havoc, which reads all memory, and each
/// output is written from a havoc of its own after it.
#[test]
fn asm_reads_its_inputs_and_writes_its_outputs() {
    let l = lower(
        "int f(int a, int b) { int lo, hi = b;
           __asm__(\"op\" : \"=r\"(lo), \"+r\"(hi) : \"r\"(a), \"r\"(a + b));
           return lo + hi; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "f");
    // One havoc for the statement, one per output.
    assert_eq!(count(f, |k| matches!(k, NodeKind::Havoc { .. })), 3);
    // Three values stored in memory temporaries: hi (in-out), a and a + b.
    let spills = count(f, |k| {
        matches!(
            k,
            NodeKind::Assign {
                dst: Place::Mem { .. },
                ..
            }
        )
    });
    assert_eq!(spills, 3);
    // lo and hi are each assigned the value of an output havoc.
    let havocked: Vec<ripple_ir::VarId> = f
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Havoc {
                dst: Some(Place::Local(v)),
                ..
            } => Some(*v),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = f
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Assign {
                dst: Place::Local(v),
                value,
            } => match value.kind {
                ripple_ir::ExprKind::Local(w) if havocked.contains(&w) => {
                    Some(f.locals[*v].name.as_str())
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(names, ["lo", "hi"]);
    // Still one approximation for the statement.
    let asm = l
        .program
        .approximations
        .iter()
        .filter(|a| a.kind == ApproximationKind::InlineAsm)
        .count();
    assert_eq!(asm, 1);
}

/// `asm goto` may jump to each of its labels: the return after `fail` is reachable
/// from the assembly only through such a branch.
#[test]
fn asm_goto_may_jump_to_its_labels() {
    let l = lower(
        "int f(int x) { __asm__ goto(\"jmp %l0\" : : : : fail); return x; fail: return -1; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "f");
    assert_eq!(branches(f), 1);
    // Both returns are reachable from the entry: the fall-through and the jump.
    let mut reach = vec![false; f.nodes.len()];
    let mut stack = vec![0usize];
    while let Some(n) = stack.pop() {
        if !std::mem::replace(&mut reach[n], true) {
            stack.extend(f.nodes[n.into()].succs.iter().map(|s| s.index()));
        }
    }
    let returns = f
        .nodes
        .iter()
        .zip(&reach)
        .filter(|(n, &r)| {
            r && matches!(&n.kind, NodeKind::Assign { dst: Place::Local(v), .. }
                if f.locals[*v].name == "<return>")
        })
        .count();
    assert_eq!(returns, 2);
}

#[test]
fn va_builtins_become_intrinsics() {
    let l = lower(
        "int sum(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n); int s = 0;
           while (n--) s += __builtin_va_arg(ap, int); __builtin_va_end(ap); return s; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "sum");
    for intr in [Intrinsic::VaStart, Intrinsic::VaArg, Intrinsic::VaEnd] {
        assert!(f.nodes.iter().any(
            |n| matches!(&n.kind, NodeKind::Call { callee: Callee::Intrinsic(i), .. } if *i == intr)
        ));
    }
    assert_eq!(
        l.program
            .types
            .size_of(f.locals.iter().find(|v| v.name == "ap").unwrap().ty),
        24
    );
}

#[test]
fn va_arg_with_a_pointer_type_lowers_in_any_position() {
    // The grammar reads `(__builtin_va_arg(ap, int *))` as a cast to a function type.
    let l = lower(
        "void put(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n);
           *(__builtin_va_arg(ap, int *)) = n; *__builtin_va_arg(ap, long *) = 1;
           __builtin_va_end(ap); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "put");
    let types = &l.program.types;
    let pointees: Vec<Type> = f
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Call {
                callee: Callee::Intrinsic(Intrinsic::VaArg),
                dst: Some(ripple_ir::Place::Local(v)),
                ..
            } => types.pointee(f.locals[*v].ty).map(|t| types.get(t).clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        pointees,
        vec![Type::Int(IntKind::Int), Type::Int(IntKind::Long)]
    );
    // Both results are stored through.
    let stores = count(f, |k| {
        matches!(
            k,
            NodeKind::Assign {
                dst: ripple_ir::Place::Mem { .. },
                ..
            }
        )
    });
    assert_eq!(stores, 2);
}

#[test]
fn parenthesized_variable_before_and_and_short_circuits() {
    // `ALWAYS(p) && g(p) != 0` with `#define ALWAYS(X) (X)`: the grammar reads a cast of
    // `&&g(p)` to the type `p`, then `!= 0`.
    let l = lower(
        "int g(int *p); int f(int *p) { if ((p) && g(p) != 0) return 1; return 0; }
         int h(int *p) { int r = (p) && g(p) != 0; return r; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    for name in ["f", "h"] {
        let f = func(&l.program, name);
        assert_eq!(branches(f), 2, "{name}");
        let calls = count(f, |k| matches!(k, NodeKind::Call { .. }));
        assert_eq!(calls, 1, "{name}");
        // The call is reached only when `p` is non-null: its node follows a branch.
        let call = f
            .nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::Call { .. }))
            .unwrap();
        let preds: Vec<&ripple_ir::Node> = f
            .nodes
            .iter()
            .filter(|n| n.succs.iter().any(|s| s.index() == call))
            .collect();
        assert!(
            preds
                .iter()
                .all(|n| matches!(n.kind, NodeKind::Branch { .. })),
            "{name}"
        );
    }
}

#[test]
fn typedef_casts_read_as_calls_apply_after_postfix_operators() {
    // `(u32)(x)[0]` is parsed as `((u32)(x))[0]`; C reads `(u32)((x)[0])`.
    let l = lower(
        "typedef unsigned int u32; typedef unsigned char u8;
         u32 f(u8 *x) { return (u32)(x)[0] << 24; }
         unsigned long g(int a) { return (unsigned long)(u32)(a); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert!(l.program.approximations.is_empty());
}

#[test]
fn casts_of_calls_through_parenthesized_pointers_are_not_calls_of_casts() {
    // `(u8)(*(p->f))(x)` is parsed as a call of `(u8)(*(p->f))`; C casts the call.
    let l = lower(
        "typedef unsigned char u8; typedef long (*fn)(void *); struct s { fn f; };
         u8 g(struct s *p, void *x) { return (u8)(*(p->f))(x) + (u8)(p->f)(x); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let g = func(&l.program, "g");
    assert_eq!(count(g, |k| matches!(k, NodeKind::Call { .. })), 2);
}

#[test]
fn global_initializers_are_constant_items() {
    let l = lower(
        "struct p { int x, y; }; int a[] = {1, [4] = 5}; struct p pts[2] = { {1, 2}, { .y = 7 } };
         char s[] = \"ab\"; int *pa = &a[2]; int n = sizeof(a) / sizeof(a[0]); int bad = n;",
    );
    let g = |key: &str| l.program.globals.iter().find(|g| g.key == key).unwrap();
    assert_eq!(l.program.types.size_of(g("a").ty), 20);
    assert_eq!(l.program.types.size_of(g("s").ty), 3);
    let items = &g("pts").init.as_ref().unwrap().items;
    assert_eq!(items.len(), 3);
    assert!(matches!(&items[2], InitItem::Value { offset: 12, .. }));
    let n = &g("n").init.as_ref().unwrap().items;
    assert!(
        matches!(&n[0], InitItem::Value { value, .. } if value.kind == ripple_ir::ExprKind::Int(5))
    );
    assert!(l
        .program
        .approximations
        .iter()
        .any(|a| a.kind == ApproximationKind::NonConstantInitializer));
}

#[test]
fn usual_arithmetic_conversions_are_explicit() {
    let l = lower("unsigned f(unsigned char c, int i, unsigned u) { return c + i < u; }");
    // The IR validator checks equal operand types; the comparison is unsigned.
    let f = func(&l.program, "f");
    assert_eq!(count(f, |k| matches!(k, NodeKind::Assign { .. })), 1);
}

#[test]
fn implicit_declaration_warns() {
    let l = lower("int main(void) { return foo(1); }");
    assert!(l
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.message.contains("foo")));
    let foo = func(&l.program, "foo");
    assert!(!foo.is_defined());
    assert!(matches!(
        l.program.types.get(foo.ty),
        Type::Function {
            prototyped: false,
            ..
        }
    ));
}

#[test]
fn parse_errors_give_diagnostics_and_havoc() {
    let l = lower("int f(int x) {\n  x = 1;\n  x = = 2 +;\n  return x;\n}\n");
    assert!(l
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error && d.line == 3));
    let f = func(&l.program, "f");
    assert!(f.is_defined());
    assert!(l
        .program
        .approximations
        .iter()
        .any(|a| a.kind == ApproximationKind::ParseError));
}

/// GNU assembler names of variables (`register int r0 __asm__("r0") = x;`, gzip's
/// dfltcc.c) are read as the declarations they name: the initializer after one was a
/// syntax error. An `asm` statement after `else` stays a statement.
#[test]
fn assembler_names_of_variables_are_read() {
    let l = lower(
        "register int g0 asm(\"r12\");\nint f(int x) {\n  register int r0 __asm__(\"r0\") = x, r1 __asm (\"r1\");\n  int a[2] asm(\"a\") = {1, 2};\n  if (x) r1 = 1; else asm(\"nop\");\n  return r0 + a[1] + r1;\n}\n",
    );
    let errors: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let f = func(&l.program, "f");
    for name in ["r0", "r1", "a"] {
        assert!(f.locals.iter().any(|v| v.name == name), "{name}");
    }
    assert!(l
        .program
        .approximations
        .iter()
        .any(|a| a.kind == ApproximationKind::InlineAsm));
}

/// A jump to a label no statement defines is reported at the jump (line 3), not at
/// the start of the function.
#[test]
fn a_label_never_defined_is_reported_where_it_is_used() {
    let l = lower("int f(int x) {\n  if (x)\n    goto out2;\n  return 1;\nout:\n  return 0;\n}\n");
    let found: Vec<(u32, u32)> = l
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("label `out2` used but not defined"))
        .map(|d| (d.line, d.col))
        .collect();
    assert_eq!(found, vec![(3, 10)], "{:?}", l.diagnostics);
}

#[test]
fn syntax_tree_and_fingerprint_ignore_layout() {
    let a = lower("int f(int x) { /* c */ return x + 1; }");
    let b = lower("int f(int x)\n{\n    return x+1;   // other\n}\n");
    let fa = func(&a.program, "f");
    let fb = func(&b.program, "f");
    assert_eq!(fa.fingerprint, fb.fingerprint);
    let syn = fa.syntax.as_ref().unwrap();
    assert!(syn
        .nodes
        .iter()
        .any(|n| n.kind == "return_statement" && n.is_statement));
    assert!(syn.nodes.iter().all(|n| n.kind != "comment"));
    assert!(fa.nodes.iter().any(|n| n.syn.is_some()));
}

#[test]
fn pointer_arithmetic_is_scaled() {
    let l = lower("long f(int *p, int *q) { p = p + 2; return q - p; }");
    let dump = ripple_ir::dump_program(&l.program);
    assert!(dump.contains("+p 8"), "{dump}");
    assert!(dump.contains("-p"), "{dump}");
}

/// `src` preprocessed by `gcc -E` (with the system headers it includes) and lowered.
fn lower_preprocessed(name: &str, src: &str) -> Lowered {
    let dir = std::env::temp_dir().join(format!("ripple-c-test-{}-{name}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let c = dir.join("t.c");
    std::fs::write(&c, src).expect("the temporary directory is writable");
    let out = std::process::Command::new("gcc")
        .arg("-E")
        .arg(&c)
        .output()
        .expect("gcc -E preprocesses the test program (gcc is required)");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line_map = Some(ripple_c::LineMap::from_preprocessed(&text, str::to_string));
    let units = [TranslationUnit {
        path: "t.c".into(),
        text,
        line_map,
    }];
    lower_units(&units, &FrontendConfig::default())
}

#[test]
fn gcc_preprocessed_headers_lower_without_errors() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <stdarg.h>\n\
               int main(void) { char buf[32]; snprintf(buf, sizeof buf, \"%d\", 42); puts(buf); return (int)strlen(buf) - 2; }\n";
    let l = lower_preprocessed("stdio", src);
    assert!(validate_program(&l.program).is_empty());
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let main = func(&l.program, "main");
    assert!(main.is_defined());
    assert!(l.program.files.iter().any(|f| f.path.ends_with("stdio.h")));
}

/// The SSE headers subscript and cast vector types (`((__v2df)__A)[0]`): every one of
/// their inline functions reads without an error, and a vector subscript is a load of
/// the lane, not a havoc.
#[test]
fn vector_types_of_the_sse_headers_lower_without_errors() {
    let src = "#include <emmintrin.h>\n\
               double first(__m128d a) { return ((__v2df)a)[0]; }\n\
               double low(__m128d a) { return _mm_cvtsd_f64(a); }\n";
    let l = lower_preprocessed("sse", src);
    assert!(validate_program(&l.program).is_empty());
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    for name in ["first", "low", "_mm_cvtsd_f64"] {
        let f = func(&l.program, name);
        assert_eq!(
            count(f, |k| matches!(k, NodeKind::Havoc { .. })),
            0,
            "{name}"
        );
    }
    let m128d = l
        .program
        .types
        .records
        .iter()
        .find(|r| r.tag.as_deref() == Some("<vector of 2 double>"))
        .expect("a vector of two doubles");
    assert_eq!((m128d.size, m128d.align), (16, 16));
}

/// The integer a global is initialized with (as stored bits).
fn global_int(l: &Lowered, key: &str) -> u128 {
    let g = l
        .program
        .globals
        .iter()
        .find(|g| g.key == key)
        .unwrap_or_else(|| panic!("global {key}"));
    match &g.init.as_ref().expect("initialized").items[..] {
        [InitItem::Value { value, .. }] => match value.kind {
            ripple_ir::ExprKind::Int(v) => v,
            ref k => panic!("{key}: not an integer constant: {k:?}"),
        },
        [] => 0,
        items => panic!("{key}: {items:?}"),
    }
}

#[test]
fn constant_expressions_fold_conditionals_and_logic() {
    let l = lower(
        "enum { A = ((0) < 8 ? ((1 << (0)) << 8) : ((1 << (0)) >> 8)),
                B = ((9) < 8 ? 1 : ((1 << (9)) >> 8)),
                C = (1 && 2) + (0 || 0) * 10 + (0 && undefined_name),
                D = (sizeof(int) == 4 ? (unsigned char)300 : -1),
                E = (1 > 2) || !(3 <= 2) };
         int a = A, b = B, c = C, d = D, e = E;
         int f(int x) { return x ? 1 : 2; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert_eq!(global_int(&l, "a"), 256);
    assert_eq!(global_int(&l, "b"), 2);
    assert_eq!(global_int(&l, "c"), 1);
    assert_eq!(global_int(&l, "d"), 44);
    assert_eq!(global_int(&l, "e"), 1);
    // A non-constant condition still branches.
    assert_eq!(branches(func(&l.program, "f")), 1);
}

#[test]
fn bool_type_is_one_byte_and_converts_to_zero_or_one() {
    let l = lower(
        "_Bool b1 = 256; _Bool b2 = 0.5; unsigned long s = sizeof(_Bool);
         int f(int x) { _Bool b = x; return b; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert_eq!(global_int(&l, "b1"), 1);
    assert_eq!(global_int(&l, "b2"), 1);
    assert_eq!(global_int(&l, "s"), 1);
}

/// Whether the global `name` of `l` is a constant.
fn global_is_const(l: &Lowered, name: &str) -> bool {
    l.program
        .globals
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("{name}"))
        .is_const
}

#[test]
fn statics_nothing_writes_are_constants() {
    // A static that no statement stores to and whose address is only read through holds
    // its initializer in every run; one written, or whose address is kept, passed or
    // stored in an initializer, does not; a global of external linkage may be written by
    // code outside the program.
    let l = lower(
        "static int a = 5; static int b = 5; static int c; static int d[4] = {1, 2, 3, 4};
         int e = 1; static struct { int x; } s; static int g; int *tab[] = {&g};
         static int h; static int m;
         void w(void) { b = 1; s.x = 2; }
         int *p(void) { return &c; }
         int r(int i) { static int once = 1; static int seen = 0; seen = once; return a + d[i] + e + h + (&m)[0]; }
         void q(int *x) { (void)x; } void pass(void) { q(&h); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let is_const = |name: &str| global_is_const(&l, name);
    for name in ["a", "d", "once", "m"] {
        assert!(is_const(name), "{name} is never written");
    }
    for name in ["b", "c", "e", "s", "g", "h", "seen"] {
        assert!(!is_const(name), "{name} may be written");
    }
}

#[test]
fn only_const_objects_are_const_globals() {
    let l = lower(
        "static const char *pos; const int k = 1; char *const cp = 0; const char *arr[2];
         const int tab[2] = {1, 2}; const char *const cc = 0;
         int f(void) { static const char *sp; static const int sk = 2; sp = pos; pos = 0; return sk; }",
    );
    let is_const = |name: &str| global_is_const(&l, name);
    assert!(!is_const("pos"));
    assert!(is_const("k"));
    assert!(is_const("cp"));
    assert!(!is_const("arr"));
    assert!(is_const("tab"));
    assert!(is_const("cc"));
    assert!(!is_const("sp"));
    assert!(is_const("sk"));
}

#[test]
fn float_classification_builtins_are_expressions() {
    let l = lower(
        "int f(double x, float y) {
           return __builtin_isinf_sign(x) + __builtin_isnan(y) + __builtin_isinf(x)
             + __builtin_isfinite(y) + __builtin_signbit(x)
             + __builtin_fpclassify(0, 1, 4, 3, 2, x) + __builtin_isnormal(y)
             + __builtin_isless(x, y) + __builtin_isunordered(x, 1);
         }
         double g(void) { return __builtin_huge_val() + __builtin_inff() + __builtin_nan(\"\"); }
         double inf = __builtin_inf(); float nanf_ = __builtin_nanf(\"\");",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    for name in ["f", "g"] {
        let f = func(&l.program, name);
        assert_eq!(
            count(f, |k| matches!(k, NodeKind::Call { .. })),
            0,
            "{name}"
        );
    }
    assert!(l.program.approximations.is_empty());
    assert!(l
        .program
        .functions
        .iter()
        .all(|f| !f.name.starts_with("__builtin")));
}

#[test]
fn string_literals_are_keyed_by_content_and_merged() {
    let src_old = "int puts(const char *); void a(void) { puts(\"x\"); }
                   void b(void) { puts(\"y\"); puts(\"x\"); }";
    let src_new = "int puts(const char *); void a(void) { puts(\"new\"); puts(\"x\"); }
                   void b(void) { puts(\"y\"); puts(\"x\"); }";
    let keys = |l: &Lowered| {
        let mut k: Vec<(String, Vec<u8>)> = l
            .program
            .globals
            .iter()
            .filter(|g| g.key.starts_with(".str."))
            .map(|g| match &g.init.as_ref().unwrap().items[..] {
                [InitItem::Bytes { bytes, .. }] => (g.key.clone(), bytes.clone()),
                _ => panic!(),
            })
            .collect();
        k.sort();
        k
    };
    let old = keys(&lower(src_old));
    let new = keys(&lower(src_new));
    // "x" appears twice but is one global.
    assert_eq!(old.len(), 2);
    assert_eq!(new.len(), 3);
    for entry in &old {
        assert!(new.contains(entry), "{entry:?} kept its key");
    }
    // Same bytes, different element type: different globals.
    let l = lower("unsigned short *p = u\"\"; char *q = \"\\0\";");
    assert_eq!(keys(&l).len(), 2);
}

#[test]
fn syntax_errors_are_reported_where_the_parse_failed() {
    let l = lower("int good(int x) { return x + 1; }\n\nint bad( { ]]] @@ ;\n");
    let errs = errors(&l);
    assert!(!errs.is_empty());
    assert!(errs[0].starts_with("t.c:3:"), "{errs:?}");
    assert!(func(&l.program, "good").is_defined());
    // Through a preprocessed unit: the original file and line.
    let text = "# 1 \"main.c\"\nint good(int x) { return x; }\n# 1 \"inc.h\" 1\nint ok;\n# 7 \"main.c\" 2\nint bad( { ]]] @@ ;\n";
    let unit = TranslationUnit::preprocessed("main.c".into(), text, str::to_string);
    let l = lower_units(&[unit], &FrontendConfig::default());
    let errs = errors(&l);
    assert!(errs[0].starts_with("main.c:7:"), "{errs:?}");
}

#[test]
fn variable_length_arrays_scale_by_run_time_sizes() {
    let l = lower(
        "int trace(int n, int m[n][n]) { int t = 0; for (int i = 0; i < n; i++) t += m[i][i]; return t; }
         unsigned long f(int n) { int a[n][n + 1]; a[1][2] = 3; return sizeof a[0]; }
         unsigned long g(int n) { return sizeof(int[n][2]); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let trace = func(&l.program, "trace");
    let m = trace.params[1];
    let Type::Pointer(row) = l.program.types.get(trace.locals[m].ty) else {
        panic!("pointer parameter")
    };
    assert!(matches!(
        l.program.types.get(*row),
        Type::Array { len: None, .. }
    ));
    // The row size is computed at entry: n * 4.
    let mul_by_local = |f: &Function| {
        f.nodes.iter().any(|n| {
            let mut found = false;
            if let NodeKind::Assign { value, .. } = &n.kind {
                value.walk(&mut |e| {
                    if let ripple_ir::ExprKind::Binary(ripple_ir::BinOp::Mul, _, r) = &e.kind {
                        found |= matches!(
                            r.kind,
                            ripple_ir::ExprKind::Cast(_) | ripple_ir::ExprKind::Local(_)
                        );
                    }
                });
            }
            found
        })
    };
    assert!(mul_by_local(trace));
    for name in ["f", "g"] {
        let f = func(&l.program, name);
        let ret = f.ret_var.unwrap();
        let constant_ret = f.nodes.iter().any(|n| {
            matches!(&n.kind, NodeKind::Assign { dst: ripple_ir::Place::Local(v), value }
                if *v == ret && matches!(value.kind, ripple_ir::ExprKind::Int(_)))
        });
        assert!(!constant_ret, "{name}: sizeof is computed at run time");
    }
}

#[test]
fn switch_without_braces_in_a_block_lowers() {
    // The grammar reads `switch (x)` as an error and the case statement as swallowing
    // `return x;`; the body is only `x = 5;`.
    let l = lower("int f(int x) {\n  switch (x) case 1: case 2: x = 5;\n  return x;\n}\n");
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert!(l.program.approximations.is_empty());
    let f = func(&l.program, "f");
    // One compare per case; the return is reached from the body and past the switch.
    assert_eq!(branches(f), 2);
    let returns = count(
        f,
        |k| matches!(k, NodeKind::Assign { dst: ripple_ir::Place::Local(v), .. } if Some(*v) == f.ret_var),
    );
    assert_eq!(returns, 1);
}

#[test]
fn switch_without_braces_elsewhere_is_a_precise_grammar_error() {
    let l = lower("int f(int x) {\n  while (x)\n    switch (x) default: x--;\n  return 0;\n}\n");
    let errs = errors(&l);
    assert!(
        errs[0].starts_with("t.c:3:") && errs[0].contains("without braces"),
        "{errs:?}"
    );
}

#[test]
fn parenthesized_variable_minus_product_is_a_subtraction() {
    let l = lower(
        "enum { X = 10 }; typedef int T;
         int v = (X) - 2 * 3; int w = (X) - 2 * 3 + 4 * 5; int u = (X) * 2 - 1;
         int t = (T) - 2 * 3;",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert_eq!(global_int(&l, "v"), 4);
    assert_eq!(global_int(&l, "w"), 24);
    assert_eq!(global_int(&l, "u"), 19);
    assert_eq!(global_int(&l, "t") as u32 as i32, -6);
}

#[test]
fn several_programs_in_one_directory_keep_every_definition() {
    // Both units define `main` and an external `helper`: nothing is dropped. The first
    // unit's definitions keep the plain keys; the second's are keyed by their unit, and
    // b.c's main calls b.c's helper.
    let l = lower_many(&[
        (
            "a.c",
            "int helper(void) { return 1; }\nint main(void) { return helper(); }\n",
        ),
        (
            "b.c",
            "int helper(void) { return 2; }\nint main(void) { return helper(); }\n",
        ),
    ]);
    let p = &l.program;
    let key = |k: &str| {
        p.function_by_key(k)
            .unwrap_or_else(|| panic!("no function {k}"))
    };
    for k in ["main", "helper", "b.c:main", "b.c:helper"] {
        assert!(p.functions[key(k)].is_defined(), "{k} is defined");
    }
    let calls: Vec<_> = p.functions[key("b.c:main")]
        .nodes
        .iter()
        .filter_map(|n| n.direct_callee())
        .collect();
    assert_eq!(calls, vec![key("b.c:helper")]);
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
}

#[test]
fn gnu_signed_keyword_in_preprocessed_headers() {
    // `__signed__` (Linux asm headers) is GCC's spelling of `signed`.
    let text = "# 1 \"t.h\"\ntypedef __signed__ char s8;\ns8 f(void) { return -1; }\n";
    let unit = TranslationUnit::preprocessed("t.c".into(), text, str::to_string);
    let l = lower_units(&[unit], &FrontendConfig::default());
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "f");
    assert_eq!(
        l.program.types.display(f.return_type(&l.program.types)),
        "signed char"
    );
}

#[test]
fn gnu_attributes_in_declarators_are_accepted() {
    // GCC accepts attributes after a declarator's `*` and after a prototype; the grammar
    // does not, so they are dropped before parsing (packed is kept: it changes layout).
    let l = lower(
        "static char * __attribute__ ((__malloc__)) make (void) { return 0; }\n\
         void panic (const char *s, ...) __attribute__ ((__format__ (__printf__, 1, 2)));\n\
         struct __attribute__((packed)) p { char c; int i; };\n\
         int size(void) { return sizeof(struct p); }\n\
         static char buf[64] __attribute__((aligned(16)));\n\
         struct q { char c; int i __attribute__((aligned(8))); } var __attribute__((__aligned__(16))) = {1, 2};\n\
         int local(void) { int v __attribute__((aligned(8))) = 3, w __attribute__((aligned)); return v + buf[0] + var.i; }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    // `aligned` after the declarator of a variable is dropped before parsing (the
    // grammar takes no attribute there); every variable is read.
    for name in ["buf", "var"] {
        assert!(
            l.program.globals.iter().any(|g| g.name.ends_with(name)),
            "{name}"
        );
    }
    assert!(func(&l.program, "make").is_defined());
    let rec = l
        .program
        .types
        .records
        .iter()
        .find(|r| r.tag.as_deref() == Some("p"))
        .unwrap();
    assert_eq!(rec.size, 5, "packed: no padding between c and i");
}

#[test]
fn integer_builtins_lower_to_exact_expressions() {
    let l = lower(
        "int bits(unsigned x, unsigned long y, long long z) {
           return __builtin_clz(x) + __builtin_ctzl(y) + __builtin_popcountll(z)
             + __builtin_parity(x) + __builtin_ffsll(z) + __builtin_clrsbl(y)
             + (int)__builtin_bswap64(y) + __builtin_bswap16(x) + __builtin_bswap32(x); }
         int ov(long a, unsigned b, short *r) { int s; unsigned long long u;
           return __builtin_add_overflow(a, b, r) + __builtin_smul_overflow(a, 3, &s)
             + __builtin_umulll_overflow(a, b, &u) + __builtin_sub_overflow_p(a, b, (char)0); }
         int at(int *p, long *q) { int e = 1; __atomic_store_n(p, 2, 5); __sync_synchronize();
           long v = __atomic_load_n(q, 2) + __sync_fetch_and_add(q, 1)
             + __atomic_exchange_n(p, 3, 5) + __atomic_nand_fetch(q, 6, 5);
           return v + __atomic_compare_exchange_n(p, &e, 4, 0, 5, 5)
             + __sync_bool_compare_and_swap(q, 1, 2); }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert!(
        l.program.approximations.is_empty(),
        "{:?}",
        l.program.approximations
    );
    for name in ["bits", "ov", "at"] {
        let f = func(&l.program, name);
        assert_eq!(
            count(f, |k| matches!(k, NodeKind::Call { .. })),
            0,
            "{name}"
        );
        assert_eq!(
            count(f, |k| matches!(k, NodeKind::Havoc { .. })),
            0,
            "{name}"
        );
    }
    assert!(l
        .program
        .functions
        .iter()
        .all(|f| !f.name.starts_with("__builtin") && !f.name.starts_with("__atomic")));
    // The exact results are computed in 128 bits: unsigned for the unsigned product.
    let ov = func(&l.program, "ov");
    let wide: Vec<IntKind> = ov
        .locals
        .iter()
        .filter_map(|v| l.program.types.int_kind(v.ty))
        .filter(|k| k.bits() == 128)
        .collect();
    assert_eq!(
        wide,
        vec![
            IntKind::Int128,
            IntKind::Int128,
            IntKind::UInt128,
            IntKind::Int128
        ]
    );
    // The overflow builtins store through their destination pointer.
    let stores = count(ov, |k| {
        matches!(
            k,
            NodeKind::Assign {
                dst: ripple_ir::Place::Mem { .. },
                ..
            }
        )
    });
    assert_eq!(stores, 3);
    // Both compare-and-swap forms branch on the comparison.
    assert_eq!(branches(func(&l.program, "at")), 2);
}

#[test]
fn integer_builtins_fold_on_constants() {
    let l = lower(
        "int pop = __builtin_popcount(0xf0f0u);
         int clz = __builtin_clzll(1ull << 40);
         int clz0 = __builtin_clz(0u);
         int ctz8 = __builtin_ctzg((unsigned char)0);
         int ctzfb = __builtin_ctzg((unsigned short)0, -5);
         int ctzv = __builtin_ctzg((unsigned short)0x80, -5);
         int clzg8 = __builtin_clzg((unsigned char)1);
         int pop128 = __builtin_popcountg(~(unsigned __int128)0);
         int clrsb = __builtin_clrsb(-1);
         int clrsb1 = __builtin_clrsbll(1);
         int ffs = __builtin_ffsll(1ll << 63);
         int ffs0 = __builtin_ffs(0);
         int par = __builtin_parityl(7ul);
         unsigned short sw16 = __builtin_bswap16(0xabcd);
         unsigned long long sw = __builtin_bswap64(0x0102030405060708ull);
         unsigned __int128 sw128 = __builtin_bswap128((unsigned __int128)0x0102);
         int ovp = __builtin_mul_overflow_p(1ul << 32, 1ul << 32, (unsigned long)0);
         int ovn = __builtin_add_overflow_p(-1, 1u, (unsigned char)0);
         int ovs = __builtin_sub_overflow_p(0u, 1u, (unsigned)0);
         int ovm = __builtin_mul_overflow_p(-1, 0xffffffffffffffffull, (__int128)0);
         int ovu = __builtin_mul_overflow_p(-1, 1, (unsigned __int128)0);",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    assert!(l.program.approximations.is_empty());
    let int = |v: i32| u128::from(v as u32);
    let expected: [(&str, u128); 21] = [
        ("pop", 8),
        ("clz", 23),
        ("clz0", 32),
        ("ctz8", 8),
        ("ctzfb", int(-5)),
        ("ctzv", 7),
        ("clzg8", 7),
        ("pop128", 128),
        ("clrsb", 31),
        ("clrsb1", 62),
        ("ffs", 64),
        ("ffs0", 0),
        ("par", 1),
        ("sw16", 0xcdab),
        ("sw", 0x0807_0605_0403_0201),
        ("sw128", 0x0201 << 112),
        ("ovp", 1),
        ("ovn", 0),
        ("ovs", 1),
        ("ovm", 0),
        ("ovu", 1),
    ];
    for (key, value) in expected {
        assert_eq!(global_int(&l, key), value, "{key}");
    }
}

#[test]
fn overflow_builtins_on_128_bit_operands_stay_approximated() {
    let l = lower(
        "int f(__int128 a, long b, long *r) { return __builtin_add_overflow(a, b, r); }
         __int128 g(__int128 x) { return x; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let kinds: Vec<ApproximationKind> = l.program.approximations.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        vec![
            ApproximationKind::UnknownBuiltin,
            ApproximationKind::UnknownBuiltin
        ]
    );
    // The destination and the flag are havocked.
    let f = func(&l.program, "f");
    assert_eq!(count(f, |k| matches!(k, NodeKind::Havoc { .. })), 2);
    let g = func(&l.program, "g");
    assert_eq!(
        l.program
            .types
            .int_kind(g.locals.iter().next().expect("a parameter").ty),
        Some(IntKind::Int128)
    );
}

/// Erroneous records found by fuzzing: a nested redefinition of the tag being defined,
/// and a forward declaration of it inside its own body. Lowering reports the bad member
/// and ends (the record used to contain itself, and laying out its initializer
/// recursed without end).
#[test]
fn records_that_would_contain_themselves_are_reported() {
    let l = lower(
        "struct point { int a; struct point { int x, y; } inner; struct point; };\n\
         struct point p = { 1, { 2, 3 } };\n\
         int main(void) { return p.a; }\n",
    );
    let errs = errors(&l);
    assert!(
        errs.iter().any(|e| e.contains("incomplete type")),
        "{errs:?}"
    );
    func(&l.program, "main");
}

/// The inputs on which fuzzing the frontend (fuzz/) found a crash or invalid IR, kept in
/// fuzz/regressions: each lowers without a panic to valid IR (the `lower` helper
/// validates it). They include a record containing itself after a nested redefinition of
/// its tag, and statements with syntax errors whose recovery left a join node with two
/// successors.
#[test]
fn fuzz_regressions_lower_to_valid_ir() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        lower(&text);
    }
}

#[test]
fn constructors_run_after_the_entry_of_main_and_destructors_before_its_exit() {
    let l = lower(
        "int g;\n__attribute__((constructor)) static void init(void) { g = 1; }\n\
         static void __attribute__((__destructor__)) fini(void) { g = 2; }\n\
         int main(void) { if (g) return 1; return 0; }",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let main = func(&l.program, "main");
    let callee_name = |n: ripple_ir::NodeId| match &main.nodes[n].kind {
        NodeKind::Call {
            callee: Callee::Direct(f),
            ..
        } => Some(l.program.functions[*f].name.clone()),
        _ => None,
    };
    // The entry's successor calls init.
    let first = main.nodes[main.entry].succs[0];
    assert_eq!(callee_name(first).as_deref(), Some("init"));
    // The attribute may be on a declaration only, once.
    let l2 = lower(
        "int g;\nstatic void init(void) __attribute__((constructor));\n\
         static void init(void);\nstatic void init(void) { g = 1; }\n\
         int main(void) { return g; }",
    );
    let main2 = func(&l2.program, "main");
    let calls = main2
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Call { .. }))
        .count();
    assert_eq!(calls, 1);
    // Every edge into the exit comes from the call of fini.
    for (n, node) in main.nodes.iter_enumerated() {
        if node.succs.contains(&main.exit) {
            assert_eq!(callee_name(n).as_deref(), Some("fini"), "{n:?}");
        }
    }
}

#[test]
fn a_cleanup_attribute_calls_its_function_where_the_scope_is_left() {
    // `done(&x)` runs at the `return`, after its value is taken: the last node before
    // the exit calls `done` with the address of `x`, and nothing is approximated.
    let l = lower(
        "int g;\nstatic void done(int *p) { g = *p; }\n\
         int scope(int n) {\n  __attribute__((cleanup(done))) int x = n;\n  return x;\n}",
    );
    let scope = l.program.function_by_name("scope").expect("scope");
    let f = &l.program.functions[scope];
    let into_exit: Vec<&ripple_ir::Node> = f
        .nodes
        .iter()
        .filter(|n| n.succs.contains(&f.exit))
        .collect();
    assert_eq!(into_exit.len(), 1, "{f:?}");
    let NodeKind::Call {
        callee: Callee::Direct(done),
        args,
        ..
    } = &into_exit[0].kind
    else {
        panic!("{:?}", into_exit[0]);
    };
    assert_eq!(l.program.functions[*done].name, "done");
    assert!(
        matches!(&args[0].kind, ripple_ir::ExprKind::AddrOfLocal(v) if f.locals[*v].name == "x"),
        "{args:?}"
    );
    assert!(l
        .program
        .approximations
        .iter()
        .all(|a| a.function != Some(scope)));
    // A cleanup function that is not declared is not modelled: an approximation of
    // `scope`, and an error no semantic verdict rests on.
    let l = lower(
        "int scope(int n) {\n  int y;\n  __attribute__((cleanup(undeclared))) int x = n;\n  return x;\n}",
    );
    let scope = l.program.function_by_name("scope").expect("scope");
    assert!(l
        .program
        .approximations
        .iter()
        .any(|a| a.function == Some(scope)
            && a.detail.contains("cleanup")
            && a.span.start_line == 3));
    assert!(l
        .program
        .read_errors
        .iter()
        .any(|e| e.function == Some(scope) && e.span.start_line == 3));
}

/// Machine modes give the width (`DI`: 8 bytes, `QI`: 1, `TI`: 16, keeping signedness);
/// a vector mode (`V4SI`) is a vector of four `int` lanes, the same type as
/// `vector_size (16)` of `int`.
#[test]
fn machine_modes_give_integer_widths_and_vectors() {
    let l = lower(
        "typedef unsigned int UQI __attribute__((mode(QI)));\n\
         typedef int DI __attribute__((__mode__(__DI__)));\n\
         typedef int TI __attribute__((mode(TI)));\n\
         typedef int V4SI __attribute__((mode(V4SI)));\n\
         typedef int v4si __attribute__((vector_size(16)));\n\
         UQI q; DI d; TI t; V4SI m; v4si v;\n\
         int f(void) { m = v; return v[3] + m[0]; }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let ty = |name: &str| {
        let g = l
            .program
            .globals
            .iter()
            .find(|g| g.name == name)
            .expect("the global is lowered");
        g.ty
    };
    let types = &l.program.types;
    assert_eq!(types.display(ty("q")), "unsigned char");
    assert_eq!(types.display(ty("d")), "long");
    assert_eq!(types.size_of(ty("t")), 16);
    assert!(types.is_signed(ty("t")));
    // One vector type, so the assignment copies 16 bytes without a conversion.
    assert_eq!(ty("m"), ty("v"));
    assert_eq!(types.size_of(ty("m")), 16);
    let f = func(&l.program, "f");
    assert_eq!(count(f, |k| matches!(k, NodeKind::Havoc { .. })), 0);
}
