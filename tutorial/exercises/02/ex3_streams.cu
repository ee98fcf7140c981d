/* Exercise 02.3 — overlapping copies and compute with streams.
 * y = p(x) for 2^20 floats: copy x in, compute, copy y out. As given the
 * three steps run one after the other on the default stream, so the bus
 * and the SMs take turns idling. Split the job into CHUNKS pieces and queue
 * each piece's copy in, kernel and copy out on stream (piece % STREAMS),
 * with cudaMemcpyAsync, so that one piece's copies overlap another's
 * kernel. The host arrays are already pinned (cudaMallocHost): why would
 * pageable ones (malloc) not overlap? What must the host do before it
 * reads y?
 * (Under the emulator streams run in order on the host: the answer is
 * checked, the speed-up shows only on a GPU.) */
#include "../common/ex_check.h"

#include <math.h>

#define N (1 << 20)
#define CHUNKS 16
#define STREAMS 4
#define TERMS 64

__global__ void poly(const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i], acc = 0.0f;
        for (int k = TERMS; k >= 1; k--) acc = fmaf(acc, v, 1.0f / (float)(k + 1));
        y[i] = acc;
    }
}

int main(void)
{
    float *x, *y, *d_x, *d_y;
    CHECK(cudaMallocHost((void **)&x, N * sizeof(float)));
    CHECK(cudaMallocHost((void **)&y, N * sizeof(float)));
    CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    for (int i = 0; i < N; i++) {
        x[i] = (float)((i % 2001) - 1000) / 1000.0f;
        y[i] = NAN; /* a piece never copied back shows */
    }
    cudaStream_t s[STREAMS];
    for (int k = 0; k < STREAMS; k++) CHECK(cudaStreamCreate(&s[k]));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    int pieces = 0;
#ifdef SOLUTION
    const int piece = N / CHUNKS;
    for (int c = 0; c < CHUNKS; c++, pieces++) {
        cudaStream_t on = s[c % STREAMS];
        int first = c * piece;
        CHECK(cudaMemcpyAsync(d_x + first, x + first, piece * sizeof(float), cudaMemcpyHostToDevice, on));
        poly<<<64, 256, 0, on>>>(d_x + first, d_y + first, piece);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(y + first, d_y + first, piece * sizeof(float), cudaMemcpyDeviceToHost, on));
    }
    /* Every stream must finish before the host reads y. */
    for (int k = 0; k < STREAMS; k++) CHECK(cudaStreamSynchronize(s[k]));
#else
    /* FIXME: split into CHUNKS pieces on the STREAMS streams (cudaMemcpyAsync,
     * kernel<<<grid, block, 0, stream>>>, cudaMemcpyAsync), then wait for them */
    CHECK(cudaMemcpy(d_x, x, N * sizeof(float), cudaMemcpyHostToDevice));
    poly<<<256, 256>>>(d_x, d_y, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost));
    pieces = 1;
#endif
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    int wrong = 0;
    for (int i = 0; i < N && !wrong; i++) {
        float acc = 0.0f;
        for (int k = TERMS; k >= 1; k--) acc = fmaf(acc, x[i], 1.0f / (float)(k + 1));
        if (!(fabsf(y[i] - acc) <= 1e-6f * (1.0f + fabsf(acc)))) {
            printf("WRONG: y[%d] = %g, expected %g\n", i, y[i], acc);
            wrong = 1;
        }
    }
    printf("%d piece%s, %.3f ms (event time; under the emulator a CPU time)\n", pieces, pieces == 1 ? "" : "s", ms);
    if (!wrong && pieces < 2) {
        printf("correct, but serialised: split it into %d pieces on %d streams\n", CHUNKS, STREAMS);
        wrong = 1;
    } else if (!wrong) {
        printf("correct: %d pieces on %d streams\n", pieces, STREAMS);
    }
    for (int k = 0; k < STREAMS; k++) CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFreeHost(x));
    CHECK(cudaFreeHost(y));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return wrong;
}
