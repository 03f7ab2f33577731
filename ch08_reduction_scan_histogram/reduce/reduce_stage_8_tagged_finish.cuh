//! @file reduce_stage_8_tagged_finish.cuh
//! @brief Stage 8 (past the chapter's sections): stage 7's one launch with a finish that needs no
//! fence. Each block stores its value and the run's epoch together, as one word (a tagged partial),
//! and takes a relaxed ticket; the last block reads every slot at once and waits only for slots whose
//! tag is not yet this run's.
//!
//! What limits stage 7 between one block and one wave of blocks is its finish. After a block's last
//! load its thread 0 does three accesses to L2, each waiting for the one before: the store of the
//! partial must be visible before the ticket (the ticket's release waits for the store's
//! acknowledgement), the ticket is a round trip, and only the block that draws the last one then
//! loads the partials, another round trip. Changed against stage 7:
//!   - a tagged partial. Each block stores {tag, value} as ONE access: a 64-bit word for a 4-byte
//!     accumulator (float; int max and min: the tag in the high 32 bits, the value's bits in the low
//!     32), a 16-byte word for an 8-byte one (double; the int sum's long long: the tag in the low 8
//!     bytes, the value in the high 8), stored with st.relaxed.gpu.b128 (store_relaxed_128,
//!     relaxed_128.cuh). The tag is the run's epoch, which thread 0 reads from the run word as the
//!     block starts, before its loads of the input (read_run_word): the read costs nothing on the
//!     way to the finish;
//!   - a relaxed ticket (atomicAdd), no fence: the store and the ticket are in flight together;
//!   - the last block moves the run word to its epoch with both counts at 0 (one more atomic add),
//!     then each of its threads issues the loads of its ceil(grid / Block) slots, up to 8 64-bit or
//!     4 16-byte slots at a time (TaggedSlots::kInFlight), before looking at any, and loads again
//!     only those whose tag is not yet this run's. Up to a wave of 8 x Block (4 x Block) blocks that
//!     is about one round trip for all the slots, not one per slot. The finish is two accesses to
//!     L2 one after the other (the ticket, the slots), where stage 7 has three;
//!   - __launch_bounds__ with a full SM's blocks (harness::full_sm_blocks): the registers
//!     that hold the slots in flight would otherwise raise the kernel's count above 32 and lower its
//!     occupancy and the wave its grid grows to.
//! Everything else is stage 7's: stage 5's loop and block reduction, a grid of one 64-byte trip per
//! thread (two from 4 MiB of input) up to one full wave, one block and no ticket when one block
//! covers n, and without --block stage 7's block for n (reduce_stage_7_block: one block of up to
//! 1024 threads while one trip covers n; 1024 from 2^26 bytes on).
//!
//! Why no fence (the memory model). Stage 7's last block learns from its ticket that every partial
//! is there: the release of each block's ticket orders its partial before it. Stage 8's last block
//! learns it from each slot itself: it reads a slot's tag and value in the same single access
//! (a 64-bit atomic load, or a .b128 load: one access, never half of one store), so a tag of this
//! run comes with the value stored with that tag. Nothing else passes between the blocks, so no
//! happens-before order is needed, and every access of the finish is relaxed. The ticket only
//! elects the block that folds: the adds on the run word form one modification order, and exactly
//! one of them reads grid - 1. The wait ends: every block has taken its ticket, so every block has
//! issued its store (it comes first in program order) and waits on nothing after it, and a store
//! becomes visible in finite time. Every block of a run tags with the same epoch: it reads the word
//! with an atomic add of 0 before its own ticket (read_run_word), two read-modify-writes of one
//! word, which coherence keeps in program order in the word's modification order; the last block
//! moves the epoch only after every ticket of the run (its own ticket reads grid - 1: every other
//! one is before it), so no block's first read can see the move; and a launch sees every write of
//! the launch before it in the stream.
//!
//! Why no stale or poisoned slot passes for this run's (the slots are never zeroed):
//!   - epochs run 1, 2, ..., kStage8EpochMax (2^32 - 2), then 1 again; never 0 (a cleared slot) and
//!     never 2^32 - 1, the tag of an all-ones slot (the harness's 0xFF poison) in either layout;
//!   - within one cycle no two runs have the same epoch, and epochs only grow, so a slot that a run
//!     before this one (in the cycle) wrote holds a smaller epoch. Runs of different n share the
//!     workspace: a run reads and writes only slots below its grid, and a slot past it keeps a
//!     smaller epoch, which no run after it in the cycle has;
//!   - the wrap: a slot written in the run of epoch E of one cycle and untouched since would pass in
//!     the next cycle's run of E. So the run of epoch 1 (the first after the run word was zeroed, and
//!     the first of every cycle) leaves no tag behind: its last block clears each slot after reading
//!     it (the thread that read it: by coherence the clear comes after the store it read), and its
//!     blocks clear every slot past the grid up to the workspace's capacity. After it every slot is
//!     0, and until the next run of epoch 1 the run of epoch E writes the only tags E.
//! The preconditions: when the run word is zeroed, no slot holds the tag 1 (the harness fills the
//! workspace with 0xFF, then zeroes the word: Stage::workspace_zeroed_bytes, never between runs);
//! every launch on one workspace gives the same workspace size (the capacity the run of epoch 1
//! clears); since the run word was zeroed only stage 8's launches have written the workspace, and
//! the run word is zero or what a complete one of them left (run_epochs.cuh says what happens to
//! other words); two launches on one workspace do not run at once (stream order).
//!
//! Determinism: the partials are folded in slot order, as stage 7 folds them (thread t takes slots
//! t, t + Block, ..., then the block tree), whatever order the blocks finished in: the same bits on
//! every run, and stage 7's bits on the same grid.
//! What the profiler shows against stage 7: about its time from 2^28; no MEMBAR in the SASS
//! (stage 7's acq_rel ticket has one; tests/sass_claims.json checks both); at small n no shorter
//! finish: the last block may load a slot before its store has landed and load it again (the README
//! of this folder, "Stage 8", has the busiest SM's cycles of both stages).
//! Source: this tutorial; the epoch tags of scan stage 9 (tile_flags.cuh); Merrill and Garland's
//! status words ("Single-pass Parallel Prefix Scan with Decoupled Look-back", NVIDIA technical report
//! NVR-2016-002, 2016: a flag and a value published as one word, read without a fence).
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "barrier_policy.cuh"
#include "block_folds.cuh"
#include "errors.hpp"
#include "grid_stride.cuh"
#include "reduce_ops.cuh"
#include "reduce_problem.hpp"
#include "reduce_second_pass.cuh"
#include "reduce_stage_5_vectorized.cuh"
#include "reduce_stage_7_one_launch.cuh"
#include "relaxed_128.cuh"
#include "run_epochs.cuh"

