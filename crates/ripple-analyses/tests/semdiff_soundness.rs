//! The differential soundness harness of semdiff: verdicts checked against gcc.
//!
//! Version pairs are generated deterministically from a seed: operator, constant and
//! statement mutants of the programs of the two labelled suites (`tests/semdiff`,
//! `tests/semdiff-numeric`), and mutants of random programs (int, unsigned and double
//! parameters, structs by value and returned, arrays, pointers, globals, bounded loops,
//! calls). Each pair runs through semdiff with a small budget, and then:
//! - an `equivalent` verdict: both versions, compiled with gcc (`-fwrapv -O0`), run on the
//!   same random and boundary inputs and must give the same outcome (return value, objects
//!   passed by pointer, globals, exit; inputs on which both time out are not compared);
//! - a witness marked confirmed: the compiled versions must differ on it.
//!
//! `SEMDIFF_SOUNDNESS_PAIRS` sets the number of pairs (default 200, for CI),
//! `SEMDIFF_SOUNDNESS_SEED` the first seed, `SEMDIFF_SOUNDNESS_INPUTS` the random inputs
//! per equivalent pair (default 48). The test fails, not skips, without gcc. Known
//! violations are listed by pair name in `KNOWN`. The wrong verdicts found so far are
//! ignored tests below (`#[ignore = "wrong verdict: ..."]`), each on a reduced pair, to
//! run with `--ignored` once fixed; `show_pair` prints the pair of a seed
//! (`SEMDIFF_SOUNDNESS_SHOW`). docs/robustness.md has the long run.

mod semdiff_common;
mod semdiff_native;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use ripple_analyses::semdiff::{semdiff, SemdiffConfig, Verdict};
use ripple_ir::{FuncId, Program};
use ripple_symex::Side;
use semdiff_common::{load, workspace};
use semdiff_native::{random_inputs, require_gcc, run, timed_out, witness_input, Input, Rng};

/// Violations already reported (pair name: reason); excluded so that CI stays green while
/// the analysis is being fixed. Each has a reduced pair among the ignored tests below.
const KNOWN: &[(&str, &str)] = &[];

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------
// Mutation of C text.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident,
    Int,
    Float,
    Punct,
    /// A comment, string, character literal, preprocessor line or whitespace: kept as is.
    Other,
}

/// Splits C text into tokens (kind, text); the concatenation of the texts is the input.
fn tokenize(src: &str) -> Vec<(Tok, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind;
        if c == b'\n' {
            i += 1;
            line_start = true;
            out.push((Tok::Other, src[start..i].to_string()));
            continue;
        } else if c.is_ascii_whitespace() {
            i += 1;
            out.push((Tok::Other, src[start..i].to_string()));
            continue;
        } else if (line_start && c == b'#') || (c == b'/' && b.get(i + 1) == Some(&b'/')) {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            kind = Tok::Other;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
            kind = Tok::Other;
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            kind = Tok::Other;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            kind = Tok::Ident;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let mut float = false;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'-' || b[i] == b'+') && matches!(b[i - 1], b'e' | b'E')))
            {
                float |= b[i] == b'.'
                    || ((b[i] == b'e' || b[i] == b'E') && !src[start..i].starts_with("0x"));
                i += 1;
            }
            kind = if float { Tok::Float } else { Tok::Int };
        } else {
            const PUNCTS: &[&str] = &[
                "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
            ];
            let rest = &src[i..];
            let len = PUNCTS
                .iter()
                .find(|p| rest.starts_with(*p))
                .map_or(1, |p| p.len());
            i += len;
            kind = Tok::Punct;
        }
        line_start = false;
        out.push((kind, src[start..i].to_string()));
    }
    out
}

/// The first token of the statement ending at `end` (after the previous ; { or }).
fn statement_start(toks: &[(Tok, String)], end: usize) -> usize {
    let mut j = end;
    while j > 0 {
        j -= 1;
        if toks[j].0 == Tok::Punct && matches!(toks[j].1.as_str(), ";" | "{" | "}") {
            return j + 1;
        }
    }
    0
}

fn operator_replacement(op: &str, rng: &mut Rng) -> Option<&'static str> {
    let choices: &[&str] = match op {
        "+" => &["-", "*", "^"],
        "-" => &["+", "*"],
        "*" => &["+", "-"],
        "/" => &["*", "%"],
        "%" => &["/", "&"],
        "<" => &["<=", ">", "!="],
        "<=" => &["<", ">="],
        ">" => &[">=", "<"],
        ">=" => &[">", "<="],
        "==" => &["!=", "<="],
        "!=" => &["==", ">"],
        "&&" => &["||"],
        "||" => &["&&"],
        "&" => &["|", "^"],
        "|" => &["&", "^"],
        "^" => &["|", "&"],
        "<<" => &[">>"],
        ">>" => &["<<"],
        "+=" => &["-=", "="],
        "-=" => &["+=", "="],
        "*=" => &["+=", "="],
        "++" => &["--"],
        "--" => &["++"],
        _ => return None,
    };
    Some(*rng.pick(choices))
}

