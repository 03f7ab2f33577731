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
  scripts/sass_check.py ch07_reduction_opt/tests/sass_claims.json
  scripts/sass_check.py --kernels 'reduce_kernel_[45]<float, 256, \\(ch07::Finish\\)1>' \\
      ch07_reduction_opt/tests/sass_claims.json     # every count of the kernels that match

The disassembler is looked for in this order: --tool, $TUTORIAL_SASS_TOOLS (a folder), PATH, the
folder of nvcc, /usr/local/cuda/bin, then .whl/cuda-tools/nvidia/cu*/bin at the repository's root
(where scripts/tutorial.sh installs PyPI's nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump).

Exit codes: 0 every claim holds; 1 a claim failed, or a kernel it names is missing; 2 bad command
line or claims file, or nvcc failed; 77 skipped: neither nvdisasm nor cuobjdump found.

Python standard library only. Also imported by compare_stages.py.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

EXIT_SKIP = 77
EXIT_USAGE = 2
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL_NAMES = ("nvdisasm", "cuobjdump")


class SassError(RuntimeError):
    """nvcc, the disassembler or the claims file failed; the message says what to do."""


# --------------------------------------------------------------------------------------------
# Tools
# --------------------------------------------------------------------------------------------

def tool_version(path):
    """The release line of a CUDA tool's --version ("release 13.5, V13.5.37"), or "unknown"."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    m = re.search(r"release \S+ V[\d.]+", out)
    return m.group(0) if m else "unknown"


def find_disassembler(explicit=None, nvcc=None):
    """Path of nvdisasm or cuobjdump (nvdisasm first in each place), looked for in the order of the
    module's docstring; None when there is neither. `explicit` is a path given by the user."""
    if explicit:
        return explicit if os.path.isfile(explicit) and os.access(explicit, os.X_OK) else None
    folders = []
    if os.environ.get("TUTORIAL_SASS_TOOLS"):
        folders.append(os.environ["TUTORIAL_SASS_TOOLS"])
    folders.append(None)  # PATH
    if nvcc:
        folders.append(os.path.dirname(os.path.realpath(shutil.which(nvcc) or nvcc)))
    folders.append("/usr/local/cuda/bin")
    folders += sorted(glob.glob(os.path.join(ROOT, ".whl", "cuda-tools", "nvidia", "cu*", "bin")),
                      reverse=True)
    for folder in folders:
        for name in TOOL_NAMES:
            path = shutil.which(name) if folder is None else os.path.join(folder, name)
            if path and os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return None


def find_nvcc(explicit=None):
    """nvcc: `explicit`, $CUDACXX, PATH, /usr/local/cuda/bin/nvcc; None when there is none."""
    for cand in (explicit, os.environ.get("CUDACXX"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


# --------------------------------------------------------------------------------------------
# Compiling and disassembling
# --------------------------------------------------------------------------------------------

_PTXAS_FUNC_RE = re.compile(r"Function properties for (\S+)")
_PTXAS_SPILL_RE = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_ENTRY_RE = re.compile(r"Compiling entry function '([^']+)'")
_PTXAS_REGS_RE = re.compile(r"Used (\d+) registers")


def parse_ptxas(text):
    """{mangled name: {"registers", "stack_bytes", "spill_bytes"}} from ptxas -v output."""
    out = collections.defaultdict(dict)
    current = None
    for line in text.splitlines():
        m = _PTXAS_ENTRY_RE.search(line) or _PTXAS_FUNC_RE.search(line)
        if m:
            current = m.group(1)
            continue
        m = _PTXAS_SPILL_RE.search(line)
        if m and current:
            out[current]["stack_bytes"] = int(m.group(1))
            out[current]["spill_bytes"] = int(m.group(2)) + int(m.group(3))
            continue
        m = _PTXAS_REGS_RE.search(line)
        if m and current:
            out[current]["registers"] = int(m.group(1))
    return dict(out)


def compile_cubin(source, cubin, arch, flags, includes, nvcc, ccbin=None):
    """Compiles `source` device-only for `arch` (e.g. "sm_90") into `cubin` with ptxas -v, whose
    output is kept beside it (<cubin>.ptxas.txt). Returns parse_ptxas() of that output."""
    os.makedirs(os.path.dirname(os.path.abspath(cubin)), exist_ok=True)
    cmd = [nvcc] + (["-ccbin", ccbin] if ccbin else []) + list(flags)
    cmd += ["-arch=" + arch, "--cubin", "-Xptxas", "-v"]
    cmd += ["-I" + (d if os.path.isabs(d) else os.path.join(ROOT, d)) for d in includes]
    cmd += ["-x", "cu", source, "-o", cubin]
    r = subprocess.run(cmd, capture_output=True, text=True)
    with open(cubin + ".ptxas.txt", "w") as f:
        f.write(r.stdout + r.stderr)
    if r.returncode != 0:
        raise SassError("nvcc failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                           "\n".join(r.stderr.splitlines()[-20:])))
    return parse_ptxas(r.stdout + r.stderr)


_INST_RE = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")
_CUOBJDUMP_FUNC_RE = re.compile(r"^\s*Function : (\S+)")
_NVDISASM_FUNC_RE = re.compile(r"^\.text\.(\S+):\s*$")


def parse_sass(text):
    """{mangled kernel name: [(opcode, predicated), ...]} from `cuobjdump -sass` or `nvdisasm -c`
    output; predicated is True for an instruction guarded by a predicate (`@P0`, `@!P1`; `@PT`,
    always true, is not a guard)."""
    funcs, current = {}, None
    for line in text.splitlines():
        m = _CUOBJDUMP_FUNC_RE.match(line) or _NVDISASM_FUNC_RE.match(line)
        if m:
            current = m.group(1)
            funcs.setdefault(current, [])
            continue
        m = _INST_RE.match(line)
        if m and current:
            guard = (m.group(1) or "").strip()
            funcs[current].append((m.group(2), guard not in ("", "@PT")))
    return funcs


def disassemble(cubin, tool):
    """parse_sass() of `cubin` disassembled by `tool` (nvdisasm -c or cuobjdump -sass)."""
    kind = os.path.basename(tool)
    cmd = [tool, "-c", cubin] if kind.startswith("nvdisasm") else [tool, "-sass", cubin]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SassError("%s failed (exit %d)\n%s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return parse_sass(r.stdout)


def demangle(names):
    """{mangled: demangled kernel name without `void ` and the parameter list} through c++filt;
    each name itself when c++filt is missing."""
    names = list(names)
    filt = shutil.which("c++filt")
    if not filt or not names:
        return {n: n for n in names}
    out = subprocess.run([filt], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    result = {}
    for mangled, text in zip(names, out):
        text = re.sub(r"^void ", "", text.strip())
        depth, cut = 0, len(text)
        for i, ch in enumerate(text):  # the parameter list: the first "(" outside <...>
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth -= 1
            elif ch == "(" and depth == 0:
                cut = i
                break
        result[mangled] = text[:cut]
    return result


class Kernel:
    """One kernel of a cubin: its demangled name, (opcode, predicated) pairs in order and its ptxas
    resources."""

    def __init__(self, name, mangled, opcodes, resources):
        self.name, self.mangled, self.opcodes, self.resources = name, mangled, opcodes, resources

    def count(self, key):
        """The count of one expectation key (see the module's docstring), None if unknown."""
        if key in ("registers", "spill_bytes", "stack_bytes"):
            return self.resources.get(key)
        if key == "instructions":
            return sum(1 for op, _ in self.opcodes if op != "NOP")
        only_predicated = key.startswith("@")
        key = key.lstrip("@")
        return sum(1 for op, predicated in self.opcodes
                   if (op == key or op.startswith(key + ".")) and (predicated or not only_predicated))

    def opcode_sequence(self):
        """The opcodes in order, NOP left out."""
        return [op for op, _ in self.opcodes if op != "NOP"]


def kernels_of(cubin, tool, resources):
    """{demangled name: Kernel} of every kernel in `cubin`."""
    funcs = disassemble(cubin, tool)
    names = demangle(funcs)
    return {names[m]: Kernel(names[m], m, ops, resources.get(m, {})) for m, ops in funcs.items()}


def build_unit(claims, unit, work_dir, nvcc, tool, ccbin=None, log=print):
    """Compiles one unit of a claims file into work_dir and returns kernels_of() it."""
    source = claims["units"][unit]
    source = source if os.path.isabs(source) else os.path.join(ROOT, source)
    cubin = os.path.join(work_dir, "%s_%s.cubin" % (unit, claims["arch"]))
    log("compiling %s for %s -> %s" % (os.path.relpath(source, ROOT), claims["arch"], cubin))
    resources = compile_cubin(source, cubin, claims["arch"], claims.get("flags", []),
                              claims.get("includes", []), nvcc, ccbin)
    return kernels_of(cubin, tool, resources)


# --------------------------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------------------------

def load_claims(path):
    """The claims file as a dict, checked for the fields every claim needs."""
    try:
        with open(path) as f:
            claims = json.load(f)
    except (OSError, ValueError) as e:
        raise SassError("cannot read claims file %s: %s" % (path, e))
    for key in ("arch", "units", "claims"):
        if key not in claims:
            raise SassError("%s: no %r" % (path, key))
    for c in claims["claims"]:
        missing = [k for k in ("id", "unit", "kernel", "sentence") if k not in c]
        if missing or c["unit"] not in claims["units"] or not (c.get("expect") or c.get("same_opcodes_as")):
            raise SassError("%s: claim %s lacks %s, names an unknown unit, or expects nothing"
                            % (path, c.get("id", "?"), ", ".join(missing) or "nothing"))
    return claims


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


# Keys shown by --kernels and by compare_stages.py, in this order.
SUMMARY_KEYS = ["instructions", "LDG", "LDG.E.128", "LDS", "STS", "BAR.SYNC", "SHFL", "BRA", "REDUX",
                "REDG", "ATOMG", "ATOMS", "registers", "spill_bytes"]


def summary(kernel, keys=SUMMARY_KEYS):
    """{key: count} of one kernel for the keys given."""
    return {key: kernel.count(key) for key in keys}


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
