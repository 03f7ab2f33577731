#!/usr/bin/env python3
"""Compare the Nsight Compute counters of two stages: a baseline and a candidate.

Each side is either a stage program (it is profiled now) or an existing report (.ncu-rep, read
with `ncu --import`). A stage program is a path or a bare name such as reduce_kernel_3: a name is
looked for under the build folder (--build-dir, else ./build, else build/ and build-*/ at the
repository's root), in every chapter folder and its subfolders. A stage program is run as

    ncu --profile-from-start off --clock-control none --launch-count 1 --metrics <list> \\
        -o <report> <program> --profile --n <n> --block <block> --type <type> <extra args>

so only the one launch inside the program's --profile range is measured, and the report is kept
(open it in the Nsight Compute GUI and use "Add Baseline" for the full picture). The counters are
then read back with `ncu --import <report> --csv --page raw --print-units base
--print-metric-instances details` and printed as a table: baseline, candidate, change %.

Examples
  scripts/compare_stages.py reduce_kernel_3 reduce_kernel_4
  scripts/compare_stages.py build/ch07_reduction_opt/reduce_kernel_3 build/ch07_reduction_opt/reduce_kernel_4
  scripts/compare_stages.py --n 2^26 --candidate-args "--last-warp volatile" \\
      build/ch07_reduction_opt/reduce_kernel_5 build/ch07_reduction_opt/reduce_kernel_6
  scripts/compare_stages.py profiles/reduce_kernel_3.ncu-rep profiles/reduce_kernel_4.ncu-rep
  scripts/compare_stages.py --print-metrics        # the metric list, for ncu --metrics
  scripts/compare_stages.py --which reduce_stage_4 # where that stage program is

A reader's view of one step, no GPU needed (--step): for two stages of chapter 7, the diff of their
stage headers, their SASS instruction counts side by side (compiled for sm_90 and counted by
scripts/maintainers/sass_check.py; --type, --block and --finish pick the instantiation, float, 256 and partials
by default) and their rows of the committed profiler table (docs/results/H200/profile/
ch07_profile_claims.md, ncu on the H200 at n = 2^24; where that table lacks either stage, as for
stages 9a and 9b, the H100's, docs/results/H100/profile/ch07_profile_claims.md):

  scripts/compare_stages.py --step reduce_kernel_4 reduce_kernel_5
  scripts/compare_stages.py --step --finish atomic --type int reduce_kernel_0 reduce_kernel_1

Exit codes (shared with profile_stage.sh): 0 done; 1 ncu or the program failed; 2 bad command line
or no such program / report; 77 skipped: no ncu, or no NVIDIA GPU to profile on.

Python standard library only. What it shares with the maintainers' profiler tools is in profiler.py.
"""
import argparse
import csv
import difflib
import glob
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profiler  # noqa: E402  (the Python the profiler tools share)
from profiler import (EXIT_SKIP, EXIT_USAGE, METRIC_NAMES, ProfileError, build_dirs, change_pct,  # noqa: E402
                      comparison_rows, find_ncu, find_program, fmt, fmt_change, gpu_present,
                      markdown_table, measure, no_program_message, text_table)

# --------------------------------------------------------------------------------------------
# A reader's view of one step (--step): source diff, SASS counts, committed counters
# --------------------------------------------------------------------------------------------

ROOT = profiler.ROOT
STEP_CLAIMS = os.path.join(ROOT, "ch07_reduction_opt", "tests", "sass_claims.json")  # how to compile
# The committed profiler tables, in the order they are tried: the first with both stages' rows is shown.
STEP_PROFILES = [os.path.join(ROOT, "docs", "results", gpu, "profile", "ch07_profile_claims.md") for gpu in ("H200", "H100")]


def stage_header(stage):
    """The stage file of a stage name (reduce_kernel_4 -> ch07_reduction_opt/
    reduce_kernel_4_sequential_addressing.cuh), None when there is none."""
    hits = sorted(glob.glob(os.path.join(ROOT, "ch*", "**", stage + "_*.cuh"), recursive=True))
    return hits[0] if hits else None


def source_diff(base, cand):
    """Unified diff of two files, as text, paths relative to the repository."""
    with open(base) as f:
        a = f.readlines()
    with open(cand) as f:
        b = f.readlines()
    return "".join(difflib.unified_diff(a, b, os.path.relpath(base, ROOT), os.path.relpath(cand, ROOT)))


