/* Must not compile: one wmma use per CASE that CUDA does not offer (the
 * CUDA Programming Guide's "Element Types and Matrix Sizes"). Each case is
 * a test (emu/CMakeLists.txt, emu.wmma_not_offered_<CASE>) that compiles
 * this file with slcc -c -DCASE=n and expects the emulator's message, with
 * the offending fragment named in the instantiation the compiler reports. */
#include <mma.h>

using namespace nvcuda;

__global__ void not_offered(float *out)
{
#if CASE == 1 /* float is an accumulator type, not an input */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, float, wmma::row_major> f;
#elif CASE == 2 /* double accumulates at m8n8k4 only */
    wmma::fragment<wmma::accumulator, 16, 16, 16, double> f;
#elif CASE == 3 /* tf32 is m16n16k8 only */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, wmma::precision::tf32, wmma::row_major> f;
#elif CASE == 4 /* 4-bit matrix_b is col_major only */
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> f;
#elif CASE == 5 /* m16n16k8 accumulates in float only */
    wmma::fragment<wmma::accumulator, 16, 16, 8, int> f;
#elif CASE == 6 /* m16n8k16 is an mma.sync shape, not a wmma one */
    wmma::fragment<wmma::matrix_a, 16, 8, 16, __half, wmma::row_major> f;
#elif CASE == 7 /* bf16 accumulates in float only */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> c;
    wmma::mma_sync(c, a, b, c);
    float f = 0;
#elif CASE == 8 /* b1 multiplies with bmma_sync */
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> c;
    wmma::mma_sync(c, a, b, c);
    float f = 0;
#else
#error "CASE must be 1 to 8"
#endif
    (void)f;
    out[0] = 0;
}
