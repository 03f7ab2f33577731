# Tests that run the GPU tools over the stage programs: Nsight Compute (label `profile`) and
# compute-sanitizer (label `sanitizer`). Both scripts exit 77 -- reported by CTest as skipped --
# where there is no GPU or no such tool (CI), so they never fail a run for lack of hardware.
# The sanitizer test is in the default run (every stage once per tool, at the smallest input that
# reaches every code path, four runs at a time); the profile tests (each a few dozen ncu runs) are
# also labelled `long`, so the default run leaves them out. Run them on purpose:
#   ctest --test-dir build -L profile --output-on-failure
#   ctest --test-dir build -L sanitizer --output-on-failure
# Their outputs go to <build>/gpu-tools/. Included from the top-level CMakeLists.txt after the
# chapters' add_subdirectory() calls, so the stage targets exist.
if(NOT TUTORIAL_BUILD_TESTS)
  return()
endif()

option(TUTORIAL_GPU_TOOL_TESTS "Register the ncu (profile) and compute-sanitizer (sanitizer) tests" ON)
if(NOT TUTORIAL_GPU_TOOL_TESTS)
  return()
endif()

find_package(Python3 3.8 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "GPU tool tests (profile, sanitizer): not registered, no Python 3 interpreter")
  return()
endif()

set(_gpu_tools_out ${PROJECT_BINARY_DIR}/gpu-tools)

# CPU test of the scripts themselves, with fake ncu / compute-sanitizer programs.
add_test(NAME cpu.gpu_tool_scripts
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/tests/test_gpu_tool_scripts.py)
set_tests_properties(cpu.gpu_tool_scripts PROPERTIES LABELS "cpu;scripts" TIMEOUT 300)
# scripts/maintainers/step_causes.py (a measured cause for every ladder step below 1.05x) with the fake ncu: it
# reports the committed ladder's slow steps, and a tampered ladder or an unexplained step fails it.
add_test(NAME cpu.step_causes
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/tests/test_step_causes.py)
set_tests_properties(cpu.step_causes PROPERTIES LABELS "cpu;scripts" TIMEOUT 300)

# Each chapter's profiler claims, step by step, block 256: one ncu run per stage program, the
# counters in a Markdown table, a verdict per claim (scripts/maintainers/check_profile_claims.py). n = 2^24
# elements (floats; 8-bit samples for the histogram), 2^26 for the scan, whose single-pass stages
# need a run long enough for DRAM throughput to mean something.
foreach(_chapter_probe IN ITEMS "ch07;reduce_kernel_1;2^24" "ch08;reduce_stage_1;2^24" "ch08-scan;scan_stage_1;2^26"
                               "ch08-histogram;histogram_stage_1;2^24")
  list(GET _chapter_probe 0 _chapter)
  list(GET _chapter_probe 1 _probe)
  list(GET _chapter_probe 2 _n)
  if(NOT TARGET ${_probe})
    continue()
  endif()
  add_test(NAME profile.${_chapter}_claims
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/check_profile_claims.py
                   --chapter ${_chapter}
                   --bin-dir $<TARGET_FILE_DIR:${_probe}>
                   --n ${_n} --block 256
                   --reports ${_gpu_tools_out}/${_chapter}_reports
                   --md ${_gpu_tools_out}/${_chapter}_profile_claims.md)
  set_tests_properties(profile.${_chapter}_claims PROPERTIES
    LABELS "profile;long;gpu;${_chapter}" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 3600
    RESOURCE_LOCK gpu_tools)
endforeach()

# Every stage program of both chapters that exists when the test runs, under the four tools, each at
# the smallest input that reaches every code path (a tail, two blocks, a second pass, a second tile:
# scripts/maintainers/run_sanitizers.py says which), four runs at a time.
add_test(NAME sanitizer.stages
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/run_sanitizers.py
                 --build-dir ${PROJECT_BINARY_DIR}
                 --jobs 4
                 --log-dir ${_gpu_tools_out}/sanitizer_logs)
set_tests_properties(sanitizer.stages PROPERTIES
  LABELS "sanitizer;gpu" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 5400
  RESOURCE_LOCK gpu_tools)
