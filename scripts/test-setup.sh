#!/bin/sh
# Installs what the tests need beyond the Python packages, from Debian's packages:
# - chromium, for the browser tests (Playwright drives it through executable_path;
#   `playwright install` cannot download a browser here);
# - postgresql, for the several-process and fault tests (they start a throwaway cluster of
#   their own on 127.0.0.1; nothing is enabled or started here).
# Run by the README's test command. Where it cannot install (not root, no apt-get), it says so
# and those tests are reported as skipped with the reason; it never fails the test run itself.
set -u
export DEBIAN_FRONTEND=noninteractive
CHROMIUM=/usr/bin/chromium
UPDATED=no

can_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "test-setup: no apt-get here: install $1 by hand; $2 will be skipped"
        return 1
    fi
    if [ "$(id -u)" != "0" ]; then
        echo "test-setup: not root: run 'sudo sh scripts/test-setup.sh' for $2; they will be skipped"
        return 1
    fi
    if [ "$UPDATED" = no ]; then
        apt-get update -qq >>/tmp/cardroom-apt.log 2>&1
        UPDATED=yes
    fi
    return 0
}

if [ -x "$CHROMIUM" ]; then
    echo "test-setup: $($CHROMIUM --version 2>/dev/null || echo chromium) is installed"
elif can_install chromium "the browser tests"; then
    echo "test-setup: installing Debian's chromium (a few minutes the first time)…"
    if apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core \
        >>/tmp/cardroom-apt.log 2>&1; then
        echo "test-setup: $($CHROMIUM --version 2>/dev/null) installed"
    else
        echo "test-setup: apt-get could not install chromium (see /tmp/cardroom-apt.log); the browser tests will be skipped"
    fi
fi

if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then
    echo "test-setup: PostgreSQL is installed"
elif can_install postgresql "the PostgreSQL tests"; then
    echo "test-setup: installing Debian's postgresql…"
    if apt-get install -y -qq postgresql >>/tmp/cardroom-apt.log 2>&1; then
        echo "test-setup: PostgreSQL installed"
    else
        echo "test-setup: apt-get could not install postgresql (see /tmp/cardroom-apt.log); its tests will be skipped"
    fi
fi
exit 0
