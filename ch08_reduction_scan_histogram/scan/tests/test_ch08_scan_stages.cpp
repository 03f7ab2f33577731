// GPU tests: every chapter-8 scan stage through the harness's sweep: float, double and int,
// exclusive and inclusive, sizes 0, 1, 7, 31, 32, 33, 1000, block +-1, one below / at / one past a
// tile and a tile of tiles, 2^20+3, 2^24, every supported block size, on exact data (every element
// +1 or -1: every output equal) and seeded signed data (each prefix against the stage's depth bound, or
// "not checked"), on poisoned outputs and workspaces; and 2^31 + 1 ints at block 256 for one stage
// of each family. Stage 9 (one launch, nothing zeroed between runs): the sweep (its run word zeroed
// once per checked run by Session::poison_for), 10 runs back to back on one workspace at one tile,
// a few tiles and many, a CUDA graph of 10 runs replayed, and runs across the epoch's wrap-around.
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "ch08_scan_stages.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "scan_support.cuh"
#include "inputs.hpp"
#include "sweep.hpp"
#include "tile_flags.cuh"

using namespace harness;
using testing_support::sweep;

namespace {

testing_support::Sweep<Scan> scan_sweep() {
  testing_support::Sweep<Scan> s;
  Scan::Config exclusive, inclusive;
  inclusive.inclusive = true;
  s.configs = {exclusive, inclusive};
  s.sizes = {0, 1, 7, 31, 32, 33, 1000, 2047, 2048, 2049, 8191, 8192, 8193,
             (std::size_t{1} << 22) + 1, (std::size_t{1} << 20) + 3, std::size_t{1} << 24};
  return s;
}

}  // namespace

TEST_CASE("scan_block_blelloch: one block, every size it accepts", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {0, 1, 7, 31, 32, 33, 100, 255, 256, 1000, 1024};
  CHECK(sweep(ch08::scan_stage_named("scan_block_blelloch"), s) > 0);
}
TEST_CASE("scan_stage_1: three passes", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_1"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_2: padded", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_2"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_3: warp shuffles", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_3"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_4: decoupled look-back", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_4"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_5: vectorised", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_5"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_6: more items per thread", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_6"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_7: streaming", "[gpu][ch08][scan]") { CHECK(sweep(ch08::scan_stage_named("scan_stage_7"), scan_sweep()) > 0); }
TEST_CASE("scan_stage_7: every tuning knob", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {1, 7, 1000, 8191, 8192, 8193, (std::size_t{1} << 20) + 3};
  for (const Stage<Scan>& st : ch08::scan_stage_7_knob_stages()) {
    INFO(st.label);
    CHECK(sweep(st, s) > 0);
  }
}
// Below sm_90, or in a build without its kernel, the sweep skips stage 8 with one WARN (its
// check_device_fit refusal) and counts the skips, so these pass as skipped there.
TEST_CASE("scan_stage_8: bulk-copy pipeline (sm_90+)", "[gpu][ch08][scan]") {
  CHECK(sweep(ch08::scan_stage_named("scan_stage_8"), scan_sweep()) > 0);
}
TEST_CASE("scan_stage_8: every ring shape (sm_90+)", "[gpu][ch08][scan]") {
  auto s = scan_sweep();
  s.sizes = {1, 7, 1000, 4095, 4096, 4097, 8193, (std::size_t{1} << 20) + 3};
  for (const Stage<Scan>& st : ch08::scan_stage_8_shape_stages()) {
    INFO(st.label);
    CHECK(sweep(st, s) > 0);
  }
}
TEST_CASE("scan_stage_9: one launch for small inputs", "[gpu][ch08][scan][scan_stage_9]") {
  auto s = scan_sweep();
  s.sizes.insert(s.sizes.end(), {4095, 4096, 4097, 16383, 16384, 16385, (std::size_t{1} << 16) + 1});
  CHECK(sweep(ch08::scan_stage_named("scan_stage_9"), s) > 0);
}

namespace {

// Stage 9's run word: the last run's epoch (high 16 bits) and two counts of the tiles taken (tile_status.cuh).
std::uint64_t run_word(const ScanArgs& a) {
  std::uint64_t w = 0;
  CUDA_CHECK(cudaMemcpy(&w, a.workspace, sizeof w, cudaMemcpyDeviceToHost));
  return w;
}

// Poisons the output alone (Session::poison would poison the workspace too): NaN bytes for floats,
// 0x80 bytes for ints, as Session::poison.
void poison_output(Session<Scan>& s, const ScanArgs& a) {
  const bool floating = a.type != DType::i32;
  CUDA_CHECK(cudaMemsetAsync(a.out, floating ? 0xFF : 0x80, a.n * dtype_size(a.type), s.stream()));
}

}  // namespace

