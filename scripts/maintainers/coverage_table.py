#!/usr/bin/env python3
"""The coverage table of issue "at or past CUB at every size and type": for each ladder CSV pair
written by `gpu_machine_check.sh coverage` (coverage_<ladder>_{small,large}.csv), and each size, the
fastest verified stage of the tutorial, its ratio to CUB in the same run (CUB's time / the stage's:
above 1 is faster) and whether that size passes:

  pass  the ratio is >= 1.00, or >= 0.98 while the stage and CUB are both within 2% of the floor
        timed in the same run (the copy for scans, the streaming read for reductions and histograms).

Usage: coverage_table.py DIR [--md FILE]. Prints a Markdown table (a failing cell in bold, with the
reason) and the count of failing cells; exit 0 always when the files are readable (the table is the
result), 2 when DIR holds no coverage CSV.
"""
import argparse
import csv
import glob
import os
import re
import sys
from collections import defaultdict

BASELINES = {"cub::DeviceReduce", "cub::DeviceScan", "cub::DeviceHistogram"}
CEILINGS = {"copy (D2D)", "read (stream)"}


def short(stage):
    """reduce_kernel_12 -> k12, reduce_stage_7 -> s7, scan_stage_9 -> s9, histogram_stage_4 -> s4."""
    m = re.fullmatch(r"reduce_kernel_(\w+)", stage)
    if m:
        return "k" + m.group(1)
    m = re.fullmatch(r"\w+_stage_(\w+)", stage)
    return "s" + m.group(1) if m else stage


def exponent(n):
    n = int(n)
    e = n.bit_length() - 1
    return f"2^{e}" if n == 1 << e else str(n)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def cell(rows, floor_name):
    """(text, passed) for the rows of one size of one ladder."""
    cub = [r for r in rows if r["stage"].split(" (")[0] in BASELINES]  # "cub::DeviceReduce (int64 sum)"
    floor = [r for r in rows if r["stage"] == floor_name]
    stages = [r for r in rows if r["stage"] not in CEILINGS and r not in cub]
    ok = [r for r in stages if r.get("verified") == "true"]
    if not cub or not ok:
        return "no data", False
    cub_us = float(cub[0]["us_median"])
    best = min(ok, key=lambda r: float(r["us_median"]))
    ratio = cub_us / float(best["us_median"])
    text = f"{ratio:.2f} {short(best['stage'])}"
    if ratio >= 1.0 - 5e-4:  # printed as 1.00
        return text, True
    if ratio >= 0.98 - 5e-4 and floor:
        f = float(floor[0]["us_median"])
        if float(best["us_median"]) <= 1.02 * f and cub_us <= 1.02 * f:
            return text + " (at the floor)", True
    if ratio >= 0.995:  # would print as 1.00: show the digit that fails it
        text = f"{ratio:.3f} {short(best['stage'])}"
    return f"**{text}**", False


def table(folder):
    groups = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "coverage_*_small.csv")) +
                       glob.glob(os.path.join(folder, "coverage_*_large.csv"))):
        tag = re.sub(r"_(small|large)\.csv$", "", os.path.basename(path))[len("coverage_"):]
        groups[tag] += read_rows(path)
    if not groups:
        return None, 0
    sizes = sorted({int(r["n"]) for rows in groups.values() for r in rows})
    lines = ["| ladder | " + " | ".join(exponent(n) for n in sizes) + " |",
             "| --- |" + " --- |" * len(sizes)]
    failing = 0
    for tag in sorted(groups):
        floor_name = "copy (D2D)" if tag.startswith("scan") else "read (stream)"
        by_n = defaultdict(list)
        for r in groups[tag]:
            by_n[int(r["n"])].append(r)
        cells = []
        for n in sizes:
            if n not in by_n:
                cells.append("not run")
                failing += 1
                continue
            text, passed = cell(by_n[n], floor_name)
            failing += not passed
            cells.append(text)
        lines.append(f"| {tag} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n", failing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", help="folder of coverage_<ladder>_{small,large}.csv files")
    ap.add_argument("--md", help="also write the table to this file")
    args = ap.parse_args()
    text, failing = table(args.folder)
    if text is None:
        print(f"coverage_table.py: error: no coverage_*_small.csv or _large.csv in {args.folder}", file=sys.stderr)
        return 2
    text += f"\n{failing} cell(s) below CUB by the rule (bold, or not run).\n"
    print(text, end="")
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
