// Checks the chapter-8 exercise tests share beyond testing_support::sweep: the sweeps for the scan
// and histogram exercises (the sizes and settings the chapter's own stage tests use, kept to a few
// seconds of GPU time), hand-built inputs for max / min, one input run many times, and the
// throughput report against the chapter's stages. Every failure carries the same context line as
// the sweep's ("<stage>: type f32, ..., n 1000, block 128, ..."), which scripts/exercise.sh turns
// into a summary.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "histogram_problem.hpp"
#include "histogram_reference.hpp"
#include "measure.hpp"
#include "reduce_problem.hpp"
#include "scan/scan_problem.hpp"
#include "session.hpp"
#include "sweep.hpp"

namespace exercise_support_ch08 {

using harness::DType;

//! The reduction sweep for operators `ops`: chapter 7's sizes without 2^31 + 1 (an 8-17 GB input
//! takes minutes to make; the chapter's own stage tests cover it).
inline testing_support::Sweep<harness::Reduce> reduce_sweep(const std::vector<harness::Op>& ops) {
  testing_support::Sweep<harness::Reduce> s;
  s.configs.clear();
  for (harness::Op op : ops) {
    harness::Reduce::Config c;
    c.op = op;
    s.configs.push_back(c);
  }
  std::vector<std::size_t> sizes;
  for (std::size_t n : s.sizes)
    if (n <= (std::size_t{1} << 24)) sizes.push_back(n);
  s.sizes = sizes;
  return s;
}

//! The scan sweep of the chapter's stage tests (test_ch08_scan_stages.cpp): exclusive and
//! inclusive, one below / at / one past a tile and a tile of tiles, up to 2^24.
inline testing_support::Sweep<harness::Scan> scan_sweep() {
  testing_support::Sweep<harness::Scan> s;
  harness::Scan::Config exclusive, inclusive;
  inclusive.inclusive = true;
  s.configs = {exclusive, inclusive};
  s.sizes = {0, 1, 7, 31, 32, 33, 1000, 2047, 2048, 2049, 8191, 8192, 8193,
             (std::size_t{1} << 22) + 1, (std::size_t{1} << 20) + 3, std::size_t{1} << 24};
  return s;
}

//! The histogram sweeps: uint8 samples into 256 bins over [0, 256), and int / float samples into
//! 37 bins over [-1000, 1000) (an odd bin width), on uniform, one-bin and zipf data.
inline std::vector<testing_support::Sweep<harness::Histogram>> histogram_sweeps() {
  testing_support::Sweep<harness::Histogram> bytes;
  bytes.types = {DType::u8};
  bytes.dists = {"uniform", "one-bin", "zipf"};
  bytes.sizes = {0, 1, 31, 32, 33, 1000, 4097, (std::size_t{1} << 20) + 3, std::size_t{1} << 24};
  testing_support::Sweep<harness::Histogram> ranged = bytes;
  ranged.types = {DType::i32, DType::f32};
  harness::Histogram::Config c;
  c.bins = 37;
  c.lower = -1000;
  c.upper = 1000;
  ranged.configs = {c};
  return {bytes, ranged};
}

//! Runs a reduction stage with `op` on the hand-built input `data` at a few block sizes and checks
//! it against the CPU reference (max / min: exact, a NaN anywhere must give NaN).
template <class T>
void check_reduce_input(const harness::Stage<harness::Reduce>& st, harness::Op op, const std::string& what,
                        const std::vector<T>& data) {
  harness::Reduce::Config config;
  config.op = op;
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  harness::Session<harness::Reduce> s(harness::dtype_of<T>(), config,
                                      std::vector<unsigned char>(bytes, bytes + data.size() * sizeof(T)),
                                      data.size(), false, nullptr);
  for (int block : {32, 256, 1024}) {
    INFO(st.name << ": type " << harness::dtype_name(harness::dtype_of<T>()) << ", op " << harness::op_name(op)
                 << ", input " << what << ", n " << data.size() << ", block " << block);
    const harness::Verification v = s.run_and_check(st, s.args_for(st, block, 0));
    INFO(harness::check_name(v.kind) << ": " << v.message);
    CHECK(v.ok);
  }
}

//! `runs` runs of a scan stage on 2^24 random ints (exact whatever the order): each must be right.
//! A look-back that reads a predecessor's status too early fails some runs and not others.
inline void check_scan_repeated(const harness::Stage<harness::Scan>& st, int runs = 10) {
  const std::size_t n = std::size_t{1} << 24;
  harness::Scan::Config config;
  auto& s = testing_support::cached_session<harness::Scan>(DType::i32, config, n, "signed", testing_support::run_seed());
  for (int r = 0; r < runs; ++r) {
    INFO(st.name << ": type i32, exclusive, dist signed, n " << n << ", block 256, run " << r << ", seed "
                 << testing_support::run_seed());
    const harness::Verification v = s.run_and_check(st, s.args_for(st, 256, 0));
    INFO(harness::check_name(v.kind) << ": " << v.message);
    CHECK(v.ok);
  }
}

//! Prints the exercise's throughput next to the chapter's stages on 2^26 uint8 samples (256 bins),
//! uniform and one-bin data, block 256 (a report, never a failure). Nothing is timed if the
//! exercise's answer is wrong.
inline void report_histogram_throughput(const harness::Stage<harness::Histogram>& mine,
                                        const std::vector<harness::Stage<harness::Histogram>>& chapter) {
  const std::size_t n = std::size_t{1} << 26;
  const harness::DeviceInfo dev = harness::query_device();
  harness::TimingOptions opt;
  opt.warmup = 3;
  opt.iters = 20;
  harness::Session<harness::Histogram>* no_exact = nullptr;  // histograms are exact on any data
  for (const char* dist : {"uniform", "one-bin"}) {
    auto& s = testing_support::cached_session<harness::Histogram>(DType::u8, {}, n, dist, testing_support::run_seed());
    const harness::Measurement m = harness::measure_stage(mine, no_exact, s, 256, 0, opt, dev);
    if (!m.ok()) {
      WARN(mine.name << ": not timed, its answer on 2^26 uint8 samples (" << dist << ") is wrong ("
                     << m.verdict.message << ")");
      return;
    }
    std::string line = "throughput on 2^26 uint8 samples, " + std::string(dist) + ", block 256: ";
    char part[160];
    std::snprintf(part, sizeof part, "%s %.0f GB/s", mine.name.c_str(), m.gb_per_s);
    line += part;
    for (const auto& c : chapter) {
      const harness::Measurement cm = harness::measure_stage(c, no_exact, s, 256, 0, opt, dev);
      std::snprintf(part, sizeof part, ", %s %.0f GB/s (yours %.2fx)", c.name.c_str(), cm.gb_per_s,
                    cm.gb_per_s > 0 ? m.gb_per_s / cm.gb_per_s : 0.0);
      line += part;
    }
    WARN(line << " -- a report, not pass/fail");
  }
}

}  // namespace exercise_support_ch08