namespace ch08 {

//! The slots of stage 8: one word per block holding a tag (the epoch of the run that wrote it) and a
//! value, stored and loaded as one relaxed access at GPU scope. This form: a 4-byte accumulator
//! (float, int), tag in the high 32 bits of a 64-bit word, the value's bits in the low 32.
//! @tparam A accumulator type
//! @tparam Wide sizeof(A) == 8 (the specialisation below)
//! Source: Merrill and Garland's status words (a flag and a value in one word), as the scan's
//! PackedTileStatus and EpochTileStatus (tile_status.cuh) keep them, with the run's epoch as the flag.
template <class A, bool Wide = sizeof(A) == 8>
struct TaggedSlots {
  static_assert(sizeof(A) == 4, "a 4-byte accumulator beside a 32-bit tag in one 64-bit word");
  using Word = unsigned long long;  //!< one slot
  //! Slots whose loads one thread of the last block has in flight at once: 8 (16 registers).
  static constexpr int kInFlight = 8;
  Word* words;  //!< one word per block, at 8-byte alignment

  //! Stores `value` with `tag` in slot `i`: one relaxed 64-bit store.
  __device__ __forceinline__ void store(unsigned i, unsigned tag, A value) const {
    unsigned bits;
    std::memcpy(&bits, &value, sizeof bits);
    cuda::atomic_ref<Word, cuda::thread_scope_device> slot(words[i]);
    slot.store(static_cast<Word>(tag) << 32 | bits, cuda::memory_order_relaxed);
  }
  //! Slot `i`: one relaxed 64-bit load.
  __device__ __forceinline__ Word load(unsigned i) const {
    cuda::atomic_ref<Word, cuda::thread_scope_device> slot(words[i]);
    return slot.load(cuda::memory_order_relaxed);
  }
  //! Clears slot `i` (tag 0: no run's).
  __device__ __forceinline__ void clear(unsigned i) const {
    cuda::atomic_ref<Word, cuda::thread_scope_device> slot(words[i]);
    slot.store(0ull, cuda::memory_order_relaxed);
  }
  //! True when `w` carries `tag`.
  __device__ __forceinline__ static bool holds(Word w, unsigned tag) { return static_cast<unsigned>(w >> 32) == tag; }
  //! The value `w` carries.
  __device__ __forceinline__ static A value(Word w) {
    const unsigned bits = static_cast<unsigned>(w);
    A v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
};

//! Stage 8's slots for an 8-byte accumulator (double, and the int sum's long long): the tag in the
//! low 8 bytes of a 16-byte word, the value's bits in the high 8, one relaxed 128-bit access
//! (store_relaxed_128, load_relaxed_128).
//! @tparam A accumulator type
//! Source: as the 64-bit form; the 16-byte word of the scan's WideTileStatus (tile_status.cuh).
template <class A>
struct TaggedSlots<A, true> {
  using Word = Word128;  //!< one slot
  //! Slots whose loads one thread of the last block has in flight at once: 4 (16 registers, as the
  //! 64-bit form's 8: more would raise the kernel's registers, and so lower its occupancy and its
  //! wave, for every block; the kernel's __launch_bounds__ holds them to 32 at block 256).
  static constexpr int kInFlight = 4;
  Word* words;  //!< one word per block, at 16-byte alignment

