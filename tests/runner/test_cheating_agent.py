"""An agent under test reaches only its own episode's MCP endpoint: a cheating HTTP agent
(tests/runner/cheater.py) tries every other way to its task's answers against `taue run` on the
embedded default, and scores exactly what the same replies earn without the cheating.

The run and the agent share a network and process namespace of their own (tests/runner/
cheating_scenario.py under `unshare`), as an agent in its own container beside the runner would:
every port and process the cheater finds is the run's, none another test's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taue.runner.results import ResultsFile
from tests.paths import ROOT

SCENARIO = ROOT / "tests" / "runner" / "cheating_scenario.py"
REFUSED_HTTP = {"401", "404", "405", "421"}
"""What our servers may answer a probe: no token, no such route on this port, wrong Host."""


def namespaces_work() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rnpf", "--mount-proc", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not namespaces_work(),
    reason="needs unshare(1) from util-linux with user, network and PID namespaces (the engine that gives "
    "the scenario a machine of its own); the cheater's code is run by nothing else",
)


def play(mode: str, out: Path) -> dict:
    out.mkdir()
    command = ["unshare", "-rnpf", "--mount-proc", sys.executable, str(SCENARIO), mode, str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=280, cwd=ROOT)
    assert finished.returncode == 0, finished.stderr[-3000:]
    scenario = json.loads((out / "scenario.json").read_text())
    assert scenario["returncode"] == 0, scenario["stderr"]
    return scenario


def outcomes(out: Path) -> list[tuple[str, int, str]]:
    return sorted((r.task_id, r.reward, r.termination) for r in ResultsFile(out).load())


@pytest.mark.timeout(600)
def test_a_cheating_agent_is_refused_everywhere_and_scores_what_honesty_earns(tmp_path: Path) -> None:
    cheated = play("cheater", tmp_path / "cheater")
    play("honest", tmp_path / "honest")

    assert outcomes(tmp_path / "cheater") == outcomes(tmp_path / "honest")
    assert len(outcomes(tmp_path / "cheater")) == 2
    runner_ports = set(cheated["runner_ports"])
    attempts = cheated["attempts"]
    assert len(runner_ports) == 4  # the domain's MCP and control ports, the simulator, the scorer
    assert {a["port"] for a in attempts} == runner_ports, "every port the cheater found was the run's"
    http = [a for a in attempts if a["kind"] == "http"]
    grpc = [a for a in attempts if a["kind"] == "grpc"]
    granted = [a for a in http if a["outcome"] not in REFUSED_HTTP and not a["outcome"].endswith("Error")]
    assert not granted, granted[:5]
    assert len(http) > 400 and {a["auth"] for a in http} >= {"none", "episode token"}
    assert any(a["auth"].startswith("found") for a in http), "tokens from every process's environment too"
    assert sum(a["outcome"] == "UNAUTHENTICATED" for a in grpc) >= 4, grpc  # simulator and scorer
    assert not [a for a in grpc if a["outcome"] == "OK"]
    on_mcp = [a for a in http if a["target"].endswith("(MCP port)")]
    assert on_mcp and all(a["outcome"] in ("404", "401") for a in on_mcp), on_mcp
