//! Unit tests on hand-built IR programs.

use ripple_ir::{
    BinOp, Callee, Expr, ExprKind, FileId, FloatKind, FuncId, Function, Global, GlobalInit,
    InitItem, IntKind, Intrinsic, Linkage, Local, LocalKind, Node, NodeId, NodeKind, Place,
    Program, Span, Storage, Type, TypeId, VarId,
};

use crate::libc::format::VarArgs;
use crate::{
    call_function, run_program, run_program_observed, CallResult, Interpreter, NodeEvent, Observer,
    RunConfig, Termination, Value,
};

fn span(line: u32) -> Span {
    Span::new(FileId(0), line, 1, line, 2)
}

/// Builds one function: entry is node 0, exit node 1; statements go in between.
struct Fb {
    f: Function,
}

impl Fb {
    fn new(program: &mut Program, name: &str, ret: TypeId, params: &[TypeId], varargs: bool) -> Fb {
        let ty = program.types.intern(Type::Function {
            ret,
            params: params.to_vec(),
            varargs,
            prototyped: true,
        });
        let mut f = Function {
            name: name.into(),
            key: name.into(),
            linkage: Linkage::External,
            ty,
            params: Vec::new(),
            ret_var: None,
            locals: Default::default(),
            nodes: Default::default(),
            entry: NodeId(0),
            exit: NodeId(1),
            span: span(1),
            syntax: None,
            fingerprint: 0,
            noreturn: false,
        };
        f.nodes.push(Node::new(NodeKind::Entry, span(1)));
        f.nodes.push(Node::new(NodeKind::Exit, span(1)));
        if !matches!(program.types.get(ret), Type::Void) {
            let v = f.locals.push(Local {
                name: "$ret".into(),
                ty: ret,
                kind: LocalKind::Return,
                storage: Storage::Register,
                span: span(1),
            });
            f.ret_var = Some(v);
        }
        let mut fb = Fb { f };
        for (i, &p) in params.iter().enumerate() {
            let v = fb.local(&format!("p{i}"), p, Storage::Register);
            fb.f.locals[v].kind = LocalKind::Param;
            fb.f.params.push(v);
        }
        fb
    }

    fn local(&mut self, name: &str, ty: TypeId, storage: Storage) -> VarId {
        self.f.locals.push(Local {
            name: name.into(),
            ty,
            kind: LocalKind::Declared,
            storage,
            span: span(1),
        })
    }

    fn ret(&self) -> VarId {
        self.f.ret_var.unwrap()
    }

    fn node(&mut self, kind: NodeKind, line: u32) -> NodeId {
        self.f.nodes.push(Node::new(kind, span(line)))
    }

    fn link(&mut self, from: NodeId, to: NodeId) {
        self.f.nodes[from].succs.push(to);
    }

    /// Entry -> kinds... -> exit.
    fn straight(mut self, kinds: Vec<NodeKind>) -> Function {
        let mut prev = NodeId(0);
        for (i, kind) in kinds.into_iter().enumerate() {
            let n = self.node(kind, i as u32 + 2);
            self.link(prev, n);
            prev = n;
        }
        self.link(prev, NodeId(1));
        self.f
    }
}

fn declare(
    program: &mut Program,
    name: &str,
    ret: TypeId,
    params: &[TypeId],
    varargs: bool,
) -> FuncId {
    let fb = Fb::new(program, name, ret, params, varargs);
    let mut f = fb.f;
    f.nodes = Default::default();
    f.ret_var = None;
    f.locals = Default::default();
    f.params.clear();
    program.add_function(f)
}

fn string_global(program: &mut Program, s: &str) -> Expr {
    let ch = program.types.int(IntKind::Char);
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    let ty = program.types.array_of(ch, Some(bytes.len() as u64));
    let id = program.globals.push(Global {
        name: format!(".str.{}", program.globals.len()),
        key: format!(".str.{}", program.globals.len()),
        linkage: Linkage::Internal(FileId(0)),
        ty,
        init: Some(GlobalInit {
            items: vec![InitItem::Bytes { offset: 0, bytes }],
        }),
        is_const: true,
        span: span(1),
    });
    let pch = program.types.pointer_to(ch);
    Expr::new(ExprKind::AddrOfGlobal(id), pch)
}

