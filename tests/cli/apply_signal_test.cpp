// SPDX-License-Identifier: MIT
// SIGTERM at any moment of `apply` on a video: from its first line to its exit the signal is handled (never
// the default action: exit 143, no message, no summary), and what it prints and its exit code match what
// happened to the file: written whole (and said so), or not written (exit 130, said so), never a temporary
// left.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "scratch_folder_test.hpp"

namespace {

using namespace convolab::clitest;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSharpen = fs::path(CONVOLAB_SOURCE_DIR) / "resources/presets/sharpen.json";
constexpr int kFrames = 40;

/// The process's state letter, whether it handles SIGTERM (from /proc: SigCgt or SigBlk bit 15 - 1), whether
/// it catches SIGSEGV and whether its main thread blocks SIGTERM; 'X' when gone.
struct ProcessState {
  char state = 'X';
  bool catchesTerm = false;
  bool catchesSegv = false;
  bool blocksTerm = false;
};
ProcessState processState(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  ProcessState p;
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("State:", 0) == 0) p.state = line.size() > 7 ? line[7] : 'X';
    if (line.rfind("SigCgt:", 0) == 0) {
      const unsigned long long caught = std::stoull(line.substr(7), nullptr, 16);
      p.catchesTerm = p.catchesTerm || ((caught >> (SIGTERM - 1)) & 1);
      p.catchesSegv = (caught >> (SIGSEGV - 1)) & 1;
    }
    // Blocked in the main thread (and so in every thread it starts) and taken by a sigwait() thread: handled,
    // whatever the disposition (jobs/signal_guard.hpp).
    if (line.rfind("SigBlk:", 0) == 0) {
      const unsigned long long blocked = std::stoull(line.substr(7), nullptr, 16);
      p.blocksTerm = (blocked >> (SIGTERM - 1)) & 1;
      p.catchesTerm = p.catchesTerm || p.blocksTerm;
    }
  }
  return p;
}

class ApplySignal : public convolab::test::ScratchFolderTest {
 protected:
  void SetUp() override {
    ScratchFolderTest::SetUp();
    if (HasFatalFailure()) return;
    fs::create_directories(m_dir / "in");
    writeClip(m_dir / "in/clip.mkv", kFrames);
  }

  static void writeClip(const fs::path& path, int frames) {
    cv::VideoWriter writer(path.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 25,
                           cv::Size(160, 120));
    ASSERT_TRUE(writer.isOpened());
    cv::RNG rng(11);
    cv::Mat frame(120, 160, CV_8UC3);
    for (int i = 0; i < frames; ++i) {
      rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
      writer.write(frame);
    }
  }

  /// Starts apply; once it catches SIGTERM, waits `delay` and sends it (unless the run ended). Meanwhile it
  /// checks, as often as it can, that SIGTERM stays caught from then on until the process exits.
  Result run(std::chrono::microseconds delay, bool* sent, bool* uncaughtWindow) {
    const pid_t pid = spawnProgram(CONVOLAB_CLI_PATH,
                                   {"apply", "-s", "naive", "-f", kSharpen.string(),
                                    (m_dir / "in/clip.mkv").string(), "-o", (m_dir / "out.mkv").string()},
                                   m_dir / "logs");
    EXPECT_GT(pid, 0);
    *sent = false;
    *uncaughtWindow = false;
    bool caughtOnce = false;
    Clock::time_point sendAt{};
    for (;;) {
      const auto [state, catches, llvmWindow, blocks] = processState(pid);
      if (state == 'Z' || state == 'X') break;
      if (catches && !caughtOnce) {
        caughtOnce = true;
        sendAt = Clock::now() + delay;
      }
      // A window without our SIGTERM handler counts, except while the crash handlers of LLVM (inside PoCL,
      // compiling a kernel in this process) stand in for a moment: SigCgt 0x141800eff seen under load,
      // SIGSEGV caught, SIGTERM not. That window is LLVM's, not ConvoLab's (docs/RELIABILITY.md); a SIGTERM
      // landing in it would take the default action, which the exit-code checks below still catch.
      if (caughtOnce && !catches) {
        if (llvmWindow)
          ++m_llvmWindows;
        else
          *uncaughtWindow = true;
      }
      if (caughtOnce && !*sent && Clock::now() >= sendAt) {
        ::kill(pid, SIGTERM);
        *sent = true;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return finishProgram(pid, m_dir / "logs");
  }

  int m_llvmWindows = 0;  // polls that found LLVM's crash handlers in place of ours

  int framesIn(const fs::path& p) const {
    cv::VideoCapture c(p.string(), cv::CAP_FFMPEG);
    int n = 0;
    cv::Mat m;
    while (c.read(m)) ++n;
    return n;
  }
  int files() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(m_dir)) n += e.is_regular_file();
    return n;
  }
};

