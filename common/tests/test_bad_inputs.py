#!/usr/bin/env python3
"""Bad input never crashes: every program of the tutorial, given a table of bad command lines, exits
with code 2 and says in one line what is wrong (naming the option or the limit), before it asks for a
GPU. So the table runs on a machine without one (CI): a program that reached the GPU first would exit
77 there, and the row fails. A second table holds inputs that must be ACCEPTED (exit 0 with a GPU, 77
without one), so that a check that refuses too much fails as well.

    python3 common/tests/test_bad_inputs.py --build-dir build [--multi-gpu]

Exit 0 when every row behaves, 1 otherwise (each failing row is printed with what came back)."""
import argparse
import os
import subprocess
import sys

# (program, arguments, words the one error line must contain, extra environment)
BAD = [
    # sizes whose bytes overflow 64 bits, in every kind of program
    ("histogram_contention", "--n 2^62 --type float", "more bytes than a 64-bit size", {}),
    ("reduce_barriers", "--n 2^62", "more bytes than a 64-bit size", {}),
    ("reduce_ladder", "--n 2^62", "more bytes than a 64-bit size", {}),
    ("reduce_ladder_ch08", "--n 2^62 --type double", "more bytes than a 64-bit size", {}),
    ("scan_ladder", "--n 2^61 --type double", "more bytes than a 64-bit size", {}),
    ("histogram_ladder", "--n 2^62 --type int", "more bytes than a 64-bit size", {}),
    ("atomic_vs_deterministic", "--n 2^62 --type double", "more bytes than a 64-bit size", {}),
    ("reduce_kernel_9", "--n 2^62 --type double", "more bytes than a 64-bit size", {}),
    ("scan_stage_5", "--n 2^62", "more bytes than a 64-bit size", {}),
    ("histogram_stage_4", "--n 2^62 --type int", "more bytes than a 64-bit size", {}),
    # inputs larger than the host's memory (the machine's, or the one TUTORIAL_DEVICE_LIMITS sets)
    ("reduce_kernel_1", "--n 2^40", "host memory", {}),
    ("scan_stage_5", "--n 2^40 --type double", "host memory", {}),
    ("reduce_ladder", "--sizes 2^10,2^40", "host memory", {}),
    ("histogram_contention", "--n 2^40 --type float", "host memory", {}),
    ("reduce_kernel_12", "--n 2^28", "host memory", {"TUTORIAL_DEVICE_LIMITS": "host=1GB"}),
    ("atomic_vs_deterministic", "--n 2^28", "host memory", {"TUTORIAL_DEVICE_LIMITS": "host=100MB"}),
    ("reduce_kernel_1", "--n 2^20", "TUTORIAL_DEVICE_LIMITS", {"TUTORIAL_DEVICE_LIMITS": "host=lots"}),
    # numbers in base 10 only: no sign on counts and seeds, no octal, hexadecimal, nan or trailing text
    ("reduce_kernel_1", "--seed -1", "--seed", {}),
    ("reduce_kernel_1", "--seed 010", "--seed", {}),
    ("reduce_kernel_1", "--iters 0x10", "--iters", {}),
    ("reduce_kernel_1", "--max-seconds nan", "--max-seconds", {}),
    ("reduce_kernel_1", "--max-seconds inf", "--max-seconds", {}),
    ("reduce_kernel_1", "--warmup 3abc", "--warmup", {}),
    ("reduce_kernel_9", "--grid -1", "--grid", {}),
    ("scan_ladder", "--runs-per-sample 1e3 --small", "--runs-per-sample", {}),
    ("histogram_stage_4", "--bins 0x100", "--bins", {}),
    ("histogram_stage_4", "--lower nan", "--lower", {}),
    ("histogram_contention", "--shares 0.5,,1", "--shares", {}),
    ("histogram_contention", "--shares 1/256abc", "--shares", {}),
    ("histogram_contention", "--shares nan", "--shares", {}),
    ("histogram_contention", "--stages histogram_stage_4,nope", "--stages", {}),
    ("reduce_ladder", "--stages reduce_kernel_1,,reduce_kernel_2", "--stages: an empty item", {}),
    # --stages auto (the size rule's stage) beside names: an unknown name or an empty item is refused
    ("scan_ladder", "--stages auto,nope", "unknown stage 'nope'", {}),
    ("histogram_ladder", "--stages auto,", "--stages: an empty item", {}),
    ("reduce_ladder_ch08", "--stages auto --n 2^20 --sizes 2^10", "not both", {}),
    ("histogram_contention", "--max-seconds -1", "--max-seconds", {}),
    ("reduce_barriers", "--blocks 0x20", "--blocks", {}),
    ("atomic_vs_deterministic", "--runs 010", "--runs", {}),
    ("atomic_vs_deterministic", "--block 100", "--block", {}),
    ("launch_cost", "--launches 0x10", "--launches", {}),
    ("launch_cost", "--samples -1", "--samples", {}),
    ("roofline", "--peak-gbs nan", "--peak-gbs", {}),
    ("roofline", "--peak-tflops 0x1p4", "--peak-tflops", {}),
    # the Blelloch trace: values the type cannot hold, malformed values, unknown flags
    ("scan_block_blelloch", "--trace nan,1,2 --type int", "--trace", {}),
    ("scan_block_blelloch", "--trace 1e10 --type int", "--trace", {}),
    ("scan_block_blelloch", "--trace 2.5 --type int", "--trace", {}),
    ("scan_block_blelloch", "--trace 2147483647,1 --type int", "overflow", {}),
    ("scan_block_blelloch", "--trace 1e39", "float", {}),
    ("scan_block_blelloch", "--trace 3abc", "--trace", {}),
    ("scan_block_blelloch", "--trace 1,,2", "--trace", {}),
    ("scan_block_blelloch", "--trace 1,2 --bogus", "--bogus", {}),
]
MULTI_GPU_BAD = [
    ("multi_gpu_allreduce", "--n 2^62", "more bytes than a 64-bit size", {}),
    ("multi_gpu_reduce", "--n 2^62", "more bytes than a 64-bit size", {}),
    ("multi_gpu_reduce", "--n 2^40", "host memory", {}),
    ("multi_gpu_allreduce", "--seed -1", "--seed", {}),
    ("multi_gpu_reduce", "--iters 0x10", "--iters", {}),
]
# (program, arguments, environment): valid input, exit 0 with a GPU or 77 without one, never 2.
GOOD = [
    ("scan_block_blelloch", "--trace -1,2,3", {}),
    ("scan_block_blelloch", "--trace nan,1,inf --type double", {}),
    ("scan_block_blelloch", "--trace=-inf,1", {}),
    ("scan_block_blelloch", "--trace 2147483646,1 --type int", {}),
    ("reduce_kernel_1", "--n 2^10 --seed 0 --iters 2 --warmup 0 --max-seconds 0.5", {}),
    ("histogram_stage_4", "--n 1000 --lower -2.5 --upper 1e3 --iters 1", {}),
    ("reduce_kernel_12", "--n 2^20 --iters 1", {"TUTORIAL_DEVICE_LIMITS": "host=1GB"}),
    ("scan_ladder", "--stages auto --n 2^10 --iters 1 --warmup 0", {}),
    ("reduce_ladder", "--stages auto,reduce_kernel_9 --sizes 2^10,2^15 --iters 1 --warmup 0 --runs-per-sample 1", {}),
]
HELP_LINE = "Run with --help for usage."


