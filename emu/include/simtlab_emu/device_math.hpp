/* simtlab CPU emulator — the math and bit intrinsics kernels use.
 *
 * The fast-math intrinsics (__expf, __sinf, ...) are computed exactly here,
 * with the C library's functions: on a GPU they are approximations with
 * documented error bounds (CUDA Programming Guide, "Intrinsic Functions"),
 * so a kernel whose test passes on the GPU also passes here, while a test
 * tuned to the GPU's exact approximation error would not be portable anyway.
 * The _rn versions of arithmetic and conversions use the default rounding
 * mode (to nearest even); the _rz/_ru/_rd versions set the host's rounding
 * mode for the one operation (directed_rounding below), so their results
 * are the correctly rounded ones CUDA specifies, in every corner
 * (overflow to the largest finite value or to infinity, subnormals).
 *
 * glibc's <math.h> already declares __expf, __logf, __sinf, ... (its
 * internal aliases, not exported by libm), so those are defined as
 * extern "C" inline functions to match that declaration.
 */
#ifndef SIMTLAB_EMU_DEVICE_MATH_HPP
#define SIMTLAB_EMU_DEVICE_MATH_HPP

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <math.h>

/* ---- fast single-precision functions (exact here, see above) ---------------- */
extern "C" {
inline float __expf(float x) noexcept { return expf(x); }
inline float __exp10f(float x) noexcept { return exp10f(x); }
inline float __logf(float x) noexcept { return logf(x); }
inline float __log2f(float x) noexcept { return log2f(x); }
inline float __log10f(float x) noexcept { return log10f(x); }
inline float __sinf(float x) noexcept { return sinf(x); }
inline float __cosf(float x) noexcept { return cosf(x); }
inline float __tanf(float x) noexcept { return tanf(x); }
inline void __sincosf(float x, float *s, float *c) noexcept { sincosf(x, s, c); }
inline float __powf(float x, float y) noexcept { return powf(x, y); }

/* CUDA math functions the C library lacks today. C23 adds sinpi and cospi
 * to <math.h>, so they are extern "C" as well: a newer glibc's declaration
 * then names the same function instead of clashing with it. Computed in
 * double, then rounded: more accurate than the float result CUDA promises
 * (sinpif: 1 ulp). */
/* The argument is reduced exactly (remainder by 2) first, so that the
 * zeros at integers (sinpi) and half-integers (cospi) come out exact, as
 * they do on the GPU, instead of as pi's rounding error. */
inline float sinpif(float x) noexcept
{
    double r = std::remainder(static_cast<double>(x), 2.0); /* in [-1, 1]; NaN for inf */
    if (r == std::trunc(r))
        return std::copysign(0.0f, x);
    return static_cast<float>(std::sin(M_PI * r));
}
inline float cospif(float x) noexcept
{
    double r = std::remainder(std::fabs(static_cast<double>(x)), 2.0);
    if (std::fabs(r) == 0.5)
        return 0.0f;
    return static_cast<float>(std::cos(M_PI * r));
}
inline void sincospif(float x, float *s, float *c) noexcept
{
    *s = sinpif(x);
    *c = cospif(x);
}
/* The standard normal distribution function, Phi(x) = erfc(-x / sqrt 2) / 2. */
inline double normcdf(double x) noexcept { return 0.5 * std::erfc(-x * M_SQRT1_2); }
inline float normcdff(float x) noexcept { return static_cast<float>(normcdf(static_cast<double>(x))); }
}

inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dsub_rn(double x, double y) { return x - y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }

