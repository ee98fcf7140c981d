# Chapter 03 — the machine code's resources and the occupancy calculator.
# Included from CMakeLists.txt after cmake/Chapters.cmake and cmake/07_errors.cmake.
#
#   build/bin/occupancy     tools/occupancy.c on host/occupancy.c (no GPU needed)
#   emu.test_occupancy      tests/test_occupancy.c: the hand-worked cases
#   build/resources.txt     ptxas's registers, shared memory, stack and spills of
#                           every kernel at every target architecture (CUDA builds)
#   cuda.resources          resources.txt names every chapter's kernels; chapter
#                           06's tensor-core kernels spill nothing
#   gpu.occupancy_check     on a GPU: the calculator against the runtime's cudaOccupancy*

# ---- the calculator's command line ------------------------------------------
# Linked with the emulator's library: the arithmetic is plain host C and the
# program must run on a machine with no GPU.
add_executable(occupancy ${PROJECT_SOURCE_DIR}/tools/occupancy.c)
target_link_libraries(occupancy PRIVATE simtlab_emu m)
set_target_properties(occupancy PROPERTIES LINKER_LANGUAGE CXX)

# ---- its tests: CPU only, and the emulator's cudaOccupancy* beside it ----------
add_executable(test_occupancy_emu ${PROJECT_SOURCE_DIR}/tests/test_occupancy.c ${PROJECT_SOURCE_DIR}/tests/sl_test.c)
target_include_directories(test_occupancy_emu PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/kernels)
target_link_libraries(test_occupancy_emu PRIVATE simtlab_emu PkgConfig::CRITERION m)
set_target_properties(test_occupancy_emu PROPERTIES LINKER_LANGUAGE CXX)
add_test(NAME emu.test_occupancy COMMAND test_occupancy_emu --verbose=0 -j2)
set_tests_properties(emu.test_occupancy PROPERTIES LABELS "emu;chapter" TIMEOUT 120)
if(SIMTLAB_PYTHON3)
  # The program's own checks: --help, a bad --arch named, a table from a
  # made-up resources file.
  add_test(NAME core.occupancy_tool
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/occupancy_tool.py $<TARGET_FILE:occupancy>)
  set_tests_properties(core.occupancy_tool PROPERTIES LABELS core TIMEOUT 60)
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
  string(REGEX MATCHALL "TARGET_OBJECTS:[A-Za-z0-9_]+" sl_object_targets "${sl_cuda_sources}")
  list(TRANSFORM sl_object_targets REPLACE "TARGET_OBJECTS:" "")
  set(sl_twice) # compiled by the library and by a target of its own
  foreach(t IN LISTS sl_object_targets)
    set_property(TARGET ${t} PROPERTY CUDA_COMPILER_LAUNCHER
                 ${sl_launch} ${sl_ptxas_logs}/${t} ${CMAKE_CUDA_COMPILER_LAUNCHER})
    get_target_property(t_sources ${t} SOURCES)
    foreach(src IN LISTS t_sources)
      get_filename_component(name "${src}" NAME)
      if(src IN_LIST SIMTLAB_KERNEL_SOURCES)
        list(APPEND sl_twice ${src})
      else()
        set_source_files_properties(${src} PROPERTIES OBJECT_OUTPUTS ${sl_ptxas_logs}/${t}/${name}.ptxas)
      endif()
    endforeach()
  endforeach()
  # A source both compile would get two rules for one report: those are left
  # to the changed command (touch the file in an old build folder).
  foreach(src IN LISTS SIMTLAB_KERNEL_SOURCES)
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
  add_test(NAME cuda.resources
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/resources.py check
                   --file ${CMAKE_BINARY_DIR}/resources.txt --kernels ${PROJECT_SOURCE_DIR}/kernels)
  set_tests_properties(cuda.resources PROPERTIES LABELS "cuda;chapter" TIMEOUT 60)
endif()

# ---- on a GPU: the calculator against cudaOccupancyMaxActiveBlocksPerMultiprocessor ----
# (tests/cuda/occupancy_check.cu; skipped with the reason, exit 77, without one)
if(SIMTLAB_HAVE_CUDA)
  add_executable(occupancy_check ${PROJECT_SOURCE_DIR}/tests/cuda/occupancy_check.cu)
  target_link_libraries(occupancy_check PRIVATE simtlab_cuda)
  add_test(NAME gpu.occupancy_check COMMAND occupancy_check)
  set_tests_properties(gpu.occupancy_check PROPERTIES LABELS gpu TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
