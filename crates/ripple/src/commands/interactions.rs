//! `ripple interactions OLD NEW --tests SUITE [--group ...]`: do the changes between two
//! versions interfere with each other? SCHID (002 section 7.2): per pair of change sets,
//! the variants `P'`, `P'\Ci`, `P'\Cj`, `P'\{Ci,Cj}` are built from source and run on
//! every test in ripple's interpreter, and the effect of each set with and without the
//! other is compared.
//!
//! Exit codes: 0 when no pair interacts, 1 when some pair does or could not be decided
//! (a run the interpreter cannot finish, a set that cannot be left out), 2 on error.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::Args;
use ripple_analyses::effects::changes::VariantFile;
use ripple_analyses::interactions::{find_interactions, group, Grouping, Limits, LineRange};
use ripple_ir::Program;
use ripple_report::interactions::{interactions_view, render_json, render_text};

use crate::cli::{Format, FrontendArgs};
use crate::load::{load_version, LoadConfig, VersionSpec};
use crate::suite::{run_config, Suite};

#[derive(Debug, Args)]
pub struct InteractionsArgs {
    /// The old version: a C file, a directory or a git revision.
    pub old: String,
    /// The new version.
    pub new: String,
    /// The test suite: one test per line, arguments and an optional `< input-file`.
    #[arg(long, value_name = "SUITE")]
    pub tests: PathBuf,
    /// How changes form sets: `change` (each contiguous changed region, the default),
    /// `function`, `file`, `commit` (OLD and NEW git revisions: one set per commit of
    /// OLD..NEW that made the change, by `git blame`), or a list of line ranges of the
    /// new version (`[FILE:]A-B,...`), one set per `--group` (changes in no list stay
    /// alone).
    #[arg(long, value_name = "HOW")]
    pub group: Vec<String>,
    /// Interpreter steps (executed IR statements) each run may take; a test whose run
    /// reaches it is undecided for the pairs it serves.
    #[arg(long, default_value_t = 10_000_000)]
    pub steps: u64,
    /// Statement occurrences kept per run; a longer run leaves its test undecided.
    #[arg(long, default_value_t = Limits::default().max_history)]
    pub max_history: usize,
    /// List every test of every pair (by default the first eight).
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub frontend: FrontendArgs,
}

fn grouping(args: &[String]) -> Result<Grouping> {
    match args {
        [] => Ok(Grouping::Change),
        [one] if one == "change" => Ok(Grouping::Change),
        [one] if one == "function" => Ok(Grouping::Function),
        [one] if one == "file" => Ok(Grouping::File),
        [one] if one == "commit" => Ok(Grouping::Named(Vec::new())),
        lists => {
            let mut out = Vec::new();
            for list in lists {
                if matches!(list.as_str(), "change" | "function" | "file" | "commit") {
                    bail!("--group {list} cannot be combined with other --group options");
                }
                let ranges: Result<Vec<LineRange>, String> =
                    list.split(',').map(LineRange::parse).collect();
                out.push(ranges.map_err(|e| anyhow::anyhow!("--group: {e}"))?);
            }
            Ok(Grouping::Lines(out))
        }
    }
}

