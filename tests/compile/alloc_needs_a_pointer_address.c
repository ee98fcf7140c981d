/* sl_alloc_device takes the address of a pointer variable. Built twice by
 * CTest (cmake/Chapters.cmake): with SL_RIGHT it must compile, without it
 * (passing the float * itself, the mistake the macro's old (void **) cast
 * let through) it must not. */
#include "simtlab/simtlab.h"

sl_status allocate(size_t n);

sl_status allocate(size_t n)
{
    float *d_x = NULL;
#ifdef SL_RIGHT
    return sl_alloc_device(&d_x, n * sizeof *d_x);
#else
    return sl_alloc_device(d_x, n * sizeof *d_x);
#endif
}
