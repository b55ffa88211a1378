// SPDX-License-Identifier: MIT
// Shared by the CLI end-to-end tests: run a built program as a child process, read and write files, and what
// cv::filter2D says an output must be.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "convolab/filter.hpp"
#include "mat_difference.hpp"

namespace convolab::clitest {

/// How a child process ended: exit code (128 + signal number when killed) and what it printed.
struct Result {
  int code = -1;
  std::string out, err;
};

std::ostream& operator<<(std::ostream& os, const Result& r);

std::string readFile(const std::filesystem::path& p);
void writeFile(const std::filesystem::path& p, const std::string& bytes);

/// Starts `program args...` (no shell) with stdout and stderr going to files in `logDir`. Returns the child's
/// pid, or -1 (with the reason in `*error` when given) when it cannot start.
pid_t spawnProgram(const std::string& program, const std::vector<std::string>& args,
                   const std::filesystem::path& logDir, std::string* error = nullptr);
/// Waits for a child of spawnProgram and collects its result; its output files in `logDir` are removed.
Result finishProgram(pid_t pid, const std::filesystem::path& logDir);
/// spawnProgram, then finishProgram.
Result runProgram(const std::string& program, const std::vector<std::string>& args,
                  const std::filesystem::path& logDir);

/// What ConvoLab must compute, by OpenCV: per channel (RGB filter channel c is BGR plane 2 - c), filter2D
/// with matrix/divisor, delta = offset, `border`.
cv::Mat expectedBgr(const cv::Mat& bgr, const FilterSet& f, int border = cv::BORDER_REFLECT_101);
/// Largest per-channel difference of two 8-bit BGR images (kSizesDiffer when their sizes differ): the tests'
/// one image difference (tests/support/mat_difference.hpp).
using test::maxAbsDiff;

}  // namespace convolab::clitest
