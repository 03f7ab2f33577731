// The program reduce_kernel_9a: stage 9a of chapter 7 (16-byte loads, one per loop trip), checked, timed
// and reported by the harness. The stage -- its kernel, how it is launched, what changed against the
// stage before -- is in reduce_kernel_9a_vector_loads.cuh. It is compiled once, in the chapter's
// library ch07_stages (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_9a_program());
}
