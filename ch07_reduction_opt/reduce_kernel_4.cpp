// The program reduce_kernel_4: stage 4 of chapter 7, checked, timed and reported by the harness, with
// the article's finish (`--finish atomic`, the default) or per-block partials folded by a second
// pass (`--finish partials`). The stage -- its kernel, how it is launched, what changed against
// stage 3 -- is in reduce_kernel_4_sequential_addressing.cuh; the two finishes in reduce_finish.cuh. Both are compiled once, in
// the chapter's library ch07_stages (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::finish_program("reduce_kernel_4"));
}
