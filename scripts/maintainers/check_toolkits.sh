#!/usr/bin/env bash
# Builds the repository with the oldest CUDA toolkit readers may have (12.4) and with the current one
# (nvcc on PATH), for the oldest GPUs readers have (sm_75, sm_86), on a machine without a GPU, and
# writes a log of what built. `scripts/maintainers/check_toolkits.sh --help` says more.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
ROOT=$(pwd)

usage() {
  cat <<'EOF'
Usage: scripts/maintainers/check_toolkits.sh [--setup-only]

For each toolkit (CUDA 12.4, unpacked here; the current one, nvcc on PATH) and each architecture
(sm_75, sm_86), configures a fresh build folder (Release, Ninja, -DCMAKE_CUDA_ARCHITECTURES=<arch>)
and builds everything with `ninja -k 0`, so that every error shows, not just the first. Needs no
GPU. Writes $LOG: the machine, the date, the toolkits' versions, and per (toolkit, arch) the
configure and build result, the programs that built and those that failed (with the first errors),
and whether scan stage 8 was left out because the toolkit cannot compile it (CCCL before 2.8).

CUDA 12.4 is not installed: Debian trixie's non-free packages of it (nvidia-cuda-toolkit 12.4.131 and
the packages its nvcc needs, checked against the SHA-256 sums below) are downloaded with apt-get under
a private configuration (no dpkg database, nothing under /usr) and unpacked with dpkg -x into
$CUDA124_ROOT, which later runs reuse. --setup-only stops after that.

Environment:
  CUDA124_ROOT  where CUDA 12.4 is unpacked (default build/toolkits/cuda-12.4); reused when its
                bin/nvcc reports release 12.4
  CUDA124_DEBS  where the .deb files are kept (default build/toolkits/cuda-12.4-debs); reused when
                they match the sums
  BUILD_ROOT    build folders, one per (toolkit, arch) (default build/check_toolkits)
  ARCHS         architectures (default "75 86")
  TOOLKITS      "12.4 current" (default), or one of them
  TESTS         1: build the Catch2 tests too (TUTORIAL_BUILD_TESTS=ON); default 0: the harness,
                the chapters' stage libraries and every program (each build takes 4 to 8 minutes on
                2 cores without the tests, about twice that with them)
  JOBS          parallel build jobs (default nproc)
  LOG           the log (default docs/results/toolkits/check_toolkits.txt)
Exit codes: 0 every configure and build succeeded, 1 one failed, 2 bad command line, 3 CUDA 12.4
could not be set up.
EOF
}

SETUP_ONLY=0
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --setup-only) SETUP_ONLY=1 ;;
    *) echo "check_toolkits.sh: error: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

CUDA124_ROOT=${CUDA124_ROOT:-$ROOT/build/toolkits/cuda-12.4}
CUDA124_DEBS=${CUDA124_DEBS:-$ROOT/build/toolkits/cuda-12.4-debs}
BUILD_ROOT=${BUILD_ROOT:-$ROOT/build/check_toolkits}
ARCHS=${ARCHS:-75 86}
TOOLKITS=${TOOLKITS:-12.4 current}
TESTS=${TESTS:-0}
JOBS=${JOBS:-$(nproc)}
LOG=${LOG:-$ROOT/docs/results/toolkits/check_toolkits.txt}

# ---- CUDA 12.4 from Debian trixie non-free, unpacked, not installed --------------------------------
# The packages (pinned versions) and their SHA-256 sums.
CUDA124_PKGS="nvidia-cuda-toolkit=12.4.131~12.4.1-2 nvidia-cuda-dev=12.4.127~12.4.1-2 libcudart12=12.4.127~12.4.1-2
libnvvm4=12.4.131~12.4.1-2 libcub-dev=2.3.2-2 libthrust-dev=2.3.2-2 libcu++-dev=2.3.2-2"
CUDA124_SUMS="30e911c1909265591b5ea793df0e49e56bed631238b68b3e75c97590c4985686  libcu++-dev_2.3.2-2_all.deb
4a7e7c24ef2994140e47dba59507db60e281f968f17c18cf1cadc9c27c17c26b  libcub-dev_2.3.2-2_all.deb
361b3721cf84bf068e111ff013c819de61cb475268b0d38db99839471f1b4130  libcudart12_12.4.127~12.4.1-2_amd64.deb
3c905c1df7453e1ad477516c4465629c310d2f58a796d66f44070dc289e7ec12  libnvvm4_12.4.131~12.4.1-2_amd64.deb
61fe44b65834efad9b079452ebec7396d4b37712d251421f4218b3bc652a3147  libthrust-dev_2.3.2-2_all.deb
d846838f914a0176948d48a8bcade5d6dbcccb5c9374343f6475f5503f173ee0  nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb
cd5fe85aee38d108b315f408a688641478f2402622a10c677478eb7a6c4e5319  nvidia-cuda-toolkit_12.4.131~12.4.1-2_amd64.deb"