/// One mutant of `src` (an operator, a constant or a deleted statement), or None.
fn mutate(src: &str, rng: &mut Rng) -> Option<String> {
    let mut toks = tokenize(src);
    // Only inside function bodies: after the first `{` at depth 0 that follows a `)`.
    let mut in_body = vec![false; toks.len()];
    let mut depth = 0usize;
    let mut last_sig = String::new();
    let mut body = false;
    for (i, (kind, text)) in toks.iter().enumerate() {
        if *kind == Tok::Other {
            in_body[i] = body;
            continue;
        }
        if text == "{" {
            if depth == 0 && last_sig == ")" {
                body = true;
            }
            depth += 1;
        } else if text == "}" {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                body = false;
            }
        }
        in_body[i] = body && depth > 0;
        last_sig.clone_from(text);
    }
    for _ in 0..20 {
        let candidates: Vec<usize> = (0..toks.len())
            .filter(|&i| in_body[i] && toks[i].0 != Tok::Other)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let i = *rng.pick(&candidates);
        let (kind, text) = toks[i].clone();
        let kind_of_mutation = rng.below(10);
        let replacement = match kind {
            Tok::Punct if text == ";" && kind_of_mutation < 5 => {
                let start = statement_start(&toks, i);
                let stmt: String = toks[start..=i].iter().map(|t| t.1.as_str()).collect();
                if stmt.contains("return") || stmt.contains("for") || stmt.contains("if") {
                    continue;
                }
                if kind_of_mutation < 2 {
                    // Swap with the next statement, when that one is simple too.
                    let Some(next_end) = (i + 1..toks.len()).find(|&k| {
                        toks[k].0 == Tok::Punct && matches!(toks[k].1.as_str(), ";" | "{" | "}")
                    }) else {
                        continue;
                    };
                    if toks[next_end].1 != ";" {
                        continue;
                    }
                    let next: String = toks[i + 1..=next_end]
                        .iter()
                        .map(|t| t.1.as_str())
                        .collect();
                    if next.contains("return") || next.contains("for") || next.contains("if") {
                        continue;
                    }
                    for t in &mut toks[start..=next_end] {
                        t.1.clear();
                    }
                    toks[start].1 = format!("{} {}", next.trim(), stmt.trim());
                    return Some(toks.into_iter().map(|t| t.1).collect());
                }
                if kind_of_mutation < 3 {
                    // Duplicate the statement.
                    toks[i].1 = format!("; {}", stmt.trim());
                    return Some(toks.into_iter().map(|t| t.1).collect());
                }

                // Delete the statement.
                for t in &mut toks[start..=i] {
                    t.1.clear();
                }
                return Some(toks.into_iter().map(|t| t.1).collect());
            }
            Tok::Punct => match operator_replacement(&text, rng) {
                Some(r) => r.to_string(),
                None => continue,
            },
            Tok::Int => {
                let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
                let suffix = &text[digits.len()..];
                let value: i128 = if let Some(hex) = digits.strip_prefix("0x") {
                    i128::from_str_radix(hex, 16).ok()?
                } else {
                    digits.parse().ok()?
                };
                let new = match rng.below(4) {
                    0 => value + 1,
                    1 => value - 1,
                    2 => 0,
                    _ => value * 2,
                };
                if new < 0 {
                    continue;
                }
                format!("{new}{suffix}")
            }
            Tok::Float => {
                let digits = text.trim_end_matches(['f', 'F', 'l', 'L']);
                let suffix = &text[digits.len()..];
                let Ok(value) = digits.parse::<f64>() else {
                    continue;
                };
                let new = match rng.below(3) {
                    0 => value + 1.0,
                    1 => value * 0.5,
                    _ => value * (1.0 + f64::EPSILON * 4.0),
                };
                format!("{new:?}{suffix}")
            }
            Tok::Ident => continue,
            Tok::Other => continue,
        };
        if replacement == text {
            continue;
        }
        toks[i].1 = replacement;
        return Some(toks.into_iter().map(|t| t.1).collect());
    }
    None
}

// ---------------------------------------------------------------------------------------
// Random programs.

struct Gen<'a> {
    rng: &'a mut Rng,
    ints: Vec<String>,
    doubles: Vec<String>,
    out: String,
    indent: usize,
    /// Functions callable so far: (name, kind) with kind 0: int(int, unsigned),
    /// 1: double(double, struct S), 2: struct S(struct S, int).
    helpers: Vec<(String, u8)>,
    has_struct: bool,
    /// The struct variables in scope (`s`, and the locals `o1`, `o2` of `t`).
    structs: Vec<String>,
    has_ptr: bool,
    has_array: bool,
    long_loops: bool,
}

