//! Invariant diffs (003) on the paper's section II example and on buggy/fixed pairs of
//! small numeric programs, with every reported invariant checked by running the
//! interpreter on random and boundary inputs.

use std::path::Path;

use ripple_analyses::invariants::{
    invariant_diffs, At, InvariantConfig, InvariantDiff, Mvicfg, PointResult, QueryLimits,
    VersionResult,
};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;
use ripple_symex::Budget;
use ripple_versions::{match_programs, MatchConfig};

fn lower(path: &Path) -> Program {
    let text = std::fs::read_to_string(path).expect("fixture");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let unit = TranslationUnit::preprocessed(name, &text, str::to_string);
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    );
    assert!(
        lowered
            .diagnostics
            .iter()
            .all(|d| d.severity != ripple_c::Severity::Error),
        "{:?}",
        lowered.diagnostics
    );
    lowered.program
}

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/invariants")
        .join(rel)
}

fn diffs(files: &[std::path::PathBuf], points: Vec<(String, At)>) -> (Vec<Program>, InvariantDiff) {
    diffs_with(files, points, 5, QueryLimits::default())
}

fn diffs_with(
    files: &[std::path::PathBuf],
    points: Vec<(String, At)>,
    seconds: u64,
    limits: QueryLimits,
) -> (Vec<Program>, InvariantDiff) {
    let programs: Vec<Program> = files.iter().map(|f| lower(f)).collect();
    let refs: Vec<&Program> = programs.iter().collect();
    let matches: Vec<_> = refs
        .windows(2)
        .map(|w| match_programs(w[0], w[1], &MatchConfig::default()))
        .collect();
    let match_refs: Vec<_> = matches.iter().collect();
    let graph = Mvicfg::build(&refs, &match_refs);
    let config = InvariantConfig {
        versions: (0..programs.len()).collect(),
        points,
        templates: Default::default(),
        limits,
        // Each point's versions have their own share; the run has no other limit.
        budget: Budget {
            total: std::time::Duration::from_secs(100_000),
            ..Budget::default()
        },
        per_point: std::time::Duration::from_secs(seconds),
    };
    let result = invariant_diffs(&refs, &graph, &config).expect("diffs");
    (programs, result)
}

fn proved(point: &PointResult, v: usize) -> Vec<String> {
    match &point.invariants[v] {
        VersionResult::Proved(list) => list.clone(),
        other => panic!("version {v} not decided: {other:?}"),
    }
}

fn lines(list: &[ripple_analyses::invariants::SourceLine]) -> Vec<u32> {
    list.iter().map(|l| l.line).collect()
}

/// 003 section II: three versions sharing the statements `c = b`, `x = a` and the call
/// at the end (the matched point). Version 1 sets `y = 2`; version 2 sets `x = 3` and
/// computes `y = x - 1`; version 3 keeps `x = 3` but overwrites it with 4 on both
/// branches of `c > 0` (lines 8 and 9) and computes `y = x - 2`.
#[test]
fn paper_section_two() {
    let files: Vec<_> = ["v1.c", "v2.c", "v3.c"]
        .iter()
        .map(|f| fixture(&format!("paper/{f}")))
        .collect();
    // The point: before `return use(x, y);`, line 8 of version 1.
    let (_, result) = diffs(&files, vec![("f".into(), At::Line(8))]);
    let point = &result.points[0];
    assert_eq!(
        point
            .lines
            .iter()
            .map(|l| l.as_ref().unwrap().line)
            .collect::<Vec<_>>(),
        [8, 9, 11]
    );
    // y is 2 in every version (2; 3 - 1; 4 - 2), c is the input b in every version.
    assert!(
        point.version_invariants.contains(&"y == 2".to_string()),
        "{point:#?}"
    );
    assert!(
        point.version_invariants.contains(&"c == b".to_string()),
        "{point:#?}"
    );
    // Version 1: x is the input a; version 2: 3; version 3: 4.
    assert!(proved(point, 0).contains(&"x == a".to_string()));
    assert!(proved(point, 1).contains(&"x == 3".to_string()));
    assert!(proved(point, 2).contains(&"x == 4".to_string()));
    assert!(!point.version_invariants.iter().any(|i| i.starts_with("x ")));
    // Churn 1 -> 2: the input-dependent invariant goes, `x == 3` comes; caused by the
    // added `x = 3` (line 7 of version 2) and the shared `x = a` (line 5).
    let c12 = point
        .churns
        .iter()
        .find(|c| c.from == 0 && c.to == 1)
        .expect("churn 1-2");
    assert_eq!(c12.removed, ["x == a"]);
    assert_eq!(c12.added, ["x == 3"]);
    assert_eq!(lines(&c12.lines.added), [7]);
    assert_eq!(lines(&c12.lines.shared), [5]);
    // Churn 2 -> 3: `x == 3` becomes `x == 4`; the two lines added in version 3 (8 and
    // 9) and the shared `x = 3` (7). The branch on c (and `c = b`, line 4) is not
    // responsible: x is 4 on both of its sides.
    let c23 = point
        .churns
        .iter()
        .find(|c| c.from == 1 && c.to == 2)
        .expect("churn 2-3");
    assert_eq!(c23.removed, ["x == 3"]);
    assert_eq!(c23.added, ["x == 4"]);
    assert_eq!(lines(&c23.lines.added), [8, 9]);
    assert_eq!(lines(&c23.lines.shared), [7]);
    assert!(c23.lines.removed.is_empty());
    // The shared statements are stored once.
    assert!(result.shared_nodes > 0);
}

