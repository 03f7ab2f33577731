// GPU tests: every chapter-8 reduction stage against the CPU reference, for sum, max and min over
// float, double and int, on chapter 7's size list (0, 1, 31, 32, 33, 1000, block +-1, 2^20+3, 2^24,
// 2^31+1), every supported block size (32..1024; sizes from 2^24 on at block 256), seeded signed
// data (sum: tolerance n*eps*sum|a|; max/min: exact) and exact data (equality), on poisoned outputs
// and workspaces. Int sums are compared exactly as int64.
//
// The 2^31+1 inputs are tested in one test case ([large]) that loops over the inputs outside and the
// stages inside, so that each 8-17 GB input is generated once for all stages, not once per stage.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "catch.hpp"
#include "ch08_reduce_stages.hpp"
#include "stage_sweep.hpp"

using namespace harness;
using testing_support::Sweep;
using testing_support::sweep_stage;

namespace {

const std::size_t kHuge = (std::size_t{1} << 31) + 1;

// Every operator, chapter 7's sizes without 2^31 + 1 (tested below).
Sweep all_ops() {
  Sweep s;
  s.ops = {Op::sum, Op::max, Op::min};
  s.sizes.erase(std::remove(s.sizes.begin(), s.sizes.end(), kHuge), s.sizes.end());
  return s;
}

}  // namespace

TEST_CASE("reduce_stage_0: one thread does it all", "[gpu][ch08][reduce_stage_0]") {
  CHECK(sweep_stage(ch08::reduce_stage_0_impl(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_1: shared-memory tree", "[gpu][ch08][reduce_stage_1]") {
  CHECK(sweep_stage(ch08::reduce_stage_1_impl(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_2: thread coarsening", "[gpu][ch08][reduce_stage_2]") {
  CHECK(sweep_stage(ch08::reduce_stage_2_impl(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_3: warp shuffles", "[gpu][ch08][reduce_stage_3]") {
  CHECK(sweep_stage(ch08::reduce_stage_3_impl(), all_ops()) > 0);
}

TEST_CASE("reduce_stage_4: complete block reduction", "[gpu][ch08][reduce_stage_4]") {
  CHECK(sweep_stage(ch08::reduce_stage_4_impl(), all_ops()) > 0);
}

TEST_CASE("every stage at n = 2^31 + 1, every operator and type", "[gpu][ch08][large]") {
  // Stages 1-4 at block 256 on every (type, op, dist). Stage 0 -- one thread reading 2^31 elements,
  // over a minute per run on an H200 -- once: a float sum of exact data. Stage 1 also at block 32,
  // where the second pass folds 67 million partials.
  const auto stages = ch08::all_reduce_stages();
  const Sweep sweep = all_ops();
  for (DType type : sweep.types) {
    for (Op op : sweep.ops) {
      for (Dist dist : sweep.dists) {
        ReduceSession& s = testing_support::cached_session(type, op, kHuge, dist, testing_support::run_seed());
        for (const ReduceImpl& st : stages) {
          std::vector<int> blocks{256};
          if (st.name == "reduce_stage_0" && !(type == DType::f32 && dist == Dist::exact && op == Op::sum)) continue;
          if (st.name == "reduce_stage_1" && type == DType::f32 && dist == Dist::exact) blocks.push_back(32);
          for (int block : blocks) {
            INFO(st.name << ": type " << dtype_name(type) << ", op " << op_name(op) << ", dist "
                         << dist_name(dist) << ", n " << kHuge << ", block " << block << ", seed "
                         << testing_support::run_seed());
            const ReduceArgs a = s.args_for(st, block, 0);
            const Verification v = s.run_and_verify(st, a);
            INFO(v.message);
            CHECK(v.ok);
          }
        }
      }
    }
  }
}
