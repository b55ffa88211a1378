// SPDX-License-Identifier: MIT
// auto's background work: one job per filter structure, on a thread of its own and a sibling queue, builds a
// stored choice or measures the candidates and builds the winner, while the live frames run the provisional
// strategy. Jobs are shared by every auto instance showing the structure; the newest job supersedes the rest.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "auto_measure.hpp"
#include "convolab/config.hpp"
#include "convolab/context.hpp"
#include "convolab/progress.hpp"

namespace convolab::auto_detail {

/// Work on one filter structure on a thread of its own and the measuring queue: build a stored choice, or
/// measure the candidates and build the winner (so its programs are compiled and warm). Every auto instance
/// showing that structure reads the result between its frames (the app prepares each edit on a spare
/// engine, so two instances can show one structure) and activates the choice itself: its programs come from
/// the shared program pool then, without a compile.
struct BackgroundJob {
  std::vector<StrategyEntry> candidates;
  std::shared_ptr<Context> context;  ///< the measuring queue (a sibling of the live one)
  std::string key;
  FilterSet filter;  ///< effective filter the job prepares for
  int width = 0, height = 0;
  std::uint64_t ticket = 0;  ///< from nextMeasurementTicket(): only the newest job goes on
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0}, total{0};  ///< measurement progress
  std::atomic<bool> measuring{false};
  std::atomic<bool> finished{false};
  std::string target;  ///< what it builds or measures, for the note
  /// In-process compiles wait until edits have paused for the quiet period (steady-clock ticks of the last
  /// edit): every edit of the structure pushes it on (touch), so nothing is compiled here while a person
  /// edits. A measurement in a child process waits only for kChildSettle (auto_background_job.cpp).
  std::atomic<Clock::rep> lastEdit{0};

  mutable std::mutex mutex;  ///< guards the four below
  FilterSet latest;          ///< the newest filter of the structure an instance runs (touch)
  std::optional<Choice> result;
  bool resultFinal = false;
  int version = 0;  ///< grows with every delivery
  std::thread thread;

  ~BackgroundJob() {
    cancel = true;
    if (thread.joinable()) thread.join();
  }
  /// Cancelled, or a newer job started since (only the newest job goes on).
  bool superseded() const;
  /// An edit of this structure now: the measurement waits for the next pause, and what the job builds last
  /// is built for `edited` (so activating it live finds a codegen literal program in the pool, not a
  /// compile).
  void touch(const FilterSet& edited) {
    {
      std::lock_guard lock(mutex);
      latest = edited;
    }
    lastEdit = Clock::now().time_since_epoch().count();
  }
  /// Blocks until edits have paused for the quiet period (cancellable).
  void waitForQuiet() const { waitForPause(std::chrono::milliseconds(coreConfig().autoQuietMs)); }
  /// Blocks until edits have paused for `pause` (cancellable).
  void waitForPause(std::chrono::milliseconds pause) const {
    while (Clock::now() < Clock::time_point(Clock::duration(lastEdit.load())) + pause) {
      throwIfCancelled();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  void deliver(const Choice& c, bool final) {
    std::lock_guard lock(mutex);
    result = c;
    resultFinal = final;
    ++version;
  }
};

/// The process's background jobs: one per structure key while it runs, so auto instances share it; finished
/// ones are joined when the next starts, the rest at exit. Nobody's frame waits for a compile to end.
class BackgroundJobs {
 public:
  static BackgroundJobs& instance() {
    static BackgroundJobs jobs;
    return jobs;
  }
  /// The unfinished job for `key`, or null.
  std::shared_ptr<BackgroundJob> running(const std::string& key) {
    std::lock_guard lock(m_mutex);
    for (const auto& j : m_jobs)
      if (j->key == key && !j->finished && !j->superseded()) return j;
    return nullptr;
  }
  void add(const std::shared_ptr<BackgroundJob>& job) {
    std::vector<std::shared_ptr<BackgroundJob>> done;
    {
      std::lock_guard lock(m_mutex);
      auto finished =
          std::partition(m_jobs.begin(), m_jobs.end(), [](const auto& j) { return !j->finished.load(); });
      done.assign(std::make_move_iterator(finished), std::make_move_iterator(m_jobs.end()));
      m_jobs.erase(finished, m_jobs.end());
      m_jobs.push_back(job);
    }
    // `done` is released here, outside the lock: those threads have returned already.
  }
  /// Cancels every job and joins it.
  void stopAll() {
    std::vector<std::shared_ptr<BackgroundJob>> jobs;
    {
      std::lock_guard lock(m_mutex);
      jobs.swap(m_jobs);
    }
    for (auto& j : jobs) j->cancel = true;
    for (auto& j : jobs)
      if (j->thread.joinable()) j->thread.join();
  }
  ~BackgroundJobs() { stopAll(); }

 private:
  std::mutex m_mutex;
  std::vector<std::shared_ptr<BackgroundJob>> m_jobs;
};

/// A ticket newer than every job's so far: the job holding it supersedes them.
std::uint64_t nextMeasurementTicket();

/// Starts `job`'s thread (build `target`, or try `guess` and measure) and registers it with BackgroundJobs.
void launchBackgroundJob(const std::shared_ptr<BackgroundJob>& job, std::optional<Choice> target,
                         std::optional<Choice> guess);

}  // namespace convolab::auto_detail
