// GPU test support for the one-block reduction kernels with a full-tile path (chapter 7's stage 12,
// chapter 8's stage 7): a block of Block threads whose input is exactly Block x 64 bytes (four 16-byte
// vectors per thread) and 16-byte aligned loads it with no index test; every other n, or an input
// that does not start on a 16-byte boundary, takes the general loop. These checks put n on the tile
// and one element either side of it, aligned and one element past a boundary, so that both paths and
// the switch between them are run, on exact data (every element +1 or -1: equality).
#pragma once
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "reduce_problem.hpp"
#include "session.hpp"
#include "sweep.hpp"

namespace testing_support {

//! Runs `st` at blocks of 32, 256 and 1024 threads on n = tile - 1, tile and tile + 1 elements
//! (tile = Block x 64 bytes), read from a 16-byte boundary and from one element past it, on the
//! stage's own grid and on one block, for each type and operator given; every result must equal
//! the exact answer.
inline void check_full_tile_and_neighbours(const harness::Stage<harness::Reduce>& st,
                                           std::initializer_list<harness::DType> types,
                                           std::initializer_list<harness::Op> ops) {
  using namespace harness;
  for (DType type : types) {
    const std::size_t esize = dtype_size(type);
    for (Op op : ops) {
      Reduce::Config config;
      config.op = op;
      for (int block : {32, 256, 1024}) {
        const std::size_t tile = static_cast<std::size_t>(block) * 64 / esize;
        for (std::size_t n : {tile - 1, tile, tile + 1}) {
          const std::vector<unsigned char> host = Reduce::generate(type, config, n + 1, "exact", run_seed());
          DeviceBuffer dev(host.size());
          CUDA_CHECK(cudaMemcpy(dev.data(), host.data(), dev.bytes(), cudaMemcpyHostToDevice));
          for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
            std::vector<unsigned char> part(host.begin() + offset * esize, host.begin() + (offset + n) * esize);
            Session<Reduce> s(type, config, part, n, /*exact_data=*/true, nullptr);
            for (std::size_t grid : {std::size_t{0}, std::size_t{1}}) {
              ReduceArgs a = s.args_for(st, block, grid);
              a.in = static_cast<const unsigned char*>(dev.data()) + offset * esize;  // misaligned by `offset`
              const Verification v = s.run_and_check(st, a);
              INFO(st.name << ": " << dtype_name(type) << " " << op_name(op) << " block " << block << " n " << n
                           << " (tile " << tile << ") offset " << offset << " grid " << grid << ": " << v.message);
              CHECK(v.ok);
              CHECK(v.kind == CheckKind::exact);
            }
          }
        }
      }
    }
  }
}

}  // namespace testing_support
