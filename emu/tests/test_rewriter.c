/* Tests of the source rewriter (emu/src/tools/rewriter/rewrite.c), called directly.
 *
 * Expected texts are written by hand from the rewriting rules in
 * emu/include/simtlab_emu/engine.hpp and the CUDA syntax they replace, not
 * taken from the rewriter's output.
 *
 *   cmake --build build -j2 --target test_rewriter && build/bin/test_rewriter
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "rewrite.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROLOGUE "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n#include <simtlab_emu/host_fn.h>\n#line 1 \"t.cu\"\n"
/* What the rewriter puts at the top of a kernel named `name`'s body. */
#define ENTRY_CHECK(name) " if (::simtlab_emu::host_call_of_kernel(\"" name "\", __FILE__, __LINE__)) return;"
/* What follows a kernel's body (launch.hpp): its registration by address. */
#define NOTED(name, type) " SIMTLAB_EMU_NOTE_KERNEL(" name ", " type ")"

/* The output past the report of code that says volatile, if it is there
 * (the_first_line_reports_volatile_outside_asm tests it). */
static const char *past_volatile_report(const char *out)
{
    const size_t n = strlen(SL_REWRITE_SAYS_VOLATILE);
    return strncmp(out, SL_REWRITE_SAYS_VOLATILE, n) == 0 ? out + n : out;
}

/* Rewrites `src` as t.cu, requires success and the prologue, and returns
 * the rest (static storage: one result at a time). */
static const char *rewrite(const char *src)
{
    static sl_outbuf out;
    char err[512];
    int rc = sl_rewrite(src, strlen(src), "t.cu", &out, err, sizeof err);
    cr_assert_eq(rc, 0, "rewriting failed: %s\nsource:\n%s", err, src);
    cr_assert_eq(out.data[out.len], '\0');
    const char *text = past_volatile_report(out.data);
    cr_assert_eq(strncmp(text, PROLOGUE, strlen(PROLOGUE)), 0, "prologue:\n%s", out.data);
    return text + strlen(PROLOGUE);
}

