//! @file relaxed_128.cuh
//! @brief One 16-byte word of global memory stored and loaded whole, as single relaxed 128-bit
//! accesses at GPU scope: what chapter 8 publishes a flag or tag together with an 8-byte value in
//! (the scan's tile status for double, tile_status.cuh; the tagged partials of reduction stage 8,
//! reduce_stage_8_tagged_finish.cuh), so that a reader that sees the flag also sees the value it was
//! stored with. In namespace ch08, the chapter that uses it; here because both of its folders do.
#pragma once
#include <cuda_runtime.h>

namespace ch08 {

//! One 16-byte word of global memory, read and written whole: `lo` at the lower address.
struct alignas(16) Word128 {
  unsigned long long lo;  //!< bytes 0..7
  unsigned long long hi;  //!< bytes 8..15
};

//! Stores `w` at `p` as one 128-bit access, relaxed at GPU scope: `st.relaxed.gpu.global.b128`
//! (PTX ISA 8.3, sm_70 and newer), the instruction libcu++ would give cuda::atomic_ref of a 16-byte
//! type. A reader's 128-bit load sees all 16 bytes of one store, never half of one: unlike a vector
//! store (.v2.u64), which the PTX memory model treats as two 8-byte stores, .b128 is one access.
//! (CUDA 13.0's libcu++ writes that atomic_ref's load and store with the operands of their mov
//! swapped, which ptxas rejects; hence this one instruction of inline PTX.)
//! @param[out] p 16-byte aligned, in global memory
//! @param[in] w the word
__device__ __forceinline__ void store_relaxed_128(Word128* p, Word128 w) {
  asm volatile(
      "{\n\t.reg .b128 v;\n\tmov.b128 v, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], v;\n\t}" ::"l"(p),
      "l"(w.lo), "l"(w.hi)
      : "memory");
}

//! Loads the 16 bytes at `p` as one 128-bit access, relaxed at GPU scope:
//! `ld.relaxed.gpu.global.b128` (store_relaxed_128 says why one access).
//! @param[in] p 16-byte aligned, in global memory
//! @return the word
__device__ __forceinline__ Word128 load_relaxed_128(const Word128* p) {
  Word128 w;
  asm volatile("{\n\t.reg .b128 v;\n\tld.relaxed.gpu.global.b128 v, [%2];\n\tmov.b128 {%0, %1}, v;\n\t}"
               : "=l"(w.lo), "=l"(w.hi)
               : "l"(p)
               : "memory");
  return w;
}

}  // namespace ch08
