#!/bin/sh
# Services some tests need: PostgreSQL (the multi-process and fault tests start a throwaway
# cluster of their own on 127.0.0.1; nothing is enabled or started here).
# Like install-browser.sh this never fails the run: without PostgreSQL those tests are skipped
# and say why.
set +e
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then
    echo "install-test-services: PostgreSQL is already installed"
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    # the package's post-install creates a default cluster; no systemd here, so it stays stopped
    if apt-get install -y -q postgresql >/dev/null 2>&1 \
        || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q postgresql >/dev/null 2>&1); then
        echo "install-test-services: PostgreSQL installed"
    else
        echo "install-test-services: could not install PostgreSQL: its tests will be skipped"
    fi
else
    echo "install-test-services: not root or no apt-get: PostgreSQL tests will be skipped"
fi
exit 0
