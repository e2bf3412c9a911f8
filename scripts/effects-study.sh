#!/usr/bin/env bash
# The change-effects study (examples/change-effects-study): for each seeded version,
# what `ripple effects` and `ripple tests --select` say, as Markdown tables; then the
# time of one run of 1,000 tests on both versions and what monitoring costs per run.
#
#   bash scripts/effects-study.sh            # from the workspace root, release build
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
ripple=$PWD/target/release/ripple
cd examples/change-effects-study

echo "| version | tests running the change | revealing | STMT | BR | DU | CHAIN | PROP |"
echo "|---|---|---|---|---|---|---|---|"
for v in 1 2 3 4 5; do
  "$ripple" effects base.c "v$v.c" --tests suite.txt --adequacy 1000 --format json > "/tmp/effects-v$v.json" || true
  python3 - "$v" <<'PY'
import json, sys
v = sys.argv[1]
d = json.load(open(f"/tmp/effects-v{v}.json"))
c = d["changes"][0]
cells = []
for k in d["adequacy"]["changes"][0]["criteria"]:
    cells.append("n/a" if k.get("detection") is None else f"{k['detection']:.1f}% ({k['mean_size']:.1f})")
print(f"| v{v} | {len(c['coverage']['run_by'])} | {len(d['suite']['revealing'])} | " + " | ".join(cells) + " |")
PY
done

echo
echo "| version | revealing | selected by changed statement | by changed function | by changed line | revealing not selected |"
echo "|---|---|---|---|---|---|"
for v in 1 2 3 4 5; do
  "$ripple" tests base.c "v$v.c" --tests suite.txt --select --format json > "/tmp/select-v$v.json" || true
  python3 - "$v" <<'PY'
import json, sys
v = sys.argv[1]
d = json.load(open(f"/tmp/select-v{v}.json"))
sel = {t["line"] for t in d["selected"]}
missed = [l for l in d["revealing"] if l not in sel]
print(f"| v{v} | {len(d['revealing'])} | {len(sel)} | {d['by_function']} | {d['by_line']} | {len(missed)} |")
PY
done

echo
# 1,000 tests: the suite and its first 460 tests again.
{ cat suite.txt; head -n 460 suite.txt; } > /tmp/suite1000.txt
cp /tmp/suite1000.txt ./suite1000.txt
trap 'rm -f suite1000.txt' EXIT
echo "1,000 tests on both versions (v3), built and monitored:"
/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$ripple" effects base.c v3.c --tests suite1000.txt -v --measure-overhead > /dev/null
