"""tests/INDEX.md says where each module of the package is tested (issue 31 item 7): every
module that defines a function or a class has its line, and every test file a line names
exists. ``python3 tests/make_index.py`` writes it anew."""

from __future__ import annotations

import re

from make_index import INDEX, PACKAGE, ROOT, defines, module_path

LINE = re.compile(r"^\| `(?P<module>[^`]+)` \| (?P<tests>.*) \|$")


def _lines() -> dict[str, str]:
    lines = {}
    for text in INDEX.read_text(encoding="utf-8").splitlines():
        found = LINE.match(text)
        if found:
            lines[found["module"]] = found["tests"]
    return lines


def test_every_module_has_its_line() -> None:
    lines = _lines()
    missing = [
        module_path(path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if defines(path) and module_path(path) not in lines
    ]
    assert not missing, f"run python3 tests/make_index.py: {missing} have no line in tests/INDEX.md"


def test_every_file_named_exists() -> None:
    named = {
        name
        for tests in _lines().values()
        for name in re.findall(r"(?<![`\w/])[\w/]+\.py(?!`)", tests)
    }
    assert named, "the index names no test file"
    gone = sorted(name for name in named if not (ROOT / "tests" / name).is_file())
    assert not gone, f"run python3 tests/make_index.py: tests/INDEX.md names {gone}"


def test_modules_named_exist() -> None:
    gone = sorted(m for m in _lines() if not (PACKAGE / m).is_file())
    assert not gone, f"run python3 tests/make_index.py: tests/INDEX.md names modules {gone}"
