/* A program that includes one optional library's header (HEADER_OF_<LIB>,
 * the suffix of SIMTLAB_EMU_WITH_<LIB>): built with SIMTLAB_EMU_WITHOUT_<LIB>
 * (which slcc and sl_emu_target add for a library the emulator was
 * configured without), its compile must stop at an #error that names the
 * option (emu/CMakeLists.txt, emu.without_<LIB> and emu.left_out_<LIB>). */
#if defined(HEADER_OF_CUB)
#include <cub/block/block_reduce.cuh> /* every CUB header goes through simtlab_emu/cub_core.hpp */
#elif defined(HEADER_OF_CUSPARSE)
#include <cusparse_v2.h>
#elif defined(HEADER_OF_CUSOLVER)
#include <cusolverDn.h>
#elif defined(HEADER_OF_CURAND)
#include <curand_kernel.h>
#elif defined(HEADER_OF_CUBLASLT)
#include <cublasLt.h>
#elif defined(HEADER_OF_THRUST)
/* The emulator's own: every Thrust header includes it first, and it is found
 * whether or not Debian's Thrust is installed. */
#include <thrust/detail/config.h>
#elif defined(HEADER_OF_NVTX)
#include <nvToolsExt.h>
#elif defined(HEADER_OF_DRIVER)
#include <cuda.h>
#else
#error "library_left_out.cu: define HEADER_OF_<LIB>"
#endif

int main() { return 0; }
