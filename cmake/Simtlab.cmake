# Helpers shared by every part of the build.

# sl_emu_rewrite(<out_var> <file.cu>...)
# Runs slrewrite on each CUDA source: the result, under build/emu_gen/, is C++
# that the host compiler builds against emu/include. #line keeps messages and
# gdb on the original file.
function(sl_emu_rewrite out_var)
  set(outs)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${abs}")
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
function(sl_emu_target target)
  target_include_directories(${target} BEFORE PRIVATE "${PROJECT_SOURCE_DIR}/emu/include")
  target_link_libraries(${target} PRIVATE simtlab_emu_rt)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()
