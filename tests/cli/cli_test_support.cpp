// SPDX-License-Identifier: MIT
// Shared by the CLI end-to-end tests: child processes through posix_spawn, files, the cv::filter2D oracle.
#include "cli_test_support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstring>
#include <fstream>
#include <opencv2/imgproc.hpp>
#include <sstream>

extern char** environ;

namespace convolab::clitest {

namespace fs = std::filesystem;

std::ostream& operator<<(std::ostream& os, const Result& r) {
  return os << "exit " << r.code << "\n--- stdout:\n" << r.out << "--- stderr:\n" << r.err;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

pid_t spawnProgram(const std::string& program, const std::vector<std::string>& args, const fs::path& logDir,
                   std::string* error) {
  const fs::path outFile = logDir / ".stdout", errFile = logDir / ".stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> all{program};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    if (error) *error = "posix_spawn failed: " + std::string(std::strerror(rc));
    return -1;
  }
  return pid;
}

Result finishProgram(pid_t pid, const fs::path& logDir) {
  Result r;
  if (pid <= 0) return r;  // never started: waitpid(-1) would wait for any child
  int status = 0;
  waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  const fs::path outFile = logDir / ".stdout", errFile = logDir / ".stderr";
  r.out = readFile(outFile);
  r.err = readFile(errFile);
  fs::remove(outFile);
  fs::remove(errFile);
  return r;
}

Result runProgram(const std::string& program, const std::vector<std::string>& args, const fs::path& logDir) {
  std::string error;
  const pid_t pid = spawnProgram(program, args, logDir, &error);
  if (pid <= 0) return Result{-1, "", error};
  return finishProgram(pid, logDir);
}

cv::Mat expectedBgr(const cv::Mat& bgr, const FilterSet& f, int border) {
  std::vector<cv::Mat> planes;
  cv::split(bgr, planes);
  for (int c = 0; c < 3; ++c) {
    const auto& ch = f.channel(c);
    cv::Mat k(ch.size, ch.size, CV_32F);
    for (int j = 0; j < ch.size; ++j)
      for (int i = 0; i < ch.size; ++i) k.at<float>(j, i) = static_cast<float>(ch.weight(j, i));
    cv::Mat& p = planes[static_cast<size_t>(2 - c)];
    cv::filter2D(p.clone(), p, -1, k, cv::Point(-1, -1), ch.offset, border);
  }
  cv::Mat out;
  cv::merge(planes, out);
  return out;
}

}  // namespace convolab::clitest