impl Gen<'_> {
    fn int_leaf(&mut self) -> String {
        if self.rng.chance(30) || self.ints.is_empty() {
            let c = *self
                .rng
                .pick(&[0i64, 1, 2, 3, 5, 7, 10, 31, 100, -1, -3, 1000]);
            return if c < 0 {
                format!("({c})")
            } else {
                c.to_string()
            };
        }
        let v = self.rng.pick(&self.ints).clone();
        v
    }

    fn int_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.chance(30) {
            return self.int_leaf();
        }
        match self.rng.below(12) {
            0..=4 => {
                let op = *self.rng.pick(&["+", "-", "*", "&", "|", "^"]);
                format!(
                    "({} {op} {})",
                    self.int_expr(depth - 1),
                    self.int_expr(depth - 1)
                )
            }
            5 => {
                let op = *self.rng.pick(&["<<", ">>"]);
                format!(
                    "({} {op} ({} & 15))",
                    self.int_expr(depth - 1),
                    self.int_expr(depth - 1)
                )
            }
            6 => format!(
                "(int)((unsigned)({}) / ((unsigned)({}) | 1u))",
                self.int_expr(depth - 1),
                self.int_expr(depth - 1)
            ),
            7 => {
                let op = *self.rng.pick(&["<", "<=", "==", "!=", ">"]);
                format!(
                    "({} {op} {})",
                    self.int_expr(depth - 1),
                    self.int_expr(depth - 1)
                )
            }
            8 if !self.doubles.is_empty() => {
                let op = *self.rng.pick(&["<", "<=", "==", "!=", ">"]);
                format!(
                    "({} {op} {})",
                    self.double_expr(depth - 1),
                    self.double_expr(depth - 1)
                )
            }
            9 => format!(
                "({} ? {} : {})",
                self.int_expr(depth - 1),
                self.int_expr(depth - 1),
                self.int_expr(depth - 1)
            ),
            10 if self.has_array => format!("arr[({}) & 3]", self.int_expr(depth - 1)),
            _ if self.has_ptr => format!("p[({}) & 7]", self.int_expr(depth - 1)),
            _ => format!("(-{})", self.int_expr(depth - 1)),
        }
    }

    fn double_expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.chance(30) || self.doubles.is_empty() {
            if self.doubles.is_empty() || self.rng.chance(30) {
                return self
                    .rng
                    .pick(&["0.5", "1.0", "2.0", "0.1", "3.25", "1e16", "-1.5"])
                    .to_string();
            }
            let v = self.rng.pick(&self.doubles).clone();
            return v;
        }
        match self.rng.below(8) {
            0..=4 => {
                let op = *self.rng.pick(&["+", "-", "*", "/"]);
                format!(
                    "({} {op} {})",
                    self.double_expr(depth - 1),
                    self.double_expr(depth - 1)
                )
            }
            5 => format!("(double)({})", self.int_expr(depth - 1)),
            6 => format!(
                "({} ? {} : {})",
                self.int_expr(depth - 1),
                self.double_expr(depth - 1),
                self.double_expr(depth - 1)
            ),
            _ => format!("(-{})", self.double_expr(depth - 1)),
        }
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn assignable_int(&mut self) -> String {
        let mut targets: Vec<String> = self
            .ints
            .iter()
            .filter(|v| {
                let loop_var = v.starts_with('i') && v[1..].bytes().all(|b| b.is_ascii_digit());
                !(v.contains('[') || v.contains('(') || loop_var)
            })
            .cloned()
            .collect();
        targets.push("g0".into());
        if self.has_array {
            targets.push(format!("arr[({}) & 3]", self.int_leaf()));
        }
        if self.has_ptr {
            targets.push(format!("p[({}) & 7]", self.int_leaf()));
        }
        if self.has_struct {
            let v = self.rng.pick(&self.structs).clone();
            targets.push(format!("{v}.a"));
            targets.push(format!("{v}.v[({}) & 1]", self.int_leaf()));
        }
        self.rng.pick(&targets).clone()
    }

    fn stmt(&mut self, depth: u32, loop_var: &mut u32) {
        match self.rng.below(10) {
            0..=3 => {
                let t = self.assignable_int();
                let op = *self.rng.pick(&["=", "+=", "-=", "^="]);
                let e = self.int_expr(2);
                self.line(&format!("{t} {op} {e};"));
            }
            4 if !self.doubles.is_empty() => {
                let mut targets: Vec<String> = self
                    .doubles
                    .iter()
                    .filter(|v| v.starts_with('d') || *v == "s.d" || *v == "g2")
                    .cloned()
                    .collect();
                targets.push("g2".into());
                let t = self.rng.pick(&targets).clone();
                let op = *self.rng.pick(&["=", "+=", "*="]);
                let e = self.double_expr(2);
                self.line(&format!("{t} {op} {e};"));
            }
            5 if depth > 0 => {
                let c = self.int_expr(2);
                self.line(&format!("if ({c}) {{"));
                self.block(depth - 1, loop_var, 2);
                if self.rng.chance(50) {
                    self.line("} else {");
                    self.block(depth - 1, loop_var, 2);
                }
                self.line("}");
            }
            6 if depth > 0 => {
                let v = format!("i{}", *loop_var);
                *loop_var += 1;
                let k = 1 + self.rng.below(6);
                self.line(&format!("for (int {v} = 0; {v} < {k}; {v}++) {{"));
                self.ints.push(v.clone());
                self.block(depth - 1, loop_var, 2);
                self.ints.retain(|x| *x != v);
                self.line("}");
            }
            8 if self.long_loops && depth > 0 && self.rng.chance(40) => {
                // A loop longer than the interpreter's replay step limit, fast natively.
                let v = format!("i{}", *loop_var);
                *loop_var += 1;
                let bound = self.int_leaf();
                let t = self.assignable_int();
                if self.rng.chance(50) {
                    self.line(&format!(
                        "for (int {v} = 0; {v} < (({bound}) & 0x3ffff); {v}++) {t} += {v} & 3;"
                    ));
                } else {
                    self.line(&format!(
                        "{{ int c = 0, w = {bound}; while (w < 0 && c < 1000000) {{ w++; c++; }} {t} += c; }}"
                    ));
                }
            }
            7 if !self.helpers.is_empty() => {
                let (name, kind) = self.rng.pick(&self.helpers).clone();
                match kind {
                    0 => {
                        let t = self.assignable_int();
                        let (a, b) = (self.int_expr(1), self.int_expr(1));
                        self.line(&format!("{t} += {name}({a}, (unsigned)({b}));"));
                    }
                    1 if self.has_struct && self.doubles.iter().any(|d| d == "dl") => {
                        let a = self.double_expr(1);
                        let v = self.rng.pick(&self.structs).clone();
                        self.line(&format!("dl = {name}({a}, {v});"));
                    }
                    2 if self.has_struct => {
                        let a = self.int_expr(1);
                        let v = self.rng.pick(&self.structs).clone();
                        let w = self.rng.pick(&self.structs).clone();
                        self.line(&format!("{w} = {name}({v}, {a});"));
                    }
                    3 if self.has_struct => {
                        let t = self.assignable_int();
                        let v = self.rng.pick(&self.structs).clone();
                        self.line(&format!("{t} += {name}({v});"));
                    }
                    _ => {}
                }
            }
            _ => {
                let t = self.assignable_int();
                let e = self.int_expr(3);
                self.line(&format!("{t} = {e};"));
            }
        }
    }

    fn block(&mut self, depth: u32, loop_var: &mut u32, count: u64) {
        self.indent += 1;
        let n = 1 + self.rng.below(count);
        for _ in 0..n {
            self.stmt(depth, loop_var);
        }
        self.indent -= 1;
    }
}

