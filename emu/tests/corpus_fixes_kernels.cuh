/* A kernel template in a header, for test_emu_corpus_fixes.cu: the .cu that
 * includes it launches it with deduced template arguments. */
#pragma once

template <class T>
__global__ void fill_from_header(T *out, T value, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value + static_cast<T>(i);
}
