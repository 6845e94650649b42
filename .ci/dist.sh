#!/usr/bin/env bash
# make dist: the sdist and a manylinux wheel into dist/, built and checked the way a
# package index and a user would meet them.
#   1. the sdist (maturin sdist);
#   2. the wheel, built from the unpacked sdist (so the sdist is known to build), tagged
#      $MANYLINUX, and checked (check_wheel.sh): auditwheel finds that its shared-library
#      dependencies and their symbol versions meet exactly that tag, auditwheel repair
#      changes nothing; twine check --strict passes on both files;
#   3. the README's first command (`pip install . && doubleholdem eval ... && doubleholdem
#      double ...`), run in the unpacked sdist with a fresh virtual environment first on
#      PATH (readme_command.sh): pip builds the sdist in its own isolated environment, as a
#      user's machine would (its own linker, no zig), installs it, and both commands run.
# The tools (maturin, auditwheel, twine, and zig from the ziglang package) live in a virtual
# environment of their own.
# MANYLINUX: manylinux_2_17 (manylinux2014: glibc 2.17 and newer, every Linux pip meets but
# the musl ones). zig links the extension against glibc 2.17's symbol versions, whatever the
# glibc of the machine that builds it (`maturin build --zig`, no container). Steps 2 and 3
# link differently, so cargo compiles the crates twice (a second `make dist` reuses both).
# x86-64 wheels target x86-64-v2 (.cargo/config.toml, which the sdist carries); the faster
# kernels (AVX-512) are chosen at run time, whatever the tag.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-python3}
out=$root/${DIST:-dist}
manylinux=${MANYLINUX:-manylinux_2_17}
# A fixed place for the unpacked sdist and its build, so that a second `make dist` reuses
# the compiled crates (the sources keep their mtimes from the archive).
build=$root/target/dist
export CARGO_TARGET_DIR=$build/target
# shellcheck source=SCRIPTDIR/check_wheel.sh
source .ci/check_wheel.sh

rm -rf "$out" "$build/src" "$build/tools"
mkdir -p "$out" "$build/src"
"$python" -m venv "$build/tools"
"$build/tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9.4,<2" "auditwheel>=6" "twine>=5" "ziglang>=0.17,<0.18"
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

# (maturin finds zig through the tools' python: `python -m ziglang`)
(cd "$unpacked" && PATH="$tools:$PATH" \
    maturin build --release --zig --compatibility "$manylinux" --out "$out")
wheel=$(ls "$out"/doubleholdem-*.whl)
check_wheel "$tools" "$wheel" "${manylinux}_$(uname -m)"
"$tools/twine" check --strict "$out"/*.tar.gz

(cd "$unpacked" && PYTHON=$python bash "$root/.ci/readme_command.sh")
echo "dist: $(cd "$out" && ls | tr '\n' ' ')"
