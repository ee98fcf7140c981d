/* simtlab CPU emulator — cuBLASLt's matmul on the host's OpenBLAS.
 *
 * Descriptors live in the toolkit-sized opaque structs of cublasLt.h; each
 * one made by a ...Create or ...Init call is registered, so that a pointer
 * that is not one is rejected without being read. Attributes are stored as
 * given and checked in one place, check_problem(), which both the
 * heuristic and the matmul call: what cuBLASLt rejects is
 * CUBLAS_STATUS_INVALID_VALUE, what cuBLASLt runs but the emulator does not
 * is CUBLAS_STATUS_NOT_SUPPORTED, each with a diagnostic naming it.
 *
 * The matmul gathers each batch's A, B and C into packed float matrices
 * (device memory is opened only for those copies), multiplies with
 * cblas_sgemm, applies beta C, the bias and the epilogue in double, and
 * rounds each output element once to its type. GELU is the tanh form
 * cuBLASLt uses.
 */
#include "libs/common/library.hpp"
#include "libs/cublas/internal.hpp"
#include "runtime/internal.hpp"

#include <cublasLt.h>

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstring>
#include <new>
#include <vector>

struct cublasLtContext {
    uint32_t magic;
};

namespace simtlab_emu {
namespace {

using namespace blas;

/* ---- registered objects ------------------------------------------------ */

libs::handle_registry<const void *> objects; /* handles and descriptors */

enum : uint32_t {
    handle_magic = 0x48616e4fu,
    layout_magic = 0x4c61794fu,
    desc_magic = 0x4465734fu,
    pref_magic = 0x5072664fu
};

struct layout {
    uint32_t magic;
    bool owned; /* made by Create, freed by Destroy */
    uint32_t type;
    int32_t order;
    int32_t batch_count;
    uint32_t batch_mode;
    uint64_t rows, cols;
    int64_t ld;
    int64_t batch_stride;
    int64_t plane_offset;
};

/* The FP8 scaling attributes: pointers and modes that must stay unset. */
const cublasLtMatmulDescAttributes_t scale_pointer_attrs[] = {
    CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,           CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
    CUBLASLT_MATMUL_DESC_C_SCALE_POINTER,           CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
    CUBLASLT_MATMUL_DESC_AMAX_D_POINTER,            CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER};
const cublasLtMatmulDescAttributes_t scale_mode_attrs[] = {
    CUBLASLT_MATMUL_DESC_A_SCALE_MODE, CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
    CUBLASLT_MATMUL_DESC_C_SCALE_MODE, CUBLASLT_MATMUL_DESC_D_SCALE_MODE,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE};
constexpr int n_scale_pointers = sizeof scale_pointer_attrs / sizeof scale_pointer_attrs[0];
constexpr int n_scale_modes = sizeof scale_mode_attrs / sizeof scale_mode_attrs[0];

struct matmul_desc {
    uint32_t magic;
    bool owned;
    int8_t fast_accum;
    int32_t compute_type, scale_type, pointer_mode;
    int32_t transa, transb, transc, fill_mode;
    uint32_t epilogue;
    int32_t sm_count_target;
    int32_t bias_data_type, aux_data_type; /* -1: D's type */
    int32_t scale_modes[n_scale_modes];
    const void *bias;
    void *aux;
    int64_t bias_batch_stride, aux_ld, aux_batch_stride, alpha_vector_batch_stride;
    const void *scale_pointers[n_scale_pointers];
};

struct preference {
    uint32_t magic;
    bool owned;
    uint32_t search_mode, reduction_mask;
    uint32_t min_alignment[4];
    float max_waves;
    uint64_t max_workspace, impl_mask;
};

static_assert(sizeof(layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout fits the toolkit's opaque size");
static_assert(sizeof(matmul_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "descriptor fits");
static_assert(sizeof(preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "preference fits");

/* False when memory is short (the object is not registered). */
bool remember(const void *p) { return objects.add(p); }

bool forget(const void *p) { return objects.remove(p); }

/* The object behind p, or nullptr with a diagnostic: p must be registered
 * (so that it can be read) and carry the magic of its kind. */
template <class T> T *lookup(const void *p, uint32_t magic, const char *api, const char *name, const char *kind)
{
    const bool known = objects.is_live(p);
    T *obj = known ? static_cast<T *>(const_cast<void *>(p)) : nullptr;
    if (!obj || obj->magic != magic) {
        runtime::diagnose("%s: %s 0x%" PRIxPTR " is not a live %s (make it with its Create or Init call; "
                          "it may have been destroyed)",
                          api, name, reinterpret_cast<std::uintptr_t>(p), kind);
        return nullptr;
    }
    return obj;
}

layout *get_layout(cublasLtMatrixLayout_t p, const char *api, const char *name)
{
    return lookup<layout>(p, layout_magic, api, name, "cublasLtMatrixLayout_t");
}

matmul_desc *get_desc(cublasLtMatmulDesc_t p, const char *api)
{
    return lookup<matmul_desc>(p, desc_magic, api, "the matmul descriptor", "cublasLtMatmulDesc_t");
}

preference *get_pref(cublasLtMatmulPreference_t p, const char *api)
{
    return lookup<preference>(p, pref_magic, api, "the preference", "cublasLtMatmulPreference_t");
}

cublasStatus_t check_handle(cublasLtHandle_t h, const char *api)
{
    const bool live = objects.is_live_and(h, [h](const void *) { return h->magic == handle_magic; });
    if (!live) {
        runtime::diagnose("%s: handle 0x%" PRIxPTR " is not a live cuBLASLt handle (call cublasLtCreate first)", api,
                          reinterpret_cast<std::uintptr_t>(h));
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if (cudaError_t e = sticky_error()) {
        runtime::diagnose("%s: the CUDA context is poisoned by an earlier %s", api, cudaGetErrorName(e));
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- attributes -------------------------------------------------------- */

/* Where an attribute lives and its size in bytes. */
struct field {
    void *at;
    std::size_t size;
};

template <class T> field field_of(T &x)
{
    return {&x, sizeof x};
}

bool layout_field(layout &l, cublasLtMatrixLayoutAttribute_t attr, field *f)
{
    switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_TYPE: *f = field_of(l.type); return true;
    case CUBLASLT_MATRIX_LAYOUT_ORDER: *f = field_of(l.order); return true;
    case CUBLASLT_MATRIX_LAYOUT_ROWS: *f = field_of(l.rows); return true;
    case CUBLASLT_MATRIX_LAYOUT_COLS: *f = field_of(l.cols); return true;
    case CUBLASLT_MATRIX_LAYOUT_LD: *f = field_of(l.ld); return true;
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: *f = field_of(l.batch_count); return true;
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: *f = field_of(l.batch_stride); return true;
    case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET: *f = field_of(l.plane_offset); return true;
    case CUBLASLT_MATRIX_LAYOUT_BATCH_MODE: *f = field_of(l.batch_mode); return true;
    }
    return false;
}

bool desc_field(matmul_desc &d, cublasLtMatmulDescAttributes_t attr, field *f)
{
    for (int i = 0; i < n_scale_pointers; ++i)
        if (attr == scale_pointer_attrs[i]) {
            *f = field_of(d.scale_pointers[i]);
            return true;
        }
    for (int i = 0; i < n_scale_modes; ++i)
        if (attr == scale_mode_attrs[i]) {
            *f = field_of(d.scale_modes[i]);
            return true;
        }
    switch (attr) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: *f = field_of(d.compute_type); return true;
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE: *f = field_of(d.scale_type); return true;
    case CUBLASLT_MATMUL_DESC_POINTER_MODE: *f = field_of(d.pointer_mode); return true;
    case CUBLASLT_MATMUL_DESC_TRANSA: *f = field_of(d.transa); return true;
    case CUBLASLT_MATMUL_DESC_TRANSB: *f = field_of(d.transb); return true;
    case CUBLASLT_MATMUL_DESC_TRANSC: *f = field_of(d.transc); return true;
    case CUBLASLT_MATMUL_DESC_FILL_MODE: *f = field_of(d.fill_mode); return true;
    case CUBLASLT_MATMUL_DESC_EPILOGUE: *f = field_of(d.epilogue); return true;
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: *f = field_of(d.bias); return true;
    case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE: *f = field_of(d.bias_batch_stride); return true;
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: *f = field_of(d.aux); return true;
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD: *f = field_of(d.aux_ld); return true;
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE: *f = field_of(d.aux_batch_stride); return true;
    case CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE: *f = field_of(d.alpha_vector_batch_stride); return true;
    case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET: *f = field_of(d.sm_count_target); return true;
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: *f = field_of(d.aux_data_type); return true;
    case CUBLASLT_MATMUL_DESC_FAST_ACCUM: *f = field_of(d.fast_accum); return true;
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: *f = field_of(d.bias_data_type); return true;
    default: return false;
    }
}

bool pref_field(preference &p, cublasLtMatmulPreferenceAttributes_t attr, field *f)
{
    switch (attr) {
    case CUBLASLT_MATMUL_PREF_SEARCH_MODE: *f = field_of(p.search_mode); return true;
    case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: *f = field_of(p.max_workspace); return true;
    case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK: *f = field_of(p.reduction_mask); return true;
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES: *f = field_of(p.min_alignment[0]); return true;
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES: *f = field_of(p.min_alignment[1]); return true;
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES: *f = field_of(p.min_alignment[2]); return true;
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES: *f = field_of(p.min_alignment[3]); return true;
    case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT: *f = field_of(p.max_waves); return true;
    case CUBLASLT_MATMUL_PREF_IMPL_MASK: *f = field_of(p.impl_mask); return true;
    }
    return false;
}

/* The Set and Get of every descriptor kind: the size must be the
 * attribute's own, as cuBLASLt requires. */
cublasStatus_t set_field(const char *api, bool found, int attr, const field &f, const void *buf, std::size_t size)
{
    if (!found)
        return invalid("%s: %d is not an attribute the emulator knows", api, attr);
    if (!buf)
        return invalid("%s: buf is NULL (attribute %d)", api, attr);
    if (size != f.size)
        return invalid("%s: attribute %d takes %zu bytes, sizeInBytes is %zu", api, attr, f.size, size);
    std::memcpy(f.at, buf, f.size);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t get_field(const char *api, bool found, int attr, const field &f, void *buf, std::size_t size,
                         std::size_t *written)
{
    if (!found)
        return invalid("%s: %d is not an attribute the emulator knows", api, attr);
    if (size == 0 && written) { /* a query of the size */
        *written = f.size;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || size < f.size)
        return invalid("%s: attribute %d needs a buffer of %zu bytes (buf %s, sizeInBytes %zu)", api, attr, f.size,
                       buf ? "given" : "NULL", size);
    std::memcpy(buf, f.at, f.size);
    if (written)
        *written = f.size;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- the problem ------------------------------------------------------- */

const char *type_name(uint32_t t)
{
    switch (t) {
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_8I: return "CUDA_R_8I";
    case CUDA_R_32I: return "CUDA_R_32I";
    case 28: return "CUDA_R_8F_E4M3";
    case 29: return "CUDA_R_8F_E5M2";
    default: return "this type";
    }
}

bool float_type(uint32_t t)
{
    return t == CUDA_R_32F || t == CUDA_R_16F || t == CUDA_R_16BF;
}

/* The epilogue's parts. */
enum : unsigned {
    ep_bias = 1,       /* add the bias vector (input) */
    ep_relu = 2,
    ep_gelu = 4,
    ep_aux_out = 8,    /* store the GELU input */
    ep_dgelu = 16,     /* multiply by GELU'(aux input) */
    ep_bgrad_d = 32,   /* bias gradient: row sums of D */
    ep_bgrad_a = 64,   /* row sums of op(A) */
    ep_bgrad_b = 128   /* column sums of op(B) */
};

struct epilogue_info {
    cublasLtEpilogue_t id;
    const char *name;
    unsigned parts; /* 0: not supported by the emulator */
};

const epilogue_info epilogues[] = {
    {CUBLASLT_EPILOGUE_DEFAULT, "CUBLASLT_EPILOGUE_DEFAULT", 0x100},
    {CUBLASLT_EPILOGUE_RELU, "CUBLASLT_EPILOGUE_RELU", ep_relu},
    {CUBLASLT_EPILOGUE_RELU_AUX, "CUBLASLT_EPILOGUE_RELU_AUX", 0},
    {CUBLASLT_EPILOGUE_BIAS, "CUBLASLT_EPILOGUE_BIAS", ep_bias},
    {CUBLASLT_EPILOGUE_RELU_BIAS, "CUBLASLT_EPILOGUE_RELU_BIAS", ep_bias | ep_relu},
    {CUBLASLT_EPILOGUE_RELU_AUX_BIAS, "CUBLASLT_EPILOGUE_RELU_AUX_BIAS", 0},
    {CUBLASLT_EPILOGUE_DRELU, "CUBLASLT_EPILOGUE_DRELU", 0},
    {CUBLASLT_EPILOGUE_DRELU_BGRAD, "CUBLASLT_EPILOGUE_DRELU_BGRAD", 0},
    {CUBLASLT_EPILOGUE_GELU, "CUBLASLT_EPILOGUE_GELU", ep_gelu},
    {CUBLASLT_EPILOGUE_GELU_AUX, "CUBLASLT_EPILOGUE_GELU_AUX", ep_gelu | ep_aux_out},
    {CUBLASLT_EPILOGUE_GELU_BIAS, "CUBLASLT_EPILOGUE_GELU_BIAS", ep_bias | ep_gelu},
    {CUBLASLT_EPILOGUE_GELU_AUX_BIAS, "CUBLASLT_EPILOGUE_GELU_AUX_BIAS", ep_bias | ep_gelu | ep_aux_out},
    {CUBLASLT_EPILOGUE_DGELU, "CUBLASLT_EPILOGUE_DGELU", ep_dgelu},
    {CUBLASLT_EPILOGUE_DGELU_BGRAD, "CUBLASLT_EPILOGUE_DGELU_BGRAD", ep_dgelu | ep_bgrad_d},
    {CUBLASLT_EPILOGUE_BGRADA, "CUBLASLT_EPILOGUE_BGRADA", ep_bgrad_a},
    {CUBLASLT_EPILOGUE_BGRADB, "CUBLASLT_EPILOGUE_BGRADB", ep_bgrad_b},
};

/* Everything cublasLtMatmul needs, checked. */
/* What a matmul computes in (the compute type's family). */
enum class lt_kind { f32, f16, f64 };

lt_kind kind_of(int32_t compute)
{
    if (compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC)
        return lt_kind::f16;
    if (compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC)
        return lt_kind::f64;
    return lt_kind::f32;
}

struct problem {
    lt_kind kind;
    cublasOperation_t transa, transb;
    int m, n, k, batch;
    const layout *a, *b, *c, *d;
    unsigned parts;
    cudaDataType bias_type, aux_type;
    int bias_length; /* of the bias or the bias gradient; 0: none */
};

/* Elements a layout's one matrix spans (0 when it is empty). */
std::size_t layout_extent(const layout &l)
{
    if (l.rows == 0 || l.cols == 0)
        return 0;
    return l.order == CUBLASLT_ORDER_COL ? matrix_extent(static_cast<int>(l.rows), static_cast<int>(l.cols),
                                                         static_cast<int>(l.ld))
                                         : matrix_extent(static_cast<int>(l.cols), static_cast<int>(l.rows),
                                                         static_cast<int>(l.ld));
}

std::size_t layout_index(const layout &l, int i, int j)
{
    return l.order == CUBLASLT_ORDER_COL ? static_cast<std::size_t>(j) * l.ld + i
                                         : static_cast<std::size_t>(i) * l.ld + j;
}

cublasStatus_t check_layout(const char *api, const char *name, const layout &l)
{
    if (!float_type(l.type) && l.type != CUDA_R_64F)
        return not_supported("%s: %s has type %s (%u); the emulator supports CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF and "
                             "CUDA_R_64F",
                             api, name, type_name(l.type), l.type);
    if (l.order != CUBLASLT_ORDER_COL && l.order != CUBLASLT_ORDER_ROW)
        return not_supported("%s: %s has order %d; the emulator supports CUBLASLT_ORDER_COL and CUBLASLT_ORDER_ROW",
                             api, name, l.order);
    if (l.batch_mode != CUBLASLT_BATCH_MODE_STRIDED)
        return not_supported("%s: %s uses CUBLASLT_BATCH_MODE_POINTER_ARRAY; the emulator supports strided batches "
                             "only",
                             api, name);
    if (l.plane_offset != 0)
        return not_supported("%s: %s has a plane offset (planar complex); not supported by the emulator", api, name);
    if (l.rows > INT_MAX || l.cols > INT_MAX || l.ld > INT_MAX)
        return not_supported("%s: %s is %" PRIu64 " x %" PRIu64 " with ld %" PRId64
                             "; the emulator supports sizes up to INT_MAX",
                             api, name, l.rows, l.cols, l.ld);
    uint64_t inner = l.order == CUBLASLT_ORDER_COL ? l.rows : l.cols;
    if (l.ld < 1 || static_cast<uint64_t>(l.ld) < inner)
        return invalid("%s: %s's ld %" PRId64 " is less than its %" PRIu64 " %s (%s)", api, name, l.ld, inner,
                       l.order == CUBLASLT_ORDER_COL ? "rows" : "columns",
                       l.order == CUBLASLT_ORDER_COL ? "column-major" : "row-major");
    if (l.batch_count < 1)
        return invalid("%s: %s's batch count is %d; it must be at least 1", api, name, l.batch_count);
    if (l.batch_stride < 0)
        return not_supported("%s: %s's batch stride is %" PRId64 "; the emulator needs strides >= 0", api, name,
                             l.batch_stride);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t check_desc(const char *api, const matmul_desc &d, const epilogue_info **ep)
{
    const lt_kind kind = kind_of(d.compute_type);
    if (kind == lt_kind::f32 && !float_compute(static_cast<cublasComputeType_t>(d.compute_type)))
        return not_supported("%s: compute type %d is not supported by the emulator: it computes CUBLAS_COMPUTE_32F "
                             "and its _PEDANTIC, _FAST_16F, _FAST_16BF and _FAST_TF32 variants in float, "
                             "CUBLAS_COMPUTE_16F (and _PEDANTIC) in float rounded once to half, and "
                             "CUBLAS_COMPUTE_64F (and _PEDANTIC)",
                             api, d.compute_type);
    const int32_t scale = kind == lt_kind::f16 ? CUDA_R_16F : kind == lt_kind::f64 ? CUDA_R_64F : CUDA_R_32F;
    if (d.scale_type != scale)
        return not_supported("%s: scale type %s (%d) with compute type %d: the emulator supports %s alpha and beta "
                             "with it",
                             api, type_name(static_cast<uint32_t>(d.scale_type)), d.scale_type, d.compute_type,
                             type_name(static_cast<uint32_t>(scale)));
    if (d.pointer_mode != CUBLASLT_POINTER_MODE_HOST && d.pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
        return not_supported("%s: pointer mode %d: the emulator supports CUBLASLT_POINTER_MODE_HOST and _DEVICE", api,
                             d.pointer_mode);
    if (!valid_op(static_cast<cublasOperation_t>(d.transa)) || !valid_op(static_cast<cublasOperation_t>(d.transb)))
        return invalid("%s: CUBLASLT_MATMUL_DESC_TRANSA/TRANSB must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C "
                       "(got %d, %d)",
                       api, d.transa, d.transb);
    if (d.transc != CUBLAS_OP_N)
        return not_supported("%s: CUBLASLT_MATMUL_DESC_TRANSC %d: only CUBLAS_OP_N is supported", api, d.transc);
    if (d.fill_mode != CUBLAS_FILL_MODE_FULL)
        return not_supported("%s: CUBLASLT_MATMUL_DESC_FILL_MODE %d: only CUBLAS_FILL_MODE_FULL is supported", api,
                             d.fill_mode);
    for (int i = 0; i < n_scale_pointers; ++i)
        if (d.scale_pointers[i])
            return not_supported("%s: matmul descriptor attribute %d (an FP8 scale or amax pointer) is set; the "
                                 "emulator does not scale",
                                 api, static_cast<int>(scale_pointer_attrs[i]));
    for (int i = 0; i < n_scale_modes; ++i)
        if (d.scale_modes[i])
            return not_supported("%s: matmul descriptor attribute %d (a scale mode) is %d; the emulator supports 0",
                                 api, static_cast<int>(scale_mode_attrs[i]), d.scale_modes[i]);
    *ep = nullptr;
    for (const epilogue_info &e : epilogues)
        if (static_cast<uint32_t>(e.id) == d.epilogue)
            *ep = &e;
    if (!*ep)
        return invalid("%s: %u is not a cublasLtEpilogue_t", api, d.epilogue);
    if (!(*ep)->parts)
        return not_supported("%s: %s (a ReLU bit-mask epilogue) is not supported by the emulator", api,
                             (*ep)->name);
    return CUBLAS_STATUS_SUCCESS;
}

/* The type of the bias or aux vector: the attribute, or D's type. */
cublasStatus_t vector_type(const char *api, const char *what, int32_t attr, uint32_t d_type, cudaDataType *out)
{
    uint32_t t = attr == -1 ? d_type : static_cast<uint32_t>(attr);
    if (t == CUDA_R_64F && d_type == CUDA_R_64F) { /* with CUBLAS_COMPUTE_64F */
        *out = CUDA_R_64F;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!float_type(t))
        return not_supported("%s: %s type %s (%d): the emulator supports CUDA_R_32F, CUDA_R_16F and CUDA_R_16BF", api,
                             what, type_name(t), attr);
    *out = static_cast<cudaDataType>(t);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t check_epilogue_operands(const char *api, const matmul_desc &d, const epilogue_info &ep, problem *p)
{
    unsigned parts = ep.parts;
    if (parts & (ep_bias | ep_bgrad_d | ep_bgrad_a | ep_bgrad_b)) {
        if (!d.bias)
            return invalid("%s: %s needs CUBLASLT_MATMUL_DESC_BIAS_POINTER, which is NULL", api, ep.name);
        if (cublasStatus_t st = vector_type(api, "the bias", d.bias_data_type, p->d->type, &p->bias_type))
            return st;
        p->bias_length = (parts & ep_bgrad_b) ? p->n : p->m;
        if (d.bias_batch_stride < 0)
            return not_supported("%s: bias batch stride %" PRId64 ": the emulator needs strides >= 0", api,
                                 d.bias_batch_stride);
    }
    if (parts & (ep_aux_out | ep_dgelu)) {
        if (!d.aux)
            return invalid("%s: %s needs CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, which is NULL", api, ep.name);
        if (d.aux_ld < p->m || d.aux_ld % 8 != 0)
            return invalid("%s: %s: CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD %" PRId64
                           " must be a multiple of 8 and at least the %d rows of D",
                           api, ep.name, d.aux_ld, p->m);
        if (d.aux_ld > INT_MAX || d.aux_batch_stride < 0)
            return not_supported("%s: aux ld %" PRId64 ", batch stride %" PRId64 ": not supported by the emulator",
                                 api, d.aux_ld, d.aux_batch_stride);
        if (cublasStatus_t st = vector_type(api, "the epilogue aux", d.aux_data_type, p->d->type, &p->aux_type))
            return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Shapes as cuBLASLt defines them: D is m x n, op(A) m x k, op(B) k x n. */
cublasStatus_t check_shapes(const char *api, problem *p)
{
    const layout &A = *p->a, &B = *p->b, &C = *p->c, &D = *p->d;
    p->m = static_cast<int>(D.rows);
    p->n = static_cast<int>(D.cols);
    bool ta = p->transa != CUBLAS_OP_N, tb = p->transb != CUBLAS_OP_N;
    p->k = static_cast<int>(ta ? A.rows : A.cols);
    uint64_t a_m = ta ? A.cols : A.rows;
    uint64_t b_k = tb ? B.cols : B.rows, b_n = tb ? B.rows : B.cols;
    if (a_m != D.rows)
        return invalid("%s: op(A) has %" PRIu64 " rows but D has %" PRIu64, api, a_m, D.rows);
    if (b_k != static_cast<uint64_t>(p->k))
        return invalid("%s: op(A) is %" PRIu64 " x %d but op(B) has %" PRIu64 " rows", api, a_m, p->k, b_k);
    if (b_n != D.cols)
        return invalid("%s: op(B) has %" PRIu64 " columns but D has %" PRIu64, api, b_n, D.cols);
    if (C.rows != D.rows || C.cols != D.cols)
        return invalid("%s: C is %" PRIu64 " x %" PRIu64 " but D is %" PRIu64 " x %" PRIu64, api, C.rows, C.cols,
                       D.rows, D.cols);
    if (p->kind != lt_kind::f32) {
        const uint32_t t = p->kind == lt_kind::f16 ? CUDA_R_16F : CUDA_R_64F;
        if (A.type != t || B.type != t || C.type != t || D.type != t)
            return not_supported("%s: with CUBLAS_COMPUTE_%s, A, B, C and D must all be %s (got %s, %s, %s, %s)", api,
                                 p->kind == lt_kind::f16 ? "16F" : "64F", type_name(t), type_name(A.type),
                                 type_name(B.type), type_name(C.type), type_name(D.type));
    } else if (A.type == CUDA_R_64F || C.type == CUDA_R_64F || D.type == CUDA_R_64F) {
        return not_supported("%s: CUDA_R_64F matrices need CUBLAS_COMPUTE_64F (the compute type is %s)", api,
                             "a float one");
    }
    if (A.type != B.type)
        return not_supported("%s: A is %s but B is %s; the emulator needs one type for both", api,
                             type_name(A.type), type_name(B.type));
    if (C.type != D.type || (D.type != A.type && D.type != CUDA_R_32F))
        return not_supported("%s: C %s and D %s: the emulator needs C and D of one type, A's (%s) or CUDA_R_32F",
                             api, type_name(C.type), type_name(D.type), type_name(A.type));
    p->batch = D.batch_count;
    if (A.batch_count != p->batch || B.batch_count != p->batch || C.batch_count != p->batch)
        return invalid("%s: batch counts differ: A %d, B %d, C %d, D %d", api, A.batch_count, B.batch_count,
                       C.batch_count, D.batch_count);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t check_problem(const char *api, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t Adesc,
                             cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc,
                             cublasLtMatrixLayout_t Ddesc, const matmul_desc **d_out, problem *p)
{
    const matmul_desc *d = get_desc(desc, api);
    if (!d || !(p->a = get_layout(Adesc, api, "Adesc")) || !(p->b = get_layout(Bdesc, api, "Bdesc")) ||
        !(p->c = get_layout(Cdesc, api, "Cdesc")) || !(p->d = get_layout(Ddesc, api, "Ddesc")))
        return CUBLAS_STATUS_INVALID_VALUE;
    const epilogue_info *ep = nullptr;
    cublasStatus_t st;
    if ((st = check_desc(api, *d, &ep)) || (st = check_layout(api, "Adesc", *p->a)) ||
        (st = check_layout(api, "Bdesc", *p->b)) || (st = check_layout(api, "Cdesc", *p->c)) ||
        (st = check_layout(api, "Ddesc", *p->d)))
        return st;
    p->kind = kind_of(d->compute_type);
    p->transa = static_cast<cublasOperation_t>(d->transa);
    p->transb = static_cast<cublasOperation_t>(d->transb);
    p->parts = ep->parts;
    p->bias_length = 0;
    if ((st = check_shapes(api, p)) || (st = check_epilogue_operands(api, *d, *ep, p)))
        return st;
    *d_out = d;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- the matmul -------------------------------------------------------- */

/* Every operand's memory, before anything is read or written. */
cublasStatus_t check_operands(const char *api, const problem &p, const matmul_desc &d, const void *A, const void *B,
                              const void *C, bool use_c, const void *D)
{
    cublasStatus_t st;
    auto span = [&](const layout &l) { return batch_extent(layout_extent(l), l.batch_stride, p.batch); };
    auto bytes = [](const layout &l) { return type_bytes(static_cast<cudaDataType>(l.type)); };
    if (p.k > 0 && ((st = check_device(A, span(*p.a), bytes(*p.a), api, "A")) ||
                    (st = check_device(B, span(*p.b), bytes(*p.b), api, "B"))))
        return st;
    if (use_c && (st = check_device(C, span(*p.c), bytes(*p.c), api, "C")))
        return st;
    if ((st = check_device(D, span(*p.d), bytes(*p.d), api, "D")))
        return st;
    if (p.bias_length &&
        (st = check_device(d.bias, batch_extent(p.bias_length, d.bias_batch_stride, p.batch), type_bytes(p.bias_type),
                           api, "bias (CUBLASLT_MATMUL_DESC_BIAS_POINTER)")))
        return st;
    if ((p.parts & (ep_aux_out | ep_dgelu)) &&
        (st = check_device(d.aux,
                           batch_extent(matrix_extent(p.m, p.n, static_cast<int>(d.aux_ld)), d.aux_batch_stride,
                                      p.batch),
                           type_bytes(p.aux_type), api, "aux (CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER)")))
        return st;
    return CUBLAS_STATUS_SUCCESS;
}

/* alpha or beta of the scale type (half, float or double), from the host or
 * (pointer mode DEVICE) from device memory. */
cublasStatus_t read_scalar(const char *api, const char *name, const void *p, int32_t mode, int32_t scale_type,
                           double *out)
{
    const auto t = static_cast<cudaDataType>(scale_type);
    if (mode == CUBLASLT_POINTER_MODE_HOST) {
        if (cublasStatus_t st = check_host_scalar(p, api, name))
            return st;
        *out = element_to_double(p, 0, t);
        return CUBLAS_STATUS_SUCCESS;
    }
    if (cublasStatus_t st = check_device(p, 1, type_bytes(t), api, name))
        return st;
    runtime::device_access open(p);
    *out = element_to_double(p, 0, t);
    return CUBLAS_STATUS_SUCCESS;
}

/* One batch's stored matrix as a packed column-major matrix of its rows x
 * cols (exact: every stored type converts to double exactly). */
std::vector<double> gather(const layout &l, const void *base, int batch)
{
    int rows = static_cast<int>(l.rows), cols = static_cast<int>(l.cols);
    auto t = static_cast<cudaDataType>(l.type);
    std::size_t first = static_cast<std::size_t>(batch) * static_cast<std::size_t>(l.batch_stride);
    std::vector<double> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            out[static_cast<std::size_t>(j) * rows + i] = element_to_double(base, first + layout_index(l, i, j), t);
    return out;
}

/* GELU in the tanh form, and its derivative. */
constexpr double gelu_scale = 0.7978845608028654; /* sqrt(2 / pi) */
constexpr double gelu_cubic = 0.044715;

double gelu(double x)
{
    return 0.5 * x * (1.0 + std::tanh(gelu_scale * (x + gelu_cubic * x * x * x)));
}

double gelu_grad(double x)
{
    double t = std::tanh(gelu_scale * (x + gelu_cubic * x * x * x));
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * gelu_scale * (1.0 + 3.0 * gelu_cubic * x * x);
}

struct batch_inputs {
    std::vector<double> a, b, c;
    std::vector<double> bias, aux; /* the bias input, the DGELU input */
};

void read_batch(const problem &p, const matmul_desc &d, const void *A, const void *B, const void *C, bool use_c,
                int batch, batch_inputs *in)
{
    {
        runtime::device_access open(p.k > 0 ? A : nullptr, p.k > 0 ? B : nullptr, use_c ? C : nullptr);
        if (p.k > 0) {
            in->a = gather(*p.a, A, batch);
            in->b = gather(*p.b, B, batch);
        }
        if (use_c)
            in->c = gather(*p.c, C, batch);
    }
    bool bias_in = p.parts & ep_bias, aux_in = p.parts & ep_dgelu;
    if (!bias_in && !aux_in)
        return;
    runtime::device_access open(bias_in ? d.bias : nullptr, aux_in ? d.aux : nullptr);
    if (bias_in) {
        in->bias.resize(p.m);
        std::size_t first = static_cast<std::size_t>(batch) * d.bias_batch_stride;
        for (int i = 0; i < p.m; ++i)
            in->bias[i] = element_to_double(d.bias, first + i, p.bias_type);
    }
    if (aux_in) {
        in->aux.resize(static_cast<std::size_t>(p.m) * p.n);
        std::size_t first = static_cast<std::size_t>(batch) * d.aux_batch_stride;
        for (int j = 0; j < p.n; ++j)
            for (int i = 0; i < p.m; ++i)
                in->aux[static_cast<std::size_t>(j) * p.m + i] =
                    element_to_double(d.aux, first + static_cast<std::size_t>(j) * d.aux_ld + i, p.aux_type);
    }
}

/* The bias gradient of BGRADA / BGRADB: sums of op(A)'s rows or op(B)'s
 * columns over k. */
std::vector<double> operand_sums(const problem &p, const batch_inputs &in)
{
    bool of_a = p.parts & ep_bgrad_a;
    const layout &l = of_a ? *p.a : *p.b;
    const std::vector<double> &x = of_a ? in.a : in.b;
    bool trans = (of_a ? p.transa : p.transb) != CUBLAS_OP_N;
    int rows = static_cast<int>(l.rows);
    std::vector<double> sums(p.bias_length, 0.0);
    for (int v = 0; v < p.bias_length; ++v)
        for (int q = 0; q < p.k; ++q) {
            /* op(A)[v][q] or op(B)[q][v], in the stored (packed) matrix */
            int i = of_a ? (trans ? q : v) : (trans ? v : q);
            int j = of_a ? (trans ? v : q) : (trans ? q : v);
            sums[v] += x[static_cast<std::size_t>(j) * rows + i];
        }
    return sums;
}

/* alpha op(A) op(B): in double for CUBLAS_COMPUTE_64F, else in float (the
 * inputs and alpha convert to float exactly). */
std::vector<double> product(const problem &p, double alpha, const batch_inputs &in)
{
    const int m = p.m, n = p.n, lda = std::max(1, static_cast<int>(p.a->rows)),
              ldb = std::max(1, static_cast<int>(p.b->rows));
    std::vector<double> prod(static_cast<std::size_t>(m) * n, 0.0);
    if (p.k == 0)
        return prod;
    if (p.kind == lt_kind::f64) {
        cblas_dgemm(CblasColMajor, to_cblas(p.transa), to_cblas(p.transb), m, n, p.k, alpha, in.a.data(), lda,
                    in.b.data(), ldb, 0.0, prod.data(), m);
        return prod;
    }
    std::vector<float> a(in.a.begin(), in.a.end()), b(in.b.begin(), in.b.end()), c(prod.size(), 0.0f);
    cblas_sgemm(CblasColMajor, to_cblas(p.transa), to_cblas(p.transb), m, n, p.k, static_cast<float>(alpha),
                a.data(), lda, b.data(), ldb, 0.0f, c.data(), m);
    std::copy(c.begin(), c.end(), prod.begin());
    return prod;
}

void run_batch(const problem &p, const matmul_desc &d, double alpha, double beta, const batch_inputs &in, void *D,
               int batch)
{
    int m = p.m, n = p.n;
    const std::vector<double> prod = product(p, alpha, in);
    std::vector<double> out(prod.size()), pre_gelu;
    if (p.parts & ep_aux_out)
        pre_gelu.resize(prod.size());
    std::vector<double> bias_grad;
    if (p.parts & ep_bgrad_d)
        bias_grad.assign(m, 0.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            std::size_t at = static_cast<std::size_t>(j) * m + i;
            double x = prod[at];
            if (!in.c.empty())
                x += beta * in.c[at];
            if (p.parts & ep_bias)
                x += in.bias[i];
            if (p.parts & ep_aux_out)
                pre_gelu[at] = x;
            if (p.parts & ep_relu)
                x = x > 0.0 ? x : 0.0;
            if (p.parts & ep_gelu)
                x = gelu(x);
            if (p.parts & ep_dgelu)
                x *= gelu_grad(in.aux[at]);
            if (p.parts & ep_bgrad_d)
                bias_grad[i] += x;
            out[at] = x;
        }
    if (p.parts & (ep_bgrad_a | ep_bgrad_b))
        bias_grad = operand_sums(p, in);

    auto d_type = static_cast<cudaDataType>(p.d->type);
    std::size_t d_first = static_cast<std::size_t>(batch) * p.d->batch_stride;
    void *bias_out = bias_grad.empty() ? nullptr : const_cast<void *>(d.bias);
    runtime::device_access open(D, pre_gelu.empty() ? nullptr : d.aux, bias_out);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            store_element(D, d_first + layout_index(*p.d, i, j), d_type, out[static_cast<std::size_t>(j) * m + i]);
    if (!pre_gelu.empty()) {
        std::size_t first = static_cast<std::size_t>(batch) * d.aux_batch_stride;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i)
                store_element(d.aux, first + static_cast<std::size_t>(j) * d.aux_ld + i, p.aux_type,
                              pre_gelu[static_cast<std::size_t>(j) * m + i]);
    }
    if (bias_out) {
        std::size_t first = static_cast<std::size_t>(batch) * d.bias_batch_stride;
        for (int v = 0; v < p.bias_length; ++v)
            store_element(bias_out, first + v, p.bias_type, bias_grad[v]);
    }
}

/* ---- creation ---------------------------------------------------------- */

template <class T, class Opaque> cublasStatus_t create(const char *api, Opaque **out, T init)
{
    if (!out)
        return invalid("%s: the output pointer is NULL", api);
    Opaque *o = new (std::nothrow) Opaque();
    if (!o)
        return CUBLAS_STATUS_ALLOC_FAILED;
    init.owned = true;
    new (o) T(init);
    if (!remember(o)) {
        delete o;
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    *out = o;
    return CUBLAS_STATUS_SUCCESS;
}

template <class T, class Opaque> cublasStatus_t init_in_place(const char *api, Opaque *o, T init)
{
    if (!o)
        return invalid("%s: the descriptor pointer is NULL", api);
    init.owned = false;
    new (o) T(init);
    if (!remember(o))
        return CUBLAS_STATUS_ALLOC_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}

template <class T, class Opaque> cublasStatus_t destroy(Opaque *o, uint32_t magic, const char *api, const char *kind)
{
    if (!o) /* as cuBLASLt: destroying nothing succeeds */
        return CUBLAS_STATUS_SUCCESS;
    T *obj = lookup<T>(o, magic, api, "the argument", kind);
    if (!obj)
        return CUBLAS_STATUS_INVALID_VALUE;
    bool owned = obj->owned;
    obj->magic = 0;
    forget(o);
    if (owned)
        delete o;
    return CUBLAS_STATUS_SUCCESS;
}

layout new_layout(cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld)
{
    layout l{};
    l.magic = layout_magic;
    l.type = static_cast<uint32_t>(type);
    l.order = CUBLASLT_ORDER_COL;
    l.batch_count = 1;
    l.rows = rows;
    l.cols = cols;
    l.ld = ld;
    return l;
}

matmul_desc new_desc(cublasComputeType_t compute, cudaDataType scale)
{
    matmul_desc d{};
    d.magic = desc_magic;
    d.compute_type = compute;
    d.scale_type = scale;
    d.pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    d.transa = d.transb = d.transc = CUBLAS_OP_N;
    d.fill_mode = CUBLAS_FILL_MODE_FULL;
    d.epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    d.bias_data_type = d.aux_data_type = -1;
    return d;
}

preference new_preference()
{
    preference p{};
    p.magic = pref_magic;
    p.reduction_mask = 0x7;
    for (uint32_t &a : p.min_alignment)
        a = 256;
    p.impl_mask = ~0ull;
    return p;
}

} /* namespace */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::blas;

extern "C" {

/* ---- the handle -------------------------------------------------------- */

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle)
{
    if (!lightHandle)
        return invalid("cublasLtCreate: lightHandle is NULL (pass the address of a cublasLtHandle_t)");
    if (cudaError_t e = sticky_error()) {
        runtime::diagnose("cublasLtCreate: the CUDA context is poisoned by an earlier %s", cudaGetErrorName(e));
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    cublasLtHandle_t h = new (std::nothrow) cublasLtContext{handle_magic};
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    if (!remember(h)) {
        delete h;
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    *lightHandle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle)
{
    if (check_handle(lightHandle, "cublasLtDestroy") == CUBLAS_STATUS_NOT_INITIALIZED || !forget(lightHandle)) {
        runtime::diagnose("cublasLtDestroy: handle 0x%" PRIxPTR " is not a live cuBLASLt handle",
                          reinterpret_cast<std::uintptr_t>(lightHandle));
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    lightHandle->magic = 0;
    delete lightHandle;
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasLtGetStatusName(cublasStatus_t status)
{
    return cublasGetStatusName(status);
}

const char *cublasLtGetStatusString(cublasStatus_t status)
{
    return cublasGetStatusString(status);
}

size_t cublasLtGetVersion(void)
{
    return CUBLAS_VERSION;
}

/* ---- layouts ----------------------------------------------------------- */

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld)
{
    return create("cublasLtMatrixLayoutCreate", matLayout, new_layout(type, rows, cols, ld));
}

cublasStatus_t cublasLtMatrixLayoutInit(cublasLtMatrixLayout_t matLayout, cudaDataType type, uint64_t rows,
                                        uint64_t cols, int64_t ld)
{
    return init_in_place("cublasLtMatrixLayoutInit", matLayout, new_layout(type, rows, cols, ld));
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout)
{
    return destroy<layout>(matLayout, layout_magic, "cublasLtMatrixLayoutDestroy", "cublasLtMatrixLayout_t");
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, const void *buf,
                                                size_t sizeInBytes)
{
    const char *api = "cublasLtMatrixLayoutSetAttribute";
    layout *l = get_layout(matLayout, api, "matLayout");
    if (!l)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = layout_field(*l, attr, &f);
    return set_field(api, found, attr, f, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, void *buf, size_t sizeInBytes,
                                                size_t *sizeWritten)
{
    const char *api = "cublasLtMatrixLayoutGetAttribute";
    layout *l = get_layout(matLayout, api, "matLayout");
    if (!l)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = layout_field(*l, attr, &f);
    return get_field(api, found, attr, f, buf, sizeInBytes, sizeWritten);
}

/* ---- matmul descriptors ------------------------------------------------ */

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType scaleType)
{
    return create("cublasLtMatmulDescCreate", matmulDesc, new_desc(computeType, scaleType));
}

cublasStatus_t cublasLtMatmulDescInit(cublasLtMatmulDesc_t matmulDesc, cublasComputeType_t computeType,
                                      cudaDataType scaleType)
{
    return init_in_place("cublasLtMatmulDescInit", matmulDesc, new_desc(computeType, scaleType));
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc)
{
    return destroy<matmul_desc>(matmulDesc, desc_magic, "cublasLtMatmulDescDestroy", "cublasLtMatmulDesc_t");
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t sizeInBytes)
{
    const char *api = "cublasLtMatmulDescSetAttribute";
    matmul_desc *d = get_desc(matmulDesc, api);
    if (!d)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = desc_field(*d, attr, &f);
    return set_field(api, found, attr, f, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
    const char *api = "cublasLtMatmulDescGetAttribute";
    matmul_desc *d = get_desc(matmulDesc, api);
    if (!d)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = desc_field(*d, attr, &f);
    return get_field(api, found, attr, f, buf, sizeInBytes, sizeWritten);
}

/* ---- preferences ------------------------------------------------------- */

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
    return create("cublasLtMatmulPreferenceCreate", pref, new_preference());
}

cublasStatus_t cublasLtMatmulPreferenceInit(cublasLtMatmulPreference_t pref)
{
    return init_in_place("cublasLtMatmulPreferenceInit", pref, new_preference());
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)
{
    return destroy<preference>(pref, pref_magic, "cublasLtMatmulPreferenceDestroy", "cublasLtMatmulPreference_t");
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t sizeInBytes)
{
    const char *api = "cublasLtMatmulPreferenceSetAttribute";
    preference *p = get_pref(pref, api);
    if (!p)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = pref_field(*p, attr, &f);
    return set_field(api, found, attr, f, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten)
{
    const char *api = "cublasLtMatmulPreferenceGetAttribute";
    preference *p = get_pref(pref, api);
    if (!p)
        return CUBLAS_STATUS_INVALID_VALUE;
    field f{};
    bool found = pref_field(*p, attr, &f);
    return get_field(api, found, attr, f, buf, sizeInBytes, sizeWritten);
}

/* ---- the matmul -------------------------------------------------------- */

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount)
{
    const char *api = "cublasLtMatmulAlgoGetHeuristic";
    if (returnAlgoCount)
        *returnAlgoCount = 0;
    if (cublasStatus_t st = check_handle(lightHandle, api))
        return st;
    if (!returnAlgoCount || !heuristicResultsArray || requestedAlgoCount < 1)
        return invalid("%s: needs requestedAlgoCount >= 1 (got %d), a results array and returnAlgoCount", api,
                       requestedAlgoCount);
    if (!get_pref(preference, api))
        return CUBLAS_STATUS_INVALID_VALUE;
    const matmul_desc *d = nullptr;
    problem p{};
    if (cublasStatus_t st = check_problem(api, operationDesc, Adesc, Bdesc, Cdesc, Ddesc, &d, &p))
        return st;
    cublasLtMatmulHeuristicResult_t &r = heuristicResultsArray[0];
    std::memset(&r, 0, sizeof r);
    r.algo.data[0] = 1; /* the emulator's one algorithm */
    r.workspaceSize = 0;
    r.state = CUBLAS_STATUS_SUCCESS;
    r.wavesCount = 1.0f;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                              cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                              cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream)
{
    (void)algo, (void)workspace, (void)workspaceSizeInBytes; /* one algorithm, no workspace */
    const char *api = "cublasLtMatmul";
    const matmul_desc *d = nullptr;
    problem p{};
    double alpha_v = 0, beta_v = 0;
    cublasStatus_t st;
    if ((st = check_handle(lightHandle, api)))
        return st;
    if (validate_stream(stream, api) != cudaSuccess)
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((st = check_problem(api, computeDesc, Adesc, Bdesc, Cdesc, Ddesc, &d, &p)) ||
        (st = read_scalar(api, "alpha", alpha, d->pointer_mode, d->scale_type, &alpha_v)) ||
        (st = read_scalar(api, "beta", beta, d->pointer_mode, d->scale_type, &beta_v)))
        return st;
    if (p.m == 0 || p.n == 0)
        return CUBLAS_STATUS_SUCCESS;
    bool use_c = beta_v != 0.0; /* as BLAS: with beta 0, C is not read (it may hold NaN) */
    if ((st = check_operands(api, p, *d, A, B, C, use_c, D)))
        return st;
    for (int batch = 0; batch < p.batch; ++batch) {
        batch_inputs in;
        read_batch(p, *d, A, B, C, use_c, batch, &in);
        run_batch(p, *d, alpha_v, beta_v, in, D, batch);
    }
    return CUBLAS_STATUS_SUCCESS;
}

} /* extern "C" */
