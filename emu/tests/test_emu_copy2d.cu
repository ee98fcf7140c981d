/* Tests of pitched memory and 2D/3D copies (emu/src/runtime/copy2d.cpp):
 * cudaMallocPitch, cudaMemcpy2D, cudaMemset2D, cudaMalloc3D, cudaMemcpy3D,
 * as cuda-samples and image-processing tutorials use them. Sizes are odd on
 * purpose; every destination is poisoned first, and the rows' padding must
 * keep its poison.
 *
 *   build/bin/test_emu_copy2d --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cstdint>
#include <cstring>
#include <vector>

/* Adds one to each element of a pitched rows x cols image, in place. */
__global__ void add_one_pitched(float *image, size_t pitch, int rows, int cols)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) {
        float *row = reinterpret_cast<float *>(reinterpret_cast<char *>(image) + y * pitch);
        row[x] += 1.0f;
    }
}

static float value_at(int y, int x)
{
    return static_cast<float>(y * 1000 + x) + 0.25f;
}

Test(pitch, malloc_pitch_pads_rows_and_a_2d_round_trip_keeps_every_element)
{
    const int rows = 37, cols = 101; /* 404 bytes a row */
    float *image = nullptr;
    size_t pitch = 0;
    cr_assert_eq(cudaMallocPitch(&image, &pitch, cols * sizeof(float), rows), cudaSuccess);
    cr_assert_geq(pitch, cols * sizeof(float));
    cr_assert_eq(pitch % 512, 0u, "pitch %zu is not a multiple of 512", pitch);

    std::vector<float> host(rows * cols);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            host[y * cols + x] = value_at(y, x);
    cr_assert_eq(cudaMemset2D(image, pitch, 0xff, pitch, rows), cudaSuccess); /* poison the padding too */
    cr_assert_eq(cudaMemcpy2D(image, pitch, host.data(), cols * sizeof(float), cols * sizeof(float), rows,
                              cudaMemcpyHostToDevice),
                 cudaSuccess);
    add_one_pitched<<<dim3((cols + 15) / 16, (rows + 7) / 8), dim3(16, 8)>>>(image, pitch, rows, cols);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);

    /* Back into a host buffer with a wider pitch of its own. */
    const int host_stride = cols + 3;
    std::vector<float> back(rows * host_stride, -7.0f);
    cr_assert_eq(cudaMemcpy2D(back.data(), host_stride * sizeof(float), image, pitch, cols * sizeof(float), rows,
                              cudaMemcpyDeviceToHost),
                 cudaSuccess);
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++)
            cr_assert_eq(back[y * host_stride + x], value_at(y, x) + 1.0f, "(%d, %d)", y, x);
        for (int x = cols; x < host_stride; x++)
            cr_assert_eq(back[y * host_stride + x], -7.0f, "the host row's gap at (%d, %d) was written", y, x);
    }

    /* The device rows' padding still holds the memset's 0xff bytes. */
    std::vector<unsigned char> raw(pitch * rows);
    cr_assert_eq(cudaMemcpy(raw.data(), image, raw.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int y = 0; y < rows; y++)
        for (size_t b = cols * sizeof(float); b < pitch; b++)
            cr_assert_eq(raw[y * pitch + b], 0xff, "row %d byte %zu of the padding", y, b);
    cudaFree(image);
}

Test(pitch, a_pitch_below_the_width_or_a_span_past_the_allocation_is_refused_by_name)
{
    float *image = nullptr;
    size_t pitch = 0;
    cr_assert_eq(cudaMallocPitch(&image, &pitch, 100, 10), cudaSuccess);
    std::vector<unsigned char> host(100 * 11);

    cr_assert_eq(cudaMemcpy2D(image, pitch, host.data(), 99, 100, 10, cudaMemcpyHostToDevice),
                 cudaErrorInvalidPitchValue);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "src pitch 99") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    cudaGetLastError();

    /* 11 rows do not fit in an allocation of 10. */
    cr_assert_neq(cudaMemcpy2D(image, pitch, host.data(), 100, 100, 11, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "cudaMemcpy2D dst") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    cudaGetLastError();

    /* The kind must agree with where the pointers are. */
    cr_assert_eq(cudaMemcpy2D(image, pitch, host.data(), 100, 100, 10, cudaMemcpyDeviceToHost),
                 cudaErrorInvalidValue);
    cudaGetLastError();

    cr_assert_eq(cudaMallocPitch(&image, nullptr, 100, 10), cudaErrorInvalidValue);
    cudaGetLastError();
    /* Nothing to copy is a no-op, even with NULL pointers. */
    cr_assert_eq(cudaMemcpy2D(nullptr, 0, nullptr, 0, 0, 5, cudaMemcpyHostToDevice), cudaSuccess);
    cudaFree(image);
}

