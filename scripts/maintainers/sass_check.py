#!/usr/bin/env python3
"""Checks what the compiler makes of the stages: instruction counts in the SASS, no GPU needed.

A claims file (JSON, e.g. ch07_reduction_opt/tests/sass_claims.json) lists the sentences of the
pages and stage headers that say what nvcc emits (barriers, shared loads and stores, branches,
shuffles, warp-aggregated atomics, 128-bit loads, registers, spills), each with the instruction
counts that back it. This script compiles each source the claims name for the claims' architecture
(nvcc --cubin, the build's optimisation flags, ptxas -v for registers and spills), disassembles the
cubin with nvdisasm or cuobjdump, finds each kernel by its demangled name (c++filt), counts its
opcodes and prints one row per expectation: expected, found, PASS or FAIL.

Counting rules
  - an opcode is the first word of a SASS instruction, predicate left out: `@!P0 LDS R4, [R3]` is LDS;
  - a key matches an opcode equal to it or extending it by `.`: BAR.SYNC counts
    BAR.SYNC.DEFER_BLOCKING, LDG.E.128 counts LDG.E.128.CONSTANT, BRA counts BRA.DIV, LDS does not
    count LDSM;
  - a key with a leading `@` counts only the predicated ones: `@REDG` counts `@P0 REDG ...` (one
    lane of the warp, elected by the predicate, issues it), not an unpredicated REDG;
  - `instructions` counts every instruction except NOP (the alignment padding after the last EXIT);
  - `registers`, `spill_bytes` (spill stores + spill loads) and `stack_bytes` come from ptxas -v.

Claims file
  {"arch": "sm_90", "flags": [...nvcc flags...], "includes": [...folders, relative to the root...],
   "units": {"<unit>": "<source .cu, relative to the root>", ...},
   "claims": [{"id": "...", "chapter": "ch07", "stage": "...", "unit": "<unit>",
               "kernel": "<demangled name with template arguments, no parameter list>",
               "instantiation": "float, block 256, partials finish",
               "expect": {"<key>": <count> or [<min>, <max>], ...},
               "same_opcodes_as": "<another kernel of the unit>" (optional: the two opcode
                                   sequences, NOP left out, must be equal),
               "page": "<file>", "sentence": "<what the page says, backed by these counts>"}]}

Examples
  scripts/maintainers/sass_check.py ch07_reduction_opt/tests/sass_claims.json
  scripts/maintainers/sass_check.py --kernels 'reduce_kernel_[45]<float, 256, \\(ch07::Finish\\)1>' \\
      ch07_reduction_opt/tests/sass_claims.json     # every count of the kernels that match

The disassembler is looked for in this order: --tool, $TUTORIAL_SASS_TOOLS (a folder), PATH, the
folder of nvcc, /usr/local/cuda/bin, then .whl/cuda-tools/nvidia/cu*/bin at the repository's root
(where scripts/tutorial.sh installs PyPI's nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump).

Exit codes: 0 every claim holds; 1 a claim failed, or a kernel it names is missing; 2 bad command
line or claims file, or nvcc failed; 77 skipped: neither nvdisasm nor cuobjdump found.

Python standard library only. Compiling, disassembling and counting live in scripts/profiler.py,
which compare_stages.py shares.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from profiler import (EXIT_SKIP, EXIT_USAGE, ROOT, SUMMARY_KEYS, SassError, build_unit,  # noqa: E402
                      find_disassembler, find_nvcc, load_claims, summary, tool_version)


# --------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------

def expectation_holds(expected, found):
    """True when `found` is `expected` (an int) or inside [min, max]."""
    if found is None:
        return False
    if isinstance(expected, list):
        return expected[0] <= found <= expected[1]
    return found == expected


def fmt_expected(expected):
    return "%d..%d" % tuple(expected) if isinstance(expected, list) else str(expected)


def first_difference(a, b):
    """A short note on where two opcode sequences first differ."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "instruction %d: %s vs %s" % (i, x, y)
    return "lengths %d vs %d" % (len(a), len(b))


