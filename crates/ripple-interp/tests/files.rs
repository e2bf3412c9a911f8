//! The model of files: C programs that open, read, write, seek, remove and rename files
//! run through GCC (in a scratch directory) and through the frontend plus the
//! interpreter (in another scratch directory with the same files); the stdout, the exit
//! code and the files each leaves behind must agree, and the interpreter must leave its
//! directory untouched (what the program writes stays in the run's memory).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ripple_conformance::{compile, gcc_available, lower_file};
use ripple_interp::{Interpreter, NoObserver, RunConfig, RunOutcome, Termination};

/// The regular files under `dir`, by path relative to it.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn populate(dir: &Path, files: &[(&str, &[u8])]) {
    for (name, content) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, content).unwrap();
    }
}

/// Lowers `source` and runs it in the interpreter in a directory holding `files`;
/// checks that the directory is left as it was. Returns the outcome and the files as
/// the run last saw them (relative to the directory).
fn interpret(
    name: &str,
    source: &str,
    files: &[(&str, &[u8])],
    args: &[&str],
    max_memory: Option<u64>,
) -> (RunOutcome, BTreeMap<PathBuf, Vec<u8>>) {
    interpret_with(name, source, files, args, |config| {
        if let Some(max) = max_memory {
            config.max_memory = max;
        }
    })
}

fn interpret_with(
    name: &str,
    source: &str,
    files: &[(&str, &[u8])],
    args: &[&str],
    adjust: impl FnOnce(&mut RunConfig),
) -> (RunOutcome, BTreeMap<PathBuf, Vec<u8>>) {
    let src_dir = tempfile::tempdir().unwrap();
    let c = src_dir.path().join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let program = lower_file(&c, &format!("{name}.c"));
    let work = tempfile::tempdir().unwrap();
    populate(work.path(), files);
    let before = snapshot(work.path());
    let mut config = RunConfig {
        args: args.iter().map(|s| s.to_string()).collect(),
        working_dir: work.path().to_path_buf(),
        max_steps: 5_000_000,
        ..RunConfig::default()
    };
    adjust(&mut config);
    let mut interpreter = Interpreter::new(&program, &config).expect("the interpreter starts");
    let outcome = interpreter.run_main(&mut NoObserver);
    assert_eq!(
        snapshot(work.path()),
        before,
        "{name}: the interpreter changed the real files"
    );
    let root = work.path().canonicalize().unwrap();
    let mut view = before;
    for path in interpreter.removed_files() {
        if let Ok(rel) = path
            .strip_prefix(&root)
            .or_else(|_| path.strip_prefix(work.path()))
        {
            view.remove(rel);
        }
    }
    for (path, data) in interpreter.written_files() {
        let rel = path
            .strip_prefix(&root)
            .or_else(|_| path.strip_prefix(work.path()))
            .unwrap_or_else(|_| panic!("{name}: wrote {} outside its directory", path.display()));
        view.insert(rel.to_path_buf(), data);
    }
    (outcome, view)
}

/// Runs `source` both ways on the same files and arguments and compares stdout, exit
/// code and the resulting files.
fn check(name: &str, source: &str, files: &[(&str, &[u8])], args: &[&str]) {
    assert!(
        gcc_available(),
        "gcc is the oracle of these tests and must be installed"
    );
    let build = tempfile::tempdir().unwrap();
    let c = build.path().join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let exe = build.path().join(name);
    compile(&c, &exe).unwrap_or_else(|e| panic!("{name}: {e}"));
    let native_dir = tempfile::tempdir().unwrap();
    populate(native_dir.path(), files);
    // stdin is an empty pipe, as the interpreter models it.
    let native = Command::new(&exe)
        .args(args)
        .current_dir(native_dir.path())
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    let native_files = snapshot(native_dir.path());

    let (outcome, files_seen) = interpret(name, source, files, args, None);
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
        native.status.code(),
        "{name}: exit code differs"
    );
    assert_eq!(files_seen, native_files, "{name}: the files differ");
}