struct T {
    int: TypeId,
    long: TypeId,
    double: TypeId,
    pchar: TypeId,
    void: TypeId,
}

fn types(program: &mut Program) -> T {
    let ch = program.types.int(IntKind::Char);
    T {
        int: program.types.int(IntKind::Int),
        long: program.types.int(IntKind::Long),
        double: program.types.float(FloatKind::Double),
        pchar: program.types.pointer_to(ch),
        void: program.types.void(),
    }
}

fn int(v: i64, ty: TypeId) -> Expr {
    Expr::int(v as i128 as u128, ty)
}

fn assign(var: VarId, value: Expr) -> NodeKind {
    NodeKind::Assign {
        dst: Place::Local(var),
        value,
    }
}

fn run(program: &Program) -> crate::RunOutcome {
    run_program(program, &RunConfig::default())
}

#[test]
fn printf_and_exit_code() {
    let mut p = Program::default();
    let t = types(&mut p);
    let printf = declare(&mut p, "printf", t.int, &[t.pchar], true);
    let fmt = string_global(&mut p, "hello %d %.2f %s|%-4x|\n");
    let world = string_global(&mut p, "world");
    let main = Fb::new(&mut p, "main", t.int, &[], false);
    let ret = main.ret();
    let f = main.straight(vec![
        NodeKind::Call {
            dst: None,
            callee: Callee::Direct(printf),
            args: vec![
                fmt,
                int(42, t.int),
                Expr::new(ExprKind::Float(3.5), t.double),
                world,
                int(255, t.int),
            ],
        },
        assign(ret, int(259, t.int)),
    ]);
    p.add_function(f);
    let out = run(&p);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello 42 3.50 world|ff  |\n"
    );
    assert_eq!(out.termination, Termination::Exit(259));
    assert_eq!(out.exit_code(), Some(3));
}

#[test]
fn loop_with_branches() {
    // int s = 0; for (int i = 1; i <= 10; i++) s += i; return s;
    let mut p = Program::default();
    let t = types(&mut p);
    let mut m = Fb::new(&mut p, "main", t.int, &[], false);
    let (s, i, ret) = (
        m.local("s", t.int, Storage::Register),
        m.local("i", t.int, Storage::Register),
        m.ret(),
    );
    let a = m.node(assign(s, int(0, t.int)), 2);
    let b = m.node(assign(i, int(1, t.int)), 3);
    let cond = Expr::binary(BinOp::Le, Expr::local(i, t.int), int(10, t.int), t.int);
    let c = m.node(NodeKind::Branch { cond }, 4);
    let d = m.node(
        assign(
            s,
            Expr::binary(
                BinOp::Add,
                Expr::local(s, t.int),
                Expr::local(i, t.int),
                t.int,
            ),
        ),
        5,
    );
    let e = m.node(
        assign(
            i,
            Expr::binary(BinOp::Add, Expr::local(i, t.int), int(1, t.int), t.int),
        ),
        6,
    );
    let r = m.node(assign(ret, Expr::local(s, t.int)), 7);
    m.link(NodeId(0), a);
    m.link(a, b);
    m.link(b, c);
    m.link(c, d);
    m.link(c, r);
    m.link(d, e);
    m.link(e, c);
    m.link(r, NodeId(1));
    p.add_function(m.f);
    let out = run(&p);
    assert_eq!(out.termination, Termination::Exit(55));

    struct Count(usize, usize);
    impl Observer for Count {
        fn on_node(&mut self, event: &NodeEvent<'_>) {
            self.0 += 1;
            self.1 += event.reads.len();
        }
    }
    let mut count = Count(0, 0);
    let out = run_program_observed(&p, &RunConfig::default(), &mut count);
    assert_eq!(out.termination, Termination::Exit(55));
    assert_eq!(count.0 as u64, out.steps);
    // Each condition reads i (11 times), each body reads s, i and i (10 times), and
    // the return reads s once, and the exit reads the return variable.
    assert_eq!(count.1, 11 + 30 + 1 + 1);
}

