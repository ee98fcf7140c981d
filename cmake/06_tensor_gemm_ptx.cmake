# Chapter 06's evidence that needs no GPU (a CTest test, CUDA builds only):
#   1. the PTX of kernels/06_tensor_gemm_mma.cu (v3-v5) for sm_80 contains
#      mma.sync m16n8k16, ldmatrix and cp.async (and cp.async's waits);
#   2. ptxas spills 0 bytes in every kernel of kernels/06_tensor_gemm*.cu for
#      sm_80 and sm_90.
# Run as: cmake -DNVCC=<nvcc> -DKERNELS=<source>/kernels -DOUT=<dir>
#               [-DLOGS=<build>/ptxas/simtlab_cuda -DBUILT_ARCHS=<CUDA_ARCHITECTURES, comma-separated>]
#               -P this file
# An architecture the library was built for (BUILT_ARCHS) is read from the
# ptxas -v report that scripts/ptxas-log.sh kept while it compiled the file
# (LOGS/<file>.ptxas): the same ptxas run that made the library's machine
# code, so no second compile; any other one is compiled here.
cmake_minimum_required(VERSION 3.25) # IN_LIST below
foreach(v NVCC KERNELS OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "06_tensor_gemm_ptx.cmake: pass -D${v}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${OUT})
string(REPLACE "," ";" BUILT_ARCHS "${BUILT_ARCHS}")

execute_process(COMMAND ${NVCC} -ptx -arch=sm_80 -I${KERNELS} ${KERNELS}/06_tensor_gemm_mma.cu
                        -o ${OUT}/06_tensor_gemm_mma.ptx
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -ptx failed: ${err}")
endif()
file(READ ${OUT}/06_tensor_gemm_mma.ptx ptx)
foreach(needle "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
               "ldmatrix.sync.aligned.m8n8.x4.shared.b16" "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
               "cp.async.cg.shared.global" "cp.async.commit_group" "cp.async.wait_group")
  string(FIND "${ptx}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the PTX of v3-v5 (${OUT}/06_tensor_gemm_mma.ptx) lacks ${needle}")
  endif()
  message(STATUS "PTX has ${needle}")
endforeach()

# The spill lines of ptxas's report (text) for one architecture, in spills_out:
# each "N bytes spill stores, N bytes spill loads" line counts for the
# architecture of the entry function ptxas last said it was compiling.
function(spills_for_arch text arch spills_out)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(current "")
  set(found)
  foreach(line IN LISTS lines)
    if(line MATCHES "for 'sm_([0-9]+a?)'")
      set(current "${CMAKE_MATCH_1}")
    elseif(line MATCHES "[0-9]+ bytes spill stores, [0-9]+ bytes spill loads" AND current STREQUAL arch)
      list(APPEND found "${CMAKE_MATCH_0}")
    endif()
  endforeach()
  set(${spills_out} "${found}" PARENT_SCOPE)
endfunction()

foreach(arch 80 90)
  foreach(src 06_tensor_gemm.cu 06_tensor_gemm_mma.cu)
    set(log "${LOGS}/${src}.ptxas")
    if(DEFINED LOGS AND (arch IN_LIST BUILT_ARCHS OR "${arch}-real" IN_LIST BUILT_ARCHS) AND EXISTS "${log}")
      file(READ "${log}" out)
      set(err "")
      set(from "the library's build (${log})")
      spills_for_arch("${out}" ${arch} spills)
    else()
      execute_process(COMMAND ${NVCC} -c -arch=sm_${arch} -Xptxas -v -I${KERNELS} ${KERNELS}/${src}
                              -o ${OUT}/${src}.sm_${arch}.o
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "nvcc -c -arch=sm_${arch} ${src} failed: ${err}")
      endif()
      set(from "nvcc -c -arch=sm_${arch}")
      string(REGEX MATCHALL "[0-9]+ bytes spill stores, [0-9]+ bytes spill loads" spills "${out}${err}")
    endif()
    if(NOT spills)
      message(FATAL_ERROR "ptxas -v printed no spill report for ${src} (sm_${arch}, ${from}): ${out}${err}")
    endif()
    foreach(line IN LISTS spills)
      if(NOT line STREQUAL "0 bytes spill stores, 0 bytes spill loads")
        message(FATAL_ERROR "${src} spills on sm_${arch}: ${line}\n${out}${err}")
      endif()
    endforeach()
    list(LENGTH spills count)
    message(STATUS "${src} sm_${arch}: ${count} kernels, 0 bytes of spills (${from})")
  endforeach()
endforeach()
