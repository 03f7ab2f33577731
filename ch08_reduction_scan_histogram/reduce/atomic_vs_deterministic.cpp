// atomic_vs_deterministic: the same input summed many times two ways, counting the distinct results.
//
//  - "atomic": stage 4's first pass, but each block adds its partial to the result with atomicAdd
//    (reduce_stage_4_atomic in reduce_stage_4_block_reduce.cuh). The block partials are the same on
//    every run; the order in which the blocks' atomics land is not (it depends on which blocks
//    finish first), and floating-point addition is not associative, so the bits of the result can
//    change from run to run.
//  - "two-pass": stage 4 as the chapter builds it: partials to memory, then one block folds them in
//    index order. Same grid, same block size, same partials: one result, bit for bit.
//
// With --shapes, then the step past run to run: the same input summed by stage 5 (the fastest
// two-pass stage, deterministic run to run) at every block size from 64 to 1024 and several grids
// (1 block, the SM count, the full wave stage 5 runs at by default, twice that), a table of its
// result's bits per (block, grid), each pattern lettered; then the same table for stage 6, the
// binned sum, whose bits must not change; and each one's error against the CPU's double sum (the
// exact sum for +-1 data). A GPU with another SM count runs another full wave: the grids columns
// show what that does to stage 5's bits. Float and double only.
//
// Both kernels are compiled once, in the chapter's library ch08_reduce, which this program links.
// Integer sums are exact, so with --type int both columns give one result (addition of integers is
// associative). Exit code: 0 when the two-pass result was one bit pattern and both passed their
// checks (on random floats each result is held to its depth bound, or "not checked" where that bound
// is looser than the sum; the atomic grid's bound is the looser one: see the output), and with
// --shapes when stage 6 gave one pattern, the CPU's binned sum; 1 otherwise; 2 for bad flags; 77
// without a GPU.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <algorithm>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "program.hpp"
#include "session.hpp"
#include "ch08_reduce_stages.hpp"
#include "verify.hpp"

namespace {

std::string describe(std::uint64_t bits, harness::DType out) {
  char buf[96];
  if (out == harness::DType::f32) {
    float f;
    std::uint32_t b = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b, sizeof f);
    std::snprintf(buf, sizeof buf, "%.9g (bits 0x%08x)", f, b);
  } else if (out == harness::DType::f64) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    std::snprintf(buf, sizeof buf, "%.17g (bits 0x%016llx)", d, static_cast<unsigned long long>(bits));
  } else {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(bits));
  }
  return buf;
}

void print_counts(const char* what, const std::map<std::uint64_t, int>& counts, int runs,
                  harness::DType out) {
  std::printf("%-10s %zu distinct result%s in %d runs\n", what, counts.size(),
              counts.size() == 1 ? "" : "s", runs);
  int shown = 0;
  for (const auto& [bits, k] : counts) {
    if (++shown > 8) {
      std::printf("             ... and %zu more\n", counts.size() - 8);
      break;
    }
    std::printf("             %4d x %s\n", k, describe(bits, out).c_str());
  }
}

// One stage's table of bits over block sizes and grids: each distinct pattern gets a letter (a, b,
// ...) and its value, error against the CPU reference and shapes are listed under the table.
// Returns the number of distinct patterns; `all_ok` goes false if a run failed its check.
std::size_t shapes_table(harness::Session<harness::Reduce>& session, const harness::Stage<harness::Reduce>& stage,
                         const std::vector<int>& blocks, const std::vector<std::size_t>& grids,
                         const std::vector<std::string>& grid_names, bool& all_ok) {
  const harness::DType out = harness::Reduce::output_type(stage, session.args_for(stage, blocks.front(), 0));
  std::vector<std::uint64_t> patterns;  // in order of first appearance
  std::map<std::uint64_t, double> error;
  std::printf("\n%s (%s): the result's bits per block size (rows) and grid (columns)\n", stage.name.c_str(),
              stage.label.c_str());
  std::printf("%-8s", "block");
  for (const std::string& g : grid_names) std::printf(" %-14s", g.c_str());
  std::printf("\n");
  for (int block : blocks) {
    std::printf("%-8d", block);
    for (std::size_t grid : grids) {
      const harness::ReduceArgs a = session.args_for(stage, block, grid);
      const harness::Verification v = session.run_and_check(stage, a);
      all_ok = all_ok && v.ok;
      std::uint64_t bits = 0;
      std::memcpy(&bits, session.last_output().data(), session.last_output().size());
      auto it = std::find(patterns.begin(), patterns.end(), bits);
      if (it == patterns.end()) it = patterns.insert(patterns.end(), bits);
      error[bits] = v.abs_err;
      char cell[32];
      std::snprintf(cell, sizeof cell, "%c %0*llx%s", static_cast<char>('a' + (it - patterns.begin()) % 26),
                    out == harness::DType::f32 ? 8 : 16, static_cast<unsigned long long>(bits), v.ok ? "" : "!");
      std::printf(" %-14s", cell);
    }
    std::printf("\n");
  }
  std::printf("%zu distinct result%s:\n", patterns.size(), patterns.size() == 1 ? "" : "s");
  for (std::size_t k = 0; k < patterns.size(); ++k)
    std::printf("  %c = %s, |error| against the CPU's double sum %.3g\n", static_cast<char>('a' + k % 26),
                describe(patterns[k], out).c_str(), error[patterns[k]]);
  return patterns.size();
}

