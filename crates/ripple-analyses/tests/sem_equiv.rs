//! SEM-DCIA's statement equivalences (`ripple_analyses::sem_equiv`): changed straight-line
//! code proved to do what the old code did, and look-alikes that must not be.
//!
//! Each case is one function `f` in two versions; the expected answer is reasoned in a
//! comment (and, for the differences, a state on which the versions differ is named).

use ripple_analyses::sem_equiv::{default_budget, statement_equivalences};
use ripple_versions::{match_programs, MatchConfig};

/// For the changes between `old` and `new` (C functions, with the declarations `decls`
/// before them): how many were proved equivalent, and how many compared without a proof.
fn proved(decls: &str, old: &str, new: &str) -> (usize, usize) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{decls}\n{body}\n")).unwrap();
        ripple_conformance::lower_file(&path, name)
    };
    let (old, new) = (write("old.c", old), write("new.c", new));
    let matching = match_programs(&old, &new, &MatchConfig::default());
    assert!(
        matching.changed().next().is_some(),
        "the versions differ somewhere"
    );
    let result = statement_equivalences(&old, &new, &matching, None, default_budget());
    (result.proved.len(), result.not_proved)
}

fn equivalent(decls: &str, old: &str, new: &str) {
    let (yes, no) = proved(decls, old, new);
    assert!(
        yes > 0 && no == 0,
        "not proved equivalent ({yes} proved, {no} not):\n{old}\n---\n{new}"
    );
}

/// The change was compared (so the test is not vacuous) and not proved.
fn not_equivalent(decls: &str, old: &str, new: &str) {
    let (yes, no) = proved(decls, old, new);
    assert!(
        yes == 0 && no > 0,
        "{yes} proved, {no} not:\n{old}\n---\n{new}"
    );
}

#[test]
fn identities_and_strength_reduction_are_equivalent() {
    // x ^ 0 == x, x * 2 == x + x == x << 1 in wrapping arithmetic.
    equivalent(
        "",
        "int f(int a) { int y; y = a * 2; return y ^ 1; }",
        "int f(int a) { int y; y = (a + a) ^ 0; return y ^ 1; }",
    );
    equivalent(
        "",
        "unsigned f(unsigned a) { unsigned y; y = a * 8u; return y; }",
        "unsigned f(unsigned a) { unsigned y; y = a << 3; return y; }",
    );
}

#[test]
fn an_extracted_temporary_is_equivalent() {
    // The new temporary s is read only by the next statement, which computes the old y.
    equivalent(
        "",
        "int f(int a, int b, int c) { int y; y = (a + b) * c; return y; }",
        "int f(int a, int b, int c) { int y; int s = a + b; y = s * c; return y; }",
    );
}

#[test]
fn independent_statements_reordered_are_equivalent() {
    // p[0] and p[1] are distinct bytes of memory whatever p is.
    equivalent(
        "",
        "void f(char *p, char v, char w) { p[0] = v; p[1] = w; }",
        "void f(char *p, char v, char w) { p[1] = w; p[0] = v; }",
    );
}

#[test]
fn stores_through_two_pointers_do_not_commute() {
    // p == q: old leaves 2, new leaves 1.
    not_equivalent(
        "",
        "void f(int *p, int *q) { *p = 1; *q = 2; }",
        "void f(int *p, int *q) { *q = 2; *p = 1; }",
    );
}

#[test]
fn a_truncation_that_drops_the_same_bits_is_equivalent() {
    // (unsigned char)(x + 256) == (unsigned char)x: 256 is a multiple of 2^8.
    equivalent(
        "",
        "int f(int x) { unsigned char c; c = (unsigned char)(x + 256); return c; }",
        "int f(int x) { unsigned char c; c = (unsigned char)x; return c; }",
    );
}

#[test]
fn adding_zero_to_a_double_is_not_an_identity() {
    // d = -0.0: -0.0 + 0.0 is +0.0, whose bits differ (printf shows "0" and "-0").
    not_equivalent(
        "",
        "double f(double d) { double r; r = d; return r; }",
        "double f(double d) { double r; r = d + 0.0; return r; }",
    );
}

