//! `ripple interactions` on the ten programs of `tests/interactions` (each directory's
//! README.md gives the changes, the tests and the reasoning behind every verdict): per
//! pair of changes, the verdict and the suite lines of the tests interacting with
//! Type I and Type II; then SCHID against the baselines of 002 section 7.2.5
//! (change-pair coverage and dynamic-slice intersection on the new version), summed
//! over the ten programs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const PROGRAMS: [&str; 10] = [
    "shared-total",
    "early-return",
    "clamp-masking",
    "unrelated-functions",
    "never-together",
    "memory-pointer",
    "global-return",
    "printf-only",
    "skipped-write",
    "no-interaction",
];

fn program_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/interactions")
        .join(name)
}

/// Runs `ripple interactions old.c new.c --tests SUITE --format json` in the program's
/// directory; returns the exit code and the report.
fn run(dir: &Path, suite: &Path) -> (Option<i32>, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_ripple"))
        .current_dir(dir)
        .args(["interactions", "old.c", "new.c", "--tests"])
        .arg(suite)
        .args(["--format", "json"])
        .output()
        .expect("ripple runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), value)
}

/// The program's report on its own suite.
fn interactions(name: &str) -> (Option<i32>, Value) {
    run(&program_dir(name), Path::new("suite.txt"))
}

/// Each set's change as (function, line in new.c).
fn changes(v: &Value) -> Vec<(String, u64)> {
    v["sets"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|s| {
            let c = &s["changes"][0];
            (
                c["function"].as_str().expect("a function").to_string(),
                c["line"].as_u64().expect("a line"),
            )
        })
        .collect()
}

fn pair<'a>(v: &'a Value, a: &str, b: &str) -> &'a Value {
    v["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .find(|p| p["sets"][0] == a && p["sets"][1] == b)
        .unwrap_or_else(|| panic!("no pair {a} x {b}: {v}"))
}

fn lines(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a line"))
        .collect()
}

/// The pair's verdict and the suite lines of its Type I and Type II tests.
#[track_caller]
fn expect(v: &Value, a: &str, b: &str, verdict: &str, one: &[u64], two: &[u64]) {
    let p = pair(v, a, b);
    assert_eq!(p["verdict"], verdict, "{a} x {b}: {p:#}");
    assert_eq!(lines(&p["type_one"]), one, "{a} x {b} Type I: {p:#}");
    assert_eq!(lines(&p["type_two"]), two, "{a} x {b} Type II: {p:#}");
}

/// The baselines on P': how many tests run both sets, and on how many their dynamic
/// slices meet.
#[track_caller]
fn baselines(v: &Value, a: &str, b: &str, covered_together: usize, slices_meet: usize) {
    let p = pair(v, a, b);
    assert_eq!(
        lines(&p["covered_together"]).len(),
        covered_together,
        "{a} x {b}: {p:#}"
    );
    assert_eq!(
        lines(&p["slices_meet"]).len(),
        slices_meet,
        "{a} x {b}: {p:#}"
    );
}

fn owned(list: &[(&str, u64)]) -> Vec<(String, u64)> {
    list.iter().map(|(f, l)| (f.to_string(), *l)).collect()
}

/// Requirement: a Type I interaction through a shared variable (`total`), and a Type II
/// where ch1 keeps the discount (ch2) from running in P'.
#[test]
fn shared_total() {
    let (code, v) = interactions("shared-total");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("line_total", 33), ("main", 55), ("main", 57)])
    );
    // ch1 lowers the subtotal that ch2's `sum / 8` reads, with the subtotal >= 100 in
    // every variant on lines 5 and 8 (Type I); on line 6 ch1 takes it from 110 to 99,
    // so the discount runs only without ch1 (Type II).
    expect(&v, "ch1", "ch2", "interacts", &[5, 8], &[6]);
    // Line 6 runs ch2 only in P'\ch1: neither baseline reports it (3, 5, 7, 8, 9 run
    // both in P').
    baselines(&v, "ch1", "ch2", 5, 5);
    // Both feed `total = sum - discount + shipping`: ch3's effect on `total` has other
    // values wherever ch1 changes the subtotal (a quantity of 10 or more).
    expect(&v, "ch1", "ch3", "interacts", &[4, 5, 6, 8], &[]);
    // Discount and shipping both feed `total` on every test where the discount runs.
    expect(&v, "ch2", "ch3", "interacts", &[3, 5, 7, 8, 9], &[]);
}