TEST_F(ApplySignal, SigtermAtAnyMomentMatchesMessageAndExitCodeToTheFile) {
  // How long a run takes here, with the handlers in place all along.
  bool sent = false, uncaught = false;
  const auto t0 = Clock::now();
  const Result plain = run(std::chrono::hours(1), &sent, &uncaught);
  const auto runTime = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
  ASSERT_EQ(plain.code, 0) << plain;
  EXPECT_FALSE(uncaught) << "SIGTERM fell back to its default action for a while (before the work, or during "
                            "teardown)";
  ASSERT_EQ(framesIn(m_dir / "out.mkv"), kFrames);
  fs::remove(m_dir / "out.mkv");

  // Signals spread over the whole run, from the first moment it catches them to past its end.
  constexpr int kRuns = 16;
  int stoppedRuns = 0, writtenRuns = 0;
  for (int i = 0; i < kRuns; ++i) {
    // The last run's signal comes long after the output is written (during teardown, or after the exit).
    const auto delay = i + 1 < kRuns ? runTime * i / (kRuns - 2) : runTime * 3;
    const Result r = run(delay, &sent, &uncaught);
    std::ostringstream where;
    where << "run " << i << ", SIGTERM " << delay.count() / 1000 << " ms after the handlers were in place"
          << (sent ? "" : " (not sent: the run had ended)") << "\n"
          << r;
    EXPECT_FALSE(uncaught) << where.str();
    ASSERT_TRUE(r.code == 0 || r.code == 130) << "never the default action (143)\n" << where.str();
    const bool written = fs::exists(m_dir / "out.mkv");
    if (written) {
      ++writtenRuns;
      EXPECT_EQ(r.code, 0) << "the file was written: the signal cost nothing\n" << where.str();
      EXPECT_EQ(framesIn(m_dir / "out.mkv"), kFrames) << where.str();
      EXPECT_NE(r.out.find("wrote "), std::string::npos) << where.str();
      EXPECT_EQ(r.err.find("not written"), std::string::npos) << where.str();
      EXPECT_EQ(r.err.find("not done"), std::string::npos) << where.str();
      fs::remove(m_dir / "out.mkv");
    } else {
      ++stoppedRuns;
      EXPECT_EQ(r.code, 130) << where.str();
      EXPECT_NE(r.err.find("not done (stopped)"), std::string::npos) << where.str();
      EXPECT_EQ(r.out.find("wrote "), std::string::npos) << where.str();
    }
    EXPECT_EQ(files(), 0) << "no temporary left\n" << where.str();
  }
  EXPECT_GT(stoppedRuns, 0) << "the first signals come before the video is written";
  EXPECT_GT(writtenRuns, 0) << "the last comes after it was written";
  if (m_llvmWindows > 0)
    std::cout << m_llvmWindows << " polls found LLVM's crash handlers in place of the SIGTERM handler\n";
}

// Every program blocks SIGINT, SIGTERM and SIGHUP from main's first line and takes them in a sigwait() thread
// (issue 34.10): a signal in the first 200 ms gets its message and its exit code, never the default action
// (exit 143 or 129, no message), and leaves no temporary. Each is sent 0, 100 or 200 ms after the main thread
// blocks it, while the program loads its filter, opens the device or builds its window.
TEST_F(ApplySignal, EarlySignalsGetTheirMessageInEveryProgram) {
  struct Case {
    std::string program;
    std::vector<std::string> args;
    int signal;
    int delayMs;
    int code;             // the exit code expected
    std::string message;  // printed to stderr
  };
  const std::vector<std::string> apply{"apply",
                                       "-s",
                                       "naive",
                                       "-f",
                                       kSharpen.string(),
                                       (m_dir / "in/long.mkv").string(),
                                       "-o",
                                       (m_dir / "out.mkv").string()};
  // Long enough that a job on warm caches (~300 frames/s here) is still running 200 ms in.
  writeClip(m_dir / "in/long.mkv", 400);
  std::vector<Case> cases{{CONVOLAB_CLI_PATH, apply, SIGTERM, 0, 130, "stopping"},
                          {CONVOLAB_CLI_PATH, apply, SIGHUP, 100, 130, "stopping"},
                          {CONVOLAB_CLI_PATH, apply, SIGINT, 200, 130, "stopping"}};
  // The other programs do not poll the flag: they end by the signal, with a message.
  if (std::string(CONVOLAB_BENCH_PATH).size() > 0)
    cases.push_back({CONVOLAB_BENCH_PATH,
                     {"bench", "--size", "64x48", "-s", "naive", "--json", (m_dir / "b.json").string()},
                     SIGTERM,
                     100,
                     128 + SIGTERM,
                     "convolab-bench: stopped by a signal"});
  if (std::string(CONVOLAB_APP_PATH).size() > 0) {
    const std::vector<std::string> app{
        "--source", "pattern:64x48@30", "--strategy", "naive",
        "--frames", "100000",           "--snapshot", (m_dir / "shot.png").string()};
    cases.push_back({CONVOLAB_APP_PATH, app, SIGHUP, 200, 130, "convolab: stopping"});
  }
  ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
  for (const Case& c : cases) {
    const pid_t pid = spawnProgram(c.program, c.args, m_dir / "logs");
    ASSERT_GT(pid, 0);
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    ProcessState p;
    while ((p = processState(pid)).state != 'X' && p.state != 'Z' && !p.blocksTerm && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    const bool blocked = p.blocksTerm;
    std::this_thread::sleep_for(std::chrono::milliseconds(c.delayMs));
    ::kill(pid, c.signal);
    const Result r = finishProgram(pid, m_dir / "logs");
    const std::string what = c.program + " " + c.args.front() + ", signal " + std::to_string(c.signal) + " " +
                             std::to_string(c.delayMs) + " ms after the start\n";
    EXPECT_TRUE(blocked) << what << "the main thread never blocked SIGTERM";
    EXPECT_EQ(r.code, c.code) << what << r;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << what << r;
    // The app's window closes as the user's would, so it may write --snapshot; never a temporary.
    int temporaries = 0;
    for (const auto& e : fs::directory_iterator(m_dir))
      temporaries += e.path().filename().string().find(".convolab-tmp-") != std::string::npos;
    EXPECT_EQ(temporaries, 0) << what;
    EXPECT_FALSE(fs::exists(m_dir / "out.mkv")) << what << "stopped: not written";
    fs::remove(m_dir / "shot.png");
  }
}

}  // namespace
