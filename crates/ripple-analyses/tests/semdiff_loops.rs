//! Loops beyond the unwinding bound: synchronised loops proved equal by induction
//! (`ripple_symex` engine, `loops`) make a pair equivalent, and only when every
//! iteration of the two versions agrees.

mod semdiff_common;

use ripple_analyses::semdiff::{PairReport, SemdiffConfig, Verdict};
use semdiff_common::run;

/// Analyses `old` against `new` at the default work budget; the report of `function`.
fn analyse(old: &str, new: &str, function: &str) -> PairReport {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), new).unwrap();
    // The default work budget; the wall-clock cut-off far, so that a slow build under
    // load gives the same answer.
    let config = SemdiffConfig {
        wall_clock_cutoff: Some(std::time::Duration::from_secs(120)),
        ..SemdiffConfig::default()
    };
    let report = run(dir.path(), &config);
    report
        .functions
        .into_iter()
        .find(|f| f.name == function)
        .unwrap_or_else(|| panic!("{function} analysed"))
}

fn proved_by_induction(report: &PairReport) -> bool {
    report
        .notes
        .iter()
        .any(|n| n.contains("proved equal by induction"))
}

#[test]
fn a_for_loop_rewritten_as_a_while_loop_is_equivalent_for_every_trip_count() {
    // n is unbounded: the unwinding bound (5) alone never covers every input. The two
    // loops take the same steps from the same i, s and n, so by induction they leave
    // together with the same s. (The sum is commuted so that the two do not lower to the
    // same code, which would make them equal without a proof.)
    let old = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }";
    let new =
        "int f(int n) { int s = 0; int i = 0; while (i < n) { s = i * i + s; i++; } return s; }";
    let report = analyse(old, new, "f");
    assert_eq!(report.verdict, Verdict::Equivalent, "{report:#?}");
    assert!(proved_by_induction(&report), "{report:#?}");
}

#[test]
fn temporaries_of_one_version_only_do_not_block_the_proof() {
    // The new body names its intermediate products (`a2`, `b2`, written before they
    // are read in each iteration); the old one has `t`. Only the registers of both
    // versions (a, b, n, k) carry the relation; the others are arbitrary at the head.
    let old = "int f(int a, int b, int n) { int k = 0;
        while (k < n && a * a + b * b < 1000) { int t = a * a - b * b + 3; b = 2 * a * b + 1; a = t; k++; }
        return k * 7 + a; }";
    let new = "int f(int a, int b, int n) { int k;
        for (k = 0; k < n; k++) { int a2 = a * a; int b2 = b * b; if (a2 + b2 >= 1000) break;
            b = 2 * a * b + 1; a = a2 - b2 + 3; }
        return k * 7 + a; }";
    let report = analyse(old, new, "f");
    assert_eq!(report.verdict, Verdict::Equivalent, "{report:#?}");
    assert!(proved_by_induction(&report), "{report:#?}");
}

#[test]
fn a_difference_in_a_late_iteration_is_never_equivalent() {
    // The versions differ only when the loop reaches i == 1000, far beyond the
    // unwinding bound: the induction step sees the difference (i is arbitrary at the
    // head), so no proof, and the bounded analysis cannot cover every input.
    let old = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }";
    let new =
        "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i == 1000 ? 1 : i; return s; }";
    let report = analyse(old, new, "f");
    assert_ne!(report.verdict, Verdict::Equivalent, "{report:#?}");
    assert!(!proved_by_induction(&report), "{report:#?}");
}

#[test]
fn a_register_of_one_version_that_the_loop_reads_blocks_the_proof() {
    // The new loop adds `step`, which is 1 here, but the induction step holds `step`
    // arbitrary (it is not a register of the old version): the relation "same i, s"
    // is not inductive without knowing step == 1, so the loops are not abstracted, and
    // the pair is not claimed equivalent on that ground.
    let old = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += 2; return s; }";
    let new = "int f(int n) { int s = 0; int step = 1; for (int i = 0; i < n; i += step) s += 2; return s; }";
    let report = analyse(old, new, "f");
    assert!(!proved_by_induction(&report), "{report:#?}");
}

