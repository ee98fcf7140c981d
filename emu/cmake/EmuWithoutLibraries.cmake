# The emulator configured and built with some optional libraries left out
# (SIMTLAB_EMU_WITH_<LIB>=OFF, SimtlabEmuLibraries.cmake), and checked:
#   - the runtime library holds no entry point of a library left out, and
#     still holds those of every library built;
#   - slcc, by itself, makes each left-out library's header an #error that
#     names the option;
#   - slcc still builds and runs a program (tests/slcc_inputs/hello.cu).
# Run by the test emu.libraries_left_out_build (label long: it builds the
# runtime once more):
#
#   cmake -DSOURCE=<emu> -DBINARY=<dir> -DOFF=CUSPARSE,CUBLASLT -DCC=<cc> -DCXX=<c++> -P EmuWithoutLibraries.cmake

cmake_minimum_required(VERSION 3.25) # a -P script sets its own policies (IN_LIST)

foreach(v SOURCE BINARY OFF CC CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "EmuWithoutLibraries.cmake: pass -D${v}=...")
  endif()
endforeach()

# An entry point of each library that has sources (NVTX is header-only).
set(symbol_CUB simtlab_emu_cub_invalid)
set(symbol_CUSPARSE cusparseCreate)
set(symbol_CUSOLVER cusolverDnCreate)
set(symbol_CURAND curandCreateGenerator)
set(symbol_CUBLASLT cublasLtCreate)
set(symbol_THRUST simtlab_emu_thrust_host_access)
set(symbol_DRIVER cuInit)
set(libraries CUB CUSPARSE CUSOLVER CURAND CUBLASLT THRUST NVTX DRIVER)

string(REPLACE "," ";" OFF "${OFF}")
set(options)
foreach(lib IN LISTS OFF)
  if(NOT lib IN_LIST libraries)
    message(FATAL_ERROR "EmuWithoutLibraries.cmake: ${lib} is not an optional library (${libraries})")
  endif()
  list(APPEND options -DSIMTLAB_EMU_WITH_${lib}=OFF)
endforeach()

file(REMOVE_RECURSE "${BINARY}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE}" -B "${BINARY}" -DBUILD_TESTING=OFF
                        -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX} ${options}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring with ${options} failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BINARY}" -j2 RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building with ${options} failed")
endif()

find_program(NM nm REQUIRED)
execute_process(COMMAND ${NM} --defined-only -g "${BINARY}/lib/libsimtlab_emu_rt.a"
                OUTPUT_VARIABLE defined ERROR_QUIET RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "nm could not read ${BINARY}/lib/libsimtlab_emu_rt.a")
endif()
foreach(lib IN LISTS libraries)
  if(NOT symbol_${lib})
    continue()
  endif()
  string(REGEX MATCH " T ${symbol_${lib}}\n" found "${defined}")
  if(lib IN_LIST OFF AND found)
    message(FATAL_ERROR "${lib} is off, yet the runtime defines ${symbol_${lib}}")
  elseif(NOT lib IN_LIST OFF AND NOT found)
    message(FATAL_ERROR "${lib} is on, yet the runtime lacks ${symbol_${lib}}")
  endif()
endforeach()

foreach(lib IN LISTS OFF)
  execute_process(COMMAND "${BINARY}/bin/slcc" -c -DHEADER_OF_${lib} "${SOURCE}/tests/library_left_out.cu"
                          -o "${BINARY}/left_out_${lib}.o"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc OR NOT out MATCHES "#error \"simtlab emulator: this emulator was built without [^\"]*: configure it with -DSIMTLAB_EMU_WITH_${lib}=ON\"")
    message(FATAL_ERROR "slcc on a program that includes ${lib}'s header: exit ${rc}, without the #error "
                        "naming SIMTLAB_EMU_WITH_${lib}:\n${out}")
  endif()
endforeach()

execute_process(COMMAND "${BINARY}/bin/slcc" "${SOURCE}/tests/slcc_inputs/hello.cu" -o "${BINARY}/hello"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  message(FATAL_ERROR "slcc could not build hello.cu without ${OFF}:\n${out}")
endif()
execute_process(COMMAND "${BINARY}/hello" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc OR NOT out MATCHES "^hello: 0 1 2 3")
  message(FATAL_ERROR "hello built without ${OFF} printed:\n${out}${err}(exit ${rc})")
endif()
message(STATUS "built without ${OFF}: runtime, slcc and a program as expected")