/// A random program; its function `t` is the one compared.
fn random_program(seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut g = Gen {
        rng: &mut rng,
        ints: Vec::new(),
        doubles: Vec::new(),
        out: String::new(),
        indent: 0,
        helpers: Vec::new(),
        has_struct: false,
        structs: Vec::new(),
        has_ptr: false,
        has_array: false,
        long_loops: false,
    };
    g.out.push_str(
        "struct S {\n    int a;\n    unsigned b;\n    double d;\n    int v[2];\n};\n\
         int g0 = 3;\nunsigned g1 = 7u;\ndouble g2 = 1.5;\nint garr[4] = {1, 2, 3, 4};\n\n",
    );
    let helpers = g.rng.below(3);
    for h in 0..helpers {
        let kind = g.rng.below(4) as u8;
        let name = format!("h{h}");
        let mut loop_var = 0;
        g.has_ptr = false;
        g.has_array = false;
        match kind {
            0 => {
                g.out
                    .push_str(&format!("static int {name}(int x, unsigned u) {{\n"));
                g.ints = vec!["x".into(), "(int)u".into(), "g0".into()];
                g.doubles = vec![];
                g.has_struct = false;
                g.structs = vec![];
                g.block(1, &mut loop_var, 3);
                let e = g.int_expr(2);
                g.line(&format!("    return {e};"));
            }
            1 => {
                g.out
                    .push_str(&format!("static double {name}(double d, struct S s) {{\n"));
                g.ints = vec!["s.a".into(), "(int)s.b".into(), "s.v[0]".into()];
                g.doubles = vec!["d".into(), "s.d".into()];
                g.has_struct = true;
                g.structs = vec!["s".into()];
                g.block(1, &mut loop_var, 3);
                let e = g.double_expr(2);
                g.line(&format!("    return {e};"));
            }
            2 => {
                g.out
                    .push_str(&format!("static struct S {name}(struct S s, int k) {{\n"));
                g.ints = vec!["k".into(), "s.a".into(), "s.v[1]".into(), "g0".into()];
                g.doubles = vec!["s.d".into()];
                g.has_struct = true;
                g.structs = vec!["s".into()];
                g.block(1, &mut loop_var, 3);
                g.line("    return s;");
            }
            _ => {
                g.out
                    .push_str(&format!("static int {name}(struct S o) {{\n"));
                g.ints = vec!["o.a".into(), "(int)o.b".into(), "o.v[1]".into()];
                g.doubles = vec!["o.d".into()];
                g.has_struct = false;
                g.structs = vec![];
                let e = g.int_expr(2);
                g.line(&format!("    return {e};"));
            }
        }
        g.out.push_str("}\n\n");
        g.helpers.push((name, kind));
    }
    // The compared function.
    let mut params = vec!["int x".to_string()];
    g.ints = vec!["x".into(), "l0".into(), "g0".into(), "garr[1]".into()];
    g.doubles = vec!["g2".into()];
    if g.rng.chance(60) {
        params.push("unsigned u".into());
        g.ints.push("(int)u".into());
    }
    if g.rng.chance(60) {
        params.push("double d".into());
        g.doubles.push("d".into());
    }
    g.structs = vec![];
    if g.rng.chance(50) {
        params.push("struct S s".into());
        g.structs.push("s".into());
    }
    if g.rng.chance(25) {
        // Many parameters (struct returns through memory, more argument registers).
        for k in 0..(4 + g.rng.below(6)) {
            params.push(format!("int p{k}"));
            g.ints.push(format!("p{k}"));
        }
    }
    let locals = if g.rng.chance(40) {
        1 + g.rng.below(2)
    } else {
        0
    };
    for k in 0..locals {
        g.structs.push(format!("o{}", k + 1));
    }
    for v in g.structs.clone() {
        g.ints.push(format!("{v}.a"));
        g.ints.push(format!("{v}.v[0]"));
        g.doubles.push(format!("{v}.d"));
    }
    g.has_struct = !g.structs.is_empty();
    g.long_loops = g.rng.chance(20);
    g.has_ptr = g.rng.chance(40);
    if g.has_ptr {
        params.push("int *p".into());
    }
    g.has_array = g.rng.chance(50);
    let returns = g.rng.below(if g.has_struct { 3 } else { 2 });
    let ret = ["int", "double", "struct S"][returns as usize];
    g.out
        .push_str(&format!("{ret} t({}) {{\n", params.join(", ")));
    g.line("    int l0 = 0;");
    g.line("    double dl = 0.0;");
    for k in 0..locals {
        // A struct local, set field by field.
        let v = format!("o{}", k + 1);
        g.line(&format!("    struct S {v};"));
        let safe = ["x", "l0", "1", "7", "(-2)"];
        let (a, b) = (g.rng.pick(&safe).to_string(), g.rng.pick(&safe).to_string());
        let d = *g.rng.pick(&["0.5", "g2", "(double)x", "1e16"]);
        g.line(&format!(
            "    {v}.a = {a}; {v}.b = (unsigned)({b}); {v}.d = {d}; {v}.v[0] = {a}; {v}.v[1] = 0;"
        ));
    }
    g.doubles.push("dl".into());
    if g.has_array {
        g.line("    int arr[4] = {1, 2, 3, 4};");
        g.ints.push("arr[2]".into());
    }
    let mut loop_var = 0;
    g.block(2, &mut loop_var, 5);
    match returns {
        0 => {
            let e = g.int_expr(2);
            g.line(&format!("    return {e};"));
        }
        1 => {
            let e = g.double_expr(2);
            g.line(&format!("    return {e};"));
        }
        _ => {
            let v = g.rng.pick(&g.structs).clone();
            g.line(&format!("    {v}.a += l0;"));
            g.line(&format!("    return {v};"));
        }
    }
    g.out.push_str("}\n");
    g.out
}

