//! Version matching on C sources lowered by the frontend: old/new pairs inline and the
//! matching fixtures of `examples/`.

use std::path::{Path, PathBuf};

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_ir::Program;
use ripple_versions::{match_programs, FunctionMatch, FunctionStatus, MatchConfig, VersionMatch};

fn lower(files: &[(&str, &str)]) -> Program {
    let units: Vec<TranslationUnit> = files
        .iter()
        .map(|(path, text)| TranslationUnit {
            path: (*path).to_owned(),
            text: (*text).to_owned(),
            line_map: None,
        })
        .collect();
    lower_units(
        &units,
        &FrontendConfig {
            build_syntax: true,
            ..FrontendConfig::default()
        },
    )
    .program
}

/// Old key, new key, status, old lines and new lines of one entry.
type Summary = (String, String, FunctionStatus, Vec<u32>, Vec<u32>);

struct Diff {
    old: Program,
    new: Program,
    result: VersionMatch,
}

impl Diff {
    fn of_files(old: &[(&str, &str)], new: &[(&str, &str)]) -> Diff {
        Diff::of_programs(lower(old), lower(new))
    }

    fn of(old: &str, new: &str) -> Diff {
        Diff::of_files(&[("a.c", old)], &[("a.c", new)])
    }

    fn of_programs(old: Program, new: Program) -> Diff {
        let result = match_programs(&old, &new, &MatchConfig::default());
        Diff { old, new, result }
    }

    /// The entry whose old (or else new) function has this key.
    fn function(&self, key: &str) -> &FunctionMatch {
        self.result
            .functions
            .iter()
            .find(|m| {
                m.old.is_some_and(|f| self.old.functions[f].key == key)
                    || m.new.is_some_and(|f| self.new.functions[f].key == key)
            })
            .unwrap_or_else(|| panic!("no function {key} in {:#?}", self.summary()))
    }

    fn summary(&self) -> Vec<Summary> {
        self.result
            .functions
            .iter()
            .map(|m| {
                (
                    m.old
                        .map_or(String::new(), |f| self.old.functions[f].key.clone()),
                    m.new
                        .map_or(String::new(), |f| self.new.functions[f].key.clone()),
                    m.status,
                    m.old_lines.iter().map(|l| l.1).collect(),
                    m.new_lines.iter().map(|l| l.1).collect(),
                )
            })
            .collect()
    }

    fn assert_nothing_changed(&self) {
        for m in &self.result.functions {
            assert_eq!(m.status, FunctionStatus::Unchanged, "{:#?}", self.summary());
            assert!(
                m.changed_old.is_empty() && m.changed_new.is_empty(),
                "{m:#?}"
            );
            assert!(m.old_lines.is_empty() && m.new_lines.is_empty(), "{m:#?}");
            let old = &self.old.functions[m.old.unwrap()];
            assert_eq!(m.node_map.len(), old.nodes.len());
        }
    }
}

fn lines(lines: &[u32]) -> Vec<u32> {
    lines.to_vec()
}

