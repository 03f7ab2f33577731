#!/usr/bin/env python3
"""Checks that the figures the pages quote come from the result files they link, and that pages
and results say what is true now, not when or in which attempt it was found.

Figures (docs/checks.md). A page is a *.md outside docs/results/, or one that people write inside it
(its README.md indexes, build_times.md; the rest there is programs' output). Its text is cut into units: a
paragraph, a list item, a table row. A unit that links a file or folder under docs/results/
attributes its figures to those files; a paragraph or item without a link of its own takes those
of its section (up to the next heading); the rows of a table take their own links and those of the
paragraph just above the table. Every number in such a unit, decimal or whole, must occur in one of its
files (a linked folder counts as every file in it, recursively): a decimal as written or as the
rounding of a longer one (1.096 matches 1.0963, not 1.0953), a whole number as a whole number
(108 does not match 1080 or 10.8). Not figures, and not checked: what is in code spans and fenced code, link targets,
dates, powers of two (2^28, 2e28), names with digits (H100, sm_90, ch07, reduce_kernel_9), the
numbers after stage, kernel, chapter, question, exercise, step, block, warp, lane, bin and their
plurals (stages 2-7), a table's first column when it is a number, ordinals (4th), the whole numbers 0 to 9, and the powers of two up
to 1024 (block sizes, lanes, bins). A figure that is not in the files passes when, at the
precision it is written with, it is the ratio or percentage of two figures of the same
unit (or, for a table row, of the row and the paragraph above the table) that are. A paragraph's figure also passes
when a table row of its section (checked itself) shows it. Commit ids (065228a) are not figures.

Index. Each GPU folder's README.md under docs/results/ links every file of that folder.

History (docs/checks.md). No page and no file under docs/results/ may say when or in which sitting
something ran ("session", "this morning", "yesterday", "for want of", "not yet run", "second run",
"at that tree", "the tree's default", "made before that change", "the files' tree", "now times", ...),
and no file or folder under docs/results/ may be named for an attempt or a commit (`_run2`, `_rest`,
a 7-hex-digit commit, `base_<hash>`). Logs that tools wrote (*.txt, *.csv) are results as
they ran and are not read for words, only for their names.

  scripts/maintainers/check_result_figures.py [--root DIR] [--only figures|history]
Exit codes: 0 all good; 1 a figure, an index entry or a history word is wrong (each is printed).
"""
import argparse
import os
import re
import sys

LINK_RE = re.compile(r"\]\(([^)\s]+)\)")
FENCE_RE = re.compile(r"^\s*(```|~~~)")
TABLE_RE = re.compile(r"^\s*\|")
ITEM_RE = re.compile(r"^\s*([-*+]|\d+\.)\s")
HEADING_RE = re.compile(r"^\s*#")
CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
# A number: digits with optional thousands commas and an optional decimal part.
NUM_RE = re.compile(r"(?<![\w.^/#-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w.]?\d)")
NOT_FIGURES = [
    re.compile(r"\d{4}-\d{2}-\d{2}"),                              # dates
    re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"),  # commits: 065228a
    re.compile(r"\b\d+\s*(\^|\*\*)\s*\d+([+-]\d+)?"),               # 2^28, 2^31+1
    re.compile(r"\b\d+e\d+\b"),                                     # 2e28 (file names' spelling)
    re.compile(r"(?i)\b(stages?|kernels?|chapters?|ch|sections?|questions?|exercises?|steps?|blocks?|warps?|lanes?|"
               r"bins?|sm|issue|#|rows?|lines?|columns?|tiles?|levels?|seeds?|passes|pass|threads?|"
               r"items?|sizes?|types?|bytes?|KiB|MiB|GiB)\s+\d+[a-z]?((\s*(,|-|–|to|and|or|,\s*and)\s*)\d+[a-z]?\b)*"),
    re.compile(r"\b\d+(st|nd|rd|th)\b"),                            # ordinals
    re.compile(r"(?<![\d,.])\d[\d,]*(-| )(floats?|ints?|doubles?|elements?|samples?)\b"),  # sizes: 2,048 floats
    # sizes and design numbers, not measurements: 96 KiB, 48 registers, six stages, 264 blocks
    re.compile(r"(?<![\d,.])\d[\d,.]*\s*(KiB|MiB|GiB|KB|MB|GB|TB)(?!/)"),
    re.compile(r"(?<![\d,.])\d[\d,]*\s+(registers?|stages?|tiles?|windows?|SMs?|warps?|copies|bins?|"
               r"levels?|trips?|items?|vectors?|blocks?|lanes?|threads?|GPUs?|links?|ranks?)\b"),
    re.compile(r"(?i)\b(CUDA(\s+Toolkit)?|nvcc|sm_|compute capability|version|release|driver|NCCL|Catch2|CMake)\s*\d[\d.]*"),
    re.compile(r"(?<![\d,.])\d+\s*(min|minutes?|hours?)\b"),          # reading-time estimates
    re.compile(r"(?i)\b(exit(s|ed)?( code)?( with)?|code|returns?)\s+\d+|\b\d+ without a GPU"),  # exit 77
    re.compile(r"(?<![\d,.])\d+(-|\s)(bit|byte|element|thread|warp|block|lane|way|wide)s?\b"),  # 32-bit, 16-byte
]


