//! The conformance corpus (`tests/corpus` at the repository root) and the gcc side of
//! the checks: finding the programs, reading their `// RUN:` lines, compiling,
//! running and preprocessing them with gcc.
//!
//! It is also the tests' shared support: [`Rng`], the one deterministic generator of
//! the random programs and inputs of every test, and [`lower_file`], the one way tests
//! read a C file (through `gcc -E`, which they require).
//!
//! The checks themselves are the integration tests of this crate:
//! `tests/gcc_agreement.rs` (the interpreted IR behaves as the gcc-compiled program)
//! and `tests/lowering.rs` (every program lowers cleanly to valid IR). The RUN format
//! is documented in `tests/corpus/README.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The flags every corpus program is compiled with.
pub const GCC_FLAGS: &[&str] = &[
    "-std=gnu11",
    "-O0",
    "-fwrapv",
    "-fno-strict-aliasing",
    "-Wall",
    "-Wextra",
];

/// One declared run of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// `argv[1..]`.
    pub args: Vec<String>,
    pub stdin: Vec<u8>,
}

impl Run {
    /// A short description for reports: the arguments and the start of stdin.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        if !self.args.is_empty() {
            s.push_str(&format!("args={:?}", self.args));
        }
        if !self.stdin.is_empty() {
            if !s.is_empty() {
                s.push(' ');
            }
            let shown: String = String::from_utf8_lossy(&self.stdin)
                .chars()
                .take(24)
                .collect();
            s.push_str(&format!("stdin={shown:?}"));
            if self.stdin.len() > shown.len() {
                s.push_str("...");
            }
        }
        if s.is_empty() {
            s.push_str("no input");
        }
        s
    }
}

/// A corpus program and its runs.
#[derive(Clone, Debug)]
pub struct Program {
    /// File stem, e.g. `stmt_switch`.
    pub name: String,
    pub path: PathBuf,
    pub runs: Vec<Run>,
    /// Extra gcc flags from the file's `// CFLAGS:` lines, after [`GCC_FLAGS`] (so
    /// `-std=gnu89` wins over the default standard).
    pub cflags: Vec<String>,
}

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus")
}

/// The subdirectories of the corpus that hold programs too (besides its top level):
/// `classic` has the old-style programs, larger and split into `.c` and `.h`; `larger`
/// has programs of 500 lines and more with input sets written for them.
pub const CORPUS_SUBDIRS: &[&str] = &["classic", "larger"];

/// All programs of the corpus, sorted by name. `RIPPLE_CORPUS_FILTER`, if set, keeps
/// only programs whose name contains one of its comma-separated parts. A program of a
/// subdirectory is named `DIR/STEM`.
pub fn load_corpus() -> Result<Vec<Program>, String> {
    let dir = corpus_dir();
    let filter: Vec<String> = std::env::var("RIPPLE_CORPUS_FILTER")
        .map(|f| {
            f.split(',')
                .map(str::to_string)
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let mut programs = Vec::new();
    load_dir(&dir, "", &filter, &mut programs)?;
    for sub in CORPUS_SUBDIRS {
        let sub_dir = dir.join(sub);
        if sub_dir.is_dir() {
            load_dir(&sub_dir, &format!("{sub}/"), &filter, &mut programs)?;
        }
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(programs)
}

fn load_dir(
    dir: &Path,
    prefix: &str,
    filter: &[String],
    programs: &mut Vec<Program>,
) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let name = format!("{prefix}{stem}");
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let runs = parse_runs(&text, dir).map_err(|e| format!("{name}.c: {e}"))?;
        let cflags = parse_cflags(&text);
        programs.push(Program {
            name,
            path,
            runs,
            cflags,
        });
    }
    Ok(())
}

/// Reads the `// RUN:` lines of a program; `dir` is where stdin files are looked up.
/// No RUN line means one run with no arguments and empty stdin.
pub fn parse_runs(text: &str, dir: &Path) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for line in text.lines() {
        let Some(spec) = line.strip_prefix("// RUN:") else {
            continue;
        };
        runs.push(parse_run(spec, dir)?);
    }
    if runs.is_empty() {
        runs.push(Run::default());
    }
    Ok(runs)
}

