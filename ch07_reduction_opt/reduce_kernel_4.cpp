// The program reduce_kernel_4: stage 4 of chapter 7, checked, timed and reported by the harness, with
// per-block partials folded by a second pass (`--finish partials`, the default: the time shows the
// block's tree) or the article's finish (`--finish atomic`: one address takes every block's atomic). The stage -- its kernel, how it is launched, what changed against
// stage 3 -- is in reduce_kernel_4_sequential_addressing.cuh; the two finishes in reduce_finish.cuh. Both are compiled once, in
// the chapter's library ch07_stages (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_4_program());
}
