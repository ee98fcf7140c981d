/* A kernel with default arguments in a header (test_emu_corpus_blockers2.cu):
 * a launch in the including file relies on them. */
#pragma once

__global__ void header_fill(int *out, int n, int value = 6 * 7, int stride = 1)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i * stride] = value;
}
