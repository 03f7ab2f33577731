// EXPERIMENT (not part of the tutorial): one block at 2^12 elements, stage 7's one-block case
// variant by variant, beside CUB, for float sum, float max, int max and double sum. Each timed as a CUDA graph
// of 100 launches (L2 warm), median of 15 samples, twice. Variants:
//   s7       : reduce_stage_7<T, Op, 256> on one block (the tutorial's kernel, finish code compiled in)
//   loop     : grid_stride_fold_vec16 + block_fold, no finish code (size_t indices)
//   loop32   : the same loop with 32-bit indices (n < 2^32)
//   fulltile : n == one tile (256 x 4 vectors) and 16-byte aligned: four unguarded loads; else loop32
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

using namespace ch08;

template <class T, class Op>
__device__ __forceinline__ accumulator_t<Op, T> fold32(const T* __restrict__ in, unsigned n, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  constexpr unsigned kPer = sizeof(V) / sizeof(T);
  const unsigned tid = threadIdx.x, stride = blockDim.x;
  const unsigned mis = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % sizeof(V));
  unsigned head = mis == 0 ? 0u : static_cast<unsigned>((sizeof(V) - mis) / sizeof(T));
  if (head > n) head = n;
  const unsigned nvec = (n - head) / kPer;
  const V* __restrict__ vin = reinterpret_cast<const V*>(in + head);
  V v[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) if (tid + u * stride < nvec) v[u] = __ldg(vin + tid + u * stride);
  Acc acc[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) acc[u] = tid + u * stride < nvec ? fold_lanes<Acc>(v[u], op) : Op::template identity<Acc>();
  for (unsigned i = tid + 4 * stride; i < nvec; i += stride) acc[0] = op(acc[0], fold_lanes<Acc>(__ldg(vin + i), op));
  if (tid < head) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + tid)));
  const unsigned tail = head + nvec * kPer;
  if (tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(__ldg(in + tail + tid)));
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

template <class T, class Op>
__global__ void __launch_bounds__(256) k_loop(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* out, Op op) {
  PlainBarrier sync;
  const auto a = block_fold<accumulator_t<Op, T>, 256>(grid_stride_fold_vec16(in, n, op), op, sync);
  if (threadIdx.x == 0) *out = a;
}
template <class T, class Op>
__global__ void __launch_bounds__(256) k_loop32(const T* __restrict__ in, unsigned n, accumulator_t<Op, T>* out, Op op) {
  PlainBarrier sync;
  const auto a = block_fold<accumulator_t<Op, T>, 256>(fold32(in, n, op), op, sync);
  if (threadIdx.x == 0) *out = a;
}
template <class T, class Op>
__global__ void __launch_bounds__(256) k_fulltile(const T* __restrict__ in, unsigned n, accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  constexpr unsigned kTile = 256 * 4 * (sizeof(V) / sizeof(T));
  Acc t;
  if (n == kTile && reinterpret_cast<std::uintptr_t>(in) % sizeof(V) == 0) {
    const V* __restrict__ vin = reinterpret_cast<const V*>(in);
    V v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = __ldg(vin + threadIdx.x + u * 256);
    t = op(op(fold_lanes<Acc>(v[0], op), fold_lanes<Acc>(v[1], op)), op(fold_lanes<Acc>(v[2], op), fold_lanes<Acc>(v[3], op)));
  } else {
    t = fold32(in, n, op);
  }
  PlainBarrier sync;
  const Acc a = block_fold<Acc, 256>(t, op, sync);
  if (threadIdx.x == 0) *out = a;
}

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


template <class T, class Op>
void run_case(const char* label, Op op, cudaStream_t s) {
  using Acc = accumulator_t<Op, T>;
  const unsigned n = 256 * 4 * (16 / sizeof(T));
  std::vector<T> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = static_cast<T>(static_cast<int>(i % 3) - 1);
  Acc ref = Op::template identity<Acc>();
  for (T x : h) ref = op(ref, static_cast<Acc>(x));
  T* in; Acc* out; unsigned* tickets;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, 64));
  CK(cudaMalloc(&tickets, 64));
  CK(cudaMemset(tickets, 0, 64));
  CK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  void* tmp = nullptr; size_t tb = 0;
  auto cub_call = [&] {
    if constexpr (std::is_same_v<Op, Sum>) cub::DeviceReduce::Sum(tmp, tb, in, out, n, s);
    else cub::DeviceReduce::Max(tmp, tb, in, out, n, s);
  };
  cub_call();
  CK(cudaMalloc(&tmp, tb + 16));
  auto check = [&](const char* name) {
    Acc r{};
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    if (!(r == ref)) printf("  %s %s: WRONG\n", label, name);
  };
  for (int rep = 0; rep < 2; ++rep) {
    float c = time_graph(s, cub_call); check("cub");
    float a = time_graph(s, [&] { reduce_stage_7<T, Op, 256><<<1, 256, 0, s>>>(in, n, out, tickets, out, op); }); check("s7");
    float b = time_graph(s, [&] { k_loop<T, Op><<<1, 256, 0, s>>>(in, n, out, op); }); check("loop");
    float d = time_graph(s, [&] { k_loop32<T, Op><<<1, 256, 0, s>>>(in, n, out, op); }); check("loop32");
    float e = time_graph(s, [&] { k_fulltile<T, Op><<<1, 256, 0, s>>>(in, n, out, op); }); check("fulltile");
    printf("| %s | %u | %.3f | %.3f | %.3f | %.3f | %.3f |\n", label, n, c, a, b, d, e);
  }
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(tmp)); CK(cudaFree(tickets));
}

int main() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("us per launch, one block of 256, graph of 100, median of 15\n\n");
  printf("| case | n | CUB | s7 | loop | loop32 | fulltile |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  run_case<float>("float sum", Sum{}, s);
  run_case<float>("float max", Max{}, s);
  run_case<int>("int max", Max{}, s);
  run_case<double>("double sum", Sum{}, s);
  return 0;
}
