#!/usr/bin/env bash
# Frontend benchmark: parse + lower + call graph of sqlite3.c (about 270k lines).
#   scripts/bench-frontend.sh [CORPUS_DIR]     (default: ./corpus, fetched when missing)
# Prints wall time and peak memory of `ripple stats` (which preprocesses with cc -E,
# parses, lowers and builds the call graph) over five runs, preprocessed and raw.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-corpus}
[ -f "$corpus/sqlite/sqlite3.c" ] || bash ../shared/scripts/fetch-c-corpus.sh "$corpus" >&2
cargo build --release -q -p ripple
bin=$(pwd)/target/release/ripple
log=$(mktemp)
cd "$corpus/sqlite"
for mode in preprocessed raw; do
  flag=""; [ "$mode" = raw ] && flag="--raw"
  for i in 1 2 3 4 5; do
    # ripple exits 2 here: sqlite3.c has constructs it reports as errors (see stats).
    /usr/bin/time -o "$log" -f "%e %M" "$bin" stats $flag sqlite3.c >/dev/null 2>&1 || true
    tail -n 1 "$log"
  done | sort -n | awk -v mode="$mode" '
    { wall[NR] = $1; rss[NR] = $2 }
    END { printf "%-12s wall min %.2f s, median %.2f s, max %.2f s; peak RSS %.0f MiB\n",
          mode, wall[1], wall[3], wall[5], rss[5] / 1024 }'
done
