//! Moves the SARIF results that ripple places in the old version (a deleted line, a
//! function that exists only there) to the new version's text. Code scanning reads a
//! location's path and line against the commit it analyses, the new one, whatever its
//! `uriBaseId`; an old line number there points at some other line. A result keeps its
//! old place as its first related location, and goes where the deleted lines were: at
//! the new line that follows them (a line diff of the file's two versions).

use rustc_hash::FxHashMap;
use serde_json::{json, Value};
use similar::{ChangeTag, TextDiff};

use crate::load::SourceSet;

/// `log` (a SARIF log as text) with every result placed in the old version moved to the
/// new version, where the file is in both (or each version is one file).
pub fn place_in_new_version(log: String, sources: [&SourceSet; 2]) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(&log) else {
        return log;
    };
    let mut maps = LineMaps {
        sources,
        files: FxHashMap::default(),
    };
    let Some(runs) = value["runs"].as_array_mut() else {
        return log;
    };
    let mut moved = 0;
    for run in runs {
        let Some(results) = run["results"].as_array_mut() else {
            continue;
        };
        for result in results {
            moved += usize::from(move_result(result, &mut maps));
        }
    }
    if moved == 0 {
        return log;
    }
    serde_json::to_string_pretty(&value).unwrap_or(log)
}

/// Moves one result's primary location, if it is in the old version and its file has a
/// new version; says whether it did.
fn move_result(result: &mut Value, maps: &mut LineMaps) -> bool {
    let location = &result["locations"][0];
    let artifact = &location["physicalLocation"]["artifactLocation"];
    if artifact["uriBaseId"] != "OLDROOT" {
        return false;
    }
    let (Some(file), Some(start)) = (
        artifact["uri"].as_str(),
        location["physicalLocation"]["region"]["startLine"].as_u64(),
    ) else {
        return false;
    };
    let end = location["physicalLocation"]["region"]["endLine"]
        .as_u64()
        .unwrap_or(start);
    let Some((new_file, map)) = maps.of(file) else {
        return false;
    };
    let at = |line: u64| {
        map.get(line as usize - 1)
            .copied()
            .unwrap_or(map.len() as u32)
    };
    let (new_start, new_end) = (at(start).max(1), at(end).max(1));
    let mut old_place = location.clone();
    old_place["message"] = json!({ "text": if start == end {
        format!("the old version's line {start}")
    } else {
        format!("the old version's lines {start}-{end}")
    } });
    let related = result["relatedLocations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let next_id = related
        .iter()
        .filter_map(|r| r["id"].as_u64())
        .max()
        .map_or(0, |m| m + 1);
    old_place["id"] = json!(next_id);
    let mut list = vec![old_place];
    list.extend(related);
    result["relatedLocations"] = Value::Array(list);
    result["locations"][0]["physicalLocation"] = json!({
        "artifactLocation": { "uri": new_file, "uriBaseId": "NEWROOT" },
        "region": { "startLine": new_start, "endLine": new_end.max(new_start) }
    });
    true
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
