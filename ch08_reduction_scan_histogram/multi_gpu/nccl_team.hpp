//! @file nccl_team.hpp
//! @brief The GPUs that take part in a collective, and what both process modes share: NCCL
//! communicators, one stream per GPU, timing of work spread over the GPUs, and agreeing on a
//! verdict. The lesson code (shard reduce, all-reduce, timing) is written once against a Team and
//! runs unchanged in either mode:
//!  - one process drives every GPU (the default): ncclCommInitAll makes G communicators at once,
//!    and NCCL calls for several GPUs go inside ncclGroupStart / ncclGroupEnd;
//!  - one process per GPU (built with MPI, TUTORIAL_HAVE_MPI): the rank with local rank l on its
//!    machine drives device l (more processes on a machine than its visible GPUs are refused);
//!    rank 0 makes an ncclUniqueId, MPI_Bcast hands it to every rank, and each rank calls
//!    ncclCommInitRank.
//! When one process fails (an exception), its communicators are aborted and, with MPI, it calls
//! MPI_Abort (stop_all_processes), so that no other rank waits forever in a collective.
//! Source: NCCL documentation, "Creating a communicator" and "Group calls" examples.
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "cuda_raii.hpp"
#include "dtype.hpp"
#include "timing.hpp"

#ifndef TUTORIAL_HAVE_MPI
//! 1 in the programs built with MPI (one process per GPU), 0 otherwise (set by CMake).
#define TUTORIAL_HAVE_MPI 0
#endif

