// SPDX-License-Identifier: MIT
// The helpers' reference (kernels/custom.cl, core/include/convolab/custom_kernel.hpp and custom_trial.hpp say
// the same for programmers).
#include "custom_kernel_help.hpp"

#include <QObject>

#include "convolab/custom_trial.hpp"

namespace convolab::gui {

QString customKernelHelpText() {
  const TrialLimits limits;
  return QObject::tr(
             "<p><b>Your code is the body of a function that returns one output pixel</b> as "
             "<code>float3</code> RGB in 0–255 (rounded and saturated when stored). ConvoLab wraps it in "
             "an OpenCL kernel: no <code>__kernel</code>, no index arithmetic.</p>"
             "<table cellspacing='4'>"
             "<tr><td><code>pixel(dx, dy)</code></td><td>the input at (x+dx, y+dy), float3 RGB 0–255, "
             "read with the border mode chosen above</td></tr>"
             "<tr><td><code>pixel_at(px, py)</code></td><td>the input at an absolute position (same "
             "border)</td></tr>"
             "<tr><td><code>luma(rgb)</code></td><td>0.299 R + 0.587 G + 0.114 B</td></tr>"
             "<tr><td><code>x, y</code></td><td>this pixel (int)</td></tr>"
             "<tr><td><code>width, height</code></td><td>the frame (int)</td></tr>"
             "<tr><td><code>time</code></td><td>seconds (float): 0 on a still, the frame's time in a "
             "video</td></tr>"
             "<tr><td><i>parameters</i></td><td>each by its name, a <code>const float</code> set by its "
             "slider (up to 8)</td></tr></table>"
             "<p>Example: <code>return 255.0f - pixel(0, 0);</code> inverts the colours.</p>"
             "<p><b>Safe to experiment.</b> Each new version is compiled when you pause typing (or "
             "Ctrl+Enter) and first tried in a separate process on a frame of the live size. Only a "
             "version that builds, takes at most %1 ms a frame, ends within %2 s and writes only its "
             "output goes live; otherwise the last good kernel keeps running and the reason is shown. "
             "Compiler errors are underlined on their line (hover for the message). Slider moves apply "
             "at once.</p>")
      .arg(limits.budgetMs)
      .arg(limits.runMs / 1000.0);
}

}  // namespace convolab::gui
