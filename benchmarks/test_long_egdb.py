"""Long checks of the endgame databases: hours of one core, never part of the
test run (testpaths = ["tests"]); nothing here asserts a time.

    python -m pytest benchmarks/test_long_egdb.py

* Every position of up to three pieces of every rule set against the
  independent solver of tests/test_egdb.py (the pure-Python reference
  generator over about 5 M nodes: some 8 minutes).  The test run has every
  position of two pieces of every rule set and every three-king american
  position against the same solver.
* A whole five-piece international build and an ending it decides (about an
  hour on two threads).  DRAUGHTS_EGDB_TEST_DIR names a directory to keep
  (and resume) the build in.  The test run solves four-piece table pairs of
  every rule set and probes three kings against a king on the long diagonal.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import draughts  # noqa: E402
from draughts import egdb  # noqa: E402
from test_egdb import LOSS, RULE_SETS, WIN, _compare, all_positions, egdb_dir  # noqa: E402,F401


@pytest.mark.parametrize("name,mandatory", RULE_SETS)
def test_every_position_of_up_to_three_pieces_equals_the_reference(egdb_dir, name, mandatory):  # noqa: F811
    positions = list(all_positions(name, 2)) + list(all_positions(name, 3))
    _compare(egdb_dir, name, mandatory, positions)


def test_four_kings_beat_a_king_on_the_long_diagonal(tmp_path_factory):
    d = os.environ.get("DRAUGHTS_EGDB_TEST_DIR") or str(tmp_path_factory.mktemp("egdb5"))
    egdb.build("international", 5, d, threads=2)
    db = egdb.Database.open("international", d, pieces=5)
    assert db.probe(draughts.Board("W:WK1,K2,K3,K4:BK28", variant="international")) == WIN
    assert db.probe(draughts.Board("B:WK1,K2,K3,K4:BK28", variant="international")) == LOSS
