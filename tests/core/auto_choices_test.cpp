// SPDX-License-Identifier: MIT
// auto's cached choices are data from disk: tampered, stale or absurd entries must neither crash nor
// leave pixels unfiltered; they are ignored and auto measures again.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

namespace fs = std::filesystem;

TEST(AutoChoices, ValidationAcceptsOnlyWhatTheStrategyOffersHere) {
  const auto ctx = sharedContext();
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 31);
  for (const auto& entry : strategyRegistry()) {
    if (entry.name == "auto") continue;
    auto s = entry.create();
    if (s->unsupportedReason(*ctx, f)) {
      EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {std::string(entry.name), "", 1.0}).has_value());
      continue;
    }
    for (const auto& v : s->tuningVariants(*ctx, f))
      EXPECT_FALSE(invalidAutoChoiceReason(*ctx, f, {std::string(entry.name), v, 1.0}).has_value())
          << entry.name << "/" << v;
  }
  const std::string vec = createStrategy("vector")->tuningVariants(*ctx, f).front();
  const std::string head = vec.substr(0, vec.find("-wg"));  // "v16x4"
  for (const std::string& bad : {head + "-wg64x64-c1", head + "-wg4096x1-c1", head + "-wg2147483647x2-c1",
                                 std::string("64x64"), std::string("garbage")})
    EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"vector", bad, 1.0}).has_value()) << bad;
  EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"auto", "", 1.0}).has_value());
  EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"fastest", "", 1.0}).has_value());
  EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"naive", "", std::nan("")}).has_value());
  EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"naive", "", -1.0}).has_value());
  EXPECT_FALSE(invalidAutoChoiceReason(*ctx, f, {"naive", "", 0.5}).has_value());
}

