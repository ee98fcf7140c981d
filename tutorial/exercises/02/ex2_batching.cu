/* Exercise 02.2 — batching small requests.
 * 512 requests, each a segment of 200 floats to scale: out = scale * in.
 * The code below launches one kernel per request: 512 launches, each a few
 * microseconds of overhead for a few hundred nanoseconds of work. Write
 * scale_batched, where block b serves request b of a list on the device
 * (for any list: `make grade` also tries lists of its own), and launch it
 * once for all of them. Then answer: what does the batched
 * version copy that the one-by-one version does not, and when would a CUDA
 * graph of the 512 launches be the better fix? */
#include "../common/ex_check.h"

#include <math.h>
#include <stdlib.h>

#define REQUESTS 512
#define LEN 200

typedef struct request {
    int offset, count;
    float scale;
} request;

__global__ void scale_one(const float *in, float *out, request r)
{
    for (int i = threadIdx.x; i < r.count; i += blockDim.x) out[r.offset + i] = r.scale * in[r.offset + i];
}

/* Block b serves request list[b] (b < count): the launch is paid once. */
__global__ void scale_batched(const float *in, float *out, const request *list, int count)
{
#ifdef SOLUTION
    /* One block a request: the requests run side by side. */
    int b = blockIdx.x;
    if (b >= count) return;
    request r = list[b];
    for (int i = threadIdx.x; i < r.count; i += blockDim.x) out[r.offset + i] = r.scale * in[r.offset + i];
#else
    /* FIXME: block b serves request list[b], when b < count: its threads stride over r.count elements */
    (void)in, (void)out, (void)list, (void)count;
#endif
}

int main(void)
{
    const int n = REQUESTS * LEN;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    request list[REQUESTS];
    for (int i = 0; i < n; i++) in[i] = (float)(i % 1000) * 0.5f;
    for (int r = 0; r < REQUESTS; r++) list[r] = (request){r * LEN, LEN, 1.0f + (float)(r % 9)};
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0xFF, n * sizeof(float))); /* NaN: a request never served shows */

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    int launches = 0;
#ifdef SOLUTION
    request *d_list;
    CHECK(cudaMalloc(&d_list, sizeof list));
    CHECK(cudaMemcpy(d_list, list, sizeof list, cudaMemcpyHostToDevice)); /* the list is the extra copy */
    scale_batched<<<REQUESTS, 128>>>(d_in, d_out, d_list, REQUESTS);
    CHECK(cudaGetLastError());
    launches = 1;
#else
    /* FIXME: replace this loop with one launch of a batched kernel */
    for (int r = 0; r < REQUESTS; r++, launches++) {
        scale_one<<<1, 128>>>(d_in, d_out, list[r]);
        CHECK(cudaGetLastError());
    }
#endif
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (int i = 0; i < n && !wrong; i++) {
        float want = list[i / LEN].scale * in[i];
        if (out[i] != want) {
            printf("WRONG: out[%d] = %g, expected %g\n", i, out[i], want);
            wrong = 1;
        }
    }
    printf("%d requests in %d launch%s, %.3f ms (event time; under the emulator a CPU time)\n", REQUESTS, launches,
           launches == 1 ? "" : "es", ms);
    if (!wrong && launches != 1) {
        printf("correct, but %d launches: batch them into one\n", launches);
        wrong = 1;
    } else if (!wrong) {
        printf("correct: one launch for all %d requests\n", REQUESTS);
    }
#ifdef SOLUTION
    CHECK(cudaFree(d_list));
#endif
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(in);
    free(out);
    return wrong;
}