debs_ok() { [ -d "$CUDA124_DEBS" ] && (cd "$CUDA124_DEBS" && printf '%s\n' "$CUDA124_SUMS" | sha256sum -c --status -); }

setup_cuda124() {
  if [ -x "$CUDA124_ROOT/bin/nvcc" ] && "$CUDA124_ROOT/bin/nvcc" --version 2>/dev/null | grep -q 'release 12\.4'; then
    echo "CUDA 12.4: reusing $CUDA124_ROOT"
    return 0
  fi
  command -v dpkg >/dev/null || { echo "check_toolkits.sh: dpkg is needed to unpack CUDA 12.4" >&2; return 1; }
  if ! debs_ok; then
    command -v apt-get >/dev/null || { echo "check_toolkits.sh: apt-get is needed to download CUDA 12.4" >&2; return 1; }
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -r "$keyring" ] || { echo "check_toolkits.sh: $keyring (package debian-archive-keyring) is needed to check Debian's archive" >&2; return 1; }
    local apt="$CUDA124_DEBS/.apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/etc"
    : > "$apt/status"
    echo "deb [signed-by=$keyring] http://deb.debian.org/debian trixie main contrib non-free" > "$apt/etc/trixie.list"
    cat > "$apt/etc/apt.conf" <<EOC
