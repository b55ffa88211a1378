// SPDX-License-Identifier: MIT
// VideoExportJob: a std::thread around runVideoJob; results cross to the GUI thread as queued signals.
#include "outputs/video_export_job.hpp"

#include <CL/opencl.hpp>
#include <opencv2/core.hpp>

#include "convolab/error.hpp"
#include "jobs/video_job.hpp"

namespace convolab::gui {

VideoExportJob::VideoExportJob(QObject* parent) : QObject(parent) {}

VideoExportJob::~VideoExportJob() {
  m_stop = true;
  if (m_thread.joinable()) m_thread.join();
}

bool VideoExportJob::start(const QString& input, const QString& output, const FilterChain& chain,
                           const QString& deviceSpec, const QString& strategy) {
  if (running()) return false;
  if (m_thread.joinable()) m_thread.join();
  m_stop = false;
  m_done = false;
  jobs::VideoJobOptions o;
  o.input = input.toStdString();
  o.output = output.toStdString();
  o.chain = chain;
  o.strategy = strategy.isEmpty() ? std::string(kAutoStrategy) : strategy.toStdString();
  o.overwrite = true;
  o.stop = &m_stop;
  m_thread = std::thread([this, o, device = deviceSpec.toStdString()]() mutable {
    bool ok = false;
    QString message;
    try {
      o.context = std::make_shared<Context>(device);
      o.progress = [this](std::int64_t done, std::int64_t total) { emit progress(done, total); };
      const jobs::VideoJobResult r = jobs::runVideoJob(o);
      if (r.stopped) {
        message = tr("Export cancelled; nothing was written.");
      } else {
        ok = true;
        const std::string timing = r.timingNote();
        message =
            tr("Wrote %1 frames (%2×%3, %4, %8 s at %9 fps%10) to %5 in %6 s (%7 frames/s; the audio is "
               "not kept).")
                .arg(r.frames)
                .arg(r.width)
                .arg(r.height)
                .arg(QString::fromStdString(r.codec))
                .arg(QString::fromStdString(o.output.string()))
                .arg(r.seconds, 0, 'f', 1)
                .arg(r.seconds > 0 ? r.frames / r.seconds : 0.0, 0, 'f', 1)
                .arg(static_cast<double>(r.frames) / r.fps, 0, 'f', 2)
                .arg(r.fps, 0, 'g', 4)
                .arg(timing.empty() ? QString() : QStringLiteral("; ") + QString::fromStdString(timing));
      }
    } catch (const Error& e) {
      message = QString::fromStdString(e.what());
    } catch (const cl::Error& e) {
      message = QString::fromStdString(ClError(e.what(), e.err()).what());
    } catch (const cv::Exception& e) {
      message = QStringLiteral("OpenCV: ") + QString::fromStdString(e.what());
    } catch (const std::exception& e) {
      message = QString::fromStdString(e.what());
    }
    const bool cancelled = m_stop.load() && !ok;
    m_done = true;
    emit finished(ok, cancelled, message);
  });
  return true;
}

void VideoExportJob::cancel() {
  m_stop = true;
}

}  // namespace convolab::gui
