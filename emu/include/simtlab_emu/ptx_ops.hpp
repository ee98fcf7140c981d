/* simtlab CPU emulator — integer PTX instructions for inline PTX:
 * slrewrite (src/tools/rewriter/rewrite_asm.c) turns a one-instruction template such as
 *     asm("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
 * into
 *     do { (ret) = ::simtlab_emu::ptx_ops::bfind_u32((word)); } while (0);
 * Each function follows the instruction's definition in the PTX ISA
 * (its pseudocode where it gives one: bfe, bfi, prmt, lop3, shf), written
 * here, not taken from an implementation.
 */
#ifndef SIMTLAB_EMU_PTX_OPS_HPP
#define SIMTLAB_EMU_PTX_OPS_HPP

#include <cstdint>

namespace simtlab_emu {
namespace ptx_ops {

typedef std::uint32_t u32;
typedef std::int32_t s32;
typedef std::uint64_t u64;
typedef std::int64_t s64;

/* The bit position of the most significant 1 (for signed values: of the
 * most significant bit that differs from the sign), 0xffffffff if none. */
inline u32 bfind_u64(u64 a) { return a ? 63u - static_cast<u32>(__builtin_clzll(a)) : 0xffffffffu; }
inline u32 bfind_u32(u32 a) { return bfind_u64(a); }
inline u32 bfind_s64(s64 a) { return bfind_u64(static_cast<u64>(a < 0 ? ~a : a)); }
inline u32 bfind_s32(s32 a) { return bfind_s64(a); }

inline u32 brev_b32(u32 a)
{
    u32 r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((a >> i) & 1u) << (31 - i);
    return r;
}
inline u64 brev_b64(u64 a) { return (static_cast<u64>(brev_b32(static_cast<u32>(a))) << 32) | brev_b32(static_cast<u32>(a >> 32)); }
inline u32 popc_b32(u32 a) { return static_cast<u32>(__builtin_popcount(a)); }
inline u32 popc_b64(u64 a) { return static_cast<u32>(__builtin_popcountll(a)); }
inline u32 clz_b32(u32 a) { return a ? static_cast<u32>(__builtin_clz(a)) : 32u; }
inline u32 clz_b64(u64 a) { return a ? static_cast<u32>(__builtin_clzll(a)) : 64u; }

/* Bit field extract: len bits of a from pos (each taken mod 256), zero- or
 * sign-extended; positions past the top read the sign bit (.s) or zero. */
template <class T, bool Signed>
inline T bit_field_extract(T a, u32 b, u32 c)
{
    const unsigned msb = sizeof(T) * 8 - 1;
    const unsigned pos = b & 0xff, len = c & 0xff;
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    const T sbit = (!Signed || len == 0) ? 0 : ((a >> top) & 1);
    T d = 0;
    for (unsigned i = 0; i <= msb; i++) {
        T bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1) : sbit;
        d |= bit << i;
    }
    return d;
}
inline u32 bfe_u32(u32 a, u32 b, u32 c) { return bit_field_extract<u32, false>(a, b, c); }
inline s32 bfe_s32(s32 a, u32 b, u32 c) { return static_cast<s32>(bit_field_extract<u32, true>(static_cast<u32>(a), b, c)); }
inline u64 bfe_u64(u64 a, u32 b, u32 c) { return bit_field_extract<u64, false>(a, b, c); }
inline s64 bfe_s64(s64 a, u32 b, u32 c) { return static_cast<s64>(bit_field_extract<u64, true>(static_cast<u64>(a), b, c)); }

/* Bit field insert: b with len bits of a put in from pos. */
template <class T>
inline T bit_field_insert(T a, T b, u32 c, u32 d)
{
    const unsigned msb = sizeof(T) * 8 - 1;
    const unsigned pos = c & 0xff, len = d & 0xff;
    T f = b;
    for (unsigned i = 0; i < len && pos + i <= msb; i++) {
        const T one = 1;
        f = (f & ~(one << (pos + i))) | (((a >> i) & one) << (pos + i));
    }
    return f;
}
inline u32 bfi_b32(u32 a, u32 b, u32 c, u32 d) { return bit_field_insert<u32>(a, b, c, d); }
inline u64 bfi_b64(u64 a, u64 b, u32 c, u32 d) { return bit_field_insert<u64>(a, b, c, d); }

/* Byte permute, default mode: byte n of the result is byte (c >> 4n) & 7
 * of {b, a} (a's bytes are 0-3), or that byte's sign replicated when bit 3
 * of the selector is set. */
inline u32 prmt_b32(u32 a, u32 b, u32 c)
{
    const u64 bytes = (static_cast<u64>(b) << 32) | a;
    u32 d = 0;
    for (int n = 0; n < 4; n++) {
        const unsigned sel = (c >> (4 * n)) & 0xf;
        u32 byte = static_cast<u32>(bytes >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * n);
    }
    return d;
}

inline u32 mul_hi_u32(u32 a, u32 b) { return static_cast<u32>((static_cast<u64>(a) * b) >> 32); }
inline s32 mul_hi_s32(s32 a, s32 b) { return static_cast<s32>((static_cast<s64>(a) * b) >> 32); }
inline u64 mul_hi_u64(u64 a, u64 b) { return static_cast<u64>((static_cast<unsigned __int128>(a) * b) >> 64); }
inline s64 mul_hi_s64(s64 a, s64 b) { return static_cast<s64>((static_cast<__int128>(a) * b) >> 64); }
inline u32 mul_lo_u32(u32 a, u32 b) { return a * b; }
inline s32 mul_lo_s32(s32 a, s32 b) { return static_cast<s32>(static_cast<u32>(a) * static_cast<u32>(b)); }
inline u64 mul_lo_u64(u64 a, u64 b) { return a * b; }
inline s64 mul_lo_s64(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b)); }
inline u64 mul_wide_u32(u32 a, u32 b) { return static_cast<u64>(a) * b; }
inline s64 mul_wide_s32(s32 a, s32 b) { return static_cast<s64>(a) * b; }
inline u32 mad_lo_u32(u32 a, u32 b, u32 c) { return a * b + c; }
inline s32 mad_lo_s32(s32 a, s32 b, s32 c) { return static_cast<s32>(static_cast<u32>(a) * static_cast<u32>(b) + static_cast<u32>(c)); }
inline u64 mad_lo_u64(u64 a, u64 b, u64 c) { return a * b + c; }
inline s64 mad_lo_s64(s64 a, s64 b, s64 c) { return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b) + static_cast<u64>(c)); }
inline u32 mad_hi_u32(u32 a, u32 b, u32 c) { return mul_hi_u32(a, b) + c; }
inline s32 mad_hi_s32(s32 a, s32 b, s32 c) { return static_cast<s32>(static_cast<u32>(mul_hi_s32(a, b)) + static_cast<u32>(c)); }

