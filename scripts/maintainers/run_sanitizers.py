#!/usr/bin/env python3
"""Runs compute-sanitizer's four tools over every stage program of chapters 7 and 8.

  memcheck, racecheck, synccheck, initcheck  x  reduce_kernel_* (ch07), reduce_stage_*,
  scan_stage_*, scan_block_blelloch and histogram_stage_* (ch08), --iters 1 --warmup 0, at the
  smallest input that reaches every code path of the stage (default block 256):
    --n 4099: a tail (4099 = 16 x 256 + 3, and not a multiple of any vector width), 17 blocks, and
              a second pass over 17 partials where the stage has one;
    scan_stage_*: --n 65539 = 2^16 + 3, so that every scan has at least two tiles (the widest tile
              is below 2^15 elements: the look-back has a predecessor to wait for) and the three-pass
              scans recurse: 257 tiles of 256 give a second level of two tiles;
    scan_block_blelloch: --n 1000 --block 1024 (one block is all it takes);
    a grid-stride stage (one whose --help offers --grid) also gets --grid 2: two blocks, each
              going round its grid-stride loop several times, and a second pass over two partials.
  (--sizes 1000,4099 runs every program at those sizes instead, as before.)

Chapter 7's stages 1 to 8 run in both finishes (--finish atomic and --finish partials: the second
pass, reduce_partials, runs under the tools too); stage 6 in both warp tails with each finish.

Every run must be clean (exit 0, "ERROR SUMMARY: 0 errors", and for racecheck "0 hazards"),
with two exceptions. A stage that needs a newer GPU (scan_stage_8: sm_90) and refuses this one with
exit 2 and "compute capability" is reported as "not run" (not a failure). And the lesson of stage 6:
`reduce_kernel_6 --last-warp volatile` under racecheck MUST report hazards (the legacy
warp-synchronous tail is a data race since Volta), with either finish; the hazard count is printed. Stage 6's correct form (--last-warp syncwarp) must be clean like the rest.

Exit codes: 0 all as expected; 1 something was not; 77 skipped (no GPU or no compute-sanitizer),
for CTest's SKIP_RETURN_CODE. Logs of every run go to --log-dir, with summary.txt: what was printed
(CTest keeps a passing test's output only with -V, so the summary file is the record).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/profiler.py
from profiler import gpu_present  # noqa: E402

EXIT_SKIP = 77
ERROR_EXIT = 86  # --error-exitcode: what compute-sanitizer returns when it found errors
TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]
# The default input per program (see above); --sizes overrides it for every program.
DEFAULT_SIZE = "4099"
SIZE_BY_PREFIX = [("scan_stage_", "65539"), ("scan_block_blelloch", "1000")]
GRID_STRIDE_GRID = "2"
PROGRAM_GLOBS = [("ch07_reduction_opt", "reduce_kernel_[0-9]*"),
                 ("ch08_reduction_scan_histogram", "reduce_stage_[0-9]*"),
                 ("ch08_reduction_scan_histogram", "scan_stage_[0-9]*"),
                 ("ch08_reduction_scan_histogram", "scan_block_blelloch"),
                 ("ch08_reduction_scan_histogram", "histogram_stage_[0-9]*")]
# Programs with variants: one run per variant, with these extra flags.
# The one-block scan takes at most one block of elements: it runs at --block 1024, n capped at 1024.
SIZE_CAP = {"scan_block_blelloch": 1024}
FINISHES = [("atomic", ["--finish", "atomic"]), ("partials", ["--finish", "partials"])]
VARIANTS = {"scan_block_blelloch": [("block1024", ["--block", "1024"])],
            "histogram_stage_1": [("skip", ["--skip-empty", "on"]), ("fold_all", ["--skip-empty", "off"])],
            "histogram_stage_7": [("copies1", ["--copies", "1"]), ("copies4", ["--copies", "4"])],
            # Stage 7's knobs: the default and the most different form.
            "scan_stage_7": [("default", ["--tuning", "default"]), ("backoff-occ62", ["--tuning", "backoff-occ62"])],
            # Stage 8: the default at float (4x6-early) and at double (8x3-early: the default's shape is
            # chosen per type), then reduce-ahead, the plain schedule and the 16-window near look-back.
            "scan_stage_8": [("default", []), ("default_double", ["--type", "double"]),
                             ("8x3-ahead", ["--pipeline", "8x3-ahead"]),
                             ("8x3", ["--pipeline", "8x3"]), ("8x3-near16-early", ["--pipeline", "8x3-near16-early"])],
            "reduce_kernel_6": [("syncwarp", ["--last-warp", "syncwarp"]),
                                ("syncwarp_partials", ["--last-warp", "syncwarp", "--finish", "partials"]),
                                ("volatile", ["--last-warp", "volatile"]),
                                ("volatile_partials", ["--last-warp", "volatile", "--finish", "partials"])]}
VARIANTS.update({"reduce_kernel_%d" % k: FINISHES for k in (1, 2, 3, 4, 5, 7, 8)})
# Histogram stage 10 ends one way with one block (it stores the result) and another with several (the
# workspace histogram and the last block's copy): both grids. A variant that gives --grid replaces
# the grid-stride default (GRID_STRIDE_GRID).
VARIANTS["histogram_stage_10"] = [("grid1", ["--grid", "1"]), ("grid2", ["--grid", "2"])]
# (program, variant, tool) whose hazards are the lesson: they must be reported.
EXPECTED_HAZARDS = {("reduce_kernel_6", "volatile", "racecheck"),
                    ("reduce_kernel_6", "volatile_partials", "racecheck")}
TOOL_FLAGS = {
    "memcheck": [],
    "racecheck": ["--racecheck-report", "analysis"],
    "synccheck": [],
    "initcheck": [],
}

ERROR_SUMMARY_RE = re.compile(r"ERROR SUMMARY:\s*([\d,]+)\s+errors?")
RACE_SUMMARY_RE = re.compile(
    r"RACECHECK SUMMARY:\s*([\d,]+)\s+hazards?\s+displayed\s*\(([\d,]+)\s+errors?,\s*([\d,]+)\s+warnings?\)")
HAZARD_COUNT_RE = re.compile(r"\[([\d,]+)\s+hazards?\]")


def num(s):
    return int(s.replace(",", ""))


def parse_output(text):
    """What a sanitizer run printed: {'errors': N or None, 'hazards': N or None,
    'race_errors': N, 'race_warnings': N, 'hazard_instances': sum of the [k hazards] tags}."""
    r = {"errors": None, "hazards": None, "race_errors": 0, "race_warnings": 0, "hazard_instances": 0}
    errs = ERROR_SUMMARY_RE.findall(text)
    if errs:
        r["errors"] = sum(num(e) for e in errs)
    races = RACE_SUMMARY_RE.findall(text)
    if races:
        r["hazards"] = sum(num(h) for h, _, _ in races)
        r["race_errors"] = sum(num(e) for _, e, _ in races)
        r["race_warnings"] = sum(num(w) for _, _, w in races)
    r["hazard_instances"] = sum(num(h) for h in HAZARD_COUNT_RE.findall(text))
    return r


def find_programs(build_dir):
    """[(name, path)] of the stage programs that exist under each chapter's build folder, chapter 7
    first."""
    found = []
    for sub, pattern in PROGRAM_GLOBS:
        # Subfolders too: chapter 8 keeps each algorithm's programs in its own folder (reduce/, ...).
        for path in sorted(glob.glob(os.path.join(build_dir, sub, "**", pattern), recursive=True),
                           key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p)]):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                found.append((os.path.basename(path), path))
    return found


def default_size(name):
    """The smallest --n that reaches every code path of the stage program `name` (see above)."""
    for prefix, n in SIZE_BY_PREFIX:
        if name.startswith(prefix):
            return n
    return DEFAULT_SIZE


def takes_grid(path):
    """True when the program's --help offers --grid (a grid-stride stage). --help needs no GPU."""
    try:
        r = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--grid" in r.stdout + r.stderr


