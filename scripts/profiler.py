"""The Python that the profiler tools share: compiling, disassembling and counting the SASS of a
kernel, and running Nsight Compute and reading its reports. A module, not a program.

Imported by scripts/compare_stages.py (the reader's tool) and by the maintainers' tools in
scripts/maintainers/ (check_profile_claims.py, step_causes.py, sass_check.py, run_sanitizers.py).

SASS: find_nvcc() and find_disassembler() find the tools (--tool, $TUTORIAL_SASS_TOOLS, PATH, the
folder of nvcc, /usr/local/cuda/bin, then .whl/cuda-tools/nvidia/cu*/bin at the repository's root,
where scripts/tutorial.sh installs PyPI's nvidia-cuda-nvdisasm); build_unit() compiles one source
for one architecture with ptxas -v and returns its kernels, each a Kernel whose count(key) follows
the counting rules in scripts/maintainers/sass_check.py.

Nsight Compute: METRICS is the counter list; profile() runs one stage program under ncu
(`--profile-from-start off`, one launch), read_report() reads a report back, derived() computes the
rows a reader compares; fmt(), text_table() and markdown_table() print them.

Exit codes the tools share: EXIT_SKIP (77: no tool, or no GPU), EXIT_USAGE (2).

Python standard library only.
"""
import collections
import csv
import glob
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

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


# Keys shown by --kernels and by compare_stages.py, in this order.
SUMMARY_KEYS = ["instructions", "LDG", "LDG.E.128", "LDS", "STS", "BAR.SYNC", "SHFL", "BRA", "REDUX",
                "REDG", "ATOMG", "ATOMS", "registers", "spill_bytes"]


def summary(kernel, keys=SUMMARY_KEYS):
    """{key: count} of one kernel for the keys given."""
    return {key: kernel.count(key) for key in keys}


# --------------------------------------------------------------------------------------------
# Nsight Compute
# --------------------------------------------------------------------------------------------

