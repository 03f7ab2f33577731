// The scan problem for the generic harness, and the one instantiation of stage_main and ladder_main
// for it.
#include "scan_problem.hpp"

#include <cstdint>
#include <string>

#include "cub_scan.hpp"
#include "drivers_impl.hpp"
#include "inputs.hpp"
#include "scan_check.hpp"

namespace harness {

void Scan::add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Scan>*>&) {
  app.add_flag("--inclusive", c.inclusive,
               "Inclusive scan (out[i] includes a[i]); the default is exclusive (out[0] = 0)");
}

std::string Scan::describe(const Config& c) { return c.inclusive ? "inclusive" : "exclusive"; }

void Scan::add_columns(const Config& c, Record& r) { r.add("scan", describe(c)); }

std::vector<std::string> Scan::dist_names() { return {"signed", "uniform", "skewed", "exact"}; }

std::string Scan::dist_help() {
  return "Input distribution of the timed data: signed [-1, 1), uniform [0, 1), skewed (heavy-tailed), "
         "or exact (every element +1 or -1: no zeros, so a lost element always shows). Pass/fail is always "
         "decided on exact data";
}

const char* Scan::exact_dist_help() { return "every element +1 or -1 with random signs, so no element is zero; every prefix exact in any data-independent order"; }

std::vector<unsigned char> Scan::generate(DType type, const Config&, std::size_t n, const std::string& dist,
                                          std::uint64_t seed) {
  return generate_bytes(type, n, dist, seed);
}

Scan::Reference Scan::reference(DType type, const Config&, std::vector<unsigned char>& host, std::size_t n,
                                bool exact_data) {
  if (exact_data) require_exact_data(type, host.data(), n);
  return ScanReference{std::move(host)};
}

void Scan::validate(const Stage<Scan>& s, const Args& a) {
  if (a.inclusive ? !s.caps.inclusive : !s.caps.exclusive)
    throw UsageError(s.name + ": " + (a.inclusive ? "inclusive" : "exclusive") + " scans are not supported");
  if (a.in && a.out && a.n > 0) {
    const auto in = reinterpret_cast<std::uintptr_t>(a.in), out = reinterpret_cast<std::uintptr_t>(a.out);
    const std::uintptr_t bytes = a.n * dtype_size(a.type);
    const bool overlap = in < out + bytes && out < in + bytes;
    if (overlap && !(s.caps.in_place && in == out))
      throw UsageError(s.name + ": the output overlaps the input, and this stage cannot scan in place "
                       "(it reads elements after others are written): give it a separate output buffer" +
                       std::string(s.caps.in_place ? " or the input itself" : ""));
  }
  if (s.caps.max_n && a.n > s.caps.max_n(a.block)) {
    std::string m = s.name + ": n = " + std::to_string(a.n) + " is more than one block of " +
                    std::to_string(a.block) + " threads scans (at most " + std::to_string(s.caps.max_n(a.block)) + ")";
    if (s.caps.larger_n_stage) m += std::string("; ") + s.caps.larger_n_stage + " scans any n";
    throw UsageError(m);
  }
}

Verification Scan::check(const Stage<Scan>& s, const Args& a, const Reference& ref, const void* out,
                         bool exact_data) {
  const double depth = s.depth ? s.depth(a) : static_cast<double>(a.n);
  return check_scan(a.type, ref.input.data(), out, a.n, a.inclusive, exact_data, depth);
}

Stage<Scan> Scan::baseline(DType, const Config&, const std::vector<const Stage<Scan>*>&) { return cub_scan_stage(); }

template int stage_main<Scan>(int, char**, const StageProgram<Scan>&);
template int ladder_main<Scan>(int, char**, const LadderSpec<Scan>&);

}  // namespace harness
