// The exercise stages a test binary holds. Each test source (test_ch07_NN.cpp) is compiled once and
// linked twice: into exercise_ch07_NN with the stub (exercises/ch07/NN_*.cuh, label `exercise`) and
// into solutions_ch07 with every solution (solutions/ch07/NN_*.cuh). A generated CUDA file per
// binary includes the header(s) and registers each stage under "ch07/NN"
// (tutorial_add_exercises in cmake/Tutorial.cmake); the test asks for its stage by that id.
#pragma once
#include <map>
#include <stdexcept>
#include <string>

#include "reduce_problem.hpp"

//! A function returning an exercise's stage (ex07::ex03_stage).
using ExerciseStageFn = harness::Stage<harness::Reduce> (*)();

//! The stages registered in this binary, by id ("ch07/03").
inline std::map<std::string, ExerciseStageFn>& exercise_registry() {
  static std::map<std::string, ExerciseStageFn> registry;
  return registry;
}

//! Registers `f` under `id` (called from the generated file's static initialisers).
inline bool register_exercise(const char* id, ExerciseStageFn f) {
  exercise_registry()[id] = f;
  return true;
}

//! The stage of exercise `id`, from the header this binary was built with (stub or solution).
//! @throws std::logic_error when the binary does not hold that exercise
inline harness::Stage<harness::Reduce> exercise_stage(const std::string& id) {
  const auto it = exercise_registry().find(id);
  if (it == exercise_registry().end()) throw std::logic_error("exercise " + id + " is not built into this test binary");
  return it->second();
}
