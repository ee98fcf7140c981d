/* simtlab CPU emulator — <mma.h>: the warp matrix operations.
 *
 * Two layers, both warp-collective and both built on
 * simtlab_emu::warp_collective, so that a call from a divergent branch (some
 * lanes of the warp never arrive) fails the launch with a diagnostic, as the
 * ".sync.aligned" qualifiers of the PTX ISA require:
 *
 *   nvcuda::wmma     the CUDA C++ WMMA API (fragment, load_matrix_sync,
 *                    mma_sync, store_matrix_sync, fill_fragment) for the
 *                    shapes CUDA offers for 16-bit inputs, m16n16k16,
 *                    m32n8k16 and m8n32k16, with __half or __nv_bfloat16
 *                    inputs and float or __half accumulators. Under nvcc kernels include the
 *                    toolkit's <mma.h>; this one exists only for the emulator.
 *   simtlab_emu::    the PTX-level operations (mma.sync m16n8k16, ldmatrix,
 *                    cp.async): declared in <simtlab_emu/ptx.hpp>, the seam
 *                    for code that writes them as inline PTX under nvcc;
 *                    included here too.
 *
 * Implemented in emu/src/tensor_mma.cpp (mma.sync, WMMA) and
 * emu/src/tensor_copy.cpp (ldmatrix, cp.async).
 *
 * The WMMA fragment layout here is the emulator's own. The CUDA Programming
 * Guide leaves the mapping of matrix elements to the lanes' x[] unspecified
 * (it differs between GPU generations), so portable code may do element-wise
 * work on x[] (scaling, activation) but must never depend on which lane holds
 * which element. The emulator chooses the simplest mapping: a tile of R rows
 * and C columns (matrix_a: M x K, matrix_b: K x N, accumulator: M x N) is cut
 * into 32 runs of E = R * C / 32 consecutive elements in row-major order,
 * one run per lane,
 *
 *     lane L, x[i]  <->  flat index L * E + i: row (L * E + i) / C,
 *                        column (L * E + i) % C,
 *
 * which for 16x16 (E = 8) is row L / 2, column (L % 2) * 8 + i; for m32n8k16
 * matrix_a (32x16) E = 16, matrix_b (16x8) E = 4; for m8n32k16 the reverse;
 * accumulators are 8 per lane in all three shapes. The Layout parameter only
 * says how load_matrix_sync reads memory. (In the CUDA 13 toolkit's <mma.h>
 * a 16x16x16 __half matrix_a fragment has 16 elements per lane; code that
 * loops to num_elements works on both.)
 *
 * What the Programming Guide requires is checked and fails the launch with
 * a diagnostic: a 256-bit aligned tile pointer, ldm a multiple of 16 bytes,
 * the same pointer, ldm and layout on every lane, and all 32 lanes present.
 */
#ifndef SIMTLAB_EMU_MMA_H
#define SIMTLAB_EMU_MMA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <simtlab_emu/engine.hpp>
#include <simtlab_emu/ptx.hpp> /* also SIMTLAB_EMU_TENSOR_CALLER, for the diagnostics */
#include <type_traits>

namespace simtlab_emu {

/* ---- the WMMA support functions ------------------------------------------ */

enum wmma_element { wmma_f16, wmma_bf16, wmma_f32 };
/* Elements per lane of an emulated 16x16 fragment (see the top); a tile of
 * rows x cols has rows * cols / 32. */
constexpr int wmma_lane_elements = 8;

/* The tile one operation works on: rows x cols elements, cut into 32 runs. */
struct wmma_tile {
    unsigned rows, cols;
};

/* Warp-collective load of a tile: every lane passes its own fragment
 * storage `elems` (rows * cols / 32 elements of `type`) and the same p, ldm
 * and layout. */
void wmma_load(void *elems, wmma_element type, wmma_tile tile, const void *p, unsigned ldm, bool col_major,
               const char *op, here where);
/* Warp-collective store of an accumulator tile (f32 or f16 elements). */
void wmma_store(void *p, const void *elems, wmma_element type, wmma_tile tile, unsigned ldm, bool col_major,
                here where);
/* Warp-collective D = A * B + C on an m x n x k shape (16x16x16, 32x8x16 or
 * 8x32x16); a and b hold each lane's elements of `input` type, c and d
 * m * n / 32 floats each (d may be c). */
void wmma_mma(float *d, const void *a, const void *b, wmma_element input, const float *c, unsigned m, unsigned n,
              unsigned k, here where);

} /* namespace simtlab_emu */

