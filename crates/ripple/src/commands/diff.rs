//! `ripple diff OLD NEW`: what changed, function by function.

use anyhow::Result;

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_version, report_diagnostics, VersionSpec};

pub fn run(
    old: &str,
    new: Option<&str>,
    all: bool,
    format: Format,
    args: &FrontendArgs,
) -> Result<u8> {
    let (old_spec, new_spec) = VersionSpec::pair(old, new, "diff")?;
    let config = super::load_config(args, true)?;
    let (old_version, new_version) = rayon::join(
        || load_version(&old_spec, &config),
        || load_version(&new_spec, &config),
    );
    let (old_version, new_version) = (old_version?, new_version?);
    let errors = report_diagnostics(&old_version, args.verbose)
        + report_diagnostics(&new_version, args.verbose);
    let matching = ripple_versions::match_programs(
        old_version.program(),
        new_version.program(),
        &ripple_versions::MatchConfig::default(),
    );
    let view = ripple_report::diff::diff_view(
        (&old_version.sources.label, &new_version.sources.label),
        old_version.program(),
        new_version.program(),
        &matching,
        all,
    );
    match format {
        Format::Text => print!("{}", ripple_report::diff::render_text(&view)),
        Format::Json => println!("{}", ripple_report::diff::render_json(&view)),
    }
    if errors > 0 {
        eprintln!("ripple: {errors} error(s) while reading the sources; the report covers what could be read");
        return Ok(2);
    }
    Ok(u8::from(view.summary.any_change()))
}