/// Runs `source` in the interpreter only and returns its outcome.
fn interpret_only(name: &str, source: &str, max_memory: Option<u64>) -> RunOutcome {
    interpret(name, source, &[], &[], max_memory).0
}

fn trap_message(outcome: &RunOutcome) -> &str {
    match &outcome.termination {
        Termination::Trap { message, .. } => message,
        other => panic!("expected a trap, got {other:?}"),
    }
}

#[test]
fn reads_a_real_file_with_every_input_function() {
    check(
        "read_real",
        r#"
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "input.txt", "r");
    if (!f) { puts("no file"); return 1; }
    char line[64];
    int c = fgetc(f);
    printf("first %c, fd %d\n", c, fileno(f));
    c = getc(f);
    printf("second %c\n", c);
    if (fgets(line, sizeof line, f)) printf("rest of line: [%s]\n", line);
    if (fgets(line, 4, f)) printf("three: [%s]\n", line);
    char buf[8] = {0};
    size_t n = fread(buf, 2, 3, f);
    printf("fread %zu items: [%.6s]\n", n, buf);
    int a = 0, b = 0;
    int k = fscanf(f, "%d %d", &a, &b);
    printf("fscanf %d: %d %d, feof %d\n", k, a, b, feof(f));
    while ((c = fgetc(f)) != EOF) putchar(c == '\n' ? '|' : c);
    int at_end = feof(f), err = ferror(f);
    c = getc(f);
    printf("\nfeof %d ferror %d getc again %d\n", at_end, err, c);
    n = fread(buf, 1, sizeof buf, f);
    printf("fread at end %zu\n", n);
    FILE *g = fopen("input.txt", "rb");
    printf("second stream fd %d, same %d\n", fileno(g), f == g);
    int closed_f = fclose(f);
    printf("fclose %d %d\n", closed_f, fclose(g));
    return 0;
}
"#,
        &[(
            "input.txt",
            b"xyz line one\nsecond line\nabcdefgh 12 34\ntail text\nlast without newline",
        )],
        &[],
    );
}

#[test]
fn reads_a_file_named_by_an_argument_in_a_subdirectory() {
    check(
        "read_arg",
        r#"
#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    char line[32];
    int lines = 0;
    while (fgets(line, sizeof line, f)) { lines++; fputs(line, stdout); }
    printf("%d lines\n", lines);
    fclose(f);
    return 0;
}
"#,
        &[("data/in.txt", b"alpha\nbeta\ngamma\n")],
        &["./data/../data/in.txt"],
    );
}

#[test]
fn writes_seeks_and_reads_back() {
    check(
        "write_seek",
        r#"
#include <stdio.h>
#include <string.h>
int main(void) {
    FILE *f = fopen("out.txt", "w+");
    if (!f) return 1;
    fprintf(f, "%s=%d\n", "answer", 42);
    fputs("second line\n", f);
    fputc('Z', f);
    size_t n;
    fwrite("0123456789", 1, 10, f);
    printf("ftell %ld\n", ftell(f));
    printf("fseek set %d\n", fseek(f, 7, SEEK_SET));
    char buf[16] = {0};
    n = fread(buf, 1, 3, f);
    printf("fread %zu [%s] ftell %ld\n", n, buf, ftell(f));
    fseek(f, -4, SEEK_CUR);
    fputs("XY", f);
    fseek(f, -3, SEEK_END);
    memset(buf, 0, sizeof buf);
    n = fread(buf, 1, 10, f);
    printf("fread %zu [%s]\n", n, buf);
    printf("feof %d\n", feof(f));
    int bad = fseek(f, 0, 42);
    printf("bad whence %d, before start %d\n", bad, fseek(f, -100, SEEK_SET));
    rewind(f);
    char line[64];
    while (fgets(line, sizeof line, f)) printf("> %s", line);
    printf("\n");
    /* A hole: seek past the end and write. */
    fseek(f, 5, SEEK_END);
    fputc('!', f);
    fseek(f, 0, SEEK_END);
    printf("size %ld\n", ftell(f));
    fpos_t pos;
    fseek(f, 3, SEEK_SET);
    fgetpos(f, &pos);
    fseek(f, 0, SEEK_END);
    fsetpos(f, &pos);
    long at = ftell(f);
    printf("after fsetpos %ld: %c\n", at, fgetc(f));
    fflush(f);
    fclose(f);
    FILE *g = fopen("out.txt", "r");
    int c, count = 0, zeros = 0;
    while ((c = getc(g)) != EOF) { count++; zeros += c == 0; }
    printf("reread %d bytes, %d zeros\n", count, zeros);
    fclose(g);
    FILE *h = fopen("out.txt", "w");
    fclose(h);
    h = fopen("out.txt", "r");
    printf("truncated: getc %d\n", getc(h));
    fclose(h);
    FILE *k = fopen("kept.bin", "wb");
    unsigned char bytes[4] = {0, 255, 10, 7};
    fwrite(bytes, sizeof bytes, 1, k);
    fclose(k);
    return 0;
}
"#,
        &[],
        &[],
    );
}