def stage_kernel(kernels, stage, dtype, block, finish):
    """The kernel of chapter 7's `stage` for this instantiation: type `dtype`, `block` threads where
    the kernel takes the block as a template argument, Finish `finish` where it takes one, the
    __syncwarp tail (LastWarp 1) for stage 6. None when no kernel matches."""
    prefix = "ch07::%s<%s" % (stage, dtype)
    names = [n for n in kernels if n.startswith(prefix + ">") or n.startswith(prefix + ",")]
    wanted = [", %d" % block, "(ch07::Finish)%d" % (1 if finish == "partials" else 0), "(ch07::LastWarp)1"]
    for w in wanted:  # a filter applies when some kernel of the stage has that template argument
        if any(w in n for n in names):
            names = [n for n in names if w in n]
    return kernels[sorted(names)[0]] if names else None


def sass_rows(stages, dtype, block, finish, tool, nvcc, log):
    """[[count, baseline, candidate, change]] of two chapter-7 stages' SASS (profiler.SUMMARY_KEYS),
    and the two kernels' names."""
    claims = profiler.load_claims(STEP_CLAIMS)
    with tempfile.TemporaryDirectory() as work:
        kernels = profiler.build_unit(claims, "ch07_stages", work, nvcc, tool, log=log)
    found = [stage_kernel(kernels, s, dtype, block, finish) for s in stages]
    for s, k in zip(stages, found):
        if k is None:
            raise profiler.SassError("no kernel of %s for %s, block %d, %s finish in ch07_stages.cu"
                                       % (s, dtype, block, finish))
    counts = [profiler.summary(k) for k in found]
    rows = [[key, fmt(counts[0][key], "{:d}"), fmt(counts[1][key], "{:d}"),
             fmt_change(change_pct(counts[0][key], counts[1][key]))] for key in profiler.SUMMARY_KEYS]
    return rows, [k.name for k in found]


def committed_counter_rows(stages, finish, path):
    """[[counter, baseline, candidate]] from the committed profiler table (the first Markdown table
    of `path` whose first column is `stage`); rows named stage@partials for the partials finish.
    None when the file or either stage's row is missing."""
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip().startswith("|")]
    header, table = None, {}
    for l in lines:
        cells = [c.strip() for c in l.strip("|").split("|")]
        if cells[0] == "stage" and header is None:
            header = cells
        elif header and len(cells) == len(header) and not set(cells[0]) <= set("-: "):
            table.setdefault(cells[0].strip("`"), cells)
        elif header and table:
            break
    names = [s + ("@partials" if finish == "partials" else "") for s in stages]
    if not header or any(n not in table for n in names):
        return None
    return [[h, table[names[0]][i], table[names[1]][i]] for i, h in enumerate(header) if i > 0]


