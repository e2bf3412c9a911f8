//! Functions that may access `volatile` objects. Every analysis reads a volatile object
//! as ordinary memory, but C makes each access to one observable (C11 5.1.2.3p6): two
//! reads of a flag another thread or a device sets may differ, and a dropped or
//! reordered access is a change. The frontend does not track qualifiers through types,
//! so the functions that may access such objects are found from the text, over-
//! approximated: a function whose definition says `volatile`, or names an identifier
//! that some declaration saying `volatile` declares (a variable, a member, a typedef).
//! The semantic analyses never call such a function equivalent to another version of
//! it, nor a function that may call one (`ripple_ir::Program::volatile`).

use rustc_hash::FxHashSet;

/// The identifiers declared by the declarations of `text` (a preprocessed unit) that
/// say `volatile`: variables, members and typedef names. A declaration is the text
/// between the separators `;`, `{` and `}` around the keyword; one that opens a record
/// (`volatile struct { ... } x;`) declares what follows its closing brace, and one that
/// opens a function body declares nothing outside it (its text says `volatile`).
pub(crate) fn declared_names(text: &str) -> FxHashSet<String> {
    let mut names = FxHashSet::default();
    let bytes = text.as_bytes();
    // The innermost open brace at each position, found in one pass.
    let mut open: Vec<usize> = Vec::new();
    let mut scanned = 0;
    for (at, _) in text.match_indices("volatile") {
        if !is_token(bytes, at, at + "volatile".len()) {
            continue;
        }
        for (i, &b) in bytes[scanned..at].iter().enumerate() {
            match b {
                b'{' => open.push(scanned + i),
                b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
        scanned = at;
        // A declaration in a block (a function's local) is named only in the function
        // that declares it, whose text says `volatile`; a member is named anywhere.
        if let Some(&brace) = open.last() {
            if !opens_record(&text[..brace]) {
                continue;
            }
        }
        let start = text[..at].rfind([';', '{', '}']).map_or(0, |i| i + 1);
        // Inside parentheses the keyword qualifies a cast's type or a parameter's
        // (`(volatile u32 **)&p`, `void volatile **pp` in a prototype), whose accesses
        // are in a function whose text says `volatile`: it declares no volatile object,
        // unless it qualifies a pointer declarator (`int (*volatile fp)(void)`).
        let depth = text[start..at].matches('(').count() as isize
            - text[start..at].matches(')').count() as isize;
        if depth > 0 && !text[start..at].trim_end().ends_with('*') {
            continue;
        }
        let mut end = text[at..]
            .find([';', '{', '}'])
            .map_or(text.len(), |i| at + i);
        let mut declaration = &text[start..end];
        if bytes.get(end) == Some(&b'{') {
            if declaration.contains('(') {
                continue;
            }
            // A record body: the declarators follow its closing brace.
            let mut depth = 0usize;
            let mut close = text.len();
            for (i, b) in text[end..].bytes().enumerate() {
                match b {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            close = end + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            end = text[close..].find(';').map_or(text.len(), |i| close + i);
            declaration = &text[close..end];
        }
        names.extend(declarators(declaration).map(str::to_string));
    }
    names
}

/// The names a declaration (its specifiers and declarators) declares: per declarator
/// (split at commas outside brackets), its last identifier before an initializer, an
/// array size or a bit-field width; in a function pointer declarator, the one in its
/// first parentheses.
fn declarators(declaration: &str) -> impl Iterator<Item = &str> {
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0i32, 0usize);
    for (i, b) in declaration.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&declaration[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&declaration[from..]);
    parts.into_iter().filter_map(|part| {
        let part = part.split(['=', '[', ':']).next().unwrap_or("");
        let part = match (part.find('('), part.find(')')) {
            (Some(open), Some(close)) if open < close => &part[open + 1..close],
            _ => part,
        };
        identifiers(part).filter(|id| !KEYWORDS.contains(id)).last()
    })
}

/// C keywords and GNU spellings that are never declared names.
const KEYWORDS: &[&str] = &[
    "auto",
    "char",
    "const",
    "double",
    "enum",
    "extern",
    "float",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "short",
    "signed",
    "static",
    "struct",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "_Bool",
    "_Complex",
    "_Atomic",
    "_Thread_local",
    "__volatile",
    "__volatile__",
    "__restrict",
    "__restrict__",
    "__inline",
    "__inline__",
    "__extension__",
    "__attribute__",
    "__const",
    "__signed__",
    "__thread",
    "return",
    "if",
    "else",
    "while",
    "for",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "goto",
    "sizeof",
];

/// Whether the text of a function definition says `volatile` or names one of `names`.
pub(crate) fn mentions(text: &str, names: &FxHashSet<String>) -> bool {
    identifiers(text).any(|id| id.trim_start_matches('_') == "volatile" || names.contains(id))
}

/// Whether the brace after `before` opens a record's body: `struct`, `union` or either
/// with its tag just before it.
fn opens_record(before: &str) -> bool {
    let mut words = before
        .trim_end()
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    let last = words.next();
    let ends = |w: Option<&str>| matches!(w, Some("struct" | "union"));
    let tail = before.trim_end();
    let last_is_word = tail
        .chars()
        .last()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    last_is_word && (ends(last) || ends(words.next()))
}

fn is_token(bytes: &[u8], start: usize, end: usize) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    (start == 0 || !ident(bytes[start - 1])) && bytes.get(end).is_none_or(|b| !ident(*b))
}

/// The identifiers and keywords of `text`, outside string and character literals and
/// line markers.
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'"' || b == b'\'' {
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            } else if b == b'#' && (i == 0 || bytes[i - 1] == b'\n') {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            } else if b.is_ascii_alphabetic() || b == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                return Some(&text[start..i]);
            } else if b.is_ascii_digit() {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_volatile_declarations_and_functions_using_them() {
        let unit = "typedef struct s { volatile int done; int other; } s_t;\n\
                    static volatile int flag;\ntypedef volatile unsigned reg_t;\n\
                    static volatile struct { int a; } st;\nint q(volatile int *p) { return *p; }\n\
                    int w(void) { return st.a; }\nint z(int *p) { return *p; }\n\
                    int f(s_t *p) { return p->done; }\nint g(s_t *p) { return p->other; }\n\
                    int h(void) { return flag; }\nint k(reg_t *r) { return *r; }\n\
                    int m(int *x) { return *(volatile int *)x; }\nint n(void) { return \"volatile\"[0]; }\n\
                    int map(int i, void volatile **pp);\nint (*volatile hook)(void);\n\
                    int cast(int *rc) { *rc = map(1, (void volatile **)&rc); return *rc; }\n\
                    int plain(int rc, int pp) { return rc + pp; }\nint calls(void) { return hook(); }\n\
                    int local(void) { volatile int x = 0; return x; }\nint other(int x) { return x; }\n\
                    int nested(void) { struct { volatile int y; } l; return l.y; }\nint member(void) { return y; }\n";
        let names = declared_names(unit);
        let def = |name: &str| {
            let start = unit.find(&format!("int {name}(")).unwrap();
            &unit[start..start + unit[start..].find('\n').unwrap()]
        };
        // `cast` says `volatile` itself; `plain` only shares names with a cast's operand
        // and a prototype's parameter (sqlite3.c's `rc` and `pp`); `calls` reads `hook`.
        // `local` declares its own volatile `x`, which `other`'s `x` is not (sqlite3.c's
        // `volatile int x = 0;`); a member's name counts wherever it is declared.
        for f in [
            "f", "h", "k", "m", "q", "w", "cast", "calls", "local", "nested", "member",
        ] {
            assert!(mentions(def(f), &names), "{f} may access a volatile object");
        }
        for f in ["g", "n", "z", "plain", "other"] {
            assert!(!mentions(def(f), &names), "{f} does not");
        }
    }
}
