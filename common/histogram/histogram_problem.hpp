//! @file histogram_problem.hpp
//! @brief The histogram problem: n samples in, `bins` counters out. What the generic harness
//! (Session, stage_main, ladder_main, the test sweep) needs to know about it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ceilings.hpp"
#include "drivers.hpp"
#include "report.hpp"
#include "stage.hpp"
#include "verify.hpp"

// CLI11's App, declared only: the files that build a command line include <CLI/CLI.hpp> (through
// cli.hpp); every kernel file that includes this header is spared parsing CLI11.
namespace CLI {
class App;
}  // namespace CLI

namespace harness {

//! One histogram counter: 64 bits, so that every bin of every n the program accepts is exact.
using Count = unsigned long long;

//! Launch arguments of a histogram: `out` holds `bins` Count values. Which bin a sample falls in is
//! the one rule of histogram_bins.cuh (bin_of), shared by the kernels, the CPU reference and CUB's
//! HistogramEven: for integer samples floor((x - lower) * bins / (upper - lower)) computed exactly,
//! for float samples CUB's float arithmetic. Samples outside [lower, upper), and NaN, are not counted.
struct HistogramArgs : LaunchArgs {
  int bins = 256;        //!< number of bins (>= 1)
  double lower = 0;      //!< lowest value counted
  double upper = 256;    //!< first value past the range
};

struct HistogramReference;  // histogram_reference.hpp

//! The histogram problem (chapter 8, section 8.8).
struct Histogram {
  using Args = HistogramArgs;            //!< launch arguments
  using Reference = HistogramReference;  //!< the CPU reference
  //! What a histogram stage supports beyond sample types and block sizes.
  struct Caps {
    //! Most bins the stage's kernel itself accepts (e.g. 256 for per-thread byte counters). How
    //! many bins fit a GPU's shared memory is not a cap here: the stage's Stage::shared_bytes says
    //! what a block needs, and check_device_fit compares it with the device (run_stage.hpp).
    int max_bins = 1 << 20;
  };
  //! The run settings a histogram has besides n, type, block and grid.
  struct Config {
    int bins = 256;          //!< --bins
    double lower = 0;        //!< --lower
    double upper = 256;      //!< --upper
    double hot_share = 0.5;  //!< --hot-share: for --dist hot, the share of samples in the hottest bin
  };

  // --- command line -------------------------------------------------------------------------
  //! Adds --bins, --lower, --upper and --hot-share.
  static void add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Histogram>*>& stages);
  //! "256 bins over [0, 256)".
  static std::string describe(const Config& c);
  //! The columns bins, lower, upper.
  static void add_columns(const Config& c, Record& r);
  //! The size rule's variant (size_rule.hpp): the sample distribution, --dist.
  static std::string rule_variant(const Config& /*c*/, const std::string& dist) { return dist; }

  // --- data ---------------------------------------------------------------------------------
  //! uniform, one-bin, zipf, image, hot (the first is the default).
  static std::vector<std::string> dist_names();
  //! Help text of --dist.
  static std::string dist_help();
  //! Every histogram is exact (integer counts), so no separate exact input is needed.
  static std::string exact_dist() { return "uniform"; }
  //! What the exact data is, for reports.
  static const char* exact_dist_help() { return "integer counts: every bin compared for equality"; }
  //! Every distribution gives exact answers.
  static bool is_exact_dist(const std::string&) { return true; }
  //! Every sample type gives exact answers.
  static bool exact_on_any_data(DType, const Config&) { return true; }
  //! n samples of `type` (uint8, int or float) from `dist` with `seed` (fill_histogram_input).
  //! @throws UsageError for a range the sample type cannot bin (see make_bin_map)
  static std::vector<unsigned char> generate(DType type, const Config& c, std::size_t n,
                                             const std::string& dist, std::uint64_t seed);
  //! The CPU histogram (reference_histogram).
  static Reference reference(DType type, const Config& c, std::vector<unsigned char>& host,
                             std::size_t n, bool exact_data);

  // --- launch -------------------------------------------------------------------------------
  //! Copies bins and range into the launch arguments.
  static void apply(const Config& c, Args& a) {
    a.bins = c.bins;
    a.lower = c.lower;
    a.upper = c.upper;
  }
  //! Before anything runs, needing no GPU: at least one bin, at most the stage's max_bins; a range
  //! the sample type can bin (lower < upper, finite; integer limits for integer samples:
  //! validate_bin_range). The shared memory the stage needs on this GPU is check_device_fit's.
  //! @throws UsageError naming the stage and what to change
  static void validate(const Stage<Histogram>& s, const Args& a);
  //! Counters are 64-bit (reported as int64).
  static DType output_type(const Stage<Histogram>&, const Args&) { return DType::i64; }
  //! One counter per bin.
  static std::size_t output_count(const Args& a) { return static_cast<std::size_t>(a.bins); }
  //! n = 0: every bin is zero.
  static void run_empty(const Stage<Histogram>& s, const Args& a);

  // --- check and report ---------------------------------------------------------------------
  //! check_histogram: every bin equal to the CPU's (the first wrong bin reported).
  static Verification check(const Stage<Histogram>& s, const Args& a, const Reference& ref,
                            const void* out, bool exact_data);
  //! Bytes one run must move: n samples read and the bins written.
  static double bytes_moved(const Args& a) {
    return static_cast<double>(a.n) * dtype_size(a.type) + 8.0 * a.bins;
  }
  //! "bytes of samples read".
  static const char* bytes_help() { return "bytes of samples read (+ the bins written)"; }
  //! One bin update per sample.
  static double operations(const Args& a) { return static_cast<double>(a.n); }
  //! "samples".
  static const char* operation_name() { return "samples"; }
  //! cub::DeviceHistogram::HistogramEven.
  static Stage<Histogram> baseline(DType type, const Config& c, const std::vector<const Stage<Histogram>*>& stages);
  //! A streaming read of the samples: a histogram reads every sample once and writes almost nothing.
  static std::vector<Ceiling> ceilings() { return {Ceiling::read}; }
  //! Why the read, for the ladder's --help and report.
  static const char* ceilings_help() {
    return "A histogram reads every sample once and writes only the bins: its ceiling is the streaming read.";
  }
};

//! stage_main for Histogram is compiled once, in histogram_problem.cpp.
extern template int stage_main<Histogram>(int, char**, const StageProgram<Histogram>&);
//! ladder_main for Histogram is compiled once, in histogram_problem.cpp.
extern template int ladder_main<Histogram>(int, char**, const LadderSpec<Histogram>&);

}  // namespace harness
