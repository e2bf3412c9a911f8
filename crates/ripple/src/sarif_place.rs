//! Where an old version's line is in the new version's text, for the SARIF results
//! ripple places in the old version (a deleted line, a function only it has), which
//! `ripple_report::sarif::place_in_new_version` moves to the new version: code scanning
//! reads every location against the commit it analyses, the new one. A kept line maps
//! to its own new line, a deleted one to the new line that follows it (a line diff of
//! the file's two versions).

use rustc_hash::FxHashMap;
use similar::{ChangeTag, TextDiff};

use crate::load::SourceSet;

/// `log` (a SARIF log as text) with every result placed in the old version moved to the
/// new version, where the file is in both (or each version is one file).
pub fn place_in_new_version(log: String, sources: [&SourceSet; 2]) -> String {
    let mut maps = LineMaps {
        sources,
        files: FxHashMap::default(),
    };
    ripple_report::sarif::place_in_new_version(log, &mut |file, line| {
        let (new_file, map) = maps.of(file)?;
        let at = map
            .get((line as usize).saturating_sub(1))
            .copied()
            .unwrap_or(map.len() as u32);
        Some((new_file, at.max(1)))
    })
}

/// Per old file, its new file and the new line of each old line (1-based; a deleted
/// line maps to the new line that follows it).
struct LineMaps<'a> {
    sources: [&'a SourceSet; 2],
    files: FxHashMap<String, Option<(String, Vec<u32>)>>,
}

impl LineMaps<'_> {
    fn of(&mut self, file: &str) -> Option<(String, &[u32])> {
        let sources = self.sources;
        let entry = self
            .files
            .entry(file.to_string())
            .or_insert_with(|| line_map(sources, file));
        entry.as_ref().map(|(f, m)| (f.clone(), m.as_slice()))
    }
}

fn line_map(sources: [&SourceSet; 2], file: &str) -> Option<(String, Vec<u32>)> {
    let [old, new] = sources;
    let new_file = if old.files.len() == 1 && new.files.len() == 1 {
        new.files[0].to_string_lossy().into_owned()
    } else if new.root.join(file).is_file() {
        file.to_string()
    } else {
        return None;
    };
    let old_text = std::fs::read(old.root.join(file)).ok()?;
    let new_text = std::fs::read(new.root.join(&new_file)).ok()?;
    let (old_text, new_text) = (
        String::from_utf8_lossy(&old_text),
        String::from_utf8_lossy(&new_text),
    );
    Some((new_file, map_lines(&old_text, &new_text)))
}

/// The new line (1-based) of each old line: its own where it is kept, else the next kept
/// or inserted line's.
fn map_lines(old: &str, new: &str) -> Vec<u32> {
    let diff = TextDiff::from_lines(old, new);
    let mut map = Vec::new();
    let mut new_line = 1u32;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Equal => {
                map.push(new_line);
                new_line += 1;
            }
            ChangeTag::Delete => map.push(new_line),
            ChangeTag::Insert => new_line += 1,
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::map_lines;

    #[test]
    fn a_deleted_line_maps_to_the_line_that_follows_it() {
        let old = "a\nb\nx\nc\n";
        let new = "a\nb\nc\nd\n";
        // a, b and c keep their lines (c moves from 4 to 3); x, deleted, goes to c's.
        assert_eq!(map_lines(old, new), vec![1, 2, 3, 3]);
        // Lines inserted before a kept one move it down.
        assert_eq!(map_lines("a\nb\n", "z\na\nb\n"), vec![2, 3]);
    }
}
