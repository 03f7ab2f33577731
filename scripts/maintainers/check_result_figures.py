#!/usr/bin/env python3
"""Checks that the figures the pages quote come from the result files they link.

The convention (docs/checks.md): in a page (*.md outside docs/results/), a line or table row that
links a file or folder under docs/results/ may quote numbers; every number written with a decimal
point there (0.2523, 4296.2, 1.14) must occur, as written, in one of the files that line links (a
linked folder counts as every file in it, recursively). Whole numbers, dates and powers of two are
not checked. It also checks that each GPU folder's README.md under docs/results/ links every file of
that folder (the index lists every file).

  scripts/maintainers/check_result_figures.py [--root DIR]
Exit codes: 0 every figure found; 1 a figure or an index entry is missing (each is printed).
"""
import argparse
import os
import re
import sys

LINK_RE = re.compile(r"\]\(([^)\s]+)\)")
NUM_RE = re.compile(r"(?<![\w.^/#-])(\d[\d,]*\.\d+)(?![\w.])")
FENCE_RE = re.compile(r"^\s*(```|~~~)")


def pages(root):
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("build",)
                         and os.path.join(here, d) != os.path.join(root, "docs", "results"))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(here, f)


def result_texts(target):
    if os.path.isdir(target):
        for here, _, files in os.walk(target):
            for f in files:
                yield os.path.join(here, f)
    elif os.path.isfile(target):
        yield target


def read(path, cache):
    if path not in cache:
        with open(path, encoding="utf-8", errors="replace") as f:
            cache[path] = f.read()
    return cache[path]


def check_page(page, results_dir, cache):
    problems = []
    fenced = False
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        if FENCE_RE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        targets = []
        for m in LINK_RE.finditer(line):
            t = m.group(1).split("#")[0]
            if not t or "://" in t:
                continue
            full = os.path.normpath(os.path.join(os.path.dirname(page), t))
            if full.startswith(results_dir + os.sep) and full != os.path.join(results_dir, "README.md"):
                targets.append(full)
        if not targets:
            continue
        texts = [read(p, cache) for t in targets for p in result_texts(t)]
        # Numbers inside the link targets themselves (file names) are not figures.
        bare = LINK_RE.sub("]()", line)
        for m in NUM_RE.finditer(bare):
            num = m.group(1)
            plain = num.replace(",", "")
            if not any(num in t or plain in t for t in texts):
                problems.append("%s:%d: %s is not in %s" % (page, no, num, ", ".join(
                    os.path.relpath(t, os.path.dirname(page)) for t in targets)))
    return problems


def check_indexes(results_dir):
    problems = []
    for gpu in sorted(os.listdir(results_dir)):
        folder = os.path.join(results_dir, gpu)
        readme = os.path.join(folder, "README.md")
        if not os.path.isdir(folder) or not os.path.isfile(readme):
            continue
        text = read(readme, {})
        linked = {os.path.normpath(os.path.join(folder, m.group(1).split("#")[0]))
                  for m in LINK_RE.finditer(text)}
        for here, _, files in os.walk(folder):
            for f in files:
                full = os.path.normpath(os.path.join(here, f))
                if full != readme and full not in linked:
                    problems.append("%s: does not link %s" % (readme, os.path.relpath(full, folder)))
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    a = ap.parse_args(argv)
    root = os.path.abspath(a.root)
    results_dir = os.path.join(root, "docs", "results")
    cache, problems, count = {}, [], 0
    for page in pages(root):
        count += 1
        problems += check_page(page, results_dir, cache)
    problems += check_indexes(results_dir)
    for p in problems:
        # Only the page's own path is made relative: relpath over the whole message would fold the
        # link's "../" into the page's folder and drop the figure.
        page_path, sep, rest = p.partition(":")
        print((os.path.relpath(page_path, root) if os.path.isabs(page_path) else page_path) + sep + rest)
    if problems:
        print("check_result_figures.py: %d problem(s) in %d pages" % (len(problems), count))
        return 1
    print("check_result_figures.py: every figure beside a results link is in its file (%d pages); "
          "every results index links every file" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