/// Requirement: a Type II interaction where one change makes a function return early so
/// that the other never runs in P' (which the baselines cannot see).
#[test]
fn early_return() {
    let (code, v) = interactions("early-return");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(changes(&v), owned(&[("withdraw", 15), ("withdraw", 17)]));
    // Amounts over the limit (3, 4, 6, 10): ch1 returns before the fee (ch2) in P',
    // while P'\ch1 pays it with ch2's fee (Type II). One amount within the limit and
    // one over it (9, 11): both have an effect on P' (Type I).
    expect(&v, "ch1", "ch2", "interacts", &[9, 11], &[3, 4, 6, 10]);
    // In P' the pair runs together, and the slices meet, only on 2, 5, 8, 9, 11: none
    // of the Type II tests.
    baselines(&v, "ch1", "ch2", 5, 5);
    let p = pair(&v, "ch1", "ch2");
    // Amounts within the limit (2, 5, 8): same effects; amount 0 (7): ch2 never runs.
    assert_eq!(p["no_interaction"], 3);
    assert_eq!(p["not_run"], 1);
}

/// Requirement: masking, with a cap hiding the other change's effect on some inputs.
#[test]
fn clamp_masking() {
    let (code, v) = interactions("clamp-masking");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("limit_for", 16), ("cap", 26), ("fine_for", 34)])
    );
    // `2 85`: 200 in P' is under the cap (ch2 has no effect on P'), 280 in P'\ch1 is
    // capped (Type II). `2 95`: both fines capped to 250, ch1 hidden in the output,
    // but without ch2 the cap decisions differ (280 > 300 false, 360 > 300 true).
    expect(&v, "ch1", "ch2", "interacts", &[10], &[9]);
    // `2 55`: under the new zone-2 limit `fine_for` returns before ch3's statement
    // (Type II); on 8, 9, 10 and 15 ch1 changes the `over` that ch3 multiplies.
    expect(&v, "ch1", "ch3", "interacts", &[8, 9, 10, 15], &[7]);
    // Type II on 4, 12, 15: the new rate keeps the fine at or under 250 in P' (the
    // cap change does nothing there) but not in P'\ch3. Type I on 5, 10: the cap
    // hides the rate change in P' but not with the old cap.
    expect(&v, "ch2", "ch3", "interacts", &[5, 10], &[4, 12, 15]);
    // The masked Type II tests run both changes in P' and their slices meet there:
    // the baselines report them (11 tests run both in P').
    baselines(&v, "ch2", "ch3", 11, 11);
    // `1 70`: both fines capped in every variant, each effect is the same with or
    // without the other: among the no-interaction tests.
    assert_eq!(pair(&v, "ch2", "ch3")["no_interaction"], 6);
}

/// Requirement: changes in unrelated functions whose static slices never meet.
#[test]
fn unrelated_functions() {
    let (code, v) = interactions("unrelated-functions");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("checksum", 12), ("checksum", 15), ("find_longest", 27)])
    );
    // The seed and the multiplier both feed every `h`.
    expect(&v, "ch1", "ch2", "interacts", &[2, 3, 4, 5, 6, 7], &[]);
    // `h` reaches only the checksum's printf, ch3 only `best` and the other printf.
    expect(&v, "ch1", "ch3", "pruned-static", &[], &[]);
    expect(&v, "ch2", "ch3", "pruned-static", &[], &[]);
    // Nothing is run for a statically pruned pair.
    assert_eq!(pair(&v, "ch1", "ch3")["not_run"], 0);
    assert_eq!(pair(&v, "ch1", "ch3")["no_interaction"], 0);
}

/// Requirement: changes in branches (operations behind a function pointer) that no
/// test runs together, though their static slices meet at the indirect call.
#[test]
fn never_together() {
    let (code, v) = interactions("never-together");
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("op_scale", 21), ("op_avg", 26), ("op_pow", 36)])
    );
    // Each test calls one operation and no change alters which: every test is
    // "not run" (check 2) for every pair; check 1 kept them (the results meet at
    // `op->fn(a, b)`), so they are not pruned statically.
    for (a, b) in [("ch1", "ch2"), ("ch1", "ch3"), ("ch2", "ch3")] {
        expect(&v, a, b, "never-run-together", &[], &[]);
        assert_eq!(pair(&v, a, b)["not_run"], 9);
        baselines(&v, a, b, 0, 0);
    }
}

/// Requirement: an interaction through memory, array elements written through a
/// pointer by one change and read by the other.
#[test]
fn memory_pointer() {
    let (code, v) = interactions("memory-pointer");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(changes(&v), owned(&[("clean", 24), ("weighted", 32)]));
    // A negative sample makes ch1 write another value through `p`, which ch2's partial
    // sums read; on 4 and 9 only the partial sums show it (the printed sums agree).
    // `-3` (6): one sample, both weightings give weight 1, no interaction; 2, 5, 8
    // have no negative sample (ch1 never runs).
    expect(&v, "ch1", "ch2", "interacts", &[3, 4, 7, 9], &[]);
    let p = pair(&v, "ch1", "ch2");
    assert_eq!(p["no_interaction"], 1);
    assert_eq!(p["not_run"], 3);
}

