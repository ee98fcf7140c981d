/* NVTX as a profiling tutorial uses it (nvtx3's header, push/pop with and
 * without attributes, built with -lnvToolsExt): with no tool attached the
 * calls do nothing and the program runs as without them. */
#include <stdio.h>

#include <nvtx3/nvToolsExt.h>

__global__ void square(int *v)
{
    v[threadIdx.x] *= v[threadIdx.x];
}

int main(void)
{
    int host[5] = {1, 2, 3, 4, 5};
    int *dev = NULL;
    nvtxRangePushA("whole run");
    nvtxEventAttributes_t attr = {0};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = 0xff00ff00;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "kernel";
    int depth = nvtxRangePushEx(&attr);
    if (cudaMalloc((void **)&dev, sizeof host) != cudaSuccess)
        return 1;
    cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
    square<<<1, 5>>>(dev);
    cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(dev);
    nvtxRangePop();
    nvtxMarkA("done");
    nvtxRangePop();
    printf("nvtx: %d %d %d %d %d (push %d)\n", host[0], host[1], host[2], host[3], host[4], depth);
    return 0;
}
