// SPDX-License-Identifier: MIT
// auto's background work: see auto_background_job.hpp.
#include "auto_background_job.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "../first_launch_in_child.hpp"
#include "auto_measure_process.hpp"
#include "convolab/error.hpp"
#include "convolab/log.hpp"

namespace convolab::auto_detail {
namespace {

/// The newest background job in the process; older ones stop at their next cancellation point (only the
/// filter a person is looking at is worth the device's spare time).
std::atomic<std::uint64_t> g_newestMeasurement{0};
/// How long a structure must stay before a child process measures it: browsing presets starts none.
constexpr std::chrono::milliseconds kChildSettle{1000};

/// Lowers the calling thread's CPU priority: on a CPU device the measurement's compiles must not take the
/// cores from the live frames.
void lowerThreadPriority() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
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
    // On PoCL the first launch here would stall the live frames for ~1 s: made in a child first, it is a
    // cache hit here.
    if (firstLaunchesGoToChild(ctx)) prepareInChildProcess(ctx, filter, choice, job.width, job.height);
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
      const auto [w, h] = autoMeasureSize(job.width, job.height);
      std::vector<Choice> results;
      double provisionalMs = -1;
      // In a child process (nice 10) the measurement's compiles and runs cannot stall the live frames: it
      // starts once the structure has stayed for kChildSettle (browsing presets starts nothing).
      const bool child = !measureProgramPath().empty();
      if (child)
        job.waitForPause(std::min(kChildSettle, std::chrono::milliseconds(coreConfig().autoQuietMs)));
      // A candidate found faster than the provisional one in the first round runs live at once, not after
      // the last round (which can take minutes on a loaded CPU device); the final choice follows.
      bool swappedEarly = false;
      const auto onBetter = [&job, &swappedEarly](const Choice& c) {
        if (coreConfig().autoVerbose)
          logMessage(LogLevel::Debug, "auto: " + job.key + " early -> " +
                                          StrategyId(c.strategy, c.variant).toString() + " " +
                                          std::to_string(c.ms));
        if (buildForJob(job, c)) {
          job.deliver(c, false);
          swappedEarly = true;
        }
      };
      auto outcome = child ? measureInChildProcess(job.candidates, *job.context, job.filter, w, h,
                                                   coreConfig().autoBudgetMs, onBetter)
                           : std::nullopt;
      // Every in-process compile waits for edits to pause: on PoCL it holds a driver lock that stalls the
      // live frames.
      job.waitForQuiet();
      if (guess && !outcome && !swappedEarly)
        if (buildForJob(job, *guess)) job.deliver(*guess, false);
      if (outcome) {
        results = std::move(outcome->results);
        provisionalMs = outcome->provisionalMs;
      } else {
        const auto deadline = Clock::now() + std::chrono::milliseconds(coreConfig().autoBudgetMs);
        results = measureCandidates(
            job.candidates, *job.context, job.filter, w, h, deadline, &provisionalMs,
            [&job] { job.waitForQuiet(); }, nullptr, onBetter);
      }
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

}  // namespace

bool BackgroundJob::superseded() const {
  return cancel || (ticket != 0 && ticket != g_newestMeasurement.load());
}

std::uint64_t nextMeasurementTicket() {
  return ++g_newestMeasurement;
}

void launchBackgroundJob(const std::shared_ptr<BackgroundJob>& job, std::optional<Choice> target,
                         std::optional<Choice> guess) {
  BackgroundJob* j = job.get();
  job->thread = std::thread([j, target, guess] { runJob(*j, target, guess); });
  BackgroundJobs::instance().add(job);
}

}  // namespace convolab::auto_detail
