"""Package basics: the version on the command line, the licence, the build settings."""

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import draughts

ROOT = Path(__file__).resolve().parents[1]


def test_version_on_the_command_line():
    out = subprocess.run([sys.executable, "-m", "draughts", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.strip() == f"draughts {importlib.metadata.version('draughts-engine')}"
    assert draughts.__version__ == importlib.metadata.version("draughts-engine")


def test_the_version_is_written_in_one_place():
    # pyproject.toml takes it from draughts.__version__ (setuptools' dynamic attr)
    text = (ROOT / "pyproject.toml").read_text()
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert 'dynamic = ["version"]' in project and "\nversion =" not in project
    assert 'version = {attr = "draughts.__version__"}' in text
    assert re.search(r'^__version__ = "[^"]+"$', (ROOT / "src/draughts/__init__.py").read_text(), re.M)


def test_the_licence_is_declared_and_shipped():
    meta = importlib.metadata.metadata("draughts-engine")
    assert meta["License-Expression"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert re.search(r'^license = "MIT"$', (ROOT / "pyproject.toml").read_text(), re.M)


def test_ruff_finds_nothing():
    # pyproject.toml's [tool.ruff]: unused names, loop-variable closures, raise without from
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_code_is_formatted_by_ruff():
    # `ruff format src tests benchmarks` (pyproject.toml's line length) leaves every file as it is
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_passes_on_the_python_package(pytestconfig):
    # the configuration is pyproject.toml's [tool.mypy]; the core's types come from its .pyi stubs.
    # mypy's incremental cache is kept in pytest's cache directory: a rerun checks
    # only what changed (mypy keys its cache on every file's contents and options)
    cache = pytestconfig.cache.mkdir("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout


def test_the_core_stubs_match_the_compiled_modules(pytestconfig):
    # mypy's stubtest: every name, signature and default in src/draughts_core/*.pyi against
    # the compiled module as imported (Cython's own additions allowed in the allowlist)
    modules = sorted(f"draughts_core.{p.stem}" for p in (ROOT / "src" / "draughts_core").glob("*.pyi"))
    assert "draughts_core.search" in modules and "draughts_core.position" in modules
    cache = pytestconfig.cache.mkdir("stubtest")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy.stubtest",
            "--ignore-disjoint-bases",
            "--allowlist",
            str(ROOT / "tests" / "data" / "stubtest-allowlist.txt"),
            "--mypy-config-file",
            str(cache / "none.ini"),
            *modules,
        ],
        cwd=cache,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
