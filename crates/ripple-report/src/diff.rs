//! The `ripple diff` report: changed, added, removed and renamed functions with their
//! changed lines in the old and new version.

use std::collections::BTreeSet;
use std::fmt::Write;

use ripple_ir::Program;
use ripple_versions::{FunctionMatch, FunctionStatus, GlobalStatus, VersionMatch};
use serde::{Deserialize, Serialize};

/// The diff of two versions, ready to render.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DiffView {
    pub schema: u32,
    pub old: String,
    pub new: String,
    pub functions: Vec<FunctionView>,
    /// Global variables added, removed or changed (type or initial contents).
    pub globals: Vec<GlobalView>,
    pub summary: SummaryView,
    /// Constructs the frontend over-approximated, per version.
    pub approximations: ApproximationCounts,
    /// Changed files the program analysed does not read (another program's, or none's
    /// in the build's configuration), and changed lines its build leaves out (a branch
    /// of `#if` not taken): a change all the same, not analysed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_not_analysed: Vec<FileNotAnalysedView>,
    /// Changed declarations that change none of the code compared: lines the builds
    /// compile, outside every function and changed global (`int x;` becoming `extern
    /// int x;` in a header). The program is the same; the text, and what a build or a
    /// client sees of it, is not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declarations_changed: Vec<DeclarationsView>,
    /// Errors met reading each version (code the frontend could not read: what it is in
    /// is not analysed, and verdicts that depend on it are unknown).
    #[serde(default, skip_serializing_if = "ReadErrorsView::is_empty")]
    pub read_errors: ReadErrorsView,
}

/// How many errors reading each version met, and where the first ones are.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadErrorsView {
    pub old: usize,
    pub new: usize,
    /// `version file:line` of the first [`READ_ERRORS_NAMED`] of each version.
    pub first: Vec<String>,
}

impl ReadErrorsView {
    pub fn is_empty(&self) -> bool {
        self.old == 0 && self.new == 0
    }

    fn of(old: &Program, new: &Program) -> ReadErrorsView {
        let places = |label: &str, program: &Program| -> Vec<String> {
            let mut places: Vec<String> = Vec::new();
            for e in &program.read_errors {
                if e.span.file == ripple_ir::Span::SYNTHETIC.file {
                    continue;
                }
                let place = format!(
                    "{label} {}:{}",
                    program.file_path(e.span.file),
                    e.span.start_line
                );
                if !places.contains(&place) {
                    places.push(place);
                }
                if places.len() == READ_ERRORS_NAMED {
                    break;
                }
            }
            places
        };
        let mut first = places("old", old);
        first.extend(places("new", new));
        ReadErrorsView {
            old: old.read_errors.len(),
            new: new.read_errors.len(),
            first,
        }
    }

    /// One line for the reports: the counts and the first places.
    pub fn text(&self) -> String {
        format!(
            "{} error(s) reading the old version, {} the new: the code they are in is not analysed and what depends on it is unknown (first at {})",
            self.old,
            self.new,
            self.first.join(", ")
        )
    }
}

/// Errors named per version in [`ReadErrorsView::first`].
const READ_ERRORS_NAMED: usize = 3;

/// A changed file left out of the analysis, or changed lines of a file the program
/// reads that its build leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileNotAnalysedView {
    pub file: String,
    /// The functions whose code changed in it, as far as the file alone tells (empty
    /// for a header, or a file no version compiles).
    pub functions: Vec<String>,
    /// Changed lines of the old and the new version in a branch of a preprocessor
    /// conditional the build of that version does not take (the file is read, these
    /// lines are not); empty for a file left out whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old_lines: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_lines: Vec<u32>,
}

/// The changed lines of declarations of one file (see [`DiffView::declarations_changed`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclarationsView {
    pub file: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub old_lines: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_lines: Vec<u32>,
}

impl DeclarationsView {
    /// The lines per version, as runs: `old 9; new 9-11`.
    pub fn lines_text(&self) -> String {
        versions_lines_text(&self.old_lines, &self.new_lines)
    }
}

/// Lines of the old and the new version, as runs: `old 9, 19; new 9-11`.
fn versions_lines_text(old: &[u32], new: &[u32]) -> String {
    let mut versions = Vec::new();
    for (label, lines) in [("old", old), ("new", new)] {
        if !lines.is_empty() {
            versions.push(format!("{label} {}", line_runs(lines).join(", ")));
        }
    }
    versions.join("; ")
}

impl FileNotAnalysedView {
    /// Only some lines of the file are left out, not the whole file.
    pub fn lines_only(&self) -> bool {
        !self.old_lines.is_empty() || !self.new_lines.is_empty()
    }

    /// The lines left out per version, as runs: `old 9, 19; new 9-11`.
    pub fn lines_text(&self) -> String {
        versions_lines_text(&self.old_lines, &self.new_lines)
    }

