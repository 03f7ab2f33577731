//! @file reduce_problem.hpp
//! @brief The reduction problem: n elements in, one value out (sum, max or min). What the generic
//! harness (Session, stage_main, ladder_main, the test sweep) needs to know about it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ceilings.hpp"
#include "drivers.hpp"
#include "reduce_reference.hpp"
#include "report.hpp"
#include "stage.hpp"
#include "verify.hpp"

// CLI11's App, declared only: the files that build a command line include <CLI/CLI.hpp> (through
// cli.hpp); every kernel file that includes this header is spared parsing CLI11.
namespace CLI {
class App;
}  // namespace CLI

namespace harness {

//! Launch arguments of a reduction: `out` holds one element of the stage's output type.
struct ReduceArgs : LaunchArgs {
  Op op = Op::sum;  //!< operator
};

//! The reduction problem (chapter 7; chapter 8, sections 8.2 to 8.6).
struct Reduce {
  using Args = ReduceArgs;           //!< launch arguments
  using Reference = ReduceReference;  //!< the CPU reference
  //! What a reduction stage supports beyond types and block sizes.
  struct Caps {
    std::vector<Op> ops{Op::sum};  //!< operators
    //! Output type for an input type and operator; null means the input type.
    DType (*out_type)(DType in, Op op) = nullptr;
    //! The stage returns the binned sum (binned_sum.hpp: the same bits for any order, block and
    //! grid): on data that is not exact its check is bit equality with ReduceReference::binned, and
    //! n is refused past binned_max_elements.
    bool binned = false;
  };
  //! The run settings a reduction has besides n, type, block and grid.
  struct Config {
    Op op = Op::sum;  //!< --op
  };

  // --- command line -------------------------------------------------------------------------
  //! Adds --op when some stage offers more than the sum.
  static void add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Reduce>*>& stages);
  //! "op sum".
  static std::string describe(const Config& c);
  //! The column `op`.
  static void add_columns(const Config& c, Record& r);
  //! The size rule's variant (size_rule.hpp): the operator, "sum", "max" or "min".
  static std::string rule_variant(const Config& c, const std::string& /*dist*/) { return op_name(c.op); }

  // --- data ---------------------------------------------------------------------------------
  //! signed, uniform, skewed, exact (the first is the default).
  static std::vector<std::string> dist_names();
  //! Help text of --dist.
  static std::string dist_help();
  //! The distribution that decides pass/fail: "exact" (every element +-1; harness::exact_data_limit).
  static std::string exact_dist() { return "exact"; }
  //! What the exact data is, for reports.
  static const char* exact_dist_help();
  //! True for "exact".
  static bool is_exact_dist(const std::string& dist) { return dist == "exact"; }
  //! Max and min have exact answers on any data. A sum, integer sums too, is decided on the exact
  //! data: the other distributions hold zeros (ints: 1 in 201 signed, 1 in 101 uniform), and a
  //! lost zero changes nothing.
  static bool exact_on_any_data(DType, const Config& c) { return c.op != Op::sum; }
  //! n elements of `type` from `dist` with `seed`, as bytes (harness::generate_bytes).
  static std::vector<unsigned char> generate(DType type, const Config& c, std::size_t n,
                                             const std::string& dist, std::uint64_t seed);
  //! The CPU reference. With `exact_data` it first proves the data exact (require_exact_data:
  //! std::logic_error otherwise, since a check on it would mean nothing).
  static Reference reference(DType type, const Config& c, std::vector<unsigned char>& host,
                             std::size_t n, bool exact_data);

  // --- launch -------------------------------------------------------------------------------
  //! Copies the operator into the launch arguments.
  static void apply(const Config& c, Args& a) { a.op = c.op; }
  //! The operator must be one the stage offers (the refusal names Stage::instead, if any); a
  //! binned stage takes at most binned_max_elements of its type. @throws UsageError
  static void validate(const Stage<Reduce>& s, const Args& a);
  //! The stage's output type for these arguments (Caps::out_type, else the input type).
  static DType output_type(const Stage<Reduce>& s, const Args& a);
  //! One output element.
  static std::size_t output_count(const Args&) { return 1; }
  //! n = 0: writes the operator's identity (0, the lowest or the highest value) without a kernel.
  static void run_empty(const Stage<Reduce>& s, const Args& a);

