# Chapter 06's evidence that needs no GPU (a CTest test, CUDA builds only):
#   1. the PTX of kernels/06_tensor_gemm_mma.cu (v3-v5) for sm_80 contains
#      mma.sync m16n8k16, ldmatrix and cp.async (and cp.async's waits);
#   2. ptxas spills 0 bytes in every kernel of kernels/06_tensor_gemm*.cu for
#      sm_80 and sm_90.
# Run as: cmake -DNVCC=<nvcc> -DKERNELS=<source>/kernels -DOUT=<dir> -P this file
foreach(v NVCC KERNELS OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "06_tensor_gemm_ptx.cmake: pass -D${v}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${OUT})

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

foreach(arch 80 90)
  foreach(src 06_tensor_gemm.cu 06_tensor_gemm_mma.cu)
    execute_process(COMMAND ${NVCC} -c -arch=sm_${arch} -Xptxas -v -I${KERNELS} ${KERNELS}/${src}
                            -o ${OUT}/${src}.sm_${arch}.o
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nvcc -c -arch=sm_${arch} ${src} failed: ${err}")
    endif()
    string(REGEX MATCHALL "[0-9]+ bytes spill stores, [0-9]+ bytes spill loads" spills "${out}${err}")
    if(NOT spills)
      message(FATAL_ERROR "ptxas -v printed no spill report for ${src} (sm_${arch}): ${out}${err}")
    endif()
    foreach(line IN LISTS spills)
      if(NOT line STREQUAL "0 bytes spill stores, 0 bytes spill loads")
        message(FATAL_ERROR "${src} spills on sm_${arch}: ${line}\n${out}${err}")
      endif()
    endforeach()
    list(LENGTH spills count)
    message(STATUS "${src} sm_${arch}: ${count} kernels, 0 bytes of spills")
  endforeach()
endforeach()
