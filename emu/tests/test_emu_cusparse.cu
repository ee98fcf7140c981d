/* The emulator's cuSPARSE (emu/docs/libraries.md, "cuSPARSE"): the generic API's
 * descriptors, SpMV and SpMM.
 *
 * Random sparse matrices (seed printed; SIMTLAB_TEST_SEED repeats a run)
 * with empty rows, prime sizes, every format (CSR, CSC, COO), both index
 * bases and both index types, float and double; outputs poisoned before
 * each call (NaN where beta == 0, so a read of Y shows) with a sentinel
 * past their end; every result against a double-precision product on the
 * host. Bad arguments must give cuSPARSE's status and a diagnostic naming
 * the argument, and leave the output untouched. */
#include <criterion/criterion.h>

#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "slcc_program.hpp"
#include "test_helpers.hpp"

static unsigned test_seed(void) { return announced_seed("test_emu_cusparse"); }

#define CHECK_SPARSE(call)                                                                                       \
    do {                                                                                                          \
        cusparseStatus_t s_ = (call);                                                                             \
        cr_assert_eq(s_, CUSPARSE_STATUS_SUCCESS, "%s: %s (%s)", #call, cusparseGetErrorName(s_),                 \
                     simtlab_emu_last_diagnostic());                                                              \
    } while (0)
/* A call that must fail with `status` and a diagnostic containing `word`. */
#define EXPECT_FAILS(call, status, word)                                                                          \
    do {                                                                                                          \
        cusparseStatus_t s_ = (call);                                                                             \
        cr_expect_eq(s_, status, "%s gave %s, not %s (%s)", #call, cusparseGetErrorName(s_), #status,            \
                     simtlab_emu_last_diagnostic());                                                              \
        cr_expect(std::strstr(simtlab_emu_last_diagnostic(), word), "%s: the diagnostic does not name %s: %s",    \
                  #call, word, simtlab_emu_last_diagnostic());                                                    \
    } while (0)

static const double kSentinel = 12345.0;
static const int kPad = 3; /* sentinel elements past every output */

/* ---- host-side matrices --------------------------------------------------- */

/* A sparse matrix as entries sorted by row, then column; every 7th row
 * (from row 3) is empty. */
struct entries {
    int64_t rows, cols;
    std::vector<int64_t> r, c;
    std::vector<double> v;
};

static entries random_entries(std::mt19937 &rng, int64_t rows, int64_t cols, double density)
{
    entries e{rows, cols, {}, {}, {}};
    std::uniform_real_distribution<double> u(0.0, 1.0), val(-1.0, 1.0);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            if (i % 7 != 3 && u(rng) < density) {
                e.r.push_back(i), e.c.push_back(j), e.v.push_back(val(rng));
            }
    return e;
}

static std::vector<double> random_values(std::mt19937 &rng, size_t n)
{
    std::uniform_real_distribution<double> val(-1.0, 1.0);
    std::vector<double> out(n);
    for (double &x : out)
        x = val(rng);
    return out;
}

/* Values as a type stores them (float: rounded once), as bytes. */
static std::vector<unsigned char> as_bytes(const std::vector<double> &v, cudaDataType t)
{
    std::vector<unsigned char> b(v.size() * (t == CUDA_R_64F ? 8 : 4));
    for (size_t i = 0; i < v.size(); ++i) {
        if (t == CUDA_R_64F)
            std::memcpy(&b[i * 8], &v[i], 8);
        else {
            float f = (float)v[i];
            std::memcpy(&b[i * 4], &f, 4);
        }
    }
    return b;
}
static std::vector<double> rounded(const std::vector<double> &v, cudaDataType t)
{
    std::vector<double> out(v);
    if (t == CUDA_R_32F)
        for (double &x : out)
            x = (float)x;
    return out;
}
static std::vector<double> from_bytes(const std::vector<unsigned char> &b, cudaDataType t)
{
    const size_t size = t == CUDA_R_64F ? 8 : 4;
    std::vector<double> out(b.size() / size);
    for (size_t i = 0; i < out.size(); ++i) {
        if (t == CUDA_R_64F)
            std::memcpy(&out[i], &b[i * 8], 8);
        else {
            float f;
            std::memcpy(&f, &b[i * 4], 4);
            out[i] = f;
        }
    }
    return out;
}

static std::vector<unsigned char> index_bytes(const std::vector<int64_t> &idx, cusparseIndexType_t t)
{
    std::vector<unsigned char> b(idx.size() * (t == CUSPARSE_INDEX_64I ? 8 : 4));
    for (size_t i = 0; i < idx.size(); ++i) {
        if (t == CUSPARSE_INDEX_64I)
            std::memcpy(&b[i * 8], &idx[i], 8);
        else {
            int32_t x = (int32_t)idx[i];
            std::memcpy(&b[i * 4], &x, 4);
        }
    }
    return b;
}

static void *to_device(const std::vector<unsigned char> &b)
{
    void *d = nullptr;
    if (b.empty())
        return nullptr;
    CHECK_CUDA(cudaMalloc(&d, b.size()));
    CHECK_CUDA(cudaMemcpy(d, b.data(), b.size(), cudaMemcpyHostToDevice));
    return d;
}
static std::vector<unsigned char> to_host(const void *d, size_t bytes)
{
    std::vector<unsigned char> b(bytes);
    if (bytes)
        CHECK_CUDA(cudaMemcpy(b.data(), d, bytes, cudaMemcpyDeviceToHost));
    return b;
}

static const char *format_name(cusparseFormat_t f)
{
    return f == CUSPARSE_FORMAT_CSR ? "CSR" : f == CUSPARSE_FORMAT_CSC ? "CSC" : "COO";
}

/* The matrix in device memory in one format; `values` are what was stored. */
struct device_sparse {
    cusparseSpMatDescr_t descr = nullptr;
    void *p0 = nullptr, *p1 = nullptr, *vals = nullptr;
    std::vector<double> values;
    ~device_sparse()
    {
        cusparseDestroySpMat(descr);
        cudaFree(p0), cudaFree(p1), cudaFree(vals);
    }
};

/* `unsorted`: indices in descending order within each row (CSR) or column
 * (CSC), as spmv.cu-style readers that prepend to a list leave them, and
 * COO entries from the last row to the first. */
static void upload(const entries &e, cusparseFormat_t f, cusparseIndexType_t it, cusparseIndexBase_t base,
                   cudaDataType t, device_sparse *out, bool unsorted = false)
{
    const int64_t b = base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0, nnz = (int64_t)e.v.size();
    std::vector<size_t> order(e.v.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (f == CUSPARSE_FORMAT_CSC)
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return e.c[x] < e.c[y]; });
    if (unsorted && f == CUSPARSE_FORMAT_COO)
        std::reverse(order.begin(), order.end());
    else if (unsorted) {
        const bool csr = f == CUSPARSE_FORMAT_CSR;
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
            const int64_t ox = csr ? e.r[x] : e.c[x], oy = csr ? e.r[y] : e.c[y];
            return ox != oy ? ox < oy : (csr ? e.c[x] > e.c[y] : e.r[x] > e.r[y]);
        });
    }
    std::vector<int64_t> p0, p1;
    std::vector<double> v;
    for (size_t k : order)
        v.push_back(e.v[k]);
    if (f == CUSPARSE_FORMAT_COO) {
        for (size_t k : order)
            p0.push_back(e.r[k] + b), p1.push_back(e.c[k] + b);
    } else {
        const bool csr = f == CUSPARSE_FORMAT_CSR;
        const int64_t outer = csr ? e.rows : e.cols;
        p0.assign((size_t)outer + 1, 0);
        for (size_t k : order) {
            ++p0[(size_t)(csr ? e.r[k] : e.c[k]) + 1];
            p1.push_back((csr ? e.c[k] : e.r[k]) + b);
        }
        for (int64_t o = 0; o < outer; ++o)
            p0[(size_t)o + 1] += p0[(size_t)o];
        for (int64_t &x : p0)
            x += b;
    }
    out->p0 = to_device(index_bytes(p0, it));
    out->p1 = to_device(index_bytes(p1, it));
    out->vals = to_device(as_bytes(v, t));
    out->values = rounded(v, t);
    if (f == CUSPARSE_FORMAT_CSR)
        CHECK_SPARSE(cusparseCreateCsr(&out->descr, e.rows, e.cols, nnz, out->p0, out->p1, out->vals, it, it, base, t));
    else if (f == CUSPARSE_FORMAT_CSC)
        CHECK_SPARSE(cusparseCreateCsc(&out->descr, e.rows, e.cols, nnz, out->p0, out->p1, out->vals, it, it, base, t));
    else
        CHECK_SPARSE(cusparseCreateCoo(&out->descr, e.rows, e.cols, nnz, out->p0, out->p1, out->vals, it, base, t));
}

