# Chapter 07 — errors and debugging: the kernel with no image for your GPU,
# and the example's cases checked under the emulator (and on a GPU).
# Included by sl_add_chapter(07 ...) (cmake/Chapters.cmake).

# ---- kernels/07_errors_noimage.cu, built for the wrong architecture ----------
# The newest architecture this nvcc knows (sm_121 with CUDA 13.0), machine
# code only and no PTX: no other GPU has an image of that kernel, so its
# launch fails with cudaErrorNoKernelImageForDevice. The library's own pass
# over the file (CMAKE_CUDA_ARCHITECTURES) leaves it empty.
set(SIMTLAB_07_WRONG_ARCH "" CACHE STRING
    "Architecture (e.g. 121) that chapter 07's no-image kernel is built for; empty: the newest nvcc knows")
set(sl_07_arch "${SIMTLAB_07_WRONG_ARCH}")
if(SIMTLAB_HAVE_CUDA AND sl_07_arch STREQUAL "")
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code OUTPUT_VARIABLE sl_07_codes
                  RESULT_VARIABLE sl_07_rc ERROR_QUIET)
  if(sl_07_rc EQUAL 0)
    string(REGEX MATCHALL "sm_[0-9]+" sl_07_codes "${sl_07_codes}")
    set(sl_07_arch 0)
    foreach(code IN LISTS sl_07_codes)
      string(REPLACE "sm_" "" code "${code}")
      if(code GREATER sl_07_arch)
        set(sl_07_arch ${code})
      endif()
    endforeach()
  endif()
endif()
if(sl_07_arch STREQUAL "" OR sl_07_arch STREQUAL "0")
  set(sl_07_arch 121)
