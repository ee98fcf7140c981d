#!/usr/bin/env python3
"""The tutorial's quoted program output and the programs, kept in step.

A quoted run in a page is a fenced block whose first line is the command,
after a `$ ` prompt, and whose other lines are what it prints (stdout; add
`2>&1` to the command to quote stderr too):

    ```
    $ SIMTLAB_SEED=42 build/bin/01_vector_add_emu --n 1000
    Vector add of n = 1000 floats ...
    ```

This script runs every such block again, from the repository root, with
`build/bin/` replaced by the build's folder of programs, and compares what
it prints with the block (see CONTRIBUTING.md, "Quoted program output"):

  - lines are compared in order, each one whole; runs of spaces match any
    run of spaces (columns widen with their numbers);
  - `...` inside a line matches any text; a line that is only `...` matches
    any number of lines (an excerpt);
  - numbers with a decimal point (timings, ratios, and the emulator's
    modelled figures, which depend on the compiler) match any number, and
    0x... addresses any address; whole numbers (sizes, counts, seeds) must
    be equal. Options go in a comment on the line before the block, split
    by `;`: `<!-- output: exact -->` compares decimals too;
    `<!-- output: vary: blocks, host cores -->` lets the whole number
    before each of those words vary (the emulator sizes some grids by the
    host's cores, so another machine prints another count);
  - `<!-- output: not checked: WHY -->` on the line before a block leaves it
    out (a GPU's output, which no test machine can produce); it is listed.

Every other fenced block with no language is program output too, and must
say why it is not run: `<!-- output: illustration: WHY -->` on the line
before it (a table a tool prints from nvcc's SASS, say, which needs what a
CPU-only machine lacks). Such blocks are listed; an unmarked one fails.
Blocks that are not program output (a diagram, a folder layout) are fenced
as ```text, and code as ```c, ```sh and so on.

The program's own paths are written back as the page writes them: the
build's bin folder as `build/bin`, the repository root as nothing.

It also checks that every reference in the pages resolves: each relative
link `[..](target#anchor)` names a file that exists (and a heading of it,
where an anchor is given), and each "chapter NN" has its page
tutorial/NN-*.md.

usage: check-tutorial-output.py --bin BUILD/bin [--list] PAGE.md ..."""
import argparse
import difflib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^```[A-Za-z]*\n(.*?)^```[ \t]*$", re.M | re.S)
OPTION = re.compile(r"<!--\s*output:\s*(.*?)\s*-->\s*$")
DECIMAL = re.compile(r"[-+]?\d+\.\d+(?:e[-+]?\d+)?")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def quoted_runs(text):
    """[(line number, command, expected lines, option)] of a page."""
    runs = []
    for m in FENCE.finditer(text):
        lines = m.group(1).splitlines()
        if not lines or not lines[0].startswith("$ "):
            continue
        cmd, rest = lines[0][2:], lines[1:]
        while cmd.endswith("\\") and rest:
            cmd, rest = cmd[:-1] + " " + rest[0].strip(), rest[1:]
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        opt = OPTION.search(before)
        lineno = text.count("\n", 0, m.start()) + 1
        runs.append((lineno, cmd, rest, opt.group(1) if opt else ""))
    return runs


def output_blocks(text):
    """[(line number, option)] of the fenced blocks with no language that are
    not quoted runs: program output that is not run."""
    found = []
    for m in FENCE.finditer(text):
        if not m.group(0).startswith("```\n"):
            continue  # a language: code, or ```text
        lines = m.group(1).splitlines()
        if lines and lines[0].startswith("$ "):
            continue
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        opt = OPTION.search(before)
        found.append((text.count("\n", 0, m.start()) + 1, opt.group(1) if opt else ""))
    return found


def pattern(line, exact, vary=()):
    """The regular expression one expected line stands for."""
    out, pos = [], 0
    varying = "".join(r"|\d+(?= %s\b)" % re.escape(w) for w in vary)
    token = re.compile(r"\.\.\.|\s+|0x[0-9a-fA-F]+|[-+]?\d+\.\d+(?:e[-+]?\d+)?" + varying)
    for m in token.finditer(line):
        out.append(re.escape(line[pos:m.start()]))
        t = m.group(0)
        if t == "...":
            out.append(".*?")
        elif t.isspace():
            out.append(r"\s+")
        elif ADDRESS.fullmatch(t):
            out.append(r"0x[0-9a-fA-F]+")
        elif exact and "." in t:
            out.append(re.escape(t))
        else:
            out.append(r"[-+]?(?:\d+\.\d+(?:e[-+]?\d+)?|\d+|nan|inf)")
        pos = m.end()
    out.append(re.escape(line[pos:]))
    return re.compile("".join(out))


