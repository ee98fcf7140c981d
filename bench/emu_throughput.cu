/* emu_throughput — how fast the CPU emulator runs CUDA threads.
 *
 * Two kernels, each run on two engines:
 *
 *   vector_add   c[i] = a[i] + b[i] over 2^22 floats, one thread per element,
 *                256 threads per block, no barrier.
 *   reduce_256   a shared-memory tree reduction of 2^22 floats: 256 threads
 *                per block, one element each, one partial sum per block.
 *                Exactly 8 __syncthreads per block: one after the load, then
 *                one after each of the halving steps 128, 64, ..., 2; the
 *                last step (s[0] + s[1]) is thread 0's alone and needs none.
 *
 *   emulator     simtlab's engine, through the ordinary <<<>>> launch (this
 *                file is CUDA, rewritten by slrewrite).
 *   ucontext     the naive design the engine is measured against, built
 *                here in the same binary: one ucontext fiber per CUDA thread,
 *                a scheduler loop per block that resumes each fiber in turn,
 *                and a swapcontext back to the scheduler at every barrier.
 *                The kernels are the same code written as plain C++
 *                functions of (tid, bid) with a barrier callback.
 *
 * Reported per kernel and engine: the median of 5 timed runs after one
 * warm-up, emulated threads per second, and barrier steps per second, where
 * one barrier step is one thread passing one __syncthreads (so a reduction
 * block contributes 256 x 8 steps). Both engines' results are checked
 * against a CPU reference before anything is timed; a mismatch exits 1.
 *
 * swapcontext makes a signal-mask system call each time (measured at about
 * 0.5 us per round trip on the development machine), so the baseline runs
 * on a 16th of the elements by default (--baseline-n to change it). Its
 * rates are per thread and per barrier step, and blocks are independent,
 * so they do not depend on n; the ratio compares rates.
 *
 * Targets, printed beside the numbers and not enforced: reduce_256 at least
 * 100x the ucontext baseline's barrier-step rate; vector_add of 2^22 floats
 * in under 15 ms. First of all, one launch of 1024-thread blocks with 10
 * barriers each (reduce_1024) reports how much the peak resident memory
 * grows over it: under 1 GiB is the target.
 *
 * The builds a student's slcc makes, in the same run: where the same file
 * built by `slcc --fast` and by plain `slcc` (the checked build: memcheck
 * and racecheck at every load and store, emu/docs/speed.md "Speed") lie beside
 * which CMake builds with slcc), each is run with --emulator-only, one
 * worker, three rounds alternating, and the best of its medians of CPU
 * time is reported beside this build's, with the target: the checked build
 * no slower than 5x the fast one.
 *
 * Build and run:
 *   cmake --build build --target bench_emu_throughput bench_emu_throughput_modes
 *   build/bin/bench_emu_throughput [--csv FILE] [--baseline-n N] [--emulator-only]
 */
#ifndef SIMTLAB_EMU
#error "emu_throughput measures the CPU emulator: build it with the emulator toolchain"
#endif

#include <cuda_runtime.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr unsigned block_threads = 256;
constexpr unsigned reduce_barriers_per_block = 8;
constexpr size_t default_n = size_t(1) << 22;
constexpr int timed_runs = 5;

/* ---- CPU references ------------------------------------------------------ */

void vector_add_reference(const float *a, const float *b, float *c, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        c[i] = a[i] + b[i];
}

/* Each block's sum in double: independent of the tree's order of additions. */
std::vector<double> block_sums_reference(const float *x, size_t n)
{
    std::vector<double> sums(n / block_threads, 0.0);
    for (size_t i = 0; i < n; ++i)
        sums[i / block_threads] += x[i];
    return sums;
}

/* ---- the kernels, as CUDA ------------------------------------------------- */

__global__ void vector_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* A shared-memory tree sum of one block of `threads` elements (n is a
 * multiple of it, so every thread has one): one __syncthreads after the
 * load, then one after each halving step down to stride 2; the last step
 * (s[0] + s[1]) is thread 0's alone and needs none. reduce_256 is
 * tree_sum<256>: exactly 8 barriers per block. */
