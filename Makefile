# dlaverif front end. `make run` and `make test` work on a fresh Debian 12 machine.
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CONFIG  ?= v1
CMAKE_FLAGS ?=
# The small configuration's line/toggle coverage model is part of every build so the tests that
# run it (regress.runner.codecov) run in CI too; v1's takes ~25 min to compile: add it by hand.
COVERAGE_FLAGS ?= -DDLA_CODE_COVERAGE=ON -DDLA_CODE_COVERAGE_CONFIGS=small
DLAVERIF = $(BUILD)/bin/dlaverif

.PHONY: all setup configure build test run report-check lint bench fuzz clean help

all: build

help:
	@echo "make setup      install the Debian packages (idempotent; sudo when not root)"
	@echo "make build      configure and build everything into $(BUILD)/"
	@echo "make test       setup + build + every test under ctest"
	@echo "make run        setup + build + the smoke level of regress/plans/default.yaml"
	@echo "make report-check  render a regression report in headless Chromium, save a screenshot"
	@echo "make lint       verilator -Wall and yosys over the RTL of every configuration"
	@echo "make bench      build and print the benchmarks"
	@echo "make fuzz       libFuzzer on the trace readers, FUZZ_SECONDS (default 60) per target"
	@echo "make clean      remove $(BUILD)/"

setup:
	@scripts/setup.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja $(COVERAGE_FLAGS) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: setup
	$(MAKE) build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure --timeout 1800 -LE fuzz

run: setup
	$(MAKE) build
	scripts/smoke.sh $(DLAVERIF) $(BUILD)/run $(JOBS)

report-check: setup
	$(MAKE) build
	scripts/report-check.sh $(DLAVERIF) $(BUILD)/report-check

lint: setup configure
	cmake --build $(BUILD) --target dla_rtl_lint

bench: setup
	$(MAKE) build
	scripts/bench.sh $(BUILD)

# The ctest label "fuzz" (seeded from the traces of CMake's DLA_NVDLA_TRACES when present):
# reproducers of crashes go to $(BUILD)/fuzz/<target>/crashes/ and their paths are printed.
FUZZ_SECONDS ?= 60
fuzz: setup configure
	@scripts/setup.sh fuzz
	DLA_FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --test-dir $(BUILD) -L fuzz --output-on-failure

clean:
	rm -rf $(BUILD)
