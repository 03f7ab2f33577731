// GPU tests: every chapter-7 stage against the CPU reference over the awkward sizes (0, 1, 31, 32,
// 33, 1000, block +-1, 2^20+3, 2^24, 2^31+1), every supported block size, float / double / int,
// seeded signed data (tolerance n*eps*sum|a|) and exact data (equality), on poisoned outputs.
#include "catch.hpp"
#include "ch07_stages.hpp"
#include "stage_sweep.hpp"

using testing_support::sweep_stage;

TEST_CASE("reduce_kernel_0: atomicAdd per element", "[gpu][ch07][reduce_kernel_0]") {
  CHECK(sweep_stage(ch07::reduce_kernel_0_impl()) > 0);
}
TEST_CASE("reduce_kernel_1: modulo tree", "[gpu][ch07][reduce_kernel_1]") {
  CHECK(sweep_stage(ch07::reduce_kernel_1_impl()) > 0);
}
TEST_CASE("reduce_kernel_2: register accumulator", "[gpu][ch07][reduce_kernel_2]") {
  CHECK(sweep_stage(ch07::reduce_kernel_2_impl()) > 0);
}
TEST_CASE("reduce_kernel_3: strided index", "[gpu][ch07][reduce_kernel_3]") {
  CHECK(sweep_stage(ch07::reduce_kernel_3_impl()) > 0);
}
TEST_CASE("reduce_kernel_4: sequential addressing", "[gpu][ch07][reduce_kernel_4]") {
  CHECK(sweep_stage(ch07::reduce_kernel_4_impl()) > 0);
}
TEST_CASE("reduce_kernel_5: unrolled", "[gpu][ch07][reduce_kernel_5]") {
  CHECK(sweep_stage(ch07::reduce_kernel_5_impl()) > 0);
}
TEST_CASE("reduce_kernel_6: last warp, __syncwarp", "[gpu][ch07][reduce_kernel_6]") {
  CHECK(sweep_stage(ch07::reduce_kernel_6_syncwarp_impl()) > 0);
}
TEST_CASE("reduce_kernel_6: last warp, legacy volatile", "[gpu][ch07][reduce_kernel_6]") {
  // Racy by the CUDA memory model (see the header); it still computes the right sum on current GPUs.
  CHECK(sweep_stage(ch07::reduce_kernel_6_legacy_impl()) > 0);
}
TEST_CASE("reduce_kernel_7: warp shuffle", "[gpu][ch07][reduce_kernel_7]") {
  CHECK(sweep_stage(ch07::reduce_kernel_7_impl()) > 0);
}
TEST_CASE("reduce_kernel_8: thread coarsening", "[gpu][ch07][reduce_kernel_8]") {
  testing_support::Sweep s;
  CHECK(sweep_stage(ch07::reduce_kernel_8_impl(), s) > 0);
}
TEST_CASE("reduce_kernel_9: vectorised loads", "[gpu][ch07][reduce_kernel_9]") {
  CHECK(sweep_stage(ch07::reduce_kernel_9_impl()) > 0);
}
TEST_CASE("reduce_kernel_10: occupancy-sized grid", "[gpu][ch07][reduce_kernel_10]") {
  CHECK(sweep_stage(ch07::reduce_kernel_10_impl()) > 0);
}
TEST_CASE("reduce_kernel_11: single pass", "[gpu][ch07][reduce_kernel_11]") {
  CHECK(sweep_stage(ch07::reduce_kernel_11_impl()) > 0);
}

// --- Properties the grid-stride stages promise beyond the sweep ---------------------------------

#include <cstdint>
#include <set>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_raii.hpp"

namespace {

std::vector<harness::ReduceImpl> grid_stride_stages() {
  return {ch07::reduce_kernel_8_impl(), ch07::reduce_kernel_9_impl(), ch07::reduce_kernel_10_impl(),
          ch07::reduce_kernel_11_impl()};
}

}  // namespace

TEST_CASE("grid-stride stages are right for any grid the user picks", "[gpu][ch07][grid]") {
  using namespace harness;
  for (const ReduceImpl& impl : grid_stride_stages()) {
    for (DType type : {DType::f32, DType::i32}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        ReduceSession& s = testing_support::cached_session(type, Op::sum, n, Dist::exact,
                                                            testing_support::run_seed());
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
          INFO(impl.name << " " << dtype_name(type) << " n " << n << " grid " << grid);
          const Verification v = s.run_and_verify(impl, s.args_for(impl, 128, grid));
          INFO(v.message);
          CHECK(v.ok);
        }
      }
    }
  }
}

TEST_CASE("vectorised stages handle inputs that do not start on a 16-byte boundary",
          "[gpu][ch07][alignment]") {
  using namespace harness;
  for (const ReduceImpl& impl : {ch07::reduce_kernel_9_impl(), ch07::reduce_kernel_10_impl(),
                                 ch07::reduce_kernel_11_impl()}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000},
                          (std::size_t{1} << 20) + 3}) {
      const auto host = make_host_input<float>(n + 3, Dist::exact, testing_support::run_seed());
      DeviceBuffer dev(host.size() * sizeof(float));
      CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
      for (std::size_t offset = 0; offset < 4; ++offset) {
        INFO(impl.name << " n " << n << " offset " << offset << " elements");
        ReduceSession s(DType::f32, Op::sum, host.data() + offset, n, /*exact_data=*/true, nullptr);
        ReduceArgs a = s.args_for(impl, 256, 0);
        a.in = dev.as<float>() + offset;  // the same values, misaligned by `offset` floats
        const Verification v = s.run_and_verify(impl, a);
        INFO(v.message);
        CHECK(v.ok);
      }
    }
  }
}

TEST_CASE("reduce_kernel_11 gives one bit pattern over 20 runs on 2^26 floats",
          "[gpu][ch07][reduce_kernel_11][determinism]") {
  using namespace harness;
  const ReduceImpl impl = ch07::reduce_kernel_11_impl();
  ReduceSession& s = testing_support::cached_session(DType::f32, Op::sum, std::size_t{1} << 26,
                                                      Dist::signed_uniform, testing_support::run_seed());
  std::set<std::uint64_t> patterns;
  for (int run = 0; run < 20; ++run) {
    const Verification v = s.run_and_verify(impl, s.args_for(impl, 256, 0));
    REQUIRE(v.ok);
    patterns.insert(s.last_bits());
  }
  CHECK(patterns.size() == 1);
}
