#!/usr/bin/env python3
"""SEM-DCIA on edits of Lua 5.4.9 and sqlite3.c written for the purpose.

Each edit below replaces one piece of text (unique in its file) in a copy of the tree.
Those marked `keeps` keep the program's meaning (identities, reassociation of unsigned
arithmetic, dead stores, renamed locals, extracted helpers, loops and conditionals
rewritten); each has a behaviour-changing counterpart in the same function. For each,
gcc must accept the changed file (`-fsyntax-only`), then `ripple impact OLD NEW --format
json` runs with default settings, and the script prints one Markdown row: changed
lines, impacted lines (all, and outside the changed functions), plain DCIA's count, and
seconds. A meaning-keeping edit should impact nothing outside the changed statements; a
changing one should impact something. (sqlite3.c's edits keep the number of lines:
its error paths pass `__LINE__`, so a line more or less changes every later one.)

Usage: scripts/written-edits.py --lua LUA_DIR --sqlite SQLITE_DIR
       [--ripple target/release/ripple] [--only ID ...]
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (id, program, file, kind, keeps, old text, new text)
EDITS = [
    # Lua 5.4.9
    ("L1", "lua", "lstrlib.c", "identity", True,
     "    p[i] = s[l - i - 1];", "    p[i] = s[l - i - 1] ^ 0;"),
    ("L1x", "lua", "lstrlib.c", "value", False,
     "    p[i] = s[l - i - 1];", "    p[i] = s[l - i - 1] + 1;"),
    ("L2", "lua", "lstrlib.c", "renamed local", True,
     "  size_t l, i;\n  luaL_Buffer b;\n  const char *s = luaL_checklstring(L, 1, &l);\n"
     "  char *p = luaL_buffinitsize(L, &b, l);\n  for (i = 0; i < l; i++)\n"
     "    p[i] = s[l - i - 1];",
     "  size_t l, k;\n  luaL_Buffer b;\n  const char *s = luaL_checklstring(L, 1, &l);\n"
     "  char *p = luaL_buffinitsize(L, &b, l);\n  for (k = 0; k < l; k++)\n"
     "    p[k] = s[l - k - 1];"),
    ("L2x", "lua", "lstrlib.c", "loop bound", False,
     "  for (i = 0; i < l; i++)\n    p[i] = s[l - i - 1];",
     "  for (i = 1; i < l; i++)\n    p[i] = s[l - i - 1];"),
    ("L3", "lua", "lstrlib.c", "reassociation (unsigned)", True,
     "    return 1;  /* clip to 1 */\n  else return len + (size_t)pos + 1;",
     "    return 1;  /* clip to 1 */\n  else return len + ((size_t)pos + 1);"),
    ("L3x", "lua", "lstrlib.c", "value", False,
     "    return 1;  /* clip to 1 */\n  else return len + (size_t)pos + 1;",
     "    return 1;  /* clip to 1 */\n  else return len + (size_t)pos;"),
    ("L4", "lua", "lobject.c", "dead store", True,
     "  int l = 0;\n  x--;", "  int l = 1;\n  l = 0;\n  x--;"),
    ("L4x", "lua", "lobject.c", "initial value", False,
     "  int l = 0;\n  x--;", "  int l = 1;\n  x--;"),
    ("L5", "lua", "lobject.c", "while to for", True,
     "  while (x >= 256) { l += 8; x >>= 8; }", "  for (; x >= 256; x >>= 8) l += 8;"),
    ("L6", "lua", "lobject.c", "shift as division (unsigned)", True,
     "  while (x >= 256) { l += 8; x >>= 8; }", "  while (x >= 256) { l += 8; x /= 256; }"),
    ("L6x", "lua", "lobject.c", "loop step", False,
     "  while (x >= 256) { l += 8; x >>= 8; }", "  while (x >= 256) { l += 7; x >>= 8; }"),
    ("L7", "lua", "lobject.c", "extracted helper", True,
     "int luaO_hexavalue (int c) {\n  if (lisdigit(c)) return c - '0';\n"
     "  else return (ltolower(c) - 'a') + 10;\n}",
     "static int hexletter (int c) {\n  return (ltolower(c) - 'a') + 10;\n}\n\n"
     "int luaO_hexavalue (int c) {\n  if (lisdigit(c)) return c - '0';\n"
     "  else return hexletter(c);\n}"),
    ("L7x", "lua", "lobject.c", "value", False,
     "  else return (ltolower(c) - 'a') + 10;", "  else return (ltolower(c) - 'a') + 11;"),
    ("L8", "lua", "lmathlib.c", "De Morgan", True,
     "    if ((lua_Unsigned)d + 1u <= 1u) {", "    if (!((lua_Unsigned)d + 1u > 1u)) {"),
    ("L8x", "lua", "lmathlib.c", "condition", False,
     "    if ((lua_Unsigned)d + 1u <= 1u) {", "    if ((lua_Unsigned)d + 1u <= 2u) {"),
    ("L9", "lua", "lmathlib.c", "two's complement", True,
     "    if (n < 0) n = (lua_Integer)(0u - (lua_Unsigned)n);",
     "    if (n < 0) n = (lua_Integer)(~(lua_Unsigned)n + 1u);"),
    ("L9x", "lua", "lmathlib.c", "value", False,
     "    if (n < 0) n = (lua_Integer)(0u - (lua_Unsigned)n);",
     "    if (n < 0) n = (lua_Integer)(~(lua_Unsigned)n);"),
    ("L10", "lua", "lstrlib.c", "commuted sum (unsigned)", True,
     "    size_t totallen = (size_t)n * l + (size_t)(n - 1) * lsep;",
     "    size_t totallen = (size_t)(n - 1) * lsep + (size_t)n * l;"),
    ("L10x", "lua", "lstrlib.c", "value", False,
     "    size_t totallen = (size_t)n * l + (size_t)(n - 1) * lsep;",
     "    size_t totallen = (size_t)n * l + (size_t)n * lsep;"),
    ("L11", "lua", "lstrlib.c", "conditional expression", True,
     "  if (pos > 0)\n    return (size_t)pos;\n  else if (pos == 0)\n    return 1;",
     "  if (pos >= 0)\n    return (pos == 0) ? 1 : (size_t)pos;"),
    # sqlite3.c
    ("S1", "sqlite", "sqlite3.c", "commuted and", True,
     "  return 0x3fffffff & (int)strlen(z);", "  return (int)strlen(z) & 0x3fffffff;"),
    ("S1x", "sqlite", "sqlite3.c", "mask", False,
     "  return 0x3fffffff & (int)strlen(z);", "  return 0x1fffffff & (int)strlen(z);"),
    ("S2", "sqlite", "sqlite3.c", "conditional expression", True,
     "  if( z==0 ) return 0;\n  return 0x3fffffff & (int)strlen(z);",
     "  return z==0 ? 0 :\n    0x3fffffff & (int)strlen(z);"),
    ("S3", "sqlite", "sqlite3.c", "for to while", True,
     "  for(i=1; (v >>= 7)!=0; i++){ assert( i<10 ); }",
     "  i = 1; while( (v >>= 7)!=0 ){ i++; }"),
    ("S3x", "sqlite", "sqlite3.c", "shift", False,
     "  for(i=1; (v >>= 7)!=0; i++){ assert( i<10 ); }",
     "  for(i=1; (v >>= 8)!=0; i++){ assert( i<10 ); }"),
    ("S4", "sqlite", "sqlite3.c", "commuted and", True,
     "F') );\n#ifdef SQLITE_ASCII\n  h += 9*(1&(h>>6));", "F') );\n#ifdef SQLITE_ASCII\n  h = h + 9*((h>>6)&1);"),
    ("S4x", "sqlite", "sqlite3.c", "value", False,
     "F') );\n#ifdef SQLITE_ASCII\n  h += 9*(1&(h>>6));", "F') );\n#ifdef SQLITE_ASCII\n  h += 10*(1&(h>>6));"),
    ("S5", "sqlite", "sqlite3.c", "narrowing first", True,
     "  return (u8)(h & 0xf);\n}\n\n#if !defined(SQLITE_OMIT_BLOB_LITERAL)",
     "  return (u8)h & 0xf;\n}\n\n#if !defined(SQLITE_OMIT_BLOB_LITERAL)"),
    ("S6", "sqlite", "sqlite3.c", "renamed locals", True,
     "  register unsigned char *a, *b;\n  if( zLeft==0 ){\n    return zRight ? -1 : 0;\n"
     "  }else if( zRight==0 ){\n    return 1;\n  }\n  a = (unsigned char *)zLeft;\n"
     "  b = (unsigned char *)zRight;\n"
     "  while( N-- > 0 && *a!=0 && UpperToLower[*a]==UpperToLower[*b]){ a++; b++; }\n"
     "  return N<0 ? 0 : UpperToLower[*a] - UpperToLower[*b];",
     "  register unsigned char *pA, *pB;\n  if( zLeft==0 ){\n    return zRight ? -1 : 0;\n"
     "  }else if( zRight==0 ){\n    return 1;\n  }\n  pA = (unsigned char *)zLeft;\n"
     "  pB = (unsigned char *)zRight;\n"
     "  while( N-- > 0 && *pA!=0 && UpperToLower[*pA]==UpperToLower[*pB]){ pA++; pB++; }\n"
     "  return N<0 ? 0 : UpperToLower[*pA] - UpperToLower[*pB];"),
    ("S6x", "sqlite", "sqlite3.c", "condition", False,
     "  return N<0 ? 0 : UpperToLower[*a] - UpperToLower[*b];",
     "  return N<=0 ? 0 : UpperToLower[*a] - UpperToLower[*b];"),
    ("S7", "sqlite", "sqlite3.c", "conditional as branches", True,
     "  return N<0 ? 0 : UpperToLower[*a] - UpperToLower[*b];",
     "  if( N<0 ) return 0; return UpperToLower[*a] - UpperToLower[*b];"),
    ("S8", "sqlite", "sqlite3.c", "dead store", True,
     "  u32 x = __builtin_bswap32(v);\n  memcpy(p,&x,4);",
     "  u32 x = 0; x = __builtin_bswap32(v);\n  memcpy(p,&x,4);"),
    ("S8x", "sqlite", "sqlite3.c", "value", False,
     "  u32 x = __builtin_bswap32(v);\n  memcpy(p,&x,4);",
     "  u32 x = __builtin_bswap32(v) + 1;\n  memcpy(p,&x,4);"),
    ("S9", "sqlite", "sqlite3.c", "extracted helper", True,
     "SQLITE_API int sqlite3_strnicmp(const char *zLeft, const char *zRight, int N){\n"
     "  register unsigned char *a, *b;",
     "static int caseDiff(const unsigned char *a, const unsigned char *b){ "
     "return UpperToLower[*a] - UpperToLower[*b]; } "
     "SQLITE_API int sqlite3_strnicmp(const char *zLeft, const char *zRight, int N){\n"
     "  register unsigned char *a, *b;"),
    ("S10", "sqlite", "sqlite3.c", "byte swap written out", True,
     "  memcpy(&x,p,4);\n  return __builtin_bswap32(x);",
     "  memcpy(&x,p,4);\n  return (x>>24) | ((x>>8)&0xff00) | ((x<<8)&0xff0000) | (x<<24);"),
    ("S10x", "sqlite", "sqlite3.c", "byte order", False,
     "  memcpy(&x,p,4);\n  return __builtin_bswap32(x);",
     "  memcpy(&x,p,4);\n  return x;"),
]


# The functions each edit changes (by its id without the trailing `x`).
CHANGED = {
    "L1": ["str_reverse"], "L2": ["str_reverse"], "L3": ["posrelatI"], "L11": ["posrelatI"],
    "L4": ["luaO_ceillog2"], "L5": ["luaO_ceillog2"], "L6": ["luaO_ceillog2"],
    "L7": ["luaO_hexavalue", "hexletter"], "L8": ["math_fmod"], "L9": ["math_abs"],
    "L10": ["str_rep"], "S1": ["sqlite3Strlen30"], "S2": ["sqlite3Strlen30"],
    "S3": ["sqlite3VarintLen"], "S4": ["sqlite3HexToInt"], "S5": ["sqlite3HexToInt"],
    "S6": ["sqlite3_strnicmp"], "S7": ["sqlite3_strnicmp"],
    "S9": ["sqlite3_strnicmp", "caseDiff"], "S8": ["sqlite3Put4byte"],
    "S10": ["sqlite3Get4byte"],
}


def run(args, ripple, root, edit):
    ident, program, name, kind, keeps, old, new = edit
    src = Path(root)
    text = (src / name).read_text(errors="surrogateescape")
    if text.count(old) != 1:
        sys.exit(f"{ident}: the text to replace occurs {text.count(old)} times in {name}")
    if ident == "S9":
        # The helper's use: the difference of the last characters.
        new_text = text.replace(old, new).replace(
            "  return N<0 ? 0 : UpperToLower[*a] - UpperToLower[*b];",
            "  return N<0 ? 0 : caseDiff(a, b);",
        )
    else:
        new_text = text.replace(old, new)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old_dir, new_dir = tmp / "old", tmp / "new"
        shutil.copytree(src, old_dir)
        shutil.copytree(src, new_dir)
        (new_dir / name).write_text(new_text, errors="surrogateescape")
        check = subprocess.run(
            ["gcc", "-fsyntax-only", "-w", "-I", str(new_dir), str(new_dir / name)],
            capture_output=True, text=True,
        )
        if check.returncode != 0:
            sys.exit(f"{ident}: gcc rejects the edit:\n{check.stderr[:2000]}")
        start = time.monotonic()
        out = subprocess.run(
            [ripple, "impact", str(old_dir), str(new_dir), "--format", "json"],
            capture_output=True, text=True, cwd=tmp,
        )
        seconds = time.monotonic() - start
    if out.returncode not in (0, 1, 2):
        sys.exit(f"{ident}: ripple failed ({out.returncode}):\n{out.stderr[:2000]}")
    report = json.loads(out.stdout)
    summary = report["summary"]
    changed_functions = set(CHANGED[ident.rstrip("x")])
    outside = [
        line for line in report["impacted_lines"] if line["function"] not in changed_functions
    ]
    return {
        "id": ident,
        "program": program,
        "kind": kind,
        "keeps": keeps,
        "changed": summary["changed_lines"],
        "impacted": summary["impacted_lines"],
        "outside": len(outside),
        "functions": len(summary["impacted_functions"]),
        "dcia": summary["dcia_impacted_lines"],
        "proved": report.get("proved_equivalent"),
        "seconds": seconds,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lua", required=True)
    parser.add_argument("--sqlite", required=True)
    parser.add_argument("--ripple", default="target/release/ripple")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    ripple = str(Path(args.ripple).resolve())
    roots = {"lua": args.lua, "sqlite": args.sqlite}
    print("| id | program | edit | keeps meaning | changed lines | impacted lines | "
          "outside changed functions | functions | plain DCIA lines | seconds |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    rows = []
    for edit in EDITS:
        if args.only and edit[0] not in args.only:
            continue
        r = run(args, ripple, roots[edit[1]], edit)
        rows.append(r)
        print(f"| {r['id']} | {r['program']} | {r['kind']} | {'yes' if r['keeps'] else 'no'} | "
              f"{r['changed']} | {r['impacted']} | {r['outside']} | {r['functions']} | "
              f"{r['dcia']} | {r['seconds']:.1f} |", flush=True)
    keeping = [r for r in rows if r["keeps"]]
    changing = [r for r in rows if not r["keeps"]]
    print()
    print(f"meaning kept: {len(keeping)} edits, "
          f"{sum(1 for r in keeping if r['impacted'] == 0)} impact nothing, "
          f"{sum(1 for r in keeping if r['outside'] == 0)} nothing outside the changed functions")
    print(f"meaning changed: {len(changing)} edits, "
          f"{sum(1 for r in changing if r['impacted'] > 0)} still impact something")


if __name__ == "__main__":
    main()
