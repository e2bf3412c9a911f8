//! The IR interpreter agrees with gcc on the conformance corpus: for every program of
//! `tests/corpus` and every run its `// RUN:` lines declare, interpreting the lowered IR
//! gives exactly the stdout bytes and the exit code of the program compiled by gcc.
//!
//! One test covers the whole corpus and reports every disagreement at once, each with
//! the first differing line. `RIPPLE_CORPUS_FILTER=name1,name2` restricts the corpus.

use ripple_conformance::{
    compile_with, first_difference, gcc_available, load_corpus, parallel_map, preprocess,
    run_native, Program, Run,
};
use ripple_interp::{RunConfig, Termination};

/// The verdict on one run.
struct RunResult {
    program: String,
    run: String,
    problem: Option<String>,
}

fn lower(program: &Program) -> Result<ripple_ir::Program, String> {
    let text = preprocess(&program.path)?;
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
    let invalid = ripple_ir::validate_program(&lowered.program);
    if !invalid.is_empty() {
        let list: Vec<String> = invalid.iter().take(3).map(ToString::to_string).collect();
        return Err(format!(
            "invalid IR ({} errors): {}",
            invalid.len(),
            list.join("; ")
        ));
    }
    Ok(lowered.program)
}

fn describe(termination: &Termination) -> String {
    match termination {
        Termination::Exit(code) => format!("exit({code})"),
        Termination::Abort => "abort".into(),
        Termination::Trap {
            message,
            function,
            line,
        } => format!("trap in {function} line {line}: {message}"),
        Termination::StepLimit => "step limit".into(),
        Termination::Unsupported { what } => format!("unsupported: {what}"),
    }
}

fn check_run(ir: &ripple_ir::Program, exe: &std::path::Path, run: &Run) -> Option<String> {
    let expected = match run_native(exe, run) {
        Ok(outcome) => outcome,
        Err(e) => return Some(e),
    };
    let config = RunConfig {
        args: run.args.clone(),
        stdin: run.stdin.clone(),
        ..RunConfig::default()
    };
    let got = ripple_interp::run_program(ir, &config);
    let mut problems = Vec::new();
    if got.exit_code() != Some(expected.exit_code) {
        problems.push(format!(
            "exit code: expected {} got {}",
            expected.exit_code,
            describe(&got.termination)
        ));
    }
    if got.stdout != expected.stdout {
        problems.push(format!(
            "stdout {}",
            first_difference(&expected.stdout, &got.stdout)
        ));
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

fn check_program(program: &Program) -> Vec<RunResult> {
    let fail_all = |problem: String| {
        program
            .runs
            .iter()
            .map(|run| RunResult {
                program: program.name.clone(),
                run: run.describe(),
                problem: Some(problem.clone()),
            })
            .collect()
    };
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return fail_all(format!("temp dir: {e}")),
    };
    let exe = dir.path().join(program.name.replace('/', "_"));
    if let Err(e) = compile_with(&program.path, &exe, &program.cflags) {
        return fail_all(e);
    }
    let ir = match lower(program) {
        Ok(ir) => ir,
        Err(e) => return fail_all(e),
    };
    program
        .runs
        .iter()
        .map(|run| RunResult {
            program: program.name.clone(),
            run: run.describe(),
            problem: check_run(&ir, &exe, run),
        })
        .collect()
}

#[test]
fn interpreter_agrees_with_gcc() {
    assert!(
        gcc_available(),
        "gcc is needed to run the conformance corpus"
    );
    let programs = load_corpus().unwrap_or_else(|e| panic!("{e}"));
    assert!(!programs.is_empty(), "the corpus is empty");
    let results: Vec<RunResult> = parallel_map(&programs, check_program)
        .into_iter()
        .flatten()
        .collect();
    let failures: Vec<&RunResult> = results.iter().filter(|r| r.problem.is_some()).collect();
    let mut disagreeing: Vec<&str> = failures.iter().map(|r| r.program.as_str()).collect();
    disagreeing.dedup();
    println!(
        "corpus: {} programs, {} runs, {} agree",
        programs.len(),
        results.len(),
        results.len() - failures.len()
    );
    if !failures.is_empty() {
        let mut report = format!(
            "{} of {} runs disagree, in {} programs:\n",
            failures.len(),
            results.len(),
            disagreeing.len()
        );
        for f in &failures {
            let problem = f.problem.as_deref().unwrap_or_default();
            report.push_str(&format!("  {} [{}]: {}\n", f.program, f.run, problem));
        }
        panic!("{report}");
    }
}
