#!/usr/bin/env bash
# The GPU runs of issue 22 on one H200 (the ladders with both finishes, chapter 8's stage 5, their
# tests, profile claims and sanitizer runs), then a check of the issue's "done when" on the CSVs.
#
#   scripts/issue22_gpu.sh [STEP...]        steps: build tests ladders7 ladders8 profile sanitizer
#                                            barriers check (default: all, in that order)
#   BUILD=build OUT=docs/results/H200 ITERS=50 scripts/issue22_gpu.sh
#
# What each step should show:
#   build      every target compiles (sm_90).
#   tests      test_ch07_cli, test_ch07_stages (both finishes swept; the partials finish gives one bit
#              pattern in 20 runs), test_ch08_reduce_stages/_special/_cli (stage 5 swept for sum/max/
#              min x float/double/int, misaligned inputs, barriers = 1), the cpu.reduce_kernel_N_finish_flag
#              tests and the smoke tests of every form: all pass.
#   ladders7   reduce_ladder at 2^24, 2^28, 2^30 floats: two tables per file; every stage row
#              verified yes, check exact. Atomic table: stages 1 to 7 within ~1% of each other (~1.92 ms
#              at 2^28). Partials table: the steps show (a probe at 2^28: modulo 1.185 ms, strided 1.475,
#              sequential 1.149, shuffle 0.898): the slowest of stages 1 to 7 >= 1.3x the fastest.
#   ladders8   reduce_ladder_ch08 --op sum at 2^28 and 2^30, float and int: stage 5 at >= 0.98x CUB
#              (vs_cub column), every stage row check exact.
#   profile    profile.ch07_claims and profile.ch08_claims pass (ch07: 1 -> 3 for both finishes:
#              bank conflicts x10+, shared ld+st fall; atomic: time within 5%; partials: time +10% or
#              more; 1 -> 7 partials: time -10% or more. ch08: 4 -> 5 DRAM +15 points, 1 barrier).
#   sanitizer  every new form clean under the four tools (reduce_kernel_N --finish partials, stage
#              6's four forms with the volatile ones reporting racecheck hazards as expected,
#              reduce_stage_5), then the whole label.
#   barriers   reduce_barriers: stage 5 has 1 barrier per block, measured = arithmetic.
#   check      prints the issue's done-when numbers from the CSVs written above; exit 1 if one fails.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=${OUT:-docs/results/H200}
ITERS=${ITERS:-50}
STEPS=("$@")
[ ${#STEPS[@]} -eq 0 ] && STEPS=(build tests ladders7 ladders8 profile sanitizer barriers check)
B7=$BUILD/ch07_reduction_opt
B8=$BUILD/ch08_reduction_scan_histogram
rc=0
run() { echo "+ $*"; "$@" || { echo "FAILED ($?): $*"; rc=1; }; }

for step in "${STEPS[@]}"; do
  echo "=== $step"
  case $step in
    build)
      run cmake --build "$BUILD" -j --target \
        reduce_kernel_0 reduce_kernel_1 reduce_kernel_2 reduce_kernel_3 reduce_kernel_4 reduce_kernel_5 \
        reduce_kernel_6 reduce_kernel_7 reduce_kernel_8 reduce_kernel_9 reduce_kernel_10 reduce_kernel_11 \
        reduce_ladder test_ch07_stages test_ch07_cli \
        reduce_stage_0 reduce_stage_1 reduce_stage_2 reduce_stage_3 reduce_stage_4 reduce_stage_5 \
        reduce_ladder_ch08 reduce_barriers atomic_vs_deterministic \
        test_ch08_reduce_stages test_ch08_reduce_special test_ch08_reduce_cli test_ch08_reduce_ops
      # multi_gpu_reduce only exists when CMake found NCCL.
      if cmake --build "$BUILD" --target help 2>/dev/null | grep -q multi_gpu_reduce; then
        run cmake --build "$BUILD" -j --target multi_gpu_reduce
      fi
      ;;
    tests)
      run ctest --test-dir "$BUILD" --output-on-failure \
        -R '^(test_ch07_|test_ch08_reduce_|cpu\.reduce_kernel_|smoke\.reduce_kernel_|smoke\.reduce_stage_|smoke\.reduce_ladder|smoke\.reduce_barriers|cpu\.gpu_tool_scripts)'
      ;;
    ladders7)
      mkdir -p "$OUT/ch07"
      for e in 24 28 30; do
        run "$B7/reduce_ladder" --n "2^$e" --iters "$ITERS" \
          --md "$OUT/ch07/reduce_ladder_2e${e}_float.md" --csv "$OUT/ch07/reduce_ladder_2e${e}_float.csv"
      done
      # The other committed chapter-7 ladders, re-run so the results folder is one generation.
      for t in double int; do
        run "$B7/reduce_ladder" --n "2^28" --type "$t" --iters "$ITERS" \
          --md "$OUT/ch07/reduce_ladder_2e28_${t}.md" --csv "$OUT/ch07/reduce_ladder_2e28_${t}.csv"
      done
      ;;
    ladders8)
      mkdir -p "$OUT/ch08"
      for e in 28 30; do
        for t in float int; do
          run "$B8/reduce_ladder_ch08" --n "2^$e" --type "$t" --op sum --iters "$ITERS" \
            --md "$OUT/ch08/reduce_ladder_ch08_2e${e}_${t}_sum.md" --csv "$OUT/ch08/reduce_ladder_ch08_2e${e}_${t}_sum.csv"
        done
      done
      ;;
    profile)
      run ctest --test-dir "$BUILD" -R '^profile\.(ch07|ch08)_claims$' -V
      mkdir -p "$OUT/profile"
      for c in ch07 ch08; do
        [ -f "$BUILD/gpu-tools/${c}_profile_claims.md" ] && cp "$BUILD/gpu-tools/${c}_profile_claims.md" "$OUT/profile/"
      done
      ;;
    sanitizer)
      run python3 scripts/run_sanitizers.py --build-dir "$BUILD" --sizes 1000,4099 \
        --only reduce_kernel_1,reduce_kernel_2,reduce_kernel_3,reduce_kernel_4,reduce_kernel_5,reduce_kernel_6,reduce_kernel_7,reduce_kernel_8,reduce_stage_5 \
        --log-dir "$BUILD/gpu-tools/sanitizer_logs_issue22"
      run ctest --test-dir "$BUILD" -L sanitizer --output-on-failure
      [ -f "$BUILD/gpu-tools/sanitizer_logs/summary.txt" ] && cp "$BUILD/gpu-tools/sanitizer_logs/summary.txt" "$OUT/profile/sanitizers.txt"
      ;;
    barriers)
      run "$B8/reduce_barriers" --blocks 256 512 --md "$OUT/ch08/ch08_barriers.txt"
      ;;
    check)
      run python3 - "$OUT" <<'EOF'
