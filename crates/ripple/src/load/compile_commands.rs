//! Reads `compile_commands.json` (the JSON compilation database) for the preprocessor
//! flags of each file (`-I`, `-D`, `-U`, `-include`, `-std`, `-isystem`, `-iquote`,
//! `-idirafter`), and places a database onto a version's tree:
//!
//! - The tree the database was made for is found from its entries (the directory that,
//!   joined with the version's file paths, names the most entries), so one database made
//!   in one checkout serves another checkout, a git revision or a patched copy: its
//!   paths are mapped onto the version's tree. Include directories keep their original
//!   place as a fallback (searched right after the mapped one), for headers a build
//!   generates (`config.h`, replacements of system headers) that the other tree lacks.
//! - A file the database does not list takes the flags of its nearest neighbour in it
//!   (the entry sharing the longest directory prefix, as clangd infers flags).
//! - A tree with no database given gets the one found at its root or in a build
//!   directory below it (`discover`).

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub struct CompileCommands {
    /// Where the database was read from (for messages).
    pub path: PathBuf,
    /// One entry per source file (the last one when a file is listed twice), sorted.
    entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
struct Entry {
    /// Absolute (and canonical where it exists) source path.
    file: PathBuf,
    /// Absolute working directory of the command.
    dir: PathBuf,
    /// The preprocessor flags, as written (relative paths relative to `dir`).
    flags: Vec<String>,
}

/// The preprocessor flags of one unit, placed onto its version's tree (the preprocessor
/// still runs in the version's root, so that `__FILE__` names the file as the user knows
/// it whichever directory holds the tree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitFlags {
    /// Flags with absolute paths.
    pub flags: Vec<String>,
    /// The database entry they come from when the unit has none of its own (its path
    /// relative to the database's tree).
    pub neighbour: Option<String>,
}

/// A database placed onto one version's tree.
#[derive(Debug)]
pub struct PlacedDatabase<'a> {
    db: &'a CompileCommands,
    /// The directory of the tree the database was made for.
    from: PathBuf,
    /// The version's tree (canonical).
    to: PathBuf,
}

/// Where a build leaves its database, relative to a tree's root, in the order looked at.
const DISCOVERY_PLACES: &[&str] = &[
    "compile_commands.json",
    "build/compile_commands.json",
    "out/compile_commands.json",
    "_build/compile_commands.json",
];

impl CompileCommands {
    pub fn read(path: &Path) -> Result<CompileCommands> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}:{}: not valid JSON: {e}", path.display(), e.line()))?;
        let list = json.as_array().with_context(|| {
            format!(
                "{}: expected a JSON array of compile commands",
                path.display()
            )
        })?;
        let base = path
            .parent()
            .map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
            .unwrap_or_default();
        let mut entries: FxHashMap<PathBuf, Entry> = FxHashMap::default();
        for entry in list {
            let dir = base.join(entry["directory"].as_str().unwrap_or("."));
            let Some(file) = entry["file"].as_str() else {
                continue;
            };
            let args: Vec<String> = match (entry["arguments"].as_array(), entry["command"].as_str())
            {
                (Some(args), _) => args
                    .iter()
                    .filter_map(|a| a.as_str().map(String::from))
                    .collect(),
                (None, Some(cmd)) => split_command(cmd),
                _ => continue,
            };
            let file = canonical(&dir.join(file));
            entries.insert(
                file.clone(),
                Entry {
                    file,
                    dir: normalize(&dir),
                    flags: preprocessor_flags(&args),
                },
            );
        }
        let mut entries: Vec<Entry> = entries.into_values().collect();
        entries.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(CompileCommands {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The database a build left in `root` or in a build directory just below it.
    pub fn discover(root: &Path) -> Option<PathBuf> {
        DISCOVERY_PLACES
            .iter()
            .map(|place| root.join(place))
            .find(|p| p.is_file())
    }

    /// Places the database onto the tree at `root` whose sources are `files` (relative
    /// to `root`); `None` when no entry names one of them.
    pub fn place<P: AsRef<Path>>(&self, root: &Path, files: &[P]) -> Option<PlacedDatabase<'_>> {
        let to = canonical(root);
        // Candidate tree directories: an entry's path less a version file's relative path.
        let mut by_name: FxHashMap<&std::ffi::OsStr, Vec<&Path>> = FxHashMap::default();
        for f in files {
            let f = f.as_ref();
            if let Some(name) = f.file_name() {
                by_name.entry(name).or_default().push(f);
            }
        }
        let mut votes: FxHashMap<PathBuf, usize> = FxHashMap::default();
        for entry in &self.entries {
            let Some(name) = entry.file.file_name() else {
                continue;
            };
            for rel in by_name.get(name).into_iter().flatten() {
                if entry.file.ends_with(rel) {
                    let mut dir = entry.file.clone();
                    for _ in rel.components() {
                        dir.pop();
                    }
                    *votes.entry(dir).or_default() += 1;
                }
            }
        }
        // The tree itself when the database names its files; else the most named tree
        // (ties: the shortest, then the first path).
        let from = if votes.contains_key(&to) {
            to.clone()
        } else {
            votes
                .into_iter()
                .max_by(|(a, na), (b, nb)| {
                    na.cmp(nb)
                        .then_with(|| b.as_os_str().len().cmp(&a.as_os_str().len()))
                        .then_with(|| b.cmp(a))
                })?
                .0
        };
        Some(PlacedDatabase { db: self, from, to })
    }
}

