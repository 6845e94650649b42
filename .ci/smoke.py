"""Smoke test of an installed wheel: every command of the command line and the README
examples, run by the Python this file is run with (from outside the source tree, so
the installed package is the one imported). ``make pythons`` runs it in fresh virtual
environments of the oldest and newest supported CPython.

    python .ci/smoke.py REPO_ROOT
"""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
BIN = Path(sys.executable).parent
HISTORY = ROOT / "tests" / "data" / "phh" / "famous" / "dwan-ivey-2009.phh"


def run(*args: str, status: int = 0) -> str:
    done = subprocess.run(
        [str(BIN / "doubleholdem"), *args], capture_output=True, text=True, timeout=900
    )
    shown = " ".join(args)
    assert done.returncode == status, f"{shown}: status {done.returncode}\n{done.stderr}"
    assert "Traceback" not in done.stderr, f"{shown}: {done.stderr}"
    if status == 2:
        assert len(done.stderr.strip().splitlines()) == 1, f"{shown}: {done.stderr}"
    print(f"ok  doubleholdem {shown[:70]}")
    return done.stdout


def main() -> int:
    import doubleholdem

    assert not Path(doubleholdem.__file__).is_relative_to(ROOT), "imported the source tree"
    where = Path(doubleholdem.__file__).parent
    print(f"Python {sys.version.split()[0]}: doubleholdem from {where}")
    assert run("--version") == f"doubleholdem {doubleholdem.__version__}\n"
    assert run().startswith("usage: doubleholdem")
    value = json.loads(run("eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d", "--json"))
    assert value["description"] == "Royal Flush", value
    run("double", "--hole", "Kc 2d 6c", "--board", "Kd 6h 9c Jc 3c", "--json")
    stacks = run("replay", str(HISTORY)).split(": finishing stacks ")[1].split()
    assert stacks == ["572100", "1997500", "1109500"]
    run("replay", str(HISTORY), "--json")
    run("simulate", "--variant", "double", "--players", "3", "--hands", "20", "--seed", "1")
    run("casino", "side-bets", "--json")
    # (the exact analysis, ``casino analyze --game ultimate``, about a minute on 2 cores,
    # is the same abi3 Rust code on every Python: tests/casino/test_analysis.py runs it)
    run("stats", "double", "--json")
    run("casino", "analyze", "--threads", "0", status=2)
    run("casino", "simulate", "--rounds", "1", "--seed", "1", status=2)
    # The server's commands without the server extra: named, one line, status 2.
    run("serve", "--port", "0", "--db", "smoke-tables.db", status=2)
    run("loadtest", "--help")
    # Bad input: one line, status 2.
    run("eval", "As", "Ks", "Qs", "Js", "Tx", status=2)
    run("stats", "double", "--threads", "-1", status=2)
    run("replay", "/dev/null", str(HISTORY), status=2)
    # The README examples, as the test suite runs them.
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        readme = str(ROOT / "README.md")
        result = doctest.testfile(readme, module_relative=False, optionflags=flags)
    assert result.failed == 0, f"{result.failed} README examples failed"
    print(f"ok  README: {result.attempted} examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