template <unsigned threads>
__global__ void tree_sum(const float *x, float *partial)
{
    __shared__ float s[threads];
    unsigned t = threadIdx.x;
    s[t] = x[(size_t)blockIdx.x * threads + t];
    __syncthreads();
    for (unsigned stride = threads / 2; stride > 1; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0] + s[1];
}

/* The widest block, tree_sum<1024> (10 barriers): run once, for its memory. */
constexpr unsigned wide_threads = 1024;
constexpr unsigned wide_blocks = 64;
constexpr unsigned wide_barriers = 10;

/* ---- the same kernels for the ucontext baseline --------------------------- */

struct barrier_fn {
    void (*wait)(void *ctx);
    void *ctx;
    void operator()() const { wait(ctx); }
};

/* One CUDA thread: `shared` is its block's shared memory. */
using plain_kernel = void (*)(const void *args, float *shared, unsigned tid, unsigned bid, barrier_fn barrier);

struct vector_add_args {
    const float *a, *b;
    float *c;
    size_t n;
};

void plain_vector_add(const void *args, float *, unsigned tid, unsigned bid, barrier_fn)
{
    const vector_add_args *p = static_cast<const vector_add_args *>(args);
    size_t i = (size_t)bid * block_threads + tid;
    if (i < p->n)
        p->c[i] = p->a[i] + p->b[i];
}

struct reduce_args {
    const float *x;
    float *partial;
};

void plain_reduce_256(const void *args, float *s, unsigned t, unsigned bid, barrier_fn barrier)
{
    const reduce_args *p = static_cast<const reduce_args *>(args);
    s[t] = p->x[(size_t)bid * block_threads + t];
    barrier();
    for (unsigned stride = block_threads / 2; stride > 1; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        barrier();
    }
    if (t == 0)
        p->partial[bid] = s[0] + s[1];
}

/* ---- the ucontext baseline engine ---------------------------------------- */

/* Runs a grid block by block; within a block, one fiber per thread. The
 * scheduler resumes every unfinished fiber once per round; a fiber runs to
 * its next barrier (or its end) and switches back, so when a round ends all
 * live threads wait at the same barrier, which is what makes it a barrier. */
class ucontext_engine {
public:
    ucontext_engine() : fibers_(block_threads), done_(block_threads)
    {
        for (unsigned t = 0; t < block_threads; ++t)
            stacks_.emplace_back(new char[stack_bytes]);
    }

    /* Returns false with a message on stderr when a context cannot be made. */
    bool run_grid(plain_kernel kernel, const void *args, unsigned blocks)
    {
        kernel_ = kernel;
        args_ = args;
        active_ = this;
        for (unsigned bid = 0; bid < blocks; ++bid)
            if (!run_block(bid))
                return false;
        return true;
    }

    unsigned long long barrier_steps() const { return barrier_steps_; }
    void reset_barrier_steps() { barrier_steps_ = 0; }

private:
    static constexpr size_t stack_bytes = 16 * 1024; /* the kernels use a few hundred bytes */

    /* A fresh fiber for thread t, to start at fiber_main. Its own function:
     * getcontext returns twice, which would endanger a caller's loop
     * variables (-Wclobbered). */
    bool prepare_fiber(unsigned t)
    {
        ucontext_t *f = &fibers_[t];
        if (getcontext(f) != 0) {
            std::perror("emu_throughput: getcontext");
            return false;
        }
        f->uc_stack.ss_sp = stacks_[t].get();
        f->uc_stack.ss_size = stack_bytes;
        f->uc_link = &scheduler_;
        makecontext(f, &ucontext_engine::fiber_main, 0);
        done_[t] = 0;
        return true;
    }

    bool run_block(unsigned bid)
    {
        bid_ = bid;
        for (unsigned t = 0; t < block_threads; ++t)
            if (!prepare_fiber(t))
                return false;
        unsigned remaining = block_threads;
        while (remaining > 0) {
            for (unsigned t = 0; t < block_threads; ++t) {
                if (done_[t])
                    continue;
                current_ = t;
                swapcontext(&scheduler_, &fibers_[t]);
                if (done_[t])
                    --remaining;
            }
        }
        return true;
    }

