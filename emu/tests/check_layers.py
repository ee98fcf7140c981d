#!/usr/bin/env python3
"""emu.layers: the emulator's layers include one another in one direction.

Reads every `#include "..."` of every file under emu/src and fails, naming
the file, the line and the include, when a layer includes what it must not.
An include names its layer relative to emu/src ("engine/api.hpp"); one
without a folder is a file beside the includer (the tools' own headers);
"simtlab_emu/..." is a public header (emu/include), open to every layer.

The direction (a layer may include what its row names; "*" is the whole
folder):

    layer     may include
    --------  ----------------------------------------------------------
    common    common/*                       (a leaf: settings, text)
    engine    common/*, engine/*, profile/*
    profile   common/*, engine/*, profile/*, checks/api.hpp, checks/checkers.hpp
    checks    common/*, engine/*, profile/*, checks/*
    runtime   common/*, runtime/*, engine/api.hpp, engine/services.hpp,
              checks/api.hpp
    libs      common/*, libs/*, runtime/*, engine/api.hpp, checks/api.hpp
    tools     tools/* only, by bare name (slcc includes the rewriter's
              rewrite.h through its include path; both are C programs)

that is, common <- engine (with profile and checks, its observers) <-
runtime <- libs. The engine reaches the runtime only through the services
the runtime installs (engine/services.hpp); the runtime and the libraries
see the engine only through engine/api.hpp, never its internals. profile
and checks sit with the engine: the engine tells the SIMT counters
(profile/internal.hpp) where launches, blocks and barriers begin and end
and asks the timing model which blocks a sampled launch runs
(profile/model.hpp); the counters install the checkers' observer. None of
the three includes the runtime; the engine includes no checker.

Usage: check_layers.py <emu/src>   (also runs a self-test first: a planted
forbidden include must be reported, so the check can fail).
"""
import os
import re
import sys
import tempfile

ALLOWED = {
    "common": ["common/*"],
    "engine": ["common/*", "engine/*", "profile/*"],
    "profile": ["common/*", "engine/*", "profile/*", "checks/api.hpp", "checks/checkers.hpp"],
    "checks": ["common/*", "engine/*", "profile/*", "checks/*"],
    "runtime": ["common/*", "runtime/*", "engine/api.hpp", "engine/services.hpp", "checks/api.hpp"],
    "libs": ["common/*", "libs/*", "runtime/*", "engine/api.hpp", "checks/api.hpp"],
    "tools": [],  # only files beside the includer
}
SOURCE_SUFFIXES = (".c", ".h", ".cpp", ".hpp", ".cc", ".cu", ".cuh", ".inc", ".S")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """'engine/grid.cpp' -> 'engine'; None for a file outside the layers."""
    top = rel.split("/", 1)[0]
    return top if top in ALLOWED and "/" in rel else None


def allowed(layer, target):
    for pattern in ALLOWED[layer]:
        if pattern.endswith("/*"):
            if target.startswith(pattern[:-1]):
                return True
        elif target == pattern:
            return True
    return False


def check(src, public_include):
    """Returns the violations under `src`, as 'file:line: text' strings."""
    problems = []
    for dirpath, _, files in sorted(os.walk(src)):
        for name in sorted(files):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            layer = layer_of(rel)
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            for number, text in enumerate(lines, 1):
                m = INCLUDE.match(text)
                if not m:
                    continue
                inc = m.group(1)
                where = f"emu/src/{rel}:{number}"
                if layer is None:
                    problems.append(f'{where}: #include "{inc}": {rel} lies in no layer folder '
                                    f"(emu/src/<layer>/..., layers: {', '.join(ALLOWED)})")
                    continue
                if "/" not in inc and os.path.isfile(os.path.join(dirpath, inc)):
                    continue  # a file beside the includer: its own layer
                if "/" not in inc and layer == "tools" and any(
                        os.path.isfile(os.path.join(src, "tools", d, inc))
                        for d in os.listdir(os.path.join(src, "tools"))):
                    continue  # another tool's header, through its include path
                if inc.startswith("simtlab_emu/") and (
                        public_include is None or os.path.isfile(os.path.join(public_include, inc))):
                    continue  # a public header
                if not os.path.isfile(os.path.join(src, inc)):
                    problems.append(f'{where}: #include "{inc}" names no file of emu/src '
                                    f'(name the layer: "engine/api.hpp")')
                    continue
                if not allowed(layer, inc):
                    problems.append(f'{where}: #include "{inc}": the {layer} layer may not include '
                                    f"{inc.split('/', 1)[0]} files (it may include: "
                                    f"{', '.join(ALLOWED[layer]) or 'its own folder only'})")
    return problems


def self_test():
    """A planted forbidden include (the engine including the runtime) must
    be reported, and a clean tree must pass."""
    with tempfile.TemporaryDirectory() as root:
        for rel, text in {
            "runtime/internal.hpp": "",
            "engine/api.hpp": "",
            "engine/grid.cpp": '#include "engine/api.hpp"\n',
            "runtime/memory.cpp": '#include "engine/api.hpp"\n#include "runtime/internal.hpp"\n',
        }.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        if check(root, None):
            return "self-test: a clean tree was reported: " + "; ".join(check(root, None))
        with open(os.path.join(root, "engine/grid.cpp"), "a") as f:
            f.write('#include "runtime/internal.hpp"\n')
        found = check(root, None)
        if len(found) != 1 or "engine/grid.cpp:2" not in found[0] or "runtime/internal.hpp" not in found[0]:
            return "self-test: the engine including the runtime was not reported as such: " + repr(found)
    return None


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: check_layers.py <emu/src>", file=sys.stderr)
        return 2
    failed = self_test()
    if failed:
        print(failed)
        return 1
    src = os.path.abspath(sys.argv[1])
    public = os.path.join(os.path.dirname(src), "include")
    problems = check(src, public if os.path.isdir(public) else None)
    for p in problems:
        print(p)
    if problems:
        print(f"emu.layers: {len(problems)} include(s) against the direction of the layers "
              "(the table: emu/tests/check_layers.py)")
        return 1
    print("emu.layers: every include of emu/src follows the direction of the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
