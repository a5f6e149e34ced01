#!/usr/bin/env bash
# Installs the app's requirements and starts the workbench on its built-in examples.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec python3 -m streamlit run app.py "$@"