def check_claims(claims, kernels_by_unit):
    """One row per expectation: [claim id, kernel, key, expected, found, PASS/FAIL]."""
    rows = []
    for c in claims["claims"]:
        kernels = kernels_by_unit[c["unit"]]
        k = kernels.get(c["kernel"])
        if k is None:
            rows.append([c["id"], c["kernel"], "kernel present", "yes", "missing", "FAIL"])
            continue
        for key, expected in c.get("expect", {}).items():
            found = k.count(key)
            rows.append([c["id"], c["kernel"], key, fmt_expected(expected),
                         "n/a" if found is None else str(found),
                         "PASS" if expectation_holds(expected, found) else "FAIL"])
        other_name = c.get("same_opcodes_as")
        if other_name:
            other = kernels.get(other_name)
            if other is None:
                rows.append([c["id"], other_name, "kernel present", "yes", "missing", "FAIL"])
                continue
            a, b = k.opcode_sequence(), other.opcode_sequence()
            same = a == b
            rows.append([c["id"], c["kernel"], "opcodes = same_opcodes_as", "equal (%d)" % len(b),
                         "equal (%d)" % len(a) if same else first_difference(a, b),
                         "PASS" if same else "FAIL"])
    return rows


def text_table(header, rows):
    """Aligned plain-text table, every column left-aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda r: "  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("claims", nargs="?", default=os.path.join(ROOT, "ch07_reduction_opt", "tests", "sass_claims.json"),
                    help="claims file (JSON; default: chapter 7's, ch07_reduction_opt/tests/sass_claims.json)")
    ap.add_argument("--nvcc", help="nvcc (default: $CUDACXX, PATH, /usr/local/cuda/bin/nvcc)")
    ap.add_argument("--ccbin", help="host compiler for nvcc -ccbin")
    ap.add_argument("--tool", help="nvdisasm or cuobjdump to use (default: looked for, see above)")
    ap.add_argument("--work-dir", default="sass", help="where cubins and ptxas logs go (default ./sass)")
    ap.add_argument("--kernels", metavar="REGEX",
                    help="print the counts of every kernel whose name matches, instead of checking")
    a = ap.parse_args(argv)

    try:
        claims = load_claims(a.claims)
    except SassError as e:
        print("sass_check.py: error: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    nvcc = find_nvcc(a.nvcc)
    if not nvcc:
        print("sass_check.py: error: nvcc not found (put it on PATH or pass --nvcc)", file=sys.stderr)
        return EXIT_USAGE
    tool = find_disassembler(a.tool, nvcc)
    if not tool and os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        print("FAILED: CI=true and neither nvdisasm nor cuobjdump found: scripts/tutorial.sh installs them "
              "into .whl/cuda-tools (or pass --tool)")
        return 1
    if not tool:
        print("SKIPPED: neither nvdisasm nor cuobjdump found (PATH, next to %s, /usr/local/cuda/bin, "
              ".whl/cuda-tools). Install them: scripts/tutorial.sh does (pip install --target "
              ".whl/cuda-tools nvidia-cuda-nvdisasm), or pass --tool" % nvcc)
        return EXIT_SKIP
    print("disassembler: %s (%s)" % (tool, tool_version(tool)))
    print("compiler:     %s (%s)" % (nvcc, tool_version(nvcc)))
    units = sorted({c["unit"] for c in claims["claims"]}) if not a.kernels else sorted(claims["units"])
    try:
        kernels_by_unit = {u: build_unit(claims, u, a.work_dir, nvcc, tool, a.ccbin) for u in units}
    except SassError as e:
        print("sass_check.py: error: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    print()

    if a.kernels:
        pattern = re.compile(a.kernels)
        rows = [[name] + [("n/a" if v is None else str(v)) for v in summary(k).values()]
                for kernels in kernels_by_unit.values() for name, k in sorted(kernels.items())
                if pattern.search(name)]
        print(text_table(["kernel"] + SUMMARY_KEYS, rows))
        return 0 if rows else 1

    rows = check_claims(claims, kernels_by_unit)
    print(text_table(["claim", "kernel", "count", "expected", "found", "verdict"], rows))
    failed = sorted({r[0] for r in rows if r[-1] == "FAIL"})
    print()
    for c in claims["claims"]:
        verdict = "FAILED" if c["id"] in failed else "holds"
        print("%s %s (%s, %s): %s" % (c["id"], verdict, c.get("page", "?"),
                                     c.get("instantiation", ""), c["sentence"]))
    print()
    if failed:
        print("FAILED: %d of %d claims: %s" % (len(failed), len(claims["claims"]), ", ".join(failed)))
        return 1
    print("all %d claims hold (%s, %s)" % (len(claims["claims"]), claims["arch"], os.path.basename(tool)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
