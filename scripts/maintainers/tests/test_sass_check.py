#!/usr/bin/env python3
"""Tests of scripts/maintainers/sass_check.py, the SASS claims checker (CTest: cpu.sass_checker, labels cpu;sass).

1. Its parsing, on fixed text: cuobjdump's and nvdisasm's listings, ptxas -v output, the key rules
   (BAR.SYNC counts BAR.SYNC.DEFER_BLOCKING, LDS does not count LDSM, @REDG counts predicated ones).
2. A deliberately wrong claim (scripts/maintainers/tests/sass_wrong_claim.json: stage 4 with 8 barriers instead
   of 9) must be reported FAILED, with exit code 1: a check that cannot fail checks nothing.

Part 2 needs nvcc and a disassembler; without a disassembler the test exits 77 (skipped) after part 1.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import profiler  # noqa: E402
import sass_check  # noqa: E402

CUOBJDUMP = """
\t\tFunction : _Z1kPf
\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;          /* 0x0000000000007b1d */
        /*0020*/              @!P1 LDS R4, [R3] ;                          /* 0x0000000003049984 */
        /*0030*/                   LDSM.16.M88.4 R8, [R2] ;               /* 0x000000000208783b */
        /*0040*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7 ;
        /*0050*/                   EXIT ;
        /*0060*/                   BRA 0x60;
        /*0070*/                   NOP;
"""
NVDISASM = """
.text._Z1gPf:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;
        /*0020*/               @PT BRA.DIV UR4, `(.L_x_1) ;
"""
PTXAS = """ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Function properties for _Z1kPf
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem
"""


def check(cond, what):
    print(("ok:     " if cond else "FAILED: ") + what)
    return cond


def parsing_tests():
    ok = True
    funcs = profiler.parse_sass(CUOBJDUMP + NVDISASM)
    ok &= check(sorted(funcs) == ["_Z1gPf", "_Z1kPf"], "both listings' functions found: %s" % sorted(funcs))
    res = profiler.parse_ptxas(PTXAS)
    ok &= check(res == {"_Z1kPf": {"stack_bytes": 8, "spill_bytes": 8, "registers": 40}},
                "ptxas -v: registers, stack and spills: %s" % res)
    k = profiler.Kernel("k", "_Z1kPf", funcs["_Z1kPf"], res["_Z1kPf"])
    g = profiler.Kernel("g", "_Z1gPf", funcs["_Z1gPf"], {})
    expected = {"instructions": 7, "BAR.SYNC": 1, "BAR": 1, "LDS": 1, "LDSM": 1, "REDG": 1, "@REDG": 1,
                "@LDS": 1, "BRA": 1, "registers": 40, "spill_bytes": 8}
    for key, want in expected.items():
        ok &= check(k.count(key) == want, "k: %s = %s (want %d)" % (key, k.count(key), want))
    ok &= check(g.count("@REDG") == 0 and g.count("REDG") == 1, "g: an unpredicated REDG is not @REDG")
    ok &= check(g.count("@BRA") == 0 and g.count("BRA") == 1, "g: @PT is no guard; BRA counts BRA.DIV")
    ok &= check(sass_check.expectation_holds([1, 3], 2) and not sass_check.expectation_holds([1, 3], 4)
                and not sass_check.expectation_holds(5, None), "ranges and missing counts")
    return ok


def wrong_claim_test():
    """0 when the checker rejects the wrong claim, 1 when it does not, 77 without a disassembler."""
    nvcc = profiler.find_nvcc()
    tool = profiler.find_disassembler(nvcc=nvcc)
    if not nvcc or not tool:
        print("SKIPPED: the wrong-claim run needs nvcc and nvdisasm or cuobjdump (nvcc: %s, tool: %s)"
              % (nvcc, tool))
        return profiler.EXIT_SKIP
    with tempfile.TemporaryDirectory() as work:
        cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "sass_check.py"),
               os.path.join(HERE, "sass_wrong_claim.json"), "--work-dir", work, "--nvcc", nvcc]
        r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout + r.stderr)
    ok = check(r.returncode == 1, "the checker exits 1 on the wrong claim (got %d)" % r.returncode)
    ok &= check("FAILED: 1 of 1 claims: stage4_barriers_deliberately_wrong" in r.stdout,
                "the checker names the wrong claim FAILED")
    ok &= check(re.search(r"BAR\.SYNC\s+8\s+9\s+FAIL", r.stdout) is not None,
                "its row shows expected 8, found 9, FAIL")
    return 0 if ok else 1


def main():
    if not parsing_tests():
        return 1
    return wrong_claim_test()


if __name__ == "__main__":
    sys.exit(main())
