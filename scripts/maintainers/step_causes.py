#!/usr/bin/env python3
"""A measured cause for every ladder step that gains less than 1.05x: both stages under Nsight Compute.

Reads a ladder's CSV (reduce_ladder, reduce_ladder_ch08, scan_ladder or histogram_ladder --csv),
lists every step whose speed-up is below --threshold (default 1.05) and profiles both stage programs
of each such step with one fixed set of counters: kernel duration, DRAM throughput (% of peak),
achieved occupancy, the three largest warp-stall reasons (warps stalled per issued instruction),
shared-memory bank conflicts, L2 hit rate, warp instructions executed, and the global atomics. It
prints, and writes as Markdown (--md), one row per step: both ladder times, both sets of counters
side by side, and a one-line verdict on what bounds both stages.

A step is a stage row and the stage row before it in the same table of the ladder (rows that share
the finish, op, type, scan and distribution columns; CUB and the ceilings are not stages). Its
speed-up is the ladder's own step_speedup column, which is checked against the two ms_median values.
Each stage is profiled at the ladder's n, type, block and distribution (--n overrides n), with the
flags its row name implies: reduce_kernel_6_volatile_partials is reduce_kernel_6 --last-warp volatile
--finish partials; histogram_stage_1_fold_all is histogram_stage_1 --skip-empty off. One ncu run per
distinct stage program and flags; the reports stay in --reports.

The verdict, by the first rule that holds for both stages of the step:
  launch        both kernels shorter than LAUNCH_BOUND_US: launch latency bounds both
  atomics       both issue one same-address atomic per block and those atomics, at the one-address
                rate (ns per atomic: the ladder's stage 0, one atomic per element, else
                ATOMIC_NS_DEFAULT), take >= ATOMIC_SHARE_MIN of the kernel time: the atomic finish
                bounds both
  memory roof   both at >= MEMORY_ROOF_PCT % of peak DRAM throughput
  barrier       both stall most at a block barrier
  shared        both stall most on shared memory (short scoreboard, MIO throttle)
  global loads  both stall most on global memory (long scoreboard) below the memory roof: too few
                bytes in flight
  same stall    both stall most on the same other reason
A slow-down (a step below SLOWER_BELOW) with none of these in common is judged by its later stage alone:
  slower: barrier     the later stage stalls most at a block barrier, at least MIN_STALL warps per
                      issue and STALL_RISE times the earlier stage's barrier stall
  slower: shared      the same for shared memory (short scoreboard, MIO throttle; the bank conflicts
                      before and after)
  slower: occupancy   the later stage keeps >= OCCUPANCY_FALL fewer warps resident, too few to hide its
                      top stall
otherwise UNEXPLAINED. A slow-down also names the counter of the later stage that rose the most (bank
conflicts, warp instructions, global atomics from at least MIN_NEW_COUNT events, a stall reason of at
least MIN_STALL warps per issue). A stage whose profiled kernel takes less than ONE_KERNEL_SHARE of its
ladder time (and at least LAUNCH_BOUND_US) enqueues more than that kernel (more kernels, or memsets):
the row says so; not with --n or --from-reports, whose runs need not match the ladder's. The
counters are in the table either way: a verdict is a pointer, not a proof.

Input errors are reported, not skipped: a step_speedup that disagrees with the two times by more than
STEP_TOLERANCE (INCONSISTENT), a stage row whose program is not built, a profile that fails.

Examples
  scripts/maintainers/step_causes.py docs/results/H200/ch07/reduce_ladder_2e28_float.csv --list
  scripts/maintainers/step_causes.py build/reduce_ladder_2e28_float.csv --build-dir build --md causes.md
  scripts/maintainers/step_causes.py LADDER.csv --n 2^24 --reports r/         # smaller, faster profiles
  scripts/maintainers/step_causes.py LADDER.csv --from-reports --reports r/   # re-derive without a GPU

Exit codes: 0 every slow step has a verdict; 1 a step is UNEXPLAINED or INCONSISTENT, a program is
missing or profiling failed; 2 bad command line or unreadable ladder; 77 skipped (no ncu or no GPU;
--list needs neither).
"""
import argparse
import csv
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/profiler.py
import profiler  # noqa: E402  (the Python the profiler tools share)

