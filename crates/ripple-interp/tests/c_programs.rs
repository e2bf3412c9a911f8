//! Runs small C programs through GCC and through the frontend plus the interpreter, and
//! demands the same stdout and exit code.

use ripple_conformance::{compile, gcc_available, lower_file, run_native, Run};
use ripple_interp::{run_program, RunConfig, Termination};

/// Compiles and runs `source` both ways and compares.
fn check(name: &str, source: &str, stdin: &[u8]) {
    assert!(
        gcc_available(),
        "gcc is the oracle of these tests and must be installed"
    );
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let exe = dir.path().join(name);
    compile(&c, &exe).unwrap_or_else(|e| panic!("{name}: {e}"));
    let run = Run {
        stdin: stdin.to_vec(),
        ..Run::default()
    };
    let native = run_native(&exe, &run).unwrap_or_else(|e| panic!("{name}: {e}"));
    let program = lower_file(&c, &format!("{name}.c"));
    let config = RunConfig {
        stdin: stdin.to_vec(),
        ..RunConfig::default()
    };
    let outcome = run_program(&program, &config);
    if let Termination::Trap { .. } | Termination::Unsupported { .. } | Termination::StepLimit =
        outcome.termination
    {
        panic!(
            "{name}: {:?}\nstdout so far:\n{}",
            outcome.termination,
            String::from_utf8_lossy(&outcome.stdout)
        );
    }
    assert_eq!(
        String::from_utf8_lossy(&outcome.stdout),
        String::from_utf8_lossy(&native.stdout),
        "{name}: stdout differs"
    );
    assert_eq!(
        outcome.exit_code(),
        Some(native.exit_code),
        "{name}: exit code differs"
    );
}

/// Negative literals, `INT_MIN`, `EOF` and glibc's ctype macros (which index a table
/// with the enum constant `_ISdigit`), written as programs usually write them.
#[test]
fn negative_literals_limits_and_ctype_macros() {
    check(
        "literals",
        r#"
#include <stdio.h>
#include <ctype.h>
#include <limits.h>
int main(void) {
    int a = -7, b = INT_MIN, c = EOF;
    long d = LONG_MIN;
    int digits = 0, spaces = 0;
    for (const char *p = "a1 b2\t-3"; *p; p++) {
        digits += isdigit((unsigned char)*p) != 0;
        spaces += isspace((unsigned char)*p) != 0;
    }
    printf("%d %d %d %ld %d %d %d\n", a, b, c, d, digits, spaces, toupper('q'));
    return a < 0 ? 3 : 0;
}
"#,
        b"",
    );
}

#[test]
fn arithmetic_and_printf() {
    check(
        "arith",
        r#"
#include <stdio.h>
#include <limits.h>
int main(void) {
    int a = INT_MAX; a = a + 1;
    unsigned u = 3; u = u - 5;
    long l = -(7); short s = (short)70000; signed char c = (signed char)200;
    printf("%d %u %ld %d %d\n", a, u, l / 2, s, c);
    printf("%d %d %d %d\n", -(7) / 2, -(7) % 2, 7 >> 1, -(8) >> 1);
    printf("%x %o %lx %llu\n", 255u, 8, 1ul << 40, 18446744073709551615ull);
    double d = 1.0 / 3.0; float f = 1.0f / 3.0f;
    printf("%f %.10f %e %g %g\n", d, f, d * 1e10, 1e-5, 123456789.0);
    printf("%5.2f|%-8.3e|%+d|% d|%05d\n", 3.14159, 2.5, 5, 5, 42);
    printf("%c%c%c %s %.2s %10s|\n", 'a', 98, 'c', "str", "abc", "pad");
    unsigned char uc = 250; uc += 10;
    printf("%d %d %d\n", uc, (int)3.99, (int)-3.99);
    printf("%lu %zu\n", sizeof(long), sizeof(int[10]));
    return a < 0 ? 7 : 0;
}
"#,
        b"",
    );
}

