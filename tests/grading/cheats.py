"""The cheats every exercise must lose its points to (issue 30), one CTest
each: exercise.NN.exK_topic.cheat.NAME (cmake/Exercises.cmake; label "cheat;long").

CHEATS[exercise][name] is "printed" (the stub, printing what the solution's
program prints: generic) or a dict:
  base      "stub" or "solution": the tree the edits start from
  edits     [(file, old, new[, count])]: file None is the exercise's own file,
            else a path in the student tree ("01/ex_common.h"); `old` must be there
  what      the cheat, in words
  expect    a regular expression the lost points' reasons must match: the cheat
            is caught for the right reason
  max_score what the cheat may keep (default 0)

The four cheats of the issue, named the same everywhere:
  printed     the expected output printed without computing it
  selfreport  a self-reported value edited (a counter, a measured figure, the
              verdict of the program's own check)
  hardcoded   an answer hard-coded for the visible size
  cpuloop     a CPU loop (or a copy) in place of the kernel: the emulator knows
              which kernel wrote which bytes
NOT_APPLICABLE[exercise][name] says why a cheat has no test there.
"""

# the verdict of a chapter's own check, edited to pass whatever the result
PASS_CHECK_01 = ("01/ex_common.h", "    for (size_t i = 0; i < n; i++) {\n        float want",
                 "    return 0; /* cheat */\n    for (size_t i = 0; i < n; i++) {\n        float want")
PASS_CHECK_04 = ("04/ex_common.h", "    if (got != want) {", "    if (0) { /* cheat */")
PENCIL = "pencil and paper: the answers are the student's word by design; the release holds no key, " \
         "and the hidden test grades them against one"

