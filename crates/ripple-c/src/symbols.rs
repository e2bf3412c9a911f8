//! What a translation unit gives and asks of the linker, to tell before lowering which
//! files of a source tree a program is made of, as a linker pulls the members of a
//! library archive: the external functions and variables the unit defines, and the
//! names its code and initializers use.
//!
//! Both sides over-approximate in the direction that pulls more: every identifier in a
//! function body or an initializer is a use (a local of the same name as another file's
//! function pulls that file in), and a declarator at file scope that is not a
//! prototype, a `typedef` or `extern` is a definition. `static` definitions are left
//! out: they resolve nothing in another unit, and the unit's own uses of them are no
//! uses to resolve elsewhere.

use tree_sitter::Node as TsNode;

use crate::lower::c_language;
use crate::TranslationUnit;

/// The external names a unit defines and the names it uses, each sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkSymbols {
    pub defines: Vec<String>,
    pub uses: Vec<String>,
}

/// The linker's view of `unit`.
pub fn link_symbols(unit: &TranslationUnit) -> LinkSymbols {
    let mut parser = tree_sitter::Parser::new();
    if parser.set_language(c_language()).is_err() {
        return LinkSymbols::default();
    }
    // Line markers may fall inside an expression (a macro's expansion spread over
    // lines): blanked as the lowering blanks them, so both read the same tree.
    let blanked = if unit.line_map.is_some() {
        crate::lower::blank_line_markers(&unit.text)
    } else {
        unit.text.clone()
    };
    let Some(tree) = parser.parse(&blanked, None) else {
        return LinkSymbols::default();
    };
    let text = blanked.as_bytes();
    let name = |n: TsNode| n.utf8_text(text).unwrap_or("").to_string();
    let mut out = LinkSymbols::default();
    let mut statics: Vec<String> = Vec::new();
    // File-scope items, also inside preprocessor conditionals, `extern "C"` blocks and
    // what the parser could not read (whose identifiers are all uses).
    let mut stack = vec![tree.root_node()];
    while let Some(item) = stack.pop() {
        let external = !has_storage(item, text, "static");
        match item.kind() {
            "function_definition" => {
                if let Some(id) = item
                    .child_by_field_name("declarator")
                    .and_then(declared_name)
                {
                    if external {
                        out.defines.push(name(id));
                    } else {
                        statics.push(name(id));
                    }
                }
                // A parameter's name is the function's own (`void (*out_char)(int)`
                // names no other file's `out_char`).
                let params = item
                    .child_by_field_name("declarator")
                    .map(|d| parameter_names(d, text))
                    .unwrap_or_default();
                if let Some(body) = item.child_by_field_name("body") {
                    identifiers(body, &mut |id| {
                        let id = name(id);
                        if !params.contains(&id) {
                            out.uses.push(id);
                        }
                    });
                }
            }
            "declaration" => {
                let declared_only = has_storage(item, text, "extern");
                let mut dc = item.walk();
                for d in item.children_by_field_name("declarator", &mut dc) {
                    if let Some(value) = d.child_by_field_name("value") {
                        identifiers(value, &mut |id| out.uses.push(name(id)));
                    }
                    if is_prototype(d) || declared_only {
                        continue;
                    }
                    if let Some(id) = declared_name(d) {
                        if external {
                            out.defines.push(name(id));
                        } else {
                            statics.push(name(id));
                        }
                    }
                }
            }
            "ERROR" => {
                let mut cursor = item.walk();
                for child in item.named_children(&mut cursor) {
                    if matches!(child.kind(), "function_definition" | "declaration") {
                        stack.push(child);
                    } else {
                        identifiers(child, &mut |id| out.uses.push(name(id)));
                    }
                }
            }
            "translation_unit"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "linkage_specification"
            | "declaration_list" => {
                let mut cursor = item.walk();
                stack.extend(item.named_children(&mut cursor));
            }
            _ => {}
        }
    }
    for list in [&mut out.defines, &mut out.uses, &mut statics] {
        list.sort_unstable();
        list.dedup();
    }
    out.uses.retain(|u| statics.binary_search(u).is_err());
    // What the parser's recovery made of a keyword (`if (` read as a declaration of
    // `if` in code that uses a macro the file does not define) names no symbol.
    for list in [&mut out.defines, &mut out.uses] {
        list.retain(|name| !KEYWORDS.contains(&name.as_str()));
    }
    out
}

/// The keywords of C (C23 and GNU spellings included): never the name of a symbol.
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "char",
    "const",
    "constexpr",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "false",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "nullptr",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "struct",
    "switch",
    "thread_local",
    "true",
    "typedef",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "__asm__",
    "__attribute__",
    "__extension__",
    "__inline",
    "__inline__",
    "__typeof__",
];

