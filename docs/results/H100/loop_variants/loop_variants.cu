// EXPERIMENT (not a stage of the tutorial; docs/results/H100/loop_variants/README.md): chapter 8's
// one-launch reduction (stage 7's kernel: a thread fold, block_fold, the last-block finish) with
// different thread folds, grids and max operators, beside CUB and the read ceiling, 2^12..2^30.
// Each cell's result is compared with CUB's on exact data (values -1, 0, 1 and one 5); a mismatch
// prints WRONG. Timing: a CUDA graph of `runs` launches (100 up to 2^20, 10 up to 2^26, 3 above)
// between two events, median of 11 samples after 2 warm-up replays, microseconds per launch.
// Two column sets, chosen by the third argument. `loops` (the default; its rows include the float
// max written as comparisons, four dependent instructions, beside PTX's max.NaN.f32, one FMNMX.NAN):
//   plain          stage 5's loop as it was: scalar head first, whole trips, rest one at a time;
//                  plain loads; stage 7's grid (one 64-byte trip per thread, at most one wave)
//   plain_ldg      the same with __ldg loads (LDG.E.128.CONSTANT)
//   first_trip     the tree's grid_stride_fold_vec16: the first trip's loads first, each guarded;
//                  __ldg; size_t indices; stage 7's grid
//   first_trip_cap the same kernel with __launch_bounds__(256, 8): at most 32 registers, as stages 7
//                  and 8
//   first_trip32   the same loop with 32-bit indices (no cap)
//   even1          contiguous share: block b folds tiles [b*T/G, (b+1)*T/G) of Block x 4 vectors,
//                  __ldg; grid min(tiles, one wave)
//   even5_2p       CUB's structure: contiguous share on min(tiles, 5 waves) blocks, then a second
//                  kernel (reduce_second_pass) instead of the last-block finish
// `grids` (no comparisons row; "wave": the blocks of 256 one SM holds at once x the SMs):
//   plain, first_trip as above
//   ft_2trips        first_trip on a grid of two trips per thread, at most one wave
//   ft_5waves        first_trip, one trip per thread, at most five waves
//   ft_2trips_5waves first_trip, two trips per thread, at most five waves
//   even5            the contiguous shares on min(tiles, five waves) blocks, the last-block finish
//   even5_2p         as above
// Build and run (from the repository's root):
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I common -I common/reduce \
//        -I ch08_reduction_scan_histogram/reduce docs/results/H100/loop_variants/loop_variants.cu -o loop_variants
//   ./loop_variants 12 30          (log2 of the smallest and largest n; the loops columns)
//   ./loop_variants 12 30 grids    (the grids columns)
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "block_folds.cuh"
#include "last_block_fold.cuh"
#include "reduce_ops.cuh"
#include "reduce_stage_5_vectorized.cuh"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

using namespace ch08;
constexpr int B = 256;

template <bool Ldg, class X>
__device__ __forceinline__ X ld(const X* p) {
  if constexpr (Ldg) return __ldg(p);
  else return *p;
}

// Max written as comparisons: NaN if either operand is NaN, else the larger.
struct MaxCmp {
  static constexpr harness::Op op = harness::Op::max;
  template <class T> using accumulator = T;
  template <class A> static constexpr __host__ __device__ A identity() { return Extremes<A>::lowest(); }
  template <class A> __device__ __forceinline__ A operator()(A a, A b) const {
    return a != a ? a : b != b ? b : (a > b ? a : b);
  }
};
// Max with NaN propagation in one instruction for float (max.NaN.f32, sm_80+).
struct MaxN {
  static constexpr harness::Op op = harness::Op::max;
  template <class T> using accumulator = T;
  template <class A> static constexpr __host__ __device__ A identity() { return Extremes<A>::lowest(); }
  template <class A> __device__ __forceinline__ A operator()(A a, A b) const {
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  }
};

