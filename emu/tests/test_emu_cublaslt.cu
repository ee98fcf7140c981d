/* Tests of the emulator's cuBLASLt (emu/src/libs/cublaslt/cublaslt.cpp, on OpenBLAS).
 *
 * Each case builds its descriptors the way llm.c's matmul_cublaslt does,
 * runs cublasLtMatmul on odd sizes with padded leading dimensions and
 * poisoned outputs (0xFF bytes: NaN in every type), and compares every
 * output element with a double-precision reference computed here from the
 * same stored inputs; the GELU derivative of the reference is a central
 * difference, not the emulator's formula. NaN never passes, and elements
 * outside the outputs must keep their poison.
 *
 * The file includes only <cublasLt.h> and <cuda_runtime.h>: half and
 * __nv_bfloat16 must come with cublasLt.h, as they do with the toolkit's.
 *
 *   build/bin/test_emu_cublaslt --verbose
 */
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

typedef std::vector<unsigned char> bytes;

static uint32_t rng_state = 2024u;
static float next_uniform() /* in [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 8388608.0f - 1.0f;
}

static size_t size_of(cudaDataType t)
{
    return t == CUDA_R_32F ? 4 : 2;
}

/* Element i of a host buffer of type t, stored from v (rounded) or read. */
static void put(bytes &buf, cudaDataType t, size_t i, float v)
{
    if (t == CUDA_R_32F)
        std::memcpy(&buf[i * 4], &v, 4);
    else if (t == CUDA_R_16F) {
        half h = __float2half_rn(v);
        std::memcpy(&buf[i * 2], &h, 2);
    } else {
        __nv_bfloat16 b = __float2bfloat16(v);
        std::memcpy(&buf[i * 2], &b, 2);
    }
}

static double get(const bytes &buf, cudaDataType t, size_t i)
{
    if (t == CUDA_R_32F) {
        float f;
        std::memcpy(&f, &buf[i * 4], 4);
        return f;
    }
    if (t == CUDA_R_16F) {
        half h;
        std::memcpy(&h, &buf[i * 2], 2);
        return __half2float(h);
    }
    __nv_bfloat16 b;
    std::memcpy(&b, &buf[i * 2], 2);
    return __bfloat162float(b);
}

static bool is_poison(const bytes &buf, cudaDataType t, size_t i)
{
    for (size_t b = 0; b < size_of(t); ++b)
        if (buf[i * size_of(t) + b] != 0xFF)
            return false;
    return true;
}

/* Unit roundoff of a stored type. */
static double unit(cudaDataType t)
{
    return t == CUDA_R_32F ? 0x1p-24 : t == CUDA_R_16F ? 0x1p-11 : 0x1p-8;
}

static void *to_device(const bytes &h)
{
    void *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, h.size()), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