# The counters collected, with what each tells a reader. Names are those of Nsight Compute 2025.x
# on sm_90; a name this ncu does not know is dropped with a warning (see collect()), never fatal.
METRICS = [
    ("gpu__time_duration.sum", "kernel duration (ns)"),
    ("launch__grid_size", "blocks in the grid"),
    ("launch__block_size", "threads per block"),
    ("launch__registers_per_thread", "registers per thread"),
    ("smsp__inst_executed.sum", "warp instructions executed"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared-memory load instructions (warp level)"),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared-memory store instructions (warp level)"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "bank conflicts of shared loads"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "bank conflicts of shared stores"),
    # The same, counted per SASS instruction (instrumented): extra wavefronts an instruction's own
    # addresses cost. Collected beside the L1TEX hardware counters above, whose counts the tables use.
    ("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "bank conflicts of shared loads, per SASS instruction"),
    ("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "bank conflicts of shared stores, per SASS instruction"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared-load wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared-store wavefronts"),
    ("smsp__sass_branch_targets_threads_divergent.sum", "divergent branch targets"),
    ("smsp__thread_inst_executed_per_inst_executed.ratio", "active threads per warp instruction"),
    ("smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
     "predicated-on threads per warp instruction"),
    ("sass__inst_executed_per_opcode", "warp instructions per SASS opcode (BAR = barriers)"),
    ("smsp__sass_inst_executed_op_shared_atom.sum", "shared-memory atomic instructions (warp level)"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared-atomic wavefronts"),
    ("smsp__sass_inst_executed_op_global_atom.sum", "global atomic instructions with a return value (warp level)"),
    ("smsp__sass_inst_executed_op_global_red.sum", "global reductions: atomics without a return value (warp level)"),
    ("smsp__sass_inst_executed_op_global_ld.sum", "global load instructions (warp level)"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", "bank conflicts of shared atomics"),
    # Global atomics where they are carried out, in the L2: requests for reductions (RED, no return
    # value) and atomics (ATOM), summed over the L2 slices and in the busiest slice (.max over the
    # slices). Every atomic on one address lands in one slice: there the busiest slice takes them all.
    ("lts__t_requests_op_red.sum", "L2 requests of global reductions, all slices"),
    ("lts__t_requests_op_red.max", "L2 requests of global reductions, busiest slice"),
    ("lts__t_requests_op_atom.sum", "L2 requests of global atomics, all slices"),
    ("lts__t_requests_op_atom.max", "L2 requests of global atomics, busiest slice"),
    # The requests as the SMs send them (one per lane and address), before the L2 counts half of them
    # again as they cross to the other L2 partition (lts__t_requests_srcunit_ltcfabric on an H100).
    ("lts__t_requests_srcunit_tex_op_red.sum", "L2 requests of global reductions from the SMs"),
    ("lts__t_requests_srcunit_tex_op_atom.sum", "L2 requests of global atomics from the SMs"),
    ("lts__t_sector_hit_rate.pct", "L2 hit rate, % of sectors"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput, % of peak"),
    ("dram__bytes_read.sum", "DRAM bytes read"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy, %"),
    (r"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio",
     "warps stalled per issued instruction, by reason"),
]
METRIC_NAMES = [m for m, _ in METRICS]

STALL_RE = re.compile(r"^smsp__average_warps_issue_stalled_(.+)_per_issue_active\.ratio$")

# Rows of the comparison table: (key of derived(), label, format, which way is better).
ROWS = [
    ("time_us", "kernel time (us)", "{:.2f}", "lower"),
    ("inst", "warp instructions executed", "{:,.0f}", "lower"),
    ("shared_ld", "shared load instructions", "{:,.0f}", "lower"),
    ("shared_st", "shared store instructions", "{:,.0f}", "lower"),
    ("conflicts_ld", "bank conflicts (shared loads)", "{:,.0f}", "lower"),
    ("conflicts_st", "bank conflicts (shared stores)", "{:,.0f}", "lower"),
    ("conflicts_sass", "bank conflicts, per SASS instruction (ld+st)", "{:,.0f}", "lower"),
    ("divergent", "divergent branch targets", "{:,.0f}", "lower"),
    ("threads_per_inst", "active threads / warp instruction", "{:.2f}", "higher"),
    ("pred_on_per_inst", "predicated-on threads / warp inst.", "{:.2f}", "higher"),
    ("barriers", "barrier (BAR) warp instructions", "{:,.0f}", "lower"),
    ("barriers_per_block", "barriers per block", "{:.2f}", "lower"),
    ("shared_atom", "shared atomic instructions", "{:,.0f}", "lower"),
    ("shared_atom_wavefronts", "shared-atomic wavefronts", "{:,.0f}", "lower"),
    ("global_atomics", "global atomic instructions (ATOM + RED)", "{:,.0f}", "lower"),
    ("global_ld", "global load instructions", "{:,.0f}", "lower"),
    ("conflicts_atom", "bank conflicts (shared atomics)", "{:,.0f}", "lower"),
    ("l2_atomic_requests", "L2 atomic requests (RED + ATOM)", "{:,.0f}", "lower"),
    ("l2_atomic_busiest_slice_pct", "busiest L2 slice's count, % of the SMs' atomic requests", "{:.1f}", "lower"),
    ("l2_hit_pct", "L2 hit rate (% of sectors)", "{:.1f}", "higher"),
    ("dram_pct", "DRAM throughput (% of peak)", "{:.1f}", "higher"),
    ("occupancy_pct", "achieved occupancy (%)", "{:.1f}", "higher"),
]



class ProfileError(RuntimeError):
    """ncu or the profiled program failed; the message says what to do."""


# --------------------------------------------------------------------------------------------
# Parsing ncu's CSV
# --------------------------------------------------------------------------------------------

_NUMBER_RE = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d*)?([eE][+-]?\d+)?$")


def parse_number(text):
    """A float from one ncu CSV cell ("1,234,567", "12.5", "3.2e+05"), None for "n/a" or ""."""
    if text is None:
        return None
    s = text.strip().strip('"').strip()
    if s == "" or s.lower() in ("n/a", "nan", "-"):
        return None
    if _NUMBER_RE.match(s):
        return float(s.replace(",", ""))
    try:
        return float(s)
    except ValueError:
        return None


def parse_instances(text):
    """An instanced metric printed with --print-metric-instances details:
    "TOTAL (NAME: VALUE; NAME: VALUE; ...)" -> (total, {name: value}). A plain number gives
    (value, {}). Thousands separators are accepted inside the numbers."""
    if text is None:
        return None, {}
    s = text.strip()
    m = re.match(r"^([^()]*?)\s*\((.*)\)\s*$", s, re.S)
    if not m:
        return parse_number(s), {}
    total = parse_number(m.group(1))
    parts = {}
    for item in re.split(r";\s*", m.group(2)):
        if not item.strip() or ":" not in item:
            continue
        name, value = item.rsplit(":", 1)
        v = parse_number(value)
        if v is not None:
            parts[name.strip()] = parts.get(name.strip(), 0.0) + v
    if total is None and parts:
        total = sum(parts.values())
    return total, parts


def parse_raw_csv(text):
    """Rows of `ncu --csv --page raw` output as a list of {column: cell} dicts, one per profiled
    kernel. Lines before the header (==PROF== messages, program output) and the units row that
    follows the header are skipped."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"') or l.startswith("ID,")), None)
    if start is None:
        start = next((i for i, l in enumerate(lines) if '"Kernel Name"' in l), None)
    if start is None:
        return []
    reader = csv.reader(io.StringIO("\n".join(lines[start:])))
    rows = list(reader)
    if not rows:
        return []
    header = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        rec = dict(zip(header, r))
        # The units row has an empty ID and kernel name (and units such as "inst", "nsecond").
        key = "ID" if "ID" in rec else "Kernel Name"
        if not rec.get(key, "").strip() or (key == "ID" and parse_number(rec["ID"]) is None):
            continue
        out.append(rec)
    return out


def metrics_of_kernel(rec):
    """{metric name: value} of one kernel's row; instanced metrics become (total, {instance: v})."""
    out = {}
    for col, cell in rec.items():
        if "__" not in col:  # ID, Kernel Name, Block Size ... are not metrics
            continue
        if "(" in cell and ":" in cell:
            out[col] = parse_instances(cell)
        else:
            out[col] = parse_number(cell)
    return out


def aggregate(kernels):
    """One {metric: value} for several profiled kernels (--launch-count > 1): counters (.sum,
    instanced) add up; ratios and percentages are averaged, weighted by kernel duration."""
    if len(kernels) == 1:
        return dict(kernels[0])
    weights = [(k.get("gpu__time_duration.sum") or 1.0) for k in kernels]
    total_w = sum(weights) or 1.0
    out = {}
    names = {n for k in kernels for n in k}
    for n in names:
        vals = [k.get(n) for k in kernels]
        if any(isinstance(v, tuple) for v in vals):
            tot, parts = 0.0, {}
            for v in vals:
                if isinstance(v, tuple):
                    tot += v[0] or 0.0
                    for p, x in v[1].items():
                        parts[p] = parts.get(p, 0.0) + x
            out[n] = (tot, parts)
        elif n.endswith(".sum") or n == "launch__grid_size":
            out[n] = sum(v for v in vals if v is not None) if any(v is not None for v in vals) else None
        else:
            pairs = [(v, w) for v, w in zip(vals, weights) if v is not None]
            out[n] = sum(v * w for v, w in pairs) / sum(w for _, w in pairs) if pairs else None
    return out


def opcode_count(value, opcode):
    """Warp instructions whose SASS opcode is `opcode` (BAR, BAR.SYNC..., any modifiers) in the
    instanced sass__inst_executed_per_opcode value."""
    if not isinstance(value, tuple):
        return None
    return sum(v for name, v in value[1].items() if name.split(".")[0].strip().upper() == opcode)


def derived(m):
    """The quantities the chapter talks about, from one kernel's (or an aggregate's) metrics."""
    def g(name):
        v = m.get(name)
        return v[0] if isinstance(v, tuple) else v

    d = {}
    t = g("gpu__time_duration.sum")
    d["time_us"] = t / 1000.0 if t is not None else None
    d["inst"] = g("smsp__inst_executed.sum")
    d["shared_ld"] = g("smsp__sass_inst_executed_op_shared_ld.sum")
    d["shared_st"] = g("smsp__sass_inst_executed_op_shared_st.sum")
    d["conflicts_ld"] = g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    d["conflicts_st"] = g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    if d["shared_ld"] is not None and d["shared_st"] is not None:
        d["shared_inst"] = d["shared_ld"] + d["shared_st"]
    else:
        d["shared_inst"] = None
    if d["conflicts_ld"] is not None or d["conflicts_st"] is not None:
        d["conflicts"] = (d["conflicts_ld"] or 0.0) + (d["conflicts_st"] or 0.0)
    else:
        d["conflicts"] = None
    sass_ld = g("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    sass_st = g("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    d["conflicts_sass"] = None if sass_ld is None and sass_st is None else (sass_ld or 0.0) + (sass_st or 0.0)
    d["wavefronts_ld"] = g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
    d["divergent"] = g("smsp__sass_branch_targets_threads_divergent.sum")
    d["threads_per_inst"] = g("smsp__thread_inst_executed_per_inst_executed.ratio")
    d["pred_on_per_inst"] = g("smsp__thread_inst_executed_pred_on_per_inst_executed.ratio")
    d["barriers"] = opcode_count(m.get("sass__inst_executed_per_opcode"), "BAR")
    grid, block = g("launch__grid_size"), g("launch__block_size")
    if d["barriers"] is not None and grid and block:
        warps_per_block = max(1.0, -(-block // 32))
        d["barriers_per_block"] = d["barriers"] / (grid * warps_per_block)
    else:
        d["barriers_per_block"] = None
    d["grid"], d["block"] = grid, block
    d["shared_atom"] = g("smsp__sass_inst_executed_op_shared_atom.sum")
    d["shared_atom_wavefronts"] = g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum")
    atom, red = g("smsp__sass_inst_executed_op_global_atom.sum"), g("smsp__sass_inst_executed_op_global_red.sum")
    d["global_atomics"] = None if atom is None and red is None else (atom or 0.0) + (red or 0.0)
    d["global_ld"] = g("smsp__sass_inst_executed_op_global_ld.sum")
    d["conflicts_atom"] = g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum")
    red_all, red_max = g("lts__t_requests_op_red.sum"), g("lts__t_requests_op_red.max")
    atom_all, atom_max = g("lts__t_requests_op_atom.sum"), g("lts__t_requests_op_atom.max")
    l2_all = None if red_all is None and atom_all is None else (red_all or 0.0) + (atom_all or 0.0)
    d["l2_atomic_requests"] = l2_all
    # The busiest slice's count of atomic requests as a share (%) of the requests the SMs sent (the L2's
    # own count where this ncu has no per-source counter), None when there are almost none. On an
    # H100 the L2's total was 1.5 times what the SMs sent (docs/results/H100/profile/
    # l2_atomic_requests.txt: the difference arrives over the fabric between its two partitions), and
    # one address's home slice counted two thirds of that total: every request the SMs sent. With
    # both kinds of atomic the two busiest slices may differ: the share is then an upper bound; it is
    # capped at 100.
    tex_red, tex_atom = g("lts__t_requests_srcunit_tex_op_red.sum"), g("lts__t_requests_srcunit_tex_op_atom.sum")
    sent = None if tex_red is None and tex_atom is None else (tex_red or 0.0) + (tex_atom or 0.0)
    base = sent if sent else l2_all
    if base and base >= 1000 and (red_max is not None or atom_max is not None):
        d["l2_atomic_busiest_slice_pct"] = min(100.0, 100.0 * ((red_max or 0.0) + (atom_max or 0.0)) / base)
    else:
        d["l2_atomic_busiest_slice_pct"] = None
    d["l2_hit_pct"] = g("lts__t_sector_hit_rate.pct")
    d["dram_pct"] = g("dram__throughput.avg.pct_of_peak_sustained_elapsed")
    d["dram_bytes"] = g("dram__bytes_read.sum")
    d["occupancy_pct"] = g("sm__warps_active.avg.pct_of_peak_sustained_active")
    stalls = {}
    for name, v in m.items():
        s = STALL_RE.match(name)
        if s and "not_issued" not in s.group(1):
            val = v[0] if isinstance(v, tuple) else v
            if val is not None:
                stalls[s.group(1)] = val
    d["stalls"] = stalls
    return d


def top_stalls(stalls, k=3):
    """The k largest stall reasons as [(reason, warps per issued instruction)]."""
    return sorted(stalls.items(), key=lambda kv: -kv[1])[:k]


# --------------------------------------------------------------------------------------------
# Running ncu
# --------------------------------------------------------------------------------------------

def find_ncu(explicit=None):
    """Path of ncu: --ncu, $NCU, PATH, then the usual CUDA install folders; None if absent."""
    for cand in (explicit, os.environ.get("NCU")):
        if cand:
            return shutil.which(cand) or (cand if os.access(cand, os.X_OK) else None)
    found = shutil.which("ncu")
    if found:
        return found
    for cand in ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"):
        if os.access(cand, os.X_OK):
            return cand
    return None


def gpu_present():
    """(True, names) when `nvidia-smi -L` lists at least one GPU, else (False, reason)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False, "nvidia-smi not found"
    try:
        r = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, "nvidia-smi -L failed: %s" % e
    gpus = [l for l in r.stdout.splitlines() if l.startswith("GPU ")]
    if r.returncode != 0 or not gpus:
        return False, "nvidia-smi -L lists no GPU (%s)" % (r.stderr.strip() or r.stdout.strip() or "rc %d" % r.returncode)
    return True, "; ".join(gpus)


def ncu_and_gpu(explicit_ncu, need_gpu):
    """(ncu path, None) when ncu is found and, if `need_gpu`, a GPU is listed (its names printed);
    else (None, a "SKIPPED: ..." line for the caller to print before it exits EXIT_SKIP)."""
    ncu = find_ncu(explicit_ncu)
    if not ncu:
        return None, "SKIPPED: ncu (Nsight Compute CLI) not found on PATH (or $NCU / --ncu)"
    if need_gpu:
        ok, why = gpu_present()
        if not ok:
            return None, "SKIPPED: no NVIDIA GPU for ncu: " + why
        print("GPU: " + why)
    return ncu, None


_UNKNOWN = set()  # metric names this ncu rejected earlier in this process
_UNKNOWN_METRIC_RE = re.compile(r"Failed to find metric\s+(\S+)")


def _unknown_metrics(output, requested):
    """Requested metric names that ncu reported it does not know."""
    bad = set()
    for m in _UNKNOWN_METRIC_RE.finditer(output):
        said = m.group(1).strip().strip('"').rstrip(".")
        for req in requested:
            base = req.split(".")[0]
            if said == req or said.startswith("regex:") and (req in said or base in said) \
                    or said == base or req.startswith("regex:") and said == req:
                bad.add(req)
    return bad


def _tail(text, n=25):
    return "\n".join(text.strip().splitlines()[-n:])


def profile(program, report, n="2^24", block=256, dtype="float", extra_args=(), ncu=None,
            metrics=None, launch_count=1, sections=(), timeout=900, log=print):
    """Profiles the launch inside `program --profile` into `report` (.ncu-rep added by ncu).
    Returns (report path, metrics that this ncu did not know and that were dropped)."""
    ncu = ncu or find_ncu()
    if not ncu:
        raise ProfileError("ncu (Nsight Compute CLI) not found: put it on PATH or pass --ncu")
    metrics = [m for m in (metrics if metrics is not None else METRIC_NAMES) if m not in _UNKNOWN]
    dropped = []
    base = report[:-len(".ncu-rep")] if report.endswith(".ncu-rep") else report
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
    while True:
        cmd = [ncu, "--profile-from-start", "off", "--clock-control", "none",
               "--launch-count", str(launch_count), "--force-overwrite", "-o", base]
        for s in sections:
            cmd += ["--section", s]
        if metrics:
            cmd += ["--metrics", ",".join(metrics)]
        cmd += [program, "--profile", "--n", str(n), "--block", str(block), "--type", dtype]
        cmd += list(extra_args)
        shown = [c if not (c.startswith("gpu__") or c.startswith("regex:") or c.count(",") > 3)
                 else "<%d metrics: compare_stages.py --print-metrics>" % len(metrics) for c in cmd]
        log("$ " + " ".join(shlex.quote(c) if not c.startswith("<") else c for c in shown))
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise ProfileError("ncu did not finish within %d s: %s" % (timeout, " ".join(cmd)))
        out = r.stdout + "\n" + r.stderr
        bad = _unknown_metrics(out, metrics)
        if bad:
            for b in sorted(bad):
                log("WARNING: this ncu does not know metric %s: dropped (its rows show n/a)" % b)
            dropped += sorted(bad)
            _UNKNOWN.update(bad)  # not asked again in this process
            metrics = [m for m in metrics if m not in bad]
            continue
        if r.returncode != 0 or not os.path.exists(base + ".ncu-rep"):
            hint = ""
            if "ERR_NVGPUCTRPERM" in out:
                hint = ("\nhint: this user may not read GPU performance counters; run as root or "
                        "allow it (NVreg_RestrictProfilingToAdminUsers=0)")
            elif "No kernels were profiled" in out:
                hint = ("\nhint: no kernel ran inside the --profile range: is this a stage program "
                        "with --profile, and do its other flags pass validation?")
            raise ProfileError("ncu failed (exit %d) profiling %s%s\n%s"
                               % (r.returncode, program, hint, _tail(out)))
        if "No kernels were profiled" in out:
            raise ProfileError("ncu profiled no kernel of %s: is --profile supported?\n%s" % (program, _tail(out)))
        return base + ".ncu-rep", dropped


def read_report(report, ncu=None, timeout=300):
    """{metric: value} of the kernel(s) in `report` (aggregated when there are several)."""
    ncu = ncu or find_ncu()
    if not ncu:
        raise ProfileError("ncu (Nsight Compute CLI) not found: it is needed to read %s" % report)
    if not os.path.exists(report):
        raise ProfileError("no such report: %s" % report)
    cmd = [ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base",
           "--print-metric-instances", "details"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise ProfileError("ncu --import failed (exit %d) on %s\n%s" % (r.returncode, report, _tail(r.stdout + r.stderr)))
    kernels = [metrics_of_kernel(rec) for rec in parse_raw_csv(r.stdout)]
    if not kernels:
        raise ProfileError("%s holds no profiled kernel\n%s" % (report, _tail(r.stdout + r.stderr)))
    return aggregate(kernels)


def build_dirs(explicit=None):
    """The build folders a bare stage name is looked for in, in order: `explicit` (--build-dir),
    else ./build, then build/ and build-*/ at the repository's root."""
    if explicit:
        return [explicit]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = ["build", os.path.join(root, "build")]
    dirs += sorted(os.path.join(root, d) for d in os.listdir(root)
                   if d.startswith("build-") and os.path.isdir(os.path.join(root, d)))
    seen, out = set(), []
    for d in dirs:
        key = os.path.realpath(d)
        if os.path.isdir(d) and key not in seen:
            seen.add(key)
            out.append(d)
    return out


def find_program(name, dirs):
    """Path of the stage program `name`: itself when it is a path to an executable (or contains a
    '/'), else the first executable file called `name` in a chapter folder (ch<NN>_*) of the first
    build folder that has one, searched recursively (ch08's reduce/, scan/, histogram/ included).
    None when there is none."""
    if os.sep in name or "/" in name or (os.path.isfile(name) and os.access(name, os.X_OK)):
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    for d in dirs:
        hits = []
        for top in sorted(os.listdir(d)):
            if not re.match(r"^ch\d\d_", top) or not os.path.isdir(os.path.join(d, top)):
                continue
            for here, subdirs, files in os.walk(os.path.join(d, top)):
                subdirs[:] = sorted(s for s in subdirs if s != "CMakeFiles")
                if name in files:
                    p = os.path.join(here, name)
                    if os.access(p, os.X_OK):
                        hits.append(p)
        if hits:
            return hits[0]
    return None


def no_program_message(name, dirs):
    """Why `name` was not found, and what to do."""
    if "/" in name or os.sep in name:
        return "no stage program at %s (is it built? cmake --build --preset release)" % name
    where = ", ".join(dirs) if dirs else "no build folder (looked for ./build and build*/ at the root)"
    return ("no stage program called %s under %s: is it built (cmake --build --preset release)? "
            "Give a path, or --build-dir" % (name, where))


def measure(target, out_dir, name=None, **kw):
    """derived() of a stage: `target` is a .ncu-rep to read or a program to profile first."""
    ncu = kw.get("ncu")
    if target.endswith(".ncu-rep"):
        return derived(read_report(target, ncu=ncu)), target
    if not (os.path.isfile(target) and os.access(target, os.X_OK)):
        raise ProfileError("%s is neither a stage program nor an .ncu-rep report" % target)
    name = name or os.path.basename(target)
    rep, _ = profile(target, os.path.join(out_dir, name), **kw)
    return derived(read_report(rep, ncu=ncu)), rep


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

def fmt(v, f):
    return "n/a" if v is None else f.format(v)


def change_pct(base, cand):
    """Relative change in %, or None when it is not defined."""
    if base is None or cand is None:
        return None
    if base == 0:
        return 0.0 if cand == 0 else float("inf")
    return 100.0 * (cand - base) / abs(base)


def fmt_change(c):
    if c is None:
        return "n/a"
    if c == float("inf"):
        return "new"
    return "%+.1f%%" % c


def comparison_rows(base, cand):
    """[[label, baseline, candidate, change]] for the table, stall reasons last."""
    rows = []
    for key, label, f, _ in ROWS:
        b, c = base.get(key), cand.get(key)
        if b is None and c is None:
            continue
        rows.append([label, fmt(b, f), fmt(c, f), fmt_change(change_pct(b, c))])
    reasons = [r for r, _ in top_stalls(base["stalls"])]
    reasons += [r for r, _ in top_stalls(cand["stalls"]) if r not in reasons]
    for r in reasons:
        b, c = base["stalls"].get(r), cand["stalls"].get(r)
        rows.append(["stall: " + r + " (warps/issue)", fmt(b, "{:.2f}"), fmt(c, "{:.2f}"),
                     fmt_change(change_pct(b, c))])
    return rows


def text_table(header, rows, left=1):
    """Aligned plain-text table; the first `left` columns are left-aligned, the others right."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda r: "  ".join(str(x).ljust(w) if i < left else str(x).rjust(w)
                               for i, (x, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def markdown_table(header, rows, left=1):
    """Markdown table; the first `left` columns are left-aligned, the others right."""
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(["---"] * left + ["---:"] * (len(header) - left)) + "|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out) + "\n"
