//! Functions that never return, and the control flow they cut.
//!
//! A function never returns when it is declared so (`_Noreturn`, the `noreturn`
//! attribute), when it is a library function that does not (`exit`, `abort`,
//! `longjmp`, ..., `libc`), or when every path of its body ends in such a call or never
//! leaves a loop (its exit is unreachable once those calls are cut). The inference is
//! the greatest fixpoint over the call graph: mutually recursive functions without a
//! path to their exits never return either. Calls through pointers, havoc bodies and
//! externals without a model are not taken to *never* return; that they *may* not
//! return (unknown code may exit or jump) is a dependence in the dependence graph.
//!
//! Nothing after a call of such a function runs, so [`cut_after_calls`] makes the call
//! go straight to the exit of the caller: the same executions, and the statements after
//! the call become unreachable, where a change changes nothing (issue of precise error
//! paths: a `return;` added after a call of an error function is no change at all).
//!
//! Nodes may also stop the program without a call: [`trap_reads`] finds the integer
//! divisions by a value that may be 0, and what decides whether they trap.

use ripple_ir::{
    BinOp, Callee, Expr, ExprKind, FuncId, Function, Node, NodeId, NodeKind, Program, VarId,
};

use crate::libc::external_model;

/// Whether a function is one of the library's that never return (`exit`, `abort`,
/// `__assert_fail`), by its declaration or by its model.
pub fn library_never_returns(function: &Function) -> bool {
    !function.is_defined() && (function.noreturn || external_model(&function.name).noreturn)
}

/// Whether a function is the library's `longjmp` (or a relative): it never returns, but
/// its `setjmp` returns again with its value, so its arguments decide what runs after.
pub fn jumps_back(function: &Function) -> bool {
    let model = external_model(&function.name);
    !function.is_defined() && model.noreturn && model.jumps
}

/// Per function: whether it never returns.
pub fn never_returning(program: &Program) -> Vec<bool> {
    let mut never: Vec<bool> = program
        .functions
        .iter()
        .map(|f| {
            f.noreturn
                || if f.is_defined() {
                    // Optimistic start for the greatest fixpoint.
                    true
                } else {
                    external_model(&f.name).noreturn
                }
        })
        .collect();
    loop {
        let mut changed = false;
        for (id, function) in program.functions.iter_enumerated() {
            if never[id.index()]
                && function.is_defined()
                && !function.noreturn
                && exit_reachable(function, &never)
            {
                never[id.index()] = false;
                changed = true;
            }
        }
        if !changed {
            return never;
        }
    }
}

/// Whether the exit is reachable from the entry when calls of never-returning functions
/// have no successor.
fn exit_reachable(function: &Function, never: &[bool]) -> bool {
    let mut seen = vec![false; function.nodes.len()];
    let mut stack = vec![function.entry];
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node.index()], true) {
            continue;
        }
        if node == function.exit {
            return true;
        }
        if calls_never_returning(&function.nodes[node].kind, never) {
            continue;
        }
        stack.extend(function.nodes[node].succs.iter().copied());
    }
    false
}

fn calls_never_returning(kind: &NodeKind, never: &[bool]) -> bool {
    matches!(kind, NodeKind::Call { callee: Callee::Direct(g), .. } if never[g.index()])
}

/// What decides whether a node traps: the registers its divisors read, and whether they
/// read memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrapReads {
    pub registers: Vec<VarId>,
    pub memory: bool,
}

/// Whether `node` may trap, and on what: integer divisions and remainders by a value that
/// may be 0. Compiled for x86-64 that ends the program (SIGFPE) as a call of `abort` does,
/// so what follows the node runs only when it does not. (The smallest signed value over
/// -1 traps too, but as an overflow, which like every signed overflow is not followed
/// here: whether a division traps is taken to depend on its divisor only.)
pub fn trap_reads(program: &Program, node: &Node) -> Option<TrapReads> {
    let mut reads: Option<TrapReads> = None;
    for expr in node.exprs() {
        expr.walk(&mut |e| {
            let ExprKind::Binary(BinOp::Div | BinOp::Rem, _, divisor) = &e.kind else {
                return;
            };
            if !program.types.is_integer(e.ty) || matches!(divisor.kind, ExprKind::Int(v) if v != 0)
            {
                return;
            }
            let reads = reads.get_or_insert_with(TrapReads::default);
            divisor.locals_read(&mut reads.registers);
            divisor.walk(&mut |d| {
                reads.memory |= matches!(d.kind, ExprKind::Load(_) | ExprKind::LoadBits { .. });
            });
        });
    }
    if let Some(reads) = &mut reads {
        reads.registers.sort_unstable();
        reads.registers.dedup();
    }
    reads
}

