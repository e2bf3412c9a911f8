//! Every program of the conformance corpus lowers without Error diagnostics to IR that
//! passes `ripple_ir::validate_program`. Cheaper than `gcc_agreement` (only `gcc -E`
//! is needed); reports every failing program at once.

use ripple_conformance::{gcc_available, load_corpus, parallel_map, preprocess, Program};

fn check(program: &Program) -> Option<String> {
    let text = match preprocess(&program.path) {
        Ok(text) => text,
        Err(e) => return Some(e),
    };
    let unit = ripple_c::TranslationUnit::preprocessed(
        format!("{}.c", program.name),
        &text,
        str::to_string,
    );
    let lowered = ripple_c::lower_units(
        &[unit],
        &ripple_c::FrontendConfig {
            build_syntax: false,
            ..ripple_c::FrontendConfig::default()
        },
    );
    let mut problems: Vec<String> = lowered
        .diagnostics
        .iter()
        .filter(|d| d.severity == ripple_c::Severity::Error)
        .map(|d| format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message))
        .collect();
    problems.extend(
        ripple_ir::validate_program(&lowered.program)
            .iter()
            .map(|e| format!("invalid IR: {e}")),
    );
    if problems.is_empty() {
        return None;
    }
    let total = problems.len();
    problems.truncate(5);
    let more = if total > 5 {
        format!(" (and {} more)", total - 5)
    } else {
        String::new()
    };
    Some(format!("{}{more}", problems.join("\n      ")))
}

#[test]
fn corpus_lowers_cleanly() {
    assert!(gcc_available(), "gcc -E is needed to preprocess the corpus");
    let programs = load_corpus().unwrap_or_else(|e| panic!("{e}"));
    assert!(!programs.is_empty(), "the corpus is empty");
    let results = parallel_map(&programs, check);
    let failures: Vec<(&Program, &String)> = programs
        .iter()
        .zip(&results)
        .filter_map(|(p, r)| r.as_ref().map(|r| (p, r)))
        .collect();
    println!(
        "corpus: {} programs, {} lower cleanly",
        programs.len(),
        programs.len() - failures.len()
    );
    if !failures.is_empty() {
        let mut report = format!("{} programs do not lower cleanly:\n", failures.len());
        for (p, problem) in failures {
            report.push_str(&format!("  {}: {problem}\n", p.name));
        }
        panic!("{report}");
    }
}
