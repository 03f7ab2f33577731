//! @file launch_cost.cu
//! @brief The program launch_cost: what one kernel launch costs on this GPU, measured three ways,
//! so a reader can see where latency, not bandwidth, decides a small reduction or scan.
//!
//! An empty kernel (one block of one thread, no work) is launched and timed:
//!   - events, one launch: a CUDA event before and after ONE launch, the median of many such pairs.
//!     What it shows: the time from the first event to the second on the GPU, which is the launch's
//!     own cost plus the events' (a kernel that does nothing still takes a few microseconds
//!     here). The event timer resolves about half a microsecond (cudaEventElapsedTime: "a
//!     resolution of around 0.5 microseconds"), so one launch's time is a few ticks of it; the row
//!     "events, nothing between" shows what the two events alone read.
//!   - events, N launches on a stream: N launches back to back between one pair of events, divided
//!     by N. The GPU runs one launch after the other; if the CPU cannot enqueue them as fast as the
//!     GPU runs them, this measures the CPU (the row "host, enqueue one launch" says how fast it is).
//!   - events, a CUDA graph of N launches: the same N launches captured once into a graph and
//!     replayed with one cudaGraphLaunch, divided by N: the GPU's cost of one more kernel in a
//!     sequence, with the CPU out of the way.
//!   - on sm_90 and newer, the graph row again with the launch made a thread block cluster
//!     (cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension): 16 blocks as 16 plain blocks,
//!     as one cluster of 16 (or the most the GPU allows), and one block as a cluster of one. What it
//!     shows: what a cluster launch itself costs, beside a plain launch of the same blocks; chapter
//!     7's stage 13 (one cluster) pays it on every run.
//! A stage whose run is one kernel of a few microseconds is bounded by these numbers, not by
//! bytes: CUB's DeviceReduce launches twice above a few thousand items and DeviceScan always twice
//! (tile-state initialisation, then the scan), so at small n the number of launches decides.
//! Source: CUDA runtime API (cudaEventElapsedTime, cudaStreamBeginCapture, cudaGraphLaunch); the
//! method (many launches timed together, or a graph) as in NVIDIA's CUDA Graphs introduction.
#include <CLI/CLI.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "build_archs.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "program.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace {

//! A kernel that does nothing: what is left of a launch when the work is taken away.
__global__ void empty_kernel() {}

//! Launches the empty kernel on `blocks` blocks of one thread, as clusters of `cluster` blocks
//! (0: a plain launch, no cluster attribute), on `stream`.
void launch_empty_clusters(unsigned blocks, unsigned cluster, cudaStream_t stream) {
  cudaLaunchAttribute dim = {};
  dim.id = cudaLaunchAttributeClusterDimension;
  dim.val.clusterDim.x = cluster;
  dim.val.clusterDim.y = 1;
  dim.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(1);
  config.stream = stream;
  config.attrs = cluster ? &dim : nullptr;
  config.numAttrs = cluster ? 1 : 0;
  CUDA_CHECK(cudaLaunchKernelEx(&config, empty_kernel));
}

//! One measured row: a way of timing, what it times, and microseconds per launch.
struct Row {
  std::string method;  //!< short name, e.g. "events, one launch"
  std::string what;    //!< what the two timestamps enclose
  int launches = 0;    //!< launches per sample
  harness::TimingStats per_launch_ms;  //!< over the samples, each divided by `launches`
};

//! Launches the empty kernel `count` times on `stream`.
void launch_empty(int count, cudaStream_t stream) {
  for (int i = 0; i < count; ++i) empty_kernel<<<1, 1, 0, stream>>>();
  CUDA_CHECK_LAUNCH();
}