// The stages this program runs: stage 4, its atomic variant, and (with --shapes) stages 5 and 6.
struct Stages {
  harness::Stage<harness::Reduce> stage4, atomic, stage5, stage6;
};

// Checks the flags against the stages (bad ones throw UsageError, exit 2) before any GPU is asked,
// and returns the stages.
Stages load_stages(const harness::RunOptions& o, harness::DType type, bool shapes) {
  const harness::Stage<harness::Reduce> stage4 = ch08::reduce_stage_4_program().stage();
  // The atomic variant: the same first pass on the same grid and block, so the same block
  // partials, added to the result by atomicAdd instead of the second pass.
  const harness::Stage<harness::Reduce> atomic = ch08::reduce_stage_4_atomic_finish();
  harness::ReduceArgs probe;
  probe.type = type;
  probe.n = o.n;
  probe.block = o.block;
  if (o.n == 0) throw harness::UsageError("--n must be positive");
  harness::ensure_host_memory(harness::checked_bytes(o.n, harness::dtype_size(type), "--n " + o.n_text),
                              "the input, " + std::to_string(o.n) + " " + harness::dtype_name(type) + " elements,");
  harness::validate_config(stage4, probe);
  const harness::Stage<harness::Reduce> stage5 = ch08::reduce_stage_5_program().stage();
  const harness::Stage<harness::Reduce> stage6 = ch08::reduce_stage_6_program().stage();
  if (shapes) harness::validate_config(stage6, probe);  // float or double only
  return Stages{stage4, atomic, stage5, stage6};
}

// What one way of summing gave over the runs: how often each bit pattern came, how many runs
// passed their check, and the last run's check.
struct Tally {
  std::map<std::uint64_t, int> counts;
  int ok = 0;
  harness::Verification last;
};

// The bits of the session's last result (float or double bits, or the integer), zero-extended.
std::uint64_t bits_of(const harness::Session<harness::Reduce>& session) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, session.last_output().data(), session.last_output().size());
  return bits;
}

// Runs `stage` once through the harness (poisoned output and workspace, checked against the CPU
// reference) and adds what it gave to `t`.
void run_once(harness::Session<harness::Reduce>& session, const harness::Stage<harness::Reduce>& stage,
              const harness::ReduceArgs& args, Tally& t) {
  t.last = session.run_and_check(stage, args);
  if (t.last.ok) ++t.ok;
  ++t.counts[bits_of(session)];
}

// Prints one way's distinct results and its checks.
void print_tally(const char* what, const Tally& t, int runs, harness::DType out) {
  print_counts(what, t.counts, runs, out);
  std::printf("             check: %s; %d of %d passed (%s)\n", harness::check_name(t.last.kind), t.ok, runs,
              t.last.message.c_str());
}

// The bits of the CPU's binned sum, as the stages' output type holds them.
std::uint64_t binned_bits(const harness::ReduceReference& ref, harness::DType out_type) {
  std::uint64_t b = 0;
  if (out_type == harness::DType::f32) {
    const float f = static_cast<float>(ref.binned);
    std::memcpy(&b, &f, sizeof f);
  } else {
    std::memcpy(&b, &ref.binned, sizeof(double));
  }
  return b;
}

