// The CUB histogram baseline (see cub_histogram.hpp).
#include <cub/device/device_histogram.cuh>

#include <climits>
#include <cstdint>
#include <string>

#include "cub_histogram.hpp"
#include "cuda_check.hpp"
#include "errors.hpp"
#include "histogram_bins.cuh"
#include "histogram_sample_type.hpp"
#include "kernel_support.cuh"

namespace harness {

namespace {

// Counters CUB counts in: 32-bit while no bin can reach 2^32, else 64-bit.
bool narrow_counters(std::size_t n) { return n <= 0xFFFFFFFFull; }

// CUB's level type for a sample type: int for uint8 and int, float for float.
template <class T>
using level_t = std::conditional_t<std::is_same_v<T, float>, float, int>;

// The range as CUB's levels; the same rounding as make_bin_map (which also validates it).
template <class T>
void cub_levels(const HistogramArgs& a, level_t<T>& lower, level_t<T>& upper) {
  const auto map = make_bin_map<T>(a.bins, a.lower, a.upper);
  if constexpr (std::is_same_v<T, float>) {
    lower = map.lower;
    upper = map.upper;
  } else {
    if (map.range > static_cast<unsigned long long>(INT_MAX))
      throw UsageError("CUB's integer histogram needs upper - lower < 2^31 (it subtracts in int)");
    lower = static_cast<int>(a.lower);
    upper = static_cast<int>(a.upper);
  }
}

// One call of HistogramEven; with temp == nullptr it only sets temp_bytes.
template <class T, class Counter>
void cub_call(void* temp, std::size_t& temp_bytes, const HistogramArgs& a, Counter* counts) {
  level_t<T> lower{}, upper{};
  cub_levels<T>(a, lower, upper);
  CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, static_cast<const T*>(a.in),
                                                 counts, a.bins + 1, lower, upper,
                                                 static_cast<std::int64_t>(a.n), a.stream));
}

// CUB's temporary storage for these arguments.
std::size_t cub_temp_bytes(const HistogramArgs& a) {
  std::size_t bytes = 0;
  with_sample_type(a.type, [&](auto t) {
    using T = decltype(t);
    if (narrow_counters(a.n)) cub_call<T, unsigned>(nullptr, bytes, a, nullptr);
    else cub_call<T, Count>(nullptr, bytes, a, nullptr);
  });
  return bytes;
}

// Bytes the 32-bit counters take at the start of the workspace (CUB's storage follows them,
// 256-byte aligned), so that a launch needs no size query of CUB: its storage is the rest.
std::size_t counters_bytes(const HistogramArgs& a) {
  return (static_cast<std::size_t>(a.bins) * sizeof(unsigned) + 255) / 256 * 256;
}

// out[b] = counts[b]: the 32-bit counts widened to the 64-bit output.
__global__ void widen_counts(const unsigned* __restrict__ counts, int bins, Count* __restrict__ out) {
  const std::size_t b = global_thread_id();
  if (b < static_cast<std::size_t>(bins)) out[b] = counts[b];
}

}  // namespace

Stage<Histogram> cub_histogram_stage() {
  Stage<Histogram> s;
  s.name = "cub::DeviceHistogram";
  s.label = "CUB";
  s.change = "the library baseline (CCCL's CUB, shipped with the CUDA Toolkit): HistogramEven";
  s.source = "CUB, cub::DeviceHistogram::HistogramEven";
  s.types = {DType::u8, DType::i32, DType::f32};
  s.min_block = 32;
  s.max_block = 1024;  // CUB chooses its own block size; --block is ignored
  s.grid_stride = false;
  s.deterministic = true;
  s.caps.max_bins = 1 << 20;
  s.grid_for = [](const HistogramArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  s.workspace_bytes = [](const HistogramArgs& a) {
    return narrow_counters(a.n) ? counters_bytes(a) + cub_temp_bytes(a) : cub_temp_bytes(a);
  };
  s.launch = [](const HistogramArgs& a) {
    with_sample_type(a.type, [&](auto t) {
      using T = decltype(t);
      if (narrow_counters(a.n)) {
        auto* counts = static_cast<unsigned*>(a.workspace);
        const std::size_t offset = counters_bytes(a);
        std::size_t bytes = a.workspace_size - offset;
        cub_call<T, unsigned>(static_cast<char*>(a.workspace) + offset, bytes, a, counts);  // CUB zeroes its output itself
        const int block = 256;
        widen_counts<<<blocks_for(static_cast<std::size_t>(a.bins), block), block, 0, a.stream>>>(
            counts, a.bins, a.output<Count>());
      } else {
        std::size_t bytes = a.workspace_size;
        cub_call<T, Count>(a.workspace, bytes, a, a.output<Count>());
      }
    });
  };
  return s;
}

}  // namespace harness
