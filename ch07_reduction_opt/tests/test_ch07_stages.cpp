// GPU tests: every chapter-7 stage (stages 1 to 8 with both finishes) against the CPU reference over
// the awkward sizes (0, 1, 31, 32, 33, 1000, block +-1, 2^20+3, 2^24), every supported block size,
// float / double / int, on seeded signed data (the depth bound, or "not checked") and exact data
// (every element +-1: equality), on poisoned outputs (stage 12's ticket zeroed once, then kept zero by its runs); then every stage at n = 2^31 + 1 on one float
// input of exact data (made once, shared by the stages). Hidden, run by `test_ch07_stages.long`
// (CTest label `long`): every stage at 2^31 + 1 on every type and both kinds of data (six inputs of
// 8-17 GB).
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "ch07_stages.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "full_tile_checks.hpp"
#include "run_stage.hpp"
#include "inputs.hpp"
#include "sweep.hpp"

using harness::Reduce;
using harness::Session;
using harness::Stage;
using testing_support::cached_session;
using testing_support::run_seed;
using testing_support::runs_here;
using testing_support::sweep;

namespace {

Stage<Reduce> stage(const char* name) { return ch07::stage_named(name); }

}  // namespace

TEST_CASE("reduce_kernel_0: atomicAdd per element", "[gpu][ch07][reduce_kernel_0]") {
  CHECK(sweep(stage("reduce_kernel_0")) > 0);
}
TEST_CASE("reduce_kernel_1: modulo tree", "[gpu][ch07][reduce_kernel_1]") {
  CHECK(sweep(stage("reduce_kernel_1")) > 0);
}
TEST_CASE("reduce_kernel_2: register accumulator", "[gpu][ch07][reduce_kernel_2]") {
  CHECK(sweep(stage("reduce_kernel_2")) > 0);
}
TEST_CASE("reduce_kernel_3: strided index", "[gpu][ch07][reduce_kernel_3]") {
  CHECK(sweep(stage("reduce_kernel_3")) > 0);
}
TEST_CASE("reduce_kernel_4: sequential addressing", "[gpu][ch07][reduce_kernel_4]") {
  CHECK(sweep(stage("reduce_kernel_4")) > 0);
}
TEST_CASE("reduce_kernel_5: unrolled", "[gpu][ch07][reduce_kernel_5]") {
  CHECK(sweep(stage("reduce_kernel_5")) > 0);
}
TEST_CASE("reduce_kernel_6: last warp, __syncwarp", "[gpu][ch07][reduce_kernel_6]") {
  CHECK(sweep(stage("reduce_kernel_6")) > 0);
}
TEST_CASE("reduce_kernel_6: last warp, legacy volatile", "[gpu][ch07][reduce_kernel_6]") {
  // Racy by the CUDA memory model (see the header); it still computes the right sum on current GPUs.
  CHECK(sweep(stage("reduce_kernel_6_volatile")) > 0);
}
TEST_CASE("reduce_kernel_7: warp shuffle", "[gpu][ch07][reduce_kernel_7]") {
  CHECK(sweep(stage("reduce_kernel_7")) > 0);
}
TEST_CASE("reduce_kernel_8: thread coarsening", "[gpu][ch07][reduce_kernel_8]") {
  CHECK(sweep(stage("reduce_kernel_8")) > 0);
}
// Stages 1 to 8 with the partials finish: the same trees, each block's sum to the workspace, then
// the one-block second pass (reduce_partials), which folds up to 2^26 partials (n = 2^31 + 1 at
// block 32 is not swept: large sizes run at block 256, 2^23 partials).
TEST_CASE("reduce_kernel_1..8 with the partials finish", "[gpu][ch07][partials]") {
  for (const Stage<Reduce>& st : ch07::partials_stages()) {
    if (st.name == "reduce_kernel_11") continue;  // swept above
    INFO(st.name);
    CHECK(st.deterministic);
    CHECK(sweep(st) > 0);
  }
}
TEST_CASE("reduce_kernel_9a: 16-byte loads, one per loop trip", "[gpu][ch07][reduce_kernel_9a]") {
  CHECK(sweep(stage("reduce_kernel_9a")) > 0);
}
TEST_CASE("reduce_kernel_9b: four 16-byte loads in flight", "[gpu][ch07][reduce_kernel_9b]") {
  CHECK(sweep(stage("reduce_kernel_9b")) > 0);
}
TEST_CASE("reduce_kernel_9: vectorised loads, one-barrier block sum", "[gpu][ch07][reduce_kernel_9]") {
  CHECK(sweep(stage("reduce_kernel_9")) > 0);
}
TEST_CASE("reduce_kernel_10: occupancy-sized grid", "[gpu][ch07][reduce_kernel_10]") {
  CHECK(sweep(stage("reduce_kernel_10")) > 0);
}
TEST_CASE("reduce_kernel_11: single pass", "[gpu][ch07][reduce_kernel_11]") {
  CHECK(sweep(stage("reduce_kernel_11")) > 0);
}
TEST_CASE("reduce_kernel_12: one launch for small inputs", "[gpu][ch07][reduce_kernel_12]") {
  CHECK(sweep(stage("reduce_kernel_12")) > 0);
}
TEST_CASE("reduce_kernel_13: one cluster, finish in distributed shared memory (sm_90+)", "[gpu][ch07][reduce_kernel_13]") {
  CHECK(sweep(stage("reduce_kernel_13")) > 0);
}