TEST_CASE("scan_stage_9 on a workspace it did not leave: nothing out of bounds, no hang, no result taken from it",
          "[gpu][ch08][scan][scan_stage_9][workspace]") {
  // A run word no launch left has two counts that differ (tile_status.cuh): every block then takes
  // no tile and writes nothing, the counts it leaves are not 0, and check_output fails the run,
  // saying why. Two such words: random bytes, and a tile counter of 1 that another stage left (a
  // count below the grid, with the rest zero: a single count would hand out tiles 1 and up, and the
  // block of tile 1 would wait for tile 0 for ever). At n = 513 ints and block 32 (many small
  // tiles) and at 2^20 + 3 floats. Run under compute-sanitizer (memcheck) on the GPU machine: no
  // access out of bounds.
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  for (const auto& [type, n, block] : {std::tuple{DType::i32, std::size_t{513}, 32},
                                       std::tuple{DType::f32, (std::size_t{1} << 20) + 3, 512}}) {
    for (const bool random_bytes : {true, false}) {
      Session<Scan>& s = testing_support::cached_session<Scan>(type, {}, n, "exact", testing_support::run_seed());
      const ScanArgs a = s.args_for(st, block, 0);
      REQUIRE(grid_of(st, a) > 1);
      std::vector<std::uint64_t> junk(a.workspace_size / sizeof(std::uint64_t), 0);
      std::uint64_t x = testing_support::run_seed();
      if (random_bytes) {
        for (std::uint64_t& w : junk) w = x = harness::splitmix64(x);
        // The two counts differ (random bytes agree with a chance of one in 2^24).
        if (((junk[0] >> 24) & ch08::kRunCountMask) == (junk[0] & ch08::kRunCountMask)) junk[0] ^= 1ull << 24;
      } else {
        junk[0] = 1;
      }
      s.poison();
      CUDA_CHECK(cudaDeviceSynchronize());  // the poison ran on the session stream: done before the junk lands
      harness::copy_to_device(a.workspace, junk.data(), junk.size() * sizeof junk[0]);
      run_stage(st, a);
      const Verification v = s.check_output(st, a);
      INFO(dtype_name(type) << " n " << n << " block " << block << (random_bytes ? " random bytes" : " a count of 1")
                            << ": " << v.message);
      CHECK_FALSE(v.ok);
      CHECK(v.message.find("workspace state") != std::string::npos);
    }
  }
}

TEST_CASE("scan_stage_9: 10 runs back to back on one workspace, nothing zeroed between them",
          "[gpu][ch08][scan][scan_stage_9]") {
  // The workspace is prepared once (poison_for: 0xFF everywhere, the run word zero); then every run
  // is checked, with the output poisoned before it and the workspace left as the last run left it.
  // Runs alternate blocks 128 and 512 on one workspace, so a run of fewer tiles follows one of more
  // and the other way round (the words a larger run left must not count). One tile (n 1000), a few
  // and many (2^22 + 7: 2049 and 513 float tiles); every type, exclusive and inclusive. After each
  // run the run word holds the run's epoch and a count of 0 (one tile: untouched).
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  for (DType type : {DType::i32, DType::f32, DType::f64}) {
    for (bool inclusive : {false, true}) {
      Scan::Config config;
      config.inclusive = inclusive;
      for (std::size_t n : {std::size_t{1000}, std::size_t{40000}, (std::size_t{1} << 22) + 7}) {
        Session<Scan>& s = testing_support::cached_session<Scan>(type, config, n, "exact", testing_support::run_seed());
        const ScanArgs a128 = s.args_for(st, 128, 0);  // the larger workspace first: both share it
        const ScanArgs a512 = s.args_for(st, 512, 0);
        REQUIRE(a128.workspace == a512.workspace);
        s.poison_for(st);
        std::uint64_t epoch = 0;
        for (int run = 1; run <= 10; ++run) {
          const ScanArgs& a = run % 2 ? a128 : a512;
          const std::size_t tiles = grid_of(st, a);
          poison_output(s, a);
          run_stage(st, a);
          const Verification v = s.check_output(st, a);
          if (tiles > 1) ++epoch;
          INFO(dtype_name(type) << (inclusive ? " inclusive" : " exclusive") << " n " << n << " block " << a.block
                                << " (" << tiles << " tiles) run " << run << ": " << v.message);
          CHECK(v.ok);
          CHECK(run_word(a) == ch08::run_word_after(static_cast<unsigned>(epoch)));
        }
      }
    }
  }
}

