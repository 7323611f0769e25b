"""A Docker engine and the project's image for the container stage, provisioned where the machine allows.

Where no engine answers and the machine allows it (root, apt-get), Debian's `docker.io` is installed and
`dockerd` started (stopped again at the end of the session). The image is built with the legacy builder
on a base from Debian packages (docker/local-base.sh, made once and kept) unless the engine already has
the Dockerfile's default base; the build's layer cache makes an unchanged tree a rebuild of seconds.
Anything missing is one line, `no Docker engine: ...` or the like, for the stage's single skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.paths import ROOT

IMAGE = "tau-emotion-bench:containers-test"
"""The stage's own tag (compose's TAUE_IMAGE), so that it never replaces a user's `:latest`."""
LOCAL_BASE = "local/python:3.11-bookworm"
DEFAULT_BASE = "python:3.11-slim-bookworm"


class Unavailable(Exception):
    """What the machine lacks for the stage, in one line."""


@dataclass
class Timings:
    """Seconds each provisioning step took here (0 where it was not needed)."""

    engine_install: float = 0.0
    engine_start: float = 0.0
    base_build: float = 0.0
    image_build: float = 0.0
    steps: list[str] = field(default_factory=list)


def sh(*args: str, timeout: float = 120, check: bool = True, **kwargs: object) -> str:
    """Run a command; its stdout, or an AssertionError naming the command and its last lines."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kwargs)  # type: ignore[call-overload]
    if check and done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise AssertionError(f"{' '.join(args[:4])} … exited {done.returncode}:\n{tail}")
    return str(done.stdout)


def engine_answers() -> bool:
    if not shutil.which("docker"):
        return False
    info = ["docker", "info", "--format", "{{.ServerVersion}}"]
    return subprocess.run(info, capture_output=True, timeout=30).returncode == 0


def may_provision() -> bool:
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def install_engine(timings: Timings) -> None:
    """Debian's docker.io (Engine 20.10) and debootstrap, with apt-get."""
    start = time.monotonic()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if not shutil.which("dockerd") or not shutil.which("debootstrap"):
        sh("apt-get", "update", "-qq", timeout=300, env=env)
        sh("apt-get", "install", "-y", "-qq", "docker.io", "debootstrap", timeout=600, env=env)
        timings.engine_install = time.monotonic() - start
        timings.steps.append("installed docker.io")


def start_dockerd(log: Path, timings: Timings) -> subprocess.Popen[bytes]:
    """`dockerd` in the background (its log in `log`), once it answers."""
    start = time.monotonic()
    with log.open("ab") as out:
        daemon = subprocess.Popen(["dockerd"], stdout=out, stderr=out, start_new_session=True)
    deadline = time.monotonic() + 60
    while not engine_answers():
        if daemon.poll() is not None or time.monotonic() > deadline:
            daemon.kill()
            tail = log.read_text(errors="replace").strip().splitlines()[-1:]
            raise Unavailable(f"no Docker engine: dockerd did not start ({' '.join(tail)[:200]})")
        time.sleep(0.5)
    timings.engine_start = time.monotonic() - start
    timings.steps.append("started dockerd")
    return daemon


def has_image(name: str) -> bool:
    inspect = ["docker", "image", "inspect", name]
    return subprocess.run(inspect, capture_output=True, timeout=30).returncode == 0


def base_image(timings: Timings) -> str:
    """The Dockerfile's default base where the engine has it, else the local one (built once)."""
    if has_image(DEFAULT_BASE):
        return DEFAULT_BASE
    if not has_image(LOCAL_BASE):
        if not (may_provision() and shutil.which("debootstrap")):
            missing = f"neither {DEFAULT_BASE} nor {LOCAL_BASE} (docker/local-base.sh)"
            raise Unavailable(f"no base image: {missing}")
        start = time.monotonic()
        sh("bash", str(ROOT / "docker" / "local-base.sh"), LOCAL_BASE, timeout=900)
        timings.base_build = time.monotonic() - start
        timings.steps.append(f"built {LOCAL_BASE}")
    return LOCAL_BASE


def build_image(timings: Timings, no_cache: bool = False) -> None:
    """The project's image from this tree (legacy builder: no frontend image to pull; cached layers)."""
    base = base_image(timings)
    start = time.monotonic()
    env = {**os.environ, "DOCKER_BUILDKIT": "0"}
    args = ["--network", "host", "--build-arg", f"PYTHON_IMAGE={base}", "-t", IMAGE, str(ROOT)]
    sh("docker", "build", "-q", *(["--no-cache"] if no_cache else []), *args, timeout=900, env=env)
    timings.image_build = time.monotonic() - start
    timings.steps.append(f"built {IMAGE} on {base} in {timings.image_build:.0f} s")


def provision(log: Path, timings: Timings) -> subprocess.Popen[bytes] | None:
    """An engine that answers and the image; the dockerd this started (to stop), else None."""
    daemon = None
    if not engine_answers():
        if not may_provision():
            raise Unavailable("no Docker engine: none answers, and installing one needs root and apt-get")
        install_engine(timings)
        daemon = start_dockerd(log, timings)
    try:
        build_image(timings)
    except BaseException:
        stop_dockerd(daemon)
        raise
    return daemon


def stop_dockerd(daemon: subprocess.Popen[bytes] | None) -> None:
    if daemon is None:
        return
    daemon.terminate()
    try:
        daemon.wait(60)
    except subprocess.TimeoutExpired:
        daemon.kill()
