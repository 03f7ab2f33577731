// GPU tests of chapter 8's reduce_stage_7 (reduce_stage_7_one_launch.cuh), one launch at every size:
// the sweep of every stage (sum, max, min over float, double and int, chapter 7's sizes, every block
// size, exact and signed data, poisoned outputs); grids of one block, a few and more than a wave;
// runs back to back on one workspace that leave the ticket counter at zero and give one bit
// pattern; a workspace nobody zeroed, refused by the check; and n = 2^31 + 1.
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "cuda_check.hpp"
#include "inputs.hpp"
#include "run_stage.hpp"
#include "sweep.hpp"

using namespace harness;
using testing_support::cached_session;
using testing_support::run_seed;

namespace {

const Stage<Reduce>& stage7() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_7");
  return s;
}

testing_support::Sweep<Reduce> every_op() {
  testing_support::Sweep<Reduce> s;
  s.configs.clear();
  for (Op op : {Op::sum, Op::max, Op::min}) {
    Reduce::Config c;
    c.op = op;
    s.configs.push_back(c);
  }
  return s;
}

Reduce::Config with_op(Op op) {
  Reduce::Config c;
  c.op = op;
  return c;
}

}  // namespace

TEST_CASE("reduce_stage_7: one launch at every size", "[gpu][ch08][reduce_stage_7]") {
  CHECK(testing_support::sweep(stage7(), every_op()) > 0);
}

TEST_CASE("reduce_stage_7 is right on any grid: one block, a few, past a wave", "[gpu][ch08][reduce_stage_7]") {
  for (DType type : {DType::f32, DType::i32}) {
    for (Op op : {Op::sum, Op::max}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        Session<Reduce>& s = cached_session<Reduce>(type, with_op(op), n, "exact", run_seed());
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{5000}}) {
          INFO(dtype_name(type) << " " << op_name(op) << " n " << n << " grid " << grid);
          const Verification v = s.run_and_check(stage7(), s.args_for(stage7(), 128, grid));
          INFO(v.message);
          CHECK(v.ok);
          CHECK(v.kind == CheckKind::exact);
        }
      }
    }
  }
}

TEST_CASE("reduce_stage_7 leaves its ticket counter zero: runs back to back, one bit pattern",
          "[gpu][ch08][reduce_stage_7][determinism]") {
  // The workspace is prepared once (poison_for zeroes the ticket); then 20 runs with no zeroing
  // between them, on the default grid (one block at n = 1000) and on 7 blocks: each must be right,
  // all of one bit pattern, and the counter zero at the end.
  for (std::size_t n : {std::size_t{1000}, std::size_t{1} << 16, (std::size_t{1} << 22) + 7}) {
    Session<Reduce>& s = cached_session<Reduce>(DType::f32, with_op(Op::sum), n, "signed", run_seed());
    for (std::size_t grid : {std::size_t{0}, std::size_t{7}}) {
      const ReduceArgs a = s.args_for(stage7(), 256, grid);
      s.poison_for(stage7());
      std::set<std::vector<unsigned char>> patterns;
      for (int run = 0; run < 20; ++run) {
        run_stage(stage7(), a);
        const Verification v = s.check_output(stage7(), a);
        INFO("n " << n << " grid " << grid << " (" << grid_of(stage7(), a) << " blocks) run " << run << ": " << v.message);
        REQUIRE(v.ok);
        patterns.insert(s.last_output());
      }
      CHECK(patterns.size() == 1);
      unsigned ticket = 1;
      CUDA_CHECK(cudaMemcpy(&ticket, a.workspace, sizeof ticket, cudaMemcpyDeviceToHost));
      CHECK(ticket == 0u);
    }
  }
}

TEST_CASE("reduce_stage_7 on a workspace nobody zeroed: no result taken from it",
          "[gpu][ch08][reduce_stage_7][workspace]") {
  // A ticket counter past the grid (random bytes) leaves no block the last: the result stays
  // poisoned; one below the grid makes a block finish early. Either way check_output fails the run.
  Session<Reduce>& s = cached_session<Reduce>(DType::i32, with_op(Op::max), std::size_t{1} << 20, "exact", run_seed());
  const ReduceArgs a = s.args_for(stage7(), 256, 0);
  REQUIRE(grid_of(stage7(), a) > 1);
  std::vector<std::uint32_t> junk(a.workspace_size / sizeof(std::uint32_t));
  std::uint64_t x = run_seed();
  for (std::uint32_t& w : junk) w = static_cast<std::uint32_t>((x = splitmix64(x)) >> 32);
  for (std::uint32_t start : {junk[0] | 0x80000000u, 3u}) {
    junk[0] = start;
    s.poison();
    CUDA_CHECK(cudaMemcpy(a.workspace, junk.data(), junk.size() * sizeof junk[0], cudaMemcpyHostToDevice));
    run_stage(stage7(), a);
    const Verification v = s.check_output(stage7(), a);
    INFO("ticket counter " << start << " before the run: " << v.message);
    CHECK_FALSE(v.ok);
  }
}

TEST_CASE("reduce_stage_7 at n = 2^31 + 1 (float sum and int max, exact data)", "[gpu][ch08][reduce_stage_7][large]") {
  for (auto [type, op] : {std::pair{DType::f32, Op::sum}, std::pair{DType::i32, Op::max}}) {
    Session<Reduce>& s = cached_session<Reduce>(type, with_op(op), testing_support::kPast2e31, "exact", run_seed());
    INFO(dtype_name(type) << " " << op_name(op) << " n " << testing_support::kPast2e31);
    const Verification v = s.run_and_check(stage7(), s.args_for(stage7(), 256, 0));
    INFO(v.message);
    CHECK(v.ok);
  }
}
