// GPU test of stage 8's wait (reduce_stage_8_tagged_finish.cuh), and the self-test of that test: a
// finish that takes each slot as it finds it must be caught.
//
// With relaxed accesses a block's store may become visible after the ticket that follows it, and
// stage 8's last block must then wait for the slot's tag. In a real run that window is short, and
// a last block that did not wait would still see every slot almost always, so the sweeps cannot
// tell a finish that waits from one that does not. This probe makes the late store certain: block
// 0 takes its ticket first, then waits about 10 ms before it stores its slot, while the other
// blocks store and take their tickets after a few microseconds. The last block folds the slots with
// stage 8's fold_tagged_slots (it must wait for block 0 and give the exact sum), or, as the broken
// finish, with one load per slot and no look at the tag (it must read block 0's slot before the
// store, as the harness's 0xFF poison left it, and give a wrong sum). Block b's value is b + 1, so
// the sum of g blocks is g (g + 1) / 2; int for the 8-byte slots, long long for the 16-byte ones.
// Grids of 2 blocks up to kStage8MaxGrid, each run on a workspace prepared as the harness prepares
// it (0xFF everywhere, the run word zeroed).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "catch.hpp"
#include "cuda_check.hpp"
#include "cuda_raii.hpp"
#include "reduce_stage_8_tagged_finish.cuh"
#include "run_epochs.cuh"

namespace {

// Block 0's wait between its ticket and its store: 100 sleeps of about 100 us.
constexpr int kLateSleeps = 100;
// The other blocks' wait before their store and ticket, so that block 0's ticket comes first.
constexpr unsigned kOthersSleepNs = 5000;
constexpr int kProbeBlock = 128;

//! The probe (file comment): one tagged partial per block, block 0's stored late; the last block
//! folds the slots with stage 8's wait (Wait) or without it (the broken finish).
//! @tparam A slot value type: int (8-byte slots) or long long (16-byte slots)
//! @tparam Wait fold with ch08::fold_tagged_slots; false: one load per slot, tag unread
//! @param[in,out] run_word stage 8's run word, zero or left by a complete probe launch
//! @param[in,out] slots gridDim.x slots
//! @param[out] out the fold of every block's value
template <class A, bool Wait>
__global__ void __launch_bounds__(kProbeBlock) late_writer_probe(unsigned long long* run_word,
                                                                 ch08::TaggedSlots<A> slots, A* out) {
  struct Ticket {
    unsigned tag;
    bool last;
  };
  __shared__ Ticket ticket;
  if (threadIdx.x == 0) {
    const unsigned long long start = ch08::read_run_word(run_word);
    const unsigned epoch = ch08::stage8_epoch_of(start);
    const unsigned tag = ch08::stage8_next_epoch(epoch);
    const A value = static_cast<A>(blockIdx.x) + 1;
    unsigned long long before = 0;
    if (blockIdx.x == 0) {  // the late store: after the ticket, and long after
      before = atomicAdd(run_word, ch08::kStage8TicketStep);
      for (int k = 0; k < kLateSleeps; ++k) __nanosleep(100000);
      slots.store(0, tag, value);
    } else {
      __nanosleep(kOthersSleepNs);
      slots.store(blockIdx.x, tag, value);
      before = atomicAdd(run_word, ch08::kStage8TicketStep);
    }
    const bool last = ch08::stage8_ticket_of(before) == gridDim.x - 1 && ch08::stage8_epoch_of(before) == epoch;
    if (last) atomicAdd(run_word, ch08::stage8_advance(epoch, tag, gridDim.x));
    ticket = Ticket{tag, last};
  }
  __syncthreads();
  const Ticket t = ticket;
  if (!t.last) return;
  A acc = 0;
  if constexpr (Wait) {
    acc = ch08::fold_tagged_slots<A, kProbeBlock>(slots, gridDim.x, t.tag, false, ch08::Sum{});
  } else {
    for (unsigned i = threadIdx.x; i < gridDim.x; i += kProbeBlock)
      acc += ch08::TaggedSlots<A>::value(slots.load(i));
  }
  ch08::PlainBarrier sync;
  acc = ch08::block_fold<A, kProbeBlock>(acc, ch08::Sum{}, sync);
  if (threadIdx.x == 0) *out = acc;
}

//! Runs the probe on `grid` blocks on a freshly prepared workspace; returns the fold it wrote.
template <class A, bool Wait>
A run_probe(unsigned grid) {
  using Slots = ch08::TaggedSlots<A>;
  harness::DeviceBuffer workspace(ch08::kStage8SlotsOffset + grid * sizeof(typename Slots::Word));
  harness::DeviceBuffer out(sizeof(A));
  workspace.fill_bytes(0xFF);
  CUDA_CHECK(cudaMemset(workspace.data(), 0, ch08::kStage8ZeroedBytes));
  CUDA_CHECK(cudaMemset(out.data(), 0, sizeof(A)));
  auto* run_word = workspace.as<unsigned long long>();
  const Slots slots{reinterpret_cast<typename Slots::Word*>(workspace.as<unsigned char>() + ch08::kStage8SlotsOffset)};
  late_writer_probe<A, Wait><<<grid, kProbeBlock>>>(run_word, slots, out.as<A>());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  A result = 0;
  CUDA_CHECK(cudaMemcpy(&result, out.data(), sizeof result, cudaMemcpyDeviceToHost));
  std::uint64_t word = 0;
  CUDA_CHECK(cudaMemcpy(&word, run_word, sizeof word, cudaMemcpyDeviceToHost));
  CHECK(word == ch08::stage8_run_word_after(1));  // one complete run of epoch 1
  return result;
}

template <class A>
void check_wait(unsigned grid) {
  const A exact = static_cast<A>(static_cast<long long>(grid) * (grid + 1) / 2);
  INFO((sizeof(A) == 4 ? "int, 8-byte slots" : "long long, 16-byte slots") << ", grid " << grid);
  CHECK(run_probe<A, true>(grid) == exact);
  CHECK(run_probe<A, false>(grid) != exact);  // the broken finish is caught
}

}  // namespace

TEST_CASE("reduce_stage_8's last block waits for a slot stored after its writer's ticket; a finish "
          "that does not wait is caught",
          "[gpu][ch08][reduce_stage_8][selftest]") {
  for (unsigned grid : {2u, 8u, 300u, 4096u, static_cast<unsigned>(ch08::kStage8MaxGrid)}) {
    check_wait<int>(grid);
    check_wait<long long>(grid);
  }
}
