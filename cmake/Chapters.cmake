# The chapters: kernels/, host/, examples/, tests/, bench/ in both backends.
#
#   libsimtlab_emu   host/*.c + kernels/*.cu rewritten for the CPU emulator
#   libsimtlab_cuda  host/*.c + kernels/*.cu through nvcc (where nvcc exists)
#
# Programs and tests are built once per backend: NAME_emu always, NAME (CUDA)
# where nvcc exists. Without nvcc the plain NAME is the emulator build.

file(GLOB SIMTLAB_HOST_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/*.c)
file(GLOB SIMTLAB_KERNEL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cu)
# kernels/*_vendor.cu call CUB or other device libraries that exist only in
# the CUDA toolkit: CUDA backend only. Their host wrappers report
# SL_ERR_UNSUPPORTED in emulator builds.
set(SIMTLAB_KERNEL_PORTABLE_SOURCES ${SIMTLAB_KERNEL_SOURCES})
list(FILTER SIMTLAB_KERNEL_PORTABLE_SOURCES EXCLUDE REGEX "_vendor\\.cu$")
# kernels/*_wgmma.cu use Hopper-only PTX (wgmma, TMA): CUDA backend only, and
# compiled for sm_90a alone (simtlab_tgemm_wgmma below), never for 80;90.
list(FILTER SIMTLAB_KERNEL_PORTABLE_SOURCES EXCLUDE REGEX "_wgmma\\.cu$")
list(FILTER SIMTLAB_KERNEL_SOURCES EXCLUDE REGEX "_wgmma\\.cu$")

# ---- the emulator backend -------------------------------------------------
sl_emu_rewrite(SIMTLAB_KERNEL_EMU_SOURCES ${SIMTLAB_KERNEL_PORTABLE_SOURCES})
# The chapters' kernels carry the SIMT counters' instrumentation in the
# emulator build (emu/README.md, "SIMT counters"), so that every _emu program
# can show the modelled figures (divergence, sectors per request, bank
# conflicts) beside its results. It costs the emulated kernels about 1.6x in
# CPU time while no counting is asked for (measured on chapter 04's tests);
# emulated times are CPU times and labelled so either way. OFF builds them
# plain, and the modelled columns then say why they are missing.
option(SIMTLAB_EMU_CHAPTER_COUNTERS "Build the chapters' emulated kernels with the SIMT counters" ON)
if(SIMTLAB_EMU_CHAPTER_COUNTERS)
  sl_emu_profile_sources(${SIMTLAB_KERNEL_EMU_SOURCES})
endif()
add_library(simtlab_emu STATIC ${SIMTLAB_HOST_SOURCES} ${SIMTLAB_KERNEL_EMU_SOURCES})
target_include_directories(simtlab_emu BEFORE PUBLIC ${PROJECT_SOURCE_DIR}/emu/include)
target_include_directories(simtlab_emu PUBLIC ${PROJECT_SOURCE_DIR}/host/include
                           PRIVATE ${PROJECT_SOURCE_DIR}/host ${PROJECT_SOURCE_DIR}/kernels)
target_link_libraries(simtlab_emu PUBLIC simtlab_emu_rt PkgConfig::OPENBLAS) # OpenBLAS: chapter 05's CPU column
if(OpenMP_C_FOUND)
  target_link_libraries(simtlab_emu PUBLIC OpenMP::OpenMP_C)
endif()

# ---- the CUDA backend -------------------------------------------------------
if(SIMTLAB_HAVE_CUDA)
  # Chapter 06's v5 (wgmma + TMA) exists only as sm_90a code: this one file
  # gets -gencode arch=compute_90a,code=sm_90a instead of the build's
  # CUDA_ARCHITECTURES (80;90 by default, which the other kernels keep).
  # The host refuses v5 on any device that is not compute capability 9.0.
  add_library(simtlab_tgemm_wgmma OBJECT ${PROJECT_SOURCE_DIR}/kernels/06_tensor_gemm_wgmma.cu)
  set_target_properties(simtlab_tgemm_wgmma PROPERTIES CUDA_ARCHITECTURES OFF)
  target_compile_options(simtlab_tgemm_wgmma PRIVATE -gencode=arch=compute_90a,code=sm_90a -lineinfo -Xcompiler=-Wall)
  target_include_directories(simtlab_tgemm_wgmma PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
  add_library(simtlab_cuda STATIC ${SIMTLAB_HOST_SOURCES} ${SIMTLAB_KERNEL_SOURCES}
              $<TARGET_OBJECTS:simtlab_tgemm_wgmma>)
  target_include_directories(simtlab_cuda PUBLIC ${PROJECT_SOURCE_DIR}/host/include
                             PRIVATE ${PROJECT_SOURCE_DIR}/host ${PROJECT_SOURCE_DIR}/kernels)
  target_link_libraries(simtlab_cuda PUBLIC CUDA::cudart CUDA::cublas PkgConfig::OPENBLAS)
  target_compile_options(simtlab_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  if(OpenMP_C_FOUND)
    target_link_libraries(simtlab_cuda PUBLIC OpenMP::OpenMP_C)
  endif()
endif()

# sl_add_program(<name> <sources>...): NAME_emu, and NAME on the CUDA backend
# (or on the emulator where there is no nvcc).
function(sl_add_program name)
  add_executable(${name}_emu ${ARGN})
  target_link_libraries(${name}_emu PRIVATE simtlab_emu m)
  set_target_properties(${name}_emu PROPERTIES LINKER_LANGUAGE CXX)
  if(SIMTLAB_HAVE_CUDA)
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE simtlab_cuda m)
  else()
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE simtlab_emu m)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

# ---- examples -----------------------------------------------------------------
file(GLOB SIMTLAB_EXAMPLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/[0-9][0-9]_*.c)
set(SIMTLAB_EXAMPLE_TARGETS)
foreach(src IN LISTS SIMTLAB_EXAMPLES)
  get_filename_component(name "${src}" NAME_WE)
  sl_add_program(${name} ${src})
  list(APPEND SIMTLAB_EXAMPLE_TARGETS ${name} ${name}_emu)
endforeach()
add_custom_target(examples DEPENDS ${SIMTLAB_EXAMPLE_TARGETS})

# ---- tests: tests/test_core.c (the shared core) and tests/test_NN_*.c (one
# per chapter), under the emulator always, on the GPU where built
file(GLOB SIMTLAB_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/test_core.c
     ${PROJECT_SOURCE_DIR}/tests/test_core_api_walk.c ${PROJECT_SOURCE_DIR}/tests/test_core_hostile.c
     ${PROJECT_SOURCE_DIR}/tests/test_[0-9][0-9]_*.c)
foreach(src IN LISTS SIMTLAB_TESTS)
  get_filename_component(name "${src}" NAME_WE)
  add_executable(${name}_emu ${src} ${PROJECT_SOURCE_DIR}/tests/sl_test.c)
  target_include_directories(${name}_emu PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/kernels)
  target_link_libraries(${name}_emu PRIVATE simtlab_emu PkgConfig::CRITERION m)
  set_target_properties(${name}_emu PROPERTIES LINKER_LANGUAGE CXX)
  add_test(NAME emu.${name} COMMAND ${name}_emu --verbose=0 -j2)
  set_tests_properties(emu.${name} PROPERTIES LABELS "emu;chapter" TIMEOUT 600)
  # the walk of bad arguments (issue 16) is checked under the emulator only:
  # its CUDA flavour has not yet been run on a GPU or on a machine without one
  if(SIMTLAB_HAVE_CUDA AND NOT name STREQUAL "test_core_api_walk")
    add_executable(${name}_cuda ${src} ${PROJECT_SOURCE_DIR}/tests/sl_test.c)
    target_include_directories(${name}_cuda PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/kernels)
    target_link_libraries(${name}_cuda PRIVATE simtlab_cuda PkgConfig::CRITERION m)
    add_test(NAME gpu.${name} COMMAND ${name}_cuda --verbose=1 -j1)
    # On a machine without a device the GPU tests skip with a printed reason
    # (make test lists them); the tests that need no device still run.
    # A binary whose every test skipped is reported as skipped, not passed:
    # Criterion leaves skipped tests out of its count, so "Tested: 0" means
    # every one printed its skip reason (sl_test_require_device); one that ran
    # some tests and skipped others passes or fails on those it ran.
    set_tests_properties(gpu.${name} PROPERTIES LABELS "gpu;chapter" TIMEOUT 600
                         SKIP_REGULAR_EXPRESSION "Synthesis: Tested: 0 [|]")
  endif()
endforeach()

# ---- kernels/common under the emulator: tests/kernels/test_*.cu --------------
# (sl_emu_add_test: emu/cmake/SimtlabEmu.cmake; registers emu.test_sl_tensor)
file(GLOB SIMTLAB_KERNEL_COMMON_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/kernels/test_*.cu)
foreach(src IN LISTS SIMTLAB_KERNEL_COMMON_TESTS)
  sl_emu_add_test(${src} INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/kernels LABELS kernels)
endforeach()

# ---- sl_alloc_device takes &pointer: the wrong use must not compile ----------
foreach(variant right wrong)
  set(defs)
  if(variant STREQUAL right)
    set(defs -DSL_RIGHT)
  endif()
  add_test(NAME core.alloc_macro_${variant}_use
           COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -Werror=int-conversion ${defs}
                   -I${PROJECT_SOURCE_DIR}/host/include
                   ${PROJECT_SOURCE_DIR}/tests/compile/alloc_needs_a_pointer_address.c)
endforeach()
set_tests_properties(core.alloc_macro_wrong_use PROPERTIES WILL_FAIL TRUE)

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
  add_test(NAME cuda.06_tensor_gemm_ptx
           COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DKERNELS=${PROJECT_SOURCE_DIR}/kernels
                   -DOUT=${CMAKE_BINARY_DIR}/06_tensor_gemm_ptx -P ${PROJECT_SOURCE_DIR}/cmake/06_tensor_gemm_ptx.cmake)
  set_tests_properties(cuda.06_tensor_gemm_ptx PROPERTIES LABELS "cuda;chapter" TIMEOUT 600)
  # v5 (Hopper): its PTX has wgmma, TMA and mbarrier; ptxas spills nothing
  add_test(NAME cuda.06_tensor_gemm_wgmma_ptx
           COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DKERNELS=${PROJECT_SOURCE_DIR}/kernels
                   -DOUT=${CMAKE_BINARY_DIR}/06_tensor_gemm_ptx
                   -P ${PROJECT_SOURCE_DIR}/cmake/06_tensor_gemm_wgmma_ptx.cmake)
  set_tests_properties(cuda.06_tensor_gemm_wgmma_ptx PROPERTIES LABELS "cuda;chapter" TIMEOUT 600)
endif()

# ---- benchmarks -----------------------------------------------------------------
file(GLOB SIMTLAB_BENCHES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/[0-9][0-9]_*.c)
set(SIMTLAB_BENCH_TARGETS)
# The build's flags, written into every benchmark's CSV (bench/harness.c).
string(TOUPPER "${CMAKE_BUILD_TYPE}" sl_bt)
set(SIMTLAB_BUILD_FLAGS "${CMAKE_BUILD_TYPE}, C ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} ${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${sl_bt}}")
if(SIMTLAB_HAVE_CUDA)
  string(REPLACE ";" "," sl_archs "${CMAKE_CUDA_ARCHITECTURES}")
  string(APPEND SIMTLAB_BUILD_FLAGS ", nvcc ${CMAKE_CUDA_COMPILER_VERSION} -arch ${sl_archs} ${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${sl_bt}} -lineinfo")
endif()
string(REGEX REPLACE "  +" " " SIMTLAB_BUILD_FLAGS "${SIMTLAB_BUILD_FLAGS}")
foreach(src IN LISTS SIMTLAB_BENCHES)
  get_filename_component(name "${src}" NAME_WE)
  sl_add_program(bench_${name} ${src} ${PROJECT_SOURCE_DIR}/bench/harness.c)
  foreach(t bench_${name} bench_${name}_emu)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/bench)
    target_compile_definitions(${t} PRIVATE "SIMTLAB_BUILD_FLAGS=\"${SIMTLAB_BUILD_FLAGS}\""
                                            "SIMTLAB_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\"")
    if(OpenMP_C_FOUND)
      target_link_libraries(${t} PRIVATE OpenMP::OpenMP_C)
    endif()
  endforeach()
  list(APPEND SIMTLAB_BENCH_TARGETS bench_${name} bench_${name}_emu)
endforeach()
if(EXISTS ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu)
  sl_emu_rewrite(SIMTLAB_EMU_BENCH_GEN ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu)
  add_executable(bench_emu_throughput ${SIMTLAB_EMU_BENCH_GEN})
  sl_emu_target(bench_emu_throughput)
  list(APPEND SIMTLAB_BENCH_TARGETS bench_emu_throughput)
  # The same file as a student's slcc builds it, both ways: --fast (no
  # checks) and plain (the checked build). bench_emu_throughput runs them
  # beside itself and reports checked / --fast (target: at most 5x).
  foreach(mode fast checked)
    set(_sl_mode_flag)
    if(mode STREQUAL "fast")
      set(_sl_mode_flag --fast)
    endif()
    add_custom_command(
      OUTPUT ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bench_emu_throughput_${mode}
      COMMAND slcc ${_sl_mode_flag} -O2 ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu
              -o ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bench_emu_throughput_${mode}
      DEPENDS slcc simtlab_emu_rt slrewrite ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu
      COMMENT "slcc ${_sl_mode_flag} bench/emu_throughput.cu (${mode})"
      VERBATIM)
  endforeach()
  add_custom_target(bench_emu_throughput_modes
    DEPENDS ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bench_emu_throughput_fast
            ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bench_emu_throughput_checked)
  list(APPEND SIMTLAB_BENCH_TARGETS bench_emu_throughput_modes)
endif()
add_custom_target(benches DEPENDS ${SIMTLAB_BENCH_TARGETS})
# Every kernel file compiles for sm_75, sm_86, sm_89 and sm_120 as well as the
# build's architectures (scripts/arch-check.sh: nvcc -c only); a long check.
if(SIMTLAB_HAVE_CUDA)
  add_test(NAME cuda.arch_check COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/arch-check.sh)
  set_tests_properties(cuda.arch_check PROPERTIES LABELS "cuda;arch;long" TIMEOUT 600
                       SKIP_REGULAR_EXPRESSION "simtlab-skip:")
endif()
# Every chapter's bench at --quick sizes, and every chart it declares: drawn
# as a non-empty PNG and SVG, gnuplot silent on stderr, the CSV holding the
# columns each chart plots (tests/bench_charts_test.py).
find_program(SIMTLAB_BENCH_GNUPLOT gnuplot)
if(SIMTLAB_PYTHON3 AND SIMTLAB_BENCH_GNUPLOT)
  add_test(NAME core.bench_charts
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/bench_charts_test.py ${PROJECT_SOURCE_DIR}
                   ${PROJECT_BINARY_DIR})
  set_tests_properties(core.bench_charts PROPERTIES LABELS "core;bench" TIMEOUT 900)
  # tutorial/notebook.ipynb executed with papermill on this build (a long check).
  add_test(NAME core.notebook COMMAND bash ${PROJECT_SOURCE_DIR}/tests/notebook_test.sh ${PROJECT_SOURCE_DIR}
                                      ${PROJECT_BINARY_DIR})
  set_tests_properties(core.notebook PROPERTIES LABELS "core;notebook;long" TIMEOUT 900 RUN_SERIAL TRUE
                       SKIP_REGULAR_EXPRESSION "simtlab-skip:")
endif()
# The harness's own test (statistics, L2 rule, CSV), under the emulator.
add_executable(test_core_bench_emu ${PROJECT_SOURCE_DIR}/tests/test_core_bench.c
               ${PROJECT_SOURCE_DIR}/tests/sl_test.c ${PROJECT_SOURCE_DIR}/bench/harness.c)
target_include_directories(test_core_bench_emu PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(test_core_bench_emu PRIVATE simtlab_emu PkgConfig::CRITERION m)
set_target_properties(test_core_bench_emu PROPERTIES LINKER_LANGUAGE CXX)
add_test(NAME emu.test_core_bench COMMAND test_core_bench_emu --verbose=0 -j2)
set_tests_properties(emu.test_core_bench PROPERTIES LABELS "emu;core" TIMEOUT 120)
# Issue 16: every sl_ function a public header declares is in the walk of bad
# arguments (tests/test_core_api_walk.c), so the walk cannot go stale.
if(SIMTLAB_PYTHON3)
  add_test(NAME core.api_walk_coverage
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/api_walk_coverage.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(core.api_walk_coverage PROPERTIES LABELS core TIMEOUT 60)
endif()
# scripts/gpu-check.sh --dry-run: it finds its tools, or says what is missing.
add_test(NAME core.gpu_check_dry_run COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/gpu-check.sh --dry-run
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(core.gpu_check_dry_run PROPERTIES LABELS core TIMEOUT 60)
# gpu-check's step 4 report: ncu's counters beside the modelled ones, on a
# real modelled CSV and an ncu CSV in ncu's layout written by the test.
# Under ASan the emulator has no SIMT counters: nothing to compare.
get_property(_sl_compare_asan GLOBAL PROPERTY SIMTLAB_EMU_ASAN)
if(SIMTLAB_PYTHON3 AND SIMTLAB_EMU_CHAPTER_COUNTERS AND NOT _sl_compare_asan)
  add_test(NAME core.compare_counters
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/compare_counters_test.py
                   ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  set_tests_properties(core.compare_counters PROPERTIES LABELS core TIMEOUT 120
                       FAIL_REGULAR_EXPRESSION "FAIL" SKIP_REGULAR_EXPRESSION "^SKIP")
endif()

# ---- exercises and their grader: cmake/Exercises.cmake ----------------------------
include(${PROJECT_SOURCE_DIR}/cmake/Exercises.cmake)
