# simtlab — a thin driver for CMake. The quick start is two commands:
#   make test    install what is missing, build, run every test
#                (make chapter CH=01: one chapter alone, and its example run)
#                (make test-long: the long checks, which CI also runs)
#   make bench   build and run the benchmarks, write CSV and charts
#                (make bench CH=04: chapter 04 only; make bench-emu: the
#                emulator's own speed checks)
# Build directory: build/ (BUILD=...); executables land in build/bin/.
# Pass CMake options with CMAKE_FLAGS, e.g.
#   make test CMAKE_FLAGS=-DCMAKE_CUDA_ARCHITECTURES=native

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps configure build chapter model-check model-check-sass test test-long test-asan bench bench-emu examples doctor clean student grade grade-class gradescope classroom sass ptx

all: build

deps:
	@bash scripts/deps.sh

# A first configure, or one with CMAKE_FLAGS given (they change the cache of
# an existing build too: make test CMAKE_FLAGS=-DCMAKE_CUDA_ARCHITECTURES=native).
configure: deps
	@if [ ! -f $(BUILD)/CMakeCache.txt ] || [ -n "$(strip $(CMAKE_FLAGS))" ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS); fi

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# make chapter CH=01: one chapter alone, its example, tests and bench (the
# target chapterNN_emu; chapterNN, with the CUDA build too, where a GPU is
# present), then its example programs are run. The quick way in: the
# emulator's runtime and one chapter, not the whole course.
chapter: configure
	@case "$(CH)" in [0-9][0-9]) ;; *) echo "make chapter: CH must be one chapter number, e.g. make chapter CH=01" >&2; exit 2;; esac
	@if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then \
	  cmake --build $(BUILD) -j$(JOBS) --target chapter$(CH); suffix=; \
	else \
	  cmake --build $(BUILD) -j$(JOBS) --target chapter$(CH)_emu; suffix=_emu; \
	fi; \
	for src in examples/$(CH)_*.c; do [ -e "$$src" ] || continue; \
	  prog=$(BUILD)/bin/$$(basename $$src .c)$$suffix; \
	  echo; echo "== $$prog"; $$prog || exit $$?; \
	done

test: build
	@set -e; rc=0; \
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -LE '^long$$' || rc=$$?; \
	bash scripts/skipped-tests.sh $(BUILD); \
	exit $$rc

# The long checks (CTest label "long"), which CI runs after make test: each
# builds or runs more than a quick check should (the page check in a tree at
# a 150-character path rebuilds the emulator there, about 5 minutes on 2 cores;
# the exercises' 79 cheats and the sandbox's hostile submissions, about 12
# minutes of one core), JOBS at once.
test-long: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -L '^long$$'

# The emulator flavour under AddressSanitizer and UBSan, in its own build
# directory (CUDA off, no SIMT counters); what it leaves out and why:
# emu/docs/checks.md, "Under ASan and UBSan". A UBSan report fails its test.
ASAN_BUILD ?= build-asan
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer
# Left out: the long checks (label "long": grading cheats, the sandbox, the
# long-path build, the notebook), which assume the ordinary build; and the
# tests of the checkers that need the SIMT counters'
# instrumentation, which ASan excludes (and whose planted bugs UBSan stops
# first). Run with handle_segv=0: tests that expect a program to die of
# SIGSEGV (ASan's own handler would exit 1 instead).
ASAN_EXCLUDE = ^emu\.test_emu_(memcheck|racecheck)$$|^emu\.07_errors\.(race|page)$$
ASAN_SEGV_DEATH = ^core\.grade_tool$$|^emu\.07_errors\.hostderef$$
test-asan: deps
	@if [ ! -f $(ASAN_BUILD)/CMakeCache.txt ]; then cmake -S . -B $(ASAN_BUILD) -DSIMTLAB_ENABLE_CUDA=OFF \
	  "-DCMAKE_C_FLAGS=$(SANITIZE)" "-DCMAKE_CXX_FLAGS=$(SANITIZE)" "-DCMAKE_EXE_LINKER_FLAGS=$(SANITIZE)" \
	  $(CMAKE_FLAGS); fi
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	@rc=0; export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 SIMTLAB_TEST_UNDER_ASAN=1; \
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS) -LE '^long$$' -E '$(ASAN_EXCLUDE)|$(ASAN_SEGV_DEATH)' || rc=$$?; \
	ASAN_OPTIONS=handle_segv=0 ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS) -LE '^long$$' -R '$(ASAN_SEGV_DEATH)' || rc=$$?; \
	exit $$rc

# CH=04 (or CH="01 04"): those chapters only.
CH ?=
bench: configure
	cmake --build $(BUILD) -j$(JOBS) --target benches
	@bash scripts/bench.sh $(BUILD) "$(CH)"

# The timing model against the H200 measurements of 2026-12-04: per row the
# modelled time, the measured one and their ratio, the rank correlations,
# and a last line with the score (scripts/model-check.py; emu/docs/model.md).
model-check: configure
	cmake --build $(BUILD) -j$(JOBS) --target model-check
