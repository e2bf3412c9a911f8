//! Lowers the C files given on the command line and prints the IR and diagnostics.

fn main() {
    let mut units = Vec::new();
    let mut quiet = false;
    for arg in std::env::args().skip(1) {
        if arg == "-q" {
            quiet = true;
            continue;
        }
        let text = std::fs::read_to_string(&arg).unwrap_or_default();
        let line_map = if text.starts_with("# ") {
            Some(ripple_c::LineMap::from_preprocessed(&text, str::to_string))
        } else {
            None
        };
        units.push(ripple_c::TranslationUnit {
            path: arg,
            text,
            line_map,
        });
    }
    let start = std::time::Instant::now();
    let lowered = ripple_c::lower_units(&units, &ripple_c::FrontendConfig::default());
    let elapsed = start.elapsed();
    if !quiet {
        print!("{}", ripple_ir::dump_program(&lowered.program));
    }
    for d in &lowered.diagnostics {
        eprintln!(
            "{}:{}:{}: {:?}: {}",
            d.file, d.line, d.col, d.severity, d.message
        );
    }
    let errors = ripple_ir::validate_program(&lowered.program);
    for e in errors.iter().take(20) {
        eprintln!("invalid: {e}");
    }
    let nodes: usize = lowered.program.node_count();
    eprintln!(
        "{} functions, {} nodes, {} diagnostics, {} validation errors, {} approximations in {:?}",
        lowered.program.functions.len(),
        nodes,
        lowered.diagnostics.len(),
        errors.len(),
        lowered.program.approximations.len(),
        elapsed
    );
}