/* An output of n elements, and kPad sentinels past it: random values when
 * beta != 0 (they are read), else NaN (they must not be). */
static void *poisoned_output(std::vector<double> *initial, size_t n, bool read, cudaDataType t, std::mt19937 &rng)
{
    std::vector<double> h = read ? random_values(rng, n) : std::vector<double>(n, std::nan(""));
    *initial = rounded(h, t);
    h.insert(h.end(), kPad, kSentinel);
    return to_device(as_bytes(h, t));
}

/* got[i] against want[i] (double): within a bound for the type; scale[i]
 * is the sum of the magnitudes of the terms. NaN fails. */
static int count_wrong(const char *what, const std::vector<double> &got, const std::vector<double> &want,
                       const std::vector<double> &scale, cudaDataType t)
{
    const double rel = t == CUDA_R_64F ? 1e-13 : 2e-6;
    int wrong = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= rel * (scale[i] + 1e-300)) && wrong++ < 3)
            cr_log_error("%s: element %zu is %.17g, want %.17g", what, i, got[i], want[i]);
    for (size_t i = want.size(); i < got.size(); ++i)
        if (got[i] != kSentinel && wrong++ < 6)
            cr_log_error("%s: the sentinel %zu past the end was overwritten (%.17g)", what, i - want.size(), got[i]);
    return wrong;
}

/* ---- SpMV ----------------------------------------------------------------- */

static void check_spmv(cusparseHandle_t h, std::mt19937 &rng, const entries &e, cusparseFormat_t f,
                       cusparseIndexType_t it, cusparseIndexBase_t base, cudaDataType t, cusparseOperation_t op,
                       bool beta_zero, cusparseSpMVAlg_t alg)
{
    char what[200];
    std::snprintf(what, sizeof what, "SpMV %s%s %lldx%lld nnz %zu, %s, base %d, %s, op %d, beta %s, alg %d",
                  format_name(f), (alg + (int)base) % 2 == 1 ? " (unsorted)" : "", (long long)e.rows, (long long)e.cols, e.v.size(),
                  it == CUSPARSE_INDEX_64I ? "64I" : "32I", (int)base, t == CUDA_R_64F ? "double" : "float", (int)op,
                  beta_zero ? "0" : "random", (int)alg);
    device_sparse A;
    const bool unsorted = (alg + (int)base) % 2 == 1;
    upload(e, f, it, base, t, &A, unsorted);
    const bool tr = op != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t in = tr ? e.rows : e.cols, out = tr ? e.cols : e.rows;
    std::vector<double> x = rounded(random_values(rng, (size_t)in), t), y0;
    void *dx = to_device(as_bytes(x, t));
    void *dy = poisoned_output(&y0, (size_t)out, !beta_zero, t, rng);
    const double alpha = rounded({std::uniform_real_distribution<double>(0.5, 2.0)(rng)}, t)[0];
    const double beta = beta_zero ? 0.0 : rounded({std::uniform_real_distribution<double>(-1.5, 1.5)(rng)}, t)[0];
    cusparseDnVecDescr_t vx, vy;
    CHECK_SPARSE(cusparseCreateDnVec(&vx, in, dx, t));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, out, dy, t));
    const float alpha_f = (float)alpha, beta_f = (float)beta;
    const void *pa = t == CUDA_R_64F ? (const void *)&alpha : (const void *)&alpha_f;
    const void *pb = t == CUDA_R_64F ? (const void *)&beta : (const void *)&beta_f;
    size_t bytes = 1;
    CHECK_SPARSE(cusparseSpMV_bufferSize(h, op, pa, A.descr, vx, pb, vy, t, alg, &bytes));
    void *buffer = nullptr;
    CHECK_CUDA(cudaMalloc(&buffer, bytes));
    CHECK_SPARSE(cusparseSpMV(h, op, pa, A.descr, vx, pb, vy, t, alg, buffer));
    std::vector<double> got = from_bytes(to_host(dy, ((size_t)out + kPad) * (t == CUDA_R_64F ? 8 : 4)), t);

    std::vector<double> sum((size_t)out, 0.0), scale((size_t)out, 0.0);
    for (size_t k = 0; k < e.v.size(); ++k) {
        const int64_t i = tr ? e.c[k] : e.r[k], j = tr ? e.r[k] : e.c[k];
        sum[(size_t)i] += rounded({e.v[k]}, t)[0] * x[(size_t)j];
        scale[(size_t)i] += std::fabs(alpha * rounded({e.v[k]}, t)[0] * x[(size_t)j]);
    }
    std::vector<double> want((size_t)out);
    for (size_t i = 0; i < want.size(); ++i) {
        want[i] = alpha * sum[i] + (beta_zero ? 0.0 : beta * y0[i]);
        scale[i] += beta_zero ? 0.0 : std::fabs(beta * y0[i]);
    }
    cr_expect_eq(count_wrong(what, got, want, scale, t), 0, "%s: wrong results", what);
    cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy);
    cudaFree(dx), cudaFree(dy), cudaFree(buffer);
}

Test(cusparse, spmv_every_format_op_base_index_and_value_type)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const int64_t sizes[][2] = {{97, 61}, {61, 97}, {1, 13}};
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    int n = 0;
    for (auto &s : sizes) {
        const entries e = random_entries(rng, s[0], s[1], 0.08);
        for (cusparseFormat_t f : formats)
            for (int op = 0; op < 3; ++op)
                for (int base = 0; base < 2; ++base)
                    for (int it = 0; it < 2; ++it)
                        for (int t = 0; t < 2; ++t, ++n) {
                            const cusparseSpMVAlg_t algs[] = {
                                CUSPARSE_SPMV_ALG_DEFAULT,
                                f == CUSPARSE_FORMAT_COO ? CUSPARSE_SPMV_COO_ALG1 : CUSPARSE_SPMV_CSR_ALG1,
                                f == CUSPARSE_FORMAT_COO ? CUSPARSE_SPMV_COO_ALG2 : CUSPARSE_SPMV_CSR_ALG2};
                            check_spmv(h, rng, e, f, it ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I,
                                       (cusparseIndexBase_t)base, t ? CUDA_R_64F : CUDA_R_32F,
                                       (cusparseOperation_t)op, n % 2 == 0, algs[n % 3]);
                        }
    }
    CHECK_SPARSE(cusparseDestroy(h));
}