/* ---- directed rounding: _rz, _ru, _rd ------------------------------------------ */
namespace simtlab_emu {
/* op(a, b, c) computed with the host's rounding mode set to `mode`. The
 * operands are read from, and the result written to, volatile objects
 * between the two fesetround calls: without -frounding-math the compiler
 * may otherwise fold the operation or move it across the calls. The mode
 * is per host thread, and a CUDA thread runs on one host thread between
 * two switches, which never happen inside this function. */
/* The host's rounding mode set to Mode for the scope's life. On x86-64,
 * where float and double arithmetic is SSE, only MXCSR's rounding field
 * (bits 13-14, the x87-style FE_* value shifted left by 3) is switched:
 * fesetround also rewrites the x87 control word. An emulated __dadd_rd in
 * a loop took about 160 ns per call with fesetround and about 70 with
 * MXCSR alone (the plain __dadd_rn: about 15; the loaded 2-core VM). */
template <int Mode>
struct rounding_scope {
#if defined(__x86_64__) && defined(__SSE_MATH__)
    unsigned saved;
    rounding_scope() : saved(__builtin_ia32_stmxcsr())
    {
        __builtin_ia32_ldmxcsr((saved & ~0x6000u) | (static_cast<unsigned>(Mode) << 3));
    }
    ~rounding_scope() { __builtin_ia32_ldmxcsr(saved); }
#else
    int saved;
    rounding_scope() : saved(std::fegetround()) { std::fesetround(Mode); }
    ~rounding_scope() { std::fesetround(saved); }
#endif
    rounding_scope(const rounding_scope &) = delete;
    rounding_scope &operator=(const rounding_scope &) = delete;
};

template <int Mode, class T, class Op>
inline T directed_rounding(T a, T b, T c, Op op)
{
    volatile T va = a, vb = b, vc = c;
    volatile T r;
    {
        rounding_scope<Mode> mode;
        r = op(va, vb, vc);
    }
    return r;
}
/* A conversion From -> To in rounding mode `Mode`. */
template <int Mode, class To, class From>
inline To directed_conversion(From x)
{
    volatile From vx = x;
    volatile To r;
    {
        rounding_scope<Mode> mode;
        r = static_cast<To>(vx);
    }
    return r;
}
} /* namespace simtlab_emu */

#define SIMTLAB_EMU_DIRECTED(type, name, expr)                                                             \
    inline type name##_rz(type x, type y) { return ::simtlab_emu::directed_rounding<FE_TOWARDZERO>(x, y, type(0), [](type a, type b, type) { return expr; }); } \
    inline type name##_ru(type x, type y) { return ::simtlab_emu::directed_rounding<FE_UPWARD>(x, y, type(0), [](type a, type b, type) { return expr; }); }     \
    inline type name##_rd(type x, type y) { return ::simtlab_emu::directed_rounding<FE_DOWNWARD>(x, y, type(0), [](type a, type b, type) { return expr; }); }
SIMTLAB_EMU_DIRECTED(float, __fadd, a + b)
SIMTLAB_EMU_DIRECTED(float, __fsub, a - b)
SIMTLAB_EMU_DIRECTED(float, __fmul, a * b)
SIMTLAB_EMU_DIRECTED(float, __fdiv, a / b)
SIMTLAB_EMU_DIRECTED(double, __dadd, a + b)
SIMTLAB_EMU_DIRECTED(double, __dsub, a - b)
SIMTLAB_EMU_DIRECTED(double, __dmul, a * b)
SIMTLAB_EMU_DIRECTED(double, __ddiv, a / b)
#undef SIMTLAB_EMU_DIRECTED

#define SIMTLAB_EMU_DIRECTED1(type, name, expr)                                                              \
    inline type name##_rz(type x) { return ::simtlab_emu::directed_rounding<FE_TOWARDZERO>(x, type(0), type(0), [](type a, type, type) { return expr; }); } \
    inline type name##_ru(type x) { return ::simtlab_emu::directed_rounding<FE_UPWARD>(x, type(0), type(0), [](type a, type, type) { return expr; }); }     \
    inline type name##_rd(type x) { return ::simtlab_emu::directed_rounding<FE_DOWNWARD>(x, type(0), type(0), [](type a, type, type) { return expr; }); }
SIMTLAB_EMU_DIRECTED1(float, __frcp, 1.0f / a)
SIMTLAB_EMU_DIRECTED1(float, __fsqrt, sqrtf(a))
SIMTLAB_EMU_DIRECTED1(double, __drcp, 1.0 / a)
SIMTLAB_EMU_DIRECTED1(double, __dsqrt, std::sqrt(a))
#undef SIMTLAB_EMU_DIRECTED1

#define SIMTLAB_EMU_DIRECTED3(type, name, expr)                                                                   \
    inline type name##_rz(type x, type y, type z) { return ::simtlab_emu::directed_rounding<FE_TOWARDZERO>(x, y, z, [](type a, type b, type c) { return expr; }); } \
    inline type name##_ru(type x, type y, type z) { return ::simtlab_emu::directed_rounding<FE_UPWARD>(x, y, z, [](type a, type b, type c) { return expr; }); }     \
    inline type name##_rd(type x, type y, type z) { return ::simtlab_emu::directed_rounding<FE_DOWNWARD>(x, y, z, [](type a, type b, type c) { return expr; }); }
SIMTLAB_EMU_DIRECTED3(float, __fmaf, fmaf(a, b, c))
SIMTLAB_EMU_DIRECTED3(double, __fma, std::fma(a, b, c))
#undef SIMTLAB_EMU_DIRECTED3

