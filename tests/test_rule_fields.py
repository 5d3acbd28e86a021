"""The rules declared once (draughts_core.rule_fields.RULES): every rule has one
name in the Variant, CoreRules and the core's C struct, reaches the struct and
comes back by that name, and the endgame tables and opening books key on the
names (the shipped ones still found and read)."""

import dataclasses
import os
import pickle

import pytest

import draughts
from draughts import book, egdb
from draughts.egdb import format as egdb_format
from draughts.variants import VARIANTS, Variant
from draughts_core import position, rule_fields
from draughts_core.position import CoreRules
from draughts_core.rule_fields import (
    BY_NAME,
    DRAW,
    LEGACY_NAMES,
    MOVE,
    MOVE_RULE_FIELDS,
    RULE_FIELDS,
    RULES,
    RuleField,
    current_names,
    differing_rules,
)


def core_values(field):
    """Every value the core allows for a rule (ints of the unbounded ones: a few)."""
    if field.kind == "choice":
        return range(len(field.choices))
    return range(field.low, (field.high if field.high is not None else field.low + 3) + 1)


def test_one_name_for_each_rule_in_every_layer():
    assert len(set(RULE_FIELDS)) == len(RULES)
    assert set(RULE_FIELDS) == set(MOVE_RULE_FIELDS) | set(rule_fields.DRAW_RULE_FIELDS)
    assert all(f.group in (MOVE, DRAW) for f in RULES)
    # the core's names are the Variant's: every rule is a Variant field
    variant_fields = {f.name for f in dataclasses.fields(Variant)}
    assert [name for name in RULE_FIELDS if name not in variant_fields] == []
    # the C struct has exactly the declared fields, besides the derived `extended` and `family`
    assert set(position._STRUCT_FIELDS) == set(RULE_FIELDS) | {"extended", "family"}
    assert position.RULE_FIELDS == RULE_FIELDS and position.MOVE_RULE_FIELDS == MOVE_RULE_FIELDS
    # the former core names are gone from the declaration
    assert not set(LEGACY_NAMES) & set(RULE_FIELDS) and set(LEGACY_NAMES.values()) <= set(RULE_FIELDS)


def test_a_rule_declared_without_its_struct_field_or_the_reverse_is_refused():
    """Adding a rule to the declaration alone (or to the struct alone) fails when
    the core is imported, naming the rule."""
    position._check_struct(RULE_FIELDS)
    with pytest.raises(ImportError, match="only declared.*new_rule"):
        position._check_struct(RULE_FIELDS + ("new_rule",))
    with pytest.raises(ImportError, match="only in the struct.*no_turn_back"):
        position._check_struct(tuple(n for n in RULE_FIELDS if n != "no_turn_back"))


@pytest.mark.parametrize("name", RULE_FIELDS)
def test_every_rule_reaches_the_struct_and_comes_back_by_name(name):
    """Each value a rule allows goes into the struct field of its name and comes
    back by that name alone (as_dict, move_rules, repr, pickling)."""
    field = BY_NAME[name]
    base = draughts.variant("american" if name == "geometry" else "international").core_rules.as_dict()
    seen = 0
    for value in core_values(field):
        rules = dict(base, **{name: value})
        if name == "remove_at_once" and value:
            rules["orthogonal_captures"] = 0
        try:
            core = CoreRules(**rules)
        except ValueError:
            assert name == "size"  # 9: only 8 and 10 are boards
            continue
        seen += 1
        got = core.as_dict()
        assert list(got) == list(RULE_FIELDS)
        assert got == rules
        assert pickle.loads(pickle.dumps(core)).as_dict() == rules
        assert f"{name}={value}" in repr(core)[len("CoreRules(") : -1].split(", ")
        if field.group == MOVE:
            assert core.move_rules() == {n: rules[n] for n in MOVE_RULE_FIELDS}
        else:
            assert name not in core.move_rules()
    assert seen >= 2


def test_core_rules_are_keywords_only_and_checked():
    rules = draughts.variant("international").core_rules.as_dict()
    with pytest.raises(TypeError):
        CoreRules(*rules.values())
    with pytest.raises(TypeError, match="unknown rule men_back"):
        CoreRules(**rules, men_back=1)
    with pytest.raises(TypeError, match="flying_kings"):
        CoreRules(**{k: v for k, v in rules.items() if k != "flying_kings"})
    with pytest.raises(ValueError, match="crown_during_capture must be 0 to 2, not 3"):
        CoreRules(**dict(rules, crown_during_capture=3))
    with pytest.raises(ValueError, match="quiet_plies must be >= 0"):
        CoreRules(**dict(rules, quiet_plies=-1))
    # the rules added after the first ones are off unless named
    short = {k: rules[k] for k in RULE_FIELDS if BY_NAME[k].default is None}
    assert CoreRules(**short).as_dict() == dict(rules, quiet_plies=0, endgame_rules=0)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_packs_each_rule_by_its_name(name):
    v = VARIANTS[name]
    got = v.core_rules.as_dict()
    for field in RULES:
        value = getattr(v, field.name)
        assert got[field.name] == (field.choices.index(value) if field.kind == "choice" else int(value))


