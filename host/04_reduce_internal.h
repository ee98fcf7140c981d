/* simtlab host library — chapter 04's internals, shared by its two files
 * (host/04_reduce.c, host/04_reduce_refs.c). Not installed. */
#ifndef SIMTLAB_HOST_04_REDUCE_INTERNAL_H
#define SIMTLAB_HOST_04_REDUCE_INTERNAL_H

#include "../kernels/04_reduce.h"
#include "sl_internal.h"
#include "simtlab/04_reduce.h"

/* The arguments of an argmax (ours or CUB's): x, index and value not NULL,
 * and n > 0 (an empty array has no argmax). */
sl_status sl_reduce_argmax_check(const float *x, size_t n, const size_t *index, const float *value, const char *fn);

#endif
