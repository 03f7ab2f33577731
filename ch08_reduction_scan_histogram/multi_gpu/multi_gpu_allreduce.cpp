// multi_gpu_allreduce: the element-wise all-reduce of G arrays of m elements, one array per GPU.
// Afterwards every GPU holds out[i] = sum over g of in_g[i]. Two ways:
//
//  A. peer copies (one process only): GPU 0 copies every other GPU's array to itself
//     (cudaMemcpyPeerAsync), adds the G arrays element by element with a simple kernel, and copies
//     the result back to every GPU. All traffic goes through GPU 0's links, one copy at a time.
//  B. ncclAllReduce, out of place (send -> recv) and in place (recv -> recv). NCCL splits the work
//     over all GPUs and links (a ring: every GPU sends and receives 2 (G - 1) / G of the array).
//
// Reported as nccl-tests does (doc/PERFORMANCE.md): algbw = m x element size / time, and
// busbw = algbw x 2 (G - 1) / G, the bytes each GPU's link carried per second in a ring, which can
// be read against the link's peak whatever G is. The link's peak itself is not reported by the CUDA
// runtime; the program says so rather than print a number.
//
// Checked exactly on every GPU: GPU g's element i is +1 or -1 (a hash of the seed, g and i: never 0,
// so a GPU's lost contribution always changes the sum), so every sum is a small integer, exact in
// float; the CPU computes the expected array. Outputs are poisoned before each checked run (the
// in-place run starts from a fresh copy of the input).
//
// Built twice from this file: multi_gpu_allreduce (one process drives every GPU) and, with MPI,
// multi_gpu_allreduce_mpi (one process per GPU; way A is skipped there). Exit codes as
// multi_gpu_reduce: 0 pass, 1 fail, 2 bad flags, 77 no GPU (or too few, with --skip-missing-gpus).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
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
#include "report.hpp"
#include "session.hpp"
#include "sharding.hpp"

namespace {

constexpr const char* kProgram = TUTORIAL_HAVE_MPI ? "multi_gpu_allreduce_mpi" : "multi_gpu_allreduce";

struct Options {
  std::string n_text = "2^24";     // --n: elements per GPU
  std::vector<std::string> sizes;  // --sizes: several m (replaces --n)
  int gpus = 0;                    // --gpus (0: all visible; with MPI: the number of processes)
  std::string type = "float";      // --type
  int iters = 20;                  // --iters
  int warmup = 5;                  // --warmup
  std::uint64_t seed = 42;         // --seed
  bool skip_missing = false;       // --skip-missing-gpus
  std::string csv, md;             // --csv, --md
};

// Element i of GPU g's array: +1 or -1 from a hash of (seed, g, i) (the repository's splitmix64; no
// zeros, as the repository's exact data),
// so any process can make any GPU's array and the expected sums.
template <class T>
T input_value(int g, std::size_t i, std::uint64_t seed) {
  const std::uint64_t h = harness::splitmix64(harness::splitmix64(seed + static_cast<std::uint64_t>(g)) + i);
  return static_cast<T>((h & 1) ? 1 : -1);
}

// One GPU's arrays: its input (never written after the upload) and the all-reduce's output.
struct GpuArrays {
  harness::DeviceBuffer send, recv;
};

struct Row {
  int gpus = 0;
  std::size_t m = 0;
  std::string method;
  harness::TimingStats t;
  bool ok = false;
};

const char* kPeer = "A: peer copies via GPU 0";
const char* kNcclOut = "B: ncclAllReduce out of place";
const char* kNcclIn = "B: ncclAllReduce in place";

// The expected result, on the CPU: the sum over all G GPUs' arrays (small integers: exact).
template <class T>
std::vector<T> expected_sums(int gpus, std::size_t m, std::uint64_t seed) {
  std::vector<T> expected(m);
  harness::parallel_chunks(m, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) {
      T s = 0;
      for (int g = 0; g < gpus; ++g) s += input_value<T>(g, i, seed);
      expected[i] = s;
    }
  });
  return expected;
}

