//! Change sets (002 section 7.2.3: FINDINTERACTIONS takes a list of non-empty sets of
//! changes, so that related changes are asked about together): by default each change
//! is its own set; or one set per changed function, per file, per list of line ranges
//! the user gives, or per commit.

use crate::effects::ChangeSet;

/// A set of changes (ids of [`crate::effects::Change`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// How the report names it: `ch3`, a function, a file, or the ranges given.
    pub name: String,
    pub changes: Vec<usize>,
}

/// How changes are grouped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grouping {
    Change,
    Function,
    File,
    /// One set per list of new-version line ranges (1-based, inclusive), each range
    /// optionally restricted to a file (a path or the end of one). Changes in no list
    /// stay sets of their own.
    Lines(Vec<Vec<LineRange>>),
    /// A set name per change id (one set per commit of a range: the caller knows the
    /// history); changes without one stay alone.
    Named(Vec<(usize, String)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRange {
    pub file: Option<String>,
    pub first: u32,
    pub last: u32,
}

impl LineRange {
    /// Parses `[FILE:]A[-B]`.
    pub fn parse(text: &str) -> Result<LineRange, String> {
        let (file, lines) = match text.rsplit_once(':') {
            Some((f, l)) => (Some(f.to_string()), l),
            None => (None, text),
        };
        let number = |s: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{text}` is not a line range (write A-B or FILE:A-B)"))
        };
        let (first, last) = match lines.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(lines)?, number(lines)?),
        };
        if first == 0 || last < first {
            return Err(format!(
                "`{text}`: lines count from 1, and A-B needs A <= B"
            ));
        }
        Ok(LineRange { file, first, last })
    }

    fn contains(&self, path: &str, line: u32) -> bool {
        let file_ok = self.file.as_deref().is_none_or(|f| {
            path == f || path.ends_with(&format!("/{f}")) || f.ends_with(&format!("/{path}"))
        });
        file_ok && (self.first..=self.last).contains(&line)
    }
}

/// Groups the changes of `set`. Sets are in the order of their first change.
pub fn group(set: &ChangeSet, how: &Grouping) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let mut add = |name: String, id: usize| match out.iter_mut().find(|g| g.name == name) {
        Some(g) => g.changes.push(id),
        None => out.push(Group {
            name,
            changes: vec![id],
        }),
    };
    for c in &set.changes {
        let (path, line) = c.line(set);
        let own = format!("ch{}", c.id);
        let name = match how {
            Grouping::Change => own,
            Grouping::Function => c.function.clone(),
            Grouping::File if path.is_empty() => own,
            Grouping::File => path,
            Grouping::Lines(lists) => lists
                .iter()
                .find(|list| list.iter().any(|r| r.contains(&path, line)))
                .map_or(own, |list| {
                    list.iter()
                        .map(|r| match (&r.file, r.first == r.last) {
                            (Some(f), true) => format!("{f}:{}", r.first),
                            (Some(f), false) => format!("{f}:{}-{}", r.first, r.last),
                            (None, true) => r.first.to_string(),
                            (None, false) => format!("{}-{}", r.first, r.last),
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                }),
            Grouping::Named(names) => names
                .iter()
                .find(|(id, _)| *id == c.id)
                .map_or(own, |(_, name)| name.clone()),
        };
        add(name, c.id);
    }
    out
}
