//! Times the dependence engines on one preprocessed file (`cc -E` output):
//! `cargo run --release -p ripple-dataflow --example sdg_bench -- FILE.i [SUMMARY_BUDGET [FUNCTION]]`.
//! Prints the time and size of each stage: lowering, points-to, mod/ref, the SDG, and a
//! forward slice from every node of FUNCTION (default: the first defined function).
//! The environment variables `ANDERSEN_NODE_LIMIT` and `ANDERSEN_WORK_LIMIT` override
//! the points-to limits of this run, and `ANDERSEN_NO_COLLAPSE` turns cycle collapsing
//! off (the SDG stage keeps the defaults); `POINTSTO_ONLY` stops after points-to;
//! `ACCESSES_OF=NAME` lists the memory each node of function NAME touches;
//! `POINTSTO_VERIFY` checks that the Andersen result satisfies every constraint;
//! `POINTSTO_DIGEST` prints a hash of the whole points-to result (regions, accesses,
//! havoc nodes, call targets and callbacks of every node), to compare two solvers.
use std::time::Instant;

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_dataflow::slice::{traverse, SliceDirection};
use ripple_dataflow::{ModRef, PointsTo, PointsToConfig, Sdg, SdgConfig};

/// Whether an access is listed without `ALL_ACCESSES`: writes only.
fn names_shown(a: &ripple_dataflow::pointsto::Access) -> bool {
    a.kind == ripple_dataflow::pointsto::AccessKind::Write
}

/// A hash of everything a points-to result says about the program.
fn digest(program: &ripple_ir::Program, pts: &PointsTo) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pts.part_objects.hash(&mut h);
    for (f, function) in program.functions.iter_enumerated() {
        for n in function.nodes.ids() {
            pts.accesses(f, n).hash(&mut h);
            pts.is_havoc(f, n).hash(&mut h);
            pts.call_targets(f, n).hash(&mut h);
            pts.callbacks(f, n).hash(&mut h);
        }
    }
    h.finish()
}

