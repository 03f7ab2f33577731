#!/usr/bin/env python3
"""Runs the deliberately broken stages through the stage programs (the reader's path, stage_main)
over sizes and seeds, and writes a table of how many runs each check reported as failed.

Every run must FAIL (exit 1, "verify:     FAIL"): the broken reduction, scan and histogram lose
the first element, the last one, the last three, or the first element of three blocks
(common/lost_elements.hpp), on exact data (every element +1 or -1; histograms: every sample
counted), at the sizes where data that is mostly zeros let a lost element pass.

Usage: scripts/maintainers/selftest_matrix.py [--build build] [--out DIR] [--jobs 4] [--quick]
Writes DIR/selftest_matrix.md and DIR/selftest_matrix.csv. Exit codes: 0 every run failed as it
must, 1 some run passed or crashed, 2 bad command line, 77 no GPU (the programs said so).
"""
import argparse
import concurrent.futures
import csv
import datetime
import os
import subprocess
import sys
import time

PROBLEMS = [
    # program, types, extra flags (the exact data)
    ("reduce_broken", ["float", "double", "int"], ["--dist", "exact"]),
    ("scan_broken", ["float", "double", "int"], ["--dist", "exact"]),
    ("histogram_broken", ["uint8", "int", "float"], []),
]
N_2E24 = 2**24
# (bug, n, seeds): the first table, then the other two bugs past 2^24, and past 2^31.
# (The tests' sweep runs every bug with 20 seeds at 2^24 + 3 and 2^28: ctest -L long.)
ROWS = [
    ("drop-last", 100003, 1),
    ("drop-last", 2**20, 1),
    ("drop-last", 2**26, 1),
    ("skip-first", 2**26, 1),
    ("drop-last", N_2E24, 20),
    ("skip-first", N_2E24, 20),
    ("drop-last-3", N_2E24 + 3, 5),
    ("skip-block-firsts", N_2E24 + 3, 5),
    ("skip-block-firsts", 2**31 + 1, 1),
]
QUICK_ROWS = [("drop-last", 100003, 1), ("skip-first", N_2E24, 2), ("skip-block-firsts", N_2E24 + 3, 2)]


def size_name(n):
    for k in range(40, 0, -1):
        if n == 2**k:
            return f"2^{k}"
        if n > 2**k and n - 2**k < 1000:
            return f"2^{k}+{n - 2**k}"
    return str(n)


def run_one(cmd):
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    verdict = "FAIL" if "verify:     FAIL" in p.stdout else ("PASS" if "verify:     PASS" in p.stdout else "none")
    return p.returncode, verdict, p.stdout, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="build folder (default build)")
    ap.add_argument("--out", default="build/results/selftest", help="folder for the table")
    ap.add_argument("--jobs", type=int, default=4, help="programs at once below 2^28 (default 4)")
    ap.add_argument("--quick", action="store_true", help="a few small rows only (a smoke run)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    rows = QUICK_ROWS if args.quick else ROWS
    progs = {}
    for prog, _, _ in PROBLEMS:
        path = os.path.join(args.build, "common", prog)
        if not os.access(path, os.X_OK):
            print(f"selftest_matrix.py: error: {path} not found: build first (cmake --build {args.build})",
                  file=sys.stderr)
            return 2
        progs[prog] = path
    os.makedirs(args.out, exist_ok=True)

    jobs = []  # (problem, type, bug, n, seed, cmd)
    for prog, types, extra in PROBLEMS:
        for bug, n, nseeds in rows:
            for t in types:
                for k in range(nseeds):
                    seed = 42 + k
                    cmd = [progs[prog], "--bug", bug, "--type", t, "--n", str(n), "--seed", str(seed),
                           "--iters", "1", "--warmup", "0"] + extra
                    jobs.append((prog, t, bug, n, seed, cmd))
    commands = {j[:5]: j[5] for j in jobs}
    small = [j for j in jobs if j[3] < 2**31]
    large = [j for j in jobs if j[3] >= 2**31]
    results = {}
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for j, r in zip(small, pool.map(lambda j: run_one(j[5]), small)):
            results[j[:5]] = r
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # gigabytes each: two at once
        for j, r in zip(large, pool.map(lambda j: run_one(j[5]), large)):
            results[j[:5]] = r
    elapsed = time.time() - t0

    if all(r[0] == 77 for r in results.values()):
        print("selftest_matrix.py: no CUDA GPU: nothing was run")
        return 77

    ok = True
    with open(os.path.join(args.out, "selftest_matrix.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "type", "bug", "n", "seed", "exit_code", "verify", "seconds", "command"])
        for (prog, t, bug, n, seed), (rc, verdict, out, secs) in sorted(results.items()):
            cmd = commands[(prog, t, bug, n, seed)]
            w.writerow([prog, t, bug, n, seed, rc, verdict, f"{secs:.2f}",
                        " ".join(["build/common/" + os.path.basename(cmd[0])] + cmd[1:])])
            if not (rc == 1 and verdict == "FAIL"):
                ok = False
                print(f"NOT REPORTED AS FAILED: {' '.join(cmd)} (exit {rc}, verify {verdict})\n{out}", file=sys.stderr)

    lines = []
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines.append(f"## Broken stages through the stage programs (stage_main), {date}\n")
    lines.append("Each cell: how many runs the program reported as `verify: FAIL` with exit 1, of how many "
                 "(seeds 42, 43, ...). Every cell must read k of k. Command of each run: "
                 "`build/common/<program> --bug <bug> --type <type> --n <n> --seed <seed> --iters 1 --warmup 0"
                 " [--dist exact]` (selftest_matrix.csv lists every one).\n")
    for prog, types, _ in PROBLEMS:
        lines.append(f"### {prog}\n")
        lines.append("| bug | n | seeds | " + " | ".join(types) + " |")
        lines.append("| --- | --- | --- | " + " | ".join("---" for _ in types) + " |")
        for bug, n, nseeds in rows:
            cells = []
            for t in types:
                rs = [results[(prog, t, bug, n, 42 + k)] for k in range(nseeds)]
                failed = sum(1 for r in rs if r[0] == 1 and r[1] == "FAIL")
                cell = f"FAIL {failed} of {nseeds}"
                if failed != nseeds:
                    cell = f"**{nseeds - failed} of {nseeds} not reported as failed**"
                cells.append(cell)
            lines.append(f"| {bug} | {size_name(n)} | {nseeds} | " + " | ".join(cells) + " |")
        lines.append("")
    lines.append(f"{len(results)} runs in {elapsed:.0f} s; {'every one reported as failed' if ok else 'SOME WERE NOT REPORTED AS FAILED'}.\n")
    text = "\n".join(lines)
    with open(os.path.join(args.out, "selftest_matrix.md"), "w") as f:
        f.write(text)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