/// Writes auto-choices.json in a fresh cache folder with `strategy/variant` as the winner for this
/// device, filter and size, then runs auto there: the output must match the reference.
void runWithTamperedChoice(const std::string& tag, const std::string& strategy, const std::string& variant) {
  const fs::path dir =
      fs::temp_directory_path() / ("convolab-auto-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Programs from the shared test cache (fast builds); the choices file is this test's own.
  const char* shared = std::getenv("CONVOLAB_CACHE_DIR");
  const std::string previous = shared ? shared : "";
  if (!previous.empty() && fs::is_directory(fs::path(previous) / "programs"))
    fs::create_directory_symlink(fs::absolute(fs::path(previous) / "programs"), dir / "programs");
  ::setenv("CONVOLAB_CACHE_DIR", dir.c_str(), 1);
  setCoreConfig(CoreConfig::fromEnvironment());
  auto ctx = std::make_shared<Context>("");
  const int w = 67, h = 19;
  const FilterSet f = randomFilter(3, BorderMode::Reflect101, 32);
  nlohmann::json doc;
  doc[autoChoiceKey(*ctx, f, w, h)] = {{"strategy", strategy}, {"variant", variant}, {"ms", 0.01}};
  std::ofstream(autoChoicesFile(ctx->programCache())) << doc.dump();
  Engine engine(ctx, "auto");
  engine.setFilter(f);
  Image in = randomImage(w, h, 33), out(w, h), ref(w, h);
  engine.process(in.view(), out.mutableView());
  referenceConvolve(in.view(), ref.mutableView(), f);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
      << strategy << "/" << variant << ": " << firstMismatch(out.view(), ref.view(), kTolerance);
  EXPECT_NE(engine.activeStrategy(), "auto:" + strategy + "/" + variant);
  if (previous.empty())
    ::unsetenv("CONVOLAB_CACHE_DIR");
  else
    ::setenv("CONVOLAB_CACHE_DIR", previous.c_str(), 1);
  setCoreConfig(CoreConfig::fromEnvironment());
  fs::remove_all(dir);
}

TEST(AutoChoices, TamperedWorkGroupsNeitherCrashNorLeaveColumnsUnfiltered) {
  const auto ctx = sharedContext();
  const FilterSet f = randomFilter(3, BorderMode::Reflect101, 32);
  const std::string vec = createStrategy("vector")->tuningVariants(*ctx, f).front();
  const std::string head = vec.substr(0, vec.find("-wg"));
  const std::string cpu = vec.substr(vec.rfind("-c"));
  runWithTamperedChoice("64x64", "vector", head + "-wg64x64" + cpu);
  runWithTamperedChoice("4096x1", "vector", head + "-wg4096x1" + cpu);
  runWithTamperedChoice("2147483647x2", "vector", head + "-wg2147483647x2" + cpu);
}

// auto's candidates are injected: it measures and runs only those, and trusts a cached choice only when it
// names one of them.
TEST(AutoChoices, AutoMeasuresOnlyItsInjectedCandidates) {
  const CoreConfig saved = coreConfig();
  CoreConfig noCache = saved;
  noCache.noProgramCache = true;  // its choice stays in memory: the shared auto-choices.json is not touched
  setCoreConfig(noCache);
  auto ctx = std::make_shared<Context>("");
  setCoreConfig(saved);
  const FilterSet f = randomFilter(3, BorderMode::Reflect101, 51);
  const std::vector<StrategyEntry> only{*findStrategy("naive")};
  EXPECT_TRUE(invalidAutoChoiceReason(*ctx, f, {"constant", "", 1.0}, only).has_value());
  EXPECT_FALSE(invalidAutoChoiceReason(*ctx, f, {"naive", "", 1.0}, only).has_value());
  EXPECT_FALSE(invalidAutoChoiceReason(*ctx, f, {"constant", "", 1.0}).has_value()) << "the registry's auto";

  const auto chooser = makeAutoStrategy(only);
  const Image in = randomImage(23, 9, 52);
  const Image out = runDirect(*chooser, *ctx, f, in);
  EXPECT_EQ(chooser->activeId(), StrategyId("naive", "", true)) << chooser->activeId().toString();
  EXPECT_LE(maxAbsDiff(out.view(), referenceOf(in, f).view()), kTolerance);
}

// Several processes sharing one cache (3 app and 3 CLI runs at once) each write auto-choices.json: every
// entry written by any of them must survive, none replaced by another process's older map.
TEST(AutoChoices, ConcurrentProcessesKeepEveryEntry) {
  const fs::path dir = fs::temp_directory_path() / ("convolab-auto-shared-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const ProgramCache cache(dir);
  if (!cache.enabled()) GTEST_SKIP() << "program cache disabled in this environment";
  constexpr int kProcesses = 6, kEntries = 15;
  int startPipe[2];
  ASSERT_EQ(::pipe(startPipe), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Child: wait for the start signal so all write at once, then store its own entries one by one.
      ::close(startPipe[1]);
      char go;
      (void)!::read(startPipe[0], &go, 1);
      for (int e = 0; e < kEntries; ++e)
        AutoChoiceCache::instance().store(cache, "proc" + std::to_string(p) + "-entry" + std::to_string(e),
                                          {"naive", "", 1.0 + e});
      ::_exit(0);
    }
    children.push_back(pid);
  }
  ::close(startPipe[0]);
  ::close(startPipe[1]);  // EOF: every child starts
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::ifstream in(autoChoicesFile(cache));
  const auto doc = nlohmann::json::parse(in);
  for (int p = 0; p < kProcesses; ++p)
    for (int e = 0; e < kEntries; ++e) {
      const std::string key = "proc" + std::to_string(p) + "-entry" + std::to_string(e);
      EXPECT_TRUE(doc.contains(key)) << key << " was lost";
    }
  EXPECT_EQ(doc.size(), std::size_t{kProcesses * kEntries});
  // This process reads them all, and its own store merges with them.
  AutoChoiceCache::instance().store(cache, "parent", {"naive", "", 2.0});
  for (int p = 0; p < kProcesses; ++p)
    EXPECT_TRUE(AutoChoiceCache::instance().find(cache, "proc" + std::to_string(p) + "-entry0").has_value());
  std::ifstream again(autoChoicesFile(cache));
  EXPECT_EQ(nlohmann::json::parse(again).size(), std::size_t{kProcesses * kEntries + 1});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace convolab::test