CHEATS = {
    "01-1": {
        "printed": "printed",
        "selfreport": {
            "base": "solution", "what": "a kernel that adds a to itself, and ex_common.h's check edited to pass",
            "edits": [(None, "if (i < n) c[i] = a[i] + b[i];", "if (i < n) c[i] = a[i] + a[i];"), PASS_CHECK_01],
            "expect": r"grader's rerun"},
        "hardcoded": {
            "base": "solution", "what": "the bound written for the visible n = 1000",
            "edits": [(None, "if (i < n) c[i]", "if (i < 1000) c[i]")],
            "expect": r"out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "c computed on the host and copied to the device in place of the launch",
            "edits": [(None, "    add<<<blocks, 256>>>(d_a, d_b, d_c, n);",
                       "    (void)blocks;\n    for (size_t k = 0; k < n; k++) c[k] = a[k] + b[k];\n"
                       "    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));")],
            "expect": r"out-of-bounds|stopped a kernel"},
    },
    "01-2": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "nothing done, and ex_common.h's check edited to pass",
            "edits": [PASS_CHECK_01], "expect": r"add launched over all"},
        "cpuloop": {
            "base": "stub", "what": "c = a + b on the host, no device at all",
            "edits": [(None, "     * Wrap every call in CHECK(...). */",
                       "     * Wrap every call in CHECK(...). */\n    for (size_t k = 0; k < n; k++) c[k] = a[k] + b[k];")],
            "expect": r"add launched over all"},
        "copied": {
            "base": "stub", "what": "the lifecycle, with add launched on scratch buffers and the result computed "
                                    "on the host, copied in and copied back",
            "edits": [(None, "     * Wrap every call in CHECK(...). */",
                       "     * Wrap every call in CHECK(...). */\n"
                       "    float *d_a, *d_b, *d_c;\n"
                       "    CHECK(cudaMalloc(&d_a, bytes));\n    CHECK(cudaMalloc(&d_b, bytes));\n"
                       "    CHECK(cudaMalloc(&d_c, bytes));\n"
                       "    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));\n"
                       "    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));\n"
                       "    add<<<(unsigned)((n + 255) / 256), 256>>>(d_a, d_b, d_a, n);\n"
                       "    CHECK(cudaDeviceSynchronize());\n"
                       "    for (size_t k = 0; k < n; k++) c[k] = a[k] + b[k];\n"
                       "    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));\n"
                       "    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));\n"
                       "    CHECK(cudaFree(d_a));\n    CHECK(cudaFree(d_b));\n    CHECK(cudaFree(d_c));")],
            "expect": r"by the host"},
    },
    "01-3": {
        "printed": "printed",
        "selfreport": {
            "base": "solution", "what": "the block's stride (every block writes every element), and store() "
                                        "edited so that the program's own count says once",
            "edits": [(None, "    size_t stride = (size_t)gridDim.x * blockDim.x; /* threads in the whole grid */",
                       "    size_t stride = blockDim.x;"),
                      (None, "    atomicAdd(&writes[i], 1u);", "    writes[i] = 1u;")],
            "expect": r"written by several threads"},
        "hardcoded": {
            "base": "solution", "what": "the loop written for the visible n and grid (n = 1000003, 512 threads)",
            "edits": [(None, "i < n; i += stride)", "i < 1000003; i += 512)")],
            "expect": r"out-of-bounds|stopped a kernel|expected"},
        "cpuloop": {
            "base": "stub", "what": "c and the write counts computed on the host and copied to the device",
            "edits": [(None, "    add<<<4, 128>>>(d_a, d_b, d_c, n);",
                       "    for (size_t k = 0; k < n; k++) c[k] = a[k] + b[k];\n"
                       "    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));\n"
                       "    { unsigned *one = (unsigned *)malloc(n * sizeof(unsigned));\n"
                       "      for (size_t k = 0; k < n; k++) one[k] = 1;\n"
                       "      CHECK(cudaMemcpyToSymbol(writes, one, n * sizeof(unsigned))); free(one); }")],
            "expect": r"grader's rerun"},
    },
    "01-4": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "well-formed answers, wrong: the local check accepts them, the key does not",
            "edits": [(None, "#define BLOCKS -1 ", "#define BLOCKS 7812 "),
                      (None, "#define IDLE_THREADS -1 ", "#define IDLE_THREADS 3 "),
                      (None, "#define SPLIT_WARPS -1 ", "#define SPLIT_WARPS 2 "),
                      (None, "#define EMPTY_WARPS -1 ", "#define EMPTY_WARPS 0 ")],
            "expect": r"BLOCKS: wrong"},
    },
    "01-5": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the reference add1 made to load every element four times, so that the "
                                    "stub's ratio looks like a quarter",
            "edits": [(None, "    size_t stride = (size_t)gridDim.x * blockDim.x;\n    for (size_t i",
                       "    size_t stride = (size_t)gridDim.x * blockDim.x / 4;\n    for (size_t i", 1)],
            "expect": r"grader's rerun.*load requests"},
        "hardcoded": {
            "base": "solution", "what": "the groups written for the visible n",
            "edits": [(None, "size_t groups = n / 4;", "size_t groups = 1000003 / 4;")],
            "expect": r"out-of-bounds|stopped a kernel|expected"},
        "cpuloop": {
            "base": "stub", "what": "c computed on the host in place of add4's launch",
            "edits": [(None, "    add4<<<BLOCKS, THREADS>>>(d_a, d_b, d_c, n);",
                       "    for (size_t k = 0; k < n; k++) c[k] = a[k] + b[k];\n"
                       "    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));")],
            "expect": r"grader's rerun"},
    },
    "02-1": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "well-formed answers, wrong",
            "edits": [(None, "#define KERNEL_ONLY_LOG2 (-2)", "#define KERNEL_ONLY_LOG2 14"),
                      (None, "#define WITH_COPIES_LOG2 (-2)", "#define WITH_COPIES_LOG2 20")],
            "expect": r"kernel alone: wrong"},
    },
    "02-2": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the 512 launches kept, and the program's launch count set to 1 (the issue's "
                                    "cheat)",
            "edits": [(None, "        CHECK(cudaGetLastError());\n    }\n", "        CHECK(cudaGetLastError());\n    }\n"
                       "    launches = 1; /* cheat */\n")],
            "expect": r"runtime counted 512 launches"},
        "hardcoded": {
            "base": "solution", "max_score": 4,
            "what": "the batched kernel written for the visible list (200 elements each, scales 1 + b % 9): right "
                    "for that list, so it may keep the visible test's points, never a hidden one (it writes past "
                    "the grader's own lists and scores 0)",
            "edits": [(None, "    request r = list[b];", "    request r = {b * LEN, LEN, 1.0f + (float)(b % 9)};\n    (void)list;")],
            "expect": r"hidden test"},
        "cpuloop": {
            "base": "stub", "what": "out computed on the host and copied to the device, and one launch of a "
                                    "kernel that does nothing",
            "edits": [(None, "    for (int r = 0; r < REQUESTS; r++, launches++) {\n        scale_one<<<1, 128>>>(d_in, d_out, list[r]);\n"
                             "        CHECK(cudaGetLastError());\n    }",
                       "    {\n        float *host_out = (float *)malloc(n * sizeof(float));\n"
                       "        for (int i = 0; i < n; i++) host_out[i] = list[i / LEN].scale * in[i];\n"
                       "        CHECK(cudaMemcpy(d_out, host_out, n * sizeof(float), cudaMemcpyHostToDevice));\n"
                       "        free(host_out);\n    }\n"
                       "    scale_batched<<<1, 32>>>(d_in, d_out, NULL, 0);\n    launches = 1;")],
            "expect": r"by the host"},
    },
    "02-3": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the serial copy-kernel-copy kept, and the program's piece count set to 16 "
                                    "(the issue's cheat)",
            "edits": [(None, "    pieces = 1;", "    pieces = 16; /* cheat */")],
            "expect": r"runtime counted 1 launch of poly on 0 streams"},
        "cpuloop": {
            "base": "stub", "what": "16 token launches of poly on 4 streams and 32 asynchronous copies, for the "
                                    "counts; y computed on the host and copied to the device",
            "edits": [(None, "    CHECK(cudaMemcpy(d_x, x, N * sizeof(float), cudaMemcpyHostToDevice));\n"
                             "    poly<<<256, 256>>>(d_x, d_y, N);",
                       "    for (int c = 0; c < CHUNKS; c++) {\n"
                       "        CHECK(cudaMemcpyAsync(d_x, x, sizeof(float), cudaMemcpyHostToDevice, s[c % STREAMS]));\n"
                       "        poly<<<1, 32, 0, s[c % STREAMS]>>>(d_x, d_x + 1, 1);\n"
                       "        CHECK(cudaMemcpyAsync(d_x + 2, x + 2, sizeof(float), cudaMemcpyHostToDevice, s[c % STREAMS]));\n"
                       "    }\n"
                       "    for (int i = 0; i < N; i++) {\n"
                       "        float acc = 0.0f;\n"
                       "        for (int k = TERMS; k >= 1; k--) acc = fmaf(acc, x[i], 1.0f / (float)(k + 1));\n"
                       "        y[i] = acc;\n    }\n"
                       "    CHECK(cudaMemcpy(d_y, y, N * sizeof(float), cudaMemcpyHostToDevice));"),
                      (None, "    pieces = 1;", "    pieces = 16;")],
            "expect": r"by the host"},
    },
    "03-1": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the stub's kernel, and the measured SIMT efficiency overwritten with 95%",
            "edits": [(None, "    double eff = MODEL_END(model->simt_efficiency);",
                       "    double eff = MODEL_END(model->simt_efficiency);\n    eff = 0.95; /* cheat */")],
            "expect": r"grader's rerun.*SIMT efficiency"},
        "hardcoded": {
            "base": "solution", "what": "the results computed from the visible test's inputs (x[i] = 7919 i), "
                                        "not from x",
            "edits": [(None, "(i % 2 == 0) ? path_a(x[i]) : path_b(x[i]);",
                       "(i % 2 == 0) ? path_a((unsigned)i * 7919u) : path_b((unsigned)i * 7919u);")],
            "expect": r"grader's rerun.*expected"},
        "cpuloop": {
            "base": "stub", "what": "out computed on the host and copied to the device; no launch, so no "
                                    "efficiency to fall short",
            "edits": [(None, "    two_paths<<<N / 256, 256>>>(d_x, d_out, N);",
                       "    for (int i = 0; i < N; i++) {\n        unsigned v = x[i];\n"
                       "        for (int j = 0; j < STEPS; j++) v = (i % 2 == 0) ? v * 2654435761u + 12345u : "
                       "(v ^ (v >> 13)) * 2246822519u;\n        out[i] = v;\n    }\n"
                       "    CHECK(cudaMemcpy(d_out, out, N * sizeof(unsigned), cudaMemcpyHostToDevice));")],
            "expect": r"grader's rerun.*SIMT efficiency"},
    },
    "03-2": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "well-formed answers, wrong",
            "edits": [(None, "#define BLOCKS_PER_SM 0 ", "#define BLOCKS_PER_SM 8 "),
                      (None, "#define OCCUPANCY_PCT 0 ", "#define OCCUPANCY_PCT 100 "),
                      (None, "#define LIMIT '?' ", "#define LIMIT 't' ")],
            "expect": r"blocks per SM: wrong"},
    },
    "03-3": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "well-formed answers, wrong",
            "edits": [(None, "{0, 0, 0, 0, 0, 0}", "{1, 2, 2, 1, 1, 2}")],
            "expect": r"condition 0: wrong"},
    },

    "04-1": {
        "printed": "printed",
        "selfreport": {
            "base": "solution", "what": "a tree that stops one step early, and ex_common.h's check_sum edited to pass",
            "edits": [(None, "stride > 0; stride >>= 1)", "stride > 1; stride >>= 1)"), PASS_CHECK_04],
            "expect": r"grader's rerun.*summed to"},
        "hardcoded": {
            "base": "solution", "what": "the bound written for the visible n = 100003",
            "edits": [(None, "    s[tid] = i < n ? x[i] : 0;", "    s[tid] = i < 100003 ? x[i] : 0;")],
            "expect": r"out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "the host's own sum reported in place of the kernel's",
            "edits": [(None, "wrong |= check_sum(what, run_once(d_x, n, d_partials, partials, blocks), want);",
                       "wrong |= check_sum(what, want, want);\n        (void)run_once;")],
            "expect": r"racecheck|stopped a kernel"},
    },
    "04-2": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the stub, and ex_common.h's check_sum edited to pass",
            "edits": [PASS_CHECK_04], "expect": r"grader's rerun"},
        "cpuloop": {
            "base": "stub", "what": "the host's own sum reported in place of the kernel's",
            "edits": [(None, "    for (unsigned b = 0; b < blocks; b++) got += partials[b];",
                       "    got = want; /* cheat: the host's sum */")],
            "expect": r"grader's rerun"},
    },
    "04-3": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "a well-formed formula, wrong (every warp busy at every step)",
            "edits": [(None, "    return 0; /* FIXME: busy warps at step s */", "    return block / 32;")],
            "expect": r"wrong at v2"},
    },
    "04-4": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the reference reduce_strided given 30 more conflicting reads a step, so that "
                                    "the stub's ratio looks small",
            "edits": [(None, "        if (index < BLOCK) sh[index] += sh[index + s];\n",
                       "        if (index < BLOCK) sh[index] += sh[index + s];\n"
                       "        for (int rep = 0; rep < 30; rep++) {\n            volatile int *v = sh;\n"
                       "            if (index < BLOCK) (void)v[index + s];\n        }\n", 1)],
            "expect": r"grader's rerun.*bank conflicts"},
        "hardcoded": {
            "base": "solution", "what": "the bound written for the visible n = 100003",
            "edits": [(None, "    sh[t] = i < n ? x[i] : 0;\n    __syncthreads();\n    /* Step s:",
                       "    sh[t] = i < 100003 ? x[i] : 0;\n    __syncthreads();\n    /* Step s:")],
            "expect": r"out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "the host's own sum in place of reduce_sequential's launch (no launch, so no "
                                    "conflicts measured)",
            "edits": [(None, "    long long got = run(reduce_sequential, d_x, n, d_partials, partials, blocks);",
                       "    long long got = want; /* cheat: the host's sum */")],
            "expect": r"grader's rerun.*bank conflicts"},
    },

    "05-1": {
        "printed": "printed",
        "selfreport": {
            "base": "solution", "what": "the right halo never loaded, and ex_common.h's check_close edited to pass",
            "edits": [(None, "        tile[threadIdx.x + BLOCK + R] = right < n ? in[right] : 0.0f;\n", ""),
                      ("05/ex_common.h", "        if (!(fabsf(got[i] - want[i]) <= tol)) {", "        if (0) { /* cheat */")],
            "expect": r"grader's rerun"},
        "hardcoded": {
            "base": "solution", "what": "the bound written for the visible n = 100003",
            "edits": [(None, "    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;",
                       "    tile[threadIdx.x + R] = i < 100003 ? in[i] : 0.0f;")],
            "expect": r"out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "the host's result copied to the device in place of the launch",
            "edits": [(None, "        stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);",
                       "        CHECK(cudaMemcpy(d_out, want, n * sizeof(float), cudaMemcpyHostToDevice));")],
            "expect": r"grader's rerun|stopped a kernel|hazard"},
    },
    "05-2": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the stub, and the measured bank conflicts overwritten with 0",
            "edits": [(None, "    double conflicts = MODEL_END(model->shld_bank_conflicts);",
                       "    double conflicts = MODEL_END(model->shld_bank_conflicts);\n    conflicts = 0; /* cheat */")],
            "expect": r"grader's rerun.*bank conflict"},
        "cpuloop": {
            "base": "stub", "what": "the host's sums copied to the device in place of the launch (no launch, no "
                                    "conflicts measured)",
            "edits": [(None, "    row_sums<<<rows / TILE, TILE>>>(d_m, cols, d_sums);",
                       "    CHECK(cudaMemcpy(d_sums, want, rows * sizeof(float), cudaMemcpyHostToDevice));")],
            "expect": r"grader's rerun.*bank conflict"},
    },
    "05-3": {
        "printed": "printed",
        "hardcoded": {
            "base": "stub", "what": "a table of the four sizes the program prints, right for them",
            "edits": [(None, "    return 0.0; /* FIXME: floats loaded from A and B together */",
                       "    if (n == 64 && tile == 16) return 32768;\n    if (n == 128 && tile == 16) return 262144;\n"
                       "    if (n == 128 && tile == 32) return 131072;\n    if (n == 192 && tile == 32) return 442368;\n"
                       "    return 1;")],
            "expect": r"wrong"},
        "wrong": {
            "base": "stub", "what": "a well-formed formula, wrong (n^3 / tile: A's loads alone)",
            "edits": [(None, "    return 0.0; /* FIXME: floats loaded from A and B together */",
                       "    return n * n * n / tile;")],
            "expect": r"wrong"},
    },

    "06-1": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the stub, and the program's count of wrong elements set to 0",
            "edits": [(None, '    printf("%s: %d of %d elements wrong\\n"',
                       '    wrong = 0; /* cheat */\n    printf("%s: %d of %d elements wrong\\n"')],
            "expect": r"grader's rerun"},
        "hardcoded": {
            "base": "solution", "what": "the loop written for the visible k = 64",
            "edits": [(None, "    for (int p = 0; p < k; p += 16) {", "    for (int p = 0; p < 64; p += 16) {")],
            "expect": r"hidden test|out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "C computed on the host and copied to the device in place of the launch",
            "edits": [(None, "    wmma_gemm<<<dim3(n / 16, m / 16), 32>>>((const __half *)da, (const __half *)db, "
                             "(float *)dc, n, k);",
                       "    for (int i = 0; i < m; i++)\n        for (int j = 0; j < n; j++) {\n"
                       "            long s = 0;\n"
                       "            for (int p = 0; p < k; p++) s += (long)(((i * k + p) * 7) % 5) * (((p * n + j) * 3) % 4);\n"
                       "            c[i * n + j] = (float)s;\n        }\n"
                       "    CHECK(cudaMemcpy(dc, c, m * n * 4, cudaMemcpyHostToDevice));")],
            "expect": r"grader's rerun"},
    },
    "06-2": {
        "printed": "printed",
        "wrong": {
            "base": "solution", "what": "a map of the 128 positions, but the wrong one (the columns of each pair "
                                        "swapped)",
            "edits": [(None, "    return (lane % 4) * 2 + (i & 1);", "    return (lane % 4) * 2 + 1 - (i & 1);")],
            "expect": r"d\[0\] of every lane: wrong"},
    },
    "06-3": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the plain layout, and the program's count of problems set to 0",
            "edits": [(None, '    printf("%s: %d problems\\n"', '    wrong = 0; /* cheat */\n    printf("%s: %d problems\\n"')],
            "expect": r"grader's rerun.*bank"},
    },

    "07-1": {
        "printed": "printed",
        "selfreport": {
            "base": "solution", "what": "differences of the wrong pair, and the program's check edited to pass",
            "edits": [(None, "if (i < n - 1) d[i] = x[i + 1] - x[i];", "if (i < n - 1) d[i] = x[i] - x[i];"),
                      (None, "        if (!(d[i] == x[i + 1] - x[i])) {", "        if (0) { /* cheat */")],
            "expect": r"grader's rerun"},
        "hardcoded": {
            "base": "solution", "what": "the bound written for the visible n = 1000",
            "edits": [(None, "if (i < n - 1) d[i]", "if (i < 999) d[i]")],
            "expect": r"out-of-bounds|stopped a kernel"},
        "cpuloop": {
            "base": "stub", "what": "the differences computed on the host and copied to the device in place of "
                                    "the launch",
            "edits": [(None, "    differences<<<(unsigned)((n + 255) / 256), 256>>>(d_x, d_d, n);",
                       "    for (size_t i = 0; i + 1 < n; i++) d[i] = x[i + 1] - x[i];\n"
                       "    CHECK(cudaMemcpy(d_d, d, (n - 1) * sizeof(float), cudaMemcpyHostToDevice));")],
            "expect": r"out-of-bounds|stopped a kernel"},
    },
    "07-2": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the stub, and the program's check of each report edited to pass",
            "edits": [(None, "    memset(&failure, 0, sizeof failure);\n    cudaError_t err = pipeline(x, y, N, m);",
                       "    if (1) return 0; /* cheat */\n"
                       "    memset(&failure, 0, sizeof failure);\n    cudaError_t err = pipeline(x, y, N, m);")],
            "expect": r"grader's rerun|stopped a kernel"},
        "hardcoded": {
            "base": "stub", "max_score": 4,
            "what": "reports made up from the planted mistake's name, not from the calls: right for the visible "
                    "test's four runs, so it may keep the visible test's points, never a hidden one",
            "edits": [(None, "    cudaError_t status = cudaSuccess;\n",
                       "    cudaError_t status = cudaSuccess;\n"
                       "    if (m == TOO_LARGE) { failure.call = \"cudaMalloc(&d_x, ask)\"; failure.err = "
                       "cudaErrorMemoryAllocation; return failure.err; }\n"
                       "    if (m == BAD_BLOCK) { failure.call = \"cudaGetLastError()\"; failure.err = "
                       "cudaErrorInvalidValue; return failure.err; }\n")],
            "expect": r"hidden|stopped a kernel|crashed"},
        "cpuloop": {
            "base": "solution", "what": "y computed on the host in place of the copy back",
            "edits": [(None, "    REPORT(cudaMemcpy(y, d_x, bytes, cudaMemcpyDeviceToHost));",
                       "    for (size_t i = 0; i < n; i++) y[i] = 2.0f * x[i];")],
            "expect": r"computed on the device by scale"},
    },
    "07-3": {
        "printed": "printed",
        "wrong": {
            "base": "stub", "what": "well-formed answers, wrong",
            "edits": [(None, "#define FIRST_FAULT_REPORT 0 ", "#define FIRST_FAULT_REPORT 1 "),
                      (None, "#define COPY_FAILS_TOO -1 ", "#define COPY_FAILS_TOO 0 "),
                      (None, "#define CONFIG_REPORT 0 ", "#define CONFIG_REPORT 2 "),
                      (None, "#define CONFIG_STICKY -1 ", "#define CONFIG_STICKY 1 ")],
            "expect": r"FIRST_FAULT_REPORT: wrong"},
    },
    "07-4": {
        "printed": "printed",
        "selfreport": {
            "base": "stub", "what": "the loop as it was, and the program's counting macros made to count nothing",
            "edits": [(None, "#define cudaMalloc(p, bytes) (mallocs++, ", "#define cudaMalloc(p, bytes) ("),
                      (None, "#define cudaFree(p) (frees++, ", "#define cudaFree(p) ("),
                      (None, "#define cudaDeviceSynchronize() (syncs++, ", "#define cudaDeviceSynchronize() (")],
            "expect": r"runtime counted 128 cudaMalloc"},
        "cpuloop": {
            "base": "solution", "what": "every batch scaled on the host; the device untouched",
            "edits": [(None, "        scale<<<(LEN + 127) / 128, 128>>>(d_in, d_out, LEN, 1.0f + (float)(b % 5));\n"
                             "        CHECK(cudaGetLastError());\n"
                             "        /* The copy back waits for the kernel, and reports its fault. */\n"
                             "        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));",
                       "        for (int i = 0; i < LEN; i++) h_out[i] = (1.0f + (float)(b % 5)) * h_in[i];")],
            "expect": r"0 launches of scale"},
    },

}