#[test]
fn tmpfile_round_trip() {
    check(
        "tmpfile",
        r#"
#include <stdio.h>
#include <string.h>
struct rec { int id; char name[12]; };
int main(void) {
    FILE *t = tmpfile();
    if (!t) return 1;
    long where[3];
    struct rec in[3] = {{1, "one"}, {2, "two"}, {3, "three"}};
    for (int i = 0; i < 3; i++) {
        fseek(t, 0L, SEEK_END);
        where[i] = ftell(t);
        if (fwrite(&in[i], sizeof in[i], 1, t) != 1) return 2;
    }
    for (int i = 2; i >= 0; i--) {
        struct rec r;
        if (fseek(t, where[i], SEEK_SET) != 0) return 3;
        if (fread(&r, sizeof r, 1, t) != 1) return 4;
        printf("%ld: %d %s\n", where[i], r.id, r.name);
    }
    struct rec r;
    size_t got = fread(&r, sizeof r, 1, t);
    printf("past the end: %zu, feof %d\n", got, feof(t));
    clearerr(t);
    printf("after clearerr: feof %d\n", feof(t));
    FILE *u = tmpfile();
    printf("two tmpfiles differ %d, fds %d %d\n", t != u, fileno(t), fileno(u));
    fclose(t);
    fputs("x", u);
    rewind(u);
    printf("u: %c\n", getc(u));
    fclose(u);
    FILE *v = tmpfile();
    printf("fd reused %d\n", fileno(v));
    fclose(v);
    return 0;
}
"#,
        &[],
        &[],
    );
}

#[test]
fn opening_failures_set_errno() {
    check(
        "open_errors",
        r#"
#include <errno.h>
#include <stdio.h>
#include <string.h>
static void try(const char *path, const char *mode) {
    errno = 0;
    FILE *f = fopen(path, mode);
    printf("%s %s: %s (%s)\n", path, mode, f ? "opened" : "NULL", strerror(errno));
    if (f) fclose(f);
}
int main(void) {
    try("missing.txt", "r");
    try("missing.txt", "r+");
    try("nodir/file.txt", "w");
    try("present.txt/below", "r");
    try(".", "w");
    try("present.txt", "q");
    try("", "r");
    try("present.txt", "wx");
    try("new.txt", "wx");
    FILE *d = fopen(".", "r");
    if (d) {
        errno = 0;
        int c = fgetc(d);
        int e = errno;
        printf("directory read %d ferror %d %s\n", c, ferror(d), strerror(e));
        fclose(d);
    }
    return 0;
}
"#,
        &[("present.txt", b"here\n")],
        &[],
    );
}

