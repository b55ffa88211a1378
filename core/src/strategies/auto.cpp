// SPDX-License-Identifier: MIT
// auto: runs the fastest strategy for this device, frame size and filter structure. A structure it has a
// stored choice for runs that choice; a new one runs at once on the provisional strategy (dynamic: no
// compile) while the candidates are measured on another thread and queue (auto_background_job), and the
// winner is swapped in between frames. Choices are cached per device + measured size + filter structure
// (auto_choices.hpp); measuring is auto_measure.
#include <chrono>
#include <memory>
#include <optional>

#include "auto_background_job.hpp"
#include "auto_measure.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/log.hpp"

namespace convolab {
namespace {

using namespace auto_detail;

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

  bool changePending() const override {
    if (m_inner && m_inner->changePending()) return true;
    if (!m_job) return false;
    std::lock_guard lock(m_job->mutex);
    return m_job->version != m_jobVersion || m_job->finished;  // a delivery, or the note to settle
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
    job->ticket = nextMeasurementTicket();
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
    launchBackgroundJob(job, target, guess);
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
