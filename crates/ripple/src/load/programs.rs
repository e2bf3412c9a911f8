//! The programs of one source tree. A tree may build several: one per file defining
//! `main` (a tool and its test drivers, `lua.c` and `luac.c`), each linked with the files
//! that define no `main` as a linker links a library archive (for each name the program
//! uses and does not define yet, the file nearest to it that defines the name:
//! `ripple_c::link_symbols`; so a test driver does not get a Windows-only file no code
//! of it calls, nor every other test directory's `setUp`), and unity builds (a file
//! including other C files of the tree, as Lua's `onelua.c` or a test including
//! `cJSON.c`; one defining `main` or the external names of a file it includes), which
//! are programs of their own, linked likewise with what they use of the files they do
//! not include; a tree's one unity build without `main` (mujs's `one.c`) is what its
//! programs link in place of the files it includes. Lowered together they would
//! link one program's functions to another's and count a change once per copy; so the
//! units are told apart before lowering, and one program is analysed: the one named by
//! `--program`, else the one holding the most changed files.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, Result};
use rayon::prelude::*;
use ripple_c::TranslationUnit;

/// The units of one program of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramUnits {
    /// Its main file (`lua.c`), its unity file, or [`LIBRARY`].
    pub name: String,
    pub kind: ProgramKind,
    /// Indices into the version's units, ascending.
    pub units: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramKind {
    /// The whole tree is one program.
    Whole,
    /// A file defining `main`, with the files that define none.
    Main,
    /// A file including other C files of the tree.
    Unity,
    /// The files that define no `main`, when no file does but unity builds exist.
    Library,
}

/// The name of the program of the files without `main` when no file defines one.
pub const LIBRARY: &str = "library";

/// The programs the units form (one [`ProgramKind::Whole`] when the tree is one program).
#[cfg(test)]
pub fn partition(units: &[TranslationUnit]) -> Vec<ProgramUnits> {
    partition_with_library(units).0
}