#[test]
fn append_modes() {
    check(
        "append",
        r#"
#include <stdio.h>
int main(void) {
    FILE *a = fopen("log.txt", "a");
    printf("a: ftell at open %ld\n", ftell(a));
    fputs("two\n", a);
    fseek(a, 0, SEEK_SET);
    fputs("three\n", a);
    printf("a: ftell %ld\n", ftell(a));
    int c = fgetc(a);
    printf("a: read fails %d ferror %d\n", c, ferror(a));
    fclose(a);
    FILE *b = fopen("log.txt", "a+");
    printf("a+: ftell at open %ld\n", ftell(b));
    char line[32];
    if (fgets(line, sizeof line, b)) printf("a+: first line %s", line);
    fputs("four\n", b);
    printf("a+: ftell %ld\n", ftell(b));
    rewind(b);
    int n = 0;
    while (fgets(line, sizeof line, b)) n++;
    printf("a+: %d lines\n", n);
    fclose(b);
    FILE *fresh = fopen("fresh.txt", "a");
    fputs("new\n", fresh);
    fclose(fresh);
    return 0;
}
"#,
        &[("log.txt", b"one\n")],
        &[],
    );
}

#[test]
fn ungetc_on_a_file() {
    check(
        "ungetc_file",
        r#"
#include <stdio.h>
int main(void) {
    FILE *f = fopen("in.txt", "r");
    int c = getc(f);
    printf("read %c, ftell %ld\n", c, ftell(f));
    printf("ungetc %c\n", ungetc('Q', f));
    printf("ftell %ld\n", ftell(f));
    c = getc(f);
    printf("getc %c then %c\n", c, getc(f));
    ungetc('b', f);
    ungetc('a', f);
    char line[16];
    fgets(line, sizeof line, f);
    printf("fgets [%s]\n", line);
    while (getc(f) != EOF) {}
    printf("feof %d\n", feof(f));
    ungetc('z', f);
    int at_end = feof(f);
    c = getc(f);
    printf("after ungetc feof %d, getc %c, getc %d\n", at_end, c, getc(f));
    ungetc('y', f);
    fseek(f, 0, SEEK_SET);
    printf("fseek drops it: %c\n", getc(f));
    ungetc('7', f);
    int n = 0;
    fscanf(f, "%d", &n);
    printf("fscanf %d\n", n);
    printf("ungetc EOF %d\n", ungetc(EOF, f));
    fclose(f);
    return 0;
}
"#,
        &[("in.txt", b"12345\nend\n")],
        &[],
    );
}

#[test]
fn update_mode_overwrites_in_place() {
    check(
        "update",
        r#"
#include <stdio.h>
int main(void) {
    FILE *f = fopen("data.txt", "r+");
    if (!f) return 1;
    char buf[8] = {0};
    fread(buf, 1, 4, f);
    printf("[%s]\n", buf);
    fseek(f, 0, SEEK_CUR);
    fputs("XX", f);
    fseek(f, 0, SEEK_SET);
    int c;
    while ((c = fgetc(f)) != EOF) putchar(c);
    fclose(f);
    return 0;
}
"#,
        &[("data.txt", b"abcdefgh\n")],
        &[],
    );
}

