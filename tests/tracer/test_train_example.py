"""examples/train_sft: the TRL recipe runs on an exported dataset, on a CPU, with a tiny random model
built from a config (nothing is downloaded); the loss is finite and goes down."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("training-data")

EXAMPLE = ROOT / "examples" / "train_sft"
CPU_SETTINGS = [
    "--max-steps", "5", "--effective-batch-size", "2", "--per-device-batch-size", "2", "--max-length", "2048",
    "--learning-rate", "1e-3", "--logging-steps", "1", "--save-strategy", "no",
]  # fmt: skip


def python(*args: str | Path) -> str:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    # One torch thread: the model is tiny, and on CI's 2 cores a second thread only competes with the
    # other test worker (the training steps took ~40 % less time so).
    env["OMP_NUM_THREADS"] = "1"
    done = subprocess.run(
        [sys.executable, *map(str, args)], capture_output=True, text=True, env=env, timeout=240, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def tiny_model(sft_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny-model")
    python(EXAMPLE / "tiny_model.py", "--dataset", sft_dataset, "--out", out)
    assert (out / "config.json").exists() and (out / "tokenizer.json").exists()
    return out


def losses(output_dir: Path) -> list[float]:
    history = json.loads((output_dir / "log_history.json").read_text())
    return [entry["loss"] for entry in history]


def assert_goes_down(values: list[float]) -> None:
    assert len(values) == 5 and all(math.isfinite(v) for v in values), values
    half = len(values) // 2
    assert values[-1] < values[0] and sum(values[-half:]) < sum(values[:half]), values


def test_sft_on_the_exported_dataset(tiny_model: Path, sft_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    python(EXAMPLE / "train.py", "sft", "--model", tiny_model, "--dataset", sft_dataset, "--output-dir", out,
           *CPU_SETTINGS)  # fmt: skip
    assert_goes_down(losses(out))
    assert (out / "model.safetensors").exists()


def test_dpo_on_the_preference_pairs(tiny_model: Path, preference_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "dpo"
    python(
        EXAMPLE / "train.py", "dpo", "--model", tiny_model, "--dataset", preference_dataset,
        "--output-dir", out, *CPU_SETTINGS,
    )  # fmt: skip
    assert_goes_down(losses(out))


def test_the_defaults_are_the_papers_settings() -> None:
    sys.path.insert(0, str(EXAMPLE))
    try:
        import train
    finally:
        sys.path.remove(str(EXAMPLE))
    args = train.parse_args(["sft", "--model", "m", "--dataset", "d"])
    settings = train.common_settings(args)
    assert settings["learning_rate"] == 5e-5 and settings["lr_scheduler_type"] == "cosine"
    assert settings["num_train_epochs"] == 3 and settings["max_length"] == 32_768
    assert settings["per_device_train_batch_size"] * settings["gradient_accumulation_steps"] == 32
    assert settings["optim"] in ("paged_adamw_8bit", "adamw_torch")
