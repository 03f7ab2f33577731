//! @file 03_blelloch_downsweep.cuh
//! @brief Exercise ch08/03: the downsweep of the Blelloch block scan (exercise: fill in the TODO(student) parts).
//!
//! Goal: finish the chapter's work-efficient block scan (section 8.7). The upsweep is given: it is
//! the tree reduction that keeps its internal nodes, so afterwards the root (slot tile - 1) holds
//! the tile's total and every right child t = (k + 1) * 2 * stride - 1 holds the sum of the
//! 2 * stride elements ending at t. The root's carry is then set to 0. You write the downsweep:
//! walk the tree back down (stride tile / 2, ..., 1) so that slot i ends with a_0 + ... + a_{i-1}
//! (an exclusive scan), one barrier before each level.
//! Builds on: scan_block_blelloch (ch08_reduction_scan_histogram/scan/scan_block_blelloch.cuh,
//! blelloch_scan_shared); the kernel around it (load, identity padding, inclusive form, store) is
//! that program's, not part of the exercise.
//! Build and check: scripts/exercise.sh ch08/03
//!   (or: cmake --build build --target exercise_ch08_03 && ctest --test-dir build -L exercise -R ch08_03)
//! A right answer: [1, 2, 3, 4] scans to [0, 1, 3, 6] (the chapter's exercise 3), and the check
//! passes for every n up to the block size, every block size 32..1024, float / double / int,
//! exclusive and inclusive. `scan_block_blelloch --trace` prints the chapter's own kernel level by
//! level next to a host model, if you want to compare your levels with it.
//!
//! Stuck? The solved file, with why it works: solutions/ch08/03_blelloch_downsweep.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.hpp"
#include "kernel_support.cuh"
#include "scan/scan_problem.hpp"
#include "scan_block_blelloch.cuh"  // blelloch_block_depth

namespace ex08 {

//! In-place exclusive scan of s[0..tile): upsweep, root carry 0, downsweep. Every thread of the
//! block must call it; tile is a power of two, at most blockDim.x.
//! @return in thread 0, the tile's total (other threads: 0)
template <class T>
__device__ __forceinline__ T blelloch_scan_block(T* s, int tile) {
  const int tid = static_cast<int>(threadIdx.x);
  // Upsweep (given): after level `stride`, s[t] holds the sum of the 2 * stride elements ending at t.
  for (int stride = 1; stride < tile; stride <<= 1) {
    __syncthreads();
    const int t = (tid + 1) * 2 * stride - 1;  // right child
    if (t < tile) s[t] += s[t - stride];
  }
  // The root holds the tile's total: keep it, then give the root its carry, 0.
  T total = T(0);
  if (tid == 0) {
    total = s[tile - 1];
    s[tile - 1] = T(0);
  }
  // TODO(student): the downsweep, stride tile / 2 down to 1. Hints: exercises/README.md, exercise
  // ch08/03. As written the tile keeps the upsweep's partial sums: [1, 2, 3, 4] comes out as [1, 3,
  // 3, 10], not [0, 1, 3, 6].
  __syncthreads();
  return total;
}

//! One block scans n <= Block elements: load (identity 0 past n), blelloch_scan_block, store the
//! exclusive prefix (or, inclusive, the prefix plus the thread's own element).
template <class T, int Block>
__global__ void __launch_bounds__(Block) ex03_kernel(const T* in, T* out, std::size_t n, bool inclusive) {
  __shared__ T s[Block];
  const std::size_t i = threadIdx.x;
  const T a = i < n ? in[i] : T(0);
  s[threadIdx.x] = a;
  blelloch_scan_block(s, Block);
  if (i < n) out[i] = inclusive ? s[threadIdx.x] + a : s[threadIdx.x];
}

//! One block of ex03_kernel (the harness refuses n > block).
inline void launch_ex03(const harness::ScanArgs& a) {
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int B = decltype(block)::value;
      ex03_kernel<T, B><<<1, B, 0, a.stream>>>(a.input<T>(), a.output<T>(), a.n, a.inclusive);
    });
  });
}

//! The exercise as the harness runs it: one block, n up to the block size.
inline harness::Stage<harness::Scan> ex03_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "ch08_03_blelloch_downsweep";
  s.label = "exercise: Blelloch block scan";
  s.change = "upsweep, root carry 0, downsweep: the exclusive scan of one block in shared memory";
  s.source = "exercises/ch08/03_blelloch_downsweep.cuh";
  s.deterministic = true;
  s.caps.max_n = [](int block) { return static_cast<std::size_t>(block); };
  s.caps.larger_n_stage = "scan_stage_1";
  s.grid_for = [](const harness::ScanArgs&) { return std::size_t{1}; };
  s.depth = [](const harness::ScanArgs& a) { return ch08::blelloch_block_depth(a.block, a.inclusive); };
  s.launch = launch_ex03;
  return s;
}

}  // namespace ex08