# ---- rules and limits (edit here) -----------------------------------------------------------
THRESHOLD = 1.05          # a step below this speed-up is "slow" and gets a measured cause
STEP_TOLERANCE = 0.01     # step_speedup must equal ms(before) / ms(after) within 1%
LAUNCH_BOUND_US = 5.0     # both kernels shorter than this: launch latency
ATOMIC_NS_DEFAULT = 1.76  # ns per same-address atomic: the H200's stage 0 at 2^28 (471.9 ms / 2^28)
ATOMIC_SHARE_MIN = 0.80   # the one-address atomics account for >= 80% of the kernel time
ONE_PER_BLOCK = 0.02      # global atomic warp instructions = blocks within 2%
MEMORY_ROOF_PCT = 85.0    # both at >= 85% of peak DRAM throughput
SHARED_STALLS = ("short_scoreboard", "mio_throttle")
SLOWER_BELOW = 0.95       # a step below this is a slow-down: the verdict adds the counter that rose most
MIN_STALL = 0.5           # a stall reason below this many warps per issue is no cause of a slow-down
STALL_RISE = 1.2          # a slow-down's later stage is judged by its top stall only if that stall rose by 20%
MIN_NEW_COUNT = 1000      # a counter that rises from 0 is named only from this many events
OCCUPANCY_FALL = 0.30     # a slow-down's later stage keeps >= 30% fewer warps resident: the occupancy rule
ONE_KERNEL_SHARE = 0.5    # a profiled kernel below half the stage's ladder time: the stage enqueues more

METRICS = [
    "gpu__time_duration.sum",
    "launch__grid_size",
    "launch__block_size",
    "smsp__inst_executed.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "lts__t_sector_hit_rate.pct",
    "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__sass_inst_executed_op_global_red.sum",
    r"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio",
]

REQUIRED_COLUMNS = ("stage", "n", "dtype", "block", "ms_median")
# Columns whose value names the table a row belongs to (a step never crosses tables).
TABLE_COLUMNS = ("finish", "op", "dtype", "scan", "dist", "bins", "lower", "upper", "block")
CH07 = re.compile(r"^(reduce_kernel_(\d+)[ab]?)(_volatile)?(_partials)?$")
STAGE = re.compile(r"^(reduce_stage|scan_stage|histogram_stage)_\d+$")


class LadderError(ValueError):
    """The ladder CSV cannot be read as a ladder."""