/// [`partition`], and, in a tree of several programs, the files that define no `main`
/// and are no unity build ([`LIBRARY`], which `--program library` names even when files
/// define `main`), when there are any.
pub fn partition_with_library(
    units: &[TranslationUnit],
) -> (Vec<ProgramUnits>, Option<ProgramUnits>) {
    let index: BTreeMap<&str, usize> = units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.path.as_str(), i))
        .collect();
    // The units of the tree each unit includes.
    let includes: Vec<Vec<usize>> = units
        .iter()
        .map(|u| {
            included_sources(u)
                .iter()
                .filter_map(|f| index.get(f.as_str()).copied())
                .collect()
        })
        .collect();
    let main: Vec<bool> = units
        .iter()
        .map(|u| ripple_c::defines_function(u, "main"))
        .collect();
    let symbols: Vec<ripple_c::LinkSymbols> = if includes.iter().any(|i| !i.is_empty()) {
        units.par_iter().map(ripple_c::link_symbols).collect()
    } else {
        Vec::new()
    };
    // A unit including C files whose external names it then defines too, or with a
    // `main`, is a unity build; one including a file of static helpers only (hiredis's
    // `async.c` including `dict.c`) is a file like any other, which programs link.
    let unity: Vec<bool> = (0..units.len())
        .map(|i| {
            !includes[i].is_empty()
                && (main[i] || includes[i].iter().any(|&f| !symbols[f].defines.is_empty()))
        })
        .collect();
    let mains = (0..units.len()).filter(|&i| main[i] && !unity[i]).count();
    let whole = || ProgramUnits {
        name: String::new(),
        kind: ProgramKind::Whole,
        units: (0..units.len()).collect(),
    };
    if mains <= 1 && !unity.contains(&true) {
        return (vec![whole()], None);
    }
    let library: Vec<usize> = (0..units.len())
        .filter(|&i| !main[i] && !unity[i])
        .collect();
    let library_program = (!library.is_empty()).then(|| ProgramUnits {
        name: LIBRARY.to_string(),
        kind: ProgramKind::Library,
        units: library.clone(),
    });
    let symbols: Vec<ripple_c::LinkSymbols> = if symbols.is_empty() {
        units.par_iter().map(ripple_c::link_symbols).collect()
    } else {
        symbols
    };
    let unit_paths: Vec<&str> = units.iter().map(|u| u.path.as_str()).collect();
    // A tree with one unity build of its library (mujs's `one.c`, including every
    // `js*.c`; the build links it with `main.c`): programs link it, not the files it
    // includes, which may not even compile alone (macros of another file).
    let library_unity: Vec<usize> = (0..units.len())
        .filter(|&i| unity[i] && !main[i] && !includes[i].iter().any(|&f| main[f]))
        .collect();
    let linkable: Vec<usize> = match library_unity[..] {
        [u] => {
            let included = included_sources(&units[u]);
            std::iter::once(u)
                .chain(
                    library
                        .iter()
                        .copied()
                        .filter(|&f| !included.contains(&units[f].path)),
                )
                .collect()
        }
        _ => library.clone(),
    };
    let mut programs = Vec::new();
    for i in 0..units.len() {
        if unity[i] {
            // It links what it uses from the files it does not include (a test
            // including `cJSON.c` and calling `cJSON_Utils.c`).
            let included = included_sources(&units[i]);
            let rest: Vec<usize> = library
                .iter()
                .copied()
                .filter(|&u| !included.contains(&units[u].path))
                .collect();
            programs.push(ProgramUnits {
                name: units[i].path.clone(),
                kind: ProgramKind::Unity,
                units: linked(i, &rest, &symbols, &unit_paths),
            });
        } else if main[i] {
            programs.push(ProgramUnits {
                name: units[i].path.clone(),
                kind: ProgramKind::Main,
                units: linked(i, &linkable, &symbols, &unit_paths),
            });
        }
    }
    // A file no program links that sits in the directory of another program's `main`
    // (below the tree's root) belongs to that program's family, not to the library:
    // another platform's port (zlib's `contrib/minizip/iowin32.c`), a tool's sources.
    let main_dirs: BTreeSet<&str> = (0..units.len())
        .filter(|&i| main[i] && !unity[i])
        .filter_map(|i| units[i].path.rsplit_once('/').map(|(dir, _)| dir))
        .collect();
    let linked_by_a_program: BTreeSet<usize> = programs
        .iter()
        .flat_map(|p| p.units.iter().copied())
        .collect();
    let library_program = library_program.and_then(|mut library| {
        library.units.retain(|&i| {
            linked_by_a_program.contains(&i)
                || !main_dirs
                    .iter()
                    .any(|dir| units[i].path.starts_with(&format!("{dir}/")))
        });
        (!library.units.is_empty()).then_some(library)
    });
    if mains == 0 {
        programs.extend(library_program.clone());
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    (programs, library_program)
}

/// Adds to `members` (the units of one program, sorted) each unit of `extra` that no
/// program links, with what it uses of `library` as [`linked`] takes it, unless one of
/// them defines an external name the program defines already (another platform's
/// implementation of a function: both cannot be one program). Returns the units of
/// `extra` left out so.
pub fn link_extra(
    units: &[TranslationUnit],
    members: &mut Vec<usize>,
    extra: &[usize],
    library: &[usize],
) -> Vec<usize> {
    let symbols: Vec<ripple_c::LinkSymbols> =
        units.par_iter().map(ripple_c::link_symbols).collect();
    let paths: Vec<&str> = units.iter().map(|u| u.path.as_str()).collect();
    let mut left_out = Vec::new();
    for &u in extra {
        if members.contains(&u) {
            continue;
        }
        let defined: BTreeSet<&str> = members
            .iter()
            .flat_map(|&m| symbols[m].defines.iter().map(String::as_str))
            .collect();
        // What the program defines already is not pulled again from another file.
        let rest: Vec<usize> = library
            .iter()
            .copied()
            .filter(|l| {
                !members.contains(l)
                    && !symbols[*l]
                        .defines
                        .iter()
                        .any(|d| defined.contains(d.as_str()))
            })
            .collect();
        let group: Vec<usize> = linked(u, &rest, &symbols, &paths)
            .into_iter()
            .filter(|g| !members.contains(g))
            .collect();
        let clashes = group.iter().any(|&g| {
            symbols[g]
                .defines
                .iter()
                .any(|d| defined.contains(d.as_str()))
        });
        if clashes {
            left_out.push(u);
        } else {
            members.extend(group);
            members.sort_unstable();
        }
    }
    left_out
}

