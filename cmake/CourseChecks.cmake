# The course's checks that belong to no one chapter: the core's tests, the
# kernels/common tests, the pages, the charts, the harness. Included from
# CMakeLists.txt after every sl_add_chapter.

# ---- benchmarks: each chapter's (sl_add_chapter), and the emulator's own speed check ----
if(EXISTS ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu)
  sl_emu_rewrite(SIMTLAB_EMU_BENCH_GEN ${PROJECT_SOURCE_DIR}/bench/emu_throughput.cu)
  # Built by `make bench` and `make bench-emu` (the benches target), not by
  # the default build: no test runs it.
  add_executable(bench_emu_throughput EXCLUDE_FROM_ALL ${SIMTLAB_EMU_BENCH_GEN})
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
add_custom_target(examples DEPENDS ${SIMTLAB_EXAMPLE_TARGETS})

# Everything below is a test: left out with -DBUILD_TESTING=OFF.
if(NOT BUILD_TESTING)
  return()
endif()

# ---- the pages ----------------------------------------------------------------
# The tutorial's quoted program output, run again on the emulator programs and
# compared (scripts/check-tutorial-output.py; the convention: CONTRIBUTING.md,
# "Quoted program output"), and every link and chapter number of the pages.
# Chapter 07's page has its own test (emu.07_errors.page).
file(GLOB SIMTLAB_TUTORIAL_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tutorial/0[0-6]-*.md
     ${PROJECT_SOURCE_DIR}/tutorial/exercises/0[0-7]/README.md)
# Under ASan the emulator has no SIMT counters, so only the references are checked.
get_property(_sl_tutorial_asan GLOBAL PROPERTY SIMTLAB_EMU_ASAN)
set(_sl_tutorial_mode)
if(_sl_tutorial_asan)
  set(_sl_tutorial_mode --links-only)
endif()
if(SIMTLAB_PYTHON3)
  add_test(NAME core.tutorial_output
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/check-tutorial-output.py
                   --bin ${PROJECT_BINARY_DIR}/bin ${_sl_tutorial_mode} ${SIMTLAB_TUTORIAL_PAGES}
                   ${PROJECT_SOURCE_DIR}/tutorial/README.md ${PROJECT_SOURCE_DIR}/tutorial/INSTRUCTORS.md
                   ${PROJECT_SOURCE_DIR}/tutorial/GLOSSARY.md ${PROJECT_SOURCE_DIR}/README.md)
  set_tests_properties(core.tutorial_output PROPERTIES LABELS core TIMEOUT 600)
endif()

# ---- the core's tests: tests/test_core*.c on every chapter -----------------------
sl_add_test_program(test_core simtlab_emu ${PROJECT_SOURCE_DIR}/tests/test_core.c)
sl_add_test_program(test_core_hostile simtlab_emu ${PROJECT_SOURCE_DIR}/tests/test_core_hostile.c)
# the walk of bad arguments (issue 16) is checked under the emulator only:
# its CUDA flavour has not yet been run on a GPU or on a machine without one
sl_add_test_program(test_core_api_walk simtlab_emu ${PROJECT_SOURCE_DIR}/tests/test_core_api_walk.c NO_GPU)

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

# Every kernel file compiles for sm_75, sm_86, sm_89 and sm_120 as well as the
# build's architectures (scripts/arch-check.sh: nvcc -c only); a long check.
if(SIMTLAB_HAVE_CUDA)
  add_test(NAME nvcc.arch_check COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/arch-check.sh)
  set_tests_properties(nvcc.arch_check PROPERTIES LABELS "nvcc;arch;long" TIMEOUT 600
                       SKIP_REGULAR_EXPRESSION "simtlab-skip:")
endif()
# The same with CUDA 12.4, for 75 80 86 89 90 (and 120 where the nvcc knows
# it): the nvcc that scripts/cuda12.sh installs (SIMTLAB_WITH_CUDA12=1 in
# scripts/deps.sh, as CI does), or SIMTLAB_NVCC12; skips without one. Alone
# on the machine (it uses every core), within 5 minutes on 2 cores.
set(SIMTLAB_NVCC12 "" CACHE FILEPATH "a CUDA 12 nvcc for nvcc12.arch_check (empty: scripts/cuda12.sh's)")
add_test(NAME nvcc12.arch_check
         COMMAND ${CMAKE_COMMAND} -E env SIMTLAB_NVCC12=${SIMTLAB_NVCC12}
                 bash ${PROJECT_SOURCE_DIR}/scripts/arch-check.sh --cuda12 75 80 86 89 90 120)
set_tests_properties(nvcc12.arch_check PROPERTIES LABELS "nvcc;arch;long" TIMEOUT 300 RUN_SERIAL TRUE
                     SKIP_REGULAR_EXPRESSION "simtlab-skip:")
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