// --- Past 2^31 elements -----------------------------------------------------------------------

TEST_CASE("every stage at n = 2^31 + 1 (float, exact data, block 256)", "[gpu][ch07][large]") {
  for (const Stage<Reduce>& st : ch07::all_stages()) CHECK(sweep(st, testing_support::past_2e31<Reduce>()) > 0);
  for (const Stage<Reduce>& st : ch07::partials_stages()) CHECK(sweep(st, testing_support::past_2e31<Reduce>()) > 0);
}

TEST_CASE("every stage at n = 2^31 + 1, every type, signed and exact data", "[.][long][gpu][ch07][large]") {
  // Input outside, stages inside: each of the six inputs is made once for all the stages.
  // sweep_each_input CHECKs every run and that every stage ran at least once.
  std::vector<Stage<Reduce>> stages = ch07::all_stages();
  for (const Stage<Reduce>& st : ch07::partials_stages()) stages.push_back(st);
  testing_support::sweep_each_input(stages, testing_support::past_2e31_every_type<Reduce>());
}

// --- Properties the grid-stride stages promise beyond the sweep ---------------------------------

TEST_CASE("grid-stride stages are right for any grid the user picks", "[gpu][ch07][grid]") {
  using namespace harness;
  for (const char* name : {"reduce_kernel_8", "reduce_kernel_8_partials", "reduce_kernel_9a", "reduce_kernel_9b",
                           "reduce_kernel_9", "reduce_kernel_10", "reduce_kernel_11", "reduce_kernel_12"}) {
    const Stage<Reduce> st = stage(name);
    for (DType type : {DType::f32, DType::i32}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
        Session<Reduce>& s = cached_session<Reduce>(type, {}, n, "exact", run_seed());
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
          INFO(name << " " << dtype_name(type) << " n " << n << " grid " << grid);
          const Verification v = s.run_and_check(st, s.args_for(st, 128, grid));
          INFO(v.message);
          CHECK(v.ok);
          CHECK(v.kind == CheckKind::exact);
        }
      }
    }
  }
}

TEST_CASE("vectorised stages handle inputs that do not start on a 16-byte boundary",
          "[gpu][ch07][alignment]") {
  using namespace harness;
  for (const char* name : {"reduce_kernel_9a", "reduce_kernel_9b", "reduce_kernel_9", "reduce_kernel_10",
                           "reduce_kernel_11", "reduce_kernel_12", "reduce_kernel_13"}) {
    const Stage<Reduce> st = stage(name);
    if (!runs_here(st)) continue;
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000},
                          (std::size_t{1} << 20) + 3}) {
      const std::size_t padded = n + 3;
      const std::vector<unsigned char> host = Reduce::generate(DType::f32, {}, padded, "exact", run_seed());
      DeviceBuffer dev(host.size());
      CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
      for (std::size_t offset = 0; offset < 4; ++offset) {
        INFO(name << " n " << n << " offset " << offset << " elements");
        std::vector<unsigned char> part(host.begin() + offset * 4, host.begin() + (offset + n) * 4);
        Session<Reduce> s(DType::f32, {}, part, n, /*exact_data=*/true, nullptr);
        ReduceArgs a = s.args_for(st, 256, 0);
        a.in = dev.as<float>() + offset;  // the same values, misaligned by `offset` floats
        const Verification v = s.run_and_check(st, a);
        INFO(v.message);
        CHECK(v.ok);
      }
    }
  }
}

