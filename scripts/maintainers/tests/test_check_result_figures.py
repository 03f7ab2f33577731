#!/usr/bin/env python3
"""Tests of scripts/maintainers/check_result_figures.py on a small fixture tree: a right figure passes, a wrong
one fails with the page, line and number; a folder index missing a file fails."""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import check_result_figures as crf  # noqa: E402


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


RESULT = "| 5 | `reduce_stage_5` | 0.2523 | 4255.2 | 0.99 |\n"
INDEX = "# index\n\n[md](ch08/ladder.md)\n"


def run(root, only=()):
    only = list(only)
    out = io.StringIO()
    with redirect_stdout(out):
        rc = crf.main(["--root", root] + only)
    return rc, out.getvalue()


class CheckResultFigures(unittest.TestCase):
    def test_right_figures_pass(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                     "page.md": "Stage 5: 0.2523 ms, 4,255.2 GB/s, 0.99x CUB in 2^28 "
                                "([ladder](docs/results/H200/ch08/ladder.md)), 2026-12-02.\n"})
        rc, out = run(root, ["--only", "figures"])
        self.assertEqual(rc, 0, out)

    def test_wrong_figure_fails(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                     "page.md": "intro\n| 5 | 0.2532 | [ladder](docs/results/H200/ch08/ladder.md) |\n"})
        rc, out = run(root)
        self.assertEqual(rc, 1)
        self.assertIn("page.md:2: 0.2532 is not in docs/results/H200/ch08/ladder.md", out)

    def test_folder_link_counts_every_file(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                     "page.md": "4255.2 GB/s ([folder](docs/results/H200/ch08/))\n"})
        self.assertEqual(run(root)[0], 0)

    def test_lines_without_results_links_and_code_are_not_checked(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                     "page.md": "9.999 ms, no link\n```\n1.234 [x](docs/results/H200/ch08/ladder.md)\n```\n"})
        self.assertEqual(run(root)[0], 0)

    def test_whole_numbers_and_prose_under_a_linked_paragraph(self):
        # A whole number is a figure too; a table takes the links of the paragraph above it, and a
        # paragraph without a link those of its section.
        files = {"docs/results/H200/ch08/ladder.md": RESULT + "runs: 212\n", "docs/results/H200/README.md": INDEX}
        ok = "# s\n\nThe log has 212 runs ([log](docs/results/H200/ch08/ladder.md)).\n\n| 5 | 0.2523 |\n\nStage 5: 4255.2 GB/s.\n"
        self.assertEqual(run(tree(dict(files, **{"page.md": ok})))[0], 0)
        for wrong, line, num in (("The log has 108 runs ([log](docs/results/H200/ch08/ladder.md)).\n", 1, "108"),
                                 ("Table ([log](docs/results/H200/ch08/ladder.md)):\n\n| 5 | 0.2532 |\n", 3, "0.2532"),
                                 ("# s\n\n[log](docs/results/H200/ch08/ladder.md)\n\nStage 5 took 1.096 ms.\n", 5, "1.096")):
            rc, out = run(tree(dict(files, **{"page.md": wrong})))
            self.assertEqual(rc, 1, wrong)
            self.assertIn("page.md:%d: %s is not in" % (line, num), out)

    def test_rounding_ratios_and_what_is_not_a_figure(self):
        files = {"docs/results/H200/ch08/ladder.md": "| 0.2494 | 0.2461 | 1.0963 |\n", "docs/results/H200/README.md": INDEX}
        ok = ("Stages 9 to 11 and kernel 12 at 2^28 on 2026-12-02, block 512, `--n 100`: 1.096 ms, "
              "0.2494 against 0.2461 ms (1.3% slower, 1.01x) [l](docs/results/H200/ch08/ladder.md)\n")
        self.assertEqual(run(tree(dict(files, **{"page.md": ok})), ["--only", "figures"])[0], 0)
        rc, out = run(tree(dict(files, **{"page.md": ok.replace("1.3%", "1.2%").replace("1.096", "1.095")})))
        self.assertIn("page.md:1: 1.095 is not in", out)
        self.assertIn("page.md:1: 1.2 is not in", out)

    def test_history_words_and_attempt_names(self):
        files = {"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                 "page.md": "Measured in the second session, for want of a GPU run.\n"}
        rc, out = run(tree(files))
        self.assertEqual(rc, 1)
        self.assertIn('page.md:1: history word "session"', out)
        self.assertIn('page.md:1: history word "for want of"', out)
        notebook = ("Stage 8 ran 8x3-early, its default at that tree (the tree's default); the files were "
                    "made before that change, at a tree where stage 11 fenced, and the files' tree sharded; "
                    "the read kernel now times two grids.\n")
        rc, out = run(tree(dict(files, **{"page.md": notebook})))
        self.assertEqual(rc, 1)
        for words in ("at that tree", "the tree's default", "made before that change", "at a tree",
                      "the files' tree", "now times"):
            self.assertIn('page.md:1: history word "%s"' % words, out)
        rc, out = run(tree(dict(files, **{"page.md": "The tree's improvements show in the time.\n"})),
                      ["--only", "history"])
        self.assertEqual(rc, 0, out)
        rc, out = run(tree(dict(files, **{"page.md": "Measured on 2026-12-02.\n"})))
        self.assertIn('page.md:1: history word "2026-12-02"', out)
        files = {"docs/results/H200/ch08/ladder_run2.md": RESULT, "docs/results/H200/ch08/cost_4c0a4a4.csv": "a\n",
                 "docs/results/H200/README.md": INDEX + "[a](ch08/ladder_run2.md) [b](ch08/cost_4c0a4a4.csv)\n"}
        rc, out = run(tree(files))
        self.assertEqual(rc, 1)
        self.assertIn("ladder_run2.md: named for an attempt or a commit", out)
        self.assertIn("cost_4c0a4a4.csv: named for an attempt or a commit", out)

    def test_index_must_list_every_file(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/ch08/ladder.csv": "a\n",
                     "docs/results/H200/README.md": INDEX})
        rc, out = run(root)
        self.assertEqual(rc, 1)
        self.assertIn("does not link ch08/ladder.csv", out)


    def test_results_index_figures_are_checked(self):
        # A results index is a page too: its figures come from the files it links; commit ids in
        # its commit column are not figures.
        ok = "# index\n\n| ladder | [md](ch08/ladder.md) | 0.2523 ms | tree 065228a |\n"
        rc, out = run(tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": ok}),
                      ["--only", "figures"])
        self.assertEqual(rc, 0, out)
        bad = ok.replace("0.2523", "0.2528")
        rc, out = run(tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": bad}),
                      ["--only", "figures"])
        self.assertEqual(rc, 1)
        self.assertIn("README.md:3: 0.2528 is not in ch08/ladder.md", out)

    def test_paragraph_may_repeat_its_sections_table(self):
        # 1.17 is the row's own ratio (checked there); the paragraph below may repeat it.
        page = ("## Scan\n\n[ladder](docs/results/H200/ch08/ladder.md):\n\n| n | ms | CUB ms | ratio |\n"
                "| --- | --- | --- | --- |\n| 2^28 | 0.2523 | 0.2952 | 1.17 |\n\nThe stage is 1.17x CUB.\n")
        files = {"docs/results/H200/ch08/ladder.md": RESULT + "| cub | 0.2952 |\n",
                 "docs/results/H200/README.md": INDEX, "page.md": page}
        rc, out = run(tree(files), ["--only", "figures"])
        self.assertEqual(rc, 0, out)
        files["page.md"] = page.replace("The stage is 1.17x CUB.", "The stage is 1.19x CUB.")
        rc, out = run(tree(files), ["--only", "figures"])
        self.assertEqual(rc, 1)
        self.assertIn("1.19", out)

if __name__ == "__main__":
    unittest.main()