Dir::Etc::SourceList "$apt/etc/trixie.list";
Dir::Etc::SourceParts "/dev/null";
Dir::State::Lists "$apt/lists";
Dir::State::status "$apt/status";
Dir::Cache "$apt/cache";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT::Architecture "amd64";
Acquire::Languages "none";
EOC
    echo "CUDA 12.4: downloading Debian trixie's packages into $CUDA124_DEBS"
    # shellcheck disable=SC2086
    (export APT_CONFIG="$apt/etc/apt.conf"; apt-get -q update && cd "$CUDA124_DEBS" && apt-get -q download $CUDA124_PKGS) || return 1
    debs_ok || { echo "check_toolkits.sh: the downloaded packages do not match their SHA-256 sums" >&2; return 1; }
  fi
  echo "CUDA 12.4: unpacking into $CUDA124_ROOT"
  rm -rf "$CUDA124_ROOT"
  mkdir -p "$CUDA124_ROOT"
  for f in "$CUDA124_DEBS"/*.deb; do dpkg -x "$f" "$CUDA124_ROOT" || return 1; done
  local bin="$CUDA124_ROOT/usr/lib/nvidia-cuda-toolkit/bin"
  # Debian's bin/nvcc.profile is an absolute link to /etc/nvcc.profile: a relocatable one instead.
  rm -f "$bin/nvcc.profile"
  cat > "$bin/nvcc.profile" <<'EOP'
# Relocatable nvcc.profile for Debian's nvidia-cuda-toolkit 12.4 unpacked with dpkg -x
# (scripts/maintainers/check_toolkits.sh). _HERE_ = <root>/usr/lib/nvidia-cuda-toolkit/bin
TOP = $(_HERE_)/../../..
# Must end in nvvm/libdevice: CMake derives CMAKE_CUDA_COMPILER_LIBRARY_ROOT from it
# (usr/lib/cuda/nvvm/libdevice is Debian's link to ../../nvidia-cuda-toolkit/libdevice).
NVVMIR_LIBRARY_DIR = $(TOP)/lib/cuda/nvvm/libdevice
# cicc lives in _HERE_; ptxas, nvlink, fatbinary, cudafe++, bin2c in $(TOP)/bin. Both are
# prepended so that no other CUDA (e.g. /usr/local/cuda/bin) is picked up.
PATH		+= $(_HERE_):$(TOP)/bin:
INCLUDES	+= "-I$(TOP)/include" $(_SPACE_)
LIBRARIES	=+ $(_SPACE_) "-L$(TOP)/lib/x86_64-linux-gnu/stubs" "-L$(TOP)/lib/x86_64-linux-gnu"
EOP
  ln -sfn ../lib/nvidia-cuda-toolkit/bin/crt "$CUDA124_ROOT/usr/bin/crt"
  # shellcheck disable=SC2016  # the wrappers' $0 and $@ are theirs, written literally
  printf '%s\n' '#!/bin/sh' "# relocated copy of Debian's /usr/bin/nvcc wrapper" \
    'exec "$(readlink -f "$(dirname "$(readlink -f "$0")")/../lib/nvidia-cuda-toolkit/bin/nvcc")" "$@"' \
    > "$CUDA124_ROOT/usr/bin/nvcc"
  mkdir -p "$CUDA124_ROOT/bin"
  # shellcheck disable=SC2016
  printf '%s\n' '#!/bin/sh' '# CUDA 12.4 nvcc (Debian trixie nvidia-cuda-toolkit 12.4.131~12.4.1-2, dpkg -x)' \
    'exec "$(readlink -f "$(dirname "$(readlink -f "$0")")/../usr/lib/nvidia-cuda-toolkit/bin/nvcc")" "$@"' \
    > "$CUDA124_ROOT/bin/nvcc"
  chmod +x "$CUDA124_ROOT/bin/nvcc" "$CUDA124_ROOT/usr/bin/nvcc"
  "$CUDA124_ROOT/bin/nvcc" --version | grep -q 'release 12\.4' || { echo "check_toolkits.sh: the unpacked nvcc does not run" >&2; return 1; }
}

if [[ " $TOOLKITS " == *" 12.4 "* ]]; then
  setup_cuda124 || exit 3
fi
[ "$SETUP_ONLY" = 1 ] && exit 0

command -v ninja >/dev/null || { echo "check_toolkits.sh: ninja is needed" >&2; exit 2; }
command -v cmake >/dev/null || { echo "check_toolkits.sh: cmake is needed" >&2; exit 2; }

# ---- the builds ------------------------------------------------------------------------------------
nvcc_of() { if [ "$1" = 12.4 ]; then echo "$CUDA124_ROOT/bin/nvcc"; else command -v nvcc; fi; }
toolkit_root_of() { if [ "$1" = 12.4 ]; then echo "$CUDA124_ROOT/usr"; else dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")"; fi; }
release_of() { "$1" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p'; }
# Value of a macro after including a header, with this nvcc (for the toolkit's CCCL and for
# stage 8's guard, CH08_STAGE8_PTX, exactly as the build evaluates it).
macro_of() {
  local nvcc=$1 header=$2 macro=$3 arch=$4
  local probe
  probe=$(mktemp --suffix=.cu)
  printf '#include <%s>\nzz_value=%s\n' "$header" "$macro" > "$probe"
  "$nvcc" -E -Xcompiler -P -x cu -std=c++17 -arch=sm_"$arch" \
    -I"$ROOT/ch08_reduction_scan_histogram/scan" -I"$ROOT/common" -I"$ROOT/common/reduce" \
    -I"$ROOT/common/scan" -I"$ROOT/common/histogram" "$probe" 2>/dev/null | sed -n 's/^zz_value=//p' | tail -1
  rm -f "$probe"
}
cccl_text() { local v; v=$(macro_of "$1" cuda/ptx CCCL_VERSION 75); [ -n "$v" ] && echo "$((v / 1000000)).$((v / 1000 % 1000)).$((v % 1000))" || echo "?"; }

mkdir -p "$(dirname "$LOG")" "$BUILD_ROOT"
{
  echo "# scripts/maintainers/check_toolkits.sh: every program built for the readers' oldest GPUs with the oldest and the current toolkit"
  echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "machine:  $(hostname), $(uname -srm), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), no GPU used"
  # shellcheck disable=SC1091
  echo "os:       $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
  echo "commit:   $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "host:     $(c++ --version | head -1); $(cmake --version | head -1); ninja $(ninja --version)"
  for tk in $TOOLKITS; do
    nvcc=$(nvcc_of "$tk")
    echo "toolkit $tk: $nvcc: CUDA $(release_of "$nvcc"), CCCL $(cccl_text "$nvcc")"
  done
  echo "built:    $( [ "$TESTS" = 1 ] && echo 'everything (TUTORIAL_BUILD_TESTS=ON)' || echo 'the harness, the stage libraries and every program (TUTORIAL_BUILD_TESTS=OFF: no tests)'), Release, ninja -k 0 -j $JOBS"
  echo
} > "$LOG"

status=0
for tk in $TOOLKITS; do
  nvcc=$(nvcc_of "$tk")
  [ -x "$nvcc" ] || { echo "== toolkit $tk: no nvcc found" >> "$LOG"; status=1; continue; }
  tkroot=$(toolkit_root_of "$tk")
  for arch in $ARCHS; do
    dir="$BUILD_ROOT/cuda-$tk-sm$arch"
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "== toolkit $tk: CUDA $(release_of "$nvcc"), sm_$arch: $dir" | tee -a "$LOG"
    start=$(date +%s)
    if ! cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$tkroot" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
        -DTUTORIAL_BUILD_TESTS="$( [ "$TESTS" = 1 ] && echo ON || echo OFF )" > "$dir/configure.log" 2>&1; then
      echo "configure: FAILED (last lines of $dir/configure.log:)" >> "$LOG"
      tail -15 "$dir/configure.log" | sed 's/^/    /' >> "$LOG"
      status=1
      continue
    fi
    echo "configure: ok" >> "$LOG"
    ninja -C "$dir" -k 0 -j "$JOBS" > "$dir/build.log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    # Every executable the build defines (programs, and with TESTS=1 the tests), and whether it is there.
    mapfile -t programs < <(sed -n 's/^build \([^:]*\): [A-Z]*_EXECUTABLE_LINKER__.*/\1/p' "$dir/build.ninja" | sort)
    built=() failed=()
    for p in "${programs[@]}"; do
      if [ -x "$dir/$p" ]; then built+=("$(basename "$p")"); else failed+=("$(basename "$p")"); fi
    done
    libs_failed=$(grep -cE '^FAILED: .*(_stages\.cu\.o|\.a) *$' "$dir/build.log")
    echo "build:     $( [ $rc = 0 ] && echo ok || echo "FAILED (ninja exit $rc)" ) in ${secs} s; ${#built[@]} of ${#programs[@]} programs built, ${#failed[@]} failed; $(grep -c '^FAILED:' "$dir/build.log") failed build steps ($libs_failed of them a chapter's stage library); $(grep -ci 'warning' "$dir/build.log") warning lines" >> "$LOG"
    s8=$(macro_of "$nvcc" scan_stage_8_bulk_copy_pipeline.cuh CH08_STAGE8_PTX "$arch")
    case "$s8" in
      1) if [ "$arch" -lt 90 ]; then
           echo "stage 8:   compiled (this toolkit's CCCL has cuda::ptx::cp_async_bulk into shared memory), as a trap for sm_$arch: scan_stage_8 refuses to run from a build without sm_90 code, and below sm_90 (min_cc 90)" >> "$LOG"
         else
           echo "stage 8:   compiled (this toolkit's CCCL has cuda::ptx::cp_async_bulk into shared memory)" >> "$LOG"
         fi ;;
      0) echo "stage 8:   left out by this toolkit (CCCL $(cccl_text "$nvcc") lacks cuda::ptx::cp_async_bulk into shared memory: CCCL 2.8 / CUDA 12.9 or newer needed); scan_stage_8 is built and refuses to run, naming that toolkit" >> "$LOG" ;;
      *) echo "stage 8:   (could not evaluate CH08_STAGE8_PTX with this nvcc)" >> "$LOG" ;;
    esac
    echo "built:     ${built[*]}" | fold -s -w 120 | sed '2,$s/^/           /' >> "$LOG"
    if [ ${#failed[@]} -gt 0 ]; then
      echo "failed:    ${failed[*]}" | fold -s -w 120 | sed '2,$s/^/           /' >> "$LOG"
      echo "errors (first 40 lines naming an error, from $dir/build.log):" >> "$LOG"
      grep -E 'error|^FAILED' "$dir/build.log" | grep -vE '^[^ ]*(nvcc|c\+\+|g\+\+|gcc|cc) ' | cut -c1-300 | head -40 |
        sed 's/^/    /' >> "$LOG"
      status=1
    fi
    [ $rc = 0 ] || status=1
    echo >> "$LOG"
  done
done
echo "result: $( [ $status = 0 ] && echo 'every configure and build succeeded' || echo 'some configure or build FAILED (see above)')" >> "$LOG"
echo "check_toolkits.sh: log in $LOG"
exit $status
