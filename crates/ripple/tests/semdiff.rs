//! End-to-end tests of `ripple semdiff OLD NEW`: verdicts, the JSON shape of issue 5,
//! replayed witnesses, and the exit codes (0 all equivalent, 1 some difference, 2 error,
//! 3 unknown remains).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `ripple semdiff` with `args` (and no report cache); returns (exit code, stdout,
/// stderr).
fn semdiff(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .current_dir(root())
        .arg("semdiff")
        .arg("--no-cache")
        .args(args)
        .output()
        .expect("ripple runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `old` and `new` as `old.c` and `new.c` in `dir` and runs `ripple semdiff` on
/// them with `extra`.
fn semdiff_sources(dir: &Path, old: &str, new: &str, extra: &[&str]) -> (i32, String, String) {
    let (a, b) = (dir.join("old.c"), dir.join("new.c"));
    std::fs::write(&a, old).unwrap();
    std::fs::write(&b, new).unwrap();
    let mut args = vec![a.to_str().unwrap(), b.to_str().unwrap()];
    args.extend_from_slice(extra);
    semdiff(&args)
}

#[test]
fn figure_2_differs_with_a_confirmed_witness() {
    // 001 Fig. 2: p differs exactly when *x == 4 (old returns, new decrements it). With
    // `--function p` no caller waits on p, so the confirmed witness would settle it:
    // `--full-summary` asks for the difference condition too.
    let (code, stdout, stderr) = semdiff(&[
        "examples/moddiff-fig2/old.c",
        "examples/moddiff-fig2/new.c",
        "--function",
        "p",
        "--full-summary",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "a difference is exit code 1: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json["schema"], 1);
    let p = &json["functions"][0];
    assert_eq!(p["name"], "p");
    assert_eq!(p["verdict"], "different");
    let differs = p["differs_when"].as_str().expect("a condition");
    assert!(differs.contains('4'), "{differs}");
    let witness = &p["witnesses"][0];
    assert_eq!(witness["confirmed"], true, "{witness}");
    assert_eq!(witness["inputs"]["*x"], "4", "{witness}");
    assert_ne!(witness["old"], witness["new"], "{witness}");
    for key in ["equal_when", "non_termination_differs_when", "notes"] {
        assert!(p.get(key).is_some(), "{key} missing");
    }
    // Deterministic accounting; wall-clock time only with --verbose.
    assert!(json["settings"]["work"].as_u64().is_some_and(|w| w > 0));
    assert!(json["settings"]["elapsed_ms"].is_null());
}

#[test]
fn an_equivalent_pair_is_exit_code_0() {
    // x - y and x + (-y) agree on every input (wrapping arithmetic).
    let (code, stdout, stderr) = semdiff(&[
        "tests/semdiff/sub_as_add_neg/old.c",
        "tests/semdiff/sub_as_add_neg/new.c",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let verdicts: Vec<&str> = json["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| f["verdict"].as_str().unwrap_or_default())
        .collect();
    assert!(!verdicts.is_empty());
    assert!(verdicts.iter().all(|v| *v == "equivalent"), "{verdicts:?}");
}

#[test]
fn a_signed_overflow_one_version_has_is_said_of_an_equivalent_pair() {
    // json-c 54f5526: `(uint64_t)(-val)` became `0 - (uint64_t)val`. Where signed
    // arithmetic wraps (the analysis' semantics, gcc -fwrapv) both give 2^63 for
    // val == INT64_MIN, so the pair is equivalent; but `-val` overflows there, which C
    // leaves undefined, and the new version's unsigned negation does not.
    let old = "#include <stdint.h>\nuint64_t magnitude(int64_t val) {\n    if (val < 0)\n        return (uint64_t)(-val);\n    return (uint64_t)val;\n}\n";
    let new = old.replace("(uint64_t)(-val)", "0 - (uint64_t)val");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("magnitude: equivalent"), "{stdout}");
    assert!(
        stdout.contains("the old version overflows a signed integer where the new does not, e.g. on val = -9223372036854775808 (replayed)")
            && stdout.contains("the change removes undefined behaviour"),
        "{stdout}"
    );
    // The other way round, the change adds it.
    let (_, stdout, _) = semdiff_sources(dir.path(), &new, old, &[]);
    assert!(
        stdout.contains("the new version overflows a signed integer where the old does not")
            && stdout.contains("the change adds undefined behaviour"),
        "{stdout}"
    );
    // Overflowing on the same inputs in both versions (`val + 1` as `1 + val`) is no
    // change of what is defined: nothing is said.
    let same_old = "int next(int val) { return val + 1; }\n";
    let same_new = "int next(int val) { return 1 + val; }\n";
    let (code, stdout, _) = semdiff_sources(dir.path(), same_old, same_new, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("overflows"), "{stdout}");
}

#[test]
fn a_changed_initializer_of_a_static_local_changes_its_function() {
    // lz4's LZ4_NbCommonBytes keeps a De Bruijn table as a function-local static: one
    // entry changed (index 30, 1 -> 2) changes what `nb` returns, though every IR node
    // names the same object. gcc: nb(1024) is 1 in the old version, 2 in the new.
    let old = "unsigned nb(unsigned val) {\n    static const int pos[32] = { 0, 0, 3, 0, 3, 1, 3, 0, 3, 2, 2, 1, 3, 2, 0, 1,\n        3, 3, 1, 2, 2, 2, 2, 0, 3, 1, 2, 0, 1, 0, 1, 1 };\n    return pos[((unsigned)((val & -(int)val) * 0x077CB531U)) >> 27];\n}\n";
    let new = old.replace("1, 0, 1, 1 }", "1, 0, 2, 1 }");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("nb: different") && stdout.contains("val = 1024"),
        "{stdout}"
    );
    // A static counter that starts elsewhere: the first call returns 1, then 6.
    let old = "int next(void) {\n    static int counter = 0;\n    return ++counter;\n}\n";
    let new = old.replace("= 0;", "= 5;");
    let (code, stdout, _) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("next: different"), "{stdout}");
    // The change report lists it as a change of code, not of text only.
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["diff", "--no-cache", "--only", "changes"])
        .arg(dir.path().join("old.c"))
        .arg(dir.path().join("new.c"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("modified  next"), "{text}");
    assert!(!text.contains("only in their text"), "{text}");
}

#[test]
fn a_parameter_of_an_anonymous_record_type_is_run_compiled() {
    // c-ares c5c58480 (`&&` made `||` in timeval_is_set): the driver names the
    // parameter's type by its typedef, so the witness runs compiled. gcc: sec = 1,
    // usec = 0 gives 0 in the old version, 1 in the new.
    let old = "typedef struct {\n  long long sec;\n  unsigned int usec;\n} ares_timeval_t;\nint timeval_is_set(const ares_timeval_t *tv)\n{\n  if (tv->sec != 0 && tv->usec != 0)\n    return 1;\n  return 0;\n}\n";
    let new = old.replace("&&", "||");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
    assert!(!stdout.contains("cannot be written in C"), "{stdout}");
}

#[test]
fn the_witness_driver_builds_as_c90() {
    // c-ares builds with -std=gnu90, and the driver is built with the unit's flags: a
    // `for (int i ...)` in it failed there, and no witness ran compiled.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    std::fs::write(
        dir.path().join("compile_commands.json"),
        format!(
            r#"[{{"directory":"{d}","command":"cc -std=gnu90 -c old.c","file":"old.c"}},
                {{"directory":"{d}","command":"cc -std=gnu90 -c new.c","file":"new.c"}}]"#
        ),
    )
    .unwrap();
    let old = "struct buf { unsigned char *data; unsigned long len; };\nint f(struct buf *b, unsigned long n)\n{\n  if (b->len + n < n) return 1;\n  return 0;\n}\n";
    let new = old.replace("return 1;", "return 2;");
    let db = dir.path().join("compile_commands.json");
    let (code, stdout, stderr) = semdiff_sources(
        dir.path(),
        old,
        &new,
        &["--compile-commands", db.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
}

#[test]
fn a_changed_table_too_large_for_the_solver_is_no_equivalence() {
    // md4c 3420ce7 reduced: a static local table of 2,500 entries (10 KB, more than the
    // solver is given byte for byte) changes one entry; both versions' summaries read
    // the same arbitrary contents, so they were "equivalent". gcc: `table_value(1250)`
    // is 3750, then 3751.
    let dir = tempfile::tempdir().unwrap();
    let table: Vec<String> = (0..2500).map(|i| (i * 3).to_string()).collect();
    let old = format!(
        "int table_value(unsigned i)\n{{\n    static const unsigned MAP[] = {{ {} }};\n    \
         if(i >= sizeof(MAP) / sizeof(MAP[0]))\n        return -1;\n    return (int) MAP[i];\n}}\n",
        table.join(", ")
    );
    let new = old.replace(" 3750,", " 3751,");
    assert_ne!(old, new);
    let (code, stdout, stderr) = semdiff_sources(dir.path(), &old, &new, &[]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("table_value: equivalent"), "{stdout}");
}

#[test]
fn a_changed_table_local_to_its_function_is_each_versions_own() {
    // A small static local table whose last entry changes (40 to 41), read through a
    // lookup loop. Both versions' facts were about one address and contradicted each
    // other (md4c 3420ce7's `PUNCT_MAP`: "equivalent"). gcc: `is_special(40)` is 1, then 0.
    let dir = tempfile::tempdir().unwrap();
    let old = "static int\nlookup(unsigned cp, const unsigned* map, int n)\n{\n    int i;\n    \
               for(i = 0; i < n; i++)\n        if(map[i] == cp)\n            return i;\n    \
               return -1;\n}\n\nint is_special(unsigned cp)\n{\n    \
               static const unsigned MAP[] = { 10, 20, 30, 40 };\n    if(cp <= 5)\n        \
               return 0;\n    return lookup(cp, MAP, 4) >= 0;\n}\n";
    let new = old.replace("30, 40 }", "30, 41 }");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("is_special: different"), "{stdout}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
}

#[test]
fn an_entry_added_to_a_searched_table_is_found_by_running_it() {
    // md4c's Unicode lookup reduced: a binary search over 400 entries with range flags in
    // the top bits; the new table lists one more code point, 0x5b5 (gcc over every code
    // point below 0x1000: only `is_listed(0x5b5)` differs, 0 then 1). The search loop needs
    // more unrollings than the budget gives, so only a run on the added entry (its flags
    // cleared) shows the difference.
    let dir = tempfile::tempdir().unwrap();
    let table = |added: bool| {
        let mut items = Vec::new();
        for i in 0..300u32 {
            let cp = 0x100 + 8 * i;
            items.push(if i % 3 == 0 {
                format!("R(0x{cp:x},0x{:x})", cp + 2)
            } else {
                format!("S(0x{cp:x})")
            });
            if added && i == 150 {
                items.push(format!("S(0x{:x})", cp + 5));
            }
        }
        items.join(", ")
    };
    let source = |added: bool| {
        format!(
            "static int\nbsearch_map(unsigned cp, const unsigned* map, int n)\n{{\n    \
             int beg = 0, end = n - 1;\n    while(beg <= end) {{\n        int lo, hi;\n        \
             lo = hi = (beg + end) / 2;\n        if(map[hi] & 0x40000000)\n            hi++;\n        \
             if(map[lo] & 0x80000000)\n            lo--;\n        \
             if(cp < (map[lo] & 0x00ffffff))\n            end = lo - 1;\n        \
             else if(cp > (map[hi] & 0x00ffffff))\n            beg = hi + 1;\n        \
             else\n            return lo;\n    }}\n    return -1;\n}}\n\n\
             int is_listed(unsigned cp)\n{{\n\
             #define R(a, b) ((a) | 0x40000000), ((b) | 0x80000000)\n#define S(a) (a)\n    \
             static const unsigned MAP[] = {{ {} }};\n    \
             return bsearch_map(cp, MAP, (int) (sizeof(MAP) / sizeof(MAP[0]))) >= 0;\n}}\n",
            table(added)
        )
    };
    let (code, stdout, stderr) = semdiff_sources(dir.path(), &source(false), &source(true), &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("is_listed: different"), "{stdout}");
    assert!(
        stdout.contains("witness (output, confirmed on the compiled versions): cp = 1461"),
        "{stdout}"
    );
}

#[test]
fn a_string_a_constant_pointer_holds_is_constant_too() {
    // md4c's admonition tags reduced: `NAME` is never written, so it holds the address of
    // its literal, whose bytes are as fixed: "warning" and "caution" both start with
    // another letter than 'n', so both versions return 0 (gcc). The literal's bytes were
    // free inputs, apart in each version: "different", with no witness.
    let dir = tempfile::tempdir().unwrap();
    let old = "static const char* NAME = \"warning\";\n\
               int starts_with_n(void)\n{\n    return NAME[0] == 'n';\n}\n";
    let new = old.replace("warning", "caution");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("starts_with_n: equivalent"), "{stdout}");
    // A change of the letter read is a difference, with its witness (gcc: 1, then 0).
    let old = old
        .replace("warning", "note")
        .replace("[0]", "[2]")
        .replace("'n'", "'t'");
    let new = old.replace("note", "nope");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), &old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("starts_with_n: different"), "{stdout}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
}

#[test]
fn reaching_builtin_unreachable_is_undefined_behaviour() {
    // md4c's release `MD_ASSERT` reduced: on a negative `c` the old version reaches
    // `__builtin_unreachable()`, which C leaves undefined (gcc -O2 drops the test), where
    // the new one returns 0. It was a no-op: "old: returned -1", a difference even under
    // `--assume no-ub`, which excludes what holds only through undefined behaviour.
    let dir = tempfile::tempdir().unwrap();
    let old = "int clamp(int c)\n{\n    if(c < 0)\n        __builtin_unreachable();\n    \
               return c;\n}\n";
    let new = old.replace("__builtin_unreachable();", "return 0;");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("__builtin_unreachable reached"), "{stdout}");
    assert!(!stdout.contains("old: returned -"), "{stdout}");
    let (_, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--assume", "no-ub"]);
    assert!(!stdout.contains("clamp: different"), "{stdout}{stderr}");
    assert!(
        stdout.contains("a reached `__builtin_unreachable` traps), but no witness free"),
        "{stdout}"
    );
}

#[test]
fn a_witness_keeps_the_globals_at_their_initial_values_when_it_can() {
    // The versions differ where `x ^ 0x5a5a5a` equals `limit`: with `limit` at its initial
    // 10, `x = 10 ^ 0x5a5a5a = 5921360` (gcc: 0, then 1). Any `limit` would do for the
    // solver, which picked one no run of the program starts from (110834266). A global
    // at its initial value is no input of the witness: it is not shown.
    let dir = tempfile::tempdir().unwrap();
    let old = "static int limit = 10;\nvoid set_limit(int l) { limit = l; }\n\
               int over(int x)\n{\n    return (x ^ 0x5a5a5a) > limit;\n}\n";
    let new = old.replace("> limit", ">= limit");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("confirmed on the compiled versions): x = 5921360\n"),
        "{stdout}"
    );
}

#[test]
fn a_witness_shows_the_bit_fields_it_sets() {
    // md4c's block flags reduced: the versions differ only when `type` is 9 and `flags`
    // is 3, both bit-fields; the witness printed `*b = {.n_lines = 0}`, which read as an
    // initialiser leaves them 0, where both versions return 0 (gcc).
    let dir = tempfile::tempdir().unwrap();
    let old = "struct blk {\n    unsigned type  : 8;\n    unsigned flags : 8;\n    \
               unsigned data  : 16;\n    unsigned n_lines;\n};\n\
               int classify(struct blk* b, int x)\n{\n    \
               if(b->type == 9  &&  b->flags == 3)\n        return x + 1;\n    return x;\n}\n";
    let new = old.replace("return x + 1;", "return x + 2;");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("*b = {.type = 9, .flags = 3, .data = 0, .n_lines = 0}"),
        "{stdout}"
    );
}

