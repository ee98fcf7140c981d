/* simtlab CPU emulator — <vector_functions.h>: make_char1 ... make_double4,
 * one constructor function per type of <vector_types.h>, for host code and
 * kernels alike (in the emulator both are CPU code). C and C++.
 */
#if !defined(__VECTOR_FUNCTIONS_H__)
#define __VECTOR_FUNCTIONS_H__

#include <vector_types.h>

#define SIMTLAB_MAKE1(name, T) \
    static inline name make_##name(T x) { name v; v.x = x; return v; }
#define SIMTLAB_MAKE2(name, T) \
    static inline name make_##name(T x, T y) { name v; v.x = x; v.y = y; return v; }
#define SIMTLAB_MAKE3(name, T) \
    static inline name make_##name(T x, T y, T z) { name v; v.x = x; v.y = y; v.z = z; return v; }
#define SIMTLAB_MAKE4(name, T) \
    static inline name make_##name(T x, T y, T z, T w) { name v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }
/* All four widths of one element type: make_char1 .. make_char4. */
#define SIMTLAB_MAKE_ALL(prefix, T) \
    SIMTLAB_MAKE1(prefix##1, T) SIMTLAB_MAKE2(prefix##2, T) SIMTLAB_MAKE3(prefix##3, T) SIMTLAB_MAKE4(prefix##4, T)

SIMTLAB_MAKE_ALL(char, signed char)
SIMTLAB_MAKE_ALL(uchar, unsigned char)
SIMTLAB_MAKE_ALL(short, short)
SIMTLAB_MAKE_ALL(ushort, unsigned short)
SIMTLAB_MAKE_ALL(int, int)
SIMTLAB_MAKE_ALL(uint, unsigned int)
SIMTLAB_MAKE_ALL(long, long)
SIMTLAB_MAKE_ALL(ulong, unsigned long)
SIMTLAB_MAKE_ALL(longlong, long long)
SIMTLAB_MAKE_ALL(ulonglong, unsigned long long)
SIMTLAB_MAKE_ALL(float, float)
SIMTLAB_MAKE_ALL(double, double)
SIMTLAB_MAKE4(long4_16a, long)
SIMTLAB_MAKE4(long4_32a, long)
SIMTLAB_MAKE4(ulong4_16a, unsigned long)
SIMTLAB_MAKE4(ulong4_32a, unsigned long)
SIMTLAB_MAKE4(longlong4_16a, long long)
SIMTLAB_MAKE4(longlong4_32a, long long)
SIMTLAB_MAKE4(ulonglong4_16a, unsigned long long)
SIMTLAB_MAKE4(ulonglong4_32a, unsigned long long)
SIMTLAB_MAKE4(double4_16a, double)
SIMTLAB_MAKE4(double4_32a, double)

#undef SIMTLAB_MAKE_ALL
#undef SIMTLAB_MAKE1
#undef SIMTLAB_MAKE2
#undef SIMTLAB_MAKE3
#undef SIMTLAB_MAKE4

#endif /* __VECTOR_FUNCTIONS_H__ */
