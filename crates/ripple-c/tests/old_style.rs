//! C89 forms (implicit int, K&R parameter lists with any declarator, calls without
//! prototypes), GNU labels as values and computed goto, calls read as casts, and the
//! rule that code which cannot be read is kept as an explicit over-approximation.
//! Each snippet is lowered and validated; the expected structure is reasoned in the
//! comments. Interpreter agreement with gcc is checked by the conformance corpus
//! (`tests/corpus/knr_promotions.c`, `computed_goto.c`, `cast_or_call.c`).

use ripple_c::{lower_units, FrontendConfig, Lowered, Severity, TranslationUnit};
use ripple_ir::{
    validate_program, ApproximationKind, Callee, ExprKind, FloatKind, Function, InitItem, IntKind,
    LocalKind, NodeKind, Program, Type, TypeId,
};

fn lower(src: &str) -> Lowered {
    let unit = TranslationUnit {
        path: "t.c".into(),
        text: src.into(),
        line_map: None,
    };
    let lowered = lower_units(&[unit], &FrontendConfig::default());
    let errors = validate_program(&lowered.program);
    assert!(errors.is_empty(), "invalid IR: {errors:?}");
    lowered
}

fn errors(l: &Lowered) -> Vec<String> {
    l.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message))
        .collect()
}

fn func<'p>(program: &'p Program, name: &str) -> &'p Function {
    let id = program.function_by_name(name).expect("function exists");
    &program.functions[id]
}

/// (return type, parameter types, prototyped) of a function.
fn signature(program: &Program, name: &str) -> (TypeId, Vec<TypeId>, bool) {
    match program.types.get(func(program, name).ty) {
        Type::Function {
            ret,
            params,
            prototyped,
            ..
        } => (*ret, params.clone(), *prototyped),
        other => panic!("not a function type: {other:?}"),
    }
}

fn is_int(program: &Program, ty: TypeId, kind: IntKind) -> bool {
    program.types.get(ty) == &Type::Int(kind)
}

fn local_type(f: &Function, name: &str) -> TypeId {
    f.locals.iter().find(|v| v.name == name).expect("local").ty
}