/// Whether a declaration or definition has the storage class `word`.
fn has_storage(item: TsNode, text: &[u8], word: &str) -> bool {
    let mut cursor = item.walk();
    let found = item
        .children(&mut cursor)
        .any(|c| c.kind() == "storage_class_specifier" && c.utf8_text(text) == Ok(word));
    found
}

/// The names of the parameters of the function a definition's declarator declares.
fn parameter_names(mut d: TsNode, text: &[u8]) -> Vec<String> {
    while d.kind() != "function_declarator" {
        let inner = match d.kind() {
            "parenthesized_declarator" => d.named_child(0),
            _ => d.child_by_field_name("declarator"),
        };
        match inner {
            Some(inner) => d = inner,
            None => return Vec::new(),
        }
    }
    let Some(list) = d.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    let names = list
        .named_children(&mut cursor)
        .filter_map(|p| p.child_by_field_name("declarator"))
        .filter_map(declared_name)
        .filter_map(|id| id.utf8_text(text).ok().map(str::to_string))
        .collect();
    names
}

/// The identifier a declarator (of a variable, function or member) declares.
pub(crate) fn declared_name(mut d: TsNode) -> Option<TsNode> {
    loop {
        d = match d.kind() {
            "identifier" | "field_identifier" => return Some(d),
            "parenthesized_declarator" => d.named_child(0)?,
            _ => d.child_by_field_name("declarator")?,
        };
    }
}

/// Whether a declarator declares a function (`int f(void)`, `int *f(int)`), not a
/// pointer to one (`int (*f)(void)`).
fn is_prototype(mut d: TsNode) -> bool {
    loop {
        match d.kind() {
            "function_declarator" => {
                return d
                    .child_by_field_name("declarator")
                    .is_some_and(|inner| inner.kind() == "identifier");
            }
            "init_declarator" | "pointer_declarator" | "attributed_declarator" => {
                match d.child_by_field_name("declarator") {
                    Some(inner) => d = inner,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

/// Calls `visit` on every identifier under `node`.
fn identifiers<'t>(node: TsNode<'t>, visit: &mut impl FnMut(TsNode<'t>)) {
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            visit(n);
            continue;
        }
        stack.extend(n.named_children(&mut cursor));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(text: &str) -> LinkSymbols {
        link_symbols(&TranslationUnit {
            path: "t.c".into(),
            text: text.into(),
            line_map: None,
        })
    }

    #[test]
    fn definitions_and_uses() {
        let s = symbols(
            "int deflate(int);\n\
             extern int shared;\n\
             static int helper(int x) { return x; }\n\
             int counter = 1, *alias = &counter;\n\
             int (*hook)(int) = helper;\n\
             typedef int handle;\n\
             static const int table[] = { 1, 2 };\n\
             int deflate(int level) { return helper(level) + shared + inflate(level); }\n",
        );
        // `helper` and `table` are static, `shared` extern, `deflate(int);` a prototype;
        // `level` is a parameter of `deflate`, but `x` of `helper` only.
        assert_eq!(s.defines, ["alias", "counter", "deflate", "hook"]);
        // Uses come from bodies and initializers, not from declarations; `helper` is
        // the unit's own.
        assert_eq!(s.uses, ["counter", "inflate", "shared"]);
        // A parameter that is a function pointer (`bc_out_num`'s `out_char`) uses no
        // function of that name.
        let s = symbols("void out_num(int n, void (*out_char)(int)) { out_char(n); emit(n); }");
        assert_eq!(s.uses, ["emit"]);
    }

    #[test]
    fn a_keyword_is_no_symbol() {
        // Reduced from cJSON_Utils.c's preprocessed text, where a line marker fell inside
        // a condition: read raw, the parser's recovery defines a function `if`, which
        // pulled the file into every program whose code says `if`. Markers are blanked
        // as the lowering blanks them, and a keyword is never a symbol.
        let text = "    if ((parent == \n# 975 \"t.c\" 3 4\n    else if (check(parent))\n    {\n";
        let preprocessed =
            TranslationUnit::preprocessed("t.c".into(), text, |f: &str| f.to_string());
        let raw = TranslationUnit {
            path: "t.c".into(),
            text: text.into(),
            line_map: None,
        };
        for unit in [preprocessed, raw] {
            let s = link_symbols(&unit);
            assert!(s.defines.is_empty(), "{:?}", s.defines);
        }
    }
}
