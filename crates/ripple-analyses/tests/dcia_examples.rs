//! DCIA on the examples of 000: Fig. 1 and Fig. 4 (examples/dcia-fig1, dcia-fig4).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use ripple_analyses::dcia::{dcia, DciaConfig, DciaResult, Equivalences, VersionImpact};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

fn load(path: &Path) -> Program {
    let output = Command::new("gcc")
        .args(["-E", "-std=gnu11"])
        .arg(path)
        .output()
        .expect("gcc runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let unit = TranslationUnit::preprocessed(
        path.file_name().unwrap().to_string_lossy().into_owned(),
        &text,
        str::to_string,
    );
    lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    )
    .program
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
