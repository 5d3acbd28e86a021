"""Build the Cython core.  `pip install .` compiles at -O3; set
DRAUGHTS_NATIVE=1 to add -march=native for a machine-specific build."""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = ["movegen", "perft", "position", "zobrist", "tt", "eval", "search"]

compile_args = ["-O3"]
if os.environ.get("DRAUGHTS_NATIVE") == "1":
    compile_args.append("-march=native")
if sys.platform == "win32":
    compile_args = ["/O2"]

extensions = [
    Extension(
        f"draughts_core.{name}",
        [f"src/draughts_core/{name}.pyx"],
        extra_compile_args=compile_args,
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
