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


def run(root):
    out = io.StringIO()
    with redirect_stdout(out):
        rc = crf.main(["--root", root])
    return rc, out.getvalue()


class CheckResultFigures(unittest.TestCase):
    def test_right_figures_pass(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/README.md": INDEX,
                     "page.md": "Stage 5: 0.2523 ms, 4,255.2 GB/s, 0.99x CUB in 2^28 "
                                "([ladder](docs/results/H200/ch08/ladder.md)), 2026-12-02.\n"})
        rc, out = run(root)
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

    def test_index_must_list_every_file(self):
        root = tree({"docs/results/H200/ch08/ladder.md": RESULT, "docs/results/H200/ch08/ladder.csv": "a\n",
                     "docs/results/H200/README.md": INDEX})
        rc, out = run(root)
        self.assertEqual(rc, 1)
        self.assertIn("does not link ch08/ladder.csv", out)


if __name__ == "__main__":
    unittest.main()
