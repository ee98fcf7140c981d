# The chapters: kernels/, host/, examples/, tests/, bench/ in both backends.
# A chapter is one call in CMakeLists.txt,
#
#   sl_add_chapter(NN name)
#
# which builds host/NN_*.c and kernels/NN_*.cu into the chapter's emulator
# library (simtlab_NN_emu) and into the CUDA library (simtlab_cuda, where nvcc
# exists), and examples/NN_*.c, tests/test_NN_*.c and bench/NN_*.c on them;
# the chapter's special cases are in cmake/chapters/NN_*.cmake, included at
# the end of the call. `make chapter CH=NN` (the target chapterNN_emu, or
# chapterNN with the CUDA build) builds that chapter alone.
#
#   simtlab_core_emu  host/*.c without a chapter number (status, memory,
#                     timing, reports), on the emulator's runtime
#   simtlab_NN_emu    chapter NN on the emulator, linking simtlab_core_emu
#   simtlab_emu       every chapter on the emulator (an interface library)
#   simtlab_cuda      the core and every chapter through nvcc: one library, so
#                     that ptxas's report covers every kernel (cmake/Resources.cmake)
#
# Programs and tests are built once per backend: NAME_emu always, NAME (CUDA)
# where nvcc exists. Without nvcc the plain NAME is the emulator build.
#
# Test names say what a test needs:
#   emu.*    runs on the CPU emulator (every machine)
#   core.*   the course's tools and pages (every machine)
#   nvcc.*   needs the CUDA toolkit, not a GPU (PTX, ptxas, per-architecture compiles)
#   gpu.*    runs the CUDA build; needs a GPU, and skips with the reason without one

file(GLOB SIMTLAB_CORE_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/[a-z]*.c)

# The chapters' kernels carry the SIMT counters' instrumentation in the
# emulator build (emu/docs/profile.md), so that every _emu program can show
# the modelled figures (divergence, sectors per request, bank conflicts)
# beside its results. It costs the emulated kernels about 1.6x in CPU time
# while no counting is asked for (measured on chapter 04's tests); emulated
# times are CPU times and labelled so either way. OFF builds them plain, and
# the modelled columns then say why they are missing.
option(SIMTLAB_EMU_CHAPTER_COUNTERS "Build the chapters' emulated kernels with the SIMT counters" ON)

# ---- the core, per backend ---------------------------------------------------
add_library(simtlab_core_emu STATIC ${SIMTLAB_CORE_SOURCES})
target_include_directories(simtlab_core_emu BEFORE PUBLIC ${PROJECT_SOURCE_DIR}/emu/include)
target_include_directories(simtlab_core_emu PUBLIC ${PROJECT_SOURCE_DIR}/host/include
                           PRIVATE ${PROJECT_SOURCE_DIR}/host ${PROJECT_SOURCE_DIR}/kernels)
target_link_libraries(simtlab_core_emu PUBLIC simtlab_emu_rt PkgConfig::OPENBLAS) # OpenBLAS: chapter 05's CPU column
if(OpenMP_C_FOUND)
  target_link_libraries(simtlab_core_emu PUBLIC OpenMP::OpenMP_C)
endif()
add_library(simtlab_emu INTERFACE)
target_link_libraries(simtlab_emu INTERFACE simtlab_core_emu)

if(SIMTLAB_HAVE_CUDA)
  # cuBLAS is loaded on first use, not linked (host/cuda/cublas_loader.c says
  # why): the path found here is where it looks after the soname.
  add_library(simtlab_cuda STATIC ${SIMTLAB_CORE_SOURCES} ${PROJECT_SOURCE_DIR}/host/cuda/cublas_loader.c)
  target_include_directories(simtlab_cuda PUBLIC ${PROJECT_SOURCE_DIR}/host/include
                             PRIVATE ${PROJECT_SOURCE_DIR}/host ${PROJECT_SOURCE_DIR}/kernels)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/host/cuda/cublas_loader.c PROPERTIES
                              COMPILE_DEFINITIONS "SIMTLAB_CUBLAS_LIBRARY=\"$<TARGET_FILE:CUDA::cublas>\"")
  target_link_libraries(simtlab_cuda PUBLIC CUDA::cudart PkgConfig::OPENBLAS ${CMAKE_DL_LIBS})
  target_compile_options(simtlab_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  if(OpenMP_C_FOUND)
    target_link_libraries(simtlab_cuda PUBLIC OpenMP::OpenMP_C)
  endif()
endif()

# sl_add_program(<name> <emu library> <sources>...): NAME_emu on the given
# emulator library, and NAME on the CUDA backend (or on the emulator where
# there is no nvcc).
function(sl_add_program name emu_lib)
  add_executable(${name}_emu ${ARGN})
  target_link_libraries(${name}_emu PRIVATE ${emu_lib} m)
  set_target_properties(${name}_emu PROPERTIES LINKER_LANGUAGE CXX)
  if(SIMTLAB_HAVE_CUDA)
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE simtlab_cuda m)
  else()
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE ${emu_lib} m)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

