//! `ripple slice PATHS... --line FILE:LINE [--backward]`: the interprocedural,
//! context-sensitive slice (Horwitz, Reps and Binkley two-phase slicing over the system
//! dependence graph) of the statements on one line: forward by default (what they may
//! affect), backward with `--backward` (what may affect them). Forward and backward
//! slices are duals: `b` is in the forward slice of `a` exactly when `a` is in the
//! backward slice of `b` (see `ripple_dataflow::slice`).
//!
//! Exit codes: 0 done, 2 error (no statement on the line, a file that is not part of
//! the program, errors while reading the sources).

use anyhow::Result;
use clap::Args;
use ripple_dataflow::slice::{slice, SliceDirection};
use ripple_dataflow::{Sdg, SdgConfig, VertexId, VertexKind};
use ripple_ir::{FileId, FuncId, NodeId, Program};

use crate::cli::{FrontendArgs, ReportFormat};

#[derive(Debug, Args)]
pub struct SliceArgs {
    /// C files, directories or git revisions, loaded together as one program.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The slicing criterion: every statement on this line.
    #[arg(long, value_name = "FILE:LINE")]
    pub line: String,
    /// The backward slice (what may affect the line) instead of the forward one.
    #[arg(long)]
    pub backward: bool,
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

pub fn run(args: &SliceArgs) -> Result<u8> {
    let Some((file_arg, line)) = args
        .line
        .rsplit_once(':')
        .and_then(|(f, l)| Some((f, l.parse::<u32>().ok()?)))
    else {
        eprintln!("ripple: error: --line takes FILE:LINE, not `{}`", args.line);
        return Ok(2);
    };
    let (version, errors) = super::load_program(&args.paths, &args.frontend, false)?;
    let program = version.program();
    let files = match_files(program, file_arg);
    let file = match files.as_slice() {
        [] => {
            eprintln!("ripple: error: {file_arg} is not a file of the program");
            return Ok(2);
        }
        [file] => *file,
        _ => {
            let names: Vec<&str> = files.iter().map(|&f| program.file_path(f)).collect();
            eprintln!(
                "ripple: error: {file_arg} names several files of the program: {}",
                names.join(", ")
            );
            return Ok(2);
        }
    };
    let sdg = Sdg::build(program, &SdgConfig::default());
    let (criteria, functions) = criterion_vertices(program, &sdg, file, line);
    if criteria.is_empty() {
        eprintln!(
            "ripple: error: {}:{line} holds no statement",
            program.file_path(file)
        );
        return Ok(2);
    }
    let direction = if args.backward {
        SliceDirection::Backward
    } else {
        SliceDirection::Forward
    };
    let traversal = slice(&sdg, &criteria, direction);
    let mut nodes: Vec<(FuncId, NodeId)> = traversal
        .vertices()
        .into_iter()
        .filter(|&v| {
            !matches!(
                sdg.kinds[v.index()],
                VertexKind::Memory(_) | VertexKind::Region(_)
            )
        })
        .filter_map(|v| Some((sdg.function_of[v.index()], sdg.node_of(program, v)?)))
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let view = ripple_report::slice::slice_view(
        &version.sources.label,
        program,
        args.backward,
        (program.file_path(file), line),
        &functions,
        &nodes,
    );
    match args.format {
        ReportFormat::Text => crate::style::print_text(&ripple_report::slice::render_text(&view)),
        ReportFormat::Json => println!("{}", ripple_report::slice::render_json(&view)),
        ReportFormat::Markdown => print!("{}", ripple_report::slice::render_markdown(&view)),
        ReportFormat::Sarif => println!(
            "{}",
            ripple_report::sarif::render_slice(&view, env!("CARGO_PKG_VERSION"))
        ),
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        return Ok(2);
    }
    Ok(0)
}

/// The files of the program `name` designates: the same path, or one ending in the
/// other (`dir/a.c` names `a.c` when the program was loaded from `dir`, and back).
fn match_files(program: &Program, name: &str) -> Vec<FileId> {
    let name = name.strip_prefix("./").unwrap_or(name);
    let exact: Vec<FileId> = program
        .files
        .ids()
        .filter(|&f| program.file_path(f) == name)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    program
        .files
        .ids()
        .filter(|&f| {
            let path = program.file_path(f);
            path.ends_with(&format!("/{name}")) || name.ends_with(&format!("/{path}"))
        })
        .collect()
}

/// The vertices of the statements on `file:line` (nodes, the actuals of calls on it, and
/// the formals of a function whose entry or exit lies on it), and their functions.
fn criterion_vertices(
    program: &Program,
    sdg: &Sdg,
    file: FileId,
    line: u32,
) -> (Vec<VertexId>, Vec<FuncId>) {
    let mut vertices = Vec::new();
    let mut functions = Vec::new();
    for v in 0..sdg.vertex_count() {
        let v = VertexId(v as u32);
        if matches!(
            sdg.kinds[v.index()],
            VertexKind::Memory(_) | VertexKind::Region(_)
        ) {
            continue;
        }
        let f = sdg.function_of[v.index()];
        let Some(node) = sdg.node_of(program, v) else {
            continue;
        };
        let span = program.functions[f].nodes[node].span;
        if span.file == file && span.start_line == line {
            vertices.push(v);
            functions.push(f);
        }
    }
    functions.sort_unstable();
    functions.dedup();
    (vertices, functions)
}
