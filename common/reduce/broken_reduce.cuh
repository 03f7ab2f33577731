//! @file broken_reduce.cuh
//! @brief Deliberately broken reductions for the self-test: each must be reported as failed by the
//! same path a reader uses (the stage program's checks, and the tests' sweep). If one of them ever
//! prints PASS, the check cannot fail and proves nothing.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "lost_elements.hpp"
#include "reduce_problem.hpp"

namespace harness {

//! What is wrong with a broken reduction.
enum class ReduceBug {  // the first four in the order of Lost (lost_elements.hpp)
  skip_first,         //!< element 0 is never read
  drop_last,          //!< element n - 1 is never read
  drop_last_three,    //!< the last three elements are never read (a forgotten vector remainder)
  skip_block_firsts,  //!< the first element of three blocks is never read
  write_nothing,      //!< no kernel runs: the output keeps whatever was there (the poison)
  count_twice         //!< element 0 is added twice
};

//! The command-line names of the bugs, in the order of the enum.
inline std::vector<std::string> reduce_bug_names() {
  return {"skip-first", "drop-last", "drop-last-3", "skip-block-firsts", "write-nothing", "count-twice"};
}

//! The elements a bug that loses elements loses (skip_first .. skip_block_firsts, in the order of Lost).
constexpr Lost lost_of(ReduceBug bug) { return static_cast<Lost>(static_cast<int>(bug)); }
static_assert(lost_of(ReduceBug::skip_first) == Lost::first && lost_of(ReduceBug::drop_last) == Lost::last &&
              lost_of(ReduceBug::drop_last_three) == Lost::last_three &&
              lost_of(ReduceBug::skip_block_firsts) == Lost::block_firsts);

//! A plain correct reduction -- grid-stride sum per thread, warp shuffles, one atomicAdd per warp --
//! that reads only the elements `keep` reads (all of them for a correct run), and adds data[0] once
//! more when `count_twice` is set.
//! @tparam T float, double or int
//! @param[in] data n elements
//! @param[in] n number of elements (> 0)
//! @param[in] keep which elements are read (lost_elements())
//! @param[in] count_twice add element 0 a second time
//! @param[in,out] result one element, zeroed before the launch
template <class T>
__global__ void broken_reduce_kernel(const T* __restrict__ data, std::size_t n, LostElements keep,
                                     bool count_twice, T* result) {
  T sum = T(0);
  for (std::size_t i = global_thread_id(); i < n; i += grid_threads())
    if (keep.reads(i)) sum += data[i];
  if (count_twice && global_thread_id() == 0) sum += data[0];
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(result, sum);
}

//! Launches the broken reduction with `Bug` (nothing at all for write_nothing). The blocks of
//! skip_block_firsts are blocks of a.block elements, as a one-element-per-thread stage has them.
template <ReduceBug Bug>
void launch_broken_reduce(const ReduceArgs& a) {
  if constexpr (Bug == ReduceBug::write_nothing) return;
  LostElements keep;
  keep.end = a.n;  // reads every element
  if constexpr (Bug != ReduceBug::count_twice) keep = lost_elements(lost_of(Bug), a.n, static_cast<std::size_t>(a.block));
  const std::size_t grid = std::min<std::size_t>(blocks_for(a.n, a.block), 1024);
  with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    CUDA_CHECK(cudaMemsetAsync(a.out, 0, sizeof(T), a.stream));
    broken_reduce_kernel<T><<<grid, a.block, 0, a.stream>>>(a.input<T>(), a.n, keep,
                                                            Bug == ReduceBug::count_twice, a.output<T>());
  });
}

//! The broken reduction with `Bug` as a stage (program reduce_broken, the self-tests).
template <ReduceBug Bug>
Stage<Reduce> broken_reduce_stage() {
  Stage<Reduce> s;
  s.name = "reduce_broken";
  if constexpr (Bug == ReduceBug::write_nothing) s.label = "writes nothing";
  else if constexpr (Bug == ReduceBug::count_twice) s.label = "counts element 0 twice";
  else s.label = lost_label(lost_of(Bug), "element");
  s.change = "a deliberately wrong reduction: the self-test proves the checks report it";
  s.source = "this tutorial's self-test";
  s.launch = launch_broken_reduce<Bug>;
  return s;
}

//! Every broken reduction, in the order of reduce_bug_names().
inline std::vector<Stage<Reduce>> broken_reduce_stages() {
  return {broken_reduce_stage<ReduceBug::skip_first>(),      broken_reduce_stage<ReduceBug::drop_last>(),
          broken_reduce_stage<ReduceBug::drop_last_three>(), broken_reduce_stage<ReduceBug::skip_block_firsts>(),
          broken_reduce_stage<ReduceBug::write_nothing>(),   broken_reduce_stage<ReduceBug::count_twice>()};
}

}  // namespace harness
