# The readers' smaller GPUs, checked on any machine: CPU tests (labels cpu;arch) that compile the
# device code of every stage library, and of both chapters' exercises and solutions, for the
# architectures in TUTORIAL_ARCH_TEST_ARCHS (default 75: the T4, the oldest GPU the tutorial
# supports). The build itself compiles for CMAKE_CUDA_ARCHITECTURES only (90 on CI, which has no
# GPU), so without these tests a kernel that uses what an older GPU lacks (an intrinsic of sm_80, a
# PTX instruction of sm_90 outside its architecture guard) would first fail on a reader's machine.
#
# Each test runs nvcc device-only (--cubin) with every optimisation off (-O0 for cicc and ptxas):
# the front end and the code generator still reject what the architecture lacks, at a fraction of
# an optimised build's time: each file took 2 to 20 s on the 2-core CI machine (2026-12-05, shared
# with other builds; the generated ch08 exercises and solutions and ch08_scan_stages.cu the longest).
# The cubins go to <build>/arch_tests/ and nothing links them.
#   ctest --test-dir build -L arch --output-on-failure
#   cmake --preset release -DTUTORIAL_ARCH_TEST_ARCHS="75;80;86;89;120"   # more architectures
# Included from the top-level CMakeLists.txt after the chapters and the exercises, so their library
# targets exist. (Scan stage 8 has its own such test, cpu.scan_stage_8_compiles_for_sm80, in
# ch08_reduction_scan_histogram/scan/CMakeLists.txt.)
if(NOT TUTORIAL_BUILD_TESTS)
  return()
endif()
option(TUTORIAL_ARCH_TESTS "Register the tests that compile the stages' device code for older GPUs" ON)
if(NOT TUTORIAL_ARCH_TESTS)
  return()
endif()
set(TUTORIAL_ARCH_TEST_ARCHS "75" CACHE STRING
    "Architectures (compute capability without the dot) whose device code the cpu;arch tests compile")

set(_arch_out ${PROJECT_BINARY_DIR}/arch_tests)
file(MAKE_DIRECTORY ${_arch_out})
set(_arch_ccbin)
if(CMAKE_CUDA_HOST_COMPILER)
  set(_arch_ccbin -ccbin ${CMAKE_CUDA_HOST_COMPILER})
endif()

# _tutorial_arch_test(<name> <source> <chapter label> LIBS <library targets...> [INCLUDES <dirs...>])
# One test per architecture, cpu.<name>_compiles_for_sm<arch>: the source compiled device-only with
# the include folders of harness, of LIBS and INCLUDES (the kernels need no CLI11, nlohmann-json or
# Catch2: nothing the device code includes reaches them).
function(_tutorial_arch_test name source chapter)
  cmake_parse_arguments(ARG "" "" "LIBS;INCLUDES" ${ARGN})
  # Each target's own include folders (its property, not the transitive list, which would add the
  # toolkit's and the system's folders that nvcc already searches).
  set(dirs)
  foreach(lib IN ITEMS harness ${ARG_LIBS})
    get_target_property(lib_dirs ${lib} INTERFACE_INCLUDE_DIRECTORIES)
    if(lib_dirs)
      list(APPEND dirs ${lib_dirs})
    endif()
  endforeach()
  list(APPEND dirs ${ARG_INCLUDES})
  list(REMOVE_DUPLICATES dirs)
  set(includes)
  foreach(dir IN LISTS dirs)
    list(APPEND includes "-I${dir}")
  endforeach()
  foreach(arch IN LISTS TUTORIAL_ARCH_TEST_ARCHS)
    set(test cpu.${name}_compiles_for_sm${arch})
    add_test(NAME ${test}
             COMMAND ${CMAKE_CUDA_COMPILER} ${_arch_ccbin} -std=c++17 -arch=sm_${arch} --cubin
                     -O0 -Xcicc -O0 -Xptxas -O0 ${includes}
                     -x cu ${source} -o ${_arch_out}/${name}_sm${arch}.cubin)
    set_tests_properties(${test} PROPERTIES LABELS "cpu;arch;${chapter}" TIMEOUT 600)
  endforeach()
endfunction()

# The stage libraries: every CUDA source of each (ch07_stages.cu; ch08_reduce_stages.cu and
# barrier_count.cu; ch08_scan_stages.cu; ch08_histogram_stages.cu).
foreach(lib_chapter IN ITEMS "ch07_stages;ch07" "ch08_reduce;ch08" "ch08_scan;ch08" "ch08_histogram;ch08")
  list(GET lib_chapter 0 lib)
  list(GET lib_chapter 1 chapter)
  if(NOT TARGET ${lib})
    continue()
  endif()
  get_target_property(dir ${lib} SOURCE_DIR)
  get_target_property(sources ${lib} SOURCES)
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cu$")
      continue()
    endif()
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${dir})
    get_filename_component(stem ${source} NAME_WE)
    _tutorial_arch_test(${stem} ${source} ${chapter} LIBS ${lib})
  endforeach()
endforeach()

# The exercises' stubs and their solutions, one file per chapter and kind that includes every
# exercise header and registers its stage, as the exercise build does (tutorial_add_exercises in
# cmake/Tutorial.cmake); LIBS as in exercises/CMakeLists.txt.
foreach(chapter_libs IN ITEMS "ch07;ch07_stages" "ch08;ch08_reduce;ch08_scan;ch08_histogram")
  list(POP_FRONT chapter_libs chapter)
  set(have_libs TRUE)
  foreach(lib IN LISTS chapter_libs)
    if(NOT TARGET ${lib})
      set(have_libs FALSE)
    endif()
  endforeach()
  if(NOT have_libs OR NOT EXISTS ${PROJECT_SOURCE_DIR}/exercises/tests/exercise_stage.hpp)
    continue()
  endif()
  string(REGEX REPLACE "^ch" "ex" ns "${chapter}")
  foreach(kind IN ITEMS exercises solutions)
    file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR}/${kind}/${chapter}
         ${PROJECT_SOURCE_DIR}/${kind}/${chapter}/[0-9][0-9]_*.cuh)
    if(NOT headers)
      continue()
    endif()
    list(SORT headers)
    set(text "// Generated by cmake/ArchTests.cmake: every ${kind}/${chapter} header, for the cpu;arch tests.\n#include \"exercise_stage.hpp\"\n")
    foreach(header IN LISTS headers)
      string(SUBSTRING "${header}" 0 2 nn)
      string(APPEND text "#include \"${header}\"\nstatic const bool registered_${nn} = register_exercise(\"${chapter}/${nn}\", &${ns}::ex${nn}_stage);\n")
    endforeach()
    set(source ${_arch_out}/${kind}_${chapter}.cu)
    file(CONFIGURE OUTPUT ${source} CONTENT "${text}")
    _tutorial_arch_test(${kind}_${chapter} ${source} ${chapter} LIBS ${chapter_libs}
                        INCLUDES ${PROJECT_SOURCE_DIR}/${kind}/${chapter} ${PROJECT_SOURCE_DIR}/exercises/tests)
  endforeach()
endforeach()
