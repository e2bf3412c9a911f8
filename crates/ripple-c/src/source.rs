//! Translation units as the frontend receives them, and the map from preprocessed lines
//! back to original files and lines (GCC line markers, `# LINE "FILE" FLAGS`).

/// One translation unit to parse: the text of a `.c` file, preprocessed or raw.
#[derive(Clone, Debug)]
pub struct TranslationUnit {
    /// The path of the main file, as shown to the user (relative to the version root).
    pub path: String,
    /// The text to parse.
    pub text: String,
    /// For preprocessed text, where each line came from; `None` for raw text (every line
    /// is the same line of `path`).
    pub line_map: Option<LineMap>,
}

impl TranslationUnit {
    /// A unit from `cc -E` output, with its line markers read into a [`LineMap`]. The
    /// frontend blanks the marker lines before parsing (GCC also writes markers in the
    /// middle of statements, after macros from system headers, where they are not C).
    pub fn preprocessed(path: String, text: &str, rename: impl FnMut(&str) -> String) -> Self {
        TranslationUnit {
            path,
            text: text.to_string(),
            line_map: Some(LineMap::from_preprocessed(text, rename)),
        }
    }
}

/// Maps line numbers of preprocessed text (1-based) to original (file, line).
///
/// Built from the line markers `cc -E` writes; the marker lines themselves map to
/// nothing. File names are those of the markers, made relative to the version root by
/// the caller (system headers keep their absolute path).
#[derive(Clone, Debug, Default)]
pub struct LineMap {
    /// Interned file names.
    pub files: Vec<String>,
    /// Sorted by `pp_line`: from this preprocessed line on, lines come from `file`
    /// starting at `orig_line`.
    pub segments: Vec<Segment>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub pp_line: u32,
    pub file: u32,
    pub orig_line: u32,
}

impl LineMap {
    /// Reads the line markers of `text`. `rename` turns a marker's file name into the
    /// name to report (e.g. relative to the version root).
    pub fn from_preprocessed(text: &str, mut rename: impl FnMut(&str) -> String) -> LineMap {
        let mut map = LineMap::default();
        let mut index = rustc_hash::FxHashMap::default();
        for (i, line) in text.lines().enumerate() {
            let Some(rest) = line.strip_prefix("# ") else {
                continue;
            };
            let mut parts = rest.splitn(2, ' ');
            let Some(Ok(orig_line)) = parts.next().map(str::parse::<u32>) else {
                continue;
            };
            let Some(name) = parts.next().and_then(|r| {
                let r = r.strip_prefix('"')?;
                let end = r.find('"')?;
                Some(&r[..end])
            }) else {
                continue;
            };
            let file = *index.entry(name.to_string()).or_insert_with(|| {
                map.files.push(rename(name));
                u32::try_from(map.files.len() - 1).unwrap_or(u32::MAX)
            });
            let pp_line = u32::try_from(i + 2).unwrap_or(u32::MAX); // the line after the marker
            map.segments.push(Segment {
                pp_line,
                file,
                orig_line,
            });
        }
        map
    }

    /// The original (file name, line) of preprocessed line `pp_line`.
    pub fn resolve(&self, pp_line: u32) -> Option<(&str, u32)> {
        let at = self.segments.partition_point(|s| s.pp_line <= pp_line);
        let seg = self.segments.get(at.checked_sub(1)?)?;
        Some((
            self.files[seg.file as usize].as_str(),
            seg.orig_line + (pp_line - seg.pp_line),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_lines_back() {
        let text = "# 1 \"a.c\"\nint x;\n# 1 \"inc.h\" 1\nint y;\nint z;\n# 3 \"a.c\" 2\nint w;\n";
        let map = LineMap::from_preprocessed(text, str::to_string);
        assert_eq!(map.resolve(2), Some(("a.c", 1)));
        assert_eq!(map.resolve(4), Some(("inc.h", 1)));
        assert_eq!(map.resolve(5), Some(("inc.h", 2)));
        assert_eq!(map.resolve(7), Some(("a.c", 3)));
    }

    #[test]
    fn preprocessed_units_map_lines_around_markers_inside_statements() {
        let text = "# 1 \"a.c\"\nint x = (\n# 5 \"inc.h\" 3 4\n-1\n# 3 \"a.c\"\n);\n";
        let unit = TranslationUnit::preprocessed("a.c".into(), text, str::to_string);
        let map = unit.line_map.unwrap();
        assert_eq!(map.resolve(4), Some(("inc.h", 5)));
        assert_eq!(map.resolve(6), Some(("a.c", 3)));
    }
}
