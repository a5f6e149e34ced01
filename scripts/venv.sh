#!/usr/bin/env bash
# Shared by run_app.sh and test.sh: make the project-local virtual environment .venv (never the
# system Python) and install the project into it with the given extras, once per change of
# pyproject.toml. Usage: source scripts/venv.sh EXTRAS (e.g. "app" or "test").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
EXTRAS="$1"
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-venv >/dev/null
fi
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
STAMP="$VENV/.installed-$EXTRAS"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[$EXTRAS]"
    touch "$STAMP"
fi
