"""The `draughts` command line registers its commands from one explicit
table, and a command module that cannot be imported is an error, not a
missing command."""

import importlib
import sys

import pytest

import draughts
from draughts import cli

#: every subcommand `draughts --help` lists (written out here, not read from cli)
SUBCOMMANDS = {"perft", "bench", "hub", "play", "analyze", "svg", "match", "openings", "dxp", "train", "egdb", "gui"}


def subcommands(parser):
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices)


def test_the_table_covers_every_subcommand():
    in_table = {name for names, _ in cli.COMMANDS for name in names}
    assert in_table == SUBCOMMANDS
    assert subcommands(cli.build_parser()) == SUBCOMMANDS


def test_a_register_adding_other_commands_than_its_row_says_is_an_error(monkeypatch):
    def two(sub):
        sub.add_parser("perfect")
        sub.add_parser("stranger")

    monkeypatch.setattr(cli, "COMMANDS", cli.COMMANDS + ((("perfect",), two),))
    with pytest.raises(RuntimeError, match="added the commands"):
        cli.build_parser()


def test_a_command_module_that_cannot_be_imported_fails_the_import_loudly(monkeypatch):
    # None in sys.modules makes `import draughts.train` raise ModuleNotFoundError,
    # the error the command line once swallowed as "not part of this installation"
    monkeypatch.setitem(sys.modules, "draughts.train", None)
    monkeypatch.delattr(draughts, "train", raising=False)
    monkeypatch.delitem(sys.modules, "draughts.cli")
    with pytest.raises(ImportError, match="draughts.train"):
        importlib.import_module("draughts.cli")


def test_a_broken_command_module_propagates_its_error(monkeypatch):
    def broken(sub):
        raise ImportError("cannot import name 'gone' from 'draughts.svg'")

    monkeypatch.setattr(cli, "COMMANDS", tuple((names, broken if names == ("svg",) else register)
                                               for names, register in cli.COMMANDS))
    with pytest.raises(ImportError, match="gone"):
        cli.main(["svg", "--help"])
