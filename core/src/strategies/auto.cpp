// SPDX-License-Identifier: MIT
// auto: runs the fastest strategy for this device, frame size and filter structure. A structure it has a
// stored choice for runs that choice; a new one runs at once on the provisional strategy (dynamic: no
// compile) while the candidates are measured on another thread and queue, and the winner is swapped in
// between frames. Choices are cached per device + measured size + filter structure (auto_choices.hpp).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "../strategy_support.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/image.hpp"
#include "convolab/log.hpp"
#include "convolab/percentile.hpp"
#include "convolab/progress.hpp"

namespace convolab {
namespace {

using Choice = AutoChoice;
using Clock = std::chrono::steady_clock;

/// What runs while auto has nothing better ready: it needs no compile for a new filter (one program per
/// device, built at the first filter), so any edit shows on the next frame.
constexpr std::string_view kProvisionalStrategy = "dynamic";
/// A measured winner replaces what runs only when it is at least this much faster (median kernel time of
/// the same measurement): smaller gains are within run-to-run noise on a CPU device and not worth a swap.
constexpr double kSwitchMargin = 0.10;
/// The newest background job in the process; older ones stop at their next cancellation point (only the
/// filter a person is looking at is worth the device's spare time).
std::atomic<std::uint64_t> g_newestMeasurement{0};

/// Lowers the calling thread's CPU priority: on a CPU device the measurement's compiles must not take the
/// cores from the live frames.
void lowerThreadPriority() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

/// The candidate called `name`, made anew; Error(Usage) when there is none (a stored choice is checked
/// against the candidates before it gets here, so this is a programming error).
std::unique_ptr<Strategy> createCandidate(const std::vector<StrategyEntry>& candidates,
                                          std::string_view name) {
  for (const auto& e : candidates)
    if (e.name == name) return e.create();
  throw Error(ErrorKind::Usage, "auto: '" + std::string(name) + "' is not one of its candidates");
}

/// Prepares `s` for `filter` at width×height on `ctx` and launches it once on scratch buffers, waiting for
/// it: a CPU driver compiles a kernel's launch the first time, so a later launch of the same program finds it
/// done.
void prepareAndLaunchOnce(Strategy& s, Context& ctx, const FilterSet& filter, int width, int height) {
  s.prepare(ctx, filter, width, height);
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes),
                     cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes), width, height};
  cl::Event::waitForEvents({s.enqueue(ctx, frame, {}).back().event});
}

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
  std::uint64_t ticket = 0;  ///< compared with g_newestMeasurement: only the newest job goes on
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0}, total{0};  ///< measurement progress
  std::atomic<bool> measuring{false};
  std::atomic<bool> finished{false};
  std::string target;  ///< what it builds or measures, for the note
  /// Measurements wait until edits have paused this long (steady-clock ticks of the last edit + the quiet
  /// period): every edit of the structure pushes it on (touch), so nothing is compiled while a person edits.
  std::atomic<Clock::rep> quietUntil{0};

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
  bool superseded() const { return cancel || (ticket != 0 && ticket != g_newestMeasurement.load()); }
  /// An edit of this structure now: the measurement waits for the next pause, and what the job builds last
  /// is built for `edited` (so activating it live finds a codegen literal program in the pool, not a
  /// compile).
  void touch(const FilterSet& edited) {
    {
      std::lock_guard lock(mutex);
      latest = edited;
    }
    quietUntil =
        (Clock::now() + std::chrono::milliseconds(coreConfig().autoQuietMs)).time_since_epoch().count();
  }
  /// Blocks until edits have paused (cancellable).
  void waitForQuiet() const {
    while (Clock::now().time_since_epoch().count() < quietUntil.load()) {
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

/// Measures in three rounds so slow candidates cost one run each: (1) every accepting strategy once, default
/// variant, the provisional one first; (2) every tuning variant of the strategies within 2x of the best,
/// once; (3) the best few (strategy, variant) pairs `CONVOLAB_AUTO_RUNS` times (default 5), median. Returns
/// round 3 and, through `provisionalMs`, the provisional strategy's time (negative when not measured).
/// Candidates after `deadline` are skipped: the result is then the best of those measured by then.
std::vector<Choice> measureCandidates(const std::vector<StrategyEntry>& entries, Context& ctx,
                                      const FilterSet& filter, int width, int height,
                                      Clock::time_point deadline, double* provisionalMs,
                                      const std::function<void()>& beforeCandidate = {}) {
  // `beforeCandidate` may wait (for edits to pause): that time is not the measurement's.
  auto waitBeforeCandidate = [&] {
    if (!beforeCandidate) return;
    const auto start = Clock::now();
    beforeCandidate();
    deadline += Clock::now() - start;
  };
  auto create = [&](std::string_view name) { return createCandidate(entries, name); };
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  std::vector<unsigned char> pixels(bytes);
  std::mt19937 rng(1234);
  for (auto& p : pixels) p = static_cast<unsigned char>(rng());
  FrameBuffers frame{cl::Buffer(ctx.context(), CL_MEM_READ_ONLY, bytes),
                     cl::Buffer(ctx.context(), CL_MEM_WRITE_ONLY, bytes), width, height};
  ctx.queue().enqueueWriteBuffer(frame.input, CL_TRUE, 0, bytes, pixels.data());
  if (provisionalMs) *provisionalMs = -1;

  // Median kernel time of `runs` frames after one warm-up (first launch, lazy allocations); nullopt when the
  // candidate cannot build or run here (then it is simply not a candidate), or time is up.
  auto time = [&](std::string_view name, const std::string& variant, int runs) -> std::optional<double> {
    throwIfCancelled();  // a newer request made this measurement pointless: stop between candidates
    waitBeforeCandidate();
    if (Clock::now() > deadline) return std::nullopt;
    try {
      auto s = create(name);
      s->setTuningVariant(variant);
      s->prepare(ctx, filter, width, height);
      std::vector<double> times;
      for (int i = 0; i <= runs; ++i) {
        auto events = s->enqueue(ctx, frame, {});
        cl::Event::waitForEvents({events.back().event});
        double ms = 0;
        for (const auto& e : events) ms += eventMs(e.event);
        if (i > 0) times.push_back(ms);
      }
      const double ms = median(times);
      if (coreConfig().autoVerbose) {
        char line[256];
        std::snprintf(line, sizeof line, "auto:   %s%s%s %.3f ms (%d runs)", std::string(name).c_str(),
                      variant.empty() ? "" : "/", variant.c_str(), ms, runs);
        logMessage(LogLevel::Debug, line);
      }
      return ms;
    } catch (const Error&) {
      return std::nullopt;
    } catch (const cl::Error&) {
      return std::nullopt;
    }
  };
  auto byTime = [](const Choice& a, const Choice& b) { return a.ms < b.ms; };

  std::vector<std::string> candidates;
  std::set<std::string> kernels;  // strategies running the same kernels are timed once
  for (const auto& entry : entries) {
    const auto s = entry.create();
    if (s->unsupportedReason(ctx, filter) || !kernels.insert(s->kernelIdentity(ctx, filter)).second) continue;
    candidates.emplace_back(entry.name);
  }
  std::stable_partition(candidates.begin(), candidates.end(),
                        [](const std::string& n) { return n == kProvisionalStrategy; });
  const int steps = static_cast<int>(candidates.size()) + 3;  // + the finalists' confirmation runs
  std::vector<Choice> round1;
  for (size_t i = 0; i < candidates.size(); ++i) {
    reportProgress("measuring strategies", static_cast<int>(i), steps);
    if (auto ms = time(candidates[i], "", 1)) {
      round1.push_back({candidates[i], "", *ms});
      if (provisionalMs && candidates[i] == kProvisionalStrategy) *provisionalMs = *ms;
    }
  }
  if (round1.empty()) return {};
  std::sort(round1.begin(), round1.end(), byTime);

  std::vector<Choice> round2;
  for (const Choice& c : round1) {
    if (c.ms > 2 * round1.front().ms || round2.size() >= 12) break;
    round2.push_back(c);
    const auto variants = create(c.strategy)->tuningVariants(ctx, filter);
    for (size_t v = 1; v < variants.size(); ++v)
      if (auto ms = time(c.strategy, variants[v], 1)) round2.push_back({c.strategy, variants[v], *ms});
  }
  std::sort(round2.begin(), round2.end(), byTime);

  const int runs = coreConfig().autoRuns;
  std::vector<Choice> finalists;
  for (size_t i = 0; i < round2.size() && i < 3; ++i) {
    reportProgress("measuring strategies", steps - 3 + static_cast<int>(i), steps);
    const auto ms = time(round2[i].strategy, round2[i].variant, runs);
    // Past the deadline the round-2 time stands (one run): a result now beats a better one later.
    if (ms || Clock::now() > deadline)
      finalists.push_back({round2[i].strategy, round2[i].variant, ms.value_or(round2[i].ms)});
    if (ms && provisionalMs && round2[i].strategy == kProvisionalStrategy && round2[i].variant.empty())
      *provisionalMs = *ms;
  }
  reportProgress("measuring strategies", steps, steps);
  return finalists;
}

Choice fastest(const std::vector<Choice>& results) {
  return *std::min_element(results.begin(), results.end(),
                           [](const Choice& a, const Choice& b) { return a.ms < b.ms; });
}

/// Prepares `choice` for the job's frame size on the measuring queue and launches it once (a CPU driver
/// compiles the launch then), so that activating it on the live queue finds everything built. False when it
/// cannot run here.
bool buildForJob(BackgroundJob& job, const Choice& choice) {
  throwIfCancelled();
  Context& ctx = *job.context;
  FilterSet filter;
  {
    std::lock_guard lock(job.mutex);
    filter = job.latest;
  }
  try {
    auto s = createCandidate(job.candidates, choice.strategy);
    if (s->unsupportedReason(ctx, filter)) return false;
    s->setTuningVariant(choice.variant);
    prepareAndLaunchOnce(*s, ctx, filter, job.width, job.height);
    return true;
  } catch (const Error&) {
    return false;
  } catch (const cl::Error&) {
    return false;
  }
}

/// The job's thread: build the stored `target`; or run the nearest structure's choice (`guess`) as a better
/// provisional one, measure, store the winner and build it.
void runJob(BackgroundJob& job, std::optional<Choice> target, std::optional<Choice> guess) {
  lowerThreadPriority();
  setThreadCancelCheck([&job] { return job.superseded(); });
  setThreadProgressCallback([&job](const std::string&, int done, int total) {
    job.done = done;
    job.total = total;
  });
  try {
    if (target) {
      job.waitForQuiet();  // a compile on PoCL stalls the live frames: not while a person edits
      if (buildForJob(job, *target)) job.deliver(*target, true);
    } else {
      // Edits in quick succession (browsing presets) measure nothing: only a structure that stays is worth
      // the device's time, and on PoCL every compile holds a driver lock that stalls the live frames.
      job.waitForQuiet();
      if (guess)
        if (buildForJob(job, *guess)) job.deliver(*guess, false);
      double provisionalMs = -1;
      const auto deadline = Clock::now() + std::chrono::milliseconds(coreConfig().autoBudgetMs);
      const auto [w, h] = autoMeasureSize(job.width, job.height);
      const auto results = measureCandidates(job.candidates, *job.context, job.filter, w, h, deadline,
                                             &provisionalMs, [&job] { job.waitForQuiet(); });
      if (!results.empty()) {
        Choice best = fastest(results);
        // What runs now is the provisional strategy: the winner must beat it by the margin to replace it.
        if (provisionalMs >= 0 && best.ms > provisionalMs * (1 - kSwitchMargin))
          best = {std::string(kProvisionalStrategy), "", provisionalMs};
        if (coreConfig().autoVerbose)
          logMessage(LogLevel::Debug,
                     "auto: " + job.key + " -> " + StrategyId(best.strategy, best.variant).toString());
        AutoChoiceCache::instance().store(job.context->programCache(), job.key, best);
        if (best.strategy == kProvisionalStrategy || buildForJob(job, best)) job.deliver(best, true);
      }
    }
  } catch (const Cancelled&) {
  } catch (const std::exception& e) {
    logMessage(LogLevel::Debug, std::string("auto: background work failed: ") + e.what());
  }
  job.finished = true;
}

class AutoStrategy final : public Strategy {
 public:
  explicit AutoStrategy(std::vector<StrategyEntry> candidates) : m_candidates(std::move(candidates)) {}

  std::string name() const override { return std::string(kAutoStrategy); }

  StrategyId activeId() const override {
    if (!m_inner) return StrategyId(name());
    StrategyId id = m_inner->activeId();
    id.variant = m_choice.variant;
    id.viaAuto = true;
    if (m_job && !m_job->finished) {
      const int total = m_job->total.load();
      std::string note = "provisional, building " + m_job->target;
      if (m_job->measuring)
        note = total == 0 ? "provisional, measuring soon"
                          : "provisional, measuring " + std::to_string(m_job->done.load()) + "/" +
                                std::to_string(total);
      id.note = id.note.empty() ? note : note + "; " + id.note;
    }
    return id;
  }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return std::nullopt;  // at worst it runs dynamic or naive, which run everywhere
  }

  void prepare(Context& ctx, const FilterSet& declared, int width, int height) override {
    const FilterSet filter = declared.trimmedToSupport();  // the same output from fewer taps
    const std::string key = autoChoiceKey(ctx, filter, width, height);
    const bool sameProgram =
        m_inner && key == m_key && filter.size() == m_filter.size() && filter.border() == m_filter.border();
    m_filter = filter;
    m_width = width;
    m_height = height;
    if (sameProgram) {
      // Coefficients, divisor or offset changed (or the size within the same measured size): the running
      // strategy re-uploads (codegen and sliding bake their literals in the background); a job goes on.
      m_inner->prepare(ctx, filter, width, height);
      if (m_job) m_job->touch(filter);  // still editing: the job's next compile waits for a pause
      return;
    }
    const auto mode = coreConfig().autoMeasure;
    std::optional<Choice> target = storedChoice(ctx, key);
    // Same structure, other program (the border mode changed): the structure's winner is built again for the
    // new border behind the provisional strategy, which takes the border as an argument.
    const bool borderEdit = m_inner && key == m_key;
    if (borderEdit && !m_provisional) target = m_choice;
    m_key = key;
    // The first filter's stored choice runs from the first frame: measured on this machine, its programs are
    // in the driver's cache (PoCL's, or ours), so preparing it costs a cache load. Later structures start on
    // the provisional strategy and build their choice behind it: an edit never waits for a build.
    const bool first = !m_inner;
    if (target && first && activate(ctx, filter, width, height, *target)) {
      warmProvisional(ctx, filter, width, height);
      m_provisional = false;
      retireJob();
      return;
    }
    if (mode == CoreConfig::AutoMeasure::Now) {
      retireJob();
      if (!target) {
        const auto [w, h] = autoMeasureSize(width, height);
        const auto results =
            measureCandidates(m_candidates, ctx, filter, w, h, Clock::time_point::max(), nullptr);
        target = results.empty() ? Choice{"naive", "", 0} : fastest(results);
        AutoChoiceCache::instance().store(ctx.programCache(), key, *target);
      }
      if (activate(ctx, filter, width, height, *target)) {
        m_provisional = false;
        return;
      }
    }
    // The provisional strategy now; the target is built (or the candidates measured) behind it.
    if (!activate(ctx, filter, width, height, {std::string(kProvisionalStrategy), "", 0}) &&
        !activate(ctx, filter, width, height, {"naive", "", 0}))
      throw Error(ErrorKind::Device,
                  "auto: neither " + std::string(kProvisionalStrategy) + " nor naive can run");
    m_provisional = !(target && target->strategy == kProvisionalStrategy);
    retireJob();
    if (!m_provisional || (!target && mode != CoreConfig::AutoMeasure::Background)) return;
    startJob(ctx, key, filter, width, height, target);
  }

  bool preparesWithoutBuild(const Context&, const FilterSet&) const override {
    // After the first filter every prepare runs the provisional strategy (built once) or re-uploads the
    // running one's weights; builds and measurements happen behind it.
    return m_inner && coreConfig().autoMeasure != CoreConfig::AutoMeasure::Now;
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    if (m_job) takeJobResult(ctx);
    return m_inner->enqueue(ctx, frame, waitFor);
  }

 private:
  /// The stored choice for `key` when it may run here (the file may be stale, hand-edited or damaged).
  std::optional<Choice> storedChoice(Context& ctx, const std::string& key) {
    auto cached = AutoChoiceCache::instance().find(ctx.programCache(), key);
    if (!cached) return std::nullopt;
    if (auto reason = invalidAutoChoiceReason(ctx, m_filter, *cached, m_candidates)) {
      logMessage(LogLevel::Debug, "auto: ignoring the cached choice for " + key + ": " + *reason);
      AutoChoiceCache::instance().forget(key);
      return std::nullopt;
    }
    return cached;
  }

  /// Builds and launches the provisional strategy once, so the first later edit that needs it finds its
  /// program built and its launch compiled (PoCL: 0.3 s of stalled frames otherwise).
  void warmProvisional(Context& ctx, const FilterSet& filter, int width, int height) {
    try {
      prepareAndLaunchOnce(*createCandidate(m_candidates, kProvisionalStrategy), ctx, filter, width, height);
    } catch (const std::exception&) {
      // Only a warm-up: the provisional strategy builds when it is needed.
    }
  }

  bool activate(Context& ctx, const FilterSet& filter, int width, int height, const Choice& choice) {
    try {
      auto s = createCandidate(m_candidates, choice.strategy);
      if (s->unsupportedReason(ctx, filter)) return false;
      s->setTuningVariant(choice.variant);
      s->prepare(ctx, filter, width, height);
      m_inner = std::move(s);
      m_choice = choice;
      return true;
    } catch (const Error&) {
      return false;
    } catch (const cl::Error&) {
      return false;
    }
  }

  /// Joins the background work for the structure now running provisionally, or starts it: build `target` (a
  /// stored choice) or, without one, try the nearest structure's choice and measure.
  void startJob(Context& ctx, const std::string& key, const FilterSet& filter, int width, int height,
                std::optional<Choice> target) {
    m_jobVersion = 0;
    if ((m_job = BackgroundJobs::instance().running(key))) {
      m_job->touch(filter);
      return;
    }
    if (!m_measureContext) m_measureContext = ctx.sibling();
    auto job = std::make_shared<BackgroundJob>();
    job->candidates = m_candidates;
    job->context = m_measureContext;
    job->key = key;
    job->filter = filter;
    job->width = width;
    job->height = height;
    std::optional<Choice> guess;
    // The newest job of the process supersedes every older one, a build as much as a measurement: a build
    // for a structure nobody shows any more would only stall the live frames with its compile.
    job->ticket = ++g_newestMeasurement;
    if (target) {
      job->target = target->strategy;
    } else {
      job->measuring = true;
      job->target = "strategies";
      guess = AutoChoiceCache::instance().nearest(ctx.programCache(),
                                                  autoNeighbourKey(ctx, filter, width, height));
      if (guess && (guess->strategy == kProvisionalStrategy ||
                    invalidAutoChoiceReason(ctx, filter, *guess, m_candidates)))
        guess.reset();
    }
    job->touch(filter);
    BackgroundJob* j = job.get();
    job->thread = std::thread([j, target, guess] { runJob(*j, target, guess); });
    BackgroundJobs::instance().add(job);
    m_job = std::move(job);
  }

  /// Between frames: activates what the job has delivered since the last look.
  void takeJobResult(Context& ctx) {
    std::optional<Choice> choice;
    bool final = false;
    {
      std::lock_guard lock(m_job->mutex);
      if (m_job->version != m_jobVersion) {
        m_jobVersion = m_job->version;
        choice = m_job->result;
        final = m_job->resultFinal;
      }
    }
    if (choice && !(choice->strategy == m_choice.strategy && choice->variant == m_choice.variant)) {
      // Its programs are in the shared pool and were launched at this size: no compile here.
      if (!activate(ctx, m_filter, m_width, m_height, *choice))
        logMessage(LogLevel::Debug, "auto: " + choice->strategy + " did not prepare; keeping what runs");
    }
    if (final || m_job->finished) {
      m_provisional = false;  // measured or built (or failed: then what runs stays)
      retireJob();
    }
  }

  /// Stops following the job; it runs on (another instance may follow it) until it ends or is superseded.
  void retireJob() { m_job.reset(); }

  std::vector<StrategyEntry> m_candidates;    ///< what it measures (injected: the registry's other rows)
  std::shared_ptr<Context> m_measureContext;  ///< a sibling queue for the jobs
  std::unique_ptr<Strategy> m_inner;
  Choice m_choice;
  std::string m_key;
  FilterSet m_filter;  ///< the effective filter now running
  int m_width = 0, m_height = 0;
  bool m_provisional = false;  ///< m_inner is not the structure's measured or stored choice yet
  std::shared_ptr<BackgroundJob> m_job;
  int m_jobVersion = 0;  ///< the job's delivery already taken
};

}  // namespace

void stopAutoMeasurements() {
  BackgroundJobs::instance().stopAll();
}

AutoChoice measureAutoChoice(Context& ctx, const FilterSet& filter, int width, int height,
                             const std::vector<StrategyEntry>& candidates) {
  const FilterSet effective = filter.trimmedToSupport();
  const auto [w, h] = autoMeasureSize(width, height);
  const auto deadline = Clock::now() + std::chrono::milliseconds(coreConfig().autoBudgetMs);
  const auto results = measureCandidates(candidates, ctx, effective, w, h, deadline, nullptr);
  const Choice best = results.empty() ? Choice{std::string(kProvisionalStrategy), "", 0} : fastest(results);
  AutoChoiceCache::instance().store(ctx.programCache(), autoChoiceKey(ctx, effective, width, height), best);
  return best;
}

std::unique_ptr<Strategy> makeAutoStrategy(std::vector<StrategyEntry> candidates) {
  return std::make_unique<AutoStrategy>(std::move(candidates));
}

}  // namespace convolab
