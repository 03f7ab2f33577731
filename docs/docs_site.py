#!/usr/bin/env python3
"""The Doxygen site's helpers: the pages of the repository (README.md, the chapter READMEs,
docs/*.md) are written for reading in the repository, where a chapter page shows
`../docs/figures/x.png` and links `../docs/results/H200/ch07/`; this makes the same pages work in
the site, and checks that they do.

  docs_site.py filter FILE
      Doxygen's input filter for *.md (FILTER_PATTERNS): prints FILE with its links rewritten for
      the site. A figure under docs/figures/ becomes its bare name (IMAGE_PATH copies it into the
      site); a results folder under docs/results/ becomes a link to its generated page, a Markdown
      file there to its section of that page, any other results file to its copy in html/results/;
      a link to a header becomes a reference to its documentation page. The main page (README.md)
      gets docs/start_here.md in place of its "Start here" section, and links to docs/start_here.md
      lead to the main page. Fenced code blocks are left alone.
  docs_site.py results PAGES_DIR HTML_DIR
      Writes one page per folder of docs/results/ (results_<folder>.md in PAGES_DIR: the folder's
      README, its Markdown tables, its text files verbatim, its CSV files as tables when no Markdown
      table of the same name exists) and copies every file of docs/results/ to HTML_DIR/results/.
  docs_site.py check HTML_DIR
      Fails (exit 1) when a page of the site shows an image or links a file or anchor that the site
      does not have, or links out of the site's folder; lists each one.
  docs_site.py check-sources
      Fails (exit 1) when a page of the repository (README.md, ch*/**/*.md, docs/**/*.md) links
      or shows a file that the repository does not have.

Python standard library only. Exit codes: 0 fine, 1 a broken link or image, 2 bad command line.
"""
import argparse
import csv
import html
import os
import re
import shutil
import sys
from urllib.parse import unquote

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
FIGURES = os.path.join(DOCS, "figures")
RESULTS = os.path.join(DOCS, "results")
START_HERE = os.path.join(DOCS, "start_here.md")
MAIN_PAGE = os.path.join(ROOT, "README.md")
HEADER_EXTS = (".hpp", ".cuh", ".h")

# [text](target "title") and ![alt](target): the target has no spaces.
LINK_RE = re.compile(r'(!?\[(?:[^\[\]]|\[[^\]]*\])*\]\()(\s*)([^)\s]+)((?:\s+"[^"]*")?\s*\))')
FENCE_RE = re.compile(r"^\s*(```|~~~)")


def fenced(lines):
    """(line, in_code) for each of `lines`: in_code is true inside fenced code blocks and on their
    ``` / ~~~ delimiter lines (a block ends at the delimiter it opened with)."""
    fence = None
    for line in lines:
        m = FENCE_RE.match(line)
        if m:
            fence = m.group(1) if fence is None else (None if m.group(1) == fence else fence)
            yield line, True
        else:
            yield line, fence is not None


def map_outside_fences(text, f):
    """`text` with f(line) in place of every line outside fenced code."""
    return "".join(line if in_code else f(line) for line, in_code in fenced(text.splitlines(True)))


# ----------------------------------------------------------------------------------------------
# Names
# ----------------------------------------------------------------------------------------------

def label(*parts):
    """A Doxygen page or section name: letters, digits and _ only."""
    return re.sub(r"[^A-Za-z0-9_]", "_", "_".join(p for p in parts if p))


def results_page(folder):
    """The page of a folder under docs/results ('' = docs/results itself, which is the hand-written
    page `results`)."""
    rel = os.path.relpath(folder, RESULTS)
    return "results" if rel == "." else label("results", rel)


def results_section(path):
    """The section, on its folder's page, that shows the file `path` under docs/results."""
    return label(results_page(os.path.dirname(path)), os.path.basename(path))


def is_external(target):
    return re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) is not None or target.startswith("//")


def under(path, folder):
    return os.path.commonpath([os.path.abspath(path), folder]) == folder


