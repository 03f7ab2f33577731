#!/usr/bin/env bash
# Redraws every figure the chapter pages show (docs/figures/*.png) from the committed results
# (docs/results/<gpu>/**/*.csv), in one command. `scripts/maintainers/make_figures.sh --help` says more.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/maintainers/make_figures.sh [--results DIR] [--out DIR] [--list]

Redraws the figures of the chapter pages from the committed ladder CSVs:
  ch07_2e28_bandwidth.png, ch07_2e28_roofline.png   chapter 7's ladder at 2^28 floats
  ch08_2e28_bandwidth.png, ch08_2e28_roofline.png   chapter 8's ladders at 2^28 (float sum, float max,
                                                    int sum; the roofline shows the float sum)
  ch07_size_sweep.png                               stage 11 and CUB from 2^16 to 2^30 floats
  ch08_scan_2e30_bandwidth.png, ..._roofline.png    chapter 8's scan ladder at 2^30 floats
  ch08_histogram_2e30_bandwidth.png, ..._roofline.png  chapter 8's histogram ladder at 2^30 uint8
                                                    samples, uniform data
  ch08_histogram_contention.png                     every histogram stage and CUB against the
                                                    share of samples in the hottest bin (2^27)
  ch07_small_inputs.png, ch08_scan_small_inputs.png microseconds per run from 2^10 to 2^22 floats:
                                                    stages 9, 11, 12 and CUB; scan stages 7-9 and
                                                    CUB (the small-input ladders, from --small-results)
  reduction_tree_banks.png, blelloch_sweeps.png,    the concept figures, drawn from the code's
  lookback_flags.png, scan_stage8_roles.png         parameters by scripts/maintainers/plot_concepts.py (no CSV)
Each CSV is found by its name anywhere under the results folder (subfolders included), so the
files may move between folders; a name found twice is an error.

  --results DIR   results of one GPU (default docs/results/H200)
  --small-results DIR  where the small-input ladders are (default docs/results/H100: not yet run
                  on the H200)
  --out DIR       where the PNGs go (default docs/figures)
  --list          print the CSVs each figure is drawn from, draw nothing
  -h, --help      this text

Needs Python 3 with matplotlib and pandas (Debian/Ubuntu: apt-get install python3-matplotlib
python3-pandas; scripts/tutorial.sh installs them when run as root).
Exit codes: 0 drawn; 1 a CSV is missing or a plot failed; 2 bad command line; 77 matplotlib or
pandas is not installed.
EOF
}
die() { echo "make_figures.sh: error: $*" >&2; echo "Run with --help for usage." >&2; exit 2; }

cd "$(dirname "$0")/../.."
results=docs/results/H200; small_results=docs/results/H100; out=docs/figures; list=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --results) [ $# -ge 2 ] && [ -n "$2" ] || die "--results needs a value"; results=$2; shift 2 ;;
    --small-results) [ $# -ge 2 ] && [ -n "$2" ] || die "--small-results needs a value"; small_results=$2; shift 2 ;;
    --out) [ $# -ge 2 ] && [ -n "$2" ] || die "--out needs a value"; out=$2; shift 2 ;;
    --list) list=1; shift ;;
    *) die "unknown argument $1" ;;
  esac
done
[ -d "$results" ] || die "no results folder $results"

# csv <file name>: the one file of that name under $results (exit 1 when there is none or two).
csv() {
  local hits
  hits=$(find "$results" -type f -name "$1" | sort)
  if [ -z "$hits" ]; then
    echo "make_figures.sh: error: no $1 under $results" >&2; exit 1
  elif [ "$(printf '%s\n' "$hits" | wc -l)" -gt 1 ]; then
    echo "make_figures.sh: error: $1 is there twice:" $hits >&2; exit 1
  fi
  printf '%s\n' "$hits"
}

ch07=$(csv reduce_ladder_2e28_float.csv)
ch08=()
for f in reduce_ladder_ch08_2e28_float_sum.csv reduce_ladder_ch08_2e28_float_max.csv reduce_ladder_ch08_2e28_int_sum.csv; do
  p=$(csv "$f"); ch08+=("$p")
done
scan=$(csv scan_ladder_2e30_float.csv)
hist=$(csv histogram_ladder_2e30_uint8_uniform.csv)
contention=$(csv histogram_contention_2e27_uint8.csv)
sweep_flushed=$(csv sweep_flushed.csv)
sweep_warm=$(csv sweep_warm.csv)
small_reduce=$(results=$small_results csv reduce_ladder_small_float.csv)
small_scan=$(results=$small_results csv scan_ladder_small_float.csv)

if [ "$list" = 1 ]; then
  echo "ch07_2e28_{bandwidth,roofline}.png  <- $ch07"
  echo "ch08_2e28_{bandwidth,roofline}.png  <- ${ch08[*]}"
  echo "ch07_size_sweep.png                 <- $sweep_flushed $sweep_warm"
  echo "ch08_scan_2e30_{bandwidth,roofline}.png <- $scan"
  echo "ch08_histogram_2e30_{bandwidth,roofline}.png <- $hist"
  echo "ch08_histogram_contention.png       <- $contention"
  echo "ch07_small_inputs.png               <- $small_reduce"
  echo "ch08_scan_small_inputs.png          <- $small_scan"
  echo "reduction_tree_banks.png blelloch_sweeps.png lookback_flags.png scan_stage8_roles.png <- scripts/maintainers/plot_concepts.py (the code's parameters)"
  exit 0
fi

mkdir -p "$out"
rc=0
python3 scripts/maintainers/plot_ladder.py "$ch07" --out-dir "$out" --prefix ch07_2e28 || rc=$?
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_ladder.py "${ch08[@]}" --out-dir "$out" --prefix ch08_2e28 || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_size_sweep.py "flushed=$sweep_flushed" "warm=$sweep_warm" \
                     --stage reduce_kernel_11 --out "$out/ch07_size_sweep.png" || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_ladder.py "$scan" --out-dir "$out" --prefix ch08_scan_2e30 || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_ladder.py "$hist" --out-dir "$out" --prefix ch08_histogram_2e30 || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_contention.py "$contention" --out "$out/ch08_histogram_contention.png" || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_small_inputs.py "$small_reduce" --out "$out/ch07_small_inputs.png" \
                     --stages reduce_kernel_9,reduce_kernel_11,reduce_kernel_12,reduce_kernel_13 || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_small_inputs.py "$small_scan" --out "$out/ch08_scan_small_inputs.png" \
                     --stages scan_stage_7,scan_stage_8,scan_stage_9 || rc=$?; }
[ $rc -eq 0 ] && { python3 scripts/maintainers/plot_concepts.py --out-dir "$out" || rc=$?; }
if [ $rc -ne 0 ]; then
  [ $rc -eq 77 ] && exit 77
  echo "make_figures.sh: a plot failed (exit $rc)" >&2; exit 1
fi
echo "== figures written to $out/"
