//! `ripple impact --format sarif` and `--format markdown`: the SARIF log validates
//! against the SARIF 2.1.0 JSON schema (the schema the `serde-sarif` crate ships, read
//! from its package in the cargo registry) and reads back as SARIF; fingerprints are the
//! same from run to run; findings sit on the changed lines with the impacted lines as
//! related locations and chains as code flows. Fixtures in `tests/impact/`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn fixture(name: &str, version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact")
        .join(name)
        .join(version)
}

fn impact(name: &str, format: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(fixture(name, "old"))
        .arg(fixture(name, "new"))
        .args(["--format", format])
        .args(extra)
        // Each run analyses (runs are compared).
        .arg("--no-cache")
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
    )
}

/// `ripple impact --format sarif` on two files written from `old` and `new`.
fn sarif_of(old: &str, new: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("a scratch directory");
    std::fs::write(dir.path().join("old.c"), old).unwrap();
    std::fs::write(dir.path().join("new.c"), new).unwrap();
    let out = assert_cmd::Command::cargo_bin("ripple")
        .unwrap()
        .args(["impact", "--no-cache", "--format", "sarif"])
        .arg(dir.path().join("old.c"))
        .arg(dir.path().join("new.c"))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn sarif(name: &str) -> serde_json::Value {
    let (code, text) = impact(name, "sarif", &[]);
    assert_eq!(code, 1, "a change is exit code 1");
    serde_json::from_str(&text).expect("JSON")
}

/// The SARIF 2.1.0 schema from the `serde-sarif` package (a dev-dependency, so cargo
/// has unpacked it in the registry).
fn sarif_schema() -> serde_json::Value {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let registry = home.join("registry/src");
    let mut found = Vec::new();
    for index in std::fs::read_dir(&registry).expect("the cargo registry") {
        let index = index.expect("an entry").path();
        for package in std::fs::read_dir(&index).into_iter().flatten().flatten() {
            let name = package.file_name().to_string_lossy().to_string();
            if name.starts_with("serde-sarif-") {
                let schema = package.path().join("src/schema.json");
                if schema.exists() {
                    found.push(schema);
                }
            }
        }
    }
    found.sort();
    let path = found
        .last()
        .expect("serde-sarif's schema.json in the cargo registry");
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON")
}

/// Replaces every `pattern` equal to `bad` by the language-tag pattern; how many.
fn fix_pattern(value: &mut serde_json::Value, bad: &str) -> usize {
    match value {
        serde_json::Value::Object(map) => {
            let mut n = 0;
            for (key, v) in map.iter_mut() {
                if key == "pattern" && v.as_str() == Some(bad) {
                    *v = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                    n += 1;
                } else {
                    n += fix_pattern(v, bad);
                }
            }
            n
        }
        serde_json::Value::Array(items) => items.iter_mut().map(|v| fix_pattern(v, bad)).sum(),
        _ => 0,
    }
}

/// Asserts that `log` validates against the SARIF 2.1.0 schema (its language-tag
/// pattern fixed, as explained below).
fn validate(log: &serde_json::Value) {
    let mut schema = sarif_schema();
    fix_pattern(&mut schema, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
    let validator = jsonschema::validator_for(&schema).expect("a usable schema");
    let errors: Vec<String> = validator.iter_errors(log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn sarif_validates_against_the_schema_and_reads_back() {
    let mut schema = sarif_schema();
    // The published schema's language-tag pattern (of `run.language` and
    // `toolComponent.language`) has an unbalanced `]`, which the meta-schema's `regex`
    // format rejects; each is replaced by what it means (a tag such as `en` or `en-US`).
    // ripple writes no `language`.
    let fixed = fix_pattern(&mut schema, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
    assert!(fixed > 0, "the schema has the pattern to fix");
    let validator = jsonschema::validator_for(&schema).expect("a usable schema");
    for name in [
        "known-global",
        "masked-by-caller",
        "equivalent-rewrites",
        "hub-global-struct",
    ] {
        let log = sarif(name);
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        // The validator does reject what the schema forbids.
        let mut broken = log.clone();
        broken["runs"][0]["results"][0]["level"] = serde_json::json!("severe");
        broken["runs"][0]["tool"]["driver"]["rules"][0]["unknownField"] = serde_json::json!(1);
        assert!(validator.iter_errors(&broken).count() >= 2, "{name}");
        let typed: serde_sarif::sarif::Sarif =
            serde_json::from_value(log.clone()).expect("reads back as SARIF");
        assert_eq!(typed.runs.len(), 1);
    }
}

#[test]
fn fingerprints_are_the_same_from_run_to_run() {
    let fingerprints = |log: &serde_json::Value| -> Vec<serde_json::Value> {
        log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    let (a, b) = (sarif("known-global"), sarif("known-global"));
    assert!(!fingerprints(&a).is_empty());
    assert_eq!(fingerprints(&a), fingerprints(&b));
    assert_eq!(a, b, "the whole log is deterministic");
}

/// A changed global's impact (its chains start at no changed line) goes with the first
/// hunk of its version, in that hunk's one result: it was a second result at the same
/// place with the same fingerprint, which code scanning merges or drops.
#[test]
fn one_result_per_changed_hunk() {
    let old = "#include <stdio.h>\nint scale(int x) {\n  return x * 2;\n}\nint limit = 10;\nint main(void) {\n  int v = scale(3);\n  if (v > limit) puts(\"big\");\n  return v;\n}\n";
    let new = old
        .replace("x * 2", "x * 3")
        .replace("limit = 10", "limit = 20");
    let log = sarif_of(old, &new);
    let fingerprints: Vec<String> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["partialFingerprints"].to_string())
        .collect();
    let mut unique = fingerprints.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), fingerprints.len(), "{log:#}");
    assert_eq!(fingerprints.len(), 2, "one per version's hunk: {log:#}");
}

/// known-global: `cap(3)` becomes `cap(limit)` on line 13 (impacting cap's printf on
/// line 7 in both versions) and `show(1)` becomes `show(mode)` on line 10 (proved to
/// pass the same value): one RPL001 finding per version's line 13, with line 7 as
/// related location and the chain 13 -> 7 as code flow, and one RPL002 at new line 10.
/// Both sit in the new version, which code scanning reads; the old one keeps its place
/// as its first related location.
#[test]
fn findings_sit_on_the_changed_lines() {
    let log = sarif("known-global");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "RPL001");
    let results = run["results"].as_array().expect("results");
    let at = |r: &serde_json::Value| {
        let loc = &r["locations"][0]["physicalLocation"];
        (
            loc["artifactLocation"]["uriBaseId"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            loc["region"]["startLine"].as_u64().unwrap_or(0),
        )
    };
    let impact: Vec<&serde_json::Value> =
        results.iter().filter(|r| r["ruleId"] == "RPL001").collect();
    let places: Vec<(String, String, u64)> = impact.iter().map(|r| at(r)).collect();
    assert_eq!(
        places,
        [
            ("NEWROOT".to_string(), "prog.c".to_string(), 13),
            ("NEWROOT".to_string(), "prog.c".to_string(), 13)
        ]
    );
    for r in &impact {
        let mut related = r["relatedLocations"].as_array().expect("related").clone();
        if r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("of the old version")
        {
            let place = related.remove(0);
            assert_eq!(
                place["physicalLocation"]["artifactLocation"]["uriBaseId"],
                "OLDROOT"
            );
            assert_eq!(place["physicalLocation"]["region"]["startLine"], 13);
            assert_eq!(place["message"]["text"], "the old version's line 13");
        }
        assert_eq!(related.len(), 1);
        assert_eq!(related[0]["physicalLocation"]["region"]["startLine"], 7);
        let flow = r["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("a thread flow");
        let lines: Vec<u64> = flow
            .iter()
            .map(|l| {
                l["location"]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(lines, [13, 7]);
        assert!(r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("cap (distance 2)"));
    }
    let proved: Vec<(String, String, u64)> = results
        .iter()
        .filter(|r| r["ruleId"] == "RPL002")
        .map(at)
        .collect();
    assert_eq!(proved, [("NEWROOT".to_string(), "prog.c".to_string(), 10)]);
}

#[test]
fn markdown_leads_with_the_verdict_and_lists_functions_nearest_first() {
    let (code, text) = impact("known-global", "markdown", &[]);
    assert_eq!(code, 1);
    let first_bold = text
        .lines()
        .find(|l| l.starts_with("**"))
        .expect("a summary line");
    assert!(
        first_bold.contains(
            "4 changed line(s); 2 impacted line(s) (1 of the old version, 1 of the new) in 1 function(s)"
        ),
        "{text}"
    );
    assert!(text.contains("| `cap` | 2 | 2 | `prog.c:7` ← `l (param of cap)` ← `prog.c:13 call argument changed` |"), "{text}");
    assert!(
        text.contains("- argument 1 in `run`") || text.contains("- statements in `run`"),
        "{text}"
    );
    // A change proved equivalent as a whole is said first.
    let (_, rewrites) = impact("equivalent-rewrites", "markdown", &[]);
    assert!(
        rewrites.contains("**The change is proved equivalent**"),
        "{rewrites}"
    );
}

#[test]
fn sarif_and_markdown_are_refused_at_function_level() {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(fixture("known-global", "old"))
        .arg(fixture("known-global", "new"))
        .args(["--format", "sarif", "--level", "function"])
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&out.stderr).contains("statement level"));
}

/// `ripple diff --format sarif` on 000 Fig. 1 adds the semantic verdicts: locale_ok is
/// proved equivalent as a whole (RPL002 at its changed line, new line 43), and
/// print_product_info prints '\0' where it printed '\n' (RPL003 at new line 25, the
/// witness line_delim = 10 (new), name = 1, version = 1 confirmed on the compiled versions). The log still
/// validates, and its fingerprints do not change between runs.
#[test]
fn diff_sarif_carries_the_semantic_verdicts() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dcia-fig1");
    let run = || {
        let out = Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .arg("diff")
            .arg(examples.join("old.c"))
            .arg(examples.join("new.c"))
            .args([
                "--format",
                "sarif",
                "--cutoff",
                "300",
                "--skip",
                "invariants",
                "--no-cache",
            ])
            .output()
            .expect("ripple runs");
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("JSON")
    };
    let log = run();
    validate(&log);
    let results = log["runs"][0]["results"].as_array().expect("results");
    let line = |r: &serde_json::Value| {
        r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64()
    };
    let different = results
        .iter()
        .find(|r| r["ruleId"] == "RPL003")
        .expect("a behaviour change");
    assert_eq!(line(different), Some(25));
    let text = different["message"]["text"].as_str().unwrap();
    assert!(
        // `line_delim` exists in the new version only: its initial value is an input.
        text.starts_with(
            "print_product_info behaves differently: on line_delim = 10 (new), name = 1, version = 1"
        )
            && text.contains("confirmed by the compiled code"),
        "{text}"
    );
    assert!(results.iter().any(|r| r["ruleId"] == "RPL002"
        && line(r) == Some(43)
        && r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("locale_ok as a whole")));
    let fingerprints = |log: &serde_json::Value| {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(fingerprints(&log), fingerprints(&run()));
}

/// `ripple semdiff` writes the same verdicts as Markdown (a table with the evidence) and
/// as SARIF (validated; RPL003 for print_product_info at new line 25, RPL002 for
/// locale_ok at new line 43), as `ripple diff` does.
#[test]
fn semdiff_markdown_and_sarif() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dcia-fig1");
    let run = |format: &str| {
        let out = Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .arg("semdiff")
            .arg(examples.join("old.c"))
            .arg(examples.join("new.c"))
            .args(["--format", format, "--cutoff", "300"])
            .output()
            .expect("ripple runs");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let markdown = run("markdown");
    assert!(
        markdown.contains("| `locale_ok` | equivalent |")
            && markdown.contains(
                "| `print_product_info` | different | on `line_delim = 10 (new), name = 1, version = 1`"
            ),
        "{markdown}"
    );
    let log: serde_json::Value = serde_json::from_str(&run("sarif")).expect("JSON");
    validate(&log);
    let found: Vec<(String, u64)> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("RPL002".to_string(), 43), ("RPL003".to_string(), 25)]
    );
}

/// Runs ripple with `args` and returns its standard output (the exit code must be 0).
fn output(args: &[&str]) -> String {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(args)
        .output()
        .expect("ripple runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `ripple slice` as Markdown and SARIF, on 000 Fig. 1 (examples/dcia-fig1/new.c): the
/// forward slice of the changed call (line 34) reaches line 61 of print_minor_vers (see
/// tests/slice.rs). The SARIF log validates and holds one RPL004 result at the criterion
/// whose related locations are exactly the lines of the JSON report.
#[test]
fn slice_as_markdown_and_sarif() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dcia-fig1/new.c");
    let file = file.to_str().expect("UTF-8 path");
    let run = |format: &str| output(&["slice", file, "--line", "new.c:34", "--format", format]);
    let markdown = run("markdown");
    assert!(
        markdown.starts_with("### ripple: forward slice of `new.c:34`")
            && markdown.contains("| `print_minor_vers` | `new.c` | 59, 60, 61"),
        "{markdown}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    let lines: Vec<(String, u64)> = json["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["file"].as_str().unwrap().to_string(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let log: serde_json::Value = serde_json::from_str(&run("sarif")).expect("JSON");
    validate(&log);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "RPL004");
    let at = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(at["region"]["startLine"], 34);
    assert_eq!(at["artifactLocation"]["uriBaseId"], "SRCROOT");
    let related: Vec<(String, u64)> = results[0]["relatedLocations"]
        .as_array()
        .expect("related locations")
        .iter()
        .map(|r| {
            let p = &r["physicalLocation"];
            (
                p["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                p["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(related, lines);
    assert!(related.contains(&("new.c".to_string(), 61)));
}

/// `ripple sea` as Markdown and SARIF, on 004 Fig. 1 (examples/sea-fig1/old.c, whose
/// README gives the sets): checkInputs may be followed by 7 functions. In SARIF, each
/// function of the program's own file has one RPL005 result at its definition, whose
/// related locations are the members defined in the program (sin and cos are the
/// library's, so they have none); `--stats` has no SARIF form.
#[test]
fn sea_as_markdown_and_sarif() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sea-fig1/old.c");
    let file = file.to_str().expect("UTF-8 path");
    let run = |format: &str| output(&["sea", file, "--format", format]);
    let markdown = run("markdown");
    assert!(
        markdown.contains("| `checkInputs` | 7 | `checkInputs`, `cos`, `deleteFunctions`"),
        "{markdown}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    let log: serde_json::Value = serde_json::from_str(&run("sarif")).expect("JSON");
    validate(&log);
    let results = log["runs"][0]["results"].as_array().expect("results");
    let library = ["sin", "cos"];
    let sets = json["sets"].as_array().expect("sets");
    let own: Vec<&serde_json::Value> = sets
        .iter()
        .filter(|s| !library.contains(&s["function"].as_str().unwrap()))
        .collect();
    assert_eq!(results.len(), own.len());
    for (result, set) in results.iter().zip(own) {
        assert_eq!(result["ruleId"], "RPL005");
        let function = set["function"].as_str().unwrap();
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .contains(&format!("after {function} starts")),
            "{result}"
        );
        let related: Vec<&str> = result["relatedLocations"]
            .as_array()
            .expect("related locations")
            .iter()
            .map(|r| r["message"]["text"].as_str().unwrap())
            .collect();
        let members: Vec<&str> = set["sea"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .filter(|m| !library.contains(m))
            .collect();
        assert_eq!(related, members, "{function}");
    }
    let refused = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .args(["sea", file, "--stats", "--format", "sarif"])
        .output()
        .expect("ripple runs");
    assert_eq!(refused.status.code(), Some(2));
}

/// A change that impacts many functions: the SARIF result carries the code flows of the
/// nearest ten only, counts them all, and says so in the run's properties; the log
/// still validates.
#[test]
fn code_flows_are_limited_to_the_nearest_functions() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, k: u32| {
        let readers: String = (0..15)
            .map(|i| format!("int r{i}(void) {{ return g + {i}; }}\n"))
            .collect();
        let calls: Vec<String> = (0..15).map(|i| format!("r{i}()")).collect();
        let src = format!(
            "int g;\n{readers}int main(void) {{\n    g = {k};\n    return {};\n}}\n",
            calls.join(" + ")
        );
        let path = dir.path().join(name);
        std::fs::write(&path, src).unwrap();
        path
    };
    let (old, new) = (write("old.c", 1), write("new.c", 2));
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["impact", "--no-cache", "--format", "sarif"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    validate(&log);
    let run = &log["runs"][0];
    assert_eq!(run["properties"]["codeFlowsPerResult"], 10);
    let result = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "RPL001")
        .expect("an impact result");
    assert!(
        result["properties"]["impactedFunctions"].as_u64() > Some(10),
        "{result:#}"
    );
    assert_eq!(
        result["codeFlows"].as_array().unwrap().len(),
        10,
        "{result:#}"
    );
}

/// A deleted line is placed where it was in the new version's text: the line that
/// follows it there. A comment line added on top moves every line down by one, so the
/// old line number (4) would name `g = x;` in the new file.
#[test]
fn a_finding_on_a_deleted_line_sits_where_it_was_in_the_new_file() {
    let old = "int g;\nint f(int x) {\n  g = x;\n  g = g + 1;\n  return g;\n}\nint main(void) { return f(3); }\n";
    let new = format!("/* scaled */\n{}", old.replace("  g = g + 1;\n", ""));
    let log = sarif_of(old, &new);
    validate(&log);
    let results = log["runs"][0]["results"].as_array().expect("results");
    let finding = results
        .iter()
        .find(|r| r["ruleId"] == "RPL001")
        .expect("an impact finding");
    let place = &finding["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uriBaseId"], "NEWROOT", "{log:#}");
    assert_eq!(place["artifactLocation"]["uri"], "new.c", "{log:#}");
    // new.c: 1 comment, 2 int g, 3 int f, 4 g = x, 5 return g.
    assert_eq!(place["region"]["startLine"], 5, "{log:#}");
    let was = &finding["relatedLocations"][0];
    assert_eq!(
        was["physicalLocation"]["artifactLocation"]["uriBaseId"],
        "OLDROOT"
    );
    assert_eq!(was["physicalLocation"]["artifactLocation"]["uri"], "old.c");
    assert_eq!(was["physicalLocation"]["region"]["startLine"], 4);
    assert!(finding["message"]["text"]
        .as_str()
        .unwrap()
        .contains("of the old version"));
}
