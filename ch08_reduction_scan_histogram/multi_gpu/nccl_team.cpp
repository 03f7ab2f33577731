// The GPUs of a collective in either process mode (see nccl_team.hpp). Compiled once per program
// and mode: with TUTORIAL_HAVE_MPI=1 for the *_mpi programs.
#include "nccl_team.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "program.hpp"

#if TUTORIAL_HAVE_MPI
#include <mpi.h>
#endif

namespace multi_gpu {

void throw_nccl_error(ncclResult_t code, const char* expr, const char* file, int line) {
  std::ostringstream msg;
  msg << "NCCL error " << static_cast<int>(code) << " (" << ncclGetErrorString(code) << ") at " << file << ":"
      << line << " in `" << expr << "`";
  const char* last = ncclGetLastError(nullptr);
  if (last && *last) msg << ": " << last;
  throw std::runtime_error(msg.str());
}

void disable_nvlink_multicast() {
  // overwrite = 1: multicast must stay off even when the environment says otherwise.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
}

ncclDataType_t nccl_type(harness::DType t) {
  switch (t) {
    case harness::DType::f32: return ncclFloat32;
    case harness::DType::i32: return ncclInt32;
    case harness::DType::i64: return ncclInt64;
    default: throw harness::UsageError("no NCCL type for " + std::string(harness::dtype_name(t)));
  }
}

bool built_with_mpi() { return TUTORIAL_HAVE_MPI != 0; }

void start_processes(int* argc, char*** argv) {
#if TUTORIAL_HAVE_MPI
  MPI_Init(argc, argv);
#else
  (void)argc;
  (void)argv;
#endif
}

void end_processes() {
#if TUTORIAL_HAVE_MPI
  MPI_Finalize();
#endif
}

int run_everywhere(const char* program, const std::function<int()>& body) {
  bool threw = false;
  const int rc = harness::run_program(program, [&]() -> int {
    try {
      return body();
    } catch (...) {
      threw = true;  // run_program reports it; the Team's destructor has aborted its communicators
      throw;
    }
  });
#if TUTORIAL_HAVE_MPI
  if (threw && process_count() > 1) {
    std::fprintf(stderr, "%s: rank %d failed: stopping every rank (MPI_Abort, exit code %d)\n", program,
                 process_rank(), rc);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, rc);
  }
#endif
  (void)threw;
  return rc;
}

int process_rank() {
#if TUTORIAL_HAVE_MPI
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
#else
  return 0;
#endif
}

int process_count() {
#if TUTORIAL_HAVE_MPI
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
#else
  return 1;
#endif
}

Team::~Team() {
  const bool failing = std::uncaught_exceptions() > 0;
  for (ncclComm_t c : comms)
    if (c) failing ? ncclCommAbort(c) : ncclCommDestroy(c);
}

void Team::use(int i) const { CUDA_CHECK(cudaSetDevice(devices[static_cast<std::size_t>(i)])); }

void Team::check_async_errors() const {
  for (ncclComm_t c : comms) {
    if (!c) continue;
    ncclResult_t async = ncclSuccess;
    NCCL_CHECK(ncclCommGetAsyncError(c, &async));
    if (async != ncclSuccess && async != ncclInProgress) NCCL_CHECK(async);  // throws, naming the error
  }
}

