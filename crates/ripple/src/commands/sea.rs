//! `ripple sea PATHS...`: Static Execute After (or Before) sets of the functions of one
//! program (Jász, 004, section 3), optionally compared with interprocedural slices
//! (`--compare-slices`, 004 section 4.1: recall and precision of SEB against backward
//! slices, of SEA against forward slices) and with
//! the CFG/ICCFG sizes and timings of 004 Table 5 (`--stats`, which prints no sets).
//! Exit codes: 0 done, 2 error (including errors while reading the sources).

use std::time::Instant;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use ripple_analyses::sea::{sea_sets, Algorithm, AllFunctions, Direction, SeaConfig, SeaSet};
use ripple_dataflow::sdg::{Sdg, SdgConfig};
use ripple_dataflow::slice::{slice, SliceDirection};
use ripple_graph::{BitSet, Iccfg};
use ripple_ir::{FuncId, Program};
use ripple_report::sea::{
    comparison_view, sea_view, ComparisonView, ExternalFunctions, FunctionNames, StatsView,
};

use crate::cli::{FrontendArgs, ReportFormat};

#[derive(Debug, Args)]
pub struct SeaArgs {
    /// C files, directories or git revisions, loaded together as one program.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Only the set of this function (name or `file:name` key); repeatable. All functions
    /// when omitted.
    #[arg(long = "function")]
    pub functions: Vec<String>,
    /// Static Execute Before (SEB) instead of After.
    #[arg(long)]
    pub before: bool,
    /// Include the identity relation: every function is in its own set.
    #[arg(long)]
    pub with_id: bool,
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Recall and precision of each set against the functions reached by slicing from
    /// the function's statements: backward slices for SEB, forward slices for SEA.
    #[arg(long)]
    pub compare_slices: bool,
    /// Sizes of the CFGs and the ICCFG (004 Table 5) and the time to compute the
    /// relation of all functions; no sets are printed.
    #[arg(long)]
    pub stats: bool,
    /// The algorithm: 004 Fig. 4 per function, Fig. 5 for all functions, or chosen by
    /// the number of functions asked.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Auto)]
    pub algorithm: AlgorithmArg,
    /// Also list library functions (without a body, or from system headers) that the
    /// program does not call through pointers.
    #[arg(long)]
    pub externals: bool,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    Auto,
    PerFunction,
    AllFunctions,
}

pub fn run(args: &SeaArgs) -> Result<u8> {
    if args.stats && args.format == ReportFormat::Sarif {
        bail!("--stats prints sizes, not sets: it has no SARIF form (use text, json or markdown)");
    }
    let (version, errors) = super::load_program(&args.paths, &args.frontend, false)?;
    let program = version.program();
    let started = Instant::now();
    let callgraph = ripple_dataflow::resolved_call_graph(program);
    let callgraph_ms = elapsed_ms(started);
    let started = Instant::now();
    let iccfg = Iccfg::build(program, &callgraph);
    let iccfg_ms = elapsed_ms(started);
    let direction = if args.before {
        Direction::Before
    } else {
        Direction::After
    };
    let externals = if args.externals {
        ExternalFunctions::All
    } else {
        ExternalFunctions::AddressTaken
    };
    let names = FunctionNames::new(program, &callgraph, externals);
    let algorithm = match args.algorithm {
        AlgorithmArg::Auto => Algorithm::Auto,
        AlgorithmArg::PerFunction => Algorithm::PerFunction,
        AlgorithmArg::AllFunctions => Algorithm::AllFunctions,
    };
    let sea_config = SeaConfig {
        direction,
        with_identity: args.with_id,
        algorithm,
    };
    let queries: Vec<FuncId> = if args.functions.is_empty() {
        program
            .functions
            .ids()
            .filter(|&f| names.is_shown(f))
            .collect()
    } else {
        let mut ids = Vec::new();
        for name in &args.functions {
            match program
                .function_by_key(name)
                .or_else(|| program.function_by_name(name))
            {
                Some(id) => ids.push(id),
                None => bail!("{name}: no such function in {}", version.sources.label),
            }
        }
        ids
    };
    let mut view = if args.stats {
        let mut view = sea_view(&names, direction, args.with_id, &[]);
        view.stats = Some(stats(program, &iccfg, &sea_config, callgraph_ms, iccfg_ms));
        view
    } else {
        let sets = sea_sets(&iccfg, &queries, &sea_config);
        let mut view = sea_view(&names, direction, args.with_id, &sets);
        if args.compare_slices {
            view.comparison = Some(compare_with_slices(program, direction, &names, &sets));
        }
        view
    };
    if args.stats && args.compare_slices {
        let sets = sea_sets(&iccfg, &queries, &sea_config);
        view.comparison = Some(compare_with_slices(program, direction, &names, &sets));
    }
    match args.format {
        ReportFormat::Text => crate::style::print_text(&ripple_report::sea::render_text(&view)),
        ReportFormat::Json => println!("{}", ripple_report::sea::render_json(&view)),
        ReportFormat::Markdown => print!("{}", ripple_report::sea::render_markdown(&view)),
        ReportFormat::Sarif => println!(
            "{}",
            ripple_report::sarif::render_sea(
                &view,
                &version.sources.label,
                env!("CARGO_PKG_VERSION")
            )
        ),
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the sets cover what could be read");
        return Ok(2);
    }
    Ok(0)
}

