// SPDX-License-Identifier: MIT
// Program cache hardening: damaged, truncated, swapped or foreign entries, and a FIFO or a folder in an
// entry's place, are misses that are rebuilt quietly; good entries are hits.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/log.hpp"
#include "convolab/program_cache.hpp"
#include "convolab/reference.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

namespace fs = std::filesystem;

/// A fresh cache folder for one test, set as CONVOLAB_CACHE_DIR (restored after).
struct ScopedCacheDir {
  fs::path root;
  std::string previous;
  explicit ScopedCacheDir(const std::string& tag, const char* binaries = "1") {
    root = fs::temp_directory_path() / ("convolab-cache-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(root);
    if (const char* p = std::getenv("CONVOLAB_CACHE_DIR")) previous = p;
    ::setenv("CONVOLAB_CACHE_DIR", root.c_str(), 1);
    ::setenv("CONVOLAB_PROGRAM_BINARIES", binaries, 1);  // "1": also on PoCL, which skips them by default
    setCoreConfig(CoreConfig::fromEnvironment());
  }
  ~ScopedCacheDir() {
    ::unsetenv("CONVOLAB_PROGRAM_BINARIES");
    if (previous.empty())
      ::unsetenv("CONVOLAB_CACHE_DIR");
    else
      ::setenv("CONVOLAB_CACHE_DIR", previous.c_str(), 1);
    setCoreConfig(CoreConfig::fromEnvironment());
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path programs() const { return root / "programs"; }
  std::set<fs::path> entries() const {
    std::set<fs::path> out;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(programs(), ec)) out.insert(e.path());
    return out;
  }
};

/// Fails the whole test process if a step blocks (e.g. opening a FIFO) for longer than `seconds`.
class Watchdog {
 public:
  explicit Watchdog(int seconds)
      : m_thread([this, seconds] {
          std::unique_lock lock(m_mutex);
          if (!m_cv.wait_for(lock, std::chrono::seconds(seconds), [this] { return m_done; })) {
            std::fprintf(stderr, "watchdog: blocked for more than %d s\n", seconds);
            std::_Exit(3);
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(m_mutex);
      m_done = true;
    }
    m_cv.notify_all();
    m_thread.join();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  std::thread m_thread;
};

/// Runs `strategy` with `filter` on a fresh context (reading the cache anew) and checks the output
/// against the reference, that the strategy itself ran (no fallback), and that nothing was said.
void runAndCheck(const std::string& strategy, const FilterSet& filter, const std::string& where) {
  auto ctx = std::make_shared<Context>("");
  Engine engine(ctx, strategy);
  engine.setFilter(filter);
  Image in = randomImage(23, 17, 41), out(23, 17), ref(23, 17);
  engine.process(in.view(), out.mutableView());
  referenceConvolve(in.view(), ref.mutableView(), filter);
  EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
      << where << ": " << firstMismatch(out.view(), ref.view(), kTolerance);
  EXPECT_EQ(engine.activeStrategy(), strategy) << where;
  EXPECT_TRUE(engine.takeNotices().empty()) << where;
}

/// The cache files `strategy` writes for `filter`, in a cache that starts empty.
std::set<fs::path> entriesOf(const ScopedCacheDir& dir, const std::string& strategy,
                             const FilterSet& filter) {
  const auto before = dir.entries();
  runAndCheck(strategy, filter, "first run of " + strategy);
  std::set<fs::path> added;
  for (const auto& e : dir.entries())
    if (!before.count(e)) added.insert(e);
  return added;
}

FilterSet sharpen() {
  ChannelFilter f;
  f.size = 3;
  f.matrix = {0, -1, 0, -1, 5, -1, 0, -1, 0};
  return FilterSet::uniform(f, BorderMode::Reflect101, "sharpen");
}

FilterSet emboss() {
  ChannelFilter f;
  f.size = 3;
  f.matrix = {-2, -1, 0, -1, 1, 1, 0, 1, 2};
  f.offset = 64;
  return FilterSet::uniform(f, BorderMode::Reflect101, "emboss");
}

TEST(ProgramCacheFile, RoundTripsAndRejectsEveryTruncation) {
  ScopedCacheDir dir("file");
  ProgramCache cache;
  ASSERT_TRUE(cache.enabled());
  const ProgramKey key{"dev", "drv", "-DX", "__kernel void k() {}"};
  CachedProgram entry{std::vector<unsigned char>(300), "k"};
  for (size_t i = 0; i < entry.binary.size(); ++i) entry.binary[i] = static_cast<unsigned char>(i * 7);
  cache.store(key, entry);
  auto loaded = cache.load(key);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->binary, entry.binary);
  EXPECT_EQ(loaded->kernelNames, "k");

  std::string full;
  {
    std::ifstream f(cache.pathOf(key), std::ios::binary);
    full.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  for (size_t cut = 0; cut < full.size(); cut += (cut < 80 ? 1 : 37)) {
    std::ofstream(cache.pathOf(key), std::ios::binary | std::ios::trunc) << full.substr(0, cut);
    EXPECT_FALSE(cache.load(key).has_value()) << "cut at " << cut;
    EXPECT_FALSE(fs::exists(cache.pathOf(key))) << "a bad entry is evicted (cut at " << cut << ")";
  }
  // One flipped bit anywhere: checksum or header mismatch.
  for (size_t at : {size_t{3}, size_t{20}, full.size() / 2, full.size() - 1}) {
    std::string bad = full;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    std::ofstream(cache.pathOf(key), std::ios::binary | std::ios::trunc) << bad;
    EXPECT_FALSE(cache.load(key).has_value()) << "bit flip at " << at;
  }
  // A valid entry of another key copied under this key's name.
  const ProgramKey other{"dev", "drv", "-DY", "__kernel void k() {}"};
  cache.store(other, entry);
  fs::copy_file(cache.pathOf(other), cache.pathOf(key), fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cache.load(key).has_value());
  EXPECT_TRUE(cache.load(other).has_value());
}

TEST(ProgramCacheFile, FifoOrFolderInPlaceIsAMissAndNeverBlocks) {
  ScopedCacheDir dir("fifo");
  ProgramCache cache;
  const ProgramKey key{"dev", "drv", "", "src"};
  fs::create_directories(cache.dir());
  ASSERT_EQ(::mkfifo(cache.pathOf(key).c_str(), 0600), 0);
  {
    Watchdog watchdog(60);
    EXPECT_FALSE(cache.load(key).has_value());
    cache.store(key, {{1, 2, 3}, ""});
  }
  EXPECT_TRUE(cache.load(key).has_value()) << "the FIFO was replaced by a good entry";
  fs::remove(cache.pathOf(key));
  fs::create_directories(cache.pathOf(key) / "inside");
  EXPECT_FALSE(cache.load(key).has_value());
  cache.store(key, {{1, 2, 3}, ""});  // a non-empty folder is left alone; this entry is just not cached
  EXPECT_TRUE(cache.enabled()) << "one odd entry does not disable the whole cache";
}

TEST(ProgramCacheRun, TruncatedEntriesAreRebuiltQuietly) {
  ScopedCacheDir dir("truncated");
  const FilterSet f = randomFilter(5, BorderMode::Reflect, 21);
  for (const std::string strategy : {"constant", "local"}) {
    const auto added = entriesOf(dir, strategy, f);
    ASSERT_FALSE(added.empty()) << strategy;
    std::map<fs::path, std::string> good;
    for (const auto& p : added) {
      std::ifstream in(p, std::ios::binary);
      good[p].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    for (size_t cut : {size_t{16}, size_t{64}, size_t{200}, size_t{4096}, size_t{0}}) {
      for (auto& [p, bytes] : good) {
        const size_t at = cut == 0 ? bytes.size() / 2 : std::min(cut, bytes.size() - 1);  // 0: half
        std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes.substr(0, at);
      }
      runAndCheck(strategy, f, strategy + " with entries cut at " + std::to_string(cut));
      for (auto& [p, bytes] : good) {
        // Rebuilt and stored again (PoCL's binary size varies between builds, so not byte-equal).
        ASSERT_TRUE(fs::is_regular_file(p));
        EXPECT_GT(fs::file_size(p), std::min(cut, bytes.size() - 1));
      }
    }
  }
}

TEST(ProgramCacheRun, SwappedEntriesNeverRunTheOtherProgram) {
  // codegen bakes the coefficients into the program: a sharpen run served the emboss binary would
  // write an emboss image. Two kernels' entries (constant ↔ local) swapped must not fail either.
  ScopedCacheDir dir("swapped");
  const auto a = entriesOf(dir, "codegen", sharpen());
  const auto b = entriesOf(dir, "codegen", emboss());
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  const fs::path tmp = dir.root / "swap";
  fs::rename(*a.begin(), tmp);
  fs::rename(*b.begin(), *a.begin());
  fs::rename(tmp, *b.begin());
  runAndCheck("codegen", sharpen(), "codegen sharpen from swapped entries");
  runAndCheck("codegen", emboss(), "codegen emboss from swapped entries");

  const FilterSet f = randomFilter(3, BorderMode::Wrap, 22);
  const auto c = entriesOf(dir, "constant", f);
  const auto d = entriesOf(dir, "local", f);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_EQ(d.size(), 1u);
  fs::rename(*c.begin(), tmp);
  fs::rename(*d.begin(), *c.begin());
  fs::rename(tmp, *d.begin());
  runAndCheck("constant", f, "constant from swapped entries");
  runAndCheck("local", f, "local from swapped entries");
}

TEST(ProgramCacheRun, FifoOrFolderInPlaceOfAnEntryRunsAndNeverBlocks) {
  ScopedCacheDir dir("fifo-run");
  const FilterSet f = randomFilter(3, BorderMode::Replicate, 23);
  const auto added = entriesOf(dir, "constant", f);
  ASSERT_EQ(added.size(), 1u);
  const fs::path entry = *added.begin();
  fs::remove(entry);
  ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
  {
    Watchdog watchdog(120);
    runAndCheck("constant", f, "FIFO in place of the entry");
  }
  EXPECT_TRUE(fs::is_regular_file(entry)) << "the FIFO was replaced by the rebuilt entry";
  fs::remove(entry);
  fs::create_directories(entry / "sub");
  runAndCheck("constant", f, "folder in place of the entry");
}

TEST(ProgramCacheRun, GoodEntryIsAHitNotARebuild) {
  ScopedCacheDir dir("hit");
  const FilterSet f = randomFilter(3, BorderMode::Constant, 24);
  const auto added = entriesOf(dir, "constant", f);
  ASSERT_EQ(added.size(), 1u);
  struct stat before {};
  ASSERT_EQ(::stat(added.begin()->c_str(), &before), 0);
  runAndCheck("constant", f, "second run");
  struct stat after {};
  ASSERT_EQ(::stat(added.begin()->c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino) << "a verified entry is loaded, not rebuilt and rewritten";
}

TEST(ProgramCacheRun, ReadOnlyCacheIsDisabledWithOneNote) {
  // A read-only folder (or, as root, one under /proc, which nobody can create).
  ScopedCacheDir dir("readonly");
  fs::create_directories(dir.root);
  fs::permissions(dir.root, fs::perms::owner_read | fs::perms::owner_exec);
  if (::geteuid() == 0) {
    ::setenv("CONVOLAB_CACHE_DIR", "/proc/convolab-read-only-cache-test", 1);
    setCoreConfig(CoreConfig::fromEnvironment());
  }
  std::vector<std::string> notes;
  std::mutex m;
  const LogSink previous = setLogSink([&](LogLevel, std::string_view msg) {
    std::lock_guard lock(m);
    notes.emplace_back(msg);
  });
  runAndCheck("constant", randomFilter(3, BorderMode::Wrap, 25), "read-only cache");
  runAndCheck("local", randomFilter(3, BorderMode::Wrap, 25), "read-only cache");
  setLogSink(previous);
  fs::permissions(dir.root, fs::perms::owner_all);
  ASSERT_EQ(notes.size(), 1u) << "one note, not one per context or program";
  EXPECT_NE(notes.front().find("cannot be written"), std::string::npos) << notes.front();
}

TEST(ProgramCacheRun, PoclKeepsItsOwnCacheSoNoBinariesAreStoredThere) {
  // Reading a binary back makes PoCL compile each program twice; its own ~/.cache/pocl already persists
  // every build, so by default ConvoLab stores none for it (CONVOLAB_PROGRAM_BINARIES=1 still does).
  ScopedCacheDir dir("auto-binaries", "auto");
  const auto ctx = std::make_shared<Context>("");
  const bool pocl = ctx->device().keepsOwnKernelCache();
  const FilterSet f = randomFilter(3, BorderMode::Reflect, 26);
  runAndCheck("constant", f, "default binaries setting");
  if (pocl)
    EXPECT_TRUE(dir.entries().empty()) << "PoCL: no binaries of ours";
  else
    EXPECT_FALSE(dir.entries().empty()) << "drivers without a cache of their own get ours";
}

}  // namespace
}  // namespace convolab::test
