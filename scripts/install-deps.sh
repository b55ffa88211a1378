#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs, with apt-get, whatever ConvoLab needs to build, run and test that is not yet installed.
# Debian 12 (bookworm). Run as root or with sudo available. Idempotent: does nothing when all is present.
set -euo pipefail

packages=(
  # build tools; lld links the ~60 test programs in a quarter of GNU ld's time (CMakeLists.txt: CONVOLAB_LINKER)
  build-essential cmake ninja-build pkg-config git lld
  # OpenCL: headers, C++ bindings, ICD loader, PoCL as the CPU device, clinfo for diagnosis
  opencl-c-headers opencl-clhpp-headers ocl-icd-opencl-dev ocl-icd-libopencl1 pocl-opencl-icd clinfo
  # header-only helpers used by core and the CLI
  nlohmann-json3-dev libeigen3-dev libcli11-dev libspdlog-dev
  # VkFFT (header-only): the fft strategy's transforms (core/src/fft_plan.cpp)
  libvkfft-dev
  # OpenCV: only the modules we use (core, imgproc, imgcodecs, videoio); libjpeg (OpenCV's JPEG decoder)
  # directly, whose warnings tell a damaged JPEG
  libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev libopencv-videoio-dev libjpeg-dev
  # FFmpeg's libavformat/libavcodec (the ones videoio decodes with): the frame size each video packet declares
  # (app/capture/frame_size_watch.cpp), which OpenCV does not report
  libavformat-dev libavcodec-dev libavutil-dev
  # Qt6 Widgets + Charts + SVG icons (+ OpenGL widgets: the preview); EGL + GLES 3: bench --latency's display
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libegl-dev libgles-dev
  # the virtual camera (app/vcam): libpipewire; its tests start a private PipeWire (daemon, session manager,
  # session bus) and read the node with GStreamer's pipewiresrc (plugins-base: videotestsrc, videoconvert;
  # plugins-good: pngenc, multifilesink). The app runs without a PipeWire daemon.
  libpipewire-0.3-dev pipewire wireplumber dbus gstreamer1.0-pipewire gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  # tests
  libgtest-dev libgmock-dev xvfb xauth
  # packaging and its checks (dpkg-shlibdeps, desktop-file-validate, appstreamcli)
  dpkg-dev file desktop-file-utils appstream
  # the sanitizer + fuzzer build of `make test` (clang, libFuzzer runtime)
  clang libclang-rt-14-dev
  # `make test`'s style check and `make format`
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
