#!/usr/bin/env bash
# Runs the repository's GPU work on a machine with an NVIDIA GPU, in one go, and leaves every log
# under $OUT (default: ./gpu-results). `scripts/maintainers/gpu_machine_check.sh --help` lists the steps and the
# environment variables.
set -uo pipefail
cd "$(dirname "$0")/../.."
ALL_STEPS=(build test sanitize profile long ladders ch08 scan histogram sweep)

usage() {
  cat <<'EOF'
Usage: scripts/maintainers/gpu_machine_check.sh [STEP...]

Runs the repository's GPU work on a machine with an NVIDIA GPU and leaves every log under $OUT,
with a summary in $OUT/summary.txt. Steps (default: all of them, in this order):
  build      configure and build into $BUILD (Release)
  test       ctest, the default run less the sanitizer label (the labels long and exercise are
             left out: profile is in long)
  sanitize   ctest -L sanitizer (compute-sanitizer over every stage program)
  profile    ctest -L profile (each chapter's Nsight Compute counter claims)
  long       ctest -L long -LE profile (every type past 2^31, the 100-run repeats)
  ladders    chapter 7's ladder at 2^k floats for k in $LADDER_SIZES, and double / int at 2^k for
             k in $LADDER_TYPED_SIZES: reduce_ladder_2e<k>_<type>.csv / .md
  ch08       chapter 8's ladders (float sum, float max, int sum) at 2^k for k in $LADDER8_SIZES,
             reduce_barriers, atomic_vs_deterministic
  scan       chapter 8's scan ladder for each type in $SCAN_TYPES, exclusive and inclusive, at 2^k
             for k in $SCAN_SIZES: scan_ladder_2e<k>_<type>[_inclusive].csv / .md
  histogram  chapter 8's histogram ladder, uint8, for each of uniform one-bin zipf image at 2^k for
             k in $HIST_SIZES, and the contention sweep at 2^27: histogram_ladder_2e<k>_uint8_<dist>
  sweep      scripts/size_sweep.sh over chapter 7's ladder into $OUT/sweep
Steps run only when named:
  shapes     scan stage 8's every --pipeline shape (or those in $SHAPES), its default at the blocks
             in $SHAPE_BLOCKS ["128 512"] and stage 7's every --tuning knob (or those in $KNOBS; empty:
             none) at 2^k floats for k in $SHAPE_SIZES ["28"], then the scan ladder there (stages 7
             and 8 beside CUB and the copy) in the same run: $OUT/scan_shapes_2e<k>_float.txt (each
             run's time, throughput and verdict lines), scan_shapes_2e<k>_float/ (each run's CSV),
             scan_ladder_2e<k>_float_stages7_8.csv / .md
  limits     the default run less the sanitizer and arch labels again under each TUTORIAL_DEVICE_LIMITS
             setting in $LIMITS ["smem=99KiB,memory=16GB sm_75"], so that a smaller GPU's refusals
             and skips are seen on this one: $OUT/ctest_limits_<setting>.log; then the refusals
             themselves (stage programs and a ladder under sm_75, sizes past 2^62):
             $OUT/refusals.txt
  multigpu   ctest -L multigpu, then the multi-GPU tables (strong scaling of multi_gpu_reduce at
             2^28, 2^30 and 2^31 + 5 floats, multi_gpu_allreduce at 2^16 .. 2^28) into
             $OUT/multi_gpu (needs NCCL; more than one GPU for more than G = 1)
  causes     scripts/maintainers/step_causes.py over each ladder CSV in $CAUSES_LADDERS [$OUT/reduce_ladder_2e28_float.csv,
             made by the ladders step]: both stages of every step below 1.05x under ncu, with a
             verdict: $OUT/step_causes_<ladder>.md / .log, the reports in $OUT/step_causes_<ladder>/
  hostmem    the default run (the sanitizers included) under TUTORIAL_DEVICE_LIMITS=$HOSTMEM_LIMIT
             [host=16GB], the machine's used memory sampled every 0.5 s: $OUT/ctest_hostmem.log,
             $OUT/hostmem_used_bytes.txt, the peak above idle in the summary
  coverage   every problem and type at every size 2^10 .. 2^30: chapter 7's ladder (sum) and chapter
             8's (sum, max, min) over float, double and int ($COVER_TYPES), the scan (exclusive and
             inclusive) and the uint8 histogram (uniform one-bin zipf image, $COVER_DISTS), the fast
             stages only, each with CUB and the ceilings in the same run (--sizes, graph-replayed):
             coverage_<problem>_<type>[_<op>|_<dist>]_{small,large}.csv / .md ($COVER_SMALL
             [2^10,2^12,..,2^20] at 100 runs per sample, $COVER_LARGE [2^22,..,2^30] at $COVER_LARGE_RUNS [3];
             $COVER_PROBLEMS [reduce scan histogram] picks problems)
  commands   scripts/maintainers/run_doc_commands.py --skip tutorial.sh, the cmake commands first, then the
             others: every command the README and the chapter pages show, as printed, from the
             repository's root ($OUT/doc_commands.log, each command's whole output in
             $OUT/doc_commands/); the pages say build/, so a link build -> $BUILD is made when
             there is no build/

