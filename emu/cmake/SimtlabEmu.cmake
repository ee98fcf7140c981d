# Building CUDA sources for the CPU emulator: the two functions every user of
# the emulator needs (its own tests, and a project that includes emu/ with
# add_subdirectory(emu): CMake functions are global, so the including project
# can call them after that line). Included by emu/CMakeLists.txt; both use the
# targets slrewrite and simtlab_emu_rt that it defines.

# The toolkit guard directory (SIMTLAB_EMU_TOOLKIT_GUARD_DIR): a toolkit
# header that emu/include lacks is a one-line #error, not the toolkit's own.
include(${CMAKE_CURRENT_LIST_DIR}/ToolkitGuard.cmake)
# Debian's Thrust with the CPP device system (SIMTLAB_EMU_THRUST_SHIM).
include(${CMAKE_CURRENT_LIST_DIR}/SimtlabThrust.cmake)

# ---- the SIMT counters (emu/docs/profile.md, "SIMT counters") -------------------
# -DSIMTLAB_EMU_PROFILE=ON compiles every .cu that sl_emu_rewrite rewrites
# with the instrumentation the counters need (GCC calls the emulator at each
# basic block, load and store of those files). Such a program profiles
# launches on request: SIMTLAB_EMU_PROFILE=1, or simtlab_emu_profile_begin()
# (<simtlab_emu/profile.h>). OFF (the default) builds exactly what it built
# before: no hook is compiled into any kernel.
option(SIMTLAB_EMU_PROFILE "Instrument emulator builds of .cu files for the SIMT counters" OFF)
# The flags, for whoever compiles a rewritten .cu by other means (slcc
# --profile passes the same ones, with SIMTLAB_EMU_PROFILE_BUILD=2; plain
# slcc, the checked build, the same without trace-pc and its two -fno-
# flags, with SIMTLAB_EMU_PROFILE_BUILD=0: the checks without the counters;
# emu/src/tools/slcc/slcc.c, "build modes"). kernel-address with a call threshold of
# 0 outlines every check as __asan_loadN_noabort(addr)/__asan_storeN_noabort
# and uses no shadow memory; stack and global redzones are off, so the
# layout of the program does not change. No sibling calls: a block that
# only returns would jump to its hook, which would then see the caller's
# return address instead of its own site.
# A global property, not a variable: this file is included from emu/'s
# directory, and the functions below also run from the project's other
# directories, which do not see emu/'s variables.
# -fno-tree-sra: at -O2 GCC's scalar replacement of aggregates splits a
# float4 load whose components are then used one by one (`float4 x = a4[i];
# ... x.x + y.x ...`) into four 4-byte loads before the instrumentation
# sees it, so a warp's 16-byte accesses would be modelled as four strided
# 4-byte requests (16 sectors each, ideal 4) where nvcc emits one LDG.128
# per lane. Without SRA the load stays one 16-byte access, as on the GPU.
set_property(GLOBAL PROPERTY SIMTLAB_EMU_PROFILE_FLAGS
  -fsanitize=kernel-address --param=asan-instrumentation-with-call-threshold=0
  --param=asan-stack=0 --param=asan-globals=0 --param=asan-memintrin=0
  -fsanitize-coverage=trace-pc -fno-optimize-sibling-calls -fno-tree-sra -DSIMTLAB_EMU_PROFILE_BUILD=1)
get_property(SIMTLAB_EMU_PROFILE_FLAGS GLOBAL PROPERTY SIMTLAB_EMU_PROFILE_FLAGS)
# Under AddressSanitizer (-fsanitize=address in CMAKE_CXX_FLAGS, as `make
# test-asan` builds) there are no counters: their hooks are the functions
# ASan's runtime itself defines (__asan_load4_noabort...), and GCC refuses
# address with kernel-address in one compile. Sources are then built plain.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
  set_property(GLOBAL PROPERTY SIMTLAB_EMU_ASAN ON)