# The pages under docs/results/ that people write (the rest there is programs' output).
RESULTS_PAGES = ("README.md", "build_times.md")


def pages(root):
    results = os.path.join(root, "docs", "results")
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
        inside = here == results or here.startswith(results + os.sep)
        for f in sorted(files):
            if f.endswith(".md") and (not inside or f in RESULTS_PAGES):
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


def units(lines):
    """[(kind, [(line number, text), ...])] of a page: "para", "item", "row" or "head"; fenced code
    left out. A paragraph ends at a blank line, a heading, a list item or a table."""
    out, fenced, current = [], False, None
    for no, line in enumerate(lines, 1):
        if FENCE_RE.match(line):
            fenced, current = not fenced, None
            continue
        if fenced or not line.strip():
            current = None
            continue
        if HEADING_RE.match(line):
            out.append(("head", [(no, line)]))
            current = None
        elif TABLE_RE.match(line):
            out.append(("row", [(no, line)]))
            current = None
        elif ITEM_RE.match(line) or current is None or current[0] == "row":
            current = ("item" if ITEM_RE.match(line) else "para", [(no, line)])
            out.append(current)
        else:
            current[1].append((no, line))
    return out


def result_links(text, page, results_dir):
    targets = []
    for m in LINK_RE.finditer(text):
        t = m.group(1).split("#")[0]
        if not t or "://" in t:
            continue
        full = os.path.normpath(os.path.join(os.path.dirname(page), t))
        if full.startswith(results_dir + os.sep) and not full.endswith("README.md"):
            targets.append(full)
    return targets


def figures(text):
    """The numbers of one line that are figures (see the module's docstring)."""
    bare = LINK_RE.sub("]()", text)
    bare = CODE_SPAN_RE.sub(lambda m: " " * len(m.group(0)), bare)
    bare = re.sub(r"^\s*\|\s*\d+[a-z]?\s*\|", "|", bare)  # a table's first column: a row number or stage
    for r in NOT_FIGURES:
        bare = r.sub(lambda m: " " * len(m.group(0)), bare)
    for m in NUM_RE.finditer(bare):
        num = m.group(1)
        whole = "." not in num and int(num.replace(",", ""))
        if whole is not False and (whole < 10 or (whole <= 1024 and whole & (whole - 1) == 0)):
            continue  # 0-9 and the powers of two that are block sizes, lanes and bins
        yield num


FILE_NUM_RE = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")
_numbers = {}


def numbers_of(text):
    """{whole numbers as strings}, [(value, decimals) of the decimals] of a results file."""
    key = id(text)
    if key not in _numbers:
        wholes, decimals = set(), []
        for m in FILE_NUM_RE.finditer(text):
            t = m.group(1).replace(",", "")
            if "." in t:
                decimals.append((float(t), len(t.split(".")[1])))
            else:
                wholes.add(t)
        _numbers[key] = (text, wholes, decimals)
    return _numbers[key][1:]