static bytes to_host(const void *d, size_t n)
{
    bytes h(n);
    cr_assert_eq(cudaMemcpy(h.data(), d, n, cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
}

static double gelu_ref(double x)
{
    return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

static double gelu_slope_ref(double x) /* central difference, error ~1e-10 */
{
    const double h = 1e-5;
    return (gelu_ref(x + h) - gelu_ref(x - h)) / (2 * h);
}

/* One matrix operand: its layout, host copy and device copy. */
struct operand {
    cudaDataType type;
    int rows, cols, ld;
    long long stride;
    bool row_major;
    bytes host;
    void *dev;
    size_t at(int i, int j, int b) const
    {
        return (size_t)b * stride + (row_major ? (size_t)i * ld + j : (size_t)j * ld + i);
    }
};

static operand make_operand(cudaDataType t, int rows, int cols, int pad, int batch, bool row_major, bool poison)
{
    operand o{t, rows, cols, (row_major ? cols : rows) + pad, 0, row_major, {}, nullptr};
    o.stride = (long long)o.ld * (row_major ? rows : cols) + 7; /* a gap between batches */
    o.host.assign((size_t)o.stride * batch * size_of(t), 0xFF);
    if (!poison)
        for (size_t i = 0; i < (size_t)o.stride * batch; ++i)
            put(o.host, t, i, next_uniform());
    o.dev = to_device(o.host);
    return o;
}

static cublasLtMatrixLayout_t make_layout(const operand &o, int batch)
{
    cublasLtMatrixLayout_t l;
    cr_assert_eq(cublasLtMatrixLayoutCreate(&l, o.type, o.rows, o.cols, o.ld), CUBLAS_STATUS_SUCCESS);
    int32_t order = o.row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
    cr_assert_eq(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order),
                 CUBLAS_STATUS_SUCCESS);
    if (batch > 1) {
        int64_t stride = o.stride;
        cr_assert_eq(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof batch),
                     CUBLAS_STATUS_SUCCESS);
        cr_assert_eq(
            cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
            CUBLAS_STATUS_SUCCESS);
    }
    return l;
}

struct lt_case {
    int m, n, k;
    cublasOperation_t ta, tb;
    cudaDataType ab, cd;
    cublasLtEpilogue_t epilogue;
    int batch;
    bool row_major, in_place;
    float alpha, beta;
};

static bool has(cublasLtEpilogue_t e, cublasLtEpilogue_t part)
{
    return (e & part) == part;
}

static void check_value(const char *what, double got, double want, double tol, int i, int j, int b)
{
    cr_assert(std::fabs(got - want) <= tol, "%s[%d,%d] batch %d = %.9g, want %.9g (tolerance %.3g)", what, i, j, b,
              got, want, tol);
}

/* Runs one case and checks D, the aux matrix, the bias gradient and every
 * untouched element. */
static void run_case(const lt_case &c)
{
    const int m = c.m, n = c.n, k = c.k, nb = c.batch;
    const bool ta = c.ta != CUBLAS_OP_N, tb = c.tb != CUBLAS_OP_N;
    const cublasLtEpilogue_t e = c.epilogue;
    const bool bias_in = e == CUBLASLT_EPILOGUE_BIAS || e == CUBLASLT_EPILOGUE_RELU_BIAS ||
                         e == CUBLASLT_EPILOGUE_GELU_BIAS || e == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
    const bool aux_out = e == CUBLASLT_EPILOGUE_GELU_AUX || e == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
    const bool dgelu = has(e, CUBLASLT_EPILOGUE_DGELU);
    const bool bgrad_d = e == CUBLASLT_EPILOGUE_DGELU_BGRAD;
    const bool bgrad_a = e == CUBLASLT_EPILOGUE_BGRADA, bgrad_b = e == CUBLASLT_EPILOGUE_BGRADB;
    const bool relu = e == CUBLASLT_EPILOGUE_RELU || e == CUBLASLT_EPILOGUE_RELU_BIAS;
    const bool gelu = has(e, CUBLASLT_EPILOGUE_GELU) && !dgelu;
    const bool bias_out = bgrad_d || bgrad_a || bgrad_b;

    operand A = make_operand(c.ab, ta ? k : m, ta ? m : k, 3, nb, c.row_major, false);
    operand B = make_operand(c.ab, tb ? n : k, tb ? k : n, 1, nb, c.row_major, false);
    operand C = make_operand(c.cd, m, n, 2, nb, c.row_major, false);
    operand D = c.in_place ? C : make_operand(c.cd, m, n, 5, nb, c.row_major, true);

    int bias_len = bgrad_b ? n : m;
    long long bias_stride = nb > 1 ? bias_len + 3 : 0;
    bytes bias((size_t)(bias_len + bias_stride * (nb - 1)) * size_of(c.cd), 0xFF);
    if (bias_in)
        for (size_t i = 0; i < bias.size() / size_of(c.cd); ++i)
            put(bias, c.cd, i, next_uniform());
    void *d_bias = to_device(bias);

    int64_t aux_ld = (m + 7) / 8 * 8 + 8, aux_stride = aux_ld * n + 8;
    bytes aux((size_t)(aux_stride * nb) * size_of(c.cd), 0xFF);
    if (dgelu)
        for (size_t i = 0; i < aux.size() / size_of(c.cd); ++i)
            put(aux, c.cd, i, 2.5f * next_uniform());
    void *d_aux = to_device(aux);

    cublasLtHandle_t lt;
    cr_assert_eq(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
    cublasLtMatmulDesc_t desc;
    cr_assert_eq(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &c.ta, sizeof c.ta),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &c.tb, sizeof c.tb),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &d_bias, sizeof d_bias),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &bias_stride,
                                                sizeof bias_stride),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &d_aux, sizeof d_aux),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof aux_ld),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &aux_stride,
                                                sizeof aux_stride),
                 CUBLAS_STATUS_SUCCESS);
    cublasLtMatrixLayout_t la = make_layout(A, nb), lb = make_layout(B, nb), lc = make_layout(C, nb),
                           ld = make_layout(D, nb);
    cublasLtMatmulPreference_t pref;
    cr_assert_eq(cublasLtMatmulPreferenceCreate(&pref), CUBLAS_STATUS_SUCCESS);
    uint64_t workspace = 1 << 20;
    cr_assert_eq(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                      sizeof workspace),
                 CUBLAS_STATUS_SUCCESS);
    cublasLtMatmulHeuristicResult_t heuristic;
    int returned = 0;
    cr_assert_eq(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 1, &heuristic, &returned),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(returned, 1);
    cr_assert_eq(cublasLtMatmul(lt, desc, &c.alpha, A.dev, la, B.dev, lb, &c.beta, C.dev, lc, D.dev, ld,
                                &heuristic.algo, nullptr, 0, 0),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());

    bytes got_d = to_host(D.dev, D.host.size()), got_aux = to_host(d_aux, aux.size()),
          got_bias = to_host(d_bias, bias.size());
    std::vector<bool> written(got_d.size() / size_of(c.cd), false);
    const double u = 0x1p-24, u_out = unit(c.cd);
    for (int b = 0; b < nb; ++b) {
        std::vector<double> bias_sum(bias_len, 0.0), bias_tol(bias_len, 0.0);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double sum = 0, mag = 0;
                for (int p = 0; p < k; ++p) {
                    double t = get(A.host, c.ab, ta ? A.at(p, i, b) : A.at(i, p, b)) *
                               get(B.host, c.ab, tb ? B.at(j, p, b) : B.at(p, j, b));
                    sum += t;
                    mag += std::fabs(t);
                }
                double x = c.alpha * sum, tol = (k + 2) * u * std::fabs(c.alpha) * mag + 1e-30;
                if (c.beta != 0)
                    x += c.beta * get(C.host, c.cd, C.at(i, j, b));
                if (bias_in)
                    x += get(bias, c.cd, (size_t)b * bias_stride + i);
                if (aux_out) {
                    size_t at = (size_t)b * aux_stride + (size_t)j * aux_ld + i;
                    check_value("aux", get(got_aux, c.cd, at), x, tol + u_out * std::fabs(x), i, j, b);
                }
                double want = x;
                if (relu)
                    want = x > 0 ? x : 0;
                if (gelu)
                    want = gelu_ref(x), tol *= 1.2;
                if (dgelu) {
                    double slope = gelu_slope_ref(get(aux, c.cd, (size_t)b * aux_stride + (size_t)j * aux_ld + i));
                    want = x * slope;
                    tol = tol * std::fabs(slope) + 1e-9 * std::fabs(x);
                }
                if (bgrad_d)
                    bias_sum[i] += want, bias_tol[i] += tol + 1e-12;
                size_t at = D.at(i, j, b);
                written[at] = true;
                check_value("D", get(got_d, c.cd, at), want, tol + u_out * std::fabs(want) + 1e-30, i, j, b);
            }
        if (bgrad_a || bgrad_b)
            for (int v = 0; v < bias_len; ++v)
                for (int p = 0; p < k; ++p) {
                    double x = bgrad_a ? get(A.host, c.ab, ta ? A.at(p, v, b) : A.at(v, p, b))
                                       : get(B.host, c.ab, tb ? B.at(v, p, b) : B.at(p, v, b));
                    bias_sum[v] += x;
                    bias_tol[v] += 1e-12;
                }
        if (bias_out)
            for (int v = 0; v < bias_len; ++v) {
                double want = bias_sum[v];
                check_value("bias gradient", get(got_bias, c.cd, (size_t)b * bias_stride + v), want,
                            bias_tol[v] + u_out * std::fabs(want), v, 0, b);
            }
    }
    for (size_t i = 0; i < written.size(); ++i) /* gaps and padding stay as they were */
        if (!written[i])
            cr_assert(c.in_place ? std::memcmp(&got_d[i * size_of(c.cd)], &C.host[i * size_of(c.cd)],
                                               size_of(c.cd)) == 0
                                 : is_poison(got_d, c.cd, i),
                      "D element %zu outside the matrices was written", i);
    if (!aux_out)
        cr_assert(got_aux == aux, "the aux matrix changed, but the epilogue does not write it");
    if (!bias_out)
        cr_assert(got_bias == bias, "the bias vector changed, but the epilogue does not write it");

    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cr_assert_eq(cublasLtDestroy(lt), CUBLAS_STATUS_SUCCESS);
    for (void *p : {A.dev, B.dev, C.dev, d_bias, d_aux})
        cudaFree(p);
    if (!c.in_place)
        cudaFree(D.dev);
}