TEST_CASE("stage 12's one-block kernel: a full tile and one element either side, aligned and not",
          "[gpu][ch07][reduce_kernel_12][full_tile]") {
  using namespace harness;
  testing_support::check_full_tile_and_neighbours(stage("reduce_kernel_12"), {DType::f32, DType::f64, DType::i32},
                                                  {Op::sum});
}

TEST_CASE("reduce_kernel_11 (2^26 floats), 12 (2^20) and 13 (2^18) give one bit pattern over 20 runs",
          "[gpu][ch07][reduce_kernel_11][reduce_kernel_12][reduce_kernel_13][determinism]") {
  using namespace harness;
  for (const auto& [name, n, block] : {std::tuple<const char*, std::size_t, int>{"reduce_kernel_11", std::size_t{1} << 26, 256},
                                       std::tuple<const char*, std::size_t, int>{"reduce_kernel_12", std::size_t{1} << 20, 1024},
                                       std::tuple<const char*, std::size_t, int>{"reduce_kernel_13", std::size_t{1} << 18, 1024}}) {
    const Stage<Reduce> st = stage(name);
    if (!runs_here(st)) continue;
    Session<Reduce>& s = cached_session<Reduce>(DType::f32, {}, n, "signed", run_seed());
    std::set<std::vector<unsigned char>> patterns;
    for (int run = 0; run < 20; ++run) {
      const Verification v = s.run_and_check(st, s.args_for(st, block, 0));
      INFO(name << " run " << run << ": " << v.message);
      REQUIRE(v.ok);
      patterns.insert(s.last_output());
    }
    INFO(name);
    CHECK(patterns.size() == 1);
  }
}

TEST_CASE("the partials finish gives one bit pattern over 20 runs on 2^26 floats",
          "[gpu][ch07][partials][determinism]") {
  // Stage 3 (the strided tree, one partial per block: 2^18 partials at block 256) and stage 8 (the
  // coarsened grid): the second pass folds the partials in a fixed order, so no bit moves.
  using namespace harness;
  Session<Reduce>& s = cached_session<Reduce>(DType::f32, {}, std::size_t{1} << 26, "signed", run_seed());
  for (const char* name : {"reduce_kernel_3_partials", "reduce_kernel_8_partials"}) {
    const Stage<Reduce> st = stage(name);
    std::set<std::vector<unsigned char>> patterns;
    for (int run = 0; run < 20; ++run) {
      const Verification v = s.run_and_check(st, s.args_for(st, 256, 0));
      INFO(name << " run " << run << ": " << v.message);
      REQUIRE(v.ok);
      patterns.insert(s.last_output());
    }
    INFO(name);
    CHECK(patterns.size() == 1);
  }
}

TEST_CASE("reduce_kernel_11 keeps its ticket counter in the workspace", "[gpu][ch07][reduce_kernel_11]") {
  // Two launches on two workspaces, back to back on two streams, must both be right: the counter is
  // per workspace and zeroed by each launch (a __device__ global would be shared between them).
  using namespace harness;
  const Stage<Reduce> st = stage("reduce_kernel_11");
  Session<Reduce>& s1 = cached_session<Reduce>(DType::i32, {}, (std::size_t{1} << 22) + 7, "exact", run_seed());
  Session<Reduce>& s2 = cached_session<Reduce>(DType::i32, {}, (std::size_t{1} << 22) + 7, "signed", run_seed());
  for (int round = 0; round < 5; ++round) {
    const ReduceArgs a1 = s1.args_for(st, 256, 0);
    const ReduceArgs a2 = s2.args_for(st, 256, 0);
    s1.poison();
    s2.poison();
    run_stage(st, a1);
    run_stage(st, a2);
    const Verification v1 = s1.check_output(st, a1);
    const Verification v2 = s2.check_output(st, a2);
    INFO(v1.message << " / " << v2.message);
    CHECK(v1.ok);
    CHECK(v2.ok);
  }
}

