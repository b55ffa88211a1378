// SPDX-License-Identifier: MIT
// The editor's kernel generators: controls, live regeneration and Kernel from Image.
#include "editor/generator_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "convolab/error.hpp"
#include "convolab/generators.hpp"
#include "editor/filter_document.hpp"
#include "editor/kernel_image.hpp"

namespace convolab::gui {

namespace {

/// One parameter's control: its label, range and step (the slider counts tenths).
struct ParamSpec {
  const char* label;
  const char* name;  ///< in running text: "radius 12"
  const char* tip;
  double min, max, step;
  int decimals;
};
const ParamSpec kSpecs[GeneratorPanel::kParamCount] = {
    {QT_TRANSLATE_NOOP("GeneratorPanel", "σ"), QT_TRANSLATE_NOOP("GeneratorPanel", "σ"),
     QT_TRANSLATE_NOOP("GeneratorPanel", "Standard deviation in pixels"), 0.1, 32, 0.1, 2},
    {QT_TRANSLATE_NOOP("GeneratorPanel", "Radius"), QT_TRANSLATE_NOOP("GeneratorPanel", "radius"),
     QT_TRANSLATE_NOOP("GeneratorPanel", "Radius of the disk in pixels"), 0.5, 32, 0.5, 1},
    {QT_TRANSLATE_NOOP("GeneratorPanel", "Length"), QT_TRANSLATE_NOOP("GeneratorPanel", "length"),
     QT_TRANSLATE_NOOP("GeneratorPanel", "Length of the streak in pixels"), 1, 90, 1, 1},
    {QT_TRANSLATE_NOOP("GeneratorPanel", "Angle θ"), QT_TRANSLATE_NOOP("GeneratorPanel", "θ"),
     QT_TRANSLATE_NOOP("GeneratorPanel", "Degrees, counter-clockwise from the +x axis"), -180, 180, 1, 1},
    {QT_TRANSLATE_NOOP("GeneratorPanel", "λ"), QT_TRANSLATE_NOOP("GeneratorPanel", "λ"),
     QT_TRANSLATE_NOOP("GeneratorPanel", "Wavelength of the stripes in pixels"), 1, 64, 0.5, 1},
};
constexpr double kSliderScale = 10;  // slider units a parameter unit

/// The parameters each kind uses.
std::vector<GeneratorPanel::Param> paramsOf(const std::string& kind) {
  using P = GeneratorPanel::Param;
  if (kind == "gaussian" || kind == "log") return {P::Sigma};
  if (kind == "disk") return {P::Radius};
  if (kind == "motion") return {P::Length, P::Angle};
  if (kind == "gabor") return {P::Sigma, P::Angle, P::Lambda};
  return {};
}

double& field(GeneratorParams& p, GeneratorPanel::Param param) {
  switch (param) {
    case GeneratorPanel::Sigma:
      return p.sigma;
    case GeneratorPanel::Radius:
      return p.radius;
    case GeneratorPanel::Length:
      return p.length;
    case GeneratorPanel::Angle:
      return p.angle;
    default:
      return p.lambda;
  }
}

double tenth(double v) {
  return std::round(v * 10) / 10;
}

/// "31×31, radius 15": the parameters as the undo history and the status line name them.
QString describe(const GeneratorParams& p) {
  QString text = QStringLiteral("%1×%1").arg(p.size);
  GeneratorParams copy = p;
  for (GeneratorPanel::Param param : paramsOf(p.kind))
    text += QStringLiteral(", %1 %2%3")
                .arg(GeneratorPanel::tr(kSpecs[param].name))
                .arg(field(copy, param))
                .arg(param == GeneratorPanel::Angle ? QStringLiteral("°") : QString());
  return text;
}

/// The generated kernel of every channel equals the filter's matrix (and divisor): not edited since.
bool matchesGenerator(const FilterSet& filter) {
  try {
    const ChannelFilter made = generateKernel(*filter.generator());
    for (const ChannelFilter& ch : filter.channels())
      if (ch.matrix != made.matrix || ch.divisor != made.divisor) return false;
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

GeneratorPanel::GeneratorPanel(FilterDocument* document, QWidget* parent)
    : QFrame(parent), m_document(document) {
  setObjectName(QStringLiteral("channelCard"));  // the grids' card look
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->setSpacing(6);

  auto* top = new QHBoxLayout;
  top->setSpacing(6);
  auto* title = new QLabel(tr("Generate"), this);
  title->setObjectName(QStringLiteral("channelName"));
  top->addWidget(title);
  m_kind = new QComboBox(this);
  m_kind->setObjectName(QStringLiteral("generatorKind"));
  m_kind->addItem(tr("None"), QString());
  for (const std::string& kind : generatorKinds())
    m_kind->addItem(kindLabel(kind), QString::fromStdString(kind));
  m_kind->setToolTip(
      tr("Make the kernel from a formula; its parameters move the preview live and are saved "
         "with the filter"));
  top->addWidget(m_kind, 1);
  m_size = new QSpinBox(this);
  m_size->setRange(kEditorSize, kMaxFilterSize);
  m_size->setSingleStep(2);
  m_size->setPrefix(tr("K "));
  m_size->setKeyboardTracking(false);  // 31 is not made as 3 first
  m_size->setToolTip(tr("The generated kernel's size (odd, %1 to %2)").arg(kEditorSize).arg(kMaxFilterSize));
  top->addWidget(m_size);
  m_image = new QToolButton(this);
  m_image->setText(tr("From Image…"));
  m_image->setToolTip(tr("Load a grayscale PNG (at most %1×%1 pixels) as a point spread function: white is "
                         "weight, normalised to sum 1")
                          .arg(kMaxFilterSize));
  top->addWidget(m_image);
  layout->addLayout(top);

  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(8);
  grid->setVerticalSpacing(4);
  buildParamRows(grid);
  layout->addLayout(grid);

  auto* statusRow = new QHBoxLayout;
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("monoDim"));
  m_status->setWordWrap(true);
  statusRow->addWidget(m_status, 1);
  m_regenerate = new QToolButton(this);
  m_regenerate->setText(tr("Regenerate"));
  m_regenerate->setToolTip(
      tr("Make the kernel again from the saved parameters (your cell edits are undone; "
         "Ctrl+Z brings them back)"));
  statusRow->addWidget(m_regenerate, 0, Qt::AlignTop);
  layout->addLayout(statusRow);

  connect(m_kind, &QComboBox::activated, this, &GeneratorPanel::onKindChosen);
  connect(m_size, &QSpinBox::valueChanged, this, [this](int k) {
    if (m_updating) return;
    if (k % 2 == 0) {  // typed: the next odd size
      m_size->setValue(k + 1);
      return;
    }
    onParamChanged(kGeneratorMergeKey + kParamCount);
  });
  connect(m_image, &QToolButton::clicked, this, &GeneratorPanel::loadImageWithDialog);
  connect(m_regenerate, &QToolButton::clicked, this, [this] {
    if (const auto& gen = m_document->filter().generator()) generate(*gen);
  });
  connect(m_document, &FilterDocument::filterChanged, this, &GeneratorPanel::refresh);
  refresh(m_document->filter());
}

void GeneratorPanel::buildParamRows(QGridLayout* grid) {
  for (int p = 0; p < kParamCount; ++p) {
    const ParamSpec& spec = kSpecs[p];
    auto* label = new QLabel(tr(spec.label), this);
    auto* slider = new QSlider(Qt::Horizontal, this);
    slider->setRange(static_cast<int>(spec.min * kSliderScale), static_cast<int>(spec.max * kSliderScale));
    slider->setSingleStep(static_cast<int>(spec.step * kSliderScale));
    slider->setPageStep(static_cast<int>(spec.step * kSliderScale * 10));
    auto* box = new QDoubleSpinBox(this);
    box->setRange(spec.min, spec.max);
    box->setSingleStep(spec.step);
    box->setDecimals(spec.decimals);
    for (QWidget* w :
         {static_cast<QWidget*>(label), static_cast<QWidget*>(slider), static_cast<QWidget*>(box)})
      w->setToolTip(tr(spec.tip));
    slider->setAccessibleName(tr(spec.label));
    box->setAccessibleName(tr(spec.label));
    label->setBuddy(box);
    grid->addWidget(label, p, 0);
    grid->addWidget(slider, p, 1);
    grid->addWidget(box, p, 2);
    m_labels[static_cast<size_t>(p)] = label;
    m_sliders[static_cast<size_t>(p)] = slider;
    m_boxes[static_cast<size_t>(p)] = box;
    const int key = kGeneratorMergeKey + p;  // dragging one parameter is one undo step
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, slider, key](double v) {
      if (m_updating) return;
      const QSignalBlocker block(slider);
      slider->setValue(static_cast<int>(std::lround(v * kSliderScale)));
      onParamChanged(key);
    });
    connect(slider, &QSlider::valueChanged, this, [this, box, key](int v) {
      if (m_updating) return;
      {
        const QSignalBlocker block(box);
        box->setValue(v / kSliderScale);
      }
      onParamChanged(key);
    });
  }
  grid->setColumnStretch(1, 1);
}

QString GeneratorPanel::kindLabel(const std::string& kind) {
  if (kind == "gaussian") return tr("Gaussian blur");
  if (kind == "disk") return tr("Disk blur (bokeh)");
  if (kind == "motion") return tr("Motion blur");
  if (kind == "log") return tr("Laplacian of Gaussian");
  if (kind == "gabor") return tr("Gabor");
  return QString::fromStdString(kind);
}

GeneratorParams GeneratorPanel::defaults(const std::string& kind, int size) {
  GeneratorParams p;
  p.kind = kind;
  p.size = size;
  const int r = size / 2;
  if (kind == "gaussian") p.sigma = std::max(0.5, tenth(size / 6.0));
  if (kind == "log") p.sigma = std::max(0.5, tenth(size / 8.0));
  if (kind == "disk") p.radius = std::max(1, r);
  if (kind == "motion") p.length = std::max(1, 2 * r);
  if (kind == "gabor") {
    p.sigma = std::max(0.5, tenth(size / 6.0));
    p.angle = 30;
    p.lambda = std::max(2.0, tenth(size / 4.0));
  }
  return p;
}

GeneratorParams GeneratorPanel::params() const {
  GeneratorParams p;
  p.kind = m_kind->currentData().toString().toStdString();
  p.size = m_size->value();
  for (Param param : paramsOf(p.kind)) field(p, param) = m_boxes[static_cast<size_t>(param)]->value();
  return p;
}

bool GeneratorPanel::generate(const GeneratorParams& params, QString* error, int mergeKey) {
  const FilterSet& current = m_document->filter();
  const QString what = tr("%1 %2").arg(kindLabel(params.kind), describe(params));
  try {
    const ChannelFilter made = generateKernel(params);
    std::array<ChannelFilter, kChannels> channels{made, made, made};
    // Moving a parameter keeps what the user set beside it (a LoG's offset of 128) and the filter's name.
    const bool again = current.generator() && current.generator()->kind == params.kind;
    if (again)
      for (int c = 0; c < kChannels; ++c) channels[static_cast<size_t>(c)].offset = current.channel(c).offset;
    const std::string name = again ? current.name() : kindLabel(params.kind).toStdString();
    m_document->setGenerated(
        FilterSet::make(channels, current.border(), current.borderValue(), name).withGenerator(params), what,
        mergeKey);
  } catch (const Error& e) {
    if (error) *error = tr("%1: not applied — %2").arg(what, QString::fromUtf8(e.what()));
    refresh(m_document->filter());  // the controls show what is in effect
    return false;
  }
  return true;
}

void GeneratorPanel::onKindChosen(int index) {
  const std::string kind = m_kind->itemData(index).toString().toStdString();
  const FilterSet& current = m_document->filter();
  if (kind.empty()) {  // None: the cells stay, the parameters go
    if (current.generator())
      m_document->setGenerated(current.withGenerator(std::nullopt), tr("Forget the generator"));
    return;
  }
  QString error;
  if (!generate(defaults(kind, std::max(current.size(), kEditorSize)), &error)) emit refused(error);
}

void GeneratorPanel::onParamChanged(int mergeKey) {
  if (m_updating || m_kind->currentData().toString().isEmpty()) return;
  QString error;
  if (!generate(params(), &error, mergeKey)) emit refused(error);
}

void GeneratorPanel::showRowsFor(const std::string& kind) {
  const auto used = paramsOf(kind);
  for (int p = 0; p < kParamCount; ++p) {
    const bool shown = std::find(used.begin(), used.end(), static_cast<Param>(p)) != used.end();
    m_labels[static_cast<size_t>(p)]->setVisible(shown);
    m_sliders[static_cast<size_t>(p)]->setVisible(shown);
    m_boxes[static_cast<size_t>(p)]->setVisible(shown);
  }
}

void GeneratorPanel::setControls(const GeneratorParams& params) {
  GeneratorParams copy = params;
  for (int p = 0; p < kParamCount; ++p) {
    const double v = field(copy, static_cast<Param>(p));
    if (v == 0 && p != Angle) continue;  // unused: the box keeps its last value
    m_boxes[static_cast<size_t>(p)]->setValue(v);
    m_sliders[static_cast<size_t>(p)]->setValue(static_cast<int>(std::lround(v * kSliderScale)));
  }
}

void GeneratorPanel::refresh(const FilterSet& filter) {
  m_updating = true;
  m_size->setValue(filter.size());
  const auto& gen = filter.generator();
  m_kind->setCurrentIndex(gen ? std::max(0, m_kind->findData(QString::fromStdString(gen->kind))) : 0);
  showRowsFor(gen ? gen->kind : std::string());
  m_size->setVisible(gen.has_value());  // the editor's size control sizes a matrix that no generator made
  if (gen) setControls(*gen);
  const bool edited = gen && !matchesGenerator(filter);
  if (!gen)
    m_status->setText(tr("Pick a generator to make a kernel from parameters (up to %1×%1), or load an image "
                         "as a point spread function.")
                          .arg(kMaxFilterSize));
  else if (edited)
    m_status->setText(
        tr("Edited since it was generated. The parameters are still saved with the filter; "
           "Regenerate makes the kernel from them again."));
  else
    m_status->setText(tr("Generated: %1. The cells stay editable; the parameters are saved with the filter.")
                          .arg(describe(*gen)));
  m_regenerate->setVisible(edited);
  m_updating = false;
}

bool GeneratorPanel::loadImage(const QString& path, QString* error) {
  const auto kernel = kernelFromImage(path, error);
  if (!kernel) return false;
  const FilterSet& current = m_document->filter();
  const QString name = tr("Kernel from %1").arg(QFileInfo(path).fileName());
  try {
    m_document->setGenerated(FilterSet::make({*kernel, *kernel, *kernel}, current.border(),
                                             current.borderValue(), name.toStdString()),
                             name);
  } catch (const Error& e) {
    if (error) *error = tr("%1: not applied — %2").arg(name, QString::fromUtf8(e.what()));
    return false;
  }
  emit status(tr("%1: %2×%2, normalised to sum 1").arg(name).arg(kernel->size));
  return true;
}

void GeneratorPanel::loadImageWithDialog() {
  if (m_lastDir.isEmpty()) m_lastDir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Kernel from Image"), m_lastDir, tr("Images (*.png *.pgm *.bmp *.tif *.tiff);;All files (*)"));
  if (path.isEmpty()) return;
  m_lastDir = QFileInfo(path).absolutePath();
  QString error;
  if (!loadImage(path, &error)) emit refused(error);
}

}  // namespace convolab::gui
