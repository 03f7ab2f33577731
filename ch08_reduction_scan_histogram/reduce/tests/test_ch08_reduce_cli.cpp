// CPU tests: chapter 8's reduction stages describe themselves correctly (operators, types, output
// types, block limits) and refuse unsupported configurations before touching the GPU; the stage
// programs reject bad flags with exit code 2.
#include <algorithm>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
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

}  // namespace

TEST_CASE("six stages, named for their programs, all deterministic", "[cpu][ch08]") {
  const auto stages = ch08::all_reduce_stages();
  REQUIRE(stages.size() == 6);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    CHECK(stages[i].name == "reduce_stage_" + std::to_string(i));
    CHECK(stages[i].deterministic);
    CHECK(stages[i].caps.ops.size() == 3);
    CHECK(stages[i].types.size() == 3);
    CHECK(static_cast<bool>(stages[i].workspace_bytes));
    CHECK(static_cast<bool>(stages[i].depth));
    CHECK_FALSE(stages[i].change.empty());
    CHECK(stages[i].source.rfind("chapter 8", 0) == 0);
  }
}

TEST_CASE("output types: int sums are int64, everything else keeps the input type", "[cpu][ch08]") {
  for (const Stage<Reduce>& s : ch08::all_reduce_stages()) {
    INFO(s.name);
    CHECK(Reduce::output_type(s, args(DType::i32, Op::sum, 256, 0)) == DType::i64);
    CHECK(Reduce::output_type(s, args(DType::i32, Op::max, 256, 0)) == DType::i32);
    CHECK(Reduce::output_type(s, args(DType::i32, Op::min, 256, 0)) == DType::i32);
    CHECK(Reduce::output_type(s, args(DType::f32, Op::sum, 256, 0)) == DType::f32);
    CHECK(Reduce::output_type(s, args(DType::f64, Op::max, 256, 0)) == DType::f64);
  }
}

TEST_CASE("every stage accepts exactly the power-of-two block sizes 32..1024, every op and type",
          "[cpu][ch08]") {
  for (const Stage<Reduce>& s : ch08::all_reduce_stages()) {
    INFO(s.name);
    for (int b = 1; b <= 2048; ++b) {
      const bool ok = is_power_of_two(b) && b >= 32 && b <= 1024;
      if (ok) CHECK_NOTHROW(validate_config(s, args(DType::f32, Op::sum, b, 0)));
      else if (b % 16 == 0 || b < 40 || b > 1000) CHECK_THROWS_AS(validate_config(s, args(DType::f32, Op::sum, b, 0)), UsageError);
    }
    for (DType t : {DType::f32, DType::f64, DType::i32})
      for (Op op : {Op::sum, Op::max, Op::min}) CHECK_NOTHROW(validate_config(s, args(t, op, 256, 0)));
    CHECK_THROWS_AS(validate_config(s, args(DType::i64, Op::sum, 256, 0)), UsageError);
  }
}

TEST_CASE("only the grid-stride stages 2-4 take --grid", "[cpu][ch08]") {
  const auto stages = ch08::all_reduce_stages();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    INFO(stages[i].name);
    CHECK(stages[i].grid_stride == (i >= 2));
    if (i >= 2) CHECK_NOTHROW(validate_config(stages[i], args(DType::f64, Op::max, 256, 1000)));
    else CHECK_THROWS_AS(validate_config(stages[i], args(DType::f64, Op::max, 256, 1000)), UsageError);
  }
}

TEST_CASE("stage 1 refuses an n that needs more than 2^31 - 1 blocks, without a GPU", "[cpu][ch08]") {
  const Stage<Reduce> s1 = ch08::reduce_stage_named("reduce_stage_1");
  ReduceArgs a = args(DType::f32, Op::sum, 32, 0);
  a.n = std::size_t{1} << 40;
  CHECK_THROWS_AS(validate_shape(s1, a), UsageError);
  a.n = std::size_t{1} << 20;
  CHECK_NOTHROW(validate_shape(s1, a));
  CHECK(workspace_of(s1, a) == (std::size_t{1} << 15) * sizeof(float));
  a.type = DType::i32;
  CHECK(workspace_of(s1, a) == (std::size_t{1} << 15) * sizeof(long long));
  a.workspace_size = 100;
  CHECK_THROWS_AS(run_stage(s1, a), UsageError);  // refused before any launch
}