#[test]
fn remove_unlink_and_rename() {
    check(
        "rename",
        r#"
#include <errno.h>
#include <stdio.h>
#include <string.h>
static void show(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { printf("%s: %s\n", path, strerror(errno)); return; }
    char line[32] = "";
    if (!fgets(line, sizeof line, f)) strcpy(line, "(empty)\n");
    printf("%s: %s", path, line);
    fclose(f);
}
int main(void) {
    FILE *f = fopen("made.txt", "w");
    fputs("made\n", f);
    fclose(f);
    printf("rename %d\n", rename("made.txt", "moved.txt"));
    show("made.txt");
    show("moved.txt");
    printf("rename real %d\n", rename("real.txt", "real2.txt"));
    show("real.txt");
    show("real2.txt");
    printf("rename over %d\n", rename("moved.txt", "real2.txt"));
    show("real2.txt");
    errno = 0;
    int r = rename("nothing", "x");
    printf("rename missing %d %s\n", r, strerror(errno));
    FILE *open_one = fopen("other.txt", "r");
    printf("remove %d\n", remove("other.txt"));
    show("other.txt");
    char line[32] = "";
    fgets(line, sizeof line, open_one);
    printf("still open: %s", line);
    fclose(open_one);
    errno = 0;
    r = remove("other.txt");
    printf("remove again %d %s\n", r, strerror(errno));
    errno = 0;
    r = unlink("sub");
    printf("unlink dir %d %s\n", r, strerror(errno));
    printf("unlink %d\n", unlink("sub/inner.txt"));
    show("sub/inner.txt");
    f = fopen("other.txt", "w");
    fputs("again\n", f);
    fclose(f);
    show("other.txt");
    return 0;
}
"#,
        &[
            ("real.txt", b"real\n"),
            ("other.txt", b"other\n"),
            ("sub/inner.txt", b"inner\n"),
        ],
        &[],
    );
}

#[test]
fn error_indicators_and_sticky_end_of_file() {
    check(
        "indicators",
        r#"
#include <errno.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    FILE *r = fopen("in.txt", "r");
    errno = 0;
    int c = fputc('x', r);
    int e = errno;
    printf("fputc on r: %d ferror %d %s\n", c, ferror(r), strerror(e));
    int p = fputs("x", r);
    int q = fprintf(r, "y");
    printf("fputs on r: %d fprintf %d fwrite %zu\n", p, q, fwrite("z", 1, 1, r));
    clearerr(r);
    printf("after clearerr %d\n", ferror(r));
    FILE *w = fopen("out.txt", "w");
    c = fgetc(w);
    printf("fgetc on w: %d ferror %d\n", c, ferror(w));
    char line[8];
    printf("fgets on w: %s\n", fgets(line, sizeof line, w) ? "line" : "NULL");
    /* End of file is sticky until clearerr, even when the file grows. */
    FILE *a = fopen("grow.txt", "w+");
    FILE *b = fopen("grow.txt", "r");
    c = getc(b);
    printf("empty: %d feof %d\n", c, feof(b));
    fputs("more", a);
    fflush(a);
    printf("still at end: %d\n", getc(b));
    clearerr(b);
    printf("after clearerr: %c\n", getc(b));
    fclose(a);
    fclose(b);
    fclose(r);
    fclose(w);
    return 0;
}
"#,
        &[("in.txt", b"abc\n")],
        &[],
    );
}

#[test]
fn fscanf_and_fprintf_on_files() {
    check(
        "fscanf_file",
        r#"
#include <stdio.h>
int main(void) {
    FILE *in = fopen("nums.txt", "r");
    FILE *out = fopen("sums.txt", "w");
    int a, b, n = 0;
    while (fscanf(in, "%d %d", &a, &b) == 2) {
        fprintf(out, "%d + %d = %d\n", a, b, a + b);
        n++;
    }
    printf("%d pairs, feof %d\n", n, feof(in));
    char word[16];
    rewind(in);
    printf("word %d", fscanf(in, "%15s", word));
    printf(" [%s] ftell %ld\n", word, ftell(in));
    fclose(in);
    fclose(out);
    out = fopen("sums.txt", "r");
    char line[32];
    while (fgets(line, sizeof line, out)) fputs(line, stdout);
    fclose(out);
    return 0;
}
"#,
        &[("nums.txt", b"1 2\n30 40\n-5 5\n")],
        &[],
    );
}

#[test]
fn standard_streams_keep_their_behaviour() {
    check(
        "std_streams",
        r#"
#include <errno.h>
#include <stdio.h>
int main(void) {
    printf("fileno %d %d %d\n", fileno(stdin), fileno(stdout), fileno(stderr));
    errno = 0;
    long t = ftell(stdout);
    printf("ftell stdout %ld %d\n", t, errno == ESPIPE);
    printf("ferror %d feof %d\n", ferror(stdout), feof(stdout));
    fprintf(stderr, "to stderr\n");
    fflush(stdout);
    fclose(stdin);
    FILE *f = fopen("x.txt", "w");
    printf("lowest fd %d\n", fileno(f));
    fclose(f);
    return 0;
}
"#,
        &[],
        &[],
    );
}

