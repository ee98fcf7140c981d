/* simtlab CPU emulator — runtime calls that CUDA removed, declared so that
 * a program calling one stops at compile time with a message that names
 * what was removed, in which CUDA version, and what replaces it, as nvcc 13
 * stops it (there with "identifier is undefined"). Included by
 * <cuda_runtime_api.h>; C and C++. The removed cudaDeviceProp fields and
 * cudaDeviceAttr values are in <driver_types.h>; the texture and surface
 * reference templates (texture<T, dim, mode>, surface<void, dim>) are
 * rewritten by slrewrite (tools/rewriter/rewrite_removed.c) into
 * simtlab_emu::removed_texture_reference, whose message is below.
 *
 * Which: the runtime functions of CUDA 12.x's cuda_runtime_api.h that
 * CUDA 13.0's no longer declares, and those CUDA 12.0 removed with texture
 * and surface references. Calls CUDA 13 still declares, deprecated or not
 * (cudaMemcpyToArray, cudaDeviceSetSharedMemConfig, ...), are not here.
 * None of these has a definition: the attribute stops every use.
 */
#ifndef SIMTLAB_EMU_REMOVED_H
#define SIMTLAB_EMU_REMOVED_H

#include <driver_types.h>
#include <simtlab_emu/removed_attr.h>

/* The removed calls' parameters (CUDA 12's) in C; in C++ any arguments, so
 * that a call with a texture<> object, which C++ overloads took, meets the
 * message rather than a mismatch. */
