//! Parsing a large unit in pieces: the text is cut at top-level boundaries (after a `;`
//! or a function body `}` at nesting depth 0, outside comments, literals and
//! preprocessor conditionals) into chunks of about [`CHUNK_BYTES`]; the chunks are parsed
//! in parallel (tree-sitter's included ranges keep byte offsets and rows absolute) and
//! lowered in order as they arrive. The cut points depend only on the text, so the
//! result does not depend on the number of threads. A chunk whose first or last item
//! has a syntax error is parsed again together with its neighbour, in case the cut
//! split a construct the scan misread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use tree_sitter::{Parser, Point, Range, Tree};

/// The size chunks are cut at (at the next top-level boundary).
pub(crate) const CHUNK_BYTES: usize = 192 * 1024;

/// A byte range of the text starting at a line start, with its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunk {
    pub start: usize,
    pub end: usize,
    pub start_row: usize,
    pub end_row: usize,
    pub end_col: usize,
}

/// Cuts `text` into chunks at top-level boundaries, each at least `target` bytes long
/// (except the last).
pub(crate) fn split(text: &str, target: usize) -> Vec<Chunk> {
    let b = text.as_bytes();
    let n = b.len();
    let mut cuts: Vec<(usize, usize)> = vec![(0, 0)];
    if n > target {
        let mut depth: i32 = 0;
        let mut pp_depth: i32 = 0;
        let mut row = 0usize;
        let mut last_sig = b'\n';
        let mut boundary = false; // the last depth-0 token ended a top-level item
        let mut brace_opens_body = false;
        let mut line_start = true;
        let mut last_cut = 0usize;
        let mut i = 0;
        while i < n {
            let c = b[i];
            match c {
                b'\n' => {
                    row += 1;
                    line_start = true;
                    if boundary
                        && depth == 0
                        && pp_depth == 0
                        && i + 1 < n
                        && i + 1 - last_cut >= target
                    {
                        last_cut = i + 1;
                        cuts.push((i + 1, row));
                        boundary = false;
                    }
                    i += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => {
                    i += 1;
                    continue;
                }
                b'#' if line_start => {
                    // A directive, with continuation lines.
                    let mut j = i + 1;
                    while j < n && (b[j] == b' ' || b[j] == b'\t') {
                        j += 1;
                    }
                    let word_end = b[j..]
                        .iter()
                        .position(|c| !c.is_ascii_alphanumeric() && *c != b'_')
                        .map_or(n, |p| j + p);
                    match &b[j..word_end] {
                        b"if" | b"ifdef" | b"ifndef" => pp_depth += 1,
                        b"endif" => pp_depth -= 1,
                        _ => {}
                    }
                    while i < n && b[i] != b'\n' {
                        if b[i] == b'\\' && i + 1 < n && b[i + 1] == b'\n' {
                            row += 1;
                            i += 1;
                        } else if b[i] == b'/' && i + 1 < n && b[i + 1] == b'*' {
                            // A comment may span lines.
                            i = skip_block_comment(b, i, &mut row);
                            continue;
                        }
                        i += 1;
                    }
                    continue;
                }
                _ => {}
            }
            line_start = false;
            match c {
                b'/' if i + 1 < n && b[i + 1] == b'/' => {
                    while i < n && b[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'/' if i + 1 < n && b[i + 1] == b'*' => {
                    i = skip_block_comment(b, i, &mut row);
                    continue;
                }
                b'"' | b'\'' => {
                    i += 1;
                    while i < n && b[i] != c && b[i] != b'\n' {
                        if b[i] == b'\\' && i + 1 < n {
                            if b[i + 1] == b'\n' {
                                row += 1;
                            }
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                    last_sig = c;
                    boundary = false;
                    continue;
                }
                b'{' | b'(' | b'[' => {
                    if c == b'{' && depth == 0 {
                        brace_opens_body = last_sig == b')';
                    }
                    depth += 1;
                    boundary = false;
                }
                b'}' | b')' | b']' => {
                    depth -= 1;
                    boundary = c == b'}' && depth == 0 && brace_opens_body;
                    if depth < 0 {
                        depth = 0;
                    }
                }
                b';' => boundary = depth == 0,
                _ => boundary = false,
            }
            last_sig = c;
            i += 1;
        }
    }
    let mut chunks = Vec::with_capacity(cuts.len());
    for (k, &(start, start_row)) in cuts.iter().enumerate() {
        let (end, end_row, end_col) = match cuts.get(k + 1) {
            Some(&(e, r)) => (e, r, 0),
            None => {
                let last_nl = b.iter().rposition(|&c| c == b'\n');
                let rows = b.iter().filter(|&&c| c == b'\n').count();
                (n, rows, last_nl.map_or(n, |p| n - p - 1))
            }
        };
        chunks.push(Chunk {
            start,
            end,
            start_row,
            end_row,
            end_col,
        });
    }
    chunks
}

fn skip_block_comment(b: &[u8], mut i: usize, row: &mut usize) -> usize {
    i += 2;
    while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
        if b[i] == b'\n' {
            *row += 1;
        }
        i += 1;
    }
    (i + 2).min(b.len())
}

/// Parses the chunks `from..=to` (one range) of `text`.
pub(crate) fn parse_range(
    parser: &mut Parser,
    text: &str,
    chunks: &[Chunk],
    from: usize,
    to: usize,
) -> Option<Tree> {
    let (a, z) = (chunks[from], chunks[to]);
    let whole = from == 0 && to + 1 == chunks.len();
    if whole {
        parser.set_included_ranges(&[]).ok()?;
    } else {
        let range = Range {
            start_byte: a.start,
            end_byte: z.end,
            start_point: Point::new(a.start_row, 0),
            end_point: Point::new(z.end_row, z.end_col),
        };
        parser.set_included_ranges(&[range]).ok()?;
    }
    let tree = parser.parse(text, None);
    parser.set_included_ranges(&[]).ok()?;
    tree
}

/// Whether the first (`first`) or last item of a chunk's tree has a syntax error.
pub(crate) fn edge_error(tree: &Tree, first: bool) -> bool {
    let root = tree.root_node();
    if !root.has_error() {
        return false;
    }
    let count = root.child_count();
    if count == 0 {
        return true;
    }
    let child = if first {
        root.child(0)
    } else {
        root.child(count - 1)
    };
    child.is_none_or(|c| c.has_error() || c.is_error())
}

/// Parses every chunk on `threads` workers and hands the trees to `consume` in chunk
/// order, as soon as each is ready.
pub(crate) fn parse_parallel(
    language: &tree_sitter::Language,
    text: &str,
    chunks: &[Chunk],
    threads: usize,
    mut consume: impl FnMut(usize, Option<Tree>),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Option<Tree>)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut parser = Parser::new();
                if parser.set_language(language).is_err() {
                    return;
                }
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= chunks.len() {
                        break;
                    }
                    let tree = parse_range(&mut parser, text, chunks, k, k);
                    if tx.send((k, tree)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: std::collections::BTreeMap<usize, Option<Tree>> = Default::default();
        let mut want = 0;
        for (k, tree) in rx {
            pending.insert(k, tree);
            while let Some(tree) = pending.remove(&want) {
                consume(want, tree);
                want += 1;
            }
        }
        // A worker that failed leaves holes: report them as missing.
        while want < chunks.len() {
            consume(want, pending.remove(&want).flatten());
            want += 1;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_only_at_top_level_boundaries() {
        let text = "int a;\nstruct s { int x; };\nint f(void) {\n  return 1;\n}\n/* ; */\nint b = {\n1 };\nchar *s = \";\\n\";\n#if X\nint c;\n#endif\nint d;\n";
        let chunks = split(text, 1);
        let starts: Vec<&str> = chunks
            .iter()
            .map(|c| text[c.start..c.end].lines().next().unwrap_or(""))
            .collect();
        assert_eq!(
            starts,
            vec![
                "int a;",
                "struct s { int x; };",
                "int f(void) {",
                "/* ; */",
                "char *s = \";\\n\";",
                "#if X",
                "int d;"
            ]
        );
        for w in chunks.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
        assert_eq!(chunks.last().unwrap().end, text.len());
        let rows: Vec<usize> = chunks.iter().map(|c| c.start_row).collect();
        assert_eq!(rows, vec![0, 1, 2, 5, 8, 9, 12]);
    }

    #[test]
    fn chunked_parse_equals_whole_parse() {
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(&format!(
                "struct s{i} {{ int a; char *b; }};\nstatic int f{i}(int x) {{\n  /* {{ */ if (x > {i}) return x - \"}}\"[0];\n  return f{i}(x + 1);\n}}\nint g{i} = {i};\n"
            ));
        }
        let language: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let mut parser = Parser::new();
        parser.set_language(&language).unwrap();
        let whole = parser.parse(&text, None).unwrap();
        let chunks = split(&text, 2000);
        assert!(chunks.len() > 10);
        let mut items = Vec::new();
        parse_parallel(&language, &text, &chunks, 3, |_, tree| {
            let tree = tree.unwrap();
            let root = tree.root_node();
            assert!(!root.has_error());
            let mut cursor = root.walk();
            for c in root.children(&mut cursor) {
                items.push((c.to_sexp(), c.start_byte(), c.start_position()));
            }
        });
        let root = whole.root_node();
        let mut cursor = root.walk();
        let expected: Vec<_> = root
            .children(&mut cursor)
            .map(|c| (c.to_sexp(), c.start_byte(), c.start_position()))
            .collect();
        assert_eq!(items, expected);
    }
}