//! `samples` event timings (after `warmup` untimed ones) of `runs` calls of `op` between one pair of
//! events, each divided by `runs`: harness::time_on_gpu with no L2 flush, the calls enqueued one by
//! one or (with `graph`) captured once into a CUDA graph and replayed.
harness::TimingStats event_samples(const std::function<void(cudaStream_t)>& op, int runs, bool graph, int samples,
                                   int warmup, cudaStream_t stream) {
  harness::TimingOptions t;
  t.iters = samples;
  t.warmup = warmup;
  t.flush_l2 = false;
  t.runs_per_sample = runs;
  t.graph = graph;
  const harness::TimingStats stats = harness::time_on_gpu(op, t, stream, 0);
  CUDA_CHECK_LAUNCH();
  return stats;
}

//! `samples` host-clock timings of enqueueing `per_sample` launches (no wait inside the clock),
//! divided by `per_sample`: how fast the CPU can issue launches.
harness::TimingStats host_samples(int per_sample, int samples, int warmup, cudaStream_t stream) {
  std::vector<double> ms;
  for (int i = 0; i < warmup + samples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    launch_empty(per_sample, stream);
    const auto t1 = std::chrono::steady_clock::now();
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (i >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() / per_sample);
  }
  return harness::summarize_times(std::move(ms));
}

//! `v` microseconds with two digits after the point.
std::string us_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", ms * 1e3);
  return buf;
}

//! What the command line asked for.
struct Options {
  int launches = 1000;  //!< N, launches per sample of the stream and graph rows
  int samples = 51;     //!< timed samples per row
  int warmup = 5;       //!< untimed samples before each row
  std::string csv;      //!< --csv file, or empty
  std::string md;       //!< --md file, or empty
};

//! The rows every GPU has: the timer's floor, one launch, N launches on a stream and from a graph,
//! and the host's cost of enqueueing one.
std::vector<Row> launch_rows(const Options& o, cudaStream_t s) {
  std::vector<Row> rows;
  const auto nothing = [](cudaStream_t) {};
  const auto one_empty = [](cudaStream_t st) { empty_kernel<<<1, 1, 0, st>>>(); };
  rows.push_back({"events, nothing between", "two events recorded back to back: the timer's floor", 1,
                  event_samples(nothing, 1, false, o.samples, o.warmup, s)});
  rows.push_back({"events, one launch", "one empty kernel between two events", 1,
                  event_samples(one_empty, 1, false, o.samples, o.warmup, s)});
  rows.push_back({"events, N launches (stream)", "N empty kernels enqueued back to back, divided by N", o.launches,
                  event_samples(one_empty, o.launches, false, o.samples, o.warmup, s)});
  rows.push_back({"events, N launches (graph)", "one CUDA graph of N empty kernels replayed, divided by N", o.launches,
                  event_samples(one_empty, o.launches, true, o.samples, o.warmup, s)});
  rows.push_back({"host, enqueue one launch", "CPU clock around N cudaLaunchKernel calls, divided by N", o.launches,
                  host_samples(o.launches, o.samples, o.warmup, s)});
  return rows;
}

//! Thread block clusters (sm_90+, and this build's sm_90 code): the graph row with the cluster
//! attribute on the launch, added to `rows`. Returns the report's sentence about them.
std::string add_cluster_rows(std::vector<Row>& rows, const Options& o, const harness::DeviceInfo& dev, cudaStream_t s) {
  const int cc = dev.cc_major * 10 + dev.cc_minor;
  if (!(cc >= 90 && harness::build_has_code_for(cc, 900)))
    return "no cluster rows: they need sm_90 or newer and this build's sm_90 code";
  const unsigned c =
      static_cast<unsigned>(std::min(16, harness::max_cluster_blocks(reinterpret_cast<const void*>(&empty_kernel), 1)));
  const std::string cs = std::to_string(c);
  const auto plain = [c](cudaStream_t st) { launch_empty_clusters(c, 0, st); };
  const auto one_cluster = [c](cudaStream_t st) { launch_empty_clusters(c, c, st); };
  const auto cluster_of_one = [](cudaStream_t st) { launch_empty_clusters(1, 1, st); };
  rows.push_back({"events, N launches (graph), " + cs + " blocks", "the graph row with " + cs +
                  " blocks per launch, no cluster", o.launches, event_samples(plain, o.launches, true, o.samples, o.warmup, s)});
  rows.push_back({"events, N launches (graph), one cluster of " + cs, "the same " + cs +
                  " blocks launched as one thread block cluster", o.launches,
                  event_samples(one_cluster, o.launches, true, o.samples, o.warmup, s)});
  rows.push_back({"events, N launches (graph), a cluster of 1", "one block launched as a cluster of one", o.launches,
                  event_samples(cluster_of_one, o.launches, true, o.samples, o.warmup, s)});
  return "The cluster rows set the cluster dimension on the launch (cudaLaunchKernelEx); against the "
         "graph row above they show what making a launch a cluster costs.";
}