/// Requirement: an interaction across functions, through a global (written by ch1 in
/// `configure`) and a return value (ch2's `base_cost`), meeting in `job_cost`.
#[test]
fn global_return() {
    let (code, v) = interactions("global-return");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(changes(&v), owned(&[("configure", 15), ("base_cost", 21)]));
    // Turbo mode with a job over 10 pages: ch2's effect on the cost is 52 vs 60 with
    // the new factor, 39 vs 45 with the old one. `turbo 11` (7): ch2 changes nothing
    // (1 / 3 == 1 / 2).
    expect(&v, "ch1", "ch2", "interacts", &[6, 8], &[]);
    let p = pair(&v, "ch1", "ch2");
    assert_eq!(p["no_interaction"], 1);
    assert_eq!(p["not_run"], 5);
}

/// Requirement: an interaction through the printed output only (one printf prints
/// both values); a printf of its own is pruned statically.
#[test]
fn printf_only() {
    let (code, v) = interactions("printf-only");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("available", 23), ("worth", 29), ("main", 36)])
    );
    // Parts whose available count and worth both change (bolt, nut, gear) meet in one
    // printf occurrence; the axle (5, 8) and the plate (6) have at most one change.
    expect(&v, "ch1", "ch2", "interacts", &[2, 3, 4, 7], &[]);
    let p = pair(&v, "ch1", "ch2");
    assert_eq!(
        p["at"]["text"],
        "printf(\"%-6s available %4d worth %5d\\n\", p->name, a, w);"
    );
    assert_eq!(p["no_interaction"], 3);
    // The header printf reads only argc and is connected to no other printf.
    expect(&v, "ch1", "ch3", "pruned-static", &[], &[]);
    expect(&v, "ch2", "ch3", "pruned-static", &[], &[]);
}

/// Requirement: an interaction through a write a branch skips, which dynamic slices
/// miss.
#[test]
fn skipped_write() {
    let (code, v) = interactions("skipped-write");
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        changes(&v),
        owned(&[("set_defaults", 15), ("apply_level", 22)])
    );
    // Levels 3 and 4: ch2 skips `c->timeout = 10`, the write that would overwrite
    // ch1's default, so ch1's effect reaches the output only with ch2.
    expect(&v, "ch1", "ch2", "interacts", &[4, 5, 8], &[]);
    let p = pair(&v, "ch1", "ch2");
    // The dynamic slices meet in none of the four runs: ch2's skipped branch has
    // nothing under it, and where the branch is taken it overwrites ch1's value.
    assert_eq!(lines(&p["missed_by_slices"]), [4, 5, 8]);
    baselines(&v, "ch1", "ch2", 8, 0);
    // The other levels take the same branch in every variant.
    assert_eq!(p["slices_apart"], 5);
}

/// Requirement: changes that run together, whose slices meet, and that never interact
/// on the suite.
#[test]
fn no_interaction() {
    let (code, v) = interactions("no-interaction");
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(changes(&v), owned(&[("letter_for", 17), ("passes", 26)]));
    // ch1 changes letters for 78-79 only, ch2 marks for 45-49 only: on each printf
    // occurrence at most one of them changes anything. `ann 95` never reaches ch1.
    expect(&v, "ch1", "ch2", "no-interaction", &[], &[]);
    let p = pair(&v, "ch1", "ch2");
    assert_eq!(p["no_interaction"], 6);
    assert_eq!(p["not_run"], 1);
    baselines(&v, "ch1", "ch2", 6, 6);
}

/// What one test says of one pair.
#[derive(Clone, Copy)]
struct Case {
    covered: bool,
    meet: bool,
    type_one: bool,
    type_two: bool,
}

/// Per pair of the program: (name, verdict, cases by test in suite order).
type Pairs = Vec<(String, String, Vec<Case>)>;

/// The program's pairs, with each test's cases, from the report on its suite.
fn cases(name: &str) -> Pairs {
    let (_, full) = interactions(name);
    let tests: Vec<u64> = full["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["line"].as_u64().expect("a line"))
        .collect();
    full["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            let in_list = |key: &str, line: &u64| lines(&p[key]).contains(line);
            (
                format!(
                    "{} x {}",
                    p["sets"][0].as_str().unwrap(),
                    p["sets"][1].as_str().unwrap()
                ),
                p["verdict"].as_str().unwrap().to_string(),
                tests
                    .iter()
                    .map(|l| Case {
                        covered: in_list("covered_together", l),
                        meet: in_list("slices_meet", l),
                        type_one: in_list("type_one", l),
                        type_two: in_list("type_two", l),
                    })
                    .collect(),
            )
        })
        .collect()
}

