//! @file ceilings.hpp
//! @brief The bandwidth ceilings a ladder times next to its stages, on the same input: a
//! device-to-device copy (for problems that write as much as they read: scan; and reduction, as
//! the article does) and a streaming read (for problems that only read: histogram and reduction,
//! whose ladders show both: a copy moves 2 bytes per input byte, a reduction 1).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

#include "device_info.hpp"
#include "timing.hpp"

namespace harness {

//! Which ceiling a problem is measured against.
enum class Ceiling {
  copy,  //!< cudaMemcpyAsync device to device: every byte read once and written once
  read   //!< a kernel that reads every byte once with 16-byte loads (the faster of two grids)
};

//! Row name of a ceiling in a ladder: "copy (D2D)" or "read (stream)".
const char* ceiling_name(Ceiling c);
//! One sentence saying what the ceiling moves and how its GB/s is counted.
const char* ceiling_help(Ceiling c);

//! A timed ceiling.
struct CeilingResult {
  double ms = 0;      //!< median time, ms
  double min_ms = 0;  //!< fastest run, ms
  double bytes = 0;   //!< bytes moved per run (copy: read + written)
  int iters = 0;      //!< runs timed
  int launches = 0;   //!< what one run enqueues (count_launches: 1, the copy or the read kernel)
};

//! The two grids the streaming read is timed with (time_ceiling keeps the faster).
enum class ReadGrid {
  wave,   //!< one full wave of resident 256-thread blocks, each looping over the input (grid-stride)
  coarse  //!< one 256-thread block per 32 KiB, each thread two trips of four 16-byte loads (stage 9's grid)
};

//! Words of the sink the streaming read xors into (block b into word b % kReadSinkWords).
inline constexpr std::size_t kReadSinkWords = 1024;

//! Enqueues the streaming read of `bytes` bytes at `in` (any alignment) on `stream`; each warp
//! xors what it read into `sink[blockIdx.x % kReadSinkWords]` so the loads cannot be optimised away
//! (the xor of the whole sink is the xor of every 16-byte word's four 32-bit words and of the
//! unaligned head and tail bytes).
//! @param[in] in the bytes to read (device memory)
//! @param[in] bytes how many
//! @param[in,out] sink kReadSinkWords words of device memory
//! @param[in] stream stream to enqueue on
//! @param[in] grid which grid (ReadGrid)
void read_ceiling(const void* in, std::size_t bytes, unsigned* sink, cudaStream_t stream,
                  ReadGrid grid = ReadGrid::wave);

//! Times ceiling `c` over the `bytes` bytes at `in` with `timing` (an empty input gives zeros). The
//! streaming read is timed on both grids and the faster median kept.
//! @throws UsageError if the copy's destination does not fit in device memory; CudaError on CUDA failures
CeilingResult time_ceiling(Ceiling c, const void* in, std::size_t bytes, const TimingOptions& timing,
                           cudaStream_t stream, const DeviceInfo& dev);

}  // namespace harness