template <class T, class Op, class Index, bool Ldg>
__device__ __forceinline__ accumulator_t<Op, T> fold_early(const T* __restrict__ in, std::size_t n_, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  constexpr int W = harness::kVecItems<T>;
  const Index n = static_cast<Index>(n_);
  const Index tid = static_cast<Index>(blockIdx.x) * B + threadIdx.x;
  const Index stride = static_cast<Index>(gridDim.x) * B;
  const unsigned mis = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) % 16) / sizeof(T);
  const Index h0 = mis == 0 ? Index(0) : Index(W - mis);
  const Index head = h0 < n ? h0 : n;
  const V* __restrict__ vin = reinterpret_cast<const V*>(in + head);
  const Index nvec = (n - head) / W;
  V v[4];
  bool ok[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    const Index k = tid + u * stride;
    ok[u] = k < nvec;
    if (ok[u]) v[u] = ld<Ldg>(vin + k);
  }
  Acc acc[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) acc[u] = ok[u] ? fold_lanes<Acc>(v[u], op) : Op::template identity<Acc>();
  Index i = tid + 4 * stride;
  for (; i + 3 * stride < nvec; i += 4 * stride) {
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = ld<Ldg>(vin + i + u * stride);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] = op(acc[u], fold_lanes<Acc>(v[u], op));
  }
  for (; i < nvec; i += stride) acc[0] = op(acc[0], fold_lanes<Acc>(vin[i], op));
  if (tid < head) acc[0] = op(acc[0], static_cast<Acc>(in[tid]));
  const Index tail = head + nvec * W;
  if (tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(in[tail + tid]));
  return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

template <class T, class Op, int L, bool Ldg>
__device__ __forceinline__ accumulator_t<Op, T> fold_even(const T* __restrict__ in, std::size_t n, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  const harness::Vec16Split<T> split = harness::vec16_split(in, n);
  const std::size_t nvec = split.count;
  const V* __restrict__ vin = split.vectors;
  constexpr std::size_t tile = std::size_t(B) * L;
  const std::size_t tiles = (nvec + tile - 1) / tile;
  const std::size_t t0 = tiles * blockIdx.x / gridDim.x, t1 = tiles * (blockIdx.x + 1) / gridDim.x;
  Acc acc[L];
#pragma unroll
  for (int u = 0; u < L; ++u) acc[u] = Op::template identity<Acc>();
  for (std::size_t t = t0; t < t1; ++t) {
    const std::size_t base = t * tile + threadIdx.x;
    if (base + (L - 1) * B < nvec) {
      V v[L];
#pragma unroll
      for (int u = 0; u < L; ++u) v[u] = ld<Ldg>(vin + base + u * B);
#pragma unroll
      for (int u = 0; u < L; ++u) acc[u] = op(acc[u], fold_lanes<Acc>(v[u], op));
    } else {
#pragma unroll
      for (int u = 0; u < L; ++u)
        if (base + u * B < nvec) acc[u] = op(acc[u], fold_lanes<Acc>(vin[base + u * B], op));
    }
  }
  const std::size_t tid = harness::global_thread_id();
  if (tid < split.head) acc[0] = op(acc[0], static_cast<Acc>(in[tid]));
  if (split.tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(in[split.tail + tid]));
  Acc r = acc[0];
#pragma unroll
  for (int u = 1; u < L; ++u) r = op(r, acc[u]);
  return r;
}

template <class T, class Op, int L, bool Ldg>
__device__ __forceinline__ accumulator_t<Op, T> fold_gs(const T* __restrict__ in, std::size_t n, Op op) {
  using Acc = accumulator_t<Op, T>;
  using V = typename harness::Vec16<T>::type;
  const std::size_t tid = harness::global_thread_id();
  const std::size_t stride = harness::grid_threads();
  const harness::Vec16Split<T> split = harness::vec16_split(in, n);
  const std::size_t head = split.head, nvec = split.count;
  const V* __restrict__ vin = split.vectors;
  Acc acc[L];
#pragma unroll
  for (int u = 0; u < L; ++u) acc[u] = Op::template identity<Acc>();
  if (tid < head) acc[0] = op(acc[0], static_cast<Acc>(in[tid]));
  std::size_t i = tid;
  for (; i + (L - 1) * stride < nvec; i += L * stride) {
    V v[L];
#pragma unroll
    for (int u = 0; u < L; ++u) v[u] = ld<Ldg>(vin + i + u * stride);
#pragma unroll
    for (int u = 0; u < L; ++u) acc[u] = op(acc[u], fold_lanes<Acc>(v[u], op));
  }
  for (; i < nvec; i += stride) acc[0] = op(acc[0], fold_lanes<Acc>(ld<Ldg>(vin + i), op));
  if (split.tail + tid < n) acc[0] = op(acc[0], static_cast<Acc>(in[split.tail + tid]));
  Acc r = acc[0];
#pragma unroll
  for (int u = 1; u < L; ++u) r = op(r, acc[u]);
  return r;
}