def read_ladder(path):
    """The ladder's rows as dicts, in order. Raises LadderError when the file or a column is missing."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise LadderError("cannot read %s: %s" % (path, e))
    if not rows:
        raise LadderError("%s holds no rows" % path)
    missing = [c for c in REQUIRED_COLUMNS if c not in rows[0]]
    if missing:
        raise LadderError("%s is not a ladder CSV: no column %s" % (path, ", ".join(missing)))
    return rows


def is_stage_row(row):
    """A stage of the ladder, not CUB or a ceiling (those have no block size)."""
    return bool(row.get("block", "").strip()) and bool(row.get("stage", "").strip())


def program_of(row):
    """(program name, extra flags) of a ladder row, or None when the name is no stage program's."""
    name, args = row["stage"], []
    m = CH07.match(name)
    if m:
        prog, number, volatile, partials = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        if volatile:
            args += ["--last-warp", "volatile"]
        if 1 <= number <= 8 and prog == "reduce_kernel_%d" % number:  # stages 1-8 take --finish
            args += ["--finish", "partials" if partials else "atomic"]
        elif partials:
            return None
    elif name == "histogram_stage_1_fold_all":
        prog, args = "histogram_stage_1", ["--skip-empty", "off"]
    elif STAGE.match(name):
        prog = name
    else:
        return None
    dist = row.get("dist", "").strip()
    if dist:
        args += ["--dist", dist]
    op = row.get("op", "").strip()
    if op and op != "sum":
        args += ["--op", op]
    if row.get("scan", "").strip() == "inclusive":
        args += ["--inclusive"]
    for col in ("bins", "lower", "upper"):
        if row.get(col, "").strip():
            args += ["--" + col, row[col].strip()]
    return prog, args


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def steps_of(rows, threshold=THRESHOLD):
    """[(before, after, speed-up, problem)] for every step below `threshold`, in ladder order;
    problem is None or what is wrong with the row (INCONSISTENT, no program)."""
    last, out = {}, []
    for row in rows:
        if not is_stage_row(row):
            continue
        key = tuple(row.get(c, "") for c in TABLE_COLUMNS)
        before = last.get(key)
        last[key] = row
        if before is None:
            continue
        t0, t1 = number(before["ms_median"]), number(row["ms_median"])
        if not t0 or not t1:
            out.append((before, row, None, "no ms_median"))
            continue
        measured = t0 / t1
        stated = number(row.get("step_speedup"))
        step = stated if stated else measured
        problem = None
        if stated and abs(stated - measured) > STEP_TOLERANCE * measured:
            problem = ("INCONSISTENT: step_speedup %.4f, but ms_median %.4f -> %.4f is %.4fx"
                       % (stated, t0, t1, measured))
        if step < threshold or problem:
            for r in (before, row):
                if problem is None and program_of(r) is None:
                    problem = "no stage program for row %s" % r["stage"]
            out.append((before, row, step, problem))
    return out


def atomic_ns(rows):
    """ns per same-address atomic: the ladder's stage 0 (one atomicAdd per element) when it has one."""
    for row in rows:
        if row.get("stage") in ("reduce_kernel_0",) and number(row.get("ms_median")) and number(row.get("n")):
            return 1e6 * number(row["ms_median"]) / number(row["n"])
    return ATOMIC_NS_DEFAULT


def atomic_share(d, ns):
    """The share of the kernel time that one-per-block same-address atomics at `ns` each explain, or
    None when the kernel does not issue one global atomic per block."""
    atomics, grid, t = d.get("global_atomics"), d.get("grid"), d.get("time_us")
    if not atomics or not grid or not t or abs(atomics - grid) > ONE_PER_BLOCK * grid:
        return None
    return atomics * ns / (1000.0 * t)


def top(d):
    stalls = profiler.top_stalls(d.get("stalls") or {}, 1)
    return stalls[0][0] if stalls else None


def verdict(b, c, ns):
    """(rule, one line) for the counters of the two stages of a step; rule "UNEXPLAINED" when none."""
    tb, tc = b.get("time_us"), c.get("time_us")
    if tb is not None and tc is not None and tb < LAUNCH_BOUND_US and tc < LAUNCH_BOUND_US:
        return "launch", "launch latency bounds both (kernels of %.1f and %.1f us)" % (tb, tc)
    sb, sc = atomic_share(b, ns), atomic_share(c, ns)
    if sb is not None and sc is not None and sb >= ATOMIC_SHARE_MIN and sc >= ATOMIC_SHARE_MIN:
        return "atomics", ("the atomic finish bounds both: one same-address atomic per block, %.2f ns each "
                           "(one after the other in the L2 slice) explains %.0f%% and %.0f%% of the time"
                           % (ns, 100 * sb, 100 * sc))
    db, dc = b.get("dram_pct"), c.get("dram_pct")
    if db is not None and dc is not None and db >= MEMORY_ROOF_PCT and dc >= MEMORY_ROOF_PCT:
        return "memory roof", "both at the memory roof (DRAM %.1f%% and %.1f%% of peak)" % (db, dc)
    kb, kc = top(b), top(c)
    if kb and kb == kc:
        if kb == "barrier":
            return "barrier", "block barriers bound both (top stall: barrier)"
        if kb in SHARED_STALLS:
            return "shared", ("shared memory bounds both (top stall: %s; bank conflicts %s and %s)"
                              % (kb, profiler.fmt(b.get("conflicts"), "{:,.0f}"), profiler.fmt(c.get("conflicts"), "{:,.0f}")))
        if kb == "long_scoreboard":
            return "global loads", ("both wait on global loads (long scoreboard) below the memory roof "
                                    "(DRAM %s%% and %s%%): too few bytes in flight"
                                    % (profiler.fmt(db, "{:.1f}"), profiler.fmt(dc, "{:.1f}")))
        return "same stall", "both stall most on %s" % kb
    return "UNEXPLAINED", "no common bound (top stalls %s and %s)" % (kb, kc)


