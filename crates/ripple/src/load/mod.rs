//! Turns a command-line version argument (a C file, a directory, or a git revision) into
//! the translation units of one program version, preprocessed when a C preprocessor is
//! available, and lowers them.

mod compile_commands;
pub(crate) mod git;
mod preprocess;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

pub use compile_commands::{CompileCommands, UnitFlags};
pub use git::commits_between;
pub use preprocess::{PreprocessConfig, PreprocessMode};

use ripple_c::{Diagnostic, FrontendConfig, Lowered, Severity, TranslationUnit};

/// How a version was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionSpec {
    /// A file or directory on disk.
    Path(PathBuf),
    /// A git revision of the repository around the current directory.
    Revision(String),
    /// The git working tree (for `ripple diff REV`).
    WorkTree,
    /// What is staged in git's index (`:index`; `ripple diff HEAD :index` is what a
    /// commit would record).
    Index,
}

impl VersionSpec {
    /// A path if it exists, else a git revision if it names one, else an error.
    pub fn parse(arg: &str) -> Result<VersionSpec> {
        let path = Path::new(arg);
        if path.exists() {
            return Ok(VersionSpec::Path(path.to_path_buf()));
        }
        if arg == INDEX {
            return Ok(VersionSpec::Index);
        }
        if git::is_revision(arg) {
            return Ok(VersionSpec::Revision(arg.to_string()));
        }
        if arg.ends_with(".c") || arg.ends_with(".h") || arg.contains('/') {
            bail!("{arg}: no such file or directory");
        }
        bail!("{arg}: neither a file, a directory, nor a git revision of the current repository")
    }

    /// The two versions of a command taking `OLD [NEW]`: two files, directories or
    /// revisions (or `:index`, what is staged); one revision or `:index` (against the
    /// working tree); or one git range, `A..B`
    /// (A against B, as one change) or `A...B` (the merge base of A and B against B: what
    /// a pull request of B into A changes). `command` names the command in messages.
    pub fn pair(old: &str, new: Option<&str>, command: &str) -> Result<(VersionSpec, VersionSpec)> {
        if new.is_none() && !Path::new(old).exists() {
            if let Some((a, b)) = old.split_once("...").or_else(|| old.split_once("..")) {
                let symmetric = old.contains("...");
                let (a, b) = (
                    if a.is_empty() { "HEAD" } else { a },
                    if b.is_empty() { "HEAD" } else { b },
                );
                for rev in [a, b] {
                    if !git::is_revision(rev) {
                        bail!("{old}: {rev} is not a git revision of the current repository");
                    }
                }
                let base = if symmetric {
                    git::merge_base(a, b)?
                } else {
                    a.to_string()
                };
                return Ok((
                    VersionSpec::Revision(base),
                    VersionSpec::Revision(b.to_string()),
                ));
            }
        }
        let old_spec = VersionSpec::parse(old)?;
        let new_spec = match new {
            Some(new) => VersionSpec::parse(new)?,
            None => {
                if !matches!(old_spec, VersionSpec::Revision(_) | VersionSpec::Index) {
                    bail!("{old}: with one argument, ripple {command} compares a git revision with the working tree (or takes a range A..B)");
                }
                VersionSpec::WorkTree
            }
        };
        Ok((old_spec, new_spec))
    }
}

/// How the index is named as a version.
pub const INDEX: &str = ":index";

/// The source files of one version, on disk.
#[derive(Debug)]
pub struct SourceSet {
    /// What the user called it (for messages).
    pub label: String,
    /// Paths are reported relative to this directory.
    pub root: PathBuf,
    /// `.c` and `.h` files, relative to `root`, sorted.
    pub files: Vec<PathBuf>,
    /// Holds the extracted tree of a git revision alive.
    _scratch: Option<tempfile::TempDir>,
}

impl SourceSet {
    pub fn load(spec: &VersionSpec) -> Result<SourceSet> {
        match spec {
            VersionSpec::Path(path) => from_path(path),
            VersionSpec::Revision(rev) => {
                let (scratch, files) = git::extract_revision(rev)?;
                Ok(SourceSet {
                    label: rev.clone(),
                    root: scratch.path().to_path_buf(),
                    files,
                    _scratch: Some(scratch),
                })
            }
            VersionSpec::Index => {
                let (scratch, files) = git::extract_index()?;
                Ok(SourceSet {
                    label: "index".into(),
                    root: scratch.path().to_path_buf(),
                    files,
                    _scratch: Some(scratch),
                })
            }
            VersionSpec::WorkTree => {
                let (root, files) = git::work_tree_files()?;
                Ok(SourceSet {
                    label: "working tree".into(),
                    root,
                    files,
                    _scratch: None,
                })
            }
        }
    }

