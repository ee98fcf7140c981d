/* simtlab CPU emulator — <cuComplex.h>: single- and double-precision
 * complex numbers as CUDA declares them (cuFloatComplex is a float2,
 * cuDoubleComplex a double2, real part in x), with the same functions, for
 * host code and kernels alike (in the emulator both are CPU code). C and
 * C++. Division scales by |Re| + |Im| of the divisor and the modulus uses
 * hypot, so that neither overflows for large finite operands.
 */
#if !defined(CU_COMPLEX_H_)
#define CU_COMPLEX_H_

#include <math.h>
#include <vector_types.h>

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

static inline float cuCrealf(cuFloatComplex x) { return x.x; }
static inline float cuCimagf(cuFloatComplex x) { return x.y; }
static inline cuFloatComplex make_cuFloatComplex(float r, float i)
{
    cuFloatComplex z;
    z.x = r;
    z.y = i;
    return z;
}
static inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
static inline cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) { return make_cuFloatComplex(x.x + y.x, x.y + y.y); }
static inline cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) { return make_cuFloatComplex(x.x - y.x, x.y - y.y); }
static inline cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y)
{
    return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y)
{
    const float s = fabsf(y.x) + fabsf(y.y);
    const float inv = 1.0f / s;
    const float ar = x.x * inv, ai = x.y * inv, br = y.x * inv, bi = y.y * inv;
    const float d = 1.0f / (br * br + bi * bi);
    return make_cuFloatComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
static inline float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }

static inline double cuCreal(cuDoubleComplex x) { return x.x; }
static inline double cuCimag(cuDoubleComplex x) { return x.y; }
static inline cuDoubleComplex make_cuDoubleComplex(double r, double i)
{
    cuDoubleComplex z;
    z.x = r;
    z.y = i;
    return z;
}
static inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
static inline cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) { return make_cuDoubleComplex(x.x + y.x, x.y + y.y); }
static inline cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) { return make_cuDoubleComplex(x.x - y.x, x.y - y.y); }
static inline cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y)
{
    return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y)
{
    const double s = fabs(y.x) + fabs(y.y);
    const double inv = 1.0 / s;
    const double ar = x.x * inv, ai = x.y * inv, br = y.x * inv, bi = y.y * inv;
    const double d = 1.0 / (br * br + bi * bi);
    return make_cuDoubleComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
static inline double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }

static inline cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
static inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c)
{
    return make_cuDoubleComplex((double)c.x, (double)c.y);
}
static inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c)
{
    return make_cuFloatComplex((float)c.x, (float)c.y);
}

/* x * y + d */
static inline cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d)
{
    const float r = fmaf(-x.y, y.y, fmaf(x.x, y.x, d.x));
    const float i = fmaf(x.y, y.x, fmaf(x.x, y.y, d.y));
    return make_cuComplex(r, i);
}
static inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d)
{
    const double r = fma(-x.y, y.y, fma(x.x, y.x, d.x));
    const double i = fma(x.y, y.x, fma(x.x, y.y, d.y));
    return make_cuDoubleComplex(r, i);
}

#endif /* CU_COMPLEX_H_ */
