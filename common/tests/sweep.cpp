#include "sweep.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>

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
  return {0, 1, 31, 32, 33, 1000, (std::size_t{1} << 20) + 3, std::size_t{1} << 24};
}

std::size_t& skipped_runs() {
  static std::size_t n = 0;
  return n;
}

std::size_t& checked_runs() {
  static std::size_t n = 0;
  return n;
}

bool fits_device_memory(std::size_t need, const std::string& what, std::string& why) {
  std::size_t free_b = 0, total_b = 0;
  harness::device_memory(free_b, total_b);
  // What the caches hold now can be given back: count it as free.
  if (need <= free_b + cached_bytes()) return true;
  why = std::string(harness::kCannotRunHere) + ": an input of " + what + " with its output and workspace needs " +
        harness::bytes_text(need) + ", and this GPU has " + harness::bytes_text(free_b) + " free of " +
        harness::bytes_text(total_b);
  return false;
}

std::size_t cache_budget_bytes() {
  static const std::size_t budget = [] {
    std::size_t free_b = 0, total_b = 0;
    harness::device_memory(free_b, total_b);
    return free_b / 2;  // of what is free when the test starts: another program may hold the rest
  }();
  return budget;
}

namespace {
std::vector<const CacheHandle*>& caches() {
  static std::vector<const CacheHandle*> v;
  return v;
}
}  // namespace

void register_cache(const CacheHandle* handle) { caches().push_back(handle); }

std::size_t cached_bytes() {
  std::size_t bytes = 0;
  for (const CacheHandle* h : caches()) bytes += h->held();
  return bytes;
}

void clear_other_caches(const CacheHandle* keep) {
  for (const CacheHandle* h : caches())
    if (h != keep) h->clear();
}

}  // namespace testing_support