/// The words of the `// CFLAGS:` lines of a program (extra gcc flags).
pub fn parse_cflags(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("// CFLAGS:"))
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect()
}

fn parse_run(spec: &str, dir: &Path) -> Result<Run, String> {
    let mut run = Run::default();
    let mut in_args = false;
    for word in words(spec)? {
        if let Some(first) = word.raw.strip_prefix("args=") {
            in_args = true;
            if !first.is_empty() {
                run.args.push(lossy(&word.value["args=".len()..]));
            }
        } else if let Some(rest) = word.raw.strip_prefix("stdin=") {
            in_args = false;
            let value = &word.value["stdin=".len()..];
            if rest.starts_with('"') {
                run.stdin = value.to_vec();
            } else {
                let file = dir.join(lossy(value));
                run.stdin = std::fs::read(&file)
                    .map_err(|e| format!("stdin file {}: {e}", file.display()))?;
            }
        } else if in_args {
            run.args.push(lossy(&word.value));
        } else {
            return Err(format!("unexpected word {:?} in RUN line", word.raw));
        }
    }
    Ok(run)
}

struct Word {
    raw: String,
    value: Vec<u8>,
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Splits at whitespace; `"..."` parts keep spaces and take the escapes
/// `\n \t \r \\ \" \0 \xHH`.
fn words(s: &str) -> Result<Vec<Word>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() {
            return Ok(out);
        }
        let start = i;
        let mut value = Vec::new();
        let push = |value: &mut Vec<u8>, c: char| {
            value.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        };
        while i < chars.len() && !chars[i].is_whitespace() {
            if chars[i] != '"' {
                push(&mut value, chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err("unterminated quote in RUN line".into()),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let c = chars.get(i + 1).copied().unwrap_or('\\');
                        i += 2;
                        match c {
                            'n' => value.push(b'\n'),
                            't' => value.push(b'\t'),
                            'r' => value.push(b'\r'),
                            '0' => value.push(0),
                            '\\' | '"' => push(&mut value, c),
                            'x' => {
                                let hex: String = chars.iter().skip(i).take(2).collect();
                                let byte = u8::from_str_radix(&hex, 16)
                                    .map_err(|_| format!("bad \\x escape {hex:?}"))?;
                                value.push(byte);
                                i += 2;
                            }
                            other => return Err(format!("unknown escape \\{other}")),
                        }
                    }
                    Some(&c) => {
                        push(&mut value, c);
                        i += 1;
                    }
                }
            }
        }
        out.push(Word {
            raw: chars[start..i].iter().collect(),
            value,
        });
    }
}

/// What a native run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeOutcome {
    pub stdout: Vec<u8>,
    /// The status code, or 128 + the signal number.
    pub exit_code: i32,
}

/// Compiles `source` with gcc ([`GCC_FLAGS`], `-lm`) into `exe`.
pub fn compile(source: &Path, exe: &Path) -> Result<(), String> {
    compile_with(source, exe, &[])
}

/// Compiles `source` with gcc ([`GCC_FLAGS`], then `cflags`, `-lm`) into `exe`.
pub fn compile_with(source: &Path, exe: &Path, cflags: &[String]) -> Result<(), String> {
    let output = Command::new("gcc")
        .args(GCC_FLAGS)
        .args(cflags)
        .arg(source)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "gcc failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(())
}

/// Runs a compiled program with the run's arguments and stdin.
pub fn run_native(exe: &Path, run: &Run) -> Result<NativeOutcome, String> {
    let mut child = Command::new(exe)
        .args(&run.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = run.stdin.clone();
    // Feed stdin from another thread so a program that does not read it cannot block us.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child
        .wait_with_output()
        .map_err(|e| format!("waiting for {}: {e}", exe.display()))?;
    let _ = feeder.join();
    Ok(NativeOutcome {
        stdout: output.stdout,
        exit_code: exit_code(&output.status),
    })
}

#[cfg(unix)]
fn exit_code(status: &std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(-1)
}

#[cfg(not(unix))]
fn exit_code(status: &std::process::ExitStatus) -> i32 {
    status.code().unwrap_or(-1)
}

/// The frontend's own headers ([`ripple_c::INCLUDE_HEADERS`]) in a directory kept for
/// the life of the process, as `ripple` searches them.
fn include_dir() -> Option<&'static Path> {
    static DIR: std::sync::OnceLock<Option<tempfile::TempDir>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("ripple-include-")
            .tempdir()
            .ok()?;
        for (name, text) in ripple_c::INCLUDE_HEADERS {
            std::fs::write(dir.path().join(name), text).ok()?;
        }
        Some(dir)
    })
    .as_ref()
    .map(tempfile::TempDir::path)
}

