/* Headers in a subfolder that include each other (a cycle the include
 * guards end): the rewritten file lives elsewhere, so the include left in
 * place at the cycle must still find its file. */
#include "sub/a.cuh"
#include <cstdio>

int main()
{
    int h = 0, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    add_b<<<1, 5>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("cycle: %d\n", h + A_VALUE);
    return 0;
}
