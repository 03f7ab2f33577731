// The program reduce_kernel_6: stage 6 of chapter 7 in its forms: the warp tail `--last-warp syncwarp`
// (the default, correct on Volta and later) or `--last-warp volatile` (the article's legacy form, a
// data race since Volta), each with per-block partials and a second pass (`--finish partials`, the
// default) or the article's finish (`--finish atomic`). The stage -- its kernel, how it is launched, what
// changed against stage 5 -- is in reduce_kernel_6_last_warp_unrolled.cuh. It is compiled once, in
// the chapter's library ch07_stages (ch07_stages.cu), which this program links.
#include "ch07_stages.hpp"

int main(int argc, char** argv) {
  return harness::stage_main(argc, argv, ch07::reduce_kernel_6_program());
}
