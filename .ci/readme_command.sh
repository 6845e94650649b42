#!/usr/bin/env bash
# The README's first command (`pip install . && doubleholdem eval ... && doubleholdem double
# ...`, under '## The two commands'), run in the current directory with a fresh virtual
# environment first on PATH: readme_command.sh [WHEEL]. Run from an unpacked sdist, it is
# the command as written (pip builds the sdist); given a WHEEL, `pip install .` installs
# that wheel instead. PYTHON makes the environment (python3 by default). Used by dist.sh
# and by the release workflow on every platform (Linux, macOS, Windows under bash).
set -euo pipefail
readme=$(cd "$(dirname "$0")/.." && pwd)/README.md
command=$(awk '/^## The two commands/ {on = 1} on && /^pip install \. / {print; exit}' "$readme")
command=${command%$'\r'} # a checkout with Windows line ends
if [ -z "$command" ]; then
    echo "readme_command: README.md has no 'pip install . ...' command under '## The two commands'" >&2
    exit 1
fi
if [ $# -gt 0 ]; then
    command="pip install \"$1\" && ${command#pip install . && }"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
venv=$scratch/venv
"${PYTHON:-python3}" -m venv "$venv"
bin=$venv/bin
if [ -d "$venv/Scripts" ]; then # Windows
    bin=$venv/Scripts
fi
echo "readme_command: in $PWD, with a fresh virtual environment: $command"
PATH="$bin:$PATH" PIP_DISABLE_PIP_VERSION_CHECK=1 bash -euo pipefail -c "$command"
"$bin/python" -c "import doubleholdem; print('readme_command: installed', doubleholdem.__version__)"