# ----------------------------------------------------------------------------------------------
# filter
# ----------------------------------------------------------------------------------------------

def site_target(target, base_dir, page_dir):
    """What a link written in a file of `base_dir` should point to in the site, when the page is
    read by Doxygen from `page_dir`; None to keep it as it is."""
    if is_external(target) or target.startswith("#") or target.startswith("@") or target.startswith("\\"):
        return None
    path, _, anchor = target.partition("#")
    if not path:
        return None
    full = os.path.normpath(os.path.join(base_dir, unquote(path)))
    if under(full, FIGURES) and os.path.isfile(full):
        return os.path.basename(full)  # IMAGE_PATH = docs/figures
    if under(full, RESULTS) and os.path.exists(full) and full != os.path.join(RESULTS, "README.md"):
        # (docs/results/README.md is a page of its own, which Doxygen links by itself.)
        if os.path.isdir(full):
            return "@ref " + results_page(full)
        if full.endswith(".md"):
            if os.path.basename(full) == "README.md":
                return "@ref " + results_page(os.path.dirname(full))
            return "@ref " + results_section(full)
        return "results/" + os.path.relpath(full, RESULTS).replace(os.sep, "/") + (("#" + anchor) if anchor else "")
    if full == START_HERE:
        return "@ref index"
    if anchor and full.endswith(".md") and os.path.isfile(full) and under(full, ROOT):
        # A term or section of another page, marked there with <a id="anchor"></a> (GitHub's form):
        # Doxygen knows it as the label that page_anchors() gives it.
        return "@ref " + anchor_label(full, anchor)
    if full.endswith(HEADER_EXTS) and os.path.isfile(full) and under(full, ROOT):
        return "@ref " + os.path.relpath(full, ROOT).replace(os.sep, "/")
    if (not anchor and full.endswith(".md") and os.path.isfile(full) and under(full, ROOT)
            and full != os.path.join(RESULTS, "README.md")):  # (Doxygen links that one by itself)
        # A page with its own label (`<a id="label"></a>` on the line above its title): Doxygen
        # links it by that label.
        with open(full, encoding="utf-8") as f:
            label = page_label(f.read())
        if label:
            return "@ref " + label
    if base_dir != page_dir and not anchor and os.path.exists(full):
        # Text moved into another page (start_here.md into README.md): re-aim its relative links.
        return os.path.relpath(full, page_dir).replace(os.sep, "/")
    return None


ANCHOR_RE = re.compile(r'^<a id="([A-Za-z0-9_-]+)"></a>\s*$')
# A page's own label: `<a id="label"></a>` on the line above its `# Title`. GitHub shows nothing;
# the filter hands it to Doxygen as `# Title {#label}`.
PAGE_LABEL_RE = re.compile(r'\A<a id="([A-Za-z0-9_]+)"></a>[ \t]*\n(# [^\n]*)\n')


def page_label(text):
    """The label a page gives itself (see PAGE_LABEL_RE), or None."""
    m = PAGE_LABEL_RE.match(text)
    return m.group(1) if m else None


def labelled_title(text):
    """`text` with its leading `<a id="label"></a>` + `# Title` turned into `# Title {#label}`."""
    return PAGE_LABEL_RE.sub(lambda m: "%s {#%s}\n" % (m.group(2), m.group(1)), text, count=1)


def anchor_label(page, anchor):
    """The Doxygen label of `<a id="anchor"></a>` in `page`: the page's name, then the anchor
    (labels are global in Doxygen; GitHub's ids are per page)."""
    name = os.path.splitext(os.path.basename(page))[0]
    return re.sub(r"[^A-Za-z0-9_]", "_", "%s_%s" % (name, anchor))


def page_anchors(text, page):
    """`text` with each line `<a id="x"></a>` (outside code) turned into Doxygen's `\\anchor` label."""
    def repl(line):
        m = ANCHOR_RE.match(line)
        return "\\anchor %s\n" % anchor_label(page, m.group(1)) if m else line
    return map_outside_fences(text, repl)


