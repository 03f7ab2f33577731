// GPU test support shared by every chapter and problem: run a stage over sizes, block sizes, types,
// settings and data, on poisoned outputs, and check it with the problem's check (exact equality on
// exact data; the depth bound, or "not checked", on random floats).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <iterator>
#include <list>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "run_counts.hpp"
#include "session.hpp"

namespace testing_support {

//! The seed of this test run: TUTORIAL_SEED from the environment, else fresh from random_device
//! (printed once, so a failure can be reproduced).
std::uint64_t run_seed();

//! The awkward sizes every stage is tested on: 0, 1, 31, 32, 33, 1000, 2^20+3, 2^24 (sweep adds
//! block - 1 and block + 1 for every block size). Past 2^31 see kPast2e31 and past_2e31().
std::vector<std::size_t> standard_sizes();

//! The size past 2^31 every stage family is tested on, 2^31 + 1 elements: a 32-bit element index
//! wraps there.
inline constexpr std::size_t kPast2e31 = (std::size_t{1} << 31) + 1;

//! Device memory the cached inputs of every problem together may use before the oldest are
//! dropped: half of what was free when the test program first asked (the whole device's half when
//! nothing else runs).
std::size_t cache_budget_bytes();

//! One problem's cache of sessions as the process-wide budget sees it: the device bytes it holds,
//! and a way to empty it.
struct CacheHandle {
  std::function<std::size_t()> held;
  std::function<void()> clear;
};

//! Registers a problem's cache (once, when cached_session<P> first runs), so that one budget covers
//! the caches of every problem in the process: a test program that sweeps reductions, then scans,
//! then histograms must not keep the first two problems' inputs while the third needs the room.
void register_cache(const CacheHandle* handle);

//! Device bytes held by every registered cache.
std::size_t cached_bytes();

//! Empties every registered cache but `keep` (a caller's own cache is trimmed oldest first instead).
void clear_other_caches(const CacheHandle* keep);

//! Whether this GPU has room for `need` bytes (an input, its output and workspace), counting what
//! the cached inputs hold as free (they can be dropped): its free memory as harness::device_memory
//! counts it, so TUTORIAL_DEVICE_LIMITS=memory=16GB lowers it. Otherwise false and `why` says so.
bool fits_device_memory(std::size_t need, const std::string& what, std::string& why);

//! Every power-of-two block size `stage` supports.
template <class P>
std::vector<int> supported_blocks(const harness::Stage<P>& stage) {
  std::vector<int> b;
  for (int s = stage.min_block; s <= stage.max_block; s *= 2) b.push_back(s);
  return b;
}

//! What to sweep.
template <class P>
struct Sweep {
  std::vector<harness::DType> types{harness::DType::f32, harness::DType::f64, harness::DType::i32};
  std::vector<typename P::Config> configs{typename P::Config{}};  //!< the problem's settings
  std::vector<std::string> dists{P::dist_names().front(), P::exact_dist()};
  std::vector<std::size_t> sizes = standard_sizes();  //!< plus block-1 and block+1 for every block
  std::size_t large_from = std::size_t{1} << 24;      //!< from here on only `large_blocks` run
  std::vector<int> large_blocks;                      //!< (clamped to the stage's range); empty: the stage's default block
  std::vector<std::uint64_t> seeds;                   //!< input seeds; empty: run_seed() alone
  bool block_edges = true;  //!< also run every supported block size - 1 and + 1 elements
  //! The self-test of the checks: every run must be reported as FAILED (a deliberately broken
  //! stage), and large sizes are never skipped.
  bool expect_failure = false;
};

//! The default run's case past 2^31: n = 2^31 + 1 of `type` (float unless said otherwise), exact data
//! (every partial result exact: equality), the problem's default settings, the stage's default block
//! (sweep also runs the small sizes block +- 1). One input per test program: cached_session shares it between
//! the stages of a family, so each family costs one 2^31 + 1 input, not one per stage.
template <class P>
Sweep<P> past_2e31(harness::DType type = harness::DType::f32) {
  Sweep<P> s;
  s.types = {type};
  s.dists = {P::exact_dist()};
  s.sizes = {kPast2e31};
  return s;
}

//! The exhaustive case past 2^31 (CTest label `long`): n = 2^31 + 1 of every type, on both the
//! default and the exact data, the problem's default settings, the stage's default block.
template <class P>
Sweep<P> past_2e31_every_type() {
  Sweep<P> s;
  s.sizes = {kPast2e31};
  return s;
}

//! A session (input on the device + reference) for this key, kept while the cached sessions of every
//! problem together use at most cache_budget_bytes(), so that consecutive stages share the large
//! inputs. A session holds its input and, once stages ran on it, an output and a workspace that can
//! be as large again each (a scan's n outputs; a broken scan's copy of the input): a new input of b
//! bytes is given room for 3b, and the cached sessions count with everything they hold now.
template <class P>
harness::Session<P>& cached_session(harness::DType type, const typename P::Config& config, std::size_t n,
                                    const std::string& dist, std::uint64_t seed) {
  using Key = std::tuple<harness::DType, std::string, std::size_t, std::string, std::uint64_t>;
  struct Cache {
    std::list<std::pair<Key, std::unique_ptr<harness::Session<P>>>> entries;  // most recent first
    harness::Stream stream;
  };
  static Cache c;
  static const CacheHandle* self = [] {
    static CacheHandle h{[] {
                           std::size_t bytes = 0;
                           for (const auto& e : c.entries) bytes += e.second->device_bytes();
                           return bytes;
                         },
                         [] { c.entries.clear(); }};
    register_cache(&h);
    return &h;
  }();
  const Key key{type, P::describe(config), n, dist, seed};
  for (auto it = c.entries.begin(); it != c.entries.end(); ++it) {
    if (it->first == key) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      return *c.entries.front().second;
    }
  }
  // Room for the new input under the one budget: this problem's oldest sessions go first, then
  // the other problems' caches (an earlier test case's inputs, which this one will not ask for).
  // A small input (at most 1/64 of the budget) pushes out only other small ones: on a GPU whose
  // budget is below one 2^31 + 1 input (a 15 GB card), the large input that every stage of a family
  // shares would otherwise go each time a stage's small sizes run, and be filled again per stage.
  const std::size_t need = 3 * n * harness::dtype_size(type);
  const std::size_t small = cache_budget_bytes() / 64;
  const auto over = [&] { return cached_bytes() + need > cache_budget_bytes(); };
  if (need <= small) {
    // Only when that brings the total under the budget (else the large sessions alone are over it,
    // and a small input is allowed over it too), oldest first, and never the most recent session,
    // which a caller may still hold beside the new one.
    std::size_t small_bytes = 0;
    for (auto it = std::next(c.entries.begin(), c.entries.empty() ? 0 : 1); it != c.entries.end(); ++it)
      if (it->second->device_bytes() <= small) small_bytes += it->second->device_bytes();
    if (cached_bytes() - small_bytes + need <= cache_budget_bytes()) {
      for (auto it = c.entries.end(); it != c.entries.begin() && over();) {
        --it;
        if (it != c.entries.begin() && it->second->device_bytes() <= small) it = c.entries.erase(it);
      }
    }
  } else {
    while (!c.entries.empty() && over()) c.entries.pop_back();
    if (over()) clear_other_caches(self);
  }
  auto s = std::make_unique<harness::Session<P>>(
      harness::Session<P>::generate(type, config, n, dist, seed, c.stream.get()));
  c.entries.emplace_front(key, std::move(s));
  return *c.entries.front().second;
}

