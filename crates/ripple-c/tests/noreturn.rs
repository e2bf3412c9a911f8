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
