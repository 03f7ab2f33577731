#include <cstdint>
#include <functional>

#include "ceilings.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "kernel_support.cuh"
#include "session.hpp"

namespace harness {

namespace {

constexpr int kReadBlock = 512;

// Streaming read: the bytes before the first 16-byte boundary and after the last one are read
// one at a time by block 0; the aligned middle with uint4 loads in a grid-stride loop, four loads
// in flight per thread.
__global__ void __launch_bounds__(kReadBlock)
    read_kernel(const unsigned char* in, std::size_t bytes, unsigned* sink) {
  const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16;
  const std::size_t lead = head < bytes ? head : bytes;
  const std::size_t vecs = (bytes - lead) / 16;
  const uint4* body = reinterpret_cast<const uint4*>(in + lead);
  unsigned acc = 0;
  // kUnroll independent 16-byte loads in flight per thread per trip (enough bytes in flight to
  // cover HBM's latency at full occupancy), then the remainder one load at a time.
  constexpr int kUnroll = 4;
  const std::size_t stride = grid_threads();
  std::size_t i = global_thread_id();
  for (; i + (kUnroll - 1) * stride < vecs; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcs(body + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < vecs; i += stride) {
    const uint4 v = __ldcs(body + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (blockIdx.x == 0)
    for (std::size_t i = threadIdx.x; i < lead; i += blockDim.x) acc ^= in[i];
  if (blockIdx.x == 0)
    for (std::size_t i = lead + vecs * 16 + threadIdx.x; i < bytes; i += blockDim.x) acc ^= in[i];
  for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicXor(sink + blockIdx.x, acc);
}

}  // namespace

const char* ceiling_name(Ceiling c) { return c == Ceiling::copy ? "copy (D2D)" : "read (stream)"; }

const char* ceiling_help(Ceiling c) {
  return c == Ceiling::copy ? "ceiling: reads and writes every byte (GB/s counts both)"
                            : "ceiling: reads every byte once with 16-byte loads (GB/s counts the reads)";
}

std::size_t read_ceiling_blocks() {
  static const std::size_t blocks = [] {
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return static_cast<std::size_t>(sms) * 4;
  }();
  return blocks;
}

void read_ceiling(const void* in, std::size_t bytes, unsigned* sink, cudaStream_t stream) {
  read_kernel<<<static_cast<unsigned>(read_ceiling_blocks()), kReadBlock, 0, stream>>>(
      static_cast<const unsigned char*>(in), bytes, sink);
  CUDA_CHECK_LAUNCH();
}

CeilingResult time_ceiling(Ceiling c, const void* in, std::size_t bytes, const TimingOptions& timing,
                           cudaStream_t stream, const DeviceInfo& dev) {
  CeilingResult r;
  if (bytes == 0) return r;
  DeviceBuffer dst, sink;
  std::function<void(cudaStream_t)> op;
  if (c == Ceiling::copy) {
    ensure_device_memory(bytes, "the copy ceiling's destination");
    dst = DeviceBuffer(bytes);
    op = [&](cudaStream_t st) { CUDA_CHECK(cudaMemcpyAsync(dst.data(), in, bytes, cudaMemcpyDeviceToDevice, st)); };
    r.bytes = 2.0 * static_cast<double>(bytes);
  } else {
    sink = DeviceBuffer(read_ceiling_blocks() * sizeof(unsigned));
    op = [&](cudaStream_t st) { read_ceiling(in, bytes, sink.as<unsigned>(), st); };
    r.bytes = static_cast<double>(bytes);
  }
  r.launches = count_launches(op, stream).launches();
  const TimingStats s = time_on_gpu(op, timing, stream, dev.l2_bytes);
  r.ms = s.median_ms;
  r.min_ms = s.min_ms;
  r.iters = s.iters;
  return r;
}

}  // namespace harness
