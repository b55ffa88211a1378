// SPDX-License-Identifier: MIT
// Reading the chain presets: QFile (resources have no std::filesystem path), the chain parser of filter
// files.
#include "chain_presets.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

#include "convolab/filter_chain_io.hpp"
#include "log_categories.hpp"

namespace convolab::gui {

std::vector<ChainPreset> readChainFolder(const QString& folder, const char* kind) {
  std::vector<ChainPreset> chains;
  const QDir dir(folder);
  for (const QString& file : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile f(dir.filePath(file));
    if (!f.open(QIODevice::ReadOnly) || f.size() > 1024 * 1024) continue;
    const QByteArray bytes = f.readAll();
    try {
      FilterChain chain = parseFilterChainJson(
          std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), file.toStdString());
      const QString name =
          chain.name().empty() ? QFileInfo(file).completeBaseName() : QString::fromStdString(chain.name());
      if (chain.name().empty()) chain = FilterChain::make(chain.steps(), name.toStdString());
      chains.push_back({name, std::move(chain)});
    } catch (const std::exception& e) {
      qCWarning(lcApp, "%s %s skipped: %s", kind, qPrintable(file), e.what());
    }
  }
  std::sort(chains.begin(), chains.end(), [](const ChainPreset& a, const ChainPreset& b) {
    return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
  });
  return chains;
}

std::vector<ChainPreset> loadChainPresets(const QString& folder) {
  return readChainFolder(folder, "chain preset");
}

}  // namespace convolab::gui
