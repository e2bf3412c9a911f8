#!/usr/bin/env bash
# Checks the labels of the semantic difference suite (tests/semdiff) with gcc: each pair's
# `check:` statements run against both versions (gcc -fwrapv, as ripple's encoding); the
# outputs must differ for an `expect: different` pair and agree for an `expect: equivalent`
# one. Usage: scripts/check-semdiff-suite.sh [SUITE_DIR]
set -euo pipefail
suite="${1:-$(dirname "$0")/../tests/semdiff}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
count=0
for dir in "$suite"/*/; do
    name="$(basename "$dir")"
    expect="$(sed -n 's/^expect: //p' "$dir/pair.desc")"
    check="$(sed -n 's/^check: //p' "$dir/pair.desc")"
    outputs=()
    for version in old new; do
        {
            printf '#include <stdio.h>\n#include <limits.h>\n#include <math.h>\n'
            cat "$dir/$version.c"
            printf 'int main(void) {\n    %s\n    return 0;\n}\n' "$check"
        } >"$work/$name-$version.c"
        gcc -std=gnu11 -fwrapv -O0 -w -o "$work/$name-$version" "$work/$name-$version.c" -lm
        outputs+=("$("$work/$name-$version")")
    done
    count=$((count + 1))
    if [[ "$expect" == different && "${outputs[0]}" == "${outputs[1]}" ]]; then
        echo "$name: expected different, both print: ${outputs[0]}"
        failures=$((failures + 1))
    elif [[ "$expect" == equivalent && "${outputs[0]}" != "${outputs[1]}" ]]; then
        echo "$name: expected equivalent, old prints ${outputs[0]}, new prints ${outputs[1]}"
        failures=$((failures + 1))
    else
        printf '%-28s %-10s old: %-24s new: %s\n' "$name" "$expect" "${outputs[0]}" "${outputs[1]}"
    fi
done
echo "checked $count pairs, $failures mislabelled"
[[ $failures -eq 0 ]]
