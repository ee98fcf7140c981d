# Chapter 03 — the machine code's resources and the occupancy calculator.
# Included from CMakeLists.txt after every sl_add_chapter: resources.txt covers every chapter's kernels.
#
#   build/bin/occupancy        tools/03_occupancy.c on host/03_occupancy.c (no GPU needed)
#   emu.test_03_occupancy      tests/test_03_occupancy.c: the hand-worked cases (cmake/Chapters.cmake
#                              registers it with every tests/test_NN_*.c, gpu.test_03_occupancy too)
#   emu.03_occupancy.tool      tests/03_occupancy_tool.py: the program's command line
#   build/resources.txt        ptxas's registers, shared memory, stack and spills of
#                              every kernel at every target architecture (CUDA builds)
#   nvcc.resources             resources.txt names every chapter's kernels; chapter
#                              06's tensor-core kernels spill nothing
#   gpu.03_occupancy.check     on a GPU: the calculator against the runtime's cudaOccupancy*

# ---- the calculator's command line ------------------------------------------
# Linked with the emulator's library: the arithmetic is plain host C and the
# program must run on a machine with no GPU. The program keeps the name the
# tutorial uses, build/bin/occupancy.
add_executable(occupancy ${PROJECT_SOURCE_DIR}/tools/03_occupancy.c)
target_link_libraries(occupancy PRIVATE simtlab_03_emu m)
set_target_properties(occupancy PROPERTIES LINKER_LANGUAGE CXX)
if(SIMTLAB_PYTHON3 AND BUILD_TESTING)
  # The program's own checks: --help, a bad --arch named, a table from a
  # made-up resources file.
  add_test(NAME emu.03_occupancy.tool
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/03_occupancy_tool.py $<TARGET_FILE:occupancy>)
  set_tests_properties(emu.03_occupancy.tool PROPERTIES LABELS "emu;chapter" TIMEOUT 60)
endif()

# ---- build/resources.txt (CUDA builds) ---------------------------------------
# nvcc runs once per kernel file anyway: scripts/ptxas-log.sh, as the CUDA
# compiler launcher, adds -Xptxas=-v to that run and keeps ptxas's report in
# ptxas/<target>/<file>.cu.ptxas, so the report costs no second compile.
# After each build of the library scripts/resources.py gathers the reports
# into resources.txt, names demangled. A build directory made before this
# existed has objects but no reports: OBJECT_OUTPUTS names each report as an
# output of its object's rule (Makefile generators), so make compiles those
# files again once; with Ninja the changed command does it.
if(SIMTLAB_HAVE_CUDA AND SIMTLAB_PYTHON3)
  set(sl_ptxas_logs ${CMAKE_BINARY_DIR}/ptxas)
  set(sl_launch bash ${PROJECT_SOURCE_DIR}/scripts/ptxas-log.sh) # then the folder, then any launcher of the user's
  set_property(TARGET simtlab_cuda PROPERTY CUDA_COMPILER_LAUNCHER
               ${sl_launch} ${sl_ptxas_logs}/simtlab_cuda ${CMAKE_CUDA_COMPILER_LAUNCHER})
  # Every kernels/*.cu, also those compiled by a target of their own whose
  # objects go into the library ($<TARGET_OBJECTS:...> among its sources:
  # chapter 07's no-image kernel, any file built for one architecture only).
  file(GLOB sl_all_kernels CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/kernels/*.cu)
  set(sl_kernel_names)
  foreach(src IN LISTS sl_all_kernels)
    get_filename_component(name "${src}" NAME)
    list(APPEND sl_kernel_names ${name})
  endforeach()
  get_target_property(sl_cuda_sources simtlab_cuda SOURCES)
  # The kernel files the library compiles itself (however the chapters added them).
  set(sl_cuda_kernels ${sl_cuda_sources})
  list(FILTER sl_cuda_kernels INCLUDE REGEX "\\.cu$")
  string(REGEX MATCHALL "TARGET_OBJECTS:[A-Za-z0-9_]+" sl_object_targets "${sl_cuda_sources}")
  list(TRANSFORM sl_object_targets REPLACE "TARGET_OBJECTS:" "")
  set(sl_twice) # compiled by the library and by a target of its own
  foreach(t IN LISTS sl_object_targets)
    set_property(TARGET ${t} PROPERTY CUDA_COMPILER_LAUNCHER
                 ${sl_launch} ${sl_ptxas_logs}/${t} ${CMAKE_CUDA_COMPILER_LAUNCHER})
    get_target_property(t_sources ${t} SOURCES)
    foreach(src IN LISTS t_sources)
      get_filename_component(name "${src}" NAME)
      if(src IN_LIST sl_cuda_kernels)
        list(APPEND sl_twice ${src})
      else()
        set_source_files_properties(${src} PROPERTIES OBJECT_OUTPUTS ${sl_ptxas_logs}/${t}/${name}.ptxas)
      endif()
    endforeach()
  endforeach()
  # A source both compile would get two rules for one report: those are left
  # to the changed command (touch the file in an old build folder).
  foreach(src IN LISTS sl_cuda_kernels)
    get_filename_component(name "${src}" NAME)
    if(NOT src IN_LIST sl_twice)
      set_source_files_properties(${src} PROPERTIES OBJECT_OUTPUTS ${sl_ptxas_logs}/simtlab_cuda/${name}.ptxas)
    endif()
  endforeach()
  string(REPLACE ";" "," sl_res_archs "${CMAKE_CUDA_ARCHITECTURES}")
  add_custom_command(TARGET simtlab_cuda POST_BUILD
                     COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/resources.py write
                             --logs ${sl_ptxas_logs} --out ${CMAKE_BINARY_DIR}/resources.txt
                             --arch "${sl_res_archs}" ${sl_kernel_names}
                     COMMENT "ptxas's resource usage of every kernel -> resources.txt"
                     VERBATIM)
  if(BUILD_TESTING)
    add_test(NAME nvcc.resources
             COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/resources.py check
                     --file ${CMAKE_BINARY_DIR}/resources.txt --kernels ${PROJECT_SOURCE_DIR}/kernels)
    set_tests_properties(nvcc.resources PROPERTIES LABELS "nvcc;chapter" TIMEOUT 60)
  endif()
endif()

# ---- on a GPU: the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor ----
# (tests/cuda/03_occupancy_check.cu; skipped with the reason, exit 77, without one)
if(SIMTLAB_HAVE_CUDA AND BUILD_TESTING)
  add_executable(03_occupancy_check ${PROJECT_SOURCE_DIR}/tests/cuda/03_occupancy_check.cu)
  target_link_libraries(03_occupancy_check PRIVATE simtlab_cuda)
  add_test(NAME gpu.03_occupancy.check COMMAND 03_occupancy_check)
  set_tests_properties(gpu.03_occupancy.check PROPERTIES LABELS gpu TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
