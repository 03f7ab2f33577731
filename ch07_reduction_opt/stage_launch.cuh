//! @file stage_launch.cuh
//! @brief How chapter 7's stages are launched: run-time type and block size to template arguments,
//! the result zeroed before the kernel (the article's stages all finish with atomicAdd).
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "cuda_check.hpp"
#include "dtype.hpp"
#include "kernel_support.cuh"
#include "reduce_impl.hpp"

namespace ch07 {

//! Completes `meta` (name, label, change, source, limits) with a launch function that zeroes the
//! one-element result, then calls `launch(T{}, std::integral_constant<int, Block>{}, args, grid)`
//! with T the element type and Block the block size of `args`.
//! @tparam Launch a generic callable `(T, std::integral_constant<int, Block>, const ReduceArgs&,
//!         std::size_t grid)`
//! @param[in] meta the stage's description; its grid_for, if set, chooses the grid
//! @param[in] launch a generic callable that launches the stage's kernel on args.stream
template <class Launch>
harness::ReduceImpl make_atomic_stage(harness::ReduceImpl meta, Launch launch) {
  auto grid_rule = meta.grid_for;
  meta.launch = [launch, grid_rule](const harness::ReduceArgs& a) {
    const std::size_t grid = grid_rule ? grid_rule(a) : harness::blocks_for(a.n, a.block);
    harness::with_input_type(a.type, [&](auto t) {
      using T = decltype(t);
      CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
      harness::with_block_size(a.block, [&](auto block) { launch(t, block, a, grid); });
    });
  };
  return meta;
}

//! The input pointer of `a` as T.
//! @tparam T element type of the input
template <class T>
const T* input_as(const harness::ReduceArgs& a) {
  return static_cast<const T*>(a.in);
}
//! The output pointer of `a` as T.
//! @tparam T element type of the output
template <class T>
T* output_as(const harness::ReduceArgs& a) {
  return static_cast<T*>(a.out);
}

}  // namespace ch07
