/* model_check — one measured H200 row, run on the CPU emulator at its
 * measured size, and the time the emulator's model gives for it on a named
 * GPU (modelled, not measured).
 *
 * scripts/model-check.py drives it: it reads bench/data/h200_2026-12-04.csv,
 * maps each row's 12-04 version name onto today's (bench/data/version_map.csv)
 * and writes one line a row on this program's standard input:
 *
 *   <id> <chapter> <table> <version> <size> [key=value ...]
 *
 *   chapter, table: as in the data file (01 vector_add, 03 kway | pairs |
 *                   kway_4096, 04 reduce, 05 transpose | sgemm, 06 tgemm_f16 |
 *                   tgemm_bf16)
 *   version:        today's version number (v3 or 3); 03 kway rows add k=K
 *   size:           n for 01, 03 and 04; the matrix side for 05 and 06
 *   keys:           k=, work=, width=, block= (03); shape=<name with _ for
 *                   blanks> (05 sgemm: the tile shape v9 runs, by the start of
 *                   its name)
 *
 * and answers one line a row on standard output:
 *
 *   <id> <model_us> <gpu> <note>
 *
 * model_us is sl_modelled.model_us of the one call that runs the kernel
 * (sl_modelled_run around the chapter's *_device function), < 0 with the
 * note "not modelled: <reason>" when the model could not price it; a row
 * that could not run at all answers "<id> -1 - error: <message>".
 *
 * Nothing here is a result: the inputs are filled, the chapter's own call
 * runs, and the figure is the model's. SIMTLAB_EMU_SAMPLE_BLOCKS (the
 * emulator's block sampling, emu/docs/model.md) and SIMTLAB_MODEL_GPU come
 * from the environment; outputs of a sampled launch are incomplete, so
 * nothing is checked here (the chapters' tests check the kernels). The
 * escape-time versions of chapter 03 are data-dependent: the script runs
 * them in a second process without sampling.
 *
 * v5 of chapter 03 (sorted by trip count) builds its order from a first run
 * of v3 inside the same call; the model's figure for v5 alone is the call's
 * minus that of a v3 call with the same arguments (said in the note).
 *
 * Usage: model_check < rows   (model_check --help) */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

#include <cuda_runtime_api.h>
#ifdef SIMTLAB_EMU /* the emulator's cuda_runtime_api.h says so */
#include <simtlab_emu/profile.h>
#endif

typedef struct row {
    char id[64], chapter[8], table[32];
    int version;
    size_t size;
    int k, work, width, block;
    char shape[96];
} row;

typedef struct call {
    const row *r;
    void *buf[3];
    int version; /* the version this call runs (03 v5: v3 for its first run) */
} call;

static sl_status run_call(void *ctx)
{
    call *c = ctx;
    const row *r = c->r;
    sl_opts opts = {c->version, r->block};
    double ms = 0.0;
    size_t n = r->size;
    if (strcmp(r->chapter, "01") == 0)
        return sl_vector_add_device(c->buf[0], c->buf[1], c->buf[2], n, &opts, &ms);
    if (strcmp(r->chapter, "03") == 0) {
        sl_divergence_params p = {r->k, r->work, r->width};
        return sl_divergence_device(c->buf[0], c->buf[1], n, &p, &opts, &ms);
    }
    if (strcmp(r->chapter, "04") == 0) {
        float sum = 0.0f;
        return sl_reduce_sum_f32_device(c->buf[0], n, &sum, &opts, &ms);
    }
    if (strcmp(r->table, "transpose") == 0)
        return sl_transpose_device(c->buf[0], n, n, n, c->buf[1], n, &opts, &ms);
    if (strcmp(r->table, "sgemm") == 0)
        return sl_sgemm_device(n, n, n, 1.0f, c->buf[0], n, c->buf[1], n, 0.0f, c->buf[2], n, &opts, &ms);
    sl_tgemm_type type = strcmp(r->table, "tgemm_bf16") == 0 ? SL_TGEMM_BF16 : SL_TGEMM_F16;
    return sl_tgemm_device(type, n, n, n, c->buf[0], c->buf[1], c->buf[2], &opts, &ms);
}

