"""Images by digest: the leaderboard overlay names its images by digest (all-zero placeholders until
`taue deploy pin`), `taue deploy pin` rewrites them, and `taue cluster run` refuses a tag unless
`--allow-tag`, passing the digest to the pods as TAUE_IMAGE_DIGEST for run.json."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from taue.cli import app
from taue.deploy.images import LEADERBOARD_OVERLAY, PLACEHOLDER_DIGEST, overlay_images
from taue.runner.manifest import run_manifest
from tests.deploy.helpers import Manifest, by_kind, require_kubectl, validate
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-pin")

SHA256 = re.compile(r"^sha256:[0-9a-f]{64}$")
DIGEST = "sha256:" + "ab" * 32
TAUE_IMAGE = "ghcr.io/example/tau-emotion-bench"
VLLM_DIGEST = "sha256:" + "cd" * 32
RUN = ["cluster", "run", "--agent", "oracle", "--name", "pinned", "--storage", "s3://bucket/taue"]


def taue(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def images_of(docs: list[Manifest]) -> set[str]:
    return {
        container["image"]
        for doc in docs
        if doc["kind"] in ("Deployment", "Job")
        for container in doc["spec"]["template"]["spec"]["containers"]
    }


def test_the_leaderboard_overlay_names_its_images_by_digest() -> None:
    text = (ROOT / LEADERBOARD_OVERLAY).read_text()
    entries = overlay_images(text)
    assert set(entries) == {"tau-emotion-bench", "vllm/vllm-openai"}
    for entry in entries.values():
        assert SHA256.match(entry["digest"]) and "newTag" not in entry, entry
        # committed: the documented placeholder, which names no image, until `taue deploy pin`
        assert entry["digest"] == PLACEHOLDER_DIGEST
    assert "taue deploy pin" in text and "placeholder" in text
    require_kubectl()
    rendered = images_of(validate.render(ROOT / "k8s/overlays/leaderboard"))
    assert rendered and all("@sha256:" in image for image in rendered), rendered


def test_pin_rewrites_the_overlay_entries_and_keeps_the_rest(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "k8s", tmp_path / "k8s")
    overlay = tmp_path / LEADERBOARD_OVERLAY
    before = overlay.read_text()
    for image in (f"{TAUE_IMAGE}:0.1.0@{DIGEST}", f"vllm/vllm-openai@{VLLM_DIGEST}"):
        result = taue("deploy", "pin", image, "--root", str(tmp_path))
        assert result.exit_code == 0, result.output
    after = overlay.read_text()
    assert overlay_images(after) == {
        "tau-emotion-bench": {"name": "tau-emotion-bench", "newName": TAUE_IMAGE, "digest": DIGEST},
        "vllm/vllm-openai": {
            "name": "vllm/vllm-openai",
            "newName": "vllm/vllm-openai",
            "digest": VLLM_DIGEST,
        },
    }
    changed = [line for line in after.splitlines() if line not in before.splitlines()]
    assert len(changed) == 3 and len(after.splitlines()) == len(before.splitlines()), changed
    assert yaml.safe_load(after)["patches"] == yaml.safe_load(before)["patches"]
    require_kubectl()
    assert validate.check_kustomization(overlay.parent).ok
    rendered = images_of(validate.render(overlay.parent))
    assert rendered == {f"{TAUE_IMAGE}@{DIGEST}", f"vllm/vllm-openai@{VLLM_DIGEST}"}


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (f"{TAUE_IMAGE}:0.1.0", "has no digest"),
        (f"{TAUE_IMAGE}@sha256:abc", "64 lower-case hex digits"),
        (f"{TAUE_IMAGE}@sha256:{'AB' * 32}", "64 lower-case hex digits"),
        (f"{TAUE_IMAGE}@md5:{'ab' * 16}", "must be sha256:"),
        (f"{TAUE_IMAGE}@{PLACEHOLDER_DIGEST}", "placeholder digest"),
        (f"ghcr.io/example/other-image@{DIGEST}", "no `images:` entry for 'ghcr.io/example/other-image'"),
        ("Not An Image", "not an image reference"),
    ],
)
def test_bad_pins_are_one_line_errors_that_change_nothing(image: str, message: str, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "k8s/overlays", tmp_path / "k8s/overlays")
    before = (tmp_path / LEADERBOARD_OVERLAY).read_bytes()
    result = taue("deploy", "pin", image, "--root", str(tmp_path))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert (tmp_path / LEADERBOARD_OVERLAY).read_bytes() == before


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (None, "--image must be pinned by digest"),  # the default, tau-emotion-bench:VERSION, is a tag
        (f"{TAUE_IMAGE}:0.1.0", "--image must be pinned by digest"),
        (f"{TAUE_IMAGE}@{PLACEHOLDER_DIGEST}", "placeholder digest"),
        (f"{TAUE_IMAGE}@sha256:123", "64 lower-case hex digits"),
    ],
)
def test_cluster_run_refuses_an_image_without_digest(image: str | None, message: str) -> None:
    result = taue(*RUN, *(["--image", image] if image else []))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def containers(output: str) -> list[Manifest]:
    docs = [doc for doc in yaml.safe_load_all(output) if doc]
    return [c for job in by_kind(docs, "Job").values() for c in job["spec"]["template"]["spec"]["containers"]]


def test_a_digest_reaches_the_pods_and_run_json(monkeypatch: pytest.MonkeyPatch) -> None:
    result = taue(*RUN, "--image", f"{TAUE_IMAGE}@{DIGEST}")
    assert result.exit_code == 0, result.output
    found = containers(result.stdout)
    assert len(found) == 2, "the shard Job and the merge Job"
    for container in found:
        assert container["image"] == f"{TAUE_IMAGE}@{DIGEST}"
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["TAUE_IMAGE_DIGEST"] == DIGEST
    monkeypatch.setenv("TAUE_IMAGE_DIGEST", env["TAUE_IMAGE_DIGEST"])  # as the kubelet sets it
    assert run_manifest(None, None, None, None).image_digest == DIGEST


def test_allow_tag_runs_a_tag_without_a_digest_to_record() -> None:
    result = taue(*RUN, "--image", "tau-emotion-bench:dev", "--allow-tag")
    assert result.exit_code == 0, result.output
    for container in containers(result.stdout):
        assert container["image"] == "tau-emotion-bench:dev"
        assert "TAUE_IMAGE_DIGEST" not in {e["name"] for e in container["env"]}