static const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T};

Test(cublaslt, every_transpose_matches_double_reference_on_odd_sizes)
{
    for (cublasOperation_t ta : ops)
        for (cublasOperation_t tb : ops)
            run_case({33, 17, 65, ta, tb, CUDA_R_32F, CUDA_R_32F, CUBLASLT_EPILOGUE_DEFAULT, 1, false, false, 1.25f,
                      -0.5f});
}

Test(cublaslt, every_epilogue_llm_c_uses_and_its_neighbours)
{
    const cublasLtEpilogue_t eps[] = {CUBLASLT_EPILOGUE_BIAS,      CUBLASLT_EPILOGUE_RELU,
                                      CUBLASLT_EPILOGUE_RELU_BIAS, CUBLASLT_EPILOGUE_GELU,
                                      CUBLASLT_EPILOGUE_GELU_BIAS, CUBLASLT_EPILOGUE_GELU_AUX,
                                      CUBLASLT_EPILOGUE_GELU_AUX_BIAS, CUBLASLT_EPILOGUE_DGELU,
                                      CUBLASLT_EPILOGUE_DGELU_BGRAD, CUBLASLT_EPILOGUE_BGRADA,
                                      CUBLASLT_EPILOGUE_BGRADB};
    for (cublasLtEpilogue_t e : eps) {
        run_case({33, 17, 65, CUBLAS_OP_T, CUBLAS_OP_N, CUDA_R_32F, CUDA_R_32F, e, 1, false, false, 1.0f, 0.0f});
        run_case({33, 17, 65, CUBLAS_OP_N, CUBLAS_OP_T, CUDA_R_32F, CUDA_R_32F, e, 1, false, false, 0.75f, 0.5f});
    }
}

