#!/usr/bin/env bash
# Time per version pair of the semantic difference suite (tests/semdiff): runs
# `ripple semdiff OLD NEW --function F --format json` (release build, default settings)
# on every pair and prints one line per pair (wall time of the process, analysis time as
# reported in the JSON settings with --verbose, verdict, expected verdict), then the median and the
# maximum of both. Usage: scripts/bench-semdiff.sh [SUITE_DIR] [EXTRA RIPPLE FLAGS...]
# (RIPPLE_BIN=PATH times another build, to compare two.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
suite="${1:-$root/tests/semdiff}"
shift || true
cargo build --release -q -p ripple --manifest-path "$root/Cargo.toml"
bin="${RIPPLE_BIN:-$root/target/release/ripple}"
walls=()
analyses=()
printf '%-28s %8s %12s  %-10s %s\n' pair wall_ms analysis_ms verdict expected
for dir in "$suite"/*/; do
    name="$(basename "$dir")"
    function="$(sed -n 's/^function: //p' "$dir/pair.desc")"
    expect="$(sed -n 's/^expect: //p' "$dir/pair.desc")"
    start=$(date +%s%N)
    json="$("$bin" semdiff "$dir/old.c" "$dir/new.c" --function "$function" --format json --no-cache --verbose "$@" 2>/dev/null || true)"
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    read -r verdict analysis < <(printf '%s' "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)
f = r["functions"]
print(f[0]["verdict"] if f else "none", r["settings"]["elapsed_ms"])')
    walls+=("$ms")
    analyses+=("$analysis")
    printf '%-28s %8d %12d  %-10s %s\n' "$name" "$ms" "$analysis" "$verdict" "$expect"
done
summary() {
    sort -n | awk -v what="$1" '{ t[NR] = $1 } END {
        median = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
        printf "%s over %d pairs: median %d ms, max %d ms\n", what, NR, median, t[NR] }'
}
printf '%s\n' "${walls[@]}" | summary "wall time"
printf '%s\n' "${analyses[@]}" | summary "analysis time"
