#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a GUI source outside theme.cpp spells a colour (QColor(0x…), QColor(<number>…), #rrggbb, Qt::red…):
# colours are named roles in app/gui/window/theme.hpp, so the palette changes in one place. ctest runs it as
# `colours_in_theme` (label quick).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='QColor\((0x|[0-9])|#[0-9a-fA-F]{6}\b|Qt::(red|green|blue|white|black|gray|darkGray|lightGray|yellow|cyan|magenta)\b'
if grep -rnE "$pattern" app/gui --include='*.cpp' --include='*.hpp' | grep -v '^app/gui/window/theme\.'; then
  echo "check-colours: the colours above belong in app/gui/window/theme.hpp as named roles" >&2
  exit 1
fi
echo "check-colours: no colour spelled outside theme.cpp"
