"""NPC templates as data: the storyteller file loads, and bad data is refused naming the key."""

from __future__ import annotations

import copy

import pytest

from rules.data import RulesDataError
from rules.data.templates import TEMPLATES_DIR, load_templates, parse_templates
from rules.systems import get_system
from rules.systems.base import Combatant

ST = get_system("storyteller")


def load(data):
    return parse_templates(data, ST.trait_names, ST.kinds, tuple(ST.weapons), where="test.toml")


def good():
    return {"templates": {"thug": {"name": "Thug", "kind": "Muggle", "weapon": "switchblade",
                                   "traits": {"Strength": 3, "Brawl": 2}}}}


def test_storyteller_templates_load_and_use_canonical_traits():
    table = load_templates("storyteller", ST.trait_names, ST.kinds, tuple(ST.weapons))
    assert {"thug", "guard", "auror", "dark-wizard", "werewolf", "vampire"} <= set(table)
    thug = table["thug"]
    assert (thug.name, thug.kind, thug.weapon) == ("Thug", "Muggle", "switchblade")
    assert thug.traits["Strength"] == 3
    assert table["werewolf"].base_kind == "Muggle"
    assert table["dark-wizard"].name == "Dark Wizard"
    for template in table.values():
        assert set(template.traits) <= set(ST.trait_names)
        assert {"Wits", "Dexterity"} <= set(template.traits)  # every template can roll initiative
    with pytest.raises(TypeError):
        thug.traits["Strength"] = 5  # frozen


def test_eldritch_templates_load_with_bought_maneuvers_and_their_life_points():
    eldritch = get_system("eldritch")
    table = load_templates("eldritch", eldritch.trait_names, {}, tuple(eldritch.weapons))
    assert set(table) == {"thug", "cop", "martial-artist", "vampire"}
    assert (table["thug"].weapon, table["cop"].weapon, table["martial-artist"].weapon) == ("bat", "9mm", "")
    assert table["martial-artist"].traits["Wall Flip"] == 1          # a maneuver bought
    life = {key: eldritch.life_points(Combatant(name=t.name, traits=dict(t.traits))) for key, t in table.items()}
    # (Strength + Constitution) x 4 + 10, +3 per level of Hard to Kill
    assert life == {"thug": 34, "cop": 26, "martial-artist": 34, "vampire": 55}
    for template in table.values():   # every template can roll initiative
        assert {"Dexterity", "Perception"} <= set(template.traits)


def test_ratings_follow_the_systems_trait_ranges():
    elethril = get_system("elethril")
    data = {"templates": {"knight": {"name": "Knight", "kind": "Human", "weapon": "long-sword",
                                     "traits": {"THAC0": 15, "Armor Class": -2, "Hit Points": 44}}}}
    knight = parse_templates(data, elethril.trait_names, elethril.kinds, tuple(elethril.weapons),
                             trait_range=elethril.trait_range)["knight"]
    assert (knight.traits["Armor Class"], knight.traits["Hit Points"]) == (-2, 44)
    data["templates"]["knight"]["traits"]["Armor Class"] = 11
    with pytest.raises(RulesDataError, match=r"traits.Armor Class: expected a whole number -10 to 10, got 11."):
        parse_templates(data, elethril.trait_names, elethril.kinds, tuple(elethril.weapons),
                        trait_range=elethril.trait_range)


def test_a_system_without_a_file_has_no_templates(tmp_path):
    assert load_templates("eldritch", ("Strength",), data_dir=tmp_path) == {}
    assert (TEMPLATES_DIR / "storyteller.toml").exists()


