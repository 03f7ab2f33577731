# Helpers shared by every chapter: stage programs, CPU tests and GPU tests.

# Exit code a program or test returns when no CUDA GPU is visible; CTest reports it as skipped.
set(TUTORIAL_SKIP_CODE 77)

if(TUTORIAL_BUILD_TESTS)
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    set(TUTORIAL_CATCH2_MAJOR 3)
  else()
    set(TUTORIAL_CATCH2_MAJOR 2)
  endif()
  message(STATUS "Catch2 ${Catch2_VERSION} (major ${TUTORIAL_CATCH2_MAJOR})")
endif()

# tutorial_add_stage_program(<program> [SOURCE <file>] [LIBS <libs...>] [SMOKE_ARGS <args...>])
# Builds one stage program from its own source file (default: <program>.cu in the current folder,
# a real file with the program's main) and registers a smoke test that runs it on a small input
# (skipped where there is no GPU).
function(tutorial_add_stage_program program)
  cmake_parse_arguments(ARG "" "SOURCE" "LIBS;SMOKE_ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "tutorial_add_stage_program(${program}): unknown or empty arguments: "
                        "${ARG_UNPARSED_ARGUMENTS} ${ARG_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT ARG_SOURCE)
    set(ARG_SOURCE ${program}.cu)
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
  set_tests_properties(${name} PROPERTIES
    SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE} LABELS "gpu;smoke;${chapter}" TIMEOUT ${ARG_TIMEOUT})
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
    SKIP_REGULAR_EXPRESSION "Nothing was run: this program needs an NVIDIA GPU"
    LABELS "gpu;selftest" TIMEOUT 300)
endfunction()

# tutorial_add_test(<name> SOURCES <srcs...> LIBS <libs...> LABELS <labels...> [GPU])
# A Catch2 test executable. GPU tests use common/gpu_test_main.cpp, which exits with the skip
# code when no GPU is visible; CPU tests use common/cpu_test_main.cpp.
function(tutorial_add_test name)
  cmake_parse_arguments(ARG "GPU" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "tutorial_add_test(${name}): needs SOURCES; unknown: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TUTORIAL_BUILD_TESTS)
    return()
  endif()
  if(ARG_GPU)
    set(main_src ${PROJECT_SOURCE_DIR}/common/tests/gpu_test_main.cpp)
  else()
    set(main_src ${PROJECT_SOURCE_DIR}/common/tests/cpu_test_main.cpp)
  endif()
  add_executable(${name} ${ARG_SOURCES} ${main_src})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} harness Catch2::Catch2)
  if(ARG_GPU)
    target_link_libraries(${name} PRIVATE harness_testing)
  endif()
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/common/tests)
  target_compile_definitions(${name} PRIVATE TUTORIAL_CATCH2_MAJOR=${TUTORIAL_CATCH2_MAJOR})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 1500)
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
  if(ARG_GPU)
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE ${TUTORIAL_SKIP_CODE})
  endif()
endfunction()
