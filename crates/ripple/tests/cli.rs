//! End-to-end tests of the `ripple` binary: inputs (files, directories, git revisions),
//! output formats, exit codes and error messages.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;
use predicates::prelude::*;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn ripple() -> Command {
    Command::cargo_bin("ripple").expect("the ripple binary builds")
}

fn diff_json(old: &Path, new: &Path) -> (i32, serde_json::Value) {
    let out = ripple()
        .args(["diff", "--format", "json"])
        .arg(old)
        .arg(new)
        .output()
        .expect("ripple runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

fn function<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json["functions"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == name))
        .unwrap_or_else(|| panic!("no function {name} in {json:#}"))
}

#[test]
fn formatting_only_change_is_no_change() {
    // new.c is old.c reformatted (same tokens): nothing changed, exit 0 like diff(1).
    let dir = examples().join("formatting-only");
    let (code, json) = diff_json(&dir.join("old.c"), &dir.join("new.c"));
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["schema"], 2);
    assert_eq!(json["functions"].as_array().map(Vec::len), Some(0));
    assert!(json["summary"]["unchanged"].as_u64().unwrap_or(0) > 0);
}

#[test]
fn renamed_function_is_detected() {
    // sum_squares became sum_of_squares with the same body: a rename, not add + remove.
    let dir = examples().join("renamed-function");
    let (code, json) = diff_json(&dir.join("old.c"), &dir.join("new.c"));
    assert_eq!(code, 1);
    let renamed = function(&json, "sum_of_squares");
    assert_eq!(renamed["status"], "renamed");
    assert_eq!(renamed["old_name"], "sum_squares");
    assert_eq!(json["summary"]["added"], 0);
    assert_eq!(json["summary"]["removed"], 0);
}

#[test]
fn moved_function_is_unchanged() {
    // count_vowels moved within the file: unchanged; max_word_length has one changed
    // condition (examples/moved-function/README.md).
    let dir = examples().join("moved-function");
    let (code, json) = diff_json(&dir.join("old.c"), &dir.join("new.c"));
    assert_eq!(code, 1);
    let names = function_names(&json);
    assert_eq!(names, vec!["max_word_length"]);
    let changed = function(&json, "max_word_length");
    assert_eq!(changed["status"], "modified");
    assert_eq!(changed["old_lines"], serde_json::json!([24]));
    assert_eq!(changed["new_lines"], serde_json::json!([33]));
}

