"""What a package index and a release need (issues 18 and 36): the release workflow is a
valid GitHub Actions workflow that builds every platform's wheel and the sdist with maturin's
action; the README's first command is the one .ci/readme_command.sh runs; each wheel in
dist/ claims its platform tag in its name and metadata, auditwheel agrees, and its extension
is built for that machine and libc (glibc 2.17's symbol versions at most, or musl)."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from elftools.elf.elffile import ELFFile
from packaging.utils import parse_wheel_filename

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


def release_jobs() -> dict[str, Any]:
    jobs: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    return jobs


def platforms(job: dict[str, Any], *keys: str) -> set[tuple[str, ...]]:
    return {tuple(p[k] for k in keys) for p in job["strategy"]["matrix"]["platform"]}


def test_release_workflow_builds_every_platform() -> None:
    jobs = release_jobs()
    assert platforms(jobs["linux"], "target", "manylinux") == {
        ("x86_64", "2014"),
        ("aarch64", "2014"),
        ("x86_64", "musllinux_1_2"),
        ("aarch64", "musllinux_1_2"),
    }
    assert platforms(jobs["macos"], "target") == {("x86_64",), ("aarch64",)}
    windows = [s for s in jobs["windows"]["steps"] if s.get("uses") == "PyO3/maturin-action@v1"]
    assert [s["with"]["target"] for s in windows] == ["x64"]
    assert set(jobs["publish"]["needs"]) == {"linux", "macos", "windows", "sdist"}


@pytest.mark.parametrize("job", ["linux", "macos", "windows", "sdist"])
def test_each_release_build_uses_maturin_and_runs_the_readme_command(job: str) -> None:
    steps = release_jobs()[job]["steps"]
    builds = [s for s in steps if s.get("uses") == "PyO3/maturin-action@v1"]
    runs = [s for s in steps if ".ci/readme_command.sh" in s.get("run", "")]
    assert len(builds) == 1 and len(runs) == 1
    assert steps.index(builds[0]) < steps.index(runs[0])
    assert builds[0]["with"].get("command", "build") == ("sdist" if job == "sdist" else "build")


def test_readme_first_command_installs_and_runs_both_jobs() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## The two commands", 1)[1]
    first = re.search(r"(?m)^pip install \. .*$", section)
    assert first is not None
    assert "doubleholdem eval" in first.group() and "doubleholdem double" in first.group()
    assert re.search(r"(?m)^make test$", section)


# The wheels of dist/ by the platform tag each claims: `make dist` (make test) builds the
# x86-64 manylinux2014 one, `make wheels` the others (.ci/wheels.sh).
DIST = ROOT / "dist"
WHEELS = {
    "manylinux_2_17_x86_64": ("make dist", "x86_64", "glibc"),
    "manylinux_2_17_aarch64": ("make wheels", "aarch64", "glibc"),
    "musllinux_1_2_x86_64": ("make wheels", "x86_64", "musl"),
}
# What a manylinux2014 extension of ours may link (of PEP 599's list: glibc's and libgcc_s).
MANYLINUX_LIBRARIES = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1"}
MANYLINUX_LIBRARIES.add("libgcc_s.so.1")
ELF_MACHINES = {"x86_64": "EM_X86_64", "aarch64": "EM_AARCH64"}


def built_wheel(tag: str) -> Path:
    command = WHEELS[tag][0]
    found = sorted(DIST.glob(f"doubleholdem-*{tag}.whl"))
    if not found:
        pytest.skip(f"no {tag} wheel in dist/: `{command}` builds it")
    assert len(found) == 1, found
    return found[0]


def extension(wheel: Path, into: Path) -> Path:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = fnmatch.filter(archive.namelist(), "doubleholdem/_core.*.so")
        return Path(archive.extract(name, into))


def glibc_needed(elf: ELFFile) -> tuple[set[str], set[tuple[int, ...]]]:
    """The libraries an ELF file needs and the GLIBC_x.y versions it asks of them."""
    dynamic = elf.get_section_by_name(".dynamic")
    needed = {tag.needed for tag in dynamic.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}
    versions: set[tuple[int, ...]] = set()
    requirements = elf.get_section_by_name(".gnu.version_r")
    for _, auxiliaries in requirements.iter_versions() if requirements else []:
        for auxiliary in auxiliaries:
            if auxiliary.name.startswith("GLIBC_"):
                versions.add(tuple(int(p) for p in auxiliary.name[6:].split(".")))
    return needed, versions


@pytest.mark.parametrize("tag", sorted(WHEELS))
def test_wheel_claims_its_tag_in_name_and_metadata(tag: str) -> None:
    wheel = built_wheel(tag)
    name, version, _, tags = parse_wheel_filename(wheel.name)
    assert name == "doubleholdem"
    assert {t.platform for t in tags} >= {tag}
    assert {(t.interpreter, t.abi) for t in tags} == {("cp39", "abi3")}
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"doubleholdem-{version}.dist-info/WHEEL").decode()
    listed = {line.split(": ", 1)[1] for line in metadata.splitlines() if line.startswith("Tag: ")}
    assert listed == {str(t) for t in tags}


@pytest.mark.parametrize("tag", sorted(WHEELS))
def test_auditwheel_finds_the_wheel_consistent_with_its_tag(tag: str) -> None:
    wheel = built_wheel(tag)
    shown = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f'consistent with the following platform tag: "{tag}"' in " ".join(shown.split())


@pytest.mark.parametrize("tag", sorted(WHEELS))
def test_extension_is_built_for_the_machine_and_libc_of_its_tag(tag: str, tmp_path: Path) -> None:
    _, machine, libc = WHEELS[tag]
    with extension(built_wheel(tag), tmp_path).open("rb") as file:
        elf = ELFFile(file)
        assert elf["e_machine"] == ELF_MACHINES[machine]
        needed, versions = glibc_needed(elf)
    if libc == "glibc":
        # manylinux2014: glibc 2.17's symbol versions at most, and only glibc's libraries
        assert needed - {n for n in needed if n.startswith("ld-linux")} <= MANYLINUX_LIBRARIES
        assert versions and max(versions) <= (2, 17)
    else:
        assert needed == {f"libc.musl-{machine}.so.1"}
        assert not versions
