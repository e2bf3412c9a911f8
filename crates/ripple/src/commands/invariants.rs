//! `ripple invariants V1 V2 [V3 ...]`: invariant diffs (003) of two or more versions:
//! version invariants and invariant churns at matched points, each churn with the lines
//! that cause it. A version is a file, a directory or a git revision; `A..B` stands for
//! A and every commit of the range (first parents), in order.
//!
//! Exit codes: 0 no churn, 1 some churn, 2 error (bad input, unreadable sources).

use anyhow::{bail, Context, Result};
use clap::Args;
use ripple_analyses::invariants::{
    invariant_diffs_on, At, Budget, InvariantConfig, Mvicfg, QueryLimits, Smt, Templates,
};

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_versions, report_diagnostics, VersionSpec};

#[derive(Debug, Args)]
pub struct InvariantsArgs {
    /// The versions, oldest first: C files, directories, git revisions, or a range A..B.
    #[arg(required = true, value_name = "VERSION")]
    pub inputs: Vec<String>,
    /// The point: FUNCTION (its exit), FUNCTION:entry, FUNCTION:exit or FUNCTION:LINE (a
    /// line of the first chosen version). Repeatable; every function's exit by default.
    #[arg(long, value_name = "FUNCTION[:entry|:exit|:LINE]")]
    pub at: Vec<String>,
    /// Templates to instantiate (default all): constant, expression, bounds, relations,
    /// linear. Repeatable or comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub template: Vec<String>,
    /// The versions to compare, by position from 1 (default: all), e.g. `1,3`.
    #[arg(long = "versions", value_delimiter = ',', value_name = "N,...")]
    pub select: Vec<usize>,
    /// Propagation steps per point before its versions are left undecided (a node visit
    /// is one; large values and paths meeting at a node weigh more).
    #[arg(long, default_value_t = QueryLimits::default().steps)]
    pub steps: usize,
    /// Unroll loops instead of abstracting them: follow each loop's back edge at most K
    /// times per path. Where a path needed more, the point's invariants are reported as
    /// holding on the executions within the bound only (bounded, not proved for all).
    #[arg(long, value_name = "K")]
    pub unroll: Option<u32>,
    /// Solver budget of each version at each point, in seconds of deterministic work
    /// (solver resource units): the same input gives the same answer on any machine.
    /// What is not decided within it is reported as undecided.
    #[arg(long, default_value_t = 10.0)]
    pub budget: f64,
    /// List the invariants of every version at every point, churn or not.
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

/// The versions named by the arguments (a range expands to its commits).
fn expand(args: &[String]) -> Result<Vec<(String, VersionSpec)>> {
    let mut out = Vec::new();
    for arg in args {
        if let Some((base, tip)) = arg.split_once("..") {
            if base.is_empty() || tip.is_empty() || tip.starts_with('.') {
                bail!("`{arg}`: a range of versions is A..B");
            }
            out.push((base.to_string(), VersionSpec::Revision(base.to_string())));
            for (commit, _) in crate::load::commits_between(base, tip)? {
                let short = commit[..commit.len().min(12)].to_string();
                out.push((short, VersionSpec::Revision(commit)));
            }
        } else {
            out.push((arg.clone(), VersionSpec::parse(arg)?));
        }
    }
    Ok(out)
}

fn parse_at(spec: &str) -> Result<(String, At)> {
    Ok(match spec.rsplit_once(':') {
        Some((f, "entry")) => (f.to_string(), At::Entry),
        Some((f, "exit")) => (f.to_string(), At::Exit),
        Some((f, line)) if line.chars().all(|c| c.is_ascii_digit()) && !line.is_empty() => (
            f.to_string(),
            At::Line(line.parse().context("line number")?),
        ),
        _ => (spec.to_string(), At::Exit),
    })
}

fn templates(names: &[String]) -> Result<Templates> {
    if names.is_empty() {
        return Ok(Templates::default());
    }
    let mut t = Templates {
        constant: false,
        expression: false,
        bounds: false,
        relations: false,
        linear: false,
    };
    for n in names {
        match n.as_str() {
            "constant" => t.constant = true,
            "expression" => t.expression = true,
            "bounds" => t.bounds = true,
            "relations" => t.relations = true,
            "linear" => t.linear = true,
            other => bail!(
                "unknown template `{other}` (constant, expression, bounds, relations, linear)"
            ),
        }
    }
    Ok(t)
}

pub fn run(args: &InvariantsArgs) -> Result<u8> {
    let specs = expand(&args.inputs)?;
    if specs.len() < 2 {
        bail!("invariant diffs need at least two versions");
    }
    if specs.len() > ripple_analyses::invariants::mvicfg::MAX_VERSIONS {
        bail!("at most 64 versions");
    }
    let chosen: Vec<usize> = if args.select.is_empty() {
        (0..specs.len()).collect()
    } else {
        let mut list = Vec::new();
        for &v in &args.select {
            if v == 0 || v > specs.len() {
                bail!("--versions: {v} is not a version (1 to {})", specs.len());
            }
            list.push(v - 1);
        }
        list
    };
    let points = args
        .at
        .iter()
        .map(|s| parse_at(s))
        .collect::<Result<Vec<_>>>()?;
    let templates = templates(&args.template)?;
    let timer = super::StageTimer::new(args.frontend.verbose);
    let config = super::load_config(&args.frontend, true)?;
    let spec_list: Vec<&VersionSpec> = specs.iter().map(|(_, spec)| spec).collect();
    let budget = std::time::Duration::from_secs_f64(args.budget.max(0.0));
    let solver_budget = Budget {
        query: std::time::Duration::from_secs(2).min(budget),
        total: budget * 100_000,
        cutoff: None,
    };
    // The solver (whose context lives on this thread) is made ready while the versions
    // are read.
    let (loaded, mut smt) = std::thread::scope(|scope| {
        let reading = scope.spawn(|| load_versions(&spec_list, &config));
        let mut smt = Smt::new(solver_budget);
        smt.warm_up();
        let loaded = reading.join().expect("reading the versions panicked");
        (loaded, smt)
    });
    let loaded = loaded?;
    let mut versions = Vec::new();
    let mut errors = 0;
    for v in loaded {
        errors += report_diagnostics(&v, args.frontend.verbose);
        versions.push(v);
    }
    let programs: Vec<&ripple_ir::Program> = versions.iter().map(|v| v.program()).collect();
    timer.done("reading");
    let matches: Vec<_> = {
        use rayon::prelude::*;
        programs
            .par_windows(2)
            .map(|w| {
                ripple_versions::match_programs(
                    w[0],
                    w[1],
                    &ripple_versions::MatchConfig::default(),
                )
            })
            .collect()
    };
    let match_refs: Vec<_> = matches.iter().collect();
    let graph = Mvicfg::build(&programs, &match_refs);
    timer.done("matching and graph");
    let config = InvariantConfig {
        versions: chosen.clone(),
        points,
        templates,
        limits: QueryLimits {
            steps: args.steps,
            unroll: args.unroll,
            ..QueryLimits::default()
        },
        budget: solver_budget,
        per_point: budget,
    };
    let diff = match invariant_diffs_on(&mut smt, &programs, &graph, &config) {
        Ok(d) => d,
        Err(message) => {
            eprintln!("ripple: error: {message}");
            return Ok(2);
        }
    };
    timer.done("queries");
    let names: Vec<String> = specs.iter().map(|(n, _)| n.clone()).collect();
    let view = ripple_report::invariants::invariants_view(&diff, &names, &chosen, args.unroll);
    match args.format {
        Format::Text => {
            crate::style::print_text(&ripple_report::invariants::render_text(&view, args.all))
        }
        Format::Json => println!("{}", ripple_report::invariants::render_json(&view)),
    }
    if errors > 0 {
        eprintln!(
            "ripple: {errors} error(s) while reading the sources; no invariant is said of a \
             version of a function that runs code that could not be read"
        );
        return Ok(2);
    }
    Ok(u8::from(diff.points.iter().any(|p| !p.churns.is_empty())))
}
