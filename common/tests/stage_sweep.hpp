// GPU test support shared by every chapter: run a stage over sizes, block sizes, types and data,
// on poisoned outputs, and check it against the CPU reference (tolerance and exact equality).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "inputs.hpp"
#include "reduce_impl.hpp"
#include "reduce_session.hpp"

namespace testing_support {

//! The seed of this test run: TUTORIAL_SEED from the environment, else fresh from random_device
//! (printed once, so a failure can be reproduced).
std::uint64_t run_seed();

//! The awkward sizes every stage is tested on: 0, 1, 31, 32, 33, 1000, 2^20+3, 2^24, 2^31+1.
std::vector<std::size_t> standard_sizes();

//! Every power-of-two block size `impl` supports.
std::vector<int> supported_blocks(const harness::ReduceImpl& impl);

//! What to sweep.
struct Sweep {
  std::vector<harness::DType> types{harness::DType::f32, harness::DType::f64, harness::DType::i32};
  std::vector<harness::Op> ops{harness::Op::sum};
  std::vector<harness::Dist> dists{harness::Dist::signed_uniform, harness::Dist::exact};
  std::vector<std::size_t> sizes = standard_sizes();  //!< plus block-1 and block+1 for every block
  std::size_t large_from = std::size_t{1} << 24;      //!< from here on only `large_blocks` run
  std::vector<int> large_blocks{256};                 //!< (clamped to the stage's range)
};

//! A session (input on the device + reference) for this key, kept while the cached inputs use at
//! most half the device memory, so that consecutive stages share the large inputs.
harness::ReduceSession& cached_session(harness::DType type, harness::Op op, std::size_t n,
                                       harness::Dist dist, std::uint64_t seed);

//! Runs `impl` over the sweep and CHECKs every result; returns the number of runs.
std::size_t sweep_stage(const harness::ReduceImpl& impl, const Sweep& sweep = {});

}  // namespace testing_support
