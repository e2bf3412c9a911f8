//! Statics that nothing writes are constants. A `static` variable (file-scoped, or a
//! function's static local) can only be written by the code of its unit, through its
//! name or through its address. When no statement stores to it, its address is only
//! ever read from (never kept, passed, returned or stored in an initializer), and every
//! function of the program could be read (an unread body may name it), it holds its
//! initial value in every run: it is marked `const`, so that the analyses take its
//! contents as facts rather than as inputs, as they do for a declared constant (a
//! `static int max = 511;` used as a limit is not a free input of its readers).

use ripple_ir::{Expr, ExprKind, InitItem, Linkage, NodeKind, Place, Program};

/// Marks the statics of `program` that nothing writes as constants.
pub(crate) fn mark_unwritten_statics(program: &mut Program) {
    if !program.read_errors.is_empty() {
        return;
    }
    // Per global: written, or its address used other than as where a read reads.
    let mut touched = vec![false; program.globals.len()];
    for function in &program.functions {
        for node in &function.nodes {
            match &node.kind {
                NodeKind::Assign { dst, value } => {
                    place(dst, &mut touched);
                    value_uses(value, &mut touched);
                }
                NodeKind::Call { dst, callee, args } => {
                    if let Some(dst) = dst {
                        place(dst, &mut touched);
                    }
                    if let ripple_ir::Callee::Indirect(target) = callee {
                        value_uses(target, &mut touched);
                    }
                    for a in args {
                        value_uses(a, &mut touched);
                    }
                }
                NodeKind::Branch { cond } => value_uses(cond, &mut touched),
                NodeKind::Havoc { dst: Some(dst), .. } => place(dst, &mut touched),
                NodeKind::Havoc { dst: None, .. }
                | NodeKind::Entry
                | NodeKind::Exit
                | NodeKind::Skip => {}
            }
        }
    }
    for global in &program.globals {
        for item in global.init.iter().flat_map(|i| &i.items) {
            if let InitItem::Value { value, .. } | InitItem::Bits { value, .. } = item {
                value_uses(value, &mut touched);
            }
        }
    }
    for (global, touched) in program.globals.iter_mut().zip(touched) {
        if matches!(global.linkage, Linkage::Internal(_))
            && global.init.is_some()
            && !global.key.starts_with('.')
            && !touched
        {
            global.is_const = true;
        }
    }
}

/// A store to `dst`: every global its address names is written.
fn place(dst: &Place, touched: &mut [bool]) {
    match dst {
        Place::Local(_) => {}
        Place::Mem { addr, .. } | Place::Bits { addr, .. } => every_global(addr, touched),
    }
}

/// Every global named anywhere in `e`.
fn every_global(e: &Expr, touched: &mut [bool]) {
    e.walk(&mut |e| {
        if let ExprKind::AddrOfGlobal(g) = e.kind {
            touched[g.index()] = true;
        }
    });
}

/// The globals whose address `e` uses as a value: all it names but those only read
/// through (the address of a load, offset by integers).
fn value_uses(e: &Expr, touched: &mut [bool]) {
    e.global_uses(&mut |_| {}, &mut |g| touched[g.index()] = true);
}
