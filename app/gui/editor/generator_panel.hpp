// SPDX-License-Identifier: MIT
// GeneratorPanel: the filter editor's kernel generators (issue 31) — Gaussian (σ), disk/bokeh (radius),
// motion blur (length, angle), Laplacian of Gaussian (σ), Gabor (σ, θ, λ) with live parameters, and Kernel
// from Image. Moving a parameter regenerates the kernel into the document at once (the preview takes it on
// the next frame; one undo step per parameter dragged). The kernel stays editable: an edit keeps the
// parameters, and the panel says the kernel was edited since (Regenerate makes it again).
#pragma once

#include <QFrame>
#include <array>
#include <string>

#include "convolab/filter.hpp"
#include "convolab/generator_params.hpp"

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace convolab::gui {

class FilterDocument;

class GeneratorPanel : public QFrame {
  Q_OBJECT

 public:
  enum Param { Sigma, Radius, Length, Angle, Lambda, kParamCount };

  explicit GeneratorPanel(FilterDocument* document, QWidget* parent = nullptr);

  /// "None", then the kinds of convolab::generatorKinds() (item data: the kind's name, "" for none).
  QComboBox* kindBox() const { return m_kind; }
  QSpinBox* sizeBox() const { return m_size; }
  QDoubleSpinBox* paramBox(Param p) const { return m_boxes[static_cast<size_t>(p)]; }
  QSlider* paramSlider(Param p) const { return m_sliders[static_cast<size_t>(p)]; }
  QLabel* statusLabel() const { return m_status; }
  QToolButton* regenerateButton() const { return m_regenerate; }
  QToolButton* imageButton() const { return m_image; }

  /// What the controls show (parameters the kind does not use are 0).
  GeneratorParams params() const;
  /// Makes `params`' kernel the document's filter, as moving a control does (scripts and tests call it):
  /// false with the reason in `error` (a parameter out of range) and nothing changed.
  bool generate(const GeneratorParams& params, QString* error = nullptr, int mergeKey = 0);
  /// Kernel from image (kernel_image.hpp): false with the reason in `error`, the filter unchanged.
  bool loadImage(const QString& path, QString* error = nullptr);
  /// The parameters a kind starts with at size K (scaled to K: a 31×31 disk gets radius 15).
  static GeneratorParams defaults(const std::string& kind, int size);
  /// "Disk blur (bokeh)": the kind as the user reads it.
  static QString kindLabel(const std::string& kind);

 public slots:
  void loadImageWithDialog();

 signals:
  /// A refusal to show under the editor (a parameter out of range, an image that is no kernel).
  void refused(const QString& message);
  /// A status-bar line ("Kernel from psf.png: 31×31, normalised").
  void status(const QString& message);

 private:
  void buildParamRows(QGridLayout* grid);
  void refresh(const FilterSet& filter);
  void onKindChosen(int index);
  void onParamChanged(int mergeKey);
  void showRowsFor(const std::string& kind);
  void setControls(const GeneratorParams& params);

  FilterDocument* m_document;
  QComboBox* m_kind;
  QSpinBox* m_size;
  QToolButton* m_image;
  std::array<QLabel*, kParamCount> m_labels{};
  std::array<QSlider*, kParamCount> m_sliders{};
  std::array<QDoubleSpinBox*, kParamCount> m_boxes{};
  QLabel* m_status;
  QToolButton* m_regenerate;
  QString m_lastDir;
  bool m_updating = false;
};

}  // namespace convolab::gui
