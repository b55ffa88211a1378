// SPDX-License-Identifier: MIT
// ChainController: the Chain dock's logic, no widgets — the list of steps (0–8, each switchable), its switch
// "Run the chain", and its files.
#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

class ChainController : public QObject {
  Q_OBJECT

 public:
  explicit ChainController(QObject* parent = nullptr);

  const std::vector<ChainStep>& steps() const { return m_steps; }
  int size() const { return static_cast<int>(m_steps.size()); }
  bool isFull() const { return size() >= kMaxChainSteps; }
  QString name() const { return m_name; }

  /// Appends a step. Returns why not (empty: done): the chain is full, or the step is not valid here.
  QString append(const ChainStep& step);
  void remove(int index);
  /// Moves step `index` by `delta` places (clamped). Returns its new index.
  int move(int index, int delta);
  void setEnabled(int index, bool enabled);
  /// Replaces the whole list (a preset, a file, the settings).
  void load(const FilterChain& chain);
  void clear();

  /// The switch: while on (and the list has a step), the preview runs the chain instead of the editor's
  /// filter.
  void setOn(bool on);
  bool isOn() const { return m_on; }
  /// The list as a chain; nullopt when it is empty.
  std::optional<FilterChain> chain() const;
  /// What the preview should run: chain() while on, else nullopt.
  std::optional<FilterChain> liveChain() const { return m_on ? chain() : std::nullopt; }

  /// Opens a .json filter or chain file into the list. Returns why not (empty: done).
  QString openFile(const QString& path);
  /// Saves the list as a chain file (FILTER_FORMAT "steps"); refuses an existing file unless `overwrite`.
  QString saveFile(const QString& path, bool overwrite) const;

 signals:
  /// The list changed (a step added, removed, moved, switched, or the whole list replaced).
  void stepsChanged();
  /// The switch changed (by setOn: the panel, the settings, or the other dock winning).
  void onChanged(bool on);
  /// What the preview should run changed.
  void liveChainChanged(const std::optional<convolab::FilterChain>& chain);

 private:
  void changed();

  std::vector<ChainStep> m_steps;
  QString m_name;
  bool m_on = false;
};

}  // namespace convolab::gui