/// Final values of the register locals of the called function (its last writes).
#[derive(Default)]
struct Finals {
    /// The locals of the function the run started with, as it returned.
    locals: Vec<Option<ripple_interp::Value>>,
}

impl ripple_interp::Observer for Finals {
    fn wants_locals(&self, depth: usize) -> bool {
        depth == 0
    }

    fn on_exit(&mut self, _: ripple_ir::FuncId, _: usize, locals: &[Option<ripple_interp::Value>]) {
        self.locals = locals.to_vec();
    }
}

/// Inputs for a function of `n` int parameters: boundary values (all combinations for
/// up to three parameters) and pseudo-random ones, small and full-range.
fn inputs(n: usize) -> Vec<Vec<i32>> {
    let wide = [
        0,
        1,
        -1,
        2,
        -2,
        3,
        7,
        10,
        100,
        999,
        1000,
        1001,
        -1000,
        i32::MAX,
        i32::MIN,
    ];
    let narrow = [0, 1, -1, 2, 1000, 1001, i32::MAX, i32::MIN];
    let boundary: &[i32] = if n <= 2 { &wide } else { &narrow };
    let mut out: Vec<Vec<i32>> = vec![vec![]];
    if n <= 3 {
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|prefix| {
                    boundary.iter().map(move |&b| {
                        let mut p = prefix.clone();
                        p.push(b);
                        p
                    })
                })
                .collect();
        }
    } else {
        out.clear();
        for &b in boundary {
            out.push(vec![b; n]);
        }
    }
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..200 {
        let args = (0..n)
            .map(|_| {
                let r = next();
                if i % 4 == 0 {
                    r as i32
                } else {
                    (r % 2201) as i32 - 1100
                }
            })
            .collect();
        out.push(args);
    }
    out
}

/// Runs the function of every exit point of `result` (version at position `v` of the
/// chosen versions) on many inputs and checks every invariant proved for it; returns the
/// number of (run, invariant) checks made. A false invariant fails the test.
fn validate(program: &Program, result: &InvariantDiff, v: usize) -> Checks {
    validate_on(program, result, v, &inputs)
}

