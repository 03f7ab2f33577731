#!/usr/bin/env bash
# Profiles one stage program with Nsight Compute and keeps the report for the GUI or for
# scripts/compare_stages.py. Only the launch inside the program's --profile range is measured:
#
#   ncu --profile-from-start off --clock-control none --launch-count 1 \
#       --section SpeedOfLight --section MemoryWorkloadAnalysis ... --metrics <compare list> \
#       -o <out>/<stage>[_<tag>] <program> --profile --n <n> --block <block> <extra args>
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/profile_stage.sh [options] PROGRAM [-- EXTRA PROGRAM ARGS...]

Profiles the single kernel launch that PROGRAM makes inside its --profile range and writes an
Nsight Compute report (.ncu-rep) named after the stage, size and block size.

  PROGRAM               a stage program, e.g. build/ch07_reduction_opt/reduce_kernel_4, or a bare
                        name such as reduce_kernel_4, looked for (as compare_stages.py does) in every
                        chapter folder of --build-dir, else ./build, else build/ and build-*/ at the
                        repository's root, subfolders included
Options:
  --n N                 elements (default 2^24); 1000, 2^24, 2^24+3 ... as the program accepts
  --block B             threads per block (default 256)
  --type T              float, double or int (default float)
  --out DIR             folder for the report (default ./profiles)
  --name NAME           report name without .ncu-rep (default <stage>_n<n>_b<block>[_<tag>])
  --tag TAG             suffix for the default name, e.g. volatile
  --launch-count K      kernels to profile (default 1; a stage with two kernels needs 2)
  --set full            collect ncu's full set instead of the sections below (slower)
  --no-metrics          only the sections, not compare_stages.py's counter list
  --ncu PATH            ncu executable (default: $NCU, then PATH, then /usr/local/cuda/bin/ncu)
  --build-dir DIR       where a bare PROGRAM name is looked for
  -h, --help            this text
Everything after -- goes to the program, e.g. -- --last-warp volatile

Exit codes (shared with compare_stages.py): 0 report written; 1 ncu or the program failed;
2 bad command line or no such program; 77 skipped: no ncu, or no NVIDIA GPU to profile on.

Sections: SpeedOfLight MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Tables
MemoryWorkloadAnalysis_Chart ComputeWorkloadAnalysis InstructionStats SchedulerStats
WarpStateStats Occupancy LaunchStats SourceCounters.

Examples:
  scripts/profile_stage.sh build/ch07_reduction_opt/reduce_kernel_3
  scripts/profile_stage.sh --tag volatile reduce_kernel_6 -- --last-warp volatile
  ncu-ui profiles/reduce_kernel_4_n2pow24_b256.ncu-rep      # then "Add Baseline" on another report
  scripts/compare_stages.py profiles/reduce_kernel_3_n2pow24_b256.ncu-rep \
      profiles/reduce_kernel_4_n2pow24_b256.ncu-rep
EOF
}

die() { echo "profile_stage.sh: error: $*" >&2; echo "Run with --help for usage." >&2; exit 2; }
skip() { echo "SKIPPED: $*"; exit 77; }

here=$(cd "$(dirname "$0")" && pwd)
n="2^24"; block=256; type=float; out=profiles; name=""; tag=""; launch_count=1
use_set=""; with_metrics=1; ncu="${NCU:-}"; program=""; extra=(); build_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --n) [ $# -ge 2 ] || die "--n needs a value"; n=$2; shift 2 ;;
    --block) [ $# -ge 2 ] || die "--block needs a value"; block=$2; shift 2 ;;
    --type) [ $# -ge 2 ] || die "--type needs a value"; type=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --name) [ $# -ge 2 ] || die "--name needs a value"; name=$2; shift 2 ;;
    --tag) [ $# -ge 2 ] || die "--tag needs a value"; tag=$2; shift 2 ;;
    --launch-count) [ $# -ge 2 ] || die "--launch-count needs a value"; launch_count=$2; shift 2 ;;
    --set) [ $# -ge 2 ] || die "--set needs a value"; use_set=$2; shift 2 ;;
    --no-metrics) with_metrics=0; shift ;;
    --ncu) [ $# -ge 2 ] || die "--ncu needs a value"; ncu=$2; shift 2 ;;
    --build-dir) [ $# -ge 2 ] || die "--build-dir needs a value"; build_dir=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -*) die "unknown option $1" ;;
    *) [ -z "$program" ] || die "one program only (got '$program' and '$1'); program flags go after --"
       program=$1; shift ;;
  esac
