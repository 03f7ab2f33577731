// CPU tests: chapter 7's stages refuse unsupported configurations before touching the GPU, and the
// stage programs reject bad flags with exit code 2.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch07_stages.hpp"
#include "errors.hpp"

using namespace harness;

TEST_CASE("every stage accepts exactly the power-of-two block sizes in its range", "[cpu][ch07]") {
  for (const ReduceImpl& s : ch07::all_stages()) {
    INFO(s.name);
    for (int b = 1; b <= 2048; ++b) {
      const bool ok = is_power_of_two(b) && b >= s.min_block && b <= s.max_block;
      if (ok) CHECK_NOTHROW(validate_config(s, DType::f32, Op::sum, b, 0));
      else if (b % 16 == 0 || b < 40 || b > 1000) CHECK_THROWS_AS(validate_config(s, DType::f32, Op::sum, b, 0), UsageError);
    }
    CHECK(s.max_block == 1024);
  }
  CHECK(ch07::reduce_kernel_6_syncwarp_impl().min_block == 64);
  CHECK(ch07::reduce_kernel_7_impl().min_block == 32);
}

TEST_CASE("only the coarsened stage takes --grid; chapter 7 sums only", "[cpu][ch07]") {
  for (const ReduceImpl& s : ch07::all_stages()) {
    INFO(s.name);
    if (s.grid_stride) CHECK_NOTHROW(validate_config(s, DType::f64, Op::sum, 256, 1000));
    else CHECK_THROWS_AS(validate_config(s, DType::f64, Op::sum, 256, 1000), UsageError);
    CHECK_THROWS_AS(validate_config(s, DType::f32, Op::max, 256, 0), UsageError);
  }
}

namespace {

int run_program(harness::StageProgram p, std::vector<const char*> args) {
  args.insert(args.begin(), "reduce_kernel_x");
  return harness::stage_main(static_cast<int>(args.size()), const_cast<char**>(args.data()), p);
}

}  // namespace

TEST_CASE("stage programs reject bad input with exit code 2, before any GPU work", "[cpu][ch07]") {
  const auto p3 = harness::single_stage(ch07::reduce_kernel_3_impl());
  CHECK(run_program(p3, {"--block", "100"}) == kExitUsage);
  CHECK(run_program(p3, {"--block", "2048"}) == kExitUsage);
  CHECK(run_program(p3, {"--block", "16"}) == kExitUsage);
  CHECK(run_program(p3, {"--n", "many"}) == kExitUsage);
  CHECK(run_program(p3, {"--type", "half"}) == kExitUsage);
  CHECK(run_program(p3, {"--grid", "10"}) == kExitUsage);
  CHECK(run_program(p3, {"--frobnicate"}) == kExitUsage);
  CHECK(run_program(p3, {"--help"}) == 0);
  const auto p6 = ch07::reduce_kernel_6_program();
  CHECK(run_program(p6, {"--block", "32"}) == kExitUsage);
  CHECK(run_program(p6, {"--last-warp", "lockstep"}) == kExitUsage);
}
