"""Every option of every command has a help text that shows its default (issue 18
item 7): the parsers' formatter appends ``(default: X)``, or the text says what the
option's absence means; flags are off unless given."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from doubleholdem.cli import COMMANDS, build_parser, main
from doubleholdem.cli.preflop_table import main as preflop_main

FLAGS = (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._HelpAction)


def _options(parser: argparse.ArgumentParser, name: str) -> Iterator[tuple[str, argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from _options(sub, f"{name} {command}")
        elif action.option_strings:
            yield name, action


def test_every_option_has_help_showing_its_default() -> None:
    missing = []
    for command, action in _options(build_parser(), "doubleholdem"):
        text = action.help or ""
        says_default = "default" in text or action.default not in (None, False)
        if not text or not (says_default or action.required or isinstance(action, FLAGS)):
            missing.append(f"{command} {'/'.join(action.option_strings)}")
    assert missing == []


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_prints_the_defaults(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "options:" in out and "(default: None)" not in out and "(default: False)" not in out


def test_the_defaults_shown(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for shown in ["(default: fixed-limit)", "(default: double)", "(default: 10000)"]:
        assert shown in out
    assert "a strong random seed, printed" in out
    with pytest.raises(SystemExit):
        preflop_main(["--help"])
    assert "(default: every game)" in capsys.readouterr().out