    /* makecontext passes no pointer portably, hence the engine in a static. */
    static void fiber_main()
    {
        ucontext_engine *self = active_;
        unsigned t = self->current_;
        self->kernel_(self->args_, self->shared_, t, self->bid_, barrier_fn{&ucontext_engine::wait, self});
        self->done_[t] = 1; /* returning follows uc_link to the scheduler */
    }

    static void wait(void *ctx)
    {
        ucontext_engine *self = static_cast<ucontext_engine *>(ctx);
        ++self->barrier_steps_;
        swapcontext(&self->fibers_[self->current_], &self->scheduler_);
    }

    static ucontext_engine *active_;
    std::vector<ucontext_t> fibers_;
    std::vector<std::unique_ptr<char[]>> stacks_;
    std::vector<unsigned char> done_;
    ucontext_t scheduler_;
    plain_kernel kernel_ = nullptr;
    const void *args_ = nullptr;
    unsigned bid_ = 0;
    unsigned current_ = 0;
    unsigned long long barrier_steps_ = 0;
    float shared_[block_threads];
};

ucontext_engine *ucontext_engine::active_ = nullptr;

/* ---- timing and checking --------------------------------------------------- */

/* What median_ms measures: wall time, or (the builds' comparison, where
 * one worker, the calling thread, runs every block) that thread's CPU
 * time, which another process on the machine does not lengthen. */
bool thread_cpu_time = false;

