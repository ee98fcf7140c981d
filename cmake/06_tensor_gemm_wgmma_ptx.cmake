# Chapter 06's v6 (kernels/06_tensor_gemm_wgmma.cu), the evidence that needs
# no GPU (a CTest test, CUDA builds only); whether its numbers are right is
# gpu.test_06_tensor_gemm's to say, on an sm_90 GPU. This checks that it is
# what it claims to be:
#   1. its PTX for sm_90a contains wgmma.mma_async (f16 and bf16), the
#      wgmma fence / commit_group / wait_group, cp.async.bulk.tensor
#      completing on an mbarrier, and the mbarrier's init, expect_tx and wait;
#   2. ptxas (nvcc --resource-usage) spills 0 bytes in its kernels.
# Run as: cmake -DNVCC=<nvcc> -DKERNELS=<source>/kernels -DOUT=<dir> -P this file
foreach(v NVCC KERNELS OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "06_tensor_gemm_wgmma_ptx.cmake: pass -D${v}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${OUT})
set(src ${KERNELS}/06_tensor_gemm_wgmma.cu)
set(gencode -gencode arch=compute_90a,code=compute_90a)

execute_process(COMMAND ${NVCC} -ptx ${gencode} -I${KERNELS} ${src} -o ${OUT}/06_tensor_gemm_wgmma.ptx
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -ptx (sm_90a) failed: ${err}")
endif()
file(READ ${OUT}/06_tensor_gemm_wgmma.ptx ptx)
foreach(needle "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"
               "wgmma.fence.sync.aligned" "wgmma.commit_group.sync.aligned" "wgmma.wait_group.sync.aligned"
               "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               "mbarrier.init.shared::cta.b64" "mbarrier.arrive.expect_tx.shared::cta.b64"
               "mbarrier.try_wait.parity.shared::cta.b64" "mbarrier.arrive.shared::cta.b64"
               ".target sm_90a")
  string(FIND "${ptx}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the PTX of v6 (${OUT}/06_tensor_gemm_wgmma.ptx) lacks ${needle}")
  endif()
  message(STATUS "PTX has ${needle}")
endforeach()

execute_process(COMMAND ${NVCC} -c -gencode arch=compute_90a,code=sm_90a --resource-usage -I${KERNELS} ${src}
                        -o ${OUT}/06_tensor_gemm_wgmma.sm_90a.o
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -c (sm_90a) failed: ${err}")
endif()
# ptxas warns when it must serialise wgmma (it would still be correct, but slow)
if("${out}${err}" MATCHES "wgmma[^\n]*serializ")
  message(FATAL_ERROR "ptxas serialises v6's wgmma:\n${out}${err}")
endif()
string(REGEX MATCHALL "[0-9]+ bytes spill stores, [0-9]+ bytes spill loads" spills "${out}${err}")
list(LENGTH spills count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "expected ptxas's report for 2 kernels (f16, bf16), got ${count}:\n${out}${err}")
endif()
foreach(line IN LISTS spills)
  if(NOT line STREQUAL "0 bytes spill stores, 0 bytes spill loads")
    message(FATAL_ERROR "v6 spills on sm_90a: ${line}\n${out}${err}")
  endif()
endforeach()
message(STATUS "06_tensor_gemm_wgmma.cu sm_90a: ${count} kernels, 0 bytes of spills")