#[test]
fn a_witness_the_driver_cannot_give_is_not_confirmed_by_the_compiled_runs() {
    // parson's `parson_malloc` reduced: the witness sets the function pointer `my_malloc`
    // to null, which the driver cannot set (it sets numbers only), so the compiled runs
    // called `malloc` and exited 0. With the witness applied for real, both versions
    // crash alike after their `printf` (gcc: SIGSEGV): those runs were of another input
    // and confirm nothing.
    let dir = tempfile::tempdir().unwrap();
    let old = "#include <stdio.h>\n#include <stdlib.h>\n\
               static void *(*my_malloc)(size_t) = malloc;\nstatic int quiet = 1;\n\
               void set_alloc(void *(*m)(size_t)) { my_malloc = m; }\n\
               void set_quiet(int q) { quiet = q; }\n\
               int f(void) {\n    char *p;\n    if (!quiet) {\n        \
               printf(\"at line %d\\n\", __LINE__);\n    }\n    \
               p = my_malloc(4);\n    free(p);\n    return 0;\n}\n";
    let new = old.replace("    char *p;\n", "    char *p;\n\n");
    let (_, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--all"]);
    for line in stdout.lines().filter(|l| l.contains("witness (")) {
        assert!(
            !(line.contains("my_malloc = 0x0") && line.contains("confirmed on the compiled")),
            "{stdout}{stderr}"
        );
    }
}

#[test]
fn a_global_of_another_file_does_not_keep_the_driver_from_building() {
    // jansson's `dtoa_divmax` (src/dtoa.c): the driver, compiled with the function's
    // file, set and printed a global that file does not declare: "'g_div' undeclared",
    // and no witness of the program ever ran compiled. gcc: f(0) is 1, then 2.
    let dir = tempfile::tempdir().unwrap();
    for (version, body) in [("old", "x + 1"), ("new", "x + 2")] {
        let root = dir.path().join(version);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("a.c"),
            format!("int f(int x) {{ return {body}; }}\n"),
        )
        .unwrap();
        std::fs::write(
            root.join("b.c"),
            "int g_div = 2;\nint use(int k) { return k <= g_div; }\n",
        )
        .unwrap();
    }
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["semdiff", "--no-cache", "--color", "never"])
        .arg(dir.path().join("old"))
        .arg(dir.path().join("new"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("confirmed on the compiled versions") && !stdout.contains("undeclared"),
        "{stdout}"
    );
}

#[test]
fn the_same_code_calling_itself_is_equivalent() {
    // libexif 690d4bf put a macro's parameters in parentheses; every use passes plain
    // names, so both functions lower to the same code. The recursive one waited on its
    // own verdict and was "unknown, termination may differ", with a witness on which
    // both versions trap alike.
    let old = "#define OVER(o, d, s) (( o >= d) || (s > d) || (o > d - s ))\n\
static int check(unsigned ds, unsigned o, unsigned s) { return OVER(o, ds, s) ? -1 : 0; }\n\
int walk(const unsigned char *d, unsigned ds, unsigned offset) {\n\
  if (OVER(offset, ds, 2)) return -1;\n\
  if (d[offset] > 3) return walk(d, ds, offset + 2) + check(ds, offset, d[offset]);\n\
  return d[offset];\n\
}\n";
    let new = old.replace(
        "(( o >= d) || (s > d) || (o > d - s ))",
        "(((o) >= (d)) || ((s) > (d)) || ((o) > (d) - (s)))",
    );
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("walk: equivalent") && stdout.contains("check: equivalent"),
        "{stdout}"
    );
}

#[test]
fn a_condition_is_shown_as_one_value_only_when_it_is_that_value() {
    // The versions differ only when c == 48 and n > 57 (gcc: f(48, 0) is 1 in both, f(48,
    // 58) 2 then 1). "differs when: c == 48" was printed, marked a full summary: the
    // value c takes in every difference, not a condition enough for one.
    let old = "int f(int c, int n)\n{\n  if (c == 48) {\n    c = n;\n    if (c <= 57) return 1;\n    return 2;\n  }\n  return 3;\n}\n";
    let new = old.replace("return 2;", "return 1;");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--full-summary"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("differs when:          c == 48 && n > 57"),
        "{stdout}"
    );
}

#[test]
fn a_table_holding_addresses_is_known_to_the_solver() {
    // libexif's exif_format_get_size: the loop stops on another member of the end row
    // `{0, NULL, 0}`; every other row has a nonzero format, name and size, so both
    // versions stop at the same row (gcc: no difference over 200,001 formats). A table
    // holding addresses (the names) was given to the solver as arbitrary bytes, and the
    // pair was "different" with no witness.
    let old = "static const struct { int format; const char *name; unsigned char size; } Table[] = {\n  {3, \"Short\", 2}, {4, \"Long\", 4}, {0, 0, 0}\n};\nunsigned char get_size(int format)\n{\n  unsigned int i;\n  for (i = 0; Table[i].size; i++)\n    if (Table[i].format == format)\n      return Table[i].size;\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    for member in ["format", "name"] {
        let new = old.replace("Table[i].size; i++", &format!("Table[i].{member}; i++"));
        let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
        assert_eq!(code, 0, "{member}: {stdout}{stderr}");
        assert!(stdout.contains("get_size: equivalent"), "{stdout}");
    }
}

#[test]
fn a_difference_only_a_constant_s_unknown_contents_show_is_unknown() {
    // Every entry of the 12 KB table is 1 (past the 8 KiB of constants the solver is
    // given), so `T[k] != 0` is 1 for every k < 3000: the versions agree on every
    // input. With arbitrary contents the solver finds `T[k] == 0`; it was "different"
    // with no witness (the input it proposed ran the same in both versions).
    let table = vec!["1"; 3000].join(",");
    let old = format!(
        "static const int T[3000] = {{{table}}};\nint f(unsigned k)\n{{\n  if (k >= 3000) return 0;\n  return T[k] != 0;\n}}\n"
    );
    let new = old.replace("return T[k] != 0;", "return 1;");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), &old, &new, &[]);
    assert_ne!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("f: unknown") && stdout.contains("the contents of `T`, a constant"),
        "{stdout}"
    );
}

#[test]
fn a_pointer_result_past_its_object_is_a_confirmed_witness() {
    // lz4 7f54a564: `p - i + j` became `p - (i - j)`; with unsigned `i < j` the new one
    // wraps 4 GiB below `p`. gcc on i = 0, j = 1: the old version returns p + 1, the new
    // p - 4294967295. The compiled drivers printed either pointer as "ptr", so the
    // witness was dropped ("compiled versions agree") and the pair had none.
    let old = "typedef unsigned char BYTE; typedef unsigned int U32;\nconst BYTE *pos(const BYTE *p, U32 i, U32 j) { return p - i + j; }\n";
    let new = old.replace("p - i + j", "p - (i - j)");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("pos: different") && stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
    // Shown as the argument and an offset, not as the interpreter's addresses.
    assert!(stdout.contains("returned p - 4294967"), "{stdout}");
}

#[test]
fn a_pointer_member_into_an_argument_compares_by_its_offset() {
    // A cursor left one byte further into the buffer: gcc gives c->cur == buf + 1 in
    // the old version and buf + 2 in the new. Both members were addresses, renamed
    // alike, so "the inputs ran the same in both versions: no witness".
    let old = "struct cursor { const char *cur; int n; };\nvoid skip(struct cursor *c, const char *buf) { c->cur = buf + 1; c->n = 3; }\n";
    let new = old.replace("buf + 1", "buf + 2");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("confirmed on the compiled versions")
            && stdout.contains(".cur = buf + 1")
            && stdout.contains(".cur = buf + 2"),
        "{stdout}"
    );
}

#[test]
fn bytes_read_as_a_relaid_record_are_no_equivalence_by_member_names() {
    // lz4 reads unaligned data through packed structs cast from byte pointers. Without
    // `packed`, `size` moves from offset 1 to 4: gcc on the bytes 0, 1, 2, ... gives
    // 0x04030201 in the old version and 0x07060504 in the new. Matching the members by
    // name says nothing of a buffer of bytes: it was "equivalent".
    let old = "typedef unsigned char BYTE;\nstruct hdr { BYTE flags; unsigned size; } __attribute__((packed));\nunsigned readSize(const BYTE *buf) { return ((const struct hdr *)buf)->size; }\n";
    let new = old.replace(" __attribute__((packed))", "");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("readSize: equivalent"), "{stdout}");
    // A caller that only passes the bytes on is no equivalence either.
    let old = "typedef unsigned char BYTE;\nstruct hdr { BYTE flags; unsigned size; } __attribute__((packed));\nstatic unsigned size_of(const struct hdr *h) { return h->size; }\nunsigned readSize(const BYTE *buf) { return size_of((const struct hdr *)buf); }\n";
    let new = old.replace(" __attribute__((packed))", "");
    let (code, stdout, _) = semdiff_sources(dir.path(), old, &new, &["--all"]);
    assert_ne!(code, 0, "{stdout}");
    assert!(!stdout.contains("readSize: equivalent"), "{stdout}");
}

#[test]
fn a_buffer_input_is_shown_past_its_first_nul() {
    // An overlapping copy (memmove) against a forward byte loop differs only on a buffer
    // holding nonzero bytes after a leading 0. The input was printed as `buf = ""`, on
    // which the versions agree (gcc), so the witness could not be replayed.
    let old = "typedef unsigned char BYTE;\nvoid cp(BYTE *buf, int off) {\n    if (off < 1 || off > 4) return;\n    __builtin_memmove(buf + off, buf, 4);\n}\n";
    let new = "typedef unsigned char BYTE;\nvoid cp(BYTE *buf, int off) {\n    if (off < 1 || off > 4) return;\n    for (int i = 0; i < 4; i++) buf[off + i] = buf[i];\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let witness = stdout
        .lines()
        .find(|l| l.contains("witness"))
        .unwrap_or_else(|| panic!("{stdout}"));
    // Some byte after the leading NUL is shown, and the size of the buffer.
    assert!(
        witness.contains("buf = \"\\0\\x") && witness.contains("bytes, the rest zero"),
        "{witness}"
    );
}

