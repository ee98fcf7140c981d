/* simtlab CPU emulator — <mma.h>: the warp matrix operations.
 *
 * Two layers, both warp-collective and both built on
 * simtlab_emu::warp_collective, so that a call from a divergent branch (some
 * lanes of the warp never arrive) fails the launch with a diagnostic, as the
 * ".sync.aligned" qualifiers of the PTX ISA require:
 *
 *   nvcuda::wmma     the CUDA C++ WMMA API (fragment, load_matrix_sync,
 *                    mma_sync, store_matrix_sync, fill_fragment) for the
 *                    16x16x16 shape with __half or __nv_bfloat16 inputs and
 *                    float or __half accumulators. Under nvcc kernels include the
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
 * which element. The emulator chooses the simplest mapping: each lane holds 8
 * consecutive elements of the 16x16 tile in row-major order,
 *
 *     lane L, x[i]  <->  tile row L / 2, column (L % 2) * 8 + i,
 *
 * for matrix_a (M x K), matrix_b (K x N) and accumulator (M x N) alike; the
 * Layout parameter only says how load_matrix_sync reads memory. (In the
 * CUDA 13 toolkit's <mma.h> a 16x16x16 __half matrix_a fragment has 16
 * elements per lane; code that loops to num_elements works on both.)
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
/* Elements per lane of every emulated 16x16 fragment (see the top). */
constexpr int wmma_lane_elements = 8;

/* Warp-collective load of a 16x16 tile: every lane passes its own fragment
 * storage `elems` (8 elements of `type`) and the same p, ldm and layout. */
void wmma_load(void *elems, wmma_element type, const void *p, unsigned ldm, bool col_major,
               const char *op, here where);
/* Warp-collective store of an accumulator tile (f32 or f16 elements). */
void wmma_store(void *p, const void *elems, wmma_element type, unsigned ldm, bool col_major, here where);
/* Warp-collective D = A * B + C on 16x16x16; a and b hold 8 elements of
 * `input` type each, c and d 8 floats (d may be c). */
void wmma_mma(float *d, const void *a, const void *b, wmma_element input, const float *c, here where);

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
template <class T>
struct fragment_storage {
    typedef T element_type;
    typedef T storage_element_type;
    enum { num_elements = ::simtlab_emu::wmma_lane_elements };
    T x[num_elements];
};

/* Any shape or type not specialised below is not emulated: say so at compile
 * time rather than misbehave at run time. */
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
    static_assert(sizeof(Use) == 0,
                  "simtlab emulator: this wmma fragment is not emulated; it supports "
                  "fragment<matrix_a|matrix_b, 16, 16, 16, __half|__nv_bfloat16, row_major|col_major> "
                  "and fragment<accumulator, 16, 16, 16, float|__half>");
};

template <> class fragment<matrix_a, 16, 16, 16, __half, row_major> : public fragment_storage<__half> {};
template <> class fragment<matrix_a, 16, 16, 16, __half, col_major> : public fragment_storage<__half> {};
template <> class fragment<matrix_b, 16, 16, 16, __half, row_major> : public fragment_storage<__half> {};
template <> class fragment<matrix_b, 16, 16, 16, __half, col_major> : public fragment_storage<__half> {};
template <> class fragment<matrix_a, 16, 16, 16, __nv_bfloat16, row_major> : public fragment_storage<__nv_bfloat16> {};
template <> class fragment<matrix_a, 16, 16, 16, __nv_bfloat16, col_major> : public fragment_storage<__nv_bfloat16> {};
template <> class fragment<matrix_b, 16, 16, 16, __nv_bfloat16, row_major> : public fragment_storage<__nv_bfloat16> {};
template <> class fragment<matrix_b, 16, 16, 16, __nv_bfloat16, col_major> : public fragment_storage<__nv_bfloat16> {};
template <> class fragment<accumulator, 16, 16, 16, float> : public fragment_storage<float> {};
template <> class fragment<accumulator, 16, 16, 16, __half> : public fragment_storage<__half> {};

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

/* matrix_a / matrix_b: ldm is the distance in elements between rows
 * (row_major) or columns (col_major) in memory. */
template <class Use, class T, class Layout>
inline void load_matrix_sync(fragment<Use, 16, 16, 16, T, Layout> &f, const T *p, unsigned ldm,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(!std::is_same<Use, accumulator>::value,
                  "an accumulator load says how the tile lies in memory: "
                  "load_matrix_sync(c, p, ldm, wmma::mem_row_major)");
    ::simtlab_emu::wmma_load(f.x, detail::element_kind<T>::value, p, ldm, detail::is_col_major<Layout>::value,
                             "wmma::load_matrix_sync", where);
}

/* Accumulators (float or __half): the layout says how the tile lies in
 * memory, since the fragment type does not. */
template <class Acc>
inline void load_matrix_sync(fragment<accumulator, 16, 16, 16, Acc> &f, const Acc *p, unsigned ldm, layout_t layout,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_load(f.x, detail::element_kind<Acc>::value, p, ldm, layout == mem_col_major,
                             "wmma::load_matrix_sync", where);
}

template <class Acc>
inline void store_matrix_sync(Acc *p, const fragment<accumulator, 16, 16, 16, Acc> &f, unsigned ldm, layout_t layout,
                              ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_store(p, f.x, detail::element_kind<Acc>::value, ldm, layout == mem_col_major, where);
}

/* d = a * b + c, for float or __half accumulators in any combination; d may
 * be the same fragment as c. The products and sums are float; a __half d is
 * rounded once at the end (hardware's internal precision for __half
 * accumulators is not documented and may round more often). */
template <class T, class LayoutA, class LayoutB, class AccD, class AccC>
inline void mma_sync(fragment<accumulator, 16, 16, 16, AccD> &d, const fragment<matrix_a, 16, 16, 16, T, LayoutA> &a,
                     const fragment<matrix_b, 16, 16, 16, T, LayoutB> &b,
                     const fragment<accumulator, 16, 16, 16, AccC> &c,
                     ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(std::is_same<T, __half>::value || (std::is_same<AccD, float>::value && std::is_same<AccC, float>::value),
                  "as in CUDA, __nv_bfloat16 inputs accumulate in float only");
    float acc[::simtlab_emu::wmma_lane_elements];
    for (int i = 0; i < ::simtlab_emu::wmma_lane_elements; ++i)
        acc[i] = detail::to_float(c.x[i]);
    ::simtlab_emu::wmma_mma(acc, a.x, b.x, detail::element_kind<T>::value, acc, where);
    for (int i = 0; i < ::simtlab_emu::wmma_lane_elements; ++i)
        detail::from_float(d.x[i], acc[i]);
}

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* SIMTLAB_EMU_MMA_H */
