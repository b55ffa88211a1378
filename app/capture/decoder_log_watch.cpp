// SPDX-License-Identifier: MIT
// DecoderLogWatch: an av_log callback (looked up at run time: libavutil comes with OpenCV's videoio, its
// headers do not) that flags the converter's (class "SWScaler") errors on a thread-local and forwards the
// rest.
#include "decoder_log_watch.hpp"

#include <dlfcn.h>

#include <strings.h>
#include <cstdarg>
#include <mutex>

namespace convolab::capture {
namespace {

using LogCallback = void (*)(void*, int, const char*, va_list);
using SetCallback = void (*)(LogCallback);

constexpr int kAvLogError = 16;  // AV_LOG_ERROR

thread_local int t_watching = 0;
thread_local bool t_conversionFailed = false;
LogCallback g_defaultCallback = nullptr;

/// The class name FFmpeg logs under: an AVClass* is the first member of whatever `avcl` points to, and
/// `class_name` is the first member of AVClass.
const char* className(void* avcl) {
  if (!avcl) return "";
  const char* const* avClass = *static_cast<const char* const* const*>(avcl);
  return avClass && *avClass ? *avClass : "";
}

void onFfmpegLog(void* avcl, int level, const char* format, va_list args) {
  if (t_watching > 0 && level <= kAvLogError && ::strcasecmp(className(avcl), "SWScaler") == 0) {
    t_conversionFailed = true;
    return;  // reported by the reader, in words that say what happened to the video
  }
  if (g_defaultCallback) g_defaultCallback(avcl, level, format, args);
}

void installOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    const auto set = reinterpret_cast<SetCallback>(::dlsym(RTLD_DEFAULT, "av_log_set_callback"));
    g_defaultCallback = reinterpret_cast<LogCallback>(::dlsym(RTLD_DEFAULT, "av_log_default_callback"));
    if (set && g_defaultCallback) set(onFfmpegLog);
  });
}

}  // namespace

DecoderLogWatch::DecoderLogWatch() {
  installOnce();
  ++t_watching;
  t_conversionFailed = false;
}

DecoderLogWatch::~DecoderLogWatch() {
  --t_watching;
}

bool DecoderLogWatch::takeConversionFailure() {
  const bool failed = t_conversionFailed;
  t_conversionFailed = false;
  return failed;
}

}  // namespace convolab::capture
