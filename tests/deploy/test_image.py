"""The image builds and serves read-only; needs a Docker engine and skips without one."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.deploy.helpers import IMAGE, validate
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-config")  # session fixtures: built once, on one worker


def _docker_engine() -> Any:
    try:
        import docker
    except ImportError:
        pytest.skip("the docker SDK is not installed (pip install -e '.[deploy-check]')")
    try:
        client = docker.from_env(timeout=5)
        client.ping()
    except Exception as exc:
        pytest.skip(f"no Docker engine answers ({type(exc).__name__}): the image test needs one")
    return client


def test_image_builds_and_serves_read_only() -> None:
    client = _docker_engine()
    from testcontainers.core.image import DockerImage

    with DockerImage(path=ROOT, tag=f"{IMAGE}:pytest") as image:
        assert image.get_wrapped_image().attrs["Config"]["User"] == "10001:10001"
        listing = client.containers.run(str(image), ["domains"], remove=True, read_only=True)
        assert all(domain in listing.decode() for domain in ("airline", "retail"))
        container = client.containers.run(
            str(image),
            ["serve", "env", "airline", "--host=0.0.0.0", "--mcp-port=8001", "--control-port=9000"],
            detach=True,
            read_only=True,
            tmpfs={"/tmp": ""},
            environment={"TAUE_ADMIN_TOKEN": "pytest"},
        )
        try:
            healthcheck = validate.compose_model()["services"]["airline"]["healthcheck"]["test"][1:]
            deadline = time.monotonic() + 60
            while (code := container.exec_run(healthcheck).exit_code) != 0 and time.monotonic() < deadline:
                time.sleep(1)
            assert code == 0, container.logs().decode()
        finally:
            container.remove(force=True)