Test(cusparse, spmv_with_no_entries_and_empty_shapes)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const entries none = random_entries(rng, 13, 17, 0.0); /* nnz 0: y = beta y */
    const entries tall = random_entries(rng, 29, 1, 0.5), wide = random_entries(rng, 1, 29, 0.5);
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    for (cusparseFormat_t f : formats)
        for (int op = 0; op < 2; ++op)
            for (int beta_zero = 0; beta_zero < 2; ++beta_zero) {
                check_spmv(h, rng, none, f, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ONE, CUDA_R_64F,
                           (cusparseOperation_t)op, beta_zero, CUSPARSE_SPMV_ALG_DEFAULT);
                check_spmv(h, rng, tall, f, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F,
                           (cusparseOperation_t)op, beta_zero, CUSPARSE_SPMV_ALG_DEFAULT);
                check_spmv(h, rng, wide, f, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F,
                           (cusparseOperation_t)op, beta_zero, CUSPARSE_SPMV_ALG_DEFAULT);
            }
    /* a 0 x 0 matrix with no arrays at all, and a 0-row one: nothing to do */
    cusparseSpMatDescr_t empty;
    cusparseDnVecDescr_t v0;
    CHECK_SPARSE(cusparseCreateCsr(&empty, 0, 0, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&v0, 0, nullptr, CUDA_R_32F));
    float one = 1.0f, zero = 0.0f;
    CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, empty, v0, &zero, v0, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, nullptr));
    cusparseDestroySpMat(empty), cusparseDestroyDnVec(v0);
    CHECK_SPARSE(cusparseDestroy(h));
}

/* ---- SpMM ----------------------------------------------------------------- */

/* A dense rows x cols matrix stored with ld = the minimum + 3; the padding
 * holds sentinels. Values: random (read) or NaN (not to be read). */
struct dense {
    int64_t rows, cols, ld;
    cusparseOrder_t order;
    std::vector<double> stored; /* every element of the allocation */
    size_t at(int64_t i, int64_t j) const
    {
        return (size_t)(order == CUSPARSE_ORDER_COL ? i + j * ld : i * ld + j);
    }
};

static dense make_dense(std::mt19937 &rng, int64_t rows, int64_t cols, cusparseOrder_t order, bool read,
                        cudaDataType t)
{
    dense d{rows, cols, (order == CUSPARSE_ORDER_COL ? rows : cols) + 3, order, {}};
    const int64_t outer = order == CUSPARSE_ORDER_COL ? cols : rows;
    d.stored.assign((size_t)(d.ld * outer), kSentinel);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            d.stored[d.at(i, j)] = read ? random_values(rng, 1)[0] : std::nan("");
    d.stored = rounded(d.stored, t);
    return d;
}

static void check_spmm(cusparseHandle_t h, std::mt19937 &rng, const entries &e, cusparseFormat_t f,
                       cusparseIndexType_t it, cusparseIndexBase_t base, cudaDataType t, cusparseOperation_t opA,
                       cusparseOperation_t opB, cusparseOrder_t orderB, cusparseOrder_t orderC, int64_t n,
                       bool beta_zero)
{
    char what[220];
    std::snprintf(what, sizeof what, "SpMM %s %lldx%lld nnz %zu, %s, base %d, %s, opA %d opB %d, B %s C %s, n %lld, beta %s",
                  format_name(f), (long long)e.rows, (long long)e.cols, e.v.size(),
                  it == CUSPARSE_INDEX_64I ? "64I" : "32I", (int)base, t == CUDA_R_64F ? "double" : "float",
                  (int)opA, (int)opB, orderB == CUSPARSE_ORDER_ROW ? "row" : "col",
                  orderC == CUSPARSE_ORDER_ROW ? "row" : "col", (long long)n, beta_zero ? "0" : "random");
    device_sparse A;
    upload(e, f, it, base, t, &A, opB == CUSPARSE_OPERATION_NON_TRANSPOSE);
    const bool ta = opA != CUSPARSE_OPERATION_NON_TRANSPOSE, tb = opB != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t m = ta ? e.cols : e.rows, k = ta ? e.rows : e.cols;
    const dense B = make_dense(rng, tb ? n : k, tb ? k : n, orderB, true, t);
    const dense C0 = make_dense(rng, m, n, orderC, !beta_zero, t);
    void *dB = to_device(as_bytes(B.stored, t)), *dC = to_device(as_bytes(C0.stored, t));
    cusparseDnMatDescr_t mB, mC;
    CHECK_SPARSE(cusparseCreateDnMat(&mB, B.rows, B.cols, B.ld, dB, t, orderB));
    CHECK_SPARSE(cusparseCreateDnMat(&mC, m, n, C0.ld, dC, t, orderC));
    const double alpha = rounded({std::uniform_real_distribution<double>(0.5, 2.0)(rng)}, t)[0];
    const double beta = beta_zero ? 0.0 : rounded({std::uniform_real_distribution<double>(-1.5, 1.5)(rng)}, t)[0];
    const float alpha_f = (float)alpha, beta_f = (float)beta;
    const void *pa = t == CUDA_R_64F ? (const void *)&alpha : (const void *)&alpha_f;
    const void *pb = t == CUDA_R_64F ? (const void *)&beta : (const void *)&beta_f;
    const cusparseSpMMAlg_t alg = f == CUSPARSE_FORMAT_COO ? CUSPARSE_SPMM_COO_ALG4 : CUSPARSE_SPMM_CSR_ALG2;
    size_t bytes = 1;
    CHECK_SPARSE(cusparseSpMM_bufferSize(h, opA, opB, pa, A.descr, mB, pb, mC, t, alg, &bytes));
    CHECK_SPARSE(cusparseSpMM_preprocess(h, opA, opB, pa, A.descr, mB, pb, mC, t, alg, nullptr));
    CHECK_SPARSE(cusparseSpMM(h, opA, opB, pa, A.descr, mB, pb, mC, t, alg, nullptr));
    std::vector<double> got_stored = from_bytes(to_host(dC, C0.stored.size() * (t == CUDA_R_64F ? 8 : 4)), t);

    /* the reference, in the stored layout of C (padding: the sentinel) */
    std::vector<double> want(C0.stored), scale(C0.stored.size(), 0.0), sum(C0.stored.size(), 0.0);
    for (size_t q = 0; q < e.v.size(); ++q) {
        const int64_t i = ta ? e.c[q] : e.r[q], kk = ta ? e.r[q] : e.c[q];
        const double a = rounded({e.v[q]}, t)[0];
        for (int64_t j = 0; j < n; ++j) {
            const double b = B.stored[tb ? B.at(j, kk) : B.at(kk, j)];
            sum[C0.at(i, j)] += a * b;
            scale[C0.at(i, j)] += std::fabs(alpha * a * b);
        }
    }
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            const size_t p = C0.at(i, j);
            want[p] = alpha * sum[p] + (beta_zero ? 0.0 : beta * C0.stored[p]);
            scale[p] += beta_zero ? 0.0 : std::fabs(beta * C0.stored[p]);
        }
    /* the sentinels are compared exactly: scale 0 */
    cr_expect_eq(count_wrong(what, got_stored, want, scale, t), 0, "%s: wrong results", what);
    cusparseDestroyDnMat(mB), cusparseDestroyDnMat(mC);
    cudaFree(dB), cudaFree(dC);
}

Test(cusparse, spmm_every_format_op_order_and_value_type)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const entries e = random_entries(rng, 37, 23, 0.12);
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    int n = 0;
    for (cusparseFormat_t f : formats)
        for (int opA = 0; opA < 2; ++opA)
            for (int opB = 0; opB < 2; ++opB)
                for (int ob = 1; ob <= 2; ++ob)
                    for (int oc = 1; oc <= 2; ++oc)
                        for (int t = 0; t < 2; ++t, ++n)
                            check_spmm(h, rng, e, f, n % 3 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I,
                                       (cusparseIndexBase_t)(n / 2 % 2), t ? CUDA_R_64F : CUDA_R_32F,
                                       (cusparseOperation_t)opA, (cusparseOperation_t)opB, (cusparseOrder_t)ob,
                                       (cusparseOrder_t)oc, n % 5 ? 11 : 1, n % 4 == 1);
    /* no entries, and k = 0 */
    check_spmm(h, rng, random_entries(rng, 13, 7, 0.0), CUSPARSE_FORMAT_CSR, CUSPARSE_INDEX_32I,
               CUSPARSE_INDEX_BASE_ONE, CUDA_R_32F, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
               CUSPARSE_ORDER_ROW, CUSPARSE_ORDER_COL, 5, false);
    check_spmm(h, rng, random_entries(rng, 13, 0, 0.0), CUSPARSE_FORMAT_COO, CUSPARSE_INDEX_32I,
               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
               CUSPARSE_ORDER_COL, CUSPARSE_ORDER_COL, 5, true);
    CHECK_SPARSE(cusparseDestroy(h));
}