/// The units of the program of `main`: it, and, for each name the units in it use and
/// none defines, the library unit defining it that lies nearest to `main` in the tree
/// (the most directories in common, then the fewest directories deep, then the first
/// by path), until no such name is left (sorted). Like a linker taking one archive
/// member per undefined symbol, a name several files define (`setUp` in every test
/// directory) pulls one of them, not all with everything they use.
fn linked(
    main: usize,
    library: &[usize],
    symbols: &[ripple_c::LinkSymbols],
    paths: &[&str],
) -> Vec<usize> {
    let of = |u: usize| &symbols[u];
    let mut definers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &u in library {
        for name in &of(u).defines {
            definers.entry(name.as_str()).or_default().push(u);
        }
    }
    let dirs = |u: usize| -> Vec<&str> {
        let mut parts: Vec<&str> = paths[u].split('/').collect();
        parts.pop();
        parts
    };
    let main_dirs = dirs(main);
    let shared = |u: usize| {
        main_dirs
            .iter()
            .zip(dirs(u))
            .take_while(|(a, b)| **a == *b)
            .count()
    };
    let mut members = vec![main];
    let mut defined: BTreeSet<&str> = of(main).defines.iter().map(String::as_str).collect();
    // Names still to resolve, taken in a fixed order (the last pushed first).
    let mut wanted: Vec<&str> = of(main).uses.iter().map(String::as_str).rev().collect();
    let mut looked: BTreeSet<&str> = BTreeSet::new();
    while let Some(name) = wanted.pop() {
        if defined.contains(name) || !looked.insert(name) {
            continue;
        }
        let nearest = definers.get(name).and_then(|units| {
            units
                .iter()
                .copied()
                .filter(|u| !members.contains(u))
                .max_by_key(|&u| {
                    let depth = paths[u].matches('/').count();
                    (shared(u), Reverse(depth), Reverse(paths[u]))
                })
        });
        if let Some(u) = nearest {
            members.push(u);
            defined.extend(of(u).defines.iter().map(String::as_str));
            wanted.extend(of(u).uses.iter().map(String::as_str).rev());
        }
    }
    members.sort_unstable();
    members
}

/// The source files (`.c`) a unit includes, as paths like the units' own: from its line
/// markers when preprocessed, else from its `#include "...c"` lines.
fn included_sources(unit: &TranslationUnit) -> Vec<String> {
    let own = unit.path.as_str();
    match &unit.line_map {
        Some(map) => map
            .files
            .iter()
            .filter(|f| f.ends_with(".c") && f.as_str() != own)
            .cloned()
            .collect(),
        None => {
            let dir = Path::new(own).parent().unwrap_or(Path::new(""));
            unit.text
                .lines()
                .filter_map(|line| {
                    let rest = line.trim_start().strip_prefix('#')?.trim_start();
                    let name = rest.strip_prefix("include")?.trim().strip_prefix('"')?;
                    let name = &name[..name.find('"')?];
                    name.ends_with(".c")
                        .then(|| dir.join(name).to_string_lossy().replace('\\', "/"))
                })
                .collect()
        }
    }
}

/// The files a unit is made of (itself and what it includes, as named by its markers).
pub fn unit_files(unit: &TranslationUnit) -> Vec<&str> {
    let mut files = vec![unit.path.as_str()];
    if let Some(map) = &unit.line_map {
        files.extend(map.files.iter().map(String::as_str));
    }
    files
}

