#!/usr/bin/env python3
"""A stand-in for compute-sanitizer, for testing run_sanitizers.py without a GPU: prints the
summary lines the real tool prints; racecheck of `--last-warp volatile` reports hazards (as
warnings), everything else is clean. FAKE_SANITIZER_DIRTY=prog:tool makes that pair report errors."""
import os
import sys

argv = sys.argv[1:]
tool = argv[argv.index("--tool") + 1]
prog = next(a for a in argv if "/" in a and os.path.basename(a).startswith("reduce_"))
name = os.path.basename(prog)
print("========= COMPUTE-SANITIZER")
print("%s: ok" % name)
dirty = os.environ.get("FAKE_SANITIZER_DIRTY", "") == "%s:%s" % (name, tool)
if tool == "racecheck":
    if "volatile" in argv:
        print("========= Warning: Race reported between Read access at 0x1a0 in reduce_kernel_6.cuh:38\n"
              "=========     and Write access at 0x1c0 in reduce_kernel_6.cuh:38 [1,984 hazards]")
        print("========= RACECHECK SUMMARY: 5 hazards displayed (0 errors, 5 warnings)")
        sys.exit(0)
    n = 2 if dirty else 0
    print("========= RACECHECK SUMMARY: %d hazards displayed (%d errors, 0 warnings)" % (n, n))
    sys.exit(86 if dirty else 0)
print("========= ERROR SUMMARY: %d errors" % (3 if dirty else 0))
sys.exit(86 if dirty else 0)
