//! @file broken_reduce.cuh
//! @brief Deliberately broken reductions for the self-test: each must be reported as failed by the
//! same path a reader uses (the stage program's checks). If one of them ever prints PASS, the check
//! cannot fail and proves nothing.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "reduce_problem.hpp"

namespace harness {

//! What is wrong with a broken reduction.
enum class ReduceBug {
  drop_one,       //!< the last element is never read
  write_nothing,  //!< no kernel runs: the output keeps whatever was there (the poison)
  count_twice     //!< element 0 is added twice
};

//! A plain correct reduction -- grid-stride sum per thread, warp shuffles, one atomicAdd per warp --
//! with the bug planted: reads data[0..n - 1) for drop_one, adds data[0] once more for count_twice.
//! @tparam T float, double or int
//! @param[in] data n elements
//! @param[in] n number of elements (> 0)
//! @param[in,out] result one element, zeroed before the launch
//! @param[in] bug which bug to plant
template <class T>
__global__ void broken_reduce_kernel(const T* __restrict__ data, std::size_t n, T* result, ReduceBug bug) {
  const std::size_t end = bug == ReduceBug::drop_one ? n - 1 : n;
  T sum = T(0);
  for (std::size_t i = global_thread_id(); i < end; i += grid_threads()) sum += data[i];
  if (bug == ReduceBug::count_twice && global_thread_id() == 0) sum += data[0];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}

//! Launches the broken reduction with `Bug` (nothing at all for write_nothing).
template <ReduceBug Bug>
void launch_broken_reduce(const ReduceArgs& a) {
  if constexpr (Bug == ReduceBug::write_nothing) return;
  const std::size_t grid = std::min<std::size_t>(blocks_for(a.n, a.block), 1024);
  with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    broken_reduce_kernel<T><<<grid, a.block, 0, a.stream>>>(a.input<T>(), a.n, a.output<T>(), Bug);
  });
}

//! The broken reduction with `Bug` as a stage.
template <ReduceBug Bug>
Stage<Reduce> broken_reduce_stage() {
  Stage<Reduce> s;
  s.name = "reduce_broken";
  s.label = Bug == ReduceBug::drop_one ? "drops the last element"
          : Bug == ReduceBug::write_nothing ? "writes nothing" : "counts element 0 twice";
  s.change = "a deliberately wrong reduction: the self-test proves the checks report it";
  s.source = "this tutorial's self-test";
  s.launch = launch_broken_reduce<Bug>;
  return s;
}

}  // namespace harness