# sl_add_test_program(<name> <emu library> <source>): a Criterion test, as
# emu.NAME under the emulator and, where nvcc exists, gpu.NAME on the CUDA
# build (NO_GPU: the emulator only).
function(sl_add_test_program name emu_lib src)
  cmake_parse_arguments(T "NO_GPU" "" "" ${ARGN})
  set(_backends emu)
  set(_libs ${emu_lib})
  if(SIMTLAB_HAVE_CUDA AND NOT T_NO_GPU)
    list(APPEND _backends cuda)
    list(APPEND _libs simtlab_cuda)
  endif()
  foreach(_backend _lib IN ZIP_LISTS _backends _libs)
    add_executable(${name}_${_backend} ${src} ${PROJECT_SOURCE_DIR}/tests/sl_test.c)
    target_include_directories(${name}_${_backend} PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/kernels)
    target_link_libraries(${name}_${_backend} PRIVATE ${_lib} PkgConfig::CRITERION m)
  endforeach()
  set_target_properties(${name}_emu PROPERTIES LINKER_LANGUAGE CXX)
  add_test(NAME emu.${name} COMMAND ${name}_emu --verbose=0 -j2)
  set_tests_properties(emu.${name} PROPERTIES LABELS "emu;chapter" TIMEOUT 600)
  if(TARGET ${name}_cuda)
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
endfunction()

# The build's flags, written into every benchmark's CSV (bench/harness.c).
string(TOUPPER "${CMAKE_BUILD_TYPE}" sl_bt)
set(SIMTLAB_BUILD_FLAGS "${CMAKE_BUILD_TYPE}, C ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} ${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${sl_bt}}")
set(SIMTLAB_CUDA_ARCHS none)
if(SIMTLAB_HAVE_CUDA)
  string(REPLACE ";" "," sl_archs "${CMAKE_CUDA_ARCHITECTURES}")
  set(SIMTLAB_CUDA_ARCHS "${sl_archs}")
  string(APPEND SIMTLAB_BUILD_FLAGS ", nvcc ${CMAKE_CUDA_COMPILER_VERSION} -arch ${sl_archs} ${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${sl_bt}} -lineinfo")
endif()
string(REGEX REPLACE "  +" " " SIMTLAB_BUILD_FLAGS "${SIMTLAB_BUILD_FLAGS}")
set(SIMTLAB_BENCH_TARGETS)
set(SIMTLAB_EXAMPLE_TARGETS)

