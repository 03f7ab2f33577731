#!/usr/bin/env bash
# Size sweep of one ladder stage against CUB: runs reduce_ladder --stages <stage> --n 2^k for
# k = FROM..TO (the ladder always adds the CUB and copy rows), once with the L2 flushed between
# timed runs and, with --warm, once more with --no-flush; concatenates the CSVs and plots GB/s
# against n with scripts/maintainers/plot_size_sweep.py (if matplotlib and pandas are there).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/size_sweep.sh [options]
  --ladder PATH       ladder program (default build/ch07_reduction_opt/reduce_ladder)
  --stage NAME        stage to sweep (default reduce_kernel_8)
  --fastest-from CSV  pick the stage with the smallest ms_median in this ladder CSV instead
  --from K --to K     exponents of n = 2^K (default 16 and 30)
  --iters N           timed runs per size (default 20)
  --type T            element type (default float)
  --warm              also sweep with --no-flush (L2 kept warm): a second series
  --out DIR           output folder (default ./sweep)
  --no-plot           do not call plot_size_sweep.py
  -h, --help          this text
Writes DIR/sweep_flushed.csv (and DIR/sweep_warm.csv), one ladder CSV per size, logs, and
DIR/size_sweep.png.
Exit codes: 0 every size ran; 1 a size failed; 2 bad command line; 77 no GPU (nothing swept).
USAGE
}
die() { echo "size_sweep.sh: error: $*" >&2; echo "Run with --help for usage." >&2; exit 2; }
val() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"; }  # val <flag> <next argument>

here=$(cd "$(dirname "$0")" && pwd)
ladder=build/ch07_reduction_opt/reduce_ladder; stage=reduce_kernel_8; fastest_from=""
from=16; to=30; iters=20; type=float; warm=0; out=sweep; plot=1
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --ladder) val "$@"; ladder=$2; shift 2 ;;
    --stage) val "$@"; stage=$2; shift 2 ;;
    --fastest-from) val "$@"; fastest_from=$2; shift 2 ;;
    --from) val "$@"; from=$2; shift 2 ;;
    --to) val "$@"; to=$2; shift 2 ;;
    --iters) val "$@"; iters=$2; shift 2 ;;
    --type) val "$@"; type=$2; shift 2 ;;
    --warm) warm=1; shift ;;
    --out) val "$@"; out=$2; shift 2 ;;
    --no-plot) plot=0; shift ;;
    *) die "unknown argument $1" ;;
  esac
done
[ -x "$ladder" ] || die "no ladder program at $ladder (build first, or pass --ladder)"
[[ "$from" =~ ^[0-9]+$ && "$to" =~ ^[0-9]+$ && $from -le $to && $to -le 34 ]] || die "bad --from/--to: $from..$to"
if [ -n "$fastest_from" ]; then
  [ -f "$fastest_from" ] || die "no such CSV: $fastest_from"
  stage=$(python3 - "$fastest_from" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["stage"] != "copy" and not r["stage"].startswith("cub::") and r.get("verified", "true") in ("true", "1", "yes")]
print(min(rows, key=lambda r: float(r["ms_median"]))["stage"] if rows else "")
PY
)
  [ -n "$stage" ] || die "no verified stage row in $fastest_from"
  echo "fastest stage in $fastest_from: $stage"
fi
mkdir -p "$out"

sweep() {  # $1 = series name (flushed / warm), rest = extra ladder flags
  local series=$1; shift
  local all="$out/sweep_$series.csv" k csv
  rm -f "$all"
  for k in $(seq "$from" "$to"); do
    csv="$out/${stage}_2e${k}_${series}.csv"
    local rc=0
    "$ladder" --stages "$stage" --n "2^$k" --type "$type" --iters "$iters" --csv "$csv" "$@" \
      >"$out/${stage}_2e${k}_${series}.log" 2>&1 || rc=$?
    if [ $rc -eq 77 ]; then
      cat "$out/${stage}_2e${k}_${series}.log"
      echo "SKIPPED: the ladder found no GPU (exit 77); nothing was swept"; exit 77
    elif [ $rc -ne 0 ]; then
      echo "2^$k $series: FAILED (see $out/${stage}_2e${k}_${series}.log)"; tail -3 "$out/${stage}_2e${k}_${series}.log"
      failed=1
      continue
    fi
    echo "2^$k $series: ok"
    if [ ! -f "$all" ]; then cat "$csv" >"$all"; else tail -n +2 "$csv" >>"$all"; fi
  done
  if [ -f "$all" ]; then echo "$all"; fi
}

failed=0
sweep flushed
[ "$warm" = 1 ] && sweep warm --no-flush
if [ "$plot" = 1 ] && [ -f "$out/sweep_flushed.csv" ]; then
  files=("flushed=$out/sweep_flushed.csv")
  [ "$warm" = 1 ] && [ -f "$out/sweep_warm.csv" ] && files+=("warm=$out/sweep_warm.csv")
  python3 "$here/maintainers/plot_size_sweep.py" --stage "$stage" --out "$out/size_sweep.png" "${files[@]}" ||
    echo "size_sweep.sh: plotting failed (see above); the CSVs are in $out"
fi
exit $failed
