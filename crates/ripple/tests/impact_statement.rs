//! End-to-end tests of `ripple impact OLD NEW` at statement level (DCIA, 000 section 3.3)
//! on 000 Figure 1 (examples/dcia-fig1) and Figure 4 (examples/dcia-fig4).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn example(name: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
        .join(file)
}

/// Runs `ripple impact` on an example (analysing: the report cache has its own test);
/// returns (exit code, stdout).
fn impact(name: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(example(name, "old.c"))
        .arg(example(name, "new.c"))
        .args(extra)
        .arg("--no-cache")
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn impact_json(name: &str) -> serde_json::Value {
    impact_json_with(name, &[])
}

fn impact_json_with(name: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout) = impact(name, &args);
    assert_eq!(code, 1, "a change is exit code 1");
    serde_json::from_str(&stdout).expect("JSON")
}

/// The impacted lines of the new version in `function`.
/// What `ripple impact` prints with `extra` on two files written from `old` and `new`.
fn impact_of(old: &str, new: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), new).unwrap();
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["impact", "--no-cache"])
        .args(extra)
        .arg(dir.path().join("old.c"))
        .arg(dir.path().join("new.c"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `ripple impact --format json` of two files written from `old` and `new`.
fn impact_json_of(old: &str, new: &str) -> serde_json::Value {
    serde_json::from_str(&impact_of(old, new, &["--format", "json"])).unwrap()
}

fn new_lines(json: &serde_json::Value, function: &str) -> BTreeSet<u64> {
    json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == "new" && l["function"] == function)
        .map(|l| l["line"].as_u64().expect("a line"))
        .collect()
}

/// The chain of an impacted line of a report: the line, then the shared steps from its
/// `via` on (docs/json-schema.md, schema 2).
fn chain_of(json: &serde_json::Value, line: &serde_json::Value) -> serde_json::Value {
    let mut chain = vec![serde_json::json!(format!(
        "{}:{}",
        line["file"].as_str().expect("a file"),
        line["line"]
    ))];
    let mut at = line["via"].as_u64();
    while let Some(i) = at {
        let step = &json["chain_steps"][i as usize];
        chain.push(step["step"].clone());
        let next = step["next"].as_u64();
        assert!(
            next.is_none_or(|n| n < i),
            "a step points to an earlier one: {step}"
        );
        at = next;
    }
    serde_json::Value::Array(chain)
}

fn set(lines: &[u64]) -> BTreeSet<u64> {
    lines.iter().copied().collect()
}

#[test]
fn figure1_under_plain_dcia_impacts_the_four_print_functions() {
    let json = impact_json_with("dcia-fig1", &["--dcia-only"]);
    // Paper line N is file line N + 20. 000 section 1.1: a dataflow analysis marks every
    // statement of print_header, print_name, print_major_vers and print_minor_vers.
    // print_header (paper 18-19): its parameter delim is fed by the changed call
    // argument (paper 5, `line_delim` instead of '\n').
    assert_eq!(new_lines(&json, "print_header"), set(&[38, 39]));
    // print_name (paper 25-30): its parameter locale is the return value of locale_ok,
    // whose summary is impacted by the changed return (paper 23).
    assert_eq!(new_lines(&json, "print_name"), set(&[45, 46, 47, 48, 50]));
    // print_major_vers (paper 32-37): same reason as print_name.
    assert_eq!(
        new_lines(&json, "print_major_vers"),
        set(&[52, 53, 54, 55, 57])
    );
    // print_minor_vers (paper 39-44): locale as above, delim from the changed argument
    // (paper 14); paper line 41 is the one a semantic analysis keeps.
    assert_eq!(
        new_lines(&json, "print_minor_vers"),
        set(&[59, 60, 61, 62, 64])
    );
    // In print_product_info, paper lines 6, 8, 10, 11 and 16 (14 is itself changed).
    let caller = new_lines(&json, "print_product_info");
    for line in [26, 28, 30, 31, 36] {
        assert!(caller.contains(&line), "{caller:?} lacks {line}");
    }
    // The changed lines: old 24, 32, 42; new 21 (the added global line_delim: a global
    // that exists in one version only is a change), 25, 33, 34, 43.
    let changed: BTreeSet<(String, u64)> = json["changed_lines"]
        .as_array()
        .expect("changed_lines")
        .iter()
        .map(|l| {
            (
                l["version"].as_str().expect("a version").to_string(),
                l["line"].as_u64().expect("a line"),
            )
        })
        .collect();
    let expected: BTreeSet<(String, u64)> = [
        ("old", 24),
        ("old", 32),
        ("old", 42),
        ("new", 21),
        ("new", 25),
        ("new", 33),
        ("new", 34),
        ("new", 43),
    ]
    .into_iter()
    .map(|(v, l)| (v.to_string(), l))
    .collect();
    assert_eq!(changed, expected);
    // No impacted line is a changed line, and every chain ends at a changed statement.
    for line in json["impacted_lines"].as_array().expect("lines") {
        let key = (
            line["version"].as_str().expect("a version").to_string(),
            line["line"].as_u64().expect("a line"),
        );
        assert!(!changed.contains(&key), "{line}");
        let chain = chain_of(&json, line);
        let chain = chain.as_array().expect("a chain");
        assert!(
            chain
                .last()
                .and_then(|s| s.as_str())
                .expect("a step")
                .ends_with(" changed"),
            "{line}"
        );
    }
    // Paper line 41 is explained by a chain from the changed call (paper 14): into
    // print_minor_vers, whose every statement the changed call impacts.
    let line41 = json["impacted_lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["version"] == "new" && l["line"] == 61)
        .expect("line 61 impacted");
    let chain = chain_of(&json, line41);
    let chain: Vec<&str> = chain
        .as_array()
        .expect("a chain")
        .iter()
        .map(|s| s.as_str().expect("a step"))
        .collect();
    assert_eq!(chain.first(), Some(&"new.c:61"));
    assert_eq!(chain.last(), Some(&"new.c:34 changed"), "{chain:?}");
    assert!(chain.len() <= 4, "{chain:?}");
}

#[test]
fn whole_functions_as_sources_are_what_000s_prototype_took() {
    // `--sources function`: every statement of a function whose body changed is a change
    // (000 section 4, "Differencing"). In print_product_info, the declaration (line 23)
    // and `if (name)` (27) read nothing the change wrote, so statement sources leave them
    // out; as sources they are impacted, and so is the entry (22). Its changed lines
    // (25, 33, 34) stay changed, not impacted.
    let coarse = impact_json_with("dcia-fig1", &["--dcia-only", "--sources", "function"]);
    let fine = impact_json_with("dcia-fig1", &["--dcia-only"]);
    assert_eq!(
        new_lines(&fine, "print_product_info"),
        set(&[26, 28, 30, 31, 36])
    );
    assert_eq!(
        new_lines(&coarse, "print_product_info"),
        set(&[22, 23, 26, 27, 28, 30, 31, 36])
    );
    // Coarser sources impact a superset: every line statement sources impact.
    let all = |json: &serde_json::Value| -> BTreeSet<(String, u64)> {
        json["impacted_lines"]
            .as_array()
            .expect("impacted_lines")
            .iter()
            .map(|l| {
                (
                    l["version"].to_string(),
                    l["line"].as_u64().expect("a line"),
                )
            })
            .collect()
    };
    assert!(all(&fine).is_subset(&all(&coarse)));
    assert_eq!(fine["changed_lines"], coarse["changed_lines"]);
}

#[test]
fn figure4_under_plain_dcia_impacts_everything_downstream_of_main() {
    let (code, stdout) = impact("dcia-fig4", &["--format", "json", "--dcia-only"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    // main's call f1(x+0) (line 13) changed; f1 ... f5 each receive a value computed
    // from it, so every statement of theirs is impacted; main's own later lines are not.
    for (function, lines) in [
        ("f1", [17, 18]),
        ("f2", [20, 21]),
        ("f3", [23, 24]),
        ("f4", [26, 27]),
        ("f5", [29, 30]),
    ] {
        assert_eq!(new_lines(&json, function), set(&lines), "{function}");
    }
    assert_eq!(new_lines(&json, "main"), set(&[]));
    assert_eq!(json["summary"]["impacted_lines"], 20);
    assert_eq!(json["equivalences"], serde_json::json!([]));
}

/// 000 section 4 on Figure 4: x+0 is x, so f1 receives what it did (the argument is
/// proved equal) and SEM-DCIA impacts nothing outside main.
#[test]
fn figure4_by_default_impacts_nothing_outside_main() {
    let json = impact_json("dcia-fig4");
    assert_eq!(json["summary"]["impacted_lines"], 0, "{json:#}");
    assert_eq!(json["proved_equivalent"], true, "{json:#}");
    let eq = &json["equivalences"][0];
    assert_eq!(eq["function"], "main");
    assert_eq!(eq["new_lines"], serde_json::json!([13]));
}

#[test]
fn json_shape_and_determinism() {
    let (_, first) = impact("dcia-fig1", &["--format", "json"]);
    let (_, second) = impact("dcia-fig1", &["--format", "json"]);
    assert_eq!(first, second, "byte-identical output");
    let json: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    assert_eq!(json["schema"], 2);
    assert_eq!(json["level"], "statement");
    let line = &json["impacted_lines"][0];
    for key in ["file", "line", "version", "function", "via", "distance"] {
        assert!(line.get(key).is_some(), "impacted line lacks {key}: {line}");
    }
    let changed = &json["changed_lines"][0];
    for key in ["file", "line", "version"] {
        assert!(changed.get(key).is_some(), "changed line lacks {key}");
    }
    // Sorted: old before new, then by file and line.
    let keys: Vec<(bool, String, u64)> = json["impacted_lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["version"] == "new",
                l["file"].as_str().expect("a file").to_string(),
                l["line"].as_u64().expect("a line"),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

/// 000 section 1.1 with SEM-DCIA: `!!setlocale(...)` is proved to do what
/// `setlocale(...) ? 1 : 0` did, so locale_ok's summary and everything fed by it (print_name,
/// print_major_vers, locale in print_minor_vers) is no longer impacted; the call of
/// print_minor_vers runs as before and only its argument delim differs, so of
/// print_minor_vers only the printf that prints delim (paper line 41; 59 is its header,
/// counted because a parameter is impacted) is. print_header is not impacted:
/// `print_header(line_delim)` passes the '\n' that `print_header('\n')` passed, since no
/// write of line_delim can run before it in any run from main (line 33 comes after, and
/// print_product_info is called once): the solver proves the two calls the same with
/// line_delim's initial value, and the read of line_delim there is not impacted.
#[test]
fn figure1_with_statement_equivalences_keeps_the_printf_of_print_minor_vers() {
    let json = impact_json("dcia-fig1");
    assert_eq!(new_lines(&json, "print_minor_vers"), set(&[59, 61]));
    for f in [
        "print_header",
        "print_name",
        "print_major_vers",
        "print_product_info",
        "main",
    ] {
        assert_eq!(new_lines(&json, f), set(&[]), "{f}");
    }
    // Paper line 41 prints the changed argument.
    let line41 = json["impacted_lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["version"] == "new" && l["line"] == 61)
        .expect("line 61 impacted");
    assert_eq!(
        chain_of(&json, line41),
        serde_json::json!([
            "new.c:61",
            "delim (param of print_minor_vers)",
            "new.c:34 call argument changed"
        ])
    );
    // The reduction is against plain DCIA on the same graphs.
    let plain = impact_json_with("dcia-fig1", &["--dcia-only"]);
    assert_eq!(
        json["summary"]["dcia_impacted_lines"],
        plain["summary"]["impacted_lines"]
    );
    assert_eq!(
        plain["summary"]["dcia_impacted_lines"],
        plain["summary"]["impacted_lines"]
    );
    assert!(
        json["summary"]["impacted_lines"].as_u64() < plain["summary"]["impacted_lines"].as_u64()
    );
    let functions: Vec<&str> = json["equivalences"]
        .as_array()
        .expect("equivalences")
        .iter()
        .map(|e| e["function"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(functions, ["print_product_info", "locale_ok"]);
    let eq = &json["equivalences"][1];
    assert_eq!(eq["new_lines"], serde_json::json!([43]));
    assert_eq!(
        json["equivalences"][0]["new_lines"],
        serde_json::json!([25])
    );
    assert_eq!(json["proved_equivalent"], false);
}

#[test]
fn text_groups_by_function_with_chains() {
    let (code, text) = impact("dcia-fig1", &["--all", "--dcia-only"]);
    assert_eq!(code, 1);
    // The summary leads: counts, then lines per distance.
    let first = text.lines().next().expect("a summary");
    assert!(first.contains("impacted line(s)"), "{text}");
    assert!(text.contains("\n  distance 1: "), "{text}");
    // print_minor_vers is called by a changed statement: distance 1.
    assert!(
        text.contains("  print_minor_vers (distance 1):\n"),
        "{text}"
    );
    assert!(text.contains("\n    new new.c:61 <- "), "{text}");
    // Without --all, a function shows its nearest lines and says how many are left.
    let (_, short) = impact("dcia-fig1", &["--dcia-only"]);
    assert!(short.contains(" more line(s)\n"), "{short}");
    assert!(short.len() < text.len());
}

/// Each impacted line carries its distance (the steps of its chain), the summary counts
/// lines per distance, and `--depth N` keeps exactly the lines within distance N: a
/// prefix of the full report, said so.
#[test]
fn impact_by_distance_and_depth() {
    let full = impact_json_with("dcia-fig1", &["--dcia-only"]);
    let lines = full["impacted_lines"].as_array().expect("lines");
    for l in lines {
        let chain = chain_of(&full, l).as_array().expect("a chain").len() as u64;
        assert_eq!(l["distance"].as_u64(), Some(chain - 1), "{l}");
    }
    let counted: u64 = full["summary"]["by_distance"]
        .as_array()
        .expect("by_distance")
        .iter()
        .map(|c| c["lines"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, lines.len() as u64);
    // new.c:59 prints the changed value of line 34 directly.
    assert!(lines
        .iter()
        .any(|l| l["version"] == "new" && l["line"] == 59 && l["distance"] == 1));
    let (code, text) = impact(
        "dcia-fig1",
        &["--depth", "1", "--format", "json", "--dcia-only"],
    );
    assert_eq!(code, 1);
    let near: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let near_lines = near["impacted_lines"].as_array().expect("lines");
    // The same lines with the same chains (the indices of their shared steps may differ).
    let with_chain = |json: &serde_json::Value, l: &serde_json::Value| {
        let mut l = l.clone();
        l["via"] = chain_of(json, &l);
        l
    };
    let expected: Vec<serde_json::Value> = lines
        .iter()
        .filter(|l| l["distance"] == 1)
        .map(|l| with_chain(&full, l))
        .collect();
    assert_eq!(near_lines.len(), expected.len());
    assert!(near_lines
        .iter()
        .all(|l| expected.contains(&with_chain(&near, l))));
    assert_eq!(near["summary"]["depth"], 1);
    let (_, text) = impact("dcia-fig1", &["--depth", "1", "--dcia-only"]);
    assert!(
        text.contains("within distance 1 (a prefix of the full impact)"),
        "{text}"
    );
}

#[test]
fn no_change_is_exit_code_0() {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(example("dcia-fig4", "old.c"))
        .arg(example("dcia-fig4", "old.c"))
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing impacted"));
}

#[test]
fn approximations_are_reported_with_the_impact() {
    // The inline assembly is a havoc in both versions: the report says so. Fig. 1 has
    // nothing the IR does not model: no approximation.
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, k: u32| {
        let path = dir.path().join(name);
        let src = format!(
            "int g;\nvoid barrier(void) {{ __asm__ volatile(\"\" ::: \"memory\"); }}\n\
             int f(int x) {{ barrier(); return x + {k}; }}\n"
        );
        std::fs::write(&path, src).unwrap();
        path
    };
    let (old, new) = (write("old.c", 1), write("new.c", 2));
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["impact", "--format", "json"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes: Vec<&str> = json["approximations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes.iter().any(|n| n.starts_with("old: 1 construct(s)")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.starts_with("new: 1 construct(s)")),
        "{notes:?}"
    );

    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["impact", "--format", "json"])
        .arg(example("dcia-fig1", "old.c"))
        .arg(example("dcia-fig1", "new.c"))
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // What is left is the whole-function proofs' (one changed function not proved).
    let notes = json["approximations"].as_array().unwrap();
    assert!(
        notes.iter().all(|n| n
            .as_str()
            .is_some_and(|n| n.contains("not proved equivalent as a whole"))),
        "{notes:?}"
    );
}

/// `--points-to` chooses how memory is abstracted. Through `r`, unification puts `a`
/// and `b` in one region, so the changed store to `a` reaches the read of `b` (line 8);
/// inclusion-based points-to keeps them apart (`p` may point to `a` only), and is what
/// `auto` runs on a program this small. Unification is said so in the report.
#[test]
fn the_points_to_analysis_is_chosen_and_unification_is_reported() {
    let source = |k: u32| {
        format!(
            "int a, b, x, y;\nint main(void) {{\n    int *p = &a;\n    int *q = &b;\n\
             int *r = p;\n    r = q;\n    *p = {k};\n    x = b;\n    y = a;\n\
             return x + y + *r;\n}}\n"
        )
    };
    let run = |choice: &[&str]| {
        let json = impact_of_versions(source, choice);
        let unification = approximations(&json)
            .iter()
            .any(|n| n.contains("unification points-to"));
        (lines_of(&json, "new"), unification)
    };
    let (precise, said) = run(&[]);
    assert!(precise.contains(&9) && !precise.contains(&8), "{precise:?}");
    assert!(!said);
    assert_eq!(run(&["--points-to", "inclusion"]), (precise.clone(), false));
    let (coarse, said) = run(&["--points-to", "unification"]);
    assert!(
        coarse.contains(&8) && coarse.is_superset(&precise),
        "{coarse:?}"
    );
    assert!(said, "the report says unification ran");
}

/// A heap block (whose type points-to does not know) with more fields addressed than
/// points-to keeps apart (32) has its further fields share one cell: the report says so
/// and names it.
#[test]
fn fields_merged_by_points_to_are_reported() {
    let fields: String = (0..40).map(|i| format!("int *f{i}; ")).collect();
    let stores: String = (0..40).map(|i| format!("    p->f{i} = &x;\n")).collect();
    let json = impact_of_versions(
        |k| {
            format!(
                "#include <stdlib.h>\nstruct wide {{ {fields}}};\nint x;\n\
                 int main(void) {{\n    struct wide *p = malloc(sizeof *p);\n    if (!p) return 1;\n{stores}    x = {k};\n    return *p->f39;\n}}\n"
            )
        },
        &[],
    );
    let notes = approximations(&json);
    for version in ["old", "new"] {
        assert!(
            notes.iter().any(|n| n.starts_with(&format!(
                "{version}: points-to keeps apart the members of an object's type and at most 32 other offsets (elements of arrays of numbers, fields of heap blocks); heap block allocated at {version}.c:5 had more"
            ))),
            "{notes:?}"
        );
    }
}

/// A global record with 40 addressed fields keeps them apart: every member of a type
/// has a cell of its own, whatever their number, so no field shares one cell and the
/// report says nothing of merged fields.
#[test]
fn the_members_of_a_wide_record_are_kept_apart() {
    let fields: String = (0..40).map(|i| format!("int *f{i}; ")).collect();
    let stores: String = (0..40).map(|i| format!("    p->f{i} = &x;\n")).collect();
    let json = impact_of_versions(
        |k| {
            format!(
                "struct wide {{ {fields}}};\nstruct wide w;\nint x;\n\
                 int main(void) {{\n    struct wide *p = &w;\n{stores}    x = {k};\n    return *p->f39;\n}}\n"
            )
        },
        &[],
    );
    let notes = approximations(&json);
    assert!(
        !notes.iter().any(|n| n.contains("points-to keeps apart")),
        "{notes:?}"
    );
}

/// A changed store through a pointer that may address many objects: the explanation of
/// a line reached through one of them (here `a3`, passed to `get3`) says how many the
/// store may write, so a reader sees the chain goes through an imprecise pointer.
#[test]
fn a_chain_through_a_wide_store_says_how_many_objects_it_may_write() {
    let names: Vec<String> = (0..10).map(|i| format!("a{i}")).collect();
    let json = impact_of_versions(
        |k| {
            format!(
                "int {}, out;\nint get3(void) {{ return a3; }}\nint main(int argc, char **argv) {{\n\
                 int *table[10] = {{ &{} }};\n    int *p = table[argc % 10];\n    *p = {k};\n\
                 out = get3();\n    return out;\n}}\n",
                names.join(", "),
                names.join(", &")
            )
        },
        &[],
    );
    let line = json["impacted_lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["version"] == "new" && l["line"] == 2)
        .expect("`return a3` is impacted");
    let chain = chain_of(&json, line);
    let chain: Vec<&str> = chain
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert!(
        chain
            .iter()
            .any(|s| s.ends_with("a3 passed to get3, one of 10 objects new.c:6 may write")),
        "{chain:?}"
    );
    // Where it spreads: the store, not whichever of its objects a chain passed.
    let hubs = json["summary"]["hubs"].as_array().unwrap();
    assert!(
        hubs.iter().any(|h| h["version"] == "new"
            && h["name"] == "the 10 objects new.c:6 may write"
            && h["chain_lines"].as_u64() >= Some(1)),
        "{hubs:?}"
    );
}

/// The summary by distance keeps the first screen: past eight rows the far distances are
/// folded into one (every row with `--all`). A chain of globals, each the last plus one,
/// puts one line at each distance from 1 to 12.
#[test]
fn far_distances_are_folded_in_the_text_summary() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, k: u32| {
        let path = dir.path().join(name);
        let steps: String = (1..=12)
            .map(|i| format!("    x{i} = x{} + 1;\n", i - 1))
            .collect();
        let globals: Vec<String> = (0..=12).map(|i| format!("x{i}")).collect();
        let src = format!(
            "int {};\nint main(void) {{\n    x0 = {k};\n{steps}    return x12;\n}}\n",
            globals.join(", ")
        );
        std::fs::write(&path, src).unwrap();
        path
    };
    let (old, new) = (write("old.c", 1), write("new.c", 2));
    let text = |all: bool| {
        let mut command = Command::cargo_bin("ripple").unwrap();
        command.args(["impact", "--no-cache"]).arg(&old).arg(&new);
        if all {
            command.arg("--all");
        }
        String::from_utf8(command.output().unwrap().stdout).unwrap()
    };
    let folded = text(false);
    let rows: Vec<&str> = folded
        .lines()
        .filter(|l| l.starts_with("  distance "))
        .collect();
    assert_eq!(rows.len(), 8, "{folded}");
    assert!(rows[6].starts_with("  distance 7: "), "{folded}");
    // Distances 8 to 12 (and the return line's 13): one line each, in both versions.
    assert!(
        rows[7].starts_with("  distance 8 to 13: 12 line(s)"),
        "{folded}"
    );
    let every = text(true);
    assert!(every.contains("  distance 13: "), "{every}");
    assert!(!every.contains(" to 13"), "{every}");
}

/// A function with code the IR does not model (here inline assembly, a havoc) keeps its
/// memory flow-insensitive: a write reaches reads before it too. The chain says so, or
/// it would seem to run backwards (the assembly on line 4 impacted by the store on 5).
#[test]
fn a_chain_through_unordered_memory_says_so() {
    let json = impact_of_versions(
        |k| {
            format!(
                "int a, out;\nint main(int argc, char **argv) {{\n    int *p = &a;\n\
                 __asm__ volatile(\"\" ::: \"memory\");\n    *p = {k};\n    out = a;\n    return out;\n}}\n"
            )
        },
        &[],
    );
    let line4 = json["impacted_lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["version"] == "new" && l["line"] == 4)
        .expect("the assembly is impacted");
    assert!(
        chain_of(&json, line4)
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "a (memory in main, any write to any read)"),
        "{line4}"
    );
}

/// A file-scope static and a static local keep their identity when the file is renamed:
/// identical copies under two names change nothing and impact nothing (the statics'
/// keys name their unit, so they must be paired by name within it).
#[test]
fn statics_of_a_renamed_file_are_not_changes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdio.h>\n\
                static int limit = 10;\n\
                int next(void) {\n    static int count = 3;\n    return ++count;\n}\n\
                int main(void) {\n    printf(\"%d\\n\", limit);\n    return next();\n}\n";
    let (a, b) = (dir.path().join("a.c"), dir.path().join("b.c"));
    std::fs::write(&a, text).unwrap();
    std::fs::write(&b, text).unwrap();
    let (code, json) = impact_paths_json(&a, &b);
    assert_eq!(code, 0, "{json}");
    assert_eq!(
        json["impacted_lines"].as_array().map(Vec::len),
        Some(0),
        "{json}"
    );
    // A changed initial value of the static still impacts its reader (line 8).
    std::fs::write(&b, text.replace("limit = 10", "limit = 11")).unwrap();
    let (code, json) = impact_paths_json(&a, &b);
    assert_eq!(code, 1, "{json}");
    assert!(new_lines(&json, "main").contains(&8), "{json}");
}

/// Inline assembly reads its input operands and writes its outputs: a changed value
/// that reaches an input reaches what reads the outputs. Here `x2` only feeds the
/// assembly (`movl %1, %0` copies it into `y`), so the change of line 2 impacts the
/// return of line 5 through it (compiled, f(1) returns 2 in the old version and 3 in
/// the new one); read as a havoc without operands, `x2` was dead and nothing was
/// impacted.
#[test]
fn inline_assembly_carries_impact_from_its_inputs_to_its_outputs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "int f(int x) {\n    int x2 = x + 1;\n    int y = 0;\n    \
                __asm__ volatile(\"movl %1, %0\" : \"=r\"(y) : \"r\"(x2));\n    \
                return y;\n}\n";
    let (code, json) = impact_of_edit(dir.path(), text, "x + 1", "x + 2");
    assert_eq!(code, 1, "{json}");
    assert!(new_lines(&json, "f").contains(&5), "{json}");
    // An in-out operand (`+r`) is read too: a change of its value before the
    // assembly reaches the return.
    let inout = "int f(int x) {\n    int y = x + 1;\n    \
                 __asm__ volatile(\"incl %0\" : \"+r\"(y));\n    return y;\n}\n";
    let (code, json) = impact_of_edit(dir.path(), inout, "x + 1", "x + 2");
    assert_eq!(code, 1, "{json}");
    assert!(new_lines(&json, "f").contains(&4), "{json}");
}

/// Code the IR does not model reads what it is given and the variables it names: a
/// change of `y` (line 2) reaches the return (line 4) through an unknown builtin's
/// argument, through an unreadable expression that names `y`, through an unreadable
/// statement on `y` (whose readable part, `y = 2`, is not taken as all it does), and
/// through an unsupported statement. Three were missed impacts when the havoc read
/// only memory.
#[test]
fn unmodelled_code_carries_impact_from_what_it_reads() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for third in [
        "    int z = __builtin_frobnicate(y);\n",
        "    int z = y @ 2;\n",
        "    y @= 2; int z = y;\n",
    ] {
        let text = format!("int f(int x) {{\n    int y = x + 1;\n{third}    return z;\n}}\n");
        let (_, json) = impact_of_edit(dir.path(), &text, "x + 1", "x + 2");
        assert!(new_lines(&json, "f").contains(&4), "{third}: {json}");
    }
    // An unsupported statement (`__try`, Windows structured exceptions) that stores `y`
    // in a global: the global's read (line 5) is impacted.
    let text = "int g;\nint f(int x) {\n    int y = x + 1;\n    \
                __try { g = y; } __finally { }\n    return g;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "x + 1", "x + 2");
    assert!(new_lines(&json, "f").contains(&5), "{json}");
}

/// Writes `text` as `old.c` and `text` with `from` replaced by `to` as `new.c` in `dir`,
/// and runs `ripple impact` on them: (exit code, JSON).
fn impact_of_edit(dir: &Path, text: &str, from: &str, to: &str) -> (i32, serde_json::Value) {
    let (a, b) = (dir.join("old.c"), dir.join("new.c"));
    std::fs::write(&a, text).unwrap();
    std::fs::write(&b, text.replace(from, to)).unwrap();
    impact_paths_json(&a, &b)
}

/// Runs `ripple impact OLD NEW --format json` on two paths: (exit code, JSON).
fn impact_paths_json(old: &Path, new: &Path) -> (i32, serde_json::Value) {
    impact_paths_json_with(old, new, &[])
}

/// Writes `source(1)` as `old.c` and `source(2)` as `new.c` in a temporary directory and
/// runs `ripple impact --format json` with `extra` on them.
fn impact_of_versions(source: impl Fn(u32) -> String, extra: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&a, source(1)).unwrap();
    std::fs::write(&b, source(2)).unwrap();
    impact_paths_json_with(&a, &b, extra).1
}

/// The report's approximations, as text.
fn approximations(json: &serde_json::Value) -> Vec<&str> {
    json["approximations"]
        .as_array()
        .expect("approximations")
        .iter()
        .filter_map(|n| n.as_str())
        .collect()
}

fn impact_paths_json_with(old: &Path, new: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(["impact", "--format", "json"])
        .args(extra)
        .arg(old)
        .arg(new)
        .output()
        .expect("ripple runs");
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), json)
}

/// The impacted lines of one version, in every function.
fn lines_of(json: &serde_json::Value, version: &str) -> BTreeSet<u64> {
    json["impacted_lines"]
        .as_array()
        .expect("impacted_lines")
        .iter()
        .filter(|l| l["version"] == version)
        .map(|l| l["line"].as_u64().expect("a line"))
        .collect()
}

#[test]
fn memory_dependences_follow_the_order_of_execution() {
    // docs/frama-c/memory-order: only the store `*p = 1` / `*p = 2` on line 8 differs.
    // Line 7 (`before = *p`) runs before the store in the only activation of `set`, and
    // line 9 prints `before`, so neither reads a changed value; line 13 prints `x` before
    // the call to `set` on line 14. Line 15 prints `x` after the call: 1 in the old
    // version, 2 in the new one. Nothing else reads memory written at or after line 8
    // (the call on line 14 itself reads only `&x`, the same in both), so line 15 is the
    // only impacted line, in both versions.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/frama-c/memory-order");
    let (code, json) = impact_paths_json(&dir.join("old.c"), &dir.join("new.c"));
    assert_eq!(code, 1, "{json}");
    assert_eq!(lines_of(&json, "old"), set(&[15]), "{json}");
    assert_eq!(lines_of(&json, "new"), set(&[15]), "{json}");

    // In a loop, a store later in the body reaches a load earlier in it (through the
    // back edge): the changed store on line 7 impacts the load on line 5 and the print
    // of what it read (line 6), and the load after the loop (line 9); line 3 runs before
    // the loop and stays unimpacted.
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdio.h>\n\
                void run(int *p, int n) {\n    printf(\"%d\\n\", *p);\n    for (int i = 0; i < n; i++) {\n        int v = *p;\n        printf(\"%d\\n\", v);\n        *p = i + 1;\n    }\n    printf(\"%d\\n\", *p);\n}\n\
                int main(void) {\n    int x = 0;\n    run(&x, 3);\n    return 0;\n}\n";
    let (a, b) = (tmp.path().join("a.c"), tmp.path().join("b.c"));
    std::fs::write(&a, text).unwrap();
    std::fs::write(&b, text.replace("*p = i + 1;", "*p = i + 2;")).unwrap();
    let (code, json) = impact_paths_json(&a, &b);
    assert_eq!(code, 1, "{json}");
    assert_eq!(new_lines(&json, "run"), set(&[5, 6, 9]), "{json}");
    assert!(new_lines(&json, "main").is_empty(), "{json}");
}

/// The report cache serves `ripple impact` too: a second run from the same sources and
/// options reads the impact back (`--verbose` says so) and prints what a run without the
/// cache prints, in text and SARIF; other options analyse again.
#[test]
fn the_impact_computed_before_is_read_back_from_the_cache() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let db = dir.path().join("cache.redb");
    let db = db.to_str().expect("a UTF-8 path");
    let run = |extra: &[&str]| -> (String, String, Option<i32>) {
        let out = Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .arg("impact")
            .arg(example("dcia-fig1", "old.c"))
            .arg(example("dcia-fig1", "new.c"))
            .args(extra)
            .output()
            .expect("ripple runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let read_back = |stderr: &str| stderr.contains("report from the cache");
    for format in ["text", "sarif"] {
        let (fresh, _, code) = run(&["--format", format, "--no-cache"]);
        // Something changed: exit code 1, read back or not.
        assert_eq!(code, Some(1));
        let (first, said, first_code) = run(&["--format", format, "--cache", db, "--verbose"]);
        assert_eq!(read_back(&said), format == "sarif", "{format}: {said}");
        assert_eq!((first, first_code), (fresh.clone(), code), "{format}");
        let (second, said, second_code) = run(&["--format", format, "--cache", db, "--verbose"]);
        assert!(read_back(&said), "{format}: {said}");
        // Read back before lowering: the versions are not lowered again.
        assert!(!said.contains("load and lower"), "{format}: {said}");
        assert_eq!((second, second_code), (fresh, code), "{format}");
    }
    let (_, said, _) = run(&["--dcia-only", "--cache", db, "--verbose"]);
    assert!(!read_back(&said), "{said}");
}

/// examples/dcia-longjmp-const: `level = argc + 1` becomes `argc + 2`; `check` may
/// `longjmp`, which ripple reads (with `setjmp`) as unknown code that may read and write
/// memory, so `main`'s lines from the `setjmp` on and `check`'s are impacted. `lookup`
/// reads the string literal `"xyz"` at `argc % 3`: a string literal is never written
/// (that is undefined behaviour), not even by unknown code, and `argc`, an `int`, cannot
/// hold an address, so neither `lookup` nor the call that stores its result (line 21) is
/// impacted: both versions read the same byte.
#[test]
fn unknown_code_does_not_write_string_literals_and_an_int_argument_points_nowhere() {
    let json = impact_json("dcia-longjmp-const");
    assert_eq!(new_lines(&json, "lookup"), set(&[]), "{json:#}");
    assert_eq!(new_lines(&json, "main"), set(&[23, 24, 25, 26]));
    assert_eq!(new_lines(&json, "check"), set(&[11, 12]));
}

#[test]
fn what_the_c_library_keeps_carries_impact() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // A file written, rewound and read back: with `n + 1` written, `fgetc` (line 7)
    // reads another byte. (`fputc` was taken to write nothing.)
    let text = "#include <stdio.h>\nint main(int argc, char **argv) {\n    int n = argc;\n    \
                FILE *f = tmpfile();\n    fputc('a' + n, f);\n    rewind(f);\n    \
                int c = fgetc(f);\n    return c;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "'a' + n", "'a' + n + 1");
    assert!(new_lines(&json, "main").contains(&7), "{json}");
    // `sqrt` of a negative number sets errno to EDOM, which line 6 reads.
    let text = "#include <errno.h>\n#include <math.h>\nint main(int argc, char **argv) {\n    \
                errno = 0;\n    double r = sqrt((double)argc);\n    int e = errno;\n    \
                return e + (int)r;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "(double)argc", "(double)argc - 5.0");
    assert!(new_lines(&json, "main").contains(&6), "{json}");
    // `perror` prints errno, which `strtol` sets on overflow.
    let text = "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n    \
                long v = strtol(argv[1], NULL, 10);\n    perror(\"conv\");\n    return (int)v;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "NULL, 10", "NULL, 16");
    assert!(new_lines(&json, "main").contains(&5), "{json}");
    // `%n` stores how many characters were printed: `n * 100` prints more digits, and
    // line 6 reads another `len`.
    let text =
        "#include <stdio.h>\nint main(int argc, char **argv) {\n    int n = argc, len = 0;\n    \
                char buf[32];\n    snprintf(buf, sizeof buf, \"%d%n\", n, &len);\n    \
                return len * 2;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "\", n, &len", "\", n * 100, &len");
    assert!(new_lines(&json, "main").contains(&6), "{json}");
    // The same through a wrapper passing its format on to `vprintf` (gcc: exit 3 in the
    // old version, 4 in the new, run without arguments).
    let text =
        "#include <stdio.h>\n#include <stdarg.h>\nstatic int say(const char *f, ...) {\n    \
                va_list ap;\n    va_start(ap, f);\n    int r = vprintf(f, ap);\n    \
                va_end(ap);\n    return r;\n}\nint main(int argc, char **argv) {\n    \
                int k = 0;\n    say(\"%d%n\\n\", argc * 100, &k);\n    return k;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "argc * 100", "argc * 1000");
    assert!(new_lines(&json, "main").contains(&13), "{json}");
}

#[test]
fn the_runtime_calls_constructors_before_main_and_destructors_after_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // `init` runs before main: `g = 6` instead of `g = 5` changes what line 7 reads.
    let text = "static int g;\n__attribute__((constructor)) static void init(void) {\n    \
                g = 5;\n}\nint main(int argc, char **argv) {\n    int n = argc;\n    \
                int v = g + n;\n    return v;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "g = 5", "g = 6");
    assert!(new_lines(&json, "main").contains(&7), "{json}");
    // `fini` runs after main returns and reads what main wrote (line 3).
    let text = "#include <stdio.h>\nstatic int g;\nstatic void __attribute__((destructor)) fini(void) {\n    \
                printf(\"%d\\n\", g);\n}\nint main(int argc, char **argv) {\n    g = argc;\n    \
                return 0;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "g = argc;", "g = argc + 1;");
    assert!(new_lines(&json, "fini").contains(&4), "{json}");
    // Nothing changed: the calls the runtime makes are no change.
    let (code, json) = impact_of_edit(dir.path(), text, "g = argc;", "g = argc;");
    assert_eq!(code, 0, "{json}");
}

#[test]
fn a_helper_extracted_from_changed_code_is_inlined_in_the_proof() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // The difference of two table entries moved into a new static function: the
    // statement is proved equal with the call inlined, and the helper, run only from
    // there, is no source either: nothing is impacted (as `sqlite3_strnicmp`'s
    // `caseDiff` in scripts/written-edits.py).
    let text = "#include <stdio.h>\nstatic const unsigned char Up[256] = { ['a'] = 'A', ['b'] = 'B' };\n\
                int cmp(const unsigned char *a, const unsigned char *b, int n) {\n    \
                while (n-- > 0 && *a != 0 && Up[*a] == Up[*b]) { a++; b++; }\n    \
                return n < 0 ? 0 : Up[*a] - Up[*b];\n}\n\
                int main(int argc, char **argv) {\n    \
                printf(\"%d\\n\", cmp((const unsigned char *)argv[0], (const unsigned char *)\"ab\", argc));\n    \
                return 0;\n}\n";
    let helper = "static int diff(const unsigned char *a, const unsigned char *b) { return Up[*a] - Up[*b]; }\nint cmp(";
    let extracted = text
        .replace("int cmp(", helper)
        .replace("0 : Up[*a] - Up[*b];", "0 : diff(a, b);");
    let (a, b) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&a, text).unwrap();
    std::fs::write(&b, &extracted).unwrap();
    let (_, json) = impact_paths_json(&a, &b);
    assert_eq!(lines_of(&json, "new"), BTreeSet::new(), "{json:#}");
    assert_eq!(lines_of(&json, "old"), BTreeSet::new(), "{json:#}");
    // The helper adding 1 for `a` at 200 changes what cmp returns (gcc: `cmp` of
    // "\310" and "ab" with n = 1 returns -65 then -64), so main prints another value.
    std::fs::write(
        &b,
        extracted.replace("Up[*b]; }", "Up[*b] + (*a == 200); }"),
    )
    .unwrap();
    let (_, json) = impact_paths_json(&a, &b);
    assert!(new_lines(&json, "main").contains(&9), "{json:#}");
    // A store moved into a helper: `*p = v` and `put(p, v)` leave the same memory.
    let text = "int g;\nvoid f(int *p, int v) {\n    *p = v + 1;\n}\n\
                int main(int argc, char **argv) {\n    f(&g, argc);\n    return g;\n}\n";
    let helper = "static void put(int *p, int v) { *p = v; }\nvoid f(";
    std::fs::write(&a, text).unwrap();
    std::fs::write(
        &b,
        text.replace("void f(", helper)
            .replace("*p = v + 1;", "put(p, v + 1);"),
    )
    .unwrap();
    let (_, json) = impact_paths_json(&a, &b);
    assert_eq!(lines_of(&json, "new"), BTreeSet::new(), "{json:#}");
    // And the same helper storing `v` once more than it should: main returns another g.
    std::fs::write(
        &b,
        text.replace("void f(", helper)
            .replace("*p = v + 1;", "put(p, v);"),
    )
    .unwrap();
    let (_, json) = impact_paths_json(&a, &b);
    assert!(new_lines(&json, "main").contains(&8), "{json:#}");
}

#[test]
fn parameters_swapped_in_a_definition_impact_its_callers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // The body is unchanged, but `a` and `b` are the other arguments now (gcc: for the
    // arguments 5 3 the old version prints 2, the new one -2). The statement prover
    // took the registers by name, so `a - b` was "proved" equal and nothing impacted.
    let text = "#include <stdio.h>\n#include <stdlib.h>\nstatic int sub(int a, int b) {\n    \
                return a - b;\n}\nint main(int argc, char **argv) {\n    \
                int x = argc > 1 ? atoi(argv[1]) : 0;\n    \
                int y = argc > 2 ? atoi(argv[2]) : 0;\n    int r = sub(x, y);\n    \
                printf(\"%d\\n\", r);\n    return 0;\n}\n";
    let (_, json) = impact_of_edit(dir.path(), text, "sub(int a, int b)", "sub(int b, int a)");
    assert!(new_lines(&json, "main").contains(&10), "{json:#}");
}

/// Whether a function returns depends on the branches that decide whether a call that
/// may not return runs, not on every branch of the function. In `clamp`, only `v < 0`
/// guards the `exit`: changing `v > 10` to `v > 20` changes the value returned (line 19
/// prints 10, then 15, with no argument, compiled with gcc) but not whether `clamp`
/// returns, so `puts("clamped")` on line 18 runs as before and is not impacted. Changing
/// the guard itself (`v < 0` to `v < 16`) makes the new version exit with 2 before line
/// 18 (gcc), which is then impacted.
#[test]
fn only_the_branches_that_guard_an_exit_decide_whether_a_function_returns() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdio.h>\n#include <stdlib.h>\n\n\
                static int clamp(int v) {\n    if (v < 0)\n        exit(2);\n    int r;\n    \
                if (v > 10)\n        r = 10;\n    else\n        r = v;\n    return r;\n}\n\n\
                int main(int argc, char **argv) {\n    (void)argv;\n    int x = clamp(argc * 15);\n    \
                puts(\"clamped\");\n    printf(\"%d\\n\", x);\n    return 0;\n}\n";
    let (code, json) = impact_of_edit(dir.path(), text, "v > 10", "v > 20");
    assert_eq!(code, 1, "{json}");
    assert_eq!(new_lines(&json, "main"), set(&[17, 19]), "{json}");
    let (code, json) = impact_of_edit(dir.path(), text, "v < 0", "v < 16");
    assert_eq!(code, 1, "{json}");
    assert!(new_lines(&json, "main").contains(&19), "{json}");
}

/// A division by zero ends the program (SIGFPE compiled for x86-64), so whether a
/// changed division traps decides whether what follows it runs. `ratio(10, argc - 1)`
/// with no argument divides by 0: compiled with gcc the old version dies before
/// `puts("done")` (line 13); the new one, which tests `b` first (or no longer divides),
/// prints "done" and 0. So lines 12-15 of `main` are impacted, through whether `ratio`
/// returns. Changing only the dividend changes the value printed on line 14 but not
/// whether the division traps (that depends on the divisor), so line 13 is not impacted.
#[test]
fn whether_a_changed_division_traps_decides_what_follows_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdio.h>\n#include <stdlib.h>\n\nint g;\n\n\
                static void ratio(int a, int b) {\n    g = a / b;\n}\n\n\
                int main(int argc, char **argv) {\n    (void)argv;\n    ratio(10, argc - 1);\n    \
                puts(\"done\");\n    printf(\"%d\\n\", g);\n    return 0;\n}\n";
    for to in ["g = b ? a / b : 0;", "g = a;"] {
        let (code, json) = impact_of_edit(dir.path(), text, "g = a / b;", to);
        assert_eq!(code, 1, "{json}");
        let all: BTreeSet<u64> = lines_of(&json, "old")
            .union(&lines_of(&json, "new"))
            .copied()
            .collect();
        assert!(set(&[12, 13, 14, 15]).is_subset(&all), "{to}: {json}");
    }
    let (code, json) = impact_of_edit(dir.path(), text, "g = a / b;", "g = (a + 1) / b;");
    assert_eq!(code, 1, "{json}");
    assert_eq!(new_lines(&json, "main"), set(&[14]), "{json}");
}

/// A `cleanup` attribute's function runs when its variable's scope is left, here at the
/// closing brace on line 9: a change in `keep` (`last = *p` to `last = *p + 1`) reaches
/// the read of `last` on line 10 and its print on line 11 through that call (gcc: 5,
/// then 6). The attribute is modelled: no construct is left as a havoc.
#[test]
fn a_cleanup_function_runs_where_its_variable_goes_out_of_scope() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdio.h>\nstatic int last;\n\
                static void keep(int *p) { last = *p; }\n\
                int main(int argc, char **argv) {\n    (void)argv;\n    {\n        \
                int v __attribute__((cleanup(keep))) = argc + 4;\n        (void)v;\n    }\n    \
                int copy = last;\n    printf(\"%d\\n\", copy);\n    return 0;\n}\n";
    let (code, json) = impact_of_edit(dir.path(), text, "last = *p;", "last = *p + 1;");
    assert_eq!(code, 1, "{json}");
    assert_eq!(new_lines(&json, "main"), set(&[10, 11]), "{json}");
    let notes = json["approximations"].as_array().expect("approximations");
    assert!(
        !notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains("havoc"))),
        "{json}"
    );
}

/// A chain of 40 globals, each the last plus one, each set by a function of its own
/// that `main` calls in turn: the nearest line of the k-th function is about 2k steps
/// from the change, and the chains share their ends.
fn long_chain_versions(dir: &Path) -> (PathBuf, PathBuf) {
    let write = |name: &str, k: u32| {
        let path = dir.join(name);
        let functions: String = (1..=40)
            .map(|i| format!("void f{i}(void) {{ x{i} = x{} + 1; }}\n", i - 1))
            .collect();
        let calls: String = (1..=40).map(|i| format!("    f{i}();\n")).collect();
        let globals: Vec<String> = (0..=40).map(|i| format!("x{i}")).collect();
        let src = format!(
            "int {};\n{functions}int main(void) {{\n    x0 = {k};\n{calls}    return x40;\n}}\n",
            globals.join(", ")
        );
        std::fs::write(&path, src).unwrap();
        path
    };
    (write("old.c", 1), write("new.c", 2))
}

/// The JSON holds each chain's shared end once (schema 2): every chain reads back from
/// `via` and `chain_steps` as the steps the text prints with `--all`, ending at the
/// change, its length the line's distance; written out per line (schema 1) the chains
/// made the document several times larger.
#[test]
fn long_chains_are_shared_in_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = long_chain_versions(dir.path());
    let (code, json) = impact_paths_json_with(&old, &new, &["--no-cache"]);
    assert_eq!(code, 1);
    assert_eq!(json["schema"], 2);
    let lines = json["impacted_lines"].as_array().unwrap();
    assert!(
        lines.iter().any(|l| l["distance"].as_u64() > Some(60)),
        "{json:#}"
    );
    let mut written_out = json.clone();
    for (i, l) in lines.iter().enumerate() {
        let chain = chain_of(&json, l);
        let chain = chain.as_array().unwrap();
        assert_eq!(l["distance"].as_u64(), Some(chain.len() as u64 - 1), "{l}");
        assert!(
            chain
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .ends_with(" changed"),
            "{l}"
        );
        let line = &mut written_out["impacted_lines"][i];
        line.as_object_mut().unwrap().remove("via");
        line["chain"] = serde_json::Value::Array(chain.clone());
    }
    written_out.as_object_mut().unwrap().remove("chain_steps");
    let size = serde_json::to_string_pretty(&json).unwrap().len();
    let old_size = serde_json::to_string_pretty(&written_out).unwrap().len();
    assert!(
        size * 3 < old_size,
        "{size} bytes shared, {old_size} written out"
    );
    assert!(size < 40_000, "{size}");
    // The text with --all prints the same chains whole.
    let all = String::from_utf8(
        Command::cargo_bin("ripple")
            .unwrap()
            .args(["impact", "--no-cache", "--all"])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    for l in lines {
        let chain: Vec<String> = chain_of(&json, l)
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let printed = format!(
            "    {} {}\n",
            l["version"].as_str().unwrap(),
            chain.join(" <- ")
        );
        assert!(all.contains(&printed), "{printed}");
    }
}

/// Without `--all` the text cuts long chains to their first and last steps, counting
/// the others, and says where they are whole; the Markdown report too, and it folds the
/// far distances into one row as the text does.
#[test]
fn long_chains_are_cut_in_the_text_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = long_chain_versions(dir.path());
    let run = |extra: &[&str]| {
        let out = Command::cargo_bin("ripple")
            .unwrap()
            .args(["impact", "--no-cache"])
            .args(extra)
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[]);
    let longest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(longest <= 200, "a line of {longest} characters:\n{text}");
    assert!(text.contains(" steps … <- "), "{text}");
    assert!(
        text.contains("--all or --format json gives them whole"),
        "{text}"
    );
    let every = run(&["--all"]);
    assert!(every.lines().any(|l| l.chars().count() > 400), "{every}");
    assert!(!every.contains(" steps … <- "), "{every}");
    let markdown = run(&["--format", "markdown"]);
    let rows: Vec<&str> = markdown
        .lines()
        .filter(|l| l.starts_with("| ") && l.chars().nth(2).is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 8, "{markdown}");
    assert!(rows[7].contains(" to 81 | "), "{markdown}");
    let longest = markdown.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(
        longest <= 400,
        "a line of {longest} characters:\n{markdown}"
    );
    assert!(markdown.contains(" steps … "), "{markdown}");
}

#[test]
fn the_statement_before_an_inserted_one_is_no_change() {
    // c-ares' fixes insert a guard after an unchanged statement (`i = n;` here). That
    // statement leaves the node mapping (its successor is new), but it computes what it
    // did: it is neither changed nor impacted, and nothing it writes is a source. Only
    // the `return` after the guard may run a different number of times.
    let old = "int f(int n)\n{\n  int i = 0;\n  int k = n * 2;\n  i = n;\n  return i + k;\n}\n";
    let new = old.replace("  i = n;\n", "  i = n;\n  if (i > 5)\n    return -1;\n");
    let json = impact_json_of(old, &new);
    let lines: BTreeSet<(String, u64)> = json["impacted_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["version"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected: BTreeSet<(String, u64)> = [("old".to_string(), 6), ("new".to_string(), 8)]
        .into_iter()
        .collect();
    assert_eq!(lines, expected, "{json:#}");
    let text = impact_of(old, &new, &[]);
    assert!(
        text.contains("what runs after line 5 differs between the versions")
            && !text.contains("old.c:5 changed"),
        "{text}"
    );
}

#[test]
fn what_a_library_leaves_between_calls_is_impact() {
    // A library (no `main`): a client may call `load` then `total`, `set_level` then
    // `get_level`, `make` then `get`. With gcc, load(c, 0, 100000) then total(c) gives
    // 100000 in the old version and 65536 in the new; get_level() after set_level(1)
    // gives 2 and 3; get(make()) 1 and 2. Nothing outside the changed lines was
    // impacted: no call of the program joins those functions.
    let old = "#include <stdlib.h>\n\
typedef struct { unsigned size; } Entry;\n\
typedef struct { Entry *entries; unsigned count; } Content;\n\
static void set_size(Entry *e, unsigned s) { e->size = s; }\n\
void load(Content *c, unsigned i, unsigned s) { if (i < c->count) set_size(&c->entries[i], s); }\n\
unsigned total(const Content *c) {\n\
  unsigned t = 0, j;\n\
  for (j = 0; j < c->count; j++)\n\
    t += c->entries[j].size;\n\
  return t;\n\
}\n\
static int level = 3;\n\
void set_level(int l) { level = l + 1; }\n\
int get_level(void) { return level; }\n\
typedef struct { int n; } P;\n\
P *make(void) { P *p = malloc(sizeof *p); if (!p) return 0; p->n = 1; return p; }\n\
int get(P *p) { return p->n; }\n";
    let new = old
        .replace("e->size = s;", "e->size = s > 65536 ? 65536 : s;")
        .replace("level = l + 1;", "level = l + 2;")
        .replace("p->n = 1;", "p->n = 2;");
    let json = impact_json_of(old, &new);
    let functions: BTreeSet<&str> = json["impacted_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["function"].as_str().unwrap())
        .collect();
    for f in ["total", "get_level", "get"] {
        assert!(functions.contains(f), "{f} missing: {json:#}");
    }
    assert!(
        json["approximations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a.as_str().unwrap().starts_with("a library (no main)")),
        "{json:#}"
    );
}

#[test]
fn a_string_literal_added_is_no_changed_global() {
    // The new `a` names a literal the old program lacks. Only the changed statement
    // reaches it; as a changed global it was also a source at the entry of every root
    // function, through every object it shares a region with (jansson 19126c2: 3,110
    // lines whose chains began "string literal "%s" at src/load.c:134 (and 33 aliased
    // objects) changed").
    let old = "static int a(int x) { const char *s = x ? \"one\" : \"uno\"; return s[0]; }\nint main(int argc, char **argv) { (void)argv; return a(argc > 1); }\n";
    let new = old.replace("x ? \"one\"", "x > 1 ? \"zero\" : x ? \"one\"");
    let json = impact_json_of(old, &new);
    let steps = json["chain_steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .all(|s| !s["step"].as_str().unwrap().contains("string literal")),
        "{json:#}"
    );
    // main still reads what `a` returns.
    assert!(
        json["impacted_lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["function"] == "main"),
        "{json:#}"
    );
}

#[test]
fn a_function_proved_equivalent_as_a_whole_impacts_no_read_before_its_writes() {
    // zlib 9859a94 reduced: `undermine` drops a store that the next one overwrites, so
    // it leaves `*s` as before and returns what it did: the whole-function proof holds.
    // `S` is kept flow-insensitive in every function (a callback `atexit` registers
    // reads it), so without the proof the dropped store reaches every read of `S`,
    // also `int was = s->sane;` before it, which a run sees only in a later call of
    // `undermine`, after a whole run of it that leaves `S` as before.
    let old = "#include <stdlib.h>\n\
        struct st { int sane; int mode; };\n\
        struct st S;\n\
        static void handler(void) {\n\
            if (S.sane)\n\
                S.mode = 2;\n\
        }\n\
        int undermine(struct st *s, int subvert) {\n\
            if (s == 0)\n\
                return -1;\n\
            int was = s->sane;\n\
            s->sane = !subvert;\n\
            s->sane = 1;\n\
            return was;\n\
        }\n\
        int main(int argc, char **argv) {\n\
            atexit(handler);\n\
            return undermine(&S, argc > 1);\n\
        }\n";
    let equivalent = old.replace("s->sane = !subvert;\n", "");
    assert_ne!(equivalent, old);
    let json = impact_json_of(old, &equivalent);
    assert_eq!(json["summary"]["changed_lines"], 1, "{json}");
    assert_eq!(json["impacted_lines"], serde_json::json!([]), "{json}");
    // The last store changed to 2: a later call reads it at line 11 and the handler at
    // line 5 (line numbers of the new version, which lost line 12).
    let changed = equivalent.replace("s->sane = 1;", "s->sane = 2;");
    let json = impact_json_of(old, &changed);
    assert_eq!(new_lines(&json, "undermine"), set(&[11, 13]), "{json}");
    assert_eq!(new_lines(&json, "handler"), set(&[5, 6]), "{json}");
    // The proof is about the function, not its inputs: main now passes another
    // `subvert`, which the proved function stores in `s->mode` (new line 13), and main
    // returns it (new line 19).
    let with_mode = |text: &str| {
        text.replace("s->sane = 1;\n", "s->sane = 1;\ns->mode = subvert;\n")
            .replace(
                "return undermine(&S, argc > 1);",
                "undermine(&S, argc > 1);\nreturn S.mode;",
            )
    };
    let (old, new) = (
        with_mode(old),
        with_mode(&equivalent).replace("argc > 1", "argc > 2"),
    );
    let json = impact_json_of(&old, &new);
    assert!(new_lines(&json, "undermine").contains(&13), "{json}");
    assert!(new_lines(&json, "main").contains(&19), "{json}");
    assert!(
        json["equivalences"].to_string().contains("undermine"),
        "{json}"
    );
}

/// A `setjmp` reads no memory: it returns again, with a `longjmp`'s value, when a later
/// call jumps back. So a change that reaches no `longjmp` (the banner `main` prints)
/// leaves `work` alone, where `setjmp` used to read all memory and impact every line
/// after it; a change deciding whether `check` jumps (`limit`) or with what value
/// (`code + 1`) still reaches the `setjmp` and what it decides (lines 11 and 12 of
/// `work`), and so does a change of what a call into library code that may jump reads.
#[test]
fn a_call_of_unknown_library_code_may_not_return() {
    // `lib_check` belongs to another library: it may exit (or jump) depending on what
    // it is given, so what runs after a call whose argument changed is impacted: line 6
    // of `step` and lines 12-13 of `main` run only when it returns (line 5 is the change). (With a `lib_check`
    // that exits when its argument is above 1, the old program returns 3 and the new
    // one exits for a run without arguments.)
    let old = "extern void lib_check(int code);\nint after;\nstatic void step(int k)\n{\n    \
               lib_check(k);\n    after = 1;\n}\nint main(int argc, char **argv)\n{\n    \
               (void)argv;\n    step(argc);\n    after += 2;\n    return after;\n}\n";
    let json = impact_json_of(old, &old.replace("lib_check(k);", "lib_check(k + 1);"));
    assert_eq!(new_lines(&json, "step"), set(&[6]), "{json:#}");
    assert!(
        new_lines(&json, "main").is_superset(&set(&[12, 13])),
        "{json:#}"
    );
    // A library function known to return (`puts`) decides nothing of the kind.
    let old = old
        .replace(
            "extern void lib_check(int code);",
            "#include <stdio.h>\nstatic char buf[16];",
        )
        .replace("lib_check(k);", "buf[0] = (char)('0' + k); puts(buf);");
    let json = impact_json_of(&old, &old.replace("'0' + k", "'1' + k"));
    assert!(new_lines(&json, "main").is_empty(), "{json:#}");
}

#[test]
fn a_setjmp_depends_on_the_jumps_back_to_it_not_on_all_memory() {
    let old = "#include <setjmp.h>\n#include <stdio.h>\nstatic jmp_buf jb;\n\
               static const char *banner = \"hello\";\n\
               static int limit = 10;\n\
               static void fail(int code) { longjmp(jb, code); }\n\
               static void check(int k) { if (k > limit) fail(1); }\n\
               int work(int k)\n{\n    int r = 0;\n    if (setjmp(jb))\n        return -1;\n    \
               check(k);\n    r = k * 2;\n    return r;\n}\n\
               int main(int argc, char **argv)\n{\n    (void)argv;\n    puts(banner);\n    \
               return work(argc);\n}\n";
    let banner = impact_json_of(old, &old.replace("\"hello\"", "\"hello, world\""));
    assert_eq!(new_lines(&banner, "work"), set(&[]), "{banner:#}");
    let limit = impact_json_of(old, &old.replace("limit = 10", "limit = 11"));
    assert!(
        new_lines(&limit, "work").is_superset(&set(&[11, 12])),
        "{limit:#}"
    );
    let value = impact_json_of(
        old,
        &old.replace("longjmp(jb, code)", "longjmp(jb, code + 1)"),
    );
    assert!(
        new_lines(&value, "work").is_superset(&set(&[11, 12])),
        "{value:#}"
    );
    // What a function writes before it jumps is read after the `setjmp` returns again
    // (line 10 of `work`).
    let old =
        "#include <setjmp.h>\nstatic jmp_buf jb;\nstatic int state;\nstatic int limit = 10;\n\
               static void fail(int code) { state = code; longjmp(jb, 1); }\n\
               static void check(int k) { if (k > limit) fail(k); }\n\
               int work(int k)\n{\n    if (setjmp(jb))\n        return state;\n    check(k);\n    \
               return k * 2;\n}\n\
               int main(int argc, char **argv)\n{\n    (void)argv;\n    return work(argc);\n}\n";
    let written = impact_json_of(old, &old.replace("state = code;", "state = code + 1;"));
    assert!(new_lines(&written, "work").contains(&10), "{written:#}");
    // Library code may jump back too (libpng's errors `longjmp` to the program's
    // buffer): a change of what an unknown external reads, through a callee, reaches
    // the `setjmp` (line 8) and its `return -1` (line 9).
    let old = "#include <setjmp.h>\nextern int lib_read(int *buf);\nstatic jmp_buf jb;\nint data[4];\n\
               static int helper(void) { return lib_read(data); }\n\
               int work(void)\n{\n    if (setjmp(jb))\n        return -1;\n    return helper();\n}\n\
               int main(void)\n{\n    data[0] = 1;\n    return work();\n}\n";
    let library = impact_json_of(old, &old.replace("data[0] = 1;", "data[0] = 2;"));
    assert!(
        new_lines(&library, "work").is_superset(&set(&[8, 9])),
        "{library:#}"
    );
}
