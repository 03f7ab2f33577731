// EXPERIMENT (not part of the tutorial): chapter 8's stage 7 on one block at exactly one full tile,
// beside CUB, with block_fold's second level done two ways: warp 0 folding the Block / 32 warp values
// by warp_reduce (the tutorial's block_fold at tree 7f73a4e, as section 8.6 has it) or thread 0
// folding them in warp order from shared memory (CUB's BlockReduce). One block of 256 threads, timed
// as a CUDA graph of 100 launches (L2 warm), median of 15 samples, twice; every result is checked
// against the exact answer (data -1, 0, 1).
//   stage7 : reduce_stage_7_one_block<T, Op, 256> (full tile; block_fold: warp 0's second level)
//   loop   : the same kernel with stage 5's loop in place of the full tile
//   seq    : the full tile, and block_fold_seq: thread 0 folds the warp values one after the other
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

// block_fold with warp_fold's shuffles in both levels (what block_fold did before warp_reduce).
template <class A, int Block, class Op>
__device__ __forceinline__ A block_fold_shfl(A v, Op op) {
  __shared__ A warp_values[Block / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_fold(v, op);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_fold(lane < Block / 32 ? warp_values[lane] : Op::template identity<A>(), op);
  return v;
}

// CUB's BlockReduce (warp reductions): each warp folds (warp_reduce), one barrier, then thread 0
// folds the Block / 32 warp values from shared memory one after the other.
template <class A, int Block, class Op>
__device__ __forceinline__ A block_fold_seq(A v, Op op) {
  __shared__ A warp_values[Block / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_reduce(v, op);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int w = 1; w < Block / 32; ++w) v = op(v, warp_values[w]);
  }
  return v;
}

template <class T, class Op>
__global__ void __launch_bounds__(256) k_seq(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  const bool full = n == kFullTile<T, 256> && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const Acc t = full ? full_tile_fold<T, Op, 256>(in, op) : grid_stride_fold_vec16(in, n, op);
  const Acc v = block_fold_seq<Acc, 256>(t, op);
  if (threadIdx.x == 0) *out = v;
}

template <class T, class Op, bool Tile, bool Redux>
__global__ void __launch_bounds__(256) k_variant(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  Acc t;
  if constexpr (Tile) {
    const bool full = n == kFullTile<T, 256> && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
    t = full ? full_tile_fold<T, Op, 256>(in, op) : grid_stride_fold_vec16(in, n, op);
  } else {
    t = grid_stride_fold_vec16(in, n, op);
  }
  Acc v;
  if constexpr (Redux) {
    PlainBarrier sync;
    v = block_fold<Acc, 256>(t, op, sync);
  } else {
    v = block_fold_shfl<Acc, 256>(t, op);
  }
  if (threadIdx.x == 0) *out = v;
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
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  return t[t.size() / 2];
}

template <class T, class Op>
void run_case(const char* label, Op op, cudaStream_t s) {
  using Acc = accumulator_t<Op, T>;
  const unsigned n = kFullTile<T, 256>;
  std::vector<T> h(n);
  for (unsigned i = 0; i < n; ++i) h[i] = static_cast<T>(static_cast<int>((i * 7) % 3) - 1);
  Acc ref = Op::template identity<Acc>();
  for (T x : h) ref = op(ref, static_cast<Acc>(x));
  T* in; Acc* out;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, 64));
  CK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  void* tmp = nullptr; size_t tb = 0;
  auto cub_call = [&] {
    if constexpr (std::is_same_v<Op, Sum>) cub::DeviceReduce::Sum(tmp, tb, in, out, n, s);
    else if constexpr (std::is_same_v<Op, Max>) cub::DeviceReduce::Max(tmp, tb, in, out, n, s);
    else cub::DeviceReduce::Min(tmp, tb, in, out, n, s);
  };
  cub_call();
  CK(cudaMalloc(&tmp, tb + 16));
  int wrong = 0;
  auto check = [&] {
    Acc r{};
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    if (!(r == ref)) ++wrong;
    CK(cudaMemset(out, 0xFF, 64));
  };
  for (int rep = 0; rep < 2; ++rep) {
    const float c = time_graph(s, cub_call); check();
    const float a = time_graph(s, [&] { reduce_stage_7_one_block<T, Op, 256><<<1, 256, 0, s>>>(in, n, out, op); }); check();
    const float b = time_graph(s, [&] { k_variant<T, Op, false, true><<<1, 256, 0, s>>>(in, n, out, op); }); check();
    const float e = time_graph(s, [&] { k_seq<T, Op><<<1, 256, 0, s>>>(in, n, out, op); }); check();
    printf("| %s | %u | %.3f | %.3f | %.3f | %.3f | %s |\n", label, n, c, a, b, e, wrong ? "WRONG" : "exact");
  }
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(tmp));
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("%s; us per launch, one block of 256 on one full tile, graph of 100, median of 15; two passes\n\n", p.name);
  printf("| case | n | CUB | stage7 | loop | seq | check |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  run_case<float>("float sum", Sum{}, s);
  run_case<float>("float max", Max{}, s);
  run_case<float>("float min", Min{}, s);
  run_case<int>("int max", Max{}, s);
  run_case<int>("int min", Min{}, s);
  run_case<int>("int sum", Sum{}, s);
  run_case<double>("double sum", Sum{}, s);
  run_case<double>("double max", Max{}, s);
  return 0;
}