enum Fold { kPlain, kPlainLdg, kFirstTrip, kFirstTrip32, kEven };

template <class T, class Op, int F>
__device__ __forceinline__ accumulator_t<Op, T> thread_fold(const T* __restrict__ in, std::size_t n, Op op) {
  if constexpr (F == kPlain) return fold_gs<T, Op, 4, false>(in, n, op);
  else if constexpr (F == kPlainLdg) return fold_gs<T, Op, 4, true>(in, n, op);
  else if constexpr (F == kFirstTrip) return grid_stride_fold_vec16(in, n, op);
  else if constexpr (F == kFirstTrip32) return fold_early<T, Op, unsigned, true>(in, n, op);
  else return fold_even<T, Op, 4, true>(in, n, op);
}

template <class T, class Op, int F>
__global__ void __launch_bounds__(B)
    one_launch(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* partials, unsigned* tickets,
               accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, B>(thread_fold<T, Op, F>(in, n, op), op, sync);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *out = v;
    return;
  }
  fold_in_last_block<Acc, B>(v, partials, tickets, out, op);
}

// The same kernel with its registers capped at 32 (eight blocks of 256 per SM), as stages 7 and 8.
template <class T, class Op, int F>
__global__ void __launch_bounds__(B, 8)
    one_launch_cap(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* partials, unsigned* tickets,
                   accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, B>(thread_fold<T, Op, F>(in, n, op), op, sync);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *out = v;
    return;
  }
  fold_in_last_block<Acc, B>(v, partials, tickets, out, op);
}

// First pass only (two-pass form, as CUB): each block's value to partials.
template <class T, class Op, int F>
__global__ void __launch_bounds__(B)
    first_pass(const T* __restrict__ in, std::size_t n, accumulator_t<Op, T>* partials, unsigned*,
               accumulator_t<Op, T>*, Op op) {
  using Acc = accumulator_t<Op, T>;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, B>(thread_fold<T, Op, F>(in, n, op), op, sync);
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

// The read ceiling of common/ceilings.cu (copied: scratch).
__global__ void __launch_bounds__(256) read_kernel(const uint4* __restrict__ body, std::size_t vecs, unsigned* sink) {
  unsigned acc = 0;
  const std::size_t stride = harness::grid_threads();
  std::size_t i = harness::global_thread_id();
  for (; i + 3 * stride < vecs; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = body[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < vecs; i += stride) { const uint4 v = body[i]; acc ^= v.x ^ v.y ^ v.z ^ v.w; }
  for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicXor(sink + blockIdx.x % 64, acc);
}

template <class T>
__global__ void fill(T* p, std::size_t n) {
  for (std::size_t i = harness::global_thread_id(); i < n; i += harness::grid_threads()) {
    const unsigned h = static_cast<unsigned>(i * 2654435761ull >> 7);
    p[i] = static_cast<T>(static_cast<int>(h % 3) - 1);
    if (i == n / 3) p[i] = T(5);
  }
}

template <class F>
float time_graph(cudaStream_t s, int runs, F enqueue) {
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < runs; ++i) enqueue();
  CK(cudaStreamEndCapture(s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int w = 0; w < 2; ++w) CK(cudaGraphLaunch(ge, s));
  std::vector<float> t;
  for (int r = 0; r < 11; ++r) {
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1000.f / runs);
  }
  std::sort(t.begin(), t.end());
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  return t[t.size() / 2];
}

static int g_sms = 0;
static bool g_grids = false;  // the column set: loops (false) or grids

template <class T, class Op, int F>
std::size_t wave_of() {
  int per = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, one_launch<T, Op, F>, B, 0));
  return static_cast<std::size_t>(per) * g_sms;
}

