//! Test suites as users have them, and their runs on both versions.
//!
//! A suite file has one test per line: the program's arguments as shell words, and
//! optionally `< FILE` for its standard input (the format of SIR `universe` files).
//! Blank lines and lines starting with `#` are skipped; input files are relative to the
//! suite file's directory, which is also where the tests run.
//!
//! Each version is built by the C compiler (or by the user's `--build` command) and
//! every test runs on both builds, in parallel, with a per-test timeout; outputs
//! (standard output and exit status) are compared. The same tests run in ripple's
//! interpreter under monitoring ([`ripple_analyses::effects::Monitor`]); a test the
//! interpreter cannot run (file I/O, an external without a model) is reported as not
//! monitored. Without a working compiler the interpreter's outputs are compared.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use ripple_analyses::effects::{Monitor, MonitorConfig, Trace};
use ripple_interp::{run_program_observed, RunConfig, Termination};
use ripple_ir::Program;
use wait_timeout::ChildExt;

/// One test of a suite.
#[derive(Clone, Debug)]
pub struct Test {
    /// The suite file's line (1-based).
    pub line: usize,
    /// The line as written.
    pub text: String,
    pub args: Vec<String>,
    pub stdin: Option<PathBuf>,
}

/// A parsed suite.
#[derive(Clone, Debug)]
pub struct Suite {
    pub tests: Vec<Test>,
    /// Where the tests run (the suite file's directory).
    pub dir: PathBuf,
}

impl Suite {
    pub fn read(path: &Path) -> Result<Suite> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the test suite", path.display()))?;
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let mut tests = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (command, input) = match last_unquoted_redirect(line) {
                Some(at) if !line[at + 1..].trim().is_empty() => {
                    (&line[..at], Some(line[at + 1..].trim().to_string()))
                }
                Some(_) => bail!("{}:{}: `<` without an input file", path.display(), i + 1),
                None => (line, None),
            };
            let Some(args) = shlex::split(command) else {
                bail!("{}:{}: unbalanced quotes", path.display(), i + 1);
            };
            let stdin = match input {
                Some(file) => {
                    let words = shlex::split(&file).unwrap_or_default();
                    let [file] = words.as_slice() else {
                        bail!("{}:{}: `<` takes one file", path.display(), i + 1);
                    };
                    let full = dir.join(file);
                    if !full.is_file() {
                        bail!(
                            "{}:{}: input file {} does not exist",
                            path.display(),
                            i + 1,
                            full.display()
                        );
                    }
                    Some(full)
                }
                None => None,
            };
            tests.push(Test {
                line: i + 1,
                text: line.to_string(),
                args,
                stdin,
            });
        }
        if tests.is_empty() {
            bail!("{}: the suite has no test", path.display());
        }
        Ok(Suite { tests, dir })
    }
}

/// The byte offset of the last `<` of `line` outside shell quotes and not escaped: the
/// redirection of standard input (a `<` inside an argument, `"a<b"` or `a\\<b`, is not).
fn last_unquoted_redirect(line: &str) -> Option<usize> {
    let mut last = None;
    let mut quote = None;
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, '\\') | (Some('"'), '\\') => {
                chars.next();
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '<') => last = Some(at),
            _ => {}
        }
    }
    last
}

/// How a version is built.
pub struct Build {
    /// The version's sources.
    pub root: PathBuf,
    pub units: Vec<PathBuf>,
    pub flags: Vec<String>,
    pub cc: String,
    /// A shell command run in `root` that must write the executable to `$OUT`.
    pub command: Option<String>,
}

/// Builds a version into `exe`; the error carries the compiler's messages.
pub fn build(b: &Build, exe: &Path) -> Result<(), String> {
    let output = match &b.command {
        Some(command) => Command::new("sh")
            .arg("-c")
            .arg(command)
            .env("OUT", exe)
            .current_dir(&b.root)
            .output(),
        None => Command::new(&b.cc)
            .args(["-w", "-O0", "-o"])
            .arg(exe)
            .args(&b.flags)
            .args(&b.units)
            .arg("-lm")
            .current_dir(&b.root)
            .output(),
    }
    .map_err(|e| format!("cannot run the build: {e}"))?;
    if !output.status.success() || !exe.is_file() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first: Vec<&str> = stderr.lines().take(5).collect();
        return Err(format!("the build failed: {}", first.join(" / ")));
    }
    Ok(())
}

/// What a run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `exit N`, `signal N`, `timeout`, or the interpreter's reason for stopping.
    pub end: String,
}

impl Outcome {
    /// Whether the outcome says something about the program (not a timeout or an
    /// unsupported construct).
    pub fn decided(&self) -> bool {
        self.end.starts_with("exit") || self.end.starts_with("signal")
    }
}