// One team's arrays for one m, and the steps that use them: the expected sums, every local GPU's
// input and output, and (one process only) way A's landing space on GPU 0. Made by the constructor
// (the expected sums, then the upload); ways A and B, the poisoning, the comparison and the
// in-place run's fresh input are its member functions.
template <class T>
struct AllReduceRun {
  const multi_gpu::Team& team;
  const std::size_t m;
  const std::uint64_t seed;
  const harness::DType type = harness::dtype_of<T>();
  const ncclDataType_t nccl_t = multi_gpu::nccl_type(type);
  const int local = team.local_count();
  const std::size_t bytes = m * sizeof(T);
  const bool peer = team.one_process;  // way A runs (one process drives every GPU)
  const std::vector<T> expected;
  std::vector<GpuArrays> gpu;
  std::vector<harness::DeviceBuffer> landed;  // way A's landing space on GPU 0: one array for each other GPU
  std::vector<std::string> lines;             // what each comparison found, one line each

  AllReduceRun(const multi_gpu::Team& t, std::size_t elements, std::uint64_t input_seed)
      : team(t), m(elements), seed(input_seed), expected(expected_sums<T>(t.size, elements, input_seed)) {
    // Each local GPU's input and output; GPU 0 also lands the other GPUs' arrays for way A.
    for (int i = 0; i < local; ++i) {
      team.use(i);
      harness::ensure_device_memory(bytes * (2 + (i == 0 && team.one_process ? local - 1 : 0)),
                                    "GPU " + std::to_string(team.devices[static_cast<std::size_t>(i)]) + "'s arrays,");
    }
    upload_inputs();
    if (peer) {
      team.use(0);
      for (int i = 1; i < local; ++i) landed.emplace_back(bytes);
    }
  }

  // Each local GPU's input, made on the host and uploaded once.
  void upload_inputs() {
    gpu.resize(static_cast<std::size_t>(local));
    std::vector<T> host(m);
    for (int i = 0; i < local; ++i) {
      const int g = team.first_rank + i;
      harness::parallel_chunks(m, std::size_t{1} << 20, [&](std::size_t b, std::size_t e, std::size_t) {
        for (std::size_t k = b; k < e; ++k) host[k] = input_value<T>(g, k, seed);
      });
      team.use(i);
      GpuArrays& a = gpu[static_cast<std::size_t>(i)];
      a.send = harness::DeviceBuffer(bytes);
      a.recv = harness::DeviceBuffer(bytes);
      if (m > 0) harness::copy_to_device(a.send.data(), host.data(), bytes);
    }
  }

  // A. Peer copies, all on GPU 0's stream: gather, add, copy the sum back to every GPU.
  void allreduce_peer() {
    team.use(0);
    cudaStream_t s0 = team.streams[0].get();
    std::vector<const void*> arrays{gpu[0].send.data()};
    for (int i = 1; i < local; ++i) {
      CUDA_CHECK(cudaMemcpyPeerAsync(landed[static_cast<std::size_t>(i - 1)].data(), team.devices[0],
                                     gpu[static_cast<std::size_t>(i)].send.data(),
                                     team.devices[static_cast<std::size_t>(i)], bytes, s0));
      arrays.push_back(landed[static_cast<std::size_t>(i - 1)].data());
    }
    multi_gpu::sum_arrays(type, arrays.data(), local, m, gpu[0].recv.data(), s0);
    for (int i = 1; i < local; ++i)
      CUDA_CHECK(cudaMemcpyPeerAsync(gpu[static_cast<std::size_t>(i)].recv.data(),
                                     team.devices[static_cast<std::size_t>(i)], gpu[0].recv.data(), team.devices[0],
                                     bytes, s0));
  }

  // B. One ncclAllReduce per GPU, grouped (one process calling for several GPUs must group them).
  //    in_place: each GPU's recv is both input and output.
  void allreduce_nccl(bool in_place) {
    if (m == 0) return;  // nothing to reduce
    NCCL_CHECK(ncclGroupStart());
    for (int i = 0; i < local; ++i) {
      GpuArrays& a = gpu[static_cast<std::size_t>(i)];
      NCCL_CHECK(ncclAllReduce(in_place ? a.recv.data() : a.send.data(), a.recv.data(), m, nccl_t, ncclSum,
                               team.comms[static_cast<std::size_t>(i)],
                               team.streams[static_cast<std::size_t>(i)].get()));
    }
    NCCL_CHECK(ncclGroupEnd());
  }

