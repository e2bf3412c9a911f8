//! The call graph with calls through function pointers resolved by points-to analysis:
//! [`CallGraph::build`]'s type-based targets narrowed to the functions the pointer may
//! really hold ([`crate::pointsto`], Andersen or, for large programs, unification), so
//! that call-graph and SEA impact do not flow into every function of a fitting type;
//! and library functions that call back functions of the program (`qsort`, `bsearch`,
//! `atexit`, and any external without a model) get those functions as callees.

use ripple_graph::CallGraph;
use ripple_ir::Program;

use crate::libc::external_model;
use crate::pointsto::{PointsTo, PointsToConfig};

/// The call graph of `program`, with indirect calls resolved by a points-to analysis.
pub fn resolved_call_graph(program: &Program) -> CallGraph {
    let pts = PointsTo::analyze(program, &PointsToConfig::default());
    call_graph_with(program, &pts)
}

/// The call graph of `program`, with indirect calls resolved by `pts`.
pub fn call_graph_with(program: &Program, pts: &PointsTo) -> CallGraph {
    let mut graph = CallGraph::build(program);
    graph.refine_indirect(program, |f, n| Some(pts.call_targets(f, n).to_vec()));
    graph.add_callbacks(program, |f, n| {
        let calls_back = program.functions[f].nodes[n]
            .direct_callee()
            .is_some_and(|g| external_model(&program.functions[g].name).calls_back);
        if calls_back {
            pts.callbacks(f, n).to_vec()
        } else {
            Vec::new()
        }
    });
    graph
}