Test(pitch, a_3d_box_copied_between_positions_lands_where_it_should)
{
    const size_t w = 7, h = 5, d = 3; /* elements of int */
    cudaPitchedPtr vol{};
    cr_assert_eq(cudaMalloc3D(&vol, make_cudaExtent(w * sizeof(int), h, d)), cudaSuccess);
    cr_assert_geq(vol.pitch, w * sizeof(int));
    cr_assert_eq(cudaMemset3D(vol, 0, make_cudaExtent(w * sizeof(int), h, d)), cudaSuccess);

    std::vector<int> src(w * h * d);
    for (size_t i = 0; i < src.size(); i++)
        src[i] = static_cast<int>(i) * 3 + 1;

    /* A 2 x 3 x 2 box from src at (x=1, y=1, z=0) to the volume at (x=4, y=2, z=1). */
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(src.data(), w * sizeof(int), w, h);
    p.srcPos = make_cudaPos(1 * sizeof(int), 1, 0);
    p.dstPtr = vol;
    p.dstPos = make_cudaPos(4 * sizeof(int), 2, 1);
    p.extent = make_cudaExtent(2 * sizeof(int), 3, 2);
    p.kind = cudaMemcpyHostToDevice;
    cr_assert_eq(cudaMemcpy3D(&p), cudaSuccess, "%s", simtlab_emu_last_diagnostic());

    std::vector<int> back(w * h * d, -1);
    cudaMemcpy3DParms q{};
    q.srcPtr = vol;
    q.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(int), w, h);
    q.extent = make_cudaExtent(w * sizeof(int), h, d);
    q.kind = cudaMemcpyDeviceToHost;
    cr_assert_eq(cudaMemcpy3D(&q), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++)
            for (size_t x = 0; x < w; x++) {
                const bool inside = z >= 1 && z < 3 && y >= 2 && y < 5 && x >= 4 && x < 6;
                const int want = inside ? src[(z - 1) * w * h + (y - 1) * w + (x - 3)] : 0;
                cr_assert_eq(back[(z * h + y) * w + x], want, "(x %zu, y %zu, z %zu)", x, y, z);
            }

    /* CUDA arrays are not emulated, and say so. */
    cudaMemcpy3DParms a = q;
    a.srcArray = reinterpret_cast<cudaArray_t>(static_cast<std::uintptr_t>(0x1000));
    cr_assert_eq(cudaMemcpy3D(&a), cudaErrorNotSupported);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "cudaArray_t") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    cudaGetLastError();
    cr_assert_eq(cudaMemcpy3D(nullptr), cudaErrorInvalidValue);
    cudaGetLastError();
    cudaFree(vol.ptr);
}

Test(pitch, async_forms_on_a_stream_copy_too)
{
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    char *dev = nullptr;
    size_t pitch = 0;
    cr_assert_eq(cudaMallocPitch(&dev, &pitch, 13, 9), cudaSuccess);
    cr_assert_eq(cudaMemset2DAsync(dev, pitch, 0x5a, 13, 9, s), cudaSuccess);
    std::vector<char> back(13 * 9, 0);
    cr_assert_eq(cudaMemcpy2DAsync(back.data(), 13, dev, pitch, 13, 9, cudaMemcpyDeviceToHost, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (char c : back)
        cr_assert_eq(c, 0x5a);
    cudaFree(dev);
    cudaStreamDestroy(s);
}