/// Test-pair cases of one technique.
#[derive(Default)]
struct Tally {
    reported: usize,
    /// Reported, but SCHID finds no interaction on that pair for that test.
    false_positives: usize,
    /// SCHID Type II interactions not reported.
    missed_type_two: usize,
    /// SCHID Type I interactions not reported.
    missed_type_one: usize,
}

impl Tally {
    fn add(&mut self, reported: bool, c: &Case) {
        let interacts = c.type_one || c.type_two;
        self.reported += usize::from(reported);
        self.false_positives += usize::from(reported && !interacts);
        self.missed_type_two += usize::from(!reported && c.type_two);
        self.missed_type_one += usize::from(!reported && c.type_one);
    }
}

/// SCHID against change-pair coverage (`covered_together`) and dynamic-slice
/// intersection (`slices_meet`) on the ten programs, as in 002 Tables 24-27: per pair,
/// the tests each technique reports; then, summed over the test-pair cases, what each
/// baseline reports, its false positives (reported where SCHID finds no interaction for
/// that pair and test) and its false negatives (SCHID's Type II interactions it does not
/// report; its missed Type I ones apart). Printed with `--nocapture`.
#[test]
fn against_the_baselines() {
    let all: Vec<(&str, Pairs)> = std::thread::scope(|s| {
        let handles: Vec<_> = PROGRAMS
            .iter()
            .map(|&name| s.spawn(move || (name, cases(name))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a program"))
            .collect()
    });
    let mut table = String::new();
    let row = |a: &str, b: &str, c: &str, d: &str, e: &str, f: &str, g: &str| {
        format!("{a:<20} {b:<10} {c:<19} {d:>9} {e:>12} {f:>7} {g:>8}\n")
    };
    table.push_str(
        "Change interactions on tests/interactions: tests per pair (baselines on P')\n\n",
    );
    table.push_str(&row(
        "program",
        "pair",
        "verdict",
        "run both",
        "slices meet",
        "Type I",
        "Type II",
    ));
    let (mut coverage, mut slices) = (Tally::default(), Tally::default());
    let (mut one, mut two, mut pairs) = (0, 0, 0);
    for (name, program) in &all {
        for (pair_name, verdict, per) in program {
            pairs += 1;
            let count = |f: fn(&Case) -> bool| per.iter().filter(|c| f(c)).count();
            table.push_str(&row(
                name,
                pair_name,
                verdict,
                &count(|c| c.covered).to_string(),
                &count(|c| c.meet).to_string(),
                &count(|c| c.type_one).to_string(),
                &count(|c| c.type_two).to_string(),
            ));
            for c in per {
                coverage.add(c.covered, c);
                slices.add(c.meet, c);
                one += usize::from(c.type_one);
                two += usize::from(c.type_two);
            }
        }
    }
    table.push_str(&row(
        &format!("all ({pairs} pairs)"),
        "",
        "",
        &coverage.reported.to_string(),
        &slices.reported.to_string(),
        &one.to_string(),
        &two.to_string(),
    ));
    table.push_str(&format!(
        "\n{:<28} {:>9} {:>16} {:>17} {:>17}\n",
        "technique", "reported", "false positives", "missed Type II", "missed Type I"
    ));
    for (technique, t) in [
        ("change-pair coverage", &coverage),
        ("dynamic-slice intersection", &slices),
    ] {
        table.push_str(&format!(
            "{:<28} {:>9} {:>16} {:>17} {:>17}\n",
            technique, t.reported, t.false_positives, t.missed_type_two, t.missed_type_one
        ));
    }
    table.push_str(&format!(
        "{:<28} {:>9} {:>16} {:>17} {:>17}\n",
        "SCHID (Type I + Type II)",
        one + two,
        "-",
        "-",
        "-"
    ));
    table.push_str("\n(a statically pruned pair is not run, so its baselines count no test)\n");
    println!("{table}");
    // The baselines cannot see a change that does not run in P' (early-return,
    // shared-total, clamp-masking).
    assert!(coverage.missed_type_two >= 1, "{table}");
    assert!(slices.missed_type_two >= 1, "{table}");
    // A Type I interaction needs both sets to have an effect on P', so both run there:
    // change-pair coverage reports every one of them.
    assert_eq!(coverage.missed_type_one, 0, "{table}");
    assert!(one <= coverage.reported, "{table}");
    assert!(one <= slices.reported, "{table}");
    // Both baselines report tests on which nothing interacts (no-interaction alone
    // gives six).
    assert!(coverage.false_positives >= 6, "{table}");
    assert!(slices.false_positives >= 6, "{table}");
}
