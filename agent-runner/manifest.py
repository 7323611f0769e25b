"""What a run was made with, kept in run.json beside its settings: the taue version, the git commit
and container image when known, the Python and platform, and the agent's and user's models and
endpoints (without credentials). The task-set hash lives in the settings themselves, since runs on
other tasks must not resume, merge, gate or rank together."""

from __future__ import annotations

import os
import platform
import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from taue.contracts.run import Endpoint, RunManifest

PACKAGE = "tau-emotion-bench"


def run_manifest(
    agent_model: str | None, agent_url: str | None, user_model: str | None, user_url: str | None
) -> RunManifest:
    return RunManifest(
        taue_version=taue_version(),
        git_commit=os.environ.get("TAUE_GIT_COMMIT") or source_commit(),
        image_digest=os.environ.get("TAUE_IMAGE_DIGEST") or None,
        python=platform.python_version(),
        platform=f"{platform.system()} {platform.machine()}",
        agent=Endpoint(model=agent_model, base_url=without_secrets(agent_url)),
        user=Endpoint(model=user_model, base_url=without_secrets(user_url)),
    )


def without_secrets(url: str | None) -> str | None:
    """`url` without credentials, query or fragment (where API keys sometimes travel)."""
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def taue_version() -> str:
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "unknown"


@cache
def source_commit() -> str | None:
    """The git commit of the checkout this package runs from, when it runs from one."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and len(commit) == 40 else None