/// Lowers a variant: its files are written to a scratch tree and read as a version,
/// with the two versions' directories as fallbacks for the headers they include.
fn lower_variant(
    files: &[VariantFile],
    config: &LoadConfig,
    roots: &[&Path],
) -> Result<Program, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("a scratch directory: {e}"))?;
    for f in files {
        let path = dir.path().join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        std::fs::write(&path, &f.text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut config = config.clone();
    for root in roots {
        config
            .preprocess
            .flags
            .push(format!("-I{}", root.display()));
    }
    let loaded = load_version(&VersionSpec::Path(dir.path().to_path_buf()), &config)
        .map_err(|e| e.to_string())?;
    let errors: Vec<_> = loaded
        .diagnostics()
        .iter()
        .filter(|d| d.severity == ripple_c::Severity::Error)
        .cloned()
        .collect();
    if let Some(d) = errors.first() {
        return Err(format!(
            "a variant does not read: {}:{}:{}: {}",
            d.file, d.line, d.col, d.message
        ));
    }
    Ok(loaded.lowered.program)
}

pub fn run(args: &InteractionsArgs) -> Result<u8> {
    let how = grouping(&args.group)?;
    let suite = Suite::read(&args.tests)?;
    let Some(v) = super::effects::load(&args.old, &args.new, &args.frontend)? else {
        return Ok(2);
    };
    let config = super::load_config(&args.frontend, false)?;
    if v.set.changes.is_empty() {
        println!("No change between the two versions.");
        return Ok(0);
    }
    let mut notes = Vec::new();
    let how = match how {
        Grouping::Named(_) => {
            Grouping::Named(commit_sets(&args.old, &args.new, &v.set, &mut notes)?)
        }
        how => how,
    };
    let groups = group(&v.set, &how);
    let roots = [v.new.sources.root.as_path(), v.old.sources.root.as_path()];
    let lower = |files: &[VariantFile]| lower_variant(files, &config, &roots);
    let tests: Vec<_> = suite
        .tests
        .iter()
        .map(|t| run_config(t, &suite.dir, args.steps))
        .collect();
    let progress = crate::progress::Progress::spinner();
    progress.stage("variants built and run on every test");
    let limits = Limits {
        max_history: args.max_history,
    };
    let result = match find_interactions(
        v.old.program(),
        v.new.program(),
        &v.set,
        groups,
        &lower,
        &tests,
        &limits,
    ) {
        Ok(r) => r,
        Err(e) => {
            drop(progress);
            eprintln!("ripple: error: {e}");
            return Ok(2);
        }
    };
    drop(progress);
    if !v.changed_globals.is_empty() {
        notes.push(format!(
            "changed initial values ({}) are in every variant: they are not a set of their own",
            v.changed_globals.join(", ")
        ));
    }
    notes.push("runs are compared in ripple's interpreter".into());
    let lines: Vec<(usize, String)> = suite
        .tests
        .iter()
        .map(|t| (t.line, t.text.clone()))
        .collect();
    let view = interactions_view(
        &result,
        &v.set,
        [v.old.program(), v.new.program()],
        &lines,
        notes,
    );
    match args.format {
        Format::Text => crate::style::print_text(&render_text(&view, args.all)),
        Format::Json => println!("{}", render_json(&view)),
    }
    // 0 only when every pair is decided and none interacts.
    let open = |p: &&ripple_report::interactions::PairView| {
        matches!(p.verdict, "interacts" | "undecided" | "not-separable")
    };
    Ok(if view.pairs.iter().any(|p| open(&p)) {
        1
    } else {
        0
    })
}

/// The commits of `old..new` that made each change (`git blame` of the new lines, and
/// `git blame --reverse` of the deleted ones): a set per commit, or per combination of
/// commits when several made one contiguous change. Notes each commit's subject.
fn commit_sets(
    old: &str,
    new: &str,
    set: &ripple_analyses::effects::ChangeSet,
    notes: &mut Vec<String>,
) -> Result<Vec<(usize, String)>> {
    use crate::load::git;
    for rev in [old, new] {
        if !git::is_revision(rev) {
            bail!("--group commit needs two git revisions; `{rev}` is not one");
        }
    }
    let commits = git::commits_between(old, new)?;
    if commits.is_empty() {
        bail!("{old}..{new} holds no commit");
    }
    let short = |sha: &str| sha.chars().take(10).collect::<String>();
    let position = |sha: &str| commits.iter().position(|(c, _)| c == sha);
    let mut blames: std::collections::HashMap<(String, bool), Vec<String>> = Default::default();
    let range = format!("{old}..{new}");
    let mut out = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for c in &set.changes {
        let mut made_by = std::collections::BTreeSet::new();
        for h in &c.hunks {
            let f = &set.files[h.file];
            if let (false, Some(path)) = (h.new.is_empty(), &f.new_path) {
                let key = (path.clone(), false);
                if !blames.contains_key(&key) {
                    blames.insert(key.clone(), git::blame(new, path, false)?);
                }
                for sha in blames[&key].get(h.new.clone()).unwrap_or(&[]) {
                    made_by.extend(position(sha));
                }
            }
            if let (false, Some(path)) = (h.old.is_empty(), &f.old_path) {
                let key = (path.clone(), true);
                if !blames.contains_key(&key) {
                    blames.insert(key.clone(), git::blame(&range, path, true)?);
                }
                // The last commit a deleted line was in; the next one deleted it.
                for sha in blames[&key].get(h.old.clone()).unwrap_or(&[]) {
                    let next = position(sha).map_or(0, |p| p + 1);
                    if next < commits.len() {
                        made_by.insert(next);
                    }
                }
            }
        }
        if made_by.is_empty() {
            continue;
        }
        used.extend(made_by.iter().copied());
        let name: Vec<String> = made_by.iter().map(|&p| short(&commits[p].0)).collect();
        out.push((c.id, name.join("+")));
    }
    for p in used {
        notes.push(format!("commit {}: {}", short(&commits[p].0), commits[p].1));
    }
    Ok(out)
}