/// [`validate`] on the inputs `inputs(n)` gives a function of `n` int parameters.
fn validate_on(
    program: &Program,
    result: &InvariantDiff,
    v: usize,
    inputs: &dyn Fn(usize) -> Vec<Vec<i32>>,
) -> Checks {
    use ripple_symex::term::{Repr, Term};
    let mut checks = Checks::default();
    for point in result.points.iter().filter(|p| p.at == At::Exit) {
        let Some(invariants) = &point.proved[v] else {
            continue;
        };
        let Some((fid, function)) = program
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == point.function && f.is_defined())
        else {
            continue;
        };
        let names = ripple_analyses::invariants::mvicfg::local_names(program, function);
        let reprs: Vec<Repr> = function
            .locals
            .iter()
            .map(|l| Repr::of(&program.types, l.ty))
            .collect();
        if function
            .params
            .iter()
            .any(|&p| !matches!(reprs[p.index()], Repr::Int { bits: 32, .. }))
        {
            continue;
        }
        for args in inputs(function.params.len()) {
            let values: Vec<ripple_interp::Value> = args
                .iter()
                .map(|&a| ripple_interp::Value::Int(u128::from(a as u32)))
                .collect();
            // Runs longer than this (count_down(INT_MAX)) are left out.
            let config = ripple_interp::RunConfig {
                max_steps: 20_000,
                ..ripple_interp::RunConfig::default()
            };
            let mut interp =
                ripple_interp::Interpreter::new(program, &config).expect("interpreter");
            let mut finals = Finals::default();
            let outcome = interp.call(fid, &values, &mut finals);
            let ripple_interp::CallResult::Returned(ret) = outcome.result else {
                continue;
            };
            let term_of = |value: &ripple_interp::Value, repr: Repr| match value {
                ripple_interp::Value::Int(bits) => Some(Term::Int(*bits, repr)),
                _ => None,
            };
            let mut inputs_map = rustc_hash::FxHashMap::default();
            for (k, &p) in function.params.iter().enumerate() {
                inputs_map.insert(
                    names[p.index()].clone(),
                    term_of(&values[k], reprs[p.index()]).unwrap(),
                );
            }
            // The value of each queried variable at the exit.
            let local_of = |name: &str| {
                function
                    .locals
                    .iter_enumerated()
                    .find(|(id, _)| &*names[id.index()] == name)
            };
            let in_memory: Vec<bool> = point
                .vars
                .iter()
                .map(|name| {
                    local_of(name).is_some_and(|(_, l)| l.storage != ripple_ir::Storage::Register)
                })
                .collect();
            let state: Vec<Option<Term>> = point
                .vars
                .iter()
                .map(|name| {
                    if name == "return" {
                        let r = function.ret_var?;
                        return term_of(ret.as_ref()?, reprs[r.index()]);
                    }
                    let (var, _) = local_of(name)?;
                    term_of(
                        finals.locals.get(var.index())?.as_ref()?,
                        reprs[var.index()],
                    )
                })
                .collect();
            for inv in invariants {
                if let Some(holds) = inv.holds(&state, &inputs_map) {
                    assert!(
                        holds,
                        "{}: invariant `{}` is false on inputs {args:?} (state {state:?})",
                        point.function,
                        inv.render(&point.vars)
                    );
                    checks.all += 1;
                    if inv.vars().iter().any(|&k| in_memory[k]) {
                        checks.memory += 1;
                    }
                }
            }
        }
    }
    checks
}

/// Invariants checked on runs: all of them, and those about a local kept in memory
/// (its address taken).
#[derive(Debug, Default)]
struct Checks {
    all: usize,
    memory: usize,
}

/// Programs with loops (for, while, goto), calls (entered, recursive), memory (through
/// pointers, arrays, possible aliasing, globals) and control flow (switch, short-circuit):
/// every invariant proved at every exit holds on every run of the interpreter, those
/// about locals kept in memory (`x` of `through_pointer`, whose address a callee writes
/// through) included.
#[test]
fn invariants_hold_on_executions() {
    let mut total = Checks::default();
    for name in ["loops.c", "calls.c", "memory.c", "control.c"] {
        let file = fixture(&format!("sound/{name}"));
        let (programs, result) = diffs(&[file.clone(), file], vec![]);
        assert!(!result.points.is_empty());
        let checks = validate(&programs[0], &result, 0);
        assert!(checks.all > 0, "{name}: nothing checked");
        total.all += checks.all;
        total.memory += checks.memory;
    }
    assert!(total.all > 1000, "{} checks", total.all);
    assert!(
        total.memory > 0,
        "no invariant about a memory local was checked"
    );
}