Test(cublaslt, half_and_bfloat16_inputs_with_their_own_or_float_outputs)
{
    const cudaDataType lowp[] = {CUDA_R_16F, CUDA_R_16BF};
    for (cudaDataType t : lowp) {
        run_case({33, 17, 65, CUBLAS_OP_T, CUBLAS_OP_N, t, t, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, 1, false, false, 1.0f,
                  0.0f});
        run_case({33, 17, 65, CUBLAS_OP_N, CUBLAS_OP_N, t, t, CUBLASLT_EPILOGUE_DGELU, 1, false, false, 1.0f, 0.0f});
        run_case({33, 17, 65, CUBLAS_OP_T, CUBLAS_OP_T, t, CUDA_R_32F, CUBLASLT_EPILOGUE_BIAS, 1, false, false, 1.0f,
                  1.0f});
    }
}

Test(cublaslt, strided_batches_as_llm_c_attention_uses_them)
{
    /* llm.c's attention: batched, C == D, and beta 1 to accumulate */
    run_case({17, 33, 9, CUBLAS_OP_T, CUBLAS_OP_N, CUDA_R_32F, CUDA_R_32F, CUBLASLT_EPILOGUE_DEFAULT, 3, false, true,
              1.0f, 1.0f});
    run_case({17, 33, 9, CUBLAS_OP_N, CUBLAS_OP_T, CUDA_R_16BF, CUDA_R_16BF, CUBLASLT_EPILOGUE_DEFAULT, 4, false, false,
              1.0f, 0.0f});
    run_case({33, 17, 65, CUBLAS_OP_N, CUBLAS_OP_N, CUDA_R_32F, CUDA_R_32F, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, 2, false,
              false, 1.0f, 0.0f});
    run_case({33, 17, 65, CUBLAS_OP_N, CUBLAS_OP_N, CUDA_R_32F, CUDA_R_32F, CUBLASLT_EPILOGUE_DGELU_BGRAD, 2, false,
              false, 1.0f, 0.0f});
}

