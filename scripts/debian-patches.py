#!/usr/bin/env python3
"""Checks `ripple diff` on a Debian package: upstream against the tree with Debian's
patches applied, with one compilation database made from the upstream tree.

    scripts/debian-patches.py [PACKAGE] [--work DIR] [--ripple BIN] [--markdown]

Fetches the package's source (`apt-get source`, bookworm; needs deb-src and root, as on
the machines ripple is developed and benchmarked on), builds a copy of the upstream tree
once under `bear` (./configure; make -k) for its compile_commands.json, then:

1. reads both versions with that database (`ripple stats`): the errors per version must
   be zero;
2. lists the functions the patches touch, independently of ripple: every line a patch
   adds or removes in a C file the build compiles, kept only where the preprocessor keeps
   it (gcc -E with the file's flags from the database), inside the function that encloses
   it (GNU-style definitions: the name at the start of a line, the body between a `{` and
   a `}` at the start of lines);
3. compares that list with the functions `ripple diff --only changes` reports changed.

Exit status 0 when the errors are zero and the two lists are equal. `--markdown` prints
the lists as the table recorded in docs/debian-patches.md.
"""
import argparse
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def fetch(package, work):
    """The patched tree and the pristine upstream tree of `package` under `work`."""
    patched, orig = os.path.join(work, package), os.path.join(work, package + ".orig")
    if os.path.isdir(patched) and os.path.isdir(orig):
        return patched, orig
    sources = "/etc/apt/sources.list.d/deb-src.sources"
    if not any("deb-src" in open(f).read() for f in glob.glob("/etc/apt/sources.list.d/*") + ["/etc/apt/sources.list"] if os.path.isfile(f)):
        with open(sources, "w") as f:
            f.write("Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n"
                    "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
        run(["apt-get", "update", "-qq"])
    if shutil.which("dpkg-source") is None:
        run(["apt-get", "install", "-y", "-qq", "dpkg-dev"])
    scratch = os.path.join(work, "fetch")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    run(["apt-get", "source", "-qq", package], cwd=scratch)
    tree = next(d for d in sorted(os.listdir(scratch)) if os.path.isdir(os.path.join(scratch, d)))
    shutil.move(os.path.join(scratch, tree), patched)
    tarball = next(t for t in sorted(glob.glob(os.path.join(scratch, "*.orig.tar.*")))
                   if not t.endswith((".asc", ".sig")))
    os.makedirs(orig)
    run(["tar", "-xf", tarball, "-C", orig, "--strip-components=1"])
    shutil.rmtree(scratch)
    return patched, orig


def build_database(orig, work):
    """compile_commands.json of a copy of the upstream tree built under bear."""
    build = os.path.join(work, os.path.basename(orig) + ".build")
    database = os.path.join(build, "compile_commands.json")
    if os.path.isfile(database):
        return database
    if shutil.which("bear") is None:
        run(["apt-get", "install", "-y", "-qq", "bear"])
    shutil.rmtree(build, ignore_errors=True)
    shutil.copytree(orig, build, symlinks=True)  # copy2 keeps the times make relies on
    run(["./configure"], cwd=build)
    subprocess.run(["bear", "--", "make", "-k"], cwd=build, capture_output=True)
    return database


def functions(path):
    """(name, first line, last line) of the GNU-style function definitions of a file."""
    lines = open(path, errors="replace").read().split("\n")
    found, i = [], 0
    header = re.compile(r"^(?!(?:if|while|for|switch|return|else|do|typedef)\b)[A-Za-z_][\w\s\*]*\(")
    while i < len(lines):
        m = header.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            j = i
            while j < len(lines) and j < i + 20 and not lines[j].startswith("{"):
                if j > i and lines[j][:1] not in ("", " ", "\t", "#") and not lines[j].startswith("{"):
                    break
                j += 1
            if j < len(lines) and lines[j].startswith("{"):
                k = j + 1
                while k < len(lines) and not lines[k].startswith("}"):
                    k += 1
                # `name DC_DECLARG((args))`: an upper-case argument-list macro follows the name.
                words = re.findall(r"[A-Za-z_]\w*", lines[i][: lines[i].index("(")])
                name = words[-2] if len(words) > 1 and words[-1].isupper() else words[-1]
                found.append((name, i + 1, k + 1))
                i = k + 1
                continue
        i += 1
    return found


def active_lines(path, entry):
    """The lines of `path` that hold code after preprocessing with the flags of its
    database entry (not comments, directives or branches the build leaves out): each
    line of a scratch copy starts with a marker word, and the markers gcc -E keeps are
    the lines kept."""
    args = entry.get("arguments") or entry["command"].split()
    flags, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-c", "-o"):
            skip = a == "-o"
            continue
        if a.endswith(".c"):
            continue
        flags.append(a)
    marked, directive = [], False
    for n, line in enumerate(open(path, errors="replace").read().split("\n"), 1):
        directive = directive or line.lstrip().startswith("#")
        marked.append(line if directive else f"__rpl{n}__ {line}")
        directive = directive and line.endswith("\\")
    copy = os.path.join(os.path.dirname(path), ".ripple-check-" + os.path.basename(path))
    with open(copy, "w") as f:
        f.write("\n".join(marked))
    try:
        out = run(["gcc", "-E", *flags, "-I" + os.path.dirname(path), copy], cwd=entry["directory"]).stdout
    finally:
        os.remove(copy)
    return {int(n) for n in re.findall(r"__rpl(\d+)__", out)}


def changed_macros(path, lines):
    """Names of the macros whose `#define` (with its continuation lines) holds one of
    `lines`."""
    text = open(path, errors="replace").read().split("\n")
    names = set()
    for n in lines:
        i = n - 1
        while i > 0 and text[i - 1].endswith("\\"):
            i -= 1
        m = re.match(r"^\s*#\s*define\s+([A-Za-z_]\w*)", text[i]) if i < len(text) else None
        if m:
            names.add(m.group(1))
    return names


def patch_lines(patch):
    """{file: (removed old lines, added new lines)} of a unified diff (paths less one
    leading component)."""
    out, old, new, target = {}, 0, 0, None
    for text in open(patch, errors="replace"):
        if text.startswith("+++ "):
            name = text[4:].split("\t")[0].strip()
            target = name.split("/", 1)[1] if "/" in name else name
            out.setdefault(target, (set(), set()))
        elif text.startswith("@@"):
            m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)", text)
            old, new = int(m.group(1)), int(m.group(2))
        elif target and text.startswith("-") and not text.startswith("---"):
            out[target][0].add(old)
            old += 1
        elif target and text.startswith("+"):
            out[target][1].add(new)
            new += 1
        elif target and text.startswith(" "):
            old += 1
            new += 1
    return out


