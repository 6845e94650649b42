#!/usr/bin/env bash
# make wheels: after `make dist` (the sdist and the x86-64 manylinux_2_17 wheel in dist/),
# the wheels of the other Linux machines, cross-compiled here from the same unpacked sdist
# with zig as the linker (`maturin build --zig --target ...`), into dist/ beside them:
#   aarch64-unknown-linux-gnu  manylinux_2_17_aarch64  (ARM servers, Raspberry Pi OS 64-bit)
#   x86_64-unknown-linux-musl  musllinux_1_2_x86_64    (Alpine and other musl systems)
# Rust's standard library for these targets is not installed (rustup cannot download here),
# so it is compiled from source (cargo -Z build-std) by Debian's Rust toolchain: rustc-web,
# cargo-web and rust-web-src, one version, compiler and library sources together, installed
# with apt-get when missing. The build scripts and the extension get the same compiler.
# Each wheel is checked by check_wheel (check_wheel.sh: auditwheel show and repair, twine).
# patchelf gives the musl wheel's extension musl's usual name for libc (musl_soname below).
# The aarch64 wheel is then run: Debian's arm64 python3.11, unpacked into target/dist/arm64
# with apt's own downloads (the machine's package configuration is left as it is), runs the
# README's two commands under qemu-aarch64 (Debian's qemu-user) and must print what the
# x86-64 wheel prints. No musl Python is to be had from the package registries here, so the
# musl wheel is checked by its tag and symbols only.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/${DIST:-dist}
build=$root/target/dist
tools=$build/tools/bin
# shellcheck source=SCRIPTDIR/check_wheel.sh
source .ci/check_wheel.sh

unpacked=$(ls -d "$build"/src/doubleholdem-*/ 2>/dev/null || true)
if [ -z "$unpacked" ] || [ ! -x "$tools/maturin" ]; then
    echo "wheels: run make dist first (it unpacks the sdist into $build/src)" >&2
    exit 1
fi

missing=()
for package in rustc-web cargo-web rust-web-src qemu-user patchelf; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
        missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "wheels: needs Debian's ${missing[*]} (apt-get install, as root)" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Debian's cargo and rustc first on PATH (ahead of rustup's), and the tools' python, through
# which maturin finds zig.
debian=$build/debian-rust
mkdir -p "$debian"
ln -sf /usr/bin/cargo /usr/bin/rustc /usr/bin/rustdoc "$debian/"

build_wheel() {
    local target=$1 compatibility=$2 tag=$3 wheel
    rm -f "$out"/doubleholdem-*"${tag}".whl
    (cd "$unpacked" && PATH="$debian:$tools:$PATH" RUSTC_BOOTSTRAP=1 \
        CARGO_UNSTABLE_BUILD_STD=std CARGO_TARGET_DIR="$build/cross" \
        maturin build --release --zig --target "$target" --compatibility "$compatibility" \
        --out "$out")
    wheel=$(ls "$out"/doubleholdem-*"${tag}".whl)
    if [[ $tag == musllinux_* ]]; then
        musl_soname "$wheel" "libc.musl-${tag##*_1_2_}.so.1"
    fi
    check_wheel "$tools" "$wheel" "$tag"
}

# zig links musl's libc by the name `libc.so`; musl systems (and auditwheel's musllinux
# policy) know it as libc.musl-ARCH.so.1, the name a build on Alpine records. musl's loader
# takes either for itself; the wheel records the usual one (patchelf, then `wheel pack`
# writes its RECORD anew).
musl_soname() {
    local wheel=$1 soname=$2 unpacked_wheel
    "$tools/python" -m pip install --quiet --disable-pip-version-check "wheel>=0.40"
    rm -rf "$build/musl"
    "$tools/wheel" unpack -d "$build/musl" "$wheel"
    unpacked_wheel=$(ls -d "$build"/musl/doubleholdem-*/)
    patchelf --replace-needed libc.so "$soname" "$unpacked_wheel"doubleholdem/_core.*.so
    "$tools/wheel" pack -d "$(dirname "$wheel")" "$unpacked_wheel"
}

build_wheel aarch64-unknown-linux-gnu manylinux_2_17 manylinux_2_17_aarch64
build_wheel x86_64-unknown-linux-musl musllinux_1_2 musllinux_1_2_x86_64

bash .ci/emulated.sh "$(ls "$out"/doubleholdem-*manylinux_2_17_aarch64.whl)" \
    "$(ls "$out"/doubleholdem-*manylinux_2_17_x86_64.whl)"
echo "wheels: $(cd "$out" && ls | tr '\n' ' ')"