double now_ms()
{
    if (thread_cpu_time) {
        timespec t;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* One warm-up, then the median of timed_runs runs, in ms. `run` returns
 * false on failure, which ends the benchmark. */
template <class F>
bool median_ms(F run, double *ms)
{
    if (!run())
        return false;
    std::vector<double> times;
    for (int r = 0; r < timed_runs; ++r) {
        const double start = now_ms();
        if (!run())
            return false;
        times.push_back(now_ms() - start);
    }
    std::sort(times.begin(), times.end());
    *ms = times[times.size() / 2];
    return true;
}

bool cuda_ok(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return true;
    std::fprintf(stderr, "emu_throughput: %s failed: %s (%s)\n%s\n", what, cudaGetErrorName(err),
                 cudaGetErrorString(err), simtlab_emu_last_diagnostic());
    return false;
}

bool launch_ok(const char *what)
{
    return cuda_ok(cudaGetLastError(), what) && cuda_ok(cudaDeviceSynchronize(), what);
}

/* Exact: both sides do one float addition per element. NaN never matches. */
bool check_vector_add(const char *engine, const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (!(got[i] == want[i])) {
            std::fprintf(stderr, "emu_throughput: vector_add on %s: c[%zu] = %.9g, want %.9g\n", engine, i,
                         (double)got[i], (double)want[i]);
            return false;
        }
    return true;
}

/* Within the float rounding a 256-term sum of values in [-1, 1] can
 * accumulate: 8 levels of additions, each off by half an ulp of at most
 * 256. */
bool check_partials(const char *engine, const float *got, const std::vector<double> &want, size_t blocks)
{
    const double tolerance = 8 * 256 * 0.5 * std::ldexp(1.0, -23);
    for (size_t b = 0; b < blocks; ++b)
        if (!(std::fabs((double)got[b] - want[b]) <= tolerance)) {
            std::fprintf(stderr, "emu_throughput: reduce_256 on %s: block %zu sum %.9g, want %.9g\n", engine, b,
                         (double)got[b], want[b]);
            return false;
        }
    return true;
}

/* ---- results -------------------------------------------------------------------- */

struct result {
    const char *kernel;
    const char *engine;
    size_t n;
    double ms;
    unsigned long long barrier_steps; /* per run */
    double threads_per_s() const { return (double)n / (ms * 1e-3); }
    double barrier_steps_per_s() const { return (double)barrier_steps / (ms * 1e-3); }
};

void print_table(const std::vector<result> &rows)
{
    std::printf("\n%-11s %-18s %9s %12s %16s %20s\n", "kernel", "engine", "n", "ms (median)", "threads/s",
                "barrier steps/s");
    for (const result &r : rows)
        std::printf("%-11s %-18s %9zu %12.3f %16.4g %20.4g\n", r.kernel, r.engine, r.n, r.ms, r.threads_per_s(),
                    r.barrier_steps_per_s());
}

void write_csv(const char *path, const std::vector<result> &rows)
{
    FILE *f = std::fopen(path, "w");
    if (f == nullptr) {
        std::fprintf(stderr, "emu_throughput: cannot write %s: %s\n", path, std::strerror(errno));
        return;
    }
    std::fprintf(f, "kernel,engine,n,ms,threads_per_s,barrier_steps_per_s\n");
    for (const result &r : rows)
        std::fprintf(f, "%s,%s,%zu,%.6f,%.6g,%.6g\n", r.kernel, r.engine, r.n, r.ms, r.threads_per_s(),
                     r.barrier_steps_per_s());
    std::fclose(f);
    std::printf("CSV written to %s\n", path);
}

void print_targets(const result &add_emu, const result &reduce_emu, const result &reduce_uc, const result &add_uc)
{
    double reduce_ratio = reduce_emu.barrier_steps_per_s() / reduce_uc.barrier_steps_per_s();
    double add_ratio = add_emu.threads_per_s() / add_uc.threads_per_s();
    std::printf("\nreduce_256: emulator / ucontext = %.1fx the barrier-step rate (target >= 100x): %s\n",
                reduce_ratio, reduce_ratio >= 100.0 ? "met" : "NOT met");
    std::printf("vector_add: emulator / ucontext = %.1fx the thread rate\n", add_ratio);
    std::printf("vector_add: %.3f ms for %zu floats on the emulator (target < 15 ms for 2^22): %s\n", add_emu.ms,
                add_emu.n, add_emu.n == default_n ? (add_emu.ms < 15.0 ? "met" : "NOT met") : "n differs, not judged");
    std::printf("(Emulator timings are CPU time of the emulator, not GPU timings.)\n");
}

/* ---- the benchmark ------------------------------------------------------------------- */

struct options {
    const char *csv = nullptr;
    size_t n = default_n;
    size_t baseline_n = default_n / 16;
    bool emulator_only = false; /* the emulator's two kernels, one result line (the builds' comparison) */
};

bool parse_size(const char *text, size_t *out)
{
    char *end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0' || v == 0 || v % block_threads != 0 || v > (1ull << 31))
        return false;
    *out = (size_t)v;
    return true;
}

bool parse_options(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; ++i) {
        bool has_value = i + 1 < argc;
        if (std::strcmp(argv[i], "--csv") == 0 && has_value) {
            o->csv = argv[++i];
        } else if (std::strcmp(argv[i], "--n") == 0 && has_value && parse_size(argv[i + 1], &o->n)) {
            ++i;
        } else if (std::strcmp(argv[i], "--baseline-n") == 0 && has_value && parse_size(argv[i + 1], &o->baseline_n)) {
            ++i;
        } else if (std::strcmp(argv[i], "--emulator-only") == 0) {
            o->emulator_only = true;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--csv FILE] [--n N] [--baseline-n N] [--emulator-only]\n"
                         "  N: a multiple of 256, at most 2^31 (default n 2^22, baseline n 2^18)\n",
                         argv[0]);
            return false;
        }
    }
    o->baseline_n = std::min(o->baseline_n, o->n);
    return true;
}

/* The inputs, in host and device memory. */
struct problem {
    size_t n = 0;
    std::vector<float> a, b, want_c;
    std::vector<double> want_sums;
    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_partial = nullptr;

    ~problem()
    {
        cudaFree(d_a);
        cudaFree(d_b);
        cudaFree(d_c);
        cudaFree(d_partial);
    }