def options(text):
    """(exact, [words whose number varies], not checked) from a comment's text."""
    exact, vary, skip = False, [], False
    for part in (p.strip() for p in text.split(";")):
        if part == "exact":
            exact = True
        elif part.startswith("vary:"):
            vary += [w.strip() for w in part[5:].split(",") if w.strip()]
        elif part.startswith("not checked"):
            skip = True
        elif part:
            raise SystemExit("unknown output option %r (exact; vary: words; not checked: why)" % part)
    return exact, vary, skip


def matches(want, got, exact, vary):
    """Whether the expected lines match the program's lines (`...` lines skip);
    else the index of the furthest expected line that could not be matched."""
    pats = [None if w.strip() == "..." else pattern(w.rstrip(), exact, vary) for w in want]
    best = [0]
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        best[0] = max(best[0], i)
        if i == len(pats):
            ok = j == len(got)
        elif pats[i] is None:
            ok = any(go(i + 1, k) for k in range(j, len(got) + 1))
        else:
            ok = j < len(got) and pats[i].fullmatch(got[j].rstrip()) is not None and go(i + 1, j + 1)
        memo[(i, j)] = ok
        return ok

    sys.setrecursionlimit(max(10000, 4 * (len(want) + len(got))))
    return go(0, 0), best[0]


def anchors(path):
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    found = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r"^#+\s+(.*?)\s*$", line)
            if m:
                a = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
                found.add(a)
    return found


def broken_references(page):
    """The page's links and chapter numbers that lead nowhere."""
    with open(page, encoding="utf-8") as fh:
        text = fh.read()
    text_out_of_code = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    bad = []
    base = os.path.dirname(os.path.abspath(page))
    for m in re.finditer(r"\]\(([^)\s]+)\)", text_out_of_code):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue  # http:, mailto:
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(base, path)) if path else os.path.abspath(page)
        if not os.path.exists(full):
            bad.append("link to %s: no such file" % target)
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            bad.append("link to %s: no heading #%s in %s" % (target, anchor, os.path.relpath(full, ROOT)))
    tutorial = os.path.join(ROOT, "tutorial")
    pages = os.listdir(tutorial)
    for m in re.finditer(r"\b[Cc]hapters? (\d\d)\b", text_out_of_code):
        if not any(f.startswith(m.group(1) + "-") and f.endswith(".md") for f in pages) and m.group(1) != "00":
            bad.append("'%s': tutorial/%s-*.md does not exist" % (m.group(0), m.group(1)))
    return sorted(set(bad))


CACHE = {}


def run(cmd, bindir, timeout):
    """(exit status or None on a timeout, stdout as the page writes it); a
    command quoted twice runs once, and so does one quoted whole and again
    with `| tail -n N` or `| head -n N` after it (the end or the start of
    the same output: its lines are cut here, and the status is the
    command's, as bash's pipefail would give it)."""
    m = re.match(r"^(.*\S)\s*\|\s*(tail|head) -n (\d+)\s*$", cmd)
    if m and "|" not in m.group(1) and "2>&1" not in m.group(1):
        rc, text = run(m.group(1), bindir, timeout)
        if rc is None:
            return rc, text
        lines = text.splitlines(keepends=True)
        k = int(m.group(3))
        lines = (lines[-k:] if k else []) if m.group(2) == "tail" else lines[:k]
        return rc, "".join(lines)
    if cmd not in CACHE:
        CACHE[cmd] = run_once(cmd, bindir, timeout)
    return CACHE[cmd]


