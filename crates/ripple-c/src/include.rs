//! Headers the frontend reads in place of the compiler's own: `<stdatomic.h>`, whose GCC
//! version is made of statement expressions, `__auto_type` and `__typeof__` of
//! expressions, which the parser cannot read. Ours (`include/stdatomic.h`) maps every
//! generic function to the `__atomic` builtin it stands for. The preprocessors search
//! [`include_dir`] before the system's directories (`-isystem`).

use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const HEADERS: [(&str, &str); 1] = [("stdatomic.h", include_str!("../include/stdatomic.h"))];

/// The directory holding the headers (written once per content, under the temporary
/// directory, so that its path, which line markers name, is the same in every run);
/// `None` if it cannot be written.
pub fn include_dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut hasher = rustc_hash::FxHasher::default();
        for (name, text) in HEADERS {
            hasher.write(name.as_bytes());
            hasher.write(text.as_bytes());
        }
        let dir = std::env::temp_dir().join(format!("ripple-include-{:016x}", hasher.finish()));
        std::fs::create_dir_all(&dir).ok()?;
        for (name, text) in HEADERS {
            let path = dir.join(name);
            if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
                continue;
            }
            // Written aside and renamed, so that a concurrent run never reads half of it.
            let aside = dir.join(format!("{name}.{}", std::process::id()));
            std::fs::write(&aside, text).ok()?;
            std::fs::rename(&aside, &path).ok()?;
        }
        Some(dir)
    })
    .as_deref()
}
