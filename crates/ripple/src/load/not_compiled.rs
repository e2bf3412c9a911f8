//! Changed lines the build leaves out: lines of a changed file in a branch of a
//! preprocessor conditional (`#if`, `#ifdef`, `#else`, ...) that no unit of the program
//! analysed compiles. The preprocessed text, which is all the analyses see, holds
//! nothing of them, so a change there (a fix for another platform, in a debug build)
//! would otherwise read as no change at all. Code under `#if 0` (or `#elif 0`) is no
//! build's: like a comment, its change is one of the text only.
//!
//! Which branches a build takes is read off the preprocessed units: a branch is taken
//! when one of its lines of code gave the preprocessor's output a line. A branch with
//! code none of whose lines did is left out. Lines of directives, and branches holding
//! only directives (`#define` under `#ifdef`), are not judged: the output says nothing of
//! them either way, and a changed macro that is used shows in the code it expands to.

use std::collections::{BTreeMap, BTreeSet};

use ripple_c::TranslationUnit;
use rustc_hash::FxHashSet;

/// The lines (1-based) of each of `files` that gave the output of some unit a line.
pub fn compiled_lines<'a>(
    units: impl Iterator<Item = &'a TranslationUnit>,
    files: &BTreeSet<String>,
) -> BTreeMap<String, FxHashSet<u32>> {
    let mut out: BTreeMap<String, FxHashSet<u32>> = BTreeMap::new();
    for unit in units {
        let Some(map) = &unit.line_map else {
            continue;
        };
        let wanted: Vec<bool> = map.files.iter().map(|f| files.contains(f)).collect();
        if !wanted.contains(&true) {
            continue;
        }
        let mut segment = 0;
        for (i, text) in unit.text.lines().enumerate() {
            let pp_line = u32::try_from(i + 1).unwrap_or(u32::MAX);
            while map
                .segments
                .get(segment + 1)
                .is_some_and(|s| s.pp_line <= pp_line)
            {
                segment += 1;
            }
            let Some(s) = map.segments.get(segment).filter(|s| s.pp_line <= pp_line) else {
                continue;
            };
            let marker = text
                .strip_prefix("# ")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
            if marker || text.trim().is_empty() || !wanted[s.file as usize] {
                continue;
            }
            out.entry(map.files[s.file as usize].clone())
                .or_default()
                .insert(s.orig_line + (pp_line - s.pp_line));
        }
    }
    out
}

/// What one line of a C file holds, comments aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    /// Whitespace and comments only.
    Blank,
    Code,
    /// A line of a directive (continuation lines included).
    Directive(Conditional),
}

/// The conditional directives that open, continue or close a branch; `never`: the
/// branch opened is `#if 0` or `#elif 0`, which no build compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conditional {
    Open { never: bool },
    Next { never: bool },
    Close,
    Other,
}

/// The kind of each line of `text`, in order.
fn line_kinds(text: &str) -> Vec<LineKind> {
    let mut kinds = Vec::new();
    let mut in_comment = false;
    let mut directive: Option<Conditional> = None;
    for line in text.split('\n') {
        let mut kind = match directive {
            Some(c) => LineKind::Directive(c),
            None => LineKind::Blank,
        };
        let bytes = line.as_bytes();
        let mut i = 0;
        let mut quote: Option<u8> = None;
        while i < bytes.len() {
            let b = bytes[i];
            if in_comment {
                if b == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    in_comment = false;
                    i += 1;
                }
            } else if let Some(q) = quote {
                if b == b'\\' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
            } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
                in_comment = true;
                i += 1;
            } else if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
                break;
            } else if !b.is_ascii_whitespace() && b != b'\\' {
                if kind == LineKind::Blank {
                    kind = if b == b'#' {
                        LineKind::Directive(conditional(&line[i + 1..], is_if_zero(line)))
                    } else {
                        LineKind::Code
                    };
                }
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                }
            }
            i += 1;
        }
        // A directive goes on past a line ending in a backslash.
        let continued = line.trim_end_matches('\r').ends_with('\\');
        directive = match kind {
            LineKind::Directive(_) if continued => Some(Conditional::Other),
            _ => None,
        };
        kinds.push(kind);
    }
    kinds
}

fn conditional(after_hash: &str, never: bool) -> Conditional {
    let name: String = after_hash
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match name.as_str() {
        "if" | "ifdef" | "ifndef" => Conditional::Open { never },
        "elif" | "elifdef" | "elifndef" | "else" => Conditional::Next { never },
        "endif" => Conditional::Close,
        _ => Conditional::Other,
    }
}