endif()
if(SIMTLAB_EMU_PROFILE AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(WARNING "SIMTLAB_EMU_PROFILE needs GCC's -fsanitize=kernel-address and "
                  "-fsanitize-coverage=trace-pc; ${CMAKE_CXX_COMPILER_ID} is not supported: "
                  "the kernels are built without the counters.")
endif()

# Adds the flags held in the global property <flags_property> to each of the
# sources, unless they are already built with trace-pc (both kinds of build
# below use it); nothing with a compiler other than GCC, or under ASan.
function(_sl_emu_add_trace_flags flags_property)
  get_property(asan GLOBAL PROPERTY SIMTLAB_EMU_ASAN)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR asan)
    return()
  endif()
  get_property(flags GLOBAL PROPERTY ${flags_property})
  foreach(gen IN LISTS ARGN)
    get_source_file_property(opts "${gen}" COMPILE_OPTIONS)
    if(NOT opts)
      set(opts "")
    endif()
    if(NOT "-fsanitize-coverage=trace-pc" IN_LIST opts)
      list(APPEND opts ${flags})
    endif()
    set_source_files_properties("${gen}" PROPERTIES COMPILE_OPTIONS "${opts}")
  endforeach()
endfunction()

# sl_emu_profile_sources(<generated.cpp>...): instrument these rewritten
# sources whatever SIMTLAB_EMU_PROFILE says (the emulator's own test of the
# counters needs it).
function(sl_emu_profile_sources)
  _sl_emu_add_trace_flags(SIMTLAB_EMU_PROFILE_FLAGS ${ARGN})
endfunction()

# sl_emu_spin_sources(<generated.cpp>...): build these rewritten sources with
# the spin watch (issue 16, emu/README "How a block runs"): the spin points
# slrewrite puts in every loop of device code call the engine, so that a
# spin on a volatile load lets the block's other threads run. Instrumented
# (SIMT counters) sources have the watch already (trace-pc); not under ASan
# (its runtime has hooks of the same names).
set_property(GLOBAL PROPERTY SIMTLAB_EMU_SPIN_FLAGS -DSIMTLAB_EMU_SPIN_BUILD=1)
function(sl_emu_spin_sources)
  _sl_emu_add_trace_flags(SIMTLAB_EMU_SPIN_FLAGS ${ARGN})
endfunction()

# sl_emu_rewrite(<out_var> <file.cu>...)
# Runs slrewrite on each CUDA source: the result is C++ that the host compiler
# builds against emu/include, under <build>/emu_gen/ at the source's path
# relative to the calling project (or, for a file outside it, at its absolute
# path). Headers beside the file (#include "x.cuh") are rewritten into it.
# #line keeps messages and gdb on the original files.
function(sl_emu_rewrite out_var)
  set(outs)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${abs}")
    if(rel MATCHES "^\\.\\./")
      string(REGEX REPLACE "^/" "" rel "${abs}")
    endif()
    set(out "${PROJECT_BINARY_DIR}/emu_gen/${rel}.cpp")
    get_filename_component(src_dir "${abs}" DIRECTORY)
    # The user's headers that the file includes are rewritten into it: the
    # depfile lists them, so that editing one reruns the rewrite.
    add_custom_command(
      OUTPUT "${out}"
      COMMAND slrewrite "${abs}" -o "${out}" -MF "${out}.d"
      DEPENDS slrewrite "${abs}"
      DEPFILE "${out}.d"
      COMMENT "slrewrite ${rel}"
      VERBATIM)
    # Quoted includes of the original file resolve beside it.
    set_source_files_properties("${out}" PROPERTIES COMPILE_OPTIONS "-iquote;${src_dir}")
    if(SIMTLAB_EMU_PROFILE)
      sl_emu_profile_sources("${out}")
    endif()
    list(APPEND outs "${out}")
  endforeach()
  set(${out_var} "${outs}" PARENT_SCOPE)
endfunction()

# sl_emu_target(<target>): compile against the emulator's CUDA headers and
# link its runtime (C++ link, since the runtime is C++).
# The toolkit guard goes in as a compile option, which CMake places after
# every include directory: last among the -I, ahead of CPATH and the system.
function(sl_emu_target target)
  target_include_directories(${target} BEFORE PRIVATE "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../include")
  get_property(guard GLOBAL PROPERTY SIMTLAB_EMU_TOOLKIT_GUARD_DIR)
  get_property(thrust_found GLOBAL PROPERTY SIMTLAB_EMU_THRUST_FOUND)
  if(thrust_found) # Debian's Thrust, ahead of the guard (SimtlabThrust.cmake)
    get_property(thrust_shim GLOBAL PROPERTY SIMTLAB_EMU_THRUST_SHIM)
    target_compile_options(${target} PRIVATE "-I${thrust_shim}" -DSIMTLAB_EMU_THRUST=1)
  endif()
  target_compile_options(${target} PRIVATE "-I${guard}")
  target_link_libraries(${target} PRIVATE simtlab_emu_rt)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()

