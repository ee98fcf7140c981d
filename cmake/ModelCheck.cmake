# The timing model checked against the H200 measurements of 2026-12-04
# (issue 28): bench/model_check.c runs one measured row's kernel on the
# emulator at its measured size under sl_modelled_run; scripts/model-check.py
# feeds it bench/data/h200_2026-12-04.csv and prints modelled, measured,
# ratio, the rank correlations and the one-line verdict.
#
#   model_check_emu           the driver (emulator build, like bench_NN_*_emu)
#   model-check               the full check (make model-check)
#   core.model_check_subset   a few rows and the check's own self-checks (label core)
#   model.model_check         the full check (label model, at most 5 minutes)
add_executable(model_check_emu ${PROJECT_SOURCE_DIR}/bench/model_check.c)
target_link_libraries(model_check_emu PRIVATE simtlab_emu m)
set_target_properties(model_check_emu PROPERTIES LINKER_LANGUAGE CXX)
if(OpenMP_C_FOUND)
  target_link_libraries(model_check_emu PRIVATE OpenMP::OpenMP_C)
endif()
if(SIMTLAB_PYTHON3)
  set(_sl_model_check ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/model-check.py
                      --driver $<TARGET_FILE:model_check_emu>)
  add_custom_target(model-check
    COMMAND ${_sl_model_check}
    DEPENDS model_check_emu
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "the timing model against the H200 measurements (scripts/model-check.py)"
    USES_TERMINAL)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_test(NAME core.model_check_subset COMMAND ${_sl_model_check} --subset --timeout 100)
  set_tests_properties(core.model_check_subset PROPERTIES LABELS "core" TIMEOUT 120)
  add_test(NAME model.model_check COMMAND ${_sl_model_check} --timeout 280)
  set_tests_properties(model.model_check PROPERTIES LABELS "model;long" TIMEOUT 300)
endif()
