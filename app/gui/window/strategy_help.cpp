// SPDX-License-Identifier: MIT
// The strategies explained: the registry's one line, then how each works and where it wins. The numbers are
// those of docs/BENCHMARKS.md (H100 through NVIDIA's OpenCL, a 2-core AVX-512 CPU through PoCL).
#include "window/strategy_help.hpp"

#include <QCoreApplication>

#include "convolab/registry.hpp"
#include "window/help_dialogs.hpp"

namespace convolab::gui {

namespace {

struct Text {
  const char* name;
  const char* how;
  const char* wins;
};

// QT_TRANSLATE_NOOP: translated in the "StrategyHelp" context.
#define T(text) QT_TRANSLATE_NOOP("StrategyHelp", text)
const Text kTexts[] = {
    {"naive",
     T("One work-item computes one output pixel: it reads the K×K neighbourhood and the weights from global "
       "memory in run-time loops, resolving the border for every tap. Nothing is specialised, so it builds "
       "once and runs on every device and filter."),
     T("Never the fastest: it is the reference kernel and the last fallback when every other strategy "
       "declines.")},
    {"constant",
     T("The weights live in __constant memory and K is a build option, so the compiler unrolls the tap "
       "loops. Pixels away from the edges take a fast path without border checks."),
     T("Small filters on GPUs with a fast constant cache; on the H100 it is 1.6× faster than naive at "
       "1080p, but beaten by the tiled kinds.")},
    {"vector",
     T("Each work-item computes several neighbouring pixels of a row with vector loads and stores "
       "(vload/vstore), so one wide load feeds several outputs and the SIMD lanes of a CPU stay busy."),
     T("CPUs through PoCL without local memory tricks: 15 ms for a dense 7×7 at 1080p on a 2-core AVX-512 "
       "CPU, 6× faster than naive.")},
    {"local",
     T("A work-group first copies its tile of the frame plus a halo of K−1 pixels into local (on-chip) "
       "memory, waits at a barrier, then every work-item convolves from there. Each input pixel is read "
       "from global memory once per group instead of K² times. The work-group shape is a tuning variant."),
     T("GPUs, when the tile fits local memory: 67 µs on the H100 for a dense 7×7 at 1080p (naive: 159 µs). "
       "On CPUs the barrier costs more than it saves.")},
    {"image",
     T("The frame is packed into an RGBA image2d_t and read through a sampler, so the texture cache and its "
       "2-D locality serve the neighbourhood reads. Declines on devices without image support."),
     T("Rarely: GPUs whose texture path beats plain loads. Very slow on PoCL (670 ms at 1080p).")},
    {"separable",
     T("For filters of rank 1 (Gaussian, box, Sobel): the matrix is a column times a row, so it runs two "
       "1-D passes, rows then columns, 2K multiplies a pixel instead of K². Declines filters whose rank "
       "(SVD, see the Analysis dock) is above 1."),
     T("Rank-1 filters with large K, where 2K ≪ K²; on the H100 the generated codegen kernel fuses the two "
       "passes and is faster still (Gaussian 7×7: 41 vs 31 µs).")},
    {"tiled",
     T("Register tiling: the work-group stages a local-memory tile, and each work-item then computes a "
       "block of outputs, keeping the overlapping inputs in registers so every loaded value feeds several "
       "pixels. Block and work-group sizes are tuning variants."),
     T("CPUs through PoCL: the fastest dense 7×7 there (6.2 ms at 1080p on 2 cores, 3.9× OpenCV's CPU "
       "filter2D).")},
    {"codegen",
     T("OpenCL source written for this very filter: every coefficient is a literal in the code, zero taps "
       "are left out and a rank-1 filter becomes a fused separable pass. A coefficient edit runs at once on "
       "a generic kernel; the new literals are compiled in the background once edits pause."),
     T("GPUs, most filters: the fastest dense 7×7 on the H100 (33 µs at 1080p, 31× OpenCV's UMat per "
       "channel), and sparse filters everywhere, since skipped taps cost nothing.")},
    {"lowrank",
     T("The SVD writes the matrix as a sum of r separable terms. One launch runs the r row passes into 3·r "
       "float planes, a second sums their column passes. Accepted when that is cheaper than dense "
       "(3·r ≤ K, so r ≤ 2 for K = 7)."),
     T("Large filters of low rank that are not exactly separable, e.g. the sum of two blurs.")},
    {"sliding",
     T("Generated like codegen, but without local memory: each work-item walks down a strip of the frame, "
       "loads every input row once (whole words) and pushes it into the K output rows it keeps open in "
       "registers; rank-1 filters run in one pass."),
     T("Correct everywhere, but measured slower than codegen on the H100 and on PoCL, so auto does not pick "
       "it there; worth comparing on other GPUs.")},
    {"dynamic",
     T("K, the border mode and the weights are kernel arguments: one program per device, built once, runs "
       "every filter with run-time tap loops, several pixels per work-item."),
     T("While you edit: a new filter never waits for a compile. auto runs it at once for a filter structure "
       "it has not measured yet, until a faster strategy is found.")},
    {"fft",
     T("For large kernels: the frame is padded with the border mode, transformed to the frequency domain "
       "(VkFFT), multiplied by the filter's transform (computed once per filter change) and transformed "
       "back, then rounded and saturated. Its cost hardly depends on K. Declines K below 17, where a direct "
       "strategy is cheaper."),
     T("K of 31 and more: on the H100 a dense 63×63 at 1080p takes 0.20 ms (local: 5.2 ms, PyTorch "
       "conv2d: 7.5 ms); on PoCL a 63×63 at 720p takes 84 ms (dynamic: 1.8 s).")},
    {"auto",
     T("Runs a new filter structure at once on dynamic, then measures every strategy (and tuning variant) "
       "that accepts this device and filter on a crop of the frame, behind the live preview, and swaps in "
       "the winner between frames when it is at least 10 % faster. The choice is remembered per device, "
       "frame size and filter structure."),
     T("Always a good default: it is the fastest measured strategy for what you are doing. Processing ▸ "
       "Compare Strategies… shows the same measurement as a table.")},
};
#undef T

QString tr(const char* text) {
  return QCoreApplication::translate("StrategyHelp", text);
}

QString section(const StrategyHelp& h, const QString& heading) {
  return QStringLiteral("<h3>%1</h3><p><i>%2</i></p><p><b>%3</b> %4</p><p><b>%5</b> %6</p>")
      .arg(heading.toHtmlEscaped(), h.summary.toHtmlEscaped(), tr("How it works."), h.how.toHtmlEscaped(),
           tr("When it wins."), h.wins.toHtmlEscaped());
}

}  // namespace

StrategyHelp strategyHelp(const QString& name) {
  StrategyHelp h;
  h.name = name;
  if (const StrategyEntry* e = findStrategy(name.toStdString()))
    h.summary = QString::fromUtf8(e->description.data(), static_cast<qsizetype>(e->description.size()));
  for (const Text& t : kTexts)
    if (name == QLatin1String(t.name)) {
      h.how = tr(t.how);
      h.wins = tr(t.wins);
    }
  return h;
}

QString strategyHelpHtml(const QString& requested, const StrategyId& live) {
  const QString asked = requested.isEmpty() ? QString::fromLatin1(kAutoStrategy.data()) : requested;
  const StrategyHelp main = strategyHelp(asked);
  QString html;
  if (main.how.isEmpty()) {
    html = QStringLiteral("<p>%1</p>")
               .arg(tr("'%1' is no strategy this version knows.").arg(asked).toHtmlEscaped());
  } else {
    html = section(main, asked);
  }
  const QString running = QString::fromStdString(live.name);
  if (!running.isEmpty() && running != asked) {
    const StrategyHelp now = strategyHelp(running);
    if (!now.how.isEmpty())
      html += section(now, tr("Running now: %1").arg(QString::fromStdString(live.toString())));
  }
  html +=
      QStringLiteral("<p style='margin-top:12px'>%1</p>")
          .arg(tr("Processing ▸ Strategy switches it; Processing ▸ Compare Strategies… (Ctrl+M) times them "
                  "all on this frame; View ▸ Kernel Source… (Ctrl+Shift+K) shows the OpenCL C it runs.")
                   .toHtmlEscaped());
  return html;
}

void showStrategyHelp(QWidget* parent, const QString& requested, const StrategyId& live) {
  showHtmlDialog(parent, QStringLiteral("strategyHelpDialog"), tr("What is this strategy?"),
                 strategyHelpHtml(requested, live));
}

}  // namespace convolab::gui
