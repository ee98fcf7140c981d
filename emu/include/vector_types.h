/* simtlab CPU emulator — <vector_types.h>: CUDA's built-in vector types.
 *
 * Every type of the toolkit's header, with its size and alignment (char2 2,
 * char4 4, short4/int2/float2 8, int4/float4/double2 16, the 4-wide 64-bit
 * types 16 or, as *_32a, 32), so that a struct of them has the same layout
 * on both backends. The guard is the toolkit's, because code tests it.
 * dim3 has its constructors in C++, as in CUDA. The make_* functions are in
 * <vector_functions.h>. C and C++.
 */
#if !defined(__VECTOR_TYPES_H__)
#define __VECTOR_TYPES_H__

/* SIMTLAB_VEC<n>(name, element type, alignment): a struct and its typedef. */
#define SIMTLAB_VEC1(name, T) typedef struct name { T x; } name;
#define SIMTLAB_VEC2(name, T, A) typedef struct __attribute__((aligned(A))) name { T x, y; } name;
#define SIMTLAB_VEC3(name, T) typedef struct name { T x, y, z; } name;
#define SIMTLAB_VEC4(name, T, A) typedef struct __attribute__((aligned(A))) name { T x, y, z, w; } name;

/* The eight types of one integer width: name1..name4 and uname1..uname4. */
#define SIMTLAB_VEC_INT(name, uname, T, align2, align4)                                   \
    SIMTLAB_VEC1(name##1, T) SIMTLAB_VEC1(uname##1, unsigned T)                              \
    SIMTLAB_VEC2(name##2, T, align2) SIMTLAB_VEC2(uname##2, unsigned T, align2)              \
    SIMTLAB_VEC3(name##3, T) SIMTLAB_VEC3(uname##3, unsigned T)                              \
    SIMTLAB_VEC4(name##4, T, align4) SIMTLAB_VEC4(uname##4, unsigned T, align4)
/* The 4-wide 64-bit types' explicit 16- and 32-byte-aligned variants. */
#define SIMTLAB_VEC4_AB(name, T) SIMTLAB_VEC4(name##_16a, T, 16) SIMTLAB_VEC4(name##_32a, T, 32)

/* char1 is signed char, as in CUDA; unsigned T spells uchar1's unsigned char. */
typedef struct char1 { signed char x; } char1;
typedef struct __attribute__((aligned(2))) char2 { signed char x, y; } char2;
typedef struct char3 { signed char x, y, z; } char3;
typedef struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; } char4;
SIMTLAB_VEC1(uchar1, unsigned char)
SIMTLAB_VEC2(uchar2, unsigned char, 2)
SIMTLAB_VEC3(uchar3, unsigned char)
SIMTLAB_VEC4(uchar4, unsigned char, 4)
SIMTLAB_VEC_INT(short, ushort, short, 4, 8)
SIMTLAB_VEC_INT(int, uint, int, 8, 16)
SIMTLAB_VEC_INT(long, ulong, long, 2 * sizeof(long), 16)
SIMTLAB_VEC_INT(longlong, ulonglong, long long, 16, 16)
SIMTLAB_VEC4_AB(long4, long)
SIMTLAB_VEC4_AB(ulong4, unsigned long)
SIMTLAB_VEC4_AB(longlong4, long long)
SIMTLAB_VEC4_AB(ulonglong4, unsigned long long)

SIMTLAB_VEC1(float1, float)
SIMTLAB_VEC2(float2, float, 8)
SIMTLAB_VEC3(float3, float)
SIMTLAB_VEC4(float4, float, 16)
SIMTLAB_VEC1(double1, double)
SIMTLAB_VEC2(double2, double, 16)
SIMTLAB_VEC3(double3, double)
SIMTLAB_VEC4(double4, double, 16)
SIMTLAB_VEC4_AB(double4, double)

#undef SIMTLAB_VEC1
#undef SIMTLAB_VEC2
#undef SIMTLAB_VEC3
#undef SIMTLAB_VEC4
#undef SIMTLAB_VEC_INT
#undef SIMTLAB_VEC4_AB

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
