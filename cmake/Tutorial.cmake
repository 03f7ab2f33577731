# Helpers shared by every chapter: stage programs, CPU tests and GPU tests.

# Exit code a program or test returns when no CUDA GPU is visible; CTest reports it as skipped.
set(TUTORIAL_SKIP_CODE 77)
# What a program prints when the GPU cannot run what was asked (harness::kCannotRunHere, errors.hpp):
# the smoke tests and self-tests read it as a skip.
set(TUTORIAL_CANNOT_RUN_HERE "cannot run on this GPU")

if(TUTORIAL_BUILD_TESTS)
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    set(TUTORIAL_CATCH2_MAJOR 3)
  else()
    set(TUTORIAL_CATCH2_MAJOR 2)
  endif()
  message(STATUS "Catch2 ${Catch2_VERSION} (major ${TUTORIAL_CATCH2_MAJOR})")
endif()

# tutorial_add_stage_program(<program> [SOURCE <file>] [LIBS <libs...>] [SMOKE_ARGS <args...>])
# Builds one stage program from its own source file (default: <program>.cpp in the current folder,
# a real file with the program's main) and registers a smoke test that runs it on a small input
# (skipped where there is no GPU). A chapter's stage program is a plain C++ `main` that asks the
# chapter's library (LIBS, e.g. ch07_stages) for its stage: the stage's kernels are compiled once,
# in that library, for the program, the ladder and the tests alike.
function(tutorial_add_stage_program program)
  cmake_parse_arguments(ARG "" "SOURCE" "LIBS;SMOKE_ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "tutorial_add_stage_program(${program}): unknown or empty arguments: "
                        "${ARG_UNPARSED_ARGUMENTS} ${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT ARG_SOURCE)
    set(ARG_SOURCE ${program}.cpp)
  endif()
  add_executable(${program} ${ARG_SOURCE})
  target_link_libraries(${program} PRIVATE ${ARG_LIBS} harness)
  target_include_directories(${program} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  if(TUTORIAL_BUILD_TESTS)
    if(NOT ARG_SMOKE_ARGS)
      set(ARG_SMOKE_ARGS --n 100003 --iters 3 --warmup 1)
    endif()
    tutorial_add_smoke_test(smoke.${program} COMMAND ${program} ${ARG_SMOKE_ARGS})
  endif()
endfunction()

# tutorial_add_smoke_test(<name> COMMAND <program> <args...> [TIMEOUT <s>])
# A GPU smoke test: runs the command, skipped (exit 77) without a GPU, labelled gpu;smoke and the
# chapter of the folder (ch07, ch08, ...), so that `ctest -L ch08` runs it too.
function(tutorial_add_smoke_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "COMMAND" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_COMMAND)
    message(FATAL_ERROR "tutorial_add_smoke_test(${name}): needs COMMAND; unknown: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  string(REGEX MATCH "ch[0-9]+" chapter "${CMAKE_CURRENT_SOURCE_DIR}")
  add_test(NAME ${name} COMMAND ${ARG_COMMAND})
  # Skipped, not failed, where the GPU cannot run it: no GPU (exit 77), or a refusal that says
  # "cannot run on this GPU" (a stage past the GPU's architecture, shared memory or free memory, or
  # one this build's toolkit could not compile: exit 2 with that phrase, harness::UnsupportedError).
  set_tests_properties(${name} PROPERTIES
    SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} SKIP_REGULAR_EXPRESSION "${TUTORIAL_CANNOT_RUN_HERE}"
    LABELS "gpu;smoke;${chapter}" TIMEOUT ${ARG_TIMEOUT})
endfunction()

# tutorial_add_selftest(<name> COMMAND <program> <args...>)
# A check that must fail: runs a deliberately broken stage through the reader's path (its stage
# program) and passes only when the program reports the failure ("verify:     FAIL"); a program that
# reports PASS, or crashes before its verdict, fails the test. Skipped without a GPU (the program's
# "Nothing was run" message). Labels gpu;selftest.
function(tutorial_add_selftest name)
  cmake_parse_arguments(ARG "" "" "COMMAND" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_COMMAND)
    message(FATAL_ERROR "tutorial_add_selftest(${name}): needs COMMAND; unknown: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  add_test(NAME ${name} COMMAND ${ARG_COMMAND})
  set_tests_properties(${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "verify: +FAIL"
    FAIL_REGULAR_EXPRESSION "verify: +PASS"
    SKIP_REGULAR_EXPRESSION "Nothing was run: this program needs an NVIDIA GPU;${TUTORIAL_CANNOT_RUN_HERE}"
    LABELS "gpu;selftest" TIMEOUT 300)
endfunction()

# tutorial_test_support(): the pieces every Catch2 test executable shares, made once per build.
# - tutorial_catch_runner: the Catch2 session (common/tests/catch_runner.cpp), compiled once for all
#   test executables (with Catch2 2.x it compiles the whole of Catch2, the slowest C++ file of the
#   build); tutorial_cpu_test_main, tutorial_gpu_test_main: the two mains that call it
#   (common/tests/cpu_test_main.cpp, gpu_test_main.cpp);
# - tutorial_test_pch: Catch2's header (common/tests/catch.hpp) and the standard headers the tests
#   use, precompiled once; every C++ test source reuses it (target_precompile_headers REUSE_FROM;
#   CUDA test sources do without). -DTUTORIAL_PRECOMPILE_HEADERS=OFF turns it off.
option(TUTORIAL_PRECOMPILE_HEADERS "Precompile Catch2 (and the standard headers) once for the C++ test sources" ON)
function(tutorial_test_support)
  if(TARGET tutorial_gpu_test_main OR NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  # The Catch2 session (catch_runner.cpp, all of Catch2 2.x) once; each runner's main calls it.
  add_library(tutorial_catch_runner OBJECT ${PROJECT_SOURCE_DIR}/common/tests/catch_runner.cpp)
  target_link_libraries(tutorial_catch_runner PRIVATE Catch2::Catch2)
  target_compile_definitions(tutorial_catch_runner PRIVATE TUTORIAL_CATCH2_MAJOR=${TUTORIAL_CATCH2_MAJOR})
  foreach(kind cpu gpu)
    add_library(tutorial_${kind}_test_main OBJECT ${PROJECT_SOURCE_DIR}/common/tests/${kind}_test_main.cpp)
    target_link_libraries(tutorial_${kind}_test_main PRIVATE harness)
    target_include_directories(tutorial_${kind}_test_main PRIVATE ${PROJECT_SOURCE_DIR}/common/tests)
  endforeach()
  if(TUTORIAL_PRECOMPILE_HEADERS)
    set(anchor ${PROJECT_BINARY_DIR}/tutorial_test_pch.cpp)
    file(CONFIGURE OUTPUT ${anchor} CONTENT "// Generated (cmake/Tutorial.cmake): the precompiled test header's own unit.\n")
    add_library(tutorial_test_pch OBJECT ${anchor})
    target_link_libraries(tutorial_test_pch PRIVATE harness Catch2::Catch2)
    target_include_directories(tutorial_test_pch PRIVATE ${PROJECT_SOURCE_DIR}/common/tests)
    target_compile_definitions(tutorial_test_pch PRIVATE TUTORIAL_CATCH2_MAJOR=${TUTORIAL_CATCH2_MAJOR})
    target_precompile_headers(tutorial_test_pch PRIVATE
      <algorithm> <cstddef> <cstdint> <functional> <map> <set> <sstream> <string> <vector>
      ${PROJECT_SOURCE_DIR}/common/tests/catch.hpp)
  endif()
endfunction()

# tutorial_use_test_pch(<target>): the target's C++ sources use the precompiled test header.
function(tutorial_use_test_pch target)
  if(TUTORIAL_PRECOMPILE_HEADERS AND TARGET tutorial_test_pch)
    target_precompile_headers(${target} REUSE_FROM tutorial_test_pch)
  endif()
endfunction()

# tutorial_add_test(<name> SOURCES <srcs...> LIBS <libs...> LABELS <labels...> [GPU] [LONG]
#                   [TIMEOUT <s>])
# A Catch2 test executable. GPU tests use common/gpu_test_main.cpp, which exits with the skip
# code when no GPU is visible; CPU tests use common/cpu_test_main.cpp.
# LONG: the sources also hold hidden test cases tagged [.][long] (the exhaustive, long ones: every
# type past 2^31, a hundred repeats ...). The test <name> runs the others (the default run); a
# second test, <name>.long, runs the [long] ones, labels `long` and <LABELS>; the default preset
# leaves the label `long` out (`ctest --test-dir build -L long` runs them).
function(tutorial_add_test name)
  cmake_parse_arguments(ARG "GPU;LONG" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "tutorial_add_test(${name}): needs SOURCES; unknown: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  tutorial_test_support()
  if(ARG_GPU)
    set(main_obj tutorial_gpu_test_main)
  else()
    set(main_obj tutorial_cpu_test_main)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${main_obj} tutorial_catch_runner ${ARG_LIBS} harness Catch2::Catch2)
  if(ARG_GPU)
    target_link_libraries(${name} PRIVATE harness_testing)
  endif()
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/common/tests)
  target_compile_definitions(${name} PRIVATE TUTORIAL_CATCH2_MAJOR=${TUTORIAL_CATCH2_MAJOR})
  tutorial_use_test_pch(${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 1500)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
  set(tests ${name})
  if(ARG_LONG)
    add_test(NAME ${name}.long COMMAND ${name} "[long]")
    set_tests_properties(${name}.long PROPERTIES LABELS "long;${ARG_LABELS}" TIMEOUT 3600)
    list(APPEND tests ${name}.long)
  endif()
  if(ARG_GPU)
    # GPU test programs sweep up to 2^31 + 1 elements and keep inputs cached: two at once can
    # exhaust the device's memory, so `ctest -j` runs them one at a time (CPU tests still overlap).
    set_tests_properties(${tests} PROPERTIES SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} RESOURCE_LOCK gpu_memory)
  endif()
endfunction()

# tutorial_add_exercises(<chapter> NUMBERS <NN...> [LIBS <libs...>])
# The chapter's exercises, each with one test source exercises/tests/test_<chapter>_<NN>.cpp that
# asks for its stage with exercise_stage("<chapter>/<NN>") (exercises/tests/exercise_stage.hpp).
# Each source is compiled once and linked twice:
# - against the stub exercises/<chapter>/<NN>_*.cuh: one executable and test per exercise,
#   exercise_<chapter>_<NN>, label `exercise` only, so the default run leaves it out (a stub fails
#   until the reader solves it) and a reader's half-written exercise never breaks another's build;
#   `ctest -L exercise -R <chapter>_<NN>` or scripts/exercise.sh <chapter>/<NN> runs it;
# - against the solutions solutions/<chapter>/<NN>_*.cuh: one executable for the chapter,
#   solutions_<chapter>, and one test of the same name that runs every solution's test case (each
#   tagged [<chapter>_<NN>]), labels gpu;solution;<chapter>, in the default run.
# A generated CUDA file includes the header(s) and registers each stage as <chapter>/<NN>; the stage
# function is ex<digits>::ex<NN>_stage (ex07::ex03_stage for ch07/03). The Catch2 runner is compiled
# once for all tests (tutorial_test_support). Test cases tagged [.][long] are hidden from both; the
# solutions run them in a second test, solutions_<chapter>.long (label `long`).
function(tutorial_add_exercises chapter)
  cmake_parse_arguments(ARG "" "" "NUMBERS;LIBS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR ARG_KEYWORDS_MISSING_VALUES OR NOT ARG_NUMBERS)
    message(FATAL_ERROR "tutorial_add_exercises(${chapter}): needs NUMBERS; "
                        "unknown or empty: ${ARG_UNPARSED_ARGUMENTS} ${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  string(REGEX REPLACE "^ch" "ex" ns "${chapter}")
  tutorial_test_support()
  set(has_long FALSE)
  set(solution_src ${CMAKE_CURRENT_BINARY_DIR}/solutions_${chapter}_stages.cu)
  set(solution_text "// Generated by tutorial_add_exercises (cmake/Tutorial.cmake): the solutions of ${chapter}.\n#include \"exercise_stage.hpp\"\n")
  set(test_objects "")
  foreach(nn IN LISTS ARG_NUMBERS)
    file(GLOB header RELATIVE ${PROJECT_SOURCE_DIR}/exercises/${chapter} ${PROJECT_SOURCE_DIR}/exercises/${chapter}/${nn}_*.cuh)
    list(LENGTH header count)
    if(NOT count EQUAL 1 OR NOT EXISTS ${PROJECT_SOURCE_DIR}/solutions/${chapter}/${header})
      message(FATAL_ERROR "tutorial_add_exercises: need exactly one exercises/${chapter}/${nn}_*.cuh and its "
                          "twin in solutions/${chapter} (found: ${header})")
    endif()
    set(id ${chapter}_${nn})
    set(register "static const bool registered_${nn} = register_exercise(\"${chapter}/${nn}\", &${ns}::ex${nn}_stage);\n")
    string(APPEND solution_text "#include \"${header}\"\n${register}")
    # The test source, compiled once for both builds.
    set(test_src ${PROJECT_SOURCE_DIR}/exercises/tests/test_${id}.cpp)
    add_library(exercise_test_${id} OBJECT ${test_src})
    target_link_libraries(exercise_test_${id} PRIVATE ${ARG_LIBS} harness_testing)
    target_include_directories(exercise_test_${id} PRIVATE ${PROJECT_SOURCE_DIR}/exercises/tests)
    tutorial_use_test_pch(exercise_test_${id})
    file(READ ${test_src} test_text)
    if(test_text MATCHES "\\[\\.\\]\\[long\\]")
      set(has_long TRUE)
    endif()
    list(APPEND test_objects $<TARGET_OBJECTS:exercise_test_${id}>)
    # The stub's executable and test.
    set(stub_src ${CMAKE_CURRENT_BINARY_DIR}/exercise_${id}_stage.cu)
    file(CONFIGURE OUTPUT ${stub_src} CONTENT
"// Generated by tutorial_add_exercises (cmake/Tutorial.cmake): the stub of exercise ${chapter}/${nn}.
#include \"exercise_stage.hpp\"
#include \"${header}\"
${register}")
    add_executable(exercise_${id} ${stub_src} $<TARGET_OBJECTS:exercise_test_${id}> $<TARGET_OBJECTS:tutorial_gpu_test_main> $<TARGET_OBJECTS:tutorial_catch_runner>)
    target_link_libraries(exercise_${id} PRIVATE ${ARG_LIBS} harness_testing harness Catch2::Catch2)
    target_include_directories(exercise_${id} PRIVATE ${PROJECT_SOURCE_DIR}/exercises/${chapter} ${PROJECT_SOURCE_DIR}/exercises/tests)
    add_test(NAME exercise_${id} COMMAND exercise_${id})
    set_tests_properties(exercise_${id} PROPERTIES LABELS exercise TIMEOUT 900 SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE}
                                                       RESOURCE_LOCK gpu_memory)
  endforeach()
  # The solutions' executable and its one test: every solution of the chapter in one process, so
  # that the large inputs (2^31 + 1 elements: gigabytes, seconds each to make) are made once for all
  # of them, not once per exercise: the default run's one input stays in cached_session's cache, and
  # the [long] cases' six (one per type and kind of data, too many to cache together) are swept input
  # by input over every solution at once (exercise_support::past_2e31_every_type_runs).
  # scripts/exercise.sh <chapter>/<NN> --solution runs one exercise's test case, tag [<chapter>_<NN>].
  file(CONFIGURE OUTPUT ${solution_src} CONTENT "${solution_text}")
  add_executable(solutions_${chapter} ${solution_src} ${test_objects} $<TARGET_OBJECTS:tutorial_gpu_test_main> $<TARGET_OBJECTS:tutorial_catch_runner>)
  target_link_libraries(solutions_${chapter} PRIVATE ${ARG_LIBS} harness_testing harness Catch2::Catch2)
  target_include_directories(solutions_${chapter} PRIVATE ${PROJECT_SOURCE_DIR}/solutions/${chapter} ${PROJECT_SOURCE_DIR}/exercises/tests)
  add_test(NAME solutions_${chapter} COMMAND solutions_${chapter})
  set_tests_properties(solutions_${chapter} PROPERTIES
    LABELS "gpu;solution;${chapter}" TIMEOUT 1800 SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE}
    RESOURCE_LOCK gpu_memory)
  # The solutions' hidden [.][long] test cases (every type past 2^31), label `long`.
  if(has_long)
    add_test(NAME solutions_${chapter}.long COMMAND solutions_${chapter} "[long]")
    set_tests_properties(solutions_${chapter}.long PROPERTIES
      LABELS "long;gpu;solution;${chapter}" TIMEOUT 3600 SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE}
      RESOURCE_LOCK gpu_memory)
  endif()
endfunction()