    /// The first line to point at: the first new line left out, else the first old one,
    /// else the file's first line.
    pub fn first_line(&self) -> u32 {
        self.new_lines
            .first()
            .or(self.old_lines.first())
            .copied()
            .unwrap_or(1)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FunctionView {
    pub name: String,
    /// The old name of a renamed function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_file: Option<String>,
    #[serde(deserialize_with = "crate::interned::one")]
    pub status: crate::interned::Word,
    pub old_lines: Vec<u32>,
    pub new_lines: Vec<u32>,
    /// Changed lines in other files than `file` (e.g. a macro in a header).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_lines: Vec<FileLine>,
    /// What kind of change a modified function's is, when the text says less than it
    /// seems: `same code` (only the text differs: layout, braces, code the preprocessor
    /// leaves out), `line numbers` (only the `__LINE__` values it reports) or `record
    /// layout` (only the offsets of the record members it accesses, matched by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GlobalView {
    pub name: String,
    pub file: String,
    #[serde(deserialize_with = "crate::interned::one")]
    pub status: crate::interned::Word,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_line: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileLine {
    #[serde(deserialize_with = "crate::interned::one")]
    pub version: crate::interned::Word,
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SummaryView {
    pub modified: usize,
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub unchanged: usize,
    /// Global variables added, removed or modified.
    pub globals_changed: usize,
    /// Changed files not analysed ([`DiffView::files_not_analysed`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub files_not_analysed: usize,
    /// Files whose declarations changed without changing the code
    /// ([`DiffView::declarations_changed`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub declarations_changed: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ApproximationCounts {
    pub old: usize,
    pub new: usize,
}

impl SummaryView {
    /// Changed functions.
    pub fn changed(&self) -> usize {
        self.modified + self.added + self.removed + self.renamed
    }

    /// Whether anything changed at all (functions, globals, files not analysed, or
    /// declarations).
    pub fn any_change(&self) -> bool {
        self.changed() + self.globals_changed + self.files_not_analysed + self.declarations_changed
            > 0
    }
}

fn status_name(status: FunctionStatus) -> &'static str {
    match status {
        FunctionStatus::Unchanged => "unchanged",
        FunctionStatus::Modified => "modified",
        FunctionStatus::Added => "added",
        FunctionStatus::Removed => "removed",
        FunctionStatus::Renamed => "renamed",
    }
}

/// Builds the view. Unchanged functions are listed only with `include_unchanged`;
/// functions defined outside the versions' own files (system headers) never are.
pub fn diff_view(
    labels: (&str, &str),
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    include_unchanged: bool,
) -> DiffView {
    let mut functions = Vec::new();
    let mut summary = SummaryView::default();
    for m in &matching.functions {
        let function_file = |program: &Program, id| {
            let f: &ripple_ir::Function = &program.functions[id];
            program.file_path(f.span.file).to_string()
        };
        let old_file = m.old.map(|id| function_file(old, id));
        let new_file = m.new.map(|id| function_file(new, id));
        let system = |program: &Program, id: Option<ripple_ir::FuncId>| {
            id.is_some_and(|id| program.is_system_file(program.functions[id].span.file))
        };
        if system(new, m.new) || (m.new.is_none() && system(old, m.old)) {
            continue; // a function of a system header
        }
        let file = new_file.clone().or(old_file.clone()).unwrap_or_default();
        match m.status {
            FunctionStatus::Unchanged => summary.unchanged += 1,
            FunctionStatus::Modified => summary.modified += 1,
            FunctionStatus::Added => summary.added += 1,
            FunctionStatus::Removed => summary.removed += 1,
            FunctionStatus::Renamed => summary.renamed += 1,
        }
        if m.status == FunctionStatus::Unchanged && !include_unchanged {
            continue;
        }
        let mut view = function_view(m, old, new, file, old_file, new_file);
        view.only = only_label(old, new, matching, m).map(str::to_string);
        functions.push(view);
    }
    functions.sort_by(|a, b| (&a.file, &a.name).cmp(&(&b.file, &b.name)));
    let globals = global_views(old, new, matching);
    summary.globals_changed = globals.len();
    DiffView {
        schema: crate::IMPACT_SCHEMA_VERSION,
        old: labels.0.to_string(),
        new: labels.1.to_string(),
        functions,
        globals,
        summary,
        approximations: ApproximationCounts {
            old: old.approximations.len(),
            new: new.approximations.len(),
        },
        files_not_analysed: Vec::new(),
        declarations_changed: Vec::new(),
        read_errors: ReadErrorsView::of(old, new),
    }
}

impl DiffView {
    /// Records the changed files the program analysed does not read, each with the
    /// functions that changed in it, and the changed lines its build leaves out.
    pub fn set_files_not_analysed(&mut self, files: Vec<FileNotAnalysedView>) {
        self.files_not_analysed = files;
        self.summary.files_not_analysed = self.files_not_analysed.len();
    }

    /// Records the changed declarations that change none of the code compared.
    pub fn set_declarations_changed(&mut self, files: Vec<DeclarationsView>) {
        self.declarations_changed = files;
        self.summary.declarations_changed = self.declarations_changed.len();
    }
}

/// What kind of change a modified function's is when the text says less than it seems
/// (see [`FunctionView::only`]); None for a change of its code, or another status.
pub fn only_label(
    old: &Program,
    new: &Program,
    matching: &VersionMatch,
    m: &ripple_versions::FunctionMatch,
) -> Option<&'static str> {
    if m.status != FunctionStatus::Modified {
        None
    } else if m.same_code() {
        Some("same code")
    } else if ripple_versions::only_line_numbers_differ(old, new, matching, m) {
        Some("line numbers")
    } else if ripple_versions::only_record_layouts_differ(old, new, matching, m) {
        Some("record layout")
    } else {
        None
    }
}

/// The line of the text report naming a changed file not analysed.
pub fn not_analysed_text(f: &FileNotAnalysedView) -> String {
    if f.lines_only() {
        return format!(
            "not compiled  {}: changed line(s) in a branch of #if this build does not take, not analysed: {}",
            f.file,
            f.lines_text()
        );
    }
    if f.functions.is_empty() {
        format!(
            "not analysed  {}: changed, outside the program analysed",
            f.file
        )
    } else {
        format!(
            "not analysed  {}: changed, outside the program analysed; changed function(s): {}",
            f.file,
            f.functions.join(", ")
        )
    }
}

/// Changed globals of the versions' own files (system headers excluded).
fn global_views(old: &Program, new: &Program, matching: &VersionMatch) -> Vec<GlobalView> {
    let mut views: Vec<GlobalView> = matching
        .globals
        .iter()
        .filter(|m| m.status != GlobalStatus::Unchanged)
        .filter_map(|m| {
            let old_global = m.old.map(|g| &old.globals[g]);
            let new_global = m.new.map(|g| &new.globals[g]);
            let (program, global) = match new_global {
                Some(g) => (new, g),
                None => (old, old_global?),
            };
            if program.is_system_file(global.span.file) {
                return None;
            }
            let file = program.file_path(global.span.file).to_string();
            Some(GlobalView {
                name: global.name.clone(),
                file,
                status: match m.status {
                    GlobalStatus::Added => "added",
                    GlobalStatus::Removed => "removed",
                    _ => "modified",
                },
                old_line: old_global.map(|g| g.span.start_line),
                new_line: new_global.map(|g| g.span.start_line),
            })
        })
        .collect();
    views.sort_by(|a, b| (&a.file, &a.name).cmp(&(&b.file, &b.name)));
    views
}

fn function_view(
    m: &FunctionMatch,
    old: &Program,
    new: &Program,
    file: String,
    old_file: Option<String>,
    new_file: Option<String>,
) -> FunctionView {
    let name = m
        .new
        .map(|id| new.functions[id].name.clone())
        .or_else(|| m.old.map(|id| old.functions[id].name.clone()))
        .unwrap_or_default();
    let old_name = match (m.status, m.old) {
        (FunctionStatus::Renamed, Some(id)) => Some(old.functions[id].name.clone()),
        _ => None,
    };
    let mut other = BTreeSet::new();
    let mut split = |lines: &[(String, u32)], home: Option<&String>, version: &'static str| {
        let mut own = BTreeSet::new();
        for (f, line) in lines {
            if Some(f) == home {
                own.insert(*line);
            } else {
                other.insert(FileLine {
                    version,
                    file: f.clone(),
                    line: *line,
                });
            }
        }
        own.into_iter().collect::<Vec<u32>>()
    };
    let old_lines = split(&m.old_lines, old_file.as_ref(), "old");
    let new_lines = split(&m.new_lines, new_file.as_ref(), "new");
    FunctionView {
        name,
        old_name,
        old_file: old_file.filter(|f| *f != file),
        file,
        status: status_name(m.status),
        old_lines,
        new_lines,
        other_lines: other.into_iter().collect(),
        only: None,
    }
}

/// `1-3, 7, 9-10`.
pub fn line_ranges(lines: &[u32]) -> String {
    line_runs(lines).join(", ")
}

/// The runs of consecutive `lines` (sorted): `["1-3", "7", "9-10"]`.
pub fn line_runs(lines: &[u32]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut iter = lines.iter().copied().peekable();
    while let Some(start) = iter.next() {
        let mut end = start;
        while iter.peek() == Some(&(end + 1)) {
            end = iter.next().unwrap_or(end);
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
    }
    parts
}

/// Functions named in a folded line of the text before "and N more".
const FOLDED_NAMES: usize = 8;

/// The human-readable report: the functions whose code changed first; those that
/// changed only in their text or in the line numbers they report after them, or,
/// without `all`, folded into one line each.
pub fn render_text(view: &DiffView, all: bool) -> String {
    let mut out = String::new();
    // First: a change the rest of the report says nothing of.
    for f in &view.files_not_analysed {
        let _ = writeln!(out, "{}", not_analysed_text(f));
    }
    let rank = |f: &FunctionView| match f.only.as_deref() {
        None => 0,
        Some("same code" | "record layout") => 1,
        Some(_) => 2,
    };
    let mut functions: Vec<&FunctionView> = view.functions.iter().collect();
    // Stable: each group keeps the report's order.
    functions.sort_by_key(|f| rank(f));
    let (listed, folded): (Vec<&FunctionView>, Vec<&FunctionView>) =
        functions.into_iter().partition(|f| all || rank(f) == 0);
    for f in listed {
        let title = match &f.old_name {
            Some(old_name) => format!("{old_name} -> {}", f.name),
            None => f.name.clone(),
        };
        let _ = writeln!(out, "{:<9} {title}  ({})", f.status, f.file);
        match f.only.as_deref() {
            Some("same code") => out.push_str(
                "          only its text changed: it lowers to the same code as before\n",
            ),
            Some("line numbers") => out.push_str(
                "          only the line numbers it reports changed (__LINE__, as in assert): the code moved\n",
            ),
            Some("record layout") => out.push_str(
                "          only the layout of a record it reads changed: the same code, its members matched by name\n",
            ),
            _ => {}
        }
        if !f.old_lines.is_empty() {
            let _ = writeln!(out, "          old lines: {}", line_ranges(&f.old_lines));
        }
        if !f.new_lines.is_empty() {
            let _ = writeln!(out, "          new lines: {}", line_ranges(&f.new_lines));
        }
        for l in &f.other_lines {
            let _ = writeln!(out, "          {} {}:{}", l.version, l.file, l.line);
        }
    }
    for (only, what) in [
        (
            "same code",
            "changed only in their text (the same code after lowering)",
        ),
        (
            "line numbers",
            "changed only in the line numbers they report (__LINE__, as in assert: the code moved)",
        ),
    ] {
        let names: Vec<&str> = folded
            .iter()
            .filter(|f| f.only.as_deref() == Some(only))
            .map(|f| f.name.as_str())
            .collect();
        if names.is_empty() {
            continue;
        }
        let shown = names.len().min(FOLDED_NAMES);
        let more = if names.len() > shown {
            format!(" and {} more (--all lists them)", names.len() - shown)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} function(s) {what}: {}{more}",
            names.len(),
            names[..shown].join(", ")
        );
    }
    for g in &view.globals {
        let lines = match (g.old_line, g.new_line) {
            (Some(o), Some(n)) => format!("old line {o}, new line {n}"),
            (Some(o), None) => format!("old line {o}"),
            (None, Some(n)) => format!("new line {n}"),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "{:<9} global {}  ({}: {lines})",
            g.status, g.name, g.file
        );
    }
    let s = &view.summary;
    if s.globals_changed > 0 {
        let _ = writeln!(out, "{} global variable(s) changed", s.globals_changed);
    }
    let (lines_only, whole): (Vec<_>, Vec<_>) =
        view.files_not_analysed.iter().partition(|f| f.lines_only());
    if !whole.is_empty() {
        let _ = writeln!(
            out,
            "{} changed file(s) not analysed (--program FILE or --program library analyses them)",
            whole.len()
        );
    }
    if !lines_only.is_empty() {
        let _ = writeln!(
            out,
            "{} file(s) changed in code this build leaves out (-D flags, or a build database, for that configuration analyse it)",
            lines_only.len()
        );
    }
    for d in &view.declarations_changed {
        let _ = writeln!(
            out,
            "declarations changed, not the code: {} ({})",
            d.file,
            d.lines_text()
        );
    }
    if !s.any_change() {
        let _ = writeln!(out, "no change in {} function(s)", s.unchanged);
    } else if s.changed() == 0 {
        let _ = writeln!(out, "no function changed; {} unchanged", s.unchanged);
    } else {
        let _ = writeln!(
            out,
            "{} function(s) changed: {} modified, {} added, {} removed, {} renamed; {} unchanged",
            s.changed(),
            s.modified,
            s.added,
            s.removed,
            s.renamed,
            s.unchanged
        );
    }
    out
}

pub fn render_json(view: &DiffView) -> String {
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_merge_runs() {
        assert_eq!(line_ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
        assert_eq!(line_ranges(&[]), "");
    }
}