fn example(name: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BASE: &str = "int g(int);
int f(int x) {
    int y = 0;
    if (x > 0) {
        y = g(x);
    }
    return y;
}
";

#[test]
fn formatting_only_change_is_no_change() {
    let reformatted = "int g(int);
int f(int x)
{
    int y
      = 0;
    if (x>0)
      {
        y = g (x);
      }
    return y;
}
";
    Diff::of(BASE, reformatted).assert_nothing_changed();
    let diff = Diff::of(
        &example("formatting-only", "old.c"),
        &example("formatting-only", "new.c"),
    );
    diff.assert_nothing_changed();
    assert_eq!(diff.result.functions.len(), 3, "{:#?}", diff.summary());
}

#[test]
fn comment_only_change_is_no_change() {
    let commented = "int g(int);
/* f: the doc comment */
int f(int x) {
    int y = 0; // start at zero
    if (x > 0) { /* positive */
        y = g(x);
    }
    return y;
}
";
    Diff::of(BASE, commented).assert_nothing_changed();
}

#[test]
fn identical_programs_map_every_node() {
    for name in [
        "formatting-only",
        "moved-function",
        "renamed-function",
        "dcia-fig1",
        "sea-fig1",
    ] {
        let text = example(name, "old.c");
        let diff = Diff::of(&text, &text);
        diff.assert_nothing_changed();
        for m in &diff.result.functions {
            let count = diff.old.functions[m.old.unwrap()].nodes.len();
            let identity: Vec<_> = (0..count).map(|i| (i.into(), i.into())).collect();
            assert_eq!(m.node_map, identity, "{name}");
        }
    }
}

#[test]
fn moved_function_is_unchanged() {
    let diff = Diff::of(
        &example("moved-function", "old.c"),
        &example("moved-function", "new.c"),
    );
    let summary = diff.summary();
    assert_eq!(
        diff.function("a.c:count_vowels").status,
        FunctionStatus::Unchanged,
        "{summary:#?}"
    );
    assert_eq!(
        diff.function("main").status,
        FunctionStatus::Unchanged,
        "{summary:#?}"
    );
    let changed = diff.function("a.c:max_word_length");
    assert_eq!(changed.status, FunctionStatus::Modified);
    let old_lines: Vec<u32> = changed.old_lines.iter().map(|l| l.1).collect();
    let new_lines: Vec<u32> = changed.new_lines.iter().map(|l| l.1).collect();
    assert_eq!(old_lines, lines(&[24]), "{summary:#?}");
    assert_eq!(new_lines, lines(&[33]), "{summary:#?}");
    assert_eq!(diff.result.changed().count(), 1, "{summary:#?}");
}

#[test]
fn renamed_function_is_detected() {
    let diff = Diff::of(
        &example("renamed-function", "old.c"),
        &example("renamed-function", "new.c"),
    );
    let summary = diff.summary();
    let renamed = diff.function("a.c:sum_squares");
    assert_eq!(renamed.status, FunctionStatus::Renamed, "{summary:#?}");
    assert!(!renamed.body_changed, "{renamed:#?}");
    assert_eq!(
        diff.new.functions[renamed.new.unwrap()].name,
        "sum_of_squares"
    );
    // The callers changed text: they call another name.
    assert_eq!(
        diff.function("a.c:report").status,
        FunctionStatus::Modified,
        "{summary:#?}"
    );
    assert_eq!(
        diff.function("main").status,
        FunctionStatus::Modified,
        "{summary:#?}"
    );
    assert_eq!(
        diff.function("a.c:sum_cubes").status,
        FunctionStatus::Unchanged,
        "{summary:#?}"
    );
}

#[test]
fn changed_condition_marks_the_condition_line_only() {
    let diff = Diff::of(BASE, &BASE.replace("x > 0", "x >= 0"));
    let m = diff.function("f");
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.old_lines, vec![("a.c".to_owned(), 4)], "{m:#?}");
    assert_eq!(m.new_lines, vec![("a.c".to_owned(), 4)], "{m:#?}");
    // The body of the `if` is mapped.
    let f = &diff.old.functions[m.old.unwrap()];
    let call = f
        .nodes
        .iter_enumerated()
        .find(|(_, n)| n.direct_callee().is_some())
        .unwrap()
        .0;
    assert!(m.node_map.iter().any(|&(o, _)| o == call), "{m:#?}");
}

