#!/usr/bin/env bash
# One entry point for a fresh Debian/Ubuntu machine that has the CUDA Toolkit (12.4 or newer):
#   scripts/tutorial.sh ladders   set up, build, then run the chapter ladders on the GPU
#   scripts/tutorial.sh test      set up, build, run every test, build the Doxygen site
# Set-up: the Debian/Ubuntu packages the build needs are installed when run as root (apt-get);
# otherwise the exact install line is printed. A CMake older than 3.22 is replaced by one from PyPI
# in build/cmake-venv. `scripts/tutorial.sh --help` lists the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
Usage: scripts/tutorial.sh ladders|test

  ladders   set up, build, then run the chapter ladders on the GPU; the tables go to
            build/results/<GPU>/ (for example build/results/RTX_4090/), named and laid out as the
            committed ones in docs/results/H200/, with an index README.md
  test      set up, build, run every test (GPU tests are skipped without a GPU), build the docs
            (skipped, with a note, where Doxygen is missing; under CI=true that fails)

Needs the CUDA Toolkit 12.4 or newer (nvcc on PATH or in /usr/local/cuda/bin) and CMake 3.22 or
newer. Set-up installs the Debian/Ubuntu packages the build, the plots and the docs need when run as
root (apt-get, quietly: its log goes to build/apt-get.log and is shown only if it fails); as another
user it prints the exact `sudo apt-get install` line and carries on. Where the CMake found is older
than 3.22, it installs one from PyPI into build/cmake-venv (python3 -m venv, pip) and uses that.

Environment: JOBS (parallel build jobs, default nproc), TUTORIAL_NO_INSTALL=1 (never call apt-get
or pip), LADDER_N (ladder size, default 2^28), TUTORIAL_DEVICE_LIMITS (run as if the GPU were a
smaller one, e.g. sm_75; docs/your_gpu.md), CI=true (then a missing Doxygen fails `test`).
Exit codes: 0 done (also when `ladders` finds no GPU: it says so), 1 a step failed (for `test`: a
test failed, or, under CI=true, the docs), 2 bad command line.
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
under_ci=0
case "${CI:-}" in true|1|yes) under_ci=1 ;; esac

# --- set-up -------------------------------------------------------------------------------------
# python3-matplotlib and python3-pandas draw the figures (scripts/maintainers/make_figures.sh).
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

# CMake 3.22 or newer (Ubuntu 22.04's; CMakeLists.txt and CMakePresets.json say why). An older one
# (Ubuntu 20.04 has 3.16) is replaced by CMake from PyPI in build/cmake-venv, kept for later runs:
# a 3.x (CMake 4 also works here, but drops support for packages whose CMake files predate 3.5, which
# an old distribution's may).
MIN_CMAKE=3.22
version_at_least() {  # version_at_least <have> <need>: true when have >= need
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}
cmake_version() {
  { "$1" --version 2>/dev/null || true; } | sed -n 's/^cmake version \([0-9][0-9.]*\).*/\1/p'
}
[ -x build/cmake-venv/bin/cmake ] && export PATH="$PWD/build/cmake-venv/bin:$PATH"
have_cmake=""
command -v cmake >/dev/null && have_cmake=$(cmake_version cmake)
if [ -z "$have_cmake" ] || ! version_at_least "$have_cmake" "$MIN_CMAKE"; then
  found="${have_cmake:+CMake $have_cmake}"
  echo "== ${found:-no CMake} found; this build needs CMake $MIN_CMAKE or newer (for its presets)"
  if [ "${TUTORIAL_NO_INSTALL:-0}" != 1 ] && command -v python3 >/dev/null; then
    echo "   installing CMake from PyPI into build/cmake-venv (pip; log: build/cmake-venv.log)"
    mkdir -p build
    if { python3 -m venv build/cmake-venv &&
         build/cmake-venv/bin/pip install -q "cmake>=$MIN_CMAKE,<4"; } >build/cmake-venv.log 2>&1; then
      export PATH="$PWD/build/cmake-venv/bin:$PATH"
      echo "   using $(command -v cmake) ($(cmake_version cmake))"
    else
      tail -n 20 build/cmake-venv.log >&2
      echo "error: could not install CMake from PyPI (above: the end of build/cmake-venv.log). Install" >&2
      echo "       CMake $MIN_CMAKE or newer yourself, e.g. sudo apt-get install python3-venv and run this" >&2
      echo "       again, or: python3 -m pip install --user cmake (then ~/.local/bin on PATH)" >&2
      exit 1
    fi
  else
    echo "error: install CMake $MIN_CMAKE or newer (e.g. python3 -m venv v && v/bin/pip install cmake," >&2
    echo "       then put v/bin on PATH), then run this again" >&2
    exit 1
  fi
fi

if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "error: nvcc not found. Install the CUDA Toolkit 12.4 or newer (it brings CCCL: CUB, Thrust)" >&2
    echo "       and put its bin/ on PATH, e.g. export PATH=/usr/local/cuda/bin:\$PATH" >&2
    exit 1
  fi
