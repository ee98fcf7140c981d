# The emulator's optional libraries: one option each, ON by default.
#
#   SIMTLAB_EMU_WITH_CUB       CUB           <cub/...>                  src/libs/cub
#   SIMTLAB_EMU_WITH_CUSPARSE  cuSPARSE      <cusparse.h>               src/libs/cusparse
#   SIMTLAB_EMU_WITH_CUSOLVER  cuSOLVER      <cusolverDn.h>             src/libs/cusolver
#   SIMTLAB_EMU_WITH_CURAND    cuRAND        <curand.h>, <curand_kernel.h>  src/libs/curand
#   SIMTLAB_EMU_WITH_CUBLASLT  cuBLASLt      <cublasLt.h>               src/libs/cublaslt
#   SIMTLAB_EMU_WITH_THRUST    Thrust        <thrust/...>               src/libs/thrust
#   SIMTLAB_EMU_WITH_NVTX      NVTX          <nvToolsExt*.h>, <nvtx3/...>  (header-only)
#   SIMTLAB_EMU_WITH_DRIVER    driver API    <cuda.h>                   src/libs/driver
#
# cuBLAS is not optional: the chapters use it. OFF: the library's sources
# are not compiled into simtlab_emu_rt, its tests are not registered, and
# every build of a program on the emulator (slcc, and sl_emu_target through
# simtlab_emu_rt's interface) gets -DSIMTLAB_EMU_WITHOUT_<LIB>, which makes
# the library's headers an #error naming the option to turn on.
#
# What the libraries need of each other: cuSOLVER (its types and
# <cusolverDn.h>) and cuBLASLt (libs/cublas's checks) need cuBLAS, which is
# always built; Thrust is Debian's with the CPP device system, which
# includes no CUB header; <nvToolsExtCuda.h> includes <cuda.h>, so without
# the driver API that one NVTX header says so (the rest of NVTX does not
# need it). So no optional library needs another, and no combination of
# these options is refused at configure time.
#
# Sets the global properties SIMTLAB_EMU_WITHOUT_DEFINITIONS (the
# SIMTLAB_EMU_WITHOUT_<LIB> macros) and SIMTLAB_EMU_DISABLED_LIBRARY_DIRS
# (their folders under src/libs).

set(SIMTLAB_EMU_OPTIONAL_LIBRARIES CUB CUSPARSE CUSOLVER CURAND CUBLASLT THRUST NVTX DRIVER)
set(_sl_emu_lib_name_CUB "CUB")
set(_sl_emu_lib_name_CUSPARSE "cuSPARSE")
set(_sl_emu_lib_name_CUSOLVER "cuSOLVER")
set(_sl_emu_lib_name_CURAND "cuRAND")
set(_sl_emu_lib_name_CUBLASLT "cuBLASLt")
set(_sl_emu_lib_name_THRUST "Thrust")
set(_sl_emu_lib_name_NVTX "NVTX")
set(_sl_emu_lib_name_DRIVER "the driver API (<cuda.h>)")

set(_sl_emu_without)
set(_sl_emu_disabled_dirs)
foreach(lib IN LISTS SIMTLAB_EMU_OPTIONAL_LIBRARIES)
  option(SIMTLAB_EMU_WITH_${lib} "Build the emulator's ${_sl_emu_lib_name_${lib}}" ON)
  if(NOT SIMTLAB_EMU_WITH_${lib})
    list(APPEND _sl_emu_without SIMTLAB_EMU_WITHOUT_${lib})
    string(TOLOWER "${lib}" dir)
    list(APPEND _sl_emu_disabled_dirs ${dir})
    message(STATUS "simtlab emulator: ${_sl_emu_lib_name_${lib}} left out (SIMTLAB_EMU_WITH_${lib}=OFF)")
  endif()
endforeach()
set_property(GLOBAL PROPERTY SIMTLAB_EMU_WITHOUT_DEFINITIONS "${_sl_emu_without}")
set_property(GLOBAL PROPERTY SIMTLAB_EMU_DISABLED_LIBRARY_DIRS "${_sl_emu_disabled_dirs}")