def step_view(a):
    """Prints the reader's view of one step (--step) and returns the exit code."""
    stages = [a.baseline, a.candidate]
    headers = [stage_header(s) for s in stages]
    for s, h in zip(stages, headers):
        if not h:
            print("compare_stages.py: error: no stage file %s_*.cuh under ch*/" % s, file=sys.stderr)
            return EXIT_USAGE
    print("== %s -> %s: the source (diff of the stage files)\n" % tuple(stages))
    print(source_diff(*headers) or "(the files are equal)")
    print("== the compiler's code: SASS instructions per kernel (sm_90; %s, block %d, %s finish; "
          "scripts/maintainers/sass_check.py)\n" % (a.type, a.block, a.finish))
    nvcc = profiler.find_nvcc()
    tool = profiler.find_disassembler(nvcc=nvcc)
    if not nvcc or not tool:
        print("skipped: needs nvcc and nvdisasm or cuobjdump (nvcc: %s, disassembler: %s)\n" % (nvcc, tool))
    else:
        try:
            rows, names = sass_rows(stages, a.type, a.block, a.finish, tool, nvcc,
                                    log=lambda m: print(m, file=sys.stderr))
        except profiler.SassError as e:
            print("compare_stages.py: error: %s" % e, file=sys.stderr)
            return 1
        print("baseline:  %s\ncandidate: %s\ndisassembler: %s (%s)\n"
              % (names[0], names[1], tool, profiler.tool_version(tool)))
        print(text_table(["count", "baseline", "candidate", "change"], rows) + "\n")
    rows, path = None, STEP_PROFILES[0]
    for candidate in STEP_PROFILES:
        rows = committed_counter_rows(stages, a.finish, candidate)
        if rows is not None:
            path = candidate
            break
    print("== the profiler: committed counters (%s)\n" % os.path.relpath(path, ROOT))
    if rows is None:
        print("no committed rows for %s (%s finish) in %s: profile them yourself (without --step)\n"
              % (" and ".join(stages), a.finish, " or ".join(os.path.relpath(p, ROOT) for p in STEP_PROFILES)))
    else:
        suffix = "@partials" if a.finish == "partials" else ""
        print(text_table(["counter", stages[0] + suffix, stages[1] + suffix], rows))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("baseline", nargs="?", help="stage program or .ncu-rep report")
    ap.add_argument("candidate", nargs="?", help="stage program or .ncu-rep report")
    ap.add_argument("--n", default="2^24", help="elements (default 2^24)")
    ap.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    ap.add_argument("--type", default="float", help="element type (default float)")
    ap.add_argument("--args", default="", help="extra flags for both programs")
    ap.add_argument("--baseline-args", default="", help="extra flags for the baseline program")
    ap.add_argument("--candidate-args", default="", help="extra flags for the candidate program")
    ap.add_argument("--launch-count", type=int, default=1,
                    help="kernels to profile in the --profile range (default 1; counters of several add up)")
    ap.add_argument("--out-dir", default="profiles", help="where reports are written (default ./profiles)")
    ap.add_argument("--ncu", help="ncu executable (default: $NCU, PATH, /usr/local/cuda/bin/ncu)")
    ap.add_argument("--md", help="also write the table as Markdown to this file")
    ap.add_argument("--build-dir", help="where bare stage names are looked for (default: ./build, then "
                                         "build/ and build-*/ at the repository's root)")
    ap.add_argument("--print-metrics", action="store_true", help="print the metric list and exit")
    ap.add_argument("--which", metavar="NAME", help="print the path of stage program NAME and exit")
    ap.add_argument("--step", action="store_true",
                    help="no profiling: the source diff, SASS counts and committed counters of two chapter-7 stages")
    ap.add_argument("--finish", choices=["partials", "atomic"], default="partials",
                    help="with --step: the finish whose kernels and counters are shown (default partials)")
    ap.add_argument("--assume-gpu", action="store_true", help=argparse.SUPPRESS)  # tests only
    a = ap.parse_args(argv)

    if a.print_metrics:
        print(",".join(METRIC_NAMES))
        return 0
    dirs = build_dirs(a.build_dir)
    if a.which:
        path = find_program(a.which, dirs)
        if not path:
            print("compare_stages.py: error: %s" % no_program_message(a.which, dirs), file=sys.stderr)
            return EXIT_USAGE
        print(path)
        return 0
    if not a.baseline or not a.candidate:
        ap.error("give a baseline and a candidate (stage programs or .ncu-rep reports)")
    if a.step:
        return step_view(a)
    targets = []
    for t in (a.baseline, a.candidate):
        if t.endswith(".ncu-rep"):
            if not os.path.isfile(t):
                print("compare_stages.py: error: no such report: %s" % t, file=sys.stderr)
                return EXIT_USAGE
            targets.append(t)
            continue
        path = find_program(t, dirs)
        if not path:
            print("compare_stages.py: error: %s" % no_program_message(t, dirs), file=sys.stderr)
            return EXIT_USAGE
        targets.append(path)
    a.baseline, a.candidate = targets
    ncu = find_ncu(a.ncu)
    if not ncu:
        print("SKIPPED: ncu (Nsight Compute CLI) not found; install Nsight Compute (it comes with the "
              "CUDA Toolkit) and put it on PATH, or pass --ncu")
        return EXIT_SKIP
    needs_gpu = not (a.baseline.endswith(".ncu-rep") and a.candidate.endswith(".ncu-rep"))
    if needs_gpu and not a.assume_gpu:
        ok, why = gpu_present()
        if not ok:
            print("SKIPPED: profiling needs an NVIDIA GPU: " + why)
            return EXIT_SKIP
    common = shlex.split(a.args)
    kw = dict(n=a.n, block=a.block, dtype=a.type, ncu=ncu, launch_count=a.launch_count,
              log=lambda s: print(s, file=sys.stderr))
    try:
        names = [os.path.basename(a.baseline), os.path.basename(a.candidate)]
        if names[0] == names[1]:
            names = [names[0] + "_baseline", names[1] + "_candidate"]
        base, brep = measure(a.baseline, a.out_dir, names[0],
                             extra_args=common + shlex.split(a.baseline_args), **kw)
        cand, crep = measure(a.candidate, a.out_dir, names[1],
                             extra_args=common + shlex.split(a.candidate_args), **kw)
    except ProfileError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    header = ["counter", "baseline", "candidate", "change"]
    rows = comparison_rows(base, cand)
    print("baseline:  %s\ncandidate: %s\n" % (brep, crep))
    print(text_table(header, rows))
    if a.md:
        with open(a.md, "w") as f:
            f.write("baseline `%s`, candidate `%s`, n = %s, block %d, %s\n\n"
                    % (os.path.basename(brep), os.path.basename(crep), a.n, a.block, a.type))
            f.write(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
