//! `ripple stats VERSION`: what the frontend made of the sources. With `--each-file`,
//! every C file is loaded on its own, so one bad file cannot hide the others (the
//! robustness runs over real packages use this).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_version, print_diagnostics, LoadConfig, SourceSet, VersionSpec};

#[derive(Default)]
struct Totals {
    files: usize,
    functions: usize,
    defined: usize,
    nodes: usize,
    call_edges: usize,
    errors: usize,
    warnings: usize,
    approximations: BTreeMap<&'static str, usize>,
    failed_files: Vec<String>,
}

pub fn run(version: &str, each_file: bool, format: Format, args: &FrontendArgs) -> Result<u8> {
    let spec = VersionSpec::parse(version)?;
    let config = super::load_config(args, false)?;
    let mut totals = Totals::default();
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
        Format::Text => {
            println!(
                "files {}  functions {} ({} defined)  IR nodes {}  call edges {}",
                totals.files, totals.functions, totals.defined, totals.nodes, totals.call_edges
            );
            println!(
                "diagnostics: {} error(s), {} warning(s)",
                totals.errors, totals.warnings
            );
            let approximated: usize = totals.approximations.values().sum();
            println!("approximated constructs: {approximated}");
            for (kind, count) in &totals.approximations {
                println!("  {kind}: {count}");
            }
        }
        Format::Json => {
            let doc = json!({
                "schema": ripple_report::SCHEMA_VERSION,
                "files": totals.files,
                "functions": totals.functions,
                "defined_functions": totals.defined,
                "ir_nodes": totals.nodes,
                "call_edges": totals.call_edges,
                "errors": totals.errors,
                "warnings": totals.warnings,
                "approximations": totals.approximations,
                "failed_files": totals.failed_files,
            });
            println!("{}", serde_json::to_string_pretty(&doc)?);
        }
    }
    Ok(if totals.errors > 0 { 2 } else { 0 })
}

fn load_one(
    spec: &VersionSpec,
    config: &LoadConfig,
    totals: &mut Totals,
    verbose: bool,
) -> Result<()> {
    let loaded = load_version(spec, config)?;
    let program = loaded.program();
    let graph = ripple_dataflow::resolved_call_graph(program);
    totals.files += loaded.sources.unit_files().len();
    totals.functions += program.functions.len();
    totals.defined += program.functions.iter().filter(|f| f.is_defined()).count();
    totals.nodes += program.node_count();
    totals.call_edges += graph.callees.iter().map(Vec::len).sum::<usize>();
    let (errors, warnings) = print_diagnostics(loaded.diagnostics(), verbose);
    totals.errors += errors;
    totals.warnings += warnings;
    for a in &program.approximations {
        *totals.approximations.entry(a.kind.name()).or_default() += 1;
    }
    Ok(())
}
