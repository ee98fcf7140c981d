/* Hidden test of exercise 01.4 (instructor only): the answer key. A
 * pencil-and-paper exercise: the student's program only says whether each
 * answer is well formed, and all ten points are the answers', each checked
 * here against what the device counts for that launch. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex4_grid_by_hand.cu"
#undef main

#define KEY_N 1000003
#define KEY_THREADS 128

/* counts[0]: blocks, [1]: idle threads, [2]: split warps, [3]: empty warps */
__global__ void count_grid(size_t n, unsigned *counts)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int adds = i < n;
    unsigned mask = __ballot_sync(0xffffffffu, adds);
    if (threadIdx.x == 0) atomicAdd(&counts[0], 1u);
    if (!adds) atomicAdd(&counts[1], 1u);
    if (threadIdx.x % 32 == 0) {
        if (mask != 0u && mask != 0xffffffffu) atomicAdd(&counts[2], 1u);
        if (mask == 0u) atomicAdd(&counts[3], 1u);
    }
}

static void key(const char *what, long long answer, unsigned counted)
{
    CHECK_HIDDEN(answer == (long long)counted, "%s%s", what, answer == (long long)counted ? "" : ": wrong");
}

int main(void)
{
    long long answers[4] = {BLOCKS, IDLE_THREADS, SPLIT_WARPS, EMPTY_WARPS};
    int formed = 1;
    for (int k = 0; k < 4; k++) formed &= answers[k] >= 0;
    CHECK_VISIBLE(formed, "every answer well formed%s", formed ? "" : ": an answer is still negative (not answered)");
    unsigned *d_counts = NULL, counts[4] = {0, 0, 0, 0};
    GRADE_REQUIRE(cudaMalloc((void **)&d_counts, sizeof counts));
    GRADE_REQUIRE(cudaMemset(d_counts, 0, sizeof counts));
    count_grid<<<(KEY_N + KEY_THREADS - 1) / KEY_THREADS, KEY_THREADS>>>((size_t)KEY_N, d_counts);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    cudaFree(d_counts);
    key("BLOCKS", BLOCKS, counts[0]);
    key("IDLE_THREADS", IDLE_THREADS, counts[1]);
    key("SPLIT_WARPS", SPLIT_WARPS, counts[2]);
    key("EMPTY_WARPS", EMPTY_WARPS, counts[3]);
    grade_done();
    return 0;
}
