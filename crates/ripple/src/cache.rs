//! The report cache of `ripple diff`, `ripple impact` and `ripple semdiff`. A report is stored under a
//! content hash (xxh3-128) of everything it is computed from: both versions' translation
//! units of the program analysed (preprocessed text and line origins), the options that
//! shape the report, and the build of ripple itself. A later run with the same inputs (a CI job run again, the
//! same pair rendered in another format, a range of commits analysed again) prints the
//! stored report instead of analysing again; anything else misses and is analysed.
//!
//! Only reports that another run would give again are stored: none that a wall-clock
//! cut-off stopped (the budgets count work, so the rest does not depend on the machine).
//!
//! The store is a redb database: `.ripple/cache.redb` at the root of the git work tree
//! of the current directory (none outside one), `--cache FILE` or `ripple.toml`'s
//! `[cache] path`; `--no-cache` or `[cache] enabled = false` turn it off. Reports are
//! kept lz4-compressed, the least recently used dropped past [`LIMIT_BYTES`]. Concurrent
//! runs wait for each other's short transactions (redb locks the file); a database that
//! cannot be read, or holds another format, is replaced, and the run goes on without the
//! cache when the file stays busy or cannot be written.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redb::{Database, DatabaseError, ReadableDatabase, ReadableTable, TableDefinition};
use xxhash_rust::xxh3::Xxh3;

/// Stored reports (compressed JSON), by key.
const REPORTS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("reports");
/// When each report was last used (seconds since the epoch) and its stored size.
const USED: TableDefinition<&[u8], (u64, u64)> = TableDefinition::new("used");
/// `format`: the layout of the tables and of the keys.
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");
const FORMAT: u64 = 1;
/// The stored bytes past which the least recently used reports are dropped.
const LIMIT_BYTES: u64 = 512 << 20;
/// How long a run waits for the database while other runs hold it.
const PATIENCE: Duration = Duration::from_secs(5);

/// A key: the hash of what a report is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key([u8; 16]);

/// Builds a key from parts, each length-prefixed so that no two lists of parts collide
/// by concatenation.
pub struct KeyBuilder(Xxh3);

impl KeyBuilder {
    /// A key for `kind` of result, made by this build of ripple.
    pub fn new(kind: &str) -> KeyBuilder {
        let mut builder = KeyBuilder(Xxh3::new());
        builder
            .number(FORMAT)
            .text(env!("CARGO_PKG_VERSION"))
            .text(&build_id())
            .text(kind);
        builder
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn text(&mut self, text: &str) -> &mut Self {
        self.bytes(text.as_bytes())
    }

    pub fn number(&mut self, n: u64) -> &mut Self {
        self.bytes(&n.to_le_bytes())
    }

    /// Both versions as they were read: the lowered units of each (their content hash),
    /// its label and the changed files left out (see
    /// [`crate::load::PreparedProgram::key_parts`]), and the settings they were read and
    /// built with (the compiler that confirms witnesses, its flags).
    pub fn versions(
        &mut self,
        versions: [(u128, &str, &[String]); 2],
        config: &crate::load::LoadConfig,
    ) -> &mut Self {
        for (content, label, left_out) in versions {
            self.bytes(&content.to_le_bytes())
                .text(label)
                .text(&left_out.join("\n"));
        }
        self.text(&config.preprocess.cc)
            .text(&config.preprocess.flags.join("\n"))
            .text(&format!("{:?}", config.preprocess.mode))
            .number(u64::from(config.frontend.build_syntax))
    }

    pub fn finish(&self) -> Key {
        Key(self.0.digest128().to_le_bytes())
    }
}

/// This build of ripple: a hash of the sources it was built from (`build.rs`; another
/// build may analyse differently under the same version number), and the solver's
/// version.
fn build_id() -> String {
    format!(
        "{} {}",
        env!("RIPPLE_SOURCE_ID"),
        ripple_symex::smt::solver_version()
    )
}

/// The key of a version's diagnostics: what was lowered, and how.
fn diagnostics_key(content: u128, config: &crate::load::LoadConfig) -> Key {
    KeyBuilder::new("diagnostics")
        .bytes(&content.to_le_bytes())
        .number(u64::from(config.frontend.build_syntax))
        .finish()
}

/// Where the cache is, and whether to say what it does.
pub struct Cache {
    path: PathBuf,
    verbose: bool,
    /// Whether proofs stored by earlier runs are taken (`crate::proved`); they are
    /// stored in any case.
    reuse_proofs: bool,
}

impl Cache {
    /// The cache `explicit` names, else `.ripple/cache.redb` at the root of the git work
    /// tree holding the current directory; none when `disabled` or outside a work tree.
    pub fn locate(explicit: Option<&Path>, disabled: bool, verbose: bool) -> Option<Cache> {
        if disabled {
            return None;
        }
        let path = match explicit {
            Some(path) => path.to_path_buf(),
            None => crate::load::git_top_level()?
                .join(".ripple")
                .join("cache.redb"),
        };
        Some(Cache {
            path,
            verbose,
            reuse_proofs: false,
        })
    }