import csv, sys, os
out = sys.argv[1]
bad = []
def rows(p):
    with open(p) as f:
        return list(csv.DictReader(f))
def stage_rows(r):
    return [x for x in r if x["stage"].startswith("reduce_")]
for e in (24, 28, 30):
    p = os.path.join(out, "ch07", "reduce_ladder_2e%d_float.csv" % e)
    r = rows(p)
    for x in stage_rows(r):
        if x["check"] != "exact" or x["verified"] not in ("true", "1", "yes", "True"):
            bad.append("%s: %s check=%s verified=%s" % (p, x["stage"], x["check"], x["verified"]))
    part = {x["stage"]: float(x["ms_median"]) for x in r if x.get("finish") == "partials"}
    atom = {x["stage"]: float(x["ms_median"]) for x in r if x.get("finish") == "atomic"}
    s17 = [v for k, v in part.items() if any(k.startswith("reduce_kernel_%d" % i) for i in range(1, 8))]
    a17 = [v for k, v in atom.items() if any(k.startswith("reduce_kernel_%d" % i) for i in range(1, 8))]
    ratio = max(s17) / min(s17)
    print("ch07 2^%d: partials stages 1-7 slowest/fastest = %.2fx (%.3f..%.3f ms); atomic %.2fx (%.3f..%.3f ms)"
          % (e, ratio, min(s17), max(s17), max(a17) / min(a17), min(a17), max(a17)))
    for k in sorted(part, key=lambda s: (len(s), s)):
        print("   %-34s %.4f ms" % (k, part[k]))
    if e == 28 and ratio < 1.3:
        bad.append("ch07 2^28 partials: slowest/fastest %.2f < 1.3" % ratio)
for e in (28, 30):
    for t in ("float", "int"):
        p = os.path.join(out, "ch08", "reduce_ladder_ch08_2e%d_%s_sum.csv" % (e, t))
        r = rows(p)
        for x in stage_rows(r):
            if x["check"] != "exact":
                bad.append("%s: %s check=%s" % (p, x["stage"], x["check"]))
        best = max(stage_rows(r), key=lambda x: float(x["vs_cub"]))
        s5 = [x for x in r if x["stage"] == "reduce_stage_5"][0]
        print("ch08 2^%d %s sum: reduce_stage_5 vs CUB %.3f (%.1f%% of peak); best %s %.3f"
              % (e, t, float(s5["vs_cub"]), float(s5["pct_peak_bw"]), best["stage"], float(best["vs_cub"])))
        if float(s5["vs_cub"]) < 0.98:
            bad.append("%s: reduce_stage_5 vs_cub %s < 0.98" % (p, s5["vs_cub"]))
print("\n".join(["FAIL: " + b for b in bad]) if bad else "done-when checks: all hold")
sys.exit(1 if bad else 0)
EOF
      ;;
    *) echo "unknown step $step"; rc=2 ;;
  esac
done
exit $rc
