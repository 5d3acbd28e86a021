"""The README's promises hold: its python code blocks run as doctests, and it
names the test command that CI (`.ci/run`) runs."""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

pytestmark = pytest.mark.skipif(not README.exists(), reason="no README.md beside tests/")


def python_blocks(text):
    """The bodies of the ```python blocks of a Markdown text."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_tour_runs():
    text = README.read_text(encoding="utf-8")
    blocks = python_blocks(text)
    assert blocks, "the README has no python block"
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", str(README), 0)
    assert test.examples, "the README's python blocks hold no doctest examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} README examples failed"


def test_the_readme_names_the_ci_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = ci.strip().splitlines()[-1].strip()
    assert command == "python -m pytest -q -n auto --dist loadgroup"
    assert command in README.read_text(encoding="utf-8")


def test_the_readme_installs_the_extras_ci_tests_with():
    # the test command runs every test only with the extras CI installs
    # (without gui-test the GUI's server and browser tests are skipped)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extras = re.findall(r'pip install --quiet "\$WHEEL\[([^\]]+)\]"', ci)
    assert len(extras) == 1, extras
    readme = README.read_text(encoding="utf-8")
    assert f'pip install ".[{extras[0]}]" && python -m pytest -q -n auto --dist loadgroup' in readme


def test_the_readme_says_what_the_build_needs_and_installs_every_extra_at_once():
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "build-essential python3-dev" in readme  # a compiler and Python's headers
    assert "a minute or two" in readme
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[project\.optional-dependencies\]\n(.*?)^\[", pyproject, re.S | re.M).group(1)
    extras = set(re.findall(r"^([\w-]+) = \[", section, re.M))
    assert {"test", "gui", "gui-test", "cluster", "bench"} <= extras
    commands = re.findall(r'pip install "\.\[([^\]]+)\]"', readme)
    assert any(set(c.split(",")) == extras for c in commands), commands
