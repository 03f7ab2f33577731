#!/usr/bin/env python3
"""A stand-in for `ncu`, for testing the profiling scripts on a machine without a GPU.

Profiling (`-o BASE ... PROGRAM --profile ...`) writes BASE.ncu-rep as JSON holding counters shaped
like chapter 7's and chapter 8's stages at n = 2^24, block 256 (per-warp counts read from the sm_90 SASS);
`--import REP --csv --page raw` prints them the way ncu does: a ==PROF== line, the header, a units
row, one row per kernel, numbers with thousands separators, instanced metrics as
"TOTAL (NAME: V; NAME: V)". FAKE_NCU_UNKNOWN="a,b" makes it reject those metric names as ncu does;
FAKE_NCU_AS="prog=other" gives program prog the counters of other (a step that does not move).
A chapter-7 program run with `--finish partials` gets the counters of "<prog>@partials".
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
    "reduce_kernel_8": (3, 4, 4, 0, 0, 88.0, 2048),
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
}
# Chapter 7 with the partials finish: the same trees, the time no longer set by the atomics.
for _k in range(1, 9):
    STAGES["reduce_kernel_%d@partials" % _k] = STAGES["reduce_kernel_%d" % _k]
# Kernel time in ns (default 30,000; stage 0 900,000): with the partials finish the strided index
# (3) is slower than the modulo branch (1) and the shuffle tail (7) faster.
TIME_NS = {"reduce_kernel_0": 900000, "reduce_kernel_1@partials": 20000, "reduce_kernel_3@partials": 25000,
           "reduce_kernel_7@partials": 15000}


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
    prog = os.path.basename(argv[argv.index("--profile") - 1])
    if "--finish" in argv and argv[argv.index("--finish") + 1] == "partials":
        prog += "@partials"
    alias = dict(a.split("=", 1) for a in os.environ.get("FAKE_NCU_AS", "").split(",") if "=" in a)
    ld, st, bar, conf, div, dram, grid = STAGES.get(alias.get(prog, prog), STAGES["reduce_kernel_1"])
    warps = grid * 8
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
                "gpu__time_duration.sum": c(TIME_NS.get(prog, 30000)),
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
                "dram__throughput.avg.pct_of_peak_sustained_elapsed": "%.2f" % dram,
                "sm__warps_active.avg.pct_of_peak_sustained_active": "81.3",
            }.get(m, "n/a")
    with open(base + ".ncu-rep", "w") as f:
        json.dump({"kernels": [k]}, f)
    print("==PROF== Disconnected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