#[test]
fn control_flow_and_recursion() {
    check(
        "control",
        r#"
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long fact(long n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main(void) {
    int i, s = 0;
    for (i = 0; i < 10; i++) { if (i % 3 == 0) continue; if (i == 8) break; s += i; }
    int j = 0; while (j < 5) j += 2; do { j--; } while (j > 3);
    switch (s) { case 1: puts("one"); break; case 19: puts("nineteen"); /* fall */ case 20: puts("twenty"); break; default: puts("other"); }
    printf("%d %d %d %ld\n", s, j, fib(20), fact(15));
    int x = 5; int y = x++; y += ++x; printf("%d %d\n", x, y);
    int t = (x > 3 && y < 100) || (x / 0 == 1);
    printf("%d\n", t);
    return fib(10);
}
"#,
        b"",
    );
}

#[test]
fn arrays_pointers_structs() {
    check(
        "structs",
        r#"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct point { int x, y; };
struct rect { struct point a, b; char name[8]; };
typedef struct node { int v; struct node *next; } node;
static struct point add(struct point p, struct point q) { struct point r = { p.x + q.x, p.y + q.y }; return r; }
static int area(const struct rect *r) { return (r->b.x - r->a.x) * (r->b.y - r->a.y); }
int grid[3][4];
int main(void) {
    struct rect r = { {1, 2}, {4, 6}, "box" };
    struct rect copy = r; copy.a.x = 0;
    struct point p = add(r.a, r.b);
    printf("%d %d %s %d %d %d\n", area(&r), area(&copy), copy.name, p.x, p.y, (int)sizeof r);
    int a[5] = {5, 4, 3, 2, 1}; int *q = a + 1;
    printf("%d %d %ld\n", q[2], *(a + 4), (long)(&a[4] - q));
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) grid[i][j] = i * j;
    printf("%d\n", grid[2][3]);
    node *head = NULL;
    for (int i = 0; i < 5; i++) { node *n = malloc(sizeof *n); n->v = i * i; n->next = head; head = n; }
    int sum = 0; while (head) { node *n = head; sum += n->v; head = n->next; free(n); }
    char buf[32]; strcpy(buf, "hello"); strcat(buf, ", world");
    printf("%d %s %zu %d\n", sum, buf, strlen(buf), strcmp("abc", "abd") < 0);
    union { int i; unsigned char b[4]; } u; u.i = 0x01020304;
    printf("%d %d\n", u.b[0], u.b[3]);
    struct { unsigned a : 3; signed b : 5; unsigned c : 1; } bf = { 5, -(3), 1 };
    bf.a += 4;
    printf("%u %d %u\n", bf.a, bf.b, bf.c);
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn varargs_and_function_pointers() {
    check(
        "varargs",
        r#"
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
static int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
static double avg(int n, ...) { va_list ap; va_start(ap, n); double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s / n; }
static void logf_(const char *fmt, ...) { va_list ap; va_start(ap, fmt); printf("[log] "); vprintf(fmt, ap); va_end(ap); }
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(void) {
    int (*ops[2])(int) = { twice, square };
    printf("%d %.3f %d %d\n", sum(4, 1, 2, 3, 4), avg(3, 1.0, 2.0, 4.0), ops[0](5), ops[1](5));
    logf_("%s=%d %c\n", "x", 42, 'z');
    char buf[64]; int n = snprintf(buf, 8, "%d-%d", 12345, 67890);
    printf("%d %s\n", n, buf);
    sprintf(buf, "%08.3f|%-6s|", -3.14159, "ab"); puts(buf);
    int arr[] = { 9, 3, 7, 1, 8, 2 };
    qsort(arr, 6, sizeof arr[0], cmp);
    for (int i = 0; i < 6; i++) printf("%d ", arr[i]);
    putchar('\n');
    int key = 7; int *found = bsearch(&key, arr, 6, sizeof arr[0], cmp);
    printf("%ld\n", found ? (long)(found - arr) : -(1L));
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn stdin_and_parsing() {
    check(
        "stdin",
        r#"
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
int main(void) {
    int a, b; char word[16]; double d;
    if (scanf("%d %d %15s %lf", &a, &b, word, &d) != 4) return 1;
    printf("%d %s %.2f\n", a + b, word, d * 2);
    int c, digits = 0, alpha = 0, spaces = 0;
    while ((c = getchar()) >= 0) { if ((isdigit)(c)) digits++; else if ((isalpha)(c)) alpha++; else if ((isspace)(c)) spaces++; }
    printf("%d %d %d\n", digits, alpha, spaces);
    printf("%d %ld %.3f %lu\n", atoi(" -42x"), strtol("0x1f", NULL, 16), atof("2.5e1"), strtoul("777", NULL, 8));
    char *end; long v = strtol("123abc", &end, 10); printf("%ld %s\n", v, end);
    char s[] = "a,b;;c"; for (char *t = strtok(s, ",;"); t; t = strtok(NULL, ",;")) printf("<%s>", t);
    printf(" %c%c %d\n", toupper('q'), tolower('Q'), sscanf("7 x", "%d %d", &a, &b));
    return a;
}
"#,
        b"3 4 hello 1.25\nabc 123 \n",
    );
}

#[test]
fn math_functions() {
    check(
        "math",
        r#"
#include <stdio.h>
#include <math.h>
int main(void) {
    double x = 2.0;
    printf("%.17g %.17g %.17g %.17g\n", sqrt(x), pow(x, 0.5), sin(1.0), exp(1.0));
    printf("%.17g %.17g %.17g %g %g\n", log(10.0), atan2(1.0, 2.0), fmod(7.5, 2.0), floor(-2.5), ceil(-2.5));
    printf("%g %g %ld %g %g\n", round(2.5), trunc(-2.7), lround(-2.5), fabs(-3.0), hypot(3, 4));
    float f = sqrtf(2.0f);
    printf("%.9g %.9g\n", f, powf(2.0f, 0.3f));
    double inf = 1.0 / 0.0; printf("%f %f %d\n", inf, -inf, isnan(0.0 / 0.0));
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn assert_aborts() {
    check(
        "assert",
        r#"
#include <stdio.h>
#include <assert.h>
int main(void) {
    printf("before\n");
    fflush(stdout);
    printf("lost in the buffer\n");
    int x = 3;
    assert(x == 4);
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn exit_and_globals() {
    check(
        "exitcode",
        r#"
#include <stdio.h>
#include <stdlib.h>
int counter = 10;
static const char *names[] = { "zero", "one", "two" };
static int table[4] = { 1, 2 };
static void bye(void) { printf("bye %d\n", counter); }
static void bump(int *p) { (*p)++; }
int main(int argc, char **argv) {
    atexit(bye);
    bump(&counter);
    printf("%s %s %d %d %d\n", names[1], names[2], table[1], table[3], argc);
    static int calls; calls++;
    if (counter > 5) exit(counter + 300);
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn struct_values_statics_goto_and_strings() {
    check(
        "misc",
        r#"#include <stdio.h>
#include <string.h>
#include <stdlib.h>
typedef struct { char name[12]; int age; double score; } rec;
static rec make(const char *n, int a) { rec r; strncpy(r.name, n, sizeof r.name); r.age = a; r.score = a * 1.5; return r; }
struct ops { int (*f)(int); const char *label; };
static int inc(int x) { return x + 1; }
static int counter(void) { static int n; return ++n; }
int main(void) {
    rec r = make("alice", 30);
    printf("%s %d %.1f\n", r.name, r.age, r.score);
    struct ops o = { inc, "inc" };
    printf("%s %d\n", o.label, o.f(41));
    counter(); counter(); printf("%d\n", counter());
    unsigned long long big = 0xffffffffffffffffULL; big /= 3;
    long long m = 123456789012LL * 1000;
    printf("%llu %lld %u %d\n", big, m, 4000000000u / 7u, (char)300);
    double x = 1e300; float f = (float)x; int n = (int)2.9e9; unsigned u = (unsigned)3e9;
    printf("%f %d %u %ld\n", f, n, u, (long)-(2.5));
    int cnt; printf("abc%nxyz\n", &cnt); printf("%d\n", cnt);
    int i = 0; again: i++; if (i < 5) goto again; printf("%d\n", i);
    char s[20]; int k = sscanf("  42abc 3.5", "%d%3s %f", &i, s, &f); printf("%d %d %s %g\n", k, i, s, f);
    char *dup = strdup("copy"); printf("%s %p\n", dup, (void*)0); free(dup);
    printf("%s %s %d\n", strchr("hello", 'l'), strrchr("hello", 'l'), (int)strcspn("abc,d", ","));
    long t = 0; for (long j = 0; j < 300000; j++) t += j & 7; printf("%ld\n", t);
    return 0;
}
"#,
        b"",
    );
}

#[test]
fn struct_passing_va_copy_fgets_and_vla() {
    check(
        "lines",
        r#"#include <stdio.h>
#include <stdarg.h>
#include <string.h>
struct big { long a, b, c; };
static struct big mk(long x) { struct big b = { x, x * 2, x * 3 }; return b; }
static long total(struct big b) { return b.a + b.b + b.c; }
static void vout(const char *fmt, va_list ap) { vprintf(fmt, ap); }
static void out(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vout(fmt, ap); va_end(ap); }
static int count(const char *fmt, ...) { va_list ap, aq; va_start(ap, fmt); va_copy(aq, ap); int a = va_arg(ap, int); int b = va_arg(aq, int); va_end(aq); va_end(ap); return a + b; }
int main(void) {
    struct big b = mk(5);
    printf("%ld %ld\n", total(b), total(mk(7)));
    out("%d-%s-%.2f\n", 1, "two", 3.0);
    printf("%d\n", count("", 21));
    char line[64]; 
    while (fgets(line, sizeof line, stdin)) { line[strcspn(line, "\n")] = 0; printf("[%s]\n", line); }
    int vla_n = 5; int vla[vla_n]; for (int i = 0; i < vla_n; i++) vla[i] = i * i; printf("%d\n", vla[4]);
    float fs[3] = {1.5f, 2.25f, 3.0f}; float acc = 0; for (int i = 0; i < 3; i++) acc += fs[i] * 2;
    printf("%.3f %g\n", acc, (double)(fs[1] / 3));
    char c = 'A'; c += 200; unsigned char uc = c; printf("%d %d %d\n", c, uc, c >> 1);
    short sh = -(1); unsigned short us = sh; printf("%d %d %u\n", sh, us, (unsigned)sh);
    return 0;
}
"#,
        b"first line\nsecond\n",
    );
}

/// getopt's messages on stderr are glibc's (stdout and exit codes are checked on the
/// corpus program `prog_getopt.c`).
#[test]
fn getopt_messages_are_glibcs() {
    let source = r#"
#include <getopt.h>
#include <stdio.h>
int main(int argc, char **argv) {
    static struct option longopts[] = {
        {"verbose", no_argument, NULL, 'v'}, {"verbatim", required_argument, NULL, 'b'},
        {"name", required_argument, NULL, 'N'}, {0, 0, 0, 0},
    };
    argv[0] = "prog";
    int c;
    while ((c = getopt_long(argc, argv, "vn:", longopts, NULL)) != -1)
        printf("%c %s\n", c, optarg ? optarg : "-");
    return optind;
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("getopt_messages.c");
    std::fs::write(&c, source).unwrap();
    let exe = dir.path().join("getopt_messages");
    compile(&c, &exe).unwrap();
    let program = lower_file(&c, "getopt_messages.c");
    for args in [
        "-x --verb --bogus=1 -n",
        "--verbose=2 --name",
        "--nam -q x -- -v",
    ] {
        let args: Vec<String> = args.split(' ').map(String::from).collect();
        let native = std::process::Command::new(&exe)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let config = RunConfig {
            args,
            ..RunConfig::default()
        };
        let outcome = run_program(&program, &config);
        assert_eq!(
            String::from_utf8_lossy(&outcome.stderr),
            String::from_utf8_lossy(&native.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&outcome.stdout),
            String::from_utf8_lossy(&native.stdout)
        );
        assert_eq!(outcome.exit_code(), native.status.code());
    }
}

/// `(T)(*(p->f))(x)` and `(T)(p->f)(x)`: the grammar reads the cast `(T)(...)` as a call
/// and calls its result; C calls the function and casts what it returns.
#[test]
fn casts_of_calls_through_parenthesized_pointers() {
    check(
        "cast_call",
        r#"
#include <stdio.h>
typedef unsigned char u8;
typedef long (*tell_fn)(void *);
struct ops { tell_fn tell; void *opaque; };
static long tell(void *p) { return 0x1234 + *(int *)p; }
int main(void) {
    int base = 3;
    struct ops o = { tell, &base };
    struct ops *p = &o;
    u8 a = (u8)(*(p->tell))(p->opaque);
    u8 b = (u8)(p->tell)(p->opaque);
    unsigned long c = (unsigned long)(u8)(*p->tell)(p->opaque);
    (void)(p->tell)(p->opaque);
    printf("%d %d %lu\n", a, b, c);
    return 0;
}
"#,
        b"",
    );
}

/// A clone of a laid-out program is a run of its own: calls on clones of one template
/// start from the initial globals, as a fresh interpreter does, whatever ran before on
/// another clone.
#[test]
fn a_clone_starts_from_the_template_state() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("counter.c");
    std::fs::write(
        &c,
        "static int table[4] = {5, 6, 7, 8};\nint bump(int i) { table[i & 3] += 10; return table[i & 3]; }\n",
    )
    .unwrap();
    let program = lower_file(&c, "counter.c");
    let bump = program
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "bump")
        .map(|(id, _)| id)
        .unwrap();
    let template = ripple_interp::Interpreter::new(&program, &RunConfig::default()).unwrap();
    let call = |mut interpreter: ripple_interp::Interpreter<'_>| {
        let out = interpreter.call(
            bump,
            &[ripple_interp::Value::Int(2)],
            &mut ripple_interp::NoObserver,
        );
        format!("{:?}", out.result)
    };
    let mut used = template.clone();
    let first = call(template.clone());
    // The same call twice on one interpreter sees its own earlier write.
    used.call(
        bump,
        &[ripple_interp::Value::Int(2)],
        &mut ripple_interp::NoObserver,
    );
    let again = call(used);
    let fresh = call(ripple_interp::Interpreter::new(&program, &RunConfig::default()).unwrap());
    assert_eq!(first, fresh);
    assert_ne!(first, again);
    assert_eq!(call(template.clone()), fresh);
}

/// `strncpy` writes exactly `n` bytes: with `n` as large as `SIZE_MAX` into a block of
/// none (`calloc(n + 1, 1)` wrapped to 0 bytes), the run traps at the write (undefined
/// behaviour) instead of the interpreter making an `n`-byte buffer (parson 5edab75's
/// `parson_strndup`, which a witness search called with such an `n`).
#[test]
fn strncpy_past_its_destination_traps() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("dupn.c");
    std::fs::write(
        &c,
        "#include <stdlib.h>\n#include <string.h>\n#include <stdint.h>\n\
         char *dupn(const char *s, size_t n) {\n  char *out = calloc(n + 1, 1);\n  \
         strncpy(out, s, n);\n  return out;\n}\n\
         int main(void) { return dupn(\"ab\", SIZE_MAX) != 0; }\n",
    )
    .unwrap();
    let program = lower_file(&c, "dupn.c");
    let outcome = run_program(&program, &RunConfig::default());
    assert!(
        matches!(outcome.termination, Termination::Trap { .. }),
        "{:?}",
        outcome.termination
    );
}

/// Bulk memory work counts toward the step limit before it is done: a 1 MB `memset` is
/// 16,384 steps (64 bytes a step), past a limit of 1,000, where one node would be one.
#[test]
fn bulk_memory_work_counts_toward_the_step_limit() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("fill.c");
    std::fs::write(
        &c,
        "#include <string.h>\nstatic char big[1 << 20];\n\
         int main(void) { memset(big, 1, sizeof big); return big[5]; }\n",
    )
    .unwrap();
    let program = lower_file(&c, "fill.c");
    let small = RunConfig {
        max_steps: 1_000,
        ..RunConfig::default()
    };
    assert_eq!(
        run_program(&program, &small).termination,
        Termination::StepLimit
    );
    let outcome = run_program(&program, &RunConfig::default());
    assert_eq!(outcome.exit_code(), Some(1));
}
