# The layers that the compiler alone does not hold (DESIGN.md, "Layers and who
# may call whom"), checked from the sources by tests/core_layers.sh:
#
#   core.layers   the shared core (every host/*.c without a chapter number)
#                 includes no chapter's header, not even through
#                 host/sl_internal.h; every host file has its own chapter's
#                 prototypes in scope; kernels/ includes only kernels/.
#
# Included from CMakeLists.txt after cmake/Chapters.cmake. It needs only the
# C compiler and the OpenBLAS include folder (chapter 05's CPU column
# includes <cblas.h>), so it runs in every build, with or without nvcc.
set(sl_layers_flags)
foreach(dir IN LISTS OPENBLAS_INCLUDE_DIRS)
  list(APPEND sl_layers_flags -isystem ${dir})
endforeach()
add_test(NAME core.layers
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/core_layers.sh ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER}
                 ${sl_layers_flags})
set_tests_properties(core.layers PROPERTIES LABELS core TIMEOUT 120 FAIL_REGULAR_EXPRESSION "FAIL:")
