#!/usr/bin/env python3
"""A stand-in for `ncu`, for testing the profiling scripts on a machine without a GPU.

Profiling (`-o BASE ... PROGRAM --profile ...`) writes BASE.ncu-rep as JSON holding counters shaped
like chapter 7's and chapter 8's stages at n = 2^24, block 256 (per-warp counts read from the sm_90 SASS);
`--import REP --csv --page raw` prints them the way ncu does: a ==PROF== line, the header, a units
row, one row per kernel, numbers with thousands separators, instanced metrics as
"TOTAL (NAME: V; NAME: V)". FAKE_NCU_UNKNOWN="a,b" makes it reject those metric names as ncu does;
FAKE_NCU_AS="prog=other" gives program prog the counters of other (a step that does not move).
A chapter-7 program run with `--finish partials` gets the counters of "<prog>@partials"; a histogram
program's flags pick "<prog>@<label>" the way check_profile_claims.py names its stages (--grid:
"@grid", --dist one-bin: "@one-bin", --skip-empty off: "@fold-all", ...), where such a row exists.
EXTRA gives a stage counters beyond the tuple of STAGES (global loads, atomics, L2 hit rate, ...).
"""
import json
import os
import sys

BLOCKS = 65536
WARPS = BLOCKS * 8
# stage: (shared ld/warp, shared st/warp, BAR/warp, conflicts total, divergent, dram %, grid)
STAGES = {
    "reduce_kernel_0": (0, 0, 0, 0, 0, 3.0, BLOCKS),
    "reduce_kernel_1": (17, 9, 9, 2.0e5, 0, 40.0, BLOCKS),
    "reduce_kernel_2": (8, 9, 9, 1.5e5, 0, 45.0, BLOCKS),
    "reduce_kernel_3": (3, 3, 9, 9.0e6, 0, 42.0, BLOCKS),
    "reduce_kernel_4": (17, 9, 9, 0, 0, 50.0, BLOCKS),
    "reduce_kernel_5": (8, 9, 9, 0, 0, 55.0, BLOCKS),
    "reduce_kernel_6": (8, 8, 3, 0, 0, 60.0, BLOCKS),
    "reduce_kernel_7": (3, 4, 4, 0, 0, 62.0, BLOCKS),
    "reduce_kernel_8": (3, 4, 4, 0, 0, 70.0, 2048),
    "reduce_kernel_9a": (3, 4, 4, 0, 0, 80.0, 2048),
    "reduce_kernel_9b": (3, 4, 4, 0, 0, 90.0, 2048),
    "reduce_kernel_9": (1, 1, 1, 0, 0, 93.0, 2048),
    "reduce_kernel_10": (1, 1, 1, 0, 0, 92.0, 1056),
    "reduce_kernel_11": (1, 1, 1, 0, 0, 91.0, 1056),
    # chapter 8: one-thread stage 0, the one-element tree, then three resident-grid stages
    "reduce_stage_0": (0, 0, 0, 0, 0, 0.1, 1),
    "reduce_stage_1": (9, 9, 8, 1.0e4, 0, 30.0, BLOCKS),
    "reduce_stage_2": (9, 9, 8, 1.0e3, 0, 55.0, 1056),
    "reduce_stage_3": (4, 5, 3, 1.0e2, 0, 55.0, 1056),
    "reduce_stage_4": (0.2, 1, 1, 0, 0, 55.0, 1056),
    "reduce_stage_5": (0.2, 1, 1, 0, 0, 80.0, 1056),
    # the scan (n = 2^26): stages 6 and 7 differ in their cache hints only
    "scan_stage_1": (49, 41, 17, 5.9e7, 0, 13.3, 262144),
    "scan_stage_2": (57, 45, 17, 6.3e5, 0, 21.4, 262144),
    "scan_stage_3": (8, 8, 1, 9.6e3, 0, 67.3, 32768),
    "scan_stage_4": (24, 10, 3, 1.4e4, 0, 17.2, 32768),
    "scan_stage_5": (24, 10, 3, 1.4e4, 0, 49.3, 16384),
    "scan_stage_6": (24, 10, 3, 5.5e3, 0, 58.0, 8192),
    "scan_stage_7": (24, 10, 3, 5.2e3, 0, 59.0, 8192),
    "scan_stage_8": (2, 1, 0.2, 2.8e5, 0, 70.9, 264),
    # the histogram (uint8, n = 2^24; default grids: stages 1 and 2 one thread per sample, 3 and 4 and
    # 7 one wave of 1,056 blocks, 5 and 6 of 396 blocks)
    "histogram_stage_0": (0, 0, 0, 0, 0, 0.1, BLOCKS),
    "histogram_stage_0@one-bin": (0, 0, 0, 0, 0, 0.02, BLOCKS),
    "histogram_stage_1": (1, 1, 2, 2.0e4, 524288, 0.5, BLOCKS),
    "histogram_stage_1@grid": (8, 8, 2, 95, 0, 9.7, 1056),
    "histogram_stage_1@one-bin": (8, 8, 2, 1, 1056, 13.2, 1056),
    "histogram_stage_2@one-bin": (64, 64, 2, 0, 1056, 12.9, 1056),
    "histogram_stage_1@fold-all": (1, 1, 2, 2.0e4, 0, 0.6, BLOCKS),
    "histogram_stage_1@one-bin-default-grid": (1, 1, 2, 0, 65536, 2.0, BLOCKS),
    "histogram_stage_1@fold-all-one-bin": (1, 1, 2, 0, 0, 0.5, BLOCKS),
    "histogram_stage_2@one-bin-default-grid": (8, 8, 2, 0, 65536, 1.0, BLOCKS),
    "histogram_stage_2": (8, 8, 2, 2.0e4, 524288, 0.5, BLOCKS),
    "histogram_stage_3": (8, 8, 2, 100, 0, 12.0, 1056),
    "histogram_stage_4": (8, 8, 2, 100, 0, 40.0, 1056),
    "histogram_stage_5": (2600, 2600, 2, 500, 0, 30.0, 396),
    "histogram_stage_5@one-bin": (2600, 2600, 2, 500, 0, 30.0, 396),
    "histogram_stage_6": (2600, 2600, 2, 500, 0, 30.0, 396),
    "histogram_stage_6@one-bin": (700, 700, 2, 100, 0, 70.0, 396),
    "histogram_stage_7": (8, 8, 2, 100, 0, 80.0, 1056),
    "histogram_stage_8": (8, 8, 2, 100, 0, 85.0, 256),
}
SAMPLE_WARPS = 2 ** 24 // 32  # one shared atomic warp instruction per 32 samples
# Counters beyond STAGES' tuple, by metric name (numbers; formatted like ncu's).
EXTRA = {
    # one address: the home L2 slice counts every request the SMs sent; the L2's total is 1.5 times
    # that (requests crossing to the other partition counted again), as measured on an H100
    "reduce_kernel_0": {"lts__t_requests_op_red.sum": 3 * 2 ** 19, "lts__t_requests_op_red.max": 2 ** 20,
                        "lts__t_requests_srcunit_tex_op_red.sum": 2 ** 20},
    "reduce_kernel_1": {"lts__t_requests_op_red.sum": 3 * BLOCKS // 2, "lts__t_requests_op_red.max": BLOCKS,
                        "lts__t_requests_srcunit_tex_op_red.sum": BLOCKS},
    "reduce_kernel_9a": {"smsp__sass_inst_executed_op_global_ld.sum": 131075},
    "reduce_kernel_9b": {"smsp__sass_inst_executed_op_global_ld.sum": 131072},
    "reduce_kernel_9": {"smsp__sass_inst_executed_op_global_ld.sum": 131072},
    "scan_stage_6": {"lts__t_sector_hit_rate.pct": 41.0, "dram__bytes_read.sum": 268435456},
    "scan_stage_7": {"lts__t_sector_hit_rate.pct": 43.5, "dram__bytes_read.sum": 268500000},
    # global atomics in the L2: 256 counters spread over the slices; one-bin data, one slice
    "histogram_stage_0": {"global_atomics": 524288, "time_ns": 170000, "lts__t_requests_op_red.sum": 3 * 2 ** 23,
                          "lts__t_requests_op_red.max": 2 ** 24 / 12, "lts__t_requests_srcunit_tex_op_red.sum": 2 ** 24},
    "histogram_stage_0@one-bin": {"global_atomics": 524288, "time_ns": 780000, "lts__t_requests_op_red.sum":
                                  3 * 2 ** 23, "lts__t_requests_op_red.max": 2 ** 24,
                                  "lts__t_requests_srcunit_tex_op_red.sum": 2 ** 24},
    # shared atomics: random bins collide on banks (about 3 wavefronts), one bin takes one
    "histogram_stage_1": {"shared_atom": SAMPLE_WARPS, "global_atomics": 524288, "time_ns": 710000,
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 3.2 * SAMPLE_WARPS},
    "histogram_stage_1@grid": {"shared_atom": SAMPLE_WARPS, "global_atomics": 8448},
    "histogram_stage_1@one-bin": {"shared_atom": SAMPLE_WARPS, "global_atomics": 1056, "time_ns": 26500,
                                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 1.0 * SAMPLE_WARPS},
    "histogram_stage_2@one-bin": {"shared_atom": SAMPLE_WARPS, "global_atomics": 1056, "time_ns": 27100,
                                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 1.0 * SAMPLE_WARPS},
    "histogram_stage_1@fold-all": {"shared_atom": SAMPLE_WARPS, "global_atomics": 524288, "time_ns": 620000},
    "histogram_stage_1@one-bin-default-grid": {"shared_atom": SAMPLE_WARPS, "global_atomics": 65536,
                                               "time_ns": 60000},
    "histogram_stage_2@one-bin-default-grid": {"shared_atom": SAMPLE_WARPS, "global_atomics": 65536,
                                               "time_ns": 9000},
    "histogram_stage_1@fold-all-one-bin": {"shared_atom": SAMPLE_WARPS, "global_atomics": 524288,
                                           "time_ns": 620000},
    "histogram_stage_2": {"shared_atom": SAMPLE_WARPS, "global_atomics": 524288, "time_ns": 710000},
    "histogram_stage_3": {"shared_atom": SAMPLE_WARPS, "global_atomics": 8448, "time_ns": 25000},
    "histogram_stage_4": {"shared_atom": SAMPLE_WARPS, "global_atomics": 8448, "time_ns": 8000,
                          "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 3.5 * SAMPLE_WARPS},
    # stages 5 and 6 fold with one warp per bin, lane 0's atomic: one warp instruction per non-empty bin
    "histogram_stage_5": {"shared_atom": 300, "global_atomics": 101376, "time_ns": 10000,
                          "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                          "sm__warps_active.avg.pct_of_peak_sustained_active": 36.0},
    "histogram_stage_5@one-bin": {"shared_atom": 2000, "global_atomics": 396, "time_ns": 10300,
                                  "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                                  "sm__warps_active.avg.pct_of_peak_sustained_active": 36.0},
    "histogram_stage_6": {"shared_atom": 300, "global_atomics": 101376, "time_ns": 10200,
                          "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                          "sm__warps_active.avg.pct_of_peak_sustained_active": 36.0},
    "histogram_stage_6@one-bin": {"shared_atom": 200, "global_atomics": 396, "time_ns": 5000,
                                  "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                                  "sm__warps_active.avg.pct_of_peak_sustained_active": 36.0},
    "histogram_stage_7": {"shared_atom": SAMPLE_WARPS, "global_atomics": 8448, "time_ns": 4500,
                          "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 1.0 * SAMPLE_WARPS},
    "histogram_stage_8": {"shared_atom": SAMPLE_WARPS, "global_atomics": 2048, "time_ns": 3800,
                          "smsp__sass_inst_executed_op_global_ld.sum": 32768,
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": 1.0 * SAMPLE_WARPS},
}
# Chapter 7 with the partials finish: the same trees, the time no longer set by the atomics.
for _k in range(1, 9):
    STAGES["reduce_kernel_%d@partials" % _k] = STAGES["reduce_kernel_%d" % _k]
# Kernel time in ns (default 30,000; stage 0 900,000): with the partials finish the strided index
# (3) is slower than the modulo branch (1) and the shuffle tail (7) faster; with the atomic finish
# stages 1 to 7 take 118 us, 65,536 one-address atomics at 1.8 ns each (as on the H200).
TIME_NS = {"reduce_kernel_0": 900000, "reduce_kernel_1@partials": 20000, "reduce_kernel_3@partials": 25000,
           "reduce_kernel_7@partials": 15000}
TIME_NS.update({"reduce_kernel_%d" % _k: 118000 for _k in range(1, 8)})


def stage_key(prog, argv):
    """The row of STAGES for `prog` run with `argv`: "<prog>@partials" for --finish partials; for a
    histogram the label check_profile_claims.py gives those flags, where STAGES has that row."""
    def flag(name):
        return argv[argv.index(name) + 1] if name in argv else None
    if flag("--finish") == "partials":
        return prog + "@partials"
    labels = []
    if flag("--skip-empty") == "off":
        labels.append("fold-all")
    if flag("--dist") == "one-bin":
        labels.append("one-bin")
    if flag("--grid") and not labels:
        labels.append("grid")
    if (flag("--dist") == "one-bin" and not flag("--grid") and prog.endswith(("_1", "_2"))
            and "fold-all" not in labels):
        labels.append("default-grid")
    key = prog + ("@" + "-".join(labels) if labels else "")
    return key if key in STAGES else prog


def main(argv):
    unknown = [u for u in os.environ.get("FAKE_NCU_UNKNOWN", "").split(",") if u]
    if "--import" in argv:
        rep = argv[argv.index("--import") + 1]
        data = json.load(open(rep))
        print("==PROF== fake ncu import")
        names = list(data["kernels"][0].keys())
        cols = ["ID", "Process ID", "Kernel Name", "Block Size", "Grid Size"] + names
        q = lambda xs: ",".join('"%s"' % x for x in xs)
        print(q(cols))
        print(q(["", "", "", "", ""] + ["inst" for _ in names]))
        for i, k in enumerate(data["kernels"]):
            print(q([str(i), "123", "kernel", "(256, 1, 1)", "(65536, 1, 1)"] + [k[n] for n in names]))
        return 0
    metrics = argv[argv.index("--metrics") + 1].split(",") if "--metrics" in argv else []
    for m in metrics:
        if m in unknown:
            print("==ERROR== Failed to find metric %s" % m, file=sys.stderr)
            return 1
    base = argv[argv.index("-o") + 1]
    prog = stage_key(os.path.basename(argv[argv.index("--profile") - 1]), argv)
    alias = dict(a.split("=", 1) for a in os.environ.get("FAKE_NCU_AS", "").split(",") if "=" in a)
    key = alias.get(prog, prog)
    ld, st, bar, conf, div, dram, grid = STAGES.get(key, STAGES["reduce_kernel_1"])
    extra = EXTRA.get(key, {})
    warps = grid * 8
    # the atomic finish of chapter 7: one RED per block; histograms: from EXTRA
    atomics = extra.get("global_atomics", grid if key.startswith("reduce_kernel_") and "@" not in key else 0)
    c = lambda v: "{:,.0f}".format(v)
    k = {}
    for m in metrics:
        if m.startswith("regex:"):
            k["smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"] = "%.2f" % (bar * 0.5)
            k["smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"] = "3.10"
            k["smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"] = "%.2f" % (ld * 0.1)
        elif m == "sass__inst_executed_per_opcode":
            parts = {"BAR": bar * warps, "LDS": ld * warps, "STS": st * warps, "FADD": 10 * warps}
            parts = {n: v for n, v in parts.items() if v}
            k[m] = "%s (%s)" % (c(sum(parts.values())), "; ".join("%s: %s" % (n, c(v)) for n, v in parts.items()))
        else:
            k[m] = {
                "gpu__time_duration.sum": c(extra.get("time_ns", TIME_NS.get(key, 30000))),
                "launch__grid_size": c(grid), "launch__block_size": "256",
                "launch__registers_per_thread": "16",
                "smsp__inst_executed.sum": c(70 * warps),
                "smsp__sass_inst_executed_op_shared_ld.sum": c(ld * warps),
                "smsp__sass_inst_executed_op_shared_st.sum": c(st * warps),
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": c(conf * 0.8),
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": c(conf * 0.2),
                "smsp__sass_branch_targets_threads_divergent.sum": c(div),
                "smsp__thread_inst_executed_per_inst_executed.ratio": "32",
                "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio": "19.5",
                "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": c(conf * 0.7),
                "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": c(conf * 0.2),
                "dram__throughput.avg.pct_of_peak_sustained_elapsed": "%.2f" % dram,
                "dram__bytes_read.sum": c(2 ** 26),
                "sm__warps_active.avg.pct_of_peak_sustained_active": "81.3",
                "smsp__sass_inst_executed_op_global_ld.sum": c(2 ** 24 // 32),
                "smsp__sass_inst_executed_op_global_red.sum": c(atomics),
                "smsp__sass_inst_executed_op_global_atom.sum": "0",
                "smsp__sass_inst_executed_op_shared_atom.sum": c(extra.get("shared_atom", 0)),
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": c(extra.get("shared_atom", 0)),
                "lts__t_sector_hit_rate.pct": "50.00",
            }.get(m, "n/a")
            if m in extra:
                k[m] = c(extra[m]) if abs(extra[m]) >= 100 else "%.2f" % extra[m]
    with open(base + ".ncu-rep", "w") as f:
        json.dump({"kernels": [k]}, f)
    print("==PROF== Disconnected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
