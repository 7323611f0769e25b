"""`taue tracer export`: +1 trajectories as TRL chats, preference pairs, filters, caps, the card, and
the same bytes for the same seed."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from taue.runner.results import ResultsFile
from tests.tracer.conftest import Rollouts, rollout, taue

pytestmark = pytest.mark.xdist_group("training-data")


def rows(dataset: Path) -> list[dict]:
    return [json.loads(line) for line in (dataset / "train.jsonl").read_text().splitlines()]


def stats(dataset: Path) -> dict:
    return json.loads((dataset / "stats.json").read_text())


def export(tmp_path: Path, rollouts: Rollouts, *options: str) -> Path:
    out = tmp_path / "dataset"
    result = taue("tracer", "export", *rollouts.both, "--out", str(out), *options)
    assert result.exit_code == 0, result.output
    return out


def assert_well_formed_chat(messages: list[dict], tools: list[dict]) -> None:
    """Roles in order, every tool call answered by a tool message with its id, an agent reply last."""
    names = {tool["function"]["name"] for tool in tools}
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "assistant"
    for index, message in enumerate(messages):
        assert message["role"] in ("system", "user", "assistant", "tool")
        for call in message.get("tool_calls") or []:
            answer = messages[index + 1]
            assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"]
            assert call["function"]["name"] in names and isinstance(call["function"]["arguments"], dict)


def test_sft_keeps_only_the_plus_one_trajectories_as_trl_chats(rollouts: Rollouts, sft_dataset: Path) -> None:
    records = ResultsFile(rollouts.oracle).load() + ResultsFile(rollouts.pester).load()
    plus_one = {(r.agent, r.task_id, r.trial) for r in records if r.reward == 1}
    data = rows(sft_dataset)
    assert {(row["agent"], row["task_id"], row["trial"]) for row in data} == plus_one
    assert {row["reward"] for row in data} == {1}
    for row in data:
        messages = row["messages"]
        assert_well_formed_chat(messages, json.loads(row["tools"]))
        calls = sum(len(m.get("tool_calls") or []) for m in messages)
        assert calls == row["num_tool_calls"]
        assert "###" not in json.dumps(messages)  # the user's closing line is not a training target


def test_the_card_shows_the_filter_removed_the_sloppy_agents_unsatisfied_runs(
    rollouts: Rollouts, sft_dataset: Path
) -> None:
    pester = ResultsFile(rollouts.pester).load()
    unsatisfied = sum(r.termination == "user_unsatisfied" for r in pester)
    assert unsatisfied > 0, "the pester agent should exhaust some users"
    figures = stats(sft_dataset)
    assert figures["input"]["by_agent"]["pester"]["user_unsatisfied"] == unsatisfied
    assert figures["output"]["by_agent"]["pester"] == sum(r.reward == 1 for r in pester)
    steps = {step["step"]: step["count"] for step in figures["steps"]}
    assert steps["episodes read"] == len(pester) * 2 and steps["reward +1"] == len(rows(sft_dataset))
    card = (sft_dataset / "README.md").read_text()
    assert card.startswith("---\nconfigs:") and "path: train.jsonl" in card
    for title in ("Filter steps", "Rows by domain", "Rows by emotion family", "Rows by emotion condition",
                  "Rows by reward", "Interaction statistics", "Input episodes by agent"):  # fmt: skip
        assert f"## {title}" in card
    assert "| pester |" in card and "user_unsatisfied" in card
    kept = figures["interaction"]["kept"]
    assert kept["episodes"] == len(rows(sft_dataset))
    assert kept["more_calls_than_questions"] > figures["interaction"]["input"]["more_calls_than_questions"]


def test_the_dataset_loads_with_the_datasets_library(sft_dataset: Path, preference_dataset: Path) -> None:
    from datasets import load_dataset

    sft = load_dataset("json", data_files=str(sft_dataset / "train.jsonl"), split="train")
    assert len(sft) == len(rows(sft_dataset)) and {"messages", "tools"} <= set(sft.column_names)
    assert sft[0]["messages"] == rows(sft_dataset)[0]["messages"]
    pairs = load_dataset("json", data_files=str(preference_dataset / "train.jsonl"), split="train")
    assert {"prompt", "chosen", "rejected", "tools"} <= set(pairs.column_names)


def test_preference_pairs_share_a_prompt_and_differ_in_reward(
    rollouts: Rollouts, preference_dataset: Path
) -> None:
    data = rows(preference_dataset)
    pester = ResultsFile(rollouts.pester).load()
    failed = [r for r in pester if r.reward <= 0]
    assert 0 < len(data) <= len(failed)
    for row in data:
        assert row["chosen_reward"] == 1 and row["rejected_reward"] <= 0
        assert row["chosen_agent"] in ("oracle", "pester") and row["rejected_agent"] == "pester"
        prompt = row["prompt"]
        assert [m["role"] for m in prompt[:2]] == ["system", "user"] and prompt[-1]["role"] != "assistant"
        assert row["chosen"][0]["role"] == row["rejected"][0]["role"] == "assistant"
        assert row["chosen"] != row["rejected"]
        tools = json.loads(row["tools"])
        assert_well_formed_chat(prompt + row["chosen"], tools)
        assert_well_formed_chat(prompt + row["rejected"], tools)
    card = (preference_dataset / "README.md").read_text()
    assert "preference pairs" in card and "oracle vs pester" in card


def test_the_calls_per_question_threshold_keeps_agents_that_look_things_up(
    tmp_path: Path, rollouts: Rollouts, sft_dataset: Path
) -> None:
    data = rows(export(tmp_path, rollouts, "--min-calls-per-question", "1"))
    assert data and all(row["num_tool_calls"] >= row["num_questions"] for row in data)
    everything = rows(sft_dataset)
    assert any(row["num_tool_calls"] < row["num_questions"] for row in everything)
    assert len(data) < len(everything)


def test_caps_per_domain_and_balanced_families(tmp_path: Path, rollouts: Rollouts) -> None:
    capped = rows(export(tmp_path / "a", rollouts, "--max-per-domain", "5"))
    assert Counter(row["domain"] for row in capped) == {"airline": 5, "retail": 5}
    balanced = rows(export(tmp_path / "b", rollouts, "--balance-families"))
    families = Counter(row["family"] for row in balanced)
    assert len(families) > 1 and len(set(families.values())) == 1
    limited = rows(export(tmp_path / "c", rollouts, "--max-per-family", "2"))
    assert max(Counter(row["family"] for row in limited).values()) == 2


def test_other_seeds_draw_other_rows_under_a_cap(tmp_path: Path, rollouts: Rollouts) -> None:
    first = rows(export(tmp_path / "a", rollouts, "--max-per-domain", "4", "--seed", "1"))
    second = rows(export(tmp_path / "b", rollouts, "--max-per-domain", "4", "--seed", "2"))
    assert {row["id"] for row in first} != {row["id"] for row in second}


def test_same_seed_same_dataset_byte_for_byte(tmp_path: Path, rollouts: Rollouts, sft_dataset: Path) -> None:
    """Rolled out again into other folders and given in the other order, the export is the same bytes."""
    again = Rollouts(oracle=rollout("oracle", tmp_path / "o2"), pester=rollout("pester", tmp_path / "p2"))
    out = tmp_path / "again"
    result = taue("tracer", "export", str(again.pester), str(again.oracle), "--out", str(out))
    assert result.exit_code == 0, result.output
    for name in ("train.jsonl", "stats.json", "README.md"):
        assert (out / name).read_bytes() == (sft_dataset / name).read_bytes(), name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "csv"], "--format must be sft or preference"),
        (["/no/such/run"], "is not a run directory"),
    ],
)
def test_bad_input_is_a_one_line_error(
    tmp_path: Path, rollouts: Rollouts, args: list[str], message: str
) -> None:
    sources = [a for a in args if a.startswith("/")] or [str(rollouts.oracle)]
    options = [a for a in args if not a.startswith("/")]
    result = taue("tracer", "export", *sources, "--out", str(tmp_path / "out"), *options)
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_records_without_call_turns_are_skipped_and_counted(tmp_path: Path, rollouts: Rollouts) -> None:
    """Records made before tool calls carried their turn cannot be put in order: skipped, not guessed."""
    old = tmp_path / "old-run"
    old.mkdir()
    lines = (rollouts.oracle / "results.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    for call in first["tool_log"]:
        del call["turn"]
    (old / "results.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    out = tmp_path / "dataset"
    result = taue("tracer", "export", str(old), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert len(rows(out)) == len(lines) - 1
    assert first["task_id"] not in {row["task_id"] for row in rows(out) if row["trial"] == first["trial"]}
    steps = {step["step"]: step["count"] for step in stats(out)["steps"]}
    assert steps["with the turn of every tool call (older records lack it: rerun them)"] == len(lines) - 1
