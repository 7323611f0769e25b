"""Deployment files rendered from the domain list (`taue deploy render`).

What depends on which domains exist is never hand-copied: the per-domain Kubernetes manifests
(`k8s/base/domains/<d>.yaml`) are rendered whole from one template, and the parts of hand-written files
that list domains sit between markers and are rendered in place (the two model servers of
`k8s/components/vllm/`, for the agent and the user model, are rendered from one template too):

    # >>> taue deploy render: <region>
    ... (rendered, indented like the opening marker)
    # <<< taue deploy render

Everything outside the markers is left as written. A test renders from the registry and fails when a
committed file differs (`taue deploy render --check`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path

from taue.contracts.domain import DESIGN_DOMAINS

FIRST_MCP_PORT = 8001
"""docker compose publishes each domain's MCP port on the host: 8001, 8002, … in deployment order."""

REGION_FILES = (
    "docker-compose.yml",
    "k8s/base/kustomization.yaml",
    "k8s/overlays/dev/smoke-job.yaml",
)
DOMAIN_MANIFESTS = "k8s/base/domains"
MODEL_SERVER_MANIFESTS = "k8s/components/vllm"
MODEL_SERVER_ROLES = ("agent", "user")
"""One vLLM server for the model under test, one for the LLM user: `vllm-agent`, `vllm-user`."""
MARKER = re.compile(r"^(?P<indent>[ ]*)# >>> taue deploy render: (?P<region>[a-z-]+)[ ]*$")
END = "# <<< taue deploy render"


class RenderError(Exception):
    """A file whose markers cannot be rendered (unknown region, no closing marker)."""


def deployment_order(names: Sequence[str]) -> list[str]:
    """The benchmark's ten domains in their published order, then any other domain by name; host
    ports follow this order, so adding a domain never moves another's port."""
    rank = {name: i for i, name in enumerate(DESIGN_DOMAINS)}
    return sorted(names, key=lambda name: (rank.get(name, len(rank)), name))


def _template(name: str) -> str:
    return files("taue.deploy").joinpath("templates", name).read_text(encoding="utf-8")


def _fill(template: str, domain: str, port: int | None = None) -> str:
    return template.replace("@DOMAIN@", domain).replace("@PORT@", str(port))


def _compose_services(domains: Sequence[str]) -> list[str]:
    template = _template("compose-domain.yaml")
    text = "".join(_fill(template, d, FIRST_MCP_PORT + i) for i, d in enumerate(domains))
    return text.rstrip("\n").split("\n")


REGIONS: dict[str, Callable[[Sequence[str]], list[str]]] = {
    "domain-services": _compose_services,
    "runner-env-flags": lambda domains: [f"- --env={d}=http://{d}:9000" for d in domains],
    "runner-env-vars": lambda domains: [f"TAUE_ENV_{d.upper()}: http://{d}:9000" for d in domains],
    "runner-depends-on": lambda domains: [f"{d}: {{condition: service_healthy}}" for d in domains],
    "domain-resources": lambda domains: [f"- domains/{d}.yaml" for d in domains],
}


def render_regions(text: str, domains: Sequence[str], where: str = "") -> str:
    """`text` with every marked region rendered for `domains`."""
    out: list[str] = []
    lines = iter(text.split("\n"))
    for line in lines:
        out.append(line)
        match = MARKER.match(line)
        if match is None:
            continue
        region, indent = match["region"], match["indent"]
        if region not in REGIONS:
            raise RenderError(f"{where}: unknown region {region!r} (known: {', '.join(REGIONS)})")
        for skipped in lines:
            if skipped.strip() == END:
                break
            if MARKER.match(skipped):
                raise RenderError(f"{where}: region {region!r} has no closing {END!r} before the next")
        else:
            raise RenderError(f"{where}: region {region!r} has no closing {END!r}")
        out.extend(f"{indent}{rendered}".rstrip() for rendered in REGIONS[region](domains))
        out.append(f"{indent}{END}")
    return "\n".join(out)


def rendered_files(root: Path, names: Sequence[str]) -> dict[str, str]:
    """Relative path -> the text it should have for these domains."""
    domains = deployment_order(names)
    wanted = {
        relative: render_regions((root / relative).read_text(encoding="utf-8"), domains, relative)
        for relative in REGION_FILES
    }
    template = _template("k8s-domain.yaml")
    for domain in domains:
        wanted[f"{DOMAIN_MANIFESTS}/{domain}.yaml"] = _fill(template, domain)
    model_server = _template("k8s-vllm.yaml")
    for role in MODEL_SERVER_ROLES:
        wanted[f"{MODEL_SERVER_MANIFESTS}/{role}.yaml"] = model_server.replace("@ROLE@", role)
    return wanted


def stale_files(root: Path, names: Sequence[str]) -> list[str]:
    """Per-domain manifests of domains that no longer exist."""
    keep = {f"{domain}.yaml" for domain in names}
    return sorted(
        f"{DOMAIN_MANIFESTS}/{path.name}"
        for path in (root / DOMAIN_MANIFESTS).glob("*.yaml")
        if path.name not in keep
    )


def differences(root: Path, names: Sequence[str]) -> list[str]:
    """The files that differ from their rendering (or should not exist), relative to `root`."""
    return sorted(_changes(root, names))


def render(root: Path, names: Sequence[str]) -> list[str]:
    """Write every rendered file that differs and remove stale manifests; returns what changed."""
    changes = _changes(root, names)
    for relative, text in changes.items():
        path = root / relative
        if text is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return sorted(changes)


def _changes(root: Path, names: Sequence[str]) -> dict[str, str | None]:
    """Relative path -> its rendered text where it differs, None where it should not exist."""
    changes: dict[str, str | None] = {
        relative: text
        for relative, text in rendered_files(root, names).items()
        if not (root / relative).is_file() or (root / relative).read_text(encoding="utf-8") != text
    }
    changes.update(dict.fromkeys(stale_files(root, names)))
    return changes
