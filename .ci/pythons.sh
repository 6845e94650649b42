#!/usr/bin/env bash
# Every supported Python: takes the wheel of make dist ($WHEEL), installs it into a fresh
# virtual environment of each CPython given (make pythons: the oldest and the newest
# supported, 3.9 and 3.13), and runs .ci/smoke.py there: every command and the README
# examples (with the numpy and rl extras, which the README's examples use).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
wheel=${WHEEL:?set WHEEL to the wheel to test (make pythons builds it with make dist)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "pythons: $(basename "$wheel")"
for interpreter in "$@"; do
    if [ -z "$interpreter" ] || [ ! -x "$interpreter" ]; then
        echo "pythons: no such CPython: '$interpreter' (set OLDEST_PYTHON / NEWEST_PYTHON)" >&2
        exit 1
    fi
    rm -rf "$work/venv"
    "$interpreter" -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[numpy,rl]"
    (cd "$work" && "$work/venv/bin/python" "$root/.ci/smoke.py" "$root")
done