@pytest.mark.parametrize("name", [n for n in RULE_FIELDS if n != "size"])
def test_changing_one_rule_of_a_variant_changes_that_rule_in_the_core(name):
    field = BY_NAME[name]
    base = draughts.variant("american" if name == "geometry" else "russian")
    if field.kind == "choice":
        options = field.choices
    elif field.kind is bool:
        options = (False, True)
    else:
        options = range(field.low, (field.high if field.high is not None else 2) + 1)
    changed = 0
    for option in options:
        if option == getattr(base, name):
            continue
        try:
            v = base.replace(**{name: option})
        except draughts.errors.VariantError:
            continue
        diff = {k for k, x in v.core_rules.as_dict().items() if base.core_rules.as_dict()[k] != x}
        assert diff == {name}
        changed += 1
    assert changed


# --- the endgame tables: keyed by name, the shipped ones still found -------------------


def test_the_shipped_tables_are_found_under_the_names_they_ship_with():
    shipped = sorted(os.listdir(egdb.shipped_dir()))
    assert "international-2d07bda0" in shipped
    names = sorted({egdb.rules_name(v) for v in VARIANTS.values() if egdb.supported(v)})
    assert set(shipped) <= set(names)
    assert egdb.rules_name(draughts.variant("international")) == "international-2d07bda0"
    for directory in shipped:
        v = draughts.variant(directory.rsplit("-", 1)[0])
        assert egdb.rules_dir(v, egdb.shipped_dir()) == os.path.join(egdb.shipped_dir(), directory)
        assert egdb.complete_pieces(v, egdb.shipped_dir()) == 4


def test_the_table_key_is_read_by_name_in_the_formats_order():
    rules = draughts.variant("international").core_rules.move_rules()
    key = egdb_format.table_key(rules)
    assert key == (10, 1, 1, 1, 1, 0, 0, 0, 2, 0, 1)
    assert egdb_format.key_digest(key) == "2d07bda0"
    # the order in which the rules are given (or declared) does not matter
    assert egdb_format.table_key(dict(reversed(list(rules.items())))) == key


def test_a_move_rule_added_later_leaves_the_tables_while_it_is_off(monkeypatch):
    """A rule added to the declaration: off, the tables' key and directories stay;
    on, the variant has no tables (the format does not hold it)."""
    new = RuleField("new_rule", MOVE)
    monkeypatch.setitem(rule_fields.BY_NAME, "new_rule", new)
    rules = draughts.variant("international").core_rules.move_rules()
    key = egdb_format.table_key(rules)
    assert egdb_format.unsupported_rules(dict(rules, new_rule=0)) == []
    assert egdb_format.table_key(dict(rules, new_rule=0)) == key
    assert egdb_format.unsupported_rules(dict(rules, new_rule=1)) == ["new_rule"]
    assert egdb_format.unsupported_rules(dict(rules, geometry=1)) == ["geometry"]


# --- the opening books: rules by name, the former names read as today's -----------------


@pytest.mark.parametrize("name", ["american", "international", "russian"])
def test_a_shipped_book_is_for_its_variant(name):
    # the american and russian books were written with the core's former rule names,
    # the international one (rebuilt since) with today's: both read the same
    b = book.Book(book.shipped_path(draughts.variant(name)))
    written = set(b.header["rules"])
    assert written & set(LEGACY_NAMES) if name != "international" else not written & set(LEGACY_NAMES)
    assert b.rules == current_names(b.header["rules"])
    assert not b.rules_differ(draughts.variant(name))
    b.check_rules(draughts.variant(name))
    with pytest.raises(draughts.errors.InvalidInputError, match="differ in men_capture_backwards"):
        b.check_rules(draughts.variant(name, men_capture_backwards=name == "american"))


def test_a_book_made_before_a_rule_existed_reads_it_as_off():
    rules = draughts.variant("american").core_rules.move_rules()
    older = {k: v for k, v in rules.items() if k != "no_turn_back"}
    assert differing_rules(older, rules) == []
    assert differing_rules(older, dict(rules, no_turn_back=1)) == ["no_turn_back"]
    # a rule this version does not know counts as off too
    assert differing_rules(dict(rules, later_rule=0), rules) == []
    assert differing_rules(dict(rules, later_rule=1), rules) == ["later_rule"]
    assert differing_rules(current_names({"men_back": 1}), {"men_capture_backwards": 1}) == []
