#!/usr/bin/env bash
# Checks one wheel the way a package index and pip would meet it (sourced by dist.sh and
# wheels.sh): check_wheel TOOLS WHEEL TAG, where TOOLS holds auditwheel and twine, TAG the
# platform tag the wheel claims (manylinux_2_17_x86_64, musllinux_1_2_x86_64, ...).
#   - auditwheel show finds the wheel consistent with TAG: its shared-library dependencies
#     and their symbol versions (GLIBC_2.x, or the musl version) allow no older tag and
#     need no newer one;
#   - auditwheel repair, to TAG itself where this machine's auditwheel offers it (its own
#     architecture) and to the best tag it finds otherwise, grafts nothing and renames
#     nothing (patcher none: a library to graft is a failure);
#   - the wheel carries the LICENSE; twine check --strict passes.
check_wheel() {
    local tools=$1 wheel=$2 tag=$3 shown offered plat repaired
    shown=$("$tools/auditwheel" show "$wheel")
    echo "$shown"
    if ! tr -s ' \n' '  ' <<<"$shown" | grep -qF "consistent with the following platform tag: \"$tag\""; then
        echo "check_wheel: auditwheel does not find $(basename "$wheel") consistent with $tag" >&2
        return 1
    fi
    offered=$("$tools/auditwheel" repair --help)
    plat=$tag
    if ! grep -qE -- "^- $tag( |\$)" <<<"$offered"; then
        plat=auto
    fi
    repaired=$(mktemp -d)
    "$tools/auditwheel" repair --plat "$plat" --patcher none -w "$repaired" "$wheel"
    # the same files (auditwheel adds folder entries and its SBOM, nothing else)
    if ! "$tools/python" -c 'import sys, zipfile; files = [{n for n in zipfile.ZipFile(w).namelist() if not n.endswith("/") and ".dist-info/sboms/" not in n} for w in sys.argv[1:]]; sys.exit(files[0] != files[1])' \
        "$wheel" "$repaired/$(basename "$wheel")"; then
        echo "check_wheel: auditwheel repair --plat $plat changed $(basename "$wheel"): $(ls "$repaired")" >&2
        return 1
    fi
    rm -rf "$repaired"
    if ! "$tools/python" -c 'import sys, zipfile; sys.exit(not any(n.endswith("/LICENSE") and ".dist-info/" in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel"; then
        echo "check_wheel: $(basename "$wheel") does not carry the LICENSE" >&2
        return 1
    fi
    "$tools/twine" check --strict "$wheel"
}
