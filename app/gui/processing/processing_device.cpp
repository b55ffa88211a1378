// SPDX-License-Identifier: MIT
// The processing thread's OpenCL device: opening it (context, engine queues, pinned staging) and the compute
// kick that hides the GL -> CL switch after each OpenGL frame.
#include "processing/processing_device.hpp"

#include <cstdlib>
#include <string_view>

#include "convolab/pinned_pixel_storage.hpp"
#include "log_categories.hpp"

namespace convolab::gui {

namespace {
// Test hook (setTestTreatAsGpu): the compute kick runs on a CPU device too.
std::atomic<bool> g_testDeviceIsGpu{false};
}  // namespace

void ProcessingDevice::setTestTreatAsGpu(bool gpu) {
  g_testDeviceIsGpu = gpu;
}

ProcessingDevice::ProcessingDevice(std::shared_ptr<capture::StagingStorage> staging)
    : m_staging(std::move(staging)) {}

void ProcessingDevice::open(const QString& spec) {
  auto context = std::make_shared<Context>(spec.toStdString());
  m_queues = {context->sibling(), context->sibling()};
  m_kick.reset();  // made again on the new device's context at the next kick
  m_context = std::move(context);
  m_gpu = m_context->device().isGpu;
  // Sources decode, and the engine downloads, straight into pinned memory of this device (DMA transfers, no
  // staging copy in the driver). CONVOLAB_PINNED_STAGING=0 turns it off (to compare).
  const char* pinned = std::getenv("CONVOLAB_PINNED_STAGING");
  if (!(pinned && std::string_view(pinned) == "0"))
    m_staging->set(std::make_shared<PinnedPixelStorage>(m_context));
}

void ProcessingDevice::releaseStaging() {
  m_staging->set(nullptr);
}

void ProcessingDevice::close() {
  m_gpu = false;
  m_kick.reset();
  m_context.reset();
  m_queues = {};
}

bool ProcessingDevice::kickWanted() const {
  return m_gpu.load() || g_testDeviceIsGpu.load();
}

bool ProcessingDevice::claimKick() {
  return kickWanted() && !m_kickPending.exchange(true);
}

void ProcessingDevice::runKick() {
  m_kickPending = false;
  if (!m_context || !kickWanted()) return;
  if (!m_kick) {
    // Built once per device (a one-line kernel); a failure leaves it inert, said once.
    m_kick = std::make_unique<ComputeKick>(*m_context);
    if (!m_kick->ok())
      qCWarning(lcApp, "compute kick after OpenGL frames unavailable: %s", m_kick->error().c_str());
    else
      qCDebug(lcApp, "compute kick after each OpenGL frame on %s", m_context->device().name.c_str());
  }
  if (m_kick->kick()) ++m_kicks;
}

}  // namespace convolab::gui