/* The bytes of each buffer the row's call takes (0: none). */
static int buffer_bytes(const row *r, size_t bytes[3], char *why, size_t cap)
{
    size_t n = r->size;
    bytes[0] = bytes[1] = bytes[2] = 0;
    if (strcmp(r->chapter, "01") == 0) {
        bytes[0] = bytes[1] = bytes[2] = n * sizeof(float);
    } else if (strcmp(r->chapter, "03") == 0) {
        bytes[0] = bytes[1] = n * sizeof(uint32_t);
    } else if (strcmp(r->chapter, "04") == 0) {
        bytes[0] = n * sizeof(float);
    } else if (strcmp(r->table, "transpose") == 0) {
        bytes[0] = bytes[1] = n * n * sizeof(float);
    } else if (strcmp(r->table, "sgemm") == 0) {
        bytes[0] = bytes[1] = bytes[2] = n * n * sizeof(float);
    } else if (strcmp(r->table, "tgemm_f16") == 0 || strcmp(r->table, "tgemm_bf16") == 0) {
        bytes[0] = bytes[1] = n * n * sizeof(uint16_t);
        bytes[2] = n * n * sizeof(float);
    } else {
        snprintf(why, cap, "chapter %s table %s: no such table (01 vector_add, 03 kway|pairs|kway_4096, "
                           "04 reduce, 05 transpose|sgemm, 06 tgemm_f16|tgemm_bf16)", r->chapter, r->table);
        return 0;
    }
    return 1;
}

/* One modelled call: *us the model's time, note its bound or why not. */
static sl_status model_call(call *c, double *us, char gpu[32], char *note, size_t cap)
{
    sl_modelled m;
    memset(&m, 0, sizeof m);
#ifdef SIMTLAB_EMU
    simtlab_emu_checks_pause(); /* as the benches time: the counters stay on, the checks off */
#endif
    sl_status st = sl_modelled_run(run_call, c, &m);
#ifdef SIMTLAB_EMU
    simtlab_emu_checks_resume();
#endif
    if (st != SL_OK) return st;
    *us = m.model_us;
    snprintf(gpu, 32, "%s", m.model_gpu[0] ? m.model_gpu : "-");
    snprintf(note, cap, "%s", m.model_note[0] ? m.model_note : "-");
    return SL_OK;
}

static void answer_error(const char *id, const char *what)
{
    printf("%s -1 - error: %s\n", id, what);
    fflush(stdout);
}

static void one_row(const row *r)
{
    char gpu[32] = "-", gpu3[32];
    size_t bytes[3];
    char why[512];
    if (!buffer_bytes(r, bytes, why, sizeof why)) {
        answer_error(r->id, why);
        return;
    }
    if (strcmp(r->table, "sgemm") == 0 && r->shape[0]) {
        int found = -1;
        for (int s = 0; s < sl_sgemm_v9_shape_count(); s++) {
            const char *name = sl_sgemm_v9_shape_name(s);
            if (name && strncmp(name, r->shape, strlen(r->shape)) == 0) found = s;
        }
        if (found < 0 || sl_sgemm_v9_use_shape(found) != SL_OK) {
            snprintf(why, sizeof why, "shape \"%s\": no v9 shape has that name", r->shape);
            answer_error(r->id, why);
            return;
        }
    }
    call c = {r, {NULL, NULL, NULL}, r->version};
    sl_status st = SL_OK;
    for (int i = 0; st == SL_OK && i < 3; i++) {
        if (!bytes[i]) continue;
        st = sl_alloc_device(&c.buf[i], bytes[i]);
        /* inputs: finite values (0x3c bytes: 0.0115f, 1.06 in f16); chapter 03's keys: random */
        if (st == SL_OK) st = sl_fill_bytes_device(c.buf[i], 0x3c, bytes[i]);
    }
    if (st == SL_OK && strcmp(r->chapter, "03") == 0) {
        uint32_t *x = malloc(bytes[0]);
        uint64_t state = 3; /* bench/03_divergence.c's seed */
        if (!x) st = SL_ERR_HOST_MEMORY;
        for (size_t i = 0; x && i < r->size; i++) x[i] = (uint32_t)sl_rng_next(&state);
        if (x) st = sl_copy_to_device(c.buf[0], x, bytes[0]);
        free(x);
    }
    double us = -1.0;
    char note[200] = "-";
    if (st == SL_OK) st = model_call(&c, &us, gpu, note, sizeof note);
    if (st == SL_OK && us >= 0 && strcmp(r->chapter, "03") == 0 && r->version == 5) {
        /* v5's call runs v3 first for its order: take that run's figure out */
        call first = c;
        first.version = 3;
        double us3 = -1.0;
        char note3[200];
        st = model_call(&first, &us3, gpu3, note3, sizeof note3);
        if (st == SL_OK && us3 >= 0) {
            char both[200];
            us -= us3;
            snprintf(both, sizeof both, "%s (the call's v3 first run taken out)", note);
            snprintf(note, sizeof note, "%s", both);
        } else if (st == SL_OK) {
            us = -1.0;
            snprintf(note, sizeof note, "%s", note3);
        }
    }
    for (int i = 0; i < 3; i++)
        if (c.buf[i]) sl_free_device(c.buf[i]);
    if (st != SL_OK) {
        answer_error(r->id, st == SL_ERR_HOST_MEMORY ? "out of host memory" : sl_last_error());
        return;
    }
    for (char *p = note; *p; p++)
        if (*p == '\n') *p = ' ';
    printf("%s %.6g %s %s\n", r->id, us, gpu, note);
    fflush(stdout);
}

