#!/usr/bin/env bash
# SEA of all functions of sqlite3.c (004 section 4, Table 5): ICCFG and CFG sizes, the
# time beyond the frontend (call graph, ICCFG, Fig. 5 relation) and the peak memory.
# Usage: scripts/bench-sea.sh [CORPUS_DIR]   (default /work/corpus; fetched with
#        ../shared/scripts/fetch-c-corpus.sh CORPUS_DIR when missing)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-/work/corpus}"
sqlite="$corpus/sqlite/sqlite3.c"
if [ ! -f "$sqlite" ]; then
    echo "no $sqlite; fetch it with: bash ../shared/scripts/fetch-c-corpus.sh $corpus" >&2
    exit 2
fi
cargo build --release -q -p ripple --manifest-path "$root/Cargo.toml" 2>/dev/null
bin="$root/target/release/ripple"
cd "$(dirname "$sqlite")"
echo "== ripple stats (frontend only)"
/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$bin" stats sqlite3.c >/dev/null 2>/tmp/bench-sea.$$ || true
tail -1 /tmp/bench-sea.$$
for direction in "" "--before"; do
    echo "== ripple sea --stats $direction (frontend + call graph + ICCFG + Fig. 5)"
    # Exit status 2 only says the frontend reported errors on the sources (see stderr).
    /usr/bin/time -f "wall %e s, peak RSS %M KiB" "$bin" sea --stats $direction sqlite3.c 2>/tmp/bench-sea.$$ || true
    tail -1 /tmp/bench-sea.$$
    rm -f /tmp/bench-sea.$$
done
if [ "${BENCH_FIG4:-0}" = 1 ]; then
    echo "== Fig. 4 once per function (slow)"
    { "$bin" sea --stats --algorithm per-function sqlite3.c 2>/dev/null || true; } | grep time
fi
