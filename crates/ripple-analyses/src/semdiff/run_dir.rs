//! The directory a version's runs start in, made the first time a run needs it: a git
//! revision's own tree, written out only when a witness is replayed, so an analysis
//! that runs nothing does not pay for writing it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// What must live as long as the directory is used (a scratch directory removed when
/// dropped).
pub type Keep = Box<dyn std::any::Any + Send + Sync>;

/// Makes the directory: what to keep, and the directory the runs start in; None when
/// it cannot be made.
type Make = dyn Fn() -> Option<(Keep, PathBuf)> + Send + Sync;

/// Where one version's runs start; the default is the current directory. Clones share
/// the one directory, made once.
#[derive(Clone, Default)]
pub struct RunDir(Option<Arc<Lazy>>);

struct Lazy {
    make: Box<Make>,
    made: OnceLock<Option<(Keep, PathBuf)>>,
}

impl RunDir {
    /// A directory `make` writes on first use.
    pub fn new(make: impl Fn() -> Option<(Keep, PathBuf)> + Send + Sync + 'static) -> Self {
        RunDir(Some(Arc::new(Lazy {
            make: Box::new(make),
            made: OnceLock::new(),
        })))
    }

    /// The directory, made now if it was not yet; None: the current directory (also
    /// when it could not be made).
    pub fn path(&self) -> Option<&Path> {
        let lazy = self.0.as_ref()?;
        let made = lazy.made.get_or_init(|| (lazy.make)());
        made.as_ref().map(|(_, dir)| dir.as_path())
    }

    /// Whether the directory has been made (for tests of when it is).
    pub fn is_made(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|lazy| lazy.made.get().is_some())
    }
}

impl std::fmt::Debug for RunDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => write!(f, "RunDir(current)"),
            Some(lazy) => match lazy.made.get() {
                None => write!(f, "RunDir(not made yet)"),
                Some(made) => write!(f, "RunDir({:?})", made.as_ref().map(|(_, d)| d)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_directory_is_made_once_on_first_use() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let dir = RunDir::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            let scratch = tempfile::tempdir().ok()?;
            let inside = scratch.path().join("sub");
            std::fs::create_dir_all(&inside).ok()?;
            Some((Box::new(scratch) as Keep, inside))
        });
        let shared = dir.clone();
        // Nothing is written until a run asks for it.
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        assert!(!dir.is_made());
        let path = dir.path().expect("made").to_path_buf();
        assert!(path.ends_with("sub") && path.is_dir());
        // A clone uses the same directory, not a second copy.
        assert_eq!(shared.path(), Some(path.as_path()));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert!(RunDir::default().path().is_none());
    }
}
