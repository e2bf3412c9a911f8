#!/usr/bin/env python3
"""Checks the corpus with gcc alone: every program compiles without warnings and
gives the same stdout and exit code at -O0, at -O2 and under ASan/UBSan, for every
run its RUN lines declare (see README.md). Usage: check-gcc.py [NAME.c ...]"""
import os, subprocess, sys, tempfile, re

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["-std=gnu11", "-fwrapv", "-fno-strict-aliasing", "-Wall", "-Wextra"]
SUBDIRS = ["classic", "larger"]  # as CORPUS_SUBDIRS in crates/ripple-conformance
ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "0": "\0"}


def tokens(s):
    """Whitespace-separated words; "..." inside a word is literal with C escapes.
    Yields (raw, value)."""
    i, n = 0, len(s)
    while True:
        while i < n and s[i].isspace():
            i += 1
        if i >= n:
            return
        start, val = i, []
        while i < n and not s[i].isspace():
            if s[i] == '"':
                i += 1
                while i < n and s[i] != '"':
                    if s[i] == "\\" and i + 1 < n:
                        c = s[i + 1]
                        if c == "x":
                            val.append(chr(int(s[i + 2:i + 4], 16)))
                            i += 4
                            continue
                        val.append(ESC[c])
                        i += 2
                    else:
                        val.append(s[i])
                        i += 1
                if i >= n:
                    raise ValueError("unterminated quote")
                i += 1
            else:
                val.append(s[i])
                i += 1
        yield s[start:i], "".join(val)


def runs(path):
    out = []
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^// RUN:(.*)$", line.rstrip("\n"))
        if not m:
            continue
        args, stdin, mode = [], b"", None
        for raw, val in tokens(m.group(1)):
            if raw.startswith("args="):
                mode = "args"
                if raw != "args=":
                    args.append(val[5:])
            elif raw.startswith("stdin="):
                mode = None
                if raw[6:].startswith('"'):
                    stdin = val[6:].encode("latin-1")
                else:
                    stdin = open(os.path.join(os.path.dirname(path), val[6:]), "rb").read()
            elif mode == "args":
                args.append(val)
            else:
                raise ValueError(f"{path}: bad RUN token {raw!r}")
        out.append((args, stdin))
    return out or [([], b"")]


def cflags(path):
    """Extra gcc flags from the file's `// CFLAGS:` lines."""
    return [w for line in open(path, encoding="utf-8") if line.startswith("// CFLAGS:")
            for w in line[len("// CFLAGS:"):].split()]


def run(exe, args, stdin, env=None):
    p = subprocess.run([exe] + args, input=stdin, capture_output=True, timeout=20, env=env)
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return p.stdout, code, p.stderr


def main():
    show = "--show" in sys.argv
    if show:
        sys.argv.remove("--show")
    dirs = [HERE] + [os.path.join(HERE, d) for d in SUBDIRS]
    files = sys.argv[1:] or sorted(os.path.join(d, f) for d in dirs for f in os.listdir(d) if f.endswith(".c"))
    bad = 0
    nruns = 0
    tmp = tempfile.mkdtemp()
    for f in files:
        name = os.path.basename(f)[:-2]
        lines = sum(1 for _ in open(f))
        first = open(f).readline()
        problems = []
        # Classic programs are larger and count their header too; the larger ones are
        # one file of 500-900 lines.
        low, high = 20, 120
        home = os.path.basename(os.path.dirname(os.path.abspath(f)))
        if home == "larger":
            low, high = 500, 900
        elif home in SUBDIRS:
            low, high = 200, 600
            header = f[:-2] + ".h"
            if os.path.exists(header):
                lines += sum(1 for _ in open(header))
        if not (low <= lines <= high):
            problems.append(f"{lines} lines")
        if not first.startswith("//") or first.startswith("// RUN"):
            problems.append("no leading description comment")
        exes = {}
        for tag, extra in [("O0", ["-O0"]), ("O2", ["-O2"]), ("san", ["-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"])]:
            exe = os.path.join(tmp, f"{name}.{tag}")
            p = subprocess.run(["gcc"] + FLAGS + cflags(f) + extra + [f, "-o", exe, "-lm"], capture_output=True, text=True)
            if p.returncode != 0 or p.stderr.strip():
                problems.append(f"gcc {tag}: {p.stderr.strip()[:600]}")
                break
            exes[tag] = exe
        if len(exes) == 3:
            env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
            for args, stdin in runs(f):
                nruns += 1
                o0 = run(exes["O0"], args, stdin)
                o2 = run(exes["O2"], args, stdin)
                sa = run(exes["san"], args, stdin, env)
                if show:
                    print(f"--- {name} args={args} stdin={stdin[:40]!r} exit={o0[1]}")
                    sys.stdout.write(o0[0].decode(errors="replace"))
                if o0[:2] != o2[:2]:
                    problems.append(f"args={args}: -O0 and -O2 differ (exit {o0[1]} vs {o2[1]})")
                if o0[:2] != sa[:2]:
                    problems.append(f"args={args}: sanitizer run differs (exit {sa[1]}): {sa[2].decode(errors='replace')[:400]}")
                if not o0[0]:
                    problems.append(f"args={args}: empty stdout")
        if problems:
            bad += 1
            print(f"FAIL {name}: " + "; ".join(problems))
    print(f"{len(files)} programs, {nruns} runs, {bad} with problems")
    sys.exit(1 if bad else 0)


main()
