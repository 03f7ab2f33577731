// The streaming-read ceiling (see streaming_read.hpp).
#include <cstdint>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "kernel_support.cuh"
#include "streaming_read.hpp"

namespace harness {

namespace {

constexpr int kBlock = 256;
constexpr int kInFlight = 4;

__global__ void __launch_bounds__(kBlock)
    streaming_read_kernel(const unsigned char* __restrict__ in, std::size_t bytes,
                          unsigned* __restrict__ sink, unsigned never) {
  const auto address = reinterpret_cast<std::uintptr_t>(in);
  const std::size_t to_boundary = (16 - address % 16) % 16;
  const std::size_t head = to_boundary < bytes ? to_boundary : bytes;
  const std::size_t vectors = (bytes - head) / 16;
  const uint4* __restrict__ vin = reinterpret_cast<const uint4*>(in + head);
  const std::size_t stride = grid_threads();
  const std::size_t id = global_thread_id();
  unsigned acc = 0;
  std::size_t i = id;
  for (; i + (kInFlight - 1) * stride < vectors; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = __ldg(vin + i + k * stride);
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < vectors; i += stride) {
    const uint4 v = __ldg(vin + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  const std::size_t tail_begin = head + vectors * 16;
  if (id < head) acc ^= in[id];
  if (id < bytes - tail_begin) acc ^= in[tail_begin + id];
  if (acc == never) *sink = acc;
}

}  // namespace

std::size_t streaming_read_blocks() {
  return resident_blocks(reinterpret_cast<const void*>(&streaming_read_kernel), kBlock);
}

void streaming_read(const void* in, std::size_t bytes, unsigned* sink, unsigned never,
                    cudaStream_t stream) {
  if (bytes == 0) return;
  const std::size_t vectors = bytes / 16 + 1;
  std::size_t grid = streaming_read_blocks();
  if (grid > blocks_for(vectors, kBlock)) grid = blocks_for(vectors, kBlock);
  streaming_read_kernel<<<grid, kBlock, 0, stream>>>(static_cast<const unsigned char*>(in), bytes,
                                                     sink, never);
  CUDA_CHECK_LAUNCH();
}

}  // namespace harness
