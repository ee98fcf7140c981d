/* simtlab CPU emulator — what cusparse.cpp (the handle and the
 * descriptors) and cusparse_products.cpp (SpMV, SpMM) share: the structs
 * behind the handles, and the checks with their diagnostics. */
#ifndef SIMTLAB_EMU_CUSPARSE_INTERNAL_HPP
#define SIMTLAB_EMU_CUSPARSE_INTERNAL_HPP

#include <cusparse.h>

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
cusparseStatus_t fail(cusparseStatus_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

} /* namespace sparse */
} /* namespace simtlab_emu */

#endif
