/* simtlab — the host library students call.
 *
 * Every entry point owns the whole lifecycle of its kernel (allocate, copy in,
 * launch, check, copy back, free), returns an sl_status and never exits or
 * aborts. When a call fails, sl_last_error() gives one line that says what
 * failed, where, why, and what to do about it.
 *
 * The same functions exist in two builds: libsimtlab_cuda (real GPUs) and
 * libsimtlab_emu (the CPU emulator). sl_backend_name() says which one a
 * program was linked with.
 */
#ifndef SIMTLAB_SIMTLAB_H
#define SIMTLAB_SIMTLAB_H

/* The shared core, then every chapter in teaching order. */
#include "simtlab/core.h"
#include "simtlab/00_doctor.h"
#include "simtlab/01_vector_add.h"
#include "simtlab/02_gpu_pays.h"
#include "simtlab/03_divergence.h"
#include "simtlab/03_occupancy.h" /* the occupancy calculator */
#include "simtlab/04_reduce.h"
#include "simtlab/05_transpose.h"
#include "simtlab/05_sgemm.h"
#include "simtlab/06_tensor_gemm.h"
#include "simtlab/07_errors.h"

#endif
