/* Exercise 07.4 (performance) — a loop that starves the GPU.
 * 64 batches of 4099 floats, each scaled on the device and summed on the
 * host. reference_batches() below does it the way the page's section "GPU
 * utilisation below 40%" warns about: for every batch it allocates two
 * device buffers, copies in, launches, waits with cudaDeviceSynchronize,
 * copies back and frees both buffers. On a GPU, cudaMalloc and cudaFree
 * cost tens to hundreds of microseconds each and cudaFree synchronises the
 * device: the kernel's few microseconds are lost among them, and the GPU
 * sits idle most of the loop.
 *
 * Write run_batches() so that it computes the same sums with the two
 * buffers allocated once before the loop and freed once after it, and
 * without cudaDeviceSynchronize inside the loop (the cudaMemcpy back to
 * pageable host memory already waits for the kernel; a kernel's fault
 * still shows at that copy). Keep every call checked.
 *
 * Graded by counting, in the same run, the calls of reference_batches()
 * and of run_batches(): at most 2 cudaMalloc and 2 cudaFree in all (the
 * reference makes 128 of each) and at most 1 cudaDeviceSynchronize (the
 * reference makes 64). The counts are the same under the emulator and on a
 * GPU; on a GPU the program also prints both loops' times (CUDA events),
 * which are not graded. */
#include "../common/ex_check.h"

#include <math.h>
#include <stdlib.h>

#define BATCHES 64
#define LEN 4099 /* prime */

/* Counted calls: every cudaMalloc, cudaFree and cudaDeviceSynchronize
 * below is counted, then made as usual (a macro is not expanded again
 * inside its own definition, so the inner name is the real call). The
 * emulator's cudaMalloc is itself a macro that records the calling line;
 * the #undef gives that up in this file. */
static int mallocs, frees, syncs;
#undef cudaMalloc
#define cudaMalloc(p, bytes) (mallocs++, cudaMalloc((void **)(p), (bytes)))
#define cudaFree(p) (frees++, cudaFree(p))
#define cudaDeviceSynchronize() (syncs++, cudaDeviceSynchronize())

__global__ void scale(const float *in, float *out, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = s * in[i];
}

/* Batch b on the host: what a loader would read and decode. */
static void make_batch(float *h, int b)
{
    for (int i = 0; i < LEN; i++) h[i] = (float)((b * 31 + i) % 1000) * 0.25f;
}

/* The loop as the page warns against it. Do not change it. */
static void reference_batches(double *sums)
{
    float h_in[LEN], h_out[LEN];
    for (int b = 0; b < BATCHES; b++) {
        make_batch(h_in, b);
        float *d_in, *d_out;
        CHECK(cudaMalloc(&d_in, sizeof h_in));
        CHECK(cudaMalloc(&d_out, sizeof h_out));
        CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
        scale<<<(LEN + 127) / 128, 128>>>(d_in, d_out, LEN, 1.0f + (float)(b % 5));
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        double s = 0.0;
        for (int i = 0; i < LEN; i++) s += h_out[i];
        sums[b] = s;
    }
}

static void run_batches(double *sums)
{
    float h_in[LEN], h_out[LEN];
#ifdef SOLUTION
    /* Allocated once: the loop only copies and launches. */
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    for (int b = 0; b < BATCHES; b++) {
        make_batch(h_in, b);
        CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
        scale<<<(LEN + 127) / 128, 128>>>(d_in, d_out, LEN, 1.0f + (float)(b % 5));
        CHECK(cudaGetLastError());
        /* The copy back waits for the kernel, and reports its fault. */
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        double s = 0.0;
        for (int i = 0; i < LEN; i++) s += h_out[i];
        sums[b] = s;
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
#else
    /* FIXME: allocate and free once, outside the loop, and drop the
     * cudaDeviceSynchronize the copy back makes unneeded */
    for (int b = 0; b < BATCHES; b++) {
        make_batch(h_in, b);
        float *d_in, *d_out;
        CHECK(cudaMalloc(&d_in, sizeof h_in));
        CHECK(cudaMalloc(&d_out, sizeof h_out));
        CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
        scale<<<(LEN + 127) / 128, 128>>>(d_in, d_out, LEN, 1.0f + (float)(b % 5));
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        double s = 0.0;
        for (int i = 0; i < LEN; i++) s += h_out[i];
        sums[b] = s;
    }
#endif
}

/* Runs one loop between two events; returns its milliseconds and leaves
 * the calls it made in *m, *f, *s. */
static float timed(void (*loop)(double *), double *sums, int *m, int *f, int *s)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    mallocs = frees = syncs = 0;
    CHECK(cudaEventRecord(start, 0));
    loop(sums);
    CHECK(cudaEventRecord(stop, 0));
    *m = mallocs, *f = frees, *s = syncs;
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

int main(void)
{
    double want[BATCHES], got[BATCHES];
    for (int b = 0; b < BATCHES; b++) got[b] = NAN; /* poison: a batch never summed shows */
    int rm, rf, rs, m, f, s;
    float ref_ms = timed(reference_batches, want, &rm, &rf, &rs);
    float my_ms = timed(run_batches, got, &m, &f, &s);

    int wrong = 0;
    for (int b = 0; b < BATCHES && !wrong; b++) {
        double exact = 0.0;
        float h[LEN];
        make_batch(h, b);
        for (int i = 0; i < LEN; i++) exact += (double)((1.0f + (float)(b % 5)) * h[i]);
        if (!(fabs(got[b] - exact) <= 1e-9 * fabs(exact) + 1e-9)) {
            printf("WRONG: batch %d sums to %.17g, expected %.17g\n", b, got[b], exact);
            wrong = 1;
        }
    }
    if (!wrong) printf("correct: all %d batch sums\n", BATCHES);
    printf("calls: reference %d cudaMalloc, %d cudaFree, %d cudaDeviceSynchronize; yours %d, %d, %d\n", rm, rf, rs,
           m, f, s);
    printf("time: reference %.3f ms, yours %.3f ms (%s; not graded)\n", ref_ms, my_ms,
#ifdef SIMTLAB_EMU
           "emulator CPU times: no PCIe, no driver"
#else
           "this GPU"
#endif
    );
    if (m > 2 || f > 2 || s > 1) {
        printf("%s %d cudaMalloc, %d cudaFree and %d cudaDeviceSynchronize: the target is at most 2, 2 and 1 "
               "(allocate once, outside the loop)\n", wrong ? "also" : "correct, but", m, f, s);
        wrong = 1;
    }
    return wrong;
}
