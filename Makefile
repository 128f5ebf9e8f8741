# SPDX-License-Identifier: GPL-2.0-only
#
# Convenience targets for the standalone build of the ns-3 module "rdma" on Debian 12.
#   make deps          install the Debian packages the build, tests and plots need (if missing)
#   make build         configure (Release) and build into build/
#   make demo          build, then run the rdma-incast example; its output goes to results/
#   make test          build, then run all tests with CTest; then the same in the checked build
#                      (make test-checked)
#   make debug         configure (Debug: NS_ASSERT and NS_LOG compiled in, -O1 -g) into build-debug/
#   make test-debug    build-debug/, then run all tests there
#   make bench         build, then run the benchmarks (benchmarks/run-benchmarks.py), with
#                      instruction counts under valgrind if it is installed; the timed runs
#                      use glibc's transparent huge pages (run-benchmarks.py --huge-pages)
#   make format        clang-format -i every .h/.cc
#   make check-format  fail if any .h/.cc is not clang-formatted
#   make clean         remove build/, build-debug/, build-sanitize/ and results/
#   make sanitize-build  the checked build: module, tests and examples with ASan+UBSan (clang),
#                      NS_ASSERT and NS_LOG compiled in, into build-sanitize/
#   make test-checked  the checked build, then the whole suite in it
#   make sanitize-examples  every example's short mode in the checked build
#   make sanitize      make test-checked and make sanitize-examples
#   make fuzz          libFuzzer harnesses of the HPCC topology, flow and configuration readers
#                      (build-sanitize/fuzz/), each run FUZZ_SECONDS; prints executions and findings

DEB_PACKAGES := build-essential cmake libns3-dev ns3 libgsl-dev libxml2-dev libpython3-dev \
                libboost-dev googletest libgtest-dev tshark python3 python3-matplotlib \
                clang libclang-rt-14-dev

BUILD_DIR   ?= build
BUILD_TYPE  ?= Release
# make debug: ns-3's assertions and logging on in the module (cmake/ns3-standalone.cmake's
# NS3_ASSERT, NS3_LOG); -O1 keeps the tests that run examples fast enough for CI.
DEBUG_BUILD_DIR ?= build-debug
DEBUG_CXX_FLAGS ?= -O1 -g
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS  ?= 2
DEMO_ARGS   ?=
CLANG_FORMAT ?= clang-format
# Debian's interpreter, which has python3-matplotlib (a python3 earlier on PATH may not).
PYTHON      ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
SUDO        := $(shell test "$$(id -u)" -eq 0 || echo sudo)

FORMAT_DIRS  := model helper examples test benchmarks fuzz
FORMAT_FILES  = $(shell find $(FORMAT_DIRS) -type f \( -name '*.h' -o -name '*.cc' \) 2>/dev/null | sort)

.PHONY: all deps build demo test bench format check-format clean debug test-debug

# The checked build (cmake/rdma-sanitize.cmake): clang, -O1 with line tables (file:line in every
# sanitizer report, a quarter less compile time than full -g), ASan + UBSan without recovery,
# NS_ASSERT and NS_LOG compiled into the module; the HPCC readers also carry libFuzzer's coverage
# instrumentation.
SANITIZE_DIR     ?= build-sanitize
SANITIZE_CXX     ?= clang++
SANITIZE_TESTS   ?=
FUZZ_SECONDS     ?= 60
SANITIZE_ENV     := ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1

.PHONY: sanitize sanitize-build sanitize-examples test-checked fuzz

all: build

deps:
	@command -v dpkg-query >/dev/null 2>&1 || { \
	    echo "make deps: dpkg-query not found; this target supports Debian/Ubuntu only." >&2; exit 1; }
	@missing=""; \
	for pkg in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q "install ok installed" \
	        || missing="$$missing $$pkg"; \
	done; \
	if [ -z "$$missing" ]; then \
	    echo "make deps: all required Debian packages are installed"; \
	else \
	    echo "make deps: installing missing Debian packages:$$missing"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) -j$(JOBS)

# rdma-incast writes into results/ by default (results/rdma-incast.csv); pass options with
# DEMO_ARGS="--senders=8", see build/examples/rdma-incast --help.
demo: build
	mkdir -p results
	$(BUILD_DIR)/examples/rdma-incast $(DEMO_ARGS)
	@echo "make demo: output in results/"

# The second run is the checked build (sanitizers and ns-3's assertions in one build), not
# build-debug/: one build instead of two gives the same checks (make debug stays, for gdb).
test: build
	ctest --test-dir $(BUILD_DIR) -j$(CTEST_JOBS) --output-on-failure
	$(MAKE) --no-print-directory test-checked

debug: deps
	cmake -S . -B $(DEBUG_BUILD_DIR) -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=$(DEBUG_CXX_FLAGS)" \
	    -DNS3_ASSERT=ON -DNS3_LOG=ON
	cmake --build $(DEBUG_BUILD_DIR) -j$(JOBS)

test-debug: debug
	ctest --test-dir $(DEBUG_BUILD_DIR) -j$(CTEST_JOBS) --output-on-failure

bench: build
	$(PYTHON) benchmarks/run-benchmarks.py --instructions

format:
	$(if $(FORMAT_FILES),$(CLANG_FORMAT) -i $(FORMAT_FILES),@echo "make format: no .h/.cc files")

check-format:
	$(if $(FORMAT_FILES),$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES),@echo "make check-format: no .h/.cc files")

clean:
	rm -rf $(BUILD_DIR) $(DEBUG_BUILD_DIR) $(SANITIZE_DIR) results

sanitize-build: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1" -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX) \
	    $(if $(shell command -v ccache 2>/dev/null),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) \
	    -DRDMA_SANITIZE=ON -DRDMA_FUZZ=ON -DNS3_ASSERT=ON -DNS3_LOG=ON
	cmake --build $(SANITIZE_DIR) -j$(JOBS)

# SANITIZE_TESTS: a CTest -R regex for a reduced run (default: the whole suite).
test-checked: sanitize-build
	$(SANITIZE_ENV) ctest --test-dir $(SANITIZE_DIR) -j$(CTEST_JOBS) --output-on-failure \
	    $(if $(SANITIZE_TESTS),-R '$(SANITIZE_TESTS)')

sanitize-examples: sanitize-build
	$(SANITIZE_ENV) test/run-examples-short.sh $(SANITIZE_DIR)

sanitize: test-checked sanitize-examples

fuzz: sanitize-build
	fuzz/run-fuzzers.sh $(SANITIZE_DIR) $(FUZZ_SECONDS)
