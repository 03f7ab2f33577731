#include "stage_sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>

#include "catch.hpp"
#include "cuda_check.hpp"

using namespace harness;

namespace testing_support {

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s = 0;
    if (const char* env = std::getenv("TUTORIAL_SEED")) s = std::strtoull(env, nullptr, 10);
    else s = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    std::printf("input seed %llu (set TUTORIAL_SEED=%llu to repeat)\n",
                static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
    return s;
  }();
  return seed;
}

std::vector<std::size_t> standard_sizes() {
  return {0, 1, 31, 32, 33, 1000, (std::size_t{1} << 20) + 3, std::size_t{1} << 24,
          (std::size_t{1} << 31) + 1};
}

std::vector<int> supported_blocks(const ReduceImpl& impl) {
  std::vector<int> b;
  for (int s = impl.min_block; s <= impl.max_block; s *= 2) b.push_back(s);
  return b;
}

namespace {

using Key = std::tuple<DType, Op, std::size_t, Dist, std::uint64_t>;

struct Cache {
  std::list<std::pair<Key, std::unique_ptr<ReduceSession>>> entries;  // most recent first
  std::size_t bytes = 0;
  std::unique_ptr<Stream> stream;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

ReduceSession& cached_session(DType type, Op op, std::size_t n, Dist dist, std::uint64_t seed) {
  Cache& c = cache();
  if (!c.stream) c.stream = std::make_unique<Stream>();
  const Key key{type, op, n, dist, seed};
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it) {
    if (it->first == key) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      return *c.entries.front().second;
    }
  }
  std::size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t need = n * dtype_size(type);
  while (!c.entries.empty() && c.bytes + need > total_b / 2) {
    c.bytes -= c.entries.back().second->input_bytes();
    c.entries.pop_back();
  }
  auto s = std::make_unique<ReduceSession>(ReduceSession::generate(type, op, n, dist, seed, c.stream->get()));
  c.bytes += s->input_bytes();
  c.entries.emplace_front(key, std::move(s));
  return *c.entries.front().second;
}

std::size_t sweep_stage(const ReduceImpl& impl, const Sweep& sweep) {
  const std::vector<int> blocks = supported_blocks(impl);
  std::set<std::size_t> sizes(sweep.sizes.begin(), sweep.sizes.end());
  for (int b : blocks) {
    sizes.insert(static_cast<std::size_t>(b) - 1);
    sizes.insert(static_cast<std::size_t>(b) + 1);
  }
  std::size_t runs = 0;
  for (DType type : sweep.types) {
    if (!std::count(impl.types.begin(), impl.types.end(), type)) continue;
    for (Op op : sweep.ops) {
      if (!std::count(impl.ops.begin(), impl.ops.end(), op)) continue;
      for (Dist dist : sweep.dists) {
        for (std::size_t n : sizes) {
          ReduceSession& s = cached_session(type, op, n, dist, run_seed());
          std::vector<int> bs = blocks;
          if (n >= sweep.large_from) {
            bs.clear();
            for (int b : sweep.large_blocks) bs.push_back(std::clamp(b, impl.min_block, impl.max_block));
            bs.erase(std::unique(bs.begin(), bs.end()), bs.end());
          }
          for (int block : bs) {
            INFO(impl.name << ": type " << dtype_name(type) << ", op " << op_name(op) << ", dist "
                           << dist_name(dist) << ", n " << n << ", block " << block << ", seed "
                           << run_seed());
            const ReduceArgs args = s.args_for(impl, block, 0);
            const Verification v = s.run_and_verify(impl, args);
            INFO(v.message);
            CHECK(v.ok);
            ++runs;
          }
        }
      }
    }
  }
  return runs;
}

}  // namespace testing_support
