// CPU tests: chapter 7's stages refuse unsupported configurations before touching the GPU, and the
// stage programs reject bad flags with exit code 2.
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch07_stages.hpp"
#include "errors.hpp"
#include "drivers_impl.hpp"
#include "run_stage.hpp"

using namespace harness;

namespace {

ReduceArgs args(DType type, Op op, int block, std::size_t grid) {
  ReduceArgs a;
  a.type = type;
  a.op = op;
  a.block = block;
  a.grid = grid;
  a.n = 1000;
  return a;
}

int run(const StageProgram<Reduce>& p, std::vector<const char*> argv) {
  argv.insert(argv.begin(), "reduce_kernel_x");
  return stage_main(static_cast<int>(argv.size()), const_cast<char**>(argv.data()), p);
}

}  // namespace

TEST_CASE("every stage accepts exactly the power-of-two block sizes in its range", "[cpu][ch07]") {
  for (const Stage<Reduce>& s : ch07::all_stages()) {
    INFO(s.name);
    for (int b = 1; b <= 2048; ++b) {
      const bool ok = is_power_of_two(b) && b >= s.min_block && b <= s.max_block;
      if (ok) CHECK_NOTHROW(validate_config(s, args(DType::f32, Op::sum, b, 0)));
      else if (b % 16 == 0 || b < 40 || b > 1000) CHECK_THROWS_AS(validate_config(s, args(DType::f32, Op::sum, b, 0)), UsageError);
    }
    CHECK(s.max_block == 1024);
  }
  CHECK(ch07::stage_named("reduce_kernel_6").min_block == 64);
  CHECK(ch07::stage_named("reduce_kernel_7").min_block == 32);
}

TEST_CASE("only the grid-stride stages (8 to 11) take --grid; chapter 7 sums only", "[cpu][ch07]") {
  for (const Stage<Reduce>& s : ch07::all_stages()) {
    INFO(s.name);
    if (s.grid_stride) CHECK_NOTHROW(validate_config(s, args(DType::f64, Op::sum, 256, 1000)));
    else CHECK_THROWS_AS(validate_config(s, args(DType::f64, Op::sum, 256, 1000)), UsageError);
    CHECK_THROWS_AS(validate_config(s, args(DType::f32, Op::max, 256, 0)), UsageError);
    CHECK(static_cast<bool>(s.depth));  // every stage states its summation depth
  }
}

TEST_CASE("stage programs reject bad input with exit code 2, before any GPU work", "[cpu][ch07]") {
  const StageProgram<Reduce> p3{{ch07::stage_named("reduce_kernel_3")}, {}, {}, {}};
  CHECK(run(p3, {"--block", "100"}) == kExitUsage);
  CHECK(run(p3, {"--block", "2048"}) == kExitUsage);
  CHECK(run(p3, {"--block", "16"}) == kExitUsage);
  CHECK(run(p3, {"--n", "many"}) == kExitUsage);
  CHECK(run(p3, {"--type", "half"}) == kExitUsage);
  CHECK(run(p3, {"--grid", "10"}) == kExitUsage);  // not offered: stage 3 has no grid-stride loop
  CHECK(run(p3, {"--op", "max"}) == kExitUsage);   // not offered: chapter 7 sums only
  CHECK(run(p3, {"--frobnicate"}) == kExitUsage);
  CHECK(run(p3, {"--help"}) == 0);
  StageProgram<Reduce> p6;
  p6.variants = {ch07::stage_named("reduce_kernel_6"), ch07::stage_named("reduce_kernel_6_volatile")};
  p6.variant_flag = "--last-warp";
  p6.variant_names = {"syncwarp", "volatile"};
  CHECK(run(p6, {"--block", "32"}) == kExitUsage);
  CHECK(run(p6, {"--last-warp", "lockstep"}) == kExitUsage);
}

TEST_CASE("a stage's --help lists only what it accepts", "[cpu][ch07]") {
  const Stage<Reduce> s3 = ch07::stage_named("reduce_kernel_3");
  const Stage<Reduce> s8 = ch07::stage_named("reduce_kernel_8");
  CLI::App app3, app8;
  RunOptions o;
  Reduce::Config c;
  detail::add_problem_flags<Reduce>(app3, o, c, {&s3}, false);
  detail::add_problem_flags<Reduce>(app8, o, c, {&s8}, false);
  CHECK(app3.get_option_no_throw("--grid") == nullptr);
  CHECK(app8.get_option_no_throw("--grid") != nullptr);
  CHECK(app3.get_option_no_throw("--op") == nullptr);
  CHECK(app3.help().find("from 32 to 1024") != std::string::npos);
}