    /// The translation units: every `.c` file, or every header when there is no `.c`
    /// file at all (a header-only version is still analysed).
    pub fn unit_files(&self) -> Vec<&PathBuf> {
        let c_files: Vec<&PathBuf> = self
            .files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "c"))
            .collect();
        if c_files.is_empty() {
            self.files.iter().collect()
        } else {
            c_files
        }
    }
}

fn from_path(path: &Path) -> Result<SourceSet> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if meta.is_file() {
        if !is_c_source(path) {
            bail!("{}: not a C source file (.c or .h)", path.display());
        }
        std::fs::File::open(path).with_context(|| format!("{}: cannot read", path.display()))?;
        let root = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let name = PathBuf::from(path.file_name().context("file has no name")?);
        return Ok(SourceSet {
            label: path.display().to_string(),
            root,
            files: vec![name],
            _scratch: None,
        });
    }
    let mut files = Vec::new();
    collect_sources(path, path, &mut files)?;
    files.sort();
    if files.is_empty() {
        bail!("{}: no .c or .h files below this directory", path.display());
    }
    Ok(SourceSet {
        label: path.display().to_string(),
        root: path.to_path_buf(),
        files,
        _scratch: None,
    })
}

fn collect_sources(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read directory", dir.display()))?;
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect_sources(root, &path, out)?;
        } else if kind.is_file() && is_c_source(&path) {
            out.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
        }
    }
    Ok(())
}

fn is_c_source(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "c" || e == "h")
}

/// Frontend options from the command line.
#[derive(Clone, Debug, Default)]
pub struct LoadConfig {
    pub preprocess: PreprocessConfig,
    pub frontend: FrontendConfig,
    /// Files never read (`ripple.toml`'s `sources.exclude`, see `crate::config`).
    pub exclude: Vec<String>,
}

/// A lowered version plus everything said while loading it.
pub struct LoadedVersion {
    pub sources: SourceSet,
    pub lowered: Lowered,
}

impl LoadedVersion {
    pub fn program(&self) -> &ripple_ir::Program {
        &self.lowered.program
    }

    /// Calls of functions that never return go straight to their caller's exit
    /// (`ripple_dataflow::noreturn`): the statements after them are unreachable, and a
    /// change there changes nothing. Returns the number of calls cut.
    pub fn cut_after_noreturn_calls(&mut self) -> usize {
        ripple_dataflow::noreturn::cut_after_calls(&mut self.lowered.program).len()
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.lowered.diagnostics
    }
}

/// Reads, preprocesses (in parallel) and lowers one version.
pub fn load_version(spec: &VersionSpec, config: &LoadConfig) -> Result<LoadedVersion> {
    let mut sources = SourceSet::load(spec)?;
    if !config.exclude.is_empty() {
        sources
            .files
            .retain(|f| !crate::config::excluded(f, &config.exclude));
    }
    let mut units = sources.unit_files();
    let discovered = match &config.preprocess.compile_commands {
        Some(_) => None,
        None => discover_database(spec, &sources),
    };
    let database = config
        .preprocess
        .compile_commands
        .as_ref()
        .or(discovered.as_ref());
    let placed = database.and_then(|db| {
        let placed = db.place(&sources.root, &units);
        if config.preprocess.mode == PreprocessMode::Auto {
            match placed.as_ref().map(|p| (discovered.is_some(), p.mapped_from())) {
                None => eprintln!(
                    "ripple: warning: {}: names none of the files of {}; its flags are not used there",
                    db.path.display(),
                    sources.label
                ),
                Some((found, Some(from))) => eprintln!(
                    "ripple: {}: preprocessor flags from {}{}, made for {} and mapped onto this version",
                    sources.label,
                    db.path.display(),
                    if found { " (found)" } else { "" },
                    from.display()
                ),
                Some((true, None)) => eprintln!(
                    "ripple: {}: preprocessor flags from {} (found)",
                    sources.label,
                    db.path.display()
                ),
                Some((false, None)) => {}
            }
        }
        placed
    });
    if database.is_none() && config.preprocess.mode == PreprocessMode::Auto {
        build_system_hint(&sources);
    }
    // A build reads what its database lists: the C files it left out are not read.
    if let Some(placed) = &placed {
        let before = units.len();
        units.retain(|f| !placed.left_out(f));
        let left_out = before - units.len();
        if left_out > 0 {
            eprintln!(
                "ripple: {}: {left_out} C file(s) the build does not compile are not read (the compilation database lists what it compiles)",
                sources.label
            );
        }
    }
    let jobs: Vec<(&Path, &PathBuf, Option<UnitFlags>)> = units
        .into_iter()
        .map(|file| {
            let flags = placed.as_ref().and_then(|p| p.flags_for(file));
            (sources.root.as_path(), file, flags)
        })
        .collect();
    let lowered = lower_files(&jobs, config)?;
    Ok(LoadedVersion { sources, lowered })
}

