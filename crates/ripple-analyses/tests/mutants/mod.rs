//! Version pairs for the soundness harnesses: lowering of preprocessed text, and
//! mutants of the conformance corpus's programs (operators, constants, statements,
//! jumps, global initializers, identities and old-style definitions), chosen
//! deterministically.

#![allow(dead_code)] // Each harness uses a different part.

use std::path::Path;

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;

/// Lowers one preprocessed unit named `name`, with the syntax trees matching needs.
pub fn lower(text: &str, name: &str) -> Option<Program> {
    let unit = TranslationUnit::preprocessed(name.to_string(), text, str::to_string);
    let lowered = lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    );
    Some(lowered.program)
}

/// Preprocesses a mutant of the program at `original`, with the program's own headers
/// (the classic programs include theirs with `#include "NAME.h"`).
pub fn preprocess_text(source: &str, original: &Path) -> Option<String> {
    let dir = tempfile::tempdir().ok()?;
    let path = dir.path().join("prog.c");
    std::fs::write(&path, source).ok()?;
    if let Some(home) = original.parent() {
        for entry in std::fs::read_dir(home).ok()?.flatten() {
            let header = entry.path();
            if header.extension().is_some_and(|e| e == "h") {
                std::fs::copy(&header, dir.path().join(header.file_name()?)).ok()?;
            }
        }
    }
    ripple_conformance::preprocess(&path).ok()
}

/// Mutants of a source: operator, constant and statement mutations, at most `per_kind`
/// sites of each kind, chosen deterministically.
pub fn mutants(source: &str, per_kind: usize) -> Vec<(String, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let in_body = |i: usize| -> bool {
        let l = lines[i].trim_start();
        !l.starts_with('#')
            && !l.starts_with("//")
            && !lines[i].contains('"')
            && lines[i].starts_with(' ')
    };
    let mut operator_sites = Vec::new();
    let mut constant_sites = Vec::new();
    let mut statement_sites = Vec::new();
    let mut jump_sites = Vec::new();
    let mut global_sites = Vec::new();
    let mut oldstyle_sites = Vec::new();
    let mut identity_sites = Vec::new();
    let mut in_initializer = false;
    for (i, &line) in lines.iter().enumerate() {
        let t = line.trim();
        // A jump alone on its line: deleting it keeps the program well-formed.
        let is_jump = t.starts_with("goto ")
            || t == "break;"
            || t == "continue;"
            || (t.starts_with("return") && t.ends_with(';') && lines[i].starts_with(' '));
        if is_jump && !line.contains('"') && !t.contains('}') {
            jump_sites.push((i, 0, line.len(), String::new()));
        }
        // A prototype-style definition rewritten in the old style of the same program.
        if let Some(rewritten) = old_style(line) {
            oldstyle_sites.push((i, 0, line.len(), rewritten));
        }
        // The initializer of a global at file scope (possibly over several lines):
        // every plain decimal number in it is a site.
        let file_scope = !line.starts_with(' ') && !line.starts_with('\t') && !t.starts_with('#');
        if file_scope && !t.starts_with("//") && line.contains('=') && !line.contains('(') {
            in_initializer = true;
        }
        if in_initializer {
            let from = if file_scope {
                line.find('=').unwrap_or(0)
            } else {
                0
            };
            if !line.contains('"') {
                let bytes = line.as_bytes();
                let mut j = from;
                while j < bytes.len() {
                    if !bytes[j].is_ascii_digit() {
                        j += 1;
                        continue;
                    }
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let before = if start == 0 { b' ' } else { bytes[start - 1] };
                    let next = bytes.get(j).copied().unwrap_or(b' ');
                    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
                    let plain = !word(before) && !word(next);
                    if plain {
                        if let Ok(n) = line[start..j].parse::<u64>() {
                            global_sites.push((i, start, j - start, (n + 3).to_string()));
                        }
                    }
                }
            }
            if t.ends_with(';') {
                in_initializer = false;
            }
        }
    }
    const OPS: [(&str, &str); 9] = [
        (" + ", " - "),
        (" - ", " + "),
        (" <= ", " < "),
        (" < ", " <= "),
        (" >= ", " > "),
        (" > ", " >= "),
        (" == ", " != "),
        (" != ", " == "),
        (" * ", " + "),
    ];
    for (i, &line) in lines.iter().enumerate() {
        if !in_body(i) {
            continue;
        }
        for (from, to) in OPS {
            if let Some(pos) = line.find(from) {
                operator_sites.push((i, pos, from.len(), to.to_string()));
                break;
            }
        }
        let bytes = line.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            if bytes[j].is_ascii_digit()
                && (j == 0
                    || !(bytes[j - 1].is_ascii_alphanumeric()
                        || bytes[j - 1] == b'_'
                        || bytes[j - 1] == b'.'))
            {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let next = bytes.get(j).copied().unwrap_or(b' ');
                if !(next.is_ascii_alphanumeric() || next == b'.' || next == b'_') {
                    if let Ok(n) = line[start..j].parse::<u64>() {
                        constant_sites.push((i, start, j - start, (n + 1).to_string()));
                    }
                }
                break;
            }
            j += 1;
        }
        let t = line.trim();
        if let Some(rewritten) = identity(line, identity_sites.len()) {
            identity_sites.push((i, 0, line.len(), rewritten));
        }
        if t.ends_with(';')
            && !t.starts_with("return")
            && !t.contains('{')
            && !t.contains('}')
            && (t.contains('=') || t.contains("++") || t.contains("--") || t.contains('('))
            && !t.starts_with("int ")
            && !t.starts_with("char ")
            && !t.starts_with("long ")
            && !t.starts_with("double ")
            && !t.starts_with("unsigned ")
            && !t.starts_with("const ")
            && !t.starts_with("static ")
            && !t.starts_with("struct ")
        {
            statement_sites.push((i, 0, line.len(), String::new()));
        }
    }
    let mut out = Vec::new();
    for (kind, sites) in [
        ("operator", &operator_sites),
        ("constant", &constant_sites),
        ("statement", &statement_sites),
        ("jump", &jump_sites),
        ("global", &global_sites),
        ("oldstyle", &oldstyle_sites),
        ("identity", &identity_sites),
    ] {
        // Few programs have tables: they get more sites each.
        let limit = if kind == "global" {
            per_kind * 4
        } else {
            per_kind
        };
        let count = sites.len().min(limit);
        for k in 0..count {
            let (line, start, len, ref replacement) =
                sites[(k * 2 + 1) * sites.len() / (count * 2)];
            let mut new_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            let original = &lines[line];
            new_lines[line] = format!(
                "{}{}{}",
                &original[..start],
                replacement,
                &original[start + len..]
            );
            out.push((format!("{kind}@{}", line + 1), new_lines.join("\n") + "\n"));
        }
    }
    out
}

