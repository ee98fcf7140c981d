/* Hidden test of exercise 02.2 (instructor only). The visible test's
 * launch count is the program's own variable: here the grader runs the
 * student's main under the emulator's census, which counts the launches
 * itself and knows which kernel wrote the bytes copied back. Then it calls
 * scale_batched directly on request lists of its own (uneven counts,
 * gaps, more elements than threads, fewer requests than blocks). On a GPU
 * build there is no census: the launch count is not checked there. */
#include "../grading/grade.h"
#define main student_main
#include "ex2_batching.cu"
#undef main

static void visible(void)
{
    const int n = 512 * 200;
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) want[i] = (1.0f + (float)((i / 200) % 9)) * ((float)(i % 1000) * 0.5f);
    int counted = census_begin();
    int rc = student_main();
    census_end();
    CHECK_VISIBLE(rc == 0, "the program's own check%s", rc == 0 ? "" : ": it exits non-zero");
    if (!counted) {
        CHECK_VISIBLE(1, "the launches not counted on a GPU build (no census)");
    } else {
#ifdef SIMTLAB_EMU
        unsigned long long one_by_one = census_launches_of("scale_one", NULL);
        CHECK_VISIBLE(census.launches == 1 && one_by_one == 0,
                      "one launch for all 512 requests: the runtime counted %llu launch%s (%llu of scale_one)",
                      census.launches, census.launches == 1 ? "" : "es", one_by_one);
        char why[512];
        int ok = received_from_kernel(want, n * sizeof(float), NULL, "scale_one", why, sizeof why);
        CHECK_VISIBLE(ok, "every request served on the device, in that launch%s%s", ok ? "" : ": ", ok ? "" : why);
#endif
    }
    free(want);
}

/* A list of the grader's own: n_req requests over a buffer with gaps. */
static void own_list(int n_req, int threads, int blocks, unsigned seed)
{
    request list[64];
    int at = 3;
    for (int r = 0; r < n_req; r++) {
        seed = seed * 1103515245u + 12345u;
        int count = (int)(seed >> 16) % 300; /* 0 .. 299: some more than the threads */
        list[r] = (request){at, count, 0.5f + (float)(r % 7)};
        at += count + 5; /* a gap of 5 nobody may write */
    }
    const int n = at + 3;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) in[i] = (float)(i % 37) - 11.0f, want[i] = -9.0f;
    for (int r = 0; r < n_req; r++)
        for (int i = 0; i < list[r].count; i++) want[list[r].offset + i] = list[r].scale * in[list[r].offset + i];
    float *d_in, *d_out;
    request *d_list;
    GRADE_REQUIRE(cudaMalloc(&d_in, n * sizeof(float)));
    GRADE_REQUIRE(cudaMalloc(&d_out, n * sizeof(float)));
    GRADE_REQUIRE(cudaMalloc(&d_list, n_req * sizeof(request)));
    for (int i = 0; i < n; i++) out[i] = -9.0f;
    GRADE_REQUIRE(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_out, out, n * sizeof(float), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_list, list, n_req * sizeof(request), cudaMemcpyHostToDevice));
    scale_batched<<<blocks, threads>>>(d_in, d_out, d_list, n_req);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (out[i] != want[i]) bad = i;
    CHECK_HIDDEN(bad < 0, "a list of %d requests of 0 to 299 elements, %d blocks of %d threads%s", n_req, blocks,
                 threads, bad < 0 ? "" : ": an element is wrong, or one outside every request was written");
    cudaFree(d_in), cudaFree(d_out), cudaFree(d_list);
    free(in), free(out), free(want);
}

int main(void)
{
    visible();
    own_list(37, 128, 37, 7u);
    own_list(50, 64, 50, 11u);
    own_list(9, 32, 16, 5u); /* more blocks than requests: the extra ones do nothing */
    grade_done();
    return 0;
}