/// Invariants the analysis must find in those programs (each from reading the code).
#[test]
fn expected_invariants() {
    let cases: &[(&str, &str, &[&str])] = &[
        // `s + i - i` is `s` after the loop, and -1 (with s still 0) on the early return.
        ("loops.c", "sum_to", &["return <= s"]),
        // The loops leave only when their condition fails.
        ("loops.c", "count_down", &["return <= 0", "return == k"]),
        ("loops.c", "steps", &["n <= 0", "return == c"]),
        ("calls.c", "use_twice", &["return == a"]),
        ("calls.c", "use_clamp", &["return <= 5", "return >= -5"]),
        // fact recurses: not entered, its result unknown; g is still 3.
        ("calls.c", "use_fact", &["return == 3", "g == 3"]),
        ("memory.c", "through_pointer", &["return == a", "y == 3"]),
        ("memory.c", "arrays", &["return == a + b"]),
        ("memory.c", "global_write", &["return == a"]),
        ("control.c", "classify", &["return <= 30", "return >= 10"]),
        ("control.c", "signum", &["return <= 1", "return >= -1"]),
        ("control.c", "max3", &["a <= m", "b <= m", "c <= m"]),
        ("control.c", "shortcut", &["return >= 0"]),
    ];
    for (file, function, wanted) in cases {
        let path = fixture(&format!("sound/{file}"));
        let (_, result) = diffs(
            &[path.clone(), path],
            vec![(function.to_string(), At::Exit)],
        );
        let got = proved(&result.points[0], 0);
        for w in *wanted {
            assert!(
                got.contains(&w.to_string()),
                "{function}: `{w}` not in {got:?}"
            );
        }
    }
}

/// Buggy/fixed pairs of small numeric programs (areas, intersections, collinearity,
/// series, ...; the kind 003 section IV evaluates). `pairs/expected.txt` gives per pair an
/// invariant the fix must remove and one it must add (each fixed file says why in its
/// first line), and the fixed lines that must be named among the churn's added lines.
/// Every invariant proved for either version is also checked on executions.
#[test]
fn buggy_fixed_pairs() {
    use rayon::prelude::*;
    let table = std::fs::read_to_string(fixture("pairs/expected.txt")).expect("expected.txt");
    let rows: Vec<&str> = table.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(rows.len() >= 20, "{} pairs", rows.len());
    rows.par_iter().for_each(|line| {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, removed, added, fixlines] = cols[..] else {
            panic!("bad line {line:?}");
        };
        let files = [
            fixture(&format!("pairs/{name}.buggy.c")),
            fixture(&format!("pairs/{name}.fixed.c")),
        ];
        // Bounds of products and quotients take the solver a while.
        let (programs, result) = diffs_with(
            &files,
            vec![("task".into(), At::Exit)],
            20,
            QueryLimits::default(),
        );
        let point = &result.points[0];
        // The churns between the two versions (one per group of variables), together.
        let churns: Vec<_> = point
            .churns
            .iter()
            .filter(|c| c.from == 0 && c.to == 1)
            .collect();
        assert!(!churns.is_empty(), "{name}: no churn: {point:#?}");
        let all_removed: Vec<&String> = churns.iter().flat_map(|c| &c.removed).collect();
        let all_added: Vec<&String> = churns.iter().flat_map(|c| &c.added).collect();
        if removed != "-" {
            assert!(
                all_removed.iter().any(|r| *r == removed),
                "{name}: `{removed}` not removed: {churns:#?}"
            );
        }
        if added != "-" {
            assert!(
                all_added.iter().any(|a| *a == added),
                "{name}: `{added}` not added: {churns:#?}"
            );
        }
        let named: Vec<u32> = churns.iter().flat_map(|c| lines(&c.lines.added)).collect();
        for l in fixlines.split(',') {
            let l: u32 = l.trim().parse().expect("line");
            assert!(
                named.contains(&l),
                "{name}: fixed line {l} not among {named:?}"
            );
        }
        for (v, program) in programs.iter().enumerate() {
            validate(program, &result, v);
        }
    });
}

/// How many paths the query of `function`'s return value, raised at its exit, follows
/// back to the entry (one version of `file`).
fn paths_to_the_return(file: &Path, function: &str) -> usize {
    use ripple_analyses::invariants::query;
    use ripple_symex::term::Term;
    let program = lower(file);
    let graph = Mvicfg::build(&[&program], &[]);
    let f = graph
        .functions
        .iter()
        .position(|g| g.name == function)
        .expect("the function");
    let func = &graph.functions[f];
    let (name, repr) = func.ret.clone().expect("a return value");
    let result = query::propagate(
        &graph,
        f,
        func.exit,
        1,
        &[Term::Var(name, repr)],
        QueryLimits::default(),
    );
    result.paths.len()
}

