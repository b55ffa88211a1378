// SPDX-License-Identifier: MIT
// KernelSourceDialog: inspection off the GUI thread, then a highlighted read-only source and its facts.
#include "kernel_source_dialog.hpp"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

#include "background_task.hpp"
#include "convolab/context.hpp"
#include "convolab/custom_kernel.hpp"
#include "convolab/registry.hpp"
#include "opencl_highlighter.hpp"

namespace convolab::lab {
namespace {

struct Outcome {
  KernelInspection inspection;
  std::shared_ptr<Context> context;
};

QString sizes(const std::vector<std::size_t>& v) {
  if (v.empty()) return QStringLiteral("chosen by the runtime");
  QStringList parts;
  for (std::size_t s : v) parts << QString::number(s);
  return parts.join(QStringLiteral(" × "));
}

}  // namespace

KernelSourceDialog::KernelSourceDialog(LabInputsProvider inputs, QWidget* parent)
    : QDialog(parent), m_inputs(std::move(inputs)) {
  setObjectName(QStringLiteral("kernelSourceDialog"));
  setWindowTitle(tr("Kernel Source"));
  resize(980, 760);
  m_title = new QLabel(this);
  m_title->setStyleSheet(QStringLiteral("font-size: 12pt; font-weight: 600;"));
  m_builds = new QComboBox(this);
  m_builds->setVisible(false);
  m_details = new QLabel(this);
  m_details->setWordWrap(true);
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_outlineLabel = new QLabel(this);
  m_outlineLabel->setObjectName(QStringLiteral("kernelOutline"));
  m_outlineLabel->setWordWrap(true);
  m_outlineLabel->setTextFormat(Qt::RichText);
  m_outlineLabel->setToolTip(
      tr("The program is common.cl, the fragments its file includes, then the strategy's "
         "own code; click a part to go there"));
  connect(m_outlineLabel, &QLabel::linkActivated, this,
          [this](const QString& link) { showLine(link.mid(link.indexOf(QLatin1Char(':')) + 1).toInt()); });
  m_source = new QPlainTextEdit(this);
  m_source->setObjectName(QStringLiteral("kernelSource"));
  m_source->setReadOnly(true);
  m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  new OpenClHighlighter(m_source->document());

  m_refresh = new QPushButton(tr("Refresh"), this);
  m_refresh->setToolTip(tr("Build the live strategy again for the current filter and frame size"));
  auto* copy = new QPushButton(tr("Copy"), this);
  auto* saveButton = new QPushButton(tr("Save…"), this);
  auto* close = new QPushButton(tr("Close"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(m_refresh);
  buttons->addStretch(1);
  buttons->addWidget(copy);
  buttons->addWidget(saveButton);
  buttons->addWidget(close);

  auto* top = new QHBoxLayout;
  top->addWidget(m_title, 1);
  top->addWidget(m_builds);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(m_details);
  layout->addWidget(m_outlineLabel);
  layout->addWidget(m_source, 1);
  layout->addLayout(buttons);

  connect(m_refresh, &QPushButton::clicked, this, [this] { refresh(); });
  connect(copy, &QPushButton::clicked, this, [this] {
    QApplication::clipboard()->setText(detailsText() + QStringLiteral("\n\n") + sourceText());
  });
  connect(saveButton, &QPushButton::clicked, this, &KernelSourceDialog::save);
  connect(close, &QPushButton::clicked, this, &QDialog::close);
  connect(m_builds, &QComboBox::currentIndexChanged, this, &KernelSourceDialog::showBuild);
}

KernelSourceDialog::~KernelSourceDialog() {
  if (m_thread) m_thread->wait(10000);
}

bool KernelSourceDialog::refresh() {
  if (m_busy) return true;
  const LabInputs in = m_inputs ? m_inputs() : LabInputs{};
  const int w = in.frame ? in.frame->width : 640, h = in.frame ? in.frame->height : 480;
  for (const ChainStep& step : in.chain.enabledSteps())
    if (step.isCustom()) return showCustom(step, w, h), emit refreshed(), true;
  StrategyId live = in.liveStrategy;
  if (live.name.empty()) live.name = kAutoStrategy;
  std::shared_ptr<Context> context = in.deviceSpec == m_contextSpec ? m_context : nullptr;
  m_contextSpec = in.deviceSpec;
  const std::string spec = in.deviceSpec.toStdString();
  m_busy = true;
  m_refresh->setEnabled(false);
  m_title->setText(tr("Building %1…").arg(QString::fromStdString(live.toString())));
  const FilterSet filter = in.filter;
  // A chain of several steps (Chain dock): its fused kernel, what the filter alone would not show
  const std::optional<FilterChain> chain = !in.chain.enabledSteps().empty() && !in.chain.singleFilter()
                                               ? std::optional<FilterChain>(in.chain)
                                               : std::nullopt;
  m_thread = runInBackground<Outcome>(
      this,
      [context, spec, live, filter, chain, w, h]() mutable {
        Outcome out;
        try {
          if (!context) context = std::make_shared<Context>(spec);
          out.context = context;
          out.inspection = chain ? inspectChainKernels(context, *chain, w, h)
                                 : inspectKernels(*context, live, filter, w, h);
        } catch (const std::exception& e) {
          out.inspection.requested = live;
          out.inspection.error = e.what();
        }
        return out;
      },
      [this](Outcome out) {
        if (out.context) m_context = out.context;
        m_busy = false;
        m_refresh->setEnabled(true);
        showInspection(out.inspection);
        emit refreshed();
      });
  return true;
}

void KernelSourceDialog::showInspection(const KernelInspection& inspection) {
  m_inspection = inspection;
  const QString active = QString::fromStdString(
      (inspection.active.name.empty() ? inspection.requested : inspection.active).toString());
  // describe(): with the note, as the statistics name it ("codegen (generic kernel until edits pause)").
  m_title->setText(tr("Live strategy: %1").arg(QString::fromStdString(inspection.requested.describe())));
  const StrategyEntry* entry = findStrategy(inspection.strategy);
  m_title->setToolTip(
      entry ? QString::fromUtf8(entry->description.data(), static_cast<qsizetype>(entry->description.size()))
            : QString());
  const QSignalBlocker block(m_builds);
  m_builds->clear();
  for (const auto& b : inspection.builds) m_builds->addItem(QString::fromStdString(b.label));
  m_builds->setVisible(inspection.builds.size() > 1);
  if (!inspection.error.empty() || inspection.builds.empty()) {
    m_details->setText(inspection.error.empty()
                           ? tr("%1 built no program.").arg(active)
                           : tr("Could not build %1: %2")
                                 .arg(active, QString::fromStdString(inspection.error).toHtmlEscaped()));
    m_source->setPlainText(QString());
    m_outline = {};
    m_outlineLabel->clear();
    return;
  }
  showBuild(0);
}

void KernelSourceDialog::showCustom(const ChainStep& step, int width, int height) {
  // The user's code runs as written, inside the wrapper: what is shown is what the device compiles.
  KernelInspection inspection;
  inspection.requested = StrategyId{"custom"};
  inspection.strategy = "custom";
  inspection.width = width;
  inspection.height = height;
  inspection.builds.push_back(
      {"custom OpenCL", wrapCustomKernelSource(*step.custom),
       "-DBORDER_MODE=" + std::string(borderName(step.filter.border())) + " (the step's border)", 0, false});
  inspection.launches.push_back({"convolve_custom", {std::size_t(width), std::size_t(height)}, {}});
  showInspection(inspection);
  m_title->setText(tr("Live: custom OpenCL step"));
  m_title->setToolTip(tr("Your code, wrapped in ConvoLab's kernel"));
  m_details->setText(tr("The Custom OpenCL panel's kernel, wrapped: common.cl, kernels/custom.cl, then your "
                        "function pixel_value(); the compiler numbers your lines from #line 1 \"user\". One "
                        "work-item per pixel, %1×%2.")
                         .arg(width)
                         .arg(height));
}

QString KernelSourceDialog::detailsText() const {
  const int index = std::max(0, m_builds->currentIndex());
  if (m_inspection.builds.empty() || index >= static_cast<int>(m_inspection.builds.size())) return {};
  const BuildInfo& b = m_inspection.builds[static_cast<size_t>(index)];
  QStringList lines;
  if (const StrategyEntry* entry = findStrategy(m_inspection.strategy))
    lines << QStringLiteral("%1: %2").arg(
        QString::fromStdString(m_inspection.strategy),
        QString::fromUtf8(entry->description.data(), static_cast<qsizetype>(entry->description.size())));
  lines << tr("Strategy: %1 (variant %2), frame %3×%4")
               .arg(QString::fromStdString(m_inspection.strategy),
                    m_inspection.variant.empty() ? tr("default")
                                                 : QString::fromStdString(m_inspection.variant))
               .arg(m_inspection.width)
               .arg(m_inspection.height);
  lines << tr("Program: %1, %2 lines")
               .arg(QString::fromStdString(b.label))
               .arg(QString::fromStdString(b.source).count(QLatin1Char('\n')) + 1);
  lines << tr("Build options: %1").arg(QString::fromStdString(b.options).trimmed());
  for (const auto& l : m_inspection.launches)
    lines << tr("Launch %1: global %2, work-group %3")
                 .arg(QString::fromStdString(l.kernel), sizes(l.global), sizes(l.local));
  lines
      << tr("Build: %1 ms, %2 (in the lab's own context on the same device; the live one shares the on-disk "
            "program cache)")
             .arg(b.buildMs, 0, 'f', 1)
             .arg(b.fromCache ? tr("binary loaded from the program cache") : tr("compiled from source"));
  return lines.join(QLatin1Char('\n'));
}

QString KernelSourceDialog::sourceText() const {
  const int index = std::max(0, m_builds->currentIndex());
  if (index >= static_cast<int>(m_inspection.builds.size())) return {};
  return QString::fromStdString(m_inspection.builds[static_cast<size_t>(index)].source);
}

void KernelSourceDialog::showBuild(int) {
  m_details->setText(detailsText().toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
  const QString source = sourceText();
  m_source->setPlainText(source);
  std::vector<std::string> launched;
  for (const auto& l : m_inspection.launches) launched.push_back(l.kernel);
  m_outline = outlineKernelSource(source.toStdString(), launched);
  m_outlineLabel->setText(outlineText());
  // Open at the kernel itself, not at line 1 of common.cl (again once the view has its size).
  const int line = m_outline.kernelLine;
  showLine(std::max(line, 1));
  QTimer::singleShot(0, this, [this, line] {
    if (m_outline.kernelLine == line) showLine(std::max(line, 1));
  });
}

QString KernelSourceDialog::outlineText() const {
  if (m_outline.sections.empty() && m_outline.kernelLine == 0) return {};
  QStringList parts;
  auto link = [](int line, const QString& text) {
    return QStringLiteral("<a href=\"line:%1\">%2</a>").arg(line).arg(text.toHtmlEscaped());
  };
  for (const SourceSection& s : m_outline.sections)
    parts << link(
        s.firstLine,
        tr("%1 (lines %2–%3)").arg(QString::fromStdString(s.name)).arg(s.firstLine).arg(s.lastLine));
  QString text = parts.isEmpty() ? QString() : tr("Included: %1").arg(parts.join(QStringLiteral(" · ")));
  if (m_outline.kernelLine > 0) {
    if (!text.isEmpty()) text += QStringLiteral(" — ");
    text += link(m_outline.kernelLine, tr("__kernel %1 (line %2)")
                                           .arg(QString::fromStdString(m_outline.kernelName))
                                           .arg(m_outline.kernelLine));
  }
  return text;
}

int KernelSourceDialog::firstVisibleLine() const {
  return m_source->cursorForPosition(QPoint(0, 0)).blockNumber() + 1;
}

void KernelSourceDialog::showLine(int line) {
  const QTextBlock block = m_source->document()->findBlockByNumber(std::max(line, 1) - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  m_source->setTextCursor(cursor);
  // No wrapping: the vertical scroll bar counts lines, so the value is the first line shown.
  m_source->verticalScrollBar()->setValue(block.blockNumber());
}

void KernelSourceDialog::save() {
  if (m_inspection.builds.empty()) return;
  const QString suggested = QString::fromStdString(m_inspection.strategy) + QStringLiteral(".cl");
  const QString path = QFileDialog::getSaveFileName(this, tr("Save kernel source"), suggested,
                                                    tr("OpenCL C (*.cl);;All files (*)"));
  if (path.isEmpty()) return;
  QSaveFile f(path);
  QString header = detailsText();
  header = QStringLiteral("/* ") + header.replace(QStringLiteral("*/"), QStringLiteral("* /")) +
           QStringLiteral(" */\n");
  const QByteArray bytes = (header + sourceText()).toUtf8();
  if (f.open(QIODevice::WriteOnly)) {
    f.write(bytes);
    if (f.commit()) return;
  }
  m_details->setText(tr("Could not write %1").arg(path));
}

}  // namespace convolab::lab
