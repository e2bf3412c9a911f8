//! C89 forms the tree-sitter grammar does not read, rewritten before parsing.
//!
//! - Implicit `int` (C89 3.5.2: specifiers that name no type mean `int`): `static
//!   skip(n) {...}`, `main(argc, argv) ...`, `extern exit_here();`, `register i;`,
//!   `static x;`. The rewrite inserts `int ` before the declarator.
//! - K&R definitions with any declarator (`Ele *new_ele(n) int n; {...}`, `char
//!   *(*f(a))() int a; {...}`): the grammar reads parameter declarations between the
//!   declarator and the body only after a plain `name(list)`. The rewrite rotates
//!   `DECLS {` into `{DECLS` (same length, every declaration keeps its line) and records
//!   the body; the frontend reads the leading declarations of such a body as the
//!   parameter declarations.
//!
//! How tree-sitter-c reads them otherwise: `extern exit_here();` is an ERROR merged into
//! the next definition; in `static skip(n) {...}` the parameter `n` is a type name
//! (hence "unknown type name `n`"); `main(argc, argv) int argc; char **argv; {...}` is a
//! call expression statement, declarations and a compound statement at file scope;
//! `Ele *new_ele(n) int n; {...}` a declaration with stray identifiers, then a compound
//! statement. Only `int add(a, b) int a; char b; {...}` (a plain declarator after a
//! type) is a definition with its declarations.
//!
//! `goto *EXPR` (GNU computed goto), which the grammar reads as an error, is respelled
//! `0 , *EXPR` (same length); the offsets are recorded for the statement lowering.
//! `__builtin_offsetof`, which the grammar reads as a call (in parentheses, as a cast
//! of a function type), is respelled `offsetof` with spaces; `_Static_assert (...);`,
//! which it does not read in a structure's body, is blanked (it has no run-time
//! meaning).
//!
//! `typeof (EXPR)` (also `__typeof__`, `__typeof`) of an expression: the grammar reads
//! only a type name between the parentheses, and `typeof (x) *p = q;` as a product. It
//! is respelled as a structure type with one member, `struct{void
//! __ripple_typeof[EXPR];}` (the keyword and parentheses replaced in place, the rest
//! inserted), which the grammar reads as a type wherever one may stand; the frontend
//! takes the type of the array size ([`TYPEOF_MEMBER`], `Lowerer::typeof_operand`).
//! `typeof (T)` of a type name likewise becomes `struct{T}` with the name
//! `__ripple_typeof` in T's abstract declarator (in a cast, `(typeof (T)) 0` reads as
//! a call otherwise).
//!
//! Insertions shift columns, never lines: [`OffsetMap`] maps byte offsets of the
//! rewritten text back to the lines and columns of the original.
//!
//! The scan is token-level: comments, strings and preprocessor lines are skipped;
//! typedef names are collected from file-scope `typedef` declarations so that `T x;`
//! (a type) is told from `f(a)` (implicit int). An unknown name followed by a name
//! (`size_t n;` with the header missing) is left alone.

use rustc_hash::{FxHashMap, FxHashSet};

/// The spellings of GNU `typeof`.
const TYPEOF_KEYWORDS: &[&str] = &["typeof", "__typeof__", "__typeof"];

/// The member name of the structure `typeof (EXPR)` is respelled as (module comment).
pub(crate) const TYPEOF_MEMBER: &str = "__ripple_typeof";

/// The rewritten text of a unit and how to read it back.
pub(crate) struct OldStyle {
    pub text: String,
    /// `None` when nothing was inserted (offsets and columns are the original ones).
    pub map: Option<OffsetMap>,
    /// The byte offset of each rotated body's `{` to the end of the parameter
    /// declarations moved into it.
    pub knr_bodies: FxHashMap<usize, usize>,
    /// The offsets of the `goto` of each `goto *EXPR`, respelled `0 , *EXPR` (same
    /// length), which the grammar reads as an expression statement.
    pub computed_gotos: FxHashSet<usize>,
    /// Every file-scope function definition the token scan delimited (by its braces),
    /// in order: the frontend checks that each was lowered, and reads again alone any
    /// that the parser's error recovery swallowed.
    pub definitions: Vec<Definition>,
}