endif()
target_compile_definitions(simtlab_07_emu PRIVATE SL_07_WRONG_ARCH=${sl_07_arch})
if(SIMTLAB_HAVE_CUDA)
  add_library(simtlab_07_wrong_arch OBJECT ${PROJECT_SOURCE_DIR}/kernels/07_errors_noimage.cu)
  set_target_properties(simtlab_07_wrong_arch PROPERTIES CUDA_ARCHITECTURES ${sl_07_arch}-real)
  target_compile_definitions(simtlab_07_wrong_arch PRIVATE SL_07_WRONG_ARCH_BUILD)
  target_include_directories(simtlab_07_wrong_arch PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
  target_sources(simtlab_cuda PRIVATE $<TARGET_OBJECTS:simtlab_07_wrong_arch>)
  target_compile_definitions(simtlab_cuda PRIVATE SL_07_WRONG_ARCH=${sl_07_arch})
  message(STATUS "simtlab: chapter 07's no-image kernel is built for sm_${sl_07_arch} only")
endif()

if(NOT BUILD_TESTING) # the rest are tests
  return()
endif()
# ---- the example, one case per test -------------------------------------------
# emu.07_errors.CASE runs build/bin/07_errors_emu CASE and checks its exit
# status and what it prints (stdout and stderr): the status code, the CUDA
# error's name, the call that reported it, the emulator's key words.
# gpu.07_errors.CASE runs the CUDA build on a GPU, and skips with the reason
# where there is none. cmake/07_errors_case.cmake says how a test reads them.
set(sl_07_cases assert oob oom config resources noimage hostderef race leak)
# Per case: the exit status ("signal" for death by a signal) and the
# regular expressions the output must match, separated by "@@".
set(sl_07_emu_assert "1" "SL_ERR_CUDA@@cudaErrorAssert@@returned by the launch@@Assertion `x\\[i\\] >= 0.0f` failed in kernel errors_assert_non_negative@@sticky: yes")
set(sl_07_emu_oob "1" "SL_ERR_CUDA@@cudaErrorIllegalAddress@@out-of-bounds read@@offset 4000@@past the end.* of the 4000-byte allocation@@block \\(3,0,0\\), thread \\(232,0,0\\)@@sticky: yes")
set(sl_07_emu_oom "1" "SL_ERR_CUDA@@cudaErrorMemoryAllocation@@returned by cudaMalloc@@out of device memory@@sticky: no")
set(sl_07_emu_config "1" "SL_ERR_CUDA@@cudaErrorInvalidValue@@returned by the launch@@block \\(2048,1,1\\)@@above the device's limit@@1024 threads per block@@sticky: no")
set(sl_07_emu_resources "1" "SL_ERR_UNSUPPORTED@@the emulator counts no registers@@cudaErrorLaunchOutOfResources")
set(sl_07_emu_noimage "1" "SL_ERR_UNSUPPORTED@@no launch can lack a kernel image@@sm_${sl_07_arch} only@@cudaErrorNoKernelImageForDevice")
set(sl_07_emu_hostderef "signal" "SL_ERR_INVALID_ARGUMENT@@is device memory@@cudaMemoryTypeDevice@@host code dereferenced device pointer")
set(sl_07_emu_race "1" "SL_ERR_CUDA@@cudaErrorLaunchFailure@@racecheck: WA[RW] hazard on __shared__ s@@Race reported between@@07_errors.cu:[0-9]+")
set(sl_07_emu_leak "0" "SL_OK@@simtlab: leak: device 4096 bytes from .*07_errors.c:[0-9]+ still allocated@@1 device allocation still live at exit")
# On a GPU (not run on the machine these were written on: no GPU there):
# a small overrun may not fault, and a race may give right answers. The
# config case's cudaErrorInvalidValue (CUDA 13; older versions said
# cudaErrorInvalidConfiguration) was seen on an NVIDIA H200, CUDA 13.0,
# driver 580.159.04, 2026-12-04; the assert case's "cudaDeviceSynchronize()
# after errors_assert_non_negative<<<...>>>" is the library's own wording,
# added after that run and not yet run on a GPU.
set(sl_07_gpu_assert "1" "SL_ERR_CUDA@@cudaErrorAssert@@errors_assert_non_negative<<<4, 256>>>@@sticky: yes")
set(sl_07_gpu_oob "any" "returned (SL_OK|SL_ERR_CUDA)")
set(sl_07_gpu_oom "1" "cudaErrorMemoryAllocation@@sticky: no")
set(sl_07_gpu_config "1" "cudaErrorInvalidValue@@returned by the launch@@1024 threads per block@@sticky: no")
set(sl_07_gpu_resources "any" "registers per thread")
set(sl_07_gpu_noimage "any" "returned (SL_OK|SL_ERR_CUDA)")
set(sl_07_gpu_hostderef "signal" "SL_ERR_INVALID_ARGUMENT@@is device memory")
set(sl_07_gpu_race "0" "SL_OK@@outputs were wrong")
set(sl_07_gpu_leak "0" "simtlab: leak: device 4096 bytes")
foreach(c IN LISTS sl_07_cases)
  list(GET sl_07_emu_${c} 0 rc)
  list(GET sl_07_emu_${c} 1 re)
  add_test(NAME emu.07_errors.${c}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:07_errors_emu> -DCASE=${c} -DRC=${rc} "-DEXPECT=${re}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/07_errors_case.cmake)
  set_tests_properties(emu.07_errors.${c} PROPERTIES LABELS "emu;chapter" TIMEOUT 120)
  if(SIMTLAB_HAVE_CUDA)
    list(GET sl_07_gpu_${c} 0 rc)
    list(GET sl_07_gpu_${c} 1 re)
    add_test(NAME gpu.07_errors.${c}
             COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:07_errors> -DCASE=${c} -DRC=${rc} "-DEXPECT=${re}"
                     -DNEEDS_GPU=1 -P ${PROJECT_SOURCE_DIR}/cmake/07_errors_case.cmake)
    set_tests_properties(gpu.07_errors.${c} PROPERTIES LABELS "gpu;chapter" TIMEOUT 120
                         SKIP_REGULAR_EXPRESSION "simtlab-skip:")
  endif()
endforeach()

# The page's quoted runs and the program, in step (tests/07_errors_page.py).
if(SIMTLAB_PYTHON3)
  add_test(NAME emu.07_errors.page
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/07_errors_page.py
                   ${PROJECT_SOURCE_DIR}/tutorial/07-errors-and-debugging.md $<TARGET_FILE_DIR:07_errors_emu>)
  set_tests_properties(emu.07_errors.page PROPERTIES LABELS "emu;chapter" TIMEOUT 300)
  # The same check in a tree at a path with a 150-character directory,
  # built there (tests/long_path_build.sh): no message may be cut or differ
  # with where the repository is cloned. It builds the emulator again, so it
  # runs with the long checks (make test-long; CI runs both).
  add_test(NAME emu.07_errors.page_long_path
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/long_path_build.sh ${PROJECT_SOURCE_DIR} 2)
  set_tests_properties(emu.07_errors.page_long_path PROPERTIES LABELS "emu;long" TIMEOUT 1500
                       RUN_SERIAL TRUE)
  if(SIMTLAB_HAVE_CUDA)
    # The CUDA build's doctor on a machine without a GPU (skipped on one with).
    add_test(NAME nvcc.07_errors.page_doctor
             COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/07_errors_page.py --doctor
                     ${PROJECT_SOURCE_DIR}/tutorial/07-errors-and-debugging.md $<TARGET_FILE_DIR:00_doctor>)
    set_tests_properties(nvcc.07_errors.page_doctor PROPERTIES LABELS "nvcc;chapter" TIMEOUT 120
                         SKIP_REGULAR_EXPRESSION "simtlab-skip:")
  endif()
endif()
