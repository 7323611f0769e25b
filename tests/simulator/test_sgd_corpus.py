"""The reader on the Schema-Guided Dialogue corpus (`taue simulator corpus-eval --corpus sgd`): how SGD
acts map to the reader's, the dialogue contexts, the report's arithmetic, the command line, and the
targets (not met yet: xfail).

The data (CC BY-SA 4.0) is read from `../shared/data/sgd/system_turns_dev.jsonl` (or `TAUE_SGD_DATA`)
at test time; turns are named here by dialogue id and turn only, never by their text."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.commands.simulator import sgd_data
from taue.simulator.sgd_corpus import (
    ACTS,
    TARGETS,
    ActScore,
    Gold,
    Got,
    SgdAct,
    Turn,
    count,
    empty_report,
    evaluate,
    fact_books,
    gold,
    got,
    load_turns,
    service_slots,
)
from taue.simulator.understanding import Reading
from tests.paths import ROOT

SGD = sgd_data()
needs_sgd = pytest.mark.skipif(not SGD.is_file(), reason=f"the SGD data is not at {SGD} (external data)")
pytestmark = [pytest.mark.timeout(120), pytest.mark.xdist_group("sgd_corpus")]


@pytest.fixture(scope="module")
def turns() -> list[Turn]:
    if not SGD.is_file():
        pytest.skip(f"the SGD data is not at {SGD} (external data)")
    return load_turns(SGD)


@pytest.fixture(scope="module")
def by_id(turns) -> dict[tuple[str, int], Turn]:
    return {(t.dialogue_id, t.turn): t for t in turns}


@pytest.fixture(scope="module")
def full_report(turns):
    return evaluate(turns, fact_books(turns))


@needs_sgd
def test_the_corpus_is_the_one_described(turns) -> None:
    assert len(turns) == 19384
    assert len({t.dialogue_id for t in turns}) >= 2000


@needs_sgd
@pytest.mark.parametrize(
    ("where", "acts"),
    [
        (("1_00000", 1), {"requested": ["location", "restaurant_name"], "confirmation": False}),
        (("1_00000", 3), {"confirmation": True, "requested": []}),
        (("1_00000", 5), {"completion_claim": True, "information": True}),
        (("1_00000", 9), {"open_offer": True}),
        (("1_00000", 11), {"goodbye": True}),
        (("1_00001", 9), {"failure": True, "open_offer": True, "completion_claim": False}),
        (("3_00034", 1), {"choice": True, "requested": [], "asked_with_values": ["type"]}),
        (("8_00001", 13), {"verification": True, "choice": False, "requested": []}),
        (("5_00114", 3), {"choice": True, "information": True, "confirmation": None}),
        (("1_00031", 7), {"choice": False, "information": True, "confirmation": None}),
        (("2_00042", 7), {"confirmation": True, "choice": False}),
    ],
)
def test_sgd_acts_map_to_the_readers(by_id, where, acts) -> None:
    """CONFIRM and OFFER_INTENT ask for confirmation; an OFFER leaves it unscored; REQUEST without
    values asks for its slots, with two or more values offers a choice, with one checks a value; an OFFER
    of several values of a slot is a choice, of one option information."""
    found = gold(by_id[where]).model_dump()
    assert {name: found[name] for name in acts} == acts


@needs_sgd
def test_each_dialogue_gives_a_fair_context(turns, by_id) -> None:
    """Facts: the dialogue's slots (not `intent` or `count`), valued from a CONFIRM act first; the
    customer knows those the agent asks for or reads back, not what the agent tells it."""
    books = fact_books(turns)
    book = books["1_00000"]
    assert {"restaurant_name", "location", "time", "number_of_seats", "date", "phone_number"} <= set(
        book.names
    )
    assert not {"intent", "count", ""} & set(book.names)
    assert {"restaurant_name", "location", "time", "number_of_seats", "date"} <= book.known
    assert "phone_number" not in book.known  # only ever told by the agent (INFORM)
    confirmed = {a.slot: a.values[0] for a in by_id[("1_00000", 3)].acts}
    assert all(book.values[slot] == value for slot, value in confirmed.items())
    # options laid out to choose from (turn 1) are not the customer's value: the one offered alone is
    offered = {a.slot: a.values[0] for a in by_id[("3_00034", 3)].acts if a.act == "OFFER"}
    assert books["3_00034"].values["type"] == offered["type"]
    assert len(books) == len({t.dialogue_id for t in turns})


def test_the_need_in_progress_is_the_turns_service(turns) -> None:
    """A turn's focus is the slots of its own service: a ride's destination, not the hotel's city."""
    slots = service_slots(turns)
    assert {s for t in turns if t.dialogue_id == "1_00000" for s in t.services} <= {k[1] for k in slots}
    by_dialogue: dict[str, list[set[str]]] = {}
    for (dialogue, _), named in slots.items():
        by_dialogue.setdefault(dialogue, []).append(set(named))
    mixed = [named for named in by_dialogue.values() if len(named) > 1]
    assert mixed and any(named[0] != named[1] for named in mixed)


def _turn(*acts: SgdAct) -> Turn:
    return Turn(dialogue_id="x_1", turn=1, utterance="(made up)", acts=list(acts))