def moved_line_numbers(orig, patched, rel, entry):
    """The functions of `rel` whose code names its own line number and moved: `__LINE__`,
    or `assert` (which passes it to its failure message unless NDEBUG is defined)."""
    command = entry.get("command") or " ".join(entry.get("arguments", []))
    pattern = r"\b__LINE__\b" + ("" if "-DNDEBUG" in command else r"|\bassert\s*\(")
    word = re.compile(pattern)
    paths = [os.path.join(orig, rel), os.path.join(patched, rel)]
    if not all(os.path.isfile(p) for p in paths):
        return set()
    old, new = (open(p, errors="replace").read().split("\n") for p in paths)
    moved = [set(), set()]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for i, j, size in matcher.get_matching_blocks():
        if i == j:
            continue
        for k in range(size):
            if word.search(old[i + k]):
                moved[0].add(i + k + 1)
                moved[1].add(j + k + 1)
    touched = set()
    for path, lines in zip(paths, moved):
        kept = active_lines(path, entry) & lines
        for fname, first, last in functions(path):
            if any(first <= n <= last for n in kept):
                touched.add((rel, fname))
    return touched


def expected(patched, orig, database):
    """(file, function) pairs the patches touch in code the build compiles: functions
    holding a changed line, functions using a macro whose definition changed, and
    functions whose `__LINE__` or `assert` the patches moved to another line."""
    entries = {}
    root = os.path.dirname(database)
    for e in json.load(open(database)):
        path = os.path.realpath(os.path.join(e["directory"], e["file"]))
        entries[os.path.relpath(path, root)] = e
    series = os.path.join(patched, "debian", "patches", "series")
    touched, skipped, macros = set(), set(), {}
    names = open(series).read().split() if os.path.isfile(series) else []
    for name in names:
        for rel, (removed, added) in patch_lines(os.path.join(patched, "debian", "patches", name)).items():
            if not rel.endswith((".c", ".h")):
                continue
            for tree, lines in ((orig, removed), (patched, added)):
                path = os.path.join(tree, rel)
                if os.path.isfile(path):
                    # A header's macros reach every unit; a unit's, only itself.
                    scope = "*" if rel.endswith(".h") else rel
                    macros.setdefault(scope, set()).update(changed_macros(path, lines))
            if rel.endswith(".h"):
                continue
            if rel not in entries:
                skipped.add(rel)
                continue
            for tree, lines in ((orig, removed), (patched, added)):
                path = os.path.join(tree, rel)
                kept = active_lines(path, entries[rel]) & lines
                for fname, first, last in functions(path):
                    if any(first <= n <= last for n in kept):
                        touched.add((rel, fname))
            touched |= moved_line_numbers(orig, patched, rel, entries[rel])
    for rel in entries:
        names = macros.get(rel, set()) | macros.get("*", set())
        if not names:
            continue
        word = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
        for tree in (orig, patched):
            path = os.path.join(tree, rel)
            source = open(path, errors="replace").read().split("\n")
            kept = active_lines(path, entries[rel])
            for fname, first, last in functions(path):
                if any(n in kept and word.search(source[n - 1]) for n in range(first, last + 1)):
                    touched.add((rel, fname))
    return touched, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("package", nargs="?", default="bc")
    ap.add_argument("--work", default=None)
    ap.add_argument("--ripple", default="target/release/ripple")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    work = os.path.abspath(a.work or f"/tmp/ripple-debian-{a.package}")
    os.makedirs(work, exist_ok=True)
    patched, orig = fetch(a.package, work)
    database = build_database(orig, work)
    ripple = os.path.abspath(a.ripple)
    errors = {}
    for label, tree in (("upstream", orig), ("patched", patched)):
        stats = json.loads(run([ripple, "stats", tree, "--compile-commands", database, "--format", "json"]).stdout)
        errors[label] = stats["errors"]
    # A tree that builds several programs (bc's `bc` and `dc`) is analysed one program
    # at a time: the changes reported are those of every program with a `main` (ripple
    # names up to eight; these packages build fewer).
    def changed(program=None):
        cmd = [ripple, "diff", orig, patched, "--compile-commands", database, "--only", "changes",
               "--format", "json"] + (["--program", program] if program else [])
        diff = subprocess.run(cmd, text=True, capture_output=True)
        functions = json.loads(diff.stdout)["functions"]
        listed = re.search(r"programs in this tree: (.*?); analysing", diff.stderr)
        programs = [p.split(" (")[0] for p in listed.group(1).split(", ")
                    if not p.startswith("and ")] if listed else []
        return {(f["file"], f["name"]) for f in functions if f["status"] != "unchanged"}, programs
    reported, programs = changed()
    for program in programs:
        if not program.endswith(".c") or "test" in program:
            continue
        reported |= changed(program)[0]
    touched, skipped = expected(patched, orig, database)
    ok = all(n == 0 for n in errors.values()) and reported == touched
    if a.markdown:
        print(f"| file | function | patches touch it | ripple reports it |\n|---|---|---|---|")
        for rel, fname in sorted(touched | reported):
            print(f"| {rel} | `{fname}` | {'yes' if (rel, fname) in touched else 'no'} | "
                  f"{'yes' if (rel, fname) in reported else 'no'} |")
        print()
    print(f"errors: upstream {errors['upstream']}, patched {errors['patched']}")
    print(f"functions the patches touch: {len(touched)}; ripple reports changed: {len(reported)}")
    for rel, fname in sorted(touched - reported):
        print(f"  missed by ripple: {rel}:{fname}")
    for rel, fname in sorted(reported - touched):
        print(f"  reported, not touched by the patches: {rel}:{fname}")
    if skipped:
        print("C files the patches change that no build compiles: " + ", ".join(sorted(skipped)))
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
