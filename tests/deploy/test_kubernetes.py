"""The kustomize overlays, rendered by `kubectl kustomize` and validated with `kubernetes-validate
--strict` against Kubernetes 1.33 (k8s/validate.py); without kubectl these tests skip, saying so.
Broken copies written to tmp_path must fail."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from taue.contracts.integrity import SigningKey
from tests.deploy.helpers import (
    DOMAINS,
    GRPC_SERVICES,
    IMAGE,
    RUNNER,
    Manifest,
    assert_cli_accepts,
    by_kind,
    flag,
    ingress_sources,
    pod_specs,
    require_kubectl,
    selects,
    validate,
)
from tests.paths import ROOT

MODEL_SERVER = "model-server"
AGENT_UNDER_TEST = {"taue.dev/agent-under-test": "true"}
MCP_CLIENTS = [
    {"podSelector": {"matchLabels": RUNNER}},
    {"podSelector": {"matchLabels": AGENT_UNDER_TEST}},
    {"namespaceSelector": {"matchLabels": AGENT_UNDER_TEST}},
]

pytestmark = pytest.mark.xdist_group("deploy-config")  # session fixtures: built once, on one worker


@pytest.mark.parametrize("root", validate.KUSTOMIZE_ROOTS)
def test_kustomization_validates(root: str) -> None:
    require_kubectl()
    finding = validate.check_kustomization(ROOT / root)
    assert finding.ok, finding.problems


def test_kubernetes_validate_command_line_agrees(rendered: dict[str, list[Manifest]]) -> None:
    """The shell pipeline `... | kubernetes-validate --strict -k 1.33 -` agrees, on a good and a bad set."""
    docs = rendered["k8s/overlays/leaderboard"]
    assert validate.validate_with_cli(docs) == []
    broken = [
        dict(doc, spec={**doc["spec"], "strategy": 7})
        if (doc["kind"], doc["metadata"]["name"]) == ("Deployment", "vllm-agent")
        else doc
        for doc in docs
    ]
    problems = validate.validate_with_cli(broken)
    assert len(problems) == 1 and "deployment/vllm-agent" in problems[0] and "strategy" in problems[0]
    assert validate.validate_manifests(broken) != []


BROKEN_K8S = {
    "misspelled field": ("base/scorer.yaml", "  replicas: 1\n", "  replica: 1\n", "replica"),
    "wrong type": (
        "base/domains/airline.yaml", "containerPort: 9000", "containerPort: nine-thousand", "nine-thousand"
    ),
    "missing required field": (
        "base/simulator.yaml", "  selector:\n    matchLabels:\n", "  selectorx:\n    matchLabels:\n",
        "selector",
    ),
    "unknown apiVersion": (
        "base/network-policies.yaml", "networking.k8s.io/v1", "networking.k8s.io/v2", "v2"
    ),
    "missing resource": (
        "overlays/dev/kustomization.yaml", "  - admin-secret.yaml\n", "  - admin-secrets.yaml\n",
        "admin-secrets.yaml",
    ),
    "patch path missing": (
        "overlays/dev/kustomization.yaml",
        "path: /spec/template/spec/containers/0/resources/requests/cpu",
        "path: /spec/template/spec/nowhere/0/cpu",
        "nowhere",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", BROKEN_K8S)
def test_broken_manifest_copy_fails(case: str, tmp_path: Path) -> None:
    require_kubectl()
    file, old, new, message = BROKEN_K8S[case]
    shutil.copytree(ROOT / "k8s", tmp_path / "k8s")
    path = tmp_path / "k8s" / file
    assert old in path.read_text(), f"the test's anchor for {case!r} is gone from {file}"
    path.write_text(path.read_text().replace(old, new, 1))
    finding = validate.check_kustomization(tmp_path / "k8s/overlays/dev")
    assert not finding.ok
    assert any(message in problem for problem in finding.problems), finding.problems


def test_missing_kubectl_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No silent fallback: without kubectl the script stops at once, naming what it needs."""
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no kubectl on PATH
    with pytest.raises(validate.DeployCheckError, match="kubectl"):
        validate.check_kustomization(ROOT / validate.KUSTOMIZE_ROOTS[0])
    for argv in ([], ["--render", str(ROOT / validate.KUSTOMIZE_ROOTS[0])]):
        assert validate.main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"error: {validate.KUBECTL_MISSING}\n" and "kubectl kustomize" in err


