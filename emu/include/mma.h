/* simtlab CPU emulator — <mma.h>: the warp matrix operations.
 *
 * Two layers, both warp-collective and both built on
 * simtlab_emu::warp_collective, so that a call from a divergent branch (some
 * lanes of the warp never arrive) fails the launch with a diagnostic, as the
 * ".sync.aligned" qualifiers of the PTX ISA require:
 *
 *   nvcuda::wmma     the CUDA C++ WMMA API (fragment, load_matrix_sync,
 *                    mma_sync, bmma_sync, store_matrix_sync, fill_fragment,
 *                    __float_to_tf32) with every shape and type the CUDA
 *                    Programming Guide's "Warp Matrix Functions" list:
 *                      m16n16k16, m32n8k16, m8n32k16: __half or
 *                        __nv_bfloat16 inputs (float or, for __half, __half
 *                        accumulators); signed or unsigned char inputs, int
 *                        accumulators (mma_sync's satf saturates);
 *                      m16n16k8: precision::tf32 inputs, float accumulators;
 *                      m8n8k4: double;
 *                      m8n8k32: experimental::precision::s4 / u4, int;
 *                      m8n8k128: experimental::precision::b1, int (bmma_sync,
 *                        XOR or AND, then popc).
 *                    Any other combination fails to compile with a message,
 *                    as under nvcc. Under nvcc kernels include the toolkit's
 *                    <mma.h>; this one exists only for the emulator.
 *   simtlab_emu::    the PTX-level operations (mma.sync m16n8k16, ldmatrix,
 *                    cp.async): declared in <simtlab_emu/ptx.hpp>, the seam
 *                    for code that writes them as inline PTX under nvcc;
 *                    included here too.
 *
 * Implemented in emu/src/engine/tensor_mma.cpp (mma.sync, WMMA) and
 * emu/src/engine/tensor_copy.cpp (ldmatrix, cp.async).
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
 *     lane L, element i  <->  flat index L * E + i: row (L * E + i) / C,
 *                             column (L * E + i) % C,
 *
 * which for 16x16 (E = 8) is row L / 2, column (L % 2) * 8 + i; for m32n8k16
 * matrix_a (32x16) E = 16, matrix_b (16x8) E = 4; for m8n32k16 the reverse;
 * m16n16k8 (tf32) a and b 4, m8n8k4 (double) a and b 1, its accumulator 2;
 * the other accumulators 8 (m8n8k32 and m8n8k128: 2). num_elements is E and
 * x[] holds E elements, except for the sub-byte types, whose x[] packs them
 * as CUDA's does (s4/u4: 8 per int, b1: 32 per unsigned; element i in bits
 * i * width up). The Layout parameter only says how load_matrix_sync reads
 * memory. (In the CUDA 13 toolkit's <mma.h> a 16x16x16 __half matrix_a
 * fragment has 16 elements per lane; code that loops to num_elements works
 * on both.)
 *
 * What the Programming Guide requires is checked and fails the launch with
 * a diagnostic: a 256-bit aligned tile pointer, ldm a multiple of 16 bytes
 * (of 128 bits for the sub-byte types), the same pointer, ldm and layout on
 * every lane, and all 32 lanes present.
 */
