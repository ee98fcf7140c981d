/* Tests of the rewriter's handling of inline PTX (src/tools/rewriter/rewrite_asm.c): reads
 * of special registers become calls, other PTX a compile-time error that
 * names the instruction, host assembly and compiler barriers stay as they
 * are, and lines stay where they were. Runs the slrewrite binary.
 *
 *   build/bin/test_rewrite_asm --verbose
 */
#define _DEFAULT_SOURCE 1 /* mkstemps */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rewrites `src` with slrewrite; returns the output (malloc'd) or NULL. */
static char *rewrite(const char *src)
{
    char in[] = "/tmp/sl_asm_XXXXXX.cu";
    int fd = mkstemps(in, 3);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    char out[64];
    snprintf(out, sizeof out, "%s.out", in);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' '%s' -o '%s'", SLREWRITE_PATH, in, out);
    int rc = system(cmd);
    unlink(in);
    if (rc != 0)
        return NULL;
    FILE *f = fopen(out, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(out);
    return strdup(buf);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(rewrite_asm, special_register_reads_become_calls)
{
    char *out = rewrite("__global__ void k(unsigned *o) {\n"
                        "  unsigned lane, sm;\n"
                        "  asm volatile(\"mov.u32 %0, %%laneid;\"\n"
                        "               : \"=r\"(lane));\n"
                        "  asm(\"mov.u32 %0, %%smid;\" : \"=r\"(sm));\n"
                        "  o[0] = lane + sm;\n"
                        "}\n");
    cr_assert_not_null(out);
    cr_expect_not_null(strstr(out, "(lane) = (unsigned int)::simtlab_emu::ptx_sreg::laneid();"), "%s", out);
    cr_expect_not_null(strstr(out, "(sm) = (unsigned int)::simtlab_emu::ptx_sreg::smid();"), "%s", out);
    cr_expect_null(strstr(out, "asm("), "%s", out);
    cr_expect_null(strstr(out, "asm volatile"), "%s", out);
    /* o[0] = ... stays on line 6 of the student's file. */
    const char *line1 = strstr(out, "#line 1");
    cr_assert_not_null(line1);
    const char *o0 = strstr(out, "o[0] =");
    cr_assert_not_null(o0);
    char *upto = strndup(line1, (size_t)(o0 - line1));
    cr_expect_eq(count_lines(upto), 6, "%s", out);
    free(upto);
    free(out);
}

Test(rewrite_asm, other_ptx_is_a_compile_time_error_naming_it)
{
    char *out = rewrite("__device__ float f(float x) {\n"
                        "  float y;\n"
                        "  asm(\"ex2.approx.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x));\n"
                        "  return y;\n"
                        "}\n");
    cr_assert_not_null(out);
    cr_expect_not_null(strstr(out, "static_assert(false, \"this PTX instruction is not emulated: ex2.approx.f32 %0, %1;\")"),
                       "%s", out);
    free(out);
}

Test(rewrite_asm, host_assembly_and_compiler_barriers_are_left_alone)
{
    char *out = rewrite("void h() {\n"
                        "  asm volatile(\"\" ::: \"memory\");\n"
                        "  __asm__ __volatile__(\"pause\");\n"
                        "}\n");
    cr_assert_not_null(out);
    cr_expect_not_null(strstr(out, "asm volatile(\"\" ::: \"memory\");"), "%s", out);
    cr_expect_not_null(strstr(out, "__asm__ __volatile__(\"pause\");"), "%s", out);
    free(out);
}

Test(rewrite_asm, one_integer_instruction_becomes_a_call)
{
    char *out = rewrite("__device__ unsigned f(unsigned w, unsigned a, unsigned b) {\n"
                        "  unsigned r, m;\n"
                        "  asm volatile(\"bfind.u32 %0, %1;\" : \"=r\"(r) : \"r\"(w));\n"
                        "  asm(\"lop3.b32 %0, %1, %2, %3, 0x96;\" : \"=r\"(m) : \"r\"(a), \"r\"(b), \"r\"(w));\n"
                        "  return r + m;\n"
                        "}\n");
    cr_assert_not_null(out);
    cr_expect_not_null(strstr(out, "(r) = ::simtlab_emu::ptx_ops::bfind_u32((w));"), "%s", out);
    cr_expect_not_null(strstr(out, "(m) = ::simtlab_emu::ptx_ops::lop3_b32((a), (b), (w), 0x96);"), "%s", out);
    cr_expect_null(strstr(out, "static_assert"), "%s", out);
    free(out);
}

Test(rewrite_asm, two_instructions_or_an_unknown_one_stay_an_error)
{
    char *out = rewrite("__device__ unsigned f(unsigned w) {\n"
                        "  unsigned r;\n"
                        "  asm(\"bfind.u32 %0, %1; brev.b32 %0, %0;\" : \"=r\"(r) : \"r\"(w));\n"
                        "  asm(\"fns.b32 %0, %1, 0, 1;\" : \"=r\"(r) : \"r\"(w));\n"
                        "  return r;\n"
                        "}\n");
    cr_assert_not_null(out);
    cr_expect_not_null(strstr(out, "this PTX instruction is not emulated: bfind.u32 %0, %1; brev.b32"), "%s", out);
    cr_expect_not_null(strstr(out, "this PTX instruction is not emulated: fns.b32"), "%s", out);
    free(out);
}
