//! End-to-end impact tests of changes that are not edits of a function body: a changed
//! table (a global initializer in a header). Fixtures in `tests/impact/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixture(name: &str, version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact")
        .join(name)
        .join(version)
}

/// Runs `ripple impact` on a fixture; returns (exit code, JSON).
fn impact(name: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let (code, json, stderr) = impact_with_stderr(name, extra);
    assert!(!json.is_null(), "not JSON: {stderr}");
    (code, json)
}

/// The impacted lines of `function` as (version, line).
fn lines_in(json: &serde_json::Value, function: &str) -> BTreeSet<(String, u64)> {
    json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["function"] == function)
        .map(|l| {
            (
                l["version"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The names in `summary.impacted_functions`.
fn impacted_functions(json: &serde_json::Value) -> BTreeSet<String> {
    json["summary"]["impacted_functions"]
        .as_array()
        .expect("impacted_functions")
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

fn names(list: &serde_json::Value) -> BTreeSet<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|f| f["name"].as_str().expect("a name").to_string())
        .collect()
}

/// The functions with an equivalence in `equivalences`.
fn proved_in(json: &serde_json::Value) -> BTreeSet<String> {
    json["equivalences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["function"].as_str().unwrap().to_string())
        .collect()
}

/// The changed lines of the new version.
fn new_changed_lines(json: &serde_json::Value) -> impl Iterator<Item = u64> + '_ {
    json["changed_lines"]
        .as_array()
        .expect("changed_lines")
        .iter()
        .filter(|l| l["version"] == "new")
        .map(|l| l["line"].as_u64().unwrap())
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Only `next[]` changes (gcc: the old walk prints 3 steps, the new one 2). `follow` is
/// the only function that reads the table, so it is the one function with a changed
/// input (000 section 2.2: globals are inputs); SEA from it reaches `walk` and `main`
/// (RET: they run after `follow` returns) and `twice` (SEQ: main calls it after walk).
/// Before globals counted as changes, this printed "no changed function".
#[test]
fn a_changed_table_makes_its_readers_changed_at_function_level() {
    let (code, json) = impact("table-change", &["--level", "function"]);
    assert_eq!(code, 1, "a change is exit code 1: {json:#}");
    let changed = &json["changed_functions"];
    assert_eq!(names(changed), set(&["follow"]), "{json:#}");
    assert_eq!(changed[0]["status"], "reads");
    assert_eq!(changed[0]["reads"][0], "next");
    assert_eq!(
        names(&json["impacted_functions"]),
        set(&["follow", "walk", "main", "twice"]),
        "{json:#}"
    );
}

/// At statement level the table's line is the changed line (tab.h line 2, both
/// versions), and its reads are impacted: `return next[i]` (prog.c 9), the loop that
/// uses what follow returns (16-17, and the loop condition 15, whose number of
/// iterations changes), `return n` (19) and main's use of the count (23, 25). twice's
/// body (5) and `int doubled = twice(3)` (24) depend on nothing the table feeds.
#[test]
fn a_changed_table_is_a_changed_line_whose_reads_are_impacted() {
    let (code, json) = impact("table-change", &[]);
    assert_eq!(code, 1);
    let changed: BTreeSet<(String, String, u64)> = json["changed_lines"]
        .as_array()
        .expect("changed_lines")
        .iter()
        .map(|l| {
            (
                l["version"].as_str().unwrap().to_string(),
                l["file"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        changed.contains(&("old".into(), "tab.h".into(), 2)),
        "{changed:?}"
    );
    assert!(
        changed.contains(&("new".into(), "tab.h".into(), 2)),
        "{changed:?}"
    );
    let impacted: BTreeSet<u64> = json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == "new" && l["file"] == "prog.c")
        .map(|l| l["line"].as_u64().unwrap())
        .collect();
    for line in [9, 15, 16, 19, 23, 25] {
        assert!(impacted.contains(&line), "line {line} not in {impacted:?}");
    }
    for line in [5, 24] {
        assert!(
            !impacted.contains(&line),
            "line {line} wrongly in {impacted:?}"
        );
    }
}

/// Runs `ripple impact old.c new.c` on a fixture with single-file versions; returns the
/// impacted lines of `version` in `function`.
fn impacted_lines(name: &str, version: &str, function: &str) -> BTreeSet<u64> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact")
        .join(name);
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(dir.join("old.c"))
        .arg(dir.join("new.c"))
        .args(["--format", "json"])
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(1), "a change is exit code 1");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == version && l["function"] == function)
        .map(|l| l["line"].as_u64().unwrap())
        .collect()
}

/// `goto ret1;` (old line 10) is deleted: for negative x the new version now runs
/// `r = x * 2; r = r + 1;` (new lines 11-12), which the old one skipped (gcc: scale(-3)
/// returns 0 in the old version and -5 in the new one). Both versions report them, with
/// `return r` (old 15, new 14); before, neither did. `unrelated` (new 18) is not
/// impacted.
#[test]
fn a_deleted_goto_impacts_what_it_skipped_in_both_versions() {
    let new = impacted_lines("deleted-goto", "new", "scale");
    for line in [11, 12, 14] {
        assert!(new.contains(&line), "new line {line} not in {new:?}");
    }
    let old = impacted_lines("deleted-goto", "old", "scale");
    for line in [12, 13, 15] {
        assert!(old.contains(&line), "old line {line} not in {old:?}");
    }
    assert!(impacted_lines("deleted-goto", "new", "unrelated").is_empty());
}

/// `p->priority = prio;` (old line 11) is deleted: the new version leaves the priority
/// at 0 (gcc: main prints `1 30` in the old version, `0 30` in the new one). The read of
/// the no-longer-written field in `urgent` (new line 14) and its use in main (new 25)
/// are impacted in the new version, not only in the old one.
#[test]
fn a_deleted_assignment_impacts_the_uses_in_the_new_version() {
    assert!(impacted_lines("deleted-assignment", "new", "urgent").contains(&14));
    assert!(impacted_lines("deleted-assignment", "new", "main").contains(&25));
}

/// `g` has a syntax error: it is not dropped but read as a havoc, the run exits 2, and the
/// report's first line says the result is incomplete and why, before the impact.
#[test]
fn unreadable_code_is_said_first_and_still_reported() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/impact/unreadable");
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(dir.join("old.c"))
        .arg(dir.join("new.c"))
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("incomplete: "), "{stdout}");
    // f changed (x + 1 became x + 2): main's `return f(2) + g(3)` is impacted.
    assert!(stdout.contains("  main (distance "), "{stdout}");
}

/// `return -1;` is added after `fail("negative")` (new line 16) and `return -2;` after
/// `die(2)` (new line 20). `fail` never returns (every path ends in `exit`: inferred),
/// `die` is declared `noreturn`: neither new statement can run, so the change changes
/// nothing and nothing is impacted (gcc: both versions behave alike on every input;
/// the changed lines are still listed).
#[test]
fn a_statement_after_a_call_that_never_returns_impacts_nothing() {
    let (code, json) = impact("return-after-noreturn", &[]);
    assert_eq!(code, 1, "the text changed: {json:#}");
    assert_eq!(json["impacted_lines"], serde_json::json!([]), "{json:#}");
    let changed: Vec<u64> = new_changed_lines(&json).collect();
    assert_eq!(changed, vec![16, 20], "{json:#}");
}

/// The same change where `fail` returns unless its message is empty: `return -1;` (new
/// line 17) now runs for negative x, so the rest of `check` (`return x * 2`, line 23)
/// may run a different number of times, `check` returns -1 instead, and the call in
/// `main` and the printing of its result are impacted.
#[test]
fn a_statement_after_a_call_that_may_return_is_a_change() {
    let lines = new_impacted("return-after-may-return");
    assert!(lines.contains(&("check".into(), 23)), "{lines:?}");
    assert!(
        lines.iter().any(|(f, _)| f == "main"),
        "main uses check's result: {lines:?}"
    );
}

/// The impacted lines of the new version, by function and line.
fn new_impacted(name: &str) -> BTreeSet<(String, u64)> {
    let (_, json) = impact(name, &[]);
    json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == "new")
        .map(|l| {
            (
                l["function"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `compute(argc, 2)` becomes `compute(argc + 1, 2)` (line 18). Whether `compute`
/// returns is decided by `must(b != 0)`, which reads `b` only, and `b` is still 2: so
/// `g = 5` and its printing (lines 19-20) run exactly as before and are not impacted;
/// the value of `x` changes (`a / b`, line 13; its printing, line 21). `must` itself
/// reads nothing that changed. gcc: the old version prints 5 and 0 with no argument,
/// the new one 5 and 1.
#[test]
fn a_changed_argument_off_the_error_path_does_not_impact_what_follows_the_call() {
    let lines = new_impacted("argument-off-error-path");
    for expected in [("compute", 13), ("main", 21)] {
        assert!(
            lines.contains(&(expected.0.into(), expected.1)),
            "{lines:?}"
        );
    }
    for not in [("main", 19), ("main", 20), ("main", 22)] {
        assert!(
            !lines.contains(&(not.0.into(), not.1)),
            "{not:?} in {lines:?}"
        );
    }
    assert!(!lines.iter().any(|(f, _)| f == "must"), "{lines:?}");
}

/// The new version inserts `x` before `a`, so `a` is where `b` was (offset 4), and `pick`
/// reads `p->a * 1` where it read `p->b`: the same bytes, another member. Callers set
/// members by name, so the value read differs (a caller setting `a = 1, b = 2` gets 3
/// from the old version and 2 from the new); no proof from the same bytes may call the
/// statement equivalent, and `return v + 1` (line 4) is impacted.
#[test]
fn reading_another_member_at_the_old_offset_is_no_equivalence() {
    let (code, json) = impact("relaid-member", &[]);
    assert_eq!(code, 1, "{json}");
    let lines = lines_in(&json, "pick");
    assert!(lines.contains(&("new".to_string(), 4)), "{lines:?}");
}

/// Only the line an `assert` reports (`__assert_fail(..., __LINE__, ...)`) and the status
/// `exit` is given change: both calls stop the program in both versions, on the same
/// condition, so no statement of the program runs differently (the message and the
/// status are seen only outside it). gcc: with no argument both versions print 2
/// (`get(a, 1)` is 2, `checked(0)` is 0) and exit with 0.
#[test]
fn a_moved_assert_or_another_exit_status_impacts_no_statement() {
    let (code, json) = impact("moved-assert", &[]);
    let lines = json["impacted_lines"].as_array().expect("impacted_lines");
    assert!(lines.is_empty(), "{json}");
    // Still a change: the lines are listed.
    assert_eq!(code, 1, "{json}");
    assert!(new_changed_lines(&json).any(|l| l == 14), "{json}");
}

/// `compute(argc, 2)` becomes `compute(argc, argc - 1)`: now `b` decides whether `must`
/// exits (with no argument, b is 0 and the new version exits with 1 before printing), so
/// everything after the call may not run: lines 19-22 are impacted, and so is `must`.
#[test]
fn a_changed_argument_on_the_error_path_impacts_what_follows_the_call() {
    let lines = new_impacted("argument-on-error-path");
    for expected in [("main", 19), ("main", 20), ("main", 22), ("must", 7)] {
        assert!(
            lines.contains(&(expected.0.into(), expected.1)),
            "{expected:?} not in {lines:?}"
        );
    }
}

/// At function level, `check` is modified only in statements no execution reaches: it
/// is listed as such and impacts no function (before, SEA from it reached `main`,
/// `fail` and `die`).
#[test]
fn a_function_changed_only_in_unreachable_statements_impacts_no_function() {
    let (code, json) = impact("return-after-noreturn", &["--level", "function"]);
    assert_eq!(code, 1, "{json:#}");
    let changed = &json["changed_functions"];
    assert_eq!(names(changed), set(&["check"]), "{json:#}");
    assert_eq!(changed[0]["unreachable_only"], true, "{json:#}");
    assert_eq!(
        json["impacted_functions"],
        serde_json::json!([]),
        "{json:#}"
    );
    // Where the first function may return, the change is a real one.
    let (_, json) = impact("return-after-may-return", &["--level", "function"]);
    assert!(
        json["changed_functions"][0]
            .get("unreachable_only")
            .is_none(),
        "{json:#}"
    );
    assert!(
        names(&json["impacted_functions"]).contains("main"),
        "{json:#}"
    );
}

/// `ctx.mode = argc` becomes `argc + 1` (line 11). The store writes only the global
/// `ctx`; `a`, `b` and `c` read it (lines 5-7; `c` reads another field, and fields of
/// one global are one region today), and the results of their calls (lines 13-15) come
/// from those reads, and the printing of them (lines 16-17) from the calls. So all eight
/// impacted lines of the version are reached from the change only through the region
/// `ctx`, and the report names it as where the impact spreads.
#[test]
fn the_region_an_impact_spreads_through_is_named() {
    let (_, json) = impact("hub-global-struct", &[]);
    let hubs = json["summary"]["hubs"].as_array().expect("hubs");
    let ctx = hubs
        .iter()
        .find(|h| h["version"] == "new" && h["name"] == "memory ctx")
        .unwrap_or_else(|| panic!("no ctx hub: {hubs:?}"));
    assert_eq!(ctx["lines"], 8, "{ctx}");
    assert_eq!(ctx["functions"], 4, "{ctx}");
    // A line reached only through ctx has its shortest chain through it too.
    assert!(
        ctx["chain_lines"].as_u64() >= ctx["lines"].as_u64(),
        "{ctx}"
    );
    // The text names it before the lines.
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .arg("impact")
        .arg(fixture("hub-global-struct", "old"))
        .arg(fixture("hub-global-struct", "new"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let spreads = text.find("where it spreads").expect("a hub section");
    assert!(spreads < text.find("changed lines:").unwrap(), "{text}");
    assert!(text.contains("new memory ctx: "), "{text}");
}

/// `mix` is rewritten (an extracted temporary, `y * 2` as `y + y`, `+=` with `^ 0`, an
/// argument `r - 1` as `r + -1`; gcc: both print 31, 47, 32). The solver proves the new
/// statements end in the old ones' state, with the same call, so nothing is impacted and
/// the report says so first (SEM-DCIA's statement equivalences, 000 section 4).
#[test]
fn rewrites_proved_equivalent_impact_nothing() {
    let (code, json) = impact("equivalent-rewrites", &[]);
    assert_eq!(code, 1, "the sources differ: {json:#}");
    assert_eq!(json["proved_equivalent"], true, "{json:#}");
    assert_eq!(json["summary"]["impacted_lines"], 0, "{json:#}");
    let eqs = json["equivalences"].as_array().expect("a list");
    assert_eq!(eqs.len(), 1, "{json:#}");
    assert_eq!(eqs[0]["function"], "mix");
    assert_eq!(eqs[0]["what"], "statements");
    assert_eq!(eqs[0]["old_lines"], serde_json::json!([11, 12, 13, 14]));
    assert_eq!(eqs[0]["new_lines"], serde_json::json!([11, 12, 13, 14, 15]));
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .arg("impact")
        .arg(fixture("equivalent-rewrites", "old"))
        .arg(fixture("equivalent-rewrites", "new"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("the change is proved equivalent"),
        "{text}"
    );
}

/// Look-alikes of identities that are not: `d + 0.0` turns -0.0 into +0.0 (gcc prints
/// "-0" before and "0" after), and `(a / b) * 0` traps when b is 0 where `0` does not.
/// Nothing is proved, and main's two printf lines (18, 19) are impacted in both versions.
#[test]
fn near_identities_are_not_proved_and_stay_impacted() {
    let (_, json) = impact("near-equivalent", &[]);
    assert_eq!(json["proved_equivalent"], false, "{json:#}");
    assert_eq!(json["equivalences"], serde_json::json!([]), "{json:#}");
    let lines = lines_in(&json, "main");
    for version in ["old", "new"] {
        for line in [18, 19] {
            assert!(
                lines.contains(&(version.to_string(), line)),
                "{version}:{line} not impacted: {json:#}"
            );
        }
    }
}

/// Refactorings in the style of 000 Fig. 5-7 (gcc: both versions print the same four
/// lines). `area` extracts variables and writes `2 * border` as `border + border`;
/// `classify` replaces its gotos by an if-else chain and a conditional expression by
/// branches: both are proved to leave their regions the same way in the same state, so
/// nothing is impacted through them. `sum_to`'s while loop becomes a for loop whose
/// increment moves into the header: the changed code holds the loop's back edge, and
/// loops are not compared statement by statement, so with the statement equivalences
/// alone (`--level statement`) its result stays impacted, and only main's printf of it
/// (old 42, new 41) outside it. By default the changed functions are also tried as a
/// whole, and sum_to is proved equivalent (the loops by induction): nothing outside it
/// is impacted.
#[test]
fn refactorings_impact_nothing_beyond_what_is_not_proved() {
    let (_, json) = impact("refactorings", &[]);
    assert_eq!(impacted_functions(&json), set(&["sum_to"]), "{json:#}");
    let proved = proved_in(&json);
    assert_eq!(proved, set(&["area", "classify", "sum_to"]), "{json:#}");
    assert_eq!(json["semantic"]["level"], 0, "{json:#}");

    let (_, json) = impact("refactorings", &["--level", "statement"]);
    let proved = proved_in(&json);
    assert_eq!(proved, set(&["area", "classify"]), "{json:#}");
    let functions = impacted_functions(&json);
    assert_eq!(functions, set(&["main", "sum_to"]), "{json:#}");
    let main_lines = lines_in(&json, "main");
    let expected: BTreeSet<(String, u64)> =
        [("old".to_string(), 42), ("new".to_string(), 41)].into();
    assert_eq!(main_lines, expected, "{json:#}");
}

/// With `--semantic`, `sum_to` (the while loop turned into a for loop) is proved
/// equivalent as a whole by the semantic difference engine (the loops by induction), so
/// its return value impacts nothing in main: only sum_to's own lines stay impacted.
#[test]
fn whole_functions_proved_equivalent_keep_their_impact_inside() {
    let (_, json) = impact("refactorings", &["--semantic"]);
    let functions = impacted_functions(&json);
    assert_eq!(functions, set(&["sum_to"]), "{json:#}");
    let whole: Vec<&serde_json::Value> = json["equivalences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["what"] == "function")
        .collect();
    assert_eq!(whole.len(), 1, "{json:#}");
    assert_eq!(whole[0]["function"], "sum_to");
    assert_eq!(whole[0]["proof"], "semantic difference");
}

/// `show(1)` becomes `show(mode)` and `cap(3)` becomes `cap(limit)` (gcc: `prog` prints
/// "mode 1, limit 3" in both versions, `prog x` "mode 1, limit 3" in the old one and
/// "mode 1, limit 5" in the new one). No write of `mode` can run before line 10 (the one
/// on line 14 comes after, and run is called once), so `mode` is 1 there in every run
/// and show is not impacted; `limit` may have been set to 5 on line 12, so cap's printf
/// (line 7) is.
#[test]
fn a_global_still_holding_its_initial_value_is_that_value() {
    let (_, json) = impact("known-global", &[]);
    assert!(lines_in(&json, "show").is_empty(), "{json:#}");
    let cap = lines_in(&json, "cap");
    for version in ["old", "new"] {
        assert!(cap.contains(&(version.to_string(), 7)), "{json:#}");
    }
    assert_eq!(
        json["equivalences"][0]["new_lines"],
        serde_json::json!([10])
    );
    // Plain DCIA impacts show through the new read of `mode`.
    let (_, plain) = impact("known-global", &["--dcia-only"]);
    assert!(
        lines_in(&plain, "show").contains(&("new".to_string(), 6)),
        "{plain:#}"
    );
}

/// `tag` returns `x | 3` instead of `x | 1` (gcc, run without arguments: the old version
/// prints 1 and 1, the new one 1 and 3): its result differs, but odd_flag keeps only
/// bit 0, which both set. Level 0 of the anytime
/// search tries tag (different); level 1 tries its callers and proves odd_flag
/// equivalent as a whole, so what main does with odd_flag's result (lines 9 and 10) is
/// not impacted; main's printf of tag itself (line 11) is.
#[test]
fn a_caller_that_masks_its_changed_callee_stops_the_impact_at_level_1() {
    let (_, level0) = impact("masked-by-caller", &["--level", "0"]);
    let main0 = lines_in(&level0, "main");
    for line in [9, 10, 11] {
        assert!(main0.contains(&("new".to_string(), line)), "{level0:#}");
    }
    assert_eq!(level0["semantic"]["level"], 0);
    let (_, level1) = impact("masked-by-caller", &["--level", "1"]);
    let main1 = lines_in(&level1, "main");
    assert!(main1.contains(&("new".to_string(), 11)), "{level1:#}");
    assert!(!main1.contains(&("new".to_string(), 9)), "{level1:#}");
    assert!(!main1.contains(&("new".to_string(), 10)), "{level1:#}");
    assert_eq!(level1["semantic"]["level"], 1);
    // Anytime: a higher level impacts a subset of what a lower one impacts.
    let all = |json: &serde_json::Value| -> BTreeSet<String> {
        json["impacted_lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| format!("{}:{}:{}", l["version"], l["file"], l["line"]))
            .collect()
    };
    assert!(all(&level1).is_subset(&all(&level0)));
    assert_eq!(level1["semantic"]["levels"][1]["proved"], 1);
    let functions: Vec<&str> = level1["equivalences"]
        .as_array()
        .expect("equivalences")
        .iter()
        .filter(|e| e["what"] == "function")
        .map(|e| e["function"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(functions, ["odd_flag"]);
    // `--semantic` alone goes to level 1.
    let (_, semantic) = impact("masked-by-caller", &["--semantic"]);
    assert_eq!(semantic["impacted_lines"], level1["impacted_lines"]);
}

/// `p` may point to the string literal "xy" or to `buf`, and the changed store
/// `p[0] = 'b'` writes through it. A write into a string literal is undefined (it traps
/// in read-only memory), so a defined run writes `buf`: `printf("%s", buf)` (line 13) is
/// impacted, and `first`'s read of the literal (line 6) and the `printf` of its result
/// (line 12) are not (gcc: both versions print 120; then "ab", then "bb").
#[test]
fn a_store_never_writes_a_string_literal() {
    let (_, json) = impact("write-maybe-literal", &[]);
    let expected: BTreeSet<(String, u64)> =
        [("old".to_string(), 13), ("new".to_string(), 13)].into();
    assert_eq!(lines_in(&json, "main"), expected, "{json:#}");
    assert!(lines_in(&json, "first").is_empty(), "{json:#}");
}

/// `set(2)` writes both `a` and `b`, and r1, r2, r3 read both: every reader is reached
/// through `a` and through `b`, so no line is reached through one hub only. The report
/// still names the way the shortest chains took: through `a` (written first) to the
/// three readers' returns (lines 11-13) and the `printf` of their results (line 18), 4
/// lines per version out of 7 (set's header, its two stores, the readers, the printf).
#[test]
fn where_no_hub_is_the_only_way_the_shortest_chains_name_one() {
    let (_, json) = impact("hub-two-ways", &[]);
    assert_eq!(json["summary"]["impacted_lines"], 14, "{json:#}");
    let hubs = json["summary"]["hubs"].as_array().expect("hubs");
    assert!(hubs.iter().all(|h| h["lines"] == 0), "{hubs:?}");
    let a = hubs
        .iter()
        .find(|h| h["version"] == "new" && h["name"] == "memory a")
        .unwrap_or_else(|| panic!("{hubs:?}"));
    assert_eq!(a["chain_lines"], 4, "{a}");
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .arg("impact")
        .arg(fixture("hub-two-ways", "old"))
        .arg(fixture("hub-two-ways", "new"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("none is reached through one only):\n  old memory a: 4 line(s)"),
        "{text}"
    );
}

/// `apply(f, x)` calls `f` through its pointer, and main passes it `inc`, which changed
/// (gcc: the old version prints 2, the new one 3). apply's own code is unchanged, but it
/// is not equivalent as a whole: what it returns is what inc returns. With `--semantic`
/// it must not be proved equivalent (an indirect call is the same unknown function in
/// both versions only where its target behaves the same in both), so main's printf
/// (line 13) stays impacted.
#[test]
fn a_function_calling_a_changed_one_through_a_pointer_is_not_proved_equivalent() {
    let (_, json) = impact("indirect-call", &["--semantic"]);
    let whole: Vec<&serde_json::Value> = json["equivalences"]
        .as_array()
        .expect("equivalences")
        .iter()
        .filter(|e| e["what"] == "function")
        .collect();
    assert!(whole.is_empty(), "{json:#}");
    let main = lines_in(&json, "main");
    for version in ["old", "new"] {
        assert!(main.contains(&(version.to_string(), 13)), "{json:#}");
    }
}

/// Runs `ripple impact` on a fixture with stderr; returns (exit code, JSON, stderr).
fn impact_with_stderr(name: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(fixture(name, "old"))
        .arg(fixture(name, "new"))
        .args(["--format", "json"])
        .args(extra)
        .output()
        .expect("ripple runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), json, stderr)
}

#[test]
fn a_tree_of_several_programs_is_analysed_one_program_at_a_time() {
    // `several-programs`: lib.c (scale: `x * 2` -> `x * 3`), tool.c and test_lib.c each
    // define main and call scale, all.c includes lib.c and tool.c (a unity build).
    // tool.c also changes (`scale(4)` -> `scale(5)`). Lowered together, the two mains
    // and the two copies of scale would be linked into one program.
    let (code, json, stderr) = impact_with_stderr("several-programs", &[]);
    assert_eq!(code, 1, "{stderr}");
    // By default the program holding the most changed files (lib.c and tool.c): tool.c
    // with lib.c (all.c holds them too, but a program with its own main comes first).
    assert!(
        stderr.contains("3 programs in this tree")
            && stderr.contains("analysing tool.c (the one holding the most changed files"),
        "{stderr}"
    );
    // tool.c's printf prints what scale returned: impacted, and nothing of test_lib.c.
    let files: BTreeSet<&str> = json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .map(|l| l["file"].as_str().unwrap())
        .collect();
    assert!(files.contains("tool.c"), "{files:?}");
    assert!(!files.contains("test_lib.c"), "{files:?}");
    assert!(lines_in(&json, "main").contains(&("new".to_string(), 6)));
    assert!(json["incomplete"].is_null(), "{}", json["incomplete"]);

    // Named: test_lib.c's program. Its comparison of scale's result is impacted; tool.c
    // changed but is not part of it, which the report says first.
    let (code, json, stderr) = impact_with_stderr("several-programs", &["--program", "test_lib.c"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("analysing test_lib.c (as --program says"),
        "{stderr}"
    );
    assert!(
        stderr.contains("changed file(s) outside the program analysed, not analysed: tool.c"),
        "{stderr}"
    );
    assert!(lines_in(&json, "main").contains(&("new".to_string(), 4)));
    let incomplete = json["incomplete"].as_str().expect("incomplete");
    assert!(incomplete.contains("not analysed: tool.c"), "{incomplete}");

    // A name that is no program: an error naming the programs.
    let (code, _, stderr) = impact_with_stderr("several-programs", &["--program", "nope.c"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--program nope.c: no such program in this tree; its programs are all.c, test_lib.c, tool.c"),
        "{stderr}"
    );
}

/// Code ripple cannot read is a havoc; when its text changes, it is a changed statement
/// and a source of impact like any other, writing what it may write. Each fixture is
/// reasoned in its comments; the two nested-function ones were run with gcc (argc = 1):
/// 11 then 12, and 30 then 40.
#[test]
fn changed_code_that_cannot_be_read_impacts_what_it_may_write() {
    let both = |line| BTreeSet::from([("new".to_string(), line), ("old".to_string(), line)]);
    // `r = k @ 2;` became `r = k @ 3;` (line 7): `return r` (8) and the printing of
    // `parse`'s result (13) are impacted.
    let (_, json) = impact("unreadable-changed", &[]);
    assert!(lines_in(&json, "parse").is_superset(&both(8)), "{json:#}");
    assert_eq!(lines_in(&json, "main"), both(13), "{json:#}");
    // The body of the nested function `add` changed (line 7): `apply(add, 10)` (8) and
    // its printing (13).
    let (_, json) = impact("nested-function-body", &[]);
    assert!(lines_in(&json, "scaled").is_superset(&both(8)), "{json:#}");
    assert_eq!(lines_in(&json, "main"), both(13), "{json:#}");
    // `k = k * 3;` became `k * 4` (line 9); the nested `mul` reads `k` when `apply`
    // calls it: `apply(mul, 10)` (10) and its printing (15).
    let (_, json) = impact("nested-function-captured", &[]);
    assert!(
        lines_in(&json, "captured").is_superset(&both(10)),
        "{json:#}"
    );
    assert_eq!(lines_in(&json, "main"), both(15), "{json:#}");
    // Outside functions: the unread part of `table`'s initializer changed (line 5), so
    // `table` is a changed global and its read (14), `lookup`'s result (15) and its
    // printing (26) are impacted; the unread part of `struct pair`'s body changed
    // (line 9), so its layout may have, and the code of `fill` using it is changed
    // (19-21) and the printing of its result (27) impacted.
    let (_, json) = impact("unreadable-declarations", &[]);
    let mut lookup = both(14);
    lookup.extend(both(15));
    assert_eq!(lines_in(&json, "lookup"), lookup, "{json:#}");
    let mut printed = both(26);
    printed.extend(both(27));
    assert_eq!(lines_in(&json, "main"), printed, "{json:#}");
    let changed: BTreeSet<u64> = new_changed_lines(&json).collect();
    assert_eq!(changed, BTreeSet::from([5, 19, 20, 21]), "{json:#}");
    // In a typedef (line 5), which no function, global or record holds: nothing is
    // impacted that the IR shows, and the report's first line says what it missed.
    let (_, json) = impact("unreadable-typedef", &[]);
    let incomplete = json["incomplete"].as_str().unwrap_or_default();
    assert!(
        incomplete.contains("old main.c:5") && incomplete.contains("new main.c:5"),
        "{json:#}"
    );
    // Unchanged, the same errors say nothing of the kind.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/impact/unreadable-typedef");
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(["impact", "--format", "json"])
        .arg(dir.join("old"))
        .arg(dir.join("old"))
        .output()
        .expect("ripple runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        !json["incomplete"]
            .as_str()
            .unwrap_or_default()
            .contains("changed outside functions"),
        "{json:#}"
    );
}

/// zlib's layout: the library's files at the root, its programs in `test/` and
/// `examples/`. A change to `lib.c` is library code no program at the root holds, so by
/// default the library is analysed (every function a client may call as an entry), not
/// whichever test driver comes first; with a program at the root holding it too, that
/// program is.
#[test]
fn a_change_to_library_code_is_analysed_as_the_library_when_no_root_program_holds_it() {
    let tree = |dir: &std::path::Path, factor: u32, root_tool: bool| {
        std::fs::create_dir_all(dir.join("test")).unwrap();
        std::fs::create_dir_all(dir.join("examples")).unwrap();
        std::fs::write(
            dir.join("lib.c"),
            format!("int scale(int x) {{ return x * {factor}; }}\nint twice(int x) {{ return scale(x) + scale(x); }}\n"),
        )
        .unwrap();
        std::fs::write(
            dir.join("test/driver.c"),
            "int scale(int x);\nint main(void) { return scale(2) != 4; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("examples/demo.c"),
            "#include <stdio.h>\nint twice(int x);\nint main(void) { printf(\"%d\\n\", twice(1)); return 0; }\n",
        )
        .unwrap();
        if root_tool {
            std::fs::write(
                dir.join("tool.c"),
                "#include <stdio.h>\nint scale(int x);\nint main(void) { printf(\"%d\\n\", scale(3)); return 0; }\n",
            )
            .unwrap();
        }
    };
    for root_tool in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (old, new) = (dir.path().join("old"), dir.path().join("new"));
        tree(&old, 2, root_tool);
        tree(&new, 3, root_tool);
        let out = Command::cargo_bin("ripple")
            .unwrap()
            .args(["impact", "--no-cache", "--format", "json"])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let functions = json["summary"]["impacted_functions"].to_string();
        if root_tool {
            assert!(
                stderr.contains("analysing tool.c (the one holding the most changed files"),
                "{stderr}"
            );
            // tool.c's main prints what scale returns.
            assert!(functions.contains("main"), "{json:#}");
        } else {
            assert!(
                stderr.contains("analysing library (the files without main"),
                "{stderr}"
            );
            // twice returns what scale computes; no driver's main is in the library.
            assert!(functions.contains("twice"), "{json:#}");
            assert!(!functions.contains("main"), "{json:#}");
        }
    }
}

/// zlib fa8cd50 reduced: only a branch of `#if` that the build does not take changes in
/// `lib.h`. `extra/win.c` includes it and no program links it (a Windows port that
/// cannot be read here). Its code after preprocessing is the same in both versions, so
/// it is no change to join to the program analysed: no error from reading it, and the
/// exit code says the text changed (1), not that reading failed (2).
#[test]
fn a_unit_that_only_includes_a_header_changed_where_its_build_does_not_look_is_no_change() {
    let tree = |dir: &std::path::Path, width: u32| {
        std::fs::create_dir_all(dir.join("extra")).unwrap();
        std::fs::write(
            dir.join("lib.h"),
            format!("#if defined(NEVER_DEFINED)\ntypedef unsigned long long wide_{width};\n#endif\nint scale(int x);\n"),
        )
        .unwrap();
        std::fs::write(
            dir.join("lib.c"),
            "#include \"lib.h\"\nint scale(int x) { return x * 2; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("main.c"),
            "#include \"lib.h\"\nint main(void) { return scale(1) != 2; }\n",
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("tools")).unwrap();
        std::fs::write(dir.join("tools/t2.c"), "int main(void) { return 0; }\n").unwrap();
        std::fs::write(
            dir.join("extra/win.c"),
            "#include \"../lib.h\"\nHANDLE open_it(LPCSTR name) { return CreateFileA(name); }\n",
        )
        .unwrap();
    };
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    tree(&old, 32);
    tree(&new, 64);
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["diff", "--no-cache", "--color", "never"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stderr.contains("extra/win.c"), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    assert!(stdout.contains("no function changed"), "{stdout}");
}