TEST_CASE("reduce_kernel_12 leaves its ticket counter zero: runs back to back need no zeroing",
          "[gpu][ch07][reduce_kernel_12]") {
  // The workspace is prepared once (poison_for zeroes the ticket); then many runs with no zeroing
  // between them, on grids of one block, a few and a full wave, and one with a grid the user picks,
  // must all be right, and their results the same bits.
  using namespace harness;
  const Stage<Reduce> st = stage("reduce_kernel_12");
  for (std::size_t n : {std::size_t{1000}, std::size_t{1} << 16, (std::size_t{1} << 22) + 7}) {
    Session<Reduce>& s = cached_session<Reduce>(DType::i32, {}, n, "exact", run_seed());
    for (std::size_t grid : {std::size_t{0}, std::size_t{7}}) {
      const ReduceArgs a = s.args_for(st, 1024, grid);
      s.poison_for(st);
      for (int run = 0; run < 10; ++run) run_stage(st, a);
      const Verification v = s.check_output(st, a);
      INFO("n " << n << " grid " << grid << " (" << grid_of(st, a) << " blocks): " << v.message);
      CHECK(v.ok);
      unsigned ticket = 1;
      CUDA_CHECK(cudaMemcpy(&ticket, a.workspace, sizeof ticket, cudaMemcpyDeviceToHost));
      CHECK(ticket == 0u);
    }
  }
}

TEST_CASE("reduce_kernel_12 on a workspace nobody zeroed: nothing out of bounds, and no result taken from it",
          "[gpu][ch07][reduce_kernel_12][workspace]") {
  // The workspace of random bytes a fresh cudaMalloc or another stage may leave: the ticket counter
  // is then almost surely past the grid, no block is the last, and the result stays unwritten; and
  // a counter below the grid (one stage 11 left) makes a block finish early. Either way the count a
  // complete launch leaves is not 0, and check_output fails the run, saying why. Run under
  // compute-sanitizer (memcheck) on the GPU machine: no access out of bounds.
  using namespace harness;
  const Stage<Reduce> st = stage("reduce_kernel_12");
  Session<Reduce>& s = cached_session<Reduce>(DType::i32, {}, std::size_t{1} << 20, "exact", run_seed());
  const ReduceArgs a = s.args_for(st, 256, 0);
  REQUIRE(grid_of(st, a) > 1);
  std::vector<std::uint32_t> junk(a.workspace_size / sizeof(std::uint32_t));
  std::uint64_t x = run_seed();
  for (std::uint32_t& w : junk) w = static_cast<std::uint32_t>((x = splitmix64(x)) >> 32);
  for (std::uint32_t start : {junk[0] | 0x80000000u, 3u}) {  // past the grid, and below it
    junk[0] = start;
    s.poison();
    CUDA_CHECK(cudaMemcpy(a.workspace, junk.data(), junk.size() * sizeof junk[0], cudaMemcpyHostToDevice));
    run_stage(st, a);
    const Verification v = s.check_output(st, a);
    INFO("ticket counter " << start << " before the run: " << v.message);
    CHECK_FALSE(v.ok);
    CHECK(v.message.find("workspace state") != std::string::npos);
  }
}

TEST_CASE("reduce_kernel_13 is right on every grid one cluster holds, and refuses a larger one", "[gpu][ch07][reduce_kernel_13]") {
  // The grid is one cluster: 1, 3 and the cluster's capacity on this GPU (16 on an H100) must all be
  // right at block 128 and 1024, on sizes where each thread makes one trip, several, or none; a grid
  // one block past the capacity is a usage error (exit 2 from the program), never a wrong answer.
  using namespace harness;
  const Stage<Reduce> st = stage("reduce_kernel_13");
  if (!runs_here(st)) return;
  for (DType type : {DType::f32, DType::i32}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
      Session<Reduce>& s = cached_session<Reduce>(type, {}, n, "exact", run_seed());
      for (int block : {128, 1024}) {
        ReduceArgs big = s.args_for(st, block, 0);
        big.n = std::size_t{1} << 30;  // far more than one cluster takes in one trip: the grid is the capacity
        const std::size_t capacity = grid_of(st, big);
        REQUIRE(capacity >= 1);
        for (std::size_t grid : {std::size_t{1}, std::size_t{3}, capacity}) {
          if (grid > capacity) continue;
          INFO(dtype_name(type) << " n " << n << " block " << block << " grid " << grid << " of " << capacity);
          const Verification v = s.run_and_check(st, s.args_for(st, block, grid));
          INFO(v.message);
          CHECK(v.ok);
          CHECK(v.kind == CheckKind::exact);
        }
        CHECK_THROWS_AS(grid_of(st, s.args_for(st, block, capacity + 1)), UsageError);
      }
    }
  }
}
