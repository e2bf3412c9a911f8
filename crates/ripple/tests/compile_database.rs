//! Compilation databases per version: one database made in one tree serves another tree
//! (paths mapped, generated headers found in the build it was made in), a file the
//! database does not list takes its nearest neighbour's flags, a database left in a
//! tree is found, and a tree with a build system and no database gets a hint.

use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A project as Debian ships one: `upstream/` and `patched/` (which adds 1 in `scale`),
/// and `build/`, a configured copy of upstream made before `src/extra/util.c` was added,
/// with a generated `config.h` (which only it has) and the database of its build.
/// `util.c` is then in no database but needs the build's `-I../include` like its
/// neighbour `src/main.c`. `src/win32.c`, in every tree, is a file the build leaves out
/// (a replacement for another platform, which does not read here).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch directory");
    for (tree, extra) in [("upstream", ""), ("patched", " + 1"), ("build", "")] {
        let root = dir.path().join(tree);
        write(
            &root.join("include/lib.h"),
            "#define SCALE 2\nint scale(int x);\n",
        );
        write(
            &root.join("src/main.c"),
            &format!(
                "#include \"config.h\"\n#include \"lib.h\"\n\
                 typedef LIMIT_TYPE limit_t;\n\
                 int scale(int x) {{ limit_t l = LIMIT; return x * SCALE + l{extra}; }}\n\
                 const char *where(void) {{ return __FILE__; }}\n"
            ),
        );
        if tree != "build" {
            write(
                &root.join("src/extra/util.c"),
                "#include \"lib.h\"\nint twice(int x) { return scale(x) * SCALE; }\n",
            );
        }
        write(
            &root.join("src/win32.c"),
            "HANDLE h = INVALID_HANDLE_VALUE;\n",
        );
        write(&root.join("configure"), "#!/bin/sh\n");
    }
    let build = dir.path().join("build");
    write(
        &build.join("config.h"),
        "#define LIMIT 10\n#define LIMIT_TYPE long\n",
    );
    let database = serde_json::json!([{
        "directory": build.join("src"),
        "file": "main.c",
        "command": "cc -DHAVE_CONFIG_H -I.. -I../include -O2 -c -o main.o main.c",
    }]);
    write(&build.join("compile_commands.json"), &database.to_string());
    dir
}

fn ripple(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn errors(dir: &Path, tree: &str, extra: &[&str]) -> u64 {
    let mut args = vec!["stats", tree, "--format", "json"];
    args.extend(extra);
    let (_, out, err) = ripple(&args, dir);
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    stats["errors"].as_u64().expect("an error count")
}

/// With the build's database, both trees read without an error (config.h comes from
/// the build, lib.h from each tree, util.c takes main.c's flags, win32.c is not read as
/// the build does not compile it), and the one changed
/// function is `scale`: `where` returns `__FILE__`, which must name the file as
/// `src/main.c` in both trees, not by their different directories. Without the
/// database, the missing config.h leaves LIMIT_TYPE unknown: errors, and a hint.
#[test]
fn one_database_serves_both_trees() {
    let dir = project();
    let p = dir.path();
    let db = p.join("build/compile_commands.json");
    let db = db.to_str().unwrap();
    for tree in ["upstream", "patched"] {
        assert_eq!(errors(p, tree, &["--compile-commands", db]), 0, "{tree}");
    }
    let (code, out, err) = ripple(
        &[
            "diff",
            "upstream",
            "patched",
            "--compile-commands",
            db,
            "--only",
            "changes",
            "--format",
            "json",
        ],
        p,
    );
    assert_eq!(code, 1, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let changed: Vec<&str> = json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] != "unchanged")
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(changed, vec!["scale"]);
    assert!(
        err.contains("made for") && err.contains("mapped onto this version"),
        "the mapping is said: {err}"
    );
    // util.c's flags come from its neighbour (said with --verbose).
    let (_, _, err) = ripple(
        &["stats", "patched", "--compile-commands", db, "--verbose"],
        p,
    );
    assert!(
        err.contains("src/extra/util.c") && err.contains("nearest neighbour there, src/main.c"),
        "{err}"
    );
    let (_, _, err) = ripple(&["stats", "patched", "--compile-commands", db], p);
    assert!(
        err.contains("1 C file(s) the build does not compile are not read"),
        "{err}"
    );
    // Without it: errors (win32.c among them), and how to make a database.
    assert!(errors(p, "upstream", &[]) > 0);
    let (_, _, err) = ripple(&["stats", "upstream"], p);
    assert!(
        err.contains("hint:") && err.contains("bear -- make"),
        "{err}"
    );
}

/// A database left in a tree's `build/` is found and used without a flag.
#[test]
fn a_database_in_the_tree_is_found() {
    let dir = project();
    let p = dir.path();
    std::fs::create_dir_all(p.join("patched/build")).expect("mkdir");
    std::fs::copy(
        p.join("build/compile_commands.json"),
        p.join("patched/build/compile_commands.json"),
    )
    .expect("copy");
    assert_eq!(errors(p, "patched", &[]), 0);
    let (_, _, err) = ripple(&["stats", "patched"], p);
    assert!(err.contains("(found)"), "{err}");
    assert!(!err.contains("hint:"), "{err}");
}

