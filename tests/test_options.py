"""Each engine option is declared once (draughts.options): the Engine, the Hub's
`param` lines, the match runner's help and docs/hub.md's table follow it."""

import dataclasses
import os
import re

import pytest

from draughts import engine, options
from draughts.engine import Engine
from draughts.errors import DraughtsError
from draughts.hub.server import HubServer
from draughts.match.cli import MATCH_USAGE

DOCS = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "hub.md")


def _docs_rows():
    rows = {}
    with open(DOCS, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\| `([a-z-]+)` \| ([^|]+) \|", line)
            if m:
                rows[m.group(1)] = m.group(2).strip()
    return rows


def _text(value):
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def test_the_hub_declares_the_tables_options_in_order():
    server = HubServer(lambda line: None)
    assert list(server.params) == [o.name for o in options.OPTIONS if o.hub]
    for o in options.hub_options():
        p = server.params[o.name]
        assert (p.type, p.value, p.min, p.max, tuple(p.values)) == (o.type, o.default, o.min, o.max, o.values)


def test_the_engine_takes_the_tables_engine_options():
    assert set(engine.OPTIONS) == {o.name for o in options.OPTIONS if o.engine}
    e = Engine("american", tt_mb=1, egdb=None)
    for o in options.engine_options():
        if o.type == "int":
            with pytest.raises(DraughtsError, match=o.name):
                e.configure({o.name: o.max + 1})
            e.configure({o.name: o.min if o.name != "tt-size" else 1})


def test_the_engine_and_the_hub_agree_on_move_overhead():
    """Once 0-5000 ms in the Hub and 0-60000 in the engine: one range now."""
    o = options.BY_NAME["move-overhead"]
    e = Engine("american", tt_mb=1, egdb=None)
    e.configure({"move-overhead": o.max})
    with pytest.raises(DraughtsError, match=f"from 0 to {o.max}"):
        e.configure({"move-overhead": o.max + 1})
    assert abs(engine.DEFAULT_MOVE_OVERHEAD * 1000 - o.default) < 1e-9


def test_docs_list_every_hub_option_with_its_type_and_default():
    rows = _docs_rows()
    for o in options.hub_options():
        assert o.name in rows, f"docs/hub.md has no row for {o.name}"
        cell = rows[o.name]
        assert cell.startswith(o.range_text()), (o.name, cell)
        assert cell.endswith(f"`{_text(o.default)}`"), (o.name, cell)


def test_the_match_help_lists_the_engine_options():
    for o in options.engine_options():
        if o.name != "variant":
            assert f" {o.name}" in MATCH_USAGE


def test_an_option_added_to_the_table_reaches_the_engine_and_the_hub(monkeypatch):
    knob = options.Option("knob", "int", 3, "a new setting", 0, 9)
    monkeypatch.setattr(options, "OPTIONS", options.OPTIONS + (knob,))
    server = HubServer(lambda line: None)
    assert server.params["knob"].line() == "param name=knob value=3 type=int min=0 max=9"
    check = engine._checker(knob)
    assert check("5") == 5
    with pytest.raises(DraughtsError, match="knob must be a whole number from 0 to 9"):
        check(10)
    text = dataclasses.replace(knob, name="words", type="string")
    with pytest.raises(AssertionError, match="words has no reader"):
        engine._checker(text)


def test_every_match_option_is_in_the_help_and_the_help_names_no_other():
    from draughts.match import cli as match_cli

    named = set(re.findall(r"(?<![\w-])-([a-z][a-z-]*)", match_cli.MATCH_USAGE))
    assert set(match_cli.MATCH_OPTIONS) == named


def test_a_match_option_added_to_the_declaration_is_read_by_its_kind(monkeypatch):
    from draughts.match import cli as match_cli

    monkeypatch.setitem(match_cli.MATCH_OPTIONS, "knob", ("value", False))
    monkeypatch.setitem(match_cli.MATCH_OPTIONS, "quiet-knob", ("flag", True))
    assert match_cli.split_options(["-knob", "3", "--quiet-knob"]) == [("knob", ["3"]), ("quiet-knob", [])]
    with pytest.raises(DraughtsError, match="-knob takes one value, not 2"):
        match_cli.split_options(["-knob", "3", "4"])
    with pytest.raises(DraughtsError, match="-quiet-knob takes no value"):
        match_cli.split_options(["-quiet-knob", "3"])
    # -resume may change what the declaration says it may, and nothing else
    with pytest.raises(DraughtsError, match="cannot be changed with -knob"):
        match_cli.run_match(["-resume", "state.json", "-knob", "3", "-quiet-knob"])
    monkeypatch.delitem(match_cli.MATCH_OPTIONS, "knob")
    with pytest.raises(DraughtsError, match="unknown option -knob"):
        match_cli.split_options(["-knob", "3"])


def test_the_state_file_keeps_every_settings_field():
    """to_json/from_json follow the dataclass fields: a field added later
    round-trips without being written out by hand."""
    from draughts.match.cli import settings_from_options, split_options
    from draughts.match.settings import MatchSettings

    opts = split_options(
        [
            "-engine",
            "proto=builtin",
            "depth=2",
            "book=on",
            "option.level=3",
            "-engine",
            "proto=builtin",
            "depth=1",
            "name=b",
            "-games",
            "4",
            "-maxmoves",
            "90",
            "-sprt",
            "elo0=0",
            "elo1=10",
            "-show-latency",
            "-no-mandatory-capture",
            "-variant",
            "russian",
            "-event",
            "E",
        ]
    )
    settings = settings_from_options(opts)
    again = MatchSettings.from_json(settings.to_json())
    assert again == settings
    assert set(settings.to_json()) == {f.name for f in dataclasses.fields(MatchSettings)}
    assert again.engines[0].book is True and again.engines[0].options == (("level", "3"),)
    old = settings.to_json()
    del old["use_affinity"], old["engines"][0]["book"]  # a state file of an earlier version
    earlier = MatchSettings.from_json(old)
    assert earlier.use_affinity is None and earlier.engines[0].book is False
