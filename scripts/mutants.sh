#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation check: puts each listed one-line bug into a copy of the code, builds what it touches, runs the tests
# that should catch it, and counts the mutants the tests kill (a test fails) against those that survive.
#
#   scripts/mutants.sh            every mutant
#   scripts/mutants.sh lowrank    the mutants whose name matches a regex
#   scripts/mutants.sh host34     the group of issue 34.12 (20 bugs outside kernels/)
#
# The copy is a git worktree of the commit to check (MUTANTS_REV, default HEAD) with its own build folder, so
# the working tree you edit is never touched; only committed code is checked. The worktree and its build stay
# between runs (MUTANTS_DIR, default /tmp/convolab-mutants): the first run builds the core, the CLI and the app
# once (through ccache when there is one); later runs rebuild only what a mutant changes. docs/TESTING.md.
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
dir=${MUTANTS_DIR:-/tmp/convolab-mutants}
rev=$(git -C "$repo" rev-parse "${MUTANTS_REV:-HEAD}")
jobs=${MUTANTS_JOBS:-2}
only=${1:-.}
build=$dir/build

# One mutant: name, file, sed expression (changes one line), build targets, ctest regex of the tests that must
# catch it.
names=() files=() exprs=() targets=() regexes=()
mutant() { names+=("$1") files+=("$2") exprs+=("$3") targets+=("$4") regexes+=("$5"); }

# The four that the ±1 tolerance or a missing test let through, and the write in place.
mutant lowrank-store-truncates kernels/lowrank.cl \
  's/store_rgb(dst, x, y, width, acc);/vstore3(convert_uchar3_sat(acc), y * width + x, dst);/' \
  convolab_core_tests 'ExactArithmetic.*(lowrank|separable)'
mutant chunk-cpu-store-saturates-at-254 kernels/chunk.cl \
  's/clamp((x), 0.0f, 255.0f)/clamp((x), 0.0f, 254.0f)/' \
  convolab_core_tests 'ExactArithmetic.Saturation.*(vector|tiled)'
mutant auto-keeps-slowest-finalist core/src/strategies/auto_measure.cpp \
  's/return \*std::min_element(results.begin(), results.end(),/return *std::max_element(results.begin(), results.end(),/' \
  convolab_core_tests 'AutoFastest'
mutant snapshot-saves-unfiltered-frame app/gui/automation/automation_run.cpp \
  's/saveFrame(m_options.snapshot, \*frame->filtered, m_options.force)/saveFrame(m_options.snapshot, *frame->original, m_options.force)/' \
  'convolab convolab_gui_tests' 'app.test_snapshot_pixels'
mutant atomic-write-in-place core/src/atomic_file.cpp \
  's/m_fd = ::mkstemps(tmpl.data(), static_cast<int>(ext.size()));/tmpl = m_target.string(); m_fd = ::open(tmpl.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);/' \
  convolab_core_tests 'AtomicWriteContract'
# The GPU-style store (FAST_STORE 0, run on a CPU device through a -c0 variant) truncating.
mutant chunk-gpu-store-truncates kernels/chunk.cl \
  's/#define TO_UCHAR CAT(CAT(convert_uchar, CHUNK), _sat_rte)/#define TO_UCHAR CAT(CAT(convert_uchar, CHUNK), _sat)/' \
  convolab_core_tests 'ExactArithmetic.TheOtherDeviceTypesCodeStyle.*(vector|tiled|codegen)'
# A damaged JPEG taken for a whole one: by the decoder's report, and by the CLI.
mutant jpeg-damage-unseen app/cv/jpeg_damage.cpp \
  's/if (!probe.damaged) return std::nullopt;/return std::nullopt;/' \
  convolab_cv_tests 'ImageCodec.*Damaged'
mutant cli-writes-damaged-image app/cli/image_batch.cpp \
  's/if (report.damaged && !acceptDamaged)/if (false)/' \
  'convolab-cli convolab_cli_tests' 'cli.Cli.DamagedJpeg'
# The plain kernels' store (naive, constant, local, image, ...) truncating.
mutant common-store-truncates kernels/common.cl \
  's/vstore3(convert_uchar3_sat_rte(value)/vstore3(convert_uchar3_sat(value)/' \
  convolab_core_tests 'ExactArithmetic.*(naive|constant|local)'

# Issue 34.12: twenty of the one-line bugs a tired engineer makes outside the kernels — core host code, the
# video job, the CLI, capture, the GUI's logic, the virtual camera's conversions and the output's letterbox, the
# OpenCV bridge. Group `host34` (run them alone with `scripts/mutants.sh host34`). Each names the tests that must
# catch it; docs/TESTING.md lists what killed each.
mutant host34-border-reflect-fold-off-by-one core/src/border.cpp \
  's/p = len - 1 - (p - len) - delta;/p = len - (p - len) - delta;/' \
  convolab_core_tests 'Border\.'