/* Rewrites `src`, requires failure with nothing in *out, returns the message. */
static const char *rewrite_error(const char *src)
{
    static char err[512];
    sl_outbuf out = {0};
    int rc = sl_rewrite(src, strlen(src), "t.cu", &out, err, sizeof err);
    cr_assert_eq(rc, -1, "expected an error for:\n%s\ngot:\n%s", src, out.data ? out.data : "");
    cr_assert_null(out.data);
    cr_assert_eq(strncmp(err, "t.cu:", 5), 0, "message without the path: %s", err);
    cr_assert(strstr(err, ": error: ") != NULL, "message: %s", err);
    return err;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

#define expect_rewrite(src, expected)                                                              \
    do {                                                                                           \
        const char *got_ = rewrite(src);                                                           \
        cr_assert_str_eq(got_, expected, "\nsource:\n%s\ngot:\n%s\nexpected:\n%s", src, got_,      \
                         expected);                                                                \
    } while (0)

#define expect_unchanged(src) expect_rewrite(src, src)

#define expect_error(src, where, words)                                                            \
    do {                                                                                           \
        const char *err_ = rewrite_error(src);                                                     \
        cr_assert_eq(strncmp(err_, where, strlen(where)), 0, "expected %s..., got: %s", where,     \
                     err_);                                                                        \
        cr_assert(strstr(err_, words) != NULL, "expected '%s' in: %s", words, err_);               \
    } while (0)

/* ---- prologue ------------------------------------------------------------ */

Test(rewriter, prologue_defines_the_tu_includes_the_runtime_and_names_the_input)
{
    sl_outbuf out = {0};
    char err[256];
    const char *path = "dir/my \"odd\\ file.cu";
    cr_assert_eq(sl_rewrite("int x;\n", 7, path, &out, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(out.data, "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n"
                               "#include <simtlab_emu/host_fn.h>\n"
                               "#line 1 \"dir/my \\\"odd\\\\ file.cu\"\nint x;\n");
    sl_outbuf_free(&out);
}

Test(rewriter, empty_input_gives_the_prologue_only)
{
    cr_assert_str_eq(rewrite(""), "");
}

/* Whether sl_rewrite reports that `src` says volatile; the rest of the
 * output is the same either way. */
static bool reports_volatile(const char *src)
{
    sl_outbuf out = {0};
    char err[256];
    cr_assert_eq(sl_rewrite(src, strlen(src), "t.cu", &out, err, sizeof err), 0, "%s", err);
    const char *text = past_volatile_report(out.data);
    cr_assert_eq(strncmp(text, PROLOGUE, strlen(PROLOGUE)), 0, "prologue:\n%s", out.data);
    const bool says = text != out.data;
    sl_outbuf_free(&out);
    return says;
}

/* slcc builds code that says volatile in lock step (warp-synchronous
 * code); the rewriter, which has read every token, reports it on the
 * output's first line: `volatile` in code or a #define body, not right
 * after asm, __asm or __asm__, not in comments, literals or #if 0. */
Test(rewriter, the_first_line_reports_volatile_outside_asm)
{
    static const char *const says[] = {
        "__device__ int f(volatile int *p) { return *p; }\n",
        "__global__ void k() { volatile __shared__ int s[32]; s[0] = 1; }\n",
        "int volatile x;\n",
        "#define VOL volatile\nVOL int x;\n",
        "#define LOAD(p) \\\n  (*(volatile int *)(p))\n",
        "asm(\"nop\");\nvolatile int y;\n",
        "__device__ void f() { asm volatile(\"\"); int volatile v = 0; }\n",
    };
    static const char *const says_not[] = {
        "",
        "__device__ void f() { asm volatile(\"membar.gl;\" ::: \"memory\"); }\n",
        "__device__ void f() { __asm__ volatile(\"\"); __asm volatile(\"\"); }\n",
        "__device__ void f() { asm /* a barrier */\n  volatile(\"\"); }\n",
        "// volatile\n/* volatile */ const char *s = \"volatile\"; char c = 'v';\n",
        "int volatile_count; __volatile__ int z;\n",
        "#if 0\nvolatile int x; // don't\n#endif\n",
        "#define ASM_V asm volatile\n#define NAME \"volatile\"\n#pragma volatile\n",
    };
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        cr_assert(reports_volatile(says[i]), "not reported:\n%s", says[i]);
    for (size_t i = 0; i < sizeof says_not / sizeof says_not[0]; i++)
        cr_assert(!reports_volatile(says_not[i]), "reported:\n%s", says_not[i]);
}

/* ---- launches ------------------------------------------------------------ */

Test(rewriter, simple_launch)
{
    expect_rewrite("k<<<1, 2>>>(a, b);\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 1, 2)(a, b);\n");
}

Test(rewriter, launch_with_shared_bytes_and_stream)
{
    expect_rewrite("k<<<g, b, 64>>>(x);\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, g, b, 64)(x);\n");
    expect_rewrite("k<<<g, b, n * sizeof(float), s>>>(x);\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, g, b, n * sizeof(float), "
                   "s)(x);\n");
}

Test(rewriter, launch_without_arguments)
{
    expect_rewrite("k<<<1,1>>>();", "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 1,1)();");
}

Test(rewriter, template_kernel_with_greater_than_inside_parentheses)
{
    expect_rewrite("k<float, (N > 2)><<<g, b>>>(p);\n",
                   "::simtlab_emu::launch(\"k<float, (N > 2)>\", __FILE__, __LINE__, "
                   "k<float, (N > 2)>, g, b)(p);\n");
}

Test(rewriter, nested_template_arguments_and_qualified_names)
{
    expect_rewrite("ns::k<A<int>, 4><<<1, 32>>>(p);",
                   "::simtlab_emu::launch(\"ns::k<A<int>, 4>\", __FILE__, __LINE__, "
                   "ns::k<A<int>, 4>, 1, 32)(p);");
    expect_rewrite("x = 1; ::k<<<1, 32>>>(p);",
                   "x = 1; ::simtlab_emu::launch(\"::k\", __FILE__, __LINE__, ::k, 1, 32)(p);");
}

Test(rewriter, parenthesised_kernel_expression)
{
    expect_rewrite(
        "(*table[v])<<<1, 1>>>(p);",
        "::simtlab_emu::launch(\"(*table[v])\", __FILE__, __LINE__, (*table[v]), 1, 1)(p);");
}

Test(rewriter, launch_after_if_starts_at_the_kernel)
{
    expect_rewrite("if (ok) k<<<1, 1>>>();",
                   "if (ok) ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 1, 1)();");
    expect_rewrite("if (ok) (k)<<<1, 1>>>();",
                   "if (ok) ::simtlab_emu::launch(\"(k)\", __FILE__, __LINE__, (k), 1, 1)();");
}

Test(rewriter, configuration_with_nested_calls_templates_and_braces)
{
    expect_rewrite(
        "k<<<f(g(1), 2), dim3(4, 4)>>>(p);",
        "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, f(g(1), 2), dim3(4, 4))(p);");
    expect_rewrite("k<<<{x, y}, std::min<int>(n, 256)>>>(p);",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, {x, y}, "
                   "std::min<int>(n, 256))(p);");
    /* The last three of a run of '>' close the launch. */
    expect_rewrite("k<<<1, cast<A<int>>>>>(p);",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 1, cast<A<int>>)(p);");
}

Test(rewriter, launch_over_three_lines_keeps_every_newline_and_the_arguments)
{
    const char *src = "void h() {\n"
                      "  k<<<grid,\n"
                      "      block>>>(a,\n"
                      "               b);\n"
                      "}\n";
    const char *expected = "SIMTLAB_EMU_HOST_FN void h() {\n"
                           "  ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, grid,\n"
                           "      block)(a,\n"
                           "               b);\n"
                           "}\n";
    expect_rewrite(src, expected);
    cr_assert_eq(count_lines(rewrite(src)), count_lines(src));
}

Test(rewriter, kernel_name_over_two_lines_is_one_line_in_the_string)
{
    expect_rewrite(
        "k<float,\n  4><<<1, 1>>>();",
        "::simtlab_emu::launch(\"k<float, 4>\", __FILE__, __LINE__, k<float,\n  4>, 1, 1)();");
}

Test(rewriter, kernel_name_string_escapes_quotes_and_backslashes)
{
    expect_rewrite("k<'\"', '\\\\'><<<1, 1>>>();",
                   "::simtlab_emu::launch(\"k<'\\\"', '\\\\\\\\'>\", __FILE__, __LINE__, "
                   "k<'\"', '\\\\'>, 1, 1)();");
}

Test(rewriter, two_launches_on_one_line)
{
    expect_rewrite("a<<<1, 1>>>(); b<<<2, 2>>>(x);",
                   "::simtlab_emu::launch(\"a\", __FILE__, __LINE__, a, 1, 1)(); "
                   "::simtlab_emu::launch(\"b\", __FILE__, __LINE__, b, 2, 2)(x);");
}

Test(rewriter, launch_in_comments_strings_and_directives_is_untouched)
{
    expect_unchanged("// k<<<1, 1>>>();\n"
                     "/* k<<<1, 1>>>(); __shared__ int x; */\n"
                     "const char *s = \"k<<<1, 1>>>()\";\n"
                     "const char *r = R\"x(k<<<1, 1>>>() )\" __shared__ int y;)x\";\n"
                     "char c = '<';\n"
                     "#define SHIFT(k) (k << 3)\n"
                     "// a comment \\\n"
                     "   continued k<<<1, 1>>>();\n");
}

Test(rewriter, if_zero_groups_are_skipped_up_to_their_else)
{
    expect_rewrite("#if 0\nit's off: k<<<1, 1>>>();\n#ifdef X\n'\n#endif\n  #else\n"
                   "k<<<2, 2>>>();\n#endif\n",
                   "#if 0\nit's off: k<<<1, 1>>>();\n#ifdef X\n'\n#endif\n  #else\n"
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 2, 2)();\n#endif\n");
    /* Only a literal 0: other conditions are code that may be compiled. */
    expect_error("#if 00x\n'\n#endif\n", "t.cu:2:1: error:", "missing terminating");
}

Test(rewriter, shifts_and_nested_template_closers_are_untouched)
{
    expect_unchanged("int a = b << 2; a <<= 1; c = a<<b; d = x >> 3; d >>= 1;\n"
                     "std::vector<std::vector<std::vector<int>>> v;\n"
                     "std::cout << x << std::endl;\n");
}

Test(rewriter, digit_separators_are_not_char_literals)
{
    expect_rewrite(
        "int n = 1'000'000; k<<<n, 1>>>();",
        "int n = 1'000'000; ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, n, 1)();");
}

/* ---- spellings of <<< and >>> that nvcc accepts ------------------------------ */

/* `<< <` and `>> >`: each chevron is replaced on its own, so the spaces stay. */
Test(rewriter, chevrons_spelled_with_spaces)
{
    expect_rewrite("k<< <1, 2>> >(x);",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k,  1, 2) (x);");
    expect_rewrite("k < < < 1, 2 > > > (x);",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k ,    1, 2 )   (x);");
}

/* A backslash-newline inside `<<<` is a line splice: it stays, so the lines
 * after it keep their numbers. */
Test(rewriter, chevrons_split_by_a_line_splice_keep_the_line_count)
{
    expect_rewrite("k<<\\\n<1, 2>>\\\n>(x);\ny;\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, \\\n1, 2)\\\n(x);\ny;\n");
}

/* Splices elsewhere in a launch: inside the configuration's arguments,
 * between `>>>` and the argument list, and inside the arguments. They stay
 * where they were, so the lines after them keep their numbers. */
Test(rewriter, line_splices_in_the_configuration_and_before_the_arguments)
{
    expect_rewrite("k<<<dim3(2,\\\n 1), 32>>>\\\n(x,\\\n y);\nz;\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, dim3(2,\\\n 1), 32)\\\n(x,\\\n y);\nz;\n");
    expect_rewrite("k<<<\\\n1, \\\n2>>> \\\n (x);\n",
                   "::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, \\\n1, \\\n2) \\\n (x);\n");
}

/* `>>` closing a template kernel's arguments before the launch, and a shift
 * `>>` inside the configuration. */
Test(rewriter, template_closers_and_shifts_around_the_launch)
{
    expect_rewrite("k<A<int>><<<1, 2>>>(x);",
                   "::simtlab_emu::launch(\"k<A<int>>\", __FILE__, __LINE__, k<A<int>>, 1, 2)(x);");
    expect_rewrite("k<T, B<N>><<<(n + 31) >> 5, 32>>>(x);",
                   "::simtlab_emu::launch(\"k<T, B<N>>\", __FILE__, __LINE__, k<T, B<N>>, "
                   "(n + 31) >> 5, 32)(x);");
}

/* ---- the built-ins' names, and kernels that share a host function's name ------ */

/* gridDim and blockDim are variables of the emulator's headers, not macros:
 * the rewriter leaves host variables of those names alone. */
Test(rewriter, host_variables_named_griddim_and_blockdim_pass_through)
{
    expect_rewrite("void h(dim3 gridDim) {\n  dim3 blockDim(256);\n  k<<<gridDim, blockDim>>>(x);\n}\n",
                   "SIMTLAB_EMU_HOST_FN void h(dim3 gridDim) {\n  dim3 blockDim(256);\n"
                   "  ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, gridDim, blockDim)(x);\n}\n");
}

/* Every kernel's body starts with the check that reports a call without
 * <<<>>>; prototypes and __device__ functions get none. */
Test(rewriter, kernel_bodies_start_with_the_host_call_check)
{
    expect_rewrite("__global__ void k(int *p);\n__device__ int d() { return 1; }\n"
                   "extern \"C\" __global__ void __launch_bounds__(256) k(int *p) { *p = d(); }\n",
                   "__global__ void k(int *p);\n__device__ int d() { return 1; }\n"
                   "extern \"C\" __global__ void __launch_bounds__(256) k(int *p) {" ENTRY_CHECK("k")
                   " *p = d(); }" NOTED("k", "void (*)(int *p)") "\n");
}

/* A host function named like the kernel: the launch names the kernel by its
 * own pointer type, so overload resolution cannot pick the host function.
 * Default arguments are not part of a pointer type. */
Test(rewriter, a_kernel_sharing_its_name_with_a_host_function_is_picked_by_its_type)
{
    expect_rewrite("__global__ void scale(float *a, int n = 4) {}\n"
                   "void scale(float *a, int n, int blocks) { scale<<<blocks, 256>>>(a, n); }\n",
                   "__global__ void scale(float *a, int n = 4) {" ENTRY_CHECK("scale") "}"
                   NOTED("scale", "void (*)(float *a, int n)") "\n"
                   "SIMTLAB_EMU_HOST_FN void scale(float *a, int n, int blocks) { ::simtlab_emu::launch(\"scale\", "
                   "__FILE__, __LINE__, static_cast<void (*)(float *a, int n)>(scale), blocks, 256)"
                   "(a, n); }\n");
    /* Without a host function of that name the kernel is named as written. */
    expect_rewrite("__global__ void only(float *a) {}\nvoid h(float *a) { only<<<1, 1>>>(a); }\n",
                   "__global__ void only(float *a) {" ENTRY_CHECK("only") "}" NOTED("only", "void (*)(float *a)") "\n"
                   "SIMTLAB_EMU_HOST_FN void h(float *a) { ::simtlab_emu::launch_known<decltype(&only), &only>(\"only\", __FILE__, __LINE__, only, 1, 1)(a); }\n");
}

/* A kernel of the file launched by its name alone is named at compile time
 * too (launch_known: each thread calls it directly); not where a variable or
 * parameter of the file has its name, which may hide it at the launch. */
Test(rewriter, a_kernel_hidden_by_a_parameter_of_its_name_is_launched_through_the_pointer)
{
    expect_rewrite("__global__ void k(int *p) {}\nvoid run(void (*k)(int *), int *p) { k<<<1, 1>>>(p); }\n",
                   "__global__ void k(int *p) {" ENTRY_CHECK("k") "}" NOTED("k", "void (*)(int *p)") "\n"
                   "SIMTLAB_EMU_HOST_FN void run(void (*k)(int *), int *p) { ::simtlab_emu::launch(\"k\", __FILE__, "
                   "__LINE__, k, 1, 1)(p); }\n");
    expect_rewrite("__global__ void k(int *p) {}\ntemplate <class F> void run(F k, int *p) { k<<<1, 1>>>(p); }\n",
                   "__global__ void k(int *p) {" ENTRY_CHECK("k") "}" NOTED("k", "void (*)(int *p)") "\n"
                   "template <class F> SIMTLAB_EMU_HOST_FN void run(F k, int *p) { ::simtlab_emu::launch(\"k\", "
                   "__FILE__, __LINE__, k, 1, 1)(p); }\n");
}

/* ---- __shared__ at function scope ----------------------------------------- */

#define IN_KERNEL(body) "__global__ void f() {\n" body "\n}\n"
/* IN_KERNEL as rewritten. */
#define OUT_KERNEL(body) "__global__ void f() {" ENTRY_CHECK("f") "\n" body "\n}" NOTED("f", "void (*)()") "\n"

Test(rewriter, shared_scalar)
{
    expect_rewrite(IN_KERNEL("  __shared__ int count;"),
                   OUT_KERNEL("  int &count = ::simtlab_emu::shared_var<int>([]{});"));
}

Test(rewriter, shared_1d_and_2d_arrays)
{
    expect_rewrite(IN_KERNEL("  __shared__ float a[256];"),
                   OUT_KERNEL("  float (&a)[256] = ::simtlab_emu::shared_var<float[256]>([]{});"));
    expect_rewrite(IN_KERNEL("  __shared__ float tile[32][33];"),
                   OUT_KERNEL("  float (&tile)[32][33] = "
                             "::simtlab_emu::shared_var<float[32][33]>([]{});"));
}

/* A struct or union defined in the declaration (CUB's examples share one
 * TempStorage so): the definition stays, named when it had no name, and the
 * variables become lookups of that type; line numbers are kept. */
Test(rewriter, shared_union_or_struct_defined_in_the_declaration)
{
    expect_rewrite(IN_KERNEL("  __shared__ union {\n    int a;\n    float b[2];\n  } temp;"),
                   OUT_KERNEL("  union simtlab_emu_shared_type_2_14 {\n    int a;\n    float b[2];\n  }; "
                              "simtlab_emu_shared_type_2_14 &temp = "
                              "::simtlab_emu::shared_var<simtlab_emu_shared_type_2_14>([]{});"));
    expect_rewrite(IN_KERNEL("  __shared__ struct P { int a; } p[4], q;"),
                   OUT_KERNEL("  struct P { int a; }; P (&p)[4] = ::simtlab_emu::shared_var<P[4]>([]{}); "
                              "P &q = ::simtlab_emu::shared_var<P>([]{});"));
    expect_rewrite(IN_KERNEL("  __shared__ struct Q { int a; };"), OUT_KERNEL("  struct Q { int a; };"));
}

/* The digraphs <: :> <% %> are [ ] { } (nvcc and every C++ compiler take
 * them): the declaration is rewritten as with brackets, its spelling kept,
 * and a body in <% %> is a kernel body. `<::` before a name is `<` `::`. */
Test(rewriter, digraph_brackets_in_shared_arrays_and_kernel_bodies)
{
    expect_rewrite(IN_KERNEL("  __shared__ float s<:256:>, t<:2:><:4:>;\n  s<:0:> = t<:1:><:3:>;"),
                   OUT_KERNEL("  float (&s)<:256:> = ::simtlab_emu::shared_var<float<:256:>>([]{}); "
                             "float (&t)<:2:><:4:> = ::simtlab_emu::shared_var<float<:2:><:4:>>([]{});"
                             "\n  s<:0:> = t<:1:><:3:>;"));
    expect_rewrite("__global__ void k(int *p)\n<%\n  __shared__ int c;\n  p<:0:> = c;\n%>\n"
                   "void h(int *p) <% k<<<1, 2>>>(p); %>\n",
                   "__global__ void k(int *p)\n<%" ENTRY_CHECK("k") "\n  int &c = "
                   "::simtlab_emu::shared_var<int>([]{});\n  p<:0:> = c;\n%>" NOTED("k", "void (*)(int *p)") "\n"
                   "SIMTLAB_EMU_HOST_FN void h(int *p) <% ::simtlab_emu::launch_known<decltype(&k), &k>(\"k\", __FILE__, __LINE__, k, 1, 2)(p); %>\n");
    expect_rewrite("A<::B> v; k<<<::dim3(1), 1>>>(x);",
                   "A<::B> v; ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, ::dim3(1), 1)(x);");
}

Test(rewriter, shared_qualifiers_and_template_types_are_part_of_the_type)
{
    expect_rewrite(IN_KERNEL("  volatile __shared__ unsigned int v[TILE + 1];"),
                   OUT_KERNEL("  volatile unsigned int (&v)[TILE + 1] = "
                             "::simtlab_emu::shared_var<volatile unsigned int[TILE + 1]>([]{});"));
    expect_rewrite(IN_KERNEL("  __shared__ cuda::std::array<int, 4> q, r[2];"),
                   OUT_KERNEL("  cuda::std::array<int, 4> &q = "
                             "::simtlab_emu::shared_var<cuda::std::array<int, 4>>([]{}); "
                             "cuda::std::array<int, 4> (&r)[2] = "
                             "::simtlab_emu::shared_var<cuda::std::array<int, 4>[2]>([]{});"));
}

Test(rewriter, static_shared_is_plain_shared)
{
    expect_rewrite(IN_KERNEL("  static __shared__ T s[N];"),
                   OUT_KERNEL("  T (&s)[N] = ::simtlab_emu::shared_var<T[N]>([]{});"));
}

Test(rewriter, several_declarators_become_several_declarations_on_one_line)
{
    expect_rewrite(IN_KERNEL("  __shared__ float a[4], b[8], *p;"),
                   OUT_KERNEL("  float (&a)[4] = ::simtlab_emu::shared_var<float[4]>([]{}); "
                             "float (&b)[8] = ::simtlab_emu::shared_var<float[8]>([]{}); "
                             "float *&p = ::simtlab_emu::shared_var<float *>([]{});"));
}

Test(rewriter, alignment_is_dropped)
{
    expect_rewrite(IN_KERNEL("  __shared__ __align__(16) float a[4];"),
                   OUT_KERNEL("  float (&a)[4] = ::simtlab_emu::shared_var<float[4]>([]{});"));
    expect_rewrite(IN_KERNEL("  alignas(16) __shared__ float b[4];"),
                   OUT_KERNEL("  float (&b)[4] = ::simtlab_emu::shared_var<float[4]>([]{});"));
}

Test(rewriter, extern_shared_is_the_dynamic_shared_memory)
{
    expect_rewrite(IN_KERNEL("  extern __shared__ float dyn[];"),
                   OUT_KERNEL("  float *const dyn = (float *)::simtlab_emu::dynamic_shared();"));
    expect_rewrite(IN_KERNEL("  extern __shared__ __align__(16) unsigned char raw[];"),
                   OUT_KERNEL("  unsigned char *const raw = "
                             "(unsigned char *)::simtlab_emu::dynamic_shared();"));
    expect_rewrite(IN_KERNEL("  extern __shared__ float rows[][32];"),
                   OUT_KERNEL("  float (*const rows)[32] = "
                             "(float (*)[32])::simtlab_emu::dynamic_shared();"));
}

Test(rewriter, shared_declaration_over_two_lines_keeps_the_line_count)
{
    const char *src =
        IN_KERNEL("  __shared__ float a[4],\n                    b[4];\n  a[0] = b[0];");
    const char *got = rewrite(src);
    cr_assert_eq(count_lines(got), count_lines(src), "got:\n%s", got);
    cr_assert(strstr(got, "shared_var<float[4]>([]{}); float (&b)[4] =") != NULL, "got:\n%s", got);
    cr_assert(strstr(got, "\n\n  a[0] = b[0];") != NULL, "got:\n%s", got);
}

Test(rewriter, shared_in_a_member_function_is_function_scope)
{
    expect_rewrite(
        "struct S { __device__ void f() { __shared__ int x; } };",
        "struct S { __device__ void f() { int &x = ::simtlab_emu::shared_var<int>([]{}); } };");
}

Test(rewriter, shared_type_may_use_decltype)
{
    expect_rewrite(IN_KERNEL("  __shared__ decltype(x + 1) acc[8];"),
                   OUT_KERNEL("  decltype(x + 1) (&acc)[8] = "
                             "::simtlab_emu::shared_var<decltype(x + 1)[8]>([]{});"));
}

Test(rewriter, shared_in_a_template_kernel_after_a_directive)
{
    expect_rewrite("template <class T> __global__ void f() {\n#pragma unroll\n"
                   "  __shared__ T v[2 * 32];\n}\n",
                   "template <class T> __global__ void f() {" ENTRY_CHECK("f") "\n#pragma unroll\n"
                   "  T (&v)[2 * 32] = ::simtlab_emu::shared_var<T[2 * 32]>([]{});\n}\n");
}

Test(rewriter, crlf_line_endings_pass_through)
{
    expect_rewrite("void h() {\r\n  k<<<1,\r\n  2>>>(x);\r\n}\r\n",
                   "SIMTLAB_EMU_HOST_FN void h() {\r\n  ::simtlab_emu::launch(\"k\", __FILE__, __LINE__, k, 1,\r\n  "
                   "2)(x);\r\n}\r\n");
}

Test(rewriter, byte_order_mark_is_dropped)
{
    expect_rewrite("\xEF\xBB\xBFint x;\n", "int x;\n");
}

/* ---- __shared__ at file scope --------------------------------------------- */

Test(rewriter, file_scope_shared_becomes_an_accessor_and_a_define)
{
    expect_rewrite("__shared__ int g[4];\n__global__ void f() { g[0] = 1; }\n",
                   "static inline auto &simtlab_emu_shared_g() { return "
                   "::simtlab_emu::shared_var<int[4]>([]{}); }\n"
                   "#define g (simtlab_emu_shared_g())\n"
                   "#line 1 \"t.cu\"\n"
                   "\n__global__ void f() {" ENTRY_CHECK("f") " g[0] = 1; }" NOTED("f", "void (*)()") "\n");
}

Test(rewriter, file_scope_define_is_followed_by_the_rest_of_its_line)
{
    expect_rewrite("int a;\n__shared__ float s; __device__ int b;\nint c;\n",
                   "int a;\n"
                   "static inline auto &simtlab_emu_shared_s() { return "
                   "::simtlab_emu::shared_var<float>([]{}); }\n"
                   "#define s (simtlab_emu_shared_s())\n"
                   "#line 2 \"t.cu\"\n"
                   " __device__ int b;\nint c;\n");
}

Test(rewriter, file_scope_extern_shared_and_namespaces)
{
    expect_rewrite("namespace lab { extern \"C\" { extern __shared__ float dyn[]; } }\n",
                   "namespace lab { extern \"C\" { static inline auto simtlab_emu_shared_dyn() { "
                   "return (float *)::simtlab_emu::dynamic_shared(); }\n"
                   "#define dyn (simtlab_emu_shared_dyn())\n"
                   "#line 1 \"t.cu\"\n"
                   " } }\n");
}

Test(rewriter, file_scope_declarators_each_get_an_accessor_and_a_define)
{
    expect_rewrite("__device__ __shared__ float a[2], b;\n",
                   "static inline auto &simtlab_emu_shared_a() { return "
                   "::simtlab_emu::shared_var<float[2]>([]{}); } "
                   "static inline auto &simtlab_emu_shared_b() { return "
                   "::simtlab_emu::shared_var<float>([]{}); }\n"
                   "#define a (simtlab_emu_shared_a())\n"
                   "#define b (simtlab_emu_shared_b())\n"
                   "#line 1 \"t.cu\"\n"
                   "\n");
}

/* ---- __shared__ inside #define bodies -------------------------------------- */

/* cuda-samples' cudasharedmem.h: a macro whose body builds a struct whose
 * member functions declare the dynamic shared memory, with the macro's
 * parameters as the type and the name; backslash-continued lines. */
Test(rewriter, extern_shared_in_a_macro_body_with_parameters_as_type_and_name)
{
    expect_rewrite("#define BUILD(t, n)            \\\n"
                   "  template <> struct SM<t> {   \\\n"
                   "    __device__ t &operator*() { \\\n"
                   "      extern __shared__ t n[];  \\\n"
                   "      return *n;                \\\n"
                   "    }                           \\\n"
                   "  }\n"
                   "BUILD(float, s_float);\n",
                   "#define BUILD(t, n)            \\\n"
                   "  template <> struct SM<t> {   \\\n"
                   "    __device__ t &operator*() { \\\n"
                   "      t *const n = (t *)::simtlab_emu::dynamic_shared();  \\\n"
                   "      return *n;                \\\n"
                   "    }                           \\\n"
                   "  }\n"
                   "BUILD(float, s_float);\n");
}

/* At the top of a body the macro is used in a function; the lambda's
 * capture-default makes a use at file scope fail to compile. A body without
 * its `;` leaves it to the use. */
Test(rewriter, fixed_size_shared_in_a_macro_body_and_a_body_without_its_semicolon)
{
    expect_rewrite("#define TILE(T, name, N) __shared__ T name[N][N + 1];\n",
                   "#define TILE(T, name, N) T (&name)[N][N + 1] = "
                   "::simtlab_emu::shared_var<T[N][N + 1]>([&]{});\n");
    expect_rewrite("#define DYN(T, n) extern __shared__ T n[]\nint x;\n",
                   "#define DYN(T, n) T *const n = (T *)::simtlab_emu::dynamic_shared()\nint x;\n");
    expect_rewrite("#define TWO __shared__ int a[4], b\n",
                   "#define TWO int (&a)[4] = ::simtlab_emu::shared_var<int[4]>([&]{}); "
                   "int &b = ::simtlab_emu::shared_var<int>([&]{})\n");
    /* Inside braces of the body it is a function's block as usual. */
    expect_rewrite("#define RUN(T) do { __shared__ T v; v = 0; } while (0)\n",
                   "#define RUN(T) do { T &v = ::simtlab_emu::shared_var<T>([]{}); v = 0; } while (0)\n");
}

Test(rewriter, a_shared_declaration_over_continued_lines_keeps_the_macros_lines)
{
    const char *src = "#define D(T, N) \\\n  __shared__ T \\\n   buf[N]; \\\n  buf[0] = 1\nint after;\n";
    const char *got = rewrite(src);
    cr_assert_eq(count_lines(got), count_lines(src), "got:\n%s", got);
    cr_assert_str_eq(got, "#define D(T, N) \\\n  T (&buf)[N] = ::simtlab_emu::shared_var<T[N]>([&]{}); \\\n"
                          " \\\n  buf[0] = 1\nint after;\n");
}

Test(rewriter, pasted_names_and_other_macros_with_shared)
{
    expect_rewrite("#define P(n) __shared__ float n##_s[8], *p_##n##2;\n",
                   "#define P(n) float (&n##_s)[8] = ::simtlab_emu::shared_var<float[8]>([&]{}); "
                   "float *&p_##n##2 = ::simtlab_emu::shared_var<float *>([&]{});\n");
    /* Not declarations: left as they are. */
    expect_unchanged("#define SHARED __shared__\n#define __shared__\n#define S(x) #x \"__shared__\"\n"
                     "#if 0\n#define Q __shared__ int q;\n#endif\n");
    /* A kernel in the file is rewritten as before, the macro too. */
    expect_rewrite("#define DECL extern __shared__ float d[];\n" IN_KERNEL("  DECL"),
                   "#define DECL float *const d = (float *)::simtlab_emu::dynamic_shared();\n"
                   OUT_KERNEL("  DECL"));
}

Test(rewriter, error_shared_in_a_macro_body_names_the_line)
{
    expect_error("int a;\n#define BAD(T) \\\n  namespace q { __shared__ T x[4]; }\n", "t.cu:3:17: error:",
                 "namespace scope inside a #define");
    expect_error("#define BAD2(T) __shared__ T x = 0;\n", "t.cu:1:17: error:", "initializer");
    expect_error("#define BAD3(T) __shared__ T x[];\n", "t.cu:1:30: error:", "size");
}

/* ---- errors ---------------------------------------------------------------- */

Test(rewriter, error_launch_without_closing_chevrons)
{
    expect_error("void h() {\n  k<<<1, 1(x);\n}\n", "t.cu:2:4: error:", "'>>>'");
    expect_error("k<<<1, 1", "t.cu:1:2: error:", "'>>>'");
}

Test(rewriter, error_launch_without_kernel_or_arguments)
{
    expect_error("x = <<<1, 1>>>();", "t.cu:1:5: error:", "kernel name");
    expect_error("k<<<1, 1>>>;", "t.cu:1:9: error:", "'('");
    expect_error("k<<<>>>();", "t.cu:1:2: error:", "grid");
    expect_error("k<<<1, 1>>>(a, b;\n", "t.cu:1:12: error:", "unbalanced");
}

Test(rewriter, error_unterminated_comment_and_literals)
{
    expect_error("int a;\n/* no end\n", "t.cu:2:1: error:", "unterminated");
    expect_error("const char *s = \"abc;\nint b;\n", "t.cu:1:17: error:", "missing terminating");
    expect_error("char c = 'a;\n", "t.cu:1:10: error:", "missing terminating");
    expect_error("auto r = R\"x(abc)\";\n", "t.cu:1:10: error:", "raw string");
}

Test(rewriter, error_shared_declarations_that_cannot_be_split)
{
    expect_error(IN_KERNEL("  __shared__ int x = 0;"), "t.cu:2:3: error:", "initializer");
    expect_error(IN_KERNEL("  __shared__ float a[];"), "t.cu:2:20: error:", "size");
    expect_error(IN_KERNEL("  extern __shared__ float d;"), "t.cu:2:27: error:", "unsized array");
    expect_error(IN_KERNEL("  __shared__ float (*p)[4];"), "t.cu:2:20: error:", "parentheses");
    expect_error(IN_KERNEL("  __shared__ a;"), "t.cu:2:14: error:", "missing type");
    expect_error("struct S { __shared__ int m; };", "t.cu:1:12: error:", "class member");
}

/* ---- spin points (tools/rewriter/rewrite_spin.c) -------------------------------------------- */

#define SPIN "(void)SIMTLAB_EMU_SPIN_POINT();"
#define SPIN_OR "SIMTLAB_EMU_SPIN_POINT() || "

Test(rewriter, every_loop_of_device_code_gets_a_spin_point_at_the_top_of_its_body)
{
    /* a braced body: the point is its first statement */
    expect_rewrite("__device__ void f(int *p) { for (;;) { if (*p) break; } while (*p) { --*p; } }\n",
                   "__device__ void f(int *p) { for (;;) { " SPIN " if (*p) break; } while (*p) { " SPIN " --*p; } }\n");
    /* any other body: the condition, so that no else is added (an
     * unbraced if around the loop keeps its own else, and GCC has no
     * dangling else to warn about) */
    expect_rewrite("__device__ void f(int *p, int n, int s) { if (n) for (int i = 0; i < n; i += s) p[i] = i; else *p = 0; }\n",
                   "__device__ void f(int *p, int n, int s) { if (n) for (int i = 0; " SPIN_OR "(i < n); i += s) p[i] = i; else *p = 0; }\n");
    expect_rewrite("__device__ void f(int *p) { if (*p) while (*p) if (*p > 1) --*p; else *p = 0; }\n",
                   "__device__ void f(int *p) { if (*p) while (" SPIN_OR "(*p)) if (*p > 1) --*p; else *p = 0; }\n");
    expect_rewrite("__device__ void f(int *p) { for (int i = 0; ; i += *p) p[i] = 1; }\n",
                   "__device__ void f(int *p) { for (int i = 0; !SIMTLAB_EMU_SPIN_POINT() ; i += *p) p[i] = 1; }\n");
    expect_rewrite("__device__ void f(int *p) { again: if (--*p) goto again; }\n",
                   "__device__ void f(int *p) { again: if (--*p) { " SPIN " goto again; } }\n");
    /* a condition that declares its variable cannot take `||` */
    expect_rewrite("__device__ void f(int **p) { while (int *q = *p++) *q = 0; }\n",
                   "__device__ void f(int **p) { while (int *q = *p++) if (SIMTLAB_EMU_SPIN_POINT()) {} else *q = 0; }\n");
}

Test(rewriter, a_loop_whose_body_is_not_known_gets_its_spin_point_in_the_condition)
{
    /* an empty body (a spin on a flag) and a do loop's tail */
    expect_rewrite("__device__ void f(volatile int *p) { while (*p == 0); do { ++p; } while (*p); }\n",
                   "__device__ void f(volatile int *p) { while (" SPIN_OR "(*p == 0)); "
                   "do { ++p; } while (" SPIN_OR "(*p)); }\n");
    /* a #define: the body comes after the macro's use */
    expect_rewrite("#define WAIT(f) while (!(f))\n#define EACH(i, n, s) for (int i = 0; i < n; i += s)\n",
                   "#define WAIT(f) while (" SPIN_OR "(!(f)))\n"
                   "#define EACH(i, n, s) for (int i = 0; " SPIN_OR "(i < n); i += s)\n");
}

/* A for loop that counts towards its bound by a literal step, with a body
 * that changes neither the counter nor the bound, ends by itself: no point
 * (it would keep GCC from vectorising the loop). */
Test(rewriter, counted_loops_get_no_spin_point)
{
    expect_unchanged("__device__ float f(const float *a, int n) { float s = 0;\n"
                     "  for (int k = 0; k < n; k++) s += a[k];\n"
                     "  for (int k = n - 1; k >= 0; --k) { s += a[k] * a[k]; }\n"
                     "  for (unsigned j = threadIdx.x; j < blockDim.x; j += 32u) s += a[j];\n"
                     "  return s; }\n");
    /* the counter or the bound changed in the body, a step that is a
     * variable (it may be 0), the wrong direction, two conditions */
    expect_rewrite("__device__ void f(int *a, int n, int s) {\n"
                   "  for (int k = 0; k < n; k++) { if (a[k]) k--; }\n"
                   "  for (int k = 0; k < n; k++) n = a[k];\n"
                   "  for (int k = 0; k < n; k += s) a[k] = 0;\n"
                   "  for (int k = 0; k < n; k--) a[k] = 0;\n"
                   "  for (int k = 0; k < n && a[k]; k++) a[k] = 0;\n"
                   "  for (int k = 0; k < n; k++) g(&k); }\n",
                   "__device__ void f(int *a, int n, int s) {\n"
                   "  for (int k = 0; k < n; k++) { " SPIN " if (a[k]) k--; }\n"
                   "  for (int k = 0; " SPIN_OR "(k < n); k++) n = a[k];\n"
                   "  for (int k = 0; " SPIN_OR "(k < n); k += s) a[k] = 0;\n"
                   "  for (int k = 0; " SPIN_OR "(k < n); k--) a[k] = 0;\n"
                   "  for (int k = 0; " SPIN_OR "(k < n && a[k]); k++) a[k] = 0;\n"
                   "  for (int k = 0; " SPIN_OR "(k < n); k++) g(&k); }\n");
}

/* Halving and doubling loops (tree reductions, scans) end by themselves
 * where their shape rules out the endless cases; the shapes that can be
 * endless keep their point. */
Test(rewriter, halving_and_doubling_loops_get_no_spin_point)
{
    expect_unchanged("__device__ void f(float *s, unsigned t, int n) {\n"
                     "  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) { if (t < st) s[t] += s[t + st]; }\n"
                     "  for (int st = 16; st >= 1; st /= 2) s[t] += s[t ^ st];\n"
                     "  for (int off = 1; off < n; off <<= 1) s[t] += s[t - off];\n"
                     "  for (unsigned d = 1u; d <= blockDim.x; d *= 2) s[t] += d; }\n");
    /* `>= 0` stays at 0, `> -1` at -1 or 0; a doubling from 0 or from an
     * unknown start; a step of 1 or of a variable; the counter changed in
     * the body; a shift the wrong way */
    expect_rewrite("__device__ void f(float *s, int n, int k) {\n"
                   "  for (int st = n; st >= 0; st >>= 1) s[st] = 0;\n"
                   "  for (int st = n; st > -1; st >>= 1) s[st] = 0;\n"
                   "  for (int st = 0; st < n; st *= 2) s[st] = 0;\n"
                   "  for (int st = k; st < n; st <<= 1) s[st] = 0;\n"
                   "  for (int st = n; st > 0; st /= 1) s[st] = 0;\n"
                   "  for (int st = n; st > 0; st >>= k) s[st] = 0;\n"
                   "  for (int st = n; st > 0; st >>= 1) { s[st] = 0; st++; }\n"
                   "  for (int st = 1; st > 0; st <<= 1) s[st] = 0; }\n",
                   "__device__ void f(float *s, int n, int k) {\n"
                   "  for (int st = n; " SPIN_OR "(st >= 0); st >>= 1) s[st] = 0;\n"
                   "  for (int st = n; " SPIN_OR "(st > -1); st >>= 1) s[st] = 0;\n"
                   "  for (int st = 0; " SPIN_OR "(st < n); st *= 2) s[st] = 0;\n"
                   "  for (int st = k; " SPIN_OR "(st < n); st <<= 1) s[st] = 0;\n"
                   "  for (int st = n; " SPIN_OR "(st > 0); st /= 1) s[st] = 0;\n"
                   "  for (int st = n; " SPIN_OR "(st > 0); st >>= k) s[st] = 0;\n"
                   "  for (int st = n; st > 0; st >>= 1) { " SPIN " s[st] = 0; st++; }\n"
                   "  for (int st = 1; " SPIN_OR "(st > 0); st <<= 1) s[st] = 0; }\n");
}

Test(rewriter, loops_that_never_repeat_and_host_code_get_no_spin_point)
{
    expect_rewrite("#define CHECK(x) do { if (x) return; } while (0)\n"
                   "__device__ void f(int *p) { do { ++p; } while (false); }\n",
                   "#define CHECK(x) do { if (x) return; } while (0)\n"
                   "__device__ void f(int *p) { do { ++p; } while (false); }\n");
    /* a host function's loops; a __device__ lambda inside it is device code */
    expect_rewrite("int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i;\n"
                   "  auto d = [] __device__ (int x) { while (x) x--; return x; }; return s; }\n",
                   "SIMTLAB_EMU_HOST_FN int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i;\n"
                   "  auto d = [] __device__ (int x) { while (" SPIN_OR "(x)) x--; return x; }; return s; }\n");
}

/* ---- a realistic kernel file ------------------------------------------------ */

Test(rewriter, whole_file_keeps_its_line_count_and_passes_other_text_through)
{
    const char *src = "#include <cstdio>\n"
                      "template <int BLOCK>\n"
                      "__global__ void reduce(const float *in, float *out, int n) {\n"
                      "    __shared__ float partial[BLOCK];\n"
                      "    extern __shared__ float spill[];\n"
                      "    unsigned t = threadIdx.x;\n"
                      "    partial[t] = t < n ? in[t] : 0.0f;\n"
                      "    __syncthreads();\n"
                      "    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {\n"
                      "        if (t < s) partial[t] += partial[t + s];\n"
                      "        __syncthreads();\n"
                      "    }\n"
                      "    if (t == 0) *out = partial[0] + spill[0] * 0;\n"
                      "}\n"
                      "extern \"C\" void run(const float *in, float *out, int n) {\n"
                      "    reduce<256><<<1, 256,\n"
                      "                  sizeof(float)>>>(in, out, n);\n"
                      "}\n";
    const char *got = rewrite(src);
    cr_assert_eq(count_lines(got), count_lines(src), "got:\n%s", got);
    cr_assert(strstr(got, "    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {\n") != NULL, "got:\n%s", got);
    cr_assert(strstr(got,
                     "    ::simtlab_emu::launch(\"reduce<256>\", __FILE__, __LINE__, reduce<256>, "
                     "1, 256,\n                  sizeof(float))(in, out, n);\n") != NULL,
              "got:\n%s", got);
    cr_assert(
        strstr(got, "float (&partial)[BLOCK] = ::simtlab_emu::shared_var<float[BLOCK]>([]{});") !=
        NULL);
    cr_assert(strstr(got, "float *const spill = (float *)::simtlab_emu::dynamic_shared();") !=
              NULL);
}

/* ---- the user's own headers (sl_rewrite_tree) --------------------------------- */

/* A scratch directory with files written by the test. */
static char scratch[64];

static void make_scratch(void)
{
    strcpy(scratch, "/tmp/test_rewriter-XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
}

static const char *scratch_path(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", scratch, name);
    return p;
}

static void write_scratch(const char *name, const char *text)
{
    const char *path = scratch_path(name);
    char dir[256];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    mkdir(dir, 0777); /* a subfolder; the scratch folder itself exists */
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* Rewrites scratch/main.cu with `opts`, requires success, returns the text
 * after the prologue; *deps gets the files put in. */
static const char *rewrite_tree(const sl_include_opts *opts, const char **deps)
{
    static sl_outbuf out, dep;
    char err[512];
    const char *main_cu = scratch_path("main.cu");
    int rc = sl_rewrite_tree(main_cu, opts, &out, &dep, err, sizeof err);
    cr_assert_eq(rc, 0, "rewriting failed: %s", err);
    char prologue[512];
    snprintf(prologue, sizeof prologue,
             "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n#include <simtlab_emu/host_fn.h>\n#line 1 \"%s\"\n", main_cu);
    const char *text = past_volatile_report(out.data);
    cr_assert_eq(strncmp(text, prologue, strlen(prologue)), 0, "prologue:\n%s", out.data);
    if (deps)
        *deps = dep.data ? dep.data : "";
    return text + strlen(prologue);
}

/* The report covers the headers put in: a .cu that says nothing volatile
 * itself, with a warp reduction in its header, is reported; with the
 * header's volatile in a comment only, it is not. */
Test(rewriter, a_header_that_says_volatile_is_reported_for_the_file, .init = make_scratch)
{
    const char *main_cu = scratch_path("main.cu");
    const char *headers[] = {"__device__ void last_warp(volatile int *s, int t) { s[t] += s[t + 16]; }\n",
                             "// no volatile here\n__device__ void last_warp(int *s, int t) { s[t] += s[t + 16]; }\n"};
    for (int h = 0; h < 2; h++) {
        write_scratch("warp.cuh", headers[h]);
        write_scratch("main.cu", "#include \"warp.cuh\"\nint b;\n");
        sl_outbuf out = {0};
        char err[512];
        cr_assert_eq(sl_rewrite_tree(main_cu, NULL, &out, NULL, err, sizeof err), 0, "%s", err);
        const bool says = past_volatile_report(out.data) != out.data;
        cr_assert_eq(says, h == 0, "header %d: %s", h, out.data);
        sl_outbuf_free(&out);
    }
}

/* A .cuh beside the .cu with a __shared__ declaration and a launch is
 * rewritten into its place between #line directives; the .cu's next line
 * keeps its number (3). */
Test(rewriter, a_header_beside_the_file_is_rewritten_in_place_with_line_directives, .init = make_scratch)
{
    write_scratch("k.cuh", "__global__ void k() {\n  __shared__ int s[2];\n}\n"
                           "inline void run() { k<<<1, 2>>>(); }\n");
    write_scratch("main.cu", "int a;\n#include \"k.cuh\"\nint b;\n");
    const char *deps = NULL;
    const char *got = rewrite_tree(NULL, &deps);
    char want[2048];
    snprintf(want, sizeof want,
             "int a;\n#line 1 \"%s/k.cuh\"\n"
             "__global__ void k() {" ENTRY_CHECK("k") "\n"
             "  int (&s)[2] = ::simtlab_emu::shared_var<int[2]>([]{});\n}" NOTED("k", "void (*)()") "\n"
             "SIMTLAB_EMU_HOST_FN inline void run() { ::simtlab_emu::launch_known<decltype(&k), &k>(\"k\", __FILE__, __LINE__, k, 1, 2)(); }\n"
             "#line 3 \"%s/main.cu\"\nint b;\n",
             scratch, scratch);
    cr_assert_str_eq(got, want);
    char dep_want[512];
    snprintf(dep_want, sizeof dep_want, "%s/k.cuh\n", scratch);
    cr_assert_str_eq(deps, dep_want);
}

/* `#pragma once` becomes a guard around the header's text, so that a
 * second #include of it (here through another header) adds nothing. */
Test(rewriter, pragma_once_becomes_an_include_guard, .init = make_scratch)
{
    write_scratch("inc/once.h", "#pragma once\nint x;\n");
    write_scratch("inc/two.h", "#include \"once.h\"\n");
    write_scratch("main.cu", "#include \"inc/once.h\"\n#include \"inc/two.h\"\n");
    const char *got = rewrite_tree(NULL, NULL);
    const char *guard = strstr(got, "#ifndef SIMTLAB_EMU_ONCE_");
    cr_assert_not_null(guard, "%s", got);
    char name[64];
    cr_assert_eq(sscanf(guard, "#ifndef %63s", name), 1);
    char define[96];
    snprintf(define, sizeof define, "#define %s\n", name);
    cr_assert_not_null(strstr(got, define), "%s", got);
    /* The same guard both times (one file), `#pragma once` gone, x twice in
     * the text but inside the guard. */
    cr_assert_not_null(strstr(strstr(got, define) + 1, name), "%s", got);
    cr_assert_null(strstr(got, "#pragma once"), "%s", got);
    cr_assert_not_null(strstr(got, "#line 1 \"" ), "%s", got);
}

/* <x.h> is followed through -I directories; a name the emulator provides
 * (its own cuda_runtime.h comes first on the include path), a header that
 * does not exist and a system header keep their lines. */
Test(rewriter, angle_includes_follow_the_i_directories_but_not_the_emulators_headers, .init = make_scratch)
{
    write_scratch("common/helper.h", "__global__ void h() {}\n");
    write_scratch("common/cuda_runtime.h", "#error not this one\n");
    write_scratch("emu/cuda_runtime.h", "// the emulator's\n");
    write_scratch("main.cu", "#include <helper.h>\n#include <cuda_runtime.h>\n#include \"missing.h\"\n"
                             "#include <stdio.h>\n");
    const char *dirs[] = {scratch_path("common")};
    char emu[256];
    snprintf(emu, sizeof emu, "%s", scratch_path("emu"));
    sl_include_opts opts = {dirs, 1, emu};
    const char *got = rewrite_tree(&opts, NULL);
    char want[1024];
    snprintf(want, sizeof want,
             "#line 1 \"%s/common/helper.h\"\n__global__ void h() {" ENTRY_CHECK("h") "}" NOTED("h", "void (*)()") "\n"
             "#line 2 \"%s/main.cu\"\n#include <cuda_runtime.h>\n#include \"missing.h\"\n#include <stdio.h>\n",
             scratch, scratch);
    cr_assert_str_eq(got, want);
}

/* a.h includes b.h, which includes a.h again: the inner one keeps an
 * #include line (its guard makes it empty), no endless recursion. The
 * line names the file by its full path, since the rewritten text is
 * compiled from another directory. */
Test(rewriter, an_include_cycle_ends, .init = make_scratch)
{
    write_scratch("a.h", "#ifndef A_H\n#define A_H\n#include \"b.h\"\n#endif\n");
    write_scratch("b.h", "#include \"a.h\"\nint b;\n");
    write_scratch("main.cu", "#include \"a.h\"\n");
    const char *got = rewrite_tree(NULL, NULL);
    char *real = realpath(scratch, NULL);
    cr_assert_not_null(real);
    char want[4200];
    snprintf(want, sizeof want, "#include \"%s/a.h\"\nint b;\n", real);
    free(real);
    cr_assert_not_null(strstr(got, want), "want\n%s\nin\n%s", want, got);
}

/* An error in a header names the header and its line. */
Test(rewriter, an_error_in_a_header_names_the_header, .init = make_scratch)
{
    write_scratch("bad.cuh", "\n\nvoid f() { k<<<1, 2>>>; }\n");
    write_scratch("main.cu", "#include \"bad.cuh\"\n");
    sl_outbuf out = {0};
    char err[512], want[256];
    cr_assert_eq(sl_rewrite_tree(scratch_path("main.cu"), NULL, &out, NULL, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s/bad.cuh:3:", scratch);
    cr_assert_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
}

/* A kernel template launched without its template arguments: a generic
 * lambda calls it, so that the call deduces them; with explicit arguments
 * the instance is passed as itself. Templates get no registration. */
Test(rewriter, a_kernel_template_launched_with_deduced_arguments_is_called_through_a_lambda)
{
    expect_rewrite("template <class T> __global__ void t(T *p) {}\n"
                   "void h(float *p) { t<<<1, 2>>>(p); t<float><<<1, 2>>>(p); }\n",
                   "template <class T> __global__ void t(T *p) {" ENTRY_CHECK("t") "}\n"
                   "SIMTLAB_EMU_HOST_FN void h(float *p) { ::simtlab_emu::launch_deduced(\"t\", __FILE__, __LINE__, "
                   "[](auto &&...simtlab_emu_a) { t(static_cast<decltype(simtlab_emu_a) &&>(simtlab_emu_a)...); }, "
                   "1, 2)(p); ::simtlab_emu::launch(\"t<float>\", __FILE__, __LINE__, t<float>, 1, 2)(p); }\n");
}

/* cuda-samples' MC_EstimatePiInlineQ: computeValue<Real><<<...>>>(...) names
 * one of two template parameters; the other is deduced from the arguments.
 * All named, or the rest defaulted: the instance is launched as before. */
Test(rewriter, a_kernel_template_launched_with_some_of_its_arguments_deduces_the_rest)
{
    expect_rewrite("template <class R, class S> __global__ void cv(R *r, S *s) {}\n"
                   "template <class R> void h(R *r, int *s) { cv<R><<<1, 2>>>(r, s); }\n",
                   "template <class R, class S> __global__ void cv(R *r, S *s) {" ENTRY_CHECK("cv") "}\n"
                   "template <class R> SIMTLAB_EMU_HOST_FN void h(R *r, int *s) { ::simtlab_emu::launch_deduced(\"cv<R>\", __FILE__, "
                   "__LINE__, [](auto &&...simtlab_emu_a) { cv<R>(static_cast<decltype(simtlab_emu_a) &&>"
                   "(simtlab_emu_a)...); }, 1, 2)(r, s); }\n");
    expect_rewrite("template <class R, class S = int, int N = (3 > 2)> __global__ void d(R *r, S *s) {}\n"
                   "void h(float *r, int *s) { d<float><<<1, 2>>>(r, s); d<float, int, 4><<<1, 2>>>(r, s); }\n",
                   "template <class R, class S = int, int N = (3 > 2)> __global__ void d(R *r, S *s) {"
                   ENTRY_CHECK("d") "}\n"
                   "SIMTLAB_EMU_HOST_FN void h(float *r, int *s) { ::simtlab_emu::launch(\"d<float>\", __FILE__, "
                   "__LINE__, d<float>, "
                   "1, 2)(r, s); ::simtlab_emu::launch(\"d<float, int, 4>\", __FILE__, __LINE__, d<float, int, 4>, "
                   "1, 2)(r, s); }\n");
    /* A parameter pack after the named ones is deduced too. */
    expect_rewrite("template <int N, class... A> __global__ void v(A... a) {}\n"
                   "void h(int x) { v<3><<<1, 1>>>(x); }\n",
                   "template <int N, class... A> __global__ void v(A... a) {" ENTRY_CHECK("v") "}\n"
                   "SIMTLAB_EMU_HOST_FN void h(int x) { ::simtlab_emu::launch_deduced(\"v<3>\", __FILE__, __LINE__, "
                   "[](auto &&...simtlab_emu_a) { v<3>(static_cast<decltype(simtlab_emu_a) &&>(simtlab_emu_a)...); "
                   "}, 1, 1)(x); }\n");
}

/* Two headers include one guarded header: its text is put in once; the
 * second #include names the original by its full path (its guard makes it
 * empty). */
Test(rewriter, a_guarded_header_included_twice_is_put_in_once, .init = make_scratch)
{
    write_scratch("common.h", "// comment first\n#ifndef COMMON_H\n#define COMMON_H\nint common_marker;\n#endif\n");
    write_scratch("a.h", "#include \"common.h\"\nint a;\n");
    write_scratch("b.h", "#include \"common.h\"\nint b;\n");
    write_scratch("main.cu", "#include \"a.h\"\n#include \"b.h\"\n");
    const char *got = rewrite_tree(NULL, NULL);
    const char *first = strstr(got, "int common_marker;");
    cr_assert_not_null(first, "%s", got);
    cr_assert_null(strstr(first + 1, "int common_marker;"), "put in twice:\n%s", got);
    char *real = realpath(scratch, NULL);
    char want[4200];
    snprintf(want, sizeof want, "#include \"%s/common.h\"\nint b;\n", real);
    free(real);
    cr_assert_not_null(strstr(got, want), "want\n%s\nin\n%s", want, got);
}

/* A `#pragma once` header included twice: the second time it is empty
 * when the first copy was compiled (the copy's guard), the original
 * otherwise, and the lines after it keep their numbers. */
Test(rewriter, a_pragma_once_header_included_twice_is_put_in_once, .init = make_scratch)
{
    write_scratch("once.h", "#pragma once\nint once_marker;\n");
    write_scratch("main.cu", "#include \"once.h\"\n#include \"once.h\"\nint after;\n");
    const char *got = rewrite_tree(NULL, NULL);
    const char *first = strstr(got, "int once_marker;");
    cr_assert_not_null(first, "%s", got);
    cr_assert_null(strstr(first + 1, "int once_marker;"), "put in twice:\n%s", got);
    char want[200];
    snprintf(want, sizeof want, "#endif\n#line 3 \"%s/main.cu\"\nint after;", scratch);
    cr_assert_not_null(strstr(got, want), "want\n%s\nin\n%s", want, got);
}

/* A header without a guard (an X-macro list) is put in at every #include,
 * as the preprocessor would. */
Test(rewriter, an_unguarded_header_is_put_in_every_time, .init = make_scratch)
{
    write_scratch("list.def", "X(red)\nX(green)\n");
    write_scratch("main.cu", "#define X(n) int n;\n#include \"list.def\"\n#undef X\n#define X(n) int n##_2;\n"
                             "#include \"list.def\"\n");
    const char *got = rewrite_tree(NULL, NULL);
    const char *first = strstr(got, "X(green)");
    cr_assert_not_null(first, "%s", got);
    cr_assert_not_null(strstr(first + 1, "X(green)"), "put in once only:\n%s", got);
}

/* Twenty levels of guarded headers, each including the next twice: put in
 * at every #include that would be 2^20 copies (about 60 MB); once each, it
 * is small. */
Test(rewriter, a_deep_tree_of_shared_guarded_headers_stays_small, .init = make_scratch)
{
    char name[32], text[256];
    for (int k = 0; k < 20; k++) {
        snprintf(name, sizeof name, "h%d.h", k);
        if (k < 19)
            snprintf(text, sizeof text, "#ifndef H%d\n#define H%d\n#include \"h%d.h\"\n#include \"h%d.h\"\nint v%d;\n#endif\n",
                     k, k, k + 1, k + 1, k);
        else
            snprintf(text, sizeof text, "#ifndef H%d\n#define H%d\nint v%d;\n#endif\n", k, k, k);
        write_scratch(name, text);
    }
    write_scratch("main.cu", "#include \"h0.h\"\n#include \"h0.h\"\n");
    const char *got = rewrite_tree(NULL, NULL);
    cr_assert_lt(strlen(got), (size_t)200000, "%zu bytes", strlen(got));
    cr_assert_not_null(strstr(got, "int v19;"));
    cr_assert_not_null(strstr(got, "int v0;"));
}

/* Two kernels of one name with different parameter counts (a header's
 * prototype with 2 parameters, a definition with 3): each launch is cast to
 * the one whose count is its argument count, as overload resolution picks;
 * a count that fits neither is left to the compiler. */
Test(rewriter, overloaded_kernels_are_picked_by_argument_count)
{
    const char *out = rewrite("__global__ void part(int *a, int n);\n"
                              "__global__ void part(int *a, int n, int depth) { }\n"
                              "__global__ void root(int *a) { part<<<1, 1>>>(a, 4, 1); }\n"
                              "void go(int *a) { part<<<1, 32>>>(a, 4); part<<<1, 32>>>(a); }\n");
    cr_assert_not_null(strstr(out, "static_cast<void (*)(int *a, int n, int depth)>(part), 1, 1)(a, 4, 1)"), "%s",
                       out);
    cr_assert_not_null(strstr(out, "static_cast<void (*)(int *a, int n)>(part), 1, 32)(a, 4)"), "%s", out);
    cr_assert_not_null(strstr(out, "__LINE__, part, 1, 32)(a)"), "%s", out);
}

/* Kernels of one name with as many parameters, of other types: neither
 * the count nor a host function tells them apart, so the launch goes
 * through a generic lambda and C++ picks by the arguments' types. An
 * argument with a template comma (Tensor<float, 1>(p)) is one argument. */
Test(rewriter, overloads_with_as_many_parameters_are_picked_by_the_compiler)
{
    const char *out = rewrite("template <class T, int D> struct Tensor { T *p; };\n"
                              "__global__ void k(Tensor<float, 1> t) {}\n"
                              "__global__ void k(Tensor<float, 2> t) {}\n"
                              "void h(float *p) { k<<<1, 2>>>(Tensor<float, 1>{p}); k<<<1, 2>>>(Tensor<float, 2>(p)); }\n");
    cr_assert_not_null(strstr(out, "::simtlab_emu::launch_deduced(\"k\", __FILE__, __LINE__, [](auto &&...simtlab_emu_a) "
                                   "{ k(static_cast<decltype(simtlab_emu_a) &&>(simtlab_emu_a)...); }, 1, 2)"
                                   "(Tensor<float, 1>{p});"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "}, 1, 2)(Tensor<float, 2>(p)); }"), "%s", out);
    /* counted as one argument: the one-parameter overload, by its type */
    out = rewrite("template <class T, int D> struct Tensor { T *p; };\n"
                  "__global__ void s(Tensor<float, 1> t) {}\n"
                  "__global__ void s(float *p, int n) {}\n"
                  "void h(float *p) { s<<<1, 2>>>(Tensor<float, 1>(p)); s<<<1, 2>>>(p, 3 < 4); }\n");
    cr_assert_not_null(strstr(out, "static_cast<void (*)(Tensor<float, 1> t)>(s), 1, 2)(Tensor<float, 1>(p))"), "%s",
                       out);
    cr_assert_not_null(strstr(out, "static_cast<void (*)(float *p, int n)>(s), 1, 2)(p, 3 < 4)"), "%s", out);
    /* a prototype and its definition with other parameter names, top-level
     * qualifiers, `unsigned` for `unsigned int` and an array for a pointer
     * are one kernel */
    out = rewrite("__global__ void f(int *a, unsigned int n, const float *, float v[]);\n"
                  "__global__ void f(int *__restrict__ out, const unsigned count, const float *w, float *v) {}\n"
                  "void h(int *p) { f<<<1, 2>>>(p, 3u, nullptr, NULL); }\n");
    cr_assert_not_null(strstr(out, "::simtlab_emu::launch_known<decltype(&f), &f>(\"f\", __FILE__, __LINE__, f, 1, 2)"), "%s",
                       out);
}

/* A launch written in a #define's body (a launch macro) is rewritten there,
 * on the #define's own lines: a kernel the body names is looked up among
 * the file's kernels like any launch's; a kernel that is the macro's
 * parameter is named by the argument's own text (#k) and, where the file
 * has kernel templates, called through a generic lambda that deduces. */
Test(rewriter, launches_in_define_bodies_are_rewritten)
{
    expect_rewrite("#define LAUNCH(k, n) k<<<1, n>>>()\n"
                   "#define TWO_LINES(k) \\\n"
                   "    k<< <1, 1>>>()\n",
                   "#define LAUNCH(k, n) ::simtlab_emu::launch(#k, __FILE__, __LINE__, k, 1, n)()\n"
                   "#define TWO_LINES(k) \\\n"
                   "    ::simtlab_emu::launch(#k, __FILE__, __LINE__, k,  1, 1)()\n");
    const char *out = rewrite("__global__ void add(int *p) {}\n"
                              "template <class T> __global__ void scale(T *p, T by) {}\n"
                              "#define RUN_ADD(d) add<<<2, 32>>>(d)\n"
                              "#define RUN_SCALE(d) scale<<<2, 32>>>(d, 2.0f)\n"
                              "#define RUN_SCALE_T(T, d) scale<T><<<2, 32>>>(d, (T)2)\n"
                              "#define RUN_ANY(k, ...) k<<<2, 32>>>(__VA_ARGS__)\n"
                              "void h(int *i, float *f) { RUN_ADD(i); RUN_SCALE(f); RUN_SCALE_T(float, f); "
                              "RUN_ANY(scale, f, 3.0f); }\n");
    cr_assert_not_null(strstr(out, "#define RUN_ADD(d) ::simtlab_emu::launch_known<decltype(&add), &add>(\"add\", "
                                   "__FILE__, __LINE__, add, 2, 32)(d)\n"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "#define RUN_SCALE(d) ::simtlab_emu::launch_deduced(\"scale\", __FILE__, __LINE__, "
                                   "[](auto &&...simtlab_emu_a) { scale(static_cast<decltype(simtlab_emu_a) &&>"
                                   "(simtlab_emu_a)...); }, 2, 32)(d, 2.0f)\n"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "#define RUN_SCALE_T(T, d) ::simtlab_emu::launch(\"scale<T>\", __FILE__, __LINE__, "
                                   "scale<T>, 2, 32)(d, (T)2)\n"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "#define RUN_ANY(k, ...) ::simtlab_emu::launch_deduced(#k, __FILE__, __LINE__, "
                                   "[=](auto &&...simtlab_emu_a) { k(static_cast<decltype(simtlab_emu_a) &&>"
                                   "(simtlab_emu_a)...); }, 2, 32)(__VA_ARGS__)\n"),
                       "%s", out);
    /* the uses are left to the preprocessor */
    cr_assert_not_null(strstr(out, "RUN_ADD(i); RUN_SCALE(f); RUN_SCALE_T(float, f); RUN_ANY(scale, f, 3.0f); }"), "%s",
                       out);
}

/* The same when the other overload is a header's prototype (cuda-samples'
 * cdpAdvancedQuicksort: its header declares qsort_warp with 7 parameters,
 * the .cu defines it with 8). */
Test(rewriter, a_kernel_overloaded_by_a_headers_prototype_is_picked_by_argument_count, .init = make_scratch)
{
    write_scratch("part.h", "#pragma once\n__global__ void part(int *a, int n);\n");
    write_scratch("main.cu", "#include \"part.h\"\n"
                             "__global__ void part(int *a, int n, int depth) { }\n"
                             "void go(int *a) { part<<<1, 32>>>(a, 4, 0); }\n");
    const char *got = rewrite_tree(NULL, NULL);
    cr_assert_not_null(strstr(got, "static_cast<void (*)(int *a, int n, int depth)>(part), 1, 32)(a, 4, 0)"), "%s",
                       got);
}

/* Overloads with as many parameters declared in a header: the .cu's launch
 * goes through the generic lambda, as for overloads of its own. */
Test(rewriter, overloads_declared_in_a_header_are_picked_by_the_compiler, .init = make_scratch)
{
    write_scratch("fill.cuh", "#pragma once\n"
                              "__global__ void fill(float *p, float v) { }\n"
                              "__global__ void fill(double *p, double v) { }\n");
    write_scratch("main.cu", "#include \"fill.cuh\"\n"
                             "void go(float *f, double *d) { fill<<<1, 32>>>(f, 1.0f); fill<<<1, 32>>>(d, 2.0); }\n");
    const char *got = rewrite_tree(NULL, NULL);
    cr_assert_not_null(strstr(got, "launch_deduced(\"fill\", __FILE__, __LINE__, [](auto &&...simtlab_emu_a) { "
                                   "fill(static_cast<decltype(simtlab_emu_a) &&>(simtlab_emu_a)...); }, 1, 32)(f, 1.0f);"),
                       "%s", got);
    cr_assert_not_null(strstr(got, "}, 1, 32)(d, 2.0); }"), "%s", got);
}

/* Texture and surface references (removed in CUDA 12.0) become the
 * emulator's templates that say so; a program's own `texture` (a ray
 * tracer's class) or a `texture<...>` that is no reference stays. */
Test(rewriter, texture_references_become_the_template_that_says_they_were_removed)
{
    expect_rewrite("texture<float, 1, cudaReadModeElementType> t1;\n"
                   "static texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> t2;\n"
                   "surface<void, 2> s1;\n",
                   "::simtlab_emu::removed_texture_reference<float, 1, cudaReadModeElementType> t1;\n"
                   "static ::simtlab_emu::removed_texture_reference<uchar4, cudaTextureType2D, "
                   "cudaReadModeNormalizedFloat> t2;\n"
                   "::simtlab_emu::removed_surface_reference<void, 2> s1;\n");
    expect_unchanged("template <class T> struct texture { T v; };\n"
                     "texture<float> albedo;\n"
                     "texture<float, 1, cudaReadModeElementType> t1;\n");
    expect_unchanged("texture<Color> sky;\n"
                     "struct S { texture<float, 1> t; };\n"
                     "__device__ void f() { texture<float, 1> local; }\n");
}

/* A kernel's name pasted in a launch macro (`name##_kernel`) is one name. */
Test(rewriter, a_pasted_kernel_name_in_a_launch_macro_is_one_name)
{
    expect_rewrite("#define RUN(name, p) do { name##_kernel<<<1, 32>>>(p); } while (0)\n",
                   "#define RUN(name, p) do { ::simtlab_emu::launch(\"name##_kernel\", __FILE__, __LINE__, "
                   "name##_kernel, 1, 32)(p); } while (0)\n");
}

/* ---- host-only functions (tools/rewriter/rewrite_hostfn.c) ----------------------------------- */

/* Text the rewriter puts before a host-only definition, and after a host
 * lambda's parameters. */
#define HF "SIMTLAB_EMU_HOST_FN "
#define HL " SIMTLAB_EMU_HOST_FN"

/* Definitions CUDA runs only on the host get the mark; __global__,
 * __device__, __host__ __device__ (either order) and constexpr ones do not. */
Test(rewriter, host_only_definitions_are_marked_and_device_ones_are_not)
{
    expect_rewrite("__device__ float d(float x) { return x; }\n"
                   "__host__ __device__ float hd(float x) { return x; }\n"
                   "__device__ __host__ inline float dh(float x) { return x; }\n"
                   "__forceinline__ __device__ float fd(float x) { return x; }\n"
                   "constexpr int c(int x) { return x; }\n"
                   "template <class T> __device__ T td(T x) { return x; }\n"
                   "float h(float x) { return x; }\n"
                   "__host__ float ho(float x) { return x; }\n"
                   "static inline float *sp(float *p) { return p; }\n"
                   "template <class T, int N = (3 > 2)> T th(T x) { return x; }\n"
                   "template <> int th<int>(int x) { return x; }\n"
                   "int main(int argc, char **argv) { return 0; }\n",
                   "__device__ float d(float x) { return x; }\n"
                   "__host__ __device__ float hd(float x) { return x; }\n"
                   "__device__ __host__ inline float dh(float x) { return x; }\n"
                   "__forceinline__ __device__ float fd(float x) { return x; }\n"
                   "constexpr int c(int x) { return x; }\n"
                   "template <class T> __device__ T td(T x) { return x; }\n"
                   HF "float h(float x) { return x; }\n"
                   HF "__host__ float ho(float x) { return x; }\n"
                   HF "static inline float *sp(float *p) { return p; }\n"
                   "template <class T, int N = (3 > 2)> " HF "T th(T x) { return x; }\n"
                   "template <> " HF "int th<int>(int x) { return x; }\n"
                   HF "int main(int argc, char **argv) { return 0; }\n");
}

/* extern "C" (one function or a block), namespaces, out-of-class members,
 * operators, a trailing return type, [[attributes]]. */
Test(rewriter, host_definitions_in_linkage_blocks_namespaces_and_out_of_class)
{
    expect_rewrite("extern \"C\" void e1() {}\n"
                   "extern \"C\" {\nvoid e2() {}\n__global__ void k() {}\n}\n"
                   "namespace a { namespace b { inline int f() { return 1; } } }\n"
                   "namespace { int anon() { return 2; } }\n"
                   "int a::S::m(int x) const { return x; }\n"
                   "a::S::S(int x) : v(x), w{x} { }\n"
                   "a::S::~S() { }\n"
                   "template <class T> T a::X<T>::get() { return T(); }\n"
                   "bool operator<(const P &l, const P &r) { return l.v < r.v; }\n"
                   "auto tr(int x) -> decltype(x) { return x; }\n"
                   "[[nodiscard]] int nd() { return 3; }\n",
                   "extern \"C\" " HF "void e1() {}\n"
                   "extern \"C\" {\n" HF "void e2() {}\n__global__ void k() {" ENTRY_CHECK("k") "}"
                   NOTED("k", "void (*)()") "\n}\n"
                   "namespace a { namespace b { " HF "inline int f() { return 1; } } }\n"
                   "namespace { " HF "int anon() { return 2; } }\n"
                   HF "int a::S::m(int x) const { return x; }\n"
                   HF "a::S::S(int x) : v(x), w{x} { }\n"
                   HF "a::S::~S() { }\n"
                   "template <class T> " HF "T a::X<T>::get() { return T(); }\n"
                   HF "bool operator<(const P &l, const P &r) { return l.v < r.v; }\n"
                   HF "auto tr(int x) -> decltype(x) { return x; }\n"
                   "[[nodiscard]] " HF "int nd() { return 3; }\n");
}

/* Members defined in a class body: constructors with member initialisers
 * (braces among them), operators, conversions; device members, defaulted
 * ones, data members with initialisers and enums are left alone. */
Test(rewriter, host_members_in_a_class_body)
{
    expect_rewrite("struct alignas(16) S : B<(2 > 1)> {\n"
                   "  int v, w[2] = {1, 2};\n"
                   "  enum E { A, B };\n"
                   "  S() : v(0), w{1, 2} { }\n"
                   "  explicit S(int x) : B<(2 > 1)>(x), v{x} {}\n"
                   "  S(const S &) = default;\n"
                   "  virtual ~S() {}\n"
                   "public:\n"
                   "  int get() const noexcept { return v; }\n"
                   "  __device__ int dget() const { return v; }\n"
                   "  __host__ __device__ int hdget() const { return v; }\n"
                   "  S &operator=(const S &o) { v = o.v; return *this; }\n"
                   "  int operator()(int i) const { return i; }\n"
                   "  operator int() const { return v; }\n"
                   "  static constexpr int z() { return 3; }\n"
                   "  struct In { void f() {} };\n"
                   "};\n",
                   "struct alignas(16) S : B<(2 > 1)> {\n"
                   "  int v, w[2] = {1, 2};\n"
                   "  enum E { A, B };\n"
                   "  " HF "S() : v(0), w{1, 2} { }\n"
                   "  " HF "explicit S(int x) : B<(2 > 1)>(x), v{x} {}\n"
                   "  S(const S &) = default;\n"
                   "  " HF "virtual ~S() {}\n"
                   "public:\n"
                   "  " HF "int get() const noexcept { return v; }\n"
                   "  __device__ int dget() const { return v; }\n"
                   "  __host__ __device__ int hdget() const { return v; }\n"
                   "  " HF "S &operator=(const S &o) { v = o.v; return *this; }\n"
                   "  " HF "int operator()(int i) const { return i; }\n"
                   "  " HF "operator int() const { return v; }\n"
                   "  static constexpr int z() { return 3; }\n"
                   "  struct In { " HF "void f() {} };\n"
                   "};\n");
}

/* Lambdas in host code are host code, unless marked __device__; a lambda
 * in a kernel or a __device__ function is device code. Subscripts,
 * attributes, structured bindings and delete[] are no lambdas. */
Test(rewriter, host_lambdas_are_marked_device_ones_are_not)
{
    expect_rewrite("__global__ void k(int *p) { auto l = [](int i) { return i; }; p[0] = l(1); }\n"
                   "__device__ int d() { return [] { return 1; }(); }\n"
                   "auto g = [](int x) { return x; };\n"
                   "__device__ auto dg = [](int x) { return x; };\n"
                   "void h(std::vector<int> &v, int *a) {\n"
                   "  std::sort(v.begin(), v.end(), [](int x, int y) { return x < y; });\n"
                   "  auto m = [&, a](int i) mutable noexcept -> int { return a[i]; };\n"
                   "  auto q = [&] { return [=](int j) { return j; }(1); };\n"
                   "  auto dv = [=] __device__ (int i) { return [](int j) { return j; }(i); };\n"
                   "  auto hv = [=] __host__ __device__ (int i) { return i; };\n"
                   "  auto ce = [](int i) constexpr { return i; };\n"
                   "  [[maybe_unused]] int z = a[0];\n"
                   "  auto &[x, y] = pr;\n"
                   "  delete[] a;\n"
                   "}\n",
                   "__global__ void k(int *p) {" ENTRY_CHECK("k") " auto l = [](int i) { return i; }; p[0] = l(1); }"
                   NOTED("k", "void (*)(int *p)") "\n"
                   "__device__ int d() { return [] { return 1; }(); }\n"
                   "auto g = [](int x)" HL " { return x; };\n"
                   "__device__ auto dg = [](int x) { return x; };\n"
                   HF "void h(std::vector<int> &v, int *a) {\n"
                   "  std::sort(v.begin(), v.end(), [](int x, int y)" HL " { return x < y; });\n"
                   "  auto m = [&, a](int i)" HL " mutable noexcept -> int { return a[i]; };\n"
                   "  auto q = [&]()" HL " { return [=](int j)" HL " { return j; }(1); };\n"
                   "  auto dv = [=] __device__ (int i) { return [](int j) { return j; }(i); };\n"
                   "  auto hv = [=] __host__ __device__ (int i) { return i; };\n"
                   "  auto ce = [](int i) constexpr { return i; };\n"
                   "  [[maybe_unused]] int z = a[0];\n"
                   "  auto &[x, y] = pr;\n"
                   "  delete[] a;\n"
                   "}\n");
}

/* Qualifiers through macros: one the file defines as (or through another
 * macro as) __device__ keeps a definition instrumented; one defined as
 * something else does not, unless it opens a brace (a mark before
 * `namespace ns {` would not compile); an unknown all-capitals word or a __reserved
 * one might mean __device__ (a header the rewriter does not read), so the
 * definition is left alone; so is a body after a macro without return type,
 * and the definitions after it are still seen. */
Test(rewriter, qualifier_macros_and_unknown_words)
{
    expect_rewrite("#define HD HOST_DEVICE\n"
                   "#define HOST_DEVICE __host__ __device__\n"
                   "#define INL inline\n"
                   "#define NS_BEGIN namespace ns {\n"
                   "HD float a(float x) { return x; }\n"
                   "INL float b(float x) { return x; }\n"
                   "NS_BEGIN float n(float x) { return x; }\n"
                   "CUTLASS_DEVICE float c(float x) { return x; }\n"
                   "__hostdev__ float e(float x) { return x; }\n"
                   "TEST(suite) { }\n"
                   "FILE *f() { return 0; }\n"
                   "int after() { return 1; }\n",
                   "#define HD HOST_DEVICE\n"
                   "#define HOST_DEVICE __host__ __device__\n"
                   "#define INL inline\n"
                   "#define NS_BEGIN namespace ns {\n"
                   "HD float a(float x) { return x; }\n"
                   HF "INL float b(float x) { return x; }\n"
                   "NS_BEGIN float n(float x) { return x; }\n"
                   "CUTLASS_DEVICE float c(float x) { return x; }\n"
                   "__hostdev__ float e(float x) { return x; }\n"
                   "TEST(suite) { }\n"
                   HF "FILE *f() { return 0; }\n"
                   HF "int after() { return 1; }\n");
}

/* A definition whose name is declared __device__ elsewhere is
 * __host__ __device__ to nvcc: left alone. So is everything after braces
 * that #if branches leave unbalanced. Macro bodies are never touched. */
Test(rewriter, device_redeclarations_unbalanced_branches_and_macros_are_left_alone)
{
    expect_rewrite("__device__ float p(float);\n"
                   "float p(float x) { return x; }\n"
                   "#define DEF void m() { }\n"
                   "int before() { return 0; }\n"
                   "#if A\nvoid f(int a) {\n#else\nvoid f(int a, int b) {\n#endif\n}\n"
                   "int later() { return 1; }\n",
                   "__device__ float p(float);\n"
                   "float p(float x) { return x; }\n"
                   "#define DEF void m() { }\n"
                   HF "int before() { return 0; }\n"
                   "#if A\nvoid f(int a) {\n#else\nvoid f(int a, int b) {\n#endif\n}\n"
                   "int later() { return 1; }\n");
}

/* A header's macros are known to the file that includes it, and the file's
 * own to its headers; marks never add a line. */
Test(rewriter, host_marks_follow_macros_across_headers_and_keep_lines, .init = make_scratch)
{
    write_scratch("q.h", "#pragma once\n#define QUAL __host__ __device__\nQUAL int inh(int x) { return x; }\n"
                         "int hosth(int x) { return x; }\n");
    write_scratch("main.cu", "#include \"q.h\"\nQUAL int a(int x) { return x; }\nint b(int x)\n{\n  return x;\n}\n");
    const char *got = rewrite_tree(NULL, NULL);
    cr_assert_not_null(strstr(got, "\nQUAL int inh(int x) { return x; }\n" HF "int hosth(int x)"), "%s", got);
    cr_assert_not_null(strstr(got, "\nQUAL int a(int x) { return x; }\n" HF "int b(int x)\n{\n  return x;\n}\n"), "%s",
                       got);
}

/* The build's precompiled prelude (emu/cmake/kernel_prelude.hpp) must hold
 * exactly the rewriter's prelude, in its order: a rewritten source that the
 * build compiles with it sees the headers as the precompiled copy saw them. */
Test(rewriter, the_builds_precompiled_prelude_is_the_rewriters)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", SLCC_INPUTS_DIR "../../cmake/kernel_prelude.hpp");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char code[1024] = "", line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' && strlen(code) + strlen(line) < sizeof code) strcat(code, line);
    }
    fclose(f);
    cr_assert_str_eq(code, SL_REWRITE_PRELUDE, "%s: its directives must be the rewriter's prelude, and nothing else", path);
}
