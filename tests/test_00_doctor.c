/* Chapter 00 — the environment doctor's questions: what this binary was
 * built for, the CUDA versions, and bad arguments named in the message. */
#include <criterion/criterion.h>
#include <string.h>

#include "sl_test.h"

Test(doctor, the_build_says_what_it_carries)
{
    const char *arch = sl_built_architectures();
    cr_assert_not_null(arch);
    cr_assert(arch[0] != '\0');
    if (sl_backend_is_emulator())
        cr_assert(strstr(arch, "emulator"), "%s", arch);
    else /* "800,900": compute capability x 100, comma-separated */
        cr_assert(strspn(arch, "0123456789,") == strlen(arch), "%s", arch);
}

Test(doctor, versions_reject_null_by_name)
{
    int v = 0;
    cr_assert_eq(sl_cuda_versions(NULL, &v), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "driver is NULL"), "%s", sl_last_error());
    cr_assert_eq(sl_cuda_versions(&v, NULL), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "runtime is NULL"), "%s", sl_last_error());
    cr_assert_eq(sl_device_kernel_image(0, NULL, &v), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "binary_version is NULL"), "%s", sl_last_error());
}

Test(doctor, the_runtime_version_is_known)
{
    sl_test_require_device();
    int driver = -1, runtime = -1;
    cr_assert_eq(sl_cuda_versions(&driver, &runtime), SL_OK, "%s", sl_last_error());
    cr_assert(runtime >= 1000, "runtime version %d", runtime);
    cr_assert(driver >= 0);
}