// ---------------------------------------------------------------------------------------
// The harness.

/// The programs of the labelled suites, with the function each pair compares.
fn suite_programs() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for suite in ["semdiff", "semdiff-numeric"] {
        let root = workspace().join("tests").join(suite);
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("pair.desc").is_file())
            .collect();
        dirs.sort();
        for dir in dirs {
            let desc = std::fs::read_to_string(dir.join("pair.desc")).unwrap();
            let function = desc
                .lines()
                .find_map(|l| l.strip_prefix("function: "))
                .unwrap()
                .to_string();
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            for version in ["old", "new"] {
                let text = std::fs::read_to_string(dir.join(format!("{version}.c"))).unwrap();
                out.push((format!("{suite}/{name}/{version}"), text, function.clone()));
            }
        }
    }
    out
}

/// A generated pair: name, old and new text, compared function.
struct Case {
    name: String,
    old: String,
    new: String,
    function: String,
}

fn case(seed: u64, suites: &[(String, String, String)]) -> Option<Case> {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
    let (origin, old, function) = if rng.chance(50) {
        let (origin, text, function) = rng.pick(suites).clone();
        (origin, text, function)
    } else {
        (
            format!("random-{seed}"),
            random_program(seed),
            "t".to_string(),
        )
    };
    let mut new = mutate(&old, &mut rng)?;
    if rng.chance(25) {
        // A second mutation now and then.
        new = mutate(&new, &mut rng).unwrap_or(new);
    }
    Some(Case {
        name: format!("pair-{seed} ({origin})"),
        old,
        new,
        function,
    })
}

fn compiles(text: &str, work: &Path, name: &str) -> bool {
    let c = work.join(format!("{name}-syntax.c"));
    std::fs::write(&c, text).unwrap();
    Command::new("gcc")
        .args(["-std=gnu11", "-fsyntax-only", "-w"])
        .arg(&c)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn function_id(program: &Program, name: &str) -> Option<FuncId> {
    program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == name && f.is_defined())
        .map(|(id, _)| id)
}

#[derive(Default)]
struct Tally {
    done: AtomicUsize,
    pairs: AtomicUsize,
    skipped: AtomicUsize,
    equivalent: AtomicUsize,
    different: AtomicUsize,
    unknown: AtomicUsize,
    confirmed: AtomicUsize,
    inputs_run: AtomicUsize,
    /// Verdicts that could not be checked natively (a signature the driver cannot write).
    unchecked: AtomicUsize,
}

enum Violation {
    Equivalent(String),
    Confirmed(String),
}

