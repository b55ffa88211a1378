// SPDX-License-Identifier: MIT
// Reading the examples: QFile (resources have no std::filesystem path), the chain parser of filter files.
#include "custom_examples.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

#include "convolab/filter_chain_io.hpp"
#include "log_categories.hpp"

namespace convolab::gui {

std::optional<ChainStep> firstCustomStep(const FilterChain& chain) {
  for (const ChainStep& step : chain.steps())
    if (step.isCustom()) return step;
  return std::nullopt;
}

std::vector<CustomExample> loadCustomExamples(const QString& folder) {
  std::vector<CustomExample> examples;
  const QDir dir(folder);
  for (const QString& file : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    QFile f(dir.filePath(file));
    if (!f.open(QIODevice::ReadOnly) || f.size() > 1024 * 1024) continue;
    const QByteArray bytes = f.readAll();
    try {
      const FilterChain chain = parseFilterChainJson(
          std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), file.toStdString());
      const std::optional<ChainStep> step = firstCustomStep(chain);
      if (!step) continue;
      const QString name =
          chain.name().empty() ? QFileInfo(file).completeBaseName() : QString::fromStdString(chain.name());
      examples.push_back({name, *step});
    } catch (const std::exception& e) {
      qCWarning(lcApp, "custom example %s skipped: %s", qPrintable(file), e.what());
    }
  }
  std::sort(examples.begin(), examples.end(), [](const CustomExample& a, const CustomExample& b) {
    return a.name.compare(b.name, Qt::CaseInsensitive) < 0;
  });
  return examples;
}

}  // namespace convolab::gui