def test_workloads_are_hardened(rendered: dict[str, list[Manifest]]) -> None:
    for root, docs in rendered.items():
        workloads = pod_specs(docs)
        assert workloads, root
        for doc, pod, labels in workloads:
            where = f"{root}: {doc['kind']}/{doc['metadata']['name']}"
            image = IMAGE if labels.get("app.kubernetes.io/component") != MODEL_SERVER else "vllm-openai"
            context = pod["securityContext"]
            assert context["runAsNonRoot"] is True and context["runAsUser"] != 0, where
            assert context["seccompProfile"]["type"] == "RuntimeDefault", where
            assert pod["automountServiceAccountToken"] is False, where
            volumes = {v["name"]: v for v in pod["volumes"]}
            for container in pod["containers"]:
                security = container["securityContext"]
                assert security["readOnlyRootFilesystem"] is True, where
                assert security["allowPrivilegeEscalation"] is False, where
                assert security["capabilities"]["drop"] == ["ALL"], where
                for bound in ("requests", "limits"):
                    assert {"cpu", "memory"} <= set(container["resources"][bound]), where
                mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
                assert "emptyDir" in volumes[mounts["/tmp"]], f"{where}: /tmp must be an emptyDir"
                assert container["image"].split("/")[-1].startswith((f"{image}:", f"{image}@sha256:")), where


def benchmark_services(docs: list[Manifest]) -> dict[str, Manifest]:
    """The Deployments of the benchmark's own services (the model servers are checked in test_cluster_run)."""
    return {
        name: doc
        for name, doc in by_kind(docs, "Deployment").items()
        if doc["metadata"]["labels"].get("app.kubernetes.io/component") != MODEL_SERVER
    }