#[test]
fn loops_writing_memory_are_compared_on_the_memory_too() {
    // Both versions zero a[0..n) through a pointer parameter, one by index and one
    // with the same index expression in a while loop: memory is part of the relation.
    // The new version writes 1 at a[7], which the induction step sees.
    let old = "void f(int *a, int n) { for (int i = 0; i < n; i++) a[i] = 0; }";
    let same = "void f(int *a, int n) { int i = 0; while (i < n) { a[i] = 0; i++; } }";
    let changed = "void f(int *a, int n) { int i = 0; while (i < n) { a[i] = i == 7; i++; } }";
    let report = analyse(old, changed, "f");
    assert_ne!(report.verdict, Verdict::Equivalent, "{report:#?}");
    assert!(!proved_by_induction(&report), "{report:#?}");
    // Unchanged writes: the step holds (the bounds check of a[i] against the object's
    // size may still leave the pair to the bounded analysis, which is then unknown).
    let report = analyse(old, same, "f");
    assert_ne!(report.verdict, Verdict::Different, "{report:#?}");
}

#[test]
fn renamed_loop_locals_are_paired_by_declaration_order() {
    // Every local renamed (s -> acc, m -> three, i -> k), none of the old names left in
    // the new version: paired in declaration order, the loops take the same steps from
    // the same (s, m, i) = (acc, three, k), so by induction they leave together with
    // the same sum. (`3` written `1 + 2`, or the renaming alone would be no change.)
    let old =
        "int f(int n) { int s = 0; int m = 3; for (int i = 0; i < n; i++) s += m * i; return s; }";
    let new = "int f(int n) { int acc = 0; int three = 1 + 2; for (int k = 0; k < n; k++) acc += three * k; return acc; }";
    let report = analyse(old, new, "f");
    assert_eq!(report.verdict, Verdict::Equivalent, "{report:#?}");
    assert!(proved_by_induction(&report), "{report:#?}");
    // The same renaming with one more iteration (k <= n): different, as for n = 1 (old
    // sums i = 0 only, 0; new adds k = 1 too, 3).
    let longer = "int f(int n) { int acc = 0; int three = 3; for (int k = 0; k <= n; k++) acc += three * k; return acc; }";
    let report = analyse(old, longer, "f");
    assert_eq!(report.verdict, Verdict::Different, "{report:#?}");
}

#[test]
fn renamed_locals_declared_in_another_order_fail_the_proof_only() {
    // s, i become k, acc: declaration order pairs s with k and i with acc, which is not
    // the correspondence, so the induction step fails; the versions are equivalent,
    // so the answer must not be "different" either (it is left to the bounded analysis).
    let old = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }";
    let new = "int f(int n) { int k; int acc = 0; for (k = 0; k < n; k++) acc += k; return acc; }";
    let report = analyse(old, new, "f");
    assert!(!proved_by_induction(&report), "{report:#?}");
    assert_ne!(report.verdict, Verdict::Different, "{report:#?}");
}

/// Reporting one function analyses it and its callees, not its callers: the solver is
/// asked what it is asked on the program without the caller, and the verdict is the same.
#[test]
fn one_function_reported_is_analysed_without_its_callers() {
    // `sum_to`'s while loop becomes a for loop (equivalent); `main` calls it, and a
    // caller waits on its callee's summary, so analysing it would cost work of its own.
    let sum_to = |body: &str| format!("int sum_to(int n) {{ int i, s = 0; {body} return s; }}\n");
    let old = sum_to("i = 0; while (i < n) { s += i; i++; }");
    // (`i + s`: not the same code as the old loop, so a proof is needed.)
    let new = sum_to("for (i = 0; i < n; i++) s = i + s;");
    let caller = "int main(int argc, char **argv) { return sum_to(argc * 3) > 10; }\n";
    let run_on = |old: &str, new: &str, function: Option<&str>| {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::write(dir.path().join("old.c"), old).unwrap();
        std::fs::write(dir.path().join("new.c"), new).unwrap();
        let config = SemdiffConfig {
            wall_clock_cutoff: Some(std::time::Duration::from_secs(120)),
            function: function.map(str::to_string),
            ..SemdiffConfig::default()
        };
        run(dir.path(), &config)
    };
    let (old_whole, new_whole) = (old.clone() + caller, new.clone() + caller);
    let with_caller = run_on(&old_whole, &new_whole, Some("sum_to"));
    let alone = run_on(&old, &new, Some("sum_to"));
    let everything = run_on(&old_whole, &new_whole, None);
    assert_eq!(with_caller.functions.len(), 1, "{with_caller:#?}");
    assert_eq!(with_caller.functions[0].verdict, Verdict::Equivalent);
    assert_eq!(alone.functions[0].verdict, Verdict::Equivalent);
    assert_eq!(with_caller.queries, alone.queries);
    // The whole run analyses main too.
    assert_eq!(everything.functions.len(), 2, "{everything:#?}");
    assert!(
        everything.queries > with_caller.queries,
        "{} queries against {}",
        everything.queries,
        with_caller.queries
    );
}