  // Compares every local GPU's recv with the expected array; adds one line saying what was found.
  // True when every process passed.
  bool compare(const char* what) {
    team.synchronize();
    bool ok = true;
    std::ostringstream s;
    s << what << ":";
    std::vector<T> got(m);
    for (int i = 0; i < local; ++i) {
      team.use(i);
      if (m > 0)
        CUDA_CHECK(cudaMemcpy(got.data(), gpu[static_cast<std::size_t>(i)].recv.data(), bytes, cudaMemcpyDeviceToHost));
      std::size_t bad = m;
      for (std::size_t k = 0; k < m; ++k)
        if (!(got[k] == expected[k])) {
          bad = k;
          break;
        }
      s << " GPU " << team.first_rank + i;
      if (bad == m) {
        s << " ok;";
      } else {
        ok = false;
        s << " WRONG at " << bad << " (" << got[bad] << ", expected " << expected[bad] << ");";
      }
    }
    lines.push_back(s.str());
    return multi_gpu::all_processes_agree(ok);
  }

  // Poisons every recv (0xA5 bytes: no small integer in float or int) and waits, so that no run
  // can pass by finding an old result.
  void poison() {
    for (int i = 0; i < local; ++i) {
      team.use(i);
      gpu[static_cast<std::size_t>(i)].recv.fill_bytes(0xA5, team.streams[static_cast<std::size_t>(i)].get());
    }
    team.synchronize();
  }

  // The in-place run starts from a fresh copy of the input in recv.
  void restore_input() {
    for (int i = 0; i < local; ++i) {
      team.use(i);
      GpuArrays& a = gpu[static_cast<std::size_t>(i)];
      if (m > 0)
        CUDA_CHECK(cudaMemcpyAsync(a.recv.data(), a.send.data(), bytes, cudaMemcpyDeviceToDevice,
                                   team.streams[static_cast<std::size_t>(i)].get()));
    }
    team.synchronize();
  }
};

// Prints one team's block for one m: every comparison's line, each way's time and bandwidths, the verdict.
template <class T>
void print_run(const multi_gpu::Team& team, std::size_t m, const std::vector<std::string>& lines,
               const std::vector<Row>& rows, bool peer, bool ok) {
  const std::size_t bytes = m * sizeof(T);
  std::printf("\nG = %d, m = %zu %s per GPU (%zu bytes)\n", team.size, m, harness::dtype_name(harness::dtype_of<T>()),
              bytes);
  for (const std::string& l : lines) std::printf("  check %s\n", l.c_str());
  if (!peer) std::printf("  (way A needs one process driving every GPU: not run)\n");
  for (const Row& r : rows) {
    const double alg = multi_gpu::algbw_gbps(static_cast<double>(bytes), r.t.median_ms);
    std::printf("  %-32s median %9.4f ms  min %9.4f ms  algbw %8.2f GB/s  busbw %8.2f GB/s\n", r.method.c_str(),
                r.t.median_ms, r.t.min_ms, alg, multi_gpu::allreduce_busbw_gbps(alg, team.size));
  }
  std::printf("  verify:     %s\n", ok ? "PASS" : "FAIL");
}

