/* simtlab CPU emulator — what libs/cusparse/cusparse.cpp (the handle and the
 * descriptors), libs/cusparse/products.cpp (SpMV, SpMM) and libs/cusparse/convert.cpp
 * (sparse <-> dense) share: the structs behind the handles, the checks with
 * their diagnostics, and the walk over a sparse matrix's entries. */
#ifndef SIMTLAB_EMU_CUSPARSE_INTERNAL_HPP
#define SIMTLAB_EMU_CUSPARSE_INTERNAL_HPP

#include "libs/common/library.hpp"
#include "runtime/internal.hpp"

#include <cusparse.h>

#include <cinttypes>
#include <cstddef>
#include <cstdint>

struct cusparseContext {
    cudaStream_t stream;
    cusparsePointerMode_t pointer_mode;
};

/* p0, p1: CSR row offsets and column indices; CSC column offsets and row
 * indices; COO row indices and column indices (p0_type == p1_type). */
struct cusparseSpMatDescr {
    cusparseFormat_t format;
    int64_t rows, cols, nnz;
    void *p0, *p1, *values;
    cusparseIndexType_t p0_type, p1_type;
    cusparseIndexBase_t base;
    cudaDataType type;
    /* cusparseSpMatSetAttribute's, for SpSV */
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
};

struct cusparseMatDescr {
    cusparseMatrixType_t type;
    cusparseFillMode_t fill;
    cusparseDiagType_t diag;
    cusparseIndexBase_t base;
};

struct cusparseDnVecDescr {
    int64_t size;
    void *values;
    cudaDataType type;
};

struct cusparseDnMatDescr {
    int64_t rows, cols, ld;
    void *values;
    cudaDataType type;
    cusparseOrder_t order;
};

namespace simtlab_emu {
namespace sparse {

/* Sets the diagnostic (printed on stderr) and returns status. */
using libs::fail; /* libs/common/library.hpp */
#define INVALID(...) ::simtlab_emu::sparse::fail(CUSPARSE_STATUS_INVALID_VALUE, __VA_ARGS__)
#define NOT_SUPPORTED(...) ::simtlab_emu::sparse::fail(CUSPARSE_STATUS_NOT_SUPPORTED, __VA_ARGS__)

inline std::uintptr_t addr(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }

/* A live handle in a usable context. */
cusparseStatus_t check_handle(cusparseHandle_t h, const char *api);
/* Live descriptors; `name` is the argument's name in diagnostics. */
cusparseStatus_t check_spmat(const void *d, const char *api, const char *name = "spMatDescr");
cusparseStatus_t check_dnvec(const void *d, const char *api, const char *name = "dnVecDescr");
cusparseStatus_t check_dnmat(const void *d, const char *api, const char *name = "dnMatDescr");

const char *type_name(cudaDataType t);
inline std::size_t value_bytes(cudaDataType t) { return t == CUDA_R_64F ? 8 : 4; }
inline std::size_t index_bytes(cusparseIndexType_t t) { return t == CUSPARSE_INDEX_64I ? 8 : 4; }
/* CUDA_R_32F or CUDA_R_64F, else NOT_SUPPORTED naming `name`. */
cusparseStatus_t check_value_type(cudaDataType t, const char *api, const char *name);

/* The names of a format's three arrays, for diagnostics. */
struct array_names {
    const char *p0, *p1, *values;
};
inline array_names names_of(cusparseFormat_t f)
{
    switch (f) {
    case CUSPARSE_FORMAT_CSR: return {"csrRowOffsets", "csrColInd", "csrValues"};
    case CUSPARSE_FORMAT_CSC: return {"cscColOffsets", "cscRowInd", "cscValues"};
    default: return {"cooRowInd", "cooColInd", "cooValues"};
    }
}

/* ---- what the computing calls share (defined in libs/cusparse/products.cpp) -- */

/* `count` elements of `bytes` each at p, inside one device allocation; a
 * count below 0 is one that overflowed (sizes no memory holds). */
cusparseStatus_t check_array(const void *p, int64_t count, std::size_t bytes, const char *api, const char *owner,
                             const char *name);
/* The three arrays of A, as long as its sizes say. */
cusparseStatus_t check_sparse_memory(const cusparseSpMatDescr &A, const char *api, const char *owner);
/* Elements a dense matrix spans; -1 if that overflows. */
int64_t dense_extent(const cusparseDnMatDescr &M);
bool valid_op(cusparseOperation_t op);
/* computeType and the three operands' types: one of CUDA_R_32F, CUDA_R_64F. */
cusparseStatus_t check_compute_types(const char *api, cudaDataType compute, cudaDataType a, const char *second,
                                     cudaDataType t2, const char *third, cudaDataType t3);

/* A scalar (alpha, beta) as the pointer mode says: host mode, a host
 * variable (or managed memory), read now; device mode, device memory, read
 * when the product runs. */
struct scalar {
    const void *device; /* device mode: where to read it */
    double host;        /* host mode: its value */
};

cusparseStatus_t take_scalar(const void *p, cudaDataType t, cusparsePointerMode_t mode, const char *api,
                             const char *name, scalar *out);

template <class V>
V read_scalar(const scalar &s)
{
    return s.device ? *static_cast<const V *>(s.device) : static_cast<V>(s.host);
}

/* Calls f(row, col, value) for each stored entry of A (memory open),
 * checking every offset and index first; a bad one sets the diagnostic and
 * returns INVALID_VALUE (f may have been called for earlier entries). */
template <class O, class I, class V, class F>
cusparseStatus_t each_entry(const cusparseSpMatDescr &A, const char *api, const char *owner, F &&f)
{
    const O *p0 = static_cast<const O *>(A.p0);
    const I *p1 = static_cast<const I *>(A.p1);
    const V *val = static_cast<const V *>(A.values);
    const int64_t base = A.base;
    const array_names n = names_of(A.format);
    if (A.format == CUSPARSE_FORMAT_COO) {
        for (int64_t k = 0; k < A.nnz; ++k) {
            const int64_t r = static_cast<int64_t>(p0[k]) - base, c = static_cast<int64_t>(p1[k]) - base;
            if (r < 0 || r >= A.rows)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64
                               " rows (index base %d)",
                               api, owner, n.p0, k, r + base, A.rows, A.base);
            if (c < 0 || c >= A.cols)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64
                               " columns (index base %d)",
                               api, owner, n.p1, k, c + base, A.cols, A.base);
            f(r, c, val[k]);
        }
        return CUSPARSE_STATUS_SUCCESS;
    }
    const bool csr = A.format == CUSPARSE_FORMAT_CSR;
    const int64_t outer = csr ? A.rows : A.cols, inner = csr ? A.cols : A.rows;
    const char *inner_what = csr ? "columns" : "rows";
    if (static_cast<int64_t>(p0[0]) != base)
        return INVALID("%s: %s's %s[0] is %" PRId64 ", but must be the index base %d", api, owner, n.p0,
                       static_cast<int64_t>(p0[0]), A.base);
    for (int64_t o = 0; o < outer; ++o) {
        const int64_t begin = static_cast<int64_t>(p0[o]) - base, end = static_cast<int64_t>(p0[o + 1]) - base;
        if (end < begin || end > A.nnz)
            return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " after %" PRId64
                           ": offsets must not decrease nor pass nnz = %" PRId64 " (index base %d)",
                           api, owner, n.p0, o + 1, end + base, begin + base, A.nnz, A.base);
        for (int64_t k = begin; k < end; ++k) {
            const int64_t i = static_cast<int64_t>(p1[k]) - base;
            if (i < 0 || i >= inner)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64 " %s (index base %d)",
                               api, owner, n.p1, k, i + base, inner, inner_what, A.base);
            if (csr)
                f(o, i, val[k]);
            else
                f(i, o, val[k]);
        }
    }
    return CUSPARSE_STATUS_SUCCESS;
}