/* ---- pointer mode, streams, graphs ---------------------------------------- */

Test(cusparse, device_scalars_on_a_stream_and_in_a_captured_graph)
{
    std::mt19937 rng(test_seed());
    const entries e = random_entries(rng, 31, 19, 0.2);
    device_sparse A;
    upload(e, CUSPARSE_FORMAT_CSR, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F, &A);
    std::vector<double> x = random_values(rng, 19), y0;
    void *dx = to_device(as_bytes(x, CUDA_R_64F));
    void *dy = poisoned_output(&y0, 31, true, CUDA_R_64F, rng);
    double *dscalars;
    const double scalars[2] = {1.5, -0.25};
    CHECK_CUDA(cudaMalloc(&dscalars, sizeof scalars));
    CHECK_CUDA(cudaMemcpy(dscalars, scalars, sizeof scalars, cudaMemcpyHostToDevice));
    cusparseHandle_t h;
    cudaStream_t s, got_stream = nullptr;
    cusparseDnVecDescr_t vx, vy;
    CHECK_CUDA(cudaStreamCreate(&s));
    CHECK_SPARSE(cusparseCreate(&h));
    CHECK_SPARSE(cusparseSetStream(h, s));
    CHECK_SPARSE(cusparseGetStream(h, &got_stream));
    cr_expect_eq(got_stream, s);
    CHECK_SPARSE(cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_DEVICE));
    CHECK_SPARSE(cusparseCreateDnVec(&vx, 19, dx, CUDA_R_64F));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, 31, dy, CUDA_R_64F));

    std::vector<double> want(31, 0.0), scale(31, 0.0);
    for (size_t k = 0; k < e.v.size(); ++k)
        want[(size_t)e.r[k]] += e.v[k] * x[(size_t)e.c[k]], scale[(size_t)e.r[k]] += std::fabs(1.5 * e.v[k] * x[(size_t)e.c[k]]);
    for (size_t i = 0; i < 31; ++i)
        want[i] = 1.5 * want[i] - 0.25 * y0[i], scale[i] += std::fabs(0.25 * y0[i]);
    CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dscalars, A.descr, vx, dscalars + 1, vy,
                              CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, nullptr));
    CHECK_CUDA(cudaStreamSynchronize(s));
    std::vector<double> got = from_bytes(to_host(dy, (31 + kPad) * 8), CUDA_R_64F);
    cr_expect_eq(count_wrong("SpMV with device scalars on a stream", got, want, scale, CUDA_R_64F), 0);

    /* captured: nothing happens until the graph runs, which may be after the
     * descriptors are gone; each launch applies y = 1.5 A x - 0.25 y again */
    CHECK_CUDA(cudaMemcpy(dy, as_bytes(y0, CUDA_R_64F).data(), 31 * 8, cudaMemcpyHostToDevice));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK_SPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, dscalars, A.descr, vx, dscalars + 1, vy,
                              CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr));
    CHECK_CUDA(cudaStreamEndCapture(s, &graph));
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    got = from_bytes(to_host(dy, 31 * 8), CUDA_R_64F);
    cr_expect(std::equal(got.begin(), got.end(), y0.begin()), "the captured SpMV ran at its call");
    cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy);
    CHECK_CUDA(cudaGraphLaunch(exec, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    got = from_bytes(to_host(dy, (31 + kPad) * 8), CUDA_R_64F);
    cr_expect_eq(count_wrong("SpMV captured into a graph", got, want, scale, CUDA_R_64F), 0);
    cudaGraphExecDestroy(exec), cudaGraphDestroy(graph);
    CHECK_SPARSE(cusparseDestroy(h));
    cudaStreamDestroy(s), cudaFree(dx), cudaFree(dy), cudaFree(dscalars);
}

/* ---- what cuSPARSE refuses ------------------------------------------------ */

Test(cusparse, statuses_names_and_version_are_the_toolkits)
{
    cr_expect_eq(CUSPARSE_STATUS_INVALID_VALUE, 3);
    cr_expect_eq(CUSPARSE_STATUS_NOT_SUPPORTED, 10);
    cr_expect_eq(CUSPARSE_INDEX_64I, 3);
    cr_expect_eq(CUSPARSE_ORDER_ROW, 2);
    cr_expect_eq(CUSPARSE_FORMAT_COO, 3);
    cr_expect_eq(CUSPARSE_SPMV_CSR_ALG1, 2);
    cr_expect_eq(CUSPARSE_SPMM_CSR_ALG3, 12);
    cr_expect_str_eq(cusparseGetErrorName(CUSPARSE_STATUS_NOT_SUPPORTED), "CUSPARSE_STATUS_NOT_SUPPORTED");
    cr_expect_str_eq(cusparseGetErrorName((cusparseStatus_t)99), "CUSPARSE_STATUS_UNKNOWN");
    cr_expect(std::strlen(cusparseGetErrorString(CUSPARSE_STATUS_INVALID_VALUE)) > 0);
    cusparseHandle_t h;
    int version = 0;
    CHECK_SPARSE(cusparseCreate(&h));
    CHECK_SPARSE(cusparseGetVersion(h, &version));
    cr_expect_eq(version, CUSPARSE_VERSION);
    cr_expect_eq(version, 12603);
    CHECK_SPARSE(cusparseDestroy(h));
    EXPECT_FAILS(cusparseGetVersion(h, &version), CUSPARSE_STATUS_NOT_INITIALIZED, "cusparseGetVersion");
    EXPECT_FAILS(cusparseCreate(nullptr), CUSPARSE_STATUS_INVALID_VALUE, "handle");
    EXPECT_FAILS(cusparseSetStream(nullptr, 0), CUSPARSE_STATUS_NOT_INITIALIZED, "cusparseSetStream");
}

Test(cusparse, bad_descriptors_are_refused_naming_the_argument)
{
    int *d_idx;
    float *d_val;
    CHECK_CUDA(cudaMalloc(&d_idx, 64 * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_val, 64 * sizeof(float)));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t v;
    cusparseDnMatDescr_t M;
    EXPECT_FAILS(cusparseCreateCsr(&A, -1, 4, 0, d_idx, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 CUSPARSE_STATUS_INVALID_VALUE, "rows");
    EXPECT_FAILS(cusparseCreateCsr(&A, 4, 4, 3, d_idx, d_idx, d_val, CUSPARSE_INDEX_16U, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "csrRowOffsets");
    EXPECT_FAILS(cusparseCreateCoo(&A, 4, 4, 3, d_idx, d_idx, d_val, CUSPARSE_INDEX_32I, (cusparseIndexBase_t)2,
                                   CUDA_R_32F),
                 CUSPARSE_STATUS_INVALID_VALUE, "idxBase");
    EXPECT_FAILS(cusparseCreateCsc(&A, 4, 4, 3, d_idx, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_16F),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "valueType");
    EXPECT_FAILS(cusparseCreateCsr(nullptr, 4, 4, 3, d_idx, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 CUSPARSE_STATUS_INVALID_VALUE, "spMatDescr");
    EXPECT_FAILS(cusparseCreateDnVec(&v, -3, d_val, CUDA_R_32F), CUSPARSE_STATUS_INVALID_VALUE, "size");
    EXPECT_FAILS(cusparseCreateDnMat(&M, 5, 7, 6, d_val, CUDA_R_32F, CUSPARSE_ORDER_ROW),
                 CUSPARSE_STATUS_INVALID_VALUE, "ld");
    EXPECT_FAILS(cusparseCreateDnMat(&M, 5, 7, 4, d_val, CUDA_R_32F, CUSPARSE_ORDER_COL),
                 CUSPARSE_STATUS_INVALID_VALUE, "ld");
    EXPECT_FAILS(cusparseCreateDnMat(&M, 5, 7, 7, d_val, CUDA_R_32F, (cusparseOrder_t)0),
                 CUSPARSE_STATUS_INVALID_VALUE, "order");

    /* getters and setters on a live descriptor, then on a destroyed one */
    CHECK_SPARSE(cusparseCreateCsr(&A, 5, 6, 7, d_idx, d_idx + 8, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ONE, CUDA_R_32F));
    int64_t r, c, nnz;
    void *p0, *p1, *pv;
    cusparseIndexType_t t0, t1;
    cusparseIndexBase_t b;
    cudaDataType vt;
    cusparseFormat_t f;
    CHECK_SPARSE(cusparseSpMatGetSize(A, &r, &c, &nnz));
    cr_expect(r == 5 && c == 6 && nnz == 7);
    CHECK_SPARSE(cusparseSpMatGetFormat(A, &f));
    cr_expect_eq(f, CUSPARSE_FORMAT_CSR);
    CHECK_SPARSE(cusparseCsrSetPointers(A, d_idx + 1, d_idx + 9, d_val + 1));
    CHECK_SPARSE(cusparseCsrGet(A, &r, &c, &nnz, &p0, &p1, &pv, &t0, &t1, &b, &vt));
    cr_expect(p0 == d_idx + 1 && p1 == d_idx + 9 && pv == d_val + 1 && b == CUSPARSE_INDEX_BASE_ONE &&
              vt == CUDA_R_32F && t0 == CUSPARSE_INDEX_32I);
    EXPECT_FAILS(cusparseCooGet(A, &r, &c, &nnz, &p0, &p1, &pv, &t0, &b, &vt), CUSPARSE_STATUS_INVALID_VALUE,
                 "CSR");
    CHECK_SPARSE(cusparseDestroySpMat(A));
    EXPECT_FAILS(cusparseSpMatGetSize(A, &r, &c, &nnz), CUSPARSE_STATUS_INVALID_VALUE, "not a live");
    EXPECT_FAILS(cusparseDestroySpMat(A), CUSPARSE_STATUS_INVALID_VALUE, "not a live");
    CHECK_SPARSE(cusparseDestroySpMat(nullptr));

    /* the legacy descriptor records what it is told */
    cusparseMatDescr_t legacy;
    CHECK_SPARSE(cusparseCreateMatDescr(&legacy));
    cr_expect_eq(cusparseGetMatType(legacy), CUSPARSE_MATRIX_TYPE_GENERAL);
    cr_expect_eq(cusparseGetMatIndexBase(legacy), CUSPARSE_INDEX_BASE_ZERO);
    CHECK_SPARSE(cusparseSetMatType(legacy, CUSPARSE_MATRIX_TYPE_TRIANGULAR));
    CHECK_SPARSE(cusparseSetMatIndexBase(legacy, CUSPARSE_INDEX_BASE_ONE));
    CHECK_SPARSE(cusparseSetMatFillMode(legacy, CUSPARSE_FILL_MODE_UPPER));
    CHECK_SPARSE(cusparseSetMatDiagType(legacy, CUSPARSE_DIAG_TYPE_UNIT));
    cr_expect(cusparseGetMatType(legacy) == CUSPARSE_MATRIX_TYPE_TRIANGULAR &&
              cusparseGetMatIndexBase(legacy) == CUSPARSE_INDEX_BASE_ONE &&
              cusparseGetMatFillMode(legacy) == CUSPARSE_FILL_MODE_UPPER &&
              cusparseGetMatDiagType(legacy) == CUSPARSE_DIAG_TYPE_UNIT);
    EXPECT_FAILS(cusparseSetMatType(legacy, (cusparseMatrixType_t)9), CUSPARSE_STATUS_INVALID_VALUE, "type");
    CHECK_SPARSE(cusparseDestroyMatDescr(legacy));
    EXPECT_FAILS(cusparseSetMatIndexBase(legacy, CUSPARSE_INDEX_BASE_ZERO), CUSPARSE_STATUS_INVALID_VALUE,
                 "descrA");
    cudaFree(d_idx), cudaFree(d_val);
}

/* A 3 x 4 CSR matrix and vectors for the SpMV refusals. */
struct small_case {
    cusparseHandle_t h;
    int *offsets, *columns;
    float *values, *x, *y;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
};

static void make_small(small_case *s)
{
    const int offsets[] = {0, 2, 2, 4}, columns[] = {0, 3, 1, 2};
    const float values[] = {1, 2, 3, 4}, x[] = {1, 1, 1, 1}, y[] = {7, 7, 7, 7};
    CHECK_SPARSE(cusparseCreate(&s->h));
    CHECK_CUDA(cudaMalloc(&s->offsets, sizeof offsets));
    CHECK_CUDA(cudaMalloc(&s->columns, sizeof columns));
    CHECK_CUDA(cudaMalloc(&s->values, sizeof values));
    CHECK_CUDA(cudaMalloc(&s->x, sizeof x));
    CHECK_CUDA(cudaMalloc(&s->y, sizeof y));
    CHECK_CUDA(cudaMemcpy(s->offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(s->columns, columns, sizeof columns, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(s->values, values, sizeof values, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(s->x, x, sizeof x, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(s->y, y, sizeof y, cudaMemcpyHostToDevice));
    CHECK_SPARSE(cusparseCreateCsr(&s->A, 3, 4, 4, s->offsets, s->columns, s->values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&s->vx, 4, s->x, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&s->vy, 3, s->y, CUDA_R_32F));
}

static void expect_y_untouched(const small_case &s, const char *after)
{
    float y[4];
    CHECK_CUDA(cudaMemcpy(y, s.y, sizeof y, cudaMemcpyDeviceToHost));
    for (float v : y)
        cr_expect_eq(v, 7.0f, "y was written by a refused %s", after);
}

Test(cusparse, bad_spmv_arguments_are_refused_and_leave_y_alone)
{
    small_case s;
    make_small(&s);
    const float one = 1.0f, zero = 0.0f;
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vy, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "vecX");
    EXPECT_FAILS(cusparseSpMV(s.h, CUSPARSE_OPERATION_TRANSPOSE, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "vecX");
    EXPECT_FAILS(cusparseSpMV(s.h, (cusparseOperation_t)7, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "opA");
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "computeType");
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_COO_ALG1, nullptr),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "alg");
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, (cusparseSpMVAlg_t)99, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "alg");
    EXPECT_FAILS(cusparseSpMV(s.h, N, nullptr, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "alpha");
    EXPECT_FAILS(cusparseSpMV(s.h, N, s.x, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "CUSPARSE_POINTER_MODE_HOST");
    EXPECT_FAILS(cusparseSpMV_bufferSize(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                                         nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "bufferSize");
    EXPECT_FAILS(cusparseSpMV(nullptr, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_NOT_INITIALIZED, "handle");
    /* mixed value types */
    double *xd;
    cusparseDnVecDescr_t vxd;
    CHECK_CUDA(cudaMalloc(&xd, 4 * sizeof(double)));
    CHECK_SPARSE(cusparseCreateDnVec(&vxd, 4, xd, CUDA_R_64F));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, vxd, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "vecX");
    /* host memory where device memory must be */
    float host_x[4] = {1, 1, 1, 1};
    cusparseDnVecDescr_t vxh;
    CHECK_SPARSE(cusparseCreateDnVec(&vxh, 4, host_x, CUDA_R_32F));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, vxh, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "vecX's values");
    /* a descriptor that is gone */
    CHECK_SPARSE(cusparseDestroyDnVec(vxh));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, vxh, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "vecX");
    /* arrays shorter than the descriptor says: nnz 4 claimed as 40 */
    cusparseSpMatDescr_t big;
    CHECK_SPARSE(cusparseCreateCsr(&big, 3, 4, 40, s.offsets, s.columns, s.values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, big, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "csrColInd");
    cusparseDestroySpMat(big);
    /* sizes whose bytes overflow */
    CHECK_SPARSE(cusparseCreateCsr(&big, 3, 4, (int64_t)1 << 62, s.offsets, s.columns, s.values, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, big, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "more elements than any memory holds");
    cusparseDestroySpMat(big);
    expect_y_untouched(s, "call");

    /* a column index out of range, then offsets that decrease: found while
     * computing, and y is still not written */
    int bad_column = 4;
    CHECK_CUDA(cudaMemcpy(s.columns + 2, &bad_column, sizeof bad_column, cudaMemcpyHostToDevice));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "csrColInd[2] = 4");
    expect_y_untouched(s, "SpMV with a column out of range");
    const int bad_offsets[] = {0, 3, 2, 4}, good_columns[] = {0, 3, 1, 2};
    CHECK_CUDA(cudaMemcpy(s.columns, good_columns, sizeof good_columns, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(s.offsets, bad_offsets, sizeof bad_offsets, cudaMemcpyHostToDevice));
    EXPECT_FAILS(cusparseSpMV(s.h, N, &one, s.A, s.vx, &zero, s.vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "csrRowOffsets[2]");
    expect_y_untouched(s, "SpMV with decreasing offsets");

    cusparseDestroyDnVec(vxd), cudaFree(xd);
    cusparseDestroySpMat(s.A), cusparseDestroyDnVec(s.vx), cusparseDestroyDnVec(s.vy);
    cudaFree(s.offsets), cudaFree(s.columns), cudaFree(s.values), cudaFree(s.x), cudaFree(s.y);
    CHECK_SPARSE(cusparseDestroy(s.h));
}

Test(cusparse, bad_spmm_arguments_are_refused)
{
    small_case s;
    make_small(&s);
    const float one = 1.0f, zero = 0.0f;
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    float *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dB, 64 * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dC, 64 * sizeof(float)));
    cusparseDnMatDescr_t B, C, Cwrong;
    CHECK_SPARSE(cusparseCreateDnMat(&B, 4, 5, 5, dB, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_SPARSE(cusparseCreateDnMat(&C, 3, 5, 3, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_SPARSE(cusparseCreateDnMat(&Cwrong, 3, 4, 3, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
    size_t bytes = 99;
    CHECK_SPARSE(cusparseSpMM_bufferSize(s.h, N, N, &one, s.A, B, &zero, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                         &bytes));
    EXPECT_FAILS(cusparseSpMM(s.h, N, N, &one, s.A, B, &zero, Cwrong, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "matC");
    EXPECT_FAILS(cusparseSpMM(s.h, N, CUSPARSE_OPERATION_TRANSPOSE, &one, s.A, B, &zero, C, CUDA_R_32F,
                              CUSPARSE_SPMM_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "op(B)");
    EXPECT_FAILS(cusparseSpMM(s.h, N, (cusparseOperation_t)5, &one, s.A, B, &zero, C, CUDA_R_32F,
                              CUSPARSE_SPMM_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "opB");
    EXPECT_FAILS(cusparseSpMM(s.h, N, N, &one, s.A, B, &zero, C, CUDA_R_32F, CUSPARSE_SPMM_COO_ALG2, nullptr),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "alg");
    EXPECT_FAILS(cusparseSpMM(s.h, N, N, &one, s.A, B, &zero, C, CUDA_R_32F, CUSPARSE_SPMM_BLOCKED_ELL_ALG1, nullptr),
                 CUSPARSE_STATUS_NOT_SUPPORTED, "alg");
    cusparseDnMatDescr_t Chuge;
    CHECK_SPARSE(cusparseCreateDnMat(&Chuge, 3, 5, INT64_MAX / 2, dC, CUDA_R_32F, CUSPARSE_ORDER_COL));
    EXPECT_FAILS(cusparseSpMM(s.h, N, N, &one, s.A, B, &zero, Chuge, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "matC's values would span");
    cusparseDestroyDnMat(Chuge);
    cusparseDestroyDnMat(Cwrong);
    EXPECT_FAILS(cusparseSpMM(s.h, N, N, &one, s.A, B, &zero, Cwrong, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "matC");
    cusparseDestroyDnMat(B), cusparseDestroyDnMat(C), cudaFree(dB), cudaFree(dC);
    cusparseDestroySpMat(s.A), cusparseDestroyDnVec(s.vx), cusparseDestroyDnVec(s.vy);
    cudaFree(s.offsets), cudaFree(s.columns), cudaFree(s.values), cudaFree(s.x), cudaFree(s.y);
    CHECK_SPARSE(cusparseDestroy(s.h));
}

/* ---- a student's program, built with slcc -lcusparse ---------------------- */

#ifdef CUSPARSE_PROGRAM
Test(cusparse, slcc_builds_a_student_style_cusparse_program, .timeout = 280)
{
    check_slcc_program(SLCC_PATH, CUSPARSE_PROGRAM, "cusparse_program", test_seed(), {"-lcusparse"});
}

/* CUDA 11's algorithm names, which CUDA 12 removed: the build fails, as with
 * nvcc 13, and the message names the replacement. */
Test(cusparse, slcc_names_the_replacement_of_a_removed_algorithm_name, .timeout = 280)
{
    char dir[] = "/tmp/test_emu_cusparse.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp");
    const std::string src = std::string(dir) + "/old.cu", obj = std::string(dir) + "/old.o";
    FILE *f = std::fopen(src.c_str(), "w");
    cr_assert_not_null(f);
    std::fputs("#include <cusparse.h>\nint main() { return (int)CUSPARSE_MV_ALG_DEFAULT; }\n", f);
    std::fclose(f);
    std::string log;
    int rc = run_capturing({SLCC_PATH, "-c", src, "-o", obj}, &log);
    unlink(src.c_str());
    unlink(obj.c_str());
    rmdir(dir);
    cr_expect_neq(rc, 0, "a removed name compiled:\n%s", log.c_str());
    cr_expect(log.find("use_CUSPARSE_SPMV_ALG_DEFAULT") != std::string::npos, "no replacement named:\n%s",
              log.c_str());
}
#endif

/* ---- conversions -------------------------------------------------------- */

Test(cusparse, sparse_to_dense_every_format_order_and_value_type)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const entries e = random_entries(rng, 23, 17, 0.15);
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    int n = 0;
    for (cusparseFormat_t f : formats)
        for (int order = 1; order <= 2; ++order)
            for (int t = 0; t < 2; ++t, ++n) {
                const cudaDataType type = t ? CUDA_R_64F : CUDA_R_32F;
                device_sparse A;
                upload(e, f, n % 2 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I, (cusparseIndexBase_t)(n / 2 % 2), type,
                       &A, n % 3 == 0);
                const dense B0 = make_dense(rng, 23, 17, (cusparseOrder_t)order, false, type); /* NaN, sentinels */
                void *dB = to_device(as_bytes(B0.stored, type));
                cusparseDnMatDescr_t mB;
                CHECK_SPARSE(cusparseCreateDnMat(&mB, 23, 17, B0.ld, dB, type, (cusparseOrder_t)order));
                size_t bytes = 1;
                CHECK_SPARSE(cusparseSparseToDense_bufferSize(h, A.descr, mB, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bytes));
                CHECK_SPARSE(cusparseSparseToDense(h, A.descr, mB, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr));
                std::vector<double> got = from_bytes(to_host(dB, B0.stored.size() * (t ? 8 : 4)), type);
                std::vector<double> want(B0.stored);
                for (int64_t i = 0; i < 23; ++i)
                    for (int64_t j = 0; j < 17; ++j)
                        want[B0.at(i, j)] = 0.0;
                for (size_t k = 0; k < e.v.size(); ++k)
                    want[B0.at(e.r[k], e.c[k])] = rounded({e.v[k]}, type)[0];
                int wrong = 0;
                for (size_t i = 0; i < want.size(); ++i)
                    if (!(got[i] == want[i]) && wrong++ < 3)
                        cr_log_error("SparseToDense %s order %d type %d: element %zu is %g, want %g", format_name(f),
                                     order, t, i, got[i], want[i]);
                cr_expect_eq(wrong, 0);
                cusparseDestroyDnMat(mB), cudaFree(dB);
            }
    CHECK_SPARSE(cusparseDestroy(h));
}

Test(cusparse, dense_to_sparse_in_three_calls_every_format_base_and_index_type)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const int64_t rows = 19, cols = 29;
    const entries e = random_entries(rng, rows, cols, 0.2); /* the dense matrix's nonzeros, row 3 empty */
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    int n = 0;
    for (cusparseFormat_t f : formats)
        for (int base = 0; base < 2; ++base)
            for (int it = 0; it < 2; ++it, ++n) {
                const cudaDataType type = n % 2 ? CUDA_R_64F : CUDA_R_32F;
                const cusparseIndexType_t itype = it ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
                const cusparseOrder_t order = n % 3 ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
                dense A = make_dense(rng, rows, cols, order, true, type);
                for (int64_t i = 0; i < rows; ++i)
                    for (int64_t j = 0; j < cols; ++j)
                        A.stored[A.at(i, j)] = 0.0;
                for (size_t k = 0; k < e.v.size(); ++k)
                    A.stored[A.at(e.r[k], e.c[k])] = rounded({e.v[k]}, type)[0];
                void *dA = to_device(as_bytes(A.stored, type));
                cusparseDnMatDescr_t mA;
                CHECK_SPARSE(cusparseCreateDnMat(&mA, rows, cols, A.ld, dA, type, order));
                /* the expected arrays, in the format's order */
                device_sparse want;
                upload(e, f, itype, (cusparseIndexBase_t)base, type, &want);
                const size_t ib = it ? 8 : 4, vb = n % 2 ? 8 : 4, nnz = e.v.size();
                const size_t p0_count = f == CUSPARSE_FORMAT_COO ? nnz : (size_t)(f == CUSPARSE_FORMAT_CSR ? rows : cols) + 1;
                void *p0 = nullptr, *p1 = nullptr, *vals = nullptr;
                if (f != CUSPARSE_FORMAT_COO)
                    CHECK_CUDA(cudaMalloc(&p0, p0_count * ib));
                cusparseSpMatDescr_t B;
                if (f == CUSPARSE_FORMAT_CSR)
                    CHECK_SPARSE(cusparseCreateCsr(&B, rows, cols, 0, p0, nullptr, nullptr, itype, itype,
                                                   (cusparseIndexBase_t)base, type));
                else if (f == CUSPARSE_FORMAT_CSC)
                    CHECK_SPARSE(cusparseCreateCsc(&B, rows, cols, 0, p0, nullptr, nullptr, itype, itype,
                                                   (cusparseIndexBase_t)base, type));
                else
                    CHECK_SPARSE(cusparseCreateCoo(&B, rows, cols, 0, nullptr, nullptr, nullptr, itype,
                                                   (cusparseIndexBase_t)base, type));
                size_t bytes = 1;
                CHECK_SPARSE(cusparseDenseToSparse_bufferSize(h, mA, B, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &bytes));
                CHECK_SPARSE(cusparseDenseToSparse_analysis(h, mA, B, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
                int64_t r, c, got_nnz;
                CHECK_SPARSE(cusparseSpMatGetSize(B, &r, &c, &got_nnz));
                cr_expect_eq(got_nnz, (int64_t)nnz, "%s: nnz %lld, want %zu", format_name(f), (long long)got_nnz, nnz);
                EXPECT_FAILS(cusparseDenseToSparse_convert(h, mA, B, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr),
                             CUSPARSE_STATUS_INVALID_VALUE, "NULL"); /* no arrays given yet */
                if (f == CUSPARSE_FORMAT_COO)
                    CHECK_CUDA(cudaMalloc(&p0, nnz * ib));
                CHECK_CUDA(cudaMalloc(&p1, nnz * ib));
                CHECK_CUDA(cudaMalloc(&vals, nnz * vb));
                if (f == CUSPARSE_FORMAT_CSR)
                    CHECK_SPARSE(cusparseCsrSetPointers(B, p0, p1, vals));
                else if (f == CUSPARSE_FORMAT_CSC)
                    CHECK_SPARSE(cusparseCscSetPointers(B, p0, p1, vals));
                else
                    CHECK_SPARSE(cusparseCooSetPointers(B, p0, p1, vals));
                CHECK_SPARSE(cusparseDenseToSparse_convert(h, mA, B, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
                cr_expect(to_host(p0, p0_count * ib) == to_host(want.p0, p0_count * ib), "%s base %d %s: %s differ",
                          format_name(f), base, it ? "64I" : "32I", f == CUSPARSE_FORMAT_COO ? "row indices" : "offsets");
                cr_expect(to_host(p1, nnz * ib) == to_host(want.p1, nnz * ib), "%s base %d %s: indices differ",
                          format_name(f), base, it ? "64I" : "32I");
                cr_expect(to_host(vals, nnz * vb) == to_host(want.vals, nnz * vb), "%s base %d %s: values differ",
                          format_name(f), base, it ? "64I" : "32I");
                cusparseDestroySpMat(B), cusparseDestroyDnMat(mA);
                cudaFree(p0), cudaFree(p1), cudaFree(vals), cudaFree(dA);
            }
    CHECK_SPARSE(cusparseDestroy(h));
}

/* ---- SpSV ------------------------------------------------------------------ */

/* A random n x n matrix with entries in both triangles (the solve must use
 * only the one its fill mode names) and a diagonal of 4..5, so that the
 * substitution stays well conditioned; with a unit diagonal the stored
 * diagonal (4..5) must be ignored. */
static void check_spsv(cusparseHandle_t h, std::mt19937 &rng, int64_t n, cusparseFormat_t f, cusparseIndexType_t it,
                       cusparseIndexBase_t base, cudaDataType t, cusparseOperation_t op, cusparseFillMode_t fill,
                       cusparseDiagType_t diag)
{
    char what[200];
    std::snprintf(what, sizeof what, "SpSV %s n %lld, %s, base %d, %s, op %d, %s, %s", format_name(f), (long long)n,
                  it == CUSPARSE_INDEX_64I ? "64I" : "32I", (int)base, t == CUDA_R_64F ? "double" : "float", (int)op,
                  fill == CUSPARSE_FILL_MODE_LOWER ? "lower" : "upper", diag == CUSPARSE_DIAG_TYPE_UNIT ? "unit" : "non-unit");
    entries e = random_entries(rng, n, n, 0.08);
    { /* every diagonal entry present (rows 3, 10, ... are empty: give them one) */
        entries d{n, n, {}, {}, {}};
        for (size_t k = 0, i = 0; i < (size_t)n; ++i) {
            for (; k < e.v.size() && e.r[k] == (int64_t)i; ++k)
                if (e.c[k] != (int64_t)i)
                    d.r.push_back(e.r[k]), d.c.push_back(e.c[k]), d.v.push_back(e.v[k]);
            d.r.push_back((int64_t)i), d.c.push_back((int64_t)i),
                d.v.push_back(4.0 + std::uniform_real_distribution<double>(0.0, 1.0)(rng));
        }
        /* keep them sorted by row, then column */
        std::vector<size_t> order(d.v.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
            return d.r[x] != d.r[y] ? d.r[x] < d.r[y] : d.c[x] < d.c[y];
        });
        e = entries{n, n, {}, {}, {}};
        for (size_t k : order)
            e.r.push_back(d.r[k]), e.c.push_back(d.c[k]), e.v.push_back(d.v[k]);
    }
    device_sparse A;
    upload(e, f, it, base, t, &A, base == CUSPARSE_INDEX_BASE_ONE);
    CHECK_SPARSE(cusparseSpMatSetAttribute(A.descr, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    CHECK_SPARSE(cusparseSpMatSetAttribute(A.descr, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    std::vector<double> x = rounded(random_values(rng, (size_t)n), t), y0;
    void *dx = to_device(as_bytes(x, t));
    void *dy = poisoned_output(&y0, (size_t)n, false, t, rng);
    cusparseDnVecDescr_t vx, vy;
    CHECK_SPARSE(cusparseCreateDnVec(&vx, n, dx, t));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, n, dy, t));
    const double alpha = rounded({1.25}, t)[0];
    const float alpha_f = 1.25f;
    const void *pa = t == CUDA_R_64F ? (const void *)&alpha : (const void *)&alpha_f;
    cusparseSpSVDescr_t sv;
    CHECK_SPARSE(cusparseSpSV_createDescr(&sv));
    size_t bytes = 1;
    CHECK_SPARSE(cusparseSpSV_bufferSize(h, op, pa, A.descr, vx, vy, t, CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes));
    CHECK_SPARSE(cusparseSpSV_analysis(h, op, pa, A.descr, vx, vy, t, CUSPARSE_SPSV_ALG_DEFAULT, sv, nullptr));
    CHECK_SPARSE(cusparseSpSV_solve(h, op, pa, A.descr, vx, vy, t, CUSPARSE_SPSV_ALG_DEFAULT, sv));
    std::vector<double> got = from_bytes(to_host(dy, ((size_t)n + kPad) * (t == CUDA_R_64F ? 8 : 4)), t);

    /* the reference: op(A) as a dense matrix of the used triangle, solved in double */
    std::vector<double> M((size_t)(n * n), 0.0);
    for (size_t k = 0; k < e.v.size(); ++k) {
        const int64_t r = e.r[k], c = e.c[k];
        if (fill == CUSPARSE_FILL_MODE_LOWER ? c > r : c < r)
            continue;
        const int64_t i = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? r : c, j = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? c : r;
        M[(size_t)(i * n + j)] += rounded({e.v[k]}, t)[0];
    }
    const bool lower = (fill == CUSPARSE_FILL_MODE_LOWER) == (op == CUSPARSE_OPERATION_NON_TRANSPOSE);
    std::vector<double> want((size_t)n), scale((size_t)n);
    for (int64_t s = 0; s < n; ++s) {
        const int64_t i = lower ? s : n - 1 - s;
        double acc = alpha * x[(size_t)i], mag = std::fabs(acc);
        for (int64_t j = 0; j < n; ++j)
            if (j != i && M[(size_t)(i * n + j)] != 0.0)
                acc -= M[(size_t)(i * n + j)] * want[(size_t)j], mag += std::fabs(M[(size_t)(i * n + j)] * want[(size_t)j]);
        want[(size_t)i] = diag == CUSPARSE_DIAG_TYPE_UNIT ? acc : acc / M[(size_t)(i * n + i)];
        scale[(size_t)i] = 50.0 * (mag + std::fabs(want[(size_t)i])); /* room for the propagated rounding */
    }
    cr_expect_eq(count_wrong(what, got, want, scale, t), 0, "%s: wrong results", what);
    CHECK_SPARSE(cusparseSpSV_destroyDescr(sv));
    cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy);
    cudaFree(dx), cudaFree(dy);
}

Test(cusparse, spsv_every_fill_diagonal_op_format_and_value_type)
{
    std::mt19937 rng(test_seed());
    cusparseHandle_t h;
    CHECK_SPARSE(cusparseCreate(&h));
    const cusparseFormat_t formats[] = {CUSPARSE_FORMAT_CSR, CUSPARSE_FORMAT_CSC, CUSPARSE_FORMAT_COO};
    int n = 0;
    for (cusparseFormat_t f : formats)
        for (int op = 0; op < 2; ++op)
            for (int fill = 0; fill < 2; ++fill)
                for (int diag = 0; diag < 2; ++diag, ++n)
                    check_spsv(h, rng, n % 4 == 3 ? 1 : 53, f, n % 3 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I,
                               (cusparseIndexBase_t)(n / 2 % 2), n % 2 ? CUDA_R_64F : CUDA_R_32F,
                               (cusparseOperation_t)op, (cusparseFillMode_t)fill, (cusparseDiagType_t)diag);
    CHECK_SPARSE(cusparseDestroy(h));
}

Test(cusparse, spsv_and_attribute_refusals)
{
    small_case s; /* 3 x 4 */
    make_small(&s);
    const float one = 1.0f;
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    cusparseSpSVDescr_t sv;
    CHECK_SPARSE(cusparseSpSV_createDescr(&sv));
    EXPECT_FAILS(cusparseSpSV_analysis(s.h, N, &one, s.A, s.vx, s.vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, sv,
                                       nullptr),
                 CUSPARSE_STATUS_INVALID_VALUE, "square");
    /* a square 3 x 3 view of the same arrays (columns 0..2 only: column 3 is out of range) */
    cusparseSpMatDescr_t sq;
    CHECK_SPARSE(cusparseCreateCsr(&sq, 3, 3, 4, s.offsets, s.columns, s.values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    cusparseDnVecDescr_t v3;
    CHECK_SPARSE(cusparseCreateDnVec(&v3, 3, s.x, CUDA_R_32F));
    EXPECT_FAILS(cusparseSpSV_solve(s.h, N, &one, sq, v3, s.vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, sv),
                 CUSPARSE_STATUS_INVALID_VALUE, "cusparseSpSV_analysis");
    CHECK_SPARSE(cusparseSpSV_analysis(s.h, N, &one, sq, v3, s.vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, sv, nullptr));
    EXPECT_FAILS(cusparseSpSV_solve(s.h, CUSPARSE_OPERATION_TRANSPOSE, &one, sq, v3, s.vy, CUDA_R_32F,
                                    CUSPARSE_SPSV_ALG_DEFAULT, sv),
                 CUSPARSE_STATUS_INVALID_VALUE, "cusparseSpSV_analysis");
    EXPECT_FAILS(cusparseSpSV_solve(s.h, N, &one, sq, v3, s.vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, sv),
                 CUSPARSE_STATUS_INVALID_VALUE, "csrColInd[1] = 3");
    expect_y_untouched(s, "SpSV with a column out of range");
    EXPECT_FAILS(cusparseSpSV_solve(s.h, N, &one, sq, v3, s.vy, CUDA_R_32F, (cusparseSpSVAlg_t)3, sv),
                 CUSPARSE_STATUS_INVALID_VALUE, "alg");
    CHECK_SPARSE(cusparseSpSV_destroyDescr(sv));
    EXPECT_FAILS(cusparseSpSV_solve(s.h, N, &one, sq, v3, s.vy, CUDA_R_32F, CUSPARSE_SPSV_ALG_DEFAULT, sv),
                 CUSPARSE_STATUS_INVALID_VALUE, "spsvDescr");
    /* attributes */
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t diag;
    EXPECT_FAILS(cusparseSpMatSetAttribute(sq, CUSPARSE_SPMAT_FILL_MODE, &fill, 1), CUSPARSE_STATUS_INVALID_VALUE,
                 "dataSize");
    fill = (cusparseFillMode_t)7;
    EXPECT_FAILS(cusparseSpMatSetAttribute(sq, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
                 CUSPARSE_STATUS_INVALID_VALUE, "cusparseFillMode_t");
    EXPECT_FAILS(cusparseSpMatGetAttribute(sq, (cusparseSpMatAttribute_t)5, &diag, sizeof diag),
                 CUSPARSE_STATUS_INVALID_VALUE, "attribute");
    CHECK_SPARSE(cusparseSpMatGetAttribute(sq, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    cr_expect_eq(diag, CUSPARSE_DIAG_TYPE_NON_UNIT);
    cusparseDestroySpMat(sq), cusparseDestroyDnVec(v3);
    cusparseDestroySpMat(s.A), cusparseDestroyDnVec(s.vx), cusparseDestroyDnVec(s.vy);
    cudaFree(s.offsets), cudaFree(s.columns), cudaFree(s.values), cudaFree(s.x), cudaFree(s.y);
    CHECK_SPARSE(cusparseDestroy(s.h));
}