// Runs, checks and times way A (one process only) and way B, out of place and in place, for one
// team and one m. Returns the rows (rank 0 prints).
template <class T>
std::vector<Row> run_one(const multi_gpu::Team& team, std::size_t m, const Options& o, bool print) {
  AllReduceRun<T> job(team, m, o.seed);
  bool ok = true;
  std::vector<Row> rows;
  auto timed = [&](const char* method, const std::function<void()>& op) {
    Row r;
    r.gpus = team.size;
    r.m = m;
    r.method = method;
    r.t = multi_gpu::time_team(team, op, o.warmup, o.iters);
    rows.push_back(r);
  };
  if (job.peer) {
    job.poison();
    job.allreduce_peer();
    ok = job.compare(kPeer) && ok;
    timed(kPeer, [&] { job.allreduce_peer(); });
  }
  job.poison();
  job.allreduce_nccl(false);
  ok = job.compare(kNcclOut) && ok;
  timed(kNcclOut, [&] { job.allreduce_nccl(false); });
  ok = job.compare("B: out of place, after the timed runs") && ok;
  job.restore_input();
  job.allreduce_nccl(true);
  ok = job.compare(kNcclIn) && ok;
  // Timed in place, run after run on its own output, as nccl-tests does (the values grow; the
  // time does not depend on them).
  timed(kNcclIn, [&] { job.allreduce_nccl(true); });
  for (Row& r : rows) r.ok = ok;

  if (print) print_run<T>(team, m, job.lines, rows, job.peer, ok);
  return rows;
}

// The GPUs of the one team: with MPI the number of processes; otherwise --gpus (0: all visible),
// at most kMaxArrays; 0 when --skip-missing-gpus and fewer GPUs are visible than asked.
int team_size_of(const Options& o, int visible) {
  if (multi_gpu::built_with_mpi()) return multi_gpu::mpi_team_size(o.gpus);
  const int gpus = multi_gpu::one_process_team_size(o.gpus, visible, o.skip_missing, kProgram);
  if (gpus > multi_gpu::kMaxArrays)
    throw harness::UsageError("at most " + std::to_string(multi_gpu::kMaxArrays) + " GPUs in one process");
  return gpus;
}

// Prints what runs where: the program, NCCL's version and mode, the GPUs and their links, the units.
void print_header(const Options& o, const multi_gpu::Team& team, int gpus) {
  std::printf("%s: element-wise all-reduce of %d arrays, peer copies against ncclAllReduce\n", kProgram, gpus);
  int nccl_version = 0;
  NCCL_CHECK(ncclGetVersion(&nccl_version));
  std::printf("NCCL %d, %s, NCCL_NVLS_ENABLE=0 (NVLink multicast off)\n", nccl_version,
              team.one_process && !multi_gpu::built_with_mpi() ? "one process drives every GPU"
                                                               : "one process per GPU (MPI)");
  for (int i = 0; i < team.local_count(); ++i)
    std::printf("GPU %d: %s\n", team.devices[static_cast<std::size_t>(i)],
                harness::query_device(team.devices[static_cast<std::size_t>(i)]).summary().c_str());
  if (team.one_process)
    for (const std::string& l : multi_gpu::describe_links(team.devices)) std::printf("%s\n", l.c_str());
  else
    std::printf("link peak: not reported (the CUDA runtime gives no link bandwidth, and NVML is not read here)\n");
  std::printf("values +1 or -1 (seed %llu); median of %d runs after %d warm-ups; "
              "algbw = bytes per GPU / time, busbw = algbw x 2(G-1)/G (nccl-tests), 1 GB = 1e9 B\n",
              static_cast<unsigned long long>(o.seed), o.iters, o.warmup);
}