fn main() {
    let path = std::env::args().nth(1).expect("FILE.i");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let t = Instant::now();
    let unit = TranslationUnit::preprocessed(path.clone(), &text, str::to_string);
    let program = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: false,
            ..FrontendConfig::default()
        },
    )
    .program;
    let nodes = program.node_count();
    println!(
        "lower    {:>8.2?}  {} functions, {nodes} nodes",
        t.elapsed(),
        program.functions.len()
    );
    let mut pts_config = PointsToConfig::default();
    if let Ok(limit) = std::env::var("ANDERSEN_NODE_LIMIT") {
        pts_config.andersen_node_limit = limit.parse().expect("a node limit");
    }
    if let Ok(limit) = std::env::var("ANDERSEN_WORK_LIMIT") {
        pts_config.andersen_work_limit = limit.parse().expect("a work limit");
    }
    if std::env::var("ANDERSEN_NO_COLLAPSE").is_ok() {
        pts_config.collapse_cycles = false;
    }
    pts_config.verify_fixpoint = std::env::var("POINTSTO_VERIFY").is_ok();
    // EXPLAIN=function:variable:object prints how the object reaches the variable's set.
    if let Ok(spec) = std::env::var("EXPLAIN") {
        let parts: Vec<&str> = spec.splitn(3, ':').collect();
        if let [f, v, o] = parts[..] {
            pts_config.explain = Some((f.to_string(), v.to_string(), o.to_string()));
        }
    }
    let t = Instant::now();
    let pts = PointsTo::analyze(&program, &pts_config);
    for step in &pts.explained {
        println!("  {step}");
    }
    println!(
        "pointsto {:>8.2?}  {} regions, mode {:?}{}",
        t.elapsed(),
        pts.part_count(),
        pts.mode,
        match pts.andersen {
            Some(s) => format!(
                " (Andersen {}: {} work, {} pvars substituted, {} collapsed in {} cycle searches{})",
                if s.converged { "converged" } else { "gave up" },
                s.work,
                s.substituted,
                s.collapsed,
                s.cycle_searches,
                match s.violations {
                    Some(v) => format!(", {v} constraints violated"),
                    None => String::new(),
                }
            ),
            None => " (Andersen not tried: above the node limit)".to_string(),
        }
    );
    // How many objects a memory access may touch, over the nodes that access memory.
    quantiles(
        "objects per accessing node",
        &per_accessing_node(&program, &pts, |parts| {
            parts
                .iter()
                .map(|p| pts.part_objects[p.index()].len())
                .sum()
        }),
    );
    if let Ok(name) = std::env::var("ACCESSES_OF") {
        // The memory each node of one function touches, by region.
        for (f, function) in program.functions.iter_enumerated() {
            if function.name != name {
                continue;
            }
            for (n, node) in function.nodes.iter_enumerated() {
                let accesses = pts.accesses(f, n);
                if accesses.is_empty() {
                    continue;
                }
                let names: Vec<String> = accesses
                    .iter()
                    .filter(|a| std::env::var("ALL_ACCESSES").is_ok() || names_shown(a))
                    .map(|a| format!("{:?} {}", a.kind, pts.part_name(&program, a.part)))
                    .collect();
                println!(
                    "  line {} ({} accesses): {}",
                    node.span.start_line,
                    accesses.len(),
                    names.join("; ")
                );
            }
        }
    }
    if std::env::var("OBJECT_KINDS").is_ok() {
        let mut kinds = std::collections::BTreeMap::new();
        for o in &pts.objects {
            let k = format!("{o:?}");
            *kinds
                .entry(k.split('(').next().unwrap_or("").to_string())
                .or_insert(0) += 1;
        }
        println!("         objects by kind: {kinds:?}");
        if std::env::var("HEAP_OBJECTS").is_ok() {
            for o in &pts.objects {
                if let ripple_dataflow::pointsto::Object::Heap(f, n) = o {
                    let function = &program.functions[*f];
                    println!(
                        "         heap {} line {}",
                        function.name, function.nodes[*n].span.start_line
                    );
                }
            }
        }
    }
    if std::env::var("POINTSTO_DIGEST").is_ok() {
        println!("         digest {:016x}", digest(&program, &pts));
    }
    let t = Instant::now();
    let pts = pts.merged_by_access();
    println!(
        "by access{:>8.2?}  {} regions of {}",
        t.elapsed(),
        pts.part_count(),
        pts.fine_regions
    );
    quantiles(
        "regions per accessing node",
        &per_accessing_node(&program, &pts, |parts| parts.len()),
    );
    if std::env::var("UNMODELLED").is_ok() {
        println!(
            "unmodelled {:?}",
            ripple_dataflow::unmodelled_library_functions(&program)
        );
    }
    if std::env::var("POINTSTO_ONLY").is_ok() {
        return;
    }
    let t = Instant::now();
    let _modref = ModRef::compute(&program, &pts);
    println!("modref   {:>8.2?}", t.elapsed());
    let t = Instant::now();
    let mut config = SdgConfig {
        points_to: pts_config.clone(),
        ..SdgConfig::default()
    };
    if let Some(budget) = std::env::args().nth(2) {
        config.max_summary_estimate = budget.parse().expect("a summary budget");
    }
    let sdg = Sdg::build(&program, &config);
    println!(
        "sdg      {:>8.2?}  {} vertices, {} edges, {} bindings, {} regions context-insensitive (includes points-to and mod/ref again)",
        t.elapsed(),
        sdg.vertex_count(),
        sdg.edge_count(),
        sdg.bindings.len(),
        sdg.global_regions.count()
    );
    let wanted = std::env::args().nth(3);
    let Some((f, function)) = program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.is_defined() && wanted.as_ref().is_none_or(|w| *w == f.name))
    else {
        return;
    };
    let sources: Vec<_> = function
        .nodes
        .ids()
        .filter_map(|n| sdg.node_vertex(f, n))
        .collect();
    let t = Instant::now();
    let slice = traverse(&sdg, &sources, SliceDirection::Forward, &|_, _, _| true);
    println!(
        "slice    {:>8.2?}  {} vertices, {} lines from {}",
        t.elapsed(),
        slice.vertices().len(),
        {
            let mut lines: Vec<_> = slice
                .vertices()
                .into_iter()
                .map(|v| {
                    let s = sdg.span(&program, v);
                    (s.file, s.start_line)
                })
                .collect();
            lines.sort_unstable();
            lines.dedup();
            lines.len()
        },
        function.name
    );
}

/// `measure` of the regions each node that accesses memory (no havoc) touches, sorted.
fn per_accessing_node(
    program: &ripple_ir::Program,
    pts: &PointsTo,
    measure: impl Fn(&[ripple_dataflow::PartId]) -> usize,
) -> Vec<usize> {
    let mut sizes: Vec<usize> = Vec::new();
    for (f, function) in program.functions.iter_enumerated() {
        for n in function.nodes.ids() {
            let accesses = pts.accesses(f, n);
            if !accesses.is_empty() && !pts.is_havoc(f, n) {
                let mut parts: Vec<_> = accesses.iter().map(|a| a.part).collect();
                parts.sort_unstable();
                parts.dedup();
                sizes.push(measure(&parts));
            }
        }
    }
    sizes.sort_unstable();
    sizes
}

/// Prints the median, 75% and 90% quantiles, maximum and mean of sorted `sizes`.
fn quantiles(label: &str, sizes: &[usize]) {
    if sizes.is_empty() {
        return;
    }
    let q = |p: usize| sizes[(sizes.len() - 1) * p / 100];
    println!(
        "         {label}: median {}, 75% {}, 90% {}, max {}, mean {:.1}",
        q(50),
        q(75),
        q(90),
        q(100),
        sizes.iter().sum::<usize>() as f64 / sizes.len() as f64
    );
}
