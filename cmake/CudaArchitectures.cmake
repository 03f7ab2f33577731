# Decides CMAKE_CUDA_ARCHITECTURES once, before the CUDA language is enabled.
#
# Order of precedence:
#   1. a value the user set: -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment variable;
#   2. the compute capability of the GPU(s) that nvidia-smi reports on this machine;
#   3. a fixed list that includes sm_90 (H100/H200), used on machines with no GPU (CI).
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  if(DEFINED CMAKE_CUDA_ARCHITECTURES)
    message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} (set by the user)")
  else()
    message(STATUS "CUDA architectures: $ENV{CUDAARCHS} (from CUDAARCHS)")
  endif()
  return()
endif()

set(_tutorial_fallback_archs "80-real;90")
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
  message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} (detected with nvidia-smi)")
else()
  set(CMAKE_CUDA_ARCHITECTURES "${_tutorial_fallback_archs}" CACHE STRING "CUDA architectures (no GPU found: fixed list)")
  message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES} (no GPU visible: fixed list)")
endif()