/// 003's conflicts: in conflict.c, a path that takes the second `x > 0` branch one way
/// and the first one the other way cannot run (x does not change between them), so the
/// query of the return value ends it there: two paths reach the entry, not four. Both
/// feasible paths return 3 (1 + 2 and 0 + 3), which is still proved.
#[test]
fn a_branch_taken_both_ways_ends_the_path() {
    let file = fixture("conflict.c");
    assert_eq!(paths_to_the_return(&file, "f"), 2);
    let (_, diff) = diffs(&[file.clone(), file], vec![("f".into(), At::Exit)]);
    let got = proved(&diff.points[0], 0);
    assert!(got.contains(&"return == 3".to_string()), "{got:?}");
}

/// 003's conflicts found by reasoning over comparisons, not by a repeated branch: in
/// conflict_order.c, the path through all three increments needs a < b < c < a, so the
/// query ends it where its third comparison joins the other two: seven paths reach the
/// entry, not eight. The returns of the seven are 0 to 6, so `return <= 6` is proved;
/// the cut path alone would return 7.
#[test]
fn a_branch_that_contradicts_the_path_by_order_ends_it() {
    let file = fixture("conflict_order.c");
    assert_eq!(paths_to_the_return(&file, "g"), 7);
    let (_, diff) = diffs(&[file.clone(), file], vec![("g".into(), At::Exit)]);
    let got = proved(&diff.points[0], 0);
    assert!(got.contains(&"return <= 6".to_string()), "{got:?}");
    assert!(got.contains(&"return >= 0".to_string()), "{got:?}");
}

/// Bounded unrolling, reported as such. In unroll.c, `count(n)` returns how many times its
/// loop ran: max(n, 0). Havocked, the loop leaves `s` unknown, so nothing bounds the
/// result. Unrolled with each back edge taken at most twice, the paths that reach the
/// entry ran the loop 0, 1 or 2 times, returning 0, 1 or 2: `return <= 2` and
/// `return >= 0` hold on those executions, and `return == i` (true of every execution:
/// both count the iterations) is found too. The path that wanted a third iteration was
/// cut, so the loop (line 3) is listed and the point is bounded, not proved for all
/// executions (count(5) returns 5). Without unrolling, nothing is cut.
#[test]
fn unrolled_loops_give_bounded_invariants_said_to_be_bounded() {
    let file = fixture("unroll.c");
    let point = vec![("count".to_string(), At::Exit)];
    let (_, havocked) = diffs(&[file.clone(), file.clone()], point.clone());
    let sound = proved(&havocked.points[0], 0);
    assert!(!sound.contains(&"return <= 2".to_string()), "{sound:?}");
    assert!(havocked.points[0].unrolled.is_empty());
    assert_eq!(lines(&havocked.points[0].loops), [3]);
    let unroll = QueryLimits {
        unroll: Some(2),
        ..QueryLimits::default()
    };
    let (_, bounded) = diffs_with(&[file.clone(), file], point, 5, unroll);
    let got = proved(&bounded.points[0], 0);
    for expected in ["return <= 2", "return >= 0", "return == i"] {
        assert!(got.contains(&expected.to_string()), "{expected}: {got:?}");
    }
    assert_eq!(lines(&bounded.points[0].unrolled), [3]);
    assert!(bounded.points[0].loops.is_empty(), "nothing havocked");
    // They hold on the executions within the bound (n <= 2), in the interpreter.
    let (programs, _) = diffs(&[fixture("unroll.c")], vec![]);
    let within = |_: usize| (-3..=2).map(|n| vec![n]).collect::<Vec<_>>();
    let checks = validate_on(&programs[0], &bounded, 0, &within);
    assert!(checks.all >= 6 * got.len(), "{checks:?}");
}

