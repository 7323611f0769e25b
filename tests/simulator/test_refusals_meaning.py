"""A refusal states the policy's rule in its own words: read by meaning (`simulator/refusals.py`), with
WordNet's words of the same and the opposite meaning (`simulator/synonyms.py`); a refusal with no
reason, a vague one or another request's rule settles nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taue.simulator import synonyms
from taue.simulator.refusals import states_rule
from taue.simulator.scripted import ScriptedUser
from tests.factories import make_task

ROOT = Path(__file__).resolve().parents[2]
LEAD = "I'm afraid I can't do that for SP40230, because our rules say: "

STATED = [
    ("previously on hold; inactive", "already paused"),  # a prior-state adverb, a verb of the class
    ("previously on hold; inactive", "not active"),  # the opposite word carries the negation
    ("the order has shipped already", "already shipped"),
    ("your order was shipped last week", "already shipped"),  # a state reached says "already"
    ("biggest table; events staff", "largest table"),  # WordNet: big ~ large
    ("out of room; zero places", "no seats"),  # place ~ seat, "zero" negates
    ("previously finished; previously been finished", "already completed"),  # finish ~ complete
    ("identical title; identical picture", "same movie"),  # identical ~ same, picture ~ movie
    ("in no way sufficient cash", "not enough"),
    ("final seating; shut", "closed"),  # shut ~ closed
    ("65-plus", "65 or older"),  # the same number, bounded: the same limit
    ("nobody under 65 can have it", "65 or older"),
    ("3 thousand", "3,000"),
    ("no-refund", "non-refundable"),
    ("a card or a wire", "credit card or bank transfer"),  # most of the options, in a list as long
    ("a single time each season; a single break", "one pause"),
    # terms of service rules (`terms.py`), said in words the policy-paraphraser agent does not use
    ("the cut-off for enrolling in a section has gone by", "add deadline"),
    ("the last day to pull out of a class was last week", "withdrawal deadline"),
    ("the doctor isn't seeing anyone that day, it's outside their timetable", "not on their schedule"),
    ("we only change purchases that are still outstanding", "only pending orders"),
    ("this one is no longer open", "not pending"),
    ("it has to be exactly the advertised price", "exactly as listed"),
    ("a missed reservation can't be refunded", "no-show"),
    ("your plan excludes that repair", "not covered"),
    ("the statement must carry the current date", "dated today"),
]
NOT_STATED = [
    ("", "already paused"),  # no reason
    ("", "largest table"),
    ("it's against our policy.", "not active"),  # vague
    ("our policy doesn't allow it.", "no seats"),
    ("that isn't permitted under our rules.", "credit card or bank transfer"),
    ("a single time each season; a single break", "already paused"),  # another request's rule
    ("once per season; one pause", "already paused"),
    ("age bracket; overly aged", "already used"),
    ("exactly as listed; listed price", "not listed"),  # the negation refuses, it does not qualify
    ("previously reserved; previously claimed", "not on the schedule"),
    ("can't be taken off; not ever taken off", "already taken"),
    ("the method first used to pay", "already used"),
    ("I can charge your card", "credit card or bank transfer"),  # one option, no list
    ("8 seats", "65 or older"),
    ("too little money; in no way sufficient cash", "already paused"),
    ("that's not possible, our policy is very clear on this.", "not free"),  # "not" is too far back
    ("I cannot complete that request.", "full"),  # "full" is "complete" only in a rarer sense
    ("your plan includes that repair", "not covered"),  # the same word, not its opposite
    ("the section is open", "not pending"),  # no negation before the state
    ("that's past the deadline", "already booked"),  # another rule's negation
    ("we only change purchases made online", "only pending orders"),  # a word of the rule missing
    ("it just isn't allowed, full stop.", "completed"),  # "completed" is the verb's, not "full"
]


@pytest.mark.parametrize(("said", "rule"), STATED)
def test_a_rule_in_other_words_is_stated(said: str, rule: str) -> None:
    assert states_rule(LEAD + said, rule)


@pytest.mark.parametrize(("said", "rule"), NOT_STATED)
def test_no_reason_a_vague_one_or_another_rule_states_nothing(said: str, rule: str) -> None:
    assert not states_rule(LEAD + said, rule)


def test_the_user_settles_a_goal_refused_in_other_words_and_no_vague_one() -> None:
    task = make_task()
    goal = task.user_scenario.goals[0]
    goal.refusal_expected, goal.refusal_reason = True, ["already paused", "not active"]
    user = ScriptedUser(task, seed=0)
    turn = user.reply("I'm sorry, I can't do that for ABC123: it was previously put on hold.")
    assert turn.goals_confirmed == ["g1"] and "unjustified_refusal" not in turn.events
    user = ScriptedUser(task, seed=0)
    turn = user.reply("I'm sorry, I can't do that for ABC123: our policy doesn't allow it.")
    assert turn.goals_confirmed == [] and {"stall", "unjustified_refusal"} & set(turn.events)


def test_a_bare_refusal_states_no_rule_of_any_task() -> None:
    bare = ("I'm afraid I can't do that per policy.", "Our policy doesn't allow it.", "I can't do that.")
    assert not any(states_rule(text, rule) for text in bare for rule in _reasons())


def test_light_verbs_framing_verbs_and_particles_say_no_rule_word() -> None:
    assert "big" in synonyms.meanings("large").same and "inactive" in synonyms.meanings("active").opposite
    words = {w for rule in _reasons() for w in rule.lower().split()}
    light = {"make", "take", "do", "say", "off", "up"}
    assert not any(light & synonyms.meanings(w).same for w in words)


def test_the_table_checked_every_word_of_every_refusal_reason() -> None:
    """Rebuild it after changing a policy or a reason: `python -m taue.simulator.synonyms DICT`."""
    checked = set(synonyms.stored()["checked"])
    missing = sorted(w for w in synonyms.rule_vocabulary(ROOT) if w not in checked)
    assert not missing, f"synonyms.json predates these words of the rules: {missing[:20]}"


def test_the_table_is_built_from_a_wordnet_folder(tmp_path: Path) -> None:
    """A two-sense WordNet in its own file format: synonyms of the commonest senses, similar
    adjectives, antonyms; a sense past `SENSES` is left out."""
    _write_wordnet(tmp_path)
    built = synonyms.build(synonyms.WordNet(tmp_path, senses=1), ["large", "active"])
    assert built["large"] == {"same": ["big", "huge"], "opposite": ["small"]}
    assert built["active"] == {"same": [], "opposite": ["inactive"]}
    assert json.dumps(built)  # what `main` writes


def _write_wordnet(folder: Path) -> None:
    data = {
        "adj": [
            "00000001 00 a 02 large 0 big 0 002 & 00000002 a 0000 ! 00000003 a 0101 | of size",
            "00000002 00 s 01 huge 0 001 & 00000001 a 0000 | very large",
            "00000003 00 a 01 small 0 001 ! 00000001 a 0101 | of little size",
            "00000004 00 a 01 active 0 001 ! 00000005 a 0101 | doing",
            "00000005 00 a 01 inactive 0 001 ! 00000004 a 0101 | not doing",
            "00000006 00 a 02 large 0 generous 0 000 | a rare sense",
        ],
    }
    index = {
        "adj": [
            "active a 1 1 ! 1 0 00000004",
            "large a 2 2 & ! 2 0 00000001 00000006",
        ],
    }
    for name in synonyms.PARTS:
        (folder / f"data.{name}").write_text("  license header\n" + "\n".join(data.get(name, [])) + "\n")
        (folder / f"index.{name}").write_text("  license header\n" + "\n".join(index.get(name, [])) + "\n")


def _reasons() -> list[str]:
    found: set[str] = set()
    for path in ROOT.glob("envs/*/tasks.json"):
        found.update(synonyms.reasons_in(json.loads(path.read_text())))
    return sorted(found)
