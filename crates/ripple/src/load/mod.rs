//! Turns a command-line version argument (a C file, a directory, or a git revision) into
//! the translation units of one program version, preprocessed when a C preprocessor is
//! available, and lowers them.

mod compile_commands;
pub(crate) mod git;
mod not_compiled;
mod preprocess;
mod programs;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

pub use compile_commands::{CompileCommands, UnitFlags};
pub use git::commits_between;
pub use preprocess::{PreprocessConfig, PreprocessMode};

use ripple_c::{Diagnostic, FrontendConfig, Lowered, Severity, TranslationUnit};
use ripple_report::diff::{DeclarationsView, FileNotAnalysedView};

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
    /// The git revision it is, if it is one.
    pub revision: Option<String>,
    /// Holds the extracted tree of a git revision alive.
    _scratch: Option<tempfile::TempDir>,
}

impl SourceSet {
    /// `flags` for this version: a `-I` directory inside the repository names the work
    /// tree's files, which a revision taken from it (or the index) has its own of, so it
    /// becomes the directory of the same path in this version's tree (`-I .` at the
    /// repository's root reads the revision's headers, not the work tree's).
    pub fn own_flags(&self, flags: &[String]) -> Vec<String> {
        static TOP: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
        if self._scratch.is_none() {
            return flags.to_vec();
        }
        let Some(top) =
            TOP.get_or_init(|| git::top_level().ok().map(|t| t.canonicalize().unwrap_or(t)))
        else {
            return flags.to_vec();
        };
        flags
            .iter()
            .map(|flag| {
                match flag
                    .strip_prefix("-I")
                    .and_then(|dir| Path::new(dir).strip_prefix(top).ok())
                {
                    Some(inside) => format!("-I{}", self.root.join(inside).display()),
                    None => flag.clone(),
                }
            })
            .collect()
    }

    /// Where the runs of this version's code start: for a git revision, all its files
    /// written out on the first run, in the directory that stands for the current one
    /// (see [`git::extract_run_tree`]); else the current directory.
    pub fn run_dir(&self) -> ripple_analyses::semdiff::RunDir {
        match self.revision.clone() {
            Some(rev) => ripple_analyses::semdiff::RunDir::new(move || {
                let (scratch, dir) = git::extract_run_tree(&rev)?;
                Some((
                    Box::new(scratch) as ripple_analyses::semdiff::run_dir::Keep,
                    dir,
                ))
            }),
            None => ripple_analyses::semdiff::RunDir::default(),
        }
    }

