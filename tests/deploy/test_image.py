"""The image builds and serves read-only, with the secrets compose makes in a fresh named volume; needs a
Docker engine and skips without one."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.containers.engine import DEFAULT_BASE, LOCAL_BASE
from tests.deploy.helpers import IMAGE, validate
from tests.paths import ROOT

pytestmark = [
    pytest.mark.xdist_group("deploy-config"),  # session fixtures: built once, on one worker
    pytest.mark.docker,
    pytest.mark.slow,  # an image build
]


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


def _base_image(client: Any) -> str:
    """The Dockerfile's default base where the engine has it, else the one docker/local-base.sh makes
    from Debian packages (no registry for base images: the container stage builds it, tests/containers)."""
    for name in (DEFAULT_BASE, LOCAL_BASE):
        if client.images.list(name=name):
            return name
    pytest.skip(f"no base image: neither {DEFAULT_BASE} nor {LOCAL_BASE} (docker/local-base.sh) is here")


def test_image_builds_and_serves_read_only() -> None:
    client = _docker_engine()
    from testcontainers.core.image import DockerImage

    build = {"buildargs": {"PYTHON_IMAGE": _base_image(client)}, "network_mode": "host"}
    with DockerImage(path=ROOT, tag=f"{IMAGE}:pytest", **build) as image:
        assert image.get_wrapped_image().attrs["Config"]["User"] == "10001:10001"
        listing = run_once(client, str(image), ["domains"], read_only=True)
        assert all(domain in listing.decode() for domain in ("airline", "retail"))
        volume = client.volumes.create()  # fresh, as compose's `secrets` on the first `up`
        try:
            serve_with_the_compose_secrets(client, str(image), volume.name)
        finally:
            volume.remove(force=True)


def run_once(client: Any, image: str, command: list[str], **options: Any) -> bytes:
    """A container's output, the container then removed with its anonymous volume (the image's
    `VOLUME /runs`; docker-py's `remove=True` would leave it behind)."""
    container = client.containers.run(image, command, detach=True, **options)
    try:
        assert container.wait(timeout=120)["StatusCode"] == 0, container.logs().decode()[-500:]
        return bytes(container.logs(stderr=False))
    finally:
        container.remove(force=True, v=True)


def serve_with_the_compose_secrets(client: Any, image: str, volume: str) -> None:
    """The `secrets` service's command writes into the volume as the image's user (the volume takes
    /secrets' owner and mode from the image); a domain server reads them from it, read-only."""
    services = validate.compose_model()["services"]
    made = run_once(
        client, image, services["secrets"]["command"], read_only=True, tmpfs={"/tmp": ""},
        volumes={volume: {"bind": "/secrets", "mode": "rw"}},
    )  # fmt: skip
    assert made.decode().split() == ["made:", "/secrets/admin-token", "made:", "/secrets/signing-key"]
    modes = run_once(
        client, image, ["-c", "%u %a %n", "/secrets", "/secrets/admin-token", "/secrets/signing-key"],
        entrypoint="stat", volumes={volume: {"bind": "/secrets", "mode": "ro"}},
    )  # fmt: skip
    assert modes.decode().splitlines() == [
        "10001 700 /secrets", "10001 600 /secrets/admin-token", "10001 600 /secrets/signing-key"
    ]  # fmt: skip
    container = client.containers.run(
        image,
        ["serve", "env", "airline", "--host=0.0.0.0", "--mcp-port=8001", "--control-port=9000"],
        detach=True,
        read_only=True,
        tmpfs={"/tmp": ""},
        environment=services["airline"]["environment"],
        volumes={volume: {"bind": "/secrets", "mode": "ro"}},
    )
    try:
        healthcheck = services["airline"]["healthcheck"]["test"][1:]
        deadline = time.monotonic() + 60
        while (code := container.exec_run(healthcheck).exit_code) != 0 and time.monotonic() < deadline:
            time.sleep(1)
        logs = container.logs().decode()
        assert code == 0, logs
        assert "TAUE_SIGNING_KEY is not set" not in logs, "the signing key is read from the volume"
    finally:
        container.remove(force=True, v=True)