/// The lines (1-based) of `text` that are code in a branch the build leaves out,
/// `compiled` being the lines that gave the output a line.
pub fn left_out_lines(text: &str, compiled: &FxHashSet<u32>) -> BTreeSet<u32> {
    let kinds = line_kinds(text);
    // Branch 0 is the file outside any conditional; each branch knows its parent.
    let mut parent: Vec<usize> = vec![0];
    let mut has_code = vec![false];
    let mut taken = vec![true];
    // Branches no build compiles: `#if 0`, `#elif 0`, and what they hold.
    let mut dead = vec![false];
    let mut current = 0;
    let mut branch_of = Vec::with_capacity(kinds.len());
    for (i, kind) in kinds.iter().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let opens = match *kind {
            LineKind::Directive(Conditional::Open { never }) => Some((current, never)),
            LineKind::Directive(Conditional::Next { never }) => Some((parent[current], never)),
            _ => None,
        };
        if let Some((up, never)) = opens {
            branch_of.push(up);
            parent.push(up);
            has_code.push(false);
            taken.push(false);
            dead.push(dead[up] || never);
            current = parent.len() - 1;
            continue;
        }
        match kind {
            LineKind::Directive(Conditional::Close) => {
                current = parent[current];
                branch_of.push(current);
            }
            LineKind::Code => {
                branch_of.push(current);
                has_code[current] = true;
                if compiled.contains(&line) {
                    taken[current] = true;
                }
            }
            _ => branch_of.push(current),
        }
    }
    // A branch holding a taken one is taken (children come after their parents).
    for b in (1..parent.len()).rev() {
        if taken[b] {
            taken[parent[b]] = true;
        }
    }
    kinds
        .iter()
        .zip(&branch_of)
        .enumerate()
        .filter(|(_, (kind, &b))| **kind == LineKind::Code && has_code[b] && !taken[b] && !dead[b])
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect()
}

/// Whether a directive line is `#if 0` or `#elif 0` (comments aside).
fn is_if_zero(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let rest = rest.trim_start();
    let condition = rest
        .strip_prefix("elif")
        .or_else(|| rest.strip_prefix("if"))
        .filter(|c| c.starts_with(|ch: char| ch.is_whitespace() || ch == '('));
    let Some(condition) = condition else {
        return false;
    };
    let condition = condition.split("//").next().unwrap_or("");
    let condition = condition.split("/*").next().unwrap_or("");
    matches!(condition.trim(), "0" | "(0)")
}

/// The changed lines of a file, per version, that the build of that version leaves
/// out: `old` and `new` are the texts (empty for a version without the file), each
/// with the lines it left out ([`left_out_lines`]).
pub fn changed_lines_left_out(
    (old, old_left_out): (&str, &BTreeSet<u32>),
    (new, new_left_out): (&str, &BTreeSet<u32>),
) -> (Vec<u32>, Vec<u32>) {
    let diff = similar::TextDiff::from_lines(old, new);
    let (mut old_lines, mut new_lines) = (Vec::new(), Vec::new());
    for op in diff.ops() {
        for line in op.old_range() {
            let line = u32::try_from(line + 1).unwrap_or(u32::MAX);
            if op.tag() != similar::DiffTag::Equal && old_left_out.contains(&line) {
                old_lines.push(line);
            }
        }
        for line in op.new_range() {
            let line = u32::try_from(line + 1).unwrap_or(u32::MAX);
            if op.tag() != similar::DiffTag::Equal && new_left_out.contains(&line) {
                new_lines.push(line);
            }
        }
    }
    (old_lines, new_lines)
}

/// The code of each line of `text`: comments removed, runs of whitespace made one space.
fn code_of_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_comment = false;
    for line in text.split('\n') {
        let mut code = String::new();
        let bytes = line.as_bytes();
        let mut quote: Option<u8> = None;
        let mut i = 0;
        let mut space = false;
        while i < bytes.len() {
            let b = bytes[i];
            if in_comment {
                if b == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    in_comment = false;
                    space = true;
                    i += 1;
                }
            } else if quote.is_none() && b == b'/' && bytes.get(i + 1) == Some(&b'*') {
                in_comment = true;
                i += 1;
            } else if quote.is_none() && b == b'/' && bytes.get(i + 1) == Some(&b'/') {
                break;
            } else if quote.is_none() && b.is_ascii_whitespace() {
                space = true;
            } else {
                if space && !code.is_empty() {
                    code.push(' ');
                }
                space = false;
                code.push(char::from(b));
                match quote {
                    Some(_) if b == b'\\' => {
                        if let Some(&next) = bytes.get(i + 1) {
                            code.push(char::from(next));
                            i += 1;
                        }
                    }
                    Some(q) if b == q => quote = None,
                    None if b == b'"' || b == b'\'' => quote = Some(b),
                    _ => {}
                }
            }
            i += 1;
        }
        out.push(code);
    }
    out
}

