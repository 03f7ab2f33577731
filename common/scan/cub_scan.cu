#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "cuda_check.hpp"
#include "scan/cub_scan.hpp"

// CUB's DeviceScan::ExclusiveSum / InclusiveSum take their item count as `int` up to CCCL 2.6
// (CUDA 12.4 ships 2.3, 12.5 2.4, 12.6 2.5) and as a template NumItemsT, with 64-bit offsets for a
// 64-bit count, from CCCL 2.7 (CUDA 12.8) on (CCCL's cub/device/device_scan.cuh at v2.6.0 and
// v2.7.0). With an int count, n past 2^31 - 1 would be truncated: such a build scans it in chunks
// of 2^30 elements, each chunk starting from the prefix the chunks before it end with.
#if defined(CCCL_VERSION) && CCCL_VERSION >= 2007000
#define HARNESS_CUB_SCAN_64BIT_COUNT 1
#else
#define HARNESS_CUB_SCAN_64BIT_COUNT 0
#include <cub/iterator/counting_input_iterator.cuh>
#include <cub/iterator/transform_input_iterator.cuh>
#endif

namespace harness {

namespace {

// One call of CUB for T; with temp == nullptr it only sets temp_bytes.
template <class T, class Count>
void cub_scan_call(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
  const auto n = static_cast<Count>(a.n);
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  if (a.inclusive)
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, a.stream));
  else
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, a.stream));
}

#if !HARNESS_CUB_SCAN_64BIT_COUNT
// ---- CCCL before 2.7: n past 2^31 - 1 in chunks of at most INT_MAX elements ----------------------

//! Elements per CUB call past 2^31 - 1: a power of two, so that every chunk starts 16-byte aligned.
constexpr std::size_t kCubChunk = std::size_t{1} << 30;
//! Bytes at the front of the workspace for the carry slots (CUB's temporary storage follows).
constexpr std::size_t kCarrySlotBytes = 256;

//! a + b, ints wrapping modulo 2^32 like the stages.
template <class T>
__host__ __device__ T add_wrapping(T a, T b) {
  if constexpr (std::is_same_v<T, int>)
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
  else
    return a + b;
}

//! carry = *out_last + *in_last: the exclusive prefix the next chunk starts from (in_last is a copy
//! of the input element taken before the scan, which may have overwritten it in place).
template <class T>
__global__ void next_exclusive_carry(T* carry, const T* out_last, const T* in_last) {
  *carry = add_wrapping(*out_last, *in_last);
}

//! Element i of a chunk for the inclusive scan, with the prefix before the chunk (*carry, the last
//! output of the chunk before) added to element 0: this CCCL's InclusiveScan takes no initial value.
template <class T>
struct FirstPlusCarry {
  const T* in;     //!< the chunk's input
  const T* carry;  //!< the inclusive prefix before the chunk (not written by the chunk's scan)
  __host__ __device__ T operator()(int i) const { return i == 0 ? add_wrapping(in[0], *carry) : in[i]; }
};

