//! @file scan_stage_7_streaming.cuh
//! @brief Scan stage 7: stage 6 with streaming cache hints on the data: loads with
//! ld.global.cs (__ldcs) and stores with st.global.cs (__stcs), "evict first".
//!
//! Changed against stage 6: one idea, the cache policy of the data. Every input byte is read once
//! and every output byte written once, yet with the default policy both pass through L2 as if they
//! would be used again, competing with the few bytes that are: the status words every look-back
//! reads, which must stay in L2 for the spinning loads to be cheap. Marking the data as streaming
//! lets L2 evict it first. The kernel and launch are stage 5's with the StreamingCache policy and
//! stage 6's 8 vectors per thread.
//! What the profiler shows against stage 6 (scripts/maintainers/check_profile_claims.py, 6 -> 7; the figures:
//! README.md): the L2 hit rate stays and the DRAM bytes read are the same (which loads hit, the
//! counter does not say). Both stages stall most at the block barrier
//! (scripts/maintainers/step_causes.py), where the block waits for warp 0's look-back: the look-back, not the
//! L2, sets their pace.
//! Determinism: as stage 4 (not promised for float and double; ints always the same).
//! Source: CUDA C++ Programming Guide, "Load Functions Using Cache Hints" (__ldcs, __stcs); PTX ISA,
//! cache operators (.cs).
#pragma once
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "scan_stage_6_more_items.cuh"
#include "striped_vectors.cuh"

namespace ch08 {

//! Launches stage 7.
inline void launch_scan_stage_7(const harness::ScanArgs& a) {
  launch_single_pass_vec<kStage6Vectors, StreamingCache>(a);
}

//! Stage 7: stage 6 with streaming cache hints.
inline harness::Stage<harness::Scan> scan_stage_7_stage() {
  harness::Stage<harness::Scan> s = single_pass_vec_stage<kStage6Vectors, StreamingCache>();
  s.name = "scan_stage_7";
  s.label = "streaming cache hints";
  s.change = "data loads and stores marked evict-first (__ldcs, __stcs), to leave the L2 to the look-back status";
  s.source = "CUDA C++ Programming Guide, load and store functions using cache hints";
  s.launch = launch_scan_stage_7;
  return s;
}

// ---- Stage 7's knobs, to be measured one at a time (`scan_stage_7 --tuning NAME`) -------------
// Stage 7's occupancy is limited by registers, and its warps wait at the barrier behind warp 0's
// look-back: three changes to try, none of them the default. Block 512 is the fourth knob and needs
// no variant: `scan_stage_7 --block 512`.

//! Resident threads per SM asked of the compiler by the `occ62` knob: 1280 (62.5% of an SM of
//! 2048 threads), i.e. at most 48 registers per thread (the kernel spills: 36 bytes stored, 36 loaded;
//! test cpu.sass_claims_ch08_scan, sm_90, float).
inline constexpr int kStage7Occupancy62Threads = 1280;
//! ... by the `occ75` knob: 1536 (75%), i.e. at most 40 registers per thread (the kernel spills: 140 bytes
//! stored, 160 loaded; the default uses 63 registers and spills nothing).
inline constexpr int kStage7Occupancy75Threads = 1536;

//! Stage 7 with a knob: the same kernel with the look-back's spin and the launch bounds as given.
//! A form that asks for more resident threads per SM than a GPU holds (occ62 and occ75 on a T4,
//! 1024) is refused there before any launch (device_rule), naming the form without the occupancy
//! knob (`instead`); its kernel for such an architecture is compiled with the bound capped
//! (harness::launch_min_blocks), so that every architecture builds without warnings.
//! @tparam Spin SpinWait (stage 7) or SpinBackoff
//! @tparam MinThreadsPerSm 0 (stage 7), or the threads per SM the registers must allow
//! @param tuning the form's --tuning name
//! @param label the form's short idea, for reports
//! @param change what the form changes against stage 7, one sentence
template <class Spin, int MinThreadsPerSm>
harness::Stage<harness::Scan> scan_stage_7_knob(const std::string& tuning, const std::string& label,
                                                const std::string& change) {
  harness::Stage<harness::Scan> s = single_pass_vec_stage<kStage6Vectors, StreamingCache, Spin, MinThreadsPerSm>();
  s.name = "scan_stage_7";
  s.label = label;
  s.change = change;
  s.source = "stage 7's knobs: look-back backoff (__nanosleep), registers for occupancy (__launch_bounds__)";
  s.min_block = kKnobBlock;
  s.max_block = kKnobBlock;
  if constexpr (MinThreadsPerSm > 0) {
    const std::string without = std::is_same_v<Spin, SpinBackoff> ? "backoff" : "default";
    s.instead = "scan_stage_7 --tuning " + without;
    s.device_rule = [tuning](const harness::ScanArgs& a, const harness::DeviceLimits& limits) -> std::string {
      if (limits.max_threads_per_sm >= MinThreadsPerSm) return "";
      return "--tuning " + tuning + " is compiled for " + std::to_string(MinThreadsPerSm) +
             " resident threads per SM (" + std::to_string(MinThreadsPerSm / std::max(a.block, 1)) +
             " blocks of " + std::to_string(a.block) + "), and this GPU holds " +
             std::to_string(limits.max_threads_per_sm);
    };
  }
  return s;
}

//! Names of stage 7's forms, the first the default: `--tuning` takes one of them.
inline std::vector<std::string> scan_stage_7_tuning_names() {
  return {"default", "backoff", "occ62", "occ75", "backoff-occ62"};
}

//! Stage 7 in each form of scan_stage_7_tuning_names(), in that order.
inline std::vector<harness::Stage<harness::Scan>> scan_stage_7_tunings() {
  return {scan_stage_7_stage(),
          scan_stage_7_knob<SpinBackoff, 0>(
              "backoff", "streaming, look-back backoff",
              "stage 7 with __nanosleep (32 ns doubling to 1 us) between two reads of a status still INVALID"),
          scan_stage_7_knob<SpinWait, kStage7Occupancy62Threads>(
              "occ62", "streaming, 48 registers",
              "stage 7 compiled for 1280 resident threads per SM (__launch_bounds__ minimum blocks: at most 48 registers)"),
          scan_stage_7_knob<SpinWait, kStage7Occupancy75Threads>(
              "occ75", "streaming, 40 registers",
              "stage 7 compiled for 1536 resident threads per SM (at most 40 registers; it spills)"),
          scan_stage_7_knob<SpinBackoff, kStage7Occupancy62Threads>(
              "backoff-occ62", "streaming, backoff, 48 registers", "both knobs: look-back backoff and at most 48 registers")};
}

}  // namespace ch08
