// The program reduce_kernel_9b: stage 9b of chapter 7 (four 16-byte loads in flight per thread), checked, timed
// and reported by the harness. The stage -- its kernel, how it is launched, what changed against the
// stage before -- is in reduce_kernel_9b_loads_in_flight.cuh. It is compiled once, in the chapter's
// library ch07_stages (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_9b_program());
}
