#include <cstdint>
#include <functional>

#include "ceilings.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "kernel_support.cuh"
#include "session.hpp"

namespace harness {

namespace {

constexpr int kReadBlock = 256;
constexpr int kReadUnroll = 4;  // independent 16-byte loads in flight per thread per loop trip

// Streaming read: the bytes before the first 16-byte boundary and after the last one are read
// one at a time by block 0; the aligned middle with 16-byte loads in a grid-stride loop, kReadUnroll
// loads in flight per thread (the access pattern of chapter 7's stage 9, without the sums).
__global__ void __launch_bounds__(kReadBlock)
    read_kernel(const unsigned char* __restrict__ in, std::size_t bytes, unsigned* sink) {
  const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16;
  const std::size_t lead = head < bytes ? head : bytes;
  const std::size_t vecs = (bytes - lead) / 16;
  const uint4* __restrict__ body = reinterpret_cast<const uint4*>(in + lead);
  unsigned acc = 0;
  const std::size_t stride = grid_threads();
  std::size_t i = global_thread_id();
  for (; i + (kReadUnroll - 1) * stride < vecs; i += kReadUnroll * stride) {
    uint4 v[kReadUnroll];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) v[u] = body[i + u * stride];
#pragma unroll
    for (int u = 0; u < kReadUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < vecs; i += stride) {
    const uint4 v = body[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (blockIdx.x == 0)
    for (std::size_t i = threadIdx.x; i < lead; i += blockDim.x) acc ^= in[i];
  if (blockIdx.x == 0)
    for (std::size_t i = lead + vecs * 16 + threadIdx.x; i < bytes; i += blockDim.x) acc ^= in[i];
  for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicXor(sink + blockIdx.x % kReadSinkWords, acc);
}

// Blocks of the streaming read for `bytes` bytes on `grid`: one full wave of resident blocks, or
// one block per kReadBlock x 2 x kReadUnroll vectors (each thread two loop trips, as stage 9's grid).
std::size_t read_blocks(std::size_t bytes, ReadGrid grid) {
  if (grid == ReadGrid::wave) {
    static const std::size_t wave = [] {
      int dev = 0, sms = 0, threads = 0;
      CUDA_CHECK(cudaGetDevice(&dev));
      CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
      CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
      return static_cast<std::size_t>(sms) * static_cast<std::size_t>(threads / kReadBlock);
    }();
    return wave;
  }
  const std::size_t per_block = static_cast<std::size_t>(kReadBlock) * 2 * kReadUnroll * 16;
  const std::size_t blocks = (bytes + per_block - 1) / per_block;
  const std::size_t most = 0x7fffffff;  // gridDim.x's limit; the grid-stride loop covers the rest
  return blocks == 0 ? 1 : (blocks < most ? blocks : most);
}

}  // namespace

const char* ceiling_name(Ceiling c) { return c == Ceiling::copy ? "copy (D2D)" : "read (stream)"; }

const char* ceiling_help(Ceiling c) {
  return c == Ceiling::copy ? "ceiling: reads and writes every byte (GB/s counts both)"
                            : "ceiling: reads every byte once with 16-byte loads, the faster of two grids (GB/s counts the reads)";
}

void read_ceiling(const void* in, std::size_t bytes, unsigned* sink, cudaStream_t stream, ReadGrid grid) {
  read_kernel<<<static_cast<unsigned>(read_blocks(bytes, grid)), kReadBlock, 0, stream>>>(
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
    // Both grids are timed and the faster one is the ceiling (timed again below with the launch
    // count): a ceiling that no stage should beat because of its grid's shape.
    sink = DeviceBuffer(kReadSinkWords * sizeof(unsigned));
    ReadGrid best = ReadGrid::wave;
    double best_ms = -1;
    for (ReadGrid g : {ReadGrid::wave, ReadGrid::coarse}) {
      const TimingStats t = time_on_gpu([&](cudaStream_t st) { read_ceiling(in, bytes, sink.as<unsigned>(), st, g); },
                                        timing, stream, dev.l2_bytes);
      if (best_ms < 0 || t.median_ms < best_ms) { best_ms = t.median_ms; best = g; }
    }
    op = [&, best](cudaStream_t st) { read_ceiling(in, bytes, sink.as<unsigned>(), st, best); };
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