/// `gcc -std=gnu11 -E source`: preprocessed text with line markers (the frontend's own
/// headers first).
pub fn preprocess(source: &Path) -> Result<String, String> {
    let mut gcc = Command::new("gcc");
    gcc.args(["-std=gnu11", "-E"]);
    if let Some(dir) = include_dir() {
        gcc.arg("-isystem").arg(dir);
    }
    let output = gcc
        .arg(source)
        .output()
        .map_err(|e| format!("cannot run gcc -E: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "gcc -E failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("gcc -E output is not UTF-8: {e}"))
}

/// A C file preprocessed by gcc and lowered, with syntax trees (for version matching);
/// `unit` names the translation unit (one name for two versions pairs their statics).
/// Panics when gcc is missing or rejects the file: the tests that read C require it.
pub fn lower_file(path: &Path, unit: &str) -> ripple_ir::Program {
    let text = preprocess(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let unit = ripple_c::TranslationUnit::preprocessed(unit.to_string(), &text, str::to_string);
    let config = ripple_c::FrontendConfig {
        build_syntax: true,
        ..ripple_c::FrontendConfig::default()
    };
    ripple_c::lower_units(&[unit], &config).program
}

/// Whether gcc can be run at all.
pub fn gcc_available() -> bool {
    Command::new("gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The first line where two outputs differ, for a short report:
/// `line N: expected "..." got "..."`.
pub fn first_difference(expected: &[u8], got: &[u8]) -> String {
    let exp: Vec<&[u8]> = expected.split(|&b| b == b'\n').collect();
    let act: Vec<&[u8]> = got.split(|&b| b == b'\n').collect();
    for i in 0..exp.len().max(act.len()) {
        let (e, a) = (exp.get(i), act.get(i));
        if e != a {
            let show = |l: Option<&&[u8]>| match l {
                None => "<end of output>".to_string(),
                Some(l) => {
                    let s = String::from_utf8_lossy(l);
                    let short: String = s.chars().take(100).collect();
                    if short.len() < s.len() {
                        format!("{short:?}...")
                    } else {
                        format!("{short:?}")
                    }
                }
            };
            return format!("line {}: expected {} got {}", i + 1, show(e), show(a));
        }
    }
    "outputs are equal".to_string()
}

/// `f` over every item on rayon's pool, results in item order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines() {
        let dir = Path::new("/nonexistent");
        let text = "// x\n// RUN:\n// RUN: args=3 4\n// RUN: args= -v \"two words\" stdin=\"a\\tb\\n\\x41\\xff\"\nint main;\n";
        let runs = parse_runs(text, dir).unwrap();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0], Run::default());
        assert_eq!(runs[1].args, vec!["3", "4"]);
        assert_eq!(runs[2].args, vec!["-v", "two words"]);
        assert_eq!(runs[2].stdin, b"a\tb\nA\xff");
        assert_eq!(parse_runs("int main;", dir).unwrap(), vec![Run::default()]);
        assert!(parse_runs("// RUN: stray", dir).is_err());
    }

    #[test]
    fn differences() {
        assert_eq!(
            first_difference(b"a\nb\n", b"a\nc\n"),
            "line 2: expected \"b\" got \"c\""
        );
        assert_eq!(
            first_difference(b"a\n", b"a\nmore"),
            "line 2: expected \"\" got \"more\""
        );
    }
}

/// A small deterministic generator (splitmix64): the same seed gives the same sequence
/// on every machine, so a failing random case is reproduced from its seed.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits (not an `Iterator`: the sequence never ends).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An index below `n`.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True `percent` times out of 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }
}