template <class T, class Op>
void run_case(const char* name, void* buf, std::size_t n, cudaStream_t s, void* cubtmp, std::size_t cubbytes,
              unsigned* tickets, void* partials, void* outs) {
  using Acc = accumulator_t<Op, T>;
  const T* in = static_cast<const T*>(buf);
  Acc* out = static_cast<Acc*>(outs);
  Acc* part = static_cast<Acc*>(partials);
  T* cubout = reinterpret_cast<T*>(static_cast<char*>(outs) + 64);
  const int runs = n <= (1u << 20) ? 100 : (n <= (1u << 26) ? 10 : 3);
  auto cub_call = [&] {
    std::size_t b = cubbytes;
    if constexpr (std::is_same_v<Op, Sum>) CK(cub::DeviceReduce::Sum(cubtmp, b, in, cubout, (long long)n, s));
    else CK(cub::DeviceReduce::Max(cubtmp, b, in, cubout, (long long)n, s));
  };
  cub_call();
  CK(cudaStreamSynchronize(s));
  T ref;
  CK(cudaMemcpy(&ref, cubout, sizeof(T), cudaMemcpyDeviceToHost));
  const float t_cub = time_graph(s, runs, cub_call);
  // read ceiling: best of one wave and two trips per thread
  const std::size_t vecs = n * sizeof(T) / 16;
  unsigned* sink = tickets + 16;
  float t_read = 1e30f;
  for (std::size_t g : {std::size_t(g_sms) * 8, std::max<std::size_t>(1, (vecs + 2047) / 2048)})
    t_read = std::min(t_read, time_graph(s, runs, [&] {
      read_kernel<<<(unsigned)g, 256, 0, s>>>(static_cast<const uint4*>(buf), vecs, sink);
    }));
  const std::size_t trip_blocks = std::max<std::size_t>(1, (n * sizeof(T) + B * 64 - 1) / (B * 64));
  struct V { const char* name; float us; };
  std::vector<V> rows;
  auto go = [&](const char* vname, auto kernel, std::size_t grid, bool two_pass = false) {
    Acc poison;
    std::memset(&poison, 0x7f, sizeof poison);
    CK(cudaMemcpy(out, &poison, sizeof poison, cudaMemcpyHostToDevice));
    auto enq = [&] {
      kernel<<<(unsigned)grid, B, 0, s>>>(in, n, part, tickets, out, Op{});
      if (two_pass) reduce_second_pass<Acc, Op, kSecondPassBlock><<<1, kSecondPassBlock, 0, s>>>(part, grid, out, Op{});
    };
    enq();
    CK(cudaStreamSynchronize(s));
    Acc got;
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    const bool right = static_cast<double>(got) == static_cast<double>(ref);
    const float t = time_graph(s, runs, enq);
    rows.push_back({vname, t});
    if (!right) printf("WRONG %s %s n=%zu: %f vs %f\n", name, vname, n, (double)got, (double)ref);
  };
  go("plain", one_launch<T, Op, kPlain>, std::min(wave_of<T, Op, kPlain>(), trip_blocks));
  if (!g_grids) {
    go("plain_ldg", one_launch<T, Op, kPlainLdg>, std::min(wave_of<T, Op, kPlainLdg>(), trip_blocks));
    go("first_trip", one_launch<T, Op, kFirstTrip>, std::min(wave_of<T, Op, kFirstTrip>(), trip_blocks));
    int per = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, one_launch_cap<T, Op, kFirstTrip>, B, 0));
    go("first_trip_cap", one_launch_cap<T, Op, kFirstTrip>, std::min(std::size_t(per) * g_sms, trip_blocks));
    go("first_trip32", one_launch<T, Op, kFirstTrip32>, std::min(wave_of<T, Op, kFirstTrip32>(), trip_blocks));
    go("even1", one_launch<T, Op, kEven>, std::min(wave_of<T, Op, kEven>(), trip_blocks));
  } else {
    const std::size_t wave = wave_of<T, Op, kFirstTrip>(), two_trips = std::max<std::size_t>(1, (trip_blocks + 1) / 2);
    go("first_trip", one_launch<T, Op, kFirstTrip>, std::min(wave, trip_blocks));
    go("ft_2trips", one_launch<T, Op, kFirstTrip>, std::min(wave, two_trips));
    go("ft_5waves", one_launch<T, Op, kFirstTrip>, std::min(5 * wave, trip_blocks));
    go("ft_2trips_5waves", one_launch<T, Op, kFirstTrip>, std::min(5 * wave, two_trips));
    go("even5", one_launch<T, Op, kEven>, std::min(5 * wave_of<T, Op, kEven>(), trip_blocks));
  }
  go("even5_2p", first_pass<T, Op, kEven>, std::min(5 * wave_of<T, Op, kEven>(), trip_blocks), true);
  int lg = 0;
  while ((std::size_t(1) << lg) < n) ++lg;
  printf("| %s | 2^%d | %.2f | %.2f |", name, lg, t_cub, t_read);
  for (auto& r : rows) printf(" %.2f (%.3f) |", r.us, t_cub / r.us);
  printf("\n");
  fflush(stdout);
}

