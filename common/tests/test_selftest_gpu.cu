// The self-test of the checks, through the tests' own path (sweep<P>: cached sessions on exact data,
// poisoned outputs, the problem's check): every deliberately broken stage -- the first element
// skipped, the last one or the last three dropped, the first element of three blocks skipped, and
// each problem's own bug -- must be reported as FAILED, for every type, at the sizes where a check on
// mostly-zero data would miss a lost element (2^24 + 3, 2^28) and past 2^31.
//
// The default run takes one seed per size, every type, at the small sizes, 2^24 + 3 and 2^28; past
// 2^31 the default run's self-test is the stage programs' (CTest selftest.*_2e31: one broken stage
// per problem at 2^31 + 1, float reduction, int scan, uint8 histogram), each a few seconds, so this
// program's sweep past 2^31 is left to [long]. The tests tagged [long] (CTest label `long`, one
// CTest entry per problem: long.selftest_seeds_{reduce,scan,histogram}) take 20 seeds at 2^24 + 3
// and 2^28 and 2 seeds at 2^31 + 1, every broken stage and every type (the small sizes, every
// block size, stay with the default run's one seed), as docs/results/H200/selftest/ records.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "broken_histogram.cuh"
#include "broken_reduce.cuh"
#include "histogram_reference.hpp"
#include "catch.hpp"
#include "scan/broken_scan.hpp"
#include "sweep.hpp"

using namespace harness;
using namespace testing_support;

namespace {

constexpr std::size_t kPast2e24 = (std::size_t{1} << 24) + 3;
constexpr std::size_t k2e28 = std::size_t{1} << 28;

//! `count` seeds: this run's seed and the ones after it.
std::vector<std::uint64_t> seeds(int count) {
  std::vector<std::uint64_t> s;
  for (int k = 0; k < count; ++k) s.push_back(run_seed() + static_cast<std::uint64_t>(k));
  return s;
}

//! Runs every stage of `broken` on P's exact data, for every type the stage takes: first over the
//! small sizes (1000, 2^20 + 3 and every block size +- 1, at every block size), then at each of
//! `sizes` and `seed_list` (block 256), one input at a time shared by all the broken stages. Every
//! run must fail. Returns the number of runs.
template <class P>
std::size_t expect_failures(const std::vector<Stage<P>>& broken, const std::vector<DType>& types,
                            const std::vector<std::size_t>& sizes, const std::vector<std::uint64_t>& seed_list,
                            bool small_sizes) {
  Sweep<P> sw;
  sw.dists = {P::exact_dist()};
  sw.expect_failure = true;
  std::size_t runs = 0;
  if (small_sizes) {
    sw.types = types;
    sw.sizes = {1000, (std::size_t{1} << 20) + 3};
    sw.seeds = seed_list;
    for (const Stage<P>& s : broken) runs += sweep(s, sw);
  }
  sw.block_edges = false;
  for (DType type : types)
    for (std::size_t n : sizes)
      for (std::uint64_t seed : seed_list) {
        sw.types = {type};
        sw.sizes = {n};
        sw.seeds = {seed};
        for (const Stage<P>& s : broken) runs += sweep(s, sw);
      }
  return runs;
}

const std::vector<DType> kNumeric{DType::f32, DType::f64, DType::i32};
const std::vector<DType> kSamples{DType::u8, DType::i32, DType::f32};

}  // namespace

TEST_CASE("broken reductions are reported as failed up to 2^28 (one seed)", "[gpu][selftest]") {
  CHECK(expect_failures<Reduce>(broken_reduce_stages(), kNumeric, {kPast2e24, k2e28}, seeds(1), true) > 0);
}

TEST_CASE("broken scans are reported as failed up to 2^28 (one seed)", "[gpu][selftest]") {
  CHECK(expect_failures<Scan>(broken_scan_stages(), kNumeric, {kPast2e24, k2e28}, seeds(1), true) > 0);
}

TEST_CASE("broken histograms are reported as failed up to 2^28 (one seed)", "[gpu][selftest]") {
  CHECK(expect_failures<Histogram>(broken_histogram_stages(), kSamples, {kPast2e24, k2e28}, seeds(1), true) > 0);
}

TEST_CASE("broken reductions are reported as failed for 20 seeds (2 past 2^31)", "[.][long][selftest]") {
  CHECK(expect_failures<Reduce>(broken_reduce_stages(), kNumeric, {kPast2e24, k2e28}, seeds(20), false) > 0);
  CHECK(expect_failures<Reduce>(broken_reduce_stages(), kNumeric, {kPast2e31}, seeds(2), false) > 0);
}

TEST_CASE("broken scans are reported as failed for 20 seeds (2 past 2^31)", "[.][long][selftest]") {
  CHECK(expect_failures<Scan>(broken_scan_stages(), kNumeric, {kPast2e24, k2e28}, seeds(20), false) > 0);
  CHECK(expect_failures<Scan>(broken_scan_stages(), kNumeric, {kPast2e31}, seeds(2), false) > 0);
}

TEST_CASE("broken histograms are reported as failed for 20 seeds (2 past 2^31)", "[.][long][selftest]") {
  CHECK(expect_failures<Histogram>(broken_histogram_stages(), kSamples, {kPast2e24, k2e28}, seeds(20), false) > 0);
  CHECK(expect_failures<Histogram>(broken_histogram_stages(), kSamples, {kPast2e31}, seeds(2), false) > 0);
}
