#!/usr/bin/env bash
# Robustness run: the frontend over every .c file of several Debian source packages and
# over sqlite3.c. Zero panics allowed; every failure must be a reported diagnostic.
#   scripts/robustness.sh [CORPUS_DIR]     (default: ./corpus, fetched when missing)
# Prints one line per package (files, functions, errors, approximated constructs by
# kind) and the number of panics or crashes. Each package is configured first
# (./configure) so that its config.h exists. Exits non-zero if ripple panicked (exit
# code 101) or crashed on any file.
set -uo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-corpus}
packages=(bc ed sed gzip grep)
if [ ! -f "$corpus/sqlite/sqlite3.c" ] || [ ! -d "$corpus/debian/grep" ]; then
  bash ../shared/scripts/fetch-c-corpus.sh "$corpus" "${packages[@]}" >&2
fi
cargo build --release -q -p ripple || exit 2
bin=target/release/ripple
panics=0
printf '%-10s %6s %9s %7s %7s %s\n' package files functions errors approx "approximations by kind"
run() {
  local name=$1; shift
  local out err code
  out=$(mktemp); err=$(mktemp)
  "$bin" stats --each-file --format json "$@" >"$out" 2>"$err"; code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 2 ]; then
    panics=$((panics + 1))
    echo "$name: ripple exited with $code" >&2
    grep -m3 -i panic "$err" >&2
  fi
  python3 - "$name" "$out" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
try:
    d = json.load(open(path))
except Exception:
    print(f"{name:<10} (no report)"); sys.exit(0)
kinds = " ".join(f"{k}={v}" for k, v in sorted(d["approximations"].items()))
print(f"{name:<10} {d['files']:6} {d['functions']:9} {d['errors']:7} {sum(d['approximations'].values()):7} {kinds}")
PY
  rm -f "$out" "$err"
}
for p in "${packages[@]}"; do
  dir="$corpus/debian/$p"
  [ -d "$dir" ] || continue
  # Configure once so that config.h exists and files preprocess as in a real build;
  # a package that does not configure is still read (raw fallback, with warnings).
  if [ -x "$dir/configure" ] && [ ! -f "$dir/.ripple-configured" ]; then
    (cd "$dir" && ./configure -q >/dev/null 2>&1; touch .ripple-configured)
  fi
  # Without the package's build system at hand, every directory holding headers (two
  # levels deep) is on the include path, as the package's Makefiles would put them.
  includes=(-I "$dir")
  while IFS= read -r d; do includes+=(-I "$d"); done < <(find "$dir" -maxdepth 2 -name '*.h' -not -path '*/debian/*' -printf '%h\n' | sort -u)
  run "$p" "$dir" "${includes[@]}"
done
run sqlite3 "$corpus/sqlite/sqlite3.c"
echo "panics or crashes: $panics"
[ "$panics" -eq 0 ]
