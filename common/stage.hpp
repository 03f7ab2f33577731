//! @file stage.hpp
//! @brief What every stage of every problem presents to the harness: the launch arguments
//! (LaunchArgs and the problem's own fields) and the stage's description, Stage<P>.
//!
//! A problem P (harness::Reduce, harness::Scan, harness::Histogram) names its argument struct
//! `P::Args` (deriving from LaunchArgs) and what a stage may support beyond types and block sizes,
//! `P::Caps`. A stage file fills one Stage<P>: its name, what it changed, the limits it accepts,
//! and plain functions that say its grid, its workspace and how it launches.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "device_limits.hpp"
#include "dtype.hpp"

namespace harness {

//! Stage::workspace_zeroed_bytes for a stage whose whole workspace must be zero before its first
//! launch and is zero again after every complete one.
inline constexpr std::size_t kWholeWorkspace = std::numeric_limits<std::size_t>::max();

//! The arguments every launch of every problem carries. Pointers are device pointers.
struct LaunchArgs {
  DType type = DType::f32;         //!< element type of `in`
  const void* in = nullptr;        //!< n input elements
  std::size_t n = 0;               //!< number of input elements (any value, 0 included)
  void* out = nullptr;             //!< the output (its size and type are the problem's)
  void* workspace = nullptr;       //!< scratch of at least the stage's workspace_bytes(args) bytes
  std::size_t workspace_size = 0;  //!< bytes available at `workspace`
  int block = 256;                 //!< threads per block
  std::size_t grid = 0;            //!< blocks; 0 lets the stage choose (only grid-stride stages honour it)
  cudaStream_t stream = nullptr;   //!< stream to enqueue on

  //! The input as T (T must match `type`).
  template <class T>
  const T* input() const { return static_cast<const T*>(in); }
  //! The output as T (T must match the problem's output type).
  template <class T>
  T* output() const { return static_cast<T*>(out); }
  //! The workspace as T.
  template <class T>
  T* scratch() const { return static_cast<T*>(workspace); }
};

//! One stage of problem P: its identity, what it accepts, and how it is launched.
//! @tparam P the problem (Reduce, Scan or Histogram); P::Args derives from LaunchArgs.
template <class P>
struct Stage {
  using Args = typename P::Args;  //!< the problem's launch arguments

  std::string name;    //!< program name, e.g. "reduce_kernel_3"
  std::string label;   //!< short idea, e.g. "strided index"
  std::string change;  //!< what changed against the stage before, one sentence
  std::string source;  //!< where it comes from, e.g. "article section 6"
  std::vector<DType> types{DType::f32, DType::f64, DType::i32};  //!< supported input types
  int min_block = 32;           //!< smallest supported block size (a power of two)
  int max_block = 1024;         //!< largest supported block size (a power of two)
  //! Block size the stage runs at when --block is not given (its program, the ladders); 0: 256,
  //! clamped to min_block .. max_block. A stage whose shared memory grows with the block sets a
  //! default that fits every GPU (reader_gpus()).
  int default_block = 0;
  //! The block size the stage runs at for these arguments on a GPU with these limits when --block is
  //! not given, where the best block depends on n (a tile sized to the input: reduce stage 7, scan
  //! stage 9); null, or a return of 0, means default_block. The shared-memory rule of
  //! default_block_of still applies to what it returns.
  std::function<int(const Args&, const DeviceLimits&)> block_for;
  bool grid_stride = false;     //!< honours Args::grid (--grid)
  bool deterministic = false;   //!< same bits on every run with the same input and configuration
  typename P::Caps caps{};      //!< what the stage supports of the problem's own options