/// 004 section 4.1: each SEB set against the functions holding statements of the
/// backward slice of the function's statements (what it may depend on), and each SEA set
/// against the forward slice (what may depend on it). The slices are interprocedural and
/// context-sensitive (two-phase, over the SDG); the function itself is left out.
fn compare_with_slices(
    program: &Program,
    direction: Direction,
    names: &FunctionNames<'_>,
    sets: &[SeaSet],
) -> ComparisonView {
    let sdg = Sdg::build(program, &SdgConfig::default());
    let (label, slice_direction) = match direction {
        Direction::Before => ("backward-slice", SliceDirection::Backward),
        Direction::After => ("forward-slice", SliceDirection::Forward),
    };
    comparison_view(names, label, sets, |function| {
        let criteria: Vec<_> = program.functions[function]
            .nodes
            .ids()
            .filter_map(|node| sdg.node_vertex(function, node))
            .collect();
        let mut functions = BitSet::new(program.functions.len());
        for v in slice(&sdg, &criteria, slice_direction).vertices() {
            functions.insert(sdg.function_of[v.index()].index());
        }
        functions.remove(function.index());
        functions
    })
}

/// Table 5 sizes and the time of the relation of all functions (Fig. 5, or Fig. 4 once
/// per function with `--algorithm per-function`).
fn stats(
    program: &Program,
    iccfg: &Iccfg,
    config: &SeaConfig,
    callgraph_ms: f64,
    iccfg_ms: f64,
) -> StatsView {
    let mut view = StatsView::new(&iccfg.stats);
    view.timings_ms.insert("call_graph", callgraph_ms);
    view.timings_ms.insert("iccfg", iccfg_ms);
    let rss_before = peak_rss_mib();
    let started = Instant::now();
    let all = AllFunctions::compute(iccfg);
    view.timings_ms
        .insert("sea_all_functions_fig5", elapsed_ms(started));
    let sizes = all.set_sizes(config.direction);
    let defined: Vec<usize> = program
        .functions
        .iter_enumerated()
        .filter(|(_, f)| f.is_defined())
        .map(|(id, _)| id.index())
        .collect();
    view.average_set_size = if defined.is_empty() {
        0.0
    } else {
        defined.iter().map(|&f| sizes[f]).sum::<usize>() as f64 / defined.len() as f64
    };
    view.call_graph_components = all.sccs.len();
    view.largest_call_graph_component = all.sccs.members.iter().map(Vec::len).max().unwrap_or(0);
    if config.algorithm == Algorithm::PerFunction {
        let started = Instant::now();
        let mut total = 0usize;
        for f in program.functions.ids() {
            total += ripple_analyses::sea::per_function(iccfg, f, config.direction)
                .union()
                .count();
        }
        view.timings_ms
            .insert("sea_all_functions_fig4", elapsed_ms(started));
        // Both algorithms give the same relation; the sizes must agree.
        let fig5_total: usize = sizes.iter().sum();
        if total != fig5_total {
            eprintln!("ripple: warning: Fig. 4 and Fig. 5 sizes differ ({total} and {fig5_total})");
        }
    }
    if let (Some(before), Some(after)) = (rss_before, peak_rss_mib()) {
        view.memory_mib.insert("peak_before_sea", before);
        view.memory_mib.insert("peak_after_sea", after);
    }
    view
}

fn elapsed_ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

/// The process's peak resident memory (Linux `VmHWM`), in MiB.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