#[test]
fn what_a_function_writes_to_stderr_is_output() {
    // Only stdout was compared: the versions below were "unknown: ran the same in both
    // versions". gcc: for x = 4 the old version writes "big 4", the new "huge 4".
    let old = "#include <stdio.h>\nint g(int x) {\n    if (x > 3) fprintf(stderr, \"big %d\\n\", x);\n    return x + 1;\n}\n";
    let new = old.replace("big", "huge");
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("g: different") && stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
    assert!(stdout.contains("stderr = \"huge"), "{stdout}");
}

#[test]
fn the_changed_functions_come_before_the_callers_that_wait_on_them() {
    // `hard` is rewritten equivalently (`s * 31` as `(s << 5) - s`) and twelve unchanged
    // callers loop over it; `easy` (`x * 2` as `x + x`) comes last in the call graph's
    // order. The callers' summaries took the budget and `easy` was "unknown: budget
    // exhausted" (lz4 642f6b8f's `LZ4F_readLE32`); the changed functions go first now.
    let callers: String = (1..=12)
        .map(|i| {
            format!(
                "int c{i}(unsigned x, unsigned y) {{ unsigned t = 0; for (unsigned k = 0; k < y; k++) {{ if ((t ^ k) % {} == 1) t += (unsigned)hard(x + k) * {i}; else t -= (unsigned)hard(t); }} return (int)t; }}\n",
                i + 2
            )
        })
        .collect();
    let old = format!(
        "int hard(unsigned x) {{ unsigned s = 0; for (unsigned i = 0; i < x; i++) {{ if ((s ^ i) & 1) s = s * 31 + i; else s = s / 3 + (i << 2); }} return (int)s; }}\n{callers}int easy(int x) {{ return x * 2; }}\n"
    );
    let new = old
        .replace("s * 31", "(s << 5) - s")
        .replace("return x * 2;", "return x + x;");
    let dir = tempfile::tempdir().unwrap();
    let (_, stdout, stderr) = semdiff_sources(
        dir.path(),
        &old,
        &new,
        &["--budget", "1", "--cutoff", "300"],
    );
    assert!(stdout.contains("easy: equivalent"), "{stdout}{stderr}");
    assert!(stdout.contains("hard: equivalent"), "{stdout}{stderr}");
}

#[test]
fn a_reordered_anonymous_record_gets_no_verdict_from_bytes() {
    // lz4 3da483c0 reordered the members of an anonymous typedef'd struct: the same
    // bytes are other members in each version, so a run on them confirms nothing
    // (as for a tagged record). `getb` reads `b` in both: it was "different, confirmed".
    let old = "typedef struct { char a; int b; } S;\nint getb(const S *s) { return s->b; }\n";
    let new = "typedef struct { int b; char a; } S;\nint getb(const S *s) { return s->b; }\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, stdout, stderr) = semdiff_sources(dir.path(), old, new, &[]);
    assert!(!stdout.contains("getb: different"), "{stdout}{stderr}");
    assert!(stdout.contains("S laid out differently"), "{stdout}");
    assert!(
        !stdout.contains("settled by a confirmed witness"),
        "{stdout}"
    );
}

#[test]
fn an_unbounded_loop_within_a_short_budget_is_unknown() {
    // Euclid's algorithm recursive against iterative: equal, but the number of steps is
    // unbounded, so no proof fits the bounds: unknown, exit code 3.
    let (code, stdout, _) = semdiff(&[
        "tests/semdiff/gcd_recursive_iterative/old.c",
        "tests/semdiff/gcd_recursive_iterative/new.c",
        "--function",
        "gcd",
        "--budget",
        "1",
    ]);
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("unknown"), "{stdout}");
}

#[test]
fn the_conditions_of_an_undecided_pair_say_may() {
    // Undecided within a short budget, the conditions printed are where the versions
    // may differ: "termination differs" read as a claim where termination cannot
    // differ (c-ares' evaluation).
    let old = "int f(int x){ int s=0; for(int i=0;i<x;i++) s+=i*i%7; return s; }\n";
    let new =
        "int f(int x){ int s=0; for(int i=0;i<x;i++) s+=(i*i)%7+0; return s+(x>100000?1:0); }\n";
    let dir = tempfile::tempdir().unwrap();
    let (_, stdout, _) = semdiff_sources(dir.path(), old, new, &["--budget", "1"]);
    assert!(stdout.contains("f: unknown"), "{stdout}");
    // What is left open is said as possible ("may differ", or the note on possible
    // differences), never as a claim; the loop is the same in both versions, and
    // whether either ends is not said to differ at all.
    assert!(
        (stdout.contains("may differ") || stdout.contains("possible differences"))
            && !stdout.contains("  termination differs:"),
        "{stdout}"
    );
    assert!(!stdout.contains("  differs when:"), "{stdout}");
}

