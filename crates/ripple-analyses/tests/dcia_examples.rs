//! DCIA on the examples of 000, Fig. 1 and Fig. 4 (examples/dcia-fig1, dcia-fig4), and on
//! deleted statements and changed call arguments (examples/dcia-deleted-*,
//! examples/dcia-changed-call-args): the impact shows in both versions, at the statements
//! whose execution count or read values differ, and not beyond. The expected sets are
//! reasoned in each test and agree with the gcc-compiled programs' output.

use std::collections::BTreeSet;
use std::path::Path;

use ripple_analyses::dcia::{dcia, DciaConfig, DciaResult, Equivalences, VersionImpact};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

fn load(path: &Path) -> Program {
    // One unit name for both versions, so that statics pair up as in `ripple impact`.
    ripple_conformance::lower_file(path, "prog.c")
}

fn run(example: &str) -> (Program, Program, DciaResult) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(example);
    let old = load(&dir.join("old.c"));
    let new = load(&dir.join("new.c"));
    let matching = match_programs(&old, &new, &MatchConfig::default());
    let result = dcia(
        &old,
        &new,
        &matching,
        &Equivalences::default(),
        &DciaConfig::default(),
    );
    (old, new, result)
}

/// The impacted lines of one version in the named function.
fn lines_in(program: &Program, impact: &VersionImpact, function: &str) -> BTreeSet<u32> {
    impact
        .impacted
        .iter()
        .filter(|n| program.functions[n.function].name == function)
        .map(|n| program.functions[n.function].nodes[n.node].span.start_line)
        .filter(|&l| l > 0)
        .collect()
}

#[test]
fn fig1_impacts_the_four_print_functions() {
    let (_, new, result) = run("dcia-fig1");
    // Paper lines 19, 26-30, 33-37, 40-44 are file lines + 20.
    let header = lines_in(&new, &result.new, "print_header");
    assert!(header.contains(&39), "{header:?}");
    for (function, lines) in [
        ("print_name", [46, 47, 48, 50]),
        ("print_major_vers", [53, 54, 55, 57]),
        ("print_minor_vers", [60, 61, 62, 64]),
    ] {
        let got = lines_in(&new, &result.new, function);
        for line in lines {
            assert!(got.contains(&line), "{function}: {got:?} lacks {line}");
        }
    }
    // In print_product_info: lines 6, 8, 10, 11, 14, 16 (paper) are impacted.
    let caller = lines_in(&new, &result.new, "print_product_info");
    for line in [26, 28, 30, 31, 34, 36] {
        assert!(
            caller.contains(&line),
            "print_product_info: {caller:?} lacks {line}"
        );
    }
    // Every impacted node is explained by a chain ending at a changed statement, or at a
    // statement whose execution count a statement of one version only may change.
    for node in &result.new.impacted {
        let last = node.chain.last().expect("a chain");
        assert!(
            last.text.ends_with("changed") || last.text.ends_with("exists in one version only)"),
            "{:?}",
            node.chain
        );
    }
}

#[test]
fn fig4_impacts_everything_downstream_of_main() {
    let (_, new, result) = run("dcia-fig4");
    for function in ["f1", "f2", "f3", "f4", "f5"] {
        let f = new.function_by_name(function).unwrap();
        let body = &new.functions[f];
        let lines: BTreeSet<u32> = body
            .nodes
            .iter()
            .map(|n| n.span.start_line)
            .filter(|&l| l > 0)
            .collect();
        let got = lines_in(&new, &result.new, function);
        assert_eq!(got, lines, "{function}");
    }
}

fn set(lines: &[u32]) -> BTreeSet<u32> {
    lines.iter().copied().collect()
}

