/* simtlab CPU emulator — pitched memory and 2D/3D copies: cudaMallocPitch,
 * cudaMalloc3D, cudaMemcpy2D, cudaMemcpy3D (linear memory only; CUDA arrays
 * are not emulated), cudaMemset2D/3D and their Async forms.
 *
 * Each side of a copy is checked as one span, from its first byte to the
 * last byte of its last row: a device side must lie in one live allocation,
 * and the kind must agree with where each side lives, as cudaMemcpy checks
 * (runtime/copy.cpp). Then the rows are copied one by one. Async forms
 * validate the stream and run at once (streams run eagerly), or become a
 * graph node under stream capture.
 */
#include "runtime/internal.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace simtlab_emu {
namespace {

/* What cudaMallocPitch pads rows to: current GPUs report 512 bytes as
 * texturePitchAlignment, which is what their cudaMallocPitch uses. */
constexpr std::size_t pitch_alignment = 512;

/* One side of a pitched copy: rows of `width` bytes, `pitch` apart,
 * `height` rows per slice and `depth` slices, `slice_pitch` bytes apart. */
struct side {
    const char *name; /* "dst" or "src" */
    char *base;       /* the first byte copied */
    std::size_t pitch, slice_pitch;
    bool device;
};

/* Bytes from the first byte copied to one past the last. */
std::size_t span_bytes(const side &s, std::size_t width, std::size_t height, std::size_t depth)
{
    return (depth - 1) * s.slice_pitch + (height - 1) * s.pitch + width;
}

/* Where a side lives, checked against the kind; true when it may be copied. */
cudaError_t place(const char *api, side &s, std::size_t bytes, cudaMemcpyKind kind, bool is_dst)
{
    runtime::located l = runtime::locate(s.base);
    char what[128];
    std::snprintf(what, sizeof what, "%s: %s", api, s.name);
    if (l.where == runtime::region::device_guard)
        return runtime::reject_guard(l, s.base, what);
    bool device = l.where == runtime::region::device;
    bool want_device;
    switch (kind) {
    case cudaMemcpyDefault: want_device = device; break;
    case cudaMemcpyHostToHost: want_device = false; break;
    case cudaMemcpyHostToDevice: want_device = is_dst; break;
    case cudaMemcpyDeviceToHost: want_device = !is_dst; break;
    case cudaMemcpyDeviceToDevice: want_device = true; break;
    default:
        runtime::diagnose("%s: kind %d is not a cudaMemcpyKind", api, static_cast<int>(kind));
        return cudaErrorInvalidMemcpyDirection;
    }
    if (l.managed)
        device = want_device; /* managed memory is both */
    if (device != want_device) {
        runtime::diagnose("%s: the kind says %s is %s memory but 0x%" PRIxPTR " is %s memory", api, s.name,
                          want_device ? "device" : "host", reinterpret_cast<std::uintptr_t>(s.base),
                          device ? "device" : "host");
        return cudaErrorInvalidValue;
    }
    s.device = l.where == runtime::region::device;
    if (s.device) {
        std::snprintf(what, sizeof what, "%s %s (its last row ends %zu bytes after its first byte)", api, s.name,
                      bytes);
        return runtime::check_device_range(s.base, bytes, what);
    }
    return cudaSuccess;
}

/* The host side's rows, probed before they are touched (a bad host pointer
 * is cudaErrorInvalidValue, not SIGSEGV). */
cudaError_t check_host_side(const char *api, const side &s, std::size_t width, std::size_t height,
                            std::size_t depth, bool is_dst)
{
    if (s.device)
        return cudaSuccess;
    char what[128];
    std::snprintf(what, sizeof what, "%s %s", api, s.name);
    return runtime::check_host_box(s.base, width, height, depth, s.pitch, s.slice_pitch, is_dst, what);
}

/* The checks and the copy of a 3D box of linear memory (2D: depth 1). */
cudaError_t copy_box(const char *api, side dst, side src, std::size_t width, std::size_t height,
                     std::size_t depth, cudaMemcpyKind kind)
{
    if (static_cast<unsigned>(kind) > cudaMemcpyDefault) {
        runtime::diagnose("%s: kind %d is not a cudaMemcpyKind", api, static_cast<int>(kind));
        return cudaErrorInvalidMemcpyDirection;
    }
    if (width == 0 || height == 0 || depth == 0)
        return cudaSuccess;
    if (!dst.base || !src.base) {
        runtime::diagnose("%s: %s is NULL", api, !dst.base ? "dst" : "src");
        return cudaErrorInvalidValue;
    }
    for (const side *s : {&dst, &src})
        if (s->pitch < width) {
            runtime::diagnose("%s: %s pitch %zu is smaller than the width %zu bytes copied per row", api, s->name,
                              s->pitch, width);
            return cudaErrorInvalidPitchValue;
        }
    cudaError_t e = place(api, dst, span_bytes(dst, width, height, depth), kind, true);
    if (e == cudaSuccess)
        e = place(api, src, span_bytes(src, width, height, depth), kind, false);
    if (e == cudaSuccess)
        e = check_host_side(api, dst, width, height, depth, true);
    if (e == cudaSuccess)
        e = check_host_side(api, src, width, height, depth, false);
    if (e != cudaSuccess)
        return e;
    runtime::device_access open(dst.device ? dst.base : nullptr, src.device ? src.base : nullptr);
    for (std::size_t z = 0; z < depth; z++)
        for (std::size_t y = 0; y < height; y++)
            std::memmove(dst.base + z * dst.slice_pitch + y * dst.pitch,
                         src.base + z * src.slice_pitch + y * src.pitch, width);
    return cudaSuccess;
}

cudaError_t set_box(const char *api, char *base, std::size_t pitch, std::size_t slice_pitch, int value,
                    std::size_t width, std::size_t height, std::size_t depth)
{
    if (width == 0 || height == 0 || depth == 0)
        return cudaSuccess;
    if (pitch < width) {
        runtime::diagnose("%s: pitch %zu is smaller than the width %zu bytes set per row", api, pitch, width);
        return cudaErrorInvalidPitchValue;
    }
    char what[160];
    std::snprintf(what, sizeof what, "%s devPtr", api);
    const std::size_t bytes = (depth - 1) * slice_pitch + (height - 1) * pitch + width;
    cudaError_t e = runtime::check_device_range(base, bytes, what);
    if (e != cudaSuccess)
        return e;
    runtime::device_access open(base);
    for (std::size_t z = 0; z < depth; z++)
        for (std::size_t y = 0; y < height; y++)
            std::memset(base + z * slice_pitch + y * pitch, value, width);
    return cudaSuccess;
}

/* Runs `work` now, or records it in the graph a stream captures into. */
template <class F>
cudaError_t on_stream(const char *api, cudaStream_t stream, F work)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = record_error(runtime::check_stream(stream, api));
    if (e != cudaSuccess)
        return e;
    if (runtime::stream_capturing(stream))
        return record_error(runtime::capture(
            stream, [=](cudaStream_t) { return record_error(work()); },
            std::strstr(api, "Memset") ? cudaGraphNodeTypeMemset : cudaGraphNodeTypeMemcpy));
    return record_error(work());
}

