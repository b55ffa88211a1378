# The two commands of the README. Both install what is missing, configure and build into build/.
#   make run    — build and launch the app (webcam if present, else the bundled sample)
#   make test   — build and run every test (ctest); `ctest --test-dir build -L quick` is the 2-minute loop
BUILD ?= build
SANITIZE_BUILD ?= build-sanitize
THREADS_BUILD ?= build-threads
# check-threads: ThreadSanitizer over the core, CLI and app tests. Reports from libraries that are not
# built with TSan (Qt, glib, GDAL, PoCL/LLVM, OpenCV) are suppressed by tests/tsan-suppressions.txt (see
# docs/RELIABILITY.md); any report left fails the test. Like the sanitizer pass it skips the auto sweep
# rows. Not part of `make test` (slow: TSan runs 5-15x slower).
THREADS_SKIP ?= StrategySweep.MatchesReference/auto_
THREADS_TARGETS ?=
# The sanitizer pass runs every test but a subset of the sweep: the auto rows (auto runs the other strategies,
# swept there too, and spends its time measuring them on PoCL) and the borders whose host code is the same as
# reflect101's (replicate, reflect, wrap only change a -D option of the kernel; constant also sends border
# values, so it stays). Every strategy × K × filter kind still runs under ASan+UBSan (docs/TESTING.md).
# Also skipped there: the photo tests whose host code is the sweep's (Engine::process and the reference at
# other frame sizes; the kernels' results on photos are the main pass's business), and every preset through every
# strategy (PresetStrategies: the sweep's host code again, with cold literal builds of codegen and sliding). Kept: the reference against
# OpenCV on images smaller than the filter (every border), and the photo rows of auto (its measurement, which the
# skipped auto sweep rows would run), separable and lowrank (per-channel ranks 2-1-2, which the sweep has not).
SANITIZE_SKIP ?= StrategySweep.MatchesReference/auto_|StrategySweep.MatchesReference/[a-z]+_(replicate|reflect|wrap)_k|ReferenceVsOpenCv.PhotosEveryBorderSeveralSizes|PhotoStrategies.MatchReferenceOnPhotos/(naive|constant|vector|local|image|tiled|codegen|sliding|dynamic)( |$$)|PresetStrategies\.
# Leak checking is off there: PoCL's LLVM keeps compiler threads and allocations alive at exit, which
# LeakSanitizer reports (and sometimes crashes on). Memory errors and UB stay fatal; the parser fuzzer
# checks leaks (no OpenCL involved), and `bench --soak` checks that RSS stays flat.
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# Debug information of the main build: line tables only (-g1: a crash or a test failure still names file:line,
# gdb still shows the stack, not local variables). Full -g costs 25-30 % more compile time (main_window.cpp 9.8 s
# of CPU against 7.5 s, engine.cpp 4.8 against 3.3, docs/TESTING.md) and 8 GB of test binaries. `make build
# DEBUG_INFO=-g` for a debugging session.
DEBUG_INFO ?= -g1

.PHONY: deps configure build run test sanitize-build threads-build check-threads package clean format

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONVOLAB_BUILD_CLI=ON -DCONVOLAB_BUILD_GUI=ON \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 $(DEBUG_INFO) -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 $(DEBUG_INFO) -DNDEBUG" \
	  $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	bash scripts/run-app.sh $(BUILD)

# PoCL's kernel cache for the test run: a folder of the build, shared by every test of both passes (the GUI
# tests' own XDG_CACHE_HOME included), so a fresh clone's `make test` compiles every kernel cold, on CI as here,
# and compiles each once; nothing of it lands in the user's ~/.cache/pocl. `make test TEST_POCL_CACHE=` keeps
# each test's own (the user's, or the GUI tests' private homes).
TEST_POCL_CACHE ?= $(abspath $(BUILD))/pocl-cache
TEST_POCL_ENV = $(if $(TEST_POCL_CACHE),POCL_CACHE_DIR=$(TEST_POCL_CACHE))

test: build sanitize-build
	$(TEST_POCL_ENV) ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(TEST_POCL_ENV) ASAN_OPTIONS=detect_leaks=0 ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j $(JOBS) -E '$(SANITIZE_SKIP)'

# Second build: core, convolab-cli and their tests under AddressSanitizer + UBSan, and the parser fuzzer (clang).
# The CLI's apply and batch tests run the sanitized convolab-cli, so bad images, videos, filters and caches reach
# ASan through the program (bench's timing tests are left to the main pass, and bench is not built here:
# CONVOLAB_CLI_BENCH=OFF, tests/cli/CMakeLists.txt). No app.
# Its tests share the main build's program cache, which the main pass has just warmed: no kernel is compiled twice.
sanitize-build: deps
	CC=clang CXX=clang++ cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCONVOLAB_SANITIZE=ON -DCONVOLAB_FUZZ=ON -DCONVOLAB_BUILD_GUI=OFF -DCONVOLAB_BUILD_CLI=ON -DCONVOLAB_CLI_BENCH=OFF \
	  -DCONVOLAB_TEST_CACHE_DIR=$(abspath $(BUILD))/test-cache
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)

# ThreadSanitizer build (clang): core, CLI and app with their tests. THREADS_TARGETS limits what is built
# (e.g. THREADS_TARGETS="--target convolab_core_tests").
threads-build: deps
	CC=clang CXX=clang++ cmake -S . -B $(THREADS_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCONVOLAB_TSAN=ON -DCONVOLAB_BUILD_GUI=ON -DCONVOLAB_BUILD_CLI=ON $(CMAKE_FLAGS)
	cmake --build $(THREADS_BUILD) -j $(JOBS) $(THREADS_TARGETS)

check-threads: threads-build
	TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan-suppressions.txt second_deadlock_stack=1 halt_on_error=0 exitcode=66" \
	  ctest --test-dir $(THREADS_BUILD) --output-on-failure -j $(JOBS) -E '$(THREADS_SKIP)'

package: build
	cmake --build $(BUILD) --target package

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(THREADS_BUILD)

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