/// Two versions of a program whose units need the flags of their build: `src/scale.c`
/// includes `scale.h` from `include/`, which only its database entry names
/// (`-I../include`), and `src/util.c` reads `OFFSET`, which only its own entry defines
/// (`-DOFFSET=5`). Each tree has its database at its root.
fn flagged_program(dir: &Path) {
    for (tree, extra) in [("old", ""), ("new", " + (x == 7)")] {
        let root = dir.join(tree);
        write(
            &root.join("include/scale.h"),
            "#define FACTOR 3\nint offset(void);\n",
        );
        write(
            &root.join("src/scale.c"),
            &format!(
                "#include \"scale.h\"\nint scale(int x) {{ return x * FACTOR + offset(){extra}; }}\n"
            ),
        );
        write(
            &root.join("src/util.c"),
            "int offset(void) { return OFFSET; }\n",
        );
        let src = root.join("src");
        let database = serde_json::json!([
            {
                "directory": src,
                "file": "scale.c",
                "command": "cc -I../include -O2 -c -o scale.o scale.c",
            },
            {
                "directory": src,
                "file": "util.c",
                "command": "cc -DOFFSET=5 -O2 -c -o util.o util.c",
            },
        ]);
        write(&root.join("compile_commands.json"), &database.to_string());
    }
}

/// The semdiff JSON of `old` against `new` in `dir`, and its first function's first
/// witness.
fn first_witness(dir: &Path, old: &str, new: &str) -> serde_json::Value {
    let (code, out, err) = ripple(
        &[
            "semdiff",
            old,
            new,
            "--function",
            "scale",
            "--format",
            "json",
        ],
        dir,
    );
    assert_eq!(code, 1, "a difference: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    json["functions"][0]["witnesses"][0].clone()
}

/// The driver that runs a witness compiled is built as the program is: scale.c with
/// its entry's include directory, util.c with its own define, linked. The versions
/// differ only at x = 7, where old returns 7 * 3 + 5 = 26 and new 26 + 1 = 27: the
/// compiled versions confirm it (without the database's flags, scale.h is not found
/// and util.c does not compile, and the interpreter would decide).
#[test]
fn a_witness_is_confirmed_by_a_driver_built_with_the_databases_flags() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    flagged_program(dir.path());
    let witness = first_witness(dir.path(), "old", "new");
    assert_eq!(witness["inputs"]["x"], "7", "{witness:#}");
    assert_eq!(witness["old"]["result"], "returned 26", "{witness:#}");
    assert_eq!(witness["new"]["result"], "returned 27", "{witness:#}");
    assert_eq!(witness["checked_by"], "compiled code", "{witness:#}");
    assert_eq!(witness["confirmed"], true, "{witness:#}");
    assert!(witness.get("native_error").is_none(), "{witness:#}");
}

/// A library the program links is not there: `library_offset` is a function the
/// program declares and no file defines, called by a function other than `scale`; it
/// gets a stand-in, and `scale` (old x * 3, new x * 3 + (x == 7): 21 against 22 at
/// x = 7) still runs compiled. A data object no file defines (`library_table`) gets
/// none: the build fails, and the note names the symbol, not the linker's exit.
#[test]
fn a_missing_library_function_gets_a_stand_in_and_a_failed_link_names_its_symbol() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    for (tree, extra) in [("old", ""), ("new", " + (x == 7)")] {
        write(
            &dir.path().join(tree).join("lib.c"),
            &format!(
                "int library_offset(void);\n\
                 int scale(int x) {{ return x * 3{extra}; }}\n\
                 int shifted(int x) {{ return x + library_offset(); }}\n"
            ),
        );
        write(
            &dir.path().join(format!("{tree}-data")).join("lib.c"),
            &format!(
                "extern int library_table[4];\n\
                 int scale(int x) {{ return x * 3{extra}; }}\n\
                 int first(void) {{ return library_table[0]; }}\n"
            ),
        );
    }
    let witness = first_witness(dir.path(), "old", "new");
    assert_eq!(witness["inputs"]["x"], "7", "{witness:#}");
    assert_eq!(witness["old"]["result"], "returned 21", "{witness:#}");
    assert_eq!(witness["new"]["result"], "returned 22", "{witness:#}");
    assert_eq!(witness["checked_by"], "compiled code", "{witness:#}");
    assert_eq!(witness["confirmed"], true, "{witness:#}");

    let witness = first_witness(dir.path(), "old-data", "new-data");
    assert_eq!(witness["checked_by"], "interpreter", "{witness:#}");
    assert_eq!(
        witness["native_error"],
        "cc could not build the driver: undefined reference to `library_table'",
        "{witness:#}"
    );
}
