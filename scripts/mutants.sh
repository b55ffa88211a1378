#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation check: puts each listed one-line bug into a copy of the code, builds what it touches, runs the tests
# that should catch it, and counts the mutants the tests kill (a test fails) against those that survive.
#
#   scripts/mutants.sh            every mutant
#   scripts/mutants.sh lowrank    the mutants whose name matches a regex
#
# The copy is a git worktree of the commit to check (MUTANTS_REV, default HEAD) with its own build folder, so
# the working tree you edit is never touched; only committed code is checked. The worktree and its build stay
# between runs (MUTANTS_DIR, default /tmp/convolab-mutants): the first run builds the core, the CLI and the app
# once (tens of minutes on 2 cores); later runs rebuild only what a mutant changes. docs/TESTING.md.
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
mutant snapshot-saves-unfiltered-frame app/gui/automation_run.cpp \
  's/saveFrame(m_options.snapshot, \*frame->filtered, m_options.force)/saveFrame(m_options.snapshot, *frame->original, m_options.force)/' \
  'convolab test_snapshot_pixels' 'app.test_snapshot_pixels'
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

if [[ ! -e $dir/.git ]]; then
  git -C "$repo" worktree add --detach "$dir" "$rev" >/dev/null
fi
# The worktree is ours alone: a forced checkout there drops a mutant left by an interrupted run.
git -C "$dir" checkout --quiet --force --detach "$rev"
# No optimisation and no debug info: the quickest compile; the tests' time is in the OpenCL device anyway.
# MUTANTS_CMAKE_FLAGS adds options (e.g. -DCONVOLAB_BUILD_GUI=OFF, then the app's mutants cannot build).
# shellcheck disable=SC2086
cmake -S "$dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= -DCONVOLAB_BUILD_CLI=ON -DCONVOLAB_BUILD_GUI=ON \
  -DCONVOLAB_TEST_CACHE_DIR="$dir-cache" ${MUTANTS_CMAKE_FLAGS:-} >"$dir-configure.log" 2>&1 ||
  { echo "configure failed: $dir-configure.log"; exit 1; }

build_targets() { nice -n 10 cmake --build "$build" -j "$jobs" --target "$@" >"$dir/build.log" 2>&1; }
run_tests() { nice -n 10 ctest --test-dir "$build" -R "$regex" --no-tests=error --output-on-failure -j "$jobs" >"$dir/ctest-$name.log" 2>&1; }

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
