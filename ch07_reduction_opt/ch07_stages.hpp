//! @file ch07_stages.hpp
//! @brief Chapter 7's stages as one list, for the ladder and the tests. Each stage lives in its own
//! header (`reduce_kernel_<N>_<idea>.cuh`: the kernel, how it is launched, and its Stage value);
//! this list only collects them. Every stage sums float, double or int with block sizes 32..1024
//! (stage 6: 64..1024).
#pragma once
#include <string>
#include <vector>

#include "reduce_problem.hpp"

//! Chapter 7: the reduction article's stages 0 to 8, then stages 9 to 11 that reach CUB.
namespace ch07 {

//! Every stage of the chapter in ladder order (stage 6 in both forms: volatile, then syncwarp).
std::vector<harness::Stage<harness::Reduce>> all_stages();

//! The stage called `name` (a program name such as "reduce_kernel_4", or "reduce_kernel_6_volatile").
//! @throws std::out_of_range for an unknown name
harness::Stage<harness::Reduce> stage_named(const std::string& name);

}  // namespace ch07
