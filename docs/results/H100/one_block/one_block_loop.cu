// EXPERIMENT (not part of the tutorial; built by hand, see README.md): what a one-block float sum of 4096 floats costs, variant by
// variant, beside CUB's single-tile DeviceReduce, each timed as a CUDA graph of 100 launches
// (L2 warm), median of 15 samples. Variants:
//   s7   : chapter 8's reduce_stage_7<float, Sum, 256> on one block (the tutorial's kernel)
//   strided_plain : the same strided loads (vectors t, t+256, t+512, t+768), no head/tail/loop, block_fold
//   blocked_plain : each thread loads 4 consecutive float4 (CUB's blocked arrangement), block_fold
//   strided_cubred: strided loads, cub::BlockReduce (warp reductions) instead of block_fold
//   empty : an empty kernel (launch floor in a graph)
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "block_folds.cuh"
#include "reduce_ops.cuh"
#include "reduce_stage_7_one_launch.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__global__ void __launch_bounds__(256) strided_plain(const float4* __restrict__ in, float* out) {
  float4 v[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) v[u] = in[threadIdx.x + u * 256];
  float acc = 0;
#pragma unroll
  for (int u = 0; u < 4; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  ch08::PlainBarrier sync;
  acc = ch08::block_fold<float, 256>(acc, ch08::Sum{}, sync);
  if (threadIdx.x == 0) *out = acc;
}

__global__ void __launch_bounds__(256) blocked_plain(const float4* __restrict__ in, float* out) {
  float4 v[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) v[u] = in[threadIdx.x * 4 + u];
  float acc = 0;
#pragma unroll
  for (int u = 0; u < 4; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  ch08::PlainBarrier sync;
  acc = ch08::block_fold<float, 256>(acc, ch08::Sum{}, sync);
  if (threadIdx.x == 0) *out = acc;
}

__global__ void __launch_bounds__(256) strided_cubred(const float4* __restrict__ in, float* out) {
  using BR = cub::BlockReduce<float, 256>;
  __shared__ typename BR::TempStorage tmp;
  float4 v[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) v[u] = in[threadIdx.x + u * 256];
  float acc = 0;
#pragma unroll
  for (int u = 0; u < 4; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  acc = BR(tmp).Sum(acc);
  if (threadIdx.x == 0) *out = acc;
}

// The tutorial's general loop (grid_stride_fold_vec16) with 32-bit indices: n < 2^32.
__device__ __forceinline__ float general_u32(const float* __restrict__ in, unsigned n) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % 16);
  const unsigned head0 = misalign == 0 ? 0u : (16u - misalign) / 4u;
  const unsigned head = head0 < n ? head0 : n;
  const unsigned nvec = (n - head) / 4u;
  const float4* __restrict__ vin = reinterpret_cast<const float4*>(in + head);
  float acc[4] = {0, 0, 0, 0};
  if (tid < head) acc[0] += in[tid];
  unsigned i = tid;
  for (; i + 3 * stride < nvec; i += 4 * stride) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = vin[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < nvec; i += stride) { const float4 v = vin[i]; acc[0] += (v.x + v.y) + (v.z + v.w); }
  const unsigned tail = head + nvec * 4u;
  if (tail + tid < n) acc[0] += in[tail + tid];
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}
__global__ void __launch_bounds__(256) general_u32_kernel(const float* __restrict__ in, unsigned n, float* out) {
  ch08::PlainBarrier sync;
  const float acc = ch08::block_fold<float, 256>(general_u32(in, n), ch08::Sum{}, sync);
  if (threadIdx.x == 0) *out = acc;
}
// The tutorial's loop itself (size_t indices), without stage 7's finish code.
__global__ void __launch_bounds__(256) general_sizet_kernel(const float* __restrict__ in, std::size_t n, float* out) {
  ch08::PlainBarrier sync;
  const float acc = ch08::block_fold<float, 256>(ch08::grid_stride_fold_vec16(in, n, ch08::Sum{}), ch08::Sum{}, sync);
  if (threadIdx.x == 0) *out = acc;
}

__global__ void empty_kernel() {}

template <class F>
float time_graph(cudaStream_t s, F enqueue) {
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < 100; ++i) enqueue();
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int w = 0; w < 3; ++w) CK(cudaGraphLaunch(ge, s));
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) {
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.f / 100.f);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const int n = 4096;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i % 3) - 1.0f;
  double ref = 0;
  for (float x : h) ref += x;
  float *in, *out;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, 64));
  CK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  void* tmp = nullptr;
  size_t tmp_bytes = 0;
  cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, n, s);
  CK(cudaMalloc(&tmp, tmp_bytes + 16));
  unsigned* tickets;
  CK(cudaMalloc(&tickets, 64));
  CK(cudaMemset(tickets, 0, 64));
  const float4* v = reinterpret_cast<const float4*>(in);
  auto check = [&](const char* name) {
    float r = 0;
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    if (r != static_cast<float>(ref)) printf("  %s: WRONG %f vs %f\n", name, r, ref);
  };
  struct Row { const char* name; float us; };
  std::vector<Row> rows;
  for (int rep = 0; rep < 2; ++rep) {
    rows.push_back({"cub::DeviceReduce::Sum", time_graph(s, [&] { cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, n, s); })});
    check("cub");
    rows.push_back({"reduce_stage_7<float,Sum,256> grid 1", time_graph(s, [&] {
      ch08::reduce_stage_7<float, ch08::Sum, 256><<<1, 256, 0, s>>>(in, n, out, tickets, out, ch08::Sum{});
    })});
    check("s7");
    rows.push_back({"strided_plain", time_graph(s, [&] { strided_plain<<<1, 256, 0, s>>>(v, out); })});
    check("strided_plain");
    rows.push_back({"blocked_plain", time_graph(s, [&] { blocked_plain<<<1, 256, 0, s>>>(v, out); })});
    check("blocked_plain");
    rows.push_back({"strided_cubred", time_graph(s, [&] { strided_cubred<<<1, 256, 0, s>>>(v, out); })});
    check("strided_cubred");
    rows.push_back({"general loop, size_t (grid_stride_fold_vec16 + block_fold)", time_graph(s, [&] { general_sizet_kernel<<<1, 256, 0, s>>>(in, n, out); })});
    check("general_sizet");
    rows.push_back({"general loop, 32-bit indices", time_graph(s, [&] { general_u32_kernel<<<1, 256, 0, s>>>(in, n, out); })});
    check("general_u32");
    rows.push_back({"empty kernel", time_graph(s, [&] { empty_kernel<<<1, 256, 0, s>>>(); })});
  }
  printf("| kernel (one block of 256, 4096 floats, graph of 100, median of 15) | us per launch |\n| --- | --- |\n");
  for (auto& r : rows) printf("| %s | %.3f |\n", r.name, r.us);
  return 0;
}
