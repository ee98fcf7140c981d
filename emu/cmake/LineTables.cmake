# The default build (RelWithDebInfo) carries line tables, not full debug
# information: -O2 -g1 instead of CMake's -O2 -g. The emulator's reports
# resolve kernel addresses to file, line and inline site (addr2line), which
# -g1 keeps; it drops the types and locals only a debugger reads, and cuts
# the build's compile time by about a fifth. A debugger's build is
# CMAKE_BUILD_TYPE=Debug; flags a user set are left alone.
foreach(_sl_lang C CXX)
  if(CMAKE_${_sl_lang}_FLAGS_RELWITHDEBINFO STREQUAL "-O2 -g -DNDEBUG")
    set(CMAKE_${_sl_lang}_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING
        "Flags used by the ${_sl_lang} compiler during RelWithDebInfo builds (simtlab: line tables only)" FORCE)
  endif()
endforeach()
