//! Reads `compile_commands.json` (the JSON compilation database) for the preprocessor
//! flags of each file: `-I`, `-D`, `-U`, `-include`, `-std`, `-isystem`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub struct CompileCommands {
    /// Absolute source path -> (working directory, preprocessor flags).
    entries: FxHashMap<PathBuf, (PathBuf, Vec<String>)>,
}

impl CompileCommands {
    pub fn read(path: &Path) -> Result<CompileCommands> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{}: not valid JSON", path.display()))?;
        let list = json.as_array().with_context(|| {
            format!(
                "{}: expected a JSON array of compile commands",
                path.display()
            )
        })?;
        let mut entries = FxHashMap::default();
        for entry in list {
            let dir = PathBuf::from(entry["directory"].as_str().unwrap_or("."));
            let Some(file) = entry["file"].as_str() else {
                continue;
            };
            let args: Vec<String> = match (entry["arguments"].as_array(), entry["command"].as_str())
            {
                (Some(args), _) => args
                    .iter()
                    .filter_map(|a| a.as_str().map(String::from))
                    .collect(),
                (None, Some(cmd)) => split_command(cmd),
                _ => continue,
            };
            let file = dir.join(file);
            let file = file.canonicalize().unwrap_or(file);
            entries.insert(file, (dir, preprocessor_flags(&args)));
        }
        Ok(CompileCommands { entries })
    }

    /// The working directory and flags recorded for `file`, if any.
    pub fn flags_for(&self, file: &Path) -> Option<&(PathBuf, Vec<String>)> {
        let file = file.canonicalize().ok()?;
        self.entries.get(&file)
    }
}

/// Keeps the flags that change preprocessing; joined forms (`-Ifoo`) and separate forms
/// (`-I foo`) both.
fn preprocessor_flags(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        for prefix in ["-I", "-D", "-U", "-isystem", "-include", "-iquote"] {
            if arg == prefix {
                if let Some(value) = iter.next() {
                    out.push(arg.clone());
                    out.push(value.clone());
                }
                break;
            }
            if arg.starts_with(prefix) && (prefix.len() == 2) {
                out.push(arg.clone());
                break;
            }
        }
        if arg.starts_with("-std=") {
            out.push(arg.clone());
        }
    }
    out
}

/// Splits a shell command line into words as a POSIX shell does (quotes, backslashes);
/// a line the shell could not split (an unterminated quote) falls back to whitespace.
fn split_command(cmd: &str) -> Vec<String> {
    shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(String::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_preprocessor_flags() {
        let args =
            split_command(r#"cc -c -O2 -Iinclude -I ../x -DNAME="a b" -Wall -std=c99 -o a.o a.c"#);
        assert_eq!(
            preprocessor_flags(&args),
            vec!["-Iinclude", "-I", "../x", "-DNAME=a b", "-std=c99"]
        );
    }

    #[test]
    fn backslash_is_literal_inside_single_quotes() {
        // POSIX: inside '...' a backslash is an ordinary character; outside it escapes.
        let args = split_command(r#"cc '-DPATH="a\\b"' -DQ=x\\ y a.c"#);
        assert_eq!(args, vec!["cc", r#"-DPATH="a\\b""#, r"-DQ=x\", "y", "a.c"]);
    }
}
