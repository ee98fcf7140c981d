/* simtlab CPU emulator — <surface_types.h>: the surface types, so that
 * code which declares them compiles; surfaces are not emulated. C and C++. */
#if !defined(__SURFACE_TYPES_H__)
#define __SURFACE_TYPES_H__

typedef unsigned long long cudaSurfaceObject_t;

enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

#endif