//! CUB's scan of n > 2^31 - 1 elements with an int count: chunk 0 by ExclusiveSum / InclusiveSum,
//! each later chunk starting from the prefix before it, read on the device when CUB runs:
//! ExclusiveScan with cub::FutureValue (carry = last output + last input of the chunk before), or
//! InclusiveScan over the chunk with the last output before it added to its first element. In place
//! too (CUB supports d_in == d_out; the last input of a chunk is copied before its scan). With
//! temp == nullptr it only sets temp_bytes (the carry slots and the largest chunk's CUB storage).
template <class T>
void cub_scan_chunked(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
  using Counting = cub::CountingInputIterator<int>;
  using WithCarry = cub::TransformInputIterator<T, FirstPlusCarry<T>, Counting>;
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  if (temp == nullptr) {
    const int chunk = static_cast<int>(kCubChunk);
    std::size_t first = 0, later = 0;
    if (a.inclusive) {
      CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, first, in, out, chunk, a.stream));
      CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, later, WithCarry(Counting(0), FirstPlusCarry<T>{in, in}),
                                                out, cub::Sum(), chunk, a.stream));
    } else {
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, first, in, out, chunk, a.stream));
      CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, later, in, out, cub::Sum(),
                                                cub::FutureValue<T>(static_cast<T*>(nullptr)), chunk, a.stream));
    }
    temp_bytes = kCarrySlotBytes + std::max(first, later);
    return;
  }
  T* carry = static_cast<T*>(temp);  // slot 0: the exclusive carry; slot 1: the saved last input
  T* in_last = carry + 1;
  void* cub_temp = static_cast<char*>(temp) + kCarrySlotBytes;
  for (std::size_t b = 0; b < a.n; b += kCubChunk) {
    const int len = static_cast<int>(std::min(kCubChunk, a.n - b));
    const std::size_t e = b + static_cast<std::size_t>(len);
    std::size_t bytes = temp_bytes - kCarrySlotBytes;
    if (a.inclusive) {
      if (b == 0)
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_temp, bytes, in, out, len, a.stream));
      else
        CUDA_CHECK(cub::DeviceScan::InclusiveScan(
            cub_temp, bytes, WithCarry(Counting(0), FirstPlusCarry<T>{in + b, out + b - 1}), out + b, cub::Sum(), len,
            a.stream));
      continue;
    }
    if (e < a.n) CUDA_CHECK(cudaMemcpyAsync(in_last, in + e - 1, sizeof(T), cudaMemcpyDeviceToDevice, a.stream));
    if (b == 0)
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp, bytes, in, out, len, a.stream));
    else
      CUDA_CHECK(cub::DeviceScan::ExclusiveScan(cub_temp, bytes, in + b, out + b, cub::Sum(), cub::FutureValue<T>(carry),
                                                len, a.stream));
    if (e < a.n) {
      next_exclusive_carry<T><<<1, 1, 0, a.stream>>>(carry, out + e - 1, in_last);
      CUDA_CHECK(cudaGetLastError());
    }
  }
}
#endif  // !HARNESS_CUB_SCAN_64BIT_COUNT

//! CUB's scan of `a` with the narrowest count type this CCCL takes for n: uint32 up to 2^32 - 1 and
//! uint64 past it (CCCL 2.7 and newer); int up to 2^31 - 1 and chunks of 2^30 past it (older CCCL).
template <class T>
void cub_scan_dispatch(void* temp, std::size_t& temp_bytes, const ScanArgs& a) {
#if HARNESS_CUB_SCAN_64BIT_COUNT
  if (a.n <= UINT32_MAX) cub_scan_call<T, std::uint32_t>(temp, temp_bytes, a);
  else cub_scan_call<T, std::uint64_t>(temp, temp_bytes, a);
#else
  if (a.n <= static_cast<std::size_t>(INT_MAX)) cub_scan_call<T, int>(temp, temp_bytes, a);
  else cub_scan_chunked<T>(temp, temp_bytes, a);
#endif
}

}  // namespace

Stage<Scan> cub_scan_stage() {
  Stage<Scan> s;
  s.name = "cub::DeviceScan";
  s.label = "CUB";
  s.change = "the library baseline (CCCL's CUB, shipped with the CUDA Toolkit)";
  s.source = "CUB, cub::DeviceScan::ExclusiveSum / InclusiveSum";
  s.deterministic = false;
  s.caps.in_place = true;  // CUB documents d_in == d_out as supported
  s.grid_for = [](const ScanArgs&) { return std::size_t{1}; };  // CUB chooses its own grid
  s.workspace_bytes = [](const ScanArgs& a) {
    std::size_t bytes = 0;
    ScanArgs q = a;
    q.in = nullptr;
    q.out = nullptr;
    with_input_type(a.type, [&](auto t) { cub_scan_dispatch<decltype(t)>(nullptr, bytes, q); });
    return bytes;
  };
  // CUB's tiles hold at least 256 elements; each look-back hop adds at most a warp reduction
  // (5 levels) and two additions: the same upper bound as the repository's look-back stages.
  s.depth = [](const ScanArgs& a) { return 64.0 + 7.0 * static_cast<double>((a.n + 255) / 256); };
  s.launch = launch_cub_scan;
  return s;
}

void launch_cub_scan(const ScanArgs& a) {
  std::size_t bytes = a.workspace_size;
  with_input_type(a.type, [&](auto t) { cub_scan_dispatch<decltype(t)>(a.workspace, bytes, a); });
}

}  // namespace harness