Environment (default in brackets):
  OUT                 log folder [./gpu-results]
  BUILD               build folder [build-gpu]
  JOBS                parallel build jobs [nproc]
  LADDER_SIZES        exponents of chapter 7's float ladders ["20 22 24 26 28 30"]
  LADDER_TYPED_SIZES  exponents of chapter 7's double and int ladders ["28"]
  LADDER8_SIZES       exponents of chapter 8's ladders ["28"]
  SCAN_SIZES          exponents of the scan ladders ["26 28 30"]
  SCAN_TYPES          element types of the scan ladders ["float int double"]
  HIST_SIZES          exponents of the histogram ladders ["28 30"]
  CTEST_ARGS          extra ctest flags for the test step [none]
  LONG_ARGS           extra ctest flags for the long step, e.g. "-R solutions_ch07|test_scan_gpu" [none]
  SWEEP_ARGS          extra size_sweep.sh flags [none]
  CAUSES_LADDERS      ladder CSVs for the causes step [$OUT/reduce_ladder_2e28_float.csv]
  CAUSES_ARGS         extra step_causes.py flags, e.g. "--n 2^26" [none]

Exit code: 0 every step passed, 1 a step failed, 2 bad command line.
Example: OUT=/tmp/run1 scripts/maintainers/gpu_machine_check.sh build ladders ch08
EOF
}

steps=()
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    build|test|sanitize|profile|long|ladders|ch08|scan|histogram|sweep|shapes|limits|multigpu|causes|commands|coverage|hostmem) steps+=("$arg") ;;
    *) echo "gpu_machine_check.sh: error: unknown step or option '$arg' (steps: ${ALL_STEPS[*]} shapes limits multigpu causes commands coverage hostmem; --help)" >&2
       exit 2 ;;
  esac