  //! Stores `value` with `tag` in slot `i`: one relaxed 128-bit store.
  __device__ __forceinline__ void store(unsigned i, unsigned tag, A value) const {
    Word128 w{tag, 0ull};
    std::memcpy(&w.hi, &value, sizeof value);
    store_relaxed_128(words + i, w);
  }
  //! Slot `i`: one relaxed 128-bit load.
  __device__ __forceinline__ Word load(unsigned i) const { return load_relaxed_128(words + i); }
  //! Clears slot `i` (tag 0: no run's).
  __device__ __forceinline__ void clear(unsigned i) const { store_relaxed_128(words + i, Word128{0ull, 0ull}); }
  //! True when `w` carries `tag` (an all-ones word's 2^64 - 1 never does).
  __device__ __forceinline__ static bool holds(const Word& w, unsigned tag) { return w.lo == tag; }
  //! The value `w` carries.
  __device__ __forceinline__ static A value(const Word& w) {
    A v;
    std::memcpy(&v, &w.hi, sizeof v);
    return v;
  }
};

//! Reads the run word at `p` as a block starts: an atomic add of 0, relaxed at GPU scope
//! (atom.relaxed.gpu.global.add.u64, as inline PTX so that the compiler neither drops the add nor
//! turns it into a load). Why not a load: ptxas moves a load whose value is first needed after the
//! input loop down to just before that use (nvcc 13.0, sm_90), which would put a round trip to L2
//! between the block's last input load and its store; an atomic stays where it is written, and its
//! answer arrives while the loop runs. It is also a read-modify-write of the run word, which every
//! block's ticket follows in the word's modification order (coherence): no block reads an epoch its
//! own run has moved.
//! @param[in,out] p the run word, in global memory (left unchanged)
//! @return its value
//! Source: this tutorial.
__device__ __forceinline__ unsigned long long read_run_word(unsigned long long* p) {
  unsigned long long v;
  asm volatile("atom.relaxed.gpu.global.add.u64 %0, [%1], 0;" : "=l"(v) : "l"(p) : "memory");
  return v;
}

//! The last block's fold of the tagged slots 0..count): thread t takes slots t, t + Block, ... in
//! that order (stage 7's order), TaggedSlots<A>::kInFlight at a time: it issues their loads, then
//! loads again, all together, those whose tag is not `tag` yet, until every one of them is; then it
//! folds their values in slot order. With `clear` (the run of epoch 1) it then clears each slot it
//! read. A thread with more slots than kInFlight (more than kInFlight x Block blocks) takes one more
//! round trip per kInFlight slots.
//! @tparam A accumulator type
//! @tparam Block threads per block (equal to blockDim.x)
//! @tparam Op Sum, Max or Min
//! @param[in,out] slots count slots, each being stored with `tag` by its block in this run
//! @param[in] count slots to fold (gridDim.x), at most kStage8MaxGrid
//! @param[in] tag this run's epoch
//! @param[in] clear clear each slot after reading it
//! @param[in] op the operator
//! @return this thread's fold (the identity when it has no slot)
//! Source: this tutorial.
template <class A, int Block, class Op>
__device__ __forceinline__ A fold_tagged_slots(const TaggedSlots<A>& slots, unsigned count, unsigned tag, bool clear,
                                               Op op) {
  using Slots = TaggedSlots<A>;
  using Word = typename Slots::Word;
  constexpr int kInFlight = Slots::kInFlight;
  A acc = Op::template identity<A>();
  for (unsigned first = threadIdx.x; first < count; first += kInFlight * Block) {
    // Slot first + j x Block is here.words[j * Block]: one base address, constant offsets.
    const Slots here{slots.words + first};
    const unsigned mine = (count - first + Block - 1) / Block;  // this thread's slots from `first` on
    Word w[kInFlight]{};
#pragma unroll
    for (int j = 0; j < kInFlight; ++j)
      if (j < mine) w[j] = here.load(j * Block);
    // Loads again only what is not yet this run's, all of it at once; most runs pass with none.
    for (bool waiting = true; waiting;) {
      waiting = false;
#pragma unroll
      for (int j = 0; j < kInFlight; ++j) {
        if (j < mine && !Slots::holds(w[j], tag)) {
          w[j] = here.load(j * Block);
          waiting = true;
        }
      }
    }
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) {
      if (j < mine) {
        acc = op(acc, Slots::value(w[j]));
        if (clear) here.clear(j * Block);
      }
    }
  }
  return acc;
}

//! The run of epoch 1 clears every slot past its grid, up to `capacity`: block b's threads take
//! slots gridDim.x + b x Block + t, stepping by gridDim.x x Block (no block of this run reads or
//! writes them). Every thread of every block calls it.
//! @tparam A accumulator type
//! @tparam Block threads per block (equal to blockDim.x)
//! @param[in,out] slots capacity slots
//! @param[in] capacity slots the workspace holds (stage8_capacity)
//! Source: this tutorial; scan stage 9 clears its status words past its tiles in the same run.
template <class A, int Block>
__device__ __forceinline__ void clear_slots_past_grid(const TaggedSlots<A>& slots, unsigned capacity) {
  const unsigned step = gridDim.x * Block;
  for (unsigned i = gridDim.x + blockIdx.x * Block + threadIdx.x; i < capacity; i += step) slots.clear(i);
}

//! The tagged finish: thread 0 of each block stores `block_value` with this run's epoch (the run
//! after the one `start_word` names) in slot blockIdx.x and takes a ticket (relaxed fetch_add of
//! kStage8TicketStep on the run word). The block that draws ticket gridDim.x - 1 (both counts
//! agreeing, and the epoch the one the block started with) moves the run word to this run's epoch
//! with both counts at 0, folds the slots in slot order (fold_tagged_slots, block_fold) and thread 0
//! writes the result. In the run of epoch 1 every block clears the slots past the grid and the last
//! block clears the slots it read (the wrap-around guard: the file comment).
//! @tparam A accumulator type
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x; every thread calls
//! @tparam Op Sum, Max or Min
//! @param[in] block_value in thread 0, this block's value (other threads: ignored)
//! @param[in] start_word in thread 0, the run word as the block read it when it started (before its
//!            ticket; other threads: ignored)
//! @param[in,out] run_word the run word (run_epochs.cuh): zero before the first launch on this
//!                workspace, left ready for the next launch
//! @param[in,out] slots at least max(gridDim.x, capacity) slots (their old contents are never read
//!                as this run's)
//! @param[in] capacity slots the workspace holds (stage8_capacity), the same in every launch on it
//! @param[out] out one accumulator: the result (written, not accumulated)
//! @param[in] op the operator
//! Launch: 2 <= gridDim.x <= kStage8MaxGrid; two launches on one workspace must not run at once.
//! Source: this tutorial; the epoch tags of scan stage 9 (tile_flags.cuh); Merrill and Garland's
//! status words.
template <class A, int Block, class Op>
__device__ __forceinline__ void fold_tagged_in_last_block(A block_value, unsigned long long start_word,
                                                          unsigned long long* run_word, const TaggedSlots<A>& slots,
                                                          unsigned capacity, A* out, Op op) {
  struct Ticket {
    unsigned tag;  // this run's epoch
    bool last;     // this block drew the last ticket
  };
  __shared__ Ticket ticket;
  if (threadIdx.x == 0) {
    const unsigned epoch = stage8_epoch_of(start_word);
    const unsigned tag = stage8_next_epoch(epoch);
    slots.store(blockIdx.x, tag, block_value);
    const unsigned long long before = atomicAdd(run_word, kStage8TicketStep);  // relaxed, GPU scope
    const bool last = stage8_ticket_of(before) == gridDim.x - 1 && stage8_epoch_of(before) == epoch;
    if (last) atomicAdd(run_word, stage8_advance(epoch, tag, gridDim.x));
    ticket = Ticket{tag, last};
  }
  // Hands thread 0's ticket to the block. Every thread has also left the block's first block_fold,
  // so the second may reuse its shared slots.
  __syncthreads();
  const Ticket t = ticket;
  const bool first_of_cycle = t.tag == 1;
  if (t.last) {
    A acc = fold_tagged_slots<A, Block>(slots, gridDim.x, t.tag, first_of_cycle, op);
    PlainBarrier sync;
    acc = block_fold<A, Block>(acc, op, sync);
    if (threadIdx.x == 0) *out = acc;
  }
  if (first_of_cycle) clear_slots_past_grid<A, Block>(slots, capacity);
}

//! Stage 8: stage 7's fold and block reduction; with one block, the block's value is the result;
//! with more, the tagged finish (fold_tagged_in_last_block).
//! @tparam T input type: float, double or int
//! @tparam Op Sum, Max or Min
//! @tparam Block threads per block: a power of two, 32..1024, equal to blockDim.x
//! @param[in] in n input elements, aligned to sizeof(T)
//! @param[in] n number of elements (> 0)
//! @param[in,out] run_word the run word (unused with one block)
//! @param[in,out] slots the tagged slots (unused with one block)
//! @param[in] capacity slots the workspace holds (stage8_capacity), the same in every launch on it
//! @param[out] out one accumulator: the result (written, not accumulated: no zeroing)
//! @param[in] op the operator
//! Launch: at most kStage8MaxGrid blocks; two launches on one workspace must not run at once.
//! Source: this tutorial (stage 7 with the tagged finish).
template <class T, class Op, int Block>
__global__ void __launch_bounds__(Block, harness::full_sm_blocks(Block))
    reduce_stage_8(const T* __restrict__ in, std::size_t n, unsigned long long* run_word,
                   TaggedSlots<accumulator_t<Op, T>> slots, unsigned capacity, accumulator_t<Op, T>* out, Op op) {
  using Acc = accumulator_t<Op, T>;
  const bool one_block = gridDim.x == 1;  // the same in every thread: the branches below are uniform
  // The run's epoch, read before the loads of the input: its answer is not needed before the finish.
  const unsigned long long start_word = !one_block && threadIdx.x == 0 ? read_run_word(run_word) : 0;
  PlainBarrier sync;
  const Acc v = block_fold<Acc, Block>(grid_stride_fold_vec16(in, n, op), op, sync);
  if (one_block) {  // the whole input in one block: its value is the result
    if (threadIdx.x == 0) *out = v;
    return;
  }
  fold_tagged_in_last_block<Acc, Block>(v, start_word, run_word, slots, capacity, out, op);
}

// ---- How stage 8 is launched -----------------------------------------------------------------

//! Stage 8's grid: the user's --grid if given, else stage 7's rule for stage 8's kernel: one block
//! per Block x 64 bytes of input (Block x 128 from harness::kTwoTripBytes on), at most one full wave of
//! resident blocks (resident_grid_for).
inline std::size_t reduce_stage_8_grid(const harness::ReduceArgs& a) {
  return resident_grid_for(
      a,
      [](auto t, auto op, auto block) {
        return reinterpret_cast<const void*>(&reduce_stage_8<decltype(t), decltype(op), decltype(block)::value>);
      },
      harness::one_launch_bytes_per_thread(a, kStage7BytesPerThread));
}

//! Stage 8's workspace on `grid` blocks, in bytes: the run word (kStage8SlotsOffset bytes), then one
//! slot per block (stage8_slot_bytes: 8 bytes for a 4-byte accumulator, 16 for an 8-byte one).
inline std::size_t reduce_stage_8_workspace(const harness::ReduceArgs& a) {
  const std::size_t acc_bytes = harness::dtype_size(stage_output_type(a.type, a.op));
  return kStage8SlotsOffset + reduce_stage_8_grid(a) * stage8_slot_bytes(acc_bytes);
}

//! Launches stage 8 on a.stream: one launch of reduce_stage_8 on reduce_stage_8_grid(a) blocks, the
//! slots after the run word. Nothing else is enqueued: the run word was left ready by the previous
//! launch (or zeroed by whoever prepared the workspace), the slots are never zeroed, and the result
//! needs no zeroing.
//! @param[in] a n > 0; type float/double/int; op sum/max/min; block a power of two from 32 to 1024;
//!            the input aligned to sizeof(T); a workspace of reduce_stage_8_workspace(a) bytes or
//!            more, 16-byte aligned (a.workspace_size says how many: every launch on one workspace
//!            must give the same size), whose first kStage8ZeroedBytes were zeroed before the first
//!            launch on it and whose slots then held no tag 1 (all ones, or zero); one element type
//!            and operator for every launch on one workspace (the slots' width follows them)
//! @throws harness::UsageError when the workspace is not 16-byte aligned (the slots' 128-bit accesses)
inline void launch_reduce_stage_8(const harness::ReduceArgs& a) {
  if (reinterpret_cast<std::uintptr_t>(a.workspace) % 16 != 0)
    throw harness::UsageError("reduce_stage_8: the workspace must be 16-byte aligned (its slots are read and "
                              "written as 16-byte words)");
  const std::size_t grid = reduce_stage_8_grid(a);
  dispatch(a.type, a.op, a.block, [&](auto t, auto op, auto block) {
    using T = decltype(t);
    using Op = decltype(op);
    using Acc = accumulator_t<Op, T>;
    using Slots = TaggedSlots<Acc>;
    static_assert(sizeof(typename Slots::Word) == stage8_slot_bytes(sizeof(Acc)), "run_epochs.cuh's slot size");
    constexpr int B = decltype(block)::value;
    unsigned char* ws = a.scratch<unsigned char>();
    auto* run_word = reinterpret_cast<unsigned long long*>(ws);
    const Slots slots{reinterpret_cast<typename Slots::Word*>(ws + kStage8SlotsOffset)};
    const auto capacity = static_cast<unsigned>(stage8_capacity(a.workspace_size, sizeof(Acc)));
    reduce_stage_8<T, Op, B>
        <<<grid, B, 0, a.stream>>>(a.input<T>(), a.n, run_word, slots, capacity, a.output<Acc>(), op);
  });
}

//! Summation depth of stage 8: stage 7's (stage 5's thread and block tree, then the last block's
//! ceil(grid / Block) slots per thread and its tree).
inline double reduce_stage_8_depth(const harness::ReduceArgs& a) {
  const std::size_t grid = reduce_stage_8_grid(a);
  return harness::reduce_depth(reduce_stage_5_per_thread(a, grid), a.block, 0) + last_block_depth(a, grid);
}

//! Stage 8 as the harness runs it: the program `reduce_stage_8`, the ladder and the tests.
inline harness::Stage<harness::Reduce> reduce_stage_8_stage() {
  harness::Stage<harness::Reduce> s = harness::stage_of_card<harness::Reduce>(
      {"reduce_stage_8", "tagged partials: no fence",
       "each block stores its value and the run's epoch as one word and takes a relaxed ticket (no fence); the "
       "last block loads every slot at once and loads again only those not yet tagged with this run's epoch",
       "past chapter 8: stage 7's finish with the epoch tags of scan stage 9 and Merrill and Garland's status words"});
  s.caps = two_pass_caps();
  s.deterministic = true;
  s.grid_stride = true;
  s.grid_for = reduce_stage_8_grid;
  s.block_for = reduce_stage_7_block;
  s.max_grid = kStage8MaxGrid;
  s.workspace_bytes = reduce_stage_8_workspace;
  s.workspace_zeroed_bytes = kStage8ZeroedBytes;
  s.depth = reduce_stage_8_depth;
  s.launch = launch_reduce_stage_8;
  return s;
}

}  // namespace ch08
