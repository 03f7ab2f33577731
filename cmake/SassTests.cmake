# What the compiler makes of the stages, checked on any machine (no GPU): CPU tests (labels cpu;sass)
# that compile a chapter's stages for sm_90 (nvcc --cubin), disassemble them (nvdisasm or cuobjdump)
# and count instructions per kernel against the chapter's claims file, one entry per sentence of the
# pages and stage headers that says what nvcc emits (scripts/maintainers/sass_check.py has the rules).
#   ctest --test-dir build -L sass --output-on-failure
# A toolkit without nvdisasm and cuobjdump (the CI machine's) gets them from PyPI: scripts/tutorial.sh
# installs nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump into .whl/cuda-tools. Without either the
# tests are skipped (exit 77), except under CI=true, where the claims test fails.
# Cubins and ptxas logs go to <build>/sass/.
if(NOT TUTORIAL_BUILD_TESTS)
  return()
endif()
find_package(Python3 3.8 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "SASS tests (sass): not registered, no Python 3 interpreter")
  return()
endif()
set(_sass_ccbin)
if(CMAKE_CUDA_HOST_COMPILER)
  set(_sass_ccbin --ccbin ${CMAKE_CUDA_HOST_COMPILER})
endif()

# Chapter 7's claims (ch07_reduction_opt/tests/sass_claims.json).
add_test(NAME cpu.sass_claims_ch07
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/sass_check.py
                 ${PROJECT_SOURCE_DIR}/ch07_reduction_opt/tests/sass_claims.json
                 --nvcc ${CMAKE_CUDA_COMPILER} ${_sass_ccbin} --work-dir ${PROJECT_BINARY_DIR}/sass)
# Chapter 8 scan's registers and spills (ch08_reduction_scan_histogram/scan/tests/sass_claims.json).
add_test(NAME cpu.sass_claims_ch08_scan
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/sass_check.py
                 ${PROJECT_SOURCE_DIR}/ch08_reduction_scan_histogram/scan/tests/sass_claims.json
                 --nvcc ${CMAKE_CUDA_COMPILER} ${_sass_ccbin} --work-dir ${PROJECT_BINARY_DIR}/sass)
set_tests_properties(cpu.sass_claims_ch08_scan PROPERTIES
  LABELS "cpu;sass;ch08" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 600
  ENVIRONMENT "CUDACXX=${CMAKE_CUDA_COMPILER}")
# Chapter 8 reduction's binned sum (ch08_reduction_scan_histogram/reduce/tests/sass_claims.json):
# the deposit's instructions, stage 6's loads, barriers and registers.
add_test(NAME cpu.sass_claims_ch08_reduce
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/sass_check.py
                 ${PROJECT_SOURCE_DIR}/ch08_reduction_scan_histogram/reduce/tests/sass_claims.json
                 --nvcc ${CMAKE_CUDA_COMPILER} ${_sass_ccbin} --work-dir ${PROJECT_BINARY_DIR}/sass)
set_tests_properties(cpu.sass_claims_ch08_reduce PROPERTIES
  LABELS "cpu;sass;ch08" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 600
  ENVIRONMENT "CUDACXX=${CMAKE_CUDA_COMPILER}")
# The checker itself: its parsing, and a deliberately wrong claim that it must report FAILED.
add_test(NAME cpu.sass_checker
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/tests/test_sass_check.py)
# The reader's view of one step (scripts/compare_stages.py --step) on stages 4 and 5.
add_test(NAME cpu.compare_stages_step
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/maintainers/tests/test_compare_stages_step.py)
set_tests_properties(cpu.sass_claims_ch07 cpu.sass_checker cpu.compare_stages_step PROPERTIES
  LABELS "cpu;sass;ch07" SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} TIMEOUT 600
  ENVIRONMENT "CUDACXX=${CMAKE_CUDA_COMPILER}")
