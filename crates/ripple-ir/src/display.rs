//! A readable text dump of the IR (`ripple dump ir`).

use std::fmt::Write;

use crate::{Callee, Expr, ExprKind, Function, InitItem, NodeKind, Place, Program};

/// The whole program: globals, then functions in id order.
pub fn dump_program(program: &Program) -> String {
    let mut out = dump_globals(program);
    for function in &program.functions {
        if function.is_defined() {
            out.push_str(&dump_function(program, function));
        }
    }
    out
}

/// Every global: its key, type and initializer.
pub fn dump_globals(program: &Program) -> String {
    let mut out = String::new();
    for (id, global) in program.globals.iter_enumerated() {
        let init = match &global.init {
            None => " (external)".to_string(),
            Some(init) if init.items.is_empty() => " = zero".to_string(),
            Some(init) => {
                let items: Vec<String> = init
                    .items
                    .iter()
                    .map(|item| match item {
                        InitItem::Value { offset, value } => {
                            format!("@{offset}: {}", expr(program, None, value))
                        }
                        InitItem::Bytes { offset, bytes } => {
                            format!("@{offset}: {:?}", String::from_utf8_lossy(bytes))
                        }
                        InitItem::Bits {
                            offset,
                            bit_offset,
                            width,
                            value,
                            ..
                        } => format!(
                            "@{offset}.{bit_offset}:{width}: {}",
                            expr(program, None, value)
                        ),
                    })
                    .collect();
                format!(" = {{{}}}", items.join(", "))
            }
        };
        let _ = writeln!(
            out,
            "global {id} {}: {}{init}",
            global.key,
            program.types.display(global.ty)
        );
    }
    out
}

/// One function: its locals, then its nodes with successors.
pub fn dump_function(program: &Program, function: &Function) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "fn {}: {}",
        function.key,
        program.types.display(function.ty)
    );
    for (id, local) in function.locals.iter_enumerated() {
        let _ = writeln!(
            out,
            "  local {id} {}: {} {:?} {:?}",
            local.name,
            program.types.display(local.ty),
            local.kind,
            local.storage
        );
    }
    for (id, node) in function.nodes.iter_enumerated() {
        let body = match &node.kind {
            NodeKind::Entry => "entry".to_string(),
            NodeKind::Exit => match function.ret_var {
                Some(v) => format!("exit return {v}"),
                None => "exit".to_string(),
            },
            NodeKind::Skip => "skip".to_string(),
            NodeKind::Assign { dst, value } => {
                format!(
                    "{} = {}",
                    place(program, function, dst),
                    expr(program, Some(function), value)
                )
            }
            NodeKind::Branch { cond } => format!("branch {}", expr(program, Some(function), cond)),
            NodeKind::Call { dst, callee, args } => {
                let target = match callee {
                    Callee::Direct(f) => program.functions[*f].key.clone(),
                    Callee::Indirect(e) => format!("*({})", expr(program, Some(function), e)),
                    Callee::Intrinsic(i) => format!("@{}", i.name()),
                };
                let args: Vec<String> = args
                    .iter()
                    .map(|a| expr(program, Some(function), a))
                    .collect();
                let call = format!("call {target}({})", args.join(", "));
                match dst {
                    Some(dst) => format!("{} = {call}", place(program, function, dst)),
                    None => call,
                }
            }
            NodeKind::Havoc { dst, reason } => match dst {
                Some(dst) => format!("{} = havoc ({reason})", place(program, function, dst)),
                None => format!("havoc ({reason})"),
            },
        };
        let succs: Vec<String> = node.succs.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "  {id} [{}]: {body} -> [{}]",
            node.span.start_line,
            succs.join(", ")
        );
    }
    out
}

fn place(program: &Program, function: &Function, place: &Place) -> String {
    match place {
        Place::Local(v) => format!("{}.{v}", function.locals[*v].name),
        Place::Mem { addr, ty } => format!(
            "*({}: {})",
            expr(program, Some(function), addr),
            program.types.display(*ty)
        ),
        Place::Bits {
            addr,
            bit_offset,
            width,
            ..
        } => format!(
            "*({}).bits[{bit_offset}:{width}]",
            expr(program, Some(function), addr)
        ),
    }
}

/// An expression in prefix-free infix form with explicit casts and loads.
fn expr(program: &Program, function: Option<&Function>, e: &Expr) -> String {
    let ty = || program.types.display(e.ty);
    match &e.kind {
        ExprKind::Int(v) => {
            if program.types.is_signed(e.ty) {
                format!("{}", crate::bits::sign_extend(*v, program.types.bits(e.ty)))
            } else {
                format!("{v}")
            }
        }
        ExprKind::Float(f) => format!("{f:?}"),
        ExprKind::Local(v) => match function {
            Some(func) => format!("{}.{v}", func.locals[*v].name),
            None => format!("{v}"),
        },
        ExprKind::AddrOfLocal(v) => match function {
            Some(func) => format!("&{}.{v}", func.locals[*v].name),
            None => format!("&{v}"),
        },
        ExprKind::AddrOfGlobal(g) => format!("&{}", program.globals[*g].key),
        ExprKind::AddrOfFunc(f) => format!("&{}", program.functions[*f].key),
        ExprKind::Load(addr) => format!("*({}: {})", expr(program, function, addr), ty()),
        ExprKind::LoadBits {
            addr,
            bit_offset,
            width,
            ..
        } => format!(
            "*({}).bits[{bit_offset}:{width}]",
            expr(program, function, addr)
        ),
        ExprKind::Unary(op, inner) => {
            format!("{}({})", op.symbol(), expr(program, function, inner))
        }
        ExprKind::Binary(op, lhs, rhs) => format!(
            "({} {} {})",
            expr(program, function, lhs),
            op.symbol(),
            expr(program, function, rhs)
        ),
        ExprKind::Cast(inner) => format!("({})({})", ty(), expr(program, function, inner)),
    }
}