/* "<id> <chapter> <table> <version> <size> [key=value ...]" -> *r; 0 with *why on bad input. */
static int parse_row(char *line, row *r, char *why, size_t cap)
{
    memset(r, 0, sizeof *r);
    r->k = 1;
    r->work = 256;
    r->width = 1024;
    char version[32] = "", size[32] = "";
    int used = 0;
    if (sscanf(line, "%63s %7s %31s %31s %31s %n", r->id, r->chapter, r->table, version, size, &used) < 5) {
        snprintf(why, cap, "expected \"<id> <chapter> <table> <version> <size> [key=value ...]\"");
        return 0;
    }
    const char *v = version[0] == 'v' ? version + 1 : version;
    char *end = NULL;
    long ver = strtol(v, &end, 10);
    if (!*v || *end || ver < 1 || ver > 64) {
        snprintf(why, cap, "version \"%s\": expected v1 .. v64", version);
        return 0;
    }
    r->version = (int)ver;
    unsigned long long sz = strtoull(size, &end, 10);
    if (!isdigit((unsigned char)size[0]) || *end || sz == 0) {
        snprintf(why, cap, "size \"%s\": expected a positive integer", size);
        return 0;
    }
    r->size = (size_t)sz;
    for (char *tok = strtok(line + used, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(why, cap, "\"%s\": expected key=value", tok);
            return 0;
        }
        *eq = '\0';
        const char *val = eq + 1;
        if (strcmp(tok, "shape") == 0) {
            snprintf(r->shape, sizeof r->shape, "%s", val);
            for (char *p = r->shape; *p; p++)
                if (*p == '_') *p = ' ';
            continue;
        }
        long x = strtol(val, &end, 10);
        int *dst = strcmp(tok, "k") == 0       ? &r->k
                   : strcmp(tok, "work") == 0  ? &r->work
                   : strcmp(tok, "width") == 0 ? &r->width
                   : strcmp(tok, "block") == 0 ? &r->block
                                               : NULL;
        if (!dst || !*val || *end || x < 0 || x > (1L << 24)) {
            snprintf(why, cap, "\"%s=%s\": keys are k, work, width, block (integers) and shape", tok, val);
            return 0;
        }
        *dst = (int)x;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "usage: %s < rows\n  a row: <id> <chapter> <table> <version> <size> [key=value ...]\n"
                        "  (scripts/model-check.py writes them from bench/data/h200_2026-12-04.csv)\n", argv[0]);
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    if (sl_modelled_available() != SL_OK) {
        fprintf(stderr, "model_check: %s\n", sl_last_error());
        return 1;
    }
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0') continue;
        row r;
        char why[256];
        if (!parse_row(line, &r, why, sizeof why)) {
            char id[64] = "?";
            sscanf(line, "%63s", id);
            answer_error(id, why);
            continue;
        }
        one_row(&r);
    }
    size_t leaks = sl_alloc_report_leaks(stderr);
    return leaks ? 1 : 0;
}
