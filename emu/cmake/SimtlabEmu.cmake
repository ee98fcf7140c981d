# Building CUDA sources for the CPU emulator: the two functions every user of
# the emulator needs (its own tests, and a project that includes emu/ with
# add_subdirectory(emu): CMake functions are global, so the including project
# can call them after that line). Included by emu/CMakeLists.txt; both use the
# targets slrewrite and simtlab_emu_rt that it defines.

# The toolkit guard directory (SIMTLAB_EMU_TOOLKIT_GUARD_DIR): a toolkit
# header that emu/include lacks is a one-line #error, not the toolkit's own.
include(${CMAKE_CURRENT_LIST_DIR}/ToolkitGuard.cmake)

# sl_emu_rewrite(<out_var> <file.cu>...)
# Runs slrewrite on each CUDA source: the result is C++ that the host compiler
# builds against emu/include, under <build>/emu_gen/ at the source's path
# relative to the calling project (or, for a file outside it, at its absolute
# path). #line keeps messages and gdb on the original file.
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
    add_custom_command(
      OUTPUT "${out}"
      COMMAND slrewrite "${abs}" -o "${out}"
      DEPENDS slrewrite "${abs}"
      COMMENT "slrewrite ${rel}"
      VERBATIM)
    # Quoted includes of the original file resolve beside it.
    set_source_files_properties("${out}" PROPERTIES COMPILE_OPTIONS "-iquote;${src_dir}")
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
  target_compile_options(${target} PRIVATE "-I${guard}")
  target_link_libraries(${target} PRIVATE simtlab_emu_rt)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()

# sl_emu_add_test(<file.cu> [INCLUDE_DIRECTORIES <dir>...] [LABELS <label>...])
# A Criterion test written in CUDA, built for the emulator and registered
# with CTest as emu.<name> (<name>: the file's name without .cu), label emu.
function(sl_emu_add_test src)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "INCLUDE_DIRECTORIES;LABELS")
  get_filename_component(name "${src}" NAME_WE)
  sl_emu_rewrite(gen "${src}")
  add_executable(${name} ${gen})
  target_include_directories(${name} PRIVATE ${arg_INCLUDE_DIRECTORIES})
  target_link_libraries(${name} PRIVATE PkgConfig::CRITERION)
  sl_emu_target(${name})
  add_test(NAME emu.${name} COMMAND ${name} --verbose=0 -j2)
  set_tests_properties(emu.${name} PROPERTIES LABELS "emu;${arg_LABELS}" TIMEOUT 300)
endfunction()
