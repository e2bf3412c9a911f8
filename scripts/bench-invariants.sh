#!/usr/bin/env bash
# Times `ripple invariants` on the buggy/fixed pairs (one churn computation per pair):
# for each pair the whole command (process start, reading both versions, analysis) and
# the analysis alone (matching, multi-version graph and queries, from `--verbose`), the
# best of RUNS runs each; then the medians and maxima.
# Usage: scripts/bench-invariants.sh [BUDGET [RUNS]]
# (RIPPLE_BIN=PATH times another build, to compare two.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${RIPPLE_BIN:-$root/target/release/ripple}"
[ -x "$bin" ] || cargo build --release --manifest-path "$root/Cargo.toml" >/dev/null
budget=${1:-10}
runs=${2:-3}
cd "$root/crates/ripple-analyses/tests/invariants/pairs"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for pair in $(cut -f1 expected.txt); do
  whole=999999
  analysis=999999
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    stages=$("$bin" invariants "$pair.buggy.c" "$pair.fixed.c" --budget "$budget" --verbose 2>&1 >/dev/null || true)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$ms" -lt "$whole" ] && whole=$ms
    a=$(printf '%s\n' "$stages" | awk '/^ripple: (matching and graph|queries):/ { s += $(NF-1) } END { printf "%d", s * 1000 }')
    [ "$a" -lt "$analysis" ] && analysis=$a
  done
  printf '%-16s %6d ms  analysis %6d ms\n' "$pair" "$whole" "$analysis" | tee -a "$out"
done
median() { sort -n | awk '{a[NR]=$1} END {print "median", a[int((NR+1)/2)], "ms, max", a[NR], "ms"}'; }
echo "pairs: $(wc -l < "$out")"
echo "whole command: $(awk '{print $2}' "$out" | median)"
echo "analysis:      $(awk '{print $5}' "$out" | median)"