#[test]
fn memory_locals_arrays_and_bounds() {
    // int a[4]; a[3] = 7; return a[3] + a[idx];
    let mut p = Program::default();
    let t = types(&mut p);
    let arr = p.types.array_of(t.int, Some(4));
    let pint = p.types.pointer_to(t.int);
    let build = |p: &mut Program, idx: i64| {
        let mut m = Fb::new(p, "main", t.int, &[], false);
        let a = m.local("a", arr, Storage::Memory);
        let ret = m.ret();
        let parr = p.types.pointer_to(arr);
        let elem = |i: i64| {
            Expr::binary(
                BinOp::PtrAdd,
                Expr::cast(Expr::new(ExprKind::AddrOfLocal(a), parr), pint),
                int(i * 4, t.long),
                pint,
            )
        };
        m.straight(vec![
            NodeKind::Assign {
                dst: Place::Mem {
                    addr: elem(3),
                    ty: t.int,
                },
                value: int(7, t.int),
            },
            assign(
                ret,
                Expr::binary(
                    BinOp::Add,
                    Expr::load(elem(3), t.int),
                    Expr::load(elem(idx), t.int),
                    t.int,
                ),
            ),
        ])
    };
    let f = build(&mut p, 3);
    let mut ok = p.clone();
    ok.add_function(f);
    assert_eq!(run(&ok).termination, Termination::Exit(14));
    let f = build(&mut p, 4);
    p.add_function(f);
    match run(&p).termination {
        Termination::Trap {
            message,
            function,
            line,
        } => {
            assert!(message.contains("out-of-bounds"), "{message}");
            assert_eq!(function, "main");
            assert_eq!(line, 3);
        }
        other => panic!("expected a trap, got {other:?}"),
    }
}

/// `long f(long n) { return n == 0 ? 0 : n + f(n - 1); }`
fn recursive_sum(p: &mut Program, t: &T) -> FuncId {
    let id = p.functions.next_id();
    let mut f = Fb::new(p, "f", t.long, &[t.long], false);
    let n = f.f.params[0];
    let tmp = f.local("tmp", t.long, Storage::Register);
    let ret = f.ret();
    let cond = Expr::binary(BinOp::Eq, Expr::local(n, t.long), int(0, t.long), t.int);
    let b = f.node(NodeKind::Branch { cond }, 2);
    let zero = f.node(assign(ret, int(0, t.long)), 3);
    let call = f.node(
        NodeKind::Call {
            dst: Some(Place::Local(tmp)),
            callee: Callee::Direct(id),
            args: vec![Expr::binary(
                BinOp::Sub,
                Expr::local(n, t.long),
                int(1, t.long),
                t.long,
            )],
        },
        4,
    );
    let add = f.node(
        assign(
            ret,
            Expr::binary(
                BinOp::Add,
                Expr::local(n, t.long),
                Expr::local(tmp, t.long),
                t.long,
            ),
        ),
        5,
    );
    f.link(NodeId(0), b);
    f.link(b, zero);
    f.link(b, call);
    f.link(zero, NodeId(1));
    f.link(call, add);
    f.link(add, NodeId(1));
    p.add_function(f.f)
}

#[test]
fn deep_recursion_uses_no_rust_stack() {
    let mut p = Program::default();
    let t = types(&mut p);
    let f = recursive_sum(&mut p, &t);
    let (outcome, _) = call_function(&p, &RunConfig::default(), f, &[Value::Int(100_000)], &[]);
    assert_eq!(
        outcome.result,
        CallResult::Returned(Some(Value::Int(5_000_050_000)))
    );
}

