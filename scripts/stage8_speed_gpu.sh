#!/usr/bin/env bash
# Issue 24, scan stage 8's schedules on the H200 (about 1-2 minutes of GPU time in all): each
# `--pipeline` shape and block size once at 2^28 floats (timing; every run also checks its result),
# then exact-data checks of the new schedules at sizes that wrap the ring many times.
# Usage (repository root, after `ninja -C $BUILD scan_stage_8`):
#   BUILD=/tmp/build OUT=stage8-out scripts/stage8_speed_gpu.sh
# Every log must show "verify: PASS" and end "exit 0"; the summary (time lines) is in
# $OUT/summary.txt. What each row should show: see "Expect" below.
set -u
B=${BUILD:-/tmp/build}
OUT=${OUT:-stage8-out}
S8=$B/ch08_reduction_scan_histogram/scan_stage_8
[ -x "$S8" ] || S8=$B/ch08_reduction_scan_histogram/scan/scan_stage_8
mkdir -p "$OUT"

log() {  # log NAME ARGS...: scan_stage_8 ARGS, output to $OUT/NAME.txt, prints verify and time lines
  local name=$1; shift
  { echo "\$ scan_stage_8 $*"; "$S8" "$@"; echo "exit $?"; } > "$OUT/$name.txt" 2>&1
  echo "$name: $(grep -h -i -o 'verify: [A-Z]*' "$OUT/$name.txt" | head -1) | $(tail -1 "$OUT/$name.txt")"
}

# Timing, 2^28 floats, exclusive, L2 flushed, median of 20.
# Expect (the diagnosis: the per-block chain scan -> look-back walk of ~G/32 round trips -> store):
#   8x3_b256            the reference (today 1.06 ms)
#   8x3_b128            slower than 8x3_b256 if the walk grows with the grid (G doubles to 528)
#   8x3-near_b256       faster than 8x3: the walk bounded by the block's previous tile, 128 tiles a round trip
#   8x3-near_b128       and with -near, more blocks an SM should no longer hurt
#   8x3-ahead_b256      alone it may be slower (the walk to an INCLUSIVE tile gets longer)
#   8x3-near-ahead_*    the fastest of the schedules; the aim: below stage 7 (0.71 ms) and CUB (0.685 ms)
#   4x4-near-ahead_b256 three blocks an SM with 16 KiB tiles: whether more tiles in flight beat tile size
for cfg in "8x3 256" "8x3 128" "8x3-near 256" "8x3-near 128" "8x3-ahead 256" "8x3-near-ahead 256" \
           "8x3-near-ahead 128" "8x3-near-ahead 512" "4x4-near-ahead 256"; do
  set -- $cfg
  log t_${1}_b${2}_f32 --pipeline "$1" --block "$2" --type float --n 2^28 --iters 20
done
# The best candidate on ints, exclusive and inclusive (the ladder's other files).
log t_8x3-near-ahead_b256_i32 --pipeline 8x3-near-ahead --type int --n 2^28 --iters 20
log t_8x3-near-ahead_b256_i32_incl --pipeline 8x3-near-ahead --type int --inclusive --n 2^28 --iters 20

# Exact checks of the new schedules (every one must print verify: PASS): exact floats past 2^24
# with a partial last tile, doubles inclusive, ints at block 512 and 128.
for shape in 8x3-near 8x3-ahead 8x3-near-ahead 4x4-near-ahead; do
  log x_${shape}_f32 --pipeline $shape --type float --dist exact --n 2^24+7 --iters 3
  log x_${shape}_f64_incl --pipeline $shape --type double --inclusive --n 2^22+3 --iters 3
done
log x_8x3-near-ahead_i32_b512 --pipeline 8x3-near-ahead --block 512 --type int --n 2^26+5 --iters 3
log x_8x3-near-ahead_i32_b128_incl --pipeline 8x3-near-ahead --block 128 --type int --inclusive --n 2^26+5 --iters 3

grep -H -i "time\|ms" "$OUT"/t_*.txt | grep -v '^\S*:\$' > "$OUT/summary.txt"
echo "summary: $OUT/summary.txt"