    /// This cache, taking the proofs earlier runs stored when `reuse` is set.
    pub fn reusing_proofs(self, reuse: bool) -> Cache {
        Cache {
            reuse_proofs: reuse,
            ..self
        }
    }

    pub fn reuses_proofs(&self) -> bool {
        self.reuse_proofs
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The report stored under `key`, decompressed.
    pub fn get(&self, key: &Key) -> Option<Vec<u8>> {
        self.guarded(|| self.get_unguarded(key))
    }

    /// Runs `work` on the database; a database damaged in a way its library does not
    /// detect makes it panic: the file is then removed (the next run builds a new one)
    /// and this run goes on without the cache.
    fn guarded<T>(&self, work: impl FnOnce() -> Option<T>) -> Option<T> {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        std::panic::set_hook(hook);
        result.unwrap_or_else(|_| {
            eprintln!(
                "ripple: the cache {} is damaged; it is removed, and this run does without it",
                self.path.display()
            );
            let _ = std::fs::remove_file(&self.path);
            None
        })
    }

    fn get_unguarded(&self, key: &Key) -> Option<Vec<u8>> {
        let db = self.open()?;
        let stored = (|| -> Result<Option<Vec<u8>>, redb::Error> {
            let read = db.begin_read()?;
            let table = match read.open_table(REPORTS) {
                Ok(table) => table,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            Ok(table.get(key.0.as_slice())?.map(|v| v.value().to_vec()))
        })();
        let stored = match stored {
            Ok(stored) => stored?,
            Err(e) => {
                self.note(&format!(
                    "cannot read the cache {}: {e}",
                    self.path.display()
                ));
                return None;
            }
        };
        let Ok(data) = lz4_flex::decompress_size_prepended(&stored) else {
            self.note(&format!(
                "a report in the cache {} cannot be read; it is analysed again",
                self.path.display()
            ));
            return None;
        };
        // Mark it used (a failure only affects which reports are dropped first).
        let _ = (|| -> Result<(), redb::Error> {
            let write = db.begin_write()?;
            write
                .open_table(USED)?
                .insert(key.0.as_slice(), (now(), stored.len() as u64))?;
            write.commit()?;
            Ok(())
        })();
        Some(data)
    }

    /// The diagnostics stored for both versions (with their reports, so that a report
    /// read back needs no lowering); `None` unless both are there.
    pub fn diagnostics(
        &self,
        versions: &[crate::load::PreparedProgram; 2],
        config: &crate::load::LoadConfig,
    ) -> Option<[Vec<ripple_c::Diagnostic>; 2]> {
        let read = |v: &crate::load::PreparedProgram| {
            let bytes = self.get(&diagnostics_key(v.content, config))?;
            crate::load::diagnostics_from_text(std::str::from_utf8(&bytes).ok()?)
        };
        Some([read(&versions[0])?, read(&versions[1])?])
    }

    pub fn put_diagnostics(
        &self,
        version: &crate::load::LoadedVersion,
        config: &crate::load::LoadConfig,
    ) {
        let text = crate::load::diagnostics_to_text(version.diagnostics());
        self.put(&diagnostics_key(version.content, config), text.as_bytes());
    }

    /// Stores `data` under `key`, then drops the least recently used reports past the
    /// size limit.
    pub fn put(&self, key: &Key, data: &[u8]) {
        self.guarded(|| {
            self.put_unguarded(key, data);
            Some(())
        });
    }

    fn put_unguarded(&self, key: &Key, data: &[u8]) {
        let Some(mut db) = self.open() else {
            return;
        };
        let stored = lz4_flex::compress_prepend_size(data);
        let result = (|| -> Result<bool, redb::Error> {
            let write = db.begin_write()?;
            let dropped;
            {
                let mut reports = write.open_table(REPORTS)?;
                let mut used = write.open_table(USED)?;
                reports.insert(key.0.as_slice(), stored.as_slice())?;
                used.insert(key.0.as_slice(), (now(), stored.len() as u64))?;
                let mut entries: Vec<(u64, u64, Vec<u8>)> = Vec::new();
                for entry in used.iter()? {
                    let (k, v) = entry?;
                    let (when, size) = v.value();
                    entries.push((when, size, k.value().to_vec()));
                }
                let mut total: u64 = entries.iter().map(|e| e.1).sum();
                entries.sort();
                dropped = total > LIMIT_BYTES;
                for (_, size, k) in entries {
                    if total <= LIMIT_BYTES {
                        break;
                    }
                    if k == key.0 {
                        continue;
                    }
                    reports.remove(k.as_slice())?;
                    used.remove(k.as_slice())?;
                    total -= size;
                }
            }
            write.commit()?;
            Ok(dropped)
        })();
        match result {
            Ok(true) => {
                // Give the space of the dropped reports back to the file system.
                let _ = db.compact();
            }
            Ok(false) => {}
            Err(e) => self.note(&format!(
                "cannot write the cache {}: {e}",
                self.path.display()
            )),
        }
    }

    /// The database, waiting while other runs hold it; replaced when it cannot be read
    /// or holds another format.
    fn open(&self) -> Option<Database> {
        if let Some(dir) = self.path.parent() {
            if std::fs::create_dir_all(dir).is_err() {
                self.note(&format!("cannot create {}; no cache", dir.display()));
                return None;
            }
            // A cache is nothing to commit.
            let ignore = dir.join(".gitignore");
            if dir.ends_with(".ripple") && !ignore.exists() {
                let _ = std::fs::write(ignore, "*\n");
            }
        }
        let start = std::time::Instant::now();
        let mut replaced = false;
        let mut wait = Duration::from_millis(5);
        loop {
            let problem = match Database::create(&self.path) {
                Ok(db) => match format_of(&db) {
                    Ok(FORMAT) => return Some(db),
                    Ok(other) => format!("it holds format {other}, this build reads {FORMAT}"),
                    Err(e) => e.to_string(),
                },
                Err(DatabaseError::DatabaseAlreadyOpen) => {
                    if start.elapsed() > PATIENCE {
                        self.note(&format!(
                            "the cache {} stayed busy; this run does without it",
                            self.path.display()
                        ));
                        return None;
                    }
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_millis(100));
                    continue;
                }
                Err(e) => e.to_string(),
            };
            if replaced {
                eprintln!(
                    "ripple: warning: cannot use the cache {} ({problem}); this run does without it",
                    self.path.display()
                );
                return None;
            }
            eprintln!(
                "ripple: the cache {} cannot be read ({problem}); it is replaced",
                self.path.display()
            );
            let _ = std::fs::remove_file(&self.path);
            replaced = true;
        }
    }

    fn note(&self, message: &str) {
        if self.verbose {
            eprintln!("ripple: {message}");
        }
    }
}

/// The format a database holds; a new one is given this build's.
fn format_of(db: &Database) -> Result<u64, redb::Error> {
    {
        let read = db.begin_read()?;
        match read.open_table(META) {
            Ok(meta) => {
                if let Some(format) = meta.get("format")? {
                    return Ok(format.value());
                }
            }
            Err(redb::TableError::TableDoesNotExist(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let write = db.begin_write()?;
    write.open_table(META)?.insert("format", FORMAT)?;
    write.commit()?;
    Ok(FORMAT)
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u64) -> Key {
        KeyBuilder::new("test").number(n).finish()
    }

    #[test]
    fn a_stored_report_is_read_back_and_others_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::locate(Some(&dir.path().join("c.redb")), false, false).unwrap();
        assert_eq!(cache.get(&key(1)), None);
        cache.put(&key(1), b"report one");
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&b"report one"[..]));
        assert_eq!(cache.get(&key(2)), None);
    }

    #[test]
    fn parts_are_not_confused_by_concatenation() {
        let ab_c = KeyBuilder::new("k").text("ab").text("c").finish();
        let a_bc = KeyBuilder::new("k").text("a").text("bc").finish();
        assert_ne!(ab_c, a_bc);
        assert_eq!(ab_c, KeyBuilder::new("k").text("ab").text("c").finish());
    }

    #[test]
    fn a_file_that_is_no_database_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.redb");
        std::fs::write(&path, b"not a database at all, just some bytes").unwrap();
        let cache = Cache::locate(Some(&path), false, false).unwrap();
        assert_eq!(cache.get(&key(1)), None);
        cache.put(&key(1), b"fresh");
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&b"fresh"[..]));
    }

    #[test]
    fn a_database_of_another_format_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.redb");
        let cache = Cache::locate(Some(&path), false, false).unwrap();
        cache.put(&key(1), b"old");
        {
            let db = Database::create(&path).unwrap();
            let write = db.begin_write().unwrap();
            write
                .open_table(META)
                .unwrap()
                .insert("format", FORMAT + 1)
                .unwrap();
            write.commit().unwrap();
        }
        // The entry written under the other format is not read.
        assert_eq!(cache.get(&key(1)), None);
        cache.put(&key(2), b"new");
        assert_eq!(cache.get(&key(2)).as_deref(), Some(&b"new"[..]));
    }

    #[test]
    fn runs_at_the_same_time_wait_for_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.redb");
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let path = &path;
                s.spawn(move || {
                    let cache = Cache::locate(Some(path), false, false).unwrap();
                    for i in 0..5 {
                        let n = t * 10 + i;
                        cache.put(&key(n), n.to_string().as_bytes());
                        assert_eq!(cache.get(&key(n)), Some(n.to_string().into_bytes()));
                    }
                });
            }
        });
    }
}