# sl_emu_prelude_pch(<name> HEADER <file> [EMU_TARGET] [LINK <target>...] [OPTIONS <flag>...])
# A target, <name>, that only holds a precompiled header of <file> (the
# prelude of rewritten sources, emu/cmake/kernel_prelude.hpp, most of a small
# kernel file's compile time), built with the given libraries' usage
# requirements (and sl_emu_target's flags: EMU_TARGET) and the given flags.
# Targets whose rewritten sources are compiled with the same flags reuse it
# (target_precompile_headers(<t> REUSE_FROM <name>)); GCC rejects a header
# made with other flags (CMake passes -Winvalid-pch, which says so). Not
# made, and <name> not defined, with SIMTLAB_EMU_PROFILE (whose flags every
# rewritten source gets) or under ASan: callers test if(TARGET <name>).
function(sl_emu_prelude_pch name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EMU_TARGET" "HEADER" "LINK;OPTIONS")
  get_property(asan GLOBAL PROPERTY SIMTLAB_EMU_ASAN)
  if(SIMTLAB_EMU_PROFILE OR asan)
    return()
  endif()
  set(src ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp)
  file(CONFIGURE OUTPUT ${src} CONTENT "/* ${name}: the precompiled prelude's own object */\n")
  add_library(${name} OBJECT ${src})
  target_link_libraries(${name} PRIVATE ${arg_LINK})
  if(arg_EMU_TARGET)
    sl_emu_target(${name})
  endif()
  target_compile_options(${name} PRIVATE ${arg_OPTIONS})
  target_precompile_headers(${name} PRIVATE ${arg_HEADER})
endfunction()

# sl_emu_add_test(<file.cu> [PROFILE] [INCLUDE_DIRECTORIES <dir>...] [LABELS <label>...])
# A Criterion test written in CUDA, built for the emulator and registered
# with CTest as emu.<name> (<name>: the file's name without .cu), label emu.
# PROFILE: always compiled with the SIMT counters' instrumentation.
# SPIN: compiled with the spin watch (sl_emu_spin_sources).
function(sl_emu_add_test src)
  cmake_parse_arguments(PARSE_ARGV 1 arg "PROFILE;SPIN" "" "INCLUDE_DIRECTORIES;LABELS")
  get_filename_component(name "${src}" NAME_WE)
  sl_emu_rewrite(gen "${src}")
  if(arg_PROFILE)
    sl_emu_profile_sources(${gen})
  endif()
  if(arg_SPIN)
    sl_emu_spin_sources(${gen})
  endif()
  add_executable(${name} ${gen})
  target_include_directories(${name} PRIVATE ${arg_INCLUDE_DIRECTORIES})
  target_link_libraries(${name} PRIVATE PkgConfig::CRITERION)
  sl_emu_target(${name})
  add_test(NAME emu.${name} COMMAND ${name} --verbose=0 -j2)
  set_tests_properties(emu.${name} PROPERTIES LABELS "emu;${arg_LABELS}" TIMEOUT 300)
endfunction()

# sl_test_costs(TEST SECONDS [TEST SECONDS ...]): the order of a first run.
# CTest starts the tests with the highest COST first and, once a run has
# finished, orders by the times it recorded; a fresh clone has no record,
# and without these hints its longest tests could start last and leave the
# other core idle at the end. The seconds were measured on a 2-core machine;
# only their order matters. A test this folder did not add is passed over
# (CMake 3.25 sets a test's properties only in the folder that added it).
function(sl_test_costs)
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs test cost)
    if(TEST ${test})
      set_tests_properties(${test} PROPERTIES COST ${cost})
    endif()
  endwhile()
endfunction()
