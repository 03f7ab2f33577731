# Decides CMAKE_CUDA_ARCHITECTURES once, before the CUDA language is enabled.
#
# Order of precedence:
#   1. a value the user set: -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment variable;
#   2. the compute capability of the GPU(s) that nvidia-smi reports on this machine;
#   3. sm_90 alone (H100/H200, the GPU the results were measured on), on machines with no GPU (CI):
#      one architecture, so that a build there compiles every kernel once.
#
# The value is cached, so a later configure of the same build folder finds it already set; the
# message then says where it came from (kept in the cache as TUTORIAL_CUDA_ARCHITECTURES_FROM).

# _tutorial_cuda_archs_chosen(<value> <where it came from>): remember and report the choice.
macro(_tutorial_cuda_archs_chosen value from)
  set(TUTORIAL_CUDA_ARCHITECTURES_VALUE "${value}" CACHE INTERNAL "CUDA architectures this file chose or was given")
  set(TUTORIAL_CUDA_ARCHITECTURES_FROM "${from}" CACHE INTERNAL "where they came from")
  message(STATUS "CUDA architectures: ${value} (${from})")
endmacro()

if(DEFINED CMAKE_CUDA_ARCHITECTURES AND DEFINED TUTORIAL_CUDA_ARCHITECTURES_VALUE
   AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${TUTORIAL_CUDA_ARCHITECTURES_VALUE}")
  message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} (cached by an earlier configure of "
                 "this build folder: ${TUTORIAL_CUDA_ARCHITECTURES_FROM}; to choose again, "
                 "pass -DCMAKE_CUDA_ARCHITECTURES=... or delete CMakeCache.txt)")
  return()
endif()
if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  _tutorial_cuda_archs_chosen("${CMAKE_CUDA_ARCHITECTURES}" "set by the user with -DCMAKE_CUDA_ARCHITECTURES")
  return()
endif()
if(DEFINED ENV{CUDAARCHS})
  _tutorial_cuda_archs_chosen("$ENV{CUDAARCHS}" "set by the CUDAARCHS environment variable")
  return()
endif()

set(_tutorial_fallback_archs "90")
find_program(_tutorial_nvidia_smi nvidia-smi)
set(_tutorial_detected "")
if(_tutorial_nvidia_smi)
  execute_process(
    COMMAND "${_tutorial_nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _tutorial_caps
    RESULT_VARIABLE _tutorial_rc
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
    TIMEOUT 20)
  if(_tutorial_rc EQUAL 0 AND _tutorial_caps MATCHES "^[0-9]")
    string(REPLACE "\n" ";" _tutorial_caps "${_tutorial_caps}")
    foreach(_cap IN LISTS _tutorial_caps)
      string(STRIP "${_cap}" _cap)
      string(REPLACE "." "" _cap "${_cap}")
      if(_cap MATCHES "^[0-9]+$")
        list(APPEND _tutorial_detected "${_cap}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _tutorial_detected)
  endif()
endif()

if(_tutorial_detected)
  set(CMAKE_CUDA_ARCHITECTURES "${_tutorial_detected}" CACHE STRING "CUDA architectures (detected GPU)")
  _tutorial_cuda_archs_chosen("${CMAKE_CUDA_ARCHITECTURES}" "detected: the compute capability that nvidia-smi reports")
else()
  set(CMAKE_CUDA_ARCHITECTURES "${_tutorial_fallback_archs}" CACHE STRING "CUDA architectures (no GPU found: fixed list)")
  _tutorial_cuda_archs_chosen("${CMAKE_CUDA_ARCHITECTURES}" "the fixed list for machines with no GPU visible")
endif()
