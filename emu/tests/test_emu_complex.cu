/* simtlab CPU emulator — <cuComplex.h>: every operation in a kernel and on
 * the host, against std::complex<double> on random operands (seed printed),
 * and division and modulus of large finite operands, which a naive formula
 * overflows to inf or nan. */
#include <cuComplex.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <ctime>
#include <random>

enum { n_ops = 7 };

__global__ void complex_ops(const cuFloatComplex *a, const cuFloatComplex *b, cuFloatComplex *out, float *abs_out,
                            const cuDoubleComplex *ad, const cuDoubleComplex *bd, cuDoubleComplex *outd,
                            double *abs_outd, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const cuFloatComplex x = a[i], y = b[i];
    out[n_ops * i + 0] = cuCaddf(x, y);
    out[n_ops * i + 1] = cuCsubf(x, y);
    out[n_ops * i + 2] = cuCmulf(x, y);
    out[n_ops * i + 3] = cuCdivf(x, y);
    out[n_ops * i + 4] = cuConjf(x);
    out[n_ops * i + 5] = cuCfmaf(x, y, make_cuComplex(cuCrealf(y), cuCimagf(x)));
    out[n_ops * i + 6] = cuComplexDoubleToFloat(cuComplexFloatToDouble(x));
    abs_out[i] = cuCabsf(x);
    const cuDoubleComplex xd = ad[i], yd = bd[i];
    outd[n_ops * i + 0] = cuCadd(xd, yd);
    outd[n_ops * i + 1] = cuCsub(xd, yd);
    outd[n_ops * i + 2] = cuCmul(xd, yd);
    outd[n_ops * i + 3] = cuCdiv(xd, yd);
    outd[n_ops * i + 4] = cuConj(xd);
    outd[n_ops * i + 5] = cuCfma(xd, yd, make_cuDoubleComplex(cuCreal(yd), cuCimag(xd)));
    outd[n_ops * i + 6] = make_cuDoubleComplex(cuCreal(xd), cuCimag(xd));
    abs_outd[i] = cuCabs(xd);
}

typedef std::complex<double> cd;

static cd expected(int op, cd x, cd y)
{
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return std::conj(x);
    case 5: return x * y + cd(y.real(), x.imag());
    default: return x;
    }
}

static bool close(cd got, cd want, double tol)
{
    const double scale = std::max(1.0, std::abs(want));
    return std::isfinite(got.real()) && std::isfinite(got.imag()) && std::abs(got - want) <= tol * scale;
}

Test(cucomplex, every_operation_against_std_complex)
{
    const unsigned seed = (unsigned)time(NULL);
    std::printf("cucomplex: seed %u\n", seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-8.0, 8.0);
    const int n = 389; /* prime, not a multiple of the block */
    cuFloatComplex *a, *b, *out;
    cuDoubleComplex *ad, *bd, *outd;
    float *absf;
    double *absd;
    cr_assert_eq(cudaMallocManaged(&a, n * sizeof *a), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&b, n * sizeof *b), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&out, n_ops * n * sizeof *out), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&ad, n * sizeof *ad), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&bd, n * sizeof *bd), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&outd, n_ops * n * sizeof *outd), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&absf, n * sizeof *absf), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&absd, n * sizeof *absd), cudaSuccess);
    for (int i = 0; i < n; i++) {
        /* the last operands are large: a naive |y|^2 overflows float */
        const double big = i >= n - 8 ? 1e30 : 1.0;
        a[i] = make_cuFloatComplex((float)(u(rng) * big), (float)(u(rng) * big));
        b[i] = make_cuFloatComplex((float)(u(rng) * big), (float)(u(rng) * big));
        const double bigd = i >= n - 8 ? 1e300 : 1.0;
        ad[i] = make_cuDoubleComplex(u(rng) * bigd, u(rng) * bigd);
        bd[i] = make_cuDoubleComplex(u(rng) * bigd, u(rng) * bigd);
        absf[i] = absd[i] = NAN;
    }
    for (int i = 0; i < n_ops * n; i++) {
        out[i] = make_cuFloatComplex(NAN, NAN);
        outd[i] = make_cuDoubleComplex(NAN, NAN);
    }
    complex_ops<<<(n + 63) / 64, 64>>>(a, b, out, absf, ad, bd, outd, absd, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; i++) {
        const bool big = i >= n - 8;
        const cd x(a[i].x, a[i].y), y(b[i].x, b[i].y);
        const cd xd(ad[i].x, ad[i].y), yd(bd[i].x, bd[i].y);
        for (int op = 0; op < n_ops; op++) {
            /* big operands: only what cannot overflow (division, conj, the round trip) */
            if (big && op != 3 && op != 4 && op != 6)
                continue;
            const cd got(out[n_ops * i + op].x, out[n_ops * i + op].y);
            cr_expect(close(got, expected(op, x, y), 2e-6), "float op %d, i %d: (%g, %g) for (%g, %g) op (%g, %g)",
                      op, i, got.real(), got.imag(), x.real(), x.imag(), y.real(), y.imag());
            const cd gotd(outd[n_ops * i + op].x, outd[n_ops * i + op].y);
            cr_expect(close(gotd, expected(op, xd, yd), 1e-14), "double op %d, i %d: (%g, %g)", op, i,
                      gotd.real(), gotd.imag());
        }
        cr_expect(std::isfinite(absf[i]) && std::fabs(absf[i] - std::abs(x)) <= 2e-7 * std::abs(x),
                  "cuCabsf i %d: %g vs %g", i, absf[i], std::abs(x));
        cr_expect(std::isfinite(absd[i]) && std::fabs(absd[i] - std::abs(xd)) <= 1e-15 * std::abs(xd),
                  "cuCabs i %d: %g vs %g", i, absd[i], std::abs(xd));
    }
    /* and on the host, where the same header is plain code */
    const cuDoubleComplex q = cuCdiv(make_cuDoubleComplex(1, 2), make_cuDoubleComplex(3, -4));
    cr_expect(close(cd(q.x, q.y), cd(1, 2) / cd(3, -4), 1e-15), "host cuCdiv (%g, %g)", q.x, q.y);
    cudaFree(a);
    cudaFree(b);
    cudaFree(out);
    cudaFree(ad);
    cudaFree(bd);
    cudaFree(outd);
    cudaFree(absf);
    cudaFree(absd);
}