done
[ ${#steps[@]} -eq 0 ] && steps=("${ALL_STEPS[@]}")

OUT=${OUT:-$PWD/gpu-results}
BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
LADDER_SIZES=${LADDER_SIZES:-"20 22 24 26 28 30"}
LADDER8_SIZES=${LADDER8_SIZES:-"28"}
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
  if ctest --test-dir "$BUILD" --output-on-failure --timeout 1500 -LE '^(profile|sanitizer|exercise|long)$' ${CTEST_ARGS:-} >"$OUT/ctest.log" 2>&1; then note "ctest: ok"; else note "ctest: FAILED"; status=1; fi
  tail -25 "$OUT/ctest.log" | tee -a "$OUT/summary.txt"
fi

for label in sanitizer profile; do
  step=$([ $label = sanitizer ] && echo sanitize || echo profile)
  want $step || continue
  if ctest --test-dir "$BUILD" --output-on-failure -L $label >"$OUT/$label.log" 2>&1; then note "$label tests: ok"; else note "$label tests: FAILED"; status=1; fi
  tail -30 "$OUT/$label.log" >>"$OUT/summary.txt"
done
if want long; then
  read -ra long_args <<<"${LONG_ARGS:-}"  # words, not globbed: a regex keeps its * ? [
  if ctest --test-dir "$BUILD" --output-on-failure -L '^long$' -LE '^profile$' "${long_args[@]}" >"$OUT/long.log" 2>&1; then note "long tests: ok"; else note "long tests: FAILED"; status=1; fi
  tail -25 "$OUT/long.log" | tee -a "$OUT/summary.txt"
fi
[ -d "$BUILD/gpu-tools" ] && cp -r "$BUILD/gpu-tools" "$OUT/" 2>/dev/null

# prog <name>: the program <name> under $BUILD's chapter folders, subfolders included ("" if absent).
prog() { find "$BUILD"/ch[0-9][0-9]_* -type f -name "$1" -perm -u+x 2>/dev/null | sort | head -1; }
missing() { note "$1: not built under $BUILD (skipped)"; status=1; }

run_ladder() {  # run_ladder <program name> <tag> <args...>: CSV + Markdown under $OUT
  local lad tag=$2; lad=$(prog "$1"); shift 2
  [ -n "$lad" ] || { missing "$tag"; return 0; }
  if "$lad" "$@" --csv "$OUT/$tag.csv" --md "$OUT/$tag.md" >"$OUT/$tag.log" 2>&1; then note "$tag: ok"; else note "$tag: FAILED"; status=1; fi
  cat "$OUT/$tag.md" 2>/dev/null
}
if want limits; then
  for setting in ${LIMITS:-smem=99KiB,memory=16GB sm_75}; do
    tag=$(echo "$setting" | tr -c 'A-Za-z0-9_\n' '_')
    # One test at a time: processes sharing one GPU time-slice it, and on the H100 a -j 4 run took
    # longer than a serial one (468 s against 324 s). The arch label (device code compiled for sm_75,
    # no GPU read) is left out: it does not depend on the limits.
    if TUTORIAL_DEVICE_LIMITS=$setting ctest --test-dir "$BUILD" --output-on-failure --timeout 1500 \
         -LE '^(profile|sanitizer|exercise|long|arch)$' ${CTEST_ARGS:-} >"$OUT/ctest_limits_$tag.log" 2>&1; then
      note "ctest as if TUTORIAL_DEVICE_LIMITS=$setting: ok"
    else
      note "ctest as if TUTORIAL_DEVICE_LIMITS=$setting: FAILED"; status=1
    fi
    grep -E "tests passed|tests failed|Total Test time|\*\*\*Skipped|\*\*\*Failed|Failed  " "$OUT/ctest_limits_$tag.log" | tail -40 | tee -a "$OUT/summary.txt"
  done
  # The refusals a reader sees: each command, its exit code and its message.
  r="$OUT/refusals.txt"; : >"$r"
  refuse() {  # refuse <setting or -> <program> <args...>
    local setting=$1 p; p=$(prog "$2"); shift 2
    [ -n "$p" ] || { echo "missing program" >>"$r"; return; }
    local env_text=""; [ "$setting" = - ] || env_text="TUTORIAL_DEVICE_LIMITS=$setting "
    echo "\$ $env_text$(basename "$p") $*" >>"$r"
    if [ "$setting" = - ]; then "$p" "$@" >>"$r" 2>&1; else TUTORIAL_DEVICE_LIMITS=$setting "$p" "$@" >>"$r" 2>&1; fi
    echo "(exit $?)" >>"$r"
  }
  refuse sm_75 histogram_stage_5 --block 256 --n 2^20
  refuse sm_75 histogram_stage_5 --n 2^20
  refuse sm_75 scan_stage_8 --n 2^20
  refuse sm_75 scan_stage_7 --tuning occ75 --n 2^20
  refuse smem=99KiB histogram_stage_7 --bins 1024 --block 256 --n 2^20
  refuse memory=16GB scan_stage_4 --n 2^31+1 --type int
  for t in float double int; do
    refuse - reduce_kernel_9 --n 2^62 --type $t
    refuse - reduce_kernel_9 --n 2^62+5 --type $t
  done
  for t in uint8 int float; do refuse - histogram_stage_7 --n 2^62 --type $t; done
  refuse sm_75 scan_ladder --n 2^22 --iters 3 --warmup 1
  refuse sm_75 histogram_ladder --n 2^22 --iters 3 --warmup 1 --type uint8 --block 256
  note "refusals: $(grep -c '^\$' "$r") commands, in $r"
fi

if want ladders; then
  for k in $LADDER_SIZES; do
    run_ladder reduce_ladder "reduce_ladder_2e${k}_float" --n 2^$k --iters 50
  done
  for k in ${LADDER_TYPED_SIZES-28}; do
    for t in double int; do
      run_ladder reduce_ladder "reduce_ladder_2e${k}_$t" --n 2^$k --iters 50 --type $t
    done
  done
fi

if want ch08; then
  for k in $LADDER8_SIZES; do
    run_ladder reduce_ladder_ch08 "reduce_ladder_ch08_2e${k}_float_sum" --n 2^$k --iters 50
    run_ladder reduce_ladder_ch08 "reduce_ladder_ch08_2e${k}_float_max" --n 2^$k --iters 50 --op max
    run_ladder reduce_ladder_ch08 "reduce_ladder_ch08_2e${k}_int_sum" --n 2^$k --iters 50 --type int
  done
  p=$(prog reduce_barriers)
  if [ -n "$p" ]; then "$p" --blocks 256 512 >"$OUT/ch08_barriers.txt" 2>&1; else missing reduce_barriers; fi
  p=$(prog atomic_vs_deterministic)
  if [ -n "$p" ]; then "$p" --n 2^26 --runs 100 >"$OUT/ch08_atomic_vs_deterministic.txt" 2>&1; else missing atomic_vs_deterministic; fi
  cat "$OUT/ch08_barriers.txt" "$OUT/ch08_atomic_vs_deterministic.txt" 2>/dev/null | tee -a "$OUT/summary.txt"
fi

if want scan; then
  for k in ${SCAN_SIZES:-26 28 30}; do
    for t in ${SCAN_TYPES:-float int double}; do
      run_ladder scan_ladder "scan_ladder_2e${k}_$t" --n 2^$k --type $t --iters 30
      run_ladder scan_ladder "scan_ladder_2e${k}_${t}_inclusive" --n 2^$k --type $t --iters 30 --inclusive
    done
  done
fi

if want shapes; then
  s8=$(prog scan_stage_8); s7=$(prog scan_stage_7)
  if [ -n "$s8" ] && [ -n "$s7" ]; then
    # choices <program> <flag>: the values the program's --help lists for the flag.
    choices() { "$1" --help | sed -n "s/.*$2 TEXT:{\([^}]*\)}.*/\1/p" | tr ',' ' '; }
    shapes=${SHAPES:-$(choices "$s8" --pipeline)}; knobs=${KNOBS-$(choices "$s7" --tuning)}
    [ -n "$shapes" ] || shapes="default"
    # shape_run <program> <flag> <value> <csv name>: one run at 2^k, its lines into $f, its CSV into $c.
    shape_run() {
      echo "### $(basename "$1") $2 $3" >>"$f"
      "$1" --n 2^$k "$2" "$3" --csv "$c/$4.csv" 2>&1 | grep -E "time:|throughput:|verify:" >>"$f" || status=1
    }
    for k in ${SHAPE_SIZES:-28}; do
      f="$OUT/scan_shapes_2e${k}_float.txt"; : >"$f"
      c="$OUT/scan_shapes_2e${k}_float"; rm -rf "$c"; mkdir -p "$c"  # one CSV per run: --csv rewrites its file
      for v in $shapes; do shape_run "$s8" --pipeline "$v" "scan_stage_8_$v"; done
      for b in ${SHAPE_BLOCKS-128 512}; do shape_run "$s8" --block "$b" "scan_stage_8_block$b"; done
      for t in $knobs; do shape_run "$s7" --tuning "$t" "scan_stage_7_$t"; done
      note "scan shapes 2^$k: $(grep -c '^###' "$f") runs, $(grep -c 'verify: *PASS' "$f") verified"
      run_ladder scan_ladder "scan_ladder_2e${k}_float_stages7_8" --n 2^$k --iters 30 --stages scan_stage_7,scan_stage_8
    done
  else
    missing "scan_stage_7 / scan_stage_8"
  fi
fi

if want histogram; then
  for k in ${HIST_SIZES:-28 30}; do
    for d in uniform one-bin zipf image; do
      run_ladder histogram_ladder "histogram_ladder_2e${k}_uint8_$d" --n 2^$k --type uint8 --dist $d --iters 20 --max-seconds 4
    done
  done
  p=$(prog histogram_contention)
  if [ -n "$p" ] && "$p" --n 2^27 --iters 10 --warmup 2 --max-seconds 1 --csv "$OUT/histogram_contention_2e27_uint8.csv" \
       >"$OUT/histogram_contention_2e27_uint8.txt" 2>&1; then note "histogram contention: ok"; else note "histogram contention: FAILED"; status=1; fi
fi

if want hostmem; then
  # The default run (sanitizers included) as on a 16 GB desktop, the machine's used memory sampled
  # every 0.5 s: its peak above the idle baseline goes into the summary.
  setting=${HOSTMEM_LIMIT:-host=16GB}
  base=$(free -b | awk '/Mem:/{print $3}')
  ( while sleep 0.5; do free -b | awk '/Mem:/{print $3}'; done ) > "$OUT/hostmem_used_bytes.txt" &
  sampler=$!
  if TUTORIAL_DEVICE_LIMITS=$setting ctest --test-dir "$BUILD" --output-on-failure -j 4 -LE '^(exercise|long)$' \
       ${CTEST_ARGS:-} >"$OUT/ctest_hostmem.log" 2>&1; then note "ctest as if TUTORIAL_DEVICE_LIMITS=$setting: ok"
  else note "ctest as if TUTORIAL_DEVICE_LIMITS=$setting: FAILED"; status=1; fi
  kill "$sampler" 2>/dev/null
  peak=$(sort -n "$OUT/hostmem_used_bytes.txt" | tail -1)
  note "host memory in use: $base bytes idle, $peak at the peak, $((peak - base)) above idle"
  grep -E "tests passed|tests failed|\*\*\*Skipped" "$OUT/ctest_hostmem.log" | tail -30 | tee -a "$OUT/summary.txt"
fi

if want coverage; then
  # Every problem, type and size from 2^10 to 2^30, the fast stages beside CUB and the ceilings in
  # the same run (graph-replayed, L2 warm where the input fits): one file per problem, type and
  # size range. Small sizes take 100 runs per sample; large ones $COVER_LARGE_RUNS.
  small=${COVER_SMALL:-2^10,2^12,2^14,2^16,2^18,2^20}; large=${COVER_LARGE:-2^22,2^24,2^26,2^28,2^30}
  cover() {  # cover <program> <tag> <args...>
    local p=$1 tag=$2; shift 2
    run_ladder "$p" "${tag}_small" --sizes "$small" --iters 20 --warmup 3 "$@" >/dev/null
    run_ladder "$p" "${tag}_large" --sizes "$large" --iters 10 --warmup 2 --runs-per-sample "${COVER_LARGE_RUNS:-3}" "$@" >/dev/null
  }
  problems=" ${COVER_PROBLEMS:-reduce scan histogram} "
  for t in ${COVER_TYPES:-float double int}; do
    if [[ $problems == *" reduce "* ]]; then
      cover reduce_ladder "coverage_reduce_ch07_${t}_sum" --type "$t" \
        --stages reduce_kernel_9,reduce_kernel_10,reduce_kernel_11,reduce_kernel_12,reduce_kernel_13
      for op in sum max min; do
        cover reduce_ladder_ch08 "coverage_reduce_ch08_${t}_$op" --type "$t" --op "$op" --stages reduce_stage_4,reduce_stage_5,reduce_stage_7,reduce_stage_8,reduce_stage_9,reduce_stage_10
      done
    fi
    if [[ $problems == *" scan "* ]]; then
      cover scan_ladder "coverage_scan_${t}" --type "$t" --stages scan_stage_7,scan_stage_8,scan_stage_9
      cover scan_ladder "coverage_scan_${t}_inclusive" --type "$t" --inclusive --stages scan_stage_7,scan_stage_8,scan_stage_9
    fi
  done
  [[ $problems == *" histogram "* ]] || COVER_DISTS=" "
  for d in ${COVER_DISTS:-uniform one-bin zipf image}; do
    cover histogram_ladder "coverage_histogram_uint8_$d" --type uint8 --dist "$d" \
      --stages histogram_stage_4,histogram_stage_5,histogram_stage_6,histogram_stage_7,histogram_stage_8,histogram_stage_9,histogram_stage_10
  done
fi

if want causes; then
  for csv in ${CAUSES_LADDERS:-$OUT/reduce_ladder_2e28_float.csv}; do
    tag=$(basename "$csv" .csv)
    if [ ! -f "$csv" ]; then
      note "step causes $tag: no ladder at $csv (run the ladders step first, or set CAUSES_LADDERS)"; status=1; continue
    fi
    read -ra causes_args <<<"${CAUSES_ARGS:-}"
    python3 scripts/maintainers/step_causes.py "$csv" --build-dir "$BUILD" --reports "$OUT/step_causes_$tag" \
      --md "$OUT/step_causes_$tag.md" "${causes_args[@]}" >"$OUT/step_causes_$tag.log" 2>&1
    rc=$?
    case $rc in
      0) note "step causes $tag: ok (every step below 1.05x has a verdict)" ;;
      77) note "step causes $tag: skipped (no ncu or no GPU)" ;;
      *) note "step causes $tag: FAILED (exit $rc)"; status=1 ;;
    esac
    grep -E "^(RESULT|ERROR)|step\(s\) below" "$OUT/step_causes_$tag.log" | tee -a "$OUT/summary.txt"
  done
