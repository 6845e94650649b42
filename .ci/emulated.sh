#!/usr/bin/env bash
# The aarch64 wheel run on an emulated aarch64 (wheels.sh): emulated.sh AARCH64_WHEEL X86_WHEEL.
# Debian's arm64 python3.11 and the libraries it needs are downloaded by apt with a state of
# its own (the machine's architectures and package lists are left as they are) and unpacked
# into target/dist/arm64/root; qemu-aarch64 (Debian's qemu-user) runs it there. The aarch64
# wheel and rtoml's aarch64 wheel are unpacked beside it. Then, under qemu and natively with
# the x86-64 wheel, the same commands run and must print the same: the README's first command
# (past its `pip install .`), and the count of every category over all 5- and 6-card hands.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
emulated_wheel=$1
native_wheel=$2
arm64=$root/target/dist/arm64
tools=$root/target/dist/tools/bin
sysroot=$arm64/root

rm -rf "$arm64"
mkdir -p "$arm64/apt/lists/partial" "$arm64/apt/archives/partial" "$arm64/apt/parts" \
    "$arm64/emulated" "$arm64/native" "$sysroot"
touch "$arm64/apt/status"
cat >"$arm64/apt.conf" <<EOF
APT::Architecture "arm64";
APT::Architectures { "arm64"; };
Dir::State::Lists "$arm64/apt/lists";
Dir::State::status "$arm64/apt/status";
Dir::Cache "$arm64/apt";
Dir::Cache::archives "$arm64/apt/archives";
Dir::Etc::Parts "$arm64/apt/parts";
EOF
export APT_CONFIG=$arm64/apt.conf
apt-get update -qq
packages=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances python3.11-minimal libpython3.11-stdlib |
    grep -E '^[a-z0-9]' | sort -u)
# shellcheck disable=SC2086 # one package a word
(cd "$arm64/apt/archives" && apt-get download -qq $packages)
for deb in "$arm64"/apt/archives/*.deb; do
    dpkg-deb -x "$deb" "$sysroot"
done
unset APT_CONFIG

# rtoml, the one dependency, for each side
"$tools/python" -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux2014_aarch64 --python-version 3.11 --implementation cp \
    -d "$arm64/rtoml-aarch64" "rtoml>=0.12"
"$tools/python" -m pip download --quiet --no-deps --only-binary=:all: \
    -d "$arm64/rtoml-native" "rtoml>=0.12"
"$tools/python" -m zipfile -e "$(ls "$arm64"/rtoml-aarch64/rtoml-*.whl)" "$arm64/emulated"
"$tools/python" -m zipfile -e "$(ls "$arm64"/rtoml-native/rtoml-*.whl)" "$arm64/native"
"$tools/python" -m zipfile -e "$emulated_wheel" "$arm64/emulated"
"$tools/python" -m zipfile -e "$native_wheel" "$arm64/native"

command=$(awk '/^## The two commands/ {on = 1} on && /^pip install \. / {print; exit}' README.md)
run_all() {
    echo "${command#pip install . && }"
    eval "${command#pip install . && }"
    python -c 'import doubleholdem as d; print(d.category_counts(5)); print(d.category_counts(6))'
}
python() {
    if [ "$machine" = aarch64 ]; then
        PYTHONPATH=$arm64/emulated qemu-aarch64 -L "$sysroot" "$sysroot/usr/bin/python3.11" "$@"
    else
        PYTHONPATH=$arm64/native "$tools/python" "$@"
    fi
}
doubleholdem() { python -m doubleholdem.cli "$@"; }

machine=aarch64
python -c 'import platform, doubleholdem; print("emulated:", platform.machine(), doubleholdem.__file__)'
run_all >"$arm64/emulated.out"
machine=x86_64
run_all >"$arm64/native.out"
if ! diff -u "$arm64/native.out" "$arm64/emulated.out"; then
    echo "emulated: the aarch64 wheel prints otherwise than the x86-64 wheel" >&2
    exit 1
fi
cat "$arm64/emulated.out"
echo "emulated: the aarch64 wheel under qemu-aarch64 prints what the x86-64 wheel prints"