#[test]
fn all_lists_unchanged_functions() {
    let dir = examples().join("formatting-only");
    let out = ripple()
        .args(["diff", "--all", "--format", "json"])
        .arg(dir.join("old.c"))
        .arg(dir.join("new.c"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let functions = json["functions"].as_array().unwrap();
    assert!(!functions.is_empty());
    assert!(functions.iter().all(|f| f["status"] == "unchanged"));
}

#[test]
fn text_output_has_a_summary() {
    let dir = examples().join("dcia-fig1");
    ripple()
        .arg("diff")
        .arg(dir.join("old.c"))
        .arg(dir.join("new.c"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("modified"))
        .stdout(predicate::str::contains("function(s) changed"));
}

#[test]
fn missing_file_is_an_error_naming_it() {
    ripple()
        .args(["diff", "no/such/old.c", "no/such/new.c"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/old.c"));
}

#[test]
fn bad_revision_is_an_error() {
    ripple()
        .args(["diff", "no-such-revision-xyz", "HEAD"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-revision-xyz"));
}

#[test]
fn a_program_no_file_is_named_is_an_error() {
    // In a tree that is one program any name picked the whole tree: a misspelt
    // `--program` was accepted without a word.
    let file = examples().join("dcia-fig1").join("old.c");
    ripple()
        .args(["diff", "--no-cache", "--program", "nosuch.c"])
        .arg(&file)
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--program nosuch.c: no such file"));
    ripple()
        .args(["diff", "--no-cache", "--program", "old.c"])
        .arg(&file)
        .arg(&file)
        .assert()
        .code(0);
}

#[test]
fn unknown_flag_is_an_error() {
    ripple()
        .args(["diff", "--frobnicate", "a.c", "b.c"])
        .assert()
        .code(2);
}

#[test]
fn non_c_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("notes.txt");
    std::fs::write(&txt, "hello").unwrap();
    ripple()
        .arg("diff")
        .arg(&txt)
        .arg(&txt)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("notes.txt"));
}

#[test]
fn unparsable_c_reports_file_and_line_and_still_diffs() {
    // Line 3 is garbage; `good` is still read and compared.
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.c");
    let new = dir.path().join("new.c");
    std::fs::write(
        &old,
        "int good(int x) { return x + 1; }\n\nint bad( { ]]] @@ ;\n",
    )
    .unwrap();
    std::fs::write(
        &new,
        "int good(int x) { return x + 2; }\n\nint bad( { ]]] @@ ;\n",
    )
    .unwrap();
    let out = ripple()
        .args(["diff", "--format", "json"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("old.c:3"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(function(&json, "good")["status"], "modified");
}

#[test]
fn directories_and_git_revisions_are_versions() {
    let repo = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let status = StdCommand::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(repo.path())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::create_dir(repo.path().join("src")).unwrap();
    std::fs::write(
        repo.path().join("src/util.h"),
        "#define SCALE 2\nint scale(int x);\n",
    )
    .unwrap();
    std::fs::write(
        repo.path().join("src/util.c"),
        "#include \"util.h\"\nint scale(int x) { return x * SCALE; }\n\
         const char *where(void) { return __FILE__; }\n",
    )
    .unwrap();
    std::fs::write(
        repo.path().join("src/main.c"),
        "#include \"util.h\"\nint main(void) { return scale(3); }\n",
    )
    .unwrap();
    std::fs::write(repo.path().join("Makefile"), "all:\n\tcc src/*.c\n").unwrap();
    git(&["add", "."]);
    git(&["commit", "-qm", "one"]);
    // A macro change in a header is a change of its user (preprocessed code).
    std::fs::write(
        repo.path().join("src/util.h"),
        "#define SCALE 3\nint scale(int x);\n",
    )
    .unwrap();
    git(&["commit", "-qam", "two"]);

    let out = ripple()
        .args(["diff", "--format", "json", "HEAD~1", "HEAD"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The revisions' trees are extracted without their build files; the hint on how to
    // make a compilation database looks at the work tree.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("hint:") && stderr.contains("bear -- make"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scale = function(&json, "scale");
    assert_eq!(scale["status"], "modified");
    assert_eq!(scale["file"], "src/util.c");
    assert_eq!(
        json["summary"]["modified"], 1,
        "main does not use SCALE: {json:#}"
    );

    // One revision: compared with the working tree (unchanged here).
    ripple()
        .args(["diff", "HEAD"])
        .current_dir(repo.path())
        .assert()
        .code(0);

    // A reversed range holds no commit: an error, not "no change" (exit 0).
    let out = ripple()
        .args(["diff", "--each-commit", "--no-cache", "HEAD..HEAD~1"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no commit"), "{stderr}");

    // Two directories.
    let old_dir = tempfile::tempdir().unwrap();
    std::fs::write(old_dir.path().join("a.c"), "int f(int x) { return x; }\n").unwrap();
    let new_dir = tempfile::tempdir().unwrap();
    std::fs::write(
        new_dir.path().join("a.c"),
        "int f(int x) { return x; }\nint g(void) { return 1; }\n",
    )
    .unwrap();
    let (code, json) = diff_json(old_dir.path(), new_dir.path());
    assert_eq!(code, 1);
    assert_eq!(function(&json, "g")["status"], "added");
}

#[test]
fn output_is_deterministic() {
    let dir = examples().join("dcia-fig1");
    // The work budget decides; the wall-clock cut-off is moved far so that a loaded
    // machine cannot stop one run earlier than the other.
    let run = || {
        ripple()
            .args(["diff", "--format", "json", "--cutoff", "600", "--no-cache"])
            .arg(dir.join("old.c"))
            .arg(dir.join("new.c"))
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn a_version_against_itself_has_no_change() {
    for example in [
        "dcia-fig1",
        "moddiff-fig2",
        "sea-fig1",
        "change-effects-fig13",
    ] {
        let file = examples().join(example).join("new.c");
        let (code, json) = diff_json(&file, &file);
        assert_eq!(code, 0, "{example}: {json:#}");
    }
}

#[test]
fn dcia_fig1_changes_exactly_two_functions() {
    // diff(1) of the two files: old 24 `print_header('\n')` -> new 25
    // `print_header(line_delim)`; old 32 -> new 33-34 (`line_delim='\0'` inserted before
    // the changed call of print_minor_vers); old 42 -> new 43 (`?1:0` -> `!!`); new 21
    // declares the global line_delim (outside any function). The statics of the two
    // files correspond by name, so no other function is affected.
    let dir = examples().join("dcia-fig1");
    let (code, json) = diff_json(&dir.join("old.c"), &dir.join("new.c"));
    assert_eq!(code, 1);
    let names = function_names(&json);
    assert_eq!(names, vec!["locale_ok", "print_product_info"]);
    let product = function(&json, "print_product_info");
    assert_eq!(product["old_lines"], serde_json::json!([24, 32]));
    assert_eq!(product["new_lines"], serde_json::json!([25, 33, 34]));
    let locale = function(&json, "locale_ok");
    assert_eq!(locale["old_lines"], serde_json::json!([42]));
    assert_eq!(locale["new_lines"], serde_json::json!([43]));
    assert_eq!(
        json["globals"],
        serde_json::json!([{"name": "line_delim", "file": "new.c", "status": "added", "new_line": 21}])
    );
}

#[test]
fn a_missing_header_gets_an_empty_stand_in() {
    // The header does not exist on this machine: the unit is still preprocessed (K is
    // expanded to 3), with a warning naming the header.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.c");
    std::fs::write(
        &file,
        "#include <no_such_dir/no_such_header.h>\n#define K 3\nint f(void) { return K; }\n",
    )
    .unwrap();
    ripple()
        .args(["dump", "ir", "--verbose", "--function", "f"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("= 3"))
        .stderr(predicate::str::contains(
            "header `no_such_dir/no_such_header.h` not found; preprocessed with an empty stand-in",
        ));
}

/// A changed string literal read by a function is named by its text and place, not by
/// the key the program gives it (`.str.4afe27ca2f575fb9`).
#[test]
fn a_changed_string_literal_is_named_by_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let source = |word: &str| {
        format!(
            "#include <stdio.h>\nstatic const char *m = \"{word}\";\nvoid say(void) {{ puts(m); }}\n"
        )
    };
    let text = stdout_on(
        &dir,
        (&source("violate"), &source("violates")),
        &["impact", "--level", "function"],
    );
    assert!(
        text.contains("string literal \"violates\" at new.c:2"),
        "{text}"
    );
    assert!(!text.contains(".str."), "{text}");
}

/// A parser-like record with 40 fields, each holding its own string literal, and an
/// error message stored in its `problem` member by `fail`; only the message changes
/// (`violate` to `violates`). `first_NN` reads the literal of field `fNN` and nothing
/// else, and runs before `fail`.
fn forty_literals(word: &str) -> String {
    let fields: String = (0..40)
        .map(|i| format!("    const char *f{i:02};\n"))
        .collect();
    let stores: String = (0..40)
        .map(|i| format!("    c->f{i:02} = \"name {i:02}\";\n"))
        .collect();
    let readers: String = (0..40)
        .map(|i| {
            format!("static int first_{i:02}(const struct config *c) {{ return c->f{i:02}[0]; }}\n")
        })
        .collect();
    let calls: Vec<String> = (0..40).map(|i| format!("first_{i:02}(&c)")).collect();
    format!(
        "#include <stdio.h>\n\nstruct config {{\n    const char *problem;\n{fields}}};\n\n\
         static void init(struct config *c)\n{{\n    c->problem = 0;\n{stores}}}\n\n{readers}\n\
         static void fail(struct config *c) {{ c->problem = \"a tab that {word} indentation\"; }}\n\n\
         int main(void)\n{{\n    struct config c;\n    init(&c);\n    int sum = {};\n    fail(&c);\n\
         if (c.problem)\n        puts(c.problem);\n    printf(\"%d\\n\", sum);\n    return 0;\n}}\n",
        calls.join(" + ")
    )
}

/// The changed message of [`forty_literals`] is read only where `c.problem` is printed,
/// in `main`: no `first_NN` dereferences a pointer that may point to it (each field has
/// its own cell in points-to, however many fields the record has). So at function
/// level `fail` is changed and `main` reads the changed literal, and no `first_NN` is a
/// reader; at statement level no line of a `first_NN` is impacted (they run before
/// `fail`, and read neither the message nor what `fail` writes).
#[test]
fn a_changed_literal_impacts_only_its_readers() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout_on(
        &dir,
        (&forty_literals("violate"), &forty_literals("violates")),
        &["impact", "--level", "function"],
    );
    let changed: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "changed functions:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(changed.len(), 2, "{text}");
    assert!(changed[0].starts_with("  modified  fail "), "{text}");
    assert!(changed[1].starts_with("  reads     main "), "{text}");
    let json = stdout_on(
        &dir,
        (&forty_literals("violate"), &forty_literals("violates")),
        &["impact", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let functions: std::collections::BTreeSet<&str> = json["impacted_lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["function"].as_str())
        .collect();
    assert!(
        functions.iter().all(|f| !f.starts_with("first_")),
        "{functions:?}"
    );
    assert!(functions.contains("main"), "{functions:?}");
}

/// No report names a string literal by the key the program gives it (`.str.` and a
/// hash): the text of `diff` and of `impact` at both levels, with every line.
#[test]
fn no_report_names_a_literal_by_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (forty_literals("violate"), forty_literals("violates"));
    for args in [
        &["diff", "--all"][..],
        &["impact", "--all"],
        &["impact", "--level", "function", "--all"],
    ] {
        let text = stdout_on(&dir, (&old, &new), args);
        // The function level names the changed literal `main` reads; statement chains
        // start at the statement naming it.
        if args.contains(&"function") {
            assert!(text.contains("string literal"), "{args:?}: {text}");
        }
        assert!(!text.contains(".str."), "{args:?}: {text}");
    }
}

/// Without --verbose, warnings are counted, not shown; but a header not found is shown
/// when errors follow, as it is their likely cause (here the unknown type `evtype`).
#[test]
fn a_missing_header_is_shown_with_the_errors_it_causes() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, uses: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!("#include <no_such_dir/events.h>\n{uses}\nint f(int x) {{ return x; }}\n"),
        )
        .unwrap();
        path
    };
    let header = "header `no_such_dir/events.h` not found";
    let run = |old: &std::path::Path, new: &std::path::Path| {
        let out = ripple()
            .args(["diff", "--no-config", "--no-cache", "--only", "changes"])
            .arg(old)
            .arg(new)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let (a, b) = (write("a.c", "evtype e;"), write("b.c", "evtype e; int g;"));
    let said = run(&a, &b);
    assert!(said.contains(header), "{said}");
    assert!(said.contains("unknown type name `evtype`"), "{said}");
    // No error: the warning stays behind --verbose.
    let (c, d) = (write("c.c", ""), write("d.c", "int g;"));
    let said = run(&c, &d);
    assert!(!said.contains(header), "{said}");
    assert!(
        said.contains("warning(s) (use --verbose to see them)"),
        "{said}"
    );
}

#[test]
fn preprocessor_flags_come_from_the_command_line_or_a_compilation_database() {
    // LIMIT is defined only by a flag: 10 in the old version's database entry, 11 in
    // the new one, so `check` changes; with the same -D for both there is no change.
    let dir = tempfile::tempdir().unwrap();
    let src = "int check(int x) { return x < LIMIT; }\n";
    for version in ["old", "new"] {
        std::fs::create_dir(dir.path().join(version)).unwrap();
        std::fs::write(dir.path().join(version).join("a.c"), src).unwrap();
    }
    let database = |version: &str, limit: u32| {
        let path = dir.path().join(format!("{version}.json"));
        let entry = serde_json::json!([{
            "directory": dir.path().join(version),
            "file": "a.c",
            "command": format!("cc -c -DLIMIT={limit} a.c"),
        }]);
        std::fs::write(&path, entry.to_string()).unwrap();
        path
    };
    let old_db = database("old", 10);
    let new_db = database("new", 11);
    // One database may describe both trees: merge the two entries.
    let mut both: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&old_db).unwrap()).unwrap();
    both.extend(
        serde_json::from_str::<Vec<serde_json::Value>>(&std::fs::read_to_string(&new_db).unwrap())
            .unwrap(),
    );
    let both_db = dir.path().join("both.json");
    std::fs::write(&both_db, serde_json::Value::Array(both).to_string()).unwrap();
    ripple()
        .arg("diff")
        .arg("--compile-commands")
        .arg(&both_db)
        .arg(dir.path().join("old"))
        .arg(dir.path().join("new"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("check"));
    ripple()
        .args(["diff", "-DLIMIT=7"])
        .arg(dir.path().join("old"))
        .arg(dir.path().join("new"))
        .assert()
        .code(0);
}

/// The names of the functions a diff lists, in order.
fn function_names(json: &serde_json::Value) -> Vec<&str> {
    json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect()
}

/// `ripple ... | head` closes the pipe early: ripple must end quietly, as Unix tools do
/// (killed by SIGPIPE, nothing on stderr), not panic with "failed printing to stdout".
#[test]
fn closed_stdout_pipe_ends_quietly() {
    use std::process::Stdio;
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("ripple"))
        .args(["dump", "ir"])
        .arg(examples().join("sea-fig1/old.c"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ripple starts");
    // Close the read end before ripple writes: the dump (several KB) cannot fit into
    // what is written before the first failing write.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ripple ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("Broken pipe") && !stderr.contains("panicked"),
        "stderr: {stderr}"
    );
}

/// Colour: off when the output is not a terminal (here, a pipe) or with `--color never`,
/// on with `--color always`; the words are the same.
#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let dir = examples().join("dcia-fig1");
    let run = |extra: &[&str]| {
        let out = ripple()
            .args(extra)
            .args(["diff", "--only", "changes"])
            .arg(dir.join("old.c"))
            .arg(dir.join("new.c"))
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let piped = run(&[]);
    assert!(
        !piped.contains('\x1b') && piped.contains("modified"),
        "{piped}"
    );
    assert_eq!(run(&["--color", "never"]), piped);
    let coloured = run(&["--color", "always"]);
    assert!(coloured.contains("\x1b[33mmodified \x1b[0m"), "{coloured}");
    assert_eq!(
        coloured
            .replace("\x1b[33m", "")
            .replace("\x1b[32m", "")
            .replace("\x1b[0m", ""),
        piped
    );
}

/// The standard output of `ripple ARGS old.c new.c` (no configuration, no cache, no
/// colour) on two texts written into `dir`.
fn stdout_on(dir: &tempfile::TempDir, (old, new): (&str, &str), args: &[&str]) -> String {
    let (old_path, new_path) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&old_path, old).unwrap();
    std::fs::write(&new_path, new).unwrap();
    let out = ripple()
        .args(args)
        .args(["--no-config", "--no-cache", "--color", "never"])
        .arg(&old_path)
        .arg(&new_path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
