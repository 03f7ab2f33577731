#!/usr/bin/env bash
# Builds and runs one exercise's check, and says in words what is wrong:
#   scripts/exercise.sh ch07/03              the stub you are working on (exercises/ch07/03_*.cuh)
#   scripts/exercise.sh ch07/03 --solution   the same test against solutions/ch07/03_*.cuh
#                                            (built into solutions_ch07, run as its [ch07_03] tests)
#   scripts/exercise.sh --stubs-fail         every stub's test must fail (no exercise ships solved)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF2'
Usage: scripts/exercise.sh CHAPTER/NUMBER [--solution]
       scripts/exercise.sh --stubs-fail

  CHAPTER/NUMBER  the exercise, e.g. ch07/03 for exercises/ch07/03_grid_stride_loop.cuh, or
                  ch08/05 for exercises/ch08/05_decoupled_lookback.cuh
  --solution      check the solution (solutions/...) instead of your stub
  --stubs-fail    build and run every stub's test; each must FAIL (for maintainers: an exercise
                  never ships solved)

Builds the exercise's test (target exercise_<chapter>_<number>; with --solution the chapter's
solutions_<chapter>, run for its [<chapter>_<number>] tests) in the build folder, runs it on the GPU,
then summarises: which types, sizes and block sizes give a wrong answer and the first wrong value,
or that every check passed. The full Catch2 output is in BUILD/exercises/<test>.log
(exercise_<chapter>_<number>.log, or solution_<chapter>_<number>.log with --solution).

Environment: BUILD (build folder, default build; configured with CMake if it has no CMakeCache.txt),
JOBS (parallel build jobs, default nproc).
Exit codes: 0 every check passed, 1 a check failed (or, with --stubs-fail, a stub passed), 2 bad
command line or unknown exercise, 3 the build failed, 77 no GPU (the exercise still compiled).
EOF2
}

exercise="" variant=exercise all_stubs=0
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --solution) variant=solution ;;
    --stubs-fail) all_stubs=1 ;;
    ch[0-9][0-9]/[0-9][0-9]) [ -z "$exercise" ] || { echo "exercise.sh: error: one exercise at a time (got $exercise and $arg)" >&2; exit 2; }
                             exercise=$arg ;;
    *) echo "exercise.sh: error: unknown argument '$arg' (expected CHAPTER/NUMBER such as ch07/03, --solution, --stubs-fail; --help)" >&2
       exit 2 ;;
  esac
done

BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

configure() {
  if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    echo "Configuring $BUILD (first time only) ..."
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >"$BUILD.configure.log" 2>&1 ||
      { tail -30 "$BUILD.configure.log"; echo "exercise.sh: configuring $BUILD failed (log: $BUILD.configure.log)" >&2; exit 3; }
  fi
}

build() {  # build <target>
  echo "Building $1 ..."
  if ! cmake --build "$BUILD" -j "$JOBS" --target "$1" >"$BUILD/exercise-build.log" 2>&1; then
    grep -E "error|Error" "$BUILD/exercise-build.log" | head -20
    echo
    echo "The exercise does not compile: the compiler's first errors are above (all of it: $BUILD/exercise-build.log)." >&2
    exit 3
  fi
}

# summarise <log>: the failures of a Catch2 console log, in words.
summarise() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
# One failure: "...: FAILED:" up to the next one. Catch2 wraps long messages at 80 columns, so the
# lines after "with messages:" (up to a blank line) are joined before they are read.
ctx = re.compile(r"(\S+): type (\S+), .*?\bn (\d+), block (\d+)(.*)$")
detail_re = re.compile(r"\s((?:exact|bound|not checked|overflow)\S*:.*)$")
fails, first = [], None
for failure in re.split(r"\n(?=[^\n]*FAILED:[ \t]*\n)", text)[1:]:
    msgs = ""
    if "with messages:" in failure:
        part = failure.split("with messages:", 1)[1].lstrip("\n").split("\n\n", 1)[0]
        msgs = " ".join(l.strip() for l in part.splitlines() if l.strip())
    d = detail_re.search(msgs)
    detail = d.group(1) if d else ""
    where = msgs[:d.start()] if d else msgs
    c = ctx.search(where)
    if c:
        extra = re.sub(r",?\s*seed\s*\d*", "", c.group(5)).strip(", ")  # the seed is not a cause
        fails.append((c.group(2), int(c.group(3)), int(c.group(4)), extra))
        if first is None:
            first = (c.group(0).strip(), detail)
    elif first is None:
        lines = [l.strip() for l in failure.strip().splitlines() if l.strip()]
        first = (msgs or (lines[-1] if lines else "?"), detail)