  // --- check and report ---------------------------------------------------------------------
  //! Compares the output with the reference:
  //! - a binned stage (Caps::binned) on data that is not exact: the same bits as the CPU's binned
  //!   sum (CheckKind::exact; NaN and infinities included), with the error against the double
  //!   reference reported;
  //! - exact data, integer outputs, max and min: equality (CheckKind::exact); for max/min a NaN
  //!   reference needs a NaN result, -0.0 equals +0.0; an int32 output whose exact sum does not fit
  //!   fails with an overflow message;
  //! - floating-point sums of other data: |err| <= depth_error_bound(stage depth, eps, sum|a|)
  //!   (CheckKind::bound), or CheckKind::unchecked ("not checked", ok) when that bound is not
  //!   below |expected| and so cannot tell a right sum from a wrong one. A stage without a depth
  //!   rule is taken at the worst case, depth n.
  static Verification check(const Stage<Reduce>& s, const Args& a, const Reference& ref,
                            const void* out, bool exact_data);
  //! Bytes one run must move: n input elements read (the one-element output is negligible).
  static double bytes_moved(const Args& a) { return static_cast<double>(a.n) * dtype_size(a.type); }
  //! "input bytes".
  static const char* bytes_help() { return "input bytes"; }
  //! Operations per run: n (one add, or compare, per element).
  static double operations(const Args& a) { return static_cast<double>(a.n); }
  //! "FLOP".
  static const char* operation_name() { return "FLOP"; }
  //! cub::DeviceReduce for the operator; for an int sum whose stages output int64, CUB's int64 sum.
  static Stage<Reduce> baseline(DType type, const Config& c, const std::vector<const Stage<Reduce>*>& stages);
  //! The ceilings a reduction ladder times: the device-to-device copy, as the article measures
  //! against, and the streaming read, the bound of a problem that only reads (ceilings_help).
  static std::vector<Ceiling> ceilings() { return {Ceiling::copy, Ceiling::read}; }
  //! Why both, for the ladders' --help and report.
  static const char* ceilings_help() {
    return "Why a reduction can pass the copy: a copy moves 2 bytes per input byte (it reads each byte and "
           "writes it again; its GB/s counts both), a reduction only reads (n elements in, one value out). Its "
           "ceiling is the streaming read, timed in the same run; the copy stays as the article's yardstick.";
  }
};

//! Writes the identity of `op` for `out_type` to the device address `out` on `stream`.
void write_identity(void* out, DType out_type, Op op, cudaStream_t stream);

//! log2 of a power-of-two block size: the levels of a block's reduction tree.
constexpr double tree_levels(int block) {
  double levels = 0;
  for (int b = block; b > 1; b /= 2) levels += 1;
  return levels;
}

//! The depth of a reduction whose blocks each fold `per_thread` elements per thread, reduce their
//! block in a tree, and whose `partials` block results are then folded one after another
//! (atomically into one address, or serially by one thread): per_thread + log2(block) + partials.
inline double reduce_depth(double per_thread, int block, double partials) {
  return per_thread + tree_levels(block) + partials;
}

//! The block of a one-launch reduction when no --block is given (the block_for of chapter 7's stage
//! 12 and chapter 8's stages 7 and 8): while a block of at most 1024 threads, each reading one trip of
//! `bytes_per_thread` bytes, covers the input, the smallest such power of two from 256 threads, so that
//! one block does it all (no partials, no ticket, no finish); else 256, whose grid of one trip per
//! thread spreads the input over four times as many blocks, and SMs, as 1024 would.
//! @param[in] bytes the input's size in bytes
//! @param[in] bytes_per_thread bytes one thread reads in one trip (> 0)
//! @return threads per block: 256, 512 or 1024
//! Source: this tutorial; the block sweeps behind it are in docs/results/H100/block_sweep/.
constexpr int one_trip_block(std::size_t bytes, std::size_t bytes_per_thread) {
  for (int b = 256; b <= 1024; b *= 2)
    if (bytes <= static_cast<std::size_t>(b) * bytes_per_thread) return b;
  return 256;
}