#[test]
fn multiplying_a_quotient_by_zero_is_not_zero() {
    // b == 0: the old version traps on the division, the new one returns 0.
    not_equivalent(
        "",
        "int f(int a, int b) { int z; z = (a / b) * 0; return z; }",
        "int f(int a, int b) { int z; z = 0; return z; }",
    );
}

#[test]
fn dropping_a_load_is_not_equivalent() {
    // p invalid: *p faults in the old version only.
    not_equivalent(
        "",
        "int f(int *p) { int z; z = *p * 0; return z; }",
        "int f(int *p) { int z; z = 0; return z; }",
    );
}

#[test]
fn a_call_with_equal_arguments_is_equivalent_and_a_trap_may_not_cross_it() {
    // g(a * 2) and g(a << 1) pass the same value with the same memory.
    equivalent(
        "void g(int);",
        "int f(int a) { int r; r = a + 1; g(a * 2); return r; }",
        "int f(int a) { int r; r = 1 + a; g(a << 1); return r; }",
    );
    // b == 0: the old version traps before g runs (g may print), the new one after.
    not_equivalent(
        "void g(int);",
        "int f(int a, int b) { int z; z = a / b; g(a); return z; }",
        "int f(int a, int b) { int z; g(a); z = a / b; return z; }",
    );
}

#[test]
fn a_changed_argument_with_the_same_value_is_equivalent() {
    // Only the argument differs: (x | 0) is x.
    equivalent(
        "int g(int, int);",
        "int f(int x, int y) { return g(x, y) + 1; }",
        "int f(int x, int y) { return g(x | 0, y) + 1; }",
    );
    // y + 1 differs from y everywhere.
    not_equivalent(
        "int g(int, int);",
        "int f(int x, int y) { return g(x, y) + 1; }",
        "int f(int x, int y) { return g(x, y + 1) + 1; }",
    );
}

/// `if (COND)\n g(1);\n else\n g(2);` on lines of their own, so that the calls are
/// mapped and only the condition's line differs.
fn branch(cond: &str, first: i32, second: i32) -> String {
    format!("void f(int a, int b) {{\n  if ({cond})\n    g({first});\n  else\n    g({second});\n}}")
}

#[test]
fn a_condition_rewritten_goes_the_same_way() {
    // a < b is b > a.
    equivalent(
        "void g(int);",
        &branch("a < b", 1, 2),
        &branch("b > a", 1, 2),
    );
    // a == b: a < b is false, a <= b true.
    not_equivalent(
        "void g(int);",
        &branch("a < b", 1, 2),
        &branch("a <= b", 1, 2),
    );
}

#[test]
fn two_locals_of_one_name_are_not_one_object() {
    // The inner x shadows the outer one: old returns the outer x[0] (1), new returns 0.
    // Every statement differs in writing, so the whole body is one region; giving both
    // arrays one address would make the inner store overwrite the outer one, and prove
    // the versions equal.
    not_equivalent(
        "",
        "int f(void) { int y; int x[1]; x[0] = 1; { int x[1]; x[0] = 0; } y = x[0]; return y; }",
        "int f(void) { int y; int x[1]; x[0] = 1 | 0; { int x[1]; x[0] = 0 + 0; } y = 0; return y; }",
    );
}

#[test]
fn storing_back_what_was_loaded_may_fault() {
    // p may point to read-only memory (a string literal): the old store faults there,
    // while the memory the two versions leave is the same (both statements of the old
    // version changed, so that the load is part of the comparison).
    not_equivalent(
        "",
        "void f(char *p) { char t; t = *p + 0; *p = t; }",
        "void f(char *p) { char t; t = *p | 0; }",
    );
}

#[test]
fn a_change_after_a_join_is_compared_from_both_branches() {
    // The changed line follows an if-else: it is entered from both branches, which are
    // the same in both versions.
    let body = |last: &str| {
        format!("int f(int a) {{\n  int r;\n  if (a)\n    r = 1;\n  else\n    r = 2;\n  {last}\n  return r;\n}}")
    };
    equivalent("", &body("r = r * 2;"), &body("r = r + r;"));
    not_equivalent("", &body("r = r * 2;"), &body("r = r + 2;"));
}

