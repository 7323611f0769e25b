"""`taue tracer …` and `taue tasks list --split` from the outside: files, keys, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app
from taue.envs.runtime.discovery import get_domain


def taue(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def test_build_into_a_folder_writes_the_three_files_and_leaves_the_domain_alone(tmp_path: Path) -> None:
    committed = (get_domain("retail").folder / "tasks.json").read_text()
    result = taue(
        "tracer", "build", "--domain", "retail", "--eval", "4", "--train", "3", "--out", str(tmp_path),
        "--no-agent-check", "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    folder = tmp_path / "retail"
    assert sorted(p.name for p in folder.iterdir()) == ["tasks.json", "tracer_report.json", "train.json"]
    tasks = json.loads((folder / "tasks.json").read_text())
    assert [t["id"] for t in tasks] == [
        i for n in range(1, 5) for i in (f"retail-00{n}", f"retail-00{n}-neutral")
    ]
    assert len(json.loads((folder / "train.json").read_text())) == 3
    report = json.loads((folder / "tracer_report.json").read_text())
    assert report["seed"] == 0 and report["kept"] == {"eval": 8, "train": 3} and report["candidates"] >= 7
    assert (get_domain("retail").folder / "tasks.json").read_text() == committed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tracer", "build", "--domain", "nope"], "no Tracer parts for ['nope']"),
        (["tracer", "build", "--domain", "retail", "--refiner-model", "m"], "go together"),
        (["tracer", "graph", "retail", "--write"], "give --infer too"),
        (["tracer", "stats", "--domain", "nope"], "no Tracer parts"),
        (["tasks", "list", "--domain", "retail", "--split", "test"], "--split must be eval or train"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(args: list[str], message: str) -> None:
    result = taue(*args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_graph_reports_nodes_edges_and_density() -> None:
    result = taue("tracer", "graph", "retail", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert body["domain"] == "retail" and body["nodes"] == len(body["nodes_list"]) > 5
    assert body["density"] == round(body["edges"] / (body["nodes"] * (body["nodes"] - 1)), 3)
    checked = taue("tracer", "graph", "retail", "--check")
    assert checked.exit_code == 0 and "retail (stored):" in checked.output


def test_tasks_list_gives_the_issue_keys_for_both_splits() -> None:
    for split in ("eval", "train"):
        result = taue("tasks", "list", "--domain", "retail", "--split", split, "--json")
        assert result.exit_code == 0, result.output
        rows = json.loads(result.output)
        assert rows and {"id", "domain", "condition", "twin", "actions", "refusal"} <= set(rows[0])
        assert any(r["refusal"] for r in rows) and not all(r["refusal"] for r in rows)
    train = json.loads(taue("tasks", "list", "--domain", "retail", "--split", "train", "--json").output)
    assert len(train) == len(get_domain("retail").train_tasks) and all(r["twin"] is None for r in train)


def test_stats_json_describes_both_splits_and_the_rejections() -> None:
    result = taue("tracer", "stats", "--domain", "retail", "--json")
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    (retail,) = body["domains"]
    for split in ("eval", "train"):
        stats = retail[split]
        assert {"gold_calls", "intents", "writes", "refusal_share", "conditions"} <= set(stats)
        assert set(stats["conditions"]["chi_square"]) == {
            "politeness~urgency",
            "politeness~trust",
            "urgency~trust",
        }
    assert retail["rejections"] and retail["candidates"] > retail["eval"]["tasks"]
    assert body["across_domains"]["distinct"] == 58
    lints = body["semantic_lints"]
    assert set(lints["domains"]["retail"]["eval"]) == set(lints["lints"]) == set(lints["totals"]["train"])
