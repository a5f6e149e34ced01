#!/usr/bin/env bash
# Installs the app into the project's own .venv and starts the workbench on its built-in examples.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh app
exec .venv/bin/python -m streamlit run app.py "$@"
