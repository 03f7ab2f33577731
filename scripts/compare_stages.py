#!/usr/bin/env python3
"""Compare the Nsight Compute counters of two stages: a baseline and a candidate.

Each side is either a stage program (it is profiled now) or an existing report (.ncu-rep, read
with `ncu --import`). A stage program is a path or a bare name such as reduce_kernel_3: a name is
looked for under the build folder (--build-dir, else ./build, else build/ and build-*/ at the
repository's root), in every chapter folder and its subfolders. A stage program is run as

    ncu --profile-from-start off --clock-control none --launch-count 1 --metrics <list> \\
        -o <report> <program> --profile --n <n> --block <block> --type <type> <extra args>

so only the one launch inside the program's --profile range is measured, and the report is kept
(open it in the Nsight Compute GUI and use "Add Baseline" for the full picture). The counters are
then read back with `ncu --import <report> --csv --page raw --print-units base
--print-metric-instances details` and printed as a table: baseline, candidate, change %.

Examples
  scripts/compare_stages.py reduce_kernel_3 reduce_kernel_4
  scripts/compare_stages.py build/ch07_reduction_opt/reduce_kernel_3 build/ch07_reduction_opt/reduce_kernel_4
  scripts/compare_stages.py --n 2^26 --candidate-args "--last-warp volatile" \\
      build/ch07_reduction_opt/reduce_kernel_5 build/ch07_reduction_opt/reduce_kernel_6
  scripts/compare_stages.py profiles/reduce_kernel_3.ncu-rep profiles/reduce_kernel_4.ncu-rep
  scripts/compare_stages.py --print-metrics        # the metric list, for ncu --metrics
  scripts/compare_stages.py --which reduce_stage_4 # where that stage program is

A reader's view of one step, no GPU needed (--step): for two stages of chapter 7, the diff of their
stage headers, their SASS instruction counts side by side (compiled for sm_90 and counted by
scripts/sass_check.py; --type, --block and --finish pick the instantiation, float, 256 and partials
by default) and their rows of the committed profiler table (docs/results/H200/profile/
ch07_profile_claims.md, ncu on the H200 at n = 2^24; where that table lacks either stage, as for
stages 9a and 9b, the H100's, docs/results/H100/profile/ch07_profile_claims.md):

  scripts/compare_stages.py --step reduce_kernel_4 reduce_kernel_5
  scripts/compare_stages.py --step --finish atomic --type int reduce_kernel_0 reduce_kernel_1

Exit codes (shared with profile_stage.sh): 0 done; 1 ncu or the program failed; 2 bad command line
or no such program / report; 77 skipped: no ncu, or no NVIDIA GPU to profile on.

Python standard library only. Also imported by check_profile_claims.py; imports sass_check.py.
"""
import argparse
import csv
import difflib
import glob
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_check  # noqa: E402

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

EXIT_SKIP = 77
EXIT_USAGE = 2


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


# --------------------------------------------------------------------------------------------
# A reader's view of one step (--step): source diff, SASS counts, committed counters
# --------------------------------------------------------------------------------------------

ROOT = sass_check.ROOT
STEP_CLAIMS = os.path.join(ROOT, "ch07_reduction_opt", "tests", "sass_claims.json")  # how to compile
# The committed profiler tables, in the order they are tried: the first with both stages' rows is shown.
STEP_PROFILES = [os.path.join(ROOT, "docs", "results", gpu, "profile", "ch07_profile_claims.md") for gpu in ("H200", "H100")]


def stage_header(stage):
    """The stage file of a stage name (reduce_kernel_4 -> ch07_reduction_opt/
    reduce_kernel_4_sequential_addressing.cuh), None when there is none."""
    hits = sorted(glob.glob(os.path.join(ROOT, "ch*", "**", stage + "_*.cuh"), recursive=True))
    return hits[0] if hits else None


def source_diff(base, cand):
    """Unified diff of two files, as text, paths relative to the repository."""
    with open(base) as f:
        a = f.readlines()
    with open(cand) as f:
        b = f.readlines()
    return "".join(difflib.unified_diff(a, b, os.path.relpath(base, ROOT), os.path.relpath(cand, ROOT)))


def stage_kernel(kernels, stage, dtype, block, finish):
    """The kernel of chapter 7's `stage` for this instantiation: type `dtype`, `block` threads where
    the kernel takes the block as a template argument, Finish `finish` where it takes one, the
    __syncwarp tail (LastWarp 1) for stage 6. None when no kernel matches."""
    prefix = "ch07::%s<%s" % (stage, dtype)
    names = [n for n in kernels if n.startswith(prefix + ">") or n.startswith(prefix + ",")]
    wanted = [", %d" % block, "(ch07::Finish)%d" % (1 if finish == "partials" else 0), "(ch07::LastWarp)1"]
    for w in wanted:  # a filter applies when some kernel of the stage has that template argument
        if any(w in n for n in names):
            names = [n for n in names if w in n]
    return kernels[sorted(names)[0]] if names else None