namespace nvcuda {
namespace wmma {

/* The roles and layouts, as tag types (CUDA's names). */
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

/* What every emulated fragment holds: its lane's share of the tile. */
template <class T, int elements = ::simtlab_emu::wmma_lane_elements>
struct fragment_storage {
    typedef T element_type;
    typedef T storage_element_type;
    enum { num_elements = elements };
    T x[num_elements];
};

/* Any shape or type not specialised below is not emulated: say so at compile
 * time rather than misbehave at run time. */
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
    static_assert(sizeof(Use) == 0,
                  "simtlab emulator: this wmma fragment is not emulated; it supports, for m x n x k one of "
                  "16x16x16, 32x8x16 and 8x32x16, "
                  "fragment<matrix_a|matrix_b, m, n, k, __half|__nv_bfloat16, row_major|col_major> "
                  "and fragment<accumulator, m, n, k, float|__half>");
};

/* The tile a fragment holds: matrix_a is m x k, matrix_b k x n, the
 * accumulator m x n. */
template <class Use, int m, int n, int k> struct tile_of;
template <int m, int n, int k> struct tile_of<matrix_a, m, n, k> { enum { rows = m, cols = k }; };
template <int m, int n, int k> struct tile_of<matrix_b, m, n, k> { enum { rows = k, cols = n }; };
template <int m, int n, int k> struct tile_of<accumulator, m, n, k> { enum { rows = m, cols = n }; };
template <class Use, int m, int n, int k, class T>
using fragment_storage_of = fragment_storage<T, tile_of<Use, m, n, k>::rows * tile_of<Use, m, n, k>::cols / 32>;

#define SIMTLAB_EMU_WMMA_SHAPE(M, N, K)                                                                           \
    template <> class fragment<matrix_a, M, N, K, __half, row_major>                                              \
        : public fragment_storage_of<matrix_a, M, N, K, __half> {};                                               \
    template <> class fragment<matrix_a, M, N, K, __half, col_major>                                              \
        : public fragment_storage_of<matrix_a, M, N, K, __half> {};                                               \
    template <> class fragment<matrix_b, M, N, K, __half, row_major>                                              \
        : public fragment_storage_of<matrix_b, M, N, K, __half> {};                                               \
    template <> class fragment<matrix_b, M, N, K, __half, col_major>                                              \
        : public fragment_storage_of<matrix_b, M, N, K, __half> {};                                               \
    template <> class fragment<matrix_a, M, N, K, __nv_bfloat16, row_major>                                       \
        : public fragment_storage_of<matrix_a, M, N, K, __nv_bfloat16> {};                                        \
    template <> class fragment<matrix_a, M, N, K, __nv_bfloat16, col_major>                                       \
        : public fragment_storage_of<matrix_a, M, N, K, __nv_bfloat16> {};                                        \
    template <> class fragment<matrix_b, M, N, K, __nv_bfloat16, row_major>                                       \
        : public fragment_storage_of<matrix_b, M, N, K, __nv_bfloat16> {};                                        \
    template <> class fragment<matrix_b, M, N, K, __nv_bfloat16, col_major>                                       \
        : public fragment_storage_of<matrix_b, M, N, K, __nv_bfloat16> {};                                        \
    template <> class fragment<accumulator, M, N, K, float> : public fragment_storage_of<accumulator, M, N, K, float> {}; \
    template <> class fragment<accumulator, M, N, K, __half> : public fragment_storage_of<accumulator, M, N, K, __half> {};
SIMTLAB_EMU_WMMA_SHAPE(16, 16, 16)
SIMTLAB_EMU_WMMA_SHAPE(32, 8, 16)
SIMTLAB_EMU_WMMA_SHAPE(8, 32, 16)
#undef SIMTLAB_EMU_WMMA_SHAPE

namespace detail {
template <class T> struct element_kind;
template <> struct element_kind<__half> { static constexpr ::simtlab_emu::wmma_element value = ::simtlab_emu::wmma_f16; };
template <> struct element_kind<__nv_bfloat16> { static constexpr ::simtlab_emu::wmma_element value = ::simtlab_emu::wmma_bf16; };
template <> struct element_kind<float> { static constexpr ::simtlab_emu::wmma_element value = ::simtlab_emu::wmma_f32; };
/* Accumulator elements to and from the float the multiply works in; a
 * __half result is rounded to nearest even once, at the end. */
inline float to_float(float v) { return v; }
inline float to_float(__half v) { return __half2float(v); }
inline void from_float(float &out, float v) { out = v; }
inline void from_float(__half &out, float v) { out = __float2half(v); }
template <class Layout> struct is_col_major { static constexpr bool value = false; };
template <> struct is_col_major<col_major> { static constexpr bool value = true; };
static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2, "16-bit element types");
} /* namespace detail */