    pub fn load(spec: &VersionSpec) -> Result<SourceSet> {
        match spec {
            VersionSpec::Path(path) => from_path(path),
            VersionSpec::Revision(rev) => {
                let (scratch, files) = git::extract_revision(rev)?;
                Ok(SourceSet {
                    label: rev.clone(),
                    root: scratch.path().to_path_buf(),
                    files,
                    revision: Some(rev.clone()),
                    _scratch: Some(scratch),
                })
            }
            VersionSpec::Index => {
                let (scratch, files) = git::extract_index()?;
                Ok(SourceSet {
                    label: "index".into(),
                    root: scratch.path().to_path_buf(),
                    files,
                    revision: None,
                    _scratch: Some(scratch),
                })
            }
            VersionSpec::WorkTree => {
                let (root, files) = git::work_tree_files()?;
                Ok(SourceSet {
                    label: "working tree".into(),
                    root,
                    files,
                    revision: None,
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
            revision: None,
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
        revision: None,
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
    /// The program to analyse in a tree of several (`--program`; see [`programs`]).
    pub program: Option<String>,
    /// Whether a change to library code that no program at the tree's root holds is
    /// analysed as the library by default; not for commands that run the program.
    pub library_by_default: bool,
    /// `ripple.toml`'s `[cache]`, its path made absolute.
    pub cache: crate::config::CacheSettings,
}

/// A lowered version plus everything said while loading it.
pub struct LoadedVersion {
    pub sources: SourceSet,
    pub lowered: Lowered,
    /// The changed files the program analysed does not read: those only other programs
    /// of the tree read, those none links and that could not join it, and those no
    /// unit reads in the build's configuration (see [`programs`]).
    pub left_out: Vec<String>,
    /// What of the change the program analysed does not read: each of `left_out` with
    /// the functions whose code changed in it, as far as the file alone tells (none for
    /// a file no unit is made of), and the changed lines of the files it reads that its
    /// build leaves out (the same entries in both versions of a pair).
    pub not_analysed: Vec<FileNotAnalysedView>,
    /// The changed lines of code the builds of both versions compile, per file (the
    /// same entries in both versions of a pair): [`declarations_changed`] keeps those
    /// outside the code the analyses compare.
    pub compiled_changes: Vec<ChangedLines>,
    /// A hash of what was lowered (see [`content_hash`]), for the report cache.
    pub content: u128,
    /// The C files of the program analysed (relative to the root): what a build of it
    /// compiles.
    pub program_files: Vec<PathBuf>,
    /// How a build compiles each of `program_files`, in the same order.
    pub program_units: Vec<ProgramUnit>,
}

/// The changed lines of code of one file that a build of each version compiles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangedLines {
    pub old_file: String,
    pub file: String,
    pub old_lines: Vec<u32>,
    pub new_lines: Vec<u32>,
}

/// How a build compiles one C file of the program analysed.
#[derive(Clone, Debug, Default)]
pub struct ProgramUnit {
    /// Its flags from the compilation database (absolute paths), if it has any.
    pub flags: Vec<String>,
    /// The files it reads (itself and what it includes), as the program names them.
    pub reads: Vec<String>,
}

/// The root of the git work tree holding the current directory, if any.
pub fn git_top_level() -> Option<PathBuf> {
    git::top_level().ok()
}

/// The changed files two versions leave out of the program analysed.
pub fn left_out(old: &LoadedVersion, new: &LoadedVersion) -> Vec<String> {
    let mut files: Vec<String> = old.left_out.iter().chain(&new.left_out).cloned().collect();
    files.sort();
    files.dedup();
    files
}

/// What two versions leave out of the analysis: the changed files the program
/// analysed does not read, each with the functions whose code changed in it (as far as
/// the file alone tells), and the changed lines its build leaves out, by file.
pub fn not_analysed(old: &LoadedVersion, new: &LoadedVersion) -> Vec<FileNotAnalysedView> {
    fn merge<T: Ord + Clone>(to: &mut Vec<T>, from: &[T]) {
        to.extend_from_slice(from);
        to.sort();
        to.dedup();
    }
    let mut files: BTreeMap<String, FileNotAnalysedView> = BTreeMap::new();
    for file in left_out(old, new) {
        let entry = files.entry(file.clone()).or_default();
        entry.file = file;
    }
    for f in old.not_analysed.iter().chain(&new.not_analysed) {
        let entry = files.entry(f.file.clone()).or_default();
        entry.file.clone_from(&f.file);
        merge(&mut entry.functions, &f.functions);
        merge(&mut entry.old_lines, &f.old_lines);
        merge(&mut entry.new_lines, &f.new_lines);
    }
    files.into_values().collect()
}

/// The changed lines of code both builds compile that lie outside every function
/// definition and every global variable reported changed (`reported`): declarations
/// whose change changes none of the code the analyses compare (`int x;` becoming
/// `extern int x;` in a header, a prototype respelled), a change of the text all the same.
pub fn declarations_changed(
    old: &LoadedVersion,
    new: &LoadedVersion,
    reported: &[String],
) -> Vec<DeclarationsView> {
    let outside = |version: &LoadedVersion, file: &str, lines: &[u32]| -> Vec<u32> {
        let program = version.program();
        let spans: Vec<ripple_ir::Span> = program
            .functions
            .iter()
            .filter(|f| f.is_defined())
            .map(|f| f.span)
            .chain(
                program
                    .globals
                    .iter()
                    .filter(|g| reported.contains(&g.name))
                    .map(|g| g.span),
            )
            .filter(|span| program.file_path(span.file) == file)
            .collect();
        lines
            .iter()
            .copied()
            .filter(|&line| {
                !spans
                    .iter()
                    .any(|s| s.start_line <= line && line <= s.end_line)
            })
            .collect()
    };
    old.compiled_changes
        .iter()
        .map(|c| DeclarationsView {
            file: c.file.clone(),
            old_lines: outside(old, &c.old_file, &c.old_lines),
            new_lines: outside(new, &c.file, &c.new_lines),
        })
        .filter(|d| !d.old_lines.is_empty() || !d.new_lines.is_empty())
        .collect()
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

/// One version read and preprocessed, not yet lowered.
struct PreparedVersion {
    pub sources: SourceSet,
    units: Vec<TranslationUnit>,
    /// What preprocessing said, per unit.
    notes: Vec<Vec<Diagnostic>>,
    /// The compilation database's flags of each unit, if any.
    flags: Vec<Vec<String>>,
    programs: Vec<programs::ProgramUnits>,
    /// The files without `main` of a tree of several programs ([`programs::LIBRARY`]).
    library: Option<programs::ProgramUnits>,
}

/// A version read and preprocessed, with the program to analyse chosen, not yet lowered:
/// what the report cache keys on, so that a report read back needs no lowering.
pub struct PreparedProgram {
    version: PreparedVersion,
    program: usize,
    /// As [`LoadedVersion::left_out`].
    pub left_out: Vec<String>,
    /// As [`LoadedVersion::not_analysed`].
    not_analysed: Vec<FileNotAnalysedView>,
    /// As [`LoadedVersion::compiled_changes`].
    compiled_changes: Vec<ChangedLines>,
    /// What the report cache keys `not_analysed` on: each file with its changed
    /// functions and the changed lines left out.
    left_out_key: Vec<String>,
    /// As [`LoadedVersion::content`].
    pub content: u128,
}

impl PreparedProgram {
    pub fn into_sources(self) -> SourceSet {
        self.version.sources
    }

    /// Parses and lowers the program's units.
    pub fn lower(self, config: &LoadConfig) -> LoadedVersion {
        LoadedVersion {
            left_out: self.left_out,
            not_analysed: self.not_analysed,
            compiled_changes: self.compiled_changes,
            ..self.version.lower(self.program, self.content, config)
        }
    }
}

impl PreparedProgram {
    /// What the report cache keys a version on: the hash of what is lowered, its label,
    /// and the changed files left out of it.
    pub fn key_parts(&self) -> (u128, &str, &[String]) {
        (
            self.content,
            &self.version.sources.label,
            &self.left_out_key,
        )
    }
}

impl PreparedVersion {
    /// Lowers the units of its `program`-th program, whose [`content_hash`] is `content`.
    fn lower(self, program: usize, content: u128, config: &LoadConfig) -> LoadedVersion {
        let members = &self.programs[program].units;
        let mut units = Vec::with_capacity(members.len());
        let mut program_units = Vec::with_capacity(members.len());
        let mut diagnostics = Vec::new();
        let all = self.units.into_iter().zip(self.notes).zip(self.flags);
        for (i, ((unit, mut notes), flags)) in all.enumerate() {
            if members.binary_search(&i).is_ok() {
                program_units.push(ProgramUnit {
                    flags,
                    reads: programs::unit_files(&unit)
                        .into_iter()
                        .map(str::to_string)
                        .collect(),
                });
                units.push(unit);
                diagnostics.append(&mut notes);
            }
        }
        let mut lowered = ripple_c::lower_units(&units, &config.frontend);
        diagnostics.append(&mut lowered.diagnostics);
        lowered.diagnostics = diagnostics;
        let program_files = units.iter().map(|u| PathBuf::from(&u.path)).collect();
        LoadedVersion {
            sources: self.sources,
            lowered,
            left_out: Vec::new(),
            not_analysed: Vec::new(),
            compiled_changes: Vec::new(),
            content,
            program_files,
            program_units,
        }
    }
}

/// A hash of translation units: their names, their text (line markers aside: they name
/// the scratch directory a revision is written to) and where each line comes from.
fn content_hash<'a>(units: impl Iterator<Item = &'a TranslationUnit>) -> u128 {
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    for unit in units {
        hash.update(unit.path.as_bytes());
        hash.update(b"\0");
        for line in unit.text.lines() {
            if !is_line_marker(line) {
                hash.update(line.as_bytes());
            }
            hash.update(b"\n");
        }
        hash.update(format!("{:?}", unit.line_map).as_bytes());
    }
    hash.digest128()
}

/// A hash of a unit's code after preprocessing: its lines but the line markers, and not
/// where they came from (a header's lines moved by a change its build leaves out).
fn code_hash(unit: &TranslationUnit) -> u128 {
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    for line in unit.text.lines().filter(|l| !is_line_marker(l)) {
        hash.update(line.as_bytes());
        hash.update(b"\n");
    }
    hash.digest128()
}

/// A `# 12 "file.h"` line of `cc -E` output.
fn is_line_marker(line: &str) -> bool {
    line.strip_prefix("# ")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Reads, preprocesses (in parallel) and lowers one version (of a tree of several
/// programs, the one `--program` names, else the first; see [`programs::choose`]).
pub fn load_version(spec: &VersionSpec, config: &LoadConfig) -> Result<LoadedVersion> {
    Ok(load_versions(&[spec], config)?.pop().expect("one version"))
}

/// Reads, preprocesses and lowers versions of one tree (in parallel): in a tree of
/// several programs, the same program in each, the one `--program` names, else the one
/// holding the most changed files. Says which, and which changed files it leaves out.
pub fn load_versions(specs: &[&VersionSpec], config: &LoadConfig) -> Result<Vec<LoadedVersion>> {
    Ok(prepare_versions(specs, config)?
        .into_par_iter()
        .map(|p| p.lower(config))
        .collect())
}

/// Two C files of different names given as versions (`ripple diff old.c new.c`) are
/// one file in two versions: the flag making `__FILE__` in `new` name `old` (both
/// are preprocessed in their directory, by file name), so that the file name an
/// `assert` reports is no change between them. None for anything else.
fn renamed_file(old: &VersionSpec, new: &VersionSpec) -> Option<String> {
    let (VersionSpec::Path(old), VersionSpec::Path(new)) = (old, new) else {
        return None;
    };
    if !old.is_file() || !new.is_file() {
        return None;
    }
    let (old, new) = (old.file_name()?.to_str()?, new.file_name()?.to_str()?);
    (old != new).then(|| format!("-fmacro-prefix-map={new}={old}"))
}

/// [`load_versions`] up to lowering: reads and preprocesses the versions and chooses
/// the program of each (and says which).
pub fn prepare_versions(
    specs: &[&VersionSpec],
    config: &LoadConfig,
) -> Result<Vec<PreparedProgram>> {
    let prepared: Vec<PreparedVersion> = specs
        .par_iter()
        .enumerate()
        .map(|(v, spec)| match renamed_file(specs[0], spec) {
            Some(map) if v > 0 => {
                let mut config = config.clone();
                config.preprocess.flags.push(map);
                prepare_version(spec, &config)
            }
            _ => prepare_version(spec, config),
        })
        .collect::<Result<_>>()?;
    let mut prepared = prepared;
    let several = prepared.iter().any(|p| p.programs.len() > 1);
    // Two trees (not two files, whose names may differ): the files that changed, each
    // of which the report accounts for.
    let trees = specs.len() > 1
        && !specs
            .iter()
            .any(|s| matches!(s, VersionSpec::Path(p) if p.is_file()));
    let changed = if trees {
        changed_files(&prepared)
    } else {
        Default::default()
    };
    let program = library_named(&mut prepared, config.program.as_deref());
    program_exists(&prepared, program.as_deref())?;
    let covered =
        |prepared: &[PreparedVersion], v: usize, p: &programs::ProgramUnits| -> BTreeSet<String> {
            p.units
                .iter()
                .flat_map(|&u| programs::unit_files(&prepared[v].units[u]))
                .filter(|f| changed.contains(*f))
                .map(str::to_string)
                .collect()
        };
    let touched = |v: usize, p: &programs::ProgramUnits| covered(&prepared, v, p).len();
    let lists: Vec<&[programs::ProgramUnits]> =
        prepared.iter().map(|p| p.programs.as_slice()).collect();
    // Units whose preprocessing failed (a header missing), per version and program.
    let failing = |v: usize, p: &programs::ProgramUnits| {
        p.units
            .iter()
            .filter(|&&u| {
                prepared[v].notes[u]
                    .iter()
                    .any(|d| d.severity == Severity::Error)
            })
            .count()
    };
    let chosen = programs::choose(&lists, &touched, &failing, program.as_deref())?;
    drop(lists);
    // A change to library code that no program at the tree's root holds (zlib's files
    // reached by `test/example.c`, a fuzz harness; not a unity build, which holds the
    // code it includes): none of the drivers is the program, and the library (the files without `main`, every function a client may
    // call as an entry) is analysed, when it holds as many changed files and reads as
    // well.
    let chosen_main = chosen
        .iter()
        .enumerate()
        .find_map(|(v, c)| c.map(|c| &prepared[v].programs[c]))
        .filter(|p| p.kind == programs::ProgramKind::Main)
        .map(|p| p.name.clone());
    let library_chosen = program.is_none()
        && config.library_by_default
        && trees
        && several
        && chosen_main.is_some_and(|name| name.contains('/'))
        && prepared.iter().all(|p| p.library.is_some())
        && {
            let sum = |count: &dyn Fn(usize, &programs::ProgramUnits) -> usize, library: bool| {
                (0..prepared.len())
                    .map(|v| match (library, chosen[v]) {
                        (true, _) => count(v, prepared[v].library.as_ref().expect("a library")),
                        (false, Some(c)) => count(v, &prepared[v].programs[c]),
                        (false, None) => 0,
                    })
                    .sum::<usize>()
            };
            sum(&touched, true) >= sum(&touched, false)
                && sum(&failing, true) <= sum(&failing, false)
        };
    let chosen: Vec<Option<usize>> = if library_chosen {
        library_named(&mut prepared, Some(programs::LIBRARY));
        prepared
            .iter()
            .map(|p| p.programs.iter().position(|q| q.name == programs::LIBRARY))
            .collect()
    } else {
        chosen
    };
    // A version without the program chosen (one the change adds or removes) analyses
    // the files of it that it has, under its name: not another program of its tree.
    let Some(model) = chosen.iter().position(Option::is_some) else {
        bail!("no program to analyse in these versions");
    };
    let model_program = prepared[model].programs[chosen[model].unwrap_or_default()].clone();
    let mut chosen_programs = Vec::with_capacity(prepared.len());
    let adopted: Vec<bool> = chosen.iter().map(Option::is_none).collect();
    for v in 0..prepared.len() {
        chosen_programs.push(match chosen[v] {
            Some(c) => c,
            None => {
                let own = programs::same_files(
                    &model_program,
                    &prepared[model].units,
                    &prepared[v].units,
                );
                prepared[v].programs.push(own);
                prepared[v].programs.len() - 1
            }
        });
    }
    let chosen = chosen_programs;
    // Changed units no program links (a file for another platform, a function no
    // program calls): they join the program analysed, with what they use, so that their
    // changes are analysed too.
    let mut joined: Vec<Vec<String>> = vec![Vec::new(); prepared.len()];
    // Per version, the units whose code after preprocessing differs from the unit of the
    // same file in another version (or that another version lacks): a unit that only
    // includes a changed header, whose change its build leaves out, is no change.
    // Only needed where files changed.
    let hashes: Vec<BTreeMap<&str, u128>> = prepared
        .iter()
        .map(|p| {
            p.units
                .iter()
                .filter(|_| !changed.is_empty())
                .map(|u| (u.path.as_str(), code_hash(u)))
                .collect()
        })
        .collect();
    let code_changed: Vec<BTreeSet<usize>> = prepared
        .iter()
        .enumerate()
        .map(|(v, p)| {
            (0..p.units.len())
                .filter(|&u| {
                    let path = p.units[u].path.as_str();
                    hashes
                        .iter()
                        .enumerate()
                        .any(|(w, other)| w != v && other.get(path) != hashes[v].get(path))
                })
                .collect()
        })
        .collect();
    drop(hashes);
    for (v, p) in prepared.iter_mut().enumerate() {
        let linked: BTreeSet<usize> = p
            .programs
            .iter()
            .flat_map(|q| q.units.iter().copied())
            .collect();
        let extra: Vec<usize> = (0..p.units.len())
            .filter(|u| {
                !linked.contains(u)
                    && code_changed[v].contains(u)
                    && programs::unit_files(&p.units[*u])
                        .iter()
                        .any(|f| changed.contains(*f))
            })
            .collect();
        if extra.is_empty() {
            continue;
        }
        let library = p
            .library
            .as_ref()
            .map(|l| l.units.clone())
            .unwrap_or_default();
        let mut members = p.programs[chosen[v]].units.clone();
        let before = members.clone();
        programs::link_extra(&p.units, &mut members, &extra, &library);
        joined[v] = members
            .iter()
            .filter(|u| !before.contains(u))
            .map(|&u| p.units[u].path.clone())
            .collect();
        p.programs[chosen[v]].units = members;
    }
    // Changed files of each version that the program analysed does not read.
    let left_out: Vec<Vec<String>> = prepared
        .iter()
        .zip(&chosen)
        .enumerate()
        .map(|(v, (p, &c))| {
            let analysed = covered(&prepared, v, &p.programs[c]);
            p.sources
                .files
                .iter()
                .map(|f| f.to_string_lossy().replace('\\', "/"))
                .filter(|f| changed.contains(f) && !analysed.contains(f))
                .collect()
        })
        .collect();
    let left_out_functions = changed_functions_of(&prepared, &left_out, config);
    let pairs: Vec<(String, String)> = if trees {
        changed.iter().map(|f| (f.clone(), f.clone())).collect()
    } else {
        match prepared.as_slice() {
            [old, new] if specs.len() == 2 => old
                .units
                .iter()
                .zip(&new.units)
                .map(|(o, n)| (o.path.clone(), n.path.clone()))
                .collect(),
            _ => Vec::new(),
        }
    };
    let (lines_left_out, compiled_changes) = changed_lines_not_compiled(&prepared, &chosen, &pairs);
    if several || adopted.contains(&true) || left_out.iter().any(|l| !l.is_empty()) {
        let why = match (&program, specs.len()) {
            (Some(_), _) => "as --program says",
            (None, 1) => FIRST_PROGRAM,
            (None, _) if library_chosen => {
                "the files without main: the changed files are library code, and no program at the tree's root holds them"
            }
            (None, _) => "the one holding the most changed files",
        };
        say_programs(&prepared, &chosen, &adopted, &left_out, &joined, why);
    }
    Ok(prepared
        .into_iter()
        .zip(chosen)
        .zip(left_out)
        .map(|((version, program), left_out)| {
            let units = &version.programs[program].units;
            let content = content_hash(units.iter().map(|&u| &version.units[u]));
            // Every file left out, with its changed functions when it is a unit (a
            // file without one is a change all the same, and part of the cache key).
            let mut not_analysed: Vec<FileNotAnalysedView> = left_out
                .iter()
                .map(|file| FileNotAnalysedView {
                    file: file.clone(),
                    functions: left_out_functions
                        .iter()
                        .find(|(f, _)| f == file)
                        .map(|(_, functions)| functions.clone())
                        .unwrap_or_default(),
                    ..Default::default()
                })
                .collect();
            not_analysed.extend(lines_left_out.iter().cloned());
            let left_out_key = not_analysed
                .iter()
                .map(|f| {
                    format!(
                        "{}: {}; {:?} {:?}",
                        f.file,
                        f.functions.join(", "),
                        f.old_lines,
                        f.new_lines
                    )
                })
                .chain(compiled_changes.iter().map(|c| {
                    format!(
                        "compiled {} {}: {:?} {:?}",
                        c.old_file, c.file, c.old_lines, c.new_lines
                    )
                }))
                .collect();
            PreparedProgram {
                version,
                program,
                left_out,
                not_analysed,
                compiled_changes: compiled_changes.clone(),
                left_out_key,
                content,
            }
        })
        .collect())
}

/// Fails when `--program` names a file that no version has, in trees that are one
/// program each (where any name would otherwise pick the whole tree).
fn program_exists(prepared: &[PreparedVersion], name: Option<&str>) -> Result<()> {
    let Some(name) = name.filter(|n| *n != programs::LIBRARY) else {
        return Ok(());
    };
    let whole = prepared.iter().all(|p| {
        p.programs
            .iter()
            .all(|q| q.kind == programs::ProgramKind::Whole)
    });
    let named = prepared.iter().any(|p| {
        p.units
            .iter()
            .any(|u| u.path == name || u.path.ends_with(&format!("/{name}")))
    });
    if whole && !named {
        bail!("--program {name}: no such file in this tree (it is one program: every C file is analysed without --program)");
    }
    Ok(())
}

/// The program `--program` names: `library` (the files without `main`, a program of
/// its own in every version that has them), or a file of it, which stands for it;
/// any other name as given.
fn library_named(prepared: &mut [PreparedVersion], program: Option<&str>) -> Option<String> {
    let name = program?;
    let names_unit = |p: &PreparedVersion, units: &[usize]| {
        units.iter().any(|&u| {
            let path = p.units[u].path.as_str();
            path == name || path.ends_with(&format!("/{name}"))
        })
    };
    let is_program = prepared.iter().any(|p| {
        p.programs
            .iter()
            .any(|q| q.name == name || q.name.ends_with(&format!("/{name}")))
    });
    let of_library = !is_program
        && prepared
            .iter()
            .any(|p| p.library.as_ref().is_some_and(|l| names_unit(p, &l.units)));
    if name != programs::LIBRARY && !of_library {
        return Some(name.to_string());
    }
    if of_library {
        eprintln!(
            "ripple: --program {name}: a file without main; analysing the files without main ({})",
            programs::LIBRARY
        );
    }
    for p in prepared.iter_mut() {
        if p.programs.iter().any(|q| q.name == programs::LIBRARY) {
            continue;
        }
        if let Some(library) = &p.library {
            p.programs.push(library.clone());
        }
    }
    Some(programs::LIBRARY.to_string())
}

/// For each file of `left_out` (per version) that is a C unit of a version, the
/// functions whose code changed in it: the unit lowered alone in each version that has
/// it and the two matched (every function, when one version lacks it).
fn changed_functions_of(
    prepared: &[PreparedVersion],
    left_out: &[Vec<String>],
    config: &LoadConfig,
) -> Vec<(String, Vec<String>)> {
    let files: BTreeSet<&String> = left_out.iter().flatten().collect();
    let mut out = Vec::new();
    for file in files {
        // The unit of the file in the first and the last version.
        let (Some(first), Some(last)) = (prepared.first(), prepared.last()) else {
            continue;
        };
        fn unit_of<'p>(p: &'p PreparedVersion, file: &str) -> Option<&'p TranslationUnit> {
            p.units.iter().find(|u| u.path == file)
        }
        let lower = |u: Option<&TranslationUnit>| {
            u.map(|u| ripple_c::lower_units(std::slice::from_ref(u), &config.frontend).program)
        };
        let (old, new) = (lower(unit_of(first, file)), lower(unit_of(last, file)));
        let own = |program: &ripple_ir::Program, f: &ripple_ir::Function| {
            f.is_defined() && program.file_path(f.span.file) == file.as_str()
        };
        let functions: Vec<String> = match (&old, &new) {
            (Some(old), Some(new)) => {
                let matching = ripple_versions::match_programs(
                    old,
                    new,
                    &ripple_versions::MatchConfig::default(),
                );
                matching
                    .functions
                    .iter()
                    .filter(|m| m.status != ripple_versions::FunctionStatus::Unchanged)
                    .filter(|m| !m.same_code())
                    .filter_map(|m| match (m.old, m.new) {
                        (_, Some(n)) if own(new, &new.functions[n]) => {
                            Some(new.functions[n].name.clone())
                        }
                        (Some(o), _) if own(old, &old.functions[o]) => {
                            Some(old.functions[o].name.clone())
                        }
                        _ => None,
                    })
                    .collect()
            }
            (Some(program), None) | (None, Some(program)) => program
                .functions
                .iter()
                .filter(|f| own(program, f))
                .map(|f| f.name.clone())
                .collect(),
            (None, None) => continue,
        };
        let mut functions = functions;
        functions.sort();
        functions.dedup();
        out.push((file.clone(), functions));
    }
    out
}

/// The changed lines of a pair of versions that the build of the program analysed
/// leaves out (see [`not_compiled`]), per pair of files (old name, new name) the
/// program reads in one version at least: an entry per file with any, named by its new
/// name; and the changed lines it compiles (comments and spacing aside). Nothing unless
/// there are two versions.
fn changed_lines_not_compiled(
    prepared: &[PreparedVersion],
    chosen: &[usize],
    pairs: &[(String, String)],
) -> (Vec<FileNotAnalysedView>, Vec<ChangedLines>) {
    let ([old, new], [old_program, new_program]) = (prepared, chosen) else {
        return (Vec::new(), Vec::new());
    };
    let compiled = |p: &PreparedVersion, program: usize, names: BTreeSet<String>| {
        let units = p.programs[program].units.iter().map(|&u| &p.units[u]);
        not_compiled::compiled_lines(units, &names)
    };
    let old_compiled = compiled(
        old,
        *old_program,
        pairs.iter().map(|p| p.0.clone()).collect(),
    );
    let new_compiled = compiled(
        new,
        *new_program,
        pairs.iter().map(|p| p.1.clone()).collect(),
    );
    let left_out = |p: &PreparedVersion, file: &str, lines: Option<&rustc_hash::FxHashSet<u32>>| {
        let text = std::fs::read(p.sources.root.join(file))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let out = lines.map(|l| not_compiled::left_out_lines(&text, l));
        (text, out.unwrap_or_default())
    };
    let mut out = Vec::new();
    let mut compiled_changes = Vec::new();
    for (o, n) in pairs {
        let (old_lines, new_lines) = (old_compiled.get(o), new_compiled.get(n));
        if old_lines.is_none() && new_lines.is_none() {
            continue;
        }
        let (old_text, old_out) = left_out(old, o, old_lines);
        let (new_text, new_out) = left_out(new, n, new_lines);
        let none = rustc_hash::FxHashSet::default();
        let (old_changed, new_changed) = not_compiled::changed_compiled_lines(
            (&old_text, old_lines.unwrap_or(&none)),
            (&new_text, new_lines.unwrap_or(&none)),
        );
        if !old_changed.is_empty() || !new_changed.is_empty() {
            compiled_changes.push(ChangedLines {
                old_file: o.clone(),
                file: n.clone(),
                old_lines: old_changed,
                new_lines: new_changed,
            });
        }
        let (old_lines, new_lines) =
            not_compiled::changed_lines_left_out((&old_text, &old_out), (&new_text, &new_out));
        if !old_lines.is_empty() || !new_lines.is_empty() {
            out.push(FileNotAnalysedView {
                file: n.clone(),
                functions: Vec::new(),
                old_lines,
                new_lines,
            });
        }
    }
    (out, compiled_changes)
}

/// The files (relative to each version's root) whose text differs between two of the
/// versions, or which some version lacks.
fn changed_files(prepared: &[PreparedVersion]) -> BTreeSet<String> {
    let mut all: BTreeSet<&PathBuf> = Default::default();
    for p in prepared {
        all.extend(&p.sources.files);
    }
    all.into_iter()
        .filter(|file| {
            let texts: Vec<Option<Vec<u8>>> = prepared
                .iter()
                .map(|p| std::fs::read(p.sources.root.join(file)).ok())
                .collect();
            texts.windows(2).any(|w| w[0] != w[1])
        })
        .map(|f| f.to_string_lossy().replace('\\', "/"))
        .collect()
}

/// Why a program was chosen without changes to go by.
const FIRST_PROGRAM: &str = "the first with a main of its own, by name";

/// Tells which program of a tree of several is analysed, and warns of changed files
/// that are not part of it.
fn say_programs(
    prepared: &[PreparedVersion],
    chosen: &[usize],
    adopted: &[bool],
    left_out: &[Vec<String>],
    joined: &[Vec<String>],
    why: &str,
) {
    use programs::ProgramKind;
    // What was said last in this process: the programs and the one analysed (a range of
    // commits says it once while they stay the same).
    static SAID: std::sync::Mutex<Option<(Vec<String>, String)>> = std::sync::Mutex::new(None);
    for (v, p) in prepared.iter().enumerate() {
        if !joined[v].is_empty() && (v == 0 || joined[v - 1] != joined[v]) {
            eprintln!(
                "ripple: {}: changed file(s) no program of this tree links, analysed with the program: {}",
                p.sources.label,
                joined[v].join(", ")
            );
        }
        if !left_out[v].is_empty() && (v == 0 || left_out[v - 1] != left_out[v]) {
            eprintln!(
                "ripple: warning: {}: changed file(s) outside the program analysed, not analysed: {} (--program FILE analyses another program)",
                p.sources.label,
                left_out[v].join(", ")
            );
        }
        if adopted[v] {
            let this = &p.programs[chosen[v]];
            eprintln!(
                "ripple: {}: no program {} in this version (the change adds or removes it): analysing the {} file(s) of it this version has",
                p.sources.label,
                this.name,
                this.units.len()
            );
            continue;
        }
        if p.programs.len() < 2 {
            continue;
        }
        let names: Vec<String> = p.programs.iter().map(|q| q.name.clone()).collect();
        let said = (names, p.programs[chosen[v]].name.clone());
        {
            let mut last = SAID
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.as_ref() == Some(&said) {
                continue;
            }
            *last = Some(said);
        }
        let describe = |q: &programs::ProgramUnits| match q.kind {
            ProgramKind::Unity => format!("{} (including other C files)", q.name),
            _ => format!("{} ({} file(s))", q.name, q.units.len()),
        };
        // A tree of test runners (a vendored test framework's examples) may hold dozens:
        // the first few are named, the analysed one always is.
        const NAMED: usize = 8;
        let mut list: Vec<String> = p.programs.iter().take(NAMED).map(describe).collect();
        if p.programs.len() > NAMED {
            list.push(format!("and {} more", p.programs.len() - NAMED));
        }
        let this = &p.programs[chosen[v]];
        eprintln!(
            "ripple: {}: {} programs in this tree: {}; analysing {} ({why}; --program FILE for another)",
            p.sources.label,
            p.programs.len(),
            list.join(", "),
            this.name
        );
    }
}

/// Reads and preprocesses (in parallel) one version, and tells its programs apart.
fn prepare_version(spec: &VersionSpec, config: &LoadConfig) -> Result<PreparedVersion> {
    let mut sources = SourceSet::load(spec)?;
    let own = sources.own_flags(&config.preprocess.flags);
    let mapped;
    let config = if own == config.preprocess.flags {
        config
    } else {
        mapped = LoadConfig {
            preprocess: PreprocessConfig {
                flags: own,
                ..config.preprocess.clone()
            },
            ..config.clone()
        };
        &mapped
    };
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
        // Said once per process for each database and how it is placed (not for every
        // version of a range).
        static SAID: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
        let how = format!(
            "{} {:?}",
            db.path.display(),
            placed.as_ref().map(|p| (discovered.is_some(), p.mapped_from()))
        );
        let first = SAID
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(how);
        if first && config.preprocess.mode == PreprocessMode::Auto {
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
        build_system_hint(spec, &sources);
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
    let (units, notes) = preprocess_all(&jobs, config)?;
    let flags = database_flags(&jobs);
    let (programs, library) = programs::partition_with_library(&units);
    Ok(PreparedVersion {
        sources,
        units,
        notes,
        flags,
        programs,
        library,
    })
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
fn build_system_hint(spec: &VersionSpec, sources: &SourceSet) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    // A revision's tree is extracted with its C files only: the build files are looked
    // for in the work tree, as its database would be.
    let root = match spec {
        VersionSpec::Revision(_) | VersionSpec::Index => match git::top_level() {
            Ok(root) => root,
            Err(_) => return,
        },
        VersionSpec::Path(_) | VersionSpec::WorkTree => sources.root.clone(),
    };
    let has = |name: &str| root.join(name).is_file();
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

/// The compilation database's flags of each `(root, file, database flags)` unit.
fn database_flags(jobs: &[(&Path, &PathBuf, Option<UnitFlags>)]) -> Vec<Vec<String>> {
    jobs.iter()
        .map(|(_, _, flags)| flags.as_ref().map(|f| f.flags.clone()).unwrap_or_default())
        .collect()
}

/// Preprocesses `(root, file, database flags)` units in parallel; returns the units and
/// what preprocessing said of each.
fn preprocess_all(
    jobs: &[(&Path, &PathBuf, Option<UnitFlags>)],
    config: &LoadConfig,
) -> Result<(Vec<TranslationUnit>, Vec<Vec<Diagnostic>>)> {
    let results: Vec<Result<(TranslationUnit, Vec<Diagnostic>)>> = jobs
        .par_iter()
        .map(|(root, file, flags)| {
            preprocess::translation_unit(root, file, flags.as_ref(), &config.preprocess)
        })
        .collect();
    let mut units = Vec::with_capacity(results.len());
    let mut notes = Vec::with_capacity(results.len());
    for result in results {
        let (unit, said) = result?;
        units.push(unit);
        notes.push(said);
    }
    Ok((units, notes))
}

/// Prints a version's diagnostics to stderr (warnings only when `verbose`, else counted
/// in one line); returns how many errors there were.
pub fn report_diagnostics(version: &LoadedVersion, verbose: bool) -> usize {
    report_diagnostics_of(&version.sources.label, version.diagnostics(), verbose)
}

/// [`report_diagnostics`] of the version labelled `label`.
pub fn report_diagnostics_of(label: &str, diagnostics: &[Diagnostic], verbose: bool) -> usize {
    let (errors, warnings) = print_diagnostics(diagnostics, verbose);
    let shown = if errors > 0 {
        diagnostics.iter().filter(|d| explains_errors(d)).count()
    } else {
        0
    };
    let hidden = warnings - shown;
    if hidden > 0 && !verbose {
        eprintln!("ripple: {label}: {hidden} warning(s) (use --verbose to see them)");
    }
    errors
}

/// Diagnostics as text, one per line (for the report cache, which stores them with the
/// report so that one read back needs no lowering).
pub fn diagnostics_to_text(diagnostics: &[Diagnostic]) -> String {
    let escape = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('\n', "\\n")
            .replace('\t', "\\t")
    };
    let mut out = String::new();
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => 'E',
            Severity::Warning => 'W',
        };
        out += &format!(
            "{severity}\t{}\t{}\t{}\t{}\n",
            escape(&d.file),
            d.line,
            d.col,
            escape(&d.message)
        );
    }
    out
}

/// The diagnostics [`diagnostics_to_text`] wrote; `None` for text it did not write.
pub fn diagnostics_from_text(text: &str) -> Option<Vec<Diagnostic>> {
    let unescape = |s: &str| {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '\\' => out.push('\\'),
                _ => return None,
            }
        }
        Some(out)
    };
    text.lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let severity = match fields.next()? {
                "E" => Severity::Error,
                "W" => Severity::Warning,
                _ => return None,
            };
            let file = unescape(fields.next()?)?;
            let line = fields.next()?.parse().ok()?;
            let col = fields.next()?.parse().ok()?;
            let message = unescape(fields.next()?)?;
            fields.next().is_none().then_some(Diagnostic {
                severity,
                file,
                line,
                col,
                message,
            })
        })
        .collect()
}