#[test]
fn varargs_and_vprintf() {
    // int sum(int n, ...) { va_list ap; va_start(ap); s = 0; loop n: s += va_arg(ap, int); }
    // void say(const char *fmt, ...) { va_list ap; va_start(ap); vprintf(fmt, ap); }
    let mut p = Program::default();
    let t = types(&mut p);
    let uchar = p.types.int(IntKind::UChar);
    let va_list = p.types.array_of(uchar, Some(24));
    let pva = p.types.pointer_to(va_list);
    let vprintf = declare(&mut p, "vprintf", t.int, &[t.pchar, pva], false);
    let sum_id = p.functions.next_id();
    let mut s = Fb::new(&mut p, "sum", t.int, &[t.int], true);
    let n = s.f.params[0];
    let ap = s.local("ap", va_list, Storage::Memory);
    let x = s.local("x", t.int, Storage::Register);
    let ret = s.ret();
    let ap_addr = Expr::new(ExprKind::AddrOfLocal(ap), pva);
    let f = s.straight(vec![
        NodeKind::Call {
            dst: None,
            callee: Callee::Intrinsic(Intrinsic::VaStart),
            args: vec![ap_addr.clone()],
        },
        NodeKind::Call {
            dst: Some(Place::Local(x)),
            callee: Callee::Intrinsic(Intrinsic::VaArg),
            args: vec![ap_addr.clone()],
        },
        NodeKind::Call {
            dst: Some(Place::Local(ret)),
            callee: Callee::Intrinsic(Intrinsic::VaArg),
            args: vec![ap_addr.clone()],
        },
        assign(
            ret,
            Expr::binary(
                BinOp::Add,
                Expr::binary(
                    BinOp::Add,
                    Expr::local(x, t.int),
                    Expr::local(ret, t.int),
                    t.int,
                ),
                Expr::local(n, t.int),
                t.int,
            ),
        ),
    ]);
    p.add_function(f);
    let say_id = p.functions.next_id();
    let mut say = Fb::new(&mut p, "say", t.void, &[t.pchar], true);
    let fmt = say.f.params[0];
    let ap = say.local("ap", va_list, Storage::Memory);
    let ap_addr = Expr::new(ExprKind::AddrOfLocal(ap), pva);
    let f = say.straight(vec![
        NodeKind::Call {
            dst: None,
            callee: Callee::Intrinsic(Intrinsic::VaStart),
            args: vec![ap_addr.clone()],
        },
        NodeKind::Call {
            dst: None,
            callee: Callee::Direct(vprintf),
            args: vec![Expr::local(fmt, t.pchar), ap_addr],
        },
    ]);
    p.add_function(f);
    let fmt = string_global(&mut p, "[%s=%d]");
    let key = string_global(&mut p, "k");
    let m = Fb::new(&mut p, "main", t.int, &[], false);
    let ret = m.ret();
    let f = m.straight(vec![
        NodeKind::Call {
            dst: Some(Place::Local(ret)),
            callee: Callee::Direct(sum_id),
            args: vec![int(100, t.int), int(20, t.int), int(3, t.int)],
        },
        NodeKind::Call {
            dst: None,
            callee: Callee::Direct(say_id),
            args: vec![fmt, key, int(-5, t.int)],
        },
    ]);
    p.add_function(f);
    let out = run(&p);
    assert_eq!(out.termination, Termination::Exit(123));
    assert_eq!(out.stdout, b"[k=-5]");
}

#[test]
fn externals_without_model_and_havoc_are_unsupported() {
    let mut p = Program::default();
    let t = types(&mut p);
    let g = declare(&mut p, "frobnicate", t.int, &[], false);
    let m = Fb::new(&mut p, "main", t.int, &[], false);
    let f = m.straight(vec![NodeKind::Call {
        dst: None,
        callee: Callee::Direct(g),
        args: vec![],
    }]);
    p.add_function(f);
    match run(&p).termination {
        Termination::Unsupported { what } => assert!(what.contains("frobnicate")),
        other => panic!("{other:?}"),
    }
    let empty = Program::default();
    assert!(matches!(
        run(&empty).termination,
        Termination::Unsupported { .. }
    ));
}

