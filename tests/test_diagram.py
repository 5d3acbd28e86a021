"""One drawing of the board: `Board.unicode` and the terminal game's framed
board (`draughts.play.render`) show the same piece on every square."""

import pytest

import draughts
from draughts import play

BOARDS = [
    ("international", None),
    ("international", "W:WK50,31,32:BK1,19,20"),
    ("russian", None),
    ("russian", "B:WKc1,e3:Bh8,Kd6"),
    ("spanish", "W:W1:B32"),
    ("brazilian", None),
    ("frisian", None),
]


def bare_cells(text):
    """{(row, col): character} of a bare diagram, blanks left out."""
    return {
        (r, c // 2): ch
        for r, line in enumerate(text.split("\n"))
        for c, ch in enumerate(line)
        if c % 2 == 0 and ch != " "
    }


def framed_cells(text, size, numeric):
    """{(row, col): mark} of a framed diagram: the piece, or '.' on an empty
    playing square (as the bare diagram writes it)."""
    width = 5 if numeric else 3
    rows = [line for line in text.split("\n") if "|" in line]
    assert len(rows) == size
    out = {}
    for r, line in enumerate(rows):
        inner = line[line.index("|") + 1 : line.rindex("|")]
        assert len(inner) == size * width
        for c in range(size):
            cell = inner[c * width : (c + 1) * width]
            if not cell.strip():
                continue  # not a playing square
            mark = cell[1]
            out[(r, c)] = "." if mark == " " else mark
    return out


@pytest.mark.parametrize("name, fen", BOARDS)
@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("ascii", [False, True])
def test_the_bare_and_the_framed_board_agree(name, fen, flipped, ascii):
    board = draughts.Board(fen, variant=name) if fen else draughts.Board(variant=name)
    v = board.variant
    bare = bare_cells(board.unicode(ascii=ascii, flipped=flipped))
    framed = framed_cells(play.render(board, ascii=ascii, flipped=flipped), v.size, not v.algebraic)
    assert bare == framed
    assert len(bare) == v.squares
    pieces = sum(1 for ch in bare.values() if ch != ".")
    assert pieces == len(board.pieces())


def test_the_pieces_are_where_the_position_has_them():
    board = draughts.Board("W:WK50,31:B1", variant="international")
    rows = board.unicode(ascii=True).split("\n")
    assert rows[0] == "  b" + "   ." * 4  # square 1 is the second of the top row
    assert rows[6][2] == "w"  # 31: the first of the seventh row
    assert rows[9][16] == "W"  # 50: the last of the bottom row
    assert board.unicode(ascii=True, flipped=True).split("\n")[0][2] == "W"
    assert str(board) == board.unicode(ascii=True)
