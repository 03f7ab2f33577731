//! @file run_stage.hpp
//! @brief Checking that a stage accepts a launch, and running it: the generic part of every
//! problem's launch path (the problem adds its own rules through P::validate and P::run_empty).
#pragma once
#include <algorithm>
#include <limits>
#include <sstream>
#include <string>

#include "cuda_check.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "stage.hpp"

namespace harness {

//! Blocks `stage` launches for `a`: its grid_for rule, else ceil(n / block) (one element a thread).
template <class P>
std::size_t grid_of(const Stage<P>& stage, const typename P::Args& a) {
  if (a.n == 0) return 0;
  const auto b = static_cast<std::size_t>(a.block);
  return stage.grid_for ? stage.grid_for(a) : (a.n + b - 1) / b;
}

//! Scratch bytes `stage` needs for `a` (0 if none).
template <class P>
std::size_t workspace_of(const Stage<P>& stage, const typename P::Args& a) {
  return (stage.workspace_bytes && a.n > 0) ? stage.workspace_bytes(a) : 0;
}

//! Checks what needs neither buffers nor a GPU: the input type, the block size (a power of two
//! within the stage's limits), --grid only for grid-stride stages, and the problem's own rules
//! (P::validate: operator, bins, largest n ...).
//! @throws UsageError naming the stage and the rule that was broken
template <class P>
void validate_config(const Stage<P>& stage, const typename P::Args& a) {
  auto fail = [&](const std::string& what) { throw UsageError(stage.name + ": " + what); };
  if (std::find(stage.types.begin(), stage.types.end(), a.type) == stage.types.end())
    fail(std::string("type ") + dtype_name(a.type) + " is not supported" +
         (stage.instead.empty() ? std::string() : "; run " + stage.instead + " instead"));
  if (!is_power_of_two(a.block) || a.block < stage.min_block || a.block > stage.max_block) {
    std::ostringstream m;
    m << "block size " << a.block << " is not supported: it must be a power of two from "
      << stage.min_block << " to " << stage.max_block;
    fail(m.str());
  }
  if (a.grid != 0 && !stage.grid_stride)
    fail("--grid is not supported: this stage launches one thread per element");
  // n elements must have a byte count a size_t holds with room to spare (2^62 bytes, far past any
  // GPU): otherwise n * sizeof(T) would wrap and every later size check would pass on a wrong number.
  if (a.n > (std::size_t{1} << 62) / dtype_size(a.type)) {
    std::ostringstream m;
    m << "n = " << a.n << " " << dtype_name(a.type) << " elements would take more than 2^62 bytes: no GPU holds that";
    fail(m.str());
  }
  P::validate(stage, a);
}

//! Why `stage` cannot run with `a` on a GPU with these `limits` (its toolkit, its architecture,
//! its shared memory per block, its own device_rule); empty when it can. Needs no GPU: the CPU test
//! of the stages' limits calls it with the limits of the readers' GPUs (reader_gpus()).
template <class P>
std::string device_refusal(const Stage<P>& stage, const typename P::Args& a, const DeviceLimits& limits) {
  if (!stage.unavailable.empty()) return stage.unavailable;
  if (stage.min_cc && limits.cc < stage.min_cc)
    return "it needs sm_" + std::to_string(stage.min_cc) + " or newer, and this GPU is " + limits.arch();
  if (stage.shared_bytes) {
    const std::size_t need = stage.shared_bytes(a);
    if (need > limits.smem_per_block)
      return "it needs " + std::to_string(need) + " bytes of shared memory per block at block " +
             std::to_string(a.block) + ", and this GPU gives a block at most " +
             std::to_string(limits.smem_per_block) + " (" + bytes_text(limits.smem_per_block) + ")";
  }
  if (stage.device_rule) return stage.device_rule(a, limits);
  return {};
}

//! Refuses, before anything is allocated or launched, what device_refusal says `stage` cannot run
//! under `limits`, with what to do instead: the largest block size that would fit, else the stage's
//! `instead`.
//! @throws UnsupportedError "<stage>: cannot run on this GPU (<name>): <why>; <what to do>"
template <class P>
void check_device_fit(const Stage<P>& stage, const typename P::Args& a, const DeviceLimits& limits) {
  const std::string why = device_refusal(stage, a, limits);
  if (why.empty()) return;
  std::string advice;
  if (stage.unavailable.empty() && !(stage.min_cc && limits.cc < stage.min_cc)) {
    for (int b = stage.max_block; b >= stage.min_block && advice.empty(); b /= 2) {
      typename P::Args smaller = a;
      smaller.block = b;
      if (b != a.block && device_refusal(stage, smaller, limits).empty())
        advice = "run it with --block " + std::to_string(b);
    }
  }
  if (advice.empty() && !stage.instead.empty()) advice = "run " + stage.instead + " instead";
  throw UnsupportedError(stage.name + ": " + kCannotRunHere + " (" + limits.name + "): " + why +
                         (advice.empty() ? std::string() : "; " + advice));
}

//! validate_config, then the grid the stage would launch (it may ask the device for occupancy):
//! at most Stage::max_grid blocks (2^31 - 1 unless the stage says fewer).
//! @throws UsageError naming the stage and the rule that was broken
template <class P>
void validate_shape(const Stage<P>& stage, const typename P::Args& a) {
  validate_config(stage, a);
  const std::size_t grid = grid_of(stage, a);
  const std::size_t most = std::min(stage.max_grid, static_cast<std::size_t>(std::numeric_limits<int>::max()));
  if (grid > most) {
    std::ostringstream m;
    m << stage.name << ": n = " << a.n << " with block " << a.block << " needs " << grid << " blocks, more than the "
      << (most == static_cast<std::size_t>(std::numeric_limits<int>::max()) ? std::string("2^31 - 1 a grid")
                                                                               : std::to_string(most) + " this stage")
      << " can hold";
    throw UsageError(m.str());
  }
}

//! Validates `a` (validate_shape and the workspace size), then enqueues the stage. n = 0 runs
//! P::run_empty instead (a grid of zero blocks is not a valid launch). Checks the launch.
//! @throws UsageError for arguments the stage does not accept, CudaError for CUDA failures
template <class P>
void run_stage(const Stage<P>& stage, const typename P::Args& a) {
  validate_shape(stage, a);
  const std::size_t ws = workspace_of(stage, a);
  if (ws > a.workspace_size) {
    std::ostringstream m;
    m << stage.name << ": needs " << ws << " bytes of workspace, given " << a.workspace_size;
    throw UsageError(m.str());
  }
  if (a.n == 0) {
    P::run_empty(stage, a);
  } else {
    stage.launch(a);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace harness