Test(cublaslt, row_major_layouts)
{
    for (cublasOperation_t ta : ops)
        run_case({33, 17, 65, ta, CUBLAS_OP_N, CUDA_R_32F, CUDA_R_32F, CUBLASLT_EPILOGUE_BIAS, 2, true, false, 1.0f,
                  -1.0f});
}

Test(cublaslt, beta_zero_ignores_nan_in_c)
{
    /* C == D, all NaN: with beta 0, C is not read */
    int m = 5, n = 3, k = 4;
    bytes a(m * k * 4), b(k * n * 4), d(m * n * 4, 0xFF);
    for (int i = 0; i < m * k; ++i)
        put(a, CUDA_R_32F, i, 1.0f);
    for (int i = 0; i < k * n; ++i)
        put(b, CUDA_R_32F, i, 0.5f);
    void *da = to_device(a), *db = to_device(b), *dd = to_device(d);
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, lc;
    cr_assert_eq(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
    cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m);
    cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k);
    cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m);
    float alpha = 1.0f, beta = 0.0f;
    cr_assert_eq(cublasLtMatmul(lt, desc, &alpha, da, la, db, lb, &beta, dd, lc, dd, lc, nullptr, nullptr, 0, 0),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    bytes got = to_host(dd, d.size());
    for (int i = 0; i < m * n; ++i)
        cr_assert_eq(get(got, CUDA_R_32F, i), 2.0, "D[%d] = %g: 4 products of 1 * 0.5", i, get(got, CUDA_R_32F, i));
    for (cublasLtMatrixLayout_t l : {la, lb, lc})
        cublasLtMatrixLayoutDestroy(l);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
    for (void *p : {da, db, dd})
        cudaFree(p);
}

Test(cublaslt, alpha_and_beta_in_device_memory)
{
    int m = 3, n = 2, k = 2;
    bytes a(m * k * 4), b(k * n * 4), c(m * n * 4), scalars(8);
    for (int i = 0; i < m * k; ++i)
        put(a, CUDA_R_32F, i, (float)i);
    for (int i = 0; i < k * n; ++i)
        put(b, CUDA_R_32F, i, 1.0f);
    for (int i = 0; i < m * n; ++i)
        put(c, CUDA_R_32F, i, 10.0f);
    put(scalars, CUDA_R_32F, 0, 2.0f);  /* alpha */
    put(scalars, CUDA_R_32F, 1, -1.0f); /* beta */
    void *da = to_device(a), *db = to_device(b), *dc = to_device(c), *ds = to_device(scalars);
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, lc;
    cr_assert_eq(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
    int32_t mode = CUBLASLT_POINTER_MODE_DEVICE;
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof mode),
                 CUBLAS_STATUS_SUCCESS);
    cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m);
    cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k);
    cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m);
    const float *alpha = (const float *)ds, *beta = alpha + 1;
    cr_assert_eq(cublasLtMatmul(lt, desc, alpha, da, la, db, lb, beta, dc, lc, dc, lc, nullptr, nullptr, 0, 0),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    bytes got = to_host(dc, c.size());
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) /* 2 * (A[i,0] + A[i,1]) - 10, A[i,p] = p*m + i */
            cr_assert_eq(get(got, CUDA_R_32F, j * m + i), 2.0 * (i + (m + i)) - 10.0);
    for (cublasLtMatrixLayout_t l : {la, lb, lc})
        cublasLtMatrixLayoutDestroy(l);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
    for (void *p : {da, db, dc, ds})
        cudaFree(p);
}

