#!/usr/bin/env bash
# Runs `ripple semdiff` at the default budget on every pair of a labelled suite
# (tests/semdiff-numeric by default) and prints a Markdown table: per pair the verdict,
# the wall-clock time of the whole command and whether the verdict is correct (`unknown`
# is undecided, not wrong; a wrong verdict is `equivalent` on a different pair or
# `different` on an equivalent one), then the totals.
# Usage: scripts/bench-semdiff-numeric.sh [SUITE_DIR] [RIPPLE_BINARY]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
suite="${1:-$here/../tests/semdiff-numeric}"
ripple="${2:-$here/../target/release/ripple}"
[[ -x "$ripple" ]] || { echo "build first: cargo build --release" >&2; exit 1; }
times=()
total=0 decided=0 wrong=0 unknown=0
echo "| pair | expected | verdict | time (s) | correct |"
echo "|---|---|---|---:|---|"
for dir in "$suite"/*/; do
    name="$(basename "$dir")"
    function="$(sed -n 's/^function: //p' "$dir/pair.desc")"
    expect="$(sed -n 's/^expect: //p' "$dir/pair.desc")"
    start="$(date +%s.%N)"
    json="$("$ripple" semdiff "$dir/old.c" "$dir/new.c" --function "$function" --format json --no-cache 2>/dev/null || true)"
    end="$(date +%s.%N)"
    elapsed="$(echo "$end - $start" | bc)"
    verdict="$(printf '%s' "$json" | grep -m1 '"verdict"' | sed 's/.*"verdict": "\([a-z]*\)".*/\1/')"
    [[ -n "$verdict" ]] || verdict="error"
    total=$((total + 1))
    times+=("$elapsed")
    case "$verdict" in
    equivalent | different)
        decided=$((decided + 1))
        if [[ "$verdict" == "$expect" ]]; then correct=yes; else correct="**WRONG**"; wrong=$((wrong + 1)); fi
        ;;
    *)
        unknown=$((unknown + 1))
        correct="undecided"
        ;;
    esac
    printf '| %s | %s | %s | %.2f | %s |\n' "$name" "$expect" "$verdict" "$elapsed" "$correct"
done
sorted="$(printf '%s\n' "${times[@]}" | sort -g)"
median="$(printf '%s\n' "$sorted" | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}')"
max="$(printf '%s\n' "$sorted" | tail -1)"
echo
printf 'pairs %d, decided %d (%.0f%%), undecided %d, wrong %d, median %.2f s, max %.2f s\n' \
    "$total" "$decided" "$(echo "100 * $decided / $total" | bc -l)" "$unknown" "$wrong" "$median" "$max"
