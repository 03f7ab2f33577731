// GPU tests: every chapter-8 reduction stage against the CPU reference, for sum, max and min over
// float, double and int, on chapter 7's size list (0, 1, 31, 32, 33, 1000, block +-1, 2^20+3, 2^24),
// every supported block size (32..1024; sizes from 2^24 on at block 256), seeded signed data (sum:
// the stage's depth bound, or "not checked"; max/min: exact) and exact data (every element
// +1 or -1: equality), on poisoned outputs and workspaces. Int sums are compared exactly as int64.
// Also stage 4's atomic-finish contrast (atomic_vs_deterministic's), which sums only, and stage 7's
// own promises: any grid, a ticket counter it leaves at zero, a workspace nobody zeroed refused.
//
// Past 2^31: the default run takes stages 1-5 at n = 2^31 + 1 on one input (a float sum of exact
// data, block 256; stage 1 also at block 32), made once and shared by the stages. The exhaustive
// form, every (type, operator, data) with stage 0 once, is hidden ([long]: run by
// `test_ch08_reduce_stages.long`, CTest label `long`); it loops over the inputs outside and the
// stages inside, so that each 8-17 GB input is generated once for all stages, not once per stage.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "cuda_check.hpp"
#include "inputs.hpp"
#include "run_stage.hpp"
#include "sweep.hpp"

using namespace harness;
using Sweep = testing_support::Sweep<harness::Reduce>;
using testing_support::cached_session;
using testing_support::run_seed;
using testing_support::sweep;

namespace {

const std::size_t kHuge = testing_support::kPast2e31;

// Every operator, chapter 7's sizes (2^31 + 1 is tested below).
Sweep all_ops() {
  Sweep s;
  s.configs.clear();
  for (Op op : {Op::sum, Op::max, Op::min}) {
    Reduce::Config c;
    c.op = op;
    s.configs.push_back(c);
  }
  return s;
}

Reduce::Config op_config(Op op) {
  Reduce::Config c;
  c.op = op;
  return c;
}

const Stage<Reduce>& stage7() {
  static const Stage<Reduce> s = ch08::reduce_stage_named("reduce_stage_7");
  return s;
}

}  // namespace

TEST_CASE("reduce_stage_0: one thread does it all", "[gpu][ch08][reduce_stage_0]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_0"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_1: shared-memory tree", "[gpu][ch08][reduce_stage_1]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_1"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_2: thread coarsening", "[gpu][ch08][reduce_stage_2]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_2"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_3: warp shuffles", "[gpu][ch08][reduce_stage_3]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_3"), all_ops()) > 0);
}

TEST_CASE("reduce_stage_4: complete block reduction", "[gpu][ch08][reduce_stage_4]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_4"), all_ops()) > 0);
}

// The contrast atomic_vs_deterministic runs against stage 4 (sum only): right on exact data in any
// order of the atomics, within its depth bound on signed floats.
TEST_CASE("reduce_stage_4_atomic: stage 4 with an atomic finish", "[gpu][ch08][reduce_stage_4]") {
  const Stage<Reduce> atomic = ch08::reduce_stage_4_atomic_finish();
  CHECK_FALSE(atomic.deterministic);
  CHECK(sweep(atomic) > 0);
}

TEST_CASE("reduce_stage_5: 16-byte loads, four in flight", "[gpu][ch08][reduce_stage_5]") {
  CHECK(sweep(ch08::reduce_stage_named("reduce_stage_5"), all_ops()) > 0);
}

// Stage 7, one launch at every size (reduce_stage_7_one_launch.cuh): the sweep; grids of one block, a
// few and past a wave; runs back to back on one workspace that leave the ticket counter at zero and
// give one bit pattern; a workspace nobody zeroed, refused by the check; n = 2^31 + 1.
TEST_CASE("reduce_stage_7: one launch at every size", "[gpu][ch08][reduce_stage_7]") {
  CHECK(sweep(stage7(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_7 is right on any grid: one block, a few, past a wave", "[gpu][ch08][reduce_stage_7]") {
  for (DType type : {DType::f32, DType::i32}) {
    for (Op op : {Op::sum, Op::max}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), n, "exact", run_seed());
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
    Session<Reduce>& s = cached_session<Reduce>(DType::f32, op_config(Op::sum), n, "signed", run_seed());
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
  Session<Reduce>& s = cached_session<Reduce>(DType::i32, op_config(Op::max), std::size_t{1} << 20, "exact", run_seed());
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
    Session<Reduce>& s = cached_session<Reduce>(type, op_config(op), testing_support::kPast2e31, "exact", run_seed());
    INFO(dtype_name(type) << " " << op_name(op) << " n " << testing_support::kPast2e31);
    const Verification v = s.run_and_check(stage7(), s.args_for(stage7(), 256, 0));
    INFO(v.message);
    CHECK(v.ok);
  }
}

TEST_CASE("stages 1-5 at n = 2^31 + 1 (float sum, exact data)", "[gpu][ch08][large]") {
  // Stage 0 -- one thread reading 2^31 elements, a run of minutes -- is left to [long]; its
  // indices are size_t like every stage's, and the sweep above runs it up to 2^24.
  Reduce::Config sum;
  Session<Reduce>& s = testing_support::cached_session<Reduce>(DType::f32, sum, kHuge, Reduce::exact_dist(),
                                                               testing_support::run_seed());
  for (const Stage<Reduce>& st : ch08::all_reduce_stages()) {
    if (st.name == "reduce_stage_0") continue;
    std::vector<int> blocks{256};
    if (st.name == "reduce_stage_1") blocks.push_back(32);  // the second pass folds 67 million partials
    for (int block : blocks) {
      INFO(st.name << ": float sum, exact data, n " << kHuge << ", block " << block << ", seed "
                   << testing_support::run_seed());
      const Verification v = s.run_and_check(st, s.args_for(st, block, 0));
      INFO(v.message);
      CHECK(v.ok);
    }
  }
}

TEST_CASE("every stage at n = 2^31 + 1, every operator and type", "[.][long][gpu][ch08][large]") {
  // Stages 1-5 at block 256 on every (type, op, dist). Stage 0 -- one thread reading 2^31 elements,
  // a run of minutes -- once: a float sum of exact data. Stage 1 also at block 32,
  // where the second pass folds 67 million partials.
  const auto stages = ch08::all_reduce_stages();
  const Sweep sw = all_ops();
  for (DType type : sw.types) {
    for (const Reduce::Config& config : sw.configs) {
      const Op op = config.op;
      for (const std::string& dist : sw.dists) {
        Session<Reduce>& s = testing_support::cached_session<Reduce>(type, config, kHuge, dist, testing_support::run_seed());
        for (const Stage<Reduce>& st : stages) {
          std::vector<int> blocks{256};
          if (st.name == "reduce_stage_0" && !(type == DType::f32 && dist == "exact" && op == Op::sum)) continue;
          if (st.name == "reduce_stage_1" && type == DType::f32 && dist == "exact") blocks.push_back(32);
          for (int block : blocks) {
            INFO(st.name << ": type " << dtype_name(type) << ", op " << op_name(op) << ", dist "
                         << dist << ", n " << kHuge << ", block " << block << ", seed "
                         << testing_support::run_seed());
            const ReduceArgs a = s.args_for(st, block, 0);
            const Verification v = s.run_and_check(st, a);
            INFO(v.message);
            CHECK(v.ok);
          }
        }
      }
    }
  }
}
