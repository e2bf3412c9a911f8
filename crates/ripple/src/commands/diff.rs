//! `ripple diff OLD NEW`: one report of what the change does. The changes, function by
//! function; the statements they may affect (statement-level SEM-DCIA, as `ripple
//! impact`); and the semantic verdicts of the changed functions (equivalent, or
//! different with a witness, as `ripple semdiff`) within a budget. `--only` and `--skip`
//! choose the sections.

use anyhow::Result;
use clap::{Args, ValueEnum};

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_version, report_diagnostics, VersionSpec};

#[derive(Debug, Args)]
pub struct DiffArgs {
    pub old: String,
    pub new: Option<String>,
    /// Also list unchanged functions.
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Only these sections (comma-separated): changes, impact, semantic.
    #[arg(long, value_enum, value_delimiter = ',', conflicts_with = "skip")]
    pub only: Vec<Section>,
    /// Leave these sections out (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub skip: Vec<Section>,
    /// The budget of the semantic verdicts in seconds, counted as deterministic work;
    /// as many seconds of wall-clock time are the outer cut-off.
    #[arg(long, default_value_t = 5.0)]
    pub budget: f64,
    /// Wall-clock cut-off of the semantic verdicts in seconds (default: the budget). Past
    /// it the verdicts left are "unknown" and the report says so; a larger cut-off keeps
    /// the report reproducible on a busy machine.
    #[arg(long)]
    pub cutoff: Option<f64>,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

/// A section of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Section {
    /// Functions changed, added, removed or renamed, with their changed lines.
    Changes,
    /// The statements the change may affect (statement-level SEM-DCIA).
    Impact,
    /// Changed functions proved equivalent, or different with a witness input.
    Semantic,
}

pub fn run(args: &DiffArgs) -> Result<u8> {
    let started = std::time::Instant::now();
    let wanted = |s: Section| {
        if args.only.is_empty() {
            !args.skip.contains(&s)
        } else {
            args.only.contains(&s)
        }
    };
    let (old_spec, new_spec) = VersionSpec::pair(&args.old, args.new.as_deref(), "diff")?;
    let config = super::load_config(&args.frontend, true)?;
    let (old_version, new_version) = rayon::join(
        || load_version(&old_spec, &config),
        || load_version(&new_spec, &config),
    );
    let (mut old_version, mut new_version) = (old_version?, new_version?);
    let errors = report_diagnostics(&old_version, args.frontend.verbose)
        + report_diagnostics(&new_version, args.frontend.verbose);
    let matching = ripple_versions::match_programs(
        old_version.program(),
        new_version.program(),
        &ripple_versions::MatchConfig::default(),
    );
    let changes = ripple_report::diff::diff_view(
        (&old_version.sources.label, &new_version.sources.label),
        old_version.program(),
        new_version.program(),
        &matching,
        args.all,
    );
    let any_change = changes.summary.any_change();
    let mut not_run = Vec::new();
    // The semantic verdicts read the programs as written.
    let semantic = if !wanted(Section::Semantic) {
        None
    } else if errors > 0 {
        not_run.push(ripple_report::report::NotRun {
            section: "semantic",
            reason:
                "the sources have errors: a verdict on code that could not be read would not hold"
                    .into(),
        });
        None
    } else if !any_change {
        None
    } else {
        let semdiff_args = super::semdiff::SemdiffArgs {
            old: args.old.clone(),
            new: args.new.clone().unwrap_or_default(),
            refine: true,
            no_refine: false,
            unwind: 5,
            budget: args.budget,
            cutoff: args.cutoff,
            full_summary: false,
            confirm: super::semdiff::Confirm::Compiled,
            assume: super::semdiff::Assume::Wrap,
            function: None,
            format: args.format,
            frontend: args.frontend.clone(),
        };
        let (view, _) = super::semdiff::semantic_view(
            &config,
            &old_version,
            &new_version,
            &matching,
            &semdiff_args,
            started,
        );
        Some(view)
    };
    // The impact, on the programs with the statements after calls that never return cut.
    let impact = if wanted(Section::Impact) && any_change {
        old_version.cut_after_noreturn_calls();
        new_version.cut_after_noreturn_calls();
        let options = super::impact::StatementOptions {
            dcia_only: false,
            semantic_level: None,
            budget: 0.0,
            depth: None,
            reduction: false,
        };
        let timer = super::StageTimer::new(false);
        let (view, _) =
            super::impact::statement_impact(&old_version, &new_version, &options, &timer);
        Some(view)
    } else {
        None
    };
    let report = ripple_report::report::Report {
        changes: &changes,
        show_changes: wanted(Section::Changes),
        impact: impact.as_ref(),
        semantic: semantic.as_ref(),
        not_run,
    };
    match args.format {
        Format::Text => print!("{}", ripple_report::report::render_text(&report)),
        Format::Json => println!("{}", ripple_report::report::render_json(&report)),
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        return Ok(2);
    }
    Ok(u8::from(any_change))
}
