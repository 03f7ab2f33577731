// CPU reference histogram and its check (see histogram_reference.hpp).
#include "histogram_reference.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <sstream>
#include <thread>

#include "histogram_bins.cuh"
#include "histogram_sample_type.hpp"
#include "inputs.hpp"

namespace harness {

template <class T>
HistogramReference reference_histogram(const T* samples, std::size_t n, int bins, double lower,
                                       double upper) {
  // The general map, never IdentityBins: the reference is the formula itself.
  const bin_map_t<T> map = make_bin_map<T>(bins, lower, upper);
  HistogramReference ref;
  ref.counts.assign(static_cast<std::size_t>(bins), 0);
  std::mutex merge;
  // At most a few chunks per core, so that only that many private histograms exist at once.
  const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunk = std::max<std::size_t>(std::size_t{1} << 16, (n + 4 * workers - 1) / (4 * workers));
  parallel_chunks(n, chunk, [&](std::size_t b, std::size_t e, std::size_t) {
    std::vector<Count> local(static_cast<std::size_t>(bins), 0);
    Count dropped = 0;
    for (std::size_t i = b; i < e; ++i) {
      const int bin = bin_of(map, samples[i]);
      if (bin >= 0) ++local[static_cast<std::size_t>(bin)];
      else ++dropped;
    }
    std::lock_guard<std::mutex> lock(merge);
    for (std::size_t k = 0; k < local.size(); ++k) ref.counts[k] += local[k];
    ref.dropped += dropped;
  });
  ref.counted = static_cast<Count>(n) - ref.dropped;
  return ref;
}

template HistogramReference reference_histogram<unsigned char>(const unsigned char*, std::size_t, int, double, double);
template HistogramReference reference_histogram<int>(const int*, std::size_t, int, double, double);
template HistogramReference reference_histogram<float>(const float*, std::size_t, int, double, double);

HistogramReference reference_histogram(DType type, const void* samples, std::size_t n, int bins,
                                       double lower, double upper) {
  return with_sample_type(type, [&](auto t) {
    using T = decltype(t);
    return reference_histogram(static_cast<const T*>(samples), n, bins, lower, upper);
  });
}

void validate_bin_range(DType type, int bins, double lower, double upper) {
  with_sample_type(type, [&](auto t) { (void)make_bin_map<decltype(t)>(bins, lower, upper); });
}

Verification check_histogram(const Count* got, std::size_t got_bins, const HistogramReference& ref) {
  Verification v;
  v.kind = CheckKind::exact;

  Count got_total = 0;
  for (std::size_t k = 0; k < got_bins; ++k) got_total += got[k];
  std::ostringstream totals;
  totals << "total counted: got " << got_total << ", expected " << ref.counted << " ("
         << ref.dropped << " samples not counted by the reference)";
  if (got_bins != ref.counts.size()) {
    v.ok = false;
    v.first_bad = std::min(got_bins, ref.counts.size());
    v.message = "histogram has " + std::to_string(got_bins) + " bins, the reference " +
                std::to_string(ref.counts.size()) + "; " + totals.str();
    return v;
  }
  for (std::size_t k = 0; k < got_bins; ++k) {
    if (got[k] != ref.counts[k]) {
      v.ok = false;
      v.first_bad = k;
      v.got = static_cast<double>(got[k]);
      v.expected = static_cast<double>(ref.counts[k]);
      v.abs_err = std::abs(v.got - v.expected);
      std::ostringstream msg;
      msg << "bin " << k << ": got " << got[k] << ", expected " << ref.counts[k] << "; "
          << totals.str();
      v.message = msg.str();
      return v;
    }
  }
  v.ok = true;
  v.got = static_cast<double>(got_total);
  v.expected = static_cast<double>(ref.counted);
  v.message = "all " + std::to_string(got_bins) + " bins equal; " + totals.str();
  return v;
}

}  // namespace harness
