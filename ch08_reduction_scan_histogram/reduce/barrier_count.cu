// Barrier counts: the arithmetic, and the instrumented kernels (CountingBarrier) run on the GPU.
#include <algorithm>
#include <string>
#include <vector>

#include "barrier_count.hpp"
#include "cuda_raii.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "reduce_ops.cuh"
#include "reduce_stage_0_single_thread.cuh"
#include "reduce_stage_1_shared_tree.cuh"
#include "reduce_stage_2_coarsened.cuh"
#include "reduce_stage_3_warp_shuffle.cuh"
#include "reduce_stage_4_block_reduce.cuh"
#include "reduce_stage_5_vectorized.cuh"
#include "run_stage.hpp"

namespace ch08 {

int expected_barriers(int stage, int block) {
  if (!harness::is_power_of_two(block) || block < 32 || block > 1024) return -1;
  int log2b = 0;
  while ((1 << log2b) < block) ++log2b;
  switch (stage) {
    case 0: return 0;
    case 1:
    case 2: return log2b;
    case 3: return log2b - 5;
    case 4:
    case 5: return 1;
    default: return -1;
  }
}

BarrierCount measure_barriers(int stage, int block, std::size_t n) {
  if (expected_barriers(stage, block) < 0)
    throw harness::UsageError("measure_barriers: stage " + std::to_string(stage) + ", block " +
                              std::to_string(block) + " is not a chapter-8 reduction stage");
  if (n == 0) throw harness::UsageError("measure_barriers: n must be positive");
  BarrierCount r;
  r.stage = stage;
  r.block = block;
  r.blocks = stage == 0 ? 1 : stage == 1 ? harness::blocks_for(n, block) : 64;
  harness::DeviceBuffer in(harness::checked_bytes(n, sizeof(float), "measure_barriers: n"));
  harness::DeviceBuffer partials(r.blocks * sizeof(float));
  harness::DeviceBuffer counts(r.blocks * sizeof(unsigned));
  CUDA_CHECK(cudaMemset(in.data(), 0, in.bytes()));
  CUDA_CHECK(cudaMemset(counts.data(), 0xFF, counts.bytes()));  // an unwritten slot shows as 2^32-1
  const float* x = static_cast<const float*>(in.data());
  float* p = static_cast<float*>(partials.data());
  CountingBarrier sync;
  sync.per_block = static_cast<unsigned*>(counts.data());
  const unsigned grid = static_cast<unsigned>(r.blocks);
  harness::with_block_size(block, [&](auto b) {
    constexpr int B = decltype(b)::value;
    switch (stage) {
      case 0: reduce_stage_0<float><<<1, B>>>(x, n, p, Sum{}, sync); break;
      case 1: reduce_stage_1<float, Sum, B><<<grid, B>>>(x, n, p, Sum{}, sync); break;
      case 2: reduce_stage_2<float, Sum, B><<<grid, B>>>(x, n, p, Sum{}, sync); break;
      case 3: reduce_stage_3<float, Sum, B><<<grid, B>>>(x, n, p, Sum{}, sync); break;
      case 4: reduce_stage_4<float, Sum, B><<<grid, B>>>(x, n, p, Sum{}, sync); break;
      case 5: reduce_stage_5<float, Sum, B><<<grid, B>>>(x, n, p, Sum{}, sync); break;
    }
  });
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> host(r.blocks);
  CUDA_CHECK(cudaMemcpy(host.data(), counts.data(), counts.bytes(), cudaMemcpyDeviceToHost));
  const auto [lo, hi] = std::minmax_element(host.begin(), host.end());
  r.min_per_block = *lo;
  r.max_per_block = *hi;
  return r;
}

}  // namespace ch08