#[test]
fn registers_of_one_name_are_paired_by_rank() {
    // Two `i` registers (one per block). The change rewrites a statement of the second
    // block (`i + i` for `i * 2`): the same value, so the region is equivalent. Before
    // registers were paired by their rank among those of one name, this was never
    // compared.
    equivalent(
        "",
        "int f(int a) { int s = 0; { int i = a; s += i; } { int i = a + 1; s += i * 2; } return s; }",
        "int f(int a) { int s = 0; { int i = a; s += i; } { int i = a + 1; s += i + i; } return s; }",
    );
    // The same rewrite, but the new version reads the first block's `i` (1 less): the
    // ranks tell the two registers apart, so this must not be proved.
    not_equivalent(
        "",
        "int f(int a) { int s = 0; int i = a; s += i; { int i = a + 1; s += i * 2; } return s; }",
        "int f(int a) { int s = 0; int i = a; s += i; { int j = a + 1; s += i + i; j = j; } return s; }",
    );
}

#[test]
fn a_name_declared_more_often_in_one_version_is_not_paired() {
    // New declares a third `i`, so the ranks of the two versions need not correspond:
    // the region reading `i` must not assume old's and new's `i` registers equal.
    // Old returns a + 1 (the second `i`), new returns a + 2 (its third); the second
    // statement of each rewrites `s = i` as `s = i + 0`, which holds only for the
    // register it names.
    not_equivalent(
        "",
        "int f(int a) { int s; { int i = a; s = i; } { int i = a + 1; s = i; } return s; }",
        "int f(int a) { int s; { int i = a; s = i; } { int i = a + 1; s = i; } { int i = a + 2; s = i + 0; } return s; }",
    );
}

#[test]
fn renamed_locals_are_paired_and_a_swap_is_not_taken_for_one() {
    // t -> first, u -> second: no old name is left in the new version, so they pair in
    // declaration order. The call to g, unchanged, splits the change in two places:
    // the first leaves `first` live (equal to t: a + a == a * 2), the second reads it.
    // Without the pairing, neither place is proved.
    equivalent(
        "void g(void);",
        "int f(int a, int b) { int t = a * 2; int u = b; g(); return t - u; }",
        "int f(int a, int b) { int first = a + a; int second = b; g(); return first - second; }",
    );
    // Declared in the same order but used the other way round: new returns b - a where
    // old returns a - b (a = 1, b = 0 gives 1 against -1); the pairing by declaration
    // order must not prove it.
    not_equivalent(
        "",
        "int f(int a, int b) { int t = a; int u = b; return t - u; }",
        "int f(int a, int b) { int first = b; int second = a; return first - second; }",
    );
}

#[test]
fn wide_types_are_not_computed_narrow() {
    // u * 2^32 * 2^32 in 128 bits has u as its high half: a shift by 64 of a 128-bit
    // value is not the shift by 0 that masking the count to 6 bits made it.
    equivalent(
        "",
        "unsigned long f(unsigned long u) { unsigned long r; r = (unsigned long)(((unsigned __int128)u * 4294967296UL * 4294967296UL) >> 64); return r; }",
        "unsigned long f(unsigned long u) { unsigned long r; r = u; return r; }",
    );
    // In long double, d + 1 - 1 keeps d (1e-17 has the 64-bit significand's room); in
    // double, the sum rounds to 1 and the result is 0. The solver computes long double
    // as double, so such a change is not proved.
    not_equivalent(
        "",
        "double f(double d) { double r; r = (double)(((long double)d + 1.0L) - 1.0L); return r; }",
        "double f(double d) { double r; r = (d + 1.0) - 1.0; return r; }",
    );
}

#[test]
fn a_record_copy_is_compared_only_when_small() {
    // The copy through `p` and the register `t` are independent, so the order does not
    // matter. A record of 16 bytes is compared byte by byte; one of 2,048 bytes is past
    // what the proofs copy (each byte a term: zlib's 64 KiB `zip64_internal` took
    // gigabytes), so that change stays a source, compared without a proof.
    let (old, new) = (
        "int f(struct s *p, struct s *q, int v) { int t; t = v + 1; *p = *q; return t; }",
        "int f(struct s *p, struct s *q, int v) { int t; *p = *q; t = v + 1; return t; }",
    );
    equivalent("struct s { char b[16]; };", old, new);
    not_equivalent("struct s { char b[2048]; };", old, new);
}
