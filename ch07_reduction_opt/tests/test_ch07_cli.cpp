// CPU tests: chapter 7's stages refuse unsupported configurations before touching the GPU, and the
// stage programs reject bad flags with exit code 2.
#include <stdexcept>
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

TEST_CASE("stages 1 to 8 come with both finishes; the partials form is deterministic", "[cpu][ch07]") {
  const auto atomic = ch07::all_stages();
  const auto partials = ch07::partials_stages();
  for (const Stage<Reduce>& p : partials) {
    INFO(p.name);
    if (p.name == "reduce_kernel_11") continue;
    CHECK(p.name.size() > 9);
    CHECK(p.name.substr(p.name.size() - 9) == "_partials");
    CHECK(p.deterministic);
    const Stage<Reduce> a = ch07::stage_named(p.name.substr(0, p.name.size() - 9));
    CHECK_FALSE(a.deterministic);
    CHECK(a.label == p.label);
    CHECK(a.min_block == p.min_block);
    CHECK(a.grid_stride == p.grid_stride);
    // The partials form needs one element of workspace per block, the atomic form none.
    ReduceArgs x = args(DType::f64, Op::sum, 256, 0);
    x.n = 1u << 20;
    CHECK(!a.workspace_bytes);
    CHECK(p.workspace_bytes(x) == grid_of(p, x) * sizeof(double));
    // Depth: per thread + log2(block) + the finish (2^20 / 256 = 4096 atomics one after another, or
    // the second pass: ceil(4096 / 1024) + 2 + 10).
    if (!p.grid_stride) {
      CHECK(a.depth(x) == Approx(1 + 8 + 4096));
      CHECK(p.depth(x) == Approx(1 + 8 + 4 + 2 + 10));
    }
  }
  CHECK(partials.size() == 10);  // 1 to 8 (6 in both warp tails) and stage 11
  for (const Stage<Reduce>& s : atomic)
    CHECK(s.deterministic ==
          (s.name == "reduce_kernel_11" || s.name == "reduce_kernel_12" || s.name == "reduce_kernel_13"));
  const auto tables = ch07::ladder_tables();
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].key == "atomic");
  CHECK(tables[1].key == "partials");
}

TEST_CASE("stage 9's three changes come one at a time: 8, 9a, 9b, 9 in the first table", "[cpu][ch07]") {
  std::vector<std::string> names;
  for (const Stage<Reduce>& s : ch07::all_stages()) names.push_back(s.name);
  const std::vector<std::string> expected{"reduce_kernel_0", "reduce_kernel_1", "reduce_kernel_2", "reduce_kernel_3",
                                          "reduce_kernel_4", "reduce_kernel_5", "reduce_kernel_6_volatile",
                                          "reduce_kernel_6", "reduce_kernel_7", "reduce_kernel_8",
                                          "reduce_kernel_9a", "reduce_kernel_9b", "reduce_kernel_9",
                                          "reduce_kernel_10", "reduce_kernel_11", "reduce_kernel_12",
                                          "reduce_kernel_13"};
  CHECK(names == expected);
  // 9a and 9b launch stage 8's grid and finish with its atomic, as stage 9 does.
  for (const char* name : {"reduce_kernel_9a", "reduce_kernel_9b"}) {
    INFO(name);
    const Stage<Reduce> s = ch07::stage_named(name);
    const Stage<Reduce> s9 = ch07::stage_named("reduce_kernel_9");
    ReduceArgs x = args(DType::f32, Op::sum, 256, 0);
    x.n = (std::size_t{1} << 24) + 3;
    CHECK(s.grid_stride);
    CHECK_FALSE(s.deterministic);
    CHECK(!s.workspace_bytes);
    CHECK(grid_of(s, x) == grid_of(s9, x));
    CHECK(s.depth(x) <= s9.depth(x));
  }
  // The ladder's `#` column numbers them 9a and 9b.
  CHECK(detail::stage_number("reduce_kernel_9a") == "9a");
  CHECK(detail::stage_number("reduce_kernel_9b") == "9b");
  CHECK(detail::stage_number("reduce_kernel_9") == "9");
  CHECK(detail::stage_number("reduce_kernel_6_volatile") == "-");
}

