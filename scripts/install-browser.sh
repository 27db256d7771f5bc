#!/usr/bin/env bash
# Installs Debian's chromium for tests/web (Playwright drives it; it never downloads a browser).
# Idempotent. Without root or apt it explains itself and leaves the decision to the tests:
# they skip locally and fail under CI=true, so CI can never pass without the browser tests.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-browser: no apt-get here; install chromium yourself (tests/web will be skipped)" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "install-browser: not root and no sudo; run: apt-get install chromium" >&2
        exit 0
    fi
fi
echo "install-browser: apt-get install chromium (once, for the web page tests)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q chromium >/tmp/citesynth-browser.log 2>&1; then
    $SUDO apt-get update -q >>/tmp/citesynth-browser.log 2>&1
    $SUDO apt-get install -y -q chromium >>/tmp/citesynth-browser.log 2>&1 ||
        echo "install-browser: apt-get failed, see /tmp/citesynth-browser.log" >&2
fi
exit 0
