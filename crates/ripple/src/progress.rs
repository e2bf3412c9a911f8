//! Progress of long runs on a terminal: a spinner naming the stage of a run, or a bar
//! over the commits of a range. Nothing is drawn when stderr is not a terminal (CI logs,
//! pipes, tests), and nothing goes to stdout, so reports never depend on it.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A spinner with the name of the current stage and the time spent.
    pub fn spinner() -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress { bar }
    }

    /// A bar over `len` steps (the commits of a range).
    pub fn bar(len: u64) -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(
                    "[{bar:30}] {pos}/{len} {msg} ({elapsed}, {eta} left)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress { bar }
    }

    /// Names what the run does now.
    pub fn stage(&self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    /// One step done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Runs `f` (which may print to stderr) with the bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
