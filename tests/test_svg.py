"""SVG boards: drawn by a real renderer (resvg, through the resvg-py wheel) and
checked pixel by pixel where the pieces and squares must be.

Square positions below are taken from the rule book's numbering table, not
from the library, so a wrong drawing cannot agree with itself.
"""

import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import pytest

import draughts
from draughts import svg

import resvg_py  # the SVG renderer, from the test extra

SIZE = 400


# --- a small PNG reader (8-bit RGB/RGBA, not interlaced: what resvg writes) ----


def decode_png(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, []
    width = height = bpp = None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


class Picture:
    def __init__(self, svg_text: str, squares: int):
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg_text))
        self.width, self.height, self.bpp, self.rows = decode_png(png)
        self.cell = self.width / squares

    def pixel(self, x: int, y: int):
        i = x * self.bpp
        return tuple(self.rows[y][i : i + 3])

    def at(self, row: int, col: int, dx: float = 0.5, dy: float = 0.5):
        """Mean colour of the 3x3 pixels at a point of square (row, col) as drawn."""
        cx = int(self.cell * (col + dx))
        cy = int(self.cell * (row + dy))
        pix = [self.pixel(x, y) for x in (cx - 1, cx, cx + 1) for y in (cy - 1, cy, cy + 1)]
        return tuple(sum(p[k] for p in pix) / len(pix) for k in range(3))


def rgb(hex_colour: str):
    h = hex_colour.lstrip("#")
    return tuple(int(h[i : i + 2], 16) for i in (0, 2, 4))


def close(actual, expected, tol=12):
    return all(abs(a - e) <= tol for a, e in zip(actual, expected))


DARK = rgb(svg.COLORS["dark"])
LIGHT = rgb(svg.COLORS["light"])
CROWN = rgb(svg.COLORS["crown"])


def is_white_man(c):
    return min(c) > 215


def is_black_man(c):
    return max(c) < 60


def is_crown(c):
    return close(c, CROWN, 20)


# (variant, fen, {square label: (row, col) from docs/rules.md}, bottom-left corner playable?)
CASES = [
    # men on their own side, kings in the far corners (a man on the row where
    # it is crowned is no position)
    ("american", "B:W32,K1:BK29,4", {"32": (7, 6), "1": (0, 1), "4": (0, 7), "29": (7, 0)}, True),
    ("italian", "W:W32,K1:BK29,4", {"32": (7, 7), "1": (0, 0), "4": (0, 6), "29": (7, 1)}, False),
    ("spanish", "W:WK32,1:B29,K4", {"1": (7, 7), "32": (0, 0), "29": (0, 6), "4": (7, 1)}, False),
    ("international", "W:W50,K1:BK46,5", {"50": (9, 8), "1": (0, 1), "5": (0, 9), "46": (9, 0)}, True),
    ("russian", "W:Wg1,Kb8:BKa1,h8", {"g1": (7, 6), "b8": (0, 1), "h8": (0, 7), "a1": (7, 0)}, True),
]


@pytest.mark.parametrize("name,fen,where,standard", CASES, ids=[c[0] for c in CASES])
def test_pieces_and_squares_at_the_right_pixels(name, fen, where, standard):
    board = draughts.Board(fen, variant=name)
    n = board.variant.size
    white_man, white_king, black_man, black_king = list(where)
    pic = Picture(svg.board(board, size=SIZE), n)
    assert (pic.width, pic.height) == (SIZE, SIZE)

    assert is_white_man(pic.at(*where[white_man])), pic.at(*where[white_man])
    assert is_black_man(pic.at(*where[black_man])), pic.at(*where[black_man])
    # kings carry a crown at the centre, and a ring distinct from the body
    assert is_crown(pic.at(*where[white_king])), pic.at(*where[white_king])
    assert is_crown(pic.at(*where[black_king])), pic.at(*where[black_king])
    # a black king's body is still black away from the crown and the ring
    r, c = where[black_king]
    assert is_black_man(pic.at(r, c, 0.5, 0.5 + 0.31)), pic.at(r, c, 0.5, 0.81)

    # the colouring: bottom-left corner, and an empty playing square / unplayable square
    bottom_left = pic.at(n - 1, 0, 0.9, 0.1) if (n - 1, 0) in where.values() else pic.at(n - 1, 0)
    assert close(bottom_left, DARK if standard else LIGHT), bottom_left
    mid = n // 2
    playable = (mid, 1 if (mid + 1) % 2 == (1 if standard else 0) else 0)
    other = (mid, playable[1] + 1)
    assert close(pic.at(*playable), DARK), pic.at(*playable)
    assert close(pic.at(*other), LIGHT), pic.at(*other)


