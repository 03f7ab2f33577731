//! @file scan_block_blelloch.cuh
//! @brief The chapter's Blelloch scan of one block (chapter 8, section 8.7): an exclusive scan of a
//! tile of Block elements in shared memory, upsweep then downsweep, one element per thread.
//!
//! What it is: the first scan of the chapter, as the chapter writes it. The upsweep is the tree
//! reduction of section 8.3 that keeps its internal nodes; the downsweep walks the tree back down,
//! giving each left child its parent's carry and each right child carry + left-subtree sum, so slot
//! i ends with a_0 + ... + a_{i-1}. One block scans at most Block elements: the program refuses a
//! larger n and names scan_stage_1, which scans any n with many blocks.
//! What the profiler shows: one block on one SM, 2 * log2(Block) + 1 barriers, shared-memory bank
//! conflicts that grow with the stride (the right children t = (k + 1) * 2 * stride - 1 of one warp
//! are 2 * stride slots apart, so strides of 16 and more put a warp's accesses in one bank);
//! scan_stage_2 removes most of them by padding.
//!
//! `--trace` runs a variant of the same kernel that copies the shared array to a device buffer after
//! every level (blelloch_trace_kernel), and prints it next to the host model of
//! common/scan/blelloch_model.hpp: exercise 3 of the chapter ([1, 2, 3, 4] -> [0, 1, 3, 6]).
//!
//! Also used by scan_stage_1 and scan_stage_2: blelloch_scan_shared and scan_tile_blelloch, with a
//! shared-memory layout policy (Unpadded here; PaddedForBanks in stage 2).
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "kernel_support.cuh"
#include "scan/blelloch_model.hpp"
#include "scan/scan_problem.hpp"
#include "scan_support.cuh"

