"""Every event kind × every rule system × every output, rendered from the message catalogue:
telnet text (each viewer's), screen-reader sentences, GMCP, the web tracker and the scene log.

The message keys the code uses are read from its source (each ``say``, ``tell``,
``tell_controller`` and ``tell_room`` call, and the keys a call's key is chosen from); a key
with no entry in the catalogue fails here, and so does an entry that renders with a
placeholder left unfilled, a ``$function()`` left unparsed or a colour code left raw."""

import ast
import re
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from evennia.utils.test_resources import EvenniaTest
from evennia.utils.text2html import parse_html

from rules.engine import Event, Line
from rules.systems import get_system, system_keys
from world import catalogue, fights, gmcp, narration
from world.text import answering, escape, speak
from world.wording import line_text

ROOT = Path(__file__).resolve().parents[2]
#: The calls that name a message key, and the position of the key among their arguments.
KEYED_CALLS = {"say": 0, "tell": 1, "tell_controller": 1, "tell_room": 1, "Line": 0, "find_named": 3}
#: Keys built with an f-string, by where they are built: every key each can give.
BUILT = {
    ("rules/engine/actions.py", "f'fight.{intent.option}'"): ("fight.left_room", "fight.disconnected", "fight.back"),
    ("rules/engine/actions.py", "f\"control.{self.key}_{('on' if on else 'off')}\""):
        tuple(f"control.{key}_{on}" for key in ("lethal", "helpless", "posewait") for on in ("on", "off")),
}
#: Where the game passes a message key on that it got from elsewhere (a draft's own helpers, the
#: refusal find_named gives when no name matches).
PASSED_ON = {("rules/engine/draft.py", "key"), ("rules/engine/draft.py", "missing")}
#: Placeholders that name a fighter (a ref, shown as each viewer sees them); the rest are values.
REFS = {"actor", "target", "attacker", "holder", "partner", "who"}
#: Every value as something a player could have typed: shown literally everywhere.
VALUE = "V|r<b>&%cr"


#: The kind of event each keyed call makes.
KIND_OF = {"say": "said", "tell": "notice", "tell_controller": "notice", "tell_room": "said", "Line": "line",
           "find_named": "line"}


