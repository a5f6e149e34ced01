#!/usr/bin/env bash
# Installs everything the tests need into the project's own .venv (Python packages), plus
# Debian's chromium for the browser tests, a Java 17 runtime for Spark and PostgreSQL's server
# binaries (tests/postgres_server.py starts a throwaway cluster with them) and HAProxy (in front of
# two app processes in tests/e2e/test_processes.py), then runs the whole
# test suite. The README's test command; CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh test
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi
exec .venv/bin/python -m pytest "$@"
