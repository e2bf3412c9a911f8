//! What the C runtime calls around `main`: the functions with GCC's `constructor`
//! attribute before it, those with `destructor` after it returns. They become calls in
//! `main`, right after its entry and right before its exit, so that what they write is
//! what `main` reads and what `main` wrote is what they read. (A destructor also runs
//! at `exit`, which ends the program: what it reads then is not followed.)

use ripple_ir::{Callee, FuncId, Node, NodeKind, Program};

/// Calls `constructors` after `main`'s entry and `destructors` before its exit (each in
/// the order given; those with parameters are not called: the runtime passes none the
/// program can rely on).
pub(crate) fn call_around_main(
    program: &mut Program,
    constructors: &[FuncId],
    destructors: &[FuncId],
) {
    if constructors.is_empty() && destructors.is_empty() {
        return;
    }
    let Some(main) = program.defined_main() else {
        return;
    };
    // Each defined function once (its declarations may carry the attribute too), in
    // the order first seen.
    let callable = |program: &Program, list: &[FuncId]| -> Vec<FuncId> {
        let mut out: Vec<FuncId> = Vec::new();
        for &f in list {
            let function = &program.functions[f];
            if f != main && function.is_defined() && function.params.is_empty() && !out.contains(&f)
            {
                out.push(f);
            }
        }
        out
    };
    let (constructors, destructors) = (
        callable(program, constructors),
        callable(program, destructors),
    );
    let function = &mut program.functions[main];
    // The calls belong to the whole function (its syntax root), at its header.
    let syn = function.syntax.as_ref().map(|s| s.root);
    let span = function.nodes[function.entry].span;
    let call = |callee: FuncId, next| Node {
        kind: NodeKind::Call {
            dst: None,
            callee: Callee::Direct(callee),
            args: Vec::new(),
        },
        succs: vec![next],
        span,
        syn,
    };
    let (entry, exit) = (function.entry, function.exit);
    // Before the exit: every edge into it goes through the destructors first.
    let before = function.nodes.len();
    let mut next = exit;
    for &d in destructors.iter().rev() {
        next = function.nodes.push(call(d, next));
    }
    if next != exit {
        for node in function.nodes.iter_mut().take(before) {
            for s in node.succs.iter_mut().filter(|s| **s == exit) {
                *s = next;
            }
        }
    }
    // After the entry.
    let mut next = function.nodes[entry].succs[0];
    for &c in constructors.iter().rev() {
        next = function.nodes.push(call(c, next));
    }
    function.nodes[entry].succs[0] = next;
}
