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