def used_keys() -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """({every message key the code names: the kinds of event it is told as}, the keys it
    builds another way, by where)."""
    keys: dict[str, set[str]] = {}
    built = set()
    for package in ("rules", "world", "commands"):
        for path in (ROOT / package).rglob("*.py"):
            where = str(path.relative_to(ROOT))
            tree = ast.parse(path.read_text())
            assigned: dict[int, set[str]] = {}
            for function in ast.walk(tree):
                if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names = {c.value for node in ast.walk(function) if isinstance(node, ast.Assign)
                             and any(isinstance(t, ast.Name) and t.id == "key" for t in node.targets)
                             for c in ast.walk(node.value) if isinstance(c, ast.Constant)
                             and isinstance(c.value, str) and re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", c.value)}
                    for node in ast.walk(function):
                        assigned.setdefault(id(node), set()).update(names)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                        and ast.unparse(node.func.value).endswith("_fates") and node.args \
                        and isinstance(node.args[0], ast.Tuple):
                    first = node.args[0].elts[0]
                    if isinstance(first, ast.Constant):
                        keys.setdefault(first.value, set()).add("said")
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name not in KEYED_CALLS:
                    continue
                key = next((k.value for k in node.keywords if k.arg == "key"), None)
                if key is None and len(node.args) > KEYED_CALLS[name]:
                    key = node.args[KEYED_CALLS[name]]
                if key is None:
                    continue
                named = set()
                if isinstance(key, ast.JoinedStr):
                    built.add((where, ast.unparse(key)))
                elif isinstance(key, ast.Name) and key.id == "key" and assigned.get(id(node)):
                    named = assigned[id(node)]
                elif isinstance(key, ast.Name):
                    built.add((where, key.id))
                else:
                    named = {c.value for c in ast.walk(key) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                             and re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", c.value)}
                for one in named:
                    keys.setdefault(one, set()).add(KIND_OF[name])
    for made in BUILT.values():
        for one in made:
            keys.setdefault(one, set()).add("said")
    return keys, built


def test_every_key_the_code_names_is_in_the_catalogue():
    keys, built = used_keys()
    assert built == set(BUILT) | PASSED_ON, "a message key built another way: list what it gives in BUILT"
    assert len(keys) >= 90, sorted(keys)
    missing = sorted(key for key in keys if key not in catalogue.defaults())
    assert missing == []


def shared(key: str) -> str:
    """The shared entry a system's own wording rewords (``elethril.control.no_side``:
    ``control.no_side``), else the key."""
    system, _, rest = key.partition(".")
    return rest if system in system_keys() and rest in catalogue.defaults() else key


def messages() -> list[tuple[str, str]]:
    """(kind, key) for every message of the catalogue but the prefixes and the fight's
    closing words (``ended``, below): as the code tells it (a key it does not name, as
    ``said``)."""
    used, _ = used_keys()
    return sorted((kind, key) for key in catalogue.defaults()
                  if not shared(key).startswith(("prefix.", "value.")) and not is_line(key) and not is_refusal(key)
                  and key not in ("fight.dice_revealed", "fight.seed")
                  for kind in sorted(used.get(shared(key)) or {"said"}))


def is_line(key: str) -> bool:
    """A line of working (``[line]``, ``[<system>.line]``: ``rules.lines.Line``), a roll-log
    title (``[title]``, ``[<system>.title]``), or a value a system's rules give as a line
    (``[<system>.value]``, but not a system's own words for a shared ``[value]``)."""
    return (key.startswith(("line.", "title.")) or ".line." in key or ".lines." in key or ".title." in key
            or (".value." in key and not shared(key).startswith("value.")))


def is_refusal(key: str) -> bool:
    """A refusal of the rules (``[refusal]``, ``[<system>.refusal]``: a ``CombatError`` raised
    with a ``rules.lines.Line``)."""
    return key.startswith("refusal.") or ".refusal." in key


def refusals() -> list[str]:
    """Every refusal of the catalogue."""
    return sorted(key for key in catalogue.defaults() if is_refusal(key))


def lines() -> list[str]:
    """Every line of working of the catalogue."""
    return sorted(key for key in catalogue.defaults() if is_line(key))


def test_every_message_of_the_catalogue_is_told_by_the_code():
    used, _ = used_keys()
    # (the prefixes, and [value] entries: how world.wording shows a value of a line)
    unused = sorted(key for key in catalogue.defaults() if shared(key) not in used
                    and not key.startswith(("prefix.", "value."))
                    and key not in ("fight.dice_revealed", "fight.seed"))
    assert unused == []


def texts(calls) -> list[str]:
    out = []
    for call in calls:
        text = call.kwargs.get("text", call.args[0] if call.args else "")
        out.append(text[0] if isinstance(text, tuple) else text)
    return out


class TestEveryEventEveryOutput(EvenniaTest):
    """Char (char1) acts, Char2 is the target, or the one told."""

    def setUp(self):
        super().setUp()
        catalogue.reload()
        self.sent: dict = {}
        for who in (self.char1, self.char2):
            patcher = mock.patch.object(who, "msg")
            self.sent[who] = patcher.start()
            self.addCleanup(patcher.stop)

    def event(self, kind: str, key: str = "", **fields) -> fights.FightEvent:
        template = catalogue.defaults().get(key, "")
        names = catalogue.fields(template) if template else []
        refs = {name: self.char2 for name in names if name in REFS and kind == "said"}
        values = {name: VALUE for name in names if name not in refs}
        engine = Event(kind, key=key, actor=self.char1.id, refs={n: o.id for n, o in refs.items()},
                       values={**values, **fields.pop("values", {})}, lines=fields.pop("lines", ()),
                       to=self.char2.id if kind != "said" else None, data=fields.pop("data", {}))
        return fights.FightEvent(fight=0, seq=1, round=1, event=engine, room=self.room1, actor=self.char1,
                                 refs=refs, to=self.char2 if kind != "said" else None)

    def telnet(self, event, system: str) -> dict:
        for sent in self.sent.values():
            sent.reset_mock()
        with mock.patch.object(narration, "system_key", return_value=system):
            narration.narrate(event)
        return {who: texts(sent.call_args_list) for who, sent in self.sent.items()}

    def check_rendered(self, text: str, where: str):
        assert text.strip(), where
        assert not re.search(r"(?<!\{)\{[a-z_]+\}(?!\})", text), f"{where}: a placeholder left: {text!r}"
        assert not re.search(r"(?<!\$)\$(You|you|conj|Your|your|pron|Pron)\(", text), f"{where}: {text!r}"

    def test_every_said_and_notice_renders_in_every_system_for_every_output(self):
        rendered = 0
        for system in system_keys():
            for kind, key in messages():
                if True:
                    where = f"{kind} {key} ({system})"
                    event = self.event(kind, key, lines=("Ann: 4 dice vs 6: 9 8 2 1 -> 2 successes",))
                    # telnet: every viewer's own text, the catalogue's words and the prefix
                    shown = self.telnet(event, system)
                    if kind == "said":
                        actor_text = "\n".join(shown[self.char1])
                        other_text = "\n".join(shown[self.char2])
                        for text in (actor_text, other_text):
                            self.check_rendered(text, where)
                            assert text.startswith("|y<Combat>|n "), where
                            assert "Ann: 4 dice vs 6" in text, where
                        if "$You()" in catalogue.entry(key, system):
                            assert actor_text.startswith("|y<Combat>|n You "), (where, actor_text)
                            assert other_text.startswith("|y<Combat>|n Char "), (where, other_text)
                        # the scene log: a bystander's plain text
                        logged = narration.narration_text(event, system)
                        self.check_rendered(logged, where)
                        assert logged.startswith("<Combat> ") and "|y" not in logged, (where, logged)
                        # the web tracker: HTML, escaped, colours as spans, no raw markup
                        html = narration.web_html(event, system)
                        self.check_rendered(html, where)
                        assert html.startswith('<span class="color-011">&lt;Combat&gt;</span> '), (where, html)
                        assert "<b>" not in html and "|y" not in html and "|n" not in html, (where, html)
                        if VALUE in event.values.values():
                            assert "V|r&lt;b&gt;&amp;%cr" in html, (where, html)
                        # the same as Evennia's parser makes of the whole (lines without
                        # markup are escaped without it)
                        whole = [narration.head_line(event, system)] + [
                            f"  {line_text(line, system)}" for line in event.lines]
                        assert html == parse_html("\n".join(whole)), (where, html)
                    else:
                        told = "\n".join(shown[self.char2])
                        self.check_rendered(told, where)
                        assert told.startswith("|y<Combat>|n "), where
                        assert shown[self.char1] == [], where
                        if VALUE in event.values.values():
                            assert "V||r<b>&%%cr" in told, (where, told)
                    # screen readers: the same words, the working's arrow read as a word
                    for text in (t for texts_ in shown.values() for t in texts_):
                        spoken_text = speak(text)
                        self.check_rendered(spoken_text, where)
                        assert " -> " not in spoken_text, where
                    rendered += 1
        assert rendered == len(system_keys()) * len(messages())
        assert len(messages()) > 90

    def test_the_other_kinds_reach_their_outputs(self):
        """``rolled`` and ``ended`` are told on telnet (from the catalogue's prefixes and
        entries); ``turn``, ``health``, ``roster``, ``order`` only move GMCP; every kind has
        GMCP note the room, the actor and whom it names."""
        rolled = self.event("rolled", values={"line": "Char1 rolls 2d6: 3 4 = 7"}, data={"private": False})
        shown = self.telnet(rolled, "storyteller")
        assert shown[self.char2] == ["|c<Roll>|n Char1 rolls 2d6: 3 4 = 7"]
        ended = self.event("ended", data={"seed": "ab" * 32})
        shown = self.telnet(ended, "storyteller")
        assert shown[self.char2] == ["|y<Combat>|n The dice of fight #0 are revealed: check them with "
                                     f"+combat/verify 0.\n  Seed: {'ab' * 32}"]
        for kind in ("turn", "health", "roster", "order"):
            assert self.telnet(self.event(kind, data={"round": 1}), "storyteller") == {self.char1: [], self.char2: []}
        for kind in ("said", "notice", "turn", "health", "roster", "order", "rolled", "ended"):
            noted = []
            with mock.patch.object(gmcp, "oob_sessions", return_value=[object()]), \
                    mock.patch.object(gmcp, "send", side_effect=noted.append):
                gmcp.on_event(self.event(kind, "fight.left" if kind in ("said", "notice") else ""))
            assert {self.char1, self.char2} <= set(noted), kind


def test_the_outputs_are_registered_in_one_place():
    """``world/subscribers.py`` is the only code that subscribes to the fights' events (no
    module subscribes as a side effect of its import), and it registers each output once."""
    calls = []
    for package in ("rules", "world", "commands", "typeclasses", "server", "web"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in ("subscribe", "when_settled"):
                    calls.append(str(path.relative_to(ROOT)))
    assert sorted(set(calls)) == ["world/subscribers.py"]
    registered = []
    recorders = []
    with mock.patch.object(fights, "subscribe", side_effect=registered.append), \
            mock.patch.object(fights, "record_with", side_effect=recorders.append), \
            mock.patch.object(fights, "when_settled"):
        from world import subscribers

        subscribers.register()
    from world import ai, poses, scenes, tracker

    assert registered == [narration.narrate, gmcp.on_event, tracker.on_event, scenes.on_fight_event,
                          poses.on_fight_event, ai.heard]
    assert recorders == [tracker.record]


class TestEveryLineEveryOutput(EvenniaTest):
    """Each ``[line]`` entry under a ``said`` event, in every system, for every output; a
    health value is its track's boxes, and for a screen reader its counts in words."""

    def setUp(self):
        super().setUp()
        catalogue.reload()
        self.sent = {}
        for who in (self.char1, self.char2):
            patcher = mock.patch.object(who, "msg")
            self.sent[who] = patcher.start()
            self.addCleanup(patcher.stop)

    def line(self, key: str) -> Line:
        hurt = get_system("storyteller").health({"lethal": 1, "bashing": 1})
        return Line(key, {name: hurt if name == "health" else VALUE
                          for name in catalogue.fields(catalogue.defaults()[key])})

    def test_every_line_renders_in_every_system_for_every_output(self):
        used, _ = used_keys()
        assert sorted(key for key, kinds in used.items()
                      if "line" in kinds and not is_refusal(key) and not key.startswith("value.")) == lines()
        rendered = 0
        for system in system_keys():
            for key in lines():
                line = self.line(key)
                event = fights.FightEvent(fight=0, seq=1, round=1, room=self.room1, actor=self.char1,
                                          event=Event("said", key="fight.left", actor=self.char1.id, lines=(line,)))
                for sent in self.sent.values():
                    sent.reset_mock()
                with mock.patch.object(narration, "system_key", return_value=system):
                    narration.narrate(event)
                head, told = texts(self.sent[self.char2].call_args_list)[-1].split("\n", 1)
                assert head == "|y<Combat>|n Char leaves the fight.", (key, head)
                assert told.startswith("  "), (key, told)
                assert "V||r<b>&%%cr" in told or "{" not in catalogue.defaults()[key], (key, told)
                if "health" in line.values:
                    assert "Hurt (-1) [LB.....]" in told, (key, told)
                    # a screen reader's session: the same line, the track in words from its counts
                    with mock.patch.object(narration, "system_key", return_value=system), \
                            mock.patch.object(narration, "reads_aloud", return_value=True), \
                            mock.patch.object(self.char2.sessions, "all", return_value=["reader"]):
                        narration.narrate(event)
                    spoken_call = self.sent[self.char2].call_args_list[-1]
                    assert spoken_call.kwargs["text"][0].startswith("|y<Combat>|n Char leaves the fight.\n  ")
                    assert "Hurt (-1), 1 lethal, 1 bashing, 5 of 7 free" in spoken_call.kwargs["text"][0]
                logged = narration.narration_text(event, system).splitlines()[1]
                assert "V|r<b>&%cr" in logged or "{" not in catalogue.defaults()[key], (key, logged)
                html = narration.web_html(event, system)
                assert "<b>" not in html and ("&lt;b&gt;" in html or not line.values), (key, html)
                self.assertNotRegex(logged + told + html, r"(?<!\{)\{[a-z_]+\}(?!\})")
                rendered += 1
        assert rendered == len(system_keys()) * len(lines()) >= 12


def test_a_system_s_own_entry_that_rewords_a_shared_one_keeps_its_placeholders():
    """``<system>.<key>`` is that system's wording of the shared ``<key>`` where both exist:
    the same facts to fill, or a shared line made by the engine would lose them (or find
    placeholders nothing fills) in that system's fights."""
    defaults = catalogue.defaults()
    reworded = [(key, shared(key)) for key in defaults if shared(key) != key]
    assert len(reworded) >= 1
    assert [(key, base) for key, base in reworded
            if catalogue.fields(defaults[key]) != catalogue.fields(defaults[base])] == []


class TestEveryRefusal(EvenniaTest):
    """Each refusal of the rules, in every system: ``str()`` of the error is one line of the
    catalogue's words, every value in it as typed, no placeholder left; told to the player
    escaped. The dice parser's (``dice.refusal``) as a ``DiceSyntaxError``, chargen's
    (``chargen.refusal``) as a ``ChargenError``, the rest as a ``CombatError``."""

    def test_every_refusal_reads_as_one_line_in_every_system(self):
        from rules.chargen import ChargenError
        from rules.dice import DiceSyntaxError
        from rules.systems import CombatError

        used, _ = used_keys()
        # (a system's own wording of a shared refusal, eldritch.dice.refusal.no_difficulty, is
        # told as the shared one)
        assert sorted(key for key in used if is_refusal(key)) == sorted({shared(key) for key in refusals()})
        assert len(refusals()) >= 100
        for key in refusals():
            values = dict.fromkeys(catalogue.fields(catalogue.defaults()[key]), VALUE)
            error = DiceSyntaxError if shared(key).startswith("dice.") else \
                ChargenError if key.startswith("chargen.") else CombatError
            said = str(error(Line(key, values)))
            assert "\n" not in said and said.strip() == said and said, (key, said)
            assert VALUE in said or not values, (key, said)
            self.assertNotRegex(said, r"(?<!\{)\{[a-z_0-9]+\}(?!\})")
            assert escape(said).count("||r") == said.count("|r"), (key, said)


class TestTheTypistHearsFirst(EvenniaTest):
    """The command's typist is told an event before the rest of the room: their answer is on
    its way to the Portal while the room's copies are made (``world.text.answering``)."""

    def test_the_typist_is_told_before_the_room_with_or_without_lines(self):
        told = []
        for who in (self.char1, self.char2):
            patcher = mock.patch.object(who, "msg", side_effect=lambda *args, who=who, **kwargs: told.append(who.key))
            patcher.start()
            self.addCleanup(patcher.stop)
        rolled = (Line("line.roll_of", {"name": "Ann", "roll": "a roll"}),)
        for lines in (rolled, ()):
            event = fights.FightEvent(fight=0, seq=1, round=1, room=self.room1, actor=self.char1,
                                      event=Event("said", key="fight.left", actor=self.char1.id, lines=lines))
            with mock.patch.object(narration, "system_key", return_value="storyteller"):
                told.clear()
                narration.narrate(event)
                room_order = list(told)
                assert sorted(room_order) == ["Char", "Char2"]
                for typist, other in ((self.char1, self.char2), (self.char2, self.char1)):
                    told.clear()
                    with answering(SimpleNamespace(puppet=typist)):
                        narration.narrate(event)
                    assert told == [typist.key, other.key], (lines, told)
