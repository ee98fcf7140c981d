# The order `make test` runs its tests in on a first run. CTest starts the
# tests with the highest COST first and, once a run has finished, orders by
# the times it recorded (Testing/Temporary/CTestCostData.txt). A fresh clone
# has no record: without these hints the longest tests could start last and
# leave the other core idle at the end. The figures are seconds measured on
# a 2-core machine; only their order matters. (CMake 3.25 sets a test's
# properties only in the folder that added it: the emulator's own are in
# emu/CMakeLists.txt.)
set(_sl_test_costs
    core.grade_tool 32
    core.bench_charts 20
    emu.test_04_reduce 15
    gpu.test_04_reduce 12
    nvcc.06_tensor_gemm_ptx 11
    emu.test_05_sgemm 10
    grade.formats 9
    core.tutorial_output 8)
while(_sl_test_costs)
  list(POP_FRONT _sl_test_costs _sl_test _sl_cost)
  if(TEST ${_sl_test})
    set_tests_properties(${_sl_test} PROPERTIES COST ${_sl_cost})
  endif()
endwhile()
