#!/usr/bin/env python3
"""Precision of `ripple impact` on seeded one-statement changes of a real C program.

Picks COUNT one-token mutations (an integer constant changed, `+` for `-`, `<` for
`<=`) on lines inside function bodies of the program's C files, with a fixed seed, so
that the same command always makes the same changes, spread over the files. For each,
the changed file is written into a copy of the tree and `ripple impact OLD NEW --format
json` runs; the script prints one Markdown row per change (file, line, mutation,
impacted lines and functions, seconds) and the distribution (median, quartiles).

With `--kind rewrite`, the changes are instead rewrites of an assignment alone on its
line (`x = e;`) that keep its meaning: `x = (e) | 0;`, or `x = (e) + 0;` where `| 0`
does not compile (pointers; for a double, `+ 0` is not an identity on -0.0), kept only
if gcc accepts the file (`-fsyntax-only`, with the tree's directory as include path);
`--kind rewrite-plus-one` makes `x = (e) + 1;` at the same sites, which changes
behaviour. The rows then also give the changed lines (0: the line is not compiled) and
the equivalences ripple proved.

Usage: scripts/seeded-changes.py SRC_DIR_OR_FILE [--count 30] [--seed 1]
       [--kind token|rewrite|rewrite-plus-one] [--ripple target/release/ripple]
       [--exclude NAME ...] [-- RIPPLE_ARGS...]
"""

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MUTATIONS = [
    # (name, pattern, replacement): applied to the first match on the line.
    ("constant", re.compile(r"(?<![\w.])([1-9]\d?)(?![\w.])"), lambda m: str(int(m.group(1)) + 1)),
    ("plus-minus", re.compile(r"(?<=\w) \+ (?=\w)"), lambda m: " - "),
    ("less-equal", re.compile(r"(?<=\w) < (?=\w)"), lambda m: " <= "),
]


def candidate_lines(path):
    """Lines inside function bodies (brace depth >= 1 after a top-level `)`-ended
    header), not preprocessor lines or comments, where some mutation applies."""
    out = []
    depth = 0
    in_comment = False
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        stripped = line.strip()
        if in_comment:
            if "*/" in stripped:
                in_comment = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_comment = True
            continue
        if stripped.startswith("#") or stripped.startswith("//") or stripped.startswith("*"):
            continue
        code = re.sub(r'"([^"\\]|\\.)*"', '""', line)
        code = re.sub(r"'([^'\\]|\\.)*'", "''", code)
        code = re.sub(r"/\*.*?\*/", "", code)
        if depth >= 1 and ";" in code:
            for name, pattern, _ in MUTATIONS:
                if pattern.search(code):
                    out.append((number, name))
        depth += code.count("{") - code.count("}")
        depth = max(depth, 0)
    return out


ASSIGNMENT = re.compile(r"^(\s*)([A-Za-z_][\w\[\]\.>\-]*) = ([^;=]+);\s*$")


def rewrite_lines(path):
    """Lines inside function bodies holding one plain assignment `x = e;`."""
    out = []
    depth = 0
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        code = re.sub(r"/\*.*?\*/", "", line)
        m = ASSIGNMENT.match(code)
        if depth >= 1 and m and '"' not in code and "'" not in code and "=" not in m.group(3):
            if not any(t in m.group(3) for t in ("++", "--", "?")):
                out.append((number, "rewrite"))
        if not code.strip().startswith("#"):
            depth += code.count("{") - code.count("}")
            depth = max(depth, 0)
    return out


def rewrites(line, kind):
    """The candidate rewrites of an assignment line, best first."""
    m = ASSIGNMENT.match(re.sub(r"/\*.*?\*/", "", line))
    indent, lhs, rhs = m.group(1), m.group(2), m.group(3).strip()
    if kind == "rewrite-plus-one":
        return [f"{indent}{lhs} = ({rhs}) + 1;\n"]
    return [f"{indent}{lhs} = ({rhs}) | 0;\n", f"{indent}{lhs} = ({rhs}) + 0;\n"]


def compiles(path, include):
    return subprocess.run(
        ["gcc", "-fsyntax-only", "-w", "-I", str(include), str(path)],
        capture_output=True,
    ).returncode == 0


def mutate(line, name):
    for n, pattern, replacement in MUTATIONS:
        if n == name:
            return pattern.sub(replacement, line, count=1)
    raise ValueError(name)


