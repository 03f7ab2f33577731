// multi_gpu_reduce: one array of n elements sharded over G GPUs and summed.
//
//  1. Shard: GPU g holds elements [offset_g, offset_g + size_g) (sharding.hpp: the first n % G
//     shards get one element more; a shard may be empty).
//  2. Reduce each shard on its own GPU with chapter 8's stage 5 (reduce_shard: the stage's own
//     two-pass launch), one partial per GPU. The GPUs work at the same time.
//  3. Combine the G partials, two ways:
//     (a) ncclAllReduce of one element: every GPU ends with the total;
//     (b) the contrast: copy the partials to GPU 0 (cudaMemcpyPeerAsync) and add them there with
//         chapter 8's second pass: only GPU 0 has the total.
//
// Checked on exact data (every element +1 or -1, the repository's `exact` distribution, whose
// every partial sum is exact): the total on every GPU must equal the CPU's exact sum. Timed with
// CUDA events after warm-up (median); with --scaling the same total n runs on G = 1, 2, ..., G
// GPUs (strong scaling) and the table gives the speedup and efficiency against G = 1.
//
// Built twice from this file: multi_gpu_reduce (one process drives every GPU) and, when CMake found
// MPI, multi_gpu_reduce_mpi (one process per GPU: mpirun -np G). Exit codes: 0 all checks passed,
// 1 a check failed or NCCL/CUDA failed, 2 bad flags (or more GPUs asked for than visible), 77 no
// GPU (or, with --skip-missing-gpus, fewer GPUs than asked).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cli.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "device_info.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "inputs.hpp"
#include "multi_gpu_kernels.hpp"
#include "nccl_team.hpp"
#include "program.hpp"
#include "reduce_reference.hpp"
#include "report.hpp"
#include "session.hpp"
#include "sharding.hpp"

namespace {

constexpr const char* kProgram = TUTORIAL_HAVE_MPI ? "multi_gpu_reduce_mpi" : "multi_gpu_reduce";

struct Options {
  std::vector<std::string> n_texts{"2^28"};  // --n as typed
  int gpus = 0;                // --gpus (0: all visible; with MPI: the number of processes)
  std::string type = "float";  // --type
  int block = 256;             // --block of stage 5
  int iters = 20;              // --iters
  int warmup = 3;              // --warmup
  std::uint64_t seed = 42;     // --seed
  bool scaling = false;        // --scaling: G = 1..gpus
  bool skip_missing = false;   // --skip-missing-gpus: exit 77 when fewer GPUs than asked
  std::string csv, md;         // --csv, --md
};

// The part of the whole array this process holds on the host: elements [offset, offset + size).
template <class T>
struct HostPart {
  std::size_t n = 0;       // elements of the whole array
  std::size_t offset = 0;  // first element held here
  std::vector<T> values;   // the elements
  long long exact_sum = 0;  // exact sum of the whole array (over all processes)
};

// Exact data: element i of the whole array is generate_value(exact, seed, i, n), so any process
// can make any part of it, and the parts agree.
template <class T>
HostPart<T> make_part(std::size_t n, std::size_t offset, std::size_t count, std::uint64_t seed) {
  HostPart<T> p;
  p.n = n;
  p.offset = offset;
  p.values.resize(count);
  T* out = p.values.data();
  harness::parallel_chunks(count, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) out[i] = harness::generate_value<T>(harness::Dist::exact, seed, offset + i, n);
  });
  // The CPU reference: proves the data exact, then sums it exactly (ints in int64; floats in
  // double, exact here because every value and partial sum is a small integer).
  harness::require_exact_data(harness::dtype_of<T>(), out, count);
  const harness::ReduceReference ref = harness::compute_reference<T>(out, count, harness::Op::sum);
  const long long mine = std::is_integral_v<T> ? ref.exact : static_cast<long long>(ref.value);
  p.exact_sum = multi_gpu::sum_over_processes(mine);
  return p;
}

// The sum of a shard as the GPU holds it: float for float, int64 for int.
template <class T>
using Partial = std::conditional_t<std::is_integral_v<T>, long long, T>;

// True when a GPU's total equals the exact sum (floats compared as doubles: both are integers).
template <class A>
bool equals_exact(A got, long long expected) {
  if constexpr (std::is_floating_point_v<A>) return static_cast<double>(got) == static_cast<double>(expected);
  else return got == expected;
}

