// SPDX-License-Identifier: MIT
// The editor's import and export: JSON filters and ImageJ kernel text, with or without a dialog.
#include "editor/filter_files.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/parse_error_text.hpp"
#include "window/save_path_dialog.hpp"

namespace convolab::gui {
namespace {

/// Where a file the one-filter parser refuses belongs: one custom OpenCL step → the Custom OpenCL panel;
/// any other chain (several steps, a magnitude) → the Chain dock.
enum class ChainFileKind { NotAChain, OneCustomStep, Chain };

ChainFileKind chainFileKind(const QString& path) {
  try {
    const FilterChain chain = loadFilterChainFile(path.toStdString());
    return chain.size() == 1 && chain.steps()[0].isCustom() ? ChainFileKind::OneCustomStep
                                                            : ChainFileKind::Chain;
  } catch (const std::exception&) {
    return ChainFileKind::NotAChain;
  }
}

}  // namespace

FilterFiles::FilterFiles(FilterDocument* document, QWidget* dialogParent)
    : QObject(dialogParent), m_document(document), m_dialogParent(dialogParent) {}

bool FilterFiles::importFile(const QString& path) {
  if (path.endsWith(QStringLiteral(".txt"), Qt::CaseInsensitive)) return importImageJKernel(path);
  try {
    const FilterSet loaded = loadFilterFile(path.toStdString());
    FilterSet named =
        loaded.name().empty() ? loaded.withName(QFileInfo(path).completeBaseName().toStdString()) : loaded;
    m_document->replace(named, tr("Import %1").arg(QFileInfo(path).fileName()));
    emit message({});
    emit status(tr("Imported %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    if (const ChainFileKind kind = chainFileKind(path); kind != ChainFileKind::NotAChain) {
      emit message({});
      if (kind == ChainFileKind::OneCustomStep)
        emit customStepImported(path);
      else
        emit chainImported(path);
      return true;
    }
    emit message(tr("Cannot import — %1").arg(withoutParserJargon(QString::fromUtf8(e.what()))));
    return false;
  }
}

bool FilterFiles::exportFile(const QString& path, bool overwrite) {
  if (path.endsWith(QStringLiteral(".txt"), Qt::CaseInsensitive)) {
    if (!overwrite && QFileInfo::exists(path)) {
      emit message(tr("Cannot export — '%1' already exists; refusing to overwrite it").arg(path));
      return false;
    }
    return exportImageJKernel(path);
  }
  try {
    saveFilterFile(path.toStdString(), m_document->filter(), overwrite);
    emit status(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    emit message(tr("Cannot export — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
}

bool FilterFiles::importImageJKernel(const QString& path) {
  QByteArray bytes;
  try {
    // Whole or not at all: a FIFO or a file over the limit is refused with a message, never cut or waited on.
    const std::string text = readFilterFileText(path.toStdString());
    bytes = QByteArray(text.data(), static_cast<qsizetype>(text.size()));
  } catch (const std::exception& e) {
    emit message(tr("Cannot import — %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  try {
    FilterSet f = parseFilterText(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                                  m_document->filter(), QFileInfo(path).fileName().toStdString());
    bool normalised = false;
    if (!bytes.contains("divisor")) {
      // ImageJ's Convolver normalises by default (weights / Σ when Σ ≠ 0); do the same so the picture
      // matches what ImageJ shows.
      auto channels = f.channels();
      double sum = 0;
      for (double v : channels[0].matrix) sum += v;
      if (sum != 0 && sum != 1 && f.channelsIdentical()) {
        for (auto& c : channels) c.divisor = sum;
        f = FilterSet::make(channels, f.border(), f.borderValue(), f.name());
        normalised = true;
      }
    }
    f = f.withName(QFileInfo(path).completeBaseName().toStdString());
    m_document->replace(f, tr("Import %1").arg(QFileInfo(path).fileName()));
    emit message({});
    emit status(normalised ? tr("Imported ImageJ kernel %1 (normalised: divisor = Σ, as ImageJ does)")
                                 .arg(QDir::toNativeSeparators(path))
                           : tr("Imported ImageJ kernel %1").arg(QDir::toNativeSeparators(path)));
    return true;
  } catch (const std::exception& e) {
    emit message(describeParseError(QString::fromUtf8(e.what()), tr("Cannot import %1 — ").arg(path)));
    return false;
  }
}

bool FilterFiles::exportImageJKernel(const QString& path) {
  const FilterSet& f = m_document->filter();
  QSaveFile file(path);  // atomic: a reader never sees half a kernel
  const std::string text = toImageJKernelText(f);
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
      !file.commit()) {
    emit message(tr("Cannot export — %1: %2").arg(path, file.errorString()));
    return false;
  }
  QStringList lost;
  if (!f.channelsIdentical()) lost << tr("G and B differ from R and were not written");
  if (f.channel(0).offset != 0)
    lost << tr("the offset (%1) has no place in an ImageJ kernel").arg(f.channel(0).offset);
  if (lost.isEmpty()) {
    emit status(tr("Exported ImageJ kernel %1").arg(QDir::toNativeSeparators(path)));
  } else {
    emit message(tr("Exported %1, but %2.").arg(QDir::toNativeSeparators(path), lost.join(tr("; "))));
  }
  return true;
}

void FilterFiles::importWithDialog() {
  const QString path =
      QFileDialog::getOpenFileName(m_dialogParent, tr("Import filter"), m_lastDir,
                                   tr("Filter files (*.json);;ImageJ kernels (*.txt);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  importFile(path);
}

QString FilterFiles::exportDir() const {
  // Not the folder a filter was imported from (often a test-data or download folder): the user's own
  // Documents, until they export somewhere else.
  return m_exportDir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
                               : m_exportDir;
}

// The export dialogs' shared part: a suggested name in the export folder, the extension added when the user
// left it out (then asked before replacing, which the dialog did not), and the folder remembered. Empty:
// cancelled.
QString FilterFiles::chooseExportPath(const QString& title, const QString& fallbackName, const QString& ext,
                                      const QString& filterText) {
  QString suggested = QString::fromStdString(m_document->filter().name());
  if (suggested.isEmpty()) suggested = fallbackName;
  // The dialog asks before replacing an existing file; askSavePath asks for the name it completes.
  const QString path =
      askSavePath(m_dialogParent, title, QDir(exportDir()).filePath(suggested + ext), filterText, ext);
  if (path.isEmpty()) return {};
  m_exportDir = QFileInfo(path).absolutePath();
  emit exportDirChosen(m_exportDir);
  return path;
}

void FilterFiles::exportWithDialog() {
  const QString path = chooseExportPath(tr("Export filter"), QStringLiteral("filter"),
                                        QStringLiteral(".json"), tr("Filter files (*.json)"));
  if (!path.isEmpty()) exportFile(path, true);
}

void FilterFiles::importImageJWithDialog() {
  const QString path = QFileDialog::getOpenFileName(m_dialogParent, tr("Import ImageJ kernel"), m_lastDir,
                                                    tr("ImageJ kernels (*.txt);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  importImageJKernel(path);
}

void FilterFiles::exportImageJWithDialog() {
  const QString path = chooseExportPath(tr("Export ImageJ kernel"), QStringLiteral("kernel"),
                                        QStringLiteral(".txt"), tr("ImageJ kernels (*.txt)"));
  if (!path.isEmpty()) exportImageJKernel(path);
}

}  // namespace convolab::gui
