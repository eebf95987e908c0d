#!/bin/sh
# Installs what the tests need beyond the Python packages: Debian's chromium (Playwright
# drives it through executable_path; `playwright install` cannot download a browser here).
# Run by the README's test command. Where it cannot install (not root, no apt-get), it says so and
# the browser tests are reported as skipped with the reason; it never fails the test run itself.
set -u
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
    echo "test-setup: $($CHROMIUM --version 2>/dev/null || echo chromium) is installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "test-setup: no apt-get here: install Chromium at $CHROMIUM by hand; the browser tests will be skipped"
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "test-setup: not root: run 'sudo apt-get install chromium' for the browser tests; they will be skipped"
    exit 0
fi
echo "test-setup: installing Debian's chromium (a few minutes the first time)…"
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq >/tmp/cardroom-apt.log 2>&1 \
    && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >>/tmp/cardroom-apt.log 2>&1; then
    echo "test-setup: $($CHROMIUM --version 2>/dev/null) installed"
else
    echo "test-setup: apt-get could not install chromium (see /tmp/cardroom-apt.log); the browser tests will be skipped"
fi
exit 0