/// A function definition found by the token scan, in offsets of the rewritten text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Definition {
    pub name: String,
    /// The offset of the declared name.
    pub name_at: usize,
    /// From the first specifier to the closing brace (exclusive).
    pub start: usize,
    pub end: usize,
}

/// Maps byte offsets of the rewritten text to (row, column) of the original text.
pub(crate) struct OffsetMap {
    /// Sorted by `new_start`.
    pieces: Vec<Piece>,
    line_starts: Vec<usize>,
}

#[derive(Clone, Copy)]
struct Piece {
    new_start: usize,
    orig_start: usize,
    /// Inserted text: every offset inside maps to the insertion point.
    synthetic: bool,
}

impl OffsetMap {
    /// The original (row, column), both 0-based, of byte `offset` of the rewritten text.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let at = self.pieces.partition_point(|p| p.new_start <= offset);
        let orig = match at.checked_sub(1).map(|i| self.pieces[i]) {
            Some(p) if p.synthetic => p.orig_start,
            Some(p) => p.orig_start + (offset - p.new_start),
            None => offset,
        };
        let row = self.line_starts.partition_point(|&s| s <= orig).max(1) - 1;
        (row, orig - self.line_starts[row])
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    Ident,
    Punct(u8),
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Tok,
    start: usize,
    end: usize,
}