namespace ch08 {

//! Shared-memory layout of the chapter: logical slot i is shared element i.
struct Unpadded {
  //! Shared element holding logical slot i.
  __host__ __device__ static constexpr int slot(int i) { return i; }
  //! Shared elements needed for `tile` logical slots.
  __host__ __device__ static constexpr int slots(int tile) { return tile; }
};

//! A trace policy that records nothing: the timed kernels use it, and it compiles away.
struct NoTrace {
  //! Does nothing.
  template <class T>
  __device__ void operator()(int, const T*, int) const {}
};

//! A trace policy that copies the tile (in logical order) to row `row` of a device buffer of
//! rows x tile elements. It starts with a barrier, so every write of the level is visible; every
//! thread of the block must call it.
//! @tparam T element type
//! @tparam Layout shared-memory layout (Unpadded or PaddedForBanks)
template <class T, class Layout>
struct TraceRows {
  T* rows;  //!< device buffer, (2 * log2(tile) + 2) x tile elements
  //! Records the shared array `s` of `tile` logical slots as trace row `row`.
  __device__ void operator()(int row, const T* s, int tile) const {
    __syncthreads();
    const int tid = static_cast<int>(threadIdx.x);
    if (tid < tile) rows[static_cast<std::size_t>(row) * tile + tid] = s[Layout::slot(tid)];
  }
};

//! The chapter's block scan: in-place exclusive scan of `tile` logical slots of `s`.
//! Upsweep (stride 1, 2, ..., tile/2): s[t] += s[t - stride] for every right child
//! t = (threadIdx.x + 1) * 2 * stride - 1 < tile; the root's carry is set to 0; downsweep (stride
//! tile/2, ..., 1): carry = s[t]; s[t] = carry + s[t - stride]; s[t - stride] = carry (s[t] is read
//! into carry before s[t - stride] is overwritten). Each level's writes are disjoint; a barrier
//! separates levels. After the call, slot i holds s_0 + ... + s_{i-1} and every thread may read any
//! slot.
//! @tparam Layout shared-memory layout: logical slot i lives in s[Layout::slot(i)]
//! @tparam T element type (float, double, int; ints wrap modulo 2^32)
//! @tparam Trace NoTrace, or TraceRows to record the array after each level (rows 1, 2, ...)
//! @param[in,out] s Layout::slots(tile) shared elements; slots 0..tile-1 hold the input, stored by
//!   the caller (no barrier needed before the call: the first level starts with one)
//! @param[in] tile logical slots: a power of two from 1 to blockDim.x (threads with
//!   threadIdx.x >= tile / 2 only pass the barriers)
//! @param[in] trace the trace policy
//! @return in thread 0: the tile's total (the root after the upsweep); in other threads 0
//! Barriers: 2 * log2(tile) + 1. Every thread of the block must call it.
//! Source: chapter 8, section 8.7 (scanBlock).
template <class Layout, class T, class Trace>
__device__ __forceinline__ T blelloch_scan_shared(T* s, int tile, const Trace& trace) {
  const int tid = static_cast<int>(threadIdx.x);
  int row = 1;
  // Upsweep: after level `stride`, s[t] holds the sum of the 2 * stride elements ending at t.
  for (int stride = 1; stride < tile; stride <<= 1) {
    __syncthreads();
    const int t = (tid + 1) * 2 * stride - 1;  // right child
    if (t < tile) s[Layout::slot(t)] += s[Layout::slot(t - stride)];
    trace(row++, s, tile);
  }
  // The root now holds the tile's total (thread 0 wrote it in the last level, or loaded it when
  // tile = 1). Keep it, then set the root's carry: the sum of the empty sequence before the tile.
  T total = T(0);
  if (tid == 0) {
    total = s[Layout::slot(tile - 1)];
    s[Layout::slot(tile - 1)] = T(0);
  }
  trace(row++, s, tile);
  // Downsweep: the pair (t - stride, t) receives its carry in s[t].
  for (int stride = tile / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    const int t = (tid + 1) * 2 * stride - 1;
    if (t < tile) {
      const T carry = s[Layout::slot(t)];                    // sum before this pair
      s[Layout::slot(t)] = carry + s[Layout::slot(t - stride)];  // right: carry + left sum
      s[Layout::slot(t - stride)] = carry;                   // left: the carry
    }
    trace(row++, s, tile);
  }
  __syncthreads();
  return total;
}

//! One tile of Block elements per block: loads it (the identity 0 past n), scans it with
//! blelloch_scan_shared, writes the prefixes (exclusive, or inclusive by adding the thread's own
//! element) and, if `tile_totals` is not null, the tile's total to tile_totals[blockIdx.x].
//! `in` may equal `out` (each block reads its whole tile before it writes).
//! @tparam T float, double or int
//! @tparam Block threads per block = elements per tile: a power of two, 32..1024, equal to blockDim.x
//! @tparam Layout shared-memory layout (Unpadded here, PaddedForBanks in stage 2)
//! @param[in] in n input elements
//! @param[out] out n outputs (may be `in`)
//! @param[in] n number of elements (> 0)
//! @param[out] tile_totals ceil(n / Block) totals, or nullptr
//! @param[in] inclusive write inclusive prefixes
//! Launch: ceil(n / Block) blocks of Block threads. Shared memory: Layout::slots(Block) elements.
//! Source: chapter 8, section 8.7; the totals for the multi-block scan of the chapter's "Cost".
template <class T, int Block, class Layout>
__global__ void __launch_bounds__(Block)
    scan_tile_blelloch(const T* in, T* out, std::size_t n, T* tile_totals, bool inclusive) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0, "a power of two, 32..1024");
  __shared__ T s[Layout::slots(Block)];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * Block + threadIdx.x;
  const T a = i < n ? in[i] : T(0);  // the identity pads the last tile
  s[Layout::slot(threadIdx.x)] = a;
  const T total = blelloch_scan_shared<Layout>(s, Block, NoTrace{});
  if (i < n) {
    const T exclusive = s[Layout::slot(threadIdx.x)];
    out[i] = inclusive ? exclusive + a : exclusive;
  }
  if (tile_totals != nullptr && threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

//! The same block scan recording the shared array after every level: one block of `tile` threads
//! (tile = the next power of two >= n, at most 1024), dynamic shared memory of tile elements.
//! @tparam T float, double or int
//! @param[in] in n input elements (n >= 1)
//! @param[in] n number of elements
//! @param[out] rows (2 * log2(tile) + 2) x tile elements: row 0 the padded input, then every level
template <class T>
__global__ void blelloch_trace_kernel(const T* in, std::size_t n, T* rows) {
  extern __shared__ unsigned char trace_smem[];
  T* s = reinterpret_cast<T*>(trace_smem);
  const int tile = static_cast<int>(blockDim.x);
  const TraceRows<T, Unpadded> trace{rows};
  s[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : T(0);
  trace(0, s, tile);
  blelloch_scan_shared<Unpadded>(s, tile, trace);
}

//! Runs blelloch_trace_kernel on `values` (converted to `type`), prints the GPU's trace, the host
//! model's trace (common/scan/blelloch_model.hpp) and whether they agree level by level.
//! @param[in] type float, double or int
//! @param[in] values 1 to 1024 input elements (exercise 3: {1, 2, 3, 4})
//! @return 0 when the GPU and the model agree at every level, 1 otherwise
//! @throws UsageError for an empty input or more than 1024 elements
inline int print_blelloch_trace(harness::DType type, const std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n == 0 || n > 1024)
    throw harness::UsageError("--trace takes 1 to 1024 values (one block); got " + std::to_string(n));
  return harness::with_input_type(type, [&](auto t) {
    using T = decltype(t);
    const std::vector<T> a(values.begin(), values.end());
    const harness::BlellochTrace model = harness::blelloch_model_trace(a.data(), n);
    const std::size_t tile = model.tile;
    const std::size_t rows = model.labels.size();
    harness::DeviceBuffer d_in(n * sizeof(T)), d_rows(rows * tile * sizeof(T));
    CUDA_CHECK(cudaMemcpy(d_in.data(), a.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    blelloch_trace_kernel<T><<<1, static_cast<unsigned>(tile), tile * sizeof(T)>>>(d_in.as<T>(), n, d_rows.as<T>());
    CUDA_CHECK_LAUNCH();
    std::vector<T> host(rows * tile);
    CUDA_CHECK(cudaMemcpy(host.data(), d_rows.data(), host.size() * sizeof(T), cudaMemcpyDeviceToHost));
    harness::BlellochTrace gpu = model;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < tile; ++i) gpu.rows[r][i] = static_cast<double>(host[r * tile + i]);
    std::printf("Blelloch block scan of %zu %s values, tile %zu (chapter 8, section 8.7; exercise 3)\n",
                n, harness::dtype_name(type), tile);
    std::printf("\nGPU (blelloch_trace_kernel, one block of %zu threads):\n%s", tile,
                harness::format_blelloch_trace(gpu).c_str());
    std::printf("\nhost model (common/scan/blelloch_model.cpp):\n%s",
                harness::format_blelloch_trace(model).c_str());
    // Equal level by level, a NaN in the same place as a NaN (NaN != NaN, so == would call them different).
    bool same = gpu.rows.size() == model.rows.size();
    for (std::size_t r = 0; same && r < rows; ++r)
      for (std::size_t i = 0; same && i < tile; ++i) {
        const double g = gpu.rows[r][i], m = model.rows[r][i];
        same = g == m || (std::isnan(g) && std::isnan(m));
      }
    std::printf("\nGPU and host model %s\n", same ? "agree at every level" : "DIFFER");
    return same ? 0 : 1;
  });
}

//! Launches scan_tile_blelloch on one block: n <= Block.
//! @param[in] a scan arguments (n <= a.block; the harness refuses larger n, naming scan_stage_1)
inline void launch_scan_block_blelloch(const harness::ScanArgs& a) {
  if (a.n > static_cast<std::size_t>(a.block))
    throw harness::UsageError("scan_block_blelloch scans one block: n must be at most the block size; "
                              "use scan_stage_1 for larger n");
  harness::with_input_type(a.type, [&](auto t) {
    using T = decltype(t);
    harness::with_block_size(a.block, [&](auto block) {
      constexpr int kBlock = decltype(block)::value;
      scan_tile_blelloch<T, kBlock, Unpadded>
          <<<1, kBlock, 0, a.stream>>>(a.input<T>(), a.output<T>(), a.n, nullptr, a.inclusive);
    });
  });
}

//! Longest addition chain of the block scan: log2(Block) upsweep levels and log2(Block) downsweep
//! levels, plus the thread's own element for an inclusive scan.
inline double blelloch_block_depth(int block, bool inclusive) {
  return 2.0 * log2_int(block) + (inclusive ? 1 : 0);
}

//! The stage: the chapter's one-block Blelloch scan.
inline harness::Stage<harness::Scan> scan_block_blelloch_stage() {
  harness::Stage<harness::Scan> s;
  s.name = "scan_block_blelloch";
  s.label = "Blelloch block scan";
  s.change = "the chapter's work-efficient scan of one block: upsweep and downsweep in shared memory";
  s.source = "chapter 8, section 8.7 (scanBlock); exercise 3 with --trace";
  s.deterministic = true;
  s.caps.max_n = [](int block) { return static_cast<std::size_t>(block); };
  s.caps.larger_n_stage = "scan_stage_1";
  s.grid_for = [](const harness::ScanArgs&) { return std::size_t{1}; };
  s.depth = [](const harness::ScanArgs& a) { return blelloch_block_depth(a.block, a.inclusive); };
  s.launch = launch_scan_block_blelloch;
  return s;
}

}  // namespace ch08
