// SPDX-License-Identifier: MIT
// RecordingSink: a test double of an output sink that keeps every frame the output door gave it (the
// flip-output and output-privacy tests check what leaves the app).
#pragma once

#include <mutex>
#include <vector>

#include "output/output_sink.hpp"

namespace convolab::test {

class RecordingSink : public output::OutputSink {
 public:
  /// `wantsRepeats`: ask for a frame on every pass, as the recorder does, so a still image keeps coming.
  explicit RecordingSink(bool wantsRepeats = false) : m_wantsRepeats(wantsRepeats) {}

  void push(const output::OutputFrame& frame) override;
  std::vector<output::SinkFigures> figures() const override { return {}; }
  bool wantsRepeats() const override { return m_wantsRepeats; }

  std::vector<output::OutputFrame> frames() const;
  std::size_t count() const;

 private:
  const bool m_wantsRepeats;
  mutable std::mutex m_mutex;
  std::vector<output::OutputFrame> m_frames;
};

}  // namespace convolab::test