/// The lines (1-based) of two versions of a file whose code differs (comments and
/// spacing aside) among the lines each build compiles: the changes a build reads.
pub fn changed_compiled_lines(
    (old, old_compiled): (&str, &FxHashSet<u32>),
    (new, new_compiled): (&str, &FxHashSet<u32>),
) -> (Vec<u32>, Vec<u32>) {
    let (old_code, new_code) = (code_of_lines(old), code_of_lines(new));
    let diff = similar::capture_diff_slices(similar::Algorithm::Myers, &old_code, &new_code);
    let (mut old_lines, mut new_lines) = (Vec::new(), Vec::new());
    for op in diff {
        if op.tag() == similar::DiffTag::Equal {
            continue;
        }
        for (range, code, compiled, lines) in [
            (op.old_range(), &old_code, old_compiled, &mut old_lines),
            (op.new_range(), &new_code, new_compiled, &mut new_lines),
        ] {
            for i in range {
                let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
                if !code[i].is_empty() && compiled.contains(&line) {
                    lines.push(line);
                }
            }
        }
    }
    (old_lines, new_lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "#include \"h.h\"\n\
        int f(int a) {\n\
        \x20 /* a comment\n\
        \x20    #if 0 in it */\n\
        \x20 int r = F(a +\n\
        \x20           1);\n\
        #ifdef _WIN32\n\
        \x20 r = r * 2;\n\
        # if defined(X) \\\n\
        \x20    || defined(Y)\n\
        \x20 r = r * 5;\n\
        # endif\n\
        #else\n\
        \x20 r = r + 1;  // \"#endif\n\
        #endif\n\
        #ifdef CONFIG\n\
        #define LIMIT 3\n\
        #endif\n\
        \x20 return r;\n\
        }\n";

    /// Lines 8 and 11 sit under `#ifdef _WIN32`, whose branch gave no output line (the
    /// `#else` branch's line 14 did); line 6 continues a macro call whose output is on
    /// line 5; the `#define` under `#ifdef CONFIG` is not judged.
    #[test]
    fn code_in_a_branch_without_output_is_left_out() {
        let compiled: FxHashSet<u32> = [1, 2, 5, 14, 19, 20].into_iter().collect();
        let left_out = left_out_lines(FILE, &compiled);
        assert_eq!(left_out.into_iter().collect::<Vec<_>>(), vec![8, 11]);
    }

    /// Code under `#if 0` (and `#elif 0`, and what they hold) is no build's: it is not
    /// left out by this build, it is never compiled, like a comment. Its `#else` is a
    /// branch like any other.
    #[test]
    fn code_under_if_zero_is_no_builds() {
        let text = "int f(int r) {\n#if 0\n  r = 1;\n# ifdef X\n  r = 2;\n# endif\n#else\n  r = 3;\n#endif\n#if 0 /* old */\n  r = 4;\n#elif 0\n  r = 5;\n#elif defined(Y)\n  r = 6;\n#endif\n  return r;\n}\n";
        let compiled: FxHashSet<u32> = [1, 17, 18].into_iter().collect();
        let left_out = left_out_lines(text, &compiled);
        // Line 8 (`#else` of `#if 0`) and line 15 (`#elif defined(Y)`) are branches
        // this build does not take; lines 3, 5, 11 and 13 are no build's.
        assert_eq!(left_out.into_iter().collect::<Vec<_>>(), vec![8, 15]);
        assert!(is_if_zero("#if 0") && is_if_zero("  #  elif (0) // never"));
        assert!(!is_if_zero("#if 0x1") && !is_if_zero("#ifdef ZERO") && !is_if_zero("#if 01 + 1"));
    }

    /// A changed line is reported in the version whose build leaves it out; a changed
    /// line compiled, or only a comment, is not.
    #[test]
    fn changed_lines_are_those_left_out() {
        let new = FILE
            .replace("r = r * 2;", "r = r * 3;")
            .replace("r = r + 1;", "r = r + 2;")
            .replace("a comment", "another comment");
        let compiled: FxHashSet<u32> = [1, 2, 5, 14, 19, 20].into_iter().collect();
        let (old_out, new_out) = (
            left_out_lines(FILE, &compiled),
            left_out_lines(&new, &compiled),
        );
        let (old_lines, new_lines) = changed_lines_left_out((FILE, &old_out), (&new, &new_out));
        assert_eq!((old_lines, new_lines), (vec![8], vec![8]));
    }
}
