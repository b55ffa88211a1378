// SPDX-License-Identifier: MIT
// Source creation for the GUI: the bundled sample comes from Qt resources, so an installed app needs no
// files.
#include "sources/source_factory.hpp"

#include <QFile>

#include "capture/image_file_source.hpp"
#include "capture/source_spec.hpp"
#include "cv/image_codec.hpp"
#include "resources.hpp"

namespace convolab::gui {

QString resolveAutoSpec() {
  const auto devices = capture::listDevices();
  return devices.empty() ? kSampleSpec : QString::fromStdString(devices.front().spec);
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
  return capture::createSource(s, maxPixels, mode);
}

}  // namespace convolab::gui