/// Rewrites the C89 forms of `text` (see the module comment).
pub(crate) fn rewrite(text: &str) -> OldStyle {
    let bytes = text.as_bytes();
    let mut scanner = Scanner {
        src: bytes,
        toks: tokenize(bytes),
        typedefs: FxHashSet::default(),
        inserts: Vec::new(),
        rotations: Vec::new(),
        definitions: Vec::new(),
    };
    scanner.file_scope();
    let gotos: Vec<usize> = scanner
        .toks
        .windows(2)
        .filter(|w| {
            w[0].kind == Tok::Ident
                && &bytes[w[0].start..w[0].end] == b"goto"
                && w[1].kind == Tok::Punct(b'*')
        })
        .map(|w| w[0].start)
        .collect();
    let mut inserts: Vec<(usize, &'static str)> =
        scanner.inserts.iter().map(|&at| (at, "int ")).collect();
    let typeofs = scanner.typeofs();
    for &(_, open, close, name_at) in &typeofs {
        match name_at {
            Some(at) => {
                inserts.push((at, " __ripple_typeof "));
                inserts.push((scanner.toks[close].start, ";"));
            }
            None => {
                inserts.push((scanner.toks[open].end, "void __ripple_typeof["));
                inserts.push((scanner.toks[close].start, "];"));
            }
        }
    }
    inserts.sort_unstable();
    inserts.dedup();
    let mut out = if inserts.is_empty() && scanner.rotations.is_empty() {
        OldStyle {
            text: text.to_string(),
            map: None,
            knr_bodies: FxHashMap::default(),
            computed_gotos: FxHashSet::default(),
            definitions: Vec::new(),
        }
    } else {
        apply(text, &inserts, std::mem::take(&mut scanner.rotations))
    };
    // The length inserted before each insertion point, and in all.
    let mut before = Vec::with_capacity(inserts.len() + 1);
    let mut total = 0;
    for &(_, piece) in &inserts {
        before.push(total);
        total += piece.len();
    }
    before.push(total);
    // `at` in the rewritten text, past the insertions at `at` itself when `past_own`.
    let shift = |at: usize, past_own: bool| {
        at + before[inserts.partition_point(|&(i, _)| i < at || (past_own && i == at))]
    };
    out.definitions = scanner
        .definitions
        .iter()
        .map(|&(name, name_at, start, end)| Definition {
            name: String::from_utf8_lossy(&bytes[name_at..name_at + name.len()]).into_owned(),
            name_at: shift(name_at, true),
            // An insertion at a definition's first byte belongs to it.
            start: shift(start, false),
            end: shift(end, false),
        })
        .collect();
    for at in gotos {
        // Only insertions move offsets (a rotation keeps those outside its region, and
        // a `goto` is never inside one).
        let new_at = shift(at, true);
        out.text.replace_range(new_at..new_at + 4, "0 , ");
        out.computed_gotos.insert(new_at);
    }
    // `__builtin_offsetof (T, m)`, which the grammar reads as a call with an error
    // (and, in parentheses, as a cast), is respelled as the `offsetof` it reads, which
    // takes one member name (`m.n`, `m[0]` stay calls, read by the builtin lowering).
    for (i, tok) in scanner.toks.iter().enumerate() {
        let close = scanner.skip_group(i + 1).saturating_sub(1);
        if tok.kind == Tok::Ident
            && &bytes[tok.start..tok.end] == b"__builtin_offsetof"
            && scanner.punct(i + 1, b'(')
            && scanner.punct(close, b')')
            && scanner.is_ident(close - 1)
            && scanner.punct(close - 2, b',')
        {
            let new_at = shift(tok.start, true);
            out.text
                .replace_range(new_at..new_at + tok.end - tok.start, "offsetof          ");
        }
    }
    for (keyword, open, close, _) in typeofs {
        let (start, end) = (scanner.toks[keyword].start, scanner.toks[keyword].end);
        let new_at = shift(start, true);
        let padded = format!("{:<1$}", "struct", end - start);
        out.text
            .replace_range(new_at..new_at + padded.len(), &padded);
        let new_at = shift(scanner.toks[open].start, true);
        out.text.replace_range(new_at..new_at + 1, "{");
        let new_at = shift(scanner.toks[close].start, true);
        out.text.replace_range(new_at..new_at + 1, "}");
    }
    // `_Static_assert (...);` has no run-time meaning, and the grammar does not read it
    // in a structure's body (gnulib's `verify_expr`: `sizeof (struct { _Static_assert
    // (...); int _gl_dummy; })`): blanked, newlines kept, with what was respelled in it.
    for (i, tok) in scanner.toks.iter().enumerate() {
        if tok.kind != Tok::Ident
            || &bytes[tok.start..tok.end] != b"_Static_assert"
            || !scanner.punct(i + 1, b'(')
        {
            continue;
        }
        let after = scanner.skip_group(i + 1);
        if !scanner.punct(after, b';') {
            continue;
        }
        let (from, to) = (
            shift(tok.start, true),
            shift(scanner.toks[after].end, false),
        );
        // Byte for byte (a message may hold multibyte characters): offsets stay.
        let blank: String = out.text.as_bytes()[from..to]
            .iter()
            .map(|&b| if b == b'\n' { '\n' } else { ' ' })
            .collect();
        out.text.replace_range(from..to, &blank);
    }
    out
}

/// Events at original offsets, ordered by (offset, rank).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// Start of a rotated region: emit the body's `{` (at the given offset) here.
    OpenRotation(usize),
    Insert(&'static str),
    /// The body's `{` of a rotated region: dropped here.
    SkipBrace,
}

fn apply(
    text: &str,
    inserts: &[(usize, &'static str)],
    rotations: Vec<(usize, usize)>,
) -> OldStyle {
    let mut events: Vec<(usize, Event)> = inserts
        .iter()
        .map(|&(o, piece)| (o, Event::Insert(piece)))
        .collect();
    for (start, brace) in rotations {
        events.push((start, Event::OpenRotation(brace)));
        events.push((brace, Event::SkipBrace));
    }
    events.sort();
    events.dedup();
    let mut out = String::with_capacity(text.len() + events.len() * 4);
    let mut pieces = Vec::new();
    let mut knr_bodies = FxHashMap::default();
    let mut open_brace_at = Vec::new();
    let mut pos = 0;
    let copy = |out: &mut String, pieces: &mut Vec<Piece>, from: usize, to: usize| {
        if to > from {
            pieces.push(Piece {
                new_start: out.len(),
                orig_start: from,
                synthetic: false,
            });
            out.push_str(&text[from..to]);
        }
    };
    for (offset, event) in events {
        copy(&mut out, &mut pieces, pos, offset);
        pos = offset;
        match event {
            Event::OpenRotation(brace) => {
                pieces.push(Piece {
                    new_start: out.len(),
                    orig_start: brace,
                    synthetic: false,
                });
                open_brace_at.push(out.len());
                out.push('{');
            }
            Event::Insert(piece) => {
                pieces.push(Piece {
                    new_start: out.len(),
                    orig_start: offset,
                    synthetic: true,
                });
                out.push_str(piece);
            }
            Event::SkipBrace => {
                if let Some(open) = open_brace_at.pop() {
                    knr_bodies.insert(open, out.len());
                }
                pos = offset + 1;
            }
        }
    }
    copy(&mut out, &mut pieces, pos, text.len());
    let mut line_starts = vec![0];
    line_starts.extend(
        text.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    OldStyle {
        text: out,
        map: Some(OffsetMap {
            pieces,
            line_starts,
        }),
        knr_bodies,
        computed_gotos: FxHashSet::default(),
        definitions: Vec::new(),
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Tokens of C text; comments, whitespace and preprocessor lines are dropped.
fn tokenize(b: &[u8]) -> Vec<Token> {
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            // A preprocessor line, with its continuations.
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(b.len());
            continue;
        }
        let kind = if is_ident_start(c) {
            while i < b.len() && is_ident_byte(b[i]) {
                i += 1;
            }
            Tok::Ident
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            while i < b.len() {
                let d = b[i];
                let exponent_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if is_ident_byte(d) || d == b'.' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Tok::Other
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            Tok::Other
        } else if c.is_ascii() {
            i += 1;
            Tok::Punct(c)
        } else {
            i += 1;
            Tok::Other
        };
        toks.push(Token {
            kind,
            start,
            end: i,
        });
    }
    toks
}

const STORAGE_AND_QUALIFIERS: &[&str] = &[
    "typedef",
    "extern",
    "static",
    "auto",
    "register",
    "inline",
    "__inline",
    "__inline__",
    "const",
    "__const",
    "__const__",
    "volatile",
    "__volatile",
    "__volatile__",
    "restrict",
    "__restrict",
    "__restrict__",
    "__extension__",
    "_Noreturn",
    "_Thread_local",
    "__thread",
];

/// Qualifiers that may appear inside a declarator (`* const p`).
const QUALIFIERS: &[&str] = &[
    "const",
    "__const",
    "volatile",
    "__volatile__",
    "restrict",
    "__restrict",
    "__restrict__",
];

const ATTRIBUTE_LIKE: &[&str] = &[
    "__attribute__",
    "__attribute",
    "__declspec",
    "__asm__",
    "__asm",
    "asm",
    "_Alignas",
    "alignas",
];

const TYPE_KEYWORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "__signed",
    "__signed__",
    "unsigned",
    "_Bool",
    "bool",
    "_Complex",
    "__complex__",
    "__int128",
    "__int128_t",
    "__uint128_t",
    "_Float128",
    "__float128",
    "__builtin_va_list",
];

/// Names that start a file-scope item but never name a declarator.
const NOT_DECLARATORS: &[&str] = &["_Static_assert", "static_assert", "__asm__", "asm"];

struct Scanner<'s> {
    src: &'s [u8],
    toks: Vec<Token>,
    typedefs: FxHashSet<&'s str>,
    inserts: Vec<usize>,
    rotations: Vec<(usize, usize)>,
    /// (name, offset of the name, start, end) of each function definition.
    definitions: Vec<(&'s str, usize, usize, usize)>,
}

struct Specs {
    end: usize,
    has_type: bool,
    any: bool,
    typedef: bool,
}

impl<'s> Scanner<'s> {
    fn word(&self, i: usize) -> &'s str {
        match self.toks.get(i) {
            Some(t) if t.kind == Tok::Ident => {
                std::str::from_utf8(&self.src[t.start..t.end]).unwrap_or("")
            }
            _ => "",
        }
    }

    fn punct(&self, i: usize, p: u8) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Tok::Punct(p))
    }

    fn is_ident(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Tok::Ident)
    }

    /// `i` at an opening bracket: the index after its match.
    fn skip_group(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut k = i;
        while let Some(t) = self.toks.get(k) {
            match t.kind {
                Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
                Tok::Punct(b')' | b']' | b'}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return k + 1;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        k
    }

    /// `i` at the `{` of a function body: the index after its `}`, counting braces
    /// only (they stay balanced in code whose parentheses do not).
    fn skip_braces(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut k = i;
        while let Some(t) = self.toks.get(k) {
            match t.kind {
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b'}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return k + 1;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        k
    }

    fn specifiers(&self, mut i: usize) -> Specs {
        let mut specs = Specs {
            end: i,
            has_type: false,
            any: false,
            typedef: false,
        };
        while self.is_ident(i) {
            let w = self.word(i);
            if STORAGE_AND_QUALIFIERS.contains(&w) {
                specs.any = true;
                specs.typedef |= w == "typedef";
                i += 1;
            } else if ATTRIBUTE_LIKE.contains(&w) {
                i += 1;
                if self.punct(i, b'(') {
                    i = self.skip_group(i);
                }
            } else if matches!(w, "struct" | "union" | "enum") {
                specs.has_type = true;
                i += 1;
                while ATTRIBUTE_LIKE.contains(&self.word(i)) {
                    i += 1;
                    if self.punct(i, b'(') {
                        i = self.skip_group(i);
                    }
                }
                if self.is_ident(i) {
                    i += 1;
                }
                if self.punct(i, b'{') {
                    i = self.skip_group(i);
                }
            } else if (TYPEOF_KEYWORDS.contains(&w) || w == "_Atomic") && self.punct(i + 1, b'(') {
                specs.has_type = true;
                i = self.skip_group(i + 1);
            } else if TYPE_KEYWORDS.contains(&w) || (!specs.has_type && self.typedefs.contains(w)) {
                specs.has_type = true;
                i += 1;
            } else {
                break;
            }
        }
        specs.end = i;
        specs
    }

    /// Whether a declarator starting at `i` may follow specifiers that name no type
    /// (`any`: some storage class or qualifier was given).
    fn implicit_int_declarator(&self, i: usize, any: bool) -> bool {
        if self.punct(i, b'*') || self.punct(i, b'(') {
            return any;
        }
        if !self.is_ident(i) || NOT_DECLARATORS.contains(&self.word(i)) {
            return false;
        }
        let Some(next) = self.toks.get(i + 1) else {
            return false;
        };
        matches!(next.kind, Tok::Punct(b'(' | b';' | b',' | b'=' | b'['))
    }

    /// The end of the declarator starting at `i`: the first token after it.
    fn declarator_end(&self, mut i: usize) -> usize {
        let mut named = false;
        let mut after_group = false;
        while let Some(t) = self.toks.get(i) {
            match t.kind {
                Tok::Punct(b'*') => i += 1,
                Tok::Punct(b'(' | b'[') => {
                    i = self.skip_group(i);
                    after_group = true;
                }
                Tok::Ident => {
                    let w = self.word(i);
                    if ATTRIBUTE_LIKE.contains(&w) {
                        i += 1;
                        if self.punct(i, b'(') {
                            i = self.skip_group(i);
                        }
                    } else if QUALIFIERS.contains(&w) && !after_group {
                        // `* const p`; after a parameter list a qualifier starts the
                        // K&R declarations (`f(a) const char *a; {...}`).
                        i += 1;
                    } else if !named && !after_group {
                        named = true;
                        i += 1;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        i
    }

    /// The token of the declared name of the declarator in `from..to`.
    fn declarator_name(&self, from: usize, to: usize) -> Option<usize> {
        let mut i = from;
        while i < to {
            let w = self.word(i);
            if ATTRIBUTE_LIKE.contains(&w) {
                i += 1;
                if self.punct(i, b'(') {
                    i = self.skip_group(i);
                }
                continue;
            }
            if !w.is_empty() && !STORAGE_AND_QUALIFIERS.contains(&w) && !TYPE_KEYWORDS.contains(&w)
            {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// From an initializer at `i` to the `,` or `;` that ends it.
    fn initializer_end(&self, mut i: usize) -> usize {
        while let Some(t) = self.toks.get(i) {
            match t.kind {
                Tok::Punct(b'(' | b'[' | b'{') => i = self.skip_group(i),
                Tok::Punct(b',' | b';' | b'}') => return i,
                _ => i += 1,
            }
        }
        i
    }

    /// The `typeof`s to respell (module comment), as the token indices of the keyword
    /// and of its parentheses, and for a type name the byte offset where the member's
    /// name goes (`int *` before the `)`, `int [3]` before the `[`, `void (*)(int)`
    /// after the `*`). A type name starts with a type keyword, qualifier, tag or
    /// file-scope typedef name (a lone name declared by a typedef of a block scope is
    /// told by the frontend); one defining a tag (`{`) is left as it is.
    fn typeofs(&self) -> Vec<(usize, usize, usize, Option<usize>)> {
        let mut out = Vec::new();
        for i in 0..self.toks.len() {
            if !TYPEOF_KEYWORDS.contains(&self.word(i)) || !self.punct(i + 1, b'(') {
                continue;
            }
            let close = self.skip_group(i + 1) - 1;
            if close <= i + 2 || !self.punct(close, b')') {
                continue;
            }
            let first = self.word(i + 2);
            let names_a_type = TYPE_KEYWORDS.contains(&first)
                || STORAGE_AND_QUALIFIERS.contains(&first)
                || ATTRIBUTE_LIKE.contains(&first)
                || TYPEOF_KEYWORDS.contains(&first)
                || matches!(first, "struct" | "union" | "enum" | "_Atomic")
                || self.typedefs.contains(first);
            if !names_a_type {
                out.push((i, i + 1, close, None));
            } else if !TYPEOF_KEYWORDS.contains(&first)
                && (i + 2..close).all(|k| !self.punct(k, b'{'))
            {
                let name_at = self.abstract_declarator_name(i + 2, close);
                out.push((i, i + 1, close, Some(self.toks[name_at].start)));
            }
        }
        out
    }

    /// In the type name between tokens `from` and `to` (its closing parenthesis), the
    /// token before which a declarator's name goes.
    fn abstract_declarator_name(&self, from: usize, to: usize) -> usize {
        // Past the specifiers (a group after an attribute or `_Atomic` is theirs).
        let mut k = from;
        while k < to && !self.punct(k, b'*') && !self.punct(k, b'(') && !self.punct(k, b'[') {
            k += 1;
            if self.punct(k, b'(')
                && (ATTRIBUTE_LIKE.contains(&self.word(k - 1)) || self.word(k - 1) == "_Atomic")
            {
                k = self.skip_group(k);
            }
        }
        loop {
            while k < to && (self.punct(k, b'*') || STORAGE_AND_QUALIFIERS.contains(&self.word(k)))
            {
                k += 1;
            }
            // `(*...)`: the name is inside; `(int)`: a parameter list follows it.
            if k < to && self.punct(k, b'(') && (self.punct(k + 1, b'*') || self.punct(k + 1, b'('))
            {
                k += 1;
                continue;
            }
            return k;
        }
    }

    fn file_scope(&mut self) {
        let mut i = 0;
        while i < self.toks.len() {
            if self.punct(i, b';') {
                i += 1;
                continue;
            }
            let start = i;
            i = self.external_declaration(i);
            if i <= start {
                i = start + 1;
            }
        }
    }

    /// One file-scope declaration or definition starting at `i`; the index after it.
    fn external_declaration(&mut self, i: usize) -> usize {
        // A stray token (after a syntax error) starts nothing.
        if matches!(
            self.toks[i].kind,
            Tok::Punct(b')' | b']' | b'}' | b',' | b'=' | b'{') | Tok::Other
        ) {
            return i + 1;
        }
        let specs = self.specifiers(i);
        let mut j = specs.end;
        if self.punct(j, b';') {
            return j + 1;
        }
        let mut pending = None;
        if !specs.has_type {
            let unknown_type_name = self.is_ident(j)
                && (self.is_ident(j + 1) || self.punct(j + 1, b'*'))
                && !NOT_DECLARATORS.contains(&self.word(j));
            if unknown_type_name {
                // `T x` or `T *f(n)` with `T` declared where the scan did not see it.
                j += 1;
            } else if self.implicit_int_declarator(j, specs.any) {
                // `name(...)` with no specifier at all is taken for a definition only
                // when a body follows (else it is more likely a macro call: `weak_alias
                // (a, b)`).
                if specs.any || !self.punct(j + 1, b'(') {
                    self.inserts.push(self.toks[j].start);
                } else {
                    pending = Some(self.toks[j].start);
                }
            } else {
                return self.skip_item(j);
            }
        }
        loop {
            let e = self.declarator_end(j);
            if specs.typedef {
                if let Some(name) = self.declarator_name(j, e) {
                    self.typedefs.insert(self.word(name));
                }
            }
            let Some(t) = self.toks.get(e) else {
                return e;
            };
            match t.kind {
                Tok::Punct(b'=') => {
                    let k = self.initializer_end(e + 1);
                    if self.punct(k, b',') {
                        j = k + 1;
                        continue;
                    }
                    return k + 1;
                }
                Tok::Punct(b',') => j = e + 1,
                Tok::Punct(b';') => return e + 1,
                Tok::Punct(b'{') => {
                    let end = self.skip_braces(e);
                    self.inserts.extend(pending);
                    self.body(e, end);
                    self.definition(i, j, e, end);
                    return end;
                }
                Tok::Ident if e > 0 && self.punct(e - 1, b')') => {
                    return match self.knr_definition(e) {
                        Some(end) => {
                            self.inserts.extend(pending);
                            self.definition(i, j, e, end);
                            end
                        }
                        None => self.skip_item(e),
                    };
                }
                _ => return self.skip_item(e.max(j)),
            }
        }
    }

    /// Records the definition from token `start` whose declarator is `from..to` and
    /// whose body ends before token `end`.
    fn definition(&mut self, start: usize, from: usize, to: usize, end: usize) {
        let Some(name) = self.declarator_name(from, to) else {
            return;
        };
        let Some(last) = end.checked_sub(1).and_then(|k| self.toks.get(k)) else {
            return;
        };
        self.definitions.push((
            self.word(name),
            self.toks[name].start,
            self.toks[start].start,
            last.end,
        ));
    }

    /// Skips what cannot be read to the end of the item (`;` or a brace group).
    fn skip_item(&self, mut i: usize) -> usize {
        while let Some(t) = self.toks.get(i) {
            match t.kind {
                Tok::Punct(b';') => return i + 1,
                Tok::Punct(b'{') => return self.skip_group(i),
                Tok::Punct(b'(' | b'[') => i = self.skip_group(i),
                _ => i += 1,
            }
        }
        i
    }

    /// The parameter declarations of a K&R definition starting at `i`, then its body;
    /// `None` when they are not that.
    fn knr_definition(&mut self, i: usize) -> Option<usize> {
        let mut j = i;
        let inserts = self.inserts.len();
        while !self.punct(j, b'{') {
            let specs = self.specifiers(j);
            if specs.end == j {
                self.inserts.truncate(inserts);
                return None;
            }
            if !specs.has_type {
                if !self.implicit_int_declarator(specs.end, specs.any) {
                    self.inserts.truncate(inserts);
                    return None;
                }
                self.inserts.push(self.toks[specs.end].start);
            }
            // To the `;` ending this declaration.
            let mut k = specs.end;
            loop {
                match self.toks.get(k).map(|t| t.kind) {
                    Some(Tok::Punct(b';')) => break,
                    Some(Tok::Punct(b'(' | b'[')) => k = self.skip_group(k),
                    Some(Tok::Punct(b'{' | b'}')) | None => {
                        self.inserts.truncate(inserts);
                        return None;
                    }
                    _ => k += 1,
                }
            }
            j = k + 1;
        }
        let end = self.skip_braces(j);
        self.rotations
            .push((self.toks[i].start, self.toks[j].start));
        self.body(j, end);
        Some(end)
    }

    /// Block-scope implicit int inside the body `open..end`: a statement starting with a
    /// storage class or qualifier whose specifiers name no type.
    fn body(&mut self, open: usize, end: usize) {
        let mut k = open + 1;
        while k < end {
            let at_statement_start =
                matches!(self.toks[k - 1].kind, Tok::Punct(b'{' | b'}' | b';' | b':'));
            if at_statement_start
                && matches!(
                    self.word(k),
                    "register" | "auto" | "static" | "extern" | "const" | "volatile"
                )
            {
                let specs = self.specifiers(k);
                if !specs.has_type && self.implicit_int_declarator(specs.end, true) {
                    self.inserts.push(self.toks[specs.end].start);
                }
                k = specs.end.max(k + 1);
                continue;
            }
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(src: &str) -> String {
        rewrite(src).text
    }

    #[test]
    fn implicit_int_is_inserted_where_c89_allowed_it() {
        assert_eq!(
            rewritten("static skip(n) { return n; }"),
            "static int skip(n) { return n; }"
        );
        assert_eq!(rewritten("extern exit_here();"), "extern int exit_here();");
        assert_eq!(rewritten("static x, y = 2;"), "static int x, y = 2;");
        assert_eq!(
            rewritten("int f() { register i; static *p; i = 0; }"),
            "int f() { register int i; static int *p; i = 0; }"
        );
        // A type named by a typedef, and an unknown name followed by a name, are types.
        assert_eq!(
            rewritten("typedef int T; static T x;"),
            "typedef int T; static T x;"
        );
        assert_eq!(rewritten("size_t n;"), "size_t n;");
        assert_eq!(rewritten("const char *s;"), "const char *s;");
    }

    #[test]
    fn knr_declarations_move_into_the_body_keeping_lines() {
        let src = "Ele *new_ele(n)\nint n;\n{ return 0; }";
        let out = rewrite(src);
        assert_eq!(out.text, "Ele *new_ele(n)\n{int n;\n return 0; }");
        assert_eq!(out.text.len(), src.len());
        let open = out.text.find('{').unwrap();
        assert_eq!(out.knr_bodies.get(&open), Some(&(open + 8)));
        // `int n;` keeps its line (row 1); its column moves by the brace.
        let map = out.map.unwrap();
        assert_eq!(map.position(open + 1), (1, 0));
        assert_eq!(map.position(open), (2, 0));
    }

    #[test]
    fn typeof_of_an_expression_becomes_a_structure_type() {
        let src =
            "typedef long T;\nvoid f(int *p) { typeof(*p) a; __typeof__(T) b; typeof(p) *c = 0; }";
        let out = rewrite(src);
        // The keyword keeps its length, so `a` moves only by the insertions.
        assert!(
            out.text.contains("struct{void __ripple_typeof[*p];} a;"),
            "{}",
            out.text
        );
        assert!(
            out.text.contains("struct    {T __ripple_typeof ;} b;"),
            "{}",
            out.text
        );
        assert!(out
            .text
            .contains("struct{void __ripple_typeof[p];} *c = 0;"));
        let map = out.map.unwrap();
        let a = out.text.find("} a;").unwrap() + 2;
        assert_eq!(map.position(a), (1, src.find(" a;").unwrap() - 16 + 1));
        let star = out.text.find("[*p]").unwrap() + 1;
        assert_eq!(map.position(star), (1, src.find("(*p)").unwrap() + 1 - 16));
    }

    #[test]
    fn typeof_of_a_type_name_names_a_member_in_its_declarator() {
        let out = rewrite("void f(void) { typeof(int[4]) q; typeof(int (*)(int)) op; }");
        assert!(
            out.text.contains("struct{int __ripple_typeof [4];} q;"),
            "{}",
            out.text
        );
        assert!(
            out.text
                .contains("struct{int (* __ripple_typeof )(int);} op;"),
            "{}",
            out.text
        );
    }

    #[test]
    fn a_static_assertion_is_blanked_byte_for_byte() {
        let src = "int n = sizeof (struct { _Static_assert (sizeof (typeof (1 + 1)) == 4,\n \"\u{e9}\"); int d; });\nint m;";
        let out = rewrite(src);
        assert_eq!(out.text.len(), src.len() + "void __ripple_typeof[];".len());
        assert!(
            out.text.starts_with("int n = sizeof (struct {  "),
            "{}",
            out.text
        );
        assert!(out.text.contains("\n"), "{}", out.text);
        assert!(out.text.ends_with("  int d; });\nint m;"), "{}", out.text);
        assert!(!out.text.contains("struct{"), "{}", out.text);
    }

    #[test]
    fn columns_after_an_insertion_map_back() {
        let src = "main(argc, argv) int argc; char **argv; { return argc; }";
        let out = rewrite(src);
        assert!(out
            .text
            .starts_with("int main(argc, argv) {int argc; char **argv;"));
        let map = out.map.unwrap();
        let ret = out.text.find("return").unwrap();
        assert_eq!(map.position(ret), (0, src.find("return").unwrap()));
        assert_eq!(map.position(out.text.find("main").unwrap()), (0, 0));
    }
}
