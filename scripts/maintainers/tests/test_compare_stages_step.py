#!/usr/bin/env python3
"""Test of scripts/compare_stages.py --step, the reader's view of one step (CTest:
cpu.compare_stages_step, labels cpu;sass): on stages 4 and 5 of chapter 7 it must print the diff of
the stage files, the SASS counts side by side (LDS 17 -> 8, BAR.SYNC 9 and 9, as
ch07_reduction_opt/tests/sass_claims.json says) and the committed profiler rows of both stages.
Exit 77 (skipped) without nvcc or a disassembler."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, SCRIPTS)
import profiler  # noqa: E402


def main():
    nvcc = profiler.find_nvcc()
    tool = profiler.find_disassembler(nvcc=nvcc)
    if not nvcc or not tool:
        print("SKIPPED: needs nvcc and nvdisasm or cuobjdump (nvcc: %s, tool: %s)" % (nvcc, tool))
        return profiler.EXIT_SKIP
    cmd = [sys.executable, os.path.join(SCRIPTS, "compare_stages.py"), "--step",
           "reduce_kernel_4", "reduce_kernel_5"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout + r.stderr)
    checks = [
        (r.returncode == 0, "exit code 0 (got %d)" % r.returncode),
        ("+++ ch07_reduction_opt/reduce_kernel_5_unrolled.cuh" in r.stdout, "the diff of the stage files"),
        ("+  sum = unrolled_tree<T, Block, 1>(sdata, tid, sum);" in r.stdout, "the diff shows stage 5's tree"),
        (re.search(r"^LDS\s+17\s+8\s", r.stdout, re.M), "SASS: LDS 17 -> 8"),
        (re.search(r"^BAR\.SYNC\s+9\s+9\s", r.stdout, re.M), "SASS: BAR.SYNC 9 and 9"),
        (re.search(r"^shared ld\s+1,638,400\s+786,432$", r.stdout, re.M), "committed counters: shared ld"),
    ]
    ok = True
    for cond, what in checks:
        print(("ok:     " if cond else "FAILED: ") + what)
        ok &= bool(cond)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
