/* simtlab CPU emulator — <device_types.h>: the rounding-mode enum, as in
 * the toolkit. C and C++. */
#if !defined(__DEVICE_TYPES_H__)
#define __DEVICE_TYPES_H__

enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };

#endif
