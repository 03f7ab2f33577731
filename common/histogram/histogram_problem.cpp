// The histogram problem for the generic harness, and the one instantiation of stage_main and
// ladder_main for it.
#include "histogram_problem.hpp"

#include <cstdio>
#include <string>

#include "cub_histogram.hpp"
#include "cuda_check.hpp"
#include "drivers_impl.hpp"
#include "histogram_inputs.hpp"
#include "histogram_reference.hpp"
#include "histogram_sample_type.hpp"

namespace harness {

void Histogram::add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Histogram>*>& stages) {
  int most = 1;
  for (const Stage<Histogram>* s : stages) most = std::max(most, s->caps.max_bins);
  app.add_option("--bins", c.bins, "Number of bins (1 to " + std::to_string(most) +
                                    " for this program; a stage whose shared memory grows with the bins takes what fits "
                                    "this GPU, checked before any launch)")
      ->check(CLI::Range(1, most))
      ->capture_default_str();
  app.add_option("--lower", c.lower, "Lowest sample value counted (integers for int and uint8 samples)")
      ->capture_default_str();
  app.add_option("--upper", c.upper, "First value past the counted range")->capture_default_str();
  app.add_option("--hot-share", c.hot_share, "With --dist hot: the share of samples in the hottest bin")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
}

std::string Histogram::describe(const Config& c) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%d bins over [%g, %g)", c.bins, c.lower, c.upper);
  return buf;
}

void Histogram::add_columns(const Config& c, Record& r) {
  r.add("bins", static_cast<long long>(c.bins)).add("lower", c.lower).add("upper", c.upper);
}

std::vector<std::string> Histogram::dist_names() { return {"uniform", "one-bin", "zipf", "image", "hot"}; }

std::string Histogram::dist_help() {
  return "Sample distribution: uniform (every sample hashed: well mixed), one-bin (every sample in one "
         "bin), zipf (a few hot bins), image (smooth rows with noise), hot (--hot-share of the samples "
         "in one bin, the rest uniform)";
}

std::vector<unsigned char> Histogram::generate(DType type, const Config& c, std::size_t n,
                                               const std::string& dist, std::uint64_t seed) {
  HistInputSpec spec;
  spec.dist = parse_hist_dist(dist);
  spec.seed = seed;
  spec.bins = c.bins;
  spec.lower = c.lower;
  spec.upper = c.upper;
  spec.hot_share = c.hot_share;
  std::vector<unsigned char> host(n * dtype_size(type));
  with_sample_type(type, [&](auto t) {
    using T = decltype(t);
    fill_histogram_input(reinterpret_cast<T*>(host.data()), n, spec);
  });
  return host;
}

Histogram::Reference Histogram::reference(DType type, const Config& c, std::vector<unsigned char>& host,
                                          std::size_t n, bool) {
  return reference_histogram(type, host.data(), n, c.bins, c.lower, c.upper);
}

void Histogram::validate(const Stage<Histogram>& s, const Args& a) {
  if (a.bins < 1 || a.bins > s.caps.max_bins)
    throw UsageError(s.name + ": " + std::to_string(a.bins) + " bins is not supported: from 1 to " +
                     std::to_string(s.caps.max_bins) + " (what this stage's kernel counts)");
  try {
    validate_bin_range(a.type, a.bins, a.lower, a.upper);
  } catch (const UsageError& e) {
    char range[96];
    std::snprintf(range, sizeof range, " (got --lower %.17g --upper %.17g)", a.lower, a.upper);
    throw UsageError(s.name + ": " + e.what() + range);
  }
}

void Histogram::run_empty(const Stage<Histogram>&, const Args& a) {
  CUDA_CHECK(cudaMemsetAsync(a.out, 0, static_cast<std::size_t>(a.bins) * sizeof(Count), a.stream));
}

Verification Histogram::check(const Stage<Histogram>&, const Args& a, const Reference& ref, const void* out,
                              bool) {
  return check_histogram(static_cast<const Count*>(out), static_cast<std::size_t>(a.bins), ref);
}

Stage<Histogram> Histogram::baseline(DType, const Config&, const std::vector<const Stage<Histogram>*>&) {
  return cub_histogram_stage();
}

template int stage_main<Histogram>(int, char**, const StageProgram<Histogram>&);
template int ladder_main<Histogram>(int, char**, const LadderSpec<Histogram>&);

}  // namespace harness
