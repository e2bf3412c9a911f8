//! `ripple dump ast|ir|cfg|callgraph VERSION`: every intermediate form, as text or dot.

use std::fmt::Write;

use anyhow::{bail, Result};
use ripple_ir::{FuncId, Function, NodeKind, Program, SynId, SyntaxTree};

use crate::cli::{DumpKind, FrontendArgs};
use crate::load::{load_version, report_diagnostics, VersionSpec};

pub fn run(
    what: DumpKind,
    version: &str,
    functions: &[String],
    dot: bool,
    args: &FrontendArgs,
) -> Result<u8> {
    let spec = VersionSpec::parse(version)?;
    let config = super::load_config(args, what == DumpKind::Ast)?;
    let loaded = load_version(&spec, &config)?;
    let errors = report_diagnostics(&loaded, args.verbose);
    let program = loaded.program();
    let selected = select(program, functions)?;
    let out = match what {
        DumpKind::Ast => selected
            .iter()
            .filter_map(|&f| {
                let function = &program.functions[f];
                function.syntax.as_ref().map(|tree| {
                    let mut out = format!("fn {}\n", function.key);
                    ast(tree, tree.root, 1, &mut out);
                    out
                })
            })
            .collect(),
        DumpKind::Ir if functions.is_empty() => ripple_ir::dump_program(program),
        DumpKind::Ir => selected
            .iter()
            .map(|&f| ripple_ir::dump_function(program, &program.functions[f]))
            .collect(),
        DumpKind::Cfg if dot => cfg_dot(program, &selected),
        DumpKind::Cfg => selected
            .iter()
            .map(|&f| ripple_ir::dump_function(program, &program.functions[f]))
            .collect(),
        DumpKind::Callgraph => callgraph(program, &selected, dot),
    };
    print!("{out}");
    Ok(if errors > 0 { 2 } else { 0 })
}

/// The requested functions by name or key, or every function defined in the version's
/// own files (not in system headers).
fn select(program: &Program, names: &[String]) -> Result<Vec<FuncId>> {
    if names.is_empty() {
        return Ok(program
            .functions
            .iter_enumerated()
            .filter(|(_, f)| f.is_defined() && !program.is_system_file(f.span.file))
            .map(|(id, _)| id)
            .collect());
    }
    names
        .iter()
        .map(|name| match program.function_by_name(name) {
            Some(id) => Ok(id),
            None => bail!("no function named {name}"),
        })
        .collect()
}

fn ast(tree: &SyntaxTree, id: SynId, depth: usize, out: &mut String) {
    let node = &tree.nodes[id];
    let marker = if node.is_statement { " [stmt]" } else { "" };
    let _ = write!(out, "{:indent$}{}", "", node.kind, indent = depth * 2);
    if !node.label.is_empty() {
        let _ = write!(out, " {:?}", node.label);
    }
    let _ = writeln!(
        out,
        " @{}:{}{marker}",
        node.span.start_line, node.span.start_col
    );
    for &child in &node.children {
        ast(tree, child, depth + 1, out);
    }
}

/// Node labels for dot output, taken from the IR dump (one line per node).
fn node_labels(function: &Function, program: &Program) -> Vec<String> {
    let text = ripple_ir::dump_function(program, function);
    text.lines()
        .filter(|l| l.starts_with("  n"))
        .map(|l| l.trim().replace('"', "\\\""))
        .collect()
}

fn cfg_dot(program: &Program, selected: &[FuncId]) -> String {
    let mut out = String::from("digraph cfg {\n  node [shape=box, fontname=monospace];\n");
    for &f in selected {
        let function = &program.functions[f];
        let _ = writeln!(
            out,
            "  subgraph cluster_{} {{\n    label=\"{}\";",
            f.0, function.key
        );
        let labels = node_labels(function, program);
        for (id, node) in function.nodes.iter_enumerated() {
            let label = labels.get(id.index()).map_or("", String::as_str);
            let _ = writeln!(out, "    f{}_{} [label=\"{label}\"];", f.0, id.0);
            for (i, succ) in node.succs.iter().enumerate() {
                let label = match (&node.kind, i) {
                    (NodeKind::Branch { .. }, 0) => " [label=T]",
                    (NodeKind::Branch { .. }, _) => " [label=F]",
                    _ => "",
                };
                let _ = writeln!(out, "    f{}_{} -> f{}_{}{label};", f.0, id.0, f.0, succ.0);
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn callgraph(program: &Program, selected: &[FuncId], dot: bool) -> String {
    let graph = ripple_dataflow::resolved_call_graph(program);
    let mut out = String::new();
    if dot {
        out.push_str("digraph callgraph {\n");
    }
    for &f in selected {
        let caller = &program.functions[f].key;
        for &callee in &graph.callees[f.index()] {
            let callee_fn = &program.functions[callee];
            let external = if callee_fn.is_defined() {
                ""
            } else {
                " (external)"
            };
            if dot {
                let _ = writeln!(out, "  \"{caller}\" -> \"{}\";", callee_fn.key);
            } else {
                let _ = writeln!(out, "{caller} -> {}{external}", callee_fn.key);
            }
        }
    }
    if dot {
        out.push_str("}\n");
    }
    out
}