/// A rewrite of an assignment statement alone on its line (`x = e;`, `a[i] = e;`) that
/// keeps its meaning, the `k`-th of a cycle of forms: `(e) + 0`, `(e) - 0`, `(e) | 0`
/// for integers, and the assignment followed by the self-assignment `x = x;`. A form
/// that does not compile for the types at hand (`| 0` of a double) makes a pair that
/// [`syntax_ok`] rejects.
pub fn identity(line: &str, k: usize) -> Option<String> {
    let t = line.trim();
    if !t.ends_with(';') || t.contains('"') || t.contains("==") || t.contains('{') {
        return None;
    }
    let eq = t.find(" = ")?;
    let lhs = &t[..eq];
    let rhs = &t[eq + 3..t.len() - 1];
    let simple_lhs = !lhs.is_empty()
        && lhs
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_[]>.-*".contains(c))
        && !lhs.starts_with(|c: char| c.is_ascii_digit());
    let has_type = lhs.contains(' ');
    if !simple_lhs || has_type || rhs.contains(" = ") || rhs.contains("++") || rhs.contains("--") {
        return None;
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    Some(match k % 4 {
        0 => format!("{indent}{lhs} = ({rhs}) + 0;"),
        1 => format!("{indent}{lhs} = ({rhs}) - 0;"),
        2 => format!("{indent}{lhs} = ({rhs}) | 0;"),
        _ => format!("{indent}{lhs} = {rhs}; {lhs} = {lhs};"),
    })
}

/// Whether gcc accepts a preprocessed program.
pub fn syntax_ok(preprocessed: &str) -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    let path = dir.path().join("prog.i");
    std::fs::write(&path, preprocessed).is_ok()
        && std::process::Command::new("gcc")
            .args(["-fsyntax-only", "-w", "-x", "cpp-output"])
            .arg(&path)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// `int f(int a, char *b) {` as `f(a, b) int a; char *b; {` (a K&R parameter list, and
/// implicit int for an `int` result), for a definition on one line at file scope whose
/// parameters are plain declarations; `None` otherwise.
pub fn old_style(line: &str) -> Option<String> {
    if line.starts_with(' ') || !line.trim_end().ends_with('{') || line.contains(';') {
        return None;
    }
    let open = line.find('(')?;
    let close = line.rfind(')')?;
    let params = &line[open + 1..close];
    if params.contains('(') || params.contains("...") || params.trim().is_empty() {
        return None;
    }
    if params.trim() == "void" || line[close + 1..].trim() != "{" {
        return None;
    }
    let mut names = Vec::new();
    let mut decls = Vec::new();
    for param in params.split(',') {
        let param = param.trim();
        let name_end = param.find('[').unwrap_or(param.len());
        let name_start = param[..name_end]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &param[name_start..name_end];
        if name.is_empty() || name_start == 0 {
            return None;
        }
        names.push(name.to_string());
        decls.push(format!("{param};"));
    }
    let head = line[..open].trim_end();
    // Implicit int: `int f(` becomes `f(`, `static int f(` becomes `static f(`.
    let head = match head.strip_prefix("int ") {
        Some(rest) if !rest.starts_with('*') => rest.to_string(),
        _ => head.replace("static int ", "static "),
    };
    Some(format!(
        "{head}({}) {} {{",
        names.join(", "),
        decls.join(" ")
    ))
}
