// Checks the chapter-7 exercise tests share beyond testing_support::sweep: user-chosen grids,
// inputs that do not start on a 16-byte boundary, one bit pattern over repeated runs, the
// throughput report against the chapter's own stage, and the long case past 2^31 (every type, both
// kinds of data) swept over every exercise of the binary at once. Every failure carries the same context line
// as the sweep's ("<stage>: type f32, ..., n 1000, block 128, ..."), which scripts/exercise.sh
// turns into a summary.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "exercise_stage.hpp"
#include "measure.hpp"
#include "reduce_problem.hpp"
#include "sweep.hpp"

namespace exercise_support {

using harness::DType;
using harness::Reduce;
using harness::Stage;

//! The grids 1, 3 and 1000 on exact data (a grid-stride stage must be right for any grid).
inline void check_grids(const Stage<Reduce>& st) {
  for (DType type : {DType::f32, DType::f64, DType::i32}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
      auto& s = testing_support::cached_session<Reduce>(type, {}, n, "exact", testing_support::run_seed());
      for (std::size_t grid : {std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
        INFO(st.name << ": type " << harness::dtype_name(type) << ", dist exact, n " << n << ", block 128, grid "
                     << grid << ", seed " << testing_support::run_seed());
        const harness::Verification v = s.run_and_check(st, s.args_for(st, 128, grid));
        INFO(harness::check_name(v.kind) << ": " << v.message);
        CHECK(v.ok);
      }
    }
  }
}

//! The same exact floats read from 0 to 3 elements past a 16-byte boundary.
inline void check_misaligned(const Stage<Reduce>& st) {
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000},
                        (std::size_t{1} << 20) + 3}) {
    const std::vector<unsigned char> host =
        Reduce::generate(DType::f32, {}, n + 3, "exact", testing_support::run_seed());
    harness::DeviceBuffer dev(host.size());
    CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
    for (std::size_t offset = 0; offset < 4; ++offset) {
      std::vector<unsigned char> part(host.begin() + offset * 4, host.begin() + (offset + n) * 4);
      harness::Session<Reduce> s(DType::f32, {}, part, n, /*exact_data=*/true, nullptr);
      harness::ReduceArgs a = s.args_for(st, 256, 0);
      a.in = dev.as<float>() + offset;  // the same values, `offset` floats past the boundary
      INFO(st.name << ": type f32, dist exact, n " << n << ", block 256, input offset " << offset
                   << " floats past a 16-byte boundary, seed " << testing_support::run_seed());
      const harness::Verification v = s.run_and_check(st, a);
      INFO(harness::check_name(v.kind) << ": " << v.message);
      CHECK(v.ok);
    }
  }
}

//! `runs` runs on 2^24 random floats give one bit pattern (and a right answer).
inline void check_deterministic(const Stage<Reduce>& st, int runs = 10) {
  const std::size_t n = std::size_t{1} << 24;
  auto& s = testing_support::cached_session<Reduce>(DType::f32, {}, n, "signed", testing_support::run_seed());
  std::set<std::vector<unsigned char>> patterns;
  for (int r = 0; r < runs; ++r) {
    INFO(st.name << ": type f32, dist signed, n " << n << ", block 256, run " << r << ", seed "
                 << testing_support::run_seed());
    const harness::Verification v = s.run_and_check(st, s.args_for(st, 256, 0));
    INFO(harness::check_name(v.kind) << ": " << v.message);
    CHECK(v.ok);
    patterns.insert(s.last_output());
  }
  INFO(st.name << ": type f32, dist signed, n " << n << ", block 256: " << patterns.size()
               << " different bit patterns over " << runs << " runs (a deterministic stage gives 1)");
  CHECK(patterns.size() == 1);
}

//! Prints the exercise's throughput next to the chapter stage it reproduces, on 2^26 random floats
//! at block 256 (a report, never a failure). Nothing is timed if the exercise's answer is wrong.
inline void report_throughput(const Stage<Reduce>& mine, const Stage<Reduce>& chapter) {
  const std::size_t n = std::size_t{1} << 26;
  const harness::DeviceInfo dev = harness::query_device();
  auto& timed = testing_support::cached_session<Reduce>(DType::f32, {}, n, "signed", testing_support::run_seed());
  auto& exact = testing_support::cached_session<Reduce>(DType::f32, {}, n, "exact", testing_support::run_seed());
  harness::TimingOptions opt;
  opt.warmup = 3;
  opt.iters = 20;
  const harness::Measurement m = harness::measure_stage(mine, &exact, timed, 256, 0, opt, dev);
  if (!m.ok()) {
    WARN(mine.name << ": not timed, its answer on 2^26 floats is wrong (" << m.verdict.message << ")");
    return;
  }
  const harness::Measurement c = harness::measure_stage(chapter, &exact, timed, 256, 0, opt, dev);
  char line[256];
  std::snprintf(line, sizeof line, "throughput on 2^26 floats, block 256: %s %.0f GB/s, %s %.0f GB/s (%.2fx)",
                mine.name.c_str(), m.gb_per_s, chapter.name.c_str(), c.gb_per_s,
                c.gb_per_s > 0 ? m.gb_per_s / c.gb_per_s : 0.0);
  WARN(line << " -- a report, not pass/fail");
}

//! The long case of a chapter-7 exercise: exercise `id` ("ch07/03") at n = 2^31 + 1 on every type
//! and both kinds of data; returns its number of runs. The first call sweeps every exercise of
//! that chapter this binary holds, input by input (testing_support::sweep_each_input), and later
//! calls return what it recorded. In solutions_ch07 the six long cases thus share the six inputs
//! (8-17 GB each, seconds to make) instead of making 36, and a failing solution shows in whichever
//! long case runs first, named by its stage; in a stub's binary (exercise_ch07_NN) the one
//! exercise is all there is.
inline std::size_t past_2e31_every_type_runs(const std::string& id) {
  static const std::map<std::string, std::size_t> runs = [&] {
    const std::string chapter = id.substr(0, id.find('/') + 1);  // "ch07/"
    std::vector<std::string> ids;
    std::vector<Stage<Reduce>> stages;
    for (const auto& [key, make] : exercise_registry<Reduce>()) {
      if (key.rfind(chapter, 0) != 0) continue;
      ids.push_back(key);
      stages.push_back(make());
    }
    const std::vector<std::size_t> r =
        testing_support::sweep_each_input(stages, testing_support::past_2e31_every_type<Reduce>());
    std::map<std::string, std::size_t> by_id;
    for (std::size_t i = 0; i < ids.size(); ++i) by_id[ids[i]] = r[i];
    return by_id;
  }();
  const auto it = runs.find(id);
  return it == runs.end() ? 0 : it->second;
}

}  // namespace exercise_support
