//! `ripple invariants`: the 003 Figure 1 example (three versions) through the command
//! line, text and JSON, the versions of a git range, and bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/invariant-diffs-fig1")
}

fn ripple() -> Command {
    Command::cargo_bin("ripple").expect("the ripple binary builds")
}

/// At node 5 of 003 Figure 1 (line 24 of version 1): `x == 2` in all three versions;
/// `b == 3` (versions 1, 2) becomes `b == 4` in version 3 because of the two lines added
/// there (nodes 11 and 12, lines 24 and 26) and the shared nodes 1 and 3 (lines 20 and
/// 22); version 2 lets `a` reach 1000001 (node 7 increments it when positive).
#[test]
fn figure_one_json() {
    let dir = example();
    let out = ripple()
        .current_dir(&dir)
        .args([
            "invariants",
            "old.c",
            "new.c",
            "v3.c",
            "--at",
            "main:24",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["schema"], 1);
    let point = &json["points"][0];
    assert_eq!(point["function"], "main");
    let version_invariants: Vec<&str> = point["version_invariants"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert!(version_invariants.contains(&"x == 2"), "{point:#}");
    let churns = point["churns"].as_array().unwrap();
    let b = churns
        .iter()
        .find(|c| c["from"] == 2 && c["to"] == 3 && c["removed"][0] == "b == 3")
        .expect("churn on b");
    assert_eq!(b["added"][0], "b == 4");
    assert_eq!(
        b["lines"]["added"],
        serde_json::json!(["v3.c:24", "v3.c:26"])
    );
    assert_eq!(
        b["lines"]["shared"],
        serde_json::json!(["v3.c:20", "v3.c:22"])
    );
    let a = churns
        .iter()
        .find(|c| c["from"] == 1 && c["to"] == 2)
        .expect("churn 1-2");
    assert_eq!(a["removed"][0], "a <= 1000000");
    assert!(a["lines"]["added"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("new.c:24")));
}

#[test]
fn versions_subset_and_text() {
    // Versions 1 and 3 only: b's churn, x still a version invariant.
    let dir = example();
    let out = ripple()
        .current_dir(&dir)
        .args([
            "invariants",
            "old.c",
            "new.c",
            "v3.c",
            "--at",
            "main:24",
            "--versions",
            "1,3",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("churn 1 -> 3:"), "{text}");
    assert!(
        text.contains("- b == 3") && text.contains("+ b == 4"),
        "{text}"
    );
    assert!(
        text.contains("version invariants:") && text.contains("x == 2"),
        "{text}"
    );
}

#[test]
fn git_range_gives_one_version_per_commit() {
    let repo = tempfile::tempdir().expect("tempdir");
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .current_dir(repo.path())
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .status()
            .expect("git");
        assert!(status.success());
    };
    git(&["init", "-q"]);
    let bodies = ["return x;", "return x + 1;", "return x < 0 ? 0 : x;"];
    for (i, body) in bodies.iter().enumerate() {
        let text = format!("int f(int x) {{\n    if (x > 100) x = 100;\n    {body}\n}}\n");
        std::fs::write(repo.path().join("f.c"), text).unwrap();
        git(&["add", "f.c"]);
        git(&["commit", "-q", "-m", &format!("v{i}")]);
    }
    let out = ripple()
        .current_dir(repo.path())
        .args(["invariants", "HEAD~2..HEAD", "--format", "json"])
        .output()
        .expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    // The base and the two commits after it.
    assert_eq!(json["versions"].as_array().map(Vec::len), Some(3));
    let point = &json["points"][0];
    // The versions return x (at most 100), x + 1 (at most 101, never INT_MIN), and x
    // clamped at 0 from below: the last adds `>= 0`.
    let last = &point["invariants"][2]["invariants"];
    assert!(
        last.as_array()
            .unwrap()
            .contains(&serde_json::json!("return >= 0")),
        "{point:#}"
    );
    let churn = point["churns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["from"] == 1 && c["to"] == 2 && c["removed"][0] == "return <= 100")
        .expect("the second version may return 101");
    // `return <= 101` is not added: it held before (a churn lists what holds in one
    // version only); that x + 1 cannot be INT_MIN is new.
    let added = churn["added"].as_array().unwrap();
    assert_eq!(
        added,
        &[serde_json::json!("return >= -2147483647")],
        "{churn:#}"
    );
    assert_eq!(churn["lines"]["added"], serde_json::json!(["f.c:3"]));
}

#[test]
fn bad_input_is_an_error() {
    let dir = example();
    let out = ripple()
        .current_dir(&dir)
        .args(["invariants", "old.c", "new.c", "--at", "nosuch"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no function `nosuch`"));
    let out = ripple()
        .current_dir(&dir)
        .args(["invariants", "old.c"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let out = ripple()
        .current_dir(&dir)
        .args(["invariants", "old.c", "missing.c"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.c"));
}

/// With a step limit too small to enter `clamp`, the call is taken as an unknown effect
/// and the output says so: `return == c` still holds (c is the call's result), the
/// bounds that came from clamp's body (-5..5) are no longer claimed.
#[test]
fn calls_not_entered_are_reported() {
    let out = use_clamp_within("6", &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let point = &json["points"][0];
    let notes = point["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("calls not entered")),
        "{point:#}"
    );
    let proved = point["invariants"][0]["invariants"].as_array().unwrap();
    assert!(
        proved.contains(&serde_json::json!("return == c")),
        "{point:#}"
    );
    assert!(
        !proved.contains(&serde_json::json!("return <= 5")),
        "{point:#}"
    );
}

/// `--unroll K`: count(n) returns max(n, 0) (gcc: count(5) is 5) in both versions (`s++`
/// written `s += 1`). Unrolled twice, the loop is cut past two iterations, so the exit
/// is bounded: `return <= 2` is said, with the loop's line and the bound, in the text and
/// in the JSON (`bounded`: 2, `loops_unrolled`); without `--unroll` the loop is
/// abstracted instead and nothing is bounded.
#[test]
fn unrolled_points_are_reported_as_bounded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = "int count(int n) {\n    int s = 0;\n    for (int i = 0; i < n; i++)\n        s++;\n    return s;\n}\n";
    std::fs::write(dir.path().join("a.c"), source).expect("write");
    std::fs::write(dir.path().join("b.c"), source.replace("s++;", "s += 1;")).expect("write");
    let run = |extra: &[&str]| {
        let out = ripple()
            .current_dir(dir.path())
            .args(["invariants", "a.c", "b.c", "--all"])
            .args(extra)
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let text = run(&["--unroll", "2"]);
    assert!(
        text.contains("bounded: loops unrolled, paths cut past 2 iteration(s) of: a.c:3"),
        "{text}"
    );
    assert!(text.contains("return <= 2"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&run(&["--unroll", "2", "--format", "json"])).expect("JSON");
    let point = &json["points"][0];
    assert_eq!(point["bounded"], 2, "{json:#}");
    assert_eq!(
        point["loops_unrolled"],
        serde_json::json!(["a.c:3"]),
        "{json:#}"
    );
    let json: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).expect("JSON");
    assert_eq!(
        json["points"][0]["bounded"],
        serde_json::Value::Null,
        "{json:#}"
    );
    assert_eq!(
        json["points"][0]["loops_abstracted"],
        serde_json::json!(["a.c:3"])
    );
}

/// `strtol(s, &end, 10)` stores where the number ends into `end`: a call of it is a
/// write of memory, so `end` is not known at `digits`' exit (for "123", `digits`
/// returns 3, so `return == 0` and `end == s` would be wrong).
#[test]
fn strtol_writes_its_end_pointer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = "#include <stdlib.h>\n\
                  long digits(const char *s) {\n\
                  \x20   char *end = (char *)s;\n\
                  \x20   strtol(s, &end, 10);\n\
                  \x20   return end - s;\n\
                  }\n\
                  int main(int argc, char **argv) {\n\
                  \x20   return argc > 1 ? (int)digits(argv[1]) : 0;\n\
                  }\n";
    std::fs::write(dir.path().join("a.c"), source).expect("write");
    std::fs::write(dir.path().join("b.c"), source).expect("write");
    let out = ripple()
        .current_dir(dir.path())
        .args([
            "invariants",
            "a.c",
            "b.c",
            "--at",
            "digits",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let point = &v["points"][0];
    let all: Vec<&str> = point["version_invariants"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|i| i.as_str())
        .collect();
    assert!(!all.contains(&"return == 0"), "{point:#}");
    assert!(!all.contains(&"end == s"), "{point:#}");
}

/// The text `ripple invariants OLD NEW --all --at FUNCTION` prints, with its exit code.
fn invariants_of(old: &str, new: &str, function: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("old.c"), old).expect("write");
    std::fs::write(dir.path().join("new.c"), new).expect("write");
    let out = ripple()
        .current_dir(dir.path())
        .args(["invariants", "old.c", "new.c", "--all", "--at", function])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), text)
}

#[test]
fn a_variable_of_another_type_in_a_version_is_not_compared_across_them() {
    // `c` is unsigned char, then signed char: `c == (unsigned char)a` holds in the first
    // version only (gcc: the new h(200) has c == -56), so it is no version invariant.
    let old = "int h(int a) {\n    unsigned char c = (unsigned char)a;\n    return c;\n}\n";
    let new = "int h(int a) {\n    signed char c = (signed char)a;\n    return c;\n}\n";
    let (code, text) = invariants_of(old, new, "h");
    assert_ne!(code, Some(101), "{text}");
    let shared = text
        .lines()
        .find(|l| l.contains("version invariants:"))
        .unwrap_or("");
    assert!(!shared.contains("c =="), "{text}");
    assert!(
        text.contains("`c` names variables of different types"),
        "{text}"
    );
    // Another width: comparing them made the solver fail (a panic).
    let old = "long h(int a) {\n    long w = a & 7;\n    return w;\n}\n";
    let (code, text) = invariants_of(old, &old.replace("long w", "int w"), "h");
    assert!(matches!(code, Some(0 | 1)), "{text}");
    // `long double` is not computed as `double`: no invariant (gcc: f(1) is 1, which
    // double arithmetic would make 0).
    let old = "int f(int a) {\n    long double v = 1.0L + (long double)(a & 1) * 1e-18L;\n    \
               int r = (v > 1.0L);\n    return r;\n}\n";
    let (_, text) = invariants_of(old, old, "f");
    assert!(text.contains("long double"), "{text}");
    assert!(!text.contains("return <= 0"), "{text}");
}

#[test]
fn invariants_print_as_c_reads_them() {
    // `x == a & 255` would be `(x == a) & 255` in C.
    let source = "unsigned h(int a) {
    unsigned x = (unsigned)(a & 0xff);
    return x;
}
";
    let (_, text) = invariants_of(source, source, "h");
    assert!(text.contains("x == (a & 255)"), "{text}");
    // Conversions C would not make by itself are shown: `a >> 1` shifts the sign in
    // (gcc: for a = -2, `(int)((unsigned)a >> 1)` is 2147483647, `a >> 1` is -1),
    // `a / 3` divides as signed, `w == a` is false for a negative `a` (w is
    // 4294967294 for -2), and `a * b` multiplies as int, which wraps where long does not.
    let source = "long f(int a, int b) {
    int r = (int)((unsigned)a >> 1);
    unsigned u = (unsigned)a / 3u;
    long w = (long)(unsigned)a;
    long m = (long)a * b;
    return r + u + w + m;
}
";
    let (_, text) = invariants_of(source, source, "f");
    for shown in [
        "r == (unsigned)a >> 1",
        "u == (unsigned)a / 3",
        "w == (unsigned)a",
        "m == (long)a * b",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
    // Constants are C literals (`2` would make `x * 2` and `d / 3` other expressions
    // in a context that reads them as integers), and an offset counts bytes: `p + 4`
    // for `int *p` would be 16 bytes on.
    let source = "float g(float x, int *p, double d) {
    float y = x * 2.0f;
    int *q = p + 1;
    double e = d / 3.0 + 1e300 * 1e300;
    return y + *q + (float)e;
}
";
    let (_, text) = invariants_of(source, source, "g");
    for shown in [
        "y == x * 2.0f",
        "q == (char *)p + 4",
        "*(int *)((char *)p + 4)",
        "e == (d / 3.0) + (1e300 * 1e300)",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
}

#[test]
fn floating_point_division_keeps_its_invariants_without_its_circuit() {
    // The solver never builds the circuit of `a / 3.0` (it ran 17 s a query whatever
    // the budget): the term is one abstract value, equal to itself in both versions,
    // so the churn of the return value and the version invariant of `r` are still
    // found (gcc: f(7) is 3 then 4, i.e. (int)(7 / 3.0) + 1 and + 2).
    let old = "int f(int a) {\n    int r = (int)(a / 3.0);\n    return r + 1;\n}\n";
    let (code, text) = invariants_of(old, &old.replace("r + 1", "r + 2"), "f");
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("- return == (int)((double)a / 3.0) + 1"),
        "{text}"
    );
    assert!(
        text.contains("+ return == (int)((double)a / 3.0) + 2"),
        "{text}"
    );
    assert!(text.contains("r == (int)((double)a / 3.0)"), "{text}");
}

/// Reduced from zlib 7dd6aa7 (`gzungetc`): the new version calls `look(s)` first, whose
/// values grow too large to keep and are made unknown. Every return is -1 or `c` after
/// `if (c < 0) return -1;` in both versions (c is a parameter whose address is not
/// taken), so `return >= -1` holds in both: a version failing to show it through the
/// unknowns is no churn (before: "- return >= -1, because of lines: removed old.c:36").
#[test]
fn what_unknown_values_fail_to_show_is_no_churn() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/invariants-unknown-values");
    let out = ripple()
        .current_dir(&dir)
        .args(["invariants", "old.c", "new.c", "--at", "ungetc_", "--all"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("version 1: return >= -1"), "{text}");
    assert!(!text.contains("churn 1 -> 2"), "{text}");
    assert!(text.contains("too large to keep"), "{text}");
}

/// A point left undecided with nothing else to say is one line of the text (md4c
/// ce4636b: two blocks of notes and abstracted loops for two undecided points); `--all`
/// still shows why, version by version.
#[test]
fn undecided_points_are_one_line_unless_all() {
    let run =
        |extra: &[&str]| String::from_utf8_lossy(&use_clamp_within("1", extra).stdout).into_owned();
    let text = run(&[]);
    assert!(
        text.contains(
            "\n1 point(s) undecided, with no churn found (--all shows what was abstracted): \
             use_clamp (more than 1 propagation steps)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("note: calls not entered"), "{text}");
    let all = run(&["--all"]);
    assert!(
        all.contains("version 1: undecided (more than 1 propagation steps)"),
        "{all}"
    );
    assert!(all.contains("note: calls not entered"), "{all}");
}

/// `ripple invariants` at the exit of `use_clamp` of the fixture `calls.c` (against
/// itself) within `steps` propagation steps.
fn use_clamp_within(steps: &str, extra: &[&str]) -> std::process::Output {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../ripple-analyses/tests/invariants/sound");
    ripple()
        .current_dir(&fixtures)
        .args([
            "invariants",
            "calls.c",
            "calls.c",
            "--steps",
            steps,
            "--at",
            "use_clamp",
        ])
        .args(extra)
        .output()
        .expect("runs")
}

/// picohttpparser a875a01's shape: a function moved down by the lines added above it.
/// The point is named by its line in each version that has another, the new one a
/// review reads included (only the first version's was named).
#[test]
fn a_point_moved_by_the_change_is_named_at_its_line_in_each_version() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let old = "int in_data(int state)\n{\n    return state == 2;\n}\n";
    let new = format!(
        "/* the states */\nenum {{ START, SIZE, DATA }};\n\n{}",
        old.replace("== 2", "== DATA + 1")
    );
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), &new).unwrap();
    let run = |format: &str| {
        let out = ripple()
            .current_dir(dir.path())
            .args([
                "invariants",
                "old.c",
                "new.c",
                "--at",
                "in_data",
                "--format",
                format,
            ])
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let text = run("text");
    assert!(
        text.contains("in_data at exit (old.c:1; new.c:4 in 2)"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    assert_eq!(json["points"][0]["line"], "old.c:1", "{json:#}");
    assert_eq!(json["points"][0]["last_line"], "new.c:4", "{json:#}");
}

/// picohttpparser a875a01's shape: the result compares a member of the record a
/// parameter points to. It reads as the member (`decoder->state`), not as bytes at an
/// offset, where both versions lay the record out alike; a member the change moved stays
/// bytes (the same text would be other members in each version).
#[test]
fn a_member_read_through_a_parameter_is_named() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let old = "struct dec { long left; short count; char state; };\nint in_data(struct dec *decoder)\n{\n    return decoder->state == 2;\n}\n";
    let new = old.replace("== 2", "== 3");
    let moved = old.replace("short count; char state;", "char state; short count;");
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), &new).unwrap();
    std::fs::write(dir.path().join("moved.c"), moved.replace("== 2", "== 3")).unwrap();
    let run = |versions: [&str; 2]| {
        let out = ripple()
            .current_dir(dir.path())
            .args(["invariants", versions[0], versions[1], "--at", "in_data"])
            .output()
            .expect("runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let text = run(["old.c", "new.c"]);
    assert!(text.contains("- return == (decoder->state == 2)"), "{text}");
    assert!(text.contains("+ return == (decoder->state == 3)"), "{text}");
    let text = run(["old.c", "moved.c"]);
    assert!(!text.contains("decoder->"), "{text}");
    assert!(text.contains("(char *)decoder + 10"), "{text}");
}
