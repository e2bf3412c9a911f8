//! `ripple effects` and `ripple tests --select` through the command line: the 002
//! Fig. 13 and Fig. 4 examples with their suites, a selection fixture, and bad input.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn example(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir)
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/effects/select")
}

/// Runs ripple in `dir`; returns the exit code and the JSON it printed.
fn json(dir: &Path, args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(dir)
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), value)
}

/// The requirement of `change` whose chain goes to the lines `to`, in order.
fn chain_to<'v>(change: &'v Value, to: &[u64]) -> &'v Value {
    change["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .find(|r| {
            let at: Vec<u64> = r["chain"]
                .as_array()
                .expect("a chain")
                .iter()
                .map(|d| d["to"]["line"].as_u64().expect("a line"))
                .collect();
            at == to
        })
        .unwrap_or_else(|| panic!("no chain to {to:?}: {change:#}"))
}

fn lines(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a line"))
        .collect()
}

/// 002 Fig. 13 with its 100 inputs (suite line k is x = (k-1)/10 + 1, y = (k-1)%10 + 1):
/// ch1 reveals on y in [2, 3] (20 tests); chain q3,1 (8 => 9 -y-> 13 => 14) is covered by
/// the 72 tests with x > 2 and y >= 2 and propagated by the 16 with y in [2, 3]; its
/// static state requirement is feasible. Every chain is covered, so the exit code is 0.
#[test]
fn figure_13_suite() {
    let dir = example("change-effects-fig13");
    let (code, v) = json(
        &dir,
        &[
            "effects",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--adequacy",
            "200",
        ],
    );
    assert_eq!(code, Some(0), "{v:#}");
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    let ch1 = &changes[0];
    assert_eq!(ch1["line"], 8);
    assert_eq!(ch1["requirements"].as_array().unwrap().len(), 8);
    let q31 = chain_to(ch1, &[9, 13, 14]);
    assert_eq!(q31["chain"][1]["variable"], "y");
    assert_eq!(lines(&q31["covered_by"]).len(), 72);
    let propagated = lines(&q31["propagated_by"]);
    let expected: Vec<u64> = (3..=10)
        .flat_map(|x: u64| [2u64, 3].map(|y| (x - 1) * 10 + y))
        .collect();
    assert_eq!(propagated, expected);
    assert_eq!(q31["state"]["status"], "feasible");
    let suite = &v["suite"];
    assert_eq!(lines(&suite["revealing"]).len(), 20);
    assert_eq!(suite["not_monitored"].as_array().unwrap().len(), 0);
    // PROP-adequate suites always reveal the change (002 section 5.2).
    let prop = &v["adequacy"]["changes"][0]["criteria"][4];
    assert_eq!(prop["criterion"], "PROP");
    assert_eq!(prop["detection"], 100.0);
}

