"""One rule for numbers in text (draughts._args), used by every reader of
user and peer text: ASCII digits, an optional sign, blanks around ignored;
whole numbers have no point or exponent; numbers are finite."""

import pytest

from draughts import cli
from draughts._args import parse_bool, parse_int, parse_real
from draughts.dxp import protocol as P
from draughts.dxp.session import parse_address
from draughts.errors import DraughtsError, DxpError, OptionError
from draughts.match.cli import settings_from_options, split_options
from draughts.match.engines import parse_engine
from hub_scripts.transcript import ServerSession


@pytest.mark.parametrize("text, value", [("3", 3), ("+3", 3), (" 3", 3), ("3 ", 3), ("-3", -3), ("007", 7)])
def test_whole_numbers_the_rule_accepts(text, value):
    assert parse_int(text, "n") == value


@pytest.mark.parametrize(
    "text", ["٣", "٣٢", "3.0", "1e3", "nan", "inf", "", " ", "3_000", "0x10", "+", "۳", "3 3", "１"]
)
def test_whole_numbers_the_rule_rejects_with_the_option_named(text):
    with pytest.raises(OptionError) as err:
        parse_int(text, "--depth")
    assert str(err.value).startswith("--depth takes a whole number, not ")
    assert err.value.option == "--depth" and err.value.text == text
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "text, value",
    [
        ("3", 3.0),
        ("+3", 3.0),
        (" 3", 3.0),
        ("3.0", 3.0),
        ("1e3", 1000.0),
        (".5", 0.5),
        ("-0.25", -0.25),
        ("2E-2", 0.02),
    ],
)
def test_numbers_the_rule_accepts(text, value):
    assert parse_real(text, "x") == value


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "Infinity", "٣", "1e", "1e1000", "1_0", "", "0x1p3"])
def test_numbers_the_rule_rejects_with_the_option_named(text):
    with pytest.raises(OptionError, match=r"^movetime takes a number, not "):
        parse_real(text, "movetime")


def test_bounds_are_part_of_the_message():
    assert parse_int("64", "depth=", 0, 64) == 64
    with pytest.raises(OptionError, match=r"^depth= takes a whole number from 0 to 64, not '65'$"):
        parse_int("65", "depth=", 0, 64)
    with pytest.raises(OptionError, match=r"^-games takes a whole number of at least 1, not '0'$"):
        parse_int("0", "-games", low=1)
    with pytest.raises(OptionError, match=r"^--movetime takes a number above 0, not '0'$"):
        parse_real("0", "--movetime", above=0)


@pytest.mark.parametrize("text, value", [("on", True), ("OFF", False), (" true ", True), ("0", False), ("yes", True)])
def test_switches(text, value):
    assert parse_bool(text, "ponder") is value


@pytest.mark.parametrize("text", ["maybe", "٠", "", "2"])
def test_switches_the_rule_rejects(text):
    with pytest.raises(OptionError, match=r"^ponder takes true or false, not "):
        parse_bool(text, "ponder")


# --- the readers use the rule ------------------------------------------------------


@pytest.mark.parametrize(
    "argv, option",
    [
        (["perft", "--depth", "٣"], "--depth"),
        (["perft", "--depth", "3.0"], "--depth"),
        (["perft", "--threads", "0"], "--threads"),
        (["play", "--level", "٣"], "--level"),
        (["play", "--movetime", "nan"], "--movetime"),
        (["play", "--movetime", "0"], "--movetime"),
        (["analyze", "--depth", "٣"], "--depth"),
        (["svg", "--size", "8"], "--size"),
    ],
)
def test_the_command_line_rejects_what_the_rule_rejects(argv, option, capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main(argv)
    assert exit.value.code == 2
    assert f"argument {option}" in capsys.readouterr().err


def test_the_command_line_accepts_a_sign_and_blanks():
    args = cli.build_parser().parse_args(["perft", "--depth", "+3", "--threads", " 2"])
    assert (args.depth, args.threads) == (3, 2)


@pytest.mark.parametrize(
    "token, option",
    [("depth=٣", "depth="), ("nodes=1e3", "nodes="), ("port=٢٧٥٣١", "port="), ("restart=maybe", "restart=")],
)
def test_match_engine_settings_use_the_rule(token, option):
    tokens = ["cmd=x", "st=1", token] + (["proto=dxp"] if token.startswith("port") else [])
    with pytest.raises(OptionError) as err:
        parse_engine(tokens)
    assert err.value.option == option


@pytest.mark.parametrize(
    "argv, option",
    [
        (["-games", "٣"], "-games"),
        (["-rounds", "2.0"], "-rounds"),
        (["-sprt", "elo0=nan"], "-sprt elo0="),
        (["-resign", "movecount=3", "score=inf"], "-resign score="),
    ],
)
def test_match_options_use_the_rule(argv, option):
    with pytest.raises(OptionError) as err:
        settings_from_options(split_options(["-engine", "cmd=a", "st=1", "-engine", "cmd=b", "st=1", *argv]))
    assert err.value.option == option


def test_dxp_numbers_use_the_rule():
    assert parse_address("host:+27531", 1) == ("host", 27531)
    with pytest.raises(OptionError):
        parse_address("host:٢٧٥٣١", 1)
    with pytest.raises(DxpError, match="must be digits"):
        P.parse("R01" + "a" * 32 + "W-06" + "065A")  # minutes are a whole number from 0
    with pytest.raises(DxpError):
        P.parse("R01" + "a" * 32 + "W٠٦٠" + "065A")  # Arabic-Indic minutes


def test_a_hub1_engines_numbers_use_the_rule():
    from draughts.hub.hub1 import read_info

    info = read_info("١٣ nan -2 435186 inf 5.5".split())
    assert info.depth == 0 and info.time is None  # not numbers by the rule: not read (depth 0: none)
    assert info.score == -0.02 and info.nodes == 435186


def test_numbers_elsewhere_take_ascii_digits_only():
    from draughts._args import parse_int, parse_real
    from draughts.match.timecontrol import parse_tc

    for bad in ("٣", "1_000", "nan", "inf", "", " "):
        with pytest.raises(ValueError):
            parse_real(bad)
        with pytest.raises(ValueError):
            parse_int(bad)
    with pytest.raises(DraughtsError):
        parse_tc("٤٠/60")
    with pytest.raises(DraughtsError):
        settings_from_options(
            split_options(["-engine", "name=a", "cmd=draughts", "-engine", "name=b", "cmd=draughts", "-games", "٣"])
        )
    session = ServerSession()
    try:
        session.transcript("""
            > set-param name=tt-size value=٣٢
            < error message="tt-size takes a whole number from 1 to 65536, not '٣٢'"
            > level move-time=٣
            < error message="level move-time= takes a number, not '٣'"
            > pos start moves="٣٢-٢٨"
            < error message="move 1 of moves: '٣٢-٢٨' is not a Hub move (32-28, or 28x19x23: start x end x captured)"
        """)
    finally:
        session.close()