def judge(name, variant, tool, rc, out):
    """(ok, summary text) for one run."""
    p = parse_output(out)
    expected = (name, variant, tool) in EXPECTED_HAZARDS
    if tool == "racecheck":
        hazards = p["hazards"]
        detail = "%s hazards (%d errors, %d warnings)" % (
            "?" if hazards is None else hazards, p["race_errors"], p["race_warnings"])
        if p["hazard_instances"]:
            detail += ", %d hazard instances" % p["hazard_instances"]
        if expected:
            if hazards:
                return True, "hazards reported, as expected (the lesson): " + detail
            return False, ("expected racecheck to report hazards in the legacy volatile warp tail, "
                           "but it reported none: " + detail)
        if hazards is None:
            return False, "no RACECHECK SUMMARY line (exit %d): did the program run?" % rc
        if hazards or rc != 0:
            return False, "racecheck: %s, exit %d" % (detail, rc)
        return True, "clean"
    if p["errors"] is None:
        return False, "no ERROR SUMMARY line (exit %d): did the program run?" % rc
    if p["errors"] or rc != 0:
        return False, "%d errors, exit %d%s" % (p["errors"], rc,
                                                " (the program itself failed)" if rc not in (0, ERROR_EXIT) else "")
    return True, "clean"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build", help="the CMake build folder (default build)")
    ap.add_argument("--sizes", default="", help="comma-separated --n values for every program (default: each "
                    "program's smallest input that reaches every code path, see above)")
    ap.add_argument("--jobs", type=int, default=4, help="sanitizer runs at once on the GPU (default 4)")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma-separated tools (default all four)")
    ap.add_argument("--only", default="", help="comma-separated program names to run (default all found)")
    ap.add_argument("--log-dir", default="sanitizer-logs", help="one log per run (default ./sanitizer-logs)")
    ap.add_argument("--sanitizer", help="compute-sanitizer executable (default: PATH, /usr/local/cuda/bin)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run (default 600)")
    ap.add_argument("--assume-gpu", action="store_true", help=argparse.SUPPRESS)  # tests only
    a = ap.parse_args(argv)

    san = a.sanitizer or shutil.which("compute-sanitizer")
    if not san and os.access("/usr/local/cuda/bin/compute-sanitizer", os.X_OK):
        san = "/usr/local/cuda/bin/compute-sanitizer"
    if not san:
        print("SKIPPED: compute-sanitizer not found on PATH (or /usr/local/cuda/bin, or --sanitizer)")
        return EXIT_SKIP
    if not a.assume_gpu:
        ok, why = gpu_present()
        if not ok:
            print("SKIPPED: no NVIDIA GPU for compute-sanitizer: " + why)
            return EXIT_SKIP
        print("GPU: " + why)
    tools = [t for t in a.tools.split(",") if t]
    bad_tools = [t for t in tools if t not in TOOLS]
    if bad_tools:
        ap.error("unknown tool(s): %s (choose from %s)" % (", ".join(bad_tools), ", ".join(TOOLS)))
    fixed_sizes = [s for s in a.sizes.split(",") if s]
    programs = find_programs(a.build_dir)
    if a.only:
        wanted = set(a.only.split(","))
        programs = [p for p in programs if p[0] in wanted]
    if not programs:
        print("FAILED: no stage programs under %s (build first: cmake --build %s)" % (a.build_dir, a.build_dir))
        return 1
    os.makedirs(a.log_dir, exist_ok=True)
    printed = []

    def say(text):
        print(text, flush=True)
        printed.append(text)

    # Every run, in a fixed order: (name, path, variant, variant flags, tool, n, extra flags).
    runs = []
    for name, path in programs:
        sizes = fixed_sizes or [default_size(name)]
        extra = [] if fixed_sizes or not takes_grid(path) else ["--grid", GRID_STRIDE_GRID]
        for variant, vflags in VARIANTS.get(name, [("", [])]):
            for tool in tools:
                for n in sizes:
                    n = str(min(int(n), SIZE_CAP.get(name, int(n))))
                    runs.append((name, path, variant, vflags, tool, n, [] if "--grid" in vflags else extra))
    forms = sum(len(VARIANTS.get(name, [None])) for name, _ in programs)
    say("%s: %d programs (%d forms, a program with variants (--finish, --last-warp, ...) counting once per variant) x %d tools "
        "x %s = %d runs, %d at a time; logs in %s"
        % (san, len(programs), forms, len(tools),
           "%d sizes" % len(fixed_sizes) if fixed_sizes else "1 size each", len(runs), max(1, a.jobs), a.log_dir))

    def one(run_spec):
        """Runs one sanitizer run; returns (ok, printed line, log path)."""
        name, path, variant, vflags, tool, n, extra = run_spec
        label = name + ("[%s]" % variant if variant else "")
        log = os.path.join(a.log_dir, "%s%s_%s_n%s.log" % (name, "_" + variant if variant else "", tool, n))
        cmd = [san, "--tool", tool, "--error-exitcode", str(ERROR_EXIT)] + TOOL_FLAGS[tool]
        cmd += [path, "--n", n, "--iters", "1", "--warmup", "0"] + extra + vflags
        t0 = time.time()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            rc, out = r.returncode, r.stdout + "\n" + r.stderr
        except subprocess.TimeoutExpired as e:
            rc, out = -1, "TIMEOUT after %d s\n%s" % (a.timeout, e.stdout or "")
        with open(log, "w") as f:
            f.write("$ " + " ".join(cmd) + "\n" + out)
        if rc == EXIT_SKIP and "Nothing was run" in out:
            ok, what = False, "the program found no GPU (exit 77) under the sanitizer"
        elif rc == 2 and "compute capability" in out:
            ok, what = True, "not run: the stage refuses this GPU (%s)" % out.strip().splitlines()[-1][:120]
        elif rc == -1:
            ok, what = False, "timed out after %d s" % a.timeout
        else:
            ok, what = judge(name, variant, tool, rc, out)
        line = "%-4s %-28s %-9s n=%-5s%s %5.1fs  %s" % ("ok" if ok else "FAIL", label, tool, n,
                                                       " grid=" + extra[1] if extra else "",
                                                       time.time() - t0, what)
        return ok, line, log

    results, failures = [], 0
    # Independent processes: up to --jobs at once on the GPU; printed in the fixed order above.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for ok, line, log in pool.map(one, runs):
            failures += 0 if ok else 1
            say(line)
            if not ok:
                say("      log: %s" % log)
            results.append(line)
    say("\n%d runs, %d not as expected" % (len(results), failures))
    if failures:
        say("RESULT: FAILED")
    else:
        say("RESULT: every stage clean under %s; the volatile warp tail's races were reported" % ", ".join(tools)
            if "racecheck" in tools and any(n == "reduce_kernel_6" for n, _ in programs)
            else "RESULT: every run clean")
    summary = os.path.join(a.log_dir, "summary.txt")
    with open(summary, "w") as f:
        f.write("\n".join(printed) + "\n")
    print("summary: " + summary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