// --shapes: the bits of stage 5's and stage 6's sums over block sizes and grids. True when stage 6
// gave one pattern and every run passed its check.
bool shapes_tables(harness::Session<harness::Reduce>& session, const Stages& s, const harness::DeviceInfo& dev,
                   harness::DType out_type) {
  // Grids: one block, the SM count, stage 5's full wave (its default here), twice that.
  const std::size_t wave = harness::grid_of(s.stage5, session.args_for(s.stage5, 256, 0));
  const auto sms = static_cast<std::size_t>(dev.sm_count);
  const std::vector<std::size_t> grids{1, sms, wave, 2 * wave};
  const std::vector<std::string> names{"grid 1", "grid " + std::to_string(sms) + " (SMs)",
                                       "grid " + std::to_string(wave) + " (wave)", "grid " + std::to_string(2 * wave)};
  const std::vector<int> blocks{64, 128, 256, 512, 1024};
  bool shapes_ok = true;
  std::printf("\nThe same input on other shapes: %zu grids x %zu block sizes ('!' marks a failed check)\n",
              grids.size(), blocks.size());
  shapes_table(session, s.stage5, blocks, grids, names, shapes_ok);
  const std::size_t stage6_patterns = shapes_table(session, s.stage6, blocks, grids, names, shapes_ok);
  std::printf("CPU binned sum (binned_sum_cpu): %s\n",
              describe(binned_bits(session.reference(), out_type), out_type).c_str());
  if (stage6_patterns != 1 || !shapes_ok) {
    std::fprintf(stderr, "atomic_vs_deterministic: stage 6 gave %zu bit patterns, or a check failed\n",
                 stage6_patterns);
    return false;
  }
  return true;
}

// The program once the flags are read: the input, `runs` sums each way, their distinct results,
// then (with --shapes) the tables. Returns the exit code.
int compare_sums(const harness::RunOptions& o, int runs, bool shapes) {
  const harness::DType type = harness::parse_dtype(o.type);
  const Stages s = load_stages(o, type, shapes);

  const harness::DeviceInfo dev = harness::query_device();
  harness::Stream stream;
  auto session = harness::Session<harness::Reduce>::generate(type, {}, o.n, o.dist, o.seed, stream.get());
  const harness::ReduceArgs args = session.args_for(s.stage4, o.block, 0);
  const harness::ReduceArgs atomic_args = session.args_for(s.atomic, o.block, 0);
  const std::size_t grid = harness::grid_of(s.stage4, args);
  const harness::DType out_type = harness::Reduce::output_type(s.stage4, args);
  std::printf("atomic_vs_deterministic on %s\n", dev.summary().c_str());
  std::printf("input: n = %zu %s, dist %s, seed %llu; sum; block %d, grid %zu (one partial per block)\n",
              o.n, harness::dtype_name(type), o.dist.c_str(), static_cast<unsigned long long>(o.seed),
              o.block, grid);

  Tally atomic, two_pass;
  for (int r = 0; r < runs; ++r) {
    run_once(session, s.stage4, args, two_pass);
    run_once(session, s.atomic, atomic_args, atomic);
  }
  print_tally("atomic:", atomic, runs, out_type);
  print_tally("two-pass:", two_pass, runs, out_type);
  std::printf("CPU reference (double / exact): %.17g\n", session.reference().value);
  bool ok = two_pass.counts.size() == 1 && two_pass.ok == runs && atomic.ok == runs;
  if (!ok) std::fprintf(stderr, "atomic_vs_deterministic: stage 4 was NOT deterministic, or a check failed\n");
  if (shapes && !shapes_tables(session, s, dev, out_type)) ok = false;
  return ok ? 0 : harness::kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The same input summed many times: atomicAdd of block partials against stage 4's "
               "deterministic second pass; counts the distinct results of each",
               "atomic_vs_deterministic"};
  harness::RunOptions o;
  int runs = 100;
  app.add_option("--n", o.n_text, "Number of elements: 1000, 2^24, 2^31+1 ...")->capture_default_str();
  app.add_option("--runs", runs, "How many times to sum the input each way")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--type", o.type, "Element type")
      ->check(CLI::IsMember({"float", "double", "int", "f32", "f64", "i32"}))
      ->capture_default_str();
  app.add_option("--block", o.block, "Threads per block: a power of two, 32..1024")
      ->check(CLI::IsMember({32, 64, 128, 256, 512, 1024}))
      ->capture_default_str();
  app.add_option("--dist", o.dist, "Input distribution: signed, uniform, skewed or exact (exact: every sum the same)")
      ->check(CLI::IsMember({"signed", "uniform", "skewed", "exact"}))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the input generator")->capture_default_str();
  bool shapes = false;
  app.add_flag("--shapes", shapes,
               "Then the bits of stage 5's sum (deterministic run to run) at every block size 64..1024 and several "
               "grids, against stage 6's (the binned sum: the same bits on any block, grid and GPU); float and double");
  if (auto rc = harness::parse_command_line(app, o, argc, argv)) return *rc;

  return harness::run_program("atomic_vs_deterministic", [&]() -> int { return compare_sums(o, runs, shapes); });
}
