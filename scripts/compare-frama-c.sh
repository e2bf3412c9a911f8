#!/usr/bin/env bash
# ripple impact (DCIA) next to Frama-C's impact plugin on a few examples: the numbers of
# docs/frama-c-impact.md.
#   RIPPLE=path/to/ripple scripts/compare-frama-c.sh      (default: target/release/ripple)
# Frama-C is a comparison tool only (Debian: apt-get install frama-c-base); without it
# the script says so and exits 0. Frama-C analyses one program, so each version is
# copied to a scratch directory with `/*@ impact pragma stmt; */` put in front of the
# statement on each changed line (on the same line, so line numbers stay those of the
# example), and run as
#   frama-c FILE.c -eva-context-width 8 -impact-pragma FUNCTIONS -impact-print
# Prints, per example and version, the changed lines, ripple's impacted lines (outside
# the changed lines), Frama-C's impacted statements as lines of FILE.c, and wall times.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v frama-c >/dev/null 2>&1; then
  echo "compare-frama-c: skipped: frama-c is not installed (Debian: apt-get install frama-c-base)"
  exit 0
fi
RIPPLE=${RIPPLE:-target/release/ripple}
if [ ! -x "$RIPPLE" ]; then
  echo "compare-frama-c: no ripple binary at $RIPPLE (cargo build --release -p ripple, or set RIPPLE)" >&2
  exit 2
fi
RIPPLE=$(cd "$(dirname "$RIPPLE")" && pwd)/$(basename "$RIPPLE")
share=$(frama-c -print-share-path)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "frama-c $(frama-c -version 2>/dev/null | head -1); ripple $("$RIPPLE" --version 2>/dev/null | awk '{print $2}') ($RIPPLE)"

# name | directory | old: changed lines | old: functions holding them
#      | new: changed lines | new: functions | extra Frama-C arguments | sed script
# The lines are those ripple reports as changed (checked below). Without a sed script the
# pragma goes in front of each listed line; with one, the script writes the pragmas.
hoist='13s|f1(\(x[^)]*\));|{ int a; /*@ impact pragma stmt; */ a = \1; f1(a); }|'
examples=(
  "dcia-fig1|examples/dcia-fig1|24 32 42|print_product_info,locale_ok|25 33 34 43|print_product_info,locale_ok||"
  "dcia-fig4|examples/dcia-fig4|13|main|13|main||"
  "dcia-fig4-hoisted|examples/dcia-fig4|13|main|13|main||$hoist"
  "moddiff-fig3|examples/moddiff-fig3|11|f|11|f||"
  "change-effects-fig4|examples/change-effects-fig4|10 13 18|prog|10 13 18 19|prog||"
  "sea-fig1|examples/sea-fig1|62|checkInputs|62|checkInputs|$share/libc/string.c|"
  "sea-fig1-no-string.c|examples/sea-fig1|62|checkInputs|62|checkInputs||"
  "memory-order|docs/frama-c/memory-order|8|set|8|set||"
  "static-global|docs/frama-c/static-global|9|f|9|f||"
)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

for row in "${examples[@]}"; do
  IFS='|' read -r name dir old_lines old_funcs new_lines new_funcs extra script <<<"$row"
  echo
  echo "## $name ($dir)"
  t0=$(now)
  "$RIPPLE" impact --format json "$dir/old.c" "$dir/new.c" >"$scratch/ripple.json" 2>"$scratch/ripple.err"
  code=$?
  t1=$(now)
  echo "ripple impact $dir/old.c $dir/new.c: exit $code, $(elapsed "$t0" "$t1") s"
  for side in old new; do
    if [ "$side" = old ]; then lines=$old_lines; funcs=$old_funcs; else lines=$new_lines; funcs=$new_funcs; fi
    work="$scratch/$name/$side"
    mkdir -p "$work"
    cp "$dir/$side.c" "$work/$side.c"
    if [ -n "$script" ]; then
      sed -i "$script" "$work/$side.c"
    else
      for n in $lines; do
        sed -i "${n}s|^\([[:space:]]*\)|\1/*@ impact pragma stmt; */ |" "$work/$side.c"
      done
    fi
    grep -n 'impact pragma' "$work/$side.c" | sed 's/^\([0-9]*\):[[:space:]]*/    \1: /' >"$work/pragmas"
    t0=$(now)
    # shellcheck disable=SC2086
    (cd "$work" && frama-c "$side.c" $extra -eva-context-width 8 \
      -impact-pragma "$funcs" -impact-print -impact-debug 3 >frama-c.log 2>&1)
    fcode=$?
    t1=$(now)
    fctime=$(elapsed "$t0" "$t1")
    python3 - "$side" "$dir/$side.c" "$scratch/ripple.json" "$work/frama-c.log" "$fcode" "$fctime" "$lines" "$work/pragmas" <<'PY'