#ifndef SIMTLAB_EMU_MMA_H
#define SIMTLAB_EMU_MMA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <simtlab_emu/engine.hpp>
#include <simtlab_emu/ptx.hpp> /* also SIMTLAB_EMU_TENSOR_CALLER, for the diagnostics */
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace simtlab_emu {

/* ---- the WMMA support functions ------------------------------------------ */

/* The element types a fragment or a tile in memory can hold. */
enum wmma_element {
    wmma_f16, wmma_bf16, wmma_f32, wmma_tf32, wmma_f64, wmma_s8, wmma_u8, wmma_s32, wmma_s4, wmma_u4, wmma_b1
};

/* The tile one operation works on: rows x cols elements, cut into 32 runs. */
struct wmma_tile {
    unsigned rows, cols;
};

/* Warp-collective load of a tile: every lane passes its own fragment
 * storage `elems` (rows * cols / 32 elements of `type`, packed for the
 * sub-byte types) and the same p, ldm and layout. */
void wmma_load(void *elems, wmma_element type, wmma_tile tile, const void *p, unsigned ldm, bool col_major,
               const char *op, here where);
/* Warp-collective store of an accumulator tile. */
void wmma_store(void *p, const void *elems, wmma_element type, wmma_tile tile, unsigned ldm, bool col_major,
                here where);

/* One D = A * B + C: the input type of a and b, the accumulator types of c
 * and d (f16, f32, f64 or s32), the shape, and for integers satf, for b1 the
 * bit operation (1 XOR, 2 AND, as experimental::bmmaBitOp). */
struct wmma_mma_desc {
    wmma_element input, acc_c, acc_d;
    unsigned m, n, k;
    bool satf;
    int bit_op;
};
/* Warp-collective D = A * B + C; a, b, c and d are each lane's fragment
 * storage (d may be c: it is written after every lane's c is read). */
void wmma_mma(void *d, const void *a, const void *b, const void *c, const wmma_mma_desc &desc, here where);

/* cvt.rna.tf32.f32: round to the nearest value with 10 fraction bits, ties
 * away from zero (add half of the last kept bit to the magnitude, drop the
 * 13 low bits; a carry out of the largest finite binade gives infinity);
 * infinities unchanged; a NaN stays a (quiet) NaN. The result is a float
 * whose 13 low bits are 0. */
inline float tf32_round(float in)
{
    std::uint32_t bits;
    std::memcpy(&bits, &in, sizeof bits);
    if ((bits & 0x7f800000u) == 0x7f800000u) {
        if (bits & 0x007fffffu) /* NaN: keep its sign and upper payload, quiet */
            bits = (bits & 0xffffe000u) | 0x00400000u;
    } else {
        bits = (bits + 0x1000u) & 0xffffe000u;
    }
    float out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

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

namespace precision {
struct tf32 {};
} /* namespace precision */

namespace experimental {
namespace precision {
struct u4 {}; /* 4-bit unsigned */
struct s4 {}; /* 4-bit signed */
struct b1 {}; /* 1-bit */
} /* namespace precision */
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} /* namespace experimental */

/* wmma::__float_to_tf32: cvt.rna.tf32.f32 (see simtlab_emu::tf32_round). */
inline float __float_to_tf32(float in)
{
    return ::simtlab_emu::tf32_round(in);
}

namespace detail {
using ::simtlab_emu::wmma_element;

/* Per element type: what x[] stores, what fill_fragment takes, what memory
 * load_matrix_sync reads, its width in bits and its kind for the runtime. */
template <class T> struct element_traits {
    static constexpr bool known = false;
    typedef T storage; typedef T fill; typedef T memory;
    static constexpr int bits = 8;
    static constexpr wmma_element kind = ::simtlab_emu::wmma_f32;
};
#define SIMTLAB_EMU_WMMA_ELEMENT(T, STORAGE, MEMORY, BITS, KIND)                                                  \
    template <> struct element_traits<T> {                                                                        \
        static constexpr bool known = true;                                                                       \
        typedef STORAGE storage; typedef STORAGE fill; typedef MEMORY memory;                                     \
        static constexpr int bits = BITS;                                                                         \
        static constexpr wmma_element kind = ::simtlab_emu::KIND;                                                 \
    };
SIMTLAB_EMU_WMMA_ELEMENT(__half, __half, __half, 16, wmma_f16)
SIMTLAB_EMU_WMMA_ELEMENT(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, 16, wmma_bf16)
SIMTLAB_EMU_WMMA_ELEMENT(float, float, float, 32, wmma_f32)
SIMTLAB_EMU_WMMA_ELEMENT(precision::tf32, float, float, 32, wmma_tf32)
SIMTLAB_EMU_WMMA_ELEMENT(double, double, double, 64, wmma_f64)
SIMTLAB_EMU_WMMA_ELEMENT(signed char, signed char, signed char, 8, wmma_s8)
SIMTLAB_EMU_WMMA_ELEMENT(unsigned char, unsigned char, unsigned char, 8, wmma_u8)
SIMTLAB_EMU_WMMA_ELEMENT(int, int, int, 32, wmma_s32)
SIMTLAB_EMU_WMMA_ELEMENT(experimental::precision::s4, int, void, 4, wmma_s4)
SIMTLAB_EMU_WMMA_ELEMENT(experimental::precision::u4, unsigned, void, 4, wmma_u4)
SIMTLAB_EMU_WMMA_ELEMENT(experimental::precision::b1, unsigned, void, 1, wmma_b1)
#undef SIMTLAB_EMU_WMMA_ELEMENT

/* The tile a fragment holds: matrix_a is m x k, matrix_b k x n, the
 * accumulator m x n. */
template <class Use, int m, int n, int k> struct tile_of { enum { rows = 32, cols = 32 }; }; /* not a use */
template <int m, int n, int k> struct tile_of<matrix_a, m, n, k> { enum { rows = m, cols = k }; };
template <int m, int n, int k> struct tile_of<matrix_b, m, n, k> { enum { rows = k, cols = n }; };
template <int m, int n, int k> struct tile_of<accumulator, m, n, k> { enum { rows = m, cols = n }; };

template <class A, class B> struct same { static constexpr bool value = std::is_same<A, B>::value; };

/* The combinations the CUDA Programming Guide lists ("Element Types and
 * Matrix Sizes"), and only those. */
template <class Use, int m, int n, int k, class T, class Layout> struct offered {
    static constexpr bool a = same<Use, matrix_a>::value, b = same<Use, matrix_b>::value,
                          acc = same<Use, accumulator>::value;
    static constexpr bool row = same<Layout, row_major>::value, col = same<Layout, col_major>::value,
                          none = same<Layout, void>::value;
    static constexpr bool input = (a || b) && (row || col);
    static constexpr bool shape16 = (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) ||
                                    (m == 8 && n == 32 && k == 16);
    static constexpr bool value =
        (shape16 && input &&
         (same<T, __half>::value || same<T, __nv_bfloat16>::value || same<T, signed char>::value ||
          same<T, unsigned char>::value)) ||
        (shape16 && acc && none && (same<T, float>::value || same<T, __half>::value || same<T, int>::value)) ||
        (m == 16 && n == 16 && k == 8 &&
         ((input && same<T, precision::tf32>::value) || (acc && none && same<T, float>::value))) ||
        (m == 8 && n == 8 && k == 4 && ((input || (acc && none)) && same<T, double>::value)) ||
        (m == 8 && n == 8 && k == 32 &&
         (((a && row) || (b && col)) &&
              (same<T, experimental::precision::s4>::value || same<T, experimental::precision::u4>::value) ||
          (acc && none && same<T, int>::value))) ||
        (m == 8 && n == 8 && k == 128 &&
         (((a && row) || (b && col)) && same<T, experimental::precision::b1>::value ||
          (acc && none && same<T, int>::value)));
};

/* Each lane's share: E = rows * cols / 32 elements, packed 32 / bits to a
 * storage element for the sub-byte types. */
/* 8-byte aligned, as CUDA's fragments are (its __frag_base is __align__(8)). */
template <class Use, int m, int n, int k, class T> struct alignas(8) fragment_storage {
    typedef element_traits<T> traits;
    enum {
        elements = tile_of<Use, m, n, k>::rows * tile_of<Use, m, n, k>::cols / 32,
        num_elements = elements > 0 ? elements : 1,
        num_storage_elements = traits::bits < 8 ? (num_elements * traits::bits + 31) / 32 : num_elements
    };
    typedef T element_type;
    typedef typename traits::storage storage_element_type;
    typedef typename traits::fill fill_argument_type;
    storage_element_type x[num_storage_elements];
};
} /* namespace detail */

/* Every fragment CUDA offers (detail::offered); any other fails to compile,
 * naming itself in the instantiation the compiler reports. */
template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment : public detail::fragment_storage<Use, m, n, k, T> {
    static_assert(detail::offered<Use, m, n, k, T, Layout>::value,
                  "wmma::fragment<Use, m, n, k, T, Layout>: CUDA offers no fragment of this use, shape, element "
                  "type and layout (simtlab emulator, as nvcc). It offers matrix_a/matrix_b (Layout row_major or "
                  "col_major) and accumulator (no Layout) for: m16n16k16, m32n8k16, m8n32k16 with __half, "
                  "__nv_bfloat16, signed char or unsigned char inputs and float, __half or int accumulators; "
                  "m16n16k8 with precision::tf32 and float; m8n8k4 with double; m8n8k32 with "
                  "experimental::precision::s4 or u4 (matrix_a row_major, matrix_b col_major) and int; m8n8k128 "
                  "with experimental::precision::b1 (the same layouts) and int");
};

namespace detail {
template <class Layout> struct is_col_major { static constexpr bool value = false; };
template <> struct is_col_major<col_major> { static constexpr bool value = true; };

template <class Use, int m, int n, int k>
inline ::simtlab_emu::wmma_tile tile_for()
{
    return ::simtlab_emu::wmma_tile{tile_of<Use, m, n, k>::rows, tile_of<Use, m, n, k>::cols};
}

/* fill_fragment's storage value: the sub-byte types repeat the low bits of
 * the argument in every packed element, as CUDA's does. */
template <class T> inline typename element_traits<T>::storage fill_value(const typename element_traits<T>::fill &v)
{
    return v;
}
template <> inline int fill_value<experimental::precision::s4>(const int &v)
{
    return static_cast<int>((static_cast<unsigned>(v) & 0xfu) * 0x11111111u);
}
template <> inline unsigned fill_value<experimental::precision::u4>(const unsigned &v)
{
    return (v & 0xfu) * 0x11111111u;
}
template <> inline unsigned fill_value<experimental::precision::b1>(const unsigned &v)
{
    return (v & 1u) ? 0xffffffffu : 0u;
}
} /* namespace detail */

/* Not a warp operation in CUDA either: each lane fills its own elements. */
template <class Use, int m, int n, int k, class T, class Layout>
inline void fill_fragment(fragment<Use, m, n, k, T, Layout> &f,
                          const typename detail::element_traits<T>::fill &v)
{
    const typename detail::element_traits<T>::storage s = detail::fill_value<T>(v);
    for (int i = 0; i < fragment<Use, m, n, k, T, Layout>::num_storage_elements; ++i)
        f.x[i] = s;
}

/* matrix_a / matrix_b: ldm is the distance in elements between rows
 * (row_major) or columns (col_major) in memory. p points to the element
 * type's memory type: T for 16-bit, 8-bit and double inputs, float for
 * precision::tf32 (load_matrix_sync does not round: __float_to_tf32 does,
 * and mma_sync rounds what it is given), void for the sub-byte types. */
template <class Use, int m, int n, int k, class T, class Layout>
inline void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &f,
                             const typename detail::element_traits<T>::memory *p, unsigned ldm,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(!std::is_same<Use, accumulator>::value,
                  "an accumulator load says how the tile lies in memory: "
                  "load_matrix_sync(c, p, ldm, wmma::mem_row_major)");
    ::simtlab_emu::wmma_load(f.x, detail::element_traits<T>::kind, detail::tile_for<Use, m, n, k>(), p, ldm,
                             detail::is_col_major<Layout>::value, "wmma::load_matrix_sync", where);
}

/* Accumulators: the layout says how the tile lies in memory, since the
 * fragment type does not. */
template <int m, int n, int k, class Acc>
inline void load_matrix_sync(fragment<accumulator, m, n, k, Acc> &f, const Acc *p, unsigned ldm, layout_t layout,
                             ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_load(f.x, detail::element_traits<Acc>::kind, detail::tile_for<accumulator, m, n, k>(), p,
                             ldm, layout == mem_col_major, "wmma::load_matrix_sync", where);
}

template <int m, int n, int k, class Acc>
inline void store_matrix_sync(Acc *p, const fragment<accumulator, m, n, k, Acc> &f, unsigned ldm, layout_t layout,
                              ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    ::simtlab_emu::wmma_store(p, f.x, detail::element_traits<Acc>::kind, detail::tile_for<accumulator, m, n, k>(),
                              ldm, layout == mem_col_major, where);
}

namespace detail {
/* Which accumulators an input type takes (CUDA's mma_sync overloads). */
template <class T, class Acc> struct accumulates_in {
    static constexpr bool value =
        ((same<T, __half>::value) && (same<Acc, float>::value || same<Acc, __half>::value)) ||
        ((same<T, __nv_bfloat16>::value || same<T, precision::tf32>::value) && same<Acc, float>::value) ||
        (same<T, double>::value && same<Acc, double>::value) ||
        ((same<T, signed char>::value || same<T, unsigned char>::value ||
          same<T, experimental::precision::s4>::value || same<T, experimental::precision::u4>::value) &&
         same<Acc, int>::value);
};
} /* namespace detail */

/* d = a * b + c; d may be the same fragment as c.
 *   __half, __nv_bfloat16, tf32 inputs: every product is exact in float and
 *     is added in float, k in order, one rounding per addition (tf32 inputs
 *     are first rounded as __float_to_tf32 rounds); a __half d is rounded
 *     once at the end. Hardware's internal order and precision are not
 *     documented and may round differently in the last bits.
 *   double: in double, k in order.
 *   integers: exact; satf clamps the sum to int's range on overflow, without
 *     it the sum wraps modulo 2^32. */
template <int m, int n, int k, class T, class LayoutA, class LayoutB, class AccD, class AccC>
inline void mma_sync(fragment<accumulator, m, n, k, AccD> &d, const fragment<matrix_a, m, n, k, T, LayoutA> &a,
                     const fragment<matrix_b, m, n, k, T, LayoutB> &b, const fragment<accumulator, m, n, k, AccC> &c,
                     bool satf = false, ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    static_assert(!std::is_same<T, experimental::precision::b1>::value,
                  "wmma::mma_sync: experimental::precision::b1 fragments multiply with wmma::bmma_sync");
    static_assert(std::is_same<T, experimental::precision::b1>::value ||
                      (detail::accumulates_in<T, AccD>::value && detail::accumulates_in<T, AccC>::value),
                  "wmma::mma_sync: CUDA offers no mma_sync with these accumulators for this input type: __half "
                  "takes float or __half, __nv_bfloat16 and precision::tf32 float, double double, and signed/"
                  "unsigned char, s4 and u4 int");
    const ::simtlab_emu::wmma_mma_desc desc{detail::element_traits<T>::kind,
                                            detail::element_traits<AccC>::kind,
                                            detail::element_traits<AccD>::kind,
                                            static_cast<unsigned>(m),
                                            static_cast<unsigned>(n),
                                            static_cast<unsigned>(k),
                                            satf,
                                            0};
    ::simtlab_emu::wmma_mma(d.x, a.x, b.x, c.x, desc, where);
}

/* m8n8k128 b1: d[i][j] = c[i][j] + popc(row i of a OP column j of b). */
inline void bmma_sync(fragment<accumulator, 8, 8, 128, int> &d,
                      const fragment<matrix_a, 8, 8, 128, experimental::precision::b1, row_major> &a,
                      const fragment<matrix_b, 8, 8, 128, experimental::precision::b1, col_major> &b,
                      const fragment<accumulator, 8, 8, 128, int> &c,
                      experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
                      experimental::bmmaAccumulateOp = experimental::bmmaAccumulateOpPOPC,
                      ::simtlab_emu::here where = SIMTLAB_EMU_TENSOR_CALLER)
{
    const ::simtlab_emu::wmma_mma_desc desc{::simtlab_emu::wmma_b1, ::simtlab_emu::wmma_s32, ::simtlab_emu::wmma_s32,
                                            8, 8, 128, false, static_cast<int>(op)};
    ::simtlab_emu::wmma_mma(d.x, a.x, b.x, c.x, desc, where);
}

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* SIMTLAB_EMU_MMA_H */
