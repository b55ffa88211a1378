// SPDX-License-Identifier: MIT
// fused_border.cl — fragment (#include "fused_border.cl"): a border rule chosen at run time, for the fused chains.

// cv::borderInterpolate with the mode at run time (common.cl's border_index is per program); -1: constant.
inline int fused_border(int p, int len, int mode) {
  if ((uint)p < (uint)len) return p;
  if (mode == BORDER_CONSTANT) return -1;
  if (mode == BORDER_REPLICATE) return p < 0 ? 0 : len - 1;
  if (mode == BORDER_WRAP) {
    const int m = p % len;
    return m < 0 ? m + len : m;
  }
  if (len == 1) return 0;
  const int delta = mode == BORDER_REFLECT101 ? 1 : 0;
  do {
    p = p < 0 ? -p - 1 + delta : len - 1 - (p - len) - delta;
  } while ((uint)p >= (uint)len);
  return p;
}
