//! Times the frontend on one file: `cargo run --release -p ripple-c --example lower_bench
//! -- FILE [--pp] [--syntax]` (`--pp`: FILE is `cc -E` output).
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("FILE");
    let text = std::fs::read_to_string(path).expect("readable file");
    let pp = args.iter().any(|a| a == "--pp");
    let build_syntax = args.iter().any(|a| a == "--syntax");
    let t0 = std::time::Instant::now();
    let unit = if pp {
        TranslationUnit::preprocessed(path.clone(), &text, str::to_string)
    } else {
        TranslationUnit {
            path: path.clone(),
            text,
            line_map: None,
        }
    };
    let t1 = std::time::Instant::now();
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax,
            ..FrontendConfig::default()
        },
    );
    let t2 = std::time::Instant::now();
    let nodes: usize = lowered.program.node_count();
    println!(
        "unit {:?} lower {:?}  functions {} nodes {} diagnostics {}",
        t1 - t0,
        t2 - t1,
        lowered.program.functions.len(),
        nodes,
        lowered.diagnostics.len()
    );
}
