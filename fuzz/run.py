"""Runs a fuzz target under atheris (coverage-guided, libFuzzer) for a bounded time.

    python fuzz/run.py TARGET [--seconds N] [--jobs-dir DIR]
    python fuzz/run.py all --seconds 8         # every target, as ``make fuzz`` does

The target's seeds are ``fuzz/corpus/TARGET/`` (committed, read only: new inputs the
fuzzer finds go to a temporary directory) and the inputs under
``fuzz/regressions/TARGET/``. A crash leaves its input in ``--artifacts`` (default
``fuzz/crashes/``, not committed) and the exit status is 1: fix the bug, move the input
to ``fuzz/regressions/TARGET/`` and ``tests/test_fuzz_regressions.py`` keeps it fixed.

Without atheris (it ships wheels for CPython 3.11 on Linux) the target is run over its
seeds and regressions only, and the run says so.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _targets() -> dict[str, Callable[[bytes], None]]:
    from targets import TARGETS

    return TARGETS


def _names() -> list[str]:
    """The targets' names, read without importing the package (so that the fuzzing
    process imports it under atheris's instrumentation)."""
    text = (HERE / "targets.py").read_text(encoding="utf-8")
    table = text[text.index("TARGETS: dict") :]
    return sorted(line.split('"')[1] for line in table.splitlines() if line.startswith('    "'))


def _inputs(name: str) -> list[Path]:
    files: list[Path] = []
    for folder in (HERE / "corpus" / name, HERE / "regressions" / name):
        if folder.is_dir():
            files.extend(sorted(p for p in folder.iterdir() if p.is_file()))
    return files


def replay_inputs(name: str) -> int:
    """Runs the target on each committed input; the number of inputs."""
    files = _inputs(name)
    target = _targets()[name]
    for path in files:
        target(path.read_bytes())
    return len(files)


def fuzz(name: str, seconds: int, artifacts: Path) -> None:
    """This process becomes the fuzzer (atheris.Fuzz does not return)."""
    import atheris

    with atheris.instrument_imports(include=["doubleholdem"]):
        import doubleholdem.cards
        import doubleholdem.evaluate
        import doubleholdem.game
        import doubleholdem.game.phh
        import doubleholdem.table  # noqa: F401
    target = _targets()[name]
    artifacts.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"fuzz-{name}-"))
    seeds = [str(HERE / "corpus" / name), str(HERE / "regressions" / name)]
    seeds = [s for s in seeds if Path(s).is_dir()]
    argv = [
        sys.argv[0],
        str(work),
        *seeds,
        f"-max_total_time={seconds}",
        f"-artifact_prefix={artifacts}/{name}-",
        "-max_len=8192",
        "-timeout=20",
        "-rss_limit_mb=4096",
        "-print_final_stats=1",
    ]
    atheris.Setup(argv, target)
    atheris.Fuzz()


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("target", choices=[*_names(), "all"])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--artifacts", type=Path, default=HERE / "crashes")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        fuzz(args.target, args.seconds, args.artifacts)
    names = _names() if args.target == "all" else [args.target]
    try:
        import atheris  # noqa: F401
    except ImportError:
        for name in names:
            count = replay_inputs(name)
            print(f"fuzz {name}: atheris is not installed; replayed {count} committed inputs")
        return 0
    status = 0
    for name in names:
        print(f"fuzz {name}: {args.seconds} s from {len(_inputs(name))} committed inputs")
        sys.stdout.flush()
        # One process per target: atheris.Fuzz() never returns.
        command = [sys.executable, __file__, name, "--seconds", str(args.seconds)]
        done = subprocess.run([*command, "--artifacts", str(args.artifacts), "--child"])
        if done.returncode != 0:
            print(f"fuzz {name}: FAILED (status {done.returncode}); see {args.artifacts}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