Test(cublaslt, attributes_read_back_and_sizes_are_checked)
{
    cublasLtMatmulDesc_t desc;
    cr_assert_eq(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_16BF, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
    cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_GELU_BIAS, back;
    size_t written = 0;
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, nullptr, 0, &written),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(written, 4u);
    cr_assert_eq(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &back, sizeof back, &written),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(back, CUBLASLT_EPILOGUE_GELU_BIAS);
    int32_t compute = 0;
    cr_assert_eq(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute, sizeof compute,
                                                nullptr),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(compute, CUBLAS_COMPUTE_32F_FAST_16BF);
    int64_t too_wide = 1;
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &too_wide, sizeof too_wide),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "takes 4 bytes"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, (cublasLtMatmulDescAttributes_t)9, &e, sizeof e),
                 CUBLAS_STATUS_INVALID_VALUE);

    cublasLtMatrixLayoutOpaque_t on_stack;
    cr_assert_eq(cublasLtMatrixLayoutInit(&on_stack, CUDA_R_16BF, 7, 5, 8), CUBLAS_STATUS_SUCCESS);
    int64_t ld = 0;
    cr_assert_eq(cublasLtMatrixLayoutGetAttribute(&on_stack, CUBLASLT_MATRIX_LAYOUT_LD, &ld, sizeof ld, nullptr),
                 CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(ld, 8);
    cr_assert_eq(cublasLtMatmulDescDestroy(desc), CUBLAS_STATUS_SUCCESS);
    /* a destroyed descriptor and one that never was are rejected, not read */
    cr_assert_eq(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e),
                 CUBLAS_STATUS_INVALID_VALUE);
    cublasLtMatmulDescOpaque_t never;
    std::memset(&never, 0, sizeof never);
    cr_assert_eq(cublasLtMatmulDescSetAttribute(&never, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "not a live cublasLtMatmulDesc_t"), "%s",
              simtlab_emu_last_diagnostic());
}

/* A small valid problem whose descriptor a test then spoils. */
struct small_problem {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulPreference_t pref;
    void *a, *b, *c;
};

static small_problem make_small(cublasComputeType_t compute)
{
    small_problem s;
    cr_assert_eq(cublasLtCreate(&s.lt), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescCreate(&s.desc, compute, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
    cublasLtMatrixLayoutCreate(&s.la, CUDA_R_32F, 9, 4, 9);
    cublasLtMatrixLayoutCreate(&s.lb, CUDA_R_32F, 4, 3, 4);
    cublasLtMatrixLayoutCreate(&s.lc, CUDA_R_32F, 9, 3, 9);
    cublasLtMatmulPreferenceCreate(&s.pref);
    cr_assert_eq(cudaMalloc(&s.a, 36 * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc(&s.b, 12 * 4), cudaSuccess);
    cr_assert_eq(cudaMalloc(&s.c, 27 * 4), cudaSuccess);
    return s;
}

static void release(small_problem &s)
{
    cublasLtMatrixLayoutDestroy(s.la);
    cublasLtMatrixLayoutDestroy(s.lb);
    cublasLtMatrixLayoutDestroy(s.lc);
    cublasLtMatmulPreferenceDestroy(s.pref);
    cublasLtMatmulDescDestroy(s.desc);
    cublasLtDestroy(s.lt);
    cudaFree(s.a);
    cudaFree(s.b);
    cudaFree(s.c);
}

/* The heuristic and the matmul both refuse, with `status` and a diagnostic
 * that contains `reason`. */
static void expect_refused(small_problem &s, cublasStatus_t status, const char *reason)
{
    cublasLtMatmulHeuristicResult_t r;
    int returned = -1;
    cr_assert_eq(cublasLtMatmulAlgoGetHeuristic(s.lt, s.desc, s.la, s.lb, s.lc, s.lc, s.pref, 1, &r, &returned),
                 status, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(returned, 0);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), reason), "diagnostic '%s' does not say '%s'",
              simtlab_emu_last_diagnostic(), reason);
    float one = 1, zero = 0;
    cr_assert_eq(cublasLtMatmul(s.lt, s.desc, &one, s.a, s.la, s.b, s.lb, &zero, s.c, s.lc, s.c, s.lc, nullptr,
                                nullptr, 0, 0),
                 status);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), reason), "%s", simtlab_emu_last_diagnostic());
    release(s);
}

