"""`taue deploy render`: the committed deployment files are the rendering of the domain registry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taue import cli
from taue.deploy import render
from tests.deploy.helpers import DOMAINS, validate
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-config")  # session fixtures: built once, on one worker


def test_the_committed_deployment_files_are_the_rendering_of_the_registry() -> None:
    assert render.differences(ROOT, DOMAINS) == [], "run `taue deploy render`"


def _deploy_copy(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copytree(ROOT / "k8s", tmp_path / "k8s")
    return tmp_path


def test_a_new_domain_is_rendered_everywhere_and_removed_again(tmp_path: Path) -> None:
    root = _deploy_copy(tmp_path)
    before = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    changed = render.render(root, [*DOMAINS, "zebra"])
    assert changed == sorted([*render.REGION_FILES, "k8s/base/domains/zebra.yaml"])
    compose_text = (root / "docker-compose.yml").read_text()
    assert validate.check_compose(root / "docker-compose.yml").ok
    assert f"--mcp-port={8001 + len(DOMAINS)}" in compose_text
    assert "--env=zebra=http://zebra:9000" in compose_text and "TAUE_ENV_ZEBRA:" in compose_text
    manifest = (root / "k8s/base/domains/zebra.yaml").read_text()
    assert "name: zebra" in manifest and "- zebra\n" in manifest and "airline" not in manifest
    assert "- domains/zebra.yaml" in (root / "k8s/base/kustomization.yaml").read_text()
    assert "- --env=zebra=http://zebra:9000" in (root / "k8s/overlays/dev/smoke-job.yaml").read_text()
    render.render(root, DOMAINS)
    assert {path: path.read_bytes() for path in root.rglob("*") if path.is_file()} == before


def test_deploy_render_check_names_what_differs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    root = _deploy_copy(tmp_path)
    (root / "k8s/base/domains/retail.yaml").write_text("hand-edited\n")
    (root / "k8s/base/domains/old.yaml").write_text("a domain that is gone\n")
    check = CliRunner().invoke(cli.app, ["deploy", "render", "--check", "--root", str(root)])
    assert check.exit_code == 1
    assert "differs: k8s/base/domains/old.yaml" in check.output
    assert "differs: k8s/base/domains/retail.yaml" in check.output
    assert (root / "k8s/base/domains/old.yaml").exists(), "--check changes nothing"
    assert CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(root)]).exit_code == 0
    assert render.differences(root, DOMAINS) == []
    again = CliRunner().invoke(cli.app, ["deploy", "render", "--check", "--root", str(root)])
    assert again.exit_code == 0 and "up to date" in again.output
    compose_file = root / "docker-compose.yml"
    compose_file.write_text(compose_file.read_text().replace("# <<< taue deploy render\n", "", 1))
    broken = CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(root)])
    assert broken.exit_code == 2 and "has no closing" in broken.output
    nowhere = CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(tmp_path / "none")])
    assert nowhere.exit_code == 2 and "holds no docker-compose.yml" in nowhere.output
