//! @file sharding.hpp
//! @brief How n elements are split over G GPUs, and the bandwidth figures of a collective as
//! nccl-tests defines them. Plain C++ (no CUDA, no NCCL), so the CPU tests check it everywhere.
//!
//! Units used throughout: sizes in elements or bytes (std::size_t, any value past 2^31), times in
//! milliseconds, bandwidths in GB/s with 1 GB = 1e9 bytes.
#pragma once
#include <cstddef>
#include <stdexcept>

namespace multi_gpu {

//! One GPU's part of an array: elements [offset, offset + size).
struct Shard {
  std::size_t offset = 0;  //!< index of the shard's first element in the whole array
  std::size_t size = 0;    //!< number of elements in the shard (may be 0 when n < G)
};

//! The shard of GPU `g` when n elements are split over `gpus` GPUs as evenly as possible: every
//! shard gets n / G elements, and the first n % G shards get one more. The shards are contiguous,
//! in GPU order, cover [0, n) exactly once, and their sizes differ by at most one.
//! Example: n = 10, G = 4 gives sizes 3, 3, 2, 2 at offsets 0, 3, 6, 8.
//! @param[in] n total number of elements (any value, 0 included)
//! @param[in] gpus number of GPUs G (>= 1)
//! @param[in] g which GPU, 0 <= g < G
//! @return the shard's offset and size, in elements
//! @throws std::invalid_argument when G < 1 or g is not in [0, G)
inline Shard shard_of(std::size_t n, int gpus, int g) {
  if (gpus < 1) throw std::invalid_argument("shard_of: the number of GPUs must be at least 1");
  if (g < 0 || g >= gpus) throw std::invalid_argument("shard_of: GPU index out of range");
  const std::size_t G = static_cast<std::size_t>(gpus);
  const std::size_t i = static_cast<std::size_t>(g);
  const std::size_t base = n / G;   // every shard gets this many
  const std::size_t extra = n % G;  // the first `extra` shards get one more
  Shard s;
  s.size = base + (i < extra ? 1 : 0);
  // Shards before g: i of them hold `base`, and min(i, extra) of them hold one more.
  s.offset = i * base + (i < extra ? i : extra);
  return s;
}

//! Algorithm bandwidth as nccl-tests reports it: the bytes of the operation divided by its time.
//! For an all-reduce the bytes are the size of one GPU's buffer (count x element size), not the
//! sum over GPUs. Source: nccl-tests, doc/PERFORMANCE.md, "Algorithm bandwidth".
//! @param[in] bytes bytes of the operation (for an all-reduce: one GPU's buffer)
//! @param[in] ms time of one operation in milliseconds (> 0)
//! @return GB/s (1e9 bytes per second); 0 when ms <= 0
inline double algbw_gbps(double bytes, double ms) {
  if (ms <= 0) return 0;
  return bytes / (ms * 1e-3) / 1e9;
}

//! The factor nccl-tests multiplies an all-reduce's algorithm bandwidth with to get its bus
//! bandwidth: 2 (G - 1) / G. A ring all-reduce sends and receives 2 (G - 1) / G of the buffer on
//! every GPU's link (G - 1 steps of reduce-scatter, G - 1 of all-gather, each moving 1 / G of the
//! buffer), so bus bandwidth is what each link carried, comparable with the link's peak whatever
//! G is. G = 1 gives 0 (nothing crosses a link). Source: nccl-tests, doc/PERFORMANCE.md, "AllReduce".
//! @param[in] gpus number of ranks G (>= 1)
//! @return 2 (G - 1) / G
//! @throws std::invalid_argument when G < 1
inline double allreduce_bus_factor(int gpus) {
  if (gpus < 1) throw std::invalid_argument("allreduce_bus_factor: the number of GPUs must be at least 1");
  return 2.0 * (gpus - 1) / gpus;
}

//! Bus bandwidth of an all-reduce as nccl-tests reports it: algbw x 2 (G - 1) / G.
//! Source: nccl-tests, doc/PERFORMANCE.md, "AllReduce".
//! @param[in] algbw algorithm bandwidth in GB/s (algbw_gbps)
//! @param[in] gpus number of ranks G (>= 1)
//! @return GB/s (1e9 bytes per second)
//! @throws std::invalid_argument when G < 1
inline double allreduce_busbw_gbps(double algbw, int gpus) { return algbw * allreduce_bus_factor(gpus); }

//! Strong-scaling speedup: the time on one GPU over the time on G GPUs, same total n.
//! @param[in] ms_one time on one GPU, milliseconds
//! @param[in] ms_g time on G GPUs, milliseconds (> 0)
//! @return speedup (0 when ms_g <= 0)
inline double speedup(double ms_one, double ms_g) { return ms_g > 0 ? ms_one / ms_g : 0; }

//! Strong-scaling efficiency: speedup / G (1 is perfect scaling).
//! @param[in] ms_one time on one GPU, milliseconds
//! @param[in] ms_g time on G GPUs, milliseconds (> 0)
//! @param[in] gpus number of GPUs G (>= 1)
//! @return efficiency in [0, ...); 0 when ms_g <= 0 or G < 1
inline double scaling_efficiency(double ms_one, double ms_g, int gpus) {
  return gpus >= 1 ? speedup(ms_one, ms_g) / gpus : 0;
}

}  // namespace multi_gpu
