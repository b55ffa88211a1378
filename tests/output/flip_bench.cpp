// SPDX-License-Identifier: MIT
// Not a test (CMake builds only *_test.cpp here): times output::flippedLeftRight, the cost Flip Output adds
// to each frame that leaves (docs/BENCHMARKS.md, "Flip Output"). From the repository root:
//   g++ -std=c++20 -O2 -Iapp -Icore/include tests/output/flip_bench.cpp app/output/flip.cpp -o /tmp/fb
//   /tmp/fb
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "output/flip.hpp"

int main() {
  using namespace convolab;
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{640, 480}, {1280, 720}, {1920, 1080}}) {
    Image in(w, h);
    for (std::size_t i = 0; i < in.pixels.size(); ++i) in.pixels[i] = static_cast<std::uint8_t>(i * 7);
    std::vector<double> ms;
    unsigned keep = 0;  // the result is used, so the flip is not optimised away
    for (int r = 0; r < 200; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const Image out = output::flippedLeftRight(in.view());
      const auto t1 = std::chrono::steady_clock::now();
      keep += out.pixels[static_cast<std::size_t>(r)];
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%dx%d: median %.2f ms, p90 %.2f ms, min %.2f ms (%u)\n", w, h, ms[100], ms[180], ms[0],
                keep & 1u);
  }
}