#[test]
fn a_renamed_local_is_no_change_and_a_reused_name_is() {
    // `y` renamed `r` everywhere: the same statements up to the renaming.
    Diff::of(BASE, &BASE.replace('y', "r")).assert_nothing_changed();
    // `y` renamed `x`, a name the old version already declares (the parameter): the
    // statements that name it read another variable, and are changed.
    let diff = Diff::of(
        BASE,
        &BASE
            .replace("y = g(x)", "x = g(x)")
            .replace("return y", "return x"),
    );
    let m = diff.function("f");
    assert_eq!(m.status, FunctionStatus::Modified);
    let new_lines: Vec<u32> = m.new_lines.iter().map(|l| l.1).collect();
    assert_eq!(new_lines, vec![5, 7], "{m:#?}");
    // Two locals renamed into each other's roles in one statement only: the pairing
    // (in declaration order) binds `a` to `c` and `b` to `d`, so `return b - a` against
    // `return c - d` differs, as it does in value.
    let two = "int f(int x) {\n    int a = x;\n    int b = 2 * x;\n    return b - a;\n}\n";
    let swapped = "int f(int x) {\n    int c = x;\n    int d = 2 * x;\n    return c - d;\n}\n";
    let diff = Diff::of(two, swapped);
    let m = diff.function("f");
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(m.new_lines, vec![("a.c".to_owned(), 4)], "{m:#?}");
    // The same renaming applied consistently is no change.
    let renamed = "int f(int x) {\n    int c = x;\n    int d = 2 * x;\n    return d - c;\n}\n";
    Diff::of(two, renamed).assert_nothing_changed();
}

#[test]
fn inserted_and_deleted_statements_mark_one_side() {
    let inserted = BASE.replace("    return y;", "    y = y + 1;\n    return y;");
    let diff = Diff::of(BASE, &inserted);
    let m = diff.function("f");
    assert_eq!(m.status, FunctionStatus::Modified);
    assert!(m.old_lines.is_empty(), "{m:#?}");
    assert_eq!(m.new_lines, vec![("a.c".to_owned(), 7)], "{m:#?}");
    assert!(!m.changed_new.is_empty());

    let diff = Diff::of(&inserted, BASE);
    let m = diff.function("f");
    assert_eq!(m.old_lines, vec![("a.c".to_owned(), 7)], "{m:#?}");
    assert!(m.new_lines.is_empty(), "{m:#?}");
}

#[test]
fn statics_with_the_same_name_in_two_files_are_distinct() {
    let one = "static int helper(int x) { return x + 1; }\nint one(int x) { return helper(x); }\n";
    let two = "static int helper(int x) { return x * 2; }\nint two(int x) { return helper(x); }\n";
    let two_changed = two.replace("x * 2", "x * 3");
    let diff = Diff::of_files(
        &[("one.c", one), ("two.c", two)],
        &[("one.c", one), ("two.c", &two_changed)],
    );
    let summary = diff.summary();
    assert_eq!(
        diff.function("one.c:helper").status,
        FunctionStatus::Unchanged,
        "{summary:#?}"
    );
    assert_eq!(
        diff.function("two.c:helper").status,
        FunctionStatus::Modified,
        "{summary:#?}"
    );
    assert_eq!(diff.result.changed().count(), 1, "{summary:#?}");
    // A renamed file: its static still matches by the unique name.
    let diff = Diff::of_files(
        &[("one.c", one), ("two.c", two)],
        &[("one.c", one), ("zwei.c", two)],
    );
    let m = diff.function("two.c:helper");
    assert_eq!(m.status, FunctionStatus::Unchanged, "{:#?}", diff.summary());
    assert_eq!(diff.new.functions[m.new.unwrap()].key, "zwei.c:helper");
}

/// `text` written as `dir/name` and preprocessed by gcc (required: the test fails
/// without it).
fn preprocess(dir: &Path, name: &str, text: &str) -> TranslationUnit {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).expect("the temporary directory is writable");
    let text = ripple_conformance::preprocess(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let dir = dir.to_string_lossy().into_owned();
    TranslationUnit::preprocessed(name.to_owned(), &text, |file| {
        file.strip_prefix(&dir).map_or(file.to_owned(), |rest| {
            rest.trim_start_matches('/').to_owned()
        })
    })
}