void Team::wait(cudaEvent_t event) const {
  for (;;) {
    const cudaError_t e = cudaEventQuery(event);
    if (e != cudaErrorNotReady) {
      CUDA_CHECK(e);
      return;
    }
    check_async_errors();
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

void Team::synchronize() const {
  for (int i = 0; i < local_count(); ++i) {
    use(i);
    harness::Event done;
    done.record(streams[static_cast<std::size_t>(i)].get());
    wait(done.get());
  }
}

int visible_gpus() {
  std::string why;
  if (!harness::gpu_available(&why)) throw harness::NoGpuError(why);
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

int mpi_team_size(int asked) {
  const int world = process_count();
  if (asked != 0 && asked != world)
    throw harness::UsageError("--gpus " + std::to_string(asked) + " but " + std::to_string(world) +
                              " processes: with MPI there is one GPU per process (mpirun -np G)");
  return world;
}

int one_process_team_size(int asked, int visible, bool skip_missing, const char* program) {
  const int gpus = asked == 0 ? visible : asked;
  if (gpus <= visible) return gpus;
  const std::string why = "--gpus " + std::to_string(gpus) + " asks for more GPUs than the " +
                          std::to_string(visible) + " visible";
  if (!skip_missing) throw harness::UsageError(why);
  std::printf("%s: %s.\nNothing was run: this test needs %d GPUs (exit code %d).\n", program, why.c_str(), gpus,
              harness::kExitNoGpu);
  return 0;
}

Team make_local_team(int gpus) {
  Team t;
  t.size = gpus;
  t.first_rank = 0;
  t.one_process = true;
  for (int g = 0; g < gpus; ++g) t.devices.push_back(g);
  t.comms.assign(static_cast<std::size_t>(gpus), nullptr);
  // One call makes all G communicators: rank g uses devices[g].
  NCCL_CHECK(ncclCommInitAll(t.comms.data(), gpus, t.devices.data()));
  for (int g = 0; g < gpus; ++g) {
    t.use(g);
    t.streams.emplace_back();  // made on device g
  }
  return t;
}

Team make_mpi_team() {
#if TUTORIAL_HAVE_MPI
  Team t;
  t.size = process_count();
  t.first_rank = process_rank();
  t.one_process = t.size == 1;
  // The processes on this machine, numbered 0.. (MPI_COMM_TYPE_SHARED): one GPU each.
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, t.first_rank, MPI_INFO_NULL, &local);
  int local_rank = 0, local_size = 1;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_size(local, &local_size);
  MPI_Comm_free(&local);
  const int visible = visible_gpus();
  if (local_size > visible)
    throw harness::UsageError(std::to_string(local_size) + " processes on this machine but " + std::to_string(visible) +
                              " visible GPU(s): one GPU per process (mpirun -np " + std::to_string(visible) +
                              " or fewer per machine)");
  t.devices.push_back(local_rank);
  t.use(0);
  // Rank 0 makes the id that names this communicator; every rank must get the same bytes.
  ncclUniqueId id;
  if (t.first_rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  t.comms.assign(1, nullptr);
  NCCL_CHECK(ncclCommInitRank(&t.comms[0], t.size, id, t.first_rank));
  t.streams.emplace_back();
  return t;
#else
  throw std::logic_error("make_mpi_team: this program was built without MPI");
#endif
}

harness::TimingStats time_team(const Team& team, const std::function<void()>& op, int warmup, int iters) {
  const int local = team.local_count();
  // Events of the fork and join: start/stop on local GPU 0 (timed), one "done" per other GPU.
  team.use(0);
  harness::Event start, stop;
  std::vector<harness::Event> done;
  for (int i = 0; i < local; ++i) {
    team.use(i);
    done.emplace_back();  // made on device i, recorded on its stream
  }
  // One run between `start` and `stop`, warm-up or timed alike, so that a run never overlaps the
  // one before it on any GPU; returns its time in ms (the slowest rank's with MPI).
  auto run_once = [&] {
#if TUTORIAL_HAVE_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    team.use(0);
    start.record(team.streams[0].get());
    for (int i = 1; i < local; ++i)  // fork: every stream starts after `start`
      CUDA_CHECK(cudaStreamWaitEvent(team.streams[static_cast<std::size_t>(i)].get(), start.get(), 0));
    op();
    for (int i = 1; i < local; ++i) {  // join: GPU 0's stream waits for every other stream
      team.use(i);
      done[static_cast<std::size_t>(i)].record(team.streams[static_cast<std::size_t>(i)].get());
      team.use(0);
      CUDA_CHECK(cudaStreamWaitEvent(team.streams[0].get(), done[static_cast<std::size_t>(i)].get(), 0));
    }
    team.use(0);
    stop.record(team.streams[0].get());
    team.wait(stop.get());
    double ms = stop.elapsed_ms_since(start);
#if TUTORIAL_HAVE_MPI
    MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
    return ms;
  };
  team.synchronize();
  for (int w = 0; w < warmup; ++w) run_once();
  std::vector<double> times;
  for (int it = 0; it < iters; ++it) times.push_back(run_once());
  team.synchronize();
  return harness::summarize_times(times);
}

bool all_processes_agree(bool ok) {
#if TUTORIAL_HAVE_MPI
  int v = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return v != 0;
#else
  return ok;
#endif
}

long long sum_over_processes(long long v) {
#if TUTORIAL_HAVE_MPI
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
#endif
  return v;
}

std::vector<std::string> describe_links(const std::vector<int>& devices) {
  std::vector<std::string> lines;
  for (std::size_t a = 0; a < devices.size(); ++a)
    for (std::size_t b = a + 1; b < devices.size(); ++b) {
      int can = 0, rank = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&can, devices[a], devices[b]));
      std::ostringstream s;
      s << "GPU " << devices[a] << " <-> GPU " << devices[b] << ": peer access " << (can ? "yes" : "no");
      if (can) {
        const cudaError_t e = cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, devices[a], devices[b]);
        if (e == cudaSuccess) s << " (relative performance rank " << rank << ", 0 is best)";
        else cudaGetLastError();  // a driver that does not report it: clear the error, or a later check blames the wrong call
      }
      s << "; link peak: not reported (the CUDA runtime gives no link bandwidth, and NVML is not read here)";
      lines.push_back(s.str());
    }
  return lines;
}

void enable_peer_access(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) continue;
      CUDA_CHECK(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // fine: clear it
      else CUDA_CHECK(e);
    }
}

}  // namespace multi_gpu