//! What one sweep has done so far: its runs and skips, whether a run failed, and what it has WARNed.
struct SweepTally {
  std::size_t runs = 0;      //!< runs checked
  std::size_t skipped = 0;   //!< runs this GPU could not make
  bool failed = false;       //!< a run failed its check
  bool said_skip = false;    //!< the skip of the large sizes after a failure was WARNed
  bool said_device = false;  //!< a skip for this GPU was WARNed
  //! Counts a run this GPU cannot make; WARNs the first reason (once per sweep), never fails.
  void skip_for_device(const std::string& why) {
    if (!said_device) WARN("skipped on this GPU: " << why);
    said_device = true;
    ++skipped;
  }
};

//! Whether this GPU and build run `stage` at all (a stage that needs sm_90, say): if not, a WARN with
//! the reason, as the sweeps give it, and the caller skips the checks that need a launch. Asks
//! device_refusal about one element of `type` at block 256.
template <class P>
bool runs_here(const harness::Stage<P>& stage, harness::DType type = harness::DType::f32) {
  typename P::Args a;
  a.type = type;
  a.block = 256;
  a.n = 1;
  const std::string why = harness::device_refusal(stage, a, harness::current_device_limits());
  if (!why.empty()) WARN(stage.name << " skipped on this GPU: " << why);
  return why.empty();
}