#[test]
fn implicit_int_definitions_and_declarations() {
    let l = lower(
        "extern exit_here();\n\
         static x;\n\
         static skip(n) { register i; i = n; return i + x; }\n\
         main(argc, argv) int argc; char **argv; { return skip(argc); }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let p = &l.program;
    // `static skip(n)`: returns int, one int parameter (no declaration: int), old-style.
    let (ret, params, prototyped) = signature(p, "skip");
    assert!(is_int(p, ret, IntKind::Int));
    assert_eq!(params.len(), 1);
    assert!(is_int(p, params[0], IntKind::Int));
    assert!(!prototyped);
    assert!(is_int(p, local_type(func(p, "skip"), "i"), IntKind::Int));
    // `main(argc, argv) int argc; char **argv;`: the K&R declarations give the types.
    let (ret, params, _) = signature(p, "main");
    assert!(is_int(p, ret, IntKind::Int));
    assert!(is_int(p, params[0], IntKind::Int));
    let pointee = p.types.pointee(params[1]).expect("char **");
    let char_ty = p.types.pointee(pointee).expect("char *");
    assert!(is_int(p, char_ty, IntKind::Char));
    // `extern exit_here();` declares an int function; `static x;` an int.
    let (ret, _, prototyped) = signature(p, "exit_here");
    assert!(is_int(p, ret, IntKind::Int) && !prototyped);
    let x = p.globals.iter().find(|g| g.name == "x").expect("x");
    assert!(is_int(p, x.ty, IntKind::Int));
}

#[test]
fn knr_declarations_may_start_with_a_qualifier() {
    // `byvalue(a, b) const void *a, *b; {...}`: an implicit-int K&R definition whose
    // parameter declarations start with `const` (a qsort comparison in 1990s style). The
    // qualifier belongs to the declarations, not to the declarator `byvalue(a, b)`.
    let l = lower(
        "int byvalue();\n\
         byvalue(a, b)\n\
         \tconst void *a, *b;\n\
         { return *(const int *)a - *(const int *)b; }\n\
         f(s) volatile char *s; { return *s; }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let p = &l.program;
    let (ret, params, _) = signature(p, "byvalue");
    assert!(is_int(p, ret, IntKind::Int));
    assert_eq!(params.len(), 2);
    assert!(p.types.pointee(params[0]).is_some());
    let (_, params, _) = signature(p, "f");
    assert!(is_int(
        p,
        p.types.pointee(params[0]).unwrap(),
        IntKind::Char
    ));
    assert!(func(p, "byvalue").is_defined());
}

#[test]
fn knr_lists_take_any_declarator() {
    let l = lower(
        "typedef struct ele { int v; } Ele;\n\
         Ele *new_ele(n)\n\
         int n;\n\
         { static Ele e; e.v = n; return &e; }\n\
         char *(*pick(a))() int a; { return 0; }\n\
         int sum(n, a, cb) int n; int a[]; int (*cb)(); { return cb(a[n]); }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let p = &l.program;
    // `Ele *new_ele(n)`: a pointer to the record, one int parameter.
    let (ret, params, _) = signature(p, "new_ele");
    assert!(matches!(
        p.types.get(p.types.pointee(ret).unwrap()),
        Type::Record(_)
    ));
    assert!(is_int(p, params[0], IntKind::Int));
    // `char *(*pick(a))()`: returns a pointer to a function returning `char *`.
    let (ret, params, _) = signature(p, "pick");
    let inner = p.types.pointee(ret).expect("pointer to function");
    assert!(matches!(p.types.get(inner), Type::Function { .. }));
    assert!(is_int(p, params[0], IntKind::Int));
    // `int a[]` is adjusted to `int *`, `int (*cb)()` stays a function pointer.
    let (_, params, _) = signature(p, "sum");
    assert!(is_int(p, p.types.pointee(params[1]).unwrap(), IntKind::Int));
    assert!(matches!(
        p.types.get(p.types.pointee(params[2]).unwrap()),
        Type::Function { .. }
    ));
    // The moved declarations are not lowered as locals of the body.
    assert_eq!(
        func(p, "sum")
            .locals
            .iter()
            .filter(|v| v.name == "n")
            .count(),
        1
    );
}

#[test]
fn knr_parameters_receive_promoted_arguments() {
    let l = lower(
        "int narrow(c, f) char c; float f; { return c + (int) f; }\n\
         int f();\n\
         int use(void) { char c = 3; float x = 1.5f; return narrow(c, x) + f(c, x); }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let p = &l.program;
    // Callers pass the default promotions (int, double); the callee converts them to
    // its declared `char` and `float` at the entry.
    let (_, params, prototyped) = signature(p, "narrow");
    assert!(!prototyped);
    assert!(is_int(p, params[0], IntKind::Int));
    assert_eq!(p.types.get(params[1]), &Type::Float(FloatKind::Double));
    let narrow = func(p, "narrow");
    let param_types: Vec<TypeId> = narrow.params.iter().map(|&v| narrow.locals[v].ty).collect();
    assert_eq!(param_types, params);
    let declared = |name: &str| {
        narrow
            .locals
            .iter()
            .find(|v| v.name == name && v.kind == LocalKind::Declared)
            .expect("declared local")
            .ty
    };
    assert!(is_int(p, declared("c"), IntKind::Char));
    assert_eq!(p.types.get(declared("f")), &Type::Float(FloatKind::Float));
    // Both calls in `use` pass (int, double).
    let user = func(p, "use");
    let mut calls = 0;
    for node in &user.nodes {
        if let NodeKind::Call {
            callee: Callee::Direct(_),
            args,
            ..
        } = &node.kind
        {
            calls += 1;
            assert!(is_int(p, args[0].ty, IntKind::Int));
            assert_eq!(p.types.get(args[1].ty), &Type::Float(FloatKind::Double));
        }
    }
    assert_eq!(calls, 2);
}

#[test]
fn rewritten_lines_and_columns_stay_those_of_the_source() {
    // `int ` is inserted before `skip` and the K&R declaration moved into the body:
    // the diagnostic for `nope` must still name line 3, column 10 of the original.
    let l = lower("static skip(n)\nint n;\n{ return nope + n; }\n");
    assert_eq!(errors(&l), vec!["t.c:3:10: undeclared identifier `nope`"]);
    let l = lower("static skip(n) { return n + nope; }\n");
    assert_eq!(errors(&l), vec!["t.c:1:29: undeclared identifier `nope`"]);
}

#[test]
fn computed_goto_branches_to_every_address_taken_label() {
    let l = lower(
        "int run(int op) {\n\
           static void *table[] = {&&inc, &&dbl, &&done};\n\
           int acc = 1;\n\
           void *next = &&inc;\n\
           goto *next;\n\
         inc: acc++; goto *table[op];\n\
         dbl: acc *= 2; goto *table[2];\n\
         done: return acc;\n\
         }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let p = &l.program;
    let f = func(p, "run");
    // Three `goto *` with three address-taken labels: two comparisons each (the last
    // label is taken when no other matched).
    let branches: Vec<_> = f
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Branch { .. }))
        .collect();
    assert_eq!(branches.len(), 6);
    // The table holds the labels' addresses: distinct non-null constants.
    let table = p.globals.iter().find(|g| g.name == "table").expect("table");
    let values: Vec<u128> = table
        .init
        .as_ref()
        .expect("initialized")
        .items
        .iter()
        .map(|item| match item {
            InitItem::Value { value, .. } => match value.kind {
                ExprKind::Int(v) => v,
                ref other => panic!("not a constant: {other:?}"),
            },
            other => panic!("unexpected item {other:?}"),
        })
        .collect();
    assert_eq!(values, vec![1, 2, 3]);
    assert!(p.approximations.is_empty(), "{:?}", p.approximations);
}

#[test]
fn a_parenthesized_call_is_not_a_cast() {
    // `(SQR(s*ak))*rd(...)` reads as a cast of `*rd(...)` to the "type" `SQR(s*ak)`;
    // with `SQR` a declared function it is a product of two calls, divided by 3.
    let l = lower(
        "double SQR(double);\n\
         double rd(double, double, double);\n\
         double f(double s, double ak, double cc, double q) {\n\
           double x;\n\
           x = (SQR(s*ak))*rd(cc,q,1.0)/3.0;\n\
           return x;\n\
         }\n",
    );
    assert!(errors(&l).is_empty(), "{:?}", errors(&l));
    let f = func(&l.program, "f");
    let calls = f
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Call { .. }))
        .count();
    assert_eq!(calls, 2);
}

#[test]
fn definitions_swallowed_by_a_syntax_error_are_kept() {
    // The error in `bad` makes the parser's recovery absorb `ok2` into it: the
    // definition is read again alone.
    let l = lower(
        "int ok1(int a) { return a + 1; }\n\
         int bad(int *p, int n) {\n\
           for (int i = 0; i < n; i++ { p[i] = @@ ; }\n\
           return n ]];\n\
         }\n\
         int ok2(int b) { return bad(&b, b) + ok1(b); }\n",
    );
    let p = &l.program;
    for name in ["ok1", "bad", "ok2"] {
        assert!(func(p, name).is_defined(), "{name} is missing");
    }
    let ok2 = func(p, "ok2");
    let calls = ok2
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Call { .. }))
        .count();
    assert_eq!(calls, 2);
    assert!(!errors(&l).is_empty());
}

#[test]
fn a_definition_that_cannot_be_lowered_is_a_havoc_with_its_signature() {
    // `h` is defined like a function but is not one: it stays, with the prototype's
    // signature and a body that is one havoc, recorded as an approximation.
    let l = lower("int h(int x);\nint h { return x; }\nint use(int a) { return h(a); }\n");
    assert!(!errors(&l).is_empty());
    let p = &l.program;
    let h = func(p, "h");
    assert!(h.is_defined());
    assert_eq!(h.params.len(), 1);
    assert!(h.ret_var.is_some());
    let havocs = h
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Havoc { dst: Some(_), .. }))
        .count();
    assert_eq!(havocs, 1);
    let id = p.function_by_name("h");
    assert!(p.approximations.iter().any(|a| a.function == id
        && a.kind == ApproximationKind::Unsupported
        && a.detail.contains("could not be read")));
}

#[test]
fn only_definitions_have_identifier_lists() {
    // In a declaration, `word_t` without its typedef is a missing type, not a name.
    let l = lower("int f(word_t);\nint g(n) { return n; }\n");
    assert_eq!(errors(&l), vec!["t.c:1:7: unknown type name `word_t`"]);
}