fi

if want sweep; then
  if scripts/size_sweep.sh --ladder "$(prog reduce_ladder)" --out "$OUT/sweep" ${SWEEP_ARGS:-} >"$OUT/sweep.log" 2>&1; then note "size sweep: ok"; else note "size sweep: FAILED"; status=1; fi
fi
if want multigpu; then
  export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off (see multi_gpu/README.md)
  mkdir -p "$OUT/multi_gpu"
  if ctest --test-dir "$BUILD" --output-on-failure -L multigpu >"$OUT/multi_gpu/ctest.log" 2>&1; then note "multigpu tests: ok"; else note "multigpu tests: FAILED"; status=1; fi
  p=$(prog multi_gpu_reduce); q=$(prog multi_gpu_allreduce)
  if [ -n "$p" ] && [ -n "$q" ]; then
    "$p" --scaling --n 2^28 2^30 2^31+5 --md "$OUT/multi_gpu/reduce_float.md" --csv "$OUT/multi_gpu/reduce_float.csv" >"$OUT/multi_gpu/reduce_float.log" 2>&1 || { note "multi_gpu_reduce: FAILED"; status=1; }
    "$q" --sizes 2^16 2^20 2^24 2^26 2^28 --md "$OUT/multi_gpu/allreduce.md" --csv "$OUT/multi_gpu/allreduce.csv" >"$OUT/multi_gpu/allreduce.log" 2>&1 || { note "multi_gpu_allreduce: FAILED"; status=1; }
    cat "$OUT/multi_gpu/reduce_float.md" "$OUT/multi_gpu/allreduce.md" 2>/dev/null
  else
    note "multigpu: the programs are not built under $BUILD (no NCCL at configure time?)"; status=1
  fi
fi

if want commands; then
  [ -e build ] || [ "$BUILD" = build ] || ln -s "$BUILD" build
  # The cmake commands first, then the rest: with no cmake command between them, the ctest commands
  # run broadest first and the narrower ones stand on the whole suite's passes (run_doc_commands.py).
  rc_cmds=0
  python3 scripts/maintainers/run_doc_commands.py --only "cmake " --skip tutorial.sh --logs "$OUT/doc_commands/cmake" >"$OUT/doc_commands.log" 2>&1 || rc_cmds=1
  python3 scripts/maintainers/run_doc_commands.py --skip "cmake " --skip tutorial.sh --logs "$OUT/doc_commands/rest" >>"$OUT/doc_commands.log" 2>&1 || rc_cmds=1
  if [ $rc_cmds -eq 0 ]; then note "README commands: ok"; else note "README commands: FAILED"; status=1; fi
  tail -3 "$OUT/doc_commands.log" | tee -a "$OUT/summary.txt"
fi

note "exit status $status"
exit $status