impl PlacedDatabase<'_> {
    /// Whether the database was made for another tree (its paths are mapped).
    pub fn mapped_from(&self) -> Option<&Path> {
        (self.from != self.to).then_some(self.from.as_path())
    }

    /// Whether the build the database records left out `file` (relative to the tree): it
    /// is a C file of the tree the database was made for and has no entry there (a
    /// replacement for another platform, a test program no target builds). A file that
    /// tree lacks (added since) is not left out: it takes its neighbour's flags.
    pub fn left_out(&self, file: &Path) -> bool {
        let there = self.from.join(file);
        file.extension().is_some_and(|e| e == "c")
            && there.is_file()
            && self
                .db
                .entries
                .binary_search_by(|e| e.file.as_path().cmp(&there))
                .is_err()
    }

    /// The flags of `file` (relative to the tree): its own entry's, else its nearest
    /// neighbour's.
    pub fn flags_for(&self, file: &Path) -> Option<UnitFlags> {
        let wanted = self.from.join(file);
        let exact = self
            .db
            .entries
            .binary_search_by(|e| e.file.as_path().cmp(&wanted))
            .ok()
            .map(|i| &self.db.entries[i]);
        let (entry, neighbour) = match exact {
            Some(entry) => (entry, None),
            None => {
                let entry = self.nearest(file)?;
                let rel = entry.file.strip_prefix(&self.from).unwrap_or(&entry.file);
                (entry, Some(rel.to_string_lossy().replace('\\', "/")))
            }
        };
        Some(UnitFlags {
            flags: self.map_flags(entry),
            neighbour,
        })
    }

    /// The entry of the tree whose path shares the most leading components with `file`
    /// (ties: the first in path order).
    fn nearest(&self, file: &Path) -> Option<&Entry> {
        let wanted: Vec<Component> = file
            .parent()
            .unwrap_or(Path::new(""))
            .components()
            .collect();
        self.db
            .entries
            .iter()
            .filter_map(|e| Some((e, e.file.strip_prefix(&self.from).ok()?)))
            .map(|(e, rel)| {
                let shared = rel
                    .parent()
                    .unwrap_or(Path::new(""))
                    .components()
                    .zip(&wanted)
                    .take_while(|(a, b)| a == *b)
                    .count();
                (e, shared)
            })
            // The first of the best: max_by_key keeps the last, so compare reversed order.
            .fold(None, |best: Option<(&Entry, usize)>, (e, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((e, n)),
            })
            .map(|(e, _)| e)
    }

    /// A path of the database's tree, moved onto the version's tree.
    fn map(&self, path: &Path) -> PathBuf {
        match path.strip_prefix(&self.from) {
            Ok(rel) => self.to.join(rel),
            Err(_) => path.to_path_buf(),
        }
    }

    /// The entry's flags with absolute paths, mapped onto the version's tree; each
    /// mapped include directory is followed by its original place (searched right after it).
    fn map_flags(&self, entry: &Entry) -> Vec<String> {
        let mut out = Vec::new();
        let mut iter = entry.flags.iter();
        while let Some(flag) = iter.next() {
            let (name, value) = match PATH_FLAGS.iter().find(|p| flag.as_str() == **p) {
                Some(p) => match iter.next() {
                    Some(v) => (*p, v.as_str()),
                    None => break,
                },
                None => match flag.strip_prefix("-I") {
                    Some(v) => ("-I", v),
                    None => {
                        out.push(flag.clone());
                        continue;
                    }
                },
            };
            let original = normalize(&entry.dir.join(value));
            let mapped = self.map(&original);
            if name == "-include" {
                let chosen = if mapped.exists() { mapped } else { original };
                out.extend([name.to_string(), chosen.display().to_string()]);
                continue;
            }
            out.extend([name.to_string(), mapped.display().to_string()]);
            // Right after it, in the same kind of search, so that a header the build
            // generated (config.h, a replacement of a system header) is found before
            // the system's: a header both trees have is still taken from this one.
            if mapped != original {
                out.extend([name.to_string(), original.display().to_string()]);
            }
        }
        out
    }
}

