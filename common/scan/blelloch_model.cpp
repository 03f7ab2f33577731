#include "blelloch_model.hpp"

#include <algorithm>
#include <cstdio>

#include "errors.hpp"

namespace harness {

std::size_t blelloch_tile_for(std::size_t n) {
  std::size_t tile = 1;
  while (tile < n) tile <<= 1;
  return tile;
}

std::vector<std::string> blelloch_trace_labels(std::size_t tile) {
  std::vector<std::string> labels{"input"};
  for (std::size_t stride = 1; stride < tile; stride <<= 1)
    labels.push_back("upsweep stride " + std::to_string(stride));
  labels.push_back("clear root");
  for (std::size_t stride = tile / 2; stride > 0; stride >>= 1)
    labels.push_back("downsweep stride " + std::to_string(stride));
  return labels;
}

template <class T>
BlellochTrace blelloch_model_trace(const T* a, std::size_t n) {
  if (n == 0) throw UsageError("a Blelloch trace needs at least one element");
  BlellochTrace tr;
  tr.type = dtype_of<T>();
  tr.n = n;
  tr.tile = blelloch_tile_for(n);
  tr.labels = blelloch_trace_labels(tr.tile);
  const std::size_t tile = tr.tile;
  std::vector<T> s(tile, T(0));  // padded with the identity
  std::copy(a, a + n, s.begin());
  auto record = [&] { tr.rows.emplace_back(s.begin(), s.end()); };
  record();
  // Upsweep: the tree reduction that keeps its internal nodes.
  for (std::size_t stride = 1; stride < tile; stride <<= 1) {
    for (std::size_t k = 0; (k + 1) * 2 * stride - 1 < tile; ++k) {
      const std::size_t t = (k + 1) * 2 * stride - 1;
      s[t] += s[t - stride];
    }
    record();
  }
  // The root's carry: the sum of the (empty) sequence before the whole tile.
  s[tile - 1] = T(0);
  record();
  // Downsweep: left child gets the carry, right child gets carry + left subtree sum.
  for (std::size_t stride = tile / 2; stride > 0; stride >>= 1) {
    for (std::size_t k = 0; (k + 1) * 2 * stride - 1 < tile; ++k) {
      const std::size_t t = (k + 1) * 2 * stride - 1;
      const T carry = s[t];
      s[t] = carry + s[t - stride];
      s[t - stride] = carry;
    }
    record();
  }
  return tr;
}

namespace {

std::string format_value(DType type, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, type == DType::f64 ? "%.17g" : type == DType::f32 ? "%.9g" : "%.0f", v);
  return buf;
}

std::string format_row(DType type, const std::vector<double>& row, std::size_t count) {
  std::string s = "[";
  for (std::size_t i = 0; i < count; ++i) s += (i ? ", " : "") + format_value(type, row[i]);
  return s + "]";
}

}  // namespace

std::string format_blelloch_trace(const BlellochTrace& t) {
  const std::string last = "exclusive scan";
  std::size_t width = last.size();
  for (const std::string& l : t.labels) width = std::max(width, l.size());
  std::string out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::string& l = r < t.labels.size() ? t.labels[r] : std::string("?");
    out += l + std::string(width - l.size(), ' ') + " : " + format_row(t.type, t.rows[r], t.rows[r].size()) + "\n";
  }
  if (!t.rows.empty())
    out += last + std::string(width - last.size(), ' ') + " : " + format_row(t.type, t.rows.back(), t.n) + "\n";
  return out;
}

template BlellochTrace blelloch_model_trace<float>(const float*, std::size_t);
template BlellochTrace blelloch_model_trace<double>(const double*, std::size_t);
template BlellochTrace blelloch_model_trace<int>(const int*, std::size_t);

}  // namespace harness
