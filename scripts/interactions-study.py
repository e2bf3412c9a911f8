#!/usr/bin/env python3
"""The interactions study (002 section 7.2.5 on examples/change-effects-study).

The five seeded changes of the scheduler (v1.c ... v5.c, one change each against
base.c) applied together are the new version; `ripple interactions` compares every pair
of them on the 540 tests. The script then checks ripple against the built programs:
it compiles every variant (P', P' without one change, P' without two) with the C
compiler, runs every test natively, and computes the interactions that the printed
output and exit status alone show: the effect of a change on a variant is the line diff
of its output with and without the change (the runs of lines it changes, by content)
and the two exit statuses when they differ, and two changes interact in the outputs
when one's effect differs with and without the other. An output line is printed by one
statement occurrence, so an interaction seen this way is one of the histories too, and
ripple should report it; the converse does not hold (most effects on state never reach
the output).

    python3 scripts/interactions-study.py        # from the workspace root

Prints Markdown: ripple's verdicts with the baselines (change-pair coverage and
dynamic-slice intersection on P'), the output-level check, and the time taken.
"""

import difflib
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDY = os.path.join(ROOT, "examples", "change-effects-study")


def seeded_lines():
    """Per seeded version: (line index in base, new text or None to insert after)."""
    base = open(os.path.join(STUDY, "base.c")).read().split("\n")
    changes = []
    for v in range(1, 6):
        text = open(os.path.join(STUDY, f"v{v}.c")).read().split("\n")
        if len(text) == len(base):
            (k,) = [i for i in range(len(base)) if base[i] != text[i]]
            changes.append(("replace", k, text[k]))
        else:
            k = next(i for i in range(len(base)) if base[i] != text[i])
            changes.append(("insert", k, text[k]))
    return base, changes


def variant(base, changes, applied):
    """base.c with the changes (indices) applied."""
    inserts = {}
    lines = list(base)
    for i in applied:
        kind, k, text = changes[i]
        if kind == "replace":
            lines[k] = text
        else:
            inserts[k] = text
    out = []
    for k, line in enumerate(lines):
        if k in inserts:
            out.append(inserts[k])
        out.append(line)
    return "\n".join(out)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    ripple = os.path.join(ROOT, "target", "release", "ripple")
    base, changes = seeded_lines()
    # The ids ripple gives follow the new file's line order.
    order = sorted(range(len(changes)), key=lambda i: changes[i][1])
    n = len(changes)
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "old.c"), "w") as f:
        f.write("\n".join(base))
    with open(os.path.join(work, "new.c"), "w") as f:
        f.write(variant(base, changes, range(n)))
    start = time.time()
    out = subprocess.run(
        [ripple, "interactions", os.path.join(work, "old.c"), os.path.join(work, "new.c"),
         "--tests", "suite.txt", "--format", "json"],
        cwd=STUDY, capture_output=True, text=True)
    took = time.time() - start
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    report = json.loads(out.stdout)
    tests = [t["command"].split() for t in report["tests"]]
    suite_lines = [t["line"] for t in report["tests"]]

    # Build every variant: the sets left out, by ripple's numbering (ch1 = order[0]).
    left_outs = [()] + [(i,) for i in range(n)] + list(itertools.combinations(range(n), 2))
    exes = {}
    for lo in left_outs:
        applied = [order[k] for k in range(n) if k not in lo]
        src = os.path.join(work, "v" + "_".join(map(str, lo)) + ".c")
        with open(src, "w") as f:
            f.write(variant(base, changes, applied))
        exe = src[:-2]
        subprocess.run(["cc", "-w", "-O0", "-o", exe, src], check=True)
        exes[lo] = exe

    def run(exe, args):
        p = subprocess.run([exe] + args, capture_output=True, cwd=STUDY, timeout=10)
        return (p.stdout, p.returncode)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = {lo: list(pool.map(lambda a, e=exes[lo]: run(e, a), tests)) for lo in left_outs}

    def effect(with_, without):
        """What a change does to the output: the changed runs of lines (by content, not
        position, as a line diff gives them) and the exit statuses if they differ."""
        if with_ == without:
            return None
        a, b = with_[0].split(b"\n"), without[0].split(b"\n")
        hunks = tuple((tag, tuple(a[i1:i2]), tuple(b[j1:j2]))
                      for tag, i1, i2, j1, j2 in
                      difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
                      if tag != "equal")
        status = (with_[1], without[1]) if with_[1] != without[1] else None
        return hunks, status

    print(f"`ripple interactions` on {n} changes and {len(tests)} tests: {took:.1f} s, "
          f"{report['runs']} runs of the variants.\n")
    print("| pair | run both (P') | dynamic slices meet (P') | SCHID Type I | SCHID Type II | "
          "missed by slices | interacting in the outputs | of those, not reported |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    missed_total = 0
    for p in report["pairs"]:
        a, b = (int(s[2:]) - 1 for s in p["sets"])
        full, wa, wb, wab = (results[()], results[(a,)], results[(b,)], results[(a, b)])
        seen = []
        for t in range(len(tests)):
            ea = effect(full[t], wa[t]) != effect(wb[t], wab[t])
            eb = effect(full[t], wb[t]) != effect(wa[t], wab[t])
            if ea or eb:
                seen.append(suite_lines[t])
        reported = set(p["type_one"]) | set(p["type_two"])
        missed = [l for l in seen if l not in reported]
        missed_total += len(missed)
        if missed and os.environ.get("SHOW_MISSED"):
            print(p["sets"], "missed", missed, file=sys.stderr)
        name = f"{p['sets'][0]} x {p['sets'][1]}"
        if p["verdict"] == "pruned-static":
            name += " (pruned: static slices)"
        print(f"| {name} | {len(p['covered_together'])} | {len(p['slices_meet'])} | {len(p['type_one'])} | "
              f"{len(p['type_two'])} | {len(p['missed_by_slices'])} | {len(seen)} | {len(missed)} |")
    print()
    print(f"Interactions seen in the outputs that ripple did not report: {missed_total}.")
    sys.exit(1 if missed_total else 0)


if __name__ == "__main__":
    main()