/// Prints errors (and, when `verbose`, warnings) as `file:line:col: severity: message`;
/// returns the numbers of errors and warnings.
/// Whether a warning is a likely cause of errors: a header not found, whose types and
/// names the code after it then lacks.
fn explains_errors(d: &Diagnostic) -> bool {
    d.severity == Severity::Warning && d.message.starts_with("header `")
}

pub fn print_diagnostics(diagnostics: &[Diagnostic], verbose: bool) -> (usize, usize) {
    let (mut errors, mut warnings) = (0, 0);
    // A header not found is the likely cause of the errors after it (unknown types and
    // names): shown with them, not only with --verbose.
    let any_error = diagnostics.iter().any(|d| d.severity == Severity::Error);
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => {
                errors += 1;
                "error"
            }
            Severity::Warning => {
                warnings += 1;
                let shown = verbose || (any_error && explains_errors(d));
                if !shown {
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
    let (units, notes) = preprocess_all(&jobs, config)?;
    let flags = database_flags(&jobs);
    let label = sets
        .iter()
        .map(|s| s.label.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let root = sets.first().map(|s| s.root.clone()).unwrap_or_default();
    let files = sets.iter().flat_map(|s| s.files.iter().cloned()).collect();
    let (programs, library) = programs::partition_with_library(&units);
    let mut prepared = PreparedVersion {
        sources: SourceSet {
            label,
            root,
            files,
            revision: None,
            _scratch: None,
        },
        units,
        notes,
        flags,
        programs,
        library,
    };
    let program = library_named(
        std::slice::from_mut(&mut prepared),
        config.program.as_deref(),
    );
    program_exists(std::slice::from_ref(&prepared), program.as_deref())?;
    let chosen: Vec<usize> = programs::choose(
        &[prepared.programs.as_slice()],
        &|_, _| 0,
        &|_, _| 0,
        program.as_deref(),
    )?
    .into_iter()
    .map(Option::unwrap_or_default)
    .collect();
    say_programs(
        std::slice::from_ref(&prepared),
        &chosen,
        &[false],
        &[Vec::new()],
        &[Vec::new()],
        if config.program.is_some() {
            "as --program says"
        } else {
            FIRST_PROGRAM
        },
    );
    let units = &prepared.programs[chosen[0]].units;
    let content = content_hash(units.iter().map(|&u| &prepared.units[u]));
    Ok(prepared.lower(chosen[0], content, config))
}
