//! The `ripple` command line: parses arguments, loads the versions, runs the requested
//! analysis and renders its report. Exit codes: 0 no change, 1 changes found, 2 error
//! (like diff(1)).

mod cache;
mod cli;
mod commands;
mod config;
mod generate;
mod load;
mod progress;
mod proved;
mod sarif_place;
mod style;
mod suite;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = cli::Cli::parse();
    style::init(cli.color);
    if let Some(jobs) = cli.jobs {
        if jobs == 0 {
            eprintln!("ripple: error: --jobs takes a number of threads of at least 1");
            return ExitCode::from(2);
        }
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build_global()
        {
            eprintln!("ripple: error: cannot start {jobs} threads: {e}");
            return ExitCode::from(2);
        }
    }
    match commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("ripple: error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Rust ignores SIGPIPE, so a closed pipe (`ripple impact ... | head`) makes `println!`
/// panic. Unix tools end quietly instead: restore the default action.
fn restore_sigpipe() {
    // SAFETY: called first in main, before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
