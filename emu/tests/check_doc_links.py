#!/usr/bin/env python3
"""Checks the relative links of markdown pages: the file must exist and, for
a #fragment, the target page must have a heading with that GitHub anchor.
Usage: check_doc_links.py PAGE.md...  Exit 1 if a link is broken."""
import os, re, sys

def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip()
        a = text.lower()
        a = re.sub(r"[^\w\- ]", "", a)      # GitHub drops punctuation except - and _
        out.add(a.replace(" ", "-"))
    return out

bad = 0
for page in sys.argv[1:]:
    text = open(page, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)      # code blocks
    text = re.sub(r"`[^`\n]*`", "", text)                   # inline code
    for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", text):
        url = m.group(1)
        if re.match(r"[a-z]+:", url):
            continue
        path, _, frag = url.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(target):
            print(f"{page}: {url}: no such file {target}"); bad += 1; continue
        if frag and target.endswith(".md") and frag not in anchors(target):
            print(f"{page}: {url}: no heading #{frag} in {target}"); bad += 1
print(f"{len(sys.argv) - 1} pages, {bad} broken links")
sys.exit(1 if bad else 0)