/// Flags whose value (the next argument) is a path.
const PATH_FLAGS: &[&str] = &["-I", "-isystem", "-iquote", "-idirafter", "-include"];

/// Keeps the flags that change preprocessing; joined forms (`-Ifoo`) and separate forms
/// (`-I foo`) both.
fn preprocessor_flags(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        for prefix in [
            "-I",
            "-D",
            "-U",
            "-isystem",
            "-include",
            "-iquote",
            "-idirafter",
        ] {
            if arg == prefix {
                if let Some(value) = iter.next() {
                    out.push(arg.clone());
                    out.push(value.clone());
                }
                break;
            }
            if arg.starts_with(prefix) && (prefix.len() == 2) {
                out.push(arg.clone());
                break;
            }
        }
        if arg.starts_with("-std=") {
            out.push(arg.clone());
        }
    }
    out
}

/// Splits a shell command line into words as a POSIX shell does (quotes, backslashes);
/// a line the shell could not split (an unterminated quote) falls back to whitespace.
fn split_command(cmd: &str) -> Vec<String> {
    shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(String::from).collect())
}

/// The canonical path where it exists, else the path with `.` and `..` resolved.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| normalize(path))
}

/// `.` and `..` resolved without touching the file system (the directories of another
/// machine's build need not exist here).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_preprocessor_flags() {
        let args =
            split_command(r#"cc -c -O2 -Iinclude -I ../x -DNAME="a b" -Wall -std=c99 -o a.o a.c"#);
        assert_eq!(
            preprocessor_flags(&args),
            vec!["-Iinclude", "-I", "../x", "-DNAME=a b", "-std=c99"]
        );
    }

    #[test]
    fn backslash_is_literal_inside_single_quotes() {
        // POSIX: inside '...' a backslash is an ordinary character; outside it escapes.
        let args = split_command(r#"cc '-DPATH="a\\b"' -DQ=x\\ y a.c"#);
        assert_eq!(args, vec!["cc", r#"-DPATH="a\\b""#, r"-DQ=x\", "y", "a.c"]);
    }

    /// A database made in /build/a (which need not exist here) serves the tree
    /// /tmp/..../b: its entry for src/x.c gives b's src/x.c its flags with paths moved to
    /// b, the original include directory kept right after as a fallback; src/extra/y.c, which the
    /// database does not list, takes the flags of its nearest neighbour src/x.c rather
    /// than those of lib/z.c.
    #[test]
    fn maps_a_database_onto_another_tree_and_infers_from_neighbours() {
        let tree = tempfile::tempdir().unwrap();
        for dir in ["src/extra", "lib", "include"] {
            std::fs::create_dir_all(tree.path().join(dir)).unwrap();
        }
        let db_path = tree.path().join("db.json");
        let json = serde_json::json!([
            {"directory": "/build/a/src", "file": "x.c",
             "command": "cc -c -I../include -DX=1 -include ../config.h x.c"},
            {"directory": "/build/a", "file": "lib/z.c", "arguments": ["cc", "-DZ", "-c", "lib/z.c"]},
        ]);
        std::fs::write(&db_path, json.to_string()).unwrap();
        let db = CompileCommands::read(&db_path).unwrap();
        let files = [
            PathBuf::from("src/x.c"),
            PathBuf::from("src/extra/y.c"),
            PathBuf::from("lib/z.c"),
        ];
        let placed = db
            .place(tree.path(), &files)
            .expect("the database names the tree's files");
        let to = tree.path().canonicalize().unwrap();
        assert_eq!(placed.mapped_from(), Some(Path::new("/build/a")));
        let x = placed.flags_for(Path::new("src/x.c")).unwrap();
        assert_eq!(x.neighbour, None);
        assert_eq!(
            x.flags,
            vec![
                "-I".to_string(),
                to.join("include").display().to_string(),
                "-I".into(),
                "/build/a/include".into(),
                "-DX=1".into(),
                // config.h exists in neither tree here: the original path is kept.
                "-include".into(),
                "/build/a/config.h".into(),
            ]
        );
        let y = placed.flags_for(Path::new("src/extra/y.c")).unwrap();
        assert_eq!(y.neighbour.as_deref(), Some("src/x.c"));
        assert_eq!(y.flags, x.flags);
        let z = placed.flags_for(Path::new("lib/z.c")).unwrap();
        assert_eq!((z.flags, z.neighbour), (vec!["-DZ".to_string()], None));
        // A database that names none of a tree's files does not apply to it.
        assert!(db.place(tree.path(), &[PathBuf::from("other.c")]).is_none());
    }
}
