"""What a package index and a release need (issue 18): the release workflow is a valid
GitHub Actions workflow that builds every platform's wheel and the sdist with maturin's
action, and the README's first command is the one `make dist-check` runs from the sdist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def check_workflow(path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "check_jsonschema", "--builtin-schema"]
    return subprocess.run(
        [*command, "vendor.github-workflows", str(path)], capture_output=True, text=True
    )


def test_release_workflow_is_valid() -> None:
    done = check_workflow(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_broken_workflow_is_caught(tmp_path: Path) -> None:
    broken = tmp_path / "release.yml"
    broken.write_text(WORKFLOW.read_text().replace("runs-on:", "runs_on:", 1))
    assert check_workflow(broken).returncode != 0


@pytest.mark.parametrize(
    "needed",
    [
        "target: x86_64",
        "target: aarch64",
        "macos",
        "windows",
        "command: sdist",
        "PyO3/maturin-action@v1",
    ],
)
def test_release_workflow_builds_every_platform(needed: str) -> None:
    assert needed in WORKFLOW.read_text()


def test_readme_first_command_installs_and_runs_both_jobs() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## The two commands", 1)[1]
    first = re.search(r"(?m)^pip install \. .*$", section)
    assert first is not None
    assert "doubleholdem eval" in first.group() and "doubleholdem double" in first.group()
    assert re.search(r"(?m)^make test$", section)