fi

# nvdisasm or cuobjdump for the SASS checks (cpu.sass_claims_ch07: instruction counts per kernel;
# cmake/SassTests.cmake). A toolkit without them (this CI machine's has neither) gets them from
# PyPI into .whl/cuda-tools, kept for later runs: the release of nvcc's major version (PyPI has
# 13.2 and later; a newer disassembler reads an older compiler's sm_90 code). Without them the SASS
# tests are skipped; under CI=true the claims test fails.
nvcc_bin=$(dirname "$(command -v nvcc)")
if ! command -v nvdisasm >/dev/null && ! command -v cuobjdump >/dev/null &&
   [ ! -x "$nvcc_bin/nvdisasm" ] && [ ! -x "$nvcc_bin/cuobjdump" ] &&
   ! ls .whl/cuda-tools/nvidia/cu*/bin/nvdisasm >/dev/null 2>&1; then
  cuda_major=$(nvcc --version | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p')
  [ "${cuda_major:-0}" -ge 13 ] || cuda_major=13  # no 12.x wheels on PyPI
  pins=("nvidia-cuda-nvdisasm>=$cuda_major.0,<$((cuda_major + 1))" "nvidia-cuda-cuobjdump>=$cuda_major.0,<$((cuda_major + 1))")
  echo "== no nvdisasm or cuobjdump in this toolkit; installing ${pins[*]} from PyPI into .whl/cuda-tools"
  mkdir -p .whl
  if { python3 -m pip install -q --target .whl/cuda-tools "${pins[@]}" ||
       { python3 -m venv .whl/venv && .whl/venv/bin/pip install -q --target .whl/cuda-tools "${pins[@]}"; }
     } >.whl/cuda-tools.log 2>&1; then
    echo "   using $(ls .whl/cuda-tools/nvidia/cu*/bin/nvdisasm)"
  else
    tail -n 20 .whl/cuda-tools.log >&2
    echo "   could not install them (above: the end of .whl/cuda-tools.log): the SASS tests will be skipped" >&2
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

# --- test: the tests decide the exit code ---------------------------------------------------------
if [ "$mode" = test ]; then
  echo "== running the tests (GPU tests are reported as skipped where there is no GPU)"
  rc=0
  ctest --preset release || rc=$?
  tests_rc=$rc
  # The docs need Doxygen 1.9.0 or later (docs/CMakeLists.txt). Without it a reader's test run is
  # not failed for it; CI, which checks the docs, is.
  doxygen_version=""
  command -v doxygen >/dev/null &&
    doxygen_version=$({ doxygen --version 2>/dev/null || true; } | sed -n '1s/^\([0-9][0-9.]*\).*/\1/p')
  if [ -z "$doxygen_version" ] || ! version_at_least "$doxygen_version" 1.9.0; then
    what="Doxygen is not installed"
    [ -n "$doxygen_version" ] && what="Doxygen $doxygen_version is older than 1.9.0"
    if [ $under_ci = 1 ]; then
      echo "== documentation: FAILED: $what (CI=true: the docs are part of CI's check)" >&2
      rc=$((rc ? rc : 1))
    else
      echo "== documentation: skipped: $what. To build the site too: sudo apt-get install doxygen"
      echo "   (1.9.0 or later), then: cmake --preset release && cmake --build --preset release --target docs"
    fi
  else
    echo "== building the documentation (target docs; a Doxygen warning fails it)"
    if cmake --build --preset release --target docs; then
      echo "== documentation: built, build/docs/html/index.html"
    elif [ $under_ci = 1 ]; then
      echo "== documentation: FAILED (above)" >&2
      rc=$((rc ? rc : 1))
    else
      echo "== documentation: FAILED (above: a Doxygen warning or a broken link). The tests decide this" >&2
      echo "   command's exit code; CI (CI=true) fails on it" >&2
    fi
  fi
  if [ $tests_rc -ne 0 ]; then
    echo "== tests: FAILED (ctest exit $tests_rc; above: which ones)" >&2
  else
    echo "== tests: passed"
  fi
  exit $rc
fi

# --- ladders --------------------------------------------------------------------------------------
rc=0
roof=$(build/ch07_reduction_opt/roofline 2>&1) || rc=$?
if [ $rc -eq 77 ]; then
  echo "== built everything, but no CUDA GPU was found on this machine: no ladder was run."
  echo "   Run scripts/tutorial.sh ladders on a machine with an NVIDIA GPU."
  exit 0
elif [ $rc -ne 0 ]; then
  echo "error: the GPU could not be queried:" >&2
  printf '%s\n' "$roof" >&2
  exit $rc
fi
printf '%s\n' "$roof"

# The GPU's name as the programs see it (CUDA's device 0; roofline's "device: NAME (sm_XY, ...)"),
# made into a folder name: "NVIDIA " and "GeForce " / "Tesla " dropped, anything but letters, digits,
# '.', '-' and '_' made '_': "NVIDIA GeForce RTX 4090" -> RTX_4090, "Tesla T4" -> T4,
# "NVIDIA H200" -> H200 (as docs/results/H200), "NVIDIA A100-SXM4-80GB" -> A100-SXM4-80GB.
gpu_full=$(printf '%s\n' "$roof" | sed -n 's/^device: *\(.*\) (sm_[0-9]*,.*/\1/p' | head -n 1)
if [ -z "$gpu_full" ] && command -v nvidia-smi >/dev/null; then
  gpu_full=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
fi
gpu=$(printf '%s' "${gpu_full:-gpu}" | sed -e 's/^NVIDIA //' -e 's/^GeForce //' -e 's/^Tesla //' \
        -e 's/[^A-Za-z0-9._-]/_/g' -e 's/__*/_/g' -e 's/^_//' -e 's/_$//')
[ -n "$gpu" ] || gpu=gpu
# Runs as if on a smaller GPU (TUTORIAL_DEVICE_LIMITS) are kept apart: RTX_4090_as_sm_75.
if [ -n "${TUTORIAL_DEVICE_LIMITS:-}" ]; then
  gpu="${gpu}_as_$(printf '%s' "$TUTORIAL_DEVICE_LIMITS" | sed -e 's/[^A-Za-z0-9._-]/_/g')"
fi

N=${LADDER_N:-2^28}
# The size in the file names as docs/results/H200 writes it: 2^28 -> 2e28; another size as given.
if [[ "$N" =~ ^2\^([0-9]+)$ ]]; then tag="2e${BASH_REMATCH[1]}"; else tag="n$(printf '%s' "$N" | sed 's/[^A-Za-z0-9]/_/g')"; fi
out=build/results/$gpu
ref=docs/results/H200
mkdir -p "$out/ch07" "$out/ch08/scan" "$out/ch08/histogram"
printf '%s\n' "$roof" >"$out/roofline.txt"
today=$(date -u +%Y-%m-%d)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")
rows=()
compare=()
failed=()
# ladder <experiment> <file without extension, under $out> <program> <args...>: one ladder, its CSV
# and Markdown table in $out, a row of the index; a failed ladder is reported and the others still run.
ladder() {
  local experiment=$1 file=$2 program=$3
  shift 3
  local cmd=("$program" "$@" --csv "$out/$file.csv" --md "$out/$file.md")
  echo "== $experiment: ${cmd[*]}"
  local status=0
  "${cmd[@]}" || status=$?
  local result="done"
  if [ $status -ne 0 ]; then
    result="FAILED (exit $status)"
    failed+=("$file")
  fi
  rows+=("| $experiment | [\`$file.md\`]($file.md), [\`.csv\`]($file.csv) | \`${cmd[*]}\` | $today | $result |")
  if [ -f "$ref/$file.md" ]; then
    compare+=("   $out/$file.md   <->   $ref/$file.md")
  else
    compare+=("   $out/$file.md   (the H200 has none at this size; LADDER_N=2^28 matches its files)")
  fi
}
ladder "chapter 7 reduction ladder, float sum" "ch07/reduce_ladder_${tag}_float" \
  build/ch07_reduction_opt/reduce_ladder --n "$N" --type float
ladder "chapter 8 reduction ladder, float sum" "ch08/reduce_ladder_ch08_${tag}_float_sum" \
  build/ch08_reduction_scan_histogram/reduce_ladder_ch08 --n "$N" --type float --op sum
ladder "chapter 8 scan ladder, float, exclusive" "ch08/scan/scan_ladder_${tag}_float" \
  build/ch08_reduction_scan_histogram/scan_ladder --n "$N" --type float
for d in uniform one-bin; do
  ladder "chapter 8 histogram ladder, 8-bit samples, $d" "ch08/histogram/histogram_ladder_${tag}_uint8_$d" \
    build/ch08_reduction_scan_histogram/histogram_ladder --n "$N" --type uint8 --dist "$d"
done

{
  echo "# Results on ${gpu_full:-this GPU}"
  echo
  echo "Made by \`scripts/tutorial.sh ladders\` on $today (commit $commit)$([ -n "${TUTORIAL_DEVICE_LIMITS:-}" ] && printf ', with TUTORIAL_DEVICE_LIMITS=%s' "$TUTORIAL_DEVICE_LIMITS")."
  echo "The files are the programs' own output, laid out and named as the committed H200 results in"
  echo "\`$ref/\` (each ladder's Markdown file starts with the device, the input, the timing and its"
  echo "command). \`roofline.txt\`: this GPU's peaks, from \`build/ch07_reduction_opt/roofline\`."
  echo
  echo "| experiment | file | command | date | result |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} >"$out/README.md"

echo
echo "== results: $out/ (index: $out/README.md)"
echo "   compare with the H200's, committed in this repository (docs/results/H200/README.md says how they were made):"
printf '%s\n' "${compare[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "error: these ladders failed: ${failed[*]} (their output above)" >&2
  exit 1
fi