def quartiles(values):
    if len(values) < 2:
        return (values[0], values[0], values[0]) if values else (0, 0, 0)
    q = statistics.quantiles(values, n=4, method="inclusive")
    return (q[0], statistics.median(values), q[2])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ripple", default=str(Path(__file__).parent.parent / "target/release/ripple"))
    parser.add_argument("--exclude", nargs="*", default=[])
    parser.add_argument("--kind", choices=["token", "rewrite", "rewrite-plus-one"], default="token")
    parser.add_argument("ripple_args", nargs="*")
    # Everything after `--` goes to ripple (argparse would take `--points-to ...` there
    # for options of its own).
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: len(argv) - len(extra) - (1 if extra else 0)])
    args.ripple_args += extra
    source = Path(args.source).resolve()
    files = [source] if source.is_file() else sorted(
        p for p in source.glob("*.c") if p.name not in args.exclude
    )
    rng = random.Random(args.seed)
    lister = candidate_lines if args.kind == "token" else rewrite_lines
    per_file = {f: lister(f) for f in files}
    files = [f for f in files if per_file[f]]
    picks = []
    seen = set()
    # Round-robin over a shuffled list of files, so the changes spread over them.
    order = files[:]
    rng.shuffle(order)
    while len(picks) < args.count and order:
        for f in list(order):
            if len(picks) >= args.count:
                break
            choices = [c for c in per_file[f] if (f, c[0]) not in seen]
            if not choices:
                order.remove(f)
                continue
            number, name = rng.choice(choices)
            seen.add((f, number))
            picks.append((f, number, name))
    if args.kind == "token":
        print("| file | line | mutation | impacted lines | functions | seconds |")
        print("|---|---:|---|---:|---:|---:|")
    else:
        print("| file | line | change | changed lines | proved | impacted lines | functions | seconds |")
        print("|---|---:|---|---:|---:|---:|---:|---:|")
    lines_all, functions_all = [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old_root = source if source.is_dir() else source.parent
        new_root = tmp / "new"
        shutil.copytree(old_root, new_root, symlinks=True,
                        ignore=shutil.ignore_patterns(*args.exclude))
        old_arg = str(source)
        for f, number, name in picks:
            rel = f.relative_to(old_root)
            text = f.read_text(errors="replace").splitlines(keepends=True)
            original = text[number - 1]
            target = new_root / rel
            if args.kind == "token":
                text[number - 1] = mutate(original, name)
                target.write_text("".join(text))
            else:
                for candidate in rewrites(original, args.kind):
                    text[number - 1] = candidate
                    target.write_text("".join(text))
                    if compiles(target, f.parent):
                        break
                else:
                    target.write_text("".join(f.read_text(errors="replace").splitlines(keepends=True)))
                    print(f"| {rel} | {number} | does not compile | | | | | |")
                    continue
                name = text[number - 1].strip()
            new_arg = str(target) if source.is_file() else str(new_root)
            start = time.time()
            result = subprocess.run(
                [args.ripple, "impact", old_arg, new_arg, "--format", "json", *args.ripple_args],
                capture_output=True, text=True,
            )
            elapsed = time.time() - start
            target.write_text("".join(f.read_text(errors="replace").splitlines(keepends=True)))
            try:
                report = json.loads(result.stdout)
                summary = report["summary"]
            except (ValueError, KeyError):
                print(f"| {rel} | {number} | {name} | error (exit {result.returncode}) | | {elapsed:.1f} |")
                continue
            lines = summary["impacted_lines"]
            functions = len(summary["impacted_functions"])
            lines_all.append(lines)
            functions_all.append(functions)
            if args.kind == "token":
                print(f"| {rel} | {number} | {name} | {lines} | {functions} | {elapsed:.1f} |")
            else:
                proved = len(report.get("equivalences", []))
                changed = summary["changed_lines"]
                shown = name.replace("|", "\\|")
                print(f"| {rel} | {number} | `{shown}` | {changed} | {proved} | {lines} | {functions} | {elapsed:.1f} |")
            sys.stdout.flush()
    q1, med, q3 = quartiles(lines_all)
    f1, fmed, f3 = quartiles(functions_all)
    print()
    print(f"changes {len(lines_all)}; impacted lines: quartiles {q1:.0f} / median {med:.0f} / {q3:.0f}; "
          f"impacted functions: {f1:.0f} / {fmed:.0f} / {f3:.0f}")


if __name__ == "__main__":
    main()