TEST_CASE("a reduction ladder closes with the copy and the streaming-read ceilings", "[cpu][ch07]") {
  // A copy moves 2 bytes per input byte, a reduction 1: its ceiling is the read, the copy stays as
  // the article's yardstick. Both are timed in the same run (ladder_main).
  const std::vector<Ceiling> expected{Ceiling::copy, Ceiling::read};
  CHECK(Reduce::ceilings() == expected);
  const std::string why = Reduce::ceilings_help();
  CHECK(why.find("2 bytes per input byte") != std::string::npos);
  CHECK(why.find("streaming read") != std::string::npos);
  CHECK(std::string(ceiling_name(Ceiling::read)) == "read (stream)");
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
  const StageProgram<Reduce> p3 = ch07::stage_named("reduce_kernel_3");
  CHECK(run(p3, {"--block", "100"}) == kExitUsage);
  CHECK(run(p3, {"--block", "2048"}) == kExitUsage);
  CHECK(run(p3, {"--block", "16"}) == kExitUsage);
  CHECK(run(p3, {"--n", "many"}) == kExitUsage);
  CHECK(run(p3, {"--type", "half"}) == kExitUsage);
  CHECK(run(p3, {"--grid", "10"}) == kExitUsage);  // not offered: stage 3 has no grid-stride loop
  CHECK(run(p3, {"--op", "max"}) == kExitUsage);   // not offered: chapter 7 sums only
  CHECK(run(p3, {"--frobnicate"}) == kExitUsage);
  CHECK(run(p3, {"--help"}) == 0);
  const StageProgram<Reduce> p6 = ch07::reduce_kernel_6_program();
  CHECK(run(p6, {"--block", "32"}) == kExitUsage);
  CHECK(run(p6, {"--last-warp", "lockstep"}) == kExitUsage);
  CHECK(run(p6, {"--finish", "tree"}) == kExitUsage);
  CHECK(run(p6, {"--finish", "partials", "--block", "32"}) == kExitUsage);
  const StageProgram<Reduce> p4 = ch07::reduce_kernel_4_program();
  CHECK(run(p4, {"--finish", "both"}) == kExitUsage);
  CHECK(run(p4, {"--finish", "partials", "--grid", "10"}) == kExitUsage);
  CHECK(run(p4, {"--help"}) == 0);
}

TEST_CASE("stages 1 to 8 run with the partials finish unless --finish atomic", "[cpu][ch07]") {
  // The default is what a reader runs first: the tree's step shows in the time with one partial per
  // block and a second pass; the article's atomic finish is the flag and the contrast.
  CHECK(ch07::finish_flag().names.front() == "partials");
  const std::vector<StageProgram<Reduce>> programs{
      ch07::reduce_kernel_1_program(), ch07::reduce_kernel_2_program(), ch07::reduce_kernel_3_program(),
      ch07::reduce_kernel_4_program(), ch07::reduce_kernel_5_program(), ch07::reduce_kernel_7_program(),
      ch07::reduce_kernel_8_program()};
  for (const StageProgram<Reduce>& p : programs) {
    const std::string name = p.forms.back().stage.name;
    INFO(name);
    REQUIRE(p.forms.size() == 2);
    CHECK(p.forms[0].values == std::vector<std::string>{"partials"});
    CHECK(p.forms[0].stage.name == name + "_partials");
    CHECK(p.forms[0].stage.deterministic);
    CHECK(p.forms[1].values == std::vector<std::string>{"atomic"});
  }
  // Stage 6: the warp tail, then the finish; syncwarp with partials first.
  const StageProgram<Reduce> p6 = ch07::reduce_kernel_6_program();
  REQUIRE(p6.forms.size() == 4);
  CHECK(p6.stage().name == "reduce_kernel_6_partials");
  CHECK(p6.forms[3].values == std::vector<std::string>{"volatile", "atomic"});
  CHECK(p6.forms[3].stage.name == "reduce_kernel_6_volatile");
}

TEST_CASE("a program with a second variant flag picks the combination it names", "[cpu][ch07]") {
  // Four combinations, two flags: a form missing or named twice is a programming error, found
  // before parsing.
  StageProgram<Reduce> p6 = ch07::reduce_kernel_6_program();
  p6.forms.pop_back();
  CHECK_THROWS_AS(run(p6, {"--help"}), std::logic_error);
  p6.forms.push_back(p6.forms.front());
  CHECK_THROWS_AS(run(p6, {"--help"}), std::logic_error);
  CHECK(run(ch07::reduce_kernel_6_program(), {"--last-warp", "volatile", "--finish", "atomic", "--n", "many"}) == kExitUsage);
  const StageProgram<Reduce> p1 = ch07::reduce_kernel_1_program();
  CHECK(run(p1, {"--finish", "partials", "--n", "many"}) == kExitUsage);
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

TEST_CASE("reduce_kernel_12 enqueues no zeroing: its ticket is zeroed once with the workspace", "[cpu][ch07]") {
  const Stage<Reduce> s12 = ch07::stage_named("reduce_kernel_12");
  const Stage<Reduce> s11 = ch07::stage_named("reduce_kernel_11");
  CHECK(s11.workspace_zeroed_bytes == 0);  // stage 11 zeroes its ticket in every launch
  CHECK(s12.deterministic);
  CHECK(s12.grid_stride);
  CHECK(default_block_of(s12) == 256);  // without a GPU; on one, its block_for picks by n
  CHECK(s12.block_for);
  // With a grid the user picks (no occupancy query, so no GPU): the ticket (the bytes kept zero),
  // then one partial per block.
  ReduceArgs a = args(DType::f64, Op::sum, 1024, 3);
  CHECK(s12.workspace_zeroed_bytes == 16);
  CHECK(s12.workspace_bytes(a) == s12.workspace_zeroed_bytes + 3 * sizeof(double));
  CHECK(s12.workspace_bytes(a) == s11.workspace_bytes(a));
  CHECK(s12.depth(a) == Approx(s11.depth(a)));
}