def test_flipped_turns_the_board_round():
    board = draughts.Board("W:W32:BK1", variant="american")
    pic = Picture(svg.board(board, size=SIZE, flipped=True), 8)
    assert is_white_man(pic.at(0, 1))  # 32 at (7, 6) turns to (0, 1)
    assert is_crown(pic.at(7, 6))  # 1 at (0, 1) turns to (7, 6)
    assert close(pic.at(7, 0), DARK)  # still a dark corner at the bottom left


def test_last_move_is_marked():
    board = draughts.Board(variant="american")
    board.push("11-15")
    text = svg.board(board, lastmove=True, size=SIZE)
    pic = Picture(text, 8)
    start, end = (2, 5), (3, 4)  # 11 and 15 on the american grid
    marked = pic.at(*start)
    assert not close(marked, DARK) and not close(marked, LIGHT), marked
    assert is_black_man(pic.at(*end))
    assert not close(pic.at(*end, 0.06, 0.94), DARK), "the end square's corner is marked too"
    assert close(pic.at(3, 2), DARK)  # 14: not marked
    # the same by text, and by a Move
    assert svg.board(board, lastmove="11-15", size=SIZE) == text
    assert svg.board(board, lastmove=board.peek(), size=SIZE) == text
    assert 'class="lastmove"' not in svg.board(board, size=SIZE)


def test_structure_labels_and_repr_svg():
    for name, labels in (("american", {"1", "32"}), ("russian", {"a1", "h8"}), ("international", {"1", "50"})):
        board = draughts.Board(variant=name)
        text = board._repr_svg_()
        root = ET.fromstring(text)
        ns = "{http://www.w3.org/2000/svg}"
        n = board.variant.size
        assert len(root.findall(f"{ns}rect[@class='square dark']")) == n * n // 2
        texts = {t.text for t in root.iter(f"{ns}text")}
        assert labels <= texts and len(texts) == n * n // 2
        pieces = root.findall(f"{ns}g")
        assert len(pieces) == 2 * board.variant.men_per_side
        assert all("man" in g.get("class") for g in pieces)
    root = ET.fromstring(svg.board(draughts.Board("W:WK1:B2", variant="american"), labels=False))
    assert not list(root.iter("{http://www.w3.org/2000/svg}text"))
    assert root.find("{http://www.w3.org/2000/svg}g[@class='piece white king']") is not None


def test_bad_arguments():
    board = draughts.Board(variant="american")
    with pytest.raises(draughts.DraughtsError):
        svg.board(board, size=0)
    with pytest.raises(draughts.DraughtsError):
        svg.board(board, lastmove="77-99")
    with pytest.raises(draughts.DraughtsError):
        svg.board(board, colors={"purple": "#800080"})
    with pytest.raises(TypeError):
        svg.board("not a board")


def test_svg_command(tmp_path):
    out = tmp_path / "b.svg"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "svg",
            "--variant",
            "italian",
            "--fen",
            "W:W32,K1:BK29,4",
            "-o",
            str(out),
            "--size",
            "320",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    pic = Picture(out.read_text(), 8)
    assert pic.width == 320
    assert is_white_man(pic.at(7, 7)) and is_crown(pic.at(0, 0))
    assert close(pic.at(7, 0), LIGHT)
    run = subprocess.run(
        [sys.executable, "-m", "draughts", "svg", "-v", "russian", "--flip", "--lastmove", "c3-d4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and run.stdout.startswith("<svg"), run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "draughts", "svg", "--fen", "nonsense"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "error" in run.stderr