import json, re, sys
side, src, rjson, fclog, fcode, fctime, lines, pragmas = sys.argv[1:]
base = src.rsplit("/", 1)[-1]
text = open(src).read().split("\n")
r = json.load(open(rjson))
changed = sorted(c["line"] for c in r["changed_lines"] if c["version"] == side)
pragma = sorted(int(n) for n in lines.split())
rip = {i["line"]: i for i in r["impacted_lines"] if i["version"] == side}
log = open(fclog).read()
fc, dead, sections = set(), [], []
for sec in re.split(r"\[impact\] impacted statements of ", log)[1:]:
    sec = sec.split("[impact] analysis done")[0]
    sec = "\n".join(l for l in sec.split("\n") if not l.startswith(("[pdg]", "[from]", "[impact]")))
    sections.append(sec)
    for f, l in re.findall(r"([\w./+-]+\.c):(\d+) \(sid \d+\)", sec):
        if f.rsplit("/", 1)[-1] == base:
            fc.add(int(l))
dead = re.findall(r"stmt (\d+) is dead", log)
others = sorted({f.rsplit("/", 1)[-1] for s in sections for f in re.findall(r"([\w./+-]+\.c):\d+ \(sid", s)} - {base})

def function_of(n):
    for k in range(n - 1, -1, -1):
        m = re.match(r"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^;]*\)\s*\{?\s*$", text[k])
        if m and not text[k].startswith((" ", "\t", "}")):
            return m.group(1)
    return "?"

print(f"### {side}.c")
print(f"changed lines (ripple): {' '.join(map(str, changed)) or '-'}; "
      f"impact pragmas on lines: {' '.join(map(str, pragma))}"
      + ("" if changed == pragma else "  ** differ **"))
print("annotated copy (line: text):\n" + open(pragmas).read().rstrip())
print(f"frama-c: exit {fcode}, {fctime} s"
      + (f"; pragma statement(s) dead for Eva (sid {', '.join(dead)}): no initial node" if dead else "")
      + (f"; also impacted in {', '.join(others)} (not listed)" if others else ""))
cov = re.search(r"(\d+) statements reached \(out of (\d+)\)", log)
if cov:
    print(f"eva: {cov.group(1)} of {cov.group(2)} statements reachable")
for m in re.findall(r"\n\s*(function \w+: precondition [^\n]* got status invalid)", log):
    print(f"eva: {m}")
rows = sorted((set(rip) | fc) - set(changed))
both = [n for n in rows if n in rip and n in fc]
only_r = [n for n in rows if n in rip and n not in fc]
only_f = [n for n in rows if n not in rip and n in fc]
fc_changed = sorted(fc & set(changed))
print(f"impacted outside the changed lines: ripple {len(rip)}, frama-c {len(fc - set(changed))}; "
      f"both {len(both)}, ripple only {len(only_r)}, frama-c only {len(only_f)}"
      + (f"; frama-c also lists changed line(s) {' '.join(map(str, fc_changed))}" if fc_changed else ""))
if rows:
    print("| line | function | ripple | Frama-C | source |")
    print("|---:|---|:-:|:-:|---|")
    for n in rows:
        fn = rip[n]["function"] if n in rip else function_of(n)
        s = text[n - 1].strip().replace("|", "\\|")
        if len(s) > 60:
            s = s[:57] + "..."
        print(f"| {n} | {fn} | {'x' if n in rip else ''} | {'x' if n in fc else ''} | `{s}` |")
PY
  done
done