mutant host34-text-writes-divisor-as-offset core/src/filter_text_io.cpp \
  's/out += "offset: " + formatNumber(f.offset)/out += "offset: " + formatNumber(f.divisor)/' \
  convolab_core_tests 'FilterText|PerChannelIo'
mutant host34-json-border-value-first-channel-only core/src/filter_io.cpp \
  's/borderValue\[c\] = number(bv\[c\], source/borderValue[c] = number(bv[0], source/' \
  convolab_core_tests 'FilterJson|PerChannelIo'
mutant host34-trim-ignores-negative-weights core/src/filter.cpp \
  's/if (c.at(j, i) != 0.0) support = /if (c.at(j, i) > 0.0) support = /' \
  convolab_core_tests 'FilterSupport|TrimSupport'
mutant host34-fused-edge-fill-of-first-step core/src/fused_chain.cpp \
  '/void FusedChain::prepareLiteral/,/uploadFloats/s/borderValuesOf(s.filter)/borderValuesOf(steps.front().filter)/' \
  convolab_core_tests 'ChainFused'
mutant host34-chain-steps-run-backwards core/src/chain_runner.cpp \
  '/int cur = 0;/,/cur = next;/s/Step& s = m_steps\[i\];/Step\& s = m_steps[m_steps.size() - 1 - i];/' \
  convolab_core_tests 'ChainEngine|ChainStrategies|ChainFused'
mutant host34-video-border-value-in-rgb-order app/jobs/video_device_stage.cpp \
  's/{v\[2\], v\[1\], v\[0\]}/v/' \
  convolab_jobs_tests 'jobs\.'
mutant host34-timeline-truncates-times app/jobs/frame_timeline.cpp \
  's/return place(std::llround(bounded) - m_cut);/return place(static_cast<std::int64_t>(bounded) - m_cut);/' \
  convolab_video_tests 'video\.FrameTimeline'
mutant host34-cli-collision-keyed-by-input app/cli/batch_plan.cpp \
  's/const std::string key = fs::weakly_canonical(item.output, ec).string();/const std::string key = fs::weakly_canonical(in, ec).string();/' \
  'convolab-cli convolab_cli_batch_tests' 'cli\.ApplyBatch\.Outputs'
mutant host34-cli-suffix-after-extension app/cli/batch_plan.cpp \
  's/in.stem().string() + suffix + in.extension().string()/in.stem().string() + in.extension().string() + suffix/' \
  'convolab-cli convolab_cli_batch_tests' 'cli\.ApplyBatch\.Outputs'
mutant host34-cli-video-replaced-without-force app/cli/apply_videos.cpp \
  's/\.overwrite = s\.force,/.overwrite = true,/' \
  'convolab-cli convolab_cli_video_tests' 'cli\.ApplyVideo\.'
mutant host34-seek-loses-half-ms-tolerance app/capture/video_reader.cpp \
  's/^  ms += kSameTimeMs;/  ms += 0.0;/' \
  convolab_video_tests 'video\.VideoReader'
mutant host34-video-position-truncates app/capture/video_file_source.cpp \
  's/m_position = std::llround(m_positionMs \* m_fps \/ 1000.0);/m_position = static_cast<std::int64_t>(m_positionMs * m_fps \/ 1000.0);/' \
  'convolab_video_tests convolab_capture_tests' 'VideoFileSource|ThirtyFpsClip'
mutant host34-undo-history-unbounded app/gui/editor/filter_document.cpp \
  's/m_undo.setUndoLimit(kUndoLimit);/m_undo.setUndoLimit(0);/' \
  'convolab convolab_gui_tests' 'app\.test_editor_input'
mutant host34-divisor-undo-merges-channels app/gui/editor/filter_document.cpp \
  's/return 1000 + field \* 10 + channel;/return 1000 + field * 10;/' \
  'convolab convolab_gui_tests' 'app\.test_(editor_input|filter_editor|undo_steps)'
mutant host34-normalise-negative-sum-offset-0 app/gui/editor/filter_document.cpp \
  's/channel.offset = 255;/channel.offset = 0;/' \
  'convolab convolab_gui_tests' 'app\.test_(editor_input|filter_editor)'
mutant host34-fps-cap-without-jitter-allowance app/gui/processing/frame_rate_cap.cpp \
  's/if (captured + period \/ 10 < m_next)/if (captured < m_next)/' \
  'convolab convolab_gui_tests' 'app\.test_frame_rate_cap'
mutant host34-letterbox-centred-on-the-width app/output/letterbox.cpp \
  's/r.y = (outHeight - r.height) \/ 2;/r.y = (outWidth - r.height) \/ 2;/' \
  convolab_output_tests 'LetterboxTest'
