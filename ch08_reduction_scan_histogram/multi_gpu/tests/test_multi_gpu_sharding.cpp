// CPU tests of the multi-GPU arithmetic (sharding.hpp): the shards of any n over G = 1..8 GPUs
// cover [0, n) once, contiguously, with sizes that differ by at most one (sizes 0, 1, G - 1, G + 1
// and past 2^31 included), and the bandwidth formulas of nccl-tests' PERFORMANCE.md. Needs no GPU
// and no NCCL.
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "catch.hpp"
#include "sharding.hpp"

using multi_gpu::Shard;
using multi_gpu::shard_of;

namespace {

// Checks every property of the split of n over G GPUs.
void check_split(std::size_t n, int gpus) {
  INFO("n = " << n << ", G = " << gpus);
  std::size_t next = 0, smallest = n, largest = 0;
  for (int g = 0; g < gpus; ++g) {
    const Shard s = shard_of(n, gpus, g);
    REQUIRE(s.offset == next);  // contiguous, in GPU order: nothing lost, nothing doubled
    next += s.size;
    if (s.size < smallest) smallest = s.size;
    if (s.size > largest) largest = s.size;
    // The first n % G shards are the larger ones.
    const bool bigger = static_cast<std::size_t>(g) < n % static_cast<std::size_t>(gpus);
    REQUIRE(s.size == n / static_cast<std::size_t>(gpus) + (bigger ? 1 : 0));
  }
  REQUIRE(next == n);                 // the sizes sum to n
  REQUIRE(largest - smallest <= 1);   // as even as possible
}

}  // namespace

TEST_CASE("shards cover any n exactly once, contiguously, sizes differing by at most one", "[multi_gpu][sharding]") {
  for (int gpus = 1; gpus <= 8; ++gpus) {
    const std::size_t G = static_cast<std::size_t>(gpus);
    const std::vector<std::size_t> sizes = {0,         1,           2,           G - 1,        G,
                                            G + 1,     2 * G - 1,   2 * G + 1,   1000,         (std::size_t{1} << 20) + 3,
                                            (std::size_t{1} << 31) - 1, std::size_t{1} << 31,
                                            (std::size_t{1} << 31) + 5, (std::size_t{1} << 32) + 7,
                                            (std::size_t{1} << 40) + 3};
    for (std::size_t n : sizes) check_split(n, gpus);
  }
}

TEST_CASE("small examples of the split", "[multi_gpu][sharding]") {
  // n = 10 over 4 GPUs: 3, 3, 2, 2 at 0, 3, 6, 8.
  REQUIRE(shard_of(10, 4, 0).offset == 0);
  REQUIRE(shard_of(10, 4, 0).size == 3);
  REQUIRE(shard_of(10, 4, 1).offset == 3);
  REQUIRE(shard_of(10, 4, 1).size == 3);
  REQUIRE(shard_of(10, 4, 2).offset == 6);
  REQUIRE(shard_of(10, 4, 2).size == 2);
  REQUIRE(shard_of(10, 4, 3).offset == 8);
  REQUIRE(shard_of(10, 4, 3).size == 2);
  // Fewer elements than GPUs: the last shards are empty and sit at n.
  REQUIRE(shard_of(1, 3, 0).size == 1);
  REQUIRE(shard_of(1, 3, 1).size == 0);
  REQUIRE(shard_of(1, 3, 1).offset == 1);
  REQUIRE(shard_of(1, 3, 2).offset == 1);
  REQUIRE(shard_of(0, 2, 1).size == 0);
  REQUIRE(shard_of(0, 2, 1).offset == 0);
  // One GPU holds everything, past 2^31 too.
  const std::size_t big = (std::size_t{1} << 31) + 5;
  REQUIRE(shard_of(big, 1, 0).offset == 0);
  REQUIRE(shard_of(big, 1, 0).size == big);
  // Past 2^31 over 2 GPUs: 2^30 + 3 and 2^30 + 2.
  REQUIRE(shard_of(big, 2, 0).size == (std::size_t{1} << 30) + 3);
  REQUIRE(shard_of(big, 2, 1).size == (std::size_t{1} << 30) + 2);
  REQUIRE(shard_of(big, 2, 1).offset == (std::size_t{1} << 30) + 3);
}

TEST_CASE("shard_of refuses a bad GPU count or index", "[multi_gpu][sharding]") {
  REQUIRE_THROWS_AS(shard_of(10, 0, 0), std::invalid_argument);
  REQUIRE_THROWS_AS(shard_of(10, 2, 2), std::invalid_argument);
  REQUIRE_THROWS_AS(shard_of(10, 2, -1), std::invalid_argument);
}

TEST_CASE("bandwidth formulas follow nccl-tests PERFORMANCE.md", "[multi_gpu][bandwidth]") {
  // algbw = bytes / time: 1e9 bytes in 1000 ms is 1 GB/s; 4e9 bytes in 2 ms is 2000 GB/s.
  REQUIRE(multi_gpu::algbw_gbps(1e9, 1000.0) == Approx(1.0));
  REQUIRE(multi_gpu::algbw_gbps(4e9, 2.0) == Approx(2000.0));
  REQUIRE(multi_gpu::algbw_gbps(1e9, 0.0) == 0.0);
  // busbw = algbw * 2 (G - 1) / G.
  REQUIRE(multi_gpu::allreduce_bus_factor(1) == 0.0);
  REQUIRE(multi_gpu::allreduce_bus_factor(2) == Approx(1.0));
  REQUIRE(multi_gpu::allreduce_bus_factor(4) == Approx(1.5));
  REQUIRE(multi_gpu::allreduce_bus_factor(8) == Approx(1.75));
  REQUIRE(multi_gpu::allreduce_busbw_gbps(100.0, 8) == Approx(175.0));
  REQUIRE(multi_gpu::allreduce_busbw_gbps(100.0, 1) == 0.0);
  REQUIRE_THROWS_AS(multi_gpu::allreduce_bus_factor(0), std::invalid_argument);
  // Strong scaling: 10 ms on one GPU, 6 ms on two: speedup 1.667, efficiency 0.833.
  REQUIRE(multi_gpu::speedup(10.0, 6.0) == Approx(10.0 / 6.0));
  REQUIRE(multi_gpu::scaling_efficiency(10.0, 6.0, 2) == Approx(10.0 / 12.0));
  REQUIRE(multi_gpu::speedup(10.0, 0.0) == 0.0);
}