def sass_rows(stages, dtype, block, finish, tool, nvcc, log):
    """[[count, baseline, candidate, change]] of two chapter-7 stages' SASS (sass_check.SUMMARY_KEYS),
    and the two kernels' names."""
    claims = sass_check.load_claims(STEP_CLAIMS)
    with tempfile.TemporaryDirectory() as work:
        kernels = sass_check.build_unit(claims, "ch07_stages", work, nvcc, tool, log=log)
    found = [stage_kernel(kernels, s, dtype, block, finish) for s in stages]
    for s, k in zip(stages, found):
        if k is None:
            raise sass_check.SassError("no kernel of %s for %s, block %d, %s finish in ch07_stages.cu"
                                       % (s, dtype, block, finish))
    counts = [sass_check.summary(k) for k in found]
    rows = [[key, fmt(counts[0][key], "{:d}"), fmt(counts[1][key], "{:d}"),
             fmt_change(change_pct(counts[0][key], counts[1][key]))] for key in sass_check.SUMMARY_KEYS]
    return rows, [k.name for k in found]


def committed_counter_rows(stages, finish, path):
    """[[counter, baseline, candidate]] from the committed profiler table (the first Markdown table
    of `path` whose first column is `stage`); rows named stage@partials for the partials finish.
    None when the file or either stage's row is missing."""
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip().startswith("|")]
    header, table = None, {}
    for l in lines:
        cells = [c.strip() for c in l.strip("|").split("|")]
        if cells[0] == "stage" and header is None:
            header = cells
        elif header and len(cells) == len(header) and not set(cells[0]) <= set("-: "):
            table.setdefault(cells[0].strip("`"), cells)
        elif header and table:
            break
    names = [s + ("@partials" if finish == "partials" else "") for s in stages]
    if not header or any(n not in table for n in names):
        return None
    return [[h, table[names[0]][i], table[names[1]][i]] for i, h in enumerate(header) if i > 0]