/// Checks one pair; returns its violations.
fn check(case: &Case, work: &Path, inputs: usize, tally: &Tally) -> Vec<Violation> {
    let tag = case.name.split(' ').next().unwrap().to_string();
    if !compiles(&case.old, work, &format!("{tag}-old"))
        || !compiles(&case.new, work, &format!("{tag}-new"))
    {
        tally.skipped.fetch_add(1, Ordering::Relaxed);
        return Vec::new();
    }
    let old_path = work.join(format!("{tag}-old.c"));
    let new_path = work.join(format!("{tag}-new.c"));
    std::fs::write(&old_path, &case.old).unwrap();
    std::fs::write(&new_path, &case.new).unwrap();
    let old = load(&old_path);
    let new = load(&new_path);
    let (Some(of), Some(nf)) = (
        function_id(&old, &case.function),
        function_id(&new, &case.function),
    ) else {
        tally.skipped.fetch_add(1, Ordering::Relaxed);
        return Vec::new();
    };
    let config = SemdiffConfig {
        function: Some(case.function.clone()),
        total_budget: Duration::from_millis(600),
        query_budget: Duration::from_millis(200),
        ..SemdiffConfig::default()
    };
    let matching =
        ripple_versions::match_programs(&old, &new, &ripple_versions::MatchConfig::default());
    let report = semdiff(&old, &new, &matching, &config);
    let Some(f) = report.functions.iter().find(|f| f.name == case.function) else {
        // An unmodified function is not reported: nothing to check.
        tally.skipped.fetch_add(1, Ordering::Relaxed);
        return Vec::new();
    };
    tally.pairs.fetch_add(1, Ordering::Relaxed);
    let mut violations = Vec::new();
    match f.verdict {
        Verdict::Equivalent => {
            tally.equivalent.fetch_add(1, Ordering::Relaxed);
            let seed = case.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
            let Some(list) = random_inputs(&old, of, inputs, seed ^ 0xabcdef) else {
                tally.unchecked.fetch_add(1, Ordering::Relaxed);
                return violations;
            };
            let Some(found) = native_difference(case, &old, of, &new, nf, &list, 300, work, &tag)
            else {
                tally.unchecked.fetch_add(1, Ordering::Relaxed);
                return violations;
            };
            if let Some((i, a, b)) = found {
                let crash = |o: &str| o.ends_with("|signal 11") || o.ends_with("|signal 7");
                let class = if crash(&a) != crash(&b) {
                    "[one version crashes: an out-of-bounds access] "
                } else {
                    ""
                };
                violations.push(Violation::Equivalent(format!(
                    "{}: {class}reported equivalent, natively input {:?} gives {a:?} and {b:?}",
                    case.name, list[i]
                )));
            }
            tally.inputs_run.fetch_add(list.len(), Ordering::Relaxed);
        }
        Verdict::Different => {
            tally.different.fetch_add(1, Ordering::Relaxed);
        }
        Verdict::Unknown => {
            tally.unknown.fetch_add(1, Ordering::Relaxed);
        }
    }
    let witnesses: Vec<_> = f.witnesses.iter().filter(|w| w.confirmed).collect();
    if !witnesses.is_empty() {
        tally
            .confirmed
            .fetch_add(witnesses.len(), Ordering::Relaxed);
        let old_inputs: Vec<Input> = witnesses
            .iter()
            .map(|w| witness_input(&old, of, &old, Side::Old, &w.replay))
            .collect();
        let new_inputs: Vec<Input> = witnesses
            .iter()
            .map(|w| witness_input(&new, nf, &old, Side::New, &w.replay))
            .collect();
        let ran = match (
            run(
                &case.old,
                &old,
                of,
                &old_inputs,
                5000,
                work,
                &format!("{tag}-wold"),
            ),
            run(
                &case.new,
                &new,
                nf,
                &new_inputs,
                5000,
                work,
                &format!("{tag}-wnew"),
            ),
        ) {
            (Ok(a), Ok(b)) if a.len() == witnesses.len() && b.len() == witnesses.len() => {
                Some((a, b))
            }
            _ => None,
        };
        if ran.is_none() {
            tally.unchecked.fetch_add(1, Ordering::Relaxed);
        }
        {
            if let Some((a, b)) = ran {
                for (i, w) in witnesses.iter().enumerate() {
                    if a.get(i) == b.get(i) {
                        let class = if w.old.result.starts_with("no termination")
                            || w.new.result.starts_with("no termination")
                        {
                            "[step limit] "
                        } else if w.old.result.starts_with("trap")
                            || w.new.result.starts_with("trap")
                        {
                            "[interpreter trap: undefined behaviour the compiled code does not show] "
                        } else {
                            ""
                        };
                        violations.push(Violation::Confirmed(format!(
                            "{}: {class}witness {:?} ({}) confirmed; natively both give {:?} \
                             (interpreter: old {:?}, new {:?})",
                            case.name,
                            w.inputs,
                            w.kind,
                            a.get(i),
                            w.old.result,
                            w.new.result
                        )));
                    }
                }
            }
        }
    }
    violations
}

/// The first input on which the compiled versions differ (both timing out is no
/// difference).
#[allow(clippy::too_many_arguments)]
fn native_difference(
    case: &Case,
    old: &Program,
    of: FuncId,
    new: &Program,
    nf: FuncId,
    inputs: &[Input],
    timeout_ms: u32,
    work: &Path,
    tag: &str,
) -> Option<Option<(usize, String, String)>> {
    let a = run(
        &case.old,
        old,
        of,
        inputs,
        timeout_ms,
        work,
        &format!("{tag}-rold"),
    )
    .ok()?;
    let b = run(
        &case.new,
        new,
        nf,
        inputs,
        timeout_ms,
        work,
        &format!("{tag}-rnew"),
    )
    .ok()?;
    if a.len() != inputs.len() || b.len() != inputs.len() {
        return None;
    }
    Some(
        a.iter()
            .zip(&b)
            .enumerate()
            .find(|(_, (x, y))| x != y && !(timed_out(x) && timed_out(y)))
            .map(|(i, (x, y))| (i, x.clone(), y.clone())),
    )
}

