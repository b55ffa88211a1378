#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a test program inside its own session bus, with a fresh XDG_RUNTIME_DIR, so the PipeWire daemons the
# test starts (private_pipewire.cpp) never meet the desktop's; everything is removed afterwards. Where the
# tools are missing the test still runs and skips, naming what is missing.
runtime=$(mktemp -d "${TMPDIR:-/tmp}/convolab-pw.XXXXXX") || exit 1
trap 'rm -rf "$runtime"' EXIT INT TERM
export XDG_RUNTIME_DIR="$runtime"
unset PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS
for tool in pipewire wireplumber dbus-run-session; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    CONVOLAB_PIPEWIRE_SKIP="$tool is not installed (scripts/install-deps.sh installs it)" "$@"
    exit $?
  fi
done
dbus-run-session -- "$@"