namespace {

int run_program(const Stage<Reduce>& stage, std::vector<const char*> argv) {
  argv.insert(argv.begin(), "reduce_stage_x");
  return harness::stage_main(static_cast<int>(argv.size()), const_cast<char**>(argv.data()), stage);
}

}  // namespace

TEST_CASE("stage programs reject bad input with exit code 2, before any GPU work", "[cpu][ch08]") {
  for (int k : {0, 1, 4}) {
    const auto stages = ch08::all_reduce_stages();
    const Stage<Reduce>& p = stages[k];
    INFO(stages[k].name);
    CHECK(run_program(p, {"--block", "100"}) == kExitUsage);
    CHECK(run_program(p, {"--block", "2048"}) == kExitUsage);
    CHECK(run_program(p, {"--block", "16"}) == kExitUsage);
    CHECK(run_program(p, {"--op", "avg"}) == kExitUsage);
    CHECK(run_program(p, {"--op", "product"}) == kExitUsage);
    CHECK(run_program(p, {"--type", "half"}) == kExitUsage);
    CHECK(run_program(p, {"--n", "-5"}) == kExitUsage);
    CHECK(run_program(p, {"--frobnicate"}) == kExitUsage);
    CHECK(run_program(p, {"--help"}) == 0);
    CHECK(run_program(p, {"--op", "max", "--help"}) == 0);
  }
  CHECK(run_program(ch08::reduce_stage_named("reduce_stage_1"), {"--grid", "10"}) == kExitUsage);
}

TEST_CASE("stage 8 describes its workspace and its grid limit, without a GPU", "[cpu][ch08]") {
  // The run word (zeroed once, left ready by every launch), then one slot per block: 8 bytes for a
  // 4-byte accumulator, 16 for an 8-byte one. A grid past what a 16-bit ticket count holds is
  // refused before any launch. (--grid given: no occupancy query.)
  const Stage<Reduce> s8 = ch08::reduce_stage_named("reduce_stage_8");
  CHECK(s8.deterministic);
  CHECK(s8.grid_stride);
  CHECK(s8.workspace_zeroed_bytes == 8u);
  CHECK(s8.max_grid == 0xFFFFu);
  CHECK(workspace_of(s8, args(DType::f32, Op::sum, 256, 1000)) == 16u + 1000u * 8u);
  CHECK(workspace_of(s8, args(DType::i32, Op::max, 256, 1000)) == 16u + 1000u * 8u);
  CHECK(workspace_of(s8, args(DType::f64, Op::min, 256, 1000)) == 16u + 1000u * 16u);
  CHECK(workspace_of(s8, args(DType::i32, Op::sum, 256, 1000)) == 16u + 1000u * 16u);
  ReduceArgs small = args(DType::f32, Op::sum, 256, 0);  // stage 7's block for n: one block up to 1024
  small.n = std::size_t{1} << 14;
  CHECK(default_block_of(s8, small, limits_sm90()) == 1024);
  small.n += 1;
  CHECK(default_block_of(s8, small, limits_sm90()) == 256);
  CHECK_NOTHROW(validate_shape(s8, args(DType::f32, Op::sum, 256, 0xFFFF)));
  CHECK_THROWS_AS(validate_shape(s8, args(DType::f32, Op::sum, 256, 0x10000)), UsageError);
  const auto ladder = ch08::ladder_reduce_stages();
  const auto it =
      std::find_if(ladder.begin(), ladder.end(), [](const Stage<Reduce>& s) { return s.name == "reduce_stage_7"; });
  REQUIRE(it != ladder.end());
  REQUIRE(it + 1 != ladder.end());
  CHECK((it + 1)->name == "reduce_stage_8");  // the ladder runs stage 8 right after stage 7
}