#[test]
fn deleted_goto_impacts_the_code_it_skipped_in_both_versions() {
    // Without `goto ret1;` (line 11, now `;`) the loop runs to the end: lines 12 and 13
    // run more often, line 15 (`hits * 2`) now runs, and the loop head (line 9) runs
    // more often; the result (17) and what main prints (28, 29) change (gcc: "1 2" vs
    // "20 5"). `report()` (30) and its printf (22) run once in both: not impacted.
    let (old, new, result) = run("dcia-deleted-goto");
    for (program, impact) in [(&old, &result.old), (&new, &result.new)] {
        let scan = lines_in(program, impact, "scan");
        assert!(scan.is_superset(&set(&[9, 12, 13, 15, 17])), "{scan:?}");
        let main = lines_in(program, impact, "main");
        assert!(main.is_superset(&set(&[28, 29])), "{main:?}");
        assert!(!main.contains(&30), "{main:?}");
        assert!(lines_in(program, impact, "report").is_empty());
    }
}

#[test]
fn deleted_return_impacts_the_statements_now_reached() {
    // Without `return;` (old line 9) a negative argument also runs `seen = seen + 1` and
    // the second printf (old 11-12, new 10-11), so main's last printf (old 20, new 19)
    // prints 3 instead of 2. The three calls of `visit` and the test `x < 0` (7) run
    // equally often and read the same values: not impacted.
    let (old, new, result) = run("dcia-deleted-return");
    let visit_new = lines_in(&new, &result.new, "visit");
    assert!(visit_new.is_superset(&set(&[10, 11])), "{visit_new:?}");
    assert!(!visit_new.contains(&7), "{visit_new:?}");
    let visit_old = lines_in(&old, &result.old, "visit");
    assert!(visit_old.is_superset(&set(&[11, 12])), "{visit_old:?}");
    let main_new = lines_in(&new, &result.new, "main");
    assert!(main_new.contains(&19), "{main_new:?}");
    assert!(main_new.is_disjoint(&set(&[16, 17, 18])), "{main_new:?}");
}

#[test]
fn deleted_store_impacts_the_uses_of_the_field_in_the_new_version() {
    // Without `p->priority = prio;` (old line 17) every priority stays 0: the test
    // `p->priority > 5` in urgent (old 37, new 36) reads other values, `n = n + 1` (old
    // 38, new 37) runs less often, and main prints "0 urgent" (old 47, new 46) instead
    // of "2 urgent". The calls of `add` (new 42-44) are unchanged: not impacted.
    let (old, new, result) = run("dcia-deleted-store");
    let urgent_new = lines_in(&new, &result.new, "urgent");
    assert!(urgent_new.is_superset(&set(&[36, 37])), "{urgent_new:?}");
    let urgent_old = lines_in(&old, &result.old, "urgent");
    assert!(urgent_old.is_superset(&set(&[37, 38])), "{urgent_old:?}");
    let main_new = lines_in(&new, &result.new, "main");
    assert!(main_new.contains(&46), "{main_new:?}");
    assert!(main_new.is_disjoint(&set(&[42, 43, 44])), "{main_new:?}");
}

#[test]
fn changed_argument_reaches_the_callee_through_its_parameter_only() {
    // `scale(3)` becomes `scale(4)` (line 18): the parameter x of scale is impacted, so
    // are `return x * 2` (13), the header of scale (10, a parameter is impacted) and the
    // printf of main (19; gcc: "6 1" vs "8 1"). scale is called once in both versions,
    // so `tick()` (12) runs once and tick's `calls = calls + 1` (7) reads the same
    // values: neither is impacted, and tick's header is not an impacted line.
    let (old, new, result) = run("dcia-changed-call-args");
    for (program, impact) in [(&old, &result.old), (&new, &result.new)] {
        let scale = lines_in(program, impact, "scale");
        assert!(scale.contains(&13), "{scale:?}");
        assert!(!scale.contains(&12), "{scale:?}");
        let scale_id = program
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == "scale")
            .map(|(id, _)| id)
            .unwrap();
        assert!(impact.is_parameter_impacted(scale_id));
        let tick = lines_in(program, impact, "tick");
        assert!(!tick.contains(&7), "{tick:?}");
        assert!(lines_in(program, impact, "main").contains(&19));
    }
}
