/* simtlab host library — tracked device and pinned-host allocations.
 *
 * Each buffer the library makes is recorded with the file:line that asked for
 * it, so that a leak is reported as "device 4096 bytes from host/x.c:42"
 * rather than found by reading code. The list is short (a handful of live
 * buffers per call), so a linked list under a mutex is enough. */
#include <pthread.h>
#include <stdlib.h>

#include "sl_internal.h"

typedef enum alloc_kind { ALLOC_DEVICE, ALLOC_PINNED } alloc_kind;

typedef struct tracked {
    void *ptr;
    size_t bytes;
    alloc_kind kind;
    const char *file;
    int line;
    struct tracked *next;
} tracked;

static tracked *live;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *kind_name(alloc_kind kind) { return kind == ALLOC_DEVICE ? "device" : "pinned"; }

static sl_status remember(void *ptr, size_t bytes, alloc_kind kind, const char *file, int line)
{
    tracked *t = malloc(sizeof *t);
    if (!t) return sl_fail(SL_ERR_HOST_MEMORY, "malloc of the allocation record failed at %s:%d", file, line);
    *t = (tracked){ptr, bytes, kind, file, line, NULL};
    pthread_mutex_lock(&live_lock);
    t->next = live;
    live = t;
    pthread_mutex_unlock(&live_lock);
    return SL_OK;
}

/* Unlinks the record of `ptr` if it is a live allocation of `kind`. */
static int forget(void *ptr, alloc_kind kind)
{
    int found = 0;
    pthread_mutex_lock(&live_lock);
    for (tracked **p = &live; *p; p = &(*p)->next) {
        if ((*p)->ptr == ptr && (*p)->kind == kind) {
            tracked *dead = *p;
            *p = dead->next;
            free(dead);
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&live_lock);
    return found;
}

static const char *const alloc_fn[2] = {"cudaMalloc", "cudaMallocHost"};

static sl_status tracked_alloc(alloc_kind kind, void **ptr, size_t bytes, const char *file, int line)
{
    if (!ptr)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_alloc_%s: ptr is NULL (%s:%d)", kind_name(kind), file, line);
    *ptr = NULL;
    if (bytes == 0) return SL_OK;
    cudaError_t err = kind == ALLOC_DEVICE ? cudaMalloc(ptr, bytes) : cudaMallocHost(ptr, bytes);
    if (err != cudaSuccess) {
        *ptr = NULL;
        return sl_fail_cuda(err, alloc_fn[kind], file, line);
    }
    sl_status st = remember(*ptr, bytes, kind, file, line);
    if (st != SL_OK) {
        if (kind == ALLOC_DEVICE) cudaFree(*ptr);
        else cudaFreeHost(*ptr);
        *ptr = NULL;
    }
    return st;
}

static sl_status tracked_free(alloc_kind kind, void *ptr)
{
    if (!ptr) return SL_OK;
    if (!forget(ptr, kind))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_free_%s: ptr %p is not a live %s allocation of this library",
                       kind_name(kind), ptr, kind_name(kind));
    if (kind == ALLOC_DEVICE)
        SL_CUDA_RETURN(cudaFree(ptr));
    else
        SL_CUDA_RETURN(cudaFreeHost(ptr));
    return SL_OK;
}

sl_status sl_alloc_device_at(void **ptr, size_t bytes, const char *file, int line)
{
    return tracked_alloc(ALLOC_DEVICE, ptr, bytes, file, line);
}

sl_status sl_free_device(void *ptr) { return tracked_free(ALLOC_DEVICE, ptr); }

sl_status sl_free_device_all(sl_status first, void *a, void *b, void *c)
{
    if (first != SL_OK) sl_error_hold();
    sl_status st_a = sl_free_device(a), st_b = sl_free_device(b), st_c = sl_free_device(c);
    if (first != SL_OK) {
        sl_error_release();
        return first;
    }
    return st_a != SL_OK ? st_a : st_b != SL_OK ? st_b : st_c;
}

sl_status sl_alloc_pinned_at(void **ptr, size_t bytes, const char *file, int line)
{
    return tracked_alloc(ALLOC_PINNED, ptr, bytes, file, line);
}

sl_status sl_free_pinned(void *ptr) { return tracked_free(ALLOC_PINNED, ptr); }

size_t sl_alloc_live_count(void)
{
    size_t n = 0;
    pthread_mutex_lock(&live_lock);
    for (tracked *t = live; t; t = t->next) n++;
    pthread_mutex_unlock(&live_lock);
    return n;
}

size_t sl_alloc_report_leaks(FILE *out)
{
    size_t n = 0;
    if (!out) out = stderr;
    pthread_mutex_lock(&live_lock);
    for (tracked *t = live; t; t = t->next, n++)
        fprintf(out, "simtlab: leak: %s %zu bytes from %s:%d still allocated\n", kind_name(t->kind),
                t->bytes, t->file, t->line);
    pthread_mutex_unlock(&live_lock);
    return n;
}
