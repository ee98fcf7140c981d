/* Chapter 00 — the environment doctor.
 *
 * Tells a student, in one screen, whether this machine can run the course's
 * kernels on a GPU, and if not, what to run instead:
 *   - the CUDA driver and runtime versions;
 *   - every device: name, compute capability, SMs, memory, L2, and the peak
 *     memory bandwidth computed from its clock and bus width;
 *   - whether this binary carries machine code for each device, or only PTX
 *     the driver must compile first (or neither).
 *
 * Run: make doctor   (or build/bin/00_doctor, build/bin/00_doctor_emu) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

static void print_version(const char *what, int v)
{
    if (v == 0)
        printf("  %-16s none\n", what);
    else
        printf("  %-16s %d.%d\n", what, v / 1000, (v % 1000) / 10);
}

static int no_gpu_advice(void)
{
    printf("\nThis machine cannot run CUDA kernels on a GPU:\n  %s\n\n", sl_last_error());
    printf("You can still do the whole course. Every kernel also runs on the CPU\n"
           "emulator, built from the same sources:\n"
           "  make test                      runs every test under the emulator\n"
           "  build/bin/01_vector_add_emu    each example has an _emu twin\n"
           "  build/bin/slcc my.cu -o build/my   builds your own .cu file for the emulator\n"
           "Emulator timings are CPU timings: they teach correctness, not GPU speed.\n");
    return 0; /* no GPU is a normal outcome: the course runs on the emulator */
}

/* Does this binary carry machine code for compute capability major.minor? */
static void explain_image(int device, const sl_device_info *info)
{
    int binary = 0, ptx = 0;
    if (sl_backend_is_emulator()) {
        /* No GPU code at all: the kernels were rewritten to C++ and compiled
         * for this CPU; the capability above is the one the emulator models. */
        printf("    kernel image   none: the CPU emulator runs the kernels as C++ on this CPU\n"
               "                   (it models compute capability %d.%d; SIMTLAB_EMU_CC changes it)\n",
               info->major, info->minor);
        return;
    }
    if (sl_device_kernel_image(device, &binary, &ptx) != SL_OK) {
        printf("    kernel image   NONE usable: %s\n", sl_last_error());
        printf("                   rebuild for this GPU: cmake -B build "
               "-DCMAKE_CUDA_ARCHITECTURES=native && make test\n");
        return;
    }
    int cc = info->major * 10 + info->minor;
    char wanted[16];
    snprintf(wanted, sizeof wanted, "%d0", binary);
    int carried = strstr(sl_built_architectures(), wanted) != NULL;
    printf("    kernel image   sm_%d machine code from PTX %d.%d", binary, ptx / 10, ptx % 10);
    if (carried && binary == cc)
        printf(" (built for exactly this GPU)\n");
    else if (carried)
        printf(" (sm_%d code runs on sm_%d: same major version)\n", binary, cc);
    else
        printf("\n                   (JIT-compiled by the driver from PTX at start-up: it works,\n"
               "                   but the first launch is slow and the code is not tuned;\n"
               "                   rebuild with -DCMAKE_CUDA_ARCHITECTURES=native)\n");
}

/* "800,900" (the __CUDA_ARCH__ values nvcc compiled for) in words: each is
 * a compute capability x 100, and the binary holds machine code for it. */
static void print_built_for(void)
{
    const char *archs = sl_built_architectures();
    printf("  built for        %s", archs);
    if (sl_backend_is_emulator() || !archs[0] || archs[0] < '0' || archs[0] > '9') {
        printf("\n");
        return;
    }
    printf(" (__CUDA_ARCH__ values, compute capability x 100: machine code for");
    const char *p = archs;
    for (int first = 1; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        printf("%s sm_%ld", first ? "" : ",", v / 10);
        first = 0;
        p = *end == ',' ? end + 1 : end;
    }
    printf(")\n");
}

/* The versions this device cannot run, said before anything runs (each
 * also refuses itself with the same reason when called). */
static void explain_versions(const sl_device_info *info)
{
    if (sl_backend_is_emulator()) {
        printf("    not runnable   chapter 06 v6 (wgmma and TMA are not emulated: it needs an sm_90 GPU)\n");
        return;
    }
    int cc = info->major * 10 + info->minor;
    if (cc < 80)
        printf("    not runnable   chapter 06 v3 to v5 (mma.sync m16n8k16, ldmatrix, cp.async) and bf16 inputs:\n"
               "                   they need compute capability 8.0; this GPU has %d.%d, so they skip\n",
               info->major, info->minor);
    if (cc != 90)
        printf("    not runnable   chapter 06 v6 (wgmma, TMA): it needs compute capability 9.0 exactly (sm_90a\n"
               "                   code); this GPU has %d.%d, so it skips\n",
               info->major, info->minor);
}

int main(void)
{
    printf("simtlab doctor — backend: %s\n", sl_backend_name());
    print_built_for();
    int driver = 0, runtime = 0;
    if (sl_cuda_versions(&driver, &runtime) != SL_OK) return no_gpu_advice();
    print_version("CUDA driver", driver);
    print_version("CUDA runtime", runtime);

    sl_device_info info;
    int device = 0;
    for (; sl_device_query(device, &info) == SL_OK; device++) {
        printf("\n  device %d: %s\n", device, info.name);
        printf("    compute cap.   %d.%d\n", info.major, info.minor);
        printf("    SMs            %d\n", info.sm_count);
        printf("    memory         %.1f GiB\n", (double)info.global_mem_bytes / (1 << 30));
        printf("    L2 cache       %.1f MiB\n", info.l2_bytes / 1048576.0);
        printf("    max threads    %d per block, %zu KiB shared memory per block\n",
               info.max_threads_per_block, info.shared_per_block / 1024);
        if (sl_backend_is_emulator())
            printf("    peak bandwidth not meaningful: the emulator's memory is host memory\n");
        else if (info.peak_bandwidth_gbs > 0)
            printf("    peak bandwidth %.0f GB/s (2 x memory clock x bus width; measure with make bench)\n",
                   info.peak_bandwidth_gbs);
        explain_image(device, &info);
        explain_versions(&info);
    }
    if (device == 0) return no_gpu_advice();
    if (sl_backend_is_emulator())
        printf("\nThis is the CPU emulator: kernels run correctly here, timings are CPU timings.\n");
    return 0;
}