def test_the_report_counts_each_act_as_written() -> None:
    report = empty_report(4, 1)
    confirm = _turn(SgdAct(act="CONFIRM", slot="date", values=["today"]))
    count(report, confirm, gold(confirm), Got(confirmation=True))  # tp
    count(report, confirm, gold(confirm), Got())  # fn
    offer = _turn(SgdAct(act="OFFER", slot="restaurant_name", values=["A"]))
    count(report, offer, gold(offer), Got(confirmation=True, information=True))  # not scored; tp information
    ask = _turn(SgdAct(act="REQUEST", slot="city"), SgdAct(act="REQUEST", slot="date"))
    count(report, ask, gold(ask), Got(facts=["city", "time"]))  # request tp; slots: 1 tp, 1 fp, 1 fn
    count(report, ask, gold(ask), Got(facts=["time"]))  # wrong fact: request fp and fn
    scores = report.scores
    assert (scores["confirmation"].tp, scores["confirmation"].fp, scores["confirmation"].fn) == (1, 0, 1)
    assert (scores["information"].tp, scores["information"].fp) == (1, 0)
    assert (scores["request"].tp, scores["request"].fp, scores["request"].fn) == (1, 1, 1)
    assert (scores["request_slot"].tp, scores["request_slot"].fp, scores["request_slot"].fn) == (1, 2, 3)
    assert [(m.act, m.expected, m.got) for m in report.misses] == [
        ("confirmation", "yes", "no"),
        ("request", "city,date", "time"),
    ]
    assert all(m.dialogue_id == "x_1" and m.text is None for m in report.misses)
    assert not report.meets_targets()


def test_an_empty_search_counts_as_a_failure_notice() -> None:
    """SGD's NOTIFY_FAILURE covers "no other results" too; the reader keeps it apart (`found_nothing`)."""
    notice = _turn(SgdAct(act="NOTIFY_FAILURE"))
    assert got(Reading(found_nothing=True), gold(notice)).failure
    assert not got(Reading(informs=True), gold(notice)).failure


def test_rates_targets_and_what_the_json_holds() -> None:
    score = ActScore(tp=3, fp=1, fn=2, target=0.95)
    assert (score.precision, score.recall, score.met) == (0.75, 0.6, False)
    assert ActScore(tp=19, fp=1, fn=0, target=0.95).met is True
    assert ActScore().met is None and ActScore().precision == 1.0
    dumped = empty_report().model_dump()
    assert set(dumped["scores"]) == set(ACTS)
    assert set(dumped["scores"]["choice"]) == {"tp", "fp", "fn", "target", "precision", "recall", "met"}
    assert {a for a, s in dumped["scores"].items() if s["target"]} == set(TARGETS)
    assert Gold().confirmation is False


@needs_sgd
def test_corpus_eval_sgd_prints_json(tmp_path) -> None:
    few = tmp_path / "turns.jsonl"  # a copy made at test time, never kept
    few.write_text("".join(SGD.read_text(encoding="utf-8").splitlines(keepends=True)[:300]))
    command = ["simulator", "corpus-eval", "--corpus", "sgd"]
    result = CliRunner().invoke(app, [*command, "--json"], env={"TAUE_SGD_DATA": str(few)})
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    assert report["turns"] == 300 and set(report["scores"]) == set(ACTS)
    assert all(m["text"] for m in report["misses"])
    table = CliRunner().invoke(app, [*command, "--show", "2"], env={"TAUE_SGD_DATA": str(few)})
    assert "| confirmation |" in table.output and "| request_slot |" in table.output


def test_corpus_eval_sgd_without_the_data_exits_2(tmp_path) -> None:
    env = {"TAUE_SGD_DATA": str(tmp_path / "nowhere.jsonl")}
    result = CliRunner().invoke(app, ["simulator", "corpus-eval", "--corpus", "sgd"], env=env)
    assert result.exit_code == 2 and "no SGD data" in result.output


@needs_sgd
def test_no_sgd_utterance_is_copied_into_the_project(turns) -> None:
    """CC BY-SA: the files about the corpus hold no utterance of it."""
    files = [
        "simulator/sgd_corpus.py",
        "tests/simulator/test_sgd_corpus.py",
        "docs/simulator.md",
        "README.md",
    ]
    text = " ".join(" ".join((ROOT / f).read_text(encoding="utf-8").split()) for f in files)
    long_ = {" ".join(t.utterance.split()) for t in turns if len(t.utterance) >= 60}
    assert not [u for u in long_ if u in text]


@needs_sgd
def test_the_full_read_is_quick(full_report) -> None:
    assert full_report.turns == 19384 and full_report.seconds < 60


@needs_sgd
def test_the_acts_at_target_stay_there(full_report) -> None:
    """The acts that reached 95 % precision and recall keep it (completion claims: the expected failure
    below)."""
    for act in ("confirmation", "failure", "request", "choice"):
        assert full_report.scores[act].met, (act, full_report.scores[act])


@needs_sgd
@pytest.mark.xfail(
    strict=False,
    reason="completion claims are short of 95 % recall on SGD (docs/simulator.md: the Sixth pass)",
)
def test_the_acts_with_a_target_are_read_to_target(full_report) -> None:
    """≥ 95 % precision and recall on confirmations, completion claims, failures, requests and choices."""
    for act, target in TARGETS.items():
        score = full_report.scores[act]
        assert score.precision >= target and score.recall >= target, (act, score)