    bool init(size_t elements, unsigned seed)
    {
        n = elements;
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        a.resize(n);
        b.resize(n);
        want_c.resize(n);
        for (size_t i = 0; i < n; ++i) {
            a[i] = dist(rng);
            b[i] = dist(rng);
        }
        vector_add_reference(a.data(), b.data(), want_c.data(), n);
        want_sums = block_sums_reference(a.data(), n);
        size_t bytes = n * sizeof(float);
        return cuda_ok(cudaMalloc(&d_a, bytes), "cudaMalloc a") && cuda_ok(cudaMalloc(&d_b, bytes), "cudaMalloc b") &&
               cuda_ok(cudaMalloc(&d_c, bytes), "cudaMalloc c") &&
               cuda_ok(cudaMalloc(&d_partial, bytes / block_threads), "cudaMalloc partial") &&
               cuda_ok(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy a") &&
               cuda_ok(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy b");
    }
    unsigned blocks() const { return (unsigned)(n / block_threads); }
};

bool run_emulator_vector_add(const problem &p)
{
    vector_add<<<p.blocks(), block_threads>>>(p.d_a, p.d_b, p.d_c, p.n);
    return launch_ok("vector_add");
}

bool run_emulator_reduce(const problem &p)
{
    tree_sum<block_threads><<<p.blocks(), block_threads>>>(p.d_a, p.d_partial);
    return launch_ok("reduce_256");
}

/* Validates, then times, both kernels on the emulator. */
bool bench_emulator(const problem &p, std::vector<result> *rows)
{
    std::vector<float> got(p.n);
    /* Poisoned (0xFF bytes: NaN) so that an element nobody wrote fails. */
    if (!cuda_ok(cudaMemset(p.d_c, 0xFF, p.n * sizeof(float)), "cudaMemset c") || !run_emulator_vector_add(p) ||
        !cuda_ok(cudaMemcpy(got.data(), p.d_c, p.n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy c") ||
        !check_vector_add("emulator", got.data(), p.want_c.data(), p.n))
        return false;
    if (!cuda_ok(cudaMemset(p.d_partial, 0xFF, p.blocks() * sizeof(float)), "cudaMemset partial") ||
        !run_emulator_reduce(p) ||
        !cuda_ok(cudaMemcpy(got.data(), p.d_partial, p.blocks() * sizeof(float), cudaMemcpyDeviceToHost),
                 "cudaMemcpy partial") ||
        !check_partials("emulator", got.data(), p.want_sums, p.blocks()))
        return false;
    std::printf("emulator: both kernels match the CPU reference; timing...\n");
    result add{"vector_add", "emulator", p.n, 0, 0};
    result red{"reduce_256", "emulator", p.n, 0, (unsigned long long)p.n * reduce_barriers_per_block};
    if (!median_ms([&] { return run_emulator_vector_add(p); }, &add.ms) ||
        !median_ms([&] { return run_emulator_reduce(p); }, &red.ms))
        return false;
    rows->push_back(add);
    rows->push_back(red);
    return true;
}

/* Validates, then times, both kernels on the ucontext baseline, over the
 * first `n` elements of the problem (in host memory). */
bool bench_ucontext(const problem &p, size_t n, std::vector<result> *rows)
{
    ucontext_engine engine;
    unsigned blocks = (unsigned)(n / block_threads);
    std::vector<float> c(n, NAN), partial(blocks, NAN);
    vector_add_args add_args{p.a.data(), p.b.data(), c.data(), n};
    reduce_args red_args{p.a.data(), partial.data()};
    if (!engine.run_grid(plain_vector_add, &add_args, blocks) ||
        !check_vector_add("ucontext", c.data(), p.want_c.data(), n))
        return false;
    engine.reset_barrier_steps();
    if (!engine.run_grid(plain_reduce_256, &red_args, blocks) || !check_partials("ucontext", partial.data(), p.want_sums, blocks))
        return false;
    /* The stated barrier count, checked on the engine that can count. */
    if (engine.barrier_steps() != (unsigned long long)n * reduce_barriers_per_block) {
        std::fprintf(stderr, "emu_throughput: reduce_256 passed %llu barrier steps, want %zu x %u\n",
                     engine.barrier_steps(), n, reduce_barriers_per_block);
        return false;
    }
    std::printf("ucontext: both kernels match the CPU reference; timing on n = %zu...\n", n);
    result add{"vector_add", "ucontext", n, 0, 0};
    result red{"reduce_256", "ucontext", n, 0, (unsigned long long)n * reduce_barriers_per_block};
    if (!median_ms([&] { return engine.run_grid(plain_vector_add, &add_args, blocks); }, &add.ms) ||
        !median_ms([&] { return engine.run_grid(plain_reduce_256, &red_args, blocks); }, &red.ms))
        return false;
    rows->push_back(add);
    rows->push_back(red);
    return true;
}

/* ---- the builds slcc makes, in the same run -------------------------------------- */

const char times_tag[] = "emu_throughput-times:";

/* The directory of this executable, with its final '/', or "". */
std::string own_directory()
{
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return "";
    path[n] = '\0';
    char *slash = std::strrchr(path, '/');
    if (slash == nullptr)
        return "";
    slash[1] = '\0';
    return path;
}

/* Runs `exe --emulator-only --n N` with one worker (SIMTLAB_EMU_THREADS=1:
 * the calling thread runs every block, and the times it prints are that
 * thread's CPU time, which other processes on the machine do not
 * lengthen), its stderr ours, and reads the two times; false, saying why,
 * when it gives none. */
bool run_build(const std::string &exe, size_t n, double *add_ms, double *reduce_ms)
{
    int fd[2];
    if (pipe(fd) != 0) {
        std::perror("emu_throughput: pipe");
        return false;
    }
    const std::string n_text = std::to_string(n);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("emu_throughput: fork");
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        setenv("SIMTLAB_EMU_THREADS", "1", 1);
        execl(exe.c_str(), exe.c_str(), "--emulator-only", "--n", n_text.c_str(), (char *)nullptr);
        _exit(127);
    }
    close(fd[1]);
    std::string out;
    char buf[4096];
    ssize_t got;
    while ((got = read(fd[0], buf, sizeof buf)) > 0)
        out.append(buf, (size_t)got);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const size_t at = out.find(times_tag);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || at == std::string::npos ||
        std::sscanf(out.c_str() + at + sizeof times_tag - 1, " vector_add %lf reduce_256 %lf", add_ms, reduce_ms) != 2) {
        std::fprintf(stderr, "emu_throughput: %s gave no times (%s %d); its output:\n%s\n", exe.c_str(),
                     WIFEXITED(status) ? "exit status" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), out.c_str());
        return false;
    }
    return true;
}

/* The same file built by `slcc --fast` and by plain `slcc` (checked), where
 * they lie beside this program: three rounds, the two builds alternating,
 * one worker each (run_build); the best median of each build and kernel is
 * appended to rows, and checked / fast is printed against its target.
 * Returns false when a build ran and failed; a build that is not there is
 * skipped, saying so. */
bool compare_builds(const options &opt, std::vector<result> *rows, std::string *summary)
{
    struct build {
        const char *file, *engine;
        double add_ms, reduce_ms;
        bool ran;
    } builds[] = {{"bench_emu_throughput_fast", "fast, 1 CPU", 0, 0, false},
                  {"bench_emu_throughput_checked", "checked, 1 CPU", 0, 0, false}};
    const std::string dir = own_directory();
    bool present[2];
    for (int k = 0; k < 2; k++) {
        present[k] = access((dir + builds[k].file).c_str(), X_OK) == 0;
        if (!present[k])
            std::printf("%s%s: not built (cmake --build <build> --target bench_emu_throughput_modes), so the %s "
                        "build is not measured\n", dir.c_str(), builds[k].file, builds[k].engine);
    }
    if (present[0] || present[1])
        std::printf("slcc builds: 3 rounds of %s, one worker each, CPU time, best median of each...\n",
                    present[0] && present[1] ? "--fast then checked" : "one build");
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < 2; k++) {
            build &b = builds[k];
            double add = 0, reduce = 0;
            if (!present[k])
                continue;
            if (!run_build(dir + b.file, opt.n, &add, &reduce))
                return false;
            b.add_ms = b.ran ? std::min(b.add_ms, add) : add;
            b.reduce_ms = b.ran ? std::min(b.reduce_ms, reduce) : reduce;
            b.ran = true;
        }
    for (const build &b : builds)
        if (b.ran) {
            rows->push_back(result{"vector_add", b.engine, opt.n, b.add_ms, 0});
            rows->push_back(result{"reduce_256", b.engine, opt.n, b.reduce_ms,
                                   (unsigned long long)opt.n * reduce_barriers_per_block});
        }
    if (builds[0].ran && builds[1].ran) {
        const double add = builds[1].add_ms / builds[0].add_ms, reduce = builds[1].reduce_ms / builds[0].reduce_ms;
        char text[256];
        std::snprintf(text, sizeof text,
                      "slcc builds, CPU time of one worker: checked / --fast = %.2fx (vector_add), %.2fx "
                      "(reduce_256) in this run (target <= 5x): %s\n",
                      add, reduce, add <= 5.0 && reduce <= 5.0 ? "met" : "NOT met");
        *summary = text;
    }
    return true;
}

} /* namespace */

