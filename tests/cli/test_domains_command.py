"""`taue domains`: the registry's domains with their tool graphs, task counts and database sizes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from taue.cli import app
from taue.envs.runtime.discovery import domain_names

TEN = {
    *("airline", "retail", "telecom", "telehealth"),
    *("school", "basketball", "restaurant", "travel", "movie", "bank"),
}


def test_domains_lists_every_registered_domain_with_its_figures() -> None:
    result = CliRunner().invoke(app, ["domains", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert set(rows) == set(domain_names()) and set(rows) >= TEN
    for name in TEN:
        row = rows[name]
        n = row["tools"]
        assert 9 <= n <= 20 and row["all_tools"] > n and 0 < row["write_tools"] < row["all_tools"]
        assert row["density"] == round(row["edges"] / (n * (n - 1)), 3)
        assert 0.25 <= row["density"] <= 0.43
        assert (row["tasks"], row["emotional_tasks"], row["train_tasks"]) == (116, 58, 700)
        assert row["db_rows"] == sum(row["db_tables"].values()) >= 1000 and row["db_size"] > 100_000
    assert (rows["restaurant"]["tools"], rows["restaurant"]["edges"]) == (9, 24)
    assert (rows["bank"]["tools"], rows["bank"]["edges"]) == (17, 99)
    table = CliRunner().invoke(app, ["domains"])
    assert table.exit_code == 0 and all(name in table.output for name in TEN) and "MB" in table.output
