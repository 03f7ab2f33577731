#!/usr/bin/env python3
"""Checks, with Nsight Compute counters, the claim each step of a chapter makes about the profiler.

Every stage program of the chapter is profiled once (the first launch inside its --profile range,
at n = 2^24 floats, block 256 unless told otherwise) and the counters the chapter talks about are
compared step by step.

Chapter 7 (--chapter ch07, reduce_kernel_0..8, 9a, 9b, 9..11, then stages 1..8 again with --finish
partials, named reduce_kernel_N@partials; the claims stop at stage 9):
  0, 1     one address, one L2 slice: stage 0 (one atomic per element) and stage 1 with the atomic
           finish (one per block): the busiest L2 slice counts >= ONE_SLICE_MIN_PCT % of the atomic
           requests the SMs sent (lts__t_requests_op_red/atom.max, the busiest slice, against
           lts__t_requests_srcunit_tex_op_red/atom.sum; the L2's own total, .sum, is 1.5 times that on
           an H100: requests that cross to the other L2 partition are counted twice)
  1 -> 3   for both finishes: the strided index against the modulo branch: bank conflicts rise (x10
           or more) and divergence falls, seen as whole warps leaving the tree: shared ld+st
           instructions fall (the divergent-branch counter is 0 on both sides: nvcc predicates the
           modulo test). Atomic finish: the kernel time stays within 5% (the same-address atomics
           set the pace); partials finish: the kernel time rises by >= 10% (the bank conflicts cost
           more than the divergence saved)
  1 -> 7   partials finish: the kernel time falls by >= 10% (the tree's improvements show once the
           atomic does not bound the kernel)
  1 -> 2   shared-memory load instructions fall (partial kept in a register)
  2 -> 3   shared instructions fall and bank conflicts appear (the article's "divergence falls"
           is not observable on sm_90: the compiler predicates the branch; see the table)
  3 -> 4   shared-memory bank conflicts fall by more than 90% (sequential addressing)
  5 -> 6   barriers per block fall by at least 5 (the last warp needs no __syncthreads)
  5 -> 7   the same for the shuffle tail
  7 -> 8   DRAM throughput (% of peak) rises (thread coarsening)
  8 -> 9a  16-byte loads: global load instructions fall by >= VECTOR_LOADS_MIN_DROP (4x fewer for
           floats: one LDG.E.128 per four) and DRAM throughput rises
  9a -> 9b the same global load instructions (within SAME_LOADS_TOLERANCE), four in flight per
           thread (the 2^28 ladder shows 1.01x: what bounds both is scripts/maintainers/step_causes.py's question)
  9b -> 9  barriers per block fall to one, from stage 9b's four (the one-barrier block sum)
  8 -> 9   DRAM throughput rises again (stage 9's three changes together)

Chapter 8 (--chapter ch08, reduce_stage_0..5; the first pass, the stage's own kernel):
  0 -> 1   DRAM throughput jumps from near zero (the whole grid works)
  1 -> 2   shared-memory instructions fall by more than 90%, DRAM throughput rises (coarsening)
  2 -> 3   barriers per block fall by 5 (the last five levels are shuffles)
  3 -> 4   barriers per block fall to one; shared-memory instructions fall (one value per warp)
  4 -> 5   DRAM throughput rises by >= 15 points: 16-byte loads, four in flight per thread (bytes in
           flight, what holds stages 2-4 near half the peak); still one barrier per block

Chapter 8, scan (--chapter ch08-scan, scan_stage_1..8, run at n = 2^26 by the profile test; the
first kernel of each launch):
  1 -> 2   shared-memory bank conflicts fall (padding of i / 32 in the Blelloch block scan)
  4 -> 7   DRAM throughput rises by >= 20 points: stage 4's small scalar tiles leave warps waiting
           at the barrier behind the look-back; 16-byte vectors and more items per thread (5-7)
           mean fewer, larger tiles to chain
  6 -> 7   streaming cache hints (evict-first data, meant to leave the L2 to the look-back's status
           words): the L2 hit rate (lts__t_sector_hit_rate.pct, all loads: it does not say which hit)
           does not fall by more than L2_HIT_MAX_FALL_POINTS; the DRAM bytes read stay the same
           (within SAME_DRAM_BYTES_TOLERANCE)
  7        the fastest single pass keeps DRAM at least DRAM_LOOKBACK_MIN_PCT % busy
  7 -> 8   DRAM throughput rises by >= PIPELINE_MIN_DRAM_RISE_POINTS: the producer warp keeps the
           next tiles' bulk copies in flight and the reduce warp publishes every tile's aggregate as
           it lands, so the look-backs wait less (58.7% -> 70.9% at 2^26 on the H200, 2026-12-04;
           before the reduce warp, with the reduce-ahead consumers, it did not rise: 60.9% -> 60.2%
           on 2026-12-03); and the share of warp stalls at a block barrier falls by half (stage 8
           waits on mbarriers, and only once, after setup, at a block barrier). Stage 8 needs
           compute capability 9.0: on an older GPU its claims read SKIPPED (needs sm_90), not FAIL

Chapter 8, histogram (--chapter ch08-histogram, histogram_stage_0..8, 8-bit samples, 256 bins):
  0 -> 0@one-bin  one counter: the busiest L2 slice counts >= ONE_SLICE_MIN_PCT % of the SMs' atomic requests
           (>= ONE_BIN_SLICE_MIN_RISE times its share with 256 counters), and
           the kernel takes >= ONE_BIN_ATOMIC_MIN_TIME_RISE times uniform data's time
  1, 1@one-bin  shared-memory wavefronts per shared atomic instruction: uniform data's random bins
           collide on banks (>= RANDOM_BINS_MIN_WAVEFRONTS); one-bin data's 32 lanes on one counter
           take one (<= SAME_ADDRESS_MAX_WAVEFRONTS: the hardware does not replay the instruction per
           lane), one-bin data is no slower than uniform at the same grid (ONE_BIN_SHARED_NO_SLOWER),
           and stage 2's per-warp copies leave the wavefronts the same (SAME_WAVEFRONTS_TOLERANCE)
  1 -> 2   one-bin data, one thread per sample: the per-warp fold reads 8 copies of every bin, shared
           loads rise >= PER_WARP_FOLD_MIN_LD_RISE times
  0 -> 1   global atomics fall by more than 95% once a block counts many samples (stage 1 at
           --grid 1056, 8 blocks of 256 per SM: one atomic per non-empty bin per block instead of
           one per sample; at its default grid of one thread per sample a block folds as many
           bins as it has samples, and the two counts are equal)
  1 -> 2   on one-bin data, with the same full-occupancy grid (--grid 1056): the same shared
           atomics; the chapter's claim that per-warp copies cut the contention, checked as a fall
           in kernel time. It does not fall, on the H200 or the H100: a warp's 32 lanes on one
           counter take one wavefront per atomic instruction with or without the copies (1@one-bin
           and 1@one-bin -> 2@one-bin above, on the H100), so there is no contention within a warp
           for them to remove; this claim is reported but not required; see the histogram README
  1 -> 1@fold-all  exercise 4 at the default grid (one thread per sample), uniform data: folding
           every bin is faster (>= SKIP_UNIFORM_MIN_TIME_DROP less time), with as many global atomic
           warp instructions (every warp has a non-empty bin: the skip saves lanes, not instructions)
           and no divergent branch (the skip's test diverges in every warp)
  1@one-bin-default-grid -> 1@fold-all-one-bin  the same on one-bin data: folding every bin issues
           >= FOLD_ALL_ONE_BIN_MIN_ATOMIC_RISE times the global atomic warp instructions (8 per block
           instead of 1) and takes >= FOLD_ALL_ONE_BIN_MIN_TIME_RISE times as long
  2 -> 3   uniform data, thread coarsening (stage 2's kernel on one wave of resident blocks): global
           atomics fall by > 95% (one fold per resident block), the same shared atomics (one per
           sample), DRAM throughput rises
  3 -> 4   16-byte loads: global load instructions fall by >= BYTE_VECTOR_LOADS_MIN_DROP (16-fold for
           8-bit samples), the same shared atomics, DRAM throughput rises by >= VECTOR_HIST_DRAM_RISE
  4 -> 5   per-thread byte counters: shared atomics fall by >= 95% (only the spills remain); stage 5's
           byte loads and stores have at most THREAD_COUNTERS_MAX_CONFLICTS bank conflicts per shared
           instruction; achieved occupancy falls by >= THREAD_COUNTERS_MIN_OCCUPANCY_DROP (bins x block
           bytes of shared memory per block)
  5 -> 5@one-bin  no contention: one-bin data is no slower than uniform data (at most
           NO_SLOWER_TOLERANCE more time), and its fold issues one global atomic per block instead of
           one per bin (>= SKIPPED_FOLDS_MIN_DROP fewer)
  5 -> 6   uniform data: no 16-byte vector falls in one bin, the same shared loads and stores
  5@one-bin -> 6@one-bin  one add per 16-byte vector of one bin (the fold's reads stay): shared
           loads and stores fall by >= RUNS_MIN_SHARED_DROP, the kernel time by >= RUNS_MIN_TIME_DROP
  4 -> 7   on uniform data: shared-memory wavefronts per shared atomic instruction fall by at least
           LANE_COLUMN_MIN_WAVEFRONT_DROP (lane columns put a warp's 32 atomics in 32 banks; stage 4's
           per-warp copies collide on banks), with the same number of shared atomics within
           LANE_COLUMN_ATOMICS_TOLERANCE (one per sample on uniform data)
  7 -> 8   the merge-balanced grid (about sqrt(n / bins) blocks, 256 at 2^24): the grid and the global
           atomics of the merge fall by >= BALANCED_GRID_MIN_DROP, the shared atomics stay the same
           (one per sample) and the kernel time falls by >= BALANCED_GRID_MIN_TIME_DROP. On a GPU whose
           full wave of stage 7 is already within 1 / (1 - BALANCED_GRID_MIN_DROP) of that grid (a T4's
           few SMs) the two grids (nearly) coincide and these claims read SKIPPED

A stage name with "@" (histogram_stage_1@one-bin) is the program before the "@", run with the
flags stage_args gives that name: for the histogram, "@grid" is --grid 1056, "@one-bin" one-bin data
(stages 1 and 2 also at --grid 1056; stages 5 and 6 at their own resident grid), "@fold-all"
--skip-empty off; the others run at the stage's default grid on uniform data.

Bank conflicts are the L1TEX hardware counters l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
+ _op_st.sum (nvprof's shared_ld/st_bank_conflict). They count extra wavefronts: the data-bank
passes a shared-memory request needs beyond the fewest its width allows (an 8-way conflict on one
instruction adds 7), not conflicting requests or threads. The same counts per SASS instruction
(smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum) are collected beside them,
column "bank conflicts (SASS)", so that the two can be compared; the claims use the hardware counters.

It prints every measured number, a verdict per claim, and writes a Markdown table (one row per
stage, then the claims) to --md. The thresholds are the constants below: where the H200 and this
compiler disagree with the chapter, the printed numbers say by how much, and a claim can be
loosened or made non-blocking (required=False) here.

Exit codes: 0 every required claim holds; 1 a required claim failed or profiling failed;
2 bad command line; 77 skipped (no GPU, or no ncu), for CTest's SKIP_RETURN_CODE.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/profiler.py
import profiler  # noqa: E402  (the Python the profiler tools share)

# ---- thresholds (edit here) -----------------------------------------------------------------
SHARED_LD_MIN_DROP = 0.40        # ch07 1 -> 2: shared loads fall by at least 40% (the article: "over 40%")
SHARED_INST_MIN_DROP = 0.40      # ch07 2 -> 3: shared ld+st instructions fall (whole warps leave the tree)
BANK_CONFLICT_MIN_RISE = 10.0    # ch07 2 -> 3: ... and bank conflicts appear (at least 10x more)
BANK_CONFLICT_MIN_DROP = 0.90    # ch07 3 -> 4: bank conflicts (loads + stores) fall by more than 90%
STRIDED_TIME_MIN_RISE = 1.10     # ch07 1 -> 3, partials finish: the strided index is >= 10% slower
ATOMIC_SAME_TIME = 0.05          # ch07 1 -> 3, atomic finish: the kernel time moves by less than 5%
TREE_MIN_TIME_DROP = 0.10        # ch07 1 -> 7, partials finish: the shuffle tail is >= 10% faster
VECTOR_DRAM_MIN_RISE_POINTS = 15.0  # ch08 4 -> 5: 16-byte loads, 4 in flight: DRAM throughput +15 points
BARRIERS_MIN_DROP_PER_BLOCK = 5  # ch07 5 -> 6 and 5 -> 7, ch08 2 -> 3: at least 5 fewer barriers per block
DRAM_MIN_RISE_POINTS = 2.0       # ch07 7 -> 8, 8 -> 9, ch08 1 -> 2: DRAM throughput rises by >= 2 points
DRAM_FIRST_RISE_POINTS = 10.0    # ch08 0 -> 1: from one thread to the whole grid, >= 10 points
COARSENED_SHARED_MIN_DROP = 0.90  # ch08 1 -> 2: one tree per block of many elements
BLOCK_REDUCE_SHARED_MIN_DROP = 0.50  # ch08 3 -> 4: one value per warp through shared memory
BLOCK_REDUCE_MAX_BARRIERS = 1.0  # ch08 3 -> 4: exactly one barrier per block
# A "falls" claim on a counter that is zero (or nearly) on both sides is not observable: the
# compiler may turn a short if into predicated instructions, leaving no branch to diverge.
NOT_OBSERVABLE_BELOW = 1.0       # both values below this: "not observable"
PADDING_MIN_CONFLICT_DROP = 0.50  # scan 1 -> 2: padding removes at least half the bank conflicts
LOOKBACK_TILES_MIN_RISE_POINTS = 20.0  # scan 4 -> 7: larger vector tiles lift DRAM throughput
DRAM_LOOKBACK_MIN_PCT = 45.0     # scan 7: the fastest single pass streams at >= 45% of DRAM peak
PRIVATISED_ATOMICS_MIN_DROP = 0.95  # histogram 0 -> 1: global atomics fall by > 95%
PER_WARP_MIN_TIME_DROP = 0.10    # histogram 1 -> 2 on one-bin data: kernel time falls by >= 10%
SAME_WORK_TOLERANCE = 0.01       # histogram 1 -> 2: shared atomic instructions equal within 1%
PIPELINE_MIN_DRAM_RISE_POINTS = 5.0  # scan 7 -> 8: the bulk-copy pipeline with its reduce warp lifts DRAM throughput
PIPELINE_BARRIER_STALL_MIN_DROP = 0.50  # scan 7 -> 8: barrier stalls' share falls by half
LANE_COLUMN_MIN_WAVEFRONT_DROP = 0.50  # histogram 4 -> 7: wavefronts per shared atomic at least halve
LANE_COLUMN_ATOMICS_TOLERANCE = 0.05   # histogram 4 -> 7: shared atomics equal within 5% on uniform data
VECTOR_LOADS_MIN_DROP = 0.60     # ch07 8 -> 9a: float4 loads: global load instructions fall (4x fewer: -75%)
SAME_LOADS_TOLERANCE = 0.05      # ch07 9a -> 9b: the same global load instructions within 5%
BARRIERS_9B_TO_9_MIN_DROP = 3    # ch07 9b -> 9: 4 barriers per block -> 1
L2_HIT_MAX_FALL_POINTS = 5.0     # scan 6 -> 7: the L2 hit rate falls by at most 5 points
SAME_DRAM_BYTES_TOLERANCE = 0.05  # scan 6 -> 7: DRAM bytes read equal within 5%
SKIP_UNIFORM_MIN_TIME_DROP = 0.03  # histogram 1 -> 1@fold-all, uniform: fold-all >= 3% faster (ladder: 1.14x)
SKIP_SAME_ATOMICS_TOLERANCE = 0.05  # ... with the same global atomic warp instructions within 5%
SKIP_DIVERGENCE_MIN_DROP = 0.90  # ... and (almost) no divergent branch targets
FOLD_ALL_ONE_BIN_MIN_ATOMIC_RISE = 4.0  # one-bin: fold-all issues 8 atomic warp instructions per block, skip 1
FOLD_ALL_ONE_BIN_MIN_TIME_RISE = 2.0    # one-bin: fold-all takes >= 2x as long (ladder: 10.9x at 2^30)
COARSENED_HIST_ATOMICS_MIN_DROP = 0.95  # histogram 2 -> 3: global atomics fall by > 95%
BYTE_VECTOR_LOADS_MIN_DROP = 0.85  # histogram 3 -> 4: global load instructions fall (16x fewer: -94%)
VECTOR_HIST_DRAM_RISE = 5.0      # histogram 3 -> 4: DRAM throughput rises by >= 5 points
THREAD_COUNTERS_MIN_ATOMIC_DROP = 0.95  # histogram 4 -> 5: shared atomics fall by >= 95% (spills only)
THREAD_COUNTERS_MAX_CONFLICTS = 0.05   # histogram 5: bank conflicts per shared ld/st instruction
THREAD_COUNTERS_MIN_OCCUPANCY_DROP = 0.30  # histogram 4 -> 5: achieved occupancy falls by >= 30%
NO_SLOWER_TOLERANCE = 0.10       # histogram 5 -> 5@one-bin: one-bin data at most 10% slower than uniform
SKIPPED_FOLDS_MIN_DROP = 0.95     # histogram 5 -> 5@one-bin: global atomics fall (one non-empty bin per block)
SAME_SHARED_TOLERANCE = 0.05     # histogram 5 -> 6, uniform: the same shared ld+st within 5%
RUNS_MIN_SHARED_DROP = 0.40      # histogram 5 -> 6, one-bin: shared ld+st fall by >= 40% (the fold's reads of
                                 # every counter stay)
ONE_SLICE_MIN_PCT = 90.0         # ch07 0 and 1 (atomic finish), histogram 0@one-bin: the busiest L2 slice
                                 # counts >= 90% of the atomic requests the SMs sent (one address, one
                                 # home slice)
ONE_BIN_SLICE_MIN_RISE = 3.0     # histogram 0 -> 0@one-bin: that share rises >= 3x from 256 counters to one
ONE_BIN_ATOMIC_MIN_TIME_RISE = 2.0  # histogram 0 -> 0@one-bin: one-bin data takes >= 2x as long
SAME_ADDRESS_MAX_WAVEFRONTS = 1.1   # histogram 1@one-bin: wavefronts per shared atomic instruction when a
                                    # warp's 32 lanes hit one counter (one pass per lane would be 32)
ONE_BIN_SHARED_NO_SLOWER = 0.10     # histogram 1@grid -> 1@one-bin: one-bin at most 10% slower than uniform
RANDOM_BINS_MIN_WAVEFRONTS = 1.5    # histogram 1, uniform: random bins collide on banks
SAME_WAVEFRONTS_TOLERANCE = 0.10    # histogram 1@one-bin -> 2@one-bin: the same wavefronts per instruction
PER_WARP_FOLD_MIN_LD_RISE = 4.0     # histogram 1 -> 2 at one thread per sample: the fold reads 8 copies
RUNS_MIN_TIME_DROP = 0.20        # histogram 5 -> 6, one-bin: kernel time falls by >= 20%
BALANCED_GRID_MIN_DROP = 0.40    # histogram 7 -> 8 at 2^24, 256 bins: the grid and the merge's global atomics fall
                                 # by >= 40% (a full wave of resident blocks -> 256)
BALANCED_GRID_MIN_TIME_DROP = 0.05  # histogram 7 -> 8: the kernel time falls by >= 5%

K7 = "reduce_kernel_%d"
K9A, K9B = "reduce_kernel_9a", "reduce_kernel_9b"  # stage 9's first two changes alone (atomic finish only)
K7P = "reduce_kernel_%d@partials"  # the same program with --finish partials
S8 = "reduce_stage_%d"
SC = "scan_stage_%d"
H8 = "histogram_stage_%d"
FULL_GRID = ["--grid", "1056"]   # 8 resident blocks of 256 threads on each of the H200's 132 SMs
ONE_BIN_SAME_GRID = ["--dist", "one-bin"] + FULL_GRID

# Per chapter: the stages profiled (table rows, in order), extra flags per stage, and the claims
# (baseline stage, candidate stage, derived key, kind, threshold, required, what the chapter says).
CHAPTERS = {
    "ch07": {
        "title": "Chapter 7",
        "bin_dir": "build/ch07_reduction_opt",
        "stages": [K7 % i for i in range(9)] + [K9A, K9B] + [K7 % i for i in (9, 10, 11)]
                  + [K7P % i for i in range(1, 9)],
        # Stage 6 is profiled in its correct __syncwarp form; plain names: --finish atomic (the
        # article's finish; the programs' default is partials); "@partials": --finish partials (the
        # first launch in the profiler range is still the stage's own kernel, not the second pass).
        "stage_args": dict([(K7 % 6, ["--last-warp", "syncwarp", "--finish", "atomic"]),
                            (K7P % 6, ["--last-warp", "syncwarp", "--finish", "partials"])]
                           + [(K7 % i, ["--finish", "atomic"]) for i in (1, 2, 3, 4, 5, 7, 8)]
                           + [(K7P % i, ["--finish", "partials"]) for i in (1, 2, 3, 4, 5, 7, 8)]),
        "claims": [
            # Where the same-address atomics go: one L2 slice takes them all (stage 0: one per
            # element; stage 1 with the atomic finish: one per block).
            (K7 % 0, K7 % 0, "l2_atomic_busiest_slice_pct", "at_least", ONE_SLICE_MIN_PCT, True,
             "one atomic per element, all on one address: one L2 slice counts them all (% of the SMs' atomic requests)"),
            (K7 % 1, K7 % 1, "l2_atomic_busiest_slice_pct", "at_least", ONE_SLICE_MIN_PCT, True,
             "atomic finish, one atomic per block on one address: the same one L2 slice"),
            # The strided index (3) against the modulo branch (1), with both finishes. The article's
            # "divergence falls" shows as whole warps leaving the tree (fewer warp-level shared
            # instructions); the divergent-branch counter is 0 on both sides (predicated, see table).
            (K7 % 1, K7 % 3, "conflicts", "rise_factor", BANK_CONFLICT_MIN_RISE, True,
             "atomic finish: bank conflicts rise with the strided index"),
            (K7 % 1, K7 % 3, "shared_inst", "drop", SHARED_INST_MIN_DROP, True,
             "atomic finish: divergence falls: whole warps leave the tree, shared ld+st instructions fall"),
            (K7 % 1, K7 % 3, "time_us", "same", ATOMIC_SAME_TIME, True,
             "atomic finish: the kernel time does not move (the same-address atomics set the pace)"),
            (K7P % 1, K7P % 3, "conflicts", "rise_factor", BANK_CONFLICT_MIN_RISE, True,
             "partials finish: bank conflicts rise with the strided index"),
            (K7P % 1, K7P % 3, "shared_inst", "drop", SHARED_INST_MIN_DROP, True,
             "partials finish: divergence falls: whole warps leave the tree, shared ld+st instructions fall"),
            (K7P % 1, K7P % 3, "time_us", "rise_factor", STRIDED_TIME_MIN_RISE, True,
             "partials finish: the strided index is slower (bank conflicts cost more than the divergence saved)"),
            (K7P % 1, K7P % 7, "time_us", "drop", TREE_MIN_TIME_DROP, True,
             "partials finish: the tree's improvements show in the time (modulo branch -> shuffle tail)"),
            (K7 % 1, K7 % 2, "shared_ld", "drop", SHARED_LD_MIN_DROP, True,
             "shared-memory load instructions fall (register accumulator)"),
            # The article's claim here is "branch divergence falls". On sm_90 nvcc predicates the
            # modulo test, so neither stage has a divergent branch (both counters are 0: see the
            # table). What the contiguous active threads do change: whole warps drop out of each
            # level, so far fewer shared instructions are issued -- and the strided index creates
            # the bank conflicts stage 4 removes.
            (K7 % 2, K7 % 3, "shared_inst", "drop", SHARED_INST_MIN_DROP, True,
             "shared ld+st instructions fall: whole warps leave the tree (divergence itself: see table)"),
            (K7 % 2, K7 % 3, "conflicts", "rise_factor", BANK_CONFLICT_MIN_RISE, True,
             "bank conflicts appear with the strided index (what stage 4 fixes)"),
            (K7 % 3, K7 % 4, "conflicts", "drop", BANK_CONFLICT_MIN_DROP, True,
             "shared-memory bank conflicts fall by > 90% (sequential addressing)"),
            (K7 % 5, K7 % 6, "barriers_per_block", "drop_abs", BARRIERS_MIN_DROP_PER_BLOCK, True,
             "barriers per block fall by >= 5 (last warp without __syncthreads)"),
            (K7 % 5, K7 % 7, "barriers_per_block", "drop_abs", BARRIERS_MIN_DROP_PER_BLOCK, True,
             "barriers per block fall by >= 5 (warp-shuffle tail)"),
            (K7 % 7, K7 % 8, "dram_pct", "rise_abs", DRAM_MIN_RISE_POINTS, True,
             "DRAM throughput (% of peak) rises (thread coarsening)"),
            # Stage 9's three changes one at a time (stages_9_11.md; the SASS counts are checked by
            # cpu.sass_claims_ch07).
            (K7 % 8, K9A, "global_ld", "drop", VECTOR_LOADS_MIN_DROP, True,
             "16-byte loads: global load instructions fall about 4x (one LDG.E.128 per four floats)"),
            (K7 % 8, K9A, "dram_pct", "rise_abs", DRAM_MIN_RISE_POINTS, True,
             "16-byte loads: DRAM throughput (% of peak) rises"),
            (K9A, K9B, "global_ld", "same", SAME_LOADS_TOLERANCE, True,
             "four loads in flight per thread: the same global load instructions"),
            (K9B, K7 % 9, "barriers_per_block", "drop_abs", BARRIERS_9B_TO_9_MIN_DROP, True,
             "the one-barrier block sum: barriers per block fall by >= 3 ..."),
            (K9B, K7 % 9, "barriers_per_block", "at_most", BLOCK_REDUCE_MAX_BARRIERS, True,
             "... to one"),
            (K7 % 8, K7 % 9, "dram_pct", "rise_abs", DRAM_MIN_RISE_POINTS, True,
             "DRAM throughput (% of peak) rises (16-byte loads, four in flight per thread)"),
        ],
    },
    "ch08": {
        "title": "Chapter 8",
        "bin_dir": "build/ch08_reduction_scan_histogram",
        "stages": [S8 % i for i in range(6)],
        "stage_args": {},
        "claims": [
            (S8 % 0, S8 % 1, "dram_pct", "rise_abs", DRAM_FIRST_RISE_POINTS, True,
             "DRAM throughput jumps from near zero (the whole grid works)"),
            (S8 % 1, S8 % 2, "shared_inst", "drop", COARSENED_SHARED_MIN_DROP, True,
             "shared ld+st instructions fall by > 90% (one tree per block of many elements)"),
            (S8 % 1, S8 % 2, "dram_pct", "rise_abs", DRAM_MIN_RISE_POINTS, True,
             "DRAM throughput (% of peak) rises (thread coarsening)"),
            (S8 % 2, S8 % 3, "barriers_per_block", "drop_abs", BARRIERS_MIN_DROP_PER_BLOCK, True,
             "barriers per block fall by 5 (the last five levels are warp shuffles)"),
            (S8 % 3, S8 % 4, "barriers_per_block", "at_most", BLOCK_REDUCE_MAX_BARRIERS, True,
             "barriers per block fall to one (complete block reduction)"),
            (S8 % 3, S8 % 4, "shared_inst", "drop", BLOCK_REDUCE_SHARED_MIN_DROP, True,
             "shared ld+st instructions fall by >= 50% (one value per warp through shared memory)"),
            (S8 % 4, S8 % 5, "dram_pct", "rise_abs", VECTOR_DRAM_MIN_RISE_POINTS, True,
             "DRAM throughput rises: 16-byte loads, four in flight per thread (bytes in flight)"),
            (S8 % 4, S8 % 5, "barriers_per_block", "at_most", BLOCK_REDUCE_MAX_BARRIERS, True,
             "still one barrier per block (stage 4's block reduction)"),
        ],
    },
    "ch08-scan": {
        "title": "Chapter 8 (scan)",
        "bin_dir": "build/ch08_reduction_scan_histogram",
        "stages": [SC % i for i in (1, 2, 3, 4, 5, 6, 7, 8)],
        "stage_args": {},
        # Stage 8 refuses to run below compute capability 9.0 (bulk copies, mbarrier transaction
        # counts): there it is not profiled and its claims read SKIPPED.
        "min_cc": {SC % 8: (9, 0)},
        "claims": [
            (SC % 1, SC % 2, "conflicts", "drop", PADDING_MIN_CONFLICT_DROP, True,
             "shared-memory bank conflicts fall (an offset of i / 32 in the block scan)"),
            (SC % 4, SC % 7, "dram_pct", "rise_abs", LOOKBACK_TILES_MIN_RISE_POINTS, True,
             "DRAM throughput rises: fewer, larger vector tiles to chain through the look-back"),
            (SC % 6, SC % 7, "l2_hit_pct", "no_fall_abs", L2_HIT_MAX_FALL_POINTS, True,
             "evict-first data (meant to leave L2 to the status words): the L2 hit rate does not fall"),
            (SC % 6, SC % 7, "dram_bytes", "same", SAME_DRAM_BYTES_TOLERANCE, True,
             "... and the DRAM bytes read stay the same (the hints do not change what is read)"),
            (SC % 7, SC % 7, "dram_pct", "at_least", DRAM_LOOKBACK_MIN_PCT, True,
             "the fastest single pass with decoupled look-back keeps DRAM busy (% of peak)"),
            (SC % 7, SC % 8, "dram_pct", "rise_abs", PIPELINE_MIN_DRAM_RISE_POINTS, True,
             "DRAM throughput rises: bulk copies of the next tiles in flight while a tile is scanned and looked back"),
            (SC % 7, SC % 8, "barrier_stall_pct", "drop", PIPELINE_BARRIER_STALL_MIN_DROP, True,
             "the share of stalls at a block barrier falls (warps wait on mbarriers, per role)"),
        ],
    },
    "ch08-histogram": {
        "title": "Chapter 8 (histogram)",
        "bin_dir": "build/ch08_reduction_scan_histogram",
        "type": "uint8",
        "stages": [H8 % 0, H8 % 0 + "@one-bin", H8 % 1, H8 % 1 + "@grid", H8 % 1 + "@one-bin", H8 % 2 + "@one-bin",
                   H8 % 1 + "@fold-all", H8 % 1 + "@one-bin-default-grid", H8 % 2 + "@one-bin-default-grid",
                   H8 % 1 + "@fold-all-one-bin",
                   H8 % 2, H8 % 3, H8 % 4, H8 % 5, H8 % 5 + "@one-bin", H8 % 6, H8 % 6 + "@one-bin", H8 % 7,
                   H8 % 8],
        # Stage 8's grid is stage 7's capped at sqrt(n / bins): where stage 7's full wave is already
        # near that cap (a T4, a small RTX card), the two grids coincide and the 7 -> 8 claims read
        # SKIPPED, not FAIL (balanced_grid_moot).
        "skip_when": {H8 % 8: lambda results: balanced_grid_moot(results, H8 % 7, H8 % 8)},
        "stage_args": {H8 % 0 + "@one-bin": ["--dist", "one-bin"], H8 % 1 + "@grid": FULL_GRID, H8 % 1 + "@one-bin": ONE_BIN_SAME_GRID,
                       H8 % 2 + "@one-bin": ONE_BIN_SAME_GRID,
                       H8 % 1 + "@fold-all": ["--skip-empty", "off"],
                       H8 % 1 + "@one-bin-default-grid": ["--dist", "one-bin"],
                       H8 % 2 + "@one-bin-default-grid": ["--dist", "one-bin"],
                       H8 % 1 + "@fold-all-one-bin": ["--skip-empty", "off", "--dist", "one-bin"],
                       H8 % 5 + "@one-bin": ["--dist", "one-bin"],
                       H8 % 6 + "@one-bin": ["--dist", "one-bin"]},
        "claims": [
            # Stage 0 on one-bin data: every sample's atomic on one counter, so one L2 slice takes
            # them all (on uniform data 256 counters spread them), and the kernel is slower.
            (H8 % 0 + "@one-bin", H8 % 0 + "@one-bin", "l2_atomic_busiest_slice_pct", "at_least",
             ONE_SLICE_MIN_PCT, True, "one-bin data: one counter, one home L2 slice for every atomic ..."),
            (H8 % 0, H8 % 0 + "@one-bin", "l2_atomic_busiest_slice_pct", "rise_factor", ONE_BIN_SLICE_MIN_RISE,
             True, "... where 256 counters spread them over several slices ..."),
            (H8 % 0, H8 % 0 + "@one-bin", "time_us", "rise_factor", ONE_BIN_ATOMIC_MIN_TIME_RISE, True,
             "... and the kernel takes several times as long as on uniform data"),
            # Shared atomics: a warp's random bins collide on banks (several wavefronts per instruction);
            # its 32 lanes on one counter take one wavefront (no replay per lane), and one-bin data is
            # no slower than uniform data at the same grid.
            (H8 % 1, H8 % 1, "atom_wavefronts_per_inst", "at_least", RANDOM_BINS_MIN_WAVEFRONTS, True,
             "uniform data: a warp's 32 random bins collide on banks (wavefronts per shared atomic instruction)"),
            (H8 % 1 + "@one-bin", H8 % 1 + "@one-bin", "atom_wavefronts_per_inst", "at_most",
             SAME_ADDRESS_MAX_WAVEFRONTS, True,
             "one-bin data: a warp's 32 lanes on one counter take one wavefront per atomic instruction ..."),
            (H8 % 1 + "@grid", H8 % 1 + "@one-bin", "time_us", "no_rise", ONE_BIN_SHARED_NO_SLOWER, True,
             "... and at the same grid one-bin data is no slower than uniform data"),
            (H8 % 1 + "@one-bin", H8 % 2 + "@one-bin", "atom_wavefronts_per_inst", "same",
             SAME_WAVEFRONTS_TOLERANCE, True,
             "per-warp copies: the same wavefronts per shared atomic instruction"),
            (H8 % 1 + "@one-bin-default-grid", H8 % 2 + "@one-bin-default-grid", "shared_ld", "rise_factor",
             PER_WARP_FOLD_MIN_LD_RISE, True,
             "one thread per sample: the per-warp fold reads 8 copies of every bin (shared loads rise)"),
            (H8 % 0, H8 % 1 + "@grid", "global_atomics", "drop", PRIVATISED_ATOMICS_MIN_DROP, True,
             "global atomics fall by > 95% (a private histogram per block of many samples, folded once)"),
            (H8 % 1 + "@one-bin", H8 % 2 + "@one-bin", "shared_atom", "same", SAME_WORK_TOLERANCE, True,
             "one-bin data, same grid: the same shared atomics ..."),
            (H8 % 1 + "@one-bin", H8 % 2 + "@one-bin", "time_us", "drop", PER_WARP_MIN_TIME_DROP, False,
             "... but no two warps share a counter: less contention, the kernel time falls"),
            # Exercise 4 (the page's table: fold-all 1.14x faster on uniform data, 10.9x slower on one bin).
            (H8 % 1, H8 % 1 + "@fold-all", "time_us", "drop", SKIP_UNIFORM_MIN_TIME_DROP, True,
             "uniform data, one thread per sample: folding every bin is faster than skipping empty ones ..."),
            (H8 % 1, H8 % 1 + "@fold-all", "global_atomics", "same", SKIP_SAME_ATOMICS_TOLERANCE, True,
             "... with as many global atomic warp instructions (every warp has a non-empty bin) ..."),
            (H8 % 1, H8 % 1 + "@fold-all", "divergent", "drop", SKIP_DIVERGENCE_MIN_DROP, True,
             "... and without the skip's divergent branch"),
            (H8 % 1 + "@one-bin-default-grid", H8 % 1 + "@fold-all-one-bin", "global_atomics", "rise_factor",
             FOLD_ALL_ONE_BIN_MIN_ATOMIC_RISE, True,
             "one-bin data: folding every bin issues 8 global atomic warp instructions per block, not 1 ..."),
            (H8 % 1 + "@one-bin-default-grid", H8 % 1 + "@fold-all-one-bin", "time_us", "rise_factor",
             FOLD_ALL_ONE_BIN_MIN_TIME_RISE, True,
             "... and takes several times as long (skipping pays when most bins of a block are empty)"),
            (H8 % 2, H8 % 3, "global_atomics", "drop", COARSENED_HIST_ATOMICS_MIN_DROP, True,
             "coarsening: one fold per resident block, global atomics fall by > 95% ..."),
            (H8 % 2, H8 % 3, "shared_atom", "same", SAME_WORK_TOLERANCE, True,
             "... the same shared atomics (one per sample) ..."),
            (H8 % 2, H8 % 3, "dram_pct", "rise_abs", DRAM_MIN_RISE_POINTS, True,
             "... and DRAM throughput rises"),
            (H8 % 3, H8 % 4, "global_ld", "drop", BYTE_VECTOR_LOADS_MIN_DROP, True,
             "16-byte loads: global load instructions fall 16-fold for 8-bit samples ..."),
            (H8 % 3, H8 % 4, "shared_atom", "same", SAME_WORK_TOLERANCE, True,
             "... the same shared atomics (one per sample) ..."),
            (H8 % 3, H8 % 4, "dram_pct", "rise_abs", VECTOR_HIST_DRAM_RISE, True,
             "... four loads in flight per thread: DRAM throughput rises"),
            (H8 % 4, H8 % 5, "shared_atom", "drop", THREAD_COUNTERS_MIN_ATOMIC_DROP, True,
             "per-thread byte counters: shared atomics leave the loop (only the spills remain) ..."),
            (H8 % 5, H8 % 5, "conflicts_per_shared_inst", "at_most", THREAD_COUNTERS_MAX_CONFLICTS, True,
             "... each lane's bytes in its own bank: (almost) no bank conflicts per shared ld/st ..."),
            (H8 % 4, H8 % 5, "occupancy_pct", "drop", THREAD_COUNTERS_MIN_OCCUPANCY_DROP, True,
             "... at the price of occupancy (bins x block bytes of shared memory per block)"),
            (H8 % 5, H8 % 5 + "@one-bin", "time_us", "no_rise", NO_SLOWER_TOLERANCE, True,
             "per-thread counters, no contention: one-bin data is no slower than uniform data ..."),
            (H8 % 5, H8 % 5 + "@one-bin", "global_atomics", "drop", SKIPPED_FOLDS_MIN_DROP, True,
             "... and the fold skips empty bins: one global atomic per block, not one per bin"),
            (H8 % 5, H8 % 6, "shared_inst", "same", SAME_SHARED_TOLERANCE, True,
             "uniform data: no 16-byte vector falls in one bin, the same shared loads and stores"),
            (H8 % 5 + "@one-bin", H8 % 6 + "@one-bin", "shared_inst", "drop", RUNS_MIN_SHARED_DROP, True,
             "one-bin data: one add per 16-byte vector, shared loads and stores fall ..."),
            (H8 % 5 + "@one-bin", H8 % 6 + "@one-bin", "time_us", "drop", RUNS_MIN_TIME_DROP, True,
             "... and the kernel time falls"),
            (H8 % 4, H8 % 7, "shared_atom", "same", LANE_COLUMN_ATOMICS_TOLERANCE, True,
             "uniform data: one shared atomic per sample in both ..."),
            (H8 % 4, H8 % 7, "atom_wavefronts_per_inst", "drop", LANE_COLUMN_MIN_WAVEFRONT_DROP, True,
             "... but lane columns: a warp's atomics in 32 banks, wavefronts per atomic instruction fall"),
            (H8 % 7, H8 % 8, "grid", "drop", BALANCED_GRID_MIN_DROP, True,
             "merge-balanced grid: about sqrt(n / bins) blocks instead of a full wave ..."),
            (H8 % 7, H8 % 8, "global_atomics", "drop", BALANCED_GRID_MIN_DROP, True,
             "... so the merge's global atomics fall with the grid ..."),
            (H8 % 7, H8 % 8, "shared_atom", "same", SAME_WORK_TOLERANCE, True,
             "... the samples' shared atomics stay the same ..."),
            (H8 % 7, H8 % 8, "time_us", "drop", BALANCED_GRID_MIN_TIME_DROP, True,
             "... and the kernel takes less time"),
        ],
    },
}


def balanced_grid_moot(results, stage_7, stage_8):
    """Why stage 8's claims cannot be judged on this GPU, or None: stage 7's grid (its full wave) is
    less than 1 / (1 - BALANCED_GRID_MIN_DROP) times stage 8's, so the cap at sqrt(n / bins) removes
    too few blocks for the grid to fall as the claim asks (the table's "blocks" column shows both)."""
    g7 = results.get(stage_7, {}).get("grid")
    g8 = results.get(stage_8, {}).get("grid")
    if g7 is None or g8 is None or g7 >= g8 / (1 - BALANCED_GRID_MIN_DROP):
        return None
    return "stage 7's full wave (%d blocks) is within %.2fx of stage 8's grid (%d) on this GPU at this n" % (
        g7, 1 / (1 - BALANCED_GRID_MIN_DROP), g8)


TABLE = [  # Markdown columns: (header, derived key, format)
    ("time (us)", "time_us", "{:.1f}"),
    ("blocks", "grid", "{:,.0f}"),
    ("warp inst.", "inst", "{:,.0f}"),
    ("shared ld", "shared_ld", "{:,.0f}"),
    ("shared st", "shared_st", "{:,.0f}"),
    ("bank conflicts (ld+st)", "conflicts", "{:,.0f}"),
    ("bank conflicts (SASS)", "conflicts_sass", "{:,.0f}"),
    ("divergent branch targets", "divergent", "{:,.0f}"),
    ("threads/inst (pred-on)", None, None),
    ("barriers/block", "barriers_per_block", "{:.2f}"),
    ("shared atomics", "shared_atom", "{:,.0f}"),
    ("global atomics", "global_atomics", "{:,.0f}"),
    ("busiest L2 slice, % of atomic requests", "l2_atomic_busiest_slice_pct", "{:.1f}"),
    ("wavefronts/shared atomic", "atom_wavefronts_per_inst", "{:.1f}"),
    ("global ld", "global_ld", "{:,.0f}"),
    ("DRAM % peak", "dram_pct", "{:.1f}"),
    ("occupancy %", "occupancy_pct", "{:.1f}"),
    ("L2 hit %", "l2_hit_pct", "{:.1f}"),
    ("top stall (warps/issue)", None, None),
]


def judge(kind, threshold, b, c):
    """(verdict, measured text): verdict is PASS, FAIL or NOT OBSERVABLE."""
    if b is None or c is None:
        return "FAIL", "counter not available (baseline %s, candidate %s)" % (b, c)
    if kind == "drop":
        if abs(b) < NOT_OBSERVABLE_BELOW and abs(c) < NOT_OBSERVABLE_BELOW:
            return "NOT OBSERVABLE", "%.0f -> %.0f (zero on both sides)" % (b, c)
        drop = (b - c) / b if b else float("-inf")
        text = "%s -> %s (%s; needs a fall of >= %.0f%%)" % (
            profiler.fmt(b, "{:,.0f}"), profiler.fmt(c, "{:,.0f}"), profiler.fmt_change(profiler.change_pct(b, c)), 100 * threshold)
        return ("PASS" if drop >= threshold else "FAIL"), text
    if kind == "drop_abs":
        text = "%.2f -> %.2f (%+.2f; needs <= -%g)" % (b, c, c - b, threshold)
        return ("PASS" if b - c >= threshold - 1e-9 else "FAIL"), text
    if kind == "rise_factor":
        factor = c / b if b else float("inf")
        text = "%s -> %s (x%.1f; needs >= x%g)" % (profiler.fmt(b, "{:,.0f}"), profiler.fmt(c, "{:,.0f}"), factor, threshold)
        return ("PASS" if factor >= threshold else "FAIL"), text
    if kind == "at_most":
        text = "%.2f -> %.2f (needs <= %g)" % (b, c, threshold)
        return ("PASS" if c <= threshold + 1e-9 else "FAIL"), text
    if kind == "at_least":  # a property of the candidate alone
        text = "%.1f (needs >= %g)" % (c, threshold)
        return ("PASS" if c >= threshold else "FAIL"), text
    if kind == "no_rise":  # "falls or stays": rises by at most `threshold` (relative)
        text = "%s -> %s (%s; needs at most +%g%%)" % (profiler.fmt(b, "{:,.1f}"), profiler.fmt(c, "{:,.1f}"),
                                                      profiler.fmt_change(profiler.change_pct(b, c)), 100 * threshold)
        return ("PASS" if c <= b * (1 + threshold) else "FAIL"), text
    if kind == "same":
        rel = abs(c - b) / abs(b) if b else (0.0 if c == 0 else float("inf"))
        text = "%s -> %s (%s; needs within %g%%)" % (profiler.fmt(b, "{:,.0f}"), profiler.fmt(c, "{:,.0f}"),
                                                    profiler.fmt_change(profiler.change_pct(b, c)), 100 * threshold)
        return ("PASS" if rel <= threshold else "FAIL"), text
    if kind == "rise_abs":
        text = "%.1f -> %.1f (%+.1f points; needs >= +%g)" % (b, c, c - b, threshold)
        return ("PASS" if c - b >= threshold else "FAIL"), text
    if kind == "no_fall_abs":  # "rises or stays": falls by at most `threshold` points
        text = "%.1f -> %.1f (%+.1f points; needs >= -%g)" % (b, c, c - b, threshold)
        return ("PASS" if c - b >= -threshold else "FAIL"), text
    raise ValueError(kind)


def stage_row(name, d):
    cells = [name]
    for header, key, f in TABLE:
        if key:
            cells.append(profiler.fmt(d.get(key), f))
        elif header.startswith("threads"):
            cells.append("%s (%s)" % (profiler.fmt(d.get("threads_per_inst"), "{:.1f}"),
                                      profiler.fmt(d.get("pred_on_per_inst"), "{:.1f}")))
        else:
            top = profiler.top_stalls(d.get("stalls", {}), 1)
            cells.append("%s %.2f" % top[0] if top else "n/a")
    return cells


def add_ratios(d):
    """Adds the ratios some claims compare: shared-memory wavefronts per shared atomic instruction,
    bank conflicts per shared load/store instruction, and the share (%) of all stall cycles spent at a
    block barrier ("barrier" among the stall reasons)."""
    atoms, waves = d.get("shared_atom"), d.get("shared_atom_wavefronts")
    d["atom_wavefronts_per_inst"] = waves / atoms if atoms and waves is not None else None
    conflicts, shared = d.get("conflicts"), d.get("shared_inst")
    d["conflicts_per_shared_inst"] = conflicts / shared if shared and conflicts is not None else None
    stalls = d.get("stalls") or {}
    total = sum(stalls.values())
    d["barrier_stall_pct"] = 100.0 * stalls.get("barrier", 0.0) / total if total > 0 else None


def compute_capability():
    """The first GPU's compute capability as (major, minor) from `nvidia-smi --query-gpu=compute_cap`,
    or None where nvidia-smi cannot say (then every stage is profiled and a refusal is an error)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        r = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=60)
        major, minor = r.stdout.splitlines()[0].strip().split(".")
        return int(major), int(minor)
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
        return None


def stage_number(name):
    """"reduce_kernel_7" -> "7", "reduce_stage_3" -> "3", "histogram_stage_1@one-bin" -> "1@one-bin"."""
    return name.rsplit("_", 1)[-1]


def program_of(name):
    """The stage program a (possibly "@"-labelled) stage name runs: "histogram_stage_1@one-bin" ->
    "histogram_stage_1"."""
    return name.split("@", 1)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chapter", choices=sorted(CHAPTERS), default="ch07",
                    help="whose stages and claims: ch07 (reduce_kernel_*), ch08 (reduce_stage_*), "
                         "ch08-scan (scan_stage_*) or ch08-histogram (histogram_stage_*); default ch07")
    ap.add_argument("--bin-dir", help="folder with the chapter's stage programs "
                                      "(default build/ch07_reduction_opt or build/ch08_reduction_scan_histogram)")
    ap.add_argument("--reports", help="where the .ncu-rep files go (default: a temporary folder)")
    ap.add_argument("--from-reports", action="store_true",
                    help="do not profile: read <reports>/<stage>.ncu-rep made by an earlier run")
    ap.add_argument("--n", default="2^24", help="elements per stage program (default 2^24)")
    ap.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    ap.add_argument("--type", help="element type (default float; uint8 for ch08-histogram)")
    ap.add_argument("--ncu", help="ncu executable (default: $NCU, PATH, /usr/local/cuda/bin/ncu)")
    ap.add_argument("--md", help="write the Markdown table to this file")
    ap.add_argument("--assume-gpu", action="store_true", help=argparse.SUPPRESS)  # tests only
    a = ap.parse_args(argv)
    chapter = CHAPTERS[a.chapter]
    stages, claims, stage_args = chapter["stages"], chapter["claims"], chapter["stage_args"]
    bin_dir = a.bin_dir or chapter["bin_dir"]
    a.type = a.type or chapter.get("type", "float")

    ncu, skipped = profiler.ncu_and_gpu(a.ncu, need_gpu=not a.from_reports and not a.assume_gpu)
    if skipped:
        print(skipped)
        return profiler.EXIT_SKIP
    if a.from_reports and not a.reports:
        ap.error("--from-reports needs --reports DIR")
    reports = a.reports or tempfile.mkdtemp(prefix="%s_profile_" % a.chapter)
    os.makedirs(reports, exist_ok=True)

    results, errors, skipped = {}, [], {}
    cc = None if a.from_reports or a.assume_gpu else compute_capability()
    for st, need in chapter.get("min_cc", {}).items():
        if cc is not None and cc < need:
            skipped[st] = "needs sm_%d%d, this GPU is sm_%d%d" % (need + cc)
            print("SKIPPED %s: %s" % (st, skipped[st]))
    for st in stages:
        if st in skipped:
            continue
        try:
            if a.from_reports:
                rep = os.path.join(reports, st.replace("@", "_") + ".ncu-rep")
                results[st] = profiler.derived(profiler.read_report(rep, ncu=ncu))
            else:
                prog = os.path.join(bin_dir, program_of(st))
                if not os.access(prog, os.X_OK):
                    raise profiler.ProfileError("stage program not found: %s (build first, or pass --bin-dir)" % prog)
                results[st], rep = profiler.measure(prog, reports, st.replace("@", "_"), n=a.n, block=a.block, dtype=a.type,
                                              ncu=ncu, extra_args=stage_args.get(st, []))
            print("profiled %-16s -> %s" % (st, rep))
        except profiler.ProfileError as e:
            errors.append("%s: %s" % (st, e))
            print("ERROR %s: %s" % (st, e))

    for st, why in chapter.get("skip_when", {}).items():
        reason = why(results)
        if reason:
            skipped[st] = reason
            print("SKIPPED %s: %s" % (st, reason))
    for d in results.values():
        add_ratios(d)
    header = ["stage"] + [h for h, _, _ in TABLE]
    rows = [stage_row(st, results[st]) for st in stages if st in results]
    print("\n%s: counters at n = %s %s, block %d (one launch each):\n" % (chapter["title"], a.n, a.type, a.block))
    print(profiler.text_table(header, rows))

    verdicts, failed = [], False
    for base, cand, key, kind, thr, required, text in claims:
        why_skipped = skipped.get(base) or skipped.get(cand)
        if why_skipped:
            verdict, measured = "SKIPPED", why_skipped
        elif base not in results or cand not in results:
            verdict, measured = "FAIL", "stage not profiled"
        else:
            verdict, measured = judge(kind, thr, results[base].get(key), results[cand].get(key))
        blocking = required and verdict not in ("PASS", "SKIPPED")
        failed = failed or blocking
        if verdict not in ("PASS", "SKIPPED") and not required:
            verdict += " (not required)"
        step = "%s -> %s" % (stage_number(base), stage_number(cand))
        verdicts.append([step, text, key, measured, verdict])
    print("\nClaims:\n")
    print(profiler.text_table(["step", "claim", "counter", "measured", "verdict"], verdicts, left=5))
    for v in verdicts:
        if v[4].startswith("NOT OBSERVABLE"):
            print("\nnote: %s: the counter is zero on both sides; the compiler predicated the branch, so\n"
                  "      divergence shows as predicated-off lanes (threads/inst column), not as branches."
                  % v[0])
    if errors:
        print("\n%d stage(s) could not be profiled:\n  %s" % (len(errors), "\n  ".join(errors)))

    if a.md:
        os.makedirs(os.path.dirname(os.path.abspath(a.md)), exist_ok=True)
        with open(a.md, "w") as f:
            f.write("## %s: profiler counters, stage by stage\n\n" % chapter["title"])
            f.write("The first launch inside each stage's `--profile` range: `ncu --profile-from-start off "
                    "--clock-control none --launch-count 1 --metrics ...`, n = %s %s, block %d. "
                    "Made by `scripts/maintainers/check_profile_claims.py --chapter %s`.\n\n" % (a.n, a.type, a.block, a.chapter))
            f.write(profiler.markdown_table(header, rows))
            f.write("\nthreads/inst: active threads per warp instruction (predicated-on threads in "
                    "parentheses); barriers/block: BAR warp instructions / (blocks x warps per block); "
                    "stalls in warps per issued instruction.\n\n### Claims\n\n")
            f.write(profiler.markdown_table(["step", "claim", "counter", "measured", "verdict"], verdicts, left=5))
        print("\nMarkdown: " + a.md)
    print("\nreports: " + reports)
    if errors or failed:
        print("RESULT: FAILED (see the verdicts above; thresholds are constants at the top of %s)"
              % os.path.basename(__file__))
        return 1
    print("RESULT: every required claim holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
