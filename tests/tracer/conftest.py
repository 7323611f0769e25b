"""Rollouts on the training split, made once per test process with the real CLI: the inputs of the
export and training-recipe tests (which share an xdist group, so one worker makes them once)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taue.cli import app

ROLLOUT_DOMAINS = "airline,retail"
TASKS_PER_DOMAIN = 6
TRIALS = 2


def taue(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def rollout(agent: str, out: Path, seed: int = 0) -> Path:
    result = taue(
        "tracer", "rollout", "--domains", ROLLOUT_DOMAINS, "--agent", agent, "--limit", str(TASKS_PER_DOMAIN),
        "--trials", str(TRIALS), "--seed", str(seed), "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


@dataclass(frozen=True)
class Rollouts:
    oracle: Path
    pester: Path

    @property
    def both(self) -> list[str]:
        return [str(self.oracle), str(self.pester)]


@pytest.fixture(scope="session")
def rollouts(tmp_path_factory: pytest.TempPathFactory) -> Rollouts:
    root = tmp_path_factory.mktemp("rollouts")
    return Rollouts(oracle=rollout("oracle", root / "oracle"), pester=rollout("pester", root / "pester"))


def exported(rollouts: Rollouts, factory: pytest.TempPathFactory, format: str) -> Path:
    out = factory.mktemp("datasets") / format
    result = taue("tracer", "export", *rollouts.both, "--format", format, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def sft_dataset(rollouts: Rollouts, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return exported(rollouts, tmp_path_factory, "sft")


@pytest.fixture(scope="session")
def preference_dataset(rollouts: Rollouts, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return exported(rollouts, tmp_path_factory, "preference")