#[test]
fn qsort_calls_back_the_comparator() {
    // int cmp(const void *a, const void *b) { return *(int*)a - *(int*)b; }
    let mut p = Program::default();
    let t = types(&mut p);
    let pint = p.types.pointer_to(t.int);
    let arr_ty = p.types.array_of(t.int, Some(5));
    let qsort = declare(
        &mut p,
        "qsort",
        t.void,
        &[pint, t.long, t.long, pint],
        false,
    );
    let cmp_id = p.functions.next_id();
    let cmp = Fb::new(&mut p, "cmp", t.int, &[pint, pint], false);
    let (a, b, ret) = (cmp.f.params[0], cmp.f.params[1], cmp.ret());
    let f = cmp.straight(vec![assign(
        ret,
        Expr::binary(
            BinOp::Sub,
            Expr::load(Expr::local(a, pint), t.int),
            Expr::load(Expr::local(b, pint), t.int),
            t.int,
        ),
    )]);
    p.add_function(f);
    let fptr = p.types.pointer_to(p.functions[cmp_id].ty);
    let mut bytes = Vec::new();
    for v in [5i32, -1, 9, 3, 3] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let g = p.globals.push(Global {
        name: "arr".into(),
        key: "arr".into(),
        linkage: Linkage::External,
        ty: arr_ty,
        init: Some(GlobalInit {
            items: vec![InitItem::Bytes { offset: 0, bytes }],
        }),
        is_const: false,
        span: span(1),
    });
    let m = Fb::new(&mut p, "main", t.int, &[], false);
    let f = m.straight(vec![NodeKind::Call {
        dst: None,
        callee: Callee::Direct(qsort),
        args: vec![
            Expr::new(ExprKind::AddrOfGlobal(g), pint),
            int(5, t.long),
            int(4, t.long),
            Expr::new(ExprKind::AddrOfFunc(cmp_id), fptr),
        ],
    }]);
    let main = p.add_function(f);
    let mut interp = Interpreter::new(&p, &RunConfig::default()).unwrap();
    let outcome = interp.call(main, &[], &mut crate::NoObserver);
    assert_eq!(outcome.result, CallResult::Returned(Some(Value::Int(0))));
    let sorted: Vec<i32> = interp
        .read_global(g)
        .unwrap()
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(sorted, vec![-1, 3, 3, 5, 9]);
}

#[test]
fn struct_copy_through_record_loads() {
    // struct { int a; double b; } x = {1, 2.5}, y; y = x; return y.a + (int)y.b;
    let mut p = Program::default();
    let t = types(&mut p);
    let rec = p.types.declare_record(Some("s".into()), false);
    p.types.complete_record(
        rec,
        vec![("a".into(), t.int, None), ("b".into(), t.double, None)],
        false,
    );
    let prec = p.types.pointer_to(rec);
    let pint = p.types.pointer_to(t.int);
    let pdouble = p.types.pointer_to(t.double);
    let mut m = Fb::new(&mut p, "main", t.int, &[], false);
    let x = m.local("x", rec, Storage::Memory);
    let y = m.local("y", rec, Storage::Memory);
    let ret = m.ret();
    let addr = |v: VarId| Expr::new(ExprKind::AddrOfLocal(v), prec);
    let field_b = |v: VarId| {
        Expr::binary(
            BinOp::PtrAdd,
            Expr::cast(addr(v), pdouble),
            int(8, t.long),
            pdouble,
        )
    };
    let f = m.straight(vec![
        NodeKind::Assign {
            dst: Place::Mem {
                addr: Expr::cast(addr(x), pint),
                ty: t.int,
            },
            value: int(1, t.int),
        },
        NodeKind::Assign {
            dst: Place::Mem {
                addr: field_b(x),
                ty: t.double,
            },
            value: Expr::new(ExprKind::Float(2.5), t.double),
        },
        NodeKind::Assign {
            dst: Place::Mem {
                addr: addr(y),
                ty: rec,
            },
            value: Expr::load(addr(x), rec),
        },
        assign(
            ret,
            Expr::binary(
                BinOp::Add,
                Expr::load(Expr::cast(addr(y), pint), t.int),
                Expr::cast(Expr::load(field_b(y), t.double), t.int),
                t.int,
            ),
        ),
    ]);
    p.add_function(f);
    assert_eq!(run(&p).termination, Termination::Exit(3));
}

