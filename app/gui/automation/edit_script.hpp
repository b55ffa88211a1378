// SPDX-License-Identifier: MIT
// EditScript: the timed edits of `convolab --script FILE` and their parser (nlohmann_json, no Qt).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/border.hpp"
#include "convolab/filter.hpp"
#include "convolab/generator_params.hpp"

namespace convolab::gui {

/// One scripted edit, applied as a user would make it (docs/GUI.md, "Scripted edits").
struct ScriptAction {
  enum class Kind {
    Filter,
    Cell,
    Border,
    KSize,
    Strategy,
    AddStep,
    RemoveStep,
    ToggleStep,
    RunChain,
    Generator
  };
  Kind kind = Kind::Filter;
  double atMs = 0;  ///< milliseconds after the first painted frame
  std::filesystem::path
      filterPath;    ///< Filter, AddStep: a JSON filter (or chain) file, against the script's folder
  int channel = 0;   ///< Cell: 0 R, 1 G, 2 B
  int row = 0;       ///< Cell: from 0 at the top
  int col = 0;       ///< Cell: from 0 at the left
  double value = 0;  ///< Cell
  BorderMode border = BorderMode::Reflect101;  ///< Border
  int ksize = 0;                               ///< KSize: odd, kScriptMinSize … kScriptMaxSize
  std::string strategy;                        ///< Strategy: a registry name
  /// Cell: the Chain dock's step it edits, from 1 as the list numbers them (0: the editor's own filter);
  /// RemoveStep, ToggleStep: the step.
  int step = 0;
  bool on = false;            ///< RunChain: the Chain dock's "Run the chain"
  GeneratorParams generator;  ///< Generator: as the editor's generators panel makes it (size up to 63)
};

/// "filter", "cell", "border", "ksize", "strategy", "add_step", "remove_step", "toggle_step", "run_chain",
/// "generator": the key that names the action in the file and in --stats.
std::string_view actionKindName(ScriptAction::Kind kind);

/// The smallest matrix the editor works on (FilterDocument's kEditorSize): the size a script may assume
/// before any "ksize" or "filter" action, and the smallest "ksize".
inline constexpr int kScriptMinSize = 7;
/// The largest "ksize": 63, as the editor's size box (kMaxFilterSize; past 15 the editor shows the heat map).
inline constexpr int kScriptMaxSize = kMaxFilterSize;

/// The latest an action may come: a day after the first frame (at_ms ≤ 86,400,000).
inline constexpr double kMaxScriptAtMs = 86'400'000;

struct EditScript {
  std::filesystem::path path;
  std::vector<ScriptAction> actions;  ///< at least one, at_ms strictly increasing
};

/// A script that cannot be used; the message names the file, the action (actions[i]) and the field.
class EditScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads and checks a script (every filter file it names is loaded once to check it). Throws EditScriptError.
EditScript parseEditScript(const std::filesystem::path& path);
/// The same from `text`; `path` names it in messages and anchors relative filter paths.
EditScript parseEditScriptText(std::string_view text, const std::filesystem::path& path);

}  // namespace convolab::gui