/// Comparisons of inputs, clamps and remainders need no solver. In `min3` and
/// `median3` every candidate that fails is violated by one of the seed inputs (the
/// inputs ascending, descending or rotated, equal, at their extremes), and every one
/// that holds is implied, path by path, by the order of the path's comparisons (the
/// merged paths of `min3` case by case). In `hour12`, `h % 12 <= 11` follows from the
/// interval of a remainder by 12, and 11 is reached at h = 23, a seed at one of the
/// program's constants; in `grade`, (score - 50) / 10 for score in [0, 100] is within
/// [-5, 5] by intervals, and 5 is reached at the constant 100. Before seeds, case
/// splits and intervals, the four pairs asked 14, 13, 15 and 10 queries.
#[test]
fn simple_invariants_are_resolved_without_the_solver() {
    for (name, holds) in [
        ("min3", "return <= c"),
        ("median3", "return == mid"),
        ("hour12", "return <= 12"),
        ("grade", "return <= 4"),
    ] {
        let files = [
            fixture(&format!("pairs/{name}.buggy.c")),
            fixture(&format!("pairs/{name}.fixed.c")),
        ];
        let (_, result) = diffs(&files, vec![("task".into(), At::Exit)]);
        let point = &result.points[0];
        assert!(
            proved(point, 1).contains(&holds.to_string()),
            "{name}: {point:#?}"
        );
        assert!(!point.churns.is_empty(), "{name}: {point:#?}");
        assert_eq!(result.queries, 0, "{name}: {point:#?}");
    }
}

/// A local one version removes (hiredis 2a7b8fa removed the dead `start = s` of
/// `sdstrim`): `start == s` holds at the old exit, and the new version has no `start`
/// to hold anything of. That is no churn; what both versions have, `return == s`,
/// holds in both and is a version invariant.
#[test]
fn an_invariant_of_a_local_only_one_version_declares_is_no_churn() {
    let files = [
        fixture("removed_local/old.c"),
        fixture("removed_local/new.c"),
    ];
    let (_, diff) = diffs(&files, vec![("trim".into(), At::Exit)]);
    let point = &diff.points[0];
    assert!(
        proved(point, 0).contains(&"start == s".to_string()),
        "{:?}",
        proved(point, 0)
    );
    assert!(point.churns.is_empty(), "{:?}", point.churns);
    assert!(
        point
            .version_invariants
            .contains(&"return == s".to_string()),
        "{:?}",
        point.version_invariants
    );
}

/// The step limit bounds the work, not only the node visits (md4c 9e1165f: 20,000 visits
/// of `md_analyze_line` took 390 s and 9 GB, each visit carrying large values and
/// meeting thousands of paths). `grow` is straight-line: the query of its return visits
/// each of its 62 nodes once, on one path, and the value it carries grows by one
/// `* 3 + y` per statement going back (over 200 subterms at the entry). Carrying it
/// counts: the query takes more steps than it visits nodes, and a limit of the visits
/// alone stops it before the entry.
#[test]
fn large_values_count_toward_the_step_limit() {
    use ripple_analyses::invariants::query;
    use ripple_symex::term::Term;
    let dir = tempfile::tempdir().unwrap();
    let body: String = (0..60).map(|_| "    x = x * 3 + y;\n").collect();
    let file = dir.path().join("grow.c");
    std::fs::write(
        &file,
        format!("int grow(int x, int y)\n{{\n{body}    return x;\n}}\n"),
    )
    .unwrap();
    let program = lower(&file);
    let graph = Mvicfg::build(&[&program], &[]);
    let f = graph
        .functions
        .iter()
        .position(|g| g.name == "grow")
        .unwrap();
    let func = &graph.functions[f];
    let nodes = func.nodes.len();
    let (name, repr) = func.ret.clone().expect("a return value");
    let query = |steps: usize| {
        query::propagate(
            &graph,
            f,
            func.exit,
            1,
            &[Term::Var(name.clone(), repr)],
            QueryLimits {
                steps,
                ..QueryLimits::default()
            },
        )
    };
    let full = query(QueryLimits::default().steps);
    assert_eq!(full.incomplete, 0);
    assert_eq!(full.paths.len(), 1);
    assert!(
        full.steps > nodes + 10,
        "{} steps, {nodes} nodes",
        full.steps
    );
    assert_ne!(query(nodes).incomplete, 0);
}