def slowdown_cause(b, c):
    """(rule, one line) for a slow-down whose stages share no bound: what the later stage waits on,
    or None when none of the slow-down rules holds."""
    kc = top(c)
    if not kc:
        return None
    v = (c.get("stalls") or {}).get(kc, 0.0)
    rose = v >= MIN_STALL and v >= STALL_RISE * ((b.get("stalls") or {}).get(kc) or 0.0)
    ob, oc = b.get("occupancy_pct"), c.get("occupancy_pct")
    if kc == "barrier" and rose:
        return "slower: barrier", ("the later stage stalls most at a block barrier (%.2f warps per issue; the "
                                   "earlier one's top stall: %s)" % (v, top(b)))
    if kc in SHARED_STALLS and rose:
        return "slower: shared", ("the later stage stalls most on shared memory (%s, %.2f warps per issue; bank "
                                  "conflicts %s -> %s)" % (kc, v, profiler.fmt(b.get("conflicts"), "{:,.0f}"),
                                                           profiler.fmt(c.get("conflicts"), "{:,.0f}")))
    if ob and oc is not None and oc <= (1 - OCCUPANCY_FALL) * ob:
        return "slower: occupancy", ("the later stage keeps fewer warps resident (occupancy %.1f%% -> %.1f%%), too "
                                     "few to hide its top stall (%s, %.2f warps per issue)" % (ob, oc, kc, v))
    return None


def biggest_rise(b, c):
    """For a step that slows down: the counter of the candidate that rose the most against the
    baseline, as text ("bank conflicts x60.0 (150,000 -> 9,000,000)"), or None."""
    best = None
    candidates = [("conflicts", "bank conflicts"), ("inst", "warp instructions"), ("global_atomics", "global atomics")]
    candidates += [("stall:" + r, "stall " + r) for r in (c.get("stalls") or {})]
    for key, label in candidates:
        if key.startswith("stall:"):
            x, y = (b.get("stalls") or {}).get(key[6:]), (c.get("stalls") or {}).get(key[6:])
        else:
            x, y = b.get(key), c.get(key)
        if x is None or y is None or y <= 0 or (key.startswith("stall:") and y < MIN_STALL):
            continue
        if x <= 0 and not key.startswith("stall:") and y < MIN_NEW_COUNT:
            continue
        factor = y / x if x > 0 else float("inf")
        if factor > 1.2 and (best is None or factor > best[0]):
            best = (factor, "%s %s (%s -> %s)" % (label, "x%.1f" % factor if factor != float("inf") else "new",
                                                   profiler.fmt(x, "{:,.2f}" if key.startswith("stall:") else "{:,.0f}"),
                                                   profiler.fmt(y, "{:,.2f}" if key.startswith("stall:") else "{:,.0f}")))
    return best[1] if best else None