/// A function whose text changed (braces around a statement, an `#if` branch left out)
/// but which lowers to the same code is equivalent at once, with a note saying why, and
/// its caller with it; even where a proof by analysis (an unbounded loop) is out of reach.
#[test]
fn a_function_whose_text_changed_but_not_its_code_is_equivalent() {
    let dir = tempfile::tempdir().unwrap();
    let old = "unsigned gcd(unsigned a, unsigned b) {\n    while (b != 0) {\n        unsigned t = a % b;\n        a = b;\n        b = t;\n    }\n    return a;\n}\nunsigned lcm(unsigned a, unsigned b) { return a / gcd(a, b) * b; }\n";
    let new = "unsigned gcd(unsigned a, unsigned b) {\n    while (b != 0) {\n        unsigned t;\n        {\n            t = a % b;\n        }\n#if 0\n        t = 1;\n#endif\n        a = b;\n        b = t;\n    }\n    return a;\n}\nunsigned lcm(unsigned a, unsigned b) { return a / gcd(a, b) * b; }\n";
    let (code, stdout, stderr) =
        semdiff_sources(dir.path(), old, new, &["--budget", "1", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let gcd = functions.iter().find(|f| f["name"] == "gcd").expect("gcd");
    assert_eq!(gcd["verdict"], "equivalent", "{gcd}");
    assert!(
        gcd["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.starts_with("the same code"))),
        "{gcd}"
    );
}

/// An input the solver proposes on which the compiled versions agree is no witness: the
/// text says how many there were instead of printing them, the JSON keeps them. (The
/// empty assembly statement is an unknown of each version's own, so the solver finds a
/// "difference" through it that no run shows.)
#[test]
fn inputs_on_which_the_versions_agree_are_not_shown_as_witnesses() {
    let pair = [
        "tests/semdiff/inline_asm_commuted/old.c",
        "tests/semdiff/inline_asm_commuted/new.c",
    ];
    let (_, text, _) = semdiff(&pair);
    assert!(
        text.contains("1 input(s) the solver proposed ran the same in both versions"),
        "{text}"
    );
    assert!(!text.contains("\n  witness ("), "{text}");
    let (_, json, _) = semdiff(&[pair[0], pair[1], "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let witness = &json["functions"][0]["witnesses"][0];
    assert_eq!(witness["confirmed"], false, "{witness}");
    assert_eq!(
        witness["unconfirmed_reason"], "compiled versions agree",
        "{witness}"
    );
}

/// Two versions return the same string literal for every `e` but 9, at other addresses
/// (the new version has one more global before it): a replay in the interpreter that
/// differs only in the address returned confirms nothing. Before, `e = 0` was a
/// witness "confirmed by the interpreter".
#[test]
fn a_pointer_result_that_differs_only_in_address_confirms_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stdout, stderr) = semdiff_sources(
        dir.path(),
        "const char *msg(int e) {\n    return e == 9 ? \"nine\" : \"other\";\n}\n",
        "int extra[4];\nconst char *msg(int e) {\n    return e == 9 ? \"NINE\" : \"other\";\n}\n",
        &["--confirm", "interpreter", "--format", "json"],
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let f = &json["functions"][0];
    for w in f["witnesses"].as_array().into_iter().flatten() {
        if w["confirmed"] == true {
            assert_eq!(w["inputs"]["e"], "9", "{w}");
        }
    }
}

/// The reverse case: one literal replaced by another of the same length, which the
/// interpreter places at the same address in both versions. The returned pointers are
/// equal, the strings a caller reads through them are not: e = 9 is a confirmed
/// difference, and no other input is one (both return the same "other").
#[test]
fn a_pointer_result_to_another_string_at_the_same_address_is_a_difference() {
    let dir = tempfile::tempdir().unwrap();
    let (_, stdout, stderr) = semdiff_sources(
        dir.path(),
        "const char *msg(int e) {\n    return e == 9 ? \"nine\" : \"other\";\n}\n",
        "const char *msg(int e) {\n    return e == 9 ? \"nile\" : \"other\";\n}\n",
        &["--confirm", "interpreter", "--format", "json"],
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "different", "{f}");
    let witnesses = f["witnesses"].as_array().expect("witnesses");
    assert!(
        witnesses
            .iter()
            .any(|w| w["confirmed"] == true && w["inputs"]["e"] == "9"),
        "{f}"
    );
    for w in witnesses.iter().filter(|w| w["confirmed"] == true) {
        assert_eq!(w["inputs"]["e"], "9", "{w}");
    }
}

/// A global that holds addresses (a table of pointers, as the standard streams are)
/// has other values in the two versions only because their memory is laid out
/// otherwise (here an array added before it): it is no input of the witness, which
/// names `x` alone. A changed number is one (`limit`, 3 then 4).
#[test]
fn a_witness_names_no_global_whose_only_difference_is_an_address() {
    let dir = tempfile::tempdir().unwrap();
    let common = "int a, b;\nint *table[2] = {&a, &b};\n";
    let (_, stdout, stderr) = semdiff_sources(
        dir.path(),
        &format!("{common}int limit = 3;\nint f(int x) {{\n    return x + limit + *table[0];\n}}\n"),
        &format!("int pad[64];\n{common}int limit = 4;\nint f(int x) {{\n    return x + limit + *table[0];\n}}\n"),
        &["--confirm", "interpreter", "--format", "json"],
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let f = &json["functions"][0];
    let witnesses = f["witnesses"].as_array().expect("witnesses");
    assert!(witnesses.iter().any(|w| w["confirmed"] == true), "{f}");
    for w in witnesses {
        let inputs = w["inputs"].as_object().expect("inputs");
        assert!(!inputs.contains_key("table"), "{w}");
    }
}

/// A header's `static inline` function is one function per unit including it: the
/// report names each copy with its unit, and `--function unit.c:name` picks one. The
/// change (`x + 1` to `x + 2`) makes both copies differ.
#[test]
fn static_copies_of_one_function_are_named_by_their_unit() {
    let dir = tempfile::tempdir().unwrap();
    for (version, step) in [("old", 1), ("new", 2)] {
        let d = dir.path().join(version);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(
            d.join("h.h"),
            format!("static inline int twice(int x) {{ return x + {step}; }}\n"),
        )
        .unwrap();
        std::fs::write(
            d.join("a.c"),
            "#include \"h.h\"\nint a(int x) { return twice(x); }\n",
        )
        .unwrap();
        std::fs::write(
            d.join("b.c"),
            "#include \"h.h\"\nint b(int x) { return twice(x) * 3; }\nint main(void) { return b(1); }\n",
        )
        .unwrap();
    }
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let names = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--confirm",
            "interpreter",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let (_, stdout, stderr) = semdiff(&args);
        let json: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_string())
            .filter(|n| n.starts_with("twice"))
            .collect()
    };
    let all = names(&[]);
    assert!(all.contains(&"twice (a.c)".to_string()), "{all:?}");
    assert!(all.contains(&"twice (b.c)".to_string()), "{all:?}");
    assert_eq!(names(&["--function", "b.c:twice"]), vec!["twice"]);
}

/// A return type changed from `int` to `bool` (libyaml 78e6ebf, "Remove stdbool", the
/// other way): the same numbers are returned (1 or 0), so the versions are equivalent,
/// and so is a caller adding to the result; it was "different, differs when true"
/// because results of two widths were never equal. Returning 2 as `bool` is 1, as `int`
/// 2: different, at x = 1.
#[test]
fn a_return_type_of_another_width_compares_the_numbers_returned() {
    let dir = tempfile::tempdir().unwrap();
    let body = "int g(int x) { return pos(x) + 1; }\n";
    let (code, stdout, stderr) = semdiff_sources(
        dir.path(),
        &format!("int pos(int x) {{ if (x > 0) return 1; return 0; }}\n{body}"),
        &format!("#include <stdbool.h>\nbool pos(int x) {{ if (x > 0) return true; return false; }}\n{body}"),
        &["--confirm", "interpreter"],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("pos: equivalent"), "{stdout}");
    assert!(stdout.contains("g: equivalent"), "{stdout}");
    let (code, stdout, stderr) = semdiff_sources(
        dir.path(),
        &format!("int pos(int x) {{ if (x > 0) return 2; return 0; }}\n{body}"),
        &format!("#include <stdbool.h>\nbool pos(int x) {{ if (x > 0) return 2; return false; }}\n{body}"),
        &["--confirm", "interpreter", "--format", "json"],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let pos = json["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "pos")
        .expect("pos");
    assert_eq!(pos["verdict"], "different", "{pos}");
    assert!(
        pos["witnesses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["confirmed"] == true && w["inputs"]["x"] == "1"),
        "{pos}"
    );
}

/// A report is stored and read back: the second run prints the same bytes with the
/// same exit code (1: a difference) without analysing, says so with `--verbose`, and
/// `--no-cache` analyses again to the same report.
#[test]
fn a_report_is_read_back_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&old, "int f(int x) {\n    return x > 3 ? 1 : 0;\n}\n").unwrap();
    std::fs::write(&new, "int f(int x) {\n    return x > 4 ? 1 : 0;\n}\n").unwrap();
    let db = dir.path().join("cache.redb");
    let run = |extra: &[&str]| {
        let out = Command::cargo_bin("ripple")
            .expect("the ripple binary builds")
            .current_dir(dir.path())
            .arg("semdiff")
            .arg(&old)
            .arg(&new)
            .args(["--no-config", "--verbose", "--format", "json"])
            .args(extra)
            .output()
            .expect("ripple runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let cache = ["--cache", db.to_str().unwrap()];
    let (code, first, said) = run(&cache);
    assert_eq!(code, Some(1), "{first}{said}");
    assert!(!said.contains("report from the cache"), "{said}");
    let (code_again, again, said_again) = run(&cache);
    assert_eq!(code_again, code);
    assert!(said_again.contains("report from the cache"), "{said_again}");
    // The time the analysis took is not stored (`--verbose` shows it when analysing).
    let without_time = |json: &str| {
        let mut v: serde_json::Value = serde_json::from_str(json).expect("JSON");
        v["settings"]
            .as_object_mut()
            .map(|s| s.remove("elapsed_ms"));
        v
    };
    assert_eq!(without_time(&again), without_time(&first));
    let (code_fresh, fresh, said_fresh) = run(&["--no-cache"]);
    assert_eq!(code_fresh, code);
    assert!(
        !said_fresh.contains("report from the cache"),
        "{said_fresh}"
    );
    assert_eq!(without_time(&fresh), without_time(&first));
}

#[test]
fn a_pair_proved_before_is_taken_from_the_summary_cache_while_what_it_depends_on_is_the_same() {
    // f's new version adds 0 to what it returns: equivalent. It calls k and reads table,
    // so the proof holds only while both are as they were: a later pair that also
    // changes h (which f does not call) takes it from the cache; pairs where k or table
    // changed must prove f again, and here find it different (k returns one more,
    // four times: f returns 4 more; table[1] is 3: f differs on odd x).
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cache.redb");
    let old = "int table[2] = {1, 2};\n\
               int k(int x) { return x + 1; }\n\
               int f(int x) { int s = 0; for (int i = 0; i < 4; i++) s += k(x); return s + table[x & 1]; }\n\
               int h(int y) { return y - 1; }\n\
               int main(int argc, char **argv) { return f(argc) + h(argc); }\n";
    let new = old.replace("return s + table[x & 1];", "return s + table[x & 1] + 0;");
    let verdict_of = |new: &str, name: &str, reuse: &[&str]| {
        let (a, b) = (dir.path().join("old.c"), dir.path().join(name));
        std::fs::write(&a, old).unwrap();
        std::fs::write(&b, new).unwrap();
        let out = Command::cargo_bin("ripple")
            .unwrap()
            .current_dir(dir.path())
            .args(["semdiff", "--no-config", "--format", "json"])
            .args(reuse)
            .arg("--cache")
            .arg(&db)
            .arg(&a)
            .arg(&b)
            .output()
            .expect("ripple runs");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let f = json["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "f")
            .unwrap_or_else(|| panic!("f is reported: {json:#}"))
            .clone();
        let cached = f["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("summary cache"));
        (f["verdict"].as_str().unwrap().to_string(), cached)
    };
    let verdict_of_f = |new: &str, name: &str| verdict_of(new, name, &["--reuse-proofs"]);
    assert_eq!(verdict_of_f(&new, "new.c"), ("equivalent".into(), false));
    let h_too = new.replace("return y - 1;", "return y - 2;");
    // Taken only when asked for: the report is then what a run without the cache gives.
    assert_eq!(verdict_of(&h_too, "h.c", &[]), ("equivalent".into(), false));
    assert_eq!(verdict_of_f(&h_too, "h2.c"), ("equivalent".into(), true));
    let k_too = new.replace("return x + 1;", "return x + 2;");
    assert_eq!(verdict_of_f(&k_too, "k.c"), ("different".into(), false));
    let table_too = new.replace("{1, 2}", "{1, 3}");
    assert_eq!(verdict_of_f(&table_too, "t.c"), ("different".into(), false));
}

/// The verdict and the witnesses' inputs of `name` in a semdiff JSON report.
fn verdict_and_inputs(json: &str, name: &str) -> (String, Vec<serde_json::Value>) {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let f = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("{name} is reported: {v:#}"));
    let inputs = f["witnesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["inputs"].clone())
        .collect();
    (f["verdict"].as_str().unwrap().to_string(), inputs)
}

#[test]
fn a_static_nothing_writes_holds_its_initializer_and_is_no_input() {
    // maxExponent is 511 in every run (nothing stores to it, its address is never
    // taken): comparing with it or with 511 is the same. Before, it was a free input and
    // both functions were "different", with witnesses no run can reach.
    let dir = tempfile::tempdir().unwrap();
    let old = "static int maxExponent = 511;\n\
               int clampexp(int exp) { if (exp > maxExponent) exp = maxExponent; return exp; }\n\
               int main(int argc, char **argv) { return clampexp(argc) & 0xff; }\n";
    let new = old.replace(
        "if (exp > maxExponent) exp = maxExponent;",
        "if (exp > 511) exp = 511;",
    );
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(verdict_and_inputs(&stdout, "clampexp").0, "equivalent");
}

#[test]
fn a_static_of_files_named_otherwise_is_one_object_and_main_starts_from_initializers() {
    // `limit` may be set by setlimit, so clampexp differs (old returns limit when exp is
    // above it, new 511). The two files' statics are one variable run twice: a witness
    // gives it one value, not one per version. main never calls setlimit: it always
    // compares with 511, so it does not differ; a witness setting limit is no run of it.
    let dir = tempfile::tempdir().unwrap();
    let old = "static int limit = 511;\n\
               void setlimit(int l) { limit = l; }\n\
               int clampexp(int exp) { if (exp > limit) exp = limit; return exp; }\n\
               int main(int argc, char **argv) { return clampexp(argc) & 0xff; }\n";
    let new = old.replace("if (exp > limit) exp = limit;", "if (exp > 511) exp = 511;");
    let (a, b) = (dir.path().join("before.c"), dir.path().join("after.c"));
    std::fs::write(&a, old).unwrap();
    std::fs::write(&b, &new).unwrap();
    let (_, stdout, stderr) =
        semdiff(&[a.to_str().unwrap(), b.to_str().unwrap(), "--format", "json"]);
    let (verdict, inputs) = verdict_and_inputs(&stdout, "clampexp");
    assert_eq!(verdict, "different", "{stdout}{stderr}");
    assert!(!inputs.is_empty(), "{stdout}");
    for input in &inputs {
        let limit = input["limit"].as_str().unwrap_or_else(|| panic!("{input}"));
        assert!(
            !limit.contains("(old)") && !limit.contains("(new)"),
            "{input}"
        );
    }
    assert_ne!(
        verdict_and_inputs(&stdout, "main").0,
        "different",
        "{stdout}"
    );
}

#[test]
fn functions_accessing_volatile_objects_are_never_proved_equivalent() {
    // Each access to a volatile object is observable and each read may see another
    // value (a flag another thread sets, a device register): two reads are not one
    // (zlib's `once_t` flags), a dropped store or read is a change, and so is the order
    // of two reads. gcc keeps every one of them, at -O2 too. `plain` touches no
    // volatile object and stays equivalent.
    let dir = tempfile::tempdir().unwrap();
    let old = "typedef struct once_s { volatile int begun; volatile int done; } once_t;\n\
               int sum_done(once_t *s) { return s->done + s->done; }\n\
               int done_flag(once_t *s) { return s->done * 2; }\n\
               void kick(volatile int *reg) { *reg = 1; *reg = 2; }\n\
               void touch(volatile int *reg) { (void)*reg; }\n\
               int order(volatile int *a, volatile int *b) { int x = *a; int y = *b; return x - y; }\n\
               int plain(int x) { return x * 2; }\n";
    let new = old
        .replace(
            "return s->done + s->done;",
            "int d = s->done; return d + d;",
        )
        .replace("return s->done * 2;", "int d = s->done; return d + d;")
        .replace("*reg = 1; *reg = 2;", "*reg = 2;")
        .replace("(void)*reg;", "(void)reg;")
        .replace("int x = *a; int y = *b;", "int y = *b; int x = *a;")
        .replace("return x * 2;", "return x + x;");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--format", "json"]);
    assert_eq!(code, 3, "unknown remains: {stdout}{stderr}");
    for f in ["sum_done", "kick", "touch", "order"] {
        assert_eq!(verdict_and_inputs(&stdout, f).0, "unknown", "{f}: {stdout}");
    }
    assert_eq!(
        verdict_and_inputs(&stdout, "plain").0,
        "equivalent",
        "{stdout}"
    );
    // One read in both versions: equivalent in truth, but the analysis does not count
    // volatile reads, so a function naming one is unknown (the stated
    // over-approximation), never equivalent.
    assert_eq!(
        verdict_and_inputs(&stdout, "done_flag").0,
        "unknown",
        "{stdout}"
    );
}

#[test]
fn every_format_says_a_witness_goes_through_undefined_behaviour() {
    // `x + 1 > x` is 0 at INT_MAX only where signed overflow wraps (-fwrapv, the default
    // assumption); built without it, both versions return 1. Markdown and SARIF must say
    // so as the text does, or a reviewer reads a plain confirmed difference.
    let dir = tempfile::tempdir().unwrap();
    let old = "int inc_ok(int x) { return x + 1 > x; }\n";
    let new = "int inc_ok(int x) { return 1; }\n";
    for format in ["text", "markdown", "sarif"] {
        let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &["--format", format]);
        assert_eq!(code, 1, "{format}: {stdout}{stderr}");
        assert!(stdout.contains("signed overflow"), "{format}: {stdout}");
    }
}

const OLD_ARR: &str = "#include <stddef.h>\ntypedef struct { int *items; size_t count; size_t capacity; } Array;\nstatic int get(const Array *a, size_t i) { return (a == NULL || i >= a->count) ? 0 : a->items[i]; }\nint arr_remove(Array *array, size_t ix) {\n    size_t last = 0;\n    if (array == NULL || ix >= array->count) {\n        return -1;\n    }\n    last = array->count - 1;\n    array->count -= 1;\n    if (ix != last)\n        array->items[ix] = get(array, last);\n    return 0;\n}\n\nint demo(void) {\n    int items[3] = {10, 20, 30};\n    Array a;\n    a.items = items; a.count = 3; a.capacity = 3;\n    arr_remove(&a, 0);\n    return a.items[0];\n}\n";
const NEW_ARR: &str = "#include <stddef.h>\ntypedef struct { int *items; size_t count; size_t capacity; } Array;\nstatic int get(const Array *a, size_t i) { return (a == NULL || i >= a->count) ? 0 : a->items[i]; }\nint arr_remove(Array *array, size_t ix) {\n    int tmp = 0;\n    size_t last = 0;\n    if (array == NULL || ix >= array->count) {\n        return -1;\n    }\n    last = array->count - 1;\n    if (ix != last) {\n        tmp = get(array, last);\n        if (tmp == 0) {\n            return -1;\n        }\n        array->items[ix] = tmp;\n    }\n    array->count -= 1;\n    return 0;\n}\n\nint demo(void) {\n    int items[3] = {10, 20, 30};\n    Array a;\n    a.items = items; a.count = 3; a.capacity = 3;\n    arr_remove(&a, 0);\n    return a.items[0];\n}\n";

#[test]
fn every_format_shows_a_difference_found_in_an_unchanged_caller() {
    // parson's `json_array_remove` reduced: the old `arr_remove` lowers the count before
    // it reads the last element (so it copies 0), the new one reads it first; the
    // unchanged `demo` returns what it leaves (gcc: old 0, new 30). The changed function
    // is left unknown; the caller's confirmed difference is the finding, and Markdown
    // and SARIF show it as the text does.
    let dir = tempfile::tempdir().unwrap();
    let old = OLD_ARR;
    let new = NEW_ARR;
    let (_, text, _) = semdiff_sources(dir.path(), old, new, &[]);
    assert!(text.contains("demo: different"), "{text}");
    let (_, markdown, _) = semdiff_sources(dir.path(), old, new, &["--format", "markdown"]);
    assert!(
        markdown.contains("| `demo` (unchanged, calls a changed one) | different |"),
        "{markdown}"
    );
    let (_, sarif, _) = semdiff_sources(dir.path(), old, new, &["--format", "sarif"]);
    assert!(
        sarif.contains("demo (unchanged: the change reaches it) behaves differently"),
        "{sarif}"
    );
}

#[test]
fn a_small_budget_still_settles_a_respelled_definition() {
    // f is only respelled (K&R to a prototype: the same code); g's change is a product
    // written in another order. Before, g's concrete search alone spent five times the
    // 0.1 s budget and both were "unknown, budget exhausted" (zlib e9d5486, 24 files of
    // such respellings: 0 of 119 equivalent). The modified pairs' searches now share a
    // part of the budget, and a pair that is the same code needs no solver.
    let dir = tempfile::tempdir().unwrap();
    let old = "unsigned g(unsigned a, unsigned b, unsigned c) { unsigned s = 0; \
               for (unsigned i = 0; i < a; i++) { s = s * 31 + b * c * i; s ^= s >> 7; } return s; }\n\
               int f(x) int x; { return x + 1; }\n";
    let new = old
        .replace("b * c * i", "c * b * i")
        .replace("int f(x) int x; {", "int f(int x) {");
    let (_, stdout, stderr) = semdiff_sources(
        dir.path(),
        old,
        &new,
        &["--format", "json", "--budget", "0.1"],
    );
    assert_eq!(
        verdict_and_inputs(&stdout, "f").0,
        "equivalent",
        "{stdout}{stderr}"
    );
}

#[test]
fn a_record_retyped_with_the_same_layout_is_compared_by_its_bytes() {
    // mujs 2e2738b made js_Value a union; the tag stays byte 15 of 16. Both versions
    // read the same byte of the same memory: equivalent. Before, the two versions'
    // typed dumps of *v (a struct's members, a union's) differed in form and "confirmed"
    // a difference on a run where both returned 0 and left the same bytes. With the tag
    // moved to byte 14 the versions differ, and say so.
    let dir = tempfile::tempdir().unwrap();
    let old = "struct V { double number; char pad[7]; char type; };\n\
               int isnum(struct V *v) { return v->type == 3; }\n";
    let new = "union V { struct { char pad[15]; char type; } t; double number; };\n\
               int isnum(union V *v) { return v->t.type == 3; }\n";
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &["--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let moved = new.replace(
        "char pad[15]; char type;",
        "char pad[14]; char type; char x;",
    );
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &moved, &["--format", "json"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(verdict_and_inputs(&stdout, "isnum").0, "different");
}

#[test]
fn each_changed_function_gets_its_share_of_the_exploration() {
    // Strength reductions, reduced from mujs: `a * 2` to `a << 1` and `a * 0.5` to
    // `a / 2` are equivalent (each proved alone at once); `a / 2` to `a >> 1`, `a % 8` to
    // `a & 7` and the rounding of `cv` differ on negative numbers. Before, the siblings'
    // exploration took the whole share first and dbl and fl were "budget exhausted".
    let dir = tempfile::tempdir().unwrap();
    let old = "#include <stdio.h>\n\
               int half(int a) { int x; x = a / 2; return x; }\n\
               int dbl(int a) { int x; x = a * 2; return x; }\n\
               double fl(double a) { double x; x = a * 0.5; return x; }\n\
               int md(int a) { int x; x = a % 8; return x; }\n\
               int cv(double d) { int x; x = (int)(d + 0.5); return x; }\n\
               int main(int argc, char **argv) { printf(\"%d %d %g %d %d\\n\", half(argc - 5), \
               dbl(argc), fl(argc), md(argc - 9), cv(-argc)); return 0; }\n";
    let new = old
        .replace("x = a / 2;", "x = a >> 1;")
        .replace("x = a * 2;", "x = a << 1;")
        .replace("x = a * 0.5;", "x = a / 2;")
        .replace("x = a % 8;", "x = a & 7;")
        .replace("x = (int)(d + 0.5);", "x = (int)d + (d - (int)d >= 0.5);");
    let (_, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--format", "json"]);
    for f in ["dbl", "fl"] {
        assert_eq!(
            verdict_and_inputs(&stdout, f).0,
            "equivalent",
            "{f}: {stdout}{stderr}"
        );
    }
    for f in ["half", "md", "cv"] {
        assert_eq!(
            verdict_and_inputs(&stdout, f).0,
            "different",
            "{f}: {stdout}"
        );
    }
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let (code, _, stderr) = semdiff(&["no/such/old.c", "examples/moddiff-fig2/new.c"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no/such/old.c"), "{stderr}");
}

/// Runs `cc` on `prelude + version + main(check)` and returns what it prints.
fn native_output(version: &Path, check: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = dir.path().join("p.c");
    let text = format!(
        "#include <stdio.h>\n#include <limits.h>\n{}\nint main(void) {{ {check} return 0; }}\n",
        std::fs::read_to_string(version).expect("the version is readable")
    );
    std::fs::write(&source, text).unwrap();
    let exe = dir.path().join("p");
    let status = std::process::Command::new("gcc")
        .args(["-std=gnu11", "-fwrapv", "-w", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .expect("gcc is required by this test");
    assert!(status.success(), "gcc compiles {}", version.display());
    let out = std::process::Command::new(&exe).output().expect("runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Records by value, in both modes (001's UF abstraction with refinement, and plain
/// summaries): a record argument and a record returned by value are read from their
/// frame slots, so the difference is found and its witness, run natively, differs.
#[test]
fn records_by_value_differ_in_both_modes_with_a_native_witness() {
    for (pair, function, call) in [
        // t returns h(o2) = o2.x: x2 in the old version, z2 in the new one.
        ("struct_arg_by_value", "t", "t"),
        // mk's returned field b is p1 in the old version and 10 in the new one.
        ("struct_return_nine_params", "mk", "mk"),
    ] {
        let dir = root().join("tests/semdiff").join(pair);
        for mode in ["--refine", "--no-refine"] {
            let (code, stdout, stderr) = semdiff(&[
                dir.join("old.c").to_str().unwrap(),
                dir.join("new.c").to_str().unwrap(),
                "--function",
                function,
                "--format",
                "json",
                mode,
            ]);
            assert_eq!(code, 1, "{pair} {mode}: {stdout}{stderr}");
            let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
            let f = &json["functions"][0];
            assert_eq!(f["verdict"], "different", "{pair} {mode}: {f}");
            let witness = f["witnesses"]
                .as_array()
                .and_then(|ws| ws.iter().find(|w| w["confirmed"] == true))
                .unwrap_or_else(|| panic!("{pair} {mode}: no confirmed witness: {f}"));
            // The witness's scalar inputs, in parameter order, as a native call.
            let params: Vec<String> = if function == "t" {
                ["x1", "z1", "x2", "z2"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            } else {
                (0..9).map(|i| format!("p{i}")).collect()
            };
            let args: Vec<String> = params
                .iter()
                .map(|p| {
                    witness["inputs"][p.as_str()]
                        .as_str()
                        .unwrap_or_else(|| panic!("{pair}: input {p} in {witness}"))
                        .to_string()
                })
                .collect();
            let check = if function == "t" {
                format!("printf(\"%d\\n\", {call}({}));", args.join(", "))
            } else {
                format!(
                    "T r = {call}({}); printf(\"%d %d\\n\", r.a, r.b);",
                    args.join(", ")
                )
            };
            assert_ne!(
                native_output(&dir.join("old.c"), &check),
                native_output(&dir.join("new.c"), &check),
                "{pair} {mode}: the witness {witness} does not separate the compiled versions"
            );
        }
    }
}

/// A replay that stops at its step limit confirms nothing: `steps` loops -x times in the
/// old version and returns -x in the new one, equal for every x (checked natively), so no
/// witness may be confirmed, whatever the budget.
#[test]
fn a_step_limit_never_confirms_a_witness() {
    let dir = root().join("tests/semdiff/loop_count_vs_negation");
    for budget in ["0.5", "3.5", "10"] {
        let (code, stdout, stderr) = semdiff(&[
            dir.join("old.c").to_str().unwrap(),
            dir.join("new.c").to_str().unwrap(),
            "--format",
            "json",
            "--budget",
            budget,
        ]);
        assert_ne!(code, 2, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        for f in json["functions"].as_array().expect("functions") {
            assert_ne!(f["verdict"], "different", "budget {budget}: {f}");
            for w in f["witnesses"].as_array().into_iter().flatten() {
                let x = w["inputs"]["x"].as_str().unwrap_or("0").to_string();
                let check = format!("printf(\"%d\\n\", {}({x}));", f["name"].as_str().unwrap());
                let agree = native_output(&dir.join("old.c"), &check)
                    == native_output(&dir.join("new.c"), &check);
                assert!(
                    !(agree && w["confirmed"] == true),
                    "budget {budget}: witness {w} confirmed, but gcc agrees"
                );
            }
        }
    }
}

/// Same input, same answer: the budget counts work, not time, so a run under heavy CPU
/// load prints byte for byte what an idle run prints. popcount_kernighan spends most of
/// its budget (its verdict depends on where the budget ends), and gcd runs out of it.
/// The wall-clock cut-off (by default the budget itself) is raised, as a user wanting
/// reproducible results on a busy machine would.
#[test]
fn output_is_identical_under_cpu_load() {
    for pair in ["popcount_kernighan", "gcd_recursive_iterative"] {
        let dir = root().join("tests/semdiff").join(pair);
        let run = || {
            semdiff(&[
                dir.join("old.c").to_str().unwrap(),
                dir.join("new.c").to_str().unwrap(),
                "--budget",
                "3.5",
                "--cutoff",
                "300",
            ])
        };
        let quiet = run();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let loaded = std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let mut x = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                });
            }
            let out = run();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            out
        });
        assert!(
            !quiet.1.contains("wall-clock cut-off"),
            "{pair}: the idle run was cut by the clock: {}",
            quiet.1
        );
        assert_eq!(quiet, loaded, "{pair}: output differs under load");
    }
}

/// The first witness of the (only) reported function of a JSON run.
fn first_witness(json: &serde_json::Value) -> &serde_json::Value {
    &json["functions"][0]["witnesses"][0]
}

fn pair_json(pair: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let dir = root().join("tests/semdiff").join(pair);
    let mut args = vec![
        dir.join("old.c").to_str().unwrap().to_string(),
        dir.join("new.c").to_str().unwrap().to_string(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = semdiff(&args);
    assert_ne!(code, 2, "{pair}: {stderr}");
    (code, serde_json::from_str(&stdout).expect("JSON"))
}

/// A witness is decided on both versions built by the C compiler (the default), or by
/// the interpreter on request; a record passed by value is replayed in both (its fields
/// shown by name). f returns o.x + k in the old version and o.z + k in the new one.
#[test]
fn witnesses_are_confirmed_on_the_compiled_versions() {
    for (confirm, by) in [
        ("compiled", "compiled code"),
        ("interpreter", "interpreter"),
    ] {
        let (code, json) = pair_json("record_param_witness", &["--confirm", confirm]);
        assert_eq!(code, 1, "{json}");
        let w = first_witness(&json);
        assert_eq!(w["confirmed"], true, "{w}");
        assert_eq!(w["checked_by"], by, "{w}");
        let o = w["inputs"]["o"].as_str().expect("the record input");
        assert!(o.starts_with("{.x = ") && o.contains(".z = "), "{o}");
        assert_ne!(w["old"]["result"], w["new"]["result"], "{w}");
    }
}

/// The recursive factorial and the loop agree on every n. The witness search may pick a
/// large n (about 12 million) on which neither replay ends within its step limit, where
/// the compiled recursive version dies of a stack overflow and the loop returns: such a
/// crash says nothing about the results (unit test `a_crash_confirms_only_where_the_
/// interpreter_finished`), so the verdict is never "different".
#[test]
fn deep_recursion_against_a_loop_is_never_different() {
    let (code, json) = pair_json("factorial_unbounded", &[]);
    let f = &json["functions"][0];
    assert_ne!(f["verdict"], "different", "{f}");
    assert_ne!(code, 1, "{f}");
    for w in f["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
    }
}

/// `x + 1 > x` is 0 only for INT_MAX, through signed overflow: the witness is confirmed
/// (the compiled versions built with -fwrapv differ) but labelled, and modulo undefined
/// behaviour it is no difference at all, so the verdict is not "different".
#[test]
fn a_difference_through_signed_overflow_is_labelled_and_excluded_modulo_ub() {
    let (code, json) = pair_json("overflow_folded_compare", &[]);
    assert_eq!(code, 1, "{json}");
    let w = first_witness(&json);
    assert_eq!(w["inputs"]["x"], "2147483647", "{w}");
    assert_eq!(w["labels"][0], "signed overflow (old)", "{w}");
    let notes = json["functions"][0]["notes"].to_string();
    assert!(notes.contains("undefined behaviour"), "{notes}");
    assert_eq!(json["settings"]["assume"], "wrap");

    let (code, json) = pair_json("overflow_folded_compare", &["--assume", "no-ub"]);
    assert_eq!(code, 3, "unknown, not different: {json}");
    assert_eq!(json["settings"]["assume"], "no-ub");
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "unknown", "{f}");
    for w in f["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
        assert_eq!(
            w["unconfirmed_reason"], "undefined behaviour excluded",
            "{w}"
        );
    }
}

/// x * 0.0 against 0.0: they differ only by the sign of zero (or NaN), and the witness
/// says so; an ordinary difference (record_param_witness) has no label.
#[test]
fn a_difference_only_in_the_sign_of_zero_is_labelled() {
    let (_, json) = pair_json("signed_zero_product", &[]);
    let w = first_witness(&json);
    assert_eq!(w["confirmed"], true, "{w}");
    assert_eq!(w["labels"][0], "NaN or signed zero", "{w}");
    let (_, json) = pair_json("record_param_witness", &[]);
    assert_eq!(first_witness(&json)["labels"], serde_json::json!([]));
}

/// `r` is read uninitialised in the old version when x <= 0: the interpreter reads 0
/// there, against 5 in the new version, so the versions differ on its replay, but only
/// through that read, and the witness says so.
#[test]
fn a_difference_through_an_uninitialised_read_is_labelled() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let old = dir.path().join("old.c");
    let new = dir.path().join("new.c");
    std::fs::write(
        &old,
        "int f(int x) { int r; if (x > 0) r = 1; return r; }\n",
    )
    .unwrap();
    std::fs::write(
        &new,
        "int f(int x) { int r = 5; if (x > 0) r = 1; return r; }\n",
    )
    .unwrap();
    let (_, stdout, stderr) = semdiff(&[
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
        "--confirm",
        "interpreter",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect(&stderr);
    let witnesses = json["functions"][0]["witnesses"]
        .as_array()
        .expect("witnesses");
    assert!(
        witnesses.iter().any(|w| w["labels"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|l| l == "uninitialised read (old)")),
        "{json}"
    );
}

/// `apply(f, x)` calls `f(x)`; `inc` changes from `x + 1` to `x + 2`, so apply differs
/// exactly when `f` is `&inc`. The witness names that function (not bytes behind a data
/// pointer), both replays run it (`inc(0)`: 1 before, 2 after), and the condition reads
/// `f == &inc` with the calls through `f` written as calls.
#[test]
fn a_function_pointer_input_is_shown_and_replayed_as_a_function() {
    let (code, json) = pair_json("indirect_call_to_changed", &["--confirm", "interpreter"]);
    assert_eq!(code, 1, "{json}");
    let apply = json["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .find(|f| f["name"] == "apply")
        .expect("apply is reported");
    assert_eq!(apply["verdict"], "different", "{apply}");
    let w = &apply["witnesses"][0];
    assert_eq!(w["inputs"]["f"], "&inc", "{w}");
    assert_eq!(w["confirmed"], true, "{w}");
    let results = (w["old"]["result"].as_str(), w["new"]["result"].as_str());
    assert_eq!(results, (Some("returned 1"), Some("returned 2")), "{w}");
    let differs = apply["differs_when"].as_str().expect("differs_when");
    assert!(
        differs.contains("f == &inc") && differs.contains("old (*f)(x)"),
        "{differs}"
    );
}

/// A load through a pointer parameter before it is tested for null: old traps on a
/// null `p` (gcc: a segmentation fault), new returns 0. The witness passes NULL itself,
/// and the compiled versions confirm it.
#[test]
fn a_null_pointer_parameter_is_an_input_like_any_other() {
    let (code, json) = pair_json("null_load_dropped", &[]);
    assert_eq!(code, 1, "{json:#}");
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "different", "{json:#}");
    let witness = first_witness(&json);
    assert_eq!(witness["inputs"]["p"], "NULL", "{json:#}");
    assert_eq!(witness["confirmed"], true, "{json:#}");
    assert_eq!(witness["checked_by"], "compiled code", "{json:#}");
    assert!(
        witness["old"]["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("trap")),
        "{json:#}"
    );
    assert_eq!(witness["new"]["result"], "returned 0", "{json:#}");
}

/// `exit` flushes stdio, `_Exit` does not: with stdout a pipe (as the compiled runs
/// have it), new loses what it printed. The interpreter's replays print alike; the
/// compiled runs confirm the difference, and the report shows them.
#[test]
fn exit_without_flushing_loses_buffered_output() {
    let (code, json) = pair_json("exit_without_flush", &[]);
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(json["functions"][0]["verdict"], "different", "{json:#}");
    let witness = first_witness(&json);
    assert_eq!(witness["confirmed"], true, "{json:#}");
    let compiled = witness["compiled"].as_array().expect("compiled outcomes");
    let (old, new) = (compiled[0].as_str().unwrap(), compiled[1].as_str().unwrap());
    assert!(
        old.starts_with("done ") && !new.contains("done"),
        "{json:#}"
    );
    // The same `_Exit` in both versions is no difference.
    let dir = root().join("tests/semdiff/exit_without_flush");
    let new_c = dir.join("new.c");
    let (code, stdout, stderr) = semdiff(&[new_c.to_str().unwrap(), new_c.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

/// A witness shows a pointed-to record by its fields, all of them: here the one that
/// decides (`e`, at bytes 16-19) must be there, with the value 1 that separates the
/// versions (old returns 1, new 0).
#[test]
fn a_pointed_to_record_is_shown_whole() {
    let (code, json) = pair_json("record_pointee_last_field", &[]);
    assert_eq!(code, 1, "{json:#}");
    let witness = first_witness(&json);
    let shown = witness["inputs"]["*s"].as_str().expect("*s shown");
    assert!(shown.contains(".e = 1"), "{json:#}");
    assert_eq!(witness["confirmed"], true, "{json:#}");
}

/// `putchar(x & 0xff)` against `putchar(x)`: putchar converts its argument to unsigned
/// char, so both print the same byte (gcc prints "Z" for both on 0x1000005a), but the
/// analysis leaves putchar uninterpreted, called with other arguments in each version.
/// The solver's difference rests only on that, no run confirms it: a possible
/// difference (unknown, exit code 3), never a proved one.
#[test]
fn a_difference_resting_on_an_uninterpreted_library_call_is_only_possible() {
    let (code, json) = pair_json("putchar_value_masked", &[]);
    assert_eq!(code, 3, "{json:#}");
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "unknown", "{f:#}");
    for w in f["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
    }
    let notes = f["notes"].to_string();
    assert!(notes.contains("possible difference"), "{notes}");
    let dir = root().join("tests/semdiff/putchar_value_masked");
    let (_, markdown, _) = semdiff(&[
        dir.join("old.c").to_str().unwrap(),
        dir.join("new.c").to_str().unwrap(),
        "--format",
        "markdown",
    ]);
    // The input the solver proposed runs alike compiled: the row gives the note, not it.
    assert!(!markdown.contains("proves"), "{markdown}");
    assert!(
        markdown.contains("| unknown | possible difference"),
        "{markdown}"
    );
    assert!(!markdown.contains("witness on"), "{markdown}");
}

/// `%d` against `%i` in printf, and memset's value masked by hand against memset's own
/// conversion to unsigned char: the same output and bytes (the pairs' gcc checks), and
/// the library calls are modelled so: equivalent, not even a possible difference.
#[test]
fn equivalent_library_calls_are_proved_equivalent() {
    for pair in ["printf_d_as_i", "memset_value_masked"] {
        let (code, json) = pair_json(pair, &[]);
        assert_eq!(code, 0, "{pair}: {json:#}");
        assert_eq!(json["functions"][0]["verdict"], "equivalent", "{pair}");
    }
}

/// What setjmp saves in a `jmp_buf` (stack and return addresses, mangled with a
/// per-process key) differs from one compiled run to the next, even of one version:
/// it is no observable difference. A harmless change of a function using setjmp and
/// longjmp (gcc prints "3 1" for both versions) gets no witness confirmed by those
/// bytes; a real change (what the function returns after the jump: 1 against 2 on
/// x = 9, compiled) still gets a confirmed witness.
#[test]
fn the_bytes_of_a_jmp_buf_are_no_difference() {
    let (code, json) = pair_json("setjmp_harmless_change", &[]);
    assert_ne!(code, 1, "{json:#}");
    let f = &json["functions"][0];
    assert_ne!(f["verdict"], "different", "{f:#}");
    for w in f["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let old = root().join("tests/semdiff/setjmp_harmless_change/old.c");
    let old_text = std::fs::read_to_string(&old).unwrap();
    let new = dir.path().join("new.c");
    std::fs::write(&new, old_text.replace("return 1;", "return 2;")).unwrap();
    let (code, stdout, stderr) = semdiff(&[
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "different", "{f:#}");
    let confirmed = f["witnesses"]
        .as_array()
        .and_then(|ws| ws.iter().find(|w| w["confirmed"] == true))
        .unwrap_or_else(|| panic!("no confirmed witness: {f:#}"));
    let compiled = confirmed["compiled"].to_string();
    assert!(compiled.contains("jmp_buf"), "{compiled}");
}

/// A witness of a changed global shows it by name with the value each version starts
/// from: the concrete search runs from the initializers (g = 1 against 2, so f(0) is 1
/// against 2 compiled; a `short` against an `int`, both 32767, so bump's g + 1 wraps in
/// the old version only: 1 against 0 compiled).
#[test]
fn a_changed_global_is_shown_by_name_with_each_versions_value() {
    let (code, json) = pair_json("changed_global_initializer", &[]);
    assert_eq!(code, 1, "{json:#}");
    let w = first_witness(&json);
    assert_eq!(w["inputs"]["g"], "1 (old), 2 (new)", "{w:#}");
    assert_eq!(w["confirmed"], true, "{w:#}");
    assert_eq!(
        (w["old"]["result"].as_str(), w["new"]["result"].as_str()),
        (Some("returned 1"), Some("returned 2")),
        "{w:#}"
    );
    let (code, json) = pair_json("global_short_to_int", &[]);
    assert_eq!(code, 1, "{json:#}");
    let w = first_witness(&json);
    assert_eq!(
        w["inputs"]["g"], "(short) 32767 (old), (int) 32767 (new)",
        "{w:#}"
    );
    assert_eq!(w["confirmed"], true, "{w:#}");
}

/// A solver witness sets a global whose type changed (a `short` becoming an `int`, one
/// address in the summary's memory) to the bytes of each version's own object: the
/// witness shows both values, and the compiled versions, started from exactly those
/// values, return what the witness says each returned.
#[test]
fn a_global_whose_type_changed_is_set_and_shown_per_version() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let body = "g;\nint f(int x) { if (x != 987654) return 0; return x + g; }\n";
    let old = dir.path().join("old.c");
    let new = dir.path().join("new.c");
    std::fs::write(&old, format!("short {body}")).unwrap();
    std::fs::write(&new, format!("int {body}")).unwrap();
    let (code, stdout, stderr) = semdiff(&[
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_ne!(code, 2, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let witnesses = json["functions"][0]["witnesses"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!witnesses.is_empty(), "{json:#}");
    for w in &witnesses {
        let shown = w["inputs"]["g"].as_str().expect("g shown by name");
        // "V" (both versions) or "V (old), W (new)".
        let values: Vec<&str> = shown
            .split(", ")
            .map(|part| part.trim_end_matches(" (old)").trim_end_matches(" (new)"))
            .collect();
        let (old_g, new_g) = (values[0], values[values.len() - 1]);
        let x = w["inputs"]["x"].as_str().expect("x shown");
        for (version, g, side) in [(&old, old_g, "old"), (&new, new_g, "new")] {
            let check = format!("g = {g}; printf(\"returned %d\\n\", f({x}));");
            let printed = native_output(version, &check);
            assert_eq!(
                printed.trim(),
                w[side]["result"].as_str().unwrap(),
                "{side} from g = {g}: {w:#}"
            );
        }
    }
}

/// The state after a run shows a pointed-to array whole, not its first element only:
/// mark writes a[2] (1 against 2, gcc prints "0 0 1" against "0 0 2"), which the
/// witness's state must show.
#[test]
fn a_pointed_to_array_in_the_state_is_shown_whole() {
    let (code, json) = pair_json("array_element_through_pointer", &[]);
    assert_eq!(code, 1, "{json:#}");
    let w = first_witness(&json);
    assert_eq!(w["confirmed"], true, "{w:#}");
    let (old, new) = (&w["old"]["state"], &w["new"]["state"]);
    let rest = |state: &serde_json::Value| {
        state["a[1..16]"]
            .as_str()
            .unwrap_or_else(|| panic!("the rest of a shown: {w:#}"))
            .to_string()
    };
    assert!(rest(old).starts_with("{0, 1, 0"), "{w:#}");
    assert!(rest(new).starts_with("{0, 2, 0"), "{w:#}");
}

/// A library call one version makes and the other does not is no proof either:
/// `fflush(stdout)` after the printf changes when the bytes are written, not which
/// (gcc prints "7\n" for both). The solver's difference in the output rests on fflush
/// being uninterpreted, and no run confirms it: unknown, never "different".
#[test]
fn a_library_call_in_one_version_only_is_no_proof_of_a_difference() {
    let (code, json) = pair_json("fflush_added", &[]);
    assert_eq!(code, 3, "{json:#}");
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "unknown", "{f:#}");
    for w in f["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
        assert_eq!(w["old"]["stdout"], w["new"]["stdout"], "{w}");
    }
    let notes = f["notes"].to_string();
    assert!(notes.contains("possible difference"), "{notes}");
}

/// Conditions over memory read as the bytes that differ, never as whole memories
/// (`store(store(... mem, p, 64) ...) == store(...)`): a record written field by field
/// whose string differs (an error message reworded) is equal exactly when no message is
/// written, or the record is too small for both versions alike; a global incremented
/// twice instead of once always differs.
#[test]
fn conditions_over_memory_read_without_stores() {
    let dir = tempfile::tempdir().unwrap();
    let record = |word: &str| {
        format!(
            "struct P {{ const char *problem; int err; }};\nint fail(struct P *p, int c) {{\n    if (c == '\\t') {{ p->problem = \"a tab {word} indentation\"; p->err = 1; return 0; }}\n    return 1;\n}}\n"
        )
    };
    let (code, text, stderr) =
        semdiff_sources(dir.path(), &record("violate"), &record("violates"), &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(!text.contains("store("), "{text}");
    let differs = text
        .lines()
        .find(|l| l.starts_with("  differs when:"))
        .expect("a difference condition");
    assert!(differs.contains("c == 9"), "{text}");
    assert!(
        text.contains("equal when:            c != 9 || c == 9 && 8 > objsize(p)"),
        "{text}"
    );
    let global = |body: &str| {
        format!("int g;\nstatic int helper(int x) {{ g++; return x * 2; }}\nint f(int x) {{ {body} }}\n")
    };
    let (code, text, stderr) = semdiff_sources(
        dir.path(),
        &global("int a = helper(x); int b = helper(x); return a + b;"),
        &global("int a = helper(x); return a + a;"),
        &[],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(!text.contains("store("), "{text}");
    assert!(!text.contains("concat("), "{text}");
    assert!(text.contains("differs when:          true"), "{text}");
}

/// The struct of the old version of `struct_member_pair`: `getBase` reads `m_curBase`.
const PARSER_OLD: &str = "struct parser {\n  int m_errorCode;\n  void *m_unknownEncodingData;\n  const char *m_curBase;\n};\n";
/// The new version inserts a member before `m_curBase`, which moves from offset 16 to 24.
const PARSER_NEW: &str = "struct parser {\n  int m_errorCode;\n  void *m_unknownEncodingData;\n  int (*m_unknownEncodingConvert)(void *, const char *);\n  const char *m_curBase;\n};\n";

/// A member inserted in the middle of a struct moves the members after it; a function
/// returning `p->m_curBase` in both versions returns the same member, so with the
/// members matched by name it does what it did: equivalent, and no witness (comparing
/// the same bytes, offset 16 in one version and 24 in the other, would make a false
/// one, "confirmed" by drivers printing structs of 3 and 4 members).
#[test]
fn a_member_moved_by_a_new_one_is_read_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let body = "const char *getBase(struct parser *p) { return p->m_curBase; }\nint getError(struct parser *p) { return p->m_errorCode; }\n";
    let (code, stdout, stderr) = semdiff_sources(
        dir.path(),
        &format!("{PARSER_OLD}{body}"),
        &format!("{PARSER_NEW}{body}"),
        &["--format", "json"],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let get_base = functions
        .iter()
        .find(|f| f["name"] == "getBase")
        .expect("getBase");
    assert_eq!(get_base["verdict"], "equivalent", "{get_base}");
    assert!(
        get_base["witnesses"].as_array().is_none_or(Vec::is_empty),
        "{get_base}"
    );
}

/// Where the code changed too and reads a struct whose layout changed, the solver and
/// the runs compare what both versions do with the same bytes, which are other members
/// in each: no verdict, and no witness counts as confirmed. (Here the versions differ
/// by name too, when `m_unknownEncodingData` is null and `m_curBase` is not; the
/// analysis cannot tell it without matching the members, so it says "unknown".)
#[test]
fn a_changed_function_reading_a_relaid_struct_gets_no_verdict_from_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = semdiff_sources(
        dir.path(),
        &format!("{PARSER_OLD}const char *getBase(struct parser *p) {{ return p->m_curBase; }}\n"),
        &format!("{PARSER_NEW}const char *getBase(struct parser *p) {{ return p->m_unknownEncodingData ? p->m_curBase : 0; }}\n"),
        &["--format", "json"],
    );
    assert_eq!(code, 3, "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let get_base = functions
        .iter()
        .find(|f| f["name"] == "getBase")
        .expect("getBase");
    assert_eq!(get_base["verdict"], "unknown", "{get_base}");
    for w in get_base["witnesses"].as_array().into_iter().flatten() {
        assert_eq!(w["confirmed"], false, "{w}");
    }
    assert!(
        get_base["notes"]
            .to_string()
            .contains("struct parser laid out differently"),
        "{get_base}"
    );
}

/// json-c 9782370 moved a declaration into the block that uses it; the function turns
/// a buffer's address into an offset (`(int)(buf_addr - p_buf_addr)`), so on a null
/// `p->buf` whether it then crashes depends on where the buffer lies. The interpreter's
/// runs of the two versions differ only in the addresses of their blocks (new has more
/// string literals, numbered before them), and the compiled runs' crash follows the
/// addresses: no witness. The versions do the same, as the proof says.
#[test]
fn a_difference_only_of_addresses_is_no_witness() {
    let (code, json) = pair_json(
        "address_as_offset",
        &["--function", "printbuf_memappend", "--cutoff", "120"],
    );
    let f = &json["functions"][0];
    assert_eq!(f["verdict"], "equivalent", "{json:#}");
    assert_eq!(code, 0, "{json:#}");
    assert!(
        f["witnesses"]
            .as_array()
            .is_none_or(|w| w.iter().all(|w| w["confirmed"] != true)),
        "{json:#}"
    );
}

/// The new version includes one more header, so `struct pair` has another type id
/// there: each version's replay shows the pointee by its own parameter's type (it was
/// shown as `imaxdiv_t`'s `{.quot, .rem}`, or as bytes).
#[test]
fn a_pointee_is_shown_by_each_version_s_own_type() {
    let (code, json) = pair_json("pointee_other_headers", &[]);
    assert_eq!(code, 1, "{json:#}");
    let witness = first_witness(&json);
    for side in ["old", "new"] {
        let shown = witness[side]["state"]["*p"].as_str().unwrap_or_default();
        assert!(shown.starts_with("{.buf = "), "{side}: {json:#}");
    }
    assert_eq!(
        witness["new"]["state"]["*p"],
        "{.buf = 0x0, .bpos = 1, .size = 0}"
    );
}

#[test]
fn no_termination_difference_is_claimed_that_the_solver_did_not_find() {
    // zlib's `deflateBound` reduced (4078713, "Tighten deflateBound bounds"): only how
    // the returned bound is computed changes. Neither version has a loop or a call, and
    // both load the same fields in the same order, so on every input both trap at the
    // same load or both return (a gcc driver over 800 states agrees): the outputs
    // differ (11 against 13 for n = 0), termination never does. The budget runs out
    // on the way, and an undecided query is no claim that termination differs.
    let dir = root().join("tests/fixtures/semdiff-no-termination-claim");
    let (code, stdout, stderr) = semdiff(&[
        dir.join("old.c").to_str().unwrap(),
        dir.join("new.c").to_str().unwrap(),
        "--full-summary",
        "--color",
        "never",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("bound: different"), "{stdout}");
    assert!(
        stdout.contains("returned 11") && stdout.contains("returned 13"),
        "{stdout}"
    );
    assert!(!stdout.contains("termination"), "{stdout}");
}

/// `acc ^= v >> 7` written `acc = acc ^ (v / 128)` (unsigned: the same value) inside a
/// loop the summaries do not cover within the budget: the pair was "unknown" for
/// `semdiff` and `diff --only semantic`, and "equivalent" only in a whole `diff`, where
/// the impact section's statement proof upgraded it. The statement proofs now answer
/// in every command; a divisor that is not the same (64) is still different, with a
/// witness checked on the compiled versions.
#[test]
fn a_pair_whose_changed_statements_are_proved_is_equivalent_in_every_command() {
    let dir = root().join("tests/semdiff/statement_proved");
    let (old, new) = (dir.join("old.c"), dir.join("new.c"));
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (code, stdout, stderr) = semdiff(&[old, new, "--color", "never"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("scan: equivalent"), "{stdout}");
    assert!(stdout.contains("statement proofs"), "{stdout}");
    let verdict = |args: &[&str]| -> String {
        let out = Command::cargo_bin("ripple")
            .unwrap()
            .args(["diff", "--no-cache", "--color", "never", old, new])
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find(|l| l.starts_with("scan: "))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    assert_eq!(verdict(&[]), "scan: equivalent (modified)");
    assert_eq!(
        verdict(&["--only", "semantic"]),
        "scan: equivalent (modified)"
    );
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(root().join("tests/semdiff/statement_proved/old.c")).unwrap();
    let bad = text.replace("acc ^= v >> 7;", "acc = acc ^ (v / 64);");
    let (code, stdout, _) = semdiff_sources(dir.path(), &text, &bad, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("scan: different"), "{stdout}");
}

/// sds keeps a string's header before the pointer it hands out (`s[-1]` is the type
/// byte). A pointer argument may point anywhere into its object, so what lies before it
/// is input memory: `return s[-1]` against `return s[-1] + 1` differs (gcc, `get(buf +
/// 1)` with `buf = {7, 0, 0, 0}`: 7 against 8). Taking the pointer as the start of its
/// object made every such access trap alike in both versions: "equivalent", exit 0.
#[test]
fn what_lies_before_a_pointer_argument_is_input_memory() {
    let dir = tempfile::tempdir().unwrap();
    let old = "int get(char *s) {\n    return s[-1];\n}\n";
    let (code, stdout, _) =
        semdiff_sources(dir.path(), old, &old.replace("s[-1];", "s[-1] + 1;"), &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("get: different"), "{stdout}");
    // A store there (sds' `s[-1] = type`), and through a header computed back from it.
    let old = "void mark(char *s) {\n    s[-1] = 1;\n}\n";
    let (code, stdout, _) = semdiff_sources(dir.path(), old, &old.replace("= 1;", "= 2;"), &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("mark: different"), "{stdout}");
    let old = "struct hdr { unsigned len; unsigned char flags; };\n\
               unsigned len_of(char *s) {\n    \
               struct hdr *h = (struct hdr *)(s - sizeof(struct hdr));\n    return h->len;\n}\n";
    let (code, stdout, _) = semdiff_sources(
        dir.path(),
        old,
        &old.replace("return h->len;", "return h->len + 1;"),
        &[],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("len_of: different"), "{stdout}");
    // The whole program: main prints what `get(buf + 1)` reads.
    let prog = "#include <stdio.h>\nint get(char *s) {\n    return s[-1];\n}\n\
                int main(void) {\n    char buf[4] = {7, 0, 0, 0};\n    printf(\"%d\\n\", get(buf + 1));\n    return 0;\n}\n";
    std::fs::write(dir.path().join("old.c"), prog).unwrap();
    std::fs::write(
        dir.path().join("new.c"),
        prog.replace("s[-1];", "s[-1] + 1;"),
    )
    .unwrap();
    let out = Command::cargo_bin("ripple")
        .unwrap()
        .args(["diff", "--no-cache", "--color", "never"])
        .arg(dir.path().join("old.c"))
        .arg(dir.path().join("new.c"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("the change is proved equivalent"), "{text}");
    assert!(text.contains("main (distance"), "{text}");
    assert!(text.contains("main: different"), "{text}");
}

/// tiny-regex-c b72898e reduced: the old version includes `<stdlib.h>`, the new one
/// does not, so the two type tables differ; a witness's arguments, made for the old
/// version, were sized by a type id read in the new version's table (a panic, exit
/// 101). gcc: old `first_type(NULL)` dies of SIGSEGV, new returns -1.
#[test]
fn a_witness_replays_on_versions_with_other_headers() {
    let dir = tempfile::tempdir().unwrap();
    let new = "struct rec { unsigned char type; unsigned char ch; };\n\
               int first_type(struct rec *p) {\n    if (p != 0)\n        return p->type == 2 ? 0 : -1;\n    return -1;\n}\n";
    let old = format!(
        "#include <stdlib.h>\n{}",
        new.replace("    if (p != 0)\n        return", "    return")
            .replace("    return -1;\n}", "}")
    );
    let (code, stdout, stderr) = semdiff_sources(dir.path(), &old, new, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("first_type: different"), "{stdout}");
    assert!(stdout.contains("p = NULL"), "{stdout}");
}

/// tiny-regex-c b72898e: a record with an anonymous union member, the same in both
/// versions, but one version includes `<stdlib.h>` (more types before it): the union's
/// number in the type table differs, which made the record "laid out differently" and
/// the verdict unknown. The record is compared by its members: the NULL check the
/// change removes gives a confirmed difference (gcc: old -1, new SIGSEGV).
#[test]
fn an_anonymous_member_is_compared_by_its_members() {
    let dir = tempfile::tempdir().unwrap();
    let old = "typedef struct regex_t {\n  unsigned char type;\n  union {\n    unsigned char ch;\n    unsigned char *ccl;\n  };\n} regex_t;\n\
               int first_type(regex_t *pattern) {\n  if (pattern != 0)\n    return pattern[0].type == 2 ? 0 : -1;\n  return -1;\n}\n";
    let new = format!(
        "#include <stdlib.h>\n{}",
        old.replace("  if (pattern != 0)\n    return", "  return")
            .replace("  return -1;\n}", "}")
    );
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("first_type: different"), "{stdout}");
    assert!(!stdout.contains("laid out differently"), "{stdout}");
}

/// tiny-regex-c 38455e1 gave the anonymous union of `regex_t` a name (`x.ch` became
/// `x.u.ch`); gcc's object code is byte-identical before and after. The bytes are the
/// same members, so the record keeps its layout: `first`, whose text did not change
/// (it copies the record), is proved equivalent and the accessors are the same code
/// after lowering. Renaming a member itself (`ch` to `c`) is another layout: a client
/// setting `.ch` no longer compiles, and bytes prove nothing of names.
#[test]
fn naming_an_anonymous_member_keeps_the_layout() {
    let dir = tempfile::tempdir().unwrap();
    let old = "typedef struct rec {\n  unsigned char type;\n  union {\n    unsigned char ch;\n    unsigned char *ccl;\n  };\n} rec;\n\
               static int one(rec p, char c) { return p.type == 1 ? 1 : (p.ch == c); }\n\
               int first(rec *pattern, const char *text) {\n  if (pattern[0].type == 0)\n    return 1;\n  return one(pattern[0], text[0]);\n}\n\
               void set(rec *r, char c) { r->type = 2; r->ch = c; }\n";
    let new = old
        .replace("  };\n} rec;", "  } u;\n} rec;")
        .replace(".ch", ".u.ch")
        .replace("->ch", "->u.ch");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--color", "never"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("first: equivalent"), "{stdout}");
    assert!(!stdout.contains("laid out differently"), "{stdout}");
    let set = &stdout[stdout.find("set: equivalent").expect(&stdout)..];
    assert!(
        set.contains("the same code after preprocessing and lowering"),
        "{stdout}"
    );

    let dir = tempfile::tempdir().unwrap();
    let renamed = old
        .replace("char ch;", "char c2;")
        .replace(".ch", ".c2")
        .replace("->ch", "->c2");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &renamed, &["--color", "never"]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("rec laid out differently"), "{stdout}");
}

/// The witness of a difference before a pointer argument (sds' header flags: a string
/// of length 255 gets type 2 from `< 0xff`, type 1 from `< 1<<8`) gives the replay and
/// the compiled driver the bytes before the pointer: both versions run to their end
/// and leave `s[-1]` 2 and 1. Before, the replay's object began at the pointer, both
/// runs trapped alike and the difference had no witness.
#[test]
fn a_witness_gives_the_bytes_before_a_pointer_argument() {
    let dir = tempfile::tempdir().unwrap();
    let old = "static char reqtype(unsigned long n) { if (n < 0xff) return 1; return 2; }\n\
               void shrink(char *s, unsigned long len) {\n    s[-1] = reqtype(len);\n}\n";
    let new = old.replace("n < 0xff", "n < 1<<8");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let shrink = &stdout[stdout.find("shrink: different").expect(&stdout)..];
    assert!(shrink.contains("len = 255"), "{stdout}");
    assert!(shrink.contains("witness (output, confirmed"), "{stdout}");
    assert!(shrink.contains("s[-1] = 0x2"), "{stdout}");
    assert!(shrink.contains("s[-1] = 0x1"), "{stdout}");
}

/// A difference behind a pointer member of an argument (zlib's `strm->state`, whose
/// `state->back` must point back to `strm`): the witness reads the object the member
/// points to from the model and links it, so the replays run on it. With mode 7 and
/// have 4, the old version returns 1 (`have > 3`) and the new 0 (`have > 4`); `bump`
/// leaves `have` one or two past what it was given. Before, the member pointed
/// nowhere in the replay: "no witness". gcc builds of both, with `strm->state` a
/// real `struct st` whose `back` is `strm`, give the same results.
#[test]
fn a_witness_follows_pointer_members_of_its_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let old = "struct st { int mode; int have; struct strm *back; };\n\
               typedef struct strm { struct st *state; int avail; } strm_t;\n\
               int check(strm_t *strm) {\n    struct st *s;\n    \
               if (strm == 0 || strm->state == 0) return -1;\n    s = strm->state;\n    \
               if (s->back != strm) return -2;\n    \
               if (s->mode == 7 && s->have > 3) return 1;\n    return 0;\n}\n\
               void bump(strm_t *strm) { strm->state->have += 1; }\n";
    let new = old
        .replace("s->have > 3", "s->have > 4")
        .replace("have += 1", "have += 2");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let check = &stdout[stdout.find("check: different").expect(&stdout)..];
    assert!(check.contains("witness (output, confirmed"), "{stdout}");
    assert!(
        check.contains("*strm->state = {.mode = 7, .have = 4, .back = strm}"),
        "{stdout}"
    );
    assert!(check.contains("old: returned 1"), "{stdout}");
    assert!(check.contains("new: returned 0"), "{stdout}");
    let bump = &stdout[stdout.find("bump: different").expect(&stdout)..];
    assert!(bump.contains("witness (output, confirmed"), "{stdout}");
    assert!(bump.contains("*strm->state = {"), "{stdout}");
    // The compiled drivers lay the same objects out and link them.
    assert!(
        check.contains("witness (output, confirmed on the compiled versions)"),
        "{stdout}"
    );
    // A new version with more types before its own (a header included) finds the
    // object's type by the member that points to it.
    let dir = tempfile::tempdir().unwrap();
    let new = format!("#include <stdlib.h>\n{new}");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &["--color", "never"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let check = &stdout[stdout.find("check: different").expect(&stdout)..];
    assert!(
        check.contains("witness (output, confirmed on the compiled versions)"),
        "{stdout}"
    );
    assert!(check.contains("new: returned 0"), "{stdout}");
}

#[test]
fn a_return_type_of_other_signedness_returns_other_values() {
    // jsmn d0664f9's shape: the return type `unsigned` (an enum of positive values, as
    // gcc lays it out) became `int`. The same bits are 4294967295 to the old callers and
    // -1 to the new ones (gcc: `f(x) < 0` is 0, then 1). Compared as bits, the pair was
    // "equivalent" where no concrete run happened on the one input that differs.
    let dir = tempfile::tempdir().unwrap();
    let old = "unsigned f(unsigned x)\n{\n    return (x ^ (x >> 7)) == 0x5a5a5a5au ? 0xffffffffu : 0u;\n}\n";
    let new = "int f(unsigned x)\n{\n    return (x ^ (x >> 7)) == 0x5a5a5a5au ? -1 : 0;\n}\n";
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &["--full-summary"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("f: different"), "{stdout}");
    assert!(
        stdout.contains("differs when:          x == 1525646672"),
        "{stdout}"
    );
    assert!(stdout.contains("old: returned 4294967295"), "{stdout}");
    // A `double` and a `long` of the same bits are other values too: 1.0 is not
    // 4607182418800017408.
    let old = "double g(int x)\n{\n    return x ? 1.0 : 0.0;\n}\n";
    let new = "long g(int x)\n{\n    return x ? 4607182418800017408L : 0;\n}\n";
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &["--full-summary"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("differs when:          true"), "{stdout}");
    // Of one signedness and two widths, the same numbers are still equal.
    let old = "short h(short x)\n{\n    return x;\n}\n";
    let new = "int h(short x)\n{\n    return x;\n}\n";
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, new, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("h: equivalent"), "{stdout}");
}

#[test]
fn a_difference_on_the_shortest_path_is_found_when_the_exploration_runs_out() {
    // jsmn edd7518's shape: `count` starts at the parser's `next` instead of 0, so the
    // versions differ whenever the main loop does not run (gcc: 0, then 2, with `pos >=
    // len` and `next = 2`). The loop's eight ways per iteration exhaust the exploration
    // at unwinding bound 5: it went into the loop first and took the whole phase, so the
    // path that never enters it was not explored, nor anything compared ("unknown").
    // Paths that leave a loop now come first, and each version's exploration leaves
    // part of the phase to the comparison.
    let dir = tempfile::tempdir().unwrap();
    let old = OLD_TOKENIZER;
    let new = old.replace("    int count = 0;", "    int count = p->next;");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("parse: different"), "{stdout}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
}

const OLD_TOKENIZER: &str = r#"struct parser { unsigned pos; int next; int super; };
struct tok { int type; int start; int end; int size; };

static struct tok *alloc_tok(struct parser *p, struct tok *toks, unsigned n)
{
    if ((unsigned)p->next >= n)
        return 0;
    struct tok *t = &toks[p->next++];
    t->start = t->end = -1;
    t->size = 0;
    return t;
}

int parse(struct parser *p, const char *js, unsigned len, struct tok *toks, unsigned n)
{
    int count = 0;
    int i;
    for (; p->pos < len && js[p->pos] != '\0'; p->pos++) {
        char c = js[p->pos];
        struct tok *t;
        switch (c) {
        case '{': case '[':
            count++;
            if (toks == 0)
                break;
            t = alloc_tok(p, toks, n);
            if (t == 0)
                return -1;
            if (p->super != -1)
                toks[p->super].size++;
            t->type = c == '{' ? 1 : 2;
            t->start = p->pos;
            p->super = p->next - 1;
            break;
        case '}': case ']':
            if (toks == 0)
                break;
            for (i = p->next - 1; i >= 0; i--) {
                t = &toks[i];
                if (t->start != -1 && t->end == -1) {
                    if (t->type != (c == '}' ? 1 : 2))
                        return -2;
                    p->super = -1;
                    t->end = p->pos + 1;
                    break;
                }
            }
            if (i == -1)
                return -2;
            break;
        case ':':
            p->super = p->next - 1;
            break;
        case '\t': case '\r': case '\n': case ' ':
            break;
        default:
            count++;
            break;
        }
    }
    if (toks != 0) {
        for (i = p->next - 1; i >= 0; i--)
            if (toks[i].start != -1 && toks[i].end == -1)
                return -3;
    }
    return count;
}
"#;

#[test]
fn a_parser_difference_shows_on_a_short_text_with_its_end() {
    // picohttpparser 3d506cc's shape: a parser of `buf` up to `buf_end` whose versions
    // differ only when the text ends with a space seen and a count above 2 (gcc: -2,
    // then -3 on " " with `*count = 4`). Four separate bytes and an end pointer into
    // another object never reach the end: the search now also tries short texts over
    // the characters the code compares with, each with its end, and the solver's
    // exploration ran out ("unknown").
    let dir = tempfile::tempdir().unwrap();
    let old = OLD_NAME_PARSER;
    let new = old.replace("        return -2;", "        return *count > 2 ? -3 : -2;");
    let (code, stdout, stderr) = semdiff_sources(dir.path(), old, &new, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("name_len: different"), "{stdout}");
    assert!(stdout.contains("buf_end = buf + "), "{stdout}");
    assert!(
        stdout.contains("confirmed on the compiled versions"),
        "{stdout}"
    );
}

const OLD_NAME_PARSER: &str = r#"/* The length of a header name ending at ':': -1 on a line end before it, -2 when the
   text ends first. */
int name_len(const char *buf, const char *buf_end, int *count)
{
    const char *p = buf;
    while (p != buf_end && *p != ':') {
        if (*p == '\r' || *p == '\n')
            return -1;
        if (*p == ' ')
            ++*count;
        p++;
    }
    if (p == buf_end)
        return -2;
    return (int)(p - buf);
}
"#;
