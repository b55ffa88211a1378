// SPDX-License-Identifier: MIT
// Trials one at a time, off the GUI thread; a passed program is remembered for the session.
#include "custom_step_vetting.hpp"

#include <algorithm>

#include "convolab/context.hpp"
#include "lab/background_task.hpp"

namespace convolab::gui {
namespace {

constexpr QSize kDefaultTrialSize(640, 480);

/// The step without its parameter values: what a trial judges (a slider move builds nothing).
ChainStep programOf(ChainStep step) {
  step.enabled = true;
  if (step.custom)
    for (CustomParam& p : step.custom->params) p.value = p.min;
  return step;
}

}  // namespace

CustomStepVetting::CustomStepVetting(QObject* parent) : QObject(parent) {}

CustomStepVetting::~CustomStepVetting() {
  // A trial is bounded (TrialLimits): let it end rather than leave a thread running into exit.
  if (m_thread) m_thread->wait(10000);
}

bool CustomStepVetting::passed(const ChainStep& step) const {
  return !step.isCustom() || std::find(m_passed.begin(), m_passed.end(), programOf(step)) != m_passed.end();
}

void CustomStepVetting::vet(const ChainStep& step) {
  if (passed(step) || std::find(m_queue.begin(), m_queue.end(), programOf(step)) != m_queue.end()) return;
  m_queue.push_back(programOf(step));
  startNext();
}

void CustomStepVetting::setDeviceSpec(const QString& spec) {
  m_deviceSpec = spec;
  startNext();
}

void CustomStepVetting::startNext() {
  if (m_running || m_queue.empty() || (!m_trial && m_deviceSpec.isEmpty())) return;
  m_running = true;
  const ChainStep step = m_queue.front();
  const QSize asked = m_frameSize ? m_frameSize() : QSize();
  const QSize size = asked.isEmpty() ? kDefaultTrialSize : asked;
  std::function<TrialOutcome()> work = [trial = m_trial, spec = m_deviceSpec.toStdString(), step, size] {
    if (trial) return trial(step, size);
    TrialOutcome outcome;
    try {
      const Context context(spec);
      outcome = trialCustomStep(context, step, size.width(), size.height());
    } catch (const std::exception& e) {
      outcome.message = std::string("the trial could not run: ") + e.what();
    }
    return outcome;
  };
  m_thread = lab::runInBackground<TrialOutcome>(this, std::move(work), [this, step](TrialOutcome outcome) {
    m_running = false;
    m_queue.pop_front();
    if (outcome.passed()) m_passed.push_back(step);
    emit judged(step, outcome.passed(), QString::fromStdString(outcome.message));
    startNext();
  });
}

}  // namespace convolab::gui