def test_services_have_probes_and_match_the_cli(overlays: dict[str, list[Manifest]]) -> None:
    for root, docs in overlays.items():
        deployments = benchmark_services(docs)
        services = by_kind(docs, "Service")
        assert set(deployments) == set(DOMAINS) | set(GRPC_SERVICES), root
        for name, deployment in deployments.items():
            [container] = deployment["spec"]["template"]["spec"]["containers"]
            args = container["args"]
            assert_cli_accepts(args)
            ports = {p["name"]: p["containerPort"] for p in container["ports"]}
            probes = [container[p] for p in ("startupProbe", "readinessProbe", "livenessProbe")]
            if name in DOMAINS:
                assert args[:3] == ["serve", "env", name]
                assert ports == {"mcp": int(flag(args, "--mcp-port")[0]), "control": 9000}
                assert flag(args, "--control-port") == ["9000"]
                public = f"{name}.$(TAUE_MCP_HOST_SUFFIX)"
                assert flag(args, "--public-host") == [public], "MCP URLs must resolve from any namespace"
                assert flag(args, "--allowed-host") == [f"{public}:{ports['mcp']}", f"{name}:{ports['mcp']}"]
                env = {e["name"]: e for e in container["env"]}
                assert env["TAUE_MCP_HOST_SUFFIX"]["value"] == "$(POD_NAMESPACE).svc.cluster.local"
                assert env["POD_NAMESPACE"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.namespace"}}
                assert list(env).index("POD_NAMESPACE") < list(env).index("TAUE_MCP_HOST_SUFFIX")
                for probe in probes:
                    assert probe["httpGet"] == {"path": "/healthz", "port": "control"}, f"{root}: {name}"
            else:
                port = GRPC_SERVICES[name]
                assert args[:2] == ["serve", name] and flag(args, "--port") == [str(port)]
                assert ports == {"grpc": port}
                for probe in probes:
                    assert probe["grpc"] == {"port": port}, f"{root}: {name} needs native gRPC probes"
            service_ports = {p["name"]: p["port"] for p in services[name]["spec"]["ports"]}
            assert service_ports == ports, f"{root}: Service {name} must expose the container's ports"
            assert selects(
                {"matchLabels": services[name]["spec"]["selector"]},
                deployment["spec"]["template"]["metadata"]["labels"],
            )


def test_stateful_services_keep_one_replica(overlays: dict[str, list[Manifest]]) -> None:
    """Episodes and user sessions live in one process: a second replica would get calls it cannot serve."""
    for root, docs in overlays.items():
        for name, deployment in by_kind(docs, "Deployment").items():
            if name in DOMAINS or name == "simulator":
                assert deployment["spec"]["replicas"] == 1, f"{root}: {name}"


def test_network_policies_guard_control_ports(overlays: dict[str, list[Manifest]]) -> None:
    for root, docs in overlays.items():
        policies = list(by_kind(docs, "NetworkPolicy").values())
        assert any(
            p["spec"]["podSelector"] == {}
            and "ingress" not in p["spec"]
            and p["spec"]["policyTypes"] == ["Ingress"]
            for p in policies
        ), f"{root}: a default-deny ingress policy"
        for name, deployment in benchmark_services(docs).items():
            labels = deployment["spec"]["template"]["metadata"]["labels"]
            ports = {
                p["name"]: p["containerPort"]
                for p in deployment["spec"]["template"]["spec"]["containers"][0]["ports"]
            }
            guarded = [ports["control"]] if name in DOMAINS else [ports["grpc"]]
            for port in guarded:
                sources = ingress_sources(policies, labels, port)
                assert sources, f"{root}: nothing may reach {name}:{port}, not even the runner"
                assert all(s == {"podSelector": {"matchLabels": RUNNER}} for s in sources), (
                    f"{root}: {name}:{port} must be reachable from runner pods only, got {sources}"
                )
            if name in DOMAINS:
                assert ingress_sources(policies, labels, ports["mcp"]) == MCP_CLIENTS, (
                    f"{root}: MCP only for runner pods and agents under test (pods or namespaces by label)"
                )
        for doc in by_kind(docs, "Job").values():
            labels = doc["spec"]["template"]["metadata"]["labels"]
            assert selects({"matchLabels": RUNNER}, labels), f"{root}: Job pods need the runner label"


def test_dev_overlay_has_secrets_and_smoke_job(rendered: dict[str, list[Manifest]]) -> None:
    docs = rendered["k8s/overlays/dev"]
    secrets = by_kind(docs, "Secret")
    token, key = secrets["taue-admin"]["stringData"]["token"], secrets["taue-signing"]["stringData"]["key"]
    assert token and SigningKey(key).id and key != token, "a key the servers accept"
    job = by_kind(docs, "Job")["taue-smoke"]
    [container] = job["spec"]["template"]["spec"]["containers"]
    assert_cli_accepts(container["args"])
    assert {doc["metadata"].get("namespace") for doc in docs if doc["kind"] != "Namespace"} == {"taue-dev"}
    leaderboard = by_kind(rendered["k8s/overlays/leaderboard"], "Secret")
    assert not {"taue-admin", "taue-signing"} & set(leaderboard), "the dev values never reach the leaderboard"


ADMIN_SECRET = {"secretKeyRef": {"name": "taue-admin", "key": "token"}}
SIGNING_SECRET = {"secretKeyRef": {"name": "taue-signing", "key": "key"}}
SIGNERS = {*DOMAINS, "scorer"}
"""The services that sign (episode observations, rewards); no other workload of the overlays gets the key."""


def secret_variables(container: Manifest) -> dict[str, Manifest | None]:
    """The container's admin-token and signing-key variables, by name: where each comes from."""
    return {
        e["name"]: e.get("valueFrom")
        for e in container.get("env", [])
        if e["name"].startswith(("TAUE_ADMIN_TOKEN", "TAUE_SIGNING_KEY"))
    }


def test_every_server_needs_the_token_and_only_signers_hold_the_key(
    overlays: dict[str, list[Manifest]],
) -> None:
    for root, docs in overlays.items():
        serving = set()
        for doc, pod, labels in pod_specs(docs):
            name, component = doc["metadata"]["name"], labels.get("app.kubernetes.io/component")
            [container] = pod["containers"]
            where = f"{root}: {doc['kind']}/{name}"
            assert not any(
                "secretRef" in source and source["secretRef"]["name"] in ("taue-admin", "taue-signing")
                for source in container.get("envFrom", [])
            ), where
            if container.get("args", [])[:1] == ["serve"]:
                serving.add(name)
                assert "--insecure-no-token" not in container["args"], where
                expected = {"TAUE_ADMIN_TOKEN": ADMIN_SECRET}
                expected |= {"TAUE_SIGNING_KEY": SIGNING_SECRET} if name in SIGNERS else {}
            elif component == "runner":
                expected = {"TAUE_ADMIN_TOKEN": ADMIN_SECRET}  # runners carry signed records, never the key
            else:
                assert component == MODEL_SERVER, where
                expected = {}
            assert secret_variables(container) == expected, where
        assert serving == {*DOMAINS, *GRPC_SERVICES}, root


def required_secrets(docs: list[Manifest]) -> set[tuple[str, str]]:
    """(Secret, key) of every secretKeyRef that is not optional: a pod without it does not start."""
    found = set()
    for _doc, pod, _labels in pod_specs(docs):
        for container in pod["containers"]:
            for entry in container.get("env", []):
                ref = entry.get("valueFrom", {}).get("secretKeyRef")
                if ref and not ref.get("optional"):
                    found.add((ref["name"], ref["key"]))
    return found


def test_every_required_secret_is_made_by_the_dev_overlay_or_documented(
    rendered: dict[str, list[Manifest]],
) -> None:
    wanted = {("taue-admin", "token"), ("taue-signing", "key")}
    dev = rendered["k8s/overlays/dev"]
    assert required_secrets(dev) == wanted
    made = {(name, key) for name, secret in by_kind(dev, "Secret").items() for key in secret["stringData"]}
    assert wanted <= made, "a dev pod would wait for a Secret nobody makes"
    assert required_secrets(rendered["k8s/overlays/leaderboard"]) == wanted
    for doc in ("docs/deployment.md", "k8s/README.md"):
        text = (ROOT / doc).read_text()
        for name, key in wanted:
            assert f"create secret generic {name} --from-literal={key}=" in text, f"{doc}: how to make {name}"


def test_services_have_disruption_budgets_and_domains_know_their_memory(
    overlays: dict[str, list[Manifest]],
) -> None:
    """Voluntary evictions (drains, scale-downs) wait for every service: domains and the simulator hold
    episodes and sessions in memory. A domain's episode cap follows its container's memory limit."""
    for root, docs in overlays.items():
        budgets = by_kind(docs, "PodDisruptionBudget")
        for name, deployment in benchmark_services(docs).items():
            budget = budgets.get(name)
            assert budget is not None, f"{root}: {name} has no PodDisruptionBudget"
            assert budget["spec"]["minAvailable"] == 1, f"{root}: {name}"
            assert budget["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow", f"{root}: {name}"
            assert selects(budget["spec"]["selector"], deployment["spec"]["template"]["metadata"]["labels"])
            if name in DOMAINS:
                [container] = deployment["spec"]["template"]["spec"]["containers"]
                memory = {e["name"]: e for e in container["env"]}["TAUE_MEMORY_LIMIT_MB"]["valueFrom"]
                assert memory == {
                    "resourceFieldRef": {"containerName": name, "resource": "limits.memory", "divisor": "1Mi"}
                }, f"{root}: {name}"