side side_2d(const char *name, const void *ptr, std::size_t pitch)
{
    return side{name, static_cast<char *>(const_cast<void *>(ptr)), pitch, 0, false};
}

cudaError_t copy_3d(const char *api, const cudaMemcpy3DParms *p)
{
    if (!p) {
        runtime::diagnose("%s: the cudaMemcpy3DParms pointer is NULL", api);
        return cudaErrorInvalidValue;
    }
    if (p->srcArray || p->dstArray) {
        runtime::diagnose("%s: CUDA arrays (cudaArray_t) are not emulated: copy between pitched linear memory "
                          "(srcPtr/dstPtr) instead",
                          api);
        return cudaErrorNotSupported;
    }
    side dst{"dstPtr", static_cast<char *>(p->dstPtr.ptr), p->dstPtr.pitch, p->dstPtr.pitch * p->dstPtr.ysize,
             false};
    side src{"srcPtr", static_cast<char *>(p->srcPtr.ptr), p->srcPtr.pitch, p->srcPtr.pitch * p->srcPtr.ysize,
             false};
    const cudaExtent &e = p->extent;
    if (e.depth > 1)
        for (const auto *pp : {&p->dstPtr, &p->srcPtr})
            if (pp->ysize < e.height) {
                runtime::diagnose("%s: %s.ysize %zu is smaller than the extent's height %zu: the slices would "
                                  "overlap",
                                  api, pp == &p->dstPtr ? "dstPtr" : "srcPtr", pp->ysize, e.height);
                return cudaErrorInvalidValue;
            }
    if (dst.base)
        dst.base += p->dstPos.z * dst.slice_pitch + p->dstPos.y * dst.pitch + p->dstPos.x;
    if (src.base)
        src.base += p->srcPos.z * src.slice_pitch + p->srcPos.y * src.pitch + p->srcPos.x;
    return copy_box(api, dst, src, e.width, e.height, e.depth, p->kind);
}

} /* namespace */

} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch) {
        runtime::diagnose("cudaMallocPitch(%zu x %zu): pitch is NULL", width, height);
        return record_error(cudaErrorInvalidValue);
    }
    *pitch = 0;
    const std::size_t row = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
    if (width == 0 || height == 0) {
        if (devPtr)
            *devPtr = nullptr;
        return cudaSuccess;
    }
    if (row < width || height > SIZE_MAX / row) {
        runtime::diagnose("cudaMallocPitch(%zu x %zu): the size overflows", width, height);
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = runtime::allocate_device("cudaMallocPitch", devPtr, row * height, nullptr, 0, false);
    if (e == cudaSuccess)
        *pitch = row;
    return e;
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr) {
        runtime::diagnose("cudaMalloc3D: pitchedDevPtr is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    *pitchedDevPtr = make_cudaPitchedPtr(nullptr, 0, extent.width, extent.height);
    const std::size_t rows = extent.height * extent.depth;
    if (extent.height && rows / extent.height != extent.depth) {
        runtime::diagnose("cudaMalloc3D(%zu x %zu x %zu): the size overflows", extent.width, extent.height,
                          extent.depth);
        return record_error(cudaErrorInvalidValue);
    }
    size_t pitch = 0;
    cudaError_t e = cudaMallocPitch(&pitchedDevPtr->ptr, &pitch, extent.width, rows);
    pitchedDevPtr->pitch = pitch;
    return e;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    return record_error(copy_box("cudaMemcpy2D", side_2d("dst", dst, dpitch), side_2d("src", src, spitch), width,
                                 height, 1, kind));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return on_stream("cudaMemcpy2DAsync", stream, [=] {
        return copy_box("cudaMemcpy2DAsync", side_2d("dst", dst, dpitch), side_2d("src", src, spitch), width,
                        height, 1, kind);
    });
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    return record_error(set_box("cudaMemset2D", static_cast<char *>(devPtr), pitch, 0, value, width, height, 1));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream)
{
    return on_stream("cudaMemset2DAsync", stream, [=] {
        return set_box("cudaMemset2DAsync", static_cast<char *>(devPtr), pitch, 0, value, width, height, 1);
    });
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    return record_error(copy_3d("cudaMemcpy3D", p));
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    if (!p) {
        runtime::diagnose("cudaMemcpy3DAsync: the cudaMemcpy3DParms pointer is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    const cudaMemcpy3DParms copy = *p; /* a captured copy runs later: keep the parameters */
    return on_stream("cudaMemcpy3DAsync", stream, [=] { return copy_3d("cudaMemcpy3DAsync", &copy); });
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent extent)
{
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    return record_error(set_box("cudaMemset3D", static_cast<char *>(p.ptr), p.pitch, p.pitch * p.ysize, value,
                                extent.width, extent.height, extent.depth));
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent extent, cudaStream_t stream)
{
    return on_stream("cudaMemset3DAsync", stream, [=] {
        return set_box("cudaMemset3DAsync", static_cast<char *>(p.ptr), p.pitch, p.pitch * p.ysize, value,
                       extent.width, extent.height, extent.depth);
    });
}

} /* extern "C" */
