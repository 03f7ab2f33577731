//! @file lost_elements.hpp
//! @brief The bugs the self-test plants in a correct kernel to prove that the checks see every
//! element: which input elements a broken kernel loses. Shared by the broken reduction, scan and
//! histogram (common/reduce/broken_reduce.cuh, common/scan/broken_scan.hpp,
//! common/histogram/broken_histogram.cuh), so that the three problems are broken the same way.
//!
//! These are the bugs real kernels have at their edges: a loop that starts one element late, one
//! that stops one element early, a vector loop whose scalar remainder (up to three elements for
//! float4) is forgotten, and an off-by-one at every block boundary, shown here at three blocks.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace harness {

//! Which input elements a broken kernel loses.
enum class Lost {
  first,         //!< element 0 is never read ("skip-first")
  last,          //!< element n - 1 is never read, nor (scan) its output written ("drop-last")
  last_three,    //!< elements n - 3, n - 2, n - 1 likewise ("drop-last-3")
  block_firsts,  //!< the first element of three blocks is never read ("skip-block-firsts")
};

//! The command-line names, in the order of the enum: skip-first, drop-last, drop-last-3,
//! skip-block-firsts.
inline std::vector<std::string> lost_names() {
  return {"skip-first", "drop-last", "drop-last-3", "skip-block-firsts"};
}

//! Calls `f(std::integral_constant<Lost, L>{})` for the run-time bug `lost` and returns what it
//! returns, so that a broken stage can pick its launch, a template over the bug, as a plain function.
template <class F>
decltype(auto) with_lost(Lost lost, F&& f) {
  switch (lost) {
    case Lost::last: return f(std::integral_constant<Lost, Lost::last>{});
    case Lost::last_three: return f(std::integral_constant<Lost, Lost::last_three>{});
    case Lost::block_firsts: return f(std::integral_constant<Lost, Lost::block_firsts>{});
    case Lost::first: break;
  }
  return f(std::integral_constant<Lost, Lost::first>{});
}

//! What a broken stage with bug `lost` does, for its label: "skips the first element", "drops the
//! last three samples", ... (`noun`: "element" or "sample").
inline std::string lost_label(Lost lost, const std::string& noun) {
  switch (lost) {
    case Lost::first: return "skips the first " + noun;
    case Lost::last: return "drops the last " + noun;
    case Lost::last_three: return "drops the last three " + noun + "s";
    case Lost::block_firsts: return "skips the first " + noun + " of three blocks";
  }
  return "";
}

//! What a broken kernel reads: elements [begin, end) except the (up to three) `skipped` ones.
//! Built on the host by lost_elements() and passed to the kernel by value.
struct LostElements {
  std::size_t begin = 0;          //!< first element read
  std::size_t end = 0;            //!< one past the last element read (and, for a scan, written)
  std::size_t skipped[3] = {0, 0, 0};  //!< elements inside [begin, end) that are not read
  int num_skipped = 0;            //!< how many of `skipped` are used

  //! True when element i is read (counted) by the broken kernel.
  __host__ __device__ bool reads(std::size_t i) const {
    if (i < begin || i >= end) return false;
    for (int k = 0; k < num_skipped; ++k)
      if (i == skipped[k]) return false;
    return true;
  }
};

//! The elements a kernel with bug `lost` loses from n elements processed in blocks of `block`
//! elements. For block_firsts, the first elements of blocks 1, blocks/2 and blocks - 1 (three
//! distinct blocks once n >= 4 * block; below that, elements 1, n/2 and n - 1, distinct for n >= 4).
//! @param[in] lost the bug
//! @param[in] n number of elements (> 0)
//! @param[in] block elements per block (> 0)
inline LostElements lost_elements(Lost lost, std::size_t n, std::size_t block) {
  LostElements e;
  e.end = n;
  switch (lost) {
    case Lost::first: e.begin = n > 0 ? 1 : 0; break;
    case Lost::last: e.end = n > 0 ? n - 1 : 0; break;
    case Lost::last_three: e.end = n > 3 ? n - 3 : 0; break;
    case Lost::block_firsts: {
      const std::size_t tile = n >= 4 * block ? block : 1;
      const std::size_t tiles = (n + tile - 1) / tile;
      const std::size_t picks[3] = {1, tiles / 2, tiles - 1};
      for (std::size_t t : picks) {
        const std::size_t i = t * tile;
        bool seen = i >= n;
        for (int k = 0; k < e.num_skipped; ++k) seen = seen || e.skipped[k] == i;
        if (!seen) e.skipped[e.num_skipped++] = i;
      }
      break;
    }
  }
  return e;
}

}  // namespace harness