#[test]
fn a_closed_or_foreign_stream_is_a_trap() {
    let closed = interpret_only(
        "closed",
        r#"
#include <stdio.h>
int main(void) {
    FILE *f = tmpfile();
    fclose(f);
    return fputc('x', f);
}
"#,
        None,
    );
    assert!(trap_message(&closed).contains("closed by fclose"));

    let foreign = interpret_only(
        "foreign",
        r#"
#include <stdio.h>
int main(void) {
    char buf[216];
    return fgetc((FILE *)buf);
}
"#,
        None,
    );
    assert!(trap_message(&foreign).contains("not a FILE pointer"));

    let null = interpret_only(
        "null_stream",
        r#"
#include <stdio.h>
int main(void) {
    FILE *f = fopen("surely-missing-file.txt", "r");
    return fgetc(f);
}
"#,
        None,
    );
    assert!(trap_message(&null).contains("null FILE pointer"));

    let stdout_closed = interpret_only(
        "stdout_closed",
        r#"
#include <stdio.h>
int main(void) {
    fclose(stdout);
    printf("lost\n");
    return 0;
}
"#,
        None,
    );
    assert!(trap_message(&stdout_closed).contains("after fclose(stdout)"));
}

#[test]
fn file_sizes_count_against_the_memory_limit() {
    let outcome = interpret_only(
        "big",
        r#"
#include <stdio.h>
int main(void) {
    static char block[4096];
    FILE *f = tmpfile();
    for (int i = 0; i < 1000; i++) fwrite(block, 1, sizeof block, f);
    printf("wrote\n");
    return 0;
}
"#,
        Some(1 << 20),
    );
    assert!(trap_message(&outcome).contains("memory limit"));

    let far = interpret_only(
        "far_seek",
        r#"
#include <stdio.h>
int main(void) {
    FILE *f = tmpfile();
    fseek(f, 1L << 40, SEEK_SET);
    fputc('x', f);
    return 0;
}
"#,
        None,
    );
    assert!(trap_message(&far).contains("memory limit"));
}

#[test]
fn runs_are_deterministic_and_see_their_own_writes() {
    let source = r#"
#include <stdio.h>
int main(void) {
    FILE *f = fopen("state.txt", "r");
    int n = 0;
    if (f) { fscanf(f, "%d", &n); fclose(f); }
    f = fopen("state.txt", "w");
    fprintf(f, "%d\n", n + 1);
    fclose(f);
    f = fopen("state.txt", "r");
    fscanf(f, "%d", &n);
    fclose(f);
    printf("%d\n", n);
    return 0;
}
"#;
    let files: &[(&str, &[u8])] = &[("state.txt", b"41\n")];
    let (first, seen) = interpret("state", source, files, &[], None);
    let (second, _) = interpret("state", source, files, &[], None);
    assert_eq!(first.stdout, b"42\n");
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(seen[Path::new("state.txt")], b"42\n");
}

