"""Build the Cython core.  `pip install .` compiles at -O3 (with -mpopcnt on
x86-64); set DRAUGHTS_NATIVE=1 to add -march=native for a machine-specific
build, or DRAUGHTS_PORTABLE=1 for a build without -mpopcnt."""

import os
import platform
import sys
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = [
    "movegen",
    "perft",
    "position",
    "zobrist",
    "tt",
    "eval",
    "eval_weights",
    "eval_features",
    "egdb",
    "egdb_build",
    "search",
]

compile_args = ["-O3"]
if os.environ.get("DRAUGHTS_NATIVE") == "1":
    compile_args.append("-march=native")
elif platform.machine().lower() in ("x86_64", "amd64") and os.environ.get("DRAUGHTS_PORTABLE") != "1":
    # POPCNT is on every x86-64 processor since 2008; without it popcounts
    # go through a library call.  DRAUGHTS_PORTABLE=1 leaves it out.
    compile_args.append("-mpopcnt")
if sys.platform == "win32":
    compile_args = ["/O2"]

# The hot modules have one copy of each function per board and rule family
# (movegen.pyx, eval.pyx): GCC's default limits then stop inlining the capture
# tests into the generators and the evaluation's blend into the evaluation
# (search.pyx gains a little too), about 3 % of the search's instructions.
# GCC only (clang has no such parameters).  An in-place build recompiles a
# module only when its source changes: after changing these, rebuild with -f.
module_args = {}
compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
if sys.platform.startswith("linux") and "clang" not in compiler:
    inlining = [
        "--param",
        "max-inline-insns-single=1000",
        "--param",
        "inline-unit-growth=300",
        "--param",
        "large-function-growth=400",
    ]
    module_args = {"movegen": inlining, "eval": inlining, "search": inlining}

extensions = [
    Extension(
        f"draughts_core.{name}",
        [f"src/draughts_core/{name}.pyx"],
        extra_compile_args=compile_args + module_args.get(name, []),
    )
    for name in MODULES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": "3", "embedsignature": True},
        include_path=["src"],
    ),
)