def find_programs(build_dir):
    found = {}
    for root, _, files in os.walk(build_dir):
        if "CMakeFiles" in root:
            continue
        for f in files:
            path = os.path.join(root, f)
            if os.access(path, os.X_OK) and f not in found:
                found[f] = path
    return found


def run(path, args, env_extra):
    env = dict(os.environ)
    env.pop("TUTORIAL_DEVICE_LIMITS", None)
    env.update(env_extra)
    p = subprocess.run([path] + args.split(), capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, [line for line in (p.stdout + p.stderr).splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--multi-gpu", action="store_true", help="the multi-GPU programs were built (NCCL found)")
    a = ap.parse_args()
    programs = find_programs(a.build_dir)
    failures, checked = [], 0
    for prog, args, words, env in BAD + (MULTI_GPU_BAD if a.multi_gpu else []):
        if prog not in programs:
            failures.append(f"{prog} {args}: program not found under {a.build_dir}")
            continue
        rc, lines = run(programs[prog], args, env)
        checked += 1
        error_lines = [l for l in lines if l != HELP_LINE]
        shown = " | ".join(lines)
        if rc != 2:
            failures.append(f"{prog} {args}: exit {rc}, not 2: {shown}")
        elif len(error_lines) != 1:
            failures.append(f"{prog} {args}: {len(error_lines)} lines, not one: {shown}")
        elif words not in error_lines[0]:
            failures.append(f"{prog} {args}: the line does not say '{words}': {shown}")
    for prog, args, env in GOOD:
        if prog not in programs:
            failures.append(f"{prog} {args}: program not found under {a.build_dir}")
            continue
        rc, lines = run(programs[prog], args, env)
        checked += 1
        if rc not in (0, 77):
            failures.append(f"{prog} {args}: a valid input, but exit {rc}: {' | '.join(lines[-3:])}")
    for f in failures:
        print("FAIL:", f)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