//! The blocks a sweep runs `stage` at for n elements: `blocks` (every block it supports) below
//! sw.large_from; from there sw.large_blocks clamped to its range, else its default block on this GPU.
template <class P>
std::vector<int> sweep_blocks(const harness::Stage<P>& stage, const Sweep<P>& sw, const std::vector<int>& blocks,
                              harness::DType type, const typename P::Config& config, std::size_t n) {
  if (n < sw.large_from) return blocks;
  std::vector<int> bs;
  for (int b : sw.large_blocks) bs.push_back(std::clamp(b, stage.min_block, stage.max_block));
  if (bs.empty()) {
    typename P::Args a;
    a.type = type;
    a.n = n;
    P::apply(config, a);
    bs.push_back(harness::default_block_of(stage, a, harness::current_device_limits()));
  }
  bs.erase(std::unique(bs.begin(), bs.end()), bs.end());
  return bs;
}

//! Runs `stage` at each of `bs` on one input (type, settings, dist, n, seed), made (or taken from
//! the cache) at the first block the stage accepts and this GPU fits, and CHECKs each result
//! (CHECK_FALSE with sw.expect_failure). A block the stage refuses is passed over (its refusal is
//! tested elsewhere); what this GPU cannot run is skipped (SweepTally::skip_for_device).
template <class P>
void sweep_input(const harness::Stage<P>& stage, const Sweep<P>& sw, const std::vector<int>& bs, harness::DType type,
                 const typename P::Config& config, const std::string& dist, std::size_t n, std::uint64_t seed,
                 SweepTally& tally) {
  harness::Session<P>* s = nullptr;
  for (int block : bs) {
    typename P::Args probe;
    probe.type = type;
    probe.n = n;
    probe.block = block;
    P::apply(config, probe);
    try {
      harness::validate_config(stage, probe);
    } catch (const harness::UsageError&) {
      continue;  // a setting or size this stage does not take (its refusal is tested elsewhere)
    }
    try {
      harness::check_device_fit(stage, probe, harness::current_device_limits());
    } catch (const harness::UnsupportedError& e) {
      tally.skip_for_device(e.what());
      continue;
    }
    if (!s) {
      // The input, this stage's output and its workspace: what one run needs on the device.
      const std::size_t need = n * harness::dtype_size(type) +
                               P::output_count(probe) * harness::dtype_size(P::output_type(stage, probe)) +
                               harness::workspace_of(stage, probe);
      std::string why;
      if (!fits_device_memory(need, std::to_string(n) + " " + harness::dtype_name(type), why)) {
        tally.skip_for_device(stage.name + ", n = " + std::to_string(n) + ": " + why);
        break;
      }
      s = &cached_session<P>(type, config, n, dist, seed);
    }
    INFO(stage.name << " (" << stage.label << "): type " << harness::dtype_name(type) << ", "
                    << P::describe(config) << ", dist " << dist << ", n " << n << ", block " << block
                    << ", seed " << seed);
    harness::Verification v;
    try {
      v = s->run_and_check(stage, s->args_for(stage, block, 0));
    } catch (const harness::UnsupportedError& e) {  // e.g. the output past the free memory
      tally.skip_for_device(e.what());
      continue;
    }
    INFO(harness::check_name(v.kind) << ": " << v.message);
    if (sw.expect_failure) CHECK_FALSE(v.ok);
    else CHECK(v.ok);
    tally.failed = tally.failed || !v.ok;
    ++tally.runs;
  }
}

