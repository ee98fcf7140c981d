# simtlab — a thin driver for CMake. The quick start is two commands:
#   make test    install what is missing, build, run every test
#   make bench   build and run the benchmarks, write CSV and charts
# Build directory: build/ (BUILD=...); executables land in build/bin/.
# Pass CMake options with CMAKE_FLAGS, e.g.
#   make test CMAKE_FLAGS=-DCMAKE_CUDA_ARCHITECTURES=native

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test bench examples doctor clean

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS); fi

build: configure
	cmake --build $(BUILD) -j$(JOBS)

test: build
	@set -e; rc=0; \
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) || rc=$$?; \
	bash scripts/skipped-tests.sh $(BUILD); \
	exit $$rc

bench: configure
	cmake --build $(BUILD) -j$(JOBS) --target benches
	bash scripts/bench.sh $(BUILD)

examples: configure
	cmake --build $(BUILD) -j$(JOBS) --target examples

doctor: configure
	cmake --build $(BUILD) -j$(JOBS) --target 00_doctor 00_doctor_emu
	@$(BUILD)/bin/00_doctor

clean:
	rm -rf $(BUILD)
