#!/usr/bin/env bash
# make dist: the sdist and a manylinux wheel into dist/, built and checked the way a
# package index and a user would meet them. The Rust code is compiled once.
#   1. the sdist (maturin sdist);
#   2. the wheel, built from the unpacked sdist (so the sdist is known to build), tagged
#      $MANYLINUX, and checked: auditwheel finds that its shared-library dependencies meet
#      exactly that tag; twine check --strict passes on both files;
#   3. the README's first command (`pip install . && doubleholdem eval ... && doubleholdem
#      double ...`), taken from README.md and run in the unpacked sdist with a fresh virtual
#      environment first on PATH: pip builds the sdist in its own isolated environment
#      (cargo reuses the compiled crates of step 2) and installs it, and both commands run.
# The tools (maturin, auditwheel, twine) live in a virtual environment of their own.
# MANYLINUX: manylinux_2_34 is what a build on glibc 2.34 or newer (Debian 12) meets; the
# release workflow builds older tags in maturin's manylinux containers. x86-64 wheels
# target x86-64-v2 (.cargo/config.toml, which the sdist carries).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
out=$root/${DIST:-dist}
manylinux=${MANYLINUX:-manylinux_2_34}
# A fixed place for the unpacked sdist and its build, so that a second `make dist` reuses
# the compiled crates (the sources keep their mtimes from the archive).
build=$root/target/dist
export CARGO_TARGET_DIR=$build/target

rm -rf "$out" "$build/src" "$build/tools" "$build/fresh"
mkdir -p "$out" "$build/src"
"$python" -m venv "$build/tools"
"$build/tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9.4,<2" "auditwheel>=6" "twine>=5"
tools=$build/tools/bin

"$tools/maturin" sdist --out "$out"
sdist=$(ls "$out"/doubleholdem-*.tar.gz)
tar -xzf "$sdist" -C "$build/src"
unpacked=$(ls -d "$build"/src/doubleholdem-*/)
for member in .cargo/config.toml README.md LICENSE Cargo.lock rust/core/build.rs python/doubleholdem/_core.pyi; do
    if [ ! -f "$unpacked/$member" ]; then
        echo "dist: the sdist lacks $member" >&2
        exit 1
    fi
done

(cd "$unpacked" && "$tools/maturin" build --release --compatibility "$manylinux" --out "$out")
wheel=$(ls "$out"/doubleholdem-*.whl)
shown=$("$tools/auditwheel" show "$wheel")
echo "$shown"
tag=${manylinux}_$(uname -m)
if ! tr -s ' \n' '  ' <<<"$shown" | grep -qF "consistent with the following platform tag: \"$tag\""; then
    echo "dist: auditwheel does not find $(basename "$wheel") consistent with $tag" >&2
    exit 1
fi
if ! "$python" -c 'import sys, zipfile; sys.exit(not any(n.endswith("/LICENSE") and ".dist-info/" in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel"; then
    echo "dist: $(basename "$wheel") does not carry the LICENSE" >&2
    exit 1
fi
"$tools/twine" check --strict "$out"/*

command=$(awk '/^## The two commands/ {on = 1} on && /^pip install \. / {print; exit}' README.md)
if [ -z "$command" ]; then
    echo "dist: README.md has no 'pip install . ...' command under '## The two commands'" >&2
    exit 1
fi
"$python" -m venv "$build/fresh"
echo "dist: in the unpacked sdist, with a fresh virtual environment: $command"
(cd "$unpacked" && PATH="$build/fresh/bin:$PATH" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    bash -euo pipefail -c "$command")
"$build/fresh/bin/python" -c "import doubleholdem; print('dist: installed', doubleholdem.__version__)"
echo "dist: $(cd "$out" && ls | tr '\n' ' ')"
