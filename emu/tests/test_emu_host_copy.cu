/* The host side of a copy (issue 16): a host pointer that cannot be read
 * or written (0x10, a string literal, a PROT_READ page, a page past the
 * end of a mapping) makes cudaMemcpy and its 2D/3D forms return
 * cudaErrorInvalidValue with a diagnostic naming the argument and the bad
 * byte, where the copy used to die of SIGSEGV. Nothing is copied then.
 *
 * Build and run: cmake --build build --target test_emu_host_copy &&
 *                build/bin/test_emu_host_copy */
#include <criterion/criterion.h>

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <vector>

#define EXPECT_DIAGNOSTIC_HAS(text)                                                                   \
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), (text)) != nullptr, "diagnostic lacks \"%s\": %s", \
              (text), simtlab_emu_last_diagnostic())

static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));

static void *device_bytes(size_t n)
{
    void *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, n), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 7, n), cudaSuccess);
    return d;
}

/* Two pages: the first as asked, the second unmapped. */
static char *page_then_hole(int prot)
{
    char *p = static_cast<char *>(mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    cr_assert_neq(p, MAP_FAILED);
    std::memset(p, 1, page);
    cr_assert_eq(munmap(p + page, page), 0);
    cr_assert_eq(mprotect(p, page, prot), 0);
    return p;
}

Test(host_copy, a_copy_from_host_address_0x10_is_invalid_value_naming_src)
{
    void *d = device_bytes(64);
    cr_assert_eq(cudaMemcpy(d, reinterpret_cast<const void *>(0x10), 64, cudaMemcpyHostToDevice),
                 cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy src 0x10");
    EXPECT_DIAGNOSTIC_HAS("not mapped");
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "not sticky");
    cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(host_copy, a_copy_into_a_string_literal_is_invalid_value_naming_dst)
{
    void *d = device_bytes(8);
    char *literal = const_cast<char *>("read-only text");
    cr_assert_eq(cudaMemcpy(literal, d, 8, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy dst 0x");
    EXPECT_DIAGNOSTIC_HAS("read-only host memory");
    cr_assert_eq(std::strcmp(literal, "read-only text"), 0, "nothing was copied");
    cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(host_copy, a_copy_into_a_prot_read_page_and_past_a_mapping_names_the_byte)
{
    void *d = device_bytes(2 * page);
    char *ro = page_then_hole(PROT_READ);
    cr_assert_eq(cudaMemcpyAsync(ro + 100, d, 16, cudaMemcpyDeviceToHost, 0), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpyAsync dst");
    EXPECT_DIAGNOSTIC_HAS("read-only");
    cr_assert_eq(ro[100], 1, "nothing was copied");
    /* Readable, but the range runs into the unmapped page: offset page - 8. */
    cr_assert_eq(cudaMemcpy(d, ro + page - 8, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy src");
    EXPECT_DIAGNOSTIC_HAS("(offset 8 of the 16-byte range) is not mapped");
    cr_assert_eq(cudaMemcpy(ro, ro + 8, 8, cudaMemcpyHostToHost), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy dst");
    cr_assert_eq(munmap(ro, page), 0);
    cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(host_copy, a_2d_copy_into_read_only_rows_is_invalid_value_and_writable_padding_is_not_needed)
{
    void *d = device_bytes(4 * 64);
    char *ro = page_then_hole(PROT_READ);
    cr_assert_eq(cudaMemcpy2D(ro, 64, d, 64, 64, 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy2D dst");
    EXPECT_DIAGNOSTIC_HAS("read-only");
    /* Rows in writable memory with a pitch that skips the hole: only rows
     * are probed, so a copy whose rows are all mapped runs. */
    cr_assert_eq(mprotect(ro, page, PROT_READ | PROT_WRITE), 0);
    cr_assert_eq(cudaMemcpy2D(ro, 64, d, 64, 64, 4, cudaMemcpyDeviceToHost), cudaSuccess,
                 "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(ro[0], 7);
    /* A source whose last row lies in the hole. */
    cr_assert_eq(cudaMemcpy2D(d, 64, ro, page / 2, 64, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_DIAGNOSTIC_HAS("cudaMemcpy2D src");
    EXPECT_DIAGNOSTIC_HAS("is not mapped");
    cr_assert_eq(munmap(ro, page), 0);
    cr_assert_eq(cudaFree(d), cudaSuccess);
}

Test(host_copy, good_copies_still_run_and_a_64_mib_copy_pays_little_for_the_check)
{
    const size_t n = 64u << 20;
    std::vector<char> host(n, 3), back(n, 0);
    void *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, n), cudaSuccess);
    const auto t0 = std::chrono::steady_clock::now();
    cr_assert_eq(cudaMemcpy(d, host.data(), n, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpy(back.data(), d, n, cudaMemcpyDeviceToHost), cudaSuccess);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cr_assert(back == host);
    cr_assert_lt(s, 5.0, "two 64 MiB copies took %.2f s", s);
    cr_assert_eq(cudaFree(d), cudaSuccess);
}