#[test]
fn changed_macro_changes_every_user() {
    let source = |limit: u32| {
        format!(
            "#define LIMIT {limit}
int below(int x) {{
    return x < LIMIT;
}}
int clamp(int x) {{
    if (x > LIMIT)
        return LIMIT;
    return x;
}}
int other(int x) {{
    return x + 1;
}}
"
        )
    };
    let dir = std::env::temp_dir().join(format!("ripple-versions-macro-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::create_dir_all(dir.join("new")).unwrap();
    let old = preprocess(&dir.join("old"), "m.c", &source(10));
    let new = preprocess(&dir.join("new"), "m.c", &source(20));
    let config = FrontendConfig {
        build_syntax: true,
        ..FrontendConfig::default()
    };
    let diff = Diff::of_programs(
        lower_units(&[old], &config).program,
        lower_units(&[new], &config).program,
    );
    let summary = diff.summary();
    let below = diff.function("below");
    assert_eq!(below.status, FunctionStatus::Modified, "{summary:#?}");
    assert_eq!(
        below.new_lines.iter().map(|l| l.1).collect::<Vec<_>>(),
        vec![3],
        "{summary:#?}"
    );
    let clamp = diff.function("clamp");
    assert_eq!(clamp.status, FunctionStatus::Modified, "{summary:#?}");
    assert_eq!(
        clamp.new_lines.iter().map(|l| l.1).collect::<Vec<_>>(),
        vec![6, 7],
        "{summary:#?}"
    );
    assert_eq!(
        diff.function("other").status,
        FunctionStatus::Unchanged,
        "{summary:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn example_pairs_give_sound_node_maps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("old.c").exists() && e.path().join("new.c").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let diff = Diff::of(&example(&name, "old.c"), &example(&name, "new.c"));
        for m in &diff.result.functions {
            let (Some(o), Some(n)) = (m.old, m.new) else {
                assert!(m.node_map.is_empty());
                continue;
            };
            let (f, g) = (&diff.old.functions[o], &diff.new.functions[n]);
            let forward: std::collections::HashMap<_, _> = m.node_map.iter().copied().collect();
            let backward: std::collections::HashMap<_, _> =
                m.node_map.iter().map(|&(x, y)| (y, x)).collect();
            assert_eq!(forward.len(), m.node_map.len(), "{name}");
            assert_eq!(backward.len(), m.node_map.len(), "{name}");
            assert_eq!(forward.get(&f.entry), Some(&g.entry), "{name}");
            assert_eq!(forward.get(&f.exit), Some(&g.exit), "{name}");
            assert_eq!(
                m.changed_old.len() + m.node_map.len(),
                f.nodes.len(),
                "{name}"
            );
            assert_eq!(
                m.changed_new.len() + m.node_map.len(),
                g.nodes.len(),
                "{name}"
            );
            for (&x, &y) in &forward {
                for (s, t) in f.nodes[x].succs.iter().zip(&g.nodes[y].succs) {
                    match forward.get(s) {
                        Some(image) => assert_eq!(image, t, "{name}: {}", f.key),
                        None => assert!(!backward.contains_key(t), "{name}: {}", f.key),
                    }
                }
            }
        }
        // Deterministic.
        let again = match_programs(&diff.old, &diff.new, &MatchConfig::default());
        assert_eq!(again.functions, diff.result.functions, "{name}");
    }
}

/// Removing an `if` wrapper changes the wrapper's lines (the `if` line 4 and its closing
/// brace, line 7), not the statements it held, which stay in the same function body in
/// the same order; adding the wrapper back marks the same lines of the other side.
/// (Statements of a single token or two, below GumTree's minimum height, are matched by
/// their context and may still show as changed.)
#[test]
fn a_removed_wrapper_changes_only_its_own_lines() {
    let wrapped = "int f(int x, int y) {\n    int r = x + y;\n    int s = x * 3;\n    if (x > 2) {\n        r = r + s;\n        s = s - r * 2;\n    }\n    r = r * s + 1;\n    return r - s;\n}\n";
    let unwrapped = "int f(int x, int y) {\n    int r = x + y;\n    int s = x * 3;\n    r = r + s;\n    s = s - r * 2;\n    r = r * s + 1;\n    return r - s;\n}\n";
    let diff = Diff::of(wrapped, unwrapped);
    let m = diff.function("f");
    let old: Vec<u32> = m.old_lines.iter().map(|l| l.1).collect();
    let new: Vec<u32> = m.new_lines.iter().map(|l| l.1).collect();
    assert_eq!(old, lines(&[4, 7]), "{m:#?}");
    assert!(new.is_empty(), "{m:#?}");
    let diff = Diff::of(unwrapped, wrapped);
    let m = diff.function("f");
    let old: Vec<u32> = m.old_lines.iter().map(|l| l.1).collect();
    let new: Vec<u32> = m.new_lines.iter().map(|l| l.1).collect();
    assert!(old.is_empty(), "{m:#?}");
    assert_eq!(new, lines(&[4, 7]), "{m:#?}");
}

/// A changed `switch` condition marks the `switch` line and the `case` label whose test
/// compares the condition (line 4: its lowering reads the new condition), not the
/// statements under the labels (lines 5-6, 8), which are unchanged.
#[test]
fn a_changed_switch_condition_marks_the_switch_line() {
    let old = "int f(int x, int y) {\n    int r = 0;\n    switch (x) {\n    case 1:\n        r = 10;\n        break;\n    default:\n        r = 20;\n    }\n    return r;\n}\n";
    let new = old.replace("switch (x)", "switch (y)");
    let diff = Diff::of(old, &new);
    let m = diff.function("f");
    let old_lines: Vec<u32> = m.old_lines.iter().map(|l| l.1).collect();
    let new_lines: Vec<u32> = m.new_lines.iter().map(|l| l.1).collect();
    assert_eq!(old_lines, lines(&[3, 4]), "{m:#?}");
    assert_eq!(new_lines, lines(&[3, 4]), "{m:#?}");
}

/// A table of static functions in a file that has another name in the new version (two
/// single files compared: `base.c` and `v3.c`) is the same table: the statics' keys name
/// their files, but each name is unique in its program.
#[test]
fn table_of_statics_in_a_renamed_file_is_unchanged() {
    let text = "static int one(void) { return 1; }\n\
                static int two(void) { return 2; }\n\
                static int (*const table[])(void) = { one, two };\n\
                int pick(int i) { return table[i & 1](); }\n";
    let changed = text.replace("return 2;", "return 3;");
    let old = lower(&[("base.c", text)]);
    let new = lower(&[("v3.c", &changed)]);
    let globals = ripple_versions::match_globals(&old, &new);
    let table = globals
        .iter()
        .find(|g| g.old.is_some_and(|o| old.globals[o].name == "table"))
        .expect("the table is matched");
    assert_eq!(table.status, ripple_versions::GlobalStatus::Unchanged);
}

#[test]
fn a_loop_rewritten_to_the_same_ir_maps_every_node_and_keeps_its_lines() {
    // `while` written as `for`: the same IR, node for node, so nothing is a source of
    // impact, and the lines are still shown as changed.
    let old = "int f(unsigned x) {\n  int l = 0;\n  x--;\n  while (x >= 256) { l += 8; x >>= 8; }\n  return l + x;\n}\n";
    let new = old.replace(
        "while (x >= 256) { l += 8; x >>= 8; }",
        "for (; x >= 256; x >>= 8) { l += 8; }",
    );
    let diff = Diff::of(old, &new);
    let m = diff.function("f");
    assert!(
        m.changed_old.is_empty() && m.changed_new.is_empty(),
        "{m:#?}"
    );
    assert_eq!(
        m.node_map.len(),
        diff.old.functions[m.old.unwrap()].nodes.len()
    );
    assert_eq!(m.status, FunctionStatus::Modified);
    assert_eq!(
        m.old_lines.iter().map(|l| l.1).collect::<Vec<_>>(),
        lines(&[4])
    );
    // The step written before the body is another order of the same statements: not
    // the same IR, so the loop stays changed.
    let swapped = old.replace(
        "while (x >= 256) { l += 8; x >>= 8; }",
        "while (x >= 256) { x >>= 8; l += 8; }",
    );
    let diff = Diff::of(old, &swapped);
    assert!(!diff.function("f").changed_old.is_empty());
}

/// A member added at the end of a record changes its size, not where its other members
/// are: a function that only holds or passes pointers to it, or reads a member that did
/// not move, runs the same statements. One that copies the record, takes its size or
/// steps a pointer over an array of it does not: those are changes.
#[test]
fn a_member_added_at_the_end_changes_only_what_depends_on_the_size() {
    let old = "struct reader { int pos; char *buf; };
struct ctx { int fd; struct reader *r; };
int pos_of(struct ctx *c) { return c->r->pos; }
struct reader *reader_of(struct ctx *c) { return c->r; }
void set_pos(struct reader *r, int p) { r->pos = p; }
struct reader copy(struct reader *r) { return *r; }
unsigned long size(void) { return sizeof(struct reader); }
struct reader *next(struct reader *r) { return r + 1; }
";
    let new = old.replace(
        "struct reader { int pos; char *buf; };",
        "struct reader { int pos; char *buf; int depth; };",
    );
    let d = Diff::of(old, &new);
    for f in ["pos_of", "reader_of", "set_pos"] {
        assert_eq!(
            d.function(f).status,
            FunctionStatus::Unchanged,
            "{f}: {:#?}",
            d.summary()
        );
    }
    // The copy moves 24 bytes instead of 16, the size is 24, and `r + 1` steps 24.
    for f in ["copy", "size", "next"] {
        assert_eq!(
            d.function(f).status,
            FunctionStatus::Modified,
            "{f}: {:#?}",
            d.summary()
        );
    }
}

#[test]
fn a_tag_given_or_renamed_is_no_change_and_another_layout_is() {
    // A tag is a name only: the records lay out and read the same bytes. A copy, a
    // size and a step over the record are the same code too.
    let body = "int len(const tok_t *t) { return t->end - t->start; }
unsigned long size(void) { return sizeof(tok_t); }
tok_t copy(tok_t *t) { return t[1]; }
";
    let old = format!("typedef struct {{ int start; int end; }} tok_t;\n{body}");
    for tagged in [
        "typedef struct tok { int start; int end; } tok_t;",
        "struct tok { int start; int end; }; typedef struct tok tok_t;",
    ] {
        Diff::of(&old, &format!("{tagged}\n{body}")).assert_nothing_changed();
    }
    let renamed =
        |tag: &str| format!("typedef struct {tag} {{ int start; int end; }} tok_t;\n{body}");
    Diff::of(&renamed("a"), &renamed("b")).assert_nothing_changed();
    // Members swapped: every function reads or moves other bytes.
    let swapped = Diff::of(
        &old,
        &format!("typedef struct tok {{ int end; int start; }} tok_t;\n{body}"),
    );
    assert_eq!(swapped.function("len").status, FunctionStatus::Modified);
}

#[test]
fn merged_conditions_change_only_their_lines() {
    // Two nested `if`s merged into one condition (lz4 9712d319's shape). The blocks used
    // to be matched one level off, so every construct around them read as moved: the
    // signature, the declarations and the loop were "changed" lines.
    let old = "int f(int a, int b) {
    int len = 0;
    while (a) {
        if (a > 5) {
            if (b >= 2) {
                len = 3 + b;
            }
        }
        a--;
    }
    return len;
}
";
    let new = "int f(int a, int b) {
    int len = 0;
    while (a) {
        if (a > 5 && b >= 2) {
            len = 3 + b;
        }
        a--;
    }
    return len;
}
";
    let diff = Diff::of(old, new);
    let f = diff.function("f");
    let lines = |list: &[(String, u32)]| list.iter().map(|l| l.1).collect::<Vec<u32>>();
    // Old: the outer `if`, a wrapper now gone (its lines 4 and 8), and the inner one's
    // condition (5), which is the new `if`'s.
    assert_eq!(lines(&f.old_lines), vec![4, 5, 8], "{:#?}", diff.summary());
    assert_eq!(lines(&f.new_lines), vec![4], "{:#?}", diff.summary());
}