def test_minimal_template():
    template = load(good())["thug"]
    assert dict(template.traits) == {"Strength": 3, "Brawl": 2}
    assert template.base_kind == ""


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t["traits"].update(Strenght=3), "test.toml: templates.thug.traits: unknown trait 'Strenght'."),
    (lambda t: t["traits"].update(strength=3), "unknown trait 'strength' (did you mean 'Strength'?)"),
    (lambda t: t["traits"].update(Strength=21), "templates.thug.traits.Strength: expected a whole number 0 to 20, got 21."),
    (lambda t: t["traits"].update(Strength=-1), "templates.thug.traits.Strength: expected a whole number 0 to 20"),
    (lambda t: t["traits"].update(Strength="3"), "templates.thug.traits.Strength: expected a whole number 0 to 20, got '3'."),
    (lambda t: t["traits"].update(Strength=True), "templates.thug.traits.Strength: expected a whole number"),
    (lambda t: t["traits"].update(Strength=2.5), "templates.thug.traits.Strength: expected a whole number"),
    (lambda t: t.update(kind="Zombie"), "templates.thug.kind: unknown kind 'Zombie'; kinds: Muggle, Wizard"),
    (lambda t: t.pop("kind"), "templates.thug: missing 'kind'."),
    (lambda t: t.update(weapon="laser"), "templates.thug.weapon: unknown weapon 'laser'; weapons: dagger"),
    (lambda t: t.update(weapon=3), "templates.thug.weapon: unknown weapon 3"),
    (lambda t: t.update(base_kind="Wizard"), "templates.thug.base_kind: only kinds with base kinds"),
    (lambda t: t.update(kind="Werewolf", base_kind="Vampire"), "templates.thug.base_kind: expected one of Muggle, Wizard"),
    (lambda t: t.pop("name"), "templates.thug: missing 'name'."),
    (lambda t: t.update(name="|rThug"), "templates.thug.name: 1-20 ASCII letters"),
    (lambda t: t.update(name="A very long name indeed"), "templates.thug.name: 1-20 ASCII letters"),
    (lambda t: t.pop("traits"), "templates.thug: missing 'traits'."),
    (lambda t: t.update(traits=[1, 2]), "templates.thug.traits: expected dict"),
    (lambda t: t.update(helth=3), "templates.thug: unknown field 'helth'"),
])
def test_bad_template_names_the_key(change, message):
    data = copy.deepcopy(good())
    change(data["templates"]["thug"])
    with pytest.raises(RulesDataError) as err:
        load(data)
    assert message in str(err.value)


def test_bad_keys_and_tables():
    with pytest.raises(RulesDataError, match="templates.Thug!: template keys are lower-case"):
        load({"templates": {"Thug!": good()["templates"]["thug"]}})
    with pytest.raises(RulesDataError, match="templates.thug: expected a table"):
        load({"templates": {"thug": 3}})
    with pytest.raises(RulesDataError, match="unexpected table 'template'"):
        load({"template": {}})
    with pytest.raises(RulesDataError, match="missing 'templates'"):
        load({})


def test_systems_without_kinds_take_no_kind():
    table = parse_templates({"templates": {"orc": {"name": "Orc", "traits": {"HP": 8}}}}, ("HP",))
    assert table["orc"].kind == ""
    with pytest.raises(RulesDataError, match="templates.orc.kind: this system has no creature kinds"):
        parse_templates({"templates": {"orc": {"name": "Orc", "kind": "Orc", "traits": {}}}}, ("HP",))


def test_bad_toml_file(tmp_path):
    (tmp_path / "storyteller.toml").write_text("[templates.thug\n")
    with pytest.raises(RulesDataError, match="storyteller.toml"):
        load_templates("storyteller", ST.trait_names, ST.kinds, tuple(ST.weapons), data_dir=tmp_path)
    (tmp_path / "storyteller.toml").write_text('[templates.thug]\nname = "Thug"\nkind = "Muggle"\n'
                                              "[templates.thug.traits]\nStrenght = 3\n")
    with pytest.raises(RulesDataError, match=r"storyteller.toml: templates.thug.traits: unknown trait 'Strenght'"):
        load_templates("storyteller", ST.trait_names, ST.kinds, tuple(ST.weapons), data_dir=tmp_path)


def test_every_storyteller_caster_has_the_traits_a_cast_attack_rolls_to_hit():
    """A template with Power casts (storyteller magic), and a cast attack spell rolls Dexterity +
    Dueling to hit (the storyteller seed, Magical Attack): the Auror and the Dark Wizard have
    Dueling, not only the Dexterity every template has."""
    magic = ST.magic
    table = load_templates("storyteller", ST.trait_names, ST.kinds, tuple(ST.weapons))
    casters = {key: t for key, t in table.items() if t.traits.get(magic.power_trait, 0) > 0}
    assert set(casters) == {"auror", "dark-wizard"}
    assert magic.to_hit == ("Dexterity", "Dueling")
    for key, template in casters.items():
        assert all(template.traits.get(name, 0) > 0 for name in magic.to_hit), key
    assert (table["auror"].traits["Dueling"], table["dark-wizard"].traits["Dueling"]) == (4, 3)
