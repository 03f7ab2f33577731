//! @file scan_problem.hpp
//! @brief The scan problem: n elements in, their n prefix sums out (exclusive or inclusive). What
//! the generic harness (Session, stage_main, ladder_main, the test sweep) needs to know about it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
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

//! Launch arguments of a scan: `out` holds n elements of the input type.
struct ScanArgs : LaunchArgs {
  bool inclusive = false;  //!< out[i] = a[0] + ... + a[i] (inclusive) or + a[i-1] (exclusive, out[0] = 0)
};

//! The CPU reference of a scan: the host input itself, which the check walks again next to the GPU
//! output (check_scan), so that no n-element reference is stored.
struct ScanReference {
  std::vector<unsigned char> input;  //!< the n input elements, as uploaded
};

//! The scan problem (chapter 8, section 8.7).
struct Scan {
  using Args = ScanArgs;            //!< launch arguments
  using Reference = ScanReference;  //!< the CPU reference
  //! What a scan stage supports beyond types and block sizes.
  struct Caps {
    bool exclusive = true;  //!< computes exclusive scans
    bool inclusive = true;  //!< computes inclusive scans
    //! Largest n the stage accepts at a block size (a single-block stage); null means any n.
    std::function<std::size_t(int block)> max_n;
    //! The stage to use for larger n, named in the refusal message.
    const char* larger_n_stage = nullptr;
    //! Scans in place (out == in) correctly. The stages take their pointers `__restrict__` and
    //! read elements after others were written, so they do not: validate() refuses an output that
    //! overlaps the input unless this is set (CUB's scan documents in-place support).
    bool in_place = false;
    // What a stage needs of the GPU (architecture, toolkit, shared memory, threads per SM) is the
    // Stage's own min_cc, unavailable, shared_bytes and device_rule (stage.hpp), checked by
    // harness::check_device_fit before any launch.
  };
  //! The run settings a scan has besides n, type, block and grid.
  struct Config {
    bool inclusive = false;  //!< --inclusive
  };

  // --- command line -------------------------------------------------------------------------
  //! Adds --inclusive.
  static void add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Scan>*>& stages);
  //! "exclusive" or "inclusive".
  static std::string describe(const Config& c);
  //! The column `scan` (exclusive or inclusive).
  static void add_columns(const Config& c, Record& r);
  //! The size rule's variant (size_rule.hpp): "exclusive" or "inclusive".
  static std::string rule_variant(const Config& c, const std::string& /*dist*/) { return describe(c); }

  // --- data ---------------------------------------------------------------------------------
  //! signed, uniform, skewed, exact (the first is the default), as for reductions.
  static std::vector<std::string> dist_names();
  //! Help text of --dist.
  static std::string dist_help();
  //! "exact": every element +-1 (harness::exact_data_limit), so every prefix is exact and a lost
  //! element shifts every later prefix.
  static std::string exact_dist() { return "exact"; }
  //! What the exact data is, for reports.
  static const char* exact_dist_help();
  //! True for "exact".
  static bool is_exact_dist(const std::string& dist) { return dist == "exact"; }
  //! Every scan, integer scans too, is decided on the exact data: the other distributions hold
  //! zeros (ints: 1 in 201 signed), and a lost zero changes no prefix.
  static bool exact_on_any_data(DType, const Config&) { return false; }
  //! n elements of `type` from `dist` with `seed`, as bytes (harness::generate_bytes).
  static std::vector<unsigned char> generate(DType type, const Config& c, std::size_t n,
                                             const std::string& dist, std::uint64_t seed);
  //! Keeps the host input for the check; with `exact_data` proves it exact first
  //! (require_exact_data).
  static Reference reference(DType type, const Config& c, std::vector<unsigned char>& host,
                             std::size_t n, bool exact_data);

  // --- launch -------------------------------------------------------------------------------
  //! Copies exclusive/inclusive into the launch arguments.
  static void apply(const Config& c, Args& a) { a.inclusive = c.inclusive; }
  //! The stage must offer the scan asked for, take this n at this block size (a one-block stage
  //! refuses more, naming the stage that handles it), and, once the buffers are set, write an output
  //! that does not overlap the input (or is the input, for a stage with Caps::in_place). Whether
  //! this GPU can run it is check_device_fit's (run_stage.hpp).
  //! @throws UsageError
  static void validate(const Stage<Scan>& s, const Args& a);
  //! The input type.
  static DType output_type(const Stage<Scan>&, const Args& a) { return a.type; }
  //! n output elements.
  static std::size_t output_count(const Args& a) { return a.n; }
  //! n = 0: nothing to write.
  static void run_empty(const Stage<Scan>&, const Args&) {}

  // --- check and report ---------------------------------------------------------------------
  //! check_scan: every element equal to the reference on exact data and for ints (the first wrong
  //! index reported); on random floats each prefix against the stage's depth bound, or "not
  //! checked" where the bound cannot tell right from wrong. A stage without a depth rule is taken at
  //! the worst case, depth n.
  static Verification check(const Stage<Scan>& s, const Args& a, const Reference& ref,
                            const void* out, bool exact_data);
  //! Bytes one run must move: n elements read and n written.
  static double bytes_moved(const Args& a) { return 2.0 * static_cast<double>(a.n) * dtype_size(a.type); }
  //! "bytes read + written".
  static const char* bytes_help() { return "bytes read + written"; }
  //! Operations per run: n additions.
  static double operations(const Args& a) { return static_cast<double>(a.n); }
  //! "FLOP".
  static const char* operation_name() { return "FLOP"; }
  //! cub::DeviceScan::ExclusiveSum or InclusiveSum.
  static Stage<Scan> baseline(DType type, const Config& c, const std::vector<const Stage<Scan>*>& stages);
  //! The device-to-device copy: it moves the same bytes a scan must.
  static std::vector<Ceiling> ceilings() { return {Ceiling::copy}; }
  //! Why the copy, for the ladder's --help and report.
  static const char* ceilings_help() {
    return "A scan reads every element and writes one result per element: its ceiling is the device-to-device "
           "copy, which moves the same bytes.";
  }
};

//! stage_main for Scan is compiled once, in scan_problem.cpp.
extern template int stage_main<Scan>(int, char**, const StageProgram<Scan>&);
//! ladder_main for Scan is compiled once, in scan_problem.cpp.
extern template int ladder_main<Scan>(int, char**, const LadderSpec<Scan>&);

}  // namespace harness
