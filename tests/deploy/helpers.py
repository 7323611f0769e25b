"""Shared by the deployment tests: the validators of k8s/validate.py and readers of manifests."""

from __future__ import annotations

import functools
import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest
import typer.main

from taue import cli
from taue.envs.runtime.discovery import domain_names
from tests.paths import ROOT

DOMAINS = domain_names()
GRPC_SERVICES = {"simulator": 50051, "scorer": 50052}
IMAGE = "tau-emotion-bench"
RUNNER = {"app.kubernetes.io/component": "runner"}


def _load_validate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("taue_deploy_validate", ROOT / "k8s" / "validate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


validate = _load_validate()
Manifest = dict[str, Any]


# --- helpers ------------------------------------------------------------------------------------


def flag(args: list[str], name: str) -> list[str]:
    """Values of `--name=value` / `--name value` in an argument list."""
    values = []
    for i, arg in enumerate(args):
        if arg.startswith(f"{name}="):
            values.append(arg.split("=", 1)[1])
        elif arg == name and i + 1 < len(args):
            values.append(args[i + 1])
    return values


def pod_specs(docs: list[Manifest]) -> list[tuple[Manifest, Manifest, dict[str, str]]]:
    """(resource, pod spec, pod labels) of every workload."""
    found = []
    for doc in docs:
        if doc["kind"] in ("Deployment", "Job"):
            template = doc["spec"]["template"]
            found.append((doc, template["spec"], template["metadata"].get("labels", {})))
    return found


def by_kind(docs: list[Manifest], kind: str) -> dict[str, Manifest]:
    return {doc["metadata"]["name"]: doc for doc in docs if doc["kind"] == kind}


def selects(selector: Manifest, labels: dict[str, str]) -> bool:
    assert set(selector) <= {"matchLabels"}, "these tests model matchLabels selectors only"
    return all(labels.get(k) == v for k, v in (selector.get("matchLabels") or {}).items())


def ingress_sources(policies: list[Manifest], pod_labels: dict[str, str], port: int) -> list[Any]:
    """Who may open `port` on a pod: a list of `from` peers, with "anyone" for a rule without `from`."""
    sources: list[Any] = []
    for policy in policies:
        spec = policy["spec"]
        if "Ingress" not in spec.get("policyTypes", ["Ingress"]) or not selects(
            spec["podSelector"], pod_labels
        ):
            continue
        for rule in spec.get("ingress", []):
            ports = rule.get("ports")
            if ports is not None and not any(p.get("port") == port for p in ports):
                continue
            sources.extend(rule.get("from", ["anyone"]))
    return sources


@functools.cache
def _taue() -> Any:
    return typer.main.get_command(cli.app)


def taue_command(path: list[str]) -> Any:
    """The (click) command object of `taue PATH...`; typer ships its own click, so duck typing."""
    command = _taue()
    for name in path:
        assert name in getattr(command, "commands", {}), f"no command taue {path}"
        command = command.commands[name]
    return command


def assert_cli_accepts(args: list[str]) -> None:
    """Every option of a container command exists in `taue` (catches renamed or removed flags)."""
    path: list[str] = []
    command = taue_command([])
    for arg in args:
        if arg in getattr(command, "commands", {}):
            path.append(arg)
            command = command.commands[arg]
        else:
            break
    options = {opt for param in command.params for opt in [*param.opts, *param.secondary_opts]}
    used = {arg.split("=", 1)[0] for arg in args if arg.startswith("--")}
    assert used <= options, f"taue {' '.join(path)} has no option {sorted(used - options)}"
    if path[:2] == ["serve", "env"]:
        assert args[2] in domain_names(), f"unknown domain {args[2]}"


def require_kubectl() -> None:
    """Skip a kustomize test, naming the missing engine, where kubectl is not installed."""
    try:
        validate.kubectl()
    except validate.DeployCheckError as exc:
        pytest.skip(str(exc))