#[test]
fn semdiff_differential_soundness() {
    require_gcc();
    let count = env_usize("SEMDIFF_SOUNDNESS_PAIRS", 200);
    let first = env_usize("SEMDIFF_SOUNDNESS_SEED", 1) as u64;
    let inputs = env_usize("SEMDIFF_SOUNDNESS_INPUTS", 48);
    let suites = suite_programs();
    let work = tempfile::tempdir().unwrap();
    let tally = Tally::default();
    let started = Instant::now();
    let cases: Vec<Case> = (first..first + count as u64)
        .filter_map(|seed| case(seed, &suites))
        .collect();
    let violations: Vec<(String, Violation)> = cases
        .par_iter()
        .flat_map(|c| {
            let found = check(c, work.path(), inputs, &tally);
            for v in &found {
                // Printed at once too, so that a long run shows them as it goes.
                let (Violation::Equivalent(t) | Violation::Confirmed(t)) = v;
                eprintln!("found: {t}");
            }
            let done = tally.done.fetch_add(1, Ordering::Relaxed) + 1;
            if done % 250 == 0 {
                eprintln!(
                    "{done} of {} pairs, {:.0} s",
                    cases.len(),
                    started.elapsed().as_secs_f64()
                );
            }
            found
                .into_iter()
                .map(|v| (c.name.clone(), v))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut new_violations = 0;
    let (mut wrong_equivalent, mut wrong_confirmed) = (0, 0);
    for (name, v) in &violations {
        let known = KNOWN
            .iter()
            .any(|(k, _)| name.starts_with(&format!("{k} ")));
        let text = match v {
            Violation::Equivalent(t) => {
                wrong_equivalent += 1;
                t
            }
            Violation::Confirmed(t) => {
                wrong_confirmed += 1;
                t
            }
        };
        println!("{}{text}", if known { "known: " } else { "VIOLATION: " });
        new_violations += usize::from(!known);
    }
    let load = |a: &AtomicUsize| a.load(Ordering::Relaxed);
    println!(
        "semdiff soundness: {} cases generated, {} analysed ({} skipped: not compiled or no \
         function), {} equivalent, {} different, {} unknown; {} verdicts not checkable \
         natively; {} confirmed witnesses run natively, {} random inputs run on equivalent pairs; wrong equivalent {wrong_equivalent}, \
         wrong confirmed {wrong_confirmed} ({new_violations} not known); {:.1} s",
        cases.len(),
        load(&tally.pairs),
        load(&tally.skipped),
        load(&tally.equivalent),
        load(&tally.different),
        load(&tally.unknown),
        load(&tally.unchecked),
        load(&tally.confirmed),
        load(&tally.inputs_run),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(new_violations, 0, "soundness violations (see above)");
}

/// The generators are deterministic: the same seed gives the same pair.
#[test]
fn generated_pairs_are_deterministic() {
    let suites = suite_programs();
    for seed in [3u64, 17, 40] {
        let (a, b) = (case(seed, &suites), case(seed, &suites));
        assert_eq!(
            a.as_ref().map(|c| (&c.old, &c.new)),
            b.as_ref().map(|c| (&c.old, &c.new))
        );
    }
    assert_eq!(random_program(9), random_program(9));
    assert_ne!(random_program(9), random_program(10));
}

/// Runs the harness' checks on one hand-written pair; the violations found.
fn check_pair(name: &str, old: &str, new: &str, function: &str) -> Vec<String> {
    require_gcc();
    let work = tempfile::tempdir().unwrap();
    let case = Case {
        name: format!("{name} (reduced)"),
        old: old.to_string(),
        new: new.to_string(),
        function: function.to_string(),
    };
    let tally = Tally::default();
    let found = check(&case, work.path(), 256, &tally);
    assert_eq!(
        tally.unchecked.load(Ordering::Relaxed),
        0,
        "{name}: the verdict could not be checked natively"
    );
    found
        .into_iter()
        .map(|v| match v {
            Violation::Equivalent(t) | Violation::Confirmed(t) => t,
        })
        .collect()
}

/// The harness found a wrong "equivalent" here (fixed): the struct-by-value pair of
/// issue 18 (1).
#[test]
fn reduced_struct_by_value_second_local() {
    let old = "typedef struct S { int x; int z; } T;\nint h(T o) { return o.x; }\n\
               int t(int x1, int z1, int x2, int z2) {\n  T o1; o1.x = x1; o1.z = z1;\n  \
               T o2; o2.x = x2; o2.z = 0;\n  return h(o2);\n}\n";
    let new = old.replace("o2.x = x2;", "o2.x = z2;");
    let found = check_pair("struct-by-value", old, &new, "t");
    assert!(found.is_empty(), "{found:?}");
}

/// The harness found a wrong "equivalent" here (fixed): a struct returned by a function
/// of nine parameters (issue 18, 2).
#[test]
fn reduced_struct_return_nine_params() {
    let old = "typedef struct { int a; int b; } T;\n\
               T mk(int p0, int p1, int p2, int p3, int p4, int p5, int p6, int p7, int p8) {\n  \
               T o; o.a = p0; o.b = p1; return o;\n}\n";
    let new = old.replace("o.b = p1;", "o.b = 10;");
    let found = check_pair("struct-return", old, &new, "mk");
    assert!(found.is_empty(), "{found:?}");
}

/// The harness found a witness marked confirmed on which the compiled versions agree
/// here (fixed): the interpreter's step limit taken as a difference (issue 18, 3).
#[test]
fn reduced_step_limit_confirmed() {
    let old = "int steps(int x) { int c = 0; while (x < 0) { x++; c++; } return c; }\n\
               int use(int x) { return x > 0 ? -steps(-x) : steps(x); }\n";
    let new = "int steps(int x) { if (x < 0) return -x; return 0; }\n\
               int use(int x) { return x > 0 ? -steps(-x) : steps(x); }\n";
    let found = check_pair("step-limit", old, new, "use");
    assert!(found.is_empty(), "{found:?}");
}

/// Prints the pair of seed `SEMDIFF_SOUNDNESS_SHOW` (to reduce a violation by hand).
#[test]
#[ignore = "a tool: prints one generated pair"]
fn show_pair() {
    let seed = env_usize("SEMDIFF_SOUNDNESS_SHOW", 1) as u64;
    let c = case(seed, &suite_programs()).expect("a pair for this seed");
    println!(
        "// {} function {}\n// old\n{}\n// new\n{}",
        c.name, c.function, c.old, c.new
    );
}

/// Found by the harness (pair-12723, reduced; fixed): the new version reads a local array
/// out of bounds (`a[i | 3]` for `i` > 3; natively a crash for large `i`) where the old
/// one reads in bounds; the value read decides only a dead store. An access outside the
/// local or global object its address is built from is now a trap path, so the pair is
/// not `equivalent`.
#[test]
fn reduced_out_of_bounds_read_equivalent() {
    let old = "int t(int x, int i) {\n  int a[4] = {1, 2, 3, 4};\n  if (a[i & 3])\n    x = 1;\n  return i;\n}\n";
    let new = old.replace("a[i & 3]", "a[i | 3]");
    let found = check_pair("out-of-bounds", old, &new, "t");
    assert!(found.is_empty(), "{found:?}");
}

/// Found by the harness (fixed: a trap on an out-of-bounds access confirms nothing; pair-11140;
/// pair-10561 is of the same kind): the new version
/// reads `arr[4]` of a local `int arr[4]`, a trap in the interpreter, so the witness is
/// marked confirmed; compiled, both versions return the same value (the value read only
/// enters `(0.0 * v) == 0.0`). The difference exists only through undefined behaviour and
/// is not labelled so. Not reduced further: smaller versions are proved equivalent.
#[test]
fn generated_trap_only_confirmed() {
    let c = case(11140, &suite_programs()).expect("pair-11140");
    let found = check_pair("pair-11140", &c.old, &c.new, &c.function);
    assert!(found.is_empty(), "{found:?}");
}

/// Found by the harness (pair-11980, reduced; pair-13863, pair-11693 are of the same
/// kind): a struct parameter modified and returned by value. `s.a += 1` against
/// `s.a = 1` differ whenever `s.a != 0`, yet the pair is reported equivalent: the fields
/// of a returned struct parameter were not compared (fixed with the memory parameters and
/// record returns of the symbolic engine).
#[test]
fn reduced_struct_param_returned() {
    let old = "struct S {\n  int a;\n  int b;\n};\nstruct S t(struct S s) {\n  s.a += 1;\n  return s;\n}\n";
    let new = old.replace("s.a += 1;", "s.a = 1;");
    let found = check_pair("struct-param-returned", old, &new, "t");
    assert!(found.is_empty(), "{found:?}");
}

/// Found by the long run (pair-23077): `x << 34` on a 32-bit operand is undefined; the
/// interpreter masks the count as the machine does (x << 2), while gcc folds the constant
/// shift to 0 even at -O0, so the interpreter's difference is not the compiled
/// program's. A witness through an out-of-range shift is confirmed only by compiled code.
#[test]
fn reduced_out_of_range_shift_is_not_confirmed_by_the_interpreter() {
    let old = "unsigned xorshift32(unsigned x) {\n  x ^= x << 13;\n  x ^= x >> 17;\n  x ^= x << 5;\n  return x;\n}\n";
    let new = old.replace("x >> 17", "x << 34");
    let found = check_pair("shift-count", old, &new, "xorshift32");
    assert!(found.is_empty(), "{found:?}");
}

/// Found by the long run (pair-21289, reduced; fixed): the new version reads through the
/// pointer parameter at `p[x | 7]`, far outside any caller's object for a negative `x`,
/// where the old one reads `p[x & 7]`; the value read is dead. The object a pointer
/// parameter points into has a size (an input shared by both versions), an access
/// beyond it traps, so the pair is not `equivalent`.
#[test]
fn reduced_dead_read_through_a_pointer_parameter() {
    let old = "int t(int x, int *p) {\n  int l0 = p[x & 7];\n  return x;\n}\n";
    let new = old.replace("x & 7", "x | 7");
    let found = check_pair("pointer-parameter", old, &new, "t");
    assert!(found.is_empty(), "{found:?}");
}
