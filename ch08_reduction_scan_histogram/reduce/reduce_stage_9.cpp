// The program reduce_stage_9: chapter 8's reduction stage 9 (one thread block cluster whose blocks
// fold their values in distributed shared memory; sum, max or min over float, double or int; sm_90
// and newer), checked, timed and reported by the harness. The stage -- its kernel, its one-cluster
// launch, what changed against stage 7 -- is in reduce_stage_9_cluster_finish.cuh. It is compiled
// once, in the chapter's library ch08_reduce (ch08_reduce_stages.cu), which this program links.
#include "ch08_reduce_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch08::reduce_stage_9_program());
}