long peak_rss_kib()
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : -1;
}

/* reduce_1024, run first, in a still small process: how much the peak
 * resident memory grows over one launch of 1024-thread blocks (every thread
 * of a block waits at each barrier, so each needs its own fiber stack).
 * Target: under 1 GiB. The sums are exact (multiples of 1/4 below 2^11), so
 * they are checked for equality. */
bool report_wide_block_memory()
{
    const size_t n = size_t(wide_blocks) * wide_threads;
    std::vector<float> host(n);
    std::vector<double> want(wide_blocks, 0.0);
    for (size_t i = 0; i < n; ++i) {
        host[i] = 0.25f * static_cast<float>(i % 7);
        want[i / wide_threads] += host[i];
    }
    float *x = nullptr, *partial = nullptr;
    if (!cuda_ok(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&partial, wide_blocks * sizeof(float)), "cudaMalloc") ||
        !cuda_ok(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy"))
        return false;
    const long before = peak_rss_kib();
    tree_sum<wide_threads><<<wide_blocks, wide_threads>>>(x, partial);
    if (!launch_ok("reduce_1024"))
        return false;
    const long after = peak_rss_kib();
    std::vector<float> got(wide_blocks);
    if (!cuda_ok(cudaMemcpy(got.data(), partial, wide_blocks * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return false;
    for (unsigned b = 0; b < wide_blocks; ++b) {
        if (!(got[b] == want[b])) {
            std::fprintf(stderr, "emu_throughput: reduce_1024 block %u: %.9g, expected %.9g\n", b, got[b], want[b]);
            return false;
        }
    }
    cudaFree(x);
    cudaFree(partial);
    const double grew_mib = (after - before) / 1024.0;
    std::printf("reduce_1024: %u blocks of %u threads, %u barriers each, match the CPU reference; peak resident\n"
                "memory grew by %.1f MiB over the launch, to %.1f MiB (target < 1 GiB): %s\n",
                wide_blocks, wide_threads, wide_barriers, grew_mib, after / 1024.0,
                after - before < 1024L * 1024 ? "met" : "NOT met");
    return true;
}

int main(int argc, char **argv)
{
    options opt;
    if (!parse_options(argc, argv, &opt))
        return 2;
    const unsigned seed = 20240601u;
    if (opt.emulator_only) { /* for compare_builds: the two kernels, one line */
        const char *workers = std::getenv("SIMTLAB_EMU_THREADS");
        thread_cpu_time = workers && std::strcmp(workers, "1") == 0;
        problem p;
        std::vector<result> rows;
        if (!p.init(opt.n, seed) || !bench_emulator(p, &rows))
            return 1;
        std::printf("%s vector_add %.6f reduce_256 %.6f\n", times_tag, rows[0].ms, rows[1].ms);
        return 0;
    }
    std::printf("emu_throughput: simtlab CPU emulator vs a one-fiber-per-thread ucontext loop\n");
    std::printf("kernels: vector_add (no barrier), reduce_256 (%u __syncthreads per block of %u)\n",
                reduce_barriers_per_block, block_threads);
    std::printf("n = %zu floats (ucontext baseline: %zu), input seed %u, median of %d runs after a warm-up\n",
                opt.n, opt.baseline_n, seed, timed_runs);
    if (!report_wide_block_memory())
        return 1;
    problem p;
    if (!p.init(opt.n, seed))
        return 1;
    std::vector<result> rows;
    std::string builds_summary;
    if (!bench_emulator(p, &rows) || !bench_ucontext(p, opt.baseline_n, &rows) ||
        !compare_builds(opt, &rows, &builds_summary))
        return 1;
    print_table(rows);
    print_targets(rows[0], rows[1], rows[3], rows[2]);
    std::fputs(builds_summary.c_str(), stdout);
    if (opt.csv)
        write_csv(opt.csv, rows);
    return 0;
}