Test(cublaslt, what_the_emulator_does_not_run_is_not_supported_with_a_reason)
{
    small_problem s = make_small(CUBLAS_COMPUTE_16F);
    expect_refused(s, CUBLAS_STATUS_NOT_SUPPORTED, "compute type 64");

    s = make_small(CUBLAS_COMPUTE_32F);
    cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_RELU_AUX;
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
    expect_refused(s, CUBLAS_STATUS_NOT_SUPPORTED, "CUBLASLT_EPILOGUE_RELU_AUX");

    s = make_small(CUBLAS_COMPUTE_32F);
    int32_t order = CUBLASLT_ORDER_COL32;
    cublasLtMatrixLayoutSetAttribute(s.lb, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order);
    expect_refused(s, CUBLAS_STATUS_NOT_SUPPORTED, "Bdesc has order 2");

    s = make_small(CUBLAS_COMPUTE_32F);
    void *scale = s.c;
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale, sizeof scale);
    expect_refused(s, CUBLAS_STATUS_NOT_SUPPORTED, "FP8 scale");

    s = make_small(CUBLAS_COMPUTE_32F);
    uint32_t f64 = CUDA_R_64F;
    cublasLtMatrixLayoutSetAttribute(s.la, CUBLASLT_MATRIX_LAYOUT_TYPE, &f64, sizeof f64);
    expect_refused(s, CUBLAS_STATUS_NOT_SUPPORTED, "CUDA_R_64F");
}

Test(cublaslt, bad_arguments_are_invalid_with_a_reason)
{
    small_problem s = make_small(CUBLAS_COMPUTE_32F);
    cublasOperation_t t = CUBLAS_OP_T; /* op(A) becomes 4 x 9: no longer fits D's 9 rows */
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
    expect_refused(s, CUBLAS_STATUS_INVALID_VALUE, "op(A) has 4 rows but D has 9");

    s = make_small(CUBLAS_COMPUTE_32F);
    cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_BIAS;
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
    expect_refused(s, CUBLAS_STATUS_INVALID_VALUE, "BIAS_POINTER, which is NULL");

    s = make_small(CUBLAS_COMPUTE_32F);
    e = CUBLASLT_EPILOGUE_GELU_AUX;
    int64_t aux_ld = 12; /* >= 9 rows, but not a multiple of 8 */
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &s.c, sizeof s.c);
    cublasLtMatmulDescSetAttribute(s.desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof aux_ld);
    expect_refused(s, CUBLAS_STATUS_INVALID_VALUE, "multiple of 8");

    /* a host array where device memory belongs */
    s = make_small(CUBLAS_COMPUTE_32F);
    std::vector<float> host(36);
    float one = 1, zero = 0;
    cr_assert_eq(cublasLtMatmul(s.lt, s.desc, &one, host.data(), s.la, s.b, s.lb, &zero, s.c, s.lc, s.c, s.lc,
                                nullptr, nullptr, 0, 0),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "cublasLtMatmul A"), "%s", simtlab_emu_last_diagnostic());
    /* a device matrix too small for its layout */
    cublasLtMatrixLayout_t big;
    cublasLtMatrixLayoutCreate(&big, CUDA_R_32F, 9, 3, 10);
    cr_assert_eq(cublasLtMatmul(s.lt, s.desc, &one, s.a, s.la, s.b, s.lb, &zero, s.c, big, s.c, big, nullptr,
                                nullptr, 0, 0),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "past the end"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cublasLtMatmul(nullptr, s.desc, &one, s.a, s.la, s.b, s.lb, &zero, s.c, s.lc, s.c, s.lc, nullptr,
                                nullptr, 0, 0),
                 CUBLAS_STATUS_NOT_INITIALIZED);
    cublasLtMatrixLayoutDestroy(big);
    release(s);
}