/// Formats with printf's engine on the given arguments.
fn format(fmt: &str, args: &[Value]) -> String {
    let p = Program::default();
    let mut interp = Interpreter::new(&p, &RunConfig::default()).unwrap();
    let mut bytes = fmt.as_bytes().to_vec();
    bytes.push(0);
    let ptr = interp.runtime_bytes(&bytes).unwrap();
    let mut values = Vec::new();
    for arg in args {
        values.push(match arg {
            Value::Bytes(s) => {
                let mut s = s.to_vec();
                s.push(0);
                Value::Int(u128::from(interp.runtime_bytes(&s).unwrap()))
            }
            other => other.clone(),
        });
    }
    let out = interp
        .format(ptr, &mut VarArgs::Values(&values, 0))
        .unwrap();
    String::from_utf8(out).unwrap()
}

fn s(text: &str) -> Value {
    Value::Bytes(text.as_bytes().into())
}

#[test]
fn printf_conversions_match_glibc() {
    let neg = |v: i64| Value::Int(u128::from(v as u32));
    assert_eq!(
        format("%5d|%-5d|%05d|%+d", &[neg(42), neg(-42), neg(42), neg(7)]),
        "   42|-42  |00042|+7"
    );
    assert_eq!(
        format(
            "%ld %lu",
            &[
                Value::Int(u128::from(u64::MAX)),
                Value::Int(u128::from(u64::MAX))
            ]
        ),
        "-1 18446744073709551615"
    );
    assert_eq!(format("%hhd %hu", &[neg(300), neg(-1)]), "44 65535");
    assert_eq!(
        format("%#x %#o %X", &[neg(255), neg(8), neg(48879)]),
        "0xff 010 BEEF"
    );
    assert_eq!(
        format("%.3s|%10s|%-3s|", &[s("abcdef"), s("hi"), s("x")]),
        "abc|        hi|x  |"
    );
    assert_eq!(
        format(
            "%*d|%-*d|%.*f",
            &[neg(4), neg(1), neg(3), neg(2), neg(2), Value::F64(1.23456)]
        ),
        "   1|2  |1.23"
    );
    assert_eq!(
        format(
            "%e %g %G %a",
            &[
                Value::F64(12345.678),
                Value::F64(0.0001),
                Value::F64(1e20),
                Value::F64(1.0)
            ]
        ),
        "1.234568e+04 0.0001 1E+20 0x1p+0"
    );
    assert_eq!(
        format("%c%c %% %s", &[neg(65), neg(66), Value::Int(0)]),
        "AB % (null)"
    );
    assert_eq!(
        format("%p %f", &[Value::Int(0), Value::F64(f64::INFINITY)]),
        "(nil) inf"
    );
    assert_eq!(
        format(
            "%lld %zu %5.1f%%",
            &[
                Value::Int(u128::from((-3i64) as u64)),
                Value::Int(7),
                Value::F64(99.95)
            ]
        ),
        "-3 7 100.0%"
    );
}

#[test]
fn call_function_with_global_overrides() {
    // int g; int get(void) { return g * 2; }
    let mut p = Program::default();
    let t = types(&mut p);
    let pint = p.types.pointer_to(t.int);
    let g = p.globals.push(Global {
        name: "g".into(),
        key: "g".into(),
        linkage: Linkage::External,
        ty: t.int,
        init: Some(GlobalInit::default()),
        is_const: false,
        span: span(1),
    });
    let m = Fb::new(&mut p, "get", t.int, &[], false);
    let ret = m.ret();
    let f = m.straight(vec![assign(
        ret,
        Expr::binary(
            BinOp::Mul,
            Expr::load(Expr::new(ExprKind::AddrOfGlobal(g), pint), t.int),
            int(2, t.int),
            t.int,
        ),
    )]);
    let get = p.add_function(f);
    let (outcome, interp) = call_function(
        &p,
        &RunConfig::default(),
        get,
        &[],
        &[(g, 21i32.to_le_bytes().to_vec())],
    );
    assert_eq!(outcome.result, CallResult::Returned(Some(Value::Int(42))));
    assert_eq!(
        interp.unwrap().read_global(g).unwrap(),
        21i32.to_le_bytes().to_vec()
    );
}
