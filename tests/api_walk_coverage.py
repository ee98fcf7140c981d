#!/usr/bin/env python3
"""Issue 16: fails when a public header (host/include/simtlab/*.h) declares an
sl_ function that tests/test_core_api_walk.c never calls, so the walk of bad
arguments over the whole API cannot silently go stale. Issue 26: fails too
when a function that takes a pointer is not called in the walk's WRONG
POINTERS part (device, freed and overlapping pointers).

usage: api_walk_coverage.py [REPO_ROOT]"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1])
headers = sorted((root / "host/include/simtlab").glob("*.h"))
walk = (root / "tests/test_core_api_walk.c").read_text()
# drop comments, then take each declaration "type sl_name(" outside #define lines
decl = re.compile(r"^[A-Za-z_][\w \t\*]*?\b(sl_\w+)\s*\(", re.M)
declared = {}
takes_pointer = set()
for h in headers:
    text = re.sub(r"/\*.*?\*/", "", h.read_text(), flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    for m in decl.finditer(text):
        declared.setdefault(m.group(1), h.name)
        end, depth = m.end(), 1  # the parameter list, to its matching parenthesis
        while depth and end < len(text):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        if "*" in text[m.end():end - 1]:
            takes_pointer.add(m.group(1))
marker = "WRONG POINTERS"
if marker not in walk:
    print(f"FAIL: tests/test_core_api_walk.c has no {marker} part")
    sys.exit(1)
pointer_walk = walk[walk.index(marker):]
if len(declared) < 100:
    print(f"FAIL: found only {len(declared)} sl_ functions in {len(headers)} headers: the parser is broken")
    sys.exit(1)
missing = [(f, h) for f, h in sorted(declared.items()) if not re.search(r"\b%s\b" % re.escape(f), walk)]
for f, h in missing:
    print(f"FAIL: {h} declares {f}, which tests/test_core_api_walk.c does not call")
unpointed = [f for f in sorted(takes_pointer) if not re.search(r"\b%s\b" % re.escape(f), pointer_walk)]
for f in unpointed:
    print(f"FAIL: {declared[f]} declares {f}, which takes a pointer, and the walk's {marker} part does not call it")
print(f"{len(declared) - len(missing)} of {len(declared)} public sl_ functions are in the walk; "
      f"{len(takes_pointer) - len(unpointed)} of the {len(takes_pointer)} that take a pointer are in its "
      f"{marker} part")
sys.exit(1 if missing or unpointed else 0)
