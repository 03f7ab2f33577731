//! @file blelloch_model.hpp
//! @brief A step-by-step host model of the chapter's Blelloch block scan (section 8.7), and the
//! trace format it shares with the GPU's `scan_block_blelloch --trace`, so that exercise 3
//! ([1, 2, 3, 4] -> [0, 1, 3, 6]) can be checked level by level against both.
//!
//! The model performs exactly the kernel's operations on a tile of `tile` slots (a power of two;
//! inputs shorter than the tile are padded with 0, the identity of addition):
//! - upsweep, stride = 1, 2, ..., tile/2: for every right child t = (k + 1) * 2 * stride - 1 < tile,
//!   s[t] += s[t - stride];
//! - clear root: s[tile - 1] = 0;
//! - downsweep, stride = tile/2, ..., 1: for every t as above, carry = s[t];
//!   s[t] = carry + s[t - stride]; s[t - stride] = carry.
//! A trace holds the shared array after each of these levels, preceded by the input.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "dtype.hpp"

namespace harness {

//! The shared array of a Blelloch block scan after each level.
struct BlellochTrace {
  DType type = DType::f32;               //!< element type (decides how values are printed)
  std::size_t n = 0;                     //!< input elements (the tile may be longer, padded with 0)
  std::size_t tile = 0;                  //!< slots in the shared array: the next power of two >= n
  std::vector<std::string> labels;       //!< one per row: "input", "upsweep stride 1", ...
  std::vector<std::vector<double>> rows;  //!< rows[r][i]: slot i after step r
};

//! Smallest power of two >= n (1 for n = 0).
std::size_t blelloch_tile_for(std::size_t n);

//! Labels of the trace rows of a tile, in order: "input", "upsweep stride 1", ...,
//! "upsweep stride tile/2", "clear root", "downsweep stride tile/2", ..., "downsweep stride 1".
//! 2 * log2(tile) + 2 rows.
std::vector<std::string> blelloch_trace_labels(std::size_t tile);

//! Runs the host model on `a[0..n)`, recording every level.
//! @tparam T float, double or int (computed in T, as the GPU does)
//! @param[in] a input elements
//! @param[in] n number of elements (>= 1)
template <class T>
BlellochTrace blelloch_model_trace(const T* a, std::size_t n);

//! The trace as text: one line per row, "<label> : [v0, v1, ...]" with labels aligned, then a line
//! "exclusive scan : [...]" with the first n slots of the last row.
std::string format_blelloch_trace(const BlellochTrace& t);

}  // namespace harness
