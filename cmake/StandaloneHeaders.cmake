# Every stage header, and every device helper the stages share, compiles alone: a translation unit
# of one line, `#include "<header>"`, per header, compiled by nvcc with the flags of the chapters'
# libraries. A header that uses a name only an earlier include declares (so that it compiles in
# the order of its chapter's library and nowhere else) fails here.
#   ctest --test-dir build -R standalone_headers
# The translation units form the object library standalone_headers, outside `all`: the CPU test
# cpu.standalone_headers builds it (about 100 s on two cores), the default build does not.
if(NOT TUTORIAL_BUILD_TESTS)
  return()
endif()

file(GLOB _standalone_headers CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/common/*.cuh
     ${PROJECT_SOURCE_DIR}/common/*/*.cuh
     ${PROJECT_SOURCE_DIR}/ch07_reduction_opt/*.cuh
     ${PROJECT_SOURCE_DIR}/ch08_reduction_scan_histogram/*/*.cuh)
set(_standalone_sources)
foreach(header IN LISTS _standalone_headers)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${header})
  string(REPLACE "/" "__" flat ${rel})
  set(tu ${PROJECT_BINARY_DIR}/standalone_headers/${flat}.cu)
  # Written only when it changes, so that a new configure does not rebuild every unit.
  set(line "#include \"${header}\"\n")
  if(EXISTS ${tu})
    file(READ ${tu} old)
  else()
    set(old "")
  endif()
  if(NOT old STREQUAL line)
    file(WRITE ${tu} ${line})
  endif()
  list(APPEND _standalone_sources ${tu})
endforeach()

add_library(standalone_headers OBJECT EXCLUDE_FROM_ALL ${_standalone_sources})
# The include paths of the chapters' libraries (each stage header names its includes without a folder).
target_link_libraries(standalone_headers PRIVATE harness ch07_stages ch08_reduce ch08_scan ch08_histogram)
# Parsing is the test, not code generation: PTX only (no ptxas), for the first architecture the build
# compiles for, without optimisation (a third of the time of the stage libraries' flags).
list(GET CMAKE_CUDA_ARCHITECTURES 0 _standalone_arch)
string(REGEX REPLACE "-(real|virtual)$" "" _standalone_arch "${_standalone_arch}")
set_target_properties(standalone_headers PROPERTIES CUDA_ARCHITECTURES ${_standalone_arch}-virtual)
target_compile_options(standalone_headers PRIVATE "SHELL:-Xcompiler -O0" "SHELL:-Xcicc -O0")

add_test(NAME cpu.standalone_headers
         COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target standalone_headers --parallel 2)
set_tests_properties(cpu.standalone_headers PROPERTIES LABELS "cpu;harness" TIMEOUT 900 RUN_SERIAL TRUE)
