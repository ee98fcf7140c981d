/* simtlab CPU emulator — <surface_types.h>: the surface types, so that
 * code which declares them compiles; surfaces are not emulated. C and C++. */
#if !defined(__SURFACE_TYPES_H__)
#define __SURFACE_TYPES_H__

typedef unsigned long long cudaSurfaceObject_t;

/* CUDA 13's values */
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

#endif
