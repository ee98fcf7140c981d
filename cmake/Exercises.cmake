# ---- exercises: graded as a student's would be, on the course's own sources -----
# (scripts/grade.py; tutorial/INSTRUCTORS.md). Each grades a tree generated into
# the build folder from tutorial/exercises, never a student's own (student/), so
# `make test` stays green however far a student has got.
#   exercise.NN.exK_topic        the solution (the #ifdef SOLUTION branch) gets every
#                                point, hidden checks included
#   exercise.NN.exK_topic.stub   the stub `make student` writes scores 0, and prints
#                                what exK_topic.expect asks for
#   exercise.NN.exK_topic.cheat.NAME   (labels cheat, long) a cheat of
#                                tests/grading/cheats.py scores 0 (or the little it
#                                may keep), for the reason it names
#   core.grade_tool              scripts/grade.py's own tests (tests/test_grade.py)
#   grade.sandbox.*              (labels grade, sandbox, long) hostile submissions
#                                graded in the sandbox harm nothing and score 0
#   grade.slurm                  (labels grade, slurm, long) grade-class SLURM=1 on a
#                                Slurm of its own: the same CSV as on one machine
#   grade.formats                Gradescope's results.json and autograder bundle,
#                                GitHub Classroom's workflow, against their schemas
file(GLOB SIMTLAB_EXERCISES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tutorial/exercises/*/ex*.cu)
find_program(SIMTLAB_PYTHON3 python3)
if(NOT SIMTLAB_PYTHON3)
  message(WARNING "simtlab: python3 not found, so the exercises are not checked (scripts/grade.py)")
  set(SIMTLAB_EXERCISES)
endif()
set(_sl_grade ${PROJECT_SOURCE_DIR}/scripts/grade.py)
set(_sl_grade_args --backend emu --timeout 120 --slcc $<TARGET_FILE:slcc>)
set(_sl_exercise_names)
foreach(src IN LISTS SIMTLAB_EXERCISES)
  get_filename_component(name "${src}" NAME_WE)
  get_filename_component(dir "${src}" DIRECTORY)
  get_filename_component(chapter "${dir}" NAME)
  string(REGEX MATCH "^ex([0-9]+)_" _ "${name}")
  set(ex_id "${chapter}-${CMAKE_MATCH_1}")
  set(_sl_test_of_${ex_id} exercise.${chapter}.${name})
  foreach(variant solution stub)
    set(test exercise.${chapter}.${name})
    if(variant STREQUAL stub)
      set(test ${test}.stub)
    endif()
    add_test(NAME ${test}
             COMMAND ${SIMTLAB_PYTHON3} ${_sl_grade} check --ex ${ex_id} --variant ${variant} ${_sl_grade_args}
                     --out ${CMAKE_BINARY_DIR}/exercise-check/${ex_id})
    set_tests_properties(${test} PROPERTIES LABELS "emu;exercise" TIMEOUT 400)
  endforeach()
endforeach()
# The cheats: one test each, listed by the cheats file (re-read when it changes).
if(SIMTLAB_PYTHON3 AND SIMTLAB_EXERCISES)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/grading/cheats.py)
  execute_process(COMMAND ${SIMTLAB_PYTHON3} ${_sl_grade} cheat --list
                  OUTPUT_VARIABLE _sl_cheats RESULT_VARIABLE _sl_cheats_rc)
  if(NOT _sl_cheats_rc EQUAL 0)
    message(WARNING "simtlab: scripts/grade.py cheat --list failed; the cheat tests are left out")
    set(_sl_cheats "")
  endif()
  string(REPLACE "\n" ";" _sl_cheats "${_sl_cheats}")
  foreach(line IN LISTS _sl_cheats)
    if(line MATCHES "^([0-9][0-9]-[0-9]+) ([a-z_]+)$")
      set(ex_id ${CMAKE_MATCH_1})
      set(cheat ${CMAKE_MATCH_2})
      if(DEFINED _sl_test_of_${ex_id})
        set(test ${_sl_test_of_${ex_id}}.cheat.${cheat})
        add_test(NAME ${test}
                 COMMAND ${SIMTLAB_PYTHON3} ${_sl_grade} cheat --ex ${ex_id} --cheat ${cheat} ${_sl_grade_args}
                         --out ${CMAKE_BINARY_DIR}/exercise-check/${ex_id})
        set_tests_properties(${test} PROPERTIES LABELS "emu;exercise;cheat;long" TIMEOUT 600)
      endif()
    endif()
  endforeach()
endif()
if(SIMTLAB_PYTHON3)
  # scripts/grade.py's own test: the marker parser, the student tree (and no
  # answer key in it), the hidden test's protocol, a hang, a crash and a build
  # error graded 0 with the reason, TAP, JUnit, the class CSV in parallel.
  add_test(NAME core.grade_tool
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/test_grade.py $<TARGET_FILE:slcc>)
  set_tests_properties(core.grade_tool PROPERTIES LABELS "emu;exercise" TIMEOUT 600)
  # The sandbox (scripts/sandbox.py): hostile submissions, graded by grade-class.
  # Skips with the reason printed where bubblewrap cannot start.
  add_test(NAME grade.sandbox
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/grading/test_sandbox.py $<TARGET_FILE:slcc>)
  set_tests_properties(grade.sandbox PROPERTIES LABELS "emu;grade;sandbox;long" TIMEOUT 900
                       SKIP_REGULAR_EXPRESSION "^SKIP")
  # grade-class SLURM=1 (scripts/grade_slurm.py) against a single-node Slurm the
  # test starts and stops itself (munged, slurmctld, slurmd; root). Skips, saying
  # why, where Slurm cannot start (SIMTLAB_WITH_SLURM=1 scripts/deps.sh installs it).
  add_test(NAME grade.slurm
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/grading/test_slurm.py $<TARGET_FILE:slcc>)
  set_tests_properties(grade.slurm PROPERTIES LABELS "emu;grade;slurm;long" TIMEOUT 300
                       SKIP_REGULAR_EXPRESSION "simtlab-skip:")
  # The formats course platforms read, validated against schemas written from
  # their documentation (tests/grading/schemas/).
  add_test(NAME grade.formats
           COMMAND ${SIMTLAB_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/grading/test_formats.py $<TARGET_FILE:slcc>)
  set_tests_properties(grade.formats PROPERTIES LABELS "emu;grade" TIMEOUT 600)
endif()