# The same with SASS weights (a CUDA build with nvdisasm: build/sass.txt first,
# about 3 minutes; emu/docs/model.md, "SASS weights").
model-check-sass: configure
	cmake --build $(BUILD) -j$(JOBS) --target model-check-sass

# The emulator's speed against its targets (for whoever works on emu/).
bench-emu: configure
	cmake --build $(BUILD) -j$(JOBS) --target bench_emu_throughput bench_emu_throughput_modes
	@mkdir -p $(BUILD)/bench
	$(BUILD)/bin/bench_emu_throughput --csv $(BUILD)/bench/emu_throughput.csv

# The machine code of chapter CH's kernels (scripts/machine-code.sh; no GPU
# needed, nvcc is): make ptx CH=03 prints nvcc's PTX, make sass CH=03 the
# SASS and each kernel's branches, BSSY/BSYNC pairs and predicated
# instructions. ARCH=90 for another architecture than the build's first.
sass:
	@bash scripts/machine-code.sh sass "$(CH)" $(BUILD)
ptx:
	@bash scripts/machine-code.sh ptx "$(CH)" $(BUILD)

examples: configure
	cmake --build $(BUILD) -j$(JOBS) --target examples

doctor: configure
	cmake --build $(BUILD) -j$(JOBS) --target 00_doctor 00_doctor_emu
	@$(BUILD)/bin/00_doctor
	@echo; $(BUILD)/bin/00_doctor_emu

# Exercises (scripts/grade.py; tutorial/INSTRUCTORS.md). make student: your
# own tree of the exercises, stubs in place of the solutions (OUT=student,
# TAR=file.tar.gz too). make grade: builds and grades it (EX=04-2 or EX=04
# for some; DIR=path for another tree; GRADE_TIMEOUT=s per run), on the
# emulator, or with nvcc where there is a GPU; reports in $(BUILD)/grade/.
# make grade-class DIR=folder-of-trees: every tree in a sandbox (bubblewrap;
# refused where none starts, unless UNSAFE_NO_SANDBOX=1), JOBS exercises at
# once; one CSV of scores ($(BUILD)/grade/class.csv). SLURM=1: on a Slurm
# cluster, a job array with one task per student (SLURM_PARTITION=, SLURM_GRES=gpu:1,
# SLURM_TIME=, SLURM_ARGS='more sbatch options'; SLURM_SCRIPT_ONLY=file: write
# the job script, submit nothing), merged into the same CSV.
# make gradescope: Gradescope's autograder zip ($(BUILD)/grade/gradescope-autograder.zip);
# make classroom COURSE=owner/repo: GitHub Classroom's workflow ($(BUILD)/grade/classroom.yml).
OUT ?= student
TAR ?=
DIR ?= student
EX ?=
COURSE ?=
UNSAFE_NO_SANDBOX ?=
SLURM ?=
SLURM_PARTITION ?=
SLURM_GRES ?=
SLURM_TIME ?=
SLURM_ARGS ?=
SLURM_SCRIPT_ONLY ?=
GRADE = python3 scripts/grade.py
student:
	@$(GRADE) student --out "$(OUT)" $(if $(TAR),--tar "$(TAR)")

grade: configure
	@cmake --build $(BUILD) -j$(JOBS) --target slcc >/dev/null
	@BUILD=$(BUILD) $(GRADE) grade --dir "$(DIR)" $(if $(EX),--ex "$(EX)") -j $(JOBS)

grade-class: configure
	@cmake --build $(BUILD) -j$(JOBS) --target slcc >/dev/null
	@BUILD=$(BUILD) $(GRADE) class --dir "$(DIR)" $(if $(EX),--ex "$(EX)") -j $(JOBS) \
	  $(if $(UNSAFE_NO_SANDBOX),--unsafe-no-sandbox) \
	  $(if $(SLURM),--slurm) $(if $(SLURM_PARTITION),--slurm-partition "$(SLURM_PARTITION)") \
	  $(if $(SLURM_GRES),--slurm-gres "$(SLURM_GRES)") $(if $(SLURM_TIME),--slurm-time "$(SLURM_TIME)") \
	  $(if $(SLURM_ARGS),--slurm-args "$(SLURM_ARGS)") $(if $(SLURM_SCRIPT_ONLY),--slurm-script-only "$(SLURM_SCRIPT_ONLY)")

gradescope:
	@python3 scripts/grade_platforms.py gradescope --out $(BUILD)/grade/gradescope-autograder.zip $(if $(EX),--ex "$(EX)")

classroom:
	@python3 scripts/grade_platforms.py classroom --out $(BUILD)/grade/classroom.yml $(if $(EX),--ex "$(EX)") \
	  $(if $(COURSE),--course "$(COURSE)")

clean:
	rm -rf $(BUILD)