/// Runs a built executable on a test.
pub fn run_native(exe: &Path, test: &Test, dir: &Path, timeout: Duration) -> Outcome {
    match spawn_native(exe, test, dir) {
        Ok((child, out, err)) => wait_native(child, out, err, timeout),
        Err(why) => Outcome {
            stdout: Vec::new(),
            stderr: Vec::new(),
            end: format!("not run: {why}"),
        },
    }
}

/// Starts a test's native run, its standard output and error going to two files.
fn spawn_native(
    exe: &Path,
    test: &Test,
    dir: &Path,
) -> Result<(std::process::Child, std::fs::File, std::fs::File), String> {
    let out = tempfile::tempfile().map_err(|e| e.to_string())?;
    let err = tempfile::tempfile().map_err(|e| e.to_string())?;
    let stdin = match &test.stdin {
        Some(p) => {
            Stdio::from(std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display()))?)
        }
        None => Stdio::null(),
    };
    let (Ok(out_clone), Ok(err_clone)) = (out.try_clone(), err.try_clone()) else {
        return Err("no output file".into());
    };
    // Both versions run under the name the interpreter gives (`./a.out`), so that a
    // program printing `argv[0]` prints the same in both, and in an empty environment,
    // as in the interpreter: a test's outcome is the same on every machine.
    use std::os::unix::process::CommandExt;
    let child = Command::new(exe)
        .arg0(ripple_interp::PROGRAM_NAME)
        .env_clear()
        .args(&test.args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::from(out_clone))
        .stderr(Stdio::from(err_clone))
        .spawn()
        .map_err(|e| e.to_string())?;
    Ok((child, out, err))
}

/// Waits for a native run (killed past `timeout`) and reads back its outputs.
fn wait_native(
    mut child: std::process::Child,
    out: std::fs::File,
    err: std::fs::File,
    timeout: Duration,
) -> Outcome {
    let end = match child.wait_timeout(timeout) {
        Ok(Some(status)) => match status.code() {
            Some(code) => format!("exit {code}"),
            None => {
                use std::os::unix::process::ExitStatusExt;
                format!("signal {}", status.signal().unwrap_or(0))
            }
        },
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            "timeout".to_string()
        }
        Err(e) => format!("not run: {e}"),
    };
    use std::io::Seek;
    let read_back = |mut file: std::fs::File| {
        let mut bytes = Vec::new();
        let _ = file.seek(std::io::SeekFrom::Start(0));
        let _ = file.read_to_end(&mut bytes);
        bytes
    };
    Outcome {
        stdout: read_back(out),
        stderr: read_back(err),
        end,
    }
}

/// Runs `program` on a test in the interpreter without observing it.
fn run_plain(program: &Program, test: &Test, dir: &Path, max_steps: u64) {
    let _ = ripple_interp::run_program(program, &run_config(test, dir, max_steps));
}

/// The interpreter's inputs for a test run in `dir` (the suite's directory), as the
/// native run gets them: files resolve there, and stdin given by `< FILE` is a file.
pub fn run_config(test: &Test, dir: &Path, max_steps: u64) -> RunConfig {
    let stdin = match &test.stdin {
        Some(p) => std::fs::read(p).unwrap_or_default(),
        None => Vec::new(),
    };
    RunConfig {
        args: test.args.clone(),
        stdin,
        stdin_is_file: test.stdin.is_some(),
        working_dir: dir.to_path_buf(),
        max_steps,
        ..RunConfig::default()
    }
}

/// Runs `program` on a test in the interpreter under monitoring.
pub fn run_monitored(
    program: &Program,
    config: &MonitorConfig,
    test: &Test,
    dir: &Path,
    max_steps: u64,
) -> (Outcome, Option<Trace>) {
    let run = run_config(test, dir, max_steps);
    let mut monitor = Monitor::new(program, config);
    let outcome = run_program_observed(program, &run, &mut monitor);
    let end = match &outcome.termination {
        Termination::Exit(code) => format!("exit {}", code & 0xff),
        Termination::Abort => "signal 6".to_string(),
        Termination::Trap { message, .. } => format!("trap: {message}"),
        Termination::StepLimit => "timeout".to_string(),
        Termination::Unsupported { what } => format!("not monitored: {what}"),
    };
    let monitored = !matches!(outcome.termination, Termination::Unsupported { .. });
    (
        Outcome {
            stdout: outcome.stdout,
            stderr: outcome.stderr,
            end,
        },
        monitored.then_some(monitor.trace),
    )
}