int main(int argc, char** argv) {
  CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0));
  const int lo = argc > 1 ? atoi(argv[1]) : 12, hi = argc > 2 ? atoi(argv[2]) : 30;
  g_grids = argc > 3 && std::string(argv[3]) == "grids";
  const std::size_t maxn = std::size_t(1) << hi;
  void* buf;
  CK(cudaMalloc(&buf, maxn * 8));
  void *cubtmp, *partials, *outs;
  unsigned* tickets;
  CK(cudaMalloc(&cubtmp, 1 << 20));
  CK(cudaMalloc(&partials, 64 << 20));
  CK(cudaMalloc(&outs, 256));
  CK(cudaMalloc(&tickets, 4096));
  CK(cudaMemset(tickets, 0, 4096));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("Microseconds per launch (CUB's time / the column's time)\n\n");
  if (!g_grids)
    printf("| case | n | CUB | read | plain | plain_ldg | first_trip | first_trip_cap | first_trip32 | even1 | even5_2p |\n");
  else
    printf("| case | n | CUB | read | plain | first_trip | ft_2trips | ft_5waves | ft_2trips_5waves | even5 | even5_2p |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int which = g_grids ? 1 : 0; which < 5; ++which) {
    for (int lg = lo; lg <= hi; lg += 2) {
      const std::size_t n = std::size_t(1) << lg;
      std::size_t cb = 0;
      if (which == 0 || which == 1) {
        fill<float><<<1024, 256, 0, s>>>(static_cast<float*>(buf), n);
        if (which == 0) { CK(cub::DeviceReduce::Max(nullptr, cb, (float*)buf, (float*)outs, (long long)n, s)); run_case<float, MaxCmp>("float max (comparisons)", buf, n, s, cubtmp, cb, tickets, partials, outs); }
        else { CK(cub::DeviceReduce::Sum(nullptr, cb, (float*)buf, (float*)outs, (long long)n, s)); run_case<float, Sum>("float sum", buf, n, s, cubtmp, cb, tickets, partials, outs); }
      } else if (which == 4) {
        fill<float><<<1024, 256, 0, s>>>(static_cast<float*>(buf), n);
        CK(cub::DeviceReduce::Max(nullptr, cb, (float*)buf, (float*)outs, (long long)n, s));
        run_case<float, MaxN>("float max (max.NaN)", buf, n, s, cubtmp, cb, tickets, partials, outs);
      } else if (which == 2) {
        fill<int><<<1024, 256, 0, s>>>(static_cast<int*>(buf), n);
        CK(cub::DeviceReduce::Sum(nullptr, cb, (int*)buf, (int*)outs, (long long)n, s));
        run_case<int, Sum>("int sum", buf, n, s, cubtmp, cb, tickets, partials, outs);
      } else {
        fill<double><<<1024, 256, 0, s>>>(static_cast<double*>(buf), n);
        CK(cub::DeviceReduce::Sum(nullptr, cb, (double*)buf, (double*)outs, (long long)n, s));
        run_case<double, Sum>("double sum", buf, n, s, cubtmp, cb, tickets, partials, outs);
      }
    }
  }
  return 0;
}
