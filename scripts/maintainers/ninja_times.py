#!/usr/bin/env python3
"""Where a build's time goes: reads a Ninja build folder's .ninja_log and prints Markdown tables of
the compile and link time per kind of unit and of the slowest units.

  python3 scripts/maintainers/ninja_times.py build            # the last build of build/ (every step it ran)
  python3 scripts/maintainers/ninja_times.py build --top 25

Times are each step's wall time as Ninja logged it: with -j N they overlap, so the sum is the CPU
time the build needed (roughly), and the build's own wall time is printed apart (meaningful for a
build folder built in one go). Each output counts once, at its last run. Exit codes: 0 done, 2 no .ninja_log there.
"""
import argparse
import os
import re
import sys

# (kind, regex on the output path), first match wins.
KINDS = [
    ("link (executables, libraries)", r"(\.a|/[^/.]+)$"),
    ("precompiled headers", r"\.(gch|pch)$|cmake_pch"),
    ("Catch2 runners (*_test_main, catch_runner)", r"(_test_main|catch_runner)\.cpp\.o$"),
    ("harness CUB baselines (cub_*.cu)", r"/cub_[a-z]+\.cu\.o$"),
    ("harness: the rest (common/)", r"^common/CMakeFiles/harness\.dir/"),
    ("exercise stubs and solutions (generated .cu)", r"(exercise_ch\d+_\d+_stage|solutions_ch\d+_stages)\.cu\.o$"),
    ("chapter stage lists (ch*_stages.cu)", r"ch0\d_[a-z_]*stages\.cu\.o$"),
    ("stage programs' main (stage files)", r"/(reduce_kernel_\d+|reduce_stage_\d|scan_stage_\d|scan_block_blelloch|histogram_stage_\d)\.(cu|cpp)\.o$"),
    ("exercise test sources", r"exercise_test_ch\d+_\d+\.dir/"),
    ("test sources (tests/*)", r"/tests/[^/]+\.(cpp|cu)\.o$"),
    ("other programs and study files", r"\.(cu|cpp)\.o$"),
]


def read_log(path):
    """{output: (start_ms, end_ms)} for the last run of each output."""
    steps = {}
    with open(path) as f:
        header = f.readline()
        if not header.startswith("# ninja log"):
            raise ValueError("not a ninja log: " + path)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5:
                continue
            start, end, _mtime, out = int(parts[0]), int(parts[1]), parts[2], parts[3]
            steps[out] = (start, end)
    return steps


def kind_of(out):
    for kind, rx in KINDS:
        if re.search(rx, out):
            return kind
    return "other"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir", help="a Ninja build folder (holding .ninja_log)")
    ap.add_argument("--top", type=int, default=15, help="how many of the slowest units to list (default 15)")
    a = ap.parse_args(argv)
    log = os.path.join(a.build_dir, ".ninja_log")
    if not os.path.isfile(log):
        print("ninja_times.py: no .ninja_log in %s (a Ninja build folder?)" % a.build_dir, file=sys.stderr)
        return 2
    steps = {o: t for o, t in read_log(log).items() if not o.endswith("cmake.verify_globs")}
    total = sum(e - s for s, e in steps.values()) / 1000.0
    wall = (max(e for _, e in steps.values()) - min(s for s, _ in steps.values())) / 1000.0 if steps else 0
    by_kind = {}
    for out, (s, e) in steps.items():
        k = kind_of(out)
        n, t = by_kind.get(k, (0, 0.0))
        by_kind[k] = (n + 1, t + (e - s) / 1000.0)
    print("%d steps, %.0f s of step time (the CPU time, roughly), %.0f s from the first step's start to the "
          "last one's end\n" % (len(steps), total, wall))
    print("| kind of step | steps | seconds | share |")
    print("| --- | ---: | ---: | ---: |")
    for k, (n, t) in sorted(by_kind.items(), key=lambda kv: -kv[1][1]):
        print("| %s | %d | %.0f | %.0f%% |" % (k, n, t, 100.0 * t / total if total else 0))
    print("\n| slowest steps | seconds |")
    print("| --- | ---: |")
    for out, (s, e) in sorted(steps.items(), key=lambda kv: -(kv[1][1] - kv[1][0]))[:a.top]:
        print("| `%s` | %.1f |" % (out, (e - s) / 1000.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