inline u32 min_u32(u32 a, u32 b) { return a < b ? a : b; }
inline s32 min_s32(s32 a, s32 b) { return a < b ? a : b; }
inline u32 max_u32(u32 a, u32 b) { return a > b ? a : b; }
inline s32 max_s32(s32 a, s32 b) { return a > b ? a : b; }

/* Any function of three inputs by its truth table: bit (4a + 2b + c) of
 * lut is the result for input bits a, b, c (so lut 0xF0 is a, 0xCC is b,
 * 0xAA is c). */
inline u32 lop3_b32(u32 a, u32 b, u32 c, u32 lut)
{
    u32 d = 0;
    for (unsigned i = 0; i < 8; i++)
        if ((lut >> i) & 1)
            d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return d;
}

/* Funnel shifts of the 64-bit {b, a} (a is the low word). */
inline u32 shf_l_wrap_b32(u32 a, u32 b, u32 c) { return static_cast<u32>((((static_cast<u64>(b) << 32) | a) << (c & 31)) >> 32); }
inline u32 shf_r_wrap_b32(u32 a, u32 b, u32 c) { return static_cast<u32>((((static_cast<u64>(b) << 32) | a) >> (c & 31))); }
inline u32 shf_l_clamp_b32(u32 a, u32 b, u32 c)
{
    const u32 n = c < 32 ? c : 32;
    return static_cast<u32>((((static_cast<u64>(b) << 32) | a) << n) >> 32);
}
inline u32 shf_r_clamp_b32(u32 a, u32 b, u32 c)
{
    const u32 n = c < 32 ? c : 32;
    return static_cast<u32>(((static_cast<u64>(b) << 32) | a) >> n);
}

inline u32 add_u32(u32 a, u32 b) { return a + b; }
inline s32 add_s32(s32 a, s32 b) { return static_cast<s32>(static_cast<u32>(a) + static_cast<u32>(b)); }
inline u32 sub_u32(u32 a, u32 b) { return a - b; }
inline s32 sub_s32(s32 a, s32 b) { return static_cast<s32>(static_cast<u32>(a) - static_cast<u32>(b)); }
inline u32 and_b32(u32 a, u32 b) { return a & b; }
inline u32 or_b32(u32 a, u32 b) { return a | b; }
inline u32 xor_b32(u32 a, u32 b) { return a ^ b; }
inline u32 not_b32(u32 a) { return ~a; }
/* Shift amounts past the register width are clamped to it. */
inline u32 shl_b32(u32 a, u32 b) { return b >= 32 ? 0u : a << b; }
inline u32 shr_u32(u32 a, u32 b) { return b >= 32 ? 0u : a >> b; }
inline s32 shr_s32(s32 a, u32 b) { return a >> (b >= 31 ? 31 : b); }
inline s32 abs_s32(s32 a) { return a < 0 ? static_cast<s32>(0u - static_cast<u32>(a)) : a; }
inline s32 neg_s32(s32 a) { return static_cast<s32>(0u - static_cast<u32>(a)); }

} // namespace ptx_ops
} // namespace simtlab_emu

#endif