//! Inputs of at least this many bytes (2^20 floats) give each thread of a one-launch reduction two
//! trips of its loop before the grid grows with n (one_launch_bytes_per_thread).
inline constexpr std::size_t kTwoTripBytes = std::size_t{1} << 22;

//! Bytes one thread of a one-launch reduction (chapter 7's stage 12, chapter 8's stages 7 and 8)
//! reads before its grid grows with n: one trip of `trip_bytes` below kTwoTripBytes of input, two
//! from there. Two trips per thread halve the blocks, and with them the partials the last block folds
//! and the tickets taken on one counter, while each thread's loads of a trip still go out together.
//! Where the grid already is a full wave of resident blocks, the wave decides and this rule changes
//! nothing.
//! @param[in] bytes the input's size in bytes
//! @param[in] trip_bytes bytes one thread reads in one trip of its loop (> 0)
//! @return bytes of input per thread before the grid grows: trip_bytes or 2 x trip_bytes
//! Source: this tutorial; the grids it was chosen from (one and two trips per thread, 2^18 to 2^23
//! elements) are in docs/results/H100/stage7_trips/.
constexpr std::size_t one_launch_bytes_per_thread(std::size_t bytes, std::size_t trip_bytes) {
  return bytes < kTwoTripBytes ? trip_bytes : 2 * trip_bytes;
}

//! one_launch_bytes_per_thread for the input of `a` (a.n elements of a.type): what the grids of
//! chapter 7's stage 12 and chapter 8's stages 7 and 8 pass to their resident-grid rule.
inline std::size_t one_launch_bytes_per_thread(const ReduceArgs& a, std::size_t trip_bytes) {
  return one_launch_bytes_per_thread(a.n * dtype_size(a.type), trip_bytes);
}

//! The grid of a reduction whose whole grid is one thread block cluster (chapter 7's stage 13, chapter
//! 8's stage 9): the user's --grid if given, at most `capacity`; else one block per a.block 16-byte
//! vectors of input (one load per thread), at least 1 and at most `capacity`.
//! @param[in] a the launch arguments (n, type, block, grid)
//! @param[in] capacity the most blocks one cluster of the stage's kernel holds on this GPU
//! @param[in] stage the stage's name, for the error message
//! @return blocks in the grid (and in its one cluster)
//! @throws UsageError when a.grid is past `capacity`
//! Source: this tutorial (chapter 7's small-input page, "Stage 13").
inline std::size_t one_cluster_grid(const ReduceArgs& a, std::size_t capacity, const std::string& stage) {
  if (a.grid > capacity)
    throw UsageError(stage + ": --grid " + std::to_string(a.grid) +
                     ": the grid is one thread block cluster, which holds at most " + std::to_string(capacity) +
                     " blocks of " + std::to_string(a.block) + " threads on this GPU");
  if (a.grid != 0) return a.grid;
  const std::size_t bytes_per_block = static_cast<std::size_t>(a.block) * 16;
  const std::size_t wanted = (a.n * dtype_size(a.type) + bytes_per_block - 1) / bytes_per_block;
  return wanted < 1 ? 1 : (wanted < capacity ? wanted : capacity);
}

//! stage_main for Reduce is compiled once, in reduce_problem.cpp.
extern template int stage_main<Reduce>(int, char**, const StageProgram<Reduce>&);
//! ladder_main for Reduce is compiled once, in reduce_problem.cpp.
extern template int ladder_main<Reduce>(int, char**, const LadderSpec<Reduce>&);

}  // namespace harness
