/* simtlab CPU emulator — <builtin_types.h>: every type the runtime API
 * uses, as in the toolkit (driver, vector, texture and surface types). */
#if !defined(__BUILTIN_TYPES_H__)
#define __BUILTIN_TYPES_H__

#include <device_types.h>
#include <driver_types.h>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_types.h>

#endif
