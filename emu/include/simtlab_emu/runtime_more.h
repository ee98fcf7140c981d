/* simtlab CPU emulator — pitched memory and 2D/3D copies
 * (emu/src/runtime/copy2d.cpp). Included by <cuda_runtime_api.h>, for C
 * and C++.
 *
 * Names, signatures and numbers follow the CUDA 13 runtime. CUDA arrays
 * (cudaArray_t) are not emulated: a 3D copy that names one returns
 * cudaErrorNotSupported with a message.
 */
#ifndef SIMTLAB_EMU_RUNTIME_MORE_H
#define SIMTLAB_EMU_RUNTIME_MORE_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- pitched memory and 2D/3D copies ----------------------------------- */
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;

struct cudaPitchedPtr {
    void *ptr;    /* the allocation */
    size_t pitch; /* bytes from one row to the next */
    size_t xsize; /* logical width (bytes for linear memory) */
    size_t ysize; /* logical height (rows) */
};
struct cudaExtent {
    size_t width; /* bytes for linear memory */
    size_t height;
    size_t depth;
};
struct cudaPos {
    size_t x; /* bytes for linear memory */
    size_t y;
    size_t z;
};
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos s;
    s.x = x;
    s.y = y;
    s.z = z;
    return s;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent s;
    s.width = w;
    s.height = h;
    s.depth = d;
    return s;
}

/* Rows are padded to a multiple of 512 bytes (what current GPUs report as
 * texturePitchAlignment and cudaMallocPitch returns). */
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream);

#ifdef __cplusplus
} /* extern "C" */

/* The C++ overload of <cuda_runtime.h>: any T ** for the pointer. */
template <class T>
static inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height)
{
    return ::cudaMallocPitch(reinterpret_cast<void **>(devPtr), pitch, width, height);
}
#endif

#endif /* SIMTLAB_EMU_RUNTIME_MORE_H */