//! Prints the report (and writes it to --md) and the rows' records to --csv.
void report(const std::vector<Row>& rows, const std::string& cluster_note, const Options& o,
            const harness::DeviceInfo& dev) {
  std::vector<std::vector<std::string>> table;
  std::vector<harness::Record> records;
  for (const Row& r : rows) {
    table.push_back({r.method, r.what, std::to_string(r.launches), us_text(r.per_launch_ms.median_ms),
                     us_text(r.per_launch_ms.min_ms)});
    harness::Record rec;
    rec.add("method", r.method).add("what", r.what).add("launches_per_sample", static_cast<long long>(r.launches))
        .add("samples", static_cast<long long>(r.per_launch_ms.iters))
        .add("us_median", r.per_launch_ms.median_ms * 1e3).add("us_min", r.per_launch_ms.min_ms * 1e3)
        .add("device", dev.name);
    records.push_back(std::move(rec));
  }
  std::ostringstream out;
  out << "## What a kernel launch costs\n\n"
      << "- device: " << dev.summary() << "\n"
      << "- an empty kernel (1 block, 1 thread); N = " << o.launches << "; median and min of " << o.samples
      << " samples after " << o.warmup << " warm-up\n"
      << "- timer: CUDA events resolve about 0.5 us (cudaEventElapsedTime), so a single launch is a few "
         "ticks; the N-launch rows divide one long interval by N\n\n"
      << harness::markdown_table({"method", "what is timed", "launches per sample", "us per launch (median)", "us (min)"},
                                 table)
      << "\nThe graph row is what each extra kernel in a sequence costs the GPU; the one-launch row is what a "
         "program that launches once and waits sees. A stage that runs in one launch instead of two saves "
         "about one graph row per run; below the size where a run takes a few of these, launches decide. "
      << cluster_note << "\n";
  std::cout << out.str();
  if (!o.md.empty()) harness::write_text_file(o.md, out.str());
  if (!o.csv.empty()) {
    std::ostringstream os;
    harness::write_csv(os, records);
    harness::write_text_file(o.csv, os.str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"launch_cost: what one kernel launch costs on this GPU: an empty kernel timed with events around "
               "one launch, N launches on a stream, and N launches replayed from a CUDA graph (microseconds per "
               "launch)",
               "launch_cost"};
  Options o;
  app.add_option("--launches", o.launches, "Launches per sample for the stream and graph rows (N)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--samples", o.samples, "Timed samples per row (median and min reported)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed samples before each row")->check(CLI::Range(0, 10000))->capture_default_str();
  app.add_option("--csv", o.csv, "Write the rows as CSV to this file");
  app.add_option("--md", o.md, "Write the Markdown report to this file");
  if (auto rc = harness::parse_flags(app, argc, argv)) return *rc;

  return harness::run_program("launch_cost", [&]() -> int {
    for (const std::string* path : {&o.csv, &o.md})
      if (!path->empty()) harness::check_writable(*path);
    const harness::DeviceInfo dev = harness::query_device();
    harness::Stream stream;
    std::vector<Row> rows = launch_rows(o, stream.get());
    const std::string cluster_note = add_cluster_rows(rows, o, dev, stream.get());
    report(rows, cluster_note, o, dev);
    return 0;
  });
}
