#!/usr/bin/env bash
# Times `ripple invariants` on the buggy/fixed pairs (one churn computation per pair)
# and prints each time and the median. Usage: scripts/bench-invariants.sh [BUDGET]
# (RIPPLE_BIN=PATH times another build, to compare two.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${RIPPLE_BIN:-$root/target/release/ripple}"
[ -x "$bin" ] || cargo build --release --manifest-path "$root/Cargo.toml" >/dev/null
budget=${1:-10}
cd "$root/crates/ripple-analyses/tests/invariants/pairs"
times=()
for pair in $(cut -f1 expected.txt); do
  start=$(date +%s%N)
  "$bin" invariants "$pair.buggy.c" "$pair.fixed.c" --budget "$budget" >/dev/null || true
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  times+=("$ms")
  printf '%-16s %6d ms\n' "$pair" "$ms"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "pairs:", NR, " median:", a[int((NR+1)/2)], "ms  max:", a[NR], "ms"}'