//! Runs `stage` over the sweep and CHECKs every result; returns the number of runs. Once a run has
//! failed, the sizes from `large_from` on are skipped: the small sizes already show what is wrong,
//! and the large inputs (2^31 + 1 elements: gigabytes, seconds each) would only make an unsolved
//! exercise's test take minutes to say so. A stage that passes runs every size. With
//! `expect_failure` (the self-test) every run must fail its check instead, and every size runs.
template <class P>
std::size_t sweep(const harness::Stage<P>& stage, const Sweep<P>& sw = {}) {
  const std::vector<int> blocks = supported_blocks(stage);
  std::set<std::size_t> sizes(sw.sizes.begin(), sw.sizes.end());
  for (int b : blocks) {
    if (!sw.block_edges) break;
    sizes.insert(static_cast<std::size_t>(b) - 1);
    sizes.insert(static_cast<std::size_t>(b) + 1);
  }
  SweepTally tally;
  const std::vector<std::uint64_t> seeds = sw.seeds.empty() ? std::vector<std::uint64_t>{run_seed()} : sw.seeds;
  for (harness::DType type : sw.types) {
    if (!std::count(stage.types.begin(), stage.types.end(), type)) continue;
    for (const auto& config : sw.configs)
      for (const std::string& dist : sw.dists)
        for (std::size_t n : sizes)
          for (std::uint64_t seed : seeds) {
            if (tally.failed && !sw.expect_failure && n >= sw.large_from) {
              if (!tally.said_skip)
                WARN(stage.name << ": it failed at smaller sizes, so the sweep skips the sizes from " << sw.large_from
                                << " on (they take seconds each and would add nothing)");
              tally.said_skip = true;
              continue;
            }
            sweep_input(stage, sw, sweep_blocks(stage, sw, blocks, type, config, n), type, config, dist, n, seed,
                        tally);
          }
  }
  checked_runs() += tally.runs;
  skipped_runs() += tally.skipped;
  // A sweep this GPU could not run at all counts its skips, so that `CHECK(sweep(...) > 0)` (which
  // catches a sweep that reached nothing) does not fail for it; the skips were WARNed, and
  // gpu_test_main reports them (and exits as skipped when nothing else ran).
  return tally.runs > 0 ? tally.runs : tally.skipped;
}

//! Runs every stage of `stages` over the sweep, one input at a time: for each (type, settings,
//! distribution) every stage runs before the next input is made. sweep(stage) per stage would make
//! every input again for every stage once the cache cannot hold them all (six inputs past 2^31 of
//! 8-17 GB each: one per type and distribution), and making one takes seconds. CHECKs that every
//! stage ran at least once (a stage no input reached would pass vacuously); an exception from one
//! stage's sweep fails the check and the others go on. Returns the number of runs of each stage, in
//! the order of `stages`.
template <class P>
std::vector<std::size_t> sweep_each_input(const std::vector<harness::Stage<P>>& stages, const Sweep<P>& sw) {
  std::vector<std::size_t> runs(stages.size(), 0);
  for (harness::DType type : sw.types) {
    for (const auto& config : sw.configs) {
      for (const std::string& dist : sw.dists) {
        Sweep<P> one = sw;
        one.types = {type};
        one.configs = {config};
        one.dists = {dist};
        for (std::size_t i = 0; i < stages.size(); ++i) {
          try {
            runs[i] += sweep(stages[i], one);
          } catch (const std::exception& e) {  // as CHECK(sweep(...)) would: report it, go on
            FAIL_CHECK(stages[i].name << ": " << e.what());
          }
        }
      }
    }
  }
  for (std::size_t i = 0; i < stages.size(); ++i) {
    INFO(stages[i].name << ": no run in the sweep");
    CHECK(runs[i] > 0);
  }
  return runs;
}

}  // namespace testing_support
