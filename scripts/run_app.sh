#!/usr/bin/env bash
# Installs the app into the project's own .venv and starts the workbench on its built-in examples.
# With --processes N: N app processes behind HAProxy (Debian's, installed when missing), for a
# class (scripts/serve_processes.py; README, "Serving a class").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh app
for arg in "$@"; do
    if [[ "$arg" == --processes || "$arg" == --processes=* ]]; then
        if [ ! -x /usr/sbin/haproxy ]; then
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq
            apt-get install -y -qq haproxy >/dev/null
        fi
        exec .venv/bin/python scripts/serve_processes.py "$@"
    fi
done
exec .venv/bin/python -m streamlit run app.py "$@"