/// The divisors by which `node` of `function` may trap, each as a text that names
/// locals, globals and functions by name and types by size and kind: the same text in
/// two versions reads the same variables and computes the same way.
pub fn divisor_texts(program: &Program, function: &Function, node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    for expr in node.exprs() {
        expr.walk(&mut |e| {
            if let ExprKind::Binary(BinOp::Div | BinOp::Rem, _, divisor) = &e.kind {
                if program.types.is_integer(e.ty) {
                    let mut text = String::new();
                    expr_text(program, function, divisor, &mut text);
                    out.push(text);
                }
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn expr_text(program: &Program, function: &Function, e: &Expr, out: &mut String) {
    use std::fmt::Write;
    let types = &program.types;
    let ty = |t| {
        let kind = if types.is_float(t) {
            'f'
        } else if types.is_pointer(t) {
            'p'
        } else if types.is_signed(t) {
            'i'
        } else {
            'u'
        };
        format!("{kind}{}", types.size_of(t))
    };
    match &e.kind {
        ExprKind::Int(v) => _ = write!(out, "{v}:{}", ty(e.ty)),
        ExprKind::Float(v) => _ = write!(out, "{v:?}:{}", ty(e.ty)),
        ExprKind::Local(v) => out.push_str(&function.locals[*v].name),
        ExprKind::AddrOfLocal(v) => _ = write!(out, "&{}", function.locals[*v].name),
        ExprKind::AddrOfGlobal(g) => _ = write!(out, "&{}", program.globals[*g].key),
        ExprKind::AddrOfFunc(f) => _ = write!(out, "&{}", program.functions[*f].name),
        ExprKind::Load(addr) => {
            _ = write!(out, "*{}(", ty(e.ty));
            expr_text(program, function, addr, out);
            out.push(')');
        }
        ExprKind::LoadBits {
            addr,
            bit_offset,
            width,
            ..
        } => {
            _ = write!(out, "*{}@{bit_offset}+{width}(", ty(e.ty));
            expr_text(program, function, addr, out);
            out.push(')');
        }
        ExprKind::Unary(op, a) => {
            _ = write!(out, "{op:?}(");
            expr_text(program, function, a, out);
            out.push(')');
        }
        ExprKind::Binary(op, a, b) => {
            _ = write!(out, "{op:?}(");
            expr_text(program, function, a, out);
            out.push(',');
            expr_text(program, function, b, out);
            out.push(')');
        }
        ExprKind::Cast(a) => {
            _ = write!(out, "{}(", ty(e.ty));
            expr_text(program, function, a, out);
            out.push(')');
        }
    }
}

/// Makes every call of a never-returning function go to its caller's exit; returns the
/// calls so cut (function, call node).
pub fn cut_after_calls(program: &mut Program) -> Vec<(FuncId, NodeId)> {
    let never = never_returning(program);
    let mut cut = Vec::new();
    for (id, function) in program.functions.iter_enumerated_mut() {
        let exit = function.exit;
        for (n, node) in function.nodes.iter_enumerated_mut() {
            if calls_never_returning(&node.kind, &never) && node.succs != [exit] {
                node.succs = vec![exit];
                cut.push((id, n));
            }
        }
    }
    cut
}

/// Per node of a function: whether it is reachable from the entry.
pub fn reachable_nodes(function: &Function) -> Vec<bool> {
    let mut seen = vec![false; function.nodes.len()];
    if function.is_defined() {
        let mut stack = vec![function.entry];
        while let Some(node) = stack.pop() {
            if !std::mem::replace(&mut seen[node.index()], true) {
                stack.extend(function.nodes[node].succs.iter().copied());
            }
        }
    }
    seen
}
