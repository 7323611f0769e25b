"""The dialogue-act corpus: its size, sources, styles and split, that it copies no published text,
that it is up to date with its builder, and that the scripted user reads its test split to target;
`taue simulator understand` and `corpus-eval` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.cli.commands.simulator import CorpusResolver
from taue.envs.runtime.discovery import domain_names
from taue.simulator.corpus import ACTS, TARGETS, evaluate, load_corpus
from tests.paths import PUBLISHED_DATA, ROOT

CORPUS = ROOT / "tests" / "simulator" / "corpus"
FLOOR = 0.99
"""The level the acts with a target reach on the test split (docs/simulator.md): above the 97 % target."""
FEW_SHOT = PUBLISHED_DATA / "few_shot_data"
needs_published = pytest.mark.skipif(
    not FEW_SHOT.is_dir(), reason=f"the published few-shot data is not at {FEW_SHOT} (external data)"
)


@pytest.fixture(scope="module")
def entries():
    return load_corpus(CORPUS)


def test_corpus_size_sources_and_domains(entries) -> None:
    assert len(entries) >= 1500
    by_source = Counter(e.source for e in entries)
    assert set(by_source) == {"recorded", "written", "judge"} and min(by_source.values()) >= 500
    assert {e.domain for e in entries} == set(domain_names())
    assert len({e.id for e in entries}) == len(entries)


def test_every_act_has_at_least_thirty_written_styles(entries) -> None:
    styles: dict[str, set[str]] = {}
    for e in entries:
        if e.source == "written":
            styles.setdefault(e.style.split("/")[0], set()).add(e.style)
    assert set(styles) == set(ACTS) and all(len(s) >= 30 for s in styles.values()), styles


def test_a_fifth_is_held_out_as_the_test_split(entries) -> None:
    for source in ("recorded", "written", "judge"):
        share = sum(e.split == "test" for e in entries if e.source == source) / sum(
            e.source == source for e in entries
        )
        assert 0.15 <= share <= 0.25, (source, share)


def test_recorded_messages_are_references_never_copies(entries) -> None:
    recorded = [e for e in entries if e.source == "recorded"]
    assert recorded and all(e.message is None and e.ref and e.scenario for e in recorded)
    text = "".join(path.read_text() for path in CORPUS.glob("*.jsonl"))
    if FEW_SHOT.is_dir():  # no recorded sentence appears in the project's corpus files
        resolver = CorpusResolver()
        for entry in recorded[::25]:
            message = resolver.text(entry)
            assert message and message[:60] not in text


def test_the_corpus_is_what_its_builder_makes() -> None:
    done = subprocess.run(
        [sys.executable, str(CORPUS / "build.py"), "--check"], capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def test_split(entries):
    resolver = CorpusResolver()
    return evaluate(entries, "test", resolver.text, resolver.context)


@needs_published
def test_every_act_with_a_target_is_read_to_target_on_the_test_split(test_split) -> None:
    """Completion claims, confirmations matched to the right goal and fact requests: ≥ 97 % precision
    and recall on the held-out fifth (the issue's target), and the level reached (`FLOOR`) is kept."""
    assert test_split.by_source.get("recorded", 0) >= 100
    assert test_split.meets_targets()
    for act, target in TARGETS.items():
        score = test_split.scores[act]
        assert score.precision >= target and score.recall >= target, (act, score)
        assert score.precision >= FLOOR and score.recall >= FLOOR, (act, score)


def test_the_judge_agents_are_read_to_target_on_every_act_with_a_target(entries) -> None:
    resolver = CorpusResolver()
    report = evaluate([e for e in entries if e.source == "judge"], "all", resolver.text, resolver.context)
    for act, target in TARGETS.items():
        assert report.scores[act].precision >= target and report.scores[act].recall >= target, act


def test_understand_explains_one_message() -> None:
    where = ["--domain", "airline", "--task", "airline-001"]
    message = "Shall I run `cancel_reservation` for ABC123?"
    result = CliRunner().invoke(app, ["simulator", "understand", message, *where, "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert "confirmation request" in found["acts"] and found["claim"] == "none"
    text = CliRunner().invoke(
        app, ["simulator", "understand", "Done.", "--domain", "airline", "--task", "nope"]
    )
    assert text.exit_code == 2 and "no task" in text.output


def test_understand_examples_read_each_way_real_agents_write_as_described() -> None:
    result = CliRunner().invoke(app, ["simulator", "understand", "--examples", "--json"])
    assert result.exit_code == 0, result.output
    read = {example["category"]: example["explanation"] for example in json.loads(result.output)}
    for category in ("choices", "record list", "records laid out in a sentence"):
        assert "offer of options to pick" in read[category]["acts"], category
        assert "confirmation request" not in read[category]["acts"], category
    assert read["refusal in other words"]["refusal"] == "with a reason"
    assert read["sympathy"]["refusal"] == "none"
    assert "search found nothing" in read["search that found nothing"]["acts"]
    assert read["search that found nothing"]["refusal"] == "none"
    assert read["offer of further help"]["claim"] == "none"


def test_corpus_eval_prints_the_table(tmp_path) -> None:
    (tmp_path / "mini.jsonl").write_text(
        "\n".join(line for line in (CORPUS / "written.jsonl").read_text().splitlines()[:40] if line) + "\n"
    )
    command = ["simulator", "corpus-eval", "--corpus", str(tmp_path), "--split", "all"]
    result = CliRunner().invoke(app, command)
    assert "| completion_claim |" in result.output and "| fact_request |" in result.output
    report = json.loads(CliRunner().invoke(app, [*command, "--json"]).output)
    assert report["messages"] == 40 and set(report["scores"]) == set(ACTS)