  //! Blocks the stage's main kernel launches for these arguments; null means ceil(n / block).
  std::function<std::size_t(const Args&)> grid_for;
  //! Most blocks the stage can launch: 2^31 - 1, what a grid holds, or fewer where a kernel counts
  //! its blocks in a narrower field (scan stage 9's run word: 2^24 - 1). A larger grid is refused.
  std::size_t max_grid = 0x7FFFFFFF;
  //! Scratch bytes the stage needs; null means none.
  std::function<std::size_t(const Args&)> workspace_bytes;
  //! Bytes at the start of the workspace that must be zero before the first launch on it and that
  //! every launch that completes leaves ready for the next (zero again: a ticket counter its last
  //! block resets, ch07's stage 12; or a run word whose epoch it advances, ch08's scan stage 9), so
  //! the launch enqueues no zeroing of its own; 0: none. The harness zeroes them once after
  //! poisoning the workspace (Session::poison_for), never between timed runs. A launch stopped
  //! midway may leave them in any state; the next poison_for (or the caller's own cudaMemset after
  //! the same poison) sets them again. Their first 4 bytes hold a count (a ticket counter, the
  //! counts of a run word) that every complete launch leaves at 0: Session::check_output fails a
  //! run after which it is not, since that run began from a workspace nobody prepared. A launch
  //! that draws a ticket past its grid writes no result (no access out of bounds). A value at or
  //! past the workspace's size (kWholeWorkspace) means all of it (histogram stage 10: its ticket,
  //! then a histogram the last block zeroes again); users take the smaller of the two.
  std::size_t workspace_zeroed_bytes = 0;
  //! Longest chain of floating-point additions any output value goes through (elements per
  //! thread, tree levels, partials folded serially or by atomics), for the error bound on random
  //! floats; null means the problem's default. Unused by problems whose results are integers.
  std::function<double(const Args&)> depth;
  // --- what the GPU must offer (checked before any launch: check_device_fit, run_stage.hpp) ----
  //! Oldest GPU the stage runs on, as 10 x major + minor (90: sm_90, Hopper); 0: every GPU the
  //! toolkit builds for (sm_75 and newer).
  int min_cc = 0;
  //! Non-empty when this build holds no kernel for the stage: its CUDA toolkit cannot compile it, or
  //! CMAKE_CUDA_ARCHITECTURES named no architecture it needs (scan stage 8, chapter 7's stage 13:
  //! sm_90): why, and what would build it (said in the refusal).
  std::string unavailable;
  //! Shared memory one block needs, static + dynamic, in bytes, for these arguments. Null when the
  //! stage uses static shared memory only: the compiler holds that to 48 KiB, which every GPU gives
  //! a block. Compared with DeviceLimits::smem_per_block (the opt-in limit of the device).
  std::function<std::size_t(const Args&)> shared_bytes;
  //! Any further rule of the device (e.g. the resident threads per SM a tuning is compiled for):
  //! why the stage cannot run with these arguments under `limits`, empty when it can; null: none.
  std::function<std::string(const Args&, const DeviceLimits& limits)> device_rule;
  //! What to run where this stage cannot, e.g. "scan_stage_7" (said in the refusal, and where a
  //! type or a problem's option the stage does not offer is refused).
  std::string instead;

  //! Enqueues the whole algorithm on args.stream (zeroing, every pass). Called with n > 0 and
  //! arguments already validated; the harness checks the launch for errors afterwards. A plain
  //! function (the stage header's launch_<stage>), so the way from the command line to the
  //! kernel's <<<...>>> goes through named functions only.
  void (*launch)(const Args&) = nullptr;
};

//! What a reader sees of a stage, as its header writes it: the four fields of Stage that say what the
//! stage is. The rest of a Stage (limits, grid, workspace, depth, launch) a chapter's record builder
//! fills once for the stages that share it (e.g. ch08::grid_stride_stage, ch07::finish_stage).
struct StageCard {
  std::string name;    //!< program name, e.g. "reduce_kernel_3"
  std::string label;   //!< short idea, e.g. "strided index"
  std::string change;  //!< what changed against the stage before, one sentence
  std::string source;  //!< where it comes from, e.g. "article section 6"
};

//! A stage of problem P that carries `card` and has every other field at its default.
//! @param[in] card its name, label, change and source
template <class P>
Stage<P> stage_of_card(StageCard card) {
  Stage<P> s;
  s.name = std::move(card.name);
  s.label = std::move(card.label);
  s.change = std::move(card.change);
  s.source = std::move(card.source);
  return s;
}

//! True when `b` is a power of two.
constexpr bool is_power_of_two(long long b) { return b > 0 && (b & (b - 1)) == 0; }

//! The block size `stage` runs at when none is asked for: its default_block, else 256 clamped to
//! its range.
template <class P>
int default_block_of(const Stage<P>& stage) {
  if (stage.default_block) return stage.default_block;
  return stage.max_block < 256 ? stage.max_block : (stage.min_block > 256 ? stage.min_block : 256);
}

//! The block size `stage` runs at on a GPU with `limits` when none is asked for: its block_for at `a`
//! if it has one, else default_block_of; halved while the stage's shared memory at `a` (a.block
//! aside) would not fit the GPU's shared memory per block (so a T4 runs the per-thread counter histograms at block 128 where an H200 runs 256).
template <class P>
int default_block_of(const Stage<P>& stage, typename P::Args a, const DeviceLimits& limits) {
  int b = stage.block_for ? stage.block_for(a, limits) : 0;
  if (b == 0) b = default_block_of(stage);
  if (!stage.shared_bytes) return b;
  for (; b > stage.min_block; b /= 2) {
    a.block = b;
    if (stage.shared_bytes(a) <= limits.smem_per_block) break;
  }
  return b;
}

}  // namespace harness
