#!/usr/bin/env python3
"""CPU tests of docs/docs_site.py, the Doxygen site's helpers (no doxygen run): the chapter pages'
figures and results links are aimed at what the site has, the main page carries the reading order,
the results pages show every file, and the link checks fail on a broken image or link. Also checks
the repository's own pages: every relative link and image resolves. Standard library only."""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import docs_site as site  # noqa: E402


def filtered(path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        site.main(["filter", path])
    return out.getvalue()


def links(text):
    return [m.group(3) for m in site.LINK_RE.finditer(text)]


class Filter(unittest.TestCase):
    def chapter_pages(self):
        return [p for p in site.source_pages() if re.search(r"/ch\d\d_[^/]+/README\.md$", p)]

    def test_chapter_pages_point_at_the_site(self):
        pages = self.chapter_pages()
        self.assertTrue(pages)
        for page in pages:
            with self.subTest(page=os.path.relpath(page, site.ROOT)):
                for target in links(filtered(page)):
                    self.assertNotIn("../docs/", target, "a repository path left in the site's page")
                    if target.endswith(".png"):
                        self.assertTrue(os.path.isfile(os.path.join(site.FIGURES, target)), target)

    def test_every_chapter_shows_its_ladder_and_roofline(self):
        for page in self.chapter_pages():
            with self.subTest(page=os.path.relpath(page, site.ROOT)):
                with open(page) as f:
                    images = [t for t in links(f.read()) if t.endswith(".png")]
                self.assertTrue(any(t.endswith("_bandwidth.png") for t in images), images)
                self.assertTrue(any(t.endswith("_roofline.png") for t in images), images)

    def test_mapping(self):
        ch = os.path.join(site.ROOT, "ch07_reduction_opt")
        t = lambda target: site.site_target(target, ch, ch)
        self.assertEqual(t("../docs/figures/ch07_2e28_roofline.png"), "ch07_2e28_roofline.png")
        self.assertEqual(t("../docs/results/H200/ch07/"), "@ref results_H200_ch07")
        self.assertEqual(t("../docs/results/H200/profile/sanitizers.txt"), "results/H200/profile/sanitizers.txt")
        self.assertEqual(t("../docs/results/H200/profile/ch07_profile_claims.md"),
                         "@ref results_H200_profile_ch07_profile_claims_md")
        self.assertEqual(t("../docs/results/H200/README.md"), "@ref results_H200")
        self.assertIsNone(t("../docs/results/README.md"))  # a page of its own
        self.assertEqual(t("reduce_kernel_4_sequential_addressing.cuh"),
                         "@ref ch07_reduction_opt/reduce_kernel_4_sequential_addressing.cuh")
        self.assertIsNone(t("https://example.com/x.png"))
        self.assertIsNone(t("#the-stages"))
        self.assertIsNone(t("../no/such/file.png"))

    def test_fenced_code_is_left_alone(self):
        text = "```\n[x](../docs/figures/ch07_2e28_roofline.png)\n```\n![y](../docs/figures/ch07_2e28_roofline.png)\n"
        out = site.rewrite_links(text, os.path.join(site.ROOT, "ch07_reduction_opt"),
                                 os.path.join(site.ROOT, "ch07_reduction_opt"))
        self.assertIn("[x](../docs/figures/ch07_2e28_roofline.png)", out)
        self.assertIn("![y](ch07_2e28_roofline.png)", out)

    def test_main_page_opens_with_the_reading_order(self):
        self.assertTrue(os.path.isfile(site.START_HERE), "docs/start_here.md")
        with open(site.MAIN_PAGE) as f:
            readme = f.read()
        self.assertRegex(readme, r"(?m)^## Start here", "README.md needs a '## Start here' section")
        first_section = re.search(r"(?m)^## .*", readme).group(0)
        self.assertTrue(first_section.startswith("## Start here"), "the README opens with the reading order")
        with open(site.START_HERE) as f:
            first_line = f.readline().strip()
        page = filtered(site.MAIN_PAGE)
        self.assertIn("#" + first_line, page)  # its title, one level down
        self.assertNotIn("start_here.md", "".join(links(page)))
        # start_here.md's links still resolve from the repository root.
        for target in links(page):
            if not (site.is_external(target) or target.startswith(("@", "#")) or target.endswith(".png")
                    or target.startswith("results/")):
                self.assertTrue(os.path.exists(os.path.join(site.ROOT, target.partition("#")[0])), target)


class ResultsPages(unittest.TestCase):
    def test_every_file_is_shown(self):
        tmp = tempfile.mkdtemp()
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                site.main(["results", os.path.join(tmp, "pages"), os.path.join(tmp, "html")])
            pages = {}
            for f in os.listdir(os.path.join(tmp, "pages")):
                with open(os.path.join(tmp, "pages", f)) as fh:
                    pages[f] = fh.read()
            for here, _, files in os.walk(site.RESULTS):
                if here == site.RESULTS:
                    continue
                page = pages[site.results_page(here) + ".md"]
                for f in files:
                    path = os.path.join(here, f)
                    rel = os.path.relpath(path, site.RESULTS)
                    self.assertTrue(os.path.isfile(os.path.join(tmp, "html", "results", rel)), rel)
                    base, ext = os.path.splitext(f)
                    if f == "README.md" or (ext == ".csv" and os.path.isfile(os.path.join(here, base + ".md"))):
                        continue
                    self.assertIn("{#%s}" % site.results_section(path), page, rel)
        finally:
            shutil.rmtree(tmp)

    def test_program_output_is_not_read_as_doxygen_commands(self):
        text = "| histogram_stage_1@one-bin | 1@grid -> 2@grid |\n`a@b` [x](@ref y)\n~~~\nc@d\n~~~\n"
        out = site.escape_commands(text)
        self.assertIn("| histogram_stage_1\\@one-bin | 1\\@grid -> 2\\@grid |", out)
        self.assertIn("`a@b` [x](@ref y)", out)  # code spans and links as written
        self.assertIn("\nc@d\n", out)           # fenced code as written

    def test_csv_table_reads_columns_by_name(self):
        tmp = tempfile.mkdtemp()
        try:
            p = os.path.join(tmp, "x.csv")
            with open(p, "w") as f:
                f.write("new_column,stage,gb_per_s,check\n7,reduce_stage_4,2542.483905,exact\n")
            table = site.csv_table(p)
            self.assertIn("| stage | gb_per_s | check |", table)
            self.assertIn("| reduce_stage_4 | 2542 | exact |", table)
        finally:
            shutil.rmtree(tmp)


class Checks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.tmp, "results"))
        for name, text in {"index.html": '<a href="page.html#sec">p</a><img src="fig.png">',
                           "page.html": '<a class="anchor" id="sec"></a><a href="results/x.txt">x</a>',
                           "fig.png": "", "results/x.txt": ""}.items():
            with open(os.path.join(self.tmp, name), "w") as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def add(self, name, text):
        with open(os.path.join(self.tmp, name), "w") as f:
            f.write(text)

    def test_clean_site(self):
        self.assertEqual(site.check_html(self.tmp), [])

    def test_broken(self):
        self.add("bad.html", '<img src="../docs/figures/a.png"><img src="missing.png">'
                             '<a href="page.html#nowhere">a</a><a href="https://x.org/y">ok</a>')
        kinds = sorted(k for _, k, _ in site.check_html(self.tmp))
        self.assertEqual(kinds, ["image outside the site", "image to a missing file", "link to a missing anchor"])
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(site.main(["check", self.tmp]), 1)

    def test_sources(self):
        page = os.path.join(self.tmp, "README.md")
        self.add("README.md", "![a](fig.png) [b](nothing.md) [c](https://x.org) [d](#x)\n```\n[e](gone)\n```\n")
        self.assertEqual(site.check_sources([page]), [(os.path.relpath(page, site.ROOT), "nothing.md")])

    def test_repository_pages_resolve(self):
        self.assertEqual(site.check_sources(site.source_pages()), [])

    def test_no_doxygen_label_shows_on_github(self):
        # GitHub prints `{#label}` as text: a page labels itself with <a id="label"></a> above its
        # title, which the filter hands to Doxygen as `# Title {#label}`.
        for page in site.source_pages():
            with self.subTest(page=os.path.relpath(page, site.ROOT)):
                with open(page, encoding="utf-8") as f:
                    text = f.read()
                fenced, outside = False, []
                for l in text.splitlines():
                    if l.lstrip().startswith("```"):
                        fenced = not fenced
                    elif not fenced and re.search(r"\{#[A-Za-z0-9_]+\}", l):
                        outside.append(l)
                self.assertEqual(outside, [], "a visible {#label}")
                label = site.page_label(text)
                if label:
                    first = site.labelled_title(text).splitlines()[0]
                    self.assertTrue(first.startswith("# ") and first.endswith("{#%s}" % label), first)


if __name__ == "__main__":
    unittest.main()