// Prints the table of every m and way, writes it to --md and --csv, and the verdict.
template <class T>
void write_table(const Options& o, const std::vector<Row>& rows, bool ok) {
  std::vector<harness::Record> recs;
  std::vector<std::vector<std::string>> body;
  for (const Row& r : rows) {
    const double bytes = static_cast<double>(r.m) * sizeof(T);
    const double alg = multi_gpu::algbw_gbps(bytes, r.t.median_ms);
    const double bus = multi_gpu::allreduce_busbw_gbps(alg, r.gpus);
    harness::Record rec;
    rec.add("gpus", static_cast<long long>(r.gpus))
        .add("processes", static_cast<long long>(multi_gpu::process_count()))
        .add("m", static_cast<long long>(r.m))
        .add("bytes", static_cast<long long>(r.m * sizeof(T)))
        .add("type", std::string(harness::dtype_name(harness::dtype_of<T>())))
        .add("method", r.method)
        .add("median_ms", r.t.median_ms)
        .add("min_ms", r.t.min_ms)
        .add("iters", static_cast<long long>(r.t.iters))
        .add("algbw_gbps", alg)
        .add("busbw_gbps", bus)
        .add("check", std::string(r.ok ? "PASS" : "FAIL"));
    recs.push_back(rec);
    body.push_back({std::to_string(r.gpus), std::to_string(r.m), std::to_string(r.m * sizeof(T)), r.method,
                    harness::cell_text(r.t.median_ms, 4), harness::cell_text(alg, 4), harness::cell_text(bus, 4),
                    r.ok ? "PASS" : "FAIL"});
  }
  const std::string table = harness::markdown_table(
      {"G", "m per GPU", "bytes per GPU", "method", "median ms", "algbw GB/s", "busbw GB/s", "check"}, body);
  std::printf("\n%s", table.c_str());
  if (!o.md.empty()) harness::write_text_file(o.md, std::string("# ") + kProgram + "\n\n" + table);
  if (!o.csv.empty()) {
    std::ofstream f(o.csv);
    harness::write_csv(f, recs);
  }
  std::printf("\nverify:     %s (every GPU's result equals the exact element-wise sum)\n", ok ? "PASS" : "FAIL");
}

// The whole run: the team, the header, every m in turn, then the table.
template <class T>
int run(const Options& o, const std::vector<std::size_t>& sizes) {
  const int rank = multi_gpu::process_rank();
  const bool print = rank == 0;
  const int visible = multi_gpu::visible_gpus();  // NoGpuError (77) when there is none
  const int gpus = team_size_of(o, visible);
  if (gpus == 0) return harness::kExitNoGpu;
  if (!o.csv.empty()) harness::check_writable(o.csv);
  if (!o.md.empty()) harness::check_writable(o.md);

  multi_gpu::Team team = multi_gpu::built_with_mpi() ? multi_gpu::make_mpi_team() : multi_gpu::make_local_team(gpus);
  if (team.one_process) multi_gpu::enable_peer_access(team.devices);
  if (print) print_header(o, team, gpus);

  std::vector<Row> rows;
  bool ok = true;
  for (std::size_t m : sizes)
    for (const Row& r : run_one<T>(team, m, o, print)) {
      rows.push_back(r);
      ok = ok && r.ok;
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
  CLI::App app{"Element-wise all-reduce of one array per GPU: peer copies through GPU 0 against "
               "ncclAllReduce (out of place and in place); algbw and busbw as nccl-tests defines them",
               kProgram};
  app.add_option("--n", o.n_text, "Elements per GPU: 1000, 2^24, 2^28 ...")->capture_default_str();
  app.add_option("--sizes", o.sizes, "Several sizes per GPU, run in turn (replaces --n): 2^20 2^24 2^28")->expected(1, -1);
  app.add_option("--gpus", o.gpus,
                 multi_gpu::built_with_mpi() ? "GPUs: must equal the number of processes (0: that number)"
                                             : "GPUs taking part, devices 0..G-1 (0: all visible)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  app.add_option("--type", o.type, "Element type: float or int")
      ->check(CLI::IsMember({"float", "int"}))
      ->capture_default_str();
  app.add_option("--iters", o.iters, "Timed repetitions (median reported)")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs before timing")->check(CLI::Range(0, 10000))->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the inputs")->capture_default_str();
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
      if (o.sizes.empty()) sizes.push_back(harness::parse_size(o.n_text));  // UsageError -> exit 2
      for (const std::string& t : o.sizes) sizes.push_back(harness::parse_size(t));
      // Each size in turn: its expected sums and one GPU's input on the host, before any GPU is asked.
      for (std::size_t m : sizes)
        harness::ensure_host_memory(
            harness::checked_bytes(m, 2 * (o.type == "int" ? sizeof(int) : sizeof(float)),  // an expected sum and an input
                                   "--n " + std::to_string(m) + " (" + o.type + ", two arrays)"),
            "the expected sums and one GPU's input, " + std::to_string(m) + " " + o.type + " each,");
      return o.type == "int" ? run<int>(o, sizes) : run<float>(o, sizes);
    });
  }
  multi_gpu::end_processes();
  return rc;
}
