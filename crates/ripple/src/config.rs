//! `ripple.toml`: a project's settings, so that its command lines stay short. Found in the
//! current directory or the nearest directory above it, up to the root of the git
//! repository (`--config FILE` names another, `--no-config` ignores it). Every setting is
//! also a flag; a flag given on the command line wins, and list flags (`-I`, `-D`, `-U`)
//! add to the file's lists.
//!
//! ```toml
//! [sources]
//! include = ["include", "build/gen"]   # -I, relative to the directory of ripple.toml
//! define = ["NDEBUG", "LUA_USE_LINUX"] # -D
//! undefine = []                        # -U
//! compile_commands = "build/compile_commands.json"
//! cc = "gcc"
//! raw = false
//! exclude = ["tests", "src/onelua.c"]  # names (of a file or directory anywhere) or paths
//! program = "src/lua.c"                # --program: in a tree of several programs
//!
//! [impact]
//! budget = 10.0                        # --budget
//! level = 1                            # --level: "function", "statement" or K
//!
//! [cache]                              # the report cache of `ripple diff`
//! path = ".ripple/cache.redb"          # --cache
//! enabled = true                       # false: --no-cache
//! reuse_proofs = true                  # --reuse-proofs
//! ```

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

/// The settings of one `ripple.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub sources: Sources,
    #[serde(default)]
    pub impact: Impact,
    #[serde(default)]
    pub cache: CacheSettings,
    /// The directory of the file: relative paths in it are relative to this.
    #[serde(skip)]
    pub dir: PathBuf,
    #[serde(skip)]
    pub path: PathBuf,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sources {
    #[serde(default)]
    pub include: Vec<PathBuf>,
    #[serde(default)]
    pub define: Vec<String>,
    #[serde(default)]
    pub undefine: Vec<String>,
    pub compile_commands: Option<PathBuf>,
    pub cc: Option<String>,
    #[serde(default)]
    pub raw: bool,
    /// Files never read: a name without `/` is a file or directory name anywhere in the
    /// tree; a path (with `/`) is that file or directory, from the version's root.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// `--program`.
    pub program: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Impact {
    pub budget: Option<f64>,
    pub level: Option<toml::Value>,
}

/// `[cache]`: see `crate::cache`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSettings {
    pub path: Option<PathBuf>,
    pub enabled: Option<bool>,
    /// `--reuse-proofs`.
    pub reuse_proofs: Option<bool>,
}

impl ConfigFile {
    /// The file `explicit` names, else the `ripple.toml` found from the current directory
    /// up to the repository's root; `None` when there is none or `ignore` is set.
    pub fn find(explicit: Option<&Path>, ignore: bool) -> Result<Option<ConfigFile>> {
        if ignore {
            return Ok(None);
        }
        let path = match explicit {
            Some(path) => {
                if !path.is_file() {
                    bail!("{}: no such configuration file", path.display());
                }
                path.to_path_buf()
            }
            None => match search() {
                Some(path) => path,
                None => return Ok(None),
            },
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut config: ConfigFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
        config.dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        config.path = path;
        Ok(Some(config))
    }

    /// A path of the file, made absolute against the file's directory.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.dir.join(path)
        }
    }
}

/// `ripple.toml` in the current directory or above, not past the repository's root.
fn search() -> Option<PathBuf> {
    let mut dir = std::env::current_dir().ok()?;
    loop {
        let candidate = dir.join("ripple.toml");
        if candidate.is_file() {
            return Some(candidate);
        }
        if dir.join(".git").exists() || !dir.pop() {
            return None;
        }
    }
}

/// Whether `path` (relative to a version's root) is excluded by one of `patterns`.
pub fn excluded(path: &Path, patterns: &[String]) -> bool {
    patterns.iter().any(|pattern| {
        let pattern = pattern.trim_end_matches('/');
        if pattern.is_empty() {
            return false;
        }
        if pattern.contains('/') {
            let prefix = Path::new(pattern);
            path.starts_with(prefix)
        } else {
            path.components()
                .any(|c| c.as_os_str().to_string_lossy() == pattern)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::excluded;
    use std::path::Path;

    #[test]
    fn names_match_anywhere_and_paths_from_the_root() {
        let patterns = vec!["tests".to_string(), "src/onelua.c".to_string()];
        assert!(excluded(Path::new("tests/a.c"), &patterns));
        assert!(excluded(Path::new("lib/tests/b.c"), &patterns));
        assert!(excluded(Path::new("src/onelua.c"), &patterns));
        assert!(!excluded(Path::new("onelua.c"), &patterns));
        assert!(!excluded(Path::new("src/lua.c"), &patterns));
        assert!(!excluded(Path::new("testsuite/c.c"), &patterns));
    }
}
