//! The IR's invariants, checked in tests and debug builds.
//!
//! - Every successor exists; a branch has two successors, the exit none, every other
//!   node one.
//! - Node 0 is the entry, and `entry`/`exit` are the only Entry/Exit nodes.
//! - Register locals are read with `Local`; memory locals only through `AddrOfLocal`.
//! - Registers hold scalars; arithmetic operands have equal types.

use crate::{BinOp, Expr, ExprKind, Function, NodeKind, Place, Program, Storage, Type, TypeTable};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    pub function: String,
    pub message: String,
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.function, self.message)
    }
}

/// Checks every defined function.
pub fn validate_program(program: &Program) -> Vec<ValidationError> {
    program
        .functions
        .iter()
        .flat_map(|f| validate_function(f, &program.types))
        .collect()
}

pub fn validate_function(function: &Function, types: &TypeTable) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    if !function.is_defined() {
        return errors;
    }
    let mut err = |message: String| {
        errors.push(ValidationError {
            function: function.key.clone(),
            message,
        });
    };
    let count = function.nodes.len();
    for (id, node) in function.nodes.iter_enumerated() {
        for succ in &node.succs {
            if succ.index() >= count {
                err(format!("{id}: successor {succ} does not exist"));
            }
        }
        let expected = match node.kind {
            NodeKind::Branch { .. } => 2,
            NodeKind::Exit => 0,
            _ => 1,
        };
        if node.succs.len() != expected {
            err(format!(
                "{id}: {} successors, expected {expected}",
                node.succs.len()
            ));
        }
        match node.kind {
            NodeKind::Entry if id != function.entry => err(format!("{id}: second entry")),
            NodeKind::Exit if id != function.exit => err(format!("{id}: second exit")),
            _ => {}
        }
        if let NodeKind::Assign {
            dst: Place::Local(v),
            ..
        }
        | NodeKind::Call {
            dst: Some(Place::Local(v)),
            ..
        } = &node.kind
        {
            if function.locals[*v].storage != Storage::Register {
                err(format!("{id}: register write to memory local {v}"));
            }
        }
        for expr in node.exprs() {
            check_expr(expr, function, types, &mut |m| err(format!("{id}: {m}")));
        }
    }
    if !matches!(function.nodes[function.entry].kind, NodeKind::Entry) {
        err("entry node is not Entry".into());
    }
    if !matches!(function.nodes[function.exit].kind, NodeKind::Exit) {
        err("exit node is not Exit".into());
    }
    for (v, local) in function.locals.iter_enumerated() {
        if local.storage == Storage::Register && !types.is_scalar(local.ty) {
            err(format!("{v} ({}) is a non-scalar register", local.name));
        }
    }
    errors
}

fn check_expr(expr: &Expr, function: &Function, types: &TypeTable, err: &mut impl FnMut(String)) {
    expr.walk(&mut |e| match &e.kind {
        ExprKind::Local(v)
            if function.locals.get(*v).map(|l| l.storage) != Some(Storage::Register) =>
        {
            err(format!("read of {v}, which is not a register"));
        }
        ExprKind::AddrOfLocal(v)
            if function.locals.get(*v).map(|l| l.storage) != Some(Storage::Memory) =>
        {
            err(format!("address of {v}, which is not in memory"));
        }
        ExprKind::Binary(op, lhs, rhs) => match op {
            BinOp::Shl | BinOp::Shr => {}
            BinOp::PtrAdd => {
                if !matches!(types.get(lhs.ty), Type::Pointer(_)) {
                    err(format!("PtrAdd on non-pointer {}", types.display(lhs.ty)));
                }
            }
            _ => {
                if lhs.ty != rhs.ty {
                    err(format!(
                        "operands of {} differ: {} and {}",
                        op.symbol(),
                        types.display(lhs.ty),
                        types.display(rhs.ty)
                    ));
                }
            }
        },
        _ => {}
    });
}
