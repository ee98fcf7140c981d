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

SIMTLAB_VEC1(char1, signed char)
SIMTLAB_VEC1(uchar1, unsigned char)
SIMTLAB_VEC2(char2, signed char, 2)
SIMTLAB_VEC2(uchar2, unsigned char, 2)
SIMTLAB_VEC3(char3, signed char)
SIMTLAB_VEC3(uchar3, unsigned char)
SIMTLAB_VEC4(char4, signed char, 4)
SIMTLAB_VEC4(uchar4, unsigned char, 4)

SIMTLAB_VEC1(short1, short)
SIMTLAB_VEC1(ushort1, unsigned short)
SIMTLAB_VEC2(short2, short, 4)
SIMTLAB_VEC2(ushort2, unsigned short, 4)
SIMTLAB_VEC3(short3, short)
SIMTLAB_VEC3(ushort3, unsigned short)
SIMTLAB_VEC4(short4, short, 8)
SIMTLAB_VEC4(ushort4, unsigned short, 8)

SIMTLAB_VEC1(int1, int)
SIMTLAB_VEC1(uint1, unsigned int)
SIMTLAB_VEC2(int2, int, 8)
SIMTLAB_VEC2(uint2, unsigned int, 8)
SIMTLAB_VEC3(int3, int)
SIMTLAB_VEC3(uint3, unsigned int)
SIMTLAB_VEC4(int4, int, 16)
SIMTLAB_VEC4(uint4, unsigned int, 16)

SIMTLAB_VEC1(long1, long)
SIMTLAB_VEC1(ulong1, unsigned long)
SIMTLAB_VEC2(long2, long, 2 * sizeof(long))
SIMTLAB_VEC2(ulong2, unsigned long, 2 * sizeof(unsigned long))
SIMTLAB_VEC3(long3, long)
SIMTLAB_VEC3(ulong3, unsigned long)
SIMTLAB_VEC4(long4, long, 16)
SIMTLAB_VEC4(ulong4, unsigned long, 16)
SIMTLAB_VEC4(long4_16a, long, 16)
SIMTLAB_VEC4(ulong4_16a, unsigned long, 16)
SIMTLAB_VEC4(long4_32a, long, 32)
SIMTLAB_VEC4(ulong4_32a, unsigned long, 32)

SIMTLAB_VEC1(longlong1, long long)
SIMTLAB_VEC1(ulonglong1, unsigned long long)
SIMTLAB_VEC2(longlong2, long long, 16)
SIMTLAB_VEC2(ulonglong2, unsigned long long, 16)
SIMTLAB_VEC3(longlong3, long long)
SIMTLAB_VEC3(ulonglong3, unsigned long long)
SIMTLAB_VEC4(longlong4, long long, 16)
SIMTLAB_VEC4(ulonglong4, unsigned long long, 16)
SIMTLAB_VEC4(longlong4_16a, long long, 16)
SIMTLAB_VEC4(ulonglong4_16a, unsigned long long, 16)
SIMTLAB_VEC4(longlong4_32a, long long, 32)
SIMTLAB_VEC4(ulonglong4_32a, unsigned long long, 32)

SIMTLAB_VEC1(float1, float)
SIMTLAB_VEC2(float2, float, 8)
SIMTLAB_VEC3(float3, float)
SIMTLAB_VEC4(float4, float, 16)

SIMTLAB_VEC1(double1, double)
SIMTLAB_VEC2(double2, double, 16)
SIMTLAB_VEC3(double3, double)
SIMTLAB_VEC4(double4, double, 16)
SIMTLAB_VEC4(double4_16a, double, 16)
SIMTLAB_VEC4(double4_32a, double, 32)

#undef SIMTLAB_VEC1
#undef SIMTLAB_VEC2
#undef SIMTLAB_VEC3
#undef SIMTLAB_VEC4

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
