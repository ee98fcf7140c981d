# The timing model's SASS weights (emu/docs/model.md, "SASS weights"): where
# nvcc and nvdisasm exist, scripts/sass-table.py compiles every kernels/*.cu
# with -lineinfo -cubin for the architecture of each GPU file (emu/gpus/*.gpu)
# and writes the SASS instructions per kernel and source line to
# build/sass.txt. The model reads it only when asked (SIMTLAB_MODEL_SASS=FILE):
# with it, chapter 03's k-way slowdown is modelled worse than with basic
# blocks (emu/docs/model.md, "SASS weights"), so the default stays the basic
# blocks, the same figures on every machine.
#
#   sass_table       build/sass.txt (about 3 minutes on 2 cores; not in ALL)
#   model-check-sass make model-check with SIMTLAB_MODEL_SASS=build/sass.txt
#   emu.sass_table   (long) the script on kernels/03_divergence.cu at sm_90:
#                    v6's short branch predicated, v8's a jump, unrolled loops
#                    counted once (skipped with the reason without nvcc or nvdisasm)
if(SIMTLAB_PYTHON3 AND BUILD_TESTING)
  add_test(NAME emu.sass_table
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/sass-table.py test
                   ${PROJECT_SOURCE_DIR}/kernels/03_divergence.cu)
  set_tests_properties(emu.sass_table PROPERTIES LABELS "emu;long" TIMEOUT 300
                       SKIP_REGULAR_EXPRESSION "simtlab-skip:")
endif()
if(NOT SIMTLAB_HAVE_CUDA OR NOT SIMTLAB_PYTHON3)
  message(STATUS "simtlab: no SASS table (no nvcc): the timing model counts basic blocks")
  return()
endif()
execute_process(COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/sass-table.py find-tools
                OUTPUT_VARIABLE _sl_sass_tools OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _sl_sass_rc)
if(NOT _sl_sass_rc EQUAL 0)
  message(STATUS "simtlab: no SASS table (${_sl_sass_tools}): the timing model counts basic blocks")
  return()
endif()
# The architectures of the GPU files, unless the cache says otherwise.
file(GLOB _sl_gpu_files ${PROJECT_SOURCE_DIR}/emu/gpus/*.gpu)
set(_sl_gpu_archs)
foreach(f IN LISTS _sl_gpu_files)
  file(STRINGS ${f} _sl_arch_line REGEX "^[ \t]*arch[ \t]*=")
  string(REGEX MATCH "sm_[0-9a-z]+" _sl_arch "${_sl_arch_line}")
  if(_sl_arch)
    list(APPEND _sl_gpu_archs ${_sl_arch})
  endif()
endforeach()
list(REMOVE_DUPLICATES _sl_gpu_archs)
list(SORT _sl_gpu_archs)
set(SIMTLAB_SASS_ARCHS "${_sl_gpu_archs}" CACHE STRING
    "architectures of build/sass.txt (default: those of emu/gpus/*.gpu)")
string(REPLACE ";" "," _sl_sass_arch_arg "${SIMTLAB_SASS_ARCHS}")
file(GLOB _sl_sass_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cu)
file(GLOB _sl_sass_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.h ${PROJECT_SOURCE_DIR}/kernels/*.cuh
     ${PROJECT_SOURCE_DIR}/kernels/common/*)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/sass.txt
                   COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/sass-table.py write
                           --out ${CMAKE_BINARY_DIR}/sass.txt --arch ${_sl_sass_arch_arg}
                           --nvcc ${CMAKE_CUDA_COMPILER}
                           -I ${PROJECT_SOURCE_DIR}/kernels -I ${PROJECT_SOURCE_DIR}/host/include
                           -I ${PROJECT_SOURCE_DIR}/host ${_sl_sass_sources}
                   DEPENDS ${_sl_sass_sources} ${_sl_sass_headers} ${PROJECT_SOURCE_DIR}/scripts/sass-table.py
                   COMMENT "SASS instructions per kernel and line at ${SIMTLAB_SASS_ARCHS} -> sass.txt"
                   VERBATIM)
add_custom_target(sass_table DEPENDS ${CMAKE_BINARY_DIR}/sass.txt)
if(TARGET model-check)
  add_custom_target(model-check-sass
    COMMAND ${CMAKE_COMMAND} -E env SIMTLAB_MODEL_SASS=${CMAKE_BINARY_DIR}/sass.txt ${_sl_model_check}
    DEPENDS model_check_emu sass_table
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "the timing model with SASS weights against the H200 measurements"
    USES_TERMINAL)
endif()
message(STATUS "simtlab: SASS table for the timing model at ${SIMTLAB_SASS_ARCHS} (${_sl_sass_tools})")