def pair(b, c, key, f):
    return "%s / %s" % (profiler.fmt(b.get(key), f), profiler.fmt(c.get(key), f))


def stalls_text(d):
    return ", ".join("%s %.2f" % s for s in profiler.top_stalls(d.get("stalls") or {}, 3)) or "n/a"


def report_name(row):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", row["stage"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ladder", help="a ladder's CSV (the --csv of reduce_ladder, scan_ladder, histogram_ladder ...)")
    ap.add_argument("--threshold", type=float, default=THRESHOLD,
                    help="steps below this speed-up get a cause (default %g)" % THRESHOLD)
    ap.add_argument("--list", action="store_true", help="only list the slow steps (no profiling, no GPU)")
    ap.add_argument("--n", help="elements per profiled run (default: the ladder's n)")
    ap.add_argument("--build-dir", help="where the stage programs are looked for (default: ./build, "
                                         "then build/ and build-*/ at the repository's root)")
    ap.add_argument("--reports", help="where the .ncu-rep files go (default: a temporary folder)")
    ap.add_argument("--from-reports", action="store_true",
                    help="do not profile: read <reports>/<stage>.ncu-rep made by an earlier run")
    ap.add_argument("--ncu", help="ncu executable (default: $NCU, PATH, /usr/local/cuda/bin/ncu)")
    ap.add_argument("--md", help="write the Markdown table to this file")
    ap.add_argument("--assume-gpu", action="store_true", help=argparse.SUPPRESS)  # tests only
    a = ap.parse_args(argv)
    if a.threshold <= 0:
        ap.error("--threshold must be positive")
    if a.from_reports and not a.reports:
        ap.error("--from-reports needs --reports DIR")
    try:
        rows = read_ladder(a.ladder)
    except LadderError as e:
        print("step_causes.py: error: %s" % e, file=sys.stderr)
        return profiler.EXIT_USAGE
    steps = steps_of(rows, a.threshold)
    slow = [s for s in steps if s[2] is not None and s[2] < a.threshold]
    print("%s: %d step(s) below %.2fx" % (a.ladder, len(slow), a.threshold))
    for before, after, step, problem in steps:
        print("  %s -> %s: %s%s" % (before["stage"], after["stage"], "%.3fx" % step if step else "n/a",
                                    "  " + problem if problem else ""))
    bad = [s for s in steps if s[3]]
    if a.list:
        return 1 if bad else 0

    ncu, skipped = profiler.ncu_and_gpu(a.ncu, need_gpu=not a.from_reports and not a.assume_gpu)
    if skipped:
        print(skipped)
        return profiler.EXIT_SKIP
    reports = a.reports or tempfile.mkdtemp(prefix="step_causes_")
    os.makedirs(reports, exist_ok=True)
    dirs = profiler.build_dirs(a.build_dir)
    ns = atomic_ns(rows)

    cache, errors = {}, []

    def measure(row):
        """derived() counters of one ladder row's stage, profiled once per program and flags."""
        prog, args = program_of(row)
        n = a.n or row["n"]
        key = (prog, tuple(args), n, row["block"], row["dtype"])
        if key in cache:
            return cache[key]
        if a.from_reports:
            d = profiler.derived(profiler.read_report(os.path.join(reports, report_name(row) + ".ncu-rep"), ncu=ncu))
        else:
            path = profiler.find_program(prog, dirs)
            if not path:
                raise profiler.ProfileError(profiler.no_program_message(prog, dirs))
            rep, _ = profiler.profile(path, os.path.join(reports, report_name(row)), n=n, block=int(row["block"]),
                                dtype=row["dtype"], extra_args=args, ncu=ncu, metrics=METRICS,
                                log=lambda s: print(s, file=sys.stderr))
            d = profiler.derived(profiler.read_report(rep, ncu=ncu))
        cache[key] = d
        return d

    header = ["step", "ladder ms", "ladder step", "kernel us", "DRAM % peak", "occupancy %", "top stalls (warps/issue)",
              "bank conflicts", "L2 hit %", "warp inst.", "verdict"]
    table, failed = [], bool(bad)
    for before, after, step, problem in steps:
        name = "%s -> %s" % (before["stage"], after["stage"])
        times = "%s / %s" % (profiler.fmt(number(before["ms_median"]), "{:.4f}"), profiler.fmt(number(after["ms_median"]), "{:.4f}"))
        if problem:
            table.append([name, times, "%.3fx" % step if step else "n/a"] + ["-"] * 7 + [problem])
            continue
        try:
            b, c = measure(before), measure(after)
        except profiler.ProfileError as e:
            errors.append("%s: %s" % (name, e))
            table.append([name, times, "%.3fx" % step] + ["-"] * 7 + ["ERROR: profiling failed"])
            failed = True
            continue
        rule, text = verdict(b, c, ns)
        if rule == "UNEXPLAINED" and step < SLOWER_BELOW:
            rule, text = slowdown_cause(b, c) or (rule, text)
        failed = failed or rule == "UNEXPLAINED"
        if rule == "UNEXPLAINED":
            text = "UNEXPLAINED: " + text
        if step < SLOWER_BELOW:
            rise = biggest_rise(b, c)
            text += "; slower, the largest rise: %s" % rise if rise else "; slower, no counter rose by 20%"
        for row, d in ((before, b), (after, c)):
            ladder_us, kernel_us = 1000.0 * (number(row["ms_median"]) or 0.0), d.get("time_us")
            if (kernel_us is not None and a.n is None and not a.from_reports and rule != "launch"
                    and LAUNCH_BOUND_US <= kernel_us < ONE_KERNEL_SHARE * ladder_us):
                text += ("; %s enqueues more than the profiled kernel (more kernels or memsets): %.0f us of "
                         "its %.0f" % (row["stage"], kernel_us, ladder_us))
        table.append([name, times, "%.3fx" % step, pair(b, c, "time_us", "{:.1f}"), pair(b, c, "dram_pct", "{:.1f}"),
                      pair(b, c, "occupancy_pct", "{:.1f}"), "%s / %s" % (stalls_text(b), stalls_text(c)),
                      pair(b, c, "conflicts", "{:,.0f}"), pair(b, c, "l2_hit_pct", "{:.1f}"),
                      pair(b, c, "inst", "{:,.0f}"), text])
    print()
    print(profiler.text_table(header, table))
    for e in errors:
        print("ERROR " + e)
    if a.md:
        os.makedirs(os.path.dirname(os.path.abspath(a.md)), exist_ok=True)
        with open(a.md, "w") as f:
            f.write("## What bounds the steps below %.2fx: %s\n\n" % (a.threshold, os.path.basename(a.ladder)))
            f.write("Both stages of every step of the ladder `%s` that gains less than %.2fx, profiled with "
                    "`ncu --profile-from-start off --clock-control none --launch-count 1` (the first launch "
                    "inside each program's `--profile` range) at n = %s. Made by `scripts/maintainers/step_causes.py`. "
                    "Each cell is before / after; stalls are warps stalled per issued instruction; bank "
                    "conflicts are l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld + _st (extra "
                    "wavefronts); the verdict is the first rule of the script's --help that holds (for both "
                    "stages, or for a slow-down's later stage; one-address atomics at %.2f ns each).\n\n"
                    % (os.path.basename(a.ladder), a.threshold, a.n or "the ladder's n", ns))
            f.write(profiler.markdown_table(header, table))
        print("\nMarkdown: " + a.md)
    print("\nreports: " + reports)
    if failed:
        print("RESULT: FAILED (a step is unexplained or inconsistent, or could not be profiled)")
        return 1
    print("RESULT: every step below %.2fx has a measured cause" % a.threshold)
    return 0


if __name__ == "__main__":
    sys.exit(main())
