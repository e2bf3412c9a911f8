//! `ripple stats VERSION`: what the frontend made of the sources. With `--each-file`,
//! every C file is loaded on its own, so one bad file cannot hide the others (the
//! robustness runs over real packages use this).

use std::path::PathBuf;

use anyhow::Result;
use ripple_report::stats::StatsView;

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_version, print_diagnostics, LoadConfig, SourceSet, VersionSpec};

pub fn run(version: &str, each_file: bool, format: Format, args: &FrontendArgs) -> Result<u8> {
    let spec = VersionSpec::parse(version)?;
    let config = super::load_config(args, false)?;
    let mut totals = StatsView::new();
    if each_file {
        let sources = SourceSet::load(&spec)?;
        let files: Vec<PathBuf> = sources.unit_files().into_iter().cloned().collect();
        for file in files {
            let one = VersionSpec::Path(sources.root.join(&file));
            match load_one(&one, &config, &mut totals, args.verbose) {
                Ok(()) => {}
                Err(e) => {
                    eprintln!("{}: error: {e:#}", file.display());
                    totals.failed_files.push(file.display().to_string());
                    totals.errors += 1;
                }
            }
        }
    } else {
        load_one(&spec, &config, &mut totals, args.verbose)?;
    }
    match format {
        Format::Text => crate::style::print_text(&ripple_report::stats::render_text(&totals)),
        Format::Json => println!("{}", ripple_report::stats::render_json(&totals)),
    }
    Ok(if totals.errors > 0 { 2 } else { 0 })
}

fn load_one(
    spec: &VersionSpec,
    config: &LoadConfig,
    totals: &mut StatsView,
    verbose: bool,
) -> Result<()> {
    let loaded = load_version(spec, config)?;
    let program = loaded.program();
    let graph = ripple_dataflow::resolved_call_graph(program);
    totals.files += loaded.sources.unit_files().len();
    totals.functions += program.functions.len();
    totals.defined_functions += program.functions.iter().filter(|f| f.is_defined()).count();
    totals.ir_nodes += program.node_count();
    totals.call_edges += graph.callees.iter().map(Vec::len).sum::<usize>();
    let (errors, warnings) = print_diagnostics(loaded.diagnostics(), verbose);
    totals.errors += errors;
    totals.warnings += warnings;
    for a in &program.approximations {
        *totals
            .approximations
            .entry(a.kind.name().to_string())
            .or_default() += 1;
    }
    Ok(())
}
