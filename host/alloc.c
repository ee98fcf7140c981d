/* simtlab host library — tracked device and pinned-host allocations.
 *
 * Each buffer the library makes is recorded with the file:line that asked for
 * it, so that a leak is reported as "device 4096 bytes from host/x.c:42"
 * rather than found by reading code. The list is short (a handful of live
 * buffers per call), so a linked list under a mutex is enough. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
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

/* The device buffers freed last, with where each was made and freed, so
 * that a freed pointer passed back in is named as such ("was freed at ...")
 * instead of being taken for some host array. A ring: the oldest is
 * forgotten, which keeps every entry younger than the emulator's quarantine
 * of freed address ranges (4096 frees), and a GPU driver keeps freed ranges
 * reserved, so an address here is no host array. A new allocation that
 * reuses an address removes what the ring says about it. Under live_lock. */
enum { FREED_RING = 64 };
typedef struct freed_record {
    uintptr_t base;
    size_t bytes;
    const char *alloc_file, *free_file;
    int alloc_line, free_line;
} freed_record;
static freed_record freed_ring[FREED_RING];
static size_t freed_next;

static void freed_forget_range(uintptr_t base, size_t bytes)
{
    for (size_t i = 0; i < FREED_RING; i++) {
        freed_record *f = &freed_ring[i];
        if (f->bytes && f->base < base + bytes && base < f->base + f->bytes) f->bytes = 0;
    }
}

static const char *kind_name(alloc_kind kind) { return kind == ALLOC_DEVICE ? "device" : "pinned"; }

static sl_status remember(void *ptr, size_t bytes, alloc_kind kind, const char *file, int line)
{
    tracked *t = malloc(sizeof *t);
    if (!t) return sl_fail(SL_ERR_HOST_MEMORY, "malloc of the allocation record failed at %s:%d", file, line);
    *t = (tracked){ptr, bytes, kind, file, line, NULL};
    pthread_mutex_lock(&live_lock);
    t->next = live;
    live = t;
    freed_forget_range((uintptr_t)ptr, bytes);
    pthread_mutex_unlock(&live_lock);
    return SL_OK;
}

/* Unlinks the record of `ptr` if it is a live allocation of `kind`; a
 * device buffer goes into the ring of freed ones, freed at file:line. */
static int forget(void *ptr, alloc_kind kind, const char *file, int line)
{
    int found = 0;
    pthread_mutex_lock(&live_lock);
    for (tracked **p = &live; *p; p = &(*p)->next) {
        if ((*p)->ptr == ptr && (*p)->kind == kind) {
            tracked *dead = *p;
            *p = dead->next;
            if (kind == ALLOC_DEVICE) {
                freed_ring[freed_next] =
                    (freed_record){(uintptr_t)ptr, dead->bytes, dead->file, file, dead->line, line};
                freed_next = (freed_next + 1) % FREED_RING;
            }
            free(dead);
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&live_lock);
    return found;
}

/* Is some live tracked buffer holding `addr`? Under live_lock. */
static int live_holds(uintptr_t addr)
{
    for (tracked *t = live; t; t = t->next)
        if (addr >= (uintptr_t)t->ptr && addr - (uintptr_t)t->ptr < t->bytes) return 1;
    return 0;
}

int sl_alloc_describe_freed(const void *ptr, char *buf, size_t size)
{
    uintptr_t addr = (uintptr_t)ptr;
    int found = 0;
    pthread_mutex_lock(&live_lock);
    if (ptr && !live_holds(addr)) {
        for (size_t k = 1; k <= FREED_RING && !found; k++) { /* the newest first */
            const freed_record *f = &freed_ring[(freed_next + FREED_RING - k) % FREED_RING];
            if (!f->bytes || addr < f->base || addr - f->base >= f->bytes) continue;
            char offset[64] = "";
            if (addr != f->base) snprintf(offset, sizeof offset, "offset %zu of ", (size_t)(addr - f->base));
            snprintf(buf, size, "%sthe %zu-byte device buffer allocated at %s:%d and freed at %s:%d",
                     offset, f->bytes, f->alloc_file ? f->alloc_file : "?", f->alloc_line,
                     f->free_file ? f->free_file : "?", f->free_line);
            found = 1;
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
    sl_status st = sl_check_host_ptr(kind == ALLOC_DEVICE ? "sl_alloc_device" : "sl_alloc_pinned",
                                     "ptr (where the new pointer is stored)", ptr);
    if (st != SL_OK) return st;
    *ptr = NULL;
    if (bytes == 0) return SL_OK;
    cudaError_t err = kind == ALLOC_DEVICE ? cudaMalloc(ptr, bytes) : cudaMallocHost(ptr, bytes);
    if (err != cudaSuccess) {
        *ptr = NULL;
        return sl_fail_cuda(err, alloc_fn[kind], file, line);
    }
    st = remember(*ptr, bytes, kind, file, line);
    if (st != SL_OK) {
        if (kind == ALLOC_DEVICE) cudaFree(*ptr);
        else cudaFreeHost(*ptr);
        *ptr = NULL;
    }
    return st;
}

static sl_status tracked_free(alloc_kind kind, void *ptr, const char *file, int line)
{
    if (!ptr) return SL_OK;
    if (!forget(ptr, kind, file, line)) {
        char freed[512];
        if (kind == ALLOC_DEVICE && sl_alloc_describe_freed(ptr, freed, sizeof freed))
            return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_free_device: ptr %p (at %s:%d) was already freed, a double "
                           "free: it is %s", ptr, file, line, freed);
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_free_%s: ptr %p (at %s:%d) is not a live %s allocation of this "
                       "library", kind_name(kind), ptr, file, line, kind_name(kind));
    }
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

sl_status sl_free_device_at(void *ptr, const char *file, int line) { return tracked_free(ALLOC_DEVICE, ptr, file, line); }

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

sl_status sl_free_pinned_at(void *ptr, const char *file, int line) { return tracked_free(ALLOC_PINNED, ptr, file, line); }

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
    else if (sl_check_host_ptr("sl_alloc_report_leaks", "out", out) != SL_OK) return 0;
    pthread_mutex_lock(&live_lock);
    for (tracked *t = live; t; t = t->next, n++)
        fprintf(out, "simtlab: leak: %s %zu bytes from %s:%d still allocated\n", kind_name(t->kind),
                t->bytes, t->file, t->line);
    pthread_mutex_unlock(&live_lock);
    return n;
}