def step_view(a):
    """Prints the reader's view of one step (--step) and returns the exit code."""
    stages = [a.baseline, a.candidate]
    headers = [stage_header(s) for s in stages]
    for s, h in zip(stages, headers):
        if not h:
            print("compare_stages.py: error: no stage file %s_*.cuh under ch*/" % s, file=sys.stderr)
            return EXIT_USAGE
    print("== %s -> %s: the source (diff of the stage files)\n" % tuple(stages))
    print(source_diff(*headers) or "(the files are equal)")
    print("== the compiler's code: SASS instructions per kernel (sm_90; %s, block %d, %s finish; "
          "scripts/sass_check.py)\n" % (a.type, a.block, a.finish))
    nvcc = sass_check.find_nvcc()
    tool = sass_check.find_disassembler(nvcc=nvcc)
    if not nvcc or not tool:
        print("skipped: needs nvcc and nvdisasm or cuobjdump (nvcc: %s, disassembler: %s)\n" % (nvcc, tool))
    else:
        try:
            rows, names = sass_rows(stages, a.type, a.block, a.finish, tool, nvcc,
                                    log=lambda m: print(m, file=sys.stderr))
        except sass_check.SassError as e:
            print("compare_stages.py: error: %s" % e, file=sys.stderr)
            return 1
        print("baseline:  %s\ncandidate: %s\ndisassembler: %s (%s)\n"
              % (names[0], names[1], tool, sass_check.tool_version(tool)))
        print(text_table(["count", "baseline", "candidate", "change"], rows) + "\n")
    rows, path = None, STEP_PROFILES[0]
    for candidate in STEP_PROFILES:
        rows = committed_counter_rows(stages, a.finish, candidate)
        if rows is not None:
            path = candidate
            break
    print("== the profiler: committed counters (%s)\n" % os.path.relpath(path, ROOT))
    if rows is None:
        print("no committed rows for %s (%s finish) in %s: profile them yourself (without --step)\n"
              % (" and ".join(stages), a.finish, " or ".join(os.path.relpath(p, ROOT) for p in STEP_PROFILES)))
    else:
        suffix = "@partials" if a.finish == "partials" else ""
        print(text_table(["counter", stages[0] + suffix, stages[1] + suffix], rows))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("baseline", nargs="?", help="stage program or .ncu-rep report")
    ap.add_argument("candidate", nargs="?", help="stage program or .ncu-rep report")
    ap.add_argument("--n", default="2^24", help="elements (default 2^24)")
    ap.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    ap.add_argument("--type", default="float", help="element type (default float)")
    ap.add_argument("--args", default="", help="extra flags for both programs")
    ap.add_argument("--baseline-args", default="", help="extra flags for the baseline program")
    ap.add_argument("--candidate-args", default="", help="extra flags for the candidate program")
    ap.add_argument("--launch-count", type=int, default=1,
                    help="kernels to profile in the --profile range (default 1; counters of several add up)")
    ap.add_argument("--out-dir", default="profiles", help="where reports are written (default ./profiles)")
    ap.add_argument("--ncu", help="ncu executable (default: $NCU, PATH, /usr/local/cuda/bin/ncu)")
    ap.add_argument("--md", help="also write the table as Markdown to this file")
    ap.add_argument("--build-dir", help="where bare stage names are looked for (default: ./build, then "
                                         "build/ and build-*/ at the repository's root)")
    ap.add_argument("--print-metrics", action="store_true", help="print the metric list and exit")
    ap.add_argument("--which", metavar="NAME", help="print the path of stage program NAME and exit")
    ap.add_argument("--step", action="store_true",
                    help="no profiling: the source diff, SASS counts and committed counters of two chapter-7 stages")
    ap.add_argument("--finish", choices=["partials", "atomic"], default="partials",
                    help="with --step: the finish whose kernels and counters are shown (default partials)")
    ap.add_argument("--assume-gpu", action="store_true", help=argparse.SUPPRESS)  # tests only
    a = ap.parse_args(argv)

    if a.print_metrics:
        print(",".join(METRIC_NAMES))
        return 0
    dirs = build_dirs(a.build_dir)
    if a.which:
        path = find_program(a.which, dirs)
        if not path:
            print("compare_stages.py: error: %s" % no_program_message(a.which, dirs), file=sys.stderr)
            return EXIT_USAGE
        print(path)
        return 0
    if not a.baseline or not a.candidate:
        ap.error("give a baseline and a candidate (stage programs or .ncu-rep reports)")
    if a.step:
        return step_view(a)
    targets = []
    for t in (a.baseline, a.candidate):
        if t.endswith(".ncu-rep"):
            if not os.path.isfile(t):
                print("compare_stages.py: error: no such report: %s" % t, file=sys.stderr)
                return EXIT_USAGE
            targets.append(t)
            continue
        path = find_program(t, dirs)
        if not path:
            print("compare_stages.py: error: %s" % no_program_message(t, dirs), file=sys.stderr)
            return EXIT_USAGE
        targets.append(path)
    a.baseline, a.candidate = targets
    ncu = find_ncu(a.ncu)
    if not ncu:
        print("SKIPPED: ncu (Nsight Compute CLI) not found; install Nsight Compute (it comes with the "
              "CUDA Toolkit) and put it on PATH, or pass --ncu")
        return EXIT_SKIP
    needs_gpu = not (a.baseline.endswith(".ncu-rep") and a.candidate.endswith(".ncu-rep"))
    if needs_gpu and not a.assume_gpu:
        ok, why = gpu_present()
        if not ok:
            print("SKIPPED: profiling needs an NVIDIA GPU: " + why)
            return EXIT_SKIP
    common = shlex.split(a.args)
    kw = dict(n=a.n, block=a.block, dtype=a.type, ncu=ncu, launch_count=a.launch_count,
              log=lambda s: print(s, file=sys.stderr))
    try:
        names = [os.path.basename(a.baseline), os.path.basename(a.candidate)]
        if names[0] == names[1]:
            names = [names[0] + "_baseline", names[1] + "_candidate"]
        base, brep = measure(a.baseline, a.out_dir, names[0],
                             extra_args=common + shlex.split(a.baseline_args), **kw)
        cand, crep = measure(a.candidate, a.out_dir, names[1],
                             extra_args=common + shlex.split(a.candidate_args), **kw)
    except ProfileError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    header = ["counter", "baseline", "candidate", "change"]
    rows = comparison_rows(base, cand)
    print("baseline:  %s\ncandidate: %s\n" % (brep, crep))
    print(text_table(header, rows))
    if a.md:
        with open(a.md, "w") as f:
            f.write("baseline `%s`, candidate `%s`, n = %s, block %d, %s\n\n"
                    % (os.path.basename(brep), os.path.basename(crep), a.n, a.block, a.type))
            f.write(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