if not fails and first is None:
    sys.exit(0)
print("What is wrong:")
if fails:
    by_type = {}
    for t, n, b, extra in fails:
        by_type.setdefault(t, {}).setdefault(n, set()).add(b)
    for t, sizes in by_type.items():
        ns = sorted(sizes)
        shown = ", ".join(f"{n} (block {', '.join(map(str, sorted(sizes[n])))})" for n in ns[:8])
        more = f" and {len(ns) - 8} more sizes" if len(ns) > 8 else ""
        print(f"  {t}: wrong result at n = {shown}{more}")
    extras = sorted({e for *_, e in fails if e})
    for e in extras[:6]:
        print(f"  also wrong with: {e}")
if first:
    print(f"  first failure: {first[0]}")
    if first[1]:
        print(f"                 {first[1]}")
print("Read the TODO(student) comments in the exercise: each says what the stub leaves out, which is")
print("the kind of input that fails (sizes past one block, past the grid or one tile, not a multiple of the")
print("vector, an identity or a NaN, ...).")
PY
}

run_test() {  # run_test <test> [<executable> <Catch2 filter>]: 0 pass, 1 fail, 77 no GPU
  local exe="$BUILD/exercises/${2:-$1}" log="$BUILD/exercises/$1.log" rc=0
  echo "Running $1 (the sweep over sizes, block sizes and types can take a minute) ..."
  if [ -n "${3:-}" ]; then "$exe" "$3" >"$log" 2>&1 || rc=$?; else "$exe" >"$log" 2>&1 || rc=$?; fi
  if [ $rc -eq 77 ]; then
    echo "No GPU found: $1 compiled, but its check runs kernels and needs an NVIDIA GPU. Run this again on a machine with one."
    return 77
  fi
  grep -E "warning:|throughput" -A1 "$log" | grep -v "^--$" | sed 's/^/  /' || true
  if [ $rc -eq 0 ]; then
    echo "PASS: every check of $1 passed ($(grep -Eo 'All tests passed.*' "$log" || echo 'see the log'))."
    return 0
  fi
  summarise "$log"
  echo "FAIL: $1 (full output: $log)"
  return 1
}

if [ $all_stubs -eq 1 ]; then
  [ -z "$exercise" ] || { echo "exercise.sh: error: --stubs-fail takes no exercise" >&2; exit 2; }
  configure
  targets=$(cmake --build "$BUILD" --target help 2>/dev/null | grep -Eo 'exercise_ch[0-9]+_[0-9]+' | sort -u)
  [ -n "$targets" ] || { echo "exercise.sh: no exercise targets in $BUILD" >&2; exit 2; }
  status=0
  for t in $targets; do
    build "$t"
    rc=0; run_test "$t" >/dev/null || rc=$?
    case $rc in
      77) echo "No GPU found: the stubs compiled, but whether they fail needs an NVIDIA GPU."; exit 77 ;;
      1) echo "ok: $t fails, as a stub must" ;;
      0) echo "PROBLEM: $t PASSES: the stub is already solved"; status=1 ;;
    esac
  done
  exit $status
fi

[ -n "$exercise" ] || { usage >&2; exit 2; }
chapter=${exercise%/*} number=${exercise#*/}
shopt -s nullglob
files=(exercises/"$chapter"/"$number"_*)
[ ${#files[@]} -eq 1 ] || { echo "exercise.sh: error: no exercise $exercise (exercises/$chapter/${number}_*.cuh); the exercises are: $(cd exercises && ls ch*/[0-9][0-9]_* 2>/dev/null | sed 's/_.*//' | tr '\n' ' ')" >&2; exit 2; }
test=${variant}_${chapter}_${number}
echo "Exercise $exercise: $([ $variant = solution ] && echo "solutions/${files[0]#exercises/}" || echo "${files[0]}")"
configure
rc=0
if [ $variant = solution ]; then
  # Every solution of a chapter is one executable, solutions_<chapter>; its tests are tagged [chNN_NN].
  build "solutions_$chapter"
  run_test "$test" "solutions_$chapter" "[${chapter}_${number}]" || rc=$?
else
  build "$test"
  run_test "$test" || rc=$?
fi
exit $rc