template <class A>
std::string text_of(A v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// One GPU's buffers: its shard, stage 5's workspace, its partial and its copy of the total.
struct GpuBuffers {
  multi_gpu::Shard shard;
  harness::DeviceBuffer in, workspace, partial, total;
};

// One timed way of summing, for the table.
struct Row {
  int gpus = 0;
  std::size_t n = 0;
  std::string method;
  harness::TimingStats t;
  bool ok = false;
};

const char* kShardsOnly = "shards only (reduce_stage_5 on every GPU)";
const char* kWithNccl = "shards + ncclAllReduce";
const char* kWithPeer = "shards + peer copies to GPU 0";

// One team's buffers for one n, and the steps that use them: every local GPU's shard, stage 5's
// workspace, its partial and its total, and (one process only) the peer-copy contrast's buffers on
// GPU 0. Made by step 1 (the constructor); steps 2, 3a and 3b are its member functions.
template <class T>
struct ShardedSum {
  using A = Partial<T>;
  const multi_gpu::Team& team;
  const HostPart<T>& part;
  const int block;  // --block of stage 5
  const harness::DType type = harness::dtype_of<T>();
  const harness::DType acc = multi_gpu::partial_type(type);
  const int local = team.local_count();
  const bool peer = team.one_process;  // the peer-copy contrast runs (one process drives every GPU)
  std::vector<GpuBuffers> gpu;
  // The contrast's buffers on GPU 0: the G partials side by side, and GPU 0's total.
  harness::DeviceBuffer gathered, peer_total;
  std::vector<harness::Event> partial_ready;
  std::vector<std::string> lines;  // what each check found, one line per check

  // 1. Shard: each local GPU gets its shard of the array, uploaded from this process's part.
  ShardedSum(const multi_gpu::Team& t, const HostPart<T>& p, int block_size)
      : team(t), part(p), block(block_size), gpu(static_cast<std::size_t>(local)) {
    for (int i = 0; i < local; ++i) {
      GpuBuffers& b = gpu[static_cast<std::size_t>(i)];
      team.use(i);
      b.shard = multi_gpu::shard_of(part.n, team.size, team.first_rank + i);
      harness::ensure_device_memory(
          b.shard.size * sizeof(T) + multi_gpu::shard_workspace_bytes(type, b.shard.size, block),
          "GPU " + std::to_string(team.devices[static_cast<std::size_t>(i)]) + "'s shard,");
      b.in = harness::DeviceBuffer(b.shard.size * sizeof(T));
      b.workspace = harness::DeviceBuffer(multi_gpu::shard_workspace_bytes(type, b.shard.size, block));
      b.partial = harness::DeviceBuffer(sizeof(A));
      b.total = harness::DeviceBuffer(sizeof(A));
      if (b.shard.size > 0)
        harness::copy_to_device(b.in.data(), part.values.data() + (b.shard.offset - part.offset), b.in.bytes());
    }
    if (peer) {
      team.use(0);
      gathered = harness::DeviceBuffer(static_cast<std::size_t>(local) * sizeof(A));
      peer_total = harness::DeviceBuffer(sizeof(A));
      for (int i = 0; i < local; ++i) {
        team.use(i);
        partial_ready.emplace_back();
      }
    }
  }

  // 2. Every GPU reduces its own shard with stage 5; the launches return at once, so the GPUs run
  //    together.
  void reduce_shards() {
    for (int i = 0; i < local; ++i) {
      GpuBuffers& b = gpu[static_cast<std::size_t>(i)];
      team.use(i);
      multi_gpu::reduce_shard(type, b.in.data(), b.shard.size, b.partial.data(), b.workspace.data(), block,
                              team.streams[static_cast<std::size_t>(i)].get());
    }
  }

  // 3a. ncclAllReduce of the one partial per GPU: afterwards every GPU's `total` holds the sum.
  //     One process calling NCCL for several GPUs must group the calls (else the first call would
  //     wait forever for the others).
  void combine_nccl() {
    NCCL_CHECK(ncclGroupStart());
    for (int i = 0; i < local; ++i) {
      GpuBuffers& b = gpu[static_cast<std::size_t>(i)];
      NCCL_CHECK(ncclAllReduce(b.partial.data(), b.total.data(), 1, multi_gpu::nccl_type(acc), ncclSum,
                               team.comms[static_cast<std::size_t>(i)],
                               team.streams[static_cast<std::size_t>(i)].get()));
    }
    NCCL_CHECK(ncclGroupEnd());
  }

  // 3b. The contrast: GPU 0's stream waits until each partial is ready, copies it over, then adds
  //     the G partials in GPU order with chapter 8's second pass. Only GPU 0 gets the total.
  void combine_peer() {
    cudaStream_t s0 = team.streams[0].get();
    for (int i = 0; i < local; ++i) {
      team.use(i);
      partial_ready[static_cast<std::size_t>(i)].record(team.streams[static_cast<std::size_t>(i)].get());
    }
    team.use(0);
    for (int i = 0; i < local; ++i) {
      CUDA_CHECK(cudaStreamWaitEvent(s0, partial_ready[static_cast<std::size_t>(i)].get(), 0));
      CUDA_CHECK(cudaMemcpyPeerAsync(gathered.as<A>() + i, team.devices[0],
                                     gpu[static_cast<std::size_t>(i)].partial.data(),
                                     team.devices[static_cast<std::size_t>(i)], sizeof(A), s0));
    }
    multi_gpu::sum_partials(acc, gathered.data(), local, peer_total.data(), s0);
  }

  // Poisons every partial and total (0xA5 bytes are neither an integer float nor a plausible
  // int64), so that no check can pass by finding an old result.
  void poison() {
    for (int i = 0; i < local; ++i) {
      team.use(i);
      cudaStream_t s = team.streams[static_cast<std::size_t>(i)].get();
      gpu[static_cast<std::size_t>(i)].partial.fill_bytes(0xA5, s);
      gpu[static_cast<std::size_t>(i)].total.fill_bytes(0xA5, s);
    }
    if (peer) {
      team.use(0);
      gathered.fill_bytes(0xA5, team.streams[0].get());
      peer_total.fill_bytes(0xA5, team.streams[0].get());
    }
  }

  // The check: waits for the GPUs, then compares every GPU's total (and GPU 0's peer-copy total)
  // with the exact sum; adds one line saying what was found. True when every process passed.
  bool check() {
    team.synchronize();
    bool ok = true;
    std::ostringstream s;
    s << "ncclAllReduce total on GPU";
    for (int i = 0; i < local; ++i) {
      A got{};
      team.use(i);
      CUDA_CHECK(cudaMemcpy(&got, gpu[static_cast<std::size_t>(i)].total.data(), sizeof(A), cudaMemcpyDeviceToHost));
      const bool good = equals_exact(got, part.exact_sum);
      ok = ok && good;
      s << " " << team.first_rank + i << ": " << text_of(got) << (good ? "" : " (WRONG)") << ";";
    }
    if (peer) {
      A got{};
      team.use(0);
      CUDA_CHECK(cudaMemcpy(&got, peer_total.data(), sizeof(A), cudaMemcpyDeviceToHost));
      const bool good = equals_exact(got, part.exact_sum);
      ok = ok && good;
      s << " peer-copy total on GPU 0: " << text_of(got) << (good ? "" : " (WRONG)") << ";";
    }
    s << " exact sum " << part.exact_sum;
    lines.push_back(s.str());
    return multi_gpu::all_processes_agree(ok);
  }
};

// Prints one team's block for one n: the shards, both checks' lines, each way's time and the verdict.
template <class T>
void print_run(const multi_gpu::Team& team, std::size_t n, const std::vector<std::string>& lines,
               const std::vector<Row>& rows, bool peer, bool ok) {
  const harness::DType type = harness::dtype_of<T>();
  std::printf("\nG = %d, n = %zu %s, shards of %zu..%zu elements\n", team.size, n, harness::dtype_name(type),
              multi_gpu::shard_of(n, team.size, team.size - 1).size, multi_gpu::shard_of(n, team.size, 0).size);
  std::printf("  check (poisoned outputs):   %s\n  check (after the timed runs): %s\n", lines[0].c_str(),
              lines[1].c_str());
  if (!peer) std::printf("  (the peer-copy contrast needs one process driving every GPU: not run)\n");
  const double bytes = static_cast<double>(n) * sizeof(T);
  for (const Row& r : rows) {
    const double gbps = multi_gpu::algbw_gbps(bytes, r.t.median_ms);
    std::printf("  %-36s median %9.4f ms  min %9.4f ms  %8.1f GB/s  (%.1f GB/s per GPU)\n", r.method.c_str(),
                r.t.median_ms, r.t.min_ms, gbps, gbps / team.size);
  }
  std::printf("  verify:     %s\n", ok ? "PASS" : "FAIL");
}

// Runs, checks and times the three ways for one team and one n. Returns the rows (rank 0 prints).
template <class T>
std::vector<Row> run_one(const multi_gpu::Team& team, const HostPart<T>& part, const Options& o, bool print) {
  ShardedSum<T> sum(team, part, o.block);

  // The check on poisoned outputs: run both ways once, then compare every GPU's total with the
  // exact sum.
  sum.poison();
  sum.reduce_shards();
  sum.combine_nccl();
  if (sum.peer) sum.combine_peer();
  bool ok = sum.check();

  std::vector<Row> rows;
  auto timed = [&](const char* method, const std::function<void()>& op) {
    Row r;
    r.gpus = team.size;
    r.n = part.n;
    r.method = method;
    r.t = multi_gpu::time_team(team, op, o.warmup, o.iters);
    rows.push_back(r);
  };
  timed(kShardsOnly, [&] { sum.reduce_shards(); });
  timed(kWithNccl, [&] { sum.reduce_shards(); sum.combine_nccl(); });
  if (sum.peer) timed(kWithPeer, [&] { sum.reduce_shards(); sum.combine_peer(); });
  // The totals the last timed runs left must be right too.
  ok = sum.check() && ok;
  for (Row& r : rows) r.ok = ok;

  if (print) print_run<T>(team, part.n, sum.lines, rows, sum.peer, ok);
  return rows;
}

// The table over every G and n that ran: time, GB/s in total and per GPU, speedup and efficiency
// against G = 1 for the same n and method (where G = 1 ran).
std::vector<harness::Record> records_of(const std::vector<Row>& rows, const char* type_name, std::size_t elem_bytes,
                                        int processes) {
  std::vector<harness::Record> out;
  for (const Row& r : rows) {
    const Row* one = nullptr;
    for (const Row& q : rows)
      if (q.gpus == 1 && q.n == r.n && q.method == r.method) one = &q;
    const double gbps = multi_gpu::algbw_gbps(static_cast<double>(r.n) * elem_bytes, r.t.median_ms);
    harness::Record rec;
    rec.add("gpus", static_cast<long long>(r.gpus))
        .add("processes", static_cast<long long>(processes))
        .add("n", static_cast<long long>(r.n))
        .add("type", std::string(type_name))
        .add("method", r.method)
        .add("shard_stage", std::string(multi_gpu::kShardStage))
        .add("median_ms", r.t.median_ms)
        .add("min_ms", r.t.min_ms)
        .add("iters", static_cast<long long>(r.t.iters))
        .add("gbps", gbps)
        .add("gbps_per_gpu", gbps / r.gpus)
        .add("speedup_vs_1", one ? harness::Cell(multi_gpu::speedup(one->t.median_ms, r.t.median_ms)) : harness::Cell(std::string("")))
        .add("efficiency", one ? harness::Cell(multi_gpu::scaling_efficiency(one->t.median_ms, r.t.median_ms, r.gpus))
                               : harness::Cell(std::string("")))
        .add("check", std::string(r.ok ? "PASS" : "FAIL"));
    out.push_back(rec);
  }
  return out;
}

std::string markdown_of(const std::vector<harness::Record>& recs) {
  const std::vector<std::string> header = {"G", "n", "type", "method", "shard stage", "median ms", "GB/s",
                                           "GB/s per GPU", "speedup vs G=1", "efficiency", "check"};
  const std::vector<std::string> cols = {"gpus", "n", "type", "method", "shard_stage", "median_ms", "gbps",
                                         "gbps_per_gpu", "speedup_vs_1", "efficiency", "check"};
  std::vector<std::vector<std::string>> body;
  for (const harness::Record& r : recs) {
    std::vector<std::string> line;
    for (const std::string& c : cols) line.push_back(harness::cell_text(*r.find(c), 4));
    body.push_back(line);
  }
  return harness::markdown_table(header, body);
}

// The team sizes to run: with MPI the one team of every process; otherwise G = 1, 2, ..., G with
// --scaling, else just G. Empty when --skip-missing-gpus and fewer GPUs are visible than asked.
std::vector<int> team_sizes_of(const Options& o, int visible) {
  std::vector<int> team_sizes;
  if (multi_gpu::built_with_mpi()) {
    const int world = multi_gpu::mpi_team_size(o.gpus);
    if (o.scaling)
      throw harness::UsageError("--scaling needs the single-process program (multi_gpu_reduce); "
                                "with MPI run mpirun -np 1, 2, ... in turn");
    team_sizes.push_back(world);
  } else {
    const int gmax = multi_gpu::one_process_team_size(o.gpus, visible, o.skip_missing, kProgram);
    if (gmax == 0) return team_sizes;
    for (int g = o.scaling ? 1 : gmax; g <= gmax; ++g) team_sizes.push_back(g);
  }
  return team_sizes;
}

// Prints what runs where: the program, NCCL's version and mode, the GPUs and their links, the data.
void print_header(const Options& o, const std::vector<int>& team_sizes) {
  std::printf("%s: a sum sharded over GPUs (chapter 8's %s per GPU), combined by ncclAllReduce\n", kProgram,
              multi_gpu::kShardStage);
  int nccl_version = 0;
  NCCL_CHECK(ncclGetVersion(&nccl_version));
  std::printf("NCCL %d, %s, NCCL_NVLS_ENABLE=0 (NVLink multicast off)\n", nccl_version,
              multi_gpu::built_with_mpi() ? "one process per GPU (MPI)" : "one process drives every GPU");
  const int shown = multi_gpu::built_with_mpi() ? 1 : team_sizes.back();
  for (int d = 0; d < shown; ++d) std::printf("GPU %d: %s\n", d, harness::query_device(d).summary().c_str());
  if (!multi_gpu::built_with_mpi()) {
    std::vector<int> devs;
    for (int d = 0; d < team_sizes.back(); ++d) devs.push_back(d);
    for (const std::string& l : multi_gpu::describe_links(devs)) std::printf("%s\n", l.c_str());
  }
  std::printf("exact data (every element +1 or -1, seed %llu); block %d; median of %d runs after %d warm-ups; "
              "L2 not flushed\n",
              static_cast<unsigned long long>(o.seed), o.block, o.iters, o.warmup);
}

// The data, once per n: the whole array (one process) or this rank's shard (MPI).
template <class T>
std::vector<HostPart<T>> make_parts(const Options& o, const std::vector<std::size_t>& sizes, int rank) {
  std::vector<HostPart<T>> parts;
  for (std::size_t n : sizes) {
    if (multi_gpu::built_with_mpi()) {
      const multi_gpu::Shard s = multi_gpu::shard_of(n, multi_gpu::process_count(), rank);
      parts.push_back(make_part<T>(n, s.offset, s.size, o.seed));
    } else {
      parts.push_back(make_part<T>(n, 0, n, o.seed));
    }
  }
  return parts;
}

// Prints the strong-scaling table of every G and n, writes it to --md and --csv, and the verdict.
template <class T>
void write_table(const Options& o, const std::vector<Row>& rows, bool ok) {
  const std::vector<harness::Record> recs =
      records_of(rows, harness::dtype_name(harness::dtype_of<T>()), sizeof(T), multi_gpu::process_count());
  const std::string table = markdown_of(recs);
  std::printf("\nStrong scaling (same total n on every G; each shard summed by chapter 8's %s; GB/s = input "
              "bytes / median time, 1 GB = 1e9 B):\n\n%s",
              multi_gpu::kShardStage, table.c_str());
  if (!o.md.empty())
    harness::write_text_file(o.md, std::string("# ") + kProgram + "\n\n" + table);
  if (!o.csv.empty()) {
    std::ofstream f(o.csv);
    harness::write_csv(f, recs);
  }
  std::printf("\nverify:     %s (the total on every GPU, every G and n, equals the exact sum)\n",
              ok ? "PASS" : "FAIL");
}

// The whole run: the team sizes, the header, the data, every team on every n, then the table.
template <class T>
int run(const Options& o, const std::vector<std::size_t>& sizes) {
  const int rank = multi_gpu::process_rank();
  const bool print = rank == 0;
  const int visible = multi_gpu::visible_gpus();  // NoGpuError (77) when there is none
  const std::vector<int> team_sizes = team_sizes_of(o, visible);
  if (team_sizes.empty()) return harness::kExitNoGpu;
  if (!o.csv.empty()) harness::check_writable(o.csv);
  if (!o.md.empty()) harness::check_writable(o.md);

  if (print) print_header(o, team_sizes);
  const std::vector<HostPart<T>> parts = make_parts<T>(o, sizes, rank);

  std::vector<Row> rows;
  bool ok = true;
  for (int g : team_sizes) {
    multi_gpu::Team team = multi_gpu::built_with_mpi() ? multi_gpu::make_mpi_team() : multi_gpu::make_local_team(g);
    if (team.one_process) {
      multi_gpu::enable_peer_access(team.devices);
    }
    for (const HostPart<T>& part : parts) {
      for (const Row& r : run_one<T>(team, part, o, print)) {
        rows.push_back(r);
        ok = ok && r.ok;
      }
    }
  }

  if (print) write_table<T>(o, rows, ok);
  return ok ? 0 : harness::kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  // Before MPI or NCCL starts: NVLink multicast (NVLS) stays off. See disable_nvlink_multicast.
  multi_gpu::disable_nvlink_multicast();
  multi_gpu::start_processes(&argc, &argv);

  Options o;
  CLI::App app{"One array of n elements sharded over G GPUs: each GPU sums its shard with chapter 8's "
               "stage 5, then ncclAllReduce (and, as contrast, peer copies to GPU 0) combine the partials",
               kProgram};
  app.add_option("--n", o.n_texts, "Total elements, one or more: 1000, 2^24, 2^31+5 ...")->expected(1, -1)->capture_default_str();
  app.add_option("--gpus", o.gpus,
                 multi_gpu::built_with_mpi() ? "GPUs: must equal the number of processes (0: that number)"
                                             : "GPUs to shard over, devices 0..G-1 (0: all visible)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  app.add_option("--type", o.type, "Element type: float or int")
      ->check(CLI::IsMember({"float", "int"}))
      ->capture_default_str();
  app.add_option("--block", o.block, "Threads per block of stage 5: a power of two from 32 to 1024")
      ->check(CLI::IsMember({"32", "64", "128", "256", "512", "1024"}))
      ->capture_default_str();
  app.add_option("--iters", o.iters, "Timed repetitions (median reported)")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs before timing")->check(CLI::Range(0, 10000))->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the input generator")->capture_default_str();
  app.add_flag("--scaling", o.scaling, "Run G = 1, 2, ..., --gpus on the same n (strong scaling)");
  app.add_flag("--skip-missing-gpus", o.skip_missing,
               "Exit 77 (skipped) instead of 2 when fewer GPUs are visible than --gpus asks (for tests)");
  app.add_option("--csv", o.csv, "Write the table as CSV to this file");
  app.add_option("--md", o.md, "Write the table as Markdown to this file");
  int rc = 0;
  if (auto parsed = harness::parse_flags(app, argc, argv)) {
    rc = *parsed;
  } else {
    rc = multi_gpu::run_everywhere(kProgram, [&]() -> int {
      std::vector<std::size_t> sizes;
      for (const std::string& t : o.n_texts) sizes.push_back(harness::parse_size(t));  // UsageError -> 2
      // Every size's array stays on the host for the whole run (with MPI, only this rank's shard:
      // the whole array is the bound), before any GPU is asked.
      std::size_t host_bytes = 0;
      for (std::size_t n : sizes) {
        const std::size_t b = harness::checked_bytes(n, o.type == "int" ? sizeof(int) : sizeof(float),
                                                     "--n " + std::to_string(n) + " (" + o.type + ")");
        if (b > std::numeric_limits<std::size_t>::max() - host_bytes)
          throw harness::UsageError("--n: the sizes together are more bytes than a 64-bit size can count");
        host_bytes += b;
      }
      harness::ensure_host_memory(host_bytes, "the arrays of every --n");
      return o.type == "int" ? run<int>(o, sizes) : run<float>(o, sizes);
    });
  }
  multi_gpu::end_processes();
  return rc;
}