#[test]
fn terminal_stat_signal_and_setjmp_calls() {
    check(
        "environment",
        r#"
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
static jmp_buf env;
static void on_int(int sig) { (void)sig; longjmp(env, 1); }
int main(void) {
    FILE *f = fopen("data.txt", "r");
    printf("isatty %d %d %d %d\n", isatty(0), isatty(1), isatty(2), isatty(fileno(f)));
    errno = 0;
    int t = isatty(99);
    printf("isatty(99) %d %s\n", t, strerror(errno));
    struct winsize ws;
    errno = 0;
    int r = ioctl(0, TIOCGWINSZ, &ws);
    printf("ioctl %d %s\n", r, strerror(errno));
    struct stat st;
    r = fstat(0, &st);
    printf("fstat stdin %d fifo %d reg %d\n", r, S_ISFIFO(st.st_mode) != 0,
           S_ISREG(st.st_mode) != 0);
    r = fstat(fileno(f), &st);
    printf("fstat file %d reg %d size %ld\n", r, S_ISREG(st.st_mode) != 0, (long)st.st_size);
    errno = 0;
    r = fstat(42, &st);
    printf("fstat bad %d %s\n", r, strerror(errno));
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    printf("member %d %d\n", sigismember(&set, SIGINT), sigismember(&set, SIGHUP));
    sigdelset(&set, SIGINT);
    int bad = sigaddset(&set, 0);
    printf("after del %d, bad signal %d %d\n", sigismember(&set, SIGINT), bad, sigaddset(&set, 33));
    sigfillset(&set);
    printf("full: %d %d\n", sigismember(&set, SIGTERM), sigismember(&set, SIGKILL));
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_int;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;
    printf("sigaction %d\n", sigaction(SIGINT, &act, &old));
    printf("old default %d\n", old.sa_handler == SIG_DFL);
    sigaction(SIGINT, 0, &old);
    printf("installed %d restart %d\n", old.sa_handler == on_int, (old.sa_flags & SA_RESTART) != 0);
    printf("internal signal %d\n", sigaction(32, &act, 0));
    signal(SIGUSR1, SIG_IGN);
    sigaction(SIGUSR1, 0, &old);
    printf("signal(): ignored %d restart %d masks itself %d\n", old.sa_handler == SIG_IGN,
           (old.sa_flags & SA_RESTART) != 0, sigismember(&old.sa_mask, SIGUSR1));
    printf("sigaction SIGKILL %d\n", sigaction(SIGKILL, &act, 0));
    void (*prev)(int) = signal(SIGQUIT, SIG_IGN);
    printf("signal %d then %d\n", prev == SIG_DFL, signal(SIGQUIT, SIG_DFL) == SIG_IGN);
    sigset_t block, was;
    sigemptyset(&block);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, 0);
    sigprocmask(SIG_UNBLOCK, &set, &was);
    printf("was blocked %d %d\n", sigismember(&was, SIGHUP), sigismember(&was, SIGINT));
    printf("pathconf %ld %ld\n", pathconf("/", _PC_PATH_MAX), pathconf(".", _PC_NAME_MAX));
    int status = setjmp(env);
    if (status == 0) printf("setjmp returned 0\n");
    else printf("came back %d\n", status);
    if (!setjmp(env)) printf("again 0\n");
    fclose(f);
    return 0;
}
"#,
        &[("data.txt", b"12345")],
        &[],
    );
}

#[test]
fn longjmp_is_unsupported_and_stdin_may_be_a_file() {
    let (outcome, _) = interpret(
        "longjmp",
        r#"
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
int main(void) {
    if (setjmp(env) == 0) { printf("first\n"); longjmp(env, 1); }
    printf("second\n");
    return 0;
}
"#,
        &[],
        &[],
        None,
    );
    assert_eq!(outcome.stdout, b"first\n");
    match outcome.termination {
        Termination::Unsupported { what } => assert!(what.contains("longjmp"), "{what}"),
        other => panic!("expected unsupported, got {other:?}"),
    }

    let source = r#"
#include <stdio.h>
#include <sys/stat.h>
int main(void) {
    struct stat st;
    fstat(0, &st);
    printf("%d %ld\n", S_ISREG(st.st_mode) != 0, (long)st.st_size);
    return 0;
}
"#;
    let (pipe, _) = interpret_with("stdin_kind", source, &[], &[], |config| {
        config.stdin = b"abc\n".to_vec();
    });
    assert_eq!(pipe.stdout, b"0 0\n");
    let (file, _) = interpret_with("stdin_kind", source, &[], &[], |config| {
        config.stdin = b"abc\n".to_vec();
        config.stdin_is_file = true;
    });
    assert_eq!(file.stdout, b"1 4\n");
}
