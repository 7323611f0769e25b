"""Anchor instructions: counts, form, distinctness, determinism, the API, the CLI and the paraphrase path."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from itertools import combinations
from pathlib import Path

import pytest

from taue.contracts.emotions import BY_ID, CONDITIONS
from taue.simulator.anchors import ANCHORS_PATH, anchor, anchors_for, generate_anchors, load_anchors
from taue.simulator.anchors.compose import dumps_anchors, sentences
from taue.simulator.anchors.paraphrase import SYSTEM_PROMPT, acceptable
from taue.simulator.anchors.phrases import (
    BEHAVIOURS,
    FEELINGS,
    POLITENESS_PHRASES,
    TRUST_PHRASES,
    URGENCY_PHRASES,
)
from tests.openai_double import OpenAIDouble
from tests.paths import ROOT

TAUE = [sys.executable, "-m", "taue"]
CONDITION = "frustration.cold.high.skeptical"


def taue_sync(*args: str) -> tuple[int, str, str]:
    import subprocess

    done = subprocess.run([*TAUE, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def contains_phrase(text: str, phrases: tuple[str, ...]) -> bool:
    return any(p in text or p[0].lower() + p[1:] in text for p in phrases)


def test_every_condition_has_ten_distinct_anchors() -> None:
    anchors = load_anchors()
    assert len(CONDITIONS) == 594 and len(anchors) == 5940
    assert {(a.condition, a.index) for a in anchors} == {(c.id, i) for c in CONDITIONS for i in range(10)}
    assert len({a.text for a in anchors}) == 5940


def test_anchors_are_second_person_with_two_to_four_sentences() -> None:
    for a in load_anchors():
        parts = sentences(a.text)
        assert 2 <= len(parts) <= 4, a
        assert all(p.startswith(("You ", "Your ")) for p in parts), a
        assert acceptable(a.text), a


def test_each_anchor_is_built_from_its_own_conditions_phrases() -> None:
    for a in load_anchors():
        c = BY_ID[a.condition]
        assert contains_phrase(a.text, FEELINGS[c.emotion]), a
        assert contains_phrase(a.text, POLITENESS_PHRASES[c.politeness]), a
        assert contains_phrase(a.text, URGENCY_PHRASES[c.urgency]), a
        assert contains_phrase(a.text, TRUST_PHRASES[c.trust]), a


def test_phrase_pools_of_different_values_never_share_a_phrase() -> None:
    for bank in (FEELINGS, BEHAVIOURS, POLITENESS_PHRASES, URGENCY_PHRASES, TRUST_PHRASES):
        for (_, a), (_, b) in combinations(bank.items(), 2):
            assert not set(a) & set(b)
        for phrases in bank.values():
            assert all(p.startswith("You") and "." not in p for p in phrases)


def test_regenerating_reproduces_the_committed_file_byte_for_byte() -> None:
    assert dumps_anchors(generate_anchors()) == ANCHORS_PATH.read_text(encoding="utf-8")


def test_api_returns_a_conditions_anchors_in_index_order() -> None:
    texts = anchors_for(CONDITION)
    committed = [a.text for a in load_anchors() if a.condition == CONDITION]
    assert texts == committed and len(texts) == 10
    assert anchor(CONDITION, 3) == texts[3]
    with pytest.raises(KeyError, match="unknown emotion condition"):
        anchors_for("frustration.cold.high")
    with pytest.raises(IndexError):
        anchor(CONDITION, 10)


def test_cli_prints_one_conditions_anchors_as_json_and_text() -> None:
    code, out, _ = taue_sync("emotion", "anchors", "--condition", CONDITION, "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["index"] for r in rows] == list(range(10)) and {r["condition"] for r in rows} == {CONDITION}
    assert [r["text"] for r in rows] == anchors_for(CONDITION)
    code, out, _ = taue_sync("emotion", "anchors", "--condition", CONDITION)
    assert code == 0 and out.splitlines()[3] == f"{CONDITION} #3: {anchor(CONDITION, 3)}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["emotion", "anchors", "--condition", "joy.warm.low.trusting"], "unknown condition"),
        (["emotion", "anchors", "generate", "--condition", CONDITION], "give --out PATH"),
        (["emotion", "anchors", "generate", "--paraphrase-model", "m"], "go together"),
    ],
)
def test_cli_bad_anchor_arguments_get_clear_errors(args: list[str], message: str) -> None:
    code, _, err = taue_sync(*args)
    assert code == 2 and message in err and "Traceback" not in err


def test_cli_generate_writes_the_same_anchors_as_the_committed_file(tmp_path: Path) -> None:
    out = tmp_path / "anchors.json"
    code, _, err = taue_sync(
        "emotion",
        "anchors",
        "generate",
        "--out",
        str(out),
        "--condition",
        CONDITION,
        "--condition",
        "peace.warm.low.trusting",
    )
    assert code == 0, err
    written = json.loads(out.read_text())
    # taxonomy order, whatever the order of the options
    assert [r["text"] for r in written[:10]] == anchors_for(CONDITION)
    assert [r["text"] for r in written[10:]] == anchors_for("peace.warm.low.trusting")


def _paraphrase_reply(body: dict) -> dict:
    original = body["messages"][-1]["content"]
    if "skeptical" in original or "doubt" in original:  # an unusable rewrite: first person
        return {"content": "I am upset. I want it now."}
    return {"content": "  " + original.replace("You ", "You really ", 1) + "\n"}


async def test_cli_generate_paraphrases_through_an_openai_compatible_endpoint(tmp_path: Path) -> None:
    out = tmp_path / "paraphrased.json"
    conditions = ["anxiety.neutral.moderate.cautious", "peace.warm.low.trusting"]  # taxonomy order
    async with OpenAIDouble([_paraphrase_reply], model="para-model") as double:
        args = ["emotion", "anchors", "generate", "--out", str(out), "--seed", "7"]
        args += ["--paraphrase-model", "para-model", "--base-url", double.base_url, "--concurrency", "4"]
        for c in conditions:
            args += ["--condition", c]
        env = {**os.environ, "TAUE_PARAPHRASE_API_KEY": "secret-key"}
        proc = await asyncio.create_subprocess_exec(
            *TAUE, *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        _, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        assert proc.returncode == 0, err.decode()
    assert len(double.requests) == 20
    for request, headers in zip(double.requests, double.headers, strict=True):
        assert request["model"] == "para-model" and request["temperature"] == 0 and request["seed"] == 7
        assert request["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
        assert headers["authorization"] == "Bearer secret-key"
    written = json.loads(out.read_text())
    originals = [a.text for c in conditions for a in load_anchors() if a.condition == c]
    assert [r["condition"] for r in written] == [c for c in conditions for _ in range(10)]
    for row, original in zip(written, originals, strict=True):
        if "skeptical" in original or "doubt" in original:
            assert row["text"] == original
        else:
            assert row["text"] == original.replace("You ", "You really ", 1)
    assert sum(r["text"] != o for r, o in zip(written, originals, strict=True)) >= 10
    assert "paraphrased" in err.decode()


async def test_cli_generate_reports_an_unreachable_paraphrase_endpoint(tmp_path: Path) -> None:
    async with OpenAIDouble([{"status": 400}]) as double:
        args = ["emotion", "anchors", "generate", "--out", str(tmp_path / "a.json"), "--condition", CONDITION]
        args += ["--paraphrase-model", "m", "--base-url", double.base_url]
        proc = await asyncio.create_subprocess_exec(
            *TAUE, *args, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        _, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    assert proc.returncode == 1 and "paraphrase endpoint" in err.decode() and "Traceback" not in err.decode()
    assert not (tmp_path / "a.json").exists()
