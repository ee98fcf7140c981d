# Chapter 06 — tensor cores: the special cases (included by sl_add_chapter(06 ...)).

# v5 (wgmma + TMA) exists only as sm_90a code: this one file gets
# -gencode arch=compute_90a,code=sm_90a instead of the build's
# CUDA_ARCHITECTURES (80;90 by default, which the other kernels keep). The
# host refuses v5 on any device that is not compute capability 9.0.
if(SIMTLAB_HAVE_CUDA)
  file(GLOB _sl_06_wgmma CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/06_*_wgmma.cu)
  add_library(simtlab_tgemm_wgmma OBJECT ${_sl_06_wgmma})
  set_target_properties(simtlab_tgemm_wgmma PROPERTIES CUDA_ARCHITECTURES OFF)
  target_compile_options(simtlab_tgemm_wgmma PRIVATE -gencode=arch=compute_90a,code=sm_90a -lineinfo -Xcompiler=-Wall)
  target_include_directories(simtlab_tgemm_wgmma PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
  target_sources(simtlab_cuda PRIVATE $<TARGET_OBJECTS:simtlab_tgemm_wgmma>)
endif()

# ---- the tensor-core PTX against the emulator's fragment layouts (GPU only) ----
if(SIMTLAB_HAVE_CUDA)
  add_executable(tensor_ptx_check ${PROJECT_SOURCE_DIR}/tests/cuda/tensor_ptx_check.cu)
  target_include_directories(tensor_ptx_check PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
  target_link_libraries(tensor_ptx_check PRIVATE CUDA::cudart)
  add_test(NAME gpu.tensor_ptx_check COMMAND tensor_ptx_check)
  set_tests_properties(gpu.tensor_ptx_check PROPERTIES LABELS gpu TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

# ---- chapter 06: v3/v4's PTX has mma.sync, ldmatrix, cp.async; no spills (CUDA build) ----
if(SIMTLAB_HAVE_CUDA)
  # The spill check reads the ptxas reports the library's build kept
  # (cmake/03_occupancy.cmake) for the architectures it was built for.
  string(REPLACE ";" "," _sl_06_archs "${CMAKE_CUDA_ARCHITECTURES}")
  add_test(NAME nvcc.06_tensor_gemm_ptx
           COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DKERNELS=${PROJECT_SOURCE_DIR}/kernels
                   -DOUT=${CMAKE_BINARY_DIR}/06_tensor_gemm_ptx -DLOGS=${CMAKE_BINARY_DIR}/ptxas/simtlab_cuda
                   -DBUILT_ARCHS=${_sl_06_archs} -P ${PROJECT_SOURCE_DIR}/cmake/06_tensor_gemm_ptx.cmake)
  set_tests_properties(nvcc.06_tensor_gemm_ptx PROPERTIES LABELS "nvcc;chapter" TIMEOUT 600)
  # v5 (Hopper): its PTX has wgmma, TMA and mbarrier; ptxas spills nothing
  add_test(NAME nvcc.06_tensor_gemm_wgmma_ptx
           COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DKERNELS=${PROJECT_SOURCE_DIR}/kernels
                   -DOUT=${CMAKE_BINARY_DIR}/06_tensor_gemm_ptx
                   -P ${PROJECT_SOURCE_DIR}/cmake/06_tensor_gemm_wgmma_ptx.cmake)
  set_tests_properties(nvcc.06_tensor_gemm_wgmma_ptx PROPERTIES LABELS "nvcc;chapter" TIMEOUT 600)
endif()