/// How the suite runs.
pub struct SuiteRun<'a> {
    pub programs: [&'a Program; 2],
    pub configs: [&'a MonitorConfig; 2],
    /// The built versions, if any.
    pub exes: Option<[&'a Path; 2]>,
    pub timeout: Duration,
    pub max_steps: u64,
    /// Also time an unmonitored interpreter run of every test (for the overhead figures).
    pub time_plain: bool,
}

/// Runs every test on both versions: natively when `exes` are given, and in the
/// interpreter under monitoring. Results are in suite order.
/// `digest` runs on each result as soon as the test has run (it may take the traces
/// out, so that a large suite does not keep every trace).
pub fn run_suite<D: Send>(
    suite: &Suite,
    how: &SuiteRun<'_>,
    done: &(dyn Fn() + Sync),
    digest: &(dyn Fn(&mut TestResult) -> D + Sync),
) -> Vec<(TestResult, D)> {
    suite
        .tests
        .par_iter()
        .map(|test| {
            let [old, new] = [0, 1].map(|i| {
                let start = Instant::now();
                let native = how
                    .exes
                    .map(|e| run_native(e[i], test, &suite.dir, how.timeout));
                let native_time = start.elapsed();
                let start = Instant::now();
                let (interp, trace) = run_monitored(
                    how.programs[i],
                    how.configs[i],
                    test,
                    &suite.dir,
                    how.max_steps,
                );
                let monitored_time = start.elapsed();
                let plain_time = how.time_plain.then(|| {
                    let start = Instant::now();
                    run_plain(how.programs[i], test, &suite.dir, how.max_steps);
                    start.elapsed()
                });
                VersionRun {
                    native,
                    interp,
                    monitored: trace.is_some(),
                    trace,
                    times: Times {
                        native: native_time,
                        monitored: monitored_time,
                        plain: plain_time,
                    },
                }
            });
            done();
            let mut result = TestResult { old, new };
            let d = digest(&mut result);
            (result, d)
        })
        .collect()
}

/// One version's run of a test.
#[derive(Clone, Debug)]
pub struct VersionRun {
    pub native: Option<Outcome>,
    pub interp: Outcome,
    pub trace: Option<Trace>,
    /// Whether the interpreter could run the test (the trace may have been taken).
    pub monitored: bool,
    pub times: Times,
}

/// Wall-clock times of one version's runs of a test (for `--verbose`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Times {
    pub native: Duration,
    pub monitored: Duration,
    pub plain: Option<Duration>,
}

impl VersionRun {
    /// The outcome that counts: the built program's, else the interpreter's.
    pub fn outcome(&self) -> &Outcome {
        self.native.as_ref().unwrap_or(&self.interp)
    }

    /// Whether the interpreter disagrees with the built program (its monitoring may not
    /// reflect the real run): another outcome, or a trap of the interpreter (undefined
    /// behaviour, such as `memcmp(NULL, p, 0)`, which glibc lets pass) where the built
    /// program exits and so ran on past it.
    pub fn interp_disagrees(&self) -> bool {
        self.native.as_ref().is_some_and(|n| {
            (n.decided() && self.interp.decided() && *n != self.interp)
                || (n.end.starts_with("exit") && self.interp.end.starts_with("trap"))
        })
    }
}

/// A test's runs on both versions.
#[derive(Clone, Debug)]
pub struct TestResult {
    pub old: VersionRun,
    pub new: VersionRun,
}

impl TestResult {
    /// Whether the outputs differ (only decided outcomes count), or one built version
    /// ends where the other runs past the timeout (a loop the change added).
    pub fn differs(&self) -> bool {
        let (a, b) = (self.old.outcome(), self.new.outcome());
        (a.decided() && b.decided() && a != b) || self.one_times_out()
    }

    /// Whether exactly one built version ran past the timeout, the other ending.
    fn one_times_out(&self) -> bool {
        match (&self.old.native, &self.new.native) {
            (Some(a), Some(b)) => {
                (a.decided() && b.end == "timeout") || (b.decided() && a.end == "timeout")
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, inputs: &[&str]) -> Result<Suite> {
        let dir = tempfile::tempdir().unwrap();
        for name in inputs {
            std::fs::write(dir.path().join(name), "x\n").unwrap();
        }
        let path = dir.path().join("suite.txt");
        std::fs::write(&path, text).unwrap();
        Suite::read(&path)
    }

    #[test]
    fn a_quoted_or_escaped_angle_bracket_is_an_argument_not_a_redirection() {
        let suite = read(
            "-e 'a<b' < in.txt\n\"x < y\"\nlt\\<gt\n# '<' in a comment\n-n < 'in put'\n",
            &["in.txt", "in put"],
        )
        .unwrap();
        let args: Vec<Vec<&str>> = suite
            .tests
            .iter()
            .map(|t| t.args.iter().map(String::as_str).collect())
            .collect();
        assert_eq!(
            args,
            [vec!["-e", "a<b"], vec!["x < y"], vec!["lt<gt"], vec!["-n"]]
        );
        let stdin: Vec<Option<String>> = suite
            .tests
            .iter()
            .map(|t| {
                t.stdin
                    .as_ref()
                    .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            })
            .collect();
        assert_eq!(
            stdin,
            [Some("in.txt".into()), None, None, Some("in put".into())]
        );
        // A redirection with nothing after it is still an error naming the line.
        let err = read("-a\n-b <\n", &[]).unwrap_err().to_string();
        assert!(err.ends_with(":2: `<` without an input file"), "{err}");
    }
}
