#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a C++ source under app/, core/ or tests/ that git tracks is not clang-formatted (.clang-format at
# the root; `make format` fixes it). ctest runs it as `clang_format` (label quick), so `make test` checks it.
# Exit 77 (ctest: skipped) outside a git checkout, where there is no list of tracked sources.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null ||
  { echo "check-format: clang-format is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "check-format: not a git checkout"; exit 77; }
files=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] && files+=("$f")  # deleted in the working tree, not yet in the index: no longer a source
done < <(git ls-files -z -- 'app/*.cpp' 'app/*.hpp' 'core/*.cpp' 'core/*.hpp' 'tests/*.cpp' 'tests/*.hpp')
clang-format --dry-run -Werror "${files[@]}"
echo "check-format: ${#files[@]} files clang-formatted"
