//! Whether a translation unit defines a function of a given name (`main`, to tell the
//! programs of a source tree apart before lowering it), by a scan of its text: at brace
//! depth 0, outside literals, comments and preprocessor lines, the name followed by a
//! parameter list and then a body (`{`, possibly after attributes or a K&R parameter
//! declaration list). A declaration (`int main(void);`) is not a definition.

use crate::TranslationUnit;

/// Whether `unit` defines a function named `name`.
pub fn defines_function(unit: &TranslationUnit, name: &str) -> bool {
    let b = unit.text.as_bytes();
    let n = b.len();
    let mut depth = 0i32;
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = b[i];
        if line_start && c == b'#' {
            // A preprocessor line (or a line marker): to its end, with continuations.
            while i < n && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                i += 1;
            }
            continue;
        }
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        match c {
            b'"' | b'\'' => i = skip_literal(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(n, |p| i + 2 + p + 2);
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth -= 1;
                i += 1;
            }
            c if is_ident_start(c) => {
                let start = i;
                while i < n && is_ident(b[i]) {
                    i += 1;
                }
                if depth == 0 && &b[start..i] == name.as_bytes() && has_body_after(b, i) {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}

/// Whether the text from `i` (after a name) is a parameter list followed by a body.
fn has_body_after(b: &[u8], i: usize) -> bool {
    let mut i = skip_space(b, i);
    if b.get(i) != Some(&b'(') {
        return false;
    }
    i = skip_parens(b, i);
    loop {
        i = skip_space(b, i);
        match b.get(i) {
            Some(b'{') => return true,
            Some(&c) if is_ident_start(c) => {
                // Attributes, or a K&R declaration list: to the body or the end of the
                // declaration.
                while i < b.len() && is_ident(b[i]) {
                    i += 1;
                }
                let j = skip_space(b, i);
                if b.get(j) == Some(&b'(') {
                    i = skip_parens(b, j);
                } else {
                    // K&R: declarations of the parameters, each ended by `;`.
                    while i < b.len() && !matches!(b[i], b'{' | b'(' | b'=' | b'}') {
                        i += 1;
                    }
                    return b.get(i) == Some(&b'{');
                }
            }
            _ => return false,
        }
    }
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// From an opening parenthesis to just past its partner.
fn skip_parens(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' | b'\'' => {
                i = skip_literal(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// From an opening quote to just past the closing one.
fn skip_literal(b: &[u8], mut i: usize) -> usize {
    let quote = b[i];
    i += 1;
    while i < b.len() && b[i] != quote && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::defines_function;
    use crate::TranslationUnit;

    fn defines_main(text: &str) -> bool {
        let unit = TranslationUnit {
            path: "a.c".into(),
            text: text.into(),
            line_map: None,
        };
        defines_function(&unit, "main")
    }

    #[test]
    fn definitions_of_main_are_told_from_declarations_and_other_uses() {
        assert!(defines_main("int main(void) { return 0; }"));
        assert!(defines_main("int\nmain (int argc, char **argv)\n{\n}\n"));
        assert!(defines_main("main(argc, argv) int argc; char **argv; { }"));
        assert!(defines_main(
            "int main(void) __attribute__((cold));\nint main(void) __attribute__((cold)) { }"
        ));
        assert!(!defines_main(
            "int main(void);\nint f(void) { return main(); }"
        ));
        assert!(!defines_main("int f(void) { main(1); }\nint g(void) { }"));
        assert!(!defines_main("const char *s = \"int main(void) { }\";"));
        assert!(!defines_main("/* int main(void) { } */ int x;"));
        assert!(!defines_main(
            "# 1 \"main.c\"\n#define main(x) { x }\nint domain(void) { }"
        ));
        assert!(!defines_main("struct s { int (*main)(void); };"));
    }
}