/* Clamps to [+0.0, 1.0]; NaN gives +0.0 (Programming Guide). */
inline float __saturatef(float x)
{
    if (!(x > 0.0f)) /* also NaN */
        return 0.0f;
    return x < 1.0f ? x : 1.0f;
}

/* ---- reinterpretation ------------------------------------------------------------ */
namespace simtlab_emu {
template <class To, class From>
inline To bit_cast(const From &from)
{
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}
} /* namespace simtlab_emu */

inline int __float_as_int(float x) { return ::simtlab_emu::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return ::simtlab_emu::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return ::simtlab_emu::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return ::simtlab_emu::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return ::simtlab_emu::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return ::simtlab_emu::bit_cast<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x) & 0xffffffff); }
inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double(static_cast<long long>(
        (static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo)));
}

/* ---- bit counting ---------------------------------------------------------------- */
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
/* Leading zeros, 32 (64) for zero; GCC's builtin is undefined at zero. */
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
/* Position of the lowest set bit counting from 1, 0 for zero. */
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }

inline unsigned __brev(unsigned x)
{
    /* Swap ever larger groups: bits, pairs, nibbles, then the bytes. */
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x)
{
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
           __brev(static_cast<unsigned>(x >> 32));
}

/* Byte n of the result is byte s<4n+2:4n> of the eight bytes y:x (x holds
 * bytes 0-3). The fourth bit of each selector nibble is ignored. */
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned r = 0;
    for (unsigned n = 0; n < 4; ++n) {
        unsigned sel = (s >> (4 * n)) & 7u;
        r |= static_cast<unsigned>((bytes >> (8 * sel)) & 0xffu) << (8 * n);
    }
    return r;
}