/// 002 Fig. 4: four changes; without tests, the static requirements only.
#[test]
fn figure_4_static() {
    let dir = example("change-effects-fig4");
    let (code, v) = json(
        &dir,
        &["effects", "old.c", "new.c", "--static", "--distance", "5"],
    );
    assert_eq!(code, Some(0));
    let changes = v["changes"].as_array().unwrap();
    let at: Vec<u64> = changes
        .iter()
        .map(|c| c["line"].as_u64().unwrap())
        .collect();
    assert_eq!(at, [10, 13, 18, 19]);
    assert!(v.get("suite").is_none());
    // ch2 reaches statement 7 (line 18) through `r += a` one to four times.
    let to_7 = changes[1]["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["chain"].as_array().unwrap().last().unwrap()["to"]["line"] == 18)
        .count();
    assert_eq!(to_7, 4);
}

/// Selection: only `perimeter` changed, so only its two tests are selected; one of them
/// reveals the fix (3 4: 10 becomes 14; 0 0 stays 0). Every revealing test is selected.
#[test]
fn selection_is_safe_and_small() {
    let dir = fixture();
    let (code, v) = json(
        &dir,
        &[
            "tests",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--select",
        ],
    );
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(v["tests"], 8);
    let selected: Vec<u64> = v["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["line"].as_u64().unwrap())
        .collect();
    assert_eq!(selected, [4, 5]);
    assert!(v["selected"][0]["reasons"][0]
        .as_str()
        .unwrap()
        .starts_with("runs ch1 (perimeter"));
    assert_eq!(lines(&v["revealing"]), [4]);
    assert_eq!(v["by_function"], 2);
}

/// The same selection in the interpreter only (no build) gives the same answer.
#[test]
fn selection_without_a_build() {
    let dir = fixture();
    let (_, v) = json(
        &dir,
        &[
            "tests",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--select",
            "--no-build",
        ],
    );
    assert_eq!(lines(&v["revealing"]), [4]);
    assert_eq!(v["selected"].as_array().unwrap().len(), 2);
}

/// A build command that fails falls back to the interpreter's outputs and says so.
#[test]
fn failing_build_command() {
    let dir = fixture();
    let (_, v) = json(
        &dir,
        &[
            "effects",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--build",
            "false",
        ],
    );
    let notes = v["notes"].as_array().unwrap();
    assert!(notes
        .iter()
        .any(|n| n.as_str().unwrap().contains("could not be built")));
    assert_eq!(lines(&v["suite"]["revealing"]), [4]);
}

#[test]
fn bad_input() {
    let dir = fixture();
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("ripple")
            .unwrap()
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["effects", "old.c", "new.c", "--tests", "missing.txt"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("missing.txt"), "{err}");
    let bad = tempfile::tempdir().unwrap();
    let suite = bad.path().join("suite.txt");
    std::fs::write(&suite, "area 1 2\narea 3 4 < nowhere.txt\n").unwrap();
    let (code, err) = run(&[
        "tests",
        "old.c",
        "new.c",
        "--tests",
        suite.to_str().unwrap(),
        "--select",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("suite.txt:2") && err.contains("nowhere.txt"),
        "{err}"
    );
    let (code, err) = run(&["effects", "old.c", "new.c"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--tests"), "{err}");
}

/// Recursion 30 deep through a call reading both of the caller's parameters: without
/// keeping each parameter source once, monitoring would need 2^30 of them.
#[test]
fn deep_recursion_is_monitored() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/effects/recursion");
    let (_, v) = json(
        &dir,
        &[
            "effects",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--no-build",
        ],
    );
    assert_eq!(v["suite"]["not_monitored"].as_array().unwrap().len(), 0);
    // `return k + 0` runs at the bottom of every recursion.
    assert_eq!(
        v["changes"][0]["coverage"]["run_by"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

/// SATISFYREQSDEMAND's generator on 002 Fig. 13 with a two-test suite (`1 1`, `5 5`):
/// neither has y in [2, 3], the only inputs on which ch1 changes the output, so the
/// suite reveals nothing and leaves PROP requirements. Drawn mutations of the two tests
/// find inputs that propagate the change; a kept test of two arguments (`prog X Y`
/// runs E once; other counts run all 100 inputs) reveals a difference (in the built
/// versions) exactly when its y is 2 or 3. The same seed draws the same tests.
#[test]
fn generated_tests_satisfy_what_the_suite_left() {
    let work = tempfile::tempdir().expect("temporary directory");
    let dir = work.path();
    for f in ["old.c", "new.c"] {
        std::fs::copy(example("change-effects-fig13").join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("suite.txt"), "1 1\n5 5\n").unwrap();
    let base = ["effects", "old.c", "new.c", "--tests", "suite.txt"];
    let (_, before) = json(dir, &base);
    assert_eq!(lines(&before["suite"]["revealing"]), Vec::<u64>::new());
    let prop = |v: &Value| v["changes"][0]["coverage"]["prop"]["satisfied"].as_u64();
    let mut args = base.to_vec();
    args.extend(["--generate", "200", "--write-generated", "generated.txt"]);
    let (_, after) = json(dir, &args);
    let generated = &after["suite"]["generated"];
    let kept = lines(&generated["kept"]);
    assert!(!kept.is_empty(), "{after:#}");
    assert!(prop(&after) > prop(&before), "{after:#}");
    let tests = after["suite"]["tests"].as_array().expect("tests");
    let mut revealing = 0;
    for line in &kept {
        let t = tests
            .iter()
            .find(|t| t["line"] == *line)
            .expect("a kept test is listed");
        let words: Vec<i64> = t["command"]
            .as_str()
            .expect("command")
            .split_whitespace()
            .map(|w| w.parse().expect("a number"))
            .collect();
        if let [_, y] = words[..] {
            assert_eq!(t["differs"], (y == 2 || y == 3), "{t:#}");
            revealing += usize::from(t["differs"] == true);
        }
    }
    assert!(revealing > 0, "{after:#}");
    // The kept tests, as suite lines.
    let written = std::fs::read_to_string(dir.join("generated.txt")).unwrap();
    assert_eq!(written.lines().count(), kept.len());
    // Deterministic.
    let (_, again) = json(dir, &args);
    assert_eq!(again["suite"]["generated"], *generated);
}

/// `x * 0` becomes `0 * x`: the one chain (to the printf) is covered by the suite's test,
/// and its PROP requirement is statically infeasible (both are 0 for every x), so
/// nothing is left that a drawn test could satisfy: the generator draws nothing.
#[test]
fn the_generator_stops_when_only_infeasible_requirements_are_left() {
    let work = tempfile::tempdir().expect("temporary directory");
    let dir = work.path();
    let old = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n    int x = argc > 1 ? atoi(argv[1]) : 0;\n    int y = x * 0;\n    printf(\"%d\\n\", y + 1);\n    return 0;\n}\n";
    std::fs::write(dir.join("old.c"), old).unwrap();
    std::fs::write(dir.join("new.c"), old.replace("x * 0", "0 * x")).unwrap();
    std::fs::write(dir.join("suite.txt"), "1\n").unwrap();
    let (_, v) = json(
        dir,
        &[
            "effects",
            "old.c",
            "new.c",
            "--tests",
            "suite.txt",
            "--generate",
            "50",
        ],
    );
    let requirements = v["changes"][0]["requirements"].as_array().expect("list");
    assert!(
        requirements
            .iter()
            .all(|r| r["state"]["status"] == "infeasible"),
        "{v:#}"
    );
    assert_eq!(
        v["changes"][0]["coverage"]["chain"]["satisfied"], 1,
        "{v:#}"
    );
    assert_eq!(v["suite"]["generated"]["drawn"], 0, "{v:#}");
}

/// A change whose value reaches its uses through memory the C library writes and through
/// a read narrower than the store (tests/effects/library: `a.val = x * 2` becomes
/// `x * 3`; `memcpy` copies `a` into `b`, `v = b.val`, `hi` is byte 1 of `a.val`; suite
/// line k runs x = 0, 1, 2, 3, 4, 5, 10, 100, 200, 1000).
/// Every run executes the chains' statements, so each chain not behind a branch is
/// covered by all 10 tests. A chain is propagated when the state of each statement
/// before its last differs: `a.val` differs for every x but 0 (lines 2-10), and so do
/// the bytes `memcpy` writes and `v`; byte 1 of `x * 2` and `x * 3` differs only for
/// x = 100, 200 and 1000 (200/300, 400/600, 2000/3000), so the chain into `if (hi)` is
/// propagated by lines 8-10 only. `printf("wide")` runs in the new version for those
/// three and is propagated only where the decision differs too: x = 100 (old `hi` 0).
/// The revealing tests are x = 4 and 5 (`big` in the new version only) and 100 (`wide`).
#[test]
fn effects_through_library_writes_and_narrow_reads_are_monitored() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/effects/library");
    let (code, v) = json(&dir, &["effects", "old.c", "new.c", "--tests", "suite.txt"]);
    assert_eq!(code, Some(0), "{v:#}");
    let find = |to: &[u64]| chain_to(&v["changes"][0], to);
    let all: Vec<u64> = (1..=10).collect();
    let nonzero: Vec<u64> = (2..=10).collect();
    for to in [&[17][..], &[17, 18], &[17, 18, 20], &[19]] {
        let r = find(to);
        assert_eq!(lines(&r["covered_by"]), all, "{to:?}");
        assert_eq!(lines(&r["propagated_by"]), nonzero, "{to:?}");
        // A chain that tests propagate is never said to be infeasible.
        assert_eq!(r["state"]["status"], "feasible", "{to:?}");
    }
    assert_eq!(lines(&find(&[19, 22])["propagated_by"]), [8, 9, 10]);
    let wide = find(&[19, 22, 23]);
    assert_eq!(lines(&wide["covered_by"]), [8, 9, 10]);
    assert_eq!(lines(&wide["propagated_by"]), [8]);
    assert_eq!(lines(&v["suite"]["revealing"]), [5, 6, 8]);
}

/// tests/effects/initializer: `static int base` starts at 10, then 11, and the changed
/// statement `r = x - x + base` becomes `r = base + x - x`, the same expression of
/// `base`. The versions' `base` differ from the start, so `r` and `s = r * 2` differ for
/// every input (20 against 22 printed), and every test propagates both chains: their
/// state requirements must not be infeasible. The one ending at the `printf` is feasible
/// because what a call prints is part of the state after it (nothing is live there).
#[test]
fn a_changed_initial_value_and_printed_output_count_in_state_requirements() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/effects/initializer");
    let (code, v) = json(&dir, &["effects", "old.c", "new.c", "--tests", "suite.txt"]);
    assert_eq!(code, Some(0), "{v:#}");
    let reqs = v["changes"][0]["requirements"].as_array().unwrap();
    assert_eq!(reqs.len(), 2, "{v:#}");
    for r in reqs {
        assert_eq!(lines(&r["propagated_by"]), [1, 2, 3], "{r:#}");
        assert_eq!(r["state"]["status"], "feasible", "{r:#}");
    }
    assert_eq!(lines(&v["suite"]["revealing"]), [1, 2, 3]);
}

/// Runs `ripple tests --select` on `old` and `new` (one file each) with a suite; the
/// selected tests' lines and the revealing ones.
fn select(old: &str, new: &str, suite: &str) -> (Vec<u64>, Vec<u64>, Value) {
    select_with(old, new, suite, &[])
}

/// [`select`] with `extra` options.
fn select_with(old: &str, new: &str, suite: &str, extra: &[&str]) -> (Vec<u64>, Vec<u64>, Value) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), new).unwrap();
    std::fs::write(dir.path().join("suite.txt"), suite).unwrap();
    let mut args = vec![
        "tests",
        "old.c",
        "new.c",
        "--tests",
        "suite.txt",
        "--select",
    ];
    args.extend_from_slice(extra);
    let (_, v) = json(dir.path(), &args);
    let selected = v["selected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["line"].as_u64().unwrap())
        .collect();
    (selected, lines(&v["revealing"]), v)
}

/// Every test whose compiled versions differ is selected (each case checked with gcc:
/// the revealing tests are computed from the built versions' runs).
#[test]
fn the_tests_a_change_can_reach_are_selected() {
    // A changed `exit` status: the call never returns, and it still ran (test 2 exits 1
    // in the old version, 2 in the new).
    let old = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n    \
               if (argc > 2) {\n        printf(\"too many\\n\");\n        exit(1);\n    }\n    \
               printf(\"ok\\n\");\n    return 0;\n}\n";
    let (selected, revealing, v) = select(old, &old.replace("exit(1)", "exit(2)"), "a\na b\n");
    assert_eq!((selected, revealing), (vec![2], vec![2]), "{v:#}");
    // A static local's initial value (prints 100, then 200).
    let old = "#include <stdio.h>\nstatic int next_id(void) {\n    static int id = 100;\n    \
               return id++;\n}\nint main(void) {\n    printf(\"%d\\n\", next_id());\n    return 0;\n}\n";
    let (selected, revealing, v) = select(old, &old.replace("100", "200"), "x\n");
    assert_eq!((selected, revealing), (vec![1], vec![1]), "{v:#}");
    // Parameters swapped in the definition, the body unchanged (`f(1, 2)` is 12, then 21).
    let old = "#include <stdio.h>\n#include <stdlib.h>\nstatic int f(int a, int b) { return a * 10 + b; }\n\
               int main(int argc, char **argv) {\n    int n = atoi(argv[1]);\n    \
               if (n == 1) printf(\"%d\\n\", f(1, 2));\n    printf(\"end\\n\");\n    return 0;\n}\n";
    let new = old.replace("f(int a, int b)", "f(int b, int a)");
    let (selected, revealing, v) = select(old, &new, "0\n1\n");
    assert_eq!((selected, revealing), (vec![2], vec![2]), "{v:#}");
    // A run the interpreter cannot follow as built (test 2 prints an address, which the
    // built program and the interpreter print differently) is kept, to be safe: its
    // monitoring may have missed a change. Test 1 runs `f`; test 3 runs nothing changed
    // and prints what the built program prints.
    let old = "#include <stdio.h>\n#include <stdlib.h>\nstatic int f(int x) { return x + 1; }\n\
               int main(int argc, char **argv) {\n    int n = atoi(argv[1]);\n    \
               if (n == 1) printf(\"%d\\n\", f(n));\n    \
               if (n == 2) { int local = 0; printf(\"%p\\n\", (void *)&local); }\n    \
               return 0;\n}\n";
    let (selected, _, v) = select(old, &old.replace("x + 1", "x + 2"), "1\n2\n3\n");
    assert_eq!(selected, vec![1, 2], "{v:#}");
    // A message on standard error, and a usage line printing `argv[0]`, the same in
    // both versions: test 2 differs (on stderr only), test 3 does not.
    let old = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n    \
               if (argc == 1) { printf(\"usage: %s N\\n\", argv[0]); return 2; }\n    \
               int n = atoi(argv[1]);\n    if (n < 0) fprintf(stderr, \"negative: %d\\n\", n);\n    \
               printf(\"%d\\n\", n * 2);\n    return 0;\n}\n";
    let new = old.replace("\"negative: %d\\n\"", "\"error: negative %d\\n\"");
    let (selected, revealing, v) = select(old, &new, "3\n-4\n\n");
    assert_eq!((selected, revealing), (vec![2], vec![2]), "{v:#}");
}

/// The versions' default build compiles with the flags the compilation database gives
/// (here the directory of a header): they were used to read the sources but not to
/// build them, so every run fell back to the interpreter ("cfg.h: No such file").
#[test]
fn the_default_build_takes_the_compilation_database_flags() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path();
    std::fs::create_dir_all(root.join("inc")).unwrap();
    std::fs::write(root.join("inc/cfg.h"), "#define STEP 1\n").unwrap();
    let main = "#include <stdlib.h>\n#include \"cfg.h\"\nint main(int argc, char **argv) { return argc > 1 ? atoi(argv[1]) + STEP : 0; }\n";
    for (version, text) in [
        ("old", main.to_string()),
        ("new", main.replace("+ STEP", "+ STEP + 1")),
    ] {
        std::fs::create_dir_all(root.join(version)).unwrap();
        std::fs::write(root.join(version).join("main.c"), text).unwrap();
    }
    std::fs::write(
        root.join("cc.json"),
        format!(
            "[{{\"directory\":\"{0}/old\",\"command\":\"cc -I{0}/inc -c main.c\",\"file\":\"{0}/old/main.c\"}}]",
            root.display()
        ),
    )
    .unwrap();
    std::fs::write(root.join("suite.txt"), "3\n").unwrap();
    let (_, v) = json(
        root,
        &[
            "tests",
            "old",
            "new",
            "--tests",
            "suite.txt",
            "--select",
            "--compile-commands",
            "cc.json",
        ],
    );
    let notes = v["notes"].to_string();
    assert!(!notes.contains("could not be built"), "{v:#}");
    assert_eq!(lines(&v["revealing"]), [1], "{v:#}");
}

/// A change that makes a test run forever reveals a difference: the old build prints
/// "4.35" and exits, the new one loops on that input and is killed at the timeout
/// (checked with gcc). Before, only outcomes that both ended counted.
#[test]
fn a_test_the_new_version_never_finishes_reveals_the_change() {
    let old = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n    \
               double d = argc > 1 ? atof(argv[1]) : 0;\n    printf(\"%g\\n\", d);\n    return 0;\n}\n";
    let new = old.replace("    printf", "    while (d == 4.35) { }\n    printf");
    let (_, revealing, v) = select_with(
        old,
        &new,
        "1\n4.35\n",
        &["--timeout", "1", "--steps", "100000"],
    );
    assert_eq!(revealing, [2], "{v:#}");
}

/// A change through a macro (no statement's own line changed) is named by the first
/// statement it changes: `++depth > LIMIT` on line 7, not ":0".
#[test]
fn a_macro_change_is_named_by_the_statement_it_changes() {
    let old = "#include <stdio.h>\n#define LIMIT 3\nstatic int parse(const char *s)\n{\n    \
               int depth = 0;\n    for (; *s == '['; s++)\n        if (++depth > LIMIT)\n            \
               return -1;\n    return depth;\n}\nint main(int argc, char **argv)\n{\n    \
               printf(\"%d\\n\", parse(argv[1]));\n    return 0;\n}\n";
    let (selected, _, v) = select(old, &old.replace("LIMIT 3", "LIMIT 5"), "[[[[\nx\n");
    assert_eq!(selected, vec![1], "{v:#}");
    let reasons = v["selected"][0]["reasons"].to_string();
    assert!(reasons.contains("(parse, new.c:7)"), "{reasons}");
}

/// cJSON's `print` reduced: a changed `static const` local of `print` can be observed
/// only by runs that execute a statement reading it, and the `version` test returns
/// before `print` is called (gcc builds of both versions print "1.7.19" for it). Once
/// the static's address is kept in a global pointer, any statement may read it through
/// that pointer, and every monitored test is selected again.
#[test]
fn a_changed_initial_value_selects_only_the_tests_that_read_it() {
    let old = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
               static char *print(const char *s) {\n    \
               static const size_t default_buffer_size = 256;\n    \
               char *b = malloc(default_buffer_size > strlen(s) + 1 ? default_buffer_size : strlen(s) + 1);\n    \
               strcpy(b, s);\n    return b;\n}\n\
               int main(int argc, char **argv) {\n    \
               if (argc > 1 && strcmp(argv[1], \"version\") == 0) { puts(\"1.7.19\"); return 0; }\n    \
               char *p = print(argc > 1 ? argv[1] : \"x\");\n    puts(p);\n    free(p);\n    return 0;\n}\n";
    let new = old.replace("= 256", "= 1");
    let (selected, _, v) = select(old, &new, "hello\nversion\n");
    assert_eq!(selected, [1], "{v:#}");
    assert!(v["selected"][0]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r
            .as_str()
            .unwrap()
            .contains("changed initial value of default_buffer_size")));
    // The address kept: `version` may read it through `kept` (it does not, but no
    // statement tells that).
    let escaped = |text: &str| {
        text.replace(
            "static char *print(",
            "const size_t *kept;\nstatic char *print(",
        )
        .replace(
            "strcpy(b, s);",
            "strcpy(b, s);\n    kept = &default_buffer_size;",
        )
    };
    let (selected, _, v) = select(&escaped(old), &escaped(&new), "hello\nversion\n");
    assert_eq!(selected, [1, 2], "{v:#}");
}

/// parson's `test_suite_2` reduced: `memcmp(NULL, "abc", 0)` (a lookup found nothing)
/// is undefined behaviour, at which the interpreter stops, but glibc returns 0 and the
/// built program runs on into the changed `changed` (gcc: the old version prints "1" and
/// "3", the new one "1" and "4"). The monitored run is cut short, so the test is selected
/// to be safe, as the one that reveals the difference.
#[test]
fn a_run_the_interpreter_stops_where_the_built_program_goes_on_is_selected() {
    let old = "#include <stdio.h>\n#include <string.h>\n\
               int changed(int x) { return x + 1; }\n\
               int main(int argc, char **argv) {\n    \
               const char *s = argc > 5 ? argv[1] : NULL;\n    \
               printf(\"%d\\n\", memcmp(s, \"abc\", 0) == 0);\n    \
               printf(\"%d\\n\", changed(2));\n    return 0;\n}\n";
    let new = old.replace("x + 1", "x + 2");
    let (selected, _, v) = select(old, &new, "run\n");
    assert_eq!(selected, [1], "{v:#}");
    assert!(v["selected"][0]["reasons"]
        .to_string()
        .contains("selected to be safe"));
}

/// Unity's `TEST_IGNORE` reduced: a `longjmp` stops the interpreter, so no run of the
/// test is monitored. A run is then selected to be safe only when it may execute a
/// change at all: `unused` is neither called nor address-taken, so no run reaches its
/// change; once `main` calls it, the test is selected again.
#[test]
fn an_unmonitored_run_is_selected_only_when_a_change_is_reachable() {
    let old = "#include <setjmp.h>\n#include <stdio.h>\n\
               static jmp_buf env;\n\
               int unused(int x) { return x + 1; }\n\
               static void skip(void) { longjmp(env, 1); }\n\
               int main(void) {\n    \
               if (setjmp(env) == 0) skip();\n    \
               puts(\"ignored\");\n    return 0;\n}\n";
    let new = old.replace("x + 1", "x + 2");
    let (selected, _, v) = select(old, &new, "run\n");
    assert_eq!(selected, Vec::<u64>::new(), "{v:#}");
    let called =
        |text: &str| text.replace("puts(\"ignored\");", "puts(\"ignored\");\n    unused(1);");
    let (selected, _, v) = select(&called(old), &called(&new), "run\n");
    assert_eq!(selected, [1], "{v:#}");
    assert!(v["selected"][0]["reasons"][0]
        .as_str()
        .unwrap()
        .contains("selected to be safe"));
}
