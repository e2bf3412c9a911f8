//! The `ripple` command line: parses arguments, loads the versions, runs the requested
//! analysis and renders its report. Exit codes: 0 no change, 1 changes found, 2 error
//! (like diff(1)).

mod cli;
mod commands;
mod load;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("ripple: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
