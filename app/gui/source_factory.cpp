// SPDX-License-Identifier: MIT
// Source creation for the GUI: the bundled sample comes from Qt resources, so an installed app needs no
// files.
#include "source_factory.hpp"

#include <QFile>

#include "capture/camera_source.hpp"
#include "capture/image_file_source.hpp"
#include "capture/source_spec.hpp"
#include "cv/image_codec.hpp"
#include "resources.hpp"

namespace convolab::gui {

QString resolveAutoSpec() {
  const auto cameras = capture::listCameras();
  return cameras.empty() ? kSampleSpec : QString::fromStdString(cameras.front().stableId);
}

std::unique_ptr<capture::FrameSource> makeSource(const QString& spec, const capture::CameraMode& mode,
                                                 std::int64_t maxPixels) {
  if (spec == kSampleSpec) {
    initResources();
    QFile file(QStringLiteral(":/samples/coffee.png"));
    if (!file.open(QIODevice::ReadOnly)) throw capture::SourceError("the bundled sample image is missing");
    const QByteArray bytes = file.readAll();
    try {
      return std::make_unique<capture::ImageFileSource>(
          opencv::decodeImage(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                              "coffee.png"),
          "coffee.png (bundled sample)");
    } catch (const Error& e) {
      throw capture::SourceError(e.what());
    }
  }
  const std::string s = (spec == kAutoSpec ? resolveAutoSpec() : spec).toStdString();
  if (s == kSampleSpec.toStdString()) return makeSource(kSampleSpec);
  auto source = capture::createSource(s, maxPixels);
  if (mode.width > 0 && source->kind() == capture::SourceKind::Camera) {
    auto* camera = static_cast<capture::CameraSource*>(source.get());
    return std::make_unique<capture::CameraSource>(camera->camera(), mode);
  }
  return source;
}

}  // namespace convolab::gui