#ifdef __cplusplus
#define SIMTLAB_EMU_ANY_ARGS(...) ...
extern "C" {
#else
#define SIMTLAB_EMU_ANY_ARGS(...) __VA_ARGS__
#endif
struct cudaLaunchParams;
struct cudaChannelFormatDesc;
struct textureReference;
struct surfaceReference;

/* ---- removed in CUDA 13.0: the cudaThread* family, deprecated since 4.0,
 * the double-precision hints, multi-device cooperative launches --------- */
cudaError_t cudaThreadSynchronize(void)
    SIMTLAB_EMU_REMOVED("cudaThreadSynchronize was removed in CUDA 13.0: use cudaDeviceSynchronize()");
cudaError_t cudaThreadExit(void)
    SIMTLAB_EMU_REMOVED("cudaThreadExit was removed in CUDA 13.0: use cudaDeviceReset()");
cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
    SIMTLAB_EMU_REMOVED("cudaThreadSetLimit was removed in CUDA 13.0: use cudaDeviceSetLimit(limit, value)");
cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
    SIMTLAB_EMU_REMOVED("cudaThreadGetLimit was removed in CUDA 13.0: use cudaDeviceGetLimit(pValue, limit)");
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
    SIMTLAB_EMU_REMOVED("cudaThreadSetCacheConfig was removed in CUDA 13.0: use cudaDeviceSetCacheConfig(cacheConfig)");
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
    SIMTLAB_EMU_REMOVED("cudaThreadGetCacheConfig was removed in CUDA 13.0: use "
                        "cudaDeviceGetCacheConfig(pCacheConfig)");
cudaError_t cudaSetDoubleForDevice(double *d)
    SIMTLAB_EMU_REMOVED("cudaSetDoubleForDevice was removed in CUDA 13.0: every supported GPU computes in double "
                        "natively, so delete the call");
cudaError_t cudaSetDoubleForHost(double *d)
    SIMTLAB_EMU_REMOVED("cudaSetDoubleForHost was removed in CUDA 13.0: every supported GPU computes in double "
                        "natively, so delete the call");
cudaError_t cudaLaunchCooperativeKernelMultiDevice(
    SIMTLAB_EMU_ANY_ARGS(struct cudaLaunchParams *launchParamsList, unsigned int numDevices, unsigned int flags))
    SIMTLAB_EMU_REMOVED("cudaLaunchCooperativeKernelMultiDevice was removed in CUDA 13.0: launch with "
                        "cudaLaunchCooperativeKernel on each device");

/* ---- removed in CUDA 12.0: texture and surface references -------------- */
#define SIMTLAB_EMU_TEXREF_GONE(what)                                                                          \
    SIMTLAB_EMU_REMOVED(what " was removed in CUDA 12.0 with texture references: use a texture object "     \
                             "(cudaCreateTextureObject, read with tex1Dfetch<T>(object, i), tex2D<T>(...)); the " \
                             "emulator does not emulate textures")
#define SIMTLAB_EMU_SURFREF_GONE(what)                                                                         \
    SIMTLAB_EMU_REMOVED(what " was removed in CUDA 12.0 with surface references: use a surface object "     \
                             "(cudaCreateSurfaceObject, surf2Dwrite(v, object, x, y)); the emulator does not " \
                             "emulate surfaces")
cudaError_t cudaBindTexture(SIMTLAB_EMU_ANY_ARGS(size_t *offset, const struct textureReference *texref,
                                                 const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                                 size_t size)) SIMTLAB_EMU_TEXREF_GONE("cudaBindTexture");
cudaError_t cudaBindTexture2D(SIMTLAB_EMU_ANY_ARGS(size_t *offset, const struct textureReference *texref,
                                                   const void *devPtr, const struct cudaChannelFormatDesc *desc,
                                                   size_t width, size_t height, size_t pitch))
    SIMTLAB_EMU_TEXREF_GONE("cudaBindTexture2D");
cudaError_t cudaBindTextureToArray(SIMTLAB_EMU_ANY_ARGS(const struct textureReference *texref, const void *array,
                                                        const struct cudaChannelFormatDesc *desc))
    SIMTLAB_EMU_TEXREF_GONE("cudaBindTextureToArray");
cudaError_t cudaBindTextureToMipmappedArray(SIMTLAB_EMU_ANY_ARGS(const struct textureReference *texref,
                                                                 const void *mipmappedArray,
                                                                 const struct cudaChannelFormatDesc *desc))
    SIMTLAB_EMU_TEXREF_GONE("cudaBindTextureToMipmappedArray");
cudaError_t cudaUnbindTexture(SIMTLAB_EMU_ANY_ARGS(const struct textureReference *texref))
    SIMTLAB_EMU_TEXREF_GONE("cudaUnbindTexture");
cudaError_t cudaGetTextureAlignmentOffset(SIMTLAB_EMU_ANY_ARGS(size_t *offset, const struct textureReference *texref))
    SIMTLAB_EMU_TEXREF_GONE("cudaGetTextureAlignmentOffset");
cudaError_t cudaGetTextureReference(SIMTLAB_EMU_ANY_ARGS(const struct textureReference **texref, const void *symbol))
    SIMTLAB_EMU_TEXREF_GONE("cudaGetTextureReference");
cudaError_t cudaBindSurfaceToArray(SIMTLAB_EMU_ANY_ARGS(const struct surfaceReference *surfref, const void *array,
                                                        const struct cudaChannelFormatDesc *desc))
    SIMTLAB_EMU_SURFREF_GONE("cudaBindSurfaceToArray");
cudaError_t cudaGetSurfaceReference(SIMTLAB_EMU_ANY_ARGS(const struct surfaceReference **surfref, const void *symbol))
    SIMTLAB_EMU_SURFREF_GONE("cudaGetSurfaceReference");

#ifdef __cplusplus
} /* extern "C" */

namespace simtlab_emu {
template <class...>
constexpr bool removed_never = false;

/* What slrewrite puts in place of `texture` in `texture<float, 1,
 * cudaReadModeElementType> tex;` and of `surface` in `surface<void, 2>
 * s;` (tools/rewriter/rewrite_removed.c): declaring such a variable instantiates the
 * class, which stops with the message. */
template <class T, int dim = 1, int mode = 0>
struct removed_texture_reference {
    static_assert(removed_never<T>,
                  "texture<T, dim, readMode> (a texture reference) was removed in CUDA 12.0: use a texture object "
                  "(cudaTextureObject_t from cudaCreateTextureObject, read with tex1Dfetch<T>(object, i) or "
                  "tex2D<T>(object, x, y)); the emulator does not emulate textures");
};
template <class T, int dim = 1>
struct removed_surface_reference {
    static_assert(removed_never<T>,
                  "surface<void, dim> (a surface reference) was removed in CUDA 12.0: use a surface object "
                  "(cudaSurfaceObject_t from cudaCreateSurfaceObject, surf2Dread/surf2Dwrite on it); the emulator "
                  "does not emulate surfaces");
};
} /* namespace simtlab_emu */
#endif

#undef SIMTLAB_EMU_ANY_ARGS
#undef SIMTLAB_EMU_TEXREF_GONE
#undef SIMTLAB_EMU_SURFREF_GONE

#endif