mutant host34-yuy2-chroma-of-one-pixel app/pipewire/frame_conversion.cpp \
  's/(in\[1\] + in\[4\] + 1) >> 1/(in[1] + in[1] + 1) >> 1/' \
  convolab_vcam_tests 'FrameConversion'
mutant host34-alpha-images-red-blue-swapped app/cv/mat_adapter.cpp \
  's/cv::COLOR_BGRA2RGB/cv::COLOR_RGBA2RGB/' \
  convolab_cv_tests 'MatAdapter|ImageCodec'

if [[ ! -e $dir/.git ]]; then
  git -C "$repo" worktree add --detach "$dir" "$rev" >/dev/null
fi
# The worktree is ours alone: a forced checkout there drops a mutant left by an interrupted run.
git -C "$dir" checkout --quiet --force --detach "$rev"
# The shared compiler cache, as /work/bin/wt-build uses it: the build type and options of the main build
# (RelWithDebInfo) and paths relative to CCACHE_BASEDIR, so a worktree's first build is mostly cache hits and a
# mutant recompiles only its own file. On the shared machine the cache is seeded by the lead's build: wait for it
# (MUTANTS_WAIT_FOR, a file; empty: do not wait). Without ccache it builds plainly.
# MUTANTS_CMAKE_FLAGS adds options (e.g. -DCONVOLAB_BUILD_GUI=OFF, then the app's mutants cannot build).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache} CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$dir")} CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
seed=${MUTANTS_WAIT_FOR-$(if [[ -d /work/main/build ]]; then echo /work/main/build/.seeded; fi)}
while [[ -n $seed && ! -e $seed ]]; do echo "waiting for the shared cache to be seeded ($seed)"; sleep 30; done
# shellcheck disable=SC2086
cmake -S "$dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${MUTANTS_BUILD_TYPE:-RelWithDebInfo} \
  -DCONVOLAB_BUILD_CLI=ON -DCONVOLAB_BUILD_GUI=ON "${launcher[@]}" \
  -DCONVOLAB_TEST_CACHE_DIR="$dir-cache" ${MUTANTS_CMAKE_FLAGS:-} >"$dir-configure.log" 2>&1 ||
  { echo "configure failed: $dir-configure.log"; exit 1; }

# nice -n 10: the machine is shared (2 cores, several builds); MUTANTS_JOBS sets ninja's -j.
build_targets() { nice -n 10 cmake --build "$build" -j "$jobs" --target "$@" >"$dir/build.log" 2>&1; }
# A test without a TIMEOUT of its own stops after MUTANTS_TEST_TIMEOUT seconds (ctest's default is 1500): a mutant
# that makes a test hang (a border fold that never ends) counts as killed when the timeout ends it.
run_tests() {
  nice -n 10 ctest --test-dir "$build" -R "$regex" --no-tests=error --output-on-failure -j "$jobs" \
    --timeout "${MUTANTS_TEST_TIMEOUT:-120}" >"$dir/ctest-$name.log" 2>&1
}

echo "mutants of $(git -C "$dir" log -1 --format='%h %s' | cut -c1-80)"
total=0 killed=0
survivors=()
for i in "${!names[@]}"; do
  name=${names[i]} file=${files[i]} expr=${exprs[i]} regex=${regexes[i]}
  [[ $name =~ $only ]] || continue
  total=$((total + 1))
  read -r -a target_list <<<"${targets[i]}"
  # Unmutated first: its tests must pass, so a failure below is the mutant's (not the build's, nor a test
  # that fails anyway).
  rm -f "$dir/ctest-$name.log"
  if ! build_targets "${target_list[@]}"; then
    echo "  $name: not counted, the unmutated code does not build ($dir/build.log)"
    survivors+=("$name (baseline does not build)")
    continue
  fi
  if ! run_tests; then
    echo "  $name: not counted, its tests fail on the unmutated code ($dir/ctest-$name.log)"
    survivors+=("$name (baseline fails)")
    continue
  fi
  sed -i "$expr" "$dir/$file"
  if git -C "$dir" diff --quiet -- "$file"; then
    echo "  $name: the expression no longer matches $file (update the mutant)"
    survivors+=("$name (stale)")
    continue
  fi
  verdict=survived
  # A mutated kernel compiles at run time: a test that fails on its build error would count as a kill, so the
  # expressions must keep the code valid (check $dir/ctest-NAME.log when adding one).
  if ! build_targets "${target_list[@]}"; then
    verdict="not counted: it does not build ($dir/build.log)"
  elif ! run_tests; then
    verdict=killed
  fi
  git -C "$dir" checkout --quiet -- "$file"
  echo "  $name: $verdict"
  if [[ $verdict == killed ]]; then killed=$((killed + 1)); else survivors+=("$name"); fi
done
echo "$killed of $total killed"
[[ ${#survivors[@]} -eq 0 ]] || { printf 'survived: %s\n' "${survivors[@]}"; exit 1; }