/* Not a warp operation in CUDA either: each lane fills its own elements. */
template <class Fragment>
inline void fill_fragment(Fragment &f, const typename Fragment::element_type &v)
{
    for (int i = 0; i < Fragment::num_elements; ++i)
        f.x[i] = v;
}

template <class Use, int m, int n, int k>
inline ::simtlab_emu::wmma_tile tile_for()
{
    return ::simtlab_emu::wmma_tile{tile_of<Use, m, n, k>::rows, tile_of<Use, m, n, k>::cols};
}

/* matrix_a / matrix_b: ldm is the distance in elements between rows
 * (row_major) or columns (col_major) in memory. */
template <class Use, int m, int n, int k, class T, class Layout>
inline void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &f, const T *p, unsigned ldm,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(!std::is_same<Use, accumulator>::value,
                  "an accumulator load says how the tile lies in memory: "
                  "load_matrix_sync(c, p, ldm, wmma::mem_row_major)");
    ::simtlab_emu::wmma_load(f.x, detail::element_kind<T>::value, tile_for<Use, m, n, k>(), p, ldm,
                             detail::is_col_major<Layout>::value, "wmma::load_matrix_sync", where);
}

/* Accumulators (float or __half): the layout says how the tile lies in
 * memory, since the fragment type does not. */
template <int m, int n, int k, class Acc>
inline void load_matrix_sync(fragment<accumulator, m, n, k, Acc> &f, const Acc *p, unsigned ldm, layout_t layout,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_load(f.x, detail::element_kind<Acc>::value, tile_for<accumulator, m, n, k>(), p, ldm,
                             layout == mem_col_major, "wmma::load_matrix_sync", where);
}

template <int m, int n, int k, class Acc>
inline void store_matrix_sync(Acc *p, const fragment<accumulator, m, n, k, Acc> &f, unsigned ldm, layout_t layout,
                              ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_store(p, f.x, detail::element_kind<Acc>::value, tile_for<accumulator, m, n, k>(), ldm,
                              layout == mem_col_major, where);
}

/* d = a * b + c, for float or __half accumulators in any combination; d may
 * be the same fragment as c. The products and sums are float; a __half d is
 * rounded once at the end (hardware's internal precision for __half
 * accumulators is not documented and may round more often). */
template <int m, int n, int k, class T, class LayoutA, class LayoutB, class AccD, class AccC>
inline void mma_sync(fragment<accumulator, m, n, k, AccD> &d, const fragment<matrix_a, m, n, k, T, LayoutA> &a,
                     const fragment<matrix_b, m, n, k, T, LayoutB> &b, const fragment<accumulator, m, n, k, AccC> &c,
                     ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(std::is_same<T, __half>::value || (std::is_same<AccD, float>::value && std::is_same<AccC, float>::value),
                  "as in CUDA, __nv_bfloat16 inputs accumulate in float only");
    enum { elements = m * n / 32 };
    float acc[elements];
    for (int i = 0; i < elements; ++i)
        acc[i] = detail::to_float(c.x[i]);
    ::simtlab_emu::wmma_mma(acc, a.x, b.x, detail::element_kind<T>::value, acc, m, n, k, where);
    for (int i = 0; i < elements; ++i)
        detail::from_float(d.x[i], acc[i]);
}

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* SIMTLAB_EMU_MMA_H */
