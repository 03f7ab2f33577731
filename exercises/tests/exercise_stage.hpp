// The exercise stages a test binary holds. Each test source (test_chNN_NN.cpp) is compiled once and
// linked twice: into exercise_chNN_NN with the stub (exercises/chNN/NN_*.cuh, label `exercise`) and
// into solutions_chNN with every solution (solutions/chNN/NN_*.cuh). A generated CUDA file per
// binary includes the header(s) and registers each stage under "chNN/NN"
// (tutorial_add_exercises in cmake/Tutorial.cmake); the test asks for its stage by that id.
// An exercise's stage may be of any problem (Reduce, Scan, Histogram): the registry is kept per
// problem, and exercise_stage<P>("ch08/03") asks for a Stage<P> (P defaults to Reduce, so the
// chapter-7 tests write exercise_stage("ch07/03")).
#pragma once
#include <map>
#include <stdexcept>
#include <string>

#include "reduce_problem.hpp"
#include "stage.hpp"

//! A function returning an exercise's stage of problem P (ex07::ex03_stage, ex08::ex03_stage).
template <class P>
using ExerciseStageFnOf = harness::Stage<P> (*)();

//! A function returning a reduction exercise's stage (every chapter-7 exercise).
using ExerciseStageFn = ExerciseStageFnOf<harness::Reduce>;

//! The stages of problem P registered in this binary, by id ("ch07/03").
template <class P>
std::map<std::string, ExerciseStageFnOf<P>>& exercise_registry() {
  static std::map<std::string, ExerciseStageFnOf<P>> registry;
  return registry;
}

//! Registers `f` under `id` (called from the generated file's static initialisers); the problem is
//! deduced from the stage function's return type.
template <class P>
bool register_exercise(const char* id, ExerciseStageFnOf<P> f) {
  exercise_registry<P>()[id] = f;
  return true;
}

//! The stage of exercise `id`, from the header this binary was built with (stub or solution).
//! @tparam P the exercise's problem (harness::Reduce unless said otherwise)
//! @throws std::logic_error when the binary does not hold that exercise as a stage of P
template <class P = harness::Reduce>
harness::Stage<P> exercise_stage(const std::string& id) {
  const auto it = exercise_registry<P>().find(id);
  if (it == exercise_registry<P>().end())
    throw std::logic_error("exercise " + id + " is not built into this test binary (as a stage of this problem)");
  return it->second();
}