/// Which program of each version to analyse: the one `explicit` names (its main or
/// unity file, or a path ending in it), else the one whose units hold the most changed
/// files over all versions (`changed(version, program)`), preferring a program with a
/// `main` of its own to a unity build, then the one whose main file lies fewest
/// directories deep, then the larger, then the first by name. The
/// choice is made by name, so every version analyses the same program where it has it;
/// `None` for a version without it (a program the change adds or removes), which then
/// analyses the files of that program it has ([`same_files`]), not another program.
pub fn choose(
    programs: &[&[ProgramUnits]],
    changed: &dyn Fn(usize, &ProgramUnits) -> usize,
    failing: &dyn Fn(usize, &ProgramUnits) -> usize,
    explicit: Option<&str>,
) -> Result<Vec<Option<usize>>> {
    let matches =
        |p: &ProgramUnits, name: &str| p.name == name || p.name.ends_with(&format!("/{name}"));
    if let Some(name) = explicit {
        // A tree of one program has every file in it.
        let out: Vec<Option<usize>> = programs
            .iter()
            .map(|list| {
                list.iter()
                    .position(|p| matches(p, name) || p.kind == ProgramKind::Whole)
            })
            .collect();
        if out.iter().all(Option::is_none) {
            let mut names: Vec<&str> = programs
                .iter()
                .flat_map(|list| list.iter().map(|p| p.name.as_str()))
                .collect();
            names.sort_unstable();
            names.dedup();
            bail!(
                "--program {name}: no such program in this tree; its programs are {}",
                names.join(", ")
            )
        }
        return Ok(out);
    }
    // Score each name over all versions.
    let mut names: Vec<&str> = programs
        .iter()
        .flat_map(|list| list.iter().map(|p| p.name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let score = |name: &str| {
        let mut changed_files = 0usize;
        let mut size = 0usize;
        let mut own_main = false;
        let mut failed = 0usize;
        for (v, list) in programs.iter().enumerate() {
            if let Some(p) = list.iter().find(|p| p.name == name) {
                changed_files += changed(v, p);
                size = size.max(p.units.len());
                own_main |= p.kind != ProgramKind::Unity;
                failed += failing(v, p);
            }
        }
        // Among programs holding as many changed files, one whose files the build can
        // read (a fuzzer whose headers are not there cannot be read: lz4's `ossfuzz`).
        let readable = Reverse(failed);
        // A program whose main file lies nearer the root is the project's own rather
        // than a test runner deep in a vendored framework.
        let shallow = Reverse(name.matches('/').count());
        (changed_files, own_main, readable, shallow, size)
    };
    // The best score, the first name among equals.
    type Score = (usize, bool, Reverse<usize>, Reverse<usize>, usize);
    let mut best: Option<(&str, Score)> = None;
    for name in names {
        let s = score(name);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((name, s));
        }
    }
    let best = best.map(|(n, _)| n).unwrap_or_default();
    Ok(programs
        .iter()
        .map(|list| {
            list.iter().position(|p| p.name == best).or_else(|| {
                // No version has the name (an empty tree): the first program.
                (!programs.iter().any(|l| l.iter().any(|p| p.name == best))).then(|| fallback(list))
            })
        })
        .collect())
}

/// The program of a version that lacks the one chosen (`chosen`, of another version,
/// whose units are `units`): that version's units of the same files, under the same
/// name.
pub fn same_files(
    chosen: &ProgramUnits,
    chosen_units: &[TranslationUnit],
    units: &[TranslationUnit],
) -> ProgramUnits {
    let files: std::collections::BTreeSet<&str> = chosen
        .units
        .iter()
        .map(|&u| chosen_units[u].path.as_str())
        .collect();
    ProgramUnits {
        name: chosen.name.clone(),
        kind: chosen.kind,
        units: (0..units.len())
            .filter(|&u| files.contains(units[u].path.as_str()))
            .collect(),
    }
}

/// A version without the chosen program analyses its own first program with a `main`.
fn fallback(list: &[ProgramUnits]) -> usize {
    list.iter()
        .position(|p| p.kind != ProgramKind::Unity)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(path: &str, text: &str) -> TranslationUnit {
        TranslationUnit {
            path: path.into(),
            text: text.into(),
            line_map: None,
        }
    }

    fn names(programs: &[ProgramUnits]) -> Vec<(&str, Vec<usize>)> {
        programs
            .iter()
            .map(|p| (p.name.as_str(), p.units.clone()))
            .collect()
    }

    #[test]
    fn a_tree_with_one_main_is_one_program() {
        let units = [
            unit("a.c", "int f(void) { return 1; }"),
            unit("main.c", "int f(void);\nint main(void) { return f(); }"),
        ];
        let programs = partition(&units);
        assert_eq!(programs.len(), 1);
        assert_eq!(programs[0].kind, ProgramKind::Whole);
        assert_eq!(programs[0].units, vec![0, 1]);
    }

    #[test]
    fn two_mains_and_a_unity_build_are_three_programs() {
        // Lua's shape: a library, two tools with a `main` each, and `one.c` including
        // every other C file.
        let units = [
            unit("lib.c", "int f(void) { return 1; }"),
            unit("one.c", "#include \"lib.c\"\n#include \"tool.c\"\n"),
            unit("tool.c", "int main(void) { return f(); }"),
            unit("tool2.c", "int main(int c, char **v) { return f() + c; }"),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![
                ("one.c", vec![1]),
                ("tool.c", vec![0, 2]),
                ("tool2.c", vec![0, 3])
            ]
        );
        // No change: the tool first by name (a unity build only when nothing else).
        let lists = [programs.as_slice(), programs.as_slice()];
        assert_eq!(
            choose(&lists, &|_, _| 0, &|_, _| 0, None).unwrap(),
            vec![Some(1), Some(1)]
        );
        // A change in tool2.c: its program.
        let tool2 = |_: usize, p: &ProgramUnits| usize::from(p.units.contains(&3));
        assert_eq!(
            choose(&lists, &tool2, &|_, _| 0, None).unwrap(),
            vec![Some(2), Some(2)]
        );
        // Named.
        assert_eq!(
            choose(&lists, &|_, _| 0, &|_, _| 0, Some("one.c")).unwrap(),
            vec![Some(0), Some(0)]
        );
        assert!(choose(&lists, &|_, _| 0, &|_, _| 0, Some("nothing.c")).is_err());
        // Without a change, a program whose files can be read before one that has a file
        // the preprocessor could not read (tool.c's: a fuzzer's header missing).
        let tool_fails = |_: usize, p: &ProgramUnits| usize::from(p.units.contains(&2));
        assert_eq!(
            choose(&lists, &|_, _| 0, &tool_fails, None).unwrap(),
            vec![Some(2), Some(2)]
        );
        // A change still decides first.
        let tool = |_: usize, p: &ProgramUnits| usize::from(p.units.contains(&2));
        assert_eq!(
            choose(&lists, &tool, &tool_fails, None).unwrap(),
            vec![Some(1), Some(1)]
        );
    }

    #[test]
    fn a_program_links_the_files_defining_what_it_uses() {
        // zlib's shape: the library at the root, test drivers, and a contributed tool
        // with a file for Windows only. `example.c` uses `deflate`, whose file uses
        // `crc` (the linker pulls that too); the Windows file is used by none of it, and
        // `tool.c`'s own `crc` (static) pulls nothing.
        let units = [
            unit(
                "contrib/tool.c",
                "static int crc(void) { return 0; }\nint main(void) { return open_win() + crc(); }",
            ),
            unit("contrib/win.c", "int open_win(void) { return HANDLE_MAX; }"),
            unit("crc.c", "int crc(void) { return 7; }\nint unused_table[4];"),
            unit("deflate.c", "int deflate(int x) { return x + crc(); }"),
            unit(
                "test/example.c",
                "int deflate(int);\nint main(void) { return deflate(1); }",
            ),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![
                ("contrib/tool.c", vec![0, 1]),
                ("test/example.c", vec![2, 3, 4])
            ]
        );
    }

    #[test]
    fn a_name_several_files_define_pulls_the_nearest_one() {
        // Unity's shape: every test directory has its own `setUp`; a runner links the
        // one beside it, not every file defining `setUp` with all those files use (here
        // `json.c`, which the runner's program does not need).
        let units = [
            unit("json.c", "int parse(void) { return 1; }"),
            unit("tests/a/fixture.c", "void setUp(void) {}\nint check_a(void) { return 2; }"),
            unit("tests/a/runner/main.c", "void setUp(void); int check_a(void);\nint main(void) { setUp(); return check_a(); }"),
            unit("tests/setup.c", "int parse(void);\nvoid setUp(void) { parse(); }"),
            unit("tool.c", "int parse(void);\nint main(void) { return parse(); }"),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![
                ("tests/a/runner/main.c", vec![1, 2]),
                ("tool.c", vec![0, 4])
            ]
        );
        // A change in json.c is analysed in the program that uses it.
        let lists = [programs.as_slice(), programs.as_slice()];
        let json = |_: usize, p: &ProgramUnits| usize::from(p.units.contains(&0));
        assert_eq!(
            choose(&lists, &json, &|_, _| 0, None).unwrap(),
            vec![Some(1), Some(1)]
        );
        // With no change to go by, the program at the root before the test runner.
        assert_eq!(
            choose(&lists, &|_, _| 0, &|_, _| 0, None).unwrap(),
            vec![Some(1), Some(1)]
        );
    }

    #[test]
    fn a_file_including_static_helpers_is_linked_like_any_other() {
        // hiredis's shape: `async.c` includes `dict.c`, whose functions are all static
        // (no external name defined twice): it is no unity build, and the test driver
        // that calls `redisAsyncConnect` links it.
        let units = [
            unit(
                "async.c",
                "#include \"dict.c\"\nint redisAsyncConnect(void) { return dictSize(); }",
            ),
            unit("dict.c", "static int dictSize(void) { return 0; }"),
            unit(
                "test.c",
                "int redisAsyncConnect(void);\nint main(void) { return redisAsyncConnect(); }",
            ),
            unit("tool.c", "int main(void) { return 1; }"),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![("test.c", vec![0, 2]), ("tool.c", vec![3])]
        );
    }

    #[test]
    fn the_library_leaves_out_what_only_a_sub_program_s_directory_holds() {
        // zlib's shape: the library at the root, a test program linking it, and a
        // contrib program with a Windows port no program links on this platform.
        let units = [
            unit("adler32.c", "int adler32(int a) { return a; }"),
            unit(
                "contrib/minizip/iowin32.c",
                "int win32_open(void) { return 0; }",
            ),
            unit(
                "contrib/minizip/minizip.c",
                "int adler32(int);\nint main(void) { return adler32(1); }",
            ),
            unit(
                "test/example.c",
                "int adler32(int);\nint main(void) { return adler32(2); }",
            ),
        ];
        let (_, library) = partition_with_library(&units);
        assert_eq!(library.expect("a library").units, vec![0]);
    }

    #[test]
    fn a_main_links_the_unity_build_of_the_library() {
        // mujs's shape: `one.c` includes every `js*.c` (one of which uses a macro only
        // another defines), and the build links it with `main.c`.
        let units = [
            unit("jsrun.c", "int push(int x) { return x; }"),
            unit(
                "jsstate.c",
                "int push(int);\nint peek(void) { return push(1); }",
            ),
            unit(
                "main.c",
                "int peek(void);\nint main(void) { return peek(); }",
            ),
            // As the preprocessor gives it: the included files' code after the lines.
            unit(
                "one.c",
                "#include \"jsrun.c\"\n#include \"jsstate.c\"\n\
                 int push(int x) { return x; }\nint peek(void) { return push(1); }",
            ),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![("main.c", vec![2, 3]), ("one.c", vec![3])]
        );
    }

    #[test]
    fn without_any_main_the_library_is_a_program_beside_the_unity_build() {
        let units = [
            unit("a.c", "int f(void) { return 1; }"),
            unit("all.c", "#include \"a.c\"\n"),
        ];
        let programs = partition(&units);
        assert_eq!(
            names(&programs),
            vec![("all.c", vec![1]), (LIBRARY, vec![0])]
        );
        let lists = [programs.as_slice()];
        assert_eq!(
            choose(&lists, &|_, _| 0, &|_, _| 0, None).unwrap(),
            vec![Some(1)]
        );
    }
}