def occurs(num, text):
    """True when the file has `num`: a whole number as a whole number; a decimal as written, or
    a longer decimal that rounds to it (1.096 for 1.0963, not for 1.0953)."""
    plain = num.replace(",", "")
    wholes, decimals = numbers_of(text)
    if "." not in plain:
        return plain in wholes
    d = len(plain.split(".")[1])
    x, half = float(plain), 0.5 * 10 ** -d + 1e-9
    return any(dd >= d and abs(v - x) <= half for v, dd in decimals)


def check_page(page, results_dir, cache):
    problems = []
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    above, above_values = [], []  # the links and figures of the last paragraph before the current table
    previous = None
    all_units = units(lines)
    # A unit without a results link of its own takes those of its section (the units between two
    # headings): the section's figures are attributed to the files the section links.
    section_links, current = [], []
    for kind, unit in all_units:
        if kind == "head":
            current = []
        current += result_links(" ".join(t for _, t in unit), page, results_dir)
        section_links.append(current)
    # The table rows of each section: a paragraph may repeat what a table of its section shows (the
    # rows themselves are checked against their files).
    section_rows, rows_here = [], []
    for kind, unit in reversed(all_units):
        if kind == "row":
            rows_here.append(" ".join(t for _, t in unit))
        section_rows.append(" ".join(rows_here))
        if kind == "head":
            rows_here = []
    section_rows.reverse()
    for i, (kind, unit) in enumerate(all_units):
        text = " ".join(t for _, t in unit)
        own = result_links(text, page, results_dir) if kind != "head" else []
        if not own and kind not in ("row", "head"):  # a table row takes the paragraph above the table instead
            own = section_links_of(all_units, section_links, i)
        if kind == "row":
            if previous != "row":
                above_table, values_above_table = above, above_values
            targets = own + above_table
        else:
            targets = own
            above, above_values = own, []
        previous = kind
        if not targets or kind == "head":
            continue
        texts = [read(p, cache) for t in targets for p in result_texts(t)]
        found, missing = [], []
        for no, line in unit:
            for num in figures(line):
                (found if any(occurs(num, t) for t in texts) else missing).append((no, num))
        values = [value(n) for _, n in found]
        if kind == "row":
            values += values_above_table
            values_above_table = values_above_table + [value(n) for _, n in found]  # earlier rows too
        else:
            above_values = values
        for no, num in missing:
            if kind != "row" and occurs(num, section_rows_of(all_units, section_rows, i)):
                continue
            if not derived(num, values):
                problems.append("%s:%d: %s is not in %s" % (page, no, num, ", ".join(sorted(set(
                    os.path.relpath(t, os.path.dirname(page)) for t in targets)))))
    return problems


def section_rows_of(all_units, section_rows, i):
    """The text of the table rows of the section unit i belongs to."""
    j = i
    while j > 0 and all_units[j][0] != "head":
        j -= 1
    return section_rows[j]


def section_links_of(all_units, section_links, i):
    """The results links of the section unit i belongs to (every unit up to the next heading)."""
    j = i
    while j + 1 < len(all_units) and all_units[j + 1][0] != "head":
        j += 1
    return sorted(set(section_links[j]))


def value(num):
    return float(num.replace(",", ""))


def derived(num, values):
    """True when `num`, at the precision it is written with, is the ratio or the percentage of
    two figures of the same unit that are in its files (0.2494 and 0.2461 give 1.01, 101.3 and
    1.3 %)."""
    x = value(num)
    half = 0.5 * 10 ** -(len(num.split(".")[1]) if "." in num else 0) + 1e-12
    for a in values:
        for b in values:  # (a row's ratio to itself, 1.00, included)
            cands = []
            if b:
                cands += [a / b, 100 * a / b, 100 * (a / b - 1), 100 * (1 - a / b)]
            if any(abs(c - x) <= half for c in cands):
                return True
    return False


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