TEST_CASE("scan_stage_9: a CUDA graph of 10 runs, replayed twice, advances its own epoch",
          "[gpu][ch08][scan][scan_stage_9][graph]") {
  // A host argument would be frozen into the graph; the epoch lives in the workspace instead.
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  for (DType type : {DType::i32, DType::f64}) {
    Session<Scan>& s = testing_support::cached_session<Scan>(type, {}, (std::size_t{1} << 20) + 3, "exact",
                                                            testing_support::run_seed());
    const ScanArgs a = s.args_for(st, 512, 0);
    s.poison_for(st);
    const harness::Graph graph([&](cudaStream_t) { run_stage(st, a); }, 10, s.stream());
    for (std::uint64_t replay = 1; replay <= 2; ++replay) {
      poison_output(s, a);
      graph.launch(s.stream());
      const Verification v = s.check_output(st, a);
      INFO(dtype_name(type) << " replay " << replay << ": " << v.message);
      CHECK(v.ok);
      CHECK(run_word(a) == ch08::run_word_after(static_cast<unsigned>(10 * replay)));
    }
  }
}

TEST_CASE("scan_stage_9: across the epoch's wrap-around, the run of epoch 1 clears the words past its tiles",
          "[gpu][ch08][scan][scan_stage_9]") {
  // The run word is set two runs before the wrap: a run of 2049 tiles (epoch kEpochMax - 1), one of
  // 2049 (kEpochMax), one of 513 (epoch 1: writes tiles 0..512 with epoch 1, clears the rest of the
  // workspace's words), then more. Every run is checked; after the run of epoch 1 the status words
  // (int: one 64-bit word a tile, the tag in the high half) are epoch 1's up to 513 and 0 above.
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  Session<Scan>& s = testing_support::cached_session<Scan>(DType::i32, {}, (std::size_t{1} << 22) + 7, "exact",
                                                          testing_support::run_seed());
  const ScanArgs big = s.args_for(st, 128, 0), small = s.args_for(st, 512, 0);
  const std::size_t small_tiles = grid_of(st, small);
  REQUIRE(small_tiles == 513);
  s.poison_for(st);
  const std::uint64_t start = ch08::run_word_after(ch08::kEpochMax - 2);
  CUDA_CHECK(cudaDeviceSynchronize());  // the session stream (poison_for, the last run) is done first
  harness::copy_to_device(big.workspace, &start, sizeof start);
  const std::vector<unsigned> epochs{ch08::kEpochMax - 1, ch08::kEpochMax, 1, 2, 3};
  for (std::size_t run = 0; run < epochs.size(); ++run) {
    const ScanArgs& a = run == 2 ? small : big;
    poison_output(s, a);
    run_stage(st, a);
    const Verification v = s.check_output(st, a);
    INFO("run " << run << " (epoch " << epochs[run] << "): " << v.message);
    CHECK(v.ok);
    CHECK(run_word(a) == ch08::run_word_after(epochs[run]));
    if (run != 2) continue;
    const std::size_t words = (a.workspace_size - ch08::kWorkspaceAlign) / sizeof(std::uint64_t);
    std::vector<std::uint64_t> status(words);
    CUDA_CHECK(cudaMemcpy(status.data(), static_cast<const unsigned char*>(a.workspace) + ch08::kWorkspaceAlign,
                          words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    std::size_t wrong = 0;
    for (std::size_t t = 0; t < words; ++t) {
      const unsigned tag = static_cast<unsigned>(status[t] >> 32);
      wrong += t < small_tiles ? tag != ch08::epoch_tag(1, ch08::kTileInclusive) : tag != 0;
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("scan_stage_9: a cycle later, no word keeps epoch 1's tag from a larger run of epoch 1",
          "[gpu][ch08][scan][scan_stage_9]") {
  // Run 1 (epoch 1) at block 128 (int: 2049 tiles, double: 4097) writes them all with epoch 1; run 2
  // (epoch 2) at block 512 (513 and 1025 tiles). Then the run word jumps to the cycle's last epoch
  // (the runs between would write epochs 3 .. kEpochMax - 1 on their own tiles only), run kEpochMax
  // at block 512, and the next cycle's run of epoch 1, at block 256, must not read run 1's words as
  // its own. After run 2 no word may hold epoch 1's tag: that is decided on the words themselves
  // (int: one 64-bit word a tile; double: two, the tag in the high half of the first), not on a race.
  const Stage<Scan> st = ch08::scan_stage_named("scan_stage_9");
  for (const DType type : {DType::i32, DType::f64}) {
    INFO(dtype_name(type));
    const std::size_t stride = type == DType::f64 ? 2 : 1;  // 64-bit words a tile (EpochTileStatus::kWords)
    Session<Scan>& s = testing_support::cached_session<Scan>(type, {}, (std::size_t{1} << 22) + 7, "exact",
                                                            testing_support::run_seed());
    const ScanArgs big = s.args_for(st, 128, 0), small = s.args_for(st, 512, 0), mid = s.args_for(st, 256, 0);
    REQUIRE(grid_of(st, small) < grid_of(st, mid));
    REQUIRE(grid_of(st, mid) < grid_of(st, big));
    s.poison_for(st);  // zeroes the run word: the next run is epoch 1
    const auto run_and_check = [&](const ScanArgs& a, unsigned epoch) {
      poison_output(s, a);
      run_stage(st, a);
      const Verification v = s.check_output(st, a);
      INFO("epoch " << epoch << ": " << v.message);
      CHECK(v.ok);
      CHECK(run_word(a) == ch08::run_word_after(epoch));
    };
    run_and_check(big, 1);
    run_and_check(small, 2);
    CUDA_CHECK(cudaDeviceSynchronize());  // the session stream's runs are done before the words are read
    const std::size_t words = (big.workspace_size - ch08::kWorkspaceAlign) / sizeof(std::uint64_t);
    std::vector<std::uint64_t> status(words);
    CUDA_CHECK(cudaMemcpy(status.data(), static_cast<const unsigned char*>(big.workspace) + ch08::kWorkspaceAlign,
                          words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
    std::size_t epoch_1 = 0;
    for (std::size_t t = 0; t + stride <= words; t += stride)
      epoch_1 += ch08::flag_in_epoch(static_cast<unsigned>(status[t] >> 32), 1) != ch08::kTileInvalid;
    CHECK(epoch_1 == 0);
    const std::uint64_t last = ch08::run_word_after(ch08::kEpochMax - 1);
    harness::copy_to_device(big.workspace, &last, sizeof last);
    run_and_check(small, ch08::kEpochMax);
    // The next cycle's run of epoch 1 at block 256: its tiles cover other elements than run 1's, so a
    // word of run 1 taken for its own would put a wrong prefix into the output.
    run_and_check(mid, 1);
  }
}

// Past 2^31 the default run takes one stage of each family of kernels, the last where several share
// one kernel: the three-pass Blelloch scan (stage 2: stage 1's kernels with a padded shared-memory
// layout), reduce-then-scan with warp shuffles (stage 3), the scalar decoupled look-back (stage 4),
// the vectorised look-back (stage 7: the kernel of stages 5 to 7, with more vectors and cache
// hints), the bulk-copy pipeline (stage 8), the epoch-tagged look-back (stage 9). Every multi-block stage runs there in
// test_scan_gpu.long (label `long`).
TEST_CASE("one scan stage of each family at n = 2^31 + 1 ints", "[gpu][ch08][scan][large]") {
  Scan::Config exclusive;
  const std::size_t n = (std::size_t{1} << 31) + 1;
  std::string no_room;  // a 16 GB card cannot hold the input and the output (17.2 GB): skipped, said why
  if (!testing_support::fits_device_memory(2 * n * sizeof(int), std::to_string(n) + " int", no_room)) {
    WARN("skipped on this GPU: " << no_room);
    ++testing_support::skipped_runs();
    return;
  }
  Session<Scan>& s = testing_support::cached_session<Scan>(DType::i32, exclusive, n, "signed", testing_support::run_seed());
  for (const std::string& name : {"scan_stage_2", "scan_stage_3", "scan_stage_4", "scan_stage_7", "scan_stage_8", "scan_stage_9"}) {
    const Stage<Scan> st = ch08::scan_stage_named(name);
    const std::string why = ch08::scan_refusal_here(st, 256);
    if (!why.empty()) {  // stage 8 below sm_90 or without its kernel in this build
      WARN(st.name << " skipped on this GPU: " << why);
      continue;
    }
    INFO(st.name);
    Verification v;
    try {
      v = s.run_and_check(st, s.args_for(st, 256, 0));
    } catch (const UnsupportedError& e) {  // its output or workspace past this GPU's free memory
      WARN(st.name << " skipped on this GPU: " << e.what());
      ++testing_support::skipped_runs();
      continue;
    }
    ++testing_support::checked_runs();
    INFO(v.message);
    CHECK(v.ok);
  }
}
