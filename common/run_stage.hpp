//! @file run_stage.hpp
//! @brief Checking that a stage accepts a launch, and running it: the generic part of every
//! problem's launch path (the problem adds its own rules through P::validate and P::run_empty).
#pragma once
#include <algorithm>
#include <limits>
#include <sstream>
#include <string>

#include "cuda_check.hpp"
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
    fail(std::string("type ") + dtype_name(a.type) + " is not supported");
  if (!is_power_of_two(a.block) || a.block < stage.min_block || a.block > stage.max_block) {
    std::ostringstream m;
    m << "block size " << a.block << " is not supported: it must be a power of two from "
      << stage.min_block << " to " << stage.max_block;
    fail(m.str());
  }
  if (a.grid != 0 && !stage.grid_stride)
    fail("--grid is not supported: this stage launches one thread per element");
  P::validate(stage, a);
}

//! validate_config, then the grid the stage would launch (it may ask the device for occupancy):
//! at most 2^31 - 1 blocks.
//! @throws UsageError naming the stage and the rule that was broken
template <class P>
void validate_shape(const Stage<P>& stage, const typename P::Args& a) {
  validate_config(stage, a);
  const std::size_t grid = grid_of(stage, a);
  if (grid > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    std::ostringstream m;
    m << stage.name << ": n = " << a.n << " with block " << a.block << " needs " << grid
      << " blocks, more than the 2^31 - 1 a grid can hold";
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
