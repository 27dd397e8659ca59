#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/browser/**) when it is not already there.
# CI runs as root; elsewhere, run it with sudo or install the `chromium` package yourself.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: $CHROMIUM is missing and apt-get is not available; install chromium yourself" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-chromium: $CHROMIUM is missing and this is not root; run as root or install chromium" >&2
    exit 1
  fi
fi

echo "install-chromium: installing Debian's chromium with apt-get" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
if [ ! -x "$CHROMIUM" ]; then
  echo "install-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
"$CHROMIUM" --version >&2 || true