/// The compilation database a build left in the version's tree (for a git revision, in
/// the working tree, whose paths are then mapped onto the revision's files); one that
/// cannot be read is reported and not used.
fn discover_database(spec: &VersionSpec, sources: &SourceSet) -> Option<CompileCommands> {
    let root = match spec {
        VersionSpec::Revision(_) | VersionSpec::Index => git::top_level().ok()?,
        VersionSpec::Path(_) | VersionSpec::WorkTree => sources.root.clone(),
    };
    let path = CompileCommands::discover(&root)?;
    match CompileCommands::read(&path) {
        Ok(db) => Some(db),
        Err(e) => {
            eprintln!("ripple: warning: {e:#}; not used");
            None
        }
    }
}

/// Says once per run how to make a compilation database when a version's tree has a
/// build system but none was given or found (without one, generated headers and the
/// build's defines are unknown and files may not read).
fn build_system_hint(sources: &SourceSet) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let has = |name: &str| sources.root.join(name).is_file();
    let how = if has("CMakeLists.txt") {
        "cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON"
    } else if has("meson.build") {
        "meson setup build"
    } else if has("configure") {
        "./configure && bear -- make"
    } else if has("configure.ac") {
        "autoreconf -i && ./configure && bear -- make"
    } else if has("Makefile") {
        "bear -- make"
    } else {
        return;
    };
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "ripple: hint: {} has a build system but no compile_commands.json; `{how}` makes one (then --compile-commands FILE, or leave it in the tree's root or build/)",
            sources.label
        );
    }
}

/// Preprocesses `(root, file, database flags)` units in parallel and lowers them as one
/// program; the preprocessing notes come first among the diagnostics.
fn lower_files(
    jobs: &[(&Path, &PathBuf, Option<UnitFlags>)],
    config: &LoadConfig,
) -> Result<Lowered> {
    let results: Vec<Result<(TranslationUnit, Vec<Diagnostic>)>> = jobs
        .par_iter()
        .map(|(root, file, flags)| {
            preprocess::translation_unit(root, file, flags.as_ref(), &config.preprocess)
        })
        .collect();
    let mut units = Vec::with_capacity(results.len());
    let mut diagnostics = Vec::new();
    for result in results {
        let (unit, mut notes) = result?;
        units.push(unit);
        diagnostics.append(&mut notes);
    }
    let mut lowered = ripple_c::lower_units(&units, &config.frontend);
    diagnostics.append(&mut lowered.diagnostics);
    lowered.diagnostics = diagnostics;
    Ok(lowered)
}

/// Prints a version's diagnostics to stderr (warnings only when `verbose`, else counted
/// in one line); returns how many errors there were.
pub fn report_diagnostics(version: &LoadedVersion, verbose: bool) -> usize {
    let (errors, warnings) = print_diagnostics(version.diagnostics(), verbose);
    if warnings > 0 && !verbose {
        eprintln!(
            "ripple: {}: {warnings} warning(s) (use --verbose to see them)",
            version.sources.label
        );
    }
    errors
}

/// Prints errors (and, when `verbose`, warnings) as `file:line:col: severity: message`;
/// returns the numbers of errors and warnings.
pub fn print_diagnostics(diagnostics: &[Diagnostic], verbose: bool) -> (usize, usize) {
    let (mut errors, mut warnings) = (0, 0);
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => {
                errors += 1;
                "error"
            }
            Severity::Warning => {
                warnings += 1;
                if !verbose {
                    continue;
                }
                "warning"
            }
        };
        eprintln!("{}:{}:{}: {severity}: {}", d.file, d.line, d.col, d.message);
    }
    (errors, warnings)
}

/// Loads several files, directories or revisions as one program: their translation units
/// are preprocessed (in parallel) and lowered together.
pub fn load_paths(specs: &[VersionSpec], config: &LoadConfig) -> Result<LoadedVersion> {
    if let [spec] = specs {
        return load_version(spec, config);
    }
    let sets = specs
        .iter()
        .map(SourceSet::load)
        .collect::<Result<Vec<_>>>()?;
    let placed: Vec<_> = sets
        .iter()
        .map(|set| {
            config
                .preprocess
                .compile_commands
                .as_ref()
                .and_then(|db| db.place(&set.root, &set.unit_files()))
        })
        .collect();
    let jobs: Vec<(&Path, &PathBuf, Option<UnitFlags>)> = sets
        .iter()
        .zip(&placed)
        .flat_map(|(set, placed)| {
            set.unit_files().into_iter().map(move |file| {
                let flags = placed.as_ref().and_then(|p| p.flags_for(file));
                (set.root.as_path(), file, flags)
            })
        })
        .collect();
    let lowered = lower_files(&jobs, config)?;
    let label = sets
        .iter()
        .map(|s| s.label.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let root = sets.first().map(|s| s.root.clone()).unwrap_or_default();
    let files = sets.iter().flat_map(|s| s.files.iter().cloned()).collect();
    Ok(LoadedVersion {
        sources: SourceSet {
            label,
            root,
            files,
            _scratch: None,
        },
        lowered,
    })
}
