"""The docstring examples of the installed package are true: every module
of `draughts` with examples runs them (as `python -m doctest` would)."""

import doctest
import importlib
import pkgutil

import pytest

import draughts


def _modules_with_examples():
    names = ["draughts"] + [
        m.name for m in pkgutil.walk_packages(draughts.__path__, "draughts.") if not m.name.endswith("__main__")
    ]
    finder = doctest.DocTestFinder()
    out = []
    for name in sorted(names):
        module = importlib.import_module(name)
        if any(t.examples for t in finder.find(module)):
            out.append(name)
    return out


MODULES = _modules_with_examples()


def test_the_package_has_examples():
    # the modules whose docstrings teach the API
    for name in (
        "draughts",
        "draughts.board",
        "draughts.engine",
        "draughts.hub",
        "draughts.hub.protocol",
        "draughts.hub.testing",
        "draughts._args",
        "draughts.pdn",
    ):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