# Words that date a sentence or name a sitting: a page says what is true now.
HISTORY_RE = re.compile(
    r"(?i)\b(sessions?|this morning|morning'?s|afternoon|yesterday|today'?s?|tonight|last night|"
    r"for want of|not yet (run|measured|been run)|yet to be run|at the time|earlier run|"
    r"(first|second|third|fourth|fifth|later|earlier) (run|attempt|sitting)s?|"
    r"re-?ran|rerun of|this time|no longer|used to|previously|originally|was fixed|had been|"
    r"(is|are) now|before the fix|after the fix|"
    # a lab notebook's tree and change: a page says what each file was made with (its command line)
    r"at (that|this|a|the|the current) tree|(that|this|the) tree's default|the files' tree|"
    r"(made|measured|run|ran|taken) (before|after) (that|this|the) change|now (times|runs|uses|takes))\b|"
    r"^#+\s*(before|after)\b")
# A date says when: pages and the results READMEs say what ran, on which GPU and tree (a commit).
DATE_RE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
# Names of results files and folders that record an attempt or a commit.
ATTEMPT_NAME_RE = re.compile(r"(?i)(_run\d+|_rest\b|_retry|_old\b|_new\b|_v\d+\b|_attempt|(^|[_/.-])base_[0-9a-f]{7,}|"
                             r"(^|[_/.-])[0-9a-f]{7,40}(?=[_./-]|$)|_vs_[0-9a-f]{7,})")


def check_history(root, results_dir):
    problems = []
    texts = list(pages(root))
    for here, _, files in os.walk(results_dir):
        for f in sorted(files):
            full = os.path.join(here, f)
            rel = os.path.relpath(full, results_dir)
            m = ATTEMPT_NAME_RE.search(rel.rsplit(".", 1)[0])
            if m and not re.fullmatch(r"[_/.-]?\d+", m.group(0)):
                problems.append("%s: named for an attempt or a commit (%s): one current file per "
                                "experiment per GPU" % (os.path.relpath(full, root), m.group(0).strip("_/.-")))
            if f.endswith(".md"):
                texts.append(full)
    for path in texts:
        fenced = False
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f.read().split("\n"), 1):
                if FENCE_RE.match(line):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                bare = LINK_RE.sub("]()", line)
                bare = CODE_SPAN_RE.sub(" ", bare)
                found = list(HISTORY_RE.finditer(bare))
                if os.path.basename(path) == "README.md" or not path.startswith(results_dir + os.sep):
                    found += list(DATE_RE.finditer(bare))
                for m in found:
                    problems.append("%s:%d: history word \"%s\": say what ran, with which command, on which "
                                    "GPU and tree, not when" % (os.path.relpath(path, root), no, m.group(0)))
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--only", choices=("figures", "history"), help="run one of the two checks")
    a = ap.parse_args(argv)
    root = os.path.abspath(a.root)
    results_dir = os.path.join(root, "docs", "results")
    cache, problems, count = {}, [], 0
    if a.only != "history":
        for page in pages(root):
            count += 1
            problems += check_page(page, results_dir, cache)
        problems += check_indexes(results_dir)
    if a.only != "figures":
        problems += check_history(root, results_dir)
    for p in problems:
        # Only the page's own path is made relative: relpath over the whole message would fold the
        # link's "../" into the page's folder and drop the figure.
        page_path, sep, rest = p.partition(":")
        print((os.path.relpath(page_path, root) if os.path.isabs(page_path) else page_path) + sep + rest)
    if problems:
        print("check_result_figures.py: %d problem(s)" % len(problems))
        return 1
    print("check_result_figures.py: %s" % "; ".join(
        ([] if a.only == "history" else ["every figure a page attributes to a results file is in it (%d pages)" % count,
                                          "every results index links every file"])
        + ([] if a.only == "figures" else ["no history word in pages and results, no attempt or commit in a results name"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
