//! Functions declared never to return: `_Noreturn` and the GNU `noreturn` attribute in
//! every position GCC accepts, on the declarator it belongs to only.

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};

/// Which of the functions `names` are marked noreturn in `text`.
fn noreturn(text: &str, names: &[&str]) -> Vec<bool> {
    let unit = TranslationUnit {
        path: "t.c".into(),
        text: text.into(),
        line_map: None,
    };
    let lowered = lower_units(&[unit], &FrontendConfig::default());
    names
        .iter()
        .map(|name| {
            lowered
                .program
                .functions
                .iter()
                .find(|f| f.name == *name)
                .unwrap_or_else(|| panic!("{name} declared"))
                .noreturn
        })
        .collect()
}

#[test]
fn specifier_and_attribute_forms() {
    assert_eq!(noreturn("_Noreturn void a(void);", &["a"]), [true]);
    assert_eq!(
        noreturn("__attribute__((noreturn)) void a(void);", &["a"]),
        [true]
    );
    assert_eq!(
        noreturn("void a(void) __attribute__ ((__noreturn__));", &["a"]),
        [true]
    );
    assert_eq!(
        noreturn(
            "extern void __attribute__((__noreturn__, cold)) a(int);",
            &["a"]
        ),
        [true]
    );
    assert_eq!(
        noreturn("_Noreturn static void a(void) { for (;;); }", &["a"]),
        [true]
    );
    assert_eq!(
        noreturn("void a(void); int b(int);", &["a", "b"]),
        [false, false]
    );
}

#[test]
fn an_attribute_belongs_to_its_declarator() {
    // The attribute after `other(void)` is other's; `report` may return.
    assert_eq!(
        noreturn(
            "void other(void) __attribute__((noreturn)), report(int);",
            &["other", "report"]
        ),
        [true, false]
    );
    assert_eq!(
        noreturn(
            "void report(int), other(void) __attribute__((noreturn));",
            &["other", "report"]
        ),
        [true, false]
    );
    // Before the specifiers, it is the whole declaration's.
    assert_eq!(
        noreturn(
            "__attribute__((noreturn)) void a(void), b(void);",
            &["a", "b"]
        ),
        [true, true]
    );
}

#[test]
fn a_name_in_a_body_is_not_a_declaration() {
    // `noreturn` as a variable of the body says nothing of the function.
    assert_eq!(
        noreturn("int a(void) { int noreturn = 1; return noreturn; }", &["a"]),
        [false]
    );
}

#[test]
fn a_declaration_first_in_a_chunk_of_a_large_file_takes_no_earlier_attribute() {
    // A unit past the chunk size is parsed in pieces; the declaration that opens a
    // piece has no previous sibling in its tree. It took every `noreturn` attribute
    // of the text before it (here `die`'s), so calls of it cut the statements after
    // them (found on sqlite3.c: `pcache1Destroy`, declared forward, "never returned"
    // in one version, so the lines after its call were unreachable there).
    let mut text = String::from("__attribute__((noreturn)) void die(void);\n");
    let mut names = Vec::new();
    let mut k = 0;
    while text.len() < 600 * 1024 {
        text.push_str(&format!("static void declared_{k}(int *p);\n"));
        names.push(format!("declared_{k}"));
        k += 1;
    }
    let mut all: Vec<&str> = vec!["die"];
    all.extend(names.iter().map(String::as_str));
    let flags = noreturn(&text, &all);
    assert!(flags[0], "die is noreturn");
    let wrong: Vec<&str> = all[1..]
        .iter()
        .zip(&flags[1..])
        .filter(|(_, &never)| never)
        .map(|(name, _)| *name)
        .collect();
    assert!(wrong.is_empty(), "marked noreturn: {wrong:?}");
}
