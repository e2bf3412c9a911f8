//! Functions that never return, and the control flow they cut.
//!
//! A function never returns when it is declared so (`_Noreturn`, the `noreturn`
//! attribute), when it is a library function that does not (`exit`, `abort`,
//! `longjmp`, ..., `libc`), or when every path of its body ends in such a call or never
//! leaves a loop (its exit is unreachable once those calls are cut). The inference is
//! the greatest fixpoint over the call graph: mutually recursive functions without a
//! path to their exits never return either. Calls through pointers, havoc bodies and
//! undeclared externals are assumed to return.
//!
//! Nothing after a call of such a function runs, so [`cut_after_calls`] makes the call
//! go straight to the exit of the caller: the same executions, and the statements after
//! the call become unreachable, where a change changes nothing (issue of precise error
//! paths: a `return;` added after a call of an error function is no change at all).

use ripple_ir::{Callee, FuncId, Function, NodeId, NodeKind, Program};

use crate::libc::external_model;

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