template <class V, class F>
cusparseStatus_t visit(const cusparseSpMatDescr &A, const char *api, const char *owner, F &&f)
{
    const bool o64 = A.p0_type == CUSPARSE_INDEX_64I;
    const bool i64 = (A.format == CUSPARSE_FORMAT_COO ? A.p0_type : A.p1_type) == CUSPARSE_INDEX_64I;
    if (o64)
        return i64 ? each_entry<int64_t, int64_t, V>(A, api, owner, f) : each_entry<int64_t, int32_t, V>(A, api, owner, f);
    return i64 ? each_entry<int32_t, int64_t, V>(A, api, owner, f) : each_entry<int32_t, int32_t, V>(A, api, owner, f);
}

/* Opens every device allocation for one product (as a launch does) and
 * closes them again; a canary overwritten past an allocation's end (by
 * earlier host code) is reported as a launch would report it. */
struct open_all {
    open_all() { device_memory_open(); }
    ~open_all() { (void)device_memory_close(); }
};

/* Runs a checked product now, or adds it to the graph the stream is being
 * captured into. */
template <class Job>
cusparseStatus_t run_in_stream(cudaStream_t stream, const Job &job, cudaDataType type,
                               cusparseStatus_t (*run32)(const Job &), cusparseStatus_t (*run64)(const Job &))
{
    auto run = type == CUDA_R_64F ? run64 : run32;
    if (!runtime::stream_capturing(stream))
        return run(job);
    cudaError_t e = runtime::capture(stream, [job, run](cudaStream_t) {
        cusparseStatus_t st = run(job);
        return st == CUSPARSE_STATUS_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
    });
    return e == cudaSuccess ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_EXECUTION_FAILED;
}

} /* namespace sparse */
} /* namespace simtlab_emu */

#endif