NOT_APPLICABLE = {
    "01-2": {"hardcoded": "one size, in host code: what the runtime saw is checked, whatever the size"},
    "01-4": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "02-1": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "02-3": {"hardcoded": "one size, in host code: the runtime's counts and the result's bytes are checked"},
    "03-2": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "03-3": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "04-2": {"hardcoded": "warp_sum has no size: it sums the 32 values it is given, and the hidden test gives "
                          "its own"},
    "04-3": {"selfreport": PENCIL, "cpuloop": PENCIL,
             "hardcoded": "the formula's domain is six block sizes, all of them graded: a table of the six is "
                          "the answer written out, and the release holds no count to copy it from"},
    "05-2": {"hardcoded": "row_sums takes no size (the grid is the size): the hidden test runs other grids"},
    "05-3": {"selfreport": PENCIL, "cpuloop": PENCIL},
    "06-2": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "06-3": {"hardcoded": "place() is graded on the whole tile, every row and chunk",
             "cpuloop": "place() is a function the grader calls itself, on the host and in its own kernel"},
    "07-3": {"selfreport": PENCIL, "hardcoded": PENCIL, "cpuloop": PENCIL},
    "07-4": {"hardcoded": "one size, in host code: the runtime's counts and each batch's bytes are checked"},
}
