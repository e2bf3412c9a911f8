#!/usr/bin/env python3
"""DCIA against SEM-DCIA on the recent commits of a C project (000 Table 3's form).

For each of the COUNT most recent non-merge commits of REPO (a git directory, bare or
not) that change a `.c` or `.h` file, the trees of the commit's parent and of the commit
are extracted (files named by --exclude removed: a unity build such as `onelua.c`, the
programs' `main` files), and `ripple impact PARENT COMMIT --format json` runs twice: with
`--dcia-only` (plain DCIA) and by default (SEM-DCIA's statement equivalences), and once
more per anytime level K given with --levels (`--level K`: functions proved equivalent
as a whole up to call distance K). With --function-sources, also 000's DCIA (`--dcia-only
--sources function`: every statement of a changed function a source, as 000's prototype
took it) and the reduction of SEM-DCIA against it. One Markdown row per commit: changed
lines, impacted lines by each, the reduction, the equivalences proved, and the seconds of
each run; then the averages and medians.

Usage: scripts/history-impact.py REPO [--count 30] [--skip 0] [--levels 0 1 ...] [--budget SECS]
       [--function-sources] [--ripple target/release/ripple] [--exclude NAME ...] [--paths PATHSPEC ...]
(--exclude removes files or directories of that name from both trees.)
"""

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def extract(repo, rev, into, exclude):
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(repo), "archive", rev], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for name in exclude:
        for path in list(into.rglob(name)):
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()


def run(ripple, old, new, extra):
    start = time.time()
    result = subprocess.run([ripple, "impact", str(old), str(new), "--format", "json", *extra],
                            capture_output=True, text=True)
    elapsed = time.time() - start
    try:
        return json.loads(result.stdout), elapsed
    except ValueError:
        return None, elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--ripple", default=str(Path(__file__).parent.parent / "target/release/ripple"))
    parser.add_argument("--exclude", nargs="*", default=[])
    parser.add_argument("--paths", nargs="*", default=["*.c", "*.h"],
                        help="the commits considered are those changing these paths")
    parser.add_argument("--levels", nargs="*", type=int, default=[])
    parser.add_argument("--budget", type=float, default=None,
                        help="the budget of the level runs (ripple's --budget), if not the default")
    parser.add_argument("--function-sources", action="store_true",
                        help="also 000's DCIA: every statement of a changed function a source")
    args = parser.parse_args()
    commits = []
    for line in git(args.repo, "log", "--no-merges", "--format=%H %s", "--", *args.paths).splitlines():
        sha, _, subject = line.partition(" ")
        commits.append((sha, subject))
    commits = commits[args.skip:args.skip + args.count]
    level_heads = "".join(f" level {k} lines | level {k} s |" for k in args.levels)
    coarse_heads = " 000's DCIA lines | reduction against it |" if args.function_sources else ""
    print("| commit | subject | changed lines | DCIA lines | SEM-DCIA lines | reduction | proved | DCIA s | SEM s |"
          + level_heads + coarse_heads)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|---:|" * len(args.levels)
          + "---:|---:|" * args.function_sources)
    reductions, dcia_times, sem_times = [], [], []
    coarse_reductions = []
    level_reductions = {k: [] for k in args.levels}
    level_times = {k: [] for k in args.levels}
    for sha, subject in commits:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            try:
                extract(args.repo, sha + "~1", tmp / "old", args.exclude)
                extract(args.repo, sha, tmp / "new", args.exclude)
            except subprocess.CalledProcessError:
                continue
            plain, t_plain = run(args.ripple, tmp / "old", tmp / "new", ["--dcia-only"])
            sem, t_sem = run(args.ripple, tmp / "old", tmp / "new", [])
            budget = [] if args.budget is None else ["--budget", str(args.budget)]
            levels = {k: run(args.ripple, tmp / "old", tmp / "new", ["--level", str(k), *budget])
                      for k in args.levels}
            coarse = (run(args.ripple, tmp / "old", tmp / "new", ["--dcia-only", "--sources", "function"])[0]
                      if args.function_sources else None)
        short = subject.replace("|", "\\|")[:50]
        if plain is None or sem is None:
            print(f"| {sha[:8]} | {short} | error | | | | | {t_plain:.1f} | {t_sem:.1f} |")
            continue
        changed = plain["summary"]["changed_lines"]
        d = plain["summary"]["impacted_lines"]
        s = sem["summary"]["impacted_lines"]
        proved = len(sem.get("equivalences", []))
        reduction = (d - s) / d * 100 if d else 0.0
        if d:
            reductions.append(reduction)
        dcia_times.append(t_plain)
        sem_times.append(t_sem)
        cells = ""
        for k in args.levels:
            result, seconds = levels[k]
            lines = result["summary"]["impacted_lines"] if result else None
            if lines is not None and d:
                level_reductions[k].append((d - lines) / d * 100)
            level_times[k].append(seconds)
            cells += f" {'error' if lines is None else lines} | {seconds:.1f} |"
        if args.function_sources:
            # The best result computed: the deepest level's, or SEM-DCIA's.
            best = min([s] + [levels[k][0]["summary"]["impacted_lines"] for k in args.levels if levels[k][0]])
            c = coarse["summary"]["impacted_lines"] if coarse else None
            if c:
                coarse_reductions.append((c - best) / c * 100)
            cells += f" {'error' if c is None else c} | {((c - best) / c * 100) if c else 0:.0f}% |"
        print(f"| {sha[:8]} | {short} | {changed} | {d} | {s} | {reduction:.0f}% | {proved} | {t_plain:.1f} | {t_sem:.1f} |"
              + cells, flush=True)
    if reductions:
        print()
        print(f"commits {len(dcia_times)}; with impact {len(reductions)}: reduction mean {statistics.mean(reductions):.1f}%, "
              f"median {statistics.median(reductions):.1f}%; seconds median DCIA {statistics.median(dcia_times):.1f}, "
              f"SEM-DCIA {statistics.median(sem_times):.1f}")
        for k in args.levels:
            if level_reductions[k]:
                print(f"level {k}: reduction mean {statistics.mean(level_reductions[k]):.1f}%, "
                      f"median {statistics.median(level_reductions[k]):.1f}%; seconds median "
                      f"{statistics.median(level_times[k]):.1f}")
        if coarse_reductions:
            print(f"against 000's DCIA ({len(coarse_reductions)} commits with impact): reduction mean "
                  f"{statistics.mean(coarse_reductions):.1f}%, median {statistics.median(coarse_reductions):.1f}%")


if __name__ == "__main__":
    main()
