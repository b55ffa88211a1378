// SPDX-License-Identifier: MIT
// The custom kernel's life: draft → pause → trial in another process → live; a refused version leaves the
// last good one running.
#include "custom_kernel_controller.hpp"

#include "convolab/context.hpp"
#include "convolab/error.hpp"
#include "lab/background_task.hpp"
#include "processing/custom_arguments.hpp"

namespace convolab::gui {
namespace {

constexpr QSize kDefaultTrialSize(640, 480);

/// What a trial thread hands back: the outcome, and the context it made (kept for the next trial).
struct TrialResult {
  TrialOutcome outcome;
  std::shared_ptr<Context> context;
};

/// "2 errors (lines 3, 5)": the messages themselves are listed under the editor and on their lines.
QString errorSummary(const std::vector<KernelDiagnostic>& diagnostics) {
  QStringList lines;
  int errors = 0;
  for (const KernelDiagnostic& d : diagnostics) {
    if (!d.isError) continue;
    ++errors;
    const QString where = d.line > 0 ? QString::number(d.line) : QObject::tr("the wrapper");
    if (!lines.contains(where)) lines << where;
  }
  if (errors == 0) return QObject::tr("the compiler gave no message");
  return (errors == 1 ? QObject::tr("1 error") : QObject::tr("%1 errors").arg(errors)) +
         (lines.size() == 1 ? QObject::tr(" on line %1") : QObject::tr(" on lines %1")).arg(lines.join(", "));
}

}  // namespace

CustomKernelController::CustomKernelController(QObject* parent) : QObject(parent) {
  m_pause.setSingleShot(true);
  m_pause.setInterval(kDebounceMs);
  connect(&m_pause, &QTimer::timeout, this, &CustomKernelController::tryNow);
}

CustomKernelController::~CustomKernelController() {
  // A trial is bounded (TrialLimits): let it end rather than leave a thread running into exit.
  if (m_thread) m_thread->wait(10000);
}

void CustomKernelController::setCode(const QString& code) {
  if (code == m_code) return;
  m_code = code;
  newVersion(false);
}

void CustomKernelController::setDeviceSpec(const QString& spec) {
  m_deviceSpec = spec;
  m_deviceKnown = true;
  if (!m_pending || m_trialRunning) return;
  const auto [step, version] = *m_pending;
  m_pending.reset();
  startTrial(step, version);
}

void CustomKernelController::load(const ChainStep& step) {
  if (!step.isCustom()) return;
  m_code = QString::fromStdString(step.custom->code);
  m_params = step.custom->params;
  m_border = step.filter.border();
  emit codeReplaced(m_code);
  emit paramsChanged();
  newVersion(true);
}

QString CustomKernelController::setParam(int index, const CustomParam& param) {
  std::vector<CustomParam> next = m_params;
  const bool added = index < 0 || index >= static_cast<int>(next.size());
  if (added)
    next.push_back(param);
  else
    next[static_cast<std::size_t>(index)] = param;
  try {
    // The parameters' own rules (names, ranges, at most 8), whatever state the code is in.
    (void)CustomKernel::make("return (float3)(0.0f);", next);
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  const bool renamed = added || m_params[static_cast<std::size_t>(index)].name != param.name;
  m_params = std::move(next);
  emit paramsChanged();
  if (renamed) {
    newVersion(true);  // the code sees a new name: a new program
  } else {
    if (takeValuesOnLive()) emitLive();
    emit draftChanged();
  }
  return {};
}

void CustomKernelController::removeParam(int index) {
  if (index < 0 || index >= static_cast<int>(m_params.size())) return;
  m_params.erase(m_params.begin() + index);
  emit paramsChanged();
  newVersion(true);
}

void CustomKernelController::setParamValue(int index, double value) {
  if (index < 0 || index >= static_cast<int>(m_params.size())) return;
  CustomParam& p = m_params[static_cast<std::size_t>(index)];
  const double clamped = std::clamp(value, p.min, p.max);
  if (clamped == p.value) return;
  p.value = clamped;
  if (takeValuesOnLive()) emitLive();
  emit draftChanged();
}

void CustomKernelController::setBorder(BorderMode border) {
  if (border == m_border) return;
  m_border = border;
  newVersion(true);
}

ChainStep CustomKernelController::draftStep() const {
  return ChainStep::customCode(CustomKernel::make(m_code.toStdString(), m_params), m_border);
}

void CustomKernelController::setOn(bool on) {
  if (on == m_on) return;
  m_on = on;
  emit onChanged(on);
  emitLive();
  emit draftChanged();
  emit stateChanged();
}

std::optional<FilterChain> CustomKernelController::liveChain() const {
  if (!m_on || !m_live) return std::nullopt;
  return FilterChain::make({*m_live}, "Custom OpenCL");
}

void CustomKernelController::emitLive() {
  emit liveChainChanged(liveChain());
}

bool CustomKernelController::takeValuesOnLive() {
  if (!m_live || m_live->custom->params.size() != m_params.size()) return false;
  for (std::size_t i = 0; i < m_params.size(); ++i)
    if (m_live->custom->params[i].name != m_params[i].name) return false;
  if (m_live->custom->params == m_params) return false;
  m_live->custom->params = m_params;  // same names, so the same program: new arguments only
  return true;
}

void CustomKernelController::setState(CustomKernelState state, const QString& message) {
  m_state = state;
  m_message = message;
  emit stateChanged();
}

void CustomKernelController::newVersion(bool atOnce) {
  ++m_version;
  emit draftChanged();
  if (m_code.trimmed().isEmpty()) {
    m_pause.stop();
    m_diagnostics.clear();
    setState(CustomKernelState::Empty,
             tr("Write the body of a function that returns the pixel's RGB (0–255), "
                "e.g. return 255.0f - pixel(0, 0);"));
    return;
  }
  if (atOnce) return tryNow();
  m_pause.start();
  setState(CustomKernelState::Editing, tr("Editing — tried when you pause typing (or Ctrl+Enter)."));
}

void CustomKernelController::tryNow() {
  m_pause.stop();
  ChainStep step;
  try {
    step = draftStep();
  } catch (const std::exception& e) {
    m_diagnostics.clear();
    setState(CustomKernelState::Invalid, QString::fromUtf8(e.what()));
    return;
  }
  if (m_live && onlyCustomArgumentsDiffer(FilterChain::make({*m_live}), FilterChain::make({step}))) {
    if (takeValuesOnLive()) emitLive();  // the program that runs is this version's: nothing to try
    m_pending.reset();
    m_settled = m_version;  // a trial still running is of an older version: its outcome is history
    m_diagnostics.clear();
    setState(CustomKernelState::Live, m_on ? tr("Running.") : tr("Ready (switched off)."));
    return;
  }
  startTrial(step, m_version);
}

void CustomKernelController::startTrial(const ChainStep& step, std::uint64_t version) {
  const QSize asked = m_frameSize ? m_frameSize() : QSize();
  const QSize size = asked.isEmpty() ? kDefaultTrialSize : asked;
  setState(CustomKernelState::Trying,
           tr("Trying the code on a %1×%2 frame…").arg(size.width()).arg(size.height()));
  if (m_trialRunning || (!m_trial && !m_deviceKnown)) {
    m_pending = std::make_pair(step, version);  // newest wins: an older waiting version is dropped
    return;
  }
  m_trialRunning = true;
  std::function<TrialResult()> work;
  if (m_trial) {
    work = [trial = m_trial, step, size] { return TrialResult{trial(step, size), nullptr}; };
  } else {
    std::shared_ptr<Context> context = m_contextSpec == m_deviceSpec ? m_context : nullptr;
    m_contextSpec = m_deviceSpec;
    work = [context, spec = m_deviceSpec.toStdString(), step, size]() mutable {
      TrialResult r;
      try {
        if (!context) context = std::make_shared<Context>(spec);
        r.context = context;
        r.outcome = trialCustomStep(*context, step, size.width(), size.height());
      } catch (const std::exception& e) {
        r.outcome.message = std::string("the trial could not run: ") + e.what();
      }
      return r;
    };
  }
  m_thread = lab::runInBackground<TrialResult>(this, std::move(work), [this, step, version](TrialResult r) {
    if (r.context) m_context = r.context;
    trialDone(r.outcome, step, version);
  });
}

void CustomKernelController::trialDone(const TrialOutcome& outcome, const ChainStep& step,
                                       std::uint64_t version) {
  m_trialRunning = false;
  if (m_pending) {  // a newer version waits: this outcome is history
    const auto [next, nextVersion] = *m_pending;
    m_pending.reset();
    if (nextVersion > version) return startTrial(next, nextVersion);
  }
  if (version < m_settled) return;
  m_diagnostics = outcome.diagnostics;
  const QString what = QString::fromStdString(outcome.message);
  const QString keeps = !m_live ? (m_on ? tr(" The matrix filter runs meanwhile.") : QString())
                        : m_on  ? tr(" The last good kernel keeps running.")
                                : tr(" The last good kernel is kept.");
  using Verdict = TrialOutcome::Verdict;
  if (outcome.verdict == Verdict::Passed) {
    m_live = step;
    takeValuesOnLive();  // sliders moved during the trial
    emitLive();
    const int warnings = static_cast<int>(m_diagnostics.size());
    setState(CustomKernelState::Live,
             (m_on ? tr("Running — %1.") : tr("Passed (switched off) — %1.")).arg(what) +
                 (warnings == 1  ? tr(" 1 warning.")
                  : warnings > 1 ? tr(" %1 warnings.").arg(warnings)
                                 : QString()));
  } else if (outcome.verdict == Verdict::BuildFailed) {
    setState(CustomKernelState::BuildFailed,
             tr("Does not build: %1.").arg(errorSummary(m_diagnostics)) + keeps);
  } else {
    setState(CustomKernelState::Refused, tr("Refused: %1.").arg(what) + keeps);
  }
}

}  // namespace convolab::gui
