#!/usr/bin/env bash
# Retakes the README's screenshots (docs/screenshots/*.png) with the browser tests that take them.
# The test suite itself writes them to a temporary folder and never changes the tracked images;
# this is the one command that does. Look at the new images, then commit them. Needs Debian's
# chromium, which scripts/test.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh test
NBAPP_SCREENSHOTS=docs/screenshots exec .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/e2e/test_journey.py tests/e2e/test_views.py tests/e2e/test_analyst_journey.py \
    tests/e2e/test_presentation.py "$@"
