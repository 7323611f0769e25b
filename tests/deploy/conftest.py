"""Fixtures of the deployment tests (session-scoped; the modules share one xdist group, so one
worker builds them once)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.deploy.helpers import Manifest, require_kubectl, validate
from tests.paths import ROOT


@pytest.fixture(scope="session")
def compose() -> dict[str, Any]:
    return validate.compose_model()


@pytest.fixture(scope="session")
def rendered() -> dict[str, list[Manifest]]:
    require_kubectl()
    return {root: validate.render(ROOT / root) for root in validate.KUSTOMIZE_ROOTS}


@pytest.fixture(scope="session")
def overlays(rendered: dict[str, list[Manifest]]) -> dict[str, list[Manifest]]:
    return {root: docs for root, docs in rendered.items() if root.endswith(("/dev", "/leaderboard"))}