def run_once(cmd, bindir, timeout):
    real = re.sub(r"(?<![\w/.-])build/bin/", bindir + "/", cmd)
    try:
        r = subprocess.run(["bash", "-c", real], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % timeout
    text = r.stdout.replace(bindir + "/", "build/bin/").replace(bindir, "build/bin").replace(ROOT + "/", "")
    return r.returncode, text


def self_test():
    """The comparison itself, on made-up pages run with echo: what must pass
    passes and what must fail fails (run before the pages, every time)."""
    import tempfile
    cases = [
        (True, "", "$ echo 'took 1.25 ms, n = 1000'", ["took 0.5 ms, n = 1000"]),
        (False, "", "$ echo 'took 1.25 ms, n = 1000'", ["took 1.25 ms, n = 1001"]),
        (False, "exact", "$ echo 'ratio 31.0'", ["ratio 30.0"]),
        (True, "vary: blocks", "$ echo '64 blocks of 256 threads'", ["32 blocks of 256 threads"]),
        (False, "vary: blocks", "$ echo '64 blocks of 256 threads'", ["64 blocks of 128 threads"]),
        (True, "", "$ printf 'a\\nb\\nc\\nd\\n'", ["a", "...", "d"]),
        (False, "", "$ printf 'a\\nb\\n'", ["a"]),
        (True, "", "$ echo 'at 0x7f00ab by x'", ["at 0x1 by ..."]),
        (False, "", "$ false", []),
    ]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for want_ok, opt, cmd, lines in cases:
            page = os.path.join(tmp, "page.md")
            with open(page, "w", encoding="utf-8") as fh:
                fh.write(("<!-- output: %s -->\n" % opt if opt else "") + "```\n" + cmd + "\n" +
                         "".join(l + "\n" for l in lines) + "```\n")
            with open(page, encoding="utf-8") as fh:
                (_, c, w, o), = quoted_runs(fh.read())
            exact, vary, _ = options(o)
            rc, text = run_once(c, tmp, 30)
            ok = rc == 0 and matches(w, text.splitlines(), exact, vary)[0]
            if ok != want_ok:
                bad += 1
                print("self-test FAILED: %r with %r %s" % (cmd, lines, "failed" if want_ok else "passed"))
    return bad


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the build's folder of programs (BUILD/bin)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per command")
    ap.add_argument("--list", action="store_true", help="list the quoted runs, run nothing")
    ap.add_argument("--links-only", action="store_true",
                    help="check the references only (a build without the SIMT counters, as under ASan, "
                         "cannot print the modelled tables the pages quote)")
    ap.add_argument("pages", nargs="+")
    args = ap.parse_args(argv)
    bindir = os.path.abspath(args.bin)
    bad = checked = skipped = 0
    if not args.list and not args.links_only:
        bad += self_test()
    for page in args.pages:
        with open(page, encoding="utf-8") as fh:
            runs = quoted_runs(fh.read())
        name = os.path.relpath(os.path.abspath(page), ROOT)
        for why in broken_references(page):
            bad += 1
            print("FAILED: %s: %s" % (name, why))
        with open(page, encoding="utf-8") as fh:
            for lineno, opt in output_blocks(fh.read()):
                if opt.startswith("illustration:") and opt[len("illustration:"):].strip():
                    skipped += 1
                    print("illustration (not checked): %s:%d (%s)" % (name, lineno, opt))
                else:
                    bad += 1
                    print("FAILED: %s:%d: a block of program output that is neither a quoted run (`$ command` "
                          "on its first line) nor marked <!-- output: illustration: WHY --> (a block that is "
                          "not output is fenced as ```text)" % (name, lineno))
        for lineno, cmd, want, opt in runs:
            where = "%s:%d" % (name, lineno)
            exact, vary, skip = options(opt)
            if skip:
                skipped += 1
                print("not checked: %s `%s` (%s)" % (where, cmd, opt))
                continue
            if args.list or args.links_only:
                print("%s `%s` (%d lines)" % (where, cmd, len(want)))
                continue
            checked += 1
            rc, text = run(cmd, bindir, args.timeout)
            got = text.splitlines() if rc is not None else []
            ok, upto = matches(want, got, exact, vary) if rc is not None else (False, 0)
            if ok and rc == 0:
                print("in step: %s `%s` (%d lines)" % (where, cmd, len(want)))
                continue
            bad += 1
            if rc is None:
                print("FAILED: %s `%s`: %s" % (where, cmd, text))
                continue
            why = "exited with %d" % rc if ok else "line %d of the quote does not match: %r" % (
                upto + 1, want[upto] if upto < len(want) else "(the program printed more)")
            print("FAILED: %s `%s`: %s; the page against what it prints now:" % (where, cmd, why))
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(want, got, "page", "program",
                                                                        lineterm=""))
    if args.links_only:
        print("references only: the quoted runs were not run (--links-only)")
    elif not args.list:
        print("%d quoted run(s) in step, %d not, %d not checked" % (checked - bad, bad, skipped))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
