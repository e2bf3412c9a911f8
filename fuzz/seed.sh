#!/usr/bin/env bash
# Seeds the fuzzer: every conformance program and semdiff suite version, raw and
# preprocessed (gcc -E), into fuzz/corpus/lower.
set -euo pipefail
cd "$(dirname "$0")/.."
out=fuzz/corpus/lower
mkdir -p "$out"
for f in tests/corpus/*.c tests/corpus/*/*.c tests/semdiff/*/*.c examples/*/*.c; do
  [ -f "$f" ] || continue
  name=$(echo "$f" | tr '/' '_')
  cp "$f" "$out/raw_$name"
  gcc -std=gnu11 -E -P "$f" -o "$out/pp_$name" 2>/dev/null || true
done
echo "$(ls "$out" | wc -l) seeds in $out"
