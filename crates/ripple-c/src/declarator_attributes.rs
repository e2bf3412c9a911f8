//! Which `__attribute__((...))` groups stand after a declarator of a plain declaration
//! (`static char buf[64] __attribute__((aligned(16)));`), a place GCC accepts and the
//! grammar does not (it accepts one after the declarator of a type definition, a
//! structure member or a parameter, and after the type specifier). A text scan, before
//! parsing: string and character literals skipped, braces classified as record bodies
//! (after `struct`, `union` or `enum`) or other blocks, and statements split at `;`,
//! `{` and `}`.

/// For each group `(start, close)` (the offsets of `__attribute__` and of its closing
/// parenthesis, in order), whether it follows a declarator (an identifier, `]` or `)`)
/// and precedes `;`, `,` or `=` in a declaration at file or block scope that is not a
/// `typedef`.
pub(crate) fn after_declarators(bytes: &[u8], groups: &[(usize, usize)]) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum Brace {
        Record,
        Other,
    }
    let mut out = vec![false; groups.len()];
    let mut next_group = 0;
    // Open braces (each with whether the statement it is in is a `typedef`), and open
    // parentheses and brackets within the current statement.
    let mut braces: Vec<(Brace, bool)> = Vec::new();
    let mut parens = 0usize;
    let mut typedef = false;
    let mut record_keyword = false;
    // The last token: an identifier, or the punctuation byte.
    let mut last = Token::None;
    let mut i = 0;
    while i < bytes.len() {
        if next_group < groups.len() && i == groups[next_group].0 {
            let (_, close) = groups[next_group];
            let follows = matches!(last, Token::Word | Token::Byte(b']') | Token::Byte(b')'));
            let precedes =
                next_significant(bytes, close + 1).is_some_and(|b| matches!(b, b';' | b',' | b'='));
            let scope = braces.last().is_none_or(|&(b, _)| b == Brace::Other);
            out[next_group] = follows && precedes && scope && parens == 0 && !typedef;
            next_group += 1;
            // The group is not a token of the declaration.
            i = close + 1;
            continue;
        }
        let b = bytes[i];
        match b {
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                last = Token::Byte(b'"');
                continue;
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &bytes[start..i] {
                    b"typedef" => typedef = true,
                    b"struct" | b"union" | b"enum" => record_keyword = true,
                    _ => {}
                }
                last = Token::Word;
                continue;
            }
            b'0'..=b'9' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                last = Token::Byte(b'0');
                continue;
            }
            b'(' | b'[' => parens += 1,
            b')' | b']' => parens = parens.saturating_sub(1),
            b'{' => {
                let record = record_keyword && last != Token::Byte(b')');
                let kind = if record { Brace::Record } else { Brace::Other };
                braces.push((kind, typedef));
                (parens, typedef, record_keyword) = (0, false, false);
            }
            b'}' => {
                // A record body ends inside its declaration; a block ends a statement.
                typedef = match braces.pop() {
                    Some((Brace::Record, outer)) => outer,
                    _ => false,
                };
                (parens, record_keyword) = (0, false);
            }
            b';' => (parens, typedef, record_keyword) = (0, false, false),
            b'=' => record_keyword = false,
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            last = Token::Byte(b);
        }
        i += 1;
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Token {
    None,
    Word,
    Byte(u8),
}

/// The first byte from `at` that is not white space.
fn next_significant(bytes: &[u8], at: usize) -> Option<u8> {
    bytes
        .get(at..)?
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace())
}

/// The offset just after the string or character literal starting at `at`.
fn skip_literal(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let mut i = at + 1;
    while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
        if bytes[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::after_declarators;

    /// The groups of `text`, each `A(...)` standing for an attribute group.
    fn judged(text: &str) -> Vec<bool> {
        let bytes = text.as_bytes();
        let groups: Vec<(usize, usize)> = text
            .match_indices("A(")
            .map(|(start, _)| (start, start + text[start..].find(')').expect("closed")))
            .collect();
        after_declarators(bytes, &groups)
    }

    #[test]
    fn only_attributes_after_declarators_of_declarations_are_found() {
        // A variable at file scope, in a block, after an array and before an initializer.
        assert_eq!(judged("static char buf[64] A(x);"), [true]);
        assert_eq!(
            judged("int f(void) { int v A(x) = 1, w A(y); }"),
            [true, true]
        );
        // A type definition, a member, a parameter, a struct's own attribute and one
        // before the declarator: the grammar reads them.
        assert_eq!(judged("typedef int v4 A(x);"), [false]);
        assert_eq!(
            judged("struct s { int f A(x); struct { int g A(y); } in; };"),
            [false, false]
        );
        assert_eq!(judged("void h(int p A(x), int q);"), [false]);
        assert_eq!(judged("struct s { int f; } A(x);"), [false]);
        assert_eq!(judged("int A(x) v;"), [false]);
        // After a record body, the declarator of a variable; after a function body, a new
        // declaration; a string with a brace does not count.
        assert_eq!(judged("struct s { int f; } v A(x);"), [true]);
        assert_eq!(judged("typedef struct { int f; } T A(x);"), [false]);
        assert_eq!(
            judged("int f(void) { puts(\"{\"); return 0; } int g A(x);"),
            [true]
        );
    }
}
