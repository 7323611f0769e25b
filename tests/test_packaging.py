"""What `pip install .` puts into site-packages: the `taue` namespace and its metadata, nothing else."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.slow  # builds the wheel


def test_the_wheel_holds_only_the_taue_namespace(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    [wheel] = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/", 1)[0] for name in names}
    assert top == {"taue", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    for module in (
        "taue/envs/airline/tasks.json",
        "taue/proto/v1/simulator_pb2.py",
        "taue/cli/__init__.py",
        "taue/runner/episode.py",
        "taue/simulator/anchors/anchors.json",
        "taue/simulator/anchors/fit.toml",
        "taue/scorer/reward.py",
    ):
        assert module in names, module