//! Evaluates an NCCL call once and throws std::runtime_error with file, line, the call's text and
//! NCCL's message if it did not return ncclSuccess.
#define NCCL_CHECK(expr)                                                           \
  do {                                                                             \
    const ncclResult_t nccl_check_code_ = (expr);                                  \
    if (nccl_check_code_ != ncclSuccess)                                           \
      ::multi_gpu::throw_nccl_error(nccl_check_code_, #expr, __FILE__, __LINE__);  \
  } while (0)

namespace multi_gpu {

//! Throws std::runtime_error describing a failed NCCL call (ncclGetErrorString and
//! ncclGetLastError), naming the expression, file and line.
[[noreturn]] void throw_nccl_error(ncclResult_t code, const char* expr, const char* file, int line);

//! Turns NVLink SHARP / multicast (NVLS) off for this process: sets NCCL_NVLS_ENABLE=0, overriding
//! any value in the environment. Call in main, before MPI or NCCL starts. The programs never need NVLS (it
//! only speeds up large all-reduces on NVSwitch systems), and multicast objects are a resource
//! shared by the whole machine that a teaching program should not take; NCCL otherwise may create
//! them on its own (cuMulticastCreate) when it sees NVSwitches. Nothing here calls cuMulticastCreate.
void disable_nvlink_multicast();

//! The NCCL element type of a DType: float -> ncclFloat32, int -> ncclInt32, int64 -> ncclInt64.
//! @throws harness::UsageError for other types
ncclDataType_t nccl_type(harness::DType t);

//! True when this program was built with MPI (one process per GPU).
bool built_with_mpi();

//! Starts MPI when built with it (MPI_Init); does nothing otherwise. Call first in main.
void start_processes(int* argc, char*** argv);
//! Ends MPI when built with it (MPI_Finalize); does nothing otherwise. Call last in main.
void end_processes();
//! Runs `body` through harness::run_program (messages and exit codes as every program), and where
//! `body` threw while other processes share the run (MPI, more than one rank), stops them all with
//! MPI_Abort and that exit code: they may be waiting in a collective for this one. Otherwise
//! returns the exit code.
int run_everywhere(const char* program, const std::function<int()>& body);
//! This process's rank (0 without MPI).
int process_rank();
//! Number of processes (1 without MPI).
int process_count();

//! The GPUs of one collective, seen from this process.
struct Team {
  int size = 0;              //!< G: GPUs (ranks) in the collective, over all processes
  int first_rank = 0;        //!< NCCL rank of this process's first GPU
  std::vector<int> devices;  //!< CUDA devices this process drives, in rank order
  std::vector<ncclComm_t> comms;         //!< one communicator per local GPU
  std::vector<harness::Stream> streams;  //!< one stream per local GPU (made on that GPU)
  bool one_process = true;   //!< true when this process drives every GPU of the team

  //! An empty team (no GPUs, no communicators).
  Team() = default;
  //! Not copyable: the communicators are destroyed once, by their one owner.
  Team(const Team&) = delete;
  //! Not copyable.
  Team& operator=(const Team&) = delete;
  //! Takes the GPUs, communicators and streams of `other`.
  Team(Team&&) = default;
  //! Takes the GPUs, communicators and streams of `other` (this team must be empty).
  Team& operator=(Team&&) = default;
  //! Destroys the communicators: ncclCommDestroy, or ncclCommAbort while an exception unwinds (a
  //! failed call may have left a collective unfinished, which ncclCommDestroy would wait for).
  ~Team();

  //! Local GPUs this process drives.
  int local_count() const { return static_cast<int>(devices.size()); }
  //! Makes local GPU i the current device.
  void use(int i) const;
  //! Throws (as NCCL_CHECK) when NCCL reports an asynchronous error on any local communicator
  //! (ncclCommGetAsyncError): a peer that failed, a network error. A collective that can never
  //! finish then stops the program instead of leaving it waiting.
  void check_async_errors() const;
  //! Waits until `event` (recorded on a local stream) has completed, polling check_async_errors
  //! meanwhile; throws on a CUDA error or an asynchronous NCCL error.
  void wait(cudaEvent_t event) const;
  //! Waits for all work on every local stream, as wait() does; throws on an earlier failure.
  void synchronize() const;
};

//! One process, G GPUs: devices 0..G-1, communicators from ncclCommInitAll.
//! @param[in] gpus G, 1 <= G <= visible devices (checked by the caller)
//! @throws std::runtime_error when NCCL fails, harness::CudaError when CUDA fails
Team make_local_team(int gpus);

//! One process per GPU (MPI build only): the process with local rank l on its machine
//! (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED) drives device l, the team has process_count()
//! GPUs; rank 0's ncclGetUniqueId is broadcast with MPI_Bcast, then every rank calls
//! ncclCommInitRank.
//! @throws harness::UsageError when a machine has more processes than visible GPUs (two ranks on
//!         one GPU is not a communicator NCCL makes); std::logic_error when built without MPI
Team make_mpi_team();

//! Times `op` with CUDA events: `warmup` untimed runs, then `iters` timed ones, every run alike: it
//! starts when an event on local GPU 0's stream fires, every other local stream waits for it
//! (fork), `op` enqueues its work on the team's streams, and GPU 0's stream waits for every other
//! stream before the stop event (join). So one clock measures the work of all local GPUs, and no
//! run overlaps the one before it on any GPU. With MPI every run begins with MPI_Barrier and its
//! time is the slowest rank's (MPI_Allreduce MAX).
//! @param[in] team the GPUs
//! @param[in] op enqueues one run on the team's streams (and must not synchronize)
//! @param[in] warmup untimed runs first
//! @param[in] iters timed runs (>= 1)
//! @return median, min, max and mean in milliseconds (harness::summarize_times)
harness::TimingStats time_team(const Team& team, const std::function<void()>& op, int warmup, int iters);

//! True when `ok` is true in every process (MPI_Allreduce with MPI_LAND); `ok` without MPI.
bool all_processes_agree(bool ok);

//! Sum of `v` over all processes (MPI_Allreduce with MPI_SUM on int64); `v` without MPI.
long long sum_over_processes(long long v);

//! Visible CUDA devices in this process.
//! @throws harness::NoGpuError when there are none (with the reason)
int visible_gpus();

//! The team size of an MPI run: the number of processes, one GPU each.
//! @param[in] asked the program's --gpus (0: as many as there are processes)
//! @throws harness::UsageError when `asked` is neither 0 nor the number of processes
int mpi_team_size(int asked);

//! The GPUs a one-process run uses: `asked`, or every visible GPU when `asked` is 0.
//! @param[in] asked the program's --gpus
//! @param[in] visible visible_gpus()
//! @param[in] skip_missing the tests' --skip-missing-gpus: too few GPUs is "skipped", not an error
//! @param[in] program the program's name, for the message
//! @return the number of GPUs; 0 when `skip_missing` and fewer are visible than asked (the reason
//!         is printed; the caller returns harness::kExitNoGpu)
//! @throws harness::UsageError when more GPUs are asked than are visible and not `skip_missing`
int one_process_team_size(int asked, int visible, bool skip_missing, const char* program);

//! "GPU 0 <-> GPU 1: peer access yes (performance rank 0)" for every pair of `devices`, and the
//! link's peak bandwidth: "not reported" (the CUDA runtime gives no link bandwidth; this program
//! does not read NVML), so no number is invented.
std::vector<std::string> describe_links(const std::vector<int>& devices);

//! Enables direct peer access between every pair of `devices` that supports it (cudaMemcpyPeer
//! then copies over NVLink or PCIe directly instead of through host memory). Already-enabled
//! pairs are fine.
void enable_peer_access(const std::vector<int>& devices);

}  // namespace multi_gpu
