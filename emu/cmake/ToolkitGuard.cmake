# The toolkit guard: a directory that slcc and sl_emu_target put on the
# include path after every other -I (and so ahead of CPATH and the system
# directories, where a system-wide CUDA toolkit puts its headers). It holds,
# for every CUDA toolkit header that emu/include does not provide, a file of
# that name whose one line is
#
#   #error "simtlab emulator: <cublasXt.h> is not provided by the emulator yet"
#
# so that a missing piece is named instead of the toolkit's own header being
# compiled against the emulator's. The names come from an installed toolkit's
# include tree when one is found (CUDA_HOME, CUDA_PATH, /usr/local/cuda, or
# CUDAToolkit_INCLUDE_DIRS), and always from the checked-in list
# toolkit_headers.txt, so the guard works on a machine without the toolkit.
#
# Sets the global property SIMTLAB_EMU_TOOLKIT_GUARD_DIR.

function(_sl_emu_make_toolkit_guard)
  set(guard "${CMAKE_BINARY_DIR}/simtlab_emu_toolkit_guard")
  set(emu_include "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../include")
  file(STRINGS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/toolkit_headers.txt" names REGEX "^[^#]")

  set(roots)
  foreach(home IN ITEMS "$ENV{CUDA_HOME}" "$ENV{CUDA_PATH}" "/usr/local/cuda")
    if(home)
      list(APPEND roots "${home}/include")
    endif()
  endforeach()
  if(CUDAToolkit_INCLUDE_DIRS)
    list(APPEND roots ${CUDAToolkit_INCLUDE_DIRS})
  endif()
  foreach(root IN LISTS roots)
    # Only a toolkit's own tree: /usr/include would list every system header.
    if(NOT EXISTS "${root}/cuda_runtime_api.h" OR root MATCHES "^/usr(/local)?/include/?$")
      continue()
    endif()
    foreach(tree IN ITEMS "${root}" "${root}/cccl")
      if(IS_DIRECTORY "${tree}")
        file(GLOB_RECURSE found RELATIVE "${tree}" "${tree}/*")
        list(FILTER found EXCLUDE REGEX "^(cccl|Openacc|Openmp)/")
        list(APPEND names ${found})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES names)

  file(GLOB_RECURSE provided RELATIVE "${emu_include}" "${emu_include}/*")
  set(count 0)
  foreach(name IN LISTS names)
    if(name IN_LIST provided OR name MATCHES "[^A-Za-z0-9_./+-]")
      continue()
    endif()
    set(text "#error \"simtlab emulator: <${name}> is not provided by the emulator yet\"\n")
    if(name MATCHES "^thrust/")
      # Thrust comes from Debian (SimtlabThrust.cmake), ahead of this
      # directory: a name found here is either not installed or not in 1.17.
      string(CONCAT text "#error \"simtlab emulator: <${name}>: Thrust comes from Debian: apt-get install "
             "libthrust-dev libcub-dev (if they are installed: Debian's Thrust 1.17 has no such header)\"\n")
    endif()
    if(EXISTS "${guard}/${name}")
      file(READ "${guard}/${name}" old_text)
    else()
      set(old_text "")
    endif()
    if(NOT old_text STREQUAL text)
      file(WRITE "${guard}/${name}" "${text}")
    endif()
    math(EXPR count "${count} + 1")
  endforeach()
  # A header the emulator has come to provide since the last configure: its
  # guard file would never be reached (emu/include comes first), but remove it.
  foreach(name IN LISTS provided)
    if(EXISTS "${guard}/${name}")
      file(REMOVE "${guard}/${name}")
    endif()
  endforeach()
  file(MAKE_DIRECTORY "${guard}")
  message(STATUS "simtlab emulator: toolkit guard for ${count} headers in ${guard}")
  set_property(GLOBAL PROPERTY SIMTLAB_EMU_TOOLKIT_GUARD_DIR "${guard}")
endfunction()

get_property(_sl_emu_guard_done GLOBAL PROPERTY SIMTLAB_EMU_TOOLKIT_GUARD_DIR SET)
if(NOT _sl_emu_guard_done)
  _sl_emu_make_toolkit_guard()
endif()
