# Tests that run the GPU tools over the stage programs: Nsight Compute (label `profile`) and
# compute-sanitizer (label `sanitizer`). Both scripts exit 77 -- reported by CTest as skipped --
# where there is no GPU or no such tool (CI), so they never fail a run for lack of hardware.
# On a GPU machine they take minutes; run them on purpose:
#   ctest --test-dir build -L profile --output-on-failure
#   ctest --test-dir build -L sanitizer --output-on-failure
# and leave them out of a quick run with: ctest --test-dir build -LE 'profile|sanitizer'
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
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/tests/test_gpu_tool_scripts.py)
set_tests_properties(cpu.gpu_tool_scripts PROPERTIES LABELS "cpu;scripts" TIMEOUT 300)

if(TARGET reduce_kernel_1)
  # Chapter 7's profiler claims, step by step, at n = 2^24 floats, block 256.
  add_test(NAME profile.ch07_claims
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/check_profile_claims.py
                   --bin-dir $<TARGET_FILE_DIR:reduce_kernel_1>
                   --n 2^24 --block 256
                   --reports ${_gpu_tools_out}/ch07_reports
                   --md ${_gpu_tools_out}/ch07_profile_claims.md)
  set_tests_properties(profile.ch07_claims PROPERTIES
    LABELS "profile;gpu;ch07" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 3600
    RESOURCE_LOCK gpu_tools)
endif()

# Every stage program of both chapters that exists when the test runs, under the four tools.
add_test(NAME sanitizer.stages
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/run_sanitizers.py
                 --build-dir ${PROJECT_BINARY_DIR}
                 --sizes 1000,4099
                 --log-dir ${_gpu_tools_out}/sanitizer_logs)
set_tests_properties(sanitizer.stages PROPERTIES
  LABELS "sanitizer;gpu" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 5400
  RESOURCE_LOCK gpu_tools)