/* hi:lo shifted left by shift (mod 32, or clamped to 32 for _lc); the high
 * word. Shifted right: the low word. */
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift)
{
    unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>((v << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift)
{
    unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift)
{
    unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>(v >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift)
{
    unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>(v >> (shift < 32u ? shift : 32u));
}

/* ---- multiplication ---------------------------------------------------------------- */
/* The low 32 bits of the product of the low 24 bits of each operand (taken
 * as signed 24-bit numbers for __mul24). */
inline int __mul24(int x, int y)
{
    long long a = static_cast<int>(static_cast<unsigned>(x) << 8) >> 8;
    long long b = static_cast<int>(static_cast<unsigned>(y) << 8) >> 8;
    return static_cast<int>(static_cast<unsigned>(static_cast<unsigned long long>(a * b)));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
/* The high 32 (64) bits of the full product. */
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y)
{
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y)
{
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z)
{
    return z + static_cast<unsigned>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }

/* ---- loads and stores with cache hints: plain accesses on a CPU -------------------- */
template <class T>
inline T __ldg(const T *p) { return *p; }
template <class T>
inline T __ldcg(const T *p) { return *p; }
template <class T>
inline T __ldca(const T *p) { return *p; }
template <class T>
inline T __ldcs(const T *p) { return *p; }
template <class T>
inline T __ldlu(const T *p) { return *p; }
template <class T>
inline T __ldcv(const T *p) { return *p; }
template <class T>
inline void __stwb(T *p, T v) { *p = v; }
template <class T>
inline void __stcg(T *p, T v) { *p = v; }
template <class T>
inline void __stcs(T *p, T v) { *p = v; }
template <class T>
inline void __stwt(T *p, T v) { *p = v; }

/* ---- min and max, with the overloads CUDA declares ----------------------------------
 * Mixed signed/unsigned pairs convert to the unsigned type, float with
 * double to double, as CUDA's math_functions.hpp does. */
#define SIMTLAB_EMU_MINMAX(ret, a_type, b_type)                                                      \
    inline ret min(a_type a, b_type b) { return static_cast<ret>(a) < static_cast<ret>(b) ? static_cast<ret>(a) : static_cast<ret>(b); } \
    inline ret max(a_type a, b_type b) { return static_cast<ret>(a) < static_cast<ret>(b) ? static_cast<ret>(b) : static_cast<ret>(a); }
SIMTLAB_EMU_MINMAX(int, int, int)
SIMTLAB_EMU_MINMAX(unsigned, unsigned, unsigned)
SIMTLAB_EMU_MINMAX(unsigned, int, unsigned)
SIMTLAB_EMU_MINMAX(unsigned, unsigned, int)
SIMTLAB_EMU_MINMAX(long, long, long)
SIMTLAB_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
SIMTLAB_EMU_MINMAX(unsigned long, long, unsigned long)
SIMTLAB_EMU_MINMAX(unsigned long, unsigned long, long)
SIMTLAB_EMU_MINMAX(long long, long long, long long)
SIMTLAB_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
SIMTLAB_EMU_MINMAX(unsigned long long, long long, unsigned long long)
SIMTLAB_EMU_MINMAX(unsigned long long, unsigned long long, long long)
SIMTLAB_EMU_MINMAX(double, double, double)
SIMTLAB_EMU_MINMAX(double, float, double)
SIMTLAB_EMU_MINMAX(double, double, float)
#undef SIMTLAB_EMU_MINMAX
/* float with float is fminf/fmaxf: a NaN operand yields the other one. */
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

/* ---- conversions ---------------------------------------------------------------------
 * Float-to-integer conversions on a GPU saturate (PTX cvt): out-of-range
 * values give the type's limit and NaN gives 0, where a C++ cast would be
 * undefined. `rounded` is already an integral value. */
namespace simtlab_emu {
template <class I>
inline I saturate_integral(double rounded)
{
    using limits = std::numeric_limits<I>;
    if (std::isnan(rounded))
        return 0;
    /* max is 2^digits - 1 and min is 0 or -2^digits: both bounds are exact
     * in double. */
    if (rounded >= std::ldexp(1.0, limits::digits))
        return limits::max();
    if (rounded < static_cast<double>(limits::min()))
        return limits::min();
    return static_cast<I>(rounded);
}
} /* namespace simtlab_emu */

/* _rn: to nearest, ties to even; _rz: toward zero; _rd: down; _ru: up. */
#define SIMTLAB_EMU_FLOAT_TO_INT(from, name, type)                                                   \
    inline type __##from##2##name##_rn(from x) { return ::simtlab_emu::saturate_integral<type>(std::nearbyint(static_cast<double>(x))); } \
    inline type __##from##2##name##_rz(from x) { return ::simtlab_emu::saturate_integral<type>(std::trunc(static_cast<double>(x))); }     \
    inline type __##from##2##name##_rd(from x) { return ::simtlab_emu::saturate_integral<type>(std::floor(static_cast<double>(x))); }     \
    inline type __##from##2##name##_ru(from x) { return ::simtlab_emu::saturate_integral<type>(std::ceil(static_cast<double>(x))); }
SIMTLAB_EMU_FLOAT_TO_INT(float, int, int)
SIMTLAB_EMU_FLOAT_TO_INT(float, uint, unsigned)
SIMTLAB_EMU_FLOAT_TO_INT(float, ll, long long)
SIMTLAB_EMU_FLOAT_TO_INT(float, ull, unsigned long long)
SIMTLAB_EMU_FLOAT_TO_INT(double, int, int)
SIMTLAB_EMU_FLOAT_TO_INT(double, uint, unsigned)
SIMTLAB_EMU_FLOAT_TO_INT(double, ll, long long)
SIMTLAB_EMU_FLOAT_TO_INT(double, ull, unsigned long long)
#undef SIMTLAB_EMU_FLOAT_TO_INT

/* Integer to float in the default rounding mode, which is to nearest. */
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned x) { return static_cast<double>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline double __ull2double_rn(unsigned long long x) { return static_cast<double>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }

/* The same conversions toward zero, up and down. */
#define SIMTLAB_EMU_DIRECTED_CONVERSION(name, to, from)                                                                   \
    inline to name##_rz(from x) { return ::simtlab_emu::directed_conversion<FE_TOWARDZERO, to>(x); }                       \
    inline to name##_ru(from x) { return ::simtlab_emu::directed_conversion<FE_UPWARD, to>(x); }                           \
    inline to name##_rd(from x) { return ::simtlab_emu::directed_conversion<FE_DOWNWARD, to>(x); }
SIMTLAB_EMU_DIRECTED_CONVERSION(__int2float, float, int)
SIMTLAB_EMU_DIRECTED_CONVERSION(__uint2float, float, unsigned)
SIMTLAB_EMU_DIRECTED_CONVERSION(__ll2float, float, long long)
SIMTLAB_EMU_DIRECTED_CONVERSION(__ull2float, float, unsigned long long)
SIMTLAB_EMU_DIRECTED_CONVERSION(__ll2double, double, long long)
SIMTLAB_EMU_DIRECTED_CONVERSION(__ull2double, double, unsigned long long)
SIMTLAB_EMU_DIRECTED_CONVERSION(__double2float, float, double)
#undef SIMTLAB_EMU_DIRECTED_CONVERSION

#endif