def rewrite_links(text, base_dir, page_dir):
    """`text` with every link outside fenced code blocks aimed at the site."""
    def repl(mm):
        new = site_target(mm.group(3), base_dir, page_dir)
        return mm.group(0) if new is None else mm.group(1) + mm.group(2) + new + mm.group(4)
    return map_outside_fences(text, lambda line: LINK_RE.sub(repl, line))


def start_here_section():
    """docs/start_here.md as the main page's "Start here" section: its title becomes a level-2
    heading, its other headings go one level down, its links are aimed from the repository root."""
    with open(START_HERE, encoding="utf-8") as f:
        text = f.read()
    demoted = map_outside_fences(text, lambda line: "#" + line if line.startswith("#") else line)
    return rewrite_links(demoted, DOCS, ROOT)


def main_page(text):
    """README.md with its "## Start here" section (up to the next level-2 heading) replaced by
    docs/start_here.md; unchanged when either is missing."""
    if not os.path.isfile(START_HERE):
        return text
    lines = text.splitlines(True)
    start = next((i for i, l in enumerate(lines) if re.match(r"^##\s+Start here", l)), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^##\s", lines[i])), len(lines))
    section = start_here_section()
    if not section.endswith("\n"):
        section += "\n"
    return "".join(lines[:start]) + section + "\n" + "".join(lines[end:])


def cmd_filter(a):
    path = os.path.abspath(a.file)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    page_dir = os.path.dirname(path)
    if under(path, ROOT):
        text = page_anchors(rewrite_links(labelled_title(text), page_dir, page_dir), path)
        if path == MAIN_PAGE:
            text = main_page(text)
    sys.stdout.write(text)
    return 0


# ----------------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------------

CSV_COLUMNS = ["stage", "n", "dtype", "op", "block", "grid", "iters", "ms_median", "gb_per_s",
               "pct_peak_bw", "vs_cub", "verified", "check"]


WORD_AT_RE = re.compile(r"(?<=\w)([@\\])(?=\w)")


def escape_commands(text):
    """Doxygen reads `@word` and `\\word` as commands, also inside a table cell; a program's output
    such as `histogram_stage_1@grid` must show as written. Escapes @ and \\ between two word
    characters outside code spans and fenced code (a page's own `(@ref x)` links are left alone)."""
    def escape(line):
        parts = line.split("`")
        return "`".join(WORD_AT_RE.sub(r"\\\1", p) if i % 2 == 0 else p for i, p in enumerate(parts))
    return map_outside_fences(text, escape)


def csv_table(path):
    """A Markdown table of a CSV: the columns of CSV_COLUMNS it has (all columns if none)."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return "(empty)\n"
    cols = [c for c in CSV_COLUMNS if c in rows[0]] or list(rows[0].keys())

    def cell(v):
        v = WORD_AT_RE.sub(r"\\\1", (v or "").replace("|", "\\|"))
        try:
            x = float(v)
            if "." in v or "e" in v.lower():
                return "%.4g" % x
        except ValueError:
            pass
        return v
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    out += ["| " + " | ".join(cell(r.get(c)) for c in cols) + " |" for r in rows]
    return "\n".join(out) + "\n"


def demote(text, levels=1):
    """Markdown headings `levels` deeper (outside fenced code)."""
    return map_outside_fences(text, lambda line: "#" * levels + line if re.match(r"^#{1,5}\s", line) else line)


def verbatim(text):
    fence = "~~~~~~" if "~~~" in text else "~~~"
    return fence + "\n" + text.rstrip("\n") + "\n" + fence + "\n"


def raw_link(path, text=None):
    rel = os.path.relpath(path, RESULTS).replace(os.sep, "/")
    return "[%s](results/%s)" % (text or "`%s`" % os.path.basename(path), rel)


def folder_page(folder):
    """The Markdown page of one folder under docs/results."""
    rel = os.path.relpath(folder, RESULTS).replace(os.sep, "/")
    files = sorted(f for f in os.listdir(folder) if os.path.isfile(os.path.join(folder, f)))
    subdirs = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
    name = results_page(folder)
    parent = results_page(os.path.dirname(folder))
    out = []
    readme = os.path.join(folder, "README.md")
    title = "Results: %s" % rel.replace("/", " / ")
    body = ""
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            text = f.read()
        first, _, rest = PAGE_LABEL_RE.sub(lambda m: m.group(2) + "\n", text, count=1).partition("\n")
        if first.startswith("# "):
            title = re.sub(r"\s*\{#[^}]*\}\s*$", "", first[2:].strip())
            text = rest
        body = rewrite_links(text, folder, folder)
    out.append("# %s {#%s}\n\n" % (title, name))
    out.append("The files of `docs/results/%s/` in the repository, as the programs wrote them: one "
               "section per file, with a link to the file itself (for a Markdown table, to the CSV "
               "with every column). Up: [%s](@ref %s).\n\n"
               % (rel, "docs/results/" + os.path.dirname(rel) if os.path.dirname(rel) else "docs/results", parent))
    if subdirs:
        out.append("Folders: " + ", ".join("[%s/](@ref %s)" % (d, results_page(os.path.join(folder, d)))
                                           for d in subdirs) + ".\n\n")
    if body.strip():
        out.append(demote(body, 1).strip("\n") + "\n\n")
    for f in files:
        path = os.path.join(folder, f)
        base, ext = os.path.splitext(f)
        if f == "README.md":
            continue
        if ext == ".csv" and os.path.isfile(os.path.join(folder, base + ".md")):
            continue  # shown with its Markdown table
        out.append("## %s {#%s}\n\n" % (f, results_section(path)))
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        if ext == ".md":
            # (Doxygen takes any link to a .md file for a page, so the Markdown is shown, not linked.)
            twin = os.path.join(folder, base + ".csv")
            if os.path.isfile(twin):
                out.append("The same table with every column: %s.\n\n" % raw_link(twin, "`%s`" % os.path.basename(twin)))
            out.append(demote(escape_commands(rewrite_links(text, folder, folder)), 2).strip("\n") + "\n\n")
        elif ext == ".csv":
            out.append("As written: %s. The main columns:\n\n" % raw_link(path, "the CSV file (every column)"))
            out.append(csv_table(path) + "\n")
        else:
            out.append("As written: %s.\n\n" % raw_link(path, "the file"))
            out.append(verbatim(text) + "\n")
    return name, "".join(out)


def cmd_results(a):
    os.makedirs(a.pages_dir, exist_ok=True)
    for old in os.listdir(a.pages_dir):
        if old.startswith("results_") and old.endswith(".md"):
            os.remove(os.path.join(a.pages_dir, old))
    count = 0
    for here, dirs, _ in os.walk(RESULTS):
        dirs.sort()
        if here == RESULTS:
            continue  # docs/results/README.md is the hand-written page `results`
        name, text = folder_page(here)
        with open(os.path.join(a.pages_dir, name + ".md"), "w", encoding="utf-8") as f:
            f.write(text)
        count += 1
    dest = os.path.join(a.html_dir, "results")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    shutil.copytree(RESULTS, dest)
    print("docs_site.py results: %d pages in %s, files copied to %s" % (count, a.pages_dir, dest))
    return 0


# ----------------------------------------------------------------------------------------------
# check
# ----------------------------------------------------------------------------------------------

ATTR_RE = re.compile(r"""<(a|img|link|script)\b[^>]*?\b(href|src)\s*=\s*(["'])(.*?)\3""", re.I | re.S)
ID_RE = re.compile(r"""\b(?:id|name)\s*=\s*(["'])(.*?)\1""", re.I)


def ids_of(path, cache):
    if path not in cache:
        with open(path, encoding="utf-8", errors="replace") as f:
            cache[path] = {m.group(2) for m in ID_RE.finditer(f.read())}
    return cache[path]


def check_html(html_dir):
    """[(page, what, target)] of every broken local image or link in the site."""
    html_dir = os.path.abspath(html_dir)
    broken, cache = [], {}
    for here, _, files in os.walk(html_dir):
        for f in sorted(files):
            if not f.endswith(".html"):
                continue
            page = os.path.join(here, f)
            with open(page, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for m in ATTR_RE.finditer(text):
                tag, target = m.group(1).lower(), html.unescape(m.group(4)).strip()
                if not target or is_external(target) or target.startswith("javascript:"):
                    continue
                path, _, anchor = target.partition("#")
                path = path.split("?", 1)[0]
                what = "image" if tag == "img" else "link"
                full = os.path.normpath(os.path.join(here, unquote(path))) if path else page
                rel_page = os.path.relpath(page, html_dir)
                if not under(full, html_dir):
                    broken.append((rel_page, what + " outside the site", target))
                elif not os.path.exists(full):
                    broken.append((rel_page, what + " to a missing file", target))
                elif anchor and full.endswith(".html") and anchor not in ids_of(full, cache):
                    broken.append((rel_page, what + " to a missing anchor", target))
    return broken


def cmd_check(a):
    if not os.path.isfile(os.path.join(a.html_dir, "index.html")):
        print("docs_site.py check: no index.html in %s: build the site first" % a.html_dir, file=sys.stderr)
        return 1
    broken = check_html(a.html_dir)
    for page, what, target in broken:
        print("%s: %s: %s" % (page, what, target))
    if broken:
        print("docs_site.py check: %d broken image(s) or link(s) in %s; the repository's page must link "
              "something the site has (docs/docs_site.py says what it maps)" % (len(broken), a.html_dir))
        return 1
    print("docs_site.py check: every image and link of %s resolves" % a.html_dir)
    return 0


def source_pages():
    pages = [MAIN_PAGE] if os.path.isfile(MAIN_PAGE) else []
    for d in sorted(os.listdir(ROOT)):
        if re.match(r"^ch\d\d_", d) and os.path.isdir(os.path.join(ROOT, d)):
            for here, dirs, files in os.walk(os.path.join(ROOT, d)):
                dirs.sort()
                pages += [os.path.join(here, f) for f in sorted(files) if f.endswith(".md")]
    for here, dirs, files in os.walk(DOCS):
        dirs.sort()
        pages += [os.path.join(here, f) for f in sorted(files) if f.endswith(".md")]
    return pages


def check_sources(pages):
    """[(page, target)] of every relative link or image in `pages` whose file does not exist."""
    broken = []
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for line, in_code in fenced(text.splitlines()):
            if in_code:
                continue
            for mm in LINK_RE.finditer(line):
                target = mm.group(3)
                if is_external(target) or target.startswith(("#", "@", "\\")):
                    continue
                path = target.partition("#")[0]
                if path and not os.path.exists(os.path.join(os.path.dirname(page), unquote(path))):
                    broken.append((os.path.relpath(page, ROOT), target))
    return broken


def cmd_check_sources(_):
    broken = check_sources(source_pages())
    for page, target in broken:
        print("%s: no such file: %s" % (page, target))
    if broken:
        print("docs_site.py check-sources: %d broken link(s) or image(s)" % len(broken))
        return 1
    print("docs_site.py check-sources: every relative link and image of the repository's pages resolves")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("filter", help="Doxygen input filter for *.md")
    p.add_argument("file")
    p.set_defaults(func=cmd_filter)
    p = sub.add_parser("results", help="pages and raw copies of docs/results")
    p.add_argument("pages_dir")
    p.add_argument("html_dir")
    p.set_defaults(func=cmd_results)
    p = sub.add_parser("check", help="every image and link of the built site resolves")
    p.add_argument("html_dir")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("check-sources", help="every relative link of the repository's pages resolves")
    p.set_defaults(func=cmd_check_sources)
    a = ap.parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
