#!/usr/bin/env bash
# Runs the repository's GPU work on a machine with an NVIDIA GPU, in one go, and leaves every log
# under $OUT (default: ./gpu-results): configure + build, the tests, the compute-sanitizer and
# Nsight Compute tests, the ladders and the size sweep. Steps are chosen by arguments (default: all):
#   scripts/gpu_machine_check.sh build test sanitize profile ladders ch08 sweep
# Environment: OUT (log folder), BUILD (build folder, default build-gpu), JOBS (build jobs),
# LADDER_SIZES (default "24 28": ladders at 2^24 and 2^28 floats).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-results}
BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
LADDER_SIZES=${LADDER_SIZES:-"20 22 24 26 28 30"}
LADDER8_SIZES=${LADDER8_SIZES:-"28"}
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build test sanitize profile ladders ch08 sweep)
mkdir -p "$OUT"
status=0
note() { echo "== $*" | tee -a "$OUT/summary.txt"; }
want() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

note "$(date -u +%FT%TZ) steps: ${steps[*]}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"

if want build; then
  prefix=()
  # nlohmann/json: from the system, or from .deps (the Debian package unpacked) where it is missing.
  if [ -d .deps/usr/share/cmake/nlohmann_json ] && ! ls /usr/share/cmake/nlohmann_json /usr/lib/cmake/nlohmann_json /usr/lib/x86_64-linux-gnu/cmake/nlohmann_json >/dev/null 2>&1; then
    prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/usr")
  fi
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  if cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "${prefix[@]}" >"$OUT/configure.log" 2>&1 &&
     cmake --build "$BUILD" -j "$JOBS" >"$OUT/build.log" 2>&1; then
    note "build: ok"
  else
    note "build: FAILED"; tail -40 "$OUT/configure.log" "$OUT/build.log"; exit 1
  fi
fi

if want test; then
  if ctest --test-dir "$BUILD" --output-on-failure --timeout 1500 -LE 'profile|sanitizer' ${CTEST_ARGS:-} >"$OUT/ctest.log" 2>&1; then note "ctest: ok"; else note "ctest: FAILED"; status=1; fi
  tail -25 "$OUT/ctest.log" | tee -a "$OUT/summary.txt"
fi

for label in sanitizer profile; do
  step=$([ $label = sanitizer ] && echo sanitize || echo profile)
  want $step || continue
  if ctest --test-dir "$BUILD" --output-on-failure -L $label >"$OUT/$label.log" 2>&1; then note "$label tests: ok"; else note "$label tests: FAILED"; status=1; fi
  tail -30 "$OUT/$label.log" >>"$OUT/summary.txt"
done
[ -d "$BUILD/gpu-tools" ] && cp -r "$BUILD/gpu-tools" "$OUT/" 2>/dev/null

run_ladder() {  # run_ladder <program> <tag> <args...>: CSV + Markdown under $OUT
  local lad=$1 tag=$2; shift 2
  [ -x "$lad" ] || return 0
  if "$lad" "$@" --csv "$OUT/$tag.csv" --md "$OUT/$tag.md" >"$OUT/$tag.log" 2>&1; then note "$tag: ok"; else note "$tag: FAILED"; status=1; fi
  cat "$OUT/$tag.md" 2>/dev/null
}
if want ladders; then
  for k in $LADDER_SIZES; do
    run_ladder "$BUILD/ch07_reduction_opt/reduce_ladder" "reduce_ladder_2e${k}_float" --n 2^$k --iters 50
  done
  for k in ${LADDER_TYPED_SIZES-28}; do
    for t in double int; do
      run_ladder "$BUILD/ch07_reduction_opt/reduce_ladder" "reduce_ladder_2e${k}_$t" --n 2^$k --iters 50 --type $t
    done
  done
fi

if want ch08; then
  B8="$BUILD/ch08_reduction_scan_histogram"
  for k in $LADDER8_SIZES; do
    run_ladder "$B8/reduce_ladder_ch08" "reduce_ladder_ch08_2e${k}_float_sum" --n 2^$k --iters 50
    run_ladder "$B8/reduce_ladder_ch08" "reduce_ladder_ch08_2e${k}_float_max" --n 2^$k --iters 50 --op max
    run_ladder "$B8/reduce_ladder_ch08" "reduce_ladder_ch08_2e${k}_int_sum" --n 2^$k --iters 50 --type int
  done
  [ -x "$B8/reduce_barriers" ] && "$B8/reduce_barriers" --blocks 256 512 >"$OUT/ch08_barriers.txt" 2>&1
  [ -x "$B8/atomic_vs_deterministic" ] && "$B8/atomic_vs_deterministic" --n 2^26 --runs 100 >"$OUT/ch08_atomic_vs_deterministic.txt" 2>&1
  cat "$OUT/ch08_barriers.txt" "$OUT/ch08_atomic_vs_deterministic.txt" 2>/dev/null | tee -a "$OUT/summary.txt"
fi

if want sweep; then
  if scripts/size_sweep.sh --ladder "$BUILD/ch07_reduction_opt/reduce_ladder" --out "$OUT/sweep" ${SWEEP_ARGS:-} >"$OUT/sweep.log" 2>&1; then note "size sweep: ok"; else note "size sweep: FAILED"; status=1; fi
fi
note "exit status $status"
exit $status