# sl_add_chapter(NN name [USES MM...]): see the top of this file. USES: the
# chapters whose library this one's programs also call (chapter 06's bench
# compares with chapter 05's SGEMM).
# The chapters' rewritten kernels share one precompiled prelude
# (emu/cmake/kernel_prelude.hpp), made with their flags.
set(_sl_kernel_pch_flags)
if(SIMTLAB_EMU_CHAPTER_COUNTERS AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  get_property(_sl_kernel_pch_flags GLOBAL PROPERTY SIMTLAB_EMU_PROFILE_FLAGS)
endif()
sl_emu_prelude_pch(simtlab_kernel_prelude HEADER ${PROJECT_SOURCE_DIR}/emu/cmake/kernel_prelude.hpp
                   LINK simtlab_core_emu OPTIONS ${_sl_kernel_pch_flags})

macro(sl_add_chapter nn name)
  cmake_parse_arguments(_ch "" "" "USES" ${ARGN})
  file(GLOB _host CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/${nn}_*.c)
  file(GLOB _kernels CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/${nn}_*.cu)
  # kernels/*_vendor.cu call CUB or other device libraries that exist only in
  # the CUDA toolkit: CUDA backend only; their host wrappers report
  # SL_ERR_UNSUPPORTED in emulator builds. kernels/*_wgmma.cu use Hopper-only
  # PTX (wgmma, TMA): CUDA backend only, built for sm_90a alone by the
  # chapter's own file (cmake/chapters/06_tensor_gemm.cmake).
  set(_portable ${_kernels})
  list(FILTER _portable EXCLUDE REGEX "_(vendor|wgmma)\\.cu$")
  list(FILTER _kernels EXCLUDE REGEX "_wgmma\\.cu$")
  sl_emu_rewrite(_gen ${_portable})
  if(SIMTLAB_EMU_CHAPTER_COUNTERS)
    sl_emu_profile_sources(${_gen})
  endif()
  add_library(simtlab_${nn}_emu STATIC ${_host} ${_gen})
  target_include_directories(simtlab_${nn}_emu PRIVATE ${PROJECT_SOURCE_DIR}/host ${PROJECT_SOURCE_DIR}/kernels)
  target_link_libraries(simtlab_${nn}_emu PUBLIC simtlab_core_emu)
  if(TARGET simtlab_kernel_prelude AND _gen) # the kernels' C++, not the host's C
    target_precompile_headers(simtlab_${nn}_emu REUSE_FROM simtlab_kernel_prelude)
    set_source_files_properties(${_host} TARGET_DIRECTORY simtlab_${nn}_emu PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
  foreach(_used IN LISTS _ch_USES)
    target_link_libraries(simtlab_${nn}_emu PUBLIC simtlab_${_used}_emu)
  endforeach()
  target_link_libraries(simtlab_emu INTERFACE simtlab_${nn}_emu)
  if(SIMTLAB_HAVE_CUDA)
    target_sources(simtlab_cuda PRIVATE ${_host} ${_kernels})
  endif()
  set(_targets)
  file(GLOB _examples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/${nn}_*.c)
  foreach(_src IN LISTS _examples)
    get_filename_component(_name "${_src}" NAME_WE)
    sl_add_program(${_name} simtlab_${nn}_emu ${_src})
    list(APPEND SIMTLAB_EXAMPLE_TARGETS ${_name} ${_name}_emu)
    list(APPEND _targets ${_name})
  endforeach()
  if(BUILD_TESTING)
    file(GLOB _tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/test_${nn}_*.c)
    foreach(_src IN LISTS _tests)
      get_filename_component(_name "${_src}" NAME_WE)
      sl_add_test_program(${_name} simtlab_${nn}_emu ${_src})
      list(APPEND _targets ${_name})
    endforeach()
  endif()
  file(GLOB _benches CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/${nn}_*.c)
  foreach(_src IN LISTS _benches)
    get_filename_component(_name "${_src}" NAME_WE)
    sl_add_program(bench_${_name} simtlab_${nn}_emu ${_src} ${PROJECT_SOURCE_DIR}/bench/harness.c)
    foreach(_t bench_${_name} bench_${_name}_emu)
      target_include_directories(${_t} PRIVATE ${PROJECT_SOURCE_DIR}/bench)
      target_compile_definitions(${_t} PRIVATE "SIMTLAB_BUILD_FLAGS=\"${SIMTLAB_BUILD_FLAGS}\""
                                              "SIMTLAB_CUDA_ARCHS=\"${SIMTLAB_CUDA_ARCHS}\""
                                              "SIMTLAB_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\"")
      if(OpenMP_C_FOUND)
        target_link_libraries(${_t} PRIVATE OpenMP::OpenMP_C)
      endif()
    endforeach()
    list(APPEND SIMTLAB_BENCH_TARGETS bench_${_name} bench_${_name}_emu)
    list(APPEND _targets bench_${_name})
  endforeach()
  file(GLOB _special CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/chapters/${nn}_*.cmake)
  foreach(_file IN LISTS _special)
    include(${_file})
  endforeach()
  # chapterNN_emu: the chapter on the emulator; chapterNN: on every backend built
  set(_emu_targets)
  foreach(_t IN LISTS _targets)
    list(APPEND _emu_targets ${_t}_emu)
  endforeach()
  add_custom_target(chapter${nn}_emu DEPENDS ${_emu_targets})
  add_custom_target(chapter${nn} DEPENDS ${_targets} ${_emu_targets})
endmacro()
