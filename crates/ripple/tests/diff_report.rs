//! `ripple diff` as one report: the changes, the statements they may affect, the
//! semantic verdicts and the invariant churns, chosen with `--only` and `--skip`; deterministic; sections that
//! cannot run say why.

use std::path::{Path, PathBuf};

fn example(name: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
        .join(file)
}

fn diff(old: &Path, new: &Path, extra: &[&str]) -> (i32, String) {
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("diff")
        .arg(old)
        .arg(new)
        .args(extra)
        // The verdicts are judged by their work budget, not by the machine's load; each
        // run analyses (the report cache has its own test).
        .args(["--cutoff", "300", "--no-cache"])
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

fn fig1(extra: &[&str]) -> (i32, String) {
    diff(
        &example("dcia-fig1", "old.c"),
        &example("dcia-fig1", "new.c"),
        extra,
    )
}

/// 000 Fig. 1: print_product_info and locale_ok change; the impact is the printf of
/// print_minor_vers (new line 61); locale_ok is equivalent and print_product_info
/// prints '\0' where it printed '\n' (a witness).
#[test]
fn the_report_has_the_changes_the_impact_and_the_verdicts() {
    let (code, text) = fig1(&[]);
    assert_eq!(code, 1);
    let changes = text.find("modified  print_product_info").expect("changes");
    let impact = text
        .find("impact: the statements the change may affect")
        .expect("impact");
    let semantic = text.find("semantic verdicts:").expect("semantic");
    assert!(changes < impact && impact < semantic, "{text}");
    assert!(
        text.contains("new new.c:61 <- delim (param of print_minor_vers)"),
        "{text}"
    );
    assert!(text.contains("locale_ok: equivalent"), "{text}");
    assert!(text.contains("print_product_info: different"), "{text}");
    let (_, json) = fig1(&["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["summary"]["modified"], 2,
        "the changes document, extended"
    );
    assert_eq!(json["impact"]["summary"]["impacted_lines"], 4);
    assert!(json["semantic"]["functions"].is_array(), "{json:#}");
    // The same input gives the same report.
    assert_eq!(fig1(&["--format", "json"]).1, fig1(&["--format", "json"]).1);
}

/// 000 Fig. 1 at function level: print_product_info and locale_ok change. What may run
/// after them: the functions print_product_info calls (print_header, locale_ok and,
/// through it, setlocale; print_name, print_major_vers, print_minor_vers and the
/// locale_format they call), itself, and main, which its return goes back to. Nothing
/// else is defined, so the call graph gives the same 9; print_header runs only before
/// locale_ok (CALL from print_product_info, not SEQ).
#[test]
fn the_functions_that_may_run_after_the_change() {
    let (_, json) = fig1(&["--only", "functions", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let functions = &json["function_impact"];
    let mut names: Vec<&str> = functions["impacted_functions"]
        .as_array()
        .expect("impacted functions")
        .iter()
        .map(|f| f["name"].as_str().expect("a name"))
        .collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "locale_format",
            "locale_ok",
            "main",
            "print_header",
            "print_major_vers",
            "print_minor_vers",
            "print_name",
            "print_product_info",
            "setlocale"
        ]
    );
    let header = functions["impacted_functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "print_header")
        .unwrap();
    assert_eq!(header["relations"], serde_json::json!(["CALL"]));
    assert_eq!(functions["summary"]["callgraph_impacted"], 9);
    let (_, text) = fig1(&["--only", "functions"]);
    assert!(
        text.contains("9 function(s) impacted by 2 changed"),
        "{text}"
    );
    let (_, text) = fig1(&["--skip", "functions,semantic,invariants"]);
    assert!(!text.contains("functions: those"), "{text}");
}

#[test]
fn only_and_skip_choose_the_sections() {
    let (code, text) = fig1(&["--only", "changes"]);
    assert_eq!(code, 1);
    assert!(text.contains("modified  locale_ok"));
    assert!(
        !text.contains("impact:") && !text.contains("semantic verdicts:"),
        "{text}"
    );
    let (_, json) = fig1(&["--only", "changes", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(json.get("impact").is_none() && json.get("semantic").is_none());
    let (_, text) = fig1(&["--skip", "semantic"]);
    assert!(
        text.contains("impact:") && !text.contains("semantic verdicts:"),
        "{text}"
    );
    let (_, text) = fig1(&["--only", "impact,semantic"]);
    assert!(!text.contains("modified  locale_ok"), "{text}");
    assert!(
        text.contains("impact:") && text.contains("semantic verdicts:"),
        "{text}"
    );
}

/// 003 Fig. 1 (versions 1 and 2): version 2 adds `if (a > 0) { a = a + 1; x = b - 1; }`
/// where version 1 set `x = 2`. `a` comes from `foo`, which bounds it to
/// [-1000000, 1000000]; after the increment a may be 1000001, so `a <= 1000000` holds at
/// main's exit in version 1 only, because of the added line 24 (`a = a + 1`). `b == 3`
/// and `c == 1` hold in both (version invariants).
#[test]
fn invariant_churns_at_the_changed_functions_exits() {
    let (old, new) = (
        example("invariant-diffs-fig1", "old.c"),
        example("invariant-diffs-fig1", "new.c"),
    );
    let (code, text) = diff(&old, &new, &["--only", "invariants"]);
    assert_eq!(code, 1);
    assert!(text.contains("invariant churns:"), "{text}");
    assert!(!text.contains("impact:"), "{text}");
    let (_, json) = diff(&old, &new, &["--only", "invariants", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let points = json["invariants"]["points"].as_array().expect("points");
    let main = points
        .iter()
        .find(|p| p["function"] == "main")
        .expect("main is changed");
    let removed: Vec<&str> = main["churns"]
        .as_array()
        .expect("churns")
        .iter()
        .flat_map(|c| c["removed"].as_array().expect("removed").iter())
        .filter_map(|r| r.as_str())
        .collect();
    assert!(removed.contains(&"a <= 1000000"), "{main:#}");
    let churn = main["churns"]
        .as_array()
        .expect("churns")
        .iter()
        .find(|c| c["removed"][0] == "a <= 1000000")
        .expect("the churn of a");
    assert_eq!(churn["lines"]["added"][0], "new.c:24", "{churn:#}");
    let invariants = main["version_invariants"].as_array().expect("shared");
    assert!(invariants.iter().any(|i| i == "b == 3"), "{main:#}");
    // Markdown: a table of the churns.
    let (_, markdown) = diff(
        &old,
        &new,
        &["--only", "invariants", "--format", "markdown"],
    );
    assert!(markdown.contains("#### Invariant churns"), "{markdown}");
    assert!(markdown.contains("`a <= 1000000`"), "{markdown}");
    // Skipped, the section is gone.
    let (_, json) = diff(&old, &new, &["--skip", "invariants", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(json.get("invariants").is_none());
}

#[test]
fn no_change_runs_no_analysis() {
    let file = example("dcia-fig1", "new.c");
    let (code, json) = diff(&file, &file, &["--format", "json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(json.get("impact").is_none() && json.get("semantic").is_none());
}

/// An anonymous record is named by its typedef (`typedef struct {...} ops_t;`), not by
/// how many records the program declares before it: a record added in another file
/// changes no global of such a type (c-ares 29d38719 reported three unchanged tables of
/// `ares_event_sys_t` as modified, and 490 readers as changed); it is a changed
/// declaration only.
#[test]
fn a_record_added_elsewhere_changes_no_global_of_an_anonymous_type() {
    let dir = tempfile::tempdir().unwrap();
    let table = "typedef struct { const char *name; int k; } ops_t;\nconst ops_t tab = { \"epoll\", 3 };\nint use(void) { return tab.k; }\n";
    for (version, a) in [
        ("old", "int g(int x) { return x; }\n"),
        (
            "new",
            "struct req { int q; };\nint g(int x) { return x; }\n",
        ),
    ] {
        let root = dir.path().join(version);
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("a.c"), a).unwrap();
        std::fs::write(root.join("t.c"), table).unwrap();
    }
    let (code, text) = diff(&dir.path().join("old"), &dir.path().join("new"), &[]);
    // The added record is a declaration that changes no code (exit 1 for the text).
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains("global"), "{text}");
    assert!(
        text.contains("declarations changed, not the code: a.c (new 1)\nno function changed"),
        "{text}"
    );
}

/// Where the sources have errors, the functions that run code that could not be read get
/// no verdict and no invariants; the others get both, as without the errors.
#[test]
fn no_verdict_on_code_that_could_not_be_read() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new.c"));
    // `broken` has a syntax error in both versions and changes inside it; `user` calls
    // it. `f` runs none of it: `x + 1` against `x + 2` differs for every x (x = 0 gives
    // 1 against 2).
    let text = |k: u32| {
        format!(
            "int broken(int a) {{ int x = 0; x = a + @ {k}; return x; }}\n\
             int user(int a) {{ return broken(a) + {k}; }}\n\
             int f(int x) {{ return x + {k}; }}\n"
        )
    };
    std::fs::write(&old, text(1)).expect("write");
    std::fs::write(&new, text(2)).expect("write");
    let (code, json) = diff(&old, &new, &["--format", "json"]);
    assert_eq!(code, 2, "errors exit 2");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let verdicts = json["semantic"]["functions"].as_array().expect("verdicts");
    let verdict = |name: &str| {
        verdicts
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {verdicts:#?}"))
    };
    assert_eq!(verdict("f")["verdict"], "different", "{verdicts:#?}");
    assert!(verdict("f").get("unread").is_none());
    for name in ["broken", "user"] {
        assert_eq!(verdict(name)["verdict"], "unknown", "{verdicts:#?}");
        assert!(
            verdict(name)["unread"]
                .as_str()
                .is_some_and(|at| at.ends_with("old.c:1")),
            "{verdicts:#?}"
        );
    }
    // The invariants likewise: `f`'s churn is found, `user`'s versions are undecided.
    let points = json["invariants"]["points"].as_array().expect("points");
    let point = |name: &str| {
        points
            .iter()
            .find(|p| p["function"] == name)
            .unwrap_or_else(|| panic!("{name} in {points:#?}"))
    };
    assert!(
        !point("f")["churns"].as_array().expect("churns").is_empty(),
        "{points:#?}"
    );
    let user = point("user").to_string();
    assert!(user.contains("runs code that could not be read"), "{user}");
    assert!(point("user")["churns"]
        .as_array()
        .expect("churns")
        .is_empty());

    // A changed initializer that could not be read: its readers get no verdict (before,
    // both versions read it as an unknown external and nothing was affected).
    std::fs::write(
        &old,
        "int table[] = {1, 2, 3 ;\nint get(int i) { return table[i]; }\nint main(void) { return get(2); }\n",
    )
    .expect("write");
    std::fs::write(
        &new,
        "int table[] = {1, 2, 4 ;\nint get(int i) { return table[i]; }\nint main(void) { return get(2); }\n",
    )
    .expect("write");
    let (code, text) = diff(&old, &new, &["--only", "semantic"]);
    assert_eq!(code, 2);
    assert!(
        text.contains("no verdict, they run code that could not be read (old.c:1"),
        "{text}"
    );

    // An error outside any function or initializer (a broken declaration) may change any
    // function: no verdict at all.
    std::fs::write(&old, "int f(int x) { return x + 1; }\n").expect("write");
    std::fs::write(&new, "int f(int x) { return x + 2; }\nint g( { \n").expect("write");
    let (code, json) = diff(&old, &new, &["--format", "json", "--only", "semantic"]);
    assert_eq!(code, 2);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let f = &json["semantic"]["functions"][0];
    assert_eq!(f["name"], "f");
    assert_eq!(f["verdict"], "unknown", "{json:#}");
    assert!(
        f["unread"]
            .as_str()
            .is_some_and(|at| at.starts_with("new.c")),
        "{json:#}"
    );
}

/// The Markdown report leads with the verdicts: locale_ok equivalent, print_product_info
/// different on a confirmed witness; then the changed functions and the impact (4
/// lines, as in the text report).
#[test]
fn markdown_leads_with_the_verdicts() {
    let (code, md) = fig1(&["--format", "markdown"]);
    assert_eq!(code, 1);
    let verdicts = md.find("#### Semantic verdicts").expect("verdicts");
    let changed = md.find("Changed functions (2)").expect("changed functions");
    let impact = md.find("#### Impact").expect("impact");
    assert!(verdicts < changed && changed < impact, "{md}");
    assert!(md.contains("| `locale_ok` | equivalent |"), "{md}");
    assert!(
        md.contains("| `print_product_info` | different | on `"),
        "{md}"
    );
    assert!(md.contains("4 impacted line(s)"), "{md}");
    // HTML and SARIF show the impact of the same run.
    let (_, sarif) = fig1(&["--format", "sarif", "--skip", "semantic"]);
    assert!(sarif.contains("\"ruleId\": \"RPL001\""), "{sarif}");
    let (_, html) = fig1(&["--format", "html", "--skip", "semantic"]);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
}

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

/// A range commit by commit: three commits after the base, oldest first, each against
/// its parent: the first changes `f`, the second only a README (no C change), the third
/// adds `g`; the range as one change would show both, and the exit code says a change.
#[test]
fn a_range_commit_by_commit() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path();
    let commit = |file: &str, text: &str, message: &str| {
        std::fs::write(p.join(file), text).expect("write");
        git(p, &["add", "-A"]);
        git(p, &["commit", "-q", "-m", message]);
    };
    git(p, &["init", "-q"]);
    commit("a.c", "int f(int x) { return x + 1; }\n", "base");
    commit("a.c", "int f(int x) { return x + 2; }\n", "change f");
    commit("README", "words\n", "document");
    commit(
        "a.c",
        "int f(int x) { return x + 2; }\nint g(void) { return 0; }\n",
        "add g",
    );
    let run = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .args(["diff", "HEAD~3..HEAD", "--each-commit", "--only", "changes"])
            .args(extra)
            .current_dir(p)
            .output()
            .expect("ripple runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, json) = run(&["--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let commits = json["commits"].as_array().expect("commits");
    let subjects: Vec<&str> = commits
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, vec!["change f", "document", "add g"]);
    let changed = |c: &serde_json::Value| -> Vec<String> {
        c["report"]["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {}",
                    f["status"].as_str().unwrap(),
                    f["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(changed(&commits[0]), vec!["modified f"]);
    assert!(changed(&commits[1]).is_empty());
    assert_eq!(changed(&commits[2]), vec!["added g"]);
    let (_, text) = run(&[]);
    assert!(
        text.contains("document\nno change to the analysed program after preprocessing"),
        "{text}"
    );
    let (_, md) = run(&["--format", "markdown"]);
    assert_eq!(
        md.matches("\n## ").count() + usize::from(md.starts_with("## ")),
        3,
        "{md}"
    );
    // Not a range: refused.
    let out = assert_cmd::Command::cargo_bin("ripple")
        .unwrap()
        .args(["diff", "HEAD~1", "--each-commit"])
        .current_dir(p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("one git range"));
}

/// Two files of different names are one file in two versions: an `assert` in a function
/// the change does not touch reports the file's name, which is no change (libyaml's
/// evaluation: every function with an assert was listed as modified).
#[test]
fn the_name_an_assert_reports_is_no_change_between_two_files() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let source = |message: &str| {
        format!(
            "#include <assert.h>\n#include <stdio.h>\n\
             static int step(int *s) {{ assert(s); return *s + 1; }}\n\
             int main(void) {{ int s = 0; printf(\"{message}\", step(&s)); return 0; }}\n"
        )
    };
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new_version.c"));
    std::fs::write(&old, source("%d\\n")).expect("write");
    std::fs::write(&new, source("%d steps\\n")).expect("write");
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args([
            "diff",
            "--no-config",
            "--no-cache",
            "--only",
            "changes",
            "--format",
            "json",
        ])
        .arg(&old)
        .arg(&new)
        .output()
        .expect("ripple runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let changed: Vec<&str> = json["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(changed, vec!["main"], "{json}");
}

/// Commits `text` as `a.c` of the repository `p` (with whatever else changed there).
fn commit_a(p: &Path, text: &str, message: &str) {
    std::fs::write(p.join("a.c"), text).expect("write");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-q", "-m", message]);
}

/// In a tree of two programs, which one a range analyses is said once while it stays
/// the same, not at every commit; so is the compilation database the tree holds.
#[test]
fn the_programs_of_a_tree_are_named_once_per_range() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path();
    let commit = |text: &str, message: &str| commit_a(p, text, message);
    git(p, &["init", "-q"]);
    std::fs::write(p.join("b.c"), "int main(void) { return 0; }\n").expect("write");
    // A compilation database the tree holds: found in every version, said once.
    let entries: Vec<serde_json::Value> = ["a.c", "b.c"]
        .iter()
        .map(|f| serde_json::json!({"directory": p, "file": f, "command": format!("cc -c {f}")}))
        .collect();
    std::fs::write(
        p.join("compile_commands.json"),
        serde_json::Value::Array(entries).to_string(),
    )
    .expect("write");
    commit("int main(void) { return 1; }\n", "base");
    commit("int main(void) { return 2; }\n", "two");
    commit("int main(void) { return 3; }\n", "three");
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(["diff", "HEAD~2..HEAD", "--each-commit", "--only", "changes"])
        .args(["--no-config", "--no-cache"])
        .current_dir(p)
        .output()
        .expect("ripple runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.matches("2 programs in this tree").count(), 1, "{said}");
    assert_eq!(said.matches("preprocessor flags from").count(), 1, "{said}");
    assert!(said.contains("analysing a.c"), "{said}");
}

/// A commit's report in a range is the report of that commit alone, and a section of a
/// report is the section alone (`--only`): what one analysis leaves behind (the
/// solver's state, its caches) does not steer the next.
#[test]
fn a_commit_of_a_range_is_reported_as_on_its_own() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path();
    let commit = |text: &str, message: &str| commit_a(p, text, message);
    git(p, &["init", "-q"]);
    let program = |a: &str, b: &str| {
        format!(
            "int f(int x) {{ if (x > 3) return x * {a}; return x - 1; }}\n\
             int g(int y) {{ int s = 0; for (int i = 0; i < y && i < 8; i++) s += f(i) {b}; return s; }}\n\
             int main(int argc, char **argv) {{ (void)argv; return g(argc) + f(argc); }}\n"
        )
    };
    commit(&program("2", ""), "base");
    commit(&program("3", ""), "change f");
    commit(&program("3", "+ 1"), "change g");
    let run = |range: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .arg("diff")
            .args(range)
            .args(["--format", "json", "--no-cache", "--cutoff", "300"])
            .current_dir(p)
            .output()
            .expect("ripple runs");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON")
    };
    let range = run(&["HEAD~2..HEAD", "--each-commit"]);
    let commits = range["commits"].as_array().expect("commits");
    assert_eq!(commits.len(), 2);
    for (i, parent) in ["HEAD~2", "HEAD~1"].iter().enumerate() {
        let child = format!("HEAD~{}", 1 - i);
        let alone = run(&[parent, &child]);
        let mut in_range = commits[i]["report"].clone();
        // The labels name the revisions as given.
        for (field, value) in [("old", &alone["old"]), ("new", &alone["new"])] {
            in_range[field] = value.clone();
        }
        assert_eq!(in_range["semantic"], alone["semantic"], "commit {child}");
        assert_eq!(in_range["impact"]["summary"], alone["impact"]["summary"]);
        for section in ["semantic", "invariants"] {
            let only = run(&[parent, &child, "--only", section]);
            assert_eq!(only[section], alone[section], "commit {child}, {section}");
        }
    }
}

/// `--jobs N` sets the threads; the report is the same whatever N. `--jobs 0` is refused.
#[test]
fn the_report_does_not_depend_on_the_number_of_threads() {
    let one = fig1(&["--jobs", "1", "--format", "json"]);
    let three = fig1(&["--jobs", "3", "--format", "json"]);
    assert_eq!(one.0, 1);
    assert_eq!(one, three);
    let (code, _) = fig1(&["--jobs", "0"]);
    assert_eq!(code, 2);
}

/// Progress: on a terminal (here a pseudo-terminal made by `script`), a spinner names the
/// stage on stderr; with stderr piped (CI logs) nothing is drawn. The report on stdout is
/// the same either way.
#[test]
fn progress_shows_on_a_terminal_only() {
    let bin = assert_cmd::cargo::cargo_bin("ripple");
    let args = format!(
        "{} diff {} {} --cutoff 300",
        bin.display(),
        example("dcia-fig1", "old.c").display(),
        example("dcia-fig1", "new.c").display()
    );
    let piped = assert_cmd::Command::new(&bin)
        .args(args.split(' ').skip(1))
        .output()
        .expect("ripple runs");
    assert!(
        piped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    // stdout and stderr both go to the pseudo-terminal, whose text `script` prints.
    let tty = std::process::Command::new("script")
        .args(["-qec", &args, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    let seen = String::from_utf8_lossy(&tty.stdout);
    // The spinner's first stage (only the spinner says it).
    assert!(seen.contains("reading both versions"), "{seen}");
    // The report too, coloured on a terminal (`--color auto`).
    assert!(
        seen.contains("locale_ok: \x1b[32mequivalent\x1b[0m"),
        "the report too: {seen}"
    );
}

/// `:index` names what is staged: `ripple diff HEAD :index` is what `git commit` would
/// record, `ripple diff :index` what is not staged yet (as `git diff --cached` and
/// `git diff`).
#[test]
fn the_index_is_a_version() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path();
    git(p, &["init", "-q"]);
    let write = |text: &str| std::fs::write(p.join("a.c"), text).expect("write");
    write("int f(int x) { return x + 1; }\n");
    git(p, &["add", "a.c"]);
    git(p, &["commit", "-q", "-m", "base"]);
    let code = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("ripple")
            .unwrap()
            .arg("diff")
            .args(args)
            .args(["--only", "changes"])
            .current_dir(p)
            .output()
            .unwrap()
            .status
            .code()
    };
    // Staged and in the working tree alike.
    write("int f(int x) { return x + 2; }\n");
    git(p, &["add", "a.c"]);
    assert_eq!(code(&["HEAD", ":index"]), Some(1));
    assert_eq!(code(&[":index"]), Some(0));
    // Staged back to HEAD's text, changed in the working tree only.
    write("int f(int x) { return x + 1; }\n");
    git(p, &["add", "a.c"]);
    write("int f(int x) { return x + 5; }\n");
    assert_eq!(code(&["HEAD", ":index"]), Some(0));
    assert_eq!(code(&[":index"]), Some(1));
}

/// The refactorings of `tests/impact/refactorings` (000 Fig. 5-7; gcc: both versions
/// print the same four lines). The statement-level proofs cover `area` and `classify`
/// but not `sum_to`, whose while loop became a for loop (`ripple impact` alone impacts
/// main's printf of its result). The semantic section proves `sum_to` equivalent as a
/// whole (the loops by induction), and the impact section of the same report uses that
/// proof: nothing outside sum_to is impacted, and the report does not say "equivalent"
/// in one section while listing the function's callers as impacted in another.
#[test]
fn the_impact_uses_what_the_semantic_verdicts_proved() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/impact/refactorings");
    let (code, json) = diff(
        &dir.join("old"),
        &dir.join("new"),
        &["--format", "json", "--only", "semantic,impact"],
    );
    assert_eq!(code, 1, "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let verdict = |name: &str| {
        json["semantic"]["functions"]
            .as_array()
            .expect("verdicts")
            .iter()
            .find(|f| f["name"] == name)
            .map(|f| f["verdict"].as_str().unwrap_or("").to_string())
    };
    assert_eq!(verdict("sum_to").as_deref(), Some("equivalent"), "{json:#}");
    let impacted: Vec<&str> = json["impact"]["summary"]["impacted_functions"]
        .as_array()
        .expect("impacted functions")
        .iter()
        .map(|f| f.as_str().unwrap_or(""))
        .collect();
    assert_eq!(impacted, ["sum_to"], "{json:#}");
    let whole: Vec<&str> = json["impact"]["equivalences"]
        .as_array()
        .expect("equivalences")
        .iter()
        .filter(|e| e["what"] == "function")
        .map(|e| e["function"].as_str().unwrap_or(""))
        .collect();
    assert!(whole.contains(&"sum_to"), "{json:#}");
}

/// A report read back from the cache needs no lowering of the versions, and says what
/// reading them said: the same errors and warnings on stderr (here an unreadable
/// expression, an error, and a call of an undeclared function, a warning) and the
/// same exit code as the run that analysed them.
#[test]
fn a_report_read_back_says_what_reading_the_versions_said() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("cache.redb");
    let old = dir.path().join("old.c");
    let new = dir.path().join("new.c");
    std::fs::write(
        &old,
        "int f(int x) { return x + 1; }\nint main(void) { return f(2); }\n",
    )
    .expect("old.c");
    std::fs::write(
        &new,
        "int f(int x) { return x + 2 +; }\nint main(void) { return f(2) + h(1); }\n",
    )
    .expect("new.c");
    let run = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the binary")
            .arg("diff")
            .arg(&old)
            .arg(&new)
            .args(["--no-config", "--cache"])
            .arg(&db)
            .args(extra)
            .current_dir(dir.path())
            .output()
            .expect("ripple runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    for verbose in [false, true] {
        let extra: &[&str] = if verbose { &["--verbose"] } else { &[] };
        let (code, stdout, stderr) = run(extra);
        let (code_again, stdout_again, stderr_again) = run(extra);
        assert!(
            stderr.contains("new.c:1:") && stderr.contains("error"),
            "{stderr}"
        );
        assert_eq!(code_again, code);
        assert_eq!(stdout_again, stdout);
        if verbose {
            // The warning is listed, and the second run says where its report came from.
            assert!(stderr.contains("warning"), "{stderr}");
            assert!(stderr_again.contains("read from"), "{stderr_again}");
            let said: Vec<&str> = stderr.lines().filter(|l| l.contains(".c:")).collect();
            let said_again: Vec<&str> =
                stderr_again.lines().filter(|l| l.contains(".c:")).collect();
            assert_eq!(said_again, said);
        } else {
            assert_eq!(stderr_again, stderr);
        }
    }
}

/// The report cache (`--cache FILE`): a second run from the same sources and options
/// reads the report back (`--verbose` says so) and prints what a run without the cache
/// prints, in every format; an edit that leaves the preprocessed code as it was (a
/// comment) still reads it back; an edit of the code, or another budget, analyses
/// again; `--no-cache` neither reads nor writes, and `ripple.toml`'s `[cache] path`
/// places the file.
#[test]
fn a_report_computed_before_is_read_back_from_the_cache() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("cache.redb");
    let old = example("dcia-fig1", "old.c");
    let new = dir.path().join("new.c");
    let original = std::fs::read_to_string(example("dcia-fig1", "new.c")).expect("new.c");
    std::fs::write(&new, &original).expect("a copy of new.c");
    let run = |cache: Option<&Path>, extra: &[&str]| -> (String, String) {
        let mut command = assert_cmd::Command::cargo_bin("ripple").expect("the binary");
        command
            .arg("diff")
            .arg(&old)
            .arg(&new)
            .args(["--cutoff", "300", "--no-config"])
            .args(extra);
        match cache {
            Some(path) => command.arg("--cache").arg(path),
            None => command.arg("--no-cache"),
        };
        let out = command.output().expect("ripple runs");
        (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let read_back = |stderr: &str| stderr.contains("read from");
    for format in ["text", "json", "markdown", "sarif", "html"] {
        let (fresh, _) = run(None, &["--format", format]);
        // Every format renders the report the text run stored (HTML and SARIF a part
        // of it). (A run that analyses shows its time with `--verbose`: only what is
        // read back is compared.)
        let (first, said) = run(Some(&db), &["--format", format, "--verbose"]);
        let stored_before = format != "text";
        assert_eq!(read_back(&said), stored_before, "{format}: {said}");
        if stored_before {
            assert_eq!(first, fresh, "{format}");
        }
        let (second, said) = run(Some(&db), &["--format", format, "--verbose"]);
        assert!(read_back(&said), "{format}: {said}");
        assert_eq!(second, fresh, "{format}");
    }
    // HTML alone stores its own part, which serves it again.
    let html_only = dir.path().join("html.redb");
    let (first, _) = run(Some(&html_only), &["--format", "html"]);
    let (second, said) = run(Some(&html_only), &["--format", "html", "--verbose"]);
    assert!(read_back(&said), "{said}");
    assert_eq!(first, second);
    // A comment at the end: the same preprocessed code.
    std::fs::write(&new, format!("{original}/* reviewed */\n")).expect("edit");
    let (_, said) = run(Some(&db), &["--verbose"]);
    assert!(read_back(&said), "{said}");
    // Another budget, then another constant: analysed again.
    let (_, said) = run(Some(&db), &["--budget", "4", "--verbose"]);
    assert!(!read_back(&said), "{said}");
    std::fs::write(
        &new,
        original.replace("line_delim='\\0'", "line_delim='\\t'"),
    )
    .expect("edit");
    let (changed, said) = run(Some(&db), &["--verbose"]);
    assert!(!read_back(&said), "{said}");
    assert!(changed.contains("print_product_info"), "{changed}");
    // --no-cache writes nothing.
    let unused = dir.path().join("unused.redb");
    run(None, &[]);
    assert!(!unused.exists());
    // The configuration file names the cache.
    let config = dir.path().join("ripple.toml");
    std::fs::write(&config, "[cache]\npath = \"from-config.redb\"\n").expect("ripple.toml");
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the binary")
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .args(["--only", "changes", "--config"])
        .arg(&config)
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.path().join("from-config.redb").exists());
}

/// A function the semantic section proves equivalent as a whole is no change for the
/// function-level section either: `a - b` as `a + (-b)` (wrapping arithmetic) leaves
/// `g` and `main`, which run after it, as they were; the sections agree.
#[test]
fn a_function_proved_equivalent_impacts_no_function() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "int f(int a, int b) {{\n    return {body};\n}}\n\
                 int g(int a) {{ return f(a, 1) * 2; }}\nint main(void) {{ return g(3); }}\n"
            ),
        )
        .unwrap();
        path
    };
    let (old, new) = (write("old.c", "a - b"), write("new.c", "a + (-b)"));
    let (_, json) = diff(&old, &new, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["semantic"]["functions"][0]["verdict"], "equivalent");
    assert_eq!(json["function_impact"]["summary"]["impacted"], 0, "{json}");
    // A change that is not equivalent still impacts the functions after it.
    let other = write("other.c", "a + b");
    let (_, json) = diff(&old, &other, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(
        json["function_impact"]["summary"]["impacted"].as_u64() >= Some(2),
        "{json}"
    );
}

/// A modified function whose change the text overstates says what kind it is: `f`'s
/// `assert` moved down a line, so only the `__LINE__` it reports differs; `g` gained
/// braces and lowers to the same code; `h` really changed.
#[test]
fn a_change_of_line_numbers_or_of_text_only_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let old = "#include <assert.h>\nint f(int x) {\n    assert(x > 0);\n    return x;\n}\n\
               int g(int x) {\n    if (x)\n        x++;\n    return x;\n}\n\
               int h(int x) { return x + 1; }\n\
               void report(int, int);\n\
               int k(int x) {\n    report(x,\n           __LINE__);\n    return x;\n}\n";
    let new =
        "#include <assert.h>\n/* moved */\nint f(int x) {\n    assert(x > 0);\n    return x;\n}\n\
               int g(int x) {\n    if (x) {\n        x++;\n    }\n    return x;\n}\n\
               int h(int x) { return x + 2; }\n\
               void report(int, int);\n\
               int k(int x) {\n    report(x,\n           __LINE__);\n    return x;\n}\n";
    // One file name in two trees: `assert` reports the file's name too.
    for (version, text) in [("old", old), ("new", new)] {
        std::fs::create_dir(dir.path().join(version)).unwrap();
        std::fs::write(dir.path().join(version).join("m.c"), text).unwrap();
    }
    let (_, json) = diff(
        &dir.path().join("old"),
        &dir.path().join("new"),
        &["--only", "changes", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let only = |name: &str| {
        json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .map(|f| f["only"].clone())
            .unwrap_or_else(|| panic!("{name} is not listed: {json}"))
    };
    assert_eq!(only("f"), "line numbers", "{json}");
    assert_eq!(only("g"), "same code", "{json}");
    assert!(only("h").is_null(), "{json}");
    // `__LINE__` on the second line of a statement spanning two: the same line of the
    // moved statement.
    assert_eq!(only("k"), "line numbers", "{json}");
    // The text lists the real change and folds the others into a line each.
    let (_, text) = diff(
        &dir.path().join("old"),
        &dir.path().join("new"),
        &["--only", "changes"],
    );
    assert!(text.starts_with("modified  h "), "{text}");
    assert!(!text.contains("modified  f "), "{text}");
    assert!(
        text.contains("2 function(s) changed only in the line numbers they report (__LINE__, as in assert: the code moved): f, k\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "1 function(s) changed only in their text (the same code after lowering): g\n"
        ),
        "{text}"
    );
    let (_, all) = diff(
        &dir.path().join("old"),
        &dir.path().join("new"),
        &["--only", "changes", "--all"],
    );
    assert!(all.contains("modified  f "), "{all}");
}

/// The pull-request comment shows no "possible difference" on an input both compiled
/// versions run alike (the solver's difference goes through inline assembly, an unknown
/// of each version's own): the row gives the note instead.
#[test]
fn markdown_shows_no_refuted_witness() {
    let (_, md) = diff(
        &example_pair("inline_asm_commuted", "old.c"),
        &example_pair("inline_asm_commuted", "new.c"),
        &["--format", "markdown"],
    );
    let row = md
        .lines()
        .find(|l| l.starts_with("| `f` |"))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(!row.contains("witness on"), "{row}");
    assert!(row.contains("no run confirmed it"), "{row}");
}

fn example_pair(name: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/semdiff")
        .join(name)
        .join(file)
}

/// Writes `files` (path, text) under `root`.
fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

/// Two programs, `main.c` and `tool.c`, sharing `a.c`.
const TWO_PROGRAMS: [(&str, &str); 3] = [
    ("a.c", "int use_a(void) { return 1; }\n"),
    (
        "main.c",
        "int use_a(void);\nint main(void) { return use_a(); }\n",
    ),
    (
        "tool.c",
        "int use_a(void);\nint main(void) { return use_a() + 1; }\n",
    ),
];

/// A tree of two programs (`main.c`, `tool.c`, both linking `a.c`) and `entropy.c`,
/// which no program calls; `write_random` in it changes (the inverted result of
/// `getentropy`). No program links the file, but its change is a change: it is
/// analysed with the program ripple picks, which exits 1, and `--program library`
/// analyses the files without `main`.
#[test]
fn a_changed_file_no_program_links_is_analysed() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let common = TWO_PROGRAMS;
    let entropy = |call: &str| {
        format!("int getentropy(void *buf, unsigned long len);\nint write_random(void *t, unsigned long n) {{\n  const int success = {call};\n  return success;\n}}\n")
    };
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    write_tree(&old, &common);
    write_tree(&new, &common);
    write_tree(&old, &[("entropy.c", &entropy("getentropy(t, n)"))]);
    write_tree(&new, &[("entropy.c", &entropy("(getentropy(t, n) == 0)"))]);
    let (code, out) = diff(&old, &new, &["--only", "changes", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let modified: Vec<&str> = json["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .filter(|f| f["status"] == "modified")
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(modified, ["write_random"], "{out}");
    let (code, out) = diff(&old, &new, &["--only", "changes", "--program", "library"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("modified  write_random"), "{out}");
}

/// A changed file the program analysed does not read and that cannot join it (it
/// defines `use_a`, as `a.c` does: another platform's implementation) is named in
/// every format, with the function that changed in it, and the exit code says
/// "changed" although no function of the program analysed changed.
#[test]
fn a_changed_file_left_out_is_named_and_a_change() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let common = TWO_PROGRAMS;
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    write_tree(&old, &common);
    write_tree(&new, &common);
    write_tree(&old, &[("win/a_win.c", "int use_a(void) { return 2; }\n")]);
    write_tree(&new, &[("win/a_win.c", "int use_a(void) { return 3; }\n")]);
    let (code, text) = diff(&old, &new, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.starts_with("not analysed  win/a_win.c: changed, outside the program analysed; changed function(s): use_a"),
        "{text}"
    );
    let (_, json) = diff(&old, &new, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["files_not_analysed"],
        serde_json::json!([{"file": "win/a_win.c", "functions": ["use_a"]}])
    );
    let (_, markdown) = diff(&old, &new, &["--format", "markdown"]);
    assert!(
        markdown.contains("**Not analysed:** `win/a_win.c`"),
        "{markdown}"
    );
    let (_, sarif) = diff(&old, &new, &["--format", "sarif"]);
    assert!(sarif.contains("\"ruleId\": \"RPL006\""), "{sarif}");
}

/// A fix inside `#ifdef _WIN32` (a branch this build does not take) changes nothing the
/// preprocessed program holds; it is named all the same, with its lines, and it is a
/// change (exit 1). A changed comment, or code the build compiles, is no such line; with
/// `-D_WIN32` the branch is compiled and the change is the function's.
#[test]
fn changed_lines_in_a_branch_the_build_does_not_take_are_named() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let text = |win: &str, comment: &str| {
        format!(
            "int scale(int r) {{\n  /* {comment} */\n#ifdef _WIN32\n  r = r * {win};\n#else\n  r = r + 1;\n#endif\n  return r;\n}}\nint main(void) {{ return scale(2); }}\n"
        )
    };
    write_tree(&old, &[("a.c", &text("2", "scale"))]);
    write_tree(&new, &[("a.c", &text("3", "scale it"))]);
    let (code, out) = diff(&old, &new, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("not compiled  a.c: changed line(s) in a branch of #if this build does not take, not analysed: old 4; new 4"),
        "{out}"
    );
    let (_, json) = diff(&old, &new, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["files_not_analysed"],
        serde_json::json!([{"file": "a.c", "functions": [], "old_lines": [4], "new_lines": [4]}])
    );
    let (_, markdown) = diff(&old, &new, &["--format", "markdown"]);
    assert!(markdown.contains("**Not compiled:** `a.c`"), "{markdown}");
    let (_, sarif) = diff(&old, &new, &["--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF");
    let not_compiled = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["ruleId"] == "RPL006")
        .expect("an RPL006 result");
    assert_eq!(
        not_compiled["locations"][0]["physicalLocation"]["region"]["startLine"],
        4
    );
    // Configured for Windows, the branch is compiled: `scale` changed, nothing left out.
    let (code, out) = diff(&old, &new, &["-D_WIN32", "--only", "changes"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("not compiled"), "{out}");
    assert!(out.contains("modified  scale"), "{out}");
}

/// `ripple semdiff` of the same change: no verdict covers the lines the build leaves
/// out, so it is no "every verdict equivalent" (exit 0), which a CI step would take as
/// "no behaviour changed": the lines are named first, in every format, and the exit code
/// is 3, as for a verdict left unknown.
#[test]
fn semdiff_names_changed_lines_the_build_does_not_compile() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let text = |win: &str| {
        format!(
            "int scale(int r) {{\n#ifdef _WIN32\n  r = r * {win};\n#else\n  r = r + 1;\n#endif\n  return r;\n}}\n"
        )
    };
    write_tree(&old, &[("a.c", &text("2"))]);
    write_tree(&new, &[("a.c", &text("3"))]);
    let semdiff = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .arg("semdiff")
            .arg(&old)
            .arg(&new)
            .args(extra)
            .arg("--no-cache")
            .output()
            .expect("ripple runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, out) = semdiff(&[]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.starts_with("not compiled  a.c: changed line(s) in a branch of #if this build does not take, not analysed: old 3; new 3"),
        "{out}"
    );
    let (_, json) = semdiff(&["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["not_analysed"],
        serde_json::json!([{"file": "a.c", "functions": [], "old_lines": [3], "new_lines": [3]}])
    );
    let (_, markdown) = semdiff(&["--format", "markdown"]);
    assert!(
        markdown.contains("> **Warning:** not compiled  a.c"),
        "{markdown}"
    );
    let (_, sarif) = semdiff(&["--format", "sarif"]);
    assert!(sarif.contains("\"ruleId\": \"RPL006\""), "{sarif}");
    // Configured for Windows, `scale` multiplies by 3 instead of 2: a difference.
    let (code, out) = semdiff(&["-D_WIN32"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("not compiled"), "{out}");
    assert!(out.contains("scale: different"), "{out}");
}

/// parson 1314bf8 reduced: the helper `append_string(char *, const char *)` is removed
/// (its caller writes the bytes itself) and an unrelated `custom_func(double, char *)`
/// added; their bodies look alike (`sprintf` into a buffer that may be null), but a
/// rename keeps what its calls pass, so they are a removal and an addition.
#[test]
fn a_function_of_other_parameters_is_no_rename() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&old, OLD_HELPER).unwrap();
    std::fs::write(&new, NEW_HELPER).unwrap();
    let (code, out) = diff(&old, &new, &["--only", "changes"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("renamed  "), "{out}");
    assert!(out.contains("removed   append_string"), "{out}");
    assert!(out.contains("added     custom_func"), "{out}");
}

const OLD_HELPER: &str = "#include <stdio.h>\n#include <string.h>\nstatic int append_string(char *buf, const char *string) {\n    if (buf == NULL) {\n        return (int)strlen(string);\n    }\n    return sprintf(buf, \"%s\", string);\n}\nint lib_write(char *buf) {\n    return append_string(buf, \"[]\");\n}\n";
const NEW_HELPER: &str = "#include <stdio.h>\n#include <string.h>\nint lib_write(char *buf) {\n    if (buf == NULL) {\n        return 2;\n    }\n    memcpy(buf, \"[]\", 3);\n    return 2;\n}\nstatic int custom_func(double num, char *buf) {\n    char num_buf[32];\n    if (buf == NULL)\n        buf = num_buf;\n    return sprintf(buf, \"%.1f\", num);\n}\nint use_custom(double d) { return custom_func(d, NULL); }\n";

/// A header's tentative definition becoming a declaration (`const char *NOINIT;` to
/// `extern const char *NOINIT;`, sds fb46314) changes none of the code: the object is
/// the one `lib.c` defines either way. It is a change of what a build sees all the
/// same (with several units including the header, gcc 10's `-fno-common` rejects the
/// old version: `multiple definition of NOINIT`), so it is named, with its line, and
/// the exit code says "changed". A changed comment there is no change.
#[test]
fn a_declaration_changed_without_the_code_is_named() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let header = |decl: &str, comment: &str| {
        format!("/* {comment} */\n{decl}\nint lib_len(const char *s);\n")
    };
    let common = [
        (
            "lib.c",
            "#include \"lib.h\"\nconst char *NOINIT = \"NOINIT\";\nint lib_len(const char *s) {\n  int n = 0;\n  if (s == NOINIT) return -1;\n  while (s[n]) n++;\n  return n;\n}\n",
        ),
        (
            "main.c",
            "#include \"lib.h\"\nint main(int argc, char **argv) {\n  (void)argv;\n  return lib_len(argc > 1 ? NOINIT : \"ab\");\n}\n",
        ),
    ];
    write_tree(&old, &common);
    write_tree(&new, &common);
    write_tree(&old, &[("lib.h", &header("const char *NOINIT;", "lib"))]);
    write_tree(
        &new,
        &[("lib.h", &header("extern const char *NOINIT;", "lib"))],
    );
    let (code, out) = diff(&old, &new, &["--only", "changes"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("declarations changed, not the code: lib.h (old 2; new 2)"),
        "{out}"
    );
    let (_, json) = diff(&old, &new, &["--only", "changes", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        json["declarations_changed"],
        serde_json::json!([{"file": "lib.h", "old_lines": [2], "new_lines": [2]}])
    );
    let (_, markdown) = diff(&old, &new, &["--format", "markdown"]);
    assert!(
        markdown.contains("**Declarations changed, not the code:** `lib.h` (lines old 2; new 2)"),
        "{markdown}"
    );
    // Only the comment: no change.
    write_tree(
        &new,
        &[("lib.h", &header("const char *NOINIT;", "the library"))],
    );
    let (code, out) = diff(&old, &new, &["--only", "changes"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("declarations changed"), "{out}");
}

/// Functions changed only in the line numbers they report (a line inserted above
/// them) impact what runs after them all the same, but the function-level section says
/// first what the one change of code reaches: `helper` (`x + 1` to `x + 2`) returns to
/// `a` and `a` to `main`, which then returns; `b`, `c` and `log_at` run before `a`
/// calls `helper` or not after it, so only the line-number changes of `a` and `b` reach
/// them. The list names the changes of code first.
#[test]
fn the_functions_a_change_of_code_reaches_are_told_apart_from_line_numbers() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let program = "#include <stdio.h>\n\
        static void log_at(int line) { printf(\"at %d\\n\", line); }\n\
        int helper(int x) { return x + 1; }\n\
        int a(int x) { log_at(__LINE__); return helper(x); }\n\
        int b(int x) { log_at(__LINE__); return x * 2; }\n\
        int c(int x) { return x - 1; }\n\
        int main(void) { int r = b(2); r += c(3); return r + a(1); }\n";
    write_tree(&old, &[("p.c", program)]);
    write_tree(
        &new,
        &[("p.c", &format!("\n{}", program.replace("x + 1", "x + 2")))],
    );
    let (code, text) = diff(&old, &new, &["--only", "functions"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("6 function(s) impacted by 3 changed")
            && text.contains("by the 1 changed in their code (not only in line numbers, record layouts or text): 3 function(s), listed below"),
        "{text}"
    );
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("  by ") && l.contains(" by "))
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(listed, ["a", "helper", "main"], "{text}");
    assert!(text.contains("by helper, a, b"), "{text}");
    let (_, json) = diff(&old, &new, &["--only", "functions", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let only: Vec<(String, serde_json::Value)> = json["function_impact"]["changed_functions"]
        .as_array()
        .expect("changed functions")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_string(),
                c["only"].clone(),
            )
        })
        .collect();
    assert_eq!(
        only,
        [
            ("a".to_string(), serde_json::json!("line numbers")),
            ("b".to_string(), serde_json::json!("line numbers")),
            ("helper".to_string(), serde_json::Value::Null)
        ]
    );
}

/// A changed file the build does not compile (no unit of the compilation database) is
/// a change the report names, read from the cache or not: a report stored while the
/// trees were the same is not read back once that file changed.
#[test]
fn a_report_is_not_read_back_once_a_file_left_out_changed() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("cache.redb");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    for root in [&old, &new] {
        let database = format!(
            "[{{\"directory\": \"{}\", \"command\": \"cc -c main.c -o main.o\", \"file\": \"main.c\"}}]",
            root.display()
        );
        write_tree(
            root,
            &[
                ("main.c", "int main(void) { return 0; }\n"),
                ("other.c", "int other(int y) { return y; }\n"),
                ("compile_commands.json", &database),
            ],
        );
    }
    let run = || {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the binary")
            .arg("diff")
            .arg(&old)
            .arg(&new)
            .args(["--no-config", "--cache"])
            .arg(&db)
            .current_dir(dir.path())
            .output()
            .expect("ripple runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, text) = run();
    assert_eq!(code, Some(0), "{text}");
    write_tree(&new, &[("other.c", "int other(int y) { return y + 1; }\n")]);
    let (code, text) = run();
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.starts_with("not analysed  other.c: changed, outside the program analysed"),
        "{text}"
    );
}

/// A program the change adds (a new test with a `main` of its own, json-c 5320cf9) is
/// compared with the files of it the old version has, not with another program of the
/// old tree: its `main` is added, and the old tree's tool, unchanged, is not "removed".
#[test]
fn a_program_the_change_adds_is_compared_with_its_own_files() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let common = [
        ("lib.c", "int twice(int x) { return 2 * x; }\nint thrice(int x) { return 3 * x; }\n"),
        ("tool.c", "int twice(int);\nint helper(int x) { return twice(x) + 1; }\nint main(int argc, char **argv) { (void)argv; return helper(argc); }\n"),
    ];
    write_tree(&old, &common);
    write_tree(&new, &common);
    write_tree(
        &new,
        &[(
            "test_new.c",
            "int thrice(int);\nint main(void) { return thrice(1) - 3; }\n",
        )],
    );
    let (code, text) = diff(&old, &new, &["--only", "changes"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.starts_with("added     main  (test_new.c)"), "{text}");
    assert!(
        text.contains("1 function(s) changed: 0 modified, 1 added, 0 removed, 0 renamed"),
        "{text}"
    );
}

/// Code that cannot be read is said in every format, not only on stderr: the JSON
/// counts the errors per version with the first places, the Markdown says so before
/// the changes, and the SARIF run is not successful, with an error notification.
#[test]
fn errors_reading_a_version_are_in_every_format() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&old, "int get(int k) { return k + 1; }\n").expect("old.c");
    std::fs::write(&new, "int get(int k) { return k + ; }\n").expect("new.c");
    let (code, json) = diff(&old, &new, &["--format", "json"]);
    assert_eq!(code, 2, "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["read_errors"]["old"], 0, "{json:#}");
    assert!(json["read_errors"]["new"].as_u64() >= Some(1), "{json:#}");
    assert_eq!(
        json["read_errors"]["first"],
        serde_json::json!(["new new.c:1"])
    );
    let (_, markdown) = diff(&old, &new, &["--format", "markdown"]);
    assert!(
        markdown.contains("**Read errors:** 0 error(s) reading the old version"),
        "{markdown}"
    );
    let (_, sarif) = diff(&old, &new, &["--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF");
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{invocation:#}");
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["level"],
        "error"
    );
    // Read without errors, nothing is said.
    let (_, clean) = diff(&old, &old, &["--format", "json"]);
    assert!(!clean.contains("read_errors"), "{clean}");
}

/// A cache file damaged where its database library does not check (a few bytes of a
/// page inverted) made that library panic in every later run (exit 101). The run goes
/// on without the cache, and the file is replaced.
#[test]
fn a_damaged_cache_is_replaced_without_a_panic() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("cache.redb");
    let old = example("dcia-fig1", "old.c");
    let new = example("dcia-fig1", "new.c");
    let run = || {
        let out = assert_cmd::Command::cargo_bin("ripple")
            .expect("the binary")
            .arg("diff")
            .arg(&old)
            .arg(&new)
            .args(["--only", "changes", "--no-config", "--cache"])
            .arg(&db)
            .output()
            .expect("ripple runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, fresh, _) = run();
    assert_eq!(code, Some(1), "{fresh}");
    let mut bytes = std::fs::read(&db).expect("the cache");
    for b in bytes.iter_mut().skip(4096).take(4) {
        *b = !*b;
    }
    std::fs::write(&db, &bytes).expect("the damaged cache");
    for _ in 0..2 {
        let (code, text, stderr) = run();
        assert_eq!(code, Some(1), "{text}{stderr}");
        assert_eq!(text, fresh);
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// `a[i] > 2` rewritten `a[i] >= 3` (int: the same condition). The semantic budget
/// (made tiny here) left the pair "unknown" while the impact section of the same report
/// proved the changed statement to do what the old one did: one report said both. The
/// proof now settles the verdict.
#[test]
fn a_change_the_impact_section_proves_is_an_equivalent_verdict() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let old = "int sum(const int *a, int n)\n{\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    if (a[i] > 2)\n      s += a[i];\n  }\n  return s;\n}\n";
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(
        dir.path().join("new.c"),
        old.replace("a[i] > 2", "a[i] >= 3"),
    )
    .unwrap();
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the binary")
        .args(["diff", "--no-cache", "--no-config", "--budget", "0.01"])
        .arg(dir.path().join("old.c"))
        .arg(dir.path().join("new.c"))
        .output()
        .expect("ripple runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the change is proved equivalent"), "{text}");
    assert!(text.contains("sum: equivalent (modified)"), "{text}");
    assert!(!text.contains("sum: unknown"), "{text}");
}

/// `-I inc` inside the repository names the work tree's headers; each revision reads its
/// own (tiny-regex-c: `-I .` gave the old revision HEAD's `re.h`). Here only the header
/// changes between the commits: `LIMIT` 3, then 4, so `main` changes; read from the
/// work tree by both, it would not.
#[test]
fn an_include_directory_in_the_repository_is_each_revisions_own() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    std::fs::create_dir_all(repo.join("inc")).unwrap();
    std::fs::write(
        repo.join("main.c"),
        "#include \"lib.h\"\nint main(void) { return LIMIT; }\n",
    )
    .unwrap();
    for limit in [3, 4] {
        std::fs::write(repo.join("inc/lib.h"), format!("#define LIMIT {limit}\n")).unwrap();
        git(repo, &["add", "-A"]);
        git(repo, &["commit", "-q", "-m", &format!("limit {limit}")]);
    }
    let out = assert_cmd::Command::cargo_bin("ripple")
        .unwrap()
        .args([
            "diff",
            "HEAD~1",
            "HEAD",
            "--no-cache",
            "--only",
            "changes",
            "-I",
            "inc",
        ])
        .current_dir(repo)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("modified  main"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Between two git revisions, the runs of a witness open the files of their own
/// revision, not the working tree's (parson's tests read `tests/*.txt`: the working
/// tree's newer data made both versions print FAIL where neither does). `show` prints
/// its line and the first line of `data.txt`; the new commit moves it two lines down and
/// changes the data, and the working tree holds other data still.
#[test]
fn witnesses_of_revisions_read_the_revisions_files() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let p = dir.path();
    let source = "#include <stdio.h>\nint show(void)\n{\n    char line[32] = \"\";\n    \
                  FILE *f = fopen(\"data.txt\", \"r\");\n    if (f) {\n        \
                  fgets(line, sizeof line, f);\n        fclose(f);\n    }\n    \
                  printf(\"%d %s\", __LINE__, line);\n    return 0;\n}\n";
    git(p, &["init", "-q"]);
    std::fs::write(p.join("data.txt"), "old data\n").expect("write");
    commit_a(p, source, "base");
    std::fs::write(p.join("data.txt"), "new data\n").expect("write");
    commit_a(p, &source.replace("{\n", "{\n\n"), "moved");
    std::fs::write(p.join("data.txt"), "work tree data\n").expect("write");
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args([
            "semdiff",
            "HEAD~1",
            "HEAD",
            "--no-cache",
            "--color",
            "never",
        ])
        .current_dir(p)
        .output()
        .expect("ripple runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("old: returned 0; stdout \"10 old data\\n\""),
        "{text}"
    );
    assert!(
        text.contains("new: returned 0; stdout \"12 new data\\n\""),
        "{text}"
    );
    assert!(!text.contains("work tree"), "{text}");
}

/// inih 498f34b's shape: `main` gains a call passing a new string literal, whose bytes
/// the unchanged `count` reads (`parse` only passes the pointer on). Such a reader is a
/// change of the function-level impact, which the changes section does not count as a
/// changed function: the count says so, not "impacted by 2 changed" under "1
/// function(s) changed".
#[test]
fn readers_of_a_changed_global_are_counted_apart_from_the_changed_functions() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let program = "static int count(const char *s) { int n = 0; while (s[n]) n++; return n; }\n\
        static int parse(const char *name) { return count(name) > 3; }\n\
        int main(void) { int r = parse(\"a.ini\");\n  return r; }\n";
    write_tree(&old, &[("p.c", program)]);
    write_tree(
        &new,
        &[(
            "p.c",
            &program.replace(
                "  return r;",
                "  r += parse(\"name_only.ini\");\n  return r;",
            ),
        )],
    );
    let (code, text) = diff(&old, &new, &["--only", "changes,functions"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("1 function(s) changed: 1 modified"), "{text}");
    assert!(
        text.contains("impacted by 2 changed (1 in their own text, 1 reading a changed global)"),
        "{text}"
    );
}
