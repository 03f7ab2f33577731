#!/usr/bin/env bash
# One entry point for a fresh Debian/Ubuntu machine that has the CUDA Toolkit:
#   scripts/tutorial.sh ladders   set up, build, then run the chapter ladders on the GPU
#   scripts/tutorial.sh test      set up, build, run every test, build the Doxygen site
# Set-up: the Debian/Ubuntu packages the build needs are installed when run as root (apt-get);
# otherwise the exact install line is printed. `scripts/tutorial.sh --help` lists the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
Usage: scripts/tutorial.sh ladders|test

  ladders   set up, build, then run the chapter ladders on the GPU (tables in build/results/)
  test      set up, build, run every test (GPU tests are skipped without a GPU), build the docs

Set-up installs the Debian/Ubuntu packages the build, the plots and the docs need when run as root
(apt-get, quietly: its log goes to build/apt-get.log and is shown only if it fails); as another
user it prints the exact `sudo apt-get install` line and carries on.

Environment: JOBS (parallel build jobs, default nproc), TUTORIAL_NO_INSTALL=1 (never call apt-get),
LADDER_N (ladder size, default 2^28).
Exit codes: 0 done (also when `ladders` finds no GPU: it says so), 1 a step failed, 2 bad command line.
EOF
}

mode=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    ladders|test) [ -z "$mode" ] || { echo "tutorial.sh: error: one mode only (got $mode and $arg)" >&2; exit 2; }
                  mode=$arg ;;
    *) echo "tutorial.sh: error: unknown argument '$arg' (usage: scripts/tutorial.sh ladders|test; --help)" >&2
       exit 2 ;;
  esac
done
if [ -z "$mode" ]; then
  usage >&2
  exit 2
fi

# --- set-up -------------------------------------------------------------------------------------
# python3-matplotlib and python3-pandas draw the figures (scripts/make_figures.sh).
PACKAGES=(cmake g++ make catch2 libcli11-dev nlohmann-json3-dev doxygen python3 python3-matplotlib python3-pandas)
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && [ "${TUTORIAL_NO_INSTALL:-0}" != 1 ] && command -v apt-get >/dev/null; then
    echo "== installing: ${missing[*]} (apt-get; log: build/apt-get.log)"
    mkdir -p build
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
         >build/apt-get.log 2>&1; then
      tail -n 30 build/apt-get.log >&2
      echo "warning: apt-get could not install ${missing[*]} (above: the end of build/apt-get.log);" \
           "trying the build with what is there" >&2
    fi
  else
    echo "== these packages are not installed: ${missing[*]}"
    echo "   install them with:  sudo apt-get install -y ${missing[*]}"
    echo "   (continuing: CMake will say what is really missing)"
  fi
fi

if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "error: nvcc not found. Install the CUDA Toolkit (tested with 13.0; it brings CCCL: CUB, Thrust)" >&2
    echo "       and put its bin/ on PATH, e.g. export PATH=/usr/local/cuda/bin:\$PATH" >&2
    exit 1
  fi
fi

# --- build --------------------------------------------------------------------------------------
extra=()
# Packages unpacked by hand into .deps/usr (for machines with no apt access) are found too.
[ -d .deps/usr ] && extra+=(-DCMAKE_PREFIX_PATH="$PWD/.deps/usr")
echo "== configuring (cmake --preset release)"
cmake --preset release "${extra[@]}"
echo "== building with ${JOBS:=$(nproc)} jobs"
cmake --build --preset release -j "$JOBS"

# --- the job ------------------------------------------------------------------------------------
if [ "$mode" = test ]; then
  echo "== running the tests (GPU tests are reported as skipped where there is no GPU)"
  rc=0
  ctest --preset release || rc=$?
  echo "== building the documentation (target docs; a Doxygen warning fails it)"
  cmake --build --preset release --target docs || rc=$((rc ? rc : 1))
  exit $rc
fi

rc=0
build/ch07_reduction_opt/roofline >/dev/null 2>&1 || rc=$?
if [ $rc -eq 77 ]; then
  echo "== built everything, but no CUDA GPU was found on this machine: no ladder was run."
  echo "   Run scripts/tutorial.sh ladders on a machine with an NVIDIA GPU."
  exit 0
elif [ $rc -ne 0 ]; then
  echo "error: the GPU could not be queried:" >&2
  build/ch07_reduction_opt/roofline >&2 || true
  exit $rc
fi
N=${LADDER_N:-2^28}
out=build/results
mkdir -p "$out"
build/ch07_reduction_opt/roofline
build/ch07_reduction_opt/reduce_ladder --n "$N" --csv "$out/ch07_ladder.csv" --md "$out/ch07_ladder.md"
build/ch08_reduction_scan_histogram/reduce_ladder_ch08 --n "$N" --csv "$out/ch08_ladder.csv" --md "$out/ch08_ladder.md"
build/ch08_reduction_scan_histogram/scan_ladder --n "$N" --csv "$out/ch08_scan_ladder.csv" --md "$out/ch08_scan_ladder.md"
for d in uniform one-bin; do
  build/ch08_reduction_scan_histogram/histogram_ladder --n "$N" --type uint8 --dist "$d" \
    --csv "$out/ch08_histogram_ladder_$d.csv" --md "$out/ch08_histogram_ladder_$d.md"
done
echo "== ladders written to $out/"