done
[ -n "$program" ] || { usage >&2; exit 2; }
[[ "$block" =~ ^[0-9]+$ ]] || die "--block must be a number, got '$block'"
[[ "$launch_count" =~ ^[1-9][0-9]*$ ]] || die "--launch-count must be a positive number, got '$launch_count'"

# The program: a path, or a bare stage name looked up by compare_stages.py's rule (one rule for both).
which_args=(--which "$program"); [ -n "$build_dir" ] && which_args+=(--build-dir "$build_dir")
if ! found=$(python3 "$here/compare_stages.py" "${which_args[@]}"); then
  exit 2  # compare_stages.py said why
fi
program=$found

if [ -z "$ncu" ]; then
  ncu=$(command -v ncu || true)
  [ -z "$ncu" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu=/usr/local/cuda/bin/ncu
fi
[ -n "$ncu" ] && command -v "$ncu" >/dev/null 2>&1 ||
  skip "ncu (Nsight Compute CLI) not found; install Nsight Compute (it comes with the CUDA Toolkit) and put it on PATH, or pass --ncu"
if [ -z "${PROFILE_STAGE_ASSUME_GPU:-}" ]; then  # (the CPU test of this script sets it)
  nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || skip "profiling needs an NVIDIA GPU, and nvidia-smi lists none"
fi

stage=$(basename "$program")
n_label=${n//^/pow}; n_label=${n_label//+/plus}
[ -n "$name" ] || name="${stage}_n${n_label}_b${block}${tag:+_$tag}"
mkdir -p "$out"
report="$out/$name"

args=(--profile-from-start off --clock-control none --launch-count "$launch_count" --force-overwrite)
if [ -n "$use_set" ]; then
  args+=(--set "$use_set")
else
  for s in SpeedOfLight MemoryWorkloadAnalysis MemoryWorkloadAnalysis_Tables MemoryWorkloadAnalysis_Chart \
           ComputeWorkloadAnalysis InstructionStats SchedulerStats WarpStateStats Occupancy LaunchStats \
           SourceCounters; do
    args+=(--section "$s")
  done
fi
if [ "$with_metrics" = 1 ]; then
  # The counters compare_stages.py reads, so this report can be compared without profiling again.
  metrics=$(python3 "$here/compare_stages.py" --print-metrics 2>/dev/null || true)
  [ -n "$metrics" ] && args+=(--metrics "$metrics")
fi
args+=(--import-source yes -o "$report")

cmd=("$ncu" "${args[@]}" "$program" --profile --n "$n" --block "$block" --type "$type" "${extra[@]}")
echo "+ ${cmd[*]}"
set +e
"${cmd[@]}"
rc=$?
set -e
if [ $rc -ne 0 ] || [ ! -f "$report.ncu-rep" ]; then
  echo "profile_stage.sh: ncu failed (exit $rc); no report at $report.ncu-rep" >&2
  echo "  - ERR_NVGPUCTRPERM: counters need root or NVreg_RestrictProfilingToAdminUsers=0" >&2
  echo "  - 'No kernels were profiled': the program must support --profile (a stage program)" >&2
  echo "  - 'Failed to find metric': retry with --no-metrics and report the name" >&2
  [ $rc -ne 0 ] && exit $rc || exit 1
fi
echo "report: $report.ncu-rep"
echo "  GUI:      ncu-ui $report.ncu-rep"
echo "  text:     $ncu --import $report.ncu-rep --page details"
echo "  compare:  scripts/compare_stages.py <baseline>.ncu-rep $report.ncu-rep"
