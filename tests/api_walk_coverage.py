#!/usr/bin/env python3
"""Issue 16: fails when a public header (host/include/simtlab/*.h) declares an
sl_ function that tests/test_core_api_walk.c never calls, so the walk of bad
arguments over the whole API cannot silently go stale.

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
for h in headers:
    text = re.sub(r"/\*.*?\*/", "", h.read_text(), flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    for m in decl.finditer(text):
        declared.setdefault(m.group(1), h.name)
if len(declared) < 100:
    print(f"FAIL: found only {len(declared)} sl_ functions in {len(headers)} headers: the parser is broken")
    sys.exit(1)
missing = [(f, h) for f, h in sorted(declared.items()) if not re.search(r"\b%s\b" % re.escape(f), walk)]
for f, h in missing:
    print(f"FAIL: {h} declares {f}, which tests/test_core_api_walk.c does not call")
print(f"{len(declared) - len(missing)} of {len(declared)} public sl_ functions are in the walk")
sys.exit(1 if missing else 0)
