"""The `draughts` command line registers its commands from one explicit
table, and a command module that cannot be imported is an error, not a
missing command."""

import subprocess
import sys

import pytest

import draughts
from draughts import cli

#: every subcommand `draughts --help` lists (written out here, not read from cli)
SUBCOMMANDS = {
    "perft",
    "bench",
    "hub",
    "play",
    "analyze",
    "svg",
    "match",
    "openings",
    "dxp",
    "train",
    "positions",
    "book",
    "egdb",
    "gui",
}


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


def test_a_command_module_that_cannot_be_imported_fails_loudly(monkeypatch):
    # None in sys.modules makes `import draughts.train` raise ModuleNotFoundError,
    # the error the command line once swallowed as "not part of this installation"
    monkeypatch.setitem(sys.modules, "draughts.train", None)
    monkeypatch.delattr(draughts, "train", raising=False)
    with pytest.raises(ImportError, match="draughts.train"):
        cli.build_parser()
    with pytest.raises(ImportError, match="draughts.train"):
        cli.main(["train", "--help"])
    with pytest.raises(ImportError, match="draughts.train"):
        cli.main(["--help"])  # listing every command imports every module


#: what a command that does not search must leave unloaded: numpy, tqdm, the
#: engine with its learned evaluation, the endgame databases, and the standard
#: library's network and mail packages (xml.sax.saxutils would bring them)
HEAVY = (
    "numpy",
    "tqdm",
    "draughts.engine",
    "draughts.learned",
    "draughts.egdb",
    "urllib.request",
    "http",
    "email",
    "ssl",
)

_LOADED = """
import sys
{code}
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'tqdm')
               or any(m == h or m.startswith(h + '.') for h in {heavy!r}))
print('loaded:', *heavy)
"""


def loaded_after(code):
    """The heavy modules that a fresh interpreter has loaded after `code`."""
    run = subprocess.run(
        [sys.executable, "-c", _LOADED.format(code=code, heavy=HEAVY)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()[-1].split()[1:]


def main_code(*argv):
    return f"from draughts import cli\ntry:\n    cli.main({list(argv)!r})\nexcept SystemExit:\n    pass"


def test_version_and_perft_load_neither_numpy_nor_tqdm_nor_the_engine():
    assert loaded_after(main_code("--version")) == []
    assert loaded_after(main_code("perft", "--variant", "american", "--depth", "2")) == []
    assert loaded_after("import draughts; draughts.Board().perft(2)") == []


def test_the_engine_and_its_numpy_load_when_used():
    after = loaded_after("import draughts; draughts.Engine")
    assert "numpy" in after and "draughts.engine" in after
    # the tuning's values are plain data: no engine, no numpy
    assert loaded_after("from draughts import EvalWeights, SearchParams") == []
    assert "draughts.egdb" in loaded_after("import draughts; draughts.egdb.default_dir")
    assert "numpy" in loaded_after(main_code("train", "--help"))


def test_the_installed_command_imports_no_numpy_for_its_version():
    # the real entry point, as `draughts --version` runs it: -X importtime
    # lists every module imported, one a line, on stderr
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "draughts", "--version"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and run.stdout == f"draughts {draughts.__version__}\n"
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "draughts.cli" in imported
    assert not {m for m in imported if m.split(".")[0] in ("numpy", "tqdm")}, imported
    assert not imported & {"draughts.engine", "draughts.learned", "draughts.egdb"}


def test_unknown_attributes_of_the_package_are_still_errors():
    with pytest.raises(AttributeError, match="no_such_thing"):
        draughts.no_such_thing  # noqa: B018 (the attribute look-up is the test)
    assert {"Engine", "SearchParams", "egdb"} <= set(dir(draughts))


def test_a_broken_command_module_propagates_its_error(monkeypatch):
    def broken(sub):
        raise ImportError("cannot import name 'gone' from 'draughts.svg'")

    monkeypatch.setattr(
        cli, "COMMANDS", tuple((names, broken if names == ("svg",) else register) for names, register in cli.COMMANDS)
    )
    with pytest.raises(ImportError, match="gone"):
        cli.main(["svg", "--help"])
