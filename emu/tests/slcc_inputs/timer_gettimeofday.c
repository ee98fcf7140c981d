/* The timer of many benchmark suites: gettimeofday with a struct timeval
 * and a struct timezone, which glibc declares only outside strict ISO C
 * (gcc -std=c11: "storage size of 'tz' isn't known"; struct timeval is
 * just as hidden where it comes through <stdlib.h>). nvcc gives .c files to
 * the host compiler in its own default dialect (gnu17 for GCC 12), where
 * they are declared; slcc must do the same. Also reports the dialect each
 * file was compiled in, and the version nvcc defines. */
#include <stdlib.h>
#include <sys/time.h>

double wall_seconds(void)
{
    struct timeval tv;
    struct timezone tz;
    gettimeofday(&tv, &tz);
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* 1 when this file was compiled as strict ISO C (__STRICT_ANSI__). */
int c_file_is_strict(void)
{
#ifdef __STRICT_ANSI__
    return 1;
#else
    return 0;
#endif
}

/* __CUDACC_VER_MAJOR__ as nvcc defines it for every file, .c included. */
int c_file_cuda_major(void)
{
#ifdef __CUDACC_VER_MAJOR__
    return __CUDACC_VER_MAJOR__;
#else
    return 0;
#endif
}
