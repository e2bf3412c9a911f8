//! Compiler builtins and library functions with special semantics: `__builtin_va_*`
//! (intrinsics on the va_list address), `__builtin_expect`, `alloca`, `memcpy`/`memset`,
//! `__builtin_unreachable`/`trap`, the integer builtins of `intbuiltins.rs` (bit counts,
//! byte swaps, overflow checks, atomics), well-known pure builtins (as calls to external
//! declarations the interpreter models by name), `setjmp`/`longjmp` (havoc), and every
//! other `__builtin_*` (havoc, recorded as an unknown builtin).

use ripple_ir::{
    ApproximationKind, BinOp, Callee, Expr, ExprKind, FloatKind, Intrinsic, Type, TypeId, UnOp,
};
use tree_sitter::Node as TsNode;

use crate::expr::Val;
use crate::lower::{Lowerer, Sym};

/// A call of a function by name, which may be a builtin.
#[derive(Clone, Copy)]
pub(crate) struct BuiltinCall<'a, 'b> {
    pub name: &'a str,
    /// The call expression.
    pub node: TsNode<'a>,
    pub args: &'b [TsNode<'a>],
    /// Whether the value of the call is used.
    pub want: bool,
}

impl<'a> Lowerer<'a, '_> {
    /// Calls to functions declared in the program whose semantics the IR models
    /// specially: `setjmp` (a havoc, [`ripple_ir::Node::is_setjmp`]). A `longjmp` is a
    /// call of the library function like any other, which never returns: the analyses
    /// see its arguments (the value the `setjmp` returns again).
    pub fn library_builtin(&mut self, call: BuiltinCall<'a, '_>) -> Option<Val> {
        match call.name {
            "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp" | "savectx" | "vfork" => {
                Some(self.setjmp_havoc(call))
            }
            _ => None,
        }
    }

    fn setjmp_havoc(&mut self, call: BuiltinCall<'a, '_>) -> Val {
        for &a in call.args {
            self.rvalue(a);
        }
        let detail = format!(
            "{}: non-local control flow is not modelled; memory is havocked",
            call.name
        );
        let int = self.types.int;
        let unused = Val::R(self.int_const(0, int));
        self.havoc_call(call, int, ApproximationKind::Setjmp, &detail, unused)
    }

    /// The result of `call` approximated by a havoc (`reason`): a havocked value of type
    /// `ty` when the value is used, else `unused` after a havoc of memory alone.
    pub fn havoc_call(
        &mut self,
        call: BuiltinCall<'a, '_>,
        ty: TypeId,
        kind: ApproximationKind,
        reason: &str,
        unused: Val,
    ) -> Val {
        if call.want {
            Val::R(self.havoc_value(ty, kind, call.node, reason))
        } else {
            self.havoc(None, kind, call.node, reason);
            unused
        }
    }

    /// Calls to undeclared names that are compiler builtins; `None` for an ordinary
    /// (implicitly declared) function.
    pub fn builtin_call(&mut self, call: BuiltinCall<'a, '_>) -> Option<Val> {
        if let Some(v) = self.library_builtin(call) {
            return Some(v);
        }
        let BuiltinCall {
            name,
            node,
            args,
            want,
        } = call;
        if name.starts_with("__builtin_")
            || name.starts_with("__sync_")
            || name.starts_with("__atomic_")
        {
            if let Some(v) = self.int_builtin(call) {
                return Some(v);
            }
        }
        let t = self.types;
        let va = |this: &mut Self, i: usize| -> Expr {
            match args.get(i) {
                Some(&a) => {
                    let v = this.rvalue(a);
                    let vp = this.types.void_ptr;
                    this.convert(v, vp)
                }
                None => Expr::int(0, this.types.void_ptr),
            }
        };
        match name {
            "__builtin_expect"
            | "__builtin_expect_with_probability"
            | "__builtin_assume_aligned" => {
                let first = args.first().copied()?;
                let v = self.lower_expr(first);
                for &a in &args[1..] {
                    self.expr_effects(a);
                }
                let e = self.rvalue_of(v);
                Some(Val::R(e))
            }
            "__builtin_va_start" | "__builtin_stdarg_start" => {
                let ap = va(self, 0);
                for &a in args.iter().skip(1) {
                    self.speculate(|this| this.rvalue(a));
                }
                Some(self.call_with(
                    Callee::Intrinsic(Intrinsic::VaStart),
                    vec![ap],
                    t.void,
                    want,
                ))
            }
            "__builtin_va_end" => {
                let ap = va(self, 0);
                Some(self.call_with(Callee::Intrinsic(Intrinsic::VaEnd), vec![ap], t.void, want))
            }
            "__builtin_va_copy" => {
                let d = va(self, 0);
                let s = va(self, 1);
                Some(self.call_with(
                    Callee::Intrinsic(Intrinsic::VaCopy),
                    vec![d, s],
                    t.void,
                    want,
                ))
            }
            "__builtin_va_arg" => {
                let ap = va(self, 0);
                // The type argument is not an expression: it was masked before parsing
                // (or, failing that, is read from the text of the arguments).
                let masked = args
                    .get(1)
                    .and_then(|a| self.va_arg_types.get(&a.start_byte()))
                    .cloned();
                let ty = match masked {
                    Some(text) => self.type_from_text(&text),
                    None => match self.call_arg_texts(node).get(1) {
                        Some(text) => self.type_from_text(text),
                        None => t.int,
                    },
                };
                Some(self.call_with(Callee::Intrinsic(Intrinsic::VaArg), vec![ap], ty, true))
            }
            "__builtin_alloca" | "alloca" | "__builtin_alloca_with_align" => {
                let size = match args.first() {
                    Some(&a) => {
                        let v = self.rvalue(a);
                        self.convert(v, t.ulong)
                    }
                    None => Expr::int(0, t.ulong),
                };
                Some(self.call_with(
                    Callee::Intrinsic(Intrinsic::Alloca),
                    vec![size],
                    t.void_ptr,
                    true,
                ))
            }
            "__builtin_memcpy"
            | "__builtin___memcpy_chk"
            | "__builtin_memset"
            | "__builtin___memset_chk" => {
                let is_set = name.contains("memset");
                let d = va(self, 0);
                let s = match args.get(1) {
                    Some(&a) => {
                        let v = self.rvalue(a);
                        if is_set {
                            self.convert(v, t.int)
                        } else {
                            self.convert(v, t.void_ptr)
                        }
                    }
                    None => Expr::int(0, t.int),
                };
                let n = match args.get(2) {
                    Some(&a) => {
                        let v = self.rvalue(a);
                        self.convert(v, t.ulong)
                    }
                    None => Expr::int(0, t.ulong),
                };
                for &a in args.iter().skip(3) {
                    self.expr_effects(a);
                }
                let d = if want { self.spill(d) } else { d };
                let intr = if is_set {
                    Intrinsic::Memset
                } else {
                    Intrinsic::Memcpy
                };
                self.call_with(
                    Callee::Intrinsic(intr),
                    vec![d.clone(), s, n],
                    t.void,
                    false,
                );
                Some(Val::R(d))
            }
            "__builtin_offsetof" | "offsetof" => {
                let texts = self.call_arg_texts(node);
                let ty = texts
                    .first()
                    .map_or(t.int, |text| self.type_from_text(text));
                let path = texts.get(1).copied().unwrap_or("");
                self.layout_read(ty, node);
                let off = self.offset_of_path(ty, path, node);
                Some(Val::R(self.int_const(i128::from(off), t.ulong)))
            }
            "__builtin_types_compatible_p" => {
                let texts = self.call_arg_texts(node);
                let a = texts
                    .first()
                    .map_or(t.int, |text| self.type_from_text(text));
                let b = texts.get(1).map_or(t.int, |text| self.type_from_text(text));
                Some(Val::R(self.int_const(i128::from(a == b), t.int)))
            }
            "__builtin_unreachable" => {
                // Reaching it is undefined behaviour: a call that does not return, which
                // the interpreter and the symbolic engine take as a trap of that kind.
                let f = self.library_function("__builtin_unreachable", t.void, vec![], false, node);
                self.call_with(Callee::Direct(f), Vec::new(), t.void, false);
                Some(Val::R(Expr::int(0, t.void)))
            }
            "__builtin_trap" | "__builtin_abort" => {
                let f = self.library_function("abort", t.void, vec![], false, node);
                self.call_with(Callee::Direct(f), Vec::new(), t.void, false);
                Some(Val::R(Expr::int(0, t.void)))
            }
            "__builtin_constant_p" => {
                for &a in args {
                    self.speculate(|this| this.rvalue(a));
                }
                Some(Val::R(self.int_const(0, t.int)))
            }
            "__builtin_object_size" | "__builtin_dynamic_object_size" => {
                for &a in args {
                    self.speculate(|this| this.rvalue(a));
                }
                let kind = args
                    .get(1)
                    .and_then(|&a| self.const_int_expr(a))
                    .unwrap_or(0);
                let v = if kind & 2 != 0 { 0 } else { -1 };
                Some(Val::R(self.int_const(v, t.ulong)))
            }
            _ if name.starts_with("__builtin_") && self.is_float_builtin(name) => {
                Some(Val::R(self.float_builtin(name, args)))
            }
            _ if name.starts_with("__builtin_")
                || name.starts_with("__sync_")
                || name.starts_with("__atomic_") =>
            {
                Some(self.known_or_unknown_builtin(call))
            }
            _ => None,
        }
    }

    fn is_float_builtin(&self, name: &str) -> bool {
        matches!(
            &name["__builtin_".len()..],
            "isnan"
                | "isinf"
                | "isinf_sign"
                | "isfinite"
                | "finite"
                | "isnormal"
                | "signbit"
                | "signbitf"
                | "signbitl"
                | "fpclassify"
                | "huge_val"
                | "huge_valf"
                | "huge_vall"
                | "inf"
                | "inff"
                | "infl"
                | "nan"
                | "nanf"
                | "nanl"
                | "isgreater"
                | "isgreaterequal"
                | "isless"
                | "islessequal"
                | "islessgreater"
                | "isunordered"
        )
    }

    /// A floating-point argument of a classification builtin, evaluated once into a
    /// temporary (integers are converted to `double`).
    fn float_arg(&mut self, arg: Option<TsNode<'a>>) -> Expr {
        let Some(arg) = arg else {
            return Expr::new(ExprKind::Float(0.0), self.types.double);
        };
        let v = self.rvalue(arg);
        let v = if self.is_float(v.ty) {
            v
        } else {
            let d = self.types.double;
            self.convert(v, d)
        };
        if matches!(v.kind, ExprKind::Local(_) | ExprKind::Float(_)) {
            v
        } else {
            self.spill(v)
        }
    }

    fn float_const(&self, value: f64, ty: TypeId) -> Expr {
        let value = if self.float_kind(ty) == Some(FloatKind::Float) {
            f64::from(value as f32)
        } else {
            value
        };
        Expr::new(ExprKind::Float(value), ty)
    }

    fn fcmp(&self, op: BinOp, a: &Expr, b: &Expr) -> Expr {
        Expr::binary(op, a.clone(), b.clone(), self.types.int)
    }

    fn fcmp_const(&self, op: BinOp, a: &Expr, value: f64) -> Expr {
        let c = self.float_const(value, a.ty);
        Expr::binary(op, a.clone(), c, self.types.int)
    }

    fn int_op(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::binary(op, a, b, self.types.int)
    }

    /// `x` is infinite: `(x == inf) | (x == -inf)`.
    fn is_inf_expr(&self, x: &Expr) -> Expr {
        let pos = self.fcmp_const(BinOp::Eq, x, f64::INFINITY);
        let neg = self.fcmp_const(BinOp::Eq, x, f64::NEG_INFINITY);
        self.int_op(BinOp::BitOr, pos, neg)
    }

    /// `x` is normal: `MIN <= |x| <= MAX` for the type of `x`.
    fn is_normal_expr(&self, x: &Expr) -> Expr {
        let (min, max) = if self.float_kind(x.ty) == Some(FloatKind::Float) {
            (f64::from(f32::MIN_POSITIVE), f64::from(f32::MAX))
        } else {
            (f64::MIN_POSITIVE, f64::MAX)
        };
        let p = self.int_op(
            BinOp::BitAnd,
            self.fcmp_const(BinOp::Ge, x, min),
            self.fcmp_const(BinOp::Le, x, max),
        );
        let n = self.int_op(
            BinOp::BitAnd,
            self.fcmp_const(BinOp::Le, x, -min),
            self.fcmp_const(BinOp::Ge, x, -max),
        );
        self.int_op(BinOp::BitOr, p, n)
    }

    /// `x` is subnormal: `x != 0 && -MIN < x < MIN`.
    fn is_subnormal_expr(&self, x: &Expr) -> Expr {
        let min = if self.float_kind(x.ty) == Some(FloatKind::Float) {
            f64::from(f32::MIN_POSITIVE)
        } else {
            f64::MIN_POSITIVE
        };
        let nz = self.fcmp_const(BinOp::Ne, x, 0.0);
        let lo = self.fcmp_const(BinOp::Gt, x, -min);
        let hi = self.fcmp_const(BinOp::Lt, x, min);
        let inside = self.int_op(BinOp::BitAnd, lo, hi);
        self.int_op(BinOp::BitAnd, nz, inside)
    }

    /// The floating-point classification and constant builtins, as comparisons on the
    /// value (no calls).
    fn float_builtin(&mut self, name: &str, args: &[TsNode<'a>]) -> Expr {
        let t = self.types;
        let short = &name["__builtin_".len()..];
        match short {
            "huge_val" | "inf" => return self.float_const(f64::INFINITY, t.double),
            "huge_valf" | "inff" => return self.float_const(f64::INFINITY, t.float),
            "huge_vall" | "infl" => return self.float_const(f64::INFINITY, t.ldouble),
            "nan" | "nanf" | "nanl" => {
                for &a in args {
                    self.expr_effects(a);
                }
                let ty = match short {
                    "nanf" => t.float,
                    "nanl" => t.ldouble,
                    _ => t.double,
                };
                return self.float_const(f64::NAN, ty);
            }
            "isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater"
            | "isunordered" => {
                let a = self.float_arg(args.first().copied());
                let b = self.float_arg(args.get(1).copied());
                let ty = self.common_type(a.ty, b.ty);
                let a = self.convert(a, ty);
                let b = self.convert(b, ty);
                return match short {
                    "isgreater" => self.fcmp(BinOp::Gt, &a, &b),
                    "isgreaterequal" => self.fcmp(BinOp::Ge, &a, &b),
                    "isless" => self.fcmp(BinOp::Lt, &a, &b),
                    "islessequal" => self.fcmp(BinOp::Le, &a, &b),
                    "islessgreater" => {
                        let lt = self.fcmp(BinOp::Lt, &a, &b);
                        let gt = self.fcmp(BinOp::Gt, &a, &b);
                        self.int_op(BinOp::BitOr, lt, gt)
                    }
                    _ => {
                        let na = self.fcmp(BinOp::Ne, &a, &a);
                        let nb = self.fcmp(BinOp::Ne, &b, &b);
                        self.int_op(BinOp::BitOr, na, nb)
                    }
                };
            }
            "fpclassify" => {
                // fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
                let mut classes = Vec::new();
                for i in 0..5 {
                    let c = match args.get(i) {
                        Some(&a) => {
                            let v = self.rvalue(a);
                            self.convert(v, t.int)
                        }
                        None => self.int_const(i as i128, t.int),
                    };
                    classes.push(c);
                }
                let x = self.float_arg(args.get(5).copied());
                let preds = [
                    self.fcmp(BinOp::Ne, &x, &x),
                    self.is_inf_expr(&x),
                    self.is_normal_expr(&x),
                    self.is_subnormal_expr(&x),
                    self.fcmp_const(BinOp::Eq, &x, 0.0),
                ];
                // The predicates are exclusive: sum of predicate * class.
                let mut sum: Option<Expr> = None;
                for (p, c) in preds.into_iter().zip(classes) {
                    let term = self.int_op(BinOp::Mul, p, c);
                    sum = Some(match sum {
                        None => term,
                        Some(s) => self.int_op(BinOp::Add, s, term),
                    });
                }
                return sum.unwrap_or_else(|| self.int_const(0, t.int));
            }
            _ => {}
        }
        let x = self.float_arg(args.first().copied());
        for &a in args.iter().skip(1) {
            self.expr_effects(a);
        }
        match short {
            "isnan" => self.fcmp(BinOp::Ne, &x, &x),
            "isinf" => self.is_inf_expr(&x),
            "isinf_sign" => {
                let pos = self.fcmp_const(BinOp::Eq, &x, f64::INFINITY);
                let neg = self.fcmp_const(BinOp::Eq, &x, f64::NEG_INFINITY);
                self.int_op(BinOp::Sub, pos, neg)
            }
            "isfinite" | "finite" => {
                let not_nan = self.fcmp(BinOp::Eq, &x, &x);
                let inf = self.is_inf_expr(&x);
                let not_inf = Expr::unary(UnOp::LogicalNot, inf, t.int);
                self.int_op(BinOp::BitAnd, not_nan, not_inf)
            }
            "isnormal" => self.is_normal_expr(&x),
            _ => {
                // signbit: the sign bit of the value as a double, read through memory.
                let d = t.double;
                let x = self.convert(x, d);
                let var = self.new_local("", d, ripple_ir::LocalKind::Temp, true);
                let addr = self.addr_of_local(var);
                self.emit(ripple_ir::NodeKind::Assign {
                    dst: ripple_ir::Place::Mem { addr, ty: d },
                    value: x,
                });
                let ulong = t.ulong;
                let uptr = self.pointer_to(ulong);
                let addr = self.addr_of_local(var);
                let addr = self.retype(addr, uptr);
                let bits = Expr::load(addr, ulong);
                let sign = Expr::binary(BinOp::Shr, bits, self.int_const(63, ulong), ulong);
                self.convert(sign, t.int)
            }
        }
    }

    /// Well-known pure builtins become calls to external declarations named like the
    /// libc function (or the builtin); anything else is havocked.
    fn known_or_unknown_builtin(&mut self, call: BuiltinCall<'a, '_>) -> Val {
        let (name, args) = (call.name, call.args);
        let t = self.types;
        let short = &name["__builtin_".len().min(name.len())..];
        // (callee name, return type, parameter types, varargs)
        let sig: Option<(&str, TypeId, Vec<TypeId>, bool)> = match short {
            "abs" => Some(("abs", t.int, vec![t.int], false)),
            "labs" => Some(("labs", t.long, vec![t.long], false)),
            "llabs" => Some(("llabs", t.llong, vec![t.llong], false)),
            "fabs" | "sqrt" | "floor" | "ceil" | "sin" | "cos" | "exp" | "log" => {
                Some((short, t.double, vec![t.double], false))
            }
            "fabsf" | "sqrtf" => Some((short, t.float, vec![t.float], false)),
            "strlen" => Some(("strlen", t.ulong, vec![t.char_ptr], false)),
            "strcmp" => Some(("strcmp", t.int, vec![t.char_ptr, t.char_ptr], false)),
            "strncmp" => Some((
                "strncmp",
                t.int,
                vec![t.char_ptr, t.char_ptr, t.ulong],
                false,
            )),
            "memcmp" => Some((
                "memcmp",
                t.int,
                vec![t.void_ptr, t.void_ptr, t.ulong],
                false,
            )),
            "memmove" => Some((
                "memmove",
                t.void_ptr,
                vec![t.void_ptr, t.void_ptr, t.ulong],
                false,
            )),
            "strcpy" => Some(("strcpy", t.char_ptr, vec![t.char_ptr, t.char_ptr], false)),
            "strchr" => Some(("strchr", t.char_ptr, vec![t.char_ptr, t.int], false)),
            "malloc" => Some(("malloc", t.void_ptr, vec![t.ulong], false)),
            "calloc" => Some(("calloc", t.void_ptr, vec![t.ulong, t.ulong], false)),
            "free" => Some(("free", t.void, vec![t.void_ptr], false)),
            "printf" => Some(("printf", t.int, vec![t.char_ptr], true)),
            "puts" => Some(("puts", t.int, vec![t.char_ptr], false)),
            "putchar" => Some(("putchar", t.int, vec![t.int], false)),
            "sprintf" => Some(("sprintf", t.int, vec![t.char_ptr, t.char_ptr], true)),
            "snprintf" => Some((
                "snprintf",
                t.int,
                vec![t.char_ptr, t.ulong, t.char_ptr],
                true,
            )),
            "exit" => Some(("exit", t.void, vec![t.int], false)),
            _ => None,
        };
        if let Some((callee, ret, params, varargs)) = sig {
            let (f, fty) = match self.lookup(callee) {
                Some(Sym::Func(f, ty)) => (f, ty),
                _ => {
                    let f = self.library_function(callee, ret, params.clone(), varargs, call.node);
                    let ty = self.linker.program.functions[f].ty;
                    (f, ty)
                }
            };
            let (ret, params) = match self.linker.program.types.get(fty).clone() {
                Type::Function { ret, params, .. } => (ret, params),
                _ => (ret, params),
            };
            let mut values = Vec::new();
            for (i, &a) in args.iter().enumerate() {
                let v = self.rvalue(a);
                let v = match params.get(i) {
                    Some(&p) => self.convert(v, p),
                    None => self.default_promote(v),
                };
                values.push(v);
            }
            return self.call_with(Callee::Direct(f), values, ret, call.want);
        }
        // What it is given reaches what it returns and writes.
        let values: Vec<Expr> = args.iter().map(|&a| self.rvalue(a)).collect();
        self.spill_for_havoc(values);
        let detail = format!("unknown builtin {name}");
        let unused = Val::R(self.int_const(0, t.int));
        self.havoc_call(
            call,
            t.long,
            ApproximationKind::UnknownBuiltin,
            &detail,
            unused,
        )
    }

    /// An external library function by name, declared with the given signature unless the
    /// program already has it.
    pub fn library_function(
        &mut self,
        name: &str,
        ret: TypeId,
        params: Vec<TypeId>,
        varargs: bool,
        node: TsNode<'a>,
    ) -> ripple_ir::FuncId {
        if let Some(f) = self.linker.program.function_by_key(name) {
            return f;
        }
        let ty = self.linker.program.types.intern(Type::Function {
            ret,
            params,
            varargs,
            prototyped: true,
        });
        let span = self.span_of(node);
        self.declare_function(name, ty, false, span)
    }

    /// The texts of a call's arguments, split at top-level commas.
    pub fn call_arg_texts(&self, call: TsNode<'a>) -> Vec<&'a str> {
        let Some(list) = self.child_field(call, self.fields.arguments) else {
            return Vec::new();
        };
        let text = self.text(list);
        let inner = text.strip_prefix('(').unwrap_or(text);
        let inner = inner.strip_suffix(')').unwrap_or(inner);
        let mut out = Vec::new();
        let mut depth = 0i32;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(inner[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !inner[start..].trim().is_empty() {
            out.push(inner[start..].trim());
        }
        out
    }

    /// The offset of a member designator path (`a.b[2].c`) within `ty`.
    fn offset_of_path(&mut self, ty: TypeId, path: &str, node: TsNode<'a>) -> u64 {
        let mut off = 0u64;
        let mut cur = ty;
        let mut rest = path.trim();
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix('.') {
                rest = r.trim_start();
                continue;
            }
            if let Some(r) = rest.strip_prefix('[') {
                let end = r.find(']').unwrap_or(r.len());
                let index: u64 = parse_c_uint(r[..end].trim()).unwrap_or(0);
                let elem = match self.linker.program.types.get(cur) {
                    Type::Array { elem, .. } => *elem,
                    _ => cur,
                };
                off += index * self.size_of(elem);
                cur = elem;
                rest = r.get(end + 1..).unwrap_or("").trim_start();
                continue;
            }
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            if end == 0 {
                break;
            }
            match self.find_field(cur, name) {
                Some((o, field)) => {
                    off += o;
                    cur = field.ty;
                }
                None => {
                    self.diag(
                        crate::Severity::Error,
                        node,
                        format!("no member `{name}` for offsetof"),
                    );
                    break;
                }
            }
            rest = rest[end..].trim_start();
        }
        off
    }

    /// Reads a simple type from text: primitive keywords, typedef names, `struct T`,
    /// followed by `*`s.
    pub fn type_from_text(&mut self, text: &str) -> TypeId {
        let t = self.types;
        let stars = text.chars().filter(|&c| c == '*').count();
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == '*')
            .filter(|w| {
                !w.is_empty() && !matches!(*w, "const" | "volatile" | "restrict" | "__restrict")
            })
            .collect();
        let mut unsigned = false;
        let mut longs = 0;
        let mut base = None;
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "unsigned" => unsigned = true,
                "signed" => {}
                "long" => longs += 1,
                "short" => base = Some(t.short),
                "int" => {}
                "char" => base = Some(if unsigned { t.uchar } else { t.char_ }),
                "double" => base = Some(if longs > 0 { t.ldouble } else { t.double }),
                "float" => base = Some(t.float),
                "void" => base = Some(t.void),
                "_Bool" => base = Some(t.bool_),
                "struct" | "union" => {
                    if let Some(tag) = words.get(i + 1) {
                        base = self.lookup_tag(tag);
                        i += 1;
                    }
                }
                name => {
                    base = match self.lookup(name) {
                        Some(Sym::Typedef(ty)) => Some(ty),
                        _ => self.builtin_type_name(name),
                    };
                }
            }
            i += 1;
        }
        let mut ty = match base {
            Some(b) if b == t.short && unsigned => t.ushort,
            Some(b) => b,
            None => match (unsigned, longs) {
                (false, 0) => t.int,
                (true, 0) => t.uint,
                (false, _) => t.long,
                (true, _) => t.ulong,
            },
        };
        for _ in 0..stars {
            ty = self.pointer_to(ty);
        }
        ty
    }
}

fn parse_c_uint(text: &str) -> Option<u64> {
    match crate::literals::parse_number(text)? {
        crate::literals::Number::Int(v, _) => u64::try_from(v).ok(),
        crate::literals::Number::Float(..) => None,
    }
}
