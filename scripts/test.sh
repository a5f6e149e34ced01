#!/usr/bin/env bash
# Installs everything the tests need (Python packages, Debian's chromium for the
# browser tests) and runs the whole test suite. The README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
if [ ! -x /usr/bin/chromium ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
fi
python3 -m pytest "$@"
