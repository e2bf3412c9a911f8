#!/bin/sh
# Build every example version with the documented flags and run it once with its
# default input (stdin from /dev/null; sea-fig1 gets "sin 0"). Exits non-zero on a
# warning, build failure or timeout.
set -u
cd "$(dirname "$0")" || exit 2
out=$(mktemp -d) || exit 2
trap 'rm -rf "$out"' EXIT
status=0
for src in */*.c; do
    bin="$out/$(echo "$src" | tr '/.' '__')"
    # The deleted-statement examples keep what the deletion leaves behind (an empty
    # branch, a label no goto uses, a parameter nothing reads) on purpose.
    case "$src" in
        dcia-deleted-*) allow="-Wno-empty-body -Wno-unused-label -Wno-unused-parameter" ;;
        *) allow="" ;;
    esac
    # shellcheck disable=SC2086
    if ! gcc -std=gnu11 -Wall -Wextra -Werror $allow -O0 "$src" -o "$bin" -lm; then
        echo "FAIL build $src"; status=1; continue
    fi
    case "$src" in
        sea-fig1/*) input="sin 0" ;;
        *) input="" ;;
    esac
    printf '%s\n' "$input" | timeout 5 "$bin" > /dev/null
    rc=$?
    if [ "$rc" -ne 0 ]; then
        # moddiff-loop* mains return their result as exit status
        case "$src" in
            moddiff-loop*) [ "$rc" -ne 124 ] || { echo "FAIL timeout $src"; status=1; continue; } ;;
            *) echo "FAIL run $src (exit $rc)"; status=1; continue ;;
        esac
    fi
    echo "ok $src"
done
exit $status
