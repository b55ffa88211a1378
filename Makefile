# The two commands of the README. Both install what is missing, configure and build into build/.
#   make run    — build and launch the app (webcam if present, else the bundled sample)
#   make test   — build and run every test (ctest)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: deps configure build run test bench package clean format

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	bash scripts/run-app.sh $(BUILD)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

package: build
	cmake --build $(BUILD) --target package

clean:
	rm -rf $(BUILD)

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
