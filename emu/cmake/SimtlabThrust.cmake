# Thrust for emulator builds (emu/docs/libraries.md, "Thrust and NVTX"): Debian's
# header-only Thrust 1.17 (libthrust-dev, which pulls libcub-dev), compiled
# with the CPP device system, never the CUDA toolkit's copy (CCCL). Debian
# puts it in /usr/include, a system directory that comes after the toolkit
# guard (whose thrust/ files are #errors) and that GCC will not move ahead
# with -I; so a directory holding one link, thrust/, goes on the include
# path just ahead of the guard instead. Debian's CUB is left out: its
# algorithms are CUDA code, which the CPP system never uses; <cub/...> is
# the emulator's own CUB (emu/include/cub, emu/docs/libraries.md "CUB").
#
# Sets the global properties SIMTLAB_EMU_THRUST_SHIM (that directory, made
# whether or not Thrust is installed: slcc checks at each build whether the
# links lead somewhere, so installing the packages later needs no
# reconfigure) and SIMTLAB_EMU_THRUST_FOUND (Thrust 1.x found now: CMake
# targets of sl_emu_target get the directory and SIMTLAB_EMU_THRUST=1).

function(_sl_emu_find_thrust)
  set(shim "${CMAKE_BINARY_DIR}/simtlab_emu_thrust")
  # Only a distribution's copy: the toolkit's CCCL (2.x and later) needs
  # libcu++ and CUDA, which the emulator does not provide.
  set(root "/usr/include")
  set(found OFF)
  foreach(candidate IN ITEMS /usr/include /usr/local/include)
    if(EXISTS "${candidate}/thrust/version.h")
      file(STRINGS "${candidate}/thrust/version.h" line REGEX "^#define THRUST_VERSION [0-9]+")
      if(line MATCHES "([0-9]+)$" AND CMAKE_MATCH_1 LESS 200000)
        set(root "${candidate}")
        set(found ON)
        break()
      endif()
    endif()
  endforeach()
  file(MAKE_DIRECTORY "${shim}")
  file(CREATE_LINK "${root}/thrust" "${shim}/thrust" SYMBOLIC)
  if(found)
    message(STATUS "simtlab emulator: Thrust (CPP device system) from ${root}")
  else()
    message(STATUS "simtlab emulator: no Thrust 1.x in /usr/include (apt-get install libthrust-dev libcub-dev): "
                   "Thrust programs will not build")
  endif()
  set_property(GLOBAL PROPERTY SIMTLAB_EMU_THRUST_SHIM "${shim}")
  set_property(GLOBAL PROPERTY SIMTLAB_EMU_THRUST_FOUND ${found})
endfunction()

get_property(_sl_emu_thrust_done GLOBAL PROPERTY SIMTLAB_EMU_THRUST_SHIM SET)
if(NOT _sl_emu_thrust_done)
  _sl_emu_find_thrust()
endif()
